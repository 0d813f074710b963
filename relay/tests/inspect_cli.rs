//! `pitchside-inspect` as a user runs it: exit codes 0 (whole), 1 (up to an error), 2 (nothing
//! read), and the `--json` object with every documented key, on real logs and broken copies.
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test

use serde_json::Value;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::Command;

const KEYS: [&str; 10] = [
    "compressed",
    "cycles",
    "error",
    "goals",
    "messages",
    "penalties",
    "score",
    "shows",
    "teams",
    "version",
];

fn fixture(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/fixtures")
        .join(rel)
}

fn gunzip(path: &Path) -> Vec<u8> {
    let raw = std::fs::read(path).unwrap();
    let mut out = Vec::new();
    flate2::read::GzDecoder::new(&raw[..])
        .read_to_end(&mut out)
        .unwrap();
    out
}

fn scratch(name: &str, bytes: &[u8]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("pitchside-inspect-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, bytes).unwrap();
    p
}

/// Runs the tool; returns the exit code and stdout (parsed when `--json`).
fn inspect(path: &Path, json: bool) -> (i32, String) {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_pitchside-inspect"));
    cmd.arg(path);
    if json {
        cmd.arg("--json");
    }
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
    assert!(text.contains("none, parsed completely"), "{text}");

    // The same binary log uncompressed: detected from its content, not its name.
    let plain = scratch("no-extension", &gunzip(&fixture(SHORT_V2)));
    let (code, v) = inspect_json(&plain);
    assert_eq!((code, v["version"].clone()), (0, serde_json::json!(2)));
    assert_eq!(v["compressed"], false);
}

#[test]
fn a_cut_log_exits_1_and_says_where() {
    let text = gunzip(&fixture(SHORT_V6));
    let cut = scratch("cut.rcg", &text[..text.len() / 2]);
    let (code, v) = inspect_json(&cut);
    assert_eq!(code, 1);
    let line = v["error"]["line"].as_u64().unwrap();
    // The cut is inside the line after the last complete one.
    let complete = text[..text.len() / 2]
        .iter()
        .filter(|b| **b == b'\n')
        .count() as u64;
    assert_eq!(line, complete + 1);
    assert!(v["shows"].as_u64().unwrap() > 200);

    let binary = gunzip(&fixture(SHORT_V2));
    let cut = scratch("cut-v2.rcg", &binary[..binary.len() / 2]);
    let (code, v) = inspect_json(&cut);
    assert_eq!(code, 1);
    let offset = v["error"]["offset"].as_u64().unwrap();
    assert!(offset < binary.len() as u64 / 2, "{v}");
    assert!(v["error"]["message"]
        .as_str()
        .unwrap()
        .contains("ends inside"));
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
