//! What stands on the pitch in a frame: a figure per player on the field, the ball, and the
//! moments a viewer should see (a kick, a tackle, a card).

use rcss_formats::model::state;
use rcss_formats::{Frame, Side};

/// One player as the 3D view draws him.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Figure {
    /// Field position (metres; `y` is the world's `z`).
    pub x: f64,
    pub y: f64,
    /// Body direction and the neck's turn from it, in degrees as the server gives them (field
    /// coordinates, clockwise on the 2D field).
    pub body: f64,
    pub neck: f64,
    pub side: Side,
    pub unum: u8,
    /// The shirt, as sRGB.
    pub kit: [u8; 3],
    pub goalie: bool,
    /// Kicked the ball in this cycle (a flash at his feet).
    pub kick: bool,
    /// Tackled in this cycle (he lunges).
    pub tackle: bool,
    pub card: Option<Card>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Card {
    Yellow,
    Red,
}

/// The ball: on the ground unless a log gives it a height (no rcssserver 19 log does).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Ball3 {
    pub x: f64,
    pub y: f64,
    pub height: f64,
}

/// The kits: left, left goalie, right, right goalie (the page's colours, which the broadcast
/// view already keeps apart from each other).
pub type Kits = [[u8; 3]; 4];

/// The figures of `frame` (the frame on screen, already interpolated by the page).
pub fn figures(frame: &Frame, kits: &Kits) -> Vec<Figure> {
    frame
        .players
        .iter()
        .filter(|p| p.state != state::DISABLE)
        .filter_map(|p| {
            let side = p.side?;
            let goalie = p.state & state::GOALIE != 0;
            let kit = match (side, goalie) {
                (Side::Left, false) => kits[0],
                (Side::Left, true) => kits[1],
                (Side::Right, false) => kits[2],
                (Side::Right, true) => kits[3],
            };
            let card = if p.state & state::RED_CARD != 0 {
                Some(Card::Red)
            } else if p.state & state::YELLOW_CARD != 0 {
                Some(Card::Yellow)
            } else {
                None
            };
            Some(Figure {
                x: f64::from(p.x),
                y: f64::from(p.y),
                body: f64::from(p.body),
                neck: f64::from(p.neck),
                side,
                unum: p.unum,
                kit,
                goalie,
                kick: p.state & state::KICK != 0,
                tackle: p.state & state::TACKLE != 0,
                card,
            })
        })
        .collect()
}

/// The ball of `frame`, on the ground.
pub fn ball(frame: &Frame) -> Ball3 {
    Ball3 {
        x: f64::from(frame.ball.x),
        y: f64::from(frame.ball.y),
        height: 0.0,
    }
}

/// The page's default kits, for the tests.
#[cfg(test)]
pub(crate) const TEST_KITS: Kits = [
    [245, 217, 10],
    [124, 223, 90],
    [58, 160, 255],
    [208, 112, 255],
];

#[cfg(test)]
mod tests {
    use super::*;
    use rcss_formats::log::parse_log;

    const KITS: Kits = TEST_KITS;

    #[test]
    fn a_real_kick_off_has_eleven_figures_a_side_each_goalie_in_his_own_kit() {
        let m = parse_log(&pitchside_fixtures::read(pitchside_fixtures::SHORT_V6));
        let frame = m.frames.iter().find(|f| f.time == 1).expect("cycle 1");
        let figs = figures(frame, &KITS);
        assert_eq!(figs.len(), 22);
        for side in [Side::Left, Side::Right] {
            let team: Vec<_> = figs.iter().filter(|f| f.side == side).collect();
            assert_eq!(team.len(), 11);
            let goalies: Vec<_> = team.iter().filter(|f| f.goalie).collect();
            assert_eq!(goalies.len(), 1, "{side:?}");
            let (kit, keeper) = match side {
                Side::Left => (KITS[0], KITS[1]),
                Side::Right => (KITS[2], KITS[3]),
            };
            assert_eq!(goalies[0].kit, keeper);
            assert!(team.iter().filter(|f| !f.goalie).all(|f| f.kit == kit));
            // Each team stands in its own half at kick-off.
            let sign = if side == Side::Left { -1.0 } else { 1.0 };
            assert!(team.iter().all(|f| f.x * sign >= -0.5), "{side:?}");
        }
    }

    #[test]
    fn kicks_in_a_real_game_are_marked_on_their_kickers() {
        let m = parse_log(&pitchside_fixtures::read(pitchside_fixtures::SHORT_V6));
        let kicks: usize = m
            .frames
            .iter()
            .map(|f| figures(f, &KITS).iter().filter(|g| g.kick).count())
            .sum();
        let bits: usize = m
            .frames
            .iter()
            .flat_map(|f| &f.players)
            .filter(|p| p.state != 0 && p.state & state::KICK != 0)
            .count();
        assert!(kicks > 10, "{kicks}");
        assert_eq!(kicks, bits);
    }
}
