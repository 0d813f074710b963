//! What each player did with the ball, from the shows alone (kick and tackle bits, positions,
//! velocities, play modes): every kick with its kicker, passes with their receiver, shots
//! with their outcome, dribbles, tackles, ball recoveries, entries into the penalty area,
//! goalies' catches and players who left the field. Fed frames in order, as they arrive, so a
//! live match has them as a log does; the page, the relay and `pitchside-inspect` compute
//! them with this same code.
//!
//! # Definitions
//!
//! These are meant to be shown to users as they are ([`DEFINITIONS`]). A *touch* is what
//! [`crate::touch`] finds (a kick, a tackle that reached the ball, a goalie's catch, or the
//! ball leaving a player's reach with its course changed); a *strike* is a kick or a tackle
//! that reached the ball. "In play" means no play-mode change between two frames other than
//! to `play_on`.
//!
//! - **Kick**: a kick command that took effect (the kick bit without the fault bit); one per
//!   player and cycle.
//! - **Pass**: a strike, not a shot, whose next touch in play is by another player. By a
//!   teammate: *completed* (the receiver is that teammate); by an opponent: *intercepted* (the
//!   receiver is the opponent who took it), when the strike sent the ball at a pass's pace,
//!   [`PASS_PACE`] (0.8 m per cycle) or faster: a slower touch lost to an opponent is the ball
//!   lost in a duel. Play stopping first (ball out, foul, offside) makes it no pass. Its *direction* is that of the ball's way from the strike to the receiver's
//!   touch, seen by the passing team facing the opponents' goal: *forward* within 45° of
//!   straight at that goal line, *back* within 45° of straight back, else *left* or *right*.
//!   A **through pass** is a completed pass received beyond the opponents' offside line as it
//!   was at the strike (the second-last opponent, usually the last defender, or the ball if
//!   further), from a strike in front of that line.
//! - **Shot**: a strike that sends the ball at half the server's `ball_speed_max` or faster
//!   (1.5 m per cycle by default) on a path that, slowing by `ball_decay` each cycle, would
//!   cross the opponents' goal line within the width of the penalty area; and any strike after
//!   which the ball goes into the goal with no other touch. *On target*: its path crosses the
//!   line between the posts. *Outcome*: *goal*; *saved* (the opponents' goalie touched it
//!   next); *blocked* (another opponent touched it next); *missed* (play stopped without a goal,
//!   or a teammate touched it next). A goal's **assist** is the completed pass to the scorer
//!   that began his last possession of the ball, if a teammate gave it.
//! - **Dribble**: a run of touches by one player with nobody else touching the ball and play
//!   running, carrying the ball at least [`DRIBBLE_MIN`] metres (from the ball at his first
//!   touch to the ball at his last).
//! - **Tackle**: a tackle command that took effect: *won* when it reached the ball (the tackle
//!   bit appears without the fault bit), *failed* when it did not (the fault bit appears, with
//!   the tackle bit when the ball was in reach, alone when it was not).
//! - **Ball recovery**: a touch in play by a player whose team did not make the touch before
//!   it (the ball came from the other team, an interception, a save, a tackle won); a release
//!   (the ball bouncing off a player) is no recovery.
//! - **Penalty-area entry**: the ball, in play, goes into the opponents' penalty area from
//!   outside it while a team has it (made the last touch); it is that team's, and its
//!   player's who touched the ball last.
//! - **Catch**: a goalie's catch that took effect (the catch bit without the fault bit).
//! - **Left the field**: a player on the field no longer is, without a red card: disconnected
//!   or discarded (the match event of that name).

use crate::events::{Event, EventKind, Events};
use crate::touch::{Touch, TouchKind};
use rcss_formats::log::Match;
use rcss_formats::model::{state, Frame, Side};
use rcss_formats::params::{field, MatchParams};
use rcss_formats::playmode::PlayMode;

/// The shortest carry that makes a run of touches a dribble, in metres.
pub const DRIBBLE_MIN: f32 = 3.0;
/// The least pace (m per cycle) of a pass the opponents intercept: a slower kick lost to an
/// opponent is the ball lost in a duel, not a pass (at 0.8 the ball still rolls 13 m).
pub const PASS_PACE: f32 = 0.8;
/// Half the width of the band on the goal line a shot's path must cross.
pub const SHOT_HALF_WIDTH: f32 = field::PENALTY_AREA_WIDTH / 2.0;

