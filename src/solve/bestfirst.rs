//! The generic best-first search of seed 001 (Saffidine & Cazenave,
//! "Developments on Product Propagation", CG 2013, Algorithm 1), shared by
//! PNS with transpositions, PN², PP, PPT and PP².
//!
//! A [`Rule`] supplies the algorithm: what a node holds (`init-leaf` from
//! the mover's mobility, the solved values of `info-term`), how a node's
//! value follows from its children (`update`) and which child to descend
//! into (`select-child`). Everything is in negamax form (seed 003's φ/δ):
//! a node's value is from the view of the player to move there, so one rule
//! serves Max and Min nodes alike.
//!
//! The loop is Algorithm 1: descend from the current node by `select-child`
//! to a leaf, replaying moves (positions are not stored, see
//! [`store`](super::store)); `extend` it, creating every child with its
//! initial value (terminal children are evaluated at once, so they are
//! never expanded); then `backpropagate`: recompute values up the path and
//! stop at the first node whose value did not change, which is where the
//! next descent starts (its ancestors, unchanged, would select it again).
//! The descent from there would replay the path as far as the first node
//! that now selects another child, so only the moves below that node are
//! undone, and the next descent starts from it.
//!
//! # Incremental update
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
//! # Lazy backpropagation
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
//!
//! Solved status is kept apart from the heuristic value, in the node's
//! flags, and computed from the children's flags only: a node is won when a
//! child is lost for its mover, lost when every child is won for its mover.
//! So no rounding in a value (PP's probabilities underflow) can ever make a
//! node look proven.
//!
//! # Transpositions
//!
//! With `transpositions`, a child whose position key is already in the
//! [`Table`] shares that node, so the tree becomes a DAG. Only the path of
//! the current descent is updated (as in Algorithm 1; keeping parent lists
//! for every node would cost memory that the layout does not have); a node's
//! other parents see the change when they are next on a path, because a
//! node on a path whose children changed elsewhere is recomputed from all of
//! them (see the incremental update above). A stale parent may then
//! descend into an already solved child: that iteration expands nothing and
//! only recomputes the path. Sums over a DAG count shared subtrees once per
//! parent (seed 000, "PNS on a DAG — overcounting"); the paper's PNT and PPT
//! accept this, and so do we. The games here are acyclic, so a descent
//! cannot loop; a path longer than [`MAX_DEPTH`] stops the search.
//!
//! # Two levels (PN², PP²)
//!
//! With a second level, `extend` does not use `init-leaf`: it runs the same
//! search (without a second level) from the leaf, bounded by the number of
//! nodes the first level has created so far (seed 001 §3.2, seed 000's PN²
//! with Allis' bound "size of the first-level tree"), and copies the
//! children of that search's root, with their values and solved flags, into
//! the first-level tree. The second-level tree is then thrown away.
//!
//! # Draws
//!
//! A proof search answers a yes/no question. [`Ctx::draw_wins_for`] says
//! which player a drawn terminal position counts as a win for; the driver in
//! [`drive`] asks twice when the game has draws.

use super::store::{prefetch, Node, NodeId, Store, Table, EXPANDED, FLAGS, LOST, NONE, WON};
use super::{Limits, Report, Stopped};
use crate::games::{ChildInfo, Color, Game, MoveList, Outcome, MAX_MOVES};
use std::time::{Duration, Instant};

/// Longest path a descent may take.
pub const MAX_DEPTH: usize = 1024;

/// An algorithm of the best-first family: its node values and rules.
pub trait Rule: Copy {
    /// What a node holds besides its flags (8 bytes).
    type V: Copy + PartialEq + std::fmt::Debug;
    /// What `update` accumulates over the children.
    type Acc: Copy;

