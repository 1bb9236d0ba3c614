//! `update` of the generic best-first search ([`bestfirst`](super), seed
//! 001's Algorithm 1: Saffidine & Cazenave, "Developments on Product
//! Propagation", CG 2013): the fold over a node's children, in edge order,
//! that gives the node's value and flags, the child to select and the
//! runner-up.
//!
//! [`Fold`] is that update over children read from the store. The update
//! that follows an expansion is [`Fresh`], run while the children are
//! created ([`Search::extend`](super::Search)), so that no child is read
//! back: a new child's value is `init-leaf` of its mobility, so its place
//! in `select-child`'s order is a rank looked up by mobility
//! ([`leaf_keys`]), and the selected child and the runner-up are the
//! two largest of integers, without branches. On PP² (Domineering 6×6)
//! the update after an expansion read half the children that all updates
//! read.

use super::{Eval, Rule, Search};
use crate::games::{Game, MAX_MOVES};
use crate::solve::store::{Node, EXPANDED, LOST, WON};
use std::cmp::Ordering;

/// The state of `update` after some of a node's children, in edge order.
#[derive(Clone, Copy)]
pub(super) struct Fold<V, A> {
    acc: A,
    /// The child to select so far, `usize::MAX` before the first unsolved
    /// child.
    best: usize,
    best_value: V,
    /// The runner-up so far (kept only for [`Fold::new`]'s `runner`).
    second: Option<(u16, V)>,
    /// The first child lost for its mover, when one was met: the node is
    /// won, and the fold ignores the children after it.
    lost: Option<usize>,
}

impl<V: Copy, A: Copy> Fold<V, A> {
    /// An empty fold.
    #[inline(always)]
    pub(super) fn new<R: Rule<V = V, Acc = A>>(rule: &R) -> Self {
        Fold {
            acc: rule.start(),
            best: usize::MAX,
            best_value: rule.lost(),
            second: None,
            lost: None,
        }
    }

    /// Whether no child lost for its mover was met: until then each child
    /// counts.
    #[inline(always)]
    pub(super) fn open(&self) -> bool {
        self.lost.is_none()
    }

    /// Adds child `i` (the next in edge order, while [`Fold::open`]); with
    /// `runner`, keeps the runner-up too.
    #[inline(always)]
    pub(super) fn add<R: Rule<V = V, Acc = A>>(
        &mut self,
        rule: &R,
        i: usize,
        child: &Node<V>,
        runner: bool,
    ) {
        if child.flags & LOST != 0 {
            self.lost = Some(i);
            return;
        }
        self.acc = rule.add(self.acc, child.value);
        if child.flags & WON == 0 {
            if self.best == usize::MAX || rule.better(&child.value, &self.best_value) {
                if runner && self.best != usize::MAX {
                    // The old best is at least as good as any runner-up
                    // so far, and comes first among equals.
                    self.second = Some((self.best as u16, self.best_value));
                }
                self.best = i;
                self.best_value = child.value;
            } else if runner
                && self
                    .second
                    .is_none_or(|(_, s)| rule.better(&child.value, &s))
            {
                self.second = Some((i as u16, child.value));
            }
        }
    }

    /// The node's value and flags, the child to select, the runner-up and
    /// the accumulator (that of the children before the lost one, if any:
    /// a solved node's accumulator is never read).
    #[inline(always)]
    pub(super) fn eval<R: Rule<V = V, Acc = A>>(
        self,
        rule: &R,
        memo: &R::Memo,
        runner: bool,
    ) -> Eval<V, A> {
        if let Some(i) = self.lost {
            return (rule.won(), EXPANDED | WON, i, None, self.acc);
        }
        if self.best == usize::MAX {
            // Every child is won for its mover.
            return (rule.lost(), EXPANDED | LOST, 0, None, self.acc);
        }
        let rest = if R::INCREMENTAL && runner {
            rule.remove(self.acc, self.best_value)
        } else {
            self.acc
        };
        (
            rule.finish(self.acc, memo),
            EXPANDED,
            self.best,
            self.second,
            rest,
        )
    }
}

