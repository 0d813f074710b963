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
        // Only the 2.5D fork gives a height; every other source leaves the ball on the ground.
        height: f64::from(frame.ball.z).max(0.0),
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
    fn the_ball_is_on_the_ground_unless_its_source_gives_a_height() {
        let m = parse_log(&pitchside_fixtures::read(pitchside_fixtures::SHORT_V6));
        assert!(m.frames.iter().all(|f| ball(f).height == 0.0));
        // A ULG7 line of the 2.5D fork: a real show with a height after the ball's velocity.
        let written = rcss_formats::write::write_log(
            rcss_formats::LogVersion::V6,
            &m.frames
                .iter()
                .cloned()
                .map(rcss_formats::Record::Show)
                .collect::<Vec<_>>(),
        );
        let text = String::from_utf8(written).expect("text");
        let line = text
            .lines()
            .find(|l| l.starts_with("(show 50 "))
            .expect("cycle 50");
        let at = line.find(") ((l").expect("the ball's end");
        let forked = format!("ULG7\n{} 1.75{}\n", &line[..at], &line[at..]);
        let lifted = parse_log(forked.as_bytes());
        let b = ball(&lifted.frames[0]);
        assert_eq!(b.height, 1.75);
        let f = &m.frames.iter().find(|f| f.time == 50).expect("cycle 50");
        assert_eq!((b.x, b.y), (f64::from(f.ball.x), f64::from(f.ball.y)));
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
