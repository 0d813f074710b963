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
    let fallback = lang.wordings().teams;
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

/// A language's wordings, as data: each list holds the ways of saying one thing, and a
/// line is one of them with its placeholders filled ([`fill`]). The placeholders:
/// `{left}` and `{right}` (the teams), `{team}` (the team the fact is about: the scoring,
/// carded, offside or kicking team), `{other}` (the other team), `{by}` (the team kicking
/// off), `{who}` (the player, `TEAM #N`), `{from}` (the passer, `#N`), `{score}` (the score
/// line), `{tally}` (the shoot-out's tally, a sentence of its own or nothing), `{winner}`.
/// Adding a language is adding one of these and its [`Lang`].
struct Wordings {
    /// The teams' names where the log has none.
    teams: [&'static str; 2],
    kick_off: &'static [&'static str],
    second_half: &'static [&'static str],
    extra_time: &'static [&'static str],
    own_goal: &'static [&'static str],
    /// The first two ways of saying a goal, each with and without the passer; then one
    /// that names the team; then one for a goal that levels the score.
    goal: [(&'static str, &'static str); 2],
    goal_for: &'static str,
    equaliser: &'static str,
    saved: &'static [&'static str],
    blocked: &'static [&'static str],
    on_target: &'static [&'static str],
    wide: &'static [&'static str],
    second_yellow: &'static [&'static str],
    red: &'static [&'static str],
    yellow: &'static [&'static str],
    offside: &'static [&'static str],
    penalty: &'static [&'static str],
    /// The shoot-out's tally, put after a kick's line.
    tally: &'static str,
    kick_scored: &'static [&'static str],
    kick_missed: &'static [&'static str],
    half_time: &'static [&'static str],
    won_on_penalties: &'static [&'static str],
    won: &'static [&'static str],
    draw: &'static [&'static str],
}

const ENGLISH: Wordings = Wordings {
    teams: ["the left team", "the right team"],
    kick_off: &[
        "{left} against {right}: kick-off.",
        "We are under way: {by} kick off against {other}.",
        "{left} and {right} are under way.",
    ],
    second_half: &[
        "The second half is under way.",
        "Play starts again after the break.",
        "Back under way for the second half.",
    ],
    extra_time: &["Extra time is under way.", "Play goes on into extra time."],
    own_goal: &[
        "Own goal! It goes in off {who}. {score}.",
        "An own goal gifts {team} a goal. {score}.",
    ],
    goal: [
        (
            "GOAL! {who} scores, set up by {from}. {score}.",
            "GOAL! {who} scores. {score}.",
        ),
        (
            "{who} finishes the pass from {from}: goal! {score}.",
            "{who} puts it in the net! {score}.",
        ),
    ],
    goal_for: "Goal for {team}! {who} it is. {score}.",
    equaliser: "{who} levels it! {score}.",
    saved: &[
        "{who} shoots, and the {other} goalie saves.",
        "Saved! {who} is denied by the {other} goalie.",
        "A shot from {who}, kept out by the goalie.",
    ],
    blocked: &[
        "{who} shoots, but {other} block it.",
        "Blocked! {who}'s shot does not get through.",
        "{other} get in the way of a shot from {who}.",
    ],
    on_target: &[
        "{who} shoots on target, but no goal.",
        "A shot on target from {who} comes to nothing.",
    ],
    wide: &[
        "{who} shoots wide.",
        "Off target: {who} misses the goal.",
        "{who} tries a shot, but it goes wide.",
    ],
    second_yellow: &[
        "A second yellow for {who}: he is sent off.",
        "{who} sees a second yellow card and must leave the field.",
    ],
    red: &[
        "Red card! {who} is sent off.",
        "{who} is shown the red card. {team} are a player down.",
    ],
    yellow: &[
        "Yellow card for {who}.",
        "{who} goes into the book: yellow card.",
        "The referee shows {who} a yellow card.",
    ],
    offside: &[
        "Offside against {team}.",
        "{team} are caught offside.",
        "The flag is up: {team} offside.",
    ],
    penalty: &[
        "Penalty to {team}!",
        "The referee points to the spot: penalty for {team}.",
    ],
    tally: " Shoot-out {tally}.",
    kick_scored: &[
        "{who} scores from the spot.{tally}",
        "Penalty in for {team}.{tally}",
    ],
    kick_missed: &[
        "{who} misses the penalty!{tally}",
        "No goal: {team} miss from the spot.{tally}",
    ],
    half_time: &[
        "Half time: {score}.",
        "The first half is over. {score}.",
        "Half time, and it is {score}.",
    ],
    won_on_penalties: &["Full time: {score}. {winner} win on penalties."],
    won: &[
        "Full time: {score}. {winner} win.",
        "It is over: {winner} win, {score}.",
    ],
    draw: &["Full time: {score}. A draw.", "It ends level: {score}."],
};

