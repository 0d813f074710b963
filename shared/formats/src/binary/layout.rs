//! Raw layouts of rcssserver's binary structs (types.h), as byte offsets measured on the real
//! headers: big-endian integers, natural C alignment padding, no packing.
//!
//! Every offset here is relative to the start of the struct it belongs to.

/// `mode` values of `dispinfo_t`/`dispinfo_t2` and of v2/v3 log records.
pub(super) mod mode {
    pub const SHOW: i16 = 1;
    pub const MSG: i16 = 2;
    pub const DRAW: i16 = 3;
    pub const BLANK: i16 = 4;
    pub const PM: i16 = 5;
    pub const TEAM: i16 = 6;
    pub const PT: i16 = 7;
    pub const PARAM: i16 = 8;
    pub const PPARAM: i16 = 9;
}

/// `SHOWINFO_SCALE`: v1 positions are `int16(metres × 16)`.
pub(super) const SCALE1: f64 = 16.0;
/// `SHOWINFO_SCALE2`: v2/v3 values are `int32(value × 65536)`.
pub(super) const SCALE2: f64 = 65536.0;

/// `sizeof(dispinfo_t)`: `int16 mode` at 0, union at 2.
pub(super) const DISPINFO: usize = 2052;
pub(super) const DISPINFO_BODY: usize = 2;
/// `sizeof(dispinfo_t2)`: `int16 mode` at 0, 2 pad bytes, union at 4.
pub(super) const DISPINFO2: usize = 2056;
pub(super) const DISPINFO2_BODY: usize = 4;

/// `msginfo_t`: `int16 board` at 0, `char message[2048]` at 2.
pub(super) mod msginfo {
    pub const BOARD: usize = 0;
    pub const MESSAGE: usize = 2;
    pub const MESSAGE_LEN: usize = 2048;
}

/// A v2/v3 log msg record after its mode: `int16 board`, `int16 len`, then `len` bytes.
pub(super) mod log_msg {
    pub const BOARD: usize = 0;
    pub const LEN: usize = 2;
    pub const TEXT: usize = 4;
    pub const MAX_LEN: usize = 2048;
}

/// `team_t`: `char name[16]`, `int16 score`.
pub(super) mod team_t {
    pub const SIZE: usize = 18;
    pub const NAME: usize = 0;
    pub const NAME_LEN: usize = 16;
    pub const SCORE: usize = 16;
}

/// `pos_t` (v1): six int16 `enable, side, unum, angle, x, y`. Side and unum are implied by the
/// slot (`pos[1..=11]` left, `pos[12..=22]` right), so they are not read (only written).
pub(super) mod pos_t {
    pub const SIZE: usize = 12;
    pub const ENABLE: usize = 0;
    pub const SIDE: usize = 2;
    pub const UNUM: usize = 4;
    pub const ANGLE: usize = 6;
    pub const X: usize = 8;
    pub const Y: usize = 10;
}

/// `showinfo_t` (v1 datagrams and logs, v2 logs): 316 bytes.
pub(super) mod showinfo_t {
    pub const SIZE: usize = 316;
    pub const PMODE: usize = 0;
    pub const TEAM: usize = 2;
    /// `pos_t pos[23]`: the ball, then left 1..11, then right 1..11.
    pub const POS: usize = 38;
    pub const TIME: usize = 314;
}

/// `ball_t` (v2/v3): x, y, deltax, deltay, all int32.
pub(super) mod ball_t {
    pub const X: usize = 0;
    pub const Y: usize = 4;
    pub const VX: usize = 8;
    pub const VY: usize = 12;
}

/// `player_t` (v2/v3): 64 bytes.
pub(super) mod player_t {
    pub const SIZE: usize = 64;
    pub const MODE: usize = 0;
    pub const TYPE: usize = 2;
    pub const X: usize = 4;
    pub const Y: usize = 8;
    pub const VX: usize = 12;
    pub const VY: usize = 16;
    pub const BODY_ANGLE: usize = 20;
    pub const HEAD_ANGLE: usize = 24;
    pub const VIEW_WIDTH: usize = 28;
    pub const VIEW_QUALITY: usize = 32;
    pub const STAMINA: usize = 36;
    pub const EFFORT: usize = 40;
    pub const RECOVERY: usize = 44;
    pub const KICK_COUNT: usize = 48;
    pub const DASH_COUNT: usize = 50;
    pub const TURN_COUNT: usize = 52;
    pub const SAY_COUNT: usize = 54;
    pub const TNECK_COUNT: usize = 56;
    pub const CATCH_COUNT: usize = 58;
    pub const MOVE_COUNT: usize = 60;
    pub const CHG_VIEW_COUNT: usize = 62;
}

