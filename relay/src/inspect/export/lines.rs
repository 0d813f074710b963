//! The tracking table of a text log straight from its lines
//! ([`pitchside_analysis::export::text`]), on two cores.
//!
//! Three kinds of work make the table: reading the next lines and the state they carry (in
//! order), writing the rows of a batch's shows (in any order, a chunk of shows at a time), and
//! putting a batch's rows in the file (in order). Both threads run the same loop and take
//! whichever work is ready, the ordered kinds first: so the file's reads and writes, which the
//! kernel does on the calling thread, overlap the other thread's rows instead of leaving it
//! waiting. A few batches are in flight at once ([`SLOTS`]); memory is theirs alone, however
//! long the log.

use super::error::ExportError;
use super::sink::Sink;
use pitchside_analysis::export::text::{show_body, ShowLine, TextTracking};
use pitchside_analysis::export::tracking_header;
use rcss_formats::log::LogEnd;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Mutex, RwLock};

/// Bytes of a text log read at once: about 75 shows of a real log, ten chunks of rows, so
/// both threads share each batch, and a batch is read in well under the time its rows take.
const LINES_BATCH: usize = 128 << 10;

/// Batches in flight: one being read, one having its rows written, one going to the file.
const SLOTS: usize = 3;

/// Shows whose rows a thread takes at a time.
const SHOWS_PER_TAKE: usize = 8;

/// How long a thread with nothing to do spins before it sleeps between looks: waiting for the
/// other thread's read or chunk is a few microseconds, but a disk slower than the page cache
/// should not cost a core.
const SPIN_FOR: std::time::Duration = std::time::Duration::from_millis(20);

/// What the lines gave: the shows, where the match stops, and the player types table (the
/// caller writes it: the file of types is made only once the tracking table is whole).
pub(super) struct FromLines {
    pub shows: u64,
    pub end: LogEnd,
    pub player_types: String,
    pub player_type_rows: usize,
}

/// Writes the tracking table of a text log straight from its lines: the shows, where the
/// match stops and its player types, or `None` when the log needs the decoder (another
/// format, damage, a gzip stream with anything after it): the caller then writes the table
/// again.
pub(super) fn tracking_from_lines(
    input: &Path,
    path: PathBuf,
    two: bool,
) -> Result<Option<FromLines>, ExportError> {
    let read_error = |source| ExportError::Read {
        path: input.to_path_buf(),
        source,
    };
    let mut file = std::fs::File::open(input).map_err(read_error)?;
    let mut magic = [0u8; 2];
    let gzip = match file.read_exact(&mut magic) {
        Ok(()) => magic == [0x1f, 0x8b],
        Err(_) => return Ok(None),
    };
    std::io::Seek::rewind(&mut file).map_err(read_error)?;
    // A binary or JSON log goes to the decoder before any file is made.
    if !starts_as_text(&mut file, gzip) {
        return Ok(None);
    }
    std::io::Seek::rewind(&mut file).map_err(read_error)?;
    let mut out = Sink::create(path)?;
    let mut header = String::new();
    tracking_header(&mut header);
    out.write_bytes(header.as_bytes())?;
    let (taken, lines) = if gzip {
        let gz = flate2::bufread::GzDecoder::new(std::io::BufReader::with_capacity(
            crate::inspect::CHUNK,
            file,
        ));
        // A damaged gzip stream, or anything after it: the decoder says what and where.
        match feed(input, gz, &mut out, two) {
            Ok((true, lines, gz)) => {
                let mut one = [0u8; 1];
                (matches!(gz.into_inner().read(&mut one), Ok(0)), lines)
            }
            Ok((false, lines, _)) => (false, lines),
            Err(ExportError::Read { .. }) => return Ok(None),
            Err(e) => return Err(e),
        }
    } else {
        let (taken, lines, _) = feed(input, file, &mut out, two)?;
        (taken, lines)
    };
    if !taken || !lines.has_header() {
        return Ok(None);
    }
    out.finish()?;
    Ok(Some(FromLines {
        shows: lines.shows(),
        end: lines.end(),
        player_types: lines.player_types().to_owned(),
        player_type_rows: lines.player_type_rows(),
    }))
}

/// Whether the log's first bytes (inflated, if `gzip`) are a text log's header.
fn starts_as_text(file: &mut std::fs::File, gzip: bool) -> bool {
    let mut head = [0u8; 4];
    let read = if gzip {
        flate2::read::GzDecoder::new(&mut *file).read_exact(&mut head)
    } else {
        file.read_exact(&mut head)
    };
    read.is_ok() && matches!(&head, b"ULG4" | b"ULG5" | b"ULG6")
}

