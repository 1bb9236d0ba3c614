//! `tesuji bench search [--depth D] [--plies P] [--positions N] [--seed S]
//! [--game SPEC,...] [--fresh] [--cutoffs] [--aspiration]
//! [--ordering full|history|none] [--stats]`:
//! NegaScout against plain α-β at equal depth (issue 5, point 6), the
//! experiment of seed 004 (Hsu, "Scout and NegaScout", which reports
//! 10–20% fewer nodes for NegaScout).
//!
//! # What is compared
//!
//! Both searches are the same depth-limited, fail-soft negamax with the
//! game's [`Game::evaluate`] at the horizon and the same move ordering
//! ([`Heuristics::order`]: killers, history, then the evaluation after the
//! move; each search has its own, cleared, heuristics). They differ only in
//! the windows: α-β searches every child with `(α, β)`; NegaScout searches
//! the first child with the full window and every later one with a null
//! window `(m, m+1)` around the best value so far, re-searching a test that
//! fails high inside the window. As in the seed (line 11, "depth < 3"), a
//! test with fewer than three plies left needs no re-search: without a
//! table, a child one ply above the horizon that fails low under a null
//! window has searched all of its children, whose values are exact leaf
//! values, so the value it returns is exact too.
//!
//! A re-search reads the bounds its own TEST found at the positions it
//! walks again (the seed's refinement: "when a subtree is re-searched, it
//! is best to use information on the previous search"), and nothing else:
//! each bound is stamped when it is stored and used only inside the
//! re-search of the TEST that stored it, at exactly the depth it holds for
//! (`super::bench_search_recall`, which argues why the values stay exact
//! and why a transposition finds nothing there). The bounds live in a
//! fixed 2 MiB store ([`Recall`]) made once with the heuristics and the
//! table, so the searches allocate nothing.
//! The players get the same from their tables, which cut with any bound;
//! here the default table only orders moves, and without this memory a
//! re-search searched blind. Session 24 (`--blind-researches` gives the
//! old search): the default set went from 3,716,111 to 3,642,324
//! NegaScout nodes against α-β's unchanged 4,107,126 (9.5% to 11.3%
//! saved, 0 root values differ); m,n,k's re-searches from 77,684 to
//! 20,343 nodes. Held-out sets: `--seed 100` 5.8% to 7.7%, `--seed 200`
//! 6.8% to 7.3%; `--aspiration` 8.1% to 9.9%, `--ordering history` 9.8%
//! to 10.1%; with `--cutoffs`, whose table already cuts with the TESTs'
//! bounds, almost nothing changes (`--cutoffs --aspiration`: 2,318,862 to
//! 2,318,307 nodes, 7.9% either way).
//!
//! By default there is no transposition table that cuts off: with table
//! cutoffs, values found at a different depth or through a different
//! window make root values depend on the search order, and the benchmark
//! must check that the values agree exactly. This is the seed's own
//! setting (a tree search without a table). In the deepening runs a table
//! of best moves orders the moves of the next iteration, as in the players.
//!
//! Two options add the players' other enhancements, to both searches
//! alike ([`Enhancements`]):
//!
//! - `--cutoffs`: the table's fail-soft bounds cut off, but only from an
//!   entry of exactly the node's remaining depth, so that every value is
//!   still the exact depth-limited minimax value (the players also use
//!   deeper entries, which would make the two root values differ for
//!   reasons that have nothing to do with the windows). Proven scores are
//!   stored counted from the node (a win at ply p is `WIN − p` from the
//!   root), so an entry is right wherever its position recurs. The games'
//!   keys hold everything the rules look at (Go: stones, side to move,
//!   simple-ko point and consecutive passes; there is no superko here), so
//!   a position's depth-limited value does not depend on the path to it
//!   and a table cannot create graph-history differences. NegaScout's
//!   line-11 shortcut stays exact: an upper bound stored one ply above the
//!   horizon is the node's exact value (it searched every child, all
//!   exact leaves).
//! - `--aspiration`: from depth 3 on, the root gets a window of
//!   ±`ASPIRATION` around the last iteration's value and, when the value
//!   falls outside, the full window again, as the games' player does; both
//!   searches' nodes count.
//!
//! Two more options explain the numbers: `--stats` prints per game what
//! each search did ([`super::bench_search_stats`]), and `--ordering`
//! replaces the players' ordering by a control for both searches
//! ([`Ordering`]).
//!
//! # Why the saving differs by game
//!
//! The NegaScout here follows the seed's F4 (first child with the full
//! window; later ones with `(m, m+1)`, `m = max(α, best)`; fail-soft; a
//! test failing high inside the window re-searched with `(t, β)`; no
//! re-search with fewer than three plies left), and iterative deepening
//! gives both searches the last iteration's best move first at the root
//! (checked: every root from depth 2 on has its table move) and at
//! interior nodes. What differs between games is the ordering (session 12,
//! `--stats`, default set, default definition): α-β's cut nodes with two
//! or more plies left cut with their first move in 99.1% (Domineering)
//! and 97.9% (m,n,k) of cases, against 93.8% (NoGo) and 92.5% (Go). Where
//! the first move nearly always cuts, α-β's tree is already close to the
//! minimal tree, which NegaScout visits too; its null windows only pay
//! where an expected all-node has a child that fails high, and those are
//! the cases the ordering removed. The control shows it: in move-generator
//! order (`--ordering none`, the seed's setting of trees without
//! ordering) NegaScout saves 54.7% in Domineering and 56.5% in m,n,k, and
//! the players' ordering cuts α-β's nodes 22-fold and 240-fold there
//! (NoGo and Go: 10.8% and 9.0% saved; 3.9- and 12-fold: their saving
//! stays near 10% under all three orderings, so it is not the ordering
//! alone that sets it; without the evaluation, `--ordering history`,
//! Domineering's saving doubles to 4.6%). m,n,k also
//! loses to re-searches: the best move at its PV nodes is the first one in
//! only about half the cases (its root values swing between odd and even
//! depths: 16, −11, 18, −10 at depths 3–6 for position 0), and 19
//! re-searches cost 77,684 nodes, 6.0% of α-β's (20,343 once they read
//! their TESTs' bounds, session 24).
//! A threat-aware m,n,k evaluation tried then made both searches smaller
//! but NegaScout's saving smaller too (5.6% to 4.2%), as expected.
//!
//! Session 15 checked five more leads (with blind re-searches); none
//! reached 10% on its merits:
//!
//! - **Other position sets** (same games, depths and counting, only
//!   `--seed` changed, as a held-out check, not as a replacement): 5.8%
//!   with `--seed 100` (3,700,788 against 3,485,965 nodes) and 6.8% with
//!   `--seed 200` (3,552,895 against 3,311,738). The default set's 9.5% is
//!   on the high side of this configuration's saving.
//! - **No table move from a node that failed low** (fail-soft's "best"
//!   move there is only the largest upper bound; many programs keep the
//!   older move instead): 8.7% (seeds 100 and 200: 6.0%, 6.7%). The move
//!   NegaScout's TEST stores at a child that fails low is the one that
//!   returned t, the seed's own refinement for the re-search ("restart
//!   from the position that the value t is returned"); without it m,n,k's
//!   re-searches cost more.
//! - **Killers and history also rewarded for the best move of a node
//!   whose value falls inside its window**: 7.3% (5.3%, 7.6%). α-β gains
//!   more (−3.7% nodes on the default set) than NegaScout (−1.4%).
//! - **Internal iterative deepening** at PV nodes without a table move:
//!   `--stats` counts the nodes with three or more plies left and no
//!   table move. In NegaScout none of them has a window wider than null,
//!   so IID (which PVS programs run only at PV nodes) would never fire; in
//!   α-β nearly all of them do (every α-β window is wide), so the same
//!   trigger would only add nodes to α-β.
//! - **A side-to-move (tempo) term** in the m,n,k evaluation (+14, half
//!   the odd/even swing) removes the swing of the root values (16, −11,
//!   18, −10 become 2, 3, 4, 4 for position 0) but leaves every node
//!   count unchanged, with and without `--aspiration`: at a fixed depth
//!   all horizon leaves have the same side to move, so a constant term
//!   shifts them all alike and changes no comparison.
//!
//! A **node** is one call of the search on a position (horizon leaves,
//! terminal positions and positions decided by [`Game::bound`] included);
//! the evaluations made while ordering are the same for both and not
//! counted. Scores beyond [`EVAL_MAX`] are proven: a win at ply p scores
//! `WIN − p`.
//!
//! Positions: each game from its start, then a fixed number of random
//! plies (`--plies`, or `SPEC@P` for one game) drawn with SplitMix64 from
//! a fixed seed (position i uses seed + i), so the set repeats.

