//! Access to the real fixtures in `tests/fixtures/` (gzipped copies of rcssserver 19 output).
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test
#![allow(dead_code)]

use std::io::Read;
use std::path::PathBuf;

pub fn path(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/fixtures")
        .join(rel)
}

/// A fixture's bytes as the server wrote them (gunzipped).
pub fn read(rel: &str) -> Vec<u8> {
    let raw = std::fs::read(path(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"));
    let mut out = Vec::new();
    flate2::read::GzDecoder::new(&raw[..])
        .read_to_end(&mut out)
        .unwrap();
    out
}

pub const SHORT: [(&str, &str); 7] = [
    (
        "v1",
        "logs/short-v1/20261122132514-SHORT_L_a_0-vs-SHORT_R_a_0.rcg.gz",
    ),
    (
        "v2",
        "logs/short-v2/20261122132541-SHORT_L_a_0-vs-SHORT_R_a_0.rcg.gz",
    ),
    (
        "v3",
        "logs/short-v3/20261122132604-SHORT_L_a_0-vs-SHORT_R_a_0.rcg.gz",
    ),
    (
        "v4",
        "logs/short-v4/20261122132629-SHORT_L_a_0-vs-SHORT_R_a_1.rcg.gz",
    ),
    (
        "v5",
        "logs/short-v5/20261122132656-SHORT_L_a_1-vs-SHORT_R_a_0.rcg.gz",
    ),
    (
        "v6",
        "logs/short-v6/20261122132720-SHORT_L_a_0-vs-SHORT_R_a_1.rcg.gz",
    ),
    (
        "json",
        "logs/short-json/20261122132746-SHORT_L_a_0-vs-SHORT_R_a_1.rcg.gz",
    ),
];

pub const V6_OTHERS: [&str; 3] = [
    "logs/penalty-shootout-v6/20261122132810-PEN_L_0_4-vs-PEN_R_0_2.rcg.gz",
    "logs/record-messages-v6/20261122132927-REC_L_0-vs-REC_R_0.rcg.gz",
    "logs/operator-commands-v6/20261122132312-OPS_L_0-vs-OPS_R_1.rcg.gz",
];

/// A full synch game as a JSON log.
pub const FULL_JSON: &str = "logs/full-json/20261125115357-HELIOS_A_3-vs-HELIOS_B_2.rcg.gz";
pub const FULL_GAME: &str = "logs/full-v6-realtime/20261122131124-HELIOS_L_2-vs-HELIOS_R_3.rcg.gz";

/// Every log among the fixtures (`tests/fixtures/logs/*/*`), relative paths, sorted: new
/// fixtures are covered by the tests that use this without being named.
pub fn all_logs() -> Vec<String> {
    let root = path("logs");
    let mut out = Vec::new();
    for dir in std::fs::read_dir(&root).unwrap() {
        let dir = dir.unwrap().path();
        if !dir.is_dir() {
            continue;
        }
        for f in std::fs::read_dir(&dir).unwrap() {
            let p = f.unwrap().path();
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            if name.contains(".rcg") {
                out.push(p.strip_prefix(path("")).unwrap().display().to_string());
            }
        }
    }
    out.sort();
    out
}

/// A fixture's bytes as stored (gzipped when its name ends in `.gz`), gunzipped.
pub fn read_any(rel: &str) -> Vec<u8> {
    if rel.ends_with(".gz") {
        read(rel)
    } else {
        std::fs::read(path(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
    }
}
