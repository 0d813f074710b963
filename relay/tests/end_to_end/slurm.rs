//! `pitchside-play` on a Slurm cluster: a one-node cluster of the test's own (Debian's
//! `slurm-wlm` and `munge`, installed by `scripts/install-tools.sh --slurm`), started here as
//! the NATS tests start their server: its own munge key and socket, its own configuration,
//! ports, state and logs in a scratch folder, nothing of the machine's touched, and stopped
//! when the test ends. On it, a batch is submitted as a job array (`--sbatch`) and a
//! tournament plays each game as a job step (`--launcher srun`), both with the stand-in
//! rcssserver of `play`'s tests.
//!
//! slurmd starts jobs as their users, so it runs as root: where the tests do not, the test
//! says so and checks nothing.

use crate::common::{fixture, free_port, scratch, signal, wait_until};
use crate::play::{script, stand_in, team};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A Debian program that may be outside a user's PATH (`/usr/sbin`).
fn program(name: &str) -> PathBuf {
    let on_path = std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|d| d.join(name))
            .find(|p| p.is_file())
    });
    on_path
        .or_else(|| Some(Path::new("/usr/sbin").join(name)).filter(|p| p.is_file()))
        .unwrap_or_else(|| {
            panic!(
                "{name} is not installed: run `bash scripts/install-tools.sh --slurm` \
                 (Debian's slurm-wlm and munge)"
            )
        })
}

/// A one-node Slurm cluster of the test's own, stopped when dropped.
struct Cluster {
    dir: PathBuf,
    daemons: Vec<Child>,
}

