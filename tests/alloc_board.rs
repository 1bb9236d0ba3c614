//! Proves that play, undo and legal-move generation never touch the heap:
//! a counting global allocator watches ≥ 10,000 random playouts with undo on
//! 9×9 and on 19×19.

mod common;

use arrayvec::ArrayVec;
use common::alloc::{count_allocations, CountingAlloc};
use tesuji::go::board::{Board, PointList};
use tesuji::go::playout::{playout, unwind, Rng, MAX_PLAYOUT};
use tesuji::go::Color;

#[global_allocator]
static ALLOC: CountingAlloc = CountingAlloc;

fn playouts(size: usize, games: usize) -> (usize, u64) {
    let mut board = Board::new(size);
    let mut rng = Rng::new(size as u64 * 1_000_003);
    let mut undos: ArrayVec<_, MAX_PLAYOUT> = ArrayVec::new();
    let mut legal = PointList::new();
    let empty_hash = board.hash();
    let mut moves = 0;
    let allocations = count_allocations(|| {
        for _ in 0..games {
            moves += playout(&mut board, &mut rng, &mut undos);
            board.legal_moves(Color::Black, &mut legal);
            unwind(&mut board, &mut undos);
        }
    });
    assert_eq!(
        board.hash(),
        empty_hash,
        "undo did not restore the empty board"
    );
    assert_eq!(board.stone_counts(), [0, 0]);
    (moves, allocations)
}

#[test]
fn playouts_with_undo_never_allocate() {
    for (size, games) in [(9, 10_000), (19, 10_000)] {
        let (moves, allocations) = playouts(size, games);
        eprintln!("alloc: {size}x{size}: {games} playouts, {moves} moves played and undone, {allocations} allocations");
        assert!(
            moves > games * size * size / 2,
            "playouts too short to mean anything"
        );
        assert_eq!(allocations, 0);
    }
}

#[test]
fn the_counter_sees_allocations() {
    let n = count_allocations(|| {
        let v = std::hint::black_box(vec![1u8; 100]);
        drop(v);
    });
    assert!(n >= 1, "counting allocator is not installed");
}
