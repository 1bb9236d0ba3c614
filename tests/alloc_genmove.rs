//! The search must not touch the heap once the player exists: a counting
//! global allocator watches whole `Player::search` and `Player::genmove`
//! calls on 5×5, 9×9 and 19×19 under depth, node and time limits (the
//! quiescence search, the evaluation and the Monte-Carlo leaf estimate
//! included), and the evaluation on its own.
//!
//! Only allocations made by the measuring thread while its flag is set are
//! counted, so the test harness's own threads cannot disturb the count.

mod common;

use common::alloc::{counted, CountingAlloc};
use std::sync::atomic::AtomicBool;
use std::time::Duration;
use tesuji::go::{Color, Game, Move, Vertex};
use tesuji::search::{Player, SearchLimits};

#[global_allocator]
static GLOBAL: CountingAlloc = CountingAlloc;

fn game(size: usize, moves: &str) -> Game {
    let mut g = Game::new(size);
    g.set_komi(7.5);
    let mut c = Color::Black;
    for m in moves.split_whitespace() {
        let mv = if m == "pass" {
            Move::Pass
        } else {
            let col = Vertex::col_from_letter(m.chars().next().unwrap()).unwrap();
            let row: u8 = m[1..].parse().unwrap();
            Move::Play(Vertex::new(col, row - 1))
        };
        g.play(c, mv).unwrap();
        c = c.opp();
    }
    g
}

#[test]
fn search_does_not_allocate() {
    let games = [
        game(9, ""),
        game(9, "E5 E4 D4 D3 F4 E3 F3 C4 D5 F2 G2 C5 C6 B6"),
        // A ko just taken and a pass: superko checks and the pass-ends-game
        // rule are both exercised.
        game(5, "B3 C3 A2 D2 B1 C1 pass B2 C2 pass"),
        game(19, "Q16 D4 Q3 D16 R5 C10"),
    ];
    // The counter itself works.
    let (v, n) = counted(|| vec![7u8; 10]);
    assert_eq!((v.len(), n), (10, 1));
    let stop = AtomicBool::new(false);
    let mut player = Player::new(8);
    player.set_resign_threshold(Some(30.0));
    for g in &games {
        let color = g.to_move();
        let depth = if g.size() == 19 { 2 } else { 3 };
        for limits in [
            SearchLimits::depth(depth),
            SearchLimits::nodes(3_000),
            SearchLimits {
                time: Some(Duration::from_millis(100)),
                hard_time: Some(Duration::from_millis(300)),
                max_depth: Some(depth + 1),
                max_nodes: None,
            },
        ] {
            let (info, n) = counted(|| player.genmove(g, color, &limits, &stop));
            assert_eq!(n, 0, "genmove allocated {n} times ({info:?})");
            assert!(info.nodes > 0);
        }
        // Asking for the other colour takes the same path.
        let (_, n) = counted(|| player.genmove(g, color.opp(), &SearchLimits::depth(2), &stop));
        assert_eq!(n, 0);
        // The whole of genmove, principal variation included.
        let (r, n) = counted(|| player.genmove(g, color, &SearchLimits::depth(2), &stop));
        assert_eq!(n, 0, "genmove allocated {n} times");
        assert!(!r.pv.is_empty());
        player.new_game();
    }
    // The Monte-Carlo leaf estimate plays its random games on a scratch
    // board inside the player.
    player.set_monte_carlo(4);
    for g in &games {
        let (r, n) = counted(|| player.genmove(g, g.to_move(), &SearchLimits::depth(2), &stop));
        assert_eq!(n, 0, "genmove with playouts allocated {n} times");
        assert!(r.nodes > 0);
        player.new_game();
    }
}

/// The evaluation on its own (Bouzy's maps, the weak-group step, Benson):
/// the quiescence search below the leaves calls it at every node.
#[test]
fn evaluation_does_not_allocate() {
    let g = game(9, "E5 E4 D4 D3 F4 E3 F3 C4 D5 F2 G2 C5 C6 B6 B5 A5");
    let board = g.board().clone();
    let mut own = [0i8; tesuji::go::board::NUM_POINTS];
    let (v, n) = counted(|| {
        let v = tesuji::search::eval::evaluate(&board, 700);
        tesuji::search::eval::ownership_estimate(&board, Color::White, &mut own);
        v
    });
    assert_eq!(n, 0, "evaluate allocated {n} times");
    assert!(v.abs() < 81 * tesuji::search::eval::UNIT + 700);
}

#[test]
fn monte_carlo_tree_search_does_not_allocate_after_its_first_move() {
    let stop = AtomicBool::new(false);
    let mut player = Player::new(1);
    player.set_mcts(true);
    player.set_resign_threshold(Some(30.0));
    let g = game(9, "E5 E4 D4 D3 F4 E3 F3 C4 D5 F2 G2 C5 C6 B6");
    // The first move makes the tree's pool.
    let (_, n) = counted(|| player.genmove(&g, Color::Black, &SearchLimits::nodes(64), &stop));
    assert!(n > 0);
    for g in [game(9, ""), g, game(5, "B3 C3 A2 D2 B1 C1 pass B2 C2 pass")] {
        let color = g.to_move();
        for limits in [
            SearchLimits::nodes(3_000),
            SearchLimits::time(Duration::from_millis(100)),
        ] {
            let (r, n) = counted(|| player.genmove(&g, color, &limits, &stop));
            assert_eq!(n, 0, "mcts genmove allocated {n} times ({r:?})");
            assert!(r.nodes >= 64 && !r.pv.is_empty());
        }
    }
}
