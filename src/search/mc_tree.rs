//! A small UCT tree under one leaf of the player's search: the leaf's
//! random games ([`super::mc`]) are spent by UCT (Kocsis and Szepesvári,
//! "Bandit based Monte-Carlo planning", ECML 2006; as in Gelly, Wang, Munos
//! and Teytaud's MoGo, 2006) instead of all starting from the leaf, and the
//! leaf's value is the mean score of all the games through the tree.
//!
//! Why: a flat mean of random games values a position as if both sides
//! kept playing at random. At a leaf where the opponent has one good
//! answer, most random games miss it and the flat mean is far too kind.
//! On 9×9 against GNU Go level 0, more flat games (less noise) did not
//! help: 300 a leaf at depth 1 lost by 42.9 points a game, 128 at depth 2
//! by 38.1, so the error is this bias more than the noise. With enough
//! games the tree plays the answer the random games miss in most of them
//! (the vital-point test below, 2,000 games). With the player's 128 games
//! and some 60 legal moves the tree is shallow: each first move is tried
//! about once and the remaining games go to the first moves that did best.
//! Even so the same 128 games a leaf lost by 30.2 instead of 38.1 (table
//! at [`super::mc::MC_SHARE`]); which part of that comes from trying every
//! first move and which from the second half's choices was not measured
//! apart.
//!
//! The root's value is the mean over all its games, not the mean of its
//! most visited child (what a UCT player moves by): that child's mean
//! rests on a few dozen games, and at depth 1 with 300 games a leaf it
//! lost by 58.2 points a game, the mean over all by 31.5.
//!
//! RAVE was tried under the leaves and not kept there (session 22).
//! All-moves-as-first values
//! (Gelly and Silver, "Combining online and offline knowledge in UCT",
//! ICML 2007: a child's mean mixed with the mean of the games in which its
//! player played its point later, weight `sqrt(k / (3n + k))`, k = 300,
//! exploration 0.1) made the tree itself better: on the vital-point board
//! below its most visited move was the vital point from 100 games on
//! (plain UCB1 had not found it at 800), and its value at 800 games was
//! −21 points against plain UCB1's −28 (alive is −15). In games it did not
//! help: at 20 s against GNU Go level 0 (the table at
//! [`super::mc::MC_SHARE`]) it lost by 31.8 points a game over 60 games,
//! plain UCB1 by 28.6 over 76 (runs of this session and the last);
//! at depth 1 with 400 games a leaf, −33.4 against −35.5. A better
//! estimate of single leaves does not make the search's choices better
//! here, so the leaf trees stay plain UCB1. The code (a second pair of
//! sums per node, the game's moves logged for the backup, [`amaf`]) serves
//! the root player of [`super::mcts`] instead, one tree for the whole move,
//! where it made the difference: at 20 s against GNU Go level 0 that tree
//! won 10 of 20 games with RAVE (−16.3 points a game) and 2 of 17 scored without
//! (−53.5), session 23.
//!
//! Each game descends from the leaf by UCB1 over the mean reward of the
//! children (an unvisited child first, in generation order), expands a
//! node on its second visit (every legal move that is neither the mover's
//! own true eye nor a self-atari of two stones or more, and the pass),
//! then finishes with the random policy of [`super::mc::play_out`]; two
//! passes in the tree end the game, scored by area as it stands, as in
//! the search. The reward of a game for a mover is a win counted ½ plus a
//! score term capped at ±[`SCORE_SCALE`] points counted ½: a player 40
//! points behind wins no random game, and without the score term every
//! move would look the same to it.
//!
//! The nodes live in one pool allocated with the player; a tree is
//! rebuilt for every leaf (for every move in [`super::mcts`], which keeps
//! it across its batches of games), and when the pool is full nodes stop
//! expanding. Nothing allocates per leaf.

use super::eval::UNIT;
use super::mc::{big_self_atari, black_area, game_rng, play_out, play_out_seen};
use crate::go::board::{Board, Point, MAX_POINTS, NUM_POINTS, PASS};
use crate::go::playout::is_true_eye;
use crate::go::{score, Color};
use arrayvec::ArrayVec;

