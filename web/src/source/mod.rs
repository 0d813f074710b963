//! Where matches come from. Each source turns bytes into the library's records and pushes them
//! into the page's match ([`crate::state::Monitor::push_records`]): that is the only way
//! frames, messages, team graphics and parameters reach the page.
//!
//! - [`live`]: the relay's WebSocket feed.
//! - [`file`]: a `.rcg` / `.rcg.gz` dropped on the page or chosen with the file picker.

pub mod file;
pub mod live;
