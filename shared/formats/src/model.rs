//! The match model: what the rest of the program uses, whatever wire format or log version it
//! came from. Readers convert into these types once; nothing downstream looks at wire syntax.
//!
//! Per-frame numbers are `f32`: every value rcssserver prints has at most 6 significant digits,
//! which `f32` carries exactly through a parse/print round trip, at half the memory of `f64`
//! (a full game holds ~143,000 player states).

use crate::playmode::PlayMode;
use serde::{Deserialize, Serialize};

/// Field side. The wire uses `l`/`r` in text and 1/-1 in binary.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Side {
    Left,
    Right,
}

impl Side {
    pub fn letter(self) -> char {
        match self {
            Side::Left => 'l',
            Side::Right => 'r',
        }
    }

    pub fn from_letter(b: u8) -> Option<Side> {
        match b {
            b'l' => Some(Side::Left),
            b'r' => Some(Side::Right),
            _ => None,
        }
    }

    pub fn index(self) -> usize {
        match self {
            Side::Left => 0,
            Side::Right => 1,
        }
    }

    /// The other team's side.
    pub fn other(self) -> Side {
        match self {
            Side::Left => Side::Right,
            Side::Right => Side::Left,
        }
    }
}

/// Player state bits (rcssserver 19 types.h), as the `STATE` of a show carries them.
///
/// Binary sources (v1-v3 logs, v1/v2 monitors) carry the state as 16 bits: the bits from
/// [`state::POST_COLLIDE`] up, cards included, never reach them.
pub mod state {
    /// Not on the field: not connected, or discarded by the referee or an operator.
    pub const DISABLE: u32 = 0;
    /// On the field (every connected player).
    pub const STAND: u32 = 0x1;
    /// Kicked the ball in this cycle.
    pub const KICK: u32 = 0x2;
    /// Tried to kick but the ball was not kickable, or the kick failed at random.
    pub const KICK_FAULT: u32 = 0x4;
    /// The team's goalkeeper.
    pub const GOALIE: u32 = 0x8;
    /// Caught the ball in this cycle (goalie).
    pub const CATCH: u32 = 0x10;
    /// Tried to catch and failed.
    pub const CATCH_FAULT: u32 = 0x20;
    /// Set together with [`BALL_COLLIDE`] when the ball ran into the player (rcssserver 19
    /// sets it nowhere else).
    pub const BALL_TO_PLAYER: u32 = 0x40;
    /// Defined by the server for a player running into the ball; rcssserver 19 never sets it.
    pub const PLAYER_TO_BALL: u32 = 0x80;
    /// Set while the player is discarded.
    pub const DISCARD: u32 = 0x100;
    /// Defined by the server for 3D viewers and commentators; rcssserver 19 never sets it.
    pub const LOST: u32 = 0x200;
    /// Collided with the ball in this cycle (see [`BALL_TO_PLAYER`]).
    pub const BALL_COLLIDE: u32 = 0x400;
    /// Collided with another player in this cycle.
    pub const PLAYER_COLLIDE: u32 = 0x800;
    /// Tackled in this cycle (and the cycles a tackle lasts).
    pub const TACKLE: u32 = 0x1000;
    /// A tackle that missed.
    pub const TACKLE_FAULT: u32 = 0x2000;
    /// Made the back pass the referee called (set on the passer).
    pub const BACK_PASS: u32 = 0x4000;
    /// Touched the ball twice at a free kick (set on the kicker).
    pub const FREE_KICK_FAULT: u32 = 0x8000;
    /// Collided with a goal post.
    pub const POST_COLLIDE: u32 = 0x10000;
    /// Was fouled: set on the player who had the ball when an opponent's tackle was called a
    /// foul (the tackler shows [`TACKLE`]).
    pub const FOUL_CHARGED: u32 = 0x20000;
    /// Has a yellow card (kept for the rest of the match).
    pub const YELLOW_CARD: u32 = 0x40000;
    /// Has a red card (a second yellow or a red): the player is off the field.
    pub const RED_CARD: u32 = 0x80000;
    /// Counted in an illegal defence (too many defenders near their own goal).
    pub const ILLEGAL_DEFENSE: u32 = 0x100000;

