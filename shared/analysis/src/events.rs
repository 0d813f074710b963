//! Match events — goals, kick-offs, half time, fouls and free kicks, cards, set pieces,
//! offsides, back passes, penalties and shoot-out kicks — computed from the frames alone, so a
//! log and a live match give the same list.
//!
//! Feed [`Events`] the frames in order with [`Events::push`], one at a time as a live match
//! arrives or all at once for a log ([`Events::of_match`]): the result is the same. Each
//! [`Event`] has the first cycle and the index of the first frame where it shows (jump there
//! to see it happen), the team it concerns and the player where the frames tell him.
//!
//! Where the facts come from:
//! - **Play-mode changes** give most events, at the first frame in the new mode. Each mode
//!   names one team by its suffix, whose role depends on the mode ([`EventKind::side_role`]):
//!   the rcssserver 19 referee calls `foul_charge_l` when a *left* player fouled and then gives
//!   the free kick to the right (referee.cpp, `FoulRef::callFoul`), and likewise for offside,
//!   back pass, free-kick fault, catch fault and illegal defence.
//! - **Player state bits** give cards ([`state::YELLOW_CARD`], [`state::RED_CARD`]: the first
//!   frame a player shows the bit) and the player behind a call: the tackler of a foul (the
//!   offending team's player with [`state::TACKLE`] in the foul's first frame; nearest the ball
//!   if several), the passer of a back pass ([`state::BACK_PASS`]), the kicker of a free-kick
//!   fault ([`state::FREE_KICK_FAULT`]), the goalie of a catch fault, the defender of an
//!   illegal defence ([`state::ILLEGAL_DEFENSE`], if only one has it). Binary sources carry 16
//!   state bits: cards never reach them.
//! - **Touches** ([`crate::touch`]) give the scorer of a goal (the last player to touch the
//!   ball; if he plays for the other team it is an own goal) and the taker of a shoot-out kick.
//! - **Half time** has no play mode in a log: nothing is logged between the halves, the log
//!   goes from the last cycle of a half to the next half's kick-off. A kick-off that follows
//!   neither the start of the match nor a goal therefore starts a new half, and the half time
//!   is placed at the cycle after the last frame before it (3000 in a full game). A live
//!   match shows `before_kick_off` (or `first_half_over`) at that cycle, which gives the same
//!   cycle.

use crate::touch::{Touch, TouchDetector, TouchKind};
use rcss_formats::log::Match;
use rcss_formats::model::{state, Frame, Side};
use rcss_formats::params::MatchParams;
use rcss_formats::playmode::PlayMode;

/// The kind of foul a `foul_*` play mode calls.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FoulKind {
    /// `foul_charge`: a tackle called as a foul (the only foul rcssserver 19's referee calls).
    Charge,
    /// `foul_push`.
    Push,
    /// `foul_multiple_attack`.
    MultipleAttack,
    /// `foul_ballout`.
    BallOut,
}

/// What happened. See [`EventKind::side_role`] for what the event's team is to it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EventKind {
    KickOff,
    /// A goal; `own_goal` when the last touch was by a player of the other team.
    Goal {
        own_goal: bool,
    },
    /// The break between two halves (also before extra time).
    HalfTime,
    /// `time_over`: the end of the match.
    FullTime,
    Foul(FoulKind),
    /// A free kick awarded (after a foul or an offence, or to a goalie who caught the ball).
    FreeKick {
        indirect: bool,
    },
    KickIn,
    CornerKick,
    GoalKick,
    Offside,
    BackPass,
    FreeKickFault,
    CatchFault,
    IllegalDefense,
    DropBall,
    /// A penalty kick awarded during play (`penalty_kick_l/r`).
    PenaltyKick,
    /// One kick of a penalty shoot-out, from `penalty_setup` to `penalty_score` or `_miss`.
    ShootOutKick {
        scored: bool,
    },
    YellowCard,
    /// A red card; `second_yellow` when the player had a yellow one before.
    RedCard {
        second_yellow: bool,
    },
    /// A player who was on the field is no longer, without a red card: discarded by the
    /// referee or an operator (`dispdiscard`), or disconnected (not counted after time over,
    /// when every player disconnects). In binary sources, which lose the card bits, a red card
    /// shows as this.
    PlayerOff,
}

