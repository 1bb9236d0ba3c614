//! Perft for every game: the number of move sequences of a given length
//! from the start position, counted by full-width move generation with
//! play and undo. It checks the games against a published count
//! (tic-tac-toe has 255,168 possible games) and against themselves, and
//! prints nodes per second:
//!
//! `cargo test --release --test games_perft -- --nocapture`
//!
//! Timings are printed, never asserted.

use std::time::Instant;
use tesuji::games::domineering::Domineering;
use tesuji::games::go::GoGame;
use tesuji::games::mnk::Mnk;
use tesuji::games::nogo::NoGo;
use tesuji::games::{Game, MoveList};

/// Leaves at `depth` plies, finished games counting as leaves where they
/// end; `nodes` counts every position visited.
fn perft<G: Game>(g: &mut G, depth: u32, nodes: &mut u64) -> u64 {
    *nodes += 1;
    if depth == 0 || g.outcome().is_some() {
        return 1;
    }
    let mut list = MoveList::new();
    g.moves(&mut list);
    let mut leaves = 0;
    for &m in &list {
        let u = g.play(m);
        leaves += perft(g, depth - 1, nodes);
        g.undo(m, u);
    }
    leaves
}

fn measure<G: Game>(mut g: G, depth: u32) -> u64 {
    let start = Instant::now();
    let mut nodes = 0;
    let leaves = perft(&mut g, depth, &mut nodes);
    let secs = start.elapsed().as_secs_f64();
    eprintln!(
        "perft {} depth {depth}: {leaves} leaves, {nodes} nodes in {:.3} s, {:.2} M nodes/s",
        g.spec(),
        secs,
        nodes as f64 / secs.max(1e-9) / 1e6
    );
    leaves
}

#[test]
fn tic_tac_toe_has_255168_games() {
    assert_eq!(measure(Mnk::new(3, 3, 3, false), 9), 255_168);
}

#[test]
fn perft_speed_of_every_game() {
    // An empty 5×5 board has 25 · 24 · 23 sequences of three stones and no
    // line of four can be finished in four plies.
    assert_eq!(measure(Mnk::new(5, 5, 4, false), 3), 25 * 24 * 23);
    measure(Mnk::new(15, 15, 5, false), 3);
    // Domineering 8×8: Black has 7·8 = 56 vertical moves at the start.
    assert_eq!(measure(Domineering::new(8, 8), 1), 56);
    measure(Domineering::new(8, 8), 4);
    assert_eq!(measure(NoGo::new(5, 5), 1), 25);
    measure(NoGo::new(5, 5), 5);
    measure(NoGo::new(22, 1), 5);
    // Go 9×9: 81 points and the pass.
    assert_eq!(measure(GoGame::new(9, 15), 1), 82);
    measure(GoGame::new(9, 15), 3);
}
