//! Depth-first proof-number search (df-pn) over the capture game of
//! [`rules`](super::rules): can the attacker capture the target block, can
//! the defender save it?
//!
//! # What it follows
//!
//! * **df-pn** (Nagai 2002), as presented in Kishimoto & Müller's tutorial
//!   (seed 000), in the *negamax* form: at every node φ is the proof number
//!   of the player to move and δ its disproof number, so
//!   `φ(n) = min δ(child)` and `δ(n) = Σ φ(child)`. A node is searched
//!   (Nagai's MID) until `φ ≥ thφ` or `δ ≥ thδ`; the best child (least δ)
//!   gets `thφ(c) = thδ − δ(n) + φ(c)` and
//!   `thδ(c) = min(thφ, δ₂·(1+ε))`, δ₂ the second least δ.
//! * The **1+ε trick** (Pawlewicz & Lew 2007): the child's δ threshold grows
//!   by a factor 1+ε over δ₂ (at least by one) instead of by one, which cuts
//!   the re-expansions df-pn suffers when siblings have close numbers.
//!   ε = 0.25 by default ([`Solver::set_epsilon`]).
//! * **Weak proof numbers** (WPNS, Ueda et al. 2008; seed 000), by default
//!   ([`Solver::set_weak_rule`]): `δ(n) = max φ(child) + (children with
//!   φ > 0) − 1` instead of the sum, and correspondingly
//!   `thφ(c) = thδ − (children with φ > 0) + 1`. In Go many move orders
//!   reach the same position, and the sum counts it once per order: on the
//!   two-eyed group of the tests the sum rule needed 25 times the nodes.
//!   Neither rule is better everywhere: on the regression suite the sum
//!   rule reads capture test 16 in 33 thousand nodes where the weak rule
//!   needs over 7 million, and tactics test 12 the other way round.
//! * **df-pn+ initialisation** (Nagai 2002): a child not yet searched gets
//!   φ and δ from cheap features measured after the move (the target's
//!   liberties, captures, whether the move changed the target's
//!   liberties, self-atari, pass), scaled by the number of replies the
//!   opponent will have, so that unsearched siblings compare fairly with
//!   searched ones (see `numbers::heuristic`). A heuristic value is never 0
//!   or ∞, so it orders the search but never decides a result. It is not
//!   better everywhere either: on the regression suite df-pn with every
//!   child starting at φ = δ = 1 (a *neutral* search) reads tactics tests
//!   2 and 3 in under a million nodes, which the heuristic leaves unsolved
//!   in 30 million, and capture test 3 the other way round. So plain
//!   df-pn and `Auto` give part of their limits to a neutral search, with
//!   its own table entries (see [`Algo`]).
//! * A **transposition table** of fixed size with SmallTreeReplacement
//!   (Nagai 2002): see [`tt`].
//! * **Graph-history interaction** (Kishimoto & Müller 2004): handled as
//!   described below, with the rules' own notion of a path-dependent line.
//! * The **λ¹ restriction** for ladders (Thomsen 2000, λ-search): with
//!   [`Options::ladder`] the attacker may only capture or put the target in
//!   atari; the defender keeps every move.
//!
//! With [`Algo::Dfpn`] move generation is full width for both players:
//! every legal move and the pass, as [`CaptureGame::moves`] lists them.
//! With [`Algo::LambdaDfpn`] and [`Algo::DualLambda`] (λ-df-pn after
//! Yoshizoe, Kishimoto & Müller 2007 and dual λ-search after Soeda, Kaneko
//! & Tanaka 2005, both summarised in seed 002) a node's moves are cut to
//! the answers to the opponent's threat, inside a relevance zone proven to
//! hold every answer that matters, or to the mover's own threats (see
//! `threats`). The first keeps the search exact: the moves left out are
//! proven losses, stood for by a solved pseudo-child. The second does not:
//! a pseudo-child flagged `REL` marks the node, any result resting on it
//! holds only in the restricted game, and such a result is never reported.
//! [`Algo::ZoneDfpn`] keeps only the first kind of cut and lists every
//! move (as plain df-pn, group included) where it does not apply.
//! Proofs and disproofs that are reported are therefore proofs in the
//! capture game itself.
//!
//! # Why a proven result is true
//!
//! Solved values (φ or δ equal to 0) enter the search in these ways only:
//!
//! 1. a finished game ([`CaptureGame::winner`]);
//! 2. an immediate end, exact by the rules: the attacker is to move, the
//!    target has one liberty and the attacker may legally play it
//!    (capturing is never suicide, so only the ko model can forbid it),
//!    and the capture ends the line (it is not a ko capture of a lone
//!    stone that the favoured defender may retake:
//!    [`CaptureGame::capture_is_final`]); or
//!    the defender is to move just after a pass, and passes too;
//! 3. unconditional life: the attacker is to move and the target belongs
//!    to a set of blocks that Benson's criterion proves alive
//!    ([`crate::tactics::life`]). The defender then wins by passing at every
//!    turn, on every path and under every ko model, so the value is a fact
//!    of the position (no `PATH_DEP`, no `KO`) and may be stored; the node
//!    with the defender to move is decided one pass later. Likewise a won
//!    race ([`crate::tactics::race`]): the attacker is to move and the
//!    target captures an attacker block in atari, whatever the attacker
//!    does, with its escape liberties as the result; the module proves
//!    that this holds on every path and under every ko model. And, only
//!    under the model that favours the defender, life through kos: the
//!    attacker is to move and every liberty of the target (two at least)
//!    is an eye or a point where the attacker's capture is a ko the
//!    defender retakes ([`crate::tactics::kolife`], which proves the
//!    defender's win on every path under that model); the value is
//!    flagged `KO`, as it holds under that model only;
//! 4. a defender's move, at a node where the target is in atari, that is
//!    not on the liberty and leaves the target in atari without a ko ban on
//!    its liberty: a move that captures nothing (no ko ban survives it), or
//!    a capture of blocks not next to the target (the target gains no
//!    liberty, and the only ko ban it can leave is on the captured stone's
//!    point, never the liberty). After it the attacker captures at once by
//!    2. Under a model that favours the defender, with a lone target
//!    stone, it is decided so only where that capture is surely final
//!    after the move (the liberty keeps another empty neighbour or touches
//!    an attacker stone). This is decided without playing the move, so
//!    the one other way the line could end, a repetition, is excluded
//!    first: the move is played
//!    instead whenever the path holds a position with the stone counts and
//!    target the child would have (and near the depth limit). The moves of
//!    this kind that capture nothing are never even listed (see *Frames*);
//! 5. the min/sum rules over a frame whose children are all solved, the
//!    frame's group of unlisted moves being empty or made of rule-4 losses;
//! 6. a solved table entry that is *usable* at the current node;
//! 7. the forced-reply rule (`forced`): at the attacker's move, where the
//!    defender has a point that escapes at once, the attacker's moves
//!    outside what that escape reads, and its pass, lose (the defender
//!    escapes there next, on every path and under every ko model); they
//!    are left out of the frame, so a node whose listed moves all lose is
//!    lost;
//! 8. the zone fixed point (`fixpoint`, [`Algo::FixpointDfpn`] only): at
//!    the attacker's move, once the moves of the closed zone of the
//!    defender's proofs (proofs without a cut line, their zones kept in a
//!    side table) are all refuted, every other attacker move loses too,
//!    on every path; the node's flags are those of its listed children,
//!    and `KO` when a ko capture of the zone was refuted by the ko loop
//!    (the defender's immediate retake, under the model that favours it);
//! 9. the ko loop outside the fixed point (`kozone`): at the attacker's
//!    move under no ban, with the defender favoured, a capture of one
//!    stone that the defender's retake answers with the same stones is
//!    left out of the frame. After the retake the attacker is to move with
//!    the node's stones and fewer moves, on a longer path, so the capture
//!    wins only where another move does; a loss found without it carries
//!    `KO`.
//!
//! Heuristic and unsolved table values are always between 1 and a cap far
//! below ∞, and a search stopped by a limit returns only unsolved values, so
//! limits and heuristics never produce a proof. The same holds for what a
//! frame stands in for its children until it evaluates them (the group of
//! unlisted moves, a capture evaluated late): unsolved numbers that keep
//! the node from being lost until every child they stand for has been
//! evaluated exactly, and that never win it. What remains is to show that
//! stored entries are true wherever they are used. The rules make a line
//! *path-dependent* when it ends because a whole game state repeats or the
//! depth limit is reached ([`CaptureGame::last_was_cut`]); both end it as a
//! **defender** win. Every result carries a `PATH_DEP` flag: set on such a
//! leaf, and passed up from the children the result rests on (the winning
//! child of a won node, all children of a lost one).
//!
//! * **Defender wins.** The tree that proves one (every attacker move
//!   answered, one defender move each) is stored only when it has no cut
//!   leaf. Reached by another path, some of its lines may now be cut earlier
//!   (a position repeats one of the new path, or the depth limit comes
//!   sooner), but a cut ends a line as a defender win, and turning leaves of
//!   a won minimax tree into wins for the same side cannot make it lost. So
//!   the entry holds on every path. A defender win that used a cut is *not*
//!   stored: it lives only in the frames (local child arrays) of the nodes
//!   above it on the current path, which is exactly where it is true.
//! * **Captures.** A proof tree for the attacker has only captures as
//!   leaves, never a cut, so no capture rests on its path. But reached by
//!   another path, one of the proof's positions could repeat a position of
//!   that path, and the rules would end that line for the defender. A stored
//!   capture therefore records, over every non-terminal position of its
//!   proof tree except its root, and separately for each *class* of
//!   position (black to move, white to move, after a pass: the key tells
//!   them apart), the least number of black and of white stones (taken
//!   over the sub-proofs reused from the table too; see `ghi`). A
//!   position of the path can only reappear in the tree if it has at least
//!   those numbers of stones for its class, and a target block of the same
//!   size: the target block only grows until it is captured, so the
//!   positions of the path before its last growth can never come back.
//!   Before a proven capture from the table is used, those positions of
//!   the current path are checked; if any could come back, the entry is
//!   ignored and the node searched on this path. By induction on the order
//!   in which entries are stored, every proof the search assembles from
//!   searched lines and table entries is free of repetitions along the
//!   path where it is used.
//!
//! The ko model and the move restriction are part of every key, and the
//! table is cleared when the problem (target, attacker, escape liberties,
//! board size) changes. Keys are 64-bit Zobrist keys, so two positions share
//! a key with a probability of about 2⁻⁶⁴ per pair; that risk is accepted.
//!
//! A result also carries a `KO` flag: set when some node it rests on had a
//! simple-ko ban for the player to move, or a line of it ended with the
//! attacker's ko capture of a lone target stone (which ends the game only
//! while the defender may not retake: `CaptureGame::capture_is_final`;
//! the static shortcuts that would decide such a capture without playing
//! it are not taken where it may be a ko capture). Without one, the same
//! tree proves the result under every [`KoModel`], since the models differ
//! only in whether a banned ko may be retaken (the proof check's
//! `ko_free_results_hold_under_every_model`); [`Solver::solve_with_ko`] uses that
//! to skip models, and with [`Algo::Auto`] looks for such a proof with
//! λ-df-pn when the first model's loss met a ban (`Solver::ko_free_loss`).
//!
//! # Frames
//!
//! With [`Algo::Dfpn`] every legal move is a child, but most are moves far
//! from the target that capture nothing: they change nothing the df-pn+
//! heuristic looks at and all get the same first numbers. A node's frame
//! (`frame`) lists only the pass, the target's liberties and the captures;
//! every other legal move belongs to the frame's *group*, which counts as
//! that many identical unsolved children for the min and sum (or weak)
//! rules. The count is exact: the empty points less the listed ones and
//! the suicides, which the board finds without a walk (the opponent's eye
//! points, and liberties of the mover's blocks in atari). When the group is
//! the selected child, its next member in board order is split off and
//! evaluated like any child; ties between children are broken in board
//! order, as if every move were listed. So the group is a proof-neutral
//! shorthand: the node is lost only when the count has reached 0, every
//! member split off and lost, or when every member is a rule-4 loss (the
//! defender in atari, with no repetition possible), and it is won only
//! through a listed child. Captures away from the target are evaluated when
//! first selected; until then their heuristic numbers (exact, but for the
//! rare repetition) hold their place. An unsolved table entry remembers how
//! far the group was split, so that a node expanded again lists those
//! members again, with their table numbers.
//!
//! # Costs
//!
//! An expansion walks the target's stones once and evaluates its listed
//! children without playing them (`child`): after the pass or a stone that
//! captures nothing, the key, the cut flag, the target's liberties and the
//! stone's own liberties follow from the board as it is (debug builds check
//! each against playing). Captures are played. The table is probed for the
//! children only when the node was searched before: at a first expansion
//! they are hardly ever in the table (their own probe catches
//! transpositions when they are searched), and each probe is a cache miss.
//! The probes of an expansion are batched so that their misses overlap. A
//! member split off or a capture evaluated late is probed at once, since
//! it is about to be searched.
//!
//! The end checks that read only the state (unconditional life, an
//! immediate capture, the pass after a pass) are made once per position:
//! the table is written only at a node where they found nothing, so a
//! node with an entry skips them, and Benson's verdicts are also kept in a
//! small cache by position (the threat searches ask for them at every
//! node). The path-dependent check, a repetition or the depth limit, is
//! made at every visit.
//!
//! [`Solver::new`] allocates the table; the first solve on a board size
//! reserves the frame arena (children of every node on the path, up to the
//! rules' depth limit). After that a solve allocates nothing per node: moves
//! are generated into a fixed list, frames live in the arena and on the
//! stack (the group and the target's liberties are fixed-size), the game in
//! one [`CaptureGame`].

