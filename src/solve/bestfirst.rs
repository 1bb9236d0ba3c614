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
//! Rules such as PP update a node from its selected child alone and stop a
//! backpropagation below the root when no ancestor's choice can change:
//! see [`lazy`] (`bestfirst_lazy.rs`). [`drive`] and its [`Ctx`]
//! (`bestfirst_drive.rs`) run a search to a value.
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
//! them (see [`lazy`]'s incremental update). A stale parent may then
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
//! the first-level tree. The papers then throw the second-level tree away;
//! the last two are kept, and a second-level search from a child of one of
//! their roots starts from that child's subtree, which gives the same tree
//! with fewer expansions (see [`keep`], `bestfirst_keep.rs`).
//!
//! # Draws
//!
//! A proof search answers a yes/no question. [`Ctx::draw_wins_for`] says
//! which player a drawn terminal position counts as a win for; the driver in
//! [`drive`] asks twice when the game has draws.

use super::store::{prefetch, Node, NodeId, Store, Table, EXPANDED, FLAGS, LOST, NONE, WON};
use super::Stopped;
use crate::games::{ChildInfo, Game, MoveList, MAX_MOVES};

#[path = "bestfirst_lazy.rs"]
mod lazy;
use lazy::{Level, Runner, EMPTY, LEVELS};

#[path = "bestfirst_fold.rs"]
mod fold;
use fold::leaf_keys;

#[path = "bestfirst_extend.rs"]
mod extend;

#[path = "bestfirst_keep.rs"]
mod keep;
use keep::Kept;

#[path = "bestfirst_drive.rs"]
mod driver;
pub use driver::{drive, memory, solve_with, Ctx, Detail, Prover, Status, DEFAULT_MEMORY};

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
    /// Whether the rule has its own `update` over children read from the
    /// store ([`Rule::fold`]) instead of the generic one.
    const OWN_FOLD: bool = false;
    /// `update` over the `len` children `child(0)`, `child(1)`, … in edge
    /// order: exactly what the generic fold gives (value, flags, selected
    /// child, runner-up when `runner`; for an unsolved node the others'
    /// accumulator when `runner`, else that of all). Only called when
    /// [`Rule::OWN_FOLD`].
    fn fold<'n>(
        &self,
        _len: usize,
        _child: impl Fn(usize) -> &'n Node<Self::V>,
        _runner: bool,
    ) -> Eval<Self::V, Self::Acc>
    where
        Self::V: 'n,
    {
        unreachable!("fold is only called for rules with their own")
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
    /// Whether [`Rule::rank`] is given: then a tree's `update` picks the
    /// selected child and the runner-up without branches (see
    /// `bestfirst_fold.rs`).
    const RANKED: bool = false;
    /// An integer that orders values as `better` does: `better(a, b)`
    /// exactly when `rank(a) > rank(b)`, for the values that have a rank
    /// (`None` for others, say a NaN that `better` finds incomparable).
    fn rank(&self, _v: &Self::V) -> Option<u32> {
        unreachable!("rank is only called for ranked rules")
    }
}

/// What `update` finds: the node's value and flags, the index of the
/// child to select, the runner-up (index and value) when it is kept, and
/// then (an unsolved node of an [`Rule::INCREMENTAL`] rule) the
/// accumulated values of the children other than the selected one
/// ([`Rule::remove`]; else anything: it is not read).
pub type Eval<V, A> = (V, u16, usize, Option<(u16, V)>, A);

