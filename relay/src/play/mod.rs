//! Playing a batch of games on this machine (`pitchside-play`): P rcssserver processes at
//! once, each on its field's ports, the teams started by the server itself with the start
//! scripts and arguments autotest2d gives them, every game's logs under one folder. The plan
//! (ports, sides, options, names) is [`pitchside_competitions::batch`]'s; this module starts,
//! limits, watches and stops the processes.
//!
//! What a game leaves in the folder: `game-NNNN.rcg.gz` and `game-NNNN.rcl.gz` (the server's
//! logs), `game-NNNN.out` (what the server and the teams printed), and once the server ended
//! by itself and the game counts (every player played it to the end: see
//! [`batch::judge_server_output`]) `game-NNNN.done`, the mark a continued batch goes by. A
//! game that went wrong gets `game-NNNN.invalid` with why instead.

use pitchside_competitions::batch::{self, Game, GameSetup, Plan, Ports};
use std::collections::{BTreeSet, VecDeque};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

pub mod ports;
pub mod status;
pub mod team;
pub mod tournament;

/// How games are played, whatever plays them (a batch or a tournament).
#[derive(Clone, Debug)]
pub struct Setup {
    /// The rcssserver program.
    pub server: PathBuf,
    /// The folder every game's files go to, absolute: the servers run in it.
    pub out: PathBuf,
    /// The host the teams run on and the host they reach the server at (autotest2d's
    /// `CLIENTS` and `HOST`).
    pub team_host: String,
    pub server_host: String,
    /// The user's own `server::`/`player::` options, given to every game last.
    pub extra: Vec<String>,
    /// CPU seconds a server may use (autotest2d's `ulimit -t 300`).
    pub cpu_seconds: u64,
    /// Wall-clock time a game may take before it is stopped and marked invalid.
    pub time_limit: Duration,
    /// Give each game a folder of its own, `NAME.teams/`, as the server's and so the teams'
    /// working folder, kept after the game: where a team writes its own logs.
    pub team_logs: bool,
    /// The user the teams run as (their start scripts drop to it; see [`team`]): the owner
    /// of each game's own folder.
    pub team_user: Option<team::User>,
    /// How often a game that went wrong is played again at once.
    pub retries: u32,
    /// A command each game's server is started through, words before the server's own
    /// (`srun --nodes=1 --ntasks=1`: each game a Slurm job step on a node of its own choice);
    /// empty: the server runs here.
    pub launcher: Vec<String>,
}

/// A batch's two start scripts (absolute paths): the team's and the opponent's.
#[derive(Clone, Debug)]
pub struct Pair {
    pub team: String,
    pub opponent: String,
}

/// What a batch did.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Outcome {
    /// Games that ended by themselves, in the order they ended.
    pub played: Vec<u32>,
    /// Games that went wrong, with why.
    pub invalid: Vec<(u32, String)>,
    /// Games not started because the batch was stopped or paused.
    pub left: Vec<u32>,
    /// The batch was paused: the games under way were played, no more started.
    pub paused: bool,
}

#[derive(Debug, thiserror::Error)]
pub enum PlayError {
    #[error("cannot use the folder {path}: {source}")]
    Folder {
        path: PathBuf,
        source: std::io::Error,
    },
}

/// The games the folder already holds as played (their `.done` mark), for a batch that goes
/// on where it stopped.
pub fn played_games(out: &Path) -> Result<BTreeSet<u32>, PlayError> {
    let entries = match std::fs::read_dir(out) {
        Ok(entries) => entries,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(BTreeSet::new()),
        Err(source) => {
            return Err(PlayError::Folder {
                path: out.to_owned(),
                source,
            })
        }
    };
    Ok(entries
        .filter_map(Result::ok)
        .filter_map(|e| {
            let name = e.file_name().into_string().ok()?;
            name.ends_with(".done").then(|| batch::game_of(&name))?
        })
        .collect())
}

