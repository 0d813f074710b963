//! Push-style game-log decoding: feed byte chunks of any size, get records as soon as they are
//! complete. The format is detected from the content (gzip, `ULG` + version, JSON, or the
//! header-less v1), never from a file name. A log that breaks part-way keeps every record
//! before the break; the error says where and what.

use crate::error::{excerpt, Location, LogError};
use crate::model::{Record, Team};
use crate::playmode::PlayMode;
use crate::{binary, text};

pub use crate::format::{Detail, LogVersion};
use std::io::Write;

#[cfg(not(target_family = "wasm"))]
mod halves;
mod lines;

pub use lines::{LineBatch, ReadLines};

/// Longest line or record accepted; a real `server_param` line is ~4 KB and a show ~3.5 KB,
/// a JSON show ~8 KB. Anything longer is not a log this reader can trust.
pub const MAX_RECORD_BYTES: usize = 1 << 20;

/// Inflates gzip input incrementally.
///
/// Input reaches the inflater in fixed slices at fixed offsets, whatever sizes the caller
/// feeds: what a damaged stream yields before its error then does not depend on how the file
/// was read (found by fuzzing: a whole-file write lost output that small writes kept).
struct Gunzip {
    decoder: flate2::write::GzDecoder<Vec<u8>>,
    staged: Vec<u8>,
}

const GUNZIP_SLICE: usize = 16 << 10;

/// Feed it bytes with [`LogDecoder::feed`]; call [`LogDecoder::finish`] at the end of input.
pub struct LogDecoder {
    gunzip: Option<Gunzip>,
    sniffed_gzip: bool,
    /// Decompressed bytes not yet consumed.
    pending: Vec<u8>,
    /// Decompressed offset of `pending[0]`.
    offset: u64,
    /// 1-based number of the next line (line-based formats).
    line: u64,
    version: Option<LogVersion>,
    mode: PlayMode,
    teams: [Team; 2],
    error: Option<LogError>,
    raw_fed: u64,
    finished: bool,
    /// Time of the last show, for binary records that carry none (msgs, v3 PM/TEAM).
    last_time: u32,
    /// v3 PM/TEAM records wait here for the show they precede, whose time they take.
    held: Vec<Record>,
    /// Where each held record is.
    held_at: Vec<Location>,
    /// Where each record given out came from, while asked for ([`LogDecoder::track_locations`]).
    locations: Option<Vec<Location>>,
    /// A JSON log's `version` and `timestamp` records.
    json_header: crate::write::JsonHeader,
    /// A gzip error, reported once the records inflated before it are decoded.
    gzip_error: Option<LogError>,
    /// A JSON log's closing `]` was seen: without it the log is incomplete.
    json_closed: bool,
    /// A show was decoded, so `last_time` is a real cycle.
    saw_show: bool,
    detail: Detail,
    /// Line batches taken ([`LogDecoder::feed_lines`]) and given back so far.
    batches_out: u64,
    batches_in: u64,
    /// A batch carried the input's error: what is fed after it is not read.
    lines_stopped: bool,
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

    fn note_locations(&mut self, at: Location, n: usize) {
        if let Some(l) = &mut self.locations {
            l.extend(std::iter::repeat_n(at, n));
        }
    }

