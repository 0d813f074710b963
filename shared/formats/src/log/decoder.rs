//! The push-style decoder: bytes of any chunking in, records out as soon as they are
//! complete, the format detected from the content.

use super::line::{memchr_nl, read_line, MAX_RECORD_BYTES};
use crate::error::{excerpt, Location, LogError};
use crate::format::{Detail, JsonHeader, LogVersion};
use crate::model::{Record, Team};
use crate::playmode::PlayMode;
use crate::{binary, text};
use std::io::Write;

/// Inflates gzip input incrementally.
///
/// Input reaches the inflater in fixed slices at fixed offsets, whatever sizes the caller
/// feeds: what a damaged stream yields before its error then does not depend on how the file
/// was read (found by fuzzing: a whole-file write lost output that small writes kept).
pub(super) struct Gunzip {
    decoder: flate2::write::GzDecoder<Vec<u8>>,
    staged: Vec<u8>,
}

const GUNZIP_SLICE: usize = 16 << 10;

/// Feed it bytes with [`LogDecoder::feed`]; call [`LogDecoder::finish`] at the end of input.
pub struct LogDecoder {
    pub(super) gunzip: Option<Gunzip>,
    pub(super) sniffed_gzip: bool,
    /// Decompressed bytes not yet consumed.
    pub(super) pending: Vec<u8>,
    /// Decompressed offset of `pending[0]`.
    pub(super) offset: u64,
    /// 1-based number of the next line (line-based formats).
    pub(super) line: u64,
    pub(super) version: Option<LogVersion>,
    pub(super) mode: PlayMode,
    pub(super) teams: [Team; 2],
    pub(super) error: Option<LogError>,
    pub(super) raw_fed: u64,
    pub(super) finished: bool,
    /// Time of the last show, for binary records that carry none (msgs, v3 PM/TEAM).
    pub(super) last_time: u32,
    /// v3 PM/TEAM records wait here for the show they precede, whose time they take.
    pub(super) held: Vec<Record>,
    /// Where each held record is.
    pub(super) held_at: Vec<Location>,
    /// Where each record given out came from, while asked for ([`LogDecoder::track_locations`]).
    pub(super) locations: Option<Vec<Location>>,
    /// A JSON log's `version` and `timestamp` records.
    pub(super) json_header: JsonHeader,
    /// A gzip error, reported once the records inflated before it are decoded.
    pub(super) gzip_error: Option<LogError>,
    /// A JSON log's closing `]` was seen: without it the log is incomplete.
    pub(super) json_closed: bool,
    /// A show was decoded, so `last_time` is a real cycle.
    pub(super) saw_show: bool,
    pub(super) detail: Detail,
    /// Line batches taken ([`LogDecoder::feed_lines`]) and given back so far.
    pub(super) batches_out: u64,
    pub(super) batches_in: u64,
    /// A batch carried the input's error: what is fed after it is not read.
    pub(super) lines_stopped: bool,
}

impl Default for LogDecoder {
    fn default() -> Self {
        Self::new()
    }
}

impl LogDecoder {
    pub fn new() -> Self {
        LogDecoder {
            gunzip: None,
            sniffed_gzip: false,
            pending: Vec::new(),
            offset: 0,
            line: 1,
            version: None,
            mode: PlayMode::NULL,
            teams: Default::default(),
            error: None,
            raw_fed: 0,
            finished: false,
            last_time: 0,
            held: Vec::new(),
            held_at: Vec::new(),
            locations: None,
            json_header: Default::default(),
            gzip_error: None,
            json_closed: false,
            saw_show: false,
            detail: Detail::Full,
            batches_out: 0,
            batches_in: 0,
            lines_stopped: false,
        }
    }

    /// Reads shows as `detail` says from now on ([`Detail::Full`] unless set).
    pub fn set_detail(&mut self, detail: Detail) {
        self.detail = detail;
    }

