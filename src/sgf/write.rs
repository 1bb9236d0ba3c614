//! Writing SGF: a game record in the FF\[4\] format
//! (<https://www.red-bean.com/sgf/sgf4.html>) that other programs can load.
//!
//! The output is always UTF-8 (declared with `CA`) and holds only what
//! `SgfGame` keeps, so `parse(write(g)) == g` for any game `parse` returned.

use super::{SetupKind, SgfGame, SgfNode};
use crate::go::{Move, Vertex};
use std::fmt::Write;

/// Formats `game` as a single-game SGF collection ending in a newline.
///
/// Vertices must lie on the board: a record cannot spell points outside it.
/// A non-finite komi is left out, as SGF's Real cannot express it.
pub fn write(game: &SgfGame) -> String {
    let mut out = String::with_capacity(96 + 8 * game.nodes.len());
    out.push_str("(;FF[4]GM[1]CA[UTF-8]AP[tesuji:");
    out.push_str(env!("CARGO_PKG_VERSION"));
    out.push(']');
    // Writing to a String cannot fail.
    let _ = write!(out, "SZ[{}]", game.size);
    if let Some(komi) = game.komi.filter(|k| k.is_finite()) {
        // Display gives the shortest decimal that reads back as the same f64.
        let _ = write!(out, "KM[{komi}]");
    }
    if let Some(handicap) = game.handicap {
        let _ = write!(out, "HA[{handicap}]");
    }
    for (k, node) in game.nodes.iter().enumerate() {
        // The root's properties continue the node opened above.
        if k > 0 {
            out.push_str("\n;");
        }
        write_node(&mut out, node, game.size);
    }
    out.push_str(")\n");
    out
}

fn write_node(out: &mut String, node: &SgfNode, size: usize) {
    for kind in [SetupKind::Black, SetupKind::White, SetupKind::Empty] {
        let mut points = node.setup.iter().filter(|(k, _)| *k == kind).peekable();
        if points.peek().is_none() {
            continue;
        }
        out.push_str(kind.property());
        for &(_, v) in points {
            out.push('[');
            push_point(out, v, size);
            out.push(']');
        }
    }
    if let Some(player) = node.player {
        let _ = write!(out, "PL[{}]", player.letter());
    }
    if let Some((color, mv)) = node.mv {
        out.push(color.letter());
        out.push('[');
        // FF[4] writes a pass as an empty value; "tt" is only FF[3] usage.
        if let Move::Play(v) = mv {
            push_point(out, v, size);
        }
        out.push(']');
    }
}

/// SGF letters count columns from the left and rows from the top.
fn push_point(out: &mut String, v: Vertex, size: usize) {
    debug_assert!(v.on_board(size), "{v:?} is off a {size}x{size} board");
    let row = size.saturating_sub(1 + v.row as usize);
    out.push(char::from(b'a' + v.col.min(25)));
    out.push(char::from(b'a' + row.min(25) as u8));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::go::Color::{Black, White};
    use crate::sgf::{parse, SetupKind, SgfGame, SgfNode};

    fn v(col: u8, row: u8) -> Vertex {
        Vertex::new(col, row)
    }

    fn play(color: crate::go::Color, col: u8, row: u8) -> SgfNode {
        let mv = Some((color, Move::Play(v(col, row))));
        SgfNode {
            mv,
            ..SgfNode::default()
        }
    }

    fn pass(color: crate::go::Color) -> SgfNode {
        let mv = Some((color, Move::Pass));
        SgfNode {
            mv,
            ..SgfNode::default()
        }
    }

    fn round_trip(game: &SgfGame) {
        let text = write(game);
        assert_eq!(parse(text.as_bytes()).as_ref(), Ok(game), "{text}");
    }

    #[test]
    fn writes_the_documented_header() {
        let mut g = SgfGame::new(9);
        g.komi = Some(7.0);
        g.nodes.push(play(Black, 2, 6));
        g.nodes.push(pass(White));
        let version = env!("CARGO_PKG_VERSION");
        let expect =
            format!("(;FF[4]GM[1]CA[UTF-8]AP[tesuji:{version}]SZ[9]KM[7]\n;B[cc]\n;W[])\n");
        assert_eq!(write(&g), expect);
    }

    #[test]
    fn writes_setup_grouped_by_kind() {
        let mut g = SgfGame::new(19);
        g.handicap = Some(2);
        g.nodes[0].setup = vec![(SetupKind::Black, v(3, 3)), (SetupKind::Black, v(15, 15))];
        g.nodes[0].player = Some(White);
        let text = write(&g);
        assert!(text.ends_with("SZ[19]HA[2]AB[dp][pd]PL[W])\n"), "{text}");
        round_trip(&g);
    }

    #[test]
    fn round_trips() {
        // Plain game with passes and fractional komi.
        let mut g = SgfGame::new(19);
        g.komi = Some(6.5);
        g.nodes.extend([
            play(Black, 15, 15),
            play(White, 3, 3),
            pass(Black),
            pass(White),
        ]);
        round_trip(&g);

        // Setup after the root, clearing a point, and a node with no move.
        let mut g = SgfGame::new(13);
        g.komi = Some(-0.5);
        g.handicap = Some(0);
        g.nodes[0].setup = vec![(SetupKind::Black, v(0, 0)), (SetupKind::White, v(12, 12))];
        g.nodes.push(play(Black, 6, 6));
        g.nodes.push(SgfNode {
            setup: vec![
                (SetupKind::Black, v(1, 1)),
                (SetupKind::White, v(2, 1)),
                (SetupKind::Empty, v(0, 0)),
            ],
            player: Some(Black),
            mv: None,
        });
        g.nodes.push(SgfNode::default());
        g.nodes.push(pass(White));
        round_trip(&g);

        // Largest board: corners, and "tt" is a real point above 19.
        let mut g = SgfGame::new(25);
        g.nodes[0].mv = Some((Black, Move::Play(v(24, 0))));
        g.nodes
            .extend([play(White, 0, 24), play(Black, 19, 5), pass(White)]);
        g.nodes.push(play(Black, 24, 24));
        assert!(write(&g).contains(";B[tt]"));
        round_trip(&g);

        // The smallest board, and a game holding only its root.
        let mut g = SgfGame::new(1);
        g.nodes[0].setup = vec![(SetupKind::White, v(0, 0))];
        round_trip(&g);
        round_trip(&SgfGame::new(19));
    }
}
