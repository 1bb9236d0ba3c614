//! Where a solve spends its nodes: a [`Progress`] watcher that samples the
//! search line at every poll (df-pn polls every 1024 nodes, threat
//! searches included) and counts the samples by the line's first moves and
//! by its depth. A sample stands for the ~1024 nodes before it, so the
//! counts say which first moves (which defender replies, which attacker
//! tries) the work went into, and how deep the lines that took it were:
//! the measurement behind any change to move ordering, relevance zones or
//! pruning (Kishimoto & Müller's tutorial, seed 000, reads df-pn's
//! behaviour the same way, by the subtrees its nodes went to).
//!
//! `solve … profile=N` over GTP installs one with lines cut to their first
//! N moves and writes the report to stderr when the solve ends (see
//! `protocol/commands.md`). Polls must stay cheap and must not allocate
//! (`tests/alloc_dfpn.rs`): the counts live in fixed tables made when the
//! watcher is; only the report, after the solve, allocates.

use super::progress::Progress;
use super::rules::{CaptureGame, MAX_DEPTH};
use crate::go::board::{Board, Point, PASS};
use std::io::Write;

/// The longest line prefix a profile keeps.
pub const MAX_PREFIX: usize = 8;

/// Distinct prefixes a profile tells apart (a power of two); samples of
/// further prefixes count as `other`.
const SLOTS: usize = 1 << 12;

/// Prefixes the report lists, most samples first.
const SHOWN: usize = 25;

#[derive(Clone, Copy, Default)]
struct Slot {
    samples: u64,
    len: u8,
    moves: [u16; MAX_PREFIX],
}

/// Counts search lines by their first moves and by depth (see the module
/// documentation), and writes the counts to `out` when the solve ends.
pub struct PathProfile<W: Write> {
    out: W,
    prefix: usize,
    slots: Box<[Slot]>,
    depths: Box<[u64]>,
    samples: u64,
    other: u64,
    /// Nodes of the searches that ended, and of the one running (each
    /// search of a solve's plan and each ko model counts from 0).
    done_nodes: u64,
    nodes: u64,
}

impl PathProfile<std::io::Stderr> {
    /// A profile that reports on stderr (stdout carries GTP answers).
    pub fn stderr(prefix: usize) -> Self {
        PathProfile::new(std::io::stderr(), prefix)
    }
}

impl<W: Write> PathProfile<W> {
    /// Lines are cut to their first `prefix` moves (1 to [`MAX_PREFIX`]).
    pub fn new(out: W, prefix: usize) -> Self {
        PathProfile {
            out,
            prefix: prefix.clamp(1, MAX_PREFIX),
            slots: vec![Slot::default(); SLOTS].into_boxed_slice(),
            depths: vec![0; MAX_DEPTH + 1].into_boxed_slice(),
            samples: 0,
            other: 0,
            done_nodes: 0,
            nodes: 0,
        }
    }

    /// Counts one sample of the line `moves` (at most `prefix` of them
    /// are kept) at depth `depth`.
    fn record(&mut self, moves: impl Iterator<Item = Point>, depth: usize) {
        self.samples += 1;
        self.depths[depth.min(MAX_DEPTH)] += 1;
        let mut key = [PASS as u16; MAX_PREFIX];
        let mut len = 0;
        for m in moves.take(self.prefix) {
            key[len] = m as u16;
            len += 1;
        }
        let mut h: u64 = 0xCBF2_9CE4_8422_2325 ^ len as u64;
        for &m in &key[..len] {
            h = (h ^ m as u64).wrapping_mul(0x0100_0000_01B3);
        }
        let mut i = (h >> 20) as usize & (SLOTS - 1);
        // Open addressing; a full table sends the sample to `other`.
        for _ in 0..SLOTS {
            let s = &mut self.slots[i];
            if s.samples == 0 {
                *s = Slot {
                    samples: 1,
                    len: len as u8,
                    moves: key,
                };
                return;
            }
            if s.len as usize == len && s.moves == key {
                s.samples += 1;
                return;
            }
            i = (i + 1) & (SLOTS - 1);
        }
        self.other += 1;
    }

