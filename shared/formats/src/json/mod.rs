//! JSON: rcssserver 19 JSON logs (`game_log_version = -1`, one array, one record per line)
//! and the JSON monitor protocol (`(dispinit version -1)`).
//!
//! Every record is one object with one key that names its kind: `{"show":{…}}`, `{"msg":{…}}`,
//! `{"team_graphic":{…}}`, `{"playmode":{…}}`, `{"team":{…}}`, `{"server_param":{…}}`,
//! `{"player_param":{…}}`, `{"player_type":{…}}`, plus the log header records `{"version":…}` and
//! `{"timestamp":…}`. Records are deserialized straight into typed structs (no
//! `serde_json::Value` tree); checks that need context (uniform numbers, play-mode names,
//! 22 players) run inside the deserializer so that errors keep their position.
//!
//! The two sources differ in their shows: log shows carry command counts but no focus point,
//! play mode or score; live shows carry the focus point, play mode and score but no counts.
//! One set of structs with optional fields reads both.

mod show;

use crate::error::Fail;
use crate::format::{Detail, ShowShape};
use crate::model::{
    Ball, Counts, Frame, Message, ParamValue, Params, PenaltyTally, Player, Record, Side, Stamina,
    Team, TeamGraphic, ViewQuality,
};
use crate::playmode::PlayMode;
use serde::de::{self, Deserializer, IgnoredAny, MapAccess, SeqAccess, Unexpected, Visitor};
use serde::Deserialize;
use std::fmt;

/// Limit on parameters in one params record, so hostile input cannot grow memory unboundedly.
const MAX_PARAMS: usize = 1024;
/// Limit on XPM lines in one team-graphic tile.
const MAX_XPM_LINES: usize = 64;
/// Players in a show: l1..l11, r1..r11.
const PLAYERS: usize = 22;

/// Record kinds [`kind_of`] reports; anything else is `"json"`.
const KINDS: [&str; 8] = [
    "show",
    "msg",
    "team_graphic",
    "playmode",
    "team",
    "server_param",
    "player_param",
    "player_type",
];

/// One line of a JSON log: `[`, `]`, or one record object with an optional trailing comma.
/// The rcssserver 18 header line `JSON` and the 19 header records (`version`, `timestamp`)
/// yield no record.
/// Shows are read by [`show::read_show`] when they are written as rcssserver writes them, as
/// `detail` says; everything else, and any show it does not take, by serde.
pub(crate) fn parse_log_line(
    line: &[u8],
    out: &mut Vec<Record>,
    detail: Detail,
) -> Result<ShowShape, Fail> {
    let (start, end) = trim(line);
    let mut body = &line[start..end];
    if let Some(rest) = body.strip_suffix(b",") {
        body = &body[..trim(rest).1];
    }
    if matches!(body, b"" | b"[" | b"]" | b"JSON") {
        return Ok(ShowShape::default());
    }
    if body.starts_with(b"{\"show\":{") {
        if let Some(frame) = show::read_show(body, detail) {
            out.push(Record::Show(frame));
            return Ok(ShowShape::default());
        }
    }
    parse_record(line, start, body, out)
}

/// The record kind of a JSON line, for error messages.
pub(crate) fn kind_of(line: &[u8]) -> &'static str {
    match first_key(line) {
        Some((key, _)) => KINDS
            .iter()
            .find(|k| k.as_bytes() == key)
            .copied()
            .unwrap_or("json"),
        None => "json",
    }
}

/// One JSON monitor datagram (without its NUL).
pub(crate) fn parse_datagram(body: &[u8], out: &mut Vec<Record>) -> Result<ShowShape, Fail> {
    let (start, end) = trim(body);
    parse_record(body, start, &body[start..end], out)
}

/// Parses `body`, which is `whole[start..]` without trailing blanks or comma. A team graphic
/// is reported as its text-protocol msg too.
fn parse_record(
    whole: &[u8],
    start: usize,
    body: &[u8],
    out: &mut Vec<Record>,
) -> Result<ShowShape, Fail> {
    let record: JRecord =
        serde_json::from_slice(body).map_err(|e| fail_from(whole, start, body, &e))?;
    match record {
        JRecord::Show(show) => {
            let shape = ShowShape {
                has_mode: show.mode.is_some(),
                has_teams: show.team.is_some(),
            };
            out.push(Record::Show(Frame {
                time: show.time,
                stime: show.stime,
                mode: show.mode.map(|m| m.0).unwrap_or_default(),
                teams: show.team.map(|t| teams(t.l, t.r)).unwrap_or_default(),
                ball: show.ball,
                players: show.players.0,
            }));
            return Ok(shape);
        }
        JRecord::Msg(m) => out.push(Record::Msg(Message {
            time: m.time,
            board: m.board,
            text: m.message.0,
        })),
        JRecord::TeamGraphic(t) => {
            let tile = TeamGraphic {
                side: t.side.into(),
                x: t.x,
                y: t.y,
                xpm: t.xpm.0,
            };
            // Text logs and monitors carry tiles as msgs; so does this, so that message
            // counts and a ULG6 written from JSON agree with the server's own text output.
            out.push(Record::Msg(Message {
                time: 0,
                board: 1,
                text: team_graphic_text(&tile),
            }));
            out.push(Record::TeamGraphic(tile));
        }
        JRecord::Playmode(p) => out.push(Record::PlayMode {
            time: p.time,
            mode: p.mode.0,
        }),
        JRecord::Team(t) => out.push(Record::Team {
            time: Some(t.time),
            teams: teams(t.l, t.r),
        }),
        JRecord::ServerParam(p) => out.push(Record::ServerParam(p.0)),
        JRecord::PlayerParam(p) => out.push(Record::PlayerParam(p.0)),
        JRecord::PlayerType(p) => out.push(Record::PlayerType(p.0)),
        JRecord::Version(_) | JRecord::Timestamp(_) => {}
    }
    Ok(ShowShape::default())
}

