//! A stand-in rcssserver for `pitchside-play`'s tests, which run it as the server program: CI
//! has no rcssserver, and the runner's logic (its options, the teams' start, the faults) must
//! be tested on every commit. It does what the runner can see of a real rcssserver 19:
//! - reads its command line as rcssserver does (the arguments joined with single spaces, an
//!   argument holding a space wrapped in single quotes, which the option grammar refuses),
//!   and fails as rcssserver fails on a line it cannot read;
//! - binds the player, coach and online-coach ports, and fails as rcssserver does on a port
//!   in use; writes its configuration where it runs, as a real one did;
//! - starts the left team's command, then the right's, through `/bin/sh -c`, and stops them
//!   with SIGINT at the end;
//! - takes the players' `(init TEAM …)`, prints each as rcssserver does, and starts the right
//!   team once the left one is in (waiting five seconds at most, where rcssserver waits on);
//! - answers a monitor's `(dispinit …)` with a real capture of a match, from a port of its own;
//! - prints the end of the match and every player leaving after it, as a real server does (or
//!   what a real server printed for a real game, when told which), and writes a real game's
//!   log, its teams renamed to those that connected, under the name and in the folder it was
//!   told.
//!
//! Its own options, which a real server would refuse: `-server::stand_in_printed=FIXTURE`
//! (what to print, from `tests/fixtures/server-output/`), `stand_in_log=FIXTURE` (the game
//! log to write), `stand_in_seconds=S` (how long the game takes), `stand_in_exit=N` (end with
//! N, as a crashing server would) and `stand_in_hang=true` (never end).
//!
//! Run by `cargo test` (no options), it checks its reading of command lines and exits.

use pitchside_competitions::batch::as_rcssserver_reads;
use std::collections::HashMap;
use std::io::Write;
use std::net::UdpSocket;
use std::process::{Child, Command, ExitCode};
use std::time::{Duration, Instant};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    // Options hold `::` and `=`; what `cargo test` passes (a filter, `--nocapture`) does not.
    if !args.iter().any(|a| a.contains("::") && a.contains('=')) {
        check_reading();
        println!("stand-in rcssserver: its reading of command lines checked");
        return ExitCode::SUCCESS;
    }
    println!("rcssserver-19.0.0 (stand-in)\n");
    let line = as_rcssserver_reads(&args);
    let options = match parse(&line) {
        Ok(options) => options,
        Err(at) => {
            println!("cmd line args: 1: error: while parsing \"{at}\"");
            println!("cmd line args: 1: error: unknown parse error");
            return ExitCode::from(1);
        }
    };
    serve(&options)
}

/// `[-[-]]namespace::option=value` items separated by white space; a value is a plain word, a
/// `"…"` string (where `\"` is a quote) or a `'…'` string. `Err` holds the text where reading
/// stopped, as rcssserver quotes it.
fn parse(line: &str) -> Result<HashMap<String, String>, String> {
    let mut options = HashMap::new();
    let mut rest = line.trim_start();
    while !rest.is_empty() {
        let stop = |at: &str| at.chars().take(10).collect::<String>();
        let item = rest.trim_start_matches('-');
        let name_end = item
            .find(|c: char| c == '=' || c.is_whitespace() || c == '"' || c == '\'')
            .unwrap_or(item.len());
        let name = &item[..name_end];
        if !name.contains("::") || !item[name_end..].starts_with('=') {
            return Err(stop(rest));
        }
        let value_text = &item[name_end + 1..];
        let (value, after) = match value_text.chars().next() {
            Some(q @ ('"' | '\'')) => {
                let body = &value_text[1..];
                let mut value = String::new();
                let mut end = None;
                let mut chars = body.char_indices();
                while let Some((i, c)) = chars.next() {
                    if c == '\\' && body[i + 1..].starts_with(q) {
                        value.push(q);
                        chars.next();
                    } else if c == q {
                        end = Some(i + 1);
                        break;
                    } else {
                        value.push(c);
                    }
                }
                let Some(end) = end else {
                    return Err(stop(rest));
                };
                (value, &body[end..])
            }
            _ => {
                let end = value_text
                    .find(|c: char| c.is_whitespace() || c == '"' || c == '\'')
                    .unwrap_or(value_text.len());
                (value_text[..end].to_owned(), &value_text[end..])
            }
        };
        if !(after.is_empty() || after.starts_with(char::is_whitespace)) {
            return Err(stop(rest));
        }
        options.insert(name.to_owned(), value);
        rest = after.trim_start();
    }
    Ok(options)
}

