//! The runs of games the operator may start, pause and stop from the page (`/runs`): only
//! those the relay's command line or config file names (`--run FILE`), each a
//! `pitchside-play` process with the arguments its file holds. The page names a run and an
//! action ([`Action`]), never a program or an argument; the relay builds the command itself,
//! and an action needs the operator's token.
//!
//! A run file is TOML:
//!
//! ```toml
//! # night.toml: the run called "night"
//! args = ["--team", "teams/start_left", "--opponent", "teams/start_right",
//!         "--games", "300", "--parallel", "2", "--out", "night"]
//! ```
//!
//! The runner starts in the file's folder (relative paths are from there), always with
//! `--continue`, so that starting a run again goes on where it stopped. Pausing sends it
//! SIGUSR1 (it ends once the games under way are over), stopping SIGTERM (the games under way
//! are stopped); the relay stops its runs the same way when it shuts down.

use pitchside_wire::run::Run;
use pitchside_wire::runs::{Action, Phase, RunEntry, Runs as RunsDoc, RUNS_FORMAT};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// A run as its file defines it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunSpec {
    pub name: String,
    /// The folder the runner starts in: the run file's.
    pub dir: PathBuf,
    pub args: Vec<String>,
    /// Where its games go (`--out`, from `dir`).
    pub out: PathBuf,
}

#[derive(Debug, thiserror::Error)]
pub enum RunFileError {
    #[error("cannot read the run file {path}: {source}")]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("the run file {path}: {message}")]
    Bad { path: PathBuf, message: String },
}

/// Options a run file may not hold: they make the runner do something else than play.
const NOT_IN_A_RUN: [&str; 5] = ["--sbatch", "--only-game", "--help", "--version", "-h"];

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct RunFile {
    args: Vec<String>,
}

/// Reads and checks a run file: its `args` must name the folder the games go to (`--out`)
/// and nothing that would make the runner do something else than play.
pub fn read_run_file(path: &Path) -> Result<RunSpec, RunFileError> {
    let bad = |message: String| RunFileError::Bad {
        path: path.to_owned(),
        message,
    };
    let text = std::fs::read_to_string(path).map_err(|source| RunFileError::Read {
        path: path.to_owned(),
        source,
    })?;
    let file: RunFile = toml::from_str(&text).map_err(|e| bad(e.to_string()))?;
    let name = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .filter(|n| {
            !n.is_empty()
                && n.chars()
                    .all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c))
        })
        .ok_or_else(|| {
            bad("its name (without .toml) must be letters, digits, '-', '_' or '.'".into())
        })?;
    let own: Vec<&String> = file.args.iter().take_while(|a| *a != "--").collect();
    if let Some(a) = own.iter().find(|a| {
        NOT_IN_A_RUN
            .iter()
            .any(|no| a.as_str() == *no || a.starts_with(&format!("{no}=")))
    }) {
        return Err(bad(format!("{a} cannot be in a run")));
    }
    let out = own
        .iter()
        .position(|a| *a == "--out")
        .and_then(|i| own.get(i + 1).map(|s| s.to_string()))
        .or_else(|| {
            own.iter()
                .find_map(|a| a.strip_prefix("--out=").map(str::to_owned))
        })
        .ok_or_else(|| bad("its args must name the games' folder: \"--out\", \"DIR\"".into()))?;
    let dir = path.parent().unwrap_or(Path::new(".")).to_owned();
    Ok(RunSpec {
        name,
        out: dir.join(out),
        dir,
        args: file.args,
    })
}

/// Why an action was not taken.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum RunRefusal {
    #[error("no run called {0} on this relay")]
    Unknown(String),
    #[error("{name} is {phase:?}: it can be {allowed}")]
    NotNow {
        name: String,
        phase: Phase,
        allowed: &'static str,
    },
    #[error("cannot start {name}: {why}")]
    Spawn { name: String, why: String },
}

impl RunRefusal {
    pub fn status(&self) -> u16 {
        match self {
            RunRefusal::Unknown(_) => 404,
            RunRefusal::NotNow { .. } => 409,
            RunRefusal::Spawn { .. } => 500,
        }
    }
}

struct Slot {
    spec: RunSpec,
    state: Mutex<SlotState>,
}

