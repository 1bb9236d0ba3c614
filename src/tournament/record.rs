//! What a match leaves on disk: one SGF file per game and the results
//! table, both in gogui-twogtp's layout so that its tools (`gogui-twogtp
//! -analyze DIR/match.dat`) read them: `DIR/match-N.sgf` and
//! `DIR/match.dat`.
//!
//! SGF (FF\[4\], <https://www.red-bean.com/sgf/>): root properties GM, FF,
//! CA, AP, SZ, KM (Go), PB, PW, DT, RE (`B+3.5`, `W+R` resignation, `B+T`
//! time, `W+F` forfeit, `0` draw), RU, TM and OT with a clock, and a root
//! comment with the engines and the reason the game ended; then the moves.
//! A pass is the empty value `B[]`.
//!
//! The table: `# Key: value` properties in key order, a `#` line, the
//! tab-separated header `#GAME RES_B RES_W RES_R ALT DUP LEN TIME_B TIME_W
//! CPU_B CPU_W ERR ERR_MSG` and one row per game, sorted by game number.
//! As in gogui-twogtp, B and W in these columns name the two *profiles*
//! (`--black` and `--white`), not the colours: in an alternated game
//! (ALT 1, the `--white` profile playing Black) the results are written
//! with B and W exchanged and TIME_B is the `--black` profile's time. RES_B
//! and RES_W are the engines' own `final_score` claims (the official result
//! when the game did not end by scoring), RES_R the official result. ERR is
//! 1 for a forfeit (crash, illegal move, protocol error); ERR_MSG holds the
//! reason of any loss that was not on the board.

use super::game::{Ending, GameRecord};
use super::seat::Seat;
use crate::games::parse_vertex;
use crate::games::spec::GameSpec;
use crate::go::Color;
use std::fmt::Write;

/// Everything the headers need to know about the match.
pub struct MatchInfo<'a> {
    pub spec: GameSpec,
    /// Seat 0 is `--black`, seat 1 `--white`.
    pub seats: [&'a Seat; 2],
    pub referee: Option<&'a Seat>,
    pub clock: Option<super::clock::TimeControl>,
    pub date: String,
}

/// Escapes an SGF Text/SimpleText value.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c == ']' || c == '\\' {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// Side of the board in SGF terms (square boards only: every game here
/// is shown on a square board).
fn board_size(spec: &GameSpec) -> usize {
    match *spec {
        GameSpec::Go { size, .. } => size,
        _ => crate::games::session::open(spec).display_size(),
    }
}

fn sgf_point(mv: &str, size: usize) -> String {
    match parse_vertex(mv) {
        Some((col, row)) if col < size && row < size => {
            let a = |i: usize| char::from(b'a' + i as u8);
            format!("{}{}", a(col), a(size - 1 - row))
        }
        // `pass` (the arbiter spells nothing else that is not a vertex).
        _ => String::new(),
    }
}

/// The SGF record of one game.
pub fn sgf(info: &MatchInfo, g: &GameRecord) -> String {
    let size = board_size(&info.spec);
    let mut out = String::new();
    let _ = write!(
        out,
        "(;GM[1]FF[4]CA[UTF-8]AP[tesuji:{}]SZ[{size}]",
        env!("CARGO_PKG_VERSION")
    );
    if let GameSpec::Go { komi_x2, .. } = info.spec {
        let _ = write!(out, "KM[{}]RU[Chinese]", komi_x2 as f64 / 2.0);
    } else {
        let _ = write!(out, "GN[{}]", escape(&info.spec.to_string()));
    }
    let _ = write!(
        out,
        "PB[{}]PW[{}]DT[{}]RE[{}]",
        escape(&g.names[0]),
        escape(&g.names[1]),
        info.date,
        escape(&g.result)
    );
    if let Some(tc) = info.clock {
        let _ = write!(out, "TM[{}]", tc.main.as_secs());
        if tc.stones > 0 {
            let _ = write!(out, "OT[{}/{} Canadian]", tc.stones, tc.byo_time.as_secs());
        }
    }
    let by_colour = |alternated: bool, i: usize| info.seats[if alternated { 1 - i } else { i }];
    let mut comment = String::new();
    for (i, colour) in ["Black", "White"].iter().enumerate() {
        let seat = by_colour(g.alternated, i);
        let _ = writeln!(
            comment,
            "{colour}: {} ({} {}): {}",
            seat.profile.name,
            seat.label,
            seat.version,
            seat.profile.command.join(" ")
        );
    }
    if let Some(r) = info.referee {
        let _ = writeln!(comment, "Referee: {}", r.profile.name);
    }
    let _ = writeln!(comment, "Result: {}", g.result);
    let _ = writeln!(
        comment,
        "Claims: Black {}, White {}",
        g.claims[0], g.claims[1]
    );
    let _ = writeln!(
        comment,
        "Time: Black {:.1} s, White {:.1} s",
        g.time[0], g.time[1]
    );
    if !g.note.is_empty() {
        let _ = writeln!(comment, "{}", g.note);
    }
    let _ = write!(out, "C[{}]", escape(comment.trim_end()));
    for (k, (color, mv)) in g.moves.iter().enumerate() {
        out.push_str(if k % 8 == 0 { "\n;" } else { ";" });
        let _ = write!(out, "{}[{}]", color.letter(), sgf_point(mv, size));
    }
    out.push_str(")\n");
    out
}

