//! The page's worker for the agents' files (`web/agents.js` starts it and reads the files; this
//! does the work on their bytes): it indexes each file by game time with the shared library's
//! [`Indexer`] (the same index for a plain and a gzipped file), inflating a gzipped one as it
//! goes and noting its access points ([`gz`]) and a debug log's words ([`words`]); it reads a
//! range of a gzipped file's text again from the point before it, going on from where the last
//! read stopped when playback asks for the next cycles; and it searches a file for a text:
//! from its words alone when they answer, else reading only the spans they leave (or all).
//!
//! Each piece of work takes the bytes as the worker reads them, so the worker answers the
//! page between chunks, and holds no file: a file costs its spans' ranges and words (a few
//! hundred KB for a player's whole game) and a gzipped one its access points (about 1/85 of
//! its text) and, while it is being read, one inflater.

use pitchside_agents::gz::{self, AccessPoint, Gunzip, Inflater, Progress, SPACING};
use pitchside_agents::index::{FileKind, Finder, Index, Indexer};
use pitchside_agents::words::{Lookup, WordIndex};
use wasm_bindgen::prelude::*;

fn main() {}

fn kind_of(kind: u32) -> FileKind {
    match kind {
        1 => FileKind::WorldModel,
        2 => FileKind::Commands,
        _ => FileKind::DebugLog,
    }
}

/// One file's indexing pass: its bytes in, its spans out.
#[wasm_bindgen]
pub struct IndexJob {
    indexer: Option<Indexer>,
    inflater: Option<Inflater>,
    index: Option<Index>,
    words: Option<WordIndex>,
    error: Option<String>,
}

#[wasm_bindgen]
impl IndexJob {
    /// `kind`: 0 a debug log, 1 world models, 2 the server's message log; `gz` when the file
    /// is gzip (its first two bytes say so). A debug log's words are noted for searches.
    #[wasm_bindgen(constructor)]
    pub fn new(kind: u32, gz: bool) -> IndexJob {
        let kind = kind_of(kind);
        IndexJob {
            indexer: Some(if kind == FileKind::DebugLog {
                Indexer::with_words(kind)
            } else {
                Indexer::new(kind)
            }),
            inflater: gz.then(|| Inflater::new(Some(SPACING))),
            index: None,
            words: None,
            error: None,
        }
    }

    /// Feeds the file's next bytes; false once the rest cannot be read (a damaged gzip file:
    /// [`IndexJob::error`] says where), and the index holds what came before.
    pub fn push(&mut self, chunk: &[u8]) -> bool {
        let Some(indexer) = self.indexer.as_mut() else {
            return false;
        };
        let Some(inf) = self.inflater.as_mut() else {
            indexer.push(chunk);
            return true;
        };
        inf.push(chunk);
        match inf.run(u64::MAX, &mut |_, text| indexer.push(text)) {
            Ok(_) => true,
            Err(e) => {
                self.error = Some(e.to_string());
                false
            }
        }
    }

    /// The file's end was given: the index is complete.
    pub fn finish(&mut self) {
        let Some(mut indexer) = self.indexer.take() else {
            return;
        };
        if let (Some(inf), None) = (self.inflater.as_mut(), &self.error) {
            inf.end_input();
            if let Err(e) = inf.run(u64::MAX, &mut |_, text| indexer.push(text)) {
                self.error = Some(e.to_string());
            }
        }
        let (index, words) = indexer.finish_with_words();
        self.index = Some(index);
        self.words = words;
    }

    /// Why the file could not be read to its end, if it could not.
    pub fn error(&self) -> Option<String> {
        self.error.clone()
    }

    /// The spans, five numbers each: cycle, stopped, start, end, first line.
    pub fn spans(&self) -> Vec<f64> {
        let Some(ix) = &self.index else {
            return Vec::new();
        };
        let mut out = Vec::with_capacity(ix.spans.len() * 5);
        for s in &ix.spans {
            out.extend_from_slice(&[
                f64::from(s.time.cycle),
                f64::from(s.time.stopped),
                s.start as f64,
                s.end as f64,
                s.first_line as f64,
            ]);
        }
        out
    }

    pub fn levels(&self) -> u32 {
        self.index.as_ref().map_or(0, |ix| ix.levels)
    }

    pub fn lines(&self) -> f64 {
        self.index.as_ref().map_or(0.0, |ix| ix.lines as f64)
    }

    pub fn bad(&self) -> f64 {
        self.index.as_ref().map_or(0.0, |ix| ix.bad_lines as f64)
    }

    /// Bytes of text (a gzip file's inflated).
    pub fn bytes(&self) -> f64 {
        self.index.as_ref().map_or(0.0, |ix| ix.bytes as f64)
    }
}

