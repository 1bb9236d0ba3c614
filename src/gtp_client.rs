//! A small synchronous GTP controller: starts an engine from an
//! [`EngineProfile`] and exchanges commands with it.
//!
//! Used by the differential tests against GNU Go and meant to be reused by
//! the match runner. It speaks GTP version 2 as a controller: one command
//! line out, then one response in, which is `=` or `?`, an optional numeric
//! id, the result text, and an empty line that ends it.
//!
//! Engines can hang or die. A blocking read on the engine's stdout would then
//! hang the test or the match with it, so stdout is read by a helper thread
//! that forwards lines over a channel, and the controller waits on that
//! channel with a deadline. A response that does not arrive in time is an
//! [`io::ErrorKind::TimedOut`] error; after any I/O error the client refuses
//! further commands, because the conversation can no longer be trusted to be
//! in step.

use crate::engines::EngineProfile;
use std::io::{self, BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

/// What happens to the engine's stderr.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StderrMode {
    /// Discarded: keeps test output readable.
    Null,
    /// Shared with the controller's stderr: useful when debugging an engine.
    Inherit,
}

/// Options for [`GtpClient::spawn_with`].
#[derive(Clone, Debug)]
pub struct ClientOptions {
    /// Longest wait for one complete response.
    pub timeout: Duration,
    pub stderr: StderrMode,
}

impl Default for ClientOptions {
    fn default() -> Self {
        ClientOptions {
            timeout: Duration::from_secs(10),
            stderr: StderrMode::Null,
        }
    }
}

/// A running GTP engine.
pub struct GtpClient {
    name: String,
    child: Child,
    /// `None` once `quit` has closed it.
    stdin: Option<ChildStdin>,
    /// Lines of the engine's stdout, without the line terminator. The sender
    /// is dropped at end of file.
    lines: Receiver<io::Result<String>>,
    timeout: Duration,
    /// Set after an I/O error or a timeout: the stream may be out of step.
    broken: bool,
}

impl GtpClient {
    /// Starts the engine with default options and sends its `gtp_init`.
    pub fn spawn(profile: &EngineProfile) -> io::Result<GtpClient> {
        GtpClient::spawn_with(profile, &ClientOptions::default())
    }

    /// Starts the engine and sends its `gtp_init` commands; an init command
    /// that the engine rejects is an error.
    pub fn spawn_with(profile: &EngineProfile, options: &ClientOptions) -> io::Result<GtpClient> {
        let mut cmd = Command::new(profile.program());
        cmd.args(profile.args())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(match options.stderr {
                StderrMode::Null => Stdio::null(),
                StderrMode::Inherit => Stdio::inherit(),
            });
        if let Some(dir) = &profile.workdir {
            cmd.current_dir(dir);
        }
        let mut child = cmd.spawn().map_err(|e| {
            io::Error::new(
                e.kind(),
                format!(
                    "cannot start engine `{}` ({}): {e}",
                    profile.name,
                    profile.command.join(" ")
                ),
            )
        })?;
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().expect("stdout was piped");
        let (tx, rx) = mpsc::channel();
        thread::Builder::new()
            .name(format!("gtp-reader-{}", profile.name))
            .spawn(move || {
                let mut reader = BufReader::new(stdout);
                loop {
                    let mut line = String::new();
                    match reader.read_line(&mut line) {
                        Ok(0) => break,
                        Ok(_) => {
                            let trimmed = line.trim_end_matches(['\n', '\r']).to_string();
                            if tx.send(Ok(trimmed)).is_err() {
                                break; // the client is gone
                            }
                        }
                        Err(e) => {
                            let _ = tx.send(Err(e));
                            break;
                        }
                    }
                }
            })?;
        let mut client = GtpClient {
            name: profile.name.clone(),
            child,
            stdin,
            lines: rx,
            timeout: options.timeout,
            broken: false,
        };
        for init in &profile.gtp_init {
            if let Err(msg) = client.send(init)? {
                return Err(io::Error::other(format!(
                    "engine `{}` rejected init command `{init}`: {msg}",
                    client.name
                )));
            }
        }
        Ok(client)
    }

    /// The profile name this engine was started from.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The engine's process id (for its CPU time).
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Changes the longest wait for one response.
    pub fn set_timeout(&mut self, timeout: Duration) {
        self.timeout = timeout;
    }

