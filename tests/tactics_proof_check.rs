//! Every answer the df-pn capture solver gives as proven is checked against
//! the independent exhaustive reference (`tactics::reference`) on 1,000
//! generated capture problems (5×5 to 7×7), each under the three ko models:
//! zero disagreements, zero wrong winning moves, and `unknown` only when a
//! limit was hit.

use std::sync::atomic::AtomicBool;
use tesuji::tactics::dfpn::{Limits, Options, Question, Solver};
use tesuji::tactics::problems::{check_solver, generate, SolverAnswer};

#[test]
fn dfpn_agrees_with_exhaustive_search() {
    let problems = generate(0x7E50_2024, 1000);
    assert_eq!(problems.len(), 1000);
    let stop = AtomicBool::new(false);
    let mut solver = Solver::new(16);
    let mut total_nodes = 0u64;
    let report = check_solver(&problems, &mut |game| {
        let q = Question {
            board: game.board(),
            problem: *game.problem(),
            model: game.model(),
            to_move: game.to_move(),
        };
        let r = solver.solve(
            q,
            Options::default(),
            Limits {
                nodes: 2_000_000,
                time: None,
            },
            &stop,
        );
        total_nodes += r.nodes;
        SolverAnswer {
            winner: r.winner,
            best: r.best,
            limit_hit: r.limit_hit,
        }
    });
    eprintln!("proof check: df-pn vs exhaustive reference, {total_nodes} df-pn nodes\n{report}");
    assert!(report.checked >= 3000, "too few checks: {report}");
    assert!(report.is_clean(), "{report}");
}
