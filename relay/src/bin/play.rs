//! `pitchside-play`: plays a batch of games of a team against an opponent on this machine,
//! as autotest2d's `test.sh` does, or a whole tournament from its file, and keeps every
//! game's logs under one folder.

use anyhow::Context;
use clap::Parser;
use pitchside_competitions::batch::{self, Plan, FIRST_PORT};
use relay::play::tournament::{self, Tournament};
use relay::play::{self, Pair, Setup};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::Ordering;
use std::time::Duration;

/// Plays N games of a team against an opponent, P rcssserver processes at once, each
/// starting the two teams itself with their start scripts, which get autotest2d's arguments:
/// the team's host, the server's host, the player port, the coach port and the online-coach
/// port. Or, with --tournament, the tournament file's games on P fields, round by round.
/// Run it again with --continue to play the games an interrupted run left.
#[derive(Parser, Debug)]
#[command(name = "pitchside-play", version)]
struct Args {
    /// The team's start script (autotest2d's start_left).
    #[arg(long, value_name = "SCRIPT", required_unless_present = "tournament")]
    team: Option<PathBuf>,
    /// The opponent's start script (autotest2d's start_right).
    #[arg(long, value_name = "SCRIPT", required_unless_present = "tournament")]
    opponent: Option<PathBuf>,
    /// How many games.
    #[arg(long, value_name = "N", required_unless_present = "tournament")]
    games: Option<u32>,
    /// Play a tournament file's games instead: its groups in the schedule's order, then its
    /// knockout ties, each team started by the script its `[start]` table names. SIGUSR1
    /// pauses it after the round under way.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["team", "opponent", "games", "swap_every"])]
    tournament: Option<PathBuf>,
    /// With --tournament and --continue: play again the games a former run marked invalid.
    #[arg(long, requires = "tournament")]
    replay_invalid: bool,
    /// Games at once, each on its own ports: 6000, 7000, 8000, …
    #[arg(long, value_name = "P", default_value_t = 1)]
    parallel: u16,
    /// Swap the sides every K-th game (the team on the right).
    #[arg(long, value_name = "K")]
    swap_every: Option<u32>,
    /// The folder every game's logs go to.
    #[arg(long, value_name = "DIR")]
    out: PathBuf,
    /// Play the games the folder does not hold yet, instead of refusing a folder with games.
    #[arg(long = "continue", short = 'c')]
    resume: bool,
    /// The rcssserver program.
    #[arg(long, value_name = "PROGRAM", default_value = "rcssserver")]
    server: PathBuf,
    /// The first field's player port.
    #[arg(long, value_name = "PORT", default_value_t = FIRST_PORT)]
    first_port: u16,
    /// The host the teams run on, as their scripts get it.
    #[arg(long, value_name = "HOST", default_value = "localhost")]
    team_host: String,
    /// The host the teams reach the server at, as their scripts get it.
    #[arg(long, value_name = "HOST", default_value = "localhost")]
    server_host: String,
    /// CPU seconds a server may use (autotest2d's `ulimit -t 300`).
    #[arg(long, value_name = "SECS", default_value_t = 300)]
    cpu_limit: u64,
    /// Seconds a game may take, start to end, before it is stopped and marked invalid.
    #[arg(long, value_name = "SECS", default_value_t = 1200)]
    time_limit: u64,
    /// rcssserver options for every game, after `--`: `-server::synch_mode=true` …
    #[arg(last = true, value_name = "OPTION")]
    options: Vec<String>,
}

fn main() -> ExitCode {
    match run() {
        Ok(code) => code,
        Err(e) => {
            eprintln!("pitchside-play: {e:#}");
            ExitCode::from(2)
        }
    }
}

/// A start script's absolute path, as the server (running in the batch's folder) needs it.
fn script(p: &Path) -> anyhow::Result<String> {
    let path =
        std::fs::canonicalize(p).with_context(|| format!("the start script {}", p.display()))?;
    usable(path.to_string_lossy().into_owned())
}

