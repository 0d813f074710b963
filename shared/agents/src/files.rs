//! Which team, player and kind of file an agent file is, from its name as librcsc and
//! rcssserver give it: `TEAM-UNUM.log` and `TEAM-UNUM.dcl` (the coach's `TEAM-coach.log`),
//! and the match's `….rcl` beside its `….rcg`; any of them may end in `.gz`.

use super::index::FileKind;

/// Whose file it is.
#[derive(Clone, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub enum Owner {
    Player {
        team: String,
        unum: u8,
    },
    Coach {
        team: String,
    },
    /// The server's message log: every client's commands.
    Server,
}

/// What a file name says.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Named {
    pub kind: FileKind,
    pub owner: Owner,
    pub gzipped: bool,
}

/// Why a file name says nothing usable.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NameError {
    #[error("not an agent file (expected a name ending .log, .dcl or .rcl, optionally .gz)")]
    Extension,
    #[error("expected TEAM-NUMBER.{0} (a player number 1-11, or coach)")]
    Owner(&'static str),
}

/// Reads a file name (any folders before it are ignored).
pub fn parse_name(path: &str) -> Result<Named, NameError> {
    let name = path.rsplit(['/', '\\']).next().unwrap_or(path);
    let (name, gzipped) = match name.strip_suffix(".gz") {
        Some(n) => (n, true),
        None => (name, false),
    };
    let (stem, ext) = name.rsplit_once('.').ok_or(NameError::Extension)?;
    let kind = match ext {
        "log" => FileKind::DebugLog,
        "dcl" => FileKind::WorldModel,
        "rcl" => FileKind::Commands,
        _ => return Err(NameError::Extension),
    };
    let owner = if kind == FileKind::Commands {
        Owner::Server
    } else {
        let ext = if kind == FileKind::DebugLog {
            "log"
        } else {
            "dcl"
        };
        let (team, who) = stem.rsplit_once('-').ok_or(NameError::Owner(ext))?;
        if team.is_empty() {
            return Err(NameError::Owner(ext));
        }
        let team = team.to_string();
        if who == "coach" {
            Owner::Coach { team }
        } else {
            let unum = who
                .parse::<u8>()
                .ok()
                .filter(|u| (1..=11).contains(u) && !who.starts_with('0'))
                .ok_or(NameError::Owner(ext))?;
            Owner::Player { team, unum }
        }
    };
    Ok(Named {
        kind,
        owner,
        gzipped,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_as_the_tools_write_them() {
        assert_eq!(
            parse_name("logs/HELIOS_A-7.log").unwrap(),
            Named {
                kind: FileKind::DebugLog,
                owner: Owner::Player {
                    team: "HELIOS_A".into(),
                    unum: 7
                },
                gzipped: false
            }
        );
        assert_eq!(
            parse_name("my-team-11.dcl.gz").unwrap(),
            Named {
                kind: FileKind::WorldModel,
                owner: Owner::Player {
                    team: "my-team".into(),
                    unum: 11
                },
                gzipped: true
            }
        );
        assert_eq!(
            parse_name("HELIOS_B-coach.log").unwrap().owner,
            Owner::Coach {
                team: "HELIOS_B".into()
            }
        );
        assert_eq!(
            parse_name("20261125-HELIOS_A_3-vs-HELIOS_B_2.rcl")
                .unwrap()
                .owner,
            Owner::Server
        );
        assert_eq!(parse_name("a.rcg"), Err(NameError::Extension));
        assert_eq!(parse_name("HELIOS-12.log"), Err(NameError::Owner("log")));
        assert_eq!(parse_name("HELIOS-07.log"), Err(NameError::Owner("log")));
        assert_eq!(parse_name("-3.dcl"), Err(NameError::Owner("dcl")));
    }
}