    /// Sends one command and waits for its response.
    ///
    /// `Ok(Ok(body))` for a success (`=`) and `Ok(Err(message))` for a
    /// failure (`?`). The status character, any id and the single space
    /// after them are removed; lines of a multi-line answer are joined with
    /// `\n` and trailing white space is trimmed, so an empty answer is `""`.
    /// `Err` is for the conversation itself failing: the engine exited, the
    /// answer was not GTP, or no complete answer came within the timeout.
    pub fn send(&mut self, cmd: &str) -> io::Result<Result<String, String>> {
        // An empty line or a comment gets no response at all, so sending
        // one would only end in a timeout.
        let trimmed = cmd.trim();
        if cmd.contains('\n')
            || cmd.contains('\r')
            || trimmed.is_empty()
            || trimmed.starts_with('#')
        {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!("not a single-line GTP command: {cmd:?}"),
            ));
        }
        if self.broken {
            return Err(io::Error::other(format!(
                "engine `{}`: connection unusable after an earlier error",
                self.name
            )));
        }
        let result = self.exchange(cmd);
        if result.is_err() {
            self.broken = true;
        }
        result
    }

    /// Like [`send`](Self::send), but a `?` answer is an error too; for
    /// commands that must work, such as `boardsize`.
    pub fn send_ok(&mut self, cmd: &str) -> io::Result<String> {
        match self.send(cmd)? {
            Ok(body) => Ok(body),
            Err(msg) => Err(io::Error::other(format!(
                "engine `{}` failed `{cmd}`: {msg}",
                self.name
            ))),
        }
    }

    fn exchange(&mut self, cmd: &str) -> io::Result<Result<String, String>> {
        let name = &self.name;
        let stdin = self.stdin.as_mut().ok_or_else(|| {
            io::Error::new(
                io::ErrorKind::BrokenPipe,
                format!("engine `{name}`: already quit"),
            )
        })?;
        stdin
            .write_all(format!("{cmd}\n").as_bytes())
            .and_then(|()| stdin.flush())
            .map_err(|e| {
                io::Error::new(
                    e.kind(),
                    format!("engine `{name}`: cannot send `{cmd}`: {e}"),
                )
            })?;
        let deadline = Instant::now() + self.timeout;
        let mut lines: Vec<String> = Vec::new();
        loop {
            let line = self.next_line(deadline, cmd)?;
            if lines.is_empty() {
                // Blank lines between responses are tolerated; the first
                // other line must open a response.
                if line.trim().is_empty() {
                    continue;
                }
                lines.push(line);
            } else if line.trim().is_empty() {
                break;
            } else {
                lines.push(line);
            }
        }
        parse_response(&lines).map_err(|e| {
            io::Error::new(
                io::ErrorKind::InvalidData,
                format!(
                    "engine `{}` answered `{cmd}` with non-GTP output: {e}",
                    self.name
                ),
            )
        })
    }

    fn next_line(&self, deadline: Instant, cmd: &str) -> io::Result<String> {
        let left = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(left) {
            Ok(Ok(line)) => Ok(line),
            Ok(Err(e)) => Err(io::Error::new(
                e.kind(),
                format!("engine `{}`: reading the answer to `{cmd}`: {e}", self.name),
            )),
            Err(RecvTimeoutError::Timeout) => Err(io::Error::new(
                io::ErrorKind::TimedOut,
                format!(
                    "engine `{}` gave no complete answer to `{cmd}` within {:?}",
                    self.name, self.timeout
                ),
            )),
            Err(RecvTimeoutError::Disconnected) => Err(io::Error::new(
                io::ErrorKind::UnexpectedEof,
                format!(
                    "engine `{}` closed its output while answering `{cmd}`",
                    self.name
                ),
            )),
        }
    }

    /// Sends `quit`, closes the engine's input and waits (up to the timeout)
    /// for it to exit, killing it if it does not.
    pub fn quit(mut self) -> io::Result<()> {
        let answer = if self.broken {
            Ok(())
        } else {
            self.send("quit").map(|_| ())
        };
        self.stdin = None; // EOF for engines that ignore `quit`
        let deadline = Instant::now() + self.timeout;
        loop {
            if self.child.try_wait()?.is_some() {
                return answer;
            }
            if Instant::now() >= deadline {
                self.child.kill()?;
                self.child.wait()?;
                return Err(io::Error::new(
                    io::ErrorKind::TimedOut,
                    format!("engine `{}` did not exit after quit", self.name),
                ));
            }
            thread::sleep(Duration::from_millis(5));
        }
    }
}