/// `showinfo_t2` (v2 datagrams): 1468 bytes.
pub(super) mod showinfo_t2 {
    pub const SIZE: usize = 1468;
    pub const PMODE: usize = 0;
    pub const TEAM: usize = 2;
    pub const BALL: usize = 40;
    pub const POS: usize = 56;
    pub const TIME: usize = 1464;
}

/// `short_showinfo_t2` (v3 logs): 1428 bytes, no play mode and no teams.
pub(super) mod short_showinfo_t2 {
    pub const SIZE: usize = 1428;
    pub const BALL: usize = 0;
    pub const POS: usize = 16;
    pub const TIME: usize = 1424;
}

/// `drawinfo_t`: `int16 mode` (a [`draw_mode`]) at 0, then a union of `pointinfo_t` (x, y,
/// colour), `circleinfo_t` (x, y, r, colour) and `lineinfo_t` (x1, y1, x2, y2, colour): int16
/// values and a `char[64]` colour name; 74 bytes. A v1 log or datagram carries it inside a
/// `dispinfo_t`, a v2 log after its mode.
pub(super) mod drawinfo_t {
    pub const SIZE: usize = 74;
    pub const MODE: usize = 0;
    pub const OBJECT: usize = 2;
    pub const COLOR_LEN: usize = 64;
    /// Where the colour starts in each member of the union: after 2, 3 or 4 int16s.
    pub const POINT_COLOR: usize = 4;
    pub const CIRCLE_COLOR: usize = 6;
    pub const LINE_COLOR: usize = 8;
}

/// `DrawMode`: what a `drawinfo_t` holds.
pub(super) mod draw_mode {
    pub const CLEAR: i16 = 0;
    pub const POINT: i16 = 1;
    pub const CIRCLE: i16 = 2;
    pub const LINE: i16 = 3;
}

/// A v3 PM record after its mode: one `char`.
pub(super) const PM_SIZE: usize = 1;
/// A v3 TEAM record after its mode: `team_t[2]`.
pub(super) const TEAMS_SIZE: usize = 2 * team_t::SIZE;

/// How one parameter is stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Field {
    /// `int16`, the value itself.
    I16,
    /// `int32`, the value itself.
    I32,
    /// `int32(rint(value × 65536))` (`player_type_t`).
    Round,
    /// `int32(value × 65536 + 0.5)`, truncated toward zero (`player_params_t`, the server's
    /// `roundint`): negative values come out one unit high (-6000 → -5999.99998).
    RoundInt,
    /// `int32(value × 65536)`, truncated toward zero (`server_params_t`).
    Trunc,
}

use Field::{Round, RoundInt, Trunc, I16, I32};

/// `player_type_t`: 88 bytes; names as in the text `(player_type …)`.
pub(super) const PLAYER_TYPE_SIZE: usize = 88;
pub(super) const PLAYER_TYPE: &[(&str, usize, Field)] = &[
    ("id", 0, I16),
    ("player_speed_max", 4, Round),
    ("stamina_inc_max", 8, Round),
    ("player_decay", 12, Round),
    ("inertia_moment", 16, Round),
    ("dash_power_rate", 20, Round),
    ("player_size", 24, Round),
    ("kickable_margin", 28, Round),
    ("kick_rand", 32, Round),
    ("extra_stamina", 36, Round),
    ("effort_max", 40, Round),
    ("effort_min", 44, Round),
    ("kick_power_rate", 48, Round),
    ("foul_detect_probability", 52, Round),
    ("catchable_area_l_stretch", 56, Round),
];

