//! `pitchside-play.json` in a run's folder: how far the batch or tournament is, what each
//! field plays now and when the rest should be done at the pace so far. The runner rewrites
//! it as each game starts and ends (whole, by renaming a new file over it, so a reader never
//! sees half of it); the relay's `/api/series` passes it on for the folder, and the series
//! page shows it. Its document is [`pitchside_wire::run::Run`] (book, "HTTP and wire").

use pitchside_wire::run::{Run, RunField, RUN_FORMAT};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{Instant, SystemTime};

/// The status file's name in a run's folder.
pub const FILE: &str = "pitchside-play.json";

/// The status of a run, written to its folder at each change.
pub struct Status {
    path: PathBuf,
    started: Instant,
    /// Games ended in this run (counted or not), for the pace.
    ended_here: Mutex<(u32, Run)>,
}

impl Status {
    pub fn new(out: &Path, kind: &'static str, games: u32, played: u32, ports: &[u16]) -> Status {
        let doc = Run {
            format: RUN_FORMAT.into(),
            kind: kind.into(),
            games,
            played,
            invalid: 0,
            fields: ports
                .iter()
                .map(|&port| RunField {
                    port,
                    game: None,
                    teams: None,
                })
                .collect(),
            running: true,
            seconds_left: None,
            updated: 0,
        };
        let status = Status {
            path: out.join(FILE),
            started: Instant::now(),
            ended_here: Mutex::new((0, doc)),
        };
        status.change(|_| {});
        status
    }

    /// Field `port` starts game `name`, between `teams` where the runner knows them (a
    /// tournament's fixture; a batch knows its teams' scripts, not their names).
    pub fn started(&self, port: u16, name: &str, teams: Option<[String; 2]>) {
        self.change(|d| {
            if let Some(f) = d.fields.iter_mut().find(|f| f.port == port) {
                f.game = Some(name.to_owned());
                f.teams = teams;
            }
        });
    }

    /// Field `port`'s game ended, counted or not.
    pub fn ended(&self, port: u16, counted: bool) {
        if let Ok(mut e) = self.ended_here.lock() {
            e.0 += 1;
        }
        self.change(|d| {
            if let Some(f) = d.fields.iter_mut().find(|f| f.port == port) {
                f.game = None;
                f.teams = None;
            }
            if counted {
                d.played += 1;
            } else {
                d.invalid += 1;
            }
        });
    }

    /// Sets how many games count, as a tournament reads them from its folder.
    pub fn counted(&self, played: u32, games: u32) {
        self.change(|d| {
            d.played = played;
            d.games = games;
        });
    }

    /// The run is over (or stopped): no field plays.
    pub fn finish(&self) {
        self.change(|d| {
            d.running = false;
            d.seconds_left = None;
            for f in &mut d.fields {
                f.game = None;
                f.teams = None;
            }
        });
    }

    fn change(&self, f: impl FnOnce(&mut Run)) {
        let Ok(mut guard) = self.ended_here.lock() else {
            return;
        };
        let (ended, doc) = &mut *guard;
        f(doc);
        let left = doc.games.saturating_sub(doc.played);
        doc.seconds_left = (*ended > 0 && doc.running).then(|| {
            let per_game = self.started.elapsed().as_secs_f64() / f64::from(*ended);
            (per_game * f64::from(left)).round() as u64
        });
        doc.updated = SystemTime::now()
            .duration_since(SystemTime::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        let Ok(text) = serde_json::to_vec_pretty(doc) else {
            return;
        };
        let tmp = self.path.with_extension("json.new");
        if std::fs::write(&tmp, text).is_ok() {
            let _ = std::fs::rename(&tmp, &self.path);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(out: &Path) -> Run {
        let bytes = std::fs::read(out.join(FILE)).expect("the status file");
        serde_json::from_slice(&bytes).expect("a run the page reads")
    }

    /// The file says, at each step of a run, what the page shows: the games played and
    /// invalid, each field's game, a time left once a game has ended, and the end.
    #[test]
    fn the_status_file_follows_the_run() {
        let out = pitchside_fixtures::scratch("play-status");
        let status = Status::new(&out, "batch", 10, 4, &[6000, 7000]);
        let r = read(&out);
        assert_eq!((r.format.as_str(), r.kind.as_str()), (RUN_FORMAT, "batch"));
        assert_eq!((r.games, r.played, r.invalid, r.running), (10, 4, 0, true));
        assert_eq!(r.seconds_left, None, "no pace before a game ended");
        status.started(6000, "game-0005", None);
        status.started(7000, "game-0006", Some(["A".into(), "B".into()]));
        let r = read(&out);
        assert_eq!(r.fields[0].game.as_deref(), Some("game-0005"));
        assert_eq!(r.fields[1].teams, Some(["A".into(), "B".into()]));
        status.ended(6000, true);
        status.ended(7000, false);
        let r = read(&out);
        assert_eq!((r.played, r.invalid), (5, 1));
        assert_eq!(r.fields[0].game, None);
        assert!(r.seconds_left.is_some(), "a pace once games ended");
        assert!(r.updated > 1_700_000_000, "{}", r.updated);
        status.finish();
        let r = read(&out);
        assert!(!r.running);
        assert_eq!(r.seconds_left, None);
        let _ = std::fs::remove_dir_all(&out);
    }
}
