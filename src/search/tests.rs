//! Tests of the player as a whole: NegaScout against a plain alpha-beta
//! reference, passing, capturing, eyes, legality on random positions and
//! determinism.

use super::eval::UNIT;
use super::movegen::{candidates, MoveList};
use super::*;
use crate::go::board::{NUM_POINTS, PASS};
use crate::go::{score, PlayError, Vertex};

const INF: i32 = negascout::INF;

/// Plain fail-hard alpha-beta over the same tree as the player's search:
/// the same candidates, the pass everywhere, a pass after a pass scored
/// exactly, positional superko over the game and the path.
struct Reference<'a> {
    komi: i32,
    history: &'a [u64],
    path: Vec<u64>,
}

impl Reference<'_> {
    fn terminal(&self, b: &Board, color: Color) -> i32 {
        let black = score::area_score(b, &[], 0.0) as i32 * UNIT - self.komi;
        if color == Color::Black {
            black
        } else {
            -black
        }
    }

    fn alphabeta(
        &mut self,
        b: &mut Board,
        mut alpha: i32,
        beta: i32,
        depth: i32,
        last: Point,
    ) -> i32 {
        let prev_pass = last == PASS;
        if depth == 0 {
            let mut leaf = quiesce::Leaf {
                komi: self.komi,
                status: None,
                nodes: 0,
            };
            return quiesce::leaf_value(&mut leaf, b, last);
        }
        let color = b.to_move();
        let mut list = MoveList::new();
        let mut mask = [false; NUM_POINTS];
        candidates(b, color, false, &mut mask, &mut list);
        let mut moves: Vec<Point> = list.iter().map(|m| m.p as Point).collect();
        moves.push(PASS);
        for p in moves {
            let v = if p == PASS && prev_pass {
                self.terminal(b, color)
            } else {
                let u = b.play(color, p);
                let h = b.hash();
                if p != PASS && (self.path.contains(&h) || self.history.contains(&h)) {
                    b.undo(&u);
                    continue;
                }
                if p != PASS {
                    self.path.push(h);
                }
                let v = -self.alphabeta(b, -beta, -alpha, depth - 1, p);
                if p != PASS {
                    self.path.pop();
                }
                b.undo(&u);
                v
            };
            if v >= beta {
                return beta;
            }
            alpha = alpha.max(v);
        }
        alpha
    }

    /// The exact root value at `depth` for `color` in `game`.
    fn root_value(game: &Game, color: Color, depth: i32) -> i32 {
        let mut b = game.board().clone();
        b.set_to_move(color);
        let mut r = Reference {
            komi: (game.komi() * UNIT as f64).round() as i32,
            history: game.position_hashes(),
            path: Vec::new(),
        };
        let prev_pass = game
            .moves()
            .last()
            .is_some_and(|m| m.mv == Move::Pass && m.color == color.opp());
        // Any point that holds no stone stands for a last move that was
        // not a pass.
        let last = if prev_pass {
            PASS
        } else {
            Board::point_at(0, 0) - 1
        };
        r.alphabeta(&mut b, -INF, INF, depth, last)
    }
}

fn v(s: &str) -> Move {
    let col = Vertex::col_from_letter(s.chars().next().unwrap()).unwrap();
    let row: u8 = s[1..].parse().unwrap();
    Move::Play(Vertex::new(col, row - 1))
}

fn game_from(size: usize, komi: f64, moves: &str) -> Game {
    let mut g = Game::new(size);
    g.set_komi(komi);
    let mut c = Color::Black;
    for m in moves.split_whitespace() {
        let mv = if m == "pass" { Move::Pass } else { v(m) };
        g.play(c, mv).unwrap();
        c = c.opp();
    }
    g
}

/// A game whose position is the diagram (see `testutil::board_from`).
pub(super) fn game_from_diagram(diagram: &str, komi: f64, to_move: Color) -> Game {
    let b = testutil::board_from(diagram);
    let mut g = Game::new(b.size());
    g.set_komi(komi);
    let stones: Vec<_> = b
        .points()
        .filter_map(|p| b.color_at(p).map(|c| (Some(c), Board::vertex(p))))
        .collect();
    g.setup(&stones);
    g.set_to_move(to_move);
    g
}

