//! The log tools of `pitchside-inspect` (`validate`, `reverse`, `rename`, `convert`, `clip`,
//! all functions of `rcss_formats::tools`) against librcsc's own tools on the real
//! fixtures, as librcsc reads the files.
//!
//! librcsc (`rcgvalidator`, `rcgreverse`, `rcgrenameteam`, `rcgverconv`, `rcg2txt`) is not in
//! CI, so what it says is kept in `tests/golden/log_tools/`, remade by
//!
//! ```sh
//! PITCHSIDE_LIBRCSC=/opt/ext/inst cargo test -p pitchside-tests --test log_tools -- --ignored
//! ```
//!
//! (`PITCHSIDE_LIBRCSC` names the folder with librcsc's `bin/` and `lib/`; librcsc `078d59f`):
//!
//! - `rcg2txt/NAME.gz`: what `rcg2txt` prints for each fixture, one 32-bit digest per line;
//! - `reverse/NAME.gz`, `rename/NAME.gz`: what `rcg2txt` prints for `rcgreverse`'s and
//!   `rcgrenameteam`'s output, a digest (`= HEX`) for each line where pitchside's file reads
//!   the same, and where it does not the words of librcsc's line that differ, by their
//!   number (`! 12:5.71244 13:95.7127`; `!! LINE` when the lines do not even have the same
//!   words), to be judged by the rule that says how the two may differ (each rule is
//!   documented where it is defined);
//! - `validate/NAME.txt`: `rcgvalidator`'s exit code and words for each fixture and for the
//!   broken logs made here from them.
//!
//! [`rcg2txt`] reads files as librcsc does and prints them as `rcg2txt` does; it equals the
//! real `rcg2txt` on every fixture (checked here in CI against the digests) and on every file
//! pitchside writes in these tests (checked when the goldens are made). So the comparisons
//! below are those of the files as librcsc reads them. `convert` is judged against its source
//! as librcsc reads it (`rcgverconv` has bugs of its own), within what each version keeps.

#[path = "log_tools/rcg2txt.rs"]
mod rcg2txt;

use pitchside_tests::fixtures;
use rcss_formats::tools::validate::{validate, Validation};
use rcss_formats::tools::{rewrite, Edits, FindingKind, Rename};
use rcss_formats::{parse_log, LogVersion};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::Command;

const NEW_LEFT: &str = "NEWLEFT";

fn golden_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("golden/log_tools")
}

/// Every log fixture librcsc's tools read: its folder name and file.
fn fixture_logs() -> Vec<(String, PathBuf)> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(fixtures::dir().join("logs")).unwrap() {
        let dir = e.unwrap().path();
        let name = dir.file_name().unwrap().to_string_lossy().into_owned();
        if fixtures::NOT_READ_BY_LIBRCSC.contains(&name.as_str()) {
            continue;
        }
        let file = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .find(|p| p.to_string_lossy().ends_with(".rcg.gz"))
            .unwrap();
        out.push((name, file));
    }
    out.sort();
    out
}

fn fixture(name: &str) -> Vec<u8> {
    let (_, file) = fixture_logs()
        .into_iter()
        .find(|(n, _)| n == name)
        .unwrap_or_else(|| panic!("no fixture {name}"));
    std::fs::read(file).unwrap()
}

fn gunzip(bytes: &[u8]) -> Vec<u8> {
    if !bytes.starts_with(&[0x1f, 0x8b]) {
        return bytes.to_vec();
    }
    let mut out = Vec::new();
    flate2::read::GzDecoder::new(bytes)
        .read_to_end(&mut out)
        .unwrap();
    out
}

fn gzip(text: &str) -> Vec<u8> {
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    e.write_all(text.as_bytes()).unwrap();
    e.finish().unwrap()
}

fn version_of(bytes: &[u8]) -> LogVersion {
    parse_log(bytes).version.unwrap()
}

/// The first 32 bits of a line's SHA-256, in hex.
fn digest(line: &str) -> String {
    let d = ring::digest::digest(&ring::digest::SHA256, line.as_bytes());
    d.as_ref()[..4].iter().map(|b| format!("{b:02x}")).collect()
}

// ---------------------------------------------------------------------------------------
// How two readings may differ

/// One line of `rcg2txt` output, taken apart.
#[derive(Debug, PartialEq)]
struct Info {
    time: String,
    mode: String,
    score: (String, String),
    ball: Vec<f64>,
    players: Vec<InfoPlayer>,
}

#[derive(Debug, PartialEq)]
struct InfoPlayer {
    who: String,
    /// x y vx vy body head.
    position: Vec<f64>,
    stamina: f64,
    actions: Vec<String>,
}

fn parse_info(line: &str) -> Option<Info> {
    let rest = line.strip_prefix("(Info (state ")?;
    let (state, rest) = rest.split_once(") (ball ")?;
    let s: Vec<&str> = state.split(' ').collect();
    let (ball, mut rest) = rest.split_once(')')?;
    let ball = ball
        .split(' ')
        .map(|v| v.parse().ok())
        .collect::<Option<Vec<f64>>>()?;
    let mut players = Vec::new();
    while let Some(p) = rest.strip_prefix("(player ") {
        let (who, after) = p.split_once(" (position ")?;
        let (position, after) = after.split_once(") (stamina ")?;
        let (stamina, mut after) = after.split_once(')')?;
        let mut actions = Vec::new();
        while let Some(a) = after.strip_prefix(" (") {
            let (act, next) = a.split_once(')')?;
            actions.push(act.to_owned());
            after = next;
        }
        rest = after.strip_prefix(')')?;
        players.push(InfoPlayer {
            who: who.to_owned(),
            position: position
                .split(' ')
                .map(|v| v.parse().ok())
                .collect::<Option<Vec<f64>>>()?,
            stamina: stamina.parse().ok()?,
            actions,
        });
    }
    Some(Info {
        time: s.first()?.to_string(),
        mode: s.get(1)?.to_string(),
        score: (s.get(2)?.to_string(), s.get(3)?.to_string()),
        ball,
        players,
    })
}

