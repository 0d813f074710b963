//! What the broadcast view of a match (`/m/NAME/broadcast`, an OBS browser source) asks the
//! relay, besides the match's own WebSocket (book, "Broadcast"):
//!
//! - `/api/matches/NAME/broadcast` ([`FORMAT`]): how far the view trails live play, the kits
//!   the teams wear, the tournament the match belongs to (its group's standings, the next
//!   fixture) and the last result;
//! - `/api/matches/NAME/captions` ([`CAPTIONS_FORMAT`]): the match's captions in words, for a
//!   stream's own overlay, from [`pitchside_analysis::broadcast::captions`].
//!
//! The delay is only said here: the page holds the frames back, so the ordinary page and the
//! delayed stream are fed from the one history. Captions are computed from the whole match
//! (a shot becomes a goal a few cycles later), so an answer is kept per match and computed
//! again only when the match has grown, and at most once a second however many overlays ask.

use crate::archive::{url_of, Entry};
use crate::colours::TeamColours;
use crate::hub::Summary;
use crate::tournament::Tournaments;
use bytes::Bytes;
use pitchside_analysis::broadcast::captions::{captions, Lang};
use pitchside_analysis::colour::{choose_kits, KitChoice};
use serde_json::{json, Value};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use thiserror::Error;

/// `/api/matches/NAME/broadcast`'s format; a change that could break a reader gets a new one.
pub const FORMAT: &str = "pitchside.broadcast.v1";
/// `/api/matches/NAME/captions`'s format.
pub const CAPTIONS_FORMAT: &str = "pitchside.captions.v1";

/// A live match grows by a frame every 100 ms: an answer younger than this is served as it
/// is, so that a hundred overlays polling every second cost one computation a second, not a
/// hundred. The answer says which cycle it reaches, so an overlay asking `since` that cycle
/// misses nothing.
pub const CAPTIONS_FRESH: Duration = Duration::from_secs(1);

/// The relay's broadcast settings and the captions kept per match.
pub struct Broadcast {
    /// `--broadcast-delay`.
    pub delay: Duration,
    /// `--team-colours`.
    pub colours: Option<Arc<TeamColours>>,
    captions: Mutex<HashMap<String, Arc<tokio::sync::Mutex<Option<Computed>>>>>,
    /// The tournament and last result of each match's answer, and when they were made.
    contexts: Mutex<HashMap<String, (Instant, Arc<Context>)>>,
}

/// A match's tournament section and last result, as the answer gives them.
pub type Context = (Value, Value);

/// Every page of a match asks `/api/matches/NAME/broadcast` (for the kits), thousands of
/// spectators at the start of a match: the answer's tournament and last result (which walk
/// the tournaments and the archive) younger than this are served again rather than made
/// anew. The delay and the kits are always current.
pub const CONTEXT_FRESH: Duration = Duration::from_secs(2);

impl Broadcast {
    pub fn new(delay: Duration, colours: Option<Arc<TeamColours>>) -> Broadcast {
        Broadcast {
            delay,
            colours,
            captions: Mutex::new(HashMap::new()),
            contexts: Mutex::new(HashMap::new()),
        }
    }

    /// Match `name`'s tournament section and last result: those made less than
    /// [`CONTEXT_FRESH`] ago, or new ones from `make`. Those of matches the relay no longer
    /// serves go when a new one is kept (`serving` says which it serves).
    pub fn context_cached(
        &self,
        name: &str,
        serving: impl Fn(&str) -> bool,
        make: impl FnOnce() -> Context,
    ) -> Arc<Context> {
        let now = Instant::now();
        if let Ok(c) = self.contexts.lock() {
            if let Some((at, v)) = c.get(name) {
                if now.duration_since(*at) < CONTEXT_FRESH {
                    return v.clone();
                }
            }
        }
        let v = Arc::new(make());
        if let Ok(mut c) = self.contexts.lock() {
            c.retain(|k, _| serving(k));
            c.insert(name.to_owned(), (now, v.clone()));
        }
        v
    }

