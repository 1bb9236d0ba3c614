//! What a row of `tesuji bench` (seed 001's Tables 4–7: Saffidine &
//! Cazenave, "Developments on Product Propagation", CG 2013) cost the
//! solving thread besides its CPU time: the user and system parts, the
//! page faults and how often the thread was preempted, from Linux
//! `getrusage(RUSAGE_THREAD)`.
//!
//! The CPU time of a row includes system time (the kernel's page faults
//! and zero fills of the trees' first touched pages) and, on a shared
//! machine, the slowdown of caches and memory bandwidth taken by other
//! processes. Rows of a few tenths of a second swung by half between runs
//! of the whole bench; printing these numbers on stderr beside each row
//! tells a setup cost (system time, faults) from a loaded machine
//! (preemptions, user time alone grown).

use std::ops::Sub;
use std::time::Duration;

/// The calling thread's resource use so far.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Usage {
    pub user: Duration,
    pub system: Duration,
    /// Minor page faults (a page mapped on first touch).
    pub faults: u64,
    /// Involuntary context switches: the thread was preempted.
    pub preempted: u64,
}

impl Sub for Usage {
    type Output = Usage;
    fn sub(self, o: Usage) -> Usage {
        Usage {
            user: self.user.saturating_sub(o.user),
            system: self.system.saturating_sub(o.system),
            faults: self.faults.saturating_sub(o.faults),
            preempted: self.preempted.saturating_sub(o.preempted),
        }
    }
}

impl std::ops::AddAssign for Usage {
    fn add_assign(&mut self, o: Usage) {
        self.user += o.user;
        self.system += o.system;
        self.faults += o.faults;
        self.preempted += o.preempted;
    }
}

/// The calling thread's [`Usage`] (`None` where the platform has no
/// per-thread `getrusage`).
pub fn thread_usage() -> Option<Usage> {
    #[cfg(target_os = "linux")]
    {
        #[repr(C)]
        struct Timeval {
            tv_sec: i64,
            tv_usec: i64,
        }
        /// `struct rusage` of Linux on 64-bit targets: two timevals, then
        /// fourteen longs (maxrss, ixrss, idrss, isrss, minflt, majflt,
        /// nswap, inblock, oublock, msgsnd, msgrcv, nsignals, nvcsw,
        /// nivcsw).
        #[repr(C)]
        struct Rusage {
            utime: Timeval,
            stime: Timeval,
            longs: [i64; 14],
        }
        const RUSAGE_THREAD: i32 = 1;
        extern "C" {
            fn getrusage(who: i32, usage: *mut Rusage) -> i32;
        }
        let tv = || Timeval {
            tv_sec: 0,
            tv_usec: 0,
        };
        let mut r = Rusage {
            utime: tv(),
            stime: tv(),
            longs: [0; 14],
        };
        let time = |t: &Timeval| Duration::from_micros((t.tv_sec * 1_000_000 + t.tv_usec) as u64);
        // SAFETY: `r` is a valid, writable `struct rusage` for the call.
        if cfg!(target_pointer_width = "64") && unsafe { getrusage(RUSAGE_THREAD, &mut r) } == 0 {
            return Some(Usage {
                user: time(&r.utime),
                system: time(&r.stime),
                faults: r.longs[4] as u64,
                preempted: r.longs[13] as u64,
            });
        }
    }
    None
}

/// One line for stderr: the usage of `runs` runs of a row.
pub fn describe(u: &Usage, runs: usize) -> String {
    format!(
        "  {runs} run(s): user {:.3} s, system {:.3} s, {} page faults, preempted {} times",
        u.user.as_secs_f64(),
        u.system.as_secs_f64(),
        u.faults,
        u.preempted
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn usage_counts_faults_and_time_of_work() {
        let Some(a) = thread_usage() else { return };
        // Touch fresh pages (at least one fault each) and spin a little.
        let v: Vec<u8> = vec![1; 64 << 20];
        let mut x = 0u64;
        for (i, &b) in v.iter().enumerate().step_by(4096) {
            x = x.wrapping_add(b as u64 * i as u64);
        }
        assert!(x > 0);
        let d = thread_usage().expect("worked once") - a;
        assert!(d.faults >= 16, "{d:?}");
        assert!(d.user + d.system > Duration::ZERO, "{d:?}");
    }
}
