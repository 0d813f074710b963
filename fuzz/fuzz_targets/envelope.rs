//! The envelope an edge relay reads from NATS: another relay's message, or anyone's who can
//! publish on the subject. Decoded or refused, never a panic or a runaway allocation.
#![no_main]

#[path = "../common/cap.rs"]
mod cap;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let payload = bytes::Bytes::copy_from_slice(data);
    if let Ok(e) = relay::nats::envelope::decode(&payload) {
        let _ = e.begins();
    }
});
