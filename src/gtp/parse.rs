//! Input side of the GTP engine: raw lines into [`CommandLine`]s, argument
//! tokens into typed values.
//!
//! Written against the *Specification of the Go Text Protocol, version 2,
//! draft 2* (Gunnar Farnebäck, 2002,
//! <http://www.lysator.liu.se/~gunnar/gtp/gtp2-spec-draft2/gtp2-spec.html>):
//! section 2 for the command structure `[id] command_name [arguments]`,
//! whitespace, comments and board coordinates; section 3 for the
//! preprocessing of input lines and the syntax of the entities (int, float,
//! string, vertex, color, boolean).
//!
//! The grammar is small but written with `nom` so each entity reads like its
//! definition. Everything here takes arbitrary controller input, so nothing
//! may panic: the property test in `parse_tests.rs` throws 200,000 random
//! lines at it.
//!
//! # Error messages
//!
//! Each parser fails with the text that follows `? ` in the response; command
//! handlers pass it on unchanged. Structural problems (too few or too many
//! arguments) get the spec's `syntax error`; a bad token gets a message naming
//! what was expected. GNU Go 3.8, which users compare us with, was checked on
//! the same inputs. We differ where its answer is an accident of `sscanf`
//! (it ignores extra arguments, wraps large ids, accepts `nan`). GNU Go puts
//! the command name in front of number errors; a handler that wants exactly
//! that can use `.map_err(|e| format!("komi {e}"))`.
//!
//! | problem (example)                        | message                | GNU Go 3.8 answers                     |
//! |------------------------------------------|------------------------|----------------------------------------|
//! | argument missing (`play b`, `komi`)      | `syntax error`         | the type's error, e.g. `invalid color or coordinate` |
//! | extra argument (`play b a1 a2`)          | `syntax error`         | success, extra ignored                 |
//! | bad color (`play x a1`, `genmove x`)     | `invalid color`        | `invalid color` / `invalid color or coordinate` |
//! | malformed vertex (`z99`, `i5`, `a0`)     | `invalid vertex`       | `invalid coordinate` / `invalid color or coordinate` |
//! | vertex outside the board (`j10` on 9×9)  | `vertex off board`     | same as malformed                      |
//! | not an integer (`boardsize abc`)         | `not an integer`       | `boardsize not an integer`             |
//! | integer overflow, negative unsigned      | `integer out of range` | wraps, or `unacceptable size`          |
//! | not a float (`komi abc`, `komi nan`)     | `not a float`          | `komi not a float`; accepts `nan`      |
//! | float overflow (`komi 1e999`)            | `float out of range`   | accepted, komi becomes `inf`           |
//! | not a boolean (`yes`)                    | `not a boolean`        | —                                      |
//! | id without command (`12`)                | `missing command`      | no response at all                     |
//! | id beyond `u32` (`99999999999 name`)     | `id out of range`      | wraps around                           |

use std::borrow::Cow;
use std::fmt;

use nom::branch::alt;
use nom::bytes::complete::take_till1;
use nom::character::complete::{char, digit0, digit1, one_of, satisfy, space0, space1};
use nom::combinator::{all_consuming, eof, map, map_opt, map_res, opt, peek, recognize, value};
use nom::multi::many0;
use nom::sequence::{pair, preceded, terminated, tuple};
use nom::IResult;

use crate::go::{Color, Move, Vertex, MAX_SIZE};

pub const SYNTAX_ERROR: &str = "syntax error";
pub const INVALID_COLOR: &str = "invalid color";
pub const INVALID_VERTEX: &str = "invalid vertex";
pub const VERTEX_OFF_BOARD: &str = "vertex off board";
pub const NOT_AN_INTEGER: &str = "not an integer";
pub const INTEGER_OUT_OF_RANGE: &str = "integer out of range";
pub const NOT_A_FLOAT: &str = "not a float";
pub const FLOAT_OUT_OF_RANGE: &str = "float out of range";
pub const NOT_A_BOOLEAN: &str = "not a boolean";
pub const MISSING_COMMAND: &str = "missing command";
pub const ID_OUT_OF_RANGE: &str = "id out of range";

/// A command line after preprocessing: optional numeric id, the command name,
/// its raw arguments.
#[derive(Debug, Clone, PartialEq)]
pub struct CommandLine {
    pub id: Option<u32>,
    pub name: String,
    pub args: Vec<String>,
}

/// A line that cannot be a command. `id` is kept when it could be read so the
/// caller can still answer `?id message`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseError {
    pub id: Option<u32>,
    pub message: String,
}

