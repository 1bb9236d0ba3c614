//! The incremental update and the lazy backpropagation of the generic
//! best-first search ([`bestfirst`](super), seed 001's Algorithm 1: Saffidine
//! & Cazenave, "Developments on Product Propagation", CG 2013): what a
//! full `update` of a node records, by depth on the path, and how later
//! updates and backpropagations use it.
//!
//! ## Incremental update
//!
//! `update` as written recomputes a node from all its children, and did so
//! at every node of the path at every expansion (57% of PP's instructions).
//! But only the child on the path changed: for a rule with
//! [`Rule::INCREMENTAL`] (PP), a full update also records, by depth, the
//! accumulated values of the other children and the runner-up among them,
//! and the next update of that node adds the selected child's new value to
//! that sum. When the runner-up now beats the selected child the node is
//! recomputed in full (9% of the updates on Domineering 5×6). The values
//! are those of full updates up to the order of a sum in `f64` (PP stores
//! `f32`), and the node counts have stayed the same.
//!
//! The record of a depth is valid while that depth's last update was of
//! the same node. In a tree only the path below a node can change its
//! children, so that suffices. In a DAG a child may also change through
//! another parent; if the game has [`Game::FIXED_DEPTH`], every parent of
//! a node lies at one depth, so such a change updates another node at the
//! same depth first and so voids the record; other games recompute DAG
//! nodes in full.
//!
//! ## Lazy backpropagation
//!
//! With the incremental update, a backpropagation still went to the root
//! at almost every expansion (8.9 updates per expansion of PP on
//! Domineering 5×6, each with a logarithm), though the choices near the
//! root rarely change. For a rule with [`Rule::LAZY`] (PP), on a tree or
//! on a DAG of a game with [`Game::FIXED_DEPTH`] (where the records are
//! as reliable as on a tree, see above), the backpropagation stops at a node when its parent and grandparent keep
//! their choices (the exact tests of the incremental update) and the
//! parent's new key lies in a window, computed once per node of the path,
//! within which no ancestor higher up changes its choice either. The
//! ancestors are left out of date and brought up to date, from the same
//! records and child values, when a later backpropagation passes them or
//! when the search ends; the selections, node counts and values are those
//! of the full backpropagation (Domineering 5×6: PP 391M → 244M
//! instructions, PPT 84M → 64M).

use super::{Eval, Rule, Search, MAX_DEPTH};
use crate::games::Game;
use crate::solve::store::{NodeId, EXPANDED, FLAGS, LOST, NONE, WON};

/// A window that contains nothing.
pub(super) const EMPTY: (f64, f64) = (f64::INFINITY, f64::NEG_INFINITY);

/// Entries of [`Search`]'s per-depth records: a power of two above
/// [`MAX_DEPTH`], so that a depth masked by `LEVELS - 1` indexes them with
/// no bounds check (the path never passes `MAX_DEPTH`).
pub(super) const LEVELS: usize = 2048;
const _: () = assert!(LEVELS.is_power_of_two() && LEVELS > MAX_DEPTH);

/// What the search keeps about the path's node at one depth, in one
/// record: the backpropagation and the lazy tests read a depth's node,
/// runner-up and window together (kept in four vectors, their bounds
/// checks and base addresses were 4% of PP²'s instructions).
#[derive(Clone, Copy)]
pub(super) struct Level<V, A> {
    /// The path's node at this depth (set while it is above the current
    /// node).
    pub(super) id: NodeId,
    /// The index of the child the path takes from it.
    pub(super) taken: u16,
    /// Whether the node was left out of date when a backpropagation
    /// stopped at its child.
    pub(super) stale: bool,
    /// The last full update at this depth (see [`Runner`]).
    pub(super) runner: Runner<V, A>,
    /// The window of [`Search::window`], valid below `Search::wvalid`.
    pub(super) window: (f64, f64),
}

/// What the last full update of the node at one depth of the path found
/// about the children other than the selected one (see [`Search::step`]).
#[derive(Clone, Copy)]
pub(super) struct Runner<V, A> {
    /// The node (or [`NONE`] when nothing is known).
    pub(super) node: NodeId,
    /// The most promising unsolved child after the selected one, by
    /// index: `None` when the selected child is the only unsolved one.
    pub(super) second: Option<(u16, V)>,
    /// The accumulated values of the other children.
    pub(super) rest: A,
}

