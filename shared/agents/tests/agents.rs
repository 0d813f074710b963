//! The agents' own files of a real game (`tests/fixtures/agents/agents-100`: rcssserver 19 and
//! helios-base, every player's librcsc debug log and debug-client log, the server's message
//! log, live debug-client datagrams), read as the page reads them.
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test

use pitchside_fixtures as common;

use pitchside_agents::commands::{self, Sender};
use pitchside_agents::debuglog::{self, Item};
use pitchside_agents::drawing::Shape;
use pitchside_agents::files::{parse_name, Owner};
use pitchside_agents::index::{FileKind, Index, Indexer};
use pitchside_agents::worldmodel::{self, Who};
use pitchside_agents::Time;
use rcss_formats::{parse_log, Side};
use std::collections::{BTreeMap, HashMap};

const DIR: &str = "agents/agents-100";
const RCG: &str = "agents/agents-100/20261125140048-HELIOS_A_0-vs-HELIOS_B_0.rcg.gz";
const RCL: &str = "agents/agents-100/20261125140048-HELIOS_A_0-vs-HELIOS_B_0.rcl.gz";

/// Every agent file of the game: (name, kind, owner, bytes).
fn agent_files() -> Vec<(String, FileKind, Owner, Vec<u8>)> {
    let dir = common::path(&format!("{DIR}/agent-logs"));
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    let mut out: Vec<_> = names
        .into_iter()
        .map(|n| {
            let named = parse_name(&n).unwrap_or_else(|e| panic!("{n}: {e}"));
            assert!(named.gzipped);
            let bytes = common::read(&format!("{DIR}/agent-logs/{n}"));
            (n, named.kind, named.owner, bytes)
        })
        .collect();
    let named = parse_name(RCL).unwrap();
    out.push((RCL.into(), named.kind, named.owner, common::read(RCL)));
    out
}

/// Fails naming the file and its first three errors, if it has any.
fn assert_no_errors<E: std::fmt::Debug>(name: &str, errors: &[E]) {
    assert!(
        errors.is_empty(),
        "{name}: {:?}",
        &errors[..errors.len().min(3)]
    );
}

/// How many lines of `bytes` pass `keep`.
fn count_lines(bytes: &[u8], keep: impl Fn(&[u8]) -> bool) -> usize {
    bytes.split(|&b| b == b'\n').filter(|l| keep(l)).count()
}

fn index(kind: FileKind, bytes: &[u8], chunk: usize) -> Index {
    let mut ix = Indexer::new(kind);
    for c in bytes.chunks(chunk) {
        ix.push(c);
    }
    ix.finish()
}

#[test]
fn every_file_is_paired_by_its_name() {
    let files = agent_files();
    // 22 players and 2 coaches, a .log and a .dcl each, and the server's .rcl.
    assert_eq!(files.len(), 49);
    let players = files
        .iter()
        .filter(|f| matches!(f.2, Owner::Player { .. }))
        .count();
    assert_eq!(players, 44);
    assert!(files.iter().any(|f| f.2
        == Owner::Coach {
            team: "HELIOS_B".into()
        }
        && f.1 == FileKind::WorldModel));
}