/// Nodes in the pool: enough for 10,000 games with a node expanded every
/// second visit on 9×9 (at most 82 children each).
const POOL: usize = 1 << 18;
/// Visits before a node's children are made.
const EXPAND_AT: u32 = 2;
/// UCB1's exploration constant, for rewards in [0, 1].
const EXPLORE: f64 = 0.7;
/// Points at which the score term of a reward saturates.
const SCORE_SCALE: f64 = 30.0;
/// Deepest path a game follows in the tree; deeper, it goes on at random.
/// Deeper than any tree a leaf's games build (each game makes one node).
const MAX_DEPTH: usize = 1024;
/// Moves of one game: the tree's path, then at most the random game's
/// limit (three moves a point).
const LOG: usize = MAX_DEPTH + 3 * MAX_POINTS;

/// UCB's exploration constant with all-moves-as-first values ([`amaf`]):
/// small, since those values already spread the games (0.7 kept the
/// vital-point test's games spread over every move; 0.1 gave the vital
/// point a quarter of them).
const AMAF_EXPLORE: f64 = 0.1;

mod amaf;
mod prior;

#[derive(Clone, Copy, Default)]
struct Node {
    mv: u16,
    /// Index of the first child; children are contiguous. A node with
    /// no children is not expanded yet (an expanded one has the pass).
    first: u32,
    children: u16,
    visits: u32,
    /// Games in which the move of this node was played later by the same
    /// player, first at its point (all moves as first).
    amaf_visits: u32,
    /// Sum of the rewards, for the player who moved into this node.
    reward: f64,
    /// Sum of the rewards of the all-moves-as-first games.
    amaf_reward: f64,
}

impl Node {
    /// Indices of the node's children in the pool (empty when it is not
    /// expanded).
    fn children(&self) -> std::ops::Range<usize> {
        self.first as usize..self.first as usize + usize::from(self.children)
    }
}

// The pool's size in memory (`super::mcts::POOL`) counts on it.
const _: () = assert!(std::mem::size_of::<Node>() == 32);

pub(crate) struct Tree {
    nodes: Box<[Node]>,
    /// A second pool as large as `nodes` for the RAVE tree of the root
    /// player, into which [`Tree::keep_subtree`] copies the part of the
    /// tree that is still of use; empty for the leaf trees.
    spare: Box<[Node]>,
    used: usize,
    scratch: Board,
    path: ArrayVec<u32, MAX_DEPTH>,
    /// Whether the choice in the tree uses the all-moves-as-first means
    /// (RAVE, [`amaf`]); plain UCB1 without them.
    rave: bool,
    /// UCB's exploration constant.
    explore: f64,
    /// Whether the root's position follows a pass ([`Tree::reset`]).
    after_pass: bool,

    /// The moves of the current game, from the leaf.
    log: ArrayVec<(u16, Color), LOG>,
    /// Per point, the colour that played there first (0 none, 1 black,
    /// 2 white) from the ply being backed up on.
    first: Box<[u8]>,
}

impl Tree {
    /// A tree for the leaves of the search: plain UCB1.
    pub fn new() -> Tree {
        Tree::with_nodes(POOL, false)
    }

    /// A tree of `pool` nodes; with `rave`, the choice in the tree uses
    /// all-moves-as-first values ([`amaf`]).
    pub fn with_nodes(pool: usize, rave: bool) -> Tree {
        Tree {
            nodes: vec![Node::default(); pool].into_boxed_slice(),
            spare: vec![Node::default(); if rave { pool } else { 0 }].into_boxed_slice(),
            used: 0,
            scratch: Board::new(1),
            path: ArrayVec::new(),
            rave,
            explore: if rave { AMAF_EXPLORE } else { EXPLORE },
            after_pass: false,
            log: ArrayVec::new(),
            first: vec![0; NUM_POINTS].into_boxed_slice(),
        }
    }

