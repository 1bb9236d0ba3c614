//! A won liberty race as a win of the defender in the capture game of
//! [`rules`](super::rules): the target captures an attacker block next to
//! it before the attacker can capture the target, and the capture gives the
//! target its escape liberties.
//!
//! The solvers use it, like unconditional life (`life`), as a static fact
//! of a position with the **attacker to move**: in a race that is already
//! decided, df-pn otherwise has to refute every attacker move on the board,
//! each with the defender's same few moves, and on a large board that is
//! hundreds of children per level of the race. The classic semeai counts
//! (Müller, "Race to capture: analyzing semeai in Go", 1999) compare
//! liberties; the capture game needs more, since winning the race is not
//! the end of the game: the rule below asks that the capture itself end
//! the game by the escape liberties.
//!
//! # The rule
//!
//! T is the target block (the defender's, `lt` liberties, fewer than
//! `escape`), X an attacker block next to it with `k` liberties, `a` of its
//! stones next to T. R is X's *region*: the connected set of points that
//! hold no defender stone and contain X (its stones, the empty points and
//! other attacker stones reached from them). `m` is the number of empty
//! points of R, `y` the number of its attacker stones outside X, `s` the
//! number of liberties of T in R, `f = m + y` and
//! `b = max(k, f − 1) + s`. A defender block other than T is *sturdy*
//! when it has at least `2f` liberties. The defender wins, the attacker to
//! move, when
//!
//! 1. `s ≤ 1`, and no attacker stone of R outside X touches T;
//! 2. every defender block touching R, other than T, is sturdy;
//! 3. every point of R outside X touches a sturdy block, except the
//!    liberty of T in R, which may touch T alone;
//! 4. `lt ≥ b + 1` and `lt − b + a ≥ escape`.
//!
//! In the plainest case R is X and its liberties, all of whose neighbours
//! are X, defender stones or the edge: `f = k` and `b = k + s`.
//!
//! The proof below holds for any `k` and `f`; the check applies it only to
//! a block X in atari (`k = 1`) with a region of one or two points outside
//! it (`f ≤ 2`), the shapes the generated problems exercise (see
//! `MAX_REGION`).
//!
//! # Proof
//!
//! The defender's strategy: at each turn, capture X's block (the block
//! holding X's stones) if it has one liberty; else fill one of its
//! liberties that is not a liberty of T (there is one: the block has two
//! liberties or more, all in R, and R holds at most one liberty of T).
//! Moves go A₁ D₁ A₂ D₂ … (the attacker moves first). We show that the
//! block is captured by some D_F with `F ≤ f`, that T and the sturdy blocks
//! stand until then, and that the capture leaves T with `escape` liberties
//! or more, which ends the game for the defender. Every other way a line
//! can end (two passes, a repetition, the depth limit, the escape
//! liberties earlier) is a defender win too, so the result holds on every
//! path; the strategy never needs a ko ban lifted or kept (see below), so
//! it holds under every ko model.
//!
//! * *R stays closed.* Its boundary is T, sturdy blocks and the edge. A
//!   sturdy block B stands: along the race a defender block only grows
//!   (by the defender's stones), and each move of either side fills one
//!   point, so the block holding B has at least `2f − 2j + 1 ≥ 1`
//!   liberties after Aⱼ (j − 1 defender moves before it), for `j ≤ F ≤ f`,
//!   and at least `2f − 2j ≥ 2` after a Dⱼ that captures nothing (j < F).
//!   T stands (below). So no point outside R ever joins it, and nothing
//!   the attacker plays can capture a stone in or around R: every defender
//!   stone there belongs to T or a sturdy block (the defender's fills join
//!   one, condition 3: a fill is never the liberty of T in R but the last).
//!   In particular no fill is suicide, and no ko ban ever falls on a point
//!   of R (a ban marks a single defender stone just captured).
//! * *The block falls within f fills.* Let M be the number of empty points
//!   of R. Each move in R fills one (the attacker's captures nothing there);
//!   only the defender's captures empty points again, and what it captures
//!   before the block itself are attacker stones outside the block: the y
//!   stones there at the start, or stones the attacker added in R. With
//!   `n` attacker moves in R and `F` defender fills, the block still has a
//!   liberty before D_F, so `1 ≤ M ≤ m − (F − 1) − n + (y + n)`, that is
//!   `F ≤ f`. If the attacker never plays in R, the block's liberties only
//!   shrink, one per fill (a stone next to X's block is in it, so nothing
//!   captured was next to it), and `F ≤ k`.
//! * *T stands.* T loses liberties only to stones next to it: the
//!   attacker's on its liberties, and the defender's last move if it fills
//!   the liberty of T in R (condition 1: no captured stone of R touches T,
//!   so T gains no other liberty in R to fill). The attacker makes F moves
//!   before D_F. If none is in R, T loses at most `k` to them; else at most
//!   `F − n` outside R plus the one in R when it is the liberty of T,
//!   at most `f − 1 + s`. So the attacker takes at most `b` liberties,
//!   fewer than `lt`, and T stands.
//! * *The capture escapes.* With the defender's last move, T has lost at
//!   most `b` liberties in all (the liberty of T in R is filled once, by
//!   one side), and the stones of X next to T (X only grew) become its
//!   liberties: `lt − b + a ≥ escape`.
//!
//! The check reads the stones alone (a position with the attacker to
//! move), so a search may store the result like a Benson verdict.
//!
//! # The zone
//!
//! [`race_zone`] also gives what the rule read, for the zone fixed point
//! of df-pn (`dfpn::fixpoint`): T, X and every wall whole (stones and
//! liberties) and the points of R. In a position that holds the same on
//! those points and differs elsewhere only by attacker stones on empty
//! points and by removed defender stones, every quantity of the rule is
//! the same: T and the walls keep their liberties (they are read) and
//! lose no stone (they are read); X keeps its stones and liberties (its
//! liberties are in R, its defender neighbours are T and walls); and R,
//! bounded by T, walls and the edge, floods to the same points. So the
//! four conditions hold there too, and the proof above applies.
//!
//! # Cost
//!
//! It runs where Benson's check runs. The common case fails on counts
//! alone: one walk over the target's stones, and for each attacker block
//! in atari next to it (`lt − 1 + a ≥ escape` at least) a walk over its
//! stones and a flood of its region, given up once the region is too large
//! to pass. Everything is on the stack.

