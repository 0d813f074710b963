//! Who touched the ball, frame by frame: what possession, passes, shots and goal scorers are
//! built on ([`crate::events`], [`crate::stats`]).
//!
//! A **touch** in frame *f* is one of:
//! - a **kick**: the player's state has the kick bit ([`state::KICK`]) without the kick-fault
//!   bit. rcssserver sets the bit for exactly the cycle the kick command took effect (in the
//!   real full game, 1275 kick bits for 1275 increments of the kick counters);
//! - a **tackle** that reached the ball: the tackle bit appears ([`state::TACKLE`] set now,
//!   not in the player's previous frame: the server keeps it for the 10 cycles a tackle
//!   lasts) without the tackle-fault bit;
//! - a **catch** by a goalie: [`state::CATCH`] without [`state::CATCH_FAULT`];
//! - a **release**, only in play-on cycles where none of the above happened: the ball was in
//!   a player's kickable area in the previous cycle (player size + the player type's kickable
//!   margin + ball size, 1.085 m for the default type) and has left it now, and its course
//!   changed there: its speed differs from the previous speed times `ball_decay` by more than
//!   0.1 m/cycle plus a fifth of that speed (the server's ball noise is at most 5 % of the
//!   speed per axis). This catches the ball bouncing off a player, and the release of a ball
//!   whose kick a source did not flag; a ball that merely rolls through a player's reach is
//!   no touch. When several players had the ball in reach, the nearest one released it.
//!
//! Sources without ball velocity (v1 shows: positions only) use the ball's displacement
//! between consecutive cycles instead of its velocity, which is the same number one cycle
//! later.

use rcss_formats::model::{state, Frame, Side};
use rcss_formats::params::MatchParams;
use rcss_formats::playmode::PlayMode;

/// How a player touched the ball (see the module documentation).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub enum TouchKind {
    Kick,
    Tackle,
    Catch,
    Release,
}

/// One touch of the ball by one player.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Touch {
    pub side: Side,
    pub unum: u8,
    pub kind: TouchKind,
}

/// The ball and player positions of one frame that the next frame is compared with.
#[derive(Clone, Debug)]
struct Previous {
    time: u32,
    mode: PlayMode,
    ball: (f32, f32),
    /// Ball velocity as the source gave it, or the displacement since the cycle before when
    /// it gives none.
    ball_v: (f32, f32),
    /// Per slot (l1..l11, r1..r11): state, position, kickable radius.
    players: [(u32, f32, f32, f32); 22],
}

/// Finds the touches of each frame, fed frames in order.
#[derive(Clone, Debug)]
pub struct TouchDetector {
    params: MatchParams,
    /// Kickable radius by player type id; types beyond it have the default type's.
    radius_by_type: Vec<f32>,
    default_radius: f32,
    prev: Option<Previous>,
    /// Whether any frame so far carried a ball velocity: sources that carry none (v1) show 0.
    has_velocity: bool,
    /// Touches of the frame last pushed.
    touches: Vec<Touch>,
}

/// Speed change beyond what free rolling and the server's ball noise explain.
fn deflected(expected: (f32, f32), actual: (f32, f32)) -> bool {
    let dx = actual.0 - expected.0;
    let dy = actual.1 - expected.1;
    let speed = (expected.0 * expected.0 + expected.1 * expected.1).sqrt();
    let limit = 0.1 + 0.2 * speed;
    dx * dx + dy * dy > limit * limit
}

impl TouchDetector {
    pub fn new(params: MatchParams) -> TouchDetector {
        let radius_by_type = (0..params.player_types.len())
            .map(|id| params.kickable_radius(i16::try_from(id).unwrap_or(i16::MAX)))
            .collect();
        let default_radius = params.kickable_radius(-1);
        TouchDetector {
            radius_by_type,
            default_radius,
            params,
            prev: None,
            has_velocity: false,
            touches: Vec::new(),
        }
    }

