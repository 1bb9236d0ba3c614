//! Unconditional life of the target block, after Benson (D. B. Benson,
//! "Life in the game of Go", Information Sciences 10, 1976), as a win of
//! the defender in the capture game of [`rules`](super::rules).
//!
//! # The theorem used
//!
//! For a colour X, an *X-enclosed region* is a maximal connected set of
//! points that hold no X stone (empty points and enemy stones). A region R
//! is *vital* to an X block B when every empty point of R is a liberty of B
//! (and R has one). Benson's theorem, in the form Müller states it ("Playing
//! it safe", 1997): let S be a set of X blocks and V a set of X-enclosed
//! regions such that
//!
//! 1. every region of V touches only blocks of S, and
//! 2. every block of S has at least two regions of V vital to it.
//!
//! Then no block of S can ever be captured, even if X passes at every turn.
//! (To capture a block of S the enemy must fill both its vital regions;
//! the last empty point of a region of V is filled only by a stone without
//! liberties that captures, and the first block of S captured would need
//! both its regions filled already.) Benson's algorithm finds the largest
//! such S; any S that passes the two conditions proves life, and that is
//! what this module checks, on a neighbourhood of the target.
//!
//! # Why the capture game may end there
//!
//! When the target belongs to such an S, the defender wins the capture game
//! from that position whatever the path, the ko model or who is to move:
//! passing at every turn, the defender never loses the target, and every
//! line then ends in the defender's favour (two passes, a repeated state, the
//! depth limit, or the escape liberties). So a search may treat the
//! position as a solved defender win and store it: the result depends on
//! the stones alone. The exhaustive reference knows nothing of this; the
//! proof check compares the two.
//!
//! # What the certificate reads
//!
//! The check looks only at the blocks of S (with their liberties) and the
//! points of the regions of V vital to them. A position that differs from
//! this one only by enemy stones outside those points (and by X blocks
//! outside S those stones captured) has the same S and V: the regions of V
//! are bounded by stones of S, their contents are unchanged, so they are
//! still maximal, still touch only S, and still vital. That is the
//! relevance zone the threat searches use (see `dfpn::pruning`).
//!
//! # Cost
//!
//! The search runs at every node of df-pn, so the check is local and
//! bounded, with everything on the stack: a cheap gate first (the target
//! needs two liberties whose empty neighbours are all its liberties, since
//! each vital region of its own holds one), then regions are flooded from
//! the target outwards, through the blocks that border them, up to fixed
//! caps. A region too large for the caps, or touching a block the caps
//! leave out, is simply not counted, which can only make the check say
//! "not proven", never prove too much. Most targets that pass the gate
//! still fall, for a neighbour without two vital regions of its own:
//! after each block's floods, Benson's fixed point over what is known so
//! far (the blocks not explored yet taken as alive) may drop the target
//! already, and the check ends there with the answer the whole
//! exploration would give (see `Check::doomed`). The fixed point works
//! on per-block masks of regions, a few operations a round.

use crate::go::board::{Board, Point, BORDER, EMPTY};
use crate::tactics::zone::Zone;
use arrayvec::ArrayVec;

/// Blocks the check considers (bit masks of `u32`).
const MAX_BLOCKS: usize = 32;
/// Regions it keeps.
const MAX_REGIONS: usize = 48;
/// Points of one region: larger regions are not counted.
const REGION_CAP: usize = 40;
/// Points flooded in all, aborted floods included: beyond, no proof.
const WORK_CAP: usize = 400;

#[derive(Clone, Copy)]
struct Region {
    /// Range of the region's points in `Check::points`.
    start: u16,
    len: u16,
    /// Blocks (indices into `Check::blocks`) the region touches.
    border: u32,
    /// Blocks the region is vital to; until [`Check::vital_to_all`], only
    /// the block it was flooded from.
    vital: u32,
}

