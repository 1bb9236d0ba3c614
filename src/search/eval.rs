//! The static evaluation at the leaves of the search: an estimate of the
//! final area score, in the same unit as the exact score of a finished game
//! (hundredths of a point), so that the search can compare a heuristic leaf
//! with a game ended by two passes.
//!
//! The estimate, per point:
//! 1. Benson's unconditional life ([`super::benson`]) settles what it can:
//!    alive blocks and their vital regions are their owner's, enemy stones
//!    inside those regions included.
//! 2. A block in atari whose owner is not to move counts as captured by the
//!    player to move (the quiescence search of [`super::negascout`] has
//!    already played out the captures and escapes it cares about; what is
//!    left in atari at its leaves is the stand-pat's business).
//! 3. Every other stone counts for its colour. Those points seed Bouzy's
//!    dilation/erosion maps ([`super::influence`]; B. Bouzy, "Mathematical
//!    morphology applied to computer Go", 2003): an empty point in the 5/21
//!    territory map counts one point for its owner, one only in the 5/10
//!    moyo map counts [`MOYO_UNITS`]. A lone stone claims no territory and
//!    stones next to enemy stones are eroded, so thin scattered stones are
//!    no longer worth the points they seem to surround (the distance-based
//!    estimate this replaces gave a lone stone every point within three
//!    steps: 0 wins in 200 games against GNU Go level 0).
//! 4. Weak groups (see `kill_weak`: no settled stone, under two points of
//!    territory, under five of territory and moyo, at most three
//!    liberties) go to the enemy with the room they had, the group-status
//!    step Bouzy's model presupposes before it dilates. Weak groups in
//!    contact with the enemy (no two eyes, under twelve points of room)
//!    count for nobody: half the swing of a dead one, so the search defends
//!    them and attacks the enemy's.
//!
//! With the root's block verdicts ([`super::status`]) a dead block's stones
//! count for the enemy and an unsettled block's for the player to move.
//!
//! Komi is subtracted from black's count. All work is on stack arrays; the
//! evaluation allocates nothing.

use super::benson::unconditional_life;
use super::influence::{self, Field, SEED};
use super::status::{Status, Verdict};
use crate::go::board::{Board, Point, EMPTY, MAX_POINTS, NUM_POINTS};
use crate::go::Color;
use arrayvec::ArrayVec;

/// Value unit: one point of score is worth this many evaluation units.
pub const UNIT: i32 = 100;

/// Value of an empty point in the moyo (5/10) map but not in the territory
/// (5/21) map: potential, not yet territory. It is what guides the opening,
/// where no point is territory yet.
pub const MOYO_UNITS: i32 = 40;

const BLACK_BIT: u8 = 1;
const WHITE_BIT: u8 = 2;

#[inline]
fn bit(c: Color) -> u8 {
    match c {
        Color::Black => BLACK_BIT,
        Color::White => WHITE_BIT,
    }
}

/// The influence seeds of the estimate (steps 1–3 of the module docs):
/// `±SEED` for every point counted as a black (white) stone, 0 elsewhere.
/// `settled` marks the points whose owner Benson or a verdict decided,
/// which [`kill_weak`] leaves alone.
fn seeds(
    board: &Board,
    to_move: Color,
    status: Option<&Status>,
    out: &mut Field,
    settled: &mut [bool; NUM_POINTS],
) {
    let life_b = unconditional_life(board, Color::Black);
    let life_w = unconditional_life(board, Color::White);
    let sign = |c: Color| match c {
        Color::Black => SEED,
        Color::White => -SEED,
    };
    out.fill(0);
    settled.fill(false);
    for p in board.points() {
        let (v, fixed) = if life_b.any && (life_b.safe[p] || life_b.alive[p]) {
            (SEED, true)
        } else if life_w.any && (life_w.safe[p] || life_w.alive[p]) {
            (-SEED, true)
        } else {
            match board.color_at(p) {
                None => (0, false),
                Some(c) if board.libs(p) == 1 => (sign(c.opp()), true),
                Some(c) => match status.map_or(Verdict::None, |s| s.verdict(board, p)) {
                    Verdict::None => (sign(c), false),
                    Verdict::Dead => (sign(c.opp()), true),
                    Verdict::Unsettled => (sign(to_move), true),
                },
            }
        };
        out[p] = v;
        settled[p] = fixed;
    }
}