    /// From now on, notes where each record comes from: its line (text and JSON logs) or the
    /// offset of its first byte in the decompressed data (binary logs). Read them with
    /// [`LogDecoder::take_locations`]. For the tools that report or cut at a place in the file
    /// (`pitchside-inspect validate`); decoding for display does not pay for it.
    pub fn track_locations(&mut self) {
        self.locations.get_or_insert_with(Vec::new);
    }

    /// The locations of the records given out since the last call, one per record in the
    /// order they were appended to `out` (empty unless [`LogDecoder::track_locations`]).
    pub fn take_locations(&mut self) -> Vec<Location> {
        self.locations
            .as_mut()
            .map(std::mem::take)
            .unwrap_or_default()
    }

    pub(super) fn note_locations(&mut self, at: Location, n: usize) {
        if let Some(l) = &mut self.locations {
            l.extend(std::iter::repeat_n(at, n));
        }
    }

    /// What a JSON log's header records said (the server's version, the match's start), once
    /// read: a JSON log written from this one can say the same.
    pub fn json_header(&self) -> &JsonHeader {
        &self.json_header
    }

    /// The detected version, once enough bytes were seen.
    pub fn version(&self) -> Option<LogVersion> {
        self.version
    }

    pub fn is_compressed(&self) -> bool {
        self.gunzip.is_some()
    }

    /// Input bytes (compressed, as fed) taken so far: progress for a progress bar.
    pub fn bytes_fed(&self) -> u64 {
        self.raw_fed
    }

    /// Decompressed bytes turned into records so far.
    pub fn bytes_decoded(&self) -> u64 {
        self.offset
    }

    /// The error that stopped decoding, if any.
    pub fn error(&self) -> Option<&LogError> {
        self.error.as_ref()
    }

    /// Decodes what `chunk` completes, appending records to `out`. After an error nothing more is
    /// decoded and the same error is returned again.
    pub fn feed(&mut self, chunk: &[u8], out: &mut Vec<Record>) -> Result<(), LogError> {
        if let Some(e) = &self.error {
            return Err(e.clone());
        }
        self.raw_fed += chunk.len() as u64;
        if !self.sniffed_gzip {
            // Decide on gzip from the first two bytes of the raw input.
            let mut head = self.pending.clone();
            head.extend_from_slice(&chunk[..chunk.len().min(2)]);
            if head.len() < 2 && !chunk.is_empty() {
                self.pending.extend_from_slice(chunk);
                return Ok(());
            }
            if head.len() >= 2 {
                self.sniffed_gzip = true;
                if head[..2] == [0x1f, 0x8b] {
                    let early = std::mem::take(&mut self.pending);
                    self.gunzip = Some(Gunzip {
                        decoder: flate2::write::GzDecoder::new(Vec::new()),
                        staged: Vec::new(),
                    });
                    self.inflate(&early)?;
                    self.inflate(chunk)?;
                    return self.decode(out, false);
                }
            }
        }
        if self.gunzip.is_some() {
            self.inflate(chunk)?;
            return self.decode(out, false);
        }
        let mut chunk = chunk;
        if !self.pending.is_empty() {
            // Finish the record left incomplete by the last chunk on its own, so the rest of
            // this chunk can be decoded in place rather than copied behind it.
            let line_based = self.version.is_some_and(|v| v.is_line_based());
            match memchr_nl(chunk) {
                Some(nl) if line_based => {
                    self.pending.extend_from_slice(&chunk[..=nl]);
                    self.decode(out, false)?;
                    chunk = &chunk[nl + 1..];
                }
                _ => {
                    self.pending.extend_from_slice(chunk);
                    return self.decode(out, false);
                }
            }
            if !self.pending.is_empty() {
                self.pending.extend_from_slice(chunk);
                return self.decode(out, false);
            }
        }
        // Decode straight from the caller's chunk, keep only the incomplete tail.
        let used = self.decode_from(chunk, out, false);
        self.pending.extend_from_slice(&chunk[used..]);
        self.check()
    }

