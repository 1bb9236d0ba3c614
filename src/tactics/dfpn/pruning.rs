//! Relevance zones of threat proofs and the pruning they allow: what a
//! node of a threat search reads, the zone that a proof found after a
//! null move closes to ([`Search::pruning_zone`]), and whether that zone
//! may be transferred on the current path ([`Search::zone_usable`]). After
//! Thomsen (2000, "Lambda-search in game trees — with application to
//! Go"), whose λ-search answers a threat only inside the zone of the
//! proof behind it; what a move reads is [`Zone::add_move`]'s.
//!
//! # Why pruning by zones is sound
//!
//! The zone holds every point whose content the proof read: at each node,
//! the target's stones and liberties; for each move examined (played, or
//! found illegal), the point, its neighbours and every block next to it
//! with its liberties, except an enemy block of the mover with so many
//! liberties (`soft_libs`, more than the extra stones below can take
//! away, plus one) that the move cannot capture it before or after the
//! transfer: of such a block only its stone next to the move is read.
//! The mover's own blocks next to the move are always read whole: a
//! merged block's every liberty decides whether the opponent can capture
//! it next (a proof-check counterexample showed what goes wrong
//! otherwise). Claim: if the proof wins at X, it also wins at any
//! X' that differs from X by O stones on empty points outside the zone,
//! each placed where the proof had a null move (and by P blocks those
//! stones captured). By induction over the proof:
//!
//! * P's moves read only zone points, which are unchanged, so they are
//!   legal and do the same in X'. The goal and O's goal read only the
//!   target's stones and liberties, unchanged; a defender's goal reached
//!   by unconditional life also reads its certificate: the alive blocks
//!   with their liberties and the points of their vital regions. The
//!   regions are bounded by stones of alive blocks and their contents are
//!   read, so in X' they are the same regions, still touching only those
//!   blocks and still vital: the same certificate proves life (an O stone
//!   next to an alive block would sit on a read liberty).
//! * A threat search of the attacker gives up a line where the target
//!   lives unconditionally, or has won a race with the attacker to move
//!   (see `tactics::race`): it can never be captured there; giving up is
//!   a failure, and failures are never transferred.
//! * A P block with a stone in the zone was read whole, so an extra O
//!   stone next to it would sit on one of its liberties, inside the zone.
//!   A P block never read keeps its liberties through the proof, less the
//!   extra stones next to it; along one line there are at most as many
//!   extra stones as null moves (plus the stone being transferred), and
//!   [`Search::pruning_zone`] adds to the zone every P block next to a
//!   read O stone with no more liberties than that, so no block whose
//!   capture would give a read O block liberties can be captured.
//! * O's moves that were candidates have the same effect; O's moves
//!   outside a node's own null-move zone are covered by the claim itself,
//!   one level down (they take the place of that null move).
//! * P never passes in a threat proof, so the two-pass rule never decides
//!   a line of it, and a line that repeats a position is counted as a
//!   failure, not as a win.
//!
//! So at a node where O is to move and P, given a null move, wins with
//! zone Z: every O move outside the closed zone loses too, and only the
//! moves inside it (and O's pass, which differs from the null move only in
//! the pass count) need search. One more condition holds the argument on
//! the actual path: the positions of the transferred proof must not repeat
//! a position of the path, since the rules would end such a line for the
//! defender. For an attacker's proof this is checked like a stored capture
//! of df-pn (`capture_usable`), with the least stone counts of the
//! *transferred* positions ([`Transfer`]), not the proof's own:
//!
//! * every transferred position holds the defender's extra stone of the
//!   move being transferred (never captured: a block the attacker's moves
//!   capture was read whole, or has too many liberties), so the
//!   defender's least count is one more than the proof's;
//! * the attacker's blocks that the extra stones could capture (no stone
//!   in the zone, at most as many liberties as there are extra stones on
//!   a line) may be missing from a transferred position,
//!   so the attacker's least count is the proof's less their stones.
//!   Without that allowance such a position has fewer attacker stones than
//!   the bound says, and could repeat a state of the path that the check
//!   let through: a state from before the attacker built that block and
//!   captured defender stones that the extra stones put back. On the
//!   current path only the blocks with a stone played since the first
//!   state the check scans need it (a state that holds all of a block's
//!   stones never equals a position without them, and the extra stones
//!   never go on the block's points while it stands), which
//!   [`Search::transfer_usable`] looks up on the line; a bound stored
//!   for other paths ([`Transfer::min`]) takes every such block off.
//!
//! For the defender's proofs a repetition only helps the defender.
//!
//! The proof check (`tests/tactics_proof_check.rs`) compares every answer
//! of the searches built on this with exhaustive search.

