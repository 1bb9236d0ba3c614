//! Node creation for the generic best-first search
//! ([`bestfirst`](super), seed 001's Algorithm 1: Saffidine & Cazenave,
//! "Developments on Product Propagation", CG 2013): `init-leaf` and
//! `info-term` for a new node, and `extend`, which makes a leaf's children
//! (in a tree, in a DAG through the table, or by a second-level search for
//! PN² and PP², seed 001 §3.2).

use super::fold::Fresh;
use super::{Ctx, Eval, Rule, Search};
use crate::games::{Color, Game, Outcome, MAX_MOVES};
use crate::solve::store::{prefetch, Node, NodeId, EXPANDED, LOST, WON};

impl<G: Game, R: Rule> Search<G, R> {
    /// The value and flags of a new node for the position `g`.
    #[inline]
    pub(super) fn fresh(&self, g: &G, ctx: &mut Ctx) -> Node<R::V> {
        let outcome = g.outcome();
        let mobility = if outcome.is_none() { g.mobility() } else { 0 };
        self.fresh_node(outcome, g.to_move(), mobility, ctx)
    }

    /// The value and flags of a new node for a position with `outcome`
    /// for its mover `mover`, who has `mobility` moves.
    #[inline]
    pub(super) fn fresh_node(
        &self,
        outcome: Option<Outcome>,
        mover: Color,
        mobility: usize,
        ctx: &mut Ctx,
    ) -> Node<R::V> {
        Self::fresh_with(self.rule, &self.leaves, outcome, mover, mobility, ctx)
    }

    /// [`Search::fresh_node`] from the rule and the leaf values alone, for
    /// loops that write the store meanwhile.
    #[inline(always)]
    pub(super) fn fresh_with(
        rule: R,
        leaves: &[R::V; MAX_MOVES + 1],
        outcome: Option<Outcome>,
        mover: Color,
        mobility: usize,
        ctx: &mut Ctx,
    ) -> Node<R::V> {
        match outcome {
            Some(o) => {
                let flags = ctx.terminal_flags(o, mover);
                let value = if flags == WON {
                    rule.won()
                } else {
                    rule.lost()
                };
                Node::new(value, flags)
            }
            None => Node::new(leaves[mobility.min(MAX_MOVES)], 0),
        }
    }

    /// `extend`: creates the children of leaf `id` (position `g`). False
    /// when the store (or the table) is full. A plain expansion in a tree
    /// also leaves in `fresh` the `update` of `id` from its new children
    /// (computed while they are made), which the backpropagation then
    /// uses instead of reading them back.
    #[inline(always)]
    pub(super) fn extend<const DAG: bool>(
        &mut self,
        id: NodeId,
        g: &mut G,
        ctx: &mut Ctx,
        fresh: &mut Option<Eval<R::V, R::Acc>>,
    ) -> bool {
        if self.sub.is_some() && self.extend_by_search(id, g, ctx) {
            return true;
        }
        if !DAG && G::EACH_CHILD && !G::CHILDREN_AT_ONCE {
            let k = g.mobility();
            if !self.store.fits(k, k) {
                return false;
            }
            let first = self.store.edges() as u32;
            *fresh = Some(self.extend_tree_each(g, ctx, k));
            let node = self.store.node_mut(id);
            node.first = first;
            node.len = k as u16;
            node.flags |= EXPANDED;
            return true;
        }
        self.moves.clear();
        g.moves(&mut self.moves);
        let k = self.moves.len();
        if !self.store.fits(k, k) || DAG && self.table.as_ref().is_some_and(|t| !t.has_room_for(k))
        {
            return false;
        }
        let first = self.store.edges() as u32;
        if DAG {
            self.extend_dag(g, ctx);
        } else {
            *fresh = Some(self.extend_tree(g, ctx));
        }
        let node = self.store.node_mut(id);
        node.first = first;
        node.len = k as u16;
        node.flags |= EXPANDED;
        true
    }

    /// The children of `extend` in a tree, and the `update` of their
    /// parent (see [`Fresh`]). Inlined: out of line, its loop had fewer
    /// instructions (a value was no longer kept in memory for want of
    /// registers) but the call cost more than that (PP², Domineering 6×6,
    /// 2% more instructions).
    #[inline(always)]
    pub(super) fn extend_tree(&mut self, g: &mut G, ctx: &mut Ctx) -> Eval<R::V, R::Acc> {
        if G::CHILDREN_AT_ONCE {
            g.children_info(&self.moves, &mut self.infos);
        }
        // Slices, not the vectors: their lengths stay in registers while
        // the loop writes the store.
        let (rule, leaves, keys) = (self.rule, &*self.leaves, &*self.leaf_keys);
        let (moves, infos) = (self.moves.as_slice(), self.infos.as_slice());
        let mut fold = Fresh::new(&rule);
        self.store.push_tree_children(moves, |i| {
            let c = if G::CHILDREN_AT_ONCE {
                infos[i]
            } else {
                g.child_info(moves[i])
            };
            if c.outcome.is_none() {
                let m = c.mobility.min(MAX_MOVES);
                fold.leaf(&rule, i, leaves[m], keys[m]);
                return Node::new(leaves[m], 0);
            }
            let node = Self::fresh_with(rule, leaves, c.outcome, c.to_move, c.mobility, ctx);
            fold.terminal(&rule, i, &node);
            node
        });
        fold.eval(&rule, &self.memo, leaves, R::INCREMENTAL)
    }

