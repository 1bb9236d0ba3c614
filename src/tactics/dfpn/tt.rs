//! The df-pn transposition table: fixed size, allocated once, buckets of
//! four entries replaced by the work (nodes searched) behind them, after
//! Nagai's *SmallTreeReplacement* (seed 000: "replace the one with the
//! smallest subtree").
//!
//! An entry holds a node's proof and disproof numbers (φ for the player to
//! move, δ for the opponent), the best move, the work spent, and for solved
//! entries the facts the search needs to reuse them soundly on another path
//! (see the module documentation of `dfpn`): the bound of the positions of
//! the proof tree (`ghi`) and whether the proof met a ko ban. Unsolved
//! entries also keep how many of the node's quiet moves had been split off
//! its group.
//!
//! An entry takes 32 bytes in the table, four to a bucket of two cache
//! lines. A solved entry's φ and δ are 0 and ∞ (or ∞ and 0), one bit, so
//! its bound of 12 bytes takes their place ([`Slot`]).

use super::ghi::Bound;
use super::numbers::INF;
use crate::go::board::Point;
use crate::solve::store::{advise_huge_pages, prefetch};

/// Flags of an entry or a search result.
pub const KO: u8 = 1;
/// The result used a line cut by the rules (repetition or depth limit).
pub const PATH_DEP: u8 = 2;
/// The result rests on a node whose moves were not all considered (the
/// mover played only its own threats, see `threats`): it holds in the
/// restricted game only and is never reported as a proof.
pub const REL: u8 = 4;
const VALID: u8 = 0x80;
/// Slot flags: the entry is solved, and then won by the player to move.
const SOLVED: u8 = 0x10;
const WON: u8 = 0x08;
/// The flags an entry keeps.
const KEPT: u8 = KO | PATH_DEP | REL;

/// "No stone count bound": the proof tree has no state besides its root.
pub const NO_MIN: [u16; 2] = [u16::MAX, u16::MAX];

#[derive(Clone, Copy, Debug, Default)]
pub struct Entry {
    pub key: u64,
    pub phi: u32,
    pub delta: u32,
    pub work: u32,
    pub best: u16,
    pub flags: u8,
    /// For a proven capture: the bound (`ghi`) of the positions of the
    /// proof tree other than its root.
    pub min: Bound,
    /// How far the node's scan for quiet moves got (see `frame`): the
    /// moves it split off before this point are made children again when
    /// the node is expanded anew. A hint only; 0 when nothing was split.
    pub cursor: u16,
    /// The table generation that stored it (set by [`Table::store`]);
    /// entries of older generations are gone (see [`Table::clear`]).
    pub generation: u8,
}

impl Entry {
    pub fn is_solved(&self) -> bool {
        self.phi == 0 || self.delta == 0
    }

    pub fn best(&self) -> Point {
        self.best as Point
    }
}

/// An entry as the table holds it: a solved entry keeps its bound where an
/// unsolved one keeps φ and δ (two classes in `a`, one in `b`, the third
/// in `min`), and which player won in its flags.
#[derive(Clone, Copy, Debug, Default)]
struct Slot {
    key: u64,
    a: [u16; 4],
    work: u32,
    best: u16,
    cursor: u16,
    min: [u16; 2],
    flags: u8,
    generation: u8,
}

impl Slot {
    fn pack(e: &Entry, flags: u8, generation: u8) -> Slot {
        let solved = e.is_solved();
        debug_assert!(
            !solved || (e.phi, e.delta) == (0, INF) || (e.phi, e.delta) == (INF, 0),
            "a solved entry is 0 and infinity"
        );
        let a = if solved {
            let b = e.min.0;
            [b[0][0], b[0][1], b[1][0], b[1][1]]
        } else {
            let (p, d) = (e.phi, e.delta);
            [p as u16, (p >> 16) as u16, d as u16, (d >> 16) as u16]
        };
        let status = if !solved {
            0
        } else if e.phi == 0 {
            SOLVED | WON
        } else {
            SOLVED
        };
        Slot {
            key: e.key,
            a,
            work: e.work,
            best: e.best,
            cursor: e.cursor,
            min: if solved { e.min.0[2] } else { [u16::MAX; 2] },
            flags: (flags & KEPT) | status | VALID,
            generation,
        }
    }

