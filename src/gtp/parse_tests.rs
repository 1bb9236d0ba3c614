use super::*;

fn pre(raw: &str) -> Option<String> {
    preprocess(raw.as_bytes())
}

fn cmd(id: Option<u32>, name: &str, args: &[&str]) -> CommandLine {
    CommandLine {
        id,
        name: name.to_owned(),
        args: args.iter().map(|a| a.to_string()).collect(),
    }
}

fn strings(args: &[&str]) -> Vec<String> {
    args.iter().map(|a| a.to_string()).collect()
}

fn play(col: u8, row: u8) -> Move {
    Move::Play(Vertex::new(col, row))
}

#[test]
fn preprocess_keeps_ordinary_lines() {
    assert_eq!(pre("play black D4").as_deref(), Some("play black D4"));
    assert_eq!(pre("  name  ").as_deref(), Some("  name  "));
}

#[test]
fn preprocess_cuts_comments() {
    assert_eq!(pre("genmove b # think hard").as_deref(), Some("genmove b "));
    assert_eq!(pre("na#me").as_deref(), Some("na"));
    assert_eq!(pre("# only a comment"), None);
    assert_eq!(pre("   # indented comment"), None);
    assert_eq!(pre("#"), None);
}

#[test]
fn preprocess_discards_blank_lines() {
    assert_eq!(pre(""), None);
    assert_eq!(pre("   "), None);
    assert_eq!(pre("\t \t"), None);
    assert_eq!(pre("\r"), None);
    assert_eq!(pre("\x00\x01\x7f"), None);
}

#[test]
fn preprocess_turns_tabs_into_spaces() {
    assert_eq!(pre("play\tb\t\ta1").as_deref(), Some("play b  a1"));
}

#[test]
fn preprocess_drops_control_characters() {
    assert_eq!(pre("name\r").as_deref(), Some("name"));
    assert_eq!(pre("na\x00me\x1b\x7f").as_deref(), Some("name"));
    assert_eq!(pre("boa\x08rdsize 9\x0b").as_deref(), Some("boardsize 9"));
    // A stray LF (the caller should already have split there) goes too.
    assert_eq!(pre("a\nb").as_deref(), Some("ab"));
    // A control character inside a comment does not matter, nor before it.
    assert_eq!(pre("name\r# x\x01").as_deref(), Some("name"));
}

#[test]
fn preprocess_decodes_invalid_utf8_lossily() {
    assert_eq!(
        preprocess(b"name \xff\xfe").as_deref(),
        Some("name \u{fffd}\u{fffd}")
    );
    assert_eq!(preprocess(b"\xc3"), Some("\u{fffd}".to_owned()));
    assert_eq!(preprocess(b"\xc3\xa9t\xc3\xa9").as_deref(), Some("été"));
    assert_eq!(preprocess(b"# \xff"), None);
}

#[test]
fn parse_line_reads_name_and_arguments() {
    assert_eq!(parse_line("name"), Ok(cmd(None, "name", &[])));
    assert_eq!(
        parse_line("play black D4"),
        Ok(cmd(None, "play", &["black", "D4"]))
    );
    assert_eq!(
        parse_line("   play   b \t  a1   "),
        Ok(cmd(None, "play", &["b", "a1"]))
    );
}

#[test]
fn parse_line_reads_ids() {
    assert_eq!(parse_line("12 name"), Ok(cmd(Some(12), "name", &[])));
    assert_eq!(parse_line("  7   name "), Ok(cmd(Some(7), "name", &[])));
    assert_eq!(parse_line("12\tname"), Ok(cmd(Some(12), "name", &[])));
    assert_eq!(parse_line("0 name"), Ok(cmd(Some(0), "name", &[])));
    assert_eq!(parse_line("007 name"), Ok(cmd(Some(7), "name", &[])));
    assert_eq!(
        parse_line("3 boardsize 9"),
        Ok(cmd(Some(3), "boardsize", &["9"]))
    );
    // Only the first token can be an id.
    assert_eq!(parse_line("12 34"), Ok(cmd(Some(12), "34", &[])));
    assert_eq!(
        parse_line("4294967295 name"),
        Ok(cmd(Some(u32::MAX), "name", &[]))
    );
}

