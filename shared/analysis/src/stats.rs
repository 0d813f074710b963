//! Match statistics per team, at any moment of the match: possession, kicks, passes, shots and
//! shots on target, and the counts of goals, fouls, cards, corners, free kicks and offsides;
//! and a heat map of where the ball was.
//!
//! Feed [`Stats`] the frames in order ([`Stats::push`], or [`Stats::of_match`] for a whole
//! log); it finds the events on the way ([`Stats::events`]), so a page needs only this one.
//! [`Stats::summary_at_frame`] answers for any frame in microseconds (cumulative snapshots every
//! 64 frames, and the few frames since replayed), so it can be asked on every seek.
//!
//! # Definitions
//!
//! These are meant to be shown to users as they are.
//!
//! - **Touch**: a kick, a tackle that reached the ball, a goalie's catch, or the ball leaving
//!   a player's kickable area with its course changed there (see [`crate::touch`]).
//! - **Play-on cycle**: a cycle of the match clock in play mode `play_on`, counted once
//!   (stoppages, set pieces and breaks are not play-on cycles).
//! - **Possession**: each play-on cycle belongs to the team that touched the ball last, from
//!   the start of the match up to that cycle. A team's possession is its share of the
//!   play-on cycles that belong to a team ([`Summary::possession`]).
//! - **Kicks**: kicks and tackles that reached the ball (not catches or releases).
//! - **Passes**: completed passes ([`crate::actions`]): kicks, not shots, whose next touch is
//!   by a teammate (another player of the same team), with play running in between: if play
//!   stops first (ball out, foul, offside, goal), the kick is no pass, whoever restarts.
//!   Counted at the teammate's touch.
//! - **Shots**: kicks that send the ball at half the server's `ball_speed_max` or faster
//!   (1.5 m/cycle by default) on a path that, slowing down by `ball_decay` each cycle (from
//!   speed *v* the ball still travels *v* / (1 − `ball_decay`)), would cross the opponents'
//!   goal line (x = ±52.5 m) before it stops, within the width of the penalty area
//!   (|y| ≤ 20.16 m); and any kick after which the ball goes into the goal with no other
//!   touch. Judged from the ball's speed after the kick (in sources that give no ball speed,
//!   v1, from how far the ball moves in the next cycle); counted when the shot's outcome is
//!   known (the next touch, or play stopping): the players' shots ([`crate::actions`]).
//!
//!   Why the speed and the width: without them, every dribble along the opponents' goal
//!   line and every cross from the corner would count, since such kicks too would roll over
//!   the line (in the real full game: 63 "shots" per team against 9 and 11 with them; every
//!   goal of that game came from a kick that counts as a shot on target).
//! - **Shots on target**: shots that would cross the goal line between the posts
//!   (|y| ≤ `goal_width` / 2, 7.01 m by default).
//! - **Goals, fouls, yellow and red cards, corners, free kicks, offsides**: the match events
//!   ([`crate::events`]) of each kind; a goal counts for the team that scored (own goals
//!   too), a foul or offside for the team that committed it, a card for the player's team,
//!   a corner or free kick for the team awarded it.
//! - **Heat map**: where the ball was at each play-on cycle, counted in a grid of
//!   [`HEAT_COLS`] × [`HEAT_ROWS`] cells over the pitch (2.5 m × 2.52 m); a ball off the
//!   pitch counts in the nearest edge cell. Also split by the team in possession.

use crate::actions::{ActionKind, Actions};
use crate::events::{EventKind, Events};
use rcss_formats::log::Match;
use rcss_formats::model::{Frame, Side};
use rcss_formats::params::{field, MatchParams};
use rcss_formats::playmode::PlayMode;

