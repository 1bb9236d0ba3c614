//! Exhaustive checks of Domineering's proven bound ([`Game::bound`]) and
//! of its closed-form race ([`race_moves`]) against plain search: every
//! position reachable on every board up to 4×5 and 5×4, the whole of 5×5,
//! and random partly filled 6×6 positions. Every bound the game reports
//! must agree with the exact value; a disagreement is a soundness bug.

use super::*;
use crate::go::zobrist::splitmix64;
use std::collections::HashMap;

/// Exact values (win for the player to move?) of every position reachable
/// from the ones solved, by memoised negamax without any bound.
struct Exact {
    /// Keyed by board size, occupancy and whether Black is to move.
    memo: HashMap<(usize, usize, u128, bool), bool>,
    /// Positions [`Domineering::cell_race`] decided in `check_all`.
    cell_decided: u64,
    /// Positions the solver's `race_bound` decided in `check_all`.
    race_decided: u64,
}

impl Exact {
    fn new() -> Exact {
        Exact {
            memo: HashMap::new(),
            cell_decided: 0,
            race_decided: 0,
        }
    }

    fn wins(&mut self, g: &mut Domineering) -> bool {
        let key = (
            g.rows(),
            g.cols(),
            g.occupied(),
            g.to_move() == Color::Black,
        );
        if let Some(&v) = self.memo.get(&key) {
            return v;
        }
        let mut list = MoveList::new();
        g.moves(&mut list);
        let mut win = false;
        for &m in &list {
            g.play(m);
            let lost = !self.wins(g);
            g.undo(m, ());
            if lost {
                win = true;
                break;
            }
        }
        self.memo.insert(key, win);
        win
    }

    /// Visits every position reachable from `g` (the memo's keys are only
    /// those negamax needed, so walk the whole graph here) and checks the
    /// bound of each against its exact value. Returns how many positions
    /// the bound decided.
    fn check_all(&mut self, g: &mut Domineering, seen: &mut HashMap<(u128, bool), ()>) -> u64 {
        let key = (g.occupied(), g.to_move() == Color::Black);
        if seen.insert(key, ()).is_some() {
            return 0;
        }
        let exact = self.wins(g);
        let mut decided = 0;
        // The solver's split race is the same bound, half by half, but for
        // the cell counts it skips: what it decides, the bound decides.
        let bound = g.bound();
        let both = g.race_bound(true, true);
        assert!(both.is_none() || both == bound, "{g:?}");
        self.race_decided += both.is_some() as u64;
        let loss = g.race_bound(true, false);
        assert!(loss.is_none() || loss == bound, "{g:?}");
        if g.race_bound(false, true) == Some(Outcome::Win) {
            assert!(exact, "win half wrong on {g:?}");
        }
        // The cell count on its own, both ways round.
        let me = g.to_move();
        if g.cell_race(me, true) {
            assert!(exact, "cell count (mover first) wrong on {g:?}");
            self.cell_decided += 1;
        }
        if g.cell_race(me.opp(), false) {
            assert!(!exact, "cell count (opponent second) wrong on {g:?}");
            self.cell_decided += 1;
        }
        if let Some(o) = bound {
            let claimed = o == Outcome::Win;
            assert_eq!(claimed, exact, "bound wrong on {g:?}");
            decided += 1;
        }
        let mut list = MoveList::new();
        g.moves(&mut list);
        for &m in &list {
            g.play(m);
            decided += self.check_all(g, seen);
            g.undo(m, ());
        }
        decided
    }
}

/// The race of [`race_moves`] played out: P with `s` safe moves and
/// `items[k]` items of kind `KINDS[k]` (moves P gains by taking one, the
/// opponent's moves it removes) against an opponent with at most `m`
/// moves, each of which spoils one item or none.
const KINDS: [(u32, u32); 4] = [(1, 0), (1, 1), (1, 2), (2, 2)];

fn race(
    s: u32,
    items: [u32; 4],
    m: u32,
    p_to_move: bool,
    memo: &mut HashMap<(u32, [u32; 4], u32, bool), bool>,
) -> bool {
    let key = (s, items, m, p_to_move);
    if let Some(&r) = memo.get(&key) {
        return r;
    }
    let r = if p_to_move {
        (s > 0 && race(s - 1, items, m, false, memo))
            || (0..4).any(|k| {
                let (gain, removes) = KINDS[k];
                let mut rest = items;
                items[k] > 0 && {
                    rest[k] -= 1;
                    race(s + gain - 1, rest, m.saturating_sub(removes), false, memo)
                }
            })
    } else {
        m == 0
            || (race(s, items, m - 1, true, memo)
                && (0..4).all(|k| {
                    let mut rest = items;
                    items[k] == 0 || {
                        rest[k] -= 1;
                        race(s, rest, m - 1, true, memo)
                    }
                }))
    };
    memo.insert(key, r);
    r
}

