//! `--team-colours FILE`: each team's home and away kits, from which the broadcast view's
//! colours for a match are chosen ([`pitchside_analysis::colour::choose_kits`]; book, "Team
//! colours").
//!
//! The file is read and checked at start, and a mistake stops the relay saying the file, the
//! team and the key, so an organiser finds a typo before the stream rather than a team in the
//! wrong colours during it. It is read again when its modification time or length changes (a
//! team added between rounds); a new version with a mistake does not undo the last good one,
//! which stays in use while the answer says what is wrong.

use pitchside_analysis::colour::{Kit, Rgb, TeamKits};
use pitchside_competitions::tournament::plan::team_name_ok;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::SystemTime;
use thiserror::Error;

/// The keys a team's table may have.
pub const KEYS: [&str; 4] = ["home", "away", "home_goalie", "away_goalie"];

/// What is wrong with a colours file, said so the organiser can fix it: the file, and where
/// it applies the team and the key.
#[derive(Debug, Error)]
pub enum ColoursError {
    #[error("{path}: cannot read the team colours: {source}")]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{path}: not a team colours file: {message}")]
    Syntax { path: PathBuf, message: String },
    #[error("{path}: unknown key {key:?}: the file has one [teams.NAME] table per team")]
    UnknownTopKey { path: PathBuf, key: String },
    #[error(
        "{path}: [teams.{team}] must be a table with home = \"#rrggbb\" and away = \"#rrggbb\""
    )]
    NotATable { path: PathBuf, team: String },
    #[error("{path}: [teams.{team}]: {team:?} is not a team name rcssserver accepts (letters, digits, '-', '_')")]
    TeamName { path: PathBuf, team: String },
    #[error("{path}: [teams.{team}]: unknown key {key:?} (a team has home, away, home_goalie, away_goalie)")]
    UnknownKey {
        path: PathBuf,
        team: String,
        key: String,
    },
    #[error(
        "{path}: [teams.{team}]: {key} is missing (the {what} colour, e.g. {key} = \"#d62728\")"
    )]
    Missing {
        path: PathBuf,
        team: String,
        key: &'static str,
        what: &'static str,
    },
    #[error(
        "{path}: [teams.{team}]: {key} = {value} is not a colour: write \"#rrggbb\" or \"#rgb\""
    )]
    BadColour {
        path: PathBuf,
        team: String,
        key: String,
        value: String,
    },
}

/// The teams of one good version of the file, in the file's order.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Teams {
    list: Vec<(String, TeamKits)>,
}

impl Teams {
    /// A team's kits by the name the server reports: the exact name first, then the one name
    /// equal to it ignoring case (none when two are, as `helios` and `HELIOS` would be).
    pub fn find(&self, name: &str) -> Option<&TeamKits> {
        if let Some((_, k)) = self.list.iter().find(|(n, _)| n == name) {
            return Some(k);
        }
        let mut same = self
            .list
            .iter()
            .filter(|(n, _)| n.eq_ignore_ascii_case(name));
        match (same.next(), same.next()) {
            (Some((_, k)), None) => Some(k),
            _ => None,
        }
    }

    pub fn len(&self) -> usize {
        self.list.len()
    }

    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }
}

/// Reads and checks a colours file's text; `path` only names it in errors.
pub fn parse(path: &Path, text: &str) -> Result<Teams, ColoursError> {
    let table: toml::Table = toml::from_str(text).map_err(|e| ColoursError::Syntax {
        path: path.to_owned(),
        message: e.to_string().trim().to_owned(),
    })?;
    let mut list = Vec::new();
    for (key, value) in &table {
        if key != "teams" {
            return Err(ColoursError::UnknownTopKey {
                path: path.to_owned(),
                key: key.clone(),
            });
        }
        let Some(teams) = value.as_table() else {
            return Err(ColoursError::UnknownTopKey {
                path: path.to_owned(),
                key: format!("teams = {value}"),
            });
        };
        for (team, kits) in teams {
            list.push((team.clone(), team_kits(path, team, kits)?));
        }
    }
    Ok(Teams { list })
}

fn team_kits(path: &Path, team: &str, value: &toml::Value) -> Result<TeamKits, ColoursError> {
    let Some(t) = value.as_table() else {
        return Err(ColoursError::NotATable {
            path: path.to_owned(),
            team: team.to_owned(),
        });
    };
    if !team_name_ok(team) {
        return Err(ColoursError::TeamName {
            path: path.to_owned(),
            team: team.to_owned(),
        });
    }
    if let Some(key) = t.keys().find(|k| !KEYS.contains(&k.as_str())) {
        return Err(ColoursError::UnknownKey {
            path: path.to_owned(),
            team: team.to_owned(),
            key: key.clone(),
        });
    }
    let colour = |key: &str| -> Result<Option<Rgb>, ColoursError> {
        let Some(v) = t.get(key) else {
            return Ok(None);
        };
        v.as_str()
            .and_then(Rgb::parse)
            .map(Some)
            .ok_or_else(|| ColoursError::BadColour {
                path: path.to_owned(),
                team: team.to_owned(),
                key: key.to_owned(),
                value: v.to_string(),
            })
    };
    let shirt = |key: &'static str, what: &'static str| -> Result<Rgb, ColoursError> {
        colour(key)?.ok_or_else(|| ColoursError::Missing {
            path: path.to_owned(),
            team: team.to_owned(),
            key,
            what,
        })
    };
    let home = shirt("home", "home shirts'")?;
    let away = shirt("away", "away shirts'")?;
    // A goalie the file leaves out wears his team's colour, lighter or darker.
    let kit = |shirt: Rgb, goalie: Option<Rgb>| Kit {
        shirt,
        goalie: goalie.unwrap_or_else(|| Kit::of_shirt(shirt).goalie),
    };
    Ok(TeamKits {
        home: kit(home, colour("home_goalie")?),
        away: kit(away, colour("away_goalie")?),
    })
}

