//! `pitchside-play` against a stand-in rcssserver (`relay/tests/stand_in_rcssserver.rs`):
//! it reads its options as rcssserver 19 does, binds the ports, starts the two teams' commands
//! through the shell as `team_l_start`/`team_r_start`, prints what a real server printed and
//! writes a real fixture log under the name it was given. The teams' scripts note the
//! arguments they got, so the test sees what a team's `start_left` would.

use crate::common::{fixture, scratch, signal, wait_until};
use std::path::{Path, PathBuf};
use std::process::Command;

/// The stand-in rcssserver (`relay/tests/stand_in_rcssserver.rs`), a test program of this
/// package built beside this one: the newest, should an older build still lie there.
pub fn stand_in() -> PathBuf {
    let exe = std::env::current_exe().expect("this test program");
    let deps = exe.parent().expect("the folder of the test programs");
    std::fs::read_dir(deps)
        .expect("the folder of the test programs")
        .filter_map(Result::ok)
        .filter(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            name.starts_with("stand_in_rcssserver-") && !name.contains('.')
        })
        .max_by_key(|e| e.metadata().and_then(|m| m.modified()).ok())
        .map(|e| e.path())
        .expect("the stand-in rcssserver: cargo test -p pitchside-relay --test stand_in_rcssserver")
}

/// A team's start script: notes who it is and its arguments, connects eleven players named
/// NAME to the server's player port (its third argument) as helios-base's do, with
/// `(init NAME …)`, and leaves a process behind (a sleep, of a length each test has to
/// itself, that would outlive the game if the runner did not stop the game's processes).
const TEAM: &str = r#"#!/bin/bash
echo "$(basename "$0") $*" >> "$(dirname "$0")/started.txt"
exec 3>/dev/udp/127.0.0.1/"$3"
for i in 1 2 3 4 5 6 7 8 9 10 11; do printf '(init NAME (version 18))' >&3; done
sleep SECONDS &
"#;

/// The start script of team `name`.
pub fn team(name: &str, seconds: u32) -> String {
    TEAM.replace("NAME", name)
        .replace("SECONDS", &seconds.to_string())
}

pub fn script(dir: &Path, name: &str, text: &str) -> PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let path = dir.join(name);
    std::fs::write(&path, text).expect("write a script");
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755))
        .expect("make a script runnable");
    path
}

struct Night {
    dir: PathBuf,
    out: PathBuf,
    /// The first field's player port: each test has its own, as the stand-in binds them.
    first_port: u16,
    /// What the teams' leftover process runs: `sleep 601`, `sleep 602`, …
    leftover: String,
}

impl Night {
    fn new(name: &str, seconds: u32, first_port: u16) -> Night {
        let dir = scratch(name);
        // The teams of the game the stand-in's log holds, so that its log is that game.
        script(&dir, "start_left", &team("SHORT_L_a", seconds));
        script(&dir, "start_right", &team("SHORT_R_a", seconds));
        let out = dir.join("night");
        let leftover = format!("sleep {seconds}");
        Night {
            dir,
            out,
            first_port,
            leftover,
        }
    }

    /// `pitchside-play` with the stand-in server and the two scripts, and `args`.
    fn play(&self, args: &[&str]) -> std::process::Output {
        self.command(args).output().expect("run pitchside-play")
    }

    fn command(&self, args: &[&str]) -> Command {
        let mut command = Command::new(env!("CARGO_BIN_EXE_pitchside-play"));
        command
            .arg("--server")
            .arg(stand_in())
            .arg("--team")
            .arg(self.dir.join("start_left"))
            .arg("--opponent")
            .arg(self.dir.join("start_right"))
            .arg("--out")
            .arg(&self.out)
            .args(["--first-port", &self.first_port.to_string()])
            .args(args);
        command
    }

    fn started(&self) -> Vec<String> {
        let text = std::fs::read_to_string(self.dir.join("started.txt")).unwrap_or_default();
        let mut lines: Vec<String> = text.lines().map(str::to_owned).collect();
        lines.sort();
        lines
    }

