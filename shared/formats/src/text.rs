//! The S-expression records of text monitor shows (versions 3-5) and text logs (ULG4-6).
//!
//! One record is one line (log) or one datagram (live). The parser walks the bytes once with a
//! cursor and never allocates for numbers; it accepts every show shape the real server sends
//! (v3/v4/v5 player layouts, with or without `(pm)`/`(tm)`, optional point-to, focus point and
//! attention fields) because a v5 monitor may receive any of them (server show-cache bug).

use crate::error::Fail;
pub use crate::format::{Detail, ShowShape};
use crate::model::{
    Ball, Counts, Frame, Message, ParamValue, Params, PenaltyTally, Player, Record, Side, Stamina,
    Team, ViewQuality,
};
use crate::number::{parse_f64_prefix, parse_u64_prefix};
use crate::playmode::PlayMode;
use crate::team_graphic::parse_team_graphic;

mod head;
mod rest;
use head::head_as_written;
use rest::rest_as_written;

/// Limit on parameters in one params record, so hostile input cannot grow memory unboundedly.
const MAX_PARAMS: usize = 1024;

pub(crate) struct Cursor<'a> {
    pub buf: &'a [u8],
    pub pos: usize,
}

type R<T> = Result<T, Fail>;

/// Kept out of line: the hot token readers then inline to a few instructions.
#[cold]
#[inline(never)]
fn fail_at(pos: usize, expected: &'static str) -> Fail {
    Fail { pos, expected }
}

impl<'a> Cursor<'a> {
    pub fn new(buf: &'a [u8]) -> Self {
        Cursor { buf, pos: 0 }
    }

    fn fail<T>(&self, expected: &'static str) -> R<T> {
        Err(fail_at(self.pos, expected))
    }

    #[inline(always)]
    fn skip_ws(&mut self) {
        // Tokens are separated by one space: test for that before looping.
        if self.buf.get(self.pos) == Some(&b' ') {
            self.pos += 1;
        }
        while let Some(b' ' | b'\t' | b'\r' | b'\n') = self.buf.get(self.pos) {
            self.pos += 1;
        }
    }

    #[inline]
    fn peek(&self) -> Option<u8> {
        self.buf.get(self.pos).copied()
    }

    /// Skips spaces, then consumes `lit` if it is next. Compared byte by byte: the literals
    /// are a few bytes long, and a `memcmp` call per token showed up in profiles.
    #[inline(always)]
    fn eat(&mut self, lit: &[u8]) -> bool {
        self.skip_ws();
        let rest = &self.buf[self.pos..];
        if rest.len() < lit.len() {
            return false;
        }
        for (a, b) in lit.iter().zip(rest) {
            if a != b {
                return false;
            }
        }
        self.pos += lit.len();
        true
    }

    #[inline]
    fn expect(&mut self, lit: &[u8], what: &'static str) -> R<()> {
        if self.eat(lit) {
            Ok(())
        } else {
            self.fail(what)
        }
    }

    #[inline(always)]
    fn f32(&mut self, what: &'static str) -> R<f32> {
        self.skip_ws();
        match crate::number::parse_f32_prefix(&self.buf[self.pos..]) {
            Some((v, n)) => {
                self.pos += n;
                Ok(v)
            }
            None => self.fail(what),
        }
    }

    #[inline(always)]
    fn u64(&mut self, what: &'static str) -> R<u64> {
        self.skip_ws();
        match parse_u64_prefix(&self.buf[self.pos..]) {
            Some((v, n)) => {
                self.pos += n;
                Ok(v)
            }
            None => self.fail(what),
        }
    }

    #[inline(always)]
    fn u32(&mut self, what: &'static str) -> R<u32> {
        let start = self.pos;
        let v = self.u64(what)?;
        u32::try_from(v).or_else(|_| {
            self.pos = start;
            self.fail(what)
        })
    }

