//! Highlights: every goal with its build-up, and the best chances, as ranges of frames to
//! play one after another (a reel), and the stretch an instant replay of a goal shows.
//!
//! - A goal's **build-up** starts where the scoring team's last spell of play began (the
//!   restart before it, or the touch that won the ball back, whichever is later), at least
//!   [`BUILD_UP_MIN`] and at most [`BUILD_UP_MAX`] frames before the goal, and runs
//!   [`AFTER_GOAL`] frames past it.
//! - A **chance** is a shot that did not score, rated: saved on target 3, on target otherwise
//!   2, wide by less than [`NEAR_MISS`] metres 2, anything else 1. The reel takes the
//!   [`CHANCES`] best rated 2 or more, each from [`CHANCE_BEFORE`] frames before the shot to
//!   [`CHANCE_AFTER`] frames after its end.
//! - Clips that overlap are merged; the reel is in match order.

use crate::actions::{ActionKind, Actions, ShotOutcome};
use crate::events::EventKind;
use rcss_formats::model::{Frame, Side};
use rcss_formats::playmode::PlayMode;

pub const BUILD_UP_MIN: usize = 50;
pub const BUILD_UP_MAX: usize = 150;
pub const AFTER_GOAL: usize = 30;
pub const NEAR_MISS: f32 = 2.0;
pub const CHANCES: usize = 8;
pub const CHANCE_BEFORE: usize = 60;
pub const CHANCE_AFTER: usize = 20;
/// An instant replay shows at most this many frames before the goal (10 s of play).
pub const REPLAY_BEFORE: usize = 100;
/// And this many after it.
pub const REPLAY_AFTER: usize = 10;

/// What a clip shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ClipKind {
    Goal,
    Chance,
}

/// A stretch of the match to play, frames `from..=to`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Clip {
    pub kind: ClipKind,
    pub side: Side,
    /// The scorer or the shooter.
    pub player: Option<u8>,
    pub from: usize,
    pub to: usize,
    /// The frame of the goal, or of the shot.
    pub key: usize,
    /// The cycle of `key`.
    pub cycle: u32,
}

/// Where the build-up of the goal in frame `goal` began, for the team `side`.
pub fn build_up_start(actions: &Actions, frames: &[Frame], side: Side, goal: usize) -> usize {
    // The last restart before the goal: play stopped, then went on.
    let restart = frames[..goal.min(frames.len())]
        .iter()
        .rposition(|f| f.mode != PlayMode::PLAY_ON && !is_goal_mode(f.mode))
        .unwrap_or(0);
    // The last touch of the other team before the goal: the ball won back after it.
    let won_back = actions
        .actions()
        .iter()
        .rev()
        .filter(|a| a.frame < goal)
        .find(|a| a.side != side && touches_ball(&a.kind))
        .map_or(0, |a| a.frame);
    let began = restart.max(won_back);
    let earliest = goal.saturating_sub(BUILD_UP_MAX);
    let latest = goal.saturating_sub(BUILD_UP_MIN);
    began.saturating_sub(10).clamp(earliest, latest)
}

fn is_goal_mode(m: PlayMode) -> bool {
    m.goal_side().is_some()
}

fn touches_ball(k: &ActionKind) -> bool {
    matches!(
        k,
        ActionKind::Kick
            | ActionKind::Pass { .. }
            | ActionKind::Shot { .. }
            | ActionKind::Dribble { .. }
            | ActionKind::Tackle { won: true }
            | ActionKind::Recovery
            | ActionKind::Catch
    )
}

/// The frames an instant replay of the goal in frame `goal` shows: the last of its build-up,
/// at most [`REPLAY_BEFORE`] frames, to [`REPLAY_AFTER`] frames past it.
pub fn instant_replay(
    actions: &Actions,
    frames: &[Frame],
    side: Side,
    goal: usize,
) -> (usize, usize) {
    let from = build_up_start(actions, frames, side, goal).max(goal.saturating_sub(REPLAY_BEFORE));
    let to = (goal + REPLAY_AFTER).min(frames.len().saturating_sub(1));
    (from, to.max(from))
}

/// The highlights of the match so far, in match order.
pub fn reel(actions: &Actions, frames: &[Frame]) -> Vec<Clip> {
    let last = frames.len().saturating_sub(1);
    let mut clips = Vec::new();
    for e in actions.events().events() {
        let (EventKind::Goal { .. }, Some(side)) = (e.kind, e.side) else {
            continue;
        };
        clips.push(Clip {
            kind: ClipKind::Goal,
            side,
            player: e.player,
            from: build_up_start(actions, frames, side, e.frame),
            to: (e.frame + AFTER_GOAL).min(last),
            key: e.frame,
            cycle: e.cycle,
        });
    }
    let half_goal = actions.events().params().server.goal_width / 2.0;
    let mut chances: Vec<(u32, Clip)> = actions
        .actions()
        .iter()
        .filter_map(|a| {
            let ActionKind::Shot { on_target, outcome } = a.kind else {
                return None;
            };
            let rating = match outcome {
                ShotOutcome::Goal { .. } => return None,
                ShotOutcome::Saved if on_target => 3,
                _ if on_target => 2,
                _ => match a.to {
                    Some((_, y)) if y.abs() - half_goal < NEAR_MISS => 2,
                    _ => 1,
                },
            };
            let end = a.end_frame.unwrap_or(a.frame);
            Some((
                rating,
                Clip {
                    kind: ClipKind::Chance,
                    side: a.side,
                    player: Some(a.unum),
                    from: a.frame.saturating_sub(CHANCE_BEFORE),
                    to: (end + CHANCE_AFTER).min(last),
                    key: a.frame,
                    cycle: a.cycle,
                },
            ))
        })
        .filter(|(r, _)| *r >= 2)
        .collect();
    // Best first; of equals, the earlier.
    chances.sort_by_key(|(r, c)| (std::cmp::Reverse(*r), c.key));
    clips.extend(chances.into_iter().take(CHANCES).map(|(_, c)| c));
    clips.sort_by_key(|c| c.from);
    let mut merged: Vec<Clip> = Vec::new();
    for c in clips {
        match merged.last_mut() {
            Some(p) if c.from <= p.to => {
                p.to = p.to.max(c.to);
                // A goal in the merged stretch names it.
                if c.kind == ClipKind::Goal && p.kind != ClipKind::Goal {
                    p.kind = c.kind;
                    p.side = c.side;
                    p.player = c.player;
                    p.key = c.key;
                    p.cycle = c.cycle;
                }
            }
            _ => merged.push(c),
        }
    }
    merged
}

/// Frames in the reel, to say how long it plays.
pub fn reel_frames(clips: &[Clip]) -> usize {
    clips.iter().map(|c| c.to + 1 - c.from).sum()
}
