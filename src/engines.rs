//! Engine profiles: named recipes for starting a GTP engine.
//!
//! The differential tests and the match runner need to start several GTP
//! engines (tesuji itself, GNU Go with various rule options, ...). Rather
//! than hard-coding command lines in each of them, the engines are described
//! once in `engines.toml` at the repository root and looked up by name.
//!
//! The file format is documented at the top of `engines.toml`; in short:
//!
//! ```toml
//! [engines.gnugo]
//! command = ["/usr/games/gnugo", "--mode", "gtp"]   # required, argv
//! workdir = "."                                     # optional
//! gtp_init = ["komi 7"]                             # optional, default []
//! description = "GNU Go 3.8, default level"         # optional
//! ```
//!
//! Relative paths are resolved when the file is loaded, against the
//! directory that holds the file, so a profile means the same thing no
//! matter which directory the caller runs in (see [`load_profiles`]).

use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// How to start one GTP engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineProfile {
    /// The profile's name: its table key in `engines.toml`.
    pub name: String,
    /// Program and arguments. Never empty; see [`load_profiles`] for how a
    /// relative program path is resolved.
    pub command: Vec<String>,
    /// Working directory for the engine process; `None` keeps the caller's.
    pub workdir: Option<PathBuf>,
    /// GTP commands to send, in order, right after the engine starts.
    pub gtp_init: Vec<String>,
    /// Free-text note for people choosing a profile.
    pub description: Option<String>,
}

impl EngineProfile {
    /// The program to run (the first element of `command`).
    pub fn program(&self) -> &str {
        &self.command[0]
    }

    /// The arguments after the program.
    pub fn args(&self) -> &[String] {
        &self.command[1..]
    }
}

/// The whole file as serde sees it. `engines` is a sorted map, so profiles
/// come out ordered by name whatever their order in the file.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ProfilesFile {
    #[serde(default)]
    engines: BTreeMap<String, RawProfile>,
}

/// One `[engines.NAME]` table before validation. Unknown keys are rejected
/// so that a misspelt `gtp_inti` fails loudly instead of being ignored.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawProfile {
    command: Vec<String>,
    workdir: Option<PathBuf>,
    #[serde(default)]
    gtp_init: Vec<String>,
    description: Option<String>,
}

/// Reads the profiles in the TOML file at `path`, sorted by name.
///
/// Relative paths are resolved against the directory containing `path`
/// (made absolute with the current directory if `path` itself is relative):
/// - a program path with a `/` in it (`target/release/tesuji`) is joined to
///   that directory; a bare program name (`gnugo`) is left alone so that the
///   operating system looks it up on `PATH`;
/// - `workdir` is joined to that directory.
///
/// Errors (missing or unreadable file, bad TOML, missing or empty `command`,
/// unknown keys, a GTP init command spanning several lines) come back as a
/// message that names the file and, where it applies, the profile.
pub fn load_profiles(path: &Path) -> Result<Vec<EngineProfile>, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read engine profiles {}: {e}", path.display()))?;
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let dir = if dir.is_absolute() {
        dir
    } else {
        std::env::current_dir()
            .map_err(|e| format!("cannot determine the current directory: {e}"))?
            .join(dir)
    };
    parse_profiles(&text, &dir).map_err(|e| format!("{}: {e}", path.display()))
}

/// Parses profiles from TOML text, resolving relative paths against
/// `base_dir` as [`load_profiles`] describes.
pub fn parse_profiles(text: &str, base_dir: &Path) -> Result<Vec<EngineProfile>, String> {
    let file: ProfilesFile = toml::from_str(text).map_err(|e| format!("invalid TOML: {e}"))?;
    file.engines
        .into_iter()
        .map(|(name, raw)| validate(name, raw, base_dir))
        .collect()
}

fn validate(name: String, raw: RawProfile, base_dir: &Path) -> Result<EngineProfile, String> {
    let mut command = raw.command;
    match command.first() {
        None => return Err(format!("engine `{name}`: `command` must not be empty")),
        Some(program) if program.trim().is_empty() => {
            return Err(format!(
                "engine `{name}`: the program in `command` is empty"
            ))
        }
        Some(_) => {}
    }
    // A program given as a relative path is meant relative to the file, not
    // to wherever the caller happens to run; a bare name is a PATH lookup.
    let program = Path::new(&command[0]);
    if program.is_relative() && command[0].contains('/') {
        command[0] = base_dir.join(program).to_string_lossy().into_owned();
    }
    for cmd in &raw.gtp_init {
        if cmd.contains('\n') || cmd.trim().is_empty() {
            return Err(format!(
                "engine `{name}`: gtp_init entries must be single non-empty lines, got {cmd:?}"
            ));
        }
    }
    let workdir = raw
        .workdir
        .map(|w| if w.is_relative() { base_dir.join(w) } else { w });
    Ok(EngineProfile {
        name,
        command,
        workdir,
        gtp_init: raw.gtp_init,
        description: raw.description,
    })
}