mod atari;
mod candidates;
mod child;
mod fixpoint;
mod forced;
mod frame;
mod ghi;
mod goals;
mod group;
mod ko_codes;
mod kozone;
mod numbers;
mod plan;
mod pruning;
mod rounds;
mod search;
mod threats;
pub mod tt;
mod zones;

#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_ko;
#[cfg(test)]
mod tests_kolife;
#[cfg(test)]
mod tests_life;

use crate::go::board::{Board, Point, PointList, MAX_POINTS, PASS};
use crate::go::Color;
use crate::tactics::progress::Progress;
use crate::tactics::rules::{CaptureGame, KoModel, Problem, Step, Winner, MAX_DEPTH};
use arrayvec::ArrayVec;
use fixpoint::{Closure, CLOSURE_LEVELS};
pub use forced::Forced;
use goals::{LifeSlot, LIFE_SLOTS};
pub use ko_codes::ModelResult;
use numbers::{Child, Value, INF, NO_MOVE};
pub use plan::Algo;
use plan::Shape;
pub use rounds::{RoundAnswer, FIRST_ROUND_SHARE, MIN_ROUNDS_NODES};
pub use search::Stats;
use search::{Anc, Search};
use std::cell::Cell;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};
use threats::{CacheSlot, CACHE_SLOTS};
use tt::{Table, KO, REL};
use zones::{ZoneSlot, ZONE_SLOTS};