/// The definitions of the module documentation, as `(figure, definition)` pairs a page can
/// show its users next to the figures (kept in step with the module documentation above).
pub const DEFINITIONS: [(&str, &str); 9] = [
    (
        "touch",
        "A kick, a tackle that reached the ball, a goalie's catch, or the ball leaving a \
         player's kickable area with its course changed there (a ball that merely rolls \
         through a player's reach is no touch).",
    ),
    (
        "possession",
        "Each play-on cycle belongs to the team that touched the ball last. A team's \
         possession is its share of the play-on cycles that belong to a team; stoppages, set \
         pieces and breaks do not count.",
    ),
    ("kicks", "Kicks, and tackles that reached the ball."),
    (
        "passes",
        "Kicks, not shots, whose next touch is by a teammate, with play running in between (if \
         play stops first, the kick is no pass, whoever restarts).",
    ),
    (
        "shots",
        "Kicks that send the ball at half the server's ball_speed_max or faster (1.5 m per \
         cycle by default) on a path that, slowing by ball_decay each cycle, would cross the \
         opponents' goal line within the width of the penalty area, and any kick after which \
         the ball goes into the goal untouched. Counted when the shot's outcome is known.",
    ),
    (
        "shots on target",
        "Shots that would cross the goal line between the posts (goal_width, 14.02 m by \
         default).",
    ),
    (
        "goals, fouls, cards, corners, free kicks, offsides",
        "The match events of each kind: a goal counts for the team that scored (own goals \
         too), a foul or offside for the team that committed it, a card for the player's \
         team, a corner or free kick for the team awarded it.",
    ),
    (
        "heat map",
        "Where the ball was at each play-on cycle, counted in a grid of 42 × 27 cells over the \
         pitch (2.5 m × 2.52 m); a ball off the pitch counts in the nearest edge cell.",
    ),
    (
        "play-on cycle",
        "A cycle of the match clock in play mode play_on, counted once.",
    ),
];

/// Heat-map columns, along x (goal line to goal line): 2.5 m each.
pub const HEAT_COLS: usize = 42;
/// Heat-map rows, along y (touch line to touch line): 68 / 27 ≈ 2.52 m each.
pub const HEAT_ROWS: usize = 27;
/// Half-width of the band on the goal line a shot must cross: the penalty area's.
pub use crate::actions::SHOT_HALF_WIDTH;
/// A cumulative summary is kept every this many frames.
const CHECKPOINT: usize = 64;
/// No heat-map cell for a frame (not a play-on cycle).
const NO_CELL: u16 = u16::MAX;

/// One team's figures up to some moment. See the [module documentation](self) for what each
/// counts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TeamStats {
    /// Play-on cycles in this team's possession.
    pub possession_cycles: u32,
    pub kicks: u32,
    pub passes: u32,
    pub shots: u32,
    pub shots_on_target: u32,
    pub goals: u32,
    /// Fouls committed.
    pub fouls: u32,
    pub yellow_cards: u32,
    pub red_cards: u32,
    /// Corner kicks awarded.
    pub corners: u32,
    /// Free kicks awarded (direct and indirect, goalie catches included).
    pub free_kicks: u32,
    /// Times caught offside.
    pub offsides: u32,
}

/// Both teams' figures after some frame.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// Frames counted (the summary is after frame `frames - 1`).
    pub frames: usize,
    /// The cycle of the last frame counted (0 before any).
    pub cycle: u32,
    /// Play-on cycles so far, whether or not a team had the ball.
    pub play_on_cycles: u32,
    /// Left, then right.
    pub teams: [TeamStats; 2],
}

impl Summary {
    /// A team's share of possession, 0..=1, of the play-on cycles that belong to a team;
    /// `None` before any.
    pub fn possession(&self, side: Side) -> Option<f32> {
        let total = self.teams[0].possession_cycles + self.teams[1].possession_cycles;
        (total > 0).then(|| self.teams[side.index()].possession_cycles as f32 / total as f32)
    }

    pub fn team(&self, side: Side) -> &TeamStats {
        &self.teams[side.index()]
    }
}

/// Which play-on cycles a heat map counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HeatFilter {
    All,
    /// Only cycles in this team's possession.
    Possession(Side),
}

/// Ball positions counted in a grid over the pitch, row by row from the top (y = −34) left
/// (x = −52.5) corner, in field coordinates (y grows downwards, as on the wire).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HeatMap {
    pub cols: usize,
    pub rows: usize,
    /// `rows × cols` counts, row by row.
    pub counts: Vec<u32>,
}

