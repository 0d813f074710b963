//! The relay's WebSocket feed, in the relay's wire (`pitchside_wire`): the match's
//! history in a few compressed chunks, then live frames as changes, and notices (feed,
//! new match, server errors, operator actions), all decoded here with the library's decoder.
//! Reconnects after a drop, with a growing, jittered delay so that a relay restart is not met
//! by every page at the same instant.
//!
//! The page follows the match its path names (`/m/NAME` → `/m/NAME/ws`), or the relay's
//! first match (`/ws`) anywhere else.
//!
//! No socket is open while the page shows a file: the feed is closed when a file is opened
//! and opened again by [`resume`].
//!
//! The broadcast view may put the feed through a delay line ([`set_delay`]): everything the
//! relay sends, a new match and a reconnection included, reaches the page that much later,
//! so the view trails live play by the same time from one match to the next.
//!
//! A relay that cannot send every frame to every page in time skips frames for the pages
//! that are behind (a `Skipped` notice, then a keyframe): the page says so while it lasts
//! ("skipping frames to stay live") and keeps playing from the newer frames. Nothing is lost
//! for good: the relay's history has every frame, and a page that had frames skipped and is
//! taken back in time (paused, rewound) fetches the match again in the background and puts
//! the fuller match in place of its own, at the same moment ([`fill_in_when_rewound`]).

use crate::state::{Mode, Monitor};
use leptos::prelude::*;
use pitchside_wire::feed::FeedSource;
use pitchside_wire::reconnect::retry_delay;
use pitchside_wire::{Decoder, Event, Notice, WireError};
use rcss_formats::Record;
use std::cell::{Cell, RefCell};
use std::collections::VecDeque;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{BinaryType, CloseEvent, MessageEvent, WebSocket};

thread_local! {
    static SOCKET: RefCell<Option<WebSocket>> = const { RefCell::new(None) };
    /// Failed attempts since the last connection that delivered something.
    static FAILURES: Cell<u32> = const { Cell::new(0) };
    /// The pending reconnect timer, so that opening a file can cancel it.
    static RETRY_TIMER: Cell<Option<i32>> = const { Cell::new(None) };
    /// The wire decoder of the current connection (it holds the previous frame).
    static DECODER: RefCell<Decoder> = RefCell::new(Decoder::new());
    /// Set when the relay speaks a wire version this page does not know: reconnecting
    /// cannot help, reloading the page can.
    static OUTDATED: Cell<bool> = const { Cell::new(false) };
    /// The delay line, when the page trails the feed ([`set_delay`]).
    static DELAY: RefCell<Option<DelayLine>> = const { RefCell::new(None) };
    /// Frames of the current match the relay skipped for this page since it connected.
    static GAPS: Cell<u64> = const { Cell::new(0) };
    /// The timer that ends "skipping frames" once no skip came for a while.
    static SKIP_TIMER: Cell<Option<i32>> = const { Cell::new(None) };
    /// The relay's number of the match on screen (its `NewMatch` notice).
    static MATCH_NUMBER: Cell<Option<u32>> = const { Cell::new(None) };
    /// While the match is fetched again to fill in skipped frames: what came of it so far.
    static FILLING: RefCell<Option<rcss_formats::log::Match>> = const { RefCell::new(None) };
}

/// How long the page says it is skipping frames after the relay last skipped some.
const SKIPPING_SHOWN_MS: i32 = 3000;

/// What the feed does to the page, in the order it arrived.
enum Step {
    /// A new connection: what it sends replaces what an earlier one showed.
    Clear,
    Records(Vec<Record>),
    Notice(Notice),
}

/// Steps waiting for their time, each with when it arrived (ms, `performance.now()`).
struct DelayLine {
    ms: f64,
    queue: VecDeque<(f64, Step)>,
    timer: Option<i32>,
    /// The match so far, while it arrives (between the relay's `Backlog` and `Live`
    /// notices): dated once whole, as if it had come live.
    backlog: Option<Vec<Step>>,
}

/// A frame of the match so far is dated this long before the next: the server's pace.
const FRAME_MS: f64 = 100.0;

