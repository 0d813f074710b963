//! One line of a text or JSON log: read on its own, then applied to the decoder in order.
//!
//! Reading a line (parsing its record) is most of a decoder's work and depends on nothing but
//! the line; what depends on the lines before it (the play mode and teams a log show takes,
//! line numbers, a JSON log's header and closing bracket) is a few assignments. The decoder
//! does both in turn ([`LogDecoder::feed`]); a caller with threads can take complete lines
//! out as a [`LineBatch`] ([`LogDecoder::feed_lines`]), read batches anywhere, and give them
//! back in order ([`LogDecoder::complete_lines`]). Both ways go through [`read_line`] and
//! [`LogDecoder::apply_line`], so they accept, refuse and report exactly the same.

use super::decoder::LogDecoder;
use super::line::{memchr_nl, read_line, JsonHeaderLine, LineRead, MAX_RECORD_BYTES};
use crate::error::{Location, LogError};
use crate::format::{Detail, LogVersion};
use crate::model::Record;
use crate::text;

/// Complete lines of a text or JSON log taken from a [`LogDecoder`] to be read elsewhere
/// ([`LineBatch::read`], e.g. on another thread), then given back to the same decoder with
/// [`LogDecoder::complete_lines`], batches in the order they were taken.
pub struct LineBatch {
    version: LogVersion,
    detail: Detail,
    /// Lines finished from what the decoder held before this batch's bytes.
    head: Vec<u8>,
    /// The bytes the caller fed (or inflated), of which `body` are whole lines.
    bytes: Vec<u8>,
    body: std::ops::Range<usize>,
    /// What stops the decoder after these lines.
    then: Option<Then>,
    seq: u64,
}

/// Why a decoder stops after a batch's lines, known when the batch was taken.
enum Then {
    /// A line longer than [`MAX_RECORD_BYTES`] follows (its number is known only in order).
    TooLarge(&'static str),
    /// The gzip stream broke after these lines.
    Error(LogError),
}

impl LineBatch {
    /// Reads every line. Needs nothing of the decoder.
    pub fn read(self) -> ReadLines {
        let mut records = Vec::new();
        let mut lines = Vec::new();
        let mut bytes_read = 0u64;
        let mut stopped = false;
        for part in [&self.head[..], &self.bytes[self.body.clone()]] {
            let mut rest = part;
            while let Some(n) = memchr_nl(rest) {
                let read = read_line(self.version, self.detail, &rest[..n], &mut records);
                let stop = matches!(read, LineRead::Failed { .. } | LineRead::TooLarge { .. });
                lines.push(read);
                bytes_read += n as u64 + 1;
                rest = &rest[n + 1..];
                if stop {
                    // Nothing after a bad line is used: the decoder stops there.
                    stopped = true;
                    break;
                }
            }
            if stopped {
                break;
            }
        }
        ReadLines {
            records,
            lines,
            bytes: bytes_read,
            then: if stopped { None } else { self.then },
            seq: self.seq,
            buffer: self.bytes,
        }
    }

    /// How many bytes of the log the batch holds.
    pub fn len(&self) -> usize {
        self.head.len() + self.body.len()
    }

    /// Whether the batch holds no line.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// A [`LineBatch`] read: its records, for [`LogDecoder::complete_lines`].
pub struct ReadLines {
    records: Vec<Record>,
    lines: Vec<LineRead>,
    bytes: u64,
    then: Option<Then>,
    seq: u64,
    buffer: Vec<u8>,
}

impl ReadLines {
    /// The buffer the batch's bytes came in, for the caller to read into again (it still
    /// holds them: read over them).
    pub fn take_buffer(&mut self) -> Vec<u8> {
        std::mem::take(&mut self.buffer)
    }
}

impl LogDecoder {
    /// Applies what [`read_line`] found in the line at `self.line`, whose records are
    /// `out[first..]`. `is_last`: the line is the last of the input; `unterminated`: it has
    /// no newline. Sets `self.error` and answers `false` where decoding stops.
    pub(super) fn apply_line(
        &mut self,
        read: LineRead,
        out: &mut [Record],
        is_last: bool,
        unterminated: bool,
    ) -> bool {
        let version = self.version;
        let note_json = |this: &mut LogDecoder, closes: bool, header: Option<JsonHeaderLine>| {
            if closes {
                this.json_closed = true;
            }
            if let Some(h) = header {
                if this.json_header.timestamp.is_none() {
                    if h.timestamp {
                        this.json_header.timestamp = Some(h.value);
                    } else {
                        this.json_header.version = Some(h.value);
                    }
                }
            }
        };
        match read {
            LineRead::Blank => true,
            LineRead::TooLarge { record } => {
                self.error = Some(LogError::TooLarge {
                    at: Location::Line(self.line),
                    record,
                    limit: MAX_RECORD_BYTES as u64,
                });
                false
            }
            LineRead::Records {
                count,
                shape,
                closes_json,
                header,
            } => {
                note_json(self, closes_json, header);
                self.note_locations(Location::Line(self.line), count);
                self.complete(out, shape);
                true
            }
            LineRead::Failed {
                fail,
                record,
                excerpt,
                at_end,
                closes_json,
                header,
            } => {
                note_json(self, closes_json, header);
                let json = version.is_some_and(LogVersion::is_json);
                self.error = Some(if version == Some(LogVersion::Json18) {
                    // An 18.x log is only read where its records happen to match the 19
                    // format; anything else is a format difference, not damage.
                    LogError::UnsupportedJson18 {
                        at: Location::Line(self.line),
                        detail: format!(
                            "{record} record: expected {}, found {excerpt}",
                            fail.expected
                        ),
                    }
                } else if is_last && json {
                    // The last line of a JSON log has no newline only when the log was cut
                    // inside it: its array was never closed.
                    LogError::Incomplete {
                        at: Location::Line(self.line),
                        cycle: self.last_time,
                    }
                } else if is_last && (unterminated || at_end) {
                    // A last line without its newline was cut while it was written (the
                    // server killed), wherever in it the reading failed.
                    LogError::Truncated {
                        at: Location::Line(self.line),
                        record,
                    }
                } else {
                    LogError::Malformed {
                        at: Location::Line(self.line),
                        record,
                        expected: fail.expected,
                        found: excerpt,
                    }
                });
                false
            }
        }
    }

