//! A gzip member's framing (RFC 1952): its header, and where a reader of members is.

/// A gzip member header longer than this (file name and comment included) is not one.
pub(super) const MAX_HEADER: usize = 64 << 10;

/// Where a reader of a gzip file is: in a member's header, its deflate data or its trailer,
/// or between members.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Stage {
    Header,
    Deflate,
    Trailer,
    /// After a member: another one, or the end.
    Between,
}

/// What the bytes at a member's start hold.
pub(super) enum Header {
    Complete(usize),
    Partial,
    NotGzip,
}

/// The length of the gzip member header at the start of `b` (RFC 1952, 2.3).
pub(super) fn header_len(b: &[u8]) -> Header {
    const FHCRC: u8 = 2;
    const FEXTRA: u8 = 4;
    const FNAME: u8 = 8;
    const FCOMMENT: u8 = 16;
    if b.len() >= 2 && (b[0] != 0x1f || b[1] != 0x8b) || b.len() >= 3 && b[2] != 8 {
        return Header::NotGzip;
    }
    if b.len() < 10 {
        return Header::Partial;
    }
    let flags = b[3];
    let mut at = 10;
    if flags & FEXTRA != 0 {
        let Some(len) = b.get(at..at + 2) else {
            return Header::Partial;
        };
        at += 2 + usize::from(u16::from_le_bytes([len[0], len[1]]));
    }
    for flag in [FNAME, FCOMMENT] {
        if flags & flag != 0 {
            match b.get(at..).and_then(|r| memchr::memchr(0, r)) {
                Some(n) => at += n + 1,
                None => return Header::Partial,
            }
        }
    }
    if flags & FHCRC != 0 {
        at += 2;
    }
    if b.len() < at {
        return Header::Partial;
    }
    Header::Complete(at)
}
