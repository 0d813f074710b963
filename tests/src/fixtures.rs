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
/// The short game as a JSON log (600 cycles).
pub const SHORT_JSON: &str = "logs/short-json/20261122132746-SHORT_L_a_0-vs-SHORT_R_a_1.rcg.gz";
/// The full 6000-cycle game (4.9 MB gzipped, 22 MB of ULG6).
pub const FULL_V6: &str = "logs/full-v6-realtime/20261122131124-HELIOS_L_2-vs-HELIOS_R_3.rcg.gz";
/// A full 6000-cycle synch game as rcssserver 19 writes a JSON log (5.5 MB gzipped, 54 MB).
pub const FULL_JSON: &str = "logs/full-json/20261125115357-HELIOS_A_3-vs-HELIOS_B_2.rcg.gz";
/// A 100-cycle game with every agent's debug log and world-model log, the server's message
/// log and live debug-client datagrams (`agents/agents-100`).
pub const AGENTS_DIR: &str = "agents/agents-100";
pub const AGENTS_RCG: &str = "agents/agents-100/20261125140048-HELIOS_A_0-vs-HELIOS_B_0.rcg.gz";
pub const AGENTS_RCL: &str = "agents/agents-100/20261125140048-HELIOS_A_0-vs-HELIOS_B_0.rcl.gz";
pub const V5_CAPTURE: &str = "captures/F1/v5-clean.dgrams.gz";
pub const V5_COMPRESSED_CAPTURE: &str = "captures/F1/v5-compression-6-clean.dgrams.gz";

/// Every monitor capture, by the protocol its client asked for: (file, protocol, compression).
pub const PROTOCOL_CAPTURES: [(&str, &str, Option<i32>); 11] = [
    ("captures/F1/v1-dispinit-plain.dgrams.gz", "1", None),
    ("captures/F1/v2.dgrams.gz", "2", None),
    ("captures/F1/v3-clean.dgrams.gz", "3", None),
    ("captures/F1/v4-clean.dgrams.gz", "4", None),
    (
        "captures/F1/v4-mixed-with-v3-v5-monitors.dgrams.gz",
        "4",
        None,
    ),
    ("captures/F1/v5-clean.dgrams.gz", "5", None),
    ("captures/F1/json.dgrams.gz", "json", None),
    ("captures/F1/v5-compression-6-clean.dgrams.gz", "5", Some(6)),
    (
        "captures/edge/json-compression-6.dgrams.gz",
        "json",
        Some(6),
    ),
    ("captures/edge/v1-compression-1.dgrams.gz", "1", Some(1)),
    ("captures/edge/v5-compression-0.dgrams.gz", "5", Some(0)),
];
pub const V5_GAME_END: &str = "captures/F1/v5-game-end.dgrams.gz";
pub const V5_OPERATOR: &str = "captures/OPa/v5-operator.dgrams.gz";
/// The server's own log of the game in [`V5_OPERATOR`] (which covers its cycles 0..475).
pub const OPERATOR_V6: &str = "logs/operator-commands-v6/20261122132312-OPS_L_0-vs-OPS_R_1.rcg.gz";
pub const PENALTY_V6: &str =
    "logs/penalty-shootout-v6/20261122132810-PEN_L_0_4-vs-PEN_R_0_2.rcg.gz";
pub const SHORT_V2: &str = "logs/short-v2/20261122132541-SHORT_L_a_0-vs-SHORT_R_a_0.rcg.gz";

/// A folder of the series games (`series/A`, `B`, `T`, `invalid`): real short games, the
/// valid ones kept as their last cycles (see the fixtures' README).
pub fn series(name: &str) -> PathBuf {
    path(&format!("series/{name}"))
}

/// The logs of a series folder, in the order they were played (their names begin with the
/// server's date).
pub fn series_logs(name: &str) -> Vec<PathBuf> {
    let mut logs: Vec<PathBuf> = std::fs::read_dir(series(name))
        .expect("the series fixtures")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.to_string_lossy().ends_with(".rcg.gz"))
        .collect();
    logs.sort();
    logs
}

/// Copies `logs` into `dir` (made if needed), as an autotest script fills a folder.
pub fn copy_into(logs: &[PathBuf], dir: &std::path::Path) {
    std::fs::create_dir_all(dir).expect("mkdir");
    for p in logs {
        let name = p.file_name().expect("a file name");
        std::fs::copy(p, dir.join(name)).expect("copy a log");
    }
}

/// A longer game's agent file made from one of the 100-cycle fixture's ([`AGENTS_DIR`]): its
/// text whole, then `copies - 1` more times its lines of cycles 1-100 with the cycle moved on
/// by 100 each time (at the start of a line; in a world-model file, `world`, in `%% step N`
/// and the first `(time C,S)` of each line). Lines with no time go with the one before. Real
/// lines, so a made file inflates, indexes and searches like a long game's; the benches and
/// the tests of files longer than the fixture's use it.
pub fn repeated_agent_file(text: &[u8], world: bool, copies: u32) -> Vec<u8> {
    use std::io::Write;
    let mut out = Vec::with_capacity(text.len() * copies as usize);
    let lines: Vec<&[u8]> = text.split_inclusive(|&b| b == b'\n').collect();
    let cycle_at = |l: &[u8]| -> Option<(u32, usize)> {
        let n = l.iter().take_while(|b| b.is_ascii_digit()).count();
        if n == 0 || n > 9 {
            return None;
        }
        std::str::from_utf8(&l[..n])
            .ok()?
            .parse()
            .ok()
            .map(|c| (c, n))
    };
    let find = |hay: &[u8], needle: &[u8]| hay.windows(needle.len()).position(|w| w == needle);
    for k in 0..copies {
        let shift = 100 * k;
        let mut keep = false;
        for l in &lines {
            if world {
                if let Some((c, n)) = l.strip_prefix(b"%% step ").and_then(cycle_at) {
                    keep = k == 0 || c >= 1;
                    if keep {
                        write!(out, "%% step {}", c + shift).expect("to memory");
                        out.extend_from_slice(&l[8 + n..]);
                    }
                    continue;
                }
                if !keep {
                    continue;
                }
                match find(l, b"(time ").filter(|_| k > 0) {
                    Some(i) => match cycle_at(&l[i + 6..]) {
                        Some((c, n)) => {
                            out.extend_from_slice(&l[..i + 6]);
                            write!(out, "{}", c + shift).expect("to memory");
                            out.extend_from_slice(&l[i + 6 + n..]);
                        }
                        None => out.extend_from_slice(l),
                    },
                    None => out.extend_from_slice(l),
                }
                continue;
            }
            match cycle_at(l) {
                Some((c, n)) if l.get(n) == Some(&b',') => {
                    keep = k == 0 || c >= 1;
                    if keep {
                        write!(out, "{}", c + shift).expect("to memory");
                        out.extend_from_slice(&l[n..]);
                    }
                }
                _ if keep => out.extend_from_slice(l),
                _ => {}
            }
        }
    }
    out
}
