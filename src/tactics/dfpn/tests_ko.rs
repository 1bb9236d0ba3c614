//! Ko codes under node limits: [`Solver::solve_with_ko`] tries the ko
//! models one after another, each with what the earlier ones left, and
//! answers only from results it has. Whatever the limit, a code given must
//! be the one the unlimited solve gives: a limit may only turn an answer
//! into `None` (reported as `unknown`), never into another code.

use super::tests::{name, pos, pt, KO};
use super::*;

/// Every node limit from 1 to a little past what the unlimited solve used.
fn codes_under_every_limit(b: &Board, v: &str, attacker_moves: bool, want: (u8, &str)) {
    let problem = Problem::new(b, pt(b, v)).expect("a stone");
    let mover = if attacker_moves {
        problem.attacker
    } else {
        problem.defender()
    };
    let opts = Options {
        avoid_root_pass: !attacker_moves,
        ..Options::default()
    };
    let stop = AtomicBool::new(false);
    let solve = |nodes: u64| {
        let mut s = Solver::new(4);
        let limits = Limits { nodes, time: None };
        s.solve_with_ko(b, problem, mover, opts, limits, &stop)
    };
    let full = solve(2_000_000);
    assert_eq!(
        (full.code, full.best.map(name)),
        (Some(want.0), Some(want.1.into()))
    );
    let mut answered = 0;
    for nodes in 1..=3 * full.nodes {
        let r = solve(nodes);
        if let Some(c) = r.code {
            assert_eq!(
                (c, r.best.map(name)),
                (want.0, Some(want.1.into())),
                "{nodes} nodes"
            );
            answered += 1;
        } else {
            assert_eq!(r.stopped_by, Some(Limit::Nodes), "{nodes} nodes");
        }
    }
    // Past some limit every solve answers.
    assert!(answered > 0 && solve(3 * full.nodes).code.is_some());
}

#[test]
fn ko_codes_never_change_with_the_limit() {
    let b = pos(KO);
    codes_under_every_limit(&b, "B2", true, (2, "C1"));
    codes_under_every_limit(&b, "B2", false, (3, "PASS"));
}

/// White's lone B4 in atari, where black's capture at C4 is a ko capture:
/// GNU Go calls that a ko result (`attack` answers `2 C4`), since white
/// may retake; white, moving first, connects at C4 and escapes.
const LONE_KO: &[&str] = &[".XO..", "XO.O.", ".XO..", ".....", "....."];

#[test]
fn ko_capture_of_a_lone_stone_is_code_two() {
    let b = pos(LONE_KO);
    let attack = |b: &Board| {
        let problem = Problem::new(b, pt(b, "B4")).expect("a stone");
        let stop = AtomicBool::new(false);
        let limits = Limits {
            nodes: 1_000_000,
            time: None,
        };
        let r = Solver::new(4).solve_with_ko(
            b,
            problem,
            problem.attacker,
            Options::default(),
            limits,
            &stop,
        );
        (r.code, r.best.map(name))
    };
    assert_eq!(attack(&b), (Some(2), Some("C4".into())));
    // With white C3 gone the capture is no ko: unconditional.
    let mut open = b.clone();
    open.set_point(pt(&b, "C3"), None);
    assert_eq!(attack(&open), (Some(1), Some("C4".into())));
}
