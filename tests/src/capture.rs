//! The capture container: each datagram the capture client received, as a 4-byte big-endian
//! length followed by the payload, nothing else.

pub fn split(bytes: &[u8]) -> Result<Vec<Vec<u8>>, String> {
    let mut out = Vec::new();
    let mut pos = 0;
    while pos < bytes.len() {
        let Some(len) = bytes.get(pos..pos + 4) else {
            return Err(format!("capture cut off in a length at byte {pos}"));
        };
        let len = u32::from_be_bytes([len[0], len[1], len[2], len[3]]) as usize;
        pos += 4;
        let Some(payload) = bytes.get(pos..pos + len) else {
            return Err(format!("capture cut off in a datagram at byte {pos}"));
        };
        out.push(payload.to_vec());
        pos += len;
    }
    Ok(out)
}