#[test]
fn parse_line_treats_non_integer_first_tokens_as_names() {
    assert_eq!(parse_line("12abc"), Ok(cmd(None, "12abc", &[])));
    assert_eq!(parse_line("12abc x"), Ok(cmd(None, "12abc", &["x"])));
    assert_eq!(parse_line("-1 name"), Ok(cmd(None, "-1", &["name"])));
    assert_eq!(parse_line("+1 name"), Ok(cmd(None, "+1", &["name"])));
    assert_eq!(parse_line("1.5 name"), Ok(cmd(None, "1.5", &["name"])));
    // Digits that are not ASCII are not an id either.
    assert_eq!(parse_line("١٢ name"), Ok(cmd(None, "١٢", &["name"])));
}

#[test]
fn parse_line_keeps_the_id_when_the_command_is_missing() {
    let err = parse_line("12").unwrap_err();
    assert_eq!(err, ParseError::new(Some(12), MISSING_COMMAND));
    assert_eq!(err.to_string(), "missing command");
    assert_eq!(parse_line("  12   ").unwrap_err().id, Some(12));
    assert_eq!(
        parse_line("").unwrap_err(),
        ParseError::new(None, MISSING_COMMAND)
    );
    assert_eq!(
        parse_line("  ").unwrap_err(),
        ParseError::new(None, MISSING_COMMAND)
    );
}

#[test]
fn parse_line_rejects_huge_ids() {
    let expected = ParseError::new(None, ID_OUT_OF_RANGE);
    assert_eq!(parse_line("4294967296 name").unwrap_err(), expected);
    assert_eq!(
        parse_line("99999999999999999999999 name").unwrap_err(),
        expected
    );
    assert_eq!(parse_line("99999999999999999999999").unwrap_err(), expected);
}

#[test]
fn preprocess_then_parse_line() {
    let line = preprocess(b"3 play\tB a1 # opening\r").unwrap();
    assert_eq!(parse_line(&line), Ok(cmd(Some(3), "play", &["B", "a1"])));
    let line = preprocess(b"\x005\x01 na\x7fme\r").unwrap();
    assert_eq!(parse_line(&line), Ok(cmd(Some(5), "name", &[])));
}

#[test]
fn colors_in_any_case() {
    for s in ["b", "B", "black", "BLACK", "Black", "bLaCk"] {
        assert_eq!(color(s), Ok(Color::Black), "{s}");
    }
    for s in ["w", "W", "white", "WHITE", "White"] {
        assert_eq!(color(s), Ok(Color::White), "{s}");
    }
}

#[test]
fn colors_rejected() {
    for s in [
        "", "x", "bl", "blac", "blackx", "bw", " b", "b ", "whit", "ww",
    ] {
        assert_eq!(color(s), Err(INVALID_COLOR.to_owned()), "{s:?}");
    }
    // Kelvin sign: lowercases to 'k' and crashes nom's tag_no_case.
    assert_eq!(color("blac\u{212A}"), Err(INVALID_COLOR.to_owned()));
    assert_eq!(color("BLAC\u{212A}"), Err(INVALID_COLOR.to_owned()));
}

#[test]
fn vertices_read_bottom_left_first() {
    assert_eq!(vertex("A1", 19), Ok(play(0, 0)));
    assert_eq!(vertex("a1", 19), Ok(play(0, 0)));
    assert_eq!(vertex("D4", 19), Ok(play(3, 3)));
    assert_eq!(vertex("H8", 19), Ok(play(7, 7)));
    assert_eq!(vertex("j1", 19), Ok(play(8, 0)));
    assert_eq!(vertex("T19", 19), Ok(play(18, 18)));
    assert_eq!(vertex("t19", 19), Ok(play(18, 18)));
    assert_eq!(vertex("Z25", 25), Ok(play(24, 24)));
    assert_eq!(vertex("J9", 9), Ok(play(8, 8)));
}

#[test]
fn vertex_pass_in_any_case() {
    for s in ["pass", "PASS", "Pass", "pAsS"] {
        assert_eq!(vertex(s, 19), Ok(Move::Pass), "{s}");
    }
    // Passing needs no board.
    assert_eq!(vertex("pass", 0), Ok(Move::Pass));
}