const GERMAN: Wordings = Wordings {
    teams: ["das linke Team", "das rechte Team"],
    kick_off: &[
        "{left} gegen {right}: Anstoß.",
        "Das Spiel läuft: {left} gegen {right}.",
        "Los geht's zwischen {left} und {right}.",
    ],
    second_half: &[
        "Die zweite Halbzeit läuft.",
        "Nach der Pause rollt der Ball wieder.",
        "Weiter geht's mit der zweiten Halbzeit.",
    ],
    extra_time: &["Die Verlängerung läuft.", "Es geht in die Verlängerung."],
    own_goal: &[
        "Eigentor durch {who}! {score}.",
        "Ein Eigentor bringt {team} den Treffer. {score}.",
    ],
    goal: [
        (
            "TOR! {who} trifft nach Vorlage von {from}. {score}.",
            "TOR! {who} trifft. {score}.",
        ),
        (
            "{who} verwertet den Pass von {from}: Tor! {score}.",
            "{who} schiebt ein! {score}.",
        ),
    ],
    goal_for: "Tor für {team}! Torschütze: {who}. {score}.",
    equaliser: "{who} gleicht aus! {score}.",
    saved: &[
        "{who} schießt, der Torwart von {other} hält.",
        "Gehalten! Der Torwart von {other} pariert gegen {who}.",
        "Schuss von {who}, der Torwart ist zur Stelle.",
    ],
    blocked: &[
        "{who} zieht ab, {other} blocken.",
        "Geblockt! Der Schuss von {who} kommt nicht durch.",
    ],
    on_target: &[
        "{who} schießt aufs Tor, aber kein Treffer.",
        "Ein Schuss aufs Tor von {who} bringt nichts ein.",
    ],
    wide: &[
        "{who} schießt daneben.",
        "Vorbei: {who} verfehlt das Tor.",
        "{who} versucht es, doch der Ball geht am Tor vorbei.",
    ],
    second_yellow: &[
        "Gelb-Rot für {who}: Platzverweis.",
        "{who} sieht die zweite Gelbe und muss vom Platz.",
    ],
    red: &[
        "Rote Karte! {who} muss vom Platz.",
        "Rot für {who}. {team} nur noch zu zehnt.",
    ],
    yellow: &[
        "Gelbe Karte für {who}.",
        "{who} sieht Gelb.",
        "Der Schiedsrichter zeigt {who} die Gelbe Karte.",
    ],
    offside: &[
        "Abseits gegen {team}.",
        "{team} stehen im Abseits.",
        "Die Fahne ist oben: Abseits, {team}.",
    ],
    penalty: &[
        "Elfmeter für {team}!",
        "Der Schiedsrichter zeigt auf den Punkt: Elfmeter für {team}.",
    ],
    tally: " Elfmeterschießen {tally}.",
    kick_scored: &[
        "{who} verwandelt vom Punkt.{tally}",
        "Elfmeter drin für {team}.{tally}",
    ],
    kick_missed: &[
        "{who} verschießt!{tally}",
        "Kein Tor: {team} vergeben vom Punkt.{tally}",
    ],
    half_time: &[
        "Halbzeit: {score}.",
        "Die erste Halbzeit ist vorbei. {score}.",
        "Pause beim Stand von {score}.",
    ],
    won_on_penalties: &["Abpfiff: {score}. {winner} gewinnt im Elfmeterschießen."],
    won: &[
        "Abpfiff: {score}. {winner} gewinnt.",
        "Aus und vorbei: {winner} siegt, {score}.",
    ],
    draw: &[
        "Abpfiff: {score}. Unentschieden.",
        "Keiner gewinnt: {score}.",
    ],
};

impl Lang {
    fn wordings(self) -> &'static Wordings {
        match self {
            Lang::En => &ENGLISH,
            Lang::De => &GERMAN,
        }
    }
}

