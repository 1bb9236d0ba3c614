//! Dead stones at the end of a game, for `final_status_list`,
//! `final_score` and `tesuji match`'s own scoring.
//!
//! Two stages, the sure one first:
//! 1. the capture solver (df-pn over the capture game, as in
//!    [`super::status`]): a block that Benson does not prove alive, with
//!    few liberties, whose owner cannot save it even moving first (GNU Go's
//!    `defend` answering 0 under every ko model) is dead. Its stones are
//!    taken off a copy of the board and the question is asked again, since
//!    a removed block may have been all that kept its neighbours' enemies
//!    alive; a few rounds at most.
//! 2. on the board cleaned of those blocks, Monte-Carlo ownership
//!    ([`super::ownership`], the method of Monte-Carlo programs such as
//!    MoGo and Fuego: S. Gelly, Y. Wang, R. Munos and O. Teytaud,
//!    "Modification of UCT with patterns in Monte-Carlo Go", 2006; B.
//!    Bouzy and B. Helmstetter, "Monte-Carlo Go developments", 2003): a
//!    thousand random games to the end, half with each colour moving first.
//!    A block not proven alive by Benson is dead when the opponent owns its
//!    points at the end of most of them ([`DEAD_SHARE`]), or of a quarter of
//!    them when the territorial estimate [`super::eval::weak_groups_dead`]
//!    (groups without room for two eyes in an area nearer to enemy stones,
//!    and groups in a Benson-safe region of the enemy) also calls it dead.
//!
//! Stage 1 and Benson are proofs (given the solver's limits): a block the
//! solver cannot save stays dead, and a Benson-alive block is never dead.
//! Stage 2 is statistics. Alone, the territorial estimate was the
//! optimistic side of most disagreements with GNU Go at the end of 9×9
//! games: it let live groups without eyes whose stones were near its own
//! area, e.g. a string of stones along the edge inside enemy territory. The
//! random games capture such a group in nearly every game, and they know a
//! group with two eyes is alive (the random moves never fill an own eye);
//! against GNU Go's verdicts they cut the mean score difference from 5.7
//! to 1.6 points on 319 finished 9×9 games (table at
//! [`DEAD_SHARE`]). A seki mostly survives them, since they never play a
//! self-atari of two stones or more.

use super::eval::weak_groups_dead;
use super::ownership::Ownership;
use super::status::ask;
use crate::go::board::{Board, Point};
use crate::go::Color;
use crate::tactics::dfpn::Solver;
use std::sync::atomic::AtomicBool;

/// Blocks with at most this many liberties are put to the solver.
const MAX_LIBS: usize = 6;
/// Liberties at which a block has escaped: more than the capture game's
/// default, since at the end of a game a block with five liberties inside
/// enemy territory is still dead.
const ESCAPE: usize = 7;
/// Solver nodes per question.
const NODES: u64 = 4_000;
/// Rounds of removing solver-dead blocks.
const ROUNDS: usize = 3;
/// Random games of the ownership stage. On 9×9 they take about 15 ms; the
/// verdicts hardly change between 300 and 4,000 (table at [`DEAD_SHARE`]).
const GAMES: u32 = 1_000;
/// A block is dead when the opponent owns its points at the end of at least
/// this percentage of the random games (the mean over its stones).
///
/// Measured against GNU Go 3.8's `final_status_list dead` and
/// `final_score` (Chinese rules) on 319 finished 9×9 games of tesuji
/// against GNU Go level 0 that ended by two passes (a script outside the
/// repository loads each game in both programs): games whose winner both
/// agree on,
/// games whose dead lists are identical, mean |score difference|.
///
/// | stage 2 | winner | same list | mean diff |
/// |---|---|---|---|
/// | territorial estimate alone (before) | 314 | 233 | 5.70 |
/// | random games alone, 60% | 314 | 274 | 2.34 |
/// | random games alone, 70% | 313 | 274 | 2.55 |
/// | random games alone, 80% | 312 | 272 | 2.91 |
/// | either of the two, 55% | 317 | 267 | 1.56 |
/// | either of the two, 70% | 315 | 267 | 1.83 |
/// | games 55%, or estimate and games 25% | 316 | 276 | 1.56 |
/// | games 60%, or estimate and games 25% | 315 | 276 | 1.69 |
/// | games 70%, or estimate and games 25% | 314 | 276 | 1.83 |
/// | games 55%, or estimate and games 10% | 316 | 274 | 1.37 |
/// | games 55%, or estimate and games 40% | 316 | 276 | 1.63 |
/// | 300 games: 55%, or estimate and 25% | 316 | 277 | 1.37 |
/// | 4,000 games: 55%, or estimate and 25% | 315 | 276 | 1.69 |
///
/// Lower thresholds did a little better throughout: most of the remaining
/// disagreements are groups that GNU Go calls dead and the random games
/// let live about half the time (unsettled shapes that the side to move
/// would kill), not groups wrongly killed. The differences between the
/// last rows are a game or two, within the noise of the random games.
const DEAD_SHARE: u32 = 55;
/// A block of a group that the territorial estimate calls dead is dead
/// when the opponent owns it in at least this percentage of the games:
/// the estimate decides where the games are unsure, but not against
/// random games that keep the block alive three times in four.
const WEAK_SHARE: u32 = 25;

