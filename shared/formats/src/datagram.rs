//! One live monitor datagram to records, whatever protocol version sent it: text v3/v4/v5
//! (`(`), JSON (`{`), binary v1/v2 (`dispinfo_t`/`dispinfo_t2`), each possibly zlib-compressed
//! after a `(compression N)` command.

use crate::error::{excerpt, DatagramError};
use crate::model::Record;
use crate::{binary, json, text};

/// Largest datagram accepted after inflation. A real show is ~5 KB; UDP caps input at 64 KB.
pub const MAX_INFLATED_BYTES: usize = 1 << 20;

/// What a datagram carried.
#[derive(Clone, Debug, PartialEq)]
pub enum Datagram {
    Records(Vec<Record>),
    /// `(error …)` from the server, e.g. `illegal_client_version` or `no_more_monitor`.
    ServerError(String),
}

/// True if the bytes start with a zlib header (what `(compression N)` makes the server send).
pub fn is_zlib(bytes: &[u8]) -> bool {
    matches!(bytes, [0x78, b, ..] if (u16::from(0x78u8) << 8 | u16::from(*b)) % 31 == 0)
}

/// Inflates one compressed datagram. The server ends each with a sync flush and no final
/// block, so "stream not finished" is the normal end, not an error.
pub fn inflate(bytes: &[u8]) -> Result<Vec<u8>, DatagramError> {
    let mut z = flate2::Decompress::new(true);
    let mut out = Vec::with_capacity(bytes.len() * 4);
    loop {
        let before_in = z.total_in();
        let before_out = z.total_out();
        if out.len() == out.capacity() {
            if out.len() >= MAX_INFLATED_BYTES {
                return Err(DatagramError::TooLarge(bytes.len()));
            }
            out.reserve(out.len().max(4096));
        }
        let consumed = z.total_in() as usize;
        let status = z
            .decompress_vec(&bytes[consumed..], &mut out, flate2::FlushDecompress::Sync)
            .map_err(|e| DatagramError::Zlib(e.to_string()))?;
        if status == flate2::Status::StreamEnd || z.total_in() as usize >= bytes.len() {
            // All input used: done, unless the output buffer was full and more may come.
            if out.len() < out.capacity() || status == flate2::Status::StreamEnd {
                break;
            }
        }
        if z.total_in() == before_in && z.total_out() == before_out && out.len() < out.capacity() {
            return Err(DatagramError::Zlib(
                "no progress: the data is cut off".into(),
            ));
        }
    }
    Ok(out)
}

/// Decodes one datagram as received from the server.
pub fn parse_datagram(bytes: &[u8]) -> Result<Datagram, DatagramError> {
    if bytes.is_empty() {
        return Err(DatagramError::Empty);
    }
    if is_zlib(bytes) {
        let plain = inflate(bytes)?;
        if is_zlib(&plain) {
            return Err(DatagramError::Unknown {
                found: "zlib data inside zlib data".into(),
            });
        }
        return parse_datagram(&plain);
    }
    let body = strip_nul(bytes);
    let mut out = Vec::new();
    match body.first() {
        Some(b'(') => {
            if body.starts_with(b"(error") {
                let inner = body
                    .strip_prefix(b"(error")
                    .unwrap_or(body)
                    .strip_suffix(b")")
                    .unwrap_or(body);
                return Ok(Datagram::ServerError(
                    String::from_utf8_lossy(inner).trim().to_owned(),
                ));
            }
            text::parse_record(body, &mut out).map_err(|f| DatagramError::Malformed {
                offset: f.pos,
                record: text::kind_of(body),
                expected: f.expected,
                found: excerpt(body, f.pos),
            })?;
        }
        Some(b'{') => {
            json::parse_datagram(body, &mut out).map_err(|f| DatagramError::Malformed {
                offset: f.pos,
                record: json::kind_of(body),
                expected: f.expected,
                found: excerpt(body, f.pos),
            })?;
        }
        Some(0) => {
            binary::parse_dispinfo(bytes, &mut out).map_err(|(record, f)| {
                DatagramError::Malformed {
                    offset: f.pos,
                    record,
                    expected: f.expected,
                    found: excerpt(bytes, f.pos),
                }
            })?;
        }
        _ => {
            return Err(DatagramError::Unknown {
                found: excerpt(bytes, 0),
            })
        }
    }
    Ok(Datagram::Records(out))
}

fn strip_nul(bytes: &[u8]) -> &[u8] {
    let mut end = bytes.len();
    while end > 0 && bytes[end - 1] == 0 {
        end -= 1;
    }
    &bytes[..end]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn garbage_is_an_error_not_a_panic() {
        assert!(matches!(parse_datagram(b""), Err(DatagramError::Empty)));
        assert!(matches!(
            parse_datagram(b"hello"),
            Err(DatagramError::Unknown { .. })
        ));
        assert!(matches!(
            parse_datagram(b"(show 1 (pm 3"),
            Err(DatagramError::Malformed { .. })
        ));
        assert!(parse_datagram(&[0x78, 0x9c, 1, 2, 3]).is_err());
        assert_eq!(
            parse_datagram(b"(error illegal_client_version)\0").unwrap(),
            Datagram::ServerError("illegal_client_version".into())
        );
    }
}