    fn unpack(&self) -> Entry {
        let a = self.a;
        let (phi, delta, min) = if self.is_solved() {
            let won = self.flags & WON != 0;
            let bound = Bound([[a[0], a[1]], [a[2], a[3]], self.min]);
            if won {
                (0, INF, bound)
            } else {
                (INF, 0, bound)
            }
        } else {
            let phi = a[0] as u32 | (a[1] as u32) << 16;
            let delta = a[2] as u32 | (a[3] as u32) << 16;
            (phi, delta, Bound::NONE)
        };
        Entry {
            key: self.key,
            phi,
            delta,
            work: self.work,
            best: self.best,
            flags: self.flags & KEPT,
            min,
            cursor: self.cursor,
            generation: self.generation,
        }
    }

    fn is_solved(&self) -> bool {
        self.flags & SOLVED != 0
    }
}

const WAYS: usize = 4;

#[derive(Clone, Copy, Default)]
#[repr(align(64))]
struct Bucket([Slot; WAYS]);

// Four entries fill two cache lines.
const _: () = assert!(std::mem::size_of::<Bucket>() == 128);

pub struct Table {
    buckets: Vec<Bucket>,
    mask: usize,
    generation: u8,
}

impl Table {
    /// A table of at most `megabytes` MB (a power of two of buckets); 0
    /// gives a table that stores nothing.
    pub fn new(megabytes: usize) -> Table {
        let bytes = megabytes.saturating_mul(1 << 20);
        let per = std::mem::size_of::<Bucket>();
        let mut n = 0usize;
        if bytes >= per {
            n = 1;
            while n * 2 * per <= bytes {
                n *= 2;
            }
        }
        // Huge pages: every probe of a table far larger than the cache
        // lands on a random page, and with 4 KB pages it also misses the
        // TLB (a page walk, dear in a virtual machine); 64 MB in 2 MB
        // pages needs 32 TLB entries instead of 16,384. The memory is
        // reserved, then advised, then written: the advice must come
        // before the first write puts small pages under it.
        let mut buckets = Vec::with_capacity(n);
        advise_huge_pages(&mut buckets);
        buckets.resize(n, Bucket::default());
        Table {
            buckets,
            mask: n.wrapping_sub(1),
            generation: 1,
        }
    }

    pub fn is_enabled(&self) -> bool {
        !self.buckets.is_empty()
    }