impl ParseError {
    fn new(id: Option<u32>, message: &str) -> ParseError {
        ParseError {
            id,
            message: message.to_owned(),
        }
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for ParseError {}

/// The spec's preprocessing of one raw line (without its LF): drop control
/// characters other than HT (bytes 0..=31 and 127, so the CR of CRLF input
/// goes too), cut everything from `#` on, turn HT into a space.
///
/// Returns `None` when nothing but whitespace is left: the spec says such
/// lines are discarded and get no response.
pub fn preprocess(raw: &[u8]) -> Option<String> {
    // GTP is ASCII, but a stray byte from a controller must not kill the
    // engine, and U+FFFD keeps the damage visible in an error message.
    let text = String::from_utf8_lossy(raw);
    if let Cow::Owned(_) = text {
        log::debug!("GTP input is not valid UTF-8; decoded lossily");
    }
    let mut line = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '#' => break,
            '\t' => line.push(' '),
            // The caller splits on LF, so one found here is as meaningless as
            // any other control character.
            c if c < ' ' || c == '\u{7f}' => {}
            c => line.push(c),
        }
    }
    if line.trim_matches(' ').is_empty() {
        None
    } else {
        Some(line)
    }
}

fn is_space(c: char) -> bool {
    // Spec whitespace is SPACE and HT only; other Unicode spaces are token text.
    c == ' ' || c == '\t'
}

/// `[id] name args…` as the id's digits (if any) and the remaining tokens.
fn command_line(input: &str) -> IResult<&str, (Option<&str>, Vec<&str>)> {
    // The spec's id is an int, i.e. a whole token. `12abc` therefore has no
    // id and is the (unknown) command `12abc`. GNU Go, reading with sscanf,
    // would answer `?12 unknown command` for `abc`; splitting a token in two
    // would be guessing at what the controller meant.
    let id = terminated(digit1, peek(alt((space1, eof))));
    let token = take_till1(is_space);
    all_consuming(terminated(
        pair(preceded(space0, opt(id)), many0(preceded(space0, token))),
        space0,
    ))(input)
}

/// Parses a preprocessed line. Tokens are separated by any run of spaces or
/// tabs; leading and trailing whitespace is ignored.
pub fn parse_line(line: &str) -> Result<CommandLine, ParseError> {
    let (_, (digits, tokens)) =
        command_line(line).map_err(|_| ParseError::new(None, SYNTAX_ERROR))?;
    // The spec bounds an int by 2^31 - 1; any u32 is harmless to echo back,
    // and refusing is better than GNU Go's silent wrap-around.
    let id = match digits {
        None => None,
        Some(d) => Some(
            d.parse::<u32>()
                .map_err(|_| ParseError::new(None, ID_OUT_OF_RANGE))?,
        ),
    };
    let mut tokens = tokens.into_iter();
    let name = tokens
        .next()
        .ok_or_else(|| ParseError::new(id, MISSING_COMMAND))?;
    Ok(CommandLine {
        id,
        name: name.to_owned(),
        args: tokens.map(str::to_owned).collect(),
    })
}

/// Runs `parser` over the whole of `s`; any leftover input is a failure.
fn whole<'a, O>(parser: impl FnMut(&'a str) -> IResult<&'a str, O>, s: &'a str) -> Option<O> {
    all_consuming(parser)(s).ok().map(|(_, out)| out)
}

/// ASCII-case-insensitive keyword. nom's `tag_no_case` is not used: it
/// compares Unicode lowercase but cuts at the tag's byte length, so an input
/// like "blac\u{212A}" (Kelvin sign) makes it slice inside a character and
/// panic.
fn keyword(word: &'static str) -> impl Fn(&str) -> IResult<&str, &str> {
    move |input: &str| match input.get(..word.len()) {
        Some(head) if head.eq_ignore_ascii_case(word) => Ok((&input[word.len()..], head)),
        _ => Err(nom::Err::Error(nom::error::Error::new(
            input,
            nom::error::ErrorKind::Tag,
        ))),
    }
}

/// `b`, `black`, `w` or `white`, any case.
pub fn color(s: &str) -> Result<Color, String> {
    let black = value(Color::Black, alt((keyword("black"), keyword("b"))));
    let white = value(Color::White, alt((keyword("white"), keyword("w"))));
    whole(alt((black, white)), s).ok_or_else(|| INVALID_COLOR.to_owned())
}

/// `pass` as `None`, else the point named by a letter and a row number.
fn vertex_syntax(input: &str) -> IResult<&str, Option<Vertex>> {
    // The ASCII guard matters: `col_from_letter` truncates a char to a byte,
    // which would read 'Ł' (U+0141) as 'A'.
    let letter = map_opt(
        satisfy(|c| c.is_ascii_alphabetic()),
        Vertex::col_from_letter,
    );
    // Rows are written as GTP writes them: 1..=25, no leading zero.
    let row = map_opt(
        map_res(
            recognize(pair(
                one_of("123456789"),
                opt(satisfy(|c| c.is_ascii_digit())),
            )),
            str::parse::<usize>,
        ),
        |r| (r <= MAX_SIZE).then_some(r as u8 - 1),
    );
    let point = map(pair(letter, row), |(col, row)| Some(Vertex::new(col, row)));
    alt((value(None, keyword("pass")), point))(input)
}

