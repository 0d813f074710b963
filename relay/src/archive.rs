//! The archive: every log below the directories given with `--archive` (and `--record`),
//! summarised once and listed by `/api/archive` (book, "The archive").
//!
//! Each directory keeps its summaries in `.pitchside-index.json`, keyed by the log's path,
//! size and modification time, so a restart reads no log twice and a log that changes is read
//! again. A scan every [`SCAN_EVERY`] finds new files by their metadata alone; only new or
//! changed ones are read, one at a time, by the streaming inspector (a few MB whatever the
//! size). A file the recorder is still writing (`incomplete-…`, changed in the last
//! [`LIVE_SECS`] seconds) is listed as live, not as a broken log.
//!
//! Only regular files are listed: symbolic links are never followed, so nothing outside the
//! directories can be listed or served. Downloads look the requested id up in the index,
//! never join a request's text to a path.

use crate::inspect::inspect_reader;
use pitchside_competitions::series::{Figures, Game, Invalid};
use rcss_formats::log::Ending;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, RwLock};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// Version of `/api/archive`'s JSON; a change that breaks a reader gets a new number.
pub const API_VERSION: u32 = 1;
/// Time between two scans of the directories.
pub const SCAN_EVERY: Duration = Duration::from_secs(3);
/// A recording changed within this many seconds is still being written.
pub const LIVE_SECS: u64 = 15;
/// The index file in each archive directory.
pub const INDEX_FILE: &str = ".pitchside-index.json";
/// The index file's layout: a relay that finds another reads every log again.
const INDEX_FORMAT: u32 = 3;

/// What an index file holds.
#[derive(Serialize, Deserialize)]
struct IndexFile<I> {
    format: u32,
    files: I,
}
/// Directory levels below an archive directory that are searched.
const MAX_DEPTH: usize = 8;

/// What the archive knows of one log.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    pub teams: [String; 2],
    pub score: [u32; 2],
    /// Shoot-out kicks scored by each side, if there was a shoot-out.
    pub penalties: Option<[u32; 2]>,
    /// The last cycle played.
    pub cycles: u32,
    /// `"6"`, `"json"`, … ; empty when the file is not a log.
    pub version: String,
    /// What stopped the reading, with where; `None` for a log read to its end, or cut short.
    pub error: Option<String>,
    /// The last cycle of a log that stops before time over (the server was stopped or
    /// killed), whatever its version.
    pub incomplete: Option<u32>,
    /// What a series needs beyond the result: where the first goal is, each team's figures,
    /// and why the game would not count.
    #[serde(default)]
    pub first_goal: Option<u32>,
    #[serde(default)]
    pub figures: [Figures; 2],
    #[serde(default)]
    pub invalid: Vec<Invalid>,
}

impl Summary {
    /// A file that gave no summary, with why.
    fn failed(why: String) -> Summary {
        Summary {
            teams: Default::default(),
            score: [0, 0],
            penalties: None,
            cycles: 0,
            version: String::new(),
            error: Some(why.clone()),
            incomplete: None,
            first_goal: None,
            figures: Default::default(),
            invalid: vec![Invalid::Unreadable { message: why }],
        }
    }
}

/// One file of the index.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
struct Indexed {
    size: u64,
    modified: u64,
    summary: Summary,
}

/// One listed log.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    /// `N/relative/path`: the archive directory's number and the path below it.
    pub id: String,
    pub name: String,
    pub size: u64,
    pub modified: u64,
    /// `YYYY-MM-DDTHH:MM:SS` from rcssserver's file name, else the modification time (UTC).
    pub date: String,
    pub live: bool,
    pub summary: Summary,
    /// Team and file names in lower case, made once for searching.
    haystack: String,
}

impl Entry {
    /// The log as a series counts it, named by its id.
    pub fn game(&self) -> Game {
        let s = &self.summary;
        Game {
            name: self.id.clone(),
            teams: s.teams.clone(),
            score: s.score,
            shootout: s.penalties,
            first_goal: s.first_goal,
            cycles: s.cycles,
            figures: s.figures,
            invalid: s.invalid.clone(),
        }
    }
}

