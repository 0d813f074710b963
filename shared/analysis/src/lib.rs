//! What pitchside computes from one match, frame by frame: who touched the ball, what
//! happened (goals, fouls, cards, set pieces and the referee's decisions in words), the
//! actions (passes, dribbles, shots), statistics at any moment, the tracking tables a
//! researcher exports, the moments and captions of a broadcast, and team colours every viewer
//! tells apart.
//!
//! The match comes in as [`rcss_formats`] frames; everything here is a pure function of them.
//! It must not do IO, keep a clock or know who shows the result (the relay, the page and the
//! inspector all call the same functions, which is why they agree).
//!
//! The layers inside, each using only the ones above it:
//! - [`touch`]: who touched the ball in each frame (kick, tackle, catch, release).
//! - [`events`]: match events and the referee's decisions in words.
//! - [`actions`]: passes, dribbles, shots, clearances, from touches and events.
//! - [`stats`]: possession, passes, shots, per-team figures at any moment, ball heat map.
//! - [`export`]: the tracking table (as librcsc's `rcg2csv` writes it) and the events table.
//! - [`broadcast`]: what a stream shows besides the field: the match clock, goals and cards as
//!   moments, captions in words, highlights.
//! - [`colour`]: telling colours apart for every viewer, and the team kits of a match.

pub mod actions;
pub mod broadcast;
pub mod colour;
pub mod events;
pub mod export;
pub mod stats;
pub mod touch;

/// Frames made up for the unit tests, where a real game has no example of the case.
#[cfg(test)]
mod made_up {
    use rcss_formats::model::{state, Player, Side};

    /// 22 standing players in a row, left team first: player `i` at `(x0 + i·dx, y)`.
    pub fn standing_row(x0: f32, dx: f32, y: f32) -> Vec<Player> {
        (0..22)
            .map(|i| Player {
                side: Some(if i < 11 { Side::Left } else { Side::Right }),
                unum: (i % 11 + 1) as u8,
                state: state::STAND,
                x: x0 + i as f32 * dx,
                y,
                ..Player::default()
            })
            .collect()
    }
}
