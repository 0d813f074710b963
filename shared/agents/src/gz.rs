//! A gzipped agent file read as if it were its text, without holding the text.
//!
//! Team developers keep their agents' logs gzipped: a full game's are about 1.5 GB of text,
//! 0.2-0.3 GB gzipped. A gzip stream can only be inflated from its start, so the one pass that
//! indexes the file by game time ([`super::index`]) also notes *access points*: about every
//! [`SPACING`] bytes of text, at the start of a deflate block, where the input is and the last
//! 32 KB of text (all that a deflate block can refer back to). Any byte range of the text is
//! then read again by inflating from the access point before it (a few hundred KB of text)
//! from the gzip file itself, which stays on disk like a plain file: no copy of the text, and
//! not the compressed file either, is held.
//!
//! [`Inflater`] is one push-style machine for the three uses: the indexing pass (from the
//! file's start, noting points, checking each member's CRC and length), reading a range (from
//! a point, continuing forward as playback asks for the next cycles), and searching (from the
//! start). It takes the compressed bytes as the caller reads them and stops where it is told,
//! so a worker can read the file in chunks and answer other requests between them.
//! A search that reads a whole file needs no points: [`Gunzip`] inflates it straight through.

mod error;
mod gunzip;
mod member;
pub use error::GzError;
pub use gunzip::Gunzip;
use member::{header_len, Header, Stage, MAX_HEADER};

use miniz_oxide::deflate::core::{
    compress, create_comp_flags_from_zip_params, CompressorOxide, TDEFLFlush, TDEFLStatus,
};
use miniz_oxide::inflate::core::inflate_flags::{
    TINFL_FLAG_HAS_MORE_INPUT, TINFL_FLAG_STOP_ON_BLOCK_BOUNDARY,
};
use miniz_oxide::inflate::core::{decompress_with_limit, BlockBoundaryState, DecompressorOxide};
use miniz_oxide::inflate::TINFLStatus;

/// Bytes of text between two access points, at least. Points can only be at a deflate
/// block's start: flate2 at gzip's default level makes blocks of 250-370 KB of a debug log's
/// text (the unit tests' fixtures), so a point comes at every second block or so and reading
/// any range inflates up to about 700 KB before it (a few milliseconds); a full game's 1.3 GB
/// of text then holds some 1,900 points of 8 KB (each window deflated), 15 MB (at 256 KB,
/// every block: 3,300 points and 28 MB, in workers whose memory never shrinks). A file
/// written as one huge block (flate2's fastest level does so for a 1 MB log) has no point
/// inside it.
pub const SPACING: u64 = 512 << 10;

/// How far back a deflate stream can refer: the text kept at each access point.
const WINDOW: usize = 32 << 10;

/// The inflater's output ring (a power of two, at least [`WINDOW`]): its last bytes are the
/// window, and a range read just before is served from it again.
const RING: usize = 256 << 10;

/// Where inflating can start again.
#[derive(Clone, Debug, PartialEq)]
pub struct AccessPoint {
    /// Offset of the point in the text.
    pub text: u64,
    /// Offset in the gzip file of the first byte to read from here.
    pub input: u64,
    resume: Resume,
}

#[derive(Clone, Debug, PartialEq)]
enum Resume {
    /// A member's header starts at `input`.
    Member,
    /// A deflate block starts in byte `input - 1`'s last `num_bits` bits (`bit_buf`), or at
    /// `input` when there are none; `window` is the text before it, deflated.
    Block {
        num_bits: u8,
        bit_buf: u8,
        window: Box<[u8]>,
    },
}

impl AccessPoint {
    /// The start of the file: no window, a header first.
    pub fn start() -> AccessPoint {
        AccessPoint {
            text: 0,
            input: 0,
            resume: Resume::Member,
        }
    }

    /// Bytes the point holds (what it costs to keep it).
    pub fn heap_bytes(&self) -> usize {
        std::mem::size_of::<AccessPoint>()
            + match &self.resume {
                Resume::Member => 0,
                Resume::Block { window, .. } => window.len(),
            }
    }
}

/// The last point at or before text offset `at` (points in text order, the first at 0).
pub fn point_before(points: &[AccessPoint], at: u64) -> Option<&AccessPoint> {
    let i = points.partition_point(|p| p.text <= at);
    points.get(i.checked_sub(1)?)
}

/// Why [`Inflater::run`] returned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Progress {
    /// Every byte given was used: give the bytes from [`Inflater::input_needed`] on.
    NeedInput,
    /// The text reached the offset asked for.
    Reached,
    /// The end of the file: every member read.
    End,
}