/// Plays the games of `plan` not yet played in `setup.out`, `plan.fields().len()` at once,
/// until all are played, `pause` is set (the games under way are played to their end, no
/// other starts) or `stop` is set (the games under way are stopped, their processes killed,
/// and marked invalid).
pub fn play(
    plan: &Plan,
    setup: &Setup,
    pair: &Pair,
    stop: &AtomicBool,
    pause: &AtomicBool,
) -> Result<Outcome, PlayError> {
    let folder_error = |source| PlayError::Folder {
        path: setup.out.clone(),
        source,
    };
    std::fs::create_dir_all(&setup.out).map_err(folder_error)?;
    make_conf_dirs(&setup.out);
    let done = played_games(&setup.out)?;
    let queue: Mutex<VecDeque<Game>> = Mutex::new(plan.remaining(&done).collect());
    let outcome = Mutex::new(Outcome::default());
    let ports: Vec<u16> = plan.fields().iter().map(|p| p.player).collect();
    let status = status::Status::new(
        &setup.out,
        "batch",
        plan.games(),
        u32::try_from(done.len()).unwrap_or(u32::MAX),
        &ports,
    );
    std::thread::scope(|scope| {
        for &ports in plan.fields() {
            let (queue, outcome, status) = (&queue, &outcome, &status);
            scope.spawn(move || loop {
                if stop.load(Ordering::Relaxed) || pause.load(Ordering::Relaxed) {
                    return;
                }
                let next = queue.lock().map(|mut q| q.pop_front());
                let Ok(Some(game)) = next else { return };
                status.started(ports.player, &batch::log_name(game.number), None);
                let result = play_game(setup, pair, ports, game, stop);
                status.ended(ports.player, result.is_ok());
                if let Ok(mut o) = outcome.lock() {
                    match result {
                        Ok(()) => o.played.push(game.number),
                        Err(why) => o.invalid.push((game.number, why)),
                    }
                }
            });
        }
    });
    status.finish();
    let mut outcome = outcome.into_inner().unwrap_or_default();
    outcome.left = queue
        .into_inner()
        .unwrap_or_default()
        .into_iter()
        .map(|g| g.number)
        .collect();
    outcome.paused = pause.load(Ordering::Relaxed) && !outcome.left.is_empty();
    Ok(outcome)
}

/// Makes the folder rcssserver keeps its configuration in before any server starts: two
/// servers starting at once where it is missing race to make it, and the loser ends with
/// "Could not read or create config directory" (seen with two real ones). It is
/// `$RCSS_CONF_DIR` when set, else `~/.rcssserver`, which a server that does not expand the
/// tilde makes in the folder it runs in, the batch's.
pub fn make_conf_dirs(out: &Path) {
    let dirs: Vec<PathBuf> = match std::env::var_os("RCSS_CONF_DIR") {
        Some(dir) => vec![PathBuf::from(dir)],
        None => std::env::var_os("HOME")
            .map(|home| PathBuf::from(home).join(".rcssserver"))
            .into_iter()
            .chain([out.join("~").join(".rcssserver")])
            .collect(),
    };
    for dir in dirs {
        let _ = std::fs::create_dir_all(dir);
    }
}

/// One game of a batch: its sides for this game, then [`play_one`] under the game's name.
pub fn play_game(
    setup: &Setup,
    pair: &Pair,
    ports: Ports,
    game: Game,
    stop: &AtomicBool,
) -> Result<(), String> {
    let (left, right) = if game.swapped {
        (&pair.opponent, &pair.team)
    } else {
        (&pair.team, &pair.opponent)
    };
    let one = OneGame {
        ports,
        name: batch::log_name(game.number),
        left,
        right,
        shoot_outs: false,
    };
    let mut result = play_one(setup, &one, stop);
    for _ in 0..setup.retries {
        if result.is_ok() || stop.load(Ordering::Relaxed) {
            break;
        }
        result = play_one(setup, &one, stop);
    }
    result
}

/// One game to play on one field.
pub struct OneGame<'a> {
    pub ports: Ports,
    /// The logs' and marks' names, without their extensions.
    pub name: String,
    /// The left and the right team's start scripts.
    pub left: &'a str,
    pub right: &'a str,
    pub shoot_outs: bool,
}