    /// The tournament section and the last result of a match of `summary`'s teams.
    pub fn context(
        &self,
        summary: &Summary,
        tournaments: &Tournaments,
        entries: &[Entry],
        live: &[Summary],
        pending: usize,
    ) -> Context {
        let found = find_tournament(tournaments, &summary.teams, entries, live, pending);
        let last = match &found {
            Some(f) => last_of_tournament(&f.doc),
            None => last_in_archive(entries, &summary.teams),
        };
        (json!(found.as_ref().map(Found::section)), json!(last))
    }

    /// The kits for a match of these teams: a choice only when both teams are known and
    /// both are in the colours file (a team in its own colours against one drawn in the
    /// page's defaults could not be checked for clashes). Also what is wrong with the file,
    /// if its last change could not be used.
    pub fn kits(&self, teams: &[Option<String>; 2]) -> (Option<KitChoice>, Option<String>) {
        let Some(colours) = &self.colours else {
            return (None, None);
        };
        let (known, error) = colours.current();
        let choice = match teams {
            [Some(l), Some(r)] => match (known.find(l), known.find(r)) {
                (Some(lk), Some(rk)) => Some(choose_kits([l, r], lk, rk)),
                _ => None,
            },
            _ => None,
        };
        (choice, error)
    }

    /// `/api/matches/NAME/broadcast` ([`FORMAT`]).
    pub fn answer(&self, summary: &Summary, context: &Context) -> Value {
        let (kits, colours_error) = self.kits(&summary.teams);
        json!({
            "format": FORMAT,
            "match": summary.name,
            "delay_seconds": self.delay.as_secs_f64(),
            "kits": kits,
            "colours_error": colours_error,
            "teams": summary.teams,
            "tournament": context.0,
            "last_result": context.1,
        })
    }

    /// The captions cache of a match (made on first use; those of matches the relay no longer
    /// serves are let go).
    fn slot(
        &self,
        name: &str,
        serving: &(dyn Fn(&str) -> bool + Sync),
    ) -> Arc<tokio::sync::Mutex<Option<Computed>>> {
        let mut all = self.captions.lock().unwrap_or_else(|e| e.into_inner());
        if !all.contains_key(name) {
            all.retain(|n, _| serving(n));
        }
        all.entry(name.to_owned()).or_default().clone()
    }
}

// ---- The tournament of a match ----

/// A tournament's document (`/api/tournaments/NAME`) and where the match's teams are in it.
struct Found {
    doc: Value,
    /// Index of the group holding the teams, if one does.
    group: Option<usize>,
}

impl Found {
    fn section(&self) -> Value {
        let doc = &self.doc;
        let name = doc["name"].as_str().unwrap_or_default();
        let group = self.group.map(|g| &doc["groups"][g]);
        json!({
            "name": name,
            "title": doc["title"],
            "url": format!("/t/{name}"),
            "group": group.map(|g| g["name"].clone()),
            "standings": group.map_or_else(|| json!([]), |g| g["standings"].clone()),
            "next": next_fixture(doc),
        })
    }
}

fn names(v: &Value) -> impl Iterator<Item = &str> {
    v.as_array().into_iter().flatten().filter_map(Value::as_str)
}

/// The tournament a match belongs to, found by its teams: the first configured tournament
/// with a group holding both; else the first with a group holding either (the left team's
/// group first); else the first whose knockout bracket names either team.
fn find_tournament(
    tournaments: &Tournaments,
    teams: &[Option<String>; 2],
    entries: &[Entry],
    live: &[Summary],
    pending: usize,
) -> Option<Found> {
    let ours: Vec<&str> = teams.iter().flatten().map(String::as_str).collect();
    if ours.is_empty() || tournaments.is_empty() {
        return None;
    }
    let list = tournaments.list(entries, live);
    let docs: Vec<Value> = list["tournaments"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|t| t["name"].as_str())
        .filter_map(|name| tournaments.answer(name, entries, live, pending))
        .collect();
    let groups = |doc: &Value| -> Vec<Vec<String>> {
        doc["groups"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|g| names(&g["teams"]).map(str::to_owned).collect())
            .collect()
    };
    if ours.len() == 2 {
        for doc in &docs {
            if let Some(g) = groups(doc)
                .iter()
                .position(|g| ours.iter().all(|t| g.iter().any(|x| x == t)))
            {
                return Some(Found {
                    doc: doc.clone(),
                    group: Some(g),
                });
            }
        }
    }
    for doc in &docs {
        let gs = groups(doc);
        if let Some(g) = ours
            .iter()
            .find_map(|t| gs.iter().position(|g| g.iter().any(|x| x == t)))
        {
            return Some(Found {
                doc: doc.clone(),
                group: Some(g),
            });
        }
    }
    docs.into_iter()
        .find(|doc| {
            ties(doc).any(|(_, tie)| {
                ["left", "right"]
                    .iter()
                    .any(|s| tie[s]["team"].as_str().is_some_and(|t| ours.contains(&t)))
            })
        })
        .map(|doc| Found { doc, group: None })
}

