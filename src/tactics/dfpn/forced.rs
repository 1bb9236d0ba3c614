//! Forced replies: when the defender threatens to escape with its next
//! move, the attacker need only look at the moves that could stop it.
//!
//! This is the relevance-zone argument of λ-search (Thomsen 2000,
//! "Lambda-search in game trees — with application to Go"; seed 002) at
//! its smallest order: the defender's λ⁰ threat, one move that reaches its
//! goal. Kishimoto & Müller's df-pn solver for life and death (seed 000,
//! "search versus knowledge") prunes the same way with the zones of proven
//! results. Here the threat and its zone are found by the board alone, so
//! the rule costs a few trial moves per attacker node and no search.
//!
//! # The rule
//!
//! At a node where the attacker is to move, a *winning point* q is an
//! empty point where a defender stone would leave the target with at least
//! `escape_libs` liberties (an extension, a connection, a capture of an
//! attacker block next to it). Its *zone* Z(q) is every point that result
//! reads:
//!
//! * the target's stones and liberties;
//! * q and its neighbours, and every block next to q whole (stones and
//!   liberties), of either colour;
//! * for each attacker block next to q that q captures (in atari), every
//!   defender block next to it whole.
//!
//! Claim: every attacker move m outside Z(q), and the pass, loses. The pass
//! loses at once (the defender passes too). After m outside Z(q):
//!
//! * m is on no liberty of the target nor of any block read, since those
//!   liberties are in the zone; it merges only with attacker blocks not
//!   read, so every read block keeps its stones and its liberties;
//! * a capture by m takes a defender block B not read (its liberty m is
//!   outside the zone). B touches no read attacker block that q captures
//!   (those blocks' defender neighbours are read), and no stone of the
//!   target or of a block q joins (defender blocks never touch), nor q:
//!   so the points it frees are next to nothing the result reads, and a ko
//!   ban it leaves is on B's point, not on q;
//! * m cannot capture the target, which has two liberties or more (with
//!   one, the attacker captures at once: the node is decided before).
//!
//! So q is still empty and legal for the defender after m, captures the
//! same blocks and leaves the target with the same liberties: the defender
//! wins at once, on every path and under every ko model (an escape is not
//! a repetition's doing; a line that m itself cuts is a defender win
//! anyway). The attacker's candidates are therefore the empty points of
//! the intersection of Z(q) over all winning points q; every other move is
//! a proven loss and left out. No loss left out carries a flag: none rests
//! on the path or on a ko ban.
//!
//! Only the attacker is concerned: the defender's forced replies (the
//! target in atari) are the rules' own, see the parent module's rule 4.

use super::child::Here;
use super::search::Search;
use crate::go::board::{Board, Point, EMPTY};
use crate::tactics::rules::Step;
use crate::tactics::zone::Zone;
use arrayvec::ArrayVec;

/// Where the searches use the forced-reply rule.
///
/// The rule only leaves out proven losses, but it changes the proof and
/// disproof numbers of the nodes it cuts (an attacker node with a handful
/// of moves looks far easier to refute than one with the whole board), and
/// so the order df-pn searches in: on the suite it solves some problems
/// much sooner and others much later. [`Forced::Split`] gets both.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Forced {
    /// Every attacker move is searched.
    Off,
    /// Every search uses the rule.
    On,
    /// Plain df-pn ([`super::Algo::Dfpn`]) uses the rule for the first 70%
    /// of its budget (35% with the df-pn+ heuristic, 35% without) and goes
    /// on without it, each part with its own table entries (one part's
    /// numbers would steer the next into the same order); λ-df-pn, dual-λ
    /// and zone df-pn use it; `auto` uses it in its neutral search only.
    #[default]
    Split,
}

