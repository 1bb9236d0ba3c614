//! The df-pn recursion (Nagai's MID procedure in the negamax form): one
//! call per node visited, children kept in a shared fixed-capacity arena,
//! thresholds grown by the 1+ε rule, and the bookkeeping that makes
//! transposition-table results safe across paths (see the parent module).

use super::fixpoint::Closure;
use super::frame::LAZY;
use super::ghi::{self, capture_usable, Bound};
use super::goals::LifeSlot;
use super::kozone::NULL_MOVE;
use super::numbers::{
    aggregate_scanned, scan, Child, Scan, Value, BLOCK, CAP, GROUP, INF, NO_MOVE,
};
use super::threats::CacheSlot;
use super::tt::{Entry, Table, KO, PATH_DEP};
use super::zones::ZoneSlot;
use super::Limit;
use crate::go::board::{Board, Point, PointList, NUM_POINTS, PASS};
use crate::go::Color;
use crate::tactics::progress::Progress;
use crate::tactics::rules::{CaptureGame, Step, Winner};
use crate::tactics::zone::Zone;
use std::cell::Cell;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// What the search knows about one position of the current path: stone
/// counts (black, white), the size of the target block and the position's
/// class. They bound which earlier positions could come back (see `ghi`).
#[derive(Clone, Copy, Debug, Default)]
pub struct Anc {
    pub counts: [u16; 2],
    pub target: u16,
    /// The move that led here was a pass.
    pub passed: bool,
    /// [`ghi::class`] of the position.
    pub class: u8,
}

/// A generated child waiting for its table probe: its key (0: none
/// needed), its entry for the ancestor stack, and its player to move.
#[derive(Clone, Copy, Debug)]
pub struct Pending {
    pub key: u64,
    pub anc: Anc,
    pub mover: Color,
}

impl Pending {
    pub const NONE: Pending = Pending {
        key: 0,
        anc: Anc {
            counts: [0; 2],
            target: 0,
            passed: false,
            class: 0,
        },
        mover: Color::Black,
    };
}

/// Per-solve state; the big buffers belong to the `Solver` and are lent.
pub struct Search<'a> {
    pub game: CaptureGame,
    pub tt: &'a mut Table,
    pub arena: &'a mut Vec<Child>,
    pub anc: &'a mut Vec<Anc>,
    pub moves: &'a mut PointList,
    /// Children of the node being expanded, awaiting their table probes.
    pub pending: &'a mut Vec<Pending>,
    /// The kept scans of the blocks of children of the path's frames (see
    /// [`BLOCK`]), each frame's above its parent's.
    pub sums: &'a mut Vec<Scan>,
    /// Mixed into every key: ko model and move restriction.
    pub salt: u64,
    pub attacker: Color,
    pub target: Point,
    /// λ¹: the attacker may only play moves that capture or put the target
    /// in atari.
    pub ladder: bool,
    /// The forced-reply rule (see `forced`).
    pub forced: bool,
    /// The zone fixed point at attacker nodes (see `fixpoint`).
    pub fixpoint: bool,
    /// Set while a node whose zone fixed point failed is expanded again
    /// full width.
    pub zone_off: bool,
    /// Proof zones of solved defender wins, by key (see `fixpoint`).
    pub zones: &'a mut [ZoneSlot],
    /// The fixed points of the frames cut to their zone on the path, by
    /// level (see `Frame::level`); empty when `fixpoint` is off.
    pub closures: &'a mut [Closure],
    /// Mixed into the zone table's keys: changes with the problem.
    pub zone_salt: u64,
    /// ε of the 1+ε threshold rule, in thousandths.
    pub eps_milli: u64,
    /// δ by the weak (WPNS) rule instead of the sum.
    pub weak: bool,
    /// Every child starts at φ = δ = 1, as in df-pn without Nagai's df-pn+
    /// heuristic (see `numbers::heuristic`).
    pub neutral: bool,
    pub nodes: u64,
    /// Children generated (played and evaluated to initialise a frame).
    pub generated: u64,
    pub stats: Stats,
    pub node_limit: u64,
    pub deadline: Option<Instant>,
    pub stop: &'a AtomicBool,
    pub abort: Option<Limit>,
    /// Whose threats shape the move lists (attacker, defender): none for
    /// plain df-pn, one for λ-df-pn, both for dual-λ (see `threats`).
    pub sides: [bool; 2],
    /// Whether a followed player with no threat of the opponent to answer
    /// plays only its own threats (λ-df-pn, dual-λ: results resting on
    /// that restriction are flagged `REL`). When false (zone df-pn), such a
    /// node gets every move, as in plain df-pn: the search only ever
    /// leaves out moves proven to lose, so every result it finds is real.
    pub own: bool,
    /// The threat order of the search.
    pub order: u8,
    pub cache: &'a mut [CacheSlot],
    /// Benson's verdicts on the target by position (`Search::target_lives`).
    pub life_cache: &'a [Cell<LifeSlot>],
    /// Nodes one threat search may use, and what is left of them.
    pub threat_budget: u64,
    pub threat_left: u64,
    pub threat_exhausted: bool,
    /// Lines a threat search left open (depth or budget), and the depth
    /// limit of the current pass.
    pub threat_cuts: u64,
    pub threat_max_depth: u32,
    /// Liberties from which an enemy block next to a move is read as
    /// stones only (more than the extra stones any transferred proof can
    /// add, plus one).
    pub soft_libs: usize,
    /// Mixed into the keys of the threat cache: the ko model and
    /// `soft_libs`, all a threat search's result depends on besides the
    /// position, so that the searches of every order share the cache.
    pub threat_salt: u64,
    /// Nodes of threat searches (also counted in `nodes`).
    pub threat_nodes: u64,
    /// Told the current search line at every poll (live graphics).
    pub progress: Option<&'a mut dyn Progress>,
    /// The target's liberties at the node the next call of [`Search::mid`]
    /// visits, when its parent knew them (see [`Search::child_libs`]);
    /// taken by that call.
    pub libs_hint: Option<Zone>,
}

