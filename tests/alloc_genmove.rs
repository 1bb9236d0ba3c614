//! The search must not touch the heap once the player exists: a counting
//! global allocator watches a whole `Player::search` (and `genmove`, whose
//! only allocation is the returned principal variation).
//!
//! Only allocations made by the measuring thread while its flag is set are
//! counted, so the test harness's own threads cannot disturb the count.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;
use tesuji::go::{Color, Game, Move, Vertex};
use tesuji::search::{Player, SearchLimits};

struct Counting;

static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

thread_local! {
    static COUNTING: Cell<bool> = const { Cell::new(false) };
}

fn note() {
    if COUNTING.try_with(Cell::get).unwrap_or(false) {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
    }
}

// SAFETY: every call is forwarded unchanged to the system allocator; the
// counter is a side effect that does not itself allocate.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        note();
        unsafe { System.alloc(layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        note();
        unsafe { System.alloc_zeroed(layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        note();
        unsafe { System.realloc(ptr, layout, new_size) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn counted<T>(f: impl FnOnce() -> T) -> (T, usize) {
    ALLOCATIONS.store(0, Ordering::Relaxed);
    COUNTING.with(|c| c.set(true));
    let out = f();
    COUNTING.with(|c| c.set(false));
    (out, ALLOCATIONS.load(Ordering::Relaxed))
}

fn game(size: usize, moves: &str) -> Game {
    let mut g = Game::new(size);
    g.set_komi(7.5);
    let mut c = Color::Black;
    for m in moves.split_whitespace() {
        let mv = if m == "pass" {
            Move::Pass
        } else {
            let col = Vertex::col_from_letter(m.chars().next().unwrap()).unwrap();
            let row: u8 = m[1..].parse().unwrap();
            Move::Play(Vertex::new(col, row - 1))
        };
        g.play(c, mv).unwrap();
        c = c.opp();
    }
    g
}

#[test]
fn search_does_not_allocate() {
    let games = [
        game(9, ""),
        game(9, "E5 E4 D4 D3 F4 E3 F3 C4 D5 F2 G2 C5 C6 B6"),
        // A ko just taken and a pass: superko checks and the pass-ends-game
        // rule are both exercised.
        game(5, "B3 C3 A2 D2 B1 C1 pass B2 C2 pass"),
        game(19, "Q16 D4 Q3 D16 R5 C10"),
    ];
    // The counter itself works.
    let (v, n) = counted(|| vec![7u8; 10]);
    assert_eq!((v.len(), n), (10, 1));
    let stop = AtomicBool::new(false);
    let mut player = Player::new(8);
    player.set_resign_threshold(Some(30.0));
    for g in &games {
        let color = g.to_move();
        let depth = if g.size() == 19 { 2 } else { 3 };
        for limits in [
            SearchLimits::depth(depth),
            SearchLimits::nodes(3_000),
            SearchLimits {
                time: Some(Duration::from_millis(100)),
                max_depth: Some(depth + 1),
                max_nodes: None,
            },
        ] {
            let (info, n) = counted(|| player.search(g, color, &limits, &stop));
            assert_eq!(n, 0, "search allocated {n} times ({info:?})");
            assert!(info.nodes > 0);
        }
        // Asking for the other colour takes the same path.
        let (_, n) = counted(|| player.search(g, color.opp(), &SearchLimits::depth(2), &stop));
        assert_eq!(n, 0);
        // genmove's one allocation is the principal variation it returns.
        let (r, n) = counted(|| player.genmove(g, color, &SearchLimits::depth(2), &stop));
        assert!(n <= 1, "genmove allocated {n} times");
        assert!(!r.pv.is_empty());
        player.new_game();
    }
}