/// What an event's team is to the event.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SideRole {
    /// The team that restarts play: kick-off, free kick, kick-in, corner, goal kick, penalty.
    Awarded,
    /// The team that scored.
    Scored,
    /// The team that broke a rule: fouls, offside, back pass, free-kick and catch faults,
    /// illegal defence.
    Offended,
    /// The team of the player concerned: cards, a player leaving the field.
    OfPlayer,
    /// The team whose shoot-out kick it is.
    Kicking,
    /// The event concerns no team (half time, full time, drop ball).
    None,
}

impl EventKind {
    /// A stable identifier: `goal`, `kick_off`, `yellow_card`, … (for JSON, CSS classes,
    /// filters).
    pub fn id(self) -> &'static str {
        match self {
            EventKind::KickOff => "kick_off",
            EventKind::Goal { .. } => "goal",
            EventKind::HalfTime => "half_time",
            EventKind::FullTime => "full_time",
            EventKind::Foul(_) => "foul",
            EventKind::FreeKick { .. } => "free_kick",
            EventKind::KickIn => "kick_in",
            EventKind::CornerKick => "corner_kick",
            EventKind::GoalKick => "goal_kick",
            EventKind::Offside => "offside",
            EventKind::BackPass => "back_pass",
            EventKind::FreeKickFault => "free_kick_fault",
            EventKind::CatchFault => "catch_fault",
            EventKind::IllegalDefense => "illegal_defense",
            EventKind::DropBall => "drop_ball",
            EventKind::PenaltyKick => "penalty_kick",
            EventKind::ShootOutKick { .. } => "shoot_out_kick",
            EventKind::YellowCard => "yellow_card",
            EventKind::RedCard { .. } => "red_card",
            EventKind::PlayerOff => "player_off",
        }
    }

    /// A short name for people: "goal", "kick-off", "yellow card", "own goal", …
    pub fn label(self) -> &'static str {
        match self {
            EventKind::KickOff => "kick-off",
            EventKind::Goal { own_goal: false } => "goal",
            EventKind::Goal { own_goal: true } => "own goal",
            EventKind::HalfTime => "half time",
            EventKind::FullTime => "full time",
            EventKind::Foul(FoulKind::Charge) => "foul",
            EventKind::Foul(FoulKind::Push) => "foul (push)",
            EventKind::Foul(FoulKind::MultipleAttack) => "foul (multiple attack)",
            EventKind::Foul(FoulKind::BallOut) => "foul (ball out)",
            EventKind::FreeKick { indirect: false } => "free kick",
            EventKind::FreeKick { indirect: true } => "indirect free kick",
            EventKind::KickIn => "kick-in",
            EventKind::CornerKick => "corner kick",
            EventKind::GoalKick => "goal kick",
            EventKind::Offside => "offside",
            EventKind::BackPass => "back pass",
            EventKind::FreeKickFault => "free-kick fault",
            EventKind::CatchFault => "catch fault",
            EventKind::IllegalDefense => "illegal defense",
            EventKind::DropBall => "drop ball",
            EventKind::PenaltyKick => "penalty kick",
            EventKind::ShootOutKick { scored: true } => "shoot-out kick scored",
            EventKind::ShootOutKick { scored: false } => "shoot-out kick missed",
            EventKind::YellowCard => "yellow card",
            EventKind::RedCard {
                second_yellow: false,
            } => "red card",
            EventKind::RedCard {
                second_yellow: true,
            } => "red card (second yellow)",
            EventKind::PlayerOff => "player off the field",
        }
    }

    /// What the event's [`Event::side`] is to it.
    pub fn side_role(self) -> SideRole {
        match self {
            EventKind::KickOff
            | EventKind::FreeKick { .. }
            | EventKind::KickIn
            | EventKind::CornerKick
            | EventKind::GoalKick
            | EventKind::PenaltyKick => SideRole::Awarded,
            EventKind::Goal { .. } => SideRole::Scored,
            EventKind::Foul(_)
            | EventKind::Offside
            | EventKind::BackPass
            | EventKind::FreeKickFault
            | EventKind::CatchFault
            | EventKind::IllegalDefense => SideRole::Offended,
            EventKind::YellowCard | EventKind::RedCard { .. } | EventKind::PlayerOff => {
                SideRole::OfPlayer
            }
            EventKind::ShootOutKick { .. } => SideRole::Kicking,
            EventKind::HalfTime | EventKind::FullTime | EventKind::DropBall => SideRole::None,
        }
    }
}

