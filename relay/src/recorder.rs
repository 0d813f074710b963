//! Matches as rcssserver 19 logs them (ULG6), both for `--record DIR` (written as the match
//! happens) and for the `/m/NAME/match.rcg` download (written from the history).
//!
//! The live monitor protocol and the log differ, and [`LogWriter`] bridges them the way the
//! server's logger does (protocol-observed.md §7): nothing before kick-off, `(playmode …)` and
//! `(team …)` lines only on change, and at time over one last show followed by the
//! `(result …)` message and the final team line. Team graphics that arrived as JSON objects
//! (no msg around them) are written as the server's own `(team_graphic_…)` msg lines.

use chrono::{DateTime, Local};
use rcss_formats::write::Ulg6Writer;
use rcss_formats::{Frame, Message, PlayMode, Record, Side, Team};
use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};

/// Turns a match's records into ULG6 lines.
pub struct LogWriter {
    ulg: Ulg6Writer,
    started: DateTime<Local>,
    teams: [Team; 2],
    last_time: u32,
    last_msg_was_tile: bool,
    over: bool,
}

fn team_part(t: &Team) -> String {
    let name = t
        .name
        .as_deref()
        .filter(|n| !n.is_empty())
        .unwrap_or("null");
    match t.penalty {
        Some(p) => format!("{name}_{}_{}", t.score, p.scored),
        None => format!("{name}_{}", t.score),
    }
}

/// rcssserver's log file name: `YYYYMMDDhhmmss-LEFT_S-vs-RIGHT_S.rcg`, with `_P` (penalty
/// goals) after each score once a shoot-out began.
pub fn log_name(started: &DateTime<Local>, teams: &[Team; 2]) -> String {
    format!(
        "{}-{}-vs-{}.rcg",
        started.format("%Y%m%d%H%M%S"),
        team_part(&teams[0]),
        team_part(&teams[1])
    )
}

/// Msgs that rcssserver sends its monitors but never writes to its game log: the player type
/// every player gets at kick-off or from its coach (`Stadium::broadcastChangePlayerType` sends
/// it to monitors and only to the text log; the shows carry the types anyway), and the replies
/// to a monitor's own commands (`(ok compression 6)`, `(error illegal_command_form)`,
/// `(warning message_not_null_terminated)`), which are the relay's business, not the match's.
fn logged_by_server(m: &Message) -> bool {
    const MONITOR_ONLY: [&[u8]; 4] = [b"(change_player_type ", b"(ok ", b"(error ", b"(warning "];
    !MONITOR_ONLY.iter().any(|p| m.text.starts_with(p))
}

impl LogWriter {
    /// `height`: the source gives the ball's height (the 2.5D fork), kept by writing its
    /// ULG7 in place of ULG6.
    pub fn new(started: DateTime<Local>, height: bool) -> Self {
        LogWriter {
            ulg: if height {
                Ulg6Writer::ulg7()
            } else {
                Ulg6Writer::new()
            },
            started,
            teams: Default::default(),
            last_time: 0,
            last_msg_was_tile: false,
            over: false,
        }
    }

    /// True once time over was written: the log is complete.
    pub fn is_over(&self) -> bool {
        self.over
    }

    pub fn teams(&self) -> &[Team; 2] {
        &self.teams
    }

    pub fn file_name(&self) -> String {
        log_name(&self.started, &self.teams)
    }

    pub fn record(&mut self, r: &Record) {
        if self.over {
            return;
        }
        match r {
            Record::Show(f) => self.show(f),
            Record::TeamGraphic(t) => {
                if !self.last_msg_was_tile {
                    let mut text = format!(
                        "(team_graphic_{} ({} {}",
                        match t.side {
                            Side::Left => 'l',
                            Side::Right => 'r',
                        },
                        t.x,
                        t.y
                    );
                    for line in &t.xpm {
                        text.push_str(&format!(" \"{line}\""));
                    }
                    // The server's own tile messages lack the last parenthesis, too.
                    text.push(')');
                    self.ulg.record(&Record::Msg(Message {
                        time: self.last_time,
                        board: 1,
                        text: text.into_bytes(),
                    }));
                }
                self.last_msg_was_tile = false;
                return;
            }
            Record::Team { teams, .. } => {
                self.teams = teams.clone();
                self.ulg.record(r);
            }
            Record::Msg(m) if !logged_by_server(m) => return,
            _ => self.ulg.record(r),
        }
        self.last_msg_was_tile =
            matches!(r, Record::Msg(m) if m.text.starts_with(b"(team_graphic_"));
    }

    fn show(&mut self, f: &Frame) {
        self.last_time = f.time;
        if f.mode == PlayMode::BEFORE_KICK_OFF || f.mode == PlayMode::NULL {
            return;
        }
        self.teams = f.teams.clone();
        self.ulg.show(f);
        if f.mode == PlayMode::TIME_OVER {
            self.finish_game();
        }
    }

