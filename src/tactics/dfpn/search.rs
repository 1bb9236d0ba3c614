//! The df-pn recursion (Nagai's MID procedure in the negamax form): one
//! call per node visited, children kept in a shared fixed-capacity arena,
//! thresholds grown by the 1+ε rule, and the bookkeeping that makes
//! transposition-table results safe across paths (see the parent module).

use super::tt::{Entry, Table, KO, NO_MIN, PATH_DEP};
use super::Limit;
use crate::go::board::{Board, Point, PointList, PASS};
use crate::go::Color;
use crate::tactics::rules::{CaptureGame, Step, Winner};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// Proof or disproof number of a solved node.
pub const INF: u32 = u32::MAX;
/// Unsolved numbers saturate here, far below `INF`, so a sum of many large
/// numbers never looks solved.
pub const CAP: u32 = 1 << 30;
/// `best` of an entry that has no move (a node without children).
pub const NO_MOVE: u16 = u16::MAX;

/// One child in a node's frame: the move, and the child's φ and δ as seen
/// from the child (φ is for the opponent of the node's player to move).
#[derive(Clone, Copy, Debug, Default)]
pub struct Child {
    pub mv: u16,
    pub phi: u32,
    pub delta: u32,
    /// Nodes searched below this child from this frame.
    pub work: u32,
    pub flags: u8,
    /// For a child won by the attacker: the least stone counts of any
    /// non-terminal position in its proof tree, the child itself included.
    pub min: [u16; 2],
}

/// What the search knows about one position of the current path: stone
/// counts (black, white) and the size of the target block. Both bound which
/// earlier positions could come back (see the parent module).
#[derive(Clone, Copy, Debug, Default)]
pub struct Anc {
    pub counts: [u16; 2],
    pub target: u16,
    /// The move that led here was a pass.
    pub passed: bool,
}

/// A node's result: φ, δ, flags (`KO`, `PATH_DEP`), the stone-count bound
/// of a proof (over the proof tree without the node itself), best move.
#[derive(Clone, Copy, Debug)]
pub struct Value {
    pub phi: u32,
    pub delta: u32,
    pub flags: u8,
    pub min: [u16; 2],
    pub best: u16,
}

impl Value {
    fn solved(mover_wins: bool, flags: u8, best: u16) -> Value {
        Value {
            phi: if mover_wins { 0 } else { INF },
            delta: if mover_wins { INF } else { 0 },
            flags,
            min: NO_MIN,
            best,
        }
    }

    fn open(phi: u32, delta: u32, best: u16) -> Value {
        Value {
            phi,
            delta,
            flags: 0,
            min: NO_MIN,
            best,
        }
    }

    pub fn is_solved(&self) -> bool {
        self.phi == 0 || self.delta == 0
    }
}

/// Per-solve state; the big buffers belong to the `Solver` and are lent.
pub struct Search<'a> {
    pub game: CaptureGame,
    pub tt: &'a mut Table,
    pub arena: &'a mut Vec<Child>,
    pub anc: &'a mut Vec<Anc>,
    pub moves: &'a mut PointList,
    /// Mixed into every key: ko model and move restriction.
    pub salt: u64,
    pub attacker: Color,
    pub target: Point,
    /// λ¹: the attacker may only play moves that capture or put the target
    /// in atari.
    pub ladder: bool,
    /// ε of the 1+ε threshold rule, in thousandths.
    pub eps_milli: u64,
    /// δ by the weak (WPNS) rule instead of the sum.
    pub weak: bool,
    pub nodes: u64,
    /// Children generated (played and evaluated to initialise a frame).
    pub generated: u64,
    pub stats: Stats,
    pub node_limit: u64,
    pub deadline: Option<Instant>,
    pub stop: &'a AtomicBool,
    pub abort: Option<Limit>,
}

/// Counters for tuning and reports.
#[derive(Clone, Copy, Debug, Default)]
pub struct Stats {
    /// Nodes whose children were generated.
    pub expansions: u64,
    /// Solved table entries used (at nodes and when initialising children).
    pub tt_solved_hits: u64,
    /// Proven captures in the table not used because of the path.
    pub unusable: u64,
    /// Defender wins not stored because they rested on a cut line.
    pub path_dependent: u64,
}

struct Agg {
    phi: u32,
    delta: u32,
    best: usize,
    delta2: u32,
    /// Weak rule: what δ adds to the largest φ (children with φ > 0, less
    /// one); `u32::MAX` under the sum rule.
    rest: u32,
}