impl DelayLine {
    /// Takes a step as it arrives. The match so far is held until it is whole, then each of
    /// its frames is dated as if it had come live, one every [`FRAME_MS`] up to now: a page
    /// opened (or reconnected) in the middle of a match shows at once what was live the
    /// delay ago, instead of nothing for the whole delay.
    fn push(&mut self, at: f64, step: Step) {
        match step {
            // A new connection starts with what it replaces: held with the match so far.
            Step::Clear => self.backlog = Some(vec![step]),
            Step::Notice(Notice::Backlog { .. }) => {
                self.backlog.get_or_insert_with(Vec::new).push(step);
            }
            Step::Notice(Notice::Live) => {
                let mut held = self.backlog.take().unwrap_or_default();
                held.push(step);
                // Latest first: each frame one step further back.
                let mut dated = Vec::with_capacity(held.len());
                let mut t = at;
                for s in held.into_iter().rev() {
                    match s {
                        Step::Records(records) => {
                            for part in Record::split_at_shows(records).into_iter().rev() {
                                dated.push((t, Step::Records(part)));
                                t -= FRAME_MS;
                            }
                        }
                        other => dated.push((t, other)),
                    }
                }
                // Never before what is already waiting (the end of what an earlier
                // connection sent): the line stays in time order.
                let mut floor = self.queue.back().map_or(f64::MIN, |(t, _)| *t);
                for (t, s) in dated.into_iter().rev() {
                    floor = floor.max(t);
                    self.queue.push_back((floor, s));
                }
            }
            step => match self.backlog.as_mut() {
                Some(b) => b.push(step),
                None => self.queue.push_back((at, step)),
            },
        }
    }
}

fn now() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map_or(0.0, |p| p.now())
}

/// Makes the page trail the feed by `seconds` (0: live). What arrives from then on waits
/// that long before it reaches the page.
pub fn set_delay(m: Monitor, seconds: f64) {
    let ms = (seconds.max(0.0) * 1000.0).min(600_000.0);
    DELAY.with(|d| {
        let mut d = d.borrow_mut();
        let line = d.get_or_insert_with(|| DelayLine {
            ms,
            queue: VecDeque::new(),
            timer: None,
            backlog: None,
        });
        line.ms = ms;
        if line.timer.is_none() {
            let drain = Closure::<dyn FnMut()>::new(move || drain(m));
            line.timer = web_sys::window().and_then(|w| {
                w.set_interval_with_callback_and_timeout_and_arguments_0(
                    drain.as_ref().unchecked_ref(),
                    50,
                )
                .ok()
            });
            drain.forget();
        }
    });
}

/// The delay in seconds, 0 when the page is live.
pub fn delay() -> f64 {
    DELAY.with(|d| d.borrow().as_ref().map_or(0.0, |l| l.ms / 1000.0))
}

/// Applies the steps whose time has come.
fn drain(m: Monitor) {
    let due = DELAY.with(|d| {
        let mut d = d.borrow_mut();
        let Some(line) = d.as_mut() else {
            return Vec::new();
        };
        let cut = now() - line.ms;
        let n = line.queue.partition_point(|(t, _)| *t <= cut);
        line.queue.drain(..n).map(|(_, s)| s).collect()
    });
    for step in due {
        apply(m, step);
    }
}

/// Sends `step` through the delay line, or to the page at once without one.
fn feed(m: Monitor, step: Step) {
    let step = DELAY.with(|d| match d.borrow_mut().as_mut() {
        Some(line) if line.ms > 0.0 => {
            line.push(now(), step);
            None
        }
        _ => Some(step),
    });
    if let Some(step) = step {
        apply(m, step);
    }
}

fn apply(m: Monitor, step: Step) {
    if m.mode.get_untracked() != Mode::Live {
        return;
    }
    let Some(step) = filling(m, step) else {
        return;
    };
    match step {
        Step::Clear => m.clear(),
        Step::Records(r) => m.push_records(r),
        Step::Notice(n) => notice(m, n),
    }
}

/// What [`filling`] makes of a step.
enum Filling {
    /// The page takes it as usual.
    Pass(Step),
    /// Part of the match fetched again: kept aside.
    Kept,
    /// The match fetched again, whole.
    Done(Box<rcss_formats::log::Match>),
}