/// `template` with each `{key}` of `values` put in, in one pass: what is put in is never
/// read as a template again (a team may be called `{who}`).
fn fill(template: &str, values: &[(&str, &str)]) -> String {
    let mut out = String::with_capacity(template.len() + 32);
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        let found = after.find('}').and_then(|close| {
            let key = &after[..close];
            values
                .iter()
                .find(|(k, _)| *k == key)
                .map(|(_, v)| (close, *v))
        });
        match found {
            Some((close, v)) => {
                out.push_str(v);
                rest = &after[close + 1..];
            }
            None => {
                out.push('{');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// Every wording of a fact, in `lang`.
fn word(fact: &Fact, names: &[String; 2], lang: Lang) -> Vec<String> {
    let w = lang.wordings();
    let all = |templates: &[&str], values: &[(&str, &str)]| -> Vec<String> {
        templates.iter().map(|t| fill(t, values)).collect()
    };
    let [left, right] = [names[0].as_str(), names[1].as_str()];
    let team = |s: Side| names[s.index()].as_str();
    let other = |s: Side| names[1 - s.index()].as_str();
    match *fact {
        Fact::KickOff { half: 0 | 1, side } => {
            let by = side.map_or(left, team);
            let against = other(side.unwrap_or(Side::Left));
            let values = [
                ("left", left),
                ("right", right),
                ("by", by),
                ("other", against),
            ];
            all(w.kick_off, &values)
        }
        Fact::KickOff { half: 2, .. } => all(w.second_half, &[]),
        Fact::KickOff { .. } => all(w.extra_time, &[]),
        Fact::Goal(m) => {
            let side = m.side.unwrap_or(Side::Left);
            let score = score_line(names, m.score);
            match m.kind {
                MomentKind::Goal {
                    own_goal: true,
                    scorer,
                    ..
                } => {
                    let who = player(names, side.other(), scorer);
                    let values = [
                        ("who", who.as_str()),
                        ("team", team(side)),
                        ("score", &score),
                    ];
                    all(w.own_goal, &values)
                }
                MomentKind::Goal { scorer, assist, .. } => {
                    let who = player(names, side, scorer);
                    let from = assist.map(|a| format!("#{a}")).unwrap_or_default();
                    let values = [
                        ("who", who.as_str()),
                        ("from", &from),
                        ("team", team(side)),
                        ("score", &score),
                    ];
                    let mut v: Vec<String> = w
                        .goal
                        .iter()
                        .map(|(passed, alone)| {
                            fill(if assist.is_some() { passed } else { alone }, &values)
                        })
                        .collect();
                    v.push(fill(w.goal_for, &values));
                    if m.score[0] == m.score[1] {
                        v.push(fill(w.equaliser, &values));
                    }
                    v
                }
                _ => vec![score],
            }
        }
        Fact::Shot {
            side,
            unum,
            outcome,
            on_target,
        } => {
            let who = player(names, side, Some(unum));
            let templates = match outcome {
                ShotOutcome::Saved => w.saved,
                ShotOutcome::Blocked => w.blocked,
                _ if on_target => w.on_target,
                _ => w.wide,
            };
            all(templates, &[("who", &who), ("other", other(side))])
        }
        Fact::Card(m) => {
            let side = m.side.unwrap_or(Side::Left);
            let (templates, p) = match m.kind {
                MomentKind::RedCard {
                    player: p,
                    second_yellow: true,
                } => (w.second_yellow, p),
                MomentKind::RedCard { player: p, .. } => (w.red, p),
                MomentKind::YellowCard { player: p } => (w.yellow, p),
                _ => return vec![],
            };
            let who = player(names, side, p);
            all(templates, &[("who", &who), ("team", team(side))])
        }
        Fact::Offside { side } => all(w.offside, &[("team", team(side))]),
        Fact::Penalty(m) => all(w.penalty, &[("team", team(m.side.unwrap_or(Side::Left)))]),
        Fact::ShootOutKick(m) => {
            let side = m.side.unwrap_or(Side::Left);
            let MomentKind::ShootOutKick { taker, scored } = m.kind else {
                return vec![];
            };
            let who = player(names, side, taker);
            let tally = m
                .penalties
                .map(|p| fill(w.tally, &[("tally", &format!("{}–{}", p[0], p[1]))]))
                .unwrap_or_default();
            let templates = if scored { w.kick_scored } else { w.kick_missed };
            all(
                templates,
                &[("who", &who), ("team", team(side)), ("tally", &tally)],
            )
        }
        Fact::HalfTime(m) => all(w.half_time, &[("score", &score_line(names, m.score))]),
        Fact::FullTime(m) => {
            let score = score_line(names, m.score);
            match winner(&m) {
                Some((k, true)) => all(
                    w.won_on_penalties,
                    &[("score", &score), ("winner", &names[k])],
                ),
                Some((k, false)) => all(w.won, &[("score", &score), ("winner", &names[k])]),
                None => all(w.draw, &[("score", &score)]),
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Every fact a caption can be about, in every shape the wording depends on.
    fn facts() -> Vec<Fact> {
        let m = |kind, side, score, penalties| Moment {
            kind,
            side,
            cycle: 100,
            frame: 100,
            score,
            penalties,
        };
        let mut v = Vec::new();
        for half in [1, 2, 3] {
            for side in [None, Some(Side::Left), Some(Side::Right)] {
                v.push(Fact::KickOff { half, side });
            }
        }
        for side in [Side::Left, Side::Right] {
            for (scorer, assist, own_goal) in [
                (Some(9), Some(7), false),
                (Some(9), None, false),
                (None, None, false),
                (Some(4), None, true),
                (None, None, true),
            ] {
                for score in [[1, 0], [1, 1]] {
                    v.push(Fact::Goal(m(
                        MomentKind::Goal {
                            scorer,
                            assist,
                            own_goal,
                        },
                        Some(side),
                        score,
                        None,
                    )));
                }
            }
            for outcome in [
                ShotOutcome::Saved,
                ShotOutcome::Blocked,
                ShotOutcome::Missed,
                ShotOutcome::Goal { assist: None },
            ] {
                for on_target in [true, false] {
                    v.push(Fact::Shot {
                        side,
                        unum: 10,
                        outcome,
                        on_target,
                    });
                }
            }
            for kind in [
                MomentKind::YellowCard { player: Some(5) },
                MomentKind::YellowCard { player: None },
                MomentKind::RedCard {
                    player: Some(5),
                    second_yellow: true,
                },
                MomentKind::RedCard {
                    player: Some(5),
                    second_yellow: false,
                },
                MomentKind::HalfTime,
            ] {
                v.push(Fact::Card(m(kind, Some(side), [0, 0], None)));
            }
            v.push(Fact::Offside { side });
            v.push(Fact::Penalty(m(
                MomentKind::Penalty,
                Some(side),
                [0, 0],
                None,
            )));
            for (taker, scored, penalties) in [
                (Some(11), true, Some([3, 2])),
                (Some(11), false, Some([3, 2])),
                (None, true, None),
            ] {
                v.push(Fact::ShootOutKick(m(
                    MomentKind::ShootOutKick { taker, scored },
                    Some(side),
                    [1, 1],
                    penalties,
                )));
            }
        }
        v.push(Fact::ShootOutKick(m(
            MomentKind::HalfTime,
            None,
            [0, 0],
            None,
        )));
        v.push(Fact::HalfTime(m(MomentKind::HalfTime, None, [2, 1], None)));
        for (score, penalties) in [
            ([2, 1], None),
            ([1, 2], None),
            ([1, 1], None),
            ([1, 1], Some([4, 3])),
            ([1, 1], Some([3, 4])),
            ([1, 1], Some([3, 3])),
        ] {
            v.push(Fact::FullTime(m(
                MomentKind::FullTime,
                None,
                score,
                penalties,
            )));
        }
        v
    }

    /// Every wording of every fact in every language, with team names that look like the
    /// templates' own placeholders: a name is put in as it stands, never read as a template.
    fn every_wording() -> String {
        let names = ["{who} FC".to_owned(), "RIGHT".to_owned()];
        let mut out = String::new();
        for lang in Lang::ALL {
            for f in facts() {
                for line in word(&f, &names, lang) {
                    out.push_str(lang.code());
                    out.push(' ');
                    out.push_str(f.kind());
                    out.push_str(": ");
                    out.push_str(&line);
                    out.push('\n');
                }
            }
        }
        out
    }

    #[test]
    fn every_wording_is_the_one_written_down() {
        let want = include_str!("captions.golden");
        let got = every_wording();
        if std::env::var_os("PITCHSIDE_BLESS").is_some() {
            std::fs::write(
                concat!(env!("CARGO_MANIFEST_DIR"), "/src/broadcast/captions.golden"),
                &got,
            )
            .expect("write the golden file");
            return;
        }
        assert_eq!(got, want);
    }
}
