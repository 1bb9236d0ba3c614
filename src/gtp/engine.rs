//! The engine state that GTP commands act on, and the dispatch of one parsed
//! command line to its handler.

use super::parse::{Args, CommandLine};
use super::registry;
use crate::games::session::{open, AnyGame};
use crate::games::spec::GameSpec;
use crate::go::{Game, KoRule};
use crate::search::random::RandomPlayer;
use crate::search::time::TimeControl;
use crate::search::Player;
use crate::tactics::dfpn::{Algo, Limits, Solver};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

/// Settings fixed at start-up (command-line flags).
#[derive(Clone, Debug)]
pub struct Config {
    pub ko_rule: KoRule,
    /// Resign when the estimated score is worse than this many points;
    /// `None` never resigns.
    pub resign_threshold: Option<f64>,
    /// Transposition table size for `genmove`.
    pub tt_megabytes: usize,
    /// Fixed search depth for `genmove` (deterministic play), if any.
    pub max_depth: Option<u32>,
    /// Fixed node budget per `genmove` (deterministic play whatever the
    /// machine's load), if any; with `max_depth` both apply.
    pub max_nodes: Option<u64>,
    /// Random games per leaf in the player's Monte-Carlo leaf estimate
    /// (`--mc`, `tesuji-player search mc=N`; 0 turns it off); `None` leaves
    /// it to the board size (`search::mc::playouts_for`).
    pub mc_playouts: Option<u32>,
    /// The game at start-up (`--game`); `None` is Go on 19×19.
    pub game: Option<GameSpec>,
    /// Play uniformly random moves from this seed (`--player random
    /// --seed N`) instead of searching; `tesuji-player` changes it later.
    pub random_seed: Option<u64>,
    /// `genmove` in Go by the Monte-Carlo tree search of `search::mcts`
    /// (`--player mcts`, `tesuji-player mcts`) instead of NegaScout; then
    /// `max_nodes` counts its random games.
    pub mcts: bool,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            ko_rule: KoRule::PositionalSuperko,
            resign_threshold: Some(60.0),
            tt_megabytes: 64,
            max_depth: None,
            max_nodes: None,
            mc_playouts: None,
            game: None,
            random_seed: None,
            mcts: false,
        }
    }
}

/// Everything the GTP commands read and change.
pub struct Engine {
    /// The Go game (GTP's own state, with history and superko).
    pub game: Game,
    /// The active game when it is not Go (`tesuji-game`); `None` means Go.
    pub other: Option<Box<dyn AnyGame>>,
    /// How many of the last moves were played by `trymove` and may be taken
    /// back by `popgo`.
    pub trymoves: usize,
    pub time: TimeControl,
    pub player: Player,
    pub config: Config,
    /// Set by the input reader on `# interrupt`; searches poll it.
    pub stop: Arc<AtomicBool>,
    /// Set by `quit`: the server stops after answering.
    pub quit: bool,
    /// The tactical solver, created by the first command that needs it.
    pub solver: Option<Box<Solver>>,
    /// Limits of `attack`, `defend`, `ladder_attack` and the defaults of
    /// `solve` (`tesuji-solver_limits`).
    pub solver_limits: Limits,
    /// Algorithm of `attack` and `defend` and the default of `solve`.
    pub solver_algo: Algo,
    /// The forced-reply rule of the capture solvers (`tesuji-solver_limits
    /// forced=on|off`).
    pub solver_forced: crate::tactics::dfpn::Forced,
    /// Whether `attack`, `defend` and `solve` solve in two rounds
    /// (`tesuji-solver_limits rounds=on|off`; `tactics::dfpn::rounds`).
    pub solver_rounds: bool,
    /// Work of the last solving command.
    pub solver_stats: SolverStats,
    /// Nodes of every tactical solve since start-up or GNU Go's
    /// `reset_reading_node_counter` (`cmd_reading`).
    pub reading_nodes: u64,
    /// GNU Go's `increase_depths` less its `decrease_depths`: each step
    /// doubles or halves the limits of `attack` and `defend` (`cmd_reading`).
    pub depth_steps: i32,
    /// Every solving command shows its search to GoGui on stderr
    /// (`tesuji-live_gfx`); `tesuji-gfx_solve` always does.
    pub live_gfx: bool,
    /// `Some` while `genmove` plays random moves (`tesuji-player random`).
    pub random: Option<RandomPlayer>,
}

