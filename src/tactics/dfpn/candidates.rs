//! The moves a prover tries in the threat searches of λ-df-pn and dual-λ
//! (`threats`, after Thomsen 2000, "Lambda-search in game trees — with
//! application to Go"): the moves that may reach its goal at once
//! ([`Search::goal_moves`]) and its candidate threats of an order
//! ([`Search::threat_moves`]).
//!
//! # The prover's candidates
//!
//! Which moves a prover tries as threats ([`Search::threat_moves`]) is a
//! heuristic: the target's liberties (and the points next to them from
//! order 2), the liberties of weak blocks next to the target, and for the
//! defender from order 2 its *partners*: its other blocks that touch a
//! liberty of the target, with their liberties and those of the weak
//! attacker blocks next to them, and from order 3 the points next to
//! those liberties (extending a partner that shares the target's
//! liberties makes them an eye the attacker cannot fill, as in capture
//! test 1's T7; capturing next to it frees it, as tactics test 4's C1).
//! The attacker, from order 2, also tries the liberties of the defender's
//! partners with fewer than `order` liberties: a partner that reaches a
//! liberty of the target is the connection the target escapes by, and
//! shortening it is the net (a first-line stone under an attacker stone:
//! after the attacker's D1, the defender's F2 reaches the target's
//! liberty F1, and the attacker's F3 ataris both;
//! `tests::lambda_finds_the_partner_attack`). With `order` liberties
//! instead of fewer, the extra moves changed which proof λ-df-pn found
//! first in `tests_ko::a_ko_free_proof_settles_every_model`, and the one
//! it found passed a ko ban. The candidates
//! only ever restrict the prover, which chooses among its moves: a result
//! that rests on such a restriction is flagged `REL` and never reported,
//! and a threat proof found with them is a proof in the game whichever
//! moves were tried. The opponent's moves are cut only by the zone
//! argument of `pruning`, which does not depend on the candidates. So a
//! longer or shorter candidate list changes what is found, never what is
//! true.

use super::search::Search;
use crate::go::board::{Board, Point, PASS};
use crate::tactics::rules::Winner;
use crate::tactics::zone::Zone;
use arrayvec::ArrayVec;

/// Candidate moves of one kind at one node.
pub type Cands = ArrayVec<Point, 96>;

