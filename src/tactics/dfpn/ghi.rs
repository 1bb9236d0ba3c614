//! The graph-history interaction (GHI) check for proven captures: may a
//! capture proved on one path be used on another?
//!
//! # The problem
//!
//! Kishimoto & Müller (2004, "A general solution to the graph history
//! interaction problem"; seed 000, the GHI part of the tutorial) show why a
//! transposition table that ignores the path can turn a loss into a win:
//! a stored result may rest on lines whose outcome depends on how the
//! position was reached. In the capture game (`rules`) a line ends as a
//! *repetition* when the state after a move has the key
//! ([`CaptureGame::key`]: stones, player to move, ko ban, whether the last
//! move was a pass) of a state on the line played from the solve's root,
//! and then the defender has won. A proof tree for the attacker has no such
//! leaf where it was searched, so it never depends on the path it was found
//! on (see the parent module). But on another path `Q` leading to its root
//! `r`, one of its positions `t ≠ r` may have the key of a state `s` on `Q`;
//! the rules would then end that line at `t` for the defender, and the
//! proof is not a proof there. Kishimoto & Müller's general answer keeps
//! the path with the result and re-verifies; df-pn(r) (Kishimoto & Müller
//! 2003, also in seed 000) instead marks results as path-dependent. This
//! module keeps a small summary of the positions of each proof instead,
//! and uses a proof only where no state of the path can be one of them.
//!
//! # The summary
//!
//! A position is in one of three *classes*, which the key determines: after
//! a pass (whoever is to move), or, after a stone or a null move, by the
//! colour to move ([`class`]). Two states with the same key are in the same
//! class and have the same number of black and of white stones. A proof
//! tree's [`Bound`] holds, per class, the least number of black and the
//! least number of white stones of its positions in that class, taken over
//! every position of the tree except its root and its terminal positions
//! (the target captured: no state of a path is one, as play stops there).
//! A class without positions holds `u16::MAX` twice.
//!
//! The tree is the one the search's values rest on, and the bound is
//! aggregated exactly as the value: a node won by the attacker through
//! child `c` gets `c`'s own class and counts joined with `c`'s bound; a node
//! lost by the defender joins, over every child (every defender move,
//! including those decided without a search: the moves that leave the
//! target in atari, the far captures, the moves a threat proof covers), the
//! child's class and counts with the child's bound; a capture from the
//! table brings its stored bound. The classes are absolute (colour to move),
//! not relative to the root, so a bound needs no change when it is joined
//! into a parent's. A threat proof of λ-df-pn (`threats`) keeps the same
//! bound, its root included; transferred to moves outside its zone it is
//! shifted by what the transfer changes (`pruning`).
//!
//! # The check ([`capture_usable`])
//!
//! Before a proven capture stored for `r` is used at the current node
//! `me` (same key as `r`), every earlier state `s` of the path is checked:
//! it *could* be a position of the tree only if its class's bound holds
//! `s`'s counts from below (both colours at least the bound). The scan stops
//! at the first state whose target block is smaller than `me`'s: the
//! target only grows until it is captured, and no proof position (target
//! not captured) has a smaller target than `me`, so neither that state nor
//! any earlier one can come back.
//!
//! **Soundness.** Suppose the check passes and some line of the tree is cut
//! on the new path at a position `t`: `t`'s key equals that of a state `s`
//! on the new path, counting both the path up to `me` and the line from
//! `r` to `t`. If `s` is on the line (strictly inside the tree, or `r`
//! itself), the same repetition cut the line where the tree was searched
//! (the line from `r` down is the same there), and a proof has no cut
//! leaf: impossible. So `s` is a state of the path before `me`, with the
//! same key as `t`: same class, same counts, so the bound of that class is
//! at most `s`'s counts and the check rejected the entry. Contradiction.
//! By induction on the order in which entries are stored (a bound covers
//! the table entries its tree reuses, which were themselves checked where
//! they were used), every capture the search uses is a proof on the path
//! where it is used. The depth limit, the other path-dependent end, is
//! not covered by this check (as before classes were kept): a proof
//! reused at depth `d` is cut only if it is longer than
//! `MAX_DEPTH - d` moves. That cannot make a capture false: the reused
//! tree still ends every line in a capture and repeats no state of the
//! new path, so it is a winning strategy for the attacker; the depth limit
//! is only our bound on a search, under which a defender win is assumed
//! (conservative for captures). A capture may then be found that a search
//! re-applying the limit would have left unproven, never the reverse.
//!
//! Why classes: the least counts over the whole tree mix positions that no
//! state of the path can equal. Typically the defender's pass (the tree's
//! position with the root's stones) sets one count, a defender capture of
//! an attacker stone another, and together they hold the parent of the
//! root (one attacker stone less) from below, though the parent has the
//! other player to move and no pass behind it. On tactics test 5 under
//! the zone fixed point this rejected one probe in five, all of them
//! proofs of one or two nodes.

use super::search::Anc;
use crate::go::Color;

/// Classes of positions: after a stone or a null move with black to move,
/// with white to move, and after a pass.
pub const CLASSES: usize = 3;

/// The class of a position: `mover` to move, `passed` when the last move
/// was a pass (the key tells both apart).
#[inline]
pub fn class(mover: Color, passed: bool) -> u8 {
    if passed {
        2
    } else {
        mover.index() as u8
    }
}

