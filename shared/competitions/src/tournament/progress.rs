//! Where a tournament stands: the games played so far given to their fixtures, each group
//! ranked, the knockout ties filled in as groups finish and ties are decided, and the matches
//! being played now shown in their fixture.
//!
//! Games are given to fixtures oldest first: a game between two teams is the first fixture
//! of that pair not yet played (groups first, in the file's order, then the knockout ties),
//! on the fixture's day when it names one. So two teams that met in their group and meet
//! again in the final have each game where it belongs, and a replayed game (a crash, a
//! second try) counts once, as `rclmtableprinter` counts a pair once.

use super::plan::{Fixture, Plan, Slot, Tie};
use super::schedule::round_robin;
use super::standings::{rank, Result as GameResult, Table};
use serde::Serialize;

/// A finished game, as the archive knows it.
#[derive(Clone, Debug, PartialEq)]
pub struct Played {
    /// `YYYY-MM-DDTHH:MM:SS` (rcssserver's file name) or any text that sorts the same way.
    pub date: String,
    pub teams: [String; 2],
    pub score: [u32; 2],
    pub penalties: Option<[u32; 2]>,
    /// Where the page shows it.
    pub link: Option<String>,
}

/// A match being played now.
#[derive(Clone, Debug, PartialEq)]
pub struct Live {
    pub teams: [String; 2],
    pub score: [u32; 2],
    pub penalties: Option<[u32; 2]>,
    pub cycle: u32,
    pub playmode: String,
    /// Where to watch it.
    pub link: String,
    /// Now, as `Played::date` is written: a live game is a fixture of today only, and only
    /// within the tournament's dates.
    pub date: String,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    Played,
    Live,
    ToPlay,
}

/// A fixture's state, its score the fixture's way round (left first).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Game {
    pub status: Status,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub score: Option<[u32; 2]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub penalties: Option<[u32; 2]>,
    /// The played game's page, or the live match's.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub link: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub date: Option<String>,
    /// A live match's cycle and play mode.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cycle: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub playmode: Option<String>,
}