struct Check<'a> {
    board: &'a Board,
    own: u8,
    /// Block heads; index 0 is the target's.
    blocks: ArrayVec<Point, MAX_BLOCKS>,
    regions: ArrayVec<Region, MAX_REGIONS>,
    points: ArrayVec<Point, { MAX_REGIONS * REGION_CAP }>,
    /// Points of the regions flooded so far (complete or not).
    seen: Zone,
    /// Points of floods given up: any region reaching them is too large.
    big: Zone,
    work: usize,
    /// Regions whose `vital` is complete ([`Check::vital_to_all`]).
    masked: usize,
    /// Per block, the regions (bit masks over `regions`, of those before
    /// `masked`) it is vital to and those it borders: the fixed point's
    /// counts and drops, a few masks a round.
    vital_of: [u64; MAX_BLOCKS],
    border_of: [u64; MAX_BLOCKS],
}

/// Whether the block on `target` (a stone) is unconditionally alive by
/// Benson's criterion. With `zone`, adds to it what the proof read (the
/// alive blocks with their liberties and their vital regions).
pub fn target_lives(board: &Board, target: Point, zone: Option<&mut Zone>) -> bool {
    lives::<true>(board, target, zone)
}

/// [`target_lives`] without the early ends of [`Check::explore`]: what
/// the test of their exactness compares with.
#[cfg(test)]
fn target_lives_unpruned(board: &Board, target: Point) -> bool {
    lives::<false>(board, target, None)
}

/// [`target_lives`], with the early ends of the exploration or without.
#[inline(always)]
fn lives<const EARLY: bool>(board: &Board, target: Point, zone: Option<&mut Zone>) -> bool {
    let own = board.cell(target);
    if own == EMPTY || own == BORDER || board.libs(target) < 2 {
        return false;
    }
    let Some((libs, all)) = gate(board, target) else {
        return false;
    };
    prove::<EARLY>(board, target, own, &libs, all, zone)
}

/// The floods and Benson's fixed point, for a target that passed the
/// gate (about one call in fourteen): kept out of line, as its work
/// space (some sixteen kilobytes on the stack) would cost every call of
/// [`target_lives`] a probe of the stack's pages.
#[inline(never)]
fn prove<const EARLY: bool>(
    board: &Board,
    target: Point,
    own: u8,
    libs: &Libs,
    all: bool,
    zone: Option<&mut Zone>,
) -> bool {
    let mut c = Check {
        board,
        own,
        blocks: ArrayVec::new(),
        regions: ArrayVec::new(),
        points: ArrayVec::new(),
        seen: Zone::new(),
        big: Zone::new(),
        work: 0,
        masked: 0,
        vital_of: [0; MAX_BLOCKS],
        border_of: [0; MAX_BLOCKS],
    };
    c.blocks.push(board.block(target));
    let Some(live) = c.explore::<EARLY>(libs, all) else {
        return false;
    };
    let (blocks, regions) = c.benson(live);
    if blocks & 1 == 0 {
        return false;
    }
    if let Some(z) = zone {
        for (i, &h) in c.blocks.iter().enumerate() {
            if blocks & (1 << i) != 0 {
                z.add_block(board, h);
            }
        }
        for (i, r) in c.regions.iter().enumerate() {
            if regions & (1u64 << i) != 0 && r.vital & blocks != 0 {
                for &p in &c.points[r.start as usize..(r.start + r.len) as usize] {
                    z.insert(p);
                }
            }
        }
    }
    true
}

/// Liberties of the target, as gathered by [`gate`].
type Libs = ArrayVec<Point, LIBS_CAP>;
/// The most liberties [`gate`] lists.
const LIBS_CAP: usize = 32;

