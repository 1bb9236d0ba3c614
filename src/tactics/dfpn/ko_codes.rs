//! GNU Go's ko codes from the three ko models of the capture game.
//!
//! A capture problem is solved under up to three ko models
//! ([`KoModel`]): the opponent of the player to move favoured (it may
//! retake a ko at once), nobody favoured, the mover favoured. Winning
//! under a model implies winning under every model kinder to the mover, so
//! the mover's best model is a code: 1 (wins with the opponent favoured),
//! 2 (wins with nobody favoured), 3 (wins only when favoured), 0 (loses
//! under every model). This is GNU Go's `attack`/`defend` convention, with
//! the models standing for "who needs the first ko threat" (GNU Go's
//! `reading.c`; the problem statement of issue 3).
//!
//! # Lower bounds
//!
//! The code needs the models in turn, and a limit may stop one before the
//! code is known. With [`Options::ko_bound`] (the GTP commands) a short
//! solve under the mover-favoured model comes first, with
//! [`KIND_PROBE_SHARE`] of the limits. Its loss is the answer 0 at once
//! (the kindest model lost, so every model is), and so is a win that met
//! no ko ban its code 1 (it holds under every model). Its other wins are
//! kept, and the model where nobody is favoured comes next, with
//! [`EVEN_FIRST_SHARE`] of the limits: a loss there makes the code 3, a
//! ko-free win 1, and a win through a ko is kept too. Then the model that
//! favours the opponent. When a limit stops a model that could give a
//! better code than the best win kept, the answer is that win's code (3,
//! or 2 after the even model's win), marked with [`KoResult::bound`],
//! instead of no answer. That is a proof of what the code says (code 3:
//! the mover wins when it may retake kos, that is when it wins the ko
//! fights; code 2: it wins when neither side may), and a lower bound on
//! the code: the true code may be better. It is never a wrong claim, only
//! a weaker one, as the interrupt protocol's "best result known so far".
//! When the probe did not win, the opponent-favoured model leaves
//! [`LATE_BOUND_RESERVE`] of the limits for a late bound: if a limit stops
//! it, the kinder models are solved with that rest (`Solver::late_bound`),
//! and answer as above.
//! Without the option (the player's block status) a limit gives no code,
//! and the models go in the order below.
//!
//! The even model goes before the opponent-favoured one because it is
//! often far cheaper (the opponent's retakes make that model's tree the
//! largest) and its ko-free win decides as much. On a real-game attack
//! (Lazarus-gnugo, move 271, `attack N10`) the opponent-favoured model
//! stays open at 3M nodes while the even one proves a win in 11,558
//! (through a ko capture of the lone target stone, so not ko-free): the
//! answer is the bound `2 N11` instead of no answer.
//!
//! A result is *ko-free* when no node it rests on had a ko ban for the
//! player to move and no line of it ended with a ko capture of the lone
//! target stone (`CaptureGame::is_target_ko_capture`): such a capture ends
//! the game only under the models that do not let the defender retake.

use super::plan::Algo;
use super::{role, KoResult, Limit, Limits, Options, Question, SolveResult, Solver, KO_FREE_SHARE};
use crate::go::board::Board;
use crate::go::Color;
use crate::tactics::rules::{KoModel, Problem, Winner};
use arrayvec::ArrayVec;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// Share of the limits (thousandths) of the first, short solve under the
/// model that favours the mover, with [`Options::ko_bound`].
pub const KIND_PROBE_SHARE: u64 = 10;

/// Share of the limits left (thousandths) of the solve with nobody
/// favoured that follows a win of the probe through a ko.
pub const EVEN_FIRST_SHARE: u64 = 250;

/// Share of the limits (thousandths) that the model favouring the
/// opponent leaves, with [`Options::ko_bound`] and no win kept from the
/// probe, for the kinder models after it stops
/// ([`Solver::late_bound`]).
pub const LATE_BOUND_RESERVE: u64 = 100;

/// The least share of the time left (thousandths) that a short solve
/// gets. The shares are meant for the node limit, which decides with the
/// default limits (a round of 3M or 10M nodes takes a few seconds of the
/// 30): a 1% share of 30 s is 300 ms, which a loaded machine can use up
/// before the probe's 30 thousand nodes, and the answer would then depend
/// on the load.
const MIN_TIME_SHARE: u64 = 250;

/// `share` thousandths of the nodes `limits` leave after `used`, and at
/// least [`MIN_TIME_SHARE`] of the time left since `start` (all of it at
/// 1000).
fn share_left(limits: &Limits, used: u64, start: Instant, share: u64) -> Limits {
    let time_share = share.clamp(MIN_TIME_SHARE, 1000);
    Limits {
        nodes: limits.nodes.saturating_sub(used).saturating_mul(share) / 1000,
        time: limits.time.map(|t| {
            t.saturating_sub(start.elapsed())
                .mul_f64(time_share as f64 / 1000.0)
        }),
    }
}