/// One game on one field: on the field's ports or, when they are taken, the next free ones
/// ([`ports::claim`]); the server started in a process group of its own (the teams it starts
/// join it), under its CPU limit, watched until it ends, stopped at the time limit or when
/// the batch stops; every process of the group is killed once the server is gone, so a team
/// that stays behind does not outlive its game. Leaves `NAME.done` or `NAME.invalid` (with
/// why) beside the logs. An earlier attempt of the same game that went wrong is set aside
/// first ([`set_aside`]).
pub fn play_one(setup: &Setup, one: &OneGame, stop: &AtomicBool) -> Result<(), String> {
    let file = |ext: &str| setup.out.join(format!("{}.{ext}", one.name));
    set_aside(&setup.out, &one.name);
    let result = ports::claim(one.ports).and_then(|claim| {
        let ports = claim.ports;
        let start = |script: &str| {
            batch::start_command(script, &setup.team_host, &setup.server_host, ports)
        };
        let log_dir = setup.out.to_string_lossy();
        let game_setup = GameSetup {
            ports,
            log_dir: &log_dir,
            name: one.name.clone(),
            left: start(one.left),
            right: start(one.right),
            shoot_outs: one.shoot_outs,
        };
        let moved = (ports != one.ports).then(|| {
            format!(
                "pitchside-play: ports {}, {} and {} (the field's {} are taken)\n",
                ports.player, ports.coach, ports.online_coach, one.ports.player
            )
        });
        let workdir = game_folder(setup, &one.name)?;
        // Where a run's games start at once from several processes (Slurm array tasks).
        make_conf_dirs(&workdir);
        let args = batch::server_args(&game_setup, &setup.extra);
        let ran = run_server(setup, &args, &workdir, &file("out"), moved, stop);
        drop(claim);
        ran.and_then(|()| whole_log(&setup.out, &one.name))
    });
    let (mark, text) = match &result {
        Ok(()) => (file("done"), String::new()),
        Err(why) => (file("invalid"), format!("{why}\n")),
    };
    let _ = std::fs::write(mark, text);
    result
}

/// Whether the game's log holds the whole game: a server that played to its end can still
/// leave a log cut short (a full disk) or none, and a game without its log is no result.
fn whole_log(out: &Path, name: &str) -> Result<(), String> {
    let Some(log) = ["rcg.gz", "rcg"]
        .iter()
        .map(|ext| out.join(format!("{name}.{ext}")))
        .find(|p| p.is_file())
    else {
        return Err(
            "the server wrote no game log (a full disk, or game logging turned off)".into(),
        );
    };
    let games = crate::inspect::series::read_games(std::slice::from_ref(&log), 1);
    match games.first() {
        Some(g) if g.has_result() => Ok(()),
        Some(g) => Err(format!(
            "the game log is not whole ({}): a full disk?",
            g.invalid
                .iter()
                .map(|i| i.describe(&g.teams))
                .collect::<Vec<_>>()
                .join("; ")
        )),
        None => Err(format!("cannot read {}", log.display())),
    }
}

/// The folder a game's server (and so its teams) runs in: the run's, or with
/// [`Setup::team_logs`] one of the game's own, handed to the teams' user.
fn game_folder(setup: &Setup, name: &str) -> Result<PathBuf, String> {
    if !setup.team_logs {
        return Ok(setup.out.clone());
    }
    let folder = setup.out.join(format!("{name}.teams"));
    std::fs::create_dir_all(&folder)
        .map_err(|e| format!("cannot make {}: {e}", folder.display()))?;
    if let Some(user) = &setup.team_user {
        team::hand_over(&folder, user)?;
    }
    Ok(folder)
}