    /// What a JSON log's header records said (the server's version, the match's start), once
    /// read: a JSON log written from this one can say the same.
    pub fn json_header(&self) -> &crate::write::JsonHeader {
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

    fn inflate(&mut self, chunk: &[u8]) -> Result<(), LogError> {
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
    fn inflate_rest(&mut self) {
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

    fn set_error<T>(&mut self, e: LogError) -> Result<T, LogError> {
        self.error = Some(e.clone());
        Err(e)
    }

    fn check(&mut self) -> Result<(), LogError> {
        match &self.error {
            Some(e) => Err(e.clone()),
            None => Ok(()),
        }
    }

    fn decode(&mut self, out: &mut Vec<Record>, at_end: bool) -> Result<(), LogError> {
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
    fn decode_from(&mut self, buf: &[u8], out: &mut Vec<Record>, at_end: bool) -> usize {
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

    fn decode_lines(
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
            let read = lines::read_line(version, self.detail, line, out);
            let is_last = at_end && used == rest.len();
            if !self.apply_line(read, &mut out[first..], is_last, unterminated) {
                break;
            }
            pos += used;
            self.line += 1;
        }
        pos
    }

    fn decode_binary(
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
    fn release_held(&mut self, out: &mut Vec<Record>, time: u32) {
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
    fn place_binary(&mut self, out: &mut Vec<Record>, first: usize, at: Location) {
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
    fn complete(&mut self, records: &mut [Record], shape: crate::format::ShowShape) {
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

fn set_time(r: &mut Record, t: u32) {
    match r {
        Record::PlayMode { time, .. } => *time = t,
        Record::Team { time, .. } => *time = Some(t),
        _ => {}
    }
}

fn memchr_nl(s: &[u8]) -> Option<usize> {
    memchr::memchr(b'\n', s)
}

enum Detect {
    NeedMore,
    Unknown(String),
    Found(LogVersion, usize),
}

/// Recognises the format from the first decompressed bytes; returns the header length.
fn detect(buf: &[u8], at_end: bool) -> Detect {
    let need = |n: usize| buf.len() < n && !at_end;
    if buf.starts_with(b"ULG") || (b"ULG".starts_with(buf) && !at_end) {
        if need(4) {
            return Detect::NeedMore;
        }
        match buf.get(3) {
            Some(2) => return Detect::Found(LogVersion::V2, 4),
            Some(3) => return Detect::Found(LogVersion::V3, 4),
            Some(b'4'..=b'6') => {
                if need(5) {
                    return Detect::NeedMore;
                }
                let v = match buf[3] {
                    b'4' => LogVersion::V4,
                    b'5' => LogVersion::V5,
                    _ => LogVersion::V6,
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

/// Where a log's record of the match stops: the last cycle shown and the play mode then.
///
/// A text or binary log has no end marker: one that stops before `time_over` (the server was
/// stopped, or the file was cut at a record boundary) reads without error, and this is how a
/// reader still tells it apart from a finished game. A JSON log that stops early is an
/// error besides ([`LogError::Incomplete`]), since its array is never closed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LogEnd {
    last_cycle: Option<u32>,
    last_mode: Option<PlayMode>,
}

impl LogEnd {
    /// Takes note of one record, in log order.
    pub fn push(&mut self, record: &Record) {
        match record {
            Record::PlayMode { time, mode } => {
                self.last_mode = Some(*mode);
                self.last_cycle = Some(self.last_cycle.map_or(*time, |c| c.max(*time)));
            }
            Record::Show(f) => self.note_show(f.time, f.mode),
            _ => {}
        }
    }

    /// Takes note of a show of cycle `time` in play mode `mode`, for a reader that does not
    /// make records of its shows ([`crate::export::text`]).
    pub fn note_show(&mut self, time: u32, mode: PlayMode) {
        self.last_mode = Some(mode);
        self.last_cycle = Some(time);
    }

    /// The last cycle of the log, if it has shows or play modes.
    pub fn last_cycle(&self) -> Option<u32> {
        self.last_cycle
    }

    /// The last play mode of the log.
    pub fn last_mode(&self) -> Option<PlayMode> {
        self.last_mode
    }

    /// The last cycle, when the log stops before the game reached `time_over`.
    pub fn before_full_time(&self) -> Option<u32> {
        match self.last_mode {
            Some(PlayMode::TIME_OVER) => None,
            _ => self.last_cycle,
        }
    }

    /// "incomplete: the log stops at cycle N", when it does: the words of
    /// [`LogError::Incomplete`], so that a log cut short reads the same whatever its version.
    pub fn note(&self) -> Option<String> {
        self.before_full_time().map(incomplete_note)
    }
}

/// How a log's reading ended, the same way for every version: the inspector, the archive
/// and the page say this and nothing else.
#[derive(Clone, Debug, PartialEq)]
pub enum Ending {
    /// Read to its end, and the game reached time over.
    Whole,
    /// Every record was read, but the match stops at `cycle`, before time over: the server
    /// was stopped or killed. A text or binary log simply ends; a JSON log's array is never
    /// closed ([`LogError::Incomplete`]).
    Incomplete { cycle: u32 },
    /// Read up to damage; what came before it is kept.
    Damaged(LogError),
}

impl Ending {
    /// The ending of a log whose reading stopped with `error` (if it did) at `end`.
    pub fn of(end: &LogEnd, error: Option<&LogError>) -> Ending {
        match error {
            // A JSON log whose array was never closed, but after time over, holds the whole
            // match: as a text log cut after time over does.
            Some(LogError::Incomplete { cycle, .. }) => match end.last_mode() {
                Some(PlayMode::TIME_OVER) => Ending::Whole,
                _ => Ending::Incomplete { cycle: *cycle },
            },
            // A text or binary log, or a gzip stream, cut inside its last record before time
            // over is what a killed server leaves too: the same as one cut between records.
            Some(e @ (LogError::Truncated { .. } | LogError::GzipCut { .. })) => {
                match end.before_full_time() {
                    Some(cycle) => Ending::Incomplete { cycle },
                    None => Ending::Damaged(e.clone()),
                }
            }
            Some(e) => Ending::Damaged(e.clone()),
            None => match end.before_full_time() {
                Some(cycle) => Ending::Incomplete { cycle },
                None => Ending::Whole,
            },
        }
    }

    /// Where an incomplete log stops.
    pub fn incomplete(&self) -> Option<u32> {
        match self {
            Ending::Incomplete { cycle } => Some(*cycle),
            _ => None,
        }
    }
}

impl std::fmt::Display for Ending {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Ending::Whole => f.write_str("whole: the game reached time over"),
            Ending::Incomplete { cycle } => f.write_str(&incomplete_note(*cycle)),
            Ending::Damaged(e) => write!(f, "damaged: {e}"),
        }
    }
}

/// "incomplete: the log stops at cycle N".
pub fn incomplete_note(cycle: u32) -> String {
    format!("incomplete: the log stops at cycle {cycle}")
}

/// Everything a whole log holds, accumulated from its records.
#[derive(Clone, Debug, Default)]
pub struct Match {
    pub version: Option<LogVersion>,
    pub compressed: bool,
    pub server_param: Option<crate::model::Params>,
    pub player_param: Option<crate::model::Params>,
    pub player_types: Vec<crate::model::Params>,
    pub frames: Vec<crate::model::Frame>,
    pub messages: Vec<crate::model::Message>,
    /// For each message, how many frames came before it, so a writer keeps the interleaving.
    pub message_positions: Vec<usize>,
    pub team_graphics: Vec<crate::model::TeamGraphic>,
    /// Drawings and blank-screen orders (v1/v2 binary logs only), in log order.
    pub drawings: Vec<crate::model::Drawing>,
    /// Every play-mode change with its cycle, from mode records or from the shows themselves.
    pub mode_changes: Vec<(u32, PlayMode)>,
    /// The last team record (text/JSON/v3 logs), which holds the final score and penalties.
    pub last_team: Option<[Team; 2]>,
    /// Why decoding stopped early, if it did; every frame before it is kept.
    pub error: Option<LogError>,
    /// Where the record of the match stops (see [`LogEnd::before_full_time`]).
    pub end: LogEnd,
    last_mode: Option<PlayMode>,
}

/// Cap on frames kept from one log: a week of play, far beyond any real game, but bounded.
const MAX_FRAMES: usize = 4_000_000;

impl Match {
    pub fn push(&mut self, record: Record) {
        self.end.push(&record);
        match record {
            Record::ServerParam(p) => self.server_param = Some(p),
            Record::PlayerParam(p) => self.player_param = Some(p),
            Record::PlayerType(p) => {
                if self.player_types.len() < 256 {
                    self.player_types.push(p)
                }
            }
            Record::PlayMode { time, mode } => {
                self.mode_changes.push((time, mode));
                self.last_mode = Some(mode);
            }
            Record::Team { teams, .. } => self.last_team = Some(teams),
            Record::Show(frame) => {
                if self.last_mode != Some(frame.mode) {
                    self.mode_changes.push((frame.time, frame.mode));
                    self.last_mode = Some(frame.mode);
                }
                if self.frames.len() < MAX_FRAMES {
                    self.frames.push(frame);
                }
            }
            Record::Msg(m) => {
                self.message_positions.push(self.frames.len());
                self.messages.push(m);
            }
            Record::TeamGraphic(t) => self.team_graphics.push(t),
            Record::Draw(d) => {
                if self.drawings.len() < MAX_FRAMES {
                    self.drawings.push(d)
                }
            }
        }
    }

    /// Team names and score at the end: the last team record, else the last frame.
    pub fn final_teams(&self) -> [Team; 2] {
        if let Some(t) = &self.last_team {
            return t.clone();
        }
        self.frames
            .last()
            .map(|f| f.teams.clone())
            .unwrap_or_default()
    }

    /// `(cycle, side)` of every goal, one per `goal_l`/`goal_r` play mode.
    pub fn goals(&self) -> Vec<(u32, crate::Side)> {
        self.mode_changes
            .iter()
            .filter_map(|(t, m)| m.goal_side().map(|s| (*t, s)))
            .collect()
    }

    /// The last cycle when the log stops before `time_over` (see [`LogEnd`]).
    pub fn ends_before_full_time(&self) -> Option<u32> {
        self.end.before_full_time()
    }

    /// How the reading ended: whole, incomplete or damaged, the same for every version.
    pub fn ending(&self) -> Ending {
        Ending::of(&self.end, self.error.as_ref())
    }

    /// Number of distinct show times.
    pub fn distinct_cycles(&self) -> usize {
        let mut times: Vec<u32> = self.frames.iter().map(|f| f.time).collect();
        times.sort_unstable();
        times.dedup();
        times.len()
    }
}

/// Decodes a whole log held in memory (compressed or not). Large text and JSON logs are
/// decoded in two halves at once where threads exist (see [`halves`]).
pub fn parse_log(bytes: &[u8]) -> Match {
    #[cfg(not(target_family = "wasm"))]
    if let Some(m) = halves::parse(bytes) {
        return m;
    }
    parse_sequential(bytes)
}

/// [`parse_log`] in one pass on the calling thread.
pub fn parse_sequential(bytes: &[u8]) -> Match {
    // Fed in slices so the records of one slice are moved into the match while they are
    // still in cache, instead of collecting a second copy of the whole game first.
    const SLICE: usize = 256 << 10;
    let mut decoder = LogDecoder::new();
    let mut records = Vec::new();
    let mut m = Match::default();
    // A show line of a text log is ~3.4 KB; reserving avoids regrowing a 15 MB vector.
    m.frames.reserve((bytes.len() / 4096).min(MAX_FRAMES));
    let mut res = Ok(());
    for chunk in bytes.chunks(SLICE) {
        res = decoder.feed(chunk, &mut records);
        for r in records.drain(..) {
            m.push(r);
        }
        if res.is_err() {
            break;
        }
    }
    if res.is_ok() {
        res = decoder.finish(&mut records);
        for r in records.drain(..) {
            m.push(r);
        }
    }
    m.version = decoder.version();
    m.compressed = decoder.is_compressed();
    m.error = res.err();
    m
}