impl Game {
    fn to_play(date: Option<String>) -> Game {
        Game {
            status: Status::ToPlay,
            score: None,
            penalties: None,
            link: None,
            date,
            cycle: None,
            playmode: None,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FixtureState {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub round: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub field: Option<u32>,
    pub left: String,
    pub right: String,
    #[serde(flatten)]
    pub game: Game,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Standing {
    /// As `rclmtableprinter` prints it (a tie shares the place before).
    pub place: u32,
    pub team: String,
    pub games: u32,
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    pub goals_for: u32,
    pub goals_against: u32,
    pub goal_difference: i64,
    pub points: u32,
    pub average_points: f64,
    /// Level with a neighbour on every rule.
    pub tied: bool,
}

/// A cell of the cross table: the row team's goals first.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Cell {
    pub score: [u32; 2],
    #[serde(skip_serializing_if = "Option::is_none")]
    pub penalties: Option<[u32; 2]>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GroupState {
    pub name: String,
    pub teams: Vec<String>,
    /// Every fixture played: its places fill the knockout.
    pub complete: bool,
    pub standings: Vec<Standing>,
    /// Rows and columns in the standings' order.
    pub cross: Vec<Vec<Option<Cell>>>,
    pub fixtures: Vec<FixtureState>,
}

/// One side of a tie: what the file says, and the team once known.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TieSide {
    pub slot: String,
    pub label: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub team: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TieState {
    pub id: String,
    pub left: TieSide,
    pub right: TieSide,
    #[serde(flatten)]
    pub game: Game,
    /// Decided by the score, or by the shoot-out when level.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub winner: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RoundState {
    pub name: String,
    pub ties: Vec<TieState>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Progress {
    pub name: String,
    pub title: String,
    pub groups: Vec<GroupState>,
    pub knockout: Vec<RoundState>,
    /// Fixtures and ties in all, played, and being played now.
    pub fixtures: u32,
    pub played: u32,
    pub live: u32,
    /// Games between the tournament's teams, in its dates, that fit no fixture: a pair that
    /// already has its result (a friendly, a second try), a game on another day than its
    /// fixture's, a knockout pair not known yet when it was played. Their number only.
    pub extra_games: u32,
}

/// A group's fixtures: those of the file, or every pair once.
pub fn fixtures_of(g: &super::plan::Group) -> Vec<Fixture> {
    if g.fixtures.is_empty() {
        round_robin(&g.teams, 1)
    } else {
        g.fixtures.clone()
    }
}

fn same_pair(a: &[String; 2], l: &str, r: &str) -> Option<bool> {
    if a[0] == l && a[1] == r {
        Some(false)
    } else if a[0] == r && a[1] == l {
        Some(true)
    } else {
        None
    }
}

fn on_day(date: &Option<String>, when: &str) -> bool {
    date.as_deref().is_none_or(|d| when.starts_with(d))
}

fn in_dates(plan: &Plan, when: &str) -> bool {
    let day = when.get(..10).unwrap_or(when);
    plan.from.as_deref().is_none_or(|f| day >= f) && plan.to.as_deref().is_none_or(|t| day <= t)
}

/// A result the fixture's way round.
fn oriented(p: &Played, swapped: bool) -> Game {
    let flip = |[a, b]: [u32; 2]| if swapped { [b, a] } else { [a, b] };
    Game {
        status: Status::Played,
        score: Some(flip(p.score)),
        penalties: p.penalties.map(flip),
        link: p.link.clone(),
        date: Some(p.date.clone()),
        cycle: None,
        playmode: None,
    }
}

fn live_game(l: &Live, swapped: bool) -> Game {
    let flip = |[a, b]: [u32; 2]| if swapped { [b, a] } else { [a, b] };
    Game {
        status: Status::Live,
        score: Some(flip(l.score)),
        penalties: l.penalties.map(flip),
        link: Some(l.link.clone()),
        date: None,
        cycle: Some(l.cycle),
        playmode: Some(l.playmode.clone()),
    }
}

/// Left wins (Some(true)), right wins (Some(false)), or neither.
fn decided(g: &Game) -> Option<bool> {
    let [a, b] = g.score?;
    if a != b {
        return Some(a > b);
    }
    let [pa, pb] = g.penalties?;
    (pa != pb).then_some(pa > pb)
}

struct Work<'a> {
    plan: &'a Plan,
    fixtures: Vec<Vec<Fixture>>,
    group_games: Vec<Vec<Game>>,
    /// Each group's results in the order played, the way `rank` wants them.
    results: Vec<Vec<GameResult>>,
    /// A finished group's teams, first place first.
    finished: Vec<Option<Vec<String>>>,
    ties: Vec<Game>,
    /// Winner and loser of each decided tie.
    outcome: Vec<Option<[String; 2]>>,
}

impl Work<'_> {
    fn slot(&self, s: &str) -> Option<String> {
        match Slot::parse(s).ok()? {
            Slot::Team(t) => Some(t),
            Slot::Place { group, place } => {
                let g = self.plan.groups.iter().position(|g| g.name == group)?;
                self.finished[g].as_ref()?.get(place as usize - 1).cloned()
            }
            Slot::Winner(id) => self.outcome_of(&id).map(|[w, _]| w),
            Slot::Loser(id) => self.outcome_of(&id).map(|[_, l]| l),
        }
    }

    fn outcome_of(&self, id: &str) -> Option<[String; 2]> {
        let i = self.plan.knockout.iter().position(|t| t.id == id)?;
        self.outcome[i].clone()
    }

    fn tie_teams(&self, t: &Tie) -> Option<[String; 2]> {
        Some([self.slot(&t.left)?, self.slot(&t.right)?])
    }

    fn rank_group(&mut self, g: usize) {
        let table = rank(&self.results[g]);
        let mut order: Vec<String> = table.rows.iter().map(|r| r.team.clone()).collect();
        for t in &self.plan.groups[g].teams {
            if !order.contains(t) {
                order.push(t.clone());
            }
        }
        if self.group_games[g]
            .iter()
            .all(|x| x.status == Status::Played)
        {
            self.finished[g] = Some(order);
        }
    }

    /// Gives `p` to the first open fixture of its pair; false when there is none.
    fn place(&mut self, p: &Played) -> bool {
        for g in 0..self.fixtures.len() {
            for f in 0..self.fixtures[g].len() {
                let fx = &self.fixtures[g][f];
                if self.group_games[g][f].status == Status::Played || !on_day(&fx.date, &p.date) {
                    continue;
                }
                if let Some(swapped) = same_pair(&p.teams, &fx.left, &fx.right) {
                    self.group_games[g][f] = oriented(p, swapped);
                    self.results[g].push(GameResult {
                        date: p.date.clone(),
                        teams: p.teams.clone(),
                        score: p.score,
                        penalties: p.penalties,
                    });
                    self.rank_group(g);
                    return true;
                }
            }
        }
        for i in 0..self.plan.knockout.len() {
            let t = &self.plan.knockout[i];
            // A tie played but undecided (level, and no shoot-out) stays open: the pair's
            // next game, the replay, decides it.
            let settled = self.ties[i].status == Status::Played && self.outcome[i].is_some();
            if settled || !on_day(&t.date, &p.date) {
                continue;
            }
            let Some([l, r]) = self.tie_teams(t) else {
                continue;
            };
            if let Some(swapped) = same_pair(&p.teams, &l, &r) {
                let game = oriented(p, swapped);
                self.outcome[i] = decided(&game).map(|left| {
                    if left {
                        [l.clone(), r.clone()]
                    } else {
                        [r.clone(), l.clone()]
                    }
                });
                self.ties[i] = game;
                return true;
            }
        }
        false
    }

    /// Shows `l` in the first open fixture of its pair.
    fn show_live(&mut self, l: &Live) {
        if !in_dates(self.plan, &l.date) {
            return;
        }
        for g in 0..self.fixtures.len() {
            for f in 0..self.fixtures[g].len() {
                let fx = &self.fixtures[g][f];
                if self.group_games[g][f].status != Status::ToPlay || !on_day(&fx.date, &l.date) {
                    continue;
                }
                if let Some(swapped) = same_pair(&l.teams, &fx.left, &fx.right) {
                    self.group_games[g][f] = live_game(l, swapped);
                    return;
                }
            }
        }
        for i in 0..self.plan.knockout.len() {
            let open = self.ties[i].status == Status::ToPlay
                || (self.ties[i].status == Status::Played && self.outcome[i].is_none());
            if !open || !on_day(&self.plan.knockout[i].date, &l.date) {
                continue;
            }
            let Some([a, b]) = self.tie_teams(&self.plan.knockout[i]) else {
                continue;
            };
            if let Some(swapped) = same_pair(&l.teams, &a, &b) {
                self.ties[i] = live_game(l, swapped);
                return;
            }
        }
    }
}

fn standings(table: &Table, teams: &[String]) -> Vec<Standing> {
    let places = table.printed_places();
    let mut out: Vec<Standing> = table
        .rows
        .iter()
        .zip(places)
        .map(|(r, place)| Standing {
            place,
            team: r.team.clone(),
            games: r.games,
            wins: r.wins,
            draws: r.draws,
            losses: r.losses,
            goals_for: r.goals_for,
            goals_against: r.goals_against,
            goal_difference: r.goal_difference(),
            points: r.points,
            average_points: r.average_points(),
            tied: r.tied,
        })
        .collect();
    for t in teams {
        if !out.iter().any(|s| &s.team == t) {
            out.push(Standing {
                place: out.len() as u32 + 1,
                team: t.clone(),
                games: 0,
                wins: 0,
                draws: 0,
                losses: 0,
                goals_for: 0,
                goals_against: 0,
                goal_difference: 0,
                points: 0,
                average_points: 0.0,
                tied: false,
            });
        }
    }
    out
}

/// The tournament as of now. `played` in any order; `live`: the matches being relayed.
pub fn progress(plan: &Plan, played: &[Played], live: &[Live]) -> Progress {
    let fixtures: Vec<Vec<Fixture>> = plan.groups.iter().map(fixtures_of).collect();
    let mut w = Work {
        plan,
        group_games: fixtures
            .iter()
            .map(|fs| fs.iter().map(|f| Game::to_play(f.date.clone())).collect())
            .collect(),
        results: vec![Vec::new(); fixtures.len()],
        finished: vec![None; fixtures.len()],
        ties: plan
            .knockout
            .iter()
            .map(|t| Game::to_play(t.date.clone()))
            .collect(),
        outcome: vec![None; plan.knockout.len()],
        fixtures,
    };
    // A group without fixtures is complete from the start (a knockout-only tournament's
    // seeding group is not a thing, but an empty group must not block the bracket).
    for g in 0..w.fixtures.len() {
        w.rank_group(g);
    }
    let mut order: Vec<&Played> = played.iter().filter(|p| in_dates(plan, &p.date)).collect();
    order.sort_by(|a, b| a.date.cmp(&b.date));
    let mut extra = 0;
    let teams: std::collections::HashSet<&str> = plan
        .groups
        .iter()
        .flat_map(|g| g.teams.iter().map(String::as_str))
        .collect();
    for p in order {
        if !w.place(p) && teams.contains(p.teams[0].as_str()) && teams.contains(p.teams[1].as_str())
        {
            extra += 1;
        }
    }
    for l in live {
        w.show_live(l);
    }

    let groups: Vec<GroupState> = plan
        .groups
        .iter()
        .enumerate()
        .map(|(g, group)| {
            let table = rank(&w.results[g]);
            let standings = standings(&table, &group.teams);
            let cross = standings
                .iter()
                .map(|a| {
                    standings
                        .iter()
                        .map(|b| {
                            (a.team != b.team)
                                .then(|| table.between(&a.team, &b.team))
                                .flatten()
                                .map(|(f, ag, pens)| Cell {
                                    score: [f, ag],
                                    penalties: pens,
                                })
                        })
                        .collect()
                })
                .collect();
            GroupState {
                name: group.name.clone(),
                teams: group.teams.clone(),
                complete: w.finished[g].is_some(),
                standings,
                cross,
                fixtures: w.fixtures[g]
                    .iter()
                    .zip(&w.group_games[g])
                    .map(|(f, game)| FixtureState {
                        round: f.round,
                        field: f.field,
                        left: f.left.clone(),
                        right: f.right.clone(),
                        game: game.clone(),
                    })
                    .collect(),
            }
        })
        .collect();

    let mut knockout: Vec<RoundState> = Vec::new();
    for (i, t) in plan.knockout.iter().enumerate() {
        let side = |s: &str| TieSide {
            slot: s.to_owned(),
            label: Slot::parse(s).map(|x| x.describe()).unwrap_or_default(),
            team: w.slot(s),
        };
        let state = TieState {
            id: t.id.clone(),
            left: side(&t.left),
            right: side(&t.right),
            game: w.ties[i].clone(),
            winner: w.outcome[i].as_ref().map(|[winner, _]| winner.clone()),
        };
        match knockout.iter_mut().find(|r| r.name == t.round) {
            Some(r) => r.ties.push(state),
            None => knockout.push(RoundState {
                name: t.round.clone(),
                ties: vec![state],
            }),
        }
    }

    let all_games = || {
        groups
            .iter()
            .flat_map(|g| g.fixtures.iter().map(|f| &f.game))
            .chain(knockout.iter().flat_map(|r| r.ties.iter().map(|t| &t.game)))
    };
    let count = |s: Status| all_games().filter(|g| g.status == s).count() as u32;
    Progress {
        name: plan.name.clone(),
        title: plan.title().to_owned(),
        fixtures: all_games().count() as u32,
        played: count(Status::Played),
        live: count(Status::Live),
        extra_games: extra,
        groups,
        knockout,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tournament::plan::Group;

    fn game(date: &str, l: &str, r: &str, score: [u32; 2], pens: Option<[u32; 2]>) -> Played {
        Played {
            date: date.into(),
            teams: [l.into(), r.into()],
            score,
            penalties: pens,
            link: Some(format!("/?log={date}")),
        }
    }

    fn cup() -> Plan {
        Plan {
            name: "cup".into(),
            groups: vec![Group {
                name: "A".into(),
                teams: vec!["P".into(), "Q".into(), "R".into()],
                fixtures: vec![],
            }],
            knockout: vec![Tie {
                id: "F".into(),
                round: "Final".into(),
                left: "A:1".into(),
                right: "A:2".into(),
                date: None,
            }],
            ..Plan::default()
        }
    }

    #[test]
    fn the_final_waits_for_the_group_then_takes_the_next_game_of_its_pair() {
        let plan = cup();
        let g1 = game("2026-07-01T10:00:00", "P", "Q", [2, 0], None);
        let g2 = game("2026-07-01T11:00:00", "R", "P", [0, 1], None);
        let p = progress(&plan, &[g1.clone(), g2.clone()], &[]);
        assert!(!p.groups[0].complete);
        assert_eq!(p.knockout[0].ties[0].left.team, None);
        assert_eq!(p.knockout[0].ties[0].left.label, "1st of group A");
        assert_eq!((p.played, p.fixtures), (2, 4));

        // Q beats R: P first, then Q (3 points, beat R), then R.
        let g3 = game("2026-07-01T12:00:00", "Q", "R", [1, 0], None);
        // A second P–Q game: the final, level and won on penalties by Q.
        let g4 = game("2026-07-02T10:00:00", "Q", "P", [1, 1], Some([4, 3]));
        let live = Live {
            teams: ["Q".into(), "R".into()],
            score: [0, 0],
            penalties: None,
            cycle: 1200,
            playmode: "play_on".into(),
            link: "/m/one".into(),
            date: "2026-07-02T12:00:00".into(),
        };
        let p = progress(&plan, &[g4, g3, g2, g1], std::slice::from_ref(&live));
        let a = &p.groups[0];
        assert!(a.complete);
        let order: Vec<&str> = a.standings.iter().map(|s| s.team.as_str()).collect();
        assert_eq!(order, ["P", "Q", "R"]);
        assert_eq!(a.standings[0].points, 6);
        let f = &p.knockout[0].ties[0];
        assert_eq!(f.left.team.as_deref(), Some("P"));
        assert_eq!(f.right.team.as_deref(), Some("Q"));
        // The fixture's way round: P first.
        assert_eq!(f.game.score, Some([1, 1]));
        assert_eq!(f.game.penalties, Some([3, 4]));
        assert_eq!(f.winner.as_deref(), Some("Q"));
        // Every fixture is played: the live Q–R game is no fixture of this tournament.
        assert_eq!((p.played, p.live, p.fixtures), (4, 0, 4));
        // Cross table, rows in place order: P beat Q 2–0.
        assert_eq!(a.cross[0][1].as_ref().map(|c| c.score), Some([2, 0]));
        assert_eq!(a.cross[1][0].as_ref().map(|c| c.score), Some([0, 2]));
        assert!(a.cross[0][0].is_none());
    }

    #[test]
    fn a_live_match_shows_in_its_fixture_and_repeats_are_extra() {
        let plan = cup();
        let g1 = game("2026-07-01T10:00:00", "P", "Q", [2, 0], None);
        let again = game("2026-07-01T10:30:00", "Q", "P", [0, 0], None);
        let live = Live {
            teams: ["R".into(), "Q".into()],
            score: [1, 0],
            penalties: None,
            cycle: 2500,
            playmode: "play_on".into(),
            link: "/m/field-1".into(),
            date: "2026-07-01T11:00:00".into(),
        };
        let p = progress(&plan, &[g1, again], std::slice::from_ref(&live));
        assert_eq!(p.extra_games, 1);
        let fx = &p.groups[0].fixtures;
        let q_r = fx
            .iter()
            .find(|f| {
                [&f.left, &f.right].contains(&&"R".to_owned()) && f.left != "P" && f.right != "P"
            })
            .expect("the Q-R fixture");
        assert_eq!(q_r.game.status, Status::Live);
        assert_eq!(q_r.game.cycle, Some(2500));
        let r_first = q_r.left == "R";
        assert_eq!(q_r.game.score, Some(if r_first { [1, 0] } else { [0, 1] }));
        assert_eq!(p.live, 1);
        // The same match on a day the tournament does not cover is no fixture of it.
        let mut plan = cup();
        plan.to = Some("2026-06-30".into());
        let mut late = live.clone();
        late.date = "2026-07-01T11:00:00".into();
        assert_eq!(progress(&plan, &[], &[late]).live, 0);
    }

    #[test]
    fn a_knockout_game_left_level_is_decided_by_the_pairs_next_game() {
        let plan = cup();
        let group = [
            game("2026-07-01T10:00:00", "P", "Q", [2, 0], None),
            game("2026-07-01T11:00:00", "R", "P", [0, 1], None),
            game("2026-07-01T12:00:00", "Q", "R", [1, 0], None),
        ];
        // The final ends level with no shoot-out (a server without penalty_shoot_outs):
        // played, nobody through yet.
        let level = game("2026-07-02T10:00:00", "P", "Q", [0, 0], None);
        let mut all = group.to_vec();
        all.push(level);
        let p = progress(&plan, &all, &[]);
        let f = &p.knockout[0].ties[0];
        assert_eq!((f.game.status, f.winner.clone()), (Status::Played, None));
        // Played again: that game decides it, and nothing is extra.
        all.push(game("2026-07-02T11:00:00", "Q", "P", [2, 1], None));
        let p = progress(&plan, &all, &[]);
        let f = &p.knockout[0].ties[0];
        assert_eq!(f.game.score, Some([1, 2]));
        assert_eq!(f.winner.as_deref(), Some("Q"));
        assert_eq!(p.extra_games, 0);
    }

    #[test]
    fn dates_bound_the_tournament_and_its_fixtures() {
        let mut plan = cup();
        plan.from = Some("2026-07-01".into());
        plan.groups[0].fixtures = vec![Fixture {
            left: "P".into(),
            right: "Q".into(),
            date: Some("2026-07-02".into()),
            ..Fixture::default()
        }];
        let old = game("2026-06-30T10:00:00", "P", "Q", [5, 0], None);
        let early = game("2026-07-01T10:00:00", "P", "Q", [4, 0], None);
        let right_day = game("2026-07-02T10:00:00", "P", "Q", [1, 0], None);
        let p = progress(&plan, &[old, early, right_day], &[]);
        assert_eq!(p.groups[0].fixtures[0].game.score, Some([1, 0]));
        // Only the game in the tournament's dates counts as an extra game.
        assert_eq!(p.extra_games, 1);
        assert!(p.groups[0].complete);
        // R has no fixture: listed last with nothing.
        assert_eq!(p.groups[0].standings[2].team, "R");
        assert_eq!(p.groups[0].standings[2].games, 0);
    }
}
