//! What the relay's own tests share: the real fixtures, a free port, a fresh scratch folder.
#![allow(dead_code, unused_imports)] // each test file is its own crate and uses some of these only

use std::io::Read;
use std::path::{Path, PathBuf};

/// A fixture's path (`tests/fixtures/REL`).
pub fn fixture(rel: &str) -> PathBuf {
    pitchside_fixtures::path(rel)
}

/// A gzipped file's bytes, inflated.
pub fn gunzip(path: &Path) -> Vec<u8> {
    gunzip_bytes(&std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display())))
}

/// `pitchside-inspect ARGS`, which must succeed, and the JSON it prints.
pub fn inspect_json(args: &[&str]) -> serde_json::Value {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_pitchside-inspect"))
        .args(args)
        .output()
        .expect("run pitchside-inspect");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("JSON")
}

/// Gzipped bytes, inflated.
pub fn gunzip_bytes(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    flate2::read::GzDecoder::new(bytes)
        .read_to_end(&mut out)
        .expect("gzip");
    out
}

pub use pitchside_fixtures::{free_port, scratch};
