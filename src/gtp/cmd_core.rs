//! GTP's administrative commands (GTP v2 section 6.3.1): identity, the
//! command list, and `quit`; plus GoGui's `gogui-interrupt` marker.

use super::engine::Engine;
use super::parse::Args;
use super::registry::{self, Command};

pub const COMMANDS: &[Command] = &[
    Command {
        name: "protocol_version",
        run: protocol_version,
    },
    Command {
        name: "name",
        run: name,
    },
    Command {
        name: "version",
        run: version,
    },
    Command {
        name: "known_command",
        run: known_command,
    },
    Command {
        name: "list_commands",
        run: list_commands,
    },
    Command {
        name: "quit",
        run: quit,
    },
    Command {
        name: "gogui-interrupt",
        run: gogui_interrupt,
    },
];

fn protocol_version(_: &mut Engine, args: &mut Args) -> Result<String, String> {
    args.finish()?;
    Ok("2".into())
}

fn name(_: &mut Engine, args: &mut Args) -> Result<String, String> {
    args.finish()?;
    Ok("tesuji".into())
}

fn version(_: &mut Engine, args: &mut Args) -> Result<String, String> {
    args.finish()?;
    Ok(env!("CARGO_PKG_VERSION").into())
}

fn known_command(_: &mut Engine, args: &mut Args) -> Result<String, String> {
    let name = args.string()?;
    args.finish()?;
    Ok(registry::find(name).is_some().to_string())
}

fn list_commands(_: &mut Engine, args: &mut Args) -> Result<String, String> {
    args.finish()?;
    let names: Vec<&str> = registry::commands().iter().map(|c| c.name).collect();
    Ok(names.join("\n"))
}

fn quit(engine: &mut Engine, _: &mut Args) -> Result<String, String> {
    // Extra arguments are ignored: a controller that says quit means it.
    engine.quit = true;
    Ok(String::new())
}

/// Tells GoGui that `# interrupt` lines are understood (the server's input
/// thread handles them).
fn gogui_interrupt(_: &mut Engine, args: &mut Args) -> Result<String, String> {
    args.finish()?;
    Ok(String::new())
}