    /// Every named bit with its rcssserver name, lowest first: for panels and tooltips.
    pub const NAMES: [(u32, &str); 21] = [
        (STAND, "stand"),
        (KICK, "kick"),
        (KICK_FAULT, "kick_fault"),
        (GOALIE, "goalie"),
        (CATCH, "catch"),
        (CATCH_FAULT, "catch_fault"),
        (BALL_TO_PLAYER, "ball_to_player"),
        (PLAYER_TO_BALL, "player_to_ball"),
        (DISCARD, "discard"),
        (LOST, "lost"),
        (BALL_COLLIDE, "ball_collide"),
        (PLAYER_COLLIDE, "player_collide"),
        (TACKLE, "tackle"),
        (TACKLE_FAULT, "tackle_fault"),
        (BACK_PASS, "back_pass"),
        (FREE_KICK_FAULT, "free_kick_fault"),
        (POST_COLLIDE, "post_collide"),
        (FOUL_CHARGED, "foul_charged"),
        (YELLOW_CARD, "yellow_card"),
        (RED_CARD, "red_card"),
        (ILLEGAL_DEFENSE, "illegal_defense"),
    ];

    /// The names of the bits set in `bits`, lowest first; unknown bits are left out.
    pub fn names(bits: u32) -> impl Iterator<Item = &'static str> {
        NAMES
            .iter()
            .filter(move |(b, _)| bits & b != 0)
            .map(|(_, n)| *n)
    }
}

/// One team's name and score at some moment.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Team {
    /// `None` while no team has connected (the wire says `null` or an empty name).
    pub name: Option<String>,
    pub score: u32,
    /// Penalty shoot-out kicks scored and missed, once the team has taken one.
    pub penalty: Option<PenaltyTally>,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PenaltyTally {
    pub scored: u32,
    pub missed: u32,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Ball {
    pub x: f32,
    pub y: f32,
    pub vx: f32,
    pub vy: f32,
    /// Height above the ground, in metres. Only the 2.5D fork of rcssserver gives one (its
    /// monitor protocol 6, its ULG7 logs and a `z` in JSON shows); everywhere else the ball
    /// rolls on the ground and this is 0.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub z: f32,
}

fn is_zero(z: &f32) -> bool {
    *z == 0.0
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum ViewQuality {
    #[default]
    High,
    Low,
}

/// Stamina model values; `capacity` only from formats that carry it (text v4+, JSON).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Stamina {
    pub stamina: f32,
    pub effort: f32,
    pub recovery: f32,
    pub capacity: Option<f32>,
}

/// Command counters in the text order: kick dash turn catch move turn_neck change_view say
/// tackle pointto attentionto change_focus. `len` says how many the source carried (7 in
/// binary, 11 in text v3/v4 monitor shows, 12 in v5 and JSON logs).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Counts {
    pub values: [u32; 12],
    pub len: u8,
}

impl Counts {
    pub const KICK: usize = 0;
    pub const DASH: usize = 1;
    pub const TURN: usize = 2;
    pub const CATCH: usize = 3;
    pub const MOVE: usize = 4;
    pub const TURN_NECK: usize = 5;
    pub const CHANGE_VIEW: usize = 6;
    pub const SAY: usize = 7;
    pub const TACKLE: usize = 8;
    pub const POINTTO: usize = 9;
    pub const ATTENTIONTO: usize = 10;
    pub const CHANGE_FOCUS: usize = 11;
    pub const NAMES: [&'static str; 12] = [
        "kick",
        "dash",
        "turn",
        "catch",
        "move",
        "turn_neck",
        "change_view",
        "say",
        "tackle",
        "pointto",
        "attentionto",
        "change_focus",
    ];
}

