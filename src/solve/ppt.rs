//! PPT: Product Propagation with transpositions (seed 001 §4.2, the best
//! solver of its Domineering tables). The rule is [`PpRule`] (product rule
//! on `ln p` and `ln(1 − p)`, mobility initialisation); positions reached
//! by several paths share one node through the transposition table of the
//! [`store`](super::store). How a node with several parents is updated,
//! and what that does to the products, is described in
//! [`bestfirst`](super::bestfirst): only the current path is updated, and a
//! shared subtree counts once per parent, as in the paper's PPT.

use super::bestfirst::solve_with;
use super::pp::PpRule;
use super::{Limits, Report};
use crate::games::Game;

/// Solves `game` by PPT (node count: expansions).
pub fn solve<G: Game>(game: &G, limits: &Limits) -> Report<G::Move> {
    solve_with(PpRule, game, limits, true, false).report
}