/// While the match is fetched again ([`fill_in`]): its records build the fuller match aside,
/// which replaces the one on screen at `Live`. Returns the step if the page takes it as usual
/// (feed and operator notices, a server error; everything when no fetch is under way).
fn filling(m: Monitor, step: Step) -> Option<Step> {
    let what = FILLING.with(|f| {
        let mut f = f.borrow_mut();
        let Some(game) = f.as_mut() else {
            return Filling::Pass(step);
        };
        match step {
            Step::Clear | Step::Notice(Notice::Backlog { .. }) => Filling::Kept,
            Step::Records(records) => {
                for r in records {
                    game.push(r);
                }
                Filling::Kept
            }
            // The relay went on to the next match meanwhile: shown as any new match is.
            Step::Notice(Notice::NewMatch { number })
                if MATCH_NUMBER.with(Cell::get) != Some(number) =>
            {
                *f = None;
                Filling::Pass(Step::Notice(Notice::NewMatch { number }))
            }
            Step::Notice(Notice::NewMatch { .. }) => Filling::Kept,
            // What the relay says to every new connection, unchanged since: already shown.
            Step::Notice(Notice::Feed { source, label })
                if m.source.get_untracked() == describe(source, &label) =>
            {
                Filling::Kept
            }
            Step::Notice(Notice::ServerError { text, .. })
                if m.error
                    .get_untracked()
                    .is_some_and(|e| e.starts_with(&format!("rcssserver says {text}:"))) =>
            {
                Filling::Kept
            }
            Step::Notice(Notice::Live) => match f.take() {
                Some(game) => Filling::Done(Box::new(game)),
                None => Filling::Kept,
            },
            step => Filling::Pass(step),
        }
    });
    match what {
        Filling::Pass(step) => Some(step),
        Filling::Kept => None,
        Filling::Done(game) => {
            m.fill_in(*game);
            m.progress.set(None);
            None
        }
    }
}

/// Fetches the match again from the relay (a new connection gets the whole history), to put
/// the frames the relay skipped for this page back in, without disturbing what is on screen.
fn fill_in(m: Monitor) {
    FILLING.with(|f| *f.borrow_mut() = Some(Default::default()));
    m.progress
        .set(Some("fetching the frames skipped while live…".into()));
    connect(m);
}

/// Fills skipped frames in whenever the user takes the page back from the newest frame
/// (pauses, rewinds, seeks): only then are they worth a second download of the match. Not
/// for views that steer the page themselves or trail the feed.
pub fn fill_in_when_rewound(m: Monitor) {
    Effect::new(move |was_following: Option<bool>| {
        let following = m.follow.get();
        if was_following == Some(true)
            && !following
            && m.mode.get_untracked() == Mode::Live
            && !m.steered.get_untracked()
            && delay() == 0.0
            && GAPS.with(Cell::get) > 0
            && FILLING.with(|f| f.borrow().is_none())
        {
            fill_in(m);
        }
        following
    });
}

/// The relay skipped `frames` frames for this page: say so for a while.
fn skipped(m: Monitor, frames: u32) {
    GAPS.with(|g| g.set(g.get().saturating_add(u64::from(frames))));
    m.skipping.set(true);
    let Some(w) = web_sys::window() else { return };
    if let Some(id) = SKIP_TIMER.with(|t| t.take()) {
        w.clear_timeout_with_handle(id);
    }
    let over = Closure::once_into_js(move || {
        SKIP_TIMER.with(|t| t.set(None));
        m.skipping.set(false);
    });
    if let Ok(id) = w.set_timeout_with_callback_and_timeout_and_arguments_0(
        over.unchecked_ref(),
        SKIPPING_SHOWN_MS,
    ) {
        SKIP_TIMER.with(|t| t.set(Some(id)));
    }
}

/// The match named by the page's path (`/m/NAME`), if any.
pub fn match_name() -> Option<String> {
    let path = web_sys::window()?.location().pathname().ok()?;
    match_name_in(&path)
}

/// `NAME` in `/m/NAME` or `/m/NAME/`.
pub fn match_name_in(path: &str) -> Option<String> {
    let rest = path.strip_prefix("/m/")?;
    let name = rest.split('/').next()?;
    (!name.is_empty()).then(|| name.to_owned())
}

fn url() -> Option<String> {
    let loc = web_sys::window()?.location();
    let scheme = if loc.protocol().ok()? == "https:" {
        "wss"
    } else {
        "ws"
    };
    let path = match match_name() {
        Some(name) => format!("/m/{name}/ws"),
        None => "/ws".to_owned(),
    };
    Some(format!("{scheme}://{}{path}", loc.host().ok()?))
}

/// Closes the feed without reconnecting, e.g. while a file is shown.
pub fn disconnect() {
    if let Some(id) = RETRY_TIMER.with(|t| t.take()) {
        if let Some(w) = web_sys::window() {
            w.clear_timeout_with_handle(id);
        }
    }
    SOCKET.with(|s| {
        if let Some(old) = s.borrow_mut().take() {
            old.set_onclose(None);
            old.set_onmessage(None);
            let _ = old.close();
        }
    });
}