/// The archive's state, shared by the scanner and the HTTP handlers.
#[derive(Default)]
pub struct Archive {
    roots: Vec<PathBuf>,
    /// Shared, not copied, by each request.
    entries: RwLock<Arc<Vec<Entry>>>,
    /// Each directory's index, read from its file once and then kept here: a directory the
    /// relay cannot write to is still read only once.
    indexes: std::sync::Mutex<Option<Vec<HashMap<String, Indexed>>>>,
    /// Files found but not summarised yet.
    pending: RwLock<usize>,
    /// Set when the relay stops: a long first scan ends at the next file.
    stopping: std::sync::atomic::AtomicBool,
    /// Directories whose index could not be written, warned about once.
    unwritable: std::sync::Mutex<std::collections::HashSet<usize>>,
}

impl Archive {
    pub fn new(roots: Vec<PathBuf>) -> Archive {
        Archive {
            roots,
            ..Archive::default()
        }
    }

    pub fn is_empty(&self) -> bool {
        self.roots.is_empty()
    }

    pub fn entries(&self) -> Arc<Vec<Entry>> {
        self.entries.read().map(|e| e.clone()).unwrap_or_default()
    }

    pub fn pending(&self) -> usize {
        self.pending.read().map(|p| *p).unwrap_or(0)
    }

    /// The file behind an id, if the index lists it and it is still a regular file.
    pub fn file(&self, id: &str) -> Option<PathBuf> {
        let entries = self.entries();
        let entry = entries.iter().find(|e| e.id == id)?;
        let (root, rel) = entry.id.split_once('/')?;
        let path = self.roots.get(root.parse::<usize>().ok()?)?.join(rel);
        let meta = std::fs::symlink_metadata(&path).ok()?;
        meta.file_type().is_file().then_some(path)
    }

    /// The folders it lists.
    pub fn roots(&self) -> &[PathBuf] {
        &self.roots
    }

    /// A series' `dir` for `folder` (`N/REL`, or `N`), where the archive lists a log below
    /// it: the way back from [`Archive::folder`].
    pub fn dir_of(&self, folder: &Path) -> Option<String> {
        let (i, rel) = self
            .roots
            .iter()
            .enumerate()
            .find_map(|(i, root)| Some((i, folder.strip_prefix(root).ok()?)))?;
        let rel = rel.to_str()?.trim_end_matches('/');
        let dir = if rel.is_empty() {
            i.to_string()
        } else {
            format!("{i}/{rel}")
        };
        self.folder(&dir).map(|_| dir)
    }

    /// The folder behind a series' `dir` (`N/REL`, or `N` for the directory itself), if the
    /// index lists a log below it: only folders the archive already shows are ever read.
    pub fn folder(&self, dir: &str) -> Option<PathBuf> {
        let dir = dir.trim_end_matches('/');
        let below = format!("{dir}/");
        if !self.entries().iter().any(|e| e.id.starts_with(&below)) {
            return None;
        }
        let (root, rel) = dir.split_once('/').unwrap_or((dir, ""));
        let base = self.roots.get(root.parse::<usize>().ok()?)?;
        Some(if rel.is_empty() {
            base.clone()
        } else {
            base.join(rel)
        })
    }

    fn publish(&self, entries: Vec<Entry>) {
        if let Ok(mut e) = self.entries.write() {
            *e = Arc::new(entries);
        }
    }

