//! Which games a tournament plays next, for a runner with several fields: the group fixtures
//! in the schedule's order (a round's games at once, when the file gives rounds), then each
//! knockout tie as soon as both its sides are known. No team is in two games of one wave.

use super::plan::Plan;
use super::progress::{Progress, Status};

/// A game to play, its sides as the fixture has them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NextGame {
    pub left: String,
    pub right: String,
    /// The knockout tie's id; `None` for a group game.
    pub tie: Option<String>,
    /// Where it stands, for people: "group A", "Final (F)".
    pub label: String,
}

impl NextGame {
    /// A knockout game left level goes to a shoot-out; a group game stays a draw.
    pub fn shoot_out(&self) -> bool {
        self.tie.is_some()
    }
}

/// Up to `fields` games to play at once. Group fixtures come first: where the file lists a
/// group's fixtures with rounds, only the earliest round not yet played; where it lists none,
/// every pair not yet played, in the order of a one-field schedule. Then the knockout ties
/// whose two teams are known. `skip` leaves out a game the runner will not play (again): one
/// whose game was invalid when replays were not asked for, or one tried already. Empty when
/// nothing can be played: the tournament is over, or what is left waits on a skipped game.
pub fn next_wave(
    plan: &Plan,
    p: &Progress,
    fields: usize,
    skip: impl Fn(&NextGame) -> bool,
) -> Vec<NextGame> {
    let mut candidates = Vec::new();
    for (group, state) in plan.groups.iter().zip(&p.groups) {
        let open: Vec<(Option<u32>, NextGame)> = state
            .fixtures
            .iter()
            .filter(|f| f.game.status == Status::ToPlay)
            .map(|f| {
                let g = NextGame {
                    left: f.left.clone(),
                    right: f.right.clone(),
                    tie: None,
                    label: format!("group {}", state.name),
                };
                (f.round, g)
            })
            .filter(|(_, g)| !skip(g))
            .collect();
        let earliest = if group.fixtures.is_empty() {
            None
        } else {
            open.iter().filter_map(|(round, _)| *round).min()
        };
        candidates.extend(
            open.into_iter()
                .filter(|(round, _)| earliest.is_none() || *round == earliest)
                .map(|(_, g)| g),
        );
    }
    for round in &p.knockout {
        for t in &round.ties {
            if t.game.status != Status::ToPlay {
                continue;
            }
            if let (Some(l), Some(r)) = (&t.left.team, &t.right.team) {
                let g = NextGame {
                    left: l.clone(),
                    right: r.clone(),
                    tie: Some(t.id.clone()),
                    label: format!("{} ({})", round.name, t.id),
                };
                if !skip(&g) {
                    candidates.push(g);
                }
            }
        }
    }
    let mut wave: Vec<NextGame> = Vec::new();
    for c in candidates {
        if wave.len() >= fields.max(1) {
            break;
        }
        let busy = |team: &str| wave.iter().any(|w| w.left == team || w.right == team);
        if !busy(&c.left) && !busy(&c.right) {
            wave.push(c);
        }
    }
    wave
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tournament::{progress, Played};

    fn spring() -> Plan {
        let text = std::fs::read_to_string(pitchside_fixtures::path("tournaments/spring.toml"))
            .expect("the spring cup's file");
        toml::from_str(&text).expect("the spring cup reads")
    }

    fn played(n: u32, left: &str, right: &str, score: [u32; 2], pens: Option<[u32; 2]>) -> Played {
        Played {
            date: format!("2026-11-28T10:{n:02}:00"),
            teams: [left.into(), right.into()],
            score,
            penalties: pens,
            link: None,
        }
    }

    fn pairs(wave: &[NextGame]) -> Vec<(&str, &str)> {
        wave.iter()
            .map(|g| (g.left.as_str(), g.right.as_str()))
            .collect()
    }

    /// The spring cup on two fields: the group's six games two at a time with four different
    /// teams, then both semi-finals at once (1st against 4th, 2nd against 3rd), then the final
    /// between their winners, a shoot-out deciding a level semi-final.
    #[test]
    fn a_group_then_its_knockout_two_fields_at_a_time() {
        let plan = spring();
        let mut games: Vec<Played> = Vec::new();
        let scores = [[2, 0], [1, 1], [3, 1], [0, 0], [2, 1], [1, 0]];
        for k in 0..3 {
            let wave = next_wave(&plan, &progress(&plan, &games, &[]), 2, |_| false);
            assert_eq!(wave.len(), 2, "wave {k}: {wave:?}");
            let mut teams: Vec<&str> = pairs(&wave).iter().flat_map(|(l, r)| [*l, *r]).collect();
            teams.sort_unstable();
            teams.dedup();
            assert_eq!(teams.len(), 4, "four different teams: {wave:?}");
            assert!(wave.iter().all(|g| !g.shoot_out() && g.label == "group A"));
            for (i, g) in wave.iter().enumerate() {
                let n = games.len() as u32;
                games.push(played(n, &g.left, &g.right, scores[2 * k + i], None));
            }
        }
        let p = progress(&plan, &games, &[]);
        assert!(p.groups[0].complete);
        let order: Vec<&str> = p.groups[0]
            .standings
            .iter()
            .map(|s| s.team.as_str())
            .collect();
        let semis = next_wave(&plan, &p, 2, |_| false);
        assert_eq!(
            pairs(&semis),
            [(order[0], order[3]), (order[1], order[2])],
            "{order:?}"
        );
        assert!(semis.iter().all(NextGame::shoot_out));
        assert_eq!(semis[0].label, "Semi-finals (SF1)");
        games.push(played(10, order[0], order[3], [1, 1], Some([4, 3])));
        games.push(played(11, order[1], order[2], [0, 2], None));
        let last = next_wave(&plan, &progress(&plan, &games, &[]), 2, |_| false);
        assert_eq!(pairs(&last), [(order[0], order[2])]);
        assert_eq!(last[0].tie.as_deref(), Some("F"));
        games.push(played(12, order[0], order[2], [2, 0], None));
        assert!(next_wave(&plan, &progress(&plan, &games, &[]), 2, |_| false).is_empty());
    }

    /// Rounds in the file are kept: the second round waits for the whole first, even with
    /// fields to spare. A skipped pair is left out, and what waits on it does not start.
    #[test]
    fn the_file_s_rounds_are_kept_and_a_skipped_pair_is_left_out() {
        let mut plan = spring();
        let teams = plan.groups[0].teams.clone();
        plan.groups[0].fixtures = super::super::schedule::round_robin(&teams, 2);
        let first: Vec<(String, String)> = plan.groups[0]
            .fixtures
            .iter()
            .filter(|f| f.round == Some(1))
            .map(|f| (f.left.clone(), f.right.clone()))
            .collect();
        assert_eq!(first.len(), 2);
        let p = progress(&plan, &[], &[]);
        let wave = next_wave(&plan, &p, 4, |_| false);
        let got: Vec<(String, String)> = wave
            .iter()
            .map(|g| (g.left.clone(), g.right.clone()))
            .collect();
        assert_eq!(got, first, "only round 1, though four fields are free");
        let (l, r) = first[0].clone();
        let wave = next_wave(&plan, &p, 4, |g| g.left == l && g.right == r);
        assert_eq!(wave.len(), 1);
        assert_eq!((wave[0].left.clone(), wave[0].right.clone()), first[1]);
    }
}