/// Opens the feed (closing any previous one). The relay sends the match from its start, so
/// the match on screen is replaced by what arrives.
pub fn connect(m: Monitor) {
    disconnect();
    DECODER.with(|d| d.borrow_mut().reset());
    // This connection sends the whole match again: nothing it has is missing.
    GAPS.with(|g| g.set(0));
    FILLING.with(|f| {
        if let Some(game) = f.borrow_mut().as_mut() {
            *game = Default::default();
        }
    });
    let Some(url) = url() else { return };
    let ws = match WebSocket::new(&url) {
        Ok(ws) => ws,
        Err(_) => {
            m.source.set(format!("cannot open {url}"));
            return;
        }
    };
    ws.set_binary_type(BinaryType::Arraybuffer);
    // The first message of this connection replaces whatever an earlier one showed.
    let fresh = std::rc::Rc::new(Cell::new(true));

    let on_message = Closure::<dyn FnMut(MessageEvent)>::new(move |ev: MessageEvent| {
        if m.mode.get_untracked() != Mode::Live {
            return;
        }
        FAILURES.with(|f| f.set(0));
        if fresh.replace(false) {
            feed(m, Step::Clear);
        }
        let Ok(buf) = ev.data().dyn_into::<js_sys::ArrayBuffer>() else {
            return;
        };
        let bytes = js_sys::Uint8Array::new(&buf).to_vec();
        let mut events = Vec::new();
        let res = DECODER.with(|d| d.borrow_mut().decode(&bytes, &mut events));
        let mut records = Vec::new();
        for e in events {
            match e {
                Event::Record(r) => records.push(r),
                Event::Hello(_) => {}
                Event::Notice(n) => {
                    // Records before a notice belong to what came before it.
                    if !records.is_empty() {
                        feed(m, Step::Records(std::mem::take(&mut records)));
                    }
                    feed(m, Step::Notice(n));
                }
            }
        }
        if !records.is_empty() {
            feed(m, Step::Records(records));
        }
        match res {
            Ok(()) => {}
            Err(WireError::Version { .. } | WireError::NotPitchside) => {
                let e = res.err().map(|e| e.to_string()).unwrap_or_default();
                OUTDATED.with(|o| o.set(true));
                m.error.set(Some(e));
                disconnect();
            }
            Err(e) => {
                web_sys::console::warn_1(&format!("ignoring what the relay sent: {e}").into())
            }
        }
    });
    ws.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    on_message.forget();

    let on_close = Closure::<dyn FnMut(CloseEvent)>::new(move |ev: CloseEvent| {
        if m.mode.get_untracked() != Mode::Live || OUTDATED.with(|o| o.get()) {
            return;
        }
        let failures = FAILURES.with(|f| {
            f.set(f.get().saturating_add(1));
            f.get()
        });
        let delay = retry_delay(failures, js_sys::Math::random());
        let why = match (ev.code(), ev.reason()) {
            (_, r) if !r.is_empty() => r,
            (1001, _) => "the relay stopped".to_owned(),
            _ => "relay connection lost".to_owned(),
        };
        m.source.set(format!(
            "{why}; reconnecting in {:.0} s…",
            (delay / 1000.0).ceil()
        ));
        // What was received stays on screen until the relay sends the match again.
        let retry = Closure::once_into_js(move || {
            RETRY_TIMER.with(|t| t.set(None));
            if m.mode.get_untracked() == Mode::Live {
                connect(m);
            }
        });
        if let Some(w) = web_sys::window() {
            if let Ok(id) = w.set_timeout_with_callback_and_timeout_and_arguments_0(
                retry.unchecked_ref(),
                delay as i32,
            ) {
                RETRY_TIMER.with(|t| t.set(Some(id)));
            }
        }
    });
    ws.set_onclose(Some(on_close.as_ref().unchecked_ref()));
    on_close.forget();

    SOCKET.with(|s| *s.borrow_mut() = Some(ws));
}

/// Leaves an opened file and shows the relay's feed again from its start.
pub fn resume(m: Monitor) {
    super::opened::cancel();
    m.playing.set(false);
    m.mode.set(Mode::Live);
    m.follow.set(true);
    m.pending_cycle.set(None);
    m.log_url.set(None);
    m.loading.set(false);
    m.load_fraction.set(None);
    m.error.set(None);
    m.notice.set(None);
    m.progress.set(None);
    m.source.set("connecting to the relay…".into());
    FAILURES.with(|f| f.set(0));
    connect(m);
}

