//! Operator commands against what a real rcssserver 19 accepted and did: `captures/OPa/
//! v5-operator` is a monitor that refereed a real game (its `.tsv` lists each command it sent
//! between the datagrams it received).
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test

use pitchside_fixtures as common;

use rcss_formats::command::{self, Card, Command};
use rcss_formats::datagram::{parse_datagram, Datagram};
use rcss_formats::params::ServerParams;
use rcss_formats::{Frame, PlayMode, Record, Side};

const CAPTURE: &str = "captures/OPa/v5-operator";

enum Event {
    Sent(String),
    Recv(Vec<Record>),
}

/// The capture in arrival order: commands sent, and the records of each datagram received.
fn events() -> Vec<Event> {
    let tsv = String::from_utf8(common::read(&format!("{CAPTURE}.tsv.gz"))).unwrap();
    let dgrams = common::capture(&format!("{CAPTURE}.dgrams.gz"));
    let mut out = Vec::new();
    for line in tsv.lines().filter(|l| !l.starts_with('#')) {
        let cols: Vec<&str> = line.splitn(7, '\t').collect();
        match cols[2] {
            "sent" => out.push(Event::Sent(cols[6].to_owned())),
            _ => {
                let seq: usize = cols[0].parse().unwrap();
                match parse_datagram(&dgrams[seq]).unwrap() {
                    Datagram::Records(r) => out.push(Event::Recv(r)),
                    Datagram::ServerError(e) => panic!("error {e}"),
                }
            }
        }
    }
    out
}

fn params(events: &[Event]) -> ServerParams {
    events
        .iter()
        .find_map(|e| match e {
            Event::Recv(r) => r.iter().find_map(|r| match r {
                Record::ServerParam(p) => Some(ServerParams::from_params(Some(p))),
                _ => None,
            }),
            Event::Sent(_) => None,
        })
        .unwrap()
}

fn frames(events: &[Event]) -> impl Iterator<Item = &Frame> {
    events.iter().flat_map(|e| match e {
        Event::Recv(r) => r
            .iter()
            .filter_map(|r| match r {
                Record::Show(f) => Some(f),
                _ => None,
            })
            .collect::<Vec<_>>(),
        Event::Sent(_) => Vec::new(),
    })
}

/// The server's answers to the monitor between command `i` and the second show after it.
fn answers_after(events: &[Event], i: usize) -> Vec<String> {
    let mut shows = 0;
    let mut out = Vec::new();
    for e in &events[i + 1..] {
        let Event::Recv(records) = e else { continue };
        for r in records {
            match r {
                Record::Show(_) => shows += 1,
                Record::Msg(m) if command::is_answer(m) => out.push(m.text_lossy()),
                _ => {}
            }
        }
        if shows >= 2 {
            break;
        }
    }
    out
}

#[test]
fn typed_commands_are_the_bytes_the_real_server_accepted() {
    let events = events();
    let typed = [
        Command::KickOff,
        Command::Foul {
            x: 20.0,
            y: 10.0,
            side: Some(Side::Left),
        },
        Command::Foul {
            x: -30.0,
            y: -10.0,
            side: Some(Side::Right),
        },
        Command::Foul {
            x: 0.0,
            y: 0.0,
            side: None,
        },
        Command::Card {
            side: Side::Left,
            unum: 5,
            card: Card::Yellow,
        },
        Command::Card {
            side: Side::Right,
            unum: 7,
            card: Card::Red,
        },
        Command::MovePlayer {
            side: Side::Left,
            unum: 9,
            x: 30.0,
            y: -20.0,
            body: 90.0,
        },
        Command::Discard {
            side: Side::Right,
            unum: 3,
        },
    ];
    for c in &typed {
        let text = c.text();
        let i = events
            .iter()
            .position(|e| matches!(e, Event::Sent(s) if *s == text))
            .unwrap_or_else(|| panic!("{text} was sent in the capture"));
        assert_eq!(answers_after(&events, i), Vec::<String>::new(), "{text}");
        // What went on the wire: the text and one NUL, as the capture client sent it.
        assert_eq!(
            command::datagram(&text, false),
            format!("{text}\0").as_bytes()
        );
    }
    // And what the server refused is what the types cannot express.
    for refused in ["(dispfoul 1.5 2 1)", "(dispcard 1 5 green)"] {
        let i = events
            .iter()
            .position(|e| matches!(e, Event::Sent(s) if s == refused))
            .unwrap();
        assert_eq!(
            answers_after(&events, i),
            ["(error illegal_command_form)"],
            "{refused}"
        );
    }
}

