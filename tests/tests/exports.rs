//! Matches as tables (`pitchside-inspect export`): the tracking table equals what librcsc's
//! `rcg2csv` writes, byte for byte, for every fixture it reads (its outputs are kept in
//! `tests/golden/rcg2csv/`, whole or as a SHA-256 for the two full games); the actions table
//! has a row per action; a folder is exported on several threads into a seeded split; a
//! failed export leaves the table that was there, and two logs of one name are not mixed.

use pitchside_tests::fixtures;
use relay::inspect::export::{export, export_one, Options};
use std::io::Read;
use std::path::{Path, PathBuf};

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("pitchside-export-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn golden_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("golden/rcg2csv")
}

fn gunzip(p: &Path) -> Vec<u8> {
    let raw = std::fs::read(p).unwrap();
    let mut out = Vec::new();
    flate2::read::GzDecoder::new(&raw[..])
        .read_to_end(&mut out)
        .unwrap();
    out
}

fn opts(out: &Path) -> Options {
    Options {
        tracking: true,
        actions: true,
        out: out.to_path_buf(),
        split: None,
        seed: 0,
        jobs: 0,
        parquet: false,
    }
}

fn fixture_of(dir: &str) -> PathBuf {
    let d = fixtures::dir().join("logs").join(dir);
    std::fs::read_dir(&d)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.to_string_lossy().contains(".rcg"))
        .unwrap()
}