/// A file this worker indexed, kept for reading and searching.
struct File {
    /// Each span's bytes of text, in file order.
    ranges: Vec<(u64, u64)>,
    /// Each span's cycle.
    cycles: Vec<u32>,
    /// Bytes of text.
    len: u64,
    words: Option<WordIndex>,
    /// A gzip file's access points (`None`: plain).
    points: Option<Vec<AccessPoint>>,
    /// The inflater of the last read of a gzip file, and the read under way (its range and
    /// the text so far).
    cursor: Option<Inflater>,
    reading: Option<(u64, u64, Vec<u8>)>,
    /// The search under way and the spans found so far.
    search: Option<Scan>,
    found: Vec<u32>,
}

/// The files this worker indexed, by the number [`Store::add`] gave them.
#[wasm_bindgen]
#[derive(Default)]
pub struct Store {
    files: Vec<Option<File>>,
    /// The cycles found so far by the search of several files under way here.
    session: Session,
}

/// One search of several files, run here file after file: the page wants the cycles where
/// the text is, one hit each, so a cycle found in one file is not looked for in the next
/// (a text in most cycles, found in the first file, leaves the others nothing to read). The
/// other workers' finds come in too ([`Store::share_found`]), between this one's files.
#[derive(Default)]
struct Session {
    serial: Option<u32>,
    /// One bit per cycle found.
    found: Vec<u64>,
}

impl Session {
    /// Cycles beyond this are looked for in every file (no real game comes near it).
    const MAX_CYCLE: u32 = 1 << 20;

    /// Makes this session search `serial`'s: a later search starts afresh, the same one goes
    /// on; false for an earlier one (finds of a search the page no longer waits for).
    fn join(&mut self, serial: u32) -> bool {
        match self.serial {
            Some(s) if s == serial => true,
            Some(s) if s > serial => false,
            _ => {
                *self = Session {
                    serial: Some(serial),
                    found: Vec::new(),
                };
                true
            }
        }
    }

    fn has(&self, cycle: u32) -> bool {
        let (w, b) = ((cycle / 64) as usize, cycle % 64);
        self.found.get(w).is_some_and(|x| x & (1 << b) != 0)
    }

    fn add(&mut self, cycle: u32) {
        if cycle >= Self::MAX_CYCLE {
            return;
        }
        let (w, b) = ((cycle / 64) as usize, cycle % 64);
        if self.found.len() <= w {
            self.found.resize(w + 1, 0);
        }
        self.found[w] |= 1 << b;
    }
}

#[wasm_bindgen]
impl Store {
    #[wasm_bindgen(constructor)]
    pub fn new() -> Store {
        Store::default()
    }

    /// Keeps what a finished job leaves for reads and searches; the file's number.
    pub fn add(&mut self, job: &mut IndexJob) -> u32 {
        let spans = job.index.as_ref().map_or(&[][..], |ix| &ix.spans[..]);
        let ranges = spans.iter().map(|s| (s.start, s.end)).collect();
        let cycles = spans.iter().map(|s| s.time.cycle).collect();
        let len = job.index.as_ref().map_or(0, |ix| ix.bytes);
        let points = job.inflater.as_mut().map(|i| i.take_points());
        self.files.push(Some(File {
            ranges,
            cycles,
            len,
            words: job.words.take(),
            points,
            cursor: None,
            reading: None,
            search: None,
            found: Vec::new(),
        }));
        (self.files.len() - 1) as u32
    }

    /// Forgets a file (the page opened another match).
    pub fn remove(&mut self, id: u32) {
        if let Some(f) = self.files.get_mut(id as usize) {
            *f = None;
        }
    }

    /// Bytes the files' ranges, words and access points hold.
    pub fn heap_bytes(&self) -> f64 {
        self.files
            .iter()
            .flatten()
            .map(|f| {
                f.ranges.capacity() * 16
                    + f.cycles.capacity() * 4
                    + f.words.as_ref().map_or(0, |w| w.heap_bytes())
                    + f.points
                        .iter()
                        .flatten()
                        .map(|p| p.heap_bytes())
                        .sum::<usize>()
            })
            .sum::<usize>() as f64
    }

    /// Starts reading text `start..end` of gzip file `id`: from its last read's inflater when
    /// that is at or before `start` and past the access point before it, else from that
    /// point. Then [`Store::read_step`] until it says done.
    pub fn read_start(&mut self, id: u32, start: f64, end: f64) -> Result<(), JsError> {
        let f = self.file(id)?;
        let (start, end) = (start as u64, (end as u64).max(start as u64));
        let point = gz::point_before(f.points.as_deref().unwrap_or_default(), start)
            .cloned()
            .unwrap_or_else(AccessPoint::start);
        let mut out = Vec::with_capacity((end - start).min(64 << 20) as usize);
        let usable = f
            .cursor
            .as_ref()
            .is_some_and(|c| c.can_reach(start) && c.text_offset() >= point.text);
        if usable {
            if let Some(c) = &f.cursor {
                let have = c.text_offset().min(end);
                if start < have {
                    out.extend(c.recent(start, have).unwrap_or_default());
                }
            }
        } else {
            f.cursor = Some(Inflater::resume(&point).map_err(|e| JsError::new(&e.to_string()))?);
        }
        f.reading = Some((start, end, out));
        Ok(())
    }

