//! All-moves-as-first values in the tree (RAVE: Gelly and Silver,
//! "Combining online and offline knowledge in UCT", ICML 2007).
//!
//! Every game through a node counts, for each child of the node, as a game
//! of that child when the player to move at the node played the child's
//! point later in the game, before the opponent did. Such values gather
//! many games fast; they are biased (a move is not worth the same at every
//! time), so a child's value moves from them to its own mean as its own
//! games grow. The root player ([`super::super::mcts`]) uses them; the
//! leaf trees of the search do not (measured in session 22, see the
//! parent's doc).

use super::{Tree, PASS};
use crate::go::board::Point;
use crate::go::Color;

/// RAVE's equivalence parameter: a child's own mean and its
/// all-moves-as-first mean weigh the same after about `RAVE_K / 3` visits.
const RAVE_K: f64 = 300.0;
/// The value of a child with no game of its own and no all-moves-as-first
/// game: above any mean, so that it gets a game.
const FIRST_PLAY: f64 = 1.0;

impl Tree {
    /// All moves as first (Gelly and Silver, ICML 2007): the children of
    /// every node on the path whose move the player to move there played
    /// later in the game, first at its point, count the game as theirs.
    pub(super) fn back_up_amaf(&mut self, mover: Color, black_reward: f64) {
        let code = |c: Color| match c {
            Color::Black => 1u8,
            Color::White => 2u8,
        };
        // Walking the log backwards leaves, for each point, the colour of
        // its first move from ply `d` on.
        let mut j = self.log.len();
        for d in (0..self.path.len()).rev() {
            while j > d {
                j -= 1;
                let (p, c) = self.log[j];
                self.first[p as usize] = code(c);
            }
            let n = self.nodes[self.path[d] as usize];
            if n.children == 0 {
                continue;
            }
            let to_move = if d % 2 == 0 { mover } else { mover.opp() };
            let r = match to_move {
                Color::Black => black_reward,
                Color::White => 1.0 - black_reward,
            };
            let me = code(to_move);
            for i in n.children() {
                let c = &mut self.nodes[i];
                if c.mv as Point != PASS && self.first[c.mv as usize] == me {
                    c.amaf_visits += 1;
                    c.amaf_reward += r;
                }
            }
        }
        for &(p, _) in &self.log {
            self.first[p as usize] = 0;
        }
    }

    /// RAVE (Gelly and Silver 2007): a child's value mixes its own mean
    /// and its all-moves-as-first mean, the latter's weight
    /// `sqrt(k / (3n + k))` fading with the child's own visits `n`.
    pub(super) fn select_amaf(&self, node: usize) -> usize {
        let log = f64::from(self.nodes[node].visits.max(1)).ln();
        self.best_child(node, |c| {
            let v = f64::from(c.visits);
            let value = if c.amaf_visits == 0 {
                if c.visits == 0 {
                    FIRST_PLAY
                } else {
                    c.reward / v
                }
            } else {
                let qa = c.amaf_reward / f64::from(c.amaf_visits);
                let beta = (RAVE_K / (3.0 * v + RAVE_K)).sqrt();
                let q = if c.visits == 0 { 0.0 } else { c.reward / v };
                (1.0 - beta) * q + beta * qa
            };
            value + self.explore * (log / (v + 1.0)).sqrt()
        })
    }
}

#[cfg(test)]
mod tests {
    use super::super::*;
    use crate::search::testutil::board_from;

    #[test]
    fn rave_finds_the_vital_point_with_a_tenth_of_the_games() {
        // The vital-point board of the parent's tests. With 200 games, RAVE gives the
        // vital point the most games; plain UCB1 spreads them over every
        // move and does not, even with 800. Its value is nearer the true
        // one too (alive: black owns 17 points, white 32).
        let b = board_from(super::super::tests::VITAL_POINT);
        let last = Board::point_at(0, 0);
        let vital = Board::point_at(2, 5);
        let mut rave = Tree::with_nodes(POOL, true);
        let (v_rave, _) = rave.value(&b, 0, last, 200);
        assert_eq!(rave.nodes[rave.most_visited()].mv as Point, vital);
        let mut plain = Tree::new();
        let (v_plain, _) = plain.value(&b, 0, last, 800);
        assert_ne!(plain.nodes[plain.most_visited()].mv as Point, vital);
        assert!(v_rave > v_plain + 5 * UNIT, "rave {v_rave} plain {v_plain}");
        assert!(v_rave < -15 * UNIT, "{v_rave}");
    }
}
