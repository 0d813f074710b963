//! The match seen from the other side: the left team plays from the right.
//!
//! What librcsc's `rcgreverse` flips, done the same way:
//! - the ball's position and velocity, negated;
//! - each player: his slot and side (left `n` becomes right `n`), position, velocity and
//!   pointing target negated, body angle turned by 180° (into (-180°, 180°]); the neck, view
//!   and focus point are relative to the body and stay; a player not on the field keeps his y
//!   and gets his x negated, as `rcgreverse` does (the server parks absent players at mirrored
//!   x);
//! - the team records: names, scores and penalty tallies change places;
//! - team-graphic tiles change sides.
//!
//! And what it leaves unflipped, flipped here: play modes (`goal_l` ↔ `goal_r`: `rcgreverse`
//! keeps them, so its reversed logs credit a goal to the team that conceded it); each
//! player's attention target (`(f l 9)` names a side); the side-specific server parameters
//! (`*_l`/`*_r` pairs and the two `slowness_on_top_for_*_team`); the referee's msgs and
//! substitutions, whose words name a side (`(referee goal_l_1)`, `(change_player_type l 3 7)`)
//! and the `(result …)` msg's two teams; the tiles' msgs (`rcgreverse` writes their side as
//! a garbage byte); drawings, mirrored like positions. Other msgs (the players' own words
//! in logs with `record_messages`) are kept as they are.
//!
//! Reversing twice gives back the original match (a body angle of -180° comes back as 180°,
//! the same direction, as with `rcgreverse`).

use crate::model::{Frame, Message, Params, Player, Record, Shape, Side};

/// Flips one record in place.
pub fn reverse(r: &mut Record) {
    match r {
        Record::Show(f) => reverse_frame(f),
        Record::PlayMode { mode, .. } => *mode = mode.mirrored(),
        Record::Team { teams, .. } => teams.swap(0, 1),
        Record::TeamGraphic(t) => t.side = t.side.other(),
        Record::Msg(m) => reverse_msg(m),
        Record::ServerParam(p) => reverse_params(p),
        Record::PlayerParam(_) | Record::PlayerType(_) => {}
        Record::Draw(d) => match &mut d.shape {
            Shape::Point { x, y, .. } | Shape::Circle { x, y, .. } => {
                *x = -*x;
                *y = -*y;
            }
            Shape::Line { x1, y1, x2, y2, .. } => {
                for v in [x1, y1, x2, y2] {
                    *v = -*v;
                }
            }
            Shape::Clear | Shape::Blank => {}
        },
    }
}

fn reverse_frame(f: &mut Frame) {
    f.mode = f.mode.mirrored();
    f.teams.swap(0, 1);
    let b = &mut f.ball;
    b.x = -b.x;
    b.y = -b.y;
    b.vx = -b.vx;
    b.vy = -b.vy;
    if f.players.len() == 22 {
        f.players.rotate_left(11);
    }
    for p in &mut f.players {
        reverse_player(p);
    }
}

fn reverse_player(p: &mut Player) {
    p.side = p.side.map(Side::other);
    if p.state == 0 {
        p.x = -p.x;
        return;
    }
    p.x = -p.x;
    p.y = -p.y;
    p.vx = -p.vx;
    p.vy = -p.vy;
    p.body = turn(p.body);
    if let Some((x, y)) = &mut p.point {
        *x = -*x;
        *y = -*y;
    }
    if let Some((side, _)) = &mut p.attention {
        *side = side.other();
    }
}

/// `body + 180°` in (-180°, 180°], to the thousandth of a degree every source prints: turning
/// twice gives back the very same number.
fn turn(body: f32) -> f32 {
    let mut b = f64::from(body) + 180.0;
    if b > 180.0 {
        b -= 360.0;
    }
    ((b * 1000.0).round() / 1000.0) as f32
}

