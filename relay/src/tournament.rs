//! Tournaments (`--tournament FILE`): the files read and checked at start, read again when
//! they change (a schedule written in, a knockout tie added), and what `/api/tournaments`
//! and `/api/tournaments/NAME` answer from them, the archive's index and the matches being
//! relayed (book, "Tournaments").
//!
//! A file that turns bad while the relay runs does not take the tournament down: the last
//! good version is kept and the answer says what is wrong with the new one.

use crate::archive::{url_of, Entry};
use crate::hub::Summary;
use pitchside_competitions::tournament::schedule::round_robin;
use pitchside_competitions::tournament::{progress, Live, Plan, PlanError, Played};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::SystemTime;
use thiserror::Error;

/// The document's format; a change that could break a reader gets a new one.
pub const FORMAT: &str = "pitchside.tournament.v1";
pub const LIST_FORMAT: &str = "pitchside.tournaments.v1";

#[derive(Debug, Error)]
pub enum TournamentError {
    #[error("{path}: cannot read it: {source}")]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{path}: not a tournament file: {message}")]
    Syntax { path: PathBuf, message: String },
    #[error("{path}: {source}")]
    Plan { path: PathBuf, source: PlanError },
    #[error("{path} and {other} both name a tournament {name:?}")]
    Twice {
        path: PathBuf,
        other: PathBuf,
        name: String,
    },
    #[error("{path}: there is no group {group:?}")]
    NoGroup { path: PathBuf, group: String },
    #[error("{path}: group {group:?} already has fixtures (--force writes over them)")]
    HasFixtures { path: PathBuf, group: String },
    #[error("{path}: cannot write it: {source}")]
    Write {
        path: PathBuf,
        source: std::io::Error,
    },
}

/// Reads and checks one tournament file.
pub fn read_plan(path: &Path) -> Result<Plan, TournamentError> {
    let text = std::fs::read_to_string(path).map_err(|source| TournamentError::Read {
        path: path.to_owned(),
        source,
    })?;
    let plan: Plan = toml::from_str(&text).map_err(|e| TournamentError::Syntax {
        path: path.to_owned(),
        message: e.to_string().trim().to_owned(),
    })?;
    plan.check().map_err(|source| TournamentError::Plan {
        path: path.to_owned(),
        source,
    })?;
    Ok(plan)
}

struct Known {
    /// The file's modification time and length when it was read.
    modified: Option<(SystemTime, u64)>,
    plan: Plan,
    /// What is wrong with the file now, when it changed for the worse.
    error: Option<String>,
}

struct File {
    path: PathBuf,
    known: Mutex<Known>,
}

impl File {
    /// The plan, read again first if the file changed since.
    fn plan(&self) -> (Plan, Option<String>) {
        let mut known = self.known.lock().unwrap_or_else(|e| e.into_inner());
        // The length too: a write finished within the same clock tick as a read that saw it
        // half done would otherwise leave the half-read error in place.
        let modified = std::fs::metadata(&self.path)
            .ok()
            .and_then(|m| Some((m.modified().ok()?, m.len())));
        if modified != known.modified {
            known.modified = modified;
            match read_plan(&self.path) {
                // The name is the address: a file may not move to another one.
                Ok(plan) if plan.name == known.plan.name => {
                    known.plan = plan;
                    known.error = None;
                }
                Ok(plan) => {
                    known.error = Some(format!(
                        "the file now names the tournament {:?}; restart the relay to serve it under that name",
                        plan.name
                    ));
                }
                Err(e) => {
                    tracing::warn!("tournament: {e}; the last good version is kept");
                    known.error = Some(e.to_string());
                }
            }
        }
        (known.plan.clone(), known.error.clone())
    }
}

/// Every tournament the relay serves.
#[derive(Default)]
pub struct Tournaments {
    files: Vec<File>,
}

impl Tournaments {
    /// Reads every file: any that cannot be read or checked stops the relay from starting.
    pub fn load(paths: &[PathBuf]) -> Result<Tournaments, TournamentError> {
        let mut files: Vec<File> = Vec::new();
        for path in paths {
            let plan = read_plan(path)?;
            if let Some(other) = files
                .iter()
                .find(|f| f.known.lock().is_ok_and(|k| k.plan.name == plan.name))
            {
                return Err(TournamentError::Twice {
                    path: path.clone(),
                    other: other.path.clone(),
                    name: plan.name,
                });
            }
            let modified = std::fs::metadata(path)
                .ok()
                .and_then(|m| Some((m.modified().ok()?, m.len())));
            files.push(File {
                path: path.clone(),
                known: Mutex::new(Known {
                    modified,
                    plan,
                    error: None,
                }),
            });
        }
        Ok(Tournaments { files })
    }

    pub fn is_empty(&self) -> bool {
        self.files.is_empty()
    }

    fn plans(&self) -> Vec<(Plan, Option<String>)> {
        self.files.iter().map(File::plan).collect()
    }

    fn find(&self, name: &str) -> Option<(Plan, Option<String>)> {
        self.plans().into_iter().find(|(p, _)| p.name == name)
    }

