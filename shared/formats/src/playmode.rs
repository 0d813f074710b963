//! The play-mode table of rcssserver 19 (types.h). Live shows carry the index (`(pm N)`, the
//! binary `pmode` byte), text logs and JSON carry the name, so both directions are needed.

/// Play mode names in server order: the index is the number on the wire.
const NAMES: [&str; 52] = [
    "",
    "before_kick_off",
    "time_over",
    "play_on",
    "kick_off_l",
    "kick_off_r",
    "kick_in_l",
    "kick_in_r",
    "free_kick_l",
    "free_kick_r",
    "corner_kick_l",
    "corner_kick_r",
    "goal_kick_l",
    "goal_kick_r",
    "goal_l",
    "goal_r",
    "drop_ball",
    "offside_l",
    "offside_r",
    "penalty_kick_l",
    "penalty_kick_r",
    "first_half_over",
    "pause",
    "human_judge",
    "foul_charge_l",
    "foul_charge_r",
    "foul_push_l",
    "foul_push_r",
    "foul_multiple_attack_l",
    "foul_multiple_attack_r",
    "foul_ballout_l",
    "foul_ballout_r",
    "back_pass_l",
    "back_pass_r",
    "free_kick_fault_l",
    "free_kick_fault_r",
    "catch_fault_l",
    "catch_fault_r",
    "indirect_free_kick_l",
    "indirect_free_kick_r",
    "penalty_setup_l",
    "penalty_setup_r",
    "penalty_ready_l",
    "penalty_ready_r",
    "penalty_taken_l",
    "penalty_taken_r",
    "penalty_miss_l",
    "penalty_miss_r",
    "penalty_score_l",
    "penalty_score_r",
    "illegal_defense_l",
    "illegal_defense_r",
];

/// A play mode, stored as its wire index so that frames stay small and copyable.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, Default, serde::Serialize, serde::Deserialize,
)]
pub struct PlayMode(u8);

impl PlayMode {
    pub const NULL: PlayMode = PlayMode(0);
    pub const BEFORE_KICK_OFF: PlayMode = PlayMode(1);
    pub const TIME_OVER: PlayMode = PlayMode(2);
    pub const PLAY_ON: PlayMode = PlayMode(3);
    pub const GOAL_L: PlayMode = PlayMode(14);
    pub const GOAL_R: PlayMode = PlayMode(15);

    /// The mode with wire index `index`, if the server knows one.
    pub fn from_index(index: u32) -> Option<PlayMode> {
        (index < NAMES.len() as u32).then_some(PlayMode(index as u8))
    }

    /// The mode with the given name, as `(playmode T name)` and JSON write it.
    pub fn from_name(name: &[u8]) -> Option<PlayMode> {
        NAMES
            .iter()
            .position(|n| n.as_bytes() == name)
            .map(|i| PlayMode(i as u8))
    }

    pub fn index(self) -> u8 {
        self.0
    }

    pub fn name(self) -> &'static str {
        NAMES[self.0 as usize]
    }

    /// The side that scored, for `goal_l` / `goal_r`.
    pub fn goal_side(self) -> Option<crate::Side> {
        match self {
            PlayMode::GOAL_L => Some(crate::Side::Left),
            PlayMode::GOAL_R => Some(crate::Side::Right),
            _ => None,
        }
    }

    /// The team a mode names by its `_l` / `_r` suffix (`free_kick_l` → left), if any. What
    /// that team is to the mode differs: the kicking team (`kick_off_l`), the scoring team
    /// (`goal_l`), or the team that broke a rule (`foul_charge_l`, `offside_l`).
    pub fn side(self) -> Option<crate::Side> {
        let name = self.name();
        if name.ends_with("_l") {
            Some(crate::Side::Left)
        } else if name.ends_with("_r") {
            Some(crate::Side::Right)
        } else {
            None
        }
    }

    /// The name without its side suffix: `free_kick_l` → `free_kick`, `play_on` → `play_on`.
    pub fn base_name(self) -> &'static str {
        let name = self.name();
        match self.side() {
            Some(_) => &name[..name.len() - 2],
            None => name,
        }
    }

    /// The same mode for the other team: `free_kick_l` ↔ `free_kick_r`; a mode of neither
    /// side is itself. What a log whose sides are swapped needs.
    pub fn mirrored(self) -> PlayMode {
        let name = self.name();
        let other = match self.side() {
            Some(crate::Side::Left) => format!("{}_r", &name[..name.len() - 2]),
            Some(crate::Side::Right) => format!("{}_l", &name[..name.len() - 2]),
            None => return self,
        };
        PlayMode::from_name(other.as_bytes()).unwrap_or(self)
    }

    /// A name for people: `free_kick_l` becomes "free kick l".
    pub fn label(self) -> String {
        if self.0 == 0 {
            return "—".to_owned();
        }
        self.name().replace('_', " ")
    }
}

impl std::fmt::Display for PlayMode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn index_and_name_agree_with_the_server_table() {
        assert_eq!(PlayMode::from_index(3).map(PlayMode::name), Some("play_on"));
        assert_eq!(PlayMode::from_name(b"goal_r"), Some(PlayMode::GOAL_R));
        assert_eq!(
            PlayMode::from_name(b"illegal_defense_r").map(PlayMode::index),
            Some(51)
        );
        assert_eq!(PlayMode::from_index(52), None);
        assert_eq!(PlayMode::from_name(b"no_such_mode"), None);
        assert_eq!(
            PlayMode::from_name(b"foul_charge_l").and_then(PlayMode::side),
            Some(crate::Side::Left)
        );
        assert_eq!(
            PlayMode::from_name(b"goal_kick_r").map(PlayMode::base_name),
            Some("goal_kick")
        );
        assert_eq!(PlayMode::PLAY_ON.side(), None);
        assert_eq!(PlayMode::PLAY_ON.base_name(), "play_on");
        assert_eq!(PlayMode::GOAL_L.mirrored(), PlayMode::GOAL_R);
        assert_eq!(PlayMode::PLAY_ON.mirrored(), PlayMode::PLAY_ON);
        for i in 0..52 {
            let m = PlayMode::from_index(i).unwrap();
            if i > 0 {
                assert_eq!(PlayMode::from_name(m.name().as_bytes()), Some(m));
            }
            assert_eq!(m.mirrored().mirrored(), m);
            assert_eq!(m.mirrored().base_name(), m.base_name());
        }
    }
}
