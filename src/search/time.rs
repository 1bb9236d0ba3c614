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
//! A move's [`Budget`] has a target (`soft`), which iterative deepening aims
//! at, and a limit (`hard`), at which a running iteration is abandoned (the
//! search then answers the best move of the last completed one). In main
//! time the target is the time left, less a reserve that planning never
//! touches (12 % of the main time, at least 0.3 s) and a per-move latency
//! allowance, spread over the moves still expected (more of them when the
//! clock is short) and weighted by the phase of the game (the middle game
//! gets most). In byo-yomi it is an even share of the period, with a
//! margin. [`start_next_iteration`] decides, after each iteration, whether
//! the next one is worth starting: not if it cannot end before the hard
//! limit, not beyond depth 2 with a single move to weigh against the pass,
//! and past the target only while the best move keeps changing.
//!
//! Wall time is what the opponent's clock counts, so all of this is wall
//! time; on a loaded machine the search simply gets fewer nodes. Every rule
//! is plain arithmetic, tested at the bottom of the file with a fake clock,
//! including whole worst-case games.

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

/// Smallest safety margin kept back from any clock: transmission, GUI and
/// process-scheduling latency on a loaded machine.
const MARGIN_MIN: Duration = Duration::from_millis(300);
/// Share of the main time, in percent, that planning never touches: it is
/// there for a game longer than expected and for the per-move latencies the
/// engine cannot see.
const RESERVE_PERCENT: u32 = 12;
/// Wall time one move costs beyond what the search measures (pipes, the
/// controller's bookkeeping, being scheduled late on a busy machine),
/// charged once per expected move.
pub const LAG_PER_MOVE: Duration = Duration::from_millis(10);
/// How far past its target a move whose best move keeps changing may run
/// (the hard limit is at most this many soft targets).
const HARD_FACTOR: u32 = 3;
/// Iterations in a row with the same best move after which it is "stable":
/// the next iteration is started only if it is expected to end within the
/// target.
pub const STABLE_ITERATIONS: u32 = 3;
/// Shortest target ever handed out. Depth 1 can be cut short too, so this
/// only avoids zero-length searches.
const FLOOR: Duration = Duration::from_millis(2);

/// The time one move may use: a target (`soft`) that iterative deepening
/// aims at, and a limit (`hard`) at which a running iteration is abandoned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    pub soft: Duration,
    pub hard: Duration,
}

impl Budget {
    /// A fixed time: target and limit alike.
    pub fn fixed(t: Duration) -> Budget {
        Budget { soft: t, hard: t }
    }
}

/// What iterative deepening knows when one iteration has finished.
#[derive(Clone, Copy, Debug)]
pub struct IterationState {
    /// Time since the search began.
    pub elapsed: Duration,
    /// How long the iteration just finished took.
    pub last: Duration,
    /// Expected ratio of the next iteration's time to the last one's.
    pub growth: f64,
    /// Iterations in a row (this one included) with the same best move.
    pub stable: u32,
    /// Legal root moves, the pass included.
    pub root_moves: usize,
    /// Depth just completed.
    pub depth: u32,
}

/// Whether iterative deepening should start the next iteration.
///
/// - An iteration expected to end after the hard limit is not started: it
///   would be cut off and its partial result thrown away.
/// - With only the pass and one move at the root there is nothing to weigh:
///   depth 2 (the opponent's answer) settles pass against the move.
/// - A stable best move (the same over [`STABLE_ITERATIONS`] iterations)
///   gets another iteration only if it should end within the target.
/// - An unstable one may run on past the target (up to the hard limit) as
///   long as the target had not been reached when the iteration starts:
///   that is where extra time matters.
pub fn start_next_iteration(budget: &Budget, it: &IterationState) -> bool {
    let predicted = it.elapsed + it.last.mul_f64(it.growth.max(1.0));
    if predicted > budget.hard {
        return false;
    }
    if it.root_moves <= 2 && it.depth >= 2 {
        return false;
    }
    if it.stable >= STABLE_ITERATIONS {
        predicted <= budget.soft
    } else {
        it.elapsed < budget.soft
    }
}

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
    pub fn budget(&self, color: Color, board_size: usize, moves_played: usize) -> Budget {
        let c = self.clocks[color.index()];
        let n = moves_left(board_size, moves_played, c.time, self.main);
        let weight = phase_weight(board_size, moves_played);
        let budget = match self.system {
            System::Unlimited => {
                let t = self.default_per_move[match board_size {
                    0..=9 => 0,
                    10..=13 => 1,
                    _ => 2,
                }];
                Budget::fixed(t)
            }
            System::Absolute => main_time(c.time, self.main, n, weight, Duration::ZERO),
            System::Canadian { byo_time, stones } => {
                if c.stones == 0 {
                    // Main time, then byo-yomi, which is there to be used:
                    // a quarter of one byo-yomi move's share on top, and an
                    // overrun up to that share is paid from the first period.
                    let byo_share = period_usable(byo_time, stones) / stones.max(1);
                    main_time(c.time, self.main, n, weight, byo_share)
                } else {
                    byo_yomi(c.time, c.stones)
                }
            }
            System::Japanese { period, .. } => {
                if c.stones == 0 {
                    main_time(c.time, self.main, n, weight, period_usable(period, 1))
                } else {
                    // A move made within a period costs nothing: aim at half
                    // of it, never beyond its safe end.
                    let usable = period_usable(c.time.min(period), 1);
                    Budget {
                        soft: usable / 2,
                        hard: usable,
                    }
                }
            }
        };
        Budget {
            soft: budget.soft.max(FLOOR),
            hard: budget.hard.max(FLOOR),
        }
    }
}