    /// `init-leaf`: a non-terminal leaf whose mover has `mobility` moves.
    fn leaf(&self, mobility: usize) -> Self::V;
    /// `info-term` for a position the mover has won.
    fn won(&self) -> Self::V;
    /// `info-term` for a position the mover has lost.
    fn lost(&self) -> Self::V;
    /// Starts an `update`.
    fn start(&self) -> Self::Acc;
    /// Adds one child's value (every child, solved ones included).
    fn add(&self, acc: Self::Acc, child: Self::V) -> Self::Acc;
    /// A cache that `finish` may consult and fill (PP memoises its
    /// logarithm; `()` for none), made once per search by [`Rule::memo`]
    /// and shared through `&` (interior mutability): the search evaluates
    /// nodes through shared references.
    type Memo;
    /// A fresh memo (the only allocation a rule makes, at setup).
    fn memo(&self) -> Self::Memo;
    /// The value of an unsolved node from its children. A function of
    /// `acc` alone: the memo may only save recomputing it.
    fn finish(&self, acc: Self::Acc, memo: &Self::Memo) -> Self::V;
    /// `select-child`: whether child value `a` is strictly more promising
    /// than `b` (the first of equals is chosen).
    fn better(&self, a: &Self::V, b: &Self::V) -> bool;
    /// Whether a tree search may update a node from its selected child
    /// alone, with [`Rule::remove`] (see [`Search::step`]).
    const INCREMENTAL: bool = false;
    /// `acc` without `child`, which [`Rule::add`] put in: what the other
    /// children sum to. Only called when [`Rule::INCREMENTAL`].
    fn remove(&self, _acc: Self::Acc, _child: Self::V) -> Self::Acc {
        unreachable!("remove is only called for incremental rules")
    }
    /// Whether a tree search may stop a backpropagation below the root
    /// when no ancestor's choice can change (see [`Search::may_stop`]).
    /// Needs [`Rule::INCREMENTAL`] and the three functions below.
    const LAZY: bool = false;
    /// The number `better` compares: `better(a, b)` exactly when
    /// `key(a) > key(b)`.
    fn key(&self, _v: &Self::V) -> f64 {
        unreachable!("key is only called for lazy rules")
    }
    /// `key(finish(add(rest, child)))`, exactly, without `finish`'s cost.
    fn parent_key(&self, _rest: Self::Acc, _child: &Self::V) -> f64 {
        unreachable!("parent_key is only called for lazy rules")
    }
    /// A window `[lo', hi']` of child keys such that a child whose key lies
    /// in it gives its parent (the other children summing to `rest`) a key
    /// strictly inside `[lo, hi]` after rounding (every value of the window,
    /// not just most: the window errs on the narrow side). Empty
    /// (`lo' > hi'`) when no such window is known.
    fn window(&self, _rest: Self::Acc, _lo: f64, _hi: f64) -> (f64, f64) {
        unreachable!("window is only called for lazy rules")
    }
}

/// A window that contains nothing.
const EMPTY: (f64, f64) = (f64::INFINITY, f64::NEG_INFINITY);

/// What the last full update of the node at one depth of the path found
/// about the children other than the selected one (see [`Search::step`]).
#[derive(Clone, Copy)]
struct Runner<V, A> {
    /// The node (or [`NONE`] when nothing is known).
    node: NodeId,
    /// The most promising unsolved child after the selected one, by
    /// index: `None` when the selected child is the only unsolved one.
    second: Option<(u16, V)>,
    /// The accumulated values of the other children.
    rest: A,
}

/// What `update` finds: the node's value and flags, the index of the
/// child to select, and the runner-up (index and value) when it is kept.
type Eval<V, A> = (V, u16, usize, Option<(u16, V)>, A);

/// Limits and counters shared by the levels of one solve.
pub struct Ctx<'a> {
    pub limits: &'a Limits<'a>,
    pub start: Instant,
    /// First-level expansions: what [`Report::nodes`](super::Report) shows
    /// and the node limit bounds.
    pub expansions: u64,
    /// Expansions at every level (PN² and PP² work below the first level).
    pub work: u64,
    /// The player for whom a drawn terminal position counts as a win.
    pub draw_wins_for: Color,
    /// Whether any drawn terminal position was met.
    pub saw_draw: bool,
    pub stopped: Option<Stopped>,
    ticks: u32,
}

