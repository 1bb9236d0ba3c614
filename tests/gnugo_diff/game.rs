//! One game of the GNU Go differential test: the move chooser, `play` and
//! `undo` sent to both engines, and the comparison of their answers.

use super::*;

// One game.

/// Why a `play` is tried: for statistics, and to know which tries are part of
/// a scripted sequence.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    Random,
    AnyVertex,
    Occupied,
    Suicide,
    Capture,
    SameColour,
    /// Immediate recapture of a single stone that was not taken in a ko
    /// shape (usually suicide).
    Recapture,
    /// Immediate retake of a ko: illegal under every ko rule.
    KoRetake,
    /// Retake of a ko some moves later, after other moves (threats).
    KoFight,
    /// Retake of a ko after pass, pass: legal under simple ko, a positional
    /// superko violation.
    SuperkoRetake,
    Pass,
    /// A pass that belongs to a superko probe: does not end the game.
    ScriptedPass,
}

#[derive(Clone, Copy, Debug)]
pub(crate) enum Action {
    Play {
        colour: Color,
        point: Option<Point>, // None: pass
        kind: Kind,
    },
    Undo,
    /// `fixed_handicap` on a board with stones: must fail.
    LateHandicap(usize),
}

impl Kind {
    pub(crate) fn label(self) -> Option<&'static str> {
        match self {
            Kind::Occupied => Some("occupied point"),
            Kind::Suicide => Some("suicide unless it captures"),
            Kind::Recapture => Some("recapture"),
            Kind::KoRetake => Some("immediate ko retake"),
            Kind::KoFight => Some("ko retake after other moves"),
            Kind::SuperkoRetake => Some("ko retake after pass, pass"),
            Kind::SameColour => Some("same colour again"),
            Kind::ScriptedPass => Some("superko probe"),
            _ => None,
        }
    }
}

/// A single-stone capture the opponent may try to take back.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Probe {
    /// Whose turn it is to recapture.
    pub(crate) who: Color,
    /// Where the captured stone stood.
    pub(crate) point: Point,
    /// The capturing stone is alone with this point as its only liberty:
    /// a ko, where the immediate retake is illegal.
    pub(crate) real_ko: bool,
}

/// Everything `undo` must restore.
#[derive(Clone, Debug)]
pub(crate) struct State {
    pub(crate) pos: Position,
    pub(crate) to_move: Color,
    /// Set right after a move that captured exactly one stone.
    pub(crate) ko_probe: Option<Probe>,
    /// A ko seen recently: who may retake it, where, and for how many more
    /// moves to keep trying. This makes ko fights with threats in between.
    pub(crate) ko_fight: Option<(Color, Point, u32)>,
    /// Consecutive unscripted passes.
    pub(crate) passes: u32,
    pub(crate) accepted: u32,
}

/// The game could not go on: the engines disagree.
pub(crate) struct Mismatch(pub(crate) String);

/// Failures that end a game.
pub(crate) enum Stop {
    Mismatch(Mismatch),
    Io(io::Error),
}

impl From<io::Error> for Stop {
    fn from(e: io::Error) -> Stop {
        Stop::Io(e)
    }
}

pub(crate) struct Session {
    pub(crate) spec: SessionSpec,
    pub(crate) mode: KoMode,
    pub(crate) reference: GtpClient,
    pub(crate) candidate: GtpClient,
    pub(crate) rng: Rng,
    pub(crate) seed: u64,
    pub(crate) stats: Stats,
    pub(crate) reports: Vec<String>,
    pub(crate) transcript: Vec<String>,
}

impl Session {
    /// Sends `cmd` to both engines and records it in the transcript.
    pub(crate) fn both(
        &mut self,
        cmd: &str,
    ) -> io::Result<(Result<String, String>, Result<String, String>)> {
        self.transcript.push(cmd.to_string());
        let r = self.reference.send(cmd)?;
        let c = self.candidate.send(cmd)?;
        Ok((r, c))
    }