    /// `/api/tournaments/NAME`, or `None` for no such tournament.
    pub fn answer(
        &self,
        name: &str,
        entries: &[Entry],
        live: &[Summary],
        pending: usize,
    ) -> Option<Value> {
        let (plan, error) = self.find(name)?;
        Some(document(&plan, error, entries, live, pending))
    }

    /// `/api/tournaments`: each tournament with its counts.
    pub fn list(&self, entries: &[Entry], live: &[Summary]) -> Value {
        let live = live_games(live);
        let items: Vec<Value> = self
            .plans()
            .iter()
            .map(|(plan, error)| {
                let p = progress(plan, &played_games(plan, entries), &live);
                json!({
                    "name": plan.name,
                    "title": plan.title(),
                    "url": format!("/t/{}", plan.name),
                    "fixtures": p.fixtures,
                    "played": p.played,
                    "live": p.live,
                    "file_error": error,
                })
            })
            .collect();
        json!({"format": LIST_FORMAT, "tournaments": items})
    }
}

/// The archive's finished games between the tournament's teams that have a result, each
/// linked to its page. An archive holds every other game too (tests, autotest batches):
/// they are passed over before anything is copied.
fn played_games(plan: &Plan, entries: &[Entry]) -> Vec<Played> {
    let teams: std::collections::HashSet<&str> = plan
        .groups
        .iter()
        .flat_map(|g| g.teams.iter().map(String::as_str))
        .chain(
            plan.knockout
                .iter()
                .flat_map(|t| [t.left.as_str(), t.right.as_str()]),
        )
        .collect();
    entries
        .iter()
        .filter(|e| !e.live && e.summary.error.is_none())
        .filter(|e| e.summary.teams.iter().all(|t| teams.contains(t.as_str())))
        .filter(|e| e.game().has_result())
        .map(|e| Played {
            date: e.date.clone(),
            teams: e.summary.teams.clone(),
            score: e.summary.score,
            penalties: e.summary.penalties,
            link: Some(format!("/?log={}", url_of(&e.id))),
        })
        .collect()
}

/// The relayed matches being played now (both teams known, not over, a source still
/// feeding it), as a fixture can show them. A match keeps its teams after time over and while
/// its server is gone: shown then, it would sit in the pair's next fixture (a final) as live.
fn live_games(live: &[Summary]) -> Vec<Live> {
    live.iter()
        .filter(|s| {
            s.source != pitchside_wire::feed::FeedSource::Waiting && s.playmode != "time_over"
        })
        .filter_map(|s| {
            let [Some(l), Some(r)] = &s.teams else {
                return None;
            };
            Some(Live {
                teams: [l.clone(), r.clone()],
                score: s.score,
                penalties: s.penalties,
                cycle: s.cycle,
                playmode: s.playmode.to_owned(),
                link: format!("/m/{}", s.name),
                // Local time, as rcssserver names its logs (the archive's dates).
                date: chrono::Local::now().format("%Y-%m-%dT%H:%M:%S").to_string(),
            })
        })
        .collect()
}

/// The whole document (format [`FORMAT`]).
pub fn document(
    plan: &Plan,
    error: Option<String>,
    entries: &[Entry],
    live: &[Summary],
    pending: usize,
) -> Value {
    let p = progress(plan, &played_games(plan, entries), &live_games(live));
    let mut doc = serde_json::to_value(&p).unwrap_or_else(|_| json!({}));
    doc["format"] = FORMAT.into();
    doc["file_error"] = error.into();
    doc["indexing"] = pending.into();
    doc
}

/// Writes a round-robin schedule for `group` into the tournament file at `path`, keeping
/// everything else of the file (comments, order, layout) as it was. Returns the fixtures.
pub fn write_schedule(
    path: &Path,
    group: &str,
    fields: u32,
    force: bool,
) -> Result<Vec<pitchside_competitions::tournament::plan::Fixture>, TournamentError> {
    let plan = read_plan(path)?;
    let Some(g) = plan.groups.iter().find(|g| g.name == group) else {
        return Err(TournamentError::NoGroup {
            path: path.to_owned(),
            group: group.to_owned(),
        });
    };
    if !g.fixtures.is_empty() && !force {
        return Err(TournamentError::HasFixtures {
            path: path.to_owned(),
            group: group.to_owned(),
        });
    }
    let fixtures = round_robin(&g.teams, fields);
    let text = std::fs::read_to_string(path).map_err(|source| TournamentError::Read {
        path: path.to_owned(),
        source,
    })?;
    let syntax = |message: String| TournamentError::Syntax {
        path: path.to_owned(),
        message,
    };
    let mut doc: toml_edit::DocumentMut = text.parse().map_err(|e| syntax(format!("{e}")))?;
    let groups = doc
        .get_mut("group")
        .and_then(|g| g.as_array_of_tables_mut())
        .ok_or_else(|| syntax("no [[group]] tables".into()))?;
    let table = groups
        .iter_mut()
        .find(|t| t.get("name").and_then(|n| n.as_str()) == Some(group))
        .ok_or_else(|| TournamentError::NoGroup {
            path: path.to_owned(),
            group: group.to_owned(),
        })?;
    let mut list = toml_edit::ArrayOfTables::new();
    for f in &fixtures {
        let mut t = toml_edit::Table::new();
        if let Some(r) = f.round {
            t["round"] = toml_edit::value(i64::from(r));
        }
        if let Some(x) = f.field {
            t["field"] = toml_edit::value(i64::from(x));
        }
        t["left"] = toml_edit::value(f.left.as_str());
        t["right"] = toml_edit::value(f.right.as_str());
        list.push(t);
    }
    table.insert("fixture", toml_edit::Item::ArrayOfTables(list));
    let out = doc.to_string();
    // What is written must read back as the same tournament with these fixtures.
    let back: Plan = toml::from_str(&out).map_err(|e| syntax(e.to_string()))?;
    debug_assert!(back.groups.iter().any(|g| g.fixtures == fixtures));
    let tmp = path.with_extension("toml.tmp");
    std::fs::write(&tmp, &out)
        .and_then(|()| std::fs::rename(&tmp, path))
        .map_err(|source| TournamentError::Write {
            path: path.to_owned(),
            source,
        })?;
    Ok(fixtures)
}

