//! Reusable memory for the best-first solvers' stores and tables
//! ([`store`](super::store), after seed 003's "Efficient tree
//! representations": every array is reserved once, at setup).
//!
//! A fresh page costs the kernel a fault and a zero fill on first write;
//! on the test machine that is about 0.5–1 ms per MiB, 40% of PP's time on
//! Domineering 5×6 (a tree of 16 MiB solved in 25 ms). A process that
//! solves one position after another (`tesuji bench`, a GTP session, the
//! tests) need not pay it every time: an array here lives in a [`Buf`],
//! a fixed-capacity vector whose memory comes from a process-wide pool of
//! virtual regions and goes back to it when the vector is dropped, pages
//! and all. The next search to take the region writes over pages that are
//! already mapped. Nothing is read before it is written: a [`Buf`] is
//! filled by [`Buf::push`] and [`Buf::resize`], as a `Vec` is.
//!
//! On Linux a region is one anonymous `mmap` of at least [`REGION`] bytes
//! (`MAP_NORESERVE`: untouched pages cost nothing, not even commit
//! charge), so any region fits any array of a budget up to that size and
//! regions taken by different algorithms (whose arrays differ in size)
//! serve each other. Elsewhere a region is a plain allocation of the
//! requested size, reused only for arrays that fit it. The pool keeps
//! [`KEEP`] regions at most, those with the most pages in use.

use std::mem::{align_of, size_of};
use std::ops::{Deref, DerefMut};
use std::ptr::NonNull;
use std::sync::Mutex;

/// Virtual size of a region (Linux): more than any array of the default
/// budgets.
pub const REGION: usize = 16 << 30;

/// Most free regions the pool keeps.
pub const KEEP: usize = 8;

/// Alignment of every region: a huge page, so that
/// [`advise_huge_pages`](super::store::advise_huge_pages) covers it all.
const ALIGN: usize = 2 << 20;

/// One region of memory.
struct Region {
    ptr: NonNull<u8>,
    bytes: usize,
    /// Bytes from the start that have been written (and so are mapped).
    used: usize,
}

// SAFETY: a region is plain memory owned by whoever holds the `Region`.
unsafe impl Send for Region {}

static POOL: Mutex<Vec<Region>> = Mutex::new(Vec::new());

fn pool() -> std::sync::MutexGuard<'static, Vec<Region>> {
    POOL.lock().unwrap_or_else(|e| e.into_inner())
}

impl Region {
    /// A region of at least `bytes` bytes: from the pool (the one with
    /// the most pages mapped among those that fit) or new.
    fn take(bytes: usize) -> Region {
        {
            let mut pool = pool();
            let fit = (0..pool.len())
                .filter(|&i| pool[i].bytes >= bytes)
                .max_by_key(|&i| pool[i].used);
            if let Some(i) = fit {
                return pool.swap_remove(i);
            }
        }
        Region::new(bytes)
    }

    #[cfg(target_os = "linux")]
    fn new(bytes: usize) -> Region {
        extern "C" {
            fn mmap(
                addr: *mut std::ffi::c_void,
                len: usize,
                prot: i32,
                flags: i32,
                fd: i32,
                off: i64,
            ) -> *mut std::ffi::c_void;
        }
        const PROT_READ: i32 = 1;
        const PROT_WRITE: i32 = 2;
        const MAP_PRIVATE: i32 = 2;
        const MAP_ANONYMOUS: i32 = 0x20;
        const MAP_NORESERVE: i32 = 0x4000;
        let map = |len: usize| {
            // SAFETY: an anonymous private mapping at an address of the
            // kernel's choice touches no existing memory.
            let p = unsafe {
                mmap(
                    std::ptr::null_mut(),
                    len,
                    PROT_READ | PROT_WRITE,
                    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                    -1,
                    0,
                )
            };
            (p as isize != -1).then_some((p, len))
        };
        // Room to align the start to a huge page. Where the kernel refuses
        // the large region (strict overcommit accounting ignores
        // MAP_NORESERVE), the size asked for.
        let (p, len) = map(bytes.max(REGION).next_multiple_of(ALIGN) + ALIGN)
            .or_else(|| map(bytes.next_multiple_of(ALIGN) + ALIGN))
            .unwrap_or_else(|| panic!("mmap of {bytes} bytes failed"));
        // The unaligned head stays mapped and unused (a few pages of
        // address space, never touched).
        let start = (p as usize).next_multiple_of(ALIGN);
        let bytes = len - (start - p as usize);
        super::store::advise_range(start, bytes);
        Region {
            ptr: NonNull::new(start as *mut u8).expect("mmap returned null"),
            bytes,
            used: 0,
        }
    }

