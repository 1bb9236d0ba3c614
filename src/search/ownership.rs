//! Monte-Carlo ownership: who owns each point at the end of random games
//! played from a position.
//!
//! The standard way Monte-Carlo programs judge life and death at the end
//! of a game (Fuego's "mc owner", MoGo's and CrazyStone's territory
//! statistics; S. Gelly, Y. Wang, R. Munos and O. Teytaud, "Modification
//! of UCT with patterns in Monte-Carlo Go", INRIA RR-6062, 2006, for the
//! policy; B. Bouzy and B. Helmstetter, "Monte-Carlo Go developments",
//! ACG 10, 2003, for ownership as a statistic of random games): a stone
//! whose point the opponent owns at the end of most random games is dead.
//! A group without eyes inside enemy territory is captured in nearly every
//! game; one with two eyes never is, since the random games never fill
//! their own eyes; a seki mostly survives, since the policy does not play
//! a self-atari of two stones or more (and passes when nothing else is
//! left).
//!
//! The random games are those of the Monte-Carlo leaf estimate
//! ([`super::mc::play_out`]: captures, atari escapes, MoGo's 3×3 shapes).
//! Half of them start with black to move and half with white, so a group
//! that lives or dies by whoever moves first comes out near half. Each
//! game's generator is seeded with the position's hash and the game's
//! number: the same position always gets the same counts. The games run
//! on one scratch copy of the board; nothing allocates after it is made.

use super::mc::{area_owner, game_rng, play_out};
use crate::go::board::{Board, Point, NUM_POINTS, PASS};
use crate::go::Color;

/// For each point, the number of random games from a position that ended
/// with it owned by black and by white (the rest: neither, e.g. a point
/// between the stones of a seki).
pub struct Ownership {
    black: [u32; NUM_POINTS],
    white: [u32; NUM_POINTS],
    games: u32,
}

impl Ownership {
    /// Counts ownership over `games` random games from `board` (at least
    /// two), the first half starting with black to move, the other with
    /// white.
    pub fn estimate(board: &Board, games: u32) -> Ownership {
        let games = games.max(2);
        let mut own = Ownership {
            black: [0; NUM_POINTS],
            white: [0; NUM_POINTS],
            games,
        };
        let mut scratch = board.clone();
        for i in 0..games {
            scratch.clone_from(board);
            scratch.set_to_move(if i % 2 == 0 {
                Color::Black
            } else {
                Color::White
            });
            play_out(&mut scratch, &mut game_rng(board, i), PASS);
            for p in scratch.points() {
                match area_owner(&scratch, p) {
                    1 => own.black[p] += 1,
                    -1 => own.white[p] += 1,
                    _ => {}
                }
            }
        }
        own
    }

    /// The number of games played.
    pub fn games(&self) -> u32 {
        self.games
    }

    /// In how many of the games `color` owned `p` at the end.
    pub fn owned(&self, p: Point, color: Color) -> u32 {
        match color {
            Color::Black => self.black[p],
            Color::White => self.white[p],
        }
    }

    /// The share, in percent, of the games in which `color` owned the
    /// points of the block at `p` at the end: the mean over its stones.
    pub fn block_share(&self, board: &Board, p: Point, color: Color) -> u32 {
        let (mut sum, mut stones) = (0u64, 0u64);
        board.for_each_stone(p, |q| {
            sum += u64::from(self.owned(q, color));
            stones += 1;
        });
        (sum * 100 / (stones.max(1) * u64::from(self.games))) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::testutil::board_from;

    #[test]
    fn the_same_position_gets_the_same_counts_and_eyes_are_owned() {
        // Black's two eyes and White's lone stone in the middle of Black's
        // area: Black owns everything at the end of every game.
        let b = board_from(
            "
            .X.X.
            XXXXX
            X...X
            X.O.X
            XXXXX",
        );
        let (o1, o2) = (Ownership::estimate(&b, 40), Ownership::estimate(&b, 40));
        assert_eq!(o1.games(), 40);
        for p in b.points() {
            assert_eq!(o1.owned(p, Color::Black), o2.owned(p, Color::Black));
            assert_eq!(o1.owned(p, Color::White), o2.owned(p, Color::White));
        }
        let white = Board::point_at(2, 1);
        assert_eq!(o1.block_share(&b, white, Color::Black), 100);
        assert_eq!(
            o1.owned(Board::point_at(0, 4), Color::Black),
            40,
            "A5, an eye"
        );
    }
}
