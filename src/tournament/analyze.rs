//! `tesuji match --analyze FILE.dat`: the closing report of a match again,
//! from its results table (ours, or gogui-twogtp's, which has the same
//! columns): wins, losses and draws of the two profiles and the Elo
//! difference with its 95% interval ([`super::elo`]).
//!
//! The official result is RES_R; where it is `?` (gogui-twogtp without a
//! referee) the players' own results are used when they agree. In the table
//! B and W name the `# Black:` and `# White:` programs, whatever colours they
//! had, so `B+...` is a win of the first.

use super::elo::{format_elo, Tally};

/// What a results table says about a match.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Analysis {
    pub names: [String; 2],
    /// From the first program's view.
    pub first: Tally,
    /// Per program: losses on time, and games with ERR = 1 lost.
    pub time_losses: [u32; 2],
    pub errors: [u32; 2],
    /// Rows with no usable result.
    pub unknown: u32,
}

/// Reads a `.dat` table.
pub fn analyze(text: &str) -> Result<Analysis, String> {
    let mut a = Analysis::default();
    let mut columns: Option<Vec<&str>> = None;
    for line in text.lines() {
        if let Some(header) = line.strip_prefix("#GAME") {
            let mut cols = vec!["GAME"];
            cols.extend(header.split('\t').filter(|c| !c.is_empty()));
            columns = Some(cols);
        } else if let Some(prop) = line.strip_prefix("# ") {
            if let Some((key, value)) = prop.split_once(": ") {
                match key {
                    "Black" => a.names[0] = value.to_string(),
                    "White" => a.names[1] = value.to_string(),
                    _ => {}
                }
            }
        } else if !line.starts_with('#') && !line.trim().is_empty() {
            let cols = columns.as_ref().ok_or("no #GAME header line")?;
            let fields: Vec<&str> = line.split('\t').collect();
            let get = |name: &str| {
                cols.iter()
                    .position(|c| *c == name)
                    .and_then(|i| fields.get(i).copied())
                    .unwrap_or("?")
            };
            let mut result = get("RES_R");
            if result == "?" && get("RES_B") == get("RES_W") {
                result = get("RES_B");
            }
            let winner = match result.as_bytes().first() {
                Some(b'B') => 0,
                Some(b'W') => 1,
                _ if result == "0" => {
                    a.first.draws += 1;
                    continue;
                }
                _ => {
                    a.unknown += 1;
                    continue;
                }
            };
            if winner == 0 {
                a.first.wins += 1;
            } else {
                a.first.losses += 1;
            }
            if result.ends_with("+T") {
                a.time_losses[1 - winner] += 1;
            }
            if get("ERR") == "1" {
                a.errors[1 - winner] += 1;
            }
        }
    }
    if columns.is_none() {
        return Err("no #GAME header line".into());
    }
    Ok(a)
}

/// The report `tesuji match` prints at the end of a match.
pub fn report(a: &Analysis) -> String {
    let t = a.first;
    let other = Tally {
        wins: t.losses,
        draws: t.draws,
        losses: t.wins,
    };
    let mut out = format!("{} games\n", t.games());
    for (i, tally) in [t, other].iter().enumerate() {
        out.push_str(&format!(
            "{:<20} {:>4} wins {:>4} losses {:>4} draws  score {:.1}%  (lost on time {}, forfeits {})\n",
            a.names[i],
            tally.wins,
            tally.losses,
            tally.draws,
            100.0 * tally.score(),
            a.time_losses[i],
            a.errors[i],
        ));
    }
    if a.unknown > 0 {
        out.push_str(&format!("{} games without a result\n", a.unknown));
    }
    if let Some(e) = t.elo() {
        out.push_str(&format!(
            "Elo {} - {}: {} (95% interval {} to {})\n",
            a.names[0],
            a.names[1],
            format_elo(e.elo),
            format_elo(e.low),
            format_elo(e.high)
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const TABLE: &str = "# Black: one\n# BlackCommand: x\n# White: two\n#\n\
        #GAME\tRES_B\tRES_W\tRES_R\tALT\tDUP\tLEN\tTIME_B\tTIME_W\tCPU_B\tCPU_W\tERR\tERR_MSG\n\
        0\tB+R\tB+R\tB+R\t0\t-\t31\t17\t8.9\t0\t0\t0\t\n\
        1\tW+3.5\tW+3.5\t?\t1\t-\t40\t1\t1\t0\t0\t0\t\n\
        2\tB+T\tB+T\tB+T\t0\t-\t3\t1\t61\t0\t0\t0\tWhite (two) lost on time\n\
        3\tW+F\tW+F\tW+F\t1\t-\t3\t1\t1\t0\t0\t1\tBlack (one) illegal move\n\
        4\t0\t0\t0\t0\t-\t81\t1\t1\t0\t0\t0\t\n\
        5\tB+1\tW+1\t?\t0\t-\t81\t1\t1\t0\t0\t0\t\n";

    #[test]
    fn reads_a_table() {
        let a = analyze(TABLE).unwrap();
        assert_eq!(a.names, ["one".to_string(), "two".to_string()]);
        assert_eq!(
            a.first,
            Tally {
                wins: 2,
                draws: 1,
                losses: 2
            }
        );
        assert_eq!(a.time_losses, [0, 1]);
        assert_eq!(a.errors, [1, 0]);
        assert_eq!(a.unknown, 1);
        let r = report(&a);
        assert!(r.contains("5 games"), "{r}");
        assert!(
            r.contains("Elo one - two: 0 (95% interval -275 to +275)"),
            "{r}"
        );
        assert!(r.contains("1 games without a result"), "{r}");
        assert!(analyze("0\tB+R\n").is_err());
        assert!(analyze("").is_err());
    }
}
