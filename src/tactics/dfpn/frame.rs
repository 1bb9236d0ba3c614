//! A node's children while it is searched (its *frame*): how they are
//! generated, and how the many interchangeable quiet moves of a full-width
//! node are kept as one *group* instead of one child each.
//!
//! With plain df-pn every legal move is a child, and at most nodes most of
//! them are moves far from the target. Each of those captures nothing and
//! touches no stone of the target, so it changes nothing the df-pn+
//! heuristic measures (the target's liberties, captures, a pass): they all
//! get the same first numbers. Evaluating them one by one was most of the
//! cost of a node, although a node is usually left after a few of its
//! children have been searched. So a frame holds:
//!
//! * **explicit children**, on the shared arena: the pass, every liberty
//!   of the target, every move that captures (the liberty of each block of
//!   the opponent in atari, found from the board's set of such blocks),
//!   and the members split off the group. Only unsolved children and
//!   winning ones stay there;
//! * **the mover's solved losses**, folded into one summary (their flags,
//!   least stone counts and the move with most work behind it), since a
//!   lost child adds nothing to φ or δ and matters only when the node is
//!   lost;
//! * **the group**: every other legal move. It counts as `count` unsolved
//!   children with the numbers a quiet move gets (`Members`). When the
//!   aggregation selects the group, its next member in board order (at
//!   `cursor`) is split off, evaluated exactly as a child always was, and
//!   (when the table knows it) given its table numbers. `count` is exact:
//!   the empty points, less the explicit ones and the members' suicides
//!   (see [`Search::start_group`]); it drops by one per member split off,
//!   so it is 0 exactly when no member is left.
//!
//! Children equal in δ are taken in board order, the pass last (their
//! `order`; the group's is its next member's), whatever their order on
//! the arena: the frame is searched as if it listed every move.
//!
//! The group never decides a result: its numbers are heuristic (never 0 or
//! ∞), so the node is won only through an explicit child and lost only
//! once the group is empty, every member having been split off and
//! searched like any child. One exception, exact by the rules: when the
//! defender is to move with the target in atari, every member loses at
//! once (see [`Search::atari_losses`]); the group then counts as solved
//! losses and is never split.
//!
//! Captures away from the target are *evaluated late* ([`LAZY`]); when the
//! target is in atari at the defender's move, they are decided at once
//! instead ([`Search::far_capture_loss`]).
//!
//! An unsolved table entry keeps the cursor, so that a node expanded again
//! gets back, as explicit children with their table numbers, the members
//! it had split off.
//!
//! A frame cut to threats (λ-df-pn, dual-λ) lists its moves as the threat
//! search gave them, in that order, and has no group.

use super::candidates::Cands;
use super::child::Here;
use super::fixpoint::Closure;
use super::ghi::Bound;
use super::kozone::NULL_MOVE;
use super::numbers::{rank, Agg, Child, Members, Value, GROUP, INF, NO_MOVE};
use super::search::{Pending, Search};
use super::tt::KO;
use crate::go::board::{Board, Point, PointList, PASS};
use crate::go::Color;
use crate::tactics::zone::Zone;

/// A flag of an explicit child whose numbers are a first guess: a capture
/// away from the target, whose heuristic numbers are known without
/// playing it (the target keeps its liberties), but whose exact outcome
/// (a repetition, the ko ban it leaves, whether it is legal at all) needs
/// the move played. It is played when first selected. Until then it counts
/// as unsolved, so the node is not lost before it is evaluated; a
/// winning child is never such a guess. The flag lives in frames only.
pub const LAZY: u8 = 0x40;

/// The mover's solved losses, folded out of the frame.
#[derive(Clone, Copy, Debug)]
pub(super) struct Lost {
    flags: u8,
    min: Bound,
    /// The move with the most work behind it (the first such by `order`),
    /// the longest resistance of a lost node.
    best: u16,
    work: u32,
    order: u16,
}

impl Lost {
    const NONE: Lost = Lost {
        flags: 0,
        min: Bound::NONE,
        best: NO_MOVE,
        work: 0,
        order: u16::MAX,
    };

    /// Losses known without their moves (every member of the group, see
    /// `atari`): their flags and bound, no move to show.
    pub(super) fn fold_unlisted(&mut self, flags: u8, min: Bound) {
        self.flags |= flags;
        self.min = self.min.join(min);
    }

    fn fold(&mut self, c: &Child) {
        self.flags |= c.flags;
        self.min = self.min.join(c.min);
        // The pseudo-child of the zone fixed point is no move.
        if c.mv != NULL_MOVE && c.work > self.work
            || (c.work == self.work && c.order() < self.order)
        {
            self.best = c.mv;
            self.work = c.work;
            self.order = c.order();
        }
    }
}