    /// The value of `b` for its side to move, in [`UNIT`]s, komi
    /// (`komi`, in [`UNIT`]s) included: the mean black score of `games`
    /// games through the tree, seen from the mover.
    /// Also returns the moves played, for the caller's counters.
    pub fn value(&mut self, b: &Board, komi: i32, last: Point, games: u32) -> (i32, u64) {
        self.reset(last, last == PASS);
        let games = games.max(1);
        let (sum, moves) = self.play_games(b, komi, last, 0..games);
        let v = (sum / f64::from(games) * f64::from(UNIT)).round() as i32;
        let v = match b.to_move() {
            Color::Black => v,
            Color::White => -v,
        };
        (v, moves)
    }

    /// Empties the tree: its root is the position after `last`. A pass
    /// first in the tree ends the game when `after_pass` (the previous move
    /// was a pass); a `last` of [`PASS`] without it is a game with no move
    /// yet.
    pub fn reset(&mut self, last: Point, after_pass: bool) {
        self.after_pass = after_pass;
        self.used = 1;
        self.nodes[0] = Node {
            mv: last as u16,
            ..Node::default()
        };
    }

    /// Keeps, as the whole tree, the subtree after the moves `mine` then
    /// `theirs` from the root (the root player's last move and the
    /// opponent's answer), so that the games already played below them
    /// count for the next move. False, with the tree unchanged, when the
    /// tree has no such node with a game, or has no spare pool.
    pub fn keep_subtree(&mut self, mine: Point, theirs: Point) -> bool {
        let child = |t: &Tree, node: usize, p: Point| {
            t.nodes[node]
                .children()
                .find(|&i| t.nodes[i].mv as Point == p)
        };
        let Some(root) = child(self, 0, mine).and_then(|c| child(self, c, theirs)) else {
            return false;
        };
        if self.nodes[root].visits == 0 || self.spare.len() != self.nodes.len() {
            return false;
        }
        // Breadth first: every node's children are copied, contiguous as
        // they were, when the node's own turn in the queue comes, so the
        // queue is the new pool itself.
        self.spare[0] = self.nodes[root];
        let mut used = 1;
        let mut next = 0;
        while next < used {
            let n = self.spare[next];
            let k = usize::from(n.children);
            if k > 0 {
                let from = n.first as usize;
                self.spare[used..used + k].copy_from_slice(&self.nodes[from..from + k]);
                self.spare[next].first = used as u32;
                used += k;
            }
            next += 1;
        }
        std::mem::swap(&mut self.nodes, &mut self.spare);
        self.used = used;
        self.after_pass = theirs == PASS;
        true
    }

    /// Plays the games numbered `games` (their random generators are
    /// seeded with `b`'s hash and the number) from `b` through the tree,
    /// which must have been [`Tree::reset`] for `b` and is kept between
    /// calls. Returns the sum of their black scores (komi, in [`UNIT`]s,
    /// taken off) and the moves played.
    pub fn play_games(
        &mut self,
        b: &Board,
        komi: i32,
        last: Point,
        games: std::ops::Range<u32>,
    ) -> (f64, u64) {
        let komi_pts = f64::from(komi) / f64::from(UNIT);
        let mover = b.to_move();
        let mut moves = 0u64;
        let mut sum = 0.0;
        for i in games {
            self.scratch.clone_from(b);
            self.path.clear();
            self.path.push(0);
            if self.rave {
                self.log.clear();
            }
            let mut node = 0usize;
            let mut last_move = last;
            let mut over = false;
            while !self.path.is_full() {
                let n = self.nodes[node];
                if n.children == 0 {
                    if n.visits + 1 >= EXPAND_AT && self.expand(node, last_move) {
                        continue;
                    }
                    break;
                }
                let child = self.select(node);
                let p = self.nodes[child].mv as Point;
                let color = self.scratch.to_move();
                self.scratch.play(color, p);
                if self.rave {
                    self.log.push((p as u16, color));
                }
                moves += 1;
                last_move = p;
                node = child;
                self.path.push(child as u32);
                let before = self.path.len() - 2;
                if p == PASS
                    && self.nodes[self.path[before] as usize].mv as Point == PASS
                    && (before > 0 || self.after_pass)
                {
                    over = true;
                    break;
                }
            }
            let mut rng = game_rng(b, i);
            // Two passes in the tree end the game as they end it in the
            // search: scored by area as it stands (`score::area_score`);
            // a finished random game is scored point by point.
            let area = if over {
                score::area_score(&self.scratch, &[], 0.0)
            } else {
                moves += if self.rave {
                    let log = &mut self.log;
                    play_out_seen(&mut self.scratch, &mut rng, last_move, |c, p| {
                        // A game longer than `LOG` loses its last moves
                        // from the statistics only.
                        let _ = log.try_push((p as u16, c));
                    })
                } else {
                    play_out(&mut self.scratch, &mut rng, last_move)
                } as u64;
                f64::from(black_area(&self.scratch))
            };
            let black = area - komi_pts;
            sum += black;
            let black_reward = reward(black);
            // The node at depth d was entered by the mover's move when d
            // is odd.
            for (d, &k) in self.path.iter().enumerate() {
                let n = &mut self.nodes[k as usize];
                n.visits += 1;
                let by = if d % 2 == 1 { mover } else { mover.opp() };
                n.reward += match by {
                    Color::Black => black_reward,
                    Color::White => 1.0 - black_reward,
                };
            }
            if self.rave {
                self.back_up_amaf(mover, black_reward);
            }
        }
        (sum, moves)
    }