    /// Goes on with the read: true when its text is ready ([`Store::read_take`]), false when
    /// the inflater wants the file's bytes from [`Store::read_needed`] on.
    pub fn read_step(&mut self, id: u32) -> Result<bool, JsError> {
        let f = self.file(id)?;
        let (Some(cursor), Some((start, end, out))) = (f.cursor.as_mut(), f.reading.as_mut())
        else {
            return Err(JsError::new("no read under way"));
        };
        let (start, end) = (*start, *end);
        match cursor.run(end, &mut |at, text| {
            gz::copy_part(out, start, end, at, text)
        }) {
            Ok(Progress::NeedInput) => Ok(false),
            Ok(_) => Ok(true),
            Err(e) => {
                // The inflater is lost where the file is damaged; the next read starts over.
                f.cursor = None;
                Err(JsError::new(&e.to_string()))
            }
        }
    }

    /// Where in the file the bytes the read wants next start.
    pub fn read_needed(&mut self, id: u32) -> Result<f64, JsError> {
        let f = self.file(id)?;
        Ok(f.cursor.as_ref().map_or(0.0, |c| c.input_needed() as f64))
    }

    /// The file's next bytes for the read (empty: the file ends).
    pub fn read_push(&mut self, id: u32, chunk: &[u8]) -> Result<(), JsError> {
        let f = self.file(id)?;
        if let Some(c) = f.cursor.as_mut() {
            if chunk.is_empty() {
                c.end_input();
            } else {
                c.push(chunk);
            }
        }
        Ok(())
    }

    /// The text of the read that finished.
    pub fn read_take(&mut self, id: u32) -> Result<Vec<u8>, JsError> {
        let f = self.file(id)?;
        Ok(f.reading.take().map(|r| r.2).unwrap_or_default())
    }

    /// Starts searching file `id` for `needle` (ASCII letters in any case), as part of search
    /// `serial` (the page's number for one search of several files): true when the file
    /// need not be read ([`Store::search_take`]): its words answered, or every cycle they
    /// leave was found in a file searched before it in the same search. Else the text of the
    /// spans left (or the whole file) is read: [`Store::search_needed`] says which bytes of
    /// the file to give [`Store::search_push`] next.
    pub fn search_start(&mut self, id: u32, needle: &str, serial: u32) -> Result<bool, JsError> {
        self.session.join(serial);
        let session = &self.session;
        let f = self
            .files
            .get_mut(id as usize)
            .and_then(|f| f.as_mut())
            .ok_or_else(|| JsError::new("no such file"))?;
        f.found.clear();
        f.search = None;
        let cycles = &f.cycles;
        let left = |p: u32| cycles.get(p as usize).is_none_or(|&c| !session.has(c));
        let whole_above = if f.points.is_some() {
            GZ_WHOLE_ABOVE
        } else {
            PLAIN_WHOLE_ABOVE
        };
        match plan_left(
            f.words.as_ref(),
            &f.ranges,
            f.len,
            needle,
            JOIN,
            &left,
            whole_above,
        ) {
            Plan::Found(found) => {
                for &p in &found {
                    if let Some(&c) = f.cycles.get(p as usize) {
                        self.session.add(c);
                    }
                }
                f.found = found;
                Ok(true)
            }
            Plan::Read(ranges) => {
                let whole_gz = f.points.is_some() && ranges == [(0, f.len)];
                f.search = Some(Scan::new(needle, ranges, whole_gz));
                Ok(false)
            }
        }
    }

    /// Whether the search under way reads a whole gzip file from its start: the page then
    /// streams the file's bytes to [`Store::search_push`] (a stream reads a file faster than
    /// the slices [`Store::search_needed`] asks for), then an empty chunk.
    pub fn search_reads_all_of_gzip(&mut self, id: u32) -> Result<bool, JsError> {
        let f = self.file(id)?;
        Ok(f.search
            .as_ref()
            .and_then(|s| s.gunzip.as_ref())
            .is_some_and(|g| g.input_needed() == 0))
    }

