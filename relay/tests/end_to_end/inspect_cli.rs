//! `pitchside-inspect` as a user runs it: exit codes 0 (whole), 1 (damaged, read up to the
//! damage), 2 (nothing read), 3 (incomplete: it stops before time over, any version), the
//! `--json` object with every documented key, and the event list, on real logs and broken
//! copies.

use crate::common::*;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

const KEYS: [&str; 16] = [
    "compressed",
    "cycles",
    "ending",
    "ends_before_full_time",
    "error",
    "events",
    "goals",
    "incomplete",
    "messages",
    "penalties",
    "players",
    "score",
    "shows",
    "stats",
    "teams",
    "version",
];
fn scratch(name: &str, bytes: &[u8]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("pitchside-inspect-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, bytes).unwrap();
    p
}

/// Runs the tool; returns the exit code and stdout (parsed when `--json`).
fn inspect(path: &Path, json: bool) -> (i32, String) {
    inspect_with(path, if json { &["--json"] } else { &[] })
}

/// Runs the tool with `args` after the file; returns the exit code and stdout + stderr.
fn inspect_with(path: &Path, args: &[&str]) -> (i32, String) {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_pitchside-inspect"));
    cmd.arg(path);
    cmd.args(args);
    let out = cmd.output().unwrap();
    (
        out.status.code().unwrap(),
        String::from_utf8(out.stdout).unwrap() + &String::from_utf8(out.stderr).unwrap(),
    )
}

fn inspect_json(path: &Path) -> (i32, Value) {
    let (code, out) = inspect(path, true);
    let v: Value = serde_json::from_str(out.trim()).unwrap_or_else(|e| panic!("{e}: {out}"));
    for key in KEYS {
        assert!(v.get(key).is_some(), "key {key} missing: {v}");
    }
    (code, v)
}

const SHORT_JSON: &str = "logs/short-json/20261122132746-SHORT_L_a_0-vs-SHORT_R_a_1.rcg.gz";
const FULL: &str = "logs/full-v6-realtime/20261122131124-HELIOS_L_2-vs-HELIOS_R_3.rcg.gz";
const SHORT_V2: &str = "logs/short-v2/20261122132541-SHORT_L_a_0-vs-SHORT_R_a_0.rcg.gz";
const SHORT_V6: &str = "logs/short-v6/20261122132720-SHORT_L_a_0-vs-SHORT_R_a_1.rcg.gz";

#[test]
fn a_whole_log_exits_0_with_its_summary() {
    let (code, v) = inspect_json(&fixture(SHORT_V6));
    assert_eq!(code, 0);
    assert_eq!(v["version"], 6);
    assert_eq!(v["compressed"], true);
    assert_eq!(v["teams"], serde_json::json!(["SHORT_L_a", "SHORT_R_a"]));
    assert_eq!(v["error"], Value::Null);
    let (code, text) = inspect(&fixture(SHORT_V6), false);
    assert_eq!(code, 0);
    assert!(text.contains("final score: 0 - 1"), "{text}");
    assert!(
        text.contains("ending:      whole, parsed completely"),
        "{text}"
    );

    // The same binary log uncompressed: detected from its content, not its name.
    let plain = scratch("no-extension", &gunzip(&fixture(SHORT_V2)));
    let (code, v) = inspect_json(&plain);
    assert_eq!((code, v["version"].clone()), (0, serde_json::json!(2)));
    assert_eq!(v["compressed"], false);
}

#[test]
fn a_log_cut_anywhere_exits_3_and_says_the_cycle_it_stops_at() {
    // Cut in the middle of a line: the partial line is dropped, the match stops at the last
    // show before it.
    let text = gunzip(&fixture(SHORT_V6));
    let half = &text[..text.len() / 2];
    let last_show = half
        .split(|b| *b == b'\n')
        .rev()
        .skip(1)
        .find_map(|l| l.strip_prefix(b"(show "))
        .map(|l| {
            let n = l.iter().position(|b| *b == b' ').unwrap();
            std::str::from_utf8(&l[..n])
                .unwrap()
                .parse::<u64>()
                .unwrap()
        })
        .unwrap();
    let cut = scratch("cut.rcg", half);
    assert_eq!(says_incomplete(&cut), last_show);
    let (_, v) = inspect_json(&cut);
    assert!(v["shows"].as_u64().unwrap() > 200);

    let binary = gunzip(&fixture(SHORT_V2));
    let cut = scratch("cut-v2.rcg", &binary[..binary.len() / 2]);
    says_incomplete(&cut);
}

#[test]
fn nothing_readable_exits_2_with_a_reason() {
    let readme = fixture("README.md");
    let (code, v) = inspect_json(&readme);
    assert_eq!(code, 2);
    assert_eq!(v["version"], Value::Null);
    assert!(v["error"]["message"]
        .as_str()
        .unwrap()
        .contains("not an rcssserver game log"));

    let (code, v) = inspect_json(&scratch("empty.rcg", b""));
    assert_eq!(code, 2);
    assert_eq!(v["error"]["message"], "the file is empty");

    let (code, text) = inspect(Path::new("/nonexistent/game.rcg"), false);
    assert_eq!(code, 2);
    assert!(text.contains("cannot read the file"), "{text}");
}

/// The offset just after the newline that follows `at`.
fn line_after(bytes: &[u8], at: usize) -> usize {
    at + bytes[at..].iter().position(|&b| b == b'\n').unwrap() + 1
}

/// Checks what the tool says of a log cut short at `cycle`: exit 3, `incomplete`, no error.
fn says_incomplete(path: &Path) -> u64 {
    let (code, v) = inspect_json(path);
    assert_eq!(code, 3, "{v}");
    assert_eq!(v["ending"], "incomplete", "{v}");
    assert_eq!(v["error"], Value::Null, "{v}");
    let cycle = v["incomplete"].as_u64().unwrap();
    assert_eq!(v["ends_before_full_time"].as_u64(), Some(cycle), "{v}");
    let (code, text) = inspect(path, false);
    assert_eq!(code, 3);
    assert!(
        text.contains(&format!(
            "ending:      incomplete: the log stops at cycle {cycle}\n"
        )),
        "{text}"
    );
    cycle
}

#[test]
fn a_log_cut_short_is_incomplete_the_same_way_whatever_its_version() {
    // JSON: the server killed mid-game, the array never closed.
    let json = gunzip(&fixture(SHORT_JSON));
    let end = line_after(&json, json.len() * 2 / 3);
    let path = scratch("killed.json.rcg", &json[..end]);
    let cycle = says_incomplete(&path);
    let (_, v) = inspect_json(&path);
    assert!(
        v["shows"].as_u64().unwrap() > 300,
        "every complete frame is read"
    );
    // Cut inside a record: the same, the partial record dropped.
    let path = scratch("killed-mid-record.json.rcg", &json[..end + 100]);
    assert_eq!(says_incomplete(&path), cycle);

    // ULG6, cut between lines and inside one, plain and gzipped.
    let text = gunzip(&fixture(SHORT_V6));
    let end = line_after(&text, text.len() / 2);
    let cycle = says_incomplete(&scratch("stopped.rcg", &text[..end]));
    assert!(cycle > 100 && cycle < 600, "{cycle}");
    assert_eq!(
        says_incomplete(&scratch("stopped-mid-line.rcg", &text[..end + 40])),
        cycle
    );
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    std::io::Write::write_all(&mut gz, &text).unwrap();
    let gz = gz.finish().unwrap();
    says_incomplete(&scratch("stopped.rcg.gz", &gz[..gz.len() / 2]));

    // v2: a 4-byte header, then records: int16 mode, then a 316-byte show (mode 1) or a msg
    // (mode 2: int16 board, int16 length, the text). Cut after the 300th show.
    let binary = gunzip(&fixture(SHORT_V2));
    let (mut at, mut shows) = (4, 0);
    while shows < 300 {
        let mode = i16::from_be_bytes([binary[at], binary[at + 1]]);
        at += match mode {
            1 => {
                shows += 1;
                2 + 316
            }
            2 => 6 + i16::from_be_bytes([binary[at + 4], binary[at + 5]]) as usize,
            m => panic!("short-v2: mode {m} at {at}"),
        };
    }
    let path = scratch("v2-stopped.rcg", &binary[..at]);
    says_incomplete(&path);
    let (_, v) = inspect_json(&path);
    assert_eq!(v["shows"].as_u64(), Some(300), "{v}");
    // Whole logs reach full time.
    for rel in [SHORT_V6, SHORT_JSON, SHORT_V2] {
        let (code, v) = inspect_json(&fixture(rel));
        assert_eq!(code, 0, "{v}");
        assert_eq!(v["ending"], "whole");
        assert_eq!(v["incomplete"], Value::Null);
        assert_eq!(v["ends_before_full_time"], Value::Null);
    }
}

#[test]
fn damage_before_the_end_is_damage_and_exits_1() {
    let mut text = gunzip(&fixture(SHORT_V6));
    let mid = line_after(&text, text.len() / 2);
    text[mid..mid + 8].copy_from_slice(b"(garbage");
    let path = scratch("damaged.rcg", &text);
    let (code, v) = inspect_json(&path);
    assert_eq!(code, 1, "{v}");
    assert_eq!(v["ending"], "damaged");
    assert!(v["error"]["line"].as_u64().is_some(), "{v}");
    assert_eq!(v["incomplete"], Value::Null);
    let (_, text) = inspect(&path, false);
    assert!(text.contains("ending:      damaged: line "), "{text}");
}

#[test]
fn events_are_listed_and_in_the_json() {
    let (code, out) = inspect_with(&fixture(FULL), &["--events"]);
    assert_eq!(code, 0);
    for line in [
        "events:      48",
        "     187  foul                       HELIOS_L 11",
        "     187  yellow card                HELIOS_L 11",
        "     272  goal                       HELIOS_R 11",
        "    3000  half time",
        "    6000  full time",
    ] {
        assert!(out.contains(line), "missing {line:?} in\n{out}");
    }
    let (_, plain) = inspect(&fixture(FULL), false);
    assert!(
        plain.contains("events:      48 (--events lists them)"),
        "{plain}"
    );
    let (_, v) = inspect_json(&fixture(FULL));
    let events = v["events"].as_array().unwrap();
    assert_eq!(events.len(), 48);
    assert_eq!(
        events[4],
        serde_json::json!({"cycle": 272, "frame": 301, "kind": "goal", "label": "goal", "side": "r", "player": 11})
    );
}

/// `export` as a user runs it: the report on the output, a line per log and the summary,
/// each line whole with its newline, and on the error stream only the logs that failed; with
/// both streams into one file (a terminal, `2>&1 | tee`), each failure on a line of its own
/// before the summary. The tracking table comes with its player types.
#[test]
fn export_reports_a_line_a_log_and_the_summary_on_lines_of_their_own() {
    let dir = std::env::temp_dir().join(format!("pitchside-export-cli-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let logs = dir.join("logs");
    std::fs::create_dir_all(&logs).unwrap();
    std::fs::copy(fixture(SHORT_V6), logs.join("g.rcg.gz")).unwrap();
    std::fs::copy(fixture(SHORT_V2), logs.join("h.rcg.gz")).unwrap();
    let out = dir.join("out");
    let export = |args: &[&std::ffi::OsStr]| {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_pitchside-inspect"));
        cmd.arg("export").arg("--out").arg(&out).args(args);
        cmd
    };
    let (g, h) = (
        logs.join("g.rcg.gz").display().to_string(),
        logs.join("h.rcg.gz").display().to_string(),
    );
    for (jobs, tracking_alone) in [("1", false), ("2", false), ("1", true)] {
        let mut cmd = export(&["--jobs".as_ref(), jobs.as_ref(), logs.as_os_str()]);
        if tracking_alone {
            cmd.arg("--tracking");
        }
        let run = cmd.output().unwrap();
        let (stdout, stderr) = (
            String::from_utf8(run.stdout).unwrap(),
            String::from_utf8(run.stderr).unwrap(),
        );
        assert_eq!(run.status.code(), Some(0), "{stdout}{stderr}");
        assert_eq!(stderr, "", "nothing failed");
        let lines: Vec<&str> = stdout.lines().collect();
        assert_eq!(lines.len(), 3, "{stdout:?}");
        let g_line = format!("{g}: 679 shows, 18 player types");
        if tracking_alone {
            assert_eq!(lines[0], g_line, "{stdout}");
        } else {
            assert!(lines[0].starts_with(&format!("{g_line}, ")), "{stdout}");
            assert!(lines[0].ends_with(" actions"), "{stdout}");
        }
        // A log of version 2 holds no types.
        assert!(
            lines[1].starts_with(&format!("{h}: ")) && lines[1].contains(" shows, 0 player types"),
            "{stdout}"
        );
        assert!(
            lines[2].starts_with("2 logs exported (0 failed), ") && lines[2].ends_with(" s"),
            "{stdout}"
        );
        assert!(stdout.ends_with(" s\n"), "{stdout:?}");
        for table in ["tracking", "player_types"] {
            assert!(out.join(format!("g.{table}.csv")).is_file(), "{table}");
        }
    }
    // A log that fails: alone on the error stream; both streams into one file, on a line of
    // its own before the summary.
    std::fs::write(logs.join("bad.rcg"), "not a game log at all\n").unwrap();
    let run = export(&[logs.as_os_str()]).output().unwrap();
    assert_eq!(run.status.code(), Some(1));
    let stderr = String::from_utf8(run.stderr).unwrap();
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.contains("bad.rcg") && stderr.ends_with('\n'),
        "{stderr}"
    );
    let merged = dir.join("output.txt");
    let file = std::fs::File::create(&merged).unwrap();
    let status = export(&[logs.as_os_str()])
        .stdout(file.try_clone().unwrap())
        .stderr(file)
        .status()
        .unwrap();
    assert_eq!(status.code(), Some(1));
    let text = std::fs::read_to_string(&merged).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 4, "{text}");
    assert!(lines[0].starts_with(&format!("{g}: ")), "{text}");
    assert!(lines[2].contains("bad.rcg"), "{text}");
    assert!(
        lines[3].starts_with("2 logs exported (1 failed), "),
        "{text}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
