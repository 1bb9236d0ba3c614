//! The referee's clock: one per player, charged with the thinking time the
//! match runner measures itself (from sending `genmove` to the end of the
//! answer), never with what an engine reports.
//!
//! Systems are GTP's (`time_settings main byo_time byo_stones`):
//! sudden death (`byo_stones = 0`) and Canadian byo-yomi (after main time,
//! `byo_stones` moves in every `byo_time` seconds). A move that starts in
//! main time and overruns it continues in the first byo-yomi period and
//! counts as one of its stones, as on KGS.
//!
//! Grace. The measured time includes process scheduling and pipe latency
//! that the engine cannot see, so a flag falls only when a period is
//! overrun by more than `grace` (0.5 s by default, `--grace`). The time
//! reported to engines with `time_left` is the true remaining time, rounded
//! down to whole seconds (GTP's argument is an integer), so an engine that
//! trusts it never needs the grace.

use std::time::Duration;

/// The time control of a match.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TimeControl {
    /// Main time per player.
    pub main: Duration,
    /// Length of one byo-yomi period; ignored when `stones` is 0.
    pub byo_time: Duration,
    /// Moves per byo-yomi period; 0 means sudden death.
    pub stones: u32,
    /// Tolerance before a flag falls.
    pub grace: Duration,
}

impl TimeControl {
    /// GTP's `time_settings` arguments, whole seconds.
    pub fn gtp_settings(&self) -> String {
        let byo = if self.stones == 0 {
            0
        } else {
            self.byo_time.as_secs()
        };
        format!("{} {} {}", self.main.as_secs(), byo, self.stones)
    }
}

/// One player's clock during a game.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Clock {
    tc: TimeControl,
    /// Main time left, or in byo-yomi the time left in the current period.
    left: f64,
    /// 0 in main time; in byo-yomi the stones still due in this period.
    stones: u32,
    /// Sum of everything charged.
    used: f64,
}

impl Clock {
    pub fn new(tc: TimeControl) -> Clock {
        let mut c = Clock {
            tc,
            left: tc.main.as_secs_f64(),
            stones: 0,
            used: 0.0,
        };
        if tc.main.is_zero() && tc.stones > 0 {
            c.enter_period();
        }
        c
    }

    fn enter_period(&mut self) {
        self.left = self.tc.byo_time.as_secs_f64();
        self.stones = self.tc.stones;
    }

    /// Total thinking time charged so far, in seconds.
    pub fn used(&self) -> f64 {
        self.used
    }

    /// Whether the clock is in byo-yomi.
    pub fn in_byoyomi(&self) -> bool {
        self.stones > 0
    }

    /// The `time_left` arguments: whole seconds left (in main time or the
    /// current period) and the stones due in the period (0 in main time).
    pub fn gtp_time_left(&self) -> (u64, u32) {
        (self.left.max(0.0).floor() as u64, self.stones)
    }

    /// How long the next move may take before its flag falls, grace
    /// included: the runner stops waiting for an answer after this.
    pub fn deadline(&self) -> Duration {
        let mut t = self.left.max(0.0);
        if !self.in_byoyomi() && self.tc.stones > 0 {
            // Main time, then straight into the first period.
            t += self.tc.byo_time.as_secs_f64();
        }
        Duration::from_secs_f64(t) + self.tc.grace
    }

    /// Charges one move that took `took`. `false` when the flag fell.
    pub fn charge(&mut self, took: Duration) -> bool {
        let t = took.as_secs_f64();
        self.used += t;
        let grace = self.tc.grace.as_secs_f64();
        if !self.in_byoyomi() {
            if t <= self.left {
                self.left -= t;
                return true;
            }
            if self.tc.stones == 0 {
                // Sudden death: only the grace is left.
                let over = t - self.left;
                self.left = 0.0;
                return over <= grace;
            }
            let over = t - self.left;
            self.enter_period();
            self.left -= over;
        } else {
            self.left -= t;
        }
        if self.left < -grace {
            return false;
        }
        self.stones -= 1;
        if self.stones == 0 {
            self.enter_period();
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tc(main: u64, byo: u64, stones: u32) -> TimeControl {
        TimeControl {
            main: Duration::from_secs(main),
            byo_time: Duration::from_secs(byo),
            stones,
            grace: Duration::from_millis(500),
        }
    }

    fn secs(s: f64) -> Duration {
        Duration::from_secs_f64(s)
    }

    #[test]
    fn sudden_death_with_grace() {
        let mut c = Clock::new(tc(10, 0, 0));
        assert_eq!(c.gtp_time_left(), (10, 0));
        assert_eq!(tc(10, 0, 0).gtp_settings(), "10 0 0");
        assert!(c.charge(secs(4.6)));
        assert_eq!(c.gtp_time_left(), (5, 0));
        assert!(close(c.deadline().as_secs_f64(), 5.9));
        assert!(c.charge(secs(5.8)), "0.4 s over is within grace");
        assert_eq!(c.gtp_time_left(), (0, 0));
        assert!(!c.charge(secs(0.6)), "nothing left but grace");
        assert!(close(c.used(), 11.0));
        let mut c = Clock::new(tc(10, 0, 0));
        assert!(!c.charge(secs(10.6)));
    }

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-9
    }

    #[test]
    fn canadian_byoyomi_periods() {
        let mut c = Clock::new(tc(5, 10, 2));
        assert_eq!(tc(5, 10, 2).gtp_settings(), "5 10 2");
        assert!(close(c.deadline().as_secs_f64(), 15.5));
        // 7 s: main time gone, 2 s into the first period, one stone played.
        assert!(c.charge(secs(7.0)));
        assert_eq!(c.gtp_time_left(), (8, 1));
        assert!(c.in_byoyomi());
        // The period's last stone: a fresh period follows.
        assert!(c.charge(secs(8.3)), "0.3 s over, within grace");
        assert_eq!(c.gtp_time_left(), (10, 2));
        assert!(c.charge(secs(3.0)));
        assert!(!c.charge(secs(7.6)), "period overrun by 0.6 s");
    }

    #[test]
    fn byoyomi_only() {
        let mut c = Clock::new(tc(0, 5, 1));
        assert_eq!(c.gtp_time_left(), (5, 1));
        for _ in 0..10 {
            assert!(c.charge(secs(4.9)));
            assert_eq!(c.gtp_time_left(), (5, 1));
        }
        assert!(!c.charge(secs(5.6)));
    }
}