#[derive(Default)]
struct SlotState {
    phase: Phase,
    pid: Option<u32>,
    said: Option<String>,
    /// Set while the runner runs: when it ends, the phase it ends in.
    asked: Option<Action>,
}

/// Every run of the relay.
pub struct Runs {
    program: PathBuf,
    slots: BTreeMap<String, Arc<Slot>>,
}

impl Runs {
    /// The runs of `specs`, played by `program` (`pitchside-play`).
    pub fn new(specs: Vec<RunSpec>, program: PathBuf) -> Runs {
        let slots = specs
            .into_iter()
            .map(|spec| {
                let slot = Slot {
                    spec,
                    state: Mutex::new(SlotState::default()),
                };
                (slot.spec.name.clone(), Arc::new(slot))
            })
            .collect();
        Runs { program, slots }
    }

    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }

    /// The runs' folders, for the archive to list.
    pub fn folders(&self) -> Vec<PathBuf> {
        self.slots.values().map(|s| s.spec.out.clone()).collect()
    }

    /// `pitchside-play` beside this program, else the one on `PATH`.
    pub fn default_program() -> PathBuf {
        std::env::current_exe()
            .ok()
            .map(|exe| exe.with_file_name("pitchside-play"))
            .filter(|p| p.is_file())
            .unwrap_or_else(|| PathBuf::from("pitchside-play"))
    }

    /// Every run as the page shows it; `series` gives a folder's series link, when the
    /// archive lists it.
    pub fn list(&self, series: impl Fn(&Path) -> Option<String>) -> RunsDoc {
        RunsDoc {
            format: RUNS_FORMAT.into(),
            runs: self.slots.values().map(|s| entry(s, &series)).collect(),
        }
    }

    /// Takes `action` on run `name`, for an operator whose token was checked.
    pub fn act(
        &self,
        name: &str,
        action: Action,
        series: impl Fn(&Path) -> Option<String>,
    ) -> Result<RunEntry, RunRefusal> {
        let slot = self
            .slots
            .get(name)
            .ok_or_else(|| RunRefusal::Unknown(name.to_owned()))?;
        let phase = slot.state.lock().map(|s| s.phase).unwrap_or_default();
        let not_now = |allowed| RunRefusal::NotNow {
            name: name.to_owned(),
            phase,
            allowed,
        };
        match action {
            Action::Start if phase.active() => return Err(not_now("paused or stopped")),
            Action::Start => self.start(slot)?,
            Action::Pause if phase != Phase::Running => {
                return Err(not_now("paused while it runs"))
            }
            Action::Stop if !matches!(phase, Phase::Running | Phase::Pausing) => {
                return Err(not_now("stopped while it runs"))
            }
            Action::Pause | Action::Stop => signal(slot, action),
        }
        tracing::info!("run {name}: the operator asked to {}", action.word());
        Ok(entry(slot, &series))
    }

    fn start(&self, slot: &Arc<Slot>) -> Result<(), RunRefusal> {
        let spec = &slot.spec;
        // `--continue` among the runner's own options, which end at `--`.
        let mut args = spec.args.clone();
        let own = args.iter().position(|a| a == "--").unwrap_or(args.len());
        if !args
            .iter()
            .take(own)
            .any(|a| a == "--continue" || a == "-c")
        {
            args.insert(own, "--continue".into());
        }
        let mut command = tokio::process::Command::new(&self.program);
        command.args(&args);
        command
            .current_dir(&spec.dir)
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped());
        let mut child = command.spawn().map_err(|e| RunRefusal::Spawn {
            name: spec.name.clone(),
            why: format!("{}: {e}", self.program.display()),
        })?;
        if let Ok(mut s) = slot.state.lock() {
            *s = SlotState {
                phase: Phase::Running,
                pid: child.id(),
                said: None,
                asked: None,
            };
        }
        for pipe in [
            child.stdout.take().map(|p| Box::new(p) as Box<dyn Reader>),
            child.stderr.take().map(|p| Box::new(p) as Box<dyn Reader>),
        ]
        .into_iter()
        .flatten()
        {
            tokio::spawn(hear(slot.clone(), pipe));
        }
        let slot = slot.clone();
        tokio::spawn(async move {
            let status = child.wait().await;
            let mut s = slot.state.lock().unwrap_or_else(|e| e.into_inner());
            s.pid = None;
            s.phase = match (status.ok().and_then(|st| st.code()), s.asked) {
                (Some(0), Some(Action::Pause)) => Phase::Paused,
                (Some(0), _) => Phase::Over,
                (Some(130), _) | (None, Some(Action::Stop)) => Phase::Stopped,
                (Some(1), _) => Phase::Invalid,
                _ => Phase::Failed,
            };
            tracing::info!("run {}: {:?}", slot.spec.name, s.phase);
        });
        Ok(())
    }

    /// Stops every run under way (SIGTERM), as the relay shuts down: a runner stops its
    /// games and their processes itself.
    pub fn stop_all(&self) {
        for slot in self.slots.values() {
            let active = slot.state.lock().is_ok_and(|s| s.phase.active());
            if active {
                signal(slot, Action::Stop);
            }
        }
    }
}