pub use super::bench_search_recall::Recall;
use super::bench_search_stats::Stats;
use super::depth_first::{pick_next, Heuristics, Table, MAX_PLY};
use super::negascout::{end_score, ASPIRATION, WIN};
use crate::games::{Game, MoveList, EVAL_MAX, MAX_MOVES};
use crate::go::zobrist::splitmix64;
use arrayvec::ArrayVec;

pub use super::bench_search_cli::{main, rows_for, split_specs, Row};

const INF: i32 = WIN + 1;

/// The games of the default set.
/// m,n,k gets fewer random plies: after six random moves one side
/// usually has a forced win within three plies, which no window helps.
pub const DEFAULT_GAMES: &[&str] = &["domineering:8x8", "nogo:7x7", "mnk:7,7,4@2", "go:7"];

/// Which windows a search uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Windows {
    AlphaBeta,
    NegaScout,
}

/// Root value and node count of one fixed-depth search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Result {
    pub value: i32,
    pub nodes: u64,
    /// What the search did at its interior nodes (`--stats`).
    pub stats: Stats,
}

/// Searches `game` to `depth` plies with `windows` and fresh heuristics
/// (no table: the static ordering). `recall` holds what NegaScout's TESTs
/// found for their re-searches; nothing stored in it before is read.
pub fn search<G: Game>(
    game: &G,
    depth: u32,
    windows: Windows,
    heuristics: &mut Heuristics<G::Move>,
    recall: &mut Recall,
) -> Result {
    heuristics.clear();
    let enhancements = Enhancements::default();
    let s = Search::new(windows, heuristics, None, recall, enhancements);
    search_with(game, depth, s, None)
}

