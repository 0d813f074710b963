//! Test support: real fixtures, a fake rcssserver that replays captured monitor traffic, and
//! helpers to run the relay in-process on port 0.
//!
//! Layout:
//! - [`agent_looks`]: the Agents panel read as a glance reads it, for live-stream tests.
//! - [`bench`]: what the load benchmarks share (fake server with send times, timed
//!   spectators, `/proc` figures).
//! - [`fixtures`]: paths to the real logs and captures copied into `tests/fixtures/`.
//! - [`browser`]: headless Chromium driven through chromedriver.
//! - [`capture`]: reads the `.dgrams` capture format (4-byte big-endian length + payload).
//! - [`debug_client`]: the agents' captured debug-client datagrams, replayed to a debug port.
//! - [`fake_server`]: answers `(dispinit …)` from a new port and replays a capture.
//! - [`relay_harness`]: starts the relay against a source and returns its address.
//! - [`static_server`]: serves the fixtures over HTTP, with and without CORS, for `?log=`.
//! - [`spectator`]: a WebSocket client that decodes the relay's wire like the page does.
//! - [`nats_server`]: a real `nats-server` with JetStream on a free port, for edge relays.
//! - [`pause_proxy`]: a TCP proxy that can stop passing the relay's bytes on (a stalled link).

pub mod agent_looks;
pub mod bench;
pub mod browser;
pub mod capture;
pub mod debug_client;
pub mod fake_server;
pub use pitchside_fixtures as fixtures;
pub mod nats_server;
pub mod pause_proxy;
pub mod relay_harness;
pub mod spectator;
pub mod static_server;