impl<G: Game, R: Rule> Search<G, R> {
    /// The fold of [`Search::evaluate`] over the children in edge order;
    /// a tree hands it a slice, so the loop has no index checks (this is
    /// the innermost loop of every best-first search). The runner-up is
    /// looked for only where [`Search::step`] may use it (`steps`, an
    /// incremental rule): elsewhere it cost PPT 8% of its instructions.
    #[inline(always)]
    pub(super) fn update<'n>(
        &self,
        children: impl Iterator<Item = &'n Node<R::V>>,
        steps: bool,
    ) -> Eval<R::V, R::Acc>
    where
        R::V: 'n,
    {
        let runner = R::INCREMENTAL && steps;
        let mut fold = Fold::new(&self.rule);
        for (i, child) in children.enumerate() {
            fold.add(&self.rule, i, child, runner);
            if !fold.open() {
                break;
            }
        }
        fold.eval(&self.rule, &self.memo, runner)
    }
}

impl<G: Game, R: Rule> Search<G, R> {
    /// [`Search::update`] of a node in a tree, from the slice of its
    /// children. For a rule with [`Rule::RANKED`], the selected child and
    /// the runner-up are the two largest of the integer keys `rank << 32 |
    /// (0xFFFF − index) << 16` of the unsolved children (largest rank,
    /// then first index), as in [`Fresh`], without a branch per child:
    /// which child is better is a coin toss for the branch predictor, and
    /// after the update that follows an expansion this is the commonest
    /// update of PP² (0.9 per expansion). A child without a rank sends the
    /// node to [`Fold`], which compares as `better` does.
    #[inline(always)]
    pub(super) fn update_tree(&self, children: &[Node<R::V>]) -> Eval<R::V, R::Acc> {
        if !R::RANKED {
            return self.update(children.iter(), true);
        }
        let rule = &self.rule;
        let mut acc = rule.start();
        let mut top = [0u64; 2];
        let mut ranked = true;
        for (i, child) in children.iter().enumerate() {
            if child.flags & LOST != 0 {
                // As in `Fold`: the node is won, by the first lost child.
                return (rule.won(), EXPANDED | WON, i, None, acc);
            }
            acc = rule.add(acc, child.value);
            let rank = rule.rank(&child.value);
            ranked &= rank.is_some();
            // Children are fewer than 2¹⁶ (`MAX_MOVES`).
            let key = (rank.unwrap_or(0) as u64) << 32 | ((0xFFFF - i) as u64) << 16;
            let key = if child.flags & WON != 0 { 0 } else { key };
            let low = top[0].min(key);
            top[0] = top[0].max(key);
            top[1] = top[1].max(low);
        }
        if !ranked {
            return self.update(children.iter(), true);
        }
        if top[0] == 0 {
            // Every child is won for its mover.
            return (rule.lost(), EXPANDED | LOST, 0, None, acc);
        }
        let index = |key: u64| 0xFFFF - (key >> 16 & 0xFFFF) as usize;
        let best = index(top[0]);
        let best_value = children[best].value;
        let second = (R::INCREMENTAL && top[1] != 0).then(|| {
            let i = index(top[1]);
            (i as u16, children[i].value)
        });
        let rest = if R::INCREMENTAL {
            rule.remove(acc, best_value)
        } else {
            acc
        };
        (rule.finish(acc, &self.memo), EXPANDED, best, second, rest)
    }
}

