//! Reading SGF: a `nom` grammar for the syntax of the FF\[4\] specification
//! (<https://www.red-bean.com/sgf/sgf4.html>), then the Go meaning of the
//! properties tesuji keeps.
//!
//! Tokens (nodes, properties, values) are `nom` parsers. The nesting of game
//! trees is followed by a loop with a depth counter rather than by recursive
//! parsers, because a hostile or merely long record (some editors nest every
//! move as its own variation) would otherwise overflow the stack.

use super::{SetupKind, SgfError, SgfGame, SgfNode, DEFAULT_SIZE};
use crate::go::{Color, Move, Vertex, MAX_SIZE};
use nom::bytes::complete::{take_while, take_while1};
use nom::character::complete::char;
use nom::combinator::{cut, map};
use nom::error::{context, ContextError, ErrorKind, ParseError};
use nom::multi::{many0, many1};
use nom::sequence::preceded;
use std::str::FromStr;

/// A property as written, values unescaped but not yet interpreted: the
/// board size must be known before any point can be converted.
#[derive(Debug)]
struct RawProp {
    id: String,
    values: Vec<Vec<u8>>,
}

type RawNode = Vec<RawProp>;

/// A syntax error; `what` is the innermost `context`, empty if none applied.
#[derive(Debug)]
struct Syntax<'a> {
    rest: &'a [u8],
    what: &'static str,
}

impl<'a> ParseError<&'a [u8]> for Syntax<'a> {
    fn from_error_kind(rest: &'a [u8], _: ErrorKind) -> Self {
        Syntax { rest, what: "" }
    }

    fn append(_: &'a [u8], _: ErrorKind, other: Self) -> Self {
        other
    }
}

impl<'a> ContextError<&'a [u8]> for Syntax<'a> {
    fn add_context(_: &'a [u8], ctx: &'static str, mut other: Self) -> Self {
        if other.what.is_empty() {
            other.what = ctx;
        }
        other
    }
}

type PResult<'a, T> = nom::IResult<&'a [u8], T, Syntax<'a>>;

fn ws(i: &[u8]) -> PResult<'_, &[u8]> {
    take_while(|c: u8| c.is_ascii_whitespace())(i)
}

/// FF\[3\] allowed lower-case letters in names, to be ignored (`AddBlack` is
/// `AB`); FF\[4\] has only upper case, which this reads unchanged.
fn prop_ident(i: &[u8]) -> PResult<'_, String> {
    let name = take_while1(|c: u8| c.is_ascii_alphabetic());
    map(name, |id: &[u8]| {
        let upper = id.iter().filter(|c| c.is_ascii_uppercase());
        upper.map(|&c| c as char).collect()
    })(i)
}

/// The inside of `[...]` up to the closing bracket, with `\` escapes
/// resolved. A backslash before a line break is a soft break and vanishes.
/// Works on bytes: `]` and `\` are ASCII, whatever the file's charset.
fn value_text(i: &[u8]) -> PResult<'_, Vec<u8>> {
    let mut out = Vec::new();
    let mut k = 0;
    while k < i.len() && i[k] != b']' {
        if i[k] == b'\\' && k + 1 < i.len() {
            k += 1;
            if matches!(i[k], b'\n' | b'\r') {
                // Line breaks may be "\n", "\r", "\r\n" or "\n\r".
                let pair = i
                    .get(k + 1)
                    .is_some_and(|&c| matches!(c, b'\n' | b'\r') && c != i[k]);
                k += usize::from(pair);
            } else {
                out.push(i[k]);
            }
        } else {
            out.push(i[k]);
        }
        k += 1;
    }
    Ok((&i[k..], out))
}

fn prop_value(i: &[u8]) -> PResult<'_, Vec<u8>> {
    let (i, _) = preceded(ws, char('['))(i)?;
    let (i, text) = value_text(i)?;
    let (i, _) = context("unbalanced brackets: missing ']'", cut(char(']')))(i)?;
    Ok((i, text))
}

