//! A tournament file's contents: groups with their teams (and, once a schedule is made, their
//! fixtures) and the knockout ties. The relay reads it from TOML (book, "Tournaments");
//! here it is only checked, so that a typo in a team's name is said when the relay starts
//! rather than found as a fixture that never gets played.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use thiserror::Error;

/// The whole file.
#[derive(Clone, Debug, Default, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Plan {
    /// The tournament's name in its address, `/t/NAME`: letters, digits, `-`, `_`, `.`.
    pub name: String,
    /// What the page calls it (default: the name).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// Only games from this day on (`YYYY-MM-DD`) count: older games between the same teams
    /// (last year's, tests) are not results of this tournament.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from: Option<String>,
    /// Only games up to this day (`YYYY-MM-DD`, included) count.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub to: Option<String>,
    #[serde(default, rename = "group", skip_serializing_if = "Vec::is_empty")]
    pub groups: Vec<Group>,
    #[serde(default, rename = "knockout", skip_serializing_if = "Vec::is_empty")]
    pub knockout: Vec<Tie>,
    /// Each team's start script, for `pitchside-play --tournament` (a path from the file's
    /// folder): rcssserver runs it with autotest2d's arguments, as a series' scripts.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub start: BTreeMap<String, String>,
}

/// A round-robin group.
#[derive(Clone, Debug, Default, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Group {
    pub name: String,
    /// Team names as the teams connect to rcssserver (letters, digits, `-`, `_`).
    pub teams: Vec<String>,
    /// The group's games in the order they are played. None listed: every pair once, in the
    /// order a one-field schedule would play them.
    #[serde(default, rename = "fixture", skip_serializing_if = "Vec::is_empty")]
    pub fixtures: Vec<Fixture>,
}

/// One game of a group.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Fixture {
    /// The time slot (games of one round are played at once, on different fields).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub round: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub field: Option<u32>,
    pub left: String,
    pub right: String,
    /// The day it is played on (`YYYY-MM-DD`): only a game of that day is this fixture.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub date: Option<String>,
}

/// One knockout game. Its sides are slots: a team's name, `GROUP:PLACE` (the team in that
/// place once the group has played all its games), `winner:ID` or `loser:ID` of an earlier
/// tie. Team names never hold a `:`, so the forms cannot be confused.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Tie {
    pub id: String,
    /// The round it belongs to ("Semi-finals", "Final"): ties of one round are shown together,
    /// rounds in the order they first appear.
    pub round: String,
    pub left: String,
    pub right: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub date: Option<String>,
}

/// What one side of a tie is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Slot {
    Team(String),
    Place { group: String, place: u32 },
    Winner(String),
    Loser(String),
}

impl Slot {
    pub fn parse(s: &str) -> Result<Slot, PlanError> {
        let bad = || PlanError::Slot(s.to_owned());
        let Some((head, tail)) = s.split_once(':') else {
            return if team_name_ok(s) {
                Ok(Slot::Team(s.to_owned()))
            } else {
                Err(bad())
            };
        };
        match head {
            "winner" => Ok(Slot::Winner(tail.to_owned())),
            "loser" => Ok(Slot::Loser(tail.to_owned())),
            group => {
                let place = tail
                    .parse::<u32>()
                    .ok()
                    .filter(|p| *p >= 1)
                    .ok_or_else(bad)?;
                Ok(Slot::Place {
                    group: group.to_owned(),
                    place,
                })
            }
        }
    }

    /// In words for the page, before the slot is filled.
    pub fn describe(&self) -> String {
        match self {
            Slot::Team(t) => t.clone(),
            Slot::Place { group, place } => format!("{} of group {group}", ordinal(*place)),
            Slot::Winner(id) => format!("winner of {id}"),
            Slot::Loser(id) => format!("loser of {id}"),
        }
    }
}

fn ordinal(n: u32) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

/// What is wrong with a tournament file, said so the organiser can fix it.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum PlanError {
    #[error(
        "the tournament's name {0:?} cannot be part of an address (letters, digits, '-', '_', '.')"
    )]
    Name(String),
    #[error("{0:?} is not a team name rcssserver accepts (letters, digits, '-', '_')")]
    Team(String),
    #[error("group {group:?} names {team:?} twice")]
    TeamTwice { group: String, team: String },
    #[error("two groups are called {0:?}")]
    GroupTwice(String),
    #[error("group {group:?} has a fixture with {team:?}, which is not one of its teams")]
    Stranger { group: String, team: String },
    #[error("group {group:?} has a fixture of {team:?} against itself")]
    Itself { group: String, team: String },
    #[error(
        "{0:?} is not a knockout side: give a team's name, GROUP:PLACE, winner:ID or loser:ID"
    )]
    Slot(String),
    #[error("two knockout ties have the id {0:?}")]
    TieTwice(String),
    #[error("tie {tie:?} names {slot:?}, but {why}")]
    Unknown {
        tie: String,
        slot: String,
        why: String,
    },
    #[error("{0:?} is not a date of the form YYYY-MM-DD")]
    Date(String),
    #[error("the tournament ends ({to}) before it begins ({from})")]
    Dates { from: String, to: String },
    #[error("a group has no name")]
    GroupName,
    #[error("{team:?} is in group {first:?} and in group {second:?}")]
    TwoGroups {
        team: String,
        first: String,
        second: String,
    },
    #[error("group {group:?} has {left:?} against {right:?} twice: a pair plays once in a group (standings count a pair's first result only)")]
    PairTwice {
        group: String,
        left: String,
        right: String,
    },
    #[error("tie {0:?} has the same side twice")]
    SameSides(String),
}