/// The best code proven so far when a limit stops the models: 2 after a
/// win with nobody favoured, 3 after one with the mover favoured.
fn best_known<'a>(
    even: &'a Option<SolveResult>,
    kind: &'a Option<SolveResult>,
) -> Option<(u8, &'a SolveResult)> {
    even.as_ref()
        .map(|r| (2, r))
        .or(kind.as_ref().map(|r| (3, r)))
}

/// One ko-code question: what every solve of one of its models shares.
struct Models<'a> {
    board: &'a Board,
    problem: Problem,
    mover: Color,
    opts: Options,
    limits: Limits,
    start: Instant,
    stop: &'a AtomicBool,
}

impl Models<'_> {
    fn mover_role(&self) -> Winner {
        role(self.mover, self.problem.attacker)
    }

    /// Solves the model that favours `favoured` with `share` thousandths
    /// of the limits left, adding its nodes and what stopped it to `out`.
    fn run(
        &self,
        solver: &mut Solver,
        out: &mut KoResult,
        favoured: Option<Color>,
        share: u64,
    ) -> SolveResult {
        self.run_as(solver, out, favoured, share, self.opts)
    }

    /// [`Models::run`] with other options. A solve counts its root even
    /// with no budget, so none is started without a node left for it: the
    /// result is then the node limit, with no node. One is started after
    /// the time limit, as a result already in the table needs no time.
    fn run_as(
        &self,
        solver: &mut Solver,
        out: &mut KoResult,
        favoured: Option<Color>,
        share: u64,
        opts: Options,
    ) -> SolveResult {
        if self.limits.nodes <= out.nodes {
            out.stopped_by = Some(Limit::Nodes);
            return SolveResult {
                limit_hit: true,
                stopped_by: Some(Limit::Nodes),
                ..SolveResult::default()
            };
        }
        let left = share_left(&self.limits, out.nodes, self.start, share);
        let q = Question {
            board: self.board,
            problem: self.problem,
            model: KoModel { favoured },
            to_move: self.mover,
        };
        let r = solver.solve(q, opts, left, self.stop);
        out.nodes += r.nodes;
        out.stopped_by = r.stopped_by;
        r
    }

    /// `out` answering `code` with the move, line and order of `r` (an
    /// exact code unless `out.bound` is set), or no code.
    fn finish(&self, mut out: KoResult, code: Option<u8>, r: Option<&SolveResult>) -> KoResult {
        out.code = code;
        if let Some(r) = r {
            out.best = r.best;
            out.pv = r.pv.clone();
            out.order = r.order;
        }
        if code.is_some() {
            out.stopped_by = None;
        }
        out.elapsed = self.start.elapsed();
        out
    }

    /// `out` answering the lower bound `code` from `r`: `why` stopped a
    /// model that could have given a better code.
    fn bound(&self, mut out: KoResult, why: Option<Limit>, code: u8, r: &SolveResult) -> KoResult {
        out.bound = why;
        self.finish(out, Some(code), Some(r))
    }

    /// What is known when a limit stops a model: the best code proven so
    /// far (`known`) as a lower bound, else nothing.
    fn stopped(&self, out: KoResult, known: Option<(u8, &SolveResult)>) -> KoResult {
        match known {
            Some((code, r)) => {
                let why = out.stopped_by;
                self.bound(out, why, code, r)
            }
            None => self.finish(out, None, None),
        }
    }
}

