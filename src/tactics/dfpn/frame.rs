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
//!   the opponent in atari), and the members split off the group. Only
//!   unsolved children and winning ones stay there;
//! * **the mover's solved losses**, folded into one summary (their flags,
//!   least stone counts and the move with most work behind it), since a
//!   lost child adds nothing to φ or δ and matters only when the node is
//!   lost;
//! * **the group**: every other legal move. It counts as `count` unsolved
//!   children with the numbers a quiet move gets (`Members`); the scan for
//!   its members runs over the board in point order from `cursor`. When
//!   the aggregation selects the group, the next member is split off,
//!   evaluated exactly as a child always was, and (when the table knows it)
//!   given its table numbers. `count` starts at the empty points less the
//!   explicit ones, never below the members left, and drops by one per
//!   point the scan splits off, so it is 0 only when no member is left.
//!
//! The group never decides a result: its numbers are heuristic (never 0 or
//! ∞), so the node is won only through an explicit child and lost only
//! once the group is empty, every member having been split off and
//! searched like any child. One exception, exact by the rules: when the
//! defender is to move with the target in atari, every member loses at
//! once (see [`Search::atari_losses`]); the group then counts as solved
//! losses and is never split.
//!
//! An unsolved table entry keeps the cursor, so that a node expanded again
//! gets back, as explicit children with their table numbers, the members
//! it had split off.

use super::child::Here;
use super::numbers::{min2, Agg, Child, Members, Value, GROUP, INF, NO_MOVE};
use super::search::{Pending, Search};
use super::tt::{KO, NO_MIN};
use crate::go::board::{Board, Point, PASS};
use crate::go::Color;
use crate::tactics::rules::MAX_DEPTH;
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
struct Lost {
    flags: u8,
    min: [u16; 2],
    /// The move with the most work behind it (the first such), the longest
    /// resistance of a lost node.
    best: u16,
    work: u32,
}

impl Lost {
    const NONE: Lost = Lost {
        flags: 0,
        min: NO_MIN,
        best: NO_MOVE,
        work: 0,
    };

    fn fold(&mut self, c: &Child) {
        self.flags |= c.flags;
        self.min = min2(self.min, c.min);
        if self.best == NO_MOVE || c.work > self.work {
            self.best = c.mv;
            self.work = c.work;
        }
    }
}

/// The children of the node being searched (see the module documentation).
pub struct Frame {
    /// Where the node's explicit children start on the arena.
    pub base: usize,
    /// The unsplit quiet moves.
    pub group: Members,
    /// The next point the scan for members looks at.
    pub cursor: u16,
    /// One past the board's last point.
    end: u16,
    /// What evaluating a child needs to know about the node.
    here: Here,
    lost: Lost,
}

