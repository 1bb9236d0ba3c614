//! The transposition-table storage shared by the depth-first solvers
//! (α-β, NegaScout: [`super::depth_first::Table`]; df-pn:
//! [`super::dfpn::Dfpn`]): two-slot buckets indexed by the low bits of the
//! position key, the whole key compared, the slot of more work kept first
//! (Breuker's two-level replacement: the first slot keeps the bigger
//! subtree, the second the most recent entry).
//!
//! The buckets are reserved once, at setup, for the whole byte budget, but
//! only a small power of two of them is in use at first; whenever half
//! of the slots in use are filled, the table doubles in place
//! (within its reservation, so without allocating). A solve that visits a
//! few thousand positions therefore touches a few hundred kilobytes, not
//! the gigabyte it may use: filling the whole budget up front cost seconds
//! of page faults on every small solve (`tesuji solve --game mnk:3,3,3`
//! spent 2.4 s of CPU zeroing its table).

use super::store::{advise_huge_pages, prefetch};

/// An entry of a [`Buckets`] table.
pub trait Slot: Copy {
    /// The empty slot (work 0).
    const EMPTY: Self;
    fn key(&self) -> u64;
    /// The effort the entry stands for; 0 marks an empty slot.
    fn work(&self) -> u8;
}

/// Buckets in use after a clear (or all of them, if fewer).
const START_BUCKETS: usize = 1 << 12;

pub struct Buckets<E> {
    slots: Vec<E>,
    mask: usize,
    /// Buckets of the whole budget (a power of two).
    max_buckets: usize,
    /// Occupied slots.
    used: usize,
}

impl<E: Slot> Buckets<E> {
    /// The largest power-of-two table (in buckets of two) within `bytes`,
    /// empty.
    pub fn new(bytes: usize) -> Buckets<E> {
        let bucket = 2 * std::mem::size_of::<E>();
        let mut buckets = 1usize;
        while buckets * 2 * bucket <= bytes {
            buckets *= 2;
        }
        let mut slots = Vec::with_capacity(2 * buckets);
        // Probed at random: in 4 KiB pages nearly every probe of a large
        // table also missed the TLB (Domineering 8×8 spent a third of its
        // time waiting on the probe; see [`Buckets::prefetch`] too).
        advise_huge_pages(&mut slots);
        let mut table = Buckets {
            slots,
            mask: 0,
            max_buckets: buckets,
            used: 0,
        };
        table.clear();
        table
    }

    /// Bytes of the slots in use now (what the table has touched).
    pub fn bytes(&self) -> usize {
        self.slots.len() * std::mem::size_of::<E>()
    }

    /// Empties the table and shrinks it to its starting size.
    pub fn clear(&mut self) {
        let buckets = START_BUCKETS.min(self.max_buckets);
        self.slots.clear();
        self.slots.resize(2 * buckets, E::EMPTY);
        self.mask = buckets - 1;
        self.used = 0;
    }

    #[inline]
    fn bucket(&self, key: u64) -> usize {
        2 * (key as usize & self.mask)
    }