/// `player_params_t`: 132 bytes; names as in the text `(player_param …)`.
pub(super) const PLAYER_PARAMS_SIZE: usize = 132;
pub(super) const PLAYER_PARAMS: &[(&str, usize, Field)] = &[
    ("player_types", 0, I16),
    ("subs_max", 2, I16),
    ("pt_max", 4, I16),
    ("player_speed_max_delta_min", 8, RoundInt),
    ("player_speed_max_delta_max", 12, RoundInt),
    ("stamina_inc_max_delta_factor", 16, RoundInt),
    ("player_decay_delta_min", 20, RoundInt),
    ("player_decay_delta_max", 24, RoundInt),
    ("inertia_moment_delta_factor", 28, RoundInt),
    ("dash_power_rate_delta_min", 32, RoundInt),
    ("dash_power_rate_delta_max", 36, RoundInt),
    ("player_size_delta_factor", 40, RoundInt),
    ("kickable_margin_delta_min", 44, RoundInt),
    ("kickable_margin_delta_max", 48, RoundInt),
    ("kick_rand_delta_factor", 52, RoundInt),
    ("extra_stamina_delta_min", 56, RoundInt),
    ("extra_stamina_delta_max", 60, RoundInt),
    ("effort_max_delta_factor", 64, RoundInt),
    ("effort_min_delta_factor", 68, RoundInt),
    ("random_seed", 72, I32),
    ("new_dash_power_rate_delta_min", 76, RoundInt),
    ("new_dash_power_rate_delta_max", 80, RoundInt),
    ("new_stamina_inc_max_delta_factor", 84, RoundInt),
    ("kick_power_rate_delta_min", 88, RoundInt),
    ("kick_power_rate_delta_max", 92, RoundInt),
    ("foul_detect_probability_delta_factor", 96, RoundInt),
    ("catchable_area_l_stretch_min", 100, RoundInt),
    ("catchable_area_l_stretch_max", 104, RoundInt),
    ("allow_mult_default_type", 112, I16),
];

/// `server_params_t`: 396 bytes; names are the struct's own (types.h), which mostly differ
/// from the text `(server_param …)` names. Every int32 is a scaled value.
pub(super) const SERVER_PARAMS_SIZE: usize = 396;
pub(super) const SERVER_PARAMS: &[(&str, usize, Field)] = &[
    ("gwidth", 0, Trunc),
    ("inertia_moment", 4, Trunc),
    ("psize", 8, Trunc),
    ("pdecay", 12, Trunc),
    ("prand", 16, Trunc),
    ("pweight", 20, Trunc),
    ("pspeed_max", 24, Trunc),
    ("paccel_max", 28, Trunc),
    ("stamina_max", 32, Trunc),
    ("stamina_inc", 36, Trunc),
    ("recover_init", 40, Trunc),
    ("recover_dthr", 44, Trunc),
    ("recover_min", 48, Trunc),
    ("recover_dec", 52, Trunc),
    ("effort_init", 56, Trunc),
    ("effort_dthr", 60, Trunc),
    ("effort_min", 64, Trunc),
    ("effort_dec", 68, Trunc),
    ("effort_ithr", 72, Trunc),
    ("effort_inc", 76, Trunc),
    ("kick_rand", 80, Trunc),
    ("team_actuator_noise", 84, I16),
    ("prand_factor_l", 88, Trunc),
    ("prand_factor_r", 92, Trunc),
    ("kick_rand_factor_l", 96, Trunc),
    ("kick_rand_factor_r", 100, Trunc),
    ("bsize", 104, Trunc),
    ("bdecay", 108, Trunc),
    ("brand", 112, Trunc),
    ("bweight", 116, Trunc),
    ("bspeed_max", 120, Trunc),
    ("baccel_max", 124, Trunc),
    ("dprate", 128, Trunc),
    ("kprate", 132, Trunc),
    ("kmargin", 136, Trunc),
    ("ctlradius", 140, Trunc),
    ("ctlradius_width", 144, Trunc),
    ("maxp", 148, Trunc),
    ("minp", 152, Trunc),
    ("maxm", 156, Trunc),
    ("minm", 160, Trunc),
    ("maxnm", 164, Trunc),
    ("minnm", 168, Trunc),
    ("maxn", 172, Trunc),
    ("minn", 176, Trunc),
    ("visangle", 180, Trunc),
    ("visdist", 184, Trunc),
    ("windir", 188, Trunc),
    ("winforce", 192, Trunc),
    ("winang", 196, Trunc),
    ("winrand", 200, Trunc),
    ("kickable_area", 204, Trunc),
    ("catch_area_l", 208, Trunc),
    ("catch_area_w", 212, Trunc),
    ("catch_prob", 216, Trunc),
    ("goalie_max_moves", 220, I16),
    ("ckmargin", 224, Trunc),
    ("offside_area", 228, Trunc),
    ("win_no", 232, I16),
    ("win_random", 234, I16),
    ("say_cnt_max", 236, I16),
    ("SayCoachMsgSize", 238, I16),
    ("clang_win_size", 240, I16),
    ("clang_define_win", 242, I16),
    ("clang_meta_win", 244, I16),
    ("clang_advice_win", 246, I16),
    ("clang_info_win", 248, I16),
    ("clang_mess_delay", 250, I16),
    ("clang_mess_per_cycle", 252, I16),
    ("half_time", 254, I16),
    ("sim_st", 256, I16),
    ("send_st", 258, I16),
    ("recv_st", 260, I16),
    ("sb_step", 262, I16),
    ("lcm_st", 264, I16),
    ("M_say_msg_size", 266, I16),
    ("M_hear_max", 268, I16),
    ("M_hear_inc", 270, I16),
    ("M_hear_decay", 272, I16),
    ("cban_cycle", 274, I16),
    ("slow_down_factor", 276, I16),
    ("useoffside", 278, I16),
    ("kickoffoffside", 280, I16),
    ("offside_kick_margin", 284, Trunc),
    ("audio_dist", 288, Trunc),
    ("dist_qstep", 292, Trunc),
    ("land_qstep", 296, Trunc),
    ("dir_qstep", 300, Trunc),
    ("dist_qstep_l", 304, Trunc),
    ("dist_qstep_r", 308, Trunc),
    ("land_qstep_l", 312, Trunc),
    ("land_qstep_r", 316, Trunc),
    ("dir_qstep_l", 320, Trunc),
    ("dir_qstep_r", 324, Trunc),
    ("CoachMode", 328, I16),
    ("CwRMode", 330, I16),
    ("old_hear", 332, I16),
    ("sv_st", 334, I16),
    ("slowness_on_top_for_left_team", 336, Trunc),
    ("slowness_on_top_for_right_team", 340, Trunc),
    ("ka_length", 344, Trunc),
    ("ka_width", 348, Trunc),
    ("ball_stuck_area", 352, Trunc),
    ("max_tackle_power", 356, Trunc),
    ("max_back_tackle_power", 360, Trunc),
    ("tackle_dist", 364, Trunc),
    ("tackle_back_dist", 368, Trunc),
    ("tackle_width", 372, Trunc),
    ("start_goal_l", 376, I16),
    ("start_goal_r", 378, I16),
    ("fullstate_l", 380, I16),
    ("fullstate_r", 382, I16),
    ("drop_time", 384, I16),
    ("synch_mode", 386, I16),
    ("synch_offset", 388, I16),
    ("synch_micro_sleep", 390, I16),
    ("point_to_ban", 392, I16),
    ("point_to_duration", 394, I16),
];