/// One event of the match.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Event {
    pub kind: EventKind,
    /// The team, in the role [`EventKind::side_role`] says; `None` for events of no team.
    pub side: Option<Side>,
    /// The uniform number of the player of `side` behind the event, where the frames tell:
    /// scorer, carded player, tackler of a foul, back passer, kicker of a free-kick fault,
    /// goalie of a catch fault or of the catch a free kick rewards, shoot-out taker, player
    /// off the field.
    pub player: Option<u8>,
    /// The first cycle of the event.
    pub cycle: u32,
    /// Index of the first frame that shows it, in the order the frames were pushed (for a
    /// [`Match`], into `Match::frames`).
    pub frame: usize,
}

/// One play-mode change, as the referee's decision words it ([`Events::referee_messages`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ModeChange {
    pub cycle: u32,
    pub frame: usize,
    pub mode: PlayMode,
    pub previous: PlayMode,
    /// The player of the mode's team behind the decision (see [`Event::player`]).
    pub player: Option<u8>,
    /// The score in that frame, left and right.
    pub score: [u32; 2],
}

impl ModeChange {
    /// The referee's decision in words, with the teams' names (left, right):
    /// "foul by HELIOS_L 11 → free kick HELIOS_R", "goal for HELIOS_R (11): HELIOS_L 0–1
    /// HELIOS_R", "play on".
    pub fn describe(&self, names: [&str; 2]) -> String {
        word_change(self, &[names[0].to_owned(), names[1].to_owned()])
    }
}

impl Event {
    /// The event in words for a message board, with the teams' names (left, right):
    /// "yellow card for HELIOS_L 11", "half time". Events that a play-mode change words
    /// ([`ModeChange::describe`]) read "goal for HELIOS_R 11" and the like.
    pub fn describe(&self, names: [&str; 2]) -> String {
        word_event(self, &[names[0].to_owned(), names[1].to_owned()]).text
    }
}

/// A message the referee did not send but that the play-mode changes and cards imply,
/// worded for a message board: "foul by HELIOS_L 11 → free kick HELIOS_R". A page shows it
/// marked as derived, apart from what the server said.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DerivedMessage {
    pub cycle: u32,
    pub frame: usize,
    pub text: String,
}

/// A shoot-out kick waiting for its outcome.
#[derive(Clone, Copy, Debug)]
struct PendingKick {
    side: Side,
    cycle: u32,
    frame: usize,
    taker: Option<u8>,
}

/// Finds the events of a match, fed its frames in order.
#[derive(Clone, Debug)]
pub struct Events {
    touches: TouchDetector,
    events: Vec<Event>,
    changes: Vec<ModeChange>,
    frames: usize,
    prev_mode: Option<PlayMode>,
    prev_time: Option<u32>,
    /// State of each slot (l1..l11, r1..r11) in the previous frame; `None` before the first.
    states: Option<[u32; 22]>,
    /// A kick-off or any play was seen: a later kick-off without a goal starts a half.
    started: bool,
    goal_since_kick_off: bool,
    break_since_kick_off: bool,
    last_touch: Option<Touch>,
    pending_kick: Option<PendingKick>,
    names: [Option<String>; 2],
    /// The events the last push added.
    added: Vec<Event>,
}

impl Events {
    /// `params` gives the kickable areas touches are measured with
    /// ([`MatchParams::default`] for rcssserver 19's defaults).
    pub fn new(params: MatchParams) -> Events {
        Events {
            touches: TouchDetector::new(params),
            events: Vec::new(),
            changes: Vec::new(),
            frames: 0,
            prev_mode: None,
            prev_time: None,
            states: None,
            started: false,
            goal_since_kick_off: false,
            break_since_kick_off: false,
            last_touch: None,
            pending_kick: None,
            names: [None, None],
            added: Vec::new(),
        }
    }

    /// The events of a whole decoded log, with its parameters (defaults where it has none).
    pub fn of_match(m: &Match) -> Events {
        let mut e = Events::new(MatchParams::of_match(m));
        for f in &m.frames {
            e.push(f);
        }
        e
    }

