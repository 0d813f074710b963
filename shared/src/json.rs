//! JSON: rcssserver 19 JSON logs (`game_log_version = -1`, one array, one record per line)
//! and the JSON monitor protocol (`(dispinit version -1)`).

use crate::error::Fail;
use crate::model::Record;
use crate::text::ShowShape;

/// One line of a JSON log: `[`, `]`, or one record object with an optional trailing comma.
pub(crate) fn parse_log_line(line: &[u8], out: &mut Vec<Record>) -> Result<ShowShape, Fail> {
    let _ = (line, out);
    Err(Fail {
        pos: 0,
        expected: "JSON logs are not yet supported",
    })
}

/// The record kind of a JSON line, for error messages.
pub(crate) fn kind_of(line: &[u8]) -> &'static str {
    let _ = line;
    "json"
}

/// One JSON monitor datagram (without its NUL).
pub(crate) fn parse_datagram(body: &[u8], out: &mut Vec<Record>) -> Result<ShowShape, Fail> {
    parse_log_line(body, out)
}