/// Default limits of the tactical commands.
/// Work of one solving command: nodes, wall-clock time, and the CPU time
/// of the thread that solved (when the system tells it). On a machine
/// shared with other work the wall clock counts time the solver waited for
/// a processor; the CPU time does not, so nodes per CPU second is the
/// solver's own speed per thread.
#[derive(Clone, Copy, Debug, Default)]
pub struct SolverStats {
    pub nodes: u64,
    pub elapsed: Duration,
    pub cpu: Option<Duration>,
}

/// CPU time this thread has run so far: the first field of Linux's
/// `/proc/thread-self/schedstat` (nanoseconds on a processor). `None`
/// where the file does not exist. Read around a solve, never inside one.
pub fn thread_cpu_time() -> Option<Duration> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: u64 = text.split_whitespace().next()?.parse().ok()?;
    Some(Duration::from_nanos(ns))
}

/// 13M nodes: two rounds of 3M and 10M (`tactics::dfpn::rounds`). The
/// clock is a guard: on this project's machines the node limit comes
/// first (13M nodes take about 8 s).
pub const DEFAULT_SOLVER_LIMITS: Limits = Limits {
    nodes: 13_000_000,
    time: Some(Duration::from_secs(30)),
};

impl Engine {
    pub fn new(config: Config) -> Engine {
        let mut game = Game::new(19);
        game.set_ko_rule(config.ko_rule);
        let mut player = Player::new(config.tt_megabytes);
        player.set_resign_threshold(config.resign_threshold);
        let random = config.random_seed.map(RandomPlayer::new);
        let mut engine = Engine {
            game,
            other: None,
            trymoves: 0,
            time: TimeControl::default(),
            player,
            config,
            stop: Arc::new(AtomicBool::new(false)),
            quit: false,
            solver: None,
            solver_limits: DEFAULT_SOLVER_LIMITS,
            solver_algo: Algo::Auto,
            solver_forced: Default::default(),
            solver_rounds: true,
            solver_stats: SolverStats::default(),
            reading_nodes: 0,
            depth_steps: 0,
            live_gfx: false,
            random,
        };
        if let Some(spec) = engine.config.game {
            engine.set_game(spec);
        }
        engine
    }

    /// Switches to a new game of `spec` at its start position. Go keeps
    /// GTP's own state, with the spec's size and komi and the ko rule kept.
    pub fn set_game(&mut self, spec: GameSpec) {
        match spec {
            GameSpec::Go { size, komi_x2 } => {
                let mut game = Game::new(size);
                game.set_komi(komi_x2 as f64 / 2.0);
                game.set_ko_rule(self.game.ko_rule());
                self.game = game;
                self.other = None;
            }
            _ => self.other = Some(open(&spec)),
        }
        self.new_game();
    }

    /// The tactical solver, with a table of `--tt-mb` megabytes.
    pub fn solver(&mut self) -> &mut Solver {
        let mb = self.config.tt_megabytes;
        self.solver.get_or_insert_with(|| Box::new(Solver::new(mb)))
    }

    /// Runs one command and returns its response body or error message.
    pub fn execute(&mut self, cmd: &CommandLine) -> Result<String, String> {
        let command = registry::find(&cmd.name).ok_or_else(|| "unknown command".to_string())?;
        let mut args = Args::new(&cmd.args);
        (command.run)(self, &mut args)
    }

    /// Starts a new game on the current board size (after `boardsize`,
    /// `clear_board` or `loadsgf`).
    pub fn new_game(&mut self) {
        self.trymoves = 0;
        self.player.new_game();
    }
}