use super::ghi::{capture_usable, Bound};
use super::search::Search;
use super::threats::Proof;
use crate::go::board::{Board, Point, PASS};
use crate::tactics::life;
use crate::tactics::rules::Winner;
use crate::tactics::zone::Zone;

impl Search<'_> {
    /// The reads of a node where `prover` has reached its goal: the
    /// target's stones and liberties, and for a defender that lives
    /// unconditionally what its certificate read (the alive blocks with
    /// their liberties and their vital regions: see `life` for why an
    /// attacker stone anywhere else leaves it standing).
    pub(super) fn goal_reads(&self, prover: Winner, zone: &mut Zone) {
        self.node_reads(prover, zone);
        if prover == Winner::Defender && !self.escaped() && self.target_on() {
            let alive = life::target_lives(self.game.board(), self.target, Some(zone));
            debug_assert!(alive, "the defender's goal is reached");
        }
    }

    /// The reads of a node: the target's stones and liberties.
    pub(super) fn node_reads(&self, _prover: Winner, zone: &mut Zone) {
        if self.target_on() {
            zone.add_block(self.game.board(), self.target);
        } else if self.game.retake_pending() {
            // The defender's retake is a reply every zone must hold.
            zone.insert(self.target);
        }
    }

    /// The points where a move of the opponent of `prover` at the current
    /// node must be searched, given the proof `p` found after its null
    /// move: the proof's zone, closed under the one way an extra stone
    /// away from it could matter. Extra stones of the opponent placed
    /// outside the zone along any line of the transferred proof number at
    /// most its null moves plus one (each replaces a null move of the
    /// original, and one is the move itself); a block of the prover with
    /// more liberties than that, never read by the proof, can never be
    /// captured by them. A block with fewer, next to a stone of the
    /// opponent that the proof read, could be, and would give that stone's
    /// block liberties: it joins the zone with its liberties.
    pub fn pruning_zone(&self, prover: Winner, p: &Proof) -> Transfer {
        let b = self.game.board();
        let pc = self.color_of(prover);
        let d = p.nulls as usize + 1;
        debug_assert!(
            d + 2 <= self.soft_libs,
            "soft reads assume few extra stones"
        );
        let mut z = p.zone;
        let mut done = Zone::new();
        for s in p.zone.iter() {
            let around: &[Point] = match b.color_at(s) {
                Some(c) if c == pc => &[s],
                Some(_) => &Board::neighbors(s),
                None => &[],
            };
            for &n in around {
                if b.color_at(n) != Some(pc) || done.contains(b.block(n)) {
                    continue;
                }
                done.insert(b.block(n));
                if b.libs(n) <= d {
                    z.add_block(b, n);
                }
            }
        }
        let mut t = Transfer {
            zone: z,
            min: p.min,
            base: p.min,
            removable: Zone::new(),
        };
        if prover == Winner::Attacker {
            // Every transferred position holds the defender's extra stone
            // of the move itself, which the proof never captures (see
            // above).
            t.base = t.base.shifted(pc.opp().index(), 1, 0);
            // The attacker's blocks that extra stones could capture: few
            // liberties and no stone in the zone (a block with one was
            // read whole at some node of the proof, its liberties with it,
            // and the extra stones of this transfer go elsewhere; those of
            // a transfer further down are that transfer's to count). A
            // liberty in the zone does not keep a block safe: an extra
            // stone of a transfer further down may go there.
            let mut lost = 0;
            let mut take = |q: Point| {
                if !t.zone.contains(q) {
                    lost += b.block_size(q);
                    t.removable.add_block(b, q);
                }
            };
            if d == 1 {
                // The usual case at low orders: the board keeps its blocks
                // in atari, so the board need not be looked over.
                b.for_each_atari_block(pc, &mut take);
            } else {
                let size = b.size();
                for row in 0..size {
                    for col in 0..size {
                        let q = Board::point_at(col, row);
                        if b.color_at(q) == Some(pc) && b.block(q) == q && b.libs(q) <= d {
                            take(q);
                        }
                    }
                }
            }
            t.min = t.base.shifted(pc.index(), 0, lost as u16);
        }
        t
    }

    /// Whether the proof `t` transfers may be transferred on this path:
    /// [`Search::zone_usable`] with the least counts of the transferred
    /// positions, where only the attacker's removable blocks (see the
    /// module documentation) that could be missing from a state of the
    /// path count: a state that holds a block's stones, all of them there
    /// since, never equals a transferred position without it. A block
    /// whose stones were all played before the first state the check
    /// scans (the target has not grown since) is in every such state.
    pub fn transfer_usable(&self, prover: Winner, t: &Transfer) -> bool {
        let mut min = t.base;
        if prover == Winner::Attacker && !t.removable.is_empty() {
            let (me, path) = self.anc.split_last().expect("the node is on the stack");
            // The first state the check scans; the move from state `j`
            // is the path's move `j`.
            let first = path
                .iter()
                .rposition(|s| s.target < me.target)
                .map_or(0, |i| i + 1);
            let played = self.game.path_moves().skip(first);
            let lost = played_stones(self.game.board(), played, &t.removable);
            min = min.shifted(self.attacker.index(), 0, lost as u16);
        }
        self.zone_usable(prover, &min)
    }

    /// Whether a proof of `prover` whose positions have at least the
    /// stone counts `min` may be used or transferred on this path (see
    /// the module documentation): the current node's ancestors must not
    /// hold a position it could repeat.
    pub fn zone_usable(&self, prover: Winner, min: &Bound) -> bool {
        if prover == Winner::Defender {
            return true;
        }
        let (me, path) = self.anc.split_last().expect("the node is on the stack");
        capture_usable(min, me, path)
    }
}

