//! Packets of the relay's wire as a page receives them, in arbitrary bytes: each packet is a
//! 2-byte big-endian length and its bytes, all fed to one decoder (so deltas meet the state
//! earlier packets left). Decoded or refused, never a panic or a runaway allocation.
#![no_main]

#[path = "../common/cap.rs"]
mod cap;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let mut d = pitchside_wire::Decoder::new();
    let mut out = Vec::new();
    let mut rest = data;
    while rest.len() >= 2 {
        let n = usize::from(u16::from_be_bytes([rest[0], rest[1]])).min(rest.len() - 2);
        let _ = d.decode(&rest[2..2 + n], &mut out);
        out.clear();
        rest = &rest[2 + n..];
    }
});
