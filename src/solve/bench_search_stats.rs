//! What `tesuji bench search --stats` counts, to explain NegaScout's saving
//! per game (seed 004, Hsu, "Scout and NegaScout": "move ordering is very
//! important ... the first branch, if good, offers a great chance of
//! pruning further branches"; the refinements slide: "reduce the number of
//! re-searches").
//!
//! NegaScout gains over α-β only where α-β's window is wider than the
//! evaluation's resolution (a null window cannot cut more than a window
//! that holds no value strictly inside it), and it loses what its
//! re-searches cost. So the counts are: interior nodes (two or more plies
//! left, where the windows differ at all) by result and by whether the
//! first move decided it, the re-searches and their nodes, and the widths
//! of the windows the interior nodes were searched with.

use std::ops::AddAssign;

/// Counts of one or more searches (see the module docs).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Nodes with two or more plies left that searched their moves.
    pub interior: u64,
    /// Interior nodes that failed high (a cutoff), and those cut by the
    /// first move.
    pub cut: u64,
    pub cut_first: u64,
    /// Interior nodes whose value fell strictly inside the window, and
    /// those whose best move was the first.
    pub exact: u64,
    pub exact_first: u64,
    /// NegaScout's re-searches, their nodes and the nodes of the
    /// null-window tests that preceded them.
    pub researches: u64,
    pub research_nodes: u64,
    pub tested_nodes: u64,
    /// Nodes of NegaScout's re-searches settled by the bounds their TEST
    /// found (`super::bench_search_recall`).
    pub recalled: u64,
    /// Nodes of a deepening run with three or more plies left that found
    /// no table move, and those of them searched with a wider window
    /// than null. Internal iterative deepening, as PVS players use it,
    /// searches such a node less deep first when its window is wider than
    /// null (an expected PV node); this shows how often it would fire.
    pub no_table_move: u64,
    pub no_table_move_wide: u64,
    /// Interior nodes by window width `β − α`: 1 (null), at most 16, at
    /// most 64, wider but finite, and unbounded on a side.
    pub widths: [u64; 5],
}

/// Bounds at least this large are the searches' infinities.
const UNBOUNDED: i32 = super::negascout::WIN + 1;

impl Stats {
    /// Counts an interior node searched with `(alpha, beta)` that returned
    /// `best`, found by its move number `best_index` (0 = first).
    pub fn node(&mut self, alpha: i32, beta: i32, best: i32, best_index: usize) {
        self.interior += 1;
        let first = u64::from(best_index == 0);
        if best >= beta {
            self.cut += 1;
            self.cut_first += first;
        } else if best > alpha {
            self.exact += 1;
            self.exact_first += first;
        }
        let width = beta.saturating_sub(alpha);
        let bucket = if alpha <= -UNBOUNDED || beta >= UNBOUNDED {
            4
        } else {
            match width {
                ..=1 => 0,
                2..=16 => 1,
                17..=64 => 2,
                _ => 3,
            }
        };
        self.widths[bucket] += 1;
    }

    /// Counts a node with three or more plies left and no table move,
    /// searched with `(alpha, beta)`.
    pub fn no_table_move(&mut self, alpha: i32, beta: i32) {
        self.no_table_move += 1;
        self.no_table_move_wide += u64::from(beta.saturating_sub(alpha) > 1);
    }

    /// One line of percentages: cuts by the first move, exact nodes whose
    /// first move was best, window widths, re-searches.
    pub fn summary(&self) -> String {
        let pct = |a: u64, b: u64| {
            if b == 0 {
                0.0
            } else {
                100.0 * a as f64 / b as f64
            }
        };
        let w = |i: usize| pct(self.widths[i], self.interior);
        format!(
            "interior {} cut {} ({:.1}% by 1st) exact {} ({:.1}% 1st best) \
             widths null {:.1}% <=16 {:.1}% <=64 {:.1}% wider {:.1}% unbounded {:.1}% \
             re-searches {} (test {} + re-search {} nodes, {} settled by the test) \
             no table move at 3+ plies {} ({} wider than null)",
            self.interior,
            self.cut,
            pct(self.cut_first, self.cut),
            self.exact,
            pct(self.exact_first, self.exact),
            w(0),
            w(1),
            w(2),
            w(3),
            w(4),
            self.researches,
            self.tested_nodes,
            self.research_nodes,
            self.recalled,
            self.no_table_move,
            self.no_table_move_wide,
        )
    }
}

impl AddAssign for Stats {
    fn add_assign(&mut self, o: Stats) {
        self.interior += o.interior;
        self.cut += o.cut;
        self.cut_first += o.cut_first;
        self.exact += o.exact;
        self.exact_first += o.exact_first;
        self.researches += o.researches;
        self.research_nodes += o.research_nodes;
        self.tested_nodes += o.tested_nodes;
        self.recalled += o.recalled;
        self.no_table_move += o.no_table_move;
        self.no_table_move_wide += o.no_table_move_wide;
        for (a, b) in self.widths.iter_mut().zip(o.widths) {
            *a += b;
        }
    }
}