    /// `[offset, length]`: the bytes of the file the search wants next; empty when it is done.
    pub fn search_needed(&mut self, id: u32) -> Result<Vec<f64>, JsError> {
        let f = self.file(id)?;
        let Some(scan) = f.search.as_mut() else {
            return Ok(Vec::new());
        };
        let wanted = scan
            .needed(f.points.as_deref())
            .map_err(|e| JsError::new(&e.to_string()))?;
        if wanted.is_none() {
            f.search = None;
        }
        Ok(wanted.map_or(Vec::new(), |(at, len)| vec![at as f64, len as f64]))
    }

    /// The bytes the search asked for (empty: the file ends there); false once it wants no
    /// more. A damaged gzip file ends the search with what was found before the damage (the
    /// indexing pass named it).
    pub fn search_push(&mut self, id: u32, chunk: &[u8]) -> Result<bool, JsError> {
        let session = &mut self.session;
        let f = self
            .files
            .get_mut(id as usize)
            .and_then(|f| f.as_mut())
            .ok_or_else(|| JsError::new("no such file"))?;
        let (Some(scan), ranges, cycles, found) =
            (f.search.as_mut(), &f.ranges, &f.cycles, &mut f.found)
        else {
            return Ok(false);
        };
        let res = scan.push(chunk, &mut |at| {
            if let Some(k) = span_at(ranges, at) {
                if found.last() != Some(&k) {
                    found.push(k);
                    if let Some(&c) = cycles.get(k as usize) {
                        session.add(c);
                    }
                }
            }
        });
        if res.is_err() || scan.done() {
            f.search = None;
        }
        Ok(f.search.is_some())
    }

    /// The spans (positions in the file's index) where the text was found, increasing.
    pub fn search_take(&mut self, id: u32) -> Result<Vec<u32>, JsError> {
        let f = self.file(id)?;
        let mut found = std::mem::take(&mut f.found);
        found.sort_unstable();
        found.dedup();
        Ok(found)
    }

    /// The cycles of spans `spans` of file `id` (what [`Store::search_take`] gave): the page
    /// hands them to the other workers searching the same text.
    pub fn cycles_of(&mut self, id: u32, spans: &[u32]) -> Result<Vec<u32>, JsError> {
        let f = self.file(id)?;
        Ok(spans
            .iter()
            .filter_map(|&p| f.cycles.get(p as usize).copied())
            .collect())
    }

    /// Cycles another worker found for search `serial`: this worker's next files of it need
    /// not look for them (those under way go on as planned).
    pub fn share_found(&mut self, serial: u32, cycles: &[u32]) {
        if self.session.join(serial) {
            for &c in cycles {
                self.session.add(c);
            }
        }
    }

    fn file(&mut self, id: u32) -> Result<&mut File, JsError> {
        self.files
            .get_mut(id as usize)
            .and_then(|f| f.as_mut())
            .ok_or_else(|| JsError::new("no such file"))
    }
}

/// How a search of one file goes: answered by its words, or reading these ranges of its text.
#[derive(Debug, PartialEq)]
enum Plan {
    Found(Vec<u32>),
    Read(Vec<(u64, u64)>),
}

#[cfg(test)]
fn plan(words: Option<&WordIndex>, ranges: &[(u64, u64)], len: u64, needle: &str) -> Plan {
    plan_joined(words, ranges, len, needle, JOIN)
}

/// [`plan`], with candidate ranges less than `join` bytes apart read as one.
#[cfg(test)]
fn plan_joined(
    words: Option<&WordIndex>,
    ranges: &[(u64, u64)],
    len: u64,
    needle: &str,
    join: u64,
) -> Plan {
    plan_left(
        words,
        ranges,
        len,
        needle,
        join,
        &|_| true,
        PLAIN_WHOLE_ABOVE,
    )
}

/// Past this share of a plain file's text in the parts to read, the whole file is read
/// through: a read of each part costs a round trip to the browser.
const PLAIN_WHOLE_ABOVE: f64 = 1.0 / 3.0;
/// The same for a gzip file, lower: a whole file is inflated straight through ([`Gunzip`],
/// zlib-rs) about twice as fast per byte as parts from their access points (miniz_oxide,
/// which can stop at a block: 188-245 ms against 84-119 ms for a player's 48 MB log in
/// headless Chromium), and each part also inflates up to [`SPACING`] before it.
const GZ_WHOLE_ABOVE: f64 = 1.0 / 8.0;