/// The text-protocol form of a tile, as rcssserver writes it into a text log's or a text
/// monitor's msg (note the single closing parenthesis, as the server prints it):
/// `(team_graphic_l (22 3 "8 8 1 1" "w c gray100" … "wwwwwwww")`.
fn team_graphic_text(t: &TeamGraphic) -> Vec<u8> {
    let mut s = format!("(team_graphic_{} ({} {} ", t.side.letter(), t.x, t.y);
    for (i, line) in t.xpm.iter().enumerate() {
        if i > 0 {
            s.push(' ');
        }
        s.push('"');
        s.push_str(line);
        s.push('"');
    }
    s.push(')');
    s.into_bytes()
}

/// Both teams of a show or team record. The text formats print penalty tallies for both
/// teams as soon as either took a kick; JSON only for the team that did: normalise to text.
fn teams(l: JTeam, r: JTeam) -> [Team; 2] {
    let any_penalty = l.has_penalty() || r.has_penalty();
    [l.into_team(any_penalty), r.into_team(any_penalty)]
}

/// Converts a serde_json error into a [`Fail`] at a byte offset of `whole`.
fn fail_from(whole: &[u8], start: usize, body: &[u8], e: &serde_json::Error) -> Fail {
    use serde_json::error::Category;
    let kind = kind_of(body);
    match e.classify() {
        Category::Eof => Fail {
            pos: whole.len(),
            expected: "the rest of the JSON record",
        },
        Category::Syntax | Category::Io => Fail {
            pos: start + offset_of(body, e.line(), e.column()),
            expected: "valid JSON",
        },
        Category::Data => {
            let expected = match kind {
                "show" => "a JSON show record",
                "msg" => "a JSON msg record",
                "team_graphic" => "a JSON team_graphic record",
                "playmode" => "a JSON playmode record",
                "team" => "a JSON team record",
                "server_param" | "player_param" | "player_type" => "a JSON params record",
                _ => "a JSON record: show, msg, team_graphic, playmode, team or params",
            };
            let pos = match first_key(body) {
                // An unknown record kind: point at its key.
                Some((_, at)) if kind == "json" => at,
                // serde_json reports a wrong value where it stopped reading, just after it.
                _ => value_start(body, offset_of(body, e.line(), e.column()) + 1),
            };
            Fail {
                pos: start + pos,
                expected,
            }
        }
    }
}

/// Byte offset of serde_json's `line` (1-based) and `column` (bytes up to and including the
/// offending byte) in `body`.
fn offset_of(body: &[u8], line: usize, column: usize) -> usize {
    let mut line_start = 0;
    for _ in 1..line {
        match body[line_start..].iter().position(|&b| b == b'\n') {
            Some(n) => line_start += n + 1,
            None => break,
        }
    }
    (line_start + column.saturating_sub(1)).min(body.len())
}

/// Where the value that ends just before `end` starts: a string's opening quote, a number's or
/// literal's first byte; a closing bracket itself; anything else is reported at `end`.
fn value_start(body: &[u8], end: usize) -> usize {
    let end = end.min(body.len());
    let scalar = |b: &u8| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'+' | b'.');
    match end.checked_sub(1).map(|i| body[i]) {
        Some(b'"') => {
            let mut i = end - 1;
            while i > 0 {
                i -= 1;
                let backslashes = body[..i].iter().rev().take_while(|&&b| b == b'\\').count();
                if body[i] == b'"' && backslashes % 2 == 0 {
                    return i;
                }
            }
            end
        }
        Some(b) if scalar(&b) => body[..end]
            .iter()
            .rposition(|b| !scalar(b))
            .map_or(0, |i| i + 1),
        // A closing bracket the reader consumed: the object or array it closes is at fault.
        Some(b'}' | b']') => end - 1,
        _ => end.min(body.len().saturating_sub(1)),
    }
}

/// Start and end of `bytes` without leading and trailing ASCII blanks and NULs.
fn trim(bytes: &[u8]) -> (usize, usize) {
    let blank = |b: &u8| b.is_ascii_whitespace() || *b == 0;
    let start = bytes.iter().position(|b| !blank(b)).unwrap_or(bytes.len());
    let end = bytes
        .iter()
        .rposition(|b| !blank(b))
        .map_or(start, |i| i + 1);
    (start, end.max(start))
}

/// The first key of `{"KEY": …` and the offset of its opening quote.
fn first_key(line: &[u8]) -> Option<(&[u8], usize)> {
    let skip = |mut i: usize| {
        while line.get(i).is_some_and(u8::is_ascii_whitespace) {
            i += 1;
        }
        i
    };
    let open = skip(0);
    if line.get(open) != Some(&b'{') {
        return None;
    }
    let quote = skip(open + 1);
    if line.get(quote) != Some(&b'"') {
        return None;
    }
    let key = &line[quote + 1..];
    let len = key.iter().position(|&b| b == b'"' || b == b'\\')?;
    (key[len] == b'"').then_some((&key[..len], quote))
}