/// How far a line of pitchside's file may be from librcsc's reading of the reference.
#[derive(Clone, Copy, Debug)]
struct Rule {
    /// Positions and velocities (metres).
    len: f64,
    /// Body and head angles (degrees).
    angle: f64,
    /// Stamina, relative.
    stamina: f64,
    /// Compare only the time, play mode, scores, and the positions (x, y) of the ball and
    /// the players: for formats that carry nothing else (v1, v2).
    only_xy: bool,
    /// Compare the actions rcg2txt derives from the command counts.
    actions: bool,
    /// Compare the ball's y velocity: librcsc writes every v3 show with the ball's x velocity
    /// in its place (`convert( ShowInfoT, short_showinfo_t2 )`: `deltay = hftonl( vx_ )`), so
    /// `rcgreverse` and `rcgrenameteam` do too.
    ball_vy: bool,
}

/// The same line.
const EXACT: Rule = Rule {
    len: 0.0,
    angle: 0.0,
    stamina: 0.0,
    only_xy: false,
    actions: true,
    ball_vy: true,
};

/// One unit of a binary angle (1/65536 rad) twice, in degrees: librcsc turns an angle from
/// degrees to radians × 65536 in `float` each time it reads or writes one.
const ANGLE_UNITS: f64 = 2.0 * 180.0 / std::f64::consts::PI / 65536.0;

/// The text protocol's precision, which pitchside's model keeps for binary v3 values: a v3
/// log rewritten by pitchside moves each value by less than 0.00005 m, 0.0005°.
const MODEL: Rule = Rule {
    len: 1e-4,
    angle: 0.0005 + ANGLE_UNITS,
    stamina: 2e-5,
    only_xy: false,
    actions: true,
    ball_vy: true,
};

/// What librcsc's own v3 files read as, against pitchside's, when both come from the same v3
/// values: angles and stamina pass through `float` once more in librcsc's writer, and it
/// writes the ball's y velocity wrong.
const LIBRCSC_V3: Rule = Rule {
    angle: ANGLE_UNITS,
    stamina: 1e-6,
    ball_vy: false,
    ..EXACT
};

/// A line with what `rule` does not compare made equal on both sides: the ball's y velocity
/// replaced by its x velocity (as librcsc's v3 writer does), angles by 0 when they are not
/// compared. Applied to both readings before their lines are compared or digested.
fn normalize(line: &str, rule: Rule) -> String {
    let mut out = line.to_owned();
    if !rule.ball_vy {
        if let Some(at) = out.find("(ball ") {
            let end = at + out[at..].find(')').unwrap();
            let v: Vec<&str> = out[at + 6..end].split(' ').collect();
            if v.len() == 4 {
                let ball = format!("(ball {} {} {} {}", v[0], v[1], v[2], v[2]);
                out.replace_range(at..end, &ball);
            }
        }
    }
    if rule.angle.is_infinite() {
        let mut rebuilt = String::with_capacity(out.len());
        let mut rest = out.as_str();
        while let Some(at) = rest.find("(position ") {
            let end = at + rest[at..].find(')').unwrap();
            let v: Vec<&str> = rest[at + 10..end].split(' ').collect();
            rebuilt.push_str(&rest[..at]);
            if v.len() == 6 {
                rebuilt.push_str(&format!(
                    "(position {} {} {} {} 0 0",
                    v[0], v[1], v[2], v[3]
                ));
            } else {
                rebuilt.push_str(&rest[at..end]);
            }
            rest = &rest[end..];
        }
        rebuilt.push_str(rest);
        out = rebuilt;
    }
    out
}

fn normalized(lines: &[String], rule: Rule) -> Vec<String> {
    lines.iter().map(|l| normalize(l, rule)).collect()
}

fn agree(ours: &str, theirs: &str, rule: Rule) -> Result<(), String> {
    if ours == theirs {
        return Ok(());
    }
    let (Some(a), Some(b)) = (parse_info(ours), parse_info(theirs)) else {
        return Err("lines differ".into());
    };
    let close = |x: f64, y: f64, tol: f64| (x - y).abs() <= tol + 1e-9;
    if (a.time.as_str(), a.mode.as_str(), &a.score) != (b.time.as_str(), b.mode.as_str(), &b.score)
    {
        return Err(format!(
            "state {} {} {:?} vs {} {} {:?}",
            a.time, a.mode, a.score, b.time, b.mode, b.score
        ));
    }
    let n = if rule.only_xy {
        2
    } else if rule.ball_vy {
        4
    } else {
        3
    };
    for k in 0..n {
        if !close(a.ball[k], b.ball[k], rule.len) {
            return Err(format!("ball value {k}: {} vs {}", a.ball[k], b.ball[k]));
        }
    }
    if a.players.len() != b.players.len() {
        return Err("player count".into());
    }
    for (p, q) in a.players.iter().zip(&b.players) {
        if p.who != q.who {
            return Err(format!("player {} vs {}", p.who, q.who));
        }
        let n = if rule.only_xy { 2 } else { 6 };
        for k in 0..n {
            let tol = if k >= 4 { rule.angle } else { rule.len };
            if !close(p.position[k], q.position[k], tol) {
                return Err(format!(
                    "player {} position value {k}: {} vs {} (tolerance {tol})",
                    p.who, p.position[k], q.position[k]
                ));
            }
        }
        if rule.only_xy {
            continue;
        }
        if !close(
            p.stamina,
            q.stamina,
            rule.stamina * q.stamina.abs().max(1.0),
        ) {
            return Err(format!(
                "player {} stamina {} vs {}",
                p.who, p.stamina, q.stamina
            ));
        }
        if rule.actions && p.actions != q.actions {
            return Err(format!(
                "player {} actions {:?} vs {:?}",
                p.who, p.actions, q.actions
            ));
        }
    }
    Ok(())
}