    /// Signals the end of input: decodes a last line without newline and reports a record or
    /// gzip stream that was cut off.
    pub fn finish(&mut self, out: &mut Vec<Record>) -> Result<(), LogError> {
        if let Some(e) = &self.error {
            return Err(e.clone());
        }
        if self.finished {
            return Ok(());
        }
        self.finished = true;
        self.inflate_rest();
        if self.gzip_error.is_none()
            && self.version.is_none()
            && self.pending.is_empty()
            && self.offset == 0
        {
            return self.set_error(LogError::Empty);
        }
        self.decode(out, true)?;
        if self.version.is_some_and(LogVersion::is_json) && !self.json_closed {
            // The server closes the array when the game ends; a log without `]` was cut
            // short (the server was killed), whatever its last complete record was.
            return self.set_error(LogError::Incomplete {
                at: Location::Line(self.line),
                cycle: self.last_cycle(),
            });
        }
        Ok(())
    }

    /// The cycle of the last show decoded (0 before any).
    pub fn last_cycle(&self) -> u32 {
        self.last_time
    }

    pub(super) fn inflate(&mut self, chunk: &[u8]) -> Result<(), LogError> {
        if self.gzip_error.is_some() {
            return Ok(());
        }
        let Some(gz) = &mut self.gunzip else {
            return Ok(());
        };
        gz.staged.extend_from_slice(chunk);
        let mut start = 0;
        while gz.staged.len() - start >= GUNZIP_SLICE {
            let slice = &gz.staged[start..start + GUNZIP_SLICE];
            start += GUNZIP_SLICE;
            let res = gz.decoder.write_all(slice);
            let produced = std::mem::take(gz.decoder.get_mut());
            self.pending.extend_from_slice(&produced);
            if let Err(e) = res {
                self.gzip_error = Some(LogError::Gzip {
                    decompressed: self.offset + self.pending.len() as u64,
                    reason: e.to_string(),
                });
                gz.staged.clear();
                return Ok(());
            }
        }
        gz.staged.drain(..start);
        Ok(())
    }

    /// Inflates what is staged at the end of input and checks the gzip trailer.
    pub(super) fn inflate_rest(&mut self) {
        if self.gzip_error.is_some() {
            return;
        }
        let Some(gz) = &mut self.gunzip else { return };
        let staged = std::mem::take(&mut gz.staged);
        let res = gz
            .decoder
            .write_all(&staged)
            .and_then(|_| gz.decoder.try_finish());
        let produced = std::mem::take(gz.decoder.get_mut());
        self.pending.extend_from_slice(&produced);
        if let Err(e) = res {
            let decompressed = self.offset + self.pending.len() as u64;
            // Every byte given inflated without complaint and only the end is missing: the
            // file was cut (the server killed while writing it), not damaged.
            self.gzip_error = Some(if e.kind() == std::io::ErrorKind::UnexpectedEof {
                LogError::GzipCut { decompressed }
            } else {
                LogError::Gzip {
                    decompressed,
                    reason: format!("the compressed stream is cut off or damaged ({e})"),
                }
            });
        }
    }

    pub(super) fn set_error<T>(&mut self, e: LogError) -> Result<T, LogError> {
        self.error = Some(e.clone());
        Err(e)
    }

    pub(super) fn check(&mut self) -> Result<(), LogError> {
        match &self.error {
            Some(e) => Err(e.clone()),
            None => Ok(()),
        }
    }

    pub(super) fn decode(&mut self, out: &mut Vec<Record>, at_end: bool) -> Result<(), LogError> {
        // After a gzip error nothing more will come: decode the complete records inflated
        // before it, then report it.
        let broken = self.gzip_error.is_some();
        let pending = std::mem::take(&mut self.pending);
        let used = self.decode_from(&pending, out, at_end && !broken);
        self.pending = pending;
        self.pending.drain(..used);
        self.check()?;
        match self.gzip_error.take() {
            Some(e) => self.set_error(e),
            None => Ok(()),
        }
    }

