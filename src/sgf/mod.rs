//! Smart Game Format (SGF) records of Go games: reading and writing.
//!
//! tesuji loads positions and games from SGF files (GTP's `loadsgf`, test
//! suites, opening material) and saves the games it plays. Only what an
//! engine needs is kept: board size, komi, handicap, and along the main line
//! the setup stones, the player to move and the moves. Comments, variations
//! and everything else are read for syntax and then dropped.
//!
//! The format is defined by the SGF FF\[4\] specification,
//! <https://www.red-bean.com/sgf/> (the Go-specific part is
//! <https://www.red-bean.com/sgf/go.html>). Older FF\[1\]–FF\[3\] files are
//! accepted where they differ only in ways that do not matter here, such as
//! lower-case letters in property names (`AddBlack` for `AB`) and `tt` for a
//! pass.

mod parse;
mod write;

pub use parse::parse;
pub use write::write;

use crate::go::{Color, Move, Vertex};
use std::fmt;

/// Board size assumed when the root node has no `SZ` property (FF\[4\]).
pub const DEFAULT_SIZE: usize = 19;

/// One game: the root properties tesuji uses and its main line.
#[derive(Clone, Debug, PartialEq)]
pub struct SgfGame {
    /// Side of the (square) board, from `SZ`; 19 when absent.
    pub size: usize,
    /// `KM`, if present and well formed.
    pub komi: Option<f64>,
    /// `HA`, if present and well formed.
    pub handicap: Option<u32>,
    /// The main line, root node first. `parse` never returns it empty.
    pub nodes: Vec<SgfNode>,
}

/// One node of the main line, reduced to what affects the position.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SgfNode {
    /// `AB` / `AW` / `AE` points with compressed lists expanded. `parse`
    /// orders them black, then white, then empty, as `write` groups them;
    /// within a kind the file's order is kept.
    pub setup: Vec<(SetupKind, Vertex)>,
    /// `PL`: who is to move next.
    pub player: Option<Color>,
    /// `B[..]` or `W[..]`.
    pub mv: Option<(Color, Move)>,
}

/// What a setup property puts on a point.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SetupKind {
    Black,
    White,
    Empty,
}

impl SetupKind {
    /// The SGF property that sets up this kind of point.
    pub fn property(self) -> &'static str {
        match self {
            SetupKind::Black => "AB",
            SetupKind::White => "AW",
            SetupKind::Empty => "AE",
        }
    }

    /// The stone colour placed, or `None` for a point that is cleared.
    pub fn color(self) -> Option<Color> {
        match self {
            SetupKind::Black => Some(Color::Black),
            SetupKind::White => Some(Color::White),
            SetupKind::Empty => None,
        }
    }
}

impl From<Color> for SetupKind {
    fn from(c: Color) -> SetupKind {
        match c {
            Color::Black => SetupKind::Black,
            Color::White => SetupKind::White,
        }
    }
}

impl SgfGame {
    /// An empty record: a board of `size`, a root node and nothing else.
    pub fn new(size: usize) -> SgfGame {
        SgfGame {
            size,
            komi: None,
            handicap: None,
            nodes: vec![SgfNode::default()],
        }
    }

    /// The moves of the main line in order.
    pub fn moves(&self) -> impl Iterator<Item = (Color, Move)> + '_ {
        self.nodes.iter().filter_map(|n| n.mv)
    }
}

/// Why an SGF file could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SgfError(pub String);

impl fmt::Display for SgfError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "SGF: {}", self.0)
    }
}