/// The children of the node being searched (see the module documentation).
pub struct Frame {
    /// Where the node's explicit children start on the arena.
    pub base: usize,
    /// The unsplit quiet moves.
    pub group: Members,
    /// The group's next member (the end of the board when none is left):
    /// the members before it have been split off.
    pub cursor: u16,
    /// One past the board's last point.
    pub(super) end: u16,
    /// What evaluating a child needs to know about the node.
    pub(super) here: Here,
    pub(super) lost: Lost,
    /// The frame is an attacker node cut to its zone (see `fixpoint`).
    /// Its fixed point, some hundred bytes, is not kept here but in the
    /// search's per-level array at `level` ([`Search::closure`]), so
    /// that every other frame stays small: frames are on the stack of the
    /// recursion, one per node of the path, and are built at every visit.
    pub fix: bool,
    /// The node's level: the length of the ancestor stack at the node,
    /// which grows strictly from a node to every node searched below it.
    pub level: u16,
}

impl Search<'_> {
    /// Writes the explicit moves into the move list in point order, pass
    /// last: the target's liberties and the liberties of the opponent's
    /// blocks in atari (the moves that capture). Some may be illegal.
    /// Returns the captures that may be evaluated late (see [`LAZY`]):
    /// those not on a liberty of the target that capture no block next to
    /// it, so that the target keeps its liberties.
    fn explicit_moves(&mut self, no_pass: bool, here: &Here) -> Zone {
        let g = &self.game;
        let b = g.board();
        let mover = g.to_move();
        let enemy = mover.opp();
        if !b.has_atari_block(enemy) {
            // Nothing to capture (the usual case): the target's liberties,
            // without the copies of them the captures need below.
            let moves = &mut *self.moves;
            moves.clear();
            here.libs.for_each(|p| moves.push(p));
            if !no_pass {
                moves.push(PASS);
            }
            return Zone::new();
        }
        // The target's liberties, and the liberties of the blocks next to
        // it the defender may capture.
        let mut near = here.libs;
        let mut lazy = Zone::new();
        // Every explicit point once: the zone lists them in point order.
        let mut all = here.libs;
        b.for_each_atari_block(enemy, |h| {
            if let Some(l) = b.first_liberty(h) {
                all.insert(l);
                if here.weak.contains(h) {
                    near.insert(l);
                } else {
                    lazy.insert(l);
                }
            }
        });
        let moves = &mut *self.moves;
        moves.clear();
        all.for_each(|p| moves.push(p));
        if !no_pass {
            moves.push(PASS);
        }
        if self.ladder && mover == self.attacker {
            // λ¹ keeps no such capture: they are dropped at once.
            return Zone::new();
        }
        // A point that is also a liberty of the target, or captures a block
        // next to it too, is evaluated at once.
        let mut late = lazy;
        late.subtract(&near);
        late
    }

    /// A capture evaluated late, with its first guess.
    fn lazy_child(&self, m: Point, replies: u32) -> Child {
        let (phi, delta) = self.capture_numbers(replies);
        let mut c = Child::new(m as u16, phi, delta, rank(m as u16));
        c.flags = LAZY;
        c
    }

    /// The moves of a defender's root whose pass won, in the order they
    /// are preferred among equal numbers: the target's liberties, the
    /// liberties of the attacker's blocks next to the target
    /// ([`Search::neighbour_block_libs`]), then the others, in the order of
    /// the move list (and with `all`, where the list holds only the
    /// explicit moves, every other empty point after them in board order).
    /// Any of them that wins is a right answer, as the pass was; a far one
    /// is a poor one to show (it may fill the defender's own eye), where
    /// shortening the attacker's liberties is what the position asks.
    /// Illegal moves are left to [`Search::init_child`].
    fn order_root_moves(&mut self, here: &Here, all: bool) {
        // The target's liberties come first anyway: not among the blocks'.
        let mut seen = here.libs;
        let mut near = Cands::new();
        self.neighbour_block_libs(&mut near, &mut seen, usize::MAX);
        // No pass: the root is searched without it.
        let old: PointList = self.moves.iter().copied().filter(|&m| m != PASS).collect();
        let mut given = Zone::new();
        for &m in &old {
            given.insert(m);
        }
        let b = self.game.board();
        let moves = &mut *self.moves;
        moves.clear();
        let mut listed = Zone::new();
        let mut push = |m: Point, moves: &mut PointList| {
            if !listed.contains(m) {
                listed.insert(m);
                moves.push(m);
            }
        };
        for &m in &old {
            if here.libs.contains(m) {
                push(m, moves);
            }
        }
        for &m in &near {
            if all || given.contains(m) {
                push(m, moves);
            }
        }
        for &m in &old {
            push(m, moves);
        }
        if all {
            for p in b.points() {
                if b.is_empty(p) {
                    push(p, moves);
                }
            }
        }
    }

    /// Generates the frame of the current node: its explicit children on
    /// the arena and its group. When the node has been searched before
    /// (`seen`), the members below `cursor` (split off then) are made
    /// children again, and the table is probed for every child that is not
    /// decided already, to start from what earlier searches learnt; a node
    /// seen for the first time starts from the heuristic alone, since its
    /// children are rarely in the table then (transpositions aside, which
    /// its children's own probes still catch when they are searched) and a
    /// probe costs a cache miss. Children are generated first and probed
    /// afterwards, after touching every bucket, so that the misses overlap.
    ///
    /// The frame of the current node before [`Search::expand`] fills it:
    /// no children yet, and a blank `here` that the caller fills next
    /// ([`Search::fill_here`]). Inlined, so that the frame is built where
    /// `mid` keeps it instead of copied there: the caller's own variable
    /// must be the one filled, as a frame filled here and returned would
    /// be copied (some four hundred bytes at every node).
    #[inline(always)]
    pub(super) fn new_frame(&self) -> Frame {
        let size = self.game.board().size();
        Frame {
            base: self.arena.len(),
            group: Members::default(),
            cursor: Board::point_at(0, 0) as u16,
            end: (Board::point_at(size - 1, size - 1) + 1) as u16,
            here: Here::EMPTY,
            lost: Lost::NONE,
            fix: false,
            level: self.anc.len() as u16,
        }
    }

    /// `f`: the node's frame as [`Search::new_frame`] made it, filled in
    /// place (a frame is some hundred bytes: returning it would copy it).
    pub(super) fn expand(&mut self, f: &mut Frame, no_pass: bool, seen: bool, cursor: u16) {
        let mut plain = self.sides == [false, false];
        let mut pseudo = None;
        let mut late = Zone::new();
        // The defender's winning points, when it has some, leave the
        // attacker only the moves of their zone: every other move, and the
        // pass, is a proven loss and left out (see `forced`).
        let forced = if self.forced && self.game.to_move() == self.attacker {
            self.forced_zone(&f.here)
        } else {
            None
        };
        if forced.is_some() {
            self.stats.forced_nodes += 1;
        }
        if !plain {
            pseudo = self.threat_moves_here(no_pass);
            // Zone df-pn: where no threat of the opponent limits the
            // moves, the node is a plain df-pn node (group included).
            plain = pseudo.is_none() && !self.own;
            if plain && log::log_enabled!(log::Level::Trace) {
                let path: Vec<String> = self
                    .game
                    .path_moves()
                    .map(|m| {
                        if m == PASS {
                            "pass".to_string()
                        } else {
                            Board::vertex(m).to_string()
                        }
                    })
                    .collect();
                log::trace!("open node {:?}: {}", self.game.to_move(), path.join(" "));
            }
        }
        // The zone fixed point (see `fixpoint`): the attacker's moves are
        // listed as its zone grows, from the explicit moves; no group.
        let rule = self
            .zone_rule_applies(no_pass)
            .filter(|_| plain && forced.is_none());
        f.fix = rule.is_some();
        if f.fix {
            // A ban on a ko that starts a loop needs no pseudo-child.
            let ko = rule == Some(true) && !self.ban_on_loop();
            *self.closure(f) = Closure::start(ko);
        }
        let mut group = plain && !f.fix;
        if self.fixpoint && self.game.to_move() == self.attacker {
            self.stats.fix_nodes += f.fix as u64;
            self.stats.fix_ko += !f.fix as u64;
        }
        // Where the group's scan for its first member stops, when known.
        let mut first = None;
        if group && forced.is_none() && !seen {
            // The group's first member is probed when the group is first
            // selected, often right after this expansion: its bucket is
            // asked for now, so that generating the explicit children
            // overlaps the miss.
            let mut p = f.cursor as Point;
            while p < f.end as Point && !self.is_member(p, &f.here) {
                p += 1;
            }
            if p < f.end as Point {
                self.prefetch_child(p);
            }
            first = Some(p as u16);
        }
        if let Some(zone) = &forced {
            if plain {
                // Listed one by one, in board order: no group.
                self.moves.clear();
                let g = &self.game;
                let moves = &mut *self.moves;
                zone.for_each(|q| {
                    if g.board().is_empty(q) && g.is_legal(q) {
                        moves.push(q);
                    }
                });
                group = false;
            } else {
                self.moves.retain(|m| *m != PASS && zone.contains(*m));
            }
        } else if plain {
            late = self.explicit_moves(no_pass, &f.here);
            if f.fix {
                self.drop_loop_kos();
                let mut listed = Zone::new();
                for &m in self.moves.iter() {
                    if m != PASS {
                        listed.insert(m);
                    }
                }
                self.closure(f).listed = listed;
            } else if self.drop_loop_kos_unbanned() {
                // The loss, if it comes, rests on the defender's favour.
                f.lost.flags |= KO;
            }
        }
        // The root searched again without its pass (the pass won, see
        // `Options::avoid_root_pass`): its moves are listed one by one, so
        // that those that bear on the fight come before the far ones.
        let listed = no_pass && forced.is_none() && !f.fix;
        if listed {
            self.order_root_moves(&f.here, group);
            group = false;
        }
        let in_atari = self.defender_in_atari(&f.here);
        let losses = self.atari_losses(in_atari);
        self.pending.clear();
        let mover = self.game.to_move();
        for i in 0..self.moves.len() {
            let m = self.moves[i];
            if no_pass && m == PASS {
                continue;
            }
            // A frame cut to threats, and the root listed above, keep
            // their move list's order.
            let order = if plain && !listed {
                rank(m as u16)
            } else {
                i as u16
            };
            // Outside the plain search the move list is not cut to the
            // explicit moves, and a move that loses at once is decided here.
            if let Some((lib, flags, counts)) = losses.filter(|_| !plain) {
                if m != PASS && m != lib && !self.game.board().captures_something(mover, m) {
                    let mut c = Child::fresh(m);
                    c.set(
                        Value::solved(true, flags, lib as u16),
                        self.after_defender(counts),
                    );
                    c.set_order(order);
                    f.lost.fold(&c);
                    continue;
                }
            }
            if m != PASS && late.contains(m) {
                if !self.game.is_legal(m) {
                    // A ko ban: no move here.
                    continue;
                }
                let Some((lib, flags)) = in_atari else {
                    self.arena.push(self.lazy_child(m, f.here.replies));
                    self.pending.push(Pending::NONE);
                    continue;
                };
                // Where the target's capture may be a ko capture, `m` may
                // change whether it is one: the child is played.
                if let Some(c) = self.far_capture_loss(m, lib).filter(|_| flags == 0) {
                    if cfg!(debug_assertions) {
                        let generated = self.generated;
                        let played = self.init_played_child(m, f.here.replies);
                        self.generated = generated;
                        let want = format!("{:?}", Some((c, None::<Pending>)));
                        assert_eq!(want, format!("{played:?}"), "capture {m}");
                    }
                    f.lost.fold(&c);
                    continue;
                }
            }
            if let Some((c, p)) = self.init_child(m, &f.here) {
                debug_assert!(self.arena.len() < self.arena.capacity(), "arena overflow");
                let mut c = c;
                c.set_order(order);
                self.arena.push(c);
                self.pending.push(p.unwrap_or(Pending::NONE));
            }
        }
        if let Some(c) = pseudo {
            self.arena.push(c);
            self.pending.push(Pending::NONE);
        }
        if f.fix && self.closure(f).ko {
            self.arena.push(self.null_move_child());
            self.pending.push(Pending::NONE);
        }
        if group {
            self.start_group(f, losses.map(|l| (l.1, l.2)), first);
            if seen {
                while f.group.count > 0 {
                    let Some(m) = self.next_member(f, cursor) else {
                        break;
                    };
                    if let Some((c, p)) = m {
                        self.arena.push(c);
                        self.pending.push(p.unwrap_or(Pending::NONE));
                    }
                }
                self.prefetch_member(f);
            }
        }
        if seen && self.tt.is_enabled() {
            self.probe_children(f.base);
        }
        // Fold the solved losses away, keeping the others in order. A
        // child is read in place and moved only when a loss before it left
        // a gap (most frames have none).
        let children = &mut self.arena[f.base..];
        let mut kept = 0;
        for i in 0..children.len() {
            if children[i].phi == 0 {
                f.lost.fold(&children[i]);
            } else {
                if kept != i {
                    children[kept] = children[i];
                }
                kept += 1;
            }
        }
        self.arena.truncate(f.base + kept);
    }

    /// Adds the moves of the move list as children (new points of a zone,
    /// see `fixpoint`), with their table numbers when the table has them.
    pub(super) fn add_listed(&mut self, f: &mut Frame) {
        for i in 0..self.moves.len() {
            let m = self.moves[i];
            if let Some((c, p)) = self.init_child(m, &f.here) {
                self.place_child(f, c, p);
            }
        }
    }

    /// Evaluates child `i`, a capture whose evaluation was left for later
    /// ([`LAZY`]), now that it was selected, with its table numbers when
    /// the table has it.
    pub(super) fn evaluate_late(&mut self, f: &mut Frame, i: usize) {
        let m = self.arena[f.base + i].mv as Point;
        self.stats.late += 1;
        match self.init_child(m, &f.here) {
            None => {
                self.arena.remove(f.base + i);
            }
            Some((mut c, p)) => {
                if let Some(p) = p.filter(|_| self.tt.is_enabled()) {
                    self.probe_child(&mut c, &p);
                }
                self.arena[f.base + i] = c;
                self.settle(f, i);
            }
        }
    }

    /// After child `i` of the frame got a new value: a solved loss leaves
    /// the arena for the summary.
    pub(super) fn settle(&mut self, f: &mut Frame, i: usize) {
        if self.arena[f.base + i].phi == 0 {
            let c = self.arena.remove(f.base + i);
            f.lost.fold(&c);
        }
    }

    /// Takes one new child: its table numbers when the table has them,
    /// then folded into the frame's losses if it is already lost, else
    /// onto the arena.
    #[inline]
    pub(super) fn place_child(&mut self, f: &mut Frame, mut c: Child, p: Option<Pending>) {
        if let Some(p) = p.filter(|_| self.tt.is_enabled()) {
            self.probe_child(&mut c, &p);
        }
        if c.phi == 0 {
            f.lost.fold(&c);
        } else {
            self.arena.push(c);
        }
    }

    /// Gives a generated child its table numbers, when the table has the
    /// child and, for a proof, the path may use it.
    fn probe_child(&mut self, c: &mut Child, p: &Pending) {
        let probe = self.tt.probe(p.key);
        self.stats.child_probes += 1;
        self.stats.child_hits += probe.is_some() as u64;
        match probe {
            Some(e) if !e.is_solved() => {
                c.phi = e.phi;
                c.set_delta(e.delta);
            }
            Some(e) if self.usable_at(&e, p.mover, &p.anc, self.anc) => {
                self.stats.tt_solved_hits += 1;
                c.set(Value::from_entry(&e), Bound::at(&p.anc));
            }
            // Absent, or a proof this path cannot use: the heuristic
            // numbers stay.
            _ => {}
        }
    }

    /// Probes the table for the children from `base` on, as `pending`
    /// lists them, touching every bucket first.
    fn probe_children(&mut self, base: usize) {
        let touched = self
            .pending
            .iter()
            .filter(|p| p.key != 0)
            .fold(0, |acc, p| acc ^ self.tt.touch(p.key));
        std::hint::black_box(touched);
        for i in 0..self.pending.len() {
            let p = self.pending[i];
            if p.key != 0 {
                let mut c = self.arena[base + i];
                self.probe_child(&mut c, &p);
                self.arena[base + i] = c;
            }
        }
    }

    /// The node's value from its frame: which children it rests on decides
    /// its flags and stone-count bound.
    pub(super) fn finish(&self, f: &Frame, agg: &Agg, mover: Color) -> Value {
        let children = &self.arena[f.base..];
        let node_ko = if self.game.board().ko_point(mover).is_some() {
            KO
        } else {
            0
        };
        if agg.phi == 0 {
            // Won through one child: it alone matters.
            let c = &children[agg.best];
            return Value {
                phi: 0,
                delta: INF,
                flags: c.flags | node_ko,
                min: c.min,
                best: c.mv,
            };
        }
        if agg.delta == 0 {
            // Lost: every child was needed (the group is empty or made of
            // losses, all in the summary).
            let mut lost = f.lost;
            for c in children {
                lost.fold(c);
            }
            return Value {
                phi: INF,
                delta: 0,
                flags: lost.flags | node_ko,
                min: lost.min,
                best: lost.best,
            };
        }
        let best = match agg.best {
            GROUP => NO_MOVE,
            // The pseudo-child of the zone fixed point is no move.
            i => children
                .get(i)
                .map_or(NO_MOVE, |c| if c.mv == NULL_MOVE { NO_MOVE } else { c.mv }),
        };
        Value::open(agg.phi, agg.delta, best)
    }
}