fn check_reading() {
    let read = |args: &[&str]| {
        parse(&as_rcssserver_reads(
            &args.iter().map(|a| a.to_string()).collect::<Vec<_>>(),
        ))
    };
    let ok = read(&[
        "-server::port=6000",
        "--player::random_seed=7",
        "-server::team_l_start=\"./start_left",
        "localhost",
        "'/my",
        "team'",
        "6000\"",
    ]);
    let ok = ok.expect("autotest2d's way of writing a start command reads");
    assert_eq!(ok["server::port"], "6000");
    assert_eq!(ok["player::random_seed"], "7");
    assert_eq!(
        ok["server::team_l_start"],
        "./start_left localhost '/my team' 6000"
    );
    assert_eq!(
        read(&["-server::team_l_start=./start_left localhost 6000"]),
        Err("'-server::".to_owned()),
        "a start command in one argument is refused, as rcssserver 19 refused it"
    );
}

fn serve(options: &HashMap<String, String>) -> ExitCode {
    let get = |name: &str| options.get(name).map(String::as_str);
    let port = number(options, "server::port", 6000u16);
    let mut sockets = Vec::new();
    for name in ["server::port", "server::coach_port", "server::olcoach_port"] {
        let p = number(options, name, port);
        match UdpSocket::bind(("0.0.0.0", p)) {
            Ok(s) => sockets.push(s),
            Err(e) => {
                eprintln!("Error initializing sockets: port={p}. {e}");
                return ExitCode::from(1);
            }
        }
    }
    // A real rcssserver 19 built here made `~/.rcssserver/` in the folder it ran in, the
    // tilde unexpanded: write there as it does.
    // As it does, the folder is made only if it is not there, and a server that finds it made
    // in between by another (two servers starting at once) fails.
    let conf = std::path::Path::new("~/.rcssserver");
    let made = conf.exists()
        || (std::fs::create_dir_all("~").is_ok() && std::fs::create_dir(conf).is_ok());
    if !made || std::fs::write(conf.join("server.conf"), "# stand-in\n").is_err() {
        eprintln!("Could not read or create config directory {conf:?}");
        return ExitCode::from(1);
    }
    let player_socket = sockets.swap_remove(0);
    let (tell, inits) = std::sync::mpsc::channel();
    std::thread::spawn(move || listen(player_socket, tell));
    println!("Waiting for players to connect");
    // As rcssserver: the right team is started once the left one has connected.
    let mut connected = Connected::default();
    let mut teams: Vec<Child> = Vec::new();
    for (side, option) in ["server::team_l_start", "server::team_r_start"]
        .into_iter()
        .enumerate()
    {
        let Some(start) = get(option).filter(|s| !s.is_empty()) else {
            continue;
        };
        println!("Starting \"/bin/sh -c {start}\"");
        let _ = std::io::stdout().flush();
        match Command::new("/bin/sh").arg("-c").arg(start).spawn() {
            Ok(child) => teams.push(child),
            Err(e) => eprintln!("rcssserver-19.0.0: Error: Could not fork to start team: {e}"),
        }
        connected.wait(&inits, |c| c.full(side));
    }
    std::thread::sleep(Duration::from_secs_f64(number(
        options,
        "server::stand_in_seconds",
        0.5,
    )));
    match get("server::stand_in_printed") {
        Some(fixture) => {
            let printed = pitchside_fixtures::read(&format!("server-output/{fixture}"));
            for line in String::from_utf8_lossy(&printed).lines() {
                if !line.starts_with("Starting \"") {
                    println!("{line}");
                }
            }
        }
        None => {
            println!("Kick_off_left\nWaiting after end of match");
            for (team, n) in &connected.teams {
                for unum in 1..=*n {
                    println!("A player disconnected : ({team} {unum})");
                }
            }
        }
    }
    let names: Vec<&str> = connected.teams.iter().map(|(t, _)| t.as_str()).collect();
    if let Err(e) = write_logs(options, &names) {
        eprintln!("stand-in rcssserver: cannot write the logs: {e}");
        return ExitCode::from(1);
    }
    for team in &mut teams {
        let _ = Command::new("kill")
            .args(["-INT", &team.id().to_string()])
            .status();
        println!("Killing {}", team.id());
        let _ = team.wait();
    }
    let _ = std::io::stdout().flush();
    if get("server::stand_in_hang").is_some_and(|v| v == "true" || v == "1") {
        loop {
            std::thread::sleep(Duration::from_secs(1));
        }
    }
    ExitCode::from(number(options, "server::stand_in_exit", 0u8))
}

