//! GoGui's graphics for the tactical solver: the `gfx` draw commands
//! (GoGui manual, "Analyze Commands", type `gfx`) that `tesuji-gfx_solve`
//! answers with, and *live graphics* (GoGui manual, "Live Graphics"): while
//! a solve runs, a block of draw commands on stderr every half second shows
//! the line the solver is searching.
//!
//! A live block is the line `gogui-gfx:`, draw commands one per line, and
//! an empty line. GoGui clears the previous block's markup before drawing a
//! new one. Because it cannot order stderr exactly against the response,
//! a solve that showed anything ends with `gogui-gfx: CLEAR`, as the manual
//! advises, so that no stale line stays on the board.
//!
//! stdout carries GTP responses only; everything here goes to stderr.

use crate::go::board::{Board, Point, PASS};
use crate::go::Color;
use crate::tactics::progress::Progress;
use crate::tactics::rules::CaptureGame;
use std::fmt::Write as _;
use std::io::Write;
use std::time::{Duration, Instant};

/// How often a live block is written: often enough to follow, rarely
/// enough that formatting and GoGui's redrawing cost nothing.
pub const INTERVAL: Duration = Duration::from_millis(500);

/// `b` or `w`, as `VAR` wants the colour of each move.
fn letter(c: Color) -> char {
    match c {
        Color::Black => 'b',
        Color::White => 'w',
    }
}

/// `SQUARE` on every stone of the block on `target` (nothing if the point
/// is empty), in the board's own order.
pub fn write_block(out: &mut String, board: &Board, target: Point) {
    if board.color_at(target).is_none() {
        return;
    }
    out.push_str("SQUARE");
    board.for_each_stone(target, |q| {
        let _ = write!(out, " {}", Board::vertex(q));
    });
    out.push('\n');
}

/// `VAR` with `moves` played alternately, `first` moving first; passes are
/// written `PASS`, which GoGui counts but does not draw. Nothing for no
/// moves.
pub fn write_var(out: &mut String, first: Color, moves: impl Iterator<Item = Point>) {
    let mut color = first;
    let mut any = false;
    for m in moves {
        out.push_str(if any { " " } else { "VAR " });
        any = true;
        out.push(letter(color));
        if m == PASS {
            out.push_str(" PASS");
        } else {
            let _ = write!(out, " {}", Board::vertex(m));
        }
        color = color.opp();
    }
    if any {
        out.push('\n');
    }
}

/// A [`Progress`] that writes live graphics to `out` (stderr in the engine)
/// at most every [`INTERVAL`]: the target block, the current search line
/// as a variation, and the work so far as status text. The buffer is kept
/// from block to block, so a report allocates nothing once it has grown.
pub struct LiveGfx<W: Write> {
    out: W,
    target: Point,
    next: Instant,
    buf: String,
    shown: bool,
}

impl LiveGfx<std::io::Stderr> {
    /// Live graphics on stderr for a solve about the block on `target`.
    pub fn stderr(target: Point) -> Self {
        LiveGfx::new(std::io::stderr(), target, INTERVAL)
    }
}

impl<W: Write> LiveGfx<W> {
    /// The first block comes `interval` from now: a solve that ends sooner
    /// shows nothing.
    pub fn new(out: W, target: Point, interval: Duration) -> Self {
        LiveGfx {
            out,
            target,
            next: Instant::now() + interval,
            buf: String::with_capacity(4096),
            shown: false,
        }
    }

    /// Formats the block for the current search state into the buffer.
    fn format(&mut self, nodes: u64, game: &CaptureGame) {
        let buf = &mut self.buf;
        buf.clear();
        buf.push_str("gogui-gfx:\n");
        write_block(buf, game.board(), self.target);
        let depth = game.depth();
        // The player to move at the root: moves alternate, passes included.
        let root_mover = if depth.is_multiple_of(2) {
            game.to_move()
        } else {
            game.to_move().opp()
        };
        write_var(buf, root_mover, game.path_moves());
        let ko = match game.model().favoured {
            Some(c) => c.name(),
            None => "nobody",
        };
        let _ = writeln!(
            buf,
            "TEXT solving: nodes={nodes} depth={depth} ko_favours={ko}"
        );
        buf.push('\n');
    }

    /// Consumes the writer, for tests.
    #[cfg(test)]
    fn into_inner(self) -> W {
        self.out
    }
}

impl<W: Write> Progress for LiveGfx<W> {
    fn poll(&mut self, nodes: u64, game: &CaptureGame) {
        let now = Instant::now();
        if now < self.next {
            return;
        }
        self.next = now + INTERVAL;
        self.format(nodes, game);
        // One write per block, so that log lines cannot split it. A failed
        // write (GoGui gone) must not stop the solve.
        let _ = self.out.write_all(self.buf.as_bytes());
        let _ = self.out.flush();
        self.shown = true;
    }

    fn finish(&mut self) {
        if self.shown {
            let _ = self.out.write_all(b"gogui-gfx: CLEAR\n");
            let _ = self.out.flush();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tactics::rules::{KoModel, Problem};

    fn at(board: &Board, name: &str) -> Point {
        let v = crate::gtp::parse::vertex(name, board.size()).unwrap();
        match v {
            crate::go::Move::Play(v) => board.point(v).unwrap(),
            crate::go::Move::Pass => PASS,
        }
    }

    #[test]
    fn var_alternates_colours_and_writes_passes() {
        let board = Board::new(9);
        let mut s = String::new();
        write_var(
            &mut s,
            Color::White,
            [at(&board, "D4"), PASS, at(&board, "E5")].into_iter(),
        );
        assert_eq!(s, "VAR w D4 b PASS w E5\n");
        s.clear();
        write_var(&mut s, Color::Black, std::iter::empty());
        assert_eq!(s, "");
    }

    #[test]
    fn live_blocks_show_the_search_line() {
        let mut board = Board::new(7);
        let d5 = at(&board, "D5");
        board.play(Color::White, d5);
        let problem = Problem::new(&board, d5).unwrap();
        let mut game = CaptureGame::new(&board, problem, KoModel { favoured: None }, Color::Black);
        game.play(at(&board, "D6"));
        game.play(at(&board, "D4"));
        // Not yet time: nothing written.
        let mut live = LiveGfx::new(Vec::new(), d5, Duration::from_secs(3600));
        live.poll(5, &game);
        live.finish();
        assert!(live.into_inner().is_empty());
        // Due at once: one block, then CLEAR at the end.
        let mut live = LiveGfx::new(Vec::new(), d5, Duration::ZERO);
        live.poll(1024, &game);
        live.poll(2048, &game);
        live.finish();
        let text = String::from_utf8(live.into_inner()).unwrap();
        let first = "gogui-gfx:\nSQUARE ";
        assert!(text.starts_with(first), "{text}");
        assert_eq!(text.matches("gogui-gfx:\n").count(), 1, "{text}");
        assert!(text.contains("\nVAR b D6 w D4\n"), "{text}");
        assert!(
            text.contains("\nTEXT solving: nodes=1024 depth=2 ko_favours=nobody\n\n"),
            "{text}"
        );
        assert!(text.ends_with("\n\ngogui-gfx: CLEAR\n"), "{text}");
        // The block is D5 and D4, in either order.
        let square = text.lines().nth(1).unwrap();
        let mut stones: Vec<&str> = square.split(' ').skip(1).collect();
        stones.sort();
        assert_eq!(stones, ["D4", "D5"]);
    }
}
