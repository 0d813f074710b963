//! What playing games costs beyond the games themselves: `pitchside-play`'s own time per game,
//! and the relay's CPU following P fields live (BENCHMARKS.md, "Playing games").
//!
//! ```sh
//! cargo build --release -p pitchside-relay -p pitchside-tests --bin play-bench
//! target/release/play-bench --games 200 --parallel 1     # the runner's own cost per game
//! target/release/play-bench --fields 1,2,4,8 --seconds 20  # the relay following P fields
//! ```
//!
//! **The runner.** `pitchside-play` (built beside this bench) plays `--games` games whose
//! "server" is `/bin/true`: it ends at once, so each game is nothing but what the runner does
//! around one (claim the ports, start the server under its limits in a process group, see it
//! end, stop the group, judge what it printed, write the mark). Wall time per game is that
//! overhead; the runner's own CPU (not its children's) is read from `/proc` just before it
//! ends. Every game ends invalid (`/bin/true` prints no match); a valid game costs this and
//! the reading of its log, to check that it holds the whole game (what `pitchside-inspect`'s
//! summary of a log costs: BENCHMARKS.md, "`pitchside-inspect`").
//!
//! **The relay.** P fake rcssservers each play the full real game at live speed (a show every
//! 100 ms, `tests/fixtures`), and one `pitchside-relay` follows them all (`--server
//! field-i=ADDR`), recording every match (`--record`, as a relay beside a batch does). Its
//! CPU and resident memory over `--seconds`, after 3 s of warm-up.

use pitchside_tests::bench::{arg, arg_or, free_addr, play_game, proc_usage, relay_bin, sibling};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let args: Vec<String> = std::env::args().collect();
    if arg(&args, "--fields").is_some() {
        fields(&args).await;
    } else {
        runner(&args);
    }
}

fn runner(args: &[String]) {
    let games: u32 = arg_or(args, "--games", 200);
    let parallel: u32 = arg_or(args, "--parallel", 1);
    let play = arg(args, "--play")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| sibling("pitchside-play"));
    let dir = std::env::temp_dir().join(format!("play-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a scratch folder");
    let script = dir.join("start");
    std::fs::write(&script, "#!/bin/sh\n").expect("a team script");
    let started = Instant::now();
    let mut child = Command::new(&play)
        .args(["--server", "/bin/true", "--team"])
        .arg(&script)
        .arg("--opponent")
        .arg(&script)
        .args(["--games", &games.to_string()])
        .args(["--parallel", &parallel.to_string()])
        .args(["--first-port", "31000", "--out"])
        .arg(dir.join("games"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {} (build it first): {e}", play.display()));
    // The runner's own CPU, read until it is gone (the last reading is within 5 ms of its end).
    let mut cpu = 0.0;
    while child.try_wait().ok().flatten().is_none() {
        let (c, _) = proc_usage(child.id());
        if c > 0.0 {
            cpu = c;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    let wall = started.elapsed().as_secs_f64();
    let marks = std::fs::read_dir(dir.join("games"))
        .map(|d| {
            d.filter_map(Result::ok)
                .filter(|e| e.file_name().to_string_lossy().ends_with(".invalid"))
                .count()
        })
        .unwrap_or(0);
    let _ = std::fs::remove_dir_all(&dir);
    println!("| games | P | games judged | wall | per game | runner CPU per game |");
    println!("|---:|---:|---:|---:|---:|---:|");
    println!(
        "| {games} | {parallel} | {marks} | {wall:.2} s | {:.1} ms | {:.2} ms |",
        wall * 1000.0 / f64::from(games),
        cpu * 1000.0 / f64::from(games)
    );
}

/// Frames the relay took in from every field so far (`/metrics`, `frames_in_total`).
async fn frames_in(relay: std::net::SocketAddr) -> u64 {
    let (_, _, body) = pitchside_tests::spectator::http_get(relay, "/metrics").await;
    String::from_utf8_lossy(&body)
        .lines()
        .filter(|l| l.contains("frames_in_total{"))
        .filter_map(|l| l.rsplit(' ').next()?.parse::<f64>().ok())
        .sum::<f64>() as u64
}

async fn fields(args: &[String]) {
    let list = arg(args, "--fields").unwrap_or_default();
    let seconds: u64 = arg_or(args, "--seconds", 20);
    let bin = relay_bin(args);
    println!("| fields | frames in, per second | relay CPU | resident |");
    println!("|---:|---:|---:|---:|");
    for p in list
        .split(',')
        .filter_map(|p| p.trim().parse::<usize>().ok())
    {
        let mut servers = Vec::new();
        for _ in 0..p {
            servers.push(
                play_game(
                    Duration::from_millis(100),
                    tokio::time::MissedTickBehavior::Delay,
                    |_| {},
                )
                .await,
            );
        }
        let record =
            std::env::temp_dir().join(format!("play-bench-rec-{}-{p}", std::process::id()));
        let listen = free_addr();
        let mut cmd = Command::new(&bin);
        cmd.args(["--listen", &listen.to_string(), "--record"])
            .arg(&record)
            .args(["--dist", "/nonexistent"]);
        for (i, s) in servers.iter().enumerate() {
            cmd.args(["--server", &format!("field-{i}={s}")]);
        }
        let mut relay = pitchside_tests::bench::spawn_relay(&mut cmd, &bin, Stdio::inherit());
        tokio::time::sleep(Duration::from_secs(3)).await;
        let (before, _) = proc_usage(relay.id());
        let frames_before = frames_in(listen).await;
        let t0 = Instant::now();
        tokio::time::sleep(Duration::from_secs(seconds)).await;
        let (after, rss) = proc_usage(relay.id());
        let elapsed = t0.elapsed().as_secs_f64();
        let rate = (frames_in(listen).await - frames_before) as f64 / elapsed;
        let share = (after - before) / elapsed * 100.0;
        println!(
            "| {p} | {rate:.1} | {share:.2} % | {:.1} MB |",
            rss as f64 / 1e6
        );
        let _ = relay.kill();
        let _ = relay.wait();
        let _ = std::fs::remove_dir_all(&record);
    }
}