impl Solver {
    /// GNU Go's ko code for `mover` moving first (see [`KoResult`] and the
    /// module documentation). Models are tried as few as the answer needs:
    /// the opponent favoured first (a win there is code 1), then the mover
    /// favoured (a loss there is code 0), then nobody (2 or 3). A model's
    /// result without any ko ban holds for all models, so the order gives
    /// the same codes as trying 1, 2, 3 in turn.
    ///
    /// With [`Options::ko_bound`], a short solve of the mover-favoured
    /// model comes first, then after its win through a ko a short one with
    /// nobody favoured, and a limit after such wins answers code 3 or 2 as
    /// a lower bound (see the module documentation).
    ///
    /// With [`Algo::Auto`], a loss under the first model that met a ko ban
    /// is followed by a short λ-df-pn search of the same model for a
    /// ko-free proof of that loss (see [`Solver::ko_free_loss`]) before the
    /// mover-favoured model is solved.
    pub fn solve_with_ko(
        &mut self,
        board: &Board,
        problem: Problem,
        mover: Color,
        opts: Options,
        limits: Limits,
        stop: &AtomicBool,
    ) -> KoResult {
        let m = Models {
            board,
            problem,
            mover,
            opts,
            limits,
            start: Instant::now(),
            stop,
        };
        let mut out = KoResult {
            code: None,
            bound: None,
            best: None,
            nodes: 0,
            elapsed: Duration::ZERO,
            pv: ArrayVec::new(),
            stopped_by: None,
            order: 0,
        };
        let mover_role = m.mover_role();
        let interrupted = |r: &SolveResult| r.stopped_by == Some(Limit::Interrupted);
        let mut kind = None;
        let mut even = None;
        if opts.ko_bound {
            let probe = m.run(self, &mut out, Some(mover), KIND_PROBE_SHARE);
            match probe.winner {
                Some(w) if w != mover_role => return m.finish(out, Some(0), Some(&probe)),
                // A ko-free win holds under every model.
                Some(_) if probe.ko_free => return m.finish(out, Some(1), Some(&probe)),
                Some(_) => kind = Some(probe),
                None if interrupted(&probe) => return m.finish(out, None, None),
                None => {}
            }
        }
        if let Some(r3) = &kind {
            // The model where nobody is favoured, before the one that
            // favours the opponent: a loss there settles code 3, a ko-free
            // win code 1, and a win through a ko is code 2 at least.
            let r2 = m.run(self, &mut out, None, EVEN_FIRST_SHARE);
            match r2.winner {
                Some(w) if w != mover_role => return m.finish(out, Some(3), Some(r3)),
                Some(_) if r2.ko_free => return m.finish(out, Some(1), Some(&r2)),
                Some(_) => even = Some(r2),
                None if interrupted(&r2) => return m.stopped(out, Some((3, r3))),
                None => {}
            }
        }
        // Without a win kept, part of the limits is held back for a late
        // bound: the kinder models after this one stops.
        let late = opts.ko_bound && kind.is_none();
        let r1_share = if late {
            1000 - LATE_BOUND_RESERVE
        } else {
            1000
        };
        let r1 = m.run(self, &mut out, Some(mover.opp()), r1_share);
        match r1.winner {
            None if late && !interrupted(&r1) => return self.late_bound(&m, out),
            None => return m.stopped(out, best_known(&even, &kind)),
            Some(w) if w == mover_role => return m.finish(out, Some(1), Some(&r1)),
            Some(_) if r1.ko_free => return m.finish(out, Some(0), Some(&r1)),
            Some(_) => {}
        }
        if let Some(r2) = &even {
            return m.finish(out, Some(2), Some(r2));
        }
        // A ko-free loss cannot exist beside a win of the mover-favoured
        // model, so the search for one is skipped then.
        if opts.algo == Algo::Auto && kind.is_none() {
            if let Some(r) = self.ko_free_loss(&m, &mut out) {
                return m.finish(out, r.0, r.1.as_ref());
            }
        }
        let r3 = match kind {
            Some(r3) => r3,
            None => {
                let r3 = m.run(self, &mut out, Some(mover), 1000);
                match r3.winner {
                    None => return m.finish(out, None, None),
                    Some(w) if w != mover_role => return m.finish(out, Some(0), Some(&r3)),
                    Some(_) => r3,
                }
            }
        };
        let r2 = m.run(self, &mut out, None, 1000);
        match r2.winner {
            None if opts.ko_bound => m.stopped(out, Some((3, &r3))),
            None => m.finish(out, None, None),
            Some(w) if w == mover_role => m.finish(out, Some(2), Some(&r2)),
            Some(_) => m.finish(out, Some(3), Some(&r3)),
        }
    }

    /// After a limit stopped the model that favours the opponent, with no
    /// win kept from the probe: the mover-favoured model with half of what
    /// is left, then, unless that settled the code, the model with nobody
    /// favoured with the rest. The answers are those of the same models
    /// in [`Solver::solve_with_ko`]: exact codes where a model settles the
    /// code (a loss of the kindest model is 0, a ko-free win 1, a loss of
    /// the even one after the kind one's win 3), else the best win as a
    /// lower bound, marked by the limit that stopped the opponent-favoured
    /// model (code 2 after the even model's win, which implies a win of the
    /// kind one, 3 after the kind one's).
    ///
    /// The probe's short share misses wins that cost a few times more: on
    /// a real-game attack (Goemate990902-5, the whole game, `attack S18`)
    /// the mover-favoured model is won in 89,089 nodes, above the probe's
    /// 30,000 at 3M, while the opponent-favoured model stays open at 3M.
    /// Without this, that answer is unknown; with it, the bound `3 R18`
    /// (GNU Go answers `3 R18` too).
    fn late_bound(&mut self, m: &Models, mut out: KoResult) -> KoResult {
        let mover_role = m.mover_role();
        let first_stop = out.stopped_by;
        let kind = m.run(self, &mut out, Some(m.mover), 500);
        match kind.winner {
            Some(w) if w != mover_role => return m.finish(out, Some(0), Some(&kind)),
            Some(_) if kind.ko_free => return m.finish(out, Some(1), Some(&kind)),
            _ => {}
        }
        // Run after a stop of the kind model too: a win with nobody
        // favoured is a win with the mover favoured as well.
        let kind_won = kind.winner.is_some();
        let even = m.run(self, &mut out, None, 1000);
        let (code, r) = match even.winner {
            Some(w) if w == mover_role && even.ko_free => {
                return m.finish(out, Some(1), Some(&even))
            }
            Some(w) if w == mover_role => (2, &even),
            Some(_) if kind_won => return m.finish(out, Some(3), Some(&kind)),
            // A ko-free loss holds under every model.
            Some(_) if even.ko_free => return m.finish(out, Some(0), Some(&even)),
            None if kind_won => (3, &kind),
            _ => {
                out.stopped_by = even.stopped_by.or(kind.stopped_by);
                return m.finish(out, None, None);
            }
        };
        // The bound names the limit that stopped a model that could give a
        // better code: the opponent-favoured one, or the even one.
        let why = if even.winner.is_some() {
            first_stop
        } else {
            even.stopped_by
        };
        m.bound(out, why, code, r)
    }