#[test]
fn malformed_vertices() {
    let bad = [
        "", "I5", "i5", "A0", "A26", "A99", "Z26", "z99", "A01", "A001", "A", "1", "1A", "AA1",
        "A1b", "A-1", "A+1", " A1", "A1 ", "A 1", "pas", "passs", "resign", "Ł5", "É5", "A١",
        "A1.0",
    ];
    for s in bad {
        assert_eq!(vertex(s, 25), Err(INVALID_VERTEX.to_owned()), "{s:?}");
    }
    // A26 names no GTP point, whatever the board.
    assert_eq!(vertex("A26", 100), Err(INVALID_VERTEX.to_owned()));
}

#[test]
fn vertices_off_the_board() {
    let off = Err(VERTEX_OFF_BOARD.to_owned());
    assert_eq!(vertex("J10", 9), off);
    assert_eq!(vertex("A10", 9), off);
    assert_eq!(vertex("K1", 9), off);
    assert_eq!(vertex("T19", 9), off);
    assert_eq!(vertex("Z25", 19), off);
    assert_eq!(vertex("A1", 0), off);
    assert_eq!(vertex("B1", 1), off);
    assert_eq!(vertex("A1", 1), Ok(play(0, 0)));
}

#[test]
fn integers() {
    assert_eq!(int("0"), Ok(0));
    assert_eq!(int("-3"), Ok(-3));
    assert_eq!(int("+7"), Ok(7));
    assert_eq!(int("007"), Ok(7));
    assert_eq!(int("-0"), Ok(0));
    assert_eq!(int(&i64::MAX.to_string()), Ok(i64::MAX));
    assert_eq!(int(&i64::MIN.to_string()), Ok(i64::MIN));
    assert_eq!(
        int("9223372036854775808"),
        Err(INTEGER_OUT_OF_RANGE.to_owned())
    );
    assert_eq!(
        int("-99999999999999999999"),
        Err(INTEGER_OUT_OF_RANGE.to_owned())
    );
    for s in [
        "", "-", "+", "abc", "1.5", "1e3", " 1", "1 ", "--1", "0x10", "1_000", "٣",
    ] {
        assert_eq!(int(s), Err(NOT_AN_INTEGER.to_owned()), "{s:?}");
    }
}

#[test]
fn unsigned_integers() {
    assert_eq!(uint("0"), Ok(0));
    assert_eq!(uint("19"), Ok(19));
    assert_eq!(uint("+5"), Ok(5));
    assert_eq!(uint("-0"), Ok(0));
    assert_eq!(uint("4294967295"), Ok(u32::MAX));
    assert_eq!(uint("4294967296"), Err(INTEGER_OUT_OF_RANGE.to_owned()));
    assert_eq!(uint("-1"), Err(INTEGER_OUT_OF_RANGE.to_owned()));
    assert_eq!(uint("abc"), Err(NOT_AN_INTEGER.to_owned()));
}

#[test]
fn floats() {
    let cases = [
        ("6.5", 6.5),
        ("-3", -3.0),
        ("7.", 7.0),
        (".5", 0.5),
        ("-.5", -0.5),
        ("+0.5", 0.5),
        ("1e3", 1000.0),
        ("-2.5E-1", -0.25),
        ("2E+2", 200.0),
        ("0", 0.0),
    ];
    for (s, x) in cases {
        assert_eq!(float(s), Ok(x), "{s}");
    }
}

#[test]
fn floats_rejected() {
    let bad = [
        "", "abc", "nan", "NaN", "inf", "-inf", "infinity", "Infinity", ".", "-", "e3", "1e",
        "1e+", "1.2.3", "0x10", "6,5", " 6.5", "6.5 ", "6.5abc", "1f",
    ];
    for s in bad {
        assert_eq!(float(s), Err(NOT_A_FLOAT.to_owned()), "{s:?}");
    }
    assert_eq!(float("1e999"), Err(FLOAT_OUT_OF_RANGE.to_owned()));
    assert_eq!(float("-1e999"), Err(FLOAT_OUT_OF_RANGE.to_owned()));
}