impl std::error::Error for SgfError {}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::{Path, PathBuf};

    /// The shared GNU Go regression data lives next to the checkout; it is
    /// outside the repository, so tests using it skip when it is missing.
    fn regression_dir() -> Option<PathBuf> {
        let dir = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/regression"));
        dir.is_dir().then(|| dir.to_path_buf())
    }

    fn sgf_files(dir: &Path, out: &mut Vec<PathBuf>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                sgf_files(&path, out);
            } else if path
                .extension()
                .is_some_and(|e| e.eq_ignore_ascii_case("sgf"))
            {
                out.push(path);
            }
        }
    }

    const SAMPLE: &[u8] = b"(;FF[4]GM[1]SZ[9]KM[5.5]HA[2]AB[cc][gg]AW[aa:bb]PL[W]C[a \\] b]\n\
        ;W[ee];B[]\n(;W[tt]AE[cc];B[ba])(;W[ab]))";

    /// Parses `bytes`, which must not panic; whatever parses must survive
    /// a trip through `write` unchanged.
    fn parse_and_check(bytes: &[u8]) {
        if let Ok(game) = parse(bytes) {
            assert!(!game.nodes.is_empty());
            let text = write(&game);
            assert_eq!(parse(text.as_bytes()).as_ref(), Ok(&game), "{text}");
        }
    }

    #[test]
    fn no_panic_on_any_input() {
        assert!(parse(SAMPLE).is_ok());
        for end in 0..=SAMPLE.len() {
            parse_and_check(&SAMPLE[..end]);
        }
        // xorshift64: a fixed seed keeps failures reproducible.
        let mut state = 0x9E37_79B9_7F4A_7C15_u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        // Mostly SGF's own bytes, so that inputs get deep into the grammar.
        let alphabet = b"();;[[]]\\:: \nABWEHKLMPSZGTFaabcdsttyz0159.-\xff\xc3";
        for _ in 0..50_000 {
            let len = (next() % 80) as usize;
            // Half start like a game tree, or nearly all stop at byte 0.
            let start: &[u8] = if next() % 2 == 0 { b"(;" } else { b"" };
            let mut bytes: Vec<u8> = start.to_vec();
            bytes.extend((0..len).map(|_| match next() % 8 {
                0 => next() as u8,
                _ => alphabet[(next() % alphabet.len() as u64) as usize],
            }));
            parse_and_check(&bytes);
            // Random edits of a valid file find the errors near valid input.
            bytes = SAMPLE.to_vec();
            for _ in 0..1 + next() % 3 {
                let at = (next() % bytes.len() as u64) as usize;
                match next() % 3 {
                    0 => bytes[at] = alphabet[(next() % alphabet.len() as u64) as usize],
                    1 => drop(bytes.remove(at)),
                    _ => bytes.insert(at, alphabet[(next() % alphabet.len() as u64) as usize]),
                }
            }
            parse_and_check(&bytes);
        }
    }

    #[test]
    fn regression_files_all_parse() {
        let Some(dir) = regression_dir() else {
            return;
        };
        let mut files = Vec::new();
        sgf_files(&dir, &mut files);
        assert!(!files.is_empty(), "no .sgf files under {}", dir.display());
        for path in &files {
            let bytes = std::fs::read(path).unwrap();
            let game = parse(&bytes).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            // Writing and reading back must not lose anything we keep.
            assert_eq!(parse(write(&game).as_bytes()).as_ref(), Ok(&game));
        }
    }

    #[test]
    fn goemate_spot_check() {
        let Some(dir) = regression_dir() else {
            return;
        };
        let bytes = std::fs::read(dir.join("golois/Goemate990902-15.sgf")).unwrap();
        let game = parse(&bytes).unwrap();
        assert_eq!(game.size, 19);
        assert_eq!((game.komi, game.handicap), (None, None));
        // A tactical problem: a set-up root, then a comment-only node.
        assert_eq!(game.nodes.len(), 2);
        assert_eq!(game.nodes[1], SgfNode::default());
        let root = &game.nodes[0];
        assert_eq!((root.player, root.mv), (None, None));
        let stones = |kind| -> Vec<Vertex> {
            let on = root.setup.iter().filter(|(k, _)| *k == kind);
            on.map(|&(_, v)| v).collect()
        };
        let (black, white) = (stones(SetupKind::Black), stones(SetupKind::White));
        assert_eq!((black.len(), white.len()), (91, 120));
        // AB[da][ea][bb][db]...[ps]: "a" rows are the top of the board.
        let v = Vertex::new;
        assert_eq!(black[..4], [v(3, 18), v(4, 18), v(1, 17), v(3, 17)]);
        assert_eq!(black.last(), Some(&v(15, 0)));
        // AW[fa][eb][fb]...[ms]
        assert_eq!(white[..3], [v(5, 18), v(4, 17), v(5, 17)]);
        assert_eq!(white.last(), Some(&v(12, 0)));
        assert_eq!(black[0].to_string(), "D19");
    }
}