#[test]
fn race_closed_form_matches_the_race() {
    let mut memo = HashMap::new();
    for s in 0..4 {
        for n in 0..4u32.pow(4) {
            let items = [n % 4, n / 4 % 4, n / 16 % 4, n / 64 % 4];
            // KINDS[k] is worth gain + removes = k + 1, except blocks (4).
            let a = Assets {
                safe: s,
                worth: items,
            };
            for m in 0..30 {
                assert_eq!(
                    race(s, items, m, true, &mut memo),
                    race_moves(a, true) > m,
                    "first {a:?} m={m}"
                );
                assert_eq!(
                    race(s, items, m, false, &mut memo),
                    race_moves(a, false) >= m,
                    "second {a:?} m={m}"
                );
            }
        }
    }
}

/// The race behind [`Domineering::cell_race`]'s guaranteed moves, played
/// out: P with `s` safe moves, `ones` items worth one move and `blocks`
/// worth two (taking one leaves a safe move), against Q, who spoils one
/// item a move or passes; how many moves P is sure to make.
fn sure_moves(
    s: u32,
    ones: u32,
    blocks: u32,
    p_to_move: bool,
    memo: &mut HashMap<(u32, u32, u32, bool), u32>,
) -> u32 {
    let key = (s, ones, blocks, p_to_move);
    if let Some(&r) = memo.get(&key) {
        return r;
    }
    let r = if p_to_move {
        let mut best = 0;
        if s > 0 {
            best = best.max(1 + sure_moves(s - 1, ones, blocks, false, memo));
        }
        if ones > 0 {
            best = best.max(1 + sure_moves(s, ones - 1, blocks, false, memo));
        }
        if blocks > 0 {
            best = best.max(1 + sure_moves(s + 1, ones, blocks - 1, false, memo));
        }
        best
    } else {
        let mut worst = sure_moves(s, ones, blocks, true, memo);
        if ones > 0 {
            worst = worst.min(sure_moves(s, ones - 1, blocks, true, memo));
        }
        if blocks > 0 {
            worst = worst.min(sure_moves(s, ones, blocks - 1, true, memo));
        }
        worst
    };
    memo.insert(key, r);
    r
}

#[test]
fn cell_race_counts_match_their_races() {
    let mut memo = HashMap::new();
    for s in 0..5 {
        for ones in 0..8 {
            for blocks in 0..6 {
                for first in [true, false] {
                    let a = Assets {
                        safe: s,
                        worth: [ones, blocks, 0, 0],
                    };
                    assert_eq!(
                        race_moves(a, first),
                        sure_moves(s, ones, blocks, first, &mut memo),
                        "{a:?} first={first}"
                    );
                }
            }
        }
    }
}

#[test]
fn bound_agrees_with_exhaustive_search_on_small_boards() {
    let (mut decided, mut cell_decided, mut race_decided) = (0, 0, 0);
    for rows in 1..=5 {
        for cols in 1..=5 {
            if rows * cols > 20 {
                continue;
            }
            for first in [Color::Black, Color::White] {
                let mut g = Domineering::new(rows, cols);
                g.set_to_move(first);
                let mut exact = Exact::new();
                decided += exact.check_all(&mut g, &mut HashMap::new());
                cell_decided += exact.cell_decided;
                race_decided += exact.race_decided;
            }
        }
    }
    // The bound must actually decide positions, or this test checks nothing.
    assert!(decided > 10_000, "{decided}");
    assert!(cell_decided > 1_000, "{cell_decided}");
    // The solver's race skips some cell counts, not most decisions.
    assert!(
        race_decided > decided * 9 / 10,
        "{race_decided} of {decided}"
    );
}

#[test]
fn bound_agrees_with_exhaustive_search_on_5x5() {
    let mut g = Domineering::new(5, 5);
    let mut exact = Exact::new();
    let decided = exact.check_all(&mut g, &mut HashMap::new());
    assert!(decided > 10_000, "{decided}");
    // 5×5: the second player wins (Breuker, Uiterwijk & van den Herik 2000).
    assert!(!exact.wins(&mut Domineering::new(5, 5)));
}

/// A small deterministic generator for the random positions.
fn next(state: &mut u64) -> u64 {
    let (s, z) = splitmix64(*state);
    *state = s;
    z
}

/// Random 6×6 positions with `filled` dominoes already placed (either
/// player to move).
pub(crate) fn random_6x6(seed: u64, filled: usize) -> Domineering {
    let mut state = seed;
    let mut g = Domineering::new(6, 6);
    for _ in 0..filled {
        let mut list = MoveList::new();
        g.moves(&mut list);
        if list.is_empty() {
            break;
        }
        let m = list[next(&mut state) as usize % list.len()];
        g.play(m);
    }
    if next(&mut state) & 1 == 1 {
        let other = g.to_move().opp();
        g.set_to_move(other);
    }
    g
}