/// librcsc's reading of the reference as a golden: a digest where pitchside's reading is the
/// same, the line where it is not.
fn encode_golden(ours: &[String], theirs: &str, rule: Rule) -> String {
    let ours = normalized(ours, rule);
    let mut out = String::new();
    for (i, t) in theirs.lines().enumerate() {
        let t = normalize(t, rule);
        match ours.get(i) {
            Some(o) if *o == t => {
                out.push_str("= ");
                out.push_str(&digest(&t));
            }
            Some(o) if o.split(' ').count() == t.split(' ').count() => {
                // The words that differ, by their number.
                out.push('!');
                for (k, (a, b)) in o.split(' ').zip(t.split(' ')).enumerate() {
                    if a != b {
                        out.push_str(&format!(" {k}:{b}"));
                    }
                }
            }
            _ => {
                out.push_str("!! ");
                out.push_str(&t);
            }
        }
        out.push('\n');
    }
    out
}

/// Checks pitchside's reading against a golden, line by line, with `rule` for the lines
/// kept whole; returns how many lines were judged by the rule.
fn check_golden(name: &str, ours: &[String], golden: &str, rule: Rule) -> usize {
    let ours = normalized(ours, rule);
    let lines: Vec<&str> = golden.lines().collect();
    assert_eq!(
        ours.len(),
        lines.len(),
        "{name}: number of lines (frames + result)"
    );
    let mut judged = 0;
    for (i, (o, g)) in ours.iter().zip(&lines).enumerate() {
        if let Some(d) = g.strip_prefix("= ") {
            assert_eq!(
                digest(o),
                d,
                "{name}: line {} is not what librcsc reads: {}",
                i + 1,
                &o[..o.len().min(300)]
            );
        } else if let Some(t) = g.strip_prefix("!! ").map(str::to_owned).or_else(|| {
            let diffs = g.strip_prefix("! ")?;
            let mut words: Vec<String> = o.split(' ').map(str::to_owned).collect();
            for d in diffs.split(' ') {
                let (k, w) = d.split_once(':')?;
                *words.get_mut(k.parse::<usize>().ok()?)? = w.to_owned();
            }
            Some(words.join(" "))
        }) {
            judged += 1;
            let t = t.as_str();
            if let Err(e) = agree(o, t, rule) {
                panic!(
                    "{name}: line {}: {e}\n ours: {}\n librcsc: {}",
                    i + 1,
                    &o[..o.len().min(300)],
                    &t[..t.len().min(300)]
                );
            }
        } else {
            panic!("{name}: golden line {}: {g}", i + 1);
        }
    }
    judged
}

fn read_golden(rel: &str) -> Option<String> {
    let raw = std::fs::read(golden_dir().join(rel)).ok()?;
    Some(String::from_utf8(gunzip(&raw)).unwrap())
}

/// `rcg2txt` of `bytes`, as lines.
fn reading(bytes: &[u8]) -> Vec<String> {
    rcg2txt::rcg2txt(bytes).lines().map(str::to_owned).collect()
}

// ---------------------------------------------------------------------------------------
// The cases

fn edits_reverse() -> Edits {
    Edits {
        reverse: true,
        ..Edits::default()
    }
}

fn edits_rename() -> Edits {
    Edits {
        rename: Rename {
            left: Some(NEW_LEFT.into()),
            right: None,
        },
        ..Edits::default()
    }
}

fn run(bytes: &[u8], edits: Edits) -> Vec<u8> {
    let (out, done) = rewrite(bytes, edits);
    assert!(done.error.is_none(), "{:?}", done.error);
    out
}

/// `rcgreverse` keeps play modes; pitchside flips them. For the comparison, pitchside's
/// reading gets them back.
fn unflip_modes(lines: &[String]) -> Vec<String> {
    lines
        .iter()
        .map(|l| {
            let Some(rest) = l.strip_prefix("(Info (state ") else {
                return l.clone();
            };
            let (time, rest) = rest.split_once(' ').unwrap();
            let (mode, rest) = rest.split_once(' ').unwrap();
            let flipped = if let Some(b) = mode.strip_suffix("_l") {
                format!("{b}_r")
            } else if let Some(b) = mode.strip_suffix("_r") {
                format!("{b}_l")
            } else {
                mode.to_owned()
            };
            format!("(Info (state {time} {flipped} {rest}")
        })
        .collect()
}