impl<'a> Ctx<'a> {
    pub fn new(limits: &'a Limits<'a>, draw_wins_for: Color) -> Ctx<'a> {
        Ctx {
            limits,
            start: Instant::now(),
            expansions: 0,
            work: 0,
            draw_wins_for,
            saw_draw: false,
            stopped: None,
            ticks: 0,
        }
    }

    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// Checks the node, time and interrupt limits (the clock every 256
    /// calls); records and returns whether the search must stop.
    #[inline]
    pub fn check(&mut self) -> bool {
        if self.stopped.is_some() {
            return true;
        }
        if self.limits.nodes.is_some_and(|n| self.expansions >= n) {
            self.stopped = Some(Stopped::Nodes);
            return true;
        }
        self.ticks = self.ticks.wrapping_add(1);
        if self.ticks.is_multiple_of(256) {
            if self
                .limits
                .interrupt
                .is_some_and(|i| i.load(std::sync::atomic::Ordering::Relaxed))
            {
                self.stopped = Some(Stopped::Interrupted);
            } else if self.limits.time.is_some_and(|t| self.elapsed() >= t) {
                self.stopped = Some(Stopped::Time);
            }
        }
        self.stopped.is_some()
    }

    /// Flags of a terminal position with outcome `o` for its mover `mover`.
    #[inline]
    pub fn terminal_flags(&mut self, o: Outcome, mover: Color) -> u16 {
        match o {
            Outcome::Win => WON,
            Outcome::Loss => LOST,
            Outcome::Draw => {
                self.saw_draw = true;
                if mover == self.draw_wins_for {
                    WON
                } else {
                    LOST
                }
            }
        }
    }
}

/// How one search ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    Won,
    Lost,
    Open,
}

/// One level of best-first search with its store (and its second level).
pub struct Search<G: Game, R: Rule> {
    rule: R,
    pub store: Store<R::V, G::Move>,
    table: Option<Table>,
    sub: Option<Box<Search<G, R>>>,
    /// The descent: each node above the current one, the move played
    /// from it and the index of the child that move leads to.
    path: Vec<(NodeId, G::Move, G::Undo, u16)>,
    moves: MoveList<G::Move>,
    /// The keys and fresh nodes of the children being created
    /// ([`Search::extend_dag`]), reserved for [`MAX_MOVES`] at setup.
    child_keys: Vec<u64>,
    child_nodes: Vec<Node<R::V>>,
    /// What [`Game::children_info`] says of the children being created,
    /// reserved for [`MAX_MOVES`] at setup.
    infos: Vec<ChildInfo>,
    /// `init-leaf` for every mobility up to [`MAX_MOVES`], computed once:
    /// PP's leaf values take an `exp` and a `log`, and every child of
    /// every expansion needs one.
    leaves: Vec<R::V>,
    memo: R::Memo,
    /// By depth on the path, the runner-up of that node's last full
    /// update ([`Rule::INCREMENTAL`] rules on a tree only).
    runners: Vec<Runner<R::V, R::Acc>>,
    /// Lazy backpropagation ([`Rule::LAZY`], where records are kept): by depth, the
    /// window of keys of the path's node there within which no ancestor's
    /// choice changes ([`Search::window`]); valid below depth `wvalid`.
    lazy: bool,
    windows: Vec<(f64, f64)>,
    wvalid: usize,
    /// By depth, whether the path's node there was left out of date when
    /// a backpropagation stopped at its child.
    stale: Vec<bool>,
    table_peak: usize,
}

impl<G: Game, R: Rule> Search<G, R> {
    /// A search using at most `memory` bytes for its trees and table, with
    /// a transposition table or not, with a second level or not (the
    /// levels share the memory equally).
    pub fn new(rule: R, memory: usize, transpositions: bool, second_level: bool) -> Self {
        let own = if second_level { memory / 2 } else { memory };
        let (store, table) = if transpositions {
            // A DAG node has about two edges, and its key and table slots.
            let per_node = Store::<R::V, G::Move>::NODE_BYTES
                + 2 * Store::<R::V, G::Move>::EDGE_BYTES
                + Table::NODE_BYTES;
            let nodes = own / per_node;
            let store = Store::new(own, true, nodes);
            let table = Table::new(store.node_capacity());
            (store, Some(table))
        } else {
            (Store::new(own, false, usize::MAX), None)
        };
        let sub = second_level.then(|| Box::new(Search::new(rule, memory - own, false, false)));
        Search {
            rule,
            store,
            table,
            sub,
            path: Vec::with_capacity(MAX_DEPTH),
            moves: MoveList::new(),
            child_keys: Vec::with_capacity(MAX_MOVES),
            child_nodes: Vec::with_capacity(MAX_MOVES),
            infos: Vec::with_capacity(MAX_MOVES),
            leaves: (0..=MAX_MOVES).map(|c| rule.leaf(c)).collect(),
            memo: rule.memo(),
            runners: vec![
                Runner {
                    node: NONE,
                    second: None,
                    rest: rule.start(),
                };
                if R::INCREMENTAL && (!transpositions || G::FIXED_DEPTH) {
                    MAX_DEPTH + 1
                } else {
                    0
                }
            ],
            lazy: R::LAZY && R::INCREMENTAL && (!transpositions || G::FIXED_DEPTH),
            windows: vec![EMPTY; MAX_DEPTH + 1],
            wvalid: 0,
            stale: vec![false; MAX_DEPTH + 1],
            table_peak: 0,
        }
    }