use crate::go::board::{Board, Point, BLACK, BORDER, EMPTY};
use crate::go::Color;
use crate::tactics::zone::Zone;
use arrayvec::ArrayVec;

/// Attacker blocks next to the target the check looks at.
const MAX_NEIGHBOURS: usize = 32;
/// Liberties of the target it lists; a target with more has escaped on any
/// reasonable `escape`.
const MAX_LIBS: usize = 16;

/// Whether the defender, with the attacker to move, wins the capture game
/// on the block of `target` by the race of the module documentation.
pub fn race_won(board: &Board, target: Point, escape: usize) -> bool {
    race(board, target, escape, None)
}

/// [`race_won`], adding to `zone` what the rule read when it holds (see
/// *The zone* in the module documentation).
pub fn race_zone(board: &Board, target: Point, escape: usize, zone: &mut Zone) -> bool {
    race(board, target, escape, Some(zone))
}

fn race(board: &Board, target: Point, escape: usize, mut zone: Option<&mut Zone>) -> bool {
    let own = board.cell(target);
    if own == EMPTY || own == BORDER {
        return false;
    }
    let t = board.block(target);
    let lt = board.libs(t);
    // k ≥ 1 and lt ≥ k + 1; an escaped target is the rules' business.
    if lt < 2 || lt >= escape || lt > MAX_LIBS {
        return false;
    }
    let enemy = 3 - own;
    // Usually no attacker block in atari touches T, and the check ends
    // there: found from the board's set of blocks in atari (few, and
    // small) without a walk over T, which may be large.
    let attacker = if enemy == BLACK {
        Color::Black
    } else {
        Color::White
    };
    // The attacker blocks in atari next to T: without a zone, from the
    // board's set (in the order of their heads), each walked to its first
    // stone next to T; the verdict is whether one of them wins, whatever
    // the order. With a zone, which records the first win, they are
    // listed in the order of a walk over T's stones, once one is found;
    // so too when the list overflows, so that the same ones are kept.
    let mut heads: ArrayVec<Point, MAX_NEIGHBOURS> = ArrayVec::new();
    let mut overflow = false;
    let all = zone.is_none();
    // Blocks passed over without a walk: they cannot win (below).
    let mut skipped = 0;
    board.for_each_atari_block(attacker, |h| {
        // Condition 4 at its weakest, as `wins_against` asks it first
        // (`lt + a < k + escape`, here `k = 1`, and `a` is at most the
        // block's stones): most blocks in atari are a stone or two, and
        // fail it before their walk (`lt < escape`).
        if lt + board.block_size(h) <= escape {
            skipped += 1;
            return;
        }
        if heads.is_empty() || all {
            // Stopping at the first stone next to T.
            let mut next_to = false;
            board.for_each_stone_while(h, |s| {
                for n in Board::neighbors(s) {
                    next_to |= board.cell(n) == own && board.block(n) == t;
                }
                !next_to
            });
            if next_to {
                overflow |= heads.try_push(h).is_err();
            }
        }
    });
    if heads.is_empty() {
        return false;
    }
    // The skipped blocks may have been next to T: when they and the
    // listed ones could overflow the list, the blocks are listed as
    // without the skip (every one, by T's walk, when they fit), so that
    // the verdict is the same whichever blocks the list keeps.
    overflow |= heads.len() + skipped > MAX_NEIGHBOURS;
    if !all || overflow {
        heads.clear();
        board.for_each_stone(t, |s| {
            for n in Board::neighbors(s) {
                if board.cell(n) == enemy && board.libs(n) == 1 {
                    let h = board.block(n);
                    if !heads.contains(&h) {
                        // At most 4 per stone of T, and the check gives up
                        // blocks beyond the capacity, which can only make
                        // it say "not proven".
                        let _ = heads.try_push(h);
                    }
                }
            }
        });
    }
    let mut t_libs: ArrayVec<Point, MAX_LIBS> = ArrayVec::new();
    board.for_each_stone_while(t, |s| {
        for n in Board::neighbors(s) {
            if board.cell(n) == EMPTY && !t_libs.contains(&n) {
                // `lt ≤ MAX_LIBS`, so this always fits.
                let _ = t_libs.try_push(n);
            }
        }
        // Once all `lt` are listed the rest of T meets them again.
        t_libs.len() < lt
    });
    heads
        .iter()
        .any(|&x| wins_against(board, t, &t_libs, x, escape, zone.as_deref_mut()))
}

