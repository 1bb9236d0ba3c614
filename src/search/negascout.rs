//! NegaScout (principal variation search) with iterative deepening, following
//! T.-s. Hsu, "Scout and NegaScout" (lecture notes, 2019; seed paper 004),
//! itself after Pearl's SCOUT (1980) and Reinefeld's NegaScout (1983):
//!
//! - the first move of a node is searched with the full window; every later
//!   move first gets SCOUT's TEST, done as a null-window search around the
//!   best value so far, `(a, a + 1)` with `a = max(alpha, best)`;
//! - the search is fail-soft: a node returns the best value it saw even when
//!   outside the window, so a failed TEST still gives a usable bound;
//! - when the TEST fails high inside the window (`a < t < beta`), the move is
//!   re-searched with the window `(t, beta)` (the notes' line 13): `t` is a
//!   lower bound and only values above it are still unknown;
//! - with fewer than three plies left the re-search is skipped (line 11):
//!   the child then has at most one ply below it, and a fail-soft null-window
//!   search that fails low at such a child has looked at every grandchild,
//!   all of them leaves, so its value is exact. For this to hold the table
//!   must not answer a depth-1 node with an upper bound, which `Search::node`
//!   respects.
//!
//! Around this core: a transposition table ([`super::tt`]) whose move is tried
//! first and whose bounds cut off; two killer moves per ply and the history
//! heuristic for quiet moves; captures and atari escapes ordered early by the
//! move generator (`movegen`); quiescence searches at the leaves that get
//! the node's window unless exact leaves are asked for
//! ([`Core::exact_leaves`]).
//!
//! Go specifics: the pass is a move at every node, and a pass after a pass
//! ends the game, scored exactly by area (no dead stones removed) in the same
//! unit as the evaluation ([`super::eval::UNIT`], 1/100 point). Under
//! positional superko a move that repeats a position of the game or of the
//! current search path is skipped; simple ko is the board's business.
//!
//! Nothing here allocates: move lists are `ArrayVec`s on the stack, and every
//! table lives in `Core`, allocated once by the player.

use super::eval::UNIT;
use super::mc::{McEval, MC_SHARE};
use super::movegen::{self, MoveList, Scored};
use super::quiesce::{self, Leaf};
use super::status::Status;
use super::time::{self as clock, Budget, IterationState};
use super::tt::{self, Bound, Tt, NO_MOVE};
use crate::go::board::{Board, Point, MAX_POINTS, NUM_POINTS, PASS};
use crate::go::{score, Color};
use arrayvec::ArrayVec;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Deepest ply the search ever reaches (sizes the per-ply tables).
pub const MAX_PLY: usize = 64;
/// Larger than any value (scores are at most 625 points plus komi, in 1/100).
pub const INF: i32 = 10_000_000;

/// Half-width of the first aspiration window at the root, in evaluation
/// units (see [`Search::aspiration`]).
const ASPIRATION: i32 = 300;
const KILLER_BONUS: [i32; 2] = [800_000, 700_000];
const HISTORY_CAP: u32 = 100_000;
/// Bits in the filter that screens game-history hashes for superko.
const FILTER_BITS: usize = 1 << 16;

/// Search state that outlives one `genmove`, allocated once.
pub(crate) struct Core {
    pub tt: Tt,
    pub use_tt: bool,
    /// Whether the leaves' quiescence searches get the full window, so that
    /// every depth's root value is its exact minimax value (what the tests
    /// compare with alpha-beta). Off (the player's default), a leaf's
    /// quiescence search gets the node's window (`quiesce::window_value`),
    /// and its stand-pat cutoffs skip the tactical lines that cannot
    /// matter: that halved the nodes of a depth-5 search, and at 10 s a
    /// game it won 25 of 30 games (2 draws) against the full-window player.
    /// The leaves' values are then bounds outside the window, so the notes'
    /// line-11 shortcut (no re-search with fewer than three plies left,
    /// sound only over exact leaves) is not taken: a TEST that fails high
    /// inside the window is re-searched at every depth.
    pub exact_leaves: bool,
    /// Block verdicts of the root ([`super::status`]), read at the leaves
    /// and in move ordering when `use_status` is set.
    pub status: Box<Status>,
    pub use_status: bool,
    /// The Monte-Carlo leaf estimate ([`super::mc`]), averaged with the
    /// quiescence value at every leaf when its playout count is not 0.
    pub mc: McEval,
    killers: [[u16; 2]; MAX_PLY],
    history: [[u32; NUM_POINTS]; 2],
    /// Triangular principal-variation table: `pv[ply][..pv_len[ply]]`.
    pv: [[u16; MAX_PLY]; MAX_PLY],
    pv_len: [usize; MAX_PLY],
    /// Stone hashes of the positions along the current search path.
    path: ArrayVec<u64, MAX_PLY>,
    /// A one-hash Bloom filter over the game's position hashes, so that a
    /// superko check scans the history only on a (rare) filter hit.
    filter: [u64; FILTER_BITS / 64],
    mask: [bool; NUM_POINTS],
    pub(crate) root: ArrayVec<RootMove, { MAX_POINTS + 1 }>,
    /// The principal variation of the last completed iteration.
    pub(crate) best_pv: ArrayVec<u16, MAX_PLY>,
}