#[test]
fn booleans() {
    for s in ["1", "true", "TRUE", "True"] {
        assert_eq!(boolean(s), Ok(true), "{s}");
    }
    for s in ["0", "false", "FALSE", "False"] {
        assert_eq!(boolean(s), Ok(false), "{s}");
    }
    for s in ["", "2", "01", "10", "yes", "no", "t", "f", "truee", " 1"] {
        assert_eq!(boolean(s), Err(NOT_A_BOOLEAN.to_owned()), "{s:?}");
    }
}

#[test]
fn on_off_switches() {
    assert_eq!((on_off("on"), on_off("off")), (Some(true), Some(false)));
    for s in ["", "ON", "Off", "1", "true", "onn", " on"] {
        assert_eq!(on_off(s), None, "{s:?}");
    }
}

#[test]
fn args_read_in_order() {
    let raw = strings(&["b", "D4", "6.5", "-2", "7", "1", "name", "rest"]);
    let mut args = Args::new(&raw);
    assert_eq!(args.color(), Ok(Color::Black));
    assert_eq!(args.vertex(19), Ok(play(3, 3)));
    assert_eq!(args.float(), Ok(6.5));
    assert_eq!(args.int(), Ok(-2));
    assert_eq!(args.uint(), Ok(7));
    assert_eq!(args.boolean(), Ok(true));
    assert_eq!(args.string(), Ok("name"));
    assert_eq!(args.remaining(), &raw[7..]);
    assert_eq!(args.finish(), Err(SYNTAX_ERROR.to_owned()));
    assert_eq!(args.opt_string(), Some("rest"));
    assert_eq!(args.opt_string(), None);
    assert!(args.remaining().is_empty());
    assert_eq!(args.finish(), Ok(()));
}

#[test]
fn args_missing_is_a_syntax_error() {
    let mut args = Args::new(&[]);
    let syntax = Err(SYNTAX_ERROR.to_owned());
    assert_eq!(args.color(), syntax.clone().map(|()| Color::Black));
    assert_eq!(args.vertex(19), syntax.clone().map(|()| Move::Pass));
    assert_eq!(args.int(), syntax.clone().map(|()| 0));
    assert_eq!(args.uint(), syntax.clone().map(|()| 0));
    assert_eq!(args.float(), syntax.clone().map(|()| 0.0));
    assert_eq!(args.boolean(), syntax.clone().map(|()| false));
    assert_eq!(args.string(), syntax.clone().map(|()| ""));
    assert_eq!(args.opt_string(), None);
    assert_eq!(args.finish(), Ok(()));
}

#[test]
fn args_failed_read_does_not_advance() {
    let raw = strings(&["pass"]);
    let mut args = Args::new(&raw);
    assert_eq!(args.color(), Err(INVALID_COLOR.to_owned()));
    assert_eq!(args.int(), Err(NOT_AN_INTEGER.to_owned()));
    assert_eq!(args.vertex(9), Ok(Move::Pass));
    assert_eq!(args.finish(), Ok(()));
}

/// What a handler built on `Args` answers for the inputs GNU Go was checked
/// with (see the table in the module doc).
#[test]
fn handler_messages_for_gnugo_comparison_inputs() {
    fn handle(line: &str, size: usize) -> Result<(), String> {
        let command = parse_line(&preprocess(line.as_bytes()).unwrap()).unwrap();
        let mut args = Args::new(&command.args);
        match command.name.as_str() {
            "play" => {
                args.color()?;
                args.vertex(size)?;
            }
            "komi" => {
                args.float()?;
            }
            "boardsize" => {
                args.uint()?;
            }
            "genmove" => {
                args.color()?;
            }
            _ => unreachable!(),
        }
        args.finish()
    }
    let cases = [
        ("play x a1", 19, Err(INVALID_COLOR)),
        ("play b z99", 19, Err(INVALID_VERTEX)),
        ("play b", 19, Err(SYNTAX_ERROR)),
        ("komi abc", 19, Err(NOT_A_FLOAT)),
        ("komi", 19, Err(SYNTAX_ERROR)),
        ("komi nan", 19, Err(NOT_A_FLOAT)),
        ("komi 6.5 7", 19, Err(SYNTAX_ERROR)),
        ("play b i5", 19, Err(INVALID_VERTEX)),
        ("play b a0", 19, Err(INVALID_VERTEX)),
        ("play b j10", 9, Err(VERTEX_OFF_BOARD)),
        ("play b a1 a2", 19, Err(SYNTAX_ERROR)),
        ("boardsize abc", 19, Err(NOT_AN_INTEGER)),
        ("boardsize -1", 19, Err(INTEGER_OUT_OF_RANGE)),
        ("genmove x", 19, Err(INVALID_COLOR)),
        ("genmove", 19, Err(SYNTAX_ERROR)),
        ("play BLACK A1", 19, Ok(())),
        ("play w pass", 9, Ok(())),
        ("komi 7.5", 19, Ok(())),
    ];
    for (line, size, expected) in cases {
        assert_eq!(
            handle(line, size),
            expected.map_err(str::to_owned),
            "{line}"
        );
    }
}

