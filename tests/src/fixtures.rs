//! Real rcssserver 19 data, copied (gzipped) from the shared fixture set so the tests run in a
//! fresh clone. See `tests/fixtures/README.md` for where each file comes from.

use std::io::Read;
use std::path::PathBuf;

pub fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fixtures")
}

/// Absolute path of a fixture, e.g. `logs/short-v6/….rcg.gz`.
pub fn path(rel: &str) -> PathBuf {
    dir().join(rel)
}

/// The bytes of a fixture, gunzipped if its name ends in `.gz`.
pub fn read(rel: &str) -> Vec<u8> {
    let p = path(rel);
    let raw = std::fs::read(&p).unwrap_or_else(|e| panic!("fixture {}: {e}", p.display()));
    if rel.ends_with(".gz") {
        let mut out = Vec::new();
        flate2::read::GzDecoder::new(&raw[..])
            .read_to_end(&mut out)
            .unwrap_or_else(|e| panic!("fixture {}: {e}", p.display()));
        out
    } else {
        raw
    }
}

pub const SHORT_V6: &str = "logs/short-v6/20261122132720-SHORT_L_a_0-vs-SHORT_R_a_1.rcg.gz";
/// The full 6000-cycle game (4.9 MB gzipped, 22 MB of ULG6).
pub const FULL_V6: &str = "logs/full-v6-realtime/20261122131124-HELIOS_L_2-vs-HELIOS_R_3.rcg.gz";
pub const V5_CAPTURE: &str = "captures/F1/v5-clean.dgrams.gz";
pub const V5_COMPRESSED_CAPTURE: &str = "captures/F1/v5-compression-6-clean.dgrams.gz";