fn search(player: &mut Player, game: &Game, color: Color, limits: SearchLimits) -> SearchResult {
    player.genmove(game, color, &limits, &AtomicBool::new(false))
}

fn small_positions() -> [Game; 6] {
    [
        game_from(5, 0.5, ""),
        game_from(5, 0.5, "C3 B3 C2 B2"),
        game_from(5, 2.5, "C3 C2 B2 D2 D3 B1 B4"),
        game_from(5, 0.5, "B2 C3 D4 C2 B3 B4 pass"),
        game_from(7, 3.5, "D4 C5 E5 C3 C4"),
        game_from(7, 0.5, "C3 E5 D3 E4 E3 F3 C5 D5"),
    ]
}

#[test]
fn negascout_matches_alphabeta() {
    for (i, game) in small_positions().iter().enumerate() {
        let max_depth = if game.size() == 5 { 4 } else { 3 };
        for depth in 1..=max_depth {
            for color in [Color::Black, Color::White] {
                let mut player = Player::new(1);
                player.set_tt_enabled(false);
                player.set_exact_leaves(true);
                player.set_block_analysis(false);
                let r = search(&mut player, game, color, SearchLimits::depth(depth as u32));
                let reference = Reference::root_value(game, color, depth);
                assert_eq!(
                    r.value, reference,
                    "position {i}, depth {depth}, {color}: negascout {} vs alpha-beta {reference}",
                    r.value
                );
                assert_eq!(r.depth, depth as u32);
            }
        }
    }
}

#[test]
fn negascout_with_a_cleared_table_matches_alphabeta() {
    // With the table on, a transposition reached with more depth left than
    // needed could in principle answer with a deeper value; on these
    // positions none does, and the table's bounds must not change the value.
    for (i, game) in small_positions().iter().enumerate() {
        let max_depth = if game.size() == 5 { 4 } else { 3 };
        let mut player = Player::new(1);
        player.set_exact_leaves(true);
        for color in [Color::Black, Color::White] {
            player.new_game();
            let r = search(
                &mut player,
                game,
                color,
                SearchLimits::depth(max_depth as u32),
            );
            let reference = Reference::root_value(game, color, max_depth);
            assert_eq!(r.value, reference, "position {i}, {color}");
        }
    }
}

/// Black owns columns A-B, white C-E; both have two eyes (one of black's
/// is two points big, so filling one point of it is a legal candidate).
const SPLIT: &str = "
    .XOO.
    .XOOO
    XXOO.
    .XOOO
    XXOO.";

#[test]
fn passes_in_a_finished_position() {
    for color in [Color::Black, Color::White] {
        let game = game_from_diagram(SPLIT, 0.5, color);
        let mut player = Player::new(1);
        for depth in 1..=4 {
            let r = search(&mut player, &game, color, SearchLimits::depth(depth));
            assert_eq!(r.best, Move::Pass, "{color} at depth {depth}: {r:?}");
            assert!(!r.resign);
        }
    }
    // Also right after the opponent passed, where passing ends the game:
    // the value is then the exact score (white wins by 15 - 10 + 0.5).
    let mut game = game_from_diagram(SPLIT, 0.5, Color::White);
    game.play(Color::White, Move::Pass).unwrap();
    let mut player = Player::new(1);
    let r = search(&mut player, &game, Color::Black, SearchLimits::depth(3));
    assert_eq!(r.best, Move::Pass);
    assert_eq!(r.value, -550);
}

#[test]
fn captures_a_block_in_atari() {
    // White's three stones on row 4 cut black's area and have one liberty
    // left, E4; if black does not take them, white connects there. The rest
    // of the board is settled (white's right side has eyes black cannot
    // enter), so the capture is clearly the best move.
    let game = game_from_diagram(
        "
        ...XO.O
        ...XOOO
        .XXXO.O
        XOOO..O
        .XXXO.O
        ...XOOO
        ...XO.O",
        6.5,
        Color::Black,
    );
    let mut player = Player::new(4);
    for depth in 1..=5 {
        let r = search(&mut player, &game, Color::Black, SearchLimits::depth(depth));
        assert_eq!(r.best, v("E4"), "depth {depth}: {r:?}");
    }
}

