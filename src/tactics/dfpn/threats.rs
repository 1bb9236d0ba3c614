//! Threats and relevance zones for λ-df-pn and dual-λ search.
//!
//! # Threat orders
//!
//! After Thomsen (2000, "Lambda-search in game trees — with application to
//! Go") as summarised in seed 002: a player P has a *goal* — for the
//! attacker, the target block is captured; for the defender, the target
//! has `escape_libs` liberties or is unconditionally alive (Benson 1976,
//! see `tactics::life`: a defender win of the capture game, so eye-making
//! moves are the defender's threats). A λ⁰ win is a move that reaches the
//! goal.
//! A λⁿ move of P is one after which, were the opponent O to pass (a *null
//! move*), P would win with a λᵏ tree for some k < n. In a λⁿ tree P plays
//! only λⁿ moves; O plays every move that could refute the threat. Ladders
//! are λ¹ (the attacker's atari threatens a capture), nets λ².
//!
//! [`Search::threat_or`] is that search, depth first (Thomsen's λ-search
//! with a node budget): it answers whether P, to move, wins within order n,
//! and if so returns a [`Proof`] with the proof's *zone*.
//!
//! # The prover's candidates
//!
//! Which moves a prover tries as threats ([`Search::threat_moves`]) is a
//! heuristic: the target's liberties (and the points next to them from
//! order 2), the liberties of weak blocks next to the target, and for the
//! defender from order 2 its *partners*: its other blocks that touch a
//! liberty of the target, with their liberties and those of the weak
//! attacker blocks next to them, and from order 3 the points next to
//! those liberties (extending a partner that shares the target's
//! liberties makes them an eye the attacker cannot fill, as in capture
//! test 1's T7; capturing next to it frees it, as tactics test 4's C1).
//! The attacker, from order 2, also tries the liberties of the defender's
//! partners with fewer than `order` liberties: a partner that reaches a
//! liberty of the target is the connection the target escapes by, and
//! shortening it is the net (a first-line stone under an attacker stone:
//! after the attacker's D1, the defender's F2 reaches the target's
//! liberty F1, and the attacker's F3 ataris both;
//! `tests::lambda_finds_the_partner_attack`). With `order` liberties
//! instead of fewer, the extra moves changed which proof λ-df-pn found
//! first in `tests_ko::a_ko_free_proof_settles_every_model`, and the one
//! it found passed a ko ban. The candidates
//! only ever restrict the prover, which chooses among its moves: a result
//! that rests on such a restriction is flagged `REL` and never reported,
//! and a threat proof found with them is a proof in the game whichever
//! moves were tried. The opponent's moves are cut only by the zone
//! argument below, which does not depend on the candidates. So a longer
//! or shorter candidate list changes what is found, never what is true.
//!
//! # Why pruning by zones is sound
//!
//! The zone holds every point whose content the proof read: at each node,
//! the target's stones and liberties; for each move examined (played, or
//! found illegal), the point, its neighbours and every block next to it
//! with its liberties, except an enemy block of the mover with so many
//! liberties (`soft_libs`, more than the extra stones below can take
//! away, plus one) that the move cannot capture it before or after the
//! transfer: of such a block only its stone next to the move is read.
//! The mover's own blocks next to the move are always read whole: a
//! merged block's every liberty decides whether the opponent can capture
//! it next (a proof-check counterexample showed what goes wrong
//! otherwise). Claim: if the proof wins at X, it also wins at any
//! X' that differs from X by O stones on empty points outside the zone,
//! each placed where the proof had a null move (and by P blocks those
//! stones captured). By induction over the proof:
//!
//! * P's moves read only zone points, which are unchanged, so they are
//!   legal and do the same in X'. The goal and O's goal read only the
//!   target's stones and liberties, unchanged; a defender's goal reached
//!   by unconditional life also reads its certificate: the alive blocks
//!   with their liberties and the points of their vital regions. The
//!   regions are bounded by stones of alive blocks and their contents are
//!   read, so in X' they are the same regions, still touching only those
//!   blocks and still vital: the same certificate proves life (an O stone
//!   next to an alive block would sit on a read liberty).
//! * A threat search of the attacker gives up a line where the target
//!   lives unconditionally, or has won a race with the attacker to move
//!   (see `tactics::race`): it can never be captured there; giving up is
//!   a failure, and failures are never transferred.
//! * A P block with a stone in the zone was read whole, so an extra O
//!   stone next to it would sit on one of its liberties, inside the zone.
//!   A P block never read keeps its liberties through the proof, less the
//!   extra stones next to it; along one line there are at most as many
//!   extra stones as null moves (plus the stone being transferred), and
//!   [`Search::pruning_zone`] adds to the zone every P block next to a
//!   read O stone with no more liberties than that, so no block whose
//!   capture would give a read O block liberties can be captured.
//! * O's moves that were candidates have the same effect; O's moves
//!   outside a node's own null-move zone are covered by the claim itself,
//!   one level down (they take the place of that null move).
//! * P never passes in a threat proof, so the two-pass rule never decides
//!   a line of it, and a line that repeats a position is counted as a
//!   failure, not as a win.
//!
//! So at a node where O is to move and P, given a null move, wins with
//! zone Z: every O move outside the closed zone loses too, and only the
//! moves inside it (and O's pass, which differs from the null move only in
//! the pass count) need search. One more condition holds the argument on
//! the actual path: the positions of the transferred proof must not repeat
//! a position of the path, since the rules would end such a line for the
//! defender. For an attacker's proof this is checked like a stored capture
//! of df-pn (`capture_usable`, with the least stone counts of the proof);
//! for the defender's a repetition only helps the defender.
//!
//! The proof check (`tests/tactics_proof_check.rs`) compares every answer
//! of the searches built on this with exhaustive search.

