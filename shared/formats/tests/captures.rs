//! Every datagram of every real monitor capture decodes, and to what the capture's own event
//! index (`.tsv`, written by the capture client, not by this library) says it is: the kind, the
//! compression, and for shows the game time. Then the facts each capture was made to show.
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test

use pitchside_fixtures as common;

use rcss_formats::datagram::{inflate, is_zlib, parse_datagram, Datagram};
use rcss_formats::{state, Frame, PlayMode, Record, Side};
use std::io::Read;
use std::path::{Path, PathBuf};

/// One received datagram as the capture index describes it.
#[derive(Debug)]
struct Event {
    /// `show`, `msg`, `bin_show`, … without the `zlib:` prefix.
    kind: String,
    zlib: bool,
    summary: String,
}

fn gunzip(path: &Path) -> Vec<u8> {
    let raw = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut out = Vec::new();
    flate2::read::GzDecoder::new(&raw[..])
        .read_to_end(&mut out)
        .unwrap();
    out
}

fn captures_dir() -> PathBuf {
    common::path("captures")
}

/// Every `NAME.dgrams.gz` that has a `NAME.tsv.gz` index beside it, as `dir/NAME`.
fn indexed_captures() -> Vec<String> {
    let mut out = Vec::new();
    for dir in std::fs::read_dir(captures_dir()).unwrap() {
        let dir = dir.unwrap().path();
        for f in std::fs::read_dir(&dir).unwrap() {
            let name = f.unwrap().file_name().into_string().unwrap();
            if let Some(stem) = name.strip_suffix(".dgrams.gz") {
                if dir.join(format!("{stem}.tsv.gz")).is_file() {
                    let d = dir.file_name().unwrap().to_string_lossy().into_owned();
                    out.push(format!("{d}/{stem}"));
                }
            }
        }
    }
    out.sort();
    out
}

fn datagrams(capture: &str) -> Vec<Vec<u8>> {
    common::capture(&format!("captures/{capture}.dgrams.gz"))
}

fn events(capture: &str) -> (Vec<Event>, Vec<String>) {
    let text = gunzip(&captures_dir().join(format!("{capture}.tsv.gz")));
    let text = String::from_utf8(text).unwrap();
    let mut recv = Vec::new();
    let mut sent = Vec::new();
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        let cols: Vec<&str> = line.splitn(7, '\t').collect();
        assert_eq!(cols.len(), 7, "{capture}: {line}");
        match cols[2] {
            "recv" => {
                let (zlib, kind) = match cols[5].strip_prefix("zlib:") {
                    Some(k) => (true, k),
                    None => (false, cols[5]),
                };
                recv.push(Event {
                    kind: kind.to_owned(),
                    zlib,
                    summary: cols[6].to_owned(),
                });
            }
            "sent" => sent.push(cols[6].to_owned()),
            other => panic!("{capture}: direction {other}"),
        }
    }
    (recv, sent)
}

/// The records of one datagram; panics with the capture and index if it does not decode.
fn records(capture: &str, i: usize, raw: &[u8]) -> Datagram {
    parse_datagram(raw).unwrap_or_else(|e| panic!("{capture} datagram {i}: {e}"))
}

/// The game time the capture client wrote in its summary of a show.
fn summary_time(summary: &str) -> Option<u32> {
    let digits = |s: &str| -> Option<u32> {
        s.chars()
            .take_while(char::is_ascii_digit)
            .collect::<String>()
            .parse()
            .ok()
    };
    if let Some(rest) = summary.strip_prefix("(show ") {
        return digits(rest);
    }
    if let Some(rest) = summary.strip_prefix("{\"show\":{\"time\":") {
        return digits(rest);
    }
    summary.strip_prefix("time=").and_then(digits)
}

#[test]
fn every_datagram_is_what_the_capture_index_says() {
    let captures = indexed_captures();
    assert!(captures.len() >= 20, "captures found: {captures:?}");
    for capture in &captures {
        let dgrams = datagrams(capture);
        let (events, _) = events(capture);
        assert_eq!(
            dgrams.len(),
            events.len(),
            "{capture}: index and data agree"
        );
        for (i, (raw, ev)) in dgrams.iter().zip(&events).enumerate() {
            let at = format!("{capture} datagram {i} ({})", ev.kind);
            assert_eq!(is_zlib(raw), ev.zlib, "{at}: compression");
            let decoded = records(capture, i, raw);
            let recs = match decoded {
                Datagram::ServerError(e) => {
                    assert_eq!(ev.kind, "error", "{at}");
                    assert_eq!(format!("(error {e})"), ev.summary, "{at}");
                    continue;
                }
                Datagram::Records(r) => r,
            };
            let first = recs.first().unwrap_or_else(|| panic!("{at}: no record"));
            let ok = match ev.kind.as_str() {
                "show" | "bin_show" => matches!(first, Record::Show(_)),
                "msg" | "bin_msg" => matches!(first, Record::Msg(_)),
                "team_graphic" => recs.iter().any(|r| matches!(r, Record::TeamGraphic(_))),
                "server_param" | "bin_server_param" => matches!(first, Record::ServerParam(_)),
                "player_param" | "bin_player_param" => matches!(first, Record::PlayerParam(_)),
                "player_type" | "bin_player_type" => matches!(first, Record::PlayerType(_)),
                other => panic!("{at}: unknown kind {other}"),
            };
            assert!(ok, "{at}: decoded as {first:?}");
            if let Record::Show(f) = first {
                assert_eq!(f.players.len(), 22, "{at}");
                if let Some(t) = summary_time(&ev.summary) {
                    assert_eq!(f.time, t, "{at}: time");
                }
            }
        }
    }
}

