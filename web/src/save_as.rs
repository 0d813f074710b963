//! *Save as…*: the match on screen written as a log file the user downloads, through the
//! shared library's log tools ([`rcss_formats::tools`], what `pitchside-inspect convert |
//! reverse | rename | clip` run): another version, the sides swapped, teams renamed, only
//! cycles A to B; and *Validate*, the same library's checks with each finding's place.
//!
//! The tools read the source's own bytes, not the page's match (which holds what the page
//! draws, not everything a log says): a file from the disk is read again from the `File` it
//! was opened as, a log on the web is downloaded again, and a live match or a relay's replay
//! is the relay's `/m/NAME/match.rcg` (the match so far as a ULG6 log). Those bytes go to the
//! [`Rewriter`] (or the validator) a slice of [`SLICE`] at a time, the browser getting a turn
//! between two slices, so a whole game neither freezes the page nor has to be held in the
//! page's memory: the output goes straight into the pieces of a `Blob`.

use crate::source::file::{js_message, page_url, yield_to_browser};
use crate::source::url::{explain_fetch_failure, explain_status};
use crate::state::{Mode, Monitor};
use leptos::prelude::*;
use pitchside_analysis::export::{Table, TableFromRecords};
use rcss_formats::log::{incomplete_note, Ending};
use rcss_formats::tools::validate::{Streaming, Validation};
use rcss_formats::tools::{Edits, Rename, Rewriter, Rewritten};
use rcss_formats::LogVersion;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

/// Bytes of the source read and handed on between two turns of the browser: a few hundred
/// KB, each decoded and written in a few milliseconds.
const SLICE: f64 = 256.0 * 1024.0;

// ---- What the user asked for (pure, tested natively) ----

/// The versions offered: `(value, label)`; `same` keeps the source's.
pub const VERSIONS: [(&str, &str); 9] = [
    ("same", "same as the source"),
    ("1", "1 (binary)"),
    ("2", "2 (binary)"),
    ("3", "3 (binary)"),
    ("4", "4 (text, ULG4)"),
    ("5", "5 (text, ULG5)"),
    ("6", "6 (text, ULG6)"),
    // The 2.5D fork's: ULG6 with the ball's height, which only the fork's tools read.
    ("7", "7 (text, ULG7: the ball's height, 2.5D fork)"),
    ("json", "JSON"),
];

/// The version a [`VERSIONS`] value stands for: `Some(None)` for the source's own.
pub fn parse_version(v: &str) -> Option<Option<LogVersion>> {
    match v {
        "same" | "" => Some(None),
        v => LogVersion::from_name(v).map(Some),
    }
}

/// A new team name (`None`: keep the old one), as the formats can hold it: text logs split
/// on blanks and parentheses (the inspector's rule).
pub fn team_name(n: &str) -> Result<Option<String>, String> {
    let n = n.trim();
    if n.is_empty() {
        return Ok(None);
    }
    if n.bytes()
        .any(|b| b.is_ascii_whitespace() || b"()\"\\".contains(&b) || b < 0x20)
    {
        return Err(format!(
            "team name “{n}”: letters, digits and punctuation other than ( ) \" \\, no blanks"
        ));
    }
    Ok(Some(n.to_owned()))
}

/// The form of the panel.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Request {
    /// A [`VERSIONS`] value.
    pub version: String,
    pub reverse: bool,
    pub left: String,
    pub right: String,
    /// Cycles A and B as typed.
    pub from: String,
    pub to: String,
    /// The first and last cycle of the match on screen, which the form starts with: A to B
    /// spanning them is the whole match, not a clip (a live match may have gone on since).
    pub whole: Option<(u32, u32)>,
}