/// Iterative deepening to `depth`: one [`Result`] per iteration. Killers,
/// history and a table of best moves carry over from one iteration to the
/// next (the table is cleared first); the table only orders moves, it
/// never cuts, so every iteration's value is the exact depth-limited one.
pub fn deepen<G: Game>(
    game: &G,
    depth: u32,
    windows: Windows,
    heuristics: &mut Heuristics<G::Move>,
    table: &mut Table<G::Move>,
    recall: &mut Recall,
) -> Vec<Result> {
    deepen_with(
        game,
        depth,
        windows,
        heuristics,
        table,
        recall,
        Enhancements::default(),
    )
}

/// The players' enhancements beyond the ordering that a deepening run
/// may add, and the ordering itself, the same for both algorithms (see the
/// module docs).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Enhancements {
    /// The table's bounds cut off (entries of exactly the node's depth).
    pub cutoffs: bool,
    /// Aspiration windows at the root, as the games' player sets them.
    pub aspiration: bool,
    /// How the moves are ordered (`--ordering`).
    pub ordering: Ordering,
    /// NegaScout's re-searches do not read what their TESTs found
    /// (`--blind-researches`; the seed's plain F4, for comparison; see
    /// `super::bench_search_recall`). α-β is the same either way.
    pub blind_researches: bool,
}

/// Move ordering of both searches. Only [`Ordering::Full`] is the players'
/// ordering; the other two are controls that show how NegaScout's saving
/// depends on the ordering (seed 004 measured its 10–20% on uniform random
/// trees, i.e. without any ordering).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Ordering {
    /// Table move, killers, then the evaluation after the move with
    /// history breaking ties ([`Heuristics::order`]).
    #[default]
    Full,
    /// Table move, killers and history, without the evaluation.
    History,
    /// The move generator's order: no table move, killers or history.
    None,
}