// ---------------------------------------------------------------------------------------------
// Wire structs.

#[derive(Deserialize)]
#[serde(rename_all = "snake_case")]
enum JRecord {
    Show(JShow),
    Msg(JMsg),
    TeamGraphic(JTeamGraphic),
    Playmode(JPlayMode),
    Team(JTeamRecord),
    ServerParam(JParams),
    PlayerParam(JParams),
    PlayerType(JParams),
    Version(IgnoredAny),
    Timestamp(IgnoredAny),
}

#[derive(Deserialize)]
struct JShow {
    time: u32,
    stime: Option<u32>,
    mode: Option<JMode>,
    team: Option<JTeams>,
    ball: Ball,
    players: JPlayers,
}

#[derive(Deserialize)]
struct JTeams {
    l: JTeam,
    r: JTeam,
}

#[derive(Deserialize)]
struct JTeam {
    name: Option<Lossy>,
    score: u32,
    pen_score: Option<u32>,
    pen_miss: Option<u32>,
}

impl JTeam {
    fn has_penalty(&self) -> bool {
        self.pen_score.is_some() || self.pen_miss.is_some()
    }

    fn into_team(self, with_penalty: bool) -> Team {
        Team {
            name: self.name.map(|n| n.0).filter(|n| !n.is_empty()),
            score: self.score,
            penalty: with_penalty.then(|| PenaltyTally {
                scored: self.pen_score.unwrap_or(0),
                missed: self.pen_miss.unwrap_or(0),
            }),
        }
    }
}

#[derive(Deserialize)]
struct JTeamRecord {
    time: u32,
    l: JTeam,
    r: JTeam,
}

#[derive(Deserialize)]
struct JPlayMode {
    time: u32,
    mode: JMode,
}

#[derive(Deserialize)]
struct JMsg {
    time: u32,
    board: i32,
    message: Bytes,
}

#[derive(Deserialize)]
struct JTeamGraphic {
    side: JSide,
    x: u32,
    y: u32,
    xpm: Xpm,
}

#[derive(Clone, Copy, Deserialize)]
enum JSide {
    #[serde(rename = "l")]
    L,
    #[serde(rename = "r")]
    R,
}

impl From<JSide> for Side {
    fn from(s: JSide) -> Side {
        match s {
            JSide::L => Side::Left,
            JSide::R => Side::Right,
        }
    }
}

#[derive(Clone, Copy, Deserialize)]
enum JQuality {
    #[serde(rename = "h")]
    High,
    #[serde(rename = "l")]
    Low,
}

/// One player as both sources write it; what a source leaves out is `None`.
#[derive(Deserialize)]
struct JPlayer {
    side: JSide,
    unum: Unum,
    #[serde(rename = "type")]
    player_type: i16,
    state: u32,
    x: f32,
    y: f32,
    vx: f32,
    vy: f32,
    body: f32,
    neck: f32,
    px: Option<f32>,
    py: Option<f32>,
    vq: Option<JQuality>,
    vw: Option<f32>,
    fdist: Option<f32>,
    fdir: Option<f32>,
    stamina: Option<f32>,
    effort: Option<f32>,
    recovery: Option<f32>,
    capacity: Option<f32>,
    fside: Option<JSide>,
    fnum: Option<u8>,
    kick: Option<u32>,
    dash: Option<u32>,
    turn: Option<u32>,
    catch: Option<u32>,
    #[serde(rename = "move")]
    move_: Option<u32>,
    turn_neck: Option<u32>,
    change_view: Option<u32>,
    say: Option<u32>,
    tackle: Option<u32>,
    pointto: Option<u32>,
    attentionto: Option<u32>,
    change_focus: Option<u32>,
}

impl JPlayer {
    fn into_player(self) -> Player {
        let counts = [
            self.kick,
            self.dash,
            self.turn,
            self.catch,
            self.move_,
            self.turn_neck,
            self.change_view,
            self.say,
            self.tackle,
            self.pointto,
            self.attentionto,
            self.change_focus,
        ];
        let counts = counts.iter().any(Option::is_some).then(|| Counts {
            values: counts.map(|c| c.unwrap_or(0)),
            len: 12,
        });
        let stamina = match (self.stamina, self.effort, self.recovery) {
            (Some(stamina), Some(effort), Some(recovery)) => Some(Stamina {
                stamina,
                effort,
                recovery,
                capacity: self.capacity,
            }),
            _ => None,
        };
        let quality = self.vq.map(|q| match q {
            JQuality::High => ViewQuality::High,
            JQuality::Low => ViewQuality::Low,
        });
        Player {
            side: Some(self.side.into()),
            unum: self.unum.0,
            player_type: self.player_type,
            state: self.state,
            x: self.x,
            y: self.y,
            vx: self.vx,
            vy: self.vy,
            body: self.body,
            neck: self.neck,
            point: self.px.zip(self.py),
            view: quality.zip(self.vw),
            focus: self.fdist.zip(self.fdir),
            stamina,
            attention: self.fside.map(Side::from).zip(self.fnum),
            counts,
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Values with checks or a representation serde does not derive.

/// A uniform number 1..11.
struct Unum(u8);

impl<'de> Deserialize<'de> for Unum {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let n = u8::deserialize(d)?;
        if (1..=11).contains(&n) {
            Ok(Unum(n))
        } else {
            Err(de::Error::invalid_value(
                Unexpected::Unsigned(n.into()),
                &"a uniform number 1..11",
            ))
        }
    }
}

/// A play mode by name.
struct JMode(PlayMode);

impl<'de> Deserialize<'de> for JMode {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = JMode;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a play mode name")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<JMode, E> {
                match PlayMode::from_name(v.as_bytes()) {
                    Some(m) if m != PlayMode::NULL => Ok(JMode(m)),
                    _ => Err(E::invalid_value(Unexpected::Str(v), &self)),
                }
            }
        }
        d.deserialize_str(V)
    }
}

