//! Server and player parameters the library and the page compute with, in one place, with
//! rcssserver 19's defaults for sources that carry none.
//!
//! Why defaults are needed: a v1 log or monitor carries no parameters at all, and v2 logs
//! none either; text, JSON and v3 logs carry all of them. The values here are what
//! rcssserver 19.0.0 writes with its default settings (taken from a real log of it, with the
//! few settings that game changed — `auto_mode`, `text_logging`, `game_log_dir`,
//! `random_seed` — put back to their defaults), so a log without parameters is read as if
//! it had been written by a default server.
//!
//! Names: text and JSON sources use the server's parameter names (`ball_decay`); binary
//! sources (v2 monitors, v3 logs) use the C struct's field names (`bdecay`), see
//! [`crate::binary`]. [`ServerParams`] reads either.

use crate::model::Params;
use std::sync::OnceLock;

/// Field geometry, fixed in rcssserver (not parameters), in metres.
pub mod field {
    /// Goal line to goal line.
    pub const PITCH_LENGTH: f32 = 105.0;
    /// Touch line to touch line.
    pub const PITCH_WIDTH: f32 = 68.0;
    /// x of the right goal line (the left one is at `-HALF_LENGTH`).
    pub const HALF_LENGTH: f32 = PITCH_LENGTH / 2.0;
    /// y of the bottom touch line (the top one is at `-HALF_WIDTH`; y grows downwards).
    pub const HALF_WIDTH: f32 = PITCH_WIDTH / 2.0;
    pub const PENALTY_AREA_LENGTH: f32 = 16.5;
    pub const PENALTY_AREA_WIDTH: f32 = 40.32;
    pub const GOAL_AREA_LENGTH: f32 = 5.5;
    pub const GOAL_AREA_WIDTH: f32 = 18.32;
    pub const GOAL_DEPTH: f32 = 2.44;
    pub const CENTER_CIRCLE_RADIUS: f32 = 9.15;
    pub const PENALTY_SPOT_DISTANCE: f32 = 11.0;
    pub const CORNER_ARC_RADIUS: f32 = 1.0;
    pub const GOAL_POST_RADIUS: f32 = 0.06;
}

include!("params/defaults.rs");

/// [`SERVER_PARAM_LINE`] as parameters.
pub fn default_server_param() -> &'static Params {
    static P: OnceLock<Params> = OnceLock::new();
    P.get_or_init(|| parse_line(SERVER_PARAM_LINE, b"(server_param"))
}

/// [`PLAYER_PARAM_LINE`] as parameters.
pub fn default_player_param() -> &'static Params {
    static P: OnceLock<Params> = OnceLock::new();
    P.get_or_init(|| parse_line(PLAYER_PARAM_LINE, b"(player_param"))
}

/// [`DEFAULT_PLAYER_TYPE_LINE`] as parameters.
pub fn default_player_type() -> &'static Params {
    static P: OnceLock<Params> = OnceLock::new();
    P.get_or_init(|| parse_line(DEFAULT_PLAYER_TYPE_LINE, b"(player_type"))
}

fn parse_line(line: &str, head: &[u8]) -> Params {
    // The lines are constants checked by a test; an empty set would only mean every typed
    // value falls back to the numbers in `ServerParams::DEFAULT`.
    crate::text::parse_params(line.as_bytes(), head).unwrap_or_default()
}

/// Looks `names` up in `params` (the first name found wins), else in `defaults`.
fn lookup(params: Option<&Params>, defaults: &Params, names: &[&str], fallback: f64) -> f64 {
    let find = |p: &Params| names.iter().find_map(|n| p.get_f64(n));
    params
        .and_then(find)
        .or_else(|| find(defaults))
        .unwrap_or(fallback)
}