/// Counters for tuning and reports.
#[derive(Clone, Copy, Debug, Default)]
pub struct Stats {
    /// Nodes whose children were generated.
    pub expansions: u64,
    /// Solved table entries used (at nodes and when initialising children).
    pub tt_solved_hits: u64,
    /// Proven captures in the table not used because of the path.
    pub unusable: u64,
    /// Defender wins not stored because they rested on a cut line.
    pub path_dependent: u64,
    /// Table probes for generated children, and how many found an entry.
    pub child_probes: u64,
    pub child_hits: u64,
    /// Threat searches answered by the cache.
    pub threat_cache_hits: u64,
    /// Nodes whose moves were limited to the zone of a threat.
    pub zone_nodes: u64,
    /// Attacker nodes cut to the zone of the defender's winning points.
    pub forced_nodes: u64,
    /// Zone fixed points: closures computed, nodes lost by the rule,
    /// frames expanded again full width (the fixed point failed), moves
    /// the zones added.
    pub fix_closures: u64,
    pub fix_lost: u64,
    pub fix_full: u64,
    pub fix_added: u64,
    /// Nodes lost by the rule with a legal attacker move left out, and
    /// attacker nodes won by a move the zone's growth listed.
    pub fix_pruned: u64,
    pub fix_grown_wins: u64,
    /// Attacker nodes expanded cut to their zone, and full width for a ko
    /// ban.
    pub fix_nodes: u64,
    pub fix_ko: u64,
    /// Attacker moves refuted by the ko loop at zone fixed points (no
    /// child; see `kozone`).
    pub fix_loops: u64,
    /// Attacker nodes of plain df-pn that left out a capture starting a ko
    /// loop (no ban on the attacker; see `kozone`).
    pub loop_drops: u64,
    /// Why fixed points failed: the pseudo-child of a ko ban was won by
    /// the attacker or cut, the seed's zone (the pass, the pseudo-child)
    /// was unknown, a listed move's zone was unknown; and of the last, how
    /// many children were solved in the table without a zone.
    pub fix_fail_ko: u64,
    /// Nodes lost by the rule that had a ko ban and so the pseudo-child
    /// (its defender's proof after the attacker's null move held).
    pub fix_null_lost: u64,
    pub fix_fail_seed: u64,
    pub fix_fail_child: u64,
    pub fix_fail_child_stored: u64,
    /// Nodes where the mover played only its own threats.
    pub threat_nodes_own: u64,
    /// Quiet moves split off a group, and captures evaluated late (see
    /// `frame`).
    pub splits: u64,
    pub late: u64,
    /// Threat searches started, cut short by their budget, and successful;
    /// the most nodes one used.
    pub threat_calls: u64,
    pub threat_exhausted: u64,
    pub threat_found: u64,
    pub threat_call_nodes_max: u64,
}