/// How pitchside's reversed log may read differently from `rcgreverse`'s:
/// - text and JSON: a body angle `b + 180°` computed by `rcgreverse` in `float` and printed
///   with 6 digits (-174.288 → `5.71201`, where pitchside writes `5.712`) can read one or two
///   units of binary angle away;
/// - v3: librcsc writes the ball's y velocity wrong ([`LIBRCSC_V3`]); the reference is
///   `rcgreverse` of pitchside's own v3 rewrite of the source, so that both start from the
///   same values (pitchside's model keeps v3 values at the text protocol's precision, which
///   `convert_reads_as_its_source` judges);
/// - v2: `rcgreverse` turns the body angle librcsc misreads (an unsigned 16-bit number) by
///   180°, which gives nonsense for every player facing left; angles are not compared.
fn reverse_rule(v: LogVersion) -> Rule {
    match v {
        LogVersion::V3 => LIBRCSC_V3,
        LogVersion::V2 => Rule {
            angle: f64::INFINITY,
            ..EXACT
        },
        _ => Rule {
            angle: ANGLE_UNITS,
            ..EXACT
        },
    }
}

/// How a log converted to `to` may read differently from its source, read by librcsc.
fn convert_rule(from: LogVersion, to: LogVersion) -> Rule {
    let binary_pos = |v| matches!(v, LogVersion::V1 | LogVersion::V2);
    if binary_pos(from) || binary_pos(to) {
        // v1 and v2 shows carry positions (1/16 m) and body angles (whole degrees) only, and
        // librcsc reads a negative angle of theirs as a number near 65536: positions only.
        return Rule {
            // Half a sixteenth of a metre, and the model's 0.0001 (a v3 value of 1/65536 m
            // may round either way).
            len: if binary_pos(to) && !binary_pos(from) {
                1.0 / 32.0 + 1e-4
            } else {
                0.0
            },
            only_xy: true,
            actions: false,
            ..EXACT
        };
    }
    match (from, to) {
        (LogVersion::V3, _) => MODEL,
        // Text to v3: the very integers librcsc computes, but angles and stamina pass through
        // `float` once more when librcsc reads them back, and rcg2txt prints the ball as it
        // read it (`int / 65536`, where the text had 4 decimals; six digits printed).
        (_, LogVersion::V3) => Rule {
            len: 1.5 / 65536.0,
            angle: ANGLE_UNITS,
            stamina: 1e-6,
            ..EXACT
        },
        _ => EXACT,
    }
}

/// The versions rcssserver 19 writes, which librcsc reads; the 2.5D fork's ULG7, which
/// librcsc does not read, is tested in `shared/formats/tests/ball_height.rs`.
fn targets() -> impl Iterator<Item = LogVersion> {
    LogVersion::WRITTEN
        .into_iter()
        .filter(|v| *v != LogVersion::V7)
}

fn version_arg(v: LogVersion) -> String {
    v.number().map_or_else(|| "json".into(), |n| n.to_string())
}

// ---------------------------------------------------------------------------------------
// The tests CI runs

/// The emulation reads every fixture as librcsc's `rcg2txt` does.
#[test]
fn librcsc_reading_is_reproduced_on_every_fixture() {
    let mut checked = 0;
    for (name, file) in fixture_logs() {
        let Some(golden) = read_golden(&format!("rcg2txt/{name}.gz")) else {
            continue;
        };
        check_golden(
            &name,
            &reading(&std::fs::read(file).unwrap()),
            &golden,
            EXACT,
        );
        checked += 1;
    }
    assert_eq!(checked, fixture_logs().len(), "a golden per fixture");
}

/// `reverse` reads as `rcgreverse`'s output does, apart from the play modes (which
/// `rcgreverse` forgets to flip) and what [`reverse_rule`] says.
#[test]
fn reverse_reads_as_rcgreverse() {
    let mut checked = 0;
    for (name, file) in fixture_logs() {
        let Some(golden) = read_golden(&format!("reverse/{name}.gz")) else {
            continue;
        };
        let bytes = std::fs::read(file).unwrap();
        let ours = unflip_modes(&reading(&run(&bytes, edits_reverse())));
        check_golden(
            &format!("reverse {name}"),
            &ours,
            &golden,
            reverse_rule(version_of(&bytes)),
        );
        checked += 1;
    }
    // Every fixture but the v1 logs, which rcgreverse cannot write.
    assert_eq!(checked, fixture_logs().len() - 2);
}

#[test]
fn rename_reads_as_rcgrenameteam() {
    let mut checked = 0;
    for (name, file) in fixture_logs() {
        let Some(golden) = read_golden(&format!("rename/{name}.gz")) else {
            continue;
        };
        let bytes = std::fs::read(file).unwrap();
        let ours = reading(&run(&bytes, edits_rename()));
        let rule = if version_of(&bytes) == LogVersion::V3 {
            LIBRCSC_V3
        } else {
            EXACT
        };
        check_golden(&format!("rename {name}"), &ours, &golden, rule);
        assert!(ours.last().unwrap().starts_with("(Result \"NEWLEFT\" "));
        checked += 1;
    }
    assert!(checked >= 6, "{checked}");
}

/// Every short fixture in every version: what librcsc reads from the converted log is what it
/// reads from the source, within what the target keeps ([`convert_rule`]).
#[test]
fn convert_reads_as_its_source() {
    for (name, file) in fixture_logs()
        .into_iter()
        .filter(|(n, _)| n.starts_with("short-"))
    {
        let bytes = std::fs::read(file).unwrap();
        let from = version_of(&bytes);
        let source = reading(&bytes);
        for to in targets() {
            let out = run(
                &bytes,
                Edits {
                    to: Some(to),
                    ..Edits::default()
                },
            );
            assert_eq!(version_of(&out), to, "{name} → {to}");
            let ours = reading(&out);
            assert_eq!(ours.len(), source.len(), "{name} → {to}: frames");
            let rule = convert_rule(from, to);
            for (i, (o, s)) in ours.iter().zip(&source).enumerate() {
                if let Err(e) = agree(o, s, rule) {
                    panic!(
                        "{name} → {to}: line {}: {e}\n ours:   {}\n source: {}",
                        i + 1,
                        &o[..o.len().min(300)],
                        &s[..s.len().min(300)]
                    );
                }
            }
        }
    }
}