    /// The report: the prefixes with most samples, then the depths.
    fn report(&mut self) -> std::io::Result<()> {
        let total = self.samples.max(1);
        let mut used: Vec<&Slot> = self.slots.iter().filter(|s| s.samples > 0).collect();
        used.sort_by_key(|s| std::cmp::Reverse(s.samples));
        let out = &mut self.out;
        writeln!(
            out,
            "profile: {} samples (one per poll, ~1024 nodes), {} nodes polled, lines cut to {} moves",
            self.samples,
            self.done_nodes + self.nodes,
            self.prefix
        )?;
        for s in used.iter().take(SHOWN) {
            let line: Vec<String> = s.moves[..s.len as usize]
                .iter()
                .map(|&m| {
                    if m as Point == PASS {
                        "pass".to_string()
                    } else {
                        Board::vertex(m as Point).to_string()
                    }
                })
                .collect();
            let line = if line.is_empty() {
                "(root)".to_string()
            } else {
                line.join(" ")
            };
            writeln!(
                out,
                "profile: {:>8} {:>5.1}% {}",
                s.samples,
                100.0 * s.samples as f64 / total as f64,
                line
            )?;
        }
        if used.len() > SHOWN || self.other > 0 {
            let rest: u64 = used.iter().skip(SHOWN).map(|s| s.samples).sum::<u64>() + self.other;
            writeln!(
                out,
                "profile: {:>8} {:>5.1}% (other lines)",
                rest,
                100.0 * rest as f64 / total as f64
            )?;
        }
        let deepest = self.depths.iter().rposition(|&n| n > 0).unwrap_or(0);
        let depths: Vec<String> = self.depths[..=deepest]
            .iter()
            .map(|n| n.to_string())
            .collect();
        writeln!(out, "profile: samples by depth 0..: {}", depths.join(" "))?;
        out.flush()
    }
}

impl<W: Write> Progress for PathProfile<W> {
    fn poll(&mut self, nodes: u64, game: &CaptureGame) {
        // `nodes` starts again at each search of a solve's plan.
        if nodes < self.nodes {
            self.done_nodes += self.nodes;
        }
        self.nodes = nodes;
        self.record(game.path_moves(), game.depth());
    }

    fn finish(&mut self) {
        let _ = self.report();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::go::Color;
    use crate::tactics::rules::{KoModel, Problem};

    fn game(moves: &[(usize, usize)]) -> CaptureGame {
        // Capture test 13: black C7, white C8 (which escapes at 5 liberties).
        let mut b = Board::new(9);
        b.play(Color::Black, Board::point_at(2, 6));
        b.play(Color::White, Board::point_at(2, 7));
        let problem = Problem::new(&b, Board::point_at(2, 7)).unwrap();
        let mut g = CaptureGame::new(&b, problem, KoModel { favoured: None }, Color::Black);
        for &(c, r) in moves {
            g.play(Board::point_at(c, r));
        }
        g
    }

    fn report(p: PathProfile<Vec<u8>>) -> String {
        let mut p = p;
        p.finish();
        String::from_utf8(p.out).unwrap()
    }

    #[test]
    fn counts_lines_by_prefix_and_depth() {
        let mut p = PathProfile::new(Vec::new(), 2);
        let a = game(&[(3, 7), (1, 7), (1, 6)]);
        let b = game(&[(3, 7), (1, 7)]);
        let c = game(&[(3, 7), (2, 8)]);
        for _ in 0..3 {
            p.poll(10, &a);
        }
        p.poll(20, &b);
        p.poll(30, &c);
        // A new search of the plan: its count starts again.
        p.poll(5, &game(&[]));
        let r = report(p);
        assert!(r.contains("6 samples"), "{r}");
        assert!(r.contains("35 nodes"), "{r}");
        // D8 B8 is the prefix of a and b: four samples, listed first.
        let lines: Vec<&str> = r.lines().collect();
        assert!(lines[1].ends_with("66.7% D8 B8"), "{r}");
        assert!(r.contains("1  16.7% D8 C9"), "{r}");
        assert!(r.contains("(root)"), "{r}");
        assert!(r.contains("samples by depth 0..: 1 0 2 3"), "{r}");
    }

    #[test]
    fn full_table_counts_other() {
        let mut p = PathProfile::new(Vec::new(), 1);
        for slot in p.slots.iter_mut() {
            slot.samples = 1;
            slot.len = 1;
            slot.moves = [Board::point_at(0, 0) as u16; MAX_PREFIX];
        }
        p.poll(1, &game(&[(3, 7)]));
        assert_eq!(p.other, 1);
        let r = report(p);
        assert!(r.contains("(other lines)"), "{r}");
    }
}
