//! librcsc's debug-client messages: what an agent believed each cycle, sent live over UDP to
//! a debug server (one S-expression and a NUL per datagram) and written to `TEAM-UNUM.dcl`
//! as `%% step CYCLE` and `%% debug [MESSAGE]` line pairs.
//!
//! A message is `((debug (format-version 5)) (time CYCLE,STOPPED) ITEM…)`, each item a list:
//! `(s SIDE UNUM TYPE X Y VX VY BODY NECK (c "…"))` the agent itself, `(b X Y [VX VY] (c
//! "…"))` the ball, `(t UNUM TYPE X Y …)`, `(o UNUM TYPE X Y …)`, `(ut X Y …)`, `(uo X Y …)`,
//! `(u X Y …)` players (team-mate, opponent, unknown) with optional `(bd BODY)`, `(pt
//! POINTTO)`, `(c "…")`, then `(say "…")`, `(hear …)`, `(target-teammate N)`, `(target-point
//! X Y)`, `(message "…")`, and drawings `(line X1 Y1 X2 Y2 ["COLOUR"])`, `(tri …)`, `(rect
//! LEFT TOP RIGHT BOTTOM …)`, `(circle X Y R …)`.
//!
//! The comments carry how old each belief is: a player's starts `[G][uN]pNvN…` and the ball's
//! `gNrNvN`, where `p` (`g` for the ball) counts the cycles since the position was seen. That
//! count is the confidence shown beside each belief. Strings have no escapes.

use super::drawing::{Drawing, Shape};
use super::{colour, digits, shown, AgentLineError, Point, Time};
use rcss_formats::model::Side;

/// A message is at most this long (librcsc's own buffer is 32 KB); a longer one is refused
/// rather than parsed.
pub const MAX_MESSAGE: usize = 64 << 10;
/// Lists nest no deeper than this in any real message (three levels); deeper is refused, so
/// a hostile message cannot exhaust the stack.
const MAX_DEPTH: usize = 16;

/// One cycle of an agent's world model.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
pub struct WorldModel {
    pub time: Time,
    /// The agent itself, where it knew its position.
    pub me: Option<Me>,
    /// A coach's message (`(s SIDE c)`): no position of its own.
    pub coach: Option<Side>,
    pub ball: Option<BallBelief>,
    pub players: Vec<PlayerBelief>,
    pub say: Option<String>,
    /// What it heard, as librcsc printed it.
    pub hear: Option<String>,
    pub target_teammate: Option<u8>,
    pub target_point: Option<Point>,
    /// Its `message` line: free text, `|`-separated.
    pub message: Option<String>,
    pub drawings: Vec<Drawing>,
}

#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Me {
    pub side: Side,
    pub unum: u8,
    pub player_type: i32,
    pub pos: Point,
    pub vel: Point,
    /// Degrees, absolute.
    pub body: f64,
    /// Degrees, relative to the body.
    pub neck: f64,
    pub pos_count: Option<u32>,
    pub comment: String,
}

#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct BallBelief {
    pub pos: Point,
    pub vel: Option<Point>,
    pub pos_count: Option<u32>,
    pub comment: String,
}

/// Who the agent took a player for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub enum Who {
    Teammate(u8),
    Opponent(u8),
    UnknownTeammate,
    UnknownOpponent,
    Unknown,
}

#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct PlayerBelief {
    pub who: Who,
    pub player_type: Option<i32>,
    pub pos: Point,
    pub body: Option<f64>,
    pub pointto: Option<f64>,
    pub goalie: bool,
    pub pos_count: Option<u32>,
    pub comment: String,
}