/// The definitions of the module documentation, `(figure, definition)`, for a page to show.
pub const DEFINITIONS: [(&str, &str); 10] = [
    (
        "kick",
        "A kick command that took effect (the kick bit without the fault bit); one per player and cycle.",
    ),
    (
        "pass",
        "A kick or a tackle that reached the ball, not a shot, whose next touch in play is by another \
         player: completed when a teammate, intercepted when an opponent (if the kick had a pass's \
         pace, 0.8 m per cycle or faster). Play stopping first makes it no pass. Direction: the ball's \
         way to the receiver seen facing the opponents' goal, forward or back within 45°, else left \
         or right.",
    ),
    (
        "through pass",
        "A completed pass received beyond the opponents' offside line as it was at the kick (their \
         second-last player, usually the last defender), from a kick in front of that line.",
    ),
    (
        "shot",
        "A kick that sends the ball at half the server's ball_speed_max or faster on a path that would \
         cross the opponents' goal line within the width of the penalty area, or any kick after which \
         the ball goes into the goal untouched. On target: the path crosses between the posts. Outcome: \
         goal, saved (the goalie touched it next), blocked (another opponent did), missed.",
    ),
    (
        "assist",
        "The completed pass to the scorer that began his last possession of the ball.",
    ),
    (
        "dribble",
        "A run of touches by one player, nobody else touching the ball and play running, carrying the \
         ball at least 3 m.",
    ),
    (
        "tackle",
        "A tackle command that took effect: won when it reached the ball, failed otherwise.",
    ),
    (
        "ball recovery",
        "A touch in play by a player whose team did not make the touch before it (interceptions, \
         saves, tackles won); the ball bouncing off a player is none.",
    ),
    (
        "penalty-area entry",
        "The ball, in play, goes into the opponents' penalty area from outside while a team has it; \
         credited to the player who touched it last.",
    ),
    (
        "catch",
        "A goalie's catch that took effect.",
    ),
];

/// Where a pass went, seen by the passing team facing the opponents' goal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Direction {
    Forward,
    Back,
    Left,
    Right,
}

impl Direction {
    pub fn id(self) -> &'static str {
        match self {
            Direction::Forward => "forward",
            Direction::Back => "back",
            Direction::Left => "left",
            Direction::Right => "right",
        }
    }
}

/// How a shot ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ShotOutcome {
    /// Scored; `assist` is the teammate whose pass began the scorer's possession.
    Goal {
        assist: Option<u8>,
    },
    Saved,
    Blocked,
    Missed,
}

impl ShotOutcome {
    pub fn id(self) -> &'static str {
        match self {
            ShotOutcome::Goal { .. } => "goal",
            ShotOutcome::Saved => "saved",
            ShotOutcome::Blocked => "blocked",
            ShotOutcome::Missed => "missed",
        }
    }
}

/// What a player did.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ActionKind {
    Kick,
    /// `receiver` is a teammate when `completed`, else the opponent who took the ball.
    Pass {
        receiver: u8,
        completed: bool,
        direction: Direction,
        through: bool,
    },
    Shot {
        on_target: bool,
        outcome: ShotOutcome,
    },
    Dribble {
        /// Metres from the ball at the first touch to the ball at the last.
        distance: f32,
    },
    Tackle {
        won: bool,
    },
    Recovery,
    PenaltyAreaEntry,
    Catch,
    LeftField,
}