/// How to search a file whose spans `ranges` are those `left` says are still to search (the
/// others' cycles were found in other files), with candidate ranges less than `join` bytes
/// apart read as one, and the whole file read when the parts to read hold more than
/// `whole_above` of its text.
fn plan_left(
    words: Option<&WordIndex>,
    ranges: &[(u64, u64)],
    len: u64,
    needle: &str,
    join: u64,
    left: &dyn Fn(u32) -> bool,
    whole_above: f64,
) -> Plan {
    let spans: Vec<u32> = match words.map_or(Lookup::Unknown, |w| w.lookup(needle)) {
        Lookup::Exact(found) => return Plan::Found(found),
        Lookup::Candidates(spans) => spans.into_iter().filter(|&p| left(p)).collect(),
        Lookup::Unknown => {
            let all = (0..ranges.len() as u32)
                .filter(|&p| left(p))
                .collect::<Vec<_>>();
            if all.len() == ranges.len() {
                // Nothing found elsewhere: the whole file, the text outside spans included.
                return Plan::Read(vec![(0, len)]);
            }
            all
        }
    };
    if spans.is_empty() {
        return Plan::Found(spans);
    }
    let parts = merged(ranges, &spans, needle.len() as u64, len, join);
    let bytes: u64 = parts.iter().map(|(a, b)| b - a).sum();
    Plan::Read(if bytes as f64 > len as f64 * whole_above {
        vec![(0, len)]
    } else {
        parts
    })
}

/// The span (position) holding byte `at` of the text: spans are in file order, their starts
/// increasing.
fn span_at(ranges: &[(u64, u64)], at: u64) -> Option<u32> {
    let k = ranges.partition_point(|r| r.0 <= at).checked_sub(1)?;
    (at < ranges[k].1).then_some(k as u32)
}

/// Candidate ranges less than this far apart are read as one: each read of a file is a round
/// trip to the browser (about a millisecond, as long as reading a megabyte), and for a gzip
/// file a new start from an access point (inflating up to [`SPACING`] before it). Reading the
/// text between them finds nothing wrong: a span that is no candidate cannot hold the text.
/// Measured: a search reading 1,441 cycles of each of 24 files took 20 s when each cycle was
/// read alone.
const JOIN: u64 = 1 << 20;

/// The byte ranges of spans `spans` (positions, increasing), each reaching `slack` bytes
/// further (a text found must start in the span, and may end after it), those less than
/// `join` bytes apart joined.
fn merged(
    ranges: &[(u64, u64)],
    spans: &[u32],
    slack: u64,
    len: u64,
    join: u64,
) -> Vec<(u64, u64)> {
    let mut out: Vec<(u64, u64)> = Vec::new();
    for &p in spans {
        let Some(&(a, b)) = ranges.get(p as usize) else {
            continue;
        };
        let b = (b + slack).min(len);
        match out.last_mut() {
            Some(last) if a <= last.1 + join => last.1 = last.1.max(b),
            _ => out.push((a, b)),
        }
    }
    out
}

/// A search reading ranges of a file's text one after another: the file's bytes themselves,
/// or for a gzip file inflated from the access point before each range (or going on from the
/// last range when no point is nearer).
struct Scan {
    needle: String,
    ranges: Vec<(u64, u64)>,
    /// The range being read, and the finder over it.
    k: usize,
    finder: Finder,
    /// Plain: the next byte of text wanted.
    at: u64,
    inflater: Option<Inflater>,
    /// Gzip: the inflater is inside range `k` (its next bytes go on from where it is).
    inside: bool,
    /// A whole gzip file, inflated from its start straight through.
    gunzip: Option<Gunzip>,
}

/// Compressed bytes read at a time for a search (about 5-8 times as much text), plain ones.
const SCAN_GZ_CHUNK: u64 = 512 << 10;
const SCAN_PLAIN_CHUNK: u64 = 4 << 20;

impl Scan {
    /// A search of `ranges`; `whole_gz` when they are a gzip file's whole text (read then
    /// by [`Gunzip`], with no access point).
    fn new(needle: &str, ranges: Vec<(u64, u64)>, whole_gz: bool) -> Scan {
        let at = ranges.first().map_or(0, |r| r.0);
        Scan {
            needle: needle.to_owned(),
            ranges,
            k: 0,
            finder: Finder::new(needle),
            at,
            inflater: None,
            inside: false,
            gunzip: whole_gz.then(Gunzip::new),
        }
    }

    /// Every range is read.
    fn done(&self) -> bool {
        self.k >= self.ranges.len()
    }