/// One record of a `.dcl` file or one datagram, read.
pub fn parse_message(bytes: &[u8]) -> Result<WorldModel, String> {
    let bytes = bytes.strip_suffix(b"\0").unwrap_or(bytes);
    let bytes = bytes.trim_ascii();
    if bytes.len() > MAX_MESSAGE {
        return Err(format!(
            "message of {} bytes, longer than the {MAX_MESSAGE}-byte limit",
            bytes.len()
        ));
    }
    let text = std::str::from_utf8(bytes).map_err(|e| {
        format!(
            "message is not text (byte {} is not UTF-8)",
            e.valid_up_to()
        )
    })?;
    let tree = Reader::new(text).read()?;
    let items = match &tree {
        Node::List(items, _) => items,
        _ => return Err(format!("expected a list, found {}", shown(bytes))),
    };
    let mut it = items.iter();
    match it.next() {
        Some(Node::List(head, _)) if head.first().map(Node::atom) == Some(Some("debug")) => {}
        _ => {
            return Err(format!(
                "expected ((debug (format-version 5)) …), found {}",
                shown(bytes)
            ))
        }
    }
    let mut wm = WorldModel::default();
    for item in it {
        let Node::List(fields, span) = item else {
            return Err(format!(
                "expected an item in brackets, found {}",
                item.text(text)
            ));
        };
        let tag = fields.first().and_then(Node::atom).unwrap_or("");
        let args = &fields[fields.len().min(1)..];
        let bad = |what: &str| format!("({tag} …): {what}, in {}", shown(span.of(text).as_bytes()));
        match tag {
            "time" => {
                let t = args.first().and_then(Node::atom).unwrap_or("");
                wm.time = Time::parse_prefix(t.as_bytes())
                    .filter(|(_, rest)| rest.is_empty())
                    .map(|(t, _)| t)
                    .ok_or_else(|| bad("expected CYCLE,STOPPED"))?;
            }
            "s" => {
                let side = match args.first().and_then(Node::atom) {
                    Some("l") => Side::Left,
                    Some("r") => Side::Right,
                    _ => return Err(bad("expected the side, l or r")),
                };
                if args.get(1).and_then(Node::atom) == Some("c") {
                    wm.coach = Some(side);
                    continue;
                }
                let n = numbers(&args[1..], 8)
                    .ok_or_else(|| bad("expected UNUM TYPE X Y VX VY BODY NECK"))?;
                let comment = comment(&args[9..], text);
                wm.me = Some(Me {
                    side,
                    unum: unum(n[0]).ok_or_else(|| bad("expected a player number 1-11"))?,
                    player_type: n[1] as i32,
                    pos: (n[2], n[3]),
                    vel: (n[4], n[5]),
                    body: n[6],
                    neck: n[7],
                    pos_count: count_after(&comment, b'p'),
                    comment,
                });
            }
            "b" => {
                let nums: Vec<f64> = args.iter().map_while(|a| number(a)).collect();
                if nums.len() != 2 && nums.len() != 4 {
                    return Err(bad("expected X Y [VX VY]"));
                }
                let comment = comment(&args[nums.len()..], text);
                wm.ball = Some(BallBelief {
                    pos: (nums[0], nums[1]),
                    vel: (nums.len() == 4).then(|| (nums[2], nums[3])),
                    pos_count: count_after(&comment, b'g'),
                    comment,
                });
            }
            "t" | "o" | "u" | "ut" | "uo" => {
                let numbered = matches!(tag, "t" | "o");
                let (who, player_type, rest) = if numbered {
                    let n = numbers(args, 2).ok_or_else(|| bad("expected UNUM TYPE"))?;
                    let u = unum(n[0]).ok_or_else(|| bad("expected a player number 1-11"))?;
                    let who = if tag == "t" {
                        Who::Teammate(u)
                    } else {
                        Who::Opponent(u)
                    };
                    (who, (n[1] >= 0.0).then_some(n[1] as i32), &args[2..])
                } else {
                    let who = match tag {
                        "ut" => Who::UnknownTeammate,
                        "uo" => Who::UnknownOpponent,
                        _ => Who::Unknown,
                    };
                    (who, None, args)
                };
                let pos = numbers(rest, 2).ok_or_else(|| bad("expected X Y"))?;
                let mut p = PlayerBelief {
                    who,
                    player_type,
                    pos: (pos[0], pos[1]),
                    body: None,
                    pointto: None,
                    goalie: false,
                    pos_count: None,
                    comment: String::new(),
                };
                for extra in &rest[2..] {
                    let Node::List(kv, _) = extra else { continue };
                    match kv.first().and_then(Node::atom) {
                        Some("bd") => p.body = kv.get(1).and_then(number),
                        Some("pt") => p.pointto = kv.get(1).and_then(number),
                        Some("c") => {
                            p.comment = kv.get(1).map(|c| c.string(text)).unwrap_or_default()
                        }
                        _ => {}
                    }
                }
                p.goalie = p.comment.starts_with('G');
                p.pos_count = count_after(&p.comment, b'p');
                wm.players.push(p);
            }
            "say" => wm.say = Some(args.first().map(|a| a.string(text)).unwrap_or_default()),
            "message" => {
                wm.message = Some(args.first().map(|a| a.string(text)).unwrap_or_default())
            }
            "hear" => {
                let inner = match (args.first(), args.last()) {
                    (Some(a), Some(b)) => text[a.span().start..b.span().end].to_string(),
                    _ => String::new(),
                };
                wm.hear = Some(inner);
            }
            "target-teammate" => {
                wm.target_teammate = args
                    .first()
                    .and_then(number)
                    .and_then(unum)
                    .ok_or_else(|| bad("expected a player number 1-11"))
                    .map(Some)?
            }
            "target-point" => {
                let n = numbers(args, 2).ok_or_else(|| bad("expected X Y"))?;
                wm.target_point = Some((n[0], n[1]));
            }
            "line" | "tri" | "rect" | "circle" => {
                let need = match tag {
                    "line" | "rect" => 4,
                    "tri" => 6,
                    _ => 3,
                };
                let n = numbers(args, need).ok_or_else(|| bad("expected its numbers"))?;
                let c = args
                    .get(need)
                    .map(|c| colour(&c.string(text)))
                    .unwrap_or(None);
                let shape = match tag {
                    "line" => Shape::Line((n[0], n[1]), (n[2], n[3])),
                    "tri" => Shape::Triangle {
                        corners: [(n[0], n[1]), (n[2], n[3]), (n[4], n[5])],
                        filled: false,
                    },
                    "rect" => Shape::Rect {
                        left: n[0].min(n[2]),
                        top: n[1].min(n[3]),
                        width: (n[2] - n[0]).abs(),
                        height: (n[3] - n[1]).abs(),
                        filled: false,
                    },
                    _ => Shape::Circle {
                        centre: (n[0], n[1]),
                        radius: n[2],
                        filled: false,
                    },
                };
                wm.drawings.push(Drawing { shape, colour: c });
            }
            // Items of later format versions are passed over, not refused.
            _ => {}
        }
    }
    Ok(wm)
}