/// A clip reads as the source's shows of its cycles, with the play mode and score in force
/// at its start; only the actions of its first show differ (rcg2txt derives them from the
/// command counts of the show before, which a clip does not have).
#[test]
fn clip_reads_as_the_cycles_of_its_source() {
    for (name, from, to) in [
        ("short-v6", 100, 250),
        ("short-v6", 268, 305),
        ("short-json", 1, 50),
        ("short-v4", 455, 600),
        ("short-v3", 200, 400),
        ("short-v2", 250, 260),
        ("short-v1", 299, 302),
        ("penalty-shootout-v6", 600, 700),
    ] {
        let bytes = fixture(name);
        let out = run(
            &bytes,
            Edits {
                clip: Some((from, to)),
                ..Edits::default()
            },
        );
        let source = reading(&bytes);
        let want: Vec<&String> = source
            .iter()
            .filter(|l| {
                l.strip_prefix("(Info (state ")
                    .and_then(|r| r.split(' ').next())
                    .and_then(|t| t.parse::<u32>().ok())
                    .is_some_and(|t| (from..=to).contains(&t))
            })
            .collect();
        let ours = reading(&out);
        assert_eq!(ours.len(), want.len() + 1, "{name} {from}..{to}: shows");
        let rule = if version_of(&bytes) == LogVersion::V3 {
            MODEL
        } else {
            EXACT
        };
        for (i, (o, w)) in ours.iter().zip(&want).enumerate() {
            let rule = Rule {
                actions: i > 0,
                ..rule
            };
            if let Err(e) = agree(o, w, rule) {
                panic!("{name} {from}..{to}: show {i}: {e}\n ours: {o}\n source: {w}");
            }
        }
    }
}

// ---------------------------------------------------------------------------------------
// validate against rcgvalidator

/// Logs broken in the ways the validator must see, made from the fixtures (the same bytes
/// when the goldens are made and when the tests run).
fn broken_logs() -> Vec<(&'static str, Vec<u8>)> {
    let short = gunzip(&fixture("short-v6"));
    let full = gunzip(&fixture("full-v6-realtime"));
    let lines =
        |b: &[u8]| -> Vec<Vec<u8>> { b.split(|c| *c == b'\n').map(<[u8]>::to_vec).collect() };
    let join = |l: &[Vec<u8>]| l.join(&b'\n');
    let find = |l: &[Vec<u8>], head: &str| {
        l.iter()
            .position(|x| x.starts_with(head.as_bytes()))
            .unwrap()
    };
    let s = lines(&short);
    let f = lines(&full);
    let mut out = Vec::new();
    // The full game cut after the show of cycle 756 (rcgvalidator's own example).
    let last_756 = f
        .iter()
        .rposition(|x| x.starts_with(b"(show 756 "))
        .unwrap();
    let mut cut = join(&f[..=last_756]);
    cut.push(b'\n');
    out.push(("cut-at-756", cut));
    // Cut in the middle of a line.
    out.push(("cut-inside-a-line", short[..short.len() / 2].to_vec()));
    // A letter in a number.
    let mut d = s.clone();
    let i = find(&d, "(show 200 ");
    d[i] = String::from_utf8(d[i].clone())
        .unwrap()
        .replacen("((b) ", "((b) x", 1)
        .into_bytes();
    out.push(("damaged", join(&d)));
    // Two shows swapped.
    let mut d = s.clone();
    let (a, b) = (find(&d, "(show 250 "), find(&d, "(show 251 "));
    d.swap(a, b);
    out.push(("out-of-order", join(&d)));
    // A show repeated in play_on.
    let mut d = s.clone();
    let a = find(&d, "(show 150 ");
    d.insert(a + 1, d[a].clone());
    out.push(("repeated", join(&d)));
    // Two shows missing.
    let d: Vec<Vec<u8>> = s
        .iter()
        .filter(|x| !x.starts_with(b"(show 420 ") && !x.starts_with(b"(show 421 "))
        .cloned()
        .collect();
    out.push(("skipped", join(&d)));
    // The right team renamed from cycle 271.
    let mut d = s.clone();
    let a = find(&d, "(team 271 ");
    d[a] = String::from_utf8(d[a].clone())
        .unwrap()
        .replacen("SHORT_R_a", "OTHER_R", 1)
        .into_bytes();
    out.push(("renamed", join(&d)));
    // The score going down.
    let mut d = s.clone();
    let a = find(&d, "(show 400 ");
    d.insert(a, b"(team 400 SHORT_L_a SHORT_R_a 0 0)".to_vec());
    out.push(("score-down", join(&d)));
    // No server_param.
    let d: Vec<Vec<u8>> = s
        .iter()
        .filter(|x| !x.starts_with(b"(server_param"))
        .cloned()
        .collect();
    out.push(("no-server-param", join(&d)));
    // A player far beyond the touch line.
    let mut d = s.clone();
    let a = find(&d, "(show 320 ");
    let line = String::from_utf8(d[a].clone()).unwrap();
    let at = line.find("((l 5) ").unwrap();
    let fields: Vec<&str> = line[at..].splitn(5, ' ').collect();
    let moved = format!(
        "{} {} {} {} -80.5 {}",
        fields[0],
        fields[1],
        fields[2],
        fields[3],
        &fields[4][fields[4].find(' ').unwrap() + 1..]
    );
    d[a] = format!("{}{moved}", &line[..at]).into_bytes();
    out.push(("off-field", join(&d)));
    out
}