/// Points of a region outside X the check accepts. Condition 4 alone
/// would allow `f ≤ lt < escape`, and blocks X with up to `lt − 1`
/// liberties; but the generated problems that check the rule against the
/// exhaustive reference (`problems::generate_race`) reach almost only
/// blocks in atari with regions of one or two points, so the check is
/// limited to those (`k = 1`, `f ≤ 2`, so `b = 1 + s`) until a generator
/// exercises larger shapes.
const MAX_REGION: usize = 2;

/// The rule for one attacker block `x` next to the target `t`.
fn wins_against(
    board: &Board,
    t: Point,
    t_libs: &[Point],
    x: Point,
    escape: usize,
    zone: Option<&mut Zone>,
) -> bool {
    let own = board.cell(t);
    let enemy = 3 - own;
    let lt = t_libs.len();
    let k = board.libs(x);
    // Stones of X next to T; the first points of R outside X (X's
    // liberties); X's defender neighbours other than T.
    let mut a = 0;
    let mut region: ArrayVec<Point, MAX_REGION> = ArrayVec::new();
    let mut walls: ArrayVec<Point, MAX_NEIGHBOURS> = ArrayVec::new();
    let mut overflow = false;
    board.for_each_stone(x, |st| {
        let mut next_to_t = false;
        for n in Board::neighbors(st) {
            let c = board.cell(n);
            if c == EMPTY {
                if !region.contains(&n) && region.try_push(n).is_err() {
                    overflow = true;
                }
            } else if c == own {
                let h = board.block(n);
                if h == t {
                    next_to_t = true;
                } else if !walls.contains(&h) && walls.try_push(h).is_err() {
                    overflow = true;
                }
            }
        }
        a += next_to_t as usize;
    });
    // Condition 4 at its weakest (b ≥ k) before anything costly.
    if overflow || lt <= k || lt + a < k + escape {
        return false;
    }
    // Flood the rest of R: empty points and attacker stones, X excluded.
    // f = m + y can only grow, and condition 4 needs f ≤ lt.
    let mut i = 0;
    while i < region.len() {
        let p = region[i];
        i += 1;
        for n in Board::neighbors(p) {
            let c = board.cell(n);
            if c == BORDER {
                continue;
            }
            if c == own {
                let h = board.block(n);
                if h != t && !walls.contains(&h) && walls.try_push(h).is_err() {
                    return false;
                }
                continue;
            }
            if (c == enemy && board.block(n) == x) || region.contains(&n) {
                continue;
            }
            if region.len() >= lt.min(MAX_REGION) || region.try_push(n).is_err() {
                return false;
            }
        }
    }
    let f = region.len();
    let mut s = 0;
    for &p in &region {
        if board.cell(p) == EMPTY && t_libs.contains(&p) {
            s += 1;
        }
    }
    let b = k.max(f - 1) + s;
    // Conditions 1 and 4.
    if s > 1 || lt < b + 1 || lt + a < b + escape {
        return false;
    }
    // Condition 2.
    let sturdy = |h: Point| board.libs(h) >= 2 * f;
    if !walls.iter().all(|&h| sturdy(h)) {
        return false;
    }
    // Conditions 1 and 3, point by point.
    let holds = region.iter().all(|&p| {
        let stone = board.cell(p) == enemy;
        let mut propped = false;
        let mut touches_t = false;
        for n in Board::neighbors(p) {
            if board.cell(n) == own {
                if board.block(n) == t {
                    touches_t = true;
                } else {
                    propped = true; // every wall is sturdy
                }
            }
        }
        if stone {
            propped && !touches_t
        } else {
            propped || touches_t
        }
    });
    if let Some(z) = zone.filter(|_| holds) {
        z.add_block(board, t);
        z.add_block(board, x);
        for &p in &region {
            z.insert(p);
        }
        for &h in &walls {
            z.add_block(board, h);
        }
    }
    holds
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::go::Color;

    /// A board from rows (top row first): `X` black, `O` white, `.` empty.
    fn board(rows: &[&str]) -> Board {
        let n = rows.len();
        let mut b = Board::new(n);
        for (r, line) in rows.iter().enumerate() {
            for (c, ch) in line.split_whitespace().enumerate() {
                let color = match ch {
                    "X" => Some(Color::Black),
                    "O" => Some(Color::White),
                    _ => None,
                };
                b.set_point(Board::point_at(c, n - 1 - r), color);
            }
        }
        b
    }

    /// Black's B5-B4-B3-A3 block (two liberties, A5 and A4) races white's
    /// C5-C4-C3 (one liberty, D5, where white cannot play): whatever white
    /// does, black takes the three stones and has 2 - 1 + 3 = 4 liberties.
    const RACE: [&str; 5] = [
        ". X O . X", //
        ". X O X .",
        "X X O X .",
        "O O X . .",
        ". . . . .",
    ];

    #[test]
    fn captured_block_gives_the_escape() {
        let b = board(&RACE);
        let t = Board::point_at(1, 4);
        assert_eq!(b.libs(t), 2);
        assert_eq!(b.libs(Board::point_at(2, 4)), 1);
        assert!(race_won(&b, t, 3));
        assert!(race_won(&b, t, 4));
        assert!(!race_won(&b, t, 5), "four liberties after the capture");
    }

    #[test]
    fn no_rule_when_the_block_can_extend_or_the_prop_is_weak() {
        let mut b = board(&RACE);
        let t = Board::point_at(1, 4);
        // Without E5, white can extend from D5 to E5.
        b.set_point(Board::point_at(4, 4), None);
        assert!(!race_won(&b, t, 4));
        // With E5 white, playing D5 joins another block.
        b.set_point(Board::point_at(4, 4), Some(Color::White));
        assert!(!race_won(&b, t, 4));
        // The black stone C2 touching white's block needs two liberties.
        let mut b = board(&RACE);
        b.set_point(Board::point_at(3, 1), Some(Color::White));
        assert_eq!(b.libs(Board::point_at(2, 1)), 1);
        assert!(!race_won(&b, t, 4));
    }
}

/// The rule against the exhaustive reference, which knows nothing of it:
/// on generated race problems where it holds with the attacker to move,
/// the attacker loses under every ko model.
#[cfg(test)]
mod reference_check {
    use crate::tactics::problems::{generate_race, race_rule_holds};
    use crate::tactics::Winner;

    #[test]
    fn the_reference_agrees_where_the_rule_holds() {
        let mut checked = 0;
        for (p, solutions) in generate_race(0x5EA1_2026, 300) {
            if p.mover() != Winner::Attacker || !race_rule_holds(&p) {
                continue;
            }
            checked += 1;
            for (model, (winner, _)) in p.ko_models().into_iter().zip(solutions) {
                assert_eq!(winner, Winner::Defender, "{}", p.describe(model));
            }
        }
        eprintln!("{checked} positions where the rule holds");
        assert!(checked >= 50, "{checked}");
    }
}