#[cfg(test)]
mod tests {
    use super::*;

    const FILE: &str = r#"# The spring cup.
name = "spring"
title = "Spring cup"

[[group]]
name = "A"   # four teams
teams = ["ALPHA", "BRAVO", "CHARLIE", "DELTA"]

[[group]]
name = "B"
teams = ["ECHO", "FOX", "GOLF", "HOTEL", "INDIA"]

[[knockout]]
id = "F"
round = "Final"
left = "A:1"
right = "B:1"
"#;

    fn temp(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!(
            "pitchside-tournament-{}-{name}",
            std::process::id()
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("temp dir");
        dir.join("cup.toml")
    }

    #[test]
    fn a_schedule_is_written_in_keeping_the_rest_of_the_file() {
        let path = temp("schedule");
        std::fs::write(&path, FILE).expect("write");
        let fixtures = write_schedule(&path, "B", 2, false).expect("scheduled");
        assert_eq!(fixtures.len(), 10);
        let text = std::fs::read_to_string(&path).expect("read");
        assert!(text.starts_with("# The spring cup.\n"), "{text}");
        assert!(text.contains("name = \"A\"   # four teams"), "{text}");
        let plan = read_plan(&path).expect("reads back");
        assert_eq!(plan.groups[1].fixtures, fixtures);
        assert!(plan.groups[0].fixtures.is_empty());
        assert_eq!(plan.knockout.len(), 1);
        // A second time only with --force.
        assert!(matches!(
            write_schedule(&path, "B", 2, false),
            Err(TournamentError::HasFixtures { .. })
        ));
        assert!(write_schedule(&path, "B", 1, true).is_ok());
        assert!(matches!(
            write_schedule(&path, "C", 1, false),
            Err(TournamentError::NoGroup { .. })
        ));
    }

    #[test]
    fn a_bad_file_is_refused_at_start_and_kept_at_its_last_good_version_later() {
        let path = temp("reload");
        std::fs::write(&path, FILE.replace("\"DELTA\"", "\"DELTA\", \"ALPHA\"")).expect("w");
        let e = Tournaments::load(std::slice::from_ref(&path))
            .err()
            .expect("refused");
        assert!(e.to_string().contains("names \"ALPHA\" twice"), "{e}");
        std::fs::write(&path, FILE).expect("w");
        let t = Tournaments::load(std::slice::from_ref(&path)).expect("loads");
        let doc = t.answer("spring", &[], &[], 0).expect("served");
        assert_eq!(doc["format"], FORMAT);
        assert_eq!(doc["title"], "Spring cup");
        assert_eq!(doc["fixtures"], 6 + 10 + 1);
        assert_eq!(
            doc["knockout"][0]["ties"][0]["left"]["label"],
            "1st of group A"
        );
        // Broken while running: the last good plan, and why.
        std::thread::sleep(std::time::Duration::from_millis(20));
        std::fs::write(&path, "name = \"spring\"\n[[group]]\nteams = 3\n").expect("w");
        let later = std::time::SystemTime::now() + std::time::Duration::from_secs(5);
        let f = std::fs::File::options()
            .write(true)
            .open(&path)
            .expect("open");
        f.set_modified(later).expect("mtime");
        let doc = t.answer("spring", &[], &[], 0).expect("still served");
        assert_eq!(doc["fixtures"], 17);
        assert!(
            doc["file_error"]
                .as_str()
                .is_some_and(|e| e.contains("not a tournament file")),
            "{doc}"
        );
        assert!(t.answer("autumn", &[], &[], 0).is_none());
        // Two files naming one tournament.
        std::fs::write(&path, FILE).expect("w");
        let other = path.with_file_name("again.toml");
        std::fs::write(&other, FILE).expect("w");
        let e = Tournaments::load(&[path, other]).err();
        assert!(matches!(e, Some(TournamentError::Twice { .. })), "{e:?}");
    }
}