use super::ghi::{self, capture_usable, Bound};
use super::numbers::{min2, Child, INF, NO_MOVE};
use super::search::Search;
use super::tt::{KO, NO_MIN, REL};
use crate::go::board::{Board, Point, PASS};
use crate::go::Color;
use crate::tactics::race;
use crate::tactics::rules::{Step, Winner};
use crate::tactics::zone::Zone;
use crate::tactics::{kolife, life};
use arrayvec::ArrayVec;

/// A threat proof: what it read, the least stone counts of its positions
/// (its root included) and whether it met a ko ban.
#[derive(Clone, Copy, Debug)]
pub struct Proof {
    pub zone: Zone,
    pub min: [u16; 2],
    pub flags: u8,
    /// Most null moves on any line of the proof.
    pub nulls: u8,
}

/// Candidate moves of one kind at one node.
pub type Cands = ArrayVec<Point, 96>;

/// One slot of the threat cache: the result of a threat search from a
/// position, for one prover and order. Failures are kept when the search
/// was complete (no budget or limit cut it short), and for the question a
/// node asks after its null move also when that question's whole budget
/// ran out; a failure that a repetition on the path caused is kept too.
/// Such failures can only make later searches find less, never prove
/// more.
#[derive(Clone, Copy, Default)]
pub struct CacheSlot {
    pub key: u64,
    pub proof: Option<Proof>,
}

/// One slot of the life cache: a position's key (board hash and target
/// point) and whether Benson's criterion proves the target alive there.
/// A verdict is a fact of the stones alone, so it holds on every path and
/// under every ko model; two positions share a key with the same 2⁻⁶⁴
/// chance the transposition table accepts.
#[derive(Clone, Copy, Default)]
pub struct LifeSlot {
    pub key: u64,
    pub alive: bool,
}

/// Slots of the life cache (a power of two; small enough to stay in the
/// processor's cache).
pub const LIFE_SLOTS: usize = 1 << 12;

/// Slots of the threat cache (a power of two).
pub const CACHE_SLOTS: usize = 1 << 15;

/// Depth limits of the passes of a threat search; the last is the deepest
/// line one ever follows below its root.
const THREAT_DEPTHS: [u32; 4] = [6, 12, 24, 48];

fn order_salt(prover: Winner, order: u8) -> u64 {
    let p = match prover {
        Winner::Attacker => 0x9E37_79B9_7F4A_7C15u64,
        Winner::Defender => 0xD1B5_4A32_D192_ED03,
    };
    p.wrapping_mul(order as u64 + 1)
}