impl ActionKind {
    /// A stable identifier (`kick`, `pass`, `shot`, …) for JSON, CSV and filters.
    pub fn id(&self) -> &'static str {
        match self {
            ActionKind::Kick => "kick",
            ActionKind::Pass { .. } => "pass",
            ActionKind::Shot { .. } => "shot",
            ActionKind::Dribble { .. } => "dribble",
            ActionKind::Tackle { .. } => "tackle",
            ActionKind::Recovery => "recovery",
            ActionKind::PenaltyAreaEntry => "penalty_area_entry",
            ActionKind::Catch => "catch",
            ActionKind::LeftField => "left_field",
        }
    }

    /// In words, for lists: "pass (completed, forward, through)", "shot (saved, on target)".
    pub fn label(&self) -> String {
        match self {
            ActionKind::Kick => "kick".into(),
            ActionKind::Pass {
                completed,
                direction,
                through,
                ..
            } => format!(
                "pass ({}, {}{})",
                if *completed {
                    "completed"
                } else {
                    "intercepted"
                },
                direction.id(),
                if *through { ", through" } else { "" }
            ),
            ActionKind::Shot { on_target, outcome } => format!(
                "shot ({}, {})",
                outcome.id(),
                if *on_target {
                    "on target"
                } else {
                    "off target"
                }
            ),
            ActionKind::Dribble { distance } => format!("dribble ({distance:.0} m)"),
            ActionKind::Tackle { won } => {
                if *won {
                    "tackle (won)".into()
                } else {
                    "tackle (failed)".into()
                }
            }
            ActionKind::Recovery => "ball recovery".into(),
            ActionKind::PenaltyAreaEntry => "penalty-area entry".into(),
            ActionKind::Catch => "catch".into(),
            ActionKind::LeftField => "left the field".into(),
        }
    }
}

/// One action of one player.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct Action {
    #[serde(flatten)]
    pub kind: ActionKind,
    pub side: Side,
    pub unum: u8,
    /// The cycle and frame index (in the order frames were pushed) where it began: the kick
    /// of a pass or shot, the first touch of a dribble.
    pub cycle: u32,
    pub frame: usize,
    /// The ball where it began.
    pub from: (f32, f32),
    /// Where it led, for passes (the ball at the receiver's touch), shots (where the shot's
    /// path crosses the goal line, or the ball where it ended), dribbles (the ball at the
    /// last touch) and entries (the ball inside the area).
    pub to: Option<(f32, f32)>,
    /// The frame where it ended (the receiver's touch, the shot's end), when it has one.
    pub end_frame: Option<usize>,
}

/// One player's figures, summed from the actions (see the module documentation).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct PlayerFigures {
    pub kicks: u32,
    pub passes: u32,
    pub passes_completed: u32,
    pub passes_intercepted: u32,
    pub through_passes: u32,
    pub passes_forward: u32,
    pub passes_back: u32,
    pub passes_left: u32,
    pub passes_right: u32,
    pub shots: u32,
    pub shots_on_target: u32,
    pub goals: u32,
    pub assists: u32,
    pub dribbles: u32,
    pub tackles_won: u32,
    pub tackles_failed: u32,
    pub recoveries: u32,
    pub penalty_area_entries: u32,
    pub catches: u32,
    pub left_field: u32,
}

impl PlayerFigures {
    /// Adds one action of this player.
    pub fn add(&mut self, a: &ActionKind) {
        match *a {
            ActionKind::Kick => self.kicks += 1,
            ActionKind::Pass {
                completed,
                direction,
                through,
                ..
            } => {
                self.passes += 1;
                if completed {
                    self.passes_completed += 1;
                } else {
                    self.passes_intercepted += 1;
                }
                if through {
                    self.through_passes += 1;
                }
                match direction {
                    Direction::Forward => self.passes_forward += 1,
                    Direction::Back => self.passes_back += 1,
                    Direction::Left => self.passes_left += 1,
                    Direction::Right => self.passes_right += 1,
                }
            }
            ActionKind::Shot { on_target, outcome } => {
                self.shots += 1;
                if on_target {
                    self.shots_on_target += 1;
                }
                if let ShotOutcome::Goal { .. } = outcome {
                    self.goals += 1;
                }
            }
            ActionKind::Dribble { .. } => self.dribbles += 1,
            ActionKind::Tackle { won: true } => self.tackles_won += 1,
            ActionKind::Tackle { won: false } => self.tackles_failed += 1,
            ActionKind::Recovery => self.recoveries += 1,
            ActionKind::PenaltyAreaEntry => self.penalty_area_entries += 1,
            ActionKind::Catch => self.catches += 1,
            ActionKind::LeftField => self.left_field += 1,
        }
    }

