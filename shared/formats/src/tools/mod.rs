//! Log tools, the pure part of `pitchside-inspect validate | reverse | rename | convert | clip`:
//! bytes (or records) in, findings or bytes out, no IO, so the page can call them for a
//! "Save as…" as the inspector does for files.
//!
//! - [`validate`]: what librcsc's `rcgvalidator` reports, and what it misses, each finding with
//!   its place in the file and its cycle.
//! - [`reverse`](mod@reverse): the match seen from the other side, as librcsc's `rcgreverse` means it (and
//!   what it forgets to flip).
//! - [`Renamer`]: team names, as librcsc's `rcgrenameteam`.
//! - [`clip`]: cycles A to B as a log that stands on its own.
//! - [`Rewriter`]: any of these, and a change of version ([`crate::write::LogWriter`]), applied
//!   to a log fed in chunks of any size, its output given out as it is written: a file of
//!   any size passes through in memory that does not grow with it.

pub mod clip;
pub mod reverse;
pub mod validate;

pub use clip::Clip;
pub use reverse::reverse;
pub use validate::{Finding, FindingKind, Validator};

use crate::log::{LogDecoder, LogEnd};
use crate::model::Record;
use crate::write::LogWriter;
use crate::{LogError, LogVersion};

/// New team names (`None`: keep).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Rename {
    pub left: Option<String>,
    pub right: Option<String>,
}

/// Renames teams as `rcgrenameteam` does (team records, and the teams every show carries),
/// and in the `(result …)` msg the server writes at the end, whose `NAME_SCORE-vs-NAME_SCORE`
/// would otherwise still name the old teams. It remembers the old names from the records it
/// sees, to find them in that msg.
#[derive(Clone, Debug, Default)]
pub struct Renamer {
    names: Rename,
    old: [Option<String>; 2],
}

impl Renamer {
    pub fn new(names: Rename) -> Renamer {
        Renamer {
            names,
            old: [None, None],
        }
    }

    pub fn record(&mut self, r: &mut Record) {
        let mut apply = |teams: &mut [crate::model::Team; 2]| {
            for ((t, new), old) in teams
                .iter_mut()
                .zip([&self.names.left, &self.names.right])
                .zip(self.old.iter_mut())
            {
                if t.name.is_some() {
                    old.clone_from(&t.name);
                }
                if let Some(n) = new {
                    t.name = Some(n.clone());
                }
            }
        };
        match r {
            Record::Team { teams, .. } => apply(teams),
            Record::Show(f) => apply(&mut f.teams),
            Record::Msg(m) => {
                if let Some(text) = rename_result(&m.text, &self.names, &self.old) {
                    m.text = text;
                }
            }
            _ => {}
        }
    }
}

/// `(result STAMP L_[COACH_]S[_P]-vs-R_[COACH_]S[_P])` with the new names in place of `old`.
fn rename_result(text: &[u8], names: &Rename, old: &[Option<String>; 2]) -> Option<Vec<u8>> {
    let s = std::str::from_utf8(text).ok()?;
    let body = s.strip_prefix("(result ")?.strip_suffix(')')?;
    let (stamp, teams) = body.split_once(' ')?;
    let (l, r) = teams.split_once("-vs-")?;
    let swap = |part: &str, new: &Option<String>, old: &Option<String>| -> String {
        match (new, old) {
            (Some(new), Some(old)) => match part.strip_prefix(old.as_str()) {
                Some(rest) if rest.starts_with('_') => format!("{new}{rest}"),
                _ => part.to_owned(),
            },
            _ => part.to_owned(),
        }
    };
    let renamed = format!(
        "(result {stamp} {}-vs-{})",
        swap(l, &names.left, &old[0]),
        swap(r, &names.right, &old[1])
    );
    (renamed != s).then(|| renamed.into_bytes())
}

/// What a [`Rewriter`] does to each record on its way.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Edits {
    /// Write this version (`None`: the source's own; rcssserver 18's JSON becomes 19's).
    pub to: Option<LogVersion>,
    pub reverse: bool,
    pub rename: Rename,
    /// Keep only cycles `from` to `to` (see [`Clip`]).
    pub clip: Option<(u32, u32)>,
}

/// Decodes a log fed in chunks, applies [`Edits`] to its records and writes them: feed it
/// with [`Rewriter::feed`], which gives back the bytes written so far, and end with
/// [`Rewriter::finish`].
///
/// A log damaged part-way is written up to the damage (what librcsc's tools write too), and
/// the damage is reported by [`Rewriter::finish`]; so is a log cut short.
pub struct Rewriter {
    decoder: LogDecoder,
    edits: Edits,
    writer: Option<LogWriter>,
    clip: Option<Clip>,
    renamer: Renamer,
    records: Vec<Record>,
    staged: Vec<Record>,
    end: LogEnd,
    shows: u64,
}

/// How a rewrite went.
#[derive(Clone, Debug, PartialEq)]
pub struct Rewritten {
    /// The version written.
    pub version: Option<LogVersion>,
    /// Shows written.
    pub shows: u64,
    /// Why the source could not be read to its end, if it could not: what came before is
    /// written.
    pub error: Option<LogError>,
    /// Where the source's record of the match stops (as far as it was read).
    pub end: LogEnd,
    /// The source was not read to its end: a clip ended before it.
    pub stopped_early: bool,
}