/// The server parameters the library's analyses and the page's drawing use, never missing:
/// read from the source's `server_param`, each one absent there taken from rcssserver 19's
/// defaults.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ServerParams {
    /// Ball speed kept per cycle (0.94): the ball moves `v`, then `v·d`, `v·d²`… so from a speed
    /// `v` it travels `v / (1 − d)` in all.
    pub ball_decay: f32,
    pub ball_size: f32,
    pub ball_speed_max: f32,
    /// Default player radius; a player type may differ ([`PlayerTypeParams::player_size`]).
    pub player_size: f32,
    /// Default kickable margin; each player type has its own.
    pub kickable_margin: f32,
    /// Distance between the posts (14.02).
    pub goal_width: f32,
    /// Goalie catchable area: length along the goalie's body direction, and width.
    pub catchable_area_l: f32,
    pub catchable_area_w: f32,
    /// Tackle area: reach ahead, reach behind, width across.
    pub tackle_dist: f32,
    pub tackle_back_dist: f32,
    pub tackle_width: f32,
    /// Length of a half in cycles (`half_time` seconds at `simulator_step` ms per cycle,
    /// slowed by `slow_down_factor`): 3000 with the defaults.
    pub half_time_cycles: u32,
    /// Milliseconds per cycle.
    pub simulator_step: u32,
    /// Cycles of one extra-time half.
    pub extra_half_time_cycles: u32,
    pub nr_normal_halfs: u32,
    pub nr_extra_halfs: u32,
}

impl ServerParams {
    /// rcssserver 19's defaults.
    pub fn defaults() -> ServerParams {
        ServerParams::from_params(None)
    }

    /// Typed values from a source's `server_param` (text, JSON or binary names), defaults for
    /// what it lacks.
    pub fn from_params(params: Option<&Params>) -> ServerParams {
        let d = default_server_param();
        let get = |names: &[&str], fallback: f64| lookup(params, d, names, fallback);
        let step = get(&["simulator_step", "sim_st"], 100.0).max(1.0);
        let slow = get(&["slow_down_factor"], 1.0).max(1.0);
        let cycles = |seconds: f64| {
            let c = (seconds * 1000.0 / (step / slow) + 0.5).max(0.0);
            if c >= f64::from(u32::MAX) {
                u32::MAX
            } else {
                c as u32
            }
        };
        let count = |names: &[&str], fallback: f64| get(names, fallback).clamp(0.0, 1000.0) as u32;
        ServerParams {
            ball_decay: get(&["ball_decay", "bdecay"], 0.94) as f32,
            ball_size: get(&["ball_size", "bsize"], 0.085) as f32,
            ball_speed_max: get(&["ball_speed_max", "bspeed_max"], 3.0) as f32,
            player_size: get(&["player_size", "psize"], 0.3) as f32,
            kickable_margin: get(&["kickable_margin", "kmargin"], 0.7) as f32,
            goal_width: get(&["goal_width", "gwidth"], 14.02) as f32,
            catchable_area_l: get(&["catchable_area_l", "catch_area_l"], 1.2) as f32,
            catchable_area_w: get(&["catchable_area_w", "catch_area_w"], 1.0) as f32,
            tackle_dist: get(&["tackle_dist"], 2.0) as f32,
            tackle_back_dist: get(&["tackle_back_dist"], 0.0) as f32,
            tackle_width: get(&["tackle_width"], 1.25) as f32,
            half_time_cycles: cycles(get(&["half_time"], 300.0)),
            simulator_step: step as u32,
            extra_half_time_cycles: cycles(get(&["extra_half_time"], 100.0)),
            nr_normal_halfs: count(&["nr_normal_halfs"], 2.0),
            nr_extra_halfs: count(&["nr_extra_halfs"], 0.0),
        }
    }
}

/// One player type's values that decide where it can reach the ball.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PlayerTypeParams {
    pub id: i16,
    pub player_size: f32,
    pub kickable_margin: f32,
    /// Stretches the goalie's catchable length (`catchable_area_l × stretch`).
    pub catchable_area_l_stretch: f32,
    pub player_speed_max: f32,
    pub player_decay: f32,
}

impl PlayerTypeParams {
    /// rcssserver 19's default type (id 0).
    pub fn default_type() -> PlayerTypeParams {
        PlayerTypeParams::from_params(default_player_type())
    }