/// A batch of a text log's whole lines, with its shows' first columns and where each show is.
#[derive(Default)]
struct LineBatch {
    /// The lines from the start, then what was read of the next ones (kept for the next batch).
    bytes: Vec<u8>,
    prefixes: Vec<u8>,
    shows: Vec<ShowLine>,
}

/// What reading the next batch gave.
enum Lines {
    Batch,
    End,
    /// Not the plain text form (or damaged): the decoder must write the table.
    NotPlain,
}

/// The rows one thread wrote for a batch: in the order it wrote them, each show's end in
/// `bytes`, and which chunks it took (chunk, index of its first show in `ends`).
#[derive(Default)]
struct Taken {
    bytes: Vec<u8>,
    ends: Vec<usize>,
    chunks: Vec<(usize, usize)>,
}

impl Taken {
    fn clear(&mut self) {
        self.bytes.clear();
        self.ends.clear();
        self.chunks.clear();
    }
}

/// One batch in flight and the rows written of it.
#[derive(Default)]
struct Slot {
    batch: RwLock<LineBatch>,
    /// The rows each thread wrote of the batch.
    taken: [Mutex<Taken>; 2],
    /// Which batch the slot holds (high 32 bits), its chunks (16 bits) and the next chunk to
    /// take (low 16 bits), in one word: a thread that read an older batch number takes nothing
    /// from a newer batch, and never sees one batch's number with another's chunks.
    taking: AtomicU64,
    /// Chunks whose rows are written.
    finished: AtomicUsize,
}

/// The chunks of a slot's batch, from its `taking` word.
fn chunks_of(taking: u64) -> usize {
    ((taking >> 16) & 0xffff) as usize
}

/// The reading side's state, used by one thread at a time.
struct Reader<R> {
    source: R,
    pending: Vec<u8>,
    at_end: bool,
    lines: TextTracking,
}

/// What both threads share.
struct Pipeline<'a, R> {
    input: &'a Path,
    slots: [Slot; SLOTS],
    /// Batches read so far (batch `n` is in `slots[n % SLOTS]`).
    read: AtomicUsize,
    /// Batches in the file so far.
    written: AtomicUsize,
    /// No batch is left to read.
    ended: AtomicBool,
    /// Stop now: the log is not in the plain form, or reading or writing failed
    /// (`outcome` says which).
    stop: AtomicBool,
    outcome: Mutex<Option<ExportError>>,
    reader: Mutex<Reader<R>>,
    writer: Mutex<Writer<'a>>,
}

/// The writing side's state, used by one thread at a time.
struct Writer<'a> {
    out: &'a mut Sink,
    /// Per chunk of the batch being written: whose it is and its place in their list.
    owner: Vec<(usize, usize)>,
}

/// Sets its flag if dropped while the thread panics.
struct StopOnPanic<'a>(&'a AtomicBool);

impl Drop for StopOnPanic<'_> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            self.0.store(true, Ordering::Release);
        }
    }
}

/// What a look for work found.
enum Step {
    Worked,
    Idle,
    Done,
}

/// Reads `source` in batches of whole lines and writes their rows, on a second thread too when
/// `two` (a core is spare). `false` when the log needs the decoder instead (a last line
/// without its newline included); the state of the lines read, and the source.
fn feed<R: Read + Send>(
    input: &Path,
    source: R,
    out: &mut Sink,
    two: bool,
) -> Result<(bool, TextTracking, R), ExportError> {
    let pipe = Pipeline {
        input,
        slots: Default::default(),
        read: AtomicUsize::new(0),
        written: AtomicUsize::new(0),
        ended: AtomicBool::new(false),
        stop: AtomicBool::new(false),
        outcome: Mutex::new(None),
        reader: Mutex::new(Reader {
            source,
            pending: Vec::new(),
            at_end: false,
            lines: TextTracking::new(),
        }),
        writer: Mutex::new(Writer {
            out,
            owner: Vec::new(),
        }),
    };
    std::thread::scope(|scope| {
        if two {
            scope.spawn(|| pipe.work(1));
        }
        pipe.work(0);
    });
    let plain = !pipe.stop.load(Ordering::Acquire);
    let failed = pipe.outcome.into_inner().unwrap_or_else(|e| e.into_inner());
    let reader = pipe.reader.into_inner().unwrap_or_else(|e| e.into_inner());
    match failed {
        Some(e) => Err(e),
        None => Ok((plain, reader.lines, reader.source)),
    }
}