/// Moves the files of an earlier attempt at game `name` that went wrong (its `NAME.invalid`
/// mark, what it printed, its logs, its teams' folder) to `NAME.try-K.…`, K from 1, the logs
/// renamed `….rcg.gz.invalid` so that nothing counts them: the game is played again under its
/// own name, and why each attempt failed stays beside it.
pub fn set_aside(out: &Path, name: &str) {
    if !out.join(format!("{name}.invalid")).exists() {
        return;
    }
    let Some(k) = (1..10_000).find(|k| !out.join(format!("{name}.try-{k}.invalid")).exists())
    else {
        return;
    };
    for (from, to) in [
        ("rcg.gz", "rcg.gz.invalid"),
        ("rcl.gz", "rcl.gz.invalid"),
        ("out", "out"),
        ("teams", "teams"),
        ("invalid", "invalid"),
    ] {
        let file = out.join(format!("{name}.{from}"));
        if file.exists() {
            let _ = std::fs::rename(&file, out.join(format!("{name}.try-{k}.{to}")));
        }
    }
}

/// What runs a game's server on a node a launcher (`srun`) chose: the server in a new session
/// (its teams join its process group), and once it has ended, every process left in that
/// group killed, with the server's exit status kept. Without it a process a team left behind
/// holds the step's output open, and `srun` waits on it.
///
/// A stop does not reach this script: `srun` cancels its step on SIGTERM, and the step's
/// processes are killed at once. A player whose start script has ended has left the step's
/// process tree, so Slurm's `proctrack/linuxproc` cannot find it (`proctrack/cgroup` can). A
/// watchdog outside the step's tree (started, then left by a subshell) kills the server's
/// group as soon as this script is gone while the group is still there.
const ON_THE_NODE: &str = "setsid \"$@\" & p=$!\n\
( setsid sh -c 'while kill -0 -\"$1\" 2>/dev/null; do \
kill -0 \"$0\" 2>/dev/null || kill -KILL -\"$1\"; sleep 1; done' $$ $p \
</dev/null >/dev/null 2>&1 & )\n\
wait $p; s=$?\n\
kill -KILL -$p 2>/dev/null\n\
exit $s";

fn run_server(
    setup: &Setup,
    args: &[String],
    workdir: &Path,
    out: &Path,
    preface: Option<String>,
    stop: &AtomicBool,
) -> Result<(), String> {
    let mut printed =
        std::fs::File::create(out).map_err(|e| format!("cannot write {}: {e}", out.display()))?;
    if let Some(line) = preface {
        use std::io::Write;
        printed
            .write_all(line.as_bytes())
            .map_err(|e| format!("cannot write {}: {e}", out.display()))?;
    }
    let printed_too = printed
        .try_clone()
        .map_err(|e| format!("cannot write {}: {e}", out.display()))?;
    // The CPU limit as autotest2d sets it: `ulimit -t` in the shell that becomes the server.
    let mut command = Command::new("sh");
    command
        .arg("-c")
        .arg("ulimit -t \"$0\" && exec \"$@\"")
        .arg(setup.cpu_seconds.to_string());
    if !setup.launcher.is_empty() {
        // On the node, where this runner's process group does not reach: the server in a
        // session of its own, and whatever of it is left once it ends killed there.
        command
            .args(&setup.launcher)
            .args(["sh", "-c", ON_THE_NODE, "sh"]);
    }
    command
        .arg(&setup.server)
        .args(args)
        .current_dir(workdir)
        .stdin(Stdio::null())
        .stdout(printed)
        .stderr(printed_too);
    std::os::unix::process::CommandExt::process_group(&mut command, 0);
    let child = command
        .spawn()
        .map_err(|e| format!("cannot start {}: {e}", setup.server.display()))?;
    // A launcher passes the stop on to a node and waits there for the server to close its
    // logs and for its group to be killed: it gets longer before it is killed itself.
    let grace = Duration::from_secs(if setup.launcher.is_empty() { 3 } else { 15 });
    let status = watch(child, setup.time_limit, stop, grace);
    let printed = || std::fs::read(out).map(|b| String::from_utf8_lossy(&b).into_owned());
    match status {
        Watched::Ended(s) if s.success() => match printed() {
            Ok(text) => batch::judge_server_output(&text),
            Err(e) => Err(format!("cannot read {}: {e}", out.display())),
        },
        Watched::Ended(s) => {
            let text = printed().unwrap_or_default();
            match text.lines().rev().find(|l| !l.trim().is_empty()) {
                Some(last) => Err(format!("the server ended with {s}: {}", last.trim())),
                None => Err(format!("the server ended with {s}")),
            }
        }
        Watched::TooLong => Err(format!(
            "the game took longer than {} s and was stopped",
            setup.time_limit.as_secs()
        )),
        Watched::Stopped => Err("the batch was stopped during the game".into()),
        Watched::Lost(e) => Err(format!("the server could not be watched: {e}")),
    }
}

