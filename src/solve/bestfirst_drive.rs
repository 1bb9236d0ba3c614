//! Driving the best-first searches of [`bestfirst`](super) (seed 001:
//! Saffidine & Cazenave, "Developments on Product Propagation", CG 2013,
//! Algorithm 1): the limits and counters one solve shares between its
//! levels ([`Ctx`]), the yes/no question a search answers ([`Prover`]),
//! and [`drive`], which asks it once or twice to value a game with draws.

use super::{Rule, Search};
use crate::games::{Color, Game, Outcome};
use crate::solve::store::{LOST, WON};
use crate::solve::{Limits, Report, Stopped};
use std::time::{Duration, Instant};

/// Limits and counters shared by the levels of one solve.
pub struct Ctx<'a> {
    pub limits: &'a Limits<'a>,
    pub start: Instant,
    /// First-level expansions: what [`Report::nodes`](super::Report) shows
    /// and the node limit bounds.
    pub expansions: u64,
    /// Expansions at every level (PN² and PP² work below the first level).
    pub work: u64,
    /// The player for whom a drawn terminal position counts as a win.
    pub draw_wins_for: Color,
    /// Whether any drawn terminal position was met.
    pub saw_draw: bool,
    pub stopped: Option<Stopped>,
    ticks: u32,
}

impl<'a> Ctx<'a> {
    pub fn new(limits: &'a Limits<'a>, draw_wins_for: Color) -> Ctx<'a> {
        Ctx {
            limits,
            start: Instant::now(),
            expansions: 0,
            work: 0,
            draw_wins_for,
            saw_draw: false,
            stopped: None,
            ticks: 0,
        }
    }

    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// Checks the node, time and interrupt limits (the clock every 256
    /// calls); records and returns whether the search must stop.
    #[inline]
    pub fn check(&mut self) -> bool {
        if self.stopped.is_some() {
            return true;
        }
        if self.limits.nodes.is_some_and(|n| self.expansions >= n) {
            self.stopped = Some(Stopped::Nodes);
            return true;
        }
        self.check_clock()
    }

    /// The end of [`Ctx::check`], which a search whose expansions do not
    /// count (a second level) calls alone after a full check on entry:
    /// there `expansions` stays put, so the node limit cannot be reached,
    /// and `stopped` is only ever set where the search then returns. Only
    /// the tick is counted (the clock and the interrupt are read every 256
    /// ticks, as by `check`): the full check was 2% of PP²'s instructions.
    #[inline(always)]
    pub fn check_clock(&mut self) -> bool {
        self.ticks = self.ticks.wrapping_add(1);
        self.ticks.is_multiple_of(256) && self.read_clock()
    }

    /// The interrupt and the clock: records and returns whether the
    /// search must stop.
    #[inline(never)]
    fn read_clock(&mut self) -> bool {
        if self
            .limits
            .interrupt
            .is_some_and(|i| i.load(std::sync::atomic::Ordering::Relaxed))
        {
            self.stopped = Some(Stopped::Interrupted);
        } else if self.limits.time.is_some_and(|t| self.elapsed() >= t) {
            self.stopped = Some(Stopped::Time);
        }
        self.stopped.is_some()
    }

    /// Flags of a terminal position with outcome `o` for its mover `mover`.
    #[inline]
    pub fn terminal_flags(&mut self, o: Outcome, mover: Color) -> u16 {
        match o {
            Outcome::Win => WON,
            Outcome::Loss => LOST,
            Outcome::Draw => {
                self.saw_draw = true;
                if mover == self.draw_wins_for {
                    WON
                } else {
                    LOST
                }
            }
        }
    }
}

/// How one search ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    Won,
    Lost,
    Open,
}

/// Memory for trees and tables when [`Limits::memory`] is not set.
pub const DEFAULT_MEMORY: usize = 1 << 30;

/// A search that answers one yes/no question about a position: does the
/// mover win, with drawn terminals counted by [`Ctx::draw_wins_for`]?
pub trait Prover<G: Game> {
    /// Searches from `root` with the limits and counters of `ctx`.
    fn prove(&mut self, root: &G, ctx: &mut Ctx) -> Status;
    /// A winning move after [`Status::Won`], else the most promising one.
    fn best_move(&self) -> Option<G::Move>;
    /// Most bytes held at once by the search's structures.
    fn peak_memory(&self) -> usize;
}

impl<G: Game, R: Rule> Prover<G> for Search<G, R> {
    fn prove(&mut self, root: &G, ctx: &mut Ctx) -> Status {
        self.search(root, ctx, usize::MAX, true)
    }

    fn best_move(&self) -> Option<G::Move> {
        self.root_move()
    }

    fn peak_memory(&self) -> usize {
        Search::peak_memory(self)
    }
}

/// What a solve returns besides the [`Report`]: expansions at every level
/// (PN², PP²: first-level nodes plus second-level work).
pub struct Detail<M> {
    pub report: Report<M>,
    pub work: u64,
}

/// Solves `game` for the player to move with a [`Prover`]. A first search
/// counts draws as losses for that player: a proof is a win. On a
/// disproof, if no drawn position was met, that disproof holds whatever
/// draws count as, so it is a loss; otherwise a second search counts draws
/// as wins: a proof is then a draw, a disproof a loss.
pub fn drive<G: Game, P: Prover<G>>(prover: &mut P, game: &G, limits: &Limits) -> Detail<G::Move> {
    let start = Instant::now();
    let mut report = Report {
        value: None,
        best: None,
        stopped: None,
        nodes: 0,
        elapsed: Duration::ZERO,
        peak_memory: 0,
    };
    if let Some(o) = game.outcome() {
        report.value = Some(o);
        report.elapsed = start.elapsed();
        return Detail { report, work: 0 };
    }
    let root = game.to_move();
    let mut ctx = Ctx::new(limits, root.opp());
    let (value, best) = match prover.prove(game, &mut ctx) {
        Status::Won => (Some(Outcome::Win), prover.best_move()),
        Status::Lost if !ctx.saw_draw => (Some(Outcome::Loss), prover.best_move()),
        Status::Lost => {
            ctx.draw_wins_for = root;
            match prover.prove(game, &mut ctx) {
                Status::Won => (Some(Outcome::Draw), prover.best_move()),
                Status::Lost => (Some(Outcome::Loss), prover.best_move()),
                Status::Open => (None, None),
            }
        }
        Status::Open => (None, None),
    };
    report.value = value;
    report.best = best;
    report.stopped = if value.is_none() { ctx.stopped } else { None };
    report.nodes = ctx.expansions;
    report.elapsed = ctx.elapsed();
    report.peak_memory = prover.peak_memory();
    Detail {
        report,
        work: ctx.work,
    }
}

/// The memory budget of `limits`.
pub fn memory(limits: &Limits) -> usize {
    limits.memory.unwrap_or(DEFAULT_MEMORY)
}

/// Sets up a search (the only allocation) and solves once: what each
/// algorithm's `solve` does.
pub fn solve_with<G: Game, R: Rule>(
    rule: R,
    game: &G,
    limits: &Limits,
    transpositions: bool,
    second_level: bool,
) -> Detail<G::Move> {
    let mut search = Search::new(rule, memory(limits), transpositions, second_level);
    drive(&mut search, game, limits)
}
