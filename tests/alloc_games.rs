//! Proves that every game's hot paths never touch the heap after setup:
//! move generation, mobility, outcome, key, evaluation, play and undo, over
//! seeded random playouts of Domineering, NoGo, m,n,k and Go, watched by a
//! counting global allocator.

mod common;

use arrayvec::ArrayVec;
use common::alloc::{count_allocations, CountingAlloc};
use tesuji::games::domineering::Domineering;
use tesuji::games::go::GoGame;
use tesuji::games::mnk::Mnk;
use tesuji::games::nogo::NoGo;
use tesuji::games::{Game, MoveList};

#[global_allocator]
static ALLOC: CountingAlloc = CountingAlloc;

/// Longest playout kept on the undo stack (Go's may be longer; they are
/// cut there).
const MAX_PLY: usize = 400;

/// Random playouts from `start`, each undone to the start; returns the
/// moves played and the allocations counted.
fn playouts<G: Game>(start: &G, games: usize, seed: u64) -> (usize, u64) {
    let mut g = start.clone();
    let mut list = MoveList::new();
    let mut stack: ArrayVec<(G::Move, G::Undo), MAX_PLY> = ArrayVec::new();
    let mut rng = seed;
    let mut moves = 0;
    let mut checksum = 0u64;
    let allocations = count_allocations(|| {
        for _ in 0..games {
            while g.outcome().is_none() && !stack.is_full() {
                list.clear();
                g.moves(&mut list);
                checksum ^= g.key() ^ g.mobility() as u64 ^ g.evaluate() as u64;
                rng = rng
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                let m = list[(rng >> 33) as usize % list.len()];
                let u = g.play(m);
                stack.push((m, u));
                moves += 1;
            }
            while let Some((m, u)) = stack.pop() {
                g.undo(m, u);
            }
        }
    });
    assert_eq!(g.key(), start.key(), "undo did not restore the start");
    std::hint::black_box(checksum);
    (moves, allocations)
}

fn check<G: Game>(start: G, games: usize) {
    let (moves, allocations) = playouts(&start, games, 42);
    eprintln!(
        "alloc: {}: {games} playouts, {moves} moves played and undone, {allocations} allocations",
        start.spec()
    );
    assert!(moves > games, "playouts too short to mean anything");
    assert_eq!(allocations, 0, "{}", start.spec());
}

#[test]
fn every_game_plays_without_allocating() {
    check(Domineering::new(8, 8), 2_000);
    check(NoGo::new(5, 5), 2_000);
    check(NoGo::new(22, 1), 2_000);
    check(Mnk::new(15, 15, 5, false), 500);
    check(Mnk::new(3, 3, 3, false), 2_000);
    check(GoGame::new(9, 15), 100);
}