/// φ = min δ(child) with the selected child (the first of least δ) and the
/// second least δ; δ by the sum rule Σ φ(child), or by the weak rule of
/// WPNS (Ueda et al. 2008, seed 000): max φ(child) + (children with φ > 0)
/// − 1, which counts a position reached by many move orders once rather
/// than once per order. Both are 0 exactly when every φ(child) is 0 and ∞
/// when one is; unsolved values saturate at `CAP`.
fn aggregate(children: &[Child], weak: bool) -> Agg {
    let mut a = Agg {
        phi: INF,
        delta: 0,
        best: 0,
        delta2: INF,
        rest: 0,
    };
    let mut sum: u64 = 0;
    let mut max: u64 = 0;
    let mut open: u64 = 0;
    for (i, c) in children.iter().enumerate() {
        if c.phi == INF {
            sum = INF as u64;
        } else if sum != INF as u64 {
            sum += c.phi as u64;
        }
        if c.phi != 0 {
            open += 1;
            max = max.max(c.phi as u64);
        }
        if c.delta < a.phi {
            a.delta2 = a.phi;
            a.phi = c.delta;
            a.best = i;
        } else if c.delta < a.delta2 {
            a.delta2 = c.delta;
        }
    }
    if sum == INF as u64 {
        a.delta = INF;
    } else if weak {
        a.delta = if open == 0 {
            0
        } else {
            (max + open - 1).min(CAP as u64) as u32
        };
        a.rest = (open.saturating_sub(1)).min(CAP as u64) as u32;
    } else {
        a.delta = sum.min(CAP as u64) as u32;
        a.rest = u32::MAX;
    }
    a
}

fn min2(a: [u16; 2], b: [u16; 2]) -> [u16; 2] {
    [a[0].min(b[0]), a[1].min(b[1])]
}

/// What the heuristic knows of a move, measured on the board after it.
pub struct Features {
    /// The attacker made the move.
    pub att: bool,
    /// Liberties of the target before and after.
    pub libs0: usize,
    pub libs1: usize,
    /// Stones the move captured.
    pub captured: u32,
    pub pass: bool,
    /// The moved stone's block has one liberty and captured nothing.
    pub self_atari: bool,
    /// Moves the opponent will have (empty points and the pass).
    pub replies: u32,
    /// The escape threshold of the problem.
    pub escape: usize,
}

/// df-pn+ initial φ and δ of a child not yet searched (Nagai 2002's
/// heuristic initialisation, seed 000), as (φ of the opponent, δ = the
/// mover's proof number through the child). Both are at least 1: a
/// heuristic never makes a node look solved.
///
/// The numbers are scaled to agree with what one expansion of the child
/// will report, so that searched and unsearched siblings compare fairly:
/// refuting every reply costs about (number of replies) × (cost of one),
/// except when the attacker's move leaves the target in atari, where every
/// reply but an escape or a capture loses at once.
fn heuristic(f: &Features) -> (u32, u32) {
    let k = f.replies.max(1);
    let (phi, mut delta) = if f.att {
        // φ: the defender's cost to escape; δ: the attacker's to refute
        // every defender reply.
        match f.libs1 {
            0 | 1 => (4, 1),
            2 => (2, k),
            3 => (1, 2 * k),
            _ => (1, 4 * k),
        }
    } else {
        // φ: the attacker's cost to capture; δ: the defender's to refute
        // every attacker move, cheap when one more move escapes.
        let per_reply = if f.libs1 + 1 >= f.escape {
            1
        } else {
            match f.libs1 {
                0..=2 => 4,
                3 => 2,
                _ => 1,
            }
        };
        let phi = match f.libs1 {
            0 | 1 => 1,
            2 => 2,
            3 => 4,
            _ => 8,
        };
        (phi, k * per_reply)
    };
    // A move that neither changes the target's liberties nor captures is
    // rarely the point; a defender's pass is the cheapest such move to
    // prove, since it changes nothing. (An attacker's pass is answered by a
    // pass and never gets here: see `exact`.)
    if f.pass {
        delta += delta / 2;
    } else if f.libs1 == f.libs0 && f.captured == 0 {
        delta *= 2;
    }
    if f.self_atari {
        delta *= 2;
    }
    (phi, delta.min(CAP / 2))
}