/// Parses a `validate/NAME.txt` golden: rcgvalidator's exit code and its words.
fn rcgvalidator_golden(name: &str) -> Option<(i32, String)> {
    let text = std::fs::read_to_string(golden_dir().join(format!("validate/{name}.txt"))).ok()?;
    let (code, words) = text.split_once('\n').unwrap_or((&text, ""));
    Some((
        code.trim_start_matches("exit ").parse().unwrap(),
        words.to_owned(),
    ))
}

/// Everything rcgvalidator reports is reported, with its numbers.
fn reports_what_rcgvalidator_does(name: &str, v: &Validation, code: i32, words: &str) {
    let message = |k: FindingKind| {
        v.findings
            .iter()
            .find(|f| f.kind == k)
            .map(|f| f.message.clone())
    };
    if let Some(rest) = words.split("last game time: ").nth(1) {
        let line = rest.lines().next().unwrap();
        let (last, assumed) = line.split_once(" << assumed count: ").unwrap();
        let ours =
            message(FindingKind::ShortGame).unwrap_or_else(|| panic!("{name}: no short_game"));
        let want_assumed = format!("<< assumed count: {assumed}");
        assert!(ours.contains(&want_assumed), "{name}: {ours}");
        let our_last: u32 = ours["last game time: ".len()..]
            .split(' ')
            .next()
            .unwrap()
            .parse()
            .unwrap();
        let last: u32 = last.parse().unwrap();
        // rcgvalidator counts a last show cut in its middle, whose time it read.
        assert!(
            our_last == last || our_last + 1 == last,
            "{name}: {ours} vs {line}"
        );
    } else if message(FindingKind::Damaged).is_none() {
        // (After damage the validator reads no further; librcsc skips a bad line and reads
        // on, to the end of the game.)
        assert!(message(FindingKind::ShortGame).is_none(), "{name}: {v:?}");
    }
    if let Some(rest) = words.split("missing player count = ").nth(1) {
        let n = rest.split_whitespace().next().unwrap();
        let ours = message(FindingKind::MissingPlayers).unwrap();
        assert!(
            ours.contains(&format!("missing player count = {n} ")),
            "{name}: {ours}"
        );
    } else {
        let n = v
            .counts
            .iter()
            .find(|(k, _)| *k == FindingKind::MissingPlayers)
            .map_or(0, |(_, n)| *n);
        assert!(n < 10, "{name}");
    }
    // rcgvalidator fails every log it cannot read (versions 1 to 3; JSON it refuses but passes).
    if code != 0 && !words.contains("Unsupported RCG version") {
        assert!(!v.is_clean(), "{name}: rcgvalidator fails it");
    }
}

#[test]
fn validate_reports_what_rcgvalidator_does_on_every_fixture() {
    let mut checked = 0;
    for (name, file) in fixture_logs() {
        let v = validate(&std::fs::read(&file).unwrap());
        if let Some((code, words)) = rcgvalidator_golden(&name) {
            reports_what_rcgvalidator_does(&name, &v, code, &words);
            checked += 1;
        }
        // The fixtures are sound, but for the one in which an operator took players off.
        let kinds: Vec<FindingKind> = v.counts.iter().map(|(k, _)| *k).collect();
        if name == "operator-commands-v6" {
            assert_eq!(
                kinds,
                [FindingKind::MissingPlayers],
                "{name}: {:?}",
                v.findings
            );
        } else {
            assert!(v.is_clean(), "{name}: {:?}", v.findings);
        }
    }
    assert!(checked >= 13, "{checked}");
}

/// Each broken log: what rcgvalidator reports, and what it misses, with the place.
#[test]
fn validate_finds_what_rcgvalidator_misses() {
    use rcss_formats::Location::Line;
    // (kind, line, cycle) of each finding, in order.
    type Found = (FindingKind, Option<u64>, Option<u32>);
    // (log, kind, line, cycle) of each finding, the logs in the order `broken_logs` has them.
    let expect: &[(&str, FindingKind, u64, u32)] = &[
        ("cut-at-756", FindingKind::Incomplete, 959, 756),
        ("cut-at-756", FindingKind::ShortGame, 959, 756),
        ("cut-inside-a-line", FindingKind::Incomplete, 449, 279),
        ("cut-inside-a-line", FindingKind::ShortGame, 448, 279),
        ("damaged", FindingKind::Damaged, 316, 199),
        ("damaged", FindingKind::ShortGame, 315, 199),
        ("out-of-order", FindingKind::TimeBackwards, 367, 250),
        ("repeated", FindingKind::RepeatedShow, 267, 150),
        ("skipped", FindingKind::SkippedCycles, 622, 422),
        ("renamed", FindingKind::TeamRenamed, 388, 271),
        ("renamed", FindingKind::TeamRenamed, 806, 600),
        ("score-down", FindingKind::ScoreDown, 570, 400),
        ("score-down", FindingKind::ScoreWithoutGoal, 807, 600),
        ("no-server-param", FindingKind::ShortGame, 803, 600),
        ("no-server-param", FindingKind::MissingParams, 115, 1),
        ("off-field", FindingKind::OffField, 489, 320),
    ];
    let mut logs: Vec<&str> = expect.iter().map(|e| e.0).collect();
    logs.dedup();
    let broken = broken_logs();
    assert_eq!(broken.len(), logs.len());
    for ((name, bytes), want_name) in broken.iter().zip(logs) {
        assert_eq!(*name, want_name);
        let want: Vec<Found> = expect
            .iter()
            .filter(|e| e.0 == want_name)
            .map(|&(_, kind, line, cycle)| (kind, Some(line), Some(cycle)))
            .collect();
        let v = validate(bytes);
        let got: Vec<Found> = v
            .findings
            .iter()
            .map(|f| {
                let line = match f.at {
                    Some(Line(l)) => Some(l),
                    _ => None,
                };
                (f.kind, line, f.cycle)
            })
            .collect();
        assert_eq!(got, want, "{name}: {:#?}", v.findings);
        if let Some((code, words)) = rcgvalidator_golden(name) {
            reports_what_rcgvalidator_does(name, &v, code, &words);
        }
    }
}

