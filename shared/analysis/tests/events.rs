//! Match events on every real log, checked against the server's own record: the goal cycles
//! and the final score of every fixture, the shoot-out tally, the cards and fouls the
//! operator issued, and the same events whether the frames come from a log in one piece, from
//! the decoder chunk by chunk, or from a live monitor connection.
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test

use pitchside_fixtures as common;

mod live;
use live::capture_frames;

use pitchside_analysis::events::{Event, EventKind, Events};
use rcss_formats::params::MatchParams;
use rcss_formats::{parse_log, LogDecoder, Match, Record, Side};

fn all_logs() -> Vec<(&'static str, &'static str)> {
    common::named_games()
}

/// `(id, side letter, player, cycle)` of each event, for readable comparisons.
fn brief(events: &[Event]) -> Vec<(&'static str, char, Option<u8>, u32)> {
    events
        .iter()
        .map(|e| {
            let side = e.side.map_or('-', Side::letter);
            (e.kind.id(), side, e.player, e.cycle)
        })
        .collect()
}

/// The log `rel` (a fixture) parsed, and its events.
fn events_of(rel: &str) -> (Match, Events) {
    let m = parse_log(&common::read(rel));
    let e = Events::of_match(&m);
    (m, e)
}

fn of_kind<'a>(events: &'a [Event], id: &str) -> Vec<&'a Event> {
    events.iter().filter(|e| e.kind.id() == id).collect()
}

#[test]
fn goals_are_the_servers_goals_and_add_up_to_the_final_score() {
    for (name, rel) in all_logs() {
        let (m, e) = events_of(rel);
        let goals: Vec<(u32, Side)> = e.goals().map(|g| (g.cycle, g.side.unwrap())).collect();
        assert_eq!(
            goals,
            m.goals(),
            "{name}: goals against the log's play modes"
        );
        let teams = m.final_teams();
        for side in [Side::Left, Side::Right] {
            let n = goals.iter().filter(|g| g.1 == side).count() as u32;
            assert_eq!(n, teams[side.index()].score, "{name}: {side:?} score");
        }
        for g in e.goals() {
            let f = &m.frames[g.frame];
            assert_eq!(f.time, g.cycle, "{name}: goal frame");
            assert!(f.mode.goal_side().is_some(), "{name}: goal frame mode");
            assert!(
                g.frame == 0 || m.frames[g.frame - 1].mode != f.mode,
                "{name}: the goal's frame is the first of its play mode"
            );
        }
    }
}

#[test]
fn full_game_goals_at_the_documented_cycles() {
    let (m, e) = events_of(common::FULL_GAME);
    let goals: Vec<(u32, char)> = e
        .goals()
        .map(|g| (g.cycle, g.side.unwrap().letter()))
        .collect();
    assert_eq!(
        goals,
        [
            (272, 'r'),
            (1863, 'l'),
            (3166, 'r'),
            (3456, 'r'),
            (4871, 'l')
        ]
    );
    assert!(e
        .goals()
        .all(|g| g.kind == EventKind::Goal { own_goal: false } && g.player.is_some()));
    let t = m.final_teams();
    assert_eq!((t[0].score, t[1].score), (2, 3));
}