impl Search<'_> {
    pub fn color_of(&self, side: Winner) -> Color {
        match side {
            Winner::Attacker => self.attacker,
            Winner::Defender => self.attacker.opp(),
        }
    }

    pub fn side_of(&self, c: Color) -> Winner {
        if c == self.attacker {
            Winner::Attacker
        } else {
            Winner::Defender
        }
    }

    /// Whether the empty point `q` is a liberty of the target.
    fn is_target_liberty(&self, q: Point) -> bool {
        let b = self.game.board();
        self.target_on()
            && Board::neighbors(q).iter().any(|&n| {
                b.color_at(n) == Some(self.attacker.opp()) && b.block(n) == b.block(self.target)
            })
    }

    fn target_on(&self) -> bool {
        self.game.board().color_at(self.target) == Some(self.attacker.opp())
    }

    /// Whether `side` has reached its goal: for the attacker the capture,
    /// for the defender the escape liberties or unconditional life (see
    /// [`crate::tactics::life`]; it is a defender win of the capture game).
    pub fn goal(&self, side: Winner) -> bool {
        match side {
            Winner::Attacker => !self.target_on() && !self.game.retake_pending(),
            Winner::Defender => self.escaped() || self.target_lives(),
        }
    }

    fn escaped(&self) -> bool {
        self.target_on() && self.game.board().libs(self.target) >= self.game.problem().escape_libs
    }

    /// Whether the target, not escaped yet, is unconditionally alive.
    /// Asked at nearly every node, and again each time df-pn comes back to
    /// a node, so the verdict is kept in a small cache by position.
    pub fn target_lives(&self) -> bool {
        let b = self.game.board();
        if !self.target_on() || b.libs(self.target) >= self.game.problem().escape_libs {
            return false;
        }
        // Benson's criterion reads the stones only, and the board's hash
        // covers exactly them; the target point names the block. Never 0,
        // the key of an empty slot.
        let key = (b.hash() ^ (self.target as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15)) | 1;
        let slot = &self.life_cache[(key >> 48) as usize & (LIFE_SLOTS - 1)];
        let seen = slot.get();
        if seen.key == key {
            return seen.alive;
        }
        let alive = life::target_lives(b, self.target, None);
        slot.set(LifeSlot { key, alive });
        alive
    }

    /// Whether the target lives by the ko eyes that the defender, favoured
    /// by the ko model, always retakes (see [`crate::tactics::kolife`]): a
    /// defender win, the attacker to move, under this model only. With
    /// `zone`, adds what the proof read to it when it does.
    pub fn target_ko_lives(&self, zone: Option<&mut Zone>) -> bool {
        let g = &self.game;
        g.model().favoured == Some(self.attacker.opp())
            && self.target_on()
            && kolife::target_ko_lives(g.board(), self.target, zone)
    }

    /// Whether the defender, the attacker to move, has won a race that
    /// ends in the target's escape (see [`crate::tactics::race`]): a
    /// defender win whatever the path or the ko model.
    pub fn race_won(&self) -> bool {
        debug_assert_eq!(self.game.to_move(), self.attacker);
        self.target_on()
            && race::race_won(
                self.game.board(),
                self.target,
                self.game.problem().escape_libs,
            )
    }

    /// The reads of a node where `prover` has reached its goal: the
    /// target's stones and liberties, and for a defender that lives
    /// unconditionally what its certificate read (the alive blocks with
    /// their liberties and their vital regions: see `life` for why an
    /// attacker stone anywhere else leaves it standing).
    fn goal_reads(&self, prover: Winner, zone: &mut Zone) {
        self.node_reads(prover, zone);
        if prover == Winner::Defender && !self.escaped() && self.target_on() {
            let alive = life::target_lives(self.game.board(), self.target, Some(zone));
            debug_assert!(alive, "the defender's goal is reached");
        }
    }

    /// The reads of a node: the target's stones and liberties.
    fn node_reads(&self, _prover: Winner, zone: &mut Zone) {
        if self.target_on() {
            zone.add_block(self.game.board(), self.target);
        } else if self.game.retake_pending() {
            // The defender's retake is a reply every zone must hold.
            zone.insert(self.target);
        }
    }

    /// The points where a move of the opponent of `prover` at the current
    /// node must be searched, given the proof `p` found after its null
    /// move: the proof's zone, closed under the one way an extra stone
    /// away from it could matter. Extra stones of the opponent placed
    /// outside the zone along any line of the transferred proof number at
    /// most its null moves plus one (each replaces a null move of the
    /// original, and one is the move itself); a block of the prover with
    /// more liberties than that, never read by the proof, can never be
    /// captured by them. A block with fewer, next to a stone of the
    /// opponent that the proof read, could be, and would give that stone's
    /// block liberties: it joins the zone with its liberties.
    pub fn pruning_zone(&self, prover: Winner, p: &Proof) -> Zone {
        let b = self.game.board();
        let pc = self.color_of(prover);
        let d = p.nulls as usize + 1;
        debug_assert!(
            d + 2 <= self.soft_libs,
            "soft reads assume few extra stones"
        );
        let mut z = p.zone;
        let mut done = Zone::new();
        for s in p.zone.iter() {
            let around: &[Point] = match b.color_at(s) {
                Some(c) if c == pc => &[s],
                Some(_) => &Board::neighbors(s),
                None => &[],
            };
            for &n in around {
                if b.color_at(n) != Some(pc) || done.contains(b.block(n)) {
                    continue;
                }
                done.insert(b.block(n));
                if b.libs(n) <= d {
                    z.add_block(b, n);
                }
            }
        }
        z
    }

    fn counts_now(&self) -> [u16; 2] {
        self.anc.last().map_or(NO_MIN, |a| a.counts)
    }

    fn ko_flag(&self) -> u8 {
        let g = &self.game;
        if g.board().ko_point(g.to_move()).is_some() {
            KO
        } else {
            0
        }
    }

    fn charge(&mut self) -> bool {
        self.nodes += 1;
        self.threat_nodes += 1;
        if self.nodes & 1023 == 0 {
            self.poll();
        }
        if self.nodes >= self.node_limit {
            self.abort.get_or_insert(crate::tactics::dfpn::Limit::Nodes);
        }
        if self.threat_left == 0 || self.abort.is_some() {
            self.threat_exhausted = true;
            self.threat_cuts += 1;
            return false;
        }
        self.threat_left -= 1;
        true
    }

    fn push_unique(out: &mut Cands, seen: &mut Zone, p: Point) {
        if !seen.contains(p) && !out.is_full() {
            seen.insert(p);
            out.push(p);
        }
    }

    /// The target's liberties, and for `second` the empty points next to
    /// them as well.
    fn liberty_moves(&self, out: &mut Cands, seen: &mut Zone, second: bool) {
        let b = self.game.board();
        if !self.target_on() {
            return;
        }
        let mut libs: ArrayVec<Point, 64> = ArrayVec::new();
        b.for_each_stone(self.target, |q| {
            for n in Board::neighbors(q) {
                if b.is_empty(n) && !libs.contains(&n) && !libs.is_full() {
                    libs.push(n);
                }
            }
        });
        for &l in &libs {
            Self::push_unique(out, seen, l);
        }
        if second {
            for &l in &libs {
                for n in Board::neighbors(l) {
                    if b.is_empty(n) {
                        Self::push_unique(out, seen, n);
                    }
                }
            }
        }
    }

    /// Calls `f` on a stone of each attacker block next to the target that
    /// has at most `max_libs` liberties.
    fn weak_neighbours(&self, max_libs: usize, mut f: impl FnMut(Point)) {
        let b = self.game.board();
        if !self.target_on() {
            return;
        }
        let mut done = Zone::new();
        b.for_each_stone(self.target, |q| {
            for n in Board::neighbors(q) {
                if b.color_at(n) != Some(self.attacker) || done.contains(b.block(n)) {
                    continue;
                }
                done.insert(b.block(n));
                if b.libs(n) <= max_libs {
                    f(n);
                }
            }
        });
    }

    /// Liberties of the attacker's blocks next to the target that have at
    /// most `max_libs` liberties: the defender captures or ataris there.
    fn neighbour_block_libs(&self, out: &mut Cands, seen: &mut Zone, max_libs: usize) {
        let b = self.game.board();
        self.weak_neighbours(max_libs, |n| {
            b.for_each_stone(n, |s| {
                for l in Board::neighbors(s) {
                    if b.is_empty(l) {
                        Self::push_unique(out, seen, l);
                    }
                }
            });
        });
    }

    /// For the attacker: the liberties of its blocks next to the target
    /// that have at most `max_libs` liberties (extending them), and the
    /// liberty of any defender block in atari next to those (capturing it):
    /// in a capturing race the attacker often threatens by first making
    /// its own surrounding stones safe.
    fn own_weak_block_moves(&self, out: &mut Cands, seen: &mut Zone, max_libs: usize) {
        let b = self.game.board();
        let defender = self.attacker.opp();
        let target = b.block(self.target);
        self.weak_neighbours(max_libs, |n| {
            b.for_each_stone(n, |s| {
                for l in Board::neighbors(s) {
                    if b.is_empty(l) {
                        Self::push_unique(out, seen, l);
                    } else if b.color_at(l) == Some(defender)
                        && b.block(l) != target
                        && b.libs(l) == 1
                    {
                        b.for_each_stone(l, |t| {
                            for m in Board::neighbors(t) {
                                if b.is_empty(m) {
                                    Self::push_unique(out, seen, m);
                                }
                            }
                        });
                    }
                }
            });
        });
    }

    /// For the attacker: the liberties of the defender's other blocks that
    /// touch a liberty of the target (its *partners*, which it could join)
    /// with at most `max_libs` liberties. Capturing or shortening such a
    /// block takes away the connection the target would escape by, or the
    /// shared liberty that was an eye (in capture test 13 after D8 B8 B7
    /// D9, black's E9 ataris the partner D9, which touches the target's
    /// liberty C9). Like every candidate these only ever restrict the
    /// attacker, never the defender's replies (see the module doc).
    fn partner_attack_moves(&self, out: &mut Cands, seen: &mut Zone, max_libs: usize) {
        let b = self.game.board();
        self.for_each_partner(|n| {
            if b.libs(n) <= max_libs {
                Self::push_block_libs(b, out, seen, n);
            }
        });
    }

    /// Calls `f` with one stone of each of the defender's *partners*, its
    /// blocks other than the target that touch a liberty of the target,
    /// each once, in the order the target's liberties meet them.
    fn for_each_partner(&self, mut f: impl FnMut(Point)) {
        let b = self.game.board();
        if !self.target_on() {
            return;
        }
        let defender = self.attacker.opp();
        let target = b.block(self.target);
        let mut done = Zone::new();
        b.for_each_stone(self.target, |q| {
            for l in Board::neighbors(q) {
                if !b.is_empty(l) {
                    continue;
                }
                for n in Board::neighbors(l) {
                    if b.color_at(n) != Some(defender)
                        || b.block(n) == target
                        || done.contains(b.block(n))
                    {
                        continue;
                    }
                    done.insert(b.block(n));
                    f(n);
                }
            }
        });
    }

    /// Pushes the liberties of the block on `blk`.
    fn push_block_libs(b: &Board, out: &mut Cands, seen: &mut Zone, blk: Point) {
        b.for_each_stone(blk, |s| {
            for l in Board::neighbors(s) {
                if b.is_empty(l) {
                    Self::push_unique(out, seen, l);
                }
            }
        });
    }

    /// For the defender: the liberties of its other blocks that touch a
    /// liberty of the target (blocks it may join), and the liberties of
    /// the attacker's blocks next to those with at most `max_libs`
    /// liberties (capturing them saves the partner), and with `wide` the
    /// empty points next to those liberties (the move before the capture,
    /// or a net: tactics test 4's C1). Extending the partner
    /// makes the shared liberties an eye or a connection the attacker
    /// cannot fill at once (capture test 1's T7), and a partner freed by a
    /// capture gives the target room (tactics test 4's answers D1 and C3
    /// are of this kind; after either, λ-df-pn finds no proof up to order
    /// 3, but it reads out the third answer, C1). Any subset of a prover's
    /// threats is sound (the prover chooses), so these only let λ-df-pn
    /// and dual-λ find more. Without `wide`, capture test 1 and tactics
    /// test 2 passed under `lambda-dfpn` at 3M nodes and tactics test 2
    /// under `dual-lambda`; `wide` adds tactics test 4's C1 to both. The
    /// threat searches try more moves: the suite's nodes under dual-λ went
    /// from 48.1M to 52.1M, under λ-df-pn from 38.8M to 39.8M.
    fn partner_moves(&self, out: &mut Cands, seen: &mut Zone, max_libs: usize, wide: bool) {
        let b = self.game.board();
        // The attacker blocks already looked at.
        let mut done = Zone::new();
        self.for_each_partner(|n| {
            Self::push_block_libs(b, out, seen, n);
            b.for_each_stone(n, |s| {
                for a in Board::neighbors(s) {
                    if b.color_at(a) != Some(self.attacker) || done.contains(b.block(a)) {
                        continue;
                    }
                    done.insert(b.block(a));
                    if b.libs(a) > max_libs {
                        continue;
                    }
                    Self::push_block_libs(b, out, seen, a);
                    if wide {
                        b.for_each_stone(a, |t| {
                            for l in Board::neighbors(t) {
                                if b.is_empty(l) {
                                    for m in Board::neighbors(l) {
                                        if b.is_empty(m) {
                                            Self::push_unique(out, seen, m);
                                        }
                                    }
                                }
                            }
                        });
                    }
                }
            });
        });
    }

    /// Moves that may reach `side`'s goal at once.
    pub fn goal_moves(&self, side: Winner, out: &mut Cands) {
        out.clear();
        let mut seen = Zone::new();
        let b = self.game.board();
        match side {
            Winner::Attacker => {
                if self.target_on() && b.libs(self.target) == 1 {
                    self.liberty_moves(out, &mut seen, false);
                }
            }
            Winner::Defender => {
                let e = self.game.problem().escape_libs;
                if self.target_on() && b.libs(self.target) + 3 >= e {
                    self.liberty_moves(out, &mut seen, false);
                }
                self.neighbour_block_libs(out, &mut seen, 1);
            }
        }
    }

    /// `side`'s candidate threat moves of order `order` (heuristic: any
    /// subset is sound, since the prover chooses).
    pub fn threat_moves(&self, side: Winner, order: u8, out: &mut Cands) {
        out.clear();
        let mut seen = Zone::new();
        let second = order >= 2;
        match side {
            Winner::Attacker => {
                self.liberty_moves(out, &mut seen, second);
                self.own_weak_block_moves(out, &mut seen, order as usize);
                if second {
                    self.partner_attack_moves(out, &mut seen, order as usize - 1);
                }
            }
            Winner::Defender => {
                self.neighbour_block_libs(out, &mut seen, 1);
                self.liberty_moves(out, &mut seen, second);
                self.neighbour_block_libs(out, &mut seen, order as usize + 1);
                if second {
                    self.partner_moves(out, &mut seen, order as usize + 1, order >= 3);
                }
            }
        }
    }

    /// Plays a null move for the player to move (see
    /// [`crate::tactics::rules::CaptureGame::play_null`]).
    pub fn play_null(&mut self) -> bool {
        if self.game.play_null() != Step::Played {
            return false;
        }
        let mut top = self.anc.last().copied().unwrap_or_default();
        top.passed = false;
        top.class = ghi::class(self.game.to_move(), false);
        self.anc.push(top);
        true
    }

    /// Whether the zone of an attacker's proof found at the null move of
    /// the current node may be transferred on this path (see the module
    /// documentation): the current node's ancestors must not hold a
    /// position the transferred proof could repeat.
    pub fn zone_usable(&self, prover: Winner, p: &Proof) -> bool {
        if prover == Winner::Defender {
            return true;
        }
        let (me, path) = self.anc.split_last().expect("the node is on the stack");
        capture_usable(&Bound::all(p.min), me, path)
    }

    /// The threat search after a null move at the current node: does the
    /// opponent of the player to move, moving again, win within `order`?
    /// It may use [`crate::tactics::dfpn::THREAT_BUDGET`] nodes.
    pub fn threat_after_null(&mut self, order: u8) -> Option<Proof> {
        let prover = self.side_of(self.game.to_move().opp());
        if !self.play_null() {
            return None;
        }
        let r = if self.game.last_was_cut() {
            None
        } else {
            self.threat_left = self.threat_budget;
            self.threat_exhausted = false;
            self.stats.threat_calls += 1;
            let before = self.threat_nodes;
            // Iterative deepening (as Thomsen's λ-search): short proofs are
            // found before long hopeless lines are followed; a deeper pass
            // is needed only when a depth cut left the question open.
            let mut r = None;
            for limit in THREAT_DEPTHS {
                self.threat_max_depth = limit;
                let cuts = self.threat_cuts;
                r = self.threat_or(prover, order, 0);
                if r.is_some() || self.threat_cuts == cuts || self.threat_exhausted {
                    break;
                }
            }
            if self.threat_exhausted && r.is_none() {
                self.stats.threat_exhausted += 1;
                // df-pn comes back to a node many times and asks the same
                // question each time; a search that used its whole budget
                // would use it again for nothing. Keeping the failure is
                // sound: a failure only ever keeps a move out of a
                // prover's threats or leaves a node unrestricted, so it
                // can make a search find less, never prove more. A stop by
                // a limit is not kept (the search is ending anyway).
                if self.abort.is_none() {
                    let key = self.game.key() ^ self.threat_salt ^ order_salt(prover, order);
                    self.cache[(key as usize) & (CACHE_SLOTS - 1)] = CacheSlot { key, proof: None };
                }
            }
            if r.is_some() {
                self.stats.threat_found += 1;
            }
            self.stats.threat_call_nodes_max = self
                .stats
                .threat_call_nodes_max
                .max(self.threat_nodes - before);
            r
        };
        self.undo();
        r
    }

    /// λ-search: can `prover`, to move, reach its goal with a λᵏ tree,
    /// k ≤ `order`? Returns the proof when it can.
    pub fn threat_or(&mut self, prover: Winner, order: u8, depth: u32) -> Option<Proof> {
        let key = self.game.key() ^ self.threat_salt ^ order_salt(prover, order);
        let slot = (key as usize) & (CACHE_SLOTS - 1);
        if self.cache[slot].key == key {
            let hit = self.cache[slot].proof;
            match hit {
                None => {
                    self.stats.threat_cache_hits += 1;
                    return None;
                }
                Some(p) if self.zone_usable(prover, &p) => {
                    self.stats.threat_cache_hits += 1;
                    return Some(p);
                }
                Some(_) => {}
            }
        }
        let cuts = self.threat_cuts;
        let r = self.threat_or_search(prover, order, depth);
        // A failure cut short by the depth, a budget or a limit is not a
        // fact of the position; a proof always is (with its stone-count
        // bound).
        if r.is_some() || (self.threat_cuts == cuts && self.abort.is_none()) {
            self.cache[slot] = CacheSlot { key, proof: r };
        }
        r
    }

    /// Plays the prover's move `m` when it is legal, and returns `base`
    /// with what the move reads; the caller takes the move back.
    fn play_reading(&mut self, m: Point, base: &Zone) -> Option<Zone> {
        if !self.game.is_legal(m) {
            return None;
        }
        let mut zone = *base;
        zone.add_move(self.game.board(), m, self.game.to_move(), self.soft_libs);
        self.play(m).then_some(zone)
    }

    fn threat_or_search(&mut self, prover: Winner, order: u8, depth: u32) -> Option<Proof> {
        if let Some(end) = self.threat_node_start(prover, depth) {
            return end;
        }
        let mut base = Zone::new();
        self.node_reads(prover, &mut base);
        let here = self.counts_now();
        let ko = self.ko_flag();
        let mut cands = Cands::new();
        self.goal_moves(prover, &mut cands);
        for &m in &cands {
            let Some(mut zone) = self.play_reading(m, &base) else {
                continue;
            };
            let won = self.goal(prover);
            if won {
                self.goal_reads(prover, &mut zone);
            }
            self.undo();
            if won {
                return Some(Proof {
                    zone,
                    min: here,
                    flags: ko,
                    nulls: 0,
                });
            }
        }
        for k in 1..=order {
            self.threat_moves(prover, k, &mut cands);
            for &m in &cands {
                let Some(mut zone) = self.play_reading(m, &base) else {
                    continue;
                };
                // A threat move may reach the goal at once where the goal
                // moves did not list it (life is not only a liberty away).
                if self.goal(prover) {
                    self.goal_reads(prover, &mut zone);
                    self.undo();
                    return Some(Proof {
                        zone,
                        min: here,
                        flags: ko,
                        nulls: 0,
                    });
                }
                let r = self.threat_and(prover, k, depth + 1);
                self.undo();
                if let Some(p) = r {
                    zone.union(&p.zone);
                    return Some(Proof {
                        zone,
                        min: min2(here, p.min),
                        flags: ko | p.flags,
                        nulls: p.nulls,
                    });
                }
                if self.threat_exhausted {
                    return None;
                }
            }
        }
        None
    }

    /// What every threat node checks first: the budget, the prover's goal
    /// reached, the line over otherwise, the depth limit. `Some(answer)`
    /// ends the node with that answer.
    fn threat_node_start(&mut self, prover: Winner, depth: u32) -> Option<Option<Proof>> {
        if !self.charge() {
            return Some(None);
        }
        if self.goal(prover) {
            let mut zone = Zone::new();
            self.goal_reads(prover, &mut zone);
            return Some(Some(Proof {
                zone,
                min: self.counts_now(),
                flags: 0,
                nulls: 0,
            }));
        }
        // The game is over, or the attacker's goal can no longer be met.
        if self.game.winner().is_some()
            || (prover == Winner::Attacker
                && (self.target_lives()
                    || (self.game.to_move() == self.attacker && self.race_won())))
        {
            return Some(None);
        }
        if depth >= self.threat_max_depth {
            self.threat_cuts += 1;
            return Some(None);
        }
        None
    }

    /// The opponent of `prover` to move after a λ^`order` move of it: does
    /// every reply lose? Replies outside the zone of the null-move proof
    /// are not searched (see the module documentation).
    fn threat_and(&mut self, prover: Winner, order: u8, depth: u32) -> Option<Proof> {
        if let Some(end) = self.threat_node_start(prover, depth) {
            return end;
        }
        let here = self.counts_now();
        let ko = self.ko_flag();
        // The threat: P wins if O does nothing.
        if !self.play_null() {
            return None;
        }
        let null = if self.game.last_was_cut() {
            None
        } else {
            self.threat_or(prover, order - 1, depth + 1)
        };
        self.undo();
        let null = null?;
        if !self.zone_usable(prover, &null) {
            return None;
        }
        let mut cands_zone = self.pruning_zone(prover, &null);
        self.node_reads(prover, &mut cands_zone);
        let mut proof = Proof {
            zone: cands_zone,
            min: min2(here, null.min),
            flags: ko | null.flags,
            nulls: null.nulls + 1,
        };
        // O's pass is the null move but for the pass count: it loses the
        // same way unless it ends the game at once.
        if self.play(PASS) {
            let over = self.game.winner().is_some();
            self.undo();
            if over {
                return None;
            }
        }
        // The target's liberties first: there the reply most often refutes
        // the threat (extending, or filling a liberty), and one refutation
        // ends the node. The order changes how soon a failure is found,
        // not what a proof holds (every reply is searched for one).
        for first in [true, false] {
            for q in cands_zone.iter() {
                if !self.game.board().is_empty(q) || self.is_target_liberty(q) != first {
                    continue;
                }
                proof
                    .zone
                    .add_move(self.game.board(), q, self.game.to_move(), self.soft_libs);
                if !self.game.is_legal(q) || !self.play(q) {
                    continue;
                }
                let r = self.threat_or(prover, order, depth + 1);
                self.undo();
                let p = r?;
                proof.zone.union(&p.zone);
                proof.min = min2(proof.min, p.min);
                proof.flags |= p.flags;
                proof.nulls = proof.nulls.max(p.nulls);
            }
        }
        Some(proof)
    }
}