    /// A command both engines must accept (setup commands).
    pub(crate) fn both_ok(&mut self, cmd: &str) -> Result<(), Stop> {
        let (r, c) = self.both(cmd)?;
        if let Err(msg) = r {
            return Err(Stop::Io(io::Error::other(format!(
                "reference `{}` failed `{cmd}`: {msg}",
                self.reference.name()
            ))));
        }
        if c.is_err() {
            return Err(self.mismatch(cmd, &r, &c));
        }
        Ok(())
    }

    pub(crate) fn annotate(&mut self, note: &str) {
        if let Some(last) = self.transcript.last_mut() {
            let _ = write!(last, "  # {note}");
        }
    }

    pub(crate) fn mismatch(
        &mut self,
        cmd: &str,
        r: &Result<String, String>,
        c: &Result<String, String>,
    ) -> Stop {
        let answers = format!(
            "reference `{}` answered {}, candidate `{}` answered {}",
            self.reference.name(),
            format_answer(r),
            self.candidate.name(),
            format_answer(c)
        );
        self.annotate(&format!("MISMATCH: {answers}"));
        Stop::Mismatch(Mismatch(format!("`{cmd}`: {answers}")))
    }

    /// Both engines' stones, which must agree; returns the position.
    pub(crate) fn compare_stones(&mut self) -> Result<Position, Stop> {
        let size = self.spec.size;
        let mut sets = Vec::new();
        for colour in [Color::Black, Color::White] {
            let cmd = format!("list_stones {}", colour.name());
            let r = self.reference.send_ok(&cmd)?;
            let c = self.candidate.send(&cmd)?;
            let rs = parse_vertices(&r, size).map_err(|e| {
                Stop::Io(io::Error::other(format!(
                    "reference answer to `{cmd}`: {e}"
                )))
            })?;
            let cs = match &c {
                Ok(body) => parse_vertices(body, size),
                Err(msg) => Err(format!("failed: {msg}")),
            };
            match cs {
                Ok(cs) if cs == rs => {}
                Ok(cs) => {
                    let desc = format!(
                        "`{cmd}`: reference `{}` has {}, candidate `{}` has {}; only reference: {}, only candidate: {}",
                        self.reference.name(),
                        format_set(&rs),
                        self.candidate.name(),
                        format_set(&cs),
                        format_set(&rs.difference(&cs).copied().collect()),
                        format_set(&cs.difference(&rs).copied().collect()),
                    );
                    self.transcript.push(format!("{cmd}  # MISMATCH: {desc}"));
                    return Err(Stop::Mismatch(Mismatch(desc)));
                }
                Err(e) => {
                    let desc = format!(
                        "`{cmd}`: candidate `{}` gave a bad answer ({e}); reference has {}",
                        self.candidate.name(),
                        format_set(&rs)
                    );
                    self.transcript.push(format!("{cmd}  # MISMATCH: {desc}"));
                    return Err(Stop::Mismatch(Mismatch(desc)));
                }
            }
            sets.push(rs);
        }
        Ok(Position::from_stones(size, &sets[0], &sets[1]))
    }