#[test]
fn bound_agrees_with_exhaustive_search_on_random_6x6() {
    let mut decided = 0;
    for seed in 0..40 {
        let mut g = random_6x6(seed, 5 + seed as usize % 4);
        let mut exact = Exact::new();
        decided += exact.check_all(&mut g, &mut HashMap::new());
    }
    assert!(decided > 10_000, "{decided}");
}

/// α-β and NegaScout (both take [`Game::bound`] and its look-ahead)
/// against the exact values: every board up to 5×5 with either player
/// first, and random 6×6 positions; the move they report must achieve the
/// value too.
#[test]
fn depth_first_solvers_agree_with_exhaustive_search() {
    use crate::solve::{solve, Algo, Limits};
    let limits = Limits {
        memory: Some(4 << 20),
        ..Limits::default()
    };
    let mut positions = Vec::new();
    for rows in 1..=5 {
        for cols in 1..=5 {
            for first in [Color::Black, Color::White] {
                let mut g = Domineering::new(rows, cols);
                g.set_to_move(first);
                positions.push(g);
            }
        }
    }
    positions.extend((100..160).map(|seed| random_6x6(seed, 4 + seed as usize % 5)));
    let mut exact = Exact::new();
    for g in positions {
        let truth = exact.wins(&mut g.clone());
        for algo in [Algo::AlphaBeta, Algo::NegaScout] {
            let r = solve(algo, &g, &limits).unwrap();
            let won = r.value == Some(Outcome::Win);
            assert_eq!(won, truth, "{} on {g:?}", algo.name());
            assert!(r.value.is_some());
            if let Some(m) = r.best {
                let mut after = g;
                after.play(m);
                assert_eq!(
                    !exact.wins(&mut after),
                    truth,
                    "{} move on {g:?}",
                    algo.name()
                );
            }
        }
    }
}

/// The Domineering solver ([`super::solver`]) against the exact values:
/// every board up to 5×5 with either player first, and random 6×6
/// positions; the move it reports must win, and a loss has no move.
#[test]
fn domineering_solver_agrees_with_exhaustive_search() {
    use crate::solve::Limits;
    let limits = Limits {
        memory: Some(1 << 20),
        ..Limits::default()
    };
    let mut solver = super::solver::Solver::new(&limits);
    let mut positions = Vec::new();
    for rows in 1..=5 {
        for cols in 1..=5 {
            for first in [Color::Black, Color::White] {
                let mut g = Domineering::new(rows, cols);
                g.set_to_move(first);
                positions.push(g);
            }
        }
    }
    positions.extend((0..200).map(|seed| random_6x6(seed, 5 + seed as usize % 5)));
    let mut exact = Exact::new();
    let mut wins = 0;
    for g in positions {
        let truth = exact.wins(&mut g.clone());
        let r = solver.solve(&g, &limits);
        assert_eq!(
            r.value,
            Some(if truth { Outcome::Win } else { Outcome::Loss }),
            "{g:?}"
        );
        match r.best {
            Some(m) => {
                let mut after = g;
                after.play(m);
                assert!(truth && !exact.wins(&mut after), "move on {g:?}");
                wins += 1;
            }
            None => assert!(!truth, "no move for a win on {g:?}"),
        }
    }
    assert!(wins > 50, "{wins}");
}

/// The published values the issue lists (rows × columns, vertical
/// first): 5×5 second player wins (Breuker, Uiterwijk & van den Herik
/// 2000); 6×6 and 7×7 first player; 6×5 and 6×7 vertical; 5×6 and 7×6
/// horizontal.
#[test]
fn domineering_solver_finds_the_published_values() {
    use crate::solve::Limits;
    let limits = Limits {
        memory: Some(16 << 20),
        ..Limits::default()
    };
    let mut solver = super::solver::Solver::new(&limits);
    for (rows, cols, first_wins) in [
        (5, 5, false),
        (6, 6, true),
        (7, 7, true),
        (6, 5, true),
        (6, 7, true),
        (5, 6, false),
        (7, 6, false),
    ] {
        let r = solver.solve(&Domineering::new(rows, cols), &limits);
        let want = if first_wins {
            Outcome::Win
        } else {
            Outcome::Loss
        };
        assert_eq!(r.value, Some(want), "{rows}x{cols}");
    }
}

/// A node limit stops the solver with no value, at exactly that count.
#[test]
fn domineering_solver_stops_at_the_node_limit() {
    use crate::solve::{Limits, Stopped};
    let limits = Limits {
        nodes: Some(1000),
        memory: Some(1 << 20),
        ..Limits::default()
    };
    let r = super::solver::solve(&Domineering::new(8, 8), &limits);
    assert_eq!((r.value, r.best, r.nodes), (None, None, 1000));
    assert_eq!(r.stopped, Some(Stopped::Nodes));
}
