//! Proves that the depth-first solvers (α-β, NegaScout as solver and as
//! player, df-pn) allocate nothing once set up: after a first run, further
//! runs of tens of thousands of nodes on Domineering never touch the heap.

mod common;

use common::alloc::{counted, CountingAlloc};
use tesuji::games::domineering::Domineering;
use tesuji::solve::alphabeta::Solver;
use tesuji::solve::dfpn::Dfpn;
use tesuji::solve::negascout::{self, Player};
use tesuji::solve::Limits;

#[global_allocator]
static ALLOC: CountingAlloc = CountingAlloc;

fn limits() -> Limits<'static> {
    Limits {
        nodes: Some(30_000),
        memory: Some(4 << 20),
        ..Limits::default()
    }
}

#[test]
fn depth_first_solvers_never_allocate_after_setup() {
    // 8×8 is far beyond 30,000 nodes, so every run spends its budget.
    let game = Domineering::new(8, 8);
    let limits = limits();

    let mut ab = Solver::new(&limits);
    ab.solve(&game, &limits);
    let (r, n) = counted(|| ab.solve(&game, &limits));
    assert_eq!(r.nodes, 30_000);
    assert_eq!(n, 0, "alphabeta allocated");

    let (r, n) = counted(|| negascout::solve_with(&mut ab, &game, &limits));
    assert_eq!(r.nodes, 30_000);
    assert_eq!(n, 0, "negascout allocated");

    let mut player = Player::new(&limits);
    player.choose(&game, &limits);
    let (c, n) = counted(|| player.choose(&game, &limits));
    assert!(c.best.is_some() && c.nodes >= 30_000);
    assert_eq!(n, 0, "negascout player allocated");

    let mut dfpn = Dfpn::new(&limits);
    dfpn.solve(&game, &limits);
    let (r, n) = counted(|| dfpn.solve(&game, &limits));
    assert_eq!(r.nodes, 30_000);
    assert_eq!(n, 0, "dfpn allocated");
}

#[test]
fn domineering_solver_never_allocates_after_setup() {
    use tesuji::games::domineering::solver::Solver as DomSolver;
    let game = Domineering::new(8, 8);
    let limits = limits();
    let mut solver = DomSolver::new(&limits);
    solver.solve(&game, &limits);
    let (r, n) = counted(|| solver.solve(&game, &limits));
    assert_eq!(r.nodes, 30_000);
    assert_eq!(n, 0, "domineering solver allocated");
}