    #[cfg(not(target_os = "linux"))]
    fn new(bytes: usize) -> Region {
        let layout = std::alloc::Layout::from_size_align(bytes.max(1), ALIGN).expect("layout");
        // SAFETY: the layout has a nonzero size.
        let p = unsafe { std::alloc::alloc(layout) };
        Region {
            ptr: NonNull::new(p).unwrap_or_else(|| std::alloc::handle_alloc_error(layout)),
            bytes: bytes.max(1),
            used: 0,
        }
    }

    /// Gives the region back to the pool, which drops its least used
    /// region when it holds more than [`KEEP`].
    fn give_back(self) {
        let extra = {
            let mut pool = pool();
            pool.push(self);
            (pool.len() > KEEP).then(|| {
                let i = (0..pool.len())
                    .min_by_key(|&i| pool[i].used)
                    .expect("not empty");
                pool.swap_remove(i)
            })
        };
        if let Some(r) = extra {
            r.release();
        }
    }

    #[cfg(target_os = "linux")]
    fn release(self) {
        extern "C" {
            fn munmap(addr: *mut std::ffi::c_void, len: usize) -> i32;
        }
        // SAFETY: the range lies inside one mapping made by `new`, which
        // nothing refers to any more (unmapping part of a mapping is
        // allowed; the unaligned head stays mapped).
        unsafe {
            munmap(self.ptr.as_ptr() as *mut std::ffi::c_void, self.bytes);
        }
    }

    #[cfg(not(target_os = "linux"))]
    fn release(self) {
        let layout = std::alloc::Layout::from_size_align(self.bytes, ALIGN).expect("layout");
        // SAFETY: allocated by `new` with this layout.
        unsafe { std::alloc::dealloc(self.ptr.as_ptr(), layout) }
    }
}

/// A vector of fixed capacity in a pooled region (see the module docs):
/// `push` beyond the capacity panics instead of growing.
pub struct Buf<T: Copy> {
    ptr: NonNull<T>,
    len: usize,
    cap: usize,
    /// Most elements held at once (to tell the pool how much is mapped).
    high: usize,
    region: Option<Region>,
}

// SAFETY: a `Buf` owns its elements as a `Vec` does.
unsafe impl<T: Copy + Send> Send for Buf<T> {}
unsafe impl<T: Copy + Sync> Sync for Buf<T> {}

/// The writer of [`Buf::push_pairs`]: the free slots of two buffers, at
/// least `n` in each, of which the first `len` are written.
pub struct PairPush<T, U> {
    a: *mut T,
    b: *mut U,
    n: usize,
    len: usize,
}

impl<T: Copy, U: Copy> PairPush<T, U> {
    /// Writes the next pair; panics past the `n` announced.
    #[inline(always)]
    pub fn push(&mut self, x: T, y: U) {
        assert!(self.len < self.n, "more pairs than announced");
        // SAFETY: `len < n`, and `Buf::push_pairs` checked that both
        // buffers have at least `n` free slots from `a` and `b`.
        unsafe {
            self.a.add(self.len).write(x);
            self.b.add(self.len).write(y);
        }
        self.len += 1;
    }
}

impl<T: Copy> Buf<T> {
    /// An empty vector for `cap` elements.
    pub fn with_capacity(cap: usize) -> Buf<T> {
        assert!(size_of::<T>() > 0 && align_of::<T>() <= ALIGN);
        let bytes = cap.checked_mul(size_of::<T>()).expect("capacity overflow");
        if bytes == 0 {
            return Buf {
                ptr: NonNull::dangling(),
                len: 0,
                cap: 0,
                high: 0,
                region: None,
            };
        }
        let region = Region::take(bytes);
        Buf {
            ptr: region.ptr.cast(),
            len: 0,
            cap,
            high: 0,
            region: Some(region),
        }
    }

    pub fn capacity(&self) -> usize {
        self.cap
    }

    /// Appends `x`; panics when full (callers check room first).
    #[inline]
    pub fn push(&mut self, x: T) {
        assert!(self.len < self.cap, "Buf is full");
        // SAFETY: `len < cap`, and the region holds `cap` elements.
        unsafe { self.ptr.as_ptr().add(self.len).write(x) };
        self.len += 1;
    }

    /// Appends `n` elements, the `i`-th `f(i)`; panics unless all fit.
    /// One capacity check for the lot, and the length written once: a
    /// tree expansion appends all its children so (with a `push` per
    /// child the check and the stored length were a tenth of PP²'s
    /// expansion loop).
    #[inline]
    pub fn extend_with(&mut self, n: usize, mut f: impl FnMut(usize) -> T) {
        assert!(n <= self.cap - self.len, "Buf is full");
        let base = self.ptr.as_ptr();
        let len = self.len;
        for i in 0..n {
            let x = f(i);
            // SAFETY: `len + i < len + n ≤ cap`, and the region holds
            // `cap` elements. Should `f` panic, the elements written so far
            // lie beyond `len`, uncounted (`T: Copy`: nothing to drop).
            unsafe { base.add(len + i).write(x) };
        }
        self.len = len + n;
    }