impl<G: Game, R: Rule> Search<G, R> {
    /// The records of depth `d`.
    #[inline(always)]
    pub(super) fn level(&self, d: usize) -> &Level<R::V, R::Acc> {
        &self.levels[d & (LEVELS - 1)]
    }

    #[inline(always)]
    pub(super) fn level_mut(&mut self, d: usize) -> &mut Level<R::V, R::Acc> {
        &mut self.levels[d & (LEVELS - 1)]
    }

    /// The runner-up record of depth `d`, where records are kept.
    #[inline(always)]
    fn runner(&self, d: usize) -> Option<&Runner<R::V, R::Acc>> {
        self.records.then(|| &self.level(d).runner)
    }

    /// The incremental `update` of node `id` at depth `depth` whose
    /// selected child changed to `new` (unsolved), in a tree: the other
    /// children are as they were at the node's last full update, so the
    /// runner-up and the sum of the others found then still stand. The
    /// selected child stays selected unless the runner-up now beats it
    /// (then the node is recomputed from every child). Profiling found
    /// recomputation from all children was most of PP's time, and the
    /// selected child stays selected at 91% of the updates (Domineering
    /// 5×6). The value is that of a full update but for the order of the
    /// sum (PP adds in `f64` and keeps `f32`).
    #[inline(always)]
    pub(super) fn step(&self, id: NodeId, depth: usize, new: &R::V) -> Option<Eval<R::V, R::Acc>> {
        let runner = self.runner(depth)?;
        if runner.node != id {
            return None;
        }
        let best = self.store.node(id).best();
        if !self.kept(best, runner.second, new) {
            return None;
        }
        let acc = self.rule.add(runner.rest, *new);
        Some((
            self.rule.finish(acc, &self.memo),
            EXPANDED,
            best,
            runner.second,
            runner.rest,
        ))
    }

    /// Whether every child of the path's node `id` at depth `depth`, in
    /// a tree, is won for its mover now that its selected child is: the
    /// node was unsolved at its last full update, which found no other
    /// unsolved child (no runner-up), and only the selected child has
    /// changed since. Then the full update finds the node lost and
    /// selects child 0.
    #[inline]
    pub(super) fn all_won(&self, id: NodeId, depth: usize) -> bool {
        self.table.is_none()
            && self
                .runner(depth)
                .is_some_and(|r| r.node == id && r.second.is_none())
    }

    /// Whether a node that selected child `best` keeps it when that child's
    /// value becomes `new`, the runner-up being `second`: the full update
    /// would pick the runner-up if it is better, or equal and first.
    #[inline]
    pub(super) fn kept(&self, best: usize, second: Option<(u16, R::V)>, new: &R::V) -> bool {
        match second {
            None => true,
            Some((i, s)) if (i as usize) < best => self.rule.better(new, &s),
            Some((_, s)) => !self.rule.better(&s, new),
        }
    }

    /// [`Search::kept`] for a key `y` of the selected child.
    #[inline]
    pub(super) fn kept_key(&self, best: usize, second: Option<(u16, R::V)>, y: f64) -> bool {
        match second {
            None => true,
            Some((i, s)) if (i as usize) < best => y > self.rule.key(&s),
            Some((_, s)) => y >= self.rule.key(&s),
        }
    }

