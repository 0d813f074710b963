//! The relay end to end, in process: a fake rcssserver replaying real captures, the relay,
//! and WebSocket, HTTP, NATS and debug clients. One test program, linked once; run one part
//! with `cargo test -p pitchside-tests --test relay faults::`.

mod agents;
mod archive;
mod control;
mod faults;
mod live;
mod nats;
mod spectators;