#[derive(Clone, Copy, Debug)]
pub(crate) struct RootMove {
    pub p: u16,
    /// Value (or, for moves that failed the TEST, upper bound) from the
    /// last iteration; orders the next one.
    pub value: i32,
}

impl Core {
    pub fn new(tt_megabytes: usize) -> Box<Core> {
        let mut core = Box::new(Core {
            tt: Tt::new(tt_megabytes),
            use_tt: true,
            exact_leaves: false,
            status: Status::new(),
            use_status: false,
            mc: McEval::new(),
            killers: [[NO_MOVE; 2]; MAX_PLY],
            history: [[0; NUM_POINTS]; 2],
            pv: [[0; MAX_PLY]; MAX_PLY],
            pv_len: [0; MAX_PLY],
            path: ArrayVec::new(),
            filter: [0; FILTER_BITS / 64],
            mask: [false; NUM_POINTS],
            root: ArrayVec::new(),
            best_pv: ArrayVec::new(),
        });
        core.reset_heuristics();
        core
    }

    pub fn reset_heuristics(&mut self) {
        self.killers = [[NO_MOVE; 2]; MAX_PLY];
        for h in self.history.iter_mut() {
            h.fill(0);
        }
    }
}

/// What one search is about, fixed for its duration.
pub(crate) struct Context<'a> {
    /// Komi in evaluation units.
    pub komi: i32,
    pub superko: bool,
    /// Stone hashes of every position of the game so far.
    pub history: &'a [u64],
    /// Limit candidates to points near stones (big boards).
    pub restrict: bool,
    /// The previous move of the game was the opponent's pass.
    pub previous_pass: bool,
    /// Whether the pass is a root move. `kgs-genmove_cleanup` leaves it
    /// out while dead stones remain to be captured; it is kept anyway when
    /// there is no other legal move.
    pub root_pass: bool,
}

pub(crate) struct Limits {
    pub max_depth: u32,
    pub max_nodes: u64,
    /// Target and hard limit ([`clock::start_next_iteration`] decides on
    /// new iterations; the hard limit cuts a running one short).
    pub time: Option<Budget>,
}

/// Nodes between two looks at the clock. The stop flag is read at every
/// node (a relaxed atomic load); the clock costs a system call's worth, and
/// 16 nodes take well under a millisecond even at 19×19.
const CLOCK_INTERVAL: u64 = 16;

/// Result of iterative deepening (the PV is left in `Core::best_pv`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Outcome {
    pub best: Point,
    pub value: i32,
    pub depth: u32,
    pub nodes: u64,
}

pub(crate) struct Search<'a> {
    core: &'a mut Core,
    ctx: Context<'a>,
    stop: &'a AtomicBool,
    deadline: Option<Instant>,
    max_nodes: u64,
    nodes: u64,
    aborted: bool,
    /// Whether the node limit may cut the iteration short: not at depth 1,
    /// so that node-limited searches always have a move and stay
    /// reproducible. The clock and the stop flag cut any iteration short;
    /// an unfinished depth 1 answers the best of the root moves it did
    /// finish.
    can_abort: bool,
    /// Root moves whose value the current iteration has finished.
    root_done: usize,
}