    #[inline]
    fn i64(&mut self, what: &'static str) -> R<i64> {
        self.skip_ws();
        let neg = self.peek() == Some(b'-');
        if neg {
            self.pos += 1;
        }
        let v = self.u64(what)?;
        let v = i64::try_from(v).or_else(|_| self.fail(what))?;
        Ok(if neg { -v } else { v })
    }

    /// A bare word: up to the next space or parenthesis.
    fn word(&mut self, what: &'static str) -> R<&'a [u8]> {
        self.skip_ws();
        let start = self.pos;
        while let Some(c) = self.peek() {
            if matches!(c, b' ' | b'(' | b')' | b'\t' | b'\r' | b'\n') {
                break;
            }
            self.pos += 1;
        }
        if self.pos == start {
            self.fail(what)
        } else {
            Ok(&self.buf[start..self.pos])
        }
    }

    fn side(&mut self) -> R<Side> {
        self.skip_ws();
        match self.peek().and_then(Side::from_letter) {
            Some(s) => {
                self.pos += 1;
                Ok(s)
            }
            None => self.fail("side l or r"),
        }
    }

    /// State bits: hex with `0x`, or a plain `0`.
    #[inline(always)]
    fn state(&mut self) -> R<u32> {
        self.skip_ws();
        if self.buf[self.pos..].starts_with(b"0x") {
            self.pos += 2;
            let start = self.pos;
            let mut v: u32 = 0;
            while let Some(d) = self.peek().and_then(|c| (c as char).to_digit(16)) {
                v = match v.checked_mul(16) {
                    Some(v) => v | d,
                    None => return self.fail("state bits that fit 32 bits"),
                };
                self.pos += 1;
            }
            if self.pos == start {
                return self.fail("hex state bits");
            }
            Ok(v)
        } else {
            self.u32("state bits")
        }
    }

    fn at_end(&mut self) -> bool {
        self.skip_ws();
        while self.peek() == Some(0) {
            self.pos += 1;
        }
        self.pos >= self.buf.len()
    }
}

/// Parses `(show T [(pm N)] [(tm …)] ((b) …) PLAYER×22)`.
#[cfg(test)]
pub(crate) fn parse_show(buf: &[u8]) -> R<(Frame, ShowShape)> {
    parse_show_with(buf, Detail::Full)
}

/// Parses `(show T [(pm N)] [(tm …)] ((b) …) PLAYER×22)`, reading players as `detail` says.
pub(crate) fn parse_show_with(buf: &[u8], detail: Detail) -> R<(Frame, ShowShape)> {
    let mut c = Cursor::new(buf);
    c.expect(b"(show", "(show")?;
    let time = c.u32("show time")?;
    let mut frame = Frame {
        time,
        players: Vec::with_capacity(22),
        ..Frame::default()
    };
    let mut shape = ShowShape::default();
    if c.eat(b"(pm") {
        let n = c.u32("play mode number")?;
        frame.mode = match PlayMode::from_index(n) {
            Some(m) => m,
            None => {
                return Err(Fail {
                    pos: c.pos - 1,
                    expected: "a play mode number 0..51",
                })
            }
        };
        c.expect(b")", ") after play mode")?;
        shape.has_mode = true;
    }
    if c.eat(b"(tm") {
        frame.teams = parse_team_fields(&mut c)?;
        c.expect(b")", ") after team fields")?;
        shape.has_teams = true;
    }
    c.expect(b"((b)", "((b) ball")?;
    frame.ball = Ball {
        x: c.f32("ball x")?,
        y: c.f32("ball y")?,
        vx: c.f32("ball vx")?,
        vy: c.f32("ball vy")?,
        z: 0.0,
    };
    // The 2.5D fork's monitor protocol 6 and ULG7 give the ball's height after its velocity.
    if !c.eat(b")") {
        frame.ball.z = c.f32("ball height or ) after ball")?;
        c.expect(b")", ") after ball")?;
    }
    for _ in 0..22 {
        // Filled in place: a Player is ~150 bytes, and moving it was a visible cost.
        frame.players.push(Player::default());
        if let Some(p) = frame.players.last_mut() {
            match detail {
                Detail::Full => parse_player(&mut c, p)?,
                Detail::Light => parse_player_light(&mut c, p)?,
            }
        }
    }
    c.expect(b")", ") closing the show")?;
    if !c.at_end() {
        return c.fail("end of show after 22 players");
    }
    Ok((frame, shape))
}

fn parse_player(c: &mut Cursor<'_>, p: &mut Player) -> R<()> {
    c.expect(b"((", "((SIDE UNUM) player")?;
    let side = c.side()?;
    let unum = c.u32("uniform number")?;
    if !(1..=11).contains(&unum) {
        return c.fail("uniform number 1..11");
    }
    c.expect(b")", ") after uniform number")?;
    let player_type = c.i64("player type")?;
    p.player_type = i16::try_from(player_type).or_else(|_| c.fail("player type"))?;
    p.side = Some(side);
    p.unum = unum as u8;
    p.state = c.state()?;
    p.x = c.f32("player x")?;
    p.y = c.f32("player y")?;
    p.vx = c.f32("player vx")?;
    p.vy = c.f32("player vy")?;
    p.body = c.f32("body angle")?;
    p.neck = c.f32("neck angle")?;
    c.skip_ws();
    if c.peek() != Some(b'(') {
        let px = c.f32("point-to x or (v")?;
        let py = c.f32("point-to y")?;
        p.point = Some((px, py));
    }
    c.expect(b"(v", "(v QUALITY WIDTH)")?;
    c.skip_ws();
    // librcsc's `rcgverconv`, converting from a JSON log, writes the quality as the byte 1
    // (it was `h`) or 0 (`l`): the boolean its JSON reader made of it. That is what the
    // converted match had, so it is read as such.
    let q = match c.peek() {
        Some(b'h' | 1) => ViewQuality::High,
        Some(b'l' | 0) => ViewQuality::Low,
        _ => return c.fail("view quality h or l"),
    };
    c.pos += 1;
    let width = c.f32("view width")?;
    p.view = Some((q, width));
    c.expect(b")", ") after view")?;
    if c.eat(b"(fp") {
        let d = c.f32("focus distance")?;
        let dir = c.f32("focus direction")?;
        p.focus = Some((d, dir));
        c.expect(b")", ") after focus point")?;
    }
    c.expect(b"(s", "(s STAMINA EFFORT RECOVERY [CAPACITY])")?;
    let mut st = Stamina {
        stamina: c.f32("stamina")?,
        effort: c.f32("effort")?,
        recovery: c.f32("recovery")?,
        capacity: None,
    };
    if !c.eat(b")") {
        st.capacity = Some(c.f32("stamina capacity")?);
        c.expect(b")", ") after stamina")?;
    }
    p.stamina = Some(st);
    if c.eat(b"(f") {
        let s = c.side()?;
        let n = c.u32("attention uniform number")?;
        p.attention = Some((s, n.min(255) as u8));
        c.expect(b")", ") after attention")?;
    }
    c.expect(b"(c", "(c COUNTS…)")?;
    let mut counts = Counts::default();
    loop {
        if c.eat(b")") {
            break;
        }
        if counts.len as usize >= counts.values.len() {
            return c.fail("at most 12 counts");
        }
        counts.values[counts.len as usize] = c.u32("command count")?;
        counts.len += 1;
    }
    p.counts = Some(counts);
    c.expect(b")", ") closing the player")?;
    Ok(())
}

/// The side, number, type, state and position of a player; the rest of him is checked, not
/// kept. It accepts and refuses exactly what [`parse_player`] does, so the light and full
/// readings of a log give the same answer: the rest is first checked against the form
/// rcssserver writes ([`rest_as_written`], several times faster than reading its numbers), and
/// anything else is read by [`parse_player`] itself.
fn parse_player_light(c: &mut Cursor<'_>, p: &mut Player) -> R<()> {
    let start = c.pos;
    match head_as_written(&c.buf[start..], p) {
        Some(head) => c.pos = start + head,
        None => read_head(c, p)?,
    }
    if let Some(end) = rest_as_written(&c.buf[c.pos..]) {
        c.pos += end;
        return Ok(());
    }
    // Something else (damage, or a form rcssserver does not write): the full reading says
    // what is wrong, or reads it.
    c.pos = start;
    let mut full = Player::default();
    parse_player(c, &mut full)?;
    Ok(())
}

/// A player's side, number, type, state and position, in any form [`parse_player`] reads,
/// for [`parse_player_light`]: what [`head_as_written`] leaves.
fn read_head(c: &mut Cursor<'_>, p: &mut Player) -> R<()> {
    c.expect(b"((", "((SIDE UNUM) player")?;
    let side = c.side()?;
    let unum = c.u32("uniform number")?;
    if !(1..=11).contains(&unum) {
        return c.fail("uniform number 1..11");
    }
    c.expect(b")", ") after uniform number")?;
    c.skip_ws();
    // Types are small and never negative in practice: the inlined unsigned reader first.
    let player_type = match c.peek() {
        Some(b'-') => c.i64("player type")?,
        _ => i64::from(c.u32("player type")?),
    };
    p.player_type = i16::try_from(player_type).or_else(|_| c.fail("player type"))?;
    p.side = Some(side);
    p.unum = unum as u8;
    p.state = c.state()?;
    p.x = c.f32("player x")?;
    p.y = c.f32("player y")?;
    Ok(())
}

/// `L R SL SR [LPS LPM RPS RPM]` as in `(tm …)` and `(team T …)`.
fn parse_team_fields(c: &mut Cursor<'_>) -> R<[Team; 2]> {
    let name = |w: &[u8]| -> Option<String> {
        (w != b"null" && !w.is_empty()).then(|| String::from_utf8_lossy(w).into_owned())
    };
    let l = name(c.word("left team name")?);
    let r = name(c.word("right team name")?);
    let sl = c.u32("left score")?;
    let sr = c.u32("right score")?;
    let mut teams = [
        Team {
            name: l,
            score: sl,
            penalty: None,
        },
        Team {
            name: r,
            score: sr,
            penalty: None,
        },
    ];
    c.skip_ws();
    if c.peek() != Some(b')') {
        let lps = c.u32("left penalties scored")?;
        let lpm = c.u32("left penalties missed")?;
        let rps = c.u32("right penalties scored")?;
        let rpm = c.u32("right penalties missed")?;
        teams[0].penalty = Some(PenaltyTally {
            scored: lps,
            missed: lpm,
        });
        teams[1].penalty = Some(PenaltyTally {
            scored: rps,
            missed: rpm,
        });
    }
    Ok(teams)
}

/// `(msg T BOARD "TEXT")`. The text runs to the last `")` of the record: real logs hold
/// unescaped quotes (team graphics) and trailing garbage inside it.
pub(crate) fn parse_msg(buf: &[u8]) -> R<Message> {
    let mut c = Cursor::new(buf);
    c.expect(b"(msg", "(msg")?;
    let time = c.u32("msg time")?;
    let board = c.i64("msg board")?;
    let board = i32::try_from(board).or_else(|_| c.fail("msg board"))?;
    c.expect(b"\"", "\" opening the msg text")?;
    let start = c.pos;
    let mut end = buf.len();
    while end > start && matches!(buf[end - 1], 0 | b'\n' | b'\r' | b' ') {
        end -= 1;
    }
    if end < start + 2 || &buf[end - 2..end] != b"\")" {
        return Err(Fail {
            pos: end,
            expected: "\") closing the msg",
        });
    }
    Ok(Message {
        time,
        board,
        text: buf[start..end - 2].to_vec(),
    })
}

/// `(playmode T NAME)`.
pub(crate) fn parse_playmode(buf: &[u8]) -> R<(u32, PlayMode)> {
    let mut c = Cursor::new(buf);
    c.expect(b"(playmode", "(playmode")?;
    let time = c.u32("playmode time")?;
    let start = c.pos;
    let name = c.word("play mode name")?;
    let mode = PlayMode::from_name(name).ok_or(Fail {
        pos: start + 1,
        expected: "a known play mode name",
    })?;
    c.expect(b")", ") closing playmode")?;
    Ok((time, mode))
}

/// `(team T L R SL SR [pen…])`.
pub(crate) fn parse_team(buf: &[u8]) -> R<(u32, [Team; 2])> {
    let mut c = Cursor::new(buf);
    c.expect(b"(team", "(team")?;
    let time = c.u32("team time")?;
    let teams = parse_team_fields(&mut c)?;
    c.expect(b")", ") closing team")?;
    Ok((time, teams))
}

/// `(server_param (name value)…)`, `(player_param …)`, `(player_type (id N)…)`.
pub(crate) fn parse_params(buf: &[u8], head: &[u8]) -> R<Params> {
    let mut c = Cursor::new(buf);
    c.expect(head, "a params record")?;
    let mut entries = Vec::new();
    loop {
        if c.eat(b")") {
            break;
        }
        c.expect(b"(", "( opening a parameter")?;
        let name = c.word("parameter name")?;
        let name = String::from_utf8_lossy(name).into_owned();
        c.skip_ws();
        let value = if c.peek() == Some(b'"') {
            let start = c.pos + 1;
            let len = match buf[start..].iter().position(|&b| b == b'"') {
                Some(l) => l,
                None => return c.fail("closing \" of a text parameter"),
            };
            c.pos = start + len + 1;
            ParamValue::Text(String::from_utf8_lossy(&buf[start..start + len]).into_owned())
        } else {
            let w = c.word("parameter value")?;
            if w == b"true" {
                ParamValue::Bool(true)
            } else if w == b"false" {
                ParamValue::Bool(false)
            } else if w.iter().all(|b| b.is_ascii_digit() || *b == b'-') {
                match std::str::from_utf8(w).ok().and_then(|s| s.parse().ok()) {
                    Some(i) => ParamValue::Int(i),
                    None => return c.fail("an integer parameter value"),
                }
            } else {
                match parse_f64_prefix(w) {
                    Some((v, n)) if n == w.len() => ParamValue::Float(v),
                    _ => ParamValue::Text(String::from_utf8_lossy(w).into_owned()),
                }
            }
        };
        c.expect(b")", ") closing a parameter")?;
        if entries.len() >= MAX_PARAMS {
            return c.fail("at most 1024 parameters");
        }
        entries.push((name, value));
    }
    Ok(Params { entries })
}

/// The record kind of a text line, for error messages.
pub(crate) fn kind_of(line: &[u8]) -> &'static str {
    for (head, kind) in [
        (&b"(show "[..], "show"),
        (b"(msg ", "msg"),
        (b"(playmode ", "playmode"),
        (b"(team ", "team"),
        (b"(server_param", "server_param"),
        (b"(player_param", "player_param"),
        (b"(player_type", "player_type"),
    ] {
        if line.starts_with(head) {
            return kind;
        }
    }
    "unknown"
}