/// Deterministic xorshift64* so failures reproduce without a rand crate.
struct XorShift(u64);

impl XorShift {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Bytes that steer lines into the grammars, plus multi-byte characters
/// (Kelvin sign, C1 control, Ł, Arabic digit) that have tripped parsers.
const PIECES: &[&str] = &[
    "0", "1", "9", "12", "25", "26", " ", "  ", "\t", "\r", "#", "+", "-", ".", "e", "E", "b", "B",
    "w", "black", "WHITE", "pass", "i", "I", "j", "T", "Z", "true", "false", "nan", "inf",
    "\u{212A}", "\u{85}", "Ł", "١", "\u{fffd}",
];

fn random_line(rng: &mut XorShift) -> Vec<u8> {
    // About one line in 500 is 100 KB, to catch anything quadratic.
    let len = if rng.below(500) == 0 {
        100 * 1024
    } else {
        rng.below(64)
    };
    let grammar_biased = rng.below(2) == 0;
    let mut line = Vec::with_capacity(len + 16);
    while line.len() < len {
        if grammar_biased && rng.below(8) != 0 {
            line.extend_from_slice(PIECES[rng.below(PIECES.len())].as_bytes());
        } else {
            line.push(rng.next() as u8);
        }
    }
    line
}

fn exercise_token(token: &str) {
    let _ = color(token);
    let _ = int(token);
    let _ = uint(token);
    let _ = float(token);
    let _ = boolean(token);
    for size in [0, 1, 9, 19, 25, 26, usize::MAX] {
        let _ = vertex(token, size);
    }
}

#[test]
fn random_lines_never_panic() {
    let mut rng = XorShift(0x9e37_79b9_7f4a_7c15);
    for _ in 0..200_000 {
        let raw = random_line(&mut rng);
        let Some(line) = preprocess(&raw) else {
            continue;
        };
        assert!(
            !line.chars().any(|c| c < ' ' || c == '\u{7f}' || c == '#'),
            "{line:?}"
        );
        assert!(!line.trim_matches(' ').is_empty());
        exercise_token(&line);
        // parse_line must agree with a plain split on spaces and tabs.
        let tokens: Vec<&str> = line.split(is_space).filter(|t| !t.is_empty()).collect();
        match parse_line(&line) {
            Ok(command) => {
                let mut expected = tokens.clone();
                if let Some(id) = command.id {
                    assert_eq!(expected.remove(0).parse::<u32>(), Ok(id));
                }
                assert_eq!(expected[0], command.name);
                assert_eq!(expected[1..], command.args);
                let mut args = Args::new(&command.args);
                let _ = (args.color(), args.vertex(19), args.int(), args.uint());
                let _ = (args.float(), args.boolean(), args.string(), args.finish());
                let _ = (args.opt_string(), args.remaining());
            }
            Err(e) => {
                // Only an id can fail: alone, or too big for u32.
                assert!(tokens[0].bytes().all(|b| b.is_ascii_digit()), "{line:?}");
                match tokens[0].parse::<u32>() {
                    Ok(id) => assert_eq!((tokens.len(), e.id), (1, Some(id))),
                    Err(_) => assert_eq!(e, ParseError::new(None, ID_OUT_OF_RANGE)),
                }
            }
        }
        for token in tokens {
            exercise_token(token);
        }
    }
}