    /// One scan of every directory: new and changed logs are read (in this thread: call it
    /// from a blocking task), gone ones dropped, and each directory's index file rewritten
    /// when something changed.
    pub fn scan(&self) {
        let now = unix(SystemTime::now());
        let mut indexes = self
            .indexes
            .lock()
            .map(|mut i| i.take())
            .unwrap_or_default()
            .unwrap_or_else(|| {
                self.roots
                    .iter()
                    .map(|root| {
                        std::fs::read(root.join(INDEX_FILE))
                            .ok()
                            .and_then(|b| {
                                serde_json::from_slice::<IndexFile<HashMap<String, Indexed>>>(&b)
                                    .ok()
                            })
                            .filter(|i| i.format == INDEX_FORMAT)
                            .map(|i| i.files)
                            .unwrap_or_default()
                    })
                    .collect()
            });
        let before = self.entries();
        let mut all = Vec::new();
        for (n, (root, index)) in self.roots.iter().zip(indexes.iter_mut()).enumerate() {
            let mut found = Vec::new();
            walk(root, root, 0, &mut found);
            found.sort();
            let stale: Vec<_> = found
                .iter()
                .filter(|(rel, size, modified)| {
                    index
                        .get(rel)
                        .is_none_or(|i| i.size != *size || i.modified != *modified)
                })
                .cloned()
                .collect();
            if let Ok(mut p) = self.pending.write() {
                *p = stale.len();
            }
            let present: std::collections::HashSet<&str> =
                found.iter().map(|(r, _, _)| r.as_str()).collect();
            let mut changed = index.len() != present.len();
            index.retain(|rel, _| present.contains(rel.as_str()));
            // A first scan of thousands of logs takes a while: what is read so far is listed
            // every second (the other directories as they were), so the archive fills while a
            // visitor watches.
            let mut published = std::time::Instant::now();
            for (rel, size, modified) in stale {
                if self.stopping.load(std::sync::atomic::Ordering::Relaxed) {
                    return;
                }
                // A panic in the inspector on one hostile file must not stop the archive.
                let path = root.join(&rel);
                let summary = std::panic::catch_unwind(|| summarise(&path)).unwrap_or_else(|_| {
                    Summary::failed("the inspector failed on this file".into())
                });
                index.insert(
                    rel,
                    Indexed {
                        size,
                        modified,
                        summary,
                    },
                );
                changed = true;
                if let Ok(mut p) = self.pending.write() {
                    *p = p.saturating_sub(1);
                }
                if published.elapsed() >= Duration::from_secs(1) {
                    published = std::time::Instant::now();
                    let mut so_far = all.clone();
                    so_far.extend(listed(n, index, now));
                    let later = |e: &&Entry| {
                        e.id.split_once('/')
                            .and_then(|(r, _)| r.parse::<usize>().ok())
                            .is_some_and(|r| r > n)
                    };
                    so_far.extend(before.iter().filter(later).cloned());
                    self.publish(so_far);
                }
            }
            if changed {
                self.save(n, root, index);
            }
            all.extend(listed(n, index, now));
        }
        self.publish(all);
        if let Ok(mut i) = self.indexes.lock() {
            *i = Some(indexes);
        }
    }

    /// Writes a directory's index beside its logs: aside, then renamed, so a crash never
    /// leaves half an index. A directory the relay may not write to is warned about once and
    /// indexed in memory only.
    fn save(&self, n: usize, root: &Path, index: &HashMap<String, Indexed>) {
        let tmp = root.join(format!("{INDEX_FILE}.{}.tmp", std::process::id()));
        let written = serde_json::to_vec(&IndexFile {
            format: INDEX_FORMAT,
            files: index,
        })
        .map_err(std::io::Error::other)
        .and_then(|text| {
            let mut f = std::fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(&tmp)?;
            std::io::Write::write_all(&mut f, &text)
        })
        .and_then(|()| std::fs::rename(&tmp, root.join(INDEX_FILE)));
        if let Err(e) = written {
            let _ = std::fs::remove_file(&tmp);
            let first = self
                .unwritable
                .lock()
                .map(|mut u| u.insert(n))
                .unwrap_or(false);
            if first {
                tracing::warn!(
                    "archive: cannot write {} ({e}); its logs are indexed in memory and read again after a restart",
                    root.join(INDEX_FILE).display()
                );
            }
        }
    }

    /// The relay is stopping: a scan under way ends at the next file.
    pub fn stop(&self) {
        self.stopping
            .store(true, std::sync::atomic::Ordering::Relaxed);
    }
}