/// One line of a text log (not its `ULG` header) into `out`; `false` where it is not a
/// record rcssserver writes, and then nothing is added. [`crate::LogDecoder`] says where and
/// why; this is for callers that only need to know (a fast path that falls back to it).
pub fn parse_line(line: &[u8], out: &mut Vec<Record>) -> bool {
    let before = out.len();
    let ok = parse_record(line, out).is_ok();
    if !ok {
        out.truncate(before);
    }
    ok
}

/// Parses one text record (a log line or a text datagram without its NUL) into records:
/// a team-graphic msg yields the msg and its tile.
pub(crate) fn parse_record(line: &[u8], out: &mut Vec<Record>) -> Result<ShowShape, Fail> {
    parse_record_with(line, out, Detail::Full)
}

/// [`parse_record`], reading shows as `detail` says.
pub(crate) fn parse_record_with(
    line: &[u8],
    out: &mut Vec<Record>,
    detail: Detail,
) -> Result<ShowShape, Fail> {
    match kind_of(line) {
        "show" => {
            let (frame, shape) = parse_show_with(line, detail)?;
            out.push(Record::Show(frame));
            return Ok(shape);
        }
        "msg" => {
            let m = parse_msg(line)?;
            let tile = parse_team_graphic(&m.text);
            out.push(Record::Msg(m));
            if let Some(t) = tile {
                out.push(Record::TeamGraphic(t));
            }
        }
        "playmode" => {
            let (time, mode) = parse_playmode(line)?;
            out.push(Record::PlayMode { time, mode });
        }
        "team" => {
            let (time, teams) = parse_team(line)?;
            out.push(Record::Team {
                time: Some(time),
                teams,
            });
        }
        "server_param" => out.push(Record::ServerParam(parse_params(line, b"(server_param")?)),
        "player_param" => out.push(Record::PlayerParam(parse_params(line, b"(player_param")?)),
        "player_type" => out.push(Record::PlayerType(parse_params(line, b"(player_type")?)),
        _ => {
            return Err(Fail {
                pos: 0,
                expected: "(show, (msg, (playmode, (team or a params record",
            })
        }
    }
    Ok(ShowShape::default())
}