    /// The figures as `(name, value)` pairs, in a fixed order (tables, CSV columns).
    pub fn named(&self) -> [(&'static str, u32); 20] {
        [
            ("kicks", self.kicks),
            ("passes", self.passes),
            ("passes_completed", self.passes_completed),
            ("passes_intercepted", self.passes_intercepted),
            ("through_passes", self.through_passes),
            ("passes_forward", self.passes_forward),
            ("passes_back", self.passes_back),
            ("passes_left", self.passes_left),
            ("passes_right", self.passes_right),
            ("shots", self.shots),
            ("shots_on_target", self.shots_on_target),
            ("goals", self.goals),
            ("assists", self.assists),
            ("dribbles", self.dribbles),
            ("tackles_won", self.tackles_won),
            ("tackles_failed", self.tackles_failed),
            ("recoveries", self.recoveries),
            ("penalty_area_entries", self.penalty_area_entries),
            ("catches", self.catches),
            ("left_field", self.left_field),
        ]
    }
}

/// A strike waiting for what follows it.
#[derive(Clone, Copy, Debug)]
struct Open {
    side: Side,
    unum: u8,
    cycle: u32,
    frame: usize,
    ball: (f32, f32),
    /// The shot verdict: `Some(on_target)`, `None` for no shot (or not judged yet).
    shot: Option<bool>,
    /// Where the shot's path crosses the goal line.
    shot_to: Option<(f32, f32)>,
    /// The opponents' offside line at the strike (x).
    line: f32,
    /// The ball's speed after the strike (from its move into the next cycle in sources
    /// without ball velocity); `None` until known.
    speed: Option<f32>,
}

/// A run of touches by one player (a dribble if long enough).
#[derive(Clone, Copy, Debug)]
struct Run {
    side: Side,
    unum: u8,
    cycle: u32,
    frame: usize,
    from: (f32, f32),
    last: (f32, f32),
    last_frame: usize,
    touches: u32,
}

/// A strike whose shot verdict waits for the next cycle (sources without ball speed).
#[derive(Clone, Copy, Debug)]
struct PendingShot {
    time: u32,
    ball: (f32, f32),
}

/// The actions of a match, fed its frames in order.
#[derive(Clone, Debug)]
pub struct Actions {
    events: Events,
    actions: Vec<Action>,
    /// How many actions the last push added (they may be dated back to earlier frames).
    added: usize,
    open: Option<Open>,
    pending_shot: Option<PendingShot>,
    run: Option<Run>,
    /// The last touch in play, and its team: what a recovery is measured against.
    last: Option<Touch>,
    /// Each team's pass that began the current possession of a player: (passer, receiver).
    possession_pass: Option<(Side, u8, u8)>,
    /// The team that has the ball (made the last touch), for entries.
    owner: Option<(Side, u8)>,
    /// The ball was in the left / right penalty area at the previous play-on cycle.
    in_area: [bool; 2],
    has_velocity: bool,
    prev_mode: Option<PlayMode>,
    prev_time: Option<u32>,
    /// Each slot's state (l1..l11, r1..r11) in the previous frame.
    prev_states: [u32; 22],
    frames: usize,
}

impl Actions {
    pub fn new(params: MatchParams) -> Actions {
        Actions {
            events: Events::new(params),
            actions: Vec::new(),
            added: 0,
            open: None,
            pending_shot: None,
            run: None,
            last: None,
            possession_pass: None,
            owner: None,
            in_area: [false, false],
            has_velocity: false,
            prev_mode: None,
            prev_time: None,
            prev_states: [state::DISABLE; 22],
            frames: 0,
        }
    }

    /// The actions of a whole decoded log, with its parameters.
    pub fn of_match(m: &Match) -> Actions {
        let mut a = Actions::new(MatchParams::of_match(m));
        for f in &m.frames {
            a.push(f);
        }
        a
    }

    /// The match events found on the way.
    pub fn events(&self) -> &Events {
        &self.events
    }

    /// Every action so far, in the order they were settled (a pass when its receiver touched
    /// the ball, a shot when its outcome was known): sort by `frame` for the match's order.
    pub fn actions(&self) -> &[Action] {
        &self.actions
    }