#[test]
fn every_line_of_every_debug_log_is_read() {
    let mut kinds: BTreeMap<String, usize> = BTreeMap::new();
    let mut levels = 0u32;
    for (name, kind, _, bytes) in agent_files() {
        if kind != FileKind::DebugLog {
            continue;
        }
        let (entries, errors) = debuglog::decode(&bytes, 1);
        assert_no_errors(&name, &errors);
        // One entry per line that starts with a time; helios-base's messages have no newlines.
        let lines = count_lines(&bytes, |l| !l.is_empty());
        assert_eq!(entries.len(), lines, "{name}");
        for (e, line) in entries.iter().zip(bytes.split(|&b| b == b'\n')) {
            let k =
                String::from_utf8_lossy(line.split(|&b| b == b' ').nth(2).unwrap()).into_owned();
            let expect = match &e.item {
                Item::Message(_) => "M",
                Item::Drawing(d) => match d.shape {
                    Shape::Circle { filled: false, .. } => "c",
                    Shape::Line(..) => "l",
                    Shape::Text { .. } => "m",
                    _ => "other",
                },
            };
            assert_eq!(k, expect, "{name}: {}", String::from_utf8_lossy(line));
            *kinds.entry(k).or_default() += 1;
            levels |= e.level;
        }
    }
    // What helios-base draws with these switches: messages, circles, lines, text.
    assert!(kinds["M"] > 100_000, "{kinds:?}");
    assert!(
        kinds["c"] > 10_000 && kinds["l"] > 100 && kinds["m"] > 100,
        "{kinds:?}"
    );
    // The categories turned on by the switches are there (world, action, kick, team…).
    for bit in [0x4, 0x8, 0x20, 0x10000] {
        assert!(levels & bit != 0, "{levels:#x} lacks {bit:#x}");
    }
}

#[test]
fn every_world_model_and_command_is_read() {
    for (name, kind, owner, bytes) in agent_files() {
        match kind {
            FileKind::WorldModel => {
                let (wms, errors) = worldmodel::decode(&bytes, 1);
                assert_no_errors(&name, &errors);
                let records = count_lines(&bytes, |l| l.starts_with(b"%% debug ["));
                assert_eq!(wms.len(), records, "{name}");
                assert!(records > 90, "{name}: {records}");
                match owner {
                    Owner::Player { team, unum } => {
                        let side = if team == "HELIOS_A" {
                            Side::Left
                        } else {
                            Side::Right
                        };
                        let with_me = wms.iter().filter(|w| w.me.is_some()).count();
                        assert!(with_me * 10 > wms.len() * 9, "{name}");
                        for w in &wms {
                            if let Some(me) = &w.me {
                                assert_eq!((me.side, me.unum), (side, unum), "{name}");
                            }
                        }
                        assert!(wms.iter().any(|w| w.ball.is_some()));
                        assert!(wms
                            .iter()
                            .any(|w| w.players.iter().any(|p| matches!(p.who, Who::Teammate(_)))));
                    }
                    Owner::Coach { .. } => assert!(wms.iter().all(|w| w.coach.is_some())),
                    Owner::Server => unreachable!(),
                }
            }
            FileKind::Commands => {
                let (entries, errors) = commands::decode(&bytes, 1);
                assert_no_errors(&name, &errors);
                let lines = count_lines(&bytes, |l| !l.is_empty());
                assert_eq!(entries.len(), lines);
                // Every player sent commands, and dashes, turns and kicks among them.
                let mut per: HashMap<(String, u8), usize> = HashMap::new();
                let mut names: HashMap<String, usize> = HashMap::new();
                for e in &entries {
                    if let Sender::Player { team, unum } = &e.sender {
                        *per.entry((team.clone(), *unum)).or_default() += 1;
                        for n in e.names() {
                            *names.entry(n.to_string()).or_default() += 1;
                        }
                    }
                }
                assert_eq!(per.len(), 22, "{per:?}");
                for c in ["dash", "turn", "turn_neck", "kick", "init"] {
                    assert!(names.get(c).copied().unwrap_or(0) > 0, "{c}: {names:?}");
                }
                let referee: Vec<&str> = entries
                    .iter()
                    .filter(|e| e.sender == Sender::Referee)
                    .map(|e| e.commands[0].as_str())
                    .collect();
                assert_eq!(
                    referee,
                    vec!["kick_off_l", "play_on", "time_up", "time_over"]
                );
            }
            FileKind::DebugLog => {}
        }
    }
}

