//! Watching a long solve while it runs. A solver that is given a
//! [`Progress`] calls it now and then (df-pn: every 1024 nodes, where it
//! also checks its limits) with the work done so far and the game on the
//! current search path, so that a front end can show what the solver is
//! thinking (GoGui's live graphics, see `gtp::live_gfx`) without the solver
//! knowing anything about front ends.

use super::rules::CaptureGame;

/// Receives the state of a running search. `poll` is called often (about a
/// thousand times a second), so it should return at once unless it is time
/// to report; it must not write to stdout, which carries GTP responses.
pub trait Progress {
    /// The search has visited `nodes` nodes in its current solve (one ko
    /// model); `game` holds the line from the root to the node being
    /// searched ([`CaptureGame::path_moves`]).
    fn poll(&mut self, nodes: u64, game: &CaptureGame);

    /// The command that installed this watcher is done with it: a chance to
    /// clean up what it showed.
    fn finish(&mut self) {}
}
