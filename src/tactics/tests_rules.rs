//! Tests of the capture game's rules (`rules`): captures, ko captures and
//! who may retake under each ko model, the two passes, undo, and the quiet
//! moves evaluated without playing them. A child module of `rules` (by
//! `#[path]`), so that it may look at the game's private path and filter.

use super::*;
use crate::go::board::PointList;

fn at(c: usize, r: usize) -> Point {
    Board::point_at(c, r)
}

/// White's lone B4 (5x5) in atari at C4, with white C3 next to C4 when
/// `closed` (black's capture at C4 is then a ko capture).
fn lone_target(closed: bool) -> Board {
    let mut b = Board::new(5);
    let stones = [
        (Color::Black, 1, 4),
        (Color::White, 2, 4),
        (Color::Black, 0, 3),
        (Color::White, 1, 3),
        (Color::White, 3, 3),
        (Color::Black, 1, 2),
        (Color::White, 2, 2),
    ];
    for &(c, col, row) in &stones[..if closed { 7 } else { 6 }] {
        b.play(c, at(col, row));
    }
    b
}

/// The ko capture of a lone target ends the line unless white is
/// favoured: then white may retake at once, and any other white move
/// leaves B4 captured.
#[test]
fn ko_capture_of_a_lone_target() {
    let b = lone_target(true);
    let problem = Problem::new(&b, at(1, 3)).unwrap();
    let (c4, d5, target) = (at(2, 3), at(3, 4), at(1, 3));
    for favoured in [None, Some(Color::Black), Some(Color::White)] {
        let mut g = CaptureGame::new(&b, problem, KoModel { favoured }, Color::Black);
        let retake = favoured == Some(Color::White);
        assert_eq!(g.capture_is_final(c4), !retake);
        assert_eq!(g.play(c4), Step::Played);
        assert_eq!(g.board().ko_point(Color::White), Some(target));
        assert_eq!(g.retake_pending(), retake);
        if !retake {
            assert_eq!(g.winner(), Some(Winner::Attacker));
            continue;
        }
        assert_eq!(g.winner(), None);
        assert_eq!(g.play(target), Step::Played, "the retake");
        assert_eq!(g.board().color_at(target), Some(Color::White));
        assert_eq!(g.winner(), None);
        g.undo();
        assert_eq!(g.play(d5), Step::Played, "a move elsewhere");
        assert!(!g.retake_pending());
        assert_eq!(g.winner(), Some(Winner::Attacker));
    }
    // Without white C3, black's C4 keeps a second liberty: no ko, and
    // the capture ends the line under every model.
    let b = lone_target(false);
    let white = KoModel {
        favoured: Some(Color::White),
    };
    let mut g = CaptureGame::new(&b, problem, white, Color::Black);
    assert!(g.capture_is_final(c4));
    assert_eq!(g.play(c4), Step::Played);
    assert_eq!(g.winner(), Some(Winner::Attacker));
}

/// White stone on B2 of a 3x3 board, black on A2: the attacker captures
/// in two moves, the defender escapes only if the threshold is low.
#[test]
fn capture_and_escape() {
    let mut b = Board::new(3);
    b.play(Color::White, at(1, 1));
    b.play(Color::Black, at(0, 1));
    let mut problem = Problem::new(&b, at(1, 1)).unwrap();
    assert_eq!(problem.attacker, Color::Black);
    let model = KoModel { favoured: None };
    let mut g = CaptureGame::new(&b, problem, model, Color::Black);
    assert_eq!(g.winner(), None);
    for p in [at(1, 0), at(2, 1)] {
        assert_eq!(g.play(p), Step::Played);
        assert_eq!(g.play(PASS), Step::Played);
    }
    assert_eq!(g.play(at(1, 2)), Step::Played);
    assert_eq!(g.winner(), Some(Winner::Attacker));
    assert_eq!(g.play(at(0, 0)), Step::Illegal, "no move after the end");
    problem.escape_libs = 3;
    let g = CaptureGame::new(&b, problem, model, Color::Black);
    assert_eq!(g.winner(), Some(Winner::Defender));
}

#[test]
fn two_passes_end_and_undo_restores() {
    let mut b = Board::new(5);
    b.play(Color::White, at(2, 2));
    let problem = Problem::new(&b, at(2, 2)).unwrap();
    let mut g = CaptureGame::new(&b, problem, KoModel { favoured: None }, Color::Black);
    let key = g.key();
    g.play(PASS);
    assert_eq!(g.winner(), None);
    g.play(PASS);
    assert_eq!(g.winner(), Some(Winner::Defender));
    g.undo();
    g.undo();
    assert_eq!(g.key(), key);
    let mut moves = PointList::new();
    g.moves(&mut moves);
    assert_eq!(moves.len(), 24 + 1);
}