/// True for a log still being written: rcssserver's `incomplete.rcg[.gz]` or the relay's
/// `incomplete-NAME.rcg`, changed within [`LIVE_SECS`].
fn is_live(name: &str, modified: u64, now: u64) -> bool {
    name.starts_with("incomplete") && now.saturating_sub(modified) < LIVE_SECS
}

/// The entries of archive directory number `n`.
fn listed(n: usize, index: &HashMap<String, Indexed>, now: u64) -> Vec<Entry> {
    index
        .iter()
        .map(|(rel, i)| {
            let name = rel.rsplit('/').next().unwrap_or(rel).to_owned();
            Entry {
                id: format!("{n}/{rel}"),
                date: date_of(&name).unwrap_or_else(|| utc_date(i.modified)),
                haystack: format!("{} {} {}", i.summary.teams[0], i.summary.teams[1], name)
                    .to_lowercase(),
                live: is_live(&name, i.modified, now),
                name,
                size: i.size,
                modified: i.modified,
                summary: i.summary.clone(),
            }
        })
        .collect()
}

/// Scans now and then every [`SCAN_EVERY`], until the relay stops.
pub fn start(archive: Arc<Archive>, mut stop: tokio::sync::watch::Receiver<bool>) {
    if archive.is_empty() {
        return;
    }
    tokio::spawn(async move {
        loop {
            let a = archive.clone();
            let started = std::time::Instant::now();
            let scan = tokio::task::spawn_blocking(move || a.scan());
            tokio::pin!(scan);
            tokio::select! {
                _ = &mut scan => {}
                _ = stop.changed() => {
                    archive.stop();
                    return;
                }
            }
            tracing::debug!(
                "archive scanned in {:.1} s: {} logs",
                started.elapsed().as_secs_f64(),
                archive.entries().len()
            );
            tokio::select! {
                _ = tokio::time::sleep(SCAN_EVERY) => {}
                _ = stop.changed() => {
                    archive.stop();
                    return;
                }
            }
        }
    });
}

fn unix(t: SystemTime) -> u64 {
    t.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs())
}

fn is_log(name: &str) -> bool {
    name.ends_with(".rcg") || name.ends_with(".rcg.gz")
}

/// Regular log files below `dir`: (path relative to `root` with `/`, size, modified).
fn walk(root: &Path, dir: &Path, depth: usize, out: &mut Vec<(String, u64, u64)>) {
    if depth > MAX_DEPTH {
        return;
    }
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        // The entry's own type: a symbolic link is neither a file nor a directory here.
        let Ok(ft) = e.file_type() else { continue };
        let path = e.path();
        if ft.is_dir() {
            walk(root, &path, depth + 1, out);
        } else if ft.is_file() {
            let Some(name) = path.file_name().and_then(|n| n.to_str()) else {
                continue;
            };
            if !is_log(name) {
                continue;
            }
            let Ok(meta) = e.metadata() else { continue };
            let Ok(rel) = path.strip_prefix(root) else {
                continue;
            };
            // A name that is not UTF-8 cannot be an id: skipped, never shortened to another.
            let Some(rel) = rel.iter().map(|c| c.to_str()).collect::<Option<Vec<_>>>() else {
                continue;
            };
            out.push((
                rel.join("/"),
                meta.len(),
                meta.modified().map(unix).unwrap_or(0),
            ));
        }
    }
}

fn summarise(path: &Path) -> Summary {
    let report = std::fs::File::open(path).and_then(|f| inspect_reader(std::io::BufReader::new(f)));
    match report {
        Ok(r) => {
            let game = r.game("");
            Summary {
                teams: r.teams.clone().map(|t| t.name.unwrap_or_default()),
                score: [r.teams[0].score, r.teams[1].score],
                penalties: match (r.teams[0].penalty, r.teams[1].penalty) {
                    (None, None) => None,
                    (l, rr) => Some([l.map_or(0, |p| p.scored), rr.map_or(0, |p| p.scored)]),
                },
                cycles: r.end.last_cycle().unwrap_or(0),
                version: match r.version.map(|v| v.number()) {
                    Some(Some(n)) => n.to_string(),
                    Some(None) => "json".into(),
                    None => String::new(),
                },
                error: match r.ending() {
                    Ending::Damaged(e) => Some(e.to_string()),
                    _ => None,
                },
                incomplete: r.ending().incomplete(),
                first_goal: game.first_goal,
                figures: game.figures,
                invalid: game.invalid,
            }
        }
        Err(e) => Summary::failed(format!("cannot read: {e}")),
    }
}