trait Reader: tokio::io::AsyncRead + Unpin + Send {}
impl<T: tokio::io::AsyncRead + Unpin + Send> Reader for T {}

/// Keeps the last line the runner printed (for the page) and logs every line.
async fn hear(slot: Arc<Slot>, pipe: Box<dyn Reader>) {
    use tokio::io::AsyncBufReadExt;
    let mut lines = tokio::io::BufReader::new(pipe).lines();
    while let Ok(Some(line)) = lines.next_line().await {
        let line: String = line.chars().take(500).collect();
        tracing::info!("run {}: {line}", slot.spec.name);
        if let Ok(mut s) = slot.state.lock() {
            s.said = Some(line);
        }
    }
}

fn signal(slot: &Slot, action: Action) {
    let Ok(mut s) = slot.state.lock() else { return };
    let Some(pid) = s.pid.and_then(|p| rustix::process::Pid::from_raw(p as i32)) else {
        return;
    };
    let (sig, phase) = match action {
        Action::Pause => (rustix::process::Signal::USR1, Phase::Pausing),
        _ => (rustix::process::Signal::TERM, Phase::Stopping),
    };
    if rustix::process::kill_process(pid, sig).is_ok() {
        s.phase = phase;
        s.asked = Some(action);
    }
}

fn entry(slot: &Slot, series: &impl Fn(&Path) -> Option<String>) -> RunEntry {
    let (phase, said) = slot
        .state
        .lock()
        .map(|s| (s.phase, s.said.clone()))
        .unwrap_or_default();
    let progress = std::fs::read(slot.spec.out.join(crate::play::status::FILE))
        .ok()
        .and_then(|bytes| serde_json::from_slice::<Run>(&bytes).ok());
    RunEntry {
        name: slot.spec.name.clone(),
        phase,
        said,
        series: series(&slot.spec.out),
        progress,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(name: &str, text: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("pitchside-runs-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("a scratch folder");
        let path = dir.join(name);
        std::fs::write(&path, text).expect("a run file");
        path
    }

    #[test]
    fn a_run_file_names_its_run_and_its_folder_from_its_own_folder() {
        let path = file(
            "night.toml",
            r#"args = ["--team", "a", "--opponent", "b", "--games", "3", "--out", "games/night", "--", "-server::synch_mode=true"]"#,
        );
        let spec = read_run_file(&path).expect("a good run file");
        assert_eq!(spec.name, "night");
        let dir = path.parent().expect("its folder");
        assert_eq!(spec.out, dir.join("games/night"));
        assert_eq!(spec.dir, dir);
        assert_eq!(spec.args.len(), 10);
    }

    #[test]
    fn a_run_file_that_would_do_something_else_is_refused_with_why() {
        let cases = [
            (
                "a.toml",
                r#"args = ["--team", "a"]"#,
                "must name the games' folder",
            ),
            (
                "b.toml",
                r#"args = ["--out", "x", "--sbatch"]"#,
                "--sbatch cannot be in a run",
            ),
            (
                "c.toml",
                r#"args = ["--out", "x"]
program = "/bin/sh""#,
                "unknown field `program`",
            ),
            ("d e.toml", r#"args = ["--out", "x"]"#, "its name"),
        ];
        for (name, text, why) in cases {
            let err = read_run_file(&file(name, text))
                .expect_err(name)
                .to_string();
            assert!(err.contains(why), "{name}: {err}");
        }
        // What follows `--` is the server's, not the runner's.
        let ok = read_run_file(&file("f.toml", r#"args = ["--out", "x", "--", "--help"]"#));
        assert!(ok.is_ok());
    }
}