/// A necessary condition, cheap: two liberties of the target whose empty
/// neighbours are all liberties of the target too. Every region vital to
/// the target holds a liberty, and the empty neighbours of a point of a
/// region belong to the region, so two vital regions give two such
/// liberties, and every empty point of a vital region is one; two vital
/// regions hold two groups of them that no path of empty points joins.
/// Returns
/// those liberties (the only places a vital region of the target can be
/// flooded from), all of them when the target has too many liberties to
/// list (`true`: flood from its stones), or `None` when the condition
/// fails. It gives up as soon as too few liberties are left to pass.
fn gate(board: &Board, target: Point) -> Option<(Libs, bool)> {
    let t = board.block(target);
    let own = board.cell(target);
    let total = board.libs(t);
    let is_lib = |e: Point| {
        Board::neighbors(e)
            .iter()
            .any(|&n| board.cell(n) == own && board.block(n) == t)
    };
    // The liberties met so far: counted (up to the list's capacity) and
    // looked up in a bit set, as a large target meets each many times.
    let mut seen = Zone::new();
    let mut seen_count = 0;
    let mut good = Libs::new();
    let mut bad = 0;
    let mut fail = false;
    let mut overflow = false;
    // The walk stops once it fails or overflows: a large target need not
    // be walked to its end for a verdict already known.
    board.for_each_stone_while(t, |s| {
        // Most neighbours of the target's stones are its own stones: the
        // empty ones first, as a mask of four bits in the neighbours'
        // order, so that a stone without liberties costs four looks.
        let nbrs = Board::neighbors(s);
        let mut empty = 0u32;
        for (i, &n) in nbrs.iter().enumerate() {
            empty |= u32::from(board.cell(n) == EMPTY) << i;
        }
        while empty != 0 {
            let l = nbrs[empty.trailing_zeros() as usize & 3];
            empty &= empty - 1;
            if seen.contains(l) {
                continue;
            }
            if seen_count == LIBS_CAP {
                overflow = true;
                return false;
            }
            seen.insert(l);
            seen_count += 1;
            // An enemy block in the region has its liberties there, all
            // liberties of the target: no more than the target has.
            if Board::neighbors(l).iter().all(|&e| match board.cell(e) {
                EMPTY => is_lib(e),
                c if c == own || c == BORDER => true,
                _ => board.libs(e) <= total,
            }) {
                good.push(l);
            } else {
                bad += 1;
                if total < bad + 2 {
                    fail = true;
                    return false;
                }
            }
        }
        // Every liberty met (`total` of them, within the list's capacity,
        // so no overflow is left to find): the rest of the walk would only
        // meet them again.
        seen_count < total
    });
    if overflow {
        return Some((Libs::new(), true));
    }
    if fail {
        return None;
    }
    // A liberty next to an empty point that is not a good liberty is in a
    // region with an empty point away from the target (that point, or its
    // neighbour): drop it, and so on until every good liberty has only good
    // liberties as empty neighbours. Membership is asked of bit sets; the
    // list keeps the walk's order, which the floods follow.
    let mut in_good = Zone::new();
    for &l in &good {
        in_good.insert(l);
    }
    loop {
        let before = good.len();
        let kept = in_good;
        good.retain(|l| {
            let stays = Board::neighbors(*l)
                .iter()
                .all(|&e| board.cell(e) != EMPTY || kept.contains(e));
            if !stays {
                in_good.remove(*l);
            }
            stays
        });
        if good.len() == before {
            break;
        }
    }
    // Two vital regions hold two sets of good liberties that no path of
    // empty points joins.
    let first = *good.first()?;
    let reached = reached(board, own, first, &in_good, false);
    if reached == good.len() {
        return None;
    }
    separate_regions(board, own, &good, in_good).then_some((good, false))
}

/// The last test of [`gate`], sharper and as exact: most targets that pass
/// its first ones fail for want of two vital regions, after the floods.
/// Every empty point of a region vital to the target is a good liberty,
/// and so is every liberty of an enemy block in the region: a good
/// liberty next to an empty point that is not one (any more), or next to
/// an enemy block with a liberty that is not one, is in no vital region,
/// and is dropped. The liberties of a vital region are never dropped, and
/// a walk from one liberty through empty points and enemy stones stays in
/// its region: two vital regions leave liberties that the walk from the
/// first one left does not reach. The list [`gate`] returns is left as
/// it was, so the floods that follow see the same start points.
fn separate_regions(board: &Board, own: u8, good: &Libs, mut set: Zone) -> bool {
    // Whether every liberty of the enemy block on `e` is in `set`.
    let closed = |e: Point, set: &Zone| {
        let mut ok = true;
        board.for_each_stone_while(e, |s| {
            ok = Board::neighbors(s)
                .iter()
                .all(|&n| board.cell(n) != EMPTY || set.contains(n));
            ok
        });
        ok
    };
    // One pass, each liberty judged against the set as it stands.
    let mut left = 0;
    let mut first = None;
    for &l in good {
        let stays = Board::neighbors(l).iter().all(|&e| match board.cell(e) {
            EMPTY => set.contains(e),
            c if c == own || c == BORDER => true,
            _ => closed(e, &set),
        });
        if stays {
            left += 1;
            first.get_or_insert(l);
        } else {
            set.remove(l);
        }
    }
    let Some(first) = first else {
        return false;
    };
    // The liberties left that the walk from the first reaches (all in
    // `set`, so no more than the list holds).
    reached(board, own, first, &set, true) < left
}