/// Default ε of the 1+ε threshold rule.
pub const DEFAULT_EPSILON: f64 = 0.25;

/// What stopped a search before it had an answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limit {
    Nodes,
    Time,
    Interrupted,
    /// λ-df-pn or dual-λ found no proof up to the highest threat order.
    Orders,
}

/// Bounds on one solve (for [`Solver::solve_with_ko`], on all its solves
/// together).
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    pub nodes: u64,
    pub time: Option<Duration>,
}

/// How the game is searched.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// λ¹: the attacker may only capture or put the target in atari. A win
    /// is still a capture; a loss only says there is no ladder.
    pub ladder: bool,
    /// After a win by passing at the root, look for a winning move other
    /// than pass with the budget left (GNU Go answers `defend` with a move
    /// when one works), preferring among equals the moves next to the
    /// fight (the target's liberties, then those of the attacker's blocks
    /// next to it) to far ones.
    pub avoid_root_pass: bool,
    /// Which search (see [`Algo`]).
    pub algo: Algo,
    /// Highest threat order λ-df-pn and dual-λ try (0: the default,
    /// [`DEFAULT_MAX_ORDER`]).
    pub max_order: u8,
    /// Whether the attacker answers a defender's escape threat only inside
    /// its zone (see `forced`).
    pub forced: Forced,
    /// A limit that stops the ko models before the code is known answers
    /// code 3 when the mover-favoured model was won (2 when the model with
    /// nobody favoured was), as a lower bound ([`KoResult::bound`]); those
    /// models get short solves first (`ko_codes`). The GTP commands set
    /// it; the player's block status does not.
    pub ko_bound: bool,
    /// `Dfpn` and `Auto` search with the df-pn+ heuristic only, giving no
    /// share to the neutral search (see [`Shape::neutral`]). The player's
    /// block status (at most 1,500 nodes a block) keeps to it: its play was
    /// measured that way, and the share was tuned on whole tactical
    /// problems, not on the player's small budgets.
    pub heuristic_only: bool,
    /// The ko-code solve runs in two rounds (`rounds`): a short one, then,
    /// when a node limit left it open, one with the nodes left, from an
    /// empty table. The GTP commands set it (`tesuji-solver_limits
    /// rounds=on`, the default); the solver's own entry points ignore it.
    pub rounds: bool,
}

