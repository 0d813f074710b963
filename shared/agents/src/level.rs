//! The category bits of librcsc's debug log: an agent writes each message and drawing under
//! one bit, and turns categories on with switches such as `--debug_kick`. The names are the
//! ones librcsc gives them (`Logger::KICK`…), so a developer finds the switch he knows.

/// A category's bit and its name.
pub const NAMED: [(u32, &str); 22] = [
    (1 << 0, "system"),
    (1 << 1, "sensor"),
    (1 << 2, "world"),
    (1 << 3, "action"),
    (1 << 4, "intercept"),
    (1 << 5, "kick"),
    (1 << 6, "hold"),
    (1 << 7, "dribble"),
    (1 << 8, "pass"),
    (1 << 9, "cross"),
    (1 << 10, "shoot"),
    (1 << 11, "clear"),
    (1 << 12, "block"),
    (1 << 13, "mark"),
    (1 << 14, "positioning"),
    (1 << 15, "role"),
    (1 << 16, "team"),
    (1 << 17, "communication"),
    (1 << 18, "analyzer"),
    (1 << 19, "action chain"),
    (1 << 20, "plan"),
    (1 << 31, "training"),
];

/// The name of a level: a named category, `level N` for another single bit (N counted from
/// 1, as librcsc's `LEVEL_N`), `any` for LEVEL_ANY (-1), or the bits in hexadecimal.
pub fn name(level: u32) -> String {
    if level == u32::MAX {
        // LEVEL_ANY: written whatever categories are on.
        return "any".to_string();
    }
    if let Some((_, n)) = NAMED.iter().find(|(bit, _)| *bit == level) {
        return (*n).to_string();
    }
    if level.is_power_of_two() {
        return format!("level {}", level.trailing_zeros() + 1);
    }
    format!("{level:#x}")
}

/// Whether a line of `level` is shown while the categories `hidden` are hidden: a line under
/// several categories shows while any of them does, and one under none (`0`) always does.
pub fn shown(level: u32, hidden: u32) -> bool {
    level == 0 || level & !hidden != 0
}

/// Every single bit set in `levels`, lowest first.
pub fn bits(levels: u32) -> impl Iterator<Item = u32> {
    (0..32).map(|i| 1u32 << i).filter(move |b| levels & b != 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_shows_while_any_of_its_categories_does() {
        // TEAM|ACTION shows while either does; LEVEL_ANY while anything does.
        assert!(shown(0x10008, 0x10000));
        assert!(!shown(0x10008, 0x10008));
        assert!(shown(u32::MAX, 0x20));
        assert!(shown(0, u32::MAX));
    }

    #[test]
    fn names_as_librcsc_gives_them() {
        assert_eq!(name(0x20), "kick");
        assert_eq!(name(0x80000), "action chain");
        assert_eq!(name(0x80000000), "training");
        // LEVEL_23 is bit 22 (LEVEL_01 is bit 0).
        assert_eq!(name(1 << 22), "level 23");
        assert_eq!(name(0x30), "0x30");
        assert_eq!(name(u32::MAX), "any");
        assert_eq!(
            bits(0x8000_0021).collect::<Vec<_>>(),
            vec![1, 0x20, 0x8000_0000]
        );
    }
}
