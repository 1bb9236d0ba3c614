//! Ko at the zone fixed point (`fixpoint`): the attacker's ko bans and
//! ko captures, where a far move is a ko threat.
//!
//! Two devices, both argued in `fixpoint`'s module documentation:
//!
//! * the **ko loop**, when the ko model favours the defender: the
//!   attacker's capture of one stone whose retake by the defender brings
//!   back the same stones is refuted by that retake. The ban it leaves on
//!   the attacker is one of the bans the node's family allows, so such a
//!   move needs no child, and a ban on such a ko needs no pseudo-child;
//! * the **pseudo-child** [`NULL_MOVE`] otherwise, for a ban that binds
//!   the attacker: the node's position after the attacker's *null move*
//!   (Thomsen 2000's λ-search and Yoshizoe, Kishimoto & Müller 2007's
//!   λ-df-pn ask the same "what if the opponent played elsewhere?"), the
//!   defender to move with no ban and no pass just played. It stands for
//!   every attacker move outside the node's zone, a possible ko threat,
//!   and must be won by the defender; the zone of that proof (Kishimoto &
//!   Müller 2005's relevance zone) holds the far moves.
//!
//! The pseudo-child was first the null move *and the defender's pass*,
//! the attacker to move again with the ban lifted. The defender's reply to
//! a ko threat is then always the pass, and the attacker retakes the ko:
//! on capture test 18 (`web000103`, after black F6, nobody favoured),
//! 3,688,562 of the 4,142,353 failed fixed points of `fixpoint-dfpn` in
//! 40M nodes were that pseudo-child won by the attacker. With the defender
//! to move it may answer the threat by ending the ko (connecting, taking
//! the stone in atari) as a player does; the pass is still one of its
//! moves, and it leads to the old pseudo-child's very position, so every
//! node the old one proved, the new one proves too.
//!
//! A ko fight in the capture game under positional superko (GNU Go's
//! tactical reading, and seed 000's treatment of repetition as the
//! graph-history interaction) makes every far move a possible ko threat;
//! these are the two cases where the far moves can still be shown to
//! change nothing.

use super::frame::Frame;
use super::numbers::{Child, NO_MOVE};
use super::search::Search;
use super::zones::defender_reads;
use crate::go::board::{Board, Point, PASS};
use crate::go::Color;
use crate::tactics::zone::Zone;

/// Whether the attacker's move `k` on board `b` starts a ko loop (see
/// [`Search::ko_loop`], which plays it), read without playing. Playing
/// `k`, then the defender's retake, finds a loop exactly when:
///
/// * `k` is empty and takes exactly one stone `s`: one neighbour is a lone
///   defender stone in atari and no other neighbour is a defender block in
///   atari (the count of stones taken is 1). Such a capture is legal,
///   whatever the ban (capturing is never suicide);
/// * after it, `k`'s stone is alone with one liberty: no neighbour of `k`
///   is an attacker stone (it would join it) or empty but `s` (now empty);
///   the other neighbours are defender stones (not taken) or border. Its
///   one liberty is then `s`, the retake;
/// * the target is on the board before `k` (if `k` takes the target, `s`
///   is the target; if the target is off the board, a retake pending, `s`
///   is some other stone and the played test fails);
///
/// and then the retake on `s` is legal (it takes `k`'s stone, whose only
/// liberty it fills), takes that one stone only (every other neighbour of
/// `s` is an attacker stone or border: `s` was a lone stone with the one
/// liberty `k`, and those attacker blocks keep the liberties they had
/// before `k`, none of which is `k`: a block next to `k` would have
/// joined it), puts back exactly the stones of `b` (same hash), and as
/// its stone joins no block and has the one liberty `k`, bans the
/// attacker from `k`. Debug builds check the two agree at every call, and
/// a test compares them on random boards.
pub(super) fn ko_loop_shape(b: &Board, attacker: Color, target: Point, k: Point) -> bool {
    let defender = attacker.opp();
    if k == PASS || !b.is_empty(k) || b.color_at(target) != Some(defender) {
        return false;
    }
    let mut taken = 0;
    for n in Board::neighbors(k) {
        match b.color_at(n) {
            Some(c) if c == defender => {
                if b.libs(n) == 1 {
                    taken += b.block_size(n);
                }
            }
            Some(_) => return false,
            None => {
                if b.is_empty(n) {
                    return false;
                }
            }
        }
    }
    taken == 1
}

/// The move of the pseudo-child of an attacker node under a ko ban: the
/// attacker's null move (see the module documentation).
pub const NULL_MOVE: u16 = NO_MOVE - 1;

