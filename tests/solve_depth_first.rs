//! The depth-first solvers (α-β, NegaScout, df-pn) against plain
//! exhaustive negamax: many small Domineering boards, random positions on
//! them, and tic-tac-toe (a game with draws, written here so that the
//! draw paths are tested), plus the Domineering ground truth and
//! repeatable node counts.

use tesuji::games::domineering::Domineering;
use tesuji::games::{Cell, Color, Game, MoveList, Outcome};
use tesuji::solve::negascout;
use tesuji::solve::{solve, Algo, Limits};

const ALGOS: [Algo; 3] = [Algo::AlphaBeta, Algo::NegaScout, Algo::Dfpn];

/// Plain negamax, no table, no bound: the value for the player to move.
fn negamax<G: Game>(g: &mut G) -> Outcome {
    if let Some(o) = g.outcome() {
        return o;
    }
    let mut moves = MoveList::new();
    g.moves(&mut moves);
    let mut best = Outcome::Loss;
    for m in moves {
        let u = g.play(m);
        let v = negamax(g).flip();
        g.undo(m, u);
        match v {
            Outcome::Win => return Outcome::Win,
            Outcome::Draw => best = Outcome::Draw,
            Outcome::Loss => {}
        }
    }
    best
}

fn small() -> Limits<'static> {
    Limits {
        memory: Some(1 << 20),
        ..Limits::default()
    }
}

/// Checks every algorithm on `g` against negamax, and that a reported
/// best move achieves the value.
fn check<G: Game>(g: &G, what: &str) {
    let truth = negamax(&mut g.clone());
    for algo in ALGOS {
        let r = solve(algo, g, &small()).unwrap();
        assert_eq!(r.value, Some(truth), "{} on {what}", algo.name());
        if g.outcome().is_some() {
            continue;
        }
        let m = r
            .best
            .unwrap_or_else(|| panic!("{} gave no move on {what}", algo.name()));
        let mut after = g.clone();
        after.play(m);
        assert_eq!(
            negamax(&mut after).flip(),
            truth,
            "{}'s move {} on {what}",
            algo.name(),
            g.format_move(m)
        );
    }
}

#[test]
fn small_domineering_boards_agree_with_negamax() {
    for rows in 1..=4 {
        for cols in 1..=4 {
            check(&Domineering::new(rows, cols), &format!("{rows}x{cols}"));
        }
    }
    for (rows, cols) in [(2, 6), (6, 2), (3, 5), (5, 3), (2, 7)] {
        check(&Domineering::new(rows, cols), &format!("{rows}x{cols}"));
    }
}

/// A small deterministic generator (splitmix64).
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        ((z ^ (z >> 31)) % n as u64) as usize
    }
}

#[test]
fn random_domineering_positions_agree_with_negamax() {
    let mut rng = Rng(4);
    for i in 0..120 {
        let (rows, cols) = [(5, 5), (4, 6), (6, 4), (5, 4)][i % 4];
        let mut g = Domineering::new(rows, cols);
        if i % 3 == 0 {
            // Either player may be first to move in a position.
            g.set_to_move(Color::White);
        }
        let plies = 3 + rng.below(4);
        for _ in 0..plies {
            let mut moves = MoveList::new();
            g.moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            g.play(moves[rng.below(moves.len())]);
        }
        check(&g, &format!("position {i} ({rows}x{cols})"));
    }
}

/// Every value [`Game::bound`] claims on random positions is the value.
#[test]
fn domineering_bound_is_sound() {
    let mut rng = Rng(7);
    let mut claims = 0;
    for i in 0..3000 {
        let (rows, cols) = [(4, 4), (5, 4), (4, 5), (3, 6)][i % 4];
        let mut g = Domineering::new(rows, cols);
        let plies = rng.below(8);
        for _ in 0..plies {
            let mut moves = MoveList::new();
            g.moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            g.play(moves[rng.below(moves.len())]);
        }
        if g.outcome().is_none() {
            if let Some(o) = g.bound() {
                claims += 1;
                assert_eq!(o, negamax(&mut g.clone()), "position {i}: {g:?}");
            }
        }
    }
    assert!(claims > 100, "only {claims} positions exercised the bound");
}

/// The ground truth (rows × columns, vertical first), from the
/// first player's view.
#[test]
fn domineering_ground_truth() {
    let cases = [
        (5, 5, Outcome::Loss),
        (6, 6, Outcome::Win),
        (6, 5, Outcome::Win),
        (6, 7, Outcome::Win),
        (5, 6, Outcome::Loss),
        (7, 6, Outcome::Loss),
    ];
    for (rows, cols, value) in cases {
        for algo in [Algo::AlphaBeta, Algo::NegaScout] {
            let r = solve(algo, &Domineering::new(rows, cols), &Limits::default()).unwrap();
            assert_eq!(r.value, Some(value), "{} on {rows}x{cols}", algo.name());
        }
    }
    for (rows, cols, value) in &cases[..1] {
        let r = solve(
            Algo::Dfpn,
            &Domineering::new(*rows, *cols),
            &Limits::default(),
        )
        .unwrap();
        assert_eq!(r.value, Some(*value), "dfpn on {rows}x{cols}");
    }
}

