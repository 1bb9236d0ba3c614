//! The second level's last trees, kept for later second-level searches
//! (PN² and PP² in the generic best-first search, [`bestfirst`](super);
//! seed 001 §3.2, Saffidine & Cazenave, "Developments on Product
//! Propagation", CG 2013, and seed 000's PN²).
//!
//! The papers throw a second-level tree away once its root's children are
//! copied into the first level. But the first level soon expands one of
//! those children, and its second-level search, from that child, grows
//! again the subtree that the earlier search had grown below it: in a tree,
//! a node's choices depend on its subtree alone, so the search from the
//! child makes the same expansions in the same order until it passes
//! what the earlier one had done (its bound, the first-level tree's size,
//! has only grown since). So the last [`KEPT`] trees are kept, and a
//! second-level search from a child of one of their roots starts from a
//! copy of that child's subtree ([`Search::resume`](super::Search::resume)).
//! The first-level tree, its node counts and values are those of the
//! papers' algorithm (up to the order of the incremental update's sums,
//! as everywhere in [`lazy`](super::lazy)); only the second level's
//! repeated expansions are skipped. PP², callgrind, same first-level
//! nodes: Domineering 6×6 solved, 1,810M → 1,413M instructions; 7×6 to
//! 4,000 nodes, 8,525M → 5,302M (on 6×6, 1,152 of the 1,489 sub-searches
//! started from a kept subtree). PN² gains nothing (6×6 to 1,500 nodes:
//! 3,981M → 3,991M instructions): none of its 1,500 expansions was of a
//! child of a kept root. Once a sub-search has shown how hard a leaf is,
//! its proof numbers turn the first level to the leaf's siblings.
//!
//! Two trees: the last one, whose root's children the first level is most
//! likely to expand next, and the one before, whose other children are
//! the next most likely. Keeping 3, 4, 8, 16 or 32 found more subtrees to
//! start from, but small ones: PP² on NoGo 4×4 (2,500 first-level nodes)
//! took 10,075M to 10,078M instructions with any of them.
//!
//! Memory: the kept trees and the one being grown share the second level's
//! budget. Before a search, the oldest trees are forgotten until the rest
//! leave room for the most nodes the new search can create, so it gets the
//! same room as when nothing was kept.

use crate::games::MAX_MOVES;
use crate::solve::store::{NodeId, Store};

/// How many second-level trees are kept (two at least: one is grown while
/// another is copied from).
pub(super) const KEPT: usize = 2;

/// One kept tree.
pub(super) struct Tree<V: Copy, M: Copy> {
    pub(super) store: Store<V, M>,
    /// The first-level ids of the children copied from this tree's root:
    /// the first and how many (0 when the tree serves nothing).
    copied: NodeId,
    count: u32,
    /// This tree's id of the first of those children.
    there: NodeId,
    /// When the tree was grown (larger is later).
    stamp: u64,
}

/// The kept trees of one second level.
pub(super) struct Kept<V: Copy, M: Copy> {
    pub(super) trees: Vec<Tree<V, M>>,
    /// The second level's bytes.
    budget: usize,
    clock: u64,
    /// Most bytes the trees held at once.
    peak: usize,
}

impl<V: Copy, M: Copy> Kept<V, M> {
    /// Trees for a second level of `budget` bytes (reserved now; pages
    /// cost nothing until written).
    pub(super) fn new(budget: usize) -> Self {
        Kept {
            trees: (0..KEPT)
                .map(|_| Tree {
                    store: Store::new(budget, false, usize::MAX),
                    copied: 0,
                    count: 0,
                    there: 0,
                    stamp: 0,
                })
                .collect(),
            budget,
            clock: 0,
            peak: 0,
        }
    }

    /// Forgets every tree (a new first-level search reuses the ids).
    pub(super) fn clear(&mut self) {
        for t in &mut self.trees {
            t.store.clear();
            t.count = 0;
        }
    }

    /// The kept tree whose root had the first-level node `id` among its
    /// children, and `id`'s id in that tree.
    pub(super) fn find(&self, id: NodeId) -> Option<(usize, NodeId)> {
        self.trees
            .iter()
            .position(|t| id >= t.copied && id - t.copied < t.count)
            .map(|i| (i, self.trees[i].there + (id - self.trees[i].copied)))
    }