/// Default highest threat order of λ-df-pn and dual-λ.
pub const DEFAULT_MAX_ORDER: u8 = 3;

/// Share of the limits left (thousandths) that `Auto` gives λ-df-pn to
/// turn a loss through a ko into a ko-free one (see
/// `Solver::ko_free_loss`).
pub const KO_FREE_SHARE: u64 = 100;

/// Nodes one threat search (one null-move question) may use.
pub const THREAT_BUDGET: u64 = 4000;

/// One capture-game question: the position, the problem, who moves first
/// and under which ko model.
#[derive(Clone, Copy, Debug)]
pub struct Question<'a> {
    pub board: &'a Board,
    pub problem: Problem,
    pub model: KoModel,
    pub to_move: Color,
}

/// The answer of one solve under one ko model.
#[derive(Clone, Debug, Default)]
pub struct SolveResult {
    /// Who wins with `to_move` moving first; `None` when a limit was hit.
    pub winner: Option<Winner>,
    /// The winning first move when the player to move wins (`PASS` may be
    /// it); `None` otherwise or when the root is already decided.
    pub best: Option<Point>,
    pub nodes: u64,
    pub elapsed: Duration,
    /// The main line from the table after a proof or disproof: the winner's
    /// proof moves and the loser's longest resistance.
    pub pv: ArrayVec<Point, 64>,
    pub limit_hit: bool,
    pub stopped_by: Option<Limit>,
    /// The result holds under every ko model (no ko ban met on the way).
    pub ko_free: bool,
    /// Children generated and evaluated to initialise frames.
    pub generated: u64,
    pub stats: Stats,
    /// The threat order of the search that proved the result (0 for plain
    /// df-pn).
    pub order: u8,
    /// Nodes spent in threat searches (included in `nodes`).
    pub threat_nodes: u64,
}