impl HeatMap {
    fn empty() -> HeatMap {
        HeatMap {
            cols: HEAT_COLS,
            rows: HEAT_ROWS,
            counts: vec![0; HEAT_COLS * HEAT_ROWS],
        }
    }

    /// The count of a cell.
    pub fn get(&self, col: usize, row: usize) -> u32 {
        if col >= self.cols {
            return 0;
        }
        self.counts.get(row * self.cols + col).copied().unwrap_or(0)
    }

    /// The largest count (to scale colours).
    pub fn max(&self) -> u32 {
        self.counts.iter().copied().max().unwrap_or(0)
    }

    /// All counts added up: the cycles counted.
    pub fn total(&self) -> u32 {
        self.counts.iter().sum()
    }

    /// A cell's rectangle in field coordinates: `(x0, y0, x1, y1)`.
    pub fn cell_rect(&self, col: usize, row: usize) -> (f32, f32, f32, f32) {
        let w = field::PITCH_LENGTH / self.cols as f32;
        let h = field::PITCH_WIDTH / self.rows as f32;
        let x0 = -field::HALF_LENGTH + col as f32 * w;
        let y0 = -field::HALF_WIDTH + row as f32 * h;
        (x0, y0, x0 + w, y0 + h)
    }
}

/// The heat-map cell of a ball position (off-pitch positions in the nearest edge cell).
fn cell_of(x: f32, y: f32) -> u16 {
    let fx = ((x + field::HALF_LENGTH) / field::PITCH_LENGTH * HEAT_COLS as f32).floor();
    let fy = ((y + field::HALF_WIDTH) / field::PITCH_WIDTH * HEAT_ROWS as f32).floor();
    // `as` saturates (NaN → 0), then clamp into the grid.
    let col = (fx.max(0.0) as usize).min(HEAT_COLS - 1);
    let row = (fy.max(0.0) as usize).min(HEAT_ROWS - 1);
    (row * HEAT_COLS + col) as u16
}

/// Which figure an increment adds to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Figure {
    Kick,
    Pass,
    Shot,
    ShotOnTarget,
    Goal,
    Foul,
    Yellow,
    Red,
    Corner,
    FreeKick,
    Offside,
}

impl Figure {
    fn apply(self, t: &mut TeamStats) {
        let field = match self {
            Figure::Kick => &mut t.kicks,
            Figure::Pass => &mut t.passes,
            Figure::Shot => &mut t.shots,
            Figure::ShotOnTarget => &mut t.shots_on_target,
            Figure::Goal => &mut t.goals,
            Figure::Foul => &mut t.fouls,
            Figure::Yellow => &mut t.yellow_cards,
            Figure::Red => &mut t.red_cards,
            Figure::Corner => &mut t.corners,
            Figure::FreeKick => &mut t.free_kicks,
            Figure::Offside => &mut t.offsides,
        };
        *field += 1;
    }
}

/// One figure added for one team at one frame.
#[derive(Clone, Copy, Debug)]
struct Increment {
    frame: u32,
    side: Side,
    figure: Figure,
}

/// Per-frame record: 0 = not a play-on cycle, 1 = play-on without possession, 2 = left's,
/// 3 = right's.
const NOT_PLAY_ON: u8 = 0;
const PLAY_ON_FREE: u8 = 1;

fn possession_code(side: Side) -> u8 {
    2 + side.index() as u8
}

/// Statistics of a match, fed its frames in order (see the module documentation).
#[derive(Clone, Debug)]
pub struct Stats {
    actions: Actions,
    now: Summary,
    owner: Option<Side>,
    prev_mode: Option<PlayMode>,
    prev_time: Option<u32>,
    times: Vec<u32>,
    /// Per frame, see [`NOT_PLAY_ON`].
    play: Vec<u8>,
    /// Per frame, the heat-map cell of the ball in a play-on cycle, else [`NO_CELL`].
    cells: Vec<u16>,
    increments: Vec<Increment>,
    /// `checkpoints[k]` is the summary before frame `k × CHECKPOINT`.
    checkpoints: Vec<Summary>,
}

