//! The broadcast's moments, captions and highlights on every real log: one goal line and one
//! goal clip per goal, lines paced and never the same wording twice running, clips inside
//! the match and around what they show.
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test

use pitchside_fixtures as common;

use pitchside_analysis::actions::Actions;
use pitchside_analysis::broadcast::captions::{self, captions, Lang, MIN_GAP};
use pitchside_analysis::broadcast::highlights::{instant_replay, reel, ClipKind};
use pitchside_analysis::broadcast::moments::{moments, MomentKind};
use rcss_formats::parse_log;

#[test]
fn every_goal_has_its_line_and_its_clip_on_every_log() {
    for rel in common::all_logs() {
        let m = parse_log(&common::read(&rel));
        let actions = Actions::of_match(&m);
        let goals: Vec<_> = moments(&actions, &m.frames)
            .into_iter()
            .filter(|x| matches!(x.kind, MomentKind::Goal { .. }))
            .collect();
        let last = m.frames.last().unwrap();
        assert_eq!(
            goals.len() as u32,
            last.teams[0].score + last.teams[1].score,
            "{rel}: a moment per goal"
        );
        for lang in Lang::ALL {
            let lines = captions(&actions, &m.frames, lang);
            assert_eq!(
                lines.iter().filter(|c| c.kind == "goal").count(),
                goals.len(),
                "{rel} {lang:?}: a line per goal"
            );
            for w in lines.windows(2).filter(|w| w[1].kind != "full_time") {
                assert!(
                    w[1].frame >= w[0].frame + MIN_GAP,
                    "{rel} {lang:?}: {:?} then {:?}",
                    w[0],
                    w[1]
                );
            }
            for kind in ["goal", "save", "shot", "offside", "yellow_card"] {
                let same: Vec<_> = lines.iter().filter(|c| c.kind == kind).collect();
                for w in same.windows(2) {
                    // Names and scores differ anyway; the wording must too.
                    assert_ne!(w[0].text, w[1].text, "{rel} {lang:?}");
                }
            }
            for c in &lines {
                assert!(!c.text.is_empty() && c.text.len() < 160, "{rel}: {c:?}");
                assert!(c.frame < m.frames.len(), "{rel}: {c:?}");
            }
            // A match that starts with play (not a shoot-out on its own) starts with its
            // kick-off.
            if lines.iter().any(|c| c.kind == "kick_off") {
                assert_eq!(lines[0].kind, "kick_off", "{rel}: {:?}", lines[0]);
            }
        }
        let clips = reel(&actions, &m.frames);
        for g in &goals {
            let clip = clips
                .iter()
                .find(|c| c.from <= g.frame && g.frame <= c.to)
                .unwrap_or_else(|| panic!("{rel}: no clip holds the goal at {}", g.cycle));
            assert_eq!(clip.kind, ClipKind::Goal, "{rel}");
            assert!(g.frame - clip.from >= 50, "{rel}: build-up of {}", g.cycle);
            let side = g.side.unwrap();
            let (from, to) = instant_replay(&actions, &m.frames, side, g.frame);
            assert!(
                from < g.frame && g.frame <= to && g.frame - from <= 100,
                "{rel}"
            );
        }
        for w in clips.windows(2) {
            assert!(w[0].to < w[1].from, "{rel}: clips overlap");
        }
        assert!(clips.iter().all(|c| c.to < m.frames.len()), "{rel}");
    }
}

#[test]
fn a_full_game_reads_in_both_languages() {
    let m = parse_log(&common::read(
        "logs/full-v6-realtime/20261122131124-HELIOS_L_2-vs-HELIOS_R_3.rcg.gz",
    ));
    let actions = Actions::of_match(&m);
    let en = captions(&actions, &m.frames, Lang::En);
    let de = captions(&actions, &m.frames, Lang::De);
    // The same facts at the same cycles, worded in each language.
    assert_eq!(
        en.iter().map(|c| (c.cycle, c.kind)).collect::<Vec<_>>(),
        de.iter().map(|c| (c.cycle, c.kind)).collect::<Vec<_>>()
    );
    let texts: Vec<&str> = en.iter().map(|c| c.text.as_str()).collect();
    assert!(
        texts[0].contains("HELIOS_L") && texts[0].contains("HELIOS_R"),
        "{texts:?}"
    );
    let full = en.last().unwrap();
    assert_eq!(full.kind, "full_time");
    assert!(full.text.contains("HELIOS_L 2–3 HELIOS_R"), "{}", full.text);
    assert!(full.text.contains("HELIOS_R win"), "{}", full.text);
    assert!(de.last().unwrap().text.contains("HELIOS_R gewinnt"));
    let half = en.iter().find(|c| c.kind == "half_time").unwrap();
    assert_eq!(half.cycle, 3000);
    assert!(en.iter().any(|c| c.kind == "save"), "a full game has saves");
    assert!(en
        .iter()
        .filter(|c| c.kind == "goal")
        .all(|c| c.text.contains("HELIOS_")));
    // A viewer sees a line for a while, then nothing until the next.
    let first = &en[0];
    assert_eq!(captions::at(&en, first.frame + 10, 60), Some(first));
    assert_ne!(captions::at(&en, first.frame + 61, 60), Some(first));
    assert_eq!(Lang::from_code("DE-at"), Some(Lang::De));
    assert_eq!(Lang::from_code("xx"), None);
}