#[cfg(test)]
mod tests {
    use super::*;

    const V5_LIVE: &[u8] = b"(show 1132 (pm 3) (tm HELIOS_L HELIOS_R 0 1) ((b) -19.9997 -16.9524 0.2946 0.3614) ((l 10) 16 0x1 -10.4958 19.7347 -0 -0 -102.887 -5 (v h 180) (fp 0 0) (s 6355.02 0.800302 1 77301) (c 11 723 523 0 2 1259 76 165 0 0 1190 0))";

    fn show_with(player: &str, n: usize) -> Vec<u8> {
        let mut s = String::from("(show 7 (pm 3) (tm A null 1 0) ((b) 1 2 3 4)");
        for i in 0..n {
            let side = if i < 11 { 'l' } else { 'r' };
            s.push(' ');
            s.push_str(
                &player
                    .replace("SIDE", &side.to_string())
                    .replace("UNUM", &(i % 11 + 1).to_string()),
            );
        }
        s.push(')');
        s.into_bytes()
    }

    #[test]
    fn v5_player_fields() {
        let text = std::str::from_utf8(V5_LIVE).unwrap();
        let player = &text[text.find("((l 10)").unwrap()..];
        let tmpl = player.replace("(l 10)", "(SIDE UNUM)");
        let (frame, shape) = parse_show(&show_with(&tmpl, 22)).unwrap();
        assert!(shape.has_mode && shape.has_teams);
        assert_eq!(frame.teams[0].name.as_deref(), Some("A"));
        assert_eq!(frame.teams[1].name, None);
        let p = &frame.players[9];
        assert_eq!(
            (p.side, p.unum, p.player_type, p.state),
            (Some(Side::Left), 10, 16, 1)
        );
        assert_eq!(
            (p.x, p.y, p.body, p.neck),
            (-10.4958, 19.7347, -102.887, -5.0)
        );
        assert_eq!(p.focus, Some((0.0, 0.0)));
        assert_eq!(p.stamina.unwrap().capacity, Some(77301.0));
        assert_eq!(p.counts.unwrap().len, 12);
        assert_eq!(p.counts.unwrap().values[Counts::CHANGE_VIEW], 76);
        assert_eq!(frame.players[12].side, Some(Side::Right));
    }