/// rcssserver's rule for team names.
pub fn team_name_ok(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= 64
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

fn date_ok(s: &str) -> bool {
    let b = s.as_bytes();
    let shape = b.len() == 10
        && b[4] == b'-'
        && b[7] == b'-'
        && b.iter()
            .enumerate()
            .all(|(i, c)| i == 4 || i == 7 || c.is_ascii_digit());
    let month = s.get(5..7).and_then(|m| m.parse::<u8>().ok());
    let day = s.get(8..10).and_then(|d| d.parse::<u8>().ok());
    shape
        && month.is_some_and(|m| (1..=12).contains(&m))
        && day.is_some_and(|d| (1..=31).contains(&d))
}

impl Plan {
    /// Every rule the file must keep; the first broken one.
    pub fn check(&self) -> Result<(), PlanError> {
        if self.name.is_empty()
            || !self
                .name
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"-_.".contains(&b))
            || self.name.starts_with('.')
        {
            return Err(PlanError::Name(self.name.clone()));
        }
        for d in [&self.from, &self.to].into_iter().flatten() {
            if !date_ok(d) {
                return Err(PlanError::Date(d.clone()));
            }
        }
        if let (Some(from), Some(to)) = (&self.from, &self.to) {
            if from > to {
                return Err(PlanError::Dates {
                    from: from.clone(),
                    to: to.clone(),
                });
            }
        }
        let mut groups: Vec<&str> = Vec::new();
        for (gi, g) in self.groups.iter().enumerate() {
            if g.name.trim().is_empty() || g.name.contains(':') {
                return Err(PlanError::GroupName);
            }
            if groups.contains(&g.name.as_str()) {
                return Err(PlanError::GroupTwice(g.name.clone()));
            }
            groups.push(&g.name);
            for (i, t) in g.teams.iter().enumerate() {
                if !team_name_ok(t) {
                    return Err(PlanError::Team(t.clone()));
                }
                if g.teams[..i].contains(t) {
                    return Err(PlanError::TeamTwice {
                        group: g.name.clone(),
                        team: t.clone(),
                    });
                }
                if let Some(other) = self.groups[..gi].iter().find(|o| o.teams.contains(t)) {
                    return Err(PlanError::TwoGroups {
                        team: t.clone(),
                        first: other.name.clone(),
                        second: g.name.clone(),
                    });
                }
            }
            let mut pairs: Vec<[&str; 2]> = Vec::new();
            for f in &g.fixtures {
                let mut pair = [f.left.as_str(), f.right.as_str()];
                pair.sort_unstable();
                if pairs.contains(&pair) {
                    return Err(PlanError::PairTwice {
                        group: g.name.clone(),
                        left: f.left.clone(),
                        right: f.right.clone(),
                    });
                }
                pairs.push(pair);
            }
            for f in &g.fixtures {
                for t in [&f.left, &f.right] {
                    if !g.teams.contains(t) {
                        return Err(PlanError::Stranger {
                            group: g.name.clone(),
                            team: t.clone(),
                        });
                    }
                }
                if f.left == f.right {
                    return Err(PlanError::Itself {
                        group: g.name.clone(),
                        team: f.left.clone(),
                    });
                }
                if let Some(d) = f.date.as_ref().filter(|d| !date_ok(d)) {
                    return Err(PlanError::Date(d.clone()));
                }
            }
        }
        let mut ids: Vec<&str> = Vec::new();
        for t in &self.knockout {
            if let Some(d) = t.date.as_ref().filter(|d| !date_ok(d)) {
                return Err(PlanError::Date(d.clone()));
            }
            for side in [&t.left, &t.right] {
                let unknown = |why: String| PlanError::Unknown {
                    tie: t.id.clone(),
                    slot: side.clone(),
                    why,
                };
                match Slot::parse(side)? {
                    Slot::Team(_) => {}
                    Slot::Place { group, place } => {
                        let Some(g) = self.groups.iter().find(|g| g.name == group) else {
                            return Err(unknown(format!("there is no group {group:?}")));
                        };
                        if place as usize > g.teams.len() {
                            return Err(unknown(format!(
                                "group {group:?} has only {} teams",
                                g.teams.len()
                            )));
                        }
                    }
                    Slot::Winner(id) | Slot::Loser(id) => {
                        if !ids.contains(&id.as_str()) {
                            return Err(unknown(format!("no tie before it has the id {id:?}")));
                        }
                    }
                }
            }
            if t.left == t.right {
                return Err(PlanError::SameSides(t.id.clone()));
            }
            if ids.contains(&t.id.as_str()) {
                return Err(PlanError::TieTwice(t.id.clone()));
            }
            ids.push(&t.id);
        }
        Ok(())
    }

    pub fn title(&self) -> &str {
        self.title.as_deref().unwrap_or(&self.name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plan() -> Plan {
        Plan {
            name: "cup".into(),
            groups: vec![Group {
                name: "A".into(),
                teams: vec!["HELIOS".into(), "CYRUS".into(), "YuShan".into()],
                fixtures: vec![],
            }],
            knockout: vec![
                Tie {
                    id: "F".into(),
                    round: "Final".into(),
                    left: "A:1".into(),
                    right: "A:2".into(),
                    date: None,
                },
                Tie {
                    id: "X".into(),
                    round: "Show".into(),
                    left: "winner:F".into(),
                    right: "Oxsy".into(),
                    date: None,
                },
            ],
            ..Plan::default()
        }
    }

    #[test]
    fn a_sound_plan_passes() {
        assert_eq!(plan().check(), Ok(()));
    }

    #[test]
    fn each_mistake_is_named() {
        let mut p = plan();
        p.groups[0].teams.push("CYRUS".into());
        assert!(matches!(p.check(), Err(PlanError::TeamTwice { .. })));
        let mut p = plan();
        p.groups[0].teams.push("two words".into());
        assert_eq!(p.check(), Err(PlanError::Team("two words".into())));
        let mut p = plan();
        p.groups[0].fixtures.push(Fixture {
            left: "HELIOS".into(),
            right: "Oxsy".into(),
            ..Fixture::default()
        });
        assert!(matches!(p.check(), Err(PlanError::Stranger { .. })));
        let mut p = plan();
        p.knockout[0].left = "B:1".into();
        let e = p.check().unwrap_err();
        assert!(e.to_string().contains("there is no group \"B\""), "{e}");
        let mut p = plan();
        p.knockout[0].right = "A:4".into();
        assert!(p.check().unwrap_err().to_string().contains("only 3 teams"));
        let mut p = plan();
        p.knockout[1].left = "winner:SF".into();
        assert!(matches!(p.check(), Err(PlanError::Unknown { .. })));
        let mut p = plan();
        p.knockout[0].left = "A:first".into();
        assert_eq!(p.check(), Err(PlanError::Slot("A:first".into())));
        let mut p = plan();
        p.name = "../x".into();
        assert!(matches!(p.check(), Err(PlanError::Name(_))));
        let mut p = plan();
        p.from = Some("26-11-2026".into());
        assert!(matches!(p.check(), Err(PlanError::Date(_))));
        p.from = Some("2026-13-45".into());
        assert!(matches!(p.check(), Err(PlanError::Date(_))));
        p.from = Some("2026-07-20".into());
        p.to = Some("2026-07-15".into());
        assert!(matches!(p.check(), Err(PlanError::Dates { .. })));
        let mut p = plan();
        p.groups.push(Group {
            name: "B".into(),
            teams: vec!["Oxsy".into(), "CYRUS".into()],
            fixtures: vec![],
        });
        assert!(matches!(p.check(), Err(PlanError::TwoGroups { .. })));
        let mut p = plan();
        let f = |l: &str, r: &str| Fixture {
            left: l.into(),
            right: r.into(),
            ..Fixture::default()
        };
        p.groups[0].fixtures = vec![f("HELIOS", "CYRUS"), f("CYRUS", "HELIOS")];
        assert!(matches!(p.check(), Err(PlanError::PairTwice { .. })));
        let mut p = plan();
        p.knockout[0].right = "A:1".into();
        assert_eq!(p.check(), Err(PlanError::SameSides("F".into())));
    }

    #[test]
    fn slots_read_and_say_themselves() {
        assert_eq!(
            Slot::parse("A:2").unwrap().describe(),
            "2nd of group A".to_owned()
        );
        assert_eq!(
            Slot::parse("winner:SF1").unwrap().describe(),
            "winner of SF1"
        );
        assert_eq!(Slot::parse("A:11").unwrap().describe(), "11th of group A");
        assert_eq!(Slot::parse("HELIOS"), Ok(Slot::Team("HELIOS".into())));
        assert!(Slot::parse("A:0").is_err());
    }
}
