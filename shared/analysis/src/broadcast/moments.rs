//! The moments a broadcast puts on screen as a lower-third: goals with their scorer and
//! assist, cards, penalties (awarded, and each kick of a shoot-out), half time and full time
//! with the score.
//!
//! The scorer is the match event's: the last player to touch the ball before it went in (of
//! the other team for an own goal). The assist is the player-level events' ([`crate::actions`]):
//! the completed pass to the scorer that began his last possession.

use crate::actions::{ActionKind, Actions, ShotOutcome};
use crate::events::EventKind;
use rcss_formats::model::{Frame, Side};

/// What happened.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MomentKind {
    Goal {
        scorer: Option<u8>,
        assist: Option<u8>,
        own_goal: bool,
    },
    YellowCard {
        player: Option<u8>,
    },
    RedCard {
        player: Option<u8>,
        second_yellow: bool,
    },
    /// A penalty kick awarded during play.
    Penalty,
    /// One kick of a shoot-out.
    ShootOutKick {
        taker: Option<u8>,
        scored: bool,
    },
    HalfTime,
    FullTime,
}

impl MomentKind {
    /// A stable identifier, for JSON and CSS: `goal`, `yellow_card`, `red_card`, `penalty`,
    /// `shoot_out_kick`, `half_time`, `full_time`.
    pub fn id(&self) -> &'static str {
        match self {
            MomentKind::Goal { .. } => "goal",
            MomentKind::YellowCard { .. } => "yellow_card",
            MomentKind::RedCard { .. } => "red_card",
            MomentKind::Penalty => "penalty",
            MomentKind::ShootOutKick { .. } => "shoot_out_kick",
            MomentKind::HalfTime => "half_time",
            MomentKind::FullTime => "full_time",
        }
    }
}

/// One moment, with the score as it stood once it happened.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Moment {
    pub kind: MomentKind,
    /// The team it concerns: the scoring team of a goal (own goals included), the carded
    /// player's, the team awarded the penalty or kicking in the shoot-out; none for half and
    /// full time.
    pub side: Option<Side>,
    pub cycle: u32,
    /// The frame (index into the frames pushed) where it shows.
    pub frame: usize,
    pub score: [u32; 2],
    /// Shoot-out goals, once a shoot-out began.
    pub penalties: Option<[u32; 2]>,
}

/// The moments so far, in frame order. `frames` are the frames `actions` was fed.
pub fn moments(actions: &Actions, frames: &[Frame]) -> Vec<Moment> {
    let mut out = Vec::new();
    for e in actions.events().events() {
        let kind = match e.kind {
            EventKind::Goal { own_goal } => MomentKind::Goal {
                scorer: e.player,
                assist: if own_goal {
                    None
                } else {
                    assist_for(actions, e.side, e.player, e.frame)
                },
                own_goal,
            },
            EventKind::YellowCard => MomentKind::YellowCard { player: e.player },
            EventKind::RedCard { second_yellow } => MomentKind::RedCard {
                player: e.player,
                second_yellow,
            },
            EventKind::PenaltyKick => MomentKind::Penalty,
            EventKind::ShootOutKick { scored } => MomentKind::ShootOutKick {
                taker: e.player,
                scored,
            },
            EventKind::HalfTime => MomentKind::HalfTime,
            EventKind::FullTime => MomentKind::FullTime,
            _ => continue,
        };
        // Half time sits at the cycle after the half's last frame: its score is that frame's.
        let at = frames
            .get(e.frame)
            .or_else(|| frames.get(e.frame.saturating_sub(1)))
            .or(frames.last());
        let (score, penalties) = match at {
            Some(f) => (
                [f.teams[0].score, f.teams[1].score],
                match (f.teams[0].penalty, f.teams[1].penalty) {
                    (None, None) => None,
                    (a, b) => Some([a.map_or(0, |t| t.scored), b.map_or(0, |t| t.scored)]),
                },
            ),
            None => ([0, 0], None),
        };
        out.push(Moment {
            kind,
            side: e.side,
            cycle: e.cycle,
            frame: e.frame,
            score,
            penalties,
        });
    }
    out
}

/// The assist of the goal scored in `frame` by `scorer` of `side`: the shot that scored it,
/// as the player-level events found it.
fn assist_for(
    actions: &Actions,
    side: Option<Side>,
    scorer: Option<u8>,
    frame: usize,
) -> Option<u8> {
    let (side, scorer) = (side?, scorer?);
    actions
        .actions()
        .iter()
        .rev()
        .filter(|a| a.frame <= frame)
        .take(40)
        .find_map(|a| match a.kind {
            ActionKind::Shot {
                outcome: ShotOutcome::Goal { assist },
                ..
            } if a.side == side && a.unum == scorer => Some(assist),
            _ => None,
        })
        .flatten()
}

#[cfg(test)]
mod tests {
    use super::*;
    use rcss_formats::log::Match;

    fn real_game(path: &str) -> Match {
        let bytes = std::fs::read(path).expect("fixture");
        rcss_formats::log::parse_log(&bytes)
    }

    #[test]
    fn the_goals_of_a_real_game_with_scorers_assists_and_the_scores() {
        let m = real_game(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../tests/fixtures/logs/full-v6-realtime/20261122131124-HELIOS_L_2-vs-HELIOS_R_3.rcg.gz"
        ));
        let actions = Actions::of_match(&m);
        let all = moments(&actions, &m.frames);
        let goals: Vec<_> = all
            .iter()
            .filter(|x| matches!(x.kind, MomentKind::Goal { .. }))
            .collect();
        let last = m.frames.last().expect("frames");
        let total = last.teams[0].score + last.teams[1].score;
        assert_eq!(goals.len() as u32, total, "one moment per goal");
        // The score counts up one goal at a time, for the scoring side.
        let mut score = [0u32; 2];
        for g in &goals {
            let side = g.side.expect("a goal has a team");
            score[side.index()] += 1;
            assert_eq!(g.score, score, "at cycle {}", g.cycle);
            if let MomentKind::Goal {
                scorer,
                assist,
                own_goal: false,
            } = g.kind
            {
                assert!(scorer.is_some(), "a scorer at {}", g.cycle);
                assert_ne!(assist, scorer, "nobody assists himself");
            }
        }
        assert!(
            goals.iter().any(|g| matches!(
                g.kind,
                MomentKind::Goal {
                    assist: Some(_),
                    ..
                }
            )),
            "some goal of a full game follows a pass"
        );
        let ends: Vec<_> = all
            .iter()
            .filter(|x| matches!(x.kind, MomentKind::HalfTime | MomentKind::FullTime))
            .map(|x| (x.kind.id(), x.cycle))
            .collect();
        assert_eq!(ends, vec![("half_time", 3000), ("full_time", 6000)]);
        let full = all.last().expect("moments");
        assert_eq!(full.score, [last.teams[0].score, last.teams[1].score]);
    }
}