/// A group with less than this much own territory has no two eyes yet...
const EYE_POINTS: u32 = 2;
/// ... and with less room than this (own territory and moyo points) it
/// cannot make them: it counts as dead.
const ROOM: u32 = 5;
/// A group with this many liberties or more is never called dead here: it
/// would take the enemy too many moves to capture.
const SAFE_LIBS: u32 = 4;
/// A group that is not dead by the rule above but still has no two eyes
/// (under [`EYE_POINTS`] of territory) and less room than this is weak: it
/// must run or live, and the enemy gains by attacking it, once it is in
/// contact with enemy stones (a lone stone merely approached from afar is
/// not under attack yet). Its stones and room count for nobody (half the
/// swing of a dead group), so the search protects its own weak groups and
/// attacks the enemy's instead of leaving them for tenuki. This is what the
/// games lost to GNU Go showed: thin groups left alone until they died.
const WEAK_ROOM: u32 = 12;

/// Hands dead groups to the enemy and weak groups to nobody in the maps
/// `t` and `m`. A group is a connected set of one colour's stones and of
/// the empty points its colour holds in the moyo map `m` (so stones linked
/// by their influence belong together); it is dead when nothing is settled
/// in it, it has fewer than [`EYE_POINTS`] points of territory (map `t`),
/// less than [`ROOM`] points of territory and moyo together, and fewer
/// than [`SAFE_LIBS`] liberties; it is weak when it is not dead, has too
/// little territory for two eyes, touches an enemy stone and has less than
/// [`WEAK_ROOM`] room. This is the group-status step that Bouzy's
/// territory model presupposes (dead stones are removed before the
/// dilations): without it a stone thrown into the enemy's area erodes the
/// territory around it for free.
fn kill_weak(
    board: &Board,
    seed: &mut Field,
    settled: &[bool; NUM_POINTS],
    t: &mut Field,
    m: &mut Field,
) {
    let mut seen = [false; NUM_POINTS];
    let mut lib_mark = [0u16; NUM_POINTS];
    let mut stack: ArrayVec<u16, MAX_POINTS> = ArrayVec::new();
    let mut members: ArrayVec<u16, MAX_POINTS> = ArrayVec::new();
    let mut group_id = 0u16;
    for p in board.points() {
        let s = seed[p];
        if seen[p] || s == 0 || board.is_empty(p) {
            continue;
        }
        group_id += 1;
        let positive = s > 0;
        let own = |q: usize| {
            if positive {
                seed[q] > 0 || (board.is_empty(q) && m[q] > 0)
            } else {
                seed[q] < 0 || (board.is_empty(q) && m[q] < 0)
            }
        };
        let (mut terr, mut room, mut libs) = (0u32, 0u32, 0u32);
        let mut fixed = false;
        let mut contact = false;
        members.clear();
        stack.clear();
        stack.push(p as u16);
        seen[p] = true;
        while let Some(q) = stack.pop() {
            let q = q as usize;
            members.push(q as u16);
            if board.is_empty(q) {
                room += 1;
                terr += (t[q] != 0) as u32;
            } else {
                fixed |= settled[q];
            }
            for n in Board::neighbors(q) {
                if board.cell(n) == crate::go::board::BORDER {
                    continue;
                }
                if !board.is_empty(q) && !board.is_empty(n) && board.cell(n) != board.cell(q) {
                    contact = true;
                }
                if !board.is_empty(q) && board.is_empty(n) && lib_mark[n] != group_id {
                    lib_mark[n] = group_id;
                    libs += 1;
                }
                if !seen[n] && own(n) {
                    seen[n] = true;
                    stack.push(n as u16);
                }
            }
        }
        // Settled groups and groups with eye space are neither dead nor weak.
        if fixed || terr >= EYE_POINTS {
            continue;
        }
        if room < ROOM && libs < SAFE_LIBS {
            // The group's stones and the room it had go to the enemy.
            // (Recomputing the maps without the group would be exact, and
            // would cost a second pass of the operators at every leaf.)
            let enemy: i16 = if positive { -1 } else { 1 };
            for &q in &members {
                let q = q as usize;
                if board.is_empty(q) {
                    t[q] = enemy;
                    m[q] = enemy;
                } else {
                    seed[q] = -seed[q];
                    t[q] = -t[q];
                    m[q] = -m[q];
                }
            }
        } else if contact && room < WEAK_ROOM {
            for &q in &members {
                t[q as usize] = 0;
                m[q as usize] = 0;
            }
        }
    }
}

