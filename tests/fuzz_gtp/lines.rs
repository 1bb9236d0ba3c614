//! The fuzz stream's generator: a reproducible xorshift source and the
//! random, GTP-ish and command-shaped lines built from it.

use super::*;

/// xorshift64* (Vigna): small, fast, and reproducible from its seed.
pub(crate) struct Rng(pub(crate) u64);

impl Rng {
    pub(crate) fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// Uniform in `0..n` (n > 0; the bias is irrelevant here).
    pub(crate) fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    pub(crate) fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }

    pub(crate) fn pick<'a, T: ?Sized>(&mut self, items: &[&'a T]) -> &'a T {
        items[self.below(items.len())]
    }

    /// Any byte but LF.
    pub(crate) fn byte(&mut self) -> u8 {
        loop {
            let b = self.next() as u8;
            if b != b'\n' {
                return b;
            }
        }
    }
}

pub(crate) const COLORS: &[&str] = &["b", "w", "black", "white", "B", "WHITE", "Black", "W"];
pub(crate) const BAD_COLORS: &[&str] = &["x", "bl", "blackk", "wh1te", "bw", "1"];
pub(crate) const WORDS: &[&str] = &[
    "simple",
    "positional",
    "superko",
    "psk",
    "dead",
    "alive",
    "seki",
    "none",
    "absolute",
    "byoyomi",
    "canadian",
    "never",
    "true",
    "false",
    "play",
    "name",
    "list_commands",
    "tesuji-ko_rule",
    "\u{fffd}",
    "é",
    "日本",
    "=",
    "?",
];
pub(crate) const COLUMNS: &[u8] = b"ABCDEFGHJKLMNOPQRSTUVWXYZabcdefghjklmnopqrstuvwxyzIi";
pub(crate) const SPACES: &[&[u8]] = &[b" ", b" ", b" ", b"  ", b"\t", b" \t ", b"\t\t"];
pub(crate) const CONTROLS: &[u8] = b"\x00\x01\x07\x08\x0b\x0c\x0d\x1b\x1f\x7f";

/// Commands that the stream must not run (see the module comment).
pub(crate) fn refused(name: &str, has_args: bool) -> bool {
    match name.to_ascii_lowercase().as_str() {
        "quit" | "genmove" | "reg_genmove" => true,
        // The stream sets small solver limits first; none may raise them.
        "loadsgf" | "printsgf" | "tesuji-solver_limits" => has_args,
        _ => false,
    }
}

pub(crate) fn color(rng: &mut Rng) -> String {
    if rng.chance(90) {
        rng.pick(COLORS).into()
    } else {
        rng.pick(BAD_COLORS).into()
    }
}

pub(crate) fn vertex(rng: &mut Rng) -> String {
    match rng.below(20) {
        0 => "pass".into(),
        1 => "PASS".into(),
        2 => rng
            .pick(&[
                "i5", "a0", "a01", "aa1", "a26", "z99", "1a", "a", "5", "-a1", "a-1",
            ])
            .into(),
        3 => format!(
            "{}{}",
            COLUMNS[rng.below(COLUMNS.len())] as char,
            rng.below(30)
        ),
        // Mostly points of small boards, where stones meet.
        _ => {
            let size = *rng.pick(&[&5, &5, &7, &9, &25]);
            format!(
                "{}{}",
                COLUMNS[rng.below(size)] as char,
                1 + rng.below(size)
            )
        }
    }
}

pub(crate) fn integer(rng: &mut Rng) -> String {
    match rng.below(12) {
        0 => rng
            .pick(&[
                "0",
                "-1",
                "+7",
                "2147483648",
                "4294967295",
                "4294967296",
                "9223372036854775808",
                "99999999999999999999999",
                "007",
                "1.5",
                "1e3",
                "x",
            ])
            .into(),
        1 => format!("-{}", rng.below(10)),
        2 => (rng.below(626)).to_string(),
        _ => rng.below(30).to_string(),
    }
}

pub(crate) fn float(rng: &mut Rng) -> String {
    match rng.below(6) {
        0 => rng
            .pick(&[
                "nan", "inf", "-inf", "1e999", "-0", ".5", "7.", "1e-300", "0x10", "6,5", "+1e1",
            ])
            .into(),
        1 => format!("-{}.{}", rng.below(100), rng.below(10)),
        _ => format!("{}.{}", rng.below(20), rng.below(10)),
    }
}

/// A token that is not meant to parse as anything.
pub(crate) fn junk(rng: &mut Rng) -> Vec<u8> {
    const PUNCTUATION: &[u8] = b"!\"$%&'()*+,-./0123456789:;<=>?@[\\]^_`{|}~abcXYZ";
    let len = 1 + rng.below(12);
    (0..len)
        .map(|_| match rng.below(4) {
            0 => rng.byte(),
            _ => PUNCTUATION[rng.below(PUNCTUATION.len())],
        })
        .filter(|&b| b != b' ' && b != b'\t')
        .collect()
}