impl Stats {
    pub fn new(params: MatchParams) -> Stats {
        Stats {
            actions: Actions::new(params),
            now: Summary::default(),
            owner: None,
            prev_mode: None,
            prev_time: None,
            times: Vec::new(),
            play: Vec::new(),
            cells: Vec::new(),
            increments: Vec::new(),
            checkpoints: Vec::new(),
        }
    }

    /// Statistics (and events) of a whole decoded log, with its parameters.
    pub fn of_match(m: &Match) -> Stats {
        let mut s = Stats::new(MatchParams::of_match(m));
        s.reserve(m.frames.len());
        for f in &m.frames {
            s.push(f);
        }
        s
    }

    fn reserve(&mut self, frames: usize) {
        self.times.reserve(frames);
        self.play.reserve(frames);
        self.cells.reserve(frames);
    }

    /// The match events found on the way.
    pub fn events(&self) -> &Events {
        self.actions.events()
    }

    /// The players' actions found on the way ([`crate::actions`]).
    pub fn actions(&self) -> &Actions {
        &self.actions
    }

    /// Frames pushed so far.
    pub fn frames(&self) -> usize {
        self.times.len()
    }

    /// The figures after every frame pushed so far.
    pub fn summary(&self) -> Summary {
        self.now
    }

    /// Takes the next frame.
    pub fn push(&mut self, frame: &Frame) {
        let index = self.times.len();
        if self.checkpoints.len() * CHECKPOINT == index {
            self.checkpoints.push(self.now);
        }
        self.actions.push(frame);
        let new_cycle = self.prev_time != Some(frame.time);
        if let Some(t) = self.actions.events().last_touches().last() {
            self.owner = Some(t.side);
        }
        let figures: Vec<(Side, Figure, Option<Figure>)> = self
            .actions
            .last_added()
            .iter()
            .filter_map(|a| match a.kind {
                ActionKind::Kick | ActionKind::Tackle { won: true } => {
                    Some((a.side, Figure::Kick, None))
                }
                ActionKind::Pass {
                    completed: true, ..
                } => Some((a.side, Figure::Pass, None)),
                ActionKind::Shot { on_target, .. } => Some((
                    a.side,
                    Figure::Shot,
                    on_target.then_some(Figure::ShotOnTarget),
                )),
                _ => None,
            })
            .collect();
        for (side, figure, also) in figures {
            self.add(index, side, figure);
            if let Some(f) = also {
                self.add(index, side, f);
            }
        }
        let added: Vec<(EventKind, Option<Side>)> = self
            .actions
            .events()
            .last_added()
            .iter()
            .map(|e| (e.kind, e.side))
            .collect();
        for (kind, side) in added {
            let figure = match kind {
                EventKind::Goal { .. } => Figure::Goal,
                EventKind::Foul(_) => Figure::Foul,
                EventKind::YellowCard => Figure::Yellow,
                EventKind::RedCard { .. } => Figure::Red,
                EventKind::CornerKick => Figure::Corner,
                EventKind::FreeKick { .. } => Figure::FreeKick,
                EventKind::Offside => Figure::Offside,
                _ => continue,
            };
            if let Some(side) = side {
                self.add(index, side, figure);
            }
        }
        let play_on = frame.mode == PlayMode::PLAY_ON && new_cycle;
        let (code, cell) = if play_on {
            self.now.play_on_cycles += 1;
            let code = match self.owner {
                Some(side) => {
                    self.now.teams[side.index()].possession_cycles += 1;
                    possession_code(side)
                }
                None => PLAY_ON_FREE,
            };
            (code, cell_of(frame.ball.x, frame.ball.y))
        } else {
            (NOT_PLAY_ON, NO_CELL)
        };
        self.play.push(code);
        self.cells.push(cell);
        self.times.push(frame.time);
        self.now.frames = index + 1;
        self.now.cycle = frame.time;
        self.prev_mode = Some(frame.mode);
        self.prev_time = Some(frame.time);
    }

    fn add(&mut self, frame: usize, side: Side, figure: Figure) {
        figure.apply(&mut self.now.teams[side.index()]);
        self.increments.push(Increment {
            frame: u32::try_from(frame).unwrap_or(u32::MAX),
            side,
            figure,
        });
    }