impl<'a> Search<'a> {
    pub fn new(core: &'a mut Core, ctx: Context<'a>, stop: &'a AtomicBool) -> Search<'a> {
        Search {
            core,
            ctx,
            stop,
            deadline: None,
            max_nodes: u64::MAX,
            nodes: 0,
            aborted: false,
            can_abort: false,
            root_done: 0,
        }
    }

    /// Iterative deepening from `board` (its side to move is the mover).
    /// `root_legal` must accept exactly the moves the game allows (including
    /// superko); the pass is always a root move and is searched first, so
    /// another move is chosen only when strictly better.
    pub fn run(
        &mut self,
        board: &mut Board,
        limits: &Limits,
        root_legal: &dyn Fn(Point) -> bool,
    ) -> Outcome {
        let start = Instant::now();
        self.deadline = limits.time.map(|t| start + t.hard);
        self.max_nodes = limits.max_nodes;
        self.core.tt.new_search();
        self.core.reset_heuristics();
        self.core.path.clear();
        self.core.best_pv.clear();
        self.core.filter.fill(0);
        for &h in self.ctx.history {
            let i = filter_index(h);
            self.core.filter[i / 64] |= 1 << (i % 64);
        }

        let color = board.to_move();
        let mut list = MoveList::new();
        movegen::candidates(
            board,
            color,
            self.ctx.restrict,
            &mut self.core.mask,
            &mut list,
        );
        if self.core.use_status && self.core.status.any {
            let status = &self.core.status;
            list.retain(|m| !status.pointless[m.p as usize]);
            for m in list.iter_mut() {
                m.score += status.urgent[m.p as usize];
            }
        }
        // Static order, then point index, so ties are broken the same way on
        // every run.
        insertion_sort_by(&mut list, |a, b| b.score < a.score);
        self.core.root.clear();
        self.core.root.push(RootMove {
            p: PASS as u16,
            value: -INF,
        });
        for m in list.iter().filter(|m| root_legal(m.p as Point)) {
            self.core.root.push(RootMove {
                p: m.p,
                value: -INF,
            });
        }
        if !self.ctx.root_pass && self.core.root.len() > 1 {
            self.core.root.remove(0);
        }

        let mut out = Outcome {
            best: PASS,
            value: 0,
            depth: 0,
            nodes: 0,
        };
        let max_depth = limits.max_depth.clamp(1, MAX_PLY as u32 - 2);
        let mut last_iter = Duration::ZERO;
        let mut growth = 5.0;
        let mut before_last = 0;
        let mut stable = 0;
        for depth in 1..=max_depth {
            let iter_start = Instant::now();
            self.can_abort = depth > 1;
            let centre = if depth >= 3 { before_last } else { out.value };
            let (value, best_i) = self.aspiration(board, depth as i32, centre);
            before_last = out.value;
            if self.aborted {
                if depth == 1 {
                    out = self.unfinished_depth_one(value, best_i);
                }
                break;
            }
            let same = self.core.root[best_i].p as Point == out.best;
            stable = if same { stable + 1 } else { 1 };
            out = Outcome {
                best: self.core.root[best_i].p as Point,
                value,
                depth,
                nodes: self.nodes,
            };
            self.core.best_pv.clear();
            let len = self.core.pv_len[0];
            let pv = self.core.pv[0];
            self.core.best_pv.extend(pv[..len].iter().copied());
            self.order_root(best_i);
            if self.core.root.len() == 1 || self.nodes >= self.max_nodes {
                break;
            }
            let took = iter_start.elapsed();
            if !last_iter.is_zero() {
                growth = (took.as_secs_f64() / last_iter.as_secs_f64()).clamp(2.0, 10.0);
            }
            last_iter = took;
            if let Some(budget) = limits.time {
                let state = IterationState {
                    elapsed: start.elapsed(),
                    last: took,
                    growth,
                    stable,
                    root_moves: self.core.root.len(),
                    depth,
                };
                if !clock::start_next_iteration(&budget, &state) {
                    break;
                }
            }
        }
        out.nodes = self.nodes;
        out
    }

    /// The answer of a depth 1 cut short by the clock or the stop flag: the
    /// best root move it finished, but never the pass alone (searched first,
    /// it has no competitor yet): then the first move of the static order.
    fn unfinished_depth_one(&mut self, value: i32, best_i: usize) -> Outcome {
        self.core.best_pv.clear();
        let pass_first = self.core.root[0].p as Point == PASS;
        let (i, value) = if self.root_done > pass_first as usize {
            (best_i, value)
        } else {
            ((pass_first as usize).min(self.core.root.len() - 1), 0)
        };
        let best = self.core.root[i].p as Point;
        self.core.best_pv.push(best as u16);
        Outcome {
            best,
            value,
            depth: 0,
            nodes: self.nodes,
        }
    }

    /// Moves the best root move to the front after the pass, the rest by
    /// their last values; stable, so ties keep their earlier order.
    fn order_root(&mut self, best_i: usize) {
        let root = &mut self.core.root;
        // The pass stays first when it is a root move.
        let first = (root[0].p as Point == PASS) as usize;
        if best_i > first {
            let m = root[best_i];
            root.copy_within(first..best_i, first + 1);
            root[first] = m;
        }
        if root.len() > first + 1 {
            insertion_sort_by(&mut root[first + 1..], |a, b| b.value < a.value);
        }
    }

    /// One iteration with an aspiration window: a window of
    /// [`ASPIRATION`] around `previous` (the value of the iteration two plies
    /// shallower: Go evaluations swing with the parity of the depth, so the
    /// last iteration's value is a worse centre; on `tesuji bench player`
    /// this saves 19% of the nodes, the last value as centre lost 22%),
    /// widened on the
    /// side that failed (by a growing step, then to infinity) until the root
    /// value falls strictly inside. Depth 1 has no previous value and gets
    /// the full window. Returns the exact root value and the best move's
    /// index.
    fn aspiration(&mut self, b: &mut Board, depth: i32, previous: i32) -> (i32, usize) {
        if depth <= 1 {
            return self.root(b, depth, -INF, INF);
        }
        let mut step = ASPIRATION;
        let (mut alpha, mut beta) = (previous - step, previous + step);
        loop {
            let (value, best_i) = self.root(b, depth, alpha, beta);
            if self.aborted || (value > alpha && value < beta) {
                return (value, best_i);
            }
            step = step.saturating_mul(4);
            if value <= alpha {
                alpha = if step > ASPIRATION * 16 {
                    -INF
                } else {
                    value - step
                };
            } else {
                beta = if step > ASPIRATION * 16 {
                    INF
                } else {
                    value + step
                };
                // The move that failed high is the one to try first.
                self.order_root(best_i);
            }
        }
    }

    /// One iteration at the root within `(alpha, beta)`, fail-soft: returns
    /// the root value (exact when strictly inside the window, a bound
    /// otherwise) and the index of the best move. Stops at the first move
    /// that reaches `beta`.
    fn root(&mut self, b: &mut Board, depth: i32, alpha: i32, beta: i32) -> (i32, usize) {
        let color = b.to_move();
        let mut best = -INF;
        let mut best_i = 0;
        self.core.pv_len[0] = 0;
        self.root_done = 0;
        for i in 0..self.core.root.len() {
            let p = self.core.root[i].p as Point;
            let t = if p == PASS && self.ctx.previous_pass {
                self.nodes += 1;
                self.core.pv_len[1] = 0;
                self.terminal(b, color)
            } else {
                let u = b.play(color, p);
                let pass = p == PASS;
                if !pass {
                    self.core.path.push(b.hash());
                }
                let t = if i == 0 {
                    -self.node(b, -beta, -alpha, depth - 1, 1, p)
                } else {
                    // TEST: can this move beat the best so far?
                    let a = alpha.max(best);
                    let mut t = -self.node(b, -a - 1, -a, depth - 1, 1, p);
                    if t > a && t < beta && (depth >= 3 || !self.core.exact_leaves) && !self.aborted
                    {
                        t = -self.node(b, -beta, -t, depth - 1, 1, p);
                    }
                    t
                };
                if !pass {
                    self.core.path.pop();
                }
                b.undo(&u);
                t
            };
            if self.aborted {
                break;
            }
            self.root_done = i + 1;
            self.core.root[i].value = t;
            if t > best {
                best = t;
                best_i = i;
                self.update_pv(0, p);
                if best >= beta {
                    break;
                }
            }
        }
        (best, best_i)
    }

    #[inline]
    fn update_pv(&mut self, ply: usize, p: Point) {
        let child_len = self.core.pv_len[ply + 1].min(MAX_PLY - 1 - ply);
        let (head, tail) = self.core.pv.split_at_mut(ply + 1);
        head[ply][0] = p as u16;
        head[ply][1..=child_len].copy_from_slice(&tail[0][..child_len]);
        self.core.pv_len[ply] = child_len + 1;
    }

    fn check_limits(&mut self) {
        if (self.can_abort && self.nodes >= self.max_nodes) || self.stop.load(Ordering::Relaxed) {
            self.aborted = true;
        } else if self.nodes.is_multiple_of(CLOCK_INTERVAL) {
            if let Some(d) = self.deadline {
                if Instant::now() >= d {
                    self.aborted = true;
                }
            }
        }
    }

    /// Exact value of the game ended by two passes, for `color` (the player
    /// who would move next).
    fn terminal(&self, b: &Board, color: Color) -> i32 {
        let black = score::area_score(b, &[], 0.0) as i32 * UNIT - self.ctx.komi;
        match color {
            Color::Black => black,
            Color::White => -black,
        }
    }

    /// Whether the position with stone hash `h` repeats one of the game or
    /// of the search path (positional superko).
    #[inline]
    fn repeats(&self, h: u64) -> bool {
        if self.core.path.contains(&h) {
            return true;
        }
        let i = filter_index(h);
        self.core.filter[i / 64] & (1 << (i % 64)) != 0 && self.ctx.history.contains(&h)
    }

    /// The value of a leaf for the side to move: the quiescence search over
    /// the static evaluation, averaged with the Monte-Carlo estimate
    /// ([`super::mc`]) when that is on. The average needs the exact
    /// quiescence value (a bound outside the window would be averaged as if
    /// it were one), so the window is used only without it.
    fn leaf(&mut self, b: &mut Board, alpha: i32, beta: i32, last: Point) -> i32 {
        let mut leaf = Leaf {
            komi: self.ctx.komi,
            status: self.core.use_status.then_some(&*self.core.status),
            nodes: 0,
        };
        let v = if self.core.mc.playouts > 0 {
            let q = quiesce::leaf_value(&mut leaf, b, last);
            let m = self.core.mc.value(b, self.ctx.komi, last);
            (q * (100 - MC_SHARE) + m * MC_SHARE) / 100
        } else if self.core.exact_leaves {
            quiesce::leaf_value(&mut leaf, b, last)
        } else {
            quiesce::window_value(&mut leaf, b, alpha, beta, last)
        };
        self.nodes += leaf.nodes;
        v
    }

    /// Fail-soft NegaScout: the value of the position for the side to move,
    /// searched `depth` plies deep within `(alpha, beta)`.
    fn node(
        &mut self,
        b: &mut Board,
        alpha: i32,
        beta: i32,
        depth: i32,
        ply: usize,
        last: Point,
    ) -> i32 {
        let previous_pass = last == PASS;
        self.nodes += 1;
        self.core.pv_len[ply] = 0;
        self.check_limits();
        if self.aborted {
            return 0;
        }
        if depth <= 0 || ply >= MAX_PLY - 1 {
            return self.leaf(b, alpha, beta, last);
        }
        let color = b.to_move();
        let key = tt::key(b, previous_pass);
        let mut tt_move = NO_MOVE;
        if self.core.use_tt {
            if let Some(h) = self.core.tt.probe(key) {
                tt_move = h.mv;
                if h.depth as i32 >= depth {
                    let cut = match h.bound {
                        Bound::Exact => true,
                        Bound::Lower => h.value >= beta,
                        // Not at depth 1: the parent relies on an exact
                        // fail-low value there (see the module docs).
                        Bound::Upper => h.value <= alpha && depth >= 2,
                    };
                    if cut {
                        return h.value;
                    }
                }
            }
        }

        let mut moves = MoveList::new();
        movegen::candidates(b, color, self.ctx.restrict, &mut self.core.mask, &mut moves);
        if self.core.use_status && self.core.status.any {
            let status = &self.core.status;
            moves.retain(|m| !status.pointless[m.p as usize]);
            for m in moves.iter_mut() {
                m.score += status.urgent[m.p as usize];
            }
        }
        let killers = self.core.killers[ply];
        let history = &self.core.history[color.index()];
        for m in moves.iter_mut() {
            if m.p == tt_move {
                m.score = i32::MAX;
            } else {
                if m.p == killers[0] {
                    m.score += KILLER_BONUS[0];
                } else if m.p == killers[1] {
                    m.score += KILLER_BONUS[1];
                }
                m.score += history[m.p as usize].min(HISTORY_CAP) as i32;
            }
        }
        // The pass comes last unless the table says it is best.
        moves.push(Scored {
            p: PASS as u16,
            score: if tt_move == PASS as u16 {
                i32::MAX
            } else {
                i32::MIN
            },
        });

        let mut best = -INF;
        let mut best_move = NO_MOVE;
        let mut searched = 0;
        for i in 0..moves.len() {
            // Selection sort step: a cutoff usually comes early, so sorting
            // the whole list would be wasted work.
            let mut j = i;
            for k in i + 1..moves.len() {
                if moves[k].score > moves[j].score {
                    j = k;
                }
            }
            moves.swap(i, j);
            let p = moves[i].p as Point;
            let a = alpha.max(best);
            let t = if p == PASS {
                if previous_pass {
                    self.nodes += 1;
                    self.core.pv_len[ply + 1] = 0;
                    self.terminal(b, color)
                } else {
                    let u = b.play(color, PASS);
                    let t = self.child(b, a, beta, depth, ply, PASS, searched == 0);
                    b.undo(&u);
                    t
                }
            } else {
                let u = b.play(color, p);
                let h = b.hash();
                if self.ctx.superko && self.repeats(h) {
                    b.undo(&u);
                    continue;
                }
                self.core.path.push(h);
                let t = self.child(b, a, beta, depth, ply, p, searched == 0);
                self.core.path.pop();
                b.undo(&u);
                t
            };
            searched += 1;
            if self.aborted {
                return 0;
            }
            if t > best {
                best = t;
                best_move = p as u16;
                self.update_pv(ply, p);
                if best >= beta {
                    if p != PASS && movegen::capture_size(b, color, p) == 0 {
                        let k = &mut self.core.killers[ply];
                        if k[0] != p as u16 {
                            k[1] = k[0];
                            k[0] = p as u16;
                        }
                        let h = &mut self.core.history[color.index()][p];
                        *h = h.saturating_add((depth * depth) as u32);
                    }
                    break;
                }
            }
        }

        if self.core.use_tt {
            let bound = if best >= beta {
                Bound::Lower
            } else if best > alpha {
                Bound::Exact
            } else {
                Bound::Upper
            };
            self.core
                .tt
                .store(key, best, depth.min(255) as u8, bound, best_move);
        }
        best
    }

    /// The value (for the parent) of the child just played: the first move
    /// gets the full window, the others a TEST and, if it fails high inside
    /// the window with three or more plies left, a re-search.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn child(
        &mut self,
        b: &mut Board,
        a: i32,
        beta: i32,
        depth: i32,
        ply: usize,
        last: Point,
        first: bool,
    ) -> i32 {
        if first {
            return -self.node(b, -beta, -a, depth - 1, ply + 1, last);
        }
        let t = -self.node(b, -a - 1, -a, depth - 1, ply + 1, last);
        if t > a && t < beta && (depth >= 3 || !self.core.exact_leaves) && !self.aborted {
            return -self.node(b, -beta, -t, depth - 1, ply + 1, last);
        }
        t
    }
}

#[inline]
fn filter_index(h: u64) -> usize {
    // High bits: the table index uses the low ones.
    (h >> 40) as usize & (FILTER_BITS - 1)
}

/// Stable, allocation-free insertion sort; `before(a, b)` says `a` must come
/// before `b`.
fn insertion_sort_by<T: Copy>(v: &mut [T], before: impl Fn(&T, &T) -> bool) {
    for i in 1..v.len() {
        let x = v[i];
        let mut j = i;
        while j > 0 && before(&x, &v[j - 1]) {
            v[j] = v[j - 1];
            j -= 1;
        }
        v[j] = x;
    }
}