    fn files(&self, ext: &str) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(&self.out)
            .expect("the batch's folder")
            .filter_map(|e| e.ok()?.file_name().into_string().ok())
            .filter(|n| n.ends_with(ext))
            .collect();
        names.sort();
        names
    }

    /// Whether a process the teams left behind still runs.
    fn leftovers(&self) -> bool {
        let out = Command::new("pgrep").args(["-f", &self.leftover]).output();
        out.is_ok_and(|o| o.status.success())
    }
}

impl Drop for Night {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

#[test]
fn a_batch_plays_every_game_with_autotest2d_s_arguments_and_goes_on_where_it_stopped() {
    let night = Night::new("play-batch", 601, 16000);
    let out = night.play(&["--games", "3", "--parallel", "2", "--swap-every", "2"]);
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{said}");
    assert_eq!(
        night.files(".rcg.gz"),
        ["game-0001.rcg.gz", "game-0002.rcg.gz", "game-0003.rcg.gz"]
    );
    assert_eq!(night.files(".rcl.gz").len(), 3);
    assert_eq!(night.files(".done").len(), 3);
    // Each game started both teams with the host, the server's host and its field's ports;
    // the fields are 16000 and 17000, whichever took which game.
    let started = night.started();
    assert_eq!(started.len(), 6, "{started:?}");
    for line in &started {
        let ok = ["16000 16001 16002", "17000 17001 17002"]
            .iter()
            .any(|ports| line.ends_with(&format!("localhost localhost {ports}")));
        assert!(ok, "{line}");
    }
    // Game 2 has the sides swapped: the opponent's script on the left, started first.
    let printed = std::fs::read_to_string(night.out.join("game-0002.out")).unwrap();
    let left = printed
        .lines()
        .find(|l| l.starts_with("Starting "))
        .unwrap_or_default();
    assert!(left.contains("/start_right localhost"), "{printed}");
    // The logs are the real game, whole, with its teams on the sides they played.
    let read = |path: &Path| {
        let mut text = Vec::new();
        let file = std::fs::File::open(path).unwrap();
        std::io::Read::read_to_end(&mut flate2::read::GzDecoder::new(file), &mut text).unwrap();
        text
    };
    let real = read(&fixture(
        "logs/short-v6/20261122132720-SHORT_L_a_0-vs-SHORT_R_a_1.rcg.gz",
    ));
    assert!(read(&night.out.join("game-0003.rcg.gz")) == real);
    let swapped = String::from_utf8(read(&night.out.join("game-0002.rcg.gz"))).unwrap();
    assert!(swapped.contains("\n(team 1 SHORT_R_a SHORT_L_a 0 0)\n"));
    assert!(!night.leftovers(), "a team's process outlived its game");
    // The run's status, as the series page reads it: over, every game played.
    let run: serde_json::Value =
        serde_json::from_slice(&std::fs::read(night.out.join("pitchside-play.json")).unwrap())
            .unwrap();
    assert_eq!(run["format"], "pitchside.play.v1");
    assert_eq!(
        (&run["games"], &run["played"], &run["running"]),
        (&3.into(), &3.into(), &false.into())
    );
    // The servers ran in the batch's folder: what they wrote where they ran is there.
    assert!(night.out.join("~/.rcssserver/server.conf").is_file());

    // A folder with games is not played over by mistake.
    let again = night.play(&["--games", "5", "--parallel", "2"]);
    assert_eq!(again.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&again.stderr).contains("--continue"));
    // Continued, only the games it lacks are played.
    std::fs::remove_file(night.dir.join("started.txt")).unwrap();
    let more = night.play(&["--games", "5", "--parallel", "2", "--continue"]);
    assert!(
        more.status.success(),
        "{}",
        String::from_utf8_lossy(&more.stderr)
    );
    assert_eq!(night.started().len(), 4, "two games, two teams each");
    assert_eq!(night.files(".done").len(), 5);
    let said = String::from_utf8_lossy(&more.stdout);
    assert!(said.contains("5 played, 0 invalid, 0 left"), "{said}");
}