    /// The parameters the detector reads kickable areas and ball decay from.
    pub fn params(&self) -> &MatchParams {
        &self.params
    }

    /// Looks at the next frame; returns its touches (also kept until the next push).
    pub fn push(&mut self, frame: &Frame) -> &[Touch] {
        self.touches.clear();
        let ball = (frame.ball.x, frame.ball.y);
        if frame.ball.vx != 0.0 || frame.ball.vy != 0.0 {
            self.has_velocity = true;
        }
        let prev = self.prev.take();
        let ball_v = match &prev {
            Some(p) if !self.has_velocity && frame.time == p.time + 1 => {
                (ball.0 - p.ball.0, ball.1 - p.ball.1)
            }
            _ => (frame.ball.vx, frame.ball.vy),
        };
        for (i, p) in frame.players.iter().enumerate() {
            let Some(side) = p.side else { continue };
            if p.state == state::DISABLE {
                continue;
            }
            let before = prev
                .as_ref()
                .and_then(|q| q.players.get(i))
                .map_or(0, |q| q.0);
            let kind = if p.state & (state::KICK | state::KICK_FAULT) == state::KICK {
                Some(TouchKind::Kick)
            } else if p.state & (state::TACKLE | state::TACKLE_FAULT) == state::TACKLE
                && before & state::TACKLE == 0
            {
                Some(TouchKind::Tackle)
            } else if p.state & (state::CATCH | state::CATCH_FAULT) == state::CATCH {
                Some(TouchKind::Catch)
            } else {
                None
            };
            if let Some(kind) = kind {
                self.touches.push(Touch {
                    side,
                    unum: p.unum,
                    kind,
                });
            }
        }
        if let Some(p) = &prev {
            let play_on = frame.mode == PlayMode::PLAY_ON && p.mode == PlayMode::PLAY_ON;
            if self.touches.is_empty() && play_on && frame.time == p.time + 1 {
                self.find_release(frame, p, ball, ball_v);
            }
        }
        let mut players = [(state::DISABLE, 0.0, 0.0, self.default_radius); 22];
        for (slot, p) in players.iter_mut().zip(&frame.players) {
            let radius = usize::try_from(p.player_type)
                .ok()
                .and_then(|t| self.radius_by_type.get(t))
                .copied()
                .unwrap_or(self.default_radius);
            *slot = (p.state, p.x, p.y, radius);
        }
        self.prev = Some(Previous {
            time: frame.time,
            mode: frame.mode,
            ball,
            ball_v,
            players,
        });
        &self.touches
    }

    /// The touches of the frame last pushed.
    pub fn last(&self) -> &[Touch] {
        &self.touches
    }

    fn find_release(&mut self, frame: &Frame, p: &Previous, ball: (f32, f32), v: (f32, f32)) {
        let d = self.params.server.ball_decay;
        // Without velocities the displacement into this cycle is known only now, so the
        // course change shows one cycle later: compare the two last displacements.
        let expected = (p.ball_v.0 * d, p.ball_v.1 * d);
        if !deflected(expected, v) {
            return;
        }
        let mut nearest: Option<(f32, usize)> = None;
        for (i, &(st, x, y, radius)) in p.players.iter().enumerate() {
            if st == state::DISABLE {
                continue;
            }
            let d2 = (p.ball.0 - x).powi(2) + (p.ball.1 - y).powi(2);
            if d2 <= radius * radius && nearest.is_none_or(|(n, _)| d2 < n) {
                nearest = Some((d2, i));
            }
        }
        let Some((_, i)) = nearest else { return };
        let Some(now) = frame.players.get(i) else {
            return;
        };
        let Some(side) = now.side else { return };
        let radius = p.players[i].3;
        let d2 = (ball.0 - now.x).powi(2) + (ball.1 - now.y).powi(2);
        if d2 > radius * radius && now.state != state::DISABLE {
            self.touches.push(Touch {
                side,
                unum: now.unum,
                kind: TouchKind::Release,
            });
        }
    }
}
