//! librcsc's debug log, `TEAM-UNUM.log`: one line per message or drawing,
//! `CYCLE,STOPPED LEVEL KIND …`, written as the agent runs.
//!
//! KIND is `M` for a text message, or a drawing: `p` point, `l` line, `a` arc, `c`/`C`
//! circle, `t`/`T` triangle, `r`/`R` rectangle, `s`/`S` sector (the capital filled), `m` text
//! at a point. Numbers are printed with four decimals, an optional colour (`#rrggbb` or a
//! name) ends a drawing, and `m` puts it first as `(c COLOUR)`. LEVEL is the category's bit
//! as a signed 32-bit number (`-2147483648` for the highest). A message's text may itself
//! hold a newline: the lines after it that do not start with a time belong to it.

use super::drawing::{Drawing, Shape};
use super::{colour, shown, AgentLineError, Time};

/// One line of the log.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Entry {
    pub time: Time,
    /// The category bit(s), see [`super::level`].
    pub level: u32,
    pub item: Item,
}

#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub enum Item {
    Message(String),
    Drawing(Drawing),
}

/// Every entry of `text` (whole lines of the log, as the [`super::index`] cuts them), and an
/// error for each line that could not be read; `first_line` is the 1-based number of the
/// first line, for the errors.
pub fn decode(text: &[u8], first_line: u64) -> (Vec<Entry>, Vec<AgentLineError>) {
    let mut entries: Vec<Entry> = Vec::new();
    let mut errors = Vec::new();
    for (i, line) in text.split(|&b| b == b'\n').enumerate() {
        let number = first_line + i as u64;
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        if line.is_empty() {
            continue;
        }
        match parse_line(line) {
            Ok(entry) => entries.push(entry),
            Err(e) => {
                // A message with a newline in its text goes on without a time.
                if Time::parse_prefix(line).is_none() {
                    if let Some(Entry {
                        item: Item::Message(text),
                        ..
                    }) = entries.last_mut()
                    {
                        text.push('\n');
                        text.push_str(&String::from_utf8_lossy(line));
                        continue;
                    }
                }
                errors.push(AgentLineError::new(number, e));
            }
        }
    }
    (entries, errors)
}

/// One line, without its newline.
pub fn parse_line(line: &[u8]) -> Result<Entry, String> {
    let (time, rest) = Time::parse_prefix(line)
        .ok_or_else(|| format!("expected CYCLE,STOPPED first, found {}", shown(line)))?;
    let rest = rest
        .strip_prefix(b" ")
        .ok_or_else(|| format!("expected a space after the time, found {}", shown(line)))?;
    let (level, rest) = split_token(rest);
    let level = std::str::from_utf8(level)
        .ok()
        .and_then(|l| l.parse::<i64>().ok())
        .filter(|l| (i64::from(i32::MIN)..=i64::from(u32::MAX)).contains(l))
        .ok_or_else(|| format!("expected a level number, found {}", shown(level)))?;
    // librcsc prints the level as a signed 32-bit number: the top bit comes out negative.
    let level = level as i32 as u32;
    let (kind, rest) = split_token(rest);
    let rest = String::from_utf8_lossy(rest);
    let item = match kind {
        b"M" => Item::Message(rest.into_owned()),
        [k] => Item::Drawing(drawing(*k, &rest)?),
        _ => {
            return Err(format!(
                "expected a kind (M, p, l, a, c, C, t, T, r, R, s, S or m), found {}",
                shown(kind)
            ))
        }
    };
    Ok(Entry { time, level, item })
}

fn split_token(s: &[u8]) -> (&[u8], &[u8]) {
    match s.iter().position(|&b| b == b' ') {
        Some(i) => (&s[..i], &s[i + 1..]),
        None => (s, &[]),
    }
}