    /// The root's children: move and games through it.
    pub fn root_children(&self) -> impl Iterator<Item = (Point, u32)> + '_ {
        self.nodes[self.nodes[0].children()]
            .iter()
            .map(|c| (c.mv as Point, c.visits))
    }

    /// Games played through the root.
    pub fn root_games(&self) -> u32 {
        self.nodes[0].visits
    }

    /// Nodes of the pool in use.
    pub fn used(&self) -> usize {
        self.used
    }

    /// The index of the root's most visited child; the root itself when it
    /// has none yet (a single game). The tests read the tree's choice with it.
    #[cfg(test)]
    pub(super) fn most_visited(&self) -> usize {
        self.most_visited_child(0).unwrap_or(0)
    }

    /// The most visited child of `node` (the first of equals), if it has
    /// a visited one.
    fn most_visited_child(&self, node: usize) -> Option<usize> {
        let n = &self.nodes[node];
        let mut best = None;
        let mut most = 0;
        for i in n.children() {
            if self.nodes[i].visits > most {
                most = self.nodes[i].visits;
                best = Some(i);
            }
        }
        best
    }

    /// The moves of the line of most visited children from the root.
    pub fn principal_variation(&self) -> impl Iterator<Item = Point> + '_ {
        std::iter::successors(self.most_visited_child(0), |&i| self.most_visited_child(i))
            .map(|i| self.nodes[i].mv as Point)
    }

    /// Makes the children of `node` (the position on the scratch board);
    /// false when the pool has no room.
    fn expand(&mut self, node: usize, last: Point) -> bool {
        let b = &self.scratch;
        let color = b.to_move();
        let first = self.used;
        let mut k = first;
        for p in b.points() {
            if k + 1 >= self.nodes.len() {
                return false;
            }
            if b.is_empty(p)
                && b.is_legal(color, p)
                && !is_true_eye(b, color, p)
                && !big_self_atari(b, color, p)
            {
                let (amaf_visits, amaf_reward) = if self.rave {
                    prior::prior(b, color, p, last)
                } else {
                    (0, 0.0)
                };
                self.nodes[k] = Node {
                    mv: p as u16,
                    amaf_visits,
                    amaf_reward,
                    ..Node::default()
                };
                k += 1;
            }
        }
        self.nodes[k] = Node {
            mv: PASS as u16,
            ..Node::default()
        };
        k += 1;
        self.used = k;
        let n = &mut self.nodes[node];
        n.first = first as u32;
        n.children = (k - first) as u16;
        true
    }

    /// UCB1 over the children of `node`: an unvisited child first.
    fn select(&self, node: usize) -> usize {
        if self.rave {
            return self.select_amaf(node);
        }
        let log = f64::from(self.nodes[node].visits.max(1)).ln();
        self.best_child(node, |c| {
            if c.visits == 0 {
                return f64::INFINITY;
            }
            let v = f64::from(c.visits);
            c.reward / v + self.explore * (log / v).sqrt()
        })
    }

    /// The child of `node` with the highest `score`, the first of equals.
    fn best_child(&self, node: usize, score: impl Fn(&Node) -> f64) -> usize {
        let n = self.nodes[node];
        let mut best = n.first as usize;
        let mut best_score = f64::NEG_INFINITY;
        for i in n.children() {
            let s = score(&self.nodes[i]);
            if s > best_score {
                best_score = s;
                best = i;
            }
        }
        best
    }
}