/// Every knockout tie with its round's name, in the file's order.
fn ties(doc: &Value) -> impl Iterator<Item = (&str, &Value)> {
    doc["knockout"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|round| {
            let name = round["name"].as_str().unwrap_or_default();
            round["ties"]
                .as_array()
                .into_iter()
                .flatten()
                .map(move |t| (name, t))
        })
}

/// Every group fixture with its group's name, in the file's order.
fn fixtures(doc: &Value) -> impl Iterator<Item = (&str, &Value)> {
    doc["groups"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|g| {
            let name = g["name"].as_str().unwrap_or_default();
            g["fixtures"]
                .as_array()
                .into_iter()
                .flatten()
                .map(move |f| (name, f))
        })
}

/// The next game of the tournament: the first fixture not played and not being played, by
/// its day (fixtures with a day before those without), then its round, then the file's
/// order (groups, then the knockout ties). A group fixture as `/api/tournaments/NAME` gives
/// it with `"group"` added; a knockout tie as it gives ties, with `"knockout"`, the round's
/// name, added.
fn next_fixture(doc: &Value) -> Value {
    let to_play = |v: &&Value| v["status"] == "to_play";
    let groups = fixtures(doc).filter(|(_, f)| to_play(f)).map(|(g, f)| {
        let mut f = f.clone();
        f["group"] = g.into();
        let round = f["round"].as_u64().unwrap_or(u64::MAX);
        (f, 0u8, round)
    });
    let knockout = ties(doc).filter(|(_, t)| to_play(t)).map(|(r, t)| {
        let mut t = t.clone();
        t["knockout"] = r.into();
        (t, 1u8, u64::MAX)
    });
    groups
        .chain(knockout)
        .enumerate()
        .min_by(|(i, (a, sa, ra)), (j, (b, sb, rb))| {
            let day = |v: &Value| v["date"].as_str().map(str::to_owned);
            let (da, db) = (day(a), day(b));
            da.is_none()
                .cmp(&db.is_none())
                .then(da.cmp(&db))
                .then(sa.cmp(sb))
                .then(ra.cmp(rb))
                .then(i.cmp(j))
        })
        .map_or(Value::Null, |(_, (v, _, _))| v)
}

/// The tournament's most recent result (by the date of its log): a group fixture or a
/// knockout tie, the fixture's way round.
fn last_of_tournament(doc: &Value) -> Value {
    let played = fixtures(doc)
        .map(|(_, f)| (f, f["left"].clone(), f["right"].clone()))
        .chain(ties(doc).map(|(_, t)| (t, t["left"]["team"].clone(), t["right"]["team"].clone())))
        .filter(|(g, _, _)| g["status"] == "played");
    played
        .max_by(|(a, _, _), (b, _, _)| {
            a["date"]
                .as_str()
                .unwrap_or_default()
                .cmp(b["date"].as_str().unwrap_or_default())
        })
        .map_or(Value::Null, |(g, l, r)| {
            json!({
                "teams": [l, r],
                "score": g["score"],
                "penalties": g.get("penalties").cloned().unwrap_or(Value::Null),
                "date": g["date"],
                "link": g["link"],
            })
        })
}