/// How many points of `set` (liberties of the target) a walk from `first`
/// reaches, through the points of `set` and, with `enemy`, through the
/// enemy blocks next to them to their liberties in `set`. Empty points and
/// enemy stones hold no stone of the target's colour, so the walk stays in
/// the region of `first`.
fn reached(board: &Board, own: u8, first: Point, set: &Zone, enemy: bool) -> usize {
    let mut part: ArrayVec<Point, LIBS_CAP> = ArrayVec::new();
    let mut in_part = Zone::new();
    let mut blocks = Zone::new();
    part.push(first);
    in_part.insert(first);
    let mut k = 0;
    while k < part.len() {
        let q = part[k];
        k += 1;
        for e in Board::neighbors(q) {
            let c = board.cell(e);
            if c == EMPTY {
                if set.contains(e) && !in_part.contains(e) {
                    part.push(e);
                    in_part.insert(e);
                }
                continue;
            }
            if !enemy || c == own || c == BORDER {
                continue;
            }
            let h = board.block(e);
            if blocks.contains(h) {
                continue;
            }
            blocks.insert(h);
            board.for_each_stone(h, |s| {
                for n in Board::neighbors(s) {
                    if set.contains(n) && !in_part.contains(n) {
                        part.push(n);
                        in_part.insert(n);
                    }
                }
            });
        }
    }
    part.len()
}

