//! MCTS-Solver (Winands, Björnsson & Saito, "Monte-Carlo Tree Search
//! Solver", CG 2008; seed 001's baseline, there cast in its best-first
//! framework): UCT with random playouts whose tree also backs up proven
//! values.
//!
//! One iteration descends from the root by UCT (unvisited children first,
//! in move order; children proven won for their mover — lost for us — are
//! never chosen), expands a leaf the second time it is reached (all its
//! children at once, each checked for a terminal position, in the
//! contiguous layout of the [`store`](super::store)), plays one uniformly
//! random playout from the first unvisited node, and backs the result up.
//! The solver part: a node with a child lost for that child's mover is won;
//! a node whose children are all won for their movers is lost; proven
//! nodes return their proven result instead of a playout.
//!
//! A node stores its visits and twice the sum of its rewards for its mover
//! (a draw scores ½), 8 bytes. The random generator is a fixed-seed
//! xorshift, so node counts are deterministic. Node count: iterations
//! (playouts). Draws are resolved by the two proofs of
//! [`bestfirst::drive`](super::bestfirst::drive).

use super::bestfirst::{drive, memory, Ctx, Prover, Status, MAX_DEPTH};
use super::store::{Node, NodeId, Store, EXPANDED, LOST, WON};
use super::{Limits, Report, Stopped};
use crate::games::{Game, MoveList, Outcome};

/// UCT exploration constant for rewards in [0, 1].
pub const UCT_C: f64 = 0.7;

/// The playout generator's seed.
const SEED: u64 = 0x2545_F491_4F6C_DD1D;

/// The MCTS-Solver search with its store.
pub struct Mcts<G: Game> {
    /// (visits, twice the reward sum for the node's mover).
    store: Store<[u32; 2], G::Move>,
    path: Vec<(NodeId, G::Move, G::Undo)>,
    playout: Vec<(G::Move, G::Undo)>,
    moves: MoveList<G::Move>,
    rng: u64,
}

impl<G: Game> Mcts<G> {
    pub fn new(memory: usize) -> Self {
        Mcts {
            store: Store::new(memory, false, usize::MAX),
            path: Vec::with_capacity(MAX_DEPTH),
            playout: Vec::with_capacity(MAX_DEPTH),
            moves: MoveList::new(),
            rng: SEED,
        }
    }

    #[inline]
    fn random(&mut self, n: usize) -> usize {
        self.rng ^= self.rng << 13;
        self.rng ^= self.rng >> 7;
        self.rng ^= self.rng << 17;
        ((self.rng.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 32) as usize * n) >> 32
    }

    fn fresh(g: &G, ctx: &mut Ctx) -> Node<[u32; 2]> {
        let flags = g
            .outcome()
            .map_or(0, |o| ctx.terminal_flags(o, g.to_move()));
        Node::new([0, 0], flags)
    }

    /// Creates every child of `id`; false when the store is full.
    fn expand(&mut self, id: NodeId, g: &mut G, ctx: &mut Ctx) -> bool {
        self.moves.clear();
        g.moves(&mut self.moves);
        let k = self.moves.len();
        if !self.store.fits(k, k) {
            return false;
        }
        let first = self.store.edges() as u32;
        for i in 0..k {
            let m = self.moves[i];
            let u = g.play(m);
            let child = self.store.push_node(Self::fresh(g, ctx));
            g.undo(m, u);
            self.store.push_edge(child, m);
        }
        let node = self.store.node_mut(id);
        node.first = first;
        node.len = k as u16;
        node.flags |= EXPANDED;
        true
    }

    /// The child to descend into: unvisited first, then UCT; never a child
    /// won for its mover. `None` when every child is (the node is lost).
    fn select(&self, id: NodeId) -> Option<usize> {
        let node = self.store.node(id);
        let ln_n = (node.value[0].max(1) as f64).ln();
        let mut best: Option<(usize, f64)> = None;
        for i in 0..node.len as usize {
            let c = self.store.node(self.store.child(node.first as usize + i));
            if c.flags & WON != 0 {
                continue;
            }
            if c.flags & LOST != 0 || c.value[0] == 0 {
                return Some(i);
            }
            let visits = c.value[0] as f64;
            let q = 1.0 - c.value[1] as f64 / (2.0 * visits);
            let score = q + UCT_C * (ln_n / visits).sqrt();
            if best.is_none_or(|(_, s)| score > s) {
                best = Some((i, score));
            }
        }
        best.map(|(i, _)| i)
    }

