//! One match as a series counts it: who played, the score, the shoot-out, why it would not
//! count, and the per-match figures. Made from a log as it is read ([`GameReader`]), so a
//! folder of thousands of logs is summarised without keeping any frame.

use pitchside_analysis::events::{Event, EventKind};
use pitchside_analysis::stats::Summary;
use rcss_formats::log::Ending;
use rcss_formats::model::{state, Frame, Side};
use rcss_formats::playmode::PlayMode;
use serde::{Deserialize, Serialize};

/// Why a game is left out of a series' figures. A team developer's batch breaks in these
/// ways: a server stopped or killed, a team that did not start all its players, a player
/// process that died.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Invalid {
    /// The log stops before time over.
    Incomplete { cycle: u32 },
    /// The log is damaged; read up to the damage.
    Damaged { message: String },
    /// A side had fewer than 11 players on the field at the first kick-off.
    Short { side: Side, players: u8 },
    /// A player left the field without a red card before time over (disconnected, or
    /// discarded).
    Disconnected { side: Side, unum: u8, cycle: u32 },
    /// Nothing was read.
    Unreadable { message: String },
}

impl Invalid {
    /// In words, with the teams' names.
    pub fn describe(&self, teams: &[String; 2]) -> String {
        let name = |s: &Side| teams[s.index()].as_str();
        match self {
            Invalid::Incomplete { cycle } => {
                format!("the log stops at cycle {cycle}, before time over")
            }
            Invalid::Damaged { message } => format!("damaged: {message}"),
            Invalid::Short { side, players } => {
                format!("{} had {players} players at kick-off", name(side))
            }
            Invalid::Disconnected { side, unum, cycle } => {
                format!("{} {unum} left the field at cycle {cycle}", name(side))
            }
            Invalid::Unreadable { message } => format!("not read: {message}"),
        }
    }
}

/// A team's figures in one match.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Figures {
    /// Share of possession, 0..=1 (`None` before any play).
    pub possession: Option<f32>,
    pub shots: u32,
    pub shots_on_target: u32,
    pub passes: u32,
    pub fouls: u32,
    /// Yellow and red.
    pub cards: u32,
}

/// One match, left team first.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Game {
    /// Where it came from: a path or an archive id, as the caller names it.
    pub name: String,
    pub teams: [String; 2],
    pub score: [u32; 2],
    /// Penalties scored in a shoot-out, when there was one.
    pub shootout: Option<[u32; 2]>,
    /// The cycle of the first goal (where a link to the match opens).
    pub first_goal: Option<u32>,
    /// The last cycle shown.
    pub cycles: u32,
    pub figures: [Figures; 2],
    /// Empty when the game counts.
    pub invalid: Vec<Invalid>,
}

impl Game {
    pub fn valid(&self) -> bool {
        self.invalid.is_empty()
    }

    /// Whether it has a result at all, as a tournament counts results: a log cut short,
    /// damaged or unreadable has none (its game is played again); a side short of players or
    /// a player gone still leaves a result.
    pub fn has_result(&self) -> bool {
        !self.invalid.iter().any(|i| {
            matches!(
                i,
                Invalid::Incomplete { .. } | Invalid::Damaged { .. } | Invalid::Unreadable { .. }
            )
        })
    }

    /// A game that could not be read at all.
    pub fn unreadable(name: &str, message: String) -> Game {
        Game {
            name: name.to_owned(),
            teams: [String::new(), String::new()],
            score: [0, 0],
            shootout: None,
            first_goal: None,
            cycles: 0,
            figures: [Figures::default(); 2],
            invalid: vec![Invalid::Unreadable { message }],
        }
    }

    /// The side `team` played on, if it played.
    pub fn side_of(&self, team: &str) -> Option<Side> {
        if self.teams[0] == team {
            Some(Side::Left)
        } else if self.teams[1] == team {
            Some(Side::Right)
        } else {
            None
        }
    }
}

/// What a log's reader knows at its end.
pub struct Ended<'a> {
    pub teams: [String; 2],
    pub score: [u32; 2],
    /// Penalties scored in a shoot-out, when there was one.
    pub shootout: Option<[u32; 2]>,
    pub last_cycle: u32,
    pub events: &'a [Event],
    pub stats: &'a Summary,
    pub ending: &'a Ending,
}

/// What a game's frames and events tell about its validity, gathered as the frames go by:
/// the players on the field at the first kick-off. The rest comes from the events.
#[derive(Clone, Debug, Default)]
pub struct GameReader {
    at_kick_off: Option<[u8; 2]>,
}

impl GameReader {
    /// Looks at a frame (in order). Cheap: it only works until the first kick-off.
    pub fn frame(&mut self, f: &Frame) {
        // The first frame of play (the kick-off): before it, players are still connecting.
        if self.at_kick_off.is_some()
            || f.mode == PlayMode::NULL
            || f.mode == PlayMode::BEFORE_KICK_OFF
        {
            return;
        }
        let mut on = [0u8; 2];
        for p in f.players.iter() {
            if let Some(side) = p.side {
                if p.state != state::DISABLE {
                    on[side.index()] = on[side.index()].saturating_add(1);
                }
            }
        }
        self.at_kick_off = Some(on);
    }

    /// The game named `name`, from what the log's reader found at its end.
    pub fn finish(self, name: &str, end: Ended) -> Game {
        let Ended {
            teams,
            score,
            shootout,
            last_cycle,
            events,
            stats,
            ending,
        } = end;
        let mut invalid = Vec::new();
        match ending {
            Ending::Whole => {}
            Ending::Incomplete { .. } => invalid.push(Invalid::Incomplete { cycle: last_cycle }),
            Ending::Damaged(e) => invalid.push(Invalid::Damaged {
                message: e.to_string(),
            }),
        }
        match self.at_kick_off {
            Some(on) => {
                for side in [Side::Left, Side::Right] {
                    if on[side.index()] < 11 {
                        invalid.push(Invalid::Short {
                            side,
                            players: on[side.index()],
                        });
                    }
                }
            }
            None => invalid.push(Invalid::Short {
                side: Side::Left,
                players: 0,
            }),
        }
        for e in events {
            if let (EventKind::PlayerOff, Some(side), Some(unum)) = (&e.kind, e.side, e.player) {
                invalid.push(Invalid::Disconnected {
                    side,
                    unum,
                    cycle: e.cycle,
                });
            }
        }
        let first_goal = events
            .iter()
            .find(|e| matches!(e.kind, EventKind::Goal { .. }))
            .map(|e| e.cycle);
        let figures = [Side::Left, Side::Right].map(|s| {
            let t = stats.team(s);
            Figures {
                possession: stats.possession(s),
                shots: t.shots,
                shots_on_target: t.shots_on_target,
                passes: t.passes,
                fouls: t.fouls,
                cards: t.yellow_cards + t.red_cards,
            }
        });
        Game {
            name: name.to_owned(),
            teams,
            score,
            shootout,
            first_goal,
            cycles: last_cycle,
            figures,
            invalid,
        }
    }
}
