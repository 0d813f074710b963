//! The relay's config file (README, "Configuration file"): read or refused with a message,
//! never a panic, and every match name the relay would derive from it is a valid name.
#![no_main]

use libfuzzer_sys::fuzz_target;
use relay::config::{name_from_address, name_from_file, valid_name, FileConfig};

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
            assert!(valid_name(&name), "{addr:?} gave {name:?}");
        }
        if let Some(path) = &m.replay {
            let name = name_from_file(path);
            assert!(valid_name(&name), "{path:?} gave {name:?}");
        }
    }
});