impl Drop for GtpClient {
    /// Never leaves an engine process behind, whatever path the caller took.
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// Turns the lines of one response (without its closing empty line) into
/// `Ok(body)` for `=` or `Err(message)` for `?`.
fn parse_response(lines: &[String]) -> Result<Result<String, String>, String> {
    let first = lines.first().ok_or("empty response")?;
    let success = match first.chars().next() {
        Some('=') => true,
        Some('?') => false,
        _ => return Err(format!("expected `=` or `?`, got {first:?}")),
    };
    // Drop the status character, an optional id, and one separating space.
    let rest = first[1..].trim_start_matches(|c: char| c.is_ascii_digit());
    let rest = rest
        .strip_prefix(' ')
        .or_else(|| rest.strip_prefix('\t'))
        .unwrap_or(rest);
    let mut body = rest.to_string();
    for line in &lines[1..] {
        body.push('\n');
        body.push_str(line);
    }
    let body = body.trim_end().to_string();
    Ok(if success { Ok(body) } else { Err(body) })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(text: &[&str]) -> Vec<String> {
        text.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn parses_success_failure_ids_and_multiline() {
        assert_eq!(parse_response(&lines(&["= C3 D4"])), Ok(Ok("C3 D4".into())));
        assert_eq!(parse_response(&lines(&["="])), Ok(Ok("".into())));
        assert_eq!(parse_response(&lines(&["= "])), Ok(Ok("".into())));
        assert_eq!(parse_response(&lines(&["=12 pass"])), Ok(Ok("pass".into())));
        assert_eq!(parse_response(&lines(&["=12"])), Ok(Ok("".into())));
        assert_eq!(
            parse_response(&lines(&["? illegal move"])),
            Ok(Err("illegal move".into()))
        );
        assert_eq!(
            parse_response(&lines(&["?7 cannot undo"])),
            Ok(Err("cannot undo".into()))
        );
        assert_eq!(
            parse_response(&lines(&["= first", "  second  "])),
            Ok(Ok("first\n  second".into()))
        );
    }

    #[test]
    fn rejects_non_gtp_output() {
        assert!(parse_response(&lines(&["hello"])).is_err());
        assert!(parse_response(&[]).is_err());
    }

    #[cfg(unix)]
    fn shell(script: &str) -> EngineProfile {
        EngineProfile {
            name: "fake".into(),
            command: vec!["/bin/sh".into(), "-c".into(), script.into()],
            workdir: None,
            gtp_init: vec![],
            description: None,
        }
    }

    /// A toy engine in shell: answers `name`, fails everything else, and
    /// exits on `quit`, like a (very small) GTP engine.
    #[cfg(unix)]
    const FAKE_ENGINE: &str = r#"
        while read -r cmd rest; do
            case "$cmd" in
                name) printf '= fake\n\n' ;;
                echo) printf '= %s\n\n' "$rest" ;;
                lines) printf '= one\ntwo\n\n' ;;
                quit) printf '=\n\n'; exit 0 ;;
                *) printf '? unknown command\n\n' ;;
            esac
        done
    "#;

    #[cfg(unix)]
    #[test]
    fn talks_to_a_fake_engine() {
        let mut profile = shell(FAKE_ENGINE);
        profile.gtp_init = vec!["name".into()];
        let mut c = GtpClient::spawn(&profile).unwrap();
        assert_eq!(c.name(), "fake");
        assert_eq!(c.send("name").unwrap(), Ok("fake".into()));
        assert_eq!(c.send("echo a b").unwrap(), Ok("a b".into()));
        assert_eq!(c.send("lines").unwrap(), Ok("one\ntwo".into()));
        assert_eq!(c.send("bogus").unwrap(), Err("unknown command".into()));
        assert!(c.send_ok("bogus").is_err());
        assert_eq!(c.send_ok("name").unwrap(), "fake");
        for bad in ["two\nlines", "", "  ", "# comment"] {
            assert_eq!(c.send(bad).unwrap_err().kind(), io::ErrorKind::InvalidInput);
        }
        // Refused input is not an I/O failure: the client is still usable.
        assert_eq!(c.send("name").unwrap(), Ok("fake".into()));
        c.quit().unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn rejected_init_command_is_an_error() {
        let mut profile = shell(FAKE_ENGINE);
        profile.gtp_init = vec!["name".into(), "komi 7".into()];
        let err = GtpClient::spawn(&profile).err().expect("init must fail");
        assert!(err.to_string().contains("komi 7"), "{err}");
    }

    #[cfg(unix)]
    #[test]
    fn hung_engine_times_out() {
        let options = ClientOptions {
            timeout: Duration::from_millis(200),
            ..ClientOptions::default()
        };
        let mut c = GtpClient::spawn_with(&shell("sleep 30"), &options).unwrap();
        let start = Instant::now();
        let err = c.send("name").unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::TimedOut);
        assert!(start.elapsed() < Duration::from_secs(5));
        // Out of step now: later commands are refused rather than mismatched.
        assert!(c.send("name").is_err());
        // Dropping kills the sleeping process instead of waiting 30 s.
    }

    #[cfg(unix)]
    #[test]
    fn engine_that_exits_is_an_error() {
        let mut c = GtpClient::spawn(&shell("exit 0")).unwrap();
        let err = c.send("name").unwrap_err();
        assert!(
            matches!(
                err.kind(),
                io::ErrorKind::UnexpectedEof | io::ErrorKind::BrokenPipe
            ),
            "{err:?}"
        );
    }

    #[cfg(unix)]
    #[test]
    fn garbage_output_is_an_error() {
        let mut c = GtpClient::spawn(&shell("read x; echo garbage; echo; sleep 5")).unwrap();
        let err = c.send("name").unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::InvalidData, "{err}");
    }

    #[test]
    fn missing_program_is_an_error() {
        let profile = EngineProfile {
            name: "nothing".into(),
            command: vec!["/nonexistent/engine".into()],
            workdir: None,
            gtp_init: vec![],
            description: None,
        };
        let err = GtpClient::spawn(&profile).err().expect("spawn must fail");
        assert!(err.to_string().contains("nothing"), "{err}");
    }
}
