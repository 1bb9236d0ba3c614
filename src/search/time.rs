//! Time management: how long one `genmove` may think, from the clock the
//! controller describes with GTP's `time_settings`, `kgs-time_settings` and
//! `time_left`.
//!
//! Systems (GTP 2 draft, section 6.2.4, and the KGS extension):
//! - none: no clock; a fixed default per move (2 s on 9×9, 3 s on 13×13,
//!   4 s on 19×19; configurable with [`TimeControl::set_default_per_move`]);
//! - absolute: main time only;
//! - Canadian byo-yomi: after main time, `stones` moves in each `byo_time`;
//! - Japanese byo-yomi (KGS `byoyomi`): after main time, `periods` periods of
//!   `period_time` each; a move made within a period does not use it up.
//!
//! GTP's `time_settings main byo_time byo_stones` means Canadian byo-yomi,
//! except that `byo_time > 0, byo_stones = 0` means no time limit at all and
//! `byo_time = 0, byo_stones = 0` means absolute time.
//!
//! The budget is the remaining main time spread over the moves we still
//! expect to play, plus a share of the byo-yomi, and never more than what is
//! left minus a safety margin for transmission and bookkeeping. Every rule
//! below is plain arithmetic, tested at the bottom of the file.

use crate::go::Color;
use std::time::Duration;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum System {
    /// No clock at all (the default, and GTP's "no time limit").
    Unlimited,
    Absolute,
    Canadian {
        byo_time: Duration,
        stones: u32,
    },
    Japanese {
        period: Duration,
        periods: u32,
    },
}

/// One player's clock as last reported (or as set up).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clock {
    /// Main time left, or in byo-yomi the time left in the current period.
    pub time: Duration,
    /// 0 while in main time; in Canadian byo-yomi the stones still to play
    /// in the current period; in Japanese byo-yomi the periods left.
    pub stones: u32,
}

#[derive(Clone, Debug)]
pub struct TimeControl {
    system: System,
    main: Duration,
    clocks: [Clock; 2],
    default_per_move: [Duration; 3],
}

/// Kept back from every budget: network, GUI and our own latency.
const MARGIN_MIN: Duration = Duration::from_millis(300);
/// Shortest budget ever handed out: enough for a depth-1 search.
const FLOOR: Duration = Duration::from_millis(20);

impl Default for TimeControl {
    fn default() -> Self {
        TimeControl {
            system: System::Unlimited,
            main: Duration::ZERO,
            clocks: [Clock {
                time: Duration::ZERO,
                stones: 0,
            }; 2],
            default_per_move: [
                Duration::from_secs(2),
                Duration::from_secs(3),
                Duration::from_secs(4),
            ],
        }
    }
}

fn secs(s: f64) -> Duration {
    Duration::from_secs_f64(if s.is_finite() && s > 0.0 { s } else { 0.0 })
}

impl TimeControl {
    pub fn new() -> TimeControl {
        TimeControl::default()
    }

    pub fn system(&self) -> System {
        self.system
    }

    pub fn clock(&self, color: Color) -> Clock {
        self.clocks[color.index()]
    }

    /// The per-move time used without a clock, for boards up to 9×9, up to
    /// 13×13 and larger.
    pub fn set_default_per_move(&mut self, small: Duration, medium: Duration, large: Duration) {
        self.default_per_move = [small, medium, large];
    }

    fn reset_clocks(&mut self) {
        let stones = match self.system {
            System::Japanese { periods, .. } if self.main.is_zero() => periods,
            System::Canadian { stones, .. } if self.main.is_zero() => stones,
            _ => 0,
        };
        let time = match self.system {
            System::Canadian { byo_time, .. } if self.main.is_zero() => byo_time,
            System::Japanese { period, .. } if self.main.is_zero() => period,
            _ => self.main,
        };
        self.clocks = [Clock { time, stones }; 2];
    }

    /// GTP `time_settings main_time byo_yomi_time byo_yomi_stones` (seconds).
    pub fn time_settings(&mut self, main: f64, byo_time: f64, byo_stones: u32) {
        self.main = secs(main);
        let byo = secs(byo_time);
        self.system = match (byo.is_zero(), byo_stones) {
            (false, 0) => System::Unlimited,
            (true, 0) => System::Absolute,
            (_, stones) => System::Canadian {
                byo_time: byo,
                stones,
            },
        };
        self.reset_clocks();
    }

    /// `kgs-time_settings none`.
    pub fn kgs_none(&mut self) {
        self.system = System::Unlimited;
        self.main = Duration::ZERO;
        self.reset_clocks();
    }

    /// `kgs-time_settings absolute main_time`.
    pub fn kgs_absolute(&mut self, main: f64) {
        self.main = secs(main);
        self.system = System::Absolute;
        self.reset_clocks();
    }