    pub(crate) fn play_game(&mut self, game: usize) -> Result<(), Stop> {
        let size = self.spec.size;
        self.transcript.clear();
        self.transcript.push(format!(
            "# game {game}: {size}x{size}, ko rule {}, seed {:#x}",
            self.mode.tesuji_arg(),
            self.seed
        ));
        self.transcript
            .push(format!("tesuji-ko_rule {}", self.mode.tesuji_arg()));
        self.both_ok(&format!("boardsize {size}"))?;
        self.both_ok("clear_board")?;
        self.stats.games += 1;

        let mut state = State {
            pos: Position::empty(size),
            to_move: Color::Black,
            ko_probe: None,
            ko_fight: None,
            passes: 0,
            accepted: 0,
        };

        // An invalid handicap (fewer than 2 or more than 9 stones, or any
        // on a board smaller than 7x7) must be refused.
        if self.rng.percent(6) {
            let n = if size < 7 {
                2 + self.rng.below(3)
            } else if self.rng.percent(50) {
                1
            } else {
                10
            };
            self.handicap_must_fail(n, "invalid number of stones")?;
        }

        if self.spec.max_handicap >= 2
            && !state.pos.has_stones()
            && self.rng.percent(self.spec.handicap_percent)
        {
            let n = 2 + self.rng.below(self.spec.max_handicap - 1);
            let cmd = format!("fixed_handicap {n}");
            let (r, c) = self.both(&cmd)?;
            let body = match &r {
                Ok(body) => body.clone(),
                Err(msg) => {
                    return Err(Stop::Io(io::Error::other(format!(
                        "reference failed `{cmd}`: {msg}"
                    ))))
                }
            };
            let rs = parse_vertices(&body, size).map_err(io::Error::other)?;
            let cs = c
                .as_ref()
                .map_err(|e| e.clone())
                .and_then(|b| parse_vertices(b, size));
            if cs.as_ref() != Ok(&rs) {
                return Err(self.mismatch(&cmd, &r, &c));
            }
            state.pos = self.compare_stones()?;
            if state.pos.stones(Color::Black) != rs || state.pos.has_stones_of(Color::White) {
                return Err(Stop::Io(io::Error::other(format!(
                    "reference answered `{cmd}` with {} but lists other stones",
                    format_set(&rs)
                ))));
            }
            state.to_move = Color::White;
            self.stats.handicap_games += 1;
        }

        let mut history: Vec<State> = Vec::new();
        let mut script: VecDeque<Action> = VecDeque::new();
        let mut rejected_in_row = 0;
        let max_actions = self.spec.move_limit as usize * 12;
        for _ in 0..max_actions {
            if script.is_empty() && (state.accepted >= self.spec.move_limit || state.passes >= 2) {
                break;
            }
            // What `undo` must bring back, taken before `choose` consumes the
            // pending ko probe: after undoing the move that followed a ko
            // capture the retake is tried (and must fail) again.
            let before = state.clone();
            let action = match script.pop_front() {
                Some(a) => a,
                None => self.choose(&mut state, &history, &mut script, rejected_in_row),
            };
            match action {
                Action::Play {
                    colour,
                    point,
                    kind,
                } => {
                    let accepted = self.play(&mut state, colour, point, kind)?;
                    if accepted {
                        history.push(before);
                    }
                    rejected_in_row = if accepted { 0 } else { rejected_in_row + 1 };
                }
                Action::Undo => self.undo(&mut state, &mut history)?,
                Action::LateHandicap(n) => self.handicap_must_fail(n, "board not empty")?,
            }
        }
        Ok(())
    }

    /// Sends a `fixed_handicap` that GTP says must fail; if either engine
    /// accepts it, the game's boards can no longer be trusted.
    pub(crate) fn handicap_must_fail(&mut self, n: usize, why: &str) -> Result<(), Stop> {
        self.stats.handicap_probes += 1;
        let cmd = format!("fixed_handicap {n}");
        let (r, c) = self.both(&cmd)?;
        if r.is_ok() != c.is_ok() {
            return Err(self.mismatch(&cmd, &r, &c));
        }
        if r.is_ok() {
            let desc = format!("both engines accepted `{cmd}`, which must fail ({why})");
            self.annotate(&format!("RULE VIOLATION: {desc}"));
            return Err(Stop::Mismatch(Mismatch(desc)));
        }
        self.annotate(&format!("rejected: {why}"));
        Ok(())
    }

