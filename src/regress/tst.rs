//! Parsing a `.tst` file into setup commands and tests (the format the
//! module doc of [`super`] describes).

use regex::Regex;

/// What a `#? [...]` line asks of a test's answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Expectation {
    /// The regular expression between the brackets, without a leading `!`.
    pub pattern: String,
    /// `[!...]`: the answer must not match.
    pub negated: bool,
    /// `]*`: the test is a known failure.
    pub expect_fail: bool,
    /// `]&`: run the test, show the answer, do not judge it.
    pub ignored: bool,
}

impl Expectation {
    /// The expectation written back in `.tst` form, e.g. `[1 (A1|B2)]*`.
    pub fn display(&self) -> String {
        format!(
            "[{}{}]{}{}",
            if self.negated { "!" } else { "" },
            self.pattern,
            if self.expect_fail { "*" } else { "" },
            if self.ignored { "&" } else { "" }
        )
    }

    /// Whether `body` (a successful answer) satisfies the pattern.
    /// `Err` when the pattern does not compile.
    pub fn accepts(&self, body: &str) -> Result<bool, String> {
        // `\A` and `\z` rather than `^`/`$`: in multi-line mode (which
        // gogui-regress uses) `^` and `$` also match at line breaks and
        // would no longer force a whole-answer match. The group keeps an
        // alternation such as `0|1 T7` from escaping the anchors.
        // Compiled alone first: a pattern such as `a)|(b` would otherwise
        // close the group early and compile into something unanchored.
        let invalid = |e: regex::Error| format!("invalid regex [{}]: {e}", self.pattern);
        Regex::new(&self.pattern).map_err(invalid)?;
        let re = Regex::new(&format!(r"\A(?ms:{})\z", self.pattern)).map_err(invalid)?;
        Ok(re.is_match(body) != self.negated)
    }
}

/// A numbered test.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Test {
    pub id: u64,
    /// The GTP command without its id.
    pub command: String,
    /// 1-based line number of the command in the file.
    pub line: usize,
    /// `None`: the command only has to succeed.
    pub expected: Option<Expectation>,
}

/// One entry of a `.tst` file, in file order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Item {
    /// An unnumbered command that must succeed.
    Setup {
        line: usize,
        command: String,
    },
    Test(Test),
}

/// A format error in a `.tst` file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    pub line: usize,
    pub message: String,
}

/// Parses the text of a `.tst` file (see the module documentation).
pub fn parse(text: &str) -> Result<Vec<Item>, ParseError> {
    let mut items = Vec::new();
    // True while the previous line was a numbered test still waiting for
    // its `#?` line.
    let mut test_open = false;
    for (index, raw) in text.lines().enumerate() {
        let line_no = index + 1;
        let line = raw.trim();
        let err = |message: String| ParseError {
            line: line_no,
            message,
        };
        if let Some(rest) = line.strip_prefix("#?") {
            let test = match items.last_mut() {
                Some(Item::Test(t)) if test_open => t,
                _ => {
                    return Err(err(
                        "`#?` line without a numbered test command on the line before".into(),
                    ))
                }
            };
            test.expected = parse_expectation(rest.trim()).map_err(err)?;
            test_open = false;
            continue;
        }
        test_open = false;
        let command = clean_command(line);
        if command.is_empty() {
            continue;
        }
        let (first, rest) = command.split_once(' ').unwrap_or((&command, ""));
        if !first.is_empty() && first.bytes().all(|b| b.is_ascii_digit()) {
            let id = first
                .parse::<u64>()
                .map_err(|_| err(format!("test id {first} is too large")))?;
            let rest = rest.trim();
            if rest.is_empty() {
                return Err(err(format!("test {id} has no command")));
            }
            items.push(Item::Test(Test {
                id,
                command: rest.to_string(),
                line: line_no,
                expected: None,
            }));
            test_open = true;
        } else {
            items.push(Item::Setup {
                line: line_no,
                command,
            });
        }
    }
    Ok(items)
}

/// The command part of a line, preprocessed as GTP (section 3.1) says an
/// engine does: everything from a `#` on is a comment, a tab is a space,
/// other control characters are dropped. A comment or blank line gives "".
/// Done here too so that tests are recognised (`1<TAB>attack`) and shown as
/// the engine reads them.
fn clean_command(line: &str) -> String {
    let line = line.split('#').next().unwrap_or("");
    let cleaned: String = line
        .chars()
        .filter_map(|c| match c {
            '\t' => Some(' '),
            c if c.is_control() => None,
            c => Some(c),
        })
        .collect();
    cleaned.trim().to_string()
}

/// Parses what follows `#?` (already trimmed). `Ok(None)` for nothing.
pub(super) fn parse_expectation(spec: &str) -> Result<Option<Expectation>, String> {
    if spec.is_empty() {
        return Ok(None);
    }
    // Flags after the closing bracket, in any order (`regress.awk` accepts
    // `]*`, `]&` and both); white space before them is tolerated.
    let mut body = spec;
    let (mut expect_fail, mut ignored) = (false, false);
    loop {
        body = body.trim_end();
        if let Some(b) = body.strip_suffix('*') {
            expect_fail = true;
            body = b;
        } else if let Some(b) = body.strip_suffix('&') {
            ignored = true;
            body = b;
        } else {
            break;
        }
    }
    let inner = body
        .strip_prefix('[')
        .and_then(|b| b.strip_suffix(']'))
        .ok_or_else(|| {
            format!("expected `#? [PATTERN]` with optional `*` or `&` after it, got `#? {spec}`")
        })?
        .trim();
    let (negated, pattern) = match inner.strip_prefix('!') {
        Some(p) => (true, p),
        None => (false, inner),
    };
    Ok(Some(Expectation {
        pattern: pattern.to_string(),
        negated,
        expect_fail,
        ignored,
    }))
}