impl<R: Read> Pipeline<'_, R> {
    /// One thread's loop: the next work ready until every batch is in the file or the export
    /// stops.
    fn work(&self, me: usize) {
        // A thread that panics stops the other too: it would otherwise wait forever for the
        // chunk or the lock the first one held, and the panic would never be reported.
        let _stop = StopOnPanic(&self.stop);
        let mut idle_since: Option<std::time::Instant> = None;
        let mut spins = 0u32;
        loop {
            match self.step(me) {
                Step::Done => return,
                Step::Worked => idle_since = None,
                Step::Idle => {
                    let since = *idle_since.get_or_insert_with(std::time::Instant::now);
                    spins = spins.wrapping_add(1);
                    // The clock read only now and then: reading it each time was most of the
                    // spinning.
                    if !spins.is_multiple_of(256) || since.elapsed() < SPIN_FOR {
                        std::hint::spin_loop();
                    } else {
                        std::thread::sleep(std::time::Duration::from_micros(200));
                    }
                }
            }
        }
    }

    /// Stops both threads; the first reason given is kept (`None`: not the plain form).
    fn fail(&self, why: Option<ExportError>) {
        if let Some(e) = why {
            let mut o = self.outcome.lock().unwrap_or_else(|e| e.into_inner());
            o.get_or_insert(e);
        }
        self.stop.store(true, Ordering::Release);
    }

    /// Does one piece of work if any is ready: the next batch to the file, the next batch
    /// read, or a chunk of rows, in that order.
    fn step(&self, me: usize) -> Step {
        if self.stop.load(Ordering::Acquire) {
            return Step::Done;
        }
        // `ended` first: once it is set, `read` is final, so a thread never takes the last
        // batches for written before they are.
        let ended = self.ended.load(Ordering::Acquire);
        let read = self.read.load(Ordering::Acquire);
        let written = self.written.load(Ordering::Acquire);
        if written == read && ended {
            return Step::Done;
        }
        if written < read && self.complete(written) {
            if let Ok(mut w) = self.writer.try_lock() {
                if self.written.load(Ordering::Acquire) == written {
                    match self.write(written, &mut w) {
                        Ok(()) => self.written.store(written + 1, Ordering::Release),
                        Err(e) => self.fail(Some(e)),
                    }
                }
                return Step::Worked;
            }
        }
        if !ended && read < written + SLOTS {
            if let Ok(mut r) = self.reader.try_lock() {
                self.read_next(&mut r);
                return Step::Worked;
            }
        }
        for n in written..read {
            if self.take_chunk(n, me) {
                return Step::Worked;
            }
        }
        Step::Idle
    }

    /// Whether every chunk of batch `n`'s rows is written.
    fn complete(&self, n: usize) -> bool {
        let slot = &self.slots[n % SLOTS];
        let v = slot.taking.load(Ordering::Acquire);
        v >> 32 == n as u64 && slot.finished.load(Ordering::Acquire) == chunks_of(v)
    }

    /// Reads the next batch into its slot, if the slot is free.
    fn read_next(&self, r: &mut Reader<R>) {
        let n = self.read.load(Ordering::Acquire);
        if self.ended.load(Ordering::Acquire) || n >= self.written.load(Ordering::Acquire) + SLOTS {
            return;
        }
        let slot = &self.slots[n % SLOTS];
        let got = {
            let mut batch = slot.batch.write().unwrap_or_else(|e| e.into_inner());
            for t in &slot.taken {
                t.lock().unwrap_or_else(|e| e.into_inner()).clear();
            }
            next_lines(self.input, r, &mut batch).map(|got| match got {
                Lines::Batch => {
                    let chunks = batch.shows.len().div_ceil(SHOWS_PER_TAKE);
                    // A batch is at most a few megabytes of lines: far fewer chunks than
                    // this, unless it is no log.
                    if chunks > 0xffff {
                        Lines::NotPlain
                    } else {
                        slot.finished.store(0, Ordering::Release);
                        slot.taking
                            .store((n as u64) << 32 | (chunks as u64) << 16, Ordering::Release);
                        Lines::Batch
                    }
                }
                other => other,
            })
        };
        match got {
            Ok(Lines::Batch) => self.read.store(n + 1, Ordering::Release),
            Ok(Lines::End) => self.ended.store(true, Ordering::Release),
            Ok(Lines::NotPlain) => self.fail(None),
            Err(e) => self.fail(Some(e)),
        }
    }

    /// Takes the next chunk of batch `n`'s shows, if one is left, and writes its rows;
    /// `false` when there was none.
    fn take_chunk(&self, n: usize, me: usize) -> bool {
        let slot = &self.slots[n % SLOTS];
        let mut v = slot.taking.load(Ordering::Acquire);
        let k = loop {
            let k = (v & 0xffff) as usize;
            if v >> 32 != n as u64 || k >= chunks_of(v) {
                return false;
            }
            match slot
                .taking
                .compare_exchange_weak(v, v + 1, Ordering::AcqRel, Ordering::Acquire)
            {
                Ok(_) => break k,
                Err(now) => v = now,
            }
        };
        let batch = slot.batch.read().unwrap_or_else(|e| e.into_inner());
        let mut rows = slot.taken[me].lock().unwrap_or_else(|e| e.into_inner());
        let first = rows.ends.len();
        rows.chunks.push((k, first));
        let from = k * SHOWS_PER_TAKE;
        let to = (from + SHOWS_PER_TAKE).min(batch.shows.len());
        for s in &batch.shows[from..to] {
            if show_body(&batch.bytes[s.start..s.end], &mut rows.bytes).is_none() {
                drop(rows);
                self.fail(None);
                return true;
            }
            let end = rows.bytes.len();
            rows.ends.push(end);
        }
        drop(rows);
        slot.finished.fetch_add(1, Ordering::AcqRel);
        true
    }

    /// Puts batch `n`'s rows in the file in the shows' order, each after its first columns.
    fn write(&self, n: usize, w: &mut Writer<'_>) -> Result<(), ExportError> {
        let slot = &self.slots[n % SLOTS];
        let batch = slot.batch.read().unwrap_or_else(|e| e.into_inner());
        let taken = [
            slot.taken[0].lock().unwrap_or_else(|e| e.into_inner()),
            slot.taken[1].lock().unwrap_or_else(|e| e.into_inner()),
        ];
        w.owner.clear();
        w.owner
            .resize(batch.shows.len().div_ceil(SHOWS_PER_TAKE), (0, 0));
        for (who, t) in taken.iter().enumerate() {
            for (i, &(k, _)) in t.chunks.iter().enumerate() {
                w.owner[k] = (who, i);
            }
        }
        let mut from_prefix = 0;
        for (k, &(who, i)) in w.owner.iter().enumerate() {
            let t = &taken[who];
            let first = t.chunks[i].1;
            let shows = &batch.shows[k * SHOWS_PER_TAKE..];
            for (j, s) in shows.iter().take(SHOWS_PER_TAKE).enumerate() {
                w.out
                    .write_bytes(&batch.prefixes[from_prefix..s.prefix_end])?;
                from_prefix = s.prefix_end;
                let at = first + j;
                let start = if at == 0 { 0 } else { t.ends[at - 1] };
                w.out.write_bytes(&t.bytes[start..t.ends[at]])?;
            }
        }
        Ok(())
    }
}