#[test]
fn node_limited_runs_repeat_exactly() {
    let g = Domineering::new(7, 7);
    let limits = Limits {
        nodes: Some(5_000),
        memory: Some(2 << 20),
        ..Limits::default()
    };
    for algo in ALGOS {
        let a = solve(algo, &g, &limits).unwrap();
        let b = solve(algo, &g, &limits).unwrap();
        assert_eq!(a.value, None, "{}", algo.name());
        assert_eq!(a.stopped, Some(tesuji::solve::Stopped::Nodes));
        assert_eq!((a.nodes, b.nodes), (5_000, 5_000), "{}", algo.name());
    }
    let a = negascout::best_move(&g, &limits);
    let b = negascout::best_move(&g, &limits);
    assert_eq!((a.nodes, a.depth, a.best), (b.nodes, b.depth, b.best));
}

/// Go positions repeat, and no whole-game solver handles the
/// graph-history interaction: every algorithm refuses rather than risk an
/// unsound value. Every algorithm solves a small Domineering board.
#[test]
fn every_algorithm_solves_or_refuses() {
    let go = tesuji::games::go::GoGame::new(3, 1);
    let dom = Domineering::new(3, 3);
    for algo in Algo::ALL {
        let e = solve(algo, &go, &Limits::default()).unwrap_err();
        assert_eq!(
            e,
            format!("{} cannot solve games whose positions repeat", algo.name())
        );
        let r = solve(algo, &dom, &Limits::default()).unwrap();
        assert_eq!(
            r.value,
            Some(tesuji::games::Outcome::Win),
            "{}",
            algo.name()
        );
    }
}

/// Tic-tac-toe (3,3,3): a game with draws, for the draw paths.
#[derive(Clone, Debug, PartialEq)]
struct TicTacToe {
    cells: [Option<Color>; 9],
    to_move: Color,
}

const LINES: [[usize; 3]; 8] = [
    [0, 1, 2],
    [3, 4, 5],
    [6, 7, 8],
    [0, 3, 6],
    [1, 4, 7],
    [2, 5, 8],
    [0, 4, 8],
    [2, 4, 6],
];

impl TicTacToe {
    fn new() -> TicTacToe {
        TicTacToe {
            cells: [None; 9],
            to_move: Color::Black,
        }
    }
}

impl Game for TicTacToe {
    type Move = u8;
    type Undo = ();
    fn spec(&self) -> String {
        "tictactoe".into()
    }
    fn to_move(&self) -> Color {
        self.to_move
    }
    fn key(&self) -> u64 {
        let mut k = (self.to_move == Color::White) as u64;
        for c in &self.cells {
            let v = match c {
                None => 0,
                Some(Color::Black) => 1,
                Some(Color::White) => 2,
            };
            k = k * 3 + v;
        }
        k.wrapping_mul(0x9E37_79B9_7F4A_7C15)
    }
    fn moves(&self, out: &mut MoveList<u8>) {
        if self.outcome().is_none() {
            out.extend((0..9u8).filter(|&i| self.cells[i as usize].is_none()));
        }
    }
    fn outcome(&self) -> Option<Outcome> {
        let last = self.to_move.opp();
        if LINES
            .iter()
            .any(|l| l.iter().all(|&i| self.cells[i] == Some(last)))
        {
            return Some(Outcome::Loss);
        }
        self.cells
            .iter()
            .all(Option::is_some)
            .then_some(Outcome::Draw)
    }
    fn play(&mut self, m: u8) {
        self.cells[m as usize] = Some(self.to_move);
        self.to_move = self.to_move.opp();
    }
    fn undo(&mut self, m: u8, _: ()) {
        self.cells[m as usize] = None;
        self.to_move = self.to_move.opp();
    }
    fn evaluate(&self) -> i32 {
        0
    }
    fn format_move(&self, m: u8) -> String {
        format!("{m}")
    }
    fn parse_move(&self, text: &str) -> Option<u8> {
        text.parse().ok()
    }
    fn display_size(&self) -> usize {
        3
    }
    fn cell(&self, _: usize, _: usize) -> Cell {
        Cell::Empty
    }
}

#[test]
fn tic_tac_toe_draws_and_wins() {
    let g = TicTacToe::new();
    check(&g, "tic-tac-toe");
    assert_eq!(
        solve(Algo::Dfpn, &g, &small()).unwrap().value,
        Some(Outcome::Draw)
    );
    // Every position after three plies: wins, draws and losses among them.
    let mut seen = [0; 3];
    for a in 0..9u8 {
        for b in (0..9u8).filter(|&b| b != a) {
            for c in (0..9u8).filter(|&c| c != a && c != b) {
                let mut p = g.clone();
                p.play(a);
                p.play(b);
                p.play(c);
                check(&p, &format!("tic-tac-toe {a} {b} {c}"));
                seen[negamax(&mut p) as usize] += 1;
            }
        }
    }
    assert!(seen.iter().all(|&n| n > 0), "{seen:?}");
    let choice = negascout::best_move(&g, &Limits::default());
    assert_eq!(choice.value, Some(Outcome::Draw));
}

#[test]
fn negascout_player_finds_a_forced_win() {
    let g = Domineering::new(4, 4);
    let c = negascout::best_move(&g, &Limits::default());
    assert_eq!(c.value, Some(Outcome::Win));
    let mut after = g;
    after.play(c.best.unwrap());
    assert_eq!(negamax(&mut after), Outcome::Loss);
}