fn shows(capture: &str) -> Vec<Frame> {
    datagrams(capture)
        .iter()
        .enumerate()
        .filter_map(|(i, raw)| match records(capture, i, raw) {
            Datagram::Records(mut r) => match r.swap_remove(0) {
                Record::Show(f) => Some(f),
                _ => None,
            },
            Datagram::ServerError(_) => None,
        })
        .collect()
}

fn msgs(capture: &str) -> Vec<String> {
    datagrams(capture)
        .iter()
        .enumerate()
        .flat_map(|(i, raw)| match records(capture, i, raw) {
            Datagram::Records(r) => r,
            Datagram::ServerError(_) => Vec::new(),
        })
        .filter_map(|r| match r {
            Record::Msg(m) => Some(m.text_lossy()),
            _ => None,
        })
        .collect()
}

/// The show format a text datagram was written in, read from its raw text: v5 writes a focus
/// point, v4 four stamina values, v3 three.
fn raw_shape(raw: &[u8]) -> u8 {
    let text = String::from_utf8_lossy(raw);
    if text.contains("(fp ") {
        return 5;
    }
    let s = text.find("(s ").unwrap();
    let fields = text[s + 3..].split(')').next().unwrap().split(' ').count();
    if fields == 4 {
        4
    } else {
        3
    }
}

/// The show format as the parser understood it.
fn parsed_shape(f: &Frame) -> u8 {
    let p = &f.players[0];
    let counts = p.counts.unwrap().len;
    match (
        p.focus.is_some(),
        p.stamina.unwrap().capacity.is_some(),
        counts,
    ) {
        (true, true, 12) => 5,
        (false, true, 11) => 4,
        (false, false, 11) => 3,
        other => panic!("time {}: unexpected player shape {other:?}", f.time),
    }
}

/// A v4 monitor connected beside v3 and v5 monitors receives a random mix of all three show
/// formats (the server shares one show cache between text versions): each must be read as
/// what it is.
#[test]
fn mixed_show_formats_are_each_read_in_their_own_shape() {
    let capture = "F1/v4-mixed-with-v3-v5-monitors";
    let mut seen = [0usize; 6];
    for (i, raw) in datagrams(capture).iter().enumerate() {
        if !raw.starts_with(b"(show ") {
            continue;
        }
        let Datagram::Records(r) = records(capture, i, raw) else {
            panic!("datagram {i}: an error")
        };
        let Record::Show(f) = &r[0] else {
            panic!("datagram {i}: not a show")
        };
        let shape = raw_shape(raw);
        assert_eq!(parsed_shape(f), shape, "datagram {i}");
        seen[usize::from(shape)] += 1;
    }
    assert_eq!(seen.iter().sum::<usize>(), 305);
    assert!(
        seen[3] > 0 && seen[4] > 0 && seen[5] > 0,
        "all three formats occur: {seen:?}"
    );
    for (capture, shape) in [("F1/v3-clean", 3), ("F1/v4-clean", 4), ("F1/v5-clean", 5)] {
        let s = shows(capture);
        assert!(!s.is_empty());
        assert!(s.iter().all(|f| parsed_shape(f) == shape), "{capture}");
    }
}

/// The end of the real-time game: 100 time-over shows at cycle 6000 (one per cycle of
/// `game_over_wait`), with the final score.
#[test]
fn the_game_ends_with_time_over_shows_and_the_final_score() {
    let s = shows("F1/v5-game-end");
    let over: Vec<_> = s.iter().filter(|f| f.mode == PlayMode::TIME_OVER).collect();
    assert_eq!(over.len(), 100);
    assert!(over.iter().all(|f| f.time == 6000));
    let last = s.last().unwrap();
    assert_eq!(last.teams[0].name.as_deref(), Some("HELIOS_L"));
    assert_eq!((last.teams[0].score, last.teams[1].score), (2, 3));
    assert!(
        s.windows(2).all(|w| w[0].time <= w[1].time),
        "time never runs back"
    );
}

fn player(f: &Frame, side: Side, unum: u8) -> &rcss_formats::Player {
    f.players
        .iter()
        .find(|p| p.side == Some(side) && p.unum == unum)
        .unwrap()
}

