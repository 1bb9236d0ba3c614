//! Life through kos the defender always retakes: a static defender win of
//! the capture game of [`rules`](super::rules) under the ko model that
//! favours the defender (it may retake a ko at once).
//!
//! Benson's criterion ([`life`](super::life); D. B. Benson, "Life in the
//! game of Go", 1976) proves a block alive when the enemy could only fill
//! its last vital points by capturing. A one-point eye whose fourth side is
//! a stone of another defender block in atari is no vital region: the
//! attacker captures that stone there. But when the capture is a ko that
//! the defender may retake at once, the point is as good as an eye. This is
//! the shape of capture test 8 (`Handtalk980824-1`, `defend K5`): the
//! block's liberties are the eye J4 and L6, where white's capture of the
//! lone stone L7 is answered by black's retake at L7, for ever.
//!
//! # The theorem used
//!
//! Let B be the defender's block, with at least two liberties, such that
//! every liberty p of B has only defender stones as neighbours on the
//! board, all of them stones of B but at most one, called q (of another
//! block Q). Then, when the defender may retake kos at once and the
//! attacker is to move, the defender wins: B is never captured.
//!
//! *Proof.* The defender's strategy: when the attacker's move has just
//! put a stone on such a p (capturing Q), retake at q; otherwise pass. We
//! show that at every attacker turn the invariant I holds: B's stones are
//! unchanged, every point p of the set L of B's original liberties is
//! empty, and every q named above holds a defender stone. I holds at the
//! start. At an attacker turn with I:
//!
//! * B has at least |L| ≥ 2 liberties, so no single move captures it.
//! * A move on p ∈ L: the stone has no liberty of its own (its
//!   neighbours are stones of B, and q, a defender stone, if any), so it
//!   is legal only if it captures; B has another liberty, so it must
//!   capture Q, which needs p to be Q's last liberty (with no q, the move
//!   is illegal). Then q is empty and the new stone's only liberty is q
//!   (its other neighbours are stones of B). The defender plays q: it
//!   captures that stone, so it is legal (no suicide), and the ko ban
//!   does not bind the favoured defender. Now p is empty and q holds a
//!   defender stone again; B was never touched: I holds.
//! * Any other move (or a pass, answered by the defender's pass, which
//!   ends the game) leaves every p empty and every q standing (a
//!   defender block is captured only by filling its last liberty, and Q's
//!   liberties include its p, empty): I holds after the defender's pass.
//!
//! Captures made by the retake (enemy blocks whose last liberty was q)
//! only add liberties; the argument needs none of them. So B stays on the
//! board, and every line ends as a defender win: two passes, a repeated
//! state (the board is finite, so an endless line repeats one), the depth
//! limit, or the escape liberties. The result depends neither on the path
//! nor on a ko ban at the start (the attacker's bans only take moves away;
//! the defender ignores its own), only on the stones and on the ko model:
//! the solver marks it `KO` (it must not be taken as holding under every
//! model) and never uses it when the attacker may retake at once or
//! nobody may. There the attacker takes the ko, and the defender, barred
//! from retaking, loses the block (test 8's answer under those models).
//!
//! GNU Go's expected answer for test 8 is `0`: in a real game black can
//! never end that ko, so it lives only as long as it wins every ko fight.
//! In the capture game, where the favoured defender retakes for ever, it
//! lives, so the ko code is 3, not 0.
//!
//! Measured (`solve escape K5` after `loadsgf golois/Handtalk980824-1.sgf`,
//! 3M nodes): under `model=mover`, unknown before (the search spent its
//! nodes on the attacker's moves far away, each answered by a pass);
//! `defend K5` now answers `3 R2` in 877 nodes (`auto`). Tactics test 1
//! with `dfpn` also needs 684,131 nodes instead of 2,948,496.
//!
//! # What the certificate reads
//!
//! B's stones and liberties, and each Q's stones and liberties. A position
//! that differs only by attacker stones elsewhere (and defender stones
//! those captured) has the same B, the same liberties with the same
//! neighbours, so the same verdict: that is the proof's relevance zone.
//!
//! Tests: `dfpn/tests_kolife.rs`, which also checks the rule against the
//! exhaustive reference (which knows nothing of it) on generated positions.

use crate::go::board::{Board, Point, BORDER, EMPTY};
use crate::tactics::zone::Zone;
use arrayvec::ArrayVec;

/// The most liberties the check looks at: more, and it gives up (the
/// defender has escaped long before, at 5 by default).
const LIBS_CAP: usize = 16;

/// Whether the block on `target` (a stone) lives by the theorem above,
/// the defender favoured by the ko model and the attacker to move. With
/// `zone`, adds to it what the proof read (B and each Q, with their
/// liberties); the zone is touched only when the answer is `true`.
pub fn target_ko_lives(board: &Board, target: Point, zone: Option<&mut Zone>) -> bool {
    let own = board.cell(target);
    if own == EMPTY || own == BORDER || !(2..=LIBS_CAP).contains(&board.libs(target)) {
        return false;
    }
    let t = board.block(target);
    let mut seen = Zone::new();
    // The q stones: one of each other block next to a liberty.
    let mut others: ArrayVec<Point, LIBS_CAP> = ArrayVec::new();
    let mut ok = true;
    board.for_each_stone_while(t, |s| {
        for l in Board::neighbors(s) {
            if board.cell(l) != EMPTY || seen.contains(l) {
                continue;
            }
            seen.insert(l);
            let mut q = None;
            for n in Board::neighbors(l) {
                let c = board.cell(n);
                if c == BORDER || (c == own && board.block(n) == t) {
                    continue;
                }
                // An empty point or an attacker stone, or a second
                // defender stone outside B: not this shape.
                if c != own || q.is_some() {
                    ok = false;
                    return false;
                }
                q = Some(n);
            }
            if let Some(q) = q {
                others.push(q);
            }
        }
        true
    });
    if !ok {
        return false;
    }
    if let Some(z) = zone {
        z.add_block(board, t);
        for q in others {
            z.add_block(board, q);
        }
    }
    true
}
