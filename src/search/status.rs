//! Block status for the player, decided once per `genmove` at the root with
//! tesuji's own capture solver (df-pn over the capture game of
//! [`crate::tactics::rules`], [`crate::tactics::dfpn`]) and Benson's
//! unconditional life ([`super::benson`]).
//!
//! Every block with few liberties that Benson does not prove alive gets two
//! questions under a small node budget: can the enemy capture it moving
//! first, and can its owner save it moving first? (GNU Go's `attack` and
//! `defend`, with the same ko codes: a win that needs the first ko threat,
//! code 3, is not counted as a win.) The answers give
//!
//! - **dead**: captured even when the owner moves first;
//! - **unsettled**: whoever moves first decides; the solver's first moves
//!   for both sides are *urgent* and ordered early by the search;
//! - anything else (safe, or unknown within the budget): no verdict.
//!
//! The search's leaves read the verdicts ([`Status::verdict`]) as long as
//! the block is still on the board with no more liberties than at the root
//! (a block that gained liberties may have escaped, and then the verdict is
//! stale): a dead block's stones count for the enemy, an unsettled block's
//! for the player to move at the leaf (whoever moves first decides it).
//! Points of the vital regions of Benson-alive blocks are
//! *pointless* for both players (nothing can change there under area
//! scoring) and are no candidates for the search, except in the clean-up
//! phase of `kgs-genmove_cleanup`, where dead stones inside those regions
//! must still be captured.
//!
//! The table is filled at the root, where allocation is over (the solver's
//! buffers are reserved when the player is made, [`warm_up`]), and read at
//! the leaves through fixed arrays.

use super::benson::unconditional_life;
use crate::go::board::{Board, Point, EMPTY, MAX_POINTS, NUM_POINTS, PASS};
use crate::go::vertex::MAX_SIZE;
use crate::go::Color;
use crate::tactics::dfpn::{Algo, Limits, Options, Solver};
use crate::tactics::Problem;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// Blocks with at most this many liberties are asked about.
pub const MAX_LIBS: usize = 3;
/// Solver nodes for one question (both ko models it may need together).
pub const QUESTION_NODES: u64 = 1_500;
/// Solver nodes for all questions of one analysis.
pub const TOTAL_NODES: u64 = 40_000;

/// What the analysis says about the block on a point.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    None,
    Dead,
    Unsettled,
}

const NONE: u8 = 0;
const DEAD: u8 = 1;
const UNSETTLED: u8 = 2;

/// Verdicts per point, valid for the position they were computed on and,
/// through [`Status::verdict`], for positions the search reaches from it.
pub struct Status {
    kind: [u8; NUM_POINTS],
    /// The block's cell value (colour) and liberties at the root.
    cell: [u8; NUM_POINTS],
    libs: [u8; NUM_POINTS],
    /// Ordering bonus of urgent points (attack and defence moves).
    pub urgent: [i32; NUM_POINTS],
    /// Points of Benson-safe regions: no move there matters (none in the
    /// clean-up phase).
    pub pointless: [bool; NUM_POINTS],
    /// Whether any verdict or pointless point is set.
    pub any: bool,
    /// Solver nodes the last analysis spent.
    pub nodes: u64,
}

impl Status {
    pub fn new() -> Box<Status> {
        Box::new(Status {
            kind: [NONE; NUM_POINTS],
            cell: [EMPTY; NUM_POINTS],
            libs: [0; NUM_POINTS],
            urgent: [0; NUM_POINTS],
            pointless: [false; NUM_POINTS],
            any: false,
            nodes: 0,
        })
    }

    pub fn clear(&mut self) {
        if self.any {
            self.kind.fill(NONE);
            self.urgent.fill(0);
            self.pointless.fill(false);
            self.any = false;
        }
        self.nodes = 0;
    }

