//! Binary formats: v1/v2/v3 logs and v1/v2 monitor datagrams (big-endian C structs with their
//! natural padding). Raw layouts live in [`layout`]; this module turns them into the model.

use crate::error::Fail;
use crate::log::LogVersion;
use crate::model::Record;
use crate::text::ShowShape;

/// What one call of [`decode_log_record`] found.
pub(crate) enum Step {
    /// A whole record of `len` bytes was decoded.
    Record { len: usize, shape: ShowShape },
    /// The buffer ends inside a record of this kind.
    NeedMore { record: &'static str },
}

/// Decodes the record at the start of `buf` (header already skipped).
pub(crate) fn decode_log_record(
    version: LogVersion,
    buf: &[u8],
    out: &mut Vec<Record>,
) -> Result<Step, (&'static str, Fail)> {
    let _ = (version, buf, out);
    Err((
        "binary",
        Fail {
            pos: 0,
            expected: "a supported binary log (not yet implemented)",
        },
    ))
}

/// True if `buf` starts like a v1 log: a `dispinfo_t` with mode SHOW or MSG.
pub(crate) fn looks_like_v1(buf: &[u8]) -> bool {
    matches!(buf, [0, 1 | 2, ..])
}

/// Decodes one binary monitor datagram: v1 `dispinfo_t` (2052 bytes) or v2 `dispinfo_t2` (2056).
pub(crate) fn parse_dispinfo(buf: &[u8], out: &mut Vec<Record>) -> Result<ShowShape, (&'static str, Fail)> {
    let _ = (buf, out);
    Err((
        "binary",
        Fail {
            pos: 0,
            expected: "a supported binary datagram (not yet implemented)",
        },
    ))
}
