//! Proof and disproof numbers of a frame: the child records, node values,
//! the min/sum (or WPNS) aggregation, and the df-pn+ heuristic that gives a
//! child its first numbers.

use super::ghi::Bound;
use super::tt::{Entry, KO, PATH_DEP, REL};
use crate::go::board::Point;

/// Proof or disproof number of a solved node.
pub const INF: u32 = u32::MAX;
/// Unsolved numbers saturate here, far below `INF`, so a sum of many large
/// numbers never looks solved.
pub const CAP: u32 = 1 << 30;
/// `best` of an entry that has no move (a node without children).
pub const NO_MOVE: u16 = u16::MAX;

/// One child in a node's frame: the move, and the child's φ and δ as seen
/// from the child (φ is for the opponent of the node's player to move).
///
/// δ and the child's `order` (where it comes among its siblings, for ties,
/// lower first: its [`rank`] in a full-width frame, its place in the move
/// list in a frame cut to threats) are kept as the one selection key that
/// the aggregation compares (δ above, `order` below), next to φ: the
/// aggregation reads every child of a frame at every step of the frame's
/// loop, and builds no key of its own that way (see [`Child::delta`],
/// [`Child::order`]).
#[derive(Clone, Copy, Default)]
pub struct Child {
    /// `δ << 16 | order`.
    key: u64,
    pub phi: u32,
    /// Nodes searched below this child from this frame.
    pub work: u32,
    /// For a child won by the attacker: the bound (`ghi`) of the
    /// non-terminal positions of its proof tree, the child itself included.
    pub min: Bound,
    pub mv: u16,
    pub flags: u8,
}

// Four bytes of the key are δ, two are the order: two to spare, and the
// whole child in 32 bytes, two to a cache line.
const _: () = assert!(std::mem::size_of::<Child>() == 32);

impl std::fmt::Debug for Child {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Child")
            .field("mv", &self.mv)
            .field("phi", &self.phi)
            .field("delta", &self.delta())
            .field("work", &self.work)
            .field("flags", &self.flags)
            .field("min", &self.min)
            .field("order", &self.order())
            .finish()
    }
}

/// A node's result: φ, δ, flags (`KO`, `PATH_DEP`), the bound (`ghi`) of
/// a proof (over the proof tree without the node itself), best move.
#[derive(Clone, Copy, Debug)]
pub struct Value {
    pub phi: u32,
    pub delta: u32,
    pub flags: u8,
    pub min: Bound,
    pub best: u16,
}

impl Value {
    pub fn solved(mover_wins: bool, flags: u8, best: u16) -> Value {
        Value {
            phi: if mover_wins { 0 } else { INF },
            delta: if mover_wins { INF } else { 0 },
            flags,
            min: Bound::NONE,
            best,
        }
    }

    pub fn open(phi: u32, delta: u32, best: u16) -> Value {
        Value {
            phi,
            delta,
            flags: 0,
            min: Bound::NONE,
            best,
        }
    }

    pub fn is_solved(&self) -> bool {
        self.phi == 0 || self.delta == 0
    }
}

impl Value {
    pub fn from_entry(e: &Entry) -> Value {
        Value {
            phi: e.phi,
            delta: e.delta,
            flags: e.flags & (KO | PATH_DEP | REL),
            min: e.min,
            best: e.best,
        }
    }
}

impl Child {
    /// A child for move `m` with the neutral numbers 1 and 1, not yet
    /// evaluated.
    pub fn fresh(m: Point) -> Child {
        Child::new(m as u16, 1, 1, rank(m as u16))
    }

    /// A child for move `mv` with numbers φ and δ and the tie-break
    /// `order`, no work, flags nor bound.
    #[inline]
    pub fn new(mv: u16, phi: u32, delta: u32, order: u16) -> Child {
        Child {
            key: key(delta, order),
            phi,
            work: 0,
            min: Bound::NONE,
            mv,
            flags: 0,
        }
    }

    /// The child's δ.
    #[inline]
    pub fn delta(&self) -> u32 {
        (self.key >> 16) as u32
    }

    /// The child's place among its siblings for ties (see [`Child`]).
    #[inline]
    pub fn order(&self) -> u16 {
        self.key as u16
    }

    #[inline]
    pub fn set_delta(&mut self, delta: u32) {
        self.key = key(delta, self.order());
    }