impl Rewriter {
    pub fn new(edits: Edits) -> Rewriter {
        let clip = edits.clip.map(|(a, b)| Clip::new(a, b));
        Rewriter {
            renamer: Renamer::new(edits.rename.clone()),
            decoder: LogDecoder::new(),
            edits,
            writer: None,
            clip,
            records: Vec::new(),
            staged: Vec::new(),
            end: LogEnd::default(),
            shows: 0,
        }
    }

    /// Takes the next chunk of the source; returns the bytes written so far (maybe none).
    /// After damage, nothing more is read: [`Rewriter::finish`] says what it was.
    pub fn feed(&mut self, chunk: &[u8]) -> Vec<u8> {
        if self.decoder.error().is_some() {
            return Vec::new();
        }
        let _ = self.decoder.feed(chunk, &mut self.records);
        self.pass()
    }

    /// Whether the rest of the source can no longer change the output (a clip past its
    /// end, damage): a caller reading a big file may stop reading.
    pub fn done(&self) -> bool {
        self.decoder.error().is_some() || self.clip.as_ref().is_some_and(Clip::done)
    }

    /// Ends the source; returns the last bytes and how it went.
    pub fn finish(mut self) -> (Vec<u8>, Rewritten) {
        let stopped_early = self.decoder.error().is_none() && self.done();
        let error = match self.decoder.error() {
            Some(e) => Some(e.clone()),
            None if stopped_early => None,
            None => self.decoder.finish(&mut self.records).err(),
        };
        let mut out = self.pass();
        if let Some(c) = &mut self.clip {
            c.finish();
        }
        out.extend(self.write_staged());
        let version = self.target();
        if let Some(w) = self.writer.take() {
            out.extend(w.finish());
        } else if let Some(v) = version {
            // A log with no record at all still gets its header.
            out.extend(LogWriter::new(v).finish());
        }
        let done = Rewritten {
            version,
            shows: self.shows,
            error,
            end: self.end,
            stopped_early,
        };
        (out, done)
    }

    fn target(&self) -> Option<LogVersion> {
        let v = self.edits.to.or(self.decoder.version())?;
        Some(if v == LogVersion::Json18 {
            LogVersion::Json
        } else {
            v
        })
    }

    fn pass(&mut self) -> Vec<u8> {
        for mut r in self.records.drain(..) {
            self.end.push(&r);
            if self.edits.reverse {
                reverse(&mut r);
            }
            if self.edits.rename != Rename::default() {
                self.renamer.record(&mut r);
            }
            match &mut self.clip {
                Some(c) => c.push(r, &mut self.staged),
                None => self.staged.push(r),
            }
        }
        self.write_staged()
    }

    fn write_staged(&mut self) -> Vec<u8> {
        if self.staged.is_empty() {
            return self
                .writer
                .as_mut()
                .map(LogWriter::take)
                .unwrap_or_default();
        }
        if self.writer.is_none() {
            let Some(v) = self.target() else {
                return Vec::new();
            };
            self.writer = Some(LogWriter::with_header(
                v,
                self.decoder.json_header().clone(),
            ));
        }
        let Some(w) = self.writer.as_mut() else {
            return Vec::new();
        };
        for r in self.staged.drain(..) {
            if matches!(r, Record::Show(_)) {
                self.shows += 1;
            }
            w.record(&r);
        }
        w.take()
    }
}

/// Applies `edits` to a whole log held in memory.
pub fn rewrite(bytes: &[u8], edits: Edits) -> (Vec<u8>, Rewritten) {
    let mut r = Rewriter::new(edits);
    let mut out = Vec::new();
    for chunk in bytes.chunks(256 << 10) {
        out.extend(r.feed(chunk));
        if r.done() {
            break;
        }
    }
    let (rest, done) = r.finish();
    out.extend(rest);
    (out, done)
}

/// `bytes` written in version `to`.
pub fn convert(bytes: &[u8], to: LogVersion) -> (Vec<u8>, Rewritten) {
    rewrite(
        bytes,
        Edits {
            to: Some(to),
            ..Edits::default()
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn result_msgs_name_the_new_teams() {
        let names = Rename {
            left: Some("NEW".into()),
            right: None,
        };
        let old = [Some("SHORT_L_a".to_owned()), Some("SHORT_R_a".to_owned())];
        let r = rename_result(
            b"(result 202611221327 SHORT_L_a_0-vs-SHORT_R_a_1)",
            &names,
            &old,
        );
        assert_eq!(
            r.as_deref(),
            Some(&b"(result 202611221327 NEW_0-vs-SHORT_R_a_1)"[..])
        );
        let old = [Some("PEN_L".to_owned()), Some("PEN_R".to_owned())];
        let r = rename_result(
            b"(result 202611221328 PEN_L_0_4-vs-PEN_R_0_2)",
            &names,
            &old,
        );
        assert_eq!(
            r.as_deref(),
            Some(&b"(result 202611221328 NEW_0_4-vs-PEN_R_0_2)"[..])
        );
        assert_eq!(rename_result(b"(referee goal_l_1)", &names, &old), None);
    }
}
