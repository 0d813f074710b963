//! Captions: one short line at a time about what is going on, for a viewer who has just
//! joined a stream and knows nothing of the simulator. Made from the match's events and the
//! players' actions: kick-offs, shots and saves, goals, cards, offsides, penalties, half time
//! and full time.
//!
//! Lines are templated per language ([`Lang`]) with several wordings per kind, chosen so that
//! the same wording never comes twice running; the choice depends only on the match, so the
//! relay's feed and every page show the same line at the same moment. They are paced: at
//! least [`MIN_GAP`] frames apart (frames, not cycles: a stopped clock still shows one frame
//! every 100 ms, so a line waiting through a stoppage waits the same time). A line that matters (a goal, a card, a penalty, half and full time,
//! a kick-off) is never dropped: a lesser line (a shot, an offside) that it would follow too
//! closely is dropped instead, and one that follows too closely after another that matters
//! waits for the gap to pass; only the full-time line never waits, the match ending there.

use super::moments::{moments, Moment, MomentKind};
use crate::actions::{ActionKind, Actions, ShotOutcome};
use crate::events::EventKind;
use rcss_formats::model::{Frame, Side};

/// Fewest frames between two lines (4 s at the simulator's 10 frames a second).
pub const MIN_GAP: usize = 40;

/// The languages captions are written in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Lang {
    #[default]
    En,
    De,
}

impl Lang {
    pub const ALL: [Lang; 2] = [Lang::En, Lang::De];

    /// The language's code: `en`, `de`.
    pub fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::De => "de",
        }
    }

    /// Its name in itself, for a settings list.
    pub fn name(self) -> &'static str {
        match self {
            Lang::En => "English",
            Lang::De => "Deutsch",
        }
    }

    /// From a code (`en`, `de`, also `de-AT` and the like), ignoring case.
    pub fn from_code(code: &str) -> Option<Lang> {
        let main = code.trim().split(['-', '_']).next()?.to_ascii_lowercase();
        Lang::ALL.into_iter().find(|l| l.code() == main)
    }
}

/// One line.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Caption {
    /// The cycle it shows from.
    pub cycle: u32,
    /// The frame it shows from (index into the frames pushed).
    #[serde(skip)]
    pub frame: usize,
    /// What it is about: `kick_off`, `goal`, `shot`, `save`, `yellow_card`, `red_card`,
    /// `offside`, `penalty`, `shoot_out_kick`, `half_time`, `full_time`.
    pub kind: &'static str,
    pub text: String,
}

/// What a line says, before it is worded.
#[derive(Clone, Copy, Debug)]
enum Fact {
    /// `half`: 1 for the match's kick-off, 2 for the second half's, more for extra time.
    KickOff {
        half: u32,
        side: Option<Side>,
    },
    Goal(Moment),
    Shot {
        side: Side,
        unum: u8,
        outcome: ShotOutcome,
        on_target: bool,
    },
    Card(Moment),
    Offside {
        side: Side,
    },
    Penalty(Moment),
    ShootOutKick(Moment),
    HalfTime(Moment),
    FullTime(Moment),
}

impl Fact {
    fn kind(&self) -> &'static str {
        match self {
            Fact::KickOff { .. } => "kick_off",
            Fact::Goal(_) => "goal",
            Fact::Shot {
                outcome: ShotOutcome::Saved,
                ..
            } => "save",
            Fact::Shot { .. } => "shot",
            Fact::Card(m) => m.kind.id(),
            Fact::Offside { .. } => "offside",
            Fact::Penalty(_) => "penalty",
            Fact::ShootOutKick(_) => "shoot_out_kick",
            Fact::HalfTime(_) => "half_time",
            Fact::FullTime(_) => "full_time",
        }
    }

    /// Lines that are never dropped.
    fn matters(&self) -> bool {
        !matches!(self, Fact::Shot { .. } | Fact::Offside { .. })
    }
}