    /// The actions the last push settled.
    pub fn last_added(&self) -> &[Action] {
        &self.actions[self.actions.len() - self.added..]
    }

    /// Frames pushed so far.
    pub fn frames(&self) -> usize {
        self.frames
    }

    /// Each player's figures, left team first, by uniform number (index 0 is number 1).
    pub fn figures(&self) -> [[PlayerFigures; 11]; 2] {
        let mut out = [[PlayerFigures::default(); 11]; 2];
        for a in &self.actions {
            if let Some(f) = out[a.side.index()].get_mut(usize::from(a.unum).wrapping_sub(1)) {
                f.add(&a.kind);
            }
            if let ActionKind::Shot {
                outcome:
                    ShotOutcome::Goal {
                        assist: Some(assist),
                    },
                ..
            } = a.kind
            {
                if let Some(f) = out[a.side.index()].get_mut(usize::from(assist).wrapping_sub(1)) {
                    f.assists += 1;
                }
            }
        }
        out
    }

    /// Takes the next frame.
    pub fn push(&mut self, frame: &Frame) {
        let index = self.frames;
        self.frames += 1;
        let before = self.actions.len();
        self.events.push(frame);
        if frame.ball.vx != 0.0 || frame.ball.vy != 0.0 {
            self.has_velocity = true;
        }
        let ball = (frame.ball.x, frame.ball.y);
        let new_cycle = self.prev_time != Some(frame.time);
        self.settle_pending_shot(frame);
        // Events of this frame: a goal settles the open strike (and dribble), any other
        // stoppage ends them.
        let added: Vec<Event> = self.events.last_added().to_vec();
        for e in &added {
            match e.kind {
                EventKind::PlayerOff => {
                    if let (Some(side), Some(unum)) = (e.side, e.player) {
                        self.actions.push(Action {
                            kind: ActionKind::LeftField,
                            side,
                            unum,
                            cycle: e.cycle,
                            frame: e.frame,
                            from: ball,
                            to: None,
                            end_frame: None,
                        });
                    }
                }
                EventKind::Goal { .. } => self.goal(e.side, index, ball),
                _ => {}
            }
        }
        if self.prev_mode != Some(frame.mode) && frame.mode != PlayMode::PLAY_ON {
            self.stoppage(index);
        }
        let touches: Vec<Touch> = self.events.last_touches().to_vec();
        self.tackles(frame, index);
        for t in touches {
            self.touch(t, frame, index);
        }
        if frame.mode == PlayMode::PLAY_ON && new_cycle {
            self.entries(frame, index, ball, true);
        } else if frame.mode != PlayMode::PLAY_ON {
            // Where the ball stands at a restart; only going in from outside counts.
            self.entries(frame, index, ball, false);
        }
        for (slot, p) in self.prev_states.iter_mut().zip(&frame.players) {
            *slot = p.state;
        }
        self.prev_mode = Some(frame.mode);
        self.prev_time = Some(frame.time);
        self.added = self.actions.len() - before;
    }

    /// Tackles that took effect this frame (the bit appears), won or failed.
    fn tackles(&mut self, frame: &Frame, index: usize) {
        // Touch detection already knows which tackles reached the ball; a failed one is the
        // tackle bit appearing with the fault bit.
        for t in self.events.last_touches() {
            if t.kind == TouchKind::Tackle {
                self.actions.push(Action {
                    kind: ActionKind::Tackle { won: true },
                    side: t.side,
                    unum: t.unum,
                    cycle: frame.time,
                    frame: index,
                    from: (frame.ball.x, frame.ball.y),
                    to: None,
                    end_frame: None,
                });
            }
        }
        // rcssserver sets the fault bit alone when the ball was out of reach, both bits when
        // the tackle missed a ball in reach, and keeps them through the ten cycles the player
        // is frozen after it (a won tackle keeps its tackle bit): a failed tackle is the
        // fault bit appearing where neither bit was in the frame before.
        for (i, p) in frame.players.iter().enumerate() {
            let Some(side) = p.side else { continue };
            let was = self.prev_states.get(i).copied().unwrap_or(state::DISABLE);
            let faulted = p.state & state::TACKLE_FAULT != 0;
            if faulted && was & (state::TACKLE | state::TACKLE_FAULT) == 0 {
                self.actions.push(Action {
                    kind: ActionKind::Tackle { won: false },
                    side,
                    unum: p.unum,
                    cycle: frame.time,
                    frame: index,
                    from: (p.x, p.y),
                    to: None,
                    end_frame: None,
                });
            }
        }
    }