/// The profile called `name`, or an error listing the names there are.
pub fn find_profile<'a>(
    profiles: &'a [EngineProfile],
    name: &str,
) -> Result<&'a EngineProfile, String> {
    profiles.iter().find(|p| p.name == name).ok_or_else(|| {
        let known: Vec<&str> = profiles.iter().map(|p| p.name.as_str()).collect();
        format!(
            "no engine profile named `{name}` (known: {})",
            if known.is_empty() {
                "none".to_string()
            } else {
                known.join(", ")
            }
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const SAMPLE: &str = r#"
        [engines.tesuji]
        command = ["target/release/tesuji", "--quiet"]
        workdir = "."
        gtp_init = ["komi 7"]
        description = "ourselves"

        [engines.gnugo]
        command = ["/usr/games/gnugo", "--mode", "gtp"]

        [engines.bare]
        command = ["gnugo"]
        workdir = "/tmp"
    "#;

    fn sample() -> Vec<EngineProfile> {
        parse_profiles(SAMPLE, Path::new("/repo")).expect("sample parses")
    }

    #[test]
    fn parses_and_sorts_by_name() {
        let names: Vec<String> = sample().into_iter().map(|p| p.name).collect();
        assert_eq!(names, ["bare", "gnugo", "tesuji"]);
    }

    #[test]
    fn fills_fields_and_defaults() {
        let profiles = sample();
        let t = find_profile(&profiles, "tesuji").unwrap();
        assert_eq!(t.program(), "/repo/target/release/tesuji");
        assert_eq!(t.args(), ["--quiet"]);
        assert_eq!(t.workdir.as_deref(), Some(Path::new("/repo/.")));
        assert_eq!(t.gtp_init, ["komi 7"]);
        assert_eq!(t.description.as_deref(), Some("ourselves"));

        let g = find_profile(&profiles, "gnugo").unwrap();
        assert_eq!(g.command, ["/usr/games/gnugo", "--mode", "gtp"]);
        assert_eq!(g.workdir, None);
        assert!(g.gtp_init.is_empty());
        assert_eq!(g.description, None);
    }

    #[test]
    fn bare_program_names_and_absolute_paths_are_kept() {
        let profiles = sample();
        let b = find_profile(&profiles, "bare").unwrap();
        assert_eq!(b.program(), "gnugo");
        assert_eq!(b.workdir.as_deref(), Some(Path::new("/tmp")));
    }

    #[test]
    fn unknown_profile_lists_known_names() {
        let err = find_profile(&sample(), "katago").unwrap_err();
        assert!(err.contains("katago"), "{err}");
        assert!(err.contains("bare, gnugo, tesuji"), "{err}");
        let err = find_profile(&[], "x").unwrap_err();
        assert!(err.contains("none"), "{err}");
    }

    #[test]
    fn missing_command_is_an_error() {
        let err = parse_profiles("[engines.x]\ngtp_init = []\n", Path::new("/")).unwrap_err();
        assert!(err.contains("command"), "{err}");
    }

    #[test]
    fn empty_command_is_an_error() {
        let err = parse_profiles("[engines.x]\ncommand = []\n", Path::new("/")).unwrap_err();
        assert!(err.contains("engine `x`"), "{err}");
        let err = parse_profiles("[engines.x]\ncommand = [\" \"]\n", Path::new("/")).unwrap_err();
        assert!(err.contains("program"), "{err}");
    }

    #[test]
    fn wrong_types_and_unknown_keys_are_errors() {
        for text in [
            "[engines.x]\ncommand = \"gnugo --mode gtp\"\n",
            "[engines.x]\ncommand = [\"gnugo\"]\ngtp_init = \"komi 7\"\n",
            "[engines.x]\ncommand = [\"gnugo\"]\nargs_note = \"typo\"\n",
            "[engine.x]\ncommand = [\"gnugo\"]\n",
        ] {
            assert!(parse_profiles(text, Path::new("/")).is_err(), "{text}");
        }
    }

    #[test]
    fn multi_line_init_command_is_an_error() {
        let text = "[engines.x]\ncommand = [\"gnugo\"]\ngtp_init = [\"komi 7\\nquit\"]\n";
        let err = parse_profiles(text, Path::new("/")).unwrap_err();
        assert!(err.contains("single"), "{err}");
    }

    #[test]
    fn bad_toml_is_an_error() {
        let err = parse_profiles("[engines.x\ncommand = [", Path::new("/")).unwrap_err();
        assert!(err.contains("invalid TOML"), "{err}");
    }

    #[test]
    fn empty_file_has_no_profiles() {
        assert!(parse_profiles("", Path::new("/")).unwrap().is_empty());
    }

    #[test]
    fn missing_file_is_an_error() {
        let err = load_profiles(Path::new("/nonexistent/engines.toml")).unwrap_err();
        assert!(err.contains("/nonexistent/engines.toml"), "{err}");
    }

    #[test]
    fn repository_file_has_the_expected_profiles() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("engines.toml");
        let profiles = load_profiles(&path).expect("engines.toml loads");
        for name in ["tesuji", "gnugo", "gnugo-superko", "gnugo-level0"] {
            find_profile(&profiles, name).expect("profile present");
        }
        let t = find_profile(&profiles, "tesuji").unwrap();
        assert!(Path::new(t.program()).is_absolute());
        assert!(t.program().ends_with("target/release/tesuji"));
        let sk = find_profile(&profiles, "gnugo-superko").unwrap();
        assert!(sk.args().iter().any(|a| a == "--positional-superko"));
    }
}