    /// Every event so far, in frame order.
    pub fn events(&self) -> &[Event] {
        &self.events
    }

    /// The goal events so far (own goals included), in order.
    pub fn goals(&self) -> impl Iterator<Item = &Event> {
        self.events
            .iter()
            .filter(|e| matches!(e.kind, EventKind::Goal { .. }))
    }

    /// Every play-mode change so far.
    pub fn mode_changes(&self) -> &[ModeChange] {
        &self.changes
    }

    /// Frames pushed so far.
    pub fn frames(&self) -> usize {
        self.frames
    }

    /// The events the frame last pushed added, in the order they were found.
    pub fn last_added(&self) -> &[Event] {
        &self.added
    }

    /// Touches in the frame last pushed.
    pub fn last_touches(&self) -> &[Touch] {
        self.touches.last()
    }

    /// The parameters in use.
    pub fn params(&self) -> &MatchParams {
        self.touches.params()
    }

    /// Team names as the frames last gave them, `None` while a team has none.
    pub fn team_names(&self) -> [Option<&str>; 2] {
        [self.names[0].as_deref(), self.names[1].as_deref()]
    }

    /// Takes the next frame; returns how many events it added (several may share a frame: a
    /// foul and its yellow card).
    ///
    /// New events go to the end of [`Events::events`], with one exception: a shoot-out kick
    /// is known when its outcome is, and is dated back to its setup, so it is inserted in
    /// frame order (in practice also at the end: the referee calls nothing during a
    /// shoot-out).
    pub fn push(&mut self, frame: &Frame) -> usize {
        let index = self.frames;
        self.frames += 1;
        self.added.clear();
        for (name, team) in self.names.iter_mut().zip(&frame.teams) {
            if let Some(n) = &team.name {
                if name.as_ref() != Some(n) {
                    *name = Some(n.clone());
                }
            }
        }
        let touches = self.touches.push(frame);
        if let Some(&t) = touches.last() {
            self.last_touch = Some(t);
            if let Some(k) = &mut self.pending_kick {
                if t.side == k.side && t.kind == TouchKind::Kick {
                    k.taker = Some(t.unum);
                }
            }
        }
        if self.prev_mode != Some(frame.mode) {
            self.mode_changed(frame, index);
        }
        self.check_players(frame, index);
        self.prev_mode = Some(frame.mode);
        self.prev_time = Some(frame.time);
        self.added.len()
    }

    fn add(&mut self, kind: EventKind, side: Option<Side>, player: Option<u8>, at: (u32, usize)) {
        let event = Event {
            kind,
            side,
            player,
            cycle: at.0,
            frame: at.1,
        };
        let pos = self.events.partition_point(|e| e.frame <= event.frame);
        self.events.insert(pos, event);
        self.added.push(event);
    }

