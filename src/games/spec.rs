//! Game specifications as users write them on the command line and in GTP:
//! `domineering:RxC`, `nogo:RxC`, `mnk:M,N,K` (see each game's module for
//! what the numbers mean). Parsing is separate from construction so that a
//! bad spec is reported before anything is allocated.

use std::fmt;

/// A parsed, validated game specification.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameSpec {
    /// Domineering with `rows` × `cols` cells; the first player (vertical)
    /// covers two rows.
    Domineering { rows: usize, cols: usize },
}

/// Largest side of any game board (GoGui draws at most 25×25; the games'
/// bitboards are sized for this).
pub const MAX_SIDE: usize = 19;

impl GameSpec {
    /// Parses `NAME:ARGS`, e.g. `domineering:8x8`.
    pub fn parse(text: &str) -> Result<GameSpec, String> {
        let (name, args) = text
            .split_once(':')
            .ok_or_else(|| format!("game spec {text:?} needs NAME:SIZE"))?;
        match name.to_ascii_lowercase().as_str() {
            "domineering" => {
                let (rows, cols) = parse_rect(args)?;
                if rows * cols > crate::games::domineering::MAX_CELLS {
                    return Err(format!(
                        "domineering boards have at most {} cells",
                        crate::games::domineering::MAX_CELLS
                    ));
                }
                Ok(GameSpec::Domineering { rows, cols })
            }
            _ => Err(format!("unknown game {name:?}")),
        }
    }
}

impl fmt::Display for GameSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameSpec::Domineering { rows, cols } => write!(f, "domineering:{rows}x{cols}"),
        }
    }
}

/// Parses `RxC` (rows × columns), each side 1 to [`MAX_SIDE`].
pub fn parse_rect(text: &str) -> Result<(usize, usize), String> {
    let (r, c) = text
        .split_once(['x', 'X'])
        .ok_or_else(|| format!("board {text:?} is not ROWSxCOLUMNS"))?;
    let side = |s: &str| -> Result<usize, String> {
        let v: usize = s.parse().map_err(|_| format!("bad board side {s:?}"))?;
        if (1..=MAX_SIDE).contains(&v) {
            Ok(v)
        } else {
            Err(format!("board side {v} outside 1..={MAX_SIDE}"))
        }
    };
    Ok((side(r)?, side(c)?))
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
    }
}
