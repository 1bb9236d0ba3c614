//! The best-first solvers against exhaustive negamax on small Domineering
//! boards and random mid-game positions, and their determinism.

use super::bestfirst::{solve_with, Ctx, Rule, Search};
use super::store::{NodeId, EXPANDED};
use super::{mcts_solver, pn2, pns, pp, pp2, ppt, Limits, Report};
use crate::games::domineering::Domineering;
use crate::games::nogo::NoGo;
use crate::games::{Game, MoveList, Outcome};
use std::collections::HashMap;

type SolveFn = fn(&Domineering, &Limits) -> Report<u8>;

const SOLVERS: [(&str, SolveFn); 6] = [
    ("pns", pns::solve::<Domineering>),
    ("pn2", pn2::solve::<Domineering>),
    ("pp", pp::solve::<Domineering>),
    ("ppt", ppt::solve::<Domineering>),
    ("pp2", pp2::solve::<Domineering>),
    ("mcts-solver", mcts_solver::solve::<Domineering>),
];

/// Negamax with a memo: whether the mover wins.
fn wins(g: &mut Domineering, memo: &mut HashMap<u64, bool>) -> bool {
    if let Some(&w) = memo.get(&g.key()) {
        return w;
    }
    let mut list = MoveList::new();
    g.moves(&mut list);
    let mut won = false;
    for &m in &list {
        g.play(m);
        let lost = !wins(g, memo);
        g.undo(m, ());
        if lost {
            won = true;
            break;
        }
    }
    memo.insert(g.key(), won);
    won
}

fn limits() -> Limits<'static> {
    Limits {
        nodes: Some(2_000_000),
        memory: Some(256 << 20),
        ..Limits::default()
    }
}

/// Checks every solver on `g`, including the move it reports.
fn check(g: &Domineering, what: &str) {
    let mut memo = HashMap::new();
    let truth = wins(&mut g.clone(), &mut memo);
    for (name, solve) in SOLVERS {
        let r = solve(g, &limits());
        let expected = if truth { Outcome::Win } else { Outcome::Loss };
        assert_eq!(r.value, Some(expected), "{name} on {what}");
        if g.outcome().is_none() {
            let m = r
                .best
                .unwrap_or_else(|| panic!("{name} gives no move on {what}"));
            let mut after = *g;
            after.play(m);
            let reply_wins = wins(&mut after, &mut memo);
            if truth {
                assert!(!reply_wins, "{name} on {what}: {m} does not win");
            }
        }
    }
}

#[test]
fn every_board_up_to_4x5() {
    for rows in 1..=5 {
        for cols in 1..=5 {
            if rows * cols <= 20 {
                check(&Domineering::new(rows, cols), &format!("{rows}x{cols}"));
            }
        }
    }
}

#[test]
fn random_mid_game_positions() {
    let mut state = 0x1234_5678_9ABC_DEF1u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    for i in 0..40 {
        let (rows, cols) = [(5, 5), (4, 6), (6, 4), (5, 6)][i % 4];
        let mut g = Domineering::new(rows, cols);
        let plies = 2 + next() % 6;
        for _ in 0..plies {
            let mut list = MoveList::new();
            g.moves(&mut list);
            if list.is_empty() {
                break;
            }
            g.play(list[(next() % list.len() as u64) as usize]);
        }
        check(&g, &format!("position {i} ({rows}x{cols}, {plies} plies)"));
    }
}

#[test]
fn node_counts_are_deterministic() {
    let g = Domineering::new(5, 5);
    for (name, solve) in SOLVERS {
        let a = solve(&g, &limits());
        let b = solve(&g, &limits());
        assert_eq!(a.nodes, b.nodes, "{name}");
        assert_eq!(a.best, b.best, "{name}");
        assert!(a.nodes > 0, "{name}");
    }
}

#[test]
fn limits_stop_without_a_value() {
    let g = Domineering::new(6, 6);
    for (name, solve) in SOLVERS {
        let r = solve(
            &g,
            &Limits {
                nodes: Some(50),
                ..limits()
            },
        );
        assert_eq!(r.value, None, "{name}");
        assert_eq!(r.stopped, Some(super::Stopped::Nodes), "{name}");
        let r = solve(
            &g,
            &Limits {
                memory: Some(4096),
                ..limits()
            },
        );
        assert_eq!(r.value, None, "{name}");
        assert_eq!(r.stopped, Some(super::Stopped::Memory), "{name}");
    }
}

/// A rule without its incremental update: every node on the path is
/// recomputed from all its children, as Algorithm 1 writes `update`.
#[derive(Clone, Copy)]
struct Full<R>(R);

impl<R: Rule> Rule for Full<R> {
    type V = R::V;
    type Acc = R::Acc;
    type Memo = R::Memo;
    fn leaf(&self, mobility: usize) -> R::V {
        self.0.leaf(mobility)
    }
    fn won(&self) -> R::V {
        self.0.won()
    }
    fn lost(&self) -> R::V {
        self.0.lost()
    }
    fn start(&self) -> R::Acc {
        self.0.start()
    }
    fn add(&self, acc: R::Acc, child: R::V) -> R::Acc {
        self.0.add(acc, child)
    }
    fn memo(&self) -> R::Memo {
        self.0.memo()
    }
    fn finish(&self, acc: R::Acc, memo: &R::Memo) -> R::V {
        self.0.finish(acc, memo)
    }
    fn better(&self, a: &R::V, b: &R::V) -> bool {
        self.0.better(a, b)
    }
}