    /// Most bytes held at once by this level and the next.
    pub fn peak_memory(&self) -> usize {
        self.store.peak() + self.table_peak + self.sub.as_ref().map_or(0, |s| s.peak_memory())
    }

    /// The value and flags of a new node for the position `g`.
    #[inline]
    fn fresh(&self, g: &G, ctx: &mut Ctx) -> Node<R::V> {
        let outcome = g.outcome();
        let mobility = if outcome.is_none() { g.mobility() } else { 0 };
        self.fresh_node(outcome, g.to_move(), mobility, ctx)
    }

    /// The value and flags of a new node for a position with `outcome`
    /// for its mover `mover`, who has `mobility` moves.
    #[inline]
    fn fresh_node(
        &self,
        outcome: Option<Outcome>,
        mover: Color,
        mobility: usize,
        ctx: &mut Ctx,
    ) -> Node<R::V> {
        match outcome {
            Some(o) => {
                let flags = ctx.terminal_flags(o, mover);
                let value = if flags == WON {
                    self.rule.won()
                } else {
                    self.rule.lost()
                };
                Node::new(value, flags)
            }
            None => Node::new(self.leaves[mobility.min(MAX_MOVES)], 0),
        }
    }

    /// `update` of an expanded node from its children: the new node value
    /// and flags, the index of the child to select, and for
    /// [`Rule::INCREMENTAL`] rules the runner-up and the accumulator.
    #[inline]
    fn evaluate(&self, id: NodeId) -> Eval<R::V, R::Acc> {
        let node = *self.store.node(id);
        let (first, len) = (node.first as usize, node.len as usize);
        match self.store.child_ids(first, len) {
            Some(ids) => {
                // In a DAG the children lie anywhere in the store: fetch
                // them all at once rather than one miss after the other.
                for &c in ids {
                    prefetch(self.store.nodes.as_ptr().wrapping_add(c as usize));
                }
                let runner = !self.runners.is_empty();
                self.update(ids.iter().map(|&c| self.store.node(c)), runner)
            }
            None => self.update(self.store.tree_children(first, len).iter(), true),
        }
    }