impl Search<'_> {
    fn push_unique(out: &mut Cands, seen: &mut Zone, p: Point) {
        if !seen.contains(p) && !out.is_full() {
            seen.insert(p);
            out.push(p);
        }
    }

    /// The target's liberties, and for `second` the empty points next to
    /// them as well.
    fn liberty_moves(&self, out: &mut Cands, seen: &mut Zone, second: bool) {
        let b = self.game.board();
        if !self.target_on() {
            return;
        }
        let mut libs: ArrayVec<Point, 64> = ArrayVec::new();
        let total = b.libs(self.target);
        b.for_each_stone_while(self.target, |q| {
            for n in Board::neighbors(q) {
                if b.is_empty(n) && !libs.contains(&n) && !libs.is_full() {
                    libs.push(n);
                }
            }
            // All listed: the rest of the target meets them again.
            libs.len() < total
        });
        for &l in &libs {
            Self::push_unique(out, seen, l);
        }
        if second {
            for &l in &libs {
                for n in Board::neighbors(l) {
                    if b.is_empty(n) {
                        Self::push_unique(out, seen, n);
                    }
                }
            }
        }
    }

    /// Calls `f` on a stone of each attacker block next to the target that
    /// has at most `max_libs` liberties, in the order a walk over the
    /// target's stones meets them.
    fn weak_neighbours(&self, max_libs: usize, mut f: impl FnMut(Point)) {
        let b = self.game.board();
        if !self.target_on() {
            return;
        }
        // With `max_libs` 1 (the defender's goal moves at nearly every node
        // of its threat searches) the board's set of blocks in atari says
        // how many there are: none needs no walk, one needs none either (a
        // large target has many stones), more stop the walk once it has
        // met them all.
        let mut wanted = usize::MAX;
        if max_libs == 1 {
            let target = b.block(self.target);
            let defender = self.attacker.opp();
            let mut found = PASS;
            wanted = 0;
            b.for_each_atari_block(self.attacker, |h| {
                let mut touches = false;
                b.for_each_stone_while(h, |s| {
                    touches = Board::neighbors(s)
                        .iter()
                        .any(|&n| b.color_at(n) == Some(defender) && b.block(n) == target);
                    !touches
                });
                if touches {
                    wanted += 1;
                    found = h;
                }
            });
            match wanted {
                0 => return,
                1 => return f(found),
                _ => {}
            }
        }
        let mut done = Zone::new();
        let mut met = 0;
        b.for_each_stone_while(self.target, |q| {
            for n in Board::neighbors(q) {
                if b.color_at(n) != Some(self.attacker) || done.contains(b.block(n)) {
                    continue;
                }
                done.insert(b.block(n));
                if b.libs(n) <= max_libs {
                    met += 1;
                    f(n);
                }
            }
            met < wanted
        });
    }

    /// Liberties of the attacker's blocks next to the target that have at
    /// most `max_libs` liberties: the defender captures or ataris there.
    pub(super) fn neighbour_block_libs(&self, out: &mut Cands, seen: &mut Zone, max_libs: usize) {
        let b = self.game.board();
        self.weak_neighbours(max_libs, |n| {
            if b.libs(n) == 1 {
                // A block in atari: its one liberty, without a walk.
                if let Some(l) = b.first_liberty(n) {
                    Self::push_unique(out, seen, l);
                }
                return;
            }
            b.for_each_stone(n, |s| {
                for l in Board::neighbors(s) {
                    if b.is_empty(l) {
                        Self::push_unique(out, seen, l);
                    }
                }
            });
        });
    }

    /// For the attacker: the liberties of its blocks next to the target
    /// that have at most `max_libs` liberties (extending them), and the
    /// liberty of any defender block in atari next to those (capturing it):
    /// in a capturing race the attacker often threatens by first making
    /// its own surrounding stones safe.
    fn own_weak_block_moves(&self, out: &mut Cands, seen: &mut Zone, max_libs: usize) {
        let b = self.game.board();
        let defender = self.attacker.opp();
        let target = b.block(self.target);
        self.weak_neighbours(max_libs, |n| {
            b.for_each_stone(n, |s| {
                for l in Board::neighbors(s) {
                    if b.is_empty(l) {
                        Self::push_unique(out, seen, l);
                    } else if b.color_at(l) == Some(defender)
                        && b.block(l) != target
                        && b.libs(l) == 1
                    {
                        b.for_each_stone(l, |t| {
                            for m in Board::neighbors(t) {
                                if b.is_empty(m) {
                                    Self::push_unique(out, seen, m);
                                }
                            }
                        });
                    }
                }
            });
        });
    }

    /// For the attacker: the liberties of the defender's other blocks that
    /// touch a liberty of the target (its *partners*, which it could join)
    /// with at most `max_libs` liberties. Capturing or shortening such a
    /// block takes away the connection the target would escape by, or the
    /// shared liberty that was an eye (in capture test 13 after D8 B8 B7
    /// D9, black's E9 ataris the partner D9, which touches the target's
    /// liberty C9). Like every candidate these only ever restrict the
    /// attacker, never the defender's replies (see the module doc).
    fn partner_attack_moves(&self, out: &mut Cands, seen: &mut Zone, max_libs: usize) {
        let b = self.game.board();
        self.for_each_partner(|n| {
            if b.libs(n) <= max_libs {
                Self::push_block_libs(b, out, seen, n);
            }
        });
    }

    /// Calls `f` with one stone of each of the defender's *partners*, its
    /// blocks other than the target that touch a liberty of the target,
    /// each once, in the order the target's liberties meet them.
    fn for_each_partner(&self, mut f: impl FnMut(Point)) {
        let b = self.game.board();
        if !self.target_on() {
            return;
        }
        let defender = self.attacker.opp();
        let target = b.block(self.target);
        let mut done = Zone::new();
        b.for_each_stone(self.target, |q| {
            for l in Board::neighbors(q) {
                if !b.is_empty(l) {
                    continue;
                }
                for n in Board::neighbors(l) {
                    if b.color_at(n) != Some(defender)
                        || b.block(n) == target
                        || done.contains(b.block(n))
                    {
                        continue;
                    }
                    done.insert(b.block(n));
                    f(n);
                }
            }
        });
    }

    /// Pushes the liberties of the block on `blk`.
    fn push_block_libs(b: &Board, out: &mut Cands, seen: &mut Zone, blk: Point) {
        b.for_each_stone(blk, |s| {
            for l in Board::neighbors(s) {
                if b.is_empty(l) {
                    Self::push_unique(out, seen, l);
                }
            }
        });
    }

    /// For the defender: the liberties of its other blocks that touch a
    /// liberty of the target (blocks it may join), and the liberties of
    /// the attacker's blocks next to those with at most `max_libs`
    /// liberties (capturing them saves the partner), and with `wide` the
    /// empty points next to those liberties (the move before the capture,
    /// or a net: tactics test 4's C1). Extending the partner
    /// makes the shared liberties an eye or a connection the attacker
    /// cannot fill at once (capture test 1's T7), and a partner freed by a
    /// capture gives the target room (tactics test 4's answers D1 and C3
    /// are of this kind; after either, λ-df-pn finds no proof up to order
    /// 3, but it reads out the third answer, C1). Any subset of a prover's
    /// threats is sound (the prover chooses), so these only let λ-df-pn
    /// and dual-λ find more. Without `wide`, capture test 1 and tactics
    /// test 2 passed under `lambda-dfpn` at 3M nodes and tactics test 2
    /// under `dual-lambda`; `wide` adds tactics test 4's C1 to both. The
    /// threat searches try more moves: the suite's nodes under dual-λ went
    /// from 48.1M to 52.1M, under λ-df-pn from 38.8M to 39.8M.
    fn partner_moves(&self, out: &mut Cands, seen: &mut Zone, max_libs: usize, wide: bool) {
        let b = self.game.board();
        // The attacker blocks already looked at.
        let mut done = Zone::new();
        self.for_each_partner(|n| {
            Self::push_block_libs(b, out, seen, n);
            b.for_each_stone(n, |s| {
                for a in Board::neighbors(s) {
                    if b.color_at(a) != Some(self.attacker) || done.contains(b.block(a)) {
                        continue;
                    }
                    done.insert(b.block(a));
                    if b.libs(a) > max_libs {
                        continue;
                    }
                    Self::push_block_libs(b, out, seen, a);
                    if wide {
                        b.for_each_stone(a, |t| {
                            for l in Board::neighbors(t) {
                                if b.is_empty(l) {
                                    for m in Board::neighbors(l) {
                                        if b.is_empty(m) {
                                            Self::push_unique(out, seen, m);
                                        }
                                    }
                                }
                            }
                        });
                    }
                }
            });
        });
    }

    /// Moves that may reach `side`'s goal at once.
    pub fn goal_moves(&self, side: Winner, out: &mut Cands) {
        out.clear();
        let mut seen = Zone::new();
        let b = self.game.board();
        match side {
            Winner::Attacker => {
                if self.target_on() && b.libs(self.target) == 1 {
                    self.liberty_moves(out, &mut seen, false);
                }
            }
            Winner::Defender => {
                let e = self.game.problem().escape_libs;
                if self.target_on() && b.libs(self.target) + 3 >= e {
                    self.liberty_moves(out, &mut seen, false);
                }
                self.neighbour_block_libs(out, &mut seen, 1);
            }
        }
    }

    /// `side`'s candidate threat moves of order `order` (heuristic: any
    /// subset is sound, since the prover chooses).
    pub fn threat_moves(&self, side: Winner, order: u8, out: &mut Cands) {
        out.clear();
        let mut seen = Zone::new();
        let second = order >= 2;
        match side {
            Winner::Attacker => {
                self.liberty_moves(out, &mut seen, second);
                self.own_weak_block_moves(out, &mut seen, order as usize);
                if second {
                    self.partner_attack_moves(out, &mut seen, order as usize - 1);
                }
            }
            Winner::Defender => {
                self.neighbour_block_libs(out, &mut seen, 1);
                self.liberty_moves(out, &mut seen, second);
                self.neighbour_block_libs(out, &mut seen, order as usize + 1);
                if second {
                    self.partner_moves(out, &mut seen, order as usize + 1, order >= 3);
                }
            }
        }
    }
}
