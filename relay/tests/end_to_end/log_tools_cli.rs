//! `pitchside-inspect validate | reverse | rename | convert | clip` as a user runs them: the
//! files they write (gzipped when asked), their exit codes and their words, on real logs and
//! broken copies. What the files hold is tested in `shared/formats/tests/log_tools.rs` and against
//! librcsc in `tests/tests/log_tools.rs`.

use crate::common::*;
use rcss_formats::{parse_log, LogVersion};
use std::path::{Path, PathBuf};
use std::process::Command;

const SHORT_V6: &str = "logs/short-v6/20261122132720-SHORT_L_a_0-vs-SHORT_R_a_1.rcg.gz";
const SHORT_V2: &str = "logs/short-v2/20261122132541-SHORT_L_a_0-vs-SHORT_R_a_0.rcg.gz";
const OPERATOR: &str = "logs/operator-commands-v6/20261122132312-OPS_L_0-vs-OPS_R_1.rcg.gz";
fn dir() -> PathBuf {
    let d = std::env::temp_dir().join(format!("pitchside-logtools-cli-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Runs `pitchside-inspect ARGS`; returns the exit code and stdout + stderr.
fn tool(args: &[&str]) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_pitchside-inspect"))
        .args(args)
        .output()
        .unwrap();
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.code().unwrap(), text)
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// `pitchside-inspect clip SRC -o OUT --from FROM --to TO MORE…`.
fn clip(src: &Path, out: &Path, from: &str, to: &str, more: &[&str]) -> (i32, String) {
    let mut args = vec!["clip", s(src), "-o", s(out), "--from", from, "--to", to];
    args.extend_from_slice(more);
    tool(&args)
}

#[test]
fn validate_exit_codes_and_places() {
    let (code, out) = tool(&["validate", s(&fixture(SHORT_V6))]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("version 6, 679 shows: clean"), "{out}");

    let (code, out) = tool(&["validate", s(&fixture(OPERATOR))]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains(
            "missing_players [rcgvalidator]: line 341, cycle 271: missing player count = 568"
        ),
        "{out}"
    );

    // Cut after cycle 300, inside the next line.
    let text = gunzip_bytes(&std::fs::read(fixture(SHORT_V6)).unwrap());
    let at = String::from_utf8_lossy(&text).find("(show 350 ").unwrap() + 100;
    let cut = dir().join("cut.rcg");
    std::fs::write(&cut, &text[..at]).unwrap();
    let (code, out) = tool(&["validate", s(&cut), "--json"]);
    assert_eq!(code, 1, "{out}");
    let v: serde_json::Value = serde_json::from_str(out.lines().next().unwrap()).unwrap();
    let kinds = texts(&v["findings"], "kind");
    assert_eq!(kinds, ["incomplete", "short_game"], "{out}");
    assert_eq!(v["findings"][0]["cycle"], 349);
    assert!(v["findings"][0]["line"].as_u64().is_some());
    assert_eq!(v["findings"][1]["rcgvalidator"], true);

    let (code, out) = tool(&["validate", s(&fixture("../../README.md"))]);
    assert_eq!(code, 2, "{out}");
}

#[test]
fn convert_reverse_rename_and_clip_write_their_files() {
    let d = dir();
    let src = fixture(SHORT_V6);

    let out_json = d.join("short.json.rcg.gz");
    let (code, out) = tool(&["convert", s(&src), "-o", s(&out_json), "-v", "json"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("version JSON, 679 shows"), "{out}");
    let raw = std::fs::read(&out_json).unwrap();
    assert_eq!(&raw[..2], &[0x1f, 0x8b], "gzipped as its name says");
    assert_eq!(parse_log(&raw).version, Some(LogVersion::Json));

    // And back to ULG6: the server's file.
    let back = d.join("short.v6.rcg");
    let (code, _) = tool(&["convert", s(&out_json), "-o", s(&back), "-v", "6"]);
    assert_eq!(code, 0);
    assert!(std::fs::read(&back).unwrap() == gunzip_bytes(&std::fs::read(&src).unwrap()));

    let rev = d.join("reversed.rcg");
    let (code, out) = tool(&["reverse", s(&src), "-o", s(&rev)]);
    assert_eq!(code, 0, "{out}");
    let m = parse_log(&std::fs::read(&rev).unwrap());
    assert_eq!(m.final_teams()[0].name.as_deref(), Some("SHORT_R_a"));
    assert_eq!(m.final_teams()[0].score, 1);

    let ren = d.join("renamed.rcg");
    let (code, _) = tool(&["rename", s(&src), "-o", s(&ren), "--right", "OTHERS"]);
    assert_eq!(code, 0);
    let m = parse_log(&std::fs::read(&ren).unwrap());
    assert_eq!(m.final_teams()[1].name.as_deref(), Some("OTHERS"));

    let clipped = d.join("clip.rcg");
    let (code, out) = clip(&src, &clipped, "100", "199", &[]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("100 shows"), "{out}");

    // A v2 clip converted to v3 on the way.
    let clip3 = d.join("clip.v3.rcg");
    let (code, out) = clip(&fixture(SHORT_V2), &clip3, "10", "20", &["-v", "3"]);
    assert_eq!(code, 0, "{out}");
    let m = parse_log(&std::fs::read(&clip3).unwrap());
    assert_eq!(m.version, Some(LogVersion::V3));
    assert_eq!(m.frames.first().map(|f| f.time), Some(10));
}

#[test]
fn mistakes_are_refused_with_a_reason() {
    let d = dir();
    let src = fixture(SHORT_V6);
    for (args, words) in [
        (vec!["convert", s(&src), "-o", "x.rcg"], "no version"),
        (vec!["convert", s(&src), "-v", "8", "-o", "x.rcg"], "-v 8"),
        (vec!["rename", s(&src), "-o", "x.rcg"], "no new name"),
        (
            vec!["rename", s(&src), "-o", "x.rcg", "--left", "a b"],
            "no blanks",
        ),
        (
            vec!["clip", s(&src), "-o", "x.rcg", "--from", "9"],
            "--from A and --to B",
        ),
        (
            vec!["clip", s(&src), "-o", "x.rcg", "--from", "9", "--to", "3"],
            "after --to",
        ),
        (vec!["reverse", s(&src)], "no output file"),
        (
            vec!["reverse", s(&src), "-o", s(&src)],
            "the output is the input",
        ),
    ] {
        let (code, out) = tool(&args);
        assert_eq!(code, 2, "{args:?}: {out}");
        assert!(out.contains(words), "{args:?}: {out}");
    }
    // A clip with no show writes nothing, says so, and leaves a file already there as it was.
    // In a folder of its own: the other tests write beside `d`'s files at the same time.
    let own = d.join("mistakes");
    std::fs::create_dir_all(&own).unwrap();
    let kept = own.join("kept.rcg");
    std::fs::write(&kept, "an earlier clip\n").unwrap();
    let (code, out) = clip(&src, &kept, "9000", "9100", &[]);
    assert_eq!(code, 2, "{out}");
    assert!(out.contains("no show in cycles 9000 to 9100"), "{out}");
    assert!(out.contains("not written"), "{out}");
    assert_eq!(std::fs::read_to_string(&kept).unwrap(), "an earlier clip\n");
    // So does a source that is no log.
    let text_file = own.join("notes.txt");
    std::fs::write(&text_file, "not a game log\n").unwrap();
    let (code, out) = tool(&["convert", s(&text_file), "-o", s(&kept), "-v", "6"]);
    assert_eq!(code, 2, "{out}");
    assert_eq!(std::fs::read_to_string(&kept).unwrap(), "an earlier clip\n");
    // An output that cannot be written is named, not the source.
    let under_a_file = kept.join("x.rcg");
    let (code, out) = tool(&["reverse", s(&src), "-o", s(&under_a_file)]);
    assert_eq!(code, 2, "{out}");
    assert!(out.starts_with(s(&under_a_file)), "{out}");
    let leftovers: Vec<String> = std::fs::read_dir(&own)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".partial"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");

    // A damaged source is written up to the damage, exit 1.
    let mut text = gunzip_bytes(&std::fs::read(&src).unwrap());
    let at = String::from_utf8_lossy(&text).find("(show 200 ").unwrap();
    text[at + 10] = b'#';
    let bad = d.join("bad.rcg");
    std::fs::write(&bad, &text).unwrap();
    let (code, out) = tool(&[
        "convert",
        s(&bad),
        "-o",
        s(&d.join("bad.json")),
        "-v",
        "json",
    ]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("written up to the damage"), "{out}");
}