/// `YYYYMMDDHHMMSS-…` (rcssserver's log names) as `YYYY-MM-DDTHH:MM:SS`.
pub fn date_of(name: &str) -> Option<String> {
    let name = name.strip_prefix("incomplete-").unwrap_or(name);
    let d = name.get(..14)?;
    if !d.bytes().all(|b| b.is_ascii_digit()) || name.as_bytes().get(14) != Some(&b'-') {
        return None;
    }
    Some(format!(
        "{}-{}-{}T{}:{}:{}",
        &d[..4],
        &d[4..6],
        &d[6..8],
        &d[8..10],
        &d[10..12],
        &d[12..14]
    ))
}

/// Seconds since 1970 as a UTC `YYYY-MM-DDTHH:MM:SS`.
fn utc_date(secs: u64) -> String {
    let days = (secs / 86_400) as i64;
    let rem = secs % 86_400;
    // Civil date from days since 1970-01-01 (the proleptic Gregorian calendar).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

/// The download address of an id, each path segment percent-encoded (a file may be named
/// with `%`, `#` or `?`).
pub fn url_of(id: &str) -> String {
    let segments: Vec<String> = id
        .split('/')
        .map(|seg| {
            seg.bytes()
                .map(|b| match b {
                    b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                        (b as char).to_string()
                    }
                    _ => format!("%{b:02X}"),
                })
                .collect()
        })
        .collect();
    format!("/archive/files/{}", segments.join("/"))
}

/// What `/api/archive` is asked.
#[derive(Clone, Debug, Default, Deserialize)]
pub struct Query {
    /// Words that must all occur in the team names or the file name.
    pub q: Option<String>,
    /// A team that played (either side, exact name, any case).
    pub team: Option<String>,
    /// `1`/`true`: only matches decided by a penalty shoot-out.
    pub shootout: Option<String>,
    /// Dates as `YYYY-MM-DD`, inclusive.
    pub from: Option<String>,
    pub to: Option<String>,
    /// Only the logs in this folder (an id's beginning: `0/night-12`), at any depth below.
    pub dir: Option<String>,
    /// `date` (newest first, the default), `-date`, `teams`, `duration`, `size`.
    pub sort: Option<String>,
    pub page: Option<usize>,
    pub per_page: Option<usize>,
}

/// The orders `sort` may ask for; the first is the default.
pub const SORTS: [&str; 5] = ["date", "-date", "teams", "duration", "size"];

impl Query {
    /// What is wrong with the query, in words that say what is allowed. A parameter the
    /// relay cannot use is refused rather than ignored: a filter that was never applied
    /// looks just like one that matched nothing.
    pub fn check(&self) -> Result<(), String> {
        check_dates(&[("from", &self.from), ("to", &self.to)])?;
        if let Some(s) = self.sort.as_deref().filter(|s| !s.is_empty()) {
            if !SORTS.contains(&s) {
                return Err(format!(
                    "sort={} is not an order: sort is one of {}",
                    quoted(s),
                    SORTS.join(", ")
                ));
            }
        }
        if let Some(s) = self.shootout.as_deref().filter(|s| !s.is_empty()) {
            if !matches!(s, "1" | "true" | "yes" | "0" | "false" | "no") {
                return Err(format!(
                    "shootout={} is not a yes or no: shootout is 1 (only shoot-outs) or 0",
                    quoted(s)
                ));
            }
        }
        Ok(())
    }
}