/// [`deepen`] with the players' `enhancements` (see the module docs for why
/// the values stay exact).
pub fn deepen_with<G: Game>(
    game: &G,
    depth: u32,
    windows: Windows,
    heuristics: &mut Heuristics<G::Move>,
    table: &mut Table<G::Move>,
    recall: &mut Recall,
    enhancements: Enhancements,
) -> Vec<Result> {
    heuristics.clear();
    table.clear();
    let mut last = 0;
    (1..=depth)
        .map(|d| {
            let around = enhancements.aspiration.then_some(last);
            let table = Some(&mut *table);
            let s = Search::new(windows, heuristics, table, recall, enhancements);
            let r = search_with(game, d, s, around);
            last = r.value;
            r
        })
        .collect()
}

/// One search to `depth` with the full window; or, given the last
/// iteration's value `around`, one iteration as the games' player runs it
/// (`super::negascout`): from depth 3 on, a window of ±[`ASPIRATION`]
/// around that value, and the full window again when the value falls
/// outside. The nodes of both searches count.
fn search_with<G: Game>(
    game: &G,
    depth: u32,
    mut s: Search<'_, G::Move>,
    around: Option<i32>,
) -> Result {
    let mut g = game.clone();
    let narrow = around.filter(|last| depth >= 3 && last.abs() < EVAL_MAX);
    let mut value = match narrow {
        Some(last) => s.search(&mut g, last - ASPIRATION, last + ASPIRATION, depth, 0),
        None => s.search(&mut g, -INF, INF, depth, 0),
    };
    if narrow.is_some_and(|last| (value - last).abs() >= ASPIRATION) {
        value = s.search(&mut g, -INF, INF, depth, 0);
    }
    Result {
        value,
        nodes: s.nodes,
        stats: s.stats,
    }
}

struct Search<'h, M> {
    heuristics: &'h mut Heuristics<M>,
    /// Best moves of earlier searches, for ordering only.
    table: Option<&'h mut Table<M>>,
    windows: Windows,
    /// Whether the table's bounds cut off (see the module docs).
    cutoffs: bool,
    ordering: Ordering,
    /// What NegaScout's TESTs found, for their re-searches (`None`: blind
    /// re-searches).
    recall: Option<&'h mut Recall>,
    nodes: u64,
    stats: Stats,
}

impl<'h, M> Search<'h, M> {
    fn new(
        windows: Windows,
        heuristics: &'h mut Heuristics<M>,
        table: Option<&'h mut Table<M>>,
        recall: &'h mut Recall,
        enhancements: Enhancements,
    ) -> Search<'h, M> {
        recall.begin_search();
        Search {
            heuristics,
            table,
            windows,
            cutoffs: enhancements.cutoffs,
            ordering: enhancements.ordering,
            recall: (!enhancements.blind_researches).then_some(recall),
            nodes: 0,
            stats: Stats::default(),
        }
    }
}

/// Converts a proven score between the root's view (a win at ply p scores
/// `WIN − p`) and the node's (plies counted from the node), so that a
/// table entry holds the same value wherever the position recurs. Scores
/// within `±EVAL_MAX` and the infinite bounds are left alone.
#[inline]
fn to_node(v: i32, ply: usize) -> i32 {
    shift(v, ply as i32)
}

#[inline]
fn to_root(v: i32, ply: usize) -> i32 {
    shift(v, -(ply as i32))
}

#[inline]
fn shift(v: i32, p: i32) -> i32 {
    if v.abs() >= INF || v.abs() < EVAL_MAX {
        v
    } else if v > 0 {
        v + p
    } else {
        v - p
    }
}

