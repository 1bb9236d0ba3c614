//! Randomised checks of the incremental board against recomputation.

use super::board::*;
use super::color::Color;
use super::playout::Rng;

fn random_game(size: usize, seed: u64, moves: usize, check_every: usize) {
    let mut rng = Rng::new(seed);
    let mut b = Board::new(size);
    let mut undos = Vec::new();
    let mut snapshots = Vec::new();
    let mut legal = PointList::new();
    let mut color = Color::Black;
    for i in 0..moves {
        b.legal_moves(color, &mut legal);
        let p = if legal.is_empty() || rng.below(30) == 0 {
            PASS
        } else {
            legal[rng.below(legal.len())]
        };
        snapshots.push((b.clone(), format!("{b:?}")));
        undos.push(b.play(color, p));
        if i % check_every == 0 {
            b.assert_consistent();
        }
        // Sometimes take a few moves back and check we return exactly.
        if rng.below(10) == 0 {
            for _ in 0..rng.below(4).min(undos.len()) {
                let u = undos.pop().unwrap();
                b.undo(&u);
                let (snap, text) = snapshots.pop().unwrap();
                assert_eq!(format!("{b:?}"), text);
                assert_eq!(b.hash(), snap.hash());
                assert_eq!(b.to_move(), snap.to_move());
                for q in b.points() {
                    if b.color_at(q).is_some() {
                        assert_eq!(b.libs(q), snap.libs(q));
                        assert_eq!(b.block_size(q), snap.block_size(q));
                    }
                }
                b.assert_consistent();
            }
        }
        color = b.to_move();
    }
    while let Some(u) = undos.pop() {
        b.undo(&u);
    }
    b.assert_consistent();
    assert_eq!(b.stone_counts(), [0, 0]);
    assert_eq!(b.hash(), 0);
}

#[test]
fn random_games_stay_consistent() {
    for seed in 1..40 {
        random_game(5, seed, 300, 1);
        random_game(9, seed * 7919, 300, 3);
    }
    random_game(19, 42, 1500, 25);
    random_game(25, 43, 2000, 50);
}

#[test]
fn simple_ko_is_detected() {
    // . X O .
    // X O . O
    // . X O .
    let mut b = Board::new(5);
    let at = |c, r| Board::point_at(c, r);
    for &(c, r) in &[(1, 2), (0, 1), (1, 0)] {
        b.play(Color::Black, at(c, r));
        b.play(Color::White, PASS);
    }
    b.set_to_move(Color::White);
    for &(c, r) in &[(2, 2), (3, 1), (2, 0), (1, 1)] {
        b.play(Color::White, at(c, r));
        b.play(Color::Black, PASS);
    }
    b.set_to_move(Color::Black);
    // Black captures at (2,1).
    assert!(b.is_legal(Color::Black, at(2, 1)));
    let u = b.play(Color::Black, at(2, 1));
    assert_eq!(b.prisoners(Color::Black), 1);
    assert_eq!(b.check(Color::White, at(1, 1)), Err(Illegal::Ko));
    b.undo(&u);
    assert_eq!(b.color_at(at(1, 1)), Some(Color::White));
    b.assert_consistent();
}

#[test]
fn suicide_is_illegal_but_capture_is_not() {
    let mut b = Board::new(3);
    let at = |c, r| Board::point_at(c, r);
    b.play(Color::Black, at(1, 0));
    b.play(Color::Black, at(0, 1));
    assert_eq!(b.check(Color::White, at(0, 0)), Err(Illegal::Suicide));
    assert!(b.is_legal(Color::Black, at(0, 0)));
    assert_eq!(b.check(Color::White, at(1, 0)), Err(Illegal::Occupied));
}

/// `after_stone` tells what playing the stone tells: on random positions,
/// every empty point is tried for both colours and compared with playing.
#[test]
fn after_stone_agrees_with_playing() {
    let mut rng = Rng::new(0xAF7E);
    let (mut checked, mut joins) = (0, 0);
    for game in 0..200 {
        let size = 4 + game % 6;
        let mut b = Board::new(size);
        let mut legal = PointList::new();
        let mut color = Color::Black;
        for _ in 0..size * size {
            b.legal_moves(color, &mut legal);
            if !legal.is_empty() {
                b.play(color, legal[rng.below(legal.len())]);
            }
            color = color.opp();
        }
        let points: PointList = b.points().filter(|&p| b.is_empty(p)).collect();
        for p in points {
            for c in [Color::Black, Color::White] {
                let predicted = b.after_stone(c, p);
                assert_eq!(predicted.is_none(), b.captures_something(c, p));
                assert_eq!(
                    b.is_quiet_legal(c, p),
                    predicted.is_some_and(|(libs, _)| libs > 0),
                    "quiet and legal"
                );
                let Some((libs, stones)) = predicted else {
                    continue;
                };
                assert_eq!(libs == 0, b.is_suicide(c, p));
                if libs == 0 {
                    continue;
                }
                let own = Board::neighbors(p)
                    .iter()
                    .filter(|&&n| b.color_at(n) == Some(c))
                    .map(|&n| b.block(n))
                    .collect::<std::collections::BTreeSet<_>>();
                joins += (own.len() > 1) as u32;
                let u = b.play(c, p);
                assert_eq!((b.libs(p), b.block_size(p)), (libs, stones), "{b:?}");
                b.undo(&u);
                checked += 1;
            }
        }
        b.assert_consistent();
    }
    assert!(checked > 1000 && joins > 100, "{checked} {joins}");
}

#[test]
fn stone_walk_stops_when_asked() {
    let at = Board::point_at;
    let mut b = Board::new(5);
    for col in 0..4 {
        b.play(Color::Black, at(col, 2));
    }
    let mut all = Vec::new();
    b.for_each_stone(at(0, 2), |q| all.push(q));
    assert_eq!(all.len(), 4);
    let mut seen = Vec::new();
    b.for_each_stone_while(at(0, 2), |q| {
        seen.push(q);
        seen.len() < 2
    });
    assert_eq!(seen, all[..2], "stops after the first false");
    let mut every = Vec::new();
    b.for_each_stone_while(at(0, 2), |q| {
        every.push(q);
        true
    });
    assert_eq!(every, all, "walks the whole block otherwise");
}
