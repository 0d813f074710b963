//! The page's URL scheme (README, "Links"): any fragment and query a link can hold. Never a
//! panic; the operator's and a team's keys never survive into a shareable fragment; a log URL
//! put in a query comes back out exactly.
#![no_main]

#[path = "../common/cap.rs"]
mod cap;

use libfuzzer_sys::fuzz_target;
use pitchside_wire::link::{
    query_value, with_query_value, Fragment, CONTROL_KEY, LOG_KEY, TEAM_KEY,
};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let (hash, url) = text.split_once('\u{1}').unwrap_or((text, text));
    let mut f = Fragment::parse(hash);
    let _ = f.cycle();
    f.set("t", "12");
    let shared = f.to_shareable();
    assert_eq!(Fragment::parse(&shared).get(CONTROL_KEY), None, "{hash:?}");
    assert_eq!(Fragment::parse(&shared).get(TEAM_KEY), None, "{hash:?}");
    assert_eq!(Fragment::parse(&shared).cycle(), Some(12), "{hash:?}");
    let q = with_query_value(hash, LOG_KEY, Some(url));
    assert_eq!(
        query_value(&q, LOG_KEY).as_deref(),
        Some(url),
        "{hash:?} {url:?}"
    );
    assert_eq!(
        query_value(&with_query_value(&q, LOG_KEY, None), LOG_KEY),
        None
    );
});