// ---------------------------------------------------------------------------------------
// Making the goldens, with librcsc

/// The librcsc installation named by `PITCHSIDE_LIBRCSC`, if any.
fn librcsc() -> Option<PathBuf> {
    std::env::var_os("PITCHSIDE_LIBRCSC").map(PathBuf::from)
}

/// Runs librcsc's `tool`; returns (exit code, stdout, stderr).
fn run_librcsc(root: &Path, tool: &str, args: &[&std::ffi::OsStr]) -> (i32, String, String) {
    let out = Command::new(root.join("bin").join(tool))
        .args(args)
        .env("LD_LIBRARY_PATH", root.join("lib"))
        .output()
        .unwrap_or_else(|e| panic!("{tool}: {e}"));
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn scratch(name: &str) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("pitchside-logtools-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn write_golden(rel: &str, text: &str) {
    let p = golden_dir().join(rel);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, gzip(text)).unwrap();
}

/// The real `rcg2txt` of a file pitchside wrote is what the emulation says.
fn real_reading_is_emulated(root: &Path, what: &str, file: &Path) -> String {
    let (_, real, _) = run_librcsc(root, "rcg2txt", &[file.as_os_str()]);
    let emulated = rcg2txt::rcg2txt(&std::fs::read(file).unwrap());
    if real != emulated {
        let (r, e): (Vec<&str>, Vec<&str>) = (real.lines().collect(), emulated.lines().collect());
        let i = r
            .iter()
            .zip(&e)
            .position(|(a, b)| a != b)
            .unwrap_or(r.len().min(e.len()));
        panic!(
            "{what}: the emulation of rcg2txt differs at line {}\n real: {}\n emul: {}",
            i + 1,
            r.get(i).map_or("", |l| &l[..l.len().min(300)]),
            e.get(i).map_or("", |l| &l[..l.len().min(300)])
        );
    }
    real
}

/// The file librcsc's tools start from: the fixture, or for a v3 log pitchside's own rewrite
/// of it, whose values are those pitchside's model keeps (see [`reverse_rule`]).
fn same_values(tmp: &Path, name: &str, file: &Path, bytes: &[u8], version: LogVersion) -> PathBuf {
    if version != LogVersion::V3 {
        return file.to_path_buf();
    }
    let p = tmp.join(format!("{name}.rewritten.rcg"));
    std::fs::write(&p, run(bytes, Edits::default())).unwrap();
    p
}