/// Black's reward in [0, 1] for a final score `black` (points).
fn reward(black: f64) -> f64 {
    let win = if black > 0.0 {
        1.0
    } else if black < 0.0 {
        0.0
    } else {
        0.5
    };
    0.5 * win + 0.25 * (1.0 + (black / SCORE_SCALE).clamp(-1.0, 1.0))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::mc::McEval;
    use crate::search::testutil::{board_from, two_eyed_board};

    /// Black's group has one eye space of three points in a row: the
    /// middle point C6 makes two eyes; anywhere else white takes it and
    /// the group dies.
    pub(super) const VITAL_POINT: &str = "
        XXXXXXX
        X...XOO
        XXXXXO.
        OOOOOO.
        .......
        .......
        .......";

    fn flat(b: &Board, games: u32, last: Point) -> i32 {
        let mut m = McEval::new();
        m.tree = None;
        m.playouts = games;
        m.value(b, 0, last)
    }

    #[test]
    fn the_tree_finds_the_vital_point_that_random_games_miss() {
        // Black's group has one eye space of three points in a row, and
        // black is to move: the middle point C6 makes two eyes; anywhere
        // else white takes it and the group dies. Random games take it
        // first in only some of their games.
        let b = board_from(VITAL_POINT);
        let last = Board::point_at(0, 0);
        let mut t = Tree::new();
        let (tree, _) = t.value(&b, 0, last, 2000);
        let vital = Board::point_at(2, 5);
        assert_eq!(t.nodes[t.most_visited()].mv as Point, vital);
        // Alive, black owns 17 points and white 32 (-15); dead, -49.
        let flat = flat(&b, 2000, last);
        assert!(tree > flat + 2 * UNIT, "tree {tree} flat {flat}");
        assert!(tree < -15 * UNIT, "{tree}");
    }

    #[test]
    fn a_settled_board_scores_exactly_for_either_side() {
        let mut b = two_eyed_board();
        let mut t = Tree::new();
        // The games in the tree pass (both eyes are black's true eyes,
        // white has no legal move), and two passes end the game.
        assert_eq!(t.value(&b, 700, PASS, 50).0, 2500 - 700);
        assert_eq!(t.value(&b, 700, Board::point_at(0, 0), 50).0, 2500 - 700);
        b.set_to_move(Color::White);
        assert_eq!(t.value(&b, 700, Board::point_at(0, 0), 50).0, -(2500 - 700));
    }

    #[test]
    fn the_same_leaf_gets_the_same_value_and_a_full_pool_is_harmless() {
        let mut b = Board::new(9);
        b.set_to_move(Color::Black);
        // A pool of 400 nodes holds the root's 82 children and three or
        // four expansions below them; the games go on without new nodes.
        let (mut t1, mut t2) = (Tree::with_nodes(400, false), Tree::with_nodes(400, false));
        let (v1, m1) = t1.value(&b, 700, PASS, 1000);
        assert!(t1.used > 400 - 83 && t1.used < 400, "{}", t1.used);
        assert_eq!(t1.nodes[0].visits, 1000);
        assert_eq!((v1, m1), t2.value(&b, 700, PASS, 1000));
        assert!(v1.abs() < 30 * UNIT, "{v1}");
        // A large pool gives a different tree, and a value of the same kind.
        let (v, _) = Tree::new().value(&b, 700, PASS, 1000);
        assert!(v.abs() < 30 * UNIT, "{v}");
    }
}