/// Moves `color` should still expect to make: half of the board's area less
/// the moves played (a 9×9 game is about 80 moves, 19×19 about 360 at
/// most), never fewer than an eighth of the area (long endgames, capture
/// races), and up to twice as many when the clock is nearly out (a short
/// clock must last however long the game goes on).
pub fn moves_left(board_size: usize, moves_played: usize, left: Duration, main: Duration) -> u32 {
    let area = board_size * board_size;
    let base = (area.saturating_sub(moves_played) / 2).max(area / 8).max(4) as f64;
    let pressure = if main.is_zero() {
        0.0
    } else {
        // 0 with 30 % of the main time or more left, 1 with none.
        (1.0 - left.as_secs_f64() / (0.3 * main.as_secs_f64())).clamp(0.0, 1.0)
    };
    (base * (1.0 + pressure)).round() as u32
}

/// Relative weight of a move by the phase of the game: the middle game,
/// where fights are decided, gets more than the opening (the first sixth of
/// the area in moves) and the endgame (past half of the area) less.
/// In percent, so that budgets stay exact integer arithmetic.
pub fn phase_weight(board_size: usize, moves_played: usize) -> u32 {
    let area = board_size * board_size;
    if moves_played < area / 6 {
        100
    } else if moves_played < area / 2 {
        130
    } else {
        70
    }
}

/// The budget in main time (sudden death, or before a byo-yomi whose share
/// per move is `byo_share`): `left` with a reserve of [`RESERVE_PERCENT`] %
/// of the main time (at least [`MARGIN_MIN`]) and [`LAG_PER_MOVE`] per
/// expected move kept back, spread over `n` moves and weighted by the
/// phase. Once the reserve is reached the target shrinks geometrically (a
/// quarter of an even share of what is left), so the clock lasts however
/// long the game goes on. The hard limit lets a move run over to
/// [`HARD_FACTOR`] targets, but never beyond a fifth of what is spendable
/// (or the target itself in an emergency).
fn main_time(left: Duration, main: Duration, n: u32, weight: u32, byo_share: Duration) -> Budget {
    let main = main.max(left);
    let reserve = (main * RESERVE_PERCENT / 100).max(MARGIN_MIN);
    let n = n.max(1);
    let spendable = left.saturating_sub(reserve + LAG_PER_MOVE * n);
    if spendable.is_zero() {
        let t = left / (4 * n) + byo_share / 4;
        return Budget { soft: t, hard: t };
    }
    let soft = spendable / n * weight / 100 + byo_share / 4;
    let hard = (soft * HARD_FACTOR).min(soft.max(spendable / 5 + byo_share));
    Budget { soft, hard }
}

/// What may be used of a byo-yomi period of length `time` for `stones`
/// moves: all but a tenth, at least [`MARGIN_MIN`] plus [`LAG_PER_MOVE`]
/// per stone.
fn period_usable(time: Duration, stones: u32) -> Duration {
    let margin = (time / 10).max(MARGIN_MIN + LAG_PER_MOVE * stones);
    time.saturating_sub(margin)
}

/// Canadian byo-yomi with `stones` moves still due in `left`: an even
/// share of the usable time; a move may borrow from the later ones up to
/// twice its share as long as each of them keeps half of its own.
fn byo_yomi(left: Duration, stones: u32) -> Budget {
    let stones = stones.max(1);
    let usable = period_usable(left, stones);
    let soft = usable / stones;
    let hard = (soft * 2).min(usable.saturating_sub(soft / 2 * (stones - 1)));
    Budget {
        soft,
        hard: hard.max(soft),
    }
}

#[cfg(test)]
mod tests;
