//! `pitchside-play`: plays a batch of games of a team against an opponent on this machine,
//! as autotest2d's `test.sh` does, and keeps every game's logs under one folder.

use anyhow::Context;
use clap::Parser;
use pitchside_competitions::batch::{self, Plan, FIRST_PORT};
use relay::play::{self, Setup};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::Ordering;
use std::time::Duration;

/// Plays N games of a team against an opponent, P rcssserver processes at once, each
/// starting the two teams itself with their start scripts, which get autotest2d's arguments:
/// the team's host, the server's host, the player port, the coach port and the online-coach
/// port. Run it again with --continue to play the games an interrupted batch left.
#[derive(Parser, Debug)]
#[command(name = "pitchside-play", version)]
struct Args {
    /// The team's start script (autotest2d's start_left).
    #[arg(long, value_name = "SCRIPT")]
    team: PathBuf,
    /// The opponent's start script (autotest2d's start_right).
    #[arg(long, value_name = "SCRIPT")]
    opponent: PathBuf,
    /// How many games.
    #[arg(long, value_name = "N")]
    games: u32,
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

fn run() -> anyhow::Result<ExitCode> {
    let args = Args::parse();
    let plan = Plan::new(args.games, args.parallel, args.swap_every, args.first_port)?;
    if !program_exists(&args.server) {
        anyhow::bail!(
            "no program {} to run the games: install rcssserver or give --server PATH",
            args.server.display()
        );
    }
    // The server runs the scripts through the shell from the batch's folder: a script
    // is given by its absolute path.
    let script = |p: &PathBuf| -> anyhow::Result<String> {
        let path = std::fs::canonicalize(p)
            .with_context(|| format!("the start script {}", p.display()))?;
        usable(path.to_string_lossy().into_owned())
    };
    let (team, opponent) = (script(&args.team)?, script(&args.opponent)?);
    // The server runs in the batch's folder (what it writes where it runs, a `~/.rcssserver`
    // it fails to expand included, stays there): every path it is given must be absolute.
    std::fs::create_dir_all(&args.out)
        .with_context(|| format!("cannot make the folder {}", args.out.display()))?;
    let out = std::fs::canonicalize(&args.out)
        .with_context(|| format!("the folder {}", args.out.display()))?;
    usable(out.to_string_lossy().into_owned())?;
    let already = play::played_games(&out)?;
    if !already.is_empty() && !args.resume {
        anyhow::bail!(
            "{} already holds {} played games: --continue to play the rest, or another --out",
            args.out.display(),
            already.len()
        );
    }
    let setup = Setup {
        server: if args.server.components().count() > 1 {
            std::fs::canonicalize(&args.server).unwrap_or_else(|_| args.server.clone())
        } else {
            args.server.clone()
        },
        team,
        opponent,
        out,
        team_host: args.team_host,
        server_host: args.server_host,
        extra: args.options,
        cpu_seconds: args.cpu_limit,
        time_limit: Duration::from_secs(args.time_limit),
    };
    let stop = play::stop_on_signals();
    let outcome = play::play(&plan, &setup, &stop)?;
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
    Ok(if stop.load(Ordering::Relaxed) {
        ExitCode::from(130)
    } else if outcome.invalid.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
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