/// A string's raw bytes after unescaping: msg texts may hold bytes that are not UTF-8.
struct Bytes(Vec<u8>);

struct BytesVisitor;

impl Visitor<'_> for BytesVisitor {
    type Value = Vec<u8>;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a string")
    }
    fn visit_bytes<E: de::Error>(self, v: &[u8]) -> Result<Vec<u8>, E> {
        Ok(v.to_vec())
    }
    fn visit_byte_buf<E: de::Error>(self, v: Vec<u8>) -> Result<Vec<u8>, E> {
        Ok(v)
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<Vec<u8>, E> {
        Ok(v.as_bytes().to_vec())
    }
    fn visit_string<E: de::Error>(self, v: String) -> Result<Vec<u8>, E> {
        Ok(v.into_bytes())
    }
}

impl<'de> Deserialize<'de> for Bytes {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_byte_buf(BytesVisitor).map(Bytes)
    }
}

/// A string, with bytes that are not UTF-8 replaced (as the text parser does for names).
struct Lossy(String);

impl<'de> Deserialize<'de> for Lossy {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let bytes = d.deserialize_byte_buf(BytesVisitor)?;
        Ok(Lossy(match String::from_utf8(bytes) {
            Ok(s) => s,
            Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
        }))
    }
}

/// The XPM lines of a tile, at most [`MAX_XPM_LINES`].
struct Xpm(Vec<String>);

impl<'de> Deserialize<'de> for Xpm {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Xpm;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an array of at most 64 XPM lines")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Xpm, A::Error> {
                let mut lines = Vec::new();
                while let Some(line) = seq.next_element::<Lossy>()? {
                    if lines.len() >= MAX_XPM_LINES {
                        return Err(de::Error::invalid_length(lines.len() + 1, &self));
                    }
                    lines.push(line.0);
                }
                Ok(Xpm(lines))
            }
        }
        d.deserialize_seq(V)
    }
}

/// The 22 players of a show in l1..l11, r1..r11 order, whatever order the array has.
struct JPlayers(Vec<Player>);

impl<'de> Deserialize<'de> for JPlayers {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = JPlayers;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an array of the 22 players l1..l11, r1..r11")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<JPlayers, A::Error> {
                let mut slots: [Option<Player>; PLAYERS] = Default::default();
                let mut n = 0;
                while let Some(p) = seq.next_element::<JPlayer>()? {
                    let side = Side::from(p.side);
                    let unum = p.unum.0;
                    let slot = &mut slots[side.index() * 11 + usize::from(unum) - 1];
                    if slot.is_some() {
                        return Err(de::Error::custom(format_args!(
                            "player {}{unum} appears twice",
                            side.letter()
                        )));
                    }
                    *slot = Some(p.into_player());
                    n += 1;
                }
                if n != PLAYERS {
                    return Err(de::Error::invalid_length(n, &self));
                }
                Ok(JPlayers(slots.into_iter().flatten().collect()))
            }
        }
        d.deserialize_seq(V)
    }
}

/// A params object, entries in wire order.
struct JParams(Params);

impl<'de> Deserialize<'de> for JParams {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = JParams;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an object of at most 1024 parameters")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<JParams, A::Error> {
                let mut entries = Vec::new();
                while let Some(name) = map.next_key::<String>()? {
                    if entries.len() >= MAX_PARAMS {
                        return Err(de::Error::invalid_length(entries.len() + 1, &self));
                    }
                    let value = map.next_value::<JValue>()?;
                    entries.push((name, value.0));
                }
                Ok(JParams(Params { entries }))
            }
        }
        d.deserialize_map(V)
    }
}

/// A parameter value: bool, integer, float or string, as the server printed it.
struct JValue(ParamValue);