#[test]
fn never_fills_its_own_true_eye() {
    // Black's only candidates besides the pass are its own eyes and
    // suicide points; white's eye-filling options likewise.
    let game = game_from_diagram(
        "
        .X.XO
        XXXXO
        OOOOO
        .O.O.
        O.O.O",
        0.5,
        Color::Black,
    );
    let mut player = Player::new(1);
    for color in [Color::Black, Color::White] {
        for depth in 1..=3 {
            let r = search(&mut player, &game, color, SearchLimits::depth(depth));
            if let Move::Play(vx) = r.best {
                let p = game.board().point(vx).unwrap();
                assert!(!is_true_eye(game.board(), color, p), "{color} filled {vx}");
            }
        }
    }
}

#[test]
fn random_positions_get_legal_moves() {
    let mut rng = crate::go::playout::Rng::new(0x9E37_79B9_7F4A_7C15);
    let mut player = Player::new(2);
    let mut played = 0;
    for i in 0..300 {
        let size = [5, 7, 9, 13][i % 4];
        let mut game = Game::new(size);
        game.set_komi(5.5);
        let len = rng.below(size * size * 2);
        let mut color = Color::Black;
        let mut legal = Vec::new();
        for _ in 0..len {
            legal.clear();
            for p in game.board().points() {
                if game.check_point(color, p).is_ok() && !is_true_eye(game.board(), color, p) {
                    legal.push(p);
                }
            }
            let p = if legal.is_empty() || rng.below(20) == 0 {
                PASS
            } else {
                legal[rng.below(legal.len())]
            };
            game.play(color, Board::to_move_value(p)).unwrap();
            color = color.opp();
        }
        // Ask for either colour: GTP allows it.
        let mover = if rng.below(4) == 0 {
            color.opp()
        } else {
            color
        };
        let limits = if i % 2 == 0 {
            SearchLimits::depth(2)
        } else {
            SearchLimits::nodes(400)
        };
        let r = search(&mut player, &game, mover, limits);
        assert!(
            game.check(mover, r.best).is_ok(),
            "illegal {} for {mover} in\n{:?}",
            r.best,
            game.board()
        );
        if let Move::Play(vx) = r.best {
            let p = game.board().point(vx).unwrap();
            assert!(!is_true_eye(game.board(), mover, p));
            played += 1;
        }
        assert_eq!(r.pv.first(), Some(&r.best).filter(|_| !r.pv.is_empty()));
    }
    assert!(played > 100, "only {played} non-pass moves");
}

#[test]
fn fixed_limits_are_deterministic() {
    let game = game_from(9, 7.5, "E5 C4 G4 D6 F6 C6 E3");
    for limits in [SearchLimits::depth(3), SearchLimits::nodes(5_000)] {
        let a = search(&mut Player::new(4), &game, Color::White, limits);
        let b = search(&mut Player::new(4), &game, Color::White, limits);
        let mut p = Player::new(4);
        search(&mut p, &game_from(9, 7.5, "E5"), Color::White, limits);
        p.new_game();
        let c = search(&mut p, &game, Color::White, limits);
        assert_eq!((a.best, a.nodes, a.value), (b.best, b.nodes, b.value));
        assert_eq!((a.best, a.nodes, a.value), (c.best, c.nodes, c.value));
        assert_eq!(a.pv, b.pv);
    }
}

