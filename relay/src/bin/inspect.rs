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
use std::process::ExitCode;

const USAGE: &str = "USAGE: pitchside-inspect FILE [--json] [--events]

  --json    print the summary as one JSON object (events included)
  --events  list the match events (goals, fouls, cards, set pieces, …)";

fn main() -> ExitCode {
    let mut path = None;
    let mut as_json = false;
    let mut list_events = false;
    for arg in std::env::args().skip(1) {
        match arg.as_str() {
            "--json" => as_json = true,
            "--events" => list_events = true,
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
    }
    match report.ending() {
        Ending::Whole => ExitCode::SUCCESS,
        Ending::Damaged(_) => ExitCode::from(1),
        Ending::Incomplete { .. } => ExitCode::from(3),
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