/// `quiet` tells what playing the move tells: on random lines of the
/// capture game (small boards, so captures, kos and repetitions come
/// up), every move it calls quiet is played and compared.
#[test]
fn quiet_agrees_with_playing() {
    use crate::go::playout::Rng;
    let mut rng = Rng::new(0x5EED);
    let (mut quiet, mut cut, mut loud) = (0, 0, 0);
    let mut moves = PointList::new();
    for game_no in 0..300 {
        let size = 3 + game_no % 5;
        let mut b = Board::new(size);
        // A few random stones, then a target among them.
        for _ in 0..size * size / 3 {
            let p = Board::point_at(rng.below(size), rng.below(size));
            let c = if rng.below(2) == 0 {
                Color::Black
            } else {
                Color::White
            };
            if b.is_legal(c, p) {
                b.play(c, p);
            }
        }
        let stones: PointList = b.points().filter(|&p| !b.is_empty(p)).collect();
        if stones.is_empty() {
            continue;
        }
        let problem = Problem::new(&b, stones[rng.below(stones.len())]).unwrap();
        let favoured = [None, Some(Color::Black), Some(Color::White)][rng.below(3)];
        let to_move = if rng.below(2) == 0 {
            Color::Black
        } else {
            Color::White
        };
        let mut g = CaptureGame::new(&b, problem, KoModel { favoured }, to_move);
        for _ in 0..MAX_DEPTH {
            g.moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            let all: PointList = g.board().points().chain([PASS]).collect();
            for m in all {
                let Some(q) = g.quiet(m) else {
                    loud += moves.contains(&m) as u32;
                    continue;
                };
                assert!(moves.contains(&m), "a quiet move is legal");
                quiet += 1;
                let libs = g.board().libs(problem.target);
                assert_eq!(g.play(m), Step::Played);
                assert_eq!(q.key, g.key(), "key");
                assert_eq!(q.libs, g.board().libs(m).min(2), "liberties");
                assert_eq!(q.cut, g.last_was_cut(), "cut");
                cut += q.cut as u32;
                assert_eq!(g.board().libs(problem.target), libs, "target liberties");
                assert_eq!(g.board().ko_point(g.to_move()), None, "ko");
                g.undo();
            }
            // Prefer captures and passes now and then, so positions come
            // back and lines grow long.
            let pick = moves[rng.below(moves.len())];
            assert_eq!(g.play(pick), Step::Played);
        }
    }
    eprintln!("quiet {quiet}, of them cut {cut}, not quiet {loud}");
    assert!(quiet > 1000 && loud > 1000, "{quiet} {cut} {loud}");
}

/// `quiet` sees the cuts: the depth limit, and a state on the path.
#[test]
fn quiet_sees_cuts() {
    let mut b = Board::new(19);
    b.play(Color::White, at(0, 0));
    let problem = Problem::new(&b, at(0, 0)).unwrap();
    let mut g = CaptureGame::new(&b, problem, KoModel { favoured: None }, Color::White);
    // Black fills the board from the far corner, white passes: no two
    // passes in a row, the target keeps its two liberties.
    let mut far = b.points().collect::<PointList>();
    far.reverse();
    let mut far = far.into_iter();
    while g.depth() + 1 < MAX_DEPTH {
        let m = if g.to_move() == Color::Black {
            far.next().unwrap()
        } else {
            PASS
        };
        let q = g.quiet(m);
        assert_eq!(q.is_some(), m != PASS);
        assert_eq!(g.play(m), Step::Played);
        assert_eq!(
            q.map(|q| (q.key, q.cut)),
            (m != PASS).then(|| (g.key(), false))
        );
        assert_eq!(g.winner(), None);
    }
    // One move from the limit: the next move is cut.
    assert_eq!(g.to_move(), Color::Black);
    let m = far.next().unwrap();
    let q = g.quiet(m).unwrap();
    assert!(q.cut);
    assert_eq!(g.play(m), Step::Played);
    assert!(g.last_was_cut() && g.key() == q.key);
    g.undo();
    // Back to a short line: make the state after `m` look like one of
    // the path (keeping the filter in step), and `quiet` sees it.
    while g.depth() > 3 {
        g.undo();
    }
    let q = g.quiet(m).unwrap();
    assert!(!q.cut);
    let old = g.path[1].key;
    g.filter[filter_slot(old)] -= 1;
    g.path[1].key = q.key;
    g.filter[filter_slot(q.key)] += 1;
    // As many stones as that state has (one more than now).
    g.path_max = g.stones + 1;
    for f in &mut g.path[2..] {
        f.path_max = g.stones + 1;
    }
    assert!(g.quiet(m).unwrap().cut);
    assert_eq!(g.play(m), Step::Played);
    assert!(g.last_was_cut());
}

/// A ko: the unfavoured side may not retake at once, the favoured may.
#[test]
fn ko_model_decides_who_may_retake() {
    // . X O .
    // X O . O
    // . X O .
    let mut b = Board::new(4);
    for (c, r) in [(1, 3), (0, 2), (1, 1)] {
        b.set_point(at(c, r), Some(Color::Black));
    }
    for (c, r) in [(2, 3), (3, 2), (2, 1), (1, 2)] {
        b.set_point(at(c, r), Some(Color::White));
    }
    // Target: the white stone at C4 (col 2, row 3), black attacks.
    let problem = Problem::new(&b, at(2, 3)).unwrap();
    for (favoured, retake_ok) in [
        (None, false),
        (Some(Color::White), true),
        (Some(Color::Black), false),
    ] {
        let mut g = CaptureGame::new(&b, problem, KoModel { favoured }, Color::Black);
        assert_eq!(g.play(at(2, 2)), Step::Played, "black takes the ko");
        assert_eq!(
            g.is_legal(at(1, 2)),
            retake_ok,
            "white retake with {favoured:?}"
        );
    }
}