    /// The file's bytes wanted next (offset, length), or `None` when every range is read.
    fn needed(
        &mut self,
        points: Option<&[AccessPoint]>,
    ) -> Result<Option<(u64, u64)>, gz::GzError> {
        let Some(&(start, end)) = self.ranges.get(self.k) else {
            return Ok(None);
        };
        if let Some(g) = &self.gunzip {
            return Ok(Some((g.input_needed(), SCAN_PLAIN_CHUNK)));
        }
        let Some(points) = points else {
            let at = self.at.max(start);
            return Ok(Some((at, (end - at).min(SCAN_PLAIN_CHUNK))));
        };
        if !self.inside {
            // A new range: from the inflater where the last one stopped, unless an access
            // point is nearer (or the inflater is past the range's start).
            let point = gz::point_before(points, start)
                .cloned()
                .unwrap_or_else(AccessPoint::start);
            let near = self
                .inflater
                .as_ref()
                .is_some_and(|i| i.text_offset() <= start && i.text_offset() >= point.text);
            if !near {
                self.inflater = Some(Inflater::resume(&point)?);
            }
            self.inside = true;
        }
        let input = self.inflater.as_ref().map_or(0, |i| i.input_needed());
        Ok(Some((input, SCAN_GZ_CHUNK)))
    }

    /// The bytes [`Scan::needed`] asked for; `found` gets the text offset of each find.
    fn push(&mut self, chunk: &[u8], found: &mut dyn FnMut(u64)) -> Result<(), gz::GzError> {
        if let Some(g) = self.gunzip.as_mut() {
            // The whole file: the finder has had its text from the start.
            let finder = &mut self.finder;
            let res = g.push(chunk, &mut |_, text| {
                finder.push(text, &mut |o| {
                    found(o);
                    true
                });
            });
            if chunk.is_empty() || res.is_err() {
                self.next_range();
            }
            return res;
        }
        let Some(inf) = self.inflater.as_mut() else {
            // Plain: the chunk is text from `at` (the start of the range when it begins).
            let Some(&(start, end)) = self.ranges.get(self.k) else {
                return Ok(());
            };
            // The finder has had the range's text from its start: a find at `o` is at
            // `start + o` in the file's text.
            let at = self.at.max(start);
            let take = chunk.len().min((end - at) as usize);
            self.finder.push(&chunk[..take], &mut |o| {
                found(start + o);
                true
            });
            self.at = at + take as u64;
            if self.at >= end || chunk.is_empty() {
                self.next_range();
            }
            return Ok(());
        };
        if chunk.is_empty() {
            inf.end_input();
        } else {
            inf.push(chunk);
        }
        let Some(&(start, end)) = self.ranges.get(self.k) else {
            return Ok(());
        };
        let finder = &mut self.finder;
        let progress = inf.run(end, &mut |at, text| {
            let from = start.max(at);
            let to = end.min(at + text.len() as u64);
            if from < to {
                let piece = &text[(from - at) as usize..(to - at) as usize];
                finder.push(piece, &mut |o| {
                    found(start + o);
                    true
                });
            }
        })?;
        // The next range is read on from here only if no access point is nearer
        // ([`Scan::needed`]).
        if progress != Progress::NeedInput {
            self.next_range();
        }
        Ok(())
    }

