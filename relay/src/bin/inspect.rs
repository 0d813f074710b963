//! `pitchside-inspect FILE [--json] [--events]`: what a game log holds, its match events, and
//! whether it is damaged. The file is read and summarised chunk by chunk, in memory that does
//! not grow with its size.
//!
//! Exit code 0: a whole match, parsed completely; 1: damaged, parsed up to the damage; 2:
//! nothing could be read; 3: incomplete, every record read but the match stops before time
//! over (the server was stopped or killed), the same for every log version.

use pitchside_shared::log::Ending;
use pitchside_shared::{LogError, Side};
use relay::inspect::{error_json, inspect_reader, Report};
use serde_json::{json, Value};
use std::path::PathBuf;
use std::process::ExitCode;

const USAGE: &str = "USAGE: pitchside-inspect FILE [--json] [--events] [--actions]
       pitchside-inspect export [--tracking] [--actions] [--out DIR] [--split T,V,E] [--seed N] [--jobs N] PATH...

  --json    print the summary as one JSON object (events included)
  --events  list the match events (goals, fouls, cards, set pieces, …)
  --actions each player's figures: kicks, passes, shots, goals, assists, dribbles, tackles, …

export: each log of PATH (a log, or a folder searched below) as tables: NAME.tracking.csv
  (what librcsc's rcg2csv writes, value for value) and NAME.actions.csv (each player's
  actions), in DIR (default: the current folder), under the log's path below its folder.
  --tracking / --actions  only that table (default: both)
  --split T,V,E           put matches in DIR/train, DIR/validation and DIR/test in these
                          shares (e.g. 0.8,0.1,0.1), by a shuffle seeded with --seed (0)
  --jobs N                logs read at once (default: one per core)";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("export") {
        return export_command(&args[1..]);
    }
    let mut path = None;
    let mut as_json = false;
    let mut list_events = false;
    let mut list_actions = false;
    for arg in args {
        match arg.as_str() {
            "--json" => as_json = true,
            "--events" => list_events = true,
            "--actions" => list_actions = true,
            "-h" | "--help" => {
                println!("{USAGE}");
                return ExitCode::SUCCESS;
            }
            _ if path.is_none() => path = Some(arg),
            _ => {
                eprintln!("unexpected argument {arg:?}\n{USAGE}");
                return ExitCode::from(2);
            }
        }
    }
    let Some(path) = path else {
        eprintln!("{USAGE}");
        return ExitCode::from(2);
    };
    let report = match std::fs::File::open(&path).and_then(inspect_reader) {
        Ok(r) => r,
        Err(e) => {
            let msg = format!("cannot read the file: {e}");
            report_failure(&path, &empty_report(), &msg, None, as_json);
            return ExitCode::from(2);
        }
    };
    if !report.anything {
        let msg = report
            .error
            .as_ref()
            .map_or_else(|| "no records".to_owned(), ToString::to_string);
        report_failure(&path, &report, &msg, report.error.as_ref(), as_json);
        return ExitCode::from(2);
    }
    if as_json {
        println!("{}", report.to_json());
    } else {
        print_human(&path, &report, list_events);
        if list_actions {
            print_actions(&report);
        }
    }
    match report.ending() {
        Ending::Whole => ExitCode::SUCCESS,
        Ending::Damaged(_) => ExitCode::from(1),
        Ending::Incomplete { .. } => ExitCode::from(3),
    }
}

fn export_command(args: &[String]) -> ExitCode {
    let mut opts = relay::inspect::export::Options {
        tracking: false,
        actions: false,
        out: PathBuf::from("."),
        split: None,
        seed: 0,
        jobs: 0,
    };
    let mut paths = Vec::new();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut value = |what: &str| -> Result<String, String> {
            it.next()
                .cloned()
                .ok_or_else(|| format!("{a} needs {what}"))
        };
        let parsed: Result<(), String> = match a.as_str() {
            "--tracking" => {
                opts.tracking = true;
                Ok(())
            }
            "--actions" => {
                opts.actions = true;
                Ok(())
            }
            "--out" => value("a folder").map(|v| opts.out = PathBuf::from(v)),
            "--seed" => value("a number").and_then(|v| {
                v.parse()
                    .map(|n| opts.seed = n)
                    .map_err(|_| format!("--seed {v}: not a number"))
            }),
            "--jobs" => value("a number").and_then(|v| {
                v.parse()
                    .map(|n| opts.jobs = n)
                    .map_err(|_| format!("--jobs {v}: not a number"))
            }),
            "--split" => value("three shares, T,V,E").and_then(|v| {
                let parts: Vec<f64> = v.split(',').filter_map(|p| p.trim().parse().ok()).collect();
                match parts[..] {
                    [t, va, e] if t >= 0.0 && va >= 0.0 && e >= 0.0 && t + va + e > 0.0 => {
                        opts.split = Some([t, va, e]);
                        Ok(())
                    }
                    _ => Err(format!("--split {v}: three shares, e.g. 0.8,0.1,0.1")),
                }
            }),
            "-h" | "--help" => {
                println!("{USAGE}");
                return ExitCode::SUCCESS;
            }
            s if s.starts_with("--") => Err(format!("unknown option {s}")),
            _ => {
                paths.push(PathBuf::from(a));
                Ok(())
            }
        };
        if let Err(e) = parsed {
            eprintln!("{e}\n{USAGE}");
            return ExitCode::from(2);
        }
    }
    if paths.is_empty() {
        eprintln!("export: no log or folder given\n{USAGE}");
        return ExitCode::from(2);
    }
    if !opts.tracking && !opts.actions {
        opts.tracking = true;
        opts.actions = true;
    }
    let started = std::time::Instant::now();
    let (done, failed) = relay::inspect::export::export(&paths, &opts);
    for e in &done {
        let set = e.set.map(|s| format!(" [{s}]")).unwrap_or_default();
        let note = match &e.ending {
            Ending::Whole => String::new(),
            other => format!(" ({other})"),
        };
        println!(
            "{}{set}: {} shows, {} actions{note}",
            e.input.display(),
            e.shows,
            e.actions
        );
    }
    for e in &failed {
        eprintln!("{e}");
    }
    let shows: u64 = done.iter().map(|e| e.shows).sum();
    eprintln!(
        "{} logs exported ({} failed), {shows} rows of tracking, in {:.2} s",
        done.len(),
        failed.len(),
        started.elapsed().as_secs_f64()
    );
    if done.is_empty() {
        ExitCode::from(2)
    } else if failed.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

