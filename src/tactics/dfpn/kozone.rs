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
use crate::tactics::zone::Zone;

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

    /// Whether `k` starts a ko loop ([`Search::ko_loop`]), without its
    /// reads: the same tests on the same positions, only the zones (which
    /// change nothing the tests look at) are left out. The plain search
    /// asks this at every attacker node without a ban, for every explicit
    /// move, and building the zones was most of that cost.
    pub(super) fn starts_ko_loop(&mut self, k: Point) -> bool {
        self.ko_loop_reads(k, false).is_some()
    }

    /// [`Search::ko_loop`]; with `reads` false the zone returned is empty.
    fn ko_loop_reads(&mut self, k: Point, reads: bool) -> Option<Zone> {
        let (attacker, defender, target) = (self.attacker, self.defender(), self.target);
        let b = self.game.board();
        if !self.loops_possible() || k == PASS || !b.is_empty(k) {
            return None;
        }
        // Exactly one stone taken: one neighbour, a lone stone in atari.
        let taken = Board::neighbors(k)
            .into_iter()
            .filter(|&n| b.color_at(n) == Some(defender) && b.libs(n) == 1)
            .map(|n| b.block_size(n))
            .sum::<usize>();
        if taken != 1 || b.check_ignoring_ko(attacker, k).is_err() {
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
