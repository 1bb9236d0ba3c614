//! GNU Go's reading controls (GNU Go 3.8 manual, "The GTP commands"), which
//! its regression suites send around tactical tests: `increase_depths` and
//! `decrease_depths` (read deeper or shallower), and
//! `reset_reading_node_counter` / `get_reading_node_counter` (the work the
//! reading did). GNU Go's `reading.tst` wraps its hardest problems in
//! `increase_depths` … `decrease_depths`, and a suite runner that counts a
//! failed setup command against the next test would fail those tests on
//! an engine that does not know the commands.
//!
//! tesuji's reading has no depth parameters: its searches are bounded by
//! nodes and time. One *depth step* therefore doubles both limits of
//! `attack`, `defend` and `ladder_attack` (and a step down halves them),
//! GNU Go's one extra ply of reading being, in a search of branching factor
//! two or more, at least twice the work. `solve` takes its own limits and is
//! not scaled. The node counter adds up the nodes of every tactical solve
//! (`attack`, `defend`, `ladder_attack`, `solve`) since start-up or the last
//! reset.

use super::engine::Engine;
use super::parse::Args;
use super::registry::Command;
use crate::tactics::dfpn::Limits;
use std::time::Duration;

pub const COMMANDS: &[Command] = &[
    Command {
        name: "increase_depths",
        run: increase_depths,
    },
    Command {
        name: "decrease_depths",
        run: decrease_depths,
    },
    Command {
        name: "reset_reading_node_counter",
        run: reset_reading_node_counter,
    },
    Command {
        name: "get_reading_node_counter",
        run: get_reading_node_counter,
    },
];

/// The most depth steps either way: 2^10 times the default three million
/// nodes is three billion, hours of solving.
pub const MAX_DEPTH_STEPS: i32 = 10;

/// `limits` after `steps` depth steps: ×2 (or ÷2) per step. Nodes never
/// fall below one, and a time limit stays a time limit.
pub fn scaled(limits: Limits, steps: i32) -> Limits {
    let factor = 2f64.powi(steps);
    let shift = steps.unsigned_abs();
    let nodes = if steps >= 0 {
        1u64.checked_shl(shift)
            .map_or(u64::MAX, |f| limits.nodes.saturating_mul(f))
    } else {
        limits.nodes.checked_shr(shift).unwrap_or(0).max(1)
    };
    let time = limits
        .time
        .map(|t| Duration::try_from_secs_f64(t.as_secs_f64() * factor).unwrap_or(Duration::MAX));
    Limits { nodes, time }
}

fn step(engine: &mut Engine, args: &mut Args, by: i32) -> Result<String, String> {
    args.finish()?;
    let steps = engine.depth_steps + by;
    if steps.abs() > MAX_DEPTH_STEPS {
        return Err(format!(
            "reading depth already {} steps from the default",
            engine.depth_steps
        ));
    }
    engine.depth_steps = steps;
    Ok(String::new())
}

fn increase_depths(engine: &mut Engine, args: &mut Args) -> Result<String, String> {
    step(engine, args, 1)
}

fn decrease_depths(engine: &mut Engine, args: &mut Args) -> Result<String, String> {
    step(engine, args, -1)
}

fn reset_reading_node_counter(engine: &mut Engine, args: &mut Args) -> Result<String, String> {
    args.finish()?;
    engine.reading_nodes = 0;
    Ok(String::new())
}

fn get_reading_node_counter(engine: &mut Engine, args: &mut Args) -> Result<String, String> {
    args.finish()?;
    Ok(engine.reading_nodes.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_double_and_halve_both_limits() {
        let base = Limits {
            nodes: 3_000_000,
            time: Some(Duration::from_secs(10)),
        };
        let up = scaled(base, 2);
        assert_eq!(up.nodes, 12_000_000);
        assert_eq!(up.time, Some(Duration::from_secs(40)));
        let down = scaled(base, -1);
        assert_eq!(down.nodes, 1_500_000);
        assert_eq!(down.time, Some(Duration::from_secs(5)));
        assert_eq!(scaled(base, 0).nodes, base.nodes);
        assert_eq!(scaled(base, 0).time, base.time);
        assert_eq!(scaled(base, -MAX_DEPTH_STEPS).nodes, 2929);
        assert_eq!(scaled(base, -70).nodes, 1);
        assert_eq!(scaled(base, 70).nodes, u64::MAX);
        let tiny = Limits {
            nodes: 1,
            time: None,
        };
        assert_eq!(scaled(tiny, -3).nodes, 1);
        assert_eq!(scaled(tiny, -3).time, None);
        let huge = Limits {
            nodes: u64::MAX / 2,
            time: None,
        };
        assert_eq!(scaled(huge, MAX_DEPTH_STEPS).nodes, u64::MAX);
    }
}