/// Reads and checks the file at `path`.
pub fn read(path: &Path) -> Result<Teams, ColoursError> {
    let text = std::fs::read_to_string(path).map_err(|source| ColoursError::Read {
        path: path.to_owned(),
        source,
    })?;
    parse(path, &text)
}

/// The file's modification time and length: a write finished within one clock tick of a
/// read that saw it half done still changes the length.
fn stamp(path: &Path) -> Option<(SystemTime, u64)> {
    std::fs::metadata(path)
        .ok()
        .and_then(|m| Some((m.modified().ok()?, m.len())))
}

struct Known {
    stamp: Option<(SystemTime, u64)>,
    teams: Arc<Teams>,
    /// What is wrong with the file now, when it changed for the worse.
    error: Option<String>,
}

/// The colours file as the relay serves it: its last good version, read again when the file
/// changes.
pub struct TeamColours {
    path: PathBuf,
    known: Mutex<Known>,
}

impl TeamColours {
    /// Reads the file: a mistake is an error, for the relay not to start with it.
    pub fn load(path: &Path) -> Result<TeamColours, ColoursError> {
        let stamp = stamp(path);
        let teams = read(path)?;
        Ok(TeamColours {
            path: path.to_owned(),
            known: Mutex::new(Known {
                stamp,
                teams: Arc::new(teams),
                error: None,
            }),
        })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The teams, read again first if the file changed since; and what is wrong with the
    /// file if its newest version could not be used.
    pub fn current(&self) -> (Arc<Teams>, Option<String>) {
        let mut known = self.known.lock().unwrap_or_else(|e| e.into_inner());
        let now = stamp(&self.path);
        if now != known.stamp {
            known.stamp = now;
            match read(&self.path) {
                Ok(teams) => {
                    known.teams = Arc::new(teams);
                    known.error = None;
                }
                Err(e) => {
                    tracing::warn!("team colours: {e}; the last good version is kept");
                    known.error = Some(e.to_string());
                }
            }
        }
        (known.teams.clone(), known.error.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const GOOD: &str = r##"
# Teams by name, as the server reports them.
[teams.HELIOS2024]
home = "#ffd700"          # outfield shirts
away = "#ffffff"
home_goalie = "#222222"

[teams.CYRUS]
home = "#0057b8"
away = "#111"
"##;

    fn p() -> &'static Path {
        Path::new("colours.toml")
    }

    fn err(text: &str) -> String {
        match parse(p(), text) {
            Ok(t) => panic!("{text:?} was taken: {t:?}"),
            Err(e) => e.to_string(),
        }
    }

    #[test]
    fn a_good_file_gives_each_team_its_kits() {
        let t = parse(p(), GOOD).expect("good");
        assert_eq!(t.len(), 2);
        let h = t.find("HELIOS2024").expect("exact");
        assert_eq!(h.home.shirt, Rgb([0xff, 0xd7, 0x00]));
        assert_eq!(h.home.goalie, Rgb([0x22, 0x22, 0x22]));
        // No away_goalie: a shade of the away shirt.
        assert_eq!(h.away.goalie, Kit::of_shirt(Rgb([255, 255, 255])).goalie);
        assert_eq!(
            t.find("cyrus").map(|k| k.away.shirt),
            Some(Rgb([17, 17, 17]))
        );
        assert!(t.find("Oxsy").is_none());
        // Two names alike but for case: only an exact match picks one.
        let two = parse(
            p(),
            "[teams.abc]\nhome = \"#fff\"\naway = \"#000\"\n[teams.ABC]\nhome = \"#f00\"\naway = \"#000\"\n",
        )
        .expect("good");
        assert_eq!(
            two.find("ABC").map(|k| k.home.shirt),
            Some(Rgb([255, 0, 0]))
        );
        assert!(two.find("Abc").is_none());
        assert!(parse(p(), "").expect("empty").is_empty());
    }

    #[test]
    fn each_mistake_names_the_file_the_team_and_the_key() {
        let e = err("[teams.HELIOS]\nhome = \"#ffd70\"\naway = \"#fff\"\n");
        assert!(
            e.contains("colours.toml") && e.contains("[teams.HELIOS]"),
            "{e}"
        );
        assert!(e.contains("home = \"#ffd70\" is not a colour"), "{e}");
        let e = err("[teams.HELIOS]\nhome = \"#ffd700\"\n");
        assert!(e.contains("[teams.HELIOS]: away is missing"), "{e}");
        let e = err("[teams.HELIOS]\nhome = \"#ffd700\"\naway = \"#fff\"\nkeeper = \"#000\"\n");
        assert!(e.contains("[teams.HELIOS]: unknown key \"keeper\""), "{e}");
        let e = err("[teams.HELIOS]\nhome = 3\naway = \"#fff\"\n");
        assert!(e.contains("home = 3 is not a colour"), "{e}");
        let e = err("[team.HELIOS]\nhome = \"#fff\"\n");
        assert!(e.contains("unknown key \"team\""), "{e}");
        let e = err("[teams]\nHELIOS = \"#fff\"\n");
        assert!(e.contains("[teams.HELIOS] must be a table"), "{e}");
        let e = err("[teams.\"two words\"]\nhome = \"#fff\"\naway = \"#000\"\n");
        assert!(e.contains("not a team name"), "{e}");
        let e = err("[teams.HELIOS\nhome = 1");
        assert!(e.contains("not a team colours file"), "{e}");
    }
}
