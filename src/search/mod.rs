// TEMP STUB (not committed)
use crate::go::*;
use std::sync::atomic::AtomicBool;
use std::time::Duration;
pub struct SearchLimits {
    pub time: Option<Duration>,
    pub max_depth: Option<u32>,
    pub max_nodes: Option<u64>,
}
pub struct SearchResult {
    pub best: Move,
    pub resign: bool,
    pub value: i32,
    pub depth: u32,
    pub nodes: u64,
    pub elapsed: Duration,
    pub pv: Vec<Move>,
}
pub struct Player;
impl Player {
    pub fn new(_: usize) -> Player {
        Player
    }
    pub fn set_resign_threshold(&mut self, _: Option<f64>) {}
    pub fn new_game(&mut self) {}
    pub fn genmove(
        &mut self,
        _g: &Game,
        _c: Color,
        _l: &SearchLimits,
        _s: &AtomicBool,
    ) -> SearchResult {
        SearchResult {
            best: Move::Pass,
            resign: false,
            value: 0,
            depth: 0,
            nodes: 0,
            elapsed: Duration::ZERO,
            pv: vec![],
        }
    }
}
pub fn dead_stones(_b: &Board) -> Vec<Point> {
    vec![]
}
pub mod time {
    use crate::go::Color;
    use std::time::Duration;
    #[derive(Default)]
    pub struct TimeControl;
    impl TimeControl {
        pub fn budget(&self, _c: Color, _s: usize, _m: usize) -> Duration {
            Duration::from_secs(1)
        }
        pub fn set_canadian(&mut self, _a: f64, _b: f64, _c: u32) {}
        pub fn set_byoyomi(&mut self, _a: f64, _b: f64, _c: u32) {}
        pub fn set_none(&mut self) {}
        pub fn time_left(&mut self, _c: Color, _t: f64, _s: u32) {}
    }
}
pub mod bench {
    pub fn bench(_o: &mut impl std::io::Write) -> u64 {
        0
    }
}
