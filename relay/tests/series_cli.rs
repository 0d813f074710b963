//! `pitchside-inspect series` on real games (`tests/fixtures/series/`): two folders compared
//! as JSON, text and CSV.

use serde_json::Value;
use std::path::PathBuf;

fn series_dir(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/fixtures/series")
        .join(name)
}

#[test]
fn the_command_line_compares_two_series() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_pitchside-inspect"))
        .args(["series", "--team", "ALPHA", "--json"])
        .arg(series_dir("A"))
        .arg(series_dir("B"))
        .output()
        .expect("run pitchside-inspect");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(v["format"], "pitchside.series.v1");
    assert_eq!(v["a"]["games"], 24);
    assert_eq!(v["b"]["games"], 24);
    let a_wins = v["a"]["wins"].as_f64().unwrap();
    let b_wins = v["b"]["wins"].as_f64().unwrap();
    let d = &v["comparison"]["win_rate"];
    assert!((d["estimate"].as_f64().unwrap() - (a_wins - b_wins) / 24.0).abs() < 1e-9);
    let (lo, hi) = (d["ci"][0].as_f64().unwrap(), d["ci"][1].as_f64().unwrap());
    assert!(lo < d["estimate"].as_f64().unwrap() && d["estimate"].as_f64().unwrap() < hi);
    // With mostly goalless games the two setups cannot be told apart yet.
    let verdict = v["comparison"]["verdict"].as_str().unwrap();
    assert!(
        verdict.starts_with("Not enough games to tell") || verdict.starts_with("No difference"),
        "{verdict}"
    );
    // The text gives the same in words, and both series.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_pitchside-inspect"))
        .args(["series", "--team", "ALPHA"])
        .arg(series_dir("A"))
        .arg(series_dir("B"))
        .output()
        .expect("run pitchside-inspect");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("Newcombe") && text.contains("Welch"),
        "{text}"
    );
    assert!(text.contains(verdict), "{text}");
    assert!(text.contains("== A ==") && text.contains("== B =="));
    // A CSV row a game, both series.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_pitchside-inspect"))
        .args(["series", "--csv"])
        .arg(series_dir("T"))
        .output()
        .expect("run pitchside-inspect");
    let csv = String::from_utf8_lossy(&out.stdout);
    assert_eq!(csv.lines().count(), 11, "{csv}");
    // The first game went to a shoot-out, won 3-1 by the left team (ALPHA).
    let row: Vec<&str> = csv.lines().nth(1).unwrap().split(',').collect();
    assert_eq!(
        &row[1..9],
        ["ALPHA", "l", "BRAVO", "0", "0", "draw", "3", "1"]
    );
}

#[test]
fn standings_of_a_round_robin_rank_as_rclmtableprinter() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_pitchside-inspect"))
        .args(["standings", "--json"])
        .arg(series_dir("T"))
        .output()
        .expect("run pitchside-inspect");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    // rclmtableprinter on rcgresultprinter's lines of the same games (the whole logs, in
    // tests/golden/tournament/T.rclm): ALPHA first on its shoot-out win over DELTA.
    let teams: Vec<&str> = v["standings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["team"].as_str().unwrap())
        .collect();
    assert_eq!(teams, ["ALPHA", "DELTA", "BRAVO", "CHARLIE"]);
    assert_eq!(v["standings"][0]["points"], 6);
    assert_eq!(v["repeated"].as_array().unwrap().len(), 4);
}