    fn touch(&mut self, t: Touch, frame: &Frame, index: usize) {
        let ball = (frame.ball.x, frame.ball.y);
        let play_on = frame.mode == PlayMode::PLAY_ON;
        let strike = matches!(t.kind, TouchKind::Kick | TouchKind::Tackle);
        match t.kind {
            TouchKind::Kick => self.push_action(ActionKind::Kick, t, frame, index, ball),
            TouchKind::Catch => self.push_action(ActionKind::Catch, t, frame, index, ball),
            _ => {}
        }
        // Recovery: the touch before was the other team's, in play.
        if play_on && t.kind != TouchKind::Release {
            if let Some(last) = self.last {
                if last.side != t.side {
                    self.push_action(ActionKind::Recovery, t, frame, index, ball);
                }
            }
        }
        // What the open strike was. Two strikes in one frame (players kicking at once) are
        // contested: the first is neither pass nor shot.
        if let Some(open) = self.open.take().filter(|o| o.frame != index) {
            let by_self = open.side == t.side && open.unum == t.unum;
            if by_self && t.kind == TouchKind::Release {
                // The ball leaving the striker's own reach: what he struck is still under way.
                self.open = Some(open);
            } else if let Some(on_target) = open.shot {
                {
                    let outcome = if t.side == open.side {
                        ShotOutcome::Missed
                    } else if is_goalie(frame, t) || t.kind == TouchKind::Catch {
                        ShotOutcome::Saved
                    } else {
                        ShotOutcome::Blocked
                    };
                    self.settle_shot(open, on_target, outcome, Some(ball), index);
                }
            } else if !by_self && (t.side == open.side || open.speed.is_none_or(|v| v >= PASS_PACE))
            {
                let completed = t.side == open.side;
                let direction = direction(open.side, open.ball, ball);
                let through = completed
                    && beyond(open.side, ball.0, open.line)
                    && !beyond(open.side, open.ball.0, open.line);
                self.actions.push(Action {
                    kind: ActionKind::Pass {
                        receiver: t.unum,
                        completed,
                        direction,
                        through,
                    },
                    side: open.side,
                    unum: open.unum,
                    cycle: open.cycle,
                    frame: open.frame,
                    from: open.ball,
                    to: Some(ball),
                    end_frame: Some(index),
                });
                self.possession_pass = completed.then_some((open.side, open.unum, t.unum));
            }
        }
        // The run of one player's touches (a dribble when long enough).
        match &mut self.run {
            Some(r) if r.side == t.side && r.unum == t.unum => {
                r.last = ball;
                r.last_frame = index;
                r.touches += 1;
            }
            _ => {
                self.end_run();
                if play_on || strike {
                    self.run = Some(Run {
                        side: t.side,
                        unum: t.unum,
                        cycle: frame.time,
                        frame: index,
                        from: ball,
                        last: ball,
                        last_frame: index,
                        touches: 1,
                    });
                }
            }
        }
        if self
            .possession_pass
            .is_some_and(|(s, _, r)| s != t.side || r != t.unum)
        {
            self.possession_pass = None;
        }
        if strike {
            let line = offside_line(frame, t.side.other());
            let mut open = Open {
                side: t.side,
                unum: t.unum,
                cycle: frame.time,
                frame: index,
                ball,
                shot: None,
                shot_to: None,
                line,
                speed: None,
            };
            let v = (frame.ball.vx, frame.ball.vy);
            if v != (0.0, 0.0) {
                open.speed = Some((v.0 * v.0 + v.1 * v.1).sqrt());
                self.judge_shot(&mut open, v);
            } else if !self.has_velocity {
                self.pending_shot = Some(PendingShot {
                    time: frame.time,
                    ball,
                });
            }
            self.open = Some(open);
        }
        self.last = Some(t);
        self.owner = Some((t.side, t.unum));
    }