/// One player in one frame. Fields a format does not carry are `None` (v1 has only
/// position and body angle; text logs before v6 have no focus point, and so on).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Player {
    pub side: Option<Side>,
    pub unum: u8,
    pub player_type: i16,
    /// State bits, see [`state`]. 0 = not on the field (not connected or discarded).
    pub state: u32,
    pub x: f32,
    pub y: f32,
    pub vx: f32,
    pub vy: f32,
    /// Body direction in degrees, field coordinates (y down, as on the wire).
    pub body: f32,
    /// Neck direction relative to the body, degrees.
    pub neck: f32,
    /// Absolute point the player points to, only while pointing.
    pub point: Option<(f32, f32)>,
    pub view: Option<(ViewQuality, f32)>,
    /// Focus point `(distance, direction)` (text v5 monitor shows / ULG6, live JSON).
    pub focus: Option<(f32, f32)>,
    pub stamina: Option<Stamina>,
    pub attention: Option<(Side, u8)>,
    pub counts: Option<Counts>,
}

impl Player {
    pub fn is_enabled(&self) -> bool {
        self.state != 0
    }
    pub fn is_goalie(&self) -> bool {
        self.state & state::GOALIE != 0
    }
}

/// One simulation step as a monitor draws it.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Frame {
    pub time: u32,
    /// Stoppage time, where the format gives it (JSON live shows, binary v1-v3 never).
    pub stime: Option<u32>,
    pub mode: PlayMode,
    pub teams: [Team; 2],
    pub ball: Ball,
    /// Always 22 entries in l1..l11, r1..r11 order.
    pub players: Vec<Player>,
}

/// A `(msg T BOARD "…")` record. The text is kept as bytes: real logs hold bytes that are not
/// UTF-8 after the message (server bug), and those must survive a round trip.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Message {
    pub time: u32,
    pub board: i32,
    pub text: Vec<u8>,
}

impl Message {
    pub fn text_lossy(&self) -> String {
        String::from_utf8_lossy(&self.text).into_owned()
    }
}

/// One 8×8 tile of a team logo (`team_graphic_l`), XPM lines.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TeamGraphic {
    pub side: Side,
    pub x: u32,
    pub y: u32,
    pub xpm: Vec<String>,
}

/// What protocol 1 (`dispinfo_t`, v1 monitors and v1 logs) and v2 logs can carry besides
/// shows and msgs: a `drawinfo_t` (a point, circle or line in a named colour, or an order to
/// clear what was drawn), or `BLANK_MODE`, an order to show a blank screen (logplayers sent
/// it). rcssserver never sends these; other programs that wrote those formats did.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Drawing {
    /// The cycle of the show before it: binary records carry no time.
    pub time: u32,
    pub shape: Shape,
}

/// One `drawinfo_t` (or `BLANK_MODE`). Coordinates and radii are in metres, field coordinates,
/// from the struct's `int16` values divided by `SHOWINFO_SCALE` (16), the scale of the shows
/// they travel with (the manual gives the struct but no unit); they are multiples of 1/16.
/// `color` is the struct's `char[64]` up to its first NUL: a colour name (`"red"`, `"#ff0000"`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Shape {
    /// `DrawClear`: remove what was drawn.
    Clear,
    Point {
        x: f32,
        y: f32,
        color: String,
    },
    Circle {
        x: f32,
        y: f32,
        r: f32,
        color: String,
    },
    Line {
        x1: f32,
        y1: f32,
        x2: f32,
        y2: f32,
        color: String,
    },
    /// `BLANK_MODE`: show a blank screen.
    Blank,
}