fn property(i: &[u8]) -> PResult<'_, RawProp> {
    let (i, id) = preceded(ws, prop_ident)(i)?;
    let (i, values) = context("property without a value", cut(many1(prop_value)))(i)?;
    Ok((i, RawProp { id, values }))
}

fn node(i: &[u8]) -> PResult<'_, RawNode> {
    preceded(char(';'), many0(property))(i)
}

/// The nodes of the first game tree's main line, after checking the syntax
/// of the whole collection.
fn main_line(input: &[u8]) -> Result<Vec<RawNode>, SgfError> {
    let at = |rest: &[u8]| input.len() - rest.len();
    let fail = |rest: &[u8], what: &str| Err(SgfError(format!("{what} at byte {}", at(rest))));

    // Editors on Windows like to start UTF-8 files with a byte order mark.
    let body = input.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(input);
    let (mut rest, _) = ws(body).unwrap_or((body, &[]));
    match rest.first() {
        None => return Err(SgfError("empty input".into())),
        Some(b'(') => {}
        Some(_) => return fail(rest, "not an SGF game tree: expected '('"),
    }

    #[derive(PartialEq)]
    enum Last {
        Open,
        Node,
        Close,
    }
    let mut nodes = Vec::new();
    let mut depth = 0usize;
    // The main line takes the first variation at every branching, so every
    // node before the first ')' is on it, and no node after.
    let mut on_main_line = true;
    let mut last = Last::Close;
    loop {
        rest = ws(rest).map_or(rest, |(r, _)| r);
        match rest.first() {
            None if depth == 0 => break,
            None => return fail(rest, "unbalanced parentheses: missing ')'"),
            Some(b'(') if last == Last::Open => return fail(rest, "expected ';' after '('"),
            Some(b'(') => {
                depth += 1;
                last = Last::Open;
                rest = &rest[1..];
            }
            Some(b')') if depth == 0 => return fail(rest, "unbalanced parentheses: extra ')'"),
            Some(b')') if last == Last::Open => return fail(rest, "empty game tree"),
            Some(b')') => {
                depth -= 1;
                on_main_line = false;
                last = Last::Close;
                rest = &rest[1..];
            }
            Some(b';') if depth == 0 => return fail(rest, "node outside a game tree"),
            Some(b';') if last == Last::Close => return fail(rest, "node after a variation"),
            Some(b';') => match node(rest) {
                Ok((r, n)) => {
                    if on_main_line {
                        nodes.push(n);
                    }
                    last = Last::Node;
                    rest = r;
                }
                Err(nom::Err::Error(e) | nom::Err::Failure(e)) => {
                    let what = if e.what.is_empty() {
                        "syntax error"
                    } else {
                        e.what
                    };
                    return fail(e.rest, what);
                }
                Err(nom::Err::Incomplete(_)) => return fail(&[], "unexpected end of input"),
            },
            Some(&c) => {
                let what = format!("unexpected {:?}", char::from(c));
                return fail(rest, &what);
            }
        }
    }
    Ok(nodes)
}

/// Reads an SGF collection and returns its first game's main line.
///
/// Property values are decoded lossily, so files in other charsets load
/// (their text is not used). Unknown properties are ignored. Errors name the
/// byte offset or the node (root = 0) at fault.
pub fn parse(bytes: &[u8]) -> Result<SgfGame, SgfError> {
    let raw = main_line(bytes)?;
    let root = raw.first().ok_or_else(|| SgfError("no game tree".into()))?;

    if let Some(gm) = first_value(root, "GM") {
        if text(gm) != "1" {
            return Err(SgfError(format!(
                "GM[{}] is not Go (GM[1])",
                show(gm.trim_ascii())
            )));
        }
    }
    let size = match first_value(root, "SZ") {
        None => DEFAULT_SIZE,
        Some(sz) => board_size(&text(sz))?,
    };
    let komi = number(root, "KM", |k: &f64| k.is_finite());
    let handicap = number(root, "HA", |_: &u32| true);
    let nodes = raw.iter().enumerate().map(|(k, n)| {
        convert_node(n, size).map_err(|SgfError(e)| SgfError(format!("node {k}: {e}")))
    });
    Ok(SgfGame {
        size,
        komi,
        handicap,
        nodes: nodes.collect::<Result<_, _>>()?,
    })
}

