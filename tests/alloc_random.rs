//! The random player allocates nothing per move: a counting global
//! allocator watches `RandomPlayer::go_move` over whole random games
//! (the moves are played outside the counted closure, by `Game::play`,
//! whose history is not the player's concern).

mod common;

use common::alloc::{counted, CountingAlloc};
use tesuji::go::{Color, Game};
use tesuji::search::random::RandomPlayer;

#[global_allocator]
static GLOBAL: CountingAlloc = CountingAlloc;

#[test]
fn random_moves_do_not_allocate() {
    let (v, n) = counted(|| vec![1u8; 3]);
    assert_eq!((v.len(), n), (3, 1));
    for size in [5, 9, 19] {
        let mut game = Game::new(size);
        let mut player = RandomPlayer::new(size as u64);
        let mut color = Color::Black;
        let mut moves = 0;
        while !game.two_passes() && moves < 2000 {
            let (mv, allocations) = counted(|| player.go_move(&game, color));
            assert_eq!(allocations, 0, "{size}x{size}, move {moves}");
            game.play(color, mv).unwrap();
            color = color.opp();
            moves += 1;
        }
        assert!(moves > size * size / 2, "{size}: {moves}");
    }
}