/// One cycle of a `.dcl` file, read from whole lines as the [`super::index`] cuts them:
/// the world models in it (normally one) and an error for each record that could not be read.
pub fn decode(text: &[u8], first_line: u64) -> (Vec<WorldModel>, Vec<AgentLineError>) {
    let mut out = Vec::new();
    let mut errors = Vec::new();
    for (i, line) in text.split(|&b| b == b'\n').enumerate() {
        let number = first_line + i as u64;
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        if line.is_empty() || line.starts_with(b"%% step ") {
            continue;
        }
        let Some(body) = line
            .strip_prefix(b"%% debug [")
            .and_then(|b| b.strip_suffix(b"]"))
        else {
            errors.push(AgentLineError::new(
                number,
                format!(
                    "expected \"%% step N\" or \"%% debug […]\", found {}",
                    shown(line)
                ),
            ));
            continue;
        };
        match parse_message(body) {
            Ok(wm) => out.push(wm),
            Err(e) => errors.push(AgentLineError::new(number, e)),
        }
    }
    (out, errors)
}

fn unum(n: f64) -> Option<u8> {
    (1.0..=11.0)
        .contains(&n)
        .then_some(n as u8)
        .filter(|u| f64::from(*u) == n)
}

/// The number after the first `tag` that a digit follows, in a belief's comment.
fn count_after(comment: &str, tag: u8) -> Option<u32> {
    let b = comment.as_bytes();
    (0..b.len())
        .filter(|&i| b[i] == tag)
        .find_map(|i| digits(&b[i + 1..]).map(|(n, _)| n))
}

fn number(n: &Node) -> Option<f64> {
    n.atom()?.parse::<f64>().ok().filter(|v| v.is_finite())
}

fn numbers(args: &[Node], n: usize) -> Option<Vec<f64>> {
    let v: Vec<f64> = args.iter().take(n).map_while(number).collect();
    (v.len() == n).then_some(v)
}

fn comment(rest: &[Node], text: &str) -> String {
    rest.iter()
        .find_map(|n| match n {
            Node::List(kv, _) if kv.first().and_then(Node::atom) == Some("c") => {
                Some(kv.get(1).map(|c| c.string(text)).unwrap_or_default())
            }
            _ => None,
        })
        .unwrap_or_default()
}

#[derive(Clone, Copy, Debug)]
struct Span {
    start: usize,
    end: usize,
}

impl Span {
    fn of<'t>(&self, text: &'t str) -> &'t str {
        &text[self.start..self.end]
    }
}