/// What the operator's commands did, as the shows after them tell it.
#[test]
fn operator_commands_show_up_in_the_frames() {
    let capture = "OPa/v5-operator";
    let (_, sent) = events(capture);
    assert!(
        sent.contains(&"(dispfoul 320 160 1)".to_owned()),
        "{sent:?}"
    );
    let s = shows(capture);
    let named = |name: &str| PlayMode::from_name(name.as_bytes()).unwrap();
    // (dispfoul 320 160 1): free kick left at (20, 10), positions being metres × 16.
    assert!(s
        .iter()
        .any(|f| f.mode == named("free_kick_l") && (f.ball.x, f.ball.y) == (20.0, 10.0)));
    assert!(s
        .iter()
        .any(|f| f.mode == named("free_kick_r") && (f.ball.x, f.ball.y) == (-30.0, -10.0)));
    // (dispfoul 8000 8000 -1) is clamped to the corner of the pitch.
    assert!(s
        .iter()
        .any(|f| f.mode == named("free_kick_r") && (f.ball.x, f.ball.y) == (52.5, 34.0)));
    // Cards: a yellow for l5, then a second yellow that sends him off; a red for r7.
    let l5: Vec<u32> = s.iter().map(|f| player(f, Side::Left, 5).state).collect();
    let first_yellow = l5
        .iter()
        .position(|st| st & state::YELLOW_CARD != 0)
        .unwrap();
    assert!(l5[first_yellow..]
        .iter()
        .any(|st| st & state::RED_CARD != 0));
    assert!(s
        .iter()
        .any(|f| player(f, Side::Right, 7).state & state::RED_CARD != 0));
    // (dispplayer 1 9 480 -320 90): l9 to (30, -20), facing 90°.
    assert!(s.iter().any(|f| {
        let p = player(f, Side::Left, 9);
        (p.x, p.y, p.body) == (30.0, -20.0, 90.0)
    }));
    // (dispdiscard -1 3): r3 leaves the field for good.
    let last = s.last().unwrap();
    assert_eq!(player(last, Side::Right, 3).state, 0);
    // The three malformed commands are refused in words.
    let refused = msgs(capture)
        .iter()
        .filter(|m| m.as_str() == "(error illegal_command_form)")
        .count();
    assert_eq!(refused, 2, "(dispfoul 1.5 2 1) and (dispcard 1 5 green)");
}

#[test]
fn refusals_at_init_are_server_errors() {
    for (capture, text) in [
        ("edge/dispinit-version-6", "illegal_client_version"),
        ("edge/dispinit-version-0", "illegal_client_version"),
        ("edge/dispinit-garbage", "unknown_command"),
        ("edge/maxmon2-third", "no_more_monitor"),
    ] {
        let d = datagrams(capture);
        assert_eq!(d.len(), 1);
        assert_eq!(
            records(capture, 0, &d[0]),
            Datagram::ServerError(text.into()),
            "{capture}"
        );
    }
    let d = datagrams("edge/v5-cmd-on-init-port");
    let errors: Vec<_> = d
        .iter()
        .enumerate()
        .filter_map(
            |(i, raw)| match records("edge/v5-cmd-on-init-port", i, raw) {
                Datagram::ServerError(e) => Some(e),
                Datagram::Records(_) => None,
            },
        )
        .collect();
    assert_eq!(errors, ["only_init_allowed_on_init_port"]);
}

/// `(compression 0)` still sends zlib (stored blocks); binary v1 structs compress too. Both
/// inflate to exactly what an uncompressed monitor would get.
#[test]
fn compressed_datagrams_of_every_kind_inflate_whole() {
    for capture in ["edge/v5-compression-0", "edge/v5-compression"] {
        let d = datagrams(capture);
        let z: Vec<_> = d.iter().filter(|raw| is_zlib(raw)).collect();
        assert!(!z.is_empty(), "{capture}");
        for raw in z {
            let plain = inflate(raw).unwrap();
            assert!(
                plain.starts_with(b"(") && plain.ends_with(b")\0"),
                "{capture}"
            );
        }
    }
    let stored = datagrams("edge/v5-compression-0");
    assert!(stored.iter().any(|raw| raw.starts_with(&[0x78, 0x01])));
    for raw in datagrams("edge/v1-compression-1") {
        let plain = if is_zlib(&raw) {
            inflate(&raw).unwrap()
        } else {
            raw
        };
        assert_eq!(plain.len(), 2052, "a whole dispinfo_t");
    }
}

/// A monitor may start a game with no players: time runs, `(dispfoul 160 -80 1)` gives a free
/// kick at (10, -5), and a drop ball goes straight to play on.
#[test]
fn a_game_started_without_players_still_runs() {
    let s = shows("edge/v5-dispstart-no-teams");
    assert!(s.iter().all(|f| f.players.iter().all(|p| p.state == 0)));
    assert!(s.last().unwrap().time > s[0].time, "time runs");
    let free_kick = PlayMode::from_name(b"free_kick_l").unwrap();
    assert!(s
        .iter()
        .any(|f| f.mode == free_kick && (f.ball.x, f.ball.y) == (10.0, -5.0)));
    assert_eq!(s.last().unwrap().mode, PlayMode::PLAY_ON);
}
