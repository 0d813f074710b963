//! The broadcast view's side of the relay on real logs replayed as live: the options
//! (`--broadcast-delay`, `--team-colours`) from the command line, the environment and the
//! config file, mistakes that stop the start, `/m/NAME/broadcast`,
//! `/api/matches/NAME/broadcast` (delay, kits chosen from a colours file read again when it
//! changes, the match's tournament, the last result) and `/api/matches/NAME/captions`.

use crate::common::*;
use clap::Parser;
use serde_json::Value;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
/// The short real game: SHORT_L_a against SHORT_R_a, 0-1, 600 cycles.
const SHORT: &str = "logs/short-v6/20261122132720-SHORT_L_a_0-vs-SHORT_R_a_1.rcg.gz";
/// The whole real game: HELIOS_L against HELIOS_R, 2-3, 6000 cycles.
const FULL: &str = "logs/full-v6-realtime/20261122131124-HELIOS_L_2-vs-HELIOS_R_3.rcg.gz";
/// A finished real game: OPS_L 0-1 OPS_R.
const OPS: &str = "logs/operator-commands-v6/20261122132312-OPS_L_0-vs-OPS_R_1.rcg.gz";

/// Red and green: far apart for most viewers, alike for many colour-blind ones.
const CLASHING: &str = r##"
[teams.SHORT_L_a]
home = "#d62728"
away = "#ffffff"

[teams.short_r_a]        # the server's name is matched ignoring case too
home = "#2ca02c"
away = "#1f3a93"
away_goalie = "#f5d90a"
"##;

/// Yellow and blue: apart for everyone.
const APART: &str = r##"
[teams.SHORT_L_a]
home = "#f5d90a"
away = "#000000"

[teams.SHORT_R_a]
home = "#3aa0ff"
away = "#ffffff"
"##;
/// Writes `text` to `path` and moves its modification time on, so that a rewrite within the
/// file system's clock tick is still seen as a change.
fn rewrite(path: &Path, text: &str) {
    let before = std::fs::metadata(path).and_then(|m| m.modified()).ok();
    std::fs::write(path, text).unwrap();
    if let Some(t) = before {
        let f = std::fs::File::options().write(true).open(path).unwrap();
        f.set_modified(t + Duration::from_secs(2)).unwrap();
    }
}