    /// Picks the tree that the next second-level search, bounded by
    /// `bound` nodes, will overwrite: the oldest that is not `source` (the
    /// one it starts from). Forgets it, and the oldest others while the
    /// rest would leave the search less room than it may need; then
    /// `source` is still there or `None`.
    pub(super) fn make_room(
        &mut self,
        bound: usize,
        source: Option<(usize, NodeId)>,
    ) -> (usize, Option<(usize, NodeId)>) {
        let from = source.map(|s| s.0);
        let victim = self
            .oldest(|i| Some(i) != from)
            .expect("two kept trees at least");
        self.forget(victim);
        // A search stops at its bound, after one more expansion.
        let per_node = Store::<V, M>::NODE_BYTES + Store::<V, M>::TREE_EDGE_BYTES;
        let need = bound.saturating_add(MAX_MOVES + 1).saturating_mul(per_node);
        let mut source = source;
        while self.bytes_used().saturating_add(need) > self.budget {
            let Some(i) = self.oldest(|i| i != victim && self.trees[i].store.bytes_used() > 0)
            else {
                break;
            };
            if Some(i) == from {
                source = None;
            }
            self.forget(i);
        }
        (victim, source)
    }

    /// The least recently grown tree among those `pick` accepts.
    fn oldest(&self, pick: impl Fn(usize) -> bool) -> Option<usize> {
        (0..self.trees.len())
            .filter(|&i| pick(i))
            .min_by_key(|&i| self.trees[i].stamp)
    }

    fn forget(&mut self, i: usize) {
        self.trees[i].store.clear();
        self.trees[i].count = 0;
    }

    /// Records that tree `i` was just grown, and that its root's children
    /// became the first-level nodes `copied..copied + count`, the first of
    /// them being `there` in the tree.
    pub(super) fn note(&mut self, i: usize, copied: NodeId, count: u32, there: NodeId) {
        self.clock += 1;
        let t = &mut self.trees[i];
        (t.copied, t.count, t.there, t.stamp) = (copied, count, there, self.clock);
        self.peak = self.peak.max(self.bytes_used());
    }

    fn bytes_used(&self) -> usize {
        self.trees.iter().map(|t| t.store.bytes_used()).sum()
    }

    /// Most bytes the trees held at once (they are largest when a search
    /// has just ended).
    pub(super) fn peak(&self) -> usize {
        self.peak
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solve::store::Node;

    type K = Kept<[u32; 2], u8>;
    /// A node and its edge.
    const PER_NODE: usize = 17;

    /// Grows tree `i` to `n` nodes (a root and `n - 1` leaves) and notes
    /// that its root's children became first-level nodes `copied..`.
    fn grow(k: &mut K, i: usize, n: u32, copied: NodeId) {
        let s = &mut k.trees[i].store;
        s.clear();
        s.push_node(Node::new([0, 0], 0));
        for c in 1..n {
            let id = s.push_node(Node::new([c, c], 0));
            s.push_edge(id, c as u8);
        }
        k.note(i, copied, n - 1, 1);
    }

    #[test]
    fn finds_the_tree_of_a_copied_child() {
        let mut k = K::new(1 << 20);
        grow(&mut k, 0, 5, 100);
        grow(&mut k, 1, 3, 200);
        assert_eq!(k.find(100), Some((0, 1)));
        assert_eq!(k.find(103), Some((0, 4)));
        assert_eq!(k.find(104), None);
        assert_eq!(k.find(201), Some((1, 2)));
        assert_eq!(k.find(99), None);
        k.clear();
        assert_eq!(k.find(100), None);
    }

    #[test]
    fn makes_room_by_forgetting_the_oldest_trees() {
        // Room for everything: the tree not started from is overwritten.
        let mut k = K::new(1 << 20);
        grow(&mut k, 0, 5, 100);
        grow(&mut k, 1, 3, 200);
        assert_eq!(k.make_room(10, Some((0, 2))), (1, Some((0, 2))));
        assert_eq!(k.trees[1].store.nodes.len(), 0);
        assert_eq!(k.find(201), None);
        assert_eq!(k.make_room(10, None), (0, None));
        // The new search may need bound + MAX_MOVES + 1 nodes: with room
        // for exactly that beside the source, the source stays; one node
        // less and it goes too.
        for (spare, kept) in [(0, true), (1, false)] {
            let need = (50 + MAX_MOVES + 1) * PER_NODE;
            let mut k = K::new(need + 5 * PER_NODE - 1 - spare);
            grow(&mut k, 0, 5, 100);
            grow(&mut k, 1, 3, 200);
            let (victim, source) = k.make_room(50, Some((0, 2)));
            assert_eq!(victim, 1);
            assert_eq!(source.is_some(), kept, "spare {spare}");
            assert_eq!(k.trees[0].store.nodes.len() == 5, kept);
            // Both trees at once: 5 + 3 nodes of 16 bytes, 4 + 2 edges.
            assert_eq!(k.peak(), 8 * 16 + 6);
        }
    }
}
