//! How a team's processes start: under the run's memory and process-count limits and, when one
//! is named, as another user. The server starts the teams itself (`server::team_l_start`), so
//! the runner gives it, instead of a team's own script, a small start script of its own in
//! the run's folder that sets the limits with `prlimit` and drops to the user with `setpriv`
//! before it runs the team's script with the same arguments. The team's script sees what it
//! would see from autotest2d: its own path as `$0` and the five arguments.
//!
//! The CPU limit is not here: it is the server's (`ulimit -t`, as autotest2d sets it), which
//! every process the server starts inherits, each counted alone.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The limits every process of a team runs under.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Address space per process, in MiB (`RLIMIT_AS`).
    pub memory_mb: Option<u64>,
    /// Processes (and threads) the user may have at once (`RLIMIT_NPROC`). The kernel counts
    /// every process of the user, not only the team's, and does not hold root to it.
    pub processes: Option<u64>,
    /// The user the team runs as.
    pub user: Option<User>,
}

impl Limits {
    fn any(&self) -> bool {
        self.memory_mb.is_some() || self.processes.is_some() || self.user.is_some()
    }
}

/// A user of this machine, as `getent passwd` gives it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct User {
    pub name: String,
    pub uid: u32,
    pub gid: u32,
    pub home: String,
}

impl User {
    /// The user called `name` (or numbered so), from the machine's user database.
    pub fn find(name: &str) -> Result<User, String> {
        let out = Command::new("getent")
            .args(["passwd", name])
            .output()
            .map_err(|e| format!("cannot look the user {name} up with getent: {e}"))?;
        let text = String::from_utf8_lossy(&out.stdout);
        let line = text.lines().next().unwrap_or_default();
        let fields: Vec<&str> = line.split(':').collect();
        let number = |i: usize| fields.get(i).and_then(|f| f.parse::<u32>().ok());
        match (fields.first(), number(2), number(3), fields.get(5)) {
            (Some(user), Some(uid), Some(gid), Some(home)) if out.status.success() => Ok(User {
                name: (*user).to_owned(),
                uid,
                gid,
                home: (*home).to_owned(),
            }),
            _ => Err(format!("no user {name} on this machine")),
        }
    }
}

/// The script to give the server for the team whose own script is `script` (absolute): the
/// script itself where there are no limits, else a start script written to
/// `out/pitchside-start/` that runs it under them (`index` tells two teams' apart).
pub fn start_script(
    out: &Path,
    index: usize,
    script: &str,
    limits: &Limits,
) -> Result<String, String> {
    if !limits.any() {
        return Ok(script.to_owned());
    }
    if limits.user.is_some() && !rustix::process::geteuid().is_root() {
        return Err(
            "--user needs the runner to run as root, to start teams as another user".into(),
        );
    }
    for program in ["prlimit", "setpriv"] {
        if !on_path(program) {
            return Err(format!(
                "{program} (util-linux) is needed for the teams' limits and is not on PATH"
            ));
        }
    }
    let folder = out.join("pitchside-start");
    std::fs::create_dir_all(&folder)
        .map_err(|e| format!("cannot make {}: {e}", folder.display()))?;
    let base = Path::new(script)
        .file_name()
        .map_or("team".into(), |n| n.to_string_lossy().into_owned());
    let path = folder.join(format!(
        "{index}-{}",
        base.replace(char::is_whitespace, "_")
    ));
    std::fs::write(&path, wrapper(script, limits))
        .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755))
        .map_err(|e| format!("cannot make {} runnable: {e}", path.display()))?;
    Ok(path.to_string_lossy().into_owned())
}