    /// [`Buf::extend_with`] on two buffers at once: `f(i)` gives the
    /// `i`-th new element of each. One loop writes both (a tree's nodes
    /// and edges: a second loop for the edges, a byte each, cost PP² 2%
    /// of its instructions). The writes go through [`Buf::push_pairs`],
    /// the one place that writes two buffers.
    #[inline]
    pub fn extend_pair_with<U: Copy>(
        &mut self,
        other: &mut Buf<U>,
        n: usize,
        mut f: impl FnMut(usize) -> (T, U),
    ) {
        self.push_pairs(other, n, |out| {
            for i in 0..n {
                let (x, y) = f(i);
                out.push(x, y);
            }
        });
    }

    /// Appends up to `n` pairs, one to `self` and one to `other`, by
    /// [`PairPush::push`] from `fill`, which need not know their number
    /// in advance (a game listing moves off a bit set): one capacity check
    /// for the lot, and each push checks only its count against `n`, in a
    /// register. Returns how many pairs `fill` pushed.
    #[inline]
    pub fn push_pairs<U: Copy>(
        &mut self,
        other: &mut Buf<U>,
        n: usize,
        fill: impl FnOnce(&mut PairPush<T, U>),
    ) -> usize {
        assert!(n <= self.cap - self.len, "Buf is full");
        assert!(n <= other.cap - other.len, "Buf is full");
        // SAFETY: `len ≤ cap` for both, so the pointers stay inside (or
        // one past) their regions.
        let mut push = unsafe {
            PairPush {
                a: self.ptr.as_ptr().add(self.len),
                b: other.ptr.as_ptr().add(other.len),
                n,
                len: 0,
            }
        };
        // `self` and `other` stay borrowed until `fill` returns, so
        // nothing else reaches the regions meanwhile.
        let (a, b) = (push.a, push.b);
        fill(&mut push);
        // `fill` holds a `&mut PairPush` and could swap ours with the
        // writer of a nested `push_pairs` on other buffers; the count we
        // add must be for our regions and our `n`, so a swapped writer is
        // refused before any length moves.
        assert!(
            push.a == a && push.b == b && push.n == n,
            "a writer from another push_pairs"
        );
        // The first `push.len` slots past each length were written (in
        // order: see `PairPush::push`). Should `fill` panic, they stay
        // uncounted, as in `extend_with`.
        self.len += push.len;
        other.len += push.len;
        push.len
    }

    /// Forgets every element.
    pub fn clear(&mut self) {
        self.high = self.high.max(self.len);
        self.len = 0;
    }

    /// Grows to `n` elements, the new ones `x` (or shortens); panics
    /// beyond the capacity.
    pub fn resize(&mut self, n: usize, x: T) {
        assert!(n <= self.cap, "Buf is full");
        for i in self.len..n {
            // SAFETY: `i < n ≤ cap`.
            unsafe { self.ptr.as_ptr().add(i).write(x) };
        }
        self.len = n;
        self.high = self.high.max(n);
    }
}

impl<T: Copy> Deref for Buf<T> {
    type Target = [T];
    #[inline]
    fn deref(&self) -> &[T] {
        // SAFETY: the first `len` elements have been written.
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }
}

impl<T: Copy> DerefMut for Buf<T> {
    #[inline]
    fn deref_mut(&mut self) -> &mut [T] {
        // SAFETY: the first `len` elements have been written, and `self`
        // is borrowed mutably.
        unsafe { std::slice::from_raw_parts_mut(self.ptr.as_ptr(), self.len) }
    }
}