    /// Decodes complete records from `buf` (which starts at `self.offset`); returns bytes used.
    pub(super) fn decode_from(&mut self, buf: &[u8], out: &mut Vec<Record>, at_end: bool) -> usize {
        let mut pos = 0;
        if self.version.is_none() {
            match detect(buf, at_end) {
                Detect::NeedMore => return 0,
                Detect::Unknown(found) => {
                    self.error = Some(if buf.is_empty() {
                        LogError::Empty
                    } else {
                        LogError::UnknownFormat { found }
                    });
                    return 0;
                }
                Detect::Found(v, header) => {
                    self.version = Some(v);
                    pos = header;
                    if v.is_line_based() && header > 0 {
                        self.line += 1;
                    }
                }
            }
        }
        let Some(version) = self.version else {
            return 0;
        };
        if version.is_line_based() {
            pos = self.decode_lines(version, buf, pos, out, at_end);
        } else {
            pos = self.decode_binary(version, buf, pos, out, at_end);
        }
        self.offset += pos as u64;
        pos
    }

    pub(super) fn decode_lines(
        &mut self,
        version: LogVersion,
        buf: &[u8],
        mut pos: usize,
        out: &mut Vec<Record>,
        at_end: bool,
    ) -> usize {
        while pos < buf.len() {
            let rest = &buf[pos..];
            let (line, used, unterminated) = match memchr_nl(rest) {
                Some(n) => (&rest[..n], n + 1, false),
                None if at_end => (rest, rest.len(), true),
                None => {
                    if rest.len() > MAX_RECORD_BYTES {
                        self.error = Some(LogError::TooLarge {
                            at: Location::Line(self.line),
                            record: text::kind_of(rest),
                            limit: MAX_RECORD_BYTES as u64,
                        });
                    }
                    break;
                }
            };
            let first = out.len();
            let read = read_line(version, self.detail, line, out);
            let is_last = at_end && used == rest.len();
            if !self.apply_line(read, &mut out[first..], is_last, unterminated) {
                break;
            }
            pos += used;
            self.line += 1;
        }
        pos
    }

    pub(super) fn decode_binary(
        &mut self,
        version: LogVersion,
        buf: &[u8],
        mut pos: usize,
        out: &mut Vec<Record>,
        at_end: bool,
    ) -> usize {
        while pos < buf.len() {
            let first = out.len();
            match binary::decode_log_record(version, &buf[pos..], out) {
                Ok(binary::Step::Record { len, shape }) => {
                    self.place_binary(out, first, Location::Offset(self.offset + pos as u64));
                    self.complete(&mut out[first..], shape);
                    pos += len;
                }
                Ok(binary::Step::NeedMore { record }) => {
                    if at_end {
                        self.error = Some(LogError::Truncated {
                            at: Location::Offset(self.offset + pos as u64),
                            record,
                        });
                    }
                    break;
                }
                Err((record, fail)) => {
                    out.truncate(first);
                    self.error = Some(LogError::Malformed {
                        at: Location::Offset(self.offset + (pos + fail.pos) as u64),
                        record,
                        expected: fail.expected,
                        found: excerpt(&buf[pos..], fail.pos),
                    });
                    break;
                }
            }
        }
        if at_end && pos == buf.len() && !self.held.is_empty() {
            let first = out.len();
            self.release_held(out, self.last_time);
            self.complete(&mut out[first..], crate::format::ShowShape::default());
        }
        pos
    }

    /// Gives out the held v3 PM/TEAM records with time `time`.
    pub(super) fn release_held(&mut self, out: &mut Vec<Record>, time: u32) {
        let at = std::mem::take(&mut self.held_at);
        for (mut r, at) in self.held.drain(..).zip(at) {
            set_time(&mut r, time);
            out.push(r);
            if let Some(l) = &mut self.locations {
                l.push(at);
            }
        }
    }

    /// Gives binary records the times their format leaves out: a msg gets the time of the
    /// show before it; a v3 PM or TEAM record, written just before the show of the cycle it
    /// changed in, waits for that show and takes its time.
    pub(super) fn place_binary(&mut self, out: &mut Vec<Record>, first: usize, at: Location) {
        let new = out.split_off(first);
        for mut r in new {
            if matches!(r, Record::PlayMode { .. } | Record::Team { .. }) {
                self.held.push(r);
                self.held_at.push(at);
                continue;
            }
            if let Record::Show(f) = &r {
                self.release_held(out, f.time);
            }
            self.note_locations(at, 1);
            match &mut r {
                Record::Show(_) => out.push(r),
                Record::Msg(m) => {
                    m.time = self.last_time;
                    out.push(r);
                }
                Record::Draw(d) => {
                    d.time = self.last_time;
                    out.push(r);
                }
                _ => out.push(r),
            }
        }
    }

