//! Smooth motion between the server's 100 ms cycles: positions and directions are blended from
//! the frame before to the frame on screen, except where something jumped rather than moved.

use rcss_formats::{Frame, PlayMode};

/// A move longer than this in one cycle is a teleport (a `move` command, the referee placing
/// players or the ball), not running: players cover at most ~1.2 m and the ball 3 m per cycle.
pub const TELEPORT_METRES: f64 = 3.0;

/// Whether going from `from` to `to` may place players or the ball anywhere: every play-mode
/// change except the restart of play (kick-offs, free kicks, goals, the referee clearing the
/// ball's surroundings, penalties all move things by hand).
pub fn placing_change(from: &Frame, to: &Frame) -> bool {
    from.mode != to.mode && to.mode != PlayMode::PLAY_ON
}

/// `to` as shown `alpha` (0..1) of the way from `from`: everything but positions and directions
/// is `to`'s. A player or ball that teleported, and the whole frame across a placing play-mode
/// change, is shown where it is in `to`.
pub fn shown(from: Option<&Frame>, to: &Frame, alpha: f64) -> Frame {
    let mut out = to.clone();
    let Some(from) = from else { return out };
    if alpha >= 1.0 || placing_change(from, to) {
        return out;
    }
    let a = alpha.max(0.0) as f32;
    let lerp = |p: f32, q: f32| p + (q - p) * a;
    let near = |x0: f32, y0: f32, x1: f32, y1: f32| {
        f64::from(x1 - x0).hypot(f64::from(y1 - y0)) <= TELEPORT_METRES
    };
    if near(from.ball.x, from.ball.y, to.ball.x, to.ball.y) {
        out.ball.x = lerp(from.ball.x, to.ball.x);
        out.ball.y = lerp(from.ball.y, to.ball.y);
    }
    for (p, q) in out.players.iter_mut().zip(&from.players) {
        // Slots are l1..l11, r1..r11 in every frame; a player that was not on the field
        // before appears where he is.
        if q.state == 0 || p.state == 0 || q.unum != p.unum || !near(q.x, q.y, p.x, p.y) {
            continue;
        }
        p.x = lerp(q.x, p.x);
        p.y = lerp(q.y, p.y);
        p.body = lerp_degrees(q.body, p.body, a);
        p.neck = lerp_degrees(q.neck, p.neck, a);
    }
    out
}

/// The angle `a` of the way from `from` to `to`, turning the short way round.
fn lerp_degrees(from: f32, to: f32, a: f32) -> f32 {
    let mut d = (to - from) % 360.0;
    if d > 180.0 {
        d -= 360.0;
    } else if d < -180.0 {
        d += 360.0;
    }
    from + d * a
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::testutil;

    #[test]
    fn halfway_between_two_real_cycles_of_play() {
        let m = testutil::short_v6();
        // Two consecutive cycles in play_on.
        let i = m
            .frames
            .windows(2)
            .position(|w| {
                w[0].mode == PlayMode::PLAY_ON
                    && w[1].mode == PlayMode::PLAY_ON
                    && w[1].time == w[0].time + 1
                    && w[0].ball.x != w[1].ball.x
            })
            .unwrap();
        let (a, b) = (&m.frames[i], &m.frames[i + 1]);
        let half = shown(Some(a), b, 0.5);
        assert!((half.ball.x - (a.ball.x + b.ball.x) / 2.0).abs() < 1e-4);
        for ((p, q), h) in a.players.iter().zip(&b.players).zip(&half.players) {
            assert!((h.x - (p.x + q.x) / 2.0).abs() < 1e-4);
            assert_eq!(h.state, q.state, "discrete values are the new frame's");
        }
        assert_eq!(shown(Some(a), b, 1.0), *b);
        assert_eq!(shown(None, b, 0.3), *b);
    }

    #[test]
    fn no_blending_across_a_kick_off_or_a_teleport() {
        let m = testutil::short_v6();
        // The goal and the kick-off after it: players are placed in their own half.
        let i = m
            .frames
            .windows(2)
            .position(|w| w[0].mode != w[1].mode && w[1].mode.name().starts_with("kick_off"))
            .unwrap();
        let (a, b) = (&m.frames[i], &m.frames[i + 1]);
        assert!(placing_change(a, b));
        assert_eq!(shown(Some(a), b, 0.5), *b);

        // One player moved 10 m by hand: he jumps, the others glide.
        let mut from = b.clone();
        let mut to = b.clone();
        for p in &mut to.players {
            p.x += 0.5;
        }
        to.players[3].x = from.players[3].x + 10.0;
        from.mode = to.mode;
        let half = shown(Some(&from), &to, 0.5);
        assert_eq!(half.players[3].x, to.players[3].x);
        assert!((half.players[4].x - (from.players[4].x + 0.25)).abs() < 1e-4);
    }

    #[test]
    fn directions_turn_the_short_way() {
        assert!((lerp_degrees(170.0, -170.0, 0.5).rem_euclid(360.0) - 180.0).abs() < 1e-4);
        assert!((lerp_degrees(-10.0, 10.0, 0.5)).abs() < 1e-4);
    }
}