/// GNU Go's answer for the player to move: `code` 1 (wins even when the
/// opponent may retake kos at once), 2 (wins when nobody may), 3 (wins
/// only when the mover may), 0 (loses under every model), or `None` when
/// a limit was hit before the answer was certain.
#[derive(Clone, Debug)]
pub struct KoResult {
    pub code: Option<u8>,
    /// `Some` when `code` is a lower bound (code 3 from a win with the
    /// mover favoured, or 2 from one with nobody favoured): a model that
    /// could give a better code was stopped by this limit (see
    /// `ko_codes`). `None` when the code is exact.
    pub bound: Option<Limit>,
    /// The winning move of the first model that wins.
    pub best: Option<Point>,
    pub nodes: u64,
    pub elapsed: Duration,
    pub pv: ArrayVec<Point, 64>,
    pub stopped_by: Option<Limit>,
    /// The threat order of the proof (0: df-pn over every move).
    pub order: u8,
}

#[derive(Clone, Copy, PartialEq, Eq)]
struct Identity {
    target: Point,
    attacker: Color,
    escape_libs: usize,
    size: usize,
}

/// A df-pn solver: its table and buffers, reused from solve to solve.
pub struct Solver {
    tt: Table,
    arena: Vec<Child>,
    anc: Vec<Anc>,
    moves: Box<PointList>,
    pending: Vec<search::Pending>,
    sums: Vec<numbers::Scan>,
    eps_milli: u64,
    weak: bool,
    identity: Option<Identity>,
    cache: Vec<CacheSlot>,
    /// Proof zones of defender wins (see `fixpoint`).
    zones: Vec<ZoneSlot>,
    /// The zone fixed points of the path's frames, by level.
    closures: Vec<Closure>,
    zone_epoch: u64,
    /// Benson's verdict on the target for recent positions (see
    /// [`LifeSlot`]).
    life_cache: Vec<Cell<LifeSlot>>,
    /// Watches every solve while it runs ([`Solver::set_progress`]).
    progress: Option<Box<dyn Progress + Send>>,
}

