//! The command table. Each subsystem lists its own commands in a `COMMANDS`
//! slice next to their handlers; this module joins the slices once, and the
//! dispatcher, `known_command` and `list_commands` all read the same table, so
//! they cannot disagree.

use super::engine::Engine;
use super::parse::Args;
use once_cell::sync::Lazy;

/// A command handler: reads its arguments, validates everything before it
/// changes any state, and returns the response body or the error message.
pub type Handler = fn(&mut Engine, &mut Args) -> Result<String, String>;

/// One GTP command: its name and its handler.
pub struct Command {
    pub name: &'static str,
    pub run: Handler,
}

static TABLE: Lazy<Vec<&'static Command>> = Lazy::new(|| {
    let mut all: Vec<&'static Command> = [
        super::cmd_core::COMMANDS,
        super::cmd_board::COMMANDS,
        super::cmd_handicap::COMMANDS,
        super::cmd_tactics::COMMANDS,
        super::cmd_tactics_solve::COMMANDS,
        super::cmd_reading::COMMANDS,
        super::cmd_gogui::COMMANDS,
        super::cmd_sgf::COMMANDS,
        super::cmd_play::COMMANDS,
        super::cmd_rules::COMMANDS,
        super::cmd_player::COMMANDS,
    ]
    .iter()
    .flat_map(|group| group.iter())
    .collect();
    all.sort_by_key(|c| c.name);
    all
});

/// Every command, sorted by name.
pub fn commands() -> &'static [&'static Command] {
    &TABLE
}

/// The command called `name`, if there is one (names are case-sensitive, as
/// in GTP).
pub fn find(name: &str) -> Option<&'static Command> {
    let table = commands();
    table
        .binary_search_by_key(&name, |c| c.name)
        .ok()
        .map(|i| table[i])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique() {
        let t = commands();
        for w in t.windows(2) {
            assert_ne!(w[0].name, w[1].name, "registered twice");
        }
        assert!(find("protocol_version").is_some());
        assert!(find("PROTOCOL_VERSION").is_none());
    }
}