    /// The verdict on the stone at `p` of `board`, if the root's block is
    /// still there with no more liberties than it had.
    #[inline]
    pub fn verdict(&self, board: &Board, p: Point) -> Verdict {
        match self.kind[p] {
            NONE => Verdict::None,
            k => {
                if board.cell(p) != self.cell[p] || board.libs(p) > self.libs[p] as usize {
                    Verdict::None
                } else if k == DEAD {
                    Verdict::Dead
                } else {
                    Verdict::Unsettled
                }
            }
        }
    }

    fn mark(&mut self, board: &Board, p: Point, kind: u8) {
        let (cell, libs) = (board.cell(p), board.libs(p).min(255) as u8);
        let mut stones = [0u16; MAX_POINTS];
        let mut n = 0;
        board.for_each_stone(p, |q| {
            stones[n] = q as u16;
            n += 1;
        });
        for &q in &stones[..n] {
            self.kind[q as usize] = kind;
            self.cell[q as usize] = cell;
            self.libs[q as usize] = libs;
        }
        self.any = true;
    }
}

/// Does `mover` win the capture question about the block on `target`
/// moving first? `Some((won, first move))`, or `None` when the budget ran
/// out; `escape` overrides the liberties at which the block has escaped.
/// Codes 1 and 2 are wins; 3 (the mover needs the first ko threat)
/// and 0 are not.
#[allow(clippy::too_many_arguments)]
pub(crate) fn ask(
    solver: &mut Solver,
    board: &Board,
    target: Point,
    mover: Color,
    nodes: u64,
    time: Option<Duration>,
    stop: &AtomicBool,
    spent: &mut u64,
    escape: Option<usize>,
) -> Option<(bool, Point)> {
    let mut problem = Problem::new(board, target)?;
    if let Some(e) = escape {
        problem.escape_libs = e;
    }
    let opts = Options {
        ladder: false,
        avoid_root_pass: mover == problem.defender(),
        algo: Algo::Dfpn,
        max_order: 0,
        forced: crate::tactics::dfpn::Forced::Off,
        // The player's measured play used exact codes only.
        ko_bound: false,
        heuristic_only: true,
        rounds: false,
    };
    let r = solver.solve_with_ko(board, problem, mover, opts, Limits { nodes, time }, stop);
    *spent += r.nodes;
    let code = r.code?;
    Some((code == 1 || code == 2, r.best.unwrap_or(PASS)))
}

/// Fills `status` for `board`, spending at most [`TOTAL_NODES`] solver
/// nodes and, if given, about `time`. `cleanup` is the clean-up phase of
/// `kgs-genmove_cleanup` while dead stones remain to be captured: then no
/// point is pointless, since the dead stones to remove may stand inside
/// Benson-safe regions.
pub fn analyse(
    status: &mut Status,
    solver: &mut Solver,
    board: &Board,
    time: Option<Duration>,
    cleanup: bool,
    stop: &AtomicBool,
) {
    status.clear();
    let start = Instant::now();
    let lives = [
        unconditional_life(board, Color::Black),
        unconditional_life(board, Color::White),
    ];
    for life in lives.iter().filter(|_| !cleanup) {
        if life.any {
            for p in board.points() {
                if life.safe[p] && board.cell(p) == EMPTY {
                    status.pointless[p] = true;
                    status.any = true;
                }
            }
        }
    }
    let mut spent = 0u64;
    for p in board.points() {
        let Some(c) = board.color_at(p) else { continue };
        if board.block(p) != p || board.libs(p) > MAX_LIBS || lives[c.index()].alive[p] {
            continue;
        }
        let left = TOTAL_NODES.saturating_sub(spent);
        let time_left = time.map(|t| t.saturating_sub(start.elapsed()));
        if left == 0 || time_left.is_some_and(|t| t.is_zero()) {
            break;
        }
        let nodes = QUESTION_NODES.min(left);
        let attack = ask(
            solver,
            board,
            p,
            c.opp(),
            nodes,
            time_left,
            stop,
            &mut spent,
            None,
        );
        let Some((true, attack_move)) = attack else {
            continue;
        };
        let time_left = time.map(|t| t.saturating_sub(start.elapsed()));
        let nodes = QUESTION_NODES.min(TOTAL_NODES.saturating_sub(spent)).max(1);
        match ask(
            solver, board, p, c, nodes, time_left, stop, &mut spent, None,
        ) {
            Some((false, _)) => status.mark(board, p, DEAD),
            Some((true, defence)) => {
                status.mark(board, p, UNSETTLED);
                // Bigger blocks first; saving and killing are worth the same.
                let bonus = URGENT_BONUS + 1000 * board.block_size(p).min(100) as i32;
                for q in [attack_move, defence] {
                    if q != PASS {
                        status.urgent[q] = status.urgent[q].max(bonus);
                    }
                }
            }
            None => {}
        }
    }
    status.nodes = spent;
}