/// One level of best-first search with its store (and its second level).
pub struct Search<G: Game, R: Rule> {
    rule: R,
    pub store: Store<R::V, G::Move>,
    table: Option<Table>,
    sub: Option<Box<Search<G, R>>>,
    /// The descent: for each node above the current one, the move played
    /// from it and what undoes it (the nodes are in `levels`).
    path: Vec<(G::Move, G::Undo)>,
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
    leaves: Box<[R::V; MAX_MOVES + 1]>,
    /// By mobility, the rank of `init-leaf` in `select-child`'s order and
    /// the mobility, as [`Fresh`] wants them.
    leaf_keys: Box<[u64; MAX_MOVES + 1]>,
    memo: R::Memo,
    /// By depth on the path: its node, the child taken, and the records
    /// of the incremental update and the lazy backpropagation ([`Level`]).
    levels: Box<[Level<R::V, R::Acc>; LEVELS]>,
    /// Whether the runner-up records are kept ([`Rule::INCREMENTAL`] rules
    /// on a tree, or on a DAG of a game with [`Game::FIXED_DEPTH`]).
    records: bool,
    /// Lazy backpropagation ([`Rule::LAZY`], where records are kept); the
    /// levels' windows ([`Search::window`]) are valid below depth `wvalid`.
    lazy: bool,
    wvalid: usize,
    table_peak: usize,
    /// With a second level: its last trees, for [`Search::resume`].
    kept: Option<Kept<R::V, G::Move>>,
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
        let leaves = Box::new(std::array::from_fn(|c| rule.leaf(c)));
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
            leaf_keys: Box::new(leaf_keys(&rule, &leaves)),
            leaves,
            memo: rule.memo(),
            levels: vec![
                Level {
                    id: NONE,
                    taken: 0,
                    stale: false,
                    runner: Runner {
                        node: NONE,
                        second: None,
                        rest: rule.start(),
                    },
                    window: EMPTY,
                };
                LEVELS
            ]
            .into_boxed_slice()
            .try_into()
            .unwrap_or_else(|_| unreachable!("LEVELS levels")),
            records: R::INCREMENTAL && (!transpositions || G::FIXED_DEPTH),
            lazy: R::LAZY && R::INCREMENTAL && (!transpositions || G::FIXED_DEPTH),
            wvalid: 0,
            table_peak: 0,
            kept: second_level.then(|| Kept::new(memory - own)),
        }
    }

    /// Most bytes held at once by this level and the next.
    pub fn peak_memory(&self) -> usize {
        // The second level's trees are the kept ones.
        self.store.peak() + self.table_peak + self.kept.as_ref().map_or(0, |k| k.peak())
    }

    /// `update` of an expanded node from its children: the new node value
    /// and flags, the index of the child to select, and for
    /// [`Rule::INCREMENTAL`] rules the runner-up and the accumulator.
    #[inline]
    fn evaluate(&self, id: NodeId) -> Eval<R::V, R::Acc> {
        if self.table.is_some() {
            self.evaluate_in::<true>(id)
        } else {
            self.evaluate_in::<false>(id)
        }
    }

    /// [`Search::evaluate`] in a DAG or in a tree, as `DAG` says.
    #[inline(always)]
    fn evaluate_in<const DAG: bool>(&self, id: NodeId) -> Eval<R::V, R::Acc> {
        let node = *self.store.node(id);
        let (first, len) = (node.first as usize, node.len as usize);
        match self.store.child_ids(first, len) {
            Some(ids) if DAG => {
                let runner = self.records;
                if R::OWN_FOLD {
                    // No prefetch: the rule's fold loads every child in
                    // one pass of independent loads, whose misses the
                    // processor overlaps by itself (and the descent has
                    // asked for most of them); the prefetches were 4% of
                    // PNS's instructions.
                    let child = |i: usize| self.store.node(ids[i]);
                    return self.rule.fold(ids.len(), child, R::INCREMENTAL && runner);
                }
                // In a DAG the children lie anywhere in the store: fetch
                // them all at once rather than one miss after the other.
                self.prefetch_children(id);
                self.update(ids.iter().map(|&c| self.store.node(c)), runner)
            }
            _ => {
                let children = self.store.tree_children(first, len);
                if R::OWN_FOLD {
                    return self
                        .rule
                        .fold(children.len(), |i| &children[i], R::INCREMENTAL);
                }
                self.update_tree(children)
            }
        }
    }

    /// Asks for the records of the children of `id` in a DAG, where they
    /// lie anywhere in the store (in a tree they are consecutive).
    #[inline]
    fn prefetch_children(&self, id: NodeId) {
        let node = self.store.node(id);
        if let Some(ids) = self.store.child_ids(node.first as usize, node.len as usize) {
            for &c in ids {
                prefetch(self.store.nodes.as_ptr().wrapping_add(c as usize));
            }
        }
    }

    /// Takes back the last move of the descent's path (quietly in a tree,
    /// see [`Game::play_quiet`]) and returns the node it leads back to.
    #[inline(always)]
    fn step_back(&mut self, g: &mut G, quiet: bool) -> NodeId {
        let (m, u) = self.path.pop().expect("the root has no move to take back");
        if quiet {
            g.undo_quiet(m, u);
        } else {
            g.undo(m, u);
        }
        self.level(self.path.len()).id
    }

    /// Runs Algorithm 1 from `root` until the root is solved, a limit of
    /// `ctx` is reached, or (second level) the tree has `bound` nodes.
    /// `first_level` says whether expansions count as `ctx.expansions`.
    pub fn search(&mut self, root: &G, ctx: &mut Ctx, bound: usize, first_level: bool) -> Status {
        // Two copies of the loop: a tree's (PP, PP², PN² and every second
        // level) has none of the DAG's work, and fewer values to keep in
        // registers.
        if self.table.is_some() {
            self.search_in::<true>(root, ctx, bound, first_level)
        } else {
            self.search_in::<false>(root, ctx, bound, first_level)
        }
    }

    /// [`Search::search`] on a DAG (with the table) or on a tree.
    fn search_in<const DAG: bool>(
        &mut self,
        root: &G,
        ctx: &mut Ctx,
        bound: usize,
        first_level: bool,
    ) -> Status {
        self.store.clear();
        if let Some(t) = &mut self.table {
            t.clear();
        }
        if let Some(k) = &mut self.kept {
            k.clear();
        }
        self.forget_path();
        let node = self.fresh(root, ctx);
        self.store.push_node(node);
        if let Some(t) = &mut self.table {
            t.insert(root.key(), 0);
        }
        self.run::<DAG>(root, ctx, bound, first_level)
    }

    /// A second-level search from `root`, the position of node `keep` of
    /// the tree `kept` that an earlier second-level search grew: as
    /// [`Search::search`], but it starts from a copy of `keep`'s subtree
    /// instead of a lone root. In a tree, the choices below a node depend
    /// on its subtree alone, so a search from `keep` would grow that very
    /// subtree, expansion by expansion, before going further (see
    /// [`keep`](super::keep)).
    pub fn resume(
        &mut self,
        root: &G,
        ctx: &mut Ctx,
        bound: usize,
        kept: &Store<R::V, G::Move>,
        keep: NodeId,
    ) -> Status {
        if self.table.is_some() || !self.store.copy_subtree(kept, keep) {
            return self.search(root, ctx, bound, false);
        }
        self.forget_path();
        self.run::<false>(root, ctx, bound, false)
    }

    /// Forgets the descent's path and the records by depth, for a search
    /// in a store whose node ids now name other nodes.
    fn forget_path(&mut self) {
        self.path.clear();
        for l in &mut self.levels[..=MAX_DEPTH] {
            l.runner.node = NONE;
        }
        self.wvalid = 0;
    }

    /// The loop of Algorithm 1 from the root of the store, whose position is
    /// `root`.
    fn run<const DAG: bool>(
        &mut self,
        root: &G,
        ctx: &mut Ctx,
        bound: usize,
        first_level: bool,
    ) -> Status {
        let mut g = root.clone();
        let mut cur: NodeId = 0;
        // A tree reads no key: its moves need less bookkeeping (the
        // positions of a search are its own copies).
        let quiet = !DAG;
        // A second level checks every limit on entry, then only the clock
        // (see `Ctx::check_clock`).
        let mut entry = true;
        loop {
            let flags = self.store.node(0).flags;
            if flags & WON != 0 {
                return self.finish(Status::Won);
            }
            if flags & LOST != 0 {
                return self.finish(Status::Lost);
            }
            let stop = if first_level || entry {
                ctx.check()
            } else {
                ctx.check_clock()
            };
            entry = false;
            if stop || (!first_level && self.store.nodes.len() >= bound) {
                return self.finish(Status::Open);
            }
            // Descend to a leaf. In a DAG the backpropagation will read
            // the children of every node of the path, scattered over the
            // store: ask for them now, for the nodes passed and the two
            // above the start, so that their misses overlap the descent
            // and the expansion instead of each stalling its update.
            if DAG {
                for d in (0..self.path.len()).rev().take(2) {
                    self.prefetch_children(self.level(d).id);
                }
            }
            while self.store.node(cur).flags & EXPANDED != 0 && !self.store.node(cur).solved() {
                // The child chosen when the node was last updated: fresh in
                // a tree; in a DAG as fresh as the node's value.
                if DAG {
                    self.prefetch_children(cur);
                }
                let node = self.store.node(cur);
                let best = node.best();
                let e = node.first as usize + best;
                let child = if DAG {
                    self.store.child(e)
                } else {
                    e as NodeId + 1
                };
                let m = self.store.edge_move[e];
                if self.path.len() == MAX_DEPTH {
                    if first_level {
                        ctx.stopped = Some(Stopped::Memory);
                    }
                    return self.finish(Status::Open);
                }
                let u = if quiet { g.play_quiet(m) } else { g.play(m) };
                let level = self.level_mut(self.path.len());
                level.id = cur;
                level.taken = best as u16;
                self.path.push((m, u));
                cur = child;
            }
            let mut fresh = None;
            if self.store.node(cur).solved() {
                // A stale DAG parent chose a solved child: refresh the path.
                cur = self.step_back(&mut g, quiet);
            } else {
                if !self.extend::<DAG>(cur, &mut g, ctx, &mut fresh) {
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
            // Whether the child just updated is now lost (won) for its
            // mover.
            let (mut lost_below, mut won_below) = (false, false);
            loop {
                let stepped = changed.and_then(|new| self.step(id, depth, &new));
                self.level_mut(depth).stale = false;
                let (value, flags, best, _, _) = match stepped {
                    Some(e) => e,
                    None => {
                        let e = if lost_below && !DAG {
                            // In a tree the node was unsolved at its last
                            // update, so no other child was lost then, and
                            // only this one has changed since: the full
                            // update would stop at it and find the node won
                            // (the accumulator of a solved node's record is
                            // never read). Over a tenth of PP²'s full updates.
                            let taken = self.level(depth).taken as usize;
                            let acc = self.rule.start();
                            (self.rule.won(), EXPANDED | WON, taken, None, acc)
                        } else if won_below && !DAG && self.all_won(id, depth) {
                            // Every child won for its mover: a fifth of
                            // the updates after a child is won (PP²).
                            let acc = self.rule.start();
                            (self.rule.lost(), EXPANDED | LOST, 0, None, acc)
                        } else if let Some(e) = fresh.take() {
                            e
                        } else {
                            self.evaluate_in::<DAG>(id)
                        };
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
                    self.level_mut(depth - 1).stale = true;
                    break;
                }
                changed = (!solved).then_some(value);
                lost_below = flags & LOST != 0;
                won_below = flags & WON != 0;
                depth -= 1;
                id = self.level(depth).id;
            }
            // The next descent would start there (the root, or the node
            // whose value did not change) and replay the path down to the
            // first node that now selects another child or is solved: undo
            // only the moves below that node and start from it. Replaying
            // the top of the path at every expansion was a third of PP's
            // instructions.
            let mut keep = depth;
            while keep < bottom {
                let level = self.level(keep);
                let node = self.store.node(level.id);
                if node.solved() || node.best() != level.taken as usize {
                    break;
                }
                keep += 1;
            }
            while self.path.len() > keep {
                cur = self.step_back(&mut g, quiet);
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
