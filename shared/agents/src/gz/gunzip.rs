//! A whole gzip file's text, from its start, by the fastest inflater flate2 is built with.
//!
//! A search that must read all of a gzipped debug log inflates some 50 MB of text, and
//! inflating is nearly all of its time. [`super::Inflater`] uses miniz_oxide, which can stop
//! at a block's start to note access points; a search needs none, so this reads the file
//! straight through with [`flate2::Decompress`]. The page's worker builds flate2 with zlib-rs,
//! which in WebAssembly inflates a player's log about twice as fast as the browser's own
//! `DecompressionStream` (BENCHMARKS.md, "A match with every agent's files"). Members'
//! checksums are not checked again: the indexing pass checked them on the same file, and a
//! search only needs to find text.

use super::error::GzError;
use super::member::{header_len, Header, Stage, MAX_HEADER};
use flate2::{Decompress, FlushDecompress, Status};

/// Text inflated at a time, handed to the sink before the next.
const OUT: usize = 256 << 10;

pub struct Gunzip {
    d: Decompress,
    stage: Stage,
    /// A header or trailer cut by the end of a chunk: its first bytes.
    held: Vec<u8>,
    /// Bytes of the file used (those held excluded).
    input: u64,
    /// Bytes of text made.
    text: u64,
    out: Vec<u8>,
}

impl Default for Gunzip {
    fn default() -> Self {
        Self::new()
    }
}

impl Gunzip {
    pub fn new() -> Gunzip {
        Gunzip {
            d: Decompress::new(false),
            stage: Stage::Header,
            held: Vec::new(),
            input: 0,
            text: 0,
            out: vec![0; OUT],
        }
    }

    /// Bytes of the file given so far: where the next chunk starts.
    pub fn input_needed(&self) -> u64 {
        self.input + self.held.len() as u64
    }

    /// Bytes of text made so far.
    pub fn text_offset(&self) -> u64 {
        self.text
    }

    /// Inflates the file's next bytes (an empty chunk: the file ends), handing each piece of
    /// text to `sink` with its offset in the text. After an error nothing more is made.
    pub fn push(&mut self, chunk: &[u8], sink: &mut dyn FnMut(u64, &[u8])) -> Result<(), GzError> {
        if chunk.is_empty() {
            return match self.stage {
                Stage::Between => Ok(()),
                _ => Err(GzError::Truncated {
                    offset: self.input_needed(),
                }),
            };
        }
        if self.held.is_empty() {
            return self.feed(chunk, sink);
        }
        // A header or trailer across chunks (rare: they are a few bytes): joined in a copy.
        let mut joined = std::mem::take(&mut self.held);
        joined.extend_from_slice(chunk);
        self.feed(&joined, sink)
    }

    fn feed(&mut self, b: &[u8], sink: &mut dyn FnMut(u64, &[u8])) -> Result<(), GzError> {
        let mut at = 0;
        let res = self.walk(b, &mut at, sink);
        // What is not held was used (up to the error, if any).
        self.input += (at - self.held.len()) as u64;
        res
    }

    /// Goes through `b` from `at`, leaving `at` where it stopped; a header or trailer cut by
    /// its end goes to `held` (and `at` to the end).
    fn walk(
        &mut self,
        b: &[u8],
        at: &mut usize,
        sink: &mut dyn FnMut(u64, &[u8]),
    ) -> Result<(), GzError> {
        let offset = |input: u64, at: usize, held: usize| input + (at - held) as u64;
        while *at < b.len() {
            let rest = &b[*at..];
            match self.stage {
                Stage::Header => match header_len(rest) {
                    Header::Complete(n) => {
                        *at += n;
                        self.d.reset(false);
                        self.stage = Stage::Deflate;
                    }
                    Header::Partial if rest.len() > MAX_HEADER => {
                        return Err(GzError::LongHeader { offset: self.input })
                    }
                    Header::Partial => {
                        self.held.extend_from_slice(rest);
                        *at = b.len();
                    }
                    Header::NotGzip => {
                        return Err(GzError::NotGzip {
                            offset: offset(self.input, *at, 0),
                        })
                    }
                },
                Stage::Deflate => {
                    let (in0, out0) = (self.d.total_in(), self.d.total_out());
                    let status = self
                        .d
                        .decompress(rest, &mut self.out, FlushDecompress::None)
                        .map_err(|_| GzError::Damaged {
                            offset: offset(self.input, *at, 0),
                        })?;
                    let used = (self.d.total_in() - in0) as usize;
                    let made = (self.d.total_out() - out0) as usize;
                    if made > 0 {
                        sink(self.text, &self.out[..made]);
                        self.text += made as u64;
                    }
                    *at += used;
                    if status == Status::StreamEnd {
                        self.stage = Stage::Trailer;
                    } else if used == 0 && made == 0 {
                        // With input left and room for text, an inflater that does nothing
                        // is stuck on the data.
                        return Err(GzError::Damaged {
                            offset: offset(self.input, *at, 0),
                        });
                    }
                }
                Stage::Trailer => {
                    if rest.len() < 8 {
                        self.held.extend_from_slice(rest);
                        *at = b.len();
                    } else {
                        *at += 8;
                        self.stage = Stage::Between;
                    }
                }
                Stage::Between => match rest[0] {
                    // Zeros after the last member are padding, as gzip itself takes them.
                    0 => *at += 1,
                    0x1f => self.stage = Stage::Header,
                    _ => {
                        return Err(GzError::Junk {
                            offset: offset(self.input, *at, 0),
                        })
                    }
                },
            }
        }
        Ok(())
    }
}
