//! The relay's programs as their users run them, as processes: `pitchside-relay`,
//! `pitchside-inspect` and `pitchside-play`. One test program, linked once; run one part with
//! `cargo test -p pitchside-relay --test end_to_end play::`.
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test

mod common;

mod broadcast;
mod connections;
mod inspect_cli;
mod log_tools_cli;
mod play;
mod process;
mod runs;
mod series_cli;
mod slurm;
mod tls;