    fn push_action(
        &mut self,
        kind: ActionKind,
        t: Touch,
        frame: &Frame,
        index: usize,
        at: (f32, f32),
    ) {
        self.actions.push(Action {
            kind,
            side: t.side,
            unum: t.unum,
            cycle: frame.time,
            frame: index,
            from: at,
            to: None,
            end_frame: None,
        });
    }

    /// Whether `v` from the open strike's ball makes it a shot (see the definitions).
    fn judge_shot(&self, open: &mut Open, v: (f32, f32)) {
        let params = self.events.params().server;
        let goal_x = match open.side {
            Side::Left => field::HALF_LENGTH,
            Side::Right => -field::HALF_LENGTH,
        };
        let toward = goal_x - open.ball.0;
        if v.0 == 0.0 || toward.signum() != v.0.signum() {
            return;
        }
        if v.0 * v.0 + v.1 * v.1 < (params.ball_speed_max / 2.0).powi(2) {
            return;
        }
        let decay = params.ball_decay.clamp(0.0, 0.999);
        if (v.0 / (1.0 - decay)).abs() < toward.abs() {
            return;
        }
        let y_at_line = open.ball.1 + v.1 * (toward / v.0);
        if y_at_line.abs() > SHOT_HALF_WIDTH {
            return;
        }
        open.shot = Some(y_at_line.abs() <= params.goal_width / 2.0);
        open.shot_to = Some((goal_x, y_at_line));
    }

    /// Sources without ball speed: the ball's move into the next cycle is its speed after the
    /// strike.
    fn settle_pending_shot(&mut self, frame: &Frame) {
        let Some(p) = self.pending_shot.take() else {
            return;
        };
        if frame.time == p.time + 1 {
            if let Some(mut open) = self.open.take() {
                let v = (frame.ball.x - p.ball.0, frame.ball.y - p.ball.1);
                open.speed = Some((v.0 * v.0 + v.1 * v.1).sqrt());
                self.judge_shot(&mut open, v);
                self.open = Some(open);
            }
        } else if frame.time == p.time {
            self.pending_shot = Some(p);
        }
    }

    fn settle_shot(
        &mut self,
        open: Open,
        on_target: bool,
        outcome: ShotOutcome,
        end: Option<(f32, f32)>,
        index: usize,
    ) {
        self.actions.push(Action {
            kind: ActionKind::Shot { on_target, outcome },
            side: open.side,
            unum: open.unum,
            cycle: open.cycle,
            frame: open.frame,
            from: open.ball,
            to: open.shot_to.or(end),
            end_frame: Some(index),
        });
    }

    /// A goal for `side` in frame `index`: the open strike by that side becomes a scored
    /// shot, whatever its speed.
    fn goal(&mut self, side: Option<Side>, index: usize, ball: (f32, f32)) {
        let Some(open) = self.open.take() else {
            return;
        };
        if Some(open.side) != side {
            // An own goal: the strike was the other team's; no shot of theirs.
            self.open = Some(open);
            return;
        }
        let assist = self
            .possession_pass
            .filter(|(s, _, r)| *s == open.side && *r == open.unum)
            .map(|(_, passer, _)| passer);
        let on_target = true;
        let mut open = open;
        if open.shot_to.is_none() {
            open.shot_to = Some(ball);
        }
        self.settle_shot(
            open,
            on_target,
            ShotOutcome::Goal { assist },
            Some(ball),
            index,
        );
    }

    /// Play stopped: the open strike is no pass; a shot was missed; a run ends.
    fn stoppage(&mut self, index: usize) {
        if let Some(open) = self.open.take() {
            if let Some(on_target) = open.shot {
                self.settle_shot(open, on_target, ShotOutcome::Missed, None, index);
            }
        }
        self.pending_shot = None;
        self.end_run();
        self.last = None;
        self.possession_pass = None;
    }

    fn end_run(&mut self) {
        let Some(r) = self.run.take() else { return };
        let distance = ((r.last.0 - r.from.0).powi(2) + (r.last.1 - r.from.1).powi(2)).sqrt();
        if r.touches >= 2 && distance >= DRIBBLE_MIN {
            self.actions.push(Action {
                kind: ActionKind::Dribble { distance },
                side: r.side,
                unum: r.unum,
                cycle: r.cycle,
                frame: r.frame,
                from: r.from,
                to: Some(r.last),
                end_frame: Some(r.last_frame),
            });
        }
    }