#[test]
fn full_game_fouls_cards_and_halves() {
    let (_, e) = events_of(common::FULL_GAME);
    let ev = e.events();
    // The tackler of each foul, from the tackle bit in the foul's first frame.
    assert_eq!(
        brief(&of_kind(ev, "foul").into_iter().copied().collect::<Vec<_>>()),
        [
            ("foul", 'l', Some(11), 187),
            ("foul", 'r', Some(8), 846),
            ("foul", 'r', Some(9), 1745),
            ("foul", 'l', Some(2), 3961),
            ("foul", 'r', Some(7), 4434),
            ("foul", 'l', Some(6), 4446),
            ("foul", 'r', Some(4), 5191),
            ("foul", 'r', Some(5), 5462),
        ]
    );
    let cards: Vec<_> = brief(ev)
        .into_iter()
        .filter(|e| e.0.ends_with("card"))
        .collect();
    assert_eq!(
        cards,
        [
            ("yellow_card", 'l', Some(11), 187),
            ("yellow_card", 'r', Some(7), 4434)
        ]
    );
    let breaks: Vec<_> = brief(ev)
        .into_iter()
        .filter(|e| matches!(e.0, "half_time" | "full_time" | "kick_off"))
        .map(|e| (e.0, e.3))
        .collect();
    assert_eq!(
        breaks,
        [
            ("kick_off", 1),
            ("kick_off", 273),
            ("kick_off", 1864),
            ("half_time", 3000),
            ("kick_off", 3001),
            ("kick_off", 3167),
            ("kick_off", 3457),
            ("kick_off", 4872),
            ("full_time", 6000),
        ]
    );
    // Every free kick right after a foul goes to the other team, the next cycle.
    for foul in of_kind(ev, "foul") {
        let next = ev.iter().find(|x| x.frame > foul.frame).unwrap();
        assert_eq!(
            next.kind.id(),
            "free_kick",
            "after the foul at {}",
            foul.cycle
        );
        assert_ne!(next.side, foul.side);
        assert_eq!(next.cycle, foul.cycle + 1);
    }
    let count = |id: &str| of_kind(ev, id).len();
    assert_eq!(
        (
            count("corner_kick"),
            count("kick_in"),
            count("goal_kick"),
            count("free_kick")
        ),
        (5, 2, 3, 14),
        "set pieces, as the log's play modes count them"
    );
}

#[test]
fn every_play_mode_change_of_the_log_is_in_the_frames() {
    for (name, rel) in all_logs() {
        let (m, e) = events_of(rel);
        let from_frames: Vec<(u32, &str)> = e
            .mode_changes()
            .iter()
            .map(|c| (c.cycle, c.mode.name()))
            .collect();
        let from_log: Vec<(u32, &str)> = m
            .mode_changes
            .iter()
            .map(|(t, mode)| (*t, mode.name()))
            .collect();
        assert_eq!(from_frames, from_log, "{name}");
    }
}

#[test]
fn the_shoot_out_tally_is_the_servers() {
    let (m, e) = events_of(common::V6_OTHERS[0]);
    let kicks = of_kind(e.events(), "shoot_out_kick");
    assert_eq!(kicks.len(), 9);
    let t = m.final_teams();
    for side in [Side::Left, Side::Right] {
        let mine = kicks.iter().filter(|k| k.side == Some(side));
        let (scored, missed) = mine.fold((0, 0), |(s, x), k| match k.kind {
            EventKind::ShootOutKick { scored: true } => (s + 1, x),
            _ => (s, x + 1),
        });
        let tally = t[side.index()].penalty.unwrap();
        assert_eq!((scored, missed), (tally.scored, tally.missed), "{side:?}");
    }
    assert!(
        kicks.iter().all(|k| k.player.is_some()),
        "every taker known"
    );
    assert!(e.goals().next().is_none(), "shoot-out kicks are not goals");
    // Each kick starts at its penalty_setup frame.
    for k in kicks {
        assert!(m.frames[k.frame].mode.name().starts_with("penalty_setup"));
    }
}

#[test]
fn operator_cards_fouls_and_discard() {
    let (_, e) = events_of(common::V6_OTHERS[2]);
    assert_eq!(
        brief(e.events()),
        [
            ("kick_off", 'l', None, 1),
            // (dispfoul 320 160 1) and (dispfoul -480 -160 -1): free kicks with no foul.
            ("free_kick", 'l', None, 71),
            ("free_kick", 'r', None, 131),
            // (dispcard 1 5 yellow), (dispcard -1 7 red), (dispcard 1 5 yellow) again.
            ("yellow_card", 'l', Some(5), 231),
            ("red_card", 'r', Some(7), 251),
            ("goal", 'r', Some(11), 271),
            ("red_card", 'l', Some(5), 271),
            // (dispdiscard -1 3)
            ("player_off", 'r', Some(3), 271),
            ("kick_off", 'l', None, 272),
            // (dispfoul 8000 8000 -1), clamped to the corner.
            ("free_kick", 'r', None, 361),
            ("half_time", '-', None, 400),
            ("kick_off", 'r', None, 401),
            ("foul", 'l', Some(11), 505),
            ("free_kick", 'r', None, 506),
            ("kick_in", 'r', None, 694),
            ("full_time", '-', None, 800),
        ]
    );
    let second = &e.events()[6];
    assert_eq!(
        second.kind,
        EventKind::RedCard {
            second_yellow: true
        }
    );
}

