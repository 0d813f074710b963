//! Links: the address always says where you are, so that a copied link opens the same moment
//! for someone else.
//!
//! - `?log=URL` names a log on the web; the page opens it (see [`crate::source::url`]).
//! - The fragment holds `key=value` pairs joined by `&`. This page owns `t=CYCLE` (the cycle
//!   on screen; absent while following a live match). Other keys are kept exactly as they were
//!   written, except `control=`: that is the operator's secret, read once when the page starts
//!   ([`startup_fragment`]) and never written back to the address or put in a copied link.
//!
//! The address is updated with `history.replaceState` (no history entry per cycle), at most
//! once per [`WRITE_INTERVAL_MS`]: browsers throttle `replaceState` and complain when a page
//! calls it for every frame of 16× playback. The last position is always written.
//!
//! Parsing and the throttle are pure and tested natively; the rest talks to the browser.

use crate::state::{Mode, Monitor};
use leptos::prelude::*;
use std::cell::RefCell;

/// The fragment key this page writes: the cycle on screen.
pub const CYCLE_KEY: &str = "t";
/// The operator's key: read, never written back, never copied.
pub const CONTROL_KEY: &str = "control";
/// The query key naming a log to open.
pub const LOG_KEY: &str = "log";
/// Shortest time between two writes of the address.
pub const WRITE_INTERVAL_MS: f64 = 400.0;

/// A fragment as ordered `key=value` pairs, each kept as written (still percent-encoded), so
/// that keys this page does not know about survive a rewrite unchanged.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Fragment {
    pairs: Vec<(String, String)>,
}

impl Fragment {
    /// Reads `#a=1&b=2` (with or without the `#`). A part without `=` is kept as a key with
    /// an empty value and written back without `=`.
    pub fn parse(hash: &str) -> Fragment {
        let hash = hash.strip_prefix('#').unwrap_or(hash);
        let pairs = hash
            .split('&')
            .filter(|p| !p.is_empty())
            .map(|p| match p.split_once('=') {
                Some((k, v)) => (k.to_owned(), v.to_owned()),
                None => (p.to_owned(), String::new()),
            })
            .collect();
        Fragment { pairs }
    }