    fn mode_changed(&mut self, frame: &Frame, index: usize) {
        let mode = frame.mode;
        let side = mode.side();
        let at = (frame.time, index);
        let base = mode.base_name();
        let mut player = None;
        match base {
            "before_kick_off" | "first_half_over" if self.started && !self.break_since_kick_off => {
                self.add(EventKind::HalfTime, None, None, at);
                self.break_since_kick_off = true;
            }
            "kick_off" => {
                if self.started && !self.goal_since_kick_off && !self.break_since_kick_off {
                    // Nothing is logged between halves: the break began the cycle after the
                    // last frame of the half.
                    let cycle = self
                        .prev_time
                        .map_or(frame.time, |t| (t + 1).min(frame.time));
                    self.add(EventKind::HalfTime, None, None, (cycle, index));
                }
                self.add(EventKind::KickOff, side, None, at);
                self.goal_since_kick_off = false;
                self.break_since_kick_off = false;
            }
            "goal" => {
                self.goal_since_kick_off = true;
                let (own_goal, scorer) = match self.last_touch {
                    Some(t) if Some(t.side) == side => (false, Some(t.unum)),
                    Some(_) => (true, None),
                    None => (false, None),
                };
                player = scorer;
                self.add(EventKind::Goal { own_goal }, side, scorer, at);
            }
            "time_over" => self.add(EventKind::FullTime, None, None, at),
            "drop_ball" => self.add(EventKind::DropBall, None, None, at),
            "free_kick" | "indirect_free_kick" => {
                // A goalie's catch is rewarded with a free kick to his team.
                player = side.and_then(|s| find_player(frame, s, state::CATCH));
                let indirect = base == "indirect_free_kick";
                self.add(EventKind::FreeKick { indirect }, side, player, at);
            }
            "kick_in" => self.add(EventKind::KickIn, side, None, at),
            "corner_kick" => self.add(EventKind::CornerKick, side, None, at),
            "goal_kick" => self.add(EventKind::GoalKick, side, None, at),
            "penalty_kick" => self.add(EventKind::PenaltyKick, side, None, at),
            "offside" => self.add(EventKind::Offside, side, None, at),
            "foul_charge" | "foul_push" | "foul_multiple_attack" | "foul_ballout" => {
                let kind = match base {
                    "foul_charge" => FoulKind::Charge,
                    "foul_push" => FoulKind::Push,
                    "foul_multiple_attack" => FoulKind::MultipleAttack,
                    _ => FoulKind::BallOut,
                };
                player = side.and_then(|s| find_player(frame, s, state::TACKLE));
                self.add(EventKind::Foul(kind), side, player, at);
            }
            "back_pass" => {
                player = side.and_then(|s| find_player(frame, s, state::BACK_PASS));
                self.add(EventKind::BackPass, side, player, at);
            }
            "free_kick_fault" => {
                player = side.and_then(|s| find_player(frame, s, state::FREE_KICK_FAULT));
                self.add(EventKind::FreeKickFault, side, player, at);
            }
            "catch_fault" => {
                player = side.and_then(|s| {
                    find_player(frame, s, state::GOALIE | state::CATCH)
                        .or_else(|| find_player(frame, s, state::GOALIE))
                });
                self.add(EventKind::CatchFault, side, player, at);
            }
            "illegal_defense" => {
                player = side.and_then(|s| only_player(frame, s, state::ILLEGAL_DEFENSE));
                self.add(EventKind::IllegalDefense, side, player, at);
            }
            "penalty_setup" => {
                if let Some(s) = side {
                    self.pending_kick = Some(PendingKick {
                        side: s,
                        cycle: frame.time,
                        frame: index,
                        taker: None,
                    });
                }
            }
            "penalty_taken" => {
                player = self
                    .pending_kick
                    .filter(|k| Some(k.side) == side)
                    .and_then(|k| k.taker);
            }
            "penalty_score" | "penalty_miss" => {
                let scored = base == "penalty_score";
                let kick = self.pending_kick.take().filter(|k| Some(k.side) == side);
                let (start, taker) = match kick {
                    Some(k) => ((k.cycle, k.frame), k.taker),
                    None => (at, None),
                };
                player = taker;
                self.add(EventKind::ShootOutKick { scored }, side, taker, start);
            }
            _ => {}
        }
        if !matches!(base, "before_kick_off" | "" | "first_half_over") {
            self.started = true;
        }
        self.changes.push(ModeChange {
            cycle: frame.time,
            frame: index,
            mode,
            previous: self.prev_mode.unwrap_or(PlayMode::NULL),
            player,
            score: [frame.teams[0].score, frame.teams[1].score],
        });
    }

    fn check_players(&mut self, frame: &Frame, index: usize) {
        const CARDS: u32 = state::YELLOW_CARD | state::RED_CARD;
        let previous = self.states;
        let mut states = [0u32; 22];
        let at = (frame.time, index);
        for (i, p) in frame.players.iter().enumerate().take(22) {
            states[i] = p.state;
            // Before the first frame nobody had a card (a log starts at the kick-off; a live
            // match joined late shows the cards given so far at its first frame).
            let before = previous.map_or(0, |s| s[i]);
            let Some(side) = p.side else { continue };
            let new_cards = p.state & CARDS & !before;
            if new_cards & state::RED_CARD != 0 {
                let second_yellow = before & state::YELLOW_CARD != 0;
                self.add(
                    EventKind::RedCard { second_yellow },
                    Some(side),
                    Some(p.unum),
                    at,
                );
            } else if new_cards & state::YELLOW_CARD != 0 {
                self.add(EventKind::YellowCard, Some(side), Some(p.unum), at);
            }
            // After time over the teams disconnect: that is no event.
            let left_field = previous.is_some()
                && frame.mode != PlayMode::TIME_OVER
                && before != state::DISABLE
                && before & state::RED_CARD == 0
                && p.state == state::DISABLE;
            if left_field {
                self.add(EventKind::PlayerOff, Some(side), Some(p.unum), at);
            }
        }
        self.states = Some(states);
    }