    #[inline]
    pub fn set_order(&mut self, order: u16) {
        self.key = key(self.delta(), order);
    }

    /// Takes a child's value; `own` is the bound of the child's own
    /// position ([`Bound::at`]), or [`Bound::NONE`] when the child is a
    /// finished game.
    pub fn set(&mut self, v: Value, own: Bound) {
        self.phi = v.phi;
        self.set_delta(v.delta);
        self.flags = v.flags;
        self.min = own.join(v.min);
    }
}

/// `Agg::best` when the selected child is the frame's group of quiet
/// moves (see `frame`), not a child on the arena.
pub const GROUP: usize = usize::MAX;

/// A frame's group of unsplit quiet moves as the aggregation sees it:
/// `count` unsolved children that all have the numbers `phi` and `delta`,
/// the first of them the move of rank `rank` (see [`rank`]).
#[derive(Clone, Copy, Debug, Default)]
pub struct Members {
    pub count: u32,
    pub phi: u32,
    pub delta: u32,
    pub rank: u16,
}

/// The order in which children are preferred among equals: board order,
/// the pass last, as if the frame held every move in the order the rules
/// list them (and so whatever order the frame keeps them in).
#[inline]
pub fn rank(mv: u16) -> u16 {
    mv.wrapping_sub(1)
}

pub struct Agg {
    pub phi: u32,
    pub delta: u32,
    /// Index of the selected child, or [`GROUP`].
    pub best: usize,
    pub delta2: u32,
    /// Weak rule: what δ adds to the largest φ (children with φ > 0, less
    /// one); `u32::MAX` under the sum rule.
    pub rest: u32,
}

/// The aggregation of a frame's children and group:
/// φ = min δ(child) with the selected child (of least δ, the first among
/// equals by `order`) and the
/// second least δ; δ by the sum rule Σ φ(child), or by the weak rule of
/// WPNS (Ueda et al. 2008, seed 000): max φ(child) + (children with φ > 0)
/// − 1, which counts a position reached by many move orders once rather
/// than once per order. Both are 0 exactly when every φ(child) is 0 and ∞
/// when one is; unsolved values saturate at `CAP`.
///
/// The group counts as `group.count` more children with its numbers. Its numbers
/// are heuristic (never 0 or ∞), so while it has members the node is
/// neither won nor lost.
///
/// This runs once per step of every frame's loop, over all its children,
/// so the loop is kept free of branches on the data: the least δ and the
/// tie-break by `order` are one 64-bit key (δ above, `order` below), and
/// a φ of ∞ shows as the largest φ (see [`aggregate_loop`]). The search
/// calls [`aggregate_scanned`], with a scan it may have kept.
#[cfg(test)]
pub fn aggregate(children: &[Child], weak: bool, group: Members) -> Agg {
    aggregate_scanned(scan(children), children.len(), weak, group)
}

/// The aggregation (see `aggregate`) from the [`scan`] of the `len`
/// children, which a caller may have kept from an earlier step of a
/// frame's loop (see [`BLOCK`]).
#[inline]
pub fn aggregate_scanned(s: Scan, len: usize, weak: bool, group: Members) -> Agg {
    if weak {
        aggregate_loop::<true>(s, len, group)
    } else {
        aggregate_loop::<false>(s, len, group)
    }
}

/// The selection key of a child: least δ first, then least `order`.
#[inline(always)]
fn key(delta: u32, order: u16) -> u64 {
    (delta as u64) << 16 | order as u64
}