fn first_value<'n>(node: &'n RawNode, id: &str) -> Option<&'n [u8]> {
    let prop = node.iter().find(|p| p.id == id)?;
    prop.values.first().map(Vec::as_slice)
}

fn text(value: &[u8]) -> String {
    String::from_utf8_lossy(value).trim().to_string()
}

/// `SZ[n]`; a square written `n:n` is accepted, a rectangle is not.
fn board_size(sz: &str) -> Result<usize, SgfError> {
    let bad = || {
        SgfError(format!(
            "SZ[{}]: tesuji plays on square boards of 1 to {MAX_SIZE}",
            show(sz.as_bytes())
        ))
    };
    let (cols, rows) = sz.split_once(':').unwrap_or((sz, sz));
    let side = cols.trim().parse::<usize>().map_err(|_| bad())?;
    if rows.trim().parse::<usize>() != Ok(side) || !(1..=MAX_SIZE).contains(&side) {
        return Err(bad());
    }
    Ok(side)
}

/// A numeric root property such as `KM` or `HA`; a malformed value is only
/// worth a warning, as the game itself is still readable.
fn number<T: FromStr>(root: &RawNode, id: &str, valid: fn(&T) -> bool) -> Option<T> {
    let value = text(first_value(root, id)?);
    // Rust also reads "inf" and "NaN" as floats; SGF's Real has neither.
    let n = value.parse().ok().filter(valid);
    if n.is_none() {
        log::warn!("SGF: ignoring malformed {id}[{}]", show(value.as_bytes()));
    }
    n
}

fn convert_node(raw: &RawNode, size: usize) -> Result<SgfNode, SgfError> {
    let mut node = SgfNode::default();
    for prop in raw {
        let id = prop.id.as_str();
        match id {
            "B" | "W" => {
                let color = if id == "B" {
                    Color::Black
                } else {
                    Color::White
                };
                if node.mv.is_some() {
                    return Err(SgfError("two moves in one node".into()));
                }
                let [value] = prop.values.as_slice() else {
                    return Err(SgfError(format!("{id} with {} values", prop.values.len())));
                };
                node.mv = Some((color, parse_move(value, size)?));
            }
            "AB" | "AW" | "AE" => {
                let kind = match id {
                    "AB" => SetupKind::Black,
                    "AW" => SetupKind::White,
                    _ => SetupKind::Empty,
                };
                for value in &prop.values {
                    expand_points(value, size, kind, &mut node.setup)?;
                }
            }
            "PL" => {
                let value = text(&prop.values[0]);
                node.player = match value.to_ascii_uppercase().as_str() {
                    "B" | "1" => Some(Color::Black),
                    "W" | "2" => Some(Color::White),
                    _ => {
                        log::warn!("SGF: ignoring malformed PL[{}]", show(value.as_bytes()));
                        None
                    }
                }
            }
            _ => {}
        }
    }
    // Setup points in one node are simultaneous, so their order carries no
    // meaning; a fixed one makes parse(write(g)) == g hold.
    let rank = |k: &SetupKind| *k as u8;
    node.setup.sort_by_key(|(k, _)| rank(k));
    Ok(node)
}

fn parse_move(value: &[u8], size: usize) -> Result<Move, SgfError> {
    let v = value.trim_ascii();
    // FF[3] wrote a pass as "tt"; on boards above 19 that is a real point.
    if v.is_empty() || (v == b"tt" && size <= 19) {
        return Ok(Move::Pass);
    }
    point(v, size).map(Move::Play)
}

/// Column and row as SGF counts them: from 'a', row 'a' at the top.
fn sgf_coords(v: &[u8]) -> Result<(usize, usize), SgfError> {
    match v {
        [c @ b'a'..=b'z', r @ b'a'..=b'z'] => Ok(((c - b'a') as usize, (r - b'a') as usize)),
        _ => Err(SgfError(format!(
            "malformed point [{}]",
            String::from_utf8_lossy(v)
        ))),
    }
}