/// The stones judged dead on `board`, sorted by point.
pub fn dead_stones(board: &Board) -> Vec<Point> {
    let mut solver = Solver::new(4);
    let stop = AtomicBool::new(false);
    let mut b = board.clone();
    let mut dead: Vec<Point> = Vec::new();
    for _ in 0..ROUNDS {
        let lives = [
            super::benson::unconditional_life(&b, Color::Black),
            super::benson::unconditional_life(&b, Color::White),
        ];
        let mut found: Vec<Point> = Vec::new();
        for p in b.points() {
            let Some(c) = b.color_at(p) else { continue };
            if b.block(p) != p || b.libs(p) > MAX_LIBS || lives[c.index()].alive[p] {
                continue;
            }
            let mut spent = 0;
            if let Some((false, _)) = ask(
                &mut solver,
                &b,
                p,
                c,
                NODES,
                None,
                &stop,
                &mut spent,
                Some(ESCAPE),
            ) {
                b.for_each_stone(p, |q| found.push(q));
            }
        }
        if found.is_empty() {
            break;
        }
        for &q in &found {
            b.set_point(q, None);
        }
        dead.extend(found);
    }
    // Stage 2 on the cleaned board: the random games' verdict per block,
    // the territorial estimate deciding only where they are unsure.
    let weak = weak_groups_dead(&b);
    let own = Ownership::estimate(&b, GAMES);
    let lives = [
        super::benson::unconditional_life(&b, Color::Black),
        super::benson::unconditional_life(&b, Color::White),
    ];
    for p in b.points() {
        let Some(c) = b.color_at(p) else { continue };
        if b.block(p) != p || lives[c.index()].alive[p] {
            continue;
        }
        let lost = own.block_share(&b, p, c.opp());
        // `weak` holds whole groups, so a block is in it when its head is.
        if lost >= DEAD_SHARE || (lost >= WEAK_SHARE && weak.binary_search(&p).is_ok()) {
            b.for_each_stone(p, |q| dead.push(q));
        }
    }
    dead.sort_unstable();
    dead.dedup();
    dead
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::testutil::board_from;

    #[test]
    fn a_block_its_owner_cannot_save_is_dead() {
        // The white pair has three liberties, all inside black's wall:
        // black's area either way, and too many liberties for the territory
        // rule's eye count to matter.
        let b = board_from(
            "
            .X.....
            XX.....
            .XOOX..
            .X..X..
            ..XX...
            .......
            .......",
        );
        let dead = dead_stones(&b);
        assert_eq!(dead, vec![Board::point_at(2, 4), Board::point_at(3, 4)]);
    }
}

#[cfg(test)]
mod ownership_tests {
    use super::*;
    use crate::search::benson::unconditional_life;
    use crate::search::testutil::board_from;

    #[test]
    fn an_eyeless_group_in_enemy_territory_dies_and_two_eyes_live() {
        // White walls off the top left. Below the wall, in White's closed
        // area, Black's five stones look like a group with two eyes (B2 and
        // A1), which is how the territorial estimate judged them (it called
        // only D3 dead), but B2 is false: White's C3 is one bad diagonal,
        // and Black cannot have both A3 and C1. GNU Go 3.8 calls all five
        // dead, and playing it out with Black first White takes them. Black's
        // group above the wall has two eyes, A9 and the six points C8-E9,
        // which Benson cannot prove (D9 is not a liberty), and White's
        // stones have the right and the bottom: both alive.
        let b = board_from(
            "
            .X...XO..
            XX...XO..
            XXXXXXO..
            OOOOOOO..
            .......OO
            OOOOOOO..
            .XOX..O..
            X.XO..O..
            .X.O..O..",
        );
        let at = |col: usize, row: usize| Board::point_at(col, row);
        let mut eyeless = vec![at(1, 2), at(3, 2), at(0, 1), at(2, 1), at(1, 0)];
        eyeless.sort_unstable();
        assert_eq!(dead_stones(&b), eyeless, "only the five stones");
        let (black, white) = (at(0, 7), at(6, 8));
        assert!(!unconditional_life(&b, Color::Black).alive[black]);
        assert!(!unconditional_life(&b, Color::White).alive[white]);
        // The random games agree clearly, not by a hair.
        let own = Ownership::estimate(&b, GAMES);
        for p in eyeless {
            let lost = own.block_share(&b, p, Color::White);
            assert!(lost >= 70, "{lost}% at {}", Board::vertex(p));
        }
        assert!(own.block_share(&b, black, Color::White) <= 10);
        assert!(own.block_share(&b, white, Color::Black) <= 10);
    }
}
