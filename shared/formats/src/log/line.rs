//! Reading one line of a text or JSON log on its own, with no state of the decoder: most of
//! a decoder's work, and the same whether the decoder reads the line or a batch of lines is
//! read elsewhere ([`super::lines`]).

use crate::error::{excerpt, Fail};
use crate::format::{Detail, LogVersion, ShowShape};
use crate::model::Record;
use crate::{json, text};

/// Longest line or record accepted; a real `server_param` line is ~4 KB and a show ~3.5 KB,
/// a JSON show ~8 KB. Anything longer is not a log this reader can trust.
pub const MAX_RECORD_BYTES: usize = 1 << 20;

/// The first newline in `s`.
pub(super) fn memchr_nl(s: &[u8]) -> Option<usize> {
    memchr::memchr(b'\n', s)
}

/// What one line held, read with no state of the decoder.
pub(super) enum LineRead {
    /// Nothing but white space.
    Blank,
    /// `count` records were appended; `shape` says what a show among them carried.
    Records {
        count: usize,
        shape: ShowShape,
        /// A JSON log's closing `]`.
        closes_json: bool,
        /// A JSON log's `{"version":…}` or `{"timestamp":…}` line.
        header: Option<JsonHeaderLine>,
    },
    /// The line is not a record this decoder reads.
    Failed {
        fail: Fail,
        record: &'static str,
        excerpt: String,
        /// The reading failed at or past the line's end (it may have been cut).
        at_end: bool,
        closes_json: bool,
        header: Option<JsonHeaderLine>,
    },
    /// Longer than [`MAX_RECORD_BYTES`].
    TooLarge { record: &'static str },
}

/// A JSON log's header line: which key, and its value.
pub(super) struct JsonHeaderLine {
    pub(super) timestamp: bool,
    pub(super) value: String,
}

/// The record kind of `line`, for errors.
fn kind_of(version: LogVersion, line: &[u8]) -> &'static str {
    if version.is_json() {
        json::kind_of(line)
    } else {
        text::kind_of(line)
    }
}

/// Reads one line (without its newline) of a log of `version`, appending its records to `out`.
pub(super) fn read_line(
    version: LogVersion,
    detail: Detail,
    line: &[u8],
    out: &mut Vec<Record>,
) -> LineRead {
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    if line.len() > MAX_RECORD_BYTES {
        return LineRead::TooLarge {
            record: text::kind_of(line),
        };
    }
    if line.iter().all(|b| b.is_ascii_whitespace()) {
        return LineRead::Blank;
    }
    let (closes_json, header) = if version.is_json() {
        (line.trim_ascii() == b"]", json_header_line(line))
    } else {
        (false, None)
    };
    let first = out.len();
    let res = if version.is_json() {
        json::parse_log_line(line, out, detail)
    } else {
        text::parse_record_with(line, out, detail)
    };
    match res {
        Ok(shape) => LineRead::Records {
            count: out.len() - first,
            shape,
            closes_json,
            header,
        },
        Err(fail) => {
            out.truncate(first);
            LineRead::Failed {
                record: kind_of(version, line),
                excerpt: excerpt(line, fail.pos),
                at_end: fail.pos >= line.len(),
                fail,
                closes_json,
                header,
            }
        }
    }
}

/// The value of a `{"version":…}` or `{"timestamp":…}` line.
fn json_header_line(line: &[u8]) -> Option<JsonHeaderLine> {
    let line = line.trim_ascii();
    let line = line.strip_suffix(b",").unwrap_or(line);
    let (key, timestamp) = if line.starts_with(b"{\"version\":") {
        ("version", false)
    } else if line.starts_with(b"{\"timestamp\":") {
        ("timestamp", true)
    } else {
        return None;
    };
    let v = serde_json::from_slice::<serde_json::Value>(line).ok()?;
    let value = v.get(key)?.as_str()?.to_owned();
    Some(JsonHeaderLine { timestamp, value })
}