    /// Asks the processor to fetch the bucket of `key` ahead of a
    /// [`Buckets::find`], so that the miss overlaps other work.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        let b = self.bucket(key);
        prefetch(self.slots.as_ptr().wrapping_add(b));
        // A bucket may straddle two cache lines.
        prefetch(self.slots.as_ptr().wrapping_add(b + 1));
    }

    /// The entry of `key`, if it is stored.
    #[inline]
    pub fn find(&self, key: u64) -> Option<&E> {
        let b = self.bucket(key);
        self.slots[b..b + 2]
            .iter()
            .find(|e| e.work() != 0 && e.key() == key)
    }

    /// The entry of `key`, if it is stored, to update in place.
    #[inline]
    pub fn find_mut(&mut self, key: u64) -> Option<&mut E> {
        let b = self.bucket(key);
        self.slots[b..b + 2]
            .iter_mut()
            .find(|e| e.work() != 0 && e.key() == key)
    }

    /// Stores `e`, whose key is not in the table (see [`Buckets::find`]):
    /// into the first slot if it stands for at least as much work as the
    /// entry there (which moves to the second), else into the second. The
    /// second slot's old entry, if any, is dropped.
    #[inline]
    pub fn insert(&mut self, e: E) {
        let b = self.bucket(e.key());
        let fills = self.slots[b + 1].work() == 0;
        if e.work() >= self.slots[b].work() {
            self.slots[b + 1] = self.slots[b];
            self.slots[b] = e;
        } else {
            self.slots[b + 1] = e;
        }
        if fills {
            self.used += 1;
        }
        // Half load: two-slot buckets then rarely drop an entry (df-pn,
        // which re-searches whatever its table forgets, needed about 10%
        // more nodes on NoGo 4×4 than with the whole budget zeroed up
        // front; growing at every dropped entry won those back but grew
        // every search to the whole budget, which is the cost this table
        // exists to avoid).
        if 2 * self.used > self.slots.len() && self.mask + 1 < self.max_buckets {
            self.grow();
        }
    }

    /// Doubles the buckets in use: an entry of bucket `b` stays there or
    /// moves to bucket `b + old`, by the next bit of its key, keeping the
    /// order of the two slots. A bucket left with one entry holds it in its
    /// first slot, as [`Buckets::insert`] expects a filled second slot only
    /// behind a filled first one.
    fn grow(&mut self) {
        let old = self.mask + 1;
        self.slots.resize(4 * old, E::EMPTY);
        for b in 0..old {
            let (mut kept, mut moved) = (0, 0);
            for j in 0..2 {
                let e = std::mem::replace(&mut self.slots[2 * b + j], E::EMPTY);
                if e.work() == 0 {
                    continue;
                }
                if e.key() as usize & old != 0 {
                    self.slots[2 * (b + old) + moved] = e;
                    moved += 1;
                } else {
                    self.slots[2 * b + kept] = e;
                    kept += 1;
                }
            }
        }
        self.mask = 2 * old - 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Clone, Copy, Debug, PartialEq)]
    struct E(u64, u8);

    impl Slot for E {
        const EMPTY: E = E(0, 0);
        fn key(&self) -> u64 {
            self.0
        }
        fn work(&self) -> u8 {
            self.1
        }
    }

    #[test]
    fn grows_in_place_and_keeps_what_fits() {
        let mut t = Buckets::<E>::new(1 << 20);
        let start = t.bytes();
        let capacity = t.slots.capacity();
        // Keys spread over the buckets (a multiplicative hash).
        let keys: Vec<u64> = (1..=20_000u64)
            .map(|k| k.wrapping_mul(0x9E37_79B9_7F4A_7C15))
            .collect();
        for (i, &k) in keys.iter().enumerate() {
            if t.find(k).is_none() {
                t.insert(E(k, 1 + (i % 7) as u8));
            }
        }
        assert!(t.bytes() > start, "the table grew");
        assert!(t.bytes() <= 1 << 20, "within the budget");
        assert_eq!(t.slots.capacity(), capacity, "without reallocating");
        let found = keys.iter().filter(|&&k| t.find(k).is_some()).count();
        // Collisions at small sizes drop a few entries; most survive.
        assert!(found > keys.len() * 9 / 10, "found {found}");
        for &k in &keys {
            if let Some(e) = t.find(k) {
                assert_eq!(e.key(), k);
            }
        }
        t.clear();
        assert_eq!(t.bytes(), start);
        assert!(keys.iter().all(|&k| t.find(k).is_none()));
    }

    #[test]
    fn first_slot_keeps_the_bigger_entry() {
        let mut t = Buckets::<E>::new(1 << 12);
        let n = (t.mask + 1) as u64;
        t.insert(E(5, 9));
        t.insert(E(5 + n, 2));
        t.insert(E(5 + 2 * n, 3));
        assert!(t.find(5).is_some(), "the big entry stays");
        assert!(t.find(5 + n).is_none(), "the second slot was replaced");
        assert!(t.find(5 + 2 * n).is_some());
    }
}
