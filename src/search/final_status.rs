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
//! 2. on the board cleaned of those blocks, the territorial estimate of
//!    [`super::eval::weak_groups_dead`] (groups without room for two eyes in
//!    an area nearer to enemy stones, and groups in a Benson-safe region of
//!    the enemy).

use super::eval::weak_groups_dead;
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
    dead.extend(weak_groups_dead(&b));
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