    /// Picks the next try for an unscripted turn.
    pub(crate) fn choose(
        &mut self,
        state: &mut State,
        history: &[State],
        script: &mut VecDeque<Action>,
        rejected_in_row: u32,
    ) -> Action {
        let rng = &mut self.rng;
        let colour = state.to_move;
        let play = |colour, point, kind| Action::Play {
            colour,
            point,
            kind,
        };

        // Right after a single-stone capture the opponent tries to take back
        // at once (a ko retake if the shape is a ko), or probes positional
        // superko with pass, pass, retake: legal under simple ko, but the
        // retake repeats the position before the capture.
        if let Some(Probe {
            who,
            point,
            real_ko,
        }) = state.ko_probe.take()
        {
            if who == colour && real_ko {
                state.ko_fight = Some((who, point, KO_FIGHT_MOVES));
                let r = rng.below(100);
                if r < 35 {
                    script.push_back(play(who, None, Kind::ScriptedPass));
                    script.push_back(play(who.opp(), None, Kind::ScriptedPass));
                    script.push_back(play(who, Some(point), Kind::SuperkoRetake));
                    return script.pop_front().expect("just pushed");
                }
                if r < 85 {
                    return play(who, Some(point), Kind::KoRetake);
                }
            } else if who == colour && rng.percent(60) {
                return play(who, Some(point), Kind::Recapture);
            }
        }
        // Later in a ko fight, after a threat and its answer, the retake
        // is legal again under simple ko (and positional superko, since the
        // threats changed the board).
        if let Some((who, point, left)) = state.ko_fight {
            let moves_since = left < KO_FIGHT_MOVES;
            if who == colour && moves_since && state.pos.get(point).is_none() && rng.percent(40) {
                return play(who, Some(point), Kind::KoFight);
            }
        }

        if rejected_in_row >= 25 {
            return play(colour, None, Kind::Pass); // the board is (nearly) full
        }

        let pos = &state.pos;
        let random_empty = |rng: &mut Rng, colour| match rng.pick(&pos.empty_points()) {
            Some(p) => play(colour, Some(p), Kind::Random),
            None => play(colour, None, Kind::Pass),
        };
        let r = rng.below(1000);
        match r {
            0..=29 => {
                // Undo with nothing to undo must fail; try that now and then.
                if !history.is_empty() || rng.percent(15) {
                    Action::Undo
                } else {
                    random_empty(rng, colour)
                }
            }
            30..=69 => play(colour, None, Kind::Pass),
            70..=89 => match rng.pick(&pos.empty_points()) {
                Some(p) => play(colour.opp(), Some(p), Kind::SameColour),
                None => play(colour, None, Kind::Pass),
            },
            90..=94 if pos.has_stones() => Action::LateHandicap(2 + rng.below(3)),
            95..=179 => match rng.pick(&pos.occupied_points()) {
                Some(p) => play(colour, Some(p), Kind::Occupied),
                None => random_empty(rng, colour),
            },
            180..=299 => match rng.pick(&pos.suicide_candidates(colour)) {
                Some(p) => play(colour, Some(p), Kind::Suicide),
                None => random_empty(rng, colour),
            },
            300..=449 => match rng.pick(&pos.capturing_moves(colour)) {
                Some(p) => play(colour, Some(p), Kind::Capture),
                None => random_empty(rng, colour),
            },
            450..=549 => {
                let n = pos.size as u8;
                let p = (rng.below(n as usize) as u8, rng.below(n as usize) as u8);
                play(colour, Some(p), Kind::AnyVertex)
            }
            _ => random_empty(rng, colour),
        }
    }