    #[test]
    fn v3_shape_with_point_to_and_attention() {
        let tmpl = "((SIDE UNUM) 0 0x9 -50.0706 1.8438 0 0 -88.613 87 12.5 -3 (v l 60) (s 8000 1 1) (f l 8) (c 0 146 503 0 2 651 15 81 0 0 576))";
        let (frame, shape) = parse_show(&show_with(tmpl, 22)).unwrap();
        assert!(shape.has_mode);
        let p = &frame.players[0];
        assert_eq!(p.point, Some((12.5, -3.0)));
        assert_eq!(p.view, Some((ViewQuality::Low, 60.0)));
        assert_eq!(p.attention, Some((Side::Left, 8)));
        assert_eq!(p.stamina.unwrap().capacity, None);
        assert_eq!(p.counts.unwrap().len, 11);
    }

    #[test]
    fn rejects_what_is_not_a_show_with_a_position() {
        let tmpl =
            "((SIDE UNUM) 0 0x9 -50.0706 1.8438 0 0 -88.613 87 (v h 180) (s 8000 1 1) (c 0))";
        assert!(parse_show(&show_with(tmpl, 22)).is_ok());
        let err = parse_show(&show_with(tmpl, 21)).unwrap_err();
        assert_eq!(err.expected, "((SIDE UNUM) player");
        let bad = show_with(&tmpl.replace("1.8438", "abc"), 22);
        let err = parse_show(&bad).unwrap_err();
        assert_eq!(err.expected, "player y");
        assert_eq!(&bad[err.pos..err.pos + 3], b"abc");
    }