impl Search<'_> {
    fn defender(&self) -> Color {
        self.attacker.opp()
    }

    fn target_libs(&self) -> usize {
        self.game.board().libs(self.target)
    }

    fn poll(&mut self) {
        if self.stop.load(Ordering::Relaxed) {
            self.abort.get_or_insert(Limit::Interrupted);
        } else if self.deadline.is_some_and(|d| Instant::now() >= d) {
            self.abort.get_or_insert(Limit::Time);
        }
    }

    /// Checks the limits now (also before the first node).
    pub fn check_limits(&mut self) {
        if self.nodes >= self.node_limit {
            self.abort.get_or_insert(Limit::Nodes);
        }
        self.poll();
    }

    /// Counts and target size of the current position (the root).
    pub fn root_anc(&self) -> Anc {
        let b = self.game.board();
        let c = b.stone_counts();
        Anc {
            counts: [c[0] as u16, c[1] as u16],
            target: self.target_size(b),
            passed: false,
        }
    }

    fn target_size(&self, b: &Board) -> u16 {
        if b.color_at(self.target) == Some(self.defender()) {
            b.block_size(self.target) as u16
        } else {
            0
        }
    }

    /// Plays `m` for the player to move and records the new position on
    /// the ancestor stack.
    fn play(&mut self, m: Point) -> bool {
        let mover = self.game.to_move();
        let before = self.game.board().prisoners(mover);
        if self.game.play(m) != Step::Played {
            return false;
        }
        let b = self.game.board();
        let top = self.anc.last().copied().unwrap_or_default();
        let mut counts = top.counts;
        if m != PASS {
            counts[mover.index()] += 1;
        }
        let captured = (b.prisoners(mover) - before) as u16;
        counts[mover.opp().index()] -= captured;
        let target = self.target_size(b);
        self.anc.push(Anc {
            counts,
            target,
            passed: m == PASS,
        });
        true
    }

    fn undo(&mut self) {
        self.anc.pop();
        self.game.undo();
    }

    /// The liberty by which the attacker, to move, captures the target at
    /// once, if it has exactly one and may play there.
    pub fn capture_now(&self) -> Option<Point> {
        if self.game.to_move() != self.attacker || self.target_libs() != 1 {
            return None;
        }
        let b = self.game.board();
        let mut lib = None;
        b.for_each_stone(self.target, |q| {
            for n in Board::neighbors(q) {
                if b.is_empty(n) {
                    lib = Some(n);
                }
            }
        });
        lib.filter(|&l| self.game.is_legal(l))
    }

    /// The value of a node known without search: the game is over, the
    /// attacker captures at once, or the defender ends the game by passing
    /// after a pass (two passes end it whatever the path).
    fn exact(&self) -> Option<Value> {
        let g = &self.game;
        let mover_att = g.to_move() == self.attacker;
        if let Some(w) = g.winner() {
            // A line ended by repetition or depth is the path's doing.
            let flags = if w == Winner::Defender && g.last_was_cut() {
                PATH_DEP
            } else {
                0
            };
            return Some(Value::solved(
                (w == Winner::Attacker) == mover_att,
                flags,
                NO_MOVE,
            ));
        }
        if !mover_att && self.anc.last().is_some_and(|a| a.passed) {
            return Some(Value::solved(true, 0, PASS as u16));
        }
        let lib = self.capture_now()?;
        // Legality of the capture may depend on the ko model.
        let flags = if g.board().ko_point(g.to_move()).is_some() {
            KO
        } else {
            0
        };
        Some(Value::solved(true, flags, lib as u16))
    }

    /// Whether a solved entry may be used at the current node (the top of
    /// the ancestor stack). Defender wins always may. A proven capture may
    /// unless some earlier position of the path could occur in its proof
    /// tree, where the rules would end that line as a repetition: such a
    /// position has as many stones of each colour as the tree's minimum and
    /// a target block of the same size.
    fn usable(&self, e: &Entry, mover: Color) -> bool {
        let attacker_win = (e.phi == 0) == (mover == self.attacker);
        if !attacker_win {
            return true;
        }
        let (me, path) = self.anc.split_last().expect("the node is on the stack");
        for s in path.iter().rev() {
            if s.target < me.target {
                // The target block only grows; nothing earlier can return.
                break;
            }
            if s.counts[0] >= e.min[0] && s.counts[1] >= e.min[1] {
                return false;
            }
        }
        true
    }

    fn key(&self) -> u64 {
        self.game.key() ^ self.salt
    }

    /// Plays `m`, evaluates the child without searching it (exactly when
    /// the game is over or the capture is immediate or the table has a
    /// usable result; heuristically otherwise) and takes `m` back. `None`
    /// when the move is not part of the search (λ¹ restriction).
    fn init_child(&mut self, m: Point, replies: u32) -> Option<Child> {
        let mover = self.game.to_move();
        let att = mover == self.attacker;
        let libs0 = self.target_libs();
        let prisoners0 = self.game.board().prisoners(mover);
        if !self.play(m) {
            return None;
        }
        self.generated += 1;
        let b = self.game.board();
        let target_on = b.color_at(self.target) == Some(self.defender());
        let libs1 = if target_on { b.libs(self.target) } else { 0 };
        let mut child = Child {
            mv: m as u16,
            phi: 1,
            delta: 1,
            work: 0,
            flags: 0,
            min: NO_MIN,
        };
        let keep = !(self.ladder && att && target_on && libs1 != 1);
        if keep {
            let counts = self.anc.last().map_or(NO_MIN, |a| a.counts);
            if let Some(v) = self.exact() {
                child.set(
                    v,
                    if self.game.winner().is_some() {
                        NO_MIN
                    } else {
                        counts
                    },
                );
            } else {
                let mover_child = self.game.to_move();
                let probe = self.tt.probe(self.key());
                match probe {
                    Some(e) if e.is_solved() && self.usable(&e, mover_child) => {
                        self.stats.tt_solved_hits += 1;
                        child.set(Value::from_entry(&e), counts);
                    }
                    Some(e) if !e.is_solved() => {
                        child.phi = e.phi;
                        child.delta = e.delta;
                    }
                    _ => {
                        let captured = b.prisoners(mover) - prisoners0;
                        let (phi, delta) = heuristic(&Features {
                            att,
                            libs0,
                            libs1,
                            captured,
                            pass: m == PASS,
                            self_atari: m != PASS && captured == 0 && b.libs(m) == 1,
                            replies,
                            escape: self.game.problem().escape_libs,
                        });
                        child.phi = phi;
                        child.delta = delta;
                    }
                }
            }
        }
        self.undo();
        keep.then_some(child)
    }

    /// Pushes the children of the current node onto the arena.
    fn expand(&mut self, no_pass: bool) {
        self.game.moves(self.moves);
        let base = self.arena.len();
        for &m in self.moves.iter() {
            if !(no_pass && m == PASS) {
                debug_assert!(self.arena.len() < self.arena.capacity(), "arena overflow");
                self.arena.push(Child {
                    mv: m as u16,
                    ..Child::default()
                });
            }
        }
        // Evaluate in place, keeping the children that take part. The
        // opponent's replies: about the empty points left, and the pass.
        let end = self.arena.len();
        let b = self.game.board();
        let stones = self
            .anc
            .last()
            .map_or(0, |a| a.counts[0] as u32 + a.counts[1] as u32);
        let replies = (b.size() * b.size()) as u32 - stones;
        let mut kept = base;
        for i in base..end {
            let m = self.arena[i].mv as Point;
            if let Some(c) = self.init_child(m, replies) {
                self.arena[kept] = c;
                kept += 1;
            }
        }
        self.arena.truncate(kept);
    }

    /// Child threshold on δ by the 1+ε rule (Pawlewicz & Lew 2007): stay
    /// in the best child until its δ passes the second best's by a factor
    /// 1+ε (at least by one), or the node's own φ threshold.
    fn grow(&self, delta2: u32) -> u32 {
        if delta2 >= CAP {
            return delta2;
        }
        let inc = (delta2 as u64 * self.eps_milli / 1000).max(1);
        (delta2 as u64 + inc).min(CAP as u64) as u32
    }

    /// Nagai's MID: searches the current node until its φ reaches `th_phi`
    /// or its δ reaches `th_delta`, it is solved, or a limit stops the
    /// search. `no_pass` (root only) leaves the pass out of the node's
    /// moves; such a node's disproof is not stored.
    pub fn mid(&mut self, th_phi: u32, th_delta: u32, no_pass: bool) -> Value {
        self.nodes += 1;
        if self.nodes >= self.node_limit {
            self.abort.get_or_insert(Limit::Nodes);
        }
        if self.nodes & 1023 == 0 {
            self.poll();
        }
        if let Some(v) = self.exact() {
            return v;
        }
        let mover = self.game.to_move();
        let key = self.key();
        if !no_pass {
            if let Some(e) = self.tt.probe(key) {
                if e.is_solved() {
                    if self.usable(&e, mover) {
                        self.stats.tt_solved_hits += 1;
                        return Value::from_entry(&e);
                    }
                    self.stats.unusable += 1;
                } else if e.phi >= th_phi || e.delta >= th_delta || self.abort.is_some() {
                    return Value::open(e.phi, e.delta, e.best);
                }
            }
        }
        if self.abort.is_some() {
            return Value::open(1, 1, NO_MOVE);
        }
        let base = self.arena.len();
        self.expand(no_pass);
        self.stats.expansions += 1;
        let start = self.nodes;
        let mut agg;
        loop {
            agg = aggregate(&self.arena[base..], self.weak);
            if agg.phi >= th_phi || agg.delta >= th_delta || self.abort.is_some() {
                break;
            }
            let c = self.arena[base + agg.best];
            let child_th_delta = th_phi.min(self.grow(agg.delta2));
            // The child's φ may grow until the node's δ would reach its
            // threshold: by the sum rule, by what the other children leave;
            // by the weak rule, until it is the largest φ and reaches the
            // threshold less the count term.
            let child_th_phi = if th_delta == INF {
                INF
            } else if agg.rest == u32::MAX {
                th_delta - (agg.delta - c.phi)
            } else {
                th_delta - agg.rest
            };
            let before = self.nodes;
            let ok = self.play(c.mv as Point);
            debug_assert!(ok, "a generated move is legal");
            let counts = self.anc.last().map_or(NO_MIN, |a| a.counts);
            let terminal_after = self.game.winner().is_some();
            let v = self.mid(child_th_phi, child_th_delta, false);
            self.undo();
            let slot = &mut self.arena[base + agg.best];
            slot.set(v, if terminal_after { NO_MIN } else { counts });
            slot.work = slot.work.saturating_add((self.nodes - before) as u32);
        }
        let v = self.finish(base, &agg, mover);
        let solved = v.is_solved();
        let attacker_win = solved && ((v.phi == 0) == (mover == self.attacker));
        debug_assert!(
            !(attacker_win && v.flags & PATH_DEP != 0),
            "a capture never rests on a cut line"
        );
        // A path-dependent defender win is kept only in the frames above;
        // with `no_pass` only a win of the player to move holds for the
        // full node.
        let storable =
            (!solved || attacker_win || v.flags & PATH_DEP == 0) && (!no_pass || v.phi == 0);
        if solved && !attacker_win && v.flags & PATH_DEP != 0 {
            self.stats.path_dependent += 1;
        }
        if storable {
            self.tt.store(Entry {
                key,
                phi: v.phi,
                delta: v.delta,
                work: (self.nodes - start + 1).min(u32::MAX as u64) as u32,
                best: v.best,
                flags: v.flags,
                min: v.min,
                generation: 0,
            });
        }
        self.arena.truncate(base);
        v
    }

    /// The node's value from its frame: which children it rests on decides
    /// its flags and stone-count bound.
    fn finish(&self, base: usize, agg: &Agg, mover: Color) -> Value {
        let children = &self.arena[base..];
        let node_ko = if self.game.board().ko_point(mover).is_some() {
            KO
        } else {
            0
        };
        if agg.phi == 0 {
            // Won through one child: it alone matters.
            let c = &children[agg.best];
            return Value {
                phi: 0,
                delta: INF,
                flags: c.flags | node_ko,
                min: c.min,
                best: c.mv,
            };
        }
        if agg.delta == 0 {
            // Lost: every child was needed.
            let mut flags = node_ko;
            let mut min = NO_MIN;
            let mut best = NO_MOVE;
            let mut most = 0;
            for c in children {
                flags |= c.flags;
                min = min2(min, c.min);
                if best == NO_MOVE || c.work > most {
                    best = c.mv;
                    most = c.work;
                }
            }
            return Value {
                phi: INF,
                delta: 0,
                flags,
                min,
                best,
            };
        }
        let best = children.get(agg.best).map_or(NO_MOVE, |c| c.mv);
        Value::open(agg.phi, agg.delta, best)
    }
}

impl Child {
    /// Takes a child's value; `counts` are the child's own stone counts, or
    /// `NO_MIN` when the child is a finished game.
    fn set(&mut self, v: Value, counts: [u16; 2]) {
        self.phi = v.phi;
        self.delta = v.delta;
        self.flags = v.flags;
        self.min = min2(counts, v.min);
    }
}

impl Value {
    pub fn from_entry(e: &Entry) -> Value {
        Value {
            phi: e.phi,
            delta: e.delta,
            flags: e.flags & (KO | PATH_DEP),
            min: e.min,
            best: e.best,
        }
    }
}