/// Ordering bonus of an urgent point: below captures and atari escapes of
/// the move generator, above killers.
pub const URGENT_BONUS: i32 = 850_000;

/// Reserves the solver's buffers for the largest board, so that later
/// analyses allocate nothing.
pub fn warm_up(solver: &mut Solver) {
    let mut b = Board::new(MAX_SIZE);
    b.play(Color::Black, Board::point_at(0, 0));
    b.play(Color::White, Board::point_at(1, 0));
    let stop = AtomicBool::new(false);
    let mut spent = 0;
    let _ = ask(
        solver,
        &b,
        Board::point_at(0, 0),
        Color::White,
        10,
        None,
        &stop,
        &mut spent,
        None,
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::testutil::board_from;

    fn analysed(b: &Board) -> Box<Status> {
        let mut solver = Solver::new(1);
        let mut status = Status::new();
        analyse(
            &mut status,
            &mut solver,
            b,
            None,
            false,
            &AtomicBool::new(false),
        );
        status
    }

    #[test]
    fn a_block_that_cannot_be_saved_is_dead() {
        let b = board_from(
            "
            .....
            .XXX.
            .XOX.
            .X.X.
            .....",
        );
        let s = analysed(&b);
        let o = Board::point_at(2, 2);
        assert_eq!(s.verdict(&b, o), Verdict::Dead);
        assert_eq!(s.verdict(&b, Board::point_at(1, 1)), Verdict::None);
        // Once the block has more liberties than at the root the verdict
        // no longer applies.
        let mut free = b.clone();
        free.set_point(Board::point_at(2, 3), None);
        assert_eq!(s.verdict(&free, o), Verdict::None);
    }

    #[test]
    fn a_block_in_atari_next_to_a_friend_is_urgent() {
        let b = board_from(
            "
            .......
            .......
            .X.....
            XO.OO..
            .X.OO..
            .......
            .......",
        );
        let s = analysed(&b);
        let o = Board::point_at(1, 3);
        assert_eq!(s.verdict(&b, o), Verdict::Unsettled);
        // Capturing and escaping (by joining the big block) are the same
        // point here.
        assert!(s.urgent[Board::point_at(2, 3)] >= URGENT_BONUS);
        assert_eq!(s.verdict(&b, Board::point_at(3, 3)), Verdict::None);
        assert_eq!(s.urgent[Board::point_at(0, 0)], 0);
    }

    #[test]
    fn benson_regions_are_pointless() {
        let b = board_from(
            "
            .X.X.
            XXXXX
            .....
            .....
            .....",
        );
        let s = analysed(&b);
        assert!(s.pointless[Board::point_at(0, 4)]);
        assert!(s.pointless[Board::point_at(2, 4)]);
        assert!(!s.pointless[Board::point_at(2, 2)]);
        // In the clean-up phase nothing is pointless.
        let mut solver = Solver::new(1);
        let mut clean = Status::new();
        analyse(
            &mut clean,
            &mut solver,
            &b,
            None,
            true,
            &AtomicBool::new(false),
        );
        assert!(clean.pointless.iter().all(|&p| !p));
    }
}
