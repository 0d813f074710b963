//! The parameters the field is drawn with, never missing: the library's typed parameters
//! ([`MatchParams`], rcssserver 19's defaults where the source sent none, as a v1 source never
//! does) and the few more the field needs, looked up the same way.

use rcss_formats::log::Match;
use rcss_formats::params::{default_server_param, MatchParams, PlayerTypeParams};
use rcss_formats::Params;

#[derive(Clone, Debug, PartialEq)]
pub struct FieldParams {
    /// Server values and player types, defaults where the source has none.
    pub of_match: MatchParams,
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
    /// `|y| / tackle_width`, so a tackle reaches `tackle_width` to either side.
    pub tackle_width: f64,
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
        let typed = MatchParams::new(server, types);
        // The source's value (server or binary name), else rcssserver 19's default.
        let extra = |names: &[&str], fallback: f64| {
            let find = |p: &Params| names.iter().find_map(|n| p.get_f64(n));
            server
                .and_then(find)
                .or_else(|| find(default_server_param()))
                .filter(|v| v.is_finite())
                .unwrap_or(fallback)
        };
        let s = typed.server;
        FieldParams {
            ball_decay: f64::from(s.ball_decay).clamp(0.0, 0.999),
            ball_size: f64::from(s.ball_size),
            goal_width: f64::from(s.goal_width),
            stamina_max: extra(&["stamina_max"], 8000.0).max(1.0),
            stamina_capacity: extra(&["stamina_capacity"], 130_600.0).max(1.0),
            recover_dec_thr: extra(&["recover_dec_thr", "recover_dthr"], 0.3),
            visible_distance: extra(&["visible_distance", "visdist"], 3.0),
            catchable_area_l: f64::from(s.catchable_area_l),
            catchable_area_w: f64::from(s.catchable_area_w),
            max_catch_angle: extra(&["max_catch_angle"], 90.0),
            tackle_dist: f64::from(s.tackle_dist),
            tackle_back_dist: f64::from(s.tackle_back_dist),
            tackle_width: f64::from(s.tackle_width),
            of_match: typed,
        }
    }

    /// Type `id`, or the default type when the source sent no such type.
    pub fn player_type(&self, id: i16) -> PlayerTypeParams {
        self.of_match.player_type(id)
    }

    /// How far from a player's centre the ball's centre may be for the player to kick it:
    /// player size + the type's kickable margin + ball size.
    pub fn kickable_radius(&self, type_id: i16) -> f64 {
        f64::from(self.of_match.kickable_radius(type_id))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::testutil;

    #[test]
    fn a_v1_log_is_drawn_with_rcssserver_19_defaults() {
        let v1 = FieldParams::of_match(testutil::short_v1());
        let v6 = FieldParams::of_match(testutil::short_v6());
        assert!(testutil::short_v1().server_param.is_none());
        assert_eq!(v1.ball_decay, v6.ball_decay);
        assert_eq!(v1.stamina_max, 8000.0);
        assert_eq!(v1.stamina_capacity, 130_600.0);
        assert_eq!(v1.visible_distance, 3.0);
        assert!(
            (v1.kickable_radius(5) - 1.085).abs() < 1e-6,
            "no types: the default one"
        );
        // The v6 log's own types differ from the default.
        assert!((0..18).any(|t| (v6.kickable_radius(t) - 1.085).abs() > 1e-3));
    }
}
