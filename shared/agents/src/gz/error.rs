//! What went wrong reading a gzip file.

use super::member::MAX_HEADER;

/// What went wrong reading a gzip file, with the byte of the file where it showed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GzError {
    #[error("not gzip at byte {offset}")]
    NotGzip { offset: u64 },
    #[error("damaged compressed data near byte {offset}")]
    Damaged { offset: u64 },
    #[error("the file stops before the end of its compressed data ({offset} bytes)")]
    Truncated { offset: u64 },
    #[error("the text of the member at byte {offset} does not match its checksum")]
    Checksum { offset: u64 },
    #[error("bytes that are not gzip after the end of the compressed data, at byte {offset}")]
    Junk { offset: u64 },
    #[error("the gzip header at byte {offset} is over {MAX_HEADER} bytes")]
    LongHeader { offset: u64 },
    #[error("a damaged access point (window {len} bytes)")]
    BadPoint { len: usize },
}
