//! One engine at the table: its profile, the running process (started on
//! demand, restarted after any failure) and what the runner learnt about it
//! at start-up (name, version, which optional commands it knows).

use crate::engines::EngineProfile;
use crate::gtp_client::{ClientOptions, GtpClient, StderrMode};
use std::io;
use std::time::Duration;

/// An engine profile and, while it runs, its process.
pub struct Seat {
    pub profile: EngineProfile,
    client: Option<GtpClient>,
    stderr: StderrMode,
    /// Longest wait for any answer but `genmove`.
    timeout: Duration,
    /// From `name` and `version` at the first start ("?" if unanswered).
    pub label: String,
    pub version: String,
    /// Whether the engine knows `time_settings` / `time_left` / `final_score`.
    pub knows_time: bool,
    pub knows_time_left: bool,
    pub knows_final_score: bool,
    /// CPU seconds of the process when the current game began.
    cpu_mark: f64,
    /// CPU seconds of processes killed during the current game.
    cpu_lost: f64,
    /// Processes started so far (1 + restarts).
    pub starts: u32,
}

impl Seat {
    pub fn new(profile: EngineProfile, stderr: StderrMode, timeout: Duration) -> Seat {
        Seat {
            label: profile.name.clone(),
            version: "?".into(),
            profile,
            client: None,
            stderr,
            timeout,
            knows_time: false,
            knows_time_left: false,
            knows_final_score: false,
            cpu_mark: 0.0,
            cpu_lost: 0.0,
            starts: 0,
        }
    }

    /// The running engine, started (and its `gtp_init` sent) if need be.
    pub fn client(&mut self) -> Result<&mut GtpClient, String> {
        if self.client.is_none() {
            let options = ClientOptions {
                timeout: self.timeout,
                stderr: self.stderr,
            };
            let mut c =
                GtpClient::spawn_with(&self.profile, &options).map_err(|e| e.to_string())?;
            self.starts += 1;
            let mut known = |cmd: &str| matches!(c.send(&format!("known_command {cmd}")), Ok(Ok(a)) if a == "true");
            self.knows_time = known("time_settings");
            self.knows_time_left = known("time_left");
            self.knows_final_score = known("final_score");
            if let Ok(Ok(name)) = c.send("name") {
                self.label = name;
            }
            if let Ok(Ok(version)) = c.send("version") {
                self.version = version;
            }
            self.cpu_mark = cpu_seconds(c.pid()).unwrap_or(0.0);
            self.client = Some(c);
        }
        Ok(self.client.as_mut().expect("just started"))
    }

    /// Whether a process is running (it may still have died unnoticed).
    pub fn running(&self) -> bool {
        self.client.is_some()
    }

    /// Stops the engine (killing it if it does not quit at once); the next
    /// [`Seat::client`] starts a fresh one.
    pub fn restart(&mut self) {
        if let Some(c) = self.client.take() {
            if let Some(cpu) = cpu_seconds(c.pid()) {
                self.cpu_lost += (cpu - self.cpu_mark).max(0.0);
            }
            drop(c); // kills it
        }
        self.cpu_mark = 0.0;
    }

    /// Starts counting CPU time for a new game.
    pub fn start_game(&mut self) {
        self.cpu_lost = 0.0;
        self.cpu_mark = self
            .client
            .as_ref()
            .and_then(|c| cpu_seconds(c.pid()))
            .unwrap_or(0.0);
    }

    /// CPU seconds the engine used since [`Seat::start_game`], as far as
    /// the operating system tells (0 where it does not).
    pub fn game_cpu(&self) -> f64 {
        let now = self
            .client
            .as_ref()
            .and_then(|c| cpu_seconds(c.pid()))
            .map_or(0.0, |cpu| (cpu - self.cpu_mark).max(0.0));
        now + self.cpu_lost
    }

    /// Sends `quit` and waits for the engine to exit.
    pub fn quit(&mut self) {
        if let Some(c) = self.client.take() {
            let _ = c.quit();
        }
    }

    /// One command, waiting at most `timeout` for its answer.
    pub fn send_with(
        &mut self,
        cmd: &str,
        timeout: Duration,
    ) -> Result<io::Result<Result<String, String>>, String> {
        let default = self.timeout;
        let c = self.client()?;
        c.set_timeout(timeout);
        let answer = c.send(cmd);
        c.set_timeout(default);
        Ok(answer)
    }
}

/// User plus system CPU seconds of process `pid`, from `/proc/PID/stat`
/// (Linux; fields 14 and 15, in clock ticks of 1/100 s, the USER_HZ of
/// every mainstream Linux). `None` elsewhere or once the process is gone.
pub fn cpu_seconds(pid: u32) -> Option<f64> {
    let text = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The command name (field 2) is in parentheses and may hold spaces.
    let rest = &text[text.rfind(')')? + 1..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    // `rest` starts at field 3, so fields 14 and 15 are at 11 and 12.
    let utime: f64 = fields.get(11)?.parse().ok()?;
    let stime: f64 = fields.get(12)?.parse().ok()?;
    Some((utime + stime) / 100.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(target_os = "linux")]
    #[test]
    fn reads_our_own_cpu_time() {
        let before = cpu_seconds(std::process::id()).expect("/proc is readable");
        let mut x = 0u64;
        let start = std::time::Instant::now();
        while start.elapsed() < Duration::from_millis(100) {
            x = x.wrapping_mul(31).wrapping_add(7);
        }
        std::hint::black_box(x);
        let after = cpu_seconds(std::process::id()).unwrap();
        assert!(after >= before);
        assert_eq!(cpu_seconds(u32::MAX), None);
    }
}
