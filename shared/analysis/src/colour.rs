//! Telling two colours apart, for every viewer: the check behind the page's colour-blind
//! palette and the relay's choice of team colours for a match ([`choose_kits`]).
//!
//! Colour vision deficiency is simulated with the matrices of Machado, Oliveira and Fernandes
//! (2009) at full severity, applied in linear RGB; distances are CIE76 ΔE in CIELAB (D65). A
//! ΔE over about 20 reads as clearly different colours at a glance.

use serde::{Deserialize, Serialize};

/// An sRGB colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rgb(pub [u8; 3]);

impl Rgb {
    /// `#rgb` or `#rrggbb` (a colours file, a colour picker).
    pub fn parse(css: &str) -> Option<Rgb> {
        let hex = css.trim().strip_prefix('#')?;
        let digit = |i: usize| u8::from_str_radix(hex.get(i..i + 1)?, 16).ok();
        let byte = |i: usize| u8::from_str_radix(hex.get(i..i + 2)?, 16).ok();
        match hex.len() {
            3 => Some(Rgb([digit(0)? * 17, digit(1)? * 17, digit(2)? * 17])),
            6 => Some(Rgb([byte(0)?, byte(2)?, byte(4)?])),
            _ => None,
        }
    }

    /// As CSS: `#rrggbb`.
    pub fn css(self) -> String {
        let [r, g, b] = self.0;
        format!("#{r:02x}{g:02x}{b:02x}")
    }

    /// Mixed with `other`, `t` of the way (0..1).
    pub fn mix(self, other: Rgb, t: f64) -> Rgb {
        let t = t.clamp(0.0, 1.0);
        let m = |a: u8, b: u8| (f64::from(a) * (1.0 - t) + f64::from(b) * t).round() as u8;
        Rgb([
            m(self.0[0], other.0[0]),
            m(self.0[1], other.0[1]),
            m(self.0[2], other.0[2]),
        ])
    }
}

/// How a viewer sees colour: a matrix on linear RGB.
pub type Vision = [[f64; 3]; 3];

pub const NORMAL: Vision = [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]];
pub const PROTANOPIA: Vision = [
    [0.152286, 1.052583, -0.204868],
    [0.114503, 0.786281, 0.099216],
    [-0.003882, -0.048116, 1.051998],
];
pub const DEUTERANOPIA: Vision = [
    [0.367322, 0.860646, -0.227968],
    [0.280085, 0.672501, 0.047413],
    [-0.011820, 0.042940, 0.968881],
];
pub const TRITANOPIA: Vision = [
    [1.255528, -0.076749, -0.178779],
    [-0.078411, 0.930809, 0.147602],
    [0.004733, 0.691367, 0.303900],
];
/// Every viewer the checks consider, by name.
pub const VISIONS: [(&str, &Vision); 4] = [
    ("normal vision", &NORMAL),
    ("protanopia", &PROTANOPIA),
    ("deuteranopia", &DEUTERANOPIA),
    ("tritanopia", &TRITANOPIA),
];

/// The pitch's grass, which every team colour must stand out from.
pub const GRASS: Rgb = Rgb([47, 125, 50]);

/// Two team colours closer than this for some viewer are too close to tell apart.
pub const TEAMS_APART: f64 = 25.0;
/// A team colour closer than this to the grass, for some viewer, is lost on the pitch.
pub const GRASS_APART: f64 = 15.0;

fn linear(c: u8) -> f64 {
    let c = f64::from(c) / 255.0;
    if c <= 0.04045 {
        c / 12.92
    } else {
        ((c + 0.055) / 1.055).powf(2.4)
    }
}