/// The territory and moyo maps of the estimate: seeds, maps, then weak
/// groups handed over.
fn estimate(board: &Board, to_move: Color, status: Option<&Status>, t: &mut Field, m: &mut Field) {
    let mut seed: Field = [0; NUM_POINTS];
    let mut settled = [false; NUM_POINTS];
    seeds(board, to_move, status, &mut seed, &mut settled);
    *t = seed;
    influence::maps(board, t, m);
    kill_weak(board, &mut seed, &settled, t, m);
}

/// The owner of every on-board point by the estimate described in the module
/// docs, territory only: `1` black, `-1` white, `0` neutral or moyo.
/// `to_move` is the player who would capture blocks in atari.
pub fn ownership_estimate(board: &Board, to_move: Color, out: &mut [i8; NUM_POINTS]) {
    let mut t: Field = [0; NUM_POINTS];
    let mut m: Field = [0; NUM_POINTS];
    estimate(board, to_move, None, &mut t, &mut m);
    out.fill(0);
    for p in board.points() {
        out[p] = t[p].signum() as i8;
    }
}

/// The estimated score in [`UNIT`]s from the point of view of the player to
/// move on `board`, komi (given in units) included.
pub fn evaluate(board: &Board, komi_units: i32) -> i32 {
    evaluate_with(board, komi_units, None)
}

/// [`evaluate`] with the root's block verdicts: a dead block's stones count
/// for the enemy, an unsettled one's for the player to move.
pub fn evaluate_with(board: &Board, komi_units: i32, status: Option<&Status>) -> i32 {
    let to_move = board.to_move();
    let mut t: Field = [0; NUM_POINTS];
    let mut m: Field = [0; NUM_POINTS];
    estimate(board, to_move, status.filter(|s| s.any), &mut t, &mut m);
    let mut black = 0;
    for row in 0..board.size() {
        let base = Board::point_at(0, row);
        for p in base..base + board.size() {
            black += if t[p] != 0 {
                t[p].signum() as i32 * UNIT
            } else {
                m[p].signum() as i32 * MOYO_UNITS
            };
        }
    }
    let score = black - komi_units;
    match to_move {
        Color::Black => score,
        Color::White => -score,
    }
}

/// Breadth-first spread of colour masks over empty, unmasked points for at
/// most `steps` layers. `frontier` holds the sources and is consumed.
fn spread(
    board: &Board,
    mask: &mut [u8; NUM_POINTS],
    frontier: &mut ArrayVec<u16, MAX_POINTS>,
    steps: u8,
) {
    // `layer[p]` is the step at which an empty point was reached, so that a
    // point reached twice in the same step collects both colours.
    let mut layer = [0u8; NUM_POINTS];
    let mut next: ArrayVec<u16, MAX_POINTS> = ArrayVec::new();
    for step in 1..=steps {
        next.clear();
        for &f in frontier.iter() {
            let m = mask[f as usize];
            for n in Board::neighbors(f as Point) {
                if board.cell(n) != EMPTY {
                    continue;
                }
                if mask[n] == 0 {
                    mask[n] = m;
                    layer[n] = step;
                    next.push(n as u16);
                } else if layer[n] == step {
                    mask[n] |= m;
                }
            }
        }
        if next.is_empty() {
            break;
        }
        std::mem::swap(frontier, &mut next);
    }
}

