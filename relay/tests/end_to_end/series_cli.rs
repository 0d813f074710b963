//! `pitchside-inspect series`, `standings`, `tournament` and `schedule` on real games
//! (`tests/fixtures/series/`): two folders compared as JSON, text and CSV; a round robin
//! ranked; a tournament's group and bracket filled from the games; a schedule written.

use crate::common::*;
use serde_json::Value;
use std::path::PathBuf;

fn series_dir(name: &str) -> PathBuf {
    fixture("series").join(name)
}

/// A path as the command line takes it.
fn arg(p: &std::path::Path) -> &str {
    p.to_str().expect("a UTF-8 path")
}

#[test]
fn the_command_line_compares_two_series() {
    let (a, b) = (series_dir("A"), series_dir("B"));
    let v = inspect_json(&["series", "--team", "ALPHA", "--json", arg(&a), arg(&b)]);
    assert_eq!(v["format"], "pitchside.series.v1");
    assert_eq!(v["a"]["games"], 24);
    assert_eq!(v["b"]["games"], 24);
    // Each game linked as a relay serving the two folders (`--archive A --archive B`) links
    // it: the page at the log's first goal.
    for (series, root) in [
        ("a", "/?log=/archive/files/0/"),
        ("b", "/?log=/archive/files/1/"),
    ] {
        let m = &v[series]["matches"][0];
        let link = m["link"].as_str().unwrap_or_default();
        assert!(link.starts_with(root) && link.contains(".rcg"), "{m}");
    }
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
    let t = series_dir("T");
    let v = inspect_json(&["standings", "--json", arg(&t)]);
    // rclmtableprinter on rcgresultprinter's lines of the same games (the whole logs, in
    // tests/golden/tournament/T.rclm): ALPHA first on its shoot-out win over DELTA.
    let teams = texts(&v["standings"], "team");
    assert_eq!(teams, ["ALPHA", "DELTA", "BRAVO", "CHARLIE"]);
    assert_eq!(v["standings"][0]["points"], 6);
    assert_eq!(v["repeated"].as_array().unwrap().len(), 4);
}

/// The tournament the browser test plays too: a group of four, semi-finals and a final.
fn cup() -> String {
    std::fs::read_to_string(
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/tournaments/spring.toml"),
    )
    .expect("the tournament fixture")
}

fn inspect(args: &[&std::ffi::OsStr]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_pitchside-inspect"))
        .args(args)
        .output()
        .expect("run pitchside-inspect")
}