/// The start script's text.
fn wrapper(script: &str, limits: &Limits) -> String {
    let mut words: Vec<String> = vec!["exec".into(), "prlimit".into()];
    if let Some(mb) = limits.memory_mb {
        words.push(format!("--as={}", mb.saturating_mul(1 << 20)));
    }
    if let Some(n) = limits.processes {
        words.push(format!("--nproc={n}"));
    }
    words.push("--".into());
    if let Some(user) = &limits.user {
        words.push("env".into());
        for (var, value) in [
            ("HOME", &user.home),
            ("USER", &user.name),
            ("LOGNAME", &user.name),
        ] {
            words.push(quote(&format!("{var}={value}")));
        }
        words.extend([
            "setpriv".into(),
            format!("--reuid={}", user.uid),
            format!("--regid={}", user.gid),
            "--init-groups".into(),
            "--".into(),
        ]);
    }
    words.push(quote(script));
    words.push("\"$@\"".into());
    format!(
        "#!/bin/sh\n# Made by pitchside-play: starts the team's own script under the run's limits{}.\n{}\n",
        limits
            .user
            .as_ref()
            .map_or(String::new(), |u| format!(", as {}", u.name)),
        words.join(" ")
    )
}

/// `text` as one word of the shell, whatever it holds.
fn quote(text: &str) -> String {
    format!("'{}'", text.replace('\'', r"'\''"))
}

fn on_path(program: &str) -> bool {
    std::env::var_os("PATH").is_some_and(|paths| {
        std::env::split_paths(&paths).any(|dir: PathBuf| dir.join(program).is_file())
    })
}

/// Lets `user` write in `folder` (a folder the runner made for one game), so that a team
/// running as that user can keep its logs there.
pub fn hand_over(folder: &Path, user: &User) -> Result<(), String> {
    rustix::fs::chown(
        folder,
        Some(rustix::fs::Uid::from_raw(user.uid)),
        Some(rustix::fs::Gid::from_raw(user.gid)),
    )
    .map_err(|e| format!("cannot give {} to {}: {e}", folder.display(), user.name))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_limits_leave_the_team_s_own_script() {
        let out = Path::new("/nonexistent");
        let got = start_script(out, 0, "/teams/a/start_left", &Limits::default());
        assert_eq!(got.as_deref(), Ok("/teams/a/start_left"));
    }

    #[test]
    fn the_wrapper_sets_the_limits_then_drops_to_the_user_then_runs_the_script() {
        let user = User {
            name: "team".into(),
            uid: 1001,
            gid: 1002,
            home: "/home/team".into(),
        };
        let limits = Limits {
            memory_mb: Some(512),
            processes: Some(64),
            user: Some(user),
        };
        let text = wrapper("/teams/it's/start", &limits);
        let last = text.lines().last().unwrap_or_default();
        assert_eq!(
            last,
            "exec prlimit --as=536870912 --nproc=64 -- env 'HOME=/home/team' 'USER=team' \
             'LOGNAME=team' setpriv --reuid=1001 --regid=1002 --init-groups -- \
             '/teams/it'\\''s/start' \"$@\""
        );
    }

    #[test]
    fn the_wrapper_runs_the_script_with_its_arguments_under_the_limits() {
        let dir = std::env::temp_dir().join(format!("pitchside-team-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("a scratch folder");
        let team = dir.join("start");
        std::fs::write(
            &team,
            "#!/bin/bash\necho \"$0 $* $(ulimit -v) $(ulimit -u)\"\n",
        )
        .expect("a team script");
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&team, std::fs::Permissions::from_mode(0o755)).expect("runnable");
        let limits = Limits {
            memory_mb: Some(256),
            processes: Some(4000),
            user: None,
        };
        let started =
            start_script(&dir, 1, &team.to_string_lossy(), &limits).expect("a start script");
        assert!(started.ends_with("pitchside-start/1-start"), "{started}");
        let out = Command::new(&started)
            .args(["localhost", "localhost", "6000", "6001", "6002"])
            .output()
            .expect("run the start script");
        let said = String::from_utf8_lossy(&out.stdout);
        assert_eq!(
            said.trim(),
            format!(
                "{} localhost localhost 6000 6001 6002 262144 4000",
                team.display()
            )
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn an_unknown_user_is_said() {
        let err = User::find("no-such-user-here").expect_err("no such user");
        assert_eq!(err, "no user no-such-user-here on this machine");
    }
}