#[test]
fn the_index_cuts_every_file_into_its_times_whatever_the_chunks() {
    for (name, kind, _, bytes) in agent_files() {
        let whole = index(kind, &bytes, bytes.len());
        for chunk in [65536, 4093, 61] {
            assert_eq!(index(kind, &bytes, chunk), whole, "{name}, chunk {chunk}");
        }
        assert_eq!(whole.bad_lines, 0, "{name}");
        assert_eq!(whole.bytes, bytes.len() as u64);
        // The spans cover the file end to end, in order.
        assert_eq!(whole.spans[0].start, 0, "{name}");
        for w in whole.spans.windows(2) {
            assert_eq!(w[0].end, w[1].start, "{name}");
        }
        assert_eq!(whole.spans.last().unwrap().end, bytes.len() as u64);
        for s in &whole.spans {
            assert!(
                whole.at(s.time).any(|a| a == s),
                "{name}: {} not found",
                s.time
            );
        }
        // Each span decodes to its own time only, and the line numbers run on.
        for s in &whole.spans {
            let text = &bytes[s.start as usize..s.end as usize];
            let lines_before = bytes[..s.start as usize]
                .iter()
                .filter(|&&b| b == b'\n')
                .count() as u64;
            assert_eq!(s.first_line, lines_before + 1, "{name}");
            match kind {
                FileKind::DebugLog => {
                    let (e, errs) = debuglog::decode(text, s.first_line);
                    assert!(errs.is_empty() && !e.is_empty());
                    assert!(e.iter().all(|e| e.time == s.time), "{name} {}", s.time);
                }
                FileKind::WorldModel => {
                    let (w, errs) = worldmodel::decode(text, s.first_line);
                    assert!(errs.is_empty() && !w.is_empty());
                    assert!(w.iter().all(|w| w.time == s.time), "{name} {}", s.time);
                }
                FileKind::Commands => {
                    let (e, errs) = commands::decode(text, s.first_line);
                    assert!(errs.is_empty() && !e.is_empty());
                    assert!(e.iter().all(|e| e.time == s.time), "{name} {}", s.time);
                }
            }
        }
        // What the page keeps is a small fraction of the file.
        assert!(
            whole.heap_bytes() * 10 < bytes.len(),
            "{name}: {} of {}",
            whole.heap_bytes(),
            bytes.len()
        );
    }
}

/// The game's frames by game time: a cycle's first show has STOPPED 0, each repeat of it
/// while the clock stands still one more, as agents count.
fn frames_by_time() -> (rcss_formats::Match, HashMap<Time, usize>) {
    let m = parse_log(&common::read(RCG));
    assert!(m.error.is_none(), "{:?}", m.error);
    let mut at = HashMap::new();
    let mut last: Option<(u32, u32)> = None;
    for (i, f) in m.frames.iter().enumerate() {
        let stopped = match last {
            Some((c, s)) if c == f.time => s + 1,
            _ => 0,
        };
        last = Some((f.time, stopped));
        at.insert(
            Time {
                cycle: f.time,
                stopped,
            },
            i,
        );
    }
    (m, at)
}

#[test]
fn agents_believe_themselves_where_the_server_put_them_once_their_frame_is_turned() {
    let (game, at) = frames_by_time();
    for (name, side) in [
        ("HELIOS_A-7.dcl.gz", Side::Left),
        ("HELIOS_B-7.dcl.gz", Side::Right),
        ("HELIOS_B-10.dcl.gz", Side::Right),
    ] {
        let bytes = common::read(&format!("{DIR}/agent-logs/{name}"));
        let (wms, _) = worldmodel::decode(&bytes, 1);
        let mut errors = Vec::new();
        let mut unmatched = 0;
        for w in &wms {
            let Some(me) = &w.me else { continue };
            if w.time.cycle == 0 {
                continue;
            }
            let Some(&i) = at.get(&w.time) else {
                unmatched += 1;
                continue;
            };
            let truth = game.frames[i]
                .players
                .iter()
                .find(|p| p.side == Some(side) && p.unum == me.unum)
                .unwrap();
            // librcsc turns the field so that its team plays to the right.
            let (x, y) = match side {
                Side::Left => me.pos,
                Side::Right => (-me.pos.0, -me.pos.1),
            };
            errors.push((x - f64::from(truth.x)).hypot(y - f64::from(truth.y)));
        }
        // Nearly every time an agent wrote is a frame of the game.
        assert!(
            unmatched * 20 < errors.len(),
            "{name}: {unmatched} of {}",
            errors.len()
        );
        errors.sort_by(f64::total_cmp);
        let median = errors[errors.len() / 2];
        let p90 = errors[errors.len() * 9 / 10];
        assert!(
            median < 0.5 && p90 < 1.5,
            "{name}: median {median:.2} m, p90 {p90:.2} m over {}",
            errors.len()
        );
    }
}