    /// The raw value of `key`, if present (the first one).
    pub fn get(&self, key: &str) -> Option<&str> {
        self.pairs
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    /// Sets `key` (in place if present, else at the end), dropping repeats of it.
    pub fn set(&mut self, key: &str, value: &str) {
        match self.pairs.iter().position(|(k, _)| k == key) {
            Some(i) => {
                self.pairs[i].1 = value.to_owned();
                let mut seen = 0;
                self.pairs.retain(|(k, _)| {
                    if k == key {
                        seen += 1;
                        seen == 1
                    } else {
                        true
                    }
                });
            }
            None => self.pairs.push((key.to_owned(), value.to_owned())),
        }
    }

    pub fn remove(&mut self, key: &str) {
        self.pairs.retain(|(k, _)| k != key);
    }

    /// The cycle in `t=`, if it is a number.
    pub fn cycle(&self) -> Option<u32> {
        self.get(CYCLE_KEY)?.trim().parse().ok()
    }

    /// The fragment as it may be written to the address or shared: without `control=`. Empty
    /// when nothing is left, else starting with `#`.
    pub fn to_shareable(&self) -> String {
        let body = self
            .pairs
            .iter()
            .filter(|(k, _)| k != CONTROL_KEY)
            .map(|(k, v)| {
                if v.is_empty() {
                    k.clone()
                } else {
                    format!("{k}={v}")
                }
            })
            .collect::<Vec<_>>()
            .join("&");
        if body.is_empty() {
            body
        } else {
            format!("#{body}")
        }
    }
}

/// The value of `key` in a query string (`?a=1&log=…`), percent-decoded.
pub fn query_value(search: &str, key: &str) -> Option<String> {
    let search = search.strip_prefix('?').unwrap_or(search);
    search
        .split('&')
        .filter_map(|p| p.split_once('='))
        .find(|(k, _)| *k == key)
        .map(|(_, v)| percent_decode(v))
}

/// A query string with `key` set to `value` (percent-encoded) or removed (`None`), other keys
/// kept as written. Empty, or starting with `?`.
pub fn with_query_value(search: &str, key: &str, value: Option<&str>) -> String {
    let search = search.strip_prefix('?').unwrap_or(search);
    let mut parts: Vec<String> = search
        .split('&')
        .filter(|p| !p.is_empty() && p.split('=').next() != Some(key))
        .map(str::to_owned)
        .collect();
    if let Some(v) = value {
        parts.push(format!("{key}={}", percent_encode_query(v)));
    }
    if parts.is_empty() {
        String::new()
    } else {
        format!("?{}", parts.join("&"))
    }
}

/// Decodes `%XX` escapes; a malformed escape is kept as written. `+` stays `+`: log URLs may
/// hold it literally.
pub fn percent_decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' && i + 2 < bytes.len() {
            let hex = |b: u8| (b as char).to_digit(16);
            if let (Some(h), Some(l)) = (hex(bytes[i + 1]), hex(bytes[i + 2])) {
                out.push((h * 16 + l) as u8);
                i += 3;
                continue;
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Escapes what would end or confuse a query value (`&`, `#`, `%`, `+`, space, non-ASCII);
/// `:` and `/` stay readable, as they are legal in a query.
pub fn percent_encode_query(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        match b {
            b'A'..=b'Z'
            | b'a'..=b'z'
            | b'0'..=b'9'
            | b'-'
            | b'_'
            | b'.'
            | b'~'
            | b':'
            | b'/'
            | b'@'
            | b'!'
            | b'$'
            | b'\''
            | b'('
            | b')'
            | b'*'
            | b','
            | b';'
            | b'=' => out.push(b as char),
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}

/// Decides when the address may be written: at most once per interval, and never losing the
/// last position (a change inside the interval is written when it ends).
#[derive(Clone, Copy, Debug, Default)]
pub struct Throttle {
    last_write: Option<f64>,
    timer_set: bool,
}

/// What to do about a change of position.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum WriteNow {
    /// Write the address now.
    Yes,
    /// Write it in this many ms (set a timer).
    After(f64),
    /// A write is already scheduled; it will pick up this position.
    Scheduled,
}

impl Throttle {
    /// A position changed at `now` (ms).
    pub fn changed(&mut self, now: f64, interval: f64) -> WriteNow {
        if self.timer_set {
            return WriteNow::Scheduled;
        }
        match self.last_write {
            Some(t) if now - t < interval => {
                self.timer_set = true;
                WriteNow::After(interval - (now - t))
            }
            _ => {
                self.last_write = Some(now);
                WriteNow::Yes
            }
        }
    }

    /// The scheduled write ran at `now`.
    pub fn fired(&mut self, now: f64) {
        self.timer_set = false;
        self.last_write = Some(now);
    }
}

// ---- The browser side ----

thread_local! {
    /// The fragment as the page was opened with, `control=` included.
    static STARTUP: RefCell<Option<Fragment>> = const { RefCell::new(None) };
    /// The operator's key as last given in the address (at start, or typed in later): read by
    /// whoever needs it after the address no longer shows it.
    static CONTROL: RefCell<Option<String>> = const { RefCell::new(None) };
    /// The fragment as last written, so a rewrite keeps other keys.
    static CURRENT: RefCell<Fragment> = RefCell::new(Fragment::default());
    static THROTTLE: RefCell<Throttle> = RefCell::new(Throttle::default());
}

fn location() -> Option<web_sys::Location> {
    Some(web_sys::window()?.location())
}

/// The fragment the page was opened with (`control=` included). Read once, at start.
pub fn startup_fragment() -> Fragment {
    STARTUP.with(|s| {
        s.borrow_mut()
            .get_or_insert_with(|| {
                let hash = location().and_then(|l| l.hash().ok()).unwrap_or_default();
                let f = Fragment::parse(&hash);
                remember(&f);
                f
            })
            .clone()
    })
}

/// Takes a fragment from the address: its `control=` is kept aside, the rest is what the
/// page writes back.
fn remember(f: &Fragment) {
    if let Some(key) = f.get(CONTROL_KEY) {
        let key = percent_decode(key);
        CONTROL.with(|c| *c.borrow_mut() = Some(key));
    }
    let mut rest = f.clone();
    rest.remove(CONTROL_KEY);
    CURRENT.with(|c| *c.borrow_mut() = rest);
}

/// The operator's key from the address (as the page was opened, or as later typed in).
pub fn control_key() -> Option<String> {
    startup_fragment();
    CONTROL.with(|c| c.borrow().clone())
}

/// The `?log=` URL the page was opened with.
pub fn startup_log() -> Option<String> {
    let search = location()?.search().ok()?;
    query_value(&search, LOG_KEY).filter(|u| !u.trim().is_empty())
}

/// The link to what is on screen: this address with `?log=` when the match came from a URL,
/// and `#t=` unless a live match is followed. Never holds `control=`.
pub fn shareable_url(m: Monitor) -> String {
    let Some(loc) = location() else {
        return String::new();
    };
    let origin = loc.origin().unwrap_or_default();
    let path = loc.pathname().unwrap_or_default();
    let search = loc.search().unwrap_or_default();
    let search = with_query_value(&search, LOG_KEY, m.log_url.get_untracked().as_deref());
    let fragment = fragment_for(m).to_shareable();
    format!("{origin}{path}{search}{fragment}")
}

fn fragment_for(m: Monitor) -> Fragment {
    let mut f = CURRENT.with(|c| c.borrow().clone());
    match current_cycle(m) {
        Some(c) => f.set(CYCLE_KEY, &c.to_string()),
        None => f.remove(CYCLE_KEY),
    }
    f
}

/// The cycle to write: the one on screen, or none while following a live match, while
/// nothing is shown, or while a `#t=` the page was opened with is still waited for.
fn current_cycle(m: Monitor) -> Option<u32> {
    if let Some(c) = m.pending_cycle.get_untracked() {
        return Some(c);
    }
    if m.mode.get_untracked() == Mode::Live && m.follow.get_untracked() {
        return None;
    }
    m.cycle_at(m.index.get_untracked())
}

/// Writes the address now: `?log=` and the fragment, replacing the current history entry.
fn write(m: Monitor) {
    let Some(w) = web_sys::window() else { return };
    let loc = w.location();
    let f = fragment_for(m);
    let search = loc.search().unwrap_or_default();
    let search = with_query_value(&search, LOG_KEY, m.log_url.get_untracked().as_deref());
    let path = loc.pathname().unwrap_or_default();
    // Without a fragment, a bare path: `#` alone would linger in the address.
    let url = format!("{path}{search}{}", f.to_shareable());
    let current = format!(
        "{path}{}{}",
        loc.search().unwrap_or_default(),
        loc.hash().unwrap_or_default()
    );
    CURRENT.with(|c| *c.borrow_mut() = f);
    if url != current {
        if let Ok(h) = w.history() {
            let _ = h.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&url));
        }
    }
}