/// Inflates a gzip file pushed in chunks of any size, from its start or from an access point.
pub struct Inflater {
    d: Box<DecompressorOxide>,
    stage: Stage,
    ring: Box<[u8]>,
    /// Where the next byte of text goes in `ring`.
    pos: usize,
    /// How many bytes before `pos` in `ring` hold text (at most [`RING`]).
    filled: usize,
    /// Offset in the text of the next byte out.
    text: u64,
    /// Compressed bytes given and not yet used: `pending[taken..]` start at file offset
    /// `input`.
    pending: Vec<u8>,
    taken: usize,
    input: u64,
    /// No more input will come.
    ended: bool,
    /// The member being read from its start: its CRC so far, where it started (file, text).
    member: Option<(crc32fast::Hasher, u64, u64)>,
    members: u64,
    /// Access points noted, when asked to note them, this far apart.
    spacing: Option<u64>,
    points: Vec<AccessPoint>,
    /// Packs the points' windows (made with the first point noted).
    packer: Option<Packer>,
}

/// Deflates access points' windows with one compressor and one scratch buffer for all of
/// them. A compressor is some 300 KB: one made and dropped for each window, with the windows
/// kept between them, left the worker's memory in pieces that later ones did not fit (a
/// full game's gzipped files grew the page's workers by about 30 MB each).
struct Packer {
    compressor: Box<CompressorOxide>,
    window: Vec<u8>,
    out: Vec<u8>,
}

impl Packer {
    fn new() -> Packer {
        // The fastest level: text deflates to a fifth or less even so.
        let flags = create_comp_flags_from_zip_params(1, 0, 0);
        Packer {
            compressor: Box::new(CompressorOxide::new(flags)),
            window: Vec::with_capacity(WINDOW),
            out: Vec::new(),
        }
    }

    /// `self.window` deflated, in a box of its own size.
    fn pack(&mut self) -> Box<[u8]> {
        self.compressor.reset();
        self.out.clear();
        self.out.resize(self.window.len() / 2 + 64, 0);
        let (mut input, mut at) = (&self.window[..], 0);
        loop {
            let (status, used, made) = compress(
                &mut self.compressor,
                input,
                &mut self.out[at..],
                TDEFLFlush::Finish,
            );
            at += made;
            input = &input[used.min(input.len())..];
            match status {
                TDEFLStatus::Okay => {
                    if self.out.len() - at < 64 {
                        let grown = self.out.len() * 2;
                        self.out.resize(grown, 0);
                    }
                }
                // Done; an error cannot come from a compressor given a whole buffer, but if
                // one did the window would not inflate and the point would say so when used.
                _ => break,
            }
        }
        Box::from(&self.out[..at])
    }
}

impl Inflater {
    /// At the start of a file, noting an access point about every `spacing` bytes of text if
    /// given (the indexing pass).
    pub fn new(spacing: Option<u64>) -> Inflater {
        let mut me = Inflater {
            d: Box::default(),
            stage: Stage::Header,
            ring: vec![0; RING].into_boxed_slice(),
            pos: 0,
            filled: 0,
            text: 0,
            pending: Vec::new(),
            taken: 0,
            input: 0,
            ended: false,
            member: None,
            members: 0,
            spacing,
            points: Vec::new(),
            packer: None,
        };
        if spacing.is_some() {
            me.points.push(AccessPoint::start());
        }
        me
    }

    /// At an access point (made by a pass over the same file); the bytes to give start at
    /// [`AccessPoint::input`].
    pub fn resume(point: &AccessPoint) -> Result<Inflater, GzError> {
        let mut me = Inflater::new(None);
        me.text = point.text;
        me.input = point.input;
        if let Resume::Block {
            num_bits,
            bit_buf,
            window,
        } = &point.resume
        {
            let window = miniz_oxide::inflate::decompress_to_vec_with_limit(window, WINDOW)
                .map_err(|_| GzError::BadPoint { len: window.len() })?;
            me.ring[..window.len()].copy_from_slice(&window);
            me.pos = window.len();
            me.filled = window.len();
            me.d = Box::new(DecompressorOxide::from_block_boundary_state(
                &BlockBoundaryState {
                    num_bits: *num_bits,
                    bit_buf: *bit_buf,
                    ..BlockBoundaryState::default()
                },
            ));
            me.stage = Stage::Deflate;
            // Not from the member's start: its checksum cannot be checked.
            me.members = 1;
        }
        Ok(me)
    }

    /// Offset in the text of the next byte out.
    pub fn text_offset(&self) -> u64 {
        self.text
    }

    /// Offset in the file of the next compressed byte wanted (after those given).
    pub fn input_needed(&self) -> u64 {
        self.input + (self.pending.len() - self.taken) as u64
    }

    /// The access points noted so far.
    pub fn points(&self) -> &[AccessPoint] {
        &self.points
    }

    /// Takes the access points noted.
    pub fn take_points(&mut self) -> Vec<AccessPoint> {
        std::mem::take(&mut self.points)
    }

    /// Gives the next compressed bytes (from [`Inflater::input_needed`] on).
    pub fn push(&mut self, chunk: &[u8]) {
        if self.taken > 0 && self.taken == self.pending.len() {
            self.pending.clear();
            self.taken = 0;
        } else if self.taken > (1 << 20) {
            self.pending.drain(..self.taken);
            self.taken = 0;
        }
        self.pending.extend_from_slice(chunk);
    }

