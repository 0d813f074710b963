//! The agents' files and live debug-client datagrams (`shared/agents/src`): any bytes as a
//! debug log, a world-model log or the server's message log (the first byte chooses, the
//! second the slicing), and as one debug-client datagram. Never a panic; the cycle index is
//! the same however the file is sliced; every span decodes to its own game time only.
#![no_main]

#[path = "../common/cap.rs"]
mod cap;

use libfuzzer_sys::fuzz_target;
use pitchside_agents::index::{FileKind, Indexer, Search};
use pitchside_agents::{commands, debuglog, worldmodel};

fuzz_target!(|data: &[u8]| {
    let [kind, step, rest @ ..] = data else {
        return;
    };
    let kind = match kind % 3 {
        0 => FileKind::DebugLog,
        1 => FileKind::WorldModel,
        _ => FileKind::Commands,
    };
    let _ = worldmodel::parse_message(rest);
    let mut whole = Indexer::new(kind);
    whole.push(rest);
    let whole = whole.finish();
    let mut sliced = Indexer::new(kind);
    for c in rest.chunks(usize::from(*step % 64) + 1) {
        sliced.push(c);
    }
    assert_eq!(sliced.finish(), whole);
    assert_eq!(whole.bytes, rest.len() as u64);
    for s in &whole.spans {
        assert!(s.start < s.end && s.end <= rest.len() as u64);
        assert!(whole.at(s.time).any(|a| a == s));
        let text = &rest[s.start as usize..s.end as usize];
        match kind {
            FileKind::DebugLog => {
                let (e, _) = debuglog::decode(text, s.first_line);
                assert!(e.iter().all(|e| e.time == s.time));
            }
            FileKind::WorldModel => {
                let _ = worldmodel::decode(text, s.first_line);
            }
            FileKind::Commands => {
                let (e, _) = commands::decode(text, s.first_line);
                assert!(e.iter().all(|e| e.time == s.time));
            }
        }
    }
    if rest.len() > 3 {
        let needle = String::from_utf8_lossy(&rest[..3]).into_owned();
        let mut search = Search::new(&whole, &needle);
        for c in rest.chunks(usize::from(*step % 64) + 1) {
            search.push(c);
        }
        let _ = search.finish();
    }
});