#[test]
fn live_datagrams_are_the_world_models_the_files_hold() {
    let mut by_who: HashMap<String, Vec<Time>> = HashMap::new();
    // Whole datagrams, every one (a capture cut off inside one fails to read).
    for d in &common::capture(&format!("{DIR}/debug-client.dgrams.gz")) {
        assert_eq!(d.last(), Some(&0), "each datagram ends with a NUL");
        let w = worldmodel::parse_message(d)
            .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(d)));
        let who = match (&w.me, w.coach) {
            (Some(me), _) => format!("{}{}", me.side.letter(), me.unum),
            (None, Some(s)) => format!("{}c", s.letter()),
            // Before its position is known a player sends no self.
            (None, None) => continue,
        };
        by_who.entry(who).or_default().push(w.time);
    }
    let mut who: Vec<_> = by_who.keys().cloned().collect();
    who.sort();
    assert_eq!(who, vec!["l7", "lc", "r7"]);
    for (w, times) in &by_who {
        assert!(times.windows(2).all(|t| t[0] <= t[1]), "{w}: times go back");
        assert!(times.len() > 90, "{w}");
    }
    // The file of the left 7 holds a record for each time it sent after kick-off.
    let file = common::read(&format!("{DIR}/agent-logs/HELIOS_A-7.dcl.gz"));
    let ix = index(FileKind::WorldModel, &file, file.len());
    let sent: Vec<&Time> = by_who["l7"].iter().filter(|t| t.cycle > 0).collect();
    let found = sent.iter().filter(|t| ix.at(***t).next().is_some()).count();
    assert!(found * 10 > sent.len() * 9, "{found} of {}", sent.len());
}

#[test]
fn damaged_lines_are_named_by_number_and_the_rest_is_read() {
    let bytes = common::read(&format!("{DIR}/agent-logs/HELIOS_B-7.log.gz"));
    let lines: Vec<&[u8]> = bytes
        .split(|&b| b == b'\n')
        .filter(|l| !l.is_empty())
        .collect();
    // Every 97th line gets a level that is not a number.
    let mut damaged = Vec::new();
    let mut text = Vec::new();
    for (i, l) in lines.iter().enumerate() {
        if i % 97 == 5 {
            let mut parts = l.splitn(3, |&b| b == b' ');
            let time = parts.next().unwrap();
            parts.next();
            text.extend_from_slice(time);
            text.extend_from_slice(b" LEVEL ");
            text.extend_from_slice(parts.next().unwrap_or(b""));
            damaged.push(i as u64 + 1);
        } else {
            text.extend_from_slice(l);
        }
        text.push(b'\n');
    }
    let (entries, errors) = debuglog::decode(&text, 1);
    assert_eq!(errors.iter().map(|e| e.line).collect::<Vec<_>>(), damaged);
    assert!(
        errors[0]
            .to_string()
            .contains("expected a level number, found \"LEVEL\""),
        "{}",
        errors[0]
    );
    assert_eq!(entries.len() + damaged.len(), lines.len());

    // A world-model file cut in the middle of a record: every record before it is read.
    let dcl = common::read(&format!("{DIR}/agent-logs/HELIOS_A-7.dcl.gz"));
    let cut = &dcl[..dcl.len() / 2];
    let (wms, errors) = worldmodel::decode(cut, 1);
    let whole_records = count_lines(cut, |l| l.starts_with(b"%% debug [") && l.ends_with(b"]"));
    assert_eq!(wms.len(), whole_records);
    assert!(errors.len() <= 1, "{errors:?}");
}
