//! Proves that the Monte-Carlo ownership of `final_status_list` plays its
//! random games without touching the heap, on 9×9 and 19×19 positions
//! partly filled by random moves.

mod common;

use common::alloc::{count_allocations, CountingAlloc};
use tesuji::go::board::Board;
use tesuji::go::playout::{random_move, Rng};
use tesuji::search::ownership::Ownership;

#[global_allocator]
static ALLOC: CountingAlloc = CountingAlloc;

#[test]
fn ownership_games_never_allocate() {
    for size in [9, 19] {
        let mut board = Board::new(size);
        let mut rng = Rng::new(7);
        for _ in 0..size * size / 3 {
            let color = board.to_move();
            let p = random_move(&board, color, &mut rng, |_, _| false);
            board.play(color, p);
        }
        let mut own = None;
        let allocations = count_allocations(|| own = Some(Ownership::estimate(&board, 200)));
        let own = own.expect("estimated");
        let owned: u32 = board
            .points()
            .map(|p| {
                own.owned(p, tesuji::go::Color::Black) + own.owned(p, tesuji::go::Color::White)
            })
            .sum();
        eprintln!("alloc: {size}x{size}: 200 ownership games, {allocations} allocations");
        assert!(
            owned > 200 * (size * size) as u32 / 2,
            "games too short to mean anything"
        );
        assert_eq!(allocations, 0);
    }
}