/// By mobility `m`, `rank << 32 | m` where `rank` is that of `leaves[m]`
/// in `select-child`'s order, from 1: `better(leaves[a], leaves[b])`
/// exactly when `rank[a] > rank[b]` (`better` compares keys, so it is a
/// strict weak order; checked along the sorted values).
pub(super) fn leaf_keys<R: Rule>(rule: &R, leaves: &[R::V; MAX_MOVES + 1]) -> [u64; MAX_MOVES + 1] {
    let cmp = |a: &usize, b: &usize| {
        if rule.better(&leaves[*b], &leaves[*a]) {
            Ordering::Less
        } else if rule.better(&leaves[*a], &leaves[*b]) {
            Ordering::Greater
        } else {
            Ordering::Equal
        }
    };
    let mut order: Vec<usize> = (0..leaves.len()).collect();
    order.sort_by(cmp);
    let mut keys = [0; MAX_MOVES + 1];
    let mut rank = 1u64;
    for (k, &m) in order.iter().enumerate() {
        if k > 0 {
            let prev = order[k - 1];
            assert!(!rule.better(&leaves[prev], &leaves[m]), "leaf order");
            if rule.better(&leaves[m], &leaves[prev]) {
                rank += 1;
            }
        }
        keys[m] = rank << 32 | m as u64;
    }
    keys
}

/// [`Fold`] over the children of an expansion as they are created, each
/// either a fresh leaf (its value `init-leaf` of its mobility) or a
/// terminal position. The same result as [`Fold`] over the same children.
#[derive(Clone, Copy)]
pub(super) struct Fresh<A> {
    acc: A,
    /// The two largest keys `rank << 32 | (0xFFFF − index) << 16 |
    /// mobility` of the unsolved children (0: none): the largest rank is
    /// the most promising child, and among equal ranks the first one.
    top: [u64; 2],
    /// The first child lost for its mover, when one was met.
    lost: Option<usize>,
}

impl<A: Copy> Fresh<A> {
    #[inline(always)]
    pub(super) fn new<R: Rule<Acc = A>>(rule: &R) -> Self {
        Fresh {
            acc: rule.start(),
            top: [0; 2],
            lost: None,
        }
    }

    /// Adds child `i`, a leaf of value `v = leaves[m]`, with `key`
    /// [`leaf_keys`]`[m]`. After a lost child (the node is won) the
    /// accumulator goes on, but a solved node's is never read.
    #[inline(always)]
    pub(super) fn leaf<R: Rule<Acc = A>>(&mut self, rule: &R, i: usize, v: R::V, key: u64) {
        self.acc = rule.add(self.acc, v);
        let key = key | ((0xFFFF - i) as u64) << 16;
        let low = self.top[0].min(key);
        self.top[0] = self.top[0].max(key);
        self.top[1] = self.top[1].max(low);
    }

    /// Adds child `i`, a terminal position (flags [`WON`] or [`LOST`]).
    #[inline(always)]
    pub(super) fn terminal<R: Rule<Acc = A>>(&mut self, rule: &R, i: usize, node: &Node<R::V>) {
        if node.flags & LOST != 0 {
            self.lost = self.lost.or(Some(i));
        } else {
            self.acc = rule.add(self.acc, node.value);
        }
    }