/// CIELAB (D65) of `c` as a viewer with `vision` sees it.
pub fn lab(c: Rgb, vision: &Vision) -> [f64; 3] {
    let rgb = [linear(c.0[0]), linear(c.0[1]), linear(c.0[2])];
    let seen = vision.map(|row| (0..3).map(|k| row[k] * rgb[k]).sum::<f64>().clamp(0.0, 1.0));
    let [r, g, b] = seen;
    let x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047;
    let y = 0.2126 * r + 0.7152 * g + 0.0722 * b;
    let z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883;
    let f = |t: f64| {
        if t > 0.008856 {
            t.cbrt()
        } else {
            7.787 * t + 16.0 / 116.0
        }
    };
    let (fx, fy, fz) = (f(x), f(y), f(z));
    [116.0 * fy - 16.0, 500.0 * (fx - fy), 200.0 * (fy - fz)]
}

/// CIE76 ΔE between `a` and `b` as a viewer with `vision` sees them.
pub fn delta_e(a: Rgb, b: Rgb, vision: &Vision) -> f64 {
    let (p, q) = (lab(a, vision), lab(b, vision));
    ((p[0] - q[0]).powi(2) + (p[1] - q[1]).powi(2) + (p[2] - q[2]).powi(2)).sqrt()
}

/// The smallest ΔE between `a` and `b` over every viewer in [`VISIONS`], and who sees it.
pub fn closest(a: Rgb, b: Rgb) -> (f64, &'static str) {
    VISIONS
        .iter()
        .map(|(name, v)| (delta_e(a, b, v), *name))
        .fold((f64::MAX, ""), |m, x| if x.0 < m.0 { x } else { m })
}

/// A team's shirts: outfield players and goalie.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Kit {
    pub shirt: Rgb,
    pub goalie: Rgb,
}

impl Kit {
    /// A kit from its shirt alone: the goalie in the same colour, lighter or darker so he
    /// stands out from his team-mates.
    pub fn of_shirt(shirt: Rgb) -> Kit {
        let light = lab(shirt, &NORMAL)[0] > 55.0;
        let toward = if light {
            Rgb([0, 0, 0])
        } else {
            Rgb([255, 255, 255])
        };
        Kit {
            shirt,
            goalie: shirt.mix(toward, 0.45),
        }
    }
}

/// A team's two kits, as a colours file gives them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TeamKits {
    pub home: Kit,
    pub away: Kit,
}

/// Which kit each team wears in a match, and why (for the page and the logs).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct KitChoice {
    /// `#rrggbb` of the left team's shirt and goalie, and the right team's.
    pub left: String,
    pub left_goalie: String,
    pub right: String,
    pub right_goalie: String,
    /// `home` or `away`, per side.
    pub worn: [String; 2],
    /// Why, in words: "both in home colours" or "HELIOS2024 in away colours: home colours too
    /// close under deuteranopia (ΔE 12)".
    pub reason: String,
}

/// True when two shirts are far enough apart for every viewer.
pub fn apart(a: Rgb, b: Rgb) -> bool {
    closest(a, b).0 >= TEAMS_APART
}