fn number<T: std::str::FromStr>(options: &HashMap<String, String>, name: &str, default: T) -> T {
    options
        .get(name)
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// A fixture's bytes, inflated as far as its gzip stream goes: a log of a server killed
/// mid-game stops mid-stream, and what it holds is the log cut short that a full disk leaves.
fn leniently_read(rel: &str) -> Vec<u8> {
    let raw = std::fs::read(pitchside_fixtures::path(rel)).unwrap_or_default();
    if !rel.ends_with(".gz") {
        return raw;
    }
    let mut out = Vec::new();
    let mut inflate = flate2::read::GzDecoder::new(&raw[..]);
    let mut buf = [0u8; 64 * 1024];
    while let Ok(n) = std::io::Read::read(&mut inflate, &mut buf) {
        match buf.get(..n) {
            Some(got) if n > 0 => out.extend_from_slice(got),
            _ => break,
        }
    }
    out
}

/// The game log (a real one, copied) and a text log, named as the runner told the server.
fn write_logs(options: &HashMap<String, String>, teams: &[&str]) -> std::io::Result<()> {
    let get = |name: &str, default: &str| options.get(name).cloned().unwrap_or(default.into());
    let on = |name: &str| matches!(get(name, "true").as_str(), "true" | "on" | "1");
    let gz = |name: &str| get(name, "0") != "0";
    if on("server::game_logging") {
        let log = get(
            "server::stand_in_log",
            "logs/short-v6/20261122132720-SHORT_L_a_0-vs-SHORT_R_a_1.rcg.gz",
        );
        let dir = get("server::game_log_dir", ".");
        let name = get("server::game_log_fixed_name", "rcssserver");
        // The real game, its teams renamed to those that connected (a text log names them
        // in its `team` lines and its result).
        let mut text = String::from_utf8_lossy(&leniently_read(&log)).into_owned();
        let was: Vec<String> = text
            .lines()
            .find(|l| l.starts_with("(team "))
            .map(|l| l.split(' ').skip(2).take(2).map(str::to_owned).collect())
            .unwrap_or_default();
        if let ([left, right], [was_left, was_right]) = (teams, was.as_slice()) {
            // Both at once: a swapped game gives each name the other's place.
            text = text
                .replace(was_left.as_str(), "\u{1}L\u{1}")
                .replace(was_right.as_str(), "\u{1}R\u{1}")
                .replace("\u{1}L\u{1}", left)
                .replace("\u{1}R\u{1}", right);
        }
        if gz("server::game_log_compression") {
            let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
            gz.write_all(text.as_bytes())?;
            std::fs::write(format!("{dir}/{name}.rcg.gz"), gz.finish()?)?;
        } else {
            std::fs::write(format!("{dir}/{name}.rcg"), text)?;
        }
    }
    if on("server::text_logging") {
        let dir = get("server::text_log_dir", ".");
        let name = get("server::text_log_fixed_name", "rcssserver");
        let mut text = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        text.write_all(b"ULG5\n(stand-in text log)\n")?;
        std::fs::write(format!("{dir}/{name}.rcl.gz"), text.finish()?)?;
    }
    Ok(())
}

/// What reaches the player port: a monitor's `(dispinit …)` gets the real capture of a match,
/// sent from a socket of its own as rcssserver answers a client from a port of its own; a
/// player's `(init TEAM …)` is passed on as the team's name. Bounded: one capture per
/// monitor, and the process ends with the game.
fn listen(socket: UdpSocket, players: std::sync::mpsc::Sender<String>) {
    let mut buf = [0u8; 8192];
    while let Ok((n, peer)) = socket.recv_from(&mut buf) {
        let text = String::from_utf8_lossy(&buf[..n]).into_owned();
        if let Some(rest) = text.strip_prefix("(init ") {
            let team = rest.split([' ', ')']).next().unwrap_or_default();
            if players.send(team.to_owned()).is_err() {
                return;
            }
            continue;
        }
        if !text.starts_with("(dispinit") {
            continue;
        }
        std::thread::spawn(move || {
            let Ok(own) = UdpSocket::bind("0.0.0.0:0") else {
                return;
            };
            let started = Instant::now();
            for d in pitchside_fixtures::capture("captures/F1/v5-clean.dgrams.gz") {
                if own.send_to(&d, peer).is_err() || started.elapsed() > Duration::from_secs(60) {
                    return;
                }
                std::thread::sleep(Duration::from_millis(5));
            }
        });
    }
}

/// The players who connected, team by team in the order they did, as rcssserver prints them.
#[derive(Default)]
struct Connected {
    teams: Vec<(String, u32)>,
}

impl Connected {
    /// Takes the inits that arrive until `done` holds or five seconds pass.
    fn wait(&mut self, inits: &std::sync::mpsc::Receiver<String>, done: impl Fn(&Self) -> bool) {
        let deadline = Instant::now() + Duration::from_secs(5);
        while !done(self) {
            let left = deadline.saturating_duration_since(Instant::now());
            let Ok(team) = inits.recv_timeout(left) else {
                return;
            };
            let unum = match self.teams.iter_mut().find(|(t, _)| *t == team) {
                Some((_, n)) => {
                    *n += 1;
                    *n
                }
                None => {
                    self.teams.push((team.clone(), 1));
                    1
                }
            };
            println!("A new (v18) player ({team} {unum}) connected.");
        }
    }

    fn full(&self, side: usize) -> bool {
        self.teams.get(side).is_some_and(|(_, n)| *n >= 11)
    }
}
