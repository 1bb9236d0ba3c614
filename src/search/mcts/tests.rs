use super::*;
use crate::search::tests::game_from_diagram;
use crate::search::Player;

fn games(n: u64) -> SearchLimits {
    SearchLimits::nodes(n)
}

fn mcts_move(game: &Game, color: Color, limits: &SearchLimits) -> SearchResult {
    let mut m = Mcts::default();
    m.genmove(game, color, limits, None, &AtomicBool::new(false))
}

/// Three black stones in atari at F4: white captures them there, black
/// saves them there and joins its wall through F5.
const ATARI: &str = "
    .......
    XXXXXXX
    ..OOO..
    .OXXX..
    ..OOO..
    .......
    .......";

#[test]
fn captures_and_saves_a_block_in_atari() {
    let g = game_from_diagram(ATARI, 0.0, Color::White);
    let r = mcts_move(&g, Color::White, &games(1000));
    assert_eq!(r.best.to_string(), "F4", "{r:?}");
    assert_eq!(r.pv.first(), Some(&r.best));
    assert_eq!(r.nodes, 1024);
    // With the three stones captured white owns two thirds of the board.
    assert!(r.value > 5 * UNIT, "{}", r.value);
    let r = mcts_move(&g, Color::Black, &games(1000));
    assert_eq!(r.best.to_string(), "F4", "{r:?}");
}

#[test]
fn a_game_budget_gives_the_same_move_and_line_every_time() {
    let g = game_from_diagram(ATARI, 7.0, Color::White);
    let a = mcts_move(&g, Color::White, &games(500));
    let mut m = Mcts::default();
    let stop = AtomicBool::new(false);
    // The same player twice: a kept tree must not leak into the next move.
    let _ = m.genmove(&g, Color::Black, &games(300), None, &stop);
    let b = m.genmove(&g, Color::White, &games(500), None, &stop);
    assert_eq!((a.best, a.value, a.nodes), (b.best, b.value, b.nodes));
    assert_eq!(a.pv, b.pv);
}

#[test]
fn the_games_below_the_moves_played_count_for_the_next_move() {
    let g0 = Game::new(9);
    let mut g = g0.clone();
    let mut m = Mcts::default();
    let stop = AtomicBool::new(false);
    let root_games = |m: &Mcts| m.tree.as_ref().unwrap().root_games();
    let first = m.genmove(&g, Color::Black, &games(2000), None, &stop);
    assert_eq!(root_games(&m), 2048);
    g.play(Color::Black, first.best).unwrap();
    // The answer the tree expected most, so its node has many games.
    let answer = first.pv[1];
    g.play(Color::White, answer).unwrap();
    let r = m.genmove(&g, Color::Black, &games(64), None, &stop);
    assert_eq!(r.nodes, 64);
    let kept = root_games(&m) - 64;
    // 2,048 games on an empty board spread over some 80 moves and as many
    // answers to each: a few of them were played below the answer.
    assert!(kept > 0 && kept < 2048, "{kept} games kept");
    // The same two moves after another opening: the board differs, so
    // the tree starts afresh and gives what a new player gives.
    let corners =
        [(0, 0), (8, 8), (0, 8), (8, 0)].map(|(x, y)| Board::to_move_value(Board::point_at(x, y)));
    let mut others = corners.iter().filter(|&&c| c != first.best && c != answer);
    let mut h = Game::new(9);
    h.play(Color::Black, *others.next().unwrap()).unwrap();
    h.play(Color::White, *others.next().unwrap()).unwrap();
    h.play(Color::Black, first.best).unwrap();
    h.play(Color::White, answer).unwrap();
    let mut m = Mcts::default();
    m.genmove(&g0, Color::Black, &games(2000), None, &stop);
    let again = m.genmove(&h, Color::Black, &games(500), None, &stop);
    assert_eq!(root_games(&m), 512);
    let fresh = mcts_move(&h, Color::Black, &games(500));
    assert_eq!(
        (again.best, again.value, again.pv),
        (fresh.best, fresh.value, fresh.pv)
    );
}

#[test]
fn a_stop_ends_the_search_after_one_batch_with_a_legal_move() {
    let g = Game::new(9);
    let stop = AtomicBool::new(true);
    let mut m = Mcts::default();
    let r = m.genmove(&g, Color::Black, &SearchLimits::default(), None, &stop);
    assert_eq!(r.nodes, u64::from(BATCH));
    match r.best {
        Move::Play(_) => assert!(g.check(Color::Black, r.best).is_ok()),
        Move::Pass => panic!("passed on an empty board"),
    }
}

#[test]
fn never_fills_its_own_eye_and_passes_when_nothing_is_left() {
    // Black's two true eyes are all that is empty; filling one would be
    // the only move, so black passes.
    let g = game_from_diagram(
        "
        XXXXX
        X.X.X
        XXXXX
        XXXXX
        XXXXX",
        0.0,
        Color::Black,
    );
    let r = mcts_move(&g, Color::Black, &games(100));
    assert_eq!(r.best, Move::Pass);
}

#[test]
fn resigns_a_lost_game_only_with_a_threshold_and_late_enough() {
    // White has nothing: black owns the whole 7×7 board.
    let mut g = game_from_diagram(
        "
        .X.X.X.
        XXXXXXX
        .......
        .......
        XXXXXXX
        .X.X.X.
        .......",
        0.0,
        Color::White,
    );
    let stop = AtomicBool::new(false);
    let mut m = Mcts::default();
    let early = m.genmove(&g, Color::White, &games(1000), Some(20.0), &stop);
    assert!(!early.resign, "resigned before move 14");
    for _ in 0..7 {
        g.play(Color::Black, Move::Pass).unwrap();
        g.play(Color::White, Move::Pass).unwrap();
    }
    g.set_to_move(Color::White);
    let r = m.genmove(&g, Color::White, &games(1000), Some(20.0), &stop);
    assert!(r.value < -20 * UNIT, "{}", r.value);
    assert!(r.resign);
    let r = m.genmove(&g, Color::White, &games(1000), None, &stop);
    assert!(!r.resign);
}

#[test]
fn the_player_switches_between_mcts_and_negascout() {
    let g = game_from_diagram(ATARI, 0.0, Color::Black);
    let mut p = Player::new(1);
    let stop = AtomicBool::new(false);
    p.set_mcts(true);
    let r = p.genmove(&g, Color::Black, &games(256), &stop);
    assert_eq!(r.nodes, 256);
    p.set_mcts(false);
    let r = p.genmove(&g, Color::Black, &SearchLimits::depth(1), &stop);
    assert_eq!(r.depth, 1);
    assert_ne!(r.nodes, 256);
}
