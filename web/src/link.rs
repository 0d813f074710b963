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

pub use pitchside_wire::link::{
    percent_decode, query_value, with_query_value, Fragment, AGENTS_KEY, CONTROL_KEY, CYCLE_KEY,
    LOG_KEY, TEAM_KEY,
};

/// Shortest time between two writes of the address.
pub const WRITE_INTERVAL_MS: f64 = 400.0;

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
    /// A team's key to its agents' debug stream, kept aside the same way.
    static TEAM: RefCell<Option<String>> = const { RefCell::new(None) };
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
    if let Some(key) = f.get(TEAM_KEY) {
        let key = percent_decode(key);
        TEAM.with(|c| *c.borrow_mut() = Some(key));
    }
    let mut rest = f.clone();
    rest.remove(CONTROL_KEY);
    rest.remove(TEAM_KEY);
    CURRENT.with(|c| *c.borrow_mut() = rest);
}

/// The operator's key from the address (as the page was opened, or as later typed in).
pub fn control_key() -> Option<String> {
    startup_fragment();
    CONTROL.with(|c| c.borrow().clone())
}

/// The `?agents=` URL the page was opened with: the list of the agents' files.
pub fn startup_agents() -> Option<String> {
    let search = location()?.search().ok()?;
    query_value(&search, AGENTS_KEY).filter(|u| !u.trim().is_empty())
}

/// A team's key to its agents' debug stream, from the address (`#team=KEY`).
pub fn team_key() -> Option<String> {
    startup_fragment();
    TEAM.with(|c| c.borrow().clone())
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

/// The page address's query (`?log=…&view=3d`), empty outside a browser.
fn query() -> String {
    web_sys::window()
        .and_then(|w| w.location().search().ok())
        .unwrap_or_default()
}

/// The picture the link asks for: `view=2d` or `view=3d` (book, "The 3D view").
pub fn picture_from_link() -> Option<crate::settings::Picture> {
    pitchside_wire::link::query_value(&query(), pitchside_wire::link::VIEW_KEY)
        .and_then(|v| crate::settings::Picture::from_link(&v))
}

/// The 3D camera the link asks for: `cam=broadcast|top|goal|follow|free`.
pub fn camera_from_link() -> Option<crate::settings::Camera3d> {
    pitchside_wire::link::query_value(&query(), pitchside_wire::link::CAMERA_KEY)
        .and_then(|v| crate::settings::Camera3d::from_name(&v))
}

/// True when the page was opened as the embed view.
pub fn embed_mode() -> bool {
    let Some(loc) = web_sys::window().map(|w| w.location()) else {
        return false;
    };
    pitchside_wire::link::is_embed(
        &loc.pathname().unwrap_or_default(),
        &loc.search().unwrap_or_default(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

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
