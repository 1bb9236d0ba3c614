//! Proves that a solve (df-pn, λ-df-pn, dual-λ, auto) allocates nothing
//! once the solver is set up (a ladder, and a life problem where the
//! unconditional-life check works hard):
//! after a first solve on a board size (which reserves the frame arena),
//! further solves on that size, tens of thousands of nodes each, never
//! touch the heap. The life and race checks on their own never do either.

mod common;

use common::alloc::{counted, CountingAlloc};
use std::sync::atomic::AtomicBool;
use tesuji::go::board::{Board, Point};
use tesuji::go::Color;
use tesuji::tactics::dfpn::{Algo, Forced, Limits, Options, Question, Solver};
use tesuji::tactics::life::target_lives;
use tesuji::tactics::race::race_won;
use tesuji::tactics::rules::{KoModel, Problem};
use tesuji::tactics::zone::Zone;

#[global_allocator]
static ALLOC: CountingAlloc = CountingAlloc;

/// A white block in a ladder start on 19×19: the threat searches run
/// their full budget on it.
fn position() -> (Board, Problem) {
    let mut b = Board::new(19);
    let at = |c, r| Board::point_at(c, r);
    for (c, r) in [(2, 4), (2, 3), (4, 3), (3, 2)] {
        b.play(Color::Black, at(c, r));
    }
    for (c, r) in [(3, 4), (3, 3)] {
        b.play(Color::White, at(c, r));
    }
    let problem = Problem::new(&b, at(3, 4)).expect("a stone");
    (b, problem)
}

/// A black group on the lower edge of 19×19, walled in, with a straight
/// five for eye space, escaping only at 8 liberties.
fn life_position() -> (Board, Problem) {
    let mut b = Board::new(19);
    let at = |c, r| Board::point_at(c, r);
    for c in 0..7 {
        b.play(Color::Black, at(c, 1));
    }
    for c in 0..8 {
        b.play(Color::White, at(c, 2));
    }
    for (c, r) in [(0, 0), (6, 0)] {
        b.play(Color::Black, at(c, r));
    }
    for (c, r) in [(7, 1), (7, 0)] {
        b.play(Color::White, at(c, r));
    }
    let mut problem = Problem::new(&b, at(0, 1)).expect("a stone");
    problem.escape_libs = 8;
    (b, problem)
}

#[test]
fn solving_never_allocates_after_setup() {
    let (board, problem) = position();
    // Plain df-pn's forced replies (`dfpn::forced`) read the ladder out
    // within the limit; the threat searches still run theirs. `auto`
    // reads it in about a thousand nodes per solve (its neutral df-pn, after
    // its first df-pn has used its 5%), the fewest of all.
    check(board, problem, 4_000);
    // Solved at once: the defender splits the eye space into two vital
    // regions; the life check runs to its proof.
    let (board, problem) = life_position();
    check(board, problem, 1);
}

/// The forced-reply rule (`dfpn::forced`) at work: the ladder block of
/// [`position`] escaping at 4 liberties, so that at most attacker nodes the
/// defender has a point that escapes at once. After a first solve, solves
/// with the rule on (its trial moves and zones included) never touch the
/// heap, and the rule cut some nodes.
#[test]
fn forced_replies_never_allocate() {
    let (board, mut problem) = position();
    problem.escape_libs = 4;
    let stop = AtomicBool::new(false);
    let limits = Limits {
        nodes: 20_000,
        time: None,
    };
    let mut solver = Solver::new(8);
    let opts = Options {
        forced: Forced::On,
        ..Options::default()
    };
    let q = |favoured| Question {
        board: &board,
        problem,
        model: KoModel { favoured },
        to_move: problem.attacker,
    };
    solver.solve(q(None), opts, limits, &stop);
    let ((nodes, forced), allocations) = counted(|| {
        let (mut nodes, mut forced) = (0, 0);
        for algo in [Algo::Dfpn, Algo::LambdaDfpn, Algo::Auto] {
            for favoured in [None, Some(Color::Black), Some(Color::White)] {
                let r = solver.solve(q(favoured), Options { algo, ..opts }, limits, &stop);
                nodes += r.nodes;
                forced += r.stats.forced_nodes;
            }
        }
        (nodes, forced)
    });
    eprintln!(
        "alloc: forced replies: {nodes} nodes, {forced} forced nodes, {allocations} allocations"
    );
    assert!(nodes > 500 && forced > 100, "{nodes} {forced}");
    assert_eq!(allocations, 0);
}

