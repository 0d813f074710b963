//! The relay's config file (README, "Configuration file"): read or refused with a message,
//! never a panic, and every match name the relay would derive from it fits in a URL and a file
//! name (the relay refuses an empty one, or one starting with a dot, with a message).
#![no_main]

#[path = "../common/cap.rs"]
mod cap;

use libfuzzer_sys::fuzz_target;
use relay::config::{name_from_address, name_from_file, FileConfig, MAX_NAME};

fn fits(name: &str) -> bool {
    name.len() <= MAX_NAME
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-'))
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(file) = toml::from_str::<FileConfig>(text) else {
        return;
    };
    for m in &file.matches {
        if let Some(addr) = &m.server {
            let name = name_from_address(addr);
            assert!(fits(&name), "{addr:?} gave {name:?}");
        }
        if let Some(path) = &m.replay {
            let name = name_from_file(path);
            assert!(fits(&name), "{path:?} gave {name:?}");
        }
    }
});
