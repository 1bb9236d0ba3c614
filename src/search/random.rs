//! The random player: a baseline opponent for `tesuji match` and a sanity
//! check that a search-based player beats chance in every game.
//!
//! It plays a uniformly random legal move. In Go a purely random player
//! would fill its own eyes, kill its own groups and never stop (the board
//! refills after every mass capture), so, as in the random playouts of
//! Monte-Carlo Go programs, it never plays into its own true eye
//! ([`is_true_eye`]) and passes when no other legal move is left. In every
//! other game the legal moves are all there is.
//!
//! The generator is xorshift64* (Marsaglia 2003, with Vigna's multiplier):
//! seedable, so a match with a fixed seed replays the same moves, and free
//! of allocation and external crates.

use super::movegen::is_true_eye;
use crate::go::board::{Board, PointList};
use crate::go::{Color, Game, Move};

/// Seed used when none is given (any non-zero value would do).
pub const DEFAULT_SEED: u64 = 0x2545_F491_4F6C_DD1D;

/// A seeded uniform random mover.
#[derive(Clone, Debug)]
pub struct RandomPlayer {
    seed: u64,
    state: u64,
}

impl RandomPlayer {
    pub fn new(seed: u64) -> RandomPlayer {
        // xorshift has the all-zero state as a fixed point: avoid it.
        let state = if seed == 0 { DEFAULT_SEED } else { seed };
        RandomPlayer { seed, state }
    }

    /// The seed this player started from.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    fn next(&mut self) -> u64 {
        let mut x = self.state;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.state = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A uniform index below `n` (`n > 0`), by Lemire's multiply-shift; the
    /// bias is below n / 2^64, far under anything a match could detect.
    pub fn below(&mut self, n: usize) -> usize {
        debug_assert!(n > 0);
        ((self.next() as u128 * n as u128) >> 64) as usize
    }

    /// A random legal move for `color` in `game` under its ko rule that does
    /// not fill one of `color`'s true eyes; a pass when there is none.
    /// Allocates nothing.
    pub fn go_move(&mut self, game: &Game, color: Color) -> Move {
        let board = game.board();
        let mut candidates = PointList::new();
        for p in board.points() {
            if board.is_empty(p)
                && !is_true_eye(board, color, p)
                && game.check_point(color, p).is_ok()
            {
                candidates.push(p);
            }
        }
        if candidates.is_empty() {
            Move::Pass
        } else {
            Board::to_move_value(candidates[self.below(candidates.len())])
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn below_is_in_range_and_covers_every_value() {
        let mut r = RandomPlayer::new(7);
        let mut seen = [0u32; 5];
        for _ in 0..5000 {
            seen[r.below(5)] += 1;
        }
        // Each value 1000 ± a generous 15%.
        assert!(seen.iter().all(|&c| (850..1150).contains(&c)), "{seen:?}");
    }

    #[test]
    fn same_seed_same_moves_and_zero_seed_works() {
        let game = Game::new(9);
        let moves = |seed| {
            let mut r = RandomPlayer::new(seed);
            (0..20)
                .map(|_| r.go_move(&game, Color::Black))
                .collect::<Vec<_>>()
        };
        assert_eq!(moves(3), moves(3));
        assert_ne!(moves(3), moves(4));
        assert!(moves(0).iter().all(|m| *m != Move::Pass));
    }

    /// Random against random ends: eyes are never filled, so both sides run
    /// out of moves and pass. Every move played is legal.
    #[test]
    fn random_games_end_with_two_passes() {
        for seed in 1..=5 {
            let mut game = Game::new(5);
            let mut r = RandomPlayer::new(seed);
            let mut color = Color::Black;
            let mut n = 0;
            while !game.two_passes() {
                let mv = r.go_move(&game, color);
                game.play(color, mv).expect("random move is legal");
                color = color.opp();
                n += 1;
                assert!(n < 2000, "seed {seed}: no end after {n} moves");
            }
        }
    }

    #[test]
    fn never_fills_a_true_eye() {
        // . X .   Black stones everywhere but A1, A3 and C3, each of them
        // X X X   a true eye of Black's one block.
        // . X X
        let mut game = Game::new(3);
        for (c, r) in [(1, 0), (2, 0), (0, 1), (1, 1), (2, 1), (1, 2)] {
            game.play(Color::Black, Move::Play(crate::go::Vertex::new(c, r)))
                .unwrap();
            game.play(Color::White, Move::Pass).unwrap();
        }
        let mut r = RandomPlayer::new(1);
        for _ in 0..20 {
            assert_eq!(r.go_move(&game, Color::Black), Move::Pass);
        }
        // A white stone in any of the eyes would be suicide: White passes.
        assert_eq!(r.go_move(&game, Color::White), Move::Pass);
    }
}
