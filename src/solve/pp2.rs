//! PP² (seed 001 §3.2): Product Propagation whose leaves are initialised by
//! a second, bounded PP search rather than by the mobility heuristic. As
//! the paper says, "the bound on the number of nodes allowed in the
//! sub-search is set to the number of nodes that have been created so far
//! in the main search. After a sub-search is over, the children of the
//! root of that search are added to the tree of the main search", with the
//! numbers the sub-search computed for them. Both levels are PP on a tree
//! ([`PpRule`]); the levels share the memory budget equally. The last two
//! second-level trees are kept, so that a second-level search from a child
//! of one of their roots starts from that child's subtree: the same tree
//! with fewer expansions (see `bestfirst_keep.rs`).
//!
//! Node count: first-level expansions, as in the paper's tables; the node
//! limit bounds that count, and [`Detail::work`] counts every level.
//!
//! [`Detail::work`]: super::bestfirst::Detail::work

use super::bestfirst::solve_with;
use super::pp::PpRule;
use super::{Limits, Report};
use crate::games::Game;

/// Solves `game` by PP².
pub fn solve<G: Game>(game: &G, limits: &Limits) -> Report<G::Move> {
    solve_with(PpRule, game, limits, false, true).report
}
