//! The log decoder on arbitrary bytes: it must never panic, and feeding the input in slices
//! must give exactly what one whole feed gives.
#![no_main]

#[path = "../common/cap.rs"]
mod cap;

use libfuzzer_sys::fuzz_target;
use rcss_formats::LogDecoder;

fuzz_target!(|data: &[u8]| {
    let (step, data) = match data.split_first() {
        Some((s, rest)) => (usize::from(*s) % 64 + 1, rest),
        None => return,
    };
    let mut whole = Vec::new();
    let mut d = LogDecoder::new();
    let whole_res = d.feed(data, &mut whole).and_then(|_| d.finish(&mut whole));

    let mut sliced = Vec::new();
    let mut d = LogDecoder::new();
    let mut res = Ok(());
    for chunk in data.chunks(step) {
        res = d.feed(chunk, &mut sliced);
        if res.is_err() {
            break;
        }
    }
    if res.is_ok() {
        res = d.finish(&mut sliced);
    }
    assert_eq!(whole, sliced, "records differ with slices of {step} bytes");
    assert_eq!(whole_res.is_ok(), res.is_ok(), "{whole_res:?} vs {res:?}");
});
