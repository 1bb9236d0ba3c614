//! The transposition table: a fixed-size hash table of search results,
//! allocated once when the player is created and never resized, so the
//! search itself stays free of allocation.
//!
//! Buckets of four 16-byte entries fill one 64-byte cache line; the number of
//! buckets is a power of two so the index is a mask of the key. Each entry
//! keeps the full 64-bit key (collisions between different positions then
//! need equal 64-bit keys), the value with its bound type (exact, lower or
//! upper, as fail-soft NegaScout produces them), the remaining depth it was
//! searched to, the best move, and the search generation that wrote it.
//!
//! Replacement: an entry for the same key is overwritten unless it holds a
//! deeper result of the current search; otherwise the victim is the entry
//! with the least depth, entries of older searches going first.
//!
//! The key of a search node (see [`key`]) is the board's Zobrist hash of the
//! stones XOR keys for white to move, for the point of an active ko ban, and
//! for "the previous move was a pass" (after which a pass ends the game, so
//! the two situations have different values).

use crate::go::board::{Board, PASS};
use crate::go::{zobrist, Color};

/// Bound type of a stored value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The value is at most this (the search failed low).
    Upper,
    /// The value is at least this (the search failed high).
    Lower,
    Exact,
}

/// What a probe finds.
#[derive(Clone, Copy, Debug)]
pub struct Hit {
    pub value: i32,
    pub depth: u8,
    pub bound: Bound,
    /// Best move found (`PASS` is a move too); `NO_MOVE` if none.
    pub mv: u16,
}

/// Stored in `mv` when no move is known.
pub const NO_MOVE: u16 = u16::MAX;

/// XORed into the key when the previous move was a pass.
pub const PREVIOUS_PASS: u64 = 0x4F1B_BCDC_BFA5_3E0B;

#[derive(Clone, Copy, Default)]
struct Entry {
    key: u64,
    value: i32,
    mv: u16,
    depth: u8,
    /// Bits 0-1: bound (0 = empty slot); bits 2-7: generation.
    meta: u8,
}

const WAYS: usize = 4;

#[derive(Clone, Copy, Default)]
#[repr(align(64))]
struct Bucket([Entry; WAYS]);

pub struct Tt {
    buckets: Box<[Bucket]>,
    mask: usize,
    generation: u8,
}

/// The table key of a node: see the module docs.
#[inline]
pub fn key(board: &Board, previous_pass: bool) -> u64 {
    let to_move = board.to_move();
    let mut k = board.hash();
    if to_move == Color::White {
        k ^= zobrist::WHITE_TO_MOVE;
    }
    if let Some(ko) = board.ko_point(to_move) {
        k ^= zobrist::KO_BASE.wrapping_mul(ko as u64);
    }
    if previous_pass {
        k ^= PREVIOUS_PASS;
    }
    k
}

impl Tt {
    /// A table of at most `megabytes` MiB (at least one bucket), rounded
    /// down to a power of two buckets.
    pub fn new(megabytes: usize) -> Tt {
        let bytes = megabytes.max(1).saturating_mul(1 << 20);
        let wanted = (bytes / std::mem::size_of::<Bucket>()).max(1);
        let n = if wanted.is_power_of_two() {
            wanted
        } else {
            wanted.next_power_of_two() / 2
        };
        Tt {
            buckets: vec![Bucket::default(); n].into_boxed_slice(),
            mask: n - 1,
            generation: 0,
        }
    }

    /// Bytes used by the entries.
    pub fn size_bytes(&self) -> usize {
        self.buckets.len() * std::mem::size_of::<Bucket>()
    }

    /// Empties every entry, in place.
    pub fn clear(&mut self) {
        self.buckets.fill(Bucket::default());
        self.generation = 0;
    }

    /// Marks the start of a new search: older entries become the first to
    /// be replaced.
    pub fn new_search(&mut self) {
        self.generation = (self.generation + 1) & 0x3F;
    }

    #[inline]
    fn bucket(&self, key: u64) -> usize {
        // The low bits pick the bucket; the full key is compared anyway.
        (key as usize) & self.mask
    }

