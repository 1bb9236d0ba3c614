//! Tests of the Benson check of `life`: hand-built live and dead shapes,
//! the check against the whole-board algorithm, and its early ends
//! against its exploration run to the end. A
//! child module of `life` (by `#[path]`), so that it may reach the check's
//! internals.

use super::*;
use crate::go::Color;

/// A board from rows listed top first: `X` black, `O` white.
fn board(rows: &[&str]) -> Board {
    let n = rows.len();
    let mut b = Board::new(n);
    for (i, row) in rows.iter().enumerate() {
        for (col, ch) in row.chars().filter(|c| !c.is_whitespace()).enumerate() {
            let p = Board::point_at(col, n - 1 - i);
            match ch {
                'X' => b.set_point(p, Some(Color::Black)),
                'O' => b.set_point(p, Some(Color::White)),
                _ => {}
            }
        }
    }
    b
}

fn at(col: usize, row: usize) -> Point {
    Board::point_at(col, row)
}

impl Check<'_> {
    /// [`Check::fixed_point`] region by region, as it was written
    /// before the per-block masks: every test's check compares the
    /// two.
    pub(super) fn fixed_point_by_regions(&self, mut live: u32, checked: u32) -> (u32, u64) {
        let mut regions: u64 = (1u64 << self.regions.len()) - 1;
        loop {
            let mut changed = false;
            for (i, r) in self.regions.iter().enumerate() {
                if regions & (1u64 << i) != 0 && r.border & !live != 0 {
                    regions &= !(1u64 << i);
                    changed = true;
                }
            }
            for bi in 0..self.blocks.len() {
                if live & checked & (1 << bi) == 0 {
                    continue;
                }
                let vital = self
                    .regions
                    .iter()
                    .enumerate()
                    .filter(|(i, r)| regions & (1u64 << i) != 0 && r.vital & (1 << bi) != 0)
                    .count();
                if vital < 2 {
                    live &= !(1 << bi);
                    changed = true;
                }
            }
            if !changed {
                return (live, regions);
            }
        }
    }
}

#[test]
fn two_eyes_live_one_does_not() {
    let b = board(&[
        ". X . X O", //
        "X X X X O",
        "O O O O O",
        ". . . . .",
        ". . . . .",
    ]);
    let mut z = Zone::new();
    assert!(target_lives(&b, at(0, 3), Some(&mut z)));
    // The stones, the eyes; not the white wall.
    assert!(z.contains(at(0, 4)) && z.contains(at(2, 4)) && z.contains(at(3, 3)));
    assert!(!z.contains(at(4, 4)) && !z.contains(at(0, 2)));
    // One eye filled: one region left.
    let b = board(&[
        ". X X X O", //
        "X X X X O",
        "O O O O O",
        ". . . . .",
        ". . . . .",
    ]);
    assert!(!target_lives(&b, at(0, 3), None));
}

#[test]
fn eyes_shared_between_blocks() {
    // Two black blocks share both eyes: each has two vital regions.
    let b = board(&[
        "X . X O .", //
        "X X . X O",
        "O X X X O",
        "O O O O O",
        ". . . . .",
    ]);
    assert!(target_lives(&b, at(0, 4), None));
    assert!(target_lives(&b, at(2, 4), None));
}

#[test]
fn big_eye_and_false_eye_are_not_life() {
    // A three-point eye is one region.
    let b = board(&[
        ". . . X O", //
        "X X X X O",
        "O O O O O",
        ". . . . .",
        ". . . . .",
    ]);
    assert!(!target_lives(&b, at(0, 3), None));
    // The second eye touches a black stone in atari: it falls, and
    // the eye with it.
    let b = board(&[
        ". X . X O", //
        "X X O . X",
        "O O O X O",
        ". . . O .",
        ". . . . .",
    ]);
    assert!(!target_lives(&b, at(0, 3), None));
}

#[test]
fn dead_enemy_stones_inside_an_eye() {
    let b = board(&[
        "O . X . X", //
        "X X X X X",
        "O O O O O",
        ". . . . .",
        ". . . . .",
    ]);
    // The white stone at A5 has A5's region {A5, B5}: vital, its one
    // empty point a liberty of the black block.
    assert!(target_lives(&b, at(2, 4), None));
}

/// A position of random legal moves on a `size` board, none filling a
/// true eye, until `tenths` tenths of the points hold stones (or no move
/// is left but passes).
fn random_position(rng: &mut crate::go::playout::Rng, size: usize, tenths: usize) -> Board {
    let mut b = Board::new(size);
    let mut legal = crate::go::board::PointList::new();
    let stones = size * size * tenths / 10;
    for _ in 0..4 * size * size {
        let [x, o] = b.stone_counts();
        if x + o >= stones {
            break;
        }
        let c = b.to_move();
        b.legal_moves(c, &mut legal);
        legal.retain(|p| !crate::go::playout::is_true_eye(&b, c, *p));
        let p = if legal.is_empty() {
            crate::go::board::PASS
        } else {
            legal[rng.below(legal.len())]
        };
        b.play(c, p);
    }
    b
}

/// The early ends of the exploration change no verdict, on boards of
/// every size where the caps are reached too (large groups, many
/// regions): the same answer as the exploration run to its end.
#[test]
fn early_ends_are_exact() {
    use crate::go::playout::Rng;
    let mut rng = Rng::new(0xEA_41E5);
    let (mut alive, mut checked) = (0, 0);
    for _ in 0..1500 {
        let size = [5, 7, 9, 13, 19][rng.below(5)];
        let tenths = 4 + rng.below(6);
        let b = random_position(&mut rng, size, tenths);
        for p in b.points() {
            if b.color_at(p).is_none() || b.block(p) != p {
                continue;
            }
            checked += 1;
            let lives = target_lives(&b, p, None);
            assert_eq!(
                lives,
                target_lives_unpruned(&b, p),
                "{b:?} block {}",
                Board::vertex(p)
            );
            alive += usize::from(lives);
        }
    }
    eprintln!("{checked} blocks, {alive} alive");
    assert!(alive > 100, "{alive} of {checked}");
}

/// Agrees with the whole-board Benson of the player's evaluation
/// wherever the local caps are not reached (small boards).
#[test]
fn agrees_with_the_whole_board_algorithm() {
    use crate::go::playout::Rng;
    use crate::search::benson::unconditional_life;
    let mut rng = Rng::new(0xB3_5011);
    let (mut alive, mut checked) = (0, 0);
    for _ in 0..3000 {
        let size = 4 + rng.below(4);
        let tenths = 5 + rng.below(4);
        let b = random_position(&mut rng, size, tenths);
        for c in [Color::Black, Color::White] {
            let life = unconditional_life(&b, c);
            for p in b.points() {
                if b.color_at(p) != Some(c) || b.block(p) != p {
                    continue;
                }
                checked += 1;
                let mut z = Zone::new();
                let local = target_lives(&b, p, Some(&mut z));
                assert_eq!(local, life.alive[p], "{b:?} block {}", Board::vertex(p));
                if local {
                    alive += 1;
                    assert!(z.contains(p));
                }
            }
        }
    }
    eprintln!("{checked} blocks, {alive} alive");
    assert!(alive > 100, "{alive} of {checked}");
}