/// What a notice changes on the page.
fn notice(m: Monitor, n: Notice) {
    match n {
        Notice::Feed { source, label } => {
            let text = describe(source, &label);
            m.notice(text.clone());
            m.source.set(text);
        }
        Notice::NewMatch { number } => {
            MATCH_NUMBER.with(|n| n.set(Some(number)));
            GAPS.with(|g| g.set(0));
            m.clear();
            m.error.set(None);
            // The board starts again with the match, and says why it did.
            if number > 1 {
                m.notice(format!(
                    "new match (the relay's match {number} on this feed)"
                ));
            }
        }
        Notice::ServerError { text, hint } => {
            let text = format!("rcssserver says {text}: {hint}");
            m.notice(text.clone());
            m.error.set(Some(text));
        }
        Notice::Operator { text } => m.notice(format!("operator: {text}")),
        Notice::Backlog { frames } if frames > 0 => {
            m.progress
                .set(Some(format!("loading the match so far ({frames} frames)…")));
        }
        Notice::Backlog { .. } => {}
        Notice::Live => {
            m.progress.set(None);
            if m.follow.get_untracked() && !m.steered.get_untracked() {
                m.index.set(m.count.get_untracked().saturating_sub(1));
            }
        }
        Notice::Skipped { frames } => skipped(m, frames),
        Notice::Unknown { .. } => {}
    }
}

fn describe(source: FeedSource, label: &str) -> String {
    match source {
        FeedSource::Live => format!("Live: {label}"),
        FeedSource::Replay => format!("Replay (no live server): {label}"),
        FeedSource::Waiting => format!("Waiting: {label}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn show(time: u32) -> Record {
        Record::Show(rcss_formats::Frame {
            time,
            ..Default::default()
        })
    }

    fn line() -> DelayLine {
        DelayLine {
            ms: 2000.0,
            queue: VecDeque::new(),
            timer: None,
            backlog: None,
        }
    }

    #[test]
    fn the_match_so_far_is_dated_as_if_it_had_come_live() {
        let mut l = line();
        l.push(10_000.0, Step::Clear);
        l.push(10_000.0, Step::Notice(Notice::Backlog { frames: 3 }));
        l.push(10_010.0, Step::Records(vec![show(1), show(2)]));
        l.push(10_020.0, Step::Records(vec![show(3)]));
        assert!(l.queue.is_empty(), "held until whole");
        l.push(10_030.0, Step::Notice(Notice::Live));
        let times: Vec<f64> = l.queue.iter().map(|(t, _)| *t).collect();
        // Clear and the notice with the first frame, each frame 100 ms after the last, the
        // newest now.
        assert_eq!(
            times,
            vec![9_730.0, 9_730.0, 9_830.0, 9_930.0, 10_030.0, 10_030.0]
        );
        assert!(matches!(l.queue[0].1, Step::Clear));
        // What comes live after it keeps its own time.
        l.push(10_100.0, Step::Records(vec![show(4)]));
        assert_eq!(l.queue.back().map(|(t, _)| *t), Some(10_100.0));
    }

    #[test]
    fn a_reconnection_never_goes_before_what_is_waiting() {
        let mut l = line();
        for k in 0..20 {
            l.push(1_000.0 + 100.0 * f64::from(k), Step::Records(vec![show(k)]));
        }
        // The connection drops and comes back with a long match so far.
        l.push(3_000.0, Step::Clear);
        l.push(3_000.0, Step::Notice(Notice::Backlog { frames: 50 }));
        l.push(3_000.0, Step::Records((0..50).map(show).collect()));
        l.push(3_000.0, Step::Notice(Notice::Live));
        let times: Vec<f64> = l.queue.iter().map(|(t, _)| *t).collect();
        assert!(times.windows(2).all(|w| w[0] <= w[1]), "{times:?}");
        assert_eq!(times.last(), Some(&3_000.0));
        assert_eq!(l.queue.len(), 20 + 1 + 1 + 50 + 1);
    }

    #[test]
    fn the_match_comes_from_the_path() {
        assert_eq!(match_name_in("/m/field-a"), Some("field-a".into()));
        assert_eq!(match_name_in("/m/field-a/"), Some("field-a".into()));
        assert_eq!(match_name_in("/m/field-a/embed"), Some("field-a".into()));
        assert_eq!(match_name_in("/"), None);
        assert_eq!(match_name_in("/m/"), None);
    }
}