/// Keeps the address in step with the page: on every move, throttled. Call once from the app,
/// after [`startup_fragment`] has been read.
pub fn follow_address(m: Monitor) {
    startup_fragment();
    // A fragment typed into the address bar or followed from a link on the page: go there.
    let on_hash = window_event_listener(leptos::ev::hashchange, move |_| {
        let hash = location().and_then(|l| l.hash().ok()).unwrap_or_default();
        let f = Fragment::parse(&hash);
        remember(&f);
        if let Some(cycle) = f.cycle() {
            if current_cycle(m) != Some(cycle) {
                m.open_at(cycle);
            }
        }
        write(m);
    });
    on_cleanup(move || on_hash.remove());
    Effect::new(move |_| {
        m.index.track();
        m.follow.track();
        m.mode.track();
        m.log_url.track();
        m.pending_cycle.track();
        let now = crate::source::now();
        match THROTTLE.with(|t| t.borrow_mut().changed(now, WRITE_INTERVAL_MS)) {
            WriteNow::Yes => write(m),
            WriteNow::After(ms) => {
                set_timeout(
                    move || {
                        THROTTLE.with(|t| t.borrow_mut().fired(crate::source::now()));
                        write(m);
                    },
                    std::time::Duration::from_millis(ms.ceil() as u64),
                );
            }
            WriteNow::Scheduled => {}
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fragment_keeps_other_keys_and_never_writes_control() {
        let mut f = Fragment::parse("#control=s3cr%2Ft&view=top&t=12&flag");
        assert_eq!(f.cycle(), Some(12));
        assert_eq!(f.get(CONTROL_KEY), Some("s3cr%2Ft"));
        f.set(CYCLE_KEY, "2345");
        assert_eq!(f.to_shareable(), "#view=top&t=2345&flag");
        f.remove(CYCLE_KEY);
        assert_eq!(f.to_shareable(), "#view=top&flag");
        assert_eq!(Fragment::parse("#control=x").to_shareable(), "");
        let mut g = Fragment::parse("");
        g.set(CYCLE_KEY, "7");
        assert_eq!(g.to_shareable(), "#t=7");
        let mut dup = Fragment::parse("t=1&a=2&t=3");
        dup.set(CYCLE_KEY, "9");
        assert_eq!(dup.to_shareable(), "#t=9&a=2");
    }

    #[test]
    fn cycle_must_be_a_number() {
        assert_eq!(Fragment::parse("#t=abc").cycle(), None);
        assert_eq!(Fragment::parse("#t=-5").cycle(), None);
        assert_eq!(Fragment::parse("#t=").cycle(), None);
        assert_eq!(Fragment::parse("#x=1").cycle(), None);
        assert_eq!(Fragment::parse("t=6000").cycle(), Some(6000));
    }

    #[test]
    fn log_urls_survive_the_query() {
        let url = "https://example.org/logs/a b&c#1+2.rcg.gz";
        let q = with_query_value("?x=1", LOG_KEY, Some(url));
        assert_eq!(
            q,
            "?x=1&log=https://example.org/logs/a%20b%26c%231%2B2.rcg.gz"
        );
        assert_eq!(query_value(&q, LOG_KEY).as_deref(), Some(url));
        assert_eq!(query_value(&q, "x").as_deref(), Some("1"));
        assert_eq!(with_query_value(&q, LOG_KEY, None), "?x=1");
        assert_eq!(with_query_value("?log=a", LOG_KEY, None), "");
        assert_eq!(
            query_value("?log=http://h/f.rcg", LOG_KEY).as_deref(),
            Some("http://h/f.rcg")
        );
        assert_eq!(percent_decode("100%"), "100%");
        assert_eq!(percent_decode("%zz%41"), "%zzA");
        assert_eq!(percent_decode("%C3%A9"), "é");
    }

    #[test]
    fn throttle_writes_at_most_once_per_interval_and_keeps_the_last() {
        let mut t = Throttle::default();
        assert_eq!(t.changed(0.0, 400.0), WriteNow::Yes);
        assert_eq!(t.changed(100.0, 400.0), WriteNow::After(300.0));
        assert_eq!(t.changed(200.0, 400.0), WriteNow::Scheduled);
        t.fired(400.0);
        assert_eq!(t.changed(500.0, 400.0), WriteNow::After(300.0));
        t.fired(800.0);
        assert_eq!(t.changed(1300.0, 400.0), WriteNow::Yes);
        // 16× playback for 10 s moves 1600 times: at most 10000 / 400 + 1 writes.
        let mut t = Throttle::default();
        let mut writes = 0;
        let mut timer: Option<f64> = None;
        for i in 0..1600 {
            let now = i as f64 * 6.25;
            if let Some(at) = timer {
                if now >= at {
                    t.fired(now);
                    writes += 1;
                    timer = None;
                }
            }
            match t.changed(now, 400.0) {
                WriteNow::Yes => writes += 1,
                WriteNow::After(ms) => timer = Some(now + ms),
                WriteNow::Scheduled => {}
            }
        }
        assert!(writes <= 26, "{writes} writes");
    }
}