/// Reads the log's next whole lines into `batch` (the part of a line after the last newline
/// kept for the next batch) and reads their order-dependent state.
fn next_lines<R: Read>(
    input: &Path,
    r: &mut Reader<R>,
    batch: &mut LineBatch,
) -> Result<Lines, ExportError> {
    // The buffer keeps its length from batch to batch: only the bytes read count, and
    // zeroing it per batch showed in profiles.
    let buf = &mut batch.bytes;
    let mut filled = r.pending.len();
    let want = LINES_BATCH.max(2 * filled);
    if buf.len() < want {
        buf.resize(want, 0);
    }
    buf[..filled].copy_from_slice(&r.pending);
    r.pending.clear();
    let cut = loop {
        // Fill the buffer, growing it for a line longer than it.
        while filled < buf.len() && !r.at_end {
            match r.source.read(&mut buf[filled..]) {
                Ok(0) => r.at_end = true,
                Ok(n) => filled += n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(source) => {
                    return Err(ExportError::Read {
                        path: input.to_path_buf(),
                        source,
                    })
                }
            }
        }
        match buf[..filled].iter().rposition(|&b| b == b'\n') {
            Some(n) => break n + 1,
            None if r.at_end && filled == 0 => return Ok(Lines::End),
            None if r.at_end => return Ok(Lines::NotPlain),
            None if buf.len() > 2 * rcss_formats::log::MAX_RECORD_BYTES => {
                return Ok(Lines::NotPlain)
            }
            None => buf.resize(buf.len() * 2, 0),
        }
    };
    if r.at_end {
        // After the last newline only blanks may follow.
        if !buf[cut..filled].iter().all(u8::is_ascii_whitespace) {
            return Ok(Lines::NotPlain);
        }
    } else {
        r.pending.extend_from_slice(&buf[cut..filled]);
    }
    batch.prefixes.clear();
    batch.shows.clear();
    Ok(
        if r.lines
            .lines(&batch.bytes[..cut], &mut batch.prefixes, &mut batch.shows)
        {
            Lines::Batch
        } else {
            Lines::NotPlain
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::inspect::export::{export_log, Options};
    use std::io::Write;

    /// The full game's lines, uncompressed: many batches, so every slot is used many times.
    fn full_game() -> Vec<u8> {
        let p = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(
            "../tests/fixtures/logs/full-v6-realtime/20261122131124-HELIOS_L_2-vs-HELIOS_R_3.rcg.gz",
        );
        let raw = std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
        let mut bytes = Vec::new();
        flate2::read::GzDecoder::new(&raw[..])
            .read_to_end(&mut bytes)
            .expect("gunzip");
        bytes
    }

    fn scratch(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("pitchside-lines-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).expect("scratch");
        d
    }

    /// The table the decoder writes (the actions asked for too, so the lines are not used).
    fn decoders_table(log: &Path, dir: &Path) -> Vec<u8> {
        let opts = Options {
            tracking: true,
            actions: true,
            out: dir.to_path_buf(),
            split: None,
            seed: 0,
            jobs: 1,
            parquet: false,
        };
        export_log(log, &dir.join("decoded"), &opts, false).expect("decoded");
        std::fs::read(dir.join("decoded.tracking.csv")).expect("read")
    }

    fn gzip(bytes: &[u8]) -> Vec<u8> {
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        gz.write_all(bytes).expect("gzip");
        gz.finish().expect("gzip")
    }

    #[test]
    fn one_thread_or_two_the_lines_give_the_decoders_table() {
        let dir = scratch("whole");
        let bytes = full_game();
        let log = dir.join("full.rcg");
        std::fs::write(&log, &bytes).expect("log");
        let want = decoders_table(&log, &dir);
        let shows = bytes.windows(6).filter(|w| w == b"(show ").count() as u64;
        for two in [false, true] {
            let out = dir.join(format!("lines-{two}.csv"));
            let got = tracking_from_lines(&log, out.clone(), two)
                .expect("exported")
                .expect("plain text");
            assert_eq!(got.shows, shows);
            assert_eq!(got.player_type_rows, 18);
            assert!(got.player_types.starts_with("id,player_speed_max,"));
            assert!(
                std::fs::read(&out).expect("read") == want,
                "two threads: {two}"
            );
        }
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn damage_late_in_a_long_log_hands_it_to_the_decoder() {
        let dir = scratch("damaged");
        let mut bytes = full_game();
        // A show most of the way through, after many batches have gone to the file.
        let at = bytes.len() * 9 / 10;
        let show = at + memchr_show(&bytes[at..]);
        let ball = show
            + bytes[show..]
                .windows(4)
                .position(|w| w == b"(b) ")
                .expect("ball");
        bytes[ball + 4] = b'#';
        for (name, content) in [
            ("damaged.rcg", bytes.clone()),
            ("damaged.rcg.gz", gzip(&bytes)),
        ] {
            let log = dir.join(name);
            std::fs::write(&log, content).expect("log");
            for two in [false, true] {
                let got = tracking_from_lines(&log, dir.join("lines.csv"), two).expect("no error");
                assert!(got.is_none(), "{name}, two threads: {two}");
            }
        }
        // And after the lines were refused, the export still writes the decoder's table.
        let log = dir.join("damaged.rcg");
        let want = decoders_table(&log, &dir);
        let opts = Options {
            tracking: true,
            actions: false,
            out: dir.clone(),
            split: None,
            seed: 0,
            jobs: 1,
            parquet: false,
        };
        export_log(&log, &dir.join("alone"), &opts, true).expect("exported");
        assert!(std::fs::read(dir.join("alone.tracking.csv")).expect("read") == want);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_binary_or_json_log_goes_to_the_decoder_before_any_file_is_made() {
        let dir = scratch("other-forms");
        let logs = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/logs");
        for sub in ["short-v2", "short-json"] {
            let log = std::fs::read_dir(logs.join(sub))
                .expect("fixtures")
                .flatten()
                .map(|e| e.path())
                .find(|p| p.to_string_lossy().ends_with(".rcg.gz"))
                .expect("a log");
            let out = dir.join(format!("{sub}.csv"));
            for two in [false, true] {
                let got = tracking_from_lines(&log, out.clone(), two).expect("no error");
                assert!(got.is_none(), "{sub}");
                assert!(!out.exists(), "{sub}: no table made");
            }
        }
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// Where the next show line starts.
    fn memchr_show(b: &[u8]) -> usize {
        b.windows(7).position(|w| w == b"\n(show ").expect("a show") + 1
    }
}