    /// The referee's decisions as a message board shows them: one message per play-mode
    /// change, and one per card, half time and player leaving the field, in frame order. They are derived from the
    /// frames (see [`DerivedMessage`]).
    pub fn referee_messages(&self) -> Vec<DerivedMessage> {
        let names = [self.side_name(Side::Left), self.side_name(Side::Right)];
        let mut out = Vec::with_capacity(self.changes.len() + 8);
        let mut extra = self
            .events
            .iter()
            .filter(|e| {
                matches!(
                    e.kind,
                    EventKind::HalfTime
                        | EventKind::YellowCard
                        | EventKind::RedCard { .. }
                        | EventKind::PlayerOff
                )
            })
            .peekable();
        for c in &self.changes {
            // Half time comes before the kick-off of its frame, cards after the foul.
            while let Some(e) = extra.next_if(|e| {
                e.frame < c.frame || (e.frame == c.frame && e.kind == EventKind::HalfTime)
            }) {
                out.push(word_event(e, &names));
            }
            out.push(DerivedMessage {
                cycle: c.cycle,
                frame: c.frame,
                text: word_change(c, &names),
            });
        }
        out.extend(extra.map(|e| word_event(e, &names)));
        out
    }

    fn side_name(&self, side: Side) -> String {
        self.names[side.index()]
            .clone()
            .unwrap_or_else(|| match side {
                Side::Left => "left".to_owned(),
                Side::Right => "right".to_owned(),
            })
    }
}

/// The player of `side` with all of `bits`; the one nearest the ball if several.
fn find_player(frame: &Frame, side: Side, bits: u32) -> Option<u8> {
    frame
        .players
        .iter()
        .filter(|p| p.side == Some(side) && p.state & bits == bits)
        .map(|p| {
            let d2 = (p.x - frame.ball.x).powi(2) + (p.y - frame.ball.y).powi(2);
            (d2, p.unum)
        })
        .min_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, u)| u)
}

/// The player of `side` with `bits`, if exactly one has them.
fn only_player(frame: &Frame, side: Side, bits: u32) -> Option<u8> {
    let mut found = frame
        .players
        .iter()
        .filter(|p| p.side == Some(side) && p.state & bits == bits);
    let first = found.next()?;
    found.next().is_none().then_some(first.unum)
}

fn other(side: Side) -> Side {
    match side {
        Side::Left => Side::Right,
        Side::Right => Side::Left,
    }
}

/// "HELIOS_L 11", or "HELIOS_L" when the player is unknown.
fn who(names: &[String; 2], side: Side, player: Option<u8>) -> String {
    let team = &names[side.index()];
    match player {
        Some(u) => format!("{team} {u}"),
        None => team.clone(),
    }
}