/// A vertex on a `size`×`size` board: `pass` or a coordinate, any case, `I`
/// skipped. Text that names no point on any GTP board is `invalid vertex`; a
/// well-formed point beyond this board is `vertex off board`, so the user
/// can tell a typo from a board-size mix-up.
pub fn vertex(s: &str, size: usize) -> Result<Move, String> {
    match whole(vertex_syntax, s) {
        None => Err(INVALID_VERTEX.to_owned()),
        Some(None) => Ok(Move::Pass),
        Some(Some(v)) if v.on_board(size) => Ok(Move::Play(v)),
        Some(Some(_)) => Err(VERTEX_OFF_BOARD.to_owned()),
    }
}

fn int_syntax(input: &str) -> IResult<&str, &str> {
    recognize(pair(opt(one_of("+-")), digit1))(input)
}

/// A decimal integer with optional sign.
pub fn int(s: &str) -> Result<i64, String> {
    let text = whole(int_syntax, s).ok_or_else(|| NOT_AN_INTEGER.to_owned())?;
    text.parse().map_err(|_| INTEGER_OUT_OF_RANGE.to_owned())
}

/// A non-negative integer that fits a `u32` (the spec's int is unsigned).
pub fn uint(s: &str) -> Result<u32, String> {
    u32::try_from(int(s)?).map_err(|_| INTEGER_OUT_OF_RANGE.to_owned())
}

fn float_syntax(input: &str) -> IResult<&str, &str> {
    let sign = || opt(one_of("+-"));
    let mantissa = alt((
        recognize(pair(digit1, opt(pair(char('.'), digit0)))),
        recognize(pair(char('.'), digit1)),
    ));
    let exponent = opt(tuple((one_of("eE"), sign(), digit1)));
    recognize(tuple((sign(), mantissa, exponent)))(input)
}

/// A finite decimal number: `6.5`, `-3`, `7.`, `.5`, `1e3`. The grammar is
/// our own so that Rust's `nan`, `inf` and `infinity` are not numbers here.
pub fn float(s: &str) -> Result<f64, String> {
    let text = whole(float_syntax, s).ok_or_else(|| NOT_A_FLOAT.to_owned())?;
    let x: f64 = text.parse().map_err(|_| NOT_A_FLOAT.to_owned())?;
    if x.is_finite() {
        Ok(x)
    } else {
        Err(FLOAT_OUT_OF_RANGE.to_owned())
    }
}

/// The spec's boolean is `true`/`false`; GNU Go's own commands use `1`/`0`.
/// Both are accepted, the words in any case.
pub fn boolean(s: &str) -> Result<bool, String> {
    let yes = value(true, alt((keyword("1"), keyword("true"))));
    let no = value(false, alt((keyword("0"), keyword("false"))));
    whole(alt((yes, no)), s).ok_or_else(|| NOT_A_BOOLEAN.to_owned())
}

/// `on` or `off`, the switches of tesuji's own settings
/// (`tesuji-live_gfx`, `rounds=`); `None` otherwise, so that each command
/// names its setting in its error.
pub fn on_off(s: &str) -> Option<bool> {
    match s {
        "on" => Some(true),
        "off" => Some(false),
        _ => None,
    }
}

/// Reads a command's arguments in order. A missing argument is
/// `syntax error`, a malformed one the entity parser's message. A failed read
/// does not advance, so a handler may try another type on the same token.
#[derive(Debug, Clone)]
pub struct Args<'a> {
    args: &'a [String],
    next: usize,
}

impl<'a> Args<'a> {
    pub fn new(args: &'a [String]) -> Self {
        Args { args, next: 0 }
    }

    fn read<T>(&mut self, parse: impl FnOnce(&'a str) -> Result<T, String>) -> Result<T, String> {
        let token = self
            .args
            .get(self.next)
            .ok_or_else(|| SYNTAX_ERROR.to_owned())?;
        let out = parse(token.as_str())?;
        self.next += 1;
        Ok(out)
    }

    pub fn color(&mut self) -> Result<Color, String> {
        self.read(color)
    }

    pub fn vertex(&mut self, size: usize) -> Result<Move, String> {
        self.read(|s| vertex(s, size))
    }

    pub fn int(&mut self) -> Result<i64, String> {
        self.read(int)
    }

    pub fn uint(&mut self) -> Result<u32, String> {
        self.read(uint)
    }

    pub fn float(&mut self) -> Result<f64, String> {
        self.read(float)
    }

    pub fn boolean(&mut self) -> Result<bool, String> {
        self.read(boolean)
    }

    pub fn string(&mut self) -> Result<&'a str, String> {
        self.read(Ok)
    }

    pub fn opt_string(&mut self) -> Option<&'a str> {
        self.string().ok()
    }

    /// The arguments not read yet.
    pub fn remaining(&self) -> &'a [String] {
        &self.args[self.next..]
    }

    /// `syntax error` if arguments are left over: a handler calls this after
    /// its last read so that `play b a1 a2` fails instead of half-working.
    pub fn finish(&self) -> Result<(), String> {
        if self.remaining().is_empty() {
            Ok(())
        } else {
            Err(SYNTAX_ERROR.to_owned())
        }
    }
}

#[cfg(test)]
#[path = "parse_tests.rs"]
mod tests;