#[derive(Debug)]
enum Node<'a> {
    Atom(&'a str, Span),
    Str(&'a str, Span),
    List(Vec<Node<'a>>, Span),
}

impl<'a> Node<'a> {
    fn atom(&self) -> Option<&'a str> {
        match self {
            Node::Atom(a, _) => Some(a),
            _ => None,
        }
    }
    fn span(&self) -> Span {
        match self {
            Node::Atom(_, s) | Node::Str(_, s) | Node::List(_, s) => *s,
        }
    }
    /// A string's contents, an atom's text, a list's text.
    fn string(&self, text: &str) -> String {
        match self {
            Node::Str(s, _) | Node::Atom(s, _) => (*s).to_string(),
            Node::List(_, span) => span.of(text).to_string(),
        }
    }
    fn text(&self, text: &str) -> String {
        shown(self.span().of(text).as_bytes())
    }
}

struct Reader<'a> {
    text: &'a str,
    i: usize,
}

impl<'a> Reader<'a> {
    fn new(text: &'a str) -> Reader<'a> {
        Reader { text, i: 0 }
    }

    fn read(mut self) -> Result<Node<'a>, String> {
        let node = self.node(0)?;
        self.skip_space();
        if self.i != self.text.len() {
            return Err(format!(
                "text after the message's last bracket at byte {}: {}",
                self.i,
                shown(&self.text.as_bytes()[self.i..])
            ));
        }
        Ok(node)
    }

    fn skip_space(&mut self) {
        let b = self.text.as_bytes();
        while self.i < b.len() && b[self.i].is_ascii_whitespace() {
            self.i += 1;
        }
    }