    /// Lazy backpropagation: whether the update of the path's node at
    /// depth `j` to the unsolved value `v` may end the backpropagation,
    /// leaving its ancestors out of date, because updating them would
    /// change no ancestor's choice. Then the next descent starts from the
    /// same node as after a full backpropagation, and every later decision
    /// is the same (the ancestors are brought up to date before any of
    /// their values is read: when a later backpropagation reaches them, or
    /// by [`Search::flush`]).
    ///
    /// The parent keeps its choice by the test of [`Search::step`]; its new
    /// key `y` is one addition away ([`Rule::parent_key`]), and the
    /// grandparent keeps its choice by the same test on `y`. Above that,
    /// [`Search::window`] bounds the keys that keep every choice. Every
    /// record used must belong to the node on the path, so that the full
    /// backpropagation would have updated each ancestor by
    /// [`Search::step`], with the same record; then the ancestors' values,
    /// computed later from the same records and the same child values, are
    /// the very values the full backpropagation would have left.
    /// Backpropagation was 8.9 updates per expansion of PP on Domineering
    /// 5×6, each taking a logarithm.
    #[inline(always)]
    pub(super) fn may_stop(&mut self, j: usize, v: &R::V) -> bool {
        let p = self.level(j - 1).id;
        let r = self.level(j - 1).runner;
        if r.node != p || !self.kept(self.store.node(p).best(), r.second, v) {
            return false;
        }
        if j == 1 {
            return true;
        }
        let gp = self.level(j - 2).id;
        let r2 = self.level(j - 2).runner;
        if r2.node != gp {
            return false;
        }
        let y = self.rule.parent_key(r.rest, v);
        if !self.kept_key(self.store.node(gp).best(), r2.second, y) {
            return false;
        }
        let (lo, hi) = self.window(j - 1);
        lo <= y && y <= hi
    }

    /// The window of keys of the path's node at depth `m` such that, if its
    /// parent keeps it, no ancestor changes its choice: its parent's new
    /// key is one the grandparent keeps and lies in the parent's window.
    /// The root's children have no constraint beyond their parent's
    /// choice. Empty when a record on the way does not belong to the path's
    /// node. Cached by depth: a window depends on the records above it.
    #[inline(never)]
    pub(super) fn window(&mut self, m: usize) -> (f64, f64) {
        while self.wvalid <= m {
            let k = self.wvalid;
            let window = if k <= 1 {
                (f64::NEG_INFINITY, f64::INFINITY)
            } else {
                let (l1, l2) = (self.level(k - 1), self.level(k - 2));
                let (r1, r2) = (l1.runner, l2.runner);
                let (p, gp) = (l1.id, l2.id);
                let (lo, hi) = l1.window;
                if r1.node != p || r2.node != gp || lo > hi {
                    EMPTY
                } else {
                    let lo = match r2.second {
                        Some((_, s)) => lo.max(self.rule.key(&s)),
                        None => lo,
                    };
                    self.rule.window(r1.rest, lo, hi)
                }
            };
            self.level_mut(k).window = window;
            self.wvalid = k + 1;
        }
        self.level(m).window
    }

    /// Brings the path's out-of-date nodes up to date (lazy
    /// backpropagation), bottom up, as the full backpropagation would have
    /// left them: before a search ends, since its caller reads the values
    /// at the root (and PP² copies them).
    pub(super) fn flush(&mut self) {
        let mut dirty = false;
        for d in (0..self.path.len()).rev() {
            let level = self.level_mut(d);
            dirty |= level.stale;
            level.stale = false;
            if !dirty {
                continue;
            }
            let id = level.id;
            let node = *self.store.node(id);
            let child = *self
                .store
                .node(self.store.child(node.first as usize + node.best()));
            let e = match (!child.solved())
                .then_some(child.value)
                .and_then(|new| self.step(id, d, &new))
            {
                Some(e) => e,
                None => {
                    let e = self.evaluate(id);
                    self.note_runner(id, d, &e);
                    e
                }
            };
            let (value, flags, best, _, _) = e;
            let node = self.store.node_mut(id);
            dirty = !(node.value == value && node.flags & FLAGS == flags);
            node.value = value;
            node.set_flags_and_best(flags, best);
        }
    }

    /// Records what a full update `e` of node `cur` at `depth` found
    /// about its other children, for [`Search::step`] (incremental rules
    /// on a tree; a solved node is not updated again).
    #[inline]
    pub(super) fn note_runner(&mut self, cur: NodeId, depth: usize, e: &Eval<R::V, R::Acc>) {
        // The windows below this depth were made from its old record.
        self.wvalid = self.wvalid.min(depth + 1);
        if !self.records {
            return;
        }
        let r = &mut self.level_mut(depth).runner;
        let (_, flags, _, second, rest) = *e;
        // Selects, not a branch: whether the node is solved is a coin
        // toss for the branch predictor (5% of PP²'s mispredictions, by
        // cachegrind's model, on Domineering 7×6).
        let solved = flags & (WON | LOST) != 0;
        *r = Runner {
            node: if solved { NONE } else { cur },
            second: if solved { None } else { second },
            rest,
        };
    }
}