#[test]
fn referee_messages_word_each_decision() {
    let (_, e) = events_of(common::FULL_GAME);
    let msgs = e.referee_messages();
    assert_eq!(
        msgs.len(),
        e.mode_changes().len() + 3,
        "+ half time, 2 cards"
    );
    let text = |cycle: u32| -> Vec<&str> {
        msgs.iter()
            .filter(|m| m.cycle == cycle)
            .map(|m| m.text.as_str())
            .collect()
    };
    assert_eq!(
        text(187),
        [
            "foul by HELIOS_L 11 → free kick HELIOS_R",
            "yellow card for HELIOS_L 11"
        ]
    );
    assert_eq!(text(272), ["goal for HELIOS_R (11): HELIOS_L 0–1 HELIOS_R"]);
    assert_eq!(text(3000), ["half time"]);
    assert_eq!(text(6000), ["full time: HELIOS_L 2–3 HELIOS_R"]);
    assert_eq!(
        text(815),
        ["goalie HELIOS_R 1 caught the ball → free kick HELIOS_R"]
    );
    assert!(msgs.windows(2).all(|w| w[0].frame <= w[1].frame));
}

/// Frames as the decoder yields them, fed `step` bytes at a time.
fn frames_fed_in_pieces(bytes: &[u8], step: usize) -> (Vec<Record>, Match) {
    let mut d = LogDecoder::new();
    let mut records = Vec::new();
    for piece in bytes.chunks(step) {
        d.feed(piece, &mut records).unwrap();
    }
    d.finish(&mut records).unwrap();
    let mut m = Match::default();
    for r in records.iter().cloned() {
        m.push(r);
    }
    (records, m)
}

#[test]
fn events_pushed_frame_by_frame_as_they_decode_equal_the_whole_log() {
    for (name, rel) in all_logs() {
        let bytes = common::read(rel);
        let whole = Events::of_match(&parse_log(&bytes));
        let (records, m) = frames_fed_in_pieces(&bytes, 65_537);
        // As a live page would: parameters as they arrive (they come first), then frames.
        let mut live = Events::new(MatchParams::of_match(&m));
        let mut added = 0;
        for r in &records {
            if let Record::Show(f) = r {
                added += live.push(f);
            }
        }
        assert_eq!(added, whole.events().len(), "{name}");
        assert_eq!(live.events(), whole.events(), "{name}");
        assert_eq!(live.mode_changes(), whole.mode_changes(), "{name}");
    }
}

#[test]
fn a_live_match_gives_the_events_of_its_log() {
    let log = Events::of_match(&parse_log(&common::read(common::FULL_GAME)));
    for capture in [
        "captures/F1/json.dgrams.gz",
        "captures/F1/v2.dgrams.gz",
        "captures/F1/v5-game-end.dgrams.gz",
    ] {
        let frames = capture_frames(capture);
        let (first, last) = (frames[0].time, frames.last().unwrap().time);
        let mut live = Events::new(MatchParams::default());
        for f in &frames {
            live.push(f);
        }
        // A monitor that joins late sees the cards given before it joined at its first frame.
        let joined: Vec<_> = live
            .events()
            .iter()
            .filter(|e| !(e.frame == 0 && e.kind == EventKind::YellowCard))
            .copied()
            .collect();
        let expected: Vec<_> = log
            .events()
            .iter()
            .filter(|e| e.cycle > first && e.cycle <= last)
            .copied()
            .collect();
        let binary = capture.contains("v2");
        let expected: Vec<_> = expected
            .into_iter()
            // 16-bit states: no cards in binary sources.
            .filter(|e| !(binary && e.kind.id().ends_with("card")))
            .collect();
        assert_eq!(brief(&joined), brief(&expected), "{capture}");
    }
}