#[test]
fn kick_off_is_offered_exactly_where_the_server_acted_on_it() {
    let events = events();
    let p = params(&events);
    assert_eq!(
        p.half_time_cycles, 400,
        "the capture's server ran half_time=40"
    );
    let mut offered: Vec<u32> = frames(&events)
        .filter(|f| command::kick_off_acts(f.time, f.mode, &p))
        .map(|f| f.time)
        .collect();
    offered.dedup();
    // Before the first kick-off and at half time (cycle 400), nowhere else.
    assert_eq!(offered, [0, 400]);
    // The two (dispstart) the monitor sent: the first, before kick-off, made the server kick
    // off; the second, during play, was ignored.
    let starts: Vec<usize> = events
        .iter()
        .enumerate()
        .filter(|(_, e)| matches!(e, Event::Sent(s) if s == "(dispstart)"))
        .map(|(i, _)| i)
        .collect();
    assert_eq!(starts.len(), 2);
    for (n, &i) in starts.iter().enumerate() {
        let before = frames(&events[..i]).last().unwrap().clone();
        let after: Vec<PlayMode> = frames(&events[i + 1..]).take(3).map(|f| f.mode).collect();
        let acts = command::kick_off_acts(before.time, before.mode, &p);
        let kick_off_l = PlayMode::from_name(b"kick_off_l").unwrap();
        // (The second came while a kick_off_l was already under way: no change.)
        let kicked = before.mode != kick_off_l && after.contains(&kick_off_l);
        assert_eq!(acts, n == 0, "dispstart {n} at {}", before.time);
        assert_eq!(kicked, acts, "dispstart {n}: {after:?}");
    }
}

#[test]
fn kick_off_rules_follow_the_halves_the_server_was_given() {
    let mut p = ServerParams::defaults();
    let bko = PlayMode::BEFORE_KICK_OFF;
    assert!(command::kick_off_acts(0, bko, &p));
    assert!(command::kick_off_acts(3000, bko, &p));
    assert!(!command::kick_off_acts(2999, bko, &p));
    assert!(!command::kick_off_acts(3000, PlayMode::PLAY_ON, &p));
    // At time over (6000 = the end of normal time) the game is finished.
    assert!(!command::kick_off_acts(6000, PlayMode::TIME_OVER, &p));
    // Extra halves of 1000 cycles after 6000.
    p.nr_extra_halfs = 2;
    p.extra_half_time_cycles = 1000;
    assert!(command::kick_off_acts(6000, bko, &p));
    assert!(command::kick_off_acts(7000, bko, &p));
    assert!(!command::kick_off_acts(6500, bko, &p));
    // Straight to penalties (nr_normal_halfs=0): only at time 0.
    p.nr_normal_halfs = 0;
    p.nr_extra_halfs = 0;
    assert!(command::kick_off_acts(0, bko, &p));
}

#[test]
fn coach_commands_need_coach_mode_and_a_real_mode_name() {
    use rcss_formats::{ParamValue, Params};
    let with = |name: &str, v: i64| Params {
        entries: vec![(name.into(), ParamValue::Int(v))],
    };
    assert!(!command::coach_mode(None));
    assert!(!command::coach_mode(Some(&with("coach", 0))));
    assert!(command::coach_mode(Some(&with("coach", 1))));
    assert!(command::coach_mode(Some(&with("coach_w_referee", 1))));
    let events = events();
    let real = events
        .iter()
        .find_map(|e| match e {
            Event::Recv(r) => r.iter().find_map(|r| match r {
                Record::ServerParam(p) => Some(p.clone()),
                _ => None,
            }),
            Event::Sent(_) => None,
        })
        .unwrap();
    assert!(!command::coach_mode(Some(&real)), "a normal game");

    let m = command::changeable_mode("free_kick_l").unwrap();
    assert_eq!(Command::ChangeMode(m).text(), "(change_mode free_kick_l)");
    assert_eq!(command::changeable_mode(""), None);
    assert_eq!(command::changeable_mode("corner_kick"), None);
    assert_eq!(
        command::changeable_mode("illegal_defense_r")
            .unwrap()
            .index(),
        51
    );
    assert_eq!(Command::Recover.text(), "(recover)");
    assert!(Command::Recover.needs_coach_mode());
    assert!(!Command::KickOff.needs_coach_mode());
}

#[test]
fn operator_notices_read_as_a_referee_would_say_them() {
    let c = Command::Card {
        side: Side::Left,
        unum: 5,
        card: Card::Yellow,
    };
    assert_eq!(c.describe(), "yellow card to left 5");
    let mv = Command::MovePlayer {
        side: Side::Right,
        unum: 2,
        x: -3.0,
        y: 4.0,
        body: 270.0,
    };
    // 270° is -90°: the server's own range.
    assert_eq!(mv.text(), "(dispplayer -1 2 -48 64 -90)");
    assert_eq!(mv.describe(), "right 2 moved to (-3.0, 4.0) facing -90°");
}
