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
//! (the kindest model lost, so every model is). Its win is kept: when a
//! later model that could give a better code is stopped by a limit, the
//! answer is code 3, marked with [`KoResult::bound`], instead of no answer.
//! That is a proof of what code 3 says — the mover wins when it may retake
//! kos, that is when it wins the ko fights — and a lower bound on the code:
//! the true code may be 1, 2 or 3. It is never a wrong claim, only a
//! weaker one, as the interrupt protocol's "best result known so far".
//! Without the option (the player's block status) a limit gives no code.

use super::plan::Algo;
use super::{role, KoResult, Limit, Limits, Options, Question, SolveResult, Solver, KO_FREE_SHARE};
use crate::go::board::Board;
use crate::go::Color;
use crate::tactics::rules::{KoModel, Problem};
use arrayvec::ArrayVec;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// Share of the limits (thousandths) of the first, short solve under the
/// model that favours the mover, with [`Options::ko_bound`].
pub const KIND_PROBE_SHARE: u64 = 10;

/// `share` thousandths of what `limits` leave after `used` nodes and the
/// time since `start` (all of it at 1000).
fn share_left(limits: &Limits, used: u64, start: Instant, share: u64) -> Limits {
    Limits {
        nodes: limits.nodes.saturating_sub(used).saturating_mul(share) / 1000,
        time: limits.time.map(|t| {
            t.saturating_sub(start.elapsed())
                .mul_f64(share as f64 / 1000.0)
        }),
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
    /// model comes first, and a limit after its win answers code 3 as a
    /// lower bound (see the module documentation).
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
        let start = Instant::now();
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
        let mover_role = role(mover, problem.attacker);
        // `share`: thousandths of the limits left, for the probe.
        let run = |this: &mut Solver, favoured: Option<Color>, share: u64, out: &mut KoResult| {
            let left = share_left(&limits, out.nodes, start, share);
            let model = KoModel { favoured };
            let q = Question {
                board,
                problem,
                model,
                to_move: mover,
            };
            let r = this.solve(q, opts, left, stop);
            out.nodes += r.nodes;
            out.stopped_by = r.stopped_by;
            r
        };
        let finish = |mut out: KoResult, code: Option<u8>, r: Option<&SolveResult>| {
            out.code = code;
            if let Some(r) = r {
                out.best = r.best;
                out.pv = r.pv.clone();
                out.order = r.order;
            }
            if code.is_some() {
                out.stopped_by = None;
            }
            out.elapsed = start.elapsed();
            out
        };
        // What is known when a limit stops a model: code 3 as a lower
        // bound after a win with the mover favoured, else nothing.
        let stopped = |mut out: KoResult, kind: Option<&SolveResult>| match kind {
            Some(r3) => {
                out.bound = out.stopped_by;
                finish(out, Some(3), Some(r3))
            }
            None => finish(out, None, None),
        };
        let mut kind = None;
        if opts.ko_bound {
            let probe = run(self, Some(mover), KIND_PROBE_SHARE, &mut out);
            match probe.winner {
                Some(w) if w != mover_role => return finish(out, Some(0), Some(&probe)),
                Some(_) => kind = Some(probe),
                None if probe.stopped_by == Some(Limit::Interrupted) => {
                    return finish(out, None, None)
                }
                None => {}
            }
        }
        let r1 = run(self, Some(mover.opp()), 1000, &mut out);
        match r1.winner {
            None => return stopped(out, kind.as_ref()),
            Some(w) if w == mover_role => return finish(out, Some(1), Some(&r1)),
            Some(_) if r1.ko_free => return finish(out, Some(0), Some(&r1)),
            Some(_) => {}
        }
        // A ko-free loss cannot exist beside a win of the mover-favoured
        // model, so the search for one is skipped then.
        if opts.algo == Algo::Auto && kind.is_none() {
            let q = Question {
                board,
                problem,
                model: KoModel {
                    favoured: Some(mover.opp()),
                },
                to_move: mover,
            };
            if let Some(r) = self.ko_free_loss(q, opts, &limits, start, &mut out, stop) {
                return finish(out, r.0, r.1.as_ref());
            }
        }
        let r3 = match kind {
            Some(r3) => r3,
            None => {
                let r3 = run(self, Some(mover), 1000, &mut out);
                match r3.winner {
                    None => return finish(out, None, None),
                    Some(w) if w != mover_role => return finish(out, Some(0), Some(&r3)),
                    Some(_) => r3,
                }
            }
        };
        let r2 = run(self, None, 1000, &mut out);
        match r2.winner {
            None if opts.ko_bound => stopped(out, Some(&r3)),
            None => finish(out, None, None),
            Some(w) if w == mover_role => finish(out, Some(2), Some(&r2)),
            Some(_) => finish(out, Some(3), Some(&r3)),
        }
    }
}

impl Solver {
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
        q: Question,
        opts: Options,
        limits: &Limits,
        start: Instant,
        out: &mut KoResult,
        stop: &AtomicBool,
    ) -> Option<(Option<u8>, Option<SolveResult>)> {
        let sub = share_left(limits, out.nodes, start, KO_FREE_SHARE);
        let lambda = Options {
            algo: Algo::LambdaDfpn,
            ..opts
        };
        let r = self.solve(q, lambda, sub, stop);
        out.nodes += r.nodes;
        let lost = r
            .winner
            .is_some_and(|w| w != role(q.to_move, q.problem.attacker));
        if lost && r.ko_free {
            return Some((Some(0), Some(r)));
        }
        if r.stopped_by == Some(Limit::Interrupted) {
            out.stopped_by = r.stopped_by;
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
