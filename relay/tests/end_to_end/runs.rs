//! Runs of games started, paused and stopped through the relay (`--run FILE`,
//! `/api/runs`), as the page's operator does: the relay starts `pitchside-play` beside it
//! with the run file's arguments, with the stand-in rcssserver of `play`'s tests, and only
//! for the operator's token.

use crate::common::{http, relay_command, scratch, signal, wait_until, RelayProcess};
use crate::play::{script, stand_in, team};
use serde_json::Value;
use std::path::Path;
use std::time::{Duration, Instant};

const TOKEN: &str = "the-operators-own-runs-token";

/// A run file `NAME.toml` in `dir`: the stand-in server, the two scripts there, `games`
/// games into `NAME-games`, and `server` options after `--`.
fn run_file(dir: &Path, name: &str, games: u32, port: u16, server: &[&str]) {
    let mut args: Vec<String> = [
        "--server",
        &stand_in().to_string_lossy(),
        "--team",
        "start_left",
        "--opponent",
        "start_right",
        "--games",
        &games.to_string(),
        "--first-port",
        &port.to_string(),
        "--out",
        &format!("{name}-games"),
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    if !server.is_empty() {
        args.push("--".into());
        args.extend(server.iter().map(|s| s.to_string()));
    }
    let list: Vec<String> = args.iter().map(|a| format!("{a:?}")).collect();
    std::fs::write(
        dir.join(format!("{name}.toml")),
        format!("args = [{}]\n", list.join(", ")),
    )
    .unwrap();
}

fn run_of(addr: std::net::SocketAddr, name: &str) -> Value {
    let (status, body) = http(addr, "GET", "/api/runs", None).expect("the relay answers");
    assert_eq!(status, 200, "{body}");
    let doc: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(doc["format"], "pitchside.runs.v1");
    doc["runs"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["name"] == name)
        .cloned()
        .unwrap_or_else(|| panic!("no run {name} in {doc}"))
}

/// Waits (at most `secs`) until `ok` holds of run `name`; the run as it then is.
fn wait_for(
    addr: std::net::SocketAddr,
    name: &str,
    secs: u64,
    ok: impl Fn(&Value) -> bool,
) -> Value {
    let started = Instant::now();
    loop {
        let run = run_of(addr, name);
        if ok(&run) || started.elapsed().as_secs() >= secs {
            return run;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// Waits (at most 20 s) until the lobby's card of match `name` (`/api/matches`) satisfies
/// `ok`; the card as it then is.
fn wait_for_card(addr: std::net::SocketAddr, name: &str, ok: impl Fn(&Value) -> bool) -> Value {
    let started = Instant::now();
    loop {
        let (_, body) = http(addr, "GET", "/api/matches", None).expect("the relay answers");
        let list: Value = serde_json::from_str(&body).unwrap_or(Value::Null);
        let card = list
            .as_array()
            .and_then(|l| l.iter().find(|c| c["name"] == name).cloned())
            .unwrap_or(Value::Null);
        if ok(&card) || started.elapsed().as_secs() >= 20 {
            return card;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
}

fn act(addr: std::net::SocketAddr, name: &str, action: &str, token: Option<&str>) -> (u16, Value) {
    let (status, body) = http(addr, "POST", &format!("/api/runs/{name}/{action}"), token)
        .expect("the relay answers");
    (status, serde_json::from_str(&body).unwrap_or(Value::Null))
}

/// Whether a runner of the test's runs, or a server or team of their games (whose command
/// lines name the test's folder), still runs.
fn runner_alive(dir: &Path) -> bool {
    [
        "pitchside-play .*--out (night|hung)-games",
        &dir.display().to_string(),
    ]
    .iter()
    .any(|pattern| {
        let out = std::process::Command::new("pgrep")
            .args(["-f", pattern])
            .output();
        out.is_ok_and(|o| o.status.success())
    })
}

/// Kills whatever of the test's runs is left when it fails half-way (the relay is killed
/// without a word then, and a hung game would run to its time limit).
struct Leftovers<'a>(&'a Path);

impl Drop for Leftovers<'_> {
    fn drop(&mut self) {
        for pattern in [
            "pitchside-play .*--out (night|hung)-games",
            &self.0.display().to_string(),
        ] {
            let _ = std::process::Command::new("pkill")
                .args(["-KILL", "-f", pattern])
                .status();
        }
        let _ = std::fs::remove_dir_all(self.0);
    }
}

#[test]
fn the_operator_starts_pauses_and_stops_the_relay_s_runs_and_no_one_else_can() {
    let dir = scratch("runs");
    let _leftovers = Leftovers(&dir);
    script(&dir, "start_left", &team("SHORT_L_a", 613));
    script(&dir, "start_right", &team("SHORT_R_a", 613));
    run_file(&dir, "night", 2, 22700, &["-server::stand_in_seconds=1"]);
    run_file(&dir, "hung", 3, 22800, &["-server::stand_in_hang=1"]);
    let (mut command, addr) = relay_command();
    command
        .args(["--control-token", TOKEN, "--run"])
        .arg(dir.join("night.toml"))
        .arg("--run")
        .arg(dir.join("hung.toml"))
        // The hung run's field, followed live: its lobby card says which game it plays.
        .args(["--server", "field-h=127.0.0.1:22800"]);
    let mut relay = RelayProcess(command.spawn().expect("start the relay"));
    let up = Instant::now();
    while http(addr, "GET", "/healthz", None).is_none() && up.elapsed().as_secs() < 30 {
        std::thread::sleep(Duration::from_millis(50));
    }
    assert_eq!(run_of(addr, "night")["phase"], "idle");

    // No token, a wrong one, an action or a run the relay does not have: refused, nothing run.
    assert_eq!(act(addr, "night", "start", None).0, 401);
    assert_eq!(
        act(addr, "night", "start", Some("a-wrong-token-of-length")).0,
        401
    );
    assert_eq!(act(addr, "night", "exec", Some(TOKEN)).0, 400);
    assert_eq!(act(addr, "elsewhere", "start", Some(TOKEN)).0, 404);
    assert_eq!(
        act(addr, "night", "pause", Some(TOKEN)).0,
        409,
        "not running"
    );
    assert!(!dir.join("night-games").join("game-0001.out").exists());

    // Started, it plays its games to the end, and the series page follows its folder.
    let (status, run) = act(addr, "night", "start", Some(TOKEN));
    assert_eq!(
        (status, &run["phase"]),
        (200, &Value::from("running")),
        "{run}"
    );
    assert_eq!(
        act(addr, "night", "start", Some(TOKEN)).0,
        409,
        "already running"
    );
    let run = wait_for(addr, "night", 60, |r| {
        r["phase"] == "over" && r["series"].is_string()
    });
    assert_eq!(run["phase"], "over", "{run}");
    assert_eq!(run["progress"]["played"], 2, "{run}");
    assert!(
        run["said"]
            .as_str()
            .unwrap_or_default()
            .contains("2 played, 0 invalid"),
        "{run}"
    );
    assert_eq!(run["series"], "/series?dir=0", "{run}");
    // Started again, it goes on where it was (with --continue): nothing is left to play.
    assert_eq!(act(addr, "night", "start", Some(TOKEN)).0, 200);
    let run = wait_for(addr, "night", 30, |r| r["phase"] == "over");
    assert_eq!(run["phase"], "over", "{run}");

    // A run whose games never end: paused (its game goes on), then stopped at once.
    assert_eq!(act(addr, "hung", "start", Some(TOKEN)).0, 200);
    let games = dir.join("hung-games");
    wait_until(20, || games.join("game-0001.out").exists());
    let card = wait_for_card(addr, "field-h", |c| c["run"]["game"] == "game-0001");
    assert_eq!(
        (
            &card["run"]["kind"],
            &card["run"]["played"],
            &card["run"]["games"]
        ),
        (&Value::from("batch"), &Value::from(0), &Value::from(3)),
        "{card}"
    );
    let (status, run) = act(addr, "hung", "pause", Some(TOKEN));
    assert_eq!(
        (status, &run["phase"]),
        (200, &Value::from("pausing")),
        "{run}"
    );
    std::thread::sleep(Duration::from_millis(500));
    assert_eq!(
        run_of(addr, "hung")["phase"],
        "pausing",
        "its game is still under way"
    );
    let (status, run) = act(addr, "hung", "stop", Some(TOKEN));
    assert_eq!(
        (status, &run["phase"]),
        (200, &Value::from("stopping")),
        "{run}"
    );
    let run = wait_for(addr, "hung", 30, |r| r["phase"] == "stopped");
    assert_eq!(run["phase"], "stopped", "{run}");
    let why = std::fs::read_to_string(games.join("game-0001.invalid")).unwrap();
    assert!(why.contains("stopped"), "{why}");
    assert!(!games.join("game-0002.out").exists(), "no game began after");

    // The relay shutting down stops a run under way, and every process of it.
    assert_eq!(act(addr, "hung", "start", Some(TOKEN)).0, 200);
    wait_until(20, || games.join("game-0002.out").exists());
    assert!(runner_alive(&dir));
    signal(relay.0.id(), "TERM");
    let _ = relay.0.wait();
    wait_until(20, || !runner_alive(&dir) && !leftover(613));
    assert!(!runner_alive(&dir), "the runner outlived the relay");
    assert!(!leftover(613), "a team's process outlived the relay");
}

fn leftover(seconds: u32) -> bool {
    let out = std::process::Command::new("pgrep")
        .args(["-f", &format!("sleep {seconds}")])
        .output();
    out.is_ok_and(|o| o.status.success())
}