/// `count` boards of `size`, each after `moves` pseudo-random moves from
/// `seed` (a point that is not legal for the mover becomes a pass).
fn random_boards(mut seed: u64, count: usize, size: usize, moves: usize) -> Vec<Board> {
    let mut boards = Vec::new();
    for _ in 0..count {
        let mut b = Board::new(size);
        for _ in 0..moves {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let p = Board::point_at(
                (seed % size as u64) as usize,
                ((seed >> 8) % size as u64) as usize,
            );
            let c = b.to_move();
            if b.is_legal(c, p) {
                b.play(c, p);
            } else {
                b.play(c, tesuji::go::board::PASS);
            }
        }
        boards.push(b);
    }
    boards
}

/// The unconditional-life check on every block of dense random positions
/// (floods, caps and certificates included) never touches the heap.
#[test]
fn life_check_never_allocates() {
    let boards = random_boards(0x1F3A, 200, 9, 120);
    let ((checked, alive), allocations) = counted(|| {
        let (mut checked, mut alive) = (0u64, 0u64);
        for b in &boards {
            let mut zone = Zone::new();
            for p in b.points() {
                if b.color_at(p).is_some() {
                    checked += 1;
                    alive += target_lives(b, p, Some(&mut zone)) as u64;
                }
            }
        }
        (checked, alive)
    });
    eprintln!("alloc: life checks {checked} ({alive} alive), {allocations} allocations");
    assert!(checked > 5_000, "{checked}");
    assert_eq!(allocations, 0);
}

fn check(board: Board, problem: Problem, min_nodes: u64) {
    let stop = AtomicBool::new(false);
    let limits = Limits {
        nodes: 20_000,
        time: None,
    };
    let mut solver = Solver::new(8);
    let q = |favoured| Question {
        board: &board,
        problem,
        model: KoModel { favoured },
        to_move: problem.defender(),
    };
    solver.solve(q(None), Options::default(), limits, &stop);
    // The zone fixed point's table of proof zones is reserved by the first
    // solve that uses it: setup too.
    let fix = Options {
        algo: Algo::FixpointDfpn,
        ..Options::default()
    };
    solver.solve(q(None), fix, limits, &stop);
    for algo in Algo::ALL {
        let opts = Options {
            algo,
            ..Options::default()
        };
        let (nodes, allocations) = counted(|| {
            let mut nodes = 0;
            for favoured in [None, Some(Color::Black), Some(Color::White)] {
                let r = solver.solve(q(favoured), opts, limits, &stop);
                nodes += r.nodes;
            }
            let opts = Options {
                avoid_root_pass: true,
                ..opts
            };
            let r = solver.solve_with_ko(&board, problem, problem.defender(), opts, limits, &stop);
            nodes + r.nodes
        });
        eprintln!(
            "alloc: {}: {nodes} nodes, {allocations} allocations",
            algo.name()
        );
        assert!(
            nodes >= min_nodes,
            "too few nodes to mean anything: {nodes}"
        );
        assert_eq!(allocations, 0, "{}", algo.name());
    }
}