/// One play-mode change as the referee's decision.
fn word_change(c: &ModeChange, names: &[String; 2]) -> String {
    let Some(side) = c.mode.side() else {
        return match c.mode.base_name() {
            "play_on" => "play on".to_owned(),
            "time_over" => format!(
                "full time: {} {}–{} {}",
                names[0], c.score[0], c.score[1], names[1]
            ),
            "drop_ball" => "drop ball".to_owned(),
            "before_kick_off" => "before kick-off".to_owned(),
            "first_half_over" => "end of the first half".to_owned(),
            "pause" => "game paused".to_owned(),
            "human_judge" => "human referee's decision".to_owned(),
            _ => c.mode.label(),
        };
    };
    let team = &names[side.index()];
    let them = &names[other(side).index()];
    let by = who(names, side, c.player);
    let free_kick_them = format!("free kick {them}");
    match c.mode.base_name() {
        "kick_off" => format!("kick-off {team}"),
        "goal" => {
            let scorer = match c.player {
                Some(u) => format!(" ({u})"),
                None => String::new(),
            };
            format!(
                "goal for {team}{scorer}: {} {}–{} {}",
                names[0], c.score[0], c.score[1], names[1]
            )
        }
        "free_kick" => match c.player {
            Some(u) => format!("goalie {team} {u} caught the ball → free kick {team}"),
            None => format!("free kick {team}"),
        },
        "indirect_free_kick" => format!("indirect free kick {team}"),
        "kick_in" => format!("kick-in {team}"),
        "corner_kick" => format!("corner kick {team}"),
        "goal_kick" => format!("goal kick {team}"),
        "penalty_kick" => format!("penalty kick {team}"),
        "offside" => format!("offside {team} → {free_kick_them}"),
        "foul_charge" => format!("foul by {by} → {free_kick_them}"),
        "foul_push" => format!("foul (push) by {by} → {free_kick_them}"),
        "foul_multiple_attack" => format!("foul (multiple attack) by {by} → {free_kick_them}"),
        "foul_ballout" => format!("foul (ball out) by {by} → {free_kick_them}"),
        "back_pass" => format!("back pass by {by} → indirect free kick {them}"),
        "free_kick_fault" => format!("free-kick fault by {by} → {free_kick_them}"),
        "catch_fault" => format!("catch fault by {by} → {free_kick_them}"),
        "illegal_defense" => format!("illegal defense by {by} → {free_kick_them}"),
        "penalty_setup" => format!("penalty shoot-out: {team} to kick"),
        "penalty_ready" => format!("penalty ready: {team}"),
        "penalty_taken" => format!("penalty taken by {by}"),
        "penalty_score" => format!("penalty scored by {team}"),
        "penalty_miss" => format!("penalty missed by {team}"),
        _ => format!("{} {team}", c.mode.base_name().replace('_', " ")),
    }
}