/// Arguments for `name`: usually of the right types, sometimes not.
pub(crate) fn arguments(rng: &mut Rng, name: &str) -> Vec<Vec<u8>> {
    let mut args: Vec<String> = match name {
        "play" | "trymove" | "is_legal" => vec![color(rng), vertex(rng)],
        "boardsize" => vec![match rng.below(10) {
            0 => integer(rng),
            1 => "25".into(),
            2 => (1 + rng.below(4)).to_string(),
            _ => rng.pick(&["5", "7", "9"]).to_string(),
        }],
        "komi" => vec![float(rng)],
        "color" | "countlib" | "findlib" | "attack" | "defend" | "ladder_attack" => {
            vec![vertex(rng)]
        }
        "solve" | "tesuji-gfx_solve" => {
            let mut v = vec![
                rng.pick(&["capture", "escape", "capture", "escape", "x"])
                    .to_string(),
                vertex(rng),
            ];
            for _ in 0..rng.below(4) {
                let key = rng.pick(&["algo", "nodes", "time", "escape", "bogus", ""]);
                let value = match key {
                    "algo" => rng.pick(&["dfpn", "pns", ""]).to_string(),
                    "time" => float(rng),
                    _ => integer(rng),
                };
                v.push(format!("{key}={value}"));
            }
            v
        }
        "list_stones" | "all_legal" | "captures" | "genmove" | "reg_genmove" => {
            vec![color(rng)]
        }
        "fixed_handicap" | "place_free_handicap" => vec![integer(rng)],
        "set_free_handicap" => (0..rng.below(8)).map(|_| vertex(rng)).collect(),
        "time_settings" => (0..3).map(|_| integer(rng)).collect(),
        "time_left" => vec![color(rng), float(rng), integer(rng)],
        "kgs-time_settings" => {
            let mut v = vec![rng
                .pick(&["none", "absolute", "byoyomi", "canadian", "NONE", "fischer"])
                .to_string()];
            v.extend((0..rng.below(4)).map(|_| integer(rng)));
            v
        }
        "tesuji-ko_rule" | "final_status_list" | "known_command" => (0..rng.below(2))
            .map(|_| rng.pick(WORDS).to_string())
            .collect(),
        _ => Vec::new(),
    };
    // Mutations: drop one, add one, or replace one by anything.
    match rng.below(10) {
        0 if !args.is_empty() => {
            args.remove(rng.below(args.len()));
        }
        1 => {
            let extra = match rng.below(4) {
                0 => vertex(rng),
                1 => integer(rng),
                2 => rng.pick(WORDS).into(),
                _ => color(rng),
            };
            args.push(extra);
        }
        2 if !args.is_empty() => {
            let at = rng.below(args.len());
            args[at] = String::from_utf8_lossy(&junk(rng)).into_owned();
        }
        _ => {}
    }
    args.into_iter().map(String::into_bytes).collect()
}

/// Commands that change or inspect the board, chosen more often than the
/// others so that games get played.
pub(crate) const BOARD_COMMANDS: &[&str] = &[
    "play",
    "play",
    "play",
    "play",
    "trymove",
    "popgo",
    "undo",
    "is_legal",
    "all_legal",
    "countlib",
    "findlib",
    "color",
    "captures",
    "list_stones",
    "showboard",
    "final_score",
    "tesuji-ko_rule",
    "fixed_handicap",
    "place_free_handicap",
    "set_free_handicap",
];

pub(crate) const RESETS: &[&str] = &[
    "boardsize",
    "clear_board",
    "fixed_handicap",
    "place_free_handicap",
    "set_free_handicap",
];