#[test]
fn positional_superko_is_respected() {
    // Black takes a ko at C2, both pass (which lifts the simple-ko ban), and
    // white's retake at B2 would now recreate the position after white's B2:
    // legal under simple ko, illegal under positional superko. The retake
    // captures a stone, so a search that ignored superko would like it.
    let moves = "B3 C3 A2 D2 B1 C1 pass B2 C2 pass pass";
    let game = game_from(5, 0.5, moves);
    assert_eq!(game.check(Color::White, v("B2")), Err(PlayError::Superko));
    let mut player = Player::new(1);
    for depth in 1..=4 {
        let r = search(&mut player, &game, Color::White, SearchLimits::depth(depth));
        assert_ne!(r.best, v("B2"), "depth {depth}");
        assert!(game.check(Color::White, r.best).is_ok());
    }
    // Under simple ko the retake is allowed, and the search considers it.
    let mut simple = game_from(5, 0.5, moves);
    simple.set_ko_rule(KoRule::Simple);
    assert!(simple.check(Color::White, v("B2")).is_ok());
    let r = search(&mut player, &simple, Color::White, SearchLimits::depth(2));
    assert!(simple.check(Color::White, r.best).is_ok());
}

#[test]
fn resigns_only_when_hopeless_and_not_early() {
    // White has nothing; black owns the board, and white's only moves are
    // into black's two-point eye.
    let game = game_from_diagram(
        "
        ..X.X
        XXXXX
        .X.X.
        XXXXX
        .X.X.",
        0.5,
        Color::White,
    );
    let mut player = Player::new(1);
    player.set_resign_threshold(Some(10.0));
    // Set up positions count as no moves played: too early to resign.
    let r = search(&mut player, &game, Color::White, SearchLimits::depth(2));
    assert!(!r.resign);
    // After enough moves (passes here), resign.
    let mut late = game.clone();
    for _ in 0..5 {
        late.play(Color::White, Move::Pass).unwrap();
        late.play(Color::Black, Move::Pass).unwrap();
    }
    let r = search(&mut player, &late, Color::White, SearchLimits::depth(2));
    assert!(r.resign, "{r:?}");
    // Never with no threshold.
    player.set_resign_threshold(None);
    let r = search(&mut player, &late, Color::White, SearchLimits::depth(2));
    assert!(!r.resign);
}

#[test]
fn opening_stones_are_not_dead() {
    // Three stones on an open 9x9 board: nothing is settled, nothing dead.
    let game = game_from(9, 0.0, "C3 E5 pass G4");
    assert!(dead_stones(game.board()).is_empty());
}

/// An interrupt that arrives before depth 1 ends (here: before it starts)
/// still gets a legal move, and never the pass alone: the first move of
/// the static order. With the stop flag clear the same limits search.
#[test]
fn stop_during_depth_one_answers_a_move() {
    let mut player = Player::new(1);
    for game in small_positions() {
        let color = game.to_move();
        let stopped = player.genmove(
            &game,
            color,
            &SearchLimits::time(Duration::from_secs(60)),
            &AtomicBool::new(true),
        );
        assert_eq!(stopped.depth, 0);
        assert_ne!(stopped.best, Move::Pass, "{:?}", game.moves());
        let mut g = game.clone();
        assert!(g.play(color, stopped.best).is_ok(), "{:?}", stopped.best);
        assert_eq!(stopped.pv.first(), Some(&stopped.best));
        let searched = search(&mut player, &game, color, SearchLimits::depth(2));
        assert_eq!(searched.depth, 2);
    }
}

/// Clean-up mode: no pass while the opponent has dead stones; the normal
/// mode is unaffected once it is turned off again.
#[test]
fn cleanup_does_not_pass_with_dead_stones_left() {
    // Black's columns B and D are unconditionally alive; the white stone
    // at A3 lies in their territory. White has just passed.
    let game = game_from(
        5,
        0.0,
        "B1 A3 B2 pass B3 pass B4 pass B5 pass D1 pass D2 pass D3 pass D4 pass D5 pass",
    );
    assert!(dead_stones(game.board())
        .iter()
        .any(|&p| game.board().color_at(p) == Some(Color::White)));
    let mut player = Player::new(1);
    player.set_cleanup(true);
    for depth in 1..=3 {
        let r = search(&mut player, &game, Color::Black, SearchLimits::depth(depth));
        assert_ne!(r.best, Move::Pass, "depth {depth}");
        assert!(!r.resign);
    }
    player.set_cleanup(false);
    assert!(!player.cleanup);
}
