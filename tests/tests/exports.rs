//! Matches as tables (`pitchside-inspect export`): the tracking table equals what librcsc's
//! `rcg2csv` writes, byte for byte, for every fixture it reads (its outputs are kept in
//! `tests/golden/rcg2csv/`, whole or as a SHA-256 for the two full games), and so does the
//! player types table beside it, on every log fixture (kept whole); the actions table
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

/// Fails with the first line that differs unless `ours` is byte for byte rcg2csv's `want`.
fn same_as_rcg2csv(ours: &[u8], want: &[u8], what: &str) {
    if ours == want {
        return;
    }
    let a = String::from_utf8_lossy(ours);
    let b = String::from_utf8_lossy(want);
    let (i, (x, y)) = a
        .lines()
        .zip(b.lines())
        .enumerate()
        .find(|(_, (x, y))| x != y)
        .unwrap_or((0, ("(the lengths differ)", "")));
    panic!("{what}: line {} differs\n ours: {x}\n rcg2csv: {y}", i + 1);
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
            same_as_rcg2csv(&ours, &want, &format!("{dir} ({how})"));
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

/// Every `_t` of the tracking table at `base` is an `id` of the player types table beside it.
fn every_type_is_in_the_table(base: &Path, what: &str) {
    let read =
        |ext: &str| std::fs::read_to_string(format!("{}.{ext}.csv", base.display())).unwrap();
    let ids: std::collections::HashSet<String> = read("player_types")
        .lines()
        .skip(1)
        .map(|l| l.split(',').next().unwrap().to_owned())
        .collect();
    let tracking = read("tracking");
    let mut lines = tracking.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let t: Vec<usize> = (0..header.len())
        .filter(|&i| header[i].ends_with("_t"))
        .collect();
    assert_eq!(t.len(), 22);
    let mut seen = 0;
    for line in lines {
        let cols: Vec<&str> = line.split(',').collect();
        for &i in &t {
            if !cols[i].is_empty() {
                assert!(
                    ids.contains(cols[i]),
                    "{what}: type {} not in {ids:?}",
                    cols[i]
                );
                seen += 1;
            }
        }
    }
    assert!(seen > 0, "{what}");
}

/// `rcg2csv` does not read version 3 (binary; it leaves both its files empty), so its log
/// fixtures have no output of its kept; `rcgverconv-v6-to-v3` is `short-v6` converted.
const V3: [&str; 2] = ["rcgverconv-v6-to-v3", "short-v3"];

#[test]
fn the_player_types_table_is_what_rcg2csv_writes_for_every_fixture() {
    let out = scratch("types");
    let logs = fixtures::dir().join("logs");
    let mut dirs: Vec<String> = std::fs::read_dir(&logs)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    dirs.retain(|d| !fixtures::NOT_READ_BY_LIBRCSC.contains(&d.as_str()));
    dirs.sort();
    let mut checked = Vec::new();
    for dir in dirs.iter().filter(|d| !V3.contains(&d.as_str())) {
        let want = std::fs::read(golden_dir().join(format!("{dir}.player_types.csv")))
            .unwrap_or_else(|e| panic!("{dir}: no rcg2csv output kept: {e}"));
        let rows = want
            .iter()
            .filter(|b| **b == b'\n')
            .count()
            .saturating_sub(1);
        for (how, mut o) in both_ways(&out) {
            o.parquet = true;
            let e = export_one(&fixture_of(dir), &out.join(dir), &o).unwrap();
            let ours = std::fs::read(out.join(format!("{dir}.player_types.csv"))).unwrap();
            same_as_rcg2csv(&ours, &want, &format!("{dir} ({how})"));
            assert_eq!(e.player_types, rows, "{dir} ({how})");
            assert!(
                out.join(format!("{dir}.player_types.parquet")).is_file(),
                "{dir} ({how})"
            );
            if rows > 0 {
                every_type_is_in_the_table(&out.join(dir), dir);
            }
        }
        checked.push((dir.clone(), rows));
    }
    // Every fixture but the two of version 3; those of versions 1 and 2 have no types
    // (rcg2csv's file is empty too), every other one rcssserver's 18.
    assert_eq!(checked.len(), dirs.len() - V3.len(), "{checked:?}");
    assert!(checked.len() >= 17, "{checked:?}");
    for (dir, rows) in &checked {
        let none = dir.ends_with("-v1") || dir.ends_with("-v2");
        assert_eq!(*rows, if none { 0 } else { 18 }, "{dir}");
    }
    // Version 3: 18 types, each named by the shows; the converted short-v6 has short-v6's
    // types within the binary's 1/65,536, except the three numbers rcgverconv leaves
    // unset in what it writes (kick_power_rate, foul_detect_probability,
    // catchable_area_l_stretch: the same meaningless values in every type).
    for dir in V3 {
        let e = export_one(&fixture_of(dir), &out.join(dir), &opts(&out)).unwrap();
        assert_eq!(e.player_types, 18, "{dir}");
        every_type_is_in_the_table(&out.join(dir), dir);
    }
    let table = |p: PathBuf| -> Vec<Vec<f64>> {
        let text = std::fs::read_to_string(p).unwrap();
        let mut lines = text.lines();
        assert_eq!(
            format!("{}\n", lines.next().unwrap()),
            pitchside_analysis::export::PLAYER_TYPES_HEADER
        );
        lines
            .map(|l| l.split(',').map(|c| c.parse().unwrap()).collect())
            .collect()
    };
    let v3 = table(out.join("rcgverconv-v6-to-v3.player_types.csv"));
    let v6 = table(golden_dir().join("short-v6.player_types.csv"));
    assert_eq!(v3.len(), v6.len());
    for (a, b) in v3.iter().zip(&v6) {
        assert_eq!(a.len(), 15);
        assert_eq!(a[0], b[0], "the ids");
        for k in 1..12 {
            // 1/65,536 from the binary, and the last of six digits printed.
            let slack = 1.0 / 65_536.0 + 1e-5 * b[k].abs().max(1.0);
            assert!(
                (a[k] - b[k]).abs() <= slack,
                "type {}, column {k}: {a:?} {b:?}",
                a[0]
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
    let m = rcss_formats::parse_log(&fixtures::read(fixtures::FULL_V6));
    let a = pitchside_analysis::actions::Actions::of_match(&m);
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
    let types = out.join("g.player_types.csv");
    let types_before = std::fs::read(&types).unwrap();
    assert!(types_before.len() > 1000);
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
        assert_eq!(std::fs::read(&types).unwrap(), types_before);
    }
    let names: Vec<String> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names.len(), 3, "only the three tables: {names:?}");
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