#[test]
fn a_missing_server_or_script_is_said_before_anything_starts() {
    let night = Night::new("play-missing", 605, 23000);
    let run = |server: &Path, team: &Path| {
        Command::new(env!("CARGO_BIN_EXE_pitchside-play"))
            .arg("--server")
            .arg(server)
            .arg("--team")
            .arg(team)
            .arg("--opponent")
            .arg(night.dir.join("start_right"))
            .args(["--games", "1", "--out"])
            .arg(&night.out)
            .output()
            .expect("run pitchside-play")
    };
    let team = night.dir.join("start_left");
    let out = run(Path::new("no-such-rcssserver"), &team);
    assert_eq!(out.status.code(), Some(2));
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(said.contains("no program no-such-rcssserver"), "{said}");
    assert!(!night.out.join("game-0001.out").exists());
    let out = run(&stand_in(), Path::new("/no/such/start_left"));
    assert_eq!(out.status.code(), Some(2));
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(
        said.contains("the start script /no/such/start_left"),
        "{said}"
    );
}

#[test]
fn a_game_that_goes_wrong_is_marked_invalid_with_why_and_the_batch_goes_on() {
    let night = Night::new("play-faults", 602, 18000);
    let out = night.play(&["--games", "2", "--", "-server::stand_in_exit=3"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(night.files(".invalid").len(), 2, "both games were played");
    let why = std::fs::read_to_string(night.out.join("game-0001.invalid")).unwrap();
    assert!(why.contains("exit status: 3"), "{why}");
    assert!(!night.leftovers());

    // A server that never ends is stopped at the time limit, its teams with it.
    let hung = Night::new("play-hang", 603, 19000);
    let out = hung.play(&[
        "--games",
        "1",
        "--time-limit",
        "2",
        "--",
        "-server::stand_in_hang=1",
    ]);
    assert_eq!(out.status.code(), Some(1));
    let why = std::fs::read_to_string(hung.out.join("game-0001.invalid")).unwrap();
    assert!(why.contains("longer than 2 s"), "{why}");
    assert!(
        !hung.leftovers(),
        "the hung game's processes were all stopped"
    );
}

#[test]
fn sigterm_stops_the_batch_and_every_process_of_it() {
    let night = Night::new("play-stop", 604, 20000);
    let mut batch = night
        .command(&["--games", "3", "--", "-server::stand_in_hang=1"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("run pitchside-play");
    // Wait (at most 20 s) for the first game's teams to have started.
    wait_until(20, || night.started().len() >= 2);
    assert_eq!(night.started().len(), 2, "the first game began");
    signal(batch.id(), "TERM");
    let status = batch.wait().expect("wait for pitchside-play");
    assert_eq!(status.code(), Some(130));
    let why = std::fs::read_to_string(night.out.join("game-0001.invalid")).unwrap();
    assert!(why.contains("stopped"), "{why}");
    assert!(
        night.files(".out").len() == 1,
        "no game began after the stop"
    );
    assert!(!night.leftovers());
}

/// SIGUSR1 pauses a batch: the game under way is played to its end, no other starts, and the
/// run ends as asked (exit code 0); continued, it plays the rest.
#[test]
fn sigusr1_pauses_the_batch_after_the_games_under_way() {
    let night = Night::new("play-pause", 612, 22500);
    let paused = night
        .command(&["--games", "3", "--", "-server::stand_in_seconds=2"])
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("run pitchside-play");
    wait_until(20, || night.started().len() >= 2);
    signal(paused.id(), "USR1");
    let out = paused.wait_with_output().expect("wait for pitchside-play");
    let said = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{said}");
    assert!(
        said.contains("1 played, 0 invalid, 2 left (3 games in") && said.contains("paused"),
        "{said}"
    );
    assert_eq!(night.files(".done"), ["game-0001.done"]);
    let rest = night.play(&["--games", "3", "--continue"]);
    assert!(rest.status.success());
    assert_eq!(night.files(".done").len(), 3);
    assert!(!night.leftovers());
}

/// A game the server played to its end but a player left early (the real output of a game in
/// which a player process was killed) is marked invalid with why.
#[test]
fn a_killed_player_makes_a_game_invalid() {
    let night = Night::new("play-killed", 606, 21000);
    let out = night.play(&[
        "--games",
        "2",
        "--",
        "-server::stand_in_printed=player-killed.out.gz",
    ]);
    assert_eq!(out.status.code(), Some(1));
    let why = std::fs::read_to_string(night.out.join("game-0002.invalid")).unwrap();
    assert_eq!(
        why,
        "player HELIOS_B 6 left before the end (a crashed or killed player, or a red card)\n"
    );
    assert!(night.files(".done").is_empty());

    // A server that played to its end but left its log cut short, as a full disk leaves it
    // (a real log of a server killed mid-game): no result, and said so.
    let cut = Night::new("play-cut", 614, 22900);
    let out = cut.play(&[
        "--games",
        "1",
        "--",
        "-server::stand_in_log=series/invalid/killed-server-1.rcg.gz",
    ]);
    assert_eq!(out.status.code(), Some(1));
    let why = std::fs::read_to_string(cut.out.join("game-0001.invalid")).unwrap();
    assert!(
        why.starts_with("the game log is not whole (the log stops at cycle "),
        "{why}"
    );
    assert!(why.ends_with("): a full disk?\n"), "{why}");
}

/// A field whose port another program holds plays on the next free ports above it, and its
/// teams are told those; a game that went wrong is played again when asked, and its failed
/// attempt kept beside it under another name that nothing counts.
#[test]
fn a_port_in_use_moves_the_game_up_and_a_failed_game_is_played_again_when_asked() {
    let busy = Night::new("play-busy", 607, 22000);
    let holder = std::net::UdpSocket::bind("0.0.0.0:22001").expect("hold the coach port");
    let out = busy.play(&["--games", "1"]);
    drop(holder);
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{said}");
    assert_eq!(busy.files(".done"), ["game-0001.done"]);
    let started = busy.started();
    assert_eq!(started.len(), 2, "{started:?}");
    assert!(started
        .iter()
        .all(|l| l.ends_with("localhost localhost 22003 22004 22005")));
    let printed = std::fs::read_to_string(busy.out.join("game-0001.out")).unwrap();
    assert!(
        printed.starts_with(
            "pitchside-play: ports 22003, 22004 and 22005 (the field's 22000 are taken)\n"
        ),
        "{printed}"
    );

    // A server that fails twice: played once and again, both attempts kept with why.
    let again = Night::new("play-retry", 609, 22100);
    let out = again.play(&[
        "--games",
        "1",
        "--retry",
        "1",
        "--",
        "-server::stand_in_exit=3",
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(again.started().len(), 4, "two attempts, two teams each");
    // The first attempt set aside, its logs renamed so that no series counts them.
    assert_eq!(
        again.files(".invalid"),
        [
            "game-0001.invalid",
            "game-0001.try-1.invalid",
            "game-0001.try-1.rcg.gz.invalid",
            "game-0001.try-1.rcl.gz.invalid"
        ]
    );
    // Continued (the server fixed), the game is played; its failed attempts stay aside.
    let out = again.play(&["--games", "1", "--continue"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(again.files(".done"), ["game-0001.done"]);
    assert_eq!(again.files("try-2.invalid"), ["game-0001.try-2.invalid"]);
    assert_eq!(again.files(".invalid").len(), 6, "{:?}", again.files(""));
    assert_eq!(again.files(".rcg.gz"), ["game-0001.rcg.gz"]);
}

/// The teams' limits, their user and their own folder, as a team's script sees them: it
/// prints its address-space and process limits, who it runs as and where, and writes a file
/// where it runs. As root the teams run as `nobody`; otherwise the user part is left out
/// (only root can start a program as another user) and the test says so.
#[test]
fn the_teams_run_under_their_limits_in_a_folder_of_their_own() {
    let night = Night::new("play-limits", 610, 22200);
    let report = "echo \"team $(ulimit -v) $(ulimit -u) $(id -un) $(pwd)\"\n: > own-log.txt\n";
    for (side, name) in [("start_left", "SHORT_L_a"), ("start_right", "SHORT_R_a")] {
        script(&night.dir, side, &format!("{}{report}", team(name, 610)));
    }
    let root = rustix::process::geteuid().is_root();
    let user = if root {
        // nobody must reach the scripts: the scratch folder is the test's own.
        use std::os::unix::fs::PermissionsExt;
        let open = std::fs::Permissions::from_mode(0o755);
        std::fs::set_permissions(&night.dir, open).expect("open the scratch folder");
        "nobody"
    } else {
        eprintln!("not root: the teams run as this user, without --user");
        ""
    };
    let mut args = vec!["--games", "1", "--team-logs", "--memory-limit", "768"];
    args.extend(["--process-limit", "4000"]);
    if root {
        args.extend(["--user", user]);
    }
    let out = night.play(&args);
    let printed = std::fs::read_to_string(night.out.join("game-0001.out")).unwrap_or_default();
    assert!(
        out.status.success(),
        "{}{printed}",
        String::from_utf8_lossy(&out.stderr)
    );
    let own = night.out.join("game-0001.teams");
    let lines: Vec<&str> = printed.lines().filter(|l| l.starts_with("team ")).collect();
    assert_eq!(lines.len(), 2, "{printed}");
    let whoami = if root {
        user.to_owned()
    } else {
        String::from_utf8_lossy(&Command::new("id").arg("-un").output().unwrap().stdout)
            .trim()
            .to_owned()
    };
    for line in lines {
        assert_eq!(
            line,
            format!("team {} 4000 {whoami} {}", 768 * 1024, own.display())
        );
    }
    assert!(
        own.join("own-log.txt").is_file(),
        "the teams wrote in their folder"
    );
    assert!(!night.leftovers());
}

/// `--sbatch` writes a Slurm job array whose task K plays game K into the batch's folder.
/// Where a Slurm cluster answers (`sinfo`) and `PITCHSIDE_TEST_SLURM=1` asks for it, the
/// script is submitted to it and the test waits for the job (at most five minutes);
/// elsewhere (CI) each task's line is run as Slurm would run it, one after another.
#[test]
fn sbatch_plays_the_batch_as_a_job_array() {
    let night = Night::new("play-sbatch", 611, 22300);
    let out = night.play(&[
        "--games",
        "3",
        "--parallel",
        "2",
        "--swap-every",
        "2",
        "--sbatch",
    ]);
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(text.starts_with("#!/bin/sh\n"), "{text}");
    assert!(text.contains("\n#SBATCH --array=1-3%2\n"), "{text}");
    assert!(
        text.contains("--continue --only-game \"$SLURM_ARRAY_TASK_ID\""),
        "{text}"
    );
    assert!(night.files(".out").is_empty(), "nothing was played");
    let file = night.dir.join("night.sbatch");
    std::fs::write(&file, &text).unwrap();
    let slurm = std::env::var("PITCHSIDE_TEST_SLURM").is_ok_and(|v| v == "1")
        && Command::new("sinfo")
            .output()
            .is_ok_and(|o| o.status.success());
    if slurm {
        let sent = Command::new("timeout")
            .args(["300", "sbatch", "--wait", "--quiet"])
            .arg(&file)
            .status()
            .expect("run sbatch");
        assert!(sent.success(), "the job array ended with {sent}");
    } else {
        for k in 1..=3 {
            let task = Command::new("sh")
                .arg(&file)
                .env("SLURM_ARRAY_TASK_ID", k.to_string())
                .output()
                .expect("run a task");
            assert!(
                task.status.success(),
                "{}",
                String::from_utf8_lossy(&task.stderr)
            );
        }
    }
    assert_eq!(night.files(".done").len(), 3);
    // Game 2 had the sides swapped, as in a batch played on one machine.
    let printed = std::fs::read_to_string(night.out.join("game-0002.out")).unwrap();
    let left = printed
        .lines()
        .find(|l| l.starts_with("Starting "))
        .unwrap_or_default();
    assert!(left.contains("/start_right localhost"), "{printed}");
    // Run again, every task finds its game played and ends at once.
    let again = Command::new("sh")
        .arg(&file)
        .env("SLURM_ARRAY_TASK_ID", "2")
        .output()
        .expect("run a task again");
    assert!(String::from_utf8_lossy(&again.stdout).contains("game 2 is played already"));
    assert!(!night.leftovers());
}

/// `pitchside-play --tournament` with the stand-in server, on the spring cup (a group of four,
/// semi-finals and a final) over two fields. A team whose script connects it under another
/// name makes each of its games invalid and the rest waits; invalid games are not played
/// again unless asked; SIGUSR1 pauses the tournament after the round under way; continued, it
/// plays to the end, the final between the semi-finals' winners.
#[test]
fn a_tournament_is_played_round_by_round_and_its_invalid_games_again_when_asked() {
    let dir = scratch("play-cup");
    let teams = ["ALPHA", "BRAVO", "CHARLIE", "DELTA"];
    for t in teams {
        // DELTA's script first connects it as DELTA_X.
        let name = if t == "DELTA" { "DELTA_X" } else { t };
        script(&dir, &format!("start_{t}"), &team(name, 608));
    }
    let spring = std::fs::read_to_string(fixture("tournaments/spring.toml")).unwrap();
    let starts: String = teams
        .iter()
        .map(|t| format!("{t} = \"start_{t}\"\n"))
        .collect();
    std::fs::write(dir.join("cup.toml"), format!("{spring}\n[start]\n{starts}")).unwrap();
    let command = |more: &[&str]| {
        let mut c = Command::new(env!("CARGO_BIN_EXE_pitchside-play"));
        c.arg("--server")
            .arg(stand_in())
            .arg("--tournament")
            .arg(dir.join("cup.toml"))
            .args(["--parallel", "2", "--first-port", "24000", "--out"])
            .arg(dir.join("games"))
            .args(more);
        c
    };
    let run = |more: &[&str]| {
        let out = command(more).output().expect("run pitchside-play");
        let said = String::from_utf8_lossy(&out.stdout).into_owned();
        (out.status.code(), said)
    };
    let (code, said) = run(&[]);
    assert_eq!(code, Some(1), "{said}");
    assert!(
        said.contains("3 of 9 games played, 3 invalid in this run"),
        "{said}"
    );
    assert!(said.contains("the rest waits on invalid games"), "{said}");
    assert_eq!(
        said.matches("the teams connected as").count(),
        3,
        "DELTA's three games: {said}"
    );
    let games = dir.join("games");
    let names = |ext: &str| -> Vec<String> {
        let mut n: Vec<String> = std::fs::read_dir(&games)
            .unwrap()
            .filter_map(|e| e.ok()?.file_name().into_string().ok())
            .filter(|n| n.ends_with(ext))
            .collect();
        n.sort();
        n
    };
    assert_eq!(
        names(".rcg.gz.invalid").len(),
        3,
        "kept, and counted by nothing"
    );

    // DELTA's script fixed: continued without asking, its games are not played again.
    script(&dir, "start_DELTA", &team("DELTA", 608));
    let (code, said) = run(&["--continue"]);
    assert_eq!(code, Some(1), "{said}");
    assert!(said.contains("3 of 9 games played, 0 invalid"), "{said}");

    // Asked, they are; SIGUSR1 during the first round pauses the tournament after it.
    let paused = command(&["--continue", "--replay-invalid"])
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("run pitchside-play");
    wait_until(20, || names(".out").len() >= 7);
    signal(paused.id(), "USR1");
    let out = paused.wait_with_output().expect("wait for pitchside-play");
    let said = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{said}");
    assert!(said.contains("4 of 9 games played"), "{said}");
    assert!(said.contains("paused: --continue to go on"), "{said}");

    let (code, said) = run(&["--continue", "--replay-invalid"]);
    assert_eq!(code, Some(0), "{said}");
    assert!(
        said.contains("9 of 9 games played, 0 invalid in this run"),
        "{said}"
    );
    assert!(said.contains("the tournament is over"), "{said}");
    // The stand-in's game is won by its right team: the final is between the semi-finals'
    // right teams, and the tournament's page reads the folder as the runner did.
    let out = Command::new(env!("CARGO_BIN_EXE_pitchside-inspect"))
        .arg("tournament")
        .arg(dir.join("cup.toml"))
        .arg(&games)
        .arg("--json")
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["played"], 9);
    let ties = |round: usize| v["knockout"][round]["ties"].as_array().unwrap().clone();
    let semi_winners: Vec<String> = ties(0)
        .iter()
        .map(|t| t["winner"].as_str().unwrap().to_owned())
        .collect();
    let right_teams: Vec<String> = ties(0)
        .iter()
        .map(|t| t["right"]["team"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(semi_winners, right_teams);
    let last = &ties(1)[0];
    assert_eq!(
        last["left"]["team"].as_str(),
        Some(semi_winners[0].as_str())
    );
    assert_eq!(
        last["right"]["team"].as_str(),
        Some(semi_winners[1].as_str())
    );
    let _ = std::fs::remove_dir_all(&dir);
}