impl Request {
    /// The edits the form asks for, or what is wrong with it.
    pub fn edits(&self) -> Result<Edits, String> {
        let to =
            parse_version(&self.version).ok_or_else(|| format!("no version {}", self.version))?;
        let cycle = |v: &str, what: &str| {
            v.trim()
                .parse::<u32>()
                .map_err(|_| format!("give the {what} cycle as a number"))
        };
        let (a, b) = (cycle(&self.from, "first")?, cycle(&self.to, "last")?);
        if a > b {
            return Err(format!("the first cycle ({a}) is after the last ({b})"));
        }
        let clip = match self.whole {
            Some(w) if w == (a, b) => None,
            _ => Some((a, b)),
        };
        Ok(Edits {
            to,
            reverse: self.reverse,
            rename: Rename {
                left: team_name(&self.left)?,
                right: team_name(&self.right)?,
            },
            clip,
        })
    }
}

/// The name the rewritten log is saved as: the source's, without `.gz` and `.rcg`, with what
/// was done to it (`-1000-1500` cycles, `-reversed`, `-renamed`, `.v5` or `.json`), then
/// `.rcg`. The output is never gzipped.
pub fn output_name(source: &str, edits: &Edits) -> String {
    let stem = source.strip_suffix(".gz").unwrap_or(source);
    let stem = stem.strip_suffix(".rcg").unwrap_or(stem);
    let stem = if stem.is_empty() { "match" } else { stem };
    let mut name = stem.to_owned();
    if let Some((a, b)) = edits.clip {
        name.push_str(&format!("-{a}-{b}"));
    }
    if edits.reverse {
        name.push_str("-reversed");
    }
    if edits.rename != Rename::default() {
        name.push_str("-renamed");
    }
    match edits.to.map(|v| v.number()) {
        Some(Some(n)) => name.push_str(&format!(".v{n}")),
        Some(None) => name.push_str(".json"),
        None => {}
    }
    name.push_str(".rcg");
    name
}

/// How the source read, for the user: `Ok` with a note (or none) when something was saved,
/// `Err` when nothing was.
pub fn outcome(source: &str, edits: &Edits, done: &Rewritten) -> Result<Outcome, String> {
    if done.shows == 0 {
        return Err(match (&done.error, edits.clip) {
            (Some(e), _) => format!("{source} cannot be read: {e}"),
            (None, Some((a, b))) => format!("{source} has no show in cycles {a} to {b}"),
            (None, None) => format!("{source} has no show"),
        });
    }
    if done.stopped_early {
        return Ok(Outcome::Whole);
    }
    Ok(match Ending::of(&done.end, done.error.as_ref()) {
        Ending::Whole => Outcome::Whole,
        Ending::Damaged(e) => Outcome::Damaged(format!(
            "{source} is damaged ({e}): written up to the damage, nothing after it"
        )),
        Ending::Incomplete { cycle } => Outcome::Incomplete(format!(
            "{source} is {} (the server stopped before the end of the match): written whole",
            incomplete_note(cycle)
        )),
    })
}

/// How a saved log's source read.
#[derive(Clone, Debug, PartialEq)]
pub enum Outcome {
    Whole,
    /// Stops before time over: every record was written.
    Incomplete(String),
    /// Written up to the damage.
    Damaged(String),
}

// ---- The state the panel shows ----

/// What the panel reports.
#[derive(Clone, Debug, Default, PartialEq)]
pub enum SaveState {
    #[default]
    Idle,
    /// Reading the source: what, and how far (0..1, when its size is known).
    Working {
        what: String,
        fraction: Option<f64>,
    },
    /// A log was saved.
    Saved {
        name: String,
        bytes: usize,
        shows: u64,
        /// The player types table: its rows, said instead of the shows.
        types: Option<usize>,
        version: String,
        outcome: Outcome,
    },
    /// The source was validated: see [`findings`].
    Validated {
        name: String,
    },
    Failed(String),
}

/// One finding of *Validate*, as listed.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// The finding's kind, as `pitchside-inspect validate` names it (`incomplete`).
    pub kind: &'static str,
    /// `line 1234` or `byte 5678`.
    pub at: Option<String>,
    pub cycle: Option<u32>,
    pub message: String,
}