    /// Like [`LogDecoder::feed`], for a caller that reads lines elsewhere: once the log is
    /// known to be a text or JSON log, the complete lines `chunk` ends are handed back as a
    /// batch instead of being read here. Anything else (the header, a binary log) is decoded
    /// into `out` as by `feed`. Every batch must be given back with
    /// [`LogDecoder::complete_lines`], in order, before [`LogDecoder::finish`]; an error in
    /// the input is reported there, at its place among the lines, and input fed after it
    /// is ignored.
    pub fn feed_lines(
        &mut self,
        chunk: Vec<u8>,
        out: &mut Vec<Record>,
    ) -> Result<Option<LineBatch>, LogError> {
        if let Some(e) = &self.error {
            return Err(e.clone());
        }
        if self.lines_stopped {
            return Ok(None);
        }
        let Some(version) = self.version.filter(|v| v.is_line_based()) else {
            self.feed(&chunk, out)?;
            return Ok(None);
        };
        self.raw_fed += chunk.len() as u64;
        let (head, bytes, body) = if self.gunzip.is_some() {
            self.inflate(&chunk)?;
            // Whole lines of what is inflated; the rest waits.
            match memrchr_nl(&self.pending) {
                Some(last) => {
                    let tail = self.pending[last + 1..].to_vec();
                    let mut bytes = std::mem::replace(&mut self.pending, tail);
                    bytes.truncate(last + 1);
                    let n = bytes.len();
                    (Vec::new(), bytes, 0..n)
                }
                None => (Vec::new(), Vec::new(), 0..0),
            }
        } else {
            match memchr_nl(&chunk) {
                Some(first) => {
                    let last = memrchr_nl(&chunk).unwrap_or(first);
                    let mut head = std::mem::take(&mut self.pending);
                    let body_start = if head.is_empty() {
                        0
                    } else {
                        head.extend_from_slice(&chunk[..=first]);
                        first + 1
                    };
                    self.pending.extend_from_slice(&chunk[last + 1..]);
                    (head, chunk, body_start..last + 1)
                }
                None => {
                    self.pending.extend_from_slice(&chunk);
                    (Vec::new(), Vec::new(), 0..0)
                }
            }
        };
        let then = if let Some(e) = self.gzip_error.take() {
            // The sync path reads the whole lines inflated before the break, then stops.
            Some(Then::Error(e))
        } else if self.pending.len() > MAX_RECORD_BYTES {
            Some(Then::TooLarge(text::kind_of(&self.pending)))
        } else {
            None
        };
        if then.is_some() {
            self.lines_stopped = true;
            self.pending.clear();
        } else if body.is_empty() && head.is_empty() {
            return Ok(None);
        }
        let seq = self.batches_out;
        self.batches_out += 1;
        Ok(Some(LineBatch {
            version,
            detail: self.detail,
            head,
            bytes,
            body,
            then,
            seq,
        }))
    }

    /// Applies a batch read from [`LogDecoder::feed_lines`], appending its records to `out`.
    /// After an error nothing more is decoded and the same error is returned again.
    ///
    /// # Panics
    /// When batches come back in another order than they were taken in: that would complete
    /// log shows with the play mode of the wrong lines.
    pub fn complete_lines(
        &mut self,
        mut lines: ReadLines,
        out: &mut Vec<Record>,
    ) -> Result<(), LogError> {
        assert_eq!(
            lines.seq, self.batches_in,
            "line batches given back out of order"
        );
        self.batches_in += 1;
        if let Some(e) = &self.error {
            return Err(e.clone());
        }
        let first = out.len();
        out.append(&mut lines.records);
        let mut at = first;
        for read in lines.lines {
            let n = match &read {
                LineRead::Records { count, .. } => *count,
                _ => 0,
            };
            let ok = self.apply_line(read, &mut out[at..at + n], false, false);
            if !ok {
                out.truncate(at);
                return self.check();
            }
            at += n;
            self.line += 1;
        }
        self.offset += lines.bytes;
        self.error = match lines.then {
            Some(Then::TooLarge(record)) => Some(LogError::TooLarge {
                at: Location::Line(self.line),
                record,
                limit: MAX_RECORD_BYTES as u64,
            }),
            Some(Then::Error(e)) => Some(e),
            None => None,
        };
        self.check()
    }
}

fn memrchr_nl(s: &[u8]) -> Option<usize> {
    memchr::memrchr(b'\n', s)
}
