//! Proves that the best-first solvers (PNS with transpositions, PN², PP,
//! PPT, PP², MCTS-Solver) allocate nothing once set up: the stores and
//! tables are reserved by `Search::new` / `Mcts::new`, and whole solves,
//! thousands of expansions each, never touch the heap.

mod common;

use common::alloc::{counted, CountingAlloc};
use tesuji::games::domineering::Domineering;
use tesuji::solve::bestfirst::{drive, Prover, Rule, Search};
use tesuji::solve::mcts_solver::Mcts;
use tesuji::solve::pns::PnRule;
use tesuji::solve::pp::PpRule;
use tesuji::solve::Limits;

#[global_allocator]
static ALLOC: CountingAlloc = CountingAlloc;

fn limits() -> Limits<'static> {
    Limits {
        nodes: Some(3_000),
        memory: Some(64 << 20),
        ..Limits::default()
    }
}

/// Solves twice after a warm-up and returns (nodes, allocations).
fn measure<P: Prover<Domineering>>(p: &mut P) -> (u64, u64) {
    let games = [Domineering::new(5, 5), Domineering::new(6, 6)];
    drive(p, &games[0], &limits());
    let (nodes, allocations) = counted(|| {
        games
            .iter()
            .map(|g| drive(p, g, &limits()).report.nodes)
            .sum::<u64>()
    });
    (nodes, allocations)
}

fn search<R: Rule>(rule: R, transpositions: bool, second: bool) -> Search<Domineering, R> {
    Search::new(rule, 64 << 20, transpositions, second)
}

#[test]
fn best_first_solves_never_allocate_after_setup() {
    let cases: [(&str, (u64, u64)); 5] = [
        ("pns", measure(&mut search(PnRule, true, false))),
        ("pn2", measure(&mut search(PnRule, false, true))),
        ("pp", measure(&mut search(PpRule, false, false))),
        ("ppt", measure(&mut search(PpRule, true, false))),
        ("pp2", measure(&mut search(PpRule, false, true))),
    ];
    for (name, (nodes, allocations)) in cases {
        assert!(nodes > 1_000, "{name}: {nodes} nodes");
        assert_eq!(allocations, 0, "{name} allocated");
    }
    let (nodes, allocations) = measure(&mut Mcts::<Domineering>::new(64 << 20));
    assert!(nodes > 1_000, "mcts-solver: {nodes} nodes");
    assert_eq!(allocations, 0, "mcts-solver allocated");
}