impl Search<'_> {
    /// Whether the ko model favours the defender: only then can the ko
    /// loop close.
    fn loops_possible(&self) -> bool {
        self.game.model().favoured == Some(self.defender())
    }

    /// The ko loop at the attacker's move `k` from the current node, the
    /// attacker to move (any ban on `k` ignored): `k` takes one defender
    /// stone (it may be the target), its own stone is left alone with one
    /// liberty, and the defender, favoured by the ko model, retakes there
    /// at once, back to this node's stones with the attacker banned from
    /// `k`. Returns what the loop reads: the target block, the attacker's
    /// capture and the defender's retake; `None` when `k` starts no such
    /// loop. Played on the board alone: only the stones and the ban matter
    /// to the family the loop stands for, not the line's rules.
    pub(super) fn ko_loop(&mut self, k: Point) -> Option<Zone> {
        self.ko_loop_reads(k, true)
    }

    /// Whether `k` starts a ko loop ([`Search::ko_loop`]), read from the
    /// board without playing ([`ko_loop_shape`]). The plain search asks
    /// this at every attacker node without a ban, for every explicit move;
    /// playing the capture and the retake, and building the zones, were
    /// most of that cost.
    pub(super) fn starts_ko_loop(&mut self, k: Point) -> bool {
        let b = self.game.board();
        let shape = self.loops_possible() && ko_loop_shape(b, self.attacker, self.target, k);
        debug_assert_eq!(
            shape,
            self.ko_loop_reads(k, false).is_some(),
            "ko loop at {k}"
        );
        shape
    }

    /// [`Search::ko_loop`]; with `reads` false the zone returned is empty.
    fn ko_loop_reads(&mut self, k: Point, reads: bool) -> Option<Zone> {
        let (attacker, defender, target) = (self.attacker, self.defender(), self.target);
        let b = self.game.board();
        if !self.loops_possible() || k == PASS || !b.is_empty(k) {
            return None;
        }
        if !takes_one_stone(b, attacker, k) {
            return None;
        }
        let hash = b.hash();
        let mut z = Zone::new();
        if reads {
            z = self.target_zone();
            self.attacker_reads(k, &mut z);
        }
        let retake = self.game.peek(attacker, k, |b| {
            // The stone taken may be the target itself: a lone target taken
            // by a ko capture is retaken by the favoured defender and the
            // line goes on (`CaptureGame::retake_pending`), so the loop is
            // the same as for any other stone.
            if b.block_size(k) != 1 || b.libs(k) != 1 {
                return None;
            }
            if b.color_at(target) != Some(defender) && b.first_liberty(k) != Some(target) {
                return None;
            }
            let d = b.first_liberty(k)?;
            // Favoured: the ban the capture left does not bind.
            b.check_ignoring_ko(defender, d).ok()?;
            let mut zone = Zone::new();
            if reads {
                defender_reads(b, attacker, d, &mut zone);
            }
            let u = b.play(defender, d);
            let back = b.hash() == hash && b.ko_point(attacker) == Some(k);
            b.undo(&u);
            back.then_some(zone)
        })?;
        z.union(&retake);
        Some(z)
    }

    /// Whether the current node's ban on the attacker (if any) is on a ko
    /// that starts a loop: then the node needs no pseudo-child.
    pub(super) fn ban_on_loop(&mut self) -> bool {
        let ko = self.game.board().ko_point(self.attacker);
        ko.is_some_and(|k| self.starts_ko_loop(k))
    }

    /// Leaves out of the move list the attacker's captures that start a ko
    /// loop: the loop refutes them, and the zone's growth reads them when
    /// they come into the zone.
    pub(super) fn drop_loop_kos(&mut self) {
        if !self.loops_possible() {
            return;
        }
        let mut kept = 0;
        for i in 0..self.moves.len() {
            let m = self.moves[i];
            if !self.starts_ko_loop(m) {
                self.moves[kept] = m;
                kept += 1;
            }
        }
        self.moves.truncate(kept);
    }

    /// Outside the zone fixed point: at an attacker node with no ban on
    /// the attacker, leaves out the captures that start a ko loop, and
    /// says whether there were any. Such a capture is never needed: after
    /// it and the favoured defender's retake, the attacker is to move with
    /// the node's stones, banned from the capture and from nothing else
    /// (the node had no ban), on a longer path. Every other move leads to
    /// the position it leads to from the node, on a path holding the
    /// node's, where every repetition of the shorter path still ends the
    /// line for the defender, and a pass leaves the defender to move after
    /// one pass either way (a pass just played at the node only lets the
    /// attacker's pass end the line at once, for the defender). So the
    /// capture wins for the attacker only if another move of the node
    /// does, on every path; the node's value is unchanged without it, and
    /// a loss found without it holds only under the defender's favour
    /// (`KO`).
    pub(super) fn drop_loop_kos_unbanned(&mut self) -> bool {
        let g = &self.game;
        if g.to_move() != self.attacker || g.board().ko_point(self.attacker).is_some() {
            return false;
        }
        let before = self.moves.len();
        self.drop_loop_kos();
        let dropped = self.moves.len() != before;
        self.stats.loop_drops += dropped as u64;
        dropped
    }

    /// The pseudo-child of an attacker node under a ko ban: it stands for
    /// the node's position after the attacker's null move, the defender to
    /// move with no ban. Never a winning child: when the attacker wins
    /// there, the pseudo-child is dropped and the node's zone is the whole
    /// board.
    pub(super) fn null_move_child(&self) -> Child {
        Child::new(NULL_MOVE, 1, 1, NULL_MOVE)
    }

    /// Plays the attacker's null move: the position of the pseudo-child.
    /// False (nothing played) when a cut ends it (its position repeats one
    /// of the path, or the depth limit): a cut line keeps no zone.
    pub(super) fn play_null_move(&mut self) -> bool {
        if !self.play_null() {
            return false;
        }
        if self.game.winner().is_none() {
            return true;
        }
        self.undo();
        false
    }

    /// Searches the pseudo-child `i` of the frame (see
    /// [`Search::null_move_child`]) with the child thresholds. The
    /// defender moves there, as at any child of the frame, whose children
    /// carry the defender's numbers.
    pub(super) fn search_null_move(&mut self, f: &mut Frame, i: usize, th_phi: u32, th_delta: u32) {
        let before = self.nodes;
        let v = if self.play_null_move() {
            let v = self.mid(th_phi, th_delta, false);
            self.undo();
            Some(v)
        } else {
            None
        };
        match v {
            Some(v) if v.delta != 0 => {
                let slot = &mut self.arena[f.base + i];
                slot.phi = v.phi;
                slot.set_delta(v.delta);
                slot.flags = v.flags;
                slot.work = slot.work.saturating_add((self.nodes - before) as u32);
                self.settle(f, i);
            }
            _ => {
                // The attacker wins there, or the line is cut: the far
                // moves are not known to lose, and the node must be
                // searched full width.
                self.arena.remove(f.base + i);
                self.closure(f).full = true;
                self.stats.fix_fail_ko += 1;
            }
        }
    }
}

