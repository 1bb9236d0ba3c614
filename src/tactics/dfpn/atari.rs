//! The defender's moves that lose at once: when the defender is to move
//! with the target in atari, a move that leaves the target in atari (no
//! ko ban on its liberty, no capture next to it) lets the attacker capture
//! next. The frame ([`frame`](super::frame)) decides such moves without
//! playing them: the group's members all at once
//! ([`Search::atari_losses`]), and far captures one by one
//! ([`Search::far_capture_loss`]), unless the position after the move could
//! repeat one of the path, which the capture game counts as the
//! defender's win.

use super::child::Here;
use super::ghi::{self, Bound};
use super::numbers::{Child, Value};
use super::search::Search;
use super::tt::KO;
use crate::go::board::{Board, Point, PASS};
use crate::tactics::rules::MAX_DEPTH;

impl Search<'_> {
    /// The target's liberty and the flags of the attacker's win by its
    /// capture, when the defender is to move with the target in atari and
    /// the line is far from the depth limit. Then every move of the
    /// defender that leaves the target in atari without a ko ban on its
    /// liberty loses at once: the attacker captures next (capturing is
    /// never suicide), unless the position after the move repeats one of
    /// the path (see [`Search::could_repeat`]). The flags are `KO` when
    /// that capture may be a ko capture of a lone stone, which ends the
    /// line under this model only ([`Search::capture_end_flags`]).
    pub(super) fn defender_in_atari(&self, here: &Here) -> Option<(Point, u8)> {
        let g = &self.game;
        debug_assert_eq!(here.libs0, self.target_libs());
        if g.to_move() == self.attacker || here.libs0 != 1 || g.depth() + 1 >= MAX_DEPTH {
            return None;
        }
        // The attacker's capture of a lone target stone may be a ko capture
        // that the favoured defender retakes (`CaptureGame::capture_is_final`):
        // the capture is surely no ko capture after any one defender move
        // when a second empty neighbour of the liberty (one move fills at
        // most one) or an attacker stone next to it ensures it.
        let lib = here.libs.iter().next()?;
        let size = g.board().block_size(self.target) as u16;
        let mut spare = PASS;
        for n in Board::neighbors(lib) {
            if n != self.target && g.board().is_empty(n) {
                spare = n;
                break;
            }
        }
        Some((lib, self.capture_end_flags(size, lib, spare)?))
    }

    /// Whether a position after one move from here, with the stone counts
    /// `counts` and the same target block, could repeat a position of the
    /// path: only one with those counts could, and none before the
    /// target's last growth.
    fn could_repeat(&self, counts: [u16; 2]) -> bool {
        let Some(me) = self.anc.last() else {
            return false;
        };
        for s in self.anc.iter().rev() {
            if s.target < me.target {
                break;
            }
            if s.counts == counts {
                return true;
            }
        }
        false
    }

    /// The bound (`ghi`) of the position after a defender's stone (no pass)
    /// with the stone counts `counts`: the attacker is to move there.
    pub(super) fn after_defender(&self, counts: [u16; 2]) -> Bound {
        Bound::at(&super::search::Anc {
            counts,
            target: 0,
            passed: false,
            class: ghi::class(self.attacker, false),
        })
    }

    /// When the defender is to move with the target in atari: its liberty,
    /// and the stone counts after a defender's stone that captures nothing,
    /// provided no position of the path could be repeated by such a move.
    /// Then every legal move of the defender other than the pass, the
    /// liberty and a capture loses at once (see
    /// [`Search::defender_in_atari`]): such a move leaves the target its
    /// one liberty and no ko ban. Otherwise `None`, and such moves are
    /// evaluated one by one.
    /// `in_atari`: what [`Search::defender_in_atari`] found here; its
    /// flags go with the liberty.
    pub(super) fn atari_losses(
        &self,
        in_atari: Option<(Point, u8)>,
    ) -> Option<(Point, u8, [u16; 2])> {
        let (lib, flags) = in_atari?;
        let mut counts = self.anc.last()?.counts;
        counts[self.game.to_move().index()] += 1;
        (!self.could_repeat(counts)).then_some((lib, flags, counts))
    }

    /// The defender's capture `m`, legal, away from the target (not on its
    /// liberty `lib`, capturing no block next to it), when the target is
    /// in atari: it loses at once (see [`Search::defender_in_atari`]), as
    /// the target keeps its one liberty and a ko ban the capture leaves is
    /// on the captured stone's point, not on the liberty. `None` when the
    /// position after it could repeat one of the path. The child carries
    /// the `KO` flag when the capture leaves a ko ban, as `exact` finds.
    pub(super) fn far_capture_loss(&self, m: Point, lib: Point) -> Option<Child> {
        let b = self.game.board();
        let defender = self.defender();
        let mut counts = self.anc.last()?.counts;
        counts[defender.index()] += 1;
        let mut heads = [0; 4];
        let mut blocks = 0;
        let mut captured = 0;
        let mut open = false;
        for n in Board::neighbors(m) {
            match b.color_at(n) {
                Some(c) if c == self.attacker && b.libs(n) == 1 => {
                    let h = b.block(n);
                    if !heads[..blocks].contains(&h) {
                        heads[blocks] = h;
                        blocks += 1;
                        captured += b.block_size(h);
                    }
                }
                Some(c) => open |= c == defender,
                None => open |= b.is_empty(n),
            }
        }
        counts[self.attacker.index()] -= captured as u16;
        if self.could_repeat(counts) {
            return None;
        }
        let own = self.after_defender(counts);
        // As the board sets a ko ban: one stone captured by a stone that
        // joins no block and has no other liberty.
        let ko = captured == 1 && !open;
        let mut c = Child::fresh(m);
        c.set(
            Value::solved(true, if ko { KO } else { 0 }, lib as u16),
            own,
        );
        Some(c)
    }
}