fn salt(model: KoModel, ladder: bool) -> u64 {
    let m = match model.favoured {
        None => 0,
        Some(Color::Black) => 0x6A09_E667_F3BC_C908,
        Some(Color::White) => 0xBB67_AE85_84CA_A73B,
    };
    m ^ if ladder { 0x3C6E_F372_FE94_F82B } else { 0 }
}

fn role(c: Color, attacker: Color) -> Winner {
    if c == attacker {
        Winner::Attacker
    } else {
        Winner::Defender
    }
}

impl Solver {
    /// A solver with a transposition table of `tt_megabytes` MB (0: none).
    pub fn new(tt_megabytes: usize) -> Solver {
        Solver {
            tt: Table::new(tt_megabytes),
            arena: Vec::new(),
            anc: Vec::with_capacity(MAX_DEPTH + 2),
            moves: Box::new(PointList::new()),
            pending: Vec::with_capacity(MAX_POINTS + 1),
            sums: Vec::new(),
            eps_milli: (DEFAULT_EPSILON * 1000.0) as u64,
            weak: true,
            identity: None,
            cache: Vec::new(),
            zones: Vec::new(),
            closures: Vec::new(),
            zone_epoch: 0,
            life_cache: Vec::new(),
            progress: None,
        }
    }

    /// Sets ε of the 1+ε rule (0 gives Nagai's original +1 thresholds).
    pub fn set_epsilon(&mut self, eps: f64) {
        self.eps_milli = (eps.clamp(0.0, 1000.0) * 1000.0).round() as u64;
    }

    /// δ of AND-side nodes by the weak rule of WPNS (the default) or by
    /// df-pn's plain sum. Either proves the same results; they differ in
    /// how much work that takes.
    pub fn set_weak_rule(&mut self, weak: bool) {
        self.weak = weak;
    }

    /// Installs a watcher that every solve from now on polls as it runs
    /// (`None` removes it); returns the one it replaces.
    pub fn set_progress(
        &mut self,
        p: Option<Box<dyn Progress + Send>>,
    ) -> Option<Box<dyn Progress + Send>> {
        std::mem::replace(&mut self.progress, p)
    }

    /// Makes the next solve start from an empty table, as a new problem
    /// would (the second of [`rounds`]).
    pub fn forget(&mut self) {
        self.identity = None;
    }

    /// Clears the table when the problem changes; reserves the arena.
    fn prepare(&mut self, board: &Board, problem: Problem) {
        let id = Identity {
            target: problem.target,
            attacker: problem.attacker,
            escape_libs: problem.escape_libs,
            size: board.size(),
        };
        if self.cache.is_empty() {
            self.cache = vec![CacheSlot::default(); CACHE_SLOTS];
            self.life_cache = vec![Cell::new(LifeSlot::default()); LIFE_SLOTS];
        }
        if self.identity != Some(id) {
            self.tt.clear();
            self.cache.fill(CacheSlot::default());
            // Zones are not wiped (a few megabytes): a new epoch in their
            // keys makes the old ones unreadable.
            self.zone_epoch = self.zone_epoch.wrapping_add(0x9E37_79B9_7F4A_7C15);
            // Keys name the target point, not the problem: cleared anyway
            // so that a slot is only ever read by the problem that wrote
            // it.
            self.life_cache.fill(Cell::new(LifeSlot::default()));
            self.identity = Some(id);
        }
        // Every move and the pass, and one pseudo-child.
        let width = board.size() * board.size() + 2;
        let need = (MAX_DEPTH + 1) * width;
        self.arena.clear();
        self.arena.reserve_exact(need);
        self.sums.clear();
        self.sums
            .reserve_exact((MAX_DEPTH + 1) * width.div_ceil(numbers::BLOCK));
        self.anc.clear();
    }