impl<T: Copy> Drop for Buf<T> {
    fn drop(&mut self) {
        if let Some(mut r) = self.region.take() {
            let used = self.high.max(self.len) * size_of::<T>();
            r.used = r.used.max(used);
            r.give_back();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    #[should_panic(expected = "Buf is full")]
    fn a_buf_refuses_a_run_that_does_not_fit() {
        let mut a: Buf<u32> = Buf::with_capacity(4);
        a.push(1);
        a.extend_with(4, |i| i as u32);
    }

    #[test]
    fn a_buf_holds_what_it_is_given_and_its_region_is_reused() {
        let mut a: Buf<u32> = Buf::with_capacity(1000);
        for i in 0..1000 {
            a.push(i);
        }
        assert_eq!(a.len(), 1000);
        assert_eq!(a[999], 999);
        a.clear();
        assert!(a.is_empty());
        a.resize(10, 7);
        assert_eq!(&a[..], &[7; 10]);
        drop(a);
        // Another type in a (perhaps reused) region: only what was
        // written is read.
        let mut b: Buf<u64> = Buf::with_capacity(500);
        b.resize(3, 1);
        b.push(2);
        assert_eq!(&b[..], &[1, 1, 1, 2]);
        let mut c: Buf<u16> = Buf::with_capacity(8);
        c.push(9);
        c.extend_with(3, |i| i as u16 * 2);
        c.extend_with(0, |_| unreachable!());
        c.extend_with(4, |i| 100 + i as u16);
        assert_eq!(&c[..], &[9, 0, 2, 4, 100, 101, 102, 103]);
        let empty: Buf<u8> = Buf::with_capacity(0);
        assert!(empty.is_empty() && empty.capacity() == 0);
    }

    #[test]
    fn a_pair_of_bufs_grows_together() {
        let mut a: Buf<u32> = Buf::with_capacity(6);
        let mut b: Buf<u8> = Buf::with_capacity(5);
        a.push(7);
        a.extend_pair_with(&mut b, 3, |i| (10 + i as u32, i as u8));
        a.extend_pair_with(&mut b, 0, |_| unreachable!());
        a.extend_pair_with(&mut b, 2, |i| (20 + i as u32, 50 + i as u8));
        assert_eq!(&a[..], &[7, 10, 11, 12, 20, 21]);
        assert_eq!(&b[..], &[0, 1, 2, 50, 51]);
    }

    #[test]
    #[should_panic(expected = "Buf is full")]
    fn a_pair_refuses_a_run_that_does_not_fit_either_buf() {
        let mut a: Buf<u32> = Buf::with_capacity(8);
        let mut b: Buf<u8> = Buf::with_capacity(2);
        a.extend_pair_with(&mut b, 3, |i| (i as u32, i as u8));
    }

    /// [`Buf::push_pairs`]: the pairs pushed land in both buffers, in
    /// order, fewer than announced too; the count comes back.
    #[test]
    fn pairs_pushed_one_by_one_land_in_both_bufs() {
        let mut a: Buf<u32> = Buf::with_capacity(7);
        let mut b: Buf<u8> = Buf::with_capacity(6);
        a.push(7);
        let n = a.push_pairs(&mut b, 4, |out| {
            for i in 0..3 {
                out.push(10 + i, i as u8);
            }
        });
        assert_eq!(n, 3);
        assert_eq!(a.push_pairs(&mut b, 0, |_| {}), 0);
        assert_eq!(a.push_pairs(&mut b, 3, |out| out.push(20, 50)), 1);
        assert_eq!(&a[..], &[7, 10, 11, 12, 20]);
        assert_eq!(&b[..], &[0, 1, 2, 50]);
    }

    /// A writer swapped with a nested call's would add its count to the
    /// wrong buffers: refused.
    #[test]
    #[should_panic(expected = "a writer from another push_pairs")]
    fn swapped_pair_writers_are_refused() {
        let mut a: Buf<u32> = Buf::with_capacity(8);
        let mut b: Buf<u8> = Buf::with_capacity(8);
        let mut c: Buf<u32> = Buf::with_capacity(1);
        let mut d: Buf<u8> = Buf::with_capacity(1);
        a.push_pairs(&mut b, 8, |outer| {
            for i in 0..8 {
                outer.push(i, i as u8);
            }
            c.push_pairs(&mut d, 1, |inner| std::mem::swap(outer, inner));
        });
    }

    #[test]
    #[should_panic(expected = "more pairs than announced")]
    fn pairs_beyond_the_announced_number_are_refused() {
        let mut a: Buf<u32> = Buf::with_capacity(8);
        let mut b: Buf<u8> = Buf::with_capacity(8);
        a.push_pairs(&mut b, 2, |out| {
            for i in 0..3 {
                out.push(i, i as u8);
            }
        });
    }

    #[test]
    #[should_panic(expected = "Buf is full")]
    fn pairs_that_might_not_fit_are_refused() {
        let mut a: Buf<u32> = Buf::with_capacity(8);
        let mut b: Buf<u8> = Buf::with_capacity(2);
        a.push_pairs(&mut b, 3, |out| out.push(1, 1));
    }

    #[test]
    #[should_panic(expected = "Buf is full")]
    fn a_full_buf_refuses_more() {
        let mut a: Buf<u8> = Buf::with_capacity(2);
        for i in 0..3 {
            a.push(i);
        }
    }
}