fn run() -> anyhow::Result<ExitCode> {
    let args = Args::parse();
    if !program_exists(&args.server) {
        anyhow::bail!(
            "no program {} to run the games: install rcssserver or give --server PATH",
            args.server.display()
        );
    }
    let fields = Plan::new(1, args.parallel, None, args.first_port)?
        .fields()
        .to_vec();
    let mode = match &args.tournament {
        Some(file) => Mode::Tournament(read_tournament(file, args.replay_invalid)?),
        None => {
            let (Some(team), Some(opponent), Some(games)) =
                (&args.team, &args.opponent, args.games)
            else {
                anyhow::bail!("--team, --opponent and --games, or --tournament FILE");
            };
            let plan = Plan::new(games, args.parallel, args.swap_every, args.first_port)?;
            let pair = Pair {
                team: script(team)?,
                opponent: script(opponent)?,
            };
            Mode::Batch(plan, pair)
        }
    };
    // The server runs in the batch's folder (what it writes where it runs, a `~/.rcssserver`
    // it fails to expand included, stays there): every path it is given must be absolute.
    std::fs::create_dir_all(&args.out)
        .with_context(|| format!("cannot make the folder {}", args.out.display()))?;
    let out = std::fs::canonicalize(&args.out)
        .with_context(|| format!("the folder {}", args.out.display()))?;
    usable(out.to_string_lossy().into_owned())?;
    let already = play::played_games(&out)?;
    if !args.resume && (!already.is_empty() || holds_games(&out)) {
        anyhow::bail!(
            "{} already holds played games: --continue to play the rest, or another --out",
            args.out.display(),
        );
    }
    let setup = Setup {
        server: if args.server.components().count() > 1 {
            std::fs::canonicalize(&args.server).unwrap_or_else(|_| args.server.clone())
        } else {
            args.server.clone()
        },
        out,
        team_host: args.team_host,
        server_host: args.server_host,
        extra: args.options,
        cpu_seconds: args.cpu_limit,
        time_limit: Duration::from_secs(args.time_limit),
    };
    let stop = play::stop_on_signals();
    let stopped = || stop.load(Ordering::Relaxed);
    match mode {
        Mode::Batch(plan, pair) => {
            let outcome = play::play(&plan, &setup, &pair, &stop)?;
            for (game, why) in &outcome.invalid {
                eprintln!("game {game}: {why}");
            }
            println!(
                "{} played, {} invalid, {} left ({} games in {})",
                outcome.played.len() + already.len(),
                outcome.invalid.len(),
                outcome.left.len(),
                plan.games(),
                args.out.display()
            );
            Ok(exit_code(stopped(), outcome.invalid.is_empty()))
        }
        Mode::Tournament(t) => {
            let pause = tournament::pause_on_usr1();
            let report = |line: &str| println!("{line}");
            let outcome = tournament::play_tournament(&t, &setup, &fields, &stop, &pause, &report)?;
            let state = if outcome.done == outcome.fixtures {
                "the tournament is over".to_owned()
            } else if outcome.paused {
                "paused: --continue to go on".to_owned()
            } else if stopped() {
                "stopped: --continue to go on".to_owned()
            } else {
                "the rest waits on invalid games: --continue --replay-invalid to play them again"
                    .to_owned()
            };
            println!(
                "{} of {} games played, {} invalid in this run ({}; {})",
                outcome.done,
                outcome.fixtures,
                outcome.invalid.len(),
                args.out.display(),
                state
            );
            // Over or paused is a run that did what it was asked; a tournament left waiting
            // on invalid games is not.
            let settled =
                outcome.invalid.is_empty() && (outcome.done == outcome.fixtures || outcome.paused);
            Ok(exit_code(stopped(), settled))
        }
    }
}

enum Mode {
    Batch(Plan, Pair),
    Tournament(Tournament),
}

fn exit_code(stopped: bool, all_valid: bool) -> ExitCode {
    if stopped {
        ExitCode::from(130)
    } else if all_valid {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

/// The tournament file, checked, with every team's start script found (paths in the file are
/// from its folder).
fn read_tournament(file: &Path, replay_invalid: bool) -> anyhow::Result<Tournament> {
    let plan = relay::tournament::read_plan(file)?;
    let base = file.parent().unwrap_or(Path::new("."));
    let mut scripts = BTreeMap::new();
    for team in tournament::teams_of(&plan) {
        let Some(rel) = plan.start.get(&team) else {
            anyhow::bail!(
                "{}: no start script for {team} (a line `{team} = \"path/to/start\"` under [start])",
                file.display()
            );
        };
        scripts.insert(team, script(&base.join(rel))?);
    }
    Ok(Tournament {
        plan,
        scripts,
        replay_invalid,
    })
}

/// Whether the folder holds a game's mark already (a tournament's games are named by date).
fn holds_games(out: &Path) -> bool {
    std::fs::read_dir(out).is_ok_and(|entries| {
        entries.filter_map(Result::ok).any(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            name.ends_with(".done") || name.ends_with(".invalid")
        })
    })
}

/// `path` if rcssserver's option parser can be handed it (see `batch::server_args`).
fn usable(path: String) -> anyhow::Result<String> {
    match batch::unusable_in_server_options(&path) {
        None => Ok(path),
        Some(what) => anyhow::bail!("{path} holds {what}, which rcssserver's options cannot"),
    }
}

/// Whether `program` runs: a path to a file, or a name found on `PATH`, as the shell finds it.
fn program_exists(program: &std::path::Path) -> bool {
    if program.components().count() > 1 {
        return program.is_file();
    }
    std::env::var_os("PATH")
        .is_some_and(|paths| std::env::split_paths(&paths).any(|dir| dir.join(program).is_file()))
}