    /// Says that no more input will come (the file's end was given).
    pub fn end_input(&mut self) {
        self.ended = true;
    }

    /// The text `start..end` already inflated and still in the ring, if all of it is.
    pub fn recent(&self, start: u64, end: u64) -> Option<Vec<u8>> {
        let first = self.text - self.filled as u64;
        if start < first || end > self.text || start > end {
            return None;
        }
        let mut out = Vec::with_capacity((end - start) as usize);
        // Ring positions of start and end.
        let back = |at: u64| (self.pos + RING - (self.text - at) as usize) % RING;
        let (a, b) = (back(start), back(end));
        if start == end {
            return Some(out);
        }
        if a < b {
            out.extend_from_slice(&self.ring[a..b]);
        } else {
            out.extend_from_slice(&self.ring[a..]);
            out.extend_from_slice(&self.ring[..b]);
        }
        Some(out)
    }

    /// Where text offset `at` can be read from this inflater: it is in the ring, or ahead.
    pub fn can_reach(&self, at: u64) -> bool {
        at + self.filled as u64 >= self.text
    }

    /// Inflates what the input given allows, up to text offset `until`, handing each piece of
    /// text to `sink` with its offset in the text.
    pub fn run(
        &mut self,
        until: u64,
        sink: &mut dyn FnMut(u64, &[u8]),
    ) -> Result<Progress, GzError> {
        loop {
            if self.text >= until {
                return Ok(Progress::Reached);
            }
            match self.stage {
                Stage::Header => {
                    let avail = &self.pending[self.taken..];
                    match header_len(avail) {
                        Header::Complete(n) => {
                            self.note_member();
                            self.member = Some((crc32fast::Hasher::new(), self.input, self.text));
                            self.take(n);
                            *self.d = DecompressorOxide::default();
                            self.stage = Stage::Deflate;
                        }
                        Header::Partial if avail.len() > MAX_HEADER => {
                            return Err(GzError::LongHeader { offset: self.input })
                        }
                        Header::Partial if self.ended => {
                            return Err(GzError::Truncated {
                                offset: self.input_needed(),
                            })
                        }
                        Header::Partial => return Ok(self.need_input()),
                        Header::NotGzip => return Err(GzError::NotGzip { offset: self.input }),
                    }
                }
                Stage::Deflate => {
                    let mut flags = TINFL_FLAG_STOP_ON_BLOCK_BOUNDARY;
                    if !self.ended {
                        flags |= TINFL_FLAG_HAS_MORE_INPUT;
                    }
                    let room = (RING - self.pos)
                        .min(usize::try_from(until - self.text).unwrap_or(usize::MAX));
                    let (status, used, wrote) = decompress_with_limit(
                        &mut self.d,
                        &self.pending[self.taken..],
                        &mut self.ring,
                        self.pos,
                        room,
                        flags,
                    );
                    if wrote > 0 {
                        let piece = &self.ring[self.pos..self.pos + wrote];
                        if let Some((crc, _, _)) = &mut self.member {
                            crc.update(piece);
                        }
                        sink(self.text, piece);
                        self.pos = (self.pos + wrote) % RING;
                        self.filled = (self.filled + wrote).min(RING);
                        self.text += wrote as u64;
                    }
                    self.take(used);
                    match status {
                        TINFLStatus::HasMoreOutput => {}
                        TINFLStatus::BlockBoundary => self.note_block(),
                        TINFLStatus::Done => self.stage = Stage::Trailer,
                        TINFLStatus::NeedsMoreInput => return Ok(self.need_input()),
                        TINFLStatus::FailedCannotMakeProgress => {
                            return Err(GzError::Truncated {
                                offset: self.input_needed(),
                            })
                        }
                        _ => return Err(GzError::Damaged { offset: self.input }),
                    }
                }
                Stage::Trailer => {
                    let avail = &self.pending[self.taken..];
                    if avail.len() < 8 {
                        if self.ended {
                            return Err(GzError::Truncated {
                                offset: self.input_needed(),
                            });
                        }
                        return Ok(self.need_input());
                    }
                    let crc = u32::from_le_bytes([avail[0], avail[1], avail[2], avail[3]]);
                    let len = u32::from_le_bytes([avail[4], avail[5], avail[6], avail[7]]);
                    if let Some((hasher, offset, start)) = self.member.take() {
                        if hasher.finalize() != crc || (self.text - start) as u32 != len {
                            return Err(GzError::Checksum { offset });
                        }
                    }
                    self.take(8);
                    self.members += 1;
                    self.stage = Stage::Between;
                }
                Stage::Between => {
                    let avail = &self.pending[self.taken..];
                    // Zeros after the last member (padding some writers add) are not a
                    // member; gzip itself passes over them.
                    let zeros = avail.iter().take_while(|&&b| b == 0).count();
                    if zeros > 0 {
                        self.take(zeros);
                        continue;
                    }
                    match avail.first() {
                        None if self.ended => return Ok(Progress::End),
                        None => return Ok(self.need_input()),
                        Some(0x1f) => self.stage = Stage::Header,
                        Some(_) => return Err(GzError::Junk { offset: self.input }),
                    }
                }
            }
        }
    }

