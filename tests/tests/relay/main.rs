//! The relay end to end, in process: a fake rcssserver replaying real captures, the relay,
//! and WebSocket, HTTP and debug clients. One test program, linked once; run one part with
//! `cargo test -p pitchside-tests --test relay faults::`. The NATS edges have a program of
//! their own (`tests/nats.rs`): run beside these, the nkeys test's spectator at the edge twice
//! got every frame of the capture but fewer of its other records (under investigation), which
//! never happened among the NATS tests alone.

mod agents;
mod archive;
mod control;
mod faults;
mod live;
mod spectators;