impl Search<'_> {
    /// The moves of the current node under λ-df-pn or dual-λ, written to
    /// `self.moves`, and the pseudo-child that stands for the moves left
    /// out: either they are proven losses (they are outside the zone of
    /// the opponent's threat, and the pseudo-child carries that proof's
    /// stone counts and ko flag), or they were not considered (flag
    /// [`REL`]).
    ///
    /// * When the opponent, given a null move, wins by a threat of lower
    ///   order (and its goal is one the search follows), the mover must
    ///   answer inside its zone: those moves and the pass are the node's
    ///   moves. The node is searched completely.
    /// * Otherwise, when the mover's own goal is followed, the mover plays
    ///   only its threats of the search's order: moves that reach its goal
    ///   or after which, given a null move, it wins by a threat of lower
    ///   order.
    /// * Otherwise every move.
    pub fn threat_moves_here(&mut self, no_pass: bool) -> Option<Child> {
        let mover = self.game.to_move();
        let me = self.side_of(mover);
        let opp = self.side_of(mover.opp());
        let order = self.order;
        if self.follows(opp) {
            if let Some(p) = self.threat_after_null(order - 1) {
                if self.zone_usable(opp, &p) {
                    self.moves.clear();
                    let mut zone = self.pruning_zone(opp, &p);
                    self.node_reads(opp, &mut zone);
                    for q in zone.iter() {
                        if self.game.board().is_empty(q) && self.game.is_legal(q) {
                            self.moves.push(q);
                        }
                    }
                    if !no_pass {
                        self.moves.push(PASS);
                    }
                    self.stats.zone_nodes += 1;
                    log::trace!(
                        "zone node depth {} nulls {}: moves {:?}",
                        self.game.depth(),
                        p.nulls,
                        self.moves
                            .iter()
                            .filter(|&&m| m != PASS)
                            .map(|&m| Board::vertex(m).to_string())
                            .collect::<Vec<_>>()
                    );
                    let mut c = Child::new(NO_MOVE, 0, INF, u16::MAX);
                    c.flags = p.flags;
                    c.min = Bound::all(p.min);
                    return Some(c);
                }
            }
        }
        if !self.own {
            // Zone df-pn: no restriction here; the frame lists every move.
            return None;
        }
        if self.follows(me) {
            let mut cands = Cands::new();
            self.goal_moves(me, &mut cands);
            let mut more = Cands::new();
            self.threat_moves(me, order, &mut more);
            let mut seen = Zone::new();
            for &m in &cands {
                seen.insert(m);
            }
            for &m in &more {
                if !seen.contains(m) && !cands.is_full() {
                    cands.push(m);
                }
            }
            self.moves.clear();
            for &m in &cands {
                if !self.game.is_legal(m) || !self.play(m) {
                    continue;
                }
                let keep = self.game.winner().is_some()
                    || self.goal(me)
                    || self.threat_after_null(order - 1).is_some();
                self.undo();
                if keep {
                    self.moves.push(m);
                }
            }
            self.stats.threat_nodes_own += 1;
            let mut c = Child::new(NO_MOVE, 0, INF, u16::MAX);
            c.flags = REL;
            return Some(c);
        }
        self.game.moves(self.moves);
        if no_pass {
            self.moves.retain(|m| *m != PASS);
        }
        None
    }

    fn follows(&self, side: Winner) -> bool {
        match side {
            Winner::Attacker => self.sides[0],
            Winner::Defender => self.sides[1],
        }
    }
}
