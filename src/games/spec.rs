//! Game specifications as users write them on the command line and in GTP:
//! `domineering:RxC`, `nogo:RxC`, `mnk:M,N,K` (optionally `mnk:M,N,K,exact`)
//! and `go:N` (optionally `go:N,KOMI`); see each game's module for what the
//! numbers mean. Parsing is separate from construction so that a bad spec is
//! reported before anything is allocated.

use std::fmt;

/// A parsed, validated game specification.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameSpec {
    /// Domineering with `rows` × `cols` cells; the first player (vertical)
    /// covers two rows.
    Domineering { rows: usize, cols: usize },
    /// NoGo with `rows` × `cols` points.
    NoGo { rows: usize, cols: usize },
    /// `k` in a row on a board `cols` wide and `rows` high (`mnk:M,N,K` has
    /// M columns and N rows); with `exact`, only lines of exactly `k` win.
    Mnk {
        cols: usize,
        rows: usize,
        k: usize,
        exact: bool,
    },
    /// Go on a `size` × `size` board, area scoring with komi
    /// `komi_x2 / 2` points (kept in half points so the spec stays `Eq`).
    Go { size: usize, komi_x2: i32 },
}

/// Largest side of any game board (GoGui draws at most 25×25). Each game
/// also limits its number of cells (its bitboards' width).
pub const MAX_SIDE: usize = 25;

/// Default komi of `go:N`, in half points (7.5).
pub const DEFAULT_KOMI_X2: i32 = 15;

impl GameSpec {
    /// Parses `NAME:ARGS`, e.g. `domineering:8x8`, `nogo:4x4`,
    /// `mnk:15,15,5`, `go:9`.
    pub fn parse(text: &str) -> Result<GameSpec, String> {
        let (name, args) = text
            .split_once(':')
            .ok_or_else(|| format!("game spec {} needs NAME:SIZE", quote(text)))?;
        match name.to_ascii_lowercase().as_str() {
            "domineering" => {
                let (rows, cols) = parse_rect(args)?;
                check_cells("domineering", rows * cols, super::domineering::MAX_CELLS)?;
                Ok(GameSpec::Domineering { rows, cols })
            }
            "nogo" => {
                let (rows, cols) = parse_rect(args)?;
                check_cells("nogo", rows * cols, super::nogo::MAX_CELLS)?;
                Ok(GameSpec::NoGo { rows, cols })
            }
            "mnk" => parse_mnk(args),
            "go" => parse_go(args),
            _ => Err(format!("unknown game {}", quote(name))),
        }
    }

    /// The same game on a square board of side `n` (GTP's `boardsize`).
    pub fn resized(&self, n: usize) -> Result<GameSpec, String> {
        let text = match *self {
            GameSpec::Domineering { .. } => format!("domineering:{n}x{n}"),
            GameSpec::NoGo { .. } => format!("nogo:{n}x{n}"),
            GameSpec::Mnk { k, exact, .. } => {
                format!("mnk:{n},{n},{k}{}", if exact { ",exact" } else { "" })
            }
            GameSpec::Go { komi_x2, .. } => GameSpec::Go { size: n, komi_x2 }.to_string(),
        };
        GameSpec::parse(&text)
    }
}

/// User text in an error message, quoted and escaped to printable ASCII
/// (GTP responses carry nothing else).
fn quote(text: &str) -> String {
    format!("\"{}\"", text.escape_default())
}

fn check_cells(game: &str, cells: usize, max: usize) -> Result<(), String> {
    if cells > max {
        Err(format!("{game} boards have at most {max} cells"))
    } else {
        Ok(())
    }
}

fn side(s: &str) -> Result<usize, String> {
    let v: usize = s
        .trim()
        .parse()
        .map_err(|_| format!("bad board side {}", quote(s)))?;
    if (1..=MAX_SIDE).contains(&v) {
        Ok(v)
    } else {
        Err(format!("board side {v} outside 1..={MAX_SIDE}"))
    }
}

fn parse_mnk(args: &str) -> Result<GameSpec, String> {
    let parts: Vec<&str> = args.split(',').collect();
    let exact = match parts.len() {
        3 => false,
        4 if parts[3].eq_ignore_ascii_case("exact") => true,
        _ => {
            return Err(format!(
                "mnk board {} is not M,N,K or M,N,K,exact",
                quote(args)
            ))
        }
    };
    let cols = side(parts[0])?;
    let rows = side(parts[1])?;
    let k: usize = parts[2]
        .parse()
        .map_err(|_| format!("bad line length {}", quote(parts[2])))?;
    if !(1..=MAX_SIDE).contains(&k) {
        return Err(format!("line length {k} outside 1..={MAX_SIDE}"));
    }
    Ok(GameSpec::Mnk {
        cols,
        rows,
        k,
        exact,
    })
}