    /// The figures after frame `frame` (clamped to the last frame pushed); the empty summary
    /// before any frame.
    pub fn summary_at_frame(&self, frame: usize) -> Summary {
        let Some(last) = self.times.len().checked_sub(1) else {
            return Summary::default();
        };
        let frame = frame.min(last);
        let k = frame / CHECKPOINT;
        let mut s = self.checkpoints.get(k).copied().unwrap_or_default();
        let start = k * CHECKPOINT;
        for code in &self.play[start..=frame] {
            if *code != NOT_PLAY_ON {
                s.play_on_cycles += 1;
            }
            if *code >= 2 {
                s.teams[usize::from(code - 2)].possession_cycles += 1;
            }
        }
        let from = self
            .increments
            .partition_point(|i| (i.frame as usize) < start);
        for inc in self.increments[from..]
            .iter()
            .take_while(|i| i.frame as usize <= frame)
        {
            inc.figure.apply(&mut s.teams[inc.side.index()]);
        }
        s.frames = frame + 1;
        s.cycle = self.times[frame];
        s
    }

    /// The figures after the last frame at or before `cycle`; the empty summary when every
    /// frame is later.
    pub fn summary_at_cycle(&self, cycle: u32) -> Summary {
        match self.times.partition_point(|&t| t <= cycle) {
            0 => Summary::default(),
            n => self.summary_at_frame(n - 1),
        }
    }