    pub fn from_params(p: &Params) -> PlayerTypeParams {
        let d = default_player_type();
        let get = |name: &str, fallback: f64| lookup(Some(p), d, &[name], fallback);
        PlayerTypeParams {
            id: get("id", 0.0).clamp(-1.0, 1000.0) as i16,
            player_size: get("player_size", 0.3) as f32,
            kickable_margin: get("kickable_margin", 0.7) as f32,
            catchable_area_l_stretch: get("catchable_area_l_stretch", 1.0) as f32,
            player_speed_max: get("player_speed_max", 1.05) as f32,
            player_decay: get("player_decay", 0.4) as f32,
        }
    }
}

/// Everything a match's analyses need from its parameters: server values and player types.
#[derive(Clone, Debug, PartialEq)]
pub struct MatchParams {
    pub server: ServerParams,
    /// Indexed by type id where the source sent types; a missing id reads as the default type.
    pub player_types: Vec<PlayerTypeParams>,
}

impl Default for MatchParams {
    fn default() -> Self {
        MatchParams::new(None, &[])
    }
}

impl MatchParams {
    pub fn new(server_param: Option<&Params>, player_types: &[Params]) -> MatchParams {
        let mut types: Vec<PlayerTypeParams> = Vec::new();
        for p in player_types {
            let t = PlayerTypeParams::from_params(p);
            let Ok(id) = usize::try_from(t.id) else {
                continue;
            };
            if id >= 256 {
                continue;
            }
            if types.len() <= id {
                types.resize(id + 1, PlayerTypeParams::default_type());
            }
            types[id] = t;
        }
        MatchParams {
            server: ServerParams::from_params(server_param),
            player_types: types,
        }
    }

    /// Type `id`, or the default type when the source sent no such type (v1/v2 sources send
    /// none, and their shows give every player type 0).
    pub fn player_type(&self, id: i16) -> PlayerTypeParams {
        usize::try_from(id)
            .ok()
            .and_then(|i| self.player_types.get(i))
            .copied()
            .unwrap_or_else(PlayerTypeParams::default_type)
    }

    /// How far from a player's centre the ball's centre may be for the player to kick it:
    /// player size + the type's kickable margin + ball size (1.085 m for the default type).
    pub fn kickable_radius(&self, type_id: i16) -> f32 {
        let t = self.player_type(type_id);
        t.player_size + t.kickable_margin + self.server.ball_size
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_lines_parse_whole() {
        assert_eq!(default_server_param().entries.len(), 202);
        assert_eq!(default_player_param().entries.len(), 29);
        assert_eq!(default_player_type().entries.len(), 30);
        assert_eq!(default_server_param().get_f64("ball_decay"), Some(0.94));
        assert_eq!(default_player_type().get_f64("kickable_margin"), Some(0.7));
    }

    #[test]
    fn defaults_are_rcssserver_19s() {
        let s = ServerParams::defaults();
        assert_eq!(s.ball_decay, 0.94);
        assert_eq!(s.goal_width, 14.02);
        assert_eq!(s.half_time_cycles, 3000);
        assert_eq!(s.simulator_step, 100);
        assert_eq!((s.nr_normal_halfs, s.nr_extra_halfs), (2, 0));
        let m = MatchParams::default();
        assert!((m.kickable_radius(0) - 1.085).abs() < 1e-6);
        assert_eq!(m.player_type(17), PlayerTypeParams::default_type());
    }

    #[test]
    fn binary_names_are_read_too() {
        let p = Params {
            entries: vec![
                ("bdecay".into(), crate::ParamValue::Float(0.9)),
                ("half_time".into(), crate::ParamValue::Int(30)),
                ("sim_st".into(), crate::ParamValue::Int(50)),
            ],
        };
        let s = ServerParams::from_params(Some(&p));
        assert_eq!(s.ball_decay, 0.9);
        assert_eq!(s.half_time_cycles, 600);
        assert_eq!(s.ball_size, 0.085, "missing: default");
    }
}