/// The aggregation for one rule, from the [`scan`] of the children: the
/// second least δ is the second least key's. The sum of the φ may take in
/// an ∞ (it is a `u64`, and the result is ∞ then): some φ is ∞ exactly
/// when the largest is.
#[inline(always)]
fn aggregate_loop<const WEAK: bool>(s: Scan, len: usize, group: Members) -> Agg {
    let Scan {
        mut k1,
        k2,
        mut best,
        mut sum,
        mut max,
        zeros,
    } = s;
    let mut open = len as u64 - zeros;
    let mut delta2 = (k2 >> 16) as u32;
    if group.count > 0 {
        debug_assert!(group.phi > 0 && group.phi < INF && group.delta > 0 && group.delta < INF);
        let d = group.delta;
        if key(d, group.rank) < k1 {
            delta2 = if group.count > 1 {
                d
            } else {
                (k1 >> 16) as u32
            };
            k1 = key(d, group.rank);
            best = GROUP;
        } else {
            delta2 = delta2.min(d);
        }
        sum += group.phi as u64 * group.count as u64;
        open += group.count as u64;
        max = max.max(group.phi);
    }
    let mut a = Agg {
        phi: (k1 >> 16) as u32,
        delta: 0,
        best,
        delta2,
        rest: 0,
    };
    if max == INF {
        a.delta = INF;
    } else if WEAK {
        let max = max as u64;
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

/// What the aggregation needs of a frame's children: the least selection
/// key `k1` and the second least `k2` (both `key(INF, u16::MAX)` when
/// there are too few children: nothing selected yet is an infinite δ with
/// the last rank, as the first child of δ ∞ and the pass's rank is not
/// taken either), the index of the first child with key `k1` (0 when none
/// is less than that start), the sum and the largest of the φ, and how
/// many φ are 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Scan {
    k1: u64,
    k2: u64,
    best: usize,
    sum: u64,
    max: u32,
    zeros: u64,
}

/// The start of a [`Scan`]: no child yet.
const NONE_KEY: u64 = (INF as u64) << 16 | u16::MAX as u64;

/// [`Scan`] one child at a time. The second least key needs no branch:
/// with `k1` the least so far, a new key `k` makes it `min(k2, max(k,
/// k1))` (`k1` when `k` becomes the least, since `k1 ≤ k2` always; `k ≥
/// k1` otherwise), and one compare serves both.
#[cfg(any(test, not(all(target_arch = "x86_64", target_feature = "sse4.2"))))]
#[inline(always)]
fn scan_scalar(children: &[Child]) -> Scan {
    let mut s = Scan::EMPTY;
    for (i, c) in children.iter().enumerate() {
        s.scan_one(i, c);
    }
    s
}

/// Children per block of a frame's kept scans: the search keeps the
/// [`scan`] of each block of its frame's children and, at each step of
/// the frame's loop, scans again only the blocks whose children changed
/// (usually the one that holds the child just searched), then joins the
/// blocks' scans with [`Scan::then`]. The frames of hard nodes hold
/// dozens of children, and only one changes per step. A frame of one
/// block is scanned whole; after a split, which appends one child, the
/// whole scan is extended ([`Scan::extend`]).
pub const BLOCK: usize = 16;

impl Scan {
    /// The scan of no child.
    pub const EMPTY: Scan = Scan {
        k1: NONE_KEY,
        k2: NONE_KEY,
        best: 0,
        sum: 0,
        max: 0,
        zeros: 0,
    };

    /// The scan of the children `self` scanned followed by those `later`
    /// scanned, the first of which has index `offset`: what one scan of
    /// them all gives. The least key is the lesser of the two, `self`'s
    /// among equals (its children come first, and a scan keeps the first
    /// least key); the second least key of the union is the least of the
    /// two second least and the greater of the two least; the rest adds
    /// up. The lane merge of the two-lane scan is the same join.
    #[inline]
    pub fn then(self, later: Scan, offset: usize) -> Scan {
        let (k1, best) = if later.k1 < self.k1 {
            (later.k1, later.best + offset)
        } else {
            (self.k1, self.best)
        };
        Scan {
            k1,
            k2: self.k2.min(later.k2).min(self.k1.max(later.k1)),
            best,
            sum: self.sum + later.sum,
            max: self.max.max(later.max),
            zeros: self.zeros + later.zeros,
        }
    }

    /// The scan of a frame's children after `more` were appended to the
    /// `len` children this one scanned: a scan is a fold over the children
    /// in order (the first least key kept, as `scan_scalar` shows), so
    /// going on from where it stopped gives what a new scan of them all
    /// would.
    #[inline]
    pub fn extend(mut self, len: usize, more: &[Child]) -> Scan {
        for (j, c) in more.iter().enumerate() {
            self.scan_one(len + j, c);
        }
        self
    }

    #[inline(always)]
    fn scan_one(&mut self, i: usize, c: &Child) {
        self.sum += c.phi as u64;
        self.zeros += (c.phi == 0) as u64;
        self.max = self.max.max(c.phi);
        let k = c.key;
        let less = k < self.k1;
        self.k2 = self.k2.min(if less { self.k1 } else { k });
        if less {
            self.k1 = k;
            self.best = i;
        }
    }
}

/// [`scan_scalar`] two children at a time in the two 64-bit lanes of an
/// SSE register, the even-indexed ones in lane 0 and the odd ones in lane
/// 1 (the frames of a hard node hold dozens of children, and this runs at
/// every step of its loop). Each lane keeps the scalar loop's state for
/// its children; the lanes are then merged: the least key of either (the
/// lower index among equal keys, as the scalar loop keeps the first), and
/// as second least the least of the lanes' second least keys and the
/// greater of their least (the second least of the union of the lanes'
/// keys). Keys are below 2⁴⁸ and φ below 2³², so the signed 64-bit
/// compares of SSE 4.2 order them as unsigned numbers do. An odd last
/// child is taken by the scalar step, after every other (the highest
/// index, so the first least key stays first).
#[cfg(all(target_arch = "x86_64", target_feature = "sse4.2"))]
#[inline(always)]
pub fn scan(children: &[Child]) -> Scan {
    // SAFETY: `scan_sse` needs SSE 4.2 (and the SSE 4.1 and SSE 2 it
    // implies) from the processor, and nothing else: it reads the children
    // through references only. This is compiled only when the whole build
    // targets SSE 4.2 (the `cfg` above; `.cargo/config.toml` asks for
    // x86-64-v2), and such a binary assumes the feature everywhere, so
    // the processor that runs it has it. Checked against `scan_scalar` by
    // the test `scan_agrees_with_scalar`.
    unsafe { scan_sse(children) }
}

/// The body of the two-lane [`scan`].
#[cfg(all(target_arch = "x86_64", target_feature = "sse4.2"))]
#[target_feature(enable = "sse4.2")]
fn scan_sse(children: &[Child]) -> Scan {
    use std::arch::x86_64::*;
    let pairs = children.chunks_exact(2);
    let tail = pairs.remainder();
    let start = _mm_set1_epi64x(NONE_KEY as i64);
    let (mut k1, mut k2) = (start, start);
    let mut idx = _mm_setzero_si128();
    let mut cur = _mm_set_epi64x(1, 0);
    let two = _mm_set1_epi64x(2);
    let zero = _mm_setzero_si128();
    let (mut sum, mut max, mut zeros) = (zero, zero, zero);
    for pair in pairs {
        let (a, b) = (&pair[0], &pair[1]);
        let k = _mm_set_epi64x(b.key as i64, a.key as i64);
        let phi = _mm_set_epi64x(b.phi as i64, a.phi as i64);
        // k < k1: the child becomes its lane's least.
        let less = _mm_cmpgt_epi64(k1, k);
        let loser = _mm_blendv_epi8(k, k1, less);
        k1 = _mm_blendv_epi8(k1, k, less);
        idx = _mm_blendv_epi8(idx, cur, less);
        k2 = _mm_blendv_epi8(k2, loser, _mm_cmpgt_epi64(k2, loser));
        cur = _mm_add_epi64(cur, two);
        sum = _mm_add_epi64(sum, phi);
        // φ in the low halves of the lanes, 0 in the high ones.
        max = _mm_max_epu32(max, phi);
        // Subtracting the all-ones of a match counts it.
        zeros = _mm_sub_epi64(zeros, _mm_cmpeq_epi64(phi, zero));
    }
    let lane = |v: __m128i| {
        [
            _mm_cvtsi128_si64(v) as u64,
            _mm_extract_epi64::<1>(v) as u64,
        ]
    };
    let ([a1, b1], [a2, b2], [ia, ib]) = (lane(k1), lane(k2), lane(idx));
    let (k1, best) = if b1 < a1 || (b1 == a1 && ib < ia) {
        (b1, ib)
    } else {
        (a1, ia)
    };
    let [sa, sb] = lane(sum);
    let [ma, mb] = lane(max);
    let [za, zb] = lane(zeros);
    let mut s = Scan {
        k1,
        k2: a2.min(b2).min(a1.max(b1)),
        best: best as usize,
        sum: sa + sb,
        max: (ma as u32).max(mb as u32),
        zeros: za + zb,
    };
    if let [c] = tail {
        s.scan_one(children.len() - 1, c);
    }
    s
}

#[cfg(not(all(target_arch = "x86_64", target_feature = "sse4.2")))]
#[inline(always)]
pub fn scan(children: &[Child]) -> Scan {
    scan_scalar(children)
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
pub fn heuristic(f: &Features) -> (u32, u32) {
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

#[cfg(test)]
#[path = "tests_numbers.rs"]
mod tests;