/// The kits for a match of `left` against `right` (names for the reason): both home kits
/// unless the shirts are too close for some viewer ([`TEAMS_APART`]), then the right team's
/// away kit (the second-named team changes, as in football); if that is too close as well, the
/// left team's away kit against the right's home; failing that, whichever pair is furthest
/// apart.
pub fn choose_kits(names: [&str; 2], left: &TeamKits, right: &TeamKits) -> KitChoice {
    let home = closest(left.home.shirt, right.home.shirt);
    let pairs = [
        (left.home, right.home, ["home", "home"]),
        (left.home, right.away, ["home", "away"]),
        (left.away, right.home, ["away", "home"]),
        (left.away, right.away, ["away", "away"]),
    ];
    let pick = pairs
        .iter()
        .find(|(l, r, _)| apart(l.shirt, r.shirt))
        .or_else(|| {
            pairs.iter().max_by(|a, b| {
                closest(a.0.shirt, a.1.shirt)
                    .0
                    .total_cmp(&closest(b.0.shirt, b.1.shirt).0)
            })
        })
        .copied()
        .unwrap_or(pairs[0]);
    let (l, r, worn) = pick;
    let reason = if worn == ["home", "home"] {
        "both in home colours".to_owned()
    } else {
        let who: Vec<_> = (0..2)
            .filter(|&k| worn[k] == "away")
            .map(|k| names[k])
            .collect();
        format!(
            "{} in away colours: the home colours are too close under {} (ΔE {:.0})",
            who.join(" and "),
            home.1,
            home.0
        )
    };
    KitChoice {
        left: l.shirt.css(),
        left_goalie: l.goalie.css(),
        right: r.shirt.css(),
        right_goalie: r.goalie.css(),
        worn: worn.map(str::to_owned),
        reason,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rgb(s: &str) -> Rgb {
        Rgb::parse(s).expect("a colour")
    }

    #[test]
    fn parsing_and_printing() {
        assert_eq!(rgb("#fff"), Rgb([255, 255, 255]));
        assert_eq!(rgb(" #3aa0ff "), Rgb([0x3a, 0xa0, 0xff]));
        assert_eq!(rgb("#3aa0ff").css(), "#3aa0ff");
        for bad in [
            "",
            "fff",
            "#ff",
            "#gggggg",
            "#12345",
            "#1234567",
            "#ffffff00",
        ] {
            assert_eq!(Rgb::parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn the_simulation_merges_red_and_green_for_deuteranopia_only() {
        let (red, green) = (rgb("#d62728"), rgb("#2ca02c"));
        assert!(delta_e(red, green, &NORMAL) > 60.0);
        assert!(delta_e(red, green, &DEUTERANOPIA) < 30.0);
        let (blue, yellow) = (rgb("#1f77b4"), rgb("#ffd700"));
        assert!(closest(blue, yellow).0 > 40.0);
    }

    fn kits(home: &str, away: &str) -> TeamKits {
        TeamKits {
            home: Kit::of_shirt(rgb(home)),
            away: Kit::of_shirt(rgb(away)),
        }
    }

    #[test]
    fn two_teams_in_red_and_green_do_not_both_wear_home() {
        // Far apart for most viewers, the same for a viewer with deuteranopia: the second
        // team changes.
        let a = kits("#d62728", "#ffffff");
        let b = kits("#2ca02c", "#1f3a93");
        let c = choose_kits(["REDS", "GREENS"], &a, &b);
        assert_eq!(c.worn, ["home", "away"]);
        assert_eq!((c.left.as_str(), c.right.as_str()), ("#d62728", "#1f3a93"));
        assert!(
            c.reason.starts_with("GREENS in away colours"),
            "{}",
            c.reason
        );
        assert!(c.reason.contains("protanopia") || c.reason.contains("deuteranopia"));
        // Yellow against blue: both at home.
        let y = kits("#f5d90a", "#000000");
        let z = kits("#3aa0ff", "#ffffff");
        let c = choose_kits(["Y", "Z"], &y, &z);
        assert_eq!(c.worn, ["home", "home"]);
        assert_eq!(c.reason, "both in home colours");
        // The same colours at home and away for both: the furthest pair, home and home.
        let same = kits("#ff0000", "#ff0000");
        assert_eq!(choose_kits(["A", "B"], &same, &same).left, "#ff0000");
        // The second team's away kit clashes too: the first team changes.
        let w = kits("#ffffff", "#111111");
        let v = kits("#fefefe", "#f8f8f8");
        let c = choose_kits(["W", "V"], &w, &v);
        assert_eq!(c.worn, ["away", "home"]);
        assert!(apart(rgb(&c.left), rgb(&c.right)));
    }

    #[test]
    fn a_goalie_stands_out_from_his_team() {
        for shirt in ["#ffffff", "#000000", "#d62728", "#f5d90a", "#1f3a93"] {
            let k = Kit::of_shirt(rgb(shirt));
            assert!(
                delta_e(k.shirt, k.goalie, &NORMAL) > 20.0,
                "{shirt}: {}",
                k.goalie.css()
            );
        }
    }
}