enum Watched {
    Ended(ExitStatus),
    TooLong,
    Stopped,
    Lost(std::io::Error),
}

/// Waits for the server to end, to reach `limit` or for `stop`, then kills whatever is left
/// of its process group and reaps the server. A thread of its own waits on the server, so the
/// game's end is seen at once (polling every 50 ms cost 52 ms a game: BENCHMARKS.md,
/// "Playing games"); the time limit and the stop are looked at every 50 ms.
fn watch(mut child: Child, limit: Duration, stop: &AtomicBool, grace: Duration) -> Watched {
    use std::sync::mpsc::RecvTimeoutError;
    let pid = child.id();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(child.wait());
    });
    let started = Instant::now();
    let watched = loop {
        match rx.recv_timeout(Duration::from_millis(50)) {
            Ok(Ok(status)) => break Watched::Ended(status),
            Ok(Err(e)) => break Watched::Lost(e),
            Err(RecvTimeoutError::Disconnected) => {
                break Watched::Lost(std::io::Error::other("the server's waiter ended"))
            }
            Err(RecvTimeoutError::Timeout) => {}
        }
        if stop.load(Ordering::Relaxed) {
            break Watched::Stopped;
        }
        if started.elapsed() > limit {
            break Watched::TooLong;
        }
    };
    if matches!(watched, Watched::Stopped | Watched::TooLong) {
        // Asked first, as Ctrl-C asks: rcssserver closes its logs, and a launcher (`srun`)
        // cancels what it started on its node. Then killed, with what is left of its group.
        kill_group(pid, rustix::process::Signal::TERM);
        if rx.recv_timeout(grace).is_err() {
            kill_group(pid, rustix::process::Signal::KILL);
            let _ = rx.recv_timeout(Duration::from_secs(5));
        }
    }
    kill_group(pid, rustix::process::Signal::KILL);
    watched
}

/// Signals every process left in the server's group (the server, if it still runs, and the
/// teams it started).
fn kill_group(pid: u32, signal: rustix::process::Signal) {
    if let Some(pid) = rustix::process::Pid::from_raw(pid as i32) {
        let _ = rustix::process::kill_process_group(pid, signal);
    }
}

/// A flag set when one of `kinds` of signal arrives. The signals are caught before this
/// returns, so one that comes at once does not kill the process instead.
pub fn flag_on(kinds: &[tokio::signal::unix::SignalKind]) -> Arc<AtomicBool> {
    let flag = Arc::new(AtomicBool::new(false));
    let Ok(rt) = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    else {
        return flag;
    };
    let mut signals: Vec<tokio::signal::unix::Signal> = rt.block_on(async {
        kinds
            .iter()
            .filter_map(|&k| tokio::signal::unix::signal(k).ok())
            .collect()
    });
    if signals.is_empty() {
        return flag;
    }
    let set = flag.clone();
    std::thread::spawn(move || {
        rt.block_on(async {
            let waits = signals.iter_mut().map(|s| Box::pin(s.recv()));
            futures_util::future::select_all(waits).await;
        });
        set.store(true, Ordering::Relaxed);
    });
    flag
}

/// A pause flag set by SIGUSR1: a batch starts no more games and ends once those under way
/// are over; a tournament ends after the wave under way.
pub fn pause_on_usr1() -> Arc<AtomicBool> {
    flag_on(&[tokio::signal::unix::SignalKind::user_defined1()])
}

/// A stop flag set by Ctrl-C or SIGTERM, for [`play`].
pub fn stop_on_signals() -> Arc<AtomicBool> {
    use tokio::signal::unix::SignalKind;
    flag_on(&[SignalKind::interrupt(), SignalKind::terminate()])
}