    /// Solves the capture game from `board` with `to_move` first under one
    /// ko model.
    pub fn solve(
        &mut self,
        q: Question,
        opts: Options,
        limits: Limits,
        stop: &AtomicBool,
    ) -> SolveResult {
        let start = Instant::now();
        self.prepare(q.board, q.problem);
        let deadline = limits.time.map(|t| start + t);
        let max_order = if opts.max_order == 0 {
            DEFAULT_MAX_ORDER
        } else {
            opts.max_order
        };
        let opts = Options { max_order, ..opts };
        let mover = role(q.to_move, q.problem.attacker);
        let plan = plan::build(&opts, mover);
        let mut total: Option<SolveResult> = None;
        for (shape, share) in plan {
            let used = total.as_ref().map_or(0, |t| t.nodes);
            let left = limits.nodes.saturating_sub(used);
            let cap = (limits.nodes as u128 * share as u128 / 1000) as u64;
            let node_limit = left.min(cap.max(1));
            let run_deadline = match (deadline, limits.time) {
                (Some(d), Some(t)) => {
                    Some(d.min(Instant::now() + t.mul_f64(share as f64 / 1000.0)))
                }
                (d, _) => d,
            };
            let mut r = self.run(q, opts, shape, node_limit, run_deadline, stop);
            let own_nodes = r.nodes;
            if let Some(t) = &total {
                r.nodes += t.nodes;
                r.generated += t.generated;
                r.threat_nodes += t.threat_nodes;
            }
            r.elapsed = start.elapsed();
            // A search stopped by its share, not by the command's limits,
            // leaves the rest to the next one.
            let share_only = match r.stopped_by {
                Some(Limit::Nodes) => own_nodes < left,
                Some(Limit::Time) => deadline.is_none_or(|d| Instant::now() < d),
                _ => false,
            };
            let done = r.winner.is_some() || (r.stopped_by.is_some() && !share_only);
            if share_only {
                r.stopped_by = None;
                r.limit_hit = false;
            }
            total = Some(r);
            if done {
                break;
            }
        }
        let mut r = total.expect("the plan has a search");
        if r.winner.is_none() && r.stopped_by.is_none() {
            r.stopped_by = Some(Limit::Orders);
            r.limit_hit = true;
        }
        r
    }