/// Every algorithm's inner loop on crowded boards, where captures, kos,
/// blocks in atari next to the target, forced replies, the life and race
/// checks, the group of quiet moves and the table all come up: after a
/// first solve on the board size (which reserves the frame arena), solves
/// of every target of dense random 9×9 positions, under the three ko
/// models, never touch the heap. Also λ¹ (`ladder`), the heuristic alone
/// and the sum rule for δ, each their own paths through the frame.
#[test]
fn crowded_solves_never_allocate() {
    let boards = random_boards(0xC0DE, 6, 9, 45);
    let stop = AtomicBool::new(false);
    let limits = Limits {
        nodes: 3_000,
        time: None,
    };
    let mut solver = Solver::new(8);
    let first = &boards[0];
    let target = first.points().find(|&p| first.color_at(p).is_some());
    let warm = Problem::new(first, target.expect("a stone")).expect("a stone");
    let q = |board, problem: Problem, favoured| Question {
        board,
        problem,
        model: KoModel { favoured },
        to_move: problem.attacker,
    };
    solver.solve(q(first, warm, None), Options::default(), limits, &stop);
    // The zone fixed point's table is reserved by its first solve.
    let fix = Options {
        algo: Algo::FixpointDfpn,
        ..Options::default()
    };
    solver.solve(q(first, warm, None), fix, limits, &stop);
    let mut variants: Vec<(Options, bool)> = Algo::ALL
        .iter()
        .map(|&algo| {
            (
                Options {
                    algo,
                    ..Options::default()
                },
                true,
            )
        })
        .collect();
    variants.push((
        Options {
            ladder: true,
            ..Options::default()
        },
        true,
    ));
    variants.push((
        Options {
            heuristic_only: true,
            rounds: false,
            ..Options::default()
        },
        true,
    ));
    variants.push((Options::default(), false));
    // The first four blocks of each board, found before counting.
    let mut problems: Vec<(&Board, Problem)> = Vec::new();
    for b in &boards {
        let mut heads: Vec<Point> = Vec::new();
        for p in b.points() {
            if b.color_at(p).is_some() && !heads.contains(&b.block(p)) {
                heads.push(b.block(p));
            }
        }
        for &t in heads.iter().take(4) {
            problems.push((b, Problem::new(b, t).expect("a stone")));
        }
    }
    for (opts, weak) in variants {
        solver.set_weak_rule(weak);
        let ((nodes, solves), allocations) = counted(|| {
            let (mut nodes, mut solves) = (0, 0);
            for &(b, problem) in &problems {
                for favoured in [None, Some(Color::Black), Some(Color::White)] {
                    let r = solver.solve(q(b, problem, favoured), opts, limits, &stop);
                    nodes += r.nodes;
                    solves += 1;
                }
            }
            (nodes, solves)
        });
        eprintln!(
            "alloc: crowded {} (ladder {}, heuristic only {}, weak {weak}): {solves} solves, {nodes} nodes, {allocations} allocations",
            opts.algo.name(),
            opts.ladder,
            opts.heuristic_only
        );
        // λ¹ settles most targets in a few nodes: a ladder is or is not.
        let least = if opts.ladder { 100 } else { 10_000 };
        assert!(nodes > least, "too few nodes to mean anything: {nodes}");
        assert_eq!(allocations, 0, "{opts:?} weak {weak}");
    }
}

/// The race check (`tactics::race`) on every block of dense random
/// positions, at every escape it is asked with, never touches the heap.
#[test]
fn race_check_never_allocates() {
    let boards = random_boards(0x2ACE, 300, 7, 45);
    let ((checked, won), allocations) = counted(|| {
        let (mut checked, mut won) = (0u64, 0u64);
        for b in &boards {
            for p in b.points() {
                if b.color_at(p).is_some() {
                    for escape in 3..=5 {
                        checked += 1;
                        won += race_won(b, p, escape) as u64;
                    }
                }
            }
        }
        (checked, won)
    });
    eprintln!("alloc: race checks {checked} ({won} won), {allocations} allocations");
    assert!(checked > 10_000 && won > 0, "{checked} {won}");
    assert_eq!(allocations, 0);
}
