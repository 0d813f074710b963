//! The real page in headless Chromium, as people use it: one test program for every browser
//! test, so that the workspace links it once (each program links the relay, tokio and axum).
//!
//! Needs the web app built into `dist/` (scripts/test.sh does it) and Debian's chromium and
//! chromium-driver. Run one part with `cargo test -p pitchside-tests --test browser field::`.

mod a11y;
mod agents;
mod analysis;
mod archive;
mod broadcast;
mod embed;
mod field;
mod links;
mod page;
mod phone;
mod referee;
mod relay;
mod runs;
mod save_as;
mod series;
mod tls;
mod tournament;
mod transport;
mod view3d;