    #[test]
    fn light_shows_keep_what_events_need_and_check_the_shape() {
        let text = std::str::from_utf8(V5_LIVE).unwrap();
        let tmpl = text[text.find("((l 10)").unwrap()..].replace("(l 10)", "(SIDE UNUM)");
        let show = show_with(&tmpl, 22);
        let (full, _) = parse_show(&show).unwrap();
        let (light, shape) = parse_show_with(&show, Detail::Light).unwrap();
        assert!(shape.has_mode && shape.has_teams);
        assert_eq!(
            (light.time, light.mode, light.ball),
            (full.time, full.mode, full.ball)
        );
        for (l, f) in light.players.iter().zip(&full.players) {
            assert_eq!(
                (l.side, l.unum, l.player_type, l.state, l.x, l.y),
                (f.side, f.unum, f.player_type, f.state, f.x, f.y)
            );
            assert_eq!((l.stamina, l.counts, l.view), (None, None, None));
        }
        let err = parse_show_with(&show_with(&tmpl, 21), Detail::Light).unwrap_err();
        assert_eq!(err.expected, "((SIDE UNUM) player");
        let err = parse_show_with(&show_with(&tmpl, 23), Detail::Light).unwrap_err();
        assert_eq!(err.expected, ") closing the show");
        let bad = show_with(&tmpl.replace("-10.4958", "x"), 22);
        let err = parse_show_with(&bad, Detail::Light).unwrap_err();
        assert_eq!(err.expected, "player x");
        let cut = &show[..show.len() - 40];
        assert!(parse_show_with(cut, Detail::Light).is_err());
    }