// The structs fit together as measured (checked when compiling).
const _: () = {
    assert!(showinfo_t::POS + 23 * pos_t::SIZE == showinfo_t::TIME);
    assert!(showinfo_t::TIME + 2 == showinfo_t::SIZE);
    assert!(showinfo_t2::TEAM + TEAMS_SIZE + 2 == showinfo_t2::BALL);
    assert!(showinfo_t2::POS + 22 * player_t::SIZE == showinfo_t2::TIME);
    assert!(showinfo_t2::TIME + 4 == showinfo_t2::SIZE);
    assert!(short_showinfo_t2::POS + 22 * player_t::SIZE == short_showinfo_t2::TIME);
    assert!(short_showinfo_t2::TIME + 4 == short_showinfo_t2::SIZE);
    assert!(player_t::CHG_VIEW_COUNT + 2 == player_t::SIZE);
    assert!(DISPINFO_BODY + showinfo_t::SIZE <= DISPINFO);
    assert!(DISPINFO_BODY + msginfo::MESSAGE + msginfo::MESSAGE_LEN == DISPINFO);
    assert!(DISPINFO2_BODY + showinfo_t2::SIZE <= DISPINFO2);
    assert!(
        drawinfo_t::OBJECT + drawinfo_t::LINE_COLOR + drawinfo_t::COLOR_LEN == drawinfo_t::SIZE
    );
    assert!(DISPINFO_BODY + drawinfo_t::SIZE <= DISPINFO);
    assert!(DISPINFO2_BODY + msginfo::MESSAGE + msginfo::MESSAGE_LEN <= DISPINFO2);
};

#[cfg(test)]
mod tests {
    use super::*;

    /// Every field lies inside its struct, with its natural alignment, without overlap.
    #[test]
    fn param_tables_fit_their_structs() {
        for (table, size) in [
            (PLAYER_TYPE, PLAYER_TYPE_SIZE),
            (PLAYER_PARAMS, PLAYER_PARAMS_SIZE),
            (SERVER_PARAMS, SERVER_PARAMS_SIZE),
        ] {
            let mut end = 0;
            for &(name, off, field) in table {
                let width = if field == Field::I16 { 2 } else { 4 };
                assert_eq!(off % width, 0, "{name} misaligned");
                assert!(off >= end, "{name} overlaps the previous field");
                end = off + width;
                assert!(end <= size, "{name} beyond the struct");
            }
        }
    }
}