impl Search<'_> {
    /// When the defender is to move with the target in atari: its liberty,
    /// and the stone counts after a defender's stone that captures nothing,
    /// provided no position of the path could be repeated by such a move.
    /// Then every legal move of the defender other than the pass, the
    /// liberty and a capture loses at once: the target keeps its one
    /// liberty, the move leaves no ko ban, and capturing is never suicide,
    /// so the attacker captures next, whatever the ko model. The one way
    /// the line could end otherwise is a repetition (or the depth limit,
    /// excluded too), which needs an earlier position with the same stone
    /// counts and target; if the path has one, `None`, and such moves are
    /// evaluated one by one.
    fn atari_losses(&self, here: &Here) -> Option<(Point, [u16; 2])> {
        let g = &self.game;
        if g.to_move() == self.attacker || self.target_libs() != 1 || g.depth() + 1 >= MAX_DEPTH {
            return None;
        }
        let lib = here.libs.iter().next()?;
        let me = self.anc.last()?;
        let mut counts = me.counts;
        counts[g.to_move().index()] += 1;
        for s in self.anc.iter().rev() {
            if s.target < me.target {
                break;
            }
            if s.counts == counts {
                return None;
            }
        }
        Some((lib, counts))
    }

    /// Whether the empty point `p` is left to the group: a move there
    /// touches no stone of the target (it is not one of its liberties) and
    /// captures nothing. The explicit moves of [`Search::explicit_moves`]
    /// are exactly the other empty points.
    fn in_group(&self, p: Point, here: &Here) -> bool {
        !here.libs.contains(p) && !self.game.board().captures_something(self.game.to_move(), p)
    }

    /// Writes the explicit moves into the move list in point order, pass
    /// last: the target's liberties and the liberties of the opponent's
    /// blocks in atari (the moves that capture). Some may be illegal.
    /// Returns the captures that may be evaluated late (see [`LAZY`]):
    /// those not on a liberty of the target that capture no block next to
    /// it, so that the target keeps its liberties.
    fn explicit_moves(&mut self, no_pass: bool, here: &Here) -> Zone {
        let moves = &mut *self.moves;
        moves.clear();
        moves.extend(here.libs.iter());
        let g = &self.game;
        let b = g.board();
        let mover = g.to_move();
        let enemy = mover.opp();
        // The target's liberties, and the liberties of the blocks next to
        // it the defender may capture.
        let mut near = here.libs;
        let mut lazy = Zone::new();
        b.for_each_atari_block(enemy, |h| {
            if let Some(l) = b.first_liberty(h) {
                if !moves.contains(&l) {
                    moves.push(l);
                }
                if here.weak.contains(h) {
                    near.insert(l);
                } else {
                    lazy.insert(l);
                }
            }
        });
        moves.sort_unstable();
        if !no_pass {
            moves.push(PASS);
        }
        if self.ladder && mover == self.attacker {
            // λ¹ keeps no such capture: they are dropped at once.
            return Zone::new();
        }
        // A point that is also a liberty of the target, or captures a block
        // next to it too, is evaluated at once.
        let mut late = Zone::new();
        for p in lazy.iter() {
            if !near.contains(p) {
                late.insert(p);
            }
        }
        late
    }

    /// A capture evaluated late, with its first guess.
    fn lazy_child(&self, m: Point, replies: u32) -> Child {
        let (phi, delta) = self.capture_numbers(replies);
        Child {
            phi,
            delta,
            flags: LAZY,
            ..Child::fresh(m)
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
    pub(super) fn expand(&mut self, no_pass: bool, seen: bool, cursor: u16) -> Frame {
        let size = self.game.board().size();
        let mut f = Frame {
            base: self.arena.len(),
            group: Members::default(),
            cursor: Board::point_at(0, 0) as u16,
            end: (Board::point_at(size - 1, size - 1) + 1) as u16,
            here: self.here(),
            lost: Lost::NONE,
        };
        let plain = self.sides == [false, false];
        let mut pseudo = None;
        let mut late = Zone::new();
        if plain {
            late = self.explicit_moves(no_pass, &f.here);
        } else {
            pseudo = self.threat_moves_here(no_pass);
        }
        let losses = self.atari_losses(&f.here);
        self.pending.clear();
        let mover = self.game.to_move();
        for i in 0..self.moves.len() {
            let m = self.moves[i];
            if no_pass && m == PASS {
                continue;
            }
            // Outside the plain search the move list is not cut to the
            // explicit moves, and a move that loses at once is decided here.
            if let Some((lib, counts)) = losses.filter(|_| !plain) {
                if m != PASS && m != lib && !self.game.board().captures_something(mover, m) {
                    let mut c = Child::fresh(m);
                    c.set(Value::solved(true, 0, lib as u16), counts);
                    f.lost.fold(&c);
                    continue;
                }
            }
            if m != PASS && late.contains(m) {
                self.arena.push(self.lazy_child(m, f.here.replies));
                self.pending.push(Pending::NONE);
                continue;
            }
            if let Some((c, p)) = self.init_child(m, &f.here) {
                debug_assert!(self.arena.len() < self.arena.capacity(), "arena overflow");
                self.arena.push(c);
                self.pending.push(p.unwrap_or(Pending::NONE));
            }
        }
        if let Some(c) = pseudo {
            self.arena.push(c);
            self.pending.push(Pending::NONE);
        }
        if plain {
            self.start_group(&mut f, losses.map(|l| l.1));
            if seen {
                while f.group.count > 0 {
                    let Some(m) = self.next_member(&mut f, cursor) else {
                        break;
                    };
                    if let Some((c, p)) = m {
                        self.arena.push(c);
                        self.pending.push(p.unwrap_or(Pending::NONE));
                    }
                }
            }
        }
        if seen && self.tt.is_enabled() {
            self.probe_children(f.base);
        }
        // Fold the solved losses away, keeping the others in order.
        let mut kept = f.base;
        for i in f.base..self.arena.len() {
            let c = self.arena[i];
            if c.phi == 0 {
                f.lost.fold(&c);
            } else {
                self.arena[kept] = c;
                kept += 1;
            }
        }
        self.arena.truncate(kept);
        f
    }

    /// Sets up the group of a plain node whose explicit moves are in the
    /// move list; `losses`: the stone counts after a defender's move when
    /// every member loses at once ([`Search::atari_losses`]).
    fn start_group(&mut self, f: &mut Frame, losses: Option<[u16; 2]>) {
        let att = self.game.to_move() == self.attacker;
        if self.ladder && att && self.target_libs() != 1 {
            // λ¹: no member puts the target in atari.
            return;
        }
        if let Some(counts) = losses {
            // Each member's proof is its own position: the attacker
            // captures from there.
            f.lost.min = min2(f.lost.min, counts);
            return;
        }
        let explicit = self.moves.iter().filter(|&&m| m != PASS).count() as u32;
        let (phi, delta) = self.quiet_numbers(false, f.here.replies);
        f.group = Members {
            count: f.here.replies.saturating_sub(explicit),
            phi,
            delta,
        };
    }

    /// Advances the scan, up to the point `limit`, to the next member and
    /// evaluates it (as [`Search::init_child`] does: `None` when the move
    /// turns out illegal or excluded); `None` when no member is left before
    /// `limit`. The count drops by one for each member the scan passes, and
    /// to 0 at the end of the board.
    #[allow(clippy::type_complexity)]
    fn next_member(
        &mut self,
        f: &mut Frame,
        limit: u16,
    ) -> Option<Option<(Child, Option<Pending>)>> {
        let mut p = f.cursor as usize;
        let end = f.end.min(limit) as usize;
        while p < end && !(self.game.board().is_empty(p) && self.in_group(p, &f.here)) {
            p += 1;
        }
        f.cursor = p as u16;
        if p >= f.end as usize {
            f.group.count = 0;
        }
        if p >= end {
            return None;
        }
        f.cursor += 1;
        f.group.count -= 1;
        self.stats.splits += 1;
        Some(self.init_child(p, &f.here))
    }

    /// Splits the next member off the group (the group was selected), with
    /// its table numbers when the table has it.
    pub(super) fn split(&mut self, f: &mut Frame) {
        if let Some(Some((mut c, p))) = self.next_member(f, u16::MAX) {
            if let Some(p) = p.filter(|_| self.tt.is_enabled()) {
                self.probe_child(&mut c, &p);
            }
            if c.phi == 0 {
                f.lost.fold(&c);
            } else {
                self.arena.push(c);
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

    /// Gives a generated child its table numbers, when the table has the
    /// child and, for a proof, the path may use it.
    fn probe_child(&mut self, c: &mut Child, p: &Pending) {
        let probe = self.tt.probe(p.key);
        self.stats.child_probes += 1;
        self.stats.child_hits += probe.is_some() as u64;
        match probe {
            Some(e) if !e.is_solved() => {
                c.phi = e.phi;
                c.delta = e.delta;
            }
            Some(e) if self.usable_at(&e, p.mover, &p.anc, self.anc) => {
                self.stats.tt_solved_hits += 1;
                c.set(Value::from_entry(&e), p.anc.counts);
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
            i => children.get(i).map_or(NO_MOVE, |c| c.mv),
        };
        Value::open(agg.phi, agg.delta, best)
    }
}