    /// One df-pn search: plain (`sides` both false) or shaped by the
    /// threats of the players in `sides` at threat order `order`.
    fn run(
        &mut self,
        q: Question,
        opts: Options,
        shape: Shape,
        node_limit: u64,
        deadline: Option<Instant>,
        stop: &AtomicBool,
    ) -> SolveResult {
        let Question {
            board,
            problem,
            model,
            to_move,
        } = q;
        let start = Instant::now();
        // A threat proof of order k < max_order has at most k null moves
        // on a line, and a transfer adds one stone more (see `pruning`).
        let soft_libs = opts.max_order as usize + 3;
        let Shape {
            sides,
            order,
            own,
            forced,
            neutral,
            fixpoint,
        } = shape;
        let shape_salt = shape.salt();
        if fixpoint && self.zones.is_empty() {
            // Only searches with the zone fixed point use the table.
            self.zones = vec![ZoneSlot::default(); ZONE_SLOTS];
            self.closures = vec![Closure::default(); CLOSURE_LEVELS];
        }
        let mut s = Search {
            game: CaptureGame::new(board, problem, model, to_move),
            tt: &mut self.tt,
            arena: &mut self.arena,
            anc: &mut self.anc,
            moves: &mut self.moves,
            pending: &mut self.pending,
            sums: &mut self.sums,
            salt: salt(model, opts.ladder) ^ shape_salt.wrapping_mul(0x2545_F491_4F6C_DD1D),
            attacker: problem.attacker,
            target: problem.target,
            ladder: opts.ladder,
            forced,
            fixpoint,
            zone_off: false,
            zones: &mut self.zones,
            closures: &mut self.closures,
            zone_salt: self.zone_epoch,
            eps_milli: self.eps_milli,
            weak: self.weak,
            neutral,
            nodes: 0,
            generated: 0,
            stats: Stats::default(),
            node_limit,
            deadline,
            stop,
            abort: None,
            sides,
            own,
            order,
            cache: &mut self.cache,
            life_cache: &self.life_cache,
            threat_budget: THREAT_BUDGET,
            threat_left: 0,
            threat_exhausted: false,
            threat_cuts: 0,
            threat_max_depth: 0,
            soft_libs,
            threat_salt: salt(model, false)
                ^ (soft_libs as u64).wrapping_mul(0x9FB2_1C65_1E98_DF25),
            threat_nodes: 0,
            progress: self
                .progress
                .as_mut()
                .map(|p| &mut **p as &mut dyn Progress),
            libs_hint: None,
        };
        s.anc.clear();
        let root = s.root_anc();
        s.anc.push(root);
        s.check_limits();
        let mut v = s.mid(INF, INF, false);
        if opts.avoid_root_pass && v.phi == 0 && v.best == PASS as u16 && s.abort.is_none() {
            let w = s.mid(INF, INF, true);
            if w.phi == 0 && w.flags & REL == 0 {
                v = w;
            }
            // The pass is proven; a limit hit looking for another move
            // leaves that answer standing.
            s.abort = None;
        }
        let real = v.flags & REL == 0;
        let winner = if v.phi == 0 && real {
            Some(role(to_move, problem.attacker))
        } else if v.delta == 0 && real {
            Some(role(to_move.opp(), problem.attacker))
        } else {
            None
        };
        let best = (winner.is_some() && v.phi == 0 && v.best != NO_MOVE).then_some(v.best as Point);
        let pv = if winner.is_some() {
            principal_variation(&mut s, &v)
        } else {
            ArrayVec::new()
        };
        log::debug!(
            "dfpn sides {:?} order {} {:?} first, {:?} favoured: {:?} (solved {}) after {} nodes ({} in threats), {} children, {:?}, pv {:?}",
            sides,
            order,
            to_move,
            model.favoured,
            winner,
            v.is_solved(),
            s.nodes,
            s.threat_nodes,
            s.generated,
            s.stats,
            pv.iter()
                .map(|&p| Board::to_move_value(p).to_string())
                .collect::<Vec<_>>()
        );
        SolveResult {
            winner,
            best,
            nodes: s.nodes,
            elapsed: start.elapsed(),
            pv,
            limit_hit: winner.is_none() && s.abort.is_some(),
            stopped_by: if winner.is_none() { s.abort } else { None },
            ko_free: v.flags & KO == 0,
            generated: s.generated,
            stats: s.stats,
            order,
            threat_nodes: s.threat_nodes,
        }
    }
}

/// The main line after a solved root: the root's move, then the best moves
/// of solved table entries (or the immediate capture) until the game ends,
/// an entry is missing, or 64 moves.
fn principal_variation(s: &mut Search, root: &Value) -> ArrayVec<Point, 64> {
    let mut pv = ArrayVec::new();
    let mut played = 0;
    while !pv.is_full() && s.game.winner().is_none() {
        let mv = if played == 0 {
            root.best
        } else if let Some(lib) = s.capture_now() {
            lib as u16
        } else {
            match s.tt.probe(s.game.key() ^ s.salt) {
                Some(e) if e.is_solved() => e.best,
                _ => NO_MOVE,
            }
        };
        if mv == NO_MOVE || s.game.play(mv as Point) != Step::Played {
            break;
        }
        played += 1;
        pv.push(mv as Point);
    }
    for _ in 0..played {
        s.game.undo();
    }
    pv
}