    fn take(&mut self, n: usize) {
        self.taken += n;
        self.input += n as u64;
    }

    /// Out of input; a header or trailer cut by the chunk's end stays for the next one.
    fn need_input(&mut self) -> Progress {
        if self.taken == self.pending.len() {
            self.pending.clear();
            self.taken = 0;
        }
        Progress::NeedInput
    }

    fn due(&self) -> bool {
        match (self.spacing, self.points.last()) {
            (Some(s), Some(p)) => self.text >= p.text + s,
            (Some(_), None) => true,
            (None, _) => false,
        }
    }

    /// A member starts here (its header at `input`).
    fn note_member(&mut self) {
        if self.members > 0 && self.due() {
            self.points.push(AccessPoint {
                text: self.text,
                input: self.input,
                resume: Resume::Member,
            });
        }
    }

    /// A block ends here: a point if one is due.
    fn note_block(&mut self) {
        if !self.due() {
            return;
        }
        let Some(state) = self.d.block_boundary_state() else {
            return;
        };
        let n = self.filled.min(WINDOW);
        let packer = self.packer.get_or_insert_with(Packer::new);
        let window = &mut packer.window;
        window.clear();
        let from = (self.pos + RING - n) % RING;
        if from + n <= RING {
            window.extend_from_slice(&self.ring[from..from + n]);
        } else {
            window.extend_from_slice(&self.ring[from..]);
            window.extend_from_slice(&self.ring[..self.pos]);
        }
        let window = packer.pack();
        self.points.push(AccessPoint {
            text: self.text,
            input: self.input,
            resume: Resume::Block {
                num_bits: state.num_bits,
                bit_buf: state.bit_buf,
                window,
            },
        });
    }
}

/// Inflates a whole gzip file held in memory (tests, tools): its text and access points.
pub fn inflate_all(
    gz: &[u8],
    spacing: Option<u64>,
) -> Result<(Vec<u8>, Vec<AccessPoint>), GzError> {
    let mut inf = Inflater::new(spacing);
    inf.push(gz);
    inf.end_input();
    let mut text = Vec::new();
    inf.run(u64::MAX, &mut |_, piece| text.extend_from_slice(piece))?;
    Ok((text, inf.take_points()))
}

/// Reads text `start..end` with `inf`, taking compressed bytes from `file` (the whole gzip
/// file; in the page a worker fetches them in chunks instead). For tests and tools.
pub fn read_range(
    file: &[u8],
    points: &[AccessPoint],
    start: u64,
    end: u64,
) -> Result<Vec<u8>, GzError> {
    let point = point_before(points, start)
        .cloned()
        .unwrap_or_else(AccessPoint::start);
    let mut inf = Inflater::resume(&point)?;
    let from = usize::try_from(point.input)
        .unwrap_or(usize::MAX)
        .min(file.len());
    inf.push(&file[from..]);
    inf.end_input();
    let mut out = Vec::new();
    inf.run(end, &mut |at, piece| {
        copy_part(&mut out, start, end, at, piece)
    })?;
    Ok(out)
}

