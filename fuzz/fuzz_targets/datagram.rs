//! One live datagram of arbitrary bytes: decoded or refused, never a panic.
#![no_main]

#[path = "../common/cap.rs"]
mod cap;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = rcss_formats::datagram::parse_datagram(data);
});
