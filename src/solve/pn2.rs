//! PN² (Allis 1994; Breuker's thesis, 1998; seed 000 "Reducing memory
//! usage", seed 003 "PN²"): proof-number search whose leaves are
//! initialised by a second, bounded proof-number search instead of the
//! mobility heuristic.
//!
//! The second level runs from the leaf to expand until it solves it or
//! has created as many nodes as the first-level tree has (Allis' bound,
//! "the size of the first-level tree", which anneals from tiny to large as
//! the first level grows, as seed 003 recommends); the children of its root
//! then become the leaf's children, with the proof numbers the second level
//! found, and the rest of the second-level tree is discarded (we keep the
//! last two trees, so that a second-level search from a child of one of
//! their roots starts from that child's subtree: the same tree with fewer
//! expansions, see `bestfirst_keep.rs`). Both levels
//! use [`PnRule`] (mobility initialisation) on a tree, as seed 001's PN²;
//! the levels share the memory budget equally.
//!
//! Node count: first-level expansions, as in seed 001's tables ("for PN²
//! and PP², only the number of nodes in the main search is displayed"); the
//! node limit bounds that count, and [`Detail::work`] counts every level.
//!
//! [`Detail::work`]: super::bestfirst::Detail::work

use super::bestfirst::solve_with;
use super::pns::PnRule;
use super::{Limits, Report};
use crate::games::Game;

/// Solves `game` by PN².
pub fn solve<G: Game>(game: &G, limits: &Limits) -> Report<G::Move> {
    solve_with(PnRule, game, limits, false, true).report
}