/// Every caption so far, in order, in `lang`. `frames` are the frames `actions` was fed.
pub fn captions(actions: &Actions, frames: &[Frame], lang: Lang) -> Vec<Caption> {
    let mut facts: Vec<(u32, usize, Fact)> = Vec::new();
    let mut kick_offs = 0;
    let mut after_goal = false;
    for e in actions.events().events() {
        match e.kind {
            // A kick-off after a goal restarts play: the goal's line says enough.
            EventKind::KickOff if !after_goal => {
                facts.push((
                    e.cycle,
                    e.frame,
                    Fact::KickOff {
                        half: kick_offs + 1,
                        side: e.side,
                    },
                ));
                kick_offs += 1;
            }
            EventKind::Offside => {
                if let Some(side) = e.side {
                    facts.push((e.cycle, e.frame, Fact::Offside { side }));
                }
            }
            _ => {}
        }
        match e.kind {
            EventKind::Goal { .. } => after_goal = true,
            EventKind::KickOff => after_goal = false,
            EventKind::HalfTime => after_goal = false,
            _ => {}
        }
    }
    for m in moments(actions, frames) {
        let fact = match m.kind {
            MomentKind::Goal { .. } => Fact::Goal(m),
            MomentKind::YellowCard { .. } | MomentKind::RedCard { .. } => Fact::Card(m),
            MomentKind::Penalty => Fact::Penalty(m),
            MomentKind::ShootOutKick { .. } => Fact::ShootOutKick(m),
            MomentKind::HalfTime => Fact::HalfTime(m),
            MomentKind::FullTime => Fact::FullTime(m),
        };
        facts.push((m.cycle, m.frame, fact));
    }
    for a in actions.actions() {
        if let ActionKind::Shot { on_target, outcome } = a.kind {
            if matches!(outcome, ShotOutcome::Goal { .. }) {
                continue;
            }
            // Said when its outcome is known: the save, the block, the ball gone wide.
            let frame = a.end_frame.unwrap_or(a.frame);
            let cycle = frames.get(frame).map_or(a.cycle, |f| f.time);
            facts.push((
                cycle,
                frame,
                Fact::Shot {
                    side: a.side,
                    unum: a.unum,
                    outcome,
                    on_target,
                },
            ));
        }
    }
    facts.sort_by_key(|(cycle, frame, _)| (*frame, *cycle));
    let names = names(actions, lang);

    // Pacing: a lesser line too close before or after a line that matters goes; lines that
    // matter wait for the gap.
    let mut kept: Vec<(u32, usize, Fact)> = Vec::new();
    for (i, &(cycle, frame, fact)) in facts.iter().enumerate() {
        if !fact.matters() {
            let crowded_after = facts[i + 1..]
                .iter()
                .take_while(|(_, f, _)| *f < frame + MIN_GAP)
                .any(|(_, _, f)| f.matters());
            let crowded_before = kept.last().is_some_and(|(_, f, _)| frame < f + MIN_GAP);
            if crowded_after || crowded_before {
                continue;
            }
            kept.push((cycle, frame, fact));
            continue;
        }
        let (cycle, frame) = match kept.last() {
            // Full time waits for nothing: the match ends there, and a line after its last
            // frame would never show.
            Some(&(c, f, _)) if frame < f + MIN_GAP && !matches!(fact, Fact::FullTime(_)) => {
                let at = f + MIN_GAP;
                // The cycle of that frame; one not here yet (a live match) reads as the
                // cycles the gap would take, until it comes.
                let cycle = frames
                    .get(at)
                    .map_or_else(|| c.saturating_add(MIN_GAP as u32), |x| x.time);
                (cycle, at)
            }
            _ => (cycle, frame),
        };
        kept.push((cycle, frame, fact));
    }

    let mut used: std::collections::HashMap<&'static str, usize> = Default::default();
    let mut count: std::collections::HashMap<&'static str, usize> = Default::default();
    kept.into_iter()
        .filter_map(|(cycle, frame, fact)| {
            let options = word(&fact, &names, lang);
            if options.is_empty() {
                return None;
            }
            let kind = fact.kind();
            let n = count.entry(kind).or_default();
            // A wording picked by the cycle, never the one used last time for this kind.
            let mut pick = (cycle as usize).wrapping_mul(7).wrapping_add(*n) % options.len().max(1);
            if options.len() > 1 && used.get(kind) == Some(&pick) {
                pick = (pick + 1) % options.len();
            }
            *n += 1;
            used.insert(kind, pick);
            Some(Caption {
                cycle,
                frame,
                kind,
                text: options.into_iter().nth(pick).unwrap_or_default(),
            })
        })
        .collect()
}

/// The caption on screen at frame `frame`: the last one at or before it, while it is at most
/// `hold` frames old.
pub fn at(captions: &[Caption], frame: usize, hold: usize) -> Option<&Caption> {
    let i = captions.partition_point(|c| c.frame <= frame);
    captions[..i]
        .last()
        .filter(|c| frame.saturating_sub(c.frame) <= hold)
}

fn names(actions: &Actions, lang: Lang) -> [String; 2] {
    let n = actions.events().team_names();
    let fallback = match lang {
        Lang::En => ["the left team", "the right team"],
        Lang::De => ["das linke Team", "das rechte Team"],
    };
    [0, 1].map(|k| n[k].map_or_else(|| fallback[k].to_owned(), str::to_owned))
}