    /// The heat map of the play-on cycles up to and including frame `through` (every frame
    /// with `None`). Counted afresh on each call: a few microseconds for a full game.
    pub fn heat_map(&self, through: Option<usize>, filter: HeatFilter) -> HeatMap {
        let mut map = HeatMap::empty();
        let end = through.map_or(self.cells.len(), |f| (f + 1).min(self.cells.len()));
        let want = match filter {
            HeatFilter::All => None,
            HeatFilter::Possession(side) => Some(possession_code(side)),
        };
        for (cell, code) in self.cells[..end].iter().zip(&self.play[..end]) {
            if *cell == NO_CELL || want.is_some_and(|w| w != *code) {
                continue;
            }
            if let Some(c) = map.counts.get_mut(usize::from(*cell)) {
                *c += 1;
            }
        }
        map
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rcss_formats::model::state;

    fn frame(time: u32, mode: PlayMode, ball: (f32, f32, f32, f32)) -> Frame {
        let players = crate::made_up::standing_row(-50.0, 4.5, 30.0);
        Frame {
            time,
            mode,
            ball: rcss_formats::model::Ball {
                x: ball.0,
                y: ball.1,
                vx: ball.2,
                vy: ball.3,
                z: 0.0,
            },
            players,
            ..Frame::default()
        }
    }

    fn kick(mut f: Frame, slot: usize) -> Frame {
        f.players[slot].state |= state::KICK;
        f
    }

    #[test]
    fn possession_passes_and_shots() {
        let mut s = Stats::new(MatchParams::default());
        let on = PlayMode::PLAY_ON;
        s.push(&frame(1, on, (0.0, 0.0, 0.0, 0.0)));
        // l2 kicks, l3 receives: a pass.
        s.push(&kick(frame(2, on, (1.0, 0.0, 1.0, 0.0)), 1));
        s.push(&frame(3, on, (2.0, 0.0, 0.9, 0.0)));
        s.push(&kick(frame(4, on, (3.0, 0.0, 1.0, 0.0)), 2));
        // l3 shoots from 30 m: 2.5 m/cycle reaches 41.7 m, at y = 30 · 0.1 = 3: on target.
        s.push(&kick(frame(5, on, (22.5, 0.0, 2.5, 0.25)), 2));
        // r1 clears: it can not reach the left goal line from here (reach 8.3 m).
        s.push(&kick(frame(6, on, (20.0, 0.0, -0.5, 0.0)), 11));
        let sum = s.summary();
        let (l, r) = (sum.teams[0], sum.teams[1]);
        assert_eq!(
            (l.kicks, l.passes, l.shots, l.shots_on_target),
            (3, 1, 1, 1)
        );
        assert_eq!((r.kicks, r.passes, r.shots), (1, 0, 0));
        // Cycle 1 belongs to nobody; 2..5 to the left, 6 to the right.
        assert_eq!(sum.play_on_cycles, 6);
        assert_eq!((l.possession_cycles, r.possession_cycles), (4, 1));
        assert_eq!(sum.possession(Side::Left), Some(0.8));
        // At any earlier frame, the same as if the frames had stopped there.
        let at3 = s.summary_at_frame(3);
        assert_eq!((at3.teams[0].kicks, at3.teams[0].passes), (2, 1));
        assert_eq!(s.summary_at_cycle(3), s.summary_at_frame(2));
        assert_eq!(s.summary_at_cycle(0), Summary::default());
        let heat = s.heat_map(None, HeatFilter::All);
        assert_eq!(heat.total(), 6);
        assert_eq!(heat.get(21, 13), 3, "balls at x 0..2.5, y 0");
        assert_eq!(
            s.heat_map(None, HeatFilter::Possession(Side::Right))
                .total(),
            1
        );
    }

    #[test]
    fn a_kick_before_a_stoppage_is_no_pass() {
        let mut s = Stats::new(MatchParams::default());
        let on = PlayMode::PLAY_ON;
        s.push(&kick(frame(1, on, (0.0, 0.0, 1.0, 0.0)), 1));
        let kick_in = PlayMode::from_name(b"kick_in_l").unwrap();
        s.push(&kick(frame(2, kick_in, (0.0, 34.0, 1.0, 0.0)), 2));
        s.push(&kick(frame(3, on, (5.0, 30.0, 1.0, 0.0)), 3));
        assert_eq!(s.summary().teams[0].passes, 1, "only kick-in → teammate");
    }

    #[test]
    fn without_ball_speed_a_shot_is_judged_from_the_next_cycle() {
        let mut s = Stats::new(MatchParams::default());
        let on = PlayMode::PLAY_ON;
        s.push(&frame(1, on, (-30.0, 0.0, 0.0, 0.0)));
        // The right team kicks towards the left goal; v1 shows no speed.
        s.push(&kick(frame(2, on, (-30.0, 0.0, 0.0, 0.0)), 12));
        assert_eq!(s.summary().teams[1].shots, 0, "not known yet");
        s.push(&frame(3, on, (-32.0, 1.5, 0.0, 0.0)));
        assert_eq!(
            s.summary().teams[1].shots,
            0,
            "judged, its outcome not known yet"
        );
        // It goes wide: a goal kick to the left team ends it.
        let goal_kick = PlayMode::from_name(b"goal_kick_l").unwrap();
        s.push(&frame(4, goal_kick, (-47.0, 9.0, 0.0, 0.0)));
        let r = s.summary().teams[1];
        assert_eq!(
            (r.shots, r.shots_on_target),
            (1, 0),
            "crosses at y = 16.9: wide"
        );
        let shot = s
            .actions()
            .actions()
            .iter()
            .find(|a| a.kind.id() == "shot")
            .unwrap();
        assert_eq!(
            shot.kind,
            crate::actions::ActionKind::Shot {
                on_target: false,
                outcome: crate::actions::ShotOutcome::Missed
            }
        );
        assert_eq!((shot.side, shot.unum, shot.cycle), (Side::Right, 2, 2));
    }

    #[test]
    fn heat_cells_cover_the_pitch_and_clamp_outside() {
        assert_eq!(cell_of(-52.5, -34.0), 0);
        assert_eq!(cell_of(-60.0, -40.0), 0);
        assert_eq!(cell_of(60.0, 40.0), (HEAT_COLS * HEAT_ROWS - 1) as u16);
        assert_eq!(cell_of(f32::NAN, 0.0) % HEAT_COLS as u16, 0);
        let m = HeatMap::empty();
        assert_eq!(m.cell_rect(0, 0).0, -52.5);
        assert!((m.cell_rect(HEAT_COLS - 1, HEAT_ROWS - 1).3 - 34.0).abs() < 1e-4);
    }
}