/// `*_l` ↔ `*_r` and the two `slowness_on_top_for_*_team`: values change places, the order of
/// the entries stays.
fn reverse_params(p: &mut Params) {
    let pair = |name: &str| -> Option<String> {
        if let Some(base) = name.strip_suffix("_l") {
            Some(format!("{base}_r"))
        } else if let Some(base) = name.strip_suffix("_r") {
            Some(format!("{base}_l"))
        } else if name == "slowness_on_top_for_left_team" {
            Some("slowness_on_top_for_right_team".into())
        } else if name == "slowness_on_top_for_right_team" {
            Some("slowness_on_top_for_left_team".into())
        } else {
            None
        }
    };
    let original = p.clone();
    for (name, value) in &mut p.entries {
        if let Some(v) = pair(name).and_then(|other| original.get(&other)) {
            *value = v.clone();
        }
    }
}

/// The words of the referee and of substitutions that name a side, and the two teams of the
/// result, flipped; any other msg as it is.
fn reverse_msg(m: &mut Message) {
    let Ok(text) = std::str::from_utf8(&m.text) else {
        return;
    };
    let flipped = if let Some(tile) = text.strip_prefix("(team_graphic_") {
        let (side, rest) = tile.split_at(tile.len().min(1));
        match side {
            "l" => format!("(team_graphic_r{rest}"),
            "r" => format!("(team_graphic_l{rest}"),
            _ => return,
        }
    } else if let Some(words) = text.strip_prefix("(referee ") {
        format!("(referee {}", flip_side_tokens(words, '_'))
    } else if let Some(words) = text.strip_prefix("(change_player_type ") {
        format!("(change_player_type {}", flip_side_tokens(words, ' '))
    } else if let Some(body) = text
        .strip_prefix("(result ")
        .and_then(|b| b.strip_suffix(')'))
    {
        let Some((stamp, teams)) = body.split_once(' ') else {
            return;
        };
        let Some((l, r)) = teams.split_once("-vs-") else {
            return;
        };
        format!("(result {stamp} {r}-vs-{l})")
    } else {
        return;
    };
    m.text = flipped.into_bytes();
}

/// `goal_l_1` → `goal_r_1`, `l 3 7)` → `r 3 7)`: each token that is just `l` or `r`.
fn flip_side_tokens(words: &str, sep: char) -> String {
    let mut out = String::with_capacity(words.len());
    let mut token = String::new();
    let flush = |token: &mut String, out: &mut String| {
        out.push_str(match token.as_str() {
            "l" => "r",
            "r" => "l",
            t => t,
        });
        token.clear();
    };
    for c in words.chars() {
        if c == sep || c == ' ' || c == ')' || c == '(' {
            flush(&mut token, &mut out);
            out.push(c);
        } else {
            token.push(c);
        }
    }
    flush(&mut token, &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Message;

    fn msg(text: &str) -> Vec<u8> {
        let mut m = Message {
            time: 1,
            board: 1,
            text: text.as_bytes().to_vec(),
        };
        reverse_msg(&mut m);
        m.text
    }

    #[test]
    fn msgs_that_name_a_side() {
        assert_eq!(msg("(referee goal_l_1)"), b"(referee goal_r_1)");
        assert_eq!(
            msg("(referee yellow_card_r_5)"),
            b"(referee yellow_card_l_5)"
        );
        assert_eq!(msg("(referee play_on)"), b"(referee play_on)");
        assert_eq!(
            msg("(change_player_type l 3 7)"),
            b"(change_player_type r 3 7)"
        );
        assert_eq!(
            msg("(result 202611221327 A_0-vs-B_1)"),
            b"(result 202611221327 B_1-vs-A_0)"
        );
        assert_eq!(
            msg("(team_graphic_l (22 3 \"8 8 1 1\")"),
            b"(team_graphic_r (22 3 \"8 8 1 1\")"
        );
        assert_eq!(msg("hello l r"), b"hello l r");
    }

    #[test]
    fn turning_twice_is_the_same_angle() {
        for b in [
            0.0f32, 180.0, -180.0, 90.184, -89.816, 179.999, -179.999, 12.5, -0.001,
        ] {
            let t = turn(b);
            assert!(t > -180.0 && t <= 180.0, "{b} → {t}");
            let back = turn(t);
            let same = back == b || (b == -180.0 && back == 180.0);
            assert!(same, "{b} → {t} → {back}");
        }
    }
}