fn score_line(names: &[String; 2], score: [u32; 2]) -> String {
    format!("{} {}–{} {}", names[0], score[0], score[1], names[1])
}

fn player(names: &[String; 2], side: Side, unum: Option<u8>) -> String {
    match unum {
        Some(u) => format!("{} #{u}", names[side.index()]),
        None => names[side.index()].clone(),
    }
}

/// Every wording of a fact, in `lang`.
fn word(fact: &Fact, names: &[String; 2], lang: Lang) -> Vec<String> {
    let other = |s: Side| names[1 - s.index()].clone();
    match (lang, *fact) {
        (Lang::En, Fact::KickOff { half: 0 | 1, side }) => {
            let by = side.map_or_else(|| names[0].clone(), |s| names[s.index()].clone());
            vec![
                format!("{} against {}: kick-off.", names[0], names[1]),
                format!(
                    "We are under way: {by} kick off against {}.",
                    other(side.unwrap_or(Side::Left))
                ),
                format!("{} and {} are under way.", names[0], names[1]),
            ]
        }
        (Lang::En, Fact::KickOff { half: 2, .. }) => vec![
            "The second half is under way.".into(),
            "Play starts again after the break.".into(),
            "Back under way for the second half.".into(),
        ],
        (Lang::En, Fact::KickOff { .. }) => vec![
            "Extra time is under way.".into(),
            "Play goes on into extra time.".into(),
        ],
        (Lang::En, Fact::Goal(m)) => {
            let side = m.side.unwrap_or(Side::Left);
            let score = score_line(names, m.score);
            match m.kind {
                MomentKind::Goal {
                    own_goal: true,
                    scorer,
                    ..
                } => vec![
                    format!(
                        "Own goal! It goes in off {}. {score}.",
                        player(names, side.other(), scorer)
                    ),
                    format!("An own goal gifts {} a goal. {score}.", names[side.index()]),
                ],
                MomentKind::Goal { scorer, assist, .. } => {
                    let who = player(names, side, scorer);
                    let from = assist.map(|a| format!("#{a}"));
                    let mut v = vec![
                        match &from {
                            Some(a) => format!("GOAL! {who} scores, set up by {a}. {score}."),
                            None => format!("GOAL! {who} scores. {score}."),
                        },
                        match &from {
                            Some(a) => format!("{who} finishes the pass from {a}: goal! {score}."),
                            None => format!("{who} puts it in the net! {score}."),
                        },
                        format!("Goal for {}! {who} it is. {score}.", names[side.index()]),
                    ];
                    if m.score[0] == m.score[1] {
                        v.push(format!("{who} levels it! {score}."));
                    }
                    v
                }
                _ => vec![score],
            }
        }
        (
            Lang::En,
            Fact::Shot {
                side,
                unum,
                outcome,
                on_target,
            },
        ) => {
            let who = player(names, side, Some(unum));
            match outcome {
                ShotOutcome::Saved => vec![
                    format!("{who} shoots, and the {} goalie saves.", other(side)),
                    format!("Saved! {who} is denied by the {} goalie.", other(side)),
                    format!("A shot from {who}, kept out by the goalie."),
                ],
                ShotOutcome::Blocked => vec![
                    format!("{who} shoots, but {} block it.", other(side)),
                    format!("Blocked! {who}'s shot does not get through."),
                    format!("{} get in the way of a shot from {who}.", other(side)),
                ],
                _ if on_target => vec![
                    format!("{who} shoots on target, but no goal."),
                    format!("A shot on target from {who} comes to nothing."),
                ],
                _ => vec![
                    format!("{who} shoots wide."),
                    format!("Off target: {who} misses the goal."),
                    format!("{who} tries a shot, but it goes wide."),
                ],
            }
        }
        (Lang::En, Fact::Card(m)) => {
            let side = m.side.unwrap_or(Side::Left);
            match m.kind {
                MomentKind::RedCard {
                    player: p,
                    second_yellow,
                } => {
                    let who = player(names, side, p);
                    if second_yellow {
                        vec![
                            format!("A second yellow for {who}: he is sent off."),
                            format!("{who} sees a second yellow card and must leave the field."),
                        ]
                    } else {
                        vec![
                            format!("Red card! {who} is sent off."),
                            format!(
                                "{who} is shown the red card. {} are a player down.",
                                names[side.index()]
                            ),
                        ]
                    }
                }
                MomentKind::YellowCard { player: p } => {
                    let who = player(names, side, p);
                    vec![
                        format!("Yellow card for {who}."),
                        format!("{who} goes into the book: yellow card."),
                        format!("The referee shows {who} a yellow card."),
                    ]
                }
                _ => vec![],
            }
        }
        (Lang::En, Fact::Offside { side }) => vec![
            format!("Offside against {}.", names[side.index()]),
            format!("{} are caught offside.", names[side.index()]),
            format!("The flag is up: {} offside.", names[side.index()]),
        ],
        (Lang::En, Fact::Penalty(m)) => {
            let t = &names[m.side.unwrap_or(Side::Left).index()];
            vec![
                format!("Penalty to {t}!"),
                format!("The referee points to the spot: penalty for {t}."),
            ]
        }
        (Lang::En, Fact::ShootOutKick(m)) => {
            let side = m.side.unwrap_or(Side::Left);
            let MomentKind::ShootOutKick { taker, scored } = m.kind else {
                return vec![];
            };
            let who = player(names, side, taker);
            let tally = m
                .penalties
                .map(|p| format!(" Shoot-out {}–{}.", p[0], p[1]))
                .unwrap_or_default();
            if scored {
                vec![
                    format!("{who} scores from the spot.{tally}"),
                    format!("Penalty in for {}.{tally}", names[side.index()]),
                ]
            } else {
                vec![
                    format!("{who} misses the penalty!{tally}"),
                    format!(
                        "No goal: {} miss from the spot.{tally}",
                        names[side.index()]
                    ),
                ]
            }
        }
        (Lang::En, Fact::HalfTime(m)) => vec![
            format!("Half time: {}.", score_line(names, m.score)),
            format!("The first half is over. {}.", score_line(names, m.score)),
            format!("Half time, and it is {}.", score_line(names, m.score)),
        ],
        (Lang::En, Fact::FullTime(m)) => {
            let score = score_line(names, m.score);
            let winner = winner(&m);
            match winner {
                Some((k, true)) => vec![format!(
                    "Full time: {score}. {} win on penalties.",
                    names[k]
                )],
                Some((k, false)) => vec![
                    format!("Full time: {score}. {} win.", names[k]),
                    format!("It is over: {} win, {score}.", names[k]),
                ],
                None => vec![
                    format!("Full time: {score}. A draw."),
                    format!("It ends level: {score}."),
                ],
            }
        }

        (Lang::De, Fact::KickOff { half: 0 | 1, .. }) => vec![
            format!("{} gegen {}: Anstoß.", names[0], names[1]),
            format!("Das Spiel läuft: {} gegen {}.", names[0], names[1]),
            format!("Los geht's zwischen {} und {}.", names[0], names[1]),
        ],
        (Lang::De, Fact::KickOff { half: 2, .. }) => vec![
            "Die zweite Halbzeit läuft.".into(),
            "Nach der Pause rollt der Ball wieder.".into(),
            "Weiter geht's mit der zweiten Halbzeit.".into(),
        ],
        (Lang::De, Fact::KickOff { .. }) => vec![
            "Die Verlängerung läuft.".into(),
            "Es geht in die Verlängerung.".into(),
        ],
        (Lang::De, Fact::Goal(m)) => {
            let side = m.side.unwrap_or(Side::Left);
            let score = score_line(names, m.score);
            match m.kind {
                MomentKind::Goal {
                    own_goal: true,
                    scorer,
                    ..
                } => vec![
                    format!(
                        "Eigentor durch {}! {score}.",
                        player(names, side.other(), scorer)
                    ),
                    format!(
                        "Ein Eigentor bringt {} den Treffer. {score}.",
                        names[side.index()]
                    ),
                ],
                MomentKind::Goal { scorer, assist, .. } => {
                    let who = player(names, side, scorer);
                    let from = assist.map(|a| format!("#{a}"));
                    let mut v = vec![
                        match &from {
                            Some(a) => format!("TOR! {who} trifft nach Vorlage von {a}. {score}."),
                            None => format!("TOR! {who} trifft. {score}."),
                        },
                        match &from {
                            Some(a) => format!("{who} verwertet den Pass von {a}: Tor! {score}."),
                            None => format!("{who} schiebt ein! {score}."),
                        },
                        format!(
                            "Tor für {}! Torschütze: {who}. {score}.",
                            names[side.index()]
                        ),
                    ];
                    if m.score[0] == m.score[1] {
                        v.push(format!("{who} gleicht aus! {score}."));
                    }
                    v
                }
                _ => vec![score],
            }
        }
        (
            Lang::De,
            Fact::Shot {
                side,
                unum,
                outcome,
                on_target,
            },
        ) => {
            let who = player(names, side, Some(unum));
            match outcome {
                ShotOutcome::Saved => vec![
                    format!("{who} schießt, der Torwart von {} hält.", other(side)),
                    format!(
                        "Gehalten! Der Torwart von {} pariert gegen {who}.",
                        other(side)
                    ),
                    format!("Schuss von {who}, der Torwart ist zur Stelle."),
                ],
                ShotOutcome::Blocked => vec![
                    format!("{who} zieht ab, {} blocken.", other(side)),
                    format!("Geblockt! Der Schuss von {who} kommt nicht durch."),
                ],
                _ if on_target => vec![
                    format!("{who} schießt aufs Tor, aber kein Treffer."),
                    format!("Ein Schuss aufs Tor von {who} bringt nichts ein."),
                ],
                _ => vec![
                    format!("{who} schießt daneben."),
                    format!("Vorbei: {who} verfehlt das Tor."),
                    format!("{who} versucht es, doch der Ball geht am Tor vorbei."),
                ],
            }
        }
        (Lang::De, Fact::Card(m)) => {
            let side = m.side.unwrap_or(Side::Left);
            match m.kind {
                MomentKind::RedCard {
                    player: p,
                    second_yellow,
                } => {
                    let who = player(names, side, p);
                    if second_yellow {
                        vec![
                            format!("Gelb-Rot für {who}: Platzverweis."),
                            format!("{who} sieht die zweite Gelbe und muss vom Platz."),
                        ]
                    } else {
                        vec![
                            format!("Rote Karte! {who} muss vom Platz."),
                            format!("Rot für {who}. {} nur noch zu zehnt.", names[side.index()]),
                        ]
                    }
                }
                MomentKind::YellowCard { player: p } => {
                    let who = player(names, side, p);
                    vec![
                        format!("Gelbe Karte für {who}."),
                        format!("{who} sieht Gelb."),
                        format!("Der Schiedsrichter zeigt {who} die Gelbe Karte."),
                    ]
                }
                _ => vec![],
            }
        }
        (Lang::De, Fact::Offside { side }) => vec![
            format!("Abseits gegen {}.", names[side.index()]),
            format!("{} stehen im Abseits.", names[side.index()]),
            format!("Die Fahne ist oben: Abseits, {}.", names[side.index()]),
        ],
        (Lang::De, Fact::Penalty(m)) => {
            let t = &names[m.side.unwrap_or(Side::Left).index()];
            vec![
                format!("Elfmeter für {t}!"),
                format!("Der Schiedsrichter zeigt auf den Punkt: Elfmeter für {t}."),
            ]
        }
        (Lang::De, Fact::ShootOutKick(m)) => {
            let side = m.side.unwrap_or(Side::Left);
            let MomentKind::ShootOutKick { taker, scored } = m.kind else {
                return vec![];
            };
            let who = player(names, side, taker);
            let tally = m
                .penalties
                .map(|p| format!(" Elfmeterschießen {}–{}.", p[0], p[1]))
                .unwrap_or_default();
            if scored {
                vec![
                    format!("{who} verwandelt vom Punkt.{tally}"),
                    format!("Elfmeter drin für {}.{tally}", names[side.index()]),
                ]
            } else {
                vec![
                    format!("{who} verschießt!{tally}"),
                    format!(
                        "Kein Tor: {} vergeben vom Punkt.{tally}",
                        names[side.index()]
                    ),
                ]
            }
        }
        (Lang::De, Fact::HalfTime(m)) => vec![
            format!("Halbzeit: {}.", score_line(names, m.score)),
            format!(
                "Die erste Halbzeit ist vorbei. {}.",
                score_line(names, m.score)
            ),
            format!("Pause beim Stand von {}.", score_line(names, m.score)),
        ],
        (Lang::De, Fact::FullTime(m)) => {
            let score = score_line(names, m.score);
            match winner(&m) {
                Some((k, true)) => vec![format!(
                    "Abpfiff: {score}. {} gewinnt im Elfmeterschießen.",
                    names[k]
                )],
                Some((k, false)) => vec![
                    format!("Abpfiff: {score}. {} gewinnt.", names[k]),
                    format!("Aus und vorbei: {} siegt, {score}.", names[k]),
                ],
                None => vec![
                    format!("Abpfiff: {score}. Unentschieden."),
                    format!("Keiner gewinnt: {score}."),
                ],
            }
        }
    }
}

/// The winner of a finished match (side index), and whether by a shoot-out.
fn winner(m: &Moment) -> Option<(usize, bool)> {
    let [l, r] = m.score;
    if l != r {
        return Some((usize::from(r > l), false));
    }
    let [pl, pr] = m.penalties?;
    (pl != pr).then_some((usize::from(pr > pl), true))
}