/// Whether the attacker's move at the empty point `k` is legal (ko
/// aside) and captures exactly one stone: one neighbour, a lone stone in
/// atari.
fn takes_one_stone(b: &Board, attacker: Color, k: Point) -> bool {
    let taken = Board::neighbors(k)
        .into_iter()
        .filter(|&n| b.color_at(n) == Some(attacker.opp()) && b.libs(n) == 1)
        .map(|n| b.block_size(n))
        .sum::<usize>();
    taken == 1 && b.check_ignoring_ko(attacker, k).is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// [`Search::ko_loop`]'s test, played on the board: the capture, then
    /// the retake on the captured stone's point brings back the stones
    /// with the attacker banned from `k`.
    fn played(b: &mut Board, attacker: Color, target: Point, k: Point) -> bool {
        let defender = attacker.opp();
        if k == PASS || !b.is_empty(k) {
            return false;
        }
        if !takes_one_stone(b, attacker, k) {
            return false;
        }
        let hash = b.hash();
        let u = b.play(attacker, k);
        let mut back = false;
        if b.block_size(k) == 1
            && b.libs(k) == 1
            && (b.color_at(target) == Some(defender) || b.first_liberty(k) == Some(target))
        {
            let d = b.first_liberty(k).expect("one liberty");
            if b.check_ignoring_ko(defender, d).is_ok() {
                let v = b.play(defender, d);
                back = b.hash() == hash && b.ko_point(attacker) == Some(k);
                b.undo(&v);
            }
        }
        b.undo(&u);
        back
    }

    /// The shape read from the board agrees with playing, on every empty
    /// point of random crowded boards, for both attackers and every stone
    /// as the target (and an empty target point: a retake pending).
    #[test]
    fn loop_shape_agrees_with_playing() {
        let mut seed = 0x2545_F491_4F6C_DD1Du64;
        let mut next = move |n: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n as u64) as usize
        };
        let (mut loops, mut asked) = (0, 0);
        for _ in 0..300 {
            let size = 4 + next(4);
            let mut b = Board::new(size);
            let points: Vec<Point> = b.points().collect();
            let mut color = Color::Black;
            for _ in 0..next(size * size * 2) {
                let p = points[next(points.len())];
                if b.is_legal(color, p) {
                    b.play(color, p);
                    color = color.opp();
                }
            }
            for &target in &points {
                for attacker in [Color::Black, Color::White] {
                    for &k in &points {
                        let want = played(&mut b, attacker, target, k);
                        assert_eq!(ko_loop_shape(&b, attacker, target, k), want, "k {k}");
                        loops += want as usize;
                        asked += 1;
                    }
                }
            }
        }
        assert!(loops > 100, "{loops} loops in {asked} questions");
    }
}