    /// `kgs-time_settings byoyomi main_time period_time periods`.
    pub fn kgs_byoyomi(&mut self, main: f64, period: f64, periods: u32) {
        self.main = secs(main);
        self.system = if periods == 0 || secs(period).is_zero() {
            System::Absolute
        } else {
            System::Japanese {
                period: secs(period),
                periods,
            }
        };
        self.reset_clocks();
    }

    /// `kgs-time_settings canadian main_time byo_yomi_time byo_yomi_stones`:
    /// the same as `time_settings` except that no combination means "no
    /// limit".
    pub fn kgs_canadian(&mut self, main: f64, byo_time: f64, byo_stones: u32) {
        if byo_stones == 0 || secs(byo_time).is_zero() {
            self.kgs_absolute(main);
        } else {
            self.time_settings(main, byo_time, byo_stones);
        }
    }

    /// GTP `time_left color time stones`.
    pub fn time_left(&mut self, color: Color, time: f64, stones: u32) {
        self.clocks[color.index()] = Clock {
            time: secs(time),
            stones,
        };
    }

    /// Bookkeeping for controllers that never send `time_left`: takes the
    /// time a move used off our own idea of the clock.
    pub fn spend(&mut self, color: Color, used: Duration) {
        let system = self.system;
        let c = &mut self.clocks[color.index()];
        match system {
            System::Unlimited => {}
            System::Absolute => c.time = c.time.saturating_sub(used),
            System::Canadian { byo_time, stones } => {
                if c.stones == 0 {
                    if used <= c.time {
                        c.time -= used;
                        return;
                    }
                    let over = used - c.time;
                    *c = Clock {
                        time: byo_time.saturating_sub(over),
                        stones,
                    };
                } else {
                    c.time = c.time.saturating_sub(used);
                }
                // One stone of the period is played; a finished period
                // starts the next one.
                c.stones = c.stones.saturating_sub(1);
                if c.stones == 0 {
                    *c = Clock {
                        time: byo_time,
                        stones,
                    };
                }
            }
            System::Japanese { period, periods } => {
                if c.stones == 0 {
                    if used <= c.time {
                        c.time -= used;
                        return;
                    }
                    let over = used - c.time;
                    *c = Clock {
                        time: period,
                        stones: periods,
                    };
                    let lost = (over.as_secs_f64() / period.as_secs_f64()) as u32;
                    c.stones = c.stones.saturating_sub(lost).max(1);
                } else if used > period {
                    let lost = (used.as_secs_f64() / period.as_secs_f64()) as u32;
                    c.stones = c.stones.saturating_sub(lost).max(1);
                }
            }
        }
    }

    /// How long `color` may think about its next move on a board of side
    /// `board_size` after `moves_played` moves of the game (both colours).
    pub fn budget(&self, color: Color, board_size: usize, moves_played: usize) -> Duration {
        let c = self.clocks[color.index()];
        let area = board_size * board_size;
        // Moves this player still expects to make: half of a typical game
        // length (about 0.8 × area moves in all), never fewer than a floor
        // that keeps some time back for a long endgame.
        let expected_total = area * 4 / 5;
        let ours_left = expected_total.saturating_sub(moves_played) / 2;
        let moves_left = ours_left.max(area / 20).max(4) as u32;
        let budget = match self.system {
            System::Unlimited => {
                self.default_per_move[match board_size {
                    0..=9 => 0,
                    10..=13 => 1,
                    _ => 2,
                }]
            }
            System::Absolute => {
                let share = c.time / moves_left;
                share.min(cap(c.time))
            }
            System::Canadian { byo_time, stones } => {
                if c.stones == 0 {
                    // Main time spread over the moves left, plus most of one
                    // byo-yomi move's share: the overrun is paid from
                    // byo-yomi, which is there to be used.
                    let byo_share = byo_time / stones.max(1);
                    let share = c.time / moves_left + byo_share / 2;
                    share.min(c.time + cap(byo_share))
                } else {
                    cap(c.time) / c.stones.max(1)
                }
            }
            System::Japanese { period, .. } => {
                if c.stones == 0 {
                    let share = c.time / moves_left + cap(period) / 2;
                    share.min(c.time + cap(period))
                } else {
                    // Never lose a period: think within one, with a margin.
                    cap(c.time.min(period))
                }
            }
        };
        budget.max(FLOOR)
    }
}