/// `B+R` → `W+R` and so on (gogui-twogtp's `inverseResult`).
fn invert(result: &str) -> String {
    result
        .chars()
        .map(|c| match c {
            'B' => 'W',
            'W' => 'B',
            c => c,
        })
        .collect()
}

/// gogui's number format: at most one decimal, no trailing zero.
fn num(x: f64) -> String {
    let r = (x * 10.0).round() / 10.0;
    format!("{r}")
}

/// The index of an earlier game with the same moves, for DUP (`-` if
/// none). gogui-twogtp also looks for rotated copies; exact repeats are
/// what deterministic engines produce.
fn duplicate(g: &GameRecord, earlier: &[&GameRecord]) -> String {
    earlier
        .iter()
        .find(|e| e.index < g.index && e.moves == g.moves)
        .map_or("-".into(), |e| e.index.to_string())
}

/// The whole results table for the games so far (any order).
pub fn dat(info: &MatchInfo, games: &[&GameRecord]) -> String {
    let mut props: Vec<(String, String)> = Vec::new();
    for (seat, colour) in info.seats.iter().zip(["Black", "White"]) {
        props.push((colour.into(), seat.profile.name.clone()));
        props.push((format!("{colour}Command"), seat.profile.command.join(" ")));
        props.push((format!("{colour}Label"), seat.label.clone()));
        props.push((format!("{colour}Version"), seat.version.clone()));
    }
    props.push(("Date".into(), info.date.clone()));
    props.push(("Game".into(), info.spec.to_string()));
    if let GameSpec::Go { komi_x2, size } = info.spec {
        props.push(("Komi".into(), format!("{}", komi_x2 as f64 / 2.0)));
        props.push(("Size".into(), size.to_string()));
    }
    props.push((
        "Referee".into(),
        info.referee.map_or("-".into(), |r| r.profile.name.clone()),
    ));
    props.push((
        "TimeSettings".into(),
        info.clock.map_or("-".into(), |tc| tc.gtp_settings()),
    ));
    props.push(("Xml".into(), "0".into()));
    props.sort();
    let mut out = String::new();
    for (k, v) in props {
        let _ = writeln!(out, "# {k}: {}", v.replace('\n', " "));
    }
    out.push_str("#\n#GAME\tRES_B\tRES_W\tRES_R\tALT\tDUP\tLEN\tTIME_B\tTIME_W\tCPU_B\tCPU_W\tERR\tERR_MSG\n");
    let mut sorted: Vec<&GameRecord> = games.to_vec();
    sorted.sort_by_key(|g| g.index);
    for g in &sorted {
        let flip = |r: &str| {
            if g.alternated {
                invert(r)
            } else {
                r.to_string()
            }
        };
        // Columns by profile: the --black profile played White when alternated.
        let (b, w) = if g.alternated { (1, 0) } else { (0, 1) };
        let err = matches!(g.ending, Ending::Forfeit(_));
        let msg = match g.ending {
            Ending::Scored => String::new(),
            _ => g.note.replace(['\t', '\n'], " "),
        };
        let _ = writeln!(
            out,
            "{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}",
            g.index,
            flip(&g.claims[b]),
            flip(&g.claims[w]),
            flip(&g.result),
            u8::from(g.alternated),
            duplicate(g, &sorted),
            g.moves.len(),
            num(g.time[b]),
            num(g.time[w]),
            num(g.cpu[b]),
            num(g.cpu[w]),
            u8::from(err),
            msg
        );
    }
    out
}

/// Today's date as `YYYY-MM-DD` (UTC), for DT and the table.
pub fn today() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let (y, m, d) = civil_from_days((secs / 86_400) as i64);
    format!("{y:04}-{m:02}-{d:02}")
}

/// Days since 1970-01-01 to a proleptic Gregorian date (H. Hinnant's
/// `civil_from_days`).
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

/// Who won, from the colour letters of a result; `None` for a draw or an
/// unknown result.
pub fn winner(result: &str) -> Option<Color> {
    match result.as_bytes().first() {
        Some(b'B') => Some(Color::Black),
        Some(b'W') => Some(Color::White),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
        assert_eq!(civil_from_days(19_723), (2024, 1, 1));
        assert_eq!(today().len(), 10);
    }

    #[test]
    fn small_helpers() {
        assert_eq!(invert("B+3.5"), "W+3.5");
        assert_eq!(invert("W+R"), "B+R");
        assert_eq!(invert("0"), "0");
        assert_eq!(num(17.0), "17");
        assert_eq!(num(8.94), "8.9");
        assert_eq!(escape("a]b\\c"), "a\\]b\\\\c");
        assert_eq!(sgf_point("A1", 9), "ai");
        assert_eq!(sgf_point("J9", 9), "ia");
        assert_eq!(sgf_point("pass", 9), "");
        assert_eq!(winner("W+T"), Some(Color::White));
        assert_eq!(winner("0"), None);
    }
}