fn drawing(kind: u8, rest: &str) -> Result<Drawing, String> {
    let need = match kind {
        b'p' => 2,
        b'l' | b'r' | b'R' => 4,
        b'c' | b'C' => 3,
        b'a' => 5,
        b't' | b'T' | b's' | b'S' => 6,
        b'm' => 2,
        _ => {
            return Err(format!(
                "expected a kind (M, p, l, a, c, C, t, T, r, R, s, S or m), found \"{}\"",
                kind as char
            ))
        }
    };
    let mut words = rest.splitn(need + 1, ' ');
    let mut n = [0f64; 6];
    for (i, slot) in n.iter_mut().enumerate().take(need) {
        let w = words.next().unwrap_or("");
        *slot = w
            .parse::<f64>()
            .ok()
            .filter(|v| v.is_finite())
            .ok_or_else(|| {
                format!(
                    "'{}' drawing: expected {need} numbers, number {} is \"{w}\"",
                    kind as char,
                    i + 1
                )
            })?;
    }
    let tail = words.next().unwrap_or("").trim_end();
    let filled = kind.is_ascii_uppercase();
    let (shape, colour) = match kind {
        b'p' => (Shape::Point((n[0], n[1])), colour(tail)),
        b'l' => (Shape::Line((n[0], n[1]), (n[2], n[3])), colour(tail)),
        b'a' => (
            Shape::Arc {
                centre: (n[0], n[1]),
                radius: n[2],
                start: n[3],
                span: n[4],
            },
            colour(tail),
        ),
        b'c' | b'C' => (
            Shape::Circle {
                centre: (n[0], n[1]),
                radius: n[2],
                filled,
            },
            colour(tail),
        ),
        b't' | b'T' => (
            Shape::Triangle {
                corners: [(n[0], n[1]), (n[2], n[3]), (n[4], n[5])],
                filled,
            },
            colour(tail),
        ),
        b'r' | b'R' => (
            Shape::Rect {
                left: n[0],
                top: n[1],
                width: n[2],
                height: n[3],
                filled,
            },
            colour(tail),
        ),
        b's' | b'S' => (
            Shape::Sector {
                centre: (n[0], n[1]),
                min_radius: n[2],
                max_radius: n[3],
                start: n[4],
                span: n[5],
                filled,
            },
            colour(tail),
        ),
        _ => {
            // `m X Y [(c COLOUR) ]TEXT`
            let (c, text) = match tail.strip_prefix("(c ") {
                Some(r) => match r.split_once(") ") {
                    Some((c, text)) => (colour(c), text),
                    None => (colour(r.trim_end_matches(')')), ""),
                },
                None => (None, tail),
            };
            (
                Shape::Text {
                    at: (n[0], n[1]),
                    text: text.to_string(),
                },
                c,
            )
        }
    };
    Ok(Drawing { shape, colour })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one(line: &str) -> Entry {
        parse_line(line.as_bytes()).unwrap()
    }

    #[test]
    fn every_kind_as_librcsc_writes_it() {
        let e = one("12,0 4 M (doKick) target=(10.0, -3.2)");
        assert_eq!(
            e.time,
            Time {
                cycle: 12,
                stopped: 0
            }
        );
        assert_eq!(e.level, 4);
        assert_eq!(e.item, Item::Message("(doKick) target=(10.0, -3.2)".into()));
        // An empty message keeps its place.
        assert_eq!(one("1,0 1 M ").item, Item::Message(String::new()));

        let d = |l: &str| match one(l).item {
            Item::Drawing(d) => d,
            other => panic!("{other:?}"),
        };
        assert_eq!(
            d("5,0 32 p 1.5000 -2.2500 #ff0000"),
            Drawing {
                shape: Shape::Point((1.5, -2.25)),
                colour: Some([255, 0, 0, 255])
            }
        );
        assert_eq!(
            d("5,0 32 l 0.0000 0.0000 10.0000 5.0000 "),
            Drawing {
                shape: Shape::Line((0.0, 0.0), (10.0, 5.0)),
                colour: None
            }
        );
        assert_eq!(
            d("5,0 32 a 1.0000 2.0000 3.0000 -45.0000 90.0000 blue").shape,
            Shape::Arc {
                centre: (1.0, 2.0),
                radius: 3.0,
                start: -45.0,
                span: 90.0
            }
        );
        assert_eq!(
            d("5,0 32 C 1.0000 2.0000 0.5000 #00ff00"),
            Drawing {
                shape: Shape::Circle {
                    centre: (1.0, 2.0),
                    radius: 0.5,
                    filled: true
                },
                colour: Some([0, 255, 0, 255])
            }
        );
        assert!(matches!(
            d("5,0 32 t 0.0000 0.0000 1.0000 0.0000 0.0000 1.0000 ").shape,
            Shape::Triangle { filled: false, .. }
        ));
        assert_eq!(
            d("5,0 32 R -52.5000 -34.0000 105.0000 68.0000 gray").shape,
            Shape::Rect {
                left: -52.5,
                top: -34.0,
                width: 105.0,
                height: 68.0,
                filled: true
            }
        );
        assert_eq!(
            d("5,0 32 s 0.0000 0.0000 1.0000 5.0000 -30.0000 60.0000 red").shape,
            Shape::Sector {
                centre: (0.0, 0.0),
                min_radius: 1.0,
                max_radius: 5.0,
                start: -30.0,
                span: 60.0,
                filled: false
            }
        );
        assert_eq!(
            d("5,0 32 m 10.0000 -5.0000 (c #0000ff) pass 7"),
            Drawing {
                shape: Shape::Text {
                    at: (10.0, -5.0),
                    text: "pass 7".into()
                },
                colour: Some([0, 0, 255, 255])
            }
        );
        assert_eq!(
            d("5,0 32 m 10.0000 -5.0000 no colour here").shape,
            Shape::Text {
                at: (10.0, -5.0),
                text: "no colour here".into()
            }
        );
        // The top bit comes out negative.
        assert_eq!(one("5,0 -2147483648 M x").level, 0x8000_0000);
    }

    #[test]
    fn bad_lines_say_what_and_where_and_the_rest_is_read() {
        let text = b"1,0 4 M first\nnot a log line\n1,0 4 l 1.0 2.0 x 4.0\n1,0 4 q 1 2\n1,0 4 c 1 2 nan\n2,0 4 M second\n";
        let (entries, errors) = decode(text, 10);
        assert_eq!(entries.len(), 2);
        // "not a log line" has no time: it goes on the first message.
        assert_eq!(
            entries[0].item,
            Item::Message("first\nnot a log line".into())
        );
        assert_eq!(errors.len(), 3, "{errors:?}");
        assert_eq!(errors[0].line, 12);
        assert!(
            errors[0].what.contains("number 3 is \"x\""),
            "{}",
            errors[0]
        );
        assert_eq!(errors[1].line, 13);
        assert!(errors[1].what.contains("kind"), "{}", errors[1]);
        assert_eq!(errors[2].line, 14);
        // A line without a time with no message before it is an error.
        let (_, errors) = decode(b"garbage\n", 1);
        assert_eq!(
            errors[0].to_string(),
            "line 1: expected CYCLE,STOPPED first, found \"garbage\""
        );
    }
}