    /// The result message and the final team line, as the server ends its logs.
    pub fn finish_game(&mut self) {
        let result = format!(
            "(result {} {}-vs-{})",
            self.started.format("%Y%m%d%H%M"),
            team_part(&self.teams[0]),
            team_part(&self.teams[1])
        );
        self.ulg.record(&Record::Msg(Message {
            time: self.last_time,
            board: 1,
            text: result.into_bytes(),
        }));
        self.ulg.record(&Record::Team {
            time: Some(self.last_time),
            teams: self.teams.clone(),
        });
        self.over = true;
    }

    /// Bytes written since the last call.
    pub fn take(&mut self) -> Vec<u8> {
        self.ulg.take()
    }
}

/// Errors writing a recording; the match goes on without it.
#[derive(Debug, thiserror::Error)]
pub enum RecordError {
    #[error("cannot write {path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
}

struct Open {
    writer: LogWriter,
    file: File,
    path: PathBuf,
    unflushed: Vec<u8>,
}

/// `--record DIR`: writes the current match to `DIR/incomplete-NAME.rcg` and renames it to
/// the server's naming when the match ends. Written bytes are handed to the kernel at least
/// once per [`Recorder::flush`] (the match task calls it every second), so a relay killed
/// outright loses at most the last second.
pub struct Recorder {
    dir: PathBuf,
    match_name: String,
    open: Option<Open>,
    /// The source gives the ball's height: recorded as ULG7.
    height: bool,
}

impl Recorder {
    pub fn new(dir: &Path, match_name: &str) -> Self {
        Recorder {
            dir: dir.to_owned(),
            match_name: match_name.to_owned(),
            open: None,
            height: false,
        }
    }

    /// Records the ball's height as the 2.5D fork's ULG7 does (its monitor protocol 6).
    pub fn with_ball_height(mut self, height: bool) -> Self {
        self.height = height;
        self
    }

    fn incomplete_path(&self) -> PathBuf {
        self.dir.join(format!("incomplete-{}.rcg", self.match_name))
    }

    /// Starts a new recording (ending any current one).
    pub fn begin(&mut self, started: DateTime<Local>) -> Result<(), RecordError> {
        self.end()?;
        let path = self.incomplete_path();
        let io = |source| RecordError::Io {
            path: path.clone(),
            source,
        };
        std::fs::create_dir_all(&self.dir).map_err(io)?;
        self.keep_interrupted(&path);
        let file = File::create(&path).map_err(io)?;
        tracing::info!("{}: recording to {}", self.match_name, path.display());
        self.open = Some(Open {
            writer: LogWriter::new(started, self.height),
            file,
            path,
            unflushed: Vec::new(),
        });
        Ok(())
    }

    /// A recording left by a relay that died is moved aside before a new one takes its name,
    /// as `YYYYMMDDHHMMSS-NAME-interrupted.rcg` (its last write): it holds the match up to the
    /// crash, and `pitchside-inspect` and the archive read it like any log cut short.
    fn keep_interrupted(&self, path: &Path) {
        let Ok(meta) = std::fs::metadata(path) else {
            return;
        };
        if meta.len() == 0 {
            return;
        }
        let when: DateTime<Local> = meta
            .modified()
            .map(DateTime::from)
            .unwrap_or_else(|_| Local::now());
        let aside = self.dir.join(format!(
            "{}-{}-interrupted.rcg",
            when.format("%Y%m%d%H%M%S"),
            self.match_name
        ));
        match std::fs::rename(path, &aside) {
            Ok(()) => tracing::warn!(
                "{}: an earlier recording was cut short; kept as {}",
                self.match_name,
                aside.display()
            ),
            Err(e) => tracing::warn!(
                "{}: cannot keep the earlier recording {}: {e}",
                self.match_name,
                path.display()
            ),
        }
    }

    pub fn is_open(&self) -> bool {
        self.open.is_some()
    }

    pub fn record(&mut self, records: &[Record]) -> Result<(), RecordError> {
        let Some(open) = &mut self.open else {
            return Ok(());
        };
        for r in records {
            open.writer.record(r);
        }
        let bytes = open.writer.take();
        open.unflushed.extend_from_slice(&bytes);
        if open.writer.is_over() {
            self.end()?;
        }
        Ok(())
    }

    /// Writes what is buffered to the file.
    pub fn flush(&mut self) -> Result<(), RecordError> {
        let Some(open) = &mut self.open else {
            return Ok(());
        };
        if open.unflushed.is_empty() {
            // Nothing to write (before kick-off, nothing is recorded): the file's time still
            // moves, so the archive knows the recording is alive.
            let _ = open.file.set_modified(std::time::SystemTime::now());
            return Ok(());
        }
        open.file
            .write_all(&open.unflushed)
            .map_err(|source| RecordError::Io {
                path: open.path.clone(),
                source,
            })?;
        open.unflushed.clear();
        Ok(())
    }