impl<M: Copy + Eq + std::hash::Hash> Search<'_, M> {
    fn search<G: Game<Move = M>>(
        &mut self,
        g: &mut G,
        mut alpha: i32,
        beta: i32,
        depth: u32,
        ply: usize,
    ) -> i32 {
        self.nodes += 1;
        if let Some(v) = end_score(g, ply) {
            return v;
        }
        if depth == 0 || ply + 1 >= MAX_PLY {
            return g.evaluate();
        }
        let mut moves = MoveList::new();
        g.moves(&mut moves);
        let mut keys = ArrayVec::<i64, MAX_MOVES>::new();
        let color = g.to_move();
        let key = g.canonical_key();
        let entry = self.table.as_ref().and_then(|t| t.probe(key));
        let tt_move = entry.and_then(|e| e.best);
        if depth >= 3 && tt_move.is_none() && self.table.is_some() {
            self.stats.no_table_move(alpha, beta);
        }
        if let Some(e) = entry.filter(|e| self.cutoffs && e.depth as u32 == depth) {
            let (lo, hi) = (to_root(e.lo, ply), to_root(e.hi, ply));
            // An upper bound stored one ply above the horizon is the exact
            // value (a node there that fails low has searched every child,
            // all exact leaves), so NegaScout's TEST without re-search
            // stays exact with these cutoffs too.
            if lo >= beta || lo == hi || hi <= alpha {
                return if lo >= beta || lo == hi { lo } else { hi };
            }
        }
        // The bounds this position's TEST found, in its re-search: exact
        // for the same reasons (see `super::bench_search_recall`).
        if let Some((lo, hi)) = self.recall.as_deref().and_then(|r| r.bounds(key, depth)) {
            let (lo, hi) = (to_root(lo, ply), to_root(hi, ply));
            if lo >= beta || lo == hi || hi <= alpha {
                self.stats.recalled += 1;
                return if lo >= beta || lo == hi { lo } else { hi };
            }
        }
        let alpha0 = alpha;
        match self.ordering {
            Ordering::None => keys.extend(moves.iter().map(|_| 0)),
            Ordering::Full | Ordering::History => {
                self.heuristics
                    .order(g, ply, tt_move, &moves, &mut keys, None);
            }
        }
        if self.ordering == Ordering::History {
            // Keep the table move's and the killers' keys; the others keep
            // only their history part (the low 32 bits).
            for k in keys.iter_mut().filter(|k| **k < i64::MAX - 2) {
                *k &= 0xffff_ffff;
            }
        }
        let before = self.nodes;
        let mut best = -INF;
        let mut best_move = None;
        let mut best_index = 0;
        for i in 0..moves.len() {
            pick_next(&mut moves, &mut keys, i);
            let m = moves[i];
            let undo = g.play(m);
            let v = if i == 0 || self.windows == Windows::AlphaBeta {
                -self.search(g, -beta, -alpha, depth - 1, ply + 1)
            } else {
                // alpha already includes the best value so far. A TEST
                // that may be re-searched (a window wider than null, three
                // or more plies left) keeps its bounds for the re-search.
                let test_start = self.nodes;
                let remember = beta - alpha > 1 && depth > 2;
                if let Some(r) = self.recall.as_deref_mut().filter(|_| remember) {
                    r.begin_test();
                }
                let t = -self.search(g, -alpha - 1, -alpha, depth - 1, ply + 1);
                if let Some(r) = self.recall.as_deref_mut().filter(|_| remember) {
                    r.end_test();
                }
                if t > alpha && t < beta && depth > 2 {
                    let start = self.nodes;
                    self.stats.researches += 1;
                    self.stats.tested_nodes += start - test_start;
                    // The TEST just ended was remembered: a window that
                    // holds t strictly is wider than null.
                    if let Some(r) = self.recall.as_deref_mut() {
                        r.begin_research();
                    }
                    let v = -self.search(g, -beta, -t, depth - 1, ply + 1);
                    if let Some(r) = self.recall.as_deref_mut() {
                        r.end_research();
                    }
                    self.stats.research_nodes += self.nodes - start;
                    v
                } else {
                    t
                }
            };
            g.undo(m, undo);
            if v > best {
                best = v;
                best_move = Some(m);
                best_index = i;
                if v > alpha {
                    alpha = v;
                }
                if v >= beta {
                    self.heuristics.reward(m, color, ply, depth);
                    break;
                }
            }
        }
        if depth >= 2 {
            self.stats.node(alpha0, beta, best, best_index);
        }
        // Fail-soft: `best` is a lower bound at or above beta, an upper
        // bound at or below the original alpha, exact in between.
        let (lo, hi) = if best >= beta {
            (best, INF)
        } else if best > alpha0 {
            (best, best)
        } else {
            (-INF, best)
        };
        if let Some(r) = self.recall.as_deref_mut() {
            r.store(key, depth, to_node(lo, ply), to_node(hi, ply));
        }
        if let Some(t) = self.table.as_deref_mut() {
            let d = depth.min(u8::MAX as u32 - 1) as u8;
            let (lo, hi) = if self.cutoffs { (lo, hi) } else { (-INF, INF) };
            t.store(
                key,
                to_node(lo, ply),
                to_node(hi, ply),
                d,
                best_move,
                self.nodes - before,
            );
        }
        best
    }
}

