//! Parameters as the target log writes them, whatever the source named or typed them.

use crate::model::{ParamValue, Params};

/// Parameters as a target other than the source names or types them: a v3 source's
/// `server_params_t` field names become the text names (fields computed by the server have
/// none and are left out), entries come in the server's order (by name) for `server_param` and
/// `player_param` (`player_type` keeps its fixed order), and `json` turns the parameters the
/// server prints as booleans in JSON into `true`/`false`.
pub(crate) fn normalized_params(p: &Params, kind: ParamsKind, json: bool) -> Params {
    let mut entries: Vec<(String, ParamValue)> = Vec::with_capacity(p.entries.len());
    let binary = kind == ParamsKind::Server && p.get("gwidth").is_some();
    for (name, v) in &p.entries {
        let name = if binary {
            match crate::binary::encode::server_param_text_name(name) {
                Some(n) => n.to_owned(),
                None => continue,
            }
        } else {
            name.clone()
        };
        let v = match v {
            ParamValue::Int(i) if json && JSON_BOOLS.contains(&name.as_str()) => {
                ParamValue::Bool(*i != 0)
            }
            // Integral values of binary sources read as floats print the same either way.
            other => other.clone(),
        };
        entries.push((name, v));
    }
    if kind != ParamsKind::PlayerType {
        entries.sort_by(|a, b| a.0.cmp(&b.0));
    }
    Params { entries }
}

/// Which parameters record a [`Params`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ParamsKind {
    Server,
    Player,
    PlayerType,
}

/// Parameters rcssserver 19 prints as `true`/`false` in JSON (`1`/`0` in text).
const JSON_BOOLS: &[&str] = &[
    "allow_mult_default_type",
    "auto_mode",
    "back_passes",
    "coach",
    "coach_w_referee",
    "forbid_kick_off_offside",
    "free_kick_faults",
    "fullstate_l",
    "fullstate_r",
    "game_log_dated",
    "game_log_fixed",
    "game_logging",
    "golden_goal",
    "keepaway",
    "keepaway_log_dated",
    "keepaway_log_fixed",
    "keepaway_logging",
    "log_times",
    "old_coach_hear",
    "pen_allow_mult_kicks",
    "pen_coach_moves_players",
    "pen_random_winner",
    "penalty_shoot_outs",
    "profile",
    "proper_goal_kicks",
    "record_messages",
    "send_comms",
    "synch_mode",
    "team_actuator_noise",
    "text_log_dated",
    "text_log_fixed",
    "text_logging",
    "use_offside",
    "verbose",
    "wind_none",
    "wind_random",
];