    /// Sends one `play`; returns whether it was accepted.
    pub(crate) fn play(
        &mut self,
        state: &mut State,
        colour: Color,
        point: Option<Point>,
        kind: Kind,
    ) -> Result<bool, Stop> {
        let mv = point.map_or("pass".to_string(), vertex_name);
        let cmd = format!("play {} {mv}", colour.letter());
        let (r, c) = self.both(&cmd)?;
        self.stats.plays += 1;
        match kind {
            Kind::Occupied => self.stats.occupied_tries += 1,
            Kind::Suicide => self.stats.suicide_tries += 1,
            Kind::Capture => self.stats.capture_tries += 1,
            Kind::SameColour => self.stats.same_colour_twice += 1,
            Kind::Recapture => self.stats.recaptures += 1,
            Kind::KoRetake => self.stats.ko_retakes += 1,
            Kind::KoFight => self.stats.ko_fight_retakes += 1,
            Kind::SuperkoRetake => self.stats.superko_probes += 1,
            Kind::Pass | Kind::ScriptedPass => self.stats.passes += 1,
            Kind::Random | Kind::AnyVertex => {}
        }
        if r.is_ok() != c.is_ok() {
            return Err(self.mismatch(&cmd, &r, &c));
        }
        if r.is_err() {
            self.stats.illegal += 1;
            match kind {
                Kind::Suicide => self.stats.suicide_rejected += 1,
                Kind::Recapture => self.stats.recaptures_rejected += 1,
                Kind::KoRetake => self.stats.ko_retakes_rejected += 1,
                Kind::KoFight => self.stats.ko_fight_rejected += 1,
                Kind::SuperkoRetake => self.stats.superko_rejected += 1,
                _ => {}
            }
        }
        // Some tries have a known answer whatever the engines say; checking
        // it catches errors that both engines share (and harness bugs).
        let expected = match kind {
            Kind::Occupied | Kind::KoRetake => Some(false),
            Kind::SuperkoRetake => Some(self.mode == KoMode::Simple),
            _ => None,
        };
        let verdict = if r.is_ok() { "accepted" } else { "rejected" };
        match kind.label() {
            Some(label) => self.annotate(&format!("{label}: {verdict}")),
            None if r.is_err() => self.annotate(verdict),
            None => {}
        }
        if let Some(legal) = expected {
            if legal != r.is_ok() {
                let desc = format!(
                    "both engines {verdict} `{cmd}` ({}), which is {} under {} ko",
                    kind.label().unwrap_or(""),
                    if legal { "legal" } else { "illegal" },
                    self.mode.tesuji_arg()
                );
                self.annotate(&format!("RULE VIOLATION: {desc}"));
                return Err(Stop::Mismatch(Mismatch(desc)));
            }
        }
        if r.is_err() {
            return Ok(false);
        }
        self.stats.accepted += 1;
        let new_pos = self.compare_stones()?;
        let captured: Vec<Point> = state
            .pos
            .stones(colour.opp())
            .difference(&new_pos.stones(colour.opp()))
            .copied()
            .collect();
        state.ko_probe = match (point, captured.as_slice()) {
            (Some(p), [single]) => Some(Probe {
                who: colour.opp(),
                point: *single,
                real_ko: new_pos.liberties(p) == BTreeSet::from([*single])
                    && new_pos
                        .neighbours(p)
                        .iter()
                        .all(|&n| new_pos.get(n) != Some(colour)),
            }),
            _ => None,
        };
        state.ko_fight = match state.ko_fight {
            Some((who, p, left)) if left > 1 => Some((who, p, left - 1)),
            _ => None,
        };
        state.pos = new_pos;
        state.to_move = colour.opp();
        state.accepted += 1;
        state.passes = match kind {
            Kind::Pass => state.passes + 1,
            Kind::ScriptedPass => state.passes,
            _ => 0,
        };
        Ok(true)
    }

    pub(crate) fn undo(&mut self, state: &mut State, history: &mut Vec<State>) -> Result<(), Stop> {
        self.stats.undos += 1;
        let (r, c) = self.both("undo")?;
        if r.is_ok() != c.is_ok() {
            return Err(self.mismatch("undo", &r, &c));
        }
        if r.is_err() {
            self.annotate("rejected");
            if !history.is_empty() {
                return Err(Stop::Io(io::Error::other(format!(
                    "reference refused undo with {} moves played",
                    history.len()
                ))));
            }
            return Ok(());
        }
        self.stats.undos_accepted += 1;
        let pos = self.compare_stones()?;
        let previous = history.pop().ok_or_else(|| {
            Stop::Mismatch(Mismatch(
                "`undo` accepted by both engines with no move to take back".into(),
            ))
        })?;
        if pos != previous.pos {
            return Err(Stop::Io(io::Error::other(
                "after undo the reference's stones differ from the position before the last move",
            )));
        }
        *state = previous;
        Ok(())
    }
}
