//! Proves that `tesuji bench search`'s searches allocate nothing once set
//! up: NegaScout's memory of its TESTs (`Recall`) is a fixed store made
//! with the heuristics and the table, and its re-searches read it without
//! touching the heap.

mod common;

use common::alloc::{counted, CountingAlloc};
use tesuji::games::mnk::Mnk;
use tesuji::solve::bench_search::{deepen_with, position, search, Enhancements, Recall, Windows};
use tesuji::solve::depth_first::{Heuristics, Table};

#[global_allocator]
static ALLOC: CountingAlloc = CountingAlloc;

#[test]
fn bench_search_never_allocates_after_setup() {
    // The default set's m,n,k position 0, where the re-searches cost most.
    let game = position(&Mnk::new(7, 7, 4, false), 2, 4);
    let mut h = Heuristics::new();
    let mut table = Table::new(1 << 20);
    let mut recall = Recall::new();
    for w in [Windows::AlphaBeta, Windows::NegaScout] {
        let (r, n) = counted(|| search(&game, 6, w, &mut h, &mut recall));
        assert_eq!(n, 0, "{w:?} allocated");
        assert!(r.nodes > 10_000, "{w:?}: {} nodes", r.nodes);
        if w == Windows::NegaScout {
            // The re-searches ran and read the store.
            let s = r.stats;
            assert!(s.researches > 0 && s.recalled > 0, "{s:?}");
        }
        // Deepening: the returned Vec is the one allocation.
        let e = Enhancements::default();
        let (rs, n) = counted(|| deepen_with(&game, 6, w, &mut h, &mut table, &mut recall, e));
        assert_eq!(n, 1, "{w:?} deepening allocated more than its result");
        assert_eq!(rs.last().map(|r| r.value), Some(r.value));
    }
}
