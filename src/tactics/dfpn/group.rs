//! The group of a full-width frame: the quiet moves of a node (legal,
//! on an empty point that is no liberty of the target, capturing nothing),
//! counted as one child with the numbers such a move gets, and split off one
//! by one in board order when the aggregation selects it (see the module
//! documentation of [`frame`](super::frame) for why, and for the count).

use super::child::Here;
use super::frame::Frame;
use super::numbers::{rank, Child, Members};
use super::search::{Pending, Search};
use crate::go::board::{Point, PASS};
use crate::tactics::zone::Zone;

impl Search<'_> {
    /// Whether a move on `p` is a member of the group: a legal move on an
    /// empty point that touches no stone of the target (it is not one of
    /// its liberties) and captures nothing. The explicit moves of
    /// [`Search::explicit_moves`] are the other empty points. Such a move
    /// is illegal only as a suicide (a ko point is a capture).
    #[inline(always)]
    pub(super) fn is_member(&self, p: Point, here: &Here) -> bool {
        let b = self.game.board();
        let mover = self.game.to_move();
        b.is_empty(p) && !here.libs.contains(p) && b.is_quiet_legal(mover, p)
    }

    /// Sets up the group of a plain node whose explicit moves are in the
    /// move list; `losses`: the flags of the attacker's win and the stone
    /// counts after a defender's move when every member loses at once
    /// ([`Search::atari_losses`]).
    /// `first`: where the scan for the first member from the frame's
    /// cursor stops, when the caller has made it (no member before it:
    /// membership reads only the board and the target's liberties, which
    /// the expansion leaves as they are).
    pub(super) fn start_group(
        &mut self,
        f: &mut Frame,
        losses: Option<(u8, [u16; 2])>,
        first: Option<u16>,
    ) {
        let att = self.game.to_move() == self.attacker;
        if self.ladder && att && self.target_libs() != 1 {
            // λ¹: no member puts the target in atari.
            return;
        }
        if let Some((flags, counts)) = losses {
            // Each member's proof is its own position: the attacker
            // captures from there.
            f.lost.fold_unlisted(flags, self.after_defender(counts));
            return;
        }
        // Every empty point is a legal move but for the suicides: the
        // opponent's eye points and some liberties of the mover's blocks in
        // atari. The explicit moves are empty points too.
        let b = self.game.board();
        let mover = self.game.to_move();
        let opp = mover.opp();
        let mut illegal = b.eye_count(opp);
        let mut explicit = 0u32;
        for &m in self.moves.iter() {
            if m != PASS {
                explicit += 1;
                illegal -= b.is_eye(opp, m) as usize;
            }
        }
        let mut seen = Zone::new();
        b.for_each_atari_block(mover, |h| {
            if let Some(l) = b.first_liberty(h) {
                // Explicit when a liberty of the target or a capture; a
                // suicide captures nothing, so only the first is asked.
                if !seen.contains(l) && !f.here.libs.contains(l) && b.is_suicide(mover, l) {
                    illegal += 1;
                    seen.insert(l);
                }
            }
        });
        let (phi, delta) = self.quiet_numbers(false, f.here.replies);
        f.group = Members {
            count: f.here.replies - explicit - illegal as u32,
            phi,
            delta,
            rank: 0,
        };
        if let Some(p) = first {
            f.cursor = p;
        }
        self.seek(f);
        if first.is_none() {
            // Otherwise the expansion asked for this member's bucket
            // already, when it found it.
            self.prefetch_member(f);
        }
    }

    /// Advances the scan, up to the point `limit`, to the next member and
    /// evaluates it (as [`Search::init_child`] does: `None` when the move
    /// turns out illegal or excluded); `None` when no member is left before
    /// `limit`. The count drops by one for each member the scan passes, and
    /// to 0 at the end of the board.
    #[allow(clippy::type_complexity)]
    pub(super) fn next_member(
        &mut self,
        f: &mut Frame,
        limit: u16,
    ) -> Option<Option<(Child, Option<Pending>)>> {
        if f.group.count == 0 || f.cursor >= limit {
            return None;
        }
        let p = f.cursor as Point;
        f.group.count -= 1;
        f.cursor += 1;
        self.seek(f);
        self.stats.splits += 1;
        Some(self.init_child(p, &f.here))
    }

    /// Moves the cursor to the next member, the group's first, at or after
    /// it. The count is exact: at the end of the board it is 0.
    pub(super) fn seek(&self, f: &mut Frame) {
        let mut p = f.cursor as usize;
        let end = f.end as usize;
        while p < end && !self.is_member(p, &f.here) {
            p += 1;
        }
        f.cursor = p as u16;
        f.group.rank = rank(p as u16);
        debug_assert_eq!(p >= end, f.group.count == 0, "the count is exact");
        if p >= end {
            f.group.count = 0;
        }
    }

    /// Splits the next member off the group (the group was selected), with
    /// its table numbers when the table has it.
    pub(super) fn split(&mut self, f: &mut Frame) {
        if let Some(Some((c, p))) = self.next_member(f, u16::MAX) {
            self.place_child(f, c, p);
        }
        self.prefetch_member(f);
    }

    /// Prefetches the table bucket of the group's next member, which the
    /// next [`Search::split`] of this frame probes, usually after a child's
    /// search: by then the bucket is in the cache.
    pub(super) fn prefetch_member(&self, f: &Frame) {
        if f.group.count > 0 {
            self.prefetch_child(f.cursor as Point);
        }
    }
}