fn point(v: &[u8], size: usize) -> Result<Vertex, SgfError> {
    let (col, row) = sgf_coords(v)?;
    to_vertex(col, row, size).ok_or_else(|| {
        let v = show(v);
        SgfError(format!("point [{v}] outside a {size}x{size} board"))
    })
}

/// A value as quoted in an error message, cut short: a file may hold a
/// megabyte of junk where a point belongs.
fn show(v: &[u8]) -> String {
    let mut s = String::from_utf8_lossy(&v[..v.len().min(16)]).into_owned();
    if v.len() > 16 {
        s.push_str("...");
    }
    s
}

fn to_vertex(col: usize, row: usize, size: usize) -> Option<Vertex> {
    (col < size && row < size).then(|| Vertex::new(col as u8, (size - 1 - row) as u8))
}

/// One value of a point list: a point, or a rectangle `aa:cc` given by two
/// opposite corners.
fn expand_points(
    value: &[u8],
    size: usize,
    kind: SetupKind,
    out: &mut Vec<(SetupKind, Vertex)>,
) -> Result<(), SgfError> {
    let v = value.trim_ascii();
    let Some(colon) = v.iter().position(|&c| c == b':') else {
        out.push((kind, point(v, size)?));
        return Ok(());
    };
    let (a, b) = (v[..colon].trim_ascii(), v[colon + 1..].trim_ascii());
    // Checking both corners on the board bounds the rectangle by the board.
    point(a, size)?;
    point(b, size)?;
    let ((c0, r0), (c1, r1)) = (sgf_coords(a)?, sgf_coords(b)?);
    for row in r0.min(r1)..=r0.max(r1) {
        for col in c0.min(c1)..=c0.max(c1) {
            out.extend(to_vertex(col, row, size).map(|p| (kind, p)));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(col: u8, row: u8) -> Vertex {
        Vertex::new(col, row)
    }

    fn err(sgf: &str) -> String {
        match parse(sgf.as_bytes()) {
            Err(SgfError(e)) => e,
            Ok(g) => panic!("{sgf:?} parsed as {g:?}"),
        }
    }

    #[test]
    fn root_properties_and_moves() {
        let g = parse(b"(;FF[4]GM[1]SZ[9]KM[6.50]HA[2];B[aa];W[ai];B[];W[tt])").unwrap();
        assert_eq!((g.size, g.komi, g.handicap), (9, Some(6.5), Some(2)));
        let moves: Vec<_> = g.moves().collect();
        use Color::{Black, White};
        let expect = [
            (Black, Move::Play(v(0, 8))),
            (White, Move::Play(v(0, 0))),
            (Black, Move::Pass),
            (White, Move::Pass),
        ];
        assert_eq!(moves, expect);
        assert_eq!(g.nodes.len(), 5);
    }

    #[test]
    fn defaults_and_lenient_values() {
        let g = parse(b"(;KM[0]HA[x])").unwrap();
        assert_eq!((g.size, g.komi, g.handicap), (19, Some(0.0), None));
        assert_eq!(parse(b"(;KM[five])").unwrap().komi, None);
        let g = parse(b"(;KM[NaN]HA[-1])").unwrap();
        assert_eq!((g.komi, g.handicap), (None, None));
        assert_eq!(parse(b"(;KM[ 5.5 ])").unwrap().komi, Some(5.5));
        assert_eq!(parse(b"(;SZ[13:13])").unwrap().size, 13);
    }

    #[test]
    fn tt_is_a_point_on_big_boards() {
        let g = parse(b"(;SZ[21];B[tt])").unwrap();
        assert_eq!(g.nodes[1].mv, Some((Color::Black, Move::Play(v(19, 1)))));
    }

    #[test]
    fn main_line_takes_first_variations() {
        let sgf = b"(;SZ[5];B[aa](;W[bb](;B[cc])(;B[dd]));W[ee]);B[ab](;W[ac])(;W[ad]))(;B[ee])";
        let g = parse(sgf);
        assert!(g.is_err(), "a node may not follow a variation");
        let sgf = b"(;SZ[5];B[aa](;W[bb](;B[cc])(;B[dd]))(;W[ee];B[ab]))(;B[ee])";
        let g = parse(sgf).unwrap();
        let ends: Vec<_> = g.moves().map(|(_, m)| m.to_string()).collect();
        assert_eq!(ends, ["A5", "B4", "C3"]);
    }

    #[test]
    fn setup_lists_and_rectangles() {
        let g = parse(b"(;SZ[5]AW[ee]AB[aa:bb][cc]PL[W];AE[ee]AB[ea:db])").unwrap();
        use SetupKind::*;
        let root = [
            (Black, v(0, 4)),
            (Black, v(1, 4)),
            (Black, v(0, 3)),
            (Black, v(1, 3)),
            (Black, v(2, 2)),
            (White, v(4, 0)),
        ];
        assert_eq!(g.nodes[0].setup, root);
        assert_eq!(g.nodes[0].player, Some(Color::White));
        let second = [(Black, v(3, 4)), (Black, v(4, 4)), (Black, v(3, 3))];
        assert_eq!(g.nodes[1].setup[..3], second);
        assert_eq!(g.nodes[1].setup[4], (Empty, v(4, 0)));
    }

    #[test]
    fn old_formats_and_odd_bytes() {
        let sgf = b"\xEF\xBB\xBF (\n; FF [3] SZ[9] AddBlack[aa] [ib] \n C[caf\xE9 \\] ok]\r\n;White[bb])\n";
        let g = parse(sgf).unwrap();
        assert_eq!(g.nodes[0].setup.len(), 2);
        assert_eq!(g.nodes[1].mv, Some((Color::White, Move::Play(v(1, 7)))));
        // Unknown properties, escapes and a second game tree are all fine.
        assert!(parse(b"(;XX[a\\]b]YY[]C[\\\\];B[aa])(;B[bb])").is_ok());
    }

    #[test]
    fn deep_nesting_does_not_overflow() {
        let depth = 200_000;
        let sgf = format!("{}{}", "(;B[aa]".repeat(depth), ")".repeat(depth));
        assert_eq!(parse(sgf.as_bytes()).unwrap().nodes.len(), depth);
        assert!(parse("(;".repeat(depth).as_bytes()).is_err());
    }

    #[test]
    fn errors() {
        assert_eq!(err(""), "empty input");
        assert_eq!(err(" \n "), "empty input");
        assert!(err("hello").starts_with("not an SGF game tree"));
        assert!(err("(;GM[2])").contains("GM[2]"));
        for sz in ["0", "26", "x", "19:13", "-1", ""] {
            assert!(err(&format!("(;SZ[{sz}])")).contains("SZ"), "{sz}");
        }
        assert!(err("(;SZ[9];B[aj])").contains("outside"));
        assert!(err("(;SZ[9]AB[aa:jj])").contains("outside"));
        assert!(
            err("(;AB[tt])").starts_with("node 0"),
            "tt: a pass only as a move"
        );
        assert_eq!(err("(;SZ[9];W[a])"), "node 1: malformed point [a]");
        assert!(err("(;B[aa][bb])").contains("2 values"));
        assert!(err("(;B[aa]W[bb])").contains("two moves"));
        assert!(err("(;C[abc)").contains("missing ']'"));
        assert!(err("(;B[aa]").contains("missing ')'"));
        assert!(err("(;B[aa]))").contains("extra ')'"));
        assert!(err("()").contains("empty game tree"));
        assert!(err("((;))").contains("';'"));
        assert!(err("(;B)").contains("without a value"));
        assert!(err("(;B[aa] 1)").contains("unexpected '1'"));
        assert!(err("(;B[aa])x").contains("unexpected 'x' at byte 8"));
    }
}