/// What *Validate* found in a source.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Report {
    pub name: String,
    /// What the page's badge said of the match on screen when it was validated: the
    /// findings are shown only while that match is.
    pub source: String,
    pub version: Option<String>,
    pub shows: u64,
    pub rows: Vec<Row>,
    /// Findings of a kind beyond those listed: `(kind, how many more)`.
    pub more: Vec<(&'static str, u64)>,
}

impl Report {
    pub fn of(name: String, v: &Validation) -> Report {
        let mut more = Vec::new();
        for (kind, _) in &v.counts {
            let n = v.more(*kind);
            if n > 0 {
                more.push((kind.name(), n));
            }
        }
        Report {
            name,
            source: String::new(),
            version: v.version.map(version_label),
            shows: v.shows,
            rows: v
                .findings
                .iter()
                .map(|f| Row {
                    kind: f.kind.name(),
                    at: f.at.map(|a| a.to_string()),
                    cycle: f.cycle,
                    message: f.message.clone(),
                })
                .collect(),
            more,
        }
    }
}

/// `v5`, `JSON`.
pub fn version_label(v: LogVersion) -> String {
    match v.number() {
        Some(n) => format!("v{n}"),
        None => "JSON".into(),
    }
}

thread_local! {
    /// Reference-counted rather than owned by the panel, so closing it (which drops its view)
    /// loses nothing, and a run goes on while the drawer is closed.
    static STATE: ArcRwSignal<SaveState> = ArcRwSignal::new(SaveState::Idle);
    static FINDINGS: ArcRwSignal<Option<Report>> = ArcRwSignal::new(None);
}

pub fn state() -> ArcRwSignal<SaveState> {
    STATE.with(Clone::clone)
}

/// The last validation's findings.
pub fn findings() -> ArcRwSignal<Option<Report>> {
    FINDINGS.with(Clone::clone)
}

/// A save or a validation is running.
pub fn busy() -> bool {
    matches!(state().get_untracked(), SaveState::Working { .. })
}

// ---- The source's bytes ----

/// Where the bytes of the match on screen come from.
enum Source {
    /// A file opened from the disk.
    File(web_sys::File),
    /// A log on the web (`?log=`, the URL field, a playlist).
    Url(String),
    /// The relay's record of the match it feeds (live, or a replay).
    Relay,
}

fn source(m: Monitor) -> Result<Source, String> {
    match m.mode.get_untracked() {
        Mode::Live => Ok(Source::Relay),
        Mode::File => match (
            m.log_url.get_untracked(),
            crate::source::file::opened_file(),
        ) {
            (Some(url), _) => Ok(Source::Url(url)),
            (None, Some(f)) => Ok(Source::File(f)),
            (None, None) => Err("the page no longer has the file the match came from".into()),
        },
    }
}

fn set_working(what: String, fraction: Option<f64>) {
    state().set(SaveState::Working { what, fraction });
}

/// The source as a `Blob` to read in slices (a file is one; a download is asked for as one,
/// which the browser may keep on disk), and its file name.
async fn open(source: Source) -> Result<(web_sys::Blob, String), String> {
    match source {
        Source::File(f) => {
            let name = f.name();
            Ok((web_sys::Blob::clone(&f), name))
        }
        Source::Url(url) => {
            let name = crate::source::url::file_name(&url);
            set_working(format!("downloading {name}…"), None);
            let (blob, _) = download(&url).await?;
            Ok((blob, name))
        }
        Source::Relay => {
            let Some(m) = crate::ui::operator::match_name().await else {
                return Err("the relay did not say which match this is".into());
            };
            let url = format!("/m/{m}/match.rcg");
            set_working(format!("asking the relay for match {m}…"), None);
            let (blob, named) = download(&url).await?;
            Ok((blob, named.unwrap_or_else(|| format!("{m}.rcg"))))
        }
    }
}

