//! One scripted GTP session per game that plays a whole game using only
//! GoGui's ruler commands: the moves are chosen (with a fixed seed) from
//! `gogui-rules_legal_moves` until it is empty, then
//! `gogui-rules_final_result` must name the winner, checked against the
//! rules: in Domineering and NoGo the player who cannot move loses, in
//! m,n,k the last move made a line or filled the board, in Go two passes
//! ended the game and the board's area score decides.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_tesuji");

struct Engine {
    child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
}

impl Engine {
    fn start(args: &[&str]) -> Engine {
        let mut child = Command::new(BIN)
            .args(args)
            .env("RUST_LOG", "off")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("cannot start tesuji");
        let input = child.stdin.take().unwrap();
        let output = BufReader::new(child.stdout.take().unwrap());
        Engine {
            child,
            input,
            output,
        }
    }

    /// Sends one command and returns its answer; panics on `?`.
    fn ask(&mut self, command: &str) -> String {
        writeln!(self.input, "{command}").unwrap();
        self.input.flush().unwrap();
        let mut answer = String::new();
        loop {
            let mut line = String::new();
            assert!(self.output.read_line(&mut line).unwrap() > 0, "engine died");
            if line == "\n" {
                break;
            }
            answer.push_str(&line);
        }
        assert!(answer.starts_with("= "), "{command}: {answer}");
        answer[2..].trim_end().to_string()
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = writeln!(self.input, "quit");
        let _ = self.child.wait();
    }
}

struct Game {
    moves: Vec<(String, String)>,
    result: String,
    board: String,
}

/// Plays one game with seeded random choices among the legal moves.
fn play_out(args: &[&str], setup: &[&str], seed: u64, max_moves: usize) -> Game {
    let mut e = Engine::start(args);
    for cmd in setup {
        e.ask(cmd);
    }
    let mut rng = seed;
    let mut moves = Vec::new();
    assert_eq!(e.ask("gogui-rules_final_result"), "?");
    loop {
        let legal = e.ask("gogui-rules_legal_moves");
        if legal.is_empty() {
            break;
        }
        assert!(moves.len() < max_moves, "{args:?}: game too long");
        let list: Vec<&str> = legal.split(' ').collect();
        rng = rng
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let mv = list[(rng >> 33) as usize % list.len()].to_string();
        let side = e.ask("gogui-rules_side_to_move");
        assert!(side == "black" || side == "white");
        let before = e.ask("gogui-rules_board");
        e.ask(&format!("play {side} {mv}"));
        let after = e.ask("gogui-rules_board");
        assert!(mv == "pass" || before != after, "{mv} changed nothing");
        assert_ne!(e.ask("gogui-rules_side_to_move"), side);
        moves.push((side, mv));
    }
    let result = e.ask("gogui-rules_final_result");
    let board = e.ask("gogui-rules_board");
    let size: usize = e.ask("gogui-rules_board_size").parse().unwrap();
    assert_eq!(board.lines().count(), size);
    Game {
        moves,
        result,
        board,
    }
}

/// The player who made the last move won: the other one cannot move.
fn last_mover_wins(g: &Game) -> bool {
    let last = &g.moves.last().unwrap().0;
    g.result == if last == "black" { "B+" } else { "W+" }
}

#[test]
fn domineering_session() {
    let g = play_out(&["--game", "domineering:5x6"], &[], 1, 30);
    assert!(g.moves.len() >= 4);
    assert!(last_mover_wins(&g), "{}", g.result);
    assert!(g.board.starts_with("? ? ? ? ? ?"));
}

#[test]
fn nogo_session() {
    let g = play_out(&["gtp", "--game", "nogo:5x5"], &[], 2, 25);
    assert!(last_mover_wins(&g), "{}", g.result);
    let g = play_out(&["--game", "nogo:22x1"], &[], 3, 22);
    assert!(last_mover_wins(&g), "{}", g.result);
}

#[test]
fn mnk_session() {
    for (spec, seed) in [("mnk:15,15,5", 4), ("mnk:3,3,3", 5), ("mnk:6,5,4", 6)] {
        let g = play_out(&["--game", spec], &[], seed, 225);
        let full = !g.board.contains('.');
        match g.result.as_str() {
            "0" => assert!(full, "{spec}: draw on a board with room"),
            _ => assert!(last_mover_wins(&g), "{spec}: {}", g.result),
        }
    }
    // The same through the switching command.
    let g = play_out(&[], &["tesuji-game mnk:4,4,3,exact"], 7, 16);
    assert!(["B+", "W+", "0"].contains(&g.result.as_str()));
}

#[test]
fn go_session() {
    let g = play_out(&["--game", "go:5,0.5"], &[], 8, 3000);
    let n = g.moves.len();
    assert!(n >= 2 && g.moves[n - 1].1 == "pass" && g.moves[n - 2].1 == "pass");
    // Area score as the board stands, komi 0.5: stones and one-colour
    // empty regions.
    let cells: Vec<Vec<char>> = g
        .board
        .lines()
        .map(|l| l.split(' ').map(|c| c.chars().next().unwrap()).collect())
        .collect();
    let size = cells.len();
    let mut score = -0.5;
    let mut seen = vec![vec![false; size]; size];
    for r in 0..size {
        for c in 0..size {
            match cells[r][c] {
                'X' => score += 1.0,
                'O' => score -= 1.0,
                _ if !seen[r][c] => {
                    let (mut region, mut stack) = (0.0, vec![(r, c)]);
                    let (mut black, mut white) = (false, false);
                    seen[r][c] = true;
                    while let Some((y, x)) = stack.pop() {
                        region += 1.0;
                        let mut next = vec![];
                        if y > 0 {
                            next.push((y - 1, x));
                        }
                        if x > 0 {
                            next.push((y, x - 1));
                        }
                        if y + 1 < size {
                            next.push((y + 1, x));
                        }
                        if x + 1 < size {
                            next.push((y, x + 1));
                        }
                        for (ny, nx) in next {
                            match cells[ny][nx] {
                                'X' => black = true,
                                'O' => white = true,
                                _ if !seen[ny][nx] => {
                                    seen[ny][nx] = true;
                                    stack.push((ny, nx));
                                }
                                _ => {}
                            }
                        }
                    }
                    if black && !white {
                        score += region;
                    } else if white && !black {
                        score -= region;
                    }
                }
                _ => {}
            }
        }
    }
    let expect = if score > 0.0 {
        format!("B+{score}")
    } else {
        format!("W+{}", -score)
    };
    assert_eq!(g.result, expect);
}