/// Without a tournament: the most recent finished game in the archive (by its log's date)
/// that either team of the match played.
fn last_in_archive(entries: &[Entry], teams: &[Option<String>; 2]) -> Value {
    let ours: Vec<&str> = teams.iter().flatten().map(String::as_str).collect();
    if ours.is_empty() {
        return Value::Null;
    }
    entries
        .iter()
        .filter(|e| !e.live && e.summary.error.is_none())
        .filter(|e| e.summary.teams.iter().any(|t| ours.contains(&t.as_str())))
        .filter(|e| e.game().has_result())
        .max_by(|a, b| a.date.cmp(&b.date).then(a.id.cmp(&b.id)))
        .map_or(Value::Null, |e| {
            json!({
                "teams": e.summary.teams,
                "score": e.summary.score,
                "penalties": e.summary.penalties,
                "date": e.date,
                "link": format!("/?log={}", url_of(&e.id)),
            })
        })
}

// ---- Captions ----

/// Why the captions could not be made.
#[derive(Debug, Error)]
pub enum CaptionsError {
    #[error("the match's history does not decode: {0}")]
    Wire(#[from] pitchside_wire::WireError),
    #[error("the captions task failed: {0}")]
    Task(#[from] tokio::task::JoinError),
}

/// `lang`, or the message listing the languages there are.
pub fn language(code: &str) -> Result<Lang, String> {
    Lang::from_code(code).ok_or_else(|| {
        let all: Vec<&str> = Lang::ALL.iter().map(|l| l.code()).collect();
        format!("no captions in {code:?}: lang is one of {}", all.join(", "))
    })
}

/// One caption, as the feed gives it.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Line {
    pub cycle: u32,
    pub kind: &'static str,
    pub text: String,
}

/// What the match held when its captions were computed.
struct Computed {
    /// `(match number, frames held, last cycle)`: the same three, the same match.
    version: (u32, u32, u32),
    at: Instant,
    teams: [Option<String>; 2],
    score: [u32; 2],
    cycle: u32,
    /// The captions in every language, made at once: they cost little beside decoding the
    /// match, and keeping them rather than the frames they come from keeps a few KB per
    /// match instead of a whole game's frames.
    lines: HashMap<Lang, Arc<Vec<Line>>>,
}

/// A match's captions in `lang`, with its teams, score and the last cycle they cover.
pub struct Captions {
    pub teams: [Option<String>; 2],
    pub score: [u32; 2],
    pub cycle: u32,
    pub lines: Arc<Vec<Line>>,
}

impl Captions {
    /// The feed ([`CAPTIONS_FORMAT`]), with only the captions after cycle `since`.
    pub fn json(&self, name: &str, lang: Lang, since: Option<u32>) -> Value {
        let lines: Vec<&Line> = self
            .lines
            .iter()
            .filter(|l| since.is_none_or(|s| l.cycle > s))
            .collect();
        json!({
            "format": CAPTIONS_FORMAT,
            "match": name,
            "lang": lang.code(),
            "teams": self.teams,
            "score": self.score,
            "cycle": self.cycle,
            "captions": lines,
        })
    }
}

/// Decodes a match's history and finds its actions (a whole game: run it off the async
/// threads).
fn compute(packets: &[Bytes]) -> Result<Computed, CaptionsError> {
    let records = pitchside_wire::decode_records(packets.iter().map(|b| &b[..]))?;
    let mut m = rcss_formats::log::Match::default();
    for r in records {
        m.push(r);
    }
    let actions = pitchside_analysis::actions::Actions::of_match(&m);
    let lines = Lang::ALL
        .iter()
        .map(|&lang| {
            let made = captions(&actions, &m.frames, lang)
                .into_iter()
                .map(|x| Line {
                    cycle: x.cycle,
                    kind: x.kind,
                    text: x.text,
                })
                .collect();
            (lang, Arc::new(made))
        })
        .collect();
    let last = m.frames.last();
    let teams = last.map_or([None, None], |f| {
        [f.teams[0].name.clone(), f.teams[1].name.clone()]
    });
    let score = last.map_or([0, 0], |f| [f.teams[0].score, f.teams[1].score]);
    Ok(Computed {
        version: (0, 0, 0),
        at: Instant::now(),
        teams,
        score,
        cycle: last.map_or(0, |f| f.time),
        lines,
    })
}

impl Broadcast {
    /// The captions of `hub`'s match in `lang`: those kept if the match has not grown since
    /// (or they are younger than [`CAPTIONS_FRESH`]), else computed again from its history.
    /// One computation at a time per match: callers that arrive meanwhile wait for it.
    pub async fn captions(
        &self,
        hub: &crate::hub::Hub,
        lang: Lang,
        serving: &(dyn Fn(&str) -> bool + Sync),
    ) -> Result<Captions, CaptionsError> {
        let slot = self.slot(&hub.name, serving);
        let mut kept = slot.lock().await;
        let s = hub.summary();
        let version = (s.match_number, s.frames, s.cycle);
        let fresh = kept.as_ref().is_some_and(|c| {
            c.version == version || (c.version.0 == version.0 && c.at.elapsed() < CAPTIONS_FRESH)
        });
        let c = match kept.as_mut() {
            Some(c) if fresh => c,
            _ => {
                let packets = hub.history_packets();
                let mut c = tokio::task::spawn_blocking(move || compute(&packets)).await??;
                c.version = version;
                kept.insert(c)
            }
        };
        Ok(Captions {
            teams: c.teams.clone(),
            score: c.score,
            cycle: c.cycle,
            lines: c.lines.get(&lang).cloned().unwrap_or_default(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pitchside_wire::feed::FeedSource;

    const CUP: &str = r#"
name = "cup"
title = "The cup"

[[group]]
name = "A"
teams = ["ALPHA", "BRAVO", "CHARLIE"]
[[group.fixture]]
round = 2
left = "ALPHA"
right = "CHARLIE"
[[group.fixture]]
round = 1
left = "ALPHA"
right = "BRAVO"
[[group.fixture]]
round = 1
left = "BRAVO"
right = "CHARLIE"

[[group]]
name = "B"
teams = ["DELTA", "ECHO"]

[[knockout]]
id = "F"
round = "Final"
left = "A:1"
right = "B:1"
[[knockout]]
id = "X"
round = "Show game"
left = "FOXTROT"
right = "ALPHA"
"#;

    fn cups(files: &[(&str, &str)]) -> Tournaments {
        // A directory per call: tests run at once, and a file changed under a loaded
        // tournament is read again.
        static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let n = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let dir =
            std::env::temp_dir().join(format!("pitchside-broadcast-{}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("temp dir");
        let paths: Vec<_> = files
            .iter()
            .map(|(name, text)| {
                let p = dir.join(format!("{name}.toml"));
                std::fs::write(&p, text).expect("write");
                p
            })
            .collect();
        Tournaments::load(&paths).expect("loads")
    }

    fn live(name: &str, l: &str, r: &str) -> Summary {
        Summary {
            name: name.into(),
            source: FeedSource::Live,
            label: String::new(),
            teams: [Some(l.into()), Some(r.into())],
            score: [1, 0],
            penalties: None,
            cycle: 1200,
            playmode: "play_on",
            spectators: 0,
            frames: 1300,
            match_number: 1,
        }
    }

    fn teams(l: &str, r: &str) -> [Option<String>; 2] {
        [Some(l.into()), Some(r.into())]
    }

    #[test]
    fn a_match_is_placed_in_the_tournament_and_group_of_its_teams() {
        let other = "name = \"other\"\n[[group]]\nname = \"Z\"\nteams = [\"ALPHA\", \"ZULU\"]\n";
        let t = cups(&[("other", other), ("cup", CUP)]);
        // Both in a group of the second file: that one, though the first has ALPHA.
        let f = find_tournament(&t, &teams("BRAVO", "ALPHA"), &[], &[], 0).expect("found");
        let s = f.section();
        assert_eq!(
            (s["name"].as_str(), s["group"].as_str()),
            (Some("cup"), Some("A"))
        );
        assert_eq!(s["url"], "/t/cup");
        assert_eq!(s["title"], "The cup");
        let rows: Vec<&str> = s["standings"]
            .as_array()
            .expect("rows")
            .iter()
            .filter_map(|r| r["team"].as_str())
            .collect();
        assert_eq!(rows, ["ALPHA", "BRAVO", "CHARLIE"]);
        // Either team: the first file with a group holding one, the left team first.
        let s = find_tournament(&t, &teams("ALPHA", "DELTA"), &[], &[], 0)
            .expect("found")
            .section();
        assert_eq!(
            (s["name"].as_str(), s["group"].as_str()),
            (Some("other"), Some("Z"))
        );
        let s = find_tournament(&t, &teams("ECHO", "NOBODY"), &[], &[], 0)
            .expect("found")
            .section();
        assert_eq!(
            (s["name"].as_str(), s["group"].as_str()),
            (Some("cup"), Some("B"))
        );
        // A team in a knockout tie only: the tournament, without a group.
        let s = find_tournament(&t, &[Some("FOXTROT".into()), None], &[], &[], 0)
            .expect("found")
            .section();
        assert_eq!(s["name"], "cup");
        assert!(s["group"].is_null());
        assert_eq!(s["standings"], json!([]));
        assert!(find_tournament(&t, &teams("NOBODY", "NEITHER"), &[], &[], 0).is_none());
        assert!(find_tournament(&t, &[None, None], &[], &[], 0).is_none());
    }

    #[test]
    fn the_next_fixture_is_the_first_to_play_by_day_round_and_file_order() {
        let t = cups(&[("cup", CUP)]);
        let next = |live: &[Summary]| {
            find_tournament(&t, &teams("ALPHA", "BRAVO"), &[], live, 0)
                .expect("found")
                .section()["next"]
                .clone()
        };
        // Round 1 before round 2, though the file lists round 2 first.
        let n = next(&[]);
        assert_eq!(
            (n["left"].as_str(), n["right"].as_str()),
            (Some("ALPHA"), Some("BRAVO"))
        );
        assert_eq!(
            (n["group"].as_str(), n["round"].as_u64()),
            (Some("A"), Some(1))
        );
        assert_eq!(n["status"], "to_play");
        // Being played now: the next one is the other game of round 1.
        let n = next(&[live("field-1", "BRAVO", "ALPHA")]);
        assert_eq!(
            (n["left"].as_str(), n["right"].as_str()),
            (Some("BRAVO"), Some("CHARLIE"))
        );
        // A fixture with a day comes before those without.
        let dated = CUP.replace(
            "round = 2\nleft = \"ALPHA\"",
            "round = 2\ndate = \"2026-07-15\"\nleft = \"ALPHA\"",
        );
        let t = cups(&[("cup", &dated)]);
        let n = find_tournament(&t, &teams("ALPHA", "BRAVO"), &[], &[], 0)
            .expect("found")
            .section()["next"]
            .clone();
        assert_eq!(
            (n["right"].as_str(), n["date"].as_str()),
            (Some("CHARLIE"), Some("2026-07-15"))
        );
        // Only knockout ties left: the first, with its round's name.
        let ko = "name = \"ko\"\n[[knockout]]\nid = \"F\"\nround = \"Final\"\nleft = \"ALPHA\"\nright = \"BRAVO\"\n";
        let t = cups(&[("ko", ko)]);
        let s = find_tournament(&t, &teams("ALPHA", "BRAVO"), &[], &[], 0)
            .expect("found")
            .section();
        assert_eq!(s["next"]["knockout"], "Final");
        assert_eq!(s["next"]["id"], "F");
        assert_eq!(s["next"]["left"]["team"], "ALPHA");
        assert!(last_of_tournament(
            &find_tournament(&t, &teams("ALPHA", "BRAVO"), &[], &[], 0)
                .expect("found")
                .doc
        )
        .is_null());
    }

    #[test]
    fn unknown_languages_are_refused_with_the_list() {
        assert_eq!(language("en"), Ok(Lang::En));
        assert_eq!(language("de-AT"), Ok(Lang::De));
        let e = language("xx").err().unwrap_or_default();
        assert!(e.contains("\"xx\"") && e.contains("en, de"), "{e}");
    }
}
