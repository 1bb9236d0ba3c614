//! The threat search of λ-df-pn and dual-λ, and the move lists it gives
//! their nodes ([`Search::threat_moves_here`]). Its parts live beside it:
//! the players' goals in `goals`, the moves a prover tries in
//! `candidates`, and the relevance zones that cut the opponent's replies,
//! with why that is sound, in `pruning`.
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

use super::candidates::Cands;
use super::ghi::{self, Bound};
use super::numbers::{Child, INF, NO_MOVE};
use super::search::Search;
use super::tt::{KO, REL};
use crate::go::board::{Board, Point, PASS};
use crate::tactics::rules::{Step, Winner};
use crate::tactics::zone::Zone;

/// A threat proof: what it read, the least stone counts of its positions
/// per class (its root included; see `ghi`) and whether it met a ko ban.
#[derive(Clone, Copy, Debug)]
pub struct Proof {
    pub zone: Zone,
    pub min: Bound,
    pub flags: u8,
    /// Most null moves on any line of the proof.
    pub nulls: u8,
}

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
    /// The bound of the current position alone (its counts in its class).
    fn bound_now(&self) -> Bound {
        self.anc.last().map_or(Bound::NONE, Bound::at)
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
        // Once a limit has stopped the search, no position is visited, so
        // none is counted: the nodes reported stay within the node limit.
        if self.abort.is_some() {
            self.threat_exhausted = true;
            self.threat_cuts += 1;
            return false;
        }
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
                Some(p) if self.zone_usable(prover, &p.min) => {
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

    /// Plays `m` when it is legal; the caller takes the move back. What a
    /// prover's move reads is not gathered here: most moves tried do not
    /// win, and only a win needs its zone ([`Search::move_zone`], asked
    /// once the move is taken back).
    fn play_tried(&mut self, m: Point) -> bool {
        self.play_if_legal(m)
    }

    /// What the current node reads ([`Search::node_reads`]) and what the
    /// current player's move `m` reads here ([`Zone::add_move`], which
    /// reads the position before the move), joined to `after`, the zone of
    /// the position the move led to. Asked only for a move that won, after
    /// it was taken back: the same position, so the zone that gathering
    /// both before playing would have given; the target's block, read by
    /// the node, is not walked again for the move.
    ///
    /// With `after_on` (the target stood after the move), `after` holds
    /// the target's block of that position whole (every proof's zone
    /// holds what its first node read: [`Search::holds_node_reads`]), and
    /// that block holds the node's: a defender's move only adds stones to
    /// the target and takes away no liberty but `m`, and an attacker's
    /// move that leaves the target standing takes away only the liberty
    /// `m` (the defender blocks it captures are not next to the target,
    /// else they would be part of it); a target off the board here, then
    /// on it, stands on the target point. So the node's reads are the
    /// block after the move and `m`, and need no walk.
    fn move_zone(&self, prover: Winner, m: Point, after: &Zone, after_on: bool) -> Zone {
        let mut zone = *after;
        if !after_on {
            self.node_reads(prover, &mut zone);
        }
        let b = self.game.board();
        zone.add_move_known(
            b,
            m,
            self.game.to_move(),
            self.soft_libs,
            &mut self.target_head(),
        );
        debug_assert!(self.holds_node_reads(prover, &zone));
        zone
    }

    /// Whether `zone` holds what [`Search::node_reads`] reads at the
    /// current node: true of the zone of every proof found at the node (a
    /// debug check of what [`Search::move_zone`] and
    /// [`Search::threat_and`] rely on).
    pub(super) fn holds_node_reads(&self, prover: Winner, zone: &Zone) -> bool {
        let mut reads = Zone::new();
        self.node_reads(prover, &mut reads);
        reads.subtract(zone);
        reads.is_empty()
    }

    /// The head of the target's block while it stands (the block
    /// [`Search::node_reads`] adds), as a set of heads for
    /// [`Zone::add_move_known`]; empty otherwise.
    fn target_head(&self) -> Zone {
        let mut heads = Zone::new();
        if self.target_on() {
            heads.insert(self.game.board().block(self.target));
        }
        heads
    }

    /// The goal's reads of the current position (the prover's move just
    /// played), for a zone completed once the move is taken back: every
    /// read only adds points, so the order of the two makes no
    /// difference.
    fn goal_zone(&self, prover: Winner) -> Zone {
        let mut reads = Zone::new();
        self.goal_reads(prover, &mut reads);
        reads
    }

    fn threat_or_search(&mut self, prover: Winner, order: u8, depth: u32) -> Option<Proof> {
        if let Some(end) = self.threat_node_start(prover, depth) {
            return end;
        }
        let here = self.bound_now();
        let ko = self.ko_flag();
        let mut cands = Cands::new();
        self.goal_moves(prover, &mut cands);
        for &m in &cands {
            if !self.play_tried(m) {
                continue;
            }
            let won = self.goal(prover).then(|| self.goal_zone(prover));
            let on = self.target_on();
            self.undo();
            if let Some(reads) = won {
                let zone = self.move_zone(prover, m, &reads, on);
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
                if !self.play_tried(m) {
                    continue;
                }
                // A threat move may reach the goal at once where the goal
                // moves did not list it (life is not only a liberty away).
                if self.goal(prover) {
                    let reads = self.goal_zone(prover);
                    let on = self.target_on();
                    self.undo();
                    let zone = self.move_zone(prover, m, &reads, on);
                    return Some(Proof {
                        zone,
                        min: here,
                        flags: ko,
                        nulls: 0,
                    });
                }
                let r = self.threat_and(prover, k, depth + 1);
                let on = self.target_on();
                self.undo();
                if let Some(p) = r {
                    let zone = self.move_zone(prover, m, &p.zone, on);
                    return Some(Proof {
                        zone,
                        min: here.join(p.min),
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
                min: self.bound_now(),
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
    /// are not searched (see `pruning`).
    fn threat_and(&mut self, prover: Winner, order: u8, depth: u32) -> Option<Proof> {
        if let Some(end) = self.threat_node_start(prover, depth) {
            return end;
        }
        let here = self.bound_now();
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
        let transfer = self.pruning_zone(prover, &null);
        if !self.transfer_usable(prover, &transfer) {
            return None;
        }
        let mut cands_zone = transfer.zone;
        // The null move's proof read the target's block (the pass changed
        // no stone), so only a retake of a target off the board, which the
        // pass may change, is left to add.
        if !self.target_on() {
            self.node_reads(prover, &mut cands_zone);
        }
        debug_assert!(self.holds_node_reads(prover, &cands_zone));
        // The proof's positions: the node, those of O's moves outside the
        // zone (transferred), and those below O's pass (the null move's
        // proof as it is).
        let mut proof = Proof {
            zone: cands_zone,
            min: here.join(transfer.min).join(null.min),
            flags: ko | null.flags,
            nulls: null.nulls + 1,
        };
        // O's pass is the null move but for the pass count: it loses the
        // same way unless it ends the game at once. Its position, in the
        // pass class, is one of the proof's.
        if self.play(PASS) {
            let over = self.game.winner().is_some();
            proof.min = proof.min.join(self.bound_now());
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
                if !self.play_tried(q) {
                    continue;
                }
                let r = self.threat_or(prover, order, depth + 1);
                self.undo();
                let p = r?;
                proof.zone.union(&p.zone);
                proof.min = proof.min.join(p.min);
                proof.flags |= p.flags;
                proof.nulls = proof.nulls.max(p.nulls);
            }
        }
        // Every reply lost. What each reply examined (played, or found
        // illegal) read, gathered only now that the proof stands (one
        // refutation ends most of these nodes): each reply was taken back,
        // so this is the position they were read in. The zone holds the
        // target's block already (the null move's proof read it), and
        // each block next to several replies is walked once.
        let b = self.game.board();
        let mut known = self.target_head();
        for q in cands_zone.iter() {
            if b.is_empty(q) {
                proof
                    .zone
                    .add_move_known(b, q, self.game.to_move(), self.soft_libs, &mut known);
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
                let transfer = self.pruning_zone(opp, &p);
                if self.transfer_usable(opp, &transfer) {
                    self.moves.clear();
                    let mut zone = transfer.zone;
                    // As in `threat_and`: the null move's proof read the
                    // target's block.
                    if !self.target_on() {
                        self.node_reads(opp, &mut zone);
                    }
                    debug_assert!(self.holds_node_reads(opp, &zone));
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
                    c.min = transfer.min;
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
                if !self.play_tried(m) {
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