/// Checks date parameters (`YYYY-MM-DD`); an empty one is no filter, as the page sends it.
pub fn check_dates(dates: &[(&str, &Option<String>)]) -> Result<(), String> {
    for (key, v) in dates {
        if let Some(v) = v.as_deref().filter(|v| !v.is_empty()) {
            if !is_date(v) {
                return Err(format!(
                    "{key}={} is not a date: {key} is YYYY-MM-DD, e.g. 2026-07-15",
                    quoted(v)
                ));
            }
        }
    }
    Ok(())
}

/// `YYYY-MM-DD` with a month and a day that can be.
fn is_date(s: &str) -> bool {
    let b = s.as_bytes();
    let digits = |r: std::ops::Range<usize>| b[r].iter().all(u8::is_ascii_digit);
    let number = |r: std::ops::Range<usize>| s[r].parse::<u32>().unwrap_or(0);
    b.len() == 10
        && b[4] == b'-'
        && b[7] == b'-'
        && digits(0..4)
        && digits(5..7)
        && digits(8..10)
        && (1..=12).contains(&number(5..7))
        && (1..=31).contains(&number(8..10))
}

/// A value from a request, quoted and cut short: an answer never repeats a long input.
fn quoted(v: &str) -> String {
    let short: String = v.chars().take(40).collect();
    if short.len() < v.len() {
        format!("{:?}…", short)
    } else {
        format!("{short:?}")
    }
}

pub const MAX_PER_PAGE: usize = 200;
/// Search words looked at, and the length of each.
const MAX_WORDS: usize = 8;
const MAX_WORD: usize = 64;

/// A query's filters, made once for all entries.
pub struct Filter {
    words: Vec<String>,
    team: Option<String>,
    shootout: bool,
    from: Option<String>,
    to: Option<String>,
    dir: Option<String>,
}

impl Filter {
    pub fn new(q: &Query) -> Filter {
        // At most MAX_WORDS distinct words of at most MAX_WORD bytes: a request's cost stays
        // bounded whatever its query holds.
        let mut words: Vec<String> = Vec::new();
        for w in q.q.as_deref().unwrap_or("").split_whitespace() {
            let w: String = w.to_lowercase().chars().take(MAX_WORD).collect();
            if !words.contains(&w) && words.len() < MAX_WORDS {
                words.push(w);
            }
        }
        Filter {
            words,
            team: q.team.as_deref().map(str::to_lowercase),
            shootout: matches!(q.shootout.as_deref(), Some("1" | "true" | "yes")),
            from: q.from.clone(),
            to: q.to.clone(),
            dir: q
                .dir
                .as_deref()
                .map(|d| d.trim_matches('/').to_owned())
                .filter(|d| !d.is_empty()),
        }
    }

    pub fn matches(&self, e: &Entry) -> bool {
        self.words.iter().all(|w| e.haystack.contains(w.as_str()))
            && self
                .team
                .as_ref()
                .is_none_or(|t| e.summary.teams.iter().any(|n| n.to_lowercase() == *t))
            && (!self.shootout || e.summary.penalties.is_some())
            && self
                .from
                .as_deref()
                .is_none_or(|f| e.date.get(..10).unwrap_or("") >= f)
            && self
                .to
                .as_deref()
                .is_none_or(|t| e.date.get(..10).unwrap_or("") <= t)
            && self.dir.as_deref().is_none_or(|d| {
                e.id.strip_prefix(d)
                    .is_some_and(|rest| rest.starts_with('/'))
            })
    }
}