/// The incremental update, the lazy backpropagation (PP and PP²) and
/// resuming the descent below the unchanged top of the path search the
/// same tree as full updates: same values, node counts and moves for PP,
/// PPT and PP², solved or stopped, on Domineering and on NoGo
/// (transpositions at a fixed depth). Checked to fail when the lazy stop
/// skips the grandparent's test.
#[test]
fn incremental_updates_search_as_full_ones() {
    fn same<G: Game, R: Rule>(rule: R, g: &G, what: &str) {
        for nodes in [300, 20_000] {
            let limits = Limits {
                nodes: Some(nodes),
                ..limits()
            };
            for (dag, two) in [(false, false), (true, false), (false, true)] {
                let a = solve_with(rule, g, &limits, dag, two).report;
                let b = solve_with(Full(rule), g, &limits, dag, two).report;
                let at = format!("{what}, {nodes} nodes, dag {dag}, two levels {two}");
                assert_eq!(a.value, b.value, "{at}");
                assert_eq!(a.nodes, b.nodes, "{at}");
                assert_eq!(a.best, b.best, "{at}");
            }
        }
    }
    for (g, what) in [
        (Domineering::new(5, 5), "Domineering 5x5"),
        (Domineering::new(4, 6), "Domineering 4x6"),
    ] {
        same(pp::PpRule, &g, &format!("PP on {what}"));
    }
    for (g, what) in [
        (NoGo::new(3, 4), "NoGo 3x4"),
        (NoGo::new(14, 1), "NoGo 14x1"),
    ] {
        same(pp::PpRule, &g, &format!("PP on {what}"));
    }
}

/// The tree below node `a` of `sa` and below node `b` of `sb` are the
/// same: values (to the bit), flags, selected children, moves, shape.
fn same_subtree<G: Game, R: Rule>(
    sa: &Search<G, R>,
    a: NodeId,
    sb: &Search<G, R>,
    b: NodeId,
    at: &str,
) {
    let (na, nb) = (*sa.store.node(a), *sb.store.node(b));
    assert_eq!(format!("{:?}", na.value), format!("{:?}", nb.value), "{at}");
    assert_eq!((na.flags, na.len), (nb.flags, nb.len), "{at}");
    if na.flags & EXPANDED == 0 {
        return;
    }
    for i in 0..na.len as usize {
        let (ea, eb) = (na.first as usize + i, nb.first as usize + i);
        assert_eq!(sa.store.edge_move[ea], sb.store.edge_move[eb], "{at}");
        same_subtree(sa, sa.store.child(ea), sb, sb.store.child(eb), at);
    }
}

/// What PN² and PP² rest on when a second-level search starts from a
/// subtree that an earlier one grew ([`Search::resume`]): in a tree, a
/// search from a child of an earlier search's root, bounded by at least
/// the earlier bound, grows exactly the tree it grows when it starts from
/// that child's subtree. Checked node by node for PP and PNS on every
/// child of the root, Domineering and NoGo, opening and mid-game
/// positions, several bounds; checked to fail when the copy drops a
/// child's selected-child index.
#[test]
fn a_search_resumed_from_a_kept_subtree_grows_the_same_tree() {
    fn check<G: Game, R: Rule>(rule: R, root: &G, what: &str) {
        let limits = limits();
        let memory = 64 << 20;
        for bound in [50, 400, 3000] {
            let mut ctx = Ctx::new(&limits, root.to_move().opp());
            let mut kept = Search::<G, R>::new(rule, memory, false, false);
            kept.search(root, &mut ctx, bound, false);
            let top = *kept.store.node(0);
            if top.flags & EXPANDED == 0 {
                continue;
            }
            for i in 0..top.len as usize {
                let e = top.first as usize + i;
                let id = kept.store.child(e);
                if kept.store.node(id).solved() {
                    continue;
                }
                let mut g = root.clone();
                g.play(kept.store.edge_move[e]);
                for later in [bound, bound + 1, 2 * bound + 7] {
                    let mut fresh = Search::<G, R>::new(rule, memory, false, false);
                    let mut resumed = Search::<G, R>::new(rule, memory, false, false);
                    let a = fresh.search(&g, &mut ctx, later, false);
                    let b = resumed.resume(&g, &mut ctx, later, &kept.store, id);
                    let at = format!("{what}, bound {bound}, child {i}, then {later}");
                    assert_eq!(a, b, "{at}");
                    assert_eq!(fresh.store.nodes.len(), resumed.store.nodes.len(), "{at}");
                    same_subtree(&fresh, 0, &resumed, 0, &at);
                }
            }
        }
    }
    let mut mid = Domineering::new(6, 6);
    for m in [3, 20, 9] {
        let mut list = MoveList::new();
        mid.moves(&mut list);
        mid.play(list[m % list.len()]);
    }
    for (g, what) in [
        (Domineering::new(5, 5), "Domineering 5x5"),
        (Domineering::new(4, 6), "Domineering 4x6"),
        (mid, "Domineering 6x6 after 3 moves"),
    ] {
        check(pp::PpRule, &g, &format!("PP on {what}"));
        check(pns::PnRule, &g, &format!("PNS on {what}"));
    }
    for (g, what) in [
        (NoGo::new(3, 4), "NoGo 3x4"),
        (NoGo::new(12, 1), "NoGo 12x1"),
    ] {
        check(pp::PpRule, &g, &format!("PP on {what}"));
        check(pns::PnRule, &g, &format!("PNS on {what}"));
    }
}