/// Downloads `url` whole, as a `Blob`, with the file name its `Content-Disposition` gives.
async fn download(url: &str) -> Result<(web_sys::Blob, Option<String>), String> {
    let window = web_sys::window().ok_or("no browser window")?;
    let res = JsFuture::from(window.fetch_with_str(url))
        .await
        .map_err(|e| explain_fetch_failure(&page_url(), url, &js_message(&e)))?;
    let res: web_sys::Response = res
        .dyn_into()
        .map_err(|_| format!("Cannot download {url}."))?;
    if !res.ok() {
        let reason = format!("HTTP {} {}", res.status(), res.status_text());
        return Err(explain_status(url, res.status(), &reason));
    }
    let named = res
        .headers()
        .get("content-disposition")
        .ok()
        .flatten()
        .and_then(|h| disposition_name(&h));
    let blob = match res.blob() {
        Ok(p) => JsFuture::from(p).await,
        Err(e) => Err(e),
    }
    .map_err(|e| format!("Cannot download {url}: {}", js_message(&e)))?;
    Ok((blob.unchecked_into(), named))
}

/// `NAME` in `attachment; filename="NAME"`.
pub fn disposition_name(header: &str) -> Option<String> {
    let at = header.find("filename=")? + "filename=".len();
    let v = header[at..].split(';').next()?.trim().trim_matches('"');
    let v = v.rsplit(['/', '\\']).next()?;
    (!v.is_empty()).then(|| v.to_owned())
}

/// Reads a `Blob` a slice at a time.
struct Slices {
    blob: web_sys::Blob,
    at: f64,
    size: f64,
}

impl Slices {
    fn new(blob: web_sys::Blob) -> Slices {
        let size = blob.size();
        Slices {
            blob,
            at: 0.0,
            size,
        }
    }

    /// The next slice, or `None` at the end.
    async fn next(&mut self, name: &str) -> Option<Result<Vec<u8>, String>> {
        if self.at >= self.size {
            return None;
        }
        let end = (self.at + SLICE).min(self.size);
        let cannot = |e: &wasm_bindgen::JsValue| {
            format!(
                "Cannot read {name} again ({}): was it moved or changed since it was opened? \
                 Open it again.",
                js_message(e)
            )
        };
        let read = async {
            let part = self
                .blob
                .slice_with_f64_and_f64(self.at, end)
                .map_err(|e| cannot(&e))?;
            let buf = JsFuture::from(part.array_buffer())
                .await
                .map_err(|e| cannot(&e))?;
            Ok(js_sys::Uint8Array::new(&buf).to_vec())
        };
        let r = read.await;
        self.at = end;
        Some(r)
    }

    fn fraction(&self) -> Option<f64> {
        (self.size > 0.0).then(|| (self.at / self.size).min(1.0))
    }
}

// ---- Saving and validating ----

/// Writes the match on screen with `edits` and downloads it, reporting in [`state`].
pub fn save(m: Monitor, edits: Edits) {
    if busy() {
        return;
    }
    let source = match source(m) {
        Ok(s) => s,
        Err(why) => return state().set(SaveState::Failed(why)),
    };
    set_working("reading the log…".into(), None);
    wasm_bindgen_futures::spawn_local(async move {
        let result = rewrite(source, edits).await;
        state().set(result.unwrap_or_else(SaveState::Failed));
    });
}

async fn rewrite(source: Source, edits: Edits) -> Result<SaveState, String> {
    let (blob, source_name) = open(source).await?;
    let name = output_name(&source_name, &edits);
    let mut rewriter = Rewriter::new(edits.clone());
    let parts = js_sys::Array::new();
    let mut bytes = 0usize;
    let mut keep = |out: Vec<u8>| {
        if !out.is_empty() {
            bytes += out.len();
            parts.push(&js_sys::Uint8Array::from(&out[..]));
        }
    };
    let mut slices = Slices::new(blob);
    while let Some(slice) = slices.next(&source_name).await {
        keep(rewriter.feed(&slice?));
        if rewriter.done() {
            break;
        }
        set_working(format!("writing {name}…"), slices.fraction());
        yield_to_browser().await;
    }
    let (rest, done) = rewriter.finish();
    keep(rest);
    let outcome = outcome(&source_name, &edits, &done)?;
    let bag = web_sys::BlobPropertyBag::new();
    bag.set_type("application/octet-stream");
    let file = web_sys::Blob::new_with_u8_array_sequence_and_options(&parts, &bag)
        .map_err(|e| format!("the browser could not make the file: {}", js_message(&e)))?;
    crate::export::download(&file, &name);
    Ok(SaveState::Saved {
        name,
        bytes,
        shows: done.shows,
        types: None,
        version: done.version.map(version_label).unwrap_or_default(),
        outcome,
    })
}