pub(crate) fn command_name(rng: &mut Rng, names: &[&'static str]) -> Vec<u8> {
    let mut name = if rng.chance(50) {
        rng.pick(BOARD_COMMANDS)
    } else {
        names[rng.below(names.len())]
    };
    // Commands that start a new game are rarer, so that games get long
    // enough for captures and ko.
    if RESETS.contains(&name) && rng.chance(90) {
        name = "play";
    }
    match rng.below(20) {
        // Case changes, typos and truncations make unknown commands.
        0 => name.to_ascii_uppercase().into_bytes(),
        1 => {
            let mut b = name.as_bytes().to_vec();
            let at = rng.below(b.len() + 1);
            b.insert(at, b"_x-9#"[rng.below(5)]);
            b
        }
        2 => name.as_bytes()[..rng.below(name.len())].to_vec(),
        3 => junk(rng),
        _ => name.as_bytes().to_vec(),
    }
}

pub(crate) fn id(rng: &mut Rng) -> Option<Vec<u8>> {
    match rng.below(10) {
        0..=4 => None,
        5 => Some(
            rng.pick(&[
                "0",
                "00",
                "007",
                "4294967295",
                "4294967296",
                "99999999999999999999",
                "-1",
                "+1",
                "1a",
                "0x1",
            ])
            .as_bytes()
            .to_vec(),
        ),
        _ => Some(rng.below(1_000_000).to_string().into_bytes()),
    }
}

/// A line that looks like a command, possibly with damage.
pub(crate) fn gtp_line(rng: &mut Rng, names: &[&'static str]) -> Vec<u8> {
    let mut line = Vec::new();
    if rng.chance(10) {
        line.extend_from_slice(rng.pick(SPACES));
    }
    if let Some(id) = id(rng) {
        line.extend(id);
        line.extend_from_slice(rng.pick(SPACES));
    }
    let name = command_name(rng, names);
    let args = arguments(rng, &String::from_utf8_lossy(&name));
    line.extend(name);
    for a in args {
        line.extend_from_slice(rng.pick(SPACES));
        line.extend(a);
    }
    if rng.chance(5) {
        line.extend_from_slice(rng.pick(SPACES));
    }
    if rng.chance(5) {
        line.extend_from_slice(b" # comment");
    }
    if rng.chance(5) {
        let at = rng.below(line.len() + 1);
        line.insert(at, CONTROLS[rng.below(CONTROLS.len())]);
    }
    if rng.chance(5) {
        let at = rng.below(line.len() + 1);
        line.insert(at, b'#');
    }
    if rng.chance(10) {
        line.push(b'\r');
    }
    line
}

pub(crate) fn random_bytes(rng: &mut Rng, len: usize) -> Vec<u8> {
    (0..len).map(|_| rng.byte()).collect()
}

pub(crate) fn gtpish_bytes(rng: &mut Rng) -> Vec<u8> {
    const ALPHABET: &[u8] = b"0123456789  \t\t#\r\x00\x01\x7f\xff\xc3\xa9abcwpqsz_-=?";
    let len = rng.below(40);
    (0..len)
        .map(|_| ALPHABET[rng.below(ALPHABET.len())])
        .collect()
}

pub(crate) fn long_line(rng: &mut Rng, kind: usize) -> Vec<u8> {
    let n = LONG + rng.below(LONG);
    match kind % 6 {
        0 => random_bytes(rng, n),
        1 => {
            let mut l = b"known_command ".to_vec();
            l.extend(std::iter::repeat_n(b'a', n));
            l
        }
        2 => {
            let mut l: Vec<u8> = (0..n).map(|_| b'0' + rng.below(10) as u8).collect();
            l.extend_from_slice(b" name");
            l
        }
        3 => (0..n)
            .map(|_| *rng.pick(&[&b' ', &b'\t', &b'\r']))
            .collect(),
        4 => {
            let mut l = b"77 play b".to_vec();
            while l.len() < n {
                l.extend_from_slice(b" a1");
            }
            l
        }
        _ => {
            let mut l = b"# ".to_vec();
            l.extend(random_bytes(rng, n));
            l
        }
    }
}

/// The lines of the stream, with the refused commands already left out.
pub(crate) fn generate(names: &[&'static str]) -> Vec<Vec<u8>> {
    let seed = match std::env::var("TESUJI_FUZZ_SEED") {
        Ok(s) => s.parse().expect("TESUJI_FUZZ_SEED must be a u64"),
        Err(_) => SEED,
    };
    let mut rng = Rng(seed | 1);
    let mut lines = Vec::with_capacity(LINES);
    while lines.len() < LINES {
        let k = lines.len();
        let line = if k % (LINES / LONG_LINES) == LINES / LONG_LINES / 2 {
            long_line(&mut rng, k / (LINES / LONG_LINES))
        } else {
            match rng.below(100) {
                0..=14 => {
                    let len = rng.below(100);
                    random_bytes(&mut rng, len)
                }
                15..=24 => gtpish_bytes(&mut rng),
                25..=94 => gtp_line(&mut rng, names),
                95..=97 => rng
                    .pick(&[&b""[..], b" ", b"\t", b"\r", b"# interrupt", b"#", b"  # x"])
                    .to_vec(),
                _ => {
                    let mut l = b"# ".to_vec();
                    let len = rng.below(30);
                    l.extend(random_bytes(&mut rng, len));
                    l
                }
            }
        };
        if let Some(text) = preprocess(&line) {
            let mut tokens = text.split(' ').filter(|t| !t.is_empty());
            let first = tokens.next().unwrap_or_default();
            let name = if first.bytes().all(|b| b.is_ascii_digit()) {
                tokens.next().unwrap_or_default()
            } else {
                first
            };
            if refused(name, tokens.next().is_some()) {
                continue;
            }
        }
        lines.push(line);
    }
    lines
}