    fn next_range(&mut self) {
        self.k += 1;
        self.inside = false;
        self.finder = Finder::new(&self.needle);
        if let Some(&(start, _)) = self.ranges.get(self.k) {
            self.at = start;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pitchside_agents::gz::inflate_all;

    /// A file to search as the worker's JavaScript does: its index (the words, when kept),
    /// its spans, its length, its access points when gzipped, and its bytes as on disk.
    struct Case<'a> {
        words: Option<&'a WordIndex>,
        ranges: &'a [(u64, u64)],
        len: u64,
        points: Option<&'a [AccessPoint]>,
        source: &'a [u8],
    }

    /// Runs a search: the bytes asked for, from the source, until done; the candidate ranges
    /// read one by one (as with spans far apart) and as the page joins them, which must find
    /// the same.
    fn search(case: Case, needle: &str) -> Vec<u32> {
        let alone = search_joined(&case, needle, 0);
        let joined = search_joined(&case, needle, JOIN);
        assert_eq!(alone, joined, "{needle:?}");
        joined
    }

    fn search_joined(case: &Case, needle: &str, join: u64) -> Vec<u32> {
        let Case {
            words,
            ranges,
            len,
            points,
            source,
        } = *case;
        let mut scan = match plan_joined(words, ranges, len, needle, join) {
            Plan::Found(f) => return f,
            Plan::Read(r) => {
                let whole_gz = points.is_some() && r == [(0, len)];
                Scan::new(needle, r, whole_gz)
            }
        };
        let mut found = Vec::new();
        while let Some((at, n)) = scan.needed(points).unwrap() {
            let from = (at as usize).min(source.len());
            let to = (from + n as usize).min(source.len());
            scan.push(&source[from..to], &mut |o| found.extend(span_at(ranges, o)))
                .unwrap();
        }
        found.sort_unstable();
        found.dedup();
        found
    }

    /// A text's index with its words, and the spans as ranges.
    struct Indexed {
        words: Option<WordIndex>,
        ranges: Vec<(u64, u64)>,
        len: u64,
    }

    impl Indexed {
        fn of(text: &[u8]) -> Indexed {
            let mut ix = Indexer::with_words(FileKind::DebugLog);
            ix.push(text);
            let (ix, words) = ix.finish_with_words();
            let ranges = ix.spans.iter().map(|s| (s.start, s.end)).collect();
            Indexed {
                words,
                ranges,
                len: text.len() as u64,
            }
        }

        /// The file as searched with the words or without, from `source` (gzipped when it
        /// comes with its access points).
        fn case<'a>(
            &'a self,
            words: Option<&'a WordIndex>,
            points: Option<&'a [AccessPoint]>,
            source: &'a [u8],
        ) -> Case<'a> {
            Case {
                words,
                ranges: &self.ranges,
                len: self.len,
                points,
                source,
            }
        }
    }

    /// The spans holding `needle`, found by a scan of the whole text: what a search must give.
    fn scanned(text: &[u8], ranges: &[(u64, u64)], needle: &str) -> Vec<u32> {
        let mut want = Vec::new();
        let mut f = Finder::new(needle);
        f.push(text, &mut |o| {
            want.extend(span_at(ranges, o));
            true
        });
        want.dedup();
        want
    }

    /// The store's whole path for a gzip file as the page drives it: indexed from its bytes,
    /// then a text with no letters searched by streaming the whole file to the store in the
    /// browser's chunks (the worker inflates it). A file cut short, indexed up to the cut,
    /// gives the spans found before the cut, and the search says it wants no more.
    #[test]
    fn a_whole_gzip_file_is_searched_as_streamed_and_a_cut_one_up_to_the_cut() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../tests/fixtures/agents/agents-100/agent-logs/HELIOS_A-7.log.gz");
        let gz = std::fs::read(path).unwrap();
        let (text, _) = inflate_all(&gz, None).unwrap();
        let needle = "0.0";
        for (serial, cut) in [(1, gz.len()), (2, gz.len() * 2 / 3)] {
            let file = &gz[..cut];
            let mut job = IndexJob::new(0, true);
            for c in file.chunks(65536) {
                job.push(c);
            }
            job.finish();
            assert_eq!(job.error().is_some(), cut < gz.len(), "cut at {cut}");
            let mut store = Store::new();
            let id = store.add(&mut job);
            let (ranges, len) = {
                let f = store.file(id).unwrap();
                (f.ranges.clone(), f.len)
            };
            assert!(!store.search_start(id, needle, serial).unwrap());
            assert!(store.search_reads_all_of_gzip(id).unwrap());
            let mut more = true;
            for c in file.chunks(65536) {
                more = store.search_push(id, c).unwrap();
                if !more {
                    break;
                }
            }
            if more {
                assert!(!store.search_push(id, &[]).unwrap(), "done at the end");
            }
            let got = store.search_take(id).unwrap();
            let want = scanned(&text[..len as usize], &ranges, needle);
            assert!(!want.is_empty());
            assert_eq!(got, want, "cut at {cut} of {}", gz.len());
        }
    }

    /// On a real debug log, plain and gzipped (access points close together, so that reads
    /// start from many of them), every way a search goes finds the spans that reading the
    /// whole text finds.
    #[test]
    fn searches_find_what_reading_everything_finds() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../tests/fixtures/agents/agents-100/agent-logs/HELIOS_A-7.log.gz");
        let gz = std::fs::read(path).unwrap();
        let (text, points) = inflate_all(&gz, Some(SPACING / 8)).unwrap();
        assert!(points.len() >= 3, "{} points", points.len());
        let ix = Indexed::of(&text);
        let (words, ranges, len) = (&ix.words, &ix.ranges[..], ix.len);
        let plain = |words| ix.case(words, None, &text);
        let gzipped = |words| ix.case(words, Some(&points), &gz);
        for needle in [
            "updateTheirDefenseLine",
            "(updateAfterSense) call",
            "pass to",
            "12.5",
            "no such text",
            "Body_Turn",
            "ball_move=(",
            "WM: BALL rpos",
        ] {
            let want = scanned(&text, ranges, needle);
            for words in [words.as_ref(), None] {
                assert_eq!(search(plain(words), needle), want, "plain {needle:?}");
                assert_eq!(search(gzipped(words), needle), want, "gzipped {needle:?}");
            }
        }
        // Something to find, and something the words alone answer.
        assert!(
            matches!(plan_joined(words.as_ref(), ranges, len, "heard stamina. sender=", 0), Plan::Read(r) if r.len() > 1)
        );
        assert!(!search(plain(words.as_ref()), "WM: BALL rpos").is_empty());
        assert!(
            matches!(plan(words.as_ref(), ranges, len, "defenseline"), Plan::Found(f) if !f.is_empty())
        );
    }

    /// Spans whose cycles another file of the same search gave are not read: the parts read
    /// are the other spans', and a file with nothing left is not read at all.
    /// Finds shared by the other workers count for the search they belong to only: those of
    /// an earlier search (arriving late) are dropped, a later search starts afresh.
    #[test]
    fn shared_finds_belong_to_their_search() {
        let mut st = Store::new();
        st.share_found(7, &[3, 5]);
        assert!(st.session.has(3) && st.session.has(5) && !st.session.has(4));
        // Late finds of an earlier search are not taken.
        st.share_found(6, &[4]);
        assert!(!st.session.has(4));
        // More of the same search add up; this worker's own start of it keeps them.
        st.share_found(7, &[4]);
        assert!(st.session.join(7));
        assert!(st.session.has(3) && st.session.has(4));
        // The next search forgets them.
        assert!(st.session.join(8));
        assert!(!st.session.has(3));
        assert!(!st.session.join(7));
    }

    #[test]
    fn spans_found_in_other_files_are_left_out() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../tests/fixtures/agents/agents-100/agent-logs/HELIOS_A-7.log.gz");
        let (text, _) = inflate_all(&std::fs::read(path).unwrap(), None).unwrap();
        let ix = Indexed::of(&text);
        let (ranges, len) = (&ix.ranges[..], ix.len);
        assert!(ranges.len() > 20, "{} spans", ranges.len());
        let needle = "0.0";
        let even = |p: u32| p.is_multiple_of(2);
        let Plan::Read(parts) = plan_left(None, ranges, len, needle, 0, &even, 1.0) else {
            panic!("nothing to read");
        };
        let slack = needle.len() as u64;
        for (k, &(a, b)) in ranges.iter().enumerate() {
            let read = parts.iter().any(|&(s, e)| s <= a && b <= e);
            assert_eq!(read, k % 2 == 0, "span {k} ({a}..{b})");
            if k % 2 == 0 {
                assert!(parts.contains(&(a, (b + slack).min(len))), "span {k}");
            }
        }
        // Nothing left: answered without reading. Everything left: the whole file.
        assert_eq!(
            plan_left(None, ranges, len, needle, 0, &|_| false, 1.0),
            Plan::Found(Vec::new())
        );
        assert_eq!(
            plan_left(None, ranges, len, needle, 0, &|_| true, 1.0),
            Plan::Read(vec![(0, len)])
        );
        // Parts past the share asked for: the whole file.
        assert_eq!(
            plan_left(None, ranges, len, needle, 0, &even, 0.1),
            Plan::Read(vec![(0, len)])
        );
        let mut session = Session::default();
        session.add(7);
        session.add(Session::MAX_CYCLE + 1);
        assert!(session.has(7) && !session.has(8) && !session.has(Session::MAX_CYCLE + 1));
    }

    /// A long game's debug log (the fixture's text twelve times over, gzipped as a team
    /// keeps it: 1.2 MB, read in several chunks, with access points at the page's spacing):
    /// searches that read the whole file, or a few cycles here and there, or are answered by
    /// the words find what a scan of the whole text finds.
    #[test]
    fn searches_of_a_long_gzipped_file_read_it_in_chunks() {
        use std::io::Write;
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../tests/fixtures/agents/agents-100/agent-logs/HELIOS_A-7.log.gz");
        let (one, _) = inflate_all(&std::fs::read(path).unwrap(), None).unwrap();
        let text = one.repeat(12);
        let mut z = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::new(6));
        z.write_all(&text).unwrap();
        let gz = z.finish().unwrap();
        assert!(gz.len() as u64 > 2 * SCAN_GZ_CHUNK, "{} bytes", gz.len());
        let (_, points) = inflate_all(&gz, Some(SPACING)).unwrap();
        assert!(points.len() > 10, "{} points", points.len());
        let ix = Indexed::of(&text);
        let (words, ranges, len) = (&ix.words, &ix.ranges[..], ix.len);
        let gzipped = |words| ix.case(words, Some(&points), &gz);
        let mut read_parts = 0;
        for needle in [
            "WM: BALL rpos=(1",
            "(setChangeView) register change_view. width= 1",
            "heard stamina. sender=",
            "0.0000 ",
            "updateTheirDefenseLine",
            "no such text",
        ] {
            if matches!(plan_joined(words.as_ref(), ranges, len, needle, 0), Plan::Read(r) if r.len() > 1)
            {
                read_parts += 1;
            }
            let want = scanned(&text, ranges, needle);
            for words in [words.as_ref(), None] {
                let got = search(gzipped(words), needle);
                assert_eq!(got, want, "{needle:?}, words: {}", words.is_some());
            }
        }
        assert!(
            read_parts >= 2,
            "{read_parts} searches read parts of the file"
        );
    }
}