/// A deterministic benchmark position: `plies` random moves (fewer if the
/// game ends first; the last move is taken back so the position is live)
/// from the start, drawn from `seed`.
pub fn position<G: Game>(start: &G, plies: usize, seed: u64) -> G {
    let mut g = start.clone();
    let mut state = seed;
    let mut moves = MoveList::new();
    for _ in 0..plies {
        moves.clear();
        g.moves(&mut moves);
        if moves.is_empty() {
            break;
        }
        let (s, r) = splitmix64(state);
        state = s;
        let m = moves[(r % moves.len() as u64) as usize];
        let undo = g.play(m);
        if g.outcome().is_some() {
            g.undo(m, undo);
            break;
        }
    }
    g
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::spec::{GameSpec, Visit};

    /// Plain minimax with the same scoring: the reference both must match.
    fn minimax<G: Game>(g: &mut G, depth: u32, ply: usize) -> i32 {
        if let Some(v) = end_score(g, ply) {
            return v;
        }
        if depth == 0 {
            return g.evaluate();
        }
        let mut moves = MoveList::new();
        g.moves(&mut moves);
        let mut best = -INF;
        for &m in &moves {
            let u = g.play(m);
            best = best.max(-minimax(g, depth - 1, ply + 1));
            g.undo(m, u);
        }
        best
    }

    struct Check(u32);
    impl Visit for Check {
        type Out = (Stats, Stats);
        fn visit<G: Game>(self, start: G) -> (Stats, Stats) {
            let mut h = Heuristics::new();
            let mut t = Table::new(1 << 20);
            let mut r = Recall::new();
            let (mut ab_total, mut ns_total) = (Stats::default(), Stats::default());
            for seed in 0..6 {
                let g = position(&start, seed as usize % 3, seed);
                let ab_id = deepen(&g, self.0, Windows::AlphaBeta, &mut h, &mut t, &mut r);
                let ns_id = deepen(&g, self.0, Windows::NegaScout, &mut h, &mut t, &mut r);
                let all = Enhancements {
                    cutoffs: true,
                    aspiration: true,
                    ..Enhancements::default()
                };
                let ab_tt =
                    deepen_with(&g, self.0, Windows::AlphaBeta, &mut h, &mut t, &mut r, all);
                let ns_tt =
                    deepen_with(&g, self.0, Windows::NegaScout, &mut h, &mut t, &mut r, all);
                // The control orderings, with table cutoffs.
                let controls: Vec<_> = [Ordering::History, Ordering::None]
                    .into_iter()
                    .flat_map(|ordering| {
                        let e = Enhancements {
                            cutoffs: true,
                            ordering,
                            ..Enhancements::default()
                        };
                        [Windows::AlphaBeta, Windows::NegaScout]
                            .map(|w| deepen_with(&g, self.0, w, &mut h, &mut t, &mut r, e))
                    })
                    .collect();
                for d in 1..=self.0 {
                    let want = minimax(&mut g.clone(), d, 0);
                    let ab = search(&g, d, Windows::AlphaBeta, &mut h, &mut r);
                    let ns = search(&g, d, Windows::NegaScout, &mut h, &mut r);
                    assert_eq!(ab.value, want, "alpha-beta, seed {seed}, depth {d}");
                    assert_eq!(ns.value, want, "negascout, seed {seed}, depth {d}");
                    let i = d as usize - 1;
                    assert_eq!(ab_id[i].value, want, "deepening alpha-beta, depth {d}");
                    assert_eq!(ns_id[i].value, want, "deepening negascout, depth {d}");
                    assert_eq!(ab_tt[i].value, want, "cutoffs alpha-beta, depth {d}");
                    assert_eq!(ns_tt[i].value, want, "cutoffs negascout, depth {d}");
                    for (k, c) in controls.iter().enumerate() {
                        assert_eq!(c[i].value, want, "control {k}, seed {seed}, depth {d}");
                    }
                    ab_total += ab.stats;
                    ns_total += ns.stats;
                    ab_total += ab_id[i].stats;
                    ns_total += ns_id[i].stats;
                }
            }
            (ab_total, ns_total)
        }
    }

    /// Checked to fail when NegaScout never re-searches (seed 4 of nogo:4x4).
    /// The statistics show that the re-search path is taken at all (so
    /// the values check it) and that only NegaScout takes it.
    #[test]
    fn root_values_agree_with_minimax() {
        let (mut researches, mut recalled) = (0, 0);
        for spec in ["domineering:5x5", "nogo:4x4", "mnk:4,4,3", "go:4"] {
            let (ab, ns) = GameSpec::parse(spec).unwrap().build(Check(4));
            assert!(ab.interior > 0 && ns.interior > 0, "{spec}");
            assert_eq!(ab.researches, 0, "{spec}");
            assert_eq!(ab.recalled, 0, "{spec}: alpha-beta has no TESTs");
            assert_eq!(ab.widths.iter().sum::<u64>(), ab.interior, "{spec}");
            assert!(ns.widths[0] > ab.widths[0], "{spec}: null windows");
            // NegaScout's wide windows are the first-child path, which the
            // last iteration stored, and re-searches, whose TEST just
            // stored a move: internal iterative deepening would not fire.
            assert_eq!(ns.no_table_move_wide, 0, "{spec}");
            researches += ns.researches;
            recalled += ns.recalled;
        }
        assert!(researches > 0);
        // The re-searches' recalled bounds are checked by the values too.
        assert!(recalled > 0);
    }

    /// NegaScout's re-searches read what their TESTs found
    /// (`bench_search_recall`): the same root values, α-β
    /// untouched, and fewer re-search nodes than blind re-searches. Fails
    /// if the memory is never read (no node settled, same re-search nodes)
    /// or reads wrong bounds (values differ from the blind search's, which
    /// `root_values_agree_with_minimax` checks against minimax).
    #[test]
    fn researches_recall_their_tests() {
        let run = |blind_researches| {
            let e = Enhancements {
                blind_researches,
                ..Enhancements::default()
            };
            // The default set's m,n,k, where the re-searches cost most.
            rows_for("mnk:7,7,4", 6, 2, 3, 4, true, e).unwrap()
        };
        let (recall, blind) = (run(false), run(true));
        let (mut settled, mut nodes, mut blind_nodes) = (0, 0, 0);
        for (r, b) in recall.iter().zip(&blind) {
            assert_eq!(r.alphabeta, b.alphabeta, "alpha-beta is not touched");
            assert_eq!(r.negascout.value, b.negascout.value);
            assert_eq!(r.alphabeta.value, r.negascout.value);
            assert_eq!(b.negascout.stats.recalled, 0);
            settled += r.negascout.stats.recalled;
            nodes += r.negascout.stats.research_nodes;
            blind_nodes += b.negascout.stats.research_nodes;
        }
        assert!(settled > 0);
        assert!(
            nodes < blind_nodes,
            "{nodes} re-search nodes, blind {blind_nodes}"
        );
    }

    #[test]
    fn specs_keep_mnk_commas() {
        assert_eq!(
            split_specs("nogo:5x5,mnk:7,7,4,go:7"),
            ["nogo:5x5", "mnk:7,7,4", "go:7"]
        );
    }

    #[test]
    fn positions_repeat() {
        let start = crate::games::domineering::Domineering::new(5, 5);
        let a = position(&start, 4, 7);
        let b = position(&start, 4, 7);
        assert_eq!(a.canonical_key(), b.canonical_key());
        let mut h = Heuristics::new();
        let mut r = Recall::new();
        let r1 = search(&a, 3, Windows::NegaScout, &mut h, &mut r);
        let r2 = search(&b, 3, Windows::NegaScout, &mut h, &mut r);
        assert_eq!(r1, r2);
    }
}