/// Remakes every golden of this file from librcsc, and checks the emulation on every file
/// pitchside writes in these tests.
#[test]
#[ignore = "needs librcsc: PITCHSIDE_LIBRCSC=/path/to/librcsc/install"]
fn goldens_from_librcsc() {
    let Some(root) = librcsc() else {
        eprintln!("PITCHSIDE_LIBRCSC is not set: nothing done");
        return;
    };
    let tmp = scratch("goldens");
    let mut summary = Vec::new();
    for (name, file) in fixture_logs() {
        let bytes = std::fs::read(&file).unwrap();
        let version = version_of(&bytes);
        // rcg2txt of the fixture.
        let (_, real, _) = run_librcsc(&root, "rcg2txt", &[file.as_os_str()]);
        let ours = reading(&bytes);
        let golden = encode_golden(&ours, &real, EXACT);
        assert!(
            golden.lines().all(|l| l.starts_with("= ")),
            "{name}: the emulation differs"
        );
        write_golden(&format!("rcg2txt/{name}.gz"), &golden);

        // rcgvalidator.
        let (code, _, err) = run_librcsc(&root, "rcgvalidator", &[file.as_os_str()]);
        let words: String = err
            .lines()
            .filter(|l| !l.contains("Parser::create"))
            .map(|l| format!("{l}\n"))
            .collect();
        std::fs::create_dir_all(golden_dir().join("validate")).unwrap();
        std::fs::write(
            golden_dir().join(format!("validate/{name}.txt")),
            format!("exit {code}\n{words}"),
        )
        .unwrap();

        // reverse: rcgreverse of the fixture, or, for JSON (rcgreverse writes a JSON log
        // librcsc cannot read: its team graphics' side is a byte that is not UTF-8), of its
        // conversion to ULG6 by rcgverconv, which librcsc reads as the JSON log. rcgreverse
        // cannot write v1 logs (its reader announces version 2 at every record, and it
        // writes a new header each time).
        let ours_file = tmp.join(format!("{name}.reverse.rcg"));
        std::fs::write(&ours_file, run(&bytes, edits_reverse())).unwrap();
        let ours_reading = real_reading_is_emulated(&root, &format!("{name} reverse"), &ours_file);
        if version != LogVersion::V1 {
            let source = if version.is_json() {
                let v6 = tmp.join(format!("{name}.v6.rcg"));
                run_librcsc(
                    &root,
                    "rcgverconv",
                    &[
                        file.as_os_str(),
                        "-o".as_ref(),
                        v6.as_os_str(),
                        "-v".as_ref(),
                        "6".as_ref(),
                    ],
                );
                v6
            } else {
                same_values(&tmp, &name, &file, &bytes, version)
            };
            let lib = tmp.join(format!("{name}.rcgreverse.rcg"));
            run_librcsc(&root, "rcgreverse", &[source.as_os_str(), lib.as_os_str()]);
            let (_, theirs, _) = run_librcsc(&root, "rcg2txt", &[lib.as_os_str()]);
            let ours: Vec<String> =
                unflip_modes(&ours_reading.lines().map(str::to_owned).collect::<Vec<_>>());
            let golden = encode_golden(&ours, &theirs, reverse_rule(version));
            write_golden(&format!("reverse/{name}.gz"), &golden);
            let judged = check_golden(
                &format!("reverse {name}"),
                &ours,
                &golden,
                reverse_rule(version),
            );
            summary.push(format!(
                "reverse {name}: {} lines, {judged} within the rule",
                ours.len()
            ));
        }

        // rename: rcgrenameteam of the short fixtures it can read and write (not v1).
        if name.starts_with("short-") && version != LogVersion::V1 {
            let ours_file = tmp.join(format!("{name}.rename.rcg"));
            std::fs::write(&ours_file, run(&bytes, edits_rename())).unwrap();
            let ours_reading =
                real_reading_is_emulated(&root, &format!("{name} rename"), &ours_file);
            let lib = tmp.join(format!("{name}.rcgrenameteam.rcg"));
            let source = same_values(&tmp, &name, &file, &bytes, version);
            run_librcsc(
                &root,
                "rcgrenameteam",
                &[
                    source.as_os_str(),
                    "--left".as_ref(),
                    NEW_LEFT.as_ref(),
                    "-o".as_ref(),
                    lib.as_os_str(),
                ],
            );
            let (_, theirs, _) = run_librcsc(&root, "rcg2txt", &[lib.as_os_str()]);
            let ours: Vec<String> = ours_reading.lines().map(str::to_owned).collect();
            let rule = if version == LogVersion::V3 {
                LIBRCSC_V3
            } else {
                EXACT
            };
            let golden = encode_golden(&ours, &theirs, rule);
            write_golden(&format!("rename/{name}.gz"), &golden);
            let judged = check_golden(&format!("rename {name}"), &ours, &golden, rule);
            summary.push(format!(
                "rename {name}: {} lines, {judged} within the rule",
                ours.len()
            ));
        }

        // convert: every short fixture in every version, read by the real rcg2txt too; and
        // beside it, what rcgverconv's output reads as (for the record, not a golden).
        if name.starts_with("short-") {
            for to in targets() {
                let out = tmp.join(format!("{name}.to-{}.rcg", version_arg(to)));
                std::fs::write(
                    &out,
                    run(
                        &bytes,
                        Edits {
                            to: Some(to),
                            ..Edits::default()
                        },
                    ),
                )
                .unwrap();
                real_reading_is_emulated(&root, &format!("{name} → {to}"), &out);
                let lib = tmp.join(format!("{name}.rcgverconv-{}.rcg", version_arg(to)));
                let (_, _, _) = run_librcsc(
                    &root,
                    "rcgverconv",
                    &[
                        file.as_os_str(),
                        "-o".as_ref(),
                        lib.as_os_str(),
                        "-v".as_ref(),
                        version_arg(to).as_ref(),
                    ],
                );
                let (_, theirs, _) = run_librcsc(&root, "rcg2txt", &[lib.as_os_str()]);
                let ours = reading(&std::fs::read(&out).unwrap());
                let same = theirs.lines().zip(&ours).filter(|(a, b)| a == b).count();
                summary.push(format!(
                    "convert {name} → {to}: {} lines; rcgverconv's output reads the same on {same} of {}",
                    ours.len(),
                    theirs.lines().count()
                ));
            }
            for (from, to) in [(1, 100), (250, 320), (580, 600)] {
                let out = tmp.join(format!("{name}.clip-{from}-{to}.rcg"));
                std::fs::write(
                    &out,
                    run(
                        &bytes,
                        Edits {
                            clip: Some((from, to)),
                            ..Edits::default()
                        },
                    ),
                )
                .unwrap();
                real_reading_is_emulated(&root, &format!("{name} clip {from}..{to}"), &out);
            }
        }
    }
    for (name, bytes) in broken_logs() {
        let f = tmp.join(format!("{name}.rcg"));
        std::fs::write(&f, &bytes).unwrap();
        let (code, _, err) = run_librcsc(&root, "rcgvalidator", &[f.as_os_str()]);
        let words: String = err
            .lines()
            .filter(|l| !l.contains("Parser::create"))
            .map(|l| format!("{}\n", &l[..l.len().min(200)]))
            .collect();
        std::fs::write(
            golden_dir().join(format!("validate/{name}.txt")),
            format!("exit {code}\n{words}"),
        )
        .unwrap();
        summary.push(format!(
            "rcgvalidator {name}: exit {code}: {}",
            words.lines().next().unwrap_or("")
        ));
    }
    let head = "# What the goldens of this folder were made from (goldens_from_librcsc, tests/tests/log_tools.rs):\n\
        # per case, the lines rcg2txt prints and how many the comparison judged by its rule\n\
        # rather than by digest; for convert, how many lines of rcgverconv's own output read as\n\
        # pitchside's (a record only: converted logs are judged against their source).\n";
    std::fs::write(
        golden_dir().join("summary.txt"),
        format!("{head}{}\n", summary.join("\n")),
    )
    .unwrap();
    let _ = std::fs::remove_dir_all(&tmp);
}