/// A card, half time or a player leaving, which no play-mode change words.
fn word_event(e: &Event, names: &[String; 2]) -> DerivedMessage {
    let text = match (e.kind, e.side) {
        (EventKind::HalfTime, _) => "half time".to_owned(),
        (EventKind::PlayerOff, Some(side)) => {
            format!("{} is off the field", who(names, side, e.player))
        }
        (kind, Some(side)) => format!("{} for {}", kind.label(), who(names, side, e.player)),
        (kind, None) => kind.label().to_owned(),
    };
    DerivedMessage {
        cycle: e.cycle,
        frame: e.frame,
        text,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rcss_formats::model::Team;

    /// A frame at `time` in `mode`, 22 standing players far from the ball.
    fn frame(time: u32, mode: &str) -> Frame {
        let players = crate::made_up::standing_row(-40.0, 4.0, 20.0);
        Frame {
            time,
            mode: PlayMode::from_name(mode.as_bytes()).unwrap(),
            teams: [
                Team {
                    name: Some("L".into()),
                    ..Team::default()
                },
                Team {
                    name: Some("R".into()),
                    ..Team::default()
                },
            ],
            players,
            ..Frame::default()
        }
    }

    type Brief = (&'static str, Option<Side>, Option<u8>, u32, usize);

    fn kinds(e: &Events) -> Vec<Brief> {
        e.events()
            .iter()
            .map(|e| (e.kind.id(), e.side, e.player, e.cycle, e.frame))
            .collect()
    }

    #[test]
    fn a_kick_off_without_a_goal_before_it_starts_a_half() {
        let mut e = Events::new(MatchParams::default());
        e.push(&frame(1, "kick_off_l"));
        e.push(&frame(2, "play_on"));
        e.push(&frame(2999, "play_on"));
        e.push(&frame(3001, "kick_off_r"));
        assert_eq!(
            kinds(&e),
            [
                ("kick_off", Some(Side::Left), None, 1, 0),
                ("half_time", None, None, 3000, 3),
                ("kick_off", Some(Side::Right), None, 3001, 3),
            ]
        );
        // A live match shows the break itself: the same cycle, one half time only.
        let mut live = Events::new(MatchParams::default());
        live.push(&frame(1, "kick_off_l"));
        live.push(&frame(2999, "play_on"));
        live.push(&frame(3000, "before_kick_off"));
        live.push(&frame(3000, "before_kick_off"));
        live.push(&frame(3001, "kick_off_r"));
        let half: Vec<_> = kinds(&live)
            .into_iter()
            .filter(|k| k.0 == "half_time")
            .collect();
        assert_eq!(half, [("half_time", None, None, 3000, 2)]);
    }

    #[test]
    fn a_kick_off_after_a_goal_is_no_half_time_and_the_last_toucher_scored() {
        let mut e = Events::new(MatchParams::default());
        e.push(&frame(1, "kick_off_l"));
        let mut kick = frame(2, "play_on");
        kick.players[13].state |= state::KICK;
        e.push(&kick);
        let mut goal = frame(3, "goal_r");
        goal.teams[1].score = 1;
        e.push(&goal);
        e.push(&frame(4, "kick_off_l"));
        assert_eq!(
            kinds(&e),
            [
                ("kick_off", Some(Side::Left), None, 1, 0),
                ("goal", Some(Side::Right), Some(3), 3, 2),
                ("kick_off", Some(Side::Left), None, 4, 3),
            ]
        );
        let texts: Vec<String> = e.referee_messages().into_iter().map(|m| m.text).collect();
        assert_eq!(
            texts,
            [
                "kick-off L",
                "play on",
                "goal for R (3): L 0–1 R",
                "kick-off L"
            ]
        );
    }

    #[test]
    fn an_own_goal_has_no_scorer() {
        let mut e = Events::new(MatchParams::default());
        e.push(&frame(1, "play_on"));
        let mut kick = frame(2, "play_on");
        kick.players[2].state |= state::KICK;
        e.push(&kick);
        e.push(&frame(3, "goal_r"));
        let goal = e.goals().next().unwrap();
        assert_eq!(
            (goal.kind, goal.side, goal.player),
            (EventKind::Goal { own_goal: true }, Some(Side::Right), None)
        );
    }

    #[test]
    fn a_foul_names_the_tackler_and_the_card_follows_it() {
        let mut e = Events::new(MatchParams::default());
        e.push(&frame(186, "play_on"));
        let mut foul = frame(187, "foul_charge_l");
        foul.players[10].state = 0x41441; // l11: tackle and yellow card
        foul.players[16].state = 0x20003; // r6: fouled
        e.push(&foul);
        e.push(&frame(188, "free_kick_r"));
        assert_eq!(
            kinds(&e),
            [
                ("foul", Some(Side::Left), Some(11), 187, 1),
                ("yellow_card", Some(Side::Left), Some(11), 187, 1),
                ("free_kick", Some(Side::Right), None, 188, 2),
            ]
        );
        let texts: Vec<String> = e.referee_messages().into_iter().map(|m| m.text).collect();
        assert_eq!(
            texts,
            [
                "play on",
                "foul by L 11 → free kick R",
                "yellow card for L 11",
                "free kick R"
            ]
        );
    }

    #[test]
    fn a_second_yellow_is_a_red_card() {
        let mut e = Events::new(MatchParams::default());
        let mut f = frame(10, "play_on");
        f.players[4].state = state::STAND | state::YELLOW_CARD;
        e.push(&f);
        f.time = 11;
        e.push(&f);
        f.time = 12;
        f.players[4].state = state::RED_CARD;
        e.push(&f);
        assert_eq!(
            e.events().iter().map(|e| e.kind).collect::<Vec<_>>(),
            [
                EventKind::YellowCard,
                EventKind::RedCard {
                    second_yellow: true
                }
            ]
        );
    }

    #[test]
    fn a_shoot_out_kick_is_dated_to_its_setup_and_names_its_taker() {
        let mut e = Events::new(MatchParams::default());
        e.push(&frame(100, "penalty_setup_l"));
        e.push(&frame(170, "penalty_ready_l"));
        let mut kick = frame(181, "penalty_taken_l");
        kick.players[8].state |= state::KICK;
        e.push(&kick);
        e.push(&frame(190, "penalty_score_l"));
        assert_eq!(
            kinds(&e),
            [("shoot_out_kick", Some(Side::Left), Some(9), 100, 0)]
        );
        assert_eq!(e.events()[0].kind, EventKind::ShootOutKick { scored: true });
    }

    #[test]
    fn events_stay_in_frame_order_when_a_kick_is_dated_back() {
        let mut e = Events::new(MatchParams::default());
        e.push(&frame(100, "penalty_setup_r"));
        let mut carded = frame(101, "penalty_ready_r");
        carded.players[0].state |= state::YELLOW_CARD;
        e.push(&carded);
        e.push(&frame(102, "penalty_miss_r"));
        let frames: Vec<usize> = e.events().iter().map(|e| e.frame).collect();
        assert_eq!(frames, [0, 1]);
    }
}