/// Stones that are probably dead by territory alone (the second stage of
/// [`super::final_status::dead_stones`]).
///
/// Blocks of one colour that touch diagonally or share a liberty form a
/// group. A group is dead when it lies in a vital region of an unconditionally
/// alive enemy block, or when it is weak (not Benson-alive and without room
/// for two eyes: fewer than two enclosed empty regions of its own colour,
/// where a region of seven or more points counts as two) and, with the group
/// taken off the board, most of its points are strictly closer to enemy
/// stones than to friendly ones. Sorted by point.
pub fn weak_groups_dead(board: &Board) -> Vec<Point> {
    let lives = [
        unconditional_life(board, Color::Black),
        unconditional_life(board, Color::White),
    ];
    // Union-find over block heads.
    let mut parent = [0u16; NUM_POINTS];
    for p in board.points() {
        parent[p] = board.block(p) as u16;
    }
    fn find(parent: &mut [u16; NUM_POINTS], mut x: usize) -> usize {
        while parent[x] as usize != x {
            parent[x] = parent[parent[x] as usize];
            x = parent[x] as usize;
        }
        x
    }
    let union = |parent: &mut [u16; NUM_POINTS], a: Point, b: Point| {
        let (ra, rb) = (find(parent, a), find(parent, b));
        if ra != rb {
            parent[ra.max(rb)] = ra.min(rb) as u16;
        }
    };
    for p in board.points() {
        match board.color_at(p) {
            Some(c) => {
                for d in Board::diagonals(p) {
                    if d < NUM_POINTS && board.color_at(d) == Some(c) {
                        union(&mut parent, board.block(p), board.block(d));
                    }
                }
            }
            None => {
                for c in [Color::Black, Color::White] {
                    let mut first = None;
                    for n in Board::neighbors(p) {
                        if board.color_at(n) == Some(c) {
                            match first {
                                None => first = Some(board.block(n)),
                                Some(h) => union(&mut parent, h, board.block(n)),
                            }
                        }
                    }
                }
            }
        }
    }

    // Empty regions with their size and owner: the colour strictly closer to
    // more of their points. (Asking for a single bordering colour instead
    // would let one dead stone inside a territory take both its eyes away.)
    let near = nearest_colours(board);
    let mut region_of = [usize::MAX; NUM_POINTS];
    let mut regions: Vec<(usize, Option<Color>)> = Vec::new();
    for p in board.points() {
        if !board.is_empty(p) || region_of[p] != usize::MAX {
            continue;
        }
        let id = regions.len();
        let mut stack = vec![p];
        region_of[p] = id;
        let (mut size, mut black, mut white) = (0, 0, 0);
        while let Some(q) = stack.pop() {
            size += 1;
            match near[q] {
                BLACK_BIT => black += 1,
                WHITE_BIT => white += 1,
                _ => {}
            }
            for n in Board::neighbors(q) {
                if board.is_empty(n) && region_of[n] == usize::MAX {
                    region_of[n] = id;
                    stack.push(n);
                }
            }
        }
        let owner = match black.cmp(&white) {
            std::cmp::Ordering::Greater => Some(Color::Black),
            std::cmp::Ordering::Less => Some(Color::White),
            std::cmp::Ordering::Equal => None,
        };
        regions.push((size, owner));
    }

    let mut dead = Vec::new();
    let mut done = [false; NUM_POINTS];
    for p in board.points() {
        let Some(c) = board.color_at(p) else { continue };
        let root = find(&mut parent, board.block(p));
        if done[root] {
            continue;
        }
        done[root] = true;
        let members: Vec<Point> = board
            .points()
            .filter(|&q| board.color_at(q) == Some(c) && find(&mut parent, board.block(q)) == root)
            .collect();
        let enemy = c.opp().index();
        if members.iter().any(|&q| lives[c.index()].alive[q]) {
            continue;
        }
        let in_enemy_region = members.iter().any(|&q| lives[enemy].safe[q]);
        if !in_enemy_region
            && (eye_count(board, &members, &region_of, &regions) >= 2
                || !enemy_closer(board, &members, c)
                || own_space(board, &members, &region_of, &near) >= OPEN_SPACE)
        {
            continue;
        }
        dead.extend(members);
    }
    dead.sort_unstable();
    dead
}

/// A group whose colour is nearest to this many points of the empty
/// regions it touches still has room to live: the game around it is not
/// settled, so it is not called dead (a lone stone in the opening, say).
const OPEN_SPACE: usize = 10;

