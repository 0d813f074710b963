//! `/api/series`: a team's series over the archive (a folder below an archive directory, a
//! search, dates), or two such series compared, made from the archive's index alone: no log
//! is read to answer, so a series of thousands of logs answers in milliseconds, and a folder
//! an autotest script is filling shows each game within a scan of its log being finished.
//!
//! The document is the one `pitchside-inspect series --json` prints (`pitchside.series.v1`,
//! book, "Series"), with each match linked to the page at its first goal.

use crate::archive::{check_dates, url_of, Entry, Filter, Query};
use crate::inspect::series::{comparison_json, series_json};
use pitchside_competitions::series::{Game, Series};
use serde::Deserialize;

/// What `/api/series` is asked. The `b_` fields make a second series (B) to compare with
/// the first (A); the team is the same.
#[derive(Clone, Debug, Default, Deserialize)]
pub struct SeriesQuery {
    /// The team the series follows (default: the left team of each game).
    pub team: Option<String>,
    pub q: Option<String>,
    pub dir: Option<String>,
    pub from: Option<String>,
    pub to: Option<String>,
    pub b_q: Option<String>,
    pub b_dir: Option<String>,
    pub b_from: Option<String>,
    pub b_to: Option<String>,
}

impl SeriesQuery {
    /// What is wrong with the dates, in words that say what is allowed.
    pub fn check(&self) -> Result<(), String> {
        check_dates(&[
            ("from", &self.from),
            ("to", &self.to),
            ("b_from", &self.b_from),
            ("b_to", &self.b_to),
        ])
    }

    fn filter(&self, b: bool) -> Filter {
        let pick = |a: &Option<String>, bb: &Option<String>| if b { bb.clone() } else { a.clone() };
        // Every game the folder, search and dates select, the team's or not: the series
        // counts the others (`other_games`) as `pitchside-inspect series` does on the same
        // logs, so the two give one answer.
        Filter::new(&Query {
            q: pick(&self.q, &self.b_q),
            dir: pick(&self.dir, &self.b_dir),
            from: pick(&self.from, &self.b_from),
            to: pick(&self.to, &self.b_to),
            ..Query::default()
        })
    }

    fn compared(&self) -> bool {
        [&self.b_q, &self.b_dir, &self.b_from, &self.b_to]
            .iter()
            .any(|v| v.as_deref().is_some_and(|s| !s.is_empty()))
    }
}

/// The games a filter selects, oldest first (the order they were played in), leaving out
/// logs still being written: a game counts once it is over.
fn games(entries: &[Entry], filter: &Filter) -> Vec<Game> {
    let mut hits: Vec<&Entry> = entries
        .iter()
        .filter(|e| !e.live && filter.matches(e))
        .collect();
    hits.sort_by(|a, b| a.date.cmp(&b.date).then(a.id.cmp(&b.id)));
    hits.iter().map(|e| e.game()).collect()
}

/// The page's address for a match: its log at its first goal (at kick-off without one).
fn link(g: &Game) -> Option<String> {
    let log = url_of(&g.name);
    Some(match g.first_goal {
        Some(c) => format!("/?log={log}#t={c}"),
        None => format!("/?log={log}"),
    })
}

/// The answer: one series, or A and B compared.
pub fn answer(entries: &[Entry], pending: usize, q: &SeriesQuery) -> serde_json::Value {
    let team = q.team.as_deref().map(str::trim).filter(|t| !t.is_empty());
    let a = games(entries, &q.filter(false));
    let mut doc = if q.compared() {
        let b = games(entries, &q.filter(true));
        comparison_json(&Series::new(&a, team), &Series::new(&b, team), &link)
    } else {
        series_json(&Series::new(&a, team), &link)
    };
    doc["indexing"] = pending.into();
    doc
}
