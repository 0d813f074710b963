//! Colours, and how each player state bit is marked on the field.

/// A colour, straight RGBA.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rgba(pub [u8; 4]);

impl Rgba {
    pub const fn rgb(r: u8, g: u8, b: u8) -> Rgba {
        Rgba([r, g, b, 255])
    }

    /// `#rgb`, `#rrggbb` or `#rrggbbaa`, as colour pickers and the settings JSON write them.
    pub fn parse(css: &str) -> Option<Rgba> {
        let hex = css.trim().strip_prefix('#')?;
        let digit = |i: usize| u8::from_str_radix(hex.get(i..i + 1)?, 16).ok();
        let byte = |i: usize| u8::from_str_radix(hex.get(i..i + 2)?, 16).ok();
        match hex.len() {
            3 => Some(Rgba([digit(0)? * 17, digit(1)? * 17, digit(2)? * 17, 255])),
            6 => Some(Rgba([byte(0)?, byte(2)?, byte(4)?, 255])),
            8 => Some(Rgba([byte(0)?, byte(2)?, byte(4)?, byte(6)?])),
            _ => None,
        }
    }

    /// The same colour with opacity `a` (0..1).
    pub fn alpha(self, a: f64) -> Rgba {
        let [r, g, b, _] = self.0;
        Rgba([r, g, b, (a.clamp(0.0, 1.0) * 255.0).round() as u8])
    }

    /// As CSS: `#rrggbbaa`.
    pub fn css(self) -> String {
        let [r, g, b, a] = self.0;
        format!("#{r:02x}{g:02x}{b:02x}{a:02x}")
    }

    /// Black or white, whichever reads better on this colour.
    pub fn contrast(self) -> Rgba {
        let [r, g, b, _] = self.0;
        let luma = 0.299 * f64::from(r) + 0.587 * f64::from(g) + 0.114 * f64::from(b);
        if luma > 140.0 {
            INK
        } else {
            WHITE
        }
    }
}

/// The width of thin lines (trails, offside lines, the ball's outline and path, the selected
/// player's areas, arrows and whiskers), in canvas pixels. A line no wider than a device pixel is drawn by a software canvas as a
/// hairline, several times faster than a wider stroke, which mattered on machines without a
/// GPU: the field's frame must fit in a few milliseconds there too.
pub const THIN: f64 = 1.0;
pub const WHITE: Rgba = Rgba::rgb(255, 255, 255);
/// Outlines and text halos: near-black, so marks stand out on grass and on each other.
pub const INK: Rgba = Rgba::rgb(17, 17, 17);
pub const GRASS: Rgba = Rgba::rgb(47, 125, 50);
pub const GRASS_DARK: Rgba = Rgba::rgb(42, 112, 48);
pub const LINE: Rgba = Rgba([255, 255, 255, 217]);
pub const YELLOW_CARD: Rgba = Rgba::rgb(255, 224, 0);
pub const RED_CARD: Rgba = Rgba::rgb(224, 32, 32);
pub const STAMINA_OK: Rgba = Rgba::rgb(80, 220, 90);
pub const STAMINA_LOW: Rgba = Rgba::rgb(255, 200, 40);
pub const STAMINA_EXHAUSTED: Rgba = Rgba::rgb(255, 70, 50);
pub const CAPACITY: Rgba = Rgba::rgb(90, 170, 255);
pub const SELECTION: Rgba = Rgba::rgb(255, 255, 255);
pub const BALL_PATH: Rgba = Rgba([255, 255, 255, 190]);

use crate::settings::Colours;
pub use rcss_formats::state as bits;
use rcss_formats::{Player, Side};

/// How a ring is stroked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dash {
    Solid,
    Dashed,
    Dotted,
}

/// One state bit that gets a ring round the player: the rcssserver name, the colour and dash
/// of the ring, and what the legend says. Related bits share a colour (a fault is the dashed
/// ring of its action), so the legend reads as a few families.
pub struct Highlight {
    pub bit: u32,
    pub name: &'static str,
    pub colour: Rgba,
    pub dash: Dash,
    pub meaning: &'static str,
}

const KICK_COLOUR: Rgba = Rgba::rgb(255, 255, 255);
const TACKLE_COLOUR: Rgba = Rgba::rgb(255, 70, 220);
const CATCH_COLOUR: Rgba = Rgba::rgb(60, 230, 255);
const COLLIDE_COLOUR: Rgba = Rgba::rgb(255, 60, 60);
const FOUL_COLOUR: Rgba = Rgba::rgb(255, 160, 0);
const DEFENCE_COLOUR: Rgba = Rgba::rgb(180, 120, 255);