    /// Ends the recording of a match whose server went away before time over. rcssserver
    /// stopped by a signal still ends its log with the result message and the final team line
    /// at the last cycle it played (seen with SIGTERM mid-match), so the recording ends so too.
    pub fn end_server_gone(&mut self) -> Result<(), RecordError> {
        if let Some(open) = &mut self.open {
            if !open.writer.is_over() {
                open.writer.finish_game();
                let bytes = open.writer.take();
                open.unflushed.extend_from_slice(&bytes);
            }
        }
        self.end()
    }

    /// Ends the recording: flushes, and renames the file as rcssserver names its logs (never
    /// over an existing file).
    pub fn end(&mut self) -> Result<(), RecordError> {
        self.flush()?;
        let Some(open) = self.open.take() else {
            return Ok(());
        };
        let _ = open.file.sync_all();
        drop(open.file);
        let name = open.writer.file_name();
        let mut target = self.dir.join(&name);
        let mut n = 1;
        while target.exists() {
            n += 1;
            let stem = name.trim_end_matches(".rcg");
            target = self.dir.join(format!("{stem}-{}-{n}.rcg", self.match_name));
        }
        std::fs::rename(&open.path, &target).map_err(|source| RecordError::Io {
            path: target.clone(),
            source,
        })?;
        tracing::info!("{}: match saved as {}", self.match_name, target.display());
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;
    use rcss_formats::PenaltyTally;

    #[test]
    fn a_recording_left_by_a_crash_is_kept_not_overwritten() {
        let dir = std::env::temp_dir().join(format!("pitchside-rec-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("incomplete-field-a.rcg"), b"ULG6\n(show 1 ...)\n").unwrap();
        let mut r = Recorder::new(&dir, "field-a");
        r.begin(Local::now()).unwrap();
        let names: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        let kept = names
            .iter()
            .find(|n| n.ends_with("-field-a-interrupted.rcg"))
            .unwrap_or_else(|| panic!("{names:?}"));
        assert_eq!(kept.len(), "YYYYMMDDHHMMSS-field-a-interrupted.rcg".len());
        assert_eq!(
            std::fs::read(dir.join(kept)).unwrap(),
            b"ULG6\n(show 1 ...)\n"
        );
        assert!(dir.join("incomplete-field-a.rcg").is_file());
        drop(r);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_ball_with_a_height_is_recorded_as_ulg7_and_read_back_with_it() {
        // The real short match as the 2.5D fork's monitor protocol 6 would give it: the ball
        // chipped every seventh cycle.
        let bytes = pitchside_fixtures::read(pitchside_fixtures::SHORT_V6);
        let mut records = Vec::new();
        let mut d = rcss_formats::log::LogDecoder::new();
        d.feed(&bytes, &mut records).unwrap();
        d.finish(&mut records).unwrap();
        for r in &mut records {
            if let Record::Show(f) = r {
                f.ball.z = if f.time % 7 == 3 { 1.5 } else { 0.0 };
            }
        }
        for height in [true, false] {
            let mut w = LogWriter::new(Local::now(), height);
            for r in &records {
                w.record(r);
            }
            let m = rcss_formats::parse_log(&w.take());
            assert!(m.error.is_none(), "{:?}", m.error);
            let want = if height {
                rcss_formats::LogVersion::V7
            } else {
                rcss_formats::LogVersion::V6
            };
            assert_eq!(m.version, Some(want));
            let up = m.frames.iter().filter(|f| f.ball.z == 1.5).count();
            let chipped = m.frames.iter().filter(|f| f.time % 7 == 3).count();
            assert!(chipped > 50, "{chipped}");
            assert_eq!(up, if height { chipped } else { 0 });
        }
    }

    #[test]
    fn names_follow_rcssserver() {
        let t = Local.with_ymd_and_hms(2026, 11, 22, 13, 11, 24).unwrap();
        let teams = [
            Team {
                name: Some("HELIOS_L".into()),
                score: 2,
                penalty: None,
            },
            Team {
                name: Some("HELIOS_R".into()),
                score: 3,
                penalty: None,
            },
        ];
        assert_eq!(
            log_name(&t, &teams),
            "20261122131124-HELIOS_L_2-vs-HELIOS_R_3.rcg"
        );
        let pens = [
            Team {
                name: Some("PEN_L".into()),
                score: 0,
                penalty: Some(PenaltyTally {
                    scored: 4,
                    missed: 1,
                }),
            },
            Team {
                name: Some("PEN_R".into()),
                score: 0,
                penalty: Some(PenaltyTally {
                    scored: 2,
                    missed: 2,
                }),
            },
        ];
        assert_eq!(
            log_name(&t, &pens),
            "20261122131124-PEN_L_0_4-vs-PEN_R_0_2.rcg"
        );
    }
}