#[test]
fn a_tournament_from_real_games_fills_its_group_and_bracket() {
    let dir = std::env::temp_dir().join(format!("pitchside-cup-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("mkdir");
    let file = dir.join("spring.toml");
    std::fs::write(&file, cup()).expect("write");
    let t = series_dir("T");
    let out = inspect(&[
        "tournament".as_ref(),
        file.as_os_str(),
        t.as_os_str(),
        "--json".as_ref(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(v["format"], "pitchside.tournament.v1");
    // Every played game links to the page as a relay serving the folder (`--archive T`)
    // links it, as the README shows, never to a path on this machine.
    fn links<'a>(v: &'a Value, out: &mut Vec<&'a str>) {
        match v {
            Value::Object(m) => {
                if let Some(Value::String(l)) = m.get("link") {
                    out.push(l);
                }
                m.values().for_each(|x| links(x, out));
            }
            Value::Array(a) => a.iter().for_each(|x| links(x, out)),
            _ => {}
        }
    }
    let mut found = Vec::new();
    links(&v, &mut found);
    assert!(found.len() >= 8, "{found:?}");
    assert!(
        found
            .iter()
            .all(|l| l.starts_with("/?log=/archive/files/0/") && l.ends_with(".rcg.gz")),
        "{found:?}"
    );
    // The group's six games are the first six of the round robin; its table is the one
    // `standings` prints for the folder (each pair once), itself rclmtableprinter's.
    let out = inspect(&["standings".as_ref(), t.as_os_str(), "--json".as_ref()]);
    let table: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let group = &v["groups"][0];
    assert_eq!(group["complete"], true);
    for (a, b) in group["standings"]
        .as_array()
        .unwrap()
        .iter()
        .zip(table["standings"].as_array().unwrap())
    {
        for k in [
            "place",
            "team",
            "games",
            "wins",
            "draws",
            "losses",
            "points",
            "goals_for",
        ] {
            assert_eq!(a[k], b[k], "{k} of {}", a["team"]);
        }
    }
    // SF1: ALPHA (1st) against CHARLIE (4th), the seventh game, CHARLIE 0 ALPHA 1.
    let sf = &v["knockout"][0]["ties"];
    assert_eq!(sf[0]["left"]["team"], "ALPHA");
    assert_eq!(sf[0]["right"]["team"], "CHARLIE");
    assert_eq!(sf[0]["score"], serde_json::json!([1, 0]));
    assert_eq!(sf[0]["winner"], "ALPHA");
    // SF2: DELTA against BRAVO, the eighth game, 0:0 and no shoot-out: played, undecided,
    // so the final waits and the last two games are no fixture.
    assert_eq!(sf[1]["status"], "played");
    assert_eq!(sf[1]["score"], serde_json::json!([0, 0]));
    assert!(sf[1].get("winner").is_none());
    let f = &v["knockout"][1]["ties"][0];
    assert_eq!(f["left"]["team"], "ALPHA");
    assert!(f["right"].get("team").is_none());
    assert_eq!(f["right"]["label"], "winner of SF2");
    assert_eq!(v["extra_games"], 2);
    assert_eq!(
        (v["played"].as_u64(), v["fixtures"].as_u64()),
        (Some(8), Some(9))
    );

    // A schedule for a group of six on two fields, written into the file.
    std::fs::write(
        &file,
        cup().replace(
            "teams = [\"ALPHA\", \"BRAVO\", \"CHARLIE\", \"DELTA\"]",
            "teams = [\"ALPHA\", \"BRAVO\", \"CHARLIE\", \"DELTA\", \"ECHO\", \"FOX\"]",
        ),
    )
    .expect("write");
    let out = inspect(&[
        "schedule".as_ref(),
        file.as_os_str(),
        "--group".as_ref(),
        "A".as_ref(),
        "--fields".as_ref(),
        "2".as_ref(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(
        said.starts_with("group A: 15 games in 8 rounds on 2 field(s)"),
        "{said}"
    );
    let plan = relay::tournament::read_plan(&file).expect("the file reads back");
    assert_eq!(plan.groups[0].fixtures.len(), 15);
    assert!(std::fs::read_to_string(&file)
        .unwrap()
        .starts_with("# A round robin of four, then semi-finals and a final."));
    // A mistake is said, and nothing is written.
    let out = inspect(&[
        "schedule".as_ref(),
        file.as_os_str(),
        "--group".as_ref(),
        "A".as_ref(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("already has fixtures"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// A team name longer than the columns were: the round robin with CHARLIE renamed (as
/// `rename` writes it) to a long name, whose standings print it whole, in the ranking and in
/// the cross table, with every column in line.
#[test]
fn standings_print_a_long_team_name_whole_with_the_columns_in_line() {
    const LONG: &str = "RR_CHARLIE_ROBOTICS_CLUB";
    let dir = std::env::temp_dir().join(format!("pitchside-long-name-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("mkdir");
    let mut renamed = 0;
    for e in std::fs::read_dir(series_dir("T")).expect("the round robin") {
        let path = e.expect("entry").path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let (left, right) = name.split_once("-vs-").expect("a game's name");
        let side = if left.contains("-CHARLIE_") {
            Some("--left")
        } else if right.starts_with("CHARLIE_") {
            Some("--right")
        } else {
            None
        };
        let out = dir.join(&name);
        match side {
            Some(side) => {
                let done = inspect(&[
                    "rename".as_ref(),
                    path.as_os_str(),
                    "-o".as_ref(),
                    out.as_os_str(),
                    side.as_ref(),
                    LONG.as_ref(),
                ]);
                assert!(done.status.success(), "{name}: {done:?}");
                renamed += 1;
            }
            None => {
                std::fs::copy(&path, &out).expect("copy");
            }
        }
    }
    assert_eq!(renamed, 5, "CHARLIE's games");
    let out = inspect(&["standings".as_ref(), dir.as_os_str()]);
    assert!(out.status.success(), "{out:?}");
    let text = String::from_utf8(out.stdout).expect("text");
    eprintln!("{text}");
    let lines: Vec<&str> = text.lines().collect();
    // The ranking: a header and the four teams, the name column as wide as the longest.
    let w = LONG.len();
    assert!(
        lines[1].starts_with(&format!("place  {:<w$}  games", "team")),
        "{text}"
    );
    let ranked: Vec<&str> = lines[2..6].iter().map(|l| l[7..7 + w].trim_end()).collect();
    assert_eq!(ranked, ["ALPHA", "DELTA", "BRAVO", LONG], "{text}");
    for l in &lines[2..6] {
        assert_eq!(&l[7 + w..8 + w], " ", "{l}");
        assert!(
            l[8 + w..].trim_start().starts_with('3'),
            "three games each: {l}"
        );
    }
    // The cross table: the long name whole, as a column and as a row, and every line as long
    // as the header (each column as wide as its longest entry, right-aligned).
    assert_eq!(lines[6], "");
    let cross = &lines[7..12];
    assert!(cross[0].ends_with(&format!("  {LONG}")), "{text}");
    assert!(cross[4].starts_with(LONG), "{text}");
    assert!(!text.contains("RR_CHARLI "), "{text}");
    for l in cross {
        assert_eq!(l.len(), cross[0].len(), "{text}");
    }
    // Each cell ends where its column's name ends.
    let ends: Vec<usize> = ["ALPHA", "DELTA", "BRAVO", LONG]
        .iter()
        .map(|n| cross[0].find(&format!(" {n}")).expect("the column") + 1 + n.len())
        .collect();
    for l in &cross[1..] {
        for &end in &ends {
            assert_ne!(&l[end - 1..end], " ", "a cell ends at {end}: {l}");
            assert_eq!(l.get(end..end + 2).unwrap_or("  "), "  ", "{l}");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}