/// Points of the empty regions next to `members` that are nearer to the
/// group's colour than to the other.
fn own_space(
    board: &Board,
    members: &[Point],
    region_of: &[usize; NUM_POINTS],
    near: &[u8; NUM_POINTS],
) -> usize {
    let c = board.color_at(members[0]).expect("members are stones");
    let mut touched: Vec<usize> = Vec::new();
    for &q in members {
        for n in Board::neighbors(q) {
            if board.is_empty(n) && !touched.contains(&region_of[n]) {
                touched.push(region_of[n]);
            }
        }
    }
    board
        .points()
        .filter(|&q| board.is_empty(q) && touched.contains(&region_of[q]) && near[q] == bit(c))
        .count()
}

/// Eyes a group could make: its own-colour enclosed regions, a big one
/// counting twice.
fn eye_count(
    board: &Board,
    members: &[Point],
    region_of: &[usize; NUM_POINTS],
    regions: &[(usize, Option<Color>)],
) -> usize {
    let c = board.color_at(members[0]);
    let mut seen: Vec<usize> = Vec::new();
    for &q in members {
        for n in Board::neighbors(q) {
            let r = region_of[n];
            if board.is_empty(n) && regions[r].1 == c && !seen.contains(&r) {
                seen.push(r);
            }
        }
    }
    seen.iter()
        .map(|&r| if regions[r].0 >= 7 { 2 } else { 1 })
        .sum()
}

/// Whether, with `members` taken off the board, most of their points are
/// strictly closer to enemy stones than to friendly ones.
fn enemy_closer(board: &Board, members: &[Point], c: Color) -> bool {
    let mut open = board.clone();
    for &q in members {
        open.set_point(q, None);
    }
    let near = nearest_colours(&open);
    let (mut enemy, mut friend) = (0, 0);
    for &q in members {
        if near[q] == bit(c.opp()) {
            enemy += 1;
        } else if near[q] == bit(c) {
            friend += 1;
        }
    }
    enemy > friend
}