    fn node(&mut self, depth: usize) -> Result<Node<'a>, String> {
        self.skip_space();
        let b = self.text.as_bytes();
        let start = self.i;
        match b.get(self.i) {
            None => Err(format!("the message ends early, at byte {start}")),
            Some(b'(') => {
                if depth >= MAX_DEPTH {
                    return Err(format!(
                        "brackets nested deeper than {MAX_DEPTH}, at byte {start}"
                    ));
                }
                self.i += 1;
                let mut items = Vec::new();
                loop {
                    self.skip_space();
                    match b.get(self.i) {
                        None => {
                            return Err(format!(
                                "the bracket opened at byte {start} is never closed"
                            ))
                        }
                        Some(b')') => {
                            self.i += 1;
                            return Ok(Node::List(items, Span { start, end: self.i }));
                        }
                        Some(_) => items.push(self.node(depth + 1)?),
                    }
                }
            }
            Some(b')') => Err(format!("a closing bracket with none open, at byte {start}")),
            Some(b'"') => {
                let rest = &b[start + 1..];
                let n = rest
                    .iter()
                    .position(|&c| c == b'"')
                    .ok_or_else(|| format!("the string at byte {start} is never closed"))?;
                self.i = start + 1 + n + 1;
                Ok(Node::Str(
                    &self.text[start + 1..start + 1 + n],
                    Span { start, end: self.i },
                ))
            }
            Some(_) => {
                while self.i < b.len()
                    && !b[self.i].is_ascii_whitespace()
                    && !b"()\"".contains(&b[self.i])
                {
                    self.i += 1;
                }
                Ok(Node::Atom(
                    &self.text[start..self.i],
                    Span { start, end: self.i },
                ))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MSG: &str = r##"((debug (format-version 5)) (time 120,0) (s l 7 3 -10.51 4.2 0.31 -0.02 45.3 -30 (c "p0v0(0.312 -0.021)f0")) (b -8.1 3.9 1.2 0.4 (c "g1r1v2")) (t 8 0 -5.1 10.2 (bd 90) (c "u0p2v3(0.1 0.2)f2,12")) (t 1 -1 -48.0 0.1 (c "Gu3p5v9f5,30")) (o 9 2 -20.0 -5 (bd -179) (pt 45) (c "u1p0v0f0t,8|marked")) (ut 1.5 2.5 (c "p4v100f100,5")) (uo 30 0.5 (c "p7v100f100,40")) (u 40 -30 (c "p20v100f100,99")) (say "pass {abc}") (hear (8 "xyz")) (target-teammate 8) (target-point -5.5 10) (message "Pass|to 8|") (line 0 0 1 1 "red") (tri 0 0 1 0 0 1) (rect -1 -2 3 4 "#00ff00") (circle 5 5 2 ""))"##;

    #[test]
    fn a_whole_message() {
        let wm = parse_message(format!("{MSG}\0").as_bytes()).unwrap();
        assert_eq!(
            wm.time,
            Time {
                cycle: 120,
                stopped: 0
            }
        );
        let me = wm.me.as_ref().unwrap();
        assert_eq!((me.side, me.unum, me.player_type), (Side::Left, 7, 3));
        assert_eq!(me.pos, (-10.51, 4.2));
        assert_eq!((me.body, me.neck), (45.3, -30.0));
        assert_eq!(me.pos_count, Some(0));
        let ball = wm.ball.as_ref().unwrap();
        assert_eq!(ball.pos, (-8.1, 3.9));
        assert_eq!(ball.vel, Some((1.2, 0.4)));
        assert_eq!(ball.pos_count, Some(1));
        assert_eq!(wm.players.len(), 6);
        assert_eq!(wm.players[0].who, Who::Teammate(8));
        assert_eq!(wm.players[0].body, Some(90.0));
        assert_eq!(wm.players[0].pos_count, Some(2));
        assert!(wm.players[1].goalie);
        assert_eq!(wm.players[1].player_type, None);
        assert_eq!(wm.players[1].pos_count, Some(5));
        assert_eq!(wm.players[2].who, Who::Opponent(9));
        assert_eq!(wm.players[2].pointto, Some(45.0));
        assert_eq!(wm.players[2].comment, "u1p0v0f0t,8|marked");
        assert_eq!(wm.players[3].who, Who::UnknownTeammate);
        assert_eq!(wm.players[4].who, Who::UnknownOpponent);
        assert_eq!(wm.players[5].who, Who::Unknown);
        assert_eq!(wm.players[5].pos_count, Some(20));
        assert_eq!(wm.say.as_deref(), Some("pass {abc}"));
        assert_eq!(wm.hear.as_deref(), Some("(8 \"xyz\")"));
        assert_eq!(wm.target_teammate, Some(8));
        assert_eq!(wm.target_point, Some((-5.5, 10.0)));
        assert_eq!(wm.message.as_deref(), Some("Pass|to 8|"));
        assert_eq!(wm.drawings.len(), 4);
        assert_eq!(wm.drawings[0].colour, Some([255, 0, 0, 255]));
        assert_eq!(
            wm.drawings[2].shape,
            Shape::Rect {
                left: -1.0,
                top: -2.0,
                width: 4.0,
                height: 6.0,
                filled: false
            }
        );
        assert_eq!(wm.drawings[3].colour, None);
    }

    #[test]
    fn dcl_lines_and_their_errors() {
        let text = format!(
            "%% step 120\n%% debug [{MSG}]\n%% step 121\n%% debug [((debug (format-version 5)) (time 121,0) (b 1 2 3))]\n%% debug [((debug (format-version 5)) (time 122,0) (b 1 2 (c \"g0\")))]\nrubbish\n"
        );
        let (wms, errors) = decode(text.as_bytes(), 40);
        assert_eq!(wms.len(), 2, "{errors:?}");
        assert_eq!(wms[1].time.cycle, 122);
        assert_eq!(errors.len(), 2, "{errors:?}");
        assert_eq!(errors[0].line, 43);
        assert!(
            errors[0].what.contains("expected X Y [VX VY]"),
            "{}",
            errors[0]
        );
        assert_eq!(errors[1].line, 45);
    }

    #[test]
    fn hostile_messages_are_refused_with_a_reason() {
        for (bad, says) in [
            ("", "ends early"),
            ("((debug (format-version 5)) (time 1,0)", "never closed"),
            ("((debug) (b 1 2)) extra", "text after"),
            ("((debug) (s l 12 0 0 0 0 0 0 0))", "player number"),
            ("((debug) (say \"unclosed))", "never closed"),
            ("(a)", "expected ((debug"),
            (")", "closing bracket"),
        ] {
            let e = parse_message(bad.as_bytes()).unwrap_err();
            assert!(e.contains(says), "{bad:?}: {e}");
        }
        let deep = format!("((debug) {}{})", "(".repeat(100), ")".repeat(100));
        assert!(parse_message(deep.as_bytes())
            .unwrap_err()
            .contains("deeper"));
        let long = format!("((debug) (message \"{}\"))", "x".repeat(MAX_MESSAGE));
        assert!(parse_message(long.as_bytes())
            .unwrap_err()
            .contains("limit"));
        assert!(parse_message(b"((debug) (b \xff 1))")
            .unwrap_err()
            .contains("UTF-8"));
        // A coach's message has a side and no position.
        let coach =
            parse_message(b"((debug (format-version 5)) (time 5,0) (s r c) (b 0 0))").unwrap();
        assert_eq!(coach.coach, Some(Side::Right));
        assert!(coach.me.is_none());
    }
}