    /// [`Search::extend_tree`] for a game with [`Game::EACH_CHILD`],
    /// whose `k` moves ([`Game::mobility`]) and children come from one
    /// loop, [`Game::each_child`], with no list of moves in between.
    #[inline(always)]
    pub(super) fn extend_tree_each(
        &mut self,
        g: &mut G,
        ctx: &mut Ctx,
        k: usize,
    ) -> Eval<R::V, R::Acc> {
        let (rule, leaves, keys) = (self.rule, &*self.leaves, &*self.leaf_keys);
        let mut fold = Fresh::new(&rule);
        let pushed = self.store.push_tree_children_by(k, |out| {
            let mut i = 0;
            g.each_child(|m, c| {
                let node = if c.outcome.is_none() {
                    let m = c.mobility.min(MAX_MOVES);
                    fold.leaf(&rule, i, leaves[m], keys[m]);
                    Node::new(leaves[m], 0)
                } else {
                    let node =
                        Self::fresh_with(rule, leaves, c.outcome, c.to_move, c.mobility, ctx);
                    fold.terminal(&rule, i, &node);
                    node
                };
                out.push(node, m);
                i += 1;
            });
        });
        // The parent will claim `k` children.
        assert_eq!(pushed, k, "each_child and mobility disagree");
        fold.eval(&rule, &self.memo, leaves, R::INCREMENTAL)
    }

    /// The children of `extend` with transpositions: a child whose key is
    /// in the table shares that node. The children's keys and fresh values
    /// are computed first and their slots prefetched, then their full keys,
    /// and only then are they looked up: the table is far larger than the
    /// caches, and overlapping the misses of all the children is what
    /// makes a DAG expansion fast (the lookups are those of a plain loop,
    /// in the same order, so the tree is the same).
    pub(super) fn extend_dag(&mut self, g: &mut G, ctx: &mut Ctx) {
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
        // A child found in the table is read by the update that follows
        // the expansion: fetch its record with its key.
        for &key in &self.child_keys {
            if let Some(id) = table.prefetch_match(key) {
                prefetch(self.store.nodes.as_ptr().wrapping_add(id as usize));
            }
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
    /// root's children become `id`'s children. It starts from `id`'s
    /// subtree when a kept tree has it ([`keep`](super::keep)). False when
    /// the second level could not even expand its root (the caller then
    /// expands plainly).
    pub(super) fn extend_by_search(&mut self, id: NodeId, g: &mut G, ctx: &mut Ctx) -> bool {
        let bound = self.store.nodes.len();
        let sub = self.sub.as_mut().expect("second level");
        let kept = self.kept.as_mut().expect("second level");
        let (grown, source) = kept.make_room(bound, kept.find(id));
        std::mem::swap(&mut sub.store, &mut kept.trees[grown].store);
        // The second level borrows this level's memo: one table for both
        // (the same positions recur at both levels), half the cache lines.
        std::mem::swap(&mut self.memo, &mut sub.memo);
        match source {
            Some((t, keep)) => sub.resume(g, ctx, bound, &kept.trees[t].store, keep),
            None => sub.search(g, ctx, bound, false),
        };
        std::mem::swap(&mut self.memo, &mut sub.memo);
        std::mem::swap(&mut sub.store, &mut kept.trees[grown].store);
        let tree = &kept.trees[grown].store;
        let root = *tree.node(0);
        if root.flags & EXPANDED == 0 || !self.store.fits(root.len as usize, root.len as usize) {
            kept.note(grown, 0, 0, 0);
            return false;
        }
        let first = self.store.edges() as u32;
        for i in 0..root.len as usize {
            let e = root.first as usize + i;
            let child = *tree.node(tree.child(e));
            let c = self
                .store
                .push_node(Node::new(child.value, child.flags & (WON | LOST)));
            self.store.push_edge(c, tree.edge_move[e]);
        }
        // In a tree, the child of edge `e` is node `e + 1`.
        kept.note(grown, first + 1, root.len as u32, root.first + 1);
        let node = self.store.node_mut(id);
        node.first = first;
        node.len = root.len;
        node.flags |= EXPANDED;
        true
    }
}
