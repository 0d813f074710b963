//! `pitchside-inspect FILE [--json]`: what a game log holds and whether it is damaged.
//!
//! Exit code 0: parsed completely; 1: parsed up to an error; 2: nothing could be read.

use pitchside_shared::{parse_log, LogError, Match};
use relay::inspect::{error_json, summarize};
use serde_json::{json, Value};
use std::process::ExitCode;

const USAGE: &str = "USAGE: pitchside-inspect FILE [--json]";

fn main() -> ExitCode {
    let mut path = None;
    let mut as_json = false;
    for arg in std::env::args().skip(1) {
        match arg.as_str() {
            "--json" => as_json = true,
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
    let bytes = match std::fs::read(&path) {
        Ok(b) => b,
        Err(e) => {
            let msg = format!("cannot read the file: {e}");
            report_failure(&path, &Match::default(), &msg, None, as_json);
            return ExitCode::from(2);
        }
    };
    let m = parse_log(&bytes);
    let nothing = m.frames.is_empty() && m.messages.is_empty() && m.server_param.is_none();
    if nothing {
        let msg = m
            .error
            .as_ref()
            .map_or_else(|| "no records".to_owned(), ToString::to_string);
        report_failure(&path, &m, &msg, m.error.as_ref(), as_json);
        return ExitCode::from(2);
    }
    let summary = summarize(&m);
    if as_json {
        println!("{summary}");
    } else {
        print_human(&path, &summary);
    }
    if m.error.is_some() {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

/// Nothing could be read: with `--json` still the whole object (every key present, so a script
/// reading many files needs no special case), with the reason in `error`.
fn report_failure(path: &str, m: &Match, msg: &str, e: Option<&LogError>, as_json: bool) {
    if as_json {
        let mut summary = summarize(m);
        summary["error"] = e.map_or_else(|| json!({"message": msg}), error_json);
        println!("{summary}");
    } else {
        eprintln!("{path}: {msg}");
    }
}

fn print_human(path: &str, s: &Value) {
    let name = |v: &Value| v.as_str().unwrap_or("(none)").to_owned();
    println!("file:        {path}");
    println!(
        "version:     {}{}",
        s["version"],
        if s["compressed"] == json!(true) {
            " (gzip)"
        } else {
            ""
        }
    );
    println!(
        "shows:       {} ({} distinct cycles)",
        s["shows"], s["cycles"]
    );
    println!(
        "teams:       {} vs {}",
        name(&s["teams"][0]),
        name(&s["teams"][1])
    );
    print!("final score: {} - {}", s["score"][0], s["score"][1]);
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
    println!("messages:    {}", s["messages"]);
    match s["error"]["message"].as_str() {
        Some(e) => println!("error:       {e}"),
        None => println!("error:       none, parsed completely"),
    }
}
