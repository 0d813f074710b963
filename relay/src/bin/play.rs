//! `pitchside-play`: plays a batch of games of a team against an opponent on this machine,
//! as autotest2d's `test.sh` does, or a whole tournament from its file, and keeps every
//! game's logs under one folder.

use anyhow::Context;
use clap::Parser;
use pitchside_competitions::batch::{self, Plan, FIRST_PORT};
use relay::play::tournament::{self, Tournament};
use relay::play::{self, team, Pair, Setup};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::Ordering;
use std::time::Duration;

/// Plays N games of a team against an opponent, P rcssserver processes at once, each
/// starting the two teams itself with their start scripts, which get autotest2d's arguments:
/// the team's host, the server's host, the player port, the coach port and the online-coach
/// port. Or, with --tournament, the tournament file's games on P fields, round by round.
/// Run it again with --continue to play the games an interrupted run left. SIGUSR1 pauses a
/// run: a batch once the games under way are over, a tournament after its round.
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
    /// Address space each process of a team may use, in MiB (`prlimit --as`).
    #[arg(long, value_name = "MIB")]
    memory_limit: Option<u64>,
    /// Processes and threads the teams' user may have at once (`prlimit --nproc`; the kernel
    /// counts all of that user's processes, and does not hold root to it: use with --user).
    #[arg(long, value_name = "N")]
    process_limit: Option<u64>,
    /// Run the teams as this user (the runner must run as root; the server stays root's).
    #[arg(long, value_name = "USER")]
    user: Option<String>,
    /// Give each game a working folder of its own, `NAME.teams/`, kept: where the teams write
    /// their own logs.
    #[arg(long)]
    team_logs: bool,
    /// Play a game that went wrong again at once, up to N times (its failed attempts are kept
    /// as `NAME.try-K.*`).
    #[arg(long, value_name = "N", default_value_t = 0)]
    retry: u32,
    /// Play only game K of the batch (from 1), as a Slurm array task does: the other games'
    /// files may be in the folder already.
    #[arg(long, value_name = "K", conflicts_with = "tournament")]
    only_game: Option<u32>,
    /// Print a Slurm batch script that plays the batch as a job array (one task per game, at
    /// most --parallel at once), instead of playing it: `… --sbatch > night.sh; sbatch night.sh`.
    #[arg(long, conflicts_with_all = ["tournament", "only_game"])]
    sbatch: bool,
    /// Start each game's server through this command, e.g. `"srun --nodes=1 --ntasks=1"`: every
    /// game a Slurm job step (run inside an allocation, or alone), its teams on its node. Words
    /// split at spaces.
    #[arg(long, value_name = "COMMAND", conflicts_with = "sbatch")]
    launcher: Option<String>,
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
            // A Slurm array task plays one game on its node: the ports of one field.
            let parallel = if args.only_game.is_some() {
                1
            } else {
                args.parallel
            };
            let plan = Plan::new(games, parallel, args.swap_every, args.first_port)?;
            if let Some(k) = args.only_game {
                if k == 0 || k > games {
                    anyhow::bail!("--only-game {k}: the batch's games are 1 to {games}");
                }
            }
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
    if args.sbatch {
        let Mode::Batch(plan, pair) = &mode else {
            anyhow::bail!("--sbatch plays a batch, not a tournament");
        };
        print!("{}", sbatch_script(&args, plan, pair, &out)?);
        return Ok(ExitCode::SUCCESS);
    }
    let limits = team::Limits {
        memory_mb: args.memory_limit,
        processes: args.process_limit,
        user: args
            .user
            .as_deref()
            .map(team::User::find)
            .transpose()
            .map_err(anyhow::Error::msg)?,
    };
    let team_user = limits.user.clone();
    let mode = with_limits(mode, &out, &limits)?;
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
        team_logs: args.team_logs,
        team_user,
        retries: args.retry,
        launcher: args
            .launcher
            .as_deref()
            .map(|l| l.split_whitespace().map(str::to_owned).collect())
            .unwrap_or_default(),
    };
    let stop = play::stop_on_signals();
    let pause = play::pause_on_usr1();
    let stopped = || stop.load(Ordering::Relaxed);
    match mode {
        Mode::Batch(plan, pair) if args.only_game.is_some() => {
            let k = args.only_game.unwrap_or(1);
            if already.contains(&k) {
                println!("game {k} is played already ({})", args.out.display());
                return Ok(ExitCode::SUCCESS);
            }
            let field = plan.fields().first().copied();
            let field = field.context("a batch has a field")?;
            let result = play::play_game(&setup, &pair, field, plan.game(k), &stop);
            match &result {
                Ok(()) => println!("game {k} played ({})", args.out.display()),
                Err(why) => eprintln!("game {k}: {why}"),
            }
            Ok(exit_code(stopped(), result.is_ok()))
        }
        Mode::Batch(plan, pair) => {
            let outcome = play::play(&plan, &setup, &pair, &stop, &pause)?;
            for (game, why) in &outcome.invalid {
                eprintln!("game {game}: {why}");
            }
            println!(
                "{} played, {} invalid, {} left ({} games in {}){}",
                outcome.played.len() + already.len(),
                outcome.invalid.len(),
                outcome.left.len(),
                plan.games(),
                args.out.display(),
                if outcome.paused {
                    "; paused: --continue to go on"
                } else {
                    ""
                }
            );
            Ok(exit_code(stopped(), outcome.invalid.is_empty()))
        }
        Mode::Tournament(t) => {
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

/// The run's teams started under `limits` ([`team::start_script`]): each start script
/// replaced by one that sets them first.
fn with_limits(mode: Mode, out: &Path, limits: &team::Limits) -> anyhow::Result<Mode> {
    let wrap =
        |i: usize, s: &str| team::start_script(out, i, s, limits).map_err(anyhow::Error::msg);
    Ok(match mode {
        Mode::Batch(plan, pair) => {
            let pair = Pair {
                team: wrap(0, &pair.team)?,
                opponent: wrap(1, &pair.opponent)?,
            };
            Mode::Batch(plan, pair)
        }
        Mode::Tournament(mut t) => {
            for (i, script) in t.scripts.values_mut().enumerate() {
                *script = wrap(i, script)?;
            }
            Mode::Tournament(t)
        }
    })
}

/// A Slurm batch script for the batch as a job array: task K runs this program with
/// `--only-game K` on the node Slurm gives it, writing into the same folder (which the nodes
/// must share), at most --parallel tasks at once. Every path in it is absolute.
fn sbatch_script(args: &Args, plan: &Plan, pair: &Pair, out: &Path) -> anyhow::Result<String> {
    let exe = std::env::current_exe().context("this program's own path")?;
    let server = if args.server.components().count() > 1 {
        std::fs::canonicalize(&args.server).unwrap_or_else(|_| args.server.clone())
    } else {
        args.server.clone()
    };
    let mut words: Vec<String> = vec![
        exe.to_string_lossy().into_owned(),
        "--server".into(),
        server.to_string_lossy().into_owned(),
        "--team".into(),
        pair.team.clone(),
        "--opponent".into(),
        pair.opponent.clone(),
        "--games".into(),
        plan.games().to_string(),
        "--out".into(),
        out.to_string_lossy().into_owned(),
        "--first-port".into(),
        args.first_port.to_string(),
        "--team-host".into(),
        args.team_host.clone(),
        "--server-host".into(),
        args.server_host.clone(),
        "--cpu-limit".into(),
        args.cpu_limit.to_string(),
        "--time-limit".into(),
        args.time_limit.to_string(),
        "--retry".into(),
        args.retry.to_string(),
    ];
    let optional = [
        ("--swap-every", args.swap_every.map(|k| k.to_string())),
        ("--memory-limit", args.memory_limit.map(|m| m.to_string())),
        ("--process-limit", args.process_limit.map(|n| n.to_string())),
        ("--user", args.user.clone()),
    ];
    for (flag, value) in optional {
        if let Some(value) = value {
            words.extend([flag.to_owned(), value]);
        }
    }
    if args.team_logs {
        words.push("--team-logs".into());
    }
    let mut line: Vec<String> = words.iter().map(|w| shell_word(w)).collect();
    line.extend([
        "--continue".into(),
        "--only-game".into(),
        "\"$SLURM_ARRAY_TASK_ID\"".into(),
    ]);
    if !args.options.is_empty() {
        line.push("--".into());
        line.extend(args.options.iter().map(|o| shell_word(o)));
    }
    Ok(format!(
        "#!/bin/sh\n\
         # {games} games of pitchside-play as a Slurm job array: task K plays game K into\n\
         # {out}, which every node must see. Submit with `sbatch FILE`; options given to\n\
         # sbatch win over these lines (--partition, --cpus-per-task, --time …). Tasks whose\n\
         # game is played already end at once, so the same file continues a batch.\n\
         #SBATCH --job-name=pitchside-play\n\
         #SBATCH --array=1-{games}%{parallel}\n\
         #SBATCH --ntasks=1\n\
         #SBATCH --output={out}/slurm-%A_%a.txt\n\
         exec {line}\n",
        games = plan.games(),
        parallel = args.parallel,
        out = out.display(),
        line = line.join(" "),
    ))
}

/// `word` as one word of the shell.
fn shell_word(word: &str) -> String {
    if !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "/._-=:,+@%".contains(c))
    {
        word.to_owned()
    } else {
        format!("'{}'", word.replace('\'', r"'\''"))
    }
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