/// The JSON answer to a query.
pub fn answer(entries: &[Entry], pending: usize, q: &Query) -> serde_json::Value {
    // At most MAX_WORDS distinct words of at most MAX_WORD bytes: a request's cost stays
    // bounded whatever its query holds.
    let filter = Filter::new(q);
    let mut hits: Vec<&Entry> = entries.iter().filter(|e| filter.matches(e)).collect();
    match q.sort.as_deref().unwrap_or("date") {
        "-date" => hits.sort_by(|a, b| a.date.cmp(&b.date).then(a.id.cmp(&b.id))),
        "teams" => hits.sort_by(|a, b| {
            a.summary
                .teams
                .cmp(&b.summary.teams)
                .then(b.date.cmp(&a.date))
        }),
        "duration" => hits.sort_by(|a, b| {
            b.summary
                .cycles
                .cmp(&a.summary.cycles)
                .then(b.date.cmp(&a.date))
        }),
        "size" => hits.sort_by(|a, b| b.size.cmp(&a.size).then(b.date.cmp(&a.date))),
        // `date`, the default (`Query::check` refused any other).
        _ => hits.sort_by(|a, b| b.date.cmp(&a.date).then(a.id.cmp(&b.id))),
    }
    let per_page = q.per_page.unwrap_or(50).clamp(1, MAX_PER_PAGE);
    let page = q.page.unwrap_or(1).max(1);
    let logs: Vec<serde_json::Value> = hits
        .iter()
        .skip((page - 1).saturating_mul(per_page))
        .take(per_page)
        .map(|e| {
            serde_json::json!({
                "id": e.id,
                "name": e.name,
                "url": url_of(&e.id),
                "teams": e.summary.teams,
                "score": e.summary.score,
                "penalties": e.summary.penalties,
                "date": e.date,
                "cycles": e.summary.cycles,
                "version": e.summary.version,
                "size": e.size,
                "live": e.live,
                "error": if e.live { None } else { e.summary.error.clone() },
                "incomplete": if e.live { None } else { e.summary.incomplete },
            })
        })
        .collect();
    serde_json::json!({
        "version": API_VERSION,
        "total": hits.len(),
        "page": page,
        "per_page": per_page,
        "indexing": pending,
        "logs": logs,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_come_from_the_servers_names_or_the_clock() {
        assert_eq!(
            date_of("20261122132746-SHORT_L_a_0-vs-SHORT_R_a_1.rcg.gz").as_deref(),
            Some("2026-11-22T13:27:46")
        );
        assert_eq!(
            date_of("incomplete-20261122132746-A-vs-B.rcg").as_deref(),
            Some("2026-11-22T13:27:46")
        );
        assert_eq!(date_of("final.rcg"), None);
        assert_eq!(date_of("2026112213274x-a.rcg"), None);
        assert_eq!(utc_date(0), "1970-01-01T00:00:00");
        assert_eq!(
            url_of("0/day 2/a#b?c%d.rcg"),
            "/archive/files/0/day%202/a%23b%3Fc%25d.rcg"
        );
        assert!(is_live("incomplete.rcg.gz", 100, 110));
        assert!(is_live("incomplete-field-a.rcg", 100, 110));
        assert!(!is_live("incomplete-field-a.rcg", 100, 200));
        assert!(!is_live("final.rcg", 100, 101));
        assert_eq!(utc_date(951_782_400), "2000-02-29T00:00:00");
        assert_eq!(utc_date(1_795_000_000), "2026-11-18T11:06:40");
    }

    #[test]
    fn bad_parameters_are_refused_with_what_is_allowed() {
        let q = |from: &str, sort: &str, shootout: &str| Query {
            from: Some(from.to_owned()),
            sort: Some(sort.to_owned()),
            shootout: Some(shootout.to_owned()),
            ..Query::default()
        };
        assert_eq!(q("2026-07-15", "-date", "1").check(), Ok(()));
        assert_eq!(q("", "", "").check(), Ok(()));
        assert_eq!(Query::default().check(), Ok(()));
        let e = q("yesterday", "date", "").check().unwrap_err();
        assert!(
            e.contains("from=\"yesterday\"") && e.contains("YYYY-MM-DD"),
            "{e}"
        );
        for bad in ["2026-13-01", "2026-7-15", "2026-07-15T10", "20260715"] {
            assert!(q(bad, "", "").check().is_err(), "{bad}");
        }
        let e = q("", "bogus", "").check().unwrap_err();
        assert!(e.contains("date, -date, teams, duration, size"), "{e}");
        assert!(q("", "", "maybe").check().is_err());
        let long = "x".repeat(5000);
        assert!(q(&long, "", "").check().unwrap_err().len() < 200);
    }
}
