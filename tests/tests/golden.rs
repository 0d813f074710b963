//! Golden summaries: `pitchside-inspect --json` of every real logfile fixture must equal the
//! checked-in `tests/golden/<fixture>.json`, and the same summary computed from the match
//! decoded whole and in full detail (as the page holds it) must equal it too. `PITCHSIDE_BLESS=1 cargo test -p pitchside-tests
//! --test golden` rewrites them (then read the diff before committing it).

use pitchside_tests::fixtures;
use rcss_formats::parse_log;
use relay::inspect::{inspect_bytes, summarize};
use std::path::{Path, PathBuf};

fn log_fixtures() -> Vec<PathBuf> {
    let mut out = Vec::new();
    let logs = fixtures::dir().join("logs");
    for dir in std::fs::read_dir(&logs).expect("tests/fixtures/logs") {
        let dir = dir.unwrap().path();
        for f in std::fs::read_dir(&dir).unwrap() {
            let f = f.unwrap().path();
            let name = f.to_string_lossy();
            if name.ends_with(".rcg") || name.ends_with(".rcg.gz") {
                out.push(f);
            }
        }
    }
    out.sort();
    out
}

fn golden_path(fixture: &Path) -> PathBuf {
    let dir = fixture
        .parent()
        .and_then(|p| p.file_name())
        .unwrap()
        .to_string_lossy()
        .into_owned();
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("golden")
        .join(format!("{dir}.json"))
}

#[test]
fn every_log_fixture_matches_its_golden_summary() {
    let bless = std::env::var_os("PITCHSIDE_BLESS").is_some();
    let fixtures = log_fixtures();
    assert!(fixtures.len() >= 6, "fixtures found: {fixtures:?}");
    let mut failures = Vec::new();
    for f in &fixtures {
        let bytes = std::fs::read(f).unwrap();
        let summary = inspect_bytes(&bytes).to_json();
        let whole = summarize(&parse_log(&bytes));
        if whole != summary {
            failures.push(format!(
                "{}: streaming summary differs from the whole match's\n--- streaming\n{summary:#}\n--- whole\n{whole:#}",
                f.display()
            ));
            continue;
        }
        let text = serde_json::to_string_pretty(&summary).unwrap() + "\n";
        let golden = golden_path(f);
        if bless {
            std::fs::create_dir_all(golden.parent().unwrap()).unwrap();
            std::fs::write(&golden, &text).unwrap();
            continue;
        }
        match std::fs::read_to_string(&golden) {
            Ok(expected) if expected == text => {}
            Ok(expected) => failures.push(format!(
                "{}: summary differs from {}\n--- expected\n{expected}\n--- got\n{text}",
                f.display(),
                golden.display()
            )),
            Err(e) => failures.push(format!(
                "{}: no golden file {} ({e})",
                f.display(),
                golden.display()
            )),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The goldens agree with what the fixture set documents about each game, so a blessed golden
/// cannot silently hold a wrong summary.
#[test]
fn goldens_agree_with_the_documented_facts() {
    let read = |name: &str| -> serde_json::Value {
        let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("golden")
            .join(format!("{name}.json"));
        serde_json::from_str(
            &std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display())),
        )
        .unwrap()
    };
    let v6 = read("short-v6");
    assert_eq!(v6["version"], 6);
    assert_eq!(v6["shows"], 679);
    assert_eq!(v6["cycles"], 599, "1..600 without the half-time cycle 300");
    assert_eq!(v6["teams"], serde_json::json!(["SHORT_L_a", "SHORT_R_a"]));
    assert_eq!(v6["score"], serde_json::json!([0, 1]));
    assert_eq!(v6["messages"], 93);
    assert_eq!(v6["error"], serde_json::Value::Null);
    let v4 = read("short-v4");
    assert_eq!(
        (v4["version"].clone(), v4["shows"].clone()),
        (serde_json::json!(4), serde_json::json!(649))
    );
    let v5 = read("short-v5");
    assert_eq!(
        (v5["version"].clone(), v5["shows"].clone()),
        (serde_json::json!(5), serde_json::json!(769))
    );
    assert_eq!(v5["score"], serde_json::json!([1, 0]));
    let pen = read("penalty-shootout-v6");
    assert_eq!(pen["penalties"], serde_json::json!([4, 1, 2, 2]));
    assert_eq!(
        pen["goals"],
        serde_json::json!([]),
        "shoot-out kicks are not goals"
    );
    let rec = read("record-messages-v6");
    assert_eq!(rec["messages"], 17318);
    assert_eq!(rec["shows"], 429);
    let ops = read("operator-commands-v6");
    assert_eq!(ops["shows"], 879);
    assert_eq!(ops["score"], serde_json::json!([0, 1]));
    // The 2.5D fork's game: one player, two lofted kicks, then a double touch at cycle 33.
    let fork = read("fork-ulg7");
    assert_eq!(fork["version"], 7);
    assert_eq!(fork["shows"], 180);
    assert_eq!(fork["teams"], serde_json::json!(["FORK", null]));
    assert_eq!(fork["stats"]["kicks"], serde_json::json!([2, 0]));
    assert_eq!(fork["ending"], "whole");
}

#[test]
fn the_full_game_has_its_documented_goals() {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("golden/full-v6-realtime.json");
    let v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap();
    let cycles: Vec<u64> = v["goals"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["cycle"].as_u64().unwrap())
        .collect();
    assert_eq!(cycles, [272, 1863, 3166, 3456, 4871]);
    assert_eq!(v["score"], serde_json::json!([2, 3]));
    assert_eq!(v["shows"], 6489);
    assert_eq!(
        v["cycles"], 5999,
        "1..6000 without the half-time cycle 3000"
    );
}

/// A log converted by librcsc's `rcgverconv` is the same match as its source: every figure of
/// the summary agrees but the version (and for the binary versions, which keep fewer kinds
/// of message and coarser positions, the message count and the players' actions).
#[test]
fn converted_logs_summarise_as_the_match_they_came_from() {
    let mut checked = 0;
    for f in log_fixtures() {
        let dir = f.parent().unwrap().file_name().unwrap().to_string_lossy();
        let Some(conversion) = dir.strip_prefix("rcgverconv-") else {
            continue;
        };
        let source = format!("short-{}", conversion.split_once("-to-").unwrap().0);
        let source = log_fixtures()
            .into_iter()
            .find(|p| p.parent().unwrap().ends_with(&source))
            .unwrap();
        let mut a = inspect_bytes(&std::fs::read(&f).unwrap()).to_json();
        let mut b = inspect_bytes(&std::fs::read(&source).unwrap()).to_json();
        for v in [&mut a, &mut b] {
            v["version"] = serde_json::Value::Null;
            if conversion.ends_with("-to-v1")
                || conversion.ends_with("-to-v2")
                || conversion.ends_with("-to-v3")
            {
                v["messages"] = serde_json::Value::Null;
                // Binary logs keep positions coarser (v1 without velocities): actions
                // judged from directions and speeds may differ; the events do not.
                v["players"] = serde_json::Value::Null;
                v["stats"] = serde_json::Value::Null;
            }
        }
        assert_eq!(a, b, "{} against {}", f.display(), source.display());
        checked += 1;
    }
    assert!(checked >= 7, "{checked} converted logs");
}
