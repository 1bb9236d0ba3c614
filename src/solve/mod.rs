//! Whole-game solvers, generic over [`Game`](crate::games::Game): the seeds' family of α-β,
//! proof-number and product-propagation searches and MCTS-Solver, each in
//! its own module, behind one entry point, [`solve`].
//!
//! Every solver answers the same question: what is the game-theoretic
//! value of the position for the player to move, and which move achieves
//! it? It stops at the first limit of [`Limits`] and then answers
//! `value: None` ("unknown"): a value is reported only when proven.

pub mod alphabeta;
pub mod bench;
pub mod bench_search;
mod bench_search_cli;
mod bench_search_recall;
pub mod bench_search_stats;
pub mod bench_usage;
pub mod bestfirst;
#[cfg(test)]
mod bf_tests;
pub mod buckets;
pub mod cli;
pub mod depth_first;
pub mod dfpn;
pub mod mcts_solver;
pub mod negascout;
pub mod pn2;
pub mod pns;
pub mod pool;
pub mod pp;
pub mod pp2;
pub mod ppt;
pub mod store;

use crate::games::{Game, Outcome};
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// The solving algorithms, by the names the command line and GTP use.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Algo {
    AlphaBeta,
    NegaScout,
    Pns,
    Pn2,
    Dfpn,
    Pp,
    Ppt,
    Pp2,
    MctsSolver,
}

impl Algo {
    pub const ALL: [Algo; 9] = [
        Algo::AlphaBeta,
        Algo::NegaScout,
        Algo::Pns,
        Algo::Pn2,
        Algo::Dfpn,
        Algo::Pp,
        Algo::Ppt,
        Algo::Pp2,
        Algo::MctsSolver,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Algo::AlphaBeta => "alphabeta",
            Algo::NegaScout => "negascout",
            Algo::Pns => "pns",
            Algo::Pn2 => "pn2",
            Algo::Dfpn => "dfpn",
            Algo::Pp => "pp",
            Algo::Ppt => "ppt",
            Algo::Pp2 => "pp2",
            Algo::MctsSolver => "mcts-solver",
        }
    }

    pub fn parse(text: &str) -> Option<Algo> {
        Algo::ALL.into_iter().find(|a| a.name() == text)
    }
}

/// Bounds on one solve; `None` means unbounded. The solver stops at the
/// first one reached.
#[derive(Clone, Copy, Debug, Default)]
pub struct Limits<'a> {
    /// Node expansions (each solver documents what it counts).
    pub nodes: Option<u64>,
    pub time: Option<Duration>,
    /// Bytes for the solver's tables and trees, allocated at setup.
    pub memory: Option<usize>,
    /// Set from another thread (GTP's `# interrupt`) to stop the search.
    pub interrupt: Option<&'a AtomicBool>,
}

/// Why a solve ended without a value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stopped {
    Nodes,
    Time,
    Memory,
    Interrupted,
}

impl Stopped {
    pub fn name(self) -> &'static str {
        match self {
            Stopped::Nodes => "nodes",
            Stopped::Time => "time",
            Stopped::Memory => "memory",
            Stopped::Interrupted => "interrupted",
        }
    }
}

/// What a solve found.
#[derive(Clone, Debug)]
pub struct Report<M> {
    /// The proven value for the player to move at the root, or `None`.
    pub value: Option<Outcome>,
    /// A move achieving `value` (none at a terminal root, or when unknown).
    pub best: Option<M>,
    /// Set when `value` is `None`.
    pub stopped: Option<Stopped>,
    pub nodes: u64,
    pub elapsed: Duration,
    /// Most bytes the solver's own structures held at once.
    pub peak_memory: usize,
}

/// Solves `game` for the player to move with `algo`. `Err` when the
/// algorithm is not built into this binary or refuses the game (see each
/// module); a solver that runs out of limits answers `Ok` with
/// `value: None`.
pub fn solve<G: Game>(algo: Algo, game: &G, limits: &Limits) -> Result<Report<G::Move>, String> {
    if game.repeats() {
        return Err(format!(
            "{} cannot solve games whose positions repeat",
            algo.name()
        ));
    }
    Ok(match algo {
        Algo::AlphaBeta => alphabeta::solve(game, limits)?,
        Algo::NegaScout => negascout::solve(game, limits)?,
        Algo::Dfpn => dfpn::solve(game, limits)?,
        Algo::Pns => pns::solve(game, limits),
        Algo::Pn2 => pn2::solve(game, limits),
        Algo::Pp => pp::solve(game, limits),
        Algo::Ppt => ppt::solve(game, limits),
        Algo::Pp2 => pp2::solve(game, limits),
        Algo::MctsSolver => mcts_solver::solve(game, limits),
    })
}