/// The tracking table with the actions (from the decoder's frames) and alone (a text log
/// straight from its lines): both must be rcg2csv's.
fn both_ways(out: &Path) -> [(&'static str, Options); 2] {
    let alone = Options {
        actions: false,
        ..opts(out)
    };
    [("with the actions", opts(out)), ("alone", alone)]
}

#[test]
fn the_tracking_table_is_what_rcg2csv_writes_for_every_fixture() {
    let out = scratch("tracking");
    let mut checked = 0;
    for entry in std::fs::read_dir(golden_dir()).unwrap() {
        let golden = entry.unwrap().path();
        let name = golden.file_name().unwrap().to_string_lossy().into_owned();
        let Some(dir) = name.strip_suffix(".tracking.csv.gz") else {
            continue;
        };
        let want = gunzip(&golden);
        for (how, o) in both_ways(&out) {
            export_one(&fixture_of(dir), &out.join(dir), &o).unwrap();
            let ours = std::fs::read(out.join(format!("{dir}.tracking.csv"))).unwrap();
            if ours != want {
                let a = String::from_utf8_lossy(&ours);
                let b = String::from_utf8_lossy(&want);
                let (i, (x, y)) = a
                    .lines()
                    .zip(b.lines())
                    .enumerate()
                    .find(|(_, (x, y))| x != y)
                    .unwrap_or((0, ("", "")));
                panic!(
                    "{dir} ({how}): line {} differs\n ours: {x}\n rcg2csv: {y}",
                    i + 1
                );
            }
        }
        checked += 1;
    }
    assert!(checked >= 11, "{checked} fixtures against rcg2csv");
    // The two full games, by digest.
    let digests = std::fs::read_to_string(golden_dir().join("digests.txt")).unwrap();
    for line in digests.lines().filter(|l| !l.starts_with('#')) {
        let parts: Vec<&str> = line.split_whitespace().collect();
        let [dir, sha, lines] = parts[..] else {
            panic!("{line}")
        };
        for (how, o) in both_ways(&out) {
            export_one(&fixture_of(dir), &out.join(dir), &o).unwrap();
            let ours = std::fs::read(out.join(format!("{dir}.tracking.csv"))).unwrap();
            let digest = ring::digest::digest(&ring::digest::SHA256, &ours);
            let hex: String = digest.as_ref().iter().map(|b| format!("{b:02x}")).collect();
            assert_eq!(
                ours.iter().filter(|b| **b == b'\n').count().to_string(),
                lines,
                "{dir}"
            );
            assert_eq!(
                hex, sha,
                "{dir} ({how}): the tracking table differs from rcg2csv's"
            );
        }
    }
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn the_actions_table_has_a_row_per_action() {
    let out = scratch("actions");
    let log = fixtures::path(fixtures::FULL_V6);
    let e = export_one(&log, &out.join("full"), &opts(&out)).unwrap();
    let text = std::fs::read_to_string(out.join("full.actions.csv")).unwrap();
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    assert_eq!(
        header[..6],
        ["cycle", "frame", "side", "team", "unum", "action"]
    );
    let rows: Vec<Vec<&str>> = lines.map(|l| l.split(',').collect()).collect();
    assert_eq!(rows.len(), e.actions);
    assert!(rows.iter().all(|r| r.len() == header.len()));
    let m = pitchside_shared::parse_log(&fixtures::read(fixtures::FULL_V6));
    let a = pitchside_shared::actions::Actions::of_match(&m);
    assert_eq!(rows.len(), a.actions().len());
    let goals = rows
        .iter()
        .filter(|r| r[5] == "shot" && r[11] == "goal")
        .count();
    assert_eq!(goals, 5, "the full game's five goals");
    // In match order.
    let frames: Vec<u64> = rows.iter().map(|r| r[1].parse().unwrap()).collect();
    assert!(frames.windows(2).all(|w| w[0] <= w[1]));
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn a_folder_exports_on_every_core_into_a_seeded_split() {
    let out = scratch("split");
    let logs = fixtures::dir().join("logs");
    let mut o = opts(&out);
    o.split = Some([0.6, 0.2, 0.2]);
    o.seed = 11;
    o.jobs = 2;
    let (done, failed) = export(std::slice::from_ref(&logs), &o);
    assert!(failed.is_empty(), "{failed:?}");
    let n = relay::inspect::export::logs_in(std::slice::from_ref(&logs)).len();
    assert_eq!(done.len(), n);
    let count = |set| done.iter().filter(|e| e.set == Some(set)).count();
    let (t, v, e) = (count("train"), count("validation"), count("test"));
    assert_eq!(t + v + e, n);
    assert_eq!(t, (0.6 * n as f64).round() as usize);
    // Each in its set's folder, under its folder below the one given.
    for e in &done {
        let rel = e.input.strip_prefix(&logs).unwrap();
        let stem = rel.to_string_lossy().replace(".rcg.gz", "");
        let base = out.join(e.set.unwrap()).join(stem);
        assert!(
            Path::new(&format!("{}.tracking.csv", base.display())).is_file(),
            "{base:?}"
        );
        assert!(
            Path::new(&format!("{}.actions.csv", base.display())).is_file(),
            "{base:?}"
        );
    }
    // The same seed again: the same sets.
    let out2 = scratch("split2");
    let mut o2 = opts(&out2);
    o2.split = o.split;
    o2.seed = 11;
    let (again, _) = export(&[logs], &o2);
    let sets = |d: &[relay::inspect::export::Exported]| -> Vec<(PathBuf, Option<&str>)> {
        d.iter().map(|e| (e.input.clone(), e.set)).collect()
    };
    assert_eq!(sets(&again), sets(&done));
    let _ = std::fs::remove_dir_all(&out);
    let _ = std::fs::remove_dir_all(&out2);
}

#[test]
fn a_failed_export_keeps_the_old_table_and_two_logs_of_one_name_are_not_mixed() {
    let out = scratch("kept");
    let logs = scratch("kept-logs");
    let real = fixture_of("short-v6");
    std::fs::copy(&real, logs.join("g.rcg.gz")).unwrap();
    let (done, failed) = export(&[logs.join("g.rcg.gz")], &opts(&out));
    assert!(failed.is_empty() && done.len() == 1, "{failed:?}");
    let table = out.join("g.tracking.csv");
    let before = std::fs::read(&table).unwrap();
    assert!(before.len() > 1000);
    // The same name, but no log: the export fails and the table stays what it was.
    std::fs::write(logs.join("g.rcg"), "not a game log at all\n").unwrap();
    for tracking_alone in [false, true] {
        let o = Options {
            actions: !tracking_alone,
            ..opts(&out)
        };
        let (done, failed) = export(&[logs.join("g.rcg")], &o);
        assert!(done.is_empty() && failed.len() == 1, "{failed:?}");
        assert_eq!(std::fs::read(&table).unwrap(), before);
    }
    let names: Vec<String> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names.len(), 2, "only the two tables: {names:?}");
    // Both in one folder: `g.rcg` and `g.rcg.gz` would write one set of tables, so the
    // first in order is exported and the other reported.
    std::fs::copy(&real, logs.join("g.rcg")).unwrap();
    let (done, failed) = export(std::slice::from_ref(&logs), &opts(&out));
    assert_eq!(done.len(), 1);
    assert_eq!(failed.len(), 1, "{failed:?}");
    let why = failed[0].to_string();
    assert!(
        why.contains("g.rcg.gz") && why.contains("same name"),
        "{why}"
    );
    let _ = std::fs::remove_dir_all(&out);
    let _ = std::fs::remove_dir_all(&logs);
}