/// Status, headers (lower case) and body of `GET path`.
async fn get(addr: SocketAddr, path: &str) -> (u16, String, String) {
    let mut s = tokio::net::TcpStream::connect(addr).await.unwrap();
    let req = format!("GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    s.write_all(req.as_bytes()).await.unwrap();
    let mut raw = Vec::new();
    tokio::time::timeout(Duration::from_secs(60), s.read_to_end(&mut raw))
        .await
        .expect("an answer within a minute")
        .unwrap();
    let text = String::from_utf8_lossy(&raw).into_owned();
    let (head, body) = text.split_once("\r\n\r\n").unwrap();
    let status = head.split(' ').nth(1).unwrap().parse().unwrap();
    let head = head.to_ascii_lowercase();
    let body = if head.contains("transfer-encoding: chunked") {
        let mut out = String::new();
        let mut rest = body;
        while let Some((size, after)) = rest.split_once("\r\n") {
            let n = usize::from_str_radix(size.trim(), 16).unwrap();
            if n == 0 {
                break;
            }
            out.push_str(&after[..n]);
            rest = &after[n + 2..];
        }
        out
    } else {
        body.to_owned()
    };
    (status, head, body)
}

async fn get_json(addr: SocketAddr, path: &str) -> Value {
    let (status, _, body) = get(addr, path).await;
    assert_eq!(status, 200, "{path}: {body}");
    serde_json::from_str(&body).unwrap()
}

/// Asks `path` until `done` holds for the answer (at most `secs` seconds).
async fn until(addr: SocketAddr, path: &str, secs: u64, done: impl Fn(&Value) -> bool) -> Value {
    let deadline = Instant::now() + Duration::from_secs(secs);
    loop {
        let v = get_json(addr, path).await;
        if done(&v) {
            return v;
        }
        assert!(Instant::now() < deadline, "{path} never got there: {v}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// A relay in this process with these command-line arguments, on a free port.
struct Running {
    addr: SocketAddr,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    task: tokio::task::JoinHandle<Result<(), relay::RunError>>,
}

impl Drop for Running {
    fn drop(&mut self) {
        if let Some(tx) = self.stop.take() {
            let _ = tx.send(());
        }
        self.task.abort();
    }
}

async fn start(args: &[&str]) -> Running {
    let mut all = vec!["pitchside-relay"];
    all.extend_from_slice(args);
    let settings = relay::config::Cli::try_parse_from(all)
        .unwrap()
        .settings()
        .unwrap();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let (tx, rx) = tokio::sync::oneshot::channel::<()>();
    let task = tokio::spawn(relay::run(listener, settings, async {
        let _ = rx.await;
    }));
    Running {
        addr,
        stop: Some(tx),
        task,
    }
}

/// A page to serve: the routes are what is tested, not the web app.
fn dist(dir: &Path) -> PathBuf {
    let dist = dir.join("dist");
    std::fs::create_dir_all(&dist).unwrap();
    std::fs::write(
        dist.join("index.html"),
        "<!doctype html><title>pitchside</title>",
    )
    .unwrap();
    dist
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_broadcast_answer_gives_the_delay_kits_tournament_and_last_result() {
    let dir = scratch("bc-answer");
    std::fs::create_dir_all(dir.join("archive")).unwrap();
    std::fs::copy(
        fixture(OPS),
        dir.join("archive/20261122132312-OPS_L_0-vs-OPS_R_1.rcg.gz"),
    )
    .unwrap();
    let colours = dir.join("colours.toml");
    std::fs::write(&colours, CLASHING).unwrap();
    // One group of four, its fixtures as (round, left, right).
    let fixtures: String = [
        (1, "OPS_L", "OPS_R"),
        (2, "SHORT_L_a", "SHORT_R_a"),
        (2, "OPS_R", "SHORT_L_a"),
        (3, "OPS_L", "SHORT_R_a"),
    ]
    .iter()
    .map(|(round, left, right)| {
        format!("[[group.fixture]]\nround = {round}\nleft = {left:?}\nright = {right:?}\n")
    })
    .collect();
    std::fs::write(
        dir.join("cup.toml"),
        format!(
            r#"
name = "cup"
title = "The cup"
[[group]]
name = "A"
teams = ["SHORT_L_a", "SHORT_R_a", "OPS_L", "OPS_R"]
{fixtures}"#
        ),
    )
    .unwrap();
    let config = dir.join("relay.toml");
    std::fs::write(
        &config,
        "broadcast_delay = 1.5\nteam_colours = \"colours.toml\"\ntournament = [\"cup.toml\"]\narchive = [\"archive\"]\n",
    )
    .unwrap();
    let dist = dist(&dir);
    // Real time: the match stays live while it is asked about.
    let relay = start(&[
        "--config",
        config.to_str().unwrap(),
        "--dist",
        dist.to_str().unwrap(),
        "--replay",
        &format!("final={}", fixture(SHORT).display()),
    ])
    .await;
    let addr = relay.addr;
    let api = "/api/matches/final/broadcast";
    let v = until(addr, api, 30, |v| {
        v["teams"][1].is_string() && !v["last_result"].is_null()
    })
    .await;
    assert_eq!(v["format"], "pitchside.broadcast.v1");
    assert_eq!(v["match"], "final");
    assert_eq!(v["delay_seconds"], 1.5);
    assert_eq!(v["teams"], serde_json::json!(["SHORT_L_a", "SHORT_R_a"]));

    // Red against green: the second team changes into its away kit.
    let k = &v["kits"];
    assert_eq!(k["worn"], serde_json::json!(["home", "away"]), "{v}");
    assert_eq!(
        (k["left"].as_str(), k["right"].as_str()),
        (Some("#d62728"), Some("#1f3a93"))
    );
    assert_eq!(k["right_goalie"], "#f5d90a", "the file's goalie colour");
    let reason = k["reason"].as_str().unwrap();
    assert!(reason.starts_with("SHORT_R_a in away colours"), "{reason}");
    assert!(v["colours_error"].is_null());

    // The tournament of the two teams, its group's standings as /api/tournaments gives them.
    let t = &v["tournament"];
    assert_eq!(t["name"], "cup");
    assert_eq!(t["title"], "The cup");
    assert_eq!(t["url"], "/t/cup");
    assert_eq!(t["group"], "A");
    let cup = get_json(addr, "/api/tournaments/cup").await;
    assert_eq!(t["standings"], cup["groups"][0]["standings"]);
    assert_eq!(
        t["standings"][0]["team"], "OPS_R",
        "the archived game's winner leads"
    );
    // The match itself is being played: the next fixture is the other one of round 2.
    assert_eq!(cup["groups"][0]["fixtures"][1]["status"], "live");
    let next = &t["next"];
    assert_eq!(
        (next["left"].as_str(), next["right"].as_str()),
        (Some("OPS_R"), Some("SHORT_L_a")),
        "{next}"
    );
    assert_eq!(
        (next["group"].as_str(), next["round"].as_u64()),
        (Some("A"), Some(2))
    );
    assert_eq!(next["status"], "to_play");
    // The tournament's last result: the archived game.
    let last = &v["last_result"];
    assert_eq!(last["teams"], serde_json::json!(["OPS_L", "OPS_R"]));
    assert_eq!(last["score"], serde_json::json!([0, 1]));
    assert!(last["penalties"].is_null());
    assert_eq!(last["date"], "2026-11-22T13:23:12");
    assert!(last["link"]
        .as_str()
        .unwrap()
        .starts_with("/?log=/archive/files/0/20261122132312-OPS_L_0-vs-OPS_R_1"));

    // The colours file is read again when it changes: apart, both wear home.
    rewrite(&colours, APART);
    let v = get_json(addr, api).await;
    assert_eq!(
        v["kits"]["worn"],
        serde_json::json!(["home", "home"]),
        "{v}"
    );
    assert_eq!(v["kits"]["reason"], "both in home colours");
    assert_eq!(v["kits"]["left"], "#f5d90a");
    // A team the file does not know: no choice.
    rewrite(&colours, &APART.replace("SHORT_R_a", "SOMEONE_ELSE"));
    assert!(get_json(addr, api).await["kits"].is_null());
    // A broken version keeps the last good one, and says what is wrong.
    rewrite(&colours, CLASHING);
    assert_eq!(get_json(addr, api).await["kits"]["worn"][1], "away");
    rewrite(&colours, &CLASHING.replace("\"#1f3a93\"", "\"navy\""));
    let v = get_json(addr, api).await;
    assert_eq!(v["kits"]["worn"][1], "away", "the last good version");
    let e = v["colours_error"].as_str().unwrap();
    assert!(
        e.contains("colours.toml") && e.contains("[teams.short_r_a]: away = \"navy\""),
        "{e}"
    );

    // The page: served like the match page, and never in another site's frame.
    let (status, head, body) = get(addr, "/m/final/broadcast").await;
    assert_eq!(status, 200);
    assert!(body.contains("<title>pitchside</title>"), "{body}");
    assert!(head.contains("frame-ancestors 'none'"), "{head}");
    let (status, _, _) = get(addr, "/m/nobody/broadcast").await;
    assert_eq!(status, 404);
    let (status, _, body) = get(addr, "/api/matches/nobody/broadcast").await;
    assert_eq!((status, body.as_str()), (404, "no match called nobody"));
    let (status, _, _) = get(addr, "/api/matches/nobody/captions").await;
    assert_eq!(status, 404);
    let (status, _, body) = get(addr, "/api/matches/final/captions?lang=xx").await;
    assert_eq!(status, 400);
    assert!(body.contains("\"xx\"") && body.contains("en, de"), "{body}");
    let (status, _, body) = get(addr, "/api/matches/final/captions?since=soon").await;
    assert_eq!(status, 400, "{body}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The lines of a captions answer as `(cycle, kind)`.
fn lines(v: &Value) -> Vec<(u64, String)> {
    v["captions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            assert!(!c["text"].as_str().unwrap().is_empty(), "{c}");
            (
                c["cycle"].as_u64().unwrap(),
                c["kind"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_captions_feed_follows_a_real_game_and_gives_what_is_new() {
    let game = rcss_formats::parse_log(&std::fs::read(fixture(FULL)).unwrap());
    let goals: Vec<u32> = game.goals().iter().map(|(c, _)| *c).collect();
    assert_eq!(goals.len(), 5, "the fixture's five goals");
    let dir = scratch("bc-captions");
    let dist = dist(&dir);
    // A cycle a millisecond, once: the whole game is in the history within seconds.
    let relay = start(&[
        "--dist",
        dist.to_str().unwrap(),
        "--replay",
        &format!("full={}", fixture(FULL).display()),
        "--speed",
        "1000",
        "--replay-once",
    ])
    .await;
    let addr = relay.addr;
    // Early: the kick-off is said before the first goal.
    let early = until(addr, "/api/matches/full/captions", 60, |v| {
        v["captions"].as_array().is_some_and(|c| !c.is_empty())
    })
    .await;
    assert_eq!(early["format"], "pitchside.captions.v1");
    assert_eq!(early["match"], "full");
    assert_eq!(early["lang"], "en");
    assert_eq!(lines(&early)[0].1, "kick_off", "{early}");
    // At the end: a goal line at or after each of the log's goals, the score as it ended.
    let v = until(addr, "/api/matches/full/captions?lang=en", 120, |v| {
        v["cycle"] == 6000
    })
    .await;
    assert_eq!(v["teams"], serde_json::json!(["HELIOS_L", "HELIOS_R"]));
    assert_eq!(v["score"], serde_json::json!([2, 3]));
    let all = lines(&v);
    let goal_lines: Vec<u64> = all
        .iter()
        .filter(|(_, k)| k == "goal")
        .map(|(c, _)| *c)
        .collect();
    assert_eq!(goal_lines.len(), goals.len(), "{all:?}");
    for (line, goal) in goal_lines.iter().zip(&goals) {
        assert!(*line >= u64::from(*goal), "goal at {goal}, said at {line}");
        assert!(
            *line < u64::from(*goal) + 100,
            "goal at {goal}, said at {line}"
        );
    }
    assert!(all.iter().any(|(_, k)| k == "half_time"), "{all:?}");
    assert_eq!(all.last().map(|l| l.1.as_str()), Some("full_time"));
    assert!(
        all.windows(2).all(|w| w[0].0 <= w[1].0),
        "in order: {all:?}"
    );
    // `since`: only what came after.
    let since = goal_lines[2];
    let later = get_json(addr, &format!("/api/matches/full/captions?since={since}")).await;
    let after: Vec<_> = all.iter().filter(|(c, _)| *c > since).cloned().collect();
    assert_eq!(lines(&later), after);
    assert_eq!(lines(&later)[0], (goal_lines[3], "goal".to_owned()));
    let none = get_json(addr, "/api/matches/full/captions?since=6000").await;
    assert!(lines(&none).is_empty());
    assert_eq!(none["cycle"], 6000);
    // Another language: the same moments, other words.
    let de = get_json(addr, "/api/matches/full/captions?lang=de").await;
    assert_eq!(de["lang"], "de");
    let de_lines = lines(&de);
    assert_eq!(de_lines, all, "the same moments");
    assert_ne!(de["captions"][0]["text"], v["captions"][0]["text"]);
    // Asked again with nothing new, the kept answer: the same, and quick.
    let t = Instant::now();
    let again = get_json(addr, "/api/matches/full/captions").await;
    assert_eq!(again, v);
    assert!(
        t.elapsed() < Duration::from_millis(500),
        "{:?}",
        t.elapsed()
    );
    let _ = std::fs::remove_dir_all(&dir);
}
/// `pitchside-relay` as a process with only environment variables for the broadcast options.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_options_come_from_the_environment_and_mistakes_stop_the_start() {
    let dir = scratch("bc-env");
    let colours = dir.join("colours.toml");
    std::fs::write(&colours, APART).unwrap();
    let run = |env: &[(&str, &str)], addr: SocketAddr| {
        let mut c = Command::new(env!("CARGO_BIN_EXE_pitchside-relay"));
        c.args([
            "--listen",
            &addr.to_string(),
            "--dist",
            "/nonexistent",
            "--replay",
            &format!("m={}", fixture(SHORT).display()),
        ])
        .env("RUST_LOG", "warn")
        .env_remove("PITCHSIDE_BROADCAST_DELAY")
        .env_remove("PITCHSIDE_TEAM_COLOURS")
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
        for (k, v) in env {
            c.env(k, v);
        }
        c
    };
    // Refused before it listens, saying what to fix.
    let refused = |env: &[(&str, &str)]| {
        let out = run(env, "127.0.0.1:1".parse().unwrap()).output().unwrap();
        assert!(!out.status.success());
        String::from_utf8_lossy(&out.stderr).into_owned()
    };
    let e = refused(&[("PITCHSIDE_BROADCAST_DELAY", "601")]);
    assert!(
        e.contains("--broadcast-delay must be a number of seconds from 0 to 600"),
        "{e}"
    );
    let bad = dir.join("bad.toml");
    std::fs::write(&bad, "[teams.SHORT_L_a]\nhome = \"#f5d90a\"\n").unwrap();
    let e = refused(&[("PITCHSIDE_TEAM_COLOURS", bad.to_str().unwrap())]);
    assert!(e.contains(bad.to_str().unwrap()), "{e}");
    assert!(e.contains("[teams.SHORT_L_a]: away is missing"), "{e}");
    std::fs::write(
        &bad,
        "[teams.SHORT_L_a]\nhome = \"#f5d90a\"\naway = \"#000\"\nshorts = \"#fff\"\n",
    )
    .unwrap();
    let e = refused(&[("PITCHSIDE_TEAM_COLOURS", bad.to_str().unwrap())]);
    assert!(
        e.contains("[teams.SHORT_L_a]: unknown key \"shorts\""),
        "{e}"
    );

    let addr: SocketAddr = format!("127.0.0.1:{}", free_port()).parse().unwrap();
    let mut child = run(
        &[
            ("PITCHSIDE_BROADCAST_DELAY", "0.5"),
            ("PITCHSIDE_TEAM_COLOURS", colours.to_str().unwrap()),
        ],
        addr,
    )
    .stderr(Stdio::null())
    .spawn()
    .unwrap();
    let deadline = Instant::now() + Duration::from_secs(30);
    let v = loop {
        let answer = async {
            let mut s = tokio::net::TcpStream::connect(addr).await.ok()?;
            let req =
                "GET /api/matches/m/broadcast HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n";
            s.write_all(req.as_bytes()).await.ok()?;
            let mut out = String::new();
            s.read_to_string(&mut out).await.ok()?;
            let body = out.split_once("\r\n\r\n")?.1.to_owned();
            serde_json::from_str::<Value>(&body).ok()
        }
        .await;
        if let Some(v) = answer.filter(|v| v["teams"][1].is_string()) {
            break v;
        }
        assert!(Instant::now() < deadline, "the relay answers");
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    let _ = child.kill();
    let _ = child.wait();
    assert_eq!(v["delay_seconds"], 0.5);
    assert_eq!(
        v["kits"]["worn"],
        serde_json::json!(["home", "home"]),
        "{v}"
    );
    assert!(v["tournament"].is_null());
    let _ = std::fs::remove_dir_all(&dir);
}