fn parse_go(args: &str) -> Result<GameSpec, String> {
    let (size, komi) = match args.split_once(',') {
        None => (args, None),
        Some((s, k)) => (s, Some(k)),
    };
    let size = side(size)?;
    if size > super::go::MAX_SIZE {
        return Err(format!(
            "go boards have at most {0}x{0} points",
            super::go::MAX_SIZE
        ));
    }
    let komi_x2 = match komi {
        None => DEFAULT_KOMI_X2,
        Some(k) => {
            let v: f64 = k.parse().map_err(|_| format!("bad komi {}", quote(k)))?;
            // Whole or half points only, so scores compare exactly.
            if !v.is_finite() || (v * 2.0).fract() != 0.0 || v.abs() > 1000.0 {
                return Err(format!("komi {} is not a multiple of 0.5", quote(k)));
            }
            (v * 2.0) as i32
        }
    };
    Ok(GameSpec::Go { size, komi_x2 })
}

impl fmt::Display for GameSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            GameSpec::Domineering { rows, cols } => write!(f, "domineering:{rows}x{cols}"),
            GameSpec::NoGo { rows, cols } => write!(f, "nogo:{rows}x{cols}"),
            GameSpec::Mnk {
                cols,
                rows,
                k,
                exact,
            } => {
                write!(f, "mnk:{cols},{rows},{k}")?;
                if exact {
                    write!(f, ",exact")?;
                }
                Ok(())
            }
            GameSpec::Go { size, komi_x2 } => {
                write!(f, "go:{size}")?;
                if komi_x2 != DEFAULT_KOMI_X2 {
                    write!(f, ",{}", komi_x2 as f64 / 2.0)?;
                }
                Ok(())
            }
        }
    }
}

/// Parses `RxC` (rows × columns), each side 1 to [`MAX_SIDE`].
pub fn parse_rect(text: &str) -> Result<(usize, usize), String> {
    let (r, c) = text
        .split_once(['x', 'X'])
        .ok_or_else(|| format!("board {} is not ROWSxCOLUMNS", quote(text)))?;
    Ok((side(r)?, side(c)?))
}

/// Code that runs on any game, given the concrete type: generic solvers
/// and the GTP session are monomorphised per game through
/// [`GameSpec::build`], the one place that turns a spec into a game.
pub trait Visit {
    type Out;
    fn visit<G: crate::games::Game>(self, game: G) -> Self::Out;
}

impl GameSpec {
    /// The start position of this game, handed to `v`.
    pub fn build<V: Visit>(&self, v: V) -> V::Out {
        use crate::games::{domineering::Domineering, go::GoGame, mnk::Mnk, nogo::NoGo};
        match *self {
            GameSpec::Domineering { rows, cols } => v.visit(Domineering::new(rows, cols)),
            GameSpec::NoGo { rows, cols } => v.visit(NoGo::new(rows, cols)),
            GameSpec::Mnk {
                cols,
                rows,
                k,
                exact,
            } => v.visit(Mnk::new(cols, rows, k, exact)),
            GameSpec::Go { size, komi_x2 } => v.visit(GoGame::new(size, komi_x2)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_prints() {
        let s = GameSpec::parse("domineering:5x6").unwrap();
        assert_eq!(s, GameSpec::Domineering { rows: 5, cols: 6 });
        assert_eq!(s.to_string(), "domineering:5x6");
        assert!(GameSpec::parse("domineering:0x6").is_err());
        assert!(GameSpec::parse("domineering:6").is_err());
        assert!(GameSpec::parse("chess:8x8").is_err());
        assert!(GameSpec::parse("domineering").is_err());
        assert!(GameSpec::parse("domineering:12x12").is_err());
        let e = GameSpec::parse("é").unwrap_err();
        assert!(e.is_ascii() && e.contains("\\u{e9}"), "{e}");
    }

    #[test]
    fn every_game_round_trips() {
        for text in [
            "nogo:4x4",
            "nogo:22x1",
            "mnk:3,3,3",
            "mnk:15,15,5",
            "mnk:15,15,5,exact",
            "mnk:6,5,4",
            "go:9",
            "go:5,0.5",
            "go:19,-3",
        ] {
            let s = GameSpec::parse(text).unwrap();
            assert_eq!(s.to_string(), text);
        }
        assert_eq!(
            GameSpec::parse("mnk:6,5,4").unwrap(),
            GameSpec::Mnk {
                cols: 6,
                rows: 5,
                k: 4,
                exact: false
            }
        );
        assert_eq!(GameSpec::parse("go:9,7.5").unwrap().to_string(), "go:9");
    }

    #[test]
    fn bad_specs_are_refused() {
        for text in [
            "nogo:26x1",
            "nogo:12x12",
            "nogo:4",
            "mnk:3,3",
            "mnk:3,3,0",
            "mnk:3,3,3,sharp",
            "mnk:26,3,3",
            "mnk:3,3,x",
            "go:20",
            "go:0",
            "go:9,0.3",
            "go:9,x",
            "go:",
        ] {
            assert!(GameSpec::parse(text).is_err(), "{text}");
        }
    }

    #[test]
    fn resizing_keeps_the_game() {
        let s = GameSpec::parse("mnk:3,3,3,exact").unwrap();
        assert_eq!(s.resized(5).unwrap().to_string(), "mnk:5,5,3,exact");
        let g = GameSpec::parse("go:9,0.5").unwrap();
        assert_eq!(g.resized(5).unwrap().to_string(), "go:5,0.5");
        assert!(GameSpec::parse("nogo:4x4").unwrap().resized(12).is_err());
    }
}
