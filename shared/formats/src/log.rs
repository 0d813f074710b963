//! Push-style game-log decoding: feed byte chunks of any size, get records as soon as they are
//! complete. The format is detected from the content (gzip, `ULG` + version, JSON, or the
//! header-less v1), never from a file name. A log that breaks part-way keeps every record
//! before the break; the error says where and what.
//!
//! - `decoder`: the push-style decoder and format detection.
//! - `line`: one line of a text or JSON log, read on its own; `lines`: batches of lines
//!   read elsewhere (another thread) and given back in order.
//! - `recorded`: a whole log in memory, and where its record of the match stops.
//! - `halves`: a large log read in two halves at once (native only).

mod decoder;
#[cfg(not(target_family = "wasm"))]
mod halves;
mod line;
mod lines;
mod recorded;

pub use crate::format::{Detail, JsonHeader, LogVersion};
pub use decoder::LogDecoder;
pub use line::MAX_RECORD_BYTES;
pub use lines::{LineBatch, ReadLines};
use recorded::MAX_FRAMES;
pub use recorded::{incomplete_note, Ending, LogEnd, Match};

/// Decodes a whole log held in memory (compressed or not). Large text and JSON logs are
/// decoded in two halves at once where threads exist (the `halves` module).
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