    /// Tracks play mode and score across records and completes log shows that lack them.
    pub(super) fn complete(&mut self, records: &mut [Record], shape: crate::format::ShowShape) {
        for r in records {
            match r {
                Record::PlayMode { mode, .. } => self.mode = *mode,
                Record::Team { teams, .. } => self.teams = teams.clone(),
                Record::Show(frame) => {
                    self.last_time = frame.time;
                    self.saw_show = true;
                    if shape.has_mode {
                        self.mode = frame.mode;
                    } else {
                        frame.mode = self.mode;
                    }
                    if shape.has_teams {
                        self.teams = frame.teams.clone();
                    } else {
                        frame.teams = self.teams.clone();
                    }
                }
                _ => {}
            }
        }
    }
}

pub(super) fn set_time(r: &mut Record, t: u32) {
    match r {
        Record::PlayMode { time, .. } => *time = t,
        Record::Team { time, .. } => *time = Some(t),
        _ => {}
    }
}

pub(super) enum Detect {
    NeedMore,
    Unknown(String),
    Found(LogVersion, usize),
}

/// Recognises the format from the first decompressed bytes; returns the header length.
pub(super) fn detect(buf: &[u8], at_end: bool) -> Detect {
    let need = |n: usize| buf.len() < n && !at_end;
    if buf.starts_with(b"ULG") || (b"ULG".starts_with(buf) && !at_end) {
        if need(4) {
            return Detect::NeedMore;
        }
        match buf.get(3) {
            Some(2) => return Detect::Found(LogVersion::V2, 4),
            Some(3) => return Detect::Found(LogVersion::V3, 4),
            Some(b'4'..=b'7') => {
                if need(5) {
                    return Detect::NeedMore;
                }
                let v = match buf[3] {
                    b'4' => LogVersion::V4,
                    b'5' => LogVersion::V5,
                    b'6' => LogVersion::V6,
                    _ => LogVersion::V7,
                };
                let header = match buf.get(4) {
                    Some(b'\n') => 5,
                    // A CR whose LF has not come yet: fed byte by byte, the same log must read
                    // as it does whole (found by fuzzing).
                    Some(b'\r') if need(6) => return Detect::NeedMore,
                    Some(b'\r') if buf.get(5) == Some(&b'\n') => 6,
                    None => 4,
                    _ => return Detect::Unknown(excerpt(buf, 0)),
                };
                return Detect::Found(v, header);
            }
            _ => {
                return Detect::Unknown(format!(
                    "ULG header with unknown version: {}",
                    excerpt(buf, 0)
                ))
            }
        }
    }
    let trimmed = buf
        .iter()
        .position(|b| !b.is_ascii_whitespace())
        .map(|i| &buf[i..]);
    match trimmed {
        None if !at_end => return Detect::NeedMore,
        None => return Detect::Unknown("only whitespace".into()),
        Some(t) if t[0] == b'[' => return Detect::Found(LogVersion::Json, 0),
        Some(t) if t.starts_with(b"JSON") => return Detect::Found(LogVersion::Json18, 0),
        Some(t) if b"JSON".starts_with(t) && !at_end => return Detect::NeedMore,
        _ => {}
    }
    // v1 has no header: it is a sequence of 2052-byte dispinfo_t records that start with
    // a big-endian SHOW (1) or MSG (2) mode. Four bytes decide it (the mode and a play mode
    // or a board); deciding on two made a log fed in small pieces read differently from the
    // same log fed whole (found by fuzzing).
    if need(4) {
        return Detect::NeedMore;
    }
    if binary::looks_like_v1(buf) {
        return Detect::Found(LogVersion::V1, 0);
    }
    Detect::Unknown(excerpt(buf, 0))
}