    /// The fold of [`Search::evaluate`] over the children in edge order;
    /// a tree hands it a slice, so the loop has no index checks (this is
    /// the innermost loop of every best-first search). The runner-up is
    /// looked for only where [`Search::step`] may use it (`steps`, an
    /// incremental rule): elsewhere it cost PPT 8% of its instructions.
    #[inline(always)]
    fn update<'n>(
        &self,
        children: impl Iterator<Item = &'n Node<R::V>>,
        steps: bool,
    ) -> Eval<R::V, R::Acc>
    where
        R::V: 'n,
    {
        let runner = R::INCREMENTAL && steps;
        let mut acc = self.rule.start();
        let mut best = usize::MAX;
        let mut best_value = self.rule.lost();
        let mut second: Option<(u16, R::V)> = None;
        for (i, child) in children.enumerate() {
            if child.flags & LOST != 0 {
                return (self.rule.won(), EXPANDED | WON, i, None, acc);
            }
            acc = self.rule.add(acc, child.value);
            if child.flags & WON == 0 {
                if best == usize::MAX || self.rule.better(&child.value, &best_value) {
                    if runner && best != usize::MAX {
                        // The old best is at least as good as any runner-up
                        // so far, and comes first among equals.
                        second = Some((best as u16, best_value));
                    }
                    best = i;
                    best_value = child.value;
                } else if runner && second.is_none_or(|(_, s)| self.rule.better(&child.value, &s)) {
                    second = Some((i as u16, child.value));
                }
            }
        }
        if best == usize::MAX {
            // Every child is won for its mover.
            return (self.rule.lost(), EXPANDED | LOST, 0, None, acc);
        }
        (
            self.rule.finish(acc, &self.memo),
            EXPANDED,
            best,
            second,
            acc,
        )
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
    #[inline]
    fn step(&self, id: NodeId, depth: usize, new: &R::V) -> Option<Eval<R::V, R::Acc>> {
        let runner = self.runners.get(depth)?;
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
            acc,
        ))
    }

    /// Whether a node that selected child `best` keeps it when that child's
    /// value becomes `new`, the runner-up being `second`: the full update
    /// would pick the runner-up if it is better, or equal and first.
    #[inline]
    fn kept(&self, best: usize, second: Option<(u16, R::V)>, new: &R::V) -> bool {
        match second {
            None => true,
            Some((i, s)) if (i as usize) < best => self.rule.better(new, &s),
            Some((_, s)) => !self.rule.better(&s, new),
        }
    }

    /// [`Search::kept`] for a key `y` of the selected child.
    #[inline]
    fn kept_key(&self, best: usize, second: Option<(u16, R::V)>, y: f64) -> bool {
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
    #[inline]
    fn may_stop(&mut self, j: usize, v: &R::V) -> bool {
        let p = self.path[j - 1].0;
        let r = self.runners[j - 1];
        if r.node != p || !self.kept(self.store.node(p).best(), r.second, v) {
            return false;
        }
        if j == 1 {
            return true;
        }
        let gp = self.path[j - 2].0;
        let r2 = self.runners[j - 2];
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
    fn window(&mut self, m: usize) -> (f64, f64) {
        while self.wvalid <= m {
            let k = self.wvalid;
            self.windows[k] = if k <= 1 {
                (f64::NEG_INFINITY, f64::INFINITY)
            } else {
                let (r1, r2) = (self.runners[k - 1], self.runners[k - 2]);
                let (p, gp) = (self.path[k - 1].0, self.path[k - 2].0);
                let (lo, hi) = self.windows[k - 1];
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
            self.wvalid = k + 1;
        }
        self.windows[m]
    }

    /// Brings the path's out-of-date nodes up to date (lazy
    /// backpropagation), bottom up, as the full backpropagation would have
    /// left them: before a search ends, since its caller reads the values
    /// at the root (and PP² copies them).
    fn flush(&mut self) {
        let mut dirty = false;
        for d in (0..self.path.len()).rev() {
            dirty |= self.stale[d];
            self.stale[d] = false;
            if !dirty {
                continue;
            }
            let id = self.path[d].0;
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
    fn note_runner(&mut self, cur: NodeId, depth: usize, e: &Eval<R::V, R::Acc>) {
        // The windows below this depth were made from its old record.
        self.wvalid = self.wvalid.min(depth + 1);
        let Some(r) = self.runners.get_mut(depth) else {
            return;
        };
        let (_, flags, best, second, acc) = *e;
        *r = if flags & (WON | LOST) == 0 {
            let e = self.store.node(cur).first as usize + best;
            Runner {
                node: cur,
                second,
                rest: self
                    .rule
                    .remove(acc, self.store.node(self.store.child(e)).value),
            }
        } else {
            Runner {
                node: NONE,
                second: None,
                rest: acc,
            }
        };
    }

    /// `extend`: creates the children of leaf `id` (position `g`). False
    /// when the store (or the table) is full.
    fn extend(&mut self, id: NodeId, g: &mut G, ctx: &mut Ctx) -> bool {
        if self.sub.is_some() && self.extend_by_search(id, g, ctx) {
            return true;
        }
        self.moves.clear();
        g.moves(&mut self.moves);
        let k = self.moves.len();
        if !self.store.fits(k, k) || self.table.as_ref().is_some_and(|t| !t.has_room_for(k)) {
            return false;
        }
        let first = self.store.edges() as u32;
        if self.table.is_some() {
            self.extend_dag(g, ctx);
        } else {
            if G::CHILDREN_AT_ONCE {
                g.children_info(&self.moves, &mut self.infos);
            }
            for i in 0..k {
                let m = self.moves[i];
                let c = if G::CHILDREN_AT_ONCE {
                    self.infos[i]
                } else {
                    g.child_info(m)
                };
                let node = self.fresh_node(c.outcome, c.to_move, c.mobility, ctx);
                let child = self.store.push_node(node);
                self.store.push_edge(child, m);
            }
        }
        let node = self.store.node_mut(id);
        node.first = first;
        node.len = k as u16;
        node.flags |= EXPANDED;
        true
    }

    /// The children of `extend` with transpositions: a child whose key is
    /// in the table shares that node. The children's keys and fresh values
    /// are computed first and their slots prefetched, then their full keys,
    /// and only then are they looked up: the table is far larger than the
    /// caches, and overlapping the misses of all the children is what
    /// makes a DAG expansion fast (the lookups are those of a plain loop,
    /// in the same order, so the tree is the same).
    fn extend_dag(&mut self, g: &mut G, ctx: &mut Ctx) {
        self.child_keys.clear();
        self.child_nodes.clear();
        let table = self.table.as_ref().expect("a DAG search");
        if G::CHILDREN_AT_ONCE {
            g.children_info(&self.moves, &mut self.infos);
        }
        for (i, &m) in self.moves.iter().enumerate() {
            let c = if G::CHILDREN_AT_ONCE {
                self.infos[i]
            } else {
                g.child_info(m)
            };
            table.prefetch(c.key);
            self.child_keys.push(c.key);
            self.child_nodes
                .push(self.fresh_node(c.outcome, c.to_move, c.mobility, ctx));
        }
        for &key in &self.child_keys {
            table.prefetch_match(key);
        }
        let table = self.table.as_mut().expect("a DAG search");
        for (i, &m) in self.moves.iter().enumerate() {
            let key = self.child_keys[i];
            let child = match table.get(key) {
                Some(c) => c,
                None => {
                    let c = self.store.push_node(self.child_nodes[i]);
                    table.insert(key, c);
                    c
                }
            };
            self.store.push_edge(child, m);
        }
    }

    /// PN²/PP² `extend`: a bounded second-level search from `g`, whose
    /// root's children become `id`'s children. False when the second level
    /// could not even expand its root (the caller then expands plainly).
    fn extend_by_search(&mut self, id: NodeId, g: &mut G, ctx: &mut Ctx) -> bool {
        let bound = self.store.nodes.len();
        let sub = self.sub.as_mut().expect("second level");
        // The second level borrows this level's memo: one table for both
        // (the same positions recur at both levels), half the cache lines.
        std::mem::swap(&mut self.memo, &mut sub.memo);
        sub.search(g, ctx, bound, false);
        std::mem::swap(&mut self.memo, &mut sub.memo);
        let root = *sub.store.node(0);
        if root.flags & EXPANDED == 0 || !self.store.fits(root.len as usize, root.len as usize) {
            return false;
        }
        let first = self.store.edges() as u32;
        for i in 0..root.len as usize {
            let e = root.first as usize + i;
            let child = *sub.store.node(sub.store.child(e));
            let c = self
                .store
                .push_node(Node::new(child.value, child.flags & (WON | LOST)));
            self.store.push_edge(c, sub.store.edge_move[e]);
        }
        let node = self.store.node_mut(id);
        node.first = first;
        node.len = root.len;
        node.flags |= EXPANDED;
        true
    }

    /// Runs Algorithm 1 from `root` until the root is solved, a limit of
    /// `ctx` is reached, or (second level) the tree has `bound` nodes.
    /// `first_level` says whether expansions count as `ctx.expansions`.
    pub fn search(&mut self, root: &G, ctx: &mut Ctx, bound: usize, first_level: bool) -> Status {
        self.store.clear();
        if let Some(t) = &mut self.table {
            t.clear();
        }
        self.path.clear();
        // Node ids are reused after a clear.
        for r in &mut self.runners {
            r.node = NONE;
        }
        self.wvalid = 0;
        let mut g = root.clone();
        let node = self.fresh(&g, ctx);
        self.store.push_node(node);
        if let Some(t) = &mut self.table {
            t.insert(g.key(), 0);
        }
        let mut cur: NodeId = 0;
        loop {
            let flags = self.store.node(0).flags;
            if flags & WON != 0 {
                return self.finish(Status::Won);
            }
            if flags & LOST != 0 {
                return self.finish(Status::Lost);
            }
            if ctx.check() || (!first_level && self.store.nodes.len() >= bound) {
                return self.finish(Status::Open);
            }
            // Descend to a leaf.
            while self.store.node(cur).flags & EXPANDED != 0 && !self.store.node(cur).solved() {
                // The child chosen when the node was last updated: fresh in
                // a tree; in a DAG as fresh as the node's value.
                let node = self.store.node(cur);
                let best = node.best();
                let e = node.first as usize + best;
                let (child, m) = (self.store.child(e), self.store.edge_move[e]);
                if self.path.len() == MAX_DEPTH {
                    if first_level {
                        ctx.stopped = Some(Stopped::Memory);
                    }
                    return self.finish(Status::Open);
                }
                let u = g.play(m);
                self.path.push((cur, m, u, best as u16));
                cur = child;
            }
            if self.store.node(cur).solved() {
                // A stale DAG parent chose a solved child: refresh the path.
                let (parent, m, u, _) = self.path.pop().expect("the root is unsolved");
                g.undo(m, u);
                cur = parent;
            } else {
                if !self.extend(cur, &mut g, ctx) {
                    if first_level {
                        ctx.stopped = Some(Stopped::Memory);
                    }
                    return self.finish(Status::Open);
                }
                ctx.work += 1;
                if first_level {
                    ctx.expansions += 1;
                }
                if ctx.stopped.is_some() {
                    // A second-level search hit a global limit.
                    return self.finish(Status::Open);
                }
            }
            // Backpropagate, from `cur` at depth `bottom` up to the first
            // node whose value did not change. Values need no positions, so
            // the moves are not undone yet. `changed` is the new value of
            // the child just updated, when it is still unsolved.
            let bottom = self.path.len();
            let (mut depth, mut id) = (bottom, cur);
            let mut changed: Option<R::V> = None;
            loop {
                let stepped = changed.and_then(|new| self.step(id, depth, &new));
                self.stale[depth] = false;
                let (value, flags, best, _, _) = match stepped {
                    Some(e) => e,
                    None => {
                        let e = self.evaluate(id);
                        self.note_runner(id, depth, &e);
                        e
                    }
                };
                let node = self.store.node_mut(id);
                let unchanged = node.value == value && node.flags & FLAGS == flags;
                node.value = value;
                node.set_flags_and_best(flags, best);
                if unchanged || depth == 0 {
                    break;
                }
                let solved = flags & (WON | LOST) != 0;
                if self.lazy && !solved && self.may_stop(depth, &value) {
                    self.stale[depth - 1] = true;
                    break;
                }
                changed = (!solved).then_some(value);
                depth -= 1;
                id = self.path[depth].0;
            }
            // The next descent would start there (the root, or the node
            // whose value did not change) and replay the path down to the
            // first node that now selects another child or is solved: undo
            // only the moves below that node and start from it. Replaying
            // the top of the path at every expansion was a third of PP's
            // instructions.
            let mut keep = depth;
            while keep < bottom {
                let (id, _, _, taken) = self.path[keep];
                let node = self.store.node(id);
                if node.solved() || node.best() != taken as usize {
                    break;
                }
                keep += 1;
            }
            while self.path.len() > keep {
                let (parent, m, u, _) = self.path.pop().expect("below `keep`");
                g.undo(m, u);
                cur = parent;
            }
            // The nodes below depth `keep` will be others: so will their
            // records, from which the windows below `keep + 1` are made.
            self.wvalid = self.wvalid.min(keep + 2);
        }
    }

    fn finish(&mut self, status: Status) -> Status {
        if self.lazy {
            self.flush();
        }
        self.store.note_peak();
        if let Some(t) = &self.table {
            self.table_peak = self.table_peak.max(t.bytes());
        }
        status
    }

    /// The move to report at the root after a search: a winning move when
    /// the root is won, else the child the rule finds most promising.
    pub fn root_move(&self) -> Option<G::Move> {
        let root = self.store.node(0);
        if root.flags & EXPANDED == 0 || root.len == 0 {
            return None;
        }
        let (_, _, best, _, _) = self.evaluate(0);
        Some(self.store.edge_move[root.first as usize + best])
    }
}

/// Memory for trees and tables when [`Limits::memory`] is not set.
pub const DEFAULT_MEMORY: usize = 1 << 30;

/// A search that answers one yes/no question about a position: does the
/// mover win, with drawn terminals counted by [`Ctx::draw_wins_for`]?
pub trait Prover<G: Game> {
    /// Searches from `root` with the limits and counters of `ctx`.
    fn prove(&mut self, root: &G, ctx: &mut Ctx) -> Status;
    /// A winning move after [`Status::Won`], else the most promising one.
    fn best_move(&self) -> Option<G::Move>;
    /// Most bytes held at once by the search's structures.
    fn peak_memory(&self) -> usize;
}

impl<G: Game, R: Rule> Prover<G> for Search<G, R> {
    fn prove(&mut self, root: &G, ctx: &mut Ctx) -> Status {
        self.search(root, ctx, usize::MAX, true)
    }

    fn best_move(&self) -> Option<G::Move> {
        self.root_move()
    }

    fn peak_memory(&self) -> usize {
        Search::peak_memory(self)
    }
}

/// What a solve returns besides the [`Report`]: expansions at every level
/// (PN², PP²: first-level nodes plus second-level work).
pub struct Detail<M> {
    pub report: Report<M>,
    pub work: u64,
}

/// Solves `game` for the player to move with a [`Prover`]. A first search
/// counts draws as losses for that player: a proof is a win. On a
/// disproof, if no drawn position was met, that disproof holds whatever
/// draws count as, so it is a loss; otherwise a second search counts draws
/// as wins: a proof is then a draw, a disproof a loss.
pub fn drive<G: Game, P: Prover<G>>(prover: &mut P, game: &G, limits: &Limits) -> Detail<G::Move> {
    let start = Instant::now();
    let mut report = Report {
        value: None,
        best: None,
        stopped: None,
        nodes: 0,
        elapsed: Duration::ZERO,
        peak_memory: 0,
    };
    if let Some(o) = game.outcome() {
        report.value = Some(o);
        report.elapsed = start.elapsed();
        return Detail { report, work: 0 };
    }
    let root = game.to_move();
    let mut ctx = Ctx::new(limits, root.opp());
    let (value, best) = match prover.prove(game, &mut ctx) {
        Status::Won => (Some(Outcome::Win), prover.best_move()),
        Status::Lost if !ctx.saw_draw => (Some(Outcome::Loss), prover.best_move()),
        Status::Lost => {
            ctx.draw_wins_for = root;
            match prover.prove(game, &mut ctx) {
                Status::Won => (Some(Outcome::Draw), prover.best_move()),
                Status::Lost => (Some(Outcome::Loss), prover.best_move()),
                Status::Open => (None, None),
            }
        }
        Status::Open => (None, None),
    };
    report.value = value;
    report.best = best;
    report.stopped = if value.is_none() { ctx.stopped } else { None };
    report.nodes = ctx.expansions;
    report.elapsed = ctx.elapsed();
    report.peak_memory = prover.peak_memory();
    Detail {
        report,
        work: ctx.work,
    }
}

/// The memory budget of `limits`.
pub fn memory(limits: &Limits) -> usize {
    limits.memory.unwrap_or(DEFAULT_MEMORY)
}

/// Sets up a search (the only allocation) and solves once: what each
/// algorithm's `solve` does.
pub fn solve_with<G: Game, R: Rule>(
    rule: R,
    game: &G,
    limits: &Limits,
    transpositions: bool,
    second_level: bool,
) -> Detail<G::Move> {
    let mut search = Search::new(rule, memory(limits), transpositions, second_level);
    drive(&mut search, game, limits)
}