impl Cluster {
    fn start() -> Cluster {
        let dir = scratch("slurm");
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o700)).unwrap();
        for sub in ["ctld", "d"] {
            std::fs::create_dir_all(dir.join(sub)).unwrap();
        }
        // munge: a key of the test's own, a daemon on a socket of its own.
        let key: Vec<u8> = (0..1024u32)
            .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
            .collect();
        std::fs::write(dir.join("munge.key"), key).unwrap();
        std::fs::set_permissions(
            dir.join("munge.key"),
            std::fs::Permissions::from_mode(0o400),
        )
        .unwrap();
        let socket = dir.join("munge.sock");
        let munged = Command::new(program("munged"))
            .arg(format!("--socket={}", socket.display()))
            .arg(format!("--key-file={}", dir.join("munge.key").display()))
            .arg(format!("--pid-file={}", dir.join("munged.pid").display()))
            .arg(format!("--log-file={}", dir.join("munged.log").display()))
            .arg(format!("--seed-file={}", dir.join("munge.seed").display()))
            .args(["--force", "--foreground"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start munged");
        let host = String::from_utf8(
            Command::new("hostname")
                .arg("-s")
                .output()
                .expect("hostname")
                .stdout,
        )
        .unwrap()
        .trim()
        .to_owned();
        let cpus = std::thread::available_parallelism().map_or(1, |n| n.get());
        let d = dir.display();
        let conf = format!(
            "ClusterName=pitchside\n\
             SlurmctldHost={host}(127.0.0.1)\n\
             SlurmUser=root\nSlurmdUser=root\n\
             AuthType=auth/munge\nCredType=cred/munge\nAuthInfo=socket={socket}\n\
             MpiDefault=none\nMailProg=/bin/true\n\
             ProctrackType=proctrack/linuxproc\nTaskPlugin=task/none\n\
             JobAcctGatherType=jobacct_gather/none\n\
             AccountingStorageType=accounting_storage/none\nJobCompType=jobcomp/none\n\
             SchedulerType=sched/backfill\n\
             SelectType=select/cons_tres\nSelectTypeParameters=CR_Core\n\
             ReturnToService=2\n\
             SlurmctldPort={ctld_port}\nSlurmdPort={d_port}\n\
             StateSaveLocation={d}/ctld\nSlurmdSpoolDir={d}/d\n\
             SlurmctldPidFile={d}/slurmctld.pid\nSlurmdPidFile={d}/slurmd.pid\n\
             SlurmctldLogFile={d}/slurmctld.log\nSlurmdLogFile={d}/slurmd.log\n\
             NodeName={host} NodeAddr=127.0.0.1 CPUs={cpus} State=UNKNOWN\n\
             PartitionName=games Nodes=ALL Default=YES MaxTime=INFINITE State=UP\n",
            socket = socket.display(),
            ctld_port = free_port(),
            d_port = free_port(),
        );
        std::fs::write(dir.join("slurm.conf"), conf).unwrap();
        let mut cluster = Cluster {
            dir,
            daemons: vec![munged],
        };
        let started = Instant::now();
        while !socket.exists() && started.elapsed().as_secs() < 10 {
            std::thread::sleep(Duration::from_millis(50));
        }
        let conf = cluster.dir.join("slurm.conf");
        for (daemon, extra) in [
            ("slurmctld", vec![]),
            ("slurmd", vec!["-N".to_owned(), host]),
        ] {
            let child = Command::new(program(daemon))
                .arg("-D")
                .arg("-f")
                .arg(&conf)
                .args(extra)
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .unwrap_or_else(|e| panic!("start {daemon}: {e}"));
            cluster.daemons.push(child);
        }
        // Up once its node is idle (60 s at most; the daemons' logs say why if not).
        let started = Instant::now();
        loop {
            let state = cluster
                .command("sinfo")
                .args(["-h", "-o", "%T"])
                .output()
                .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_owned())
                .unwrap_or_default();
            if state == "idle" {
                break;
            }
            if started.elapsed().as_secs() > 60 {
                let log =
                    |f: &str| std::fs::read_to_string(cluster.dir.join(f)).unwrap_or_default();
                panic!(
                    "the test's Slurm cluster did not come up (node {state:?}):\n{}\n{}",
                    log("slurmctld.log"),
                    log("slurmd.log")
                );
            }
            std::thread::sleep(Duration::from_millis(200));
        }
        cluster
    }

    /// A Slurm command talking to this cluster.
    fn command(&self, name: &str) -> Command {
        let mut c = Command::new(program(name));
        c.env("SLURM_CONF", self.dir.join("slurm.conf"));
        c
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        let _ = self.command("scancel").args(["--user", "root"]).status();
        for d in self.daemons.iter_mut().rev() {
            let _ = d.kill();
            let _ = d.wait();
        }
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// `pitchside-play` with the stand-in server and the two scripts of `dir`: a batch, for the
/// test to add its options to.
fn batch(dir: &Path) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_pitchside-play"));
    c.arg("--server")
        .arg(stand_in())
        .arg("--team")
        .arg(dir.join("start_left"))
        .arg("--opponent")
        .arg(dir.join("start_right"));
    c
}

fn is_root() -> bool {
    rustix::process::geteuid().is_root()
}