    /// A random playout from `g`: twice the reward for `g`'s mover.
    fn rollout(&mut self, g: &mut G, ctx: &mut Ctx) -> u32 {
        let mover = g.to_move();
        let reward2 = loop {
            if let Some(o) = g.outcome() {
                let won = ctx.terminal_flags(o, g.to_move()) == WON;
                let mover_won = won == (g.to_move() == mover);
                break if o == Outcome::Draw {
                    1
                } else if mover_won {
                    2
                } else {
                    0
                };
            }
            if self.playout.len() == MAX_DEPTH {
                break 1;
            }
            self.moves.clear();
            g.moves(&mut self.moves);
            let i = self.random(self.moves.len());
            let m = self.moves[i];
            let u = g.play(m);
            self.playout.push((m, u));
        };
        while let Some((m, u)) = self.playout.pop() {
            g.undo(m, u);
        }
        reward2
    }

    /// Whether a node's children prove it: `WON`, `LOST` or 0.
    fn proven(&self, id: NodeId) -> u16 {
        let node = self.store.node(id);
        let mut all_won = true;
        for i in 0..node.len as usize {
            let c = self.store.node(self.store.child(node.first as usize + i));
            if c.flags & LOST != 0 {
                return WON;
            }
            all_won &= c.flags & WON != 0;
        }
        if all_won {
            LOST
        } else {
            0
        }
    }

    fn iterate(&mut self, g: &mut G, ctx: &mut Ctx) -> bool {
        let mut cur: NodeId = 0;
        loop {
            let node = *self.store.node(cur);
            if node.solved() {
                break;
            }
            if node.flags & EXPANDED == 0 {
                if node.value[0] == 0 && cur != 0 {
                    break;
                }
                if !self.expand(cur, g, ctx) {
                    return false;
                }
            }
            let Some(i) = self.select(cur) else {
                break;
            };
            let node = self.store.node(cur);
            let e = node.first as usize + i;
            let (child, m) = (self.store.child(e), self.store.edge_move[e]);
            if self.path.len() == MAX_DEPTH {
                return false;
            }
            let u = g.play(m);
            self.path.push((cur, m, u));
            cur = child;
        }
        let flags = self.store.node(cur).flags;
        let mut reward2 = if flags & WON != 0 {
            2
        } else if flags & LOST != 0 {
            0
        } else if flags & EXPANDED != 0 {
            // Every child won for the opponent: the node is lost.
            self.store.node_mut(cur).flags |= LOST;
            0
        } else {
            self.rollout(g, ctx)
        };
        // Proven values propagate while each parent becomes proven too.
        let mut solving = self.store.node(cur).solved();
        loop {
            let node = self.store.node_mut(cur);
            node.value[0] += 1;
            node.value[1] += reward2;
            if solving && node.flags & EXPANDED != 0 && !node.solved() {
                let p = self.proven(cur);
                self.store.node_mut(cur).flags |= p;
                solving = p != 0;
            }
            let Some((parent, m, u)) = self.path.pop() else {
                break;
            };
            g.undo(m, u);
            cur = parent;
            reward2 = 2 - reward2;
        }
        true
    }
}

impl<G: Game> Prover<G> for Mcts<G> {
    fn prove(&mut self, root: &G, ctx: &mut Ctx) -> Status {
        self.store.clear();
        self.path.clear();
        self.rng = SEED;
        let mut g = root.clone();
        self.store.push_node(Self::fresh(&g, ctx));
        loop {
            let flags = self.store.node(0).flags;
            if flags & WON != 0 {
                self.store.note_peak();
                return Status::Won;
            }
            if flags & LOST != 0 {
                self.store.note_peak();
                return Status::Lost;
            }
            if ctx.check() {
                self.store.note_peak();
                return Status::Open;
            }
            if !self.iterate(&mut g, ctx) {
                self.store.note_peak();
                ctx.stopped = Some(Stopped::Memory);
                return Status::Open;
            }
            ctx.expansions += 1;
            ctx.work += 1;
        }
    }

    /// A child lost for its mover when there is one, else the most visited.
    fn best_move(&self) -> Option<G::Move> {
        let root = self.store.node(0);
        let mut best: Option<(usize, u64)> = None;
        for i in 0..root.len as usize {
            let c = self.store.node(self.store.child(root.first as usize + i));
            let score = if c.flags & LOST != 0 {
                u64::MAX
            } else {
                c.value[0] as u64
            };
            if best.is_none_or(|(_, s)| score > s) {
                best = Some((i, score));
            }
        }
        best.map(|(i, _)| self.store.edge_move[root.first as usize + i])
    }

    fn peak_memory(&self) -> usize {
        self.store.peak()
    }
}

/// Solves `game` by MCTS-Solver (node count: iterations).
pub fn solve<G: Game>(game: &G, limits: &Limits) -> Report<G::Move> {
    let mut mcts = Mcts::new(memory(limits));
    drive(&mut mcts, game, limits).report
}