impl Check<'_> {
    /// Floods, for every block in turn, the regions vital to it (the
    /// others cannot count for it), adding the blocks they touch. Returns
    /// the blocks that may live (two liberties at least), or `None` when
    /// the work cap ran out or the target has fewer than two vital regions.
    /// The target's regions are flooded from `target_libs` only, or from
    /// all its liberties with `all` (see [`gate`]). With `EARLY`, it also
    /// returns `None` as soon as the blocks explored so far doom the
    /// target ([`Check::doomed`]), which the whole exploration would find
    /// too.
    fn explore<const EARLY: bool>(&mut self, target_libs: &Libs, all: bool) -> Option<u32> {
        let b = self.board;
        let mut live = 0u32;
        let mut i = 0;
        while i < self.blocks.len() {
            let h = self.blocks[i];
            // A block with one liberty has at most one region with an
            // empty liberty in it: it cannot have two vital ones.
            if b.libs(h) >= 2 {
                live |= 1 << i;
                // A vital region holds a liberty: flood from the liberties.
                let mut ok = true;
                if i == 0 && !all {
                    for &l in target_libs {
                        if ok && !self.seen.contains(l) && !self.big.contains(l) {
                            ok = self.flood(l, 0);
                        }
                    }
                } else {
                    b.for_each_stone(h, |s| {
                        for n in Board::neighbors(s) {
                            if ok
                                && b.cell(n) == EMPTY
                                && !self.seen.contains(n)
                                && !self.big.contains(n)
                            {
                                ok = self.flood(n, i);
                            }
                        }
                    });
                }
                if !ok {
                    return None;
                }
            }
            if i == 0 && self.regions.iter().filter(|r| r.vital & 1 != 0).count() < 2 {
                return None;
            }
            i += 1;
            if EARLY && i < self.blocks.len() && self.doomed(i) {
                return None;
            }
        }
        self.vital_to_all();
        Some(live)
    }

    /// Floods the region of the liberty `start` of block `from`, and keeps
    /// it when it is vital to that block, small enough, and its bordering
    /// blocks fit in the block list. A region that is not vital to `from`
    /// is given up at its first empty point away from the block, and its
    /// points are freed for another block's flood (it may be vital to that
    /// one); a region too large is remembered as such. Returns false when
    /// the work cap ran out.
    fn flood(&mut self, start: Point, from: usize) -> bool {
        let b = self.board;
        let h = self.blocks[from];
        let own = self.own;
        let touches = |p: Point| {
            Board::neighbors(p)
                .iter()
                .any(|&n| b.cell(n) == own && b.block(n) == h)
        };
        let first = self.points.len();
        let mut border = 0u32;
        // Why the flood stopped early: not vital to `from`, or too large.
        let mut not_vital = false;
        let mut too_big = self.regions.is_full();
        self.seen.insert(start);
        if self.points.try_push(start).is_err() {
            return false;
        }
        let mut k = first;
        'flood: while !too_big && k < self.points.len() {
            let q = self.points[k];
            k += 1;
            for n in Board::neighbors(q) {
                let c = b.cell(n);
                if c == BORDER {
                    continue;
                }
                if c == own {
                    let head = b.block(n);
                    let idx = match self.blocks.iter().position(|&x| x == head) {
                        Some(i) => i,
                        None if !self.blocks.is_full() => {
                            self.blocks.push(head);
                            self.blocks.len() - 1
                        }
                        None => {
                            too_big = true;
                            break 'flood;
                        }
                    };
                    border |= 1 << idx;
                    continue;
                }
                if self.seen.contains(n) {
                    continue;
                }
                // Found as early as possible: an empty point away from the
                // block, or an enemy block with more liberties than the
                // block (its liberties would be empty points of the region,
                // all liberties of the block).
                let away = if c == EMPTY {
                    !touches(n)
                } else {
                    b.libs(n) > b.libs(h)
                };
                if away {
                    not_vital = true;
                    break 'flood;
                }
                if self.big.contains(n) || self.points.len() - first >= REGION_CAP {
                    too_big = true;
                    break 'flood;
                }
                self.seen.insert(n);
                if self.points.try_push(n).is_err() {
                    too_big = true;
                    break 'flood;
                }
            }
        }
        self.work += k - first;
        if not_vital || too_big {
            for &p in &self.points[first..] {
                if too_big {
                    self.big.insert(p);
                } else {
                    self.seen.remove(p);
                }
            }
            self.points.truncate(first);
            return self.work <= WORK_CAP;
        }
        let len = self.points.len() - first;
        // Complete, so every empty point touches `from`: vital to it. To
        // the other blocks of its border it is found vital or not once the
        // target has passed (see [`Check::vital_to_all`]).
        let region = Region {
            start: first as u16,
            len: len as u16,
            border,
            vital: 1 << from,
        };
        debug_assert!(self.vital_mask(&region) & (1 << from) != 0);
        self.regions.push(region);
        self.work <= WORK_CAP
    }

    /// The blocks of its border the region `r` is vital to: those with
    /// every empty point of the region as a liberty. The block it was
    /// flooded from (`r.vital`, [`Check::flood`]) is one; most regions
    /// border no other.
    fn vital_mask(&self, r: &Region) -> u32 {
        let mut vital = r.vital;
        debug_assert_eq!(vital.count_ones(), 1);
        debug_assert!(self.vital_of_blocks(r, vital) == vital);
        let others = r.border & !vital;
        if others != 0 {
            vital |= self.vital_of_blocks(r, others);
        }
        vital
    }

    /// Those of the blocks in `blocks` the region `r` is vital to.
    fn vital_of_blocks(&self, r: &Region, blocks: u32) -> u32 {
        let b = self.board;
        let own = self.own;
        let pts = &self.points[r.start as usize..(r.start + r.len) as usize];
        let empties = pts.iter().filter(|&&p| b.cell(p) == EMPTY).count();
        let mut vital = 0u32;
        for (i, &x) in self.blocks.iter().enumerate() {
            if blocks & (1 << i) == 0 || empties > b.libs(x) {
                continue;
            }
            let all = pts.iter().all(|&p| {
                b.cell(p) != EMPTY
                    || Board::neighbors(p)
                        .iter()
                        .any(|&n| b.cell(n) == own && b.block(n) == x)
            });
            if all {
                vital |= 1 << i;
            }
        }
        vital
    }

    /// Sets every region's blocks it is vital to, which [`Check::flood`]
    /// left at the block it flooded from: most checks end at the target,
    /// which reads only its own bit, and need no more. A region's border
    /// lists blocks found by the time it was flooded, whose indices stay,
    /// so a region's mask is final once set; the regions before `masked`
    /// have theirs.
    fn vital_to_all(&mut self) {
        for k in self.masked..self.regions.len() {
            let r = self.regions[k];
            let vital = self.vital_mask(&r);
            self.regions[k].vital = vital;
            for_bits(r.border, |i| self.border_of[i] |= 1 << k);
            for_bits(vital, |i| self.vital_of[i] |= 1 << k);
        }
        self.masked = self.regions.len();
    }

    /// Whether the target is sure to fall in Benson's fixed point once the
    /// first `explored` blocks have been explored: the fixed point of the
    /// regions kept so far, where the blocks not explored yet are taken
    /// as alive whatever regions they have, drops it. Exact: an explored
    /// block has all its vital regions kept already (its floods started
    /// from every liberty not in a region kept or found too large, and a
    /// region kept later is flooded from another block and not vital to
    /// it), so the blocks that the final fixed point keeps, with their
    /// regions, pass every test made here, and this fixed point, the
    /// largest set that does, keeps them too. A block with one liberty is
    /// dropped at once, explored or not.
    fn doomed(&mut self, explored: usize) -> bool {
        self.vital_to_all();
        let mut alive = 0u32;
        for (j, &h) in self.blocks.iter().enumerate() {
            alive |= u32::from(self.board.libs(h) >= 2) << j;
        }
        let (blocks, _) = self.fixed_point(alive, (1u32 << explored) - 1);
        blocks & 1 == 0
    }

    /// Benson's fixed point over the blocks in `live` and the regions
    /// kept: drop every block with fewer than two vital regions left, and
    /// every region touching a dropped block (or a block never explored),
    /// until nothing changes. Returns the blocks and regions left.
    fn benson(&self, live: u32) -> (u32, u64) {
        self.fixed_point(live, u32::MAX)
    }

    /// The fixed point of [`Check::benson`], where only the blocks in
    /// `checked` need two vital regions (the others stay while `live`
    /// holds them). Every region's masks must be set
    /// ([`Check::vital_to_all`]).
    fn fixed_point(&self, mut live: u32, checked: u32) -> (u32, u64) {
        debug_assert_eq!(self.masked, self.regions.len());
        #[cfg(test)]
        let expected = self.fixed_point_by_regions(live, checked);
        let n = self.blocks.len();
        let all = if n == 32 { u32::MAX } else { (1u32 << n) - 1 };
        let mut regions: u64 = (1u64 << self.regions.len()) - 1;
        // Blocks dropped whose regions are gone already.
        let mut gone = 0u32;
        loop {
            let dropped = all & !live & !gone;
            for_bits(dropped, |bi| regions &= !self.border_of[bi]);
            gone |= dropped;
            let mut changed = false;
            for_bits(live & checked & all, |bi| {
                if (self.vital_of[bi] & regions).count_ones() < 2 {
                    live &= !(1 << bi);
                    changed = true;
                }
            });
            if !changed {
                #[cfg(test)]
                assert_eq!((live, regions), expected);
                return (live, regions);
            }
        }
    }
}

/// Calls `f` on the index of every bit set in `bits`, lowest first.
#[inline]
fn for_bits(mut bits: u32, mut f: impl FnMut(usize)) {
    while bits != 0 {
        f(bits.trailing_zeros() as usize);
        bits &= bits - 1;
    }
}

#[cfg(test)]
#[path = "tests_life_check.rs"]
mod tests;