/// Each team's players' figures, a table per team.
fn print_actions(r: &Report) {
    const COLS: [(&str, &str); 14] = [
        ("kicks", "kick"),
        ("passes", "pass"),
        ("passes_completed", "cmpl"),
        ("through_passes", "thru"),
        ("shots", "shot"),
        ("shots_on_target", "on t"),
        ("goals", "goal"),
        ("assists", "asst"),
        ("dribbles", "drib"),
        ("tackles_won", "tk+"),
        ("tackles_failed", "tk-"),
        ("recoveries", "recv"),
        ("penalty_area_entries", "pa"),
        ("catches", "ctch"),
    ];
    for (side, team) in r.players.iter().enumerate() {
        let name =
            r.teams[side]
                .name
                .as_deref()
                .unwrap_or(if side == 0 { "left" } else { "right" });
        println!("\nactions of {name}:");
        print!("  {:>4}", "#");
        for (_, h) in COLS {
            print!(" {h:>5}");
        }
        println!();
        let mut total = [0u32; 14];
        for (i, f) in team.iter().enumerate() {
            let named = f.named();
            let values: Vec<u32> = COLS
                .iter()
                .map(|(k, _)| named.iter().find(|(n, _)| n == k).map_or(0, |(_, v)| *v))
                .collect();
            if values.iter().all(|v| *v == 0) {
                continue;
            }
            print!("  {:>4}", i + 1);
            for (t, v) in total.iter_mut().zip(&values) {
                *t += v;
                print!(" {v:>5}");
            }
            println!();
        }
        print!("  {:>4}", "all");
        for t in total {
            print!(" {t:>5}");
        }
        println!();
    }
}

fn empty_report() -> Report {
    relay::inspect::inspect_bytes(&[])
}

/// Nothing could be read: with `--json` still the whole object, with the reason in `error`.
fn report_failure(path: &str, report: &Report, msg: &str, e: Option<&LogError>, as_json: bool) {
    if as_json {
        let mut summary = report.to_json();
        summary["error"] = e.map_or_else(|| json!({"message": msg}), error_json);
        println!("{summary}");
    } else {
        eprintln!("{path}: {msg}");
    }
}

fn print_human(path: &str, r: &Report, list_events: bool) {
    let s = r.to_json();
    let name = |v: &Value| v.as_str().unwrap_or("(none)").to_owned();
    println!("file:        {path}");
    let version = match &s["version"] {
        Value::String(v) => v.to_uppercase(),
        v => v.to_string(),
    };
    println!(
        "version:     {version}{}",
        if r.compressed { " (gzip)" } else { "" }
    );
    println!("shows:       {} ({} distinct cycles)", r.shows, r.cycles);
    println!(
        "teams:       {} vs {}",
        name(&s["teams"][0]),
        name(&s["teams"][1])
    );
    print!("final score: {} - {}", r.teams[0].score, r.teams[1].score);
    if let Some(p) = s["penalties"].as_array() {
        print!(" (penalties {}-{}, missed {}-{})", p[0], p[2], p[1], p[3]);
    }
    println!();
    let goals: Vec<String> = s["goals"]
        .as_array()
        .map(|g| {
            g.iter()
                .map(|g| format!("{} ({})", g["cycle"], g["side"].as_str().unwrap_or("?")))
                .collect()
        })
        .unwrap_or_default();
    println!(
        "goals:       {}",
        if goals.is_empty() {
            "none".into()
        } else {
            goals.join(", ")
        }
    );
    println!("messages:    {}", r.messages);
    if list_events {
        println!("events:      {}", r.events.len());
        let team = |side: Option<Side>| match side {
            Some(side) => name(&s["teams"][side.index()]),
            None => String::new(),
        };
        for e in &r.events {
            let player = e.player.map_or(String::new(), |u| format!(" {u}"));
            println!(
                "  {:>6}  {:<26} {}{}",
                e.cycle,
                e.kind.label(),
                team(e.side),
                player
            );
        }
    } else {
        println!("events:      {} (--events lists them)", r.events.len());
    }
    match r.ending() {
        Ending::Whole => println!("ending:      whole, parsed completely"),
        e => println!("ending:      {e}"),
    }
}