    /// The ball going into a penalty area in play, for the team that has it.
    fn entries(&mut self, frame: &Frame, index: usize, ball: (f32, f32), count: bool) {
        for (i, goal_x) in [-field::HALF_LENGTH, field::HALF_LENGTH]
            .into_iter()
            .enumerate()
        {
            let inside = ball.1.abs() <= field::PENALTY_AREA_WIDTH / 2.0
                && (ball.0 - goal_x).abs() <= field::PENALTY_AREA_LENGTH
                && ball.0.abs() <= field::HALF_LENGTH;
            let entered = count && inside && !self.in_area[i];
            self.in_area[i] = inside;
            if !entered {
                continue;
            }
            // Area `i` is the left team's (i = 0) or the right team's: an entry for the other.
            let attacking = if i == 0 { Side::Right } else { Side::Left };
            if let Some((side, unum)) = self.owner.filter(|(s, _)| *s == attacking) {
                self.actions.push(Action {
                    kind: ActionKind::PenaltyAreaEntry,
                    side,
                    unum,
                    cycle: frame.time,
                    frame: index,
                    from: ball,
                    to: Some(ball),
                    end_frame: None,
                });
            }
        }
    }
}

/// Whether `t`'s player is his team's goalie in `frame`.
fn is_goalie(frame: &Frame, t: Touch) -> bool {
    frame
        .players
        .iter()
        .any(|p| p.side == Some(t.side) && p.unum == t.unum && p.state & state::GOALIE != 0)
}

/// The x of `defending`'s offside line: its second-last player counted from its own goal
/// line, or the ball when nearer that line; never in the other half.
fn offside_line(frame: &Frame, defending: Side) -> f32 {
    // Distance towards the defending team's own goal grows with -x for the left team.
    let sign = if defending == Side::Left { -1.0 } else { 1.0 };
    let mut xs: Vec<f32> = frame
        .players
        .iter()
        .filter(|p| p.side == Some(defending) && p.state != state::DISABLE)
        .map(|p| sign * p.x)
        .collect();
    xs.sort_by(|a, b| b.total_cmp(a));
    let second = xs.get(1).copied().unwrap_or(0.0);
    sign * second.max(sign * frame.ball.x).max(0.0)
}

/// Whether x is beyond `line` for a team of `side` attacking (towards the opponents' goal).
fn beyond(side: Side, x: f32, line: f32) -> bool {
    match side {
        Side::Left => x > line,
        Side::Right => x < line,
    }
}

/// The direction of a ball's way `from` → `to` for a team of `side` facing the opponents'
/// goal (left attacks towards +x; y grows downwards, so its left hand is −y).
pub fn direction(side: Side, from: (f32, f32), to: (f32, f32)) -> Direction {
    let (mut dx, mut dy) = (to.0 - from.0, to.1 - from.1);
    if side == Side::Right {
        dx = -dx;
        dy = -dy;
    }
    if dx.abs() >= dy.abs() {
        if dx >= 0.0 {
            Direction::Forward
        } else {
            Direction::Back
        }
    } else if dy < 0.0 {
        Direction::Left
    } else {
        Direction::Right
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn directions_are_seen_from_the_passing_team() {
        let o = (0.0, 0.0);
        assert_eq!(direction(Side::Left, o, (10.0, 2.0)), Direction::Forward);
        assert_eq!(direction(Side::Left, o, (-10.0, 2.0)), Direction::Back);
        assert_eq!(direction(Side::Left, o, (1.0, -5.0)), Direction::Left);
        assert_eq!(direction(Side::Left, o, (1.0, 5.0)), Direction::Right);
        // The right team faces -x: its left hand is +y.
        assert_eq!(direction(Side::Right, o, (-10.0, 2.0)), Direction::Forward);
        assert_eq!(direction(Side::Right, o, (1.0, 5.0)), Direction::Left);
        assert_eq!(direction(Side::Right, o, (1.0, -5.0)), Direction::Right);
    }
}