    #[test]
    fn msg_text_ends_at_the_last_quote_paren() {
        let m = parse_msg(
            b"(msg 0 1 \"(team_graphic_l (22 3 \"8 8 1 1\" \"w c gray100\" \"wwwwwwww\"))\")",
        )
        .unwrap();
        assert_eq!(
            m.text,
            b"(team_graphic_l (22 3 \"8 8 1 1\" \"w c gray100\" \"wwwwwwww\"))"
        );
        let t = parse_team_graphic(&m.text).unwrap();
        assert_eq!((t.side, t.x, t.y, t.xpm.len()), (Side::Left, 22, 3, 3));
        let m =
            parse_msg(b"(msg 0 2 \"Recv REC_L_10: (init REC_L (version 18))\xe4\xf8\x9f\x80\")")
                .unwrap();
        assert!(m.text.ends_with(b"\xe4\xf8\x9f\x80"));
        assert!(parse_msg(b"(msg 0 2 \"unterminated").is_err());
    }

    #[test]
    fn team_line_with_penalties() {
        let (t, teams) = parse_team(b"(team 375 PEN_L PEN_R 0 0 2 0 1 0)").unwrap();
        assert_eq!(t, 375);
        assert_eq!(
            teams[0].penalty,
            Some(PenaltyTally {
                scored: 2,
                missed: 0
            })
        );
        assert_eq!(
            teams[1].penalty,
            Some(PenaltyTally {
                scored: 1,
                missed: 0
            })
        );
    }
}
