//! The GTP server loop: reads lines from an input, answers each command on
//! an output, flushing after every response.
//!
//! Input is read by a separate thread so that GoGui's interrupt protocol
//! works: a line `# interrupt` that arrives while a command runs sets the
//! engine's stop flag instead of being queued (GoGui documentation,
//! "Interrupting commands"). Every other line is queued and answered in order.

use super::engine::Engine;
use super::parse::{self, ParseError};
use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::sync::Arc;

/// Formats a response: `=id body` or `?id message`, then an empty line.
/// Empty lines inside the body would end the response early, so they are
/// dropped.
pub fn format_response(id: Option<u32>, result: &Result<String, String>) -> String {
    let (mark, body) = match result {
        Ok(b) => ('=', b.as_str()),
        Err(m) => ('?', m.as_str()),
    };
    let mut out = String::with_capacity(body.len() + 16);
    out.push(mark);
    if let Some(id) = id {
        out.push_str(&id.to_string());
    }
    out.push(' ');
    for (i, line) in body.lines().enumerate() {
        // A leading empty line is kept (multi-line answers start on their
        // own line); any later one would end the response.
        if i > 0 {
            if line.trim().is_empty() {
                continue;
            }
            out.push('\n');
        }
        out.push_str(line);
    }
    out.push_str("\n\n");
    out
}

/// Whether a raw line is GoGui's interrupt request.
fn is_interrupt(raw: &[u8]) -> bool {
    raw.trim_ascii() == b"# interrupt"
}

/// Answers one raw input line; returns the response, or `None` for lines
/// that get none (empty, comment-only).
pub fn handle_line(engine: &mut Engine, raw: &[u8]) -> Option<String> {
    let line = parse::preprocess(raw)?;
    let response = match parse::parse_line(&line) {
        Ok(cmd) => {
            log::debug!("command: {line}");
            let result = engine.execute(&cmd);
            format_response(cmd.id, &result)
        }
        Err(ParseError { id, message }) => format_response(id, &Err(message)),
    };
    Some(response)
}

/// Serves GTP until `quit` or the end of the input.
pub fn run(
    engine: &mut Engine,
    input: impl BufRead + Send + 'static,
    mut output: impl Write,
) -> std::io::Result<()> {
    let (tx, rx) = mpsc::channel::<Vec<u8>>();
    let stop = engine.stop.clone();
    // Lines read but not yet answered. An interrupt counts only while some
    // command is running or queued, so one that arrives while the engine is
    // idle cannot cut short a later command.
    let pending = Arc::new(AtomicUsize::new(0));
    let reader_pending = pending.clone();
    std::thread::spawn(move || {
        let mut input = input;
        loop {
            let mut raw = Vec::new();
            match input.read_until(b'\n', &mut raw) {
                Ok(0) | Err(_) => break,
                Ok(_) => {
                    if raw.last() == Some(&b'\n') {
                        raw.pop();
                    }
                    if is_interrupt(&raw) {
                        if reader_pending.load(Ordering::SeqCst) > 0 {
                            stop.store(true, Ordering::SeqCst);
                        }
                        continue;
                    }
                    reader_pending.fetch_add(1, Ordering::SeqCst);
                    if tx.send(raw).is_err() {
                        break;
                    }
                }
            }
        }
    });
    for raw in rx {
        let response = handle_line(engine, &raw);
        // Cleared once the command is over: an interrupt stops the command
        // that was running (or queued) when it arrived, and no other.
        pending.fetch_sub(1, Ordering::SeqCst);
        engine.stop.store(false, Ordering::SeqCst);
        if let Some(response) = response {
            output.write_all(response.as_bytes())?;
            output.flush()?;
        }
        if engine.quit {
            break;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn responses_are_framed() {
        assert_eq!(format_response(Some(3), &Ok("x".into())), "=3 x\n\n");
        assert_eq!(format_response(None, &Ok(String::new())), "= \n\n");
        assert_eq!(format_response(None, &Err("bad".into())), "? bad\n\n");
        assert_eq!(
            format_response(Some(1), &Ok("a\n\nb\n".into())),
            "=1 a\nb\n\n"
        );
        assert_eq!(format_response(None, &Ok("\nrow".into())), "= \nrow\n\n");
    }
}
