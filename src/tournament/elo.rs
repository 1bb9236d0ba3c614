//! The Elo difference a match result implies, with a 95% interval.
//!
//! Formula. With `w` wins, `d` draws and `l` losses in `n = w + d + l`
//! games, the score is `s = (w + d/2) / n`, and the logistic Elo model
//! (expected score `1 / (1 + 10^(-D/400))` for a difference `D`) gives
//!
//! ```text
//! D = -400 · log10(1/s - 1)
//! ```
//!
//! The interval is the Wilson score interval for `s` at z = 1.96 (Wilson
//! 1927), mapped through the same formula:
//!
//! ```text
//! centre = (s + z²/2n) / (1 + z²/n)
//! half   = z / (1 + z²/n) · sqrt(s(1-s)/n + z²/4n²)
//! ```
//!
//! Wilson rather than the normal approximation `s ± z·sqrt(s(1-s)/n)`
//! because a clean sweep is the common case here (tesuji against a random
//! player): at `s = 1` the normal interval collapses to a point, while
//! Wilson's lower end is `n / (n + z²)`, a finite Elo bound. The point
//! estimate is then infinite, which is reported as such (`+inf`): no finite
//! number is supported by the data. Draws count half, as in the score.

/// z for a two-sided 95% interval.
pub const Z95: f64 = 1.959_963_984_540_054;

/// Elo difference for a score fraction in [0, 1]; ±infinity at the ends.
pub fn elo_from_score(s: f64) -> f64 {
    if s <= 0.0 {
        f64::NEG_INFINITY
    } else if s >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / s - 1.0).log10()
    }
}

/// The score fraction expected at Elo difference `d` (inverse of
/// [`elo_from_score`]).
pub fn score_from_elo(d: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-d / 400.0))
}

/// Wilson score interval of a fraction `s` observed over `n` games.
pub fn wilson(s: f64, n: f64, z: f64) -> (f64, f64) {
    if n <= 0.0 {
        return (0.0, 1.0);
    }
    let z2 = z * z;
    let denom = 1.0 + z2 / n;
    let centre = (s + z2 / (2.0 * n)) / denom;
    let half = z / denom * (s * (1.0 - s) / n + z2 / (4.0 * n * n)).sqrt();
    // At the ends the bound is exactly 0 or 1; rounding must not turn
    // an infinite Elo bound into a huge finite one.
    let lo = if s <= 0.0 {
        0.0
    } else {
        (centre - half).max(0.0)
    };
    let hi = if s >= 1.0 {
        1.0
    } else {
        (centre + half).min(1.0)
    };
    (lo, hi)
}

/// A match result from one side's point of view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
}

/// Elo estimate with its 95% interval (bounds may be infinite).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EloEstimate {
    pub elo: f64,
    pub low: f64,
    pub high: f64,
}

impl Tally {
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// `(wins + draws/2) / games`; 0.5 with no games.
    pub fn score(&self) -> f64 {
        match self.games() {
            0 => 0.5,
            n => (self.wins as f64 + 0.5 * self.draws as f64) / n as f64,
        }
    }

    /// The Elo difference of this side over its opponent; `None` before
    /// any game.
    pub fn elo(&self) -> Option<EloEstimate> {
        let n = self.games();
        if n == 0 {
            return None;
        }
        let s = self.score();
        let (lo, hi) = wilson(s, n as f64, Z95);
        Some(EloEstimate {
            elo: elo_from_score(s),
            low: elo_from_score(lo),
            high: elo_from_score(hi),
        })
    }
}

/// An Elo number for people: `+191`, `-inf`.
pub fn format_elo(x: f64) -> String {
    if x == f64::INFINITY {
        "+inf".into()
    } else if x == f64::NEG_INFINITY {
        "-inf".into()
    } else if x.round() == 0.0 {
        // Not "-0": -400·log10(1) is negative zero.
        "0".into()
    } else {
        format!("{:+.0}", x)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, eps: f64) -> bool {
        (a - b).abs() < eps
    }

    /// Values of the standard Elo table (FIDE's conversion of score to
    /// rating difference uses the same logistic curve within a point).
    #[test]
    fn known_elo_values() {
        assert_eq!(elo_from_score(0.5), 0.0);
        assert!(close(elo_from_score(0.75), 190.85, 0.01));
        assert!(close(elo_from_score(0.25), -190.85, 0.01));
        assert!(close(elo_from_score(0.9), 381.70, 0.01));
        assert!(close(elo_from_score(0.99), 798.25, 0.01));
        assert!(close(elo_from_score(0.64), 99.95, 0.01));
        assert_eq!(elo_from_score(1.0), f64::INFINITY);
        assert_eq!(elo_from_score(0.0), f64::NEG_INFINITY);
        for d in [-500.0, -100.0, 0.0, 35.0, 400.0] {
            assert!(close(elo_from_score(score_from_elo(d)), d, 1e-9));
        }
        // 400 points is 10:1 odds.
        assert!(close(score_from_elo(400.0), 10.0 / 11.0, 1e-12));
    }

    /// Wilson interval: worked values (Newcombe 1998, table I, example
    /// 81/263: 0.2553 to 0.3662) and the closed form at the ends.
    #[test]
    fn wilson_known_values() {
        let (lo, hi) = wilson(81.0 / 263.0, 263.0, Z95);
        assert!(
            close(lo, 0.2553, 5e-5) && close(hi, 0.3662, 5e-5),
            "{lo} {hi}"
        );
        let (lo, hi) = wilson(1.0, 10.0, Z95);
        assert!(close(lo, 10.0 / (10.0 + Z95 * Z95), 1e-12));
        assert_eq!(hi, 1.0);
        let (lo, hi) = wilson(0.0, 10.0, Z95);
        assert_eq!(lo, 0.0);
        assert!(close(hi, Z95 * Z95 / (10.0 + Z95 * Z95), 1e-12));
    }

    #[test]
    fn tallies_handle_sweeps_draws_and_nothing() {
        assert_eq!(Tally::default().elo(), None);
        let sweep = Tally {
            wins: 50,
            draws: 0,
            losses: 0,
        }
        .elo()
        .unwrap();
        assert_eq!((sweep.elo, sweep.high), (f64::INFINITY, f64::INFINITY));
        // Lower bound: s = 50 / 53.84 → about +447 Elo.
        assert!(close(
            sweep.low,
            elo_from_score(50.0 / (50.0 + Z95 * Z95)),
            1e-9
        ));
        assert!(sweep.low > 440.0 && sweep.low < 455.0, "{}", sweep.low);
        let zero = Tally {
            wins: 0,
            draws: 0,
            losses: 20,
        }
        .elo()
        .unwrap();
        assert_eq!((zero.elo, zero.low), (f64::NEG_INFINITY, f64::NEG_INFINITY));
        assert!(zero.high.is_finite() && zero.high < 0.0);
        let even = Tally {
            wins: 3,
            draws: 4,
            losses: 3,
        }
        .elo()
        .unwrap();
        assert_eq!(even.elo, 0.0);
        assert!(close(even.low, -even.high, 1e-9));
        let t = Tally {
            wins: 30,
            draws: 0,
            losses: 10,
        };
        let e = t.elo().unwrap();
        assert!(close(e.elo, 190.85, 0.01));
        assert!(e.low < e.elo && e.elo < e.high);
        assert_eq!(format_elo(e.elo), "+191");
        assert_eq!(format_elo(f64::NEG_INFINITY), "-inf");
        assert_eq!(format_elo(elo_from_score(0.5)), "0");
        assert_eq!(format_elo(-0.4), "0");
    }
}