    /// [`Fold::eval`] of the same children; `leaves` is `init-leaf` by
    /// mobility, with runner-up when `runner`.
    #[inline(always)]
    pub(super) fn eval<R: Rule<Acc = A>>(
        self,
        rule: &R,
        memo: &R::Memo,
        leaves: &[R::V; MAX_MOVES + 1],
        runner: bool,
    ) -> Eval<R::V, A> {
        if let Some(i) = self.lost {
            return (rule.won(), EXPANDED | WON, i, None, self.acc);
        }
        if self.top[0] == 0 {
            // Every child is won for its mover.
            return (rule.lost(), EXPANDED | LOST, 0, None, self.acc);
        }
        let index = |key: u64| 0xFFFF - (key >> 16 & 0xFFFF) as usize;
        let value = |key: u64| leaves[(key as usize & 0xFFFF).min(MAX_MOVES)];
        let second = (runner && self.top[1] != 0).then(|| {
            let key = self.top[1];
            (index(key) as u16, value(key))
        });
        let rest = if R::INCREMENTAL && runner {
            rule.remove(self.acc, value(self.top[0]))
        } else {
            self.acc
        };
        (
            rule.finish(self.acc, memo),
            EXPANDED,
            index(self.top[0]),
            second,
            rest,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::go::playout::Rng;
    use crate::solve::pns::PnRule;
    use crate::solve::pp::PpRule;

    /// [`Fresh`] over children made from mobilities (some terminal, won
    /// or lost for their mover) gives what [`Fold`] gives over the same
    /// children: value, flags, selected child, runner-up and, for an
    /// unsolved node, the others' sum; and the ranks order the leaves as
    /// `better` does.
    fn same_as_fold<R: Rule>(rule: R) {
        let leaves: [R::V; MAX_MOVES + 1] = std::array::from_fn(|m| rule.leaf(m));
        let keys = leaf_keys(&rule, &leaves);
        for a in 0..40 {
            for b in 0..40 {
                let by_rank = keys[a] >> 32 > keys[b] >> 32;
                assert_eq!(rule.better(&leaves[a], &leaves[b]), by_rank, "{a} {b}");
            }
        }
        let memo = rule.memo();
        let mut rng = Rng::new(0x9E37_79B9_7F4A_7C15);
        for _ in 0..20_000 {
            let k = 1 + rng.next_u64() as usize % 12;
            let mut fresh = Fresh::new(&rule);
            let mut fold = Fold::new(&rule);
            for i in 0..k {
                let r = rng.next_u64();
                let node = match r % 16 {
                    0 => Node::new(rule.won(), WON),
                    1 if r.is_multiple_of(5) => Node::new(rule.lost(), LOST),
                    _ => {
                        let m = 1 + (r >> 8) as usize % 6;
                        fresh.leaf(&rule, i, leaves[m], keys[m]);
                        Node::new(leaves[m], 0)
                    }
                };
                if node.flags != 0 {
                    fresh.terminal(&rule, i, &node);
                }
                if fold.open() {
                    fold.add(&rule, i, &node, R::INCREMENTAL);
                }
            }
            let a = fresh.eval(&rule, &memo, &leaves, R::INCREMENTAL);
            let b = fold.eval(&rule, &memo, R::INCREMENTAL);
            assert_eq!((a.0, a.1, a.2, a.3), (b.0, b.1, b.2, b.3));
            if a.1 & (WON | LOST) == 0 {
                assert_eq!(
                    format!("{:?}", rule.finish(a.4, &memo)),
                    format!("{:?}", rule.finish(b.4, &memo))
                );
            }
        }
    }

    /// A rule's own fold ([`Rule::fold`]) gives what the generic one
    /// gives, with and without the runner-up, over random children:
    /// leaves of any mobility (0 included: δ = 0 but unsolved), large and
    /// saturated values, won and lost ones, in any order.
    fn own_fold_as_generic<R: Rule>(rule: R) {
        assert!(R::OWN_FOLD);
        let memo = rule.memo();
        let mut rng = Rng::new(0x2545_F491_4F6C_DD1D);
        for round in 0..40_000 {
            let k = 1 + rng.next_u64() as usize % 14;
            let children: Vec<Node<R::V>> = (0..k)
                .map(|_| {
                    let r = rng.next_u64();
                    match r % 20 {
                        0 | 1 => Node::new(rule.won(), WON),
                        2 if r.is_multiple_of(3) => Node::new(rule.lost(), LOST),
                        3 => Node::new(rule.leaf((r >> 8) as usize % (MAX_MOVES + 1)), 0),
                        4..=9 => Node::new(rule.leaf((r >> 8) as usize % 5), 0),
                        // An inner node's value: `update` of a few
                        // leaves, and of a few of those.
                        _ => {
                            let mut inner = rule.start();
                            for a in 0..1 + (r >> 8) % 3 {
                                let mut acc = rule.start();
                                for b in 0..1 + (r >> (12 + 4 * a)) % 4 {
                                    let m = 1 + (r >> (24 + 6 * a + 2 * b)) as usize % 9;
                                    acc = rule.add(acc, rule.leaf(m));
                                }
                                inner = rule.add(inner, rule.finish(acc, &memo));
                            }
                            Node::new(rule.finish(inner, &memo), 0)
                        }
                    }
                })
                .collect();
            let runner = round % 2 == 0;
            let mut fold = Fold::new(&rule);
            for (i, child) in children.iter().enumerate() {
                fold.add(&rule, i, child, runner);
                if !fold.open() {
                    break;
                }
            }
            let a = rule.fold(children.len(), |i| &children[i], runner);
            let b = fold.eval(&rule, &memo, runner);
            assert_eq!((a.0, a.1, a.2, a.3), (b.0, b.1, b.2, b.3), "{children:?}");
            if a.1 & (WON | LOST) == 0 {
                assert_eq!(
                    format!("{:?}", rule.finish(a.4, &memo)),
                    format!("{:?}", rule.finish(b.4, &memo))
                );
            }
        }
    }

    #[test]
    fn pns_fold_is_the_generic_fold() {
        own_fold_as_generic(PnRule);
    }

    #[test]
    fn fresh_children_fold_as_read_ones() {
        same_as_fold(PpRule);
        same_as_fold(PnRule);
    }
}

#[cfg(test)]
mod ranked_tests {
    use super::*;
    use crate::games::domineering::Domineering;
    use crate::go::playout::Rng;
    use crate::solve::pp::{log1mexp_f32, PpRule};

    /// [`Search::update_tree`] (ranked, branch-free) gives what [`Fold`]
    /// gives over the same children, to the bit: value, flags, selected
    /// child, runner-up and the others' sum; among keys that tie (equal
    /// values, `−0` and `+0`), at `−∞`, and with NaN keys, which `better`
    /// finds incomparable; and ranks order keys as `better` does.
    #[test]
    fn ranked_update_is_the_fold() {
        let rule = PpRule;
        let search: Search<Domineering, PpRule> = Search::new(rule, 1 << 16, false, false);
        let mut rng = Rng::new(0x243F_6A88_85A3_08D3);
        let pool: Vec<f32> = [0.0, -0.0, f32::NEG_INFINITY, -1e-30, -0.5, -3.0]
            .into_iter()
            .chain((0..6).map(|i| -(i as f32) * 0.37 - 0.01))
            .collect();
        let mut children = Vec::new();
        let (mut unsolved, mut nan) = (0, 0);
        for round in 0..50_000 {
            children.clear();
            let k = 1 + rng.next_u64() as usize % 9;
            for _ in 0..k {
                let r = rng.next_u64();
                let q = if round % 50 == 0 && r.is_multiple_of(7) {
                    f32::NAN
                } else {
                    pool[(r >> 8) as usize % pool.len()]
                };
                let node = match r % 23 {
                    0 => Node::new(rule.won(), WON),
                    1 if r.is_multiple_of(3) => Node::new(rule.lost(), LOST),
                    _ => Node::new([log1mexp_f32(q), q], 0),
                };
                children.push(node);
            }
            let a = search.update_tree(&children);
            let b = search.update(children.iter(), true);
            assert_eq!(format!("{a:?}"), format!("{b:?}"), "{children:?}");
            unsolved += (a.1 & (WON | LOST) == 0) as usize;
            nan += children.iter().any(|c| c.value[1].is_nan()) as usize;
        }
        assert!(unsolved > 20_000 && nan > 100, "{unsolved} {nan}");
        for &a in &pool {
            for &b in &pool {
                let (ra, rb) = (rule.rank(&[0.0, a]), rule.rank(&[0.0, b]));
                assert_eq!(rule.better(&[0.0, a], &[0.0, b]), ra > rb, "{a} {b}");
            }
        }
        assert_eq!(rule.rank(&[0.0, f32::NAN]), None);
    }
}