impl Search<'_> {
    /// At a node where the attacker is to move: the zone outside which
    /// every attacker move loses (see the module documentation), when the
    /// defender has a winning point; `None` otherwise.
    pub(super) fn forced_zone(&mut self, here: &Here) -> Option<Zone> {
        let g = &self.game;
        debug_assert_eq!(g.to_move(), self.attacker);
        let b = g.board();
        let libs = b.libs(self.target);
        let escape = g.problem().escape_libs;
        if libs < 2 || libs >= escape || !g.has_room() {
            return None;
        }
        // Candidates: the target's liberties, and the points that capture
        // an attacker block next to it (no other defender stone can add a
        // liberty to the target).
        let mut cands = here.libs;
        here.weak.for_each(|h| {
            if let Some(l) = b.first_liberty(h) {
                cands.insert(l);
            }
        });
        let mut allowed: Option<Zone> = None;
        // Every zone holds the target's block: walked once, when a first
        // winning point needs it (the target may be a large block).
        let mut target_zone = None;
        for q in cands.iter() {
            if !self.escapes_at(q, here, libs, escape) {
                continue;
            }
            let tz = *target_zone.get_or_insert_with(|| {
                let mut tz = Zone::new();
                tz.add_block(self.game.board(), self.target);
                tz
            });
            let z = self.winning_zone(q, tz);
            if cfg!(debug_assertions) {
                self.check_zone(q, &z, escape);
            }
            match &mut allowed {
                None => allowed = Some(z),
                Some(a) => a.intersect(&z),
            }
        }
        allowed
    }

    /// Whether a defender stone on `q`, the attacker having moved far
    /// away, would leave the target with `escape` liberties or more; the
    /// target has `libs` now.
    fn escapes_at(&mut self, q: Point, here: &Here, libs: usize, escape: usize) -> bool {
        let b = self.game.board();
        let defender = self.defender();
        // Cheap bound first: without joining another defender block or
        // capturing, q adds at most its empty neighbours and takes itself.
        let mut empty = 0;
        let mut more = false;
        // By cell value (fewer compares than by `Option<Color>`).
        let (own, enemy) = (defender.cell(), self.attacker.cell());
        for n in Board::neighbors(q) {
            let c = b.cell(n);
            if c == EMPTY {
                empty += 1;
            } else if c == own {
                more |= b.block(n) != b.block(self.target);
            } else if c == enemy {
                more |= b.libs(n) == 1;
            }
        }
        if !more && libs + empty < escape + 1 {
            return false;
        }
        // A stone on a liberty that captures nothing: counted on the board
        // as it is (a far move leaves no ko ban on q, and q cannot be
        // suicide with the liberties it must reach).
        if here.libs.contains(q) {
            if let Some((after, _)) = self.join_target(q, here, 0) {
                return after >= escape;
            }
        }
        // A null move stands for the attacker's move far away: it leaves
        // no ko ban, as such a move would not (see the module docs).
        if self.game.play_null() != Step::Played {
            return false;
        }
        let mut won = false;
        if self.game.play(q) == Step::Played {
            let b = self.game.board();
            won = b.color_at(self.target) == Some(defender) && b.libs(self.target) >= escape;
            self.game.undo();
        }
        self.game.undo();
        won
    }

    /// Debug builds: every legal attacker move outside `z` is answered by
    /// a defender stone on `q` that leaves the target `escape` liberties.
    fn check_zone(&mut self, q: Point, z: &Zone, escape: usize) {
        let defender = self.defender();
        let size = self.game.board().size();
        for row in 0..size {
            for col in 0..size {
                let m = Board::point_at(col, row);
                if z.contains(m) || self.game.play(m) != Step::Played {
                    continue;
                }
                if self.game.winner().is_none() {
                    assert_eq!(self.game.play(q), Step::Played, "q after {m}");
                    let b = self.game.board();
                    assert!(
                        b.color_at(self.target) == Some(defender) && b.libs(self.target) >= escape,
                        "q {q} after {m}"
                    );
                    self.game.undo();
                }
                self.game.undo();
            }
        }
    }

    /// What a defender stone on `q` reads (see the module documentation),
    /// given `tz`, the target's block (stones and liberties). Each block is
    /// added once: the target and the blocks next to a captured block are
    /// met many times over (every stone of the captured block next to one
    /// of theirs), and adding a block again changes nothing.
    fn winning_zone(&self, q: Point, tz: Zone) -> Zone {
        let b = self.game.board();
        let defender = self.defender();
        let mut z = tz;
        // Heads of the blocks in `z` already; at most the target, the 4
        // neighbours of q and the defender blocks around what q captures
        // (the capacity only bounds the list: a head left out of it is
        // added again, harmlessly).
        let mut done: ArrayVec<Point, 16> = ArrayVec::new();
        done.push(b.block(self.target));
        let mut add = |z: &mut Zone, p: Point| {
            let h = b.block(p);
            if !done.contains(&h) {
                let _ = done.try_push(h);
                z.add_block(b, p);
            }
        };
        // `Zone::add_move` for the defender's stone on q: q, its
        // neighbours, and every block next to it whole (no block has
        // `usize::MAX` liberties).
        z.insert(q);
        for n in Board::neighbors(q) {
            z.insert(n);
            if b.color_at(n).is_some() {
                add(&mut z, n);
            }
        }
        for n in Board::neighbors(q) {
            if b.color_at(n) == Some(self.attacker) && b.libs(n) == 1 {
                b.for_each_stone(n, |s| {
                    for t in Board::neighbors(s) {
                        if b.color_at(t) == Some(defender) {
                            add(&mut z, t);
                        }
                    }
                });
            }
        }
        if cfg!(debug_assertions) {
            // As the rule reads it, block by block.
            let mut want = Zone::new();
            want.add_block(b, self.target);
            want.add_move(b, q, defender, usize::MAX);
            for n in Board::neighbors(q) {
                if b.color_at(n) == Some(self.attacker) && b.libs(n) == 1 {
                    b.for_each_stone(n, |s| {
                        for t in Board::neighbors(s) {
                            if b.color_at(t) == Some(defender) {
                                want.add_block(b, t);
                            }
                        }
                    });
                }
            }
            assert_eq!(z, want, "winning zone of {q}");
        }
        z
    }
}