/// Writes one table of the match on screen (the tracking table `rcg2csv` writes, the player
/// types it writes beside it, or the players' actions) as CSV and downloads it, reporting in [`state`]. The form's cycles, swap
/// and names apply as to a log; its version does not.
pub fn save_table(m: Monitor, mut edits: Edits, table: Table) {
    if busy() {
        return;
    }
    let source = match source(m) {
        Ok(s) => s,
        Err(why) => return state().set(SaveState::Failed(why)),
    };
    edits.to = None;
    set_working("reading the log…".into(), None);
    wasm_bindgen_futures::spawn_local(async move {
        let result = write_table(source, edits, table).await;
        state().set(result.unwrap_or_else(SaveState::Failed));
    });
}

/// The name a table is saved as: the log's name as *Save as…* gives it, with `.tracking.csv`,
/// `.player_types.csv` (as `rcg2csv` names it) or `.actions.csv` for `.rcg`.
pub fn table_name(source: &str, edits: &Edits, table: Table) -> String {
    let log = output_name(source, edits);
    let stem = log.strip_suffix(".rcg").unwrap_or(&log);
    match table {
        Table::Tracking => format!("{stem}.tracking.csv"),
        Table::PlayerTypes => format!("{stem}.player_types.csv"),
        Table::Actions => format!("{stem}.actions.csv"),
    }
}

async fn write_table(source: Source, edits: Edits, table: Table) -> Result<SaveState, String> {
    let (blob, source_name) = open(source).await?;
    let name = table_name(&source_name, &edits, table);
    let mut rewriter = Rewriter::new(edits.clone());
    // The log the tools write, decoded again as it comes: its records make the rows.
    let mut decoder = rcss_formats::LogDecoder::new();
    decoder.set_detail(rcss_formats::log::Detail::Full);
    let mut records = Vec::new();
    let mut rows = TableFromRecords::new(table);
    let mut slices = Slices::new(blob);
    let mut unreadable = None;
    let mut take = |out: &[u8], rows: &mut TableFromRecords| {
        if unreadable.is_none() {
            if let Err(e) = decoder.feed(out, &mut records) {
                unreadable = Some(e);
            }
            rows.push(&records);
            records.clear();
        }
    };
    while let Some(slice) = slices.next(&source_name).await {
        take(&rewriter.feed(&slice?), &mut rows);
        if rewriter.done() {
            break;
        }
        set_working(format!("writing {name}…"), slices.fraction());
        yield_to_browser().await;
    }
    let (rest, done) = rewriter.finish();
    take(&rest, &mut rows);
    let outcome = outcome(&source_name, &edits, &done)?;
    let shows = rows.shows();
    let types = (table == Table::PlayerTypes).then(|| rows.player_types());
    let text = rows.finish();
    let bag = web_sys::BlobPropertyBag::new();
    bag.set_type("text/csv");
    let parts = js_sys::Array::of1(&wasm_bindgen::JsValue::from_str(&text));
    let file = web_sys::Blob::new_with_str_sequence_and_options(&parts, &bag)
        .map_err(|e| format!("the browser could not make the file: {}", js_message(&e)))?;
    crate::export::download(&file, &name);
    Ok(SaveState::Saved {
        name,
        bytes: text.len(),
        shows,
        types,
        version: "CSV".into(),
        outcome,
    })
}

/// Validates the source of the match on screen, listing the findings in [`findings`].
pub fn validate(m: Monitor) {
    if busy() {
        return;
    }
    let source = match source(m) {
        Ok(s) => s,
        Err(why) => return state().set(SaveState::Failed(why)),
    };
    findings().set(None);
    set_working("reading the log…".into(), None);
    let badge = m.source.get_untracked();
    wasm_bindgen_futures::spawn_local(async move {
        match check(source).await {
            Ok(mut report) => {
                report.source = badge;
                let name = report.name.clone();
                findings().set(Some(report));
                state().set(SaveState::Validated { name });
            }
            Err(why) => state().set(SaveState::Failed(why)),
        }
    });
}