    pub fn probe(&self, key: u64) -> Option<Hit> {
        let b = &self.buckets[self.bucket(key)];
        b.0.iter()
            .find(|e| e.key == key && e.meta & 3 != 0)
            .map(|e| Hit {
                value: e.value,
                depth: e.depth,
                bound: match e.meta & 3 {
                    1 => Bound::Upper,
                    2 => Bound::Lower,
                    _ => Bound::Exact,
                },
                mv: e.mv,
            })
    }

    pub fn store(&mut self, key: u64, value: i32, depth: u8, bound: Bound, mv: u16) {
        let generation = self.generation;
        let i = self.bucket(key);
        let bucket = &mut self.buckets[i].0;
        let meta = (generation << 2)
            | match bound {
                Bound::Upper => 1,
                Bound::Lower => 2,
                Bound::Exact => 3,
            };
        let slot = match bucket.iter().position(|e| e.key == key && e.meta & 3 != 0) {
            Some(j) => {
                let e = &bucket[j];
                let current = e.meta >> 2 == generation;
                if current && e.depth > depth && bound != Bound::Exact {
                    return;
                }
                j
            }
            None => {
                let mut victim = 0;
                let mut worst = i32::MAX;
                for (j, e) in bucket.iter().enumerate() {
                    let score = if e.meta & 3 == 0 {
                        i32::MIN
                    } else {
                        e.depth as i32 - if e.meta >> 2 == generation { 0 } else { 256 }
                    };
                    if score < worst {
                        worst = score;
                        victim = j;
                    }
                }
                victim
            }
        };
        let old_mv = bucket[slot].mv;
        let keep_old_move = mv == NO_MOVE && bucket[slot].key == key;
        bucket[slot] = Entry {
            key,
            value,
            mv: if keep_old_move { old_mv } else { mv },
            depth,
            meta,
        };
    }
}

/// `PASS` as stored in an entry's move.
pub const PASS_MOVE: u16 = PASS as u16;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn size_is_a_power_of_two_within_budget() {
        let t = Tt::new(1);
        assert_eq!(t.size_bytes(), 1 << 20);
        assert!(t.buckets.len().is_power_of_two());
        let t = Tt::new(3);
        assert_eq!(t.size_bytes(), 2 << 20);
    }

    #[test]
    fn store_probe_and_clear() {
        let mut t = Tt::new(1);
        t.store(12345, -70, 3, Bound::Lower, 42);
        let h = t.probe(12345).unwrap();
        assert_eq!(
            (h.value, h.depth, h.bound, h.mv),
            (-70, 3, Bound::Lower, 42)
        );
        assert!(t.probe(54321).is_none());
        // A shallower non-exact result of the same search does not overwrite.
        t.store(12345, 10, 2, Bound::Upper, 7);
        assert_eq!(t.probe(12345).unwrap().depth, 3);
        // An exact one does.
        t.store(12345, 10, 2, Bound::Exact, 7);
        assert_eq!(t.probe(12345).unwrap().bound, Bound::Exact);
        t.clear();
        assert!(t.probe(12345).is_none());
    }

    #[test]
    fn replacement_prefers_shallow_and_old_entries() {
        let mut t = Tt::new(1);
        let n = t.mask as u64 + 1;
        // Five keys in one bucket: the shallowest is evicted.
        for (i, d) in [5u8, 1, 7, 3].iter().enumerate() {
            t.store(7 + n * i as u64, 0, *d, Bound::Exact, 0);
        }
        t.store(7 + n * 4, 0, 2, Bound::Exact, 0);
        assert!(t.probe(7 + n).is_none());
        assert!(t.probe(7 + n * 4).is_some());
        // In a new search even the deepest old entry goes before new ones.
        t.new_search();
        t.store(7 + n * 5, 0, 1, Bound::Exact, 0);
        t.store(7 + n * 6, 0, 1, Bound::Exact, 0);
        t.store(7 + n * 7, 0, 1, Bound::Exact, 0);
        t.store(7 + n * 8, 0, 1, Bound::Exact, 0);
        assert!(t.probe(7 + n * 8).is_some());
        assert!(t.probe(7 + n * 5).is_some());
    }

    #[test]
    fn key_separates_side_ko_and_pass() {
        let mut b = Board::new(9);
        let k0 = key(&b, false);
        assert_ne!(k0, key(&b, true));
        b.set_to_move(Color::White);
        assert_ne!(k0, key(&b, false));
    }
}