impl Search<'_> {
    pub(super) fn defender(&self) -> Color {
        self.attacker.opp()
    }

    /// The target's liberties; 0 while it is off the board (taken by a ko
    /// capture that the defender may retake: `CaptureGame::retake_pending`).
    pub(super) fn target_libs(&self) -> usize {
        let b = self.game.board();
        if b.color_at(self.target) == Some(self.defender()) {
            b.libs(self.target)
        } else {
            0
        }
    }

    pub(super) fn poll(&mut self) {
        if let Some(p) = self.progress.as_deref_mut() {
            p.poll(self.nodes, &self.game);
        }
        if self.stop.load(Ordering::Relaxed) {
            self.abort.get_or_insert(Limit::Interrupted);
        } else if self.deadline.is_some_and(|d| Instant::now() >= d) {
            self.abort.get_or_insert(Limit::Time);
        }
    }

    /// Checks the limits now (also before the first node).
    pub fn check_limits(&mut self) {
        if self.nodes >= self.node_limit {
            self.abort.get_or_insert(Limit::Nodes);
        }
        self.poll();
    }

    /// Counts and target size of the current position (the root).
    pub fn root_anc(&self) -> Anc {
        let b = self.game.board();
        let c = b.stone_counts();
        Anc {
            counts: [c[0] as u16, c[1] as u16],
            target: self.target_size(b),
            passed: false,
            class: ghi::class(self.game.to_move(), false),
        }
    }

    /// The target's size for the ancestor stack. While a retake is
    /// pending (`CaptureGame::retake_pending`) it counts as the one stone
    /// just taken, which the retake puts back: the size then never
    /// shrinks along a line, which `ghi` and `could_repeat` rely on (no
    /// state before the target's last growth can recur).
    fn target_size(&self, b: &Board) -> u16 {
        if b.color_at(self.target) == Some(self.defender()) {
            b.block_size(self.target) as u16
        } else {
            u16::from(self.game.retake_pending())
        }
    }

    /// Plays `m` for the player to move and records the new position on
    /// the ancestor stack.
    pub(super) fn play(&mut self, m: Point) -> bool {
        self.play_by(m, |g| g.play(m))
    }

    /// [`Search::play`] of `m` when it is legal: the legality asked once,
    /// where `is_legal` then `play` asked it twice
    /// ([`CaptureGame::play_approved`]).
    pub(super) fn play_if_legal(&mut self, m: Point) -> bool {
        self.game.is_legal(m) && self.play_by(m, |g| g.play_approved(m))
    }

    /// Plays `m` by `step` and, when it was played, records the new
    /// position on the ancestor stack.
    #[inline(always)]
    fn play_by(&mut self, m: Point, step: impl FnOnce(&mut CaptureGame) -> Step) -> bool {
        let mover = self.game.to_move();
        let before = self.game.board().prisoners(mover);
        if step(&mut self.game) != Step::Played {
            return false;
        }
        self.push_anc(m, mover, before);
        true
    }

    /// [`Search::play`] of a move known to be legal here: a child of the
    /// frame being searched, generated as legal from this very position
    /// (see [`CaptureGame::play_legal`]).
    fn play_child(&mut self, m: Point) {
        let mover = self.game.to_move();
        let before = self.game.board().prisoners(mover);
        self.game.play_legal(m);
        self.push_anc(m, mover, before);
    }

    /// Records the position `mover` reached by `m` on the ancestor stack;
    /// `before`: its prisoners before the move.
    #[inline]
    fn push_anc(&mut self, m: Point, mover: Color, before: u32) {
        let b = self.game.board();
        let top = self.anc.last().copied().unwrap_or_default();
        let mut counts = top.counts;
        if m != PASS {
            counts[mover.index()] += 1;
        }
        let captured = (b.prisoners(mover) - before) as u16;
        counts[mover.opp().index()] -= captured;
        let target = self.target_size(b);
        self.anc.push(Anc {
            counts,
            target,
            passed: m == PASS,
            class: ghi::class(self.game.to_move(), m == PASS),
        });
    }

    pub(super) fn undo(&mut self) {
        self.anc.pop();
        self.game.undo();
    }

    /// The target's liberty, when it has exactly one.
    pub(super) fn liberty(&self) -> Option<Point> {
        let b = self.game.board();
        if b.color_at(self.target) != Some(self.defender()) || b.libs(self.target) != 1 {
            return None;
        }
        let mut lib = None;
        b.for_each_stone(self.target, |q| {
            for n in Board::neighbors(q) {
                if b.is_empty(n) {
                    lib = Some(n);
                }
            }
        });
        lib
    }

    /// The liberty by which the attacker, to move, captures the target at
    /// once, if it has exactly one, may play there, and the capture ends
    /// the line (not a ko capture the favoured defender may retake:
    /// `CaptureGame::capture_is_final`).
    pub fn capture_now(&self) -> Option<Point> {
        if self.game.to_move() != self.attacker || self.target_libs() != 1 {
            return None;
        }
        self.liberty()
            .filter(|&l| self.game.is_legal(l) && self.game.capture_is_final(l))
    }

    /// The value of a node known without search: the game is over, the
    /// attacker captures at once, or the defender ends the game by passing
    /// after a pass (two passes end it whatever the path).
    pub(super) fn exact(&self) -> Option<Value> {
        self.game_over().or_else(|| self.exact_static())
    }

    /// The part of [`Search::exact`] that depends on the path: a finished
    /// game (a repetition or the depth limit ends the line).
    fn game_over(&self) -> Option<Value> {
        let g = &self.game;
        let mover_att = g.to_move() == self.attacker;
        if let Some(w) = g.winner() {
            // A line ended by repetition or depth is the path's doing; a
            // ko capture of the target ends it under this model only.
            let flags = if w == Winner::Defender && g.last_was_cut() {
                PATH_DEP
            } else if w == Winner::Attacker && g.taken_by_ko_capture() {
                KO
            } else {
                0
            };
            return Some(Value::solved(
                (w == Winner::Attacker) == mover_att,
                flags,
                NO_MOVE,
            ));
        }
        None
    }

    /// The rest of [`Search::exact`]: facts of the state the table key
    /// names (stones, player to move, ko ban, a pass just played).
    fn exact_static(&self) -> Option<Value> {
        let g = &self.game;
        let mover_att = g.to_move() == self.attacker;
        // Unconditional life: the defender wins by passing from here on,
        // on every path and under every ko model (see `life`). Checked
        // where the attacker is to move, after the defender's moves that
        // make it (a node with the defender to move is decided one pass
        // later), to halve the cost.
        if mover_att && self.target_lives() {
            return Some(Value::solved(!mover_att, 0, NO_MOVE));
        }
        // A decided race: with the attacker to move, a fact of the stones
        // too, on every path and under every ko model (see `race`).
        if mover_att && self.race_won() {
            return Some(Value::solved(false, 0, NO_MOVE));
        }
        // Life through kos the favoured defender always retakes: a fact of
        // the stones on every path, but under this ko model only, hence
        // `KO` (see `kolife`).
        if mover_att && self.target_ko_lives(None) {
            return Some(Value::solved(false, KO, NO_MOVE));
        }
        if !mover_att && self.anc.last().is_some_and(|a| a.passed) {
            return Some(Value::solved(true, 0, PASS as u16));
        }
        let lib = self.capture_now()?;
        // Legality of the capture may depend on the ko model, and a ko
        // capture of the target ends the line under this model only.
        let flags = if g.board().ko_point(g.to_move()).is_some() || g.is_target_ko_capture(lib) {
            KO
        } else {
            0
        };
        Some(Value::solved(true, flags, lib as u16))
    }

    /// Whether a solved entry may be used at the current node (the top of
    /// the ancestor stack). Defender wins always may. A proven capture may
    /// unless some earlier position of the path could occur in its proof
    /// tree, where the rules would end that line as a repetition: such a
    /// position has, for its class, as many stones of each colour as the
    /// tree's bound and a target block of the same size (see `ghi`).
    fn usable(&self, e: &Entry, mover: Color) -> bool {
        let (me, path) = self.anc.split_last().expect("the node is on the stack");
        self.usable_at(e, mover, me, path)
    }

    /// [`Search::usable`] for a position `me` whose ancestors are `path`.
    pub(super) fn usable_at(&self, e: &Entry, mover: Color, me: &Anc, path: &[Anc]) -> bool {
        let attacker_win = (e.phi == 0) == (mover == self.attacker);
        !attacker_win || capture_usable(&e.min, me, path)
    }

    pub(super) fn key(&self) -> u64 {
        self.game.key() ^ self.salt
    }

    /// Child threshold on δ by the 1+ε rule (Pawlewicz & Lew 2007): stay
    /// in the best child until its δ passes the second best's by a factor
    /// 1+ε (at least by one), or the node's own φ threshold.
    fn grow(&self, delta2: u32) -> u32 {
        if delta2 >= CAP {
            return delta2;
        }
        let inc = (delta2 as u64 * self.eps_milli / 1000).max(1);
        (delta2 as u64 + inc).min(CAP as u64) as u32
    }

    /// Prefetches the table bucket of the child of move `m`, which the
    /// child's visit probes first thing, when its key is known without
    /// playing `m` (a stone that captures nothing): playing the move then
    /// overlaps the cache miss. A hint only. `m` must be legal.
    pub(super) fn prefetch_child(&self, m: Point) {
        let g = &self.game;
        if m != PASS
            && m < NUM_POINTS
            && g.has_room()
            && self.tt.is_enabled()
            && !g.board().captures_something(g.to_move(), m)
        {
            self.tt.prefetch(g.key_after_stone(m) ^ self.salt);
        }
    }

    /// Expands the current node again as a plain full-width node (group
    /// included), when its zone fixed point failed: a child's zone is
    /// unknown, or under a ko ban the attacker wins after a null move and
    /// a pass. The children searched so far are found in the table.
    fn restart_plain(&mut self, f: &mut super::frame::Frame, no_pass: bool, cursor: u16) {
        self.stats.fix_full += 1;
        self.arena.truncate(f.base);
        self.zone_off = true;
        // The same position: the same liberties.
        let libs = f.here.libs;
        *f = self.new_frame();
        self.fill_here(Some(libs), &mut f.here);
        self.expand(f, no_pass, true, cursor);
        self.zone_off = false;
    }

    /// The blocks of kept scans to scan again (the first stale one, and
    /// one changed block) after a step changed child `i` of the current
    /// frame, or took it off the arena, which was `len` long before; the
    /// blocks from `stale` on were stale already (a split appended to the
    /// last one since they were scanned).
    fn changed_blocks(&self, stale: usize, len: usize, i: usize) -> (usize, usize) {
        if self.arena.len() == len {
            (stale, i / BLOCK)
        } else {
            (stale.min(i / BLOCK), usize::MAX)
        }
    }

    /// Nagai's MID: searches the current node until its φ reaches `th_phi`
    /// or its δ reaches `th_delta`, it is solved, or a limit stops the
    /// search. `no_pass` (root only) leaves the pass out of the node's
    /// moves; such a node's disproof is not stored.
    pub fn mid(&mut self, th_phi: u32, th_delta: u32, no_pass: bool) -> Value {
        // Meant for this node only.
        let libs_hint = self.libs_hint.take();
        self.nodes += 1;
        if self.nodes >= self.node_limit {
            self.abort.get_or_insert(Limit::Nodes);
        }
        if self.nodes & 1023 == 0 {
            self.poll();
        }
        if let Some(v) = self.game_over() {
            return v;
        }
        let key = self.key();
        let probe = if no_pass { None } else { self.tt.probe(key) };
        // The table is written only below, after `exact_static` found
        // nothing, and what it reads is named by the key: a node with an
        // entry needs no second look (the life check is most of a
        // revisit's cost otherwise).
        if probe.is_none() {
            if let Some(v) = self.exact_static() {
                return v;
            }
        }
        let mover = self.game.to_move();
        let mut seen = no_pass;
        let mut cursor = 0;
        if !no_pass {
            if let Some(e) = probe {
                seen = true;
                cursor = e.cursor;
                if e.is_solved() {
                    if self.usable(&e, mover) {
                        self.stats.tt_solved_hits += 1;
                        return Value::from_entry(&e);
                    }
                    self.stats.unusable += 1;
                } else if e.phi >= th_phi || e.delta >= th_delta || self.abort.is_some() {
                    return Value::open(e.phi, e.delta, e.best);
                }
            }
        }
        if self.abort.is_some() {
            return Value::open(1, 1, NO_MOVE);
        }
        let mut f = self.new_frame();
        self.fill_here(libs_hint, &mut f.here);
        self.expand(&mut f, no_pass, seen, cursor);
        let base = f.base;
        self.stats.expansions += 1;
        let start = self.nodes;
        let mut agg;
        // Every step reads every child of the frame, and hard frames hold
        // dozens, of which a step changes one: the scans of the frame's
        // blocks of children are kept (see `BLOCK`), on the shared stack
        // from `sbase`; the blocks from `stale` on, and the block
        // `changed`, must be scanned again. After a split, which only
        // appends its member, the whole scan is kept too (`whole`).
        let sbase = self.sums.len();
        let mut stale = 0;
        let mut changed = usize::MAX;
        let mut whole = None;
        loop {
            let children = &self.arena[base..];
            let s = match whole.take() {
                Some(s) => s,
                None if children.len() <= BLOCK => {
                    // One block: scanned whole, and no block kept.
                    stale = 0;
                    scan(children)
                }
                None => {
                    let blocks = children.len().div_ceil(BLOCK);
                    self.sums.resize(sbase + blocks, Scan::EMPTY);
                    let mut s = Scan::EMPTY;
                    for (j, block) in children.chunks(BLOCK).enumerate() {
                        let kept = &mut self.sums[sbase + j];
                        if j >= stale || j == changed {
                            *kept = scan(block);
                        }
                        s = s.then(*kept, j * BLOCK);
                    }
                    (stale, changed) = (blocks, usize::MAX);
                    s
                }
            };
            debug_assert_eq!(s, scan(children), "the kept scans are the frame's");
            agg = aggregate_scanned(s, children.len(), self.weak, f.group);
            if f.fix && agg.delta == 0 {
                // Every listed move lost: the zone grows, and the moves
                // it brings in are searched before the node is lost.
                let mut c = *self.closure(&f);
                let new = self.close_zone(&mut c);
                self.stats.fix_closures += 1;
                *self.closure(&f) = c;
                // Children come and go: every block is scanned again.
                stale = 0;
                if c.full {
                    self.restart_plain(&mut f, no_pass, cursor);
                    continue;
                }
                self.stats.fix_added += new as u64;
                if new > 0 {
                    self.add_listed(&mut f);
                    continue;
                }
            }
            if agg.phi >= th_phi || agg.delta >= th_delta || self.abort.is_some() {
                break;
            }
            if agg.best == GROUP {
                // Not a search: the next quiet move becomes a child, on
                // the arena's end or folded into the losses; the other
                // children stay as scanned.
                let len = self.arena.len() - base;
                self.split(&mut f);
                whole = Some(s.extend(len, &self.arena[base + len..]));
                stale = stale.min(len / BLOCK);
                continue;
            }
            // From here on the step changes child `agg.best` alone, or
            // takes it off the arena (the children after it move down).
            let len = self.arena.len();
            let c = self.arena[base + agg.best];
            if c.flags & LAZY != 0 {
                self.evaluate_late(&mut f, agg.best);
                (stale, changed) = self.changed_blocks(stale, len, agg.best);
                continue;
            }
            let child_th_delta = th_phi.min(self.grow(agg.delta2));
            // The child's φ may grow until the node's δ would reach its
            // threshold: by the sum rule, by what the other children leave;
            // by the weak rule, until it is the largest φ and reaches the
            // threshold less the count term.
            let child_th_phi = if th_delta == INF {
                INF
            } else if agg.rest == u32::MAX {
                th_delta - (agg.delta - c.phi)
            } else {
                th_delta - agg.rest
            };
            if c.mv == NULL_MOVE {
                self.search_null_move(&mut f, agg.best, child_th_phi, child_th_delta);
                (stale, changed) = self.changed_blocks(stale, len, agg.best);
                if self.closure(&f).full {
                    self.restart_plain(&mut f, no_pass, cursor);
                    stale = 0;
                }
                continue;
            }
            let before = self.nodes;
            self.prefetch_child(c.mv as Point);
            // A generated move is legal (debug builds check it).
            self.play_child(c.mv as Point);
            let here = self.anc.last().map_or(Bound::NONE, Bound::at);
            let terminal_after = self.game.winner().is_some();
            self.libs_hint = self.child_libs(&f.here.libs, c.mv as Point, mover);
            let v = self.mid(child_th_phi, child_th_delta, false);
            self.undo();
            let slot = &mut self.arena[base + agg.best];
            slot.set(v, if terminal_after { Bound::NONE } else { here });
            slot.work = slot.work.saturating_add((self.nodes - before) as u32);
            self.settle(&mut f, agg.best);
            (stale, changed) = self.changed_blocks(stale, len, agg.best);
        }
        self.sums.truncate(sbase);
        let mut v = self.finish(&f, &agg, mover);
        if v.delta == 0 && f.fix && self.closure(&f).looped && !self.closure(&f).full {
            // Lost through a ko loop: only under the model that lets the
            // defender retake at once (see `fixpoint`).
            v.flags |= KO;
        }
        let solved = v.is_solved();
        let attacker_win = solved && ((v.phi == 0) == (mover == self.attacker));
        if attacker_win && f.fix && self.closure(&f).grown.contains(v.best as Point) {
            self.stats.fix_grown_wins += 1;
        }
        debug_assert!(
            !(attacker_win && v.flags & PATH_DEP != 0),
            "a capture never rests on a cut line"
        );
        // A path-dependent defender win is kept only in the frames above;
        // with `no_pass` only a win of the player to move holds for the
        // full node.
        let storable =
            (!solved || attacker_win || v.flags & PATH_DEP == 0) && (!no_pass || v.phi == 0);
        if solved && !attacker_win && v.flags & PATH_DEP != 0 {
            self.stats.path_dependent += 1;
        }
        if storable && self.fixpoint && solved && !attacker_win && v.flags & PATH_DEP == 0 {
            // A defender win's proof zone, for the zone fixed points above.
            let zone = if mover == self.attacker {
                (f.fix && !self.closure(&f).full).then(|| self.closure(&f).zone)
            } else {
                self.defender_win_zone(v.best as Point)
            };
            if let Some(z) = zone {
                self.store_zone(&z);
            }
            if mover == self.attacker && f.fix {
                self.stats.fix_lost += 1;
                self.stats.fix_null_lost += self.closure(&f).ko as u64;
                let c = *self.closure(&f);
                self.stats.fix_pruned += self.zone_pruned(&c) as u64;
            }
        }
        if storable {
            self.tt.store(Entry {
                key,
                phi: v.phi,
                delta: v.delta,
                work: (self.nodes - start + 1).min(u32::MAX as u64) as u32,
                best: v.best,
                flags: v.flags,
                min: v.min,
                cursor: f.cursor,
                generation: 0,
            });
        }
        self.arena.truncate(base);
        v
    }
}