async fn check(source: Source) -> Result<Report, String> {
    let (blob, name) = open(source).await?;
    let mut v = Streaming::new();
    let mut slices = Slices::new(blob);
    while let Some(slice) = slices.next(&name).await {
        v.feed(&slice?);
        set_working(format!("validating {name}…"), slices.fraction());
        yield_to_browser().await;
    }
    Ok(Report::of(name, &v.finish()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use rcss_formats::tools::rewrite;

    fn short_v6() -> Vec<u8> {
        std::fs::read(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(
            "../tests/fixtures/logs/short-v6/20261122132720-SHORT_L_a_0-vs-SHORT_R_a_1.rcg.gz",
        ))
        .unwrap()
    }

    fn form() -> Request {
        Request {
            version: "same".into(),
            from: "1".into(),
            to: "600".into(),
            whole: Some((1, 600)),
            ..Request::default()
        }
    }

    #[test]
    fn the_form_becomes_edits() {
        assert_eq!(form().edits(), Ok(Edits::default()));
        let r = Request {
            version: "5".into(),
            reverse: true,
            left: " NEW_L ".into(),
            from: "100".into(),
            to: "300".into(),
            ..form()
        };
        assert_eq!(
            r.edits(),
            Ok(Edits {
                to: Some(LogVersion::V5),
                reverse: true,
                rename: Rename {
                    left: Some("NEW_L".into()),
                    right: None
                },
                clip: Some((100, 300)),
            })
        );
        let bad = |r: Request| r.edits().unwrap_err();
        assert!(bad(Request {
            from: "300".into(),
            to: "100".into(),
            ..form()
        })
        .contains("after the last"));
        assert!(bad(Request {
            to: "x".into(),
            ..form()
        })
        .contains("last cycle"));
        assert!(bad(Request {
            right: "two words".into(),
            ..form()
        })
        .contains("no blanks"));
        assert!(bad(Request {
            left: "a(b".into(),
            ..form()
        })
        .contains("team name"));
        for (v, _) in VERSIONS {
            assert!(parse_version(v).is_some(), "{v}");
        }
        // Every version the writers write is offered, the 2.5D fork's ULG7 too.
        for written in LogVersion::WRITTEN {
            assert!(
                VERSIONS
                    .iter()
                    .any(|(v, _)| parse_version(v) == Some(Some(written))),
                "{written:?} is not offered"
            );
        }
        assert_eq!(parse_version("json"), Some(Some(LogVersion::Json)));
        assert_eq!(parse_version("8"), None);
    }

    #[test]
    fn names_say_what_was_done() {
        let src = "20261122132720-SHORT_L_a_0-vs-SHORT_R_a_1.rcg.gz";
        let stem = "20261122132720-SHORT_L_a_0-vs-SHORT_R_a_1";
        let name = |e: Edits| output_name(src, &e);
        assert_eq!(name(Edits::default()), format!("{stem}.rcg"));
        assert_eq!(
            name(Edits {
                reverse: true,
                ..Edits::default()
            }),
            format!("{stem}-reversed.rcg")
        );
        assert_eq!(
            name(Edits {
                to: Some(LogVersion::V5),
                ..Edits::default()
            }),
            format!("{stem}.v5.rcg")
        );
        assert_eq!(
            name(Edits {
                to: Some(LogVersion::Json),
                ..Edits::default()
            }),
            format!("{stem}.json.rcg")
        );
        assert_eq!(
            name(Edits {
                clip: Some((1000, 1500)),
                ..Edits::default()
            }),
            format!("{stem}-1000-1500.rcg")
        );
        assert_eq!(
            name(Edits {
                to: Some(LogVersion::V5),
                reverse: true,
                clip: Some((100, 300)),
                rename: Rename {
                    left: Some("A".into()),
                    right: None
                },
            }),
            format!("{stem}-100-300-reversed-renamed.v5.rcg")
        );
        // The tables, as rcg2csv names its two beside the log.
        for (table, ext) in [
            (Table::Tracking, "tracking"),
            (Table::PlayerTypes, "player_types"),
            (Table::Actions, "actions"),
        ] {
            assert_eq!(
                table_name(src, &Edits::default(), table),
                format!("{stem}.{ext}.csv")
            );
        }
        assert_eq!(output_name("game.log", &Edits::default()), "game.log.rcg");
        assert_eq!(output_name(".rcg", &Edits::default()), "match.rcg");
        assert_eq!(
            disposition_name("attachment; filename=\"20261122-A_0-vs-B_1.rcg\""),
            Some("20261122-A_0-vs-B_1.rcg".into())
        );
        assert_eq!(disposition_name("attachment"), None);
    }

    #[test]
    fn outcomes_say_how_the_source_read() {
        let src = short_v6();
        // Whole.
        let (_, done) = rewrite(&src, Edits::default());
        assert_eq!(
            outcome("g.rcg", &Edits::default(), &done),
            Ok(Outcome::Whole)
        );
        // A clip that ends before the log does: whole too, the rest was not read.
        let clip = Edits {
            clip: Some((100, 300)),
            ..Edits::default()
        };
        let (_, done) = rewrite(&src, clip.clone());
        assert_eq!(outcome("g.rcg", &clip, &done), Ok(Outcome::Whole));
        // No show in the cycles asked for.
        let none = Edits {
            clip: Some((9000, 9100)),
            ..Edits::default()
        };
        let (_, done) = rewrite(&src, none.clone());
        assert_eq!(
            outcome("g.rcg", &none, &done),
            Err("g.rcg has no show in cycles 9000 to 9100".into())
        );
        // Cut at a line in the middle: incomplete, written whole.
        let mut plain = Vec::new();
        std::io::Read::read_to_end(&mut flate2::read::GzDecoder::new(&src[..]), &mut plain)
            .unwrap();
        let mut end = plain.len() / 2;
        while plain[end - 1] != b'\n' {
            end -= 1;
        }
        let (_, done) = rewrite(&plain[..end], Edits::default());
        match outcome("g.rcg", &Edits::default(), &done) {
            Ok(Outcome::Incomplete(note)) => {
                assert!(
                    note.contains("incomplete: the log stops at cycle"),
                    "{note}"
                )
            }
            o => panic!("{o:?}"),
        }
        // Damaged in the middle: written up to the damage.
        let mut bad = plain.clone();
        let at = plain.len() / 3;
        bad[at..at + 40].fill(b'#');
        let (_, done) = rewrite(&bad, Edits::default());
        match outcome("g.rcg", &Edits::default(), &done) {
            Ok(Outcome::Damaged(note)) => assert!(note.contains("damaged"), "{note}"),
            o => panic!("{o:?}"),
        }
        // Not a log.
        let (_, done) = rewrite(b"hello", Edits::default());
        assert!(outcome("g.rcg", &Edits::default(), &done)
            .unwrap_err()
            .contains("cannot be read"));
    }

    #[test]
    fn reports_list_findings_with_their_place_and_cycle() {
        let src = short_v6();
        let mut plain = Vec::new();
        std::io::Read::read_to_end(&mut flate2::read::GzDecoder::new(&src[..]), &mut plain)
            .unwrap();
        let cut = &plain[..plain.len() / 2];
        let v = rcss_formats::tools::validate::validate(cut);
        let r = Report::of("cut.rcg".into(), &v);
        assert_eq!(r.version.as_deref(), Some("v6"));
        let inc = r.rows.iter().find(|r| r.kind == "incomplete").unwrap();
        assert!(inc.at.as_deref().unwrap().starts_with("line "), "{inc:?}");
        assert!(inc.cycle.is_some());
        assert!(inc.message.contains("incomplete"), "{inc:?}");
    }
}