impl<'de> Deserialize<'de> for JValue {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = JValue;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a boolean, number or string parameter value")
            }
            fn visit_bool<E: de::Error>(self, v: bool) -> Result<JValue, E> {
                Ok(JValue(ParamValue::Bool(v)))
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<JValue, E> {
                Ok(JValue(ParamValue::Int(v)))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<JValue, E> {
                Ok(JValue(match i64::try_from(v) {
                    Ok(i) => ParamValue::Int(i),
                    Err(_) => ParamValue::Float(v as f64),
                }))
            }
            fn visit_f64<E: de::Error>(self, v: f64) -> Result<JValue, E> {
                Ok(JValue(ParamValue::Float(v)))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<JValue, E> {
                Ok(JValue(ParamValue::Text(v.to_owned())))
            }
            fn visit_string<E: de::Error>(self, v: String) -> Result<JValue, E> {
                Ok(JValue(ParamValue::Text(v)))
            }
        }
        d.deserialize_any(V)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::datagram::{inflate, is_zlib};
    use std::collections::BTreeMap;
    use std::io::Read;

    const SHORT_JSON: &str = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/fixtures/logs/short-json/20261122132746-SHORT_L_a_0-vs-SHORT_R_a_1.rcg.gz"
    );
    const F1_JSON: &str = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/fixtures/captures/F1/json.dgrams.gz"
    );
    const EDGE_JSON_Z6: &str = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/fixtures/captures/edge/json-compression-6.dgrams.gz"
    );

    fn gunzip(path: &str) -> Vec<u8> {
        let file = std::fs::File::open(path).unwrap();
        let mut bytes = Vec::new();
        flate2::read::GzDecoder::new(file)
            .read_to_end(&mut bytes)
            .unwrap();
        bytes
    }

    /// The payloads of a capture: 4-byte big-endian length + payload each.
    fn datagrams(bytes: &[u8]) -> Vec<&[u8]> {
        let mut out = Vec::new();
        let mut rest = bytes;
        while !rest.is_empty() {
            let n = u32::from_be_bytes(rest[..4].try_into().unwrap()) as usize;
            out.push(&rest[4..4 + n]);
            rest = &rest[4 + n..];
        }
        out
    }

    fn kind(r: &Record) -> &'static str {
        match r {
            Record::ServerParam(_) => "server_param",
            Record::PlayerParam(_) => "player_param",
            Record::PlayerType(_) => "player_type",
            Record::PlayMode { .. } => "playmode",
            Record::Team { .. } => "team",
            Record::Show(_) => "show",
            Record::Msg(_) => "msg",
            Record::TeamGraphic(_) => "team_graphic",
            Record::Draw(_) => "draw",
        }
    }

    /// The number after `"key":` at or after `from` in `line`, as the file spells it.
    fn number_after(line: &str, from: usize, key: &str) -> (f32, usize) {
        let at = from + line[from..].find(&format!("\"{key}\":")).unwrap() + key.len() + 3;
        let end = at + line[at..].find([',', '}']).unwrap();
        (line[at..end].parse().unwrap(), end)
    }

    #[test]
    fn every_line_of_the_json_log_parses() {
        let log = gunzip(SHORT_JSON);
        let text = std::str::from_utf8(&log).unwrap();
        let mut records = Vec::new();
        let mut first_show_line = None;
        for (i, line) in log.split(|&b| b == b'\n').enumerate() {
            let before = records.len();
            let shape = parse_log_line(line, &mut records, Detail::Full)
                .unwrap_or_else(|f| panic!("line {}: {f:?}", i + 1));
            if kind_of(line) == "show" {
                assert_eq!(records.len(), before + 1);
                assert_eq!(
                    shape,
                    ShowShape::default(),
                    "log shows have no mode or team"
                );
                first_show_line.get_or_insert(i);
            }
            if i < 3 || line.is_empty() || line == b"]" {
                assert_eq!(records.len(), before, "line {} is a header/footer", i + 1);
            }
        }
        let mut count = BTreeMap::new();
        for r in &records {
            *count.entry(kind(r)).or_insert(0) += 1;
        }
        let expected = [
            ("msg", 93),
            ("player_param", 1),
            ("player_type", 18),
            ("playmode", 15),
            ("server_param", 1),
            ("show", 679),
            ("team", 3),
            ("team_graphic", 92),
        ];
        assert_eq!(count, BTreeMap::from(expected));

        // The first show, against the numbers as the file spells them.
        let line = text.lines().nth(first_show_line.unwrap()).unwrap();
        let players = line.find("\"players\":[").unwrap();
        let (x, end) = number_after(line, players, "x");
        let (y, _) = number_after(line, end, "y");
        assert_eq!((x, y), (-49.2615, -0.002));
        let Some(Record::Show(frame)) = records.iter().find(|r| kind(r) == "show") else {
            panic!("no show")
        };
        assert_eq!(frame.time, 1);
        assert_eq!(frame.stime, None);
        assert_eq!(frame.players.len(), 22);
        let p = &frame.players[0];
        assert_eq!((p.side, p.unum, p.state), (Some(Side::Left), 1, 9));
        assert_eq!((p.x, p.y), (x, y));
        assert_eq!(
            (p.vx, p.vy, p.body, p.neck),
            (-0.1046, -0.0008, -177.714, 90.0)
        );
        assert_eq!(p.view, Some((ViewQuality::High, 180.0)));
        assert_eq!(p.focus, None, "log shows have no focus point");
        assert_eq!(p.attention, None);
        let st = p.stamina.unwrap();
        assert_eq!(
            (st.stamina, st.effort, st.recovery, st.capacity),
            (8000.0, 1.0, 1.0, Some(130555.0))
        );
        let c = p.counts.unwrap();
        assert_eq!(c.len, 12);
        assert_eq!(c.values, [0, 1, 147, 0, 1, 149, 1, 1, 0, 0, 1, 0]);
        assert_eq!(frame.players[1].attention, Some((Side::Left, 1)));
        assert_eq!(frame.players[1].player_type, 1);
        assert_eq!(frame.players[11].side, Some(Side::Right));
        assert_eq!(frame.players[11].unum, 1);

        // Stoppage time where the show has one.
        let stoppages = records
            .iter()
            .filter(|r| matches!(r, Record::Show(f) if f.stime.is_some()))
            .count();
        assert_eq!(stoppages, 80);

        // Play modes and teams.
        let modes: Vec<(u32, PlayMode)> = records
            .iter()
            .filter_map(|r| match r {
                Record::PlayMode { time, mode } => Some((*time, *mode)),
                _ => None,
            })
            .collect();
        assert_eq!(modes[0], (1, PlayMode::from_name(b"kick_off_l").unwrap()));
        assert_eq!(modes[11], (450, PlayMode::GOAL_R));
        assert_eq!(modes[14], (600, PlayMode::TIME_OVER));
        let teams: Vec<_> = records
            .iter()
            .filter_map(|r| match r {
                Record::Team { time, teams } => Some((*time, teams.clone())),
                _ => None,
            })
            .collect();
        let (time, last) = teams.last().unwrap();
        assert_eq!(*time, Some(600));
        assert_eq!(last[0].name.as_deref(), Some("SHORT_L_a"));
        assert_eq!(last[1].name.as_deref(), Some("SHORT_R_a"));
        assert_eq!((last[0].score, last[1].score), (0, 1));
        assert_eq!(last[0].penalty, None);

        // The result msg, the first tile and the parameters.
        let Some(Record::Msg(m)) = records.iter().rev().find(|r| kind(r) == "msg") else {
            panic!("no msg")
        };
        assert_eq!((m.time, m.board), (600, 1));
        assert_eq!(m.text, b"(result 202611221327 SHORT_L_a_0-vs-SHORT_R_a_1)");
        let Some(Record::TeamGraphic(t)) = records.iter().find(|r| kind(r) == "team_graphic")
        else {
            panic!("no team graphic")
        };
        assert_eq!((t.side, t.x, t.y, t.xpm.len()), (Side::Left, 22, 3, 10));
        assert_eq!(t.xpm[1], "w c gray100");
        let Some(Record::ServerParam(sp)) = records.iter().find(|r| kind(r) == "server_param")
        else {
            panic!("no server_param")
        };
        assert_eq!(sp.get("auto_mode"), Some(&ParamValue::Bool(true)));
        assert_eq!(sp.get("half_time"), Some(&ParamValue::Int(30)));
        assert_eq!(sp.get("ball_decay"), Some(&ParamValue::Float(0.94)));
        assert_eq!(sp.get("game_log_version"), Some(&ParamValue::Int(-1)));
        assert_eq!(
            sp.get("log_date_format"),
            Some(&ParamValue::Text("%Y%m%d%H%M%S-".into()))
        );
        let Some(Record::PlayerType(pt)) = records.iter().find(|r| kind(r) == "player_type") else {
            panic!("no player_type")
        };
        assert_eq!(pt.entries[0], ("id".to_owned(), ParamValue::Int(0)));
        assert_eq!(pt.entries[1].0, "player_speed_max", "wire order is kept");
    }

    #[test]
    fn the_log_decoder_reads_the_json_log() {
        let m = crate::log::parse_log(&std::fs::read(SHORT_JSON).unwrap());
        assert_eq!(m.error, None);
        assert_eq!(m.version, Some(crate::LogVersion::Json));
        assert_eq!(m.frames.len(), 679);
        assert_eq!(m.frames[0].mode.name(), "kick_off_l");
        assert_eq!(m.frames[0].teams[0].name.as_deref(), Some("SHORT_L_a"));
        assert_eq!(m.frames.last().map(|f| f.time), Some(600));
        assert_eq!(
            m.messages.len(),
            93,
            "92 team-graphic tiles and the result, as in ULG6"
        );
        assert_eq!(m.team_graphics.len(), 92);
        assert_eq!(m.player_types.len(), 18);
        assert_eq!(m.goals(), vec![(450, Side::Right)]);
        let t = m.final_teams();
        assert_eq!((t[0].score, t[1].score), (0, 1));
    }

    #[test]
    fn a_cut_off_json_log_keeps_its_records_and_says_it_is_incomplete() {
        let log = gunzip(SHORT_JSON);
        let cut = log.len() / 2;
        let line_start = log[..cut].iter().rposition(|&b| b == b'\n').unwrap() + 1;
        let line = 1 + log[..line_start].iter().filter(|&&b| b == b'\n').count() as u64;
        let m = crate::log::parse_log(&log[..cut]);
        let last = m.frames.last().map(|f| f.time).unwrap();
        assert_eq!(
            m.error,
            Some(crate::LogError::Incomplete {
                at: crate::Location::Line(line),
                cycle: last,
            }),
            "a JSON log cut inside a record was never closed"
        );
        assert!(!m.frames.is_empty());

        let mut broken = log.clone();
        let at = line_start + 20;
        broken[at] = b'#';
        let m = crate::log::parse_log(&broken);
        let Some(crate::LogError::Malformed {
            at: where_,
            record,
            found,
            ..
        }) = m.error
        else {
            panic!("{:?}", m.error)
        };
        assert_eq!((where_, record), (crate::Location::Line(line), "show"));
        assert!(found.starts_with("\"#"), "{found}");
    }

    /// Parses every datagram of a capture; returns the records by kind and how many were zlib.
    fn check_capture(path: &str) -> (BTreeMap<&'static str, usize>, usize, Vec<Vec<Record>>) {
        let raw = gunzip(path);
        let mut count = BTreeMap::new();
        let mut zlib = 0;
        let mut all = Vec::new();
        for (i, d) in datagrams(&raw).into_iter().enumerate() {
            let plain = if is_zlib(d) {
                zlib += 1;
                inflate(d).unwrap()
            } else {
                d.to_vec()
            };
            let body = plain.strip_suffix(b"\0").unwrap_or(&plain);
            let mut out = Vec::new();
            let shape = parse_datagram(body, &mut out)
                .unwrap_or_else(|f| panic!("datagram {i}: {f:?} ({})", kind_of(body)));
            let k = kind_of(body);
            let kinds: Vec<_> = out.iter().map(kind).collect();
            match k {
                "team_graphic" => assert_eq!(kinds, ["msg", "team_graphic"], "datagram {i}"),
                _ => assert_eq!(kinds, [k], "datagram {i}"),
            }
            if k == "show" {
                assert_eq!(
                    shape,
                    ShowShape {
                        has_mode: true,
                        has_teams: true
                    }
                );
            }
            *count.entry(k).or_insert(0) += 1;
            // The public entry point agrees.
            match crate::datagram::parse_datagram(d).unwrap() {
                crate::datagram::Datagram::Records(r) => assert_eq!(r, out, "datagram {i}"),
                other => panic!("datagram {i}: {other:?}"),
            }
            all.push(out);
        }
        (count, zlib, all)
    }

    #[test]
    fn every_datagram_of_the_live_json_capture_parses() {
        let (count, zlib, all) = check_capture(F1_JSON);
        let expected = [
            ("msg", 21),
            ("player_param", 1),
            ("player_type", 18),
            ("server_param", 1),
            ("show", 304),
            ("team_graphic", 92),
        ];
        assert_eq!(count, BTreeMap::from(expected));
        assert_eq!(zlib, 0);

        let Some(Record::Show(f)) = all.iter().flatten().find(|r| kind(r) == "show") else {
            panic!("no show")
        };
        assert_eq!((f.time, f.stime), (0, Some(19)));
        assert_eq!(f.mode, PlayMode::BEFORE_KICK_OFF);
        assert_eq!(f.teams[0].name.as_deref(), Some("HELIOS_L"));
        assert_eq!(f.teams[1].name, None, "null name");
        let p = &f.players[0];
        assert_eq!((p.state, p.x, p.y), (9, -49.0, 0.0));
        assert_eq!(p.focus, Some((0.0, 0.0)));
        assert_eq!(p.counts, None, "live shows have no counts");
        assert_eq!(p.stamina.unwrap().capacity, Some(130600.0));
        assert_eq!(p.view, Some((ViewQuality::High, 180.0)));

        // A tile also arrives as the msg a text monitor gets, byte for byte.
        let tile = all.iter().find(|r| r.len() == 2).unwrap();
        let Record::Msg(m) = &tile[0] else {
            panic!("no msg first")
        };
        let mut text = String::from("(team_graphic_l (22 3 \"8 8 1 1\" \"w c gray100\"");
        for _ in 0..8 {
            text.push_str(" \"wwwwwwww\"");
        }
        text.push(')');
        assert_eq!((m.time, m.board), (0, 1));
        assert_eq!(m.text_lossy(), text);
        let parsed = crate::team_graphic::parse_team_graphic(&m.text).unwrap();
        assert_eq!(tile[1], Record::TeamGraphic(parsed));

        let msgs: Vec<_> = all
            .iter()
            .flatten()
            .filter_map(|r| match r {
                Record::Msg(m) if !m.text.starts_with(b"(team_graphic") => Some(m),
                _ => None,
            })
            .collect();
        assert_eq!(msgs[0].text, b"(change_player_type l 1 0)");
    }

    #[test]
    fn every_datagram_of_the_compressed_json_capture_parses() {
        let (count, zlib, all) = check_capture(EDGE_JSON_Z6);
        let expected = [
            ("msg", 1),
            ("player_param", 1),
            ("player_type", 18),
            ("server_param", 1),
            ("show", 8),
        ];
        assert_eq!(count, BTreeMap::from(expected));
        assert_eq!(zlib, 6);
        let Some(Record::Show(f)) = all.iter().flatten().find(|r| kind(r) == "show") else {
            panic!("no show")
        };
        assert_eq!((f.time, f.stime), (0, Some(397)));
        assert!(f.teams.iter().all(|t| t.name.is_none()));
        assert!(f.players.iter().all(|p| p.state == 0));
    }

    const SHOW_HEAD: &str = r#"{"show":{"time":7,"ball":{"x":1,"y":2,"vx":3,"vy":4},"players":["#;

    fn player(side: char, unum: usize) -> String {
        format!(
            r#"{{"side":"{side}","unum":{unum},"type":0,"state":1,"x":-3,"y":-37,"vx":0,"vy":0,"body":0,"neck":0,"vq":"l","vw":60,"px":12.5,"py":-3,"stamina":8000,"effort":1,"recovery":1}}"#
        )
    }

    fn show(players: &[(char, usize)]) -> String {
        let list: Vec<String> = players.iter().map(|&(s, n)| player(s, n)).collect();
        format!("{SHOW_HEAD}{}]}}}},", list.join(","))
    }

    fn all_players() -> Vec<(char, usize)> {
        let mut v: Vec<_> = (1..=11).map(|n| ('l', n)).collect();
        v.extend((1..=11).map(|n| ('r', n)));
        v
    }

    #[test]
    fn players_go_to_their_slots_and_optional_fields_read() {
        let mut order = all_players();
        order.reverse();
        let mut out = Vec::new();
        parse_log_line(show(&order).as_bytes(), &mut out, Detail::Full).unwrap();
        let Some(Record::Show(f)) = out.first() else {
            panic!("no show")
        };
        assert_eq!(
            f.ball,
            Ball {
                x: 1.0,
                y: 2.0,
                vx: 3.0,
                vy: 4.0,
                z: 0.0
            }
        );
        for (i, p) in f.players.iter().enumerate() {
            assert_eq!(p.side, Some(if i < 11 { Side::Left } else { Side::Right }));
            assert_eq!(usize::from(p.unum), i % 11 + 1);
        }
        let p = &f.players[0];
        assert_eq!(p.point, Some((12.5, -3.0)));
        assert_eq!(p.view, Some((ViewQuality::Low, 60.0)));
        assert_eq!(p.stamina.unwrap().capacity, None);
        assert_eq!(p.counts, None);
    }

    #[test]
    fn penalty_tallies_and_header_lines() {
        let mut out = Vec::new();
        for line in [
            "[",
            "JSON",
            r#"{"version":"19.0.0"},"#,
            r#"{"timestamp":"2026-11-22T13:27:46+0000"},"#,
            "]",
            "",
        ] {
            assert_eq!(
                parse_log_line(line.as_bytes(), &mut out, Detail::Full),
                Ok(ShowShape::default())
            );
        }
        assert!(out.is_empty());
        let line = r#"{"team":{"time":375,"l":{"name":"PEN_L","score":0,"pen_score":2,"pen_miss":0},"r":{"name":"","score":0}}},"#;
        parse_log_line(line.as_bytes(), &mut out, Detail::Full).unwrap();
        let Some(Record::Team { time, teams }) = out.first() else {
            panic!("no team")
        };
        assert_eq!(*time, Some(375));
        assert_eq!(
            teams[0].penalty,
            Some(PenaltyTally {
                scored: 2,
                missed: 0
            })
        );
        assert_eq!(teams[1].penalty, Some(PenaltyTally::default()));
        assert_eq!(teams[1].name, None, "an empty name is no team");
        assert_eq!(kind_of(line.as_bytes()), "team");
        assert_eq!(kind_of(b"  {\"team_graphic\":{}}"), "team_graphic");
        assert_eq!(kind_of(b"{\"foo\":1}"), "json");
        assert_eq!(kind_of(b"]"), "json");
    }

    #[test]
    fn msg_text_keeps_bytes_that_are_not_utf8() {
        let mut out = Vec::new();
        let line = b"{\"msg\":{\"time\":3,\"board\":2,\"message\":\"Recv \\\"x\\\"\xe4\xf8\"}}";
        parse_datagram(line, &mut out).unwrap();
        let Some(Record::Msg(m)) = out.first() else {
            panic!("no msg")
        };
        assert_eq!((m.time, m.board), (3, 2));
        assert_eq!(m.text, b"Recv \"x\"\xe4\xf8");
    }

    #[test]
    fn malformed_lines_fail_where_the_problem_is() {
        let mut out = Vec::new();
        let good = show(&all_players());

        // A value of the wrong kind: points at it.
        let bad = good.replacen("\"y\":-37", "\"y\":abc", 1);
        let f = parse_log_line(bad.as_bytes(), &mut out, Detail::Full).unwrap_err();
        assert_eq!(&bad[f.pos..f.pos + 3], "abc");
        assert_eq!(f.expected, "valid JSON");
        let bad = good.replacen("\"y\":-37", "\"y\":\"-37\"", 1);
        let f = parse_log_line(bad.as_bytes(), &mut out, Detail::Full).unwrap_err();
        assert!(bad[f.pos..].starts_with("\"-37\","), "{f:?}");
        assert_eq!(f.expected, "a JSON show record");

        // A uniform number out of range, a missing player, a doubled one.
        let bad = good.replacen("\"unum\":3,", "\"unum\":12,", 1);
        let f = parse_log_line(bad.as_bytes(), &mut out, Detail::Full).unwrap_err();
        assert!(bad[f.pos..].starts_with("12,"), "{f:?}");
        let mut players = all_players();
        players.pop();
        let bad = show(&players);
        let f = parse_log_line(bad.as_bytes(), &mut out, Detail::Full).unwrap_err();
        assert!(bad[f.pos..].starts_with("]}"), "{f:?}");
        players.push(('l', 4));
        assert!(parse_log_line(show(&players).as_bytes(), &mut out, Detail::Full).is_err());

        // An unknown play mode, an unknown record kind.
        let bad = r#"{"playmode":{"time":1,"mode":"kick_of_l"}},"#;
        let f = parse_log_line(bad.as_bytes(), &mut out, Detail::Full).unwrap_err();
        assert_eq!(f.expected, "a JSON playmode record");
        assert!(bad[f.pos..].starts_with("\"kick_of_l\""), "{f:?}");
        let bad = br#"  {"penalty":{"time":1}},"#;
        let f = parse_log_line(bad, &mut out, Detail::Full).unwrap_err();
        assert_eq!((f.pos, kind_of(bad)), (3, "json"));

        // A line cut off: the error is at its end, so the log reader calls it truncated.
        let cut = &good.as_bytes()[..good.len() / 2];
        let f = parse_log_line(cut, &mut out, Detail::Full).unwrap_err();
        assert_eq!(f.pos, cut.len());
        assert_eq!(f.expected, "the rest of the JSON record");

        // Two records on one line, garbage after the record.
        let bad =
            r#"{"playmode":{"time":1,"mode":"play_on"}},{"playmode":{"time":2,"mode":"play_on"}}"#;
        let f = parse_log_line(bad.as_bytes(), &mut out, Detail::Full).unwrap_err();
        assert_eq!(f.pos, bad.find("},{").unwrap() + 1);
        assert!(parse_datagram(b"{\"show\":{}} x", &mut out).is_err());
        assert!(parse_datagram(b"{}", &mut out).is_err());
        assert!(parse_datagram(b"", &mut out).is_err());
        assert!(out.is_empty());
    }
}
