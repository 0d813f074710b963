//! Errors a user can act on: where (byte offset into the decompressed data, or 1-based line),
//! in which kind of record, what was expected and what was there instead (shortened).

use std::fmt;

/// Where in the input an error is. Offsets count decompressed bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub enum Location {
    Offset(u64),
    Line(u64),
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Location::Offset(o) => write!(f, "byte {o}"),
            Location::Line(l) => write!(f, "line {l}"),
        }
    }
}

#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum LogError {
    #[error("not an rcssserver game log (it starts with {found})")]
    UnknownFormat { found: String },
    #[error("the file is empty")]
    Empty,
    #[error("{at}: {record} record: expected {expected}, found {found}")]
    Malformed {
        at: Location,
        record: &'static str,
        expected: &'static str,
        found: String,
    },
    #[error("{at}: the data ends inside a {record} record")]
    Truncated { at: Location, record: &'static str },
    #[error("{at}: {record} record is longer than the {limit}-byte limit")]
    TooLarge {
        at: Location,
        record: &'static str,
        limit: u64,
    },
    /// A JSON log whose array is never closed: the server stopped before the end of the game
    /// (it was killed), so the log stops at `cycle`. Every complete record before `at` is
    /// kept; a record cut in the middle is dropped.
    #[error("incomplete: the log stops at cycle {cycle}")]
    Incomplete { at: Location, cycle: u32 },
    /// More shows than a page can hold: it keeps the first `limit` and stops reading, rather
    /// than let a hostile or concatenated file take the browser's memory.
    #[error(
        "{at}: more than {limit} shows, more than the page holds (a whole game is about 6,500)"
    )]
    TooManyShows { at: Location, limit: usize },
    #[error("gzip data is corrupt after {decompressed} decompressed bytes: {reason}")]
    Gzip { decompressed: u64, reason: String },
    /// The gzip stream stops before its end (no trailer): what a server killed while it
    /// wrote a compressed log leaves. Every record inflated before is kept.
    #[error("the compressed stream stops after {decompressed} decompressed bytes, before its end")]
    GzipCut { decompressed: u64 },
    /// rcssserver 18 wrote JSON logs (first line `JSON`) in a format of its own; records
    /// that match the 19 format are read, the first that does not ends the log here.
    #[error("{at}: this is an rcssserver 18.x JSON log, and its records differ from the rcssserver 19 format that is supported ({detail})")]
    UnsupportedJson18 { at: Location, detail: String },
}

impl LogError {
    pub fn location(&self) -> Option<Location> {
        match self {
            LogError::Malformed { at, .. }
            | LogError::Truncated { at, .. }
            | LogError::TooLarge { at, .. }
            | LogError::UnsupportedJson18 { at, .. }
            | LogError::Incomplete { at, .. }
            | LogError::TooManyShows { at, .. } => Some(*at),
            LogError::Gzip { decompressed, .. } | LogError::GzipCut { decompressed } => {
                Some(Location::Offset(*decompressed))
            }
            _ => None,
        }
    }
}

/// Errors decoding one live datagram.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum DatagramError {
    #[error("empty datagram")]
    Empty,
    #[error("zlib data does not inflate: {0}")]
    Zlib(String),
    #[error("datagram of {0} bytes inflates to more than the 1 MiB limit")]
    TooLarge(usize),
    #[error("byte {offset}: {record}: expected {expected}, found {found}")]
    Malformed {
        offset: usize,
        record: &'static str,
        expected: &'static str,
        found: String,
    },
    #[error("unrecognised datagram: {found}")]
    Unknown { found: String },
}

/// A parse failure inside one record, before the caller adds where the record is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Fail {
    /// Offset of the offending byte inside the record.
    pub pos: usize,
    pub expected: &'static str,
}

/// Shows at most 40 bytes of `bytes` starting at `pos`, escaping what is not printable ASCII.
pub(crate) fn excerpt(bytes: &[u8], pos: usize) -> String {
    let start = pos.min(bytes.len());
    let end = (start + 40).min(bytes.len());
    if start == end {
        return "end of record".to_owned();
    }
    let text = |b: &u8| matches!(b, b'\n' | b'\r' | b'\t' | 0x20..0x7f);
    if bytes[start..end].iter().filter(|b| !text(b)).count() * 4 > end - start {
        // Mostly binary (zeros, an image, a stray archive): escaping each byte as \xNN made a
        // line of noise; the first few bytes in hex say what the file is just as well.
        let mut s = String::from("binary data, bytes");
        for b in &bytes[start..(start + 8).min(end)] {
            s.push_str(&format!(" {b:02x}"));
        }
        s.push_str(" …");
        return s;
    }
    let mut s = String::from("\"");
    for &b in &bytes[start..end] {
        match b {
            b'\n' => s.push_str("\\n"),
            b'\r' => s.push_str("\\r"),
            b'\t' => s.push_str("\\t"),
            b'"' => s.push_str("\\\""),
            b'\\' => s.push_str("\\\\"),
            0x20..0x7f => s.push(b as char),
            _ => s.push_str(&format!("\\x{b:02x}")),
        }
    }
    s.push('"');
    if end < bytes.len() {
        s.push('…');
    }
    s
}

#[cfg(test)]
mod tests {
    use super::excerpt;

    #[test]
    fn text_is_quoted_and_binary_is_shown_as_its_first_bytes() {
        assert_eq!(excerpt(b"ULG6\n(show 1", 0), "\"ULG6\\n(show 1\"");
        assert_eq!(
            excerpt(&[0u8; 100], 0),
            "binary data, bytes 00 00 00 00 00 00 00 00 …"
        );
        let png = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x04\x00";
        assert_eq!(
            excerpt(png, 0),
            "binary data, bytes 89 50 4e 47 0d 0a 1a 0a …"
        );
        // A stray byte in a text record stays readable.
        assert_eq!(
            excerpt(b"(show 1 \xff(b 0 0))", 0),
            "\"(show 1 \\xff(b 0 0))\""
        );
        assert_eq!(excerpt(b"abc", 3), "end of record");
    }
}