/// The stones of the blocks of `removable` (whole blocks of board `b`)
/// that have a stone on one of the points `played`: the blocks not all of
/// whose stones were there before those moves.
fn played_stones(b: &Board, played: impl Iterator<Item = Point>, removable: &Zone) -> usize {
    let mut heads = Zone::new();
    let mut lost = 0;
    for m in played {
        if m != PASS && removable.contains(m) && !heads.contains(b.block(m)) {
            heads.insert(b.block(m));
            lost += b.block_size(m);
        }
    }
    lost
}

/// A threat proof found after a null move, transferred to the moves
/// outside its zone ([`Search::pruning_zone`]).
pub struct Transfer {
    /// The closed zone: only moves on it need a search.
    pub zone: Zone,
    /// The least stone counts of the transferred proof's positions per
    /// class, on every path.
    pub min: Bound,
    /// The same before the removable blocks are taken off.
    pub base: Bound,
    /// The stones of the attacker's blocks that the extra stones could
    /// capture (the attacker's proofs only).
    pub removable: Zone,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::go::Color;

    #[test]
    fn only_blocks_played_on_the_line_count() {
        let mut b = Board::new(9);
        let at = |c, r| Board::point_at(c, r);
        // Two white blocks: a pair and a lone stone, both removable.
        for p in [at(0, 0), at(1, 0), at(5, 5)] {
            b.play(Color::White, p);
        }
        let mut removable = Zone::new();
        removable.add_block(&b, at(0, 0));
        removable.add_block(&b, at(5, 5));
        // Nothing of theirs played on the line: no state lacks them.
        assert_eq!(
            played_stones(&b, [at(3, 3), PASS].into_iter(), &removable),
            0
        );
        // One stone of the pair played (twice): the pair counts, once.
        let line = [at(1, 0), at(3, 3), at(1, 0)];
        assert_eq!(played_stones(&b, line.into_iter(), &removable), 2);
        // Both blocks.
        let line = [at(0, 0), at(5, 5)];
        assert_eq!(played_stones(&b, line.into_iter(), &removable), 3);
    }
}