/// What may be used out of `left`: all of it but a safety margin of 5 % and
/// at least [`MARGIN_MIN`].
fn cap(left: Duration) -> Duration {
    let margin = (left / 20).max(MARGIN_MIN);
    left.saturating_sub(margin)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(d: Duration) -> u128 {
        d.as_millis()
    }

    #[test]
    fn no_settings_uses_the_defaults() {
        let t = TimeControl::new();
        assert_eq!(t.budget(Color::Black, 9, 0), Duration::from_secs(2));
        assert_eq!(t.budget(Color::Black, 13, 0), Duration::from_secs(3));
        assert_eq!(t.budget(Color::White, 19, 100), Duration::from_secs(4));
        let mut t = TimeControl::new();
        t.set_default_per_move(
            Duration::from_millis(500),
            Duration::from_secs(1),
            Duration::from_secs(1),
        );
        assert_eq!(t.budget(Color::Black, 9, 0), Duration::from_millis(500));
    }

    #[test]
    fn gtp_special_cases() {
        let mut t = TimeControl::new();
        t.time_settings(600.0, 30.0, 0);
        assert_eq!(t.system(), System::Unlimited);
        t.time_settings(600.0, 0.0, 0);
        assert_eq!(t.system(), System::Absolute);
        t.time_settings(600.0, 30.0, 5);
        assert_eq!(
            t.system(),
            System::Canadian {
                byo_time: Duration::from_secs(30),
                stones: 5
            }
        );
        assert_eq!(t.clock(Color::White).time, Duration::from_secs(600));
    }

    #[test]
    fn absolute_time_is_spread_over_the_game() {
        let mut t = TimeControl::new();
        t.time_settings(300.0, 0.0, 0);
        // 9×9: 64 moves expected in all, 32 ours.
        assert_eq!(ms(t.budget(Color::Black, 9, 0)), 300_000 / 32);
        // Late in the game the floor of area / 20 = 4 moves applies.
        t.time_left(Color::Black, 20.0, 0);
        assert_eq!(ms(t.budget(Color::Black, 9, 200)), 5_000);
        // Nearly out of time: never more than what is left minus the margin.
        t.time_left(Color::Black, 1.0, 0);
        assert_eq!(ms(t.budget(Color::Black, 9, 200)), 250);
        t.time_left(Color::Black, 0.1, 0);
        assert_eq!(t.budget(Color::Black, 9, 200), FLOOR);
    }

    #[test]
    fn canadian_byo_yomi_divides_the_period() {
        let mut t = TimeControl::new();
        t.time_settings(0.0, 60.0, 10);
        // No main time: straight into byo-yomi, 10 stones in 60 s.
        assert_eq!(t.clock(Color::Black).stones, 10);
        assert_eq!(ms(t.budget(Color::Black, 19, 0)), 57_000 / 10);
        t.time_left(Color::Black, 10.0, 2);
        assert_eq!(ms(t.budget(Color::Black, 19, 50)), 9_500 / 2);
        // In main time: share of the main time plus half a byo-yomi share.
        t.time_settings(600.0, 60.0, 10);
        // 19×19: 288 moves expected, 144 ours.
        assert_eq!(ms(t.budget(Color::Black, 19, 0)), 600_000 / 144 + 3_000);
    }

    #[test]
    fn japanese_byo_yomi_keeps_within_a_period() {
        let mut t = TimeControl::new();
        t.kgs_byoyomi(0.0, 30.0, 5);
        assert_eq!(ms(t.budget(Color::White, 19, 0)), 28_500);
        t.time_left(Color::White, 12.0, 3);
        assert_eq!(ms(t.budget(Color::White, 19, 0)), 11_400);
        t.kgs_byoyomi(0.0, 0.0, 5);
        assert_eq!(t.system(), System::Absolute);
    }

    #[test]
    fn spend_tracks_the_clock_without_time_left() {
        let mut t = TimeControl::new();
        t.time_settings(10.0, 30.0, 2);
        t.spend(Color::Black, Duration::from_secs(4));
        assert_eq!(t.clock(Color::Black).time, Duration::from_secs(6));
        // Overrun: 2 s into byo-yomi, one of two stones played.
        t.spend(Color::Black, Duration::from_secs(8));
        assert_eq!(
            t.clock(Color::Black),
            Clock {
                time: Duration::from_secs(28),
                stones: 1
            }
        );
        // The second stone completes the period: a fresh one starts.
        t.spend(Color::Black, Duration::from_secs(5));
        assert_eq!(
            t.clock(Color::Black),
            Clock {
                time: Duration::from_secs(30),
                stones: 2
            }
        );
        assert_eq!(t.clock(Color::White).time, Duration::from_secs(10));
    }

    #[test]
    fn kgs_none_and_canadian() {
        let mut t = TimeControl::new();
        t.kgs_canadian(60.0, 0.0, 0);
        assert_eq!(t.system(), System::Absolute);
        t.kgs_none();
        assert_eq!(t.system(), System::Unlimited);
    }
}
