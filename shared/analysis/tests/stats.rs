//! Match statistics on the real logs: they agree with the events and the server's score, a
//! summary at any frame equals the statistics of the match cut there, and a live monitor
//! connection gives the figures of the log.
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test

use pitchside_fixtures as common;

mod live;
use live::capture_frames;

use pitchside_analysis::stats::{HeatFilter, Stats, Summary};
use rcss_formats::params::MatchParams;
use rcss_formats::{parse_log, Frame, Match, PlayMode, Side};

fn all_logs() -> Vec<(&'static str, &'static str)> {
    common::named_games()
}

/// Distinct cycles in play_on, counted straight from the frames.
fn play_on_cycles(frames: &[Frame]) -> u32 {
    let mut n = 0;
    let mut prev = None;
    for f in frames {
        if f.mode == PlayMode::PLAY_ON && prev != Some(f.time) {
            n += 1;
        }
        prev = Some(f.time);
    }
    n
}

#[test]
fn every_log_adds_up() {
    for (name, rel) in all_logs() {
        let m = parse_log(&common::read(rel));
        let s = Stats::of_match(&m);
        let sum = s.summary();
        let teams = m.final_teams();
        for side in [Side::Left, Side::Right] {
            let t = sum.team(side);
            assert_eq!(t.goals, teams[side.index()].score, "{name} {side:?}: goals");
            assert!(t.shots_on_target <= t.shots, "{name} {side:?}");
            assert!(t.passes <= t.kicks, "{name} {side:?}");
        }
        assert_eq!(sum.play_on_cycles, play_on_cycles(&m.frames), "{name}");
        let owned = sum.teams[0].possession_cycles + sum.teams[1].possession_cycles;
        assert!(owned <= sum.play_on_cycles, "{name}");
        if owned > 0 {
            let shares = sum.possession(Side::Left).unwrap() + sum.possession(Side::Right).unwrap();
            assert!((shares - 1.0).abs() < 1e-6, "{name}: {shares}");
        }
        let heat = s.heat_map(None, HeatFilter::All);
        assert_eq!(heat.total(), sum.play_on_cycles, "{name}: heat map");
        let by_team: u32 = [Side::Left, Side::Right]
            .iter()
            .map(|&side| s.heat_map(None, HeatFilter::Possession(side)).total())
            .sum();
        assert_eq!(by_team, owned, "{name}: heat maps by possession");
        assert_eq!(sum.frames, m.frames.len(), "{name}");
    }
}

#[test]
fn full_game_figures() {
    let m = parse_log(&common::read(common::FULL_GAME));
    let s = Stats::of_match(&m);
    let sum = s.summary();
    let [l, r] = sum.teams;
    assert_eq!(sum.play_on_cycles, 5241);
    assert_eq!((l.goals, r.goals), (2, 3));
    assert_eq!((l.fouls, r.fouls), (3, 5));
    assert_eq!((l.yellow_cards, r.yellow_cards), (1, 1));
    assert_eq!((l.red_cards, r.red_cards), (0, 0));
    assert_eq!((l.corners, r.corners), (5, 0));
    assert_eq!((l.free_kicks, r.free_kicks), (8, 6));
    assert_eq!((l.offsides, r.offsides), (0, 0));
    // Kicks: every kick bit of the log (1275) and every tackle that reached the ball (36).
    assert_eq!(l.kicks + r.kicks, 1275 + 36);
    // Every goal of this game came from a shot on target by the scoring team shortly before.
    for g in s.events().goals() {
        let side = g.side.unwrap();
        let before = s.summary_at_frame(g.frame.saturating_sub(20));
        let at = s.summary_at_frame(g.frame);
        assert!(
            at.team(side).shots_on_target > before.team(side).shots_on_target,
            "goal at {}: no shot on target by its scorers in the 20 frames before",
            g.cycle
        );
    }
    let (pl, pr) = (
        sum.possession(Side::Left).unwrap(),
        sum.possession(Side::Right).unwrap(),
    );
    assert!((0.3..0.7).contains(&pl) && (pl + pr - 1.0).abs() < 1e-6);
}

/// The match cut after frame `i`, with the same parameters.
fn cut(m: &Match, i: usize) -> Stats {
    let mut s = Stats::new(MatchParams::of_match(m));
    for f in &m.frames[..=i] {
        s.push(f);
    }
    s
}

#[test]
fn a_summary_at_any_frame_is_the_match_cut_there() {
    for (name, rel) in [("full-v6-realtime", common::FULL_GAME), common::SHORT[0]] {
        let m = parse_log(&common::read(rel));
        let s = Stats::of_match(&m);
        let n = m.frames.len();
        for i in [0, 1, 63, 64, 65, 127, 128, 1000, n / 2, n - 2, n - 1] {
            let i = i.min(n - 1);
            assert_eq!(
                s.summary_at_frame(i),
                cut(&m, i).summary(),
                "{name}: frame {i}"
            );
            let heat = s.heat_map(Some(i), HeatFilter::All);
            assert_eq!(
                heat,
                cut(&m, i).heat_map(None, HeatFilter::All),
                "{name}: {i}"
            );
        }
        assert_eq!(
            s.summary_at_frame(n + 100),
            s.summary(),
            "{name}: past the end"
        );
        // By cycle: after the last frame of that cycle.
        let c = m.frames[n / 2].time;
        let last = m.frames.iter().rposition(|f| f.time <= c).unwrap();
        assert_eq!(s.summary_at_cycle(c), s.summary_at_frame(last), "{name}");
    }
}

#[test]
fn a_live_match_gives_the_figures_of_its_log() {
    let m = parse_log(&common::read(common::FULL_GAME));
    let log = Stats::of_match(&m);
    for capture in ["captures/F1/json.dgrams.gz", "captures/F1/v2.dgrams.gz"] {
        let mut live = Stats::new(MatchParams::default());
        for f in capture_frames(capture) {
            live.push(&f);
        }
        let at = 250;
        let strip = |s: Summary| Summary {
            frames: 0,
            cycle: 0,
            ..s
        };
        let (a, b) = (
            strip(live.summary_at_cycle(at)),
            strip(log.summary_at_cycle(at)),
        );
        let binary = capture.contains("v2");
        if binary {
            // v2 monitors carry 16 state bits: no cards; positions in 1/65536 m.
            assert_eq!(
                (a.play_on_cycles, a.teams[0].kicks, a.teams[1].kicks),
                (b.play_on_cycles, b.teams[0].kicks, b.teams[1].kicks),
                "{capture}"
            );
        } else {
            assert_eq!(a, b, "{capture}: summary at cycle {at}");
        }
    }
}
