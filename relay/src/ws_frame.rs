//! WebSocket frames as the relay writes them itself (RFC 6455, 5.2): a final frame's header
//! and a payload framed once, so that one buffer serves every spectator.

use bytes::Bytes;

/// WebSocket opcodes the relay sends (RFC 6455, 5.2).
pub const OP_BINARY: u8 = 0x2;
pub const OP_CLOSE: u8 = 0x8;
pub const OP_PING: u8 = 0x9;

/// A final frame's header for a payload of `len` bytes, and its length.
pub fn header(opcode: u8, len: usize) -> ([u8; 10], usize) {
    let mut h = [0u8; 10];
    h[0] = 0x80 | (opcode & 0x0f);
    let n = if len < 126 {
        h[1] = len as u8;
        2
    } else if let Ok(short) = u16::try_from(len) {
        h[1] = 126;
        h[2..4].copy_from_slice(&short.to_be_bytes());
        4
    } else {
        h[1] = 127;
        h[2..10].copy_from_slice(&(len as u64).to_be_bytes());
        10
    };
    (h, n)
}

/// `payload` as one whole WebSocket message, and the payload again as a view of those bytes
/// (so that keeping both costs one buffer).
pub fn framed(opcode: u8, payload: &[u8]) -> (Bytes, Bytes) {
    let (h, n) = header(opcode, payload.len());
    let mut v = Vec::with_capacity(n + payload.len());
    v.extend_from_slice(&h[..n]);
    v.extend_from_slice(payload);
    let all = Bytes::from(v);
    let body = all.slice(n..);
    (all, body)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headers_use_the_shortest_length_form() {
        assert_eq!(header(OP_BINARY, 0).1, 2);
        assert_eq!(&header(OP_BINARY, 125).0[..2], &[0x82, 125]);
        assert_eq!(&header(OP_BINARY, 126).0[..4], &[0x82, 126, 0, 126]);
        assert_eq!(&header(OP_PING, 65535).0[..4], &[0x89, 126, 0xff, 0xff]);
        assert_eq!(
            &header(OP_BINARY, 65536).0[..10],
            &[0x82, 127, 0, 0, 0, 0, 0, 1, 0, 0]
        );
    }

    #[test]
    fn framed_messages_read_back_with_tungstenite() {
        use tokio_tungstenite::tungstenite::protocol::frame::FrameHeader;
        for len in [0usize, 1, 125, 126, 4000, 65535, 65536, 200_000] {
            let payload: Vec<u8> = (0..len).map(|i| (i % 251) as u8).collect();
            let (all, body) = framed(OP_BINARY, &payload);
            assert_eq!(&body[..], &payload[..]);
            let mut cur = std::io::Cursor::new(&all[..]);
            let (h, n) = FrameHeader::parse(&mut cur)
                .expect("a valid header")
                .expect("a whole header");
            assert!(h.is_final);
            assert_eq!(n as usize, len);
            assert_eq!(cur.position() as usize + len, all.len());
        }
    }
}
