//! Series of real games (`tests/fixtures/series/`, 65 games of rcssserver 19 and helios-base):
//! the series prints what autotest2d's `process.py` prints on the same games (its output kept
//! in `tests/golden/series/`) and finds every invalid game with its reason; the relay answers
//! `/api/series` from its archive, a folder being filled included. The command line's A/B is
//! tested in `relay/tests/end_to_end/series_cli.rs`.

use pitchside_competitions::series::{Invalid, Series};
use pitchside_tests::spectator::http_get;
use pitchside_tests::{fixtures, relay_harness};
use relay::config::Settings;
use relay::inspect::series::{read_games, series_text};
use serde_json::Value;
use std::path::PathBuf;
use std::time::{Duration, Instant};

fn series_dir(name: &str) -> PathBuf {
    fixtures::series(name)
}

fn golden(name: &str) -> String {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(format!("golden/series/{name}"));
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// The part of the text output that is process.py's: after its heading.
fn process_py_part(text: &str) -> String {
    let at = text
        .find("\nAs autotest2d's process.py counts them")
        .expect("the process.py section");
    let rest = &text[at + 1..];
    rest[rest.find('\n').expect("its heading") + 1..].to_owned()
}

#[test]
fn the_series_prints_what_process_py_prints_on_the_same_games() {
    for (dir, team, out) in [
        ("A", None, "A.process-py.txt"),
        ("B", None, "B.process-py.txt"),
        // ALPHA's view, as autotest2d sees its own team (always on its left).
        ("A", Some("ALPHA"), "A-alpha.process-py.txt"),
    ] {
        let games = read_games(&[series_dir(dir)], 0);
        assert_eq!(games.len(), 24, "{dir}");
        let s = Series::new(&games, team);
        let ours = process_py_part(&series_text(&s, dir));
        assert_eq!(ours, golden(out), "{dir} {team:?}");
    }
    // In a shoot-out, rcssserver prints "Waiting after end of match" only after every player
    // has disconnected, so autotest2d's parse.awk flags each shoot-out game invalid; a log
    // says the game was whole. Every other line is the same.
    let games = read_games(&[series_dir("T")], 0);
    let ours = process_py_part(&series_text(&Series::new(&games, None), "T"));
    let theirs = golden("T.process-py.txt");
    let without = |t: &str| {
        t.lines()
            .filter(|l| !l.starts_with("Non Valid Game Count"))
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert!(theirs.contains("Non Valid Game Count: 4 (40.00%)"));
    assert!(!ours.contains("Non Valid"));
    assert_eq!(without(&ours), without(&theirs));
}

#[test]
fn every_invalid_game_is_found_with_its_reason_and_left_out() {
    let games = read_games(&[series_dir("invalid"), series_dir("A")], 0);
    let s = Series::new(&games, Some("ALPHA"));
    assert_eq!(s.games(), 24, "the A games count");
    assert_eq!(s.invalid.len(), 7);
    let why = |file: &str| -> Vec<Invalid> {
        s.invalid
            .iter()
            .find(|g| g.game.name.ends_with(file))
            .unwrap_or_else(|| panic!("{file} listed invalid"))
            .game
            .invalid
            .clone()
    };
    use rcss_formats::Side::{Left, Right};
    // A helios player killed with SIGKILL: the server drops him a few cycles later.
    assert_eq!(
        why("20261126140633-ALPHA_0-vs-BRAVO_0.rcg.gz"),
        [Invalid::Disconnected {
            side: Right,
            unum: 11,
            cycle: 244
        }]
    );
    assert_eq!(
        why("20261126140654-BRAVO_1-vs-ALPHA_0.rcg.gz"),
        [Invalid::Disconnected {
            side: Left,
            unum: 9,
            cycle: 208
        }]
    );
    // A team started with ten players.
    assert_eq!(
        why("20261126140749-ALPHA_1-vs-BRAVO_0.rcg.gz"),
        [Invalid::Short {
            side: Right,
            players: 10
        }]
    );
    assert_eq!(
        why("20261126141048-BRAVO_0-vs-ALPHA_0.rcg.gz"),
        [Invalid::Short {
            side: Left,
            players: 10
        }]
    );
    // The server killed (and one that crashed when a player was killed): cut short.
    for (file, cycle) in [
        ("killed-server-1.rcg.gz", 193),
        ("killed-server-2.rcg.gz", 227),
        ("crashed-server.rcg.gz", 219),
    ] {
        assert_eq!(why(file), [Invalid::Incomplete { cycle }], "{file}");
    }
    let text = series_text(&s, "invalid+A");
    assert!(
        text.contains("BRAVO 11 left the field at cycle 244"),
        "{text}"
    );
    assert!(text.contains("BRAVO had 10 players at kick-off"), "{text}");
    // process.py's figures keep the invalid games: 31 games.
    assert!(text.contains("Game Count: 31\n"), "{text}");
    assert!(text.contains("Non Valid Game Count: 7 (22.58%)"), "{text}");
}

async fn series(addr: std::net::SocketAddr, query: &str) -> Value {
    let (status, _, body) = http_get(addr, &format!("/api/series{query}")).await;
    assert_eq!(status, 200, "{query}");
    serde_json::from_slice(&body).expect("JSON")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_relay_answers_a_series_from_its_archive_and_follows_a_folder_being_filled() {
    let tmp = fixtures::scratch("series");
    let night = tmp.join("archive/night");
    let a = fixtures::series_logs("A");
    // Half the batch is played when the relay starts, and a game a team began with ten
    // players (a whole log: the committed valid games keep only their last cycles).
    fixtures::copy_into(&a[..12], &night);
    let short = "20261126140749-ALPHA_1-vs-BRAVO_0.rcg.gz";
    fixtures::copy_into(&[series_dir("invalid").join(short)], &night);
    // A game ALPHA did not play: counted as another game, by the relay as by the command line.
    let other = fixtures::path(fixtures::SHORT_V6);
    fixtures::copy_into(std::slice::from_ref(&other), &night);
    fixtures::copy_into(&fixtures::series_logs("B"), &tmp.join("archive/last-week"));
    let relay = relay_harness::start_with_archive(fixtures::SHORT_V6, tmp.join("archive")).await;
    let addr = relay.addr;
    let deadline = Instant::now() + Duration::from_secs(30);
    let first = loop {
        let v = series(addr, "?team=ALPHA&dir=0/night").await;
        if v["games"] == 12 && v["indexing"] == 0 {
            break v;
        }
        assert!(Instant::now() < deadline, "12 games: {v}");
        tokio::time::sleep(Duration::from_millis(200)).await;
    };
    // The same figures as the command line on the same games: one answer, whichever reads
    // them.
    let mut same = a[..12].to_vec();
    same.push(series_dir("invalid").join(short));
    same.push(other);
    let games = read_games(&same, 0);
    let s = Series::new(&games, Some("ALPHA"));
    let cli = relay::inspect::series::series_json(&s, &|_| None);
    for key in [
        "games",
        "invalid_games",
        "other_games",
        "wins",
        "draws",
        "losses",
        "points",
        "win_rate",
        "goal_difference",
    ] {
        assert_eq!(first[key], cli[key], "{key}");
    }
    assert_eq!(first["other_games"], 1);
    assert_eq!(first["format"], "pitchside.series.v1");
    // The invalid game is listed with why, out of the figures.
    assert_eq!(first["invalid_games"], 1);
    let scored = &first["invalid"][0];
    assert_eq!(scored["invalid"][0], "BRAVO had 10 players at kick-off");
    // Each match links to the page at its first goal.
    assert!(scored["first_goal"].is_u64(), "{scored}");
    let link = scored["link"].as_str().unwrap();
    assert!(
        link.starts_with("/?log=/archive/files/0/night/")
            && link.ends_with(&format!("#t={}", scored["first_goal"])),
        "{link}"
    );
    // The rest of the batch arrives while the page watches: within seconds.
    fixtures::copy_into(&a[12..], &night);
    let deadline = Instant::now() + Duration::from_secs(20);
    let all = loop {
        let v = series(addr, "?team=ALPHA&dir=0/night").await;
        if v["games"] == 24 {
            break v;
        }
        assert!(Instant::now() < deadline, "24 games: {v}");
        tokio::time::sleep(Duration::from_millis(250)).await;
    };
    assert_eq!(all["curve"].as_array().unwrap().len(), 24);
    // A/B: this batch against last week's.
    let ab = series(addr, "?team=ALPHA&dir=0/night&b_dir=0/last-week").await;
    assert_eq!(ab["a"]["games"], 24);
    assert_eq!(ab["b"]["games"], 24);
    assert!(ab["comparison"]["verdict"].as_str().unwrap().len() > 20);
    assert!(ab["comparison"]["win_rate"]["p_value"].is_f64());
    relay.stop().await;
    let _ = std::fs::remove_dir_all(&tmp);
}

/// The relay's own `--record` folder as a series: each game the relay follows is counted
/// within seconds of its end, from the log the relay wrote.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn games_the_relay_records_join_the_series_as_they_end() {
    let tmp = fixtures::scratch("series-rec");
    let game = fixtures::series_logs("A")[0].clone();
    let name = game.file_name().unwrap().to_string_lossy().into_owned();
    let source = read_games(std::slice::from_ref(&game), 0).remove(0);
    // The game played as if live, its last cycles again and again: each time over ends one
    // recorded game.
    let mut settings = Settings::new(vec![relay_harness::replay(
        &format!("series/A/{name}"),
        "field-a",
        Duration::from_millis(30),
    )]);
    settings.record = Some(tmp.join("record"));
    settings.archive = vec![tmp.join("record")];
    let relay = relay_harness::start_with(settings).await;
    let deadline = Instant::now() + Duration::from_secs(40);
    let v = loop {
        let v = series(relay.addr, "?team=ALPHA").await;
        if v["games"].as_u64().unwrap_or(0) >= 2 {
            break v;
        }
        assert!(Instant::now() < deadline, "two recorded games: {v}");
        tokio::time::sleep(Duration::from_millis(250)).await;
    };
    // Each recorded game has the source's result.
    let ours = source
        .teams
        .iter()
        .position(|t| t == "ALPHA")
        .expect("ALPHA");
    for m in v["matches"].as_array().unwrap() {
        assert_eq!(m["goals_for"], source.score[ours], "{m}");
        assert_eq!(m["goals_against"], source.score[1 - ours], "{m}");
        assert!(m["link"]
            .as_str()
            .unwrap()
            .starts_with("/?log=/archive/files/0/"));
    }
    relay.stop().await;
    let _ = std::fs::remove_dir_all(&tmp);
}