/// The names of the files in `dir` ending in `ext`, sorted.
fn files(dir: &Path, ext: &str) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .map(|d| {
            d.filter_map(|e| e.ok()?.file_name().into_string().ok())
                .filter(|n| n.ends_with(ext))
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    names
}

#[test]
fn a_batch_and_a_tournament_are_played_on_a_slurm_cluster() {
    if !is_root() {
        eprintln!("the Slurm test starts slurmd, which needs root: not run");
        return;
    }
    let cluster = Cluster::start();
    let dir = scratch("slurm-games");
    // Teams whose leftover processes are told apart from other tests' (sleep 615).
    script(&dir, "start_left", &team("SHORT_L_a", 615));
    script(&dir, "start_right", &team("SHORT_R_a", 615));

    // A batch of three games, two at a time, as a job array of three tasks.
    let sbatch = batch(&dir)
        .args(["--games", "3", "--parallel", "2", "--swap-every", "2"])
        .args(["--first-port", "23100", "--out"])
        .arg(dir.join("night"))
        .arg("--sbatch")
        .output()
        .expect("run pitchside-play --sbatch");
    assert!(
        sbatch.status.success(),
        "{}",
        String::from_utf8_lossy(&sbatch.stderr)
    );
    std::fs::write(dir.join("night.sh"), &sbatch.stdout).unwrap();
    let sent = cluster
        .command("timeout")
        .args(["300", "sbatch", "--wait", "--quiet"])
        .arg(dir.join("night.sh"))
        .status();
    let night = dir.join("night");
    let said = files(&night, ".txt")
        .iter()
        .map(|f| std::fs::read_to_string(night.join(f)).unwrap_or_default())
        .collect::<String>();
    assert!(
        sent.is_ok_and(|s| s.success()),
        "the job array failed: {said}"
    );
    assert_eq!(files(&night, ".done").len(), 3, "{said}");
    assert_eq!(files(&night, ".txt").len(), 3, "each task's output kept");
    assert!(said.contains("game 2 played"), "{said}");

    // A tournament (the spring cup: a group of four, semi-finals, a final) on two fields,
    // each game's server a job step that srun starts on the cluster's node.
    let teams = ["ALPHA", "BRAVO", "CHARLIE", "DELTA"];
    for t in teams {
        script(&dir, &format!("start_{t}"), &team(t, 615));
    }
    let spring = std::fs::read_to_string(fixture("tournaments/spring.toml")).unwrap();
    let starts: String = teams
        .iter()
        .map(|t| format!("{t} = \"start_{t}\"\n"))
        .collect();
    std::fs::write(dir.join("cup.toml"), format!("{spring}\n[start]\n{starts}")).unwrap();
    let srun = program("srun");
    let cup = Command::new(env!("CARGO_BIN_EXE_pitchside-play"))
        .env("SLURM_CONF", cluster.dir.join("slurm.conf"))
        .arg("--server")
        .arg(stand_in())
        .arg("--tournament")
        .arg(dir.join("cup.toml"))
        .args(["--parallel", "2", "--first-port", "23300", "--out"])
        .arg(dir.join("cup"))
        .arg("--launcher")
        .arg(format!("{} --nodes=1 --ntasks=1 --quiet", srun.display()))
        .output()
        .expect("run pitchside-play --tournament");
    let said = String::from_utf8_lossy(&cup.stdout);
    assert_eq!(
        cup.status.code(),
        Some(0),
        "{said}{}",
        String::from_utf8_lossy(&cup.stderr)
    );
    assert!(said.contains("9 of 9 games played"), "{said}");
    assert_eq!(files(&dir.join("cup"), ".rcg.gz").len(), 9);
    assert!(!leftover(), "a team outlived its game");

    // A batch whose game never ends, each game a job step, stopped with SIGTERM: srun cancels
    // the step, and the teams (whose start scripts have ended, out of the step's process
    // tree) go with it.
    let mut hung = batch(&dir)
        .env("SLURM_CONF", cluster.dir.join("slurm.conf"))
        .args(["--games", "2", "--first-port", "23500", "--out"])
        .arg(dir.join("hung"))
        .arg("--launcher")
        .arg(format!("{} --nodes=1 --ntasks=1 --quiet", srun.display()))
        .args(["--", "-server::stand_in_hang=1"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("run pitchside-play");
    assert!(wait_until(30, leftover), "the hung game's teams started");
    signal(hung.id(), "TERM");
    assert_eq!(
        hung.wait().expect("wait for pitchside-play").code(),
        Some(130)
    );
    let gone = wait_until(10, || !leftover());
    assert!(gone, "a team outlived its stopped game");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Whether a process the test's teams leave behind (`sleep 615`) runs.
fn leftover() -> bool {
    let left = Command::new("pgrep").args(["-f", "sleep 615"]).output();
    left.is_ok_and(|o| o.status.success())
}
