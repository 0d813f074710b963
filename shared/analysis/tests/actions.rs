//! The players' actions on the real logs: they add up to the team statistics, every goal is a
//! scored shot by its scorer, passes run from a player to another in play, and the same
//! actions come out whatever the log's version and however the frames arrive.
#![allow(clippy::unwrap_used)] // test code: a failed unwrap is a failed test

use pitchside_fixtures as common;

use pitchside_analysis::actions::{ActionKind, Actions, ShotOutcome};
use pitchside_analysis::events::EventKind;
use pitchside_analysis::stats::Stats;
use rcss_formats::{parse_log, Side};

fn logs() -> Vec<String> {
    common::all_logs()
}

#[test]
fn the_players_actions_add_up_to_the_team_figures_on_every_log() {
    for rel in logs() {
        let m = parse_log(&common::read(&rel));
        let stats = Stats::of_match(&m);
        let figures = stats.actions().figures();
        let sum = stats.summary();
        for side in [Side::Left, Side::Right] {
            let team = sum.team(side);
            let players = &figures[side.index()];
            let total = |f: fn(&pitchside_analysis::actions::PlayerFigures) -> u32| -> u32 {
                players.iter().map(f).sum()
            };
            assert_eq!(
                total(|p| p.kicks + p.tackles_won),
                team.kicks,
                "{rel} {side:?}: kicks"
            );
            assert_eq!(
                total(|p| p.passes_completed),
                team.passes,
                "{rel} {side:?}: passes"
            );
            assert_eq!(total(|p| p.shots), team.shots, "{rel} {side:?}: shots");
            assert_eq!(
                total(|p| p.shots_on_target),
                team.shots_on_target,
                "{rel} {side:?}: shots on target"
            );
            assert!(total(|p| p.goals) <= team.goals, "{rel} {side:?}: goals");
            assert!(total(|p| p.assists) <= total(|p| p.goals), "{rel}");
            let dirs = total(|p| p.passes_forward + p.passes_back + p.passes_left + p.passes_right);
            assert_eq!(
                dirs,
                total(|p| p.passes),
                "{rel}: every pass has a direction"
            );
            assert!(total(|p| p.through_passes) <= total(|p| p.passes_completed));
        }
    }
}

#[test]
fn every_goal_of_the_full_game_is_its_scorers_shot() {
    let m = parse_log(&common::read(common::FULL_GAME));
    let a = Actions::of_match(&m);
    let goals: Vec<_> = a
        .events()
        .events()
        .iter()
        .filter(|e| matches!(e.kind, EventKind::Goal { own_goal: false }))
        .copied()
        .collect();
    assert_eq!(goals.len(), 5);
    for g in &goals {
        let shot = a
            .actions()
            .iter()
            .find(|x| {
                matches!(
                    x.kind,
                    ActionKind::Shot {
                        outcome: ShotOutcome::Goal { .. },
                        ..
                    }
                ) && x.end_frame == Some(g.frame)
            })
            .unwrap_or_else(|| panic!("no scored shot for the goal at {}", g.cycle));
        assert_eq!(Some(shot.side), g.side, "goal at {}", g.cycle);
        assert_eq!(Some(shot.unum), g.player, "goal at {}", g.cycle);
        assert!(shot.cycle <= g.cycle && g.cycle - shot.cycle < 60);
    }
}

#[test]
fn passes_go_from_one_player_to_another_and_shots_towards_the_goal() {
    let m = parse_log(&common::read(common::FULL_GAME));
    let a = Actions::of_match(&m);
    let mut passes = 0;
    for x in a.actions() {
        match x.kind {
            ActionKind::Pass {
                receiver,
                completed,
                ..
            } => {
                passes += 1;
                assert!(!completed || receiver != x.unum, "{x:?}");
                let end = x.end_frame.unwrap();
                assert!(end > x.frame, "{x:?}");
                // The receiver touched the ball in that frame: at the frame before (the
                // positions his command acted on) the ball was in his reach, a kick's or a
                // tackle's.
                let f = &m.frames[end - 1];
                let side = if completed { x.side } else { x.side.other() };
                let p = f
                    .players
                    .iter()
                    .find(|p| p.side == Some(side) && p.unum == receiver)
                    .unwrap();
                let d = ((p.x - f.ball.x).powi(2) + (p.y - f.ball.y).powi(2)).sqrt();
                assert!(d < 2.5, "{x:?}: receiver {d} m from the ball");
            }
            ActionKind::Shot { .. } => {
                let to = x.to.unwrap();
                let goal_x = if x.side == Side::Left { 52.5 } else { -52.5 };
                assert!(
                    (to.0 - goal_x).abs() < (x.from.0 - goal_x).abs() + 1.0,
                    "{x:?}"
                );
            }
            _ => {}
        }
    }
    assert!(passes > 150, "{passes} passes in a full game");
}

