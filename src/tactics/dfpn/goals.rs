//! Whether a side has won the capture game, asked of the position: the
//! goals of the threat searches ([`Search::goal`]; see `threats` for the
//! goal of a λ⁰ win, after Thomsen 2000, "Lambda-search in game trees —
//! with application to Go"), and the defender wins df-pn's nodes check
//! before searching: unconditional life (Benson 1976, see
//! [`crate::tactics::life`]), life by ko eyes under the ko model
//! ([`crate::tactics::kolife`]) and a won race ([`crate::tactics::race`]).
//! What a goal node reads, for the zones, is in `pruning`.

use super::search::Search;
use crate::go::board::{Board, Point};
use crate::go::Color;
use crate::tactics::race;
use crate::tactics::rules::Winner;
use crate::tactics::zone::Zone;
use crate::tactics::{kolife, life};

/// One slot of the life cache: a position's key (board hash and target
/// point) and whether Benson's criterion proves the target alive there.
/// A verdict is a fact of the stones alone, so it holds on every path and
/// under every ko model; two positions share a key with the same 2⁻⁶⁴
/// chance the transposition table accepts.
#[derive(Clone, Copy, Default)]
pub struct LifeSlot {
    pub key: u64,
    pub alive: bool,
}

/// Slots of the life cache (a power of two). A megabyte: df-pn comes back
/// to a node many times, and at 2¹² slots many verdicts were written over
/// before the visit that wanted them (capture.tst, 200k nodes a problem:
/// 2¹⁴ slots saved 12 instructions a node, 2¹⁶ 29, 2¹⁸ no more). Cleared
/// only when the problem changes, like the other tables.
pub const LIFE_SLOTS: usize = 1 << 16;

impl Search<'_> {
    pub fn color_of(&self, side: Winner) -> Color {
        match side {
            Winner::Attacker => self.attacker,
            Winner::Defender => self.attacker.opp(),
        }
    }

    pub fn side_of(&self, c: Color) -> Winner {
        if c == self.attacker {
            Winner::Attacker
        } else {
            Winner::Defender
        }
    }

    /// Whether the empty point `q` is a liberty of the target.
    pub(super) fn is_target_liberty(&self, q: Point) -> bool {
        let b = self.game.board();
        self.target_on()
            && Board::neighbors(q).iter().any(|&n| {
                b.color_at(n) == Some(self.attacker.opp()) && b.block(n) == b.block(self.target)
            })
    }

    pub(super) fn target_on(&self) -> bool {
        self.game.board().color_at(self.target) == Some(self.attacker.opp())
    }

    /// Whether `side` has reached its goal: for the attacker the capture,
    /// for the defender the escape liberties or unconditional life (see
    /// [`crate::tactics::life`]; it is a defender win of the capture game).
    pub fn goal(&self, side: Winner) -> bool {
        match side {
            Winner::Attacker => !self.target_on() && !self.game.retake_pending(),
            Winner::Defender => self.escaped() || self.target_lives(),
        }
    }

    pub(super) fn escaped(&self) -> bool {
        self.target_on() && self.game.board().libs(self.target) >= self.game.problem().escape_libs
    }

    /// Whether the target, not escaped yet, is unconditionally alive.
    /// Asked at nearly every node, and again each time df-pn comes back to
    /// a node, so the verdict is kept in a small cache by position.
    pub fn target_lives(&self) -> bool {
        let b = self.game.board();
        if !self.target_on() || b.libs(self.target) >= self.game.problem().escape_libs {
            return false;
        }
        // Benson's criterion reads the stones only, and the board's hash
        // covers exactly them; the target point names the block. Never 0,
        // the key of an empty slot.
        let key = (b.hash() ^ (self.target as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15)) | 1;
        let slot = &self.life_cache[(key >> 48) as usize & (LIFE_SLOTS - 1)];
        let seen = slot.get();
        if seen.key == key {
            return seen.alive;
        }
        let alive = life::target_lives(b, self.target, None);
        slot.set(LifeSlot { key, alive });
        alive
    }

    /// Whether the target lives by the ko eyes that the defender, favoured
    /// by the ko model, always retakes (see [`crate::tactics::kolife`]): a
    /// defender win, the attacker to move, under this model only. With
    /// `zone`, adds what the proof read to it when it does.
    pub fn target_ko_lives(&self, zone: Option<&mut Zone>) -> bool {
        let g = &self.game;
        g.model().favoured == Some(self.attacker.opp())
            && self.target_on()
            && kolife::target_ko_lives(g.board(), self.target, zone)
    }

    /// Whether the defender, the attacker to move, has won a race that
    /// ends in the target's escape (see [`crate::tactics::race`]): a
    /// defender win whatever the path or the ko model.
    pub fn race_won(&self) -> bool {
        debug_assert_eq!(self.game.to_move(), self.attacker);
        self.target_on()
            && race::race_won(
                self.game.board(),
                self.target,
                self.game.problem().escape_libs,
            )
    }
}