/// For every point, the set of colours (as bits) whose stones are nearest
/// through empty points, without a distance limit.
fn nearest_colours(board: &Board) -> [u8; NUM_POINTS] {
    let mut mask = [0u8; NUM_POINTS];
    let mut frontier: ArrayVec<u16, MAX_POINTS> = ArrayVec::new();
    for p in board.points() {
        if let Some(col) = board.color_at(p) {
            mask[p] = bit(col);
            frontier.push(p as u16);
        }
    }
    spread(board, &mut mask, &mut frontier, u8::MAX);
    mask
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::testutil::board_from;

    #[test]
    fn empty_board_is_komi() {
        let b = Board::new(9);
        assert_eq!(evaluate(&b, 750), -750);
        let mut w = Board::new(9);
        w.set_to_move(Color::White);
        assert_eq!(evaluate(&w, 750), 750);
    }

    #[test]
    fn a_lone_stone_is_worth_itself_and_some_moyo_only() {
        let mut b = Board::new(9);
        b.play(Color::Black, Board::point_at(4, 4));
        // White to move: one stone, no territory, a few points of moyo.
        let v = -evaluate(&b, 0);
        assert!(v > UNIT && v < 20 * UNIT, "{v}");
        // A stone on the first line is worth less than one in the centre.
        let mut edge = Board::new(9);
        edge.play(Color::Black, Board::point_at(4, 0));
        assert!(-evaluate(&edge, 0) < v);
    }

    #[test]
    fn two_stones_on_the_third_line_claim_their_side() {
        let b = board_from(
            "
            .........
            .........
            ..O...O..
            .........
            .........
            .........
            ..X...X..
            .........
            .........",
        );
        assert_eq!(evaluate(&b, 0), 0);
        let mut own = [0i8; NUM_POINTS];
        ownership_estimate(&b, Color::Black, &mut own);
        for c in 0..9 {
            assert_eq!(own[Board::point_at(c, 0)], 1);
            assert_eq!(own[Board::point_at(c, 8)], -1);
            assert_eq!(own[Board::point_at(c, 4)], 0);
        }
    }

    #[test]
    fn a_stone_between_enemy_stones_claims_nothing() {
        // The black stone at e7 sits in white's sphere: its points are
        // eroded away, and white's side is still white's.
        let b = board_from(
            "
            .........
            .........
            ..O.X.O..
            .........
            .........
            .........
            ..X...X..
            .........
            .........",
        );
        let mut own = [0i8; NUM_POINTS];
        ownership_estimate(&b, Color::Black, &mut own);
        let black_top = (5..9)
            .flat_map(|r| (0..9).map(move |c| Board::point_at(c, r)))
            .filter(|&p| b.is_empty(p) && own[p] == 1)
            .count();
        assert_eq!(black_top, 0);
    }

    #[test]
    fn block_in_atari_counts_as_captured_whoever_moves() {
        let b = board_from(
            "
            .....
            .....
            ..X..
            .XOX.
            .....",
        );
        let mut own = [0i8; NUM_POINTS];
        for c in [Color::Black, Color::White] {
            let mut bb = b.clone();
            bb.set_to_move(c);
            ownership_estimate(&bb, c, &mut own);
            assert_eq!(own[Board::point_at(2, 1)], 1);
        }
    }

    #[test]
    fn a_weak_stone_in_enemy_territory_counts_as_dead() {
        // The white stone at g1 has no room to live among black's stones:
        // its point and its surroundings are black's.
        let b = board_from(
            "
            .........
            .........
            .........
            .........
            .........
            .XXXXXXX.
            .X.....X.
            .X.....X.
            ......O..",
        );
        let mut own = [0i8; NUM_POINTS];
        ownership_estimate(&b, Color::Black, &mut own);
        assert_eq!(own[Board::point_at(6, 0)], 1);
        // The same stone in open space is alive.
        let open = board_from(
            "
            .........
            .........
            .........
            .........
            .........
            .........
            .........
            .........
            ......O..",
        );
        ownership_estimate(&open, Color::Black, &mut own);
        assert_eq!(own[Board::point_at(6, 0)], -1);
    }

    #[test]
    fn a_weak_group_in_contact_counts_for_nobody() {
        // The two black stones on the right touch white's wall and have a
        // few points of room only: neither dead (four liberties) nor alive.
        let b = board_from(
            "
            .........
            .........
            .........
            .....O...
            .....O...
            .....OXX.
            .....O...
            .....O...
            .........",
        );
        let mut own = [0i8; NUM_POINTS];
        ownership_estimate(&b, Color::White, &mut own);
        assert_eq!(own[Board::point_at(6, 3)], 0);
        assert_eq!(own[Board::point_at(7, 3)], 0);
        // Without the contact, the same stones still count for black.
        let free = board_from(
            "
            .........
            .........
            .........
            ....O....
            ....O....
            ....O.XX.
            ....O....
            ....O....
            .........",
        );
        ownership_estimate(&free, Color::White, &mut own);
        assert_eq!(own[Board::point_at(6, 3)], 1);
    }

    #[test]
    fn benson_settles_regions_and_dead_stones_inside() {
        let b = board_from(
            "
            .XOX.
            XX.X.
            .XXX.
            XX...
            .X..O",
        );
        let mut own = [0i8; NUM_POINTS];
        ownership_estimate(&b, Color::White, &mut own);
        assert_eq!(own[Board::point_at(2, 4)], 1);
        assert_eq!(own[Board::point_at(2, 3)], 1);
        assert_eq!(own[Board::point_at(0, 0)], 1);
        // The white stone at (2,4) is in a vital region of the alive black
        // block; the one at (4,0) is weak and nearer to black stones.
        assert_eq!(
            weak_groups_dead(&b),
            vec![Board::point_at(4, 0), Board::point_at(2, 4)]
        );
    }

    #[test]
    fn lone_stone_in_enemy_territory_is_dead() {
        let b = board_from(
            "
            ..X.O..
            ..X.O..
            ..X.O..
            ..X.O..
            ..X.O.X
            ..X.O..
            ..X.O..",
        );
        assert_eq!(weak_groups_dead(&b), vec![Board::point_at(6, 2)]);
        // The walls themselves are not dead.
        let clean = board_from(
            "
            ..X.O..
            ..X.O..
            ..X.O..
            ..X.O..
            ..X.O..
            ..X.O..
            ..X.O..",
        );
        assert!(weak_groups_dead(&clean).is_empty());
    }
}