/// Every state bit that matters to someone debugging an agent, innermost ring first.
pub const HIGHLIGHTS: &[Highlight] = &[
    Highlight {
        bit: bits::KICK,
        name: "kick",
        colour: KICK_COLOUR,
        dash: Dash::Solid,
        meaning: "kicked the ball",
    },
    Highlight {
        bit: bits::KICK_FAULT,
        name: "kick_fault",
        colour: KICK_COLOUR,
        dash: Dash::Dashed,
        meaning: "kick failed",
    },
    Highlight {
        bit: bits::TACKLE,
        name: "tackle",
        colour: TACKLE_COLOUR,
        dash: Dash::Solid,
        meaning: "tackled",
    },
    Highlight {
        bit: bits::TACKLE_FAULT,
        name: "tackle_fault",
        colour: TACKLE_COLOUR,
        dash: Dash::Dashed,
        meaning: "tackle missed",
    },
    Highlight {
        bit: bits::CATCH,
        name: "catch",
        colour: CATCH_COLOUR,
        dash: Dash::Solid,
        meaning: "caught the ball",
    },
    Highlight {
        bit: bits::CATCH_FAULT,
        name: "catch_fault",
        colour: CATCH_COLOUR,
        dash: Dash::Dashed,
        meaning: "catch failed",
    },
    Highlight {
        bit: bits::BALL_COLLIDE,
        name: "ball_collide",
        colour: COLLIDE_COLOUR,
        dash: Dash::Solid,
        meaning: "collided with the ball",
    },
    Highlight {
        bit: bits::PLAYER_COLLIDE,
        name: "player_collide",
        colour: COLLIDE_COLOUR,
        dash: Dash::Dashed,
        meaning: "collided with a player",
    },
    Highlight {
        bit: bits::POST_COLLIDE,
        name: "post_collide",
        colour: COLLIDE_COLOUR,
        dash: Dash::Dotted,
        meaning: "hit a goal post",
    },
    Highlight {
        bit: bits::FOUL_CHARGED,
        name: "foul_charged",
        colour: FOUL_COLOUR,
        dash: Dash::Solid,
        meaning: "fouled (charged)",
    },
    Highlight {
        bit: bits::BACK_PASS,
        name: "back_pass",
        colour: FOUL_COLOUR,
        dash: Dash::Dashed,
        meaning: "back pass called",
    },
    Highlight {
        bit: bits::FREE_KICK_FAULT,
        name: "free_kick_fault",
        colour: FOUL_COLOUR,
        dash: Dash::Dotted,
        meaning: "free-kick fault",
    },
    Highlight {
        bit: bits::ILLEGAL_DEFENSE,
        name: "illegal_defense",
        colour: DEFENCE_COLOUR,
        dash: Dash::Solid,
        meaning: "illegal defence",
    },
];

/// Whether a player is drawn: on the field, or sent off (shown dimmed where he stands, with
/// his red card). Absent (never connected, disconnected) and discarded players are not.
pub fn drawn(p: &Player) -> bool {
    p.side.is_some() && p.state != 0 && p.state & bits::DISCARD == 0
}

/// A team's kit colour from the settings (a goalie's own), or the default where the
/// setting is not a colour.
pub fn team_colour(colours: &Colours, side: Side, goalie: bool) -> Rgba {
    let (css, fallback) = match (side, goalie) {
        (Side::Left, false) => (&colours.left, Rgba::rgb(0xf5, 0xd9, 0x0a)),
        (Side::Left, true) => (&colours.left_goalie, Rgba::rgb(0x7c, 0xdf, 0x5a)),
        (Side::Right, false) => (&colours.right, Rgba::rgb(0x3a, 0xa0, 0xff)),
        (Side::Right, true) => (&colours.right_goalie, Rgba::rgb(0xd0, 0x70, 0xff)),
    };
    Rgba::parse(css).unwrap_or(fallback)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn css_colours_parse_and_print() {
        assert_eq!(Rgba::parse("#f5d90a"), Some(Rgba::rgb(0xf5, 0xd9, 0x0a)));
        assert_eq!(Rgba::parse("#fff"), Some(WHITE));
        assert_eq!(Rgba::parse("red"), None);
        assert_eq!(Rgba::parse("#12345"), None);
        assert_eq!(WHITE.alpha(0.5).css(), "#ffffff80");
        assert_eq!(Rgba::rgb(245, 217, 10).contrast(), INK);
        assert_eq!(Rgba::rgb(20, 40, 160).contrast(), WHITE);
    }

    #[test]
    fn every_highlight_is_one_distinct_bit() {
        for (i, h) in HIGHLIGHTS.iter().enumerate() {
            assert_eq!(h.bit.count_ones(), 1, "{}", h.name);
            for other in &HIGHLIGHTS[i + 1..] {
                assert_ne!(h.bit, other.bit, "{}", h.name);
                assert!(
                    (h.colour, h.dash) != (other.colour, other.dash),
                    "{} and {} look alike",
                    h.name,
                    other.name
                );
            }
        }
    }
}
