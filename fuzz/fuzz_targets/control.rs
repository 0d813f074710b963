//! The operator's control JSON, as a page posts it: refused with a reason, or a command whose
//! text the server reads as one well-formed command. Never a panic, and never text the
//! relay did not build itself (no byte of the body reaches the server unchecked).
#![no_main]

#[path = "../common/cap.rs"]
mod cap;

use libfuzzer_sys::fuzz_target;
use rcss_formats::command::Command;

fuzz_target!(|data: &[u8]| {
    let Ok(cmd) = relay::control::parse(data) else {
        return;
    };
    let text = cmd.text();
    assert!(text.starts_with('(') && text.ends_with(')'), "{text:?}");
    assert!(
        text.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b" ()_-.".contains(&b)),
        "{text:?}"
    );
    let depth = text.bytes().fold(0i32, |d, b| match b {
        b'(' => d + 1,
        b')' => d - 1,
        _ => d,
    });
    assert_eq!(depth, 0, "{text:?}");
    if let Command::Card { unum, .. }
    | Command::Discard { unum, .. }
    | Command::MovePlayer { unum, .. } = cmd
    {
        assert!((1..=11).contains(&unum), "{cmd:?}");
    }
});
