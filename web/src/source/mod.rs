//! Where matches come from. Each source turns bytes into the library's records and pushes them
//! into the page's match ([`crate::state::Monitor::push_records`]): that is the only way
//! frames, messages, team graphics and parameters reach the page.
//!
//! - [`live`]: the relay's WebSocket feed.
//! - [`file`]: a log opened in the page: a `.rcg` / `.rcg.gz` dropped on the page or chosen with
//!   the file picker, or one on the web (`?log=URL`, the URL field), streamed.
//! - [`url`]: what to tell the user when a log on the web cannot be downloaded.
//! - [`opened`]: which opening of a log is current, so a newer one (or the live feed) stops
//!   the others.

pub mod file;
pub mod live;
pub mod opened;
pub mod url;

/// Milliseconds on the page's monotonic clock (0 where there is none, e.g. native tests).
pub fn now() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map_or(0.0, |p| p.now())
}