    /// After a loss of the mover under the model that favours its
    /// opponent, proven through a ko ban: λ-df-pn (all orders, both
    /// provers; [`Algo::LambdaDfpn`]) gets [`KO_FREE_SHARE`] of the limits
    /// left to prove the same loss without meeting one. Its threat lines
    /// often go round the ko that df-pn's proof passed, and a ko-free loss
    /// settles the answer, 0, under every model (the `ko_free` argument of
    /// [`Solver::solve_with_ko`]), where otherwise the mover-favoured model
    /// must be solved, which may be far harder (`tests_ko`'s
    /// `a_ko_free_proof_settles_every_model`: unknown at 3M nodes without
    /// this search, 0 in 28 thousand with it).
    ///
    /// Sound: the answer comes from one more solve of the same question by
    /// a search whose reported results hold in the capture game (never a
    /// `REL` result; see the module documentation), under the model already
    /// being solved, with its own table entries (the search shapes salt
    /// the keys). It is used only when that search proves the mover's loss
    /// and met no ko ban, exactly the condition under which the first
    /// model's own result answers 0. Anything else (a win, a loss through
    /// a ko, a limit) is dropped and the models go on as before, with the
    /// nodes spent counted. The answer is the code and the result behind
    /// it: `(Some(0), Some(r))` for a ko-free loss, `(None, None)` when
    /// the command was interrupted meanwhile.
    fn ko_free_loss(
        &mut self,
        m: &Models,
        out: &mut KoResult,
    ) -> Option<(Option<u8>, Option<SolveResult>)> {
        let lambda = Options {
            algo: Algo::LambdaDfpn,
            ..m.opts
        };
        let favoured = Some(m.mover.opp());
        let r = m.run_as(self, out, favoured, KO_FREE_SHARE, lambda);
        let lost = r.winner.is_some_and(|w| w != m.mover_role());
        if lost && r.ko_free {
            return Some((Some(0), Some(r)));
        }
        if r.stopped_by == Some(Limit::Interrupted) {
            return Some((None, None));
        }
        None
    }
}

/// The answer of [`Solver::solve_one_model`]: who wins under that one ko
/// model, and the ko code when the result met no ko ban (it then holds
/// under every model).
#[derive(Clone, Debug)]
pub struct ModelResult {
    /// Whether the player to move wins; `None` when a limit was hit.
    pub mover_wins: Option<bool>,
    /// The winning first move, the main line, nodes, time, what stopped
    /// the search and the threat order, as for [`KoResult`]; its `code`
    /// is set only for a ko-free result (1 won, 0 lost).
    pub result: KoResult,
}

impl Solver {
    /// Solves `q` under its one ko model, as [`Solver::solve`] does, with
    /// the answer in GNU Go's terms. Meant for studying a problem model by
    /// model: [`Solver::solve_with_ko`] tries the models in a fixed order
    /// and stops at the first that has no answer.
    pub fn solve_one_model(
        &mut self,
        q: Question,
        opts: Options,
        limits: Limits,
        stop: &AtomicBool,
    ) -> ModelResult {
        let (mover, attacker) = (q.to_move, q.problem.attacker);
        let r = self.solve(q, opts, limits, stop);
        let mover_wins = r.winner.map(|w| w == role(mover, attacker));
        let code = match mover_wins {
            Some(won) if r.ko_free => Some(u8::from(won)),
            _ => None,
        };
        ModelResult {
            mover_wins,
            result: KoResult {
                code,
                bound: None,
                best: r.best,
                nodes: r.nodes,
                elapsed: r.elapsed,
                pv: r.pv,
                stopped_by: r.stopped_by,
                order: r.order,
            },
        }
    }
}
