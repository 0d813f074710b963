//! The parameters the field is drawn with, never missing: from the source's `server_param` and
//! `player_type`s, each one it lacks taken from rcssserver 19's defaults (a v1 source sends no
//! parameters at all).
//!
//! Text and JSON sources name parameters as the server does (`ball_decay`); binary ones (v2
//! monitors, v3 logs) by the C struct's field (`bdecay`): both are looked up.

use pitchside_shared::log::Match;
use pitchside_shared::Params;

/// One player type's values that change what is drawn around its players.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TypeParams {
    pub player_size: f64,
    pub kickable_margin: f64,
    /// Stretches the goalie's catchable length: from `l·(2−s)` (sure catch) to `l·s`.
    pub catchable_area_l_stretch: f64,
}

impl Default for TypeParams {
    /// rcssserver 19's type 0.
    fn default() -> Self {
        TypeParams {
            player_size: 0.3,
            kickable_margin: 0.7,
            catchable_area_l_stretch: 1.0,
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct FieldParams {
    /// Ball speed kept per cycle.
    pub ball_decay: f64,
    pub ball_size: f64,
    /// Distance between the posts.
    pub goal_width: f64,
    pub stamina_max: f64,
    /// A player's stamina capacity at kick-off (rcssserver 19's `stamina_capacity`).
    pub stamina_capacity: f64,
    /// Below this share of `stamina_max` a player's recovery drops: drawn as the red part of
    /// the stamina bar.
    pub recover_dec_thr: f64,
    /// Around a player, objects are seen whatever the view cone (the "feel" distance).
    pub visible_distance: f64,
    pub catchable_area_l: f64,
    pub catchable_area_w: f64,
    /// Greatest catch direction either side of the body, degrees.
    pub max_catch_angle: f64,
    pub tackle_dist: f64,
    pub tackle_back_dist: f64,
    /// Half the tackle area's width: the server's failure probability grows with
    /// `|y| / tackle_width`, so a tackle can reach `tackle_width` to either side.
    pub tackle_width: f64,
    /// Types by id; a type the source did not send reads as the default type.
    pub types: Vec<TypeParams>,
}

impl Default for FieldParams {
    fn default() -> Self {
        FieldParams::new(None, &[])
    }
}

impl FieldParams {
    pub fn of_match(m: &Match) -> FieldParams {
        FieldParams::new(m.server_param.as_ref(), &m.player_types)
    }

    pub fn new(server: Option<&Params>, types: &[Params]) -> FieldParams {
        let get = |names: &[&str], default: f64| {
            server
                .and_then(|p| names.iter().find_map(|n| p.get_f64(n)))
                .filter(|v| v.is_finite())
                .unwrap_or(default)
        };
        let mut by_id: Vec<TypeParams> = Vec::new();
        for t in types {
            let id = t.get_f64("id").unwrap_or(-1.0);
            if !(0.0..256.0).contains(&id) {
                continue;
            }
            let id = id as usize;
            let d = TypeParams::default();
            let value = |name: &str, default: f64| {
                t.get_f64(name).filter(|v| v.is_finite()).unwrap_or(default)
            };
            if by_id.len() <= id {
                by_id.resize(id + 1, d);
            }
            by_id[id] = TypeParams {
                player_size: value("player_size", d.player_size),
                kickable_margin: value("kickable_margin", d.kickable_margin),
                catchable_area_l_stretch: value(
                    "catchable_area_l_stretch",
                    d.catchable_area_l_stretch,
                ),
            };
        }
        FieldParams {
            ball_decay: get(&["ball_decay", "bdecay"], 0.94).clamp(0.0, 0.999),
            ball_size: get(&["ball_size", "bsize"], 0.085),
            goal_width: get(&["goal_width", "gwidth"], 14.02),
            stamina_max: get(&["stamina_max"], 8000.0).max(1.0),
            stamina_capacity: get(&["stamina_capacity"], 130_600.0).max(1.0),
            recover_dec_thr: get(&["recover_dec_thr", "recover_dthr"], 0.3),
            visible_distance: get(&["visible_distance", "visdist"], 3.0),
            catchable_area_l: get(&["catchable_area_l", "catch_area_l"], 1.2),
            catchable_area_w: get(&["catchable_area_w", "catch_area_w"], 1.0),
            max_catch_angle: get(&["max_catch_angle"], 90.0),
            tackle_dist: get(&["tackle_dist"], 2.0),
            tackle_back_dist: get(&["tackle_back_dist"], 0.0),
            tackle_width: get(&["tackle_width"], 1.25),
            types: by_id,
        }
    }

    pub fn player_type(&self, id: i16) -> TypeParams {
        usize::try_from(id)
            .ok()
            .and_then(|i| self.types.get(i))
            .copied()
            .unwrap_or_default()
    }

    /// How far from a player's centre the ball's centre may be for the player to kick it:
    /// player size + the type's kickable margin + ball size.
    pub fn kickable_radius(&self, type_id: i16) -> f64 {
        let t = self.player_type(type_id);
        t.player_size + t.kickable_margin + self.ball_size
    }
}