/// Per class, the least (black, white) stone counts of the positions of a
/// proof tree (see the module documentation); `u16::MAX` for a class
/// without positions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bound(pub [[u16; 2]; CLASSES]);

impl Default for Bound {
    fn default() -> Bound {
        Bound::NONE
    }
}

impl Bound {
    /// No position: the tree is its root (and terminal positions).
    pub const NONE: Bound = Bound([[u16::MAX; 2]; CLASSES]);

    /// A bound that does not know classes: `min` in every class.
    pub fn all(min: [u16; 2]) -> Bound {
        Bound([min; CLASSES])
    }

    /// The bound of one position: `at`'s counts in `at`'s class.
    pub fn at(at: &Anc) -> Bound {
        Bound::NONE.with(at)
    }

    /// This bound with the position `at` added.
    pub fn with(mut self, at: &Anc) -> Bound {
        let b = &mut self.0[at.class as usize];
        b[0] = b[0].min(at.counts[0]);
        b[1] = b[1].min(at.counts[1]);
        self
    }

    /// The bound of the union of two trees' positions.
    pub fn join(mut self, other: Bound) -> Bound {
        for (a, b) in self.0.iter_mut().zip(other.0) {
            a[0] = a[0].min(b[0]);
            a[1] = a[1].min(b[1]);
        }
        self
    }

    /// This bound with colour `i`'s least count raised by `up` and lowered
    /// by `down` (saturating) in every class that has positions.
    pub fn shifted(mut self, i: usize, up: u16, down: u16) -> Bound {
        for c in self.0.iter_mut().filter(|c| **c != [u16::MAX; 2]) {
            c[i] = c[i].saturating_add(up).saturating_sub(down);
        }
        self
    }

    /// Whether the state `s` could be a position of the tree: its counts
    /// are at least its class's bound, for both colours.
    #[inline]
    pub fn admits(&self, s: &Anc) -> bool {
        let b = self.0[s.class as usize];
        s.counts[0] >= b[0] && s.counts[1] >= b[1]
    }
}

/// Whether a proven capture whose proof tree has the bound `min` may be
/// used at `me`, whose ancestors are `path`: no ancestor could be one of
/// the tree's positions (see the module documentation). Ancestors before
/// the target last grew are out of reach, as the block never shrinks.
pub fn capture_usable(min: &Bound, me: &Anc, path: &[Anc]) -> bool {
    for s in path.iter().rev() {
        if s.target < me.target {
            return true;
        }
        if min.admits(s) {
            return false;
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    fn anc(b: u16, w: u16, target: u16, class: u8) -> Anc {
        Anc {
            counts: [b, w],
            target,
            passed: class == 2,
            class,
        }
    }

    #[test]
    fn capture_usable_checks_the_path() {
        let me = anc(10, 10, 3, 0);
        let flat = Bound::all([9, 9]);
        // No bound: the proof has no position besides its root.
        assert!(capture_usable(&Bound::NONE, &me, &[anc(20, 20, 3, 1)]));
        // An ancestor with enough stones of both colours could come back.
        assert!(!capture_usable(
            &flat,
            &me,
            &[anc(9, 9, 3, 0), anc(10, 10, 3, 1)]
        ));
        assert!(!capture_usable(&flat, &me, &[anc(9, 12, 3, 1)]));
        // Too few stones of one colour: it cannot.
        assert!(capture_usable(
            &flat,
            &me,
            &[anc(8, 20, 3, 0), anc(20, 8, 3, 1)]
        ));
        // Behind a smaller target nothing can come back, whatever it holds.
        assert!(capture_usable(
            &flat,
            &me,
            &[anc(30, 30, 2, 0), anc(8, 8, 3, 1)]
        ));
        assert!(!capture_usable(
            &flat,
            &me,
            &[anc(30, 30, 3, 0), anc(8, 8, 3, 1)]
        ));
    }

    #[test]
    fn classes_keep_positions_apart() {
        // The root: white to move (class 1) with 31 black and 28 white
        // stones; its parent had black to move and one black stone less.
        let me = anc(31, 28, 2, 1);
        let parent = anc(30, 28, 2, 0);
        // The tree: white's pass (class 2, the root's stones), a white
        // stone (black to move), a white capture of one black stone.
        let tree = Bound::at(&anc(31, 28, 2, 2))
            .with(&anc(31, 29, 2, 0))
            .with(&anc(30, 29, 2, 0));
        assert_eq!(tree.0[0], [30, 29]);
        assert_eq!(tree.0[1], [u16::MAX; 2]);
        assert!(capture_usable(&tree, &me, &[parent]));
        // Without classes the parent was held from below.
        let flat = Bound::all([30, 28]);
        assert!(!capture_usable(&flat, &me, &[parent]));
        // A parent reached by a pass with the root's stones is in the
        // pass class: it could come back.
        assert!(!capture_usable(&tree, &me, &[anc(31, 28, 2, 2)]));
        // Joining keeps the least counts per class.
        let other = Bound::at(&anc(29, 40, 2, 0)).with(&anc(5, 5, 2, 1));
        let j = tree.join(other);
        assert_eq!(j.0, [[29, 29], [5, 5], [31, 28]]);
    }
}