impl Shape {
    /// The shape's numbers in the struct's order (`x y`, `x y r` or `x1 y1 x2 y2`; up to four,
    /// the rest zero) with how many there are, and its colour (empty for `Clear`, `Blank`).
    pub fn numbers_and_colour(&self) -> ([f32; 4], usize, &str) {
        match self {
            Shape::Clear | Shape::Blank => ([0.0; 4], 0, ""),
            Shape::Point { x, y, color } => ([*x, *y, 0.0, 0.0], 2, color),
            Shape::Circle { x, y, r, color } => ([*x, *y, *r, 0.0], 3, color),
            Shape::Line {
                x1,
                y1,
                x2,
                y2,
                color,
            } => ([*x1, *y1, *x2, *y2], 4, color),
        }
    }
}

/// A parameter value as the server printed it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum ParamValue {
    Int(i64),
    Float(f64),
    Bool(bool),
    Text(String),
}

impl ParamValue {
    pub fn as_f64(&self) -> Option<f64> {
        match self {
            ParamValue::Int(i) => Some(*i as f64),
            ParamValue::Float(f) => Some(*f),
            ParamValue::Bool(b) => Some(f64::from(u8::from(*b))),
            ParamValue::Text(_) => None,
        }
    }
}

/// `server_param`, `player_param` or one `player_type`: name/value pairs in wire order, so a
/// writer can reproduce them exactly and a reader can look any of them up.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Params {
    pub entries: Vec<(String, ParamValue)>,
}

impl Params {
    pub fn get(&self, name: &str) -> Option<&ParamValue> {
        self.entries.iter().find(|(n, _)| n == name).map(|(_, v)| v)
    }
    pub fn get_f64(&self, name: &str) -> Option<f64> {
        self.get(name).and_then(ParamValue::as_f64)
    }
}

/// One record of a log or one live datagram, after decoding.
#[derive(Clone, Debug, PartialEq)]
pub enum Record {
    ServerParam(Params),
    PlayerParam(Params),
    PlayerType(Params),
    /// A play-mode change (text/JSON logs, v3 PM records).
    PlayMode {
        time: u32,
        mode: PlayMode,
    },
    /// A team/score change (text/JSON logs, v3 TEAM records). `time` is absent in v3.
    Team {
        time: Option<u32>,
        teams: [Team; 2],
    },
    /// A show. For log formats whose shows carry no play mode or score, the decoder fills them
    /// in from the latest `PlayMode`/`Team` record, so every frame is complete on its own.
    Show(Frame),
    Msg(Message),
    /// A team-graphic tile. Text logs carry these inside a msg; the msg is reported too.
    TeamGraphic(TeamGraphic),
    /// A drawing or a blank screen (protocol 1 and v1/v2 logs only; see [`Drawing`]).
    Draw(Drawing),
}

impl Record {
    /// The records cut after each show: one piece per frame, each ending with its show and
    /// holding what came before it (messages, play modes, teams); anything after the last
    /// show is a piece of its own. How a replay steps through a log a frame at a time.
    pub fn split_at_shows(records: Vec<Record>) -> Vec<Vec<Record>> {
        let mut out = Vec::new();
        let mut part = Vec::new();
        for r in records {
            let show = matches!(r, Record::Show(_));
            part.push(r);
            if show {
                out.push(std::mem::take(&mut part));
            }
        }
        if !part.is_empty() {
            out.push(part);
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::state;

    #[test]
    fn state_bits_are_the_server_table() {
        // protocol-observed.md §9 (types.h): one bit each, in this order.
        let bits: Vec<u32> = state::NAMES.iter().map(|(b, _)| *b).collect();
        let expected: Vec<u32> = (0..21).map(|i| 1 << i).collect();
        assert_eq!(bits, expected);
        assert_eq!(state::BACK_PASS, 0x4000);
        assert_eq!(state::ILLEGAL_DEFENSE, 0x100000);
        let names: Vec<&str> = state::names(0x41441).collect();
        assert_eq!(
            names,
            [
                "stand",
                "ball_to_player",
                "ball_collide",
                "tackle",
                "yellow_card"
            ]
        );
    }
}