    /// Forgets every entry. A new generation makes the old entries
    /// invisible at once; the memory is only wiped when the 8-bit
    /// generation counter wraps, so a new problem costs nothing however big
    /// the table.
    pub fn clear(&mut self) {
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.buckets.fill(Bucket::default());
            self.generation = 1;
        }
    }

    fn live(&self, e: &Slot) -> bool {
        e.flags & VALID != 0 && e.generation == self.generation
    }

    fn bucket(&self, key: u64) -> usize {
        // The low bits index; the full key is compared on probe.
        (key as usize) & self.mask
    }

    pub fn probe(&self, key: u64) -> Option<Entry> {
        if self.buckets.is_empty() {
            return None;
        }
        let b = &self.buckets[self.bucket(key)];
        b.0.iter()
            .find(|e| self.live(e) && e.key == key)
            .map(Slot::unpack)
    }

    /// Asks the processor to bring the bucket of `key` into the cache,
    /// without waiting for it: a hint, which changes nothing the table
    /// answers. Used for a probe known to come after some other work (the
    /// next quiet move a frame will split off), so that the miss, most of
    /// a probe's cost in a table far larger than the cache, overlaps it.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        if let Some(b) = self.buckets.get(self.bucket(key)) {
            // A bucket is two cache lines.
            prefetch(b as *const Bucket as *const u8);
            prefetch((b as *const Bucket as *const u8).wrapping_add(64));
        }
    }

    /// Reads the bucket of `key` and returns a word of it, so that a batch
    /// of touches brings the buckets into the cache together (the loads are
    /// independent, so the processor overlaps their misses) before the
    /// probes that use them.
    pub fn touch(&self, key: u64) -> u64 {
        // A bucket spans two cache lines: touch both.
        self.buckets
            .get(self.bucket(key))
            .map_or(0, |b| b.0[0].key ^ b.0[WAYS - 1].key)
    }

    /// Stores `e`. A solved entry is never replaced by an unsolved one for
    /// the same key (an unsolved store there comes from a search that could
    /// not use the proof on its path, and the proof is still true).
    pub fn store(&mut self, e: Entry) {
        if self.buckets.is_empty() {
            return;
        }
        let generation = self.generation;
        let mut e = Slot::pack(&e, e.flags, generation);
        let live = |x: &Slot| x.flags & VALID != 0 && x.generation == generation;
        let i = self.bucket(e.key);
        let b = &mut self.buckets[i].0;
        if let Some(old) = b.iter_mut().find(|x| live(x) && x.key == e.key) {
            if old.is_solved() && !e.is_solved() {
                return;
            }
            e.work = e.work.max(old.work);
            *old = e;
            return;
        }
        // Otherwise a free way, else the one with least work behind it;
        // solved entries count double, as they save a whole search.
        let weight = |x: &Slot| {
            if !live(x) {
                0
            } else if x.is_solved() {
                (x.work as u64) * 2 + 1
            } else {
                x.work as u64 + 1
            }
        };
        let victim = (0..WAYS).min_by_key(|&j| weight(&b[j])).unwrap_or(0);
        b[victim] = e;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn store_probe_replace() {
        let mut t = Table::new(1);
        assert!(t.is_enabled());
        let e = |key, phi, delta, work| Entry {
            key,
            phi,
            delta,
            work,
            ..Entry::default()
        };
        t.store(e(5, 3, 4, 1000));
        assert_eq!(t.probe(5).unwrap().phi, 3);
        assert!(t.probe(6).is_none());
        // Solved entries survive an unsolved store for the same key.
        t.store(e(5, 0, u32::MAX, 1));
        t.store(e(5, 2, 2, 1));
        assert!(t.probe(5).unwrap().is_solved());
        // Fill one bucket: the least work goes first.
        let stride = (t.mask + 1) as u64;
        for i in 1..=4u64 {
            t.store(e(5 + i * stride, 1, 1, 100 + i as u32));
        }
        assert!(t.probe(5 + stride).is_none(), "least work replaced");
        assert!(t.probe(5).is_some(), "solved entry kept");
        // A clear forgets everything, also across the generation wrap.
        for _ in 0..300 {
            t.clear();
            assert!(t.probe(5).is_none());
            t.store(e(5, 1, 1, 1));
            assert!(t.probe(5).is_some());
        }
        let off = Table::new(0);
        assert!(!off.is_enabled() && off.probe(1).is_none());
    }

    #[test]
    fn solved_entries_keep_their_bound() {
        let mut t = Table::new(1);
        let bound = Bound([[3, 4], [5, 6], [7, 8]]);
        for (key, phi, delta) in [(9u64, 0, INF), (10, INF, 0)] {
            t.store(Entry {
                key,
                phi,
                delta,
                work: 7,
                best: 42,
                flags: KO,
                min: bound,
                cursor: 3,
                ..Entry::default()
            });
            let e = t.probe(key).unwrap();
            assert_eq!((e.phi, e.delta, e.min), (phi, delta, bound));
            assert_eq!((e.work, e.best, e.flags, e.cursor), (7, 42, KO, 3));
        }
        // Unsolved numbers keep all 32 bits; an unsolved entry has no bound.
        t.store(Entry {
            key: 11,
            phi: 0x1234_5678,
            delta: 0x0FED_CBA9,
            min: bound,
            ..Entry::default()
        });
        let e = t.probe(11).unwrap();
        assert_eq!(
            (e.phi, e.delta, e.min),
            (0x1234_5678, 0x0FED_CBA9, Bound::NONE)
        );
    }
}