#[test]
fn the_same_match_gives_the_same_actions_in_every_version() {
    // The short game logged as ULG4, 5, 6 and JSON is one kind of game, not the same one;
    // the conversions of one game are the same game.
    let source = parse_log(&common::read(common::SHORT[5].1));
    let want = Actions::of_match(&source).figures();
    for rel in logs().iter().filter(|r| r.contains("rcgverconv-v6-to")) {
        let m = parse_log(&common::read(rel));
        let got = Actions::of_match(&m).figures();
        if rel.contains("-to-json") {
            assert!(got == want, "{rel}: the actions differ");
            continue;
        }
        // The binary versions keep positions less precisely (v1 without velocities: shots
        // are judged from the ball's moves): kicks, passes and their receivers from the same
        // state bits, directions may differ by a rounding.
        for side in 0..2 {
            for (a, b) in want[side].iter().zip(&got[side]) {
                assert_eq!(
                    (
                        a.kicks,
                        a.passes,
                        a.passes_completed,
                        a.tackles_won,
                        a.catches
                    ),
                    (
                        b.kicks,
                        b.passes,
                        b.passes_completed,
                        b.tackles_won,
                        b.catches
                    ),
                    "{rel}"
                );
            }
        }
    }
}

/// Against the eye: kicks of the full game labelled by looking at the field
/// (`tests/golden/labels/`). Every labelled pass and shot is found with its receiver and
/// outcome, and what pitchside calls a pass or a shot among those kicks is one.
#[test]
fn passes_and_shots_agree_with_kicks_labelled_by_eye() {
    let path = common::path("../golden/labels/full-v6-kicks.csv");
    let text = std::fs::read_to_string(&path).unwrap();
    let m = parse_log(&common::read(common::FULL_GAME));
    let a = Actions::of_match(&m);
    let side_of = |s: &str| if s == "l" { Side::Left } else { Side::Right };
    let (mut pass, mut shot) = ([0u32; 3], [0u32; 3]); // true positive, false positive, false negative
    let mut receivers_right = 0;
    let mut labelled = 0;
    for line in text.lines().skip(1) {
        let f: Vec<&str> = line.splitn(9, ',').collect();
        let (cycle, side, unum) = (
            f[0].parse::<u32>().unwrap(),
            side_of(f[1]),
            f[2].parse::<u8>().unwrap(),
        );
        labelled += 1;
        let ours = a.actions().iter().find(|x| {
            x.cycle == cycle
                && x.side == side
                && x.unum == unum
                && matches!(x.kind, ActionKind::Pass { .. } | ActionKind::Shot { .. })
        });
        let is_pass = matches!(ours.map(|x| x.kind), Some(ActionKind::Pass { .. }));
        let is_shot = matches!(ours.map(|x| x.kind), Some(ActionKind::Shot { .. }));
        let count = |c: &mut [u32; 3], label: bool, found: bool| match (label, found) {
            (true, true) => c[0] += 1,
            (false, true) => c[1] += 1,
            (true, false) => c[2] += 1,
            _ => {}
        };
        count(&mut pass, f[3] == "pass", is_pass);
        count(&mut shot, f[3] == "shot", is_shot);
        if let (
            true,
            Some(ActionKind::Pass {
                receiver,
                completed,
                ..
            }),
        ) = (f[3] == "pass", ours.map(|x| x.kind))
        {
            let want_completed = f[4] == "completed";
            if completed == want_completed && f[6] == receiver.to_string() {
                receivers_right += 1;
            }
        }
    }
    let ratio = |a: u32, b: u32| f64::from(a) / f64::from(a + b).max(1.0);
    let (pp, pr) = (ratio(pass[0], pass[1]), ratio(pass[0], pass[2]));
    let (sp, sr) = (ratio(shot[0], shot[1]), ratio(shot[0], shot[2]));
    eprintln!(
        "{labelled} labelled kicks: passes {} found, {} wrongly, {} missed (precision {pp:.2}, recall {pr:.2}, receiver and outcome right {receivers_right}); shots {} / {} / {} (precision {sp:.2}, recall {sr:.2})",
        pass[0], pass[1], pass[2], shot[0], shot[1], shot[2]
    );
    assert!(labelled >= 50, "{labelled}");
    assert!(
        pp >= 0.9 && pr >= 0.9,
        "passes: precision {pp}, recall {pr}"
    );
    assert!(sp >= 0.9 && sr >= 0.9, "shots: precision {sp}, recall {sr}");
    assert!(f64::from(receivers_right) >= 0.9 * f64::from(pass[0]));
}