/// Appends the part of `piece` (text at offset `at`) that falls in `start..end`.
pub fn copy_part(out: &mut Vec<u8>, start: u64, end: u64, at: u64, piece: &[u8]) {
    let from = start.max(at);
    let to = end.min(at + piece.len() as u64);
    if from < to {
        out.extend_from_slice(&piece[(from - at) as usize..(to - at) as usize]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    /// `text` gzipped by flate2 at `level`.
    fn gzip(text: &[u8], level: u32) -> Vec<u8> {
        let mut z = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::new(level));
        z.write_all(text).unwrap();
        z.finish().unwrap()
    }

    /// The text of a fixture agent file (they are kept gzipped; flate2 inflates them).
    fn fixture(name: &str) -> Vec<u8> {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../tests/fixtures/agents/agents-100")
            .join(name);
        let mut text = Vec::new();
        std::io::Read::read_to_end(
            &mut flate2::read::GzDecoder::new(std::fs::File::open(&path).unwrap()),
            &mut text,
        )
        .unwrap();
        text
    }

    /// Real agent files of every kind: a player's debug log and world model, a coach's debug
    /// log, the server's message log.
    const FIXTURES: [&str; 4] = [
        "agent-logs/HELIOS_A-7.log.gz",
        "agent-logs/HELIOS_A-7.dcl.gz",
        "agent-logs/HELIOS_B-coach.log.gz",
        "20261125140048-HELIOS_A_0-vs-HELIOS_B_0.rcl.gz",
    ];

    // Gunzip: a whole file straight through, for searches.

    /// Inflates `gz` in chunks of `size` bytes; the text and how it ended.
    fn gunzip(gz: &[u8], size: usize) -> (Vec<u8>, Result<(), GzError>) {
        let mut g = Gunzip::new();
        let mut text = Vec::new();
        let mut sink = |at: u64, piece: &[u8]| {
            assert_eq!(at, text.len() as u64, "pieces in order");
            text.extend_from_slice(piece);
        };
        for c in gz.chunks(size.max(1)) {
            assert_eq!(
                g.input_needed(),
                (c.as_ptr() as usize - gz.as_ptr() as usize) as u64
            );
            if let Err(e) = g.push(c, &mut sink) {
                return (text, Err(e));
            }
        }
        let end = g.push(&[], &mut sink);
        (text, end)
    }

    #[test]
    fn real_files_inflate_as_flate2_reads_them_in_chunks_of_any_size() {
        for name in FIXTURES {
            let text = fixture(name);
            let gz = gzip(&text, 6);
            for size in [1, 7, 4096, 65536, gz.len()] {
                let (got, end) = gunzip(&gz, size);
                assert_eq!(end, Ok(()), "{name} in {size}-byte chunks");
                assert!(got == text, "{name} in {size}-byte chunks");
            }
        }
    }

    #[test]
    fn several_members_padding_and_header_fields() {
        let (a, b) = (b"first member\n".repeat(500), b"second\n".repeat(300));
        let mut gz = gzip(&a, 6);
        // A member with a name, a comment and a header checksum, as gzip -N and others write.
        let mut named = flate2::GzBuilder::new()
            .filename("x.log")
            .comment("made by a test")
            .write(Vec::new(), flate2::Compression::new(1));
        std::io::Write::write_all(&mut named, &b).unwrap();
        gz.extend(named.finish().unwrap());
        gz.extend([0u8; 9]);
        for size in [1, 5, 13, gz.len()] {
            let (got, end) = gunzip(&gz, size);
            assert_eq!(end, Ok(()), "{size}");
            assert!(got == [a.clone(), b.clone()].concat(), "{size}");
        }
    }

    #[test]
    fn damage_truncation_and_junk_are_named_and_keep_the_text_before() {
        let text = fixture(FIXTURES[0]);
        let gz = gzip(&text, 6);
        // Cut short: everything before the cut, then "truncated".
        let (got, end) = gunzip(&gz[..gz.len() / 2], 4096);
        assert!(matches!(end, Err(GzError::Truncated { .. })), "{end:?}");
        assert!(!got.is_empty() && text.starts_with(&got));
        // Not gzip at all.
        let (got, end) = gunzip(b"plain text, not gzip", 4);
        assert_eq!(end, Err(GzError::NotGzip { offset: 0 }));
        assert!(got.is_empty());
        // Bytes after the last member that are neither a member nor zeros.
        let mut junk = gz.clone();
        junk.extend(b"trailing junk");
        let (got, end) = gunzip(&junk, 4096);
        assert_eq!(
            end,
            Err(GzError::Junk {
                offset: gz.len() as u64
            })
        );
        assert!(got == text);
        // Damage a third of the way in: no panic, the text before it as it was, and after it
        // an error or other text (checksums are the indexing pass's: deflate data can be
        // damaged into other valid data).
        for (k, flip) in [0x5a_u8, 0xff].into_iter().enumerate() {
            let mut bad = gz.clone();
            for b in &mut bad[gz.len() / 3..gz.len() / 3 + 64] {
                *b ^= flip;
            }
            let (got, end) = gunzip(&bad, 4096 + k);
            assert!(
                end.is_err() || got != text,
                "damage {flip:#x} changes something"
            );
            let same = got.iter().zip(&text).take_while(|(a, b)| a == b).count();
            assert!(
                same >= text.len() / 5,
                "damage {flip:#x}: {same} bytes kept"
            );
        }
    }

    /// Lines much like a debug log's, with enough variety that deflate makes many blocks.
    fn text(lines: u32) -> Vec<u8> {
        let mut t = Vec::new();
        let mut x: u64 = 12345;
        for i in 0..lines {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            writeln!(
                t,
                "{},0 4 M player {} at ({:.3} {:.3}) thinks {}",
                i / 20,
                x % 11,
                (x >> 20) % 10000,
                (x >> 40) % 7000,
                ["pass", "dribble", "shoot", "hold"][(x % 4) as usize]
            )
            .unwrap();
        }
        t
    }

    #[test]
    fn inflates_as_flate2_does_and_notes_points() {
        let t = text(200_000);
        let gz = gzip(&t, 6);
        let (out, points) = inflate_all(&gz, Some(SPACING / 4)).unwrap();
        assert_eq!(out, t);
        // Points come at blocks' starts: as many as the blocks allow (flate2's are large).
        assert!(
            points.len() > 10,
            "{} points for {} bytes",
            points.len(),
            t.len()
        );
        assert_eq!(points[0], AccessPoint::start());
        assert!(points
            .windows(2)
            .all(|w| w[1].text >= w[0].text + SPACING / 4));
    }

    #[test]
    fn any_range_reads_the_same_from_its_access_point() {
        let t = text(100_000);
        let gz = gzip(&t, 9);
        let (_, points) = inflate_all(&gz, Some(100_000)).unwrap();
        assert!(points.len() > 10);
        let n = t.len() as u64;
        for (start, end) in [
            (0, 10),
            (5, 300_000),
            (n - 7, n),
            (n / 2, n / 2 + 1),
            (n / 3, n / 3),
            (99_999, 200_001),
        ] {
            assert_eq!(
                read_range(&gz, &points, start, end).unwrap(),
                &t[start as usize..end as usize],
                "{start}..{end}"
            );
        }
        // Every point resumes exactly where the pass was.
        for p in &points {
            let got = read_range(&gz, &points, p.text, (p.text + 5000).min(n)).unwrap();
            assert_eq!(got, &t[p.text as usize..(p.text + 5000).min(n) as usize]);
        }
    }

    #[test]
    fn chunks_of_any_size_and_a_cursor_that_goes_on() {
        let t = text(20_000);
        let gz = gzip(&t, 6);
        for chunk in [1, 7, 1000, 65536] {
            let mut inf = Inflater::new(Some(50_000));
            let mut out = Vec::new();
            for c in gz.chunks(chunk) {
                inf.push(c);
                assert_eq!(
                    inf.run(u64::MAX, &mut |at, p| {
                        assert_eq!(at, out.len() as u64);
                        out.extend_from_slice(p)
                    })
                    .unwrap(),
                    Progress::NeedInput
                );
            }
            inf.end_input();
            assert_eq!(
                inf.run(u64::MAX, &mut |_, p| out.extend_from_slice(p))
                    .unwrap(),
                Progress::End
            );
            assert_eq!(out, t, "chunk {chunk}");
        }
        // Stopping at each end asked for, then going on from there.
        let mut inf = Inflater::new(None);
        inf.push(&gz);
        inf.end_input();
        let mut got = Vec::new();
        for end in [10u64, 11, 5000, 70_000, t.len() as u64] {
            let start = inf.text_offset();
            assert_eq!(
                inf.run(end, &mut |at, p| copy_part(&mut got, start, end, at, p))
                    .unwrap(),
                Progress::Reached
            );
            assert_eq!(inf.text_offset(), end);
            assert_eq!(
                inf.recent(end.saturating_sub(5), end).unwrap(),
                &t[end as usize - 5..end as usize]
            );
        }
        assert_eq!(got, t);
        assert!(inf.recent(0, 10).is_none());
    }

    #[test]
    fn several_members_and_padding() {
        let a = text(3000);
        let b = text(5000);
        let mut gz = gzip(&a, 1);
        gz.extend(gzip(&b, 9));
        gz.extend([0u8; 16]);
        // A point wherever one can be: the second member's start is one.
        let (out, points) = inflate_all(&gz, Some(1)).unwrap();
        assert_eq!(out, [a.clone(), b.clone()].concat());
        assert!(points
            .iter()
            .any(|p| p.resume == Resume::Member && p.text == a.len() as u64));
        let n = out.len() as u64;
        assert_eq!(
            read_range(&gz, &points, 100, n - 100).unwrap(),
            &out[100..n as usize - 100]
        );
    }

    #[test]
    fn damage_is_named_with_its_place() {
        let t = text(20_000);
        let gz = gzip(&t, 6);
        // Cut short.
        let cut = &gz[..gz.len() / 2];
        assert!(matches!(
            inflate_all(cut, None),
            Err(GzError::Truncated { .. })
        ));
        // A flipped byte in the trailer's checksum.
        let mut bad = gz.clone();
        let k = bad.len() - 6;
        bad[k] ^= 0x55;
        assert_eq!(
            inflate_all(&bad, None),
            Err(GzError::Checksum { offset: 0 })
        );
        // Not gzip at all, and junk after the end.
        assert_eq!(
            inflate_all(b"1,0 4 M a\n", None),
            Err(GzError::NotGzip { offset: 0 })
        );
        let mut junk = gz.clone();
        junk.extend_from_slice(b"xyz");
        assert_eq!(
            inflate_all(&junk, None),
            Err(GzError::Junk {
                offset: gz.len() as u64
            })
        );
        // Garbage in the middle: damaged, or at worst a checksum that does not match.
        let mut mid = gz.clone();
        for b in &mut mid[gz.len() / 3..gz.len() / 3 + 64] {
            *b = 0xff;
        }
        assert!(inflate_all(&mid, None).is_err());
    }

    /// A small generator of offsets, the same every run.
    fn offsets(seed: u64, n: usize, below: u64) -> Vec<u64> {
        let mut x = seed;
        (0..n)
            .map(|_| {
                x = x
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                (x >> 17) % below.max(1)
            })
            .collect()
    }

    /// Real files gzipped by flate2 at the fastest, the default and the best level: a pass
    /// noting an access point at every block gives the text, and any range read again from
    /// the point before it (the file's start, a block's start, across several blocks, each
    /// span the cycle index makes) is the plain file's bytes.
    #[test]
    fn real_files_read_any_range_from_their_access_points() {
        use crate::index::{FileKind, Indexer};
        for name in FIXTURES {
            let t = fixture(name);
            let n = t.len() as u64;
            assert!(n > 100_000, "{name}: {n} bytes");
            let kind = if name.ends_with(".dcl.gz") {
                FileKind::WorldModel
            } else if name.ends_with(".rcl.gz") {
                FileKind::Commands
            } else {
                FileKind::DebugLog
            };
            let mut ix = Indexer::new(kind);
            ix.push(&t);
            let ix = ix.finish();
            assert!(ix.spans.len() > 50, "{name}: {} spans", ix.spans.len());
            for level in [1, 6, 9] {
                let gz = gzip(&t, level);
                let (out, points) = inflate_all(&gz, Some(1)).unwrap();
                assert_eq!(out, t, "{name} level {level}");
                // Points can only be where a block starts: flate2 makes blocks of 250-400 KB
                // of this text at levels 6 and 9, and one block of it all at level 1 (the
                // one point past the start is the final, empty block's); a file of under
                // 300 KB of text may be one block, read from the start.
                let least = match (t.len(), level) {
                    (0..300_000, _) => 1,
                    (_, 1) => 2,
                    _ => 3,
                };
                assert!(
                    points.len() >= least,
                    "{name} level {level}: {} points",
                    points.len()
                );
                let mut ranges = vec![(0, 1), (0, n), (n - 1, n), (n, n)];
                for p in &points {
                    ranges.push((p.text, (p.text + 1).min(n)));
                    ranges.push((p.text.saturating_sub(1), (p.text + 3000).min(n)));
                }
                let starts = offsets(level.into(), 40, n);
                let lens = offsets(u64::from(level) + 99, 40, 300_000);
                for (s, l) in starts.into_iter().zip(lens) {
                    ranges.push((s, (s + l).min(n)));
                }
                // Every span of the index, as the page asks for the lines of a time.
                ranges.extend(ix.spans.iter().map(|s| (s.start, s.end)));
                for (start, end) in ranges {
                    assert_eq!(
                        read_range(&gz, &points, start, end).unwrap(),
                        &t[start as usize..end as usize],
                        "{name} level {level}: {start}..{end}"
                    );
                }
            }
        }
    }

    /// A reader that goes on from where it stopped (the page's playback asks for the next
    /// cycles), fed the file in uneven chunks, gives every span's bytes in turn.
    #[test]
    fn real_file_read_span_after_span_in_uneven_chunks() {
        use crate::index::{FileKind, Indexer};
        let t = fixture(FIXTURES[0]);
        let gz = gzip(&t, 6);
        let mut ix = Indexer::new(FileKind::DebugLog);
        ix.push(&t);
        let ix = ix.finish();
        let mut inf = Inflater::new(None);
        let mut fed = 0;
        let sizes = [1usize, 13, 4096, 777, 65536, 3];
        let mut k = 0;
        for s in &ix.spans {
            let mut got = Vec::new();
            // What is still in the ring from the last read.
            if let Some(r) = inf.recent(s.start, s.end.min(inf.text_offset())) {
                got = r;
            }
            let from = s.start.max(inf.text_offset());
            loop {
                let p = inf
                    .run(s.end, &mut |at, piece| {
                        copy_part(&mut got, from, s.end, at, piece)
                    })
                    .unwrap();
                if p != Progress::NeedInput {
                    break;
                }
                let size = sizes[k % sizes.len()];
                k += 1;
                let to = (fed + size).min(gz.len());
                if fed == to {
                    inf.end_input();
                } else {
                    inf.push(&gz[fed..to]);
                }
                fed = to;
            }
            assert_eq!(
                got,
                &t[s.start as usize..s.end as usize],
                "span at {}",
                s.start
            );
        }
    }

    /// Inflates `gz` as the page's indexing pass does, into the cycle index: the error if the
    /// file is damaged, the text that came before it, and the index of that text.
    fn index_damaged(gz: &[u8]) -> (Option<GzError>, Vec<u8>, crate::index::Index) {
        use crate::index::{FileKind, Indexer};
        let mut ix = Indexer::new(FileKind::DebugLog);
        let mut inf = Inflater::new(Some(SPACING));
        let mut text = Vec::new();
        let mut error = None;
        for c in gz.chunks(1 << 16) {
            inf.push(c);
            if let Err(e) = inf.run(u64::MAX, &mut |_, p| {
                ix.push(p);
                text.extend_from_slice(p);
            }) {
                error = Some(e);
                break;
            }
        }
        if error.is_none() {
            inf.end_input();
            error = inf
                .run(u64::MAX, &mut |_, p| {
                    ix.push(p);
                    text.extend_from_slice(p);
                })
                .err();
        }
        (error, text, ix.finish())
    }

    /// A real file cut short says so, with where it stops, and what came before is read and
    /// indexed: the text is the plain file's start, and every cycle in it but the last (which
    /// may be cut) has the plain file's span.
    #[test]
    fn a_truncated_real_file_keeps_what_came_before() {
        use crate::index::{FileKind, Indexer};
        let t = fixture(FIXTURES[0]);
        let mut full = Indexer::new(FileKind::DebugLog);
        full.push(&t);
        let full = full.finish();
        let gz = gzip(&t, 6);
        for cut in [gz.len() / 4, gz.len() / 2, gz.len() - 20, gz.len() - 3] {
            let (error, text, ix) = index_damaged(&gz[..cut]);
            let Some(GzError::Truncated { offset }) = error else {
                panic!("cut at {cut}: {error:?}");
            };
            assert!(offset <= cut as u64, "cut at {cut}: said {offset}");
            let message = GzError::Truncated { offset }.to_string();
            assert!(message.contains("stops before the end"), "{message}");
            assert!(message.contains(&offset.to_string()), "{message}");
            assert_eq!(&t[..text.len()], &text[..], "cut at {cut}: the text before");
            if cut > gz.len() / 2 {
                assert!(
                    text.len() > t.len() / 3,
                    "cut at {cut}: {} bytes",
                    text.len()
                );
            }
            let n = ix.spans.len();
            assert!(n > 5, "cut at {cut}: {n} spans");
            assert_eq!(ix.spans[..n - 1], full.spans[..n - 1], "cut at {cut}");
        }
        // Cut inside the header, and the trailer alone missing.
        assert_eq!(
            inflate_all(&gz[..5], None),
            Err(GzError::Truncated { offset: 5 })
        );
        let (error, text, _) = index_damaged(&gz[..gz.len() - 8]);
        assert!(
            matches!(error, Some(GzError::Truncated { .. })),
            "{error:?}"
        );
        assert_eq!(text, t, "every byte of text was there");
    }

    /// Bytes overwritten in the middle of a real file: an error saying the data is damaged
    /// (or, at worst, that the text does not match its checksum), and the text up to the last
    /// access point before the damage is the plain file's.
    #[test]
    fn a_damaged_real_file_is_named_and_keeps_what_came_before() {
        // Long enough for several deflate blocks from either of flate2's deflaters (zlib-rs,
        // which the relay turns on in the workspace, cuts blocks of about 26 KB of this
        // fixture's gzip; miniz_oxide, flate2's own, longer ones): damage past the first.
        let t = fixture(FIXTURES[0]).repeat(4);
        let gz = gzip(&t, 6);
        let (_, points) = inflate_all(&gz, Some(1)).unwrap();
        assert!(
            points.len() >= 3 && points[1].input < gz.len() as u64 / 3,
            "{} points, the second at {:?} of {}",
            points.len(),
            points.get(1).map(|p| p.input),
            gz.len()
        );
        for at in [gz.len() * 2 / 5, gz.len() / 2, gz.len() * 4 / 5] {
            for fill in [0xffu8, 0x00, 0x5a] {
                let mut bad = gz.clone();
                for b in &mut bad[at..at + 200] {
                    *b = fill;
                }
                let (error, text, _) = index_damaged(&bad);
                let error = error.unwrap_or_else(|| panic!("damage at {at} ({fill:#x}) unseen"));
                assert!(
                    matches!(error, GzError::Damaged { .. } | GzError::Checksum { .. }),
                    "damage at {at}: {error:?}"
                );
                if let GzError::Damaged { offset } = error {
                    assert!(offset >= at as u64, "damage at {at}, said {offset}");
                }
                assert!(error.to_string().contains("byte"), "{error}");
                let sound = points
                    .iter()
                    .filter(|p| p.input <= at as u64)
                    .map(|p| p.text)
                    .max()
                    .unwrap_or(0);
                assert!(sound > 0, "damage at {at}");
                assert!(text.len() as u64 >= sound, "damage at {at}");
                assert_eq!(
                    &text[..sound as usize],
                    &t[..sound as usize],
                    "damage at {at}: the text before it"
                );
            }
        }
    }

    #[test]
    fn header_fields_are_passed_over() {
        let t = text(100);
        let mut gz = flate2::GzBuilder::new()
            .filename("HELIOS_A-7.log")
            .comment("a comment")
            .extra(vec![1, 2, 3])
            .write(Vec::new(), flate2::Compression::default());
        gz.write_all(&t).unwrap();
        let gz = gz.finish().unwrap();
        assert_eq!(inflate_all(&gz, None).unwrap().0, t);
    }
}
