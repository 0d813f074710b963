//! Writers in rcssserver's own formats: logs of every version rcssserver 19 writes
//! ([`LogWriter`]: ULG4, ULG5, ULG6 text, binary v1, v2 and v3, JSON), ULG6 as the relay records
//! a match seen live ([`Ulg6Writer`]), and v5 monitor shows (so a log can be replayed to
//! monitors as if live). Numbers use `%g`-style 6 significant digits, as the server's
//! iostreams do. No IO: records in, bytes out, a piece at a time for a file of any size.
//!
//! What each version keeps of the model (the rest is left out as the server leaves it out):
//! - **ULG6**: everything but the stoppage count of shows (`stime`) and drawings.
//! - **ULG5**: no focus point (`(fp …)`), 11 command counts (no `change_focus`).
//! - **ULG4**: ULG5 without the stamina capacity.
//! - **JSON**: like ULG6 but no focus point (rcssserver's JSON log shows have none), with each
//!   show's stoppage count (`stime`; from a text or binary source, the number of shows of the
//!   same cycle before it, which is what the server counts) and team graphics as
//!   `team_graphic` records. Msgs, play modes and teams take the `stime` of the show they come
//!   with; the two records rcssserver writes after time over (the result msg and the last
//!   team) take `game_over_wait - 1`, the count at which a server in `auto_mode` ends the game
//!   (the model keeps no count for them; without `auto_mode` they have none).
//! - **v3, v2, v1**: see `binary::encode`.
//!
//! Parameters are written under the names of the target: binary `server_params_t` fields
//! become their text names (and back), text and JSON entries are in the server's order (by
//! name), booleans are `1`/`0` in text and `true`/`false` in JSON as the server prints them.

mod json;
mod params;

pub use crate::format::JsonHeader;
use params::{normalized_params, ParamsKind};

use crate::format::LogVersion;
use crate::model::{Frame, Message, ParamValue, Params, Player, Record, Team};
use crate::number::write_g6;
use crate::playmode::PlayMode;
use std::fmt::Write;

fn num(out: &mut String, v: f32) {
    write_g6(out, f64::from(v));
}

/// ` value` for each value.
fn nums(out: &mut String, values: &[f32]) {
    for &v in values {
        out.push(' ');
        num(out, v);
    }
}

fn team_fields(out: &mut String, teams: &[Team; 2]) {
    for t in teams {
        out.push(' ');
        out.push_str(
            t.name
                .as_deref()
                .filter(|n| !n.is_empty())
                .unwrap_or("null"),
        );
    }
    let _ = write!(out, " {} {}", teams[0].score, teams[1].score);
    if teams[0].penalty.is_some() || teams[1].penalty.is_some() {
        let l = teams[0].penalty.unwrap_or_default();
        let r = teams[1].penalty.unwrap_or_default();
        let _ = write!(out, " {} {} {} {}", l.scored, l.missed, r.scored, r.missed);
    }
}

/// The ball and the 22 players, as in both a v5 monitor show and a ULG6 show line. Fields the
/// source did not carry are written with the server's defaults (zeros, `(v h 90)`).
fn show_body(out: &mut String, frame: &Frame) {
    show_body_v(out, frame, 6);
}

fn show_body_v(out: &mut String, frame: &Frame, version: u8) {
    let b = &frame.ball;
    out.push_str(" ((b)");
    nums(out, &[b.x, b.y, b.vx, b.vy]);
    if version >= 7 {
        nums(out, &[b.z]);
    }
    out.push(')');
    for (i, p) in frame.players.iter().enumerate() {
        player_v(out, p, i, version);
    }
}

/// One player of a text show of log version 4, 5 or 6 (monitor protocol 3, 4, 5).
fn player_v(out: &mut String, p: &Player, index: usize, version: u8) {
    let side = p
        .side
        .map(|s| s.letter())
        .unwrap_or(if index < 11 { 'l' } else { 'r' });
    let _ = write!(out, " (({side} {}) {} ", p.unum, p.player_type);
    if p.state == 0 {
        out.push('0');
    } else {
        let _ = write!(out, "{:#x}", p.state);
    }
    nums(out, &[p.x, p.y, p.vx, p.vy, p.body, p.neck]);
    if let Some((x, y)) = p.point {
        nums(out, &[x, y]);
    }
    let (q, w) = p.view.unwrap_or((crate::model::ViewQuality::High, 90.0));
    out.push_str(match q {
        crate::model::ViewQuality::High => " (v h",
        crate::model::ViewQuality::Low => " (v l",
    });
    nums(out, &[w]);
    out.push(')');
    if version >= 6 {
        let (d, dir) = p.focus.unwrap_or((0.0, 0.0));
        out.push_str(" (fp");
        nums(out, &[d, dir]);
        out.push(')');
    }
    let s = p.stamina.unwrap_or_default();
    out.push_str(" (s");
    nums(out, &[s.stamina, s.effort, s.recovery]);
    if version >= 5 {
        nums(out, &[s.capacity.unwrap_or(0.0)]);
    }
    out.push(')');
    if let Some((s, n)) = p.attention {
        let _ = write!(out, " (f {} {n})", s.letter());
    }
    out.push_str(" (c");
    let c = p.counts.unwrap_or_default();
    let n = if version >= 6 { 12 } else { 11 };
    for v in &c.values[..n] {
        let _ = write!(out, " {v}");
    }
    out.push_str("))");
}

/// A v5 monitor show, `(show T (pm N) (tm …) …)`, without the trailing NUL.
pub fn monitor_show_v5(frame: &Frame) -> String {
    let mut out = String::with_capacity(3600);
    let _ = write!(out, "(show {} (pm {}) (tm", frame.time, frame.mode.index());
    team_fields(&mut out, &frame.teams);
    out.push(')');
    show_body(&mut out, frame);
    out.push(')');
    out
}

fn params(out: &mut String, head: &str, p: &Params) {
    out.push('(');
    out.push_str(head);
    for (name, v) in &p.entries {
        let _ = write!(out, "({name} ");
        match v {
            ParamValue::Int(i) => {
                let _ = write!(out, "{i}");
            }
            ParamValue::Float(f) => write_g6(out, *f),
            ParamValue::Bool(b) => out.push(if *b { '1' } else { '0' }),
            ParamValue::Text(t) => {
                let _ = write!(out, "\"{t}\"");
            }
        }
        out.push(')');
    }
    out.push_str(")\n");
}

/// A `(msg T B "…")` line: bytes are copied verbatim, newlines become spaces (as the server does).
pub fn msg_line(out: &mut Vec<u8>, m: &Message) {
    out.extend_from_slice(format!("(msg {} {} \"", m.time, m.board).as_bytes());
    out.extend(m.text.iter().map(|&b| if b == b'\n' { b' ' } else { b }));
    out.extend_from_slice(b"\")\n");
}

/// Writes a ULG6 log record by record, keeping the play-mode/team state so that it emits
/// `(playmode …)` and `(team …)` lines only when they change, as the server's logger does.
pub struct Ulg6Writer {
    /// 6, or 7 for the 2.5D fork's ULG7 (the ball's height after its velocity).
    version: u8,
    out: Vec<u8>,
    mode: Option<PlayMode>,
    teams: Option<[Team; 2]>,
    line: String,
}

impl Default for Ulg6Writer {
    fn default() -> Self {
        Self::new()
    }
}

impl Ulg6Writer {
    pub fn new() -> Self {
        Ulg6Writer {
            version: 6,
            out: b"ULG6\n".to_vec(),
            mode: None,
            teams: None,
            line: String::new(),
        }
    }

    /// The same, as the 2.5D fork logs: ULG7, whose shows give the ball's height.
    pub fn ulg7() -> Self {
        Ulg6Writer {
            version: 7,
            out: b"ULG7\n".to_vec(),
            ..Self::new()
        }
    }

    fn flush_line(&mut self) {
        self.out.extend_from_slice(self.line.as_bytes());
        self.line.clear();
    }

    pub fn record(&mut self, r: &Record) {
        match r {
            Record::ServerParam(p) => params(&mut self.line, "server_param ", p),
            Record::PlayerParam(p) => params(&mut self.line, "player_param ", p),
            Record::PlayerType(p) => params(&mut self.line, "player_type ", p),
            Record::PlayMode { time, mode } => self.playmode(*time, *mode),
            Record::Team { time, teams } => self.team(time.unwrap_or(0), teams, true),
            Record::Show(f) => self.show(f),
            Record::Msg(m) => msg_line(&mut self.out, m),
            // Tiles are written through their msg record.
            Record::TeamGraphic(_) => {}
            // Text logs have no drawings.
            Record::Draw(_) => {}
        }
        self.flush_line();
    }

    fn playmode(&mut self, time: u32, mode: PlayMode) {
        let _ = writeln!(self.line, "(playmode {time} {})", mode.name());
        self.mode = Some(mode);
    }

    fn team(&mut self, time: u32, teams: &[Team; 2], force: bool) {
        if !force && self.teams.as_ref() == Some(teams) {
            return;
        }
        let _ = write!(self.line, "(team {time}");
        team_fields(&mut self.line, teams);
        self.line.push_str(")\n");
        self.teams = Some(teams.clone());
    }

    /// A show; play-mode and team lines are written first when they changed. The server logs
    /// nothing before kick-off, and neither does this.
    pub fn show(&mut self, f: &Frame) {
        if f.mode == PlayMode::BEFORE_KICK_OFF || f.mode == PlayMode::NULL {
            return;
        }
        if self.mode != Some(f.mode) {
            self.playmode(f.time, f.mode);
        }
        let teams_changed = self.teams.as_ref().is_none_or(|t| {
            t.iter()
                .zip(&f.teams)
                .any(|(a, b)| a.name != b.name || a.score != b.score || a.penalty != b.penalty)
        });
        if teams_changed {
            self.team(f.time, &f.teams, true);
        }
        let _ = write!(self.line, "(show {}", f.time);
        show_body_v(&mut self.line, f, self.version);
        self.line.push_str(")\n");
        self.flush_line();
    }

    /// The bytes written since the last call, for a writer that streams to a file.
    pub fn take(&mut self) -> Vec<u8> {
        std::mem::take(&mut self.out)
    }

    pub fn finish(self) -> Vec<u8> {
        self.out
    }
}

/// Writes a whole match as ULG6.
pub fn ulg6(m: &crate::log::Match) -> Vec<u8> {
    let mut w = Ulg6Writer::new();
    if let Some(p) = &m.server_param {
        w.record(&Record::ServerParam(p.clone()));
    }
    if let Some(p) = &m.player_param {
        w.record(&Record::PlayerParam(p.clone()));
    }
    for p in &m.player_types {
        w.record(&Record::PlayerType(p.clone()));
    }
    // Messages keep their place between the shows, as the source had them.
    let mut msgs = m
        .messages
        .iter()
        .zip(
            m.message_positions
                .iter()
                .copied()
                .chain(std::iter::repeat(usize::MAX)),
        )
        .peekable();
    for (i, f) in m.frames.iter().enumerate() {
        while let Some((msg, _)) = msgs.next_if(|(_, pos)| *pos <= i) {
            w.record(&Record::Msg(msg.clone()));
        }
        w.show(f);
    }
    for (msg, _) in msgs {
        w.record(&Record::Msg(msg.clone()));
    }
    if let Some(t) = &m.last_team {
        let time = m.frames.last().map_or(0, |f| f.time);
        w.record(&Record::Team {
            time: Some(time),
            teams: t.clone(),
        });
    }
    w.finish()
}

/// A record as a text monitor (v5) would receive it, without the NUL: what the relay sends
/// when it plays a log as if live. Play-mode and team records are `None`: a live monitor gets
/// them inside each show.
pub fn monitor_datagram(r: &Record) -> Option<Vec<u8>> {
    let mut s = String::new();
    match r {
        Record::ServerParam(p) => params(&mut s, "server_param ", p),
        Record::PlayerParam(p) => params(&mut s, "player_param ", p),
        Record::PlayerType(p) => params(&mut s, "player_type ", p),
        Record::Show(f) => return Some(monitor_show_v5(f).into_bytes()),
        Record::Msg(m) => {
            let mut out = Vec::new();
            msg_line(&mut out, m);
            out.pop();
            return Some(out);
        }
        Record::PlayMode { .. }
        | Record::Team { .. }
        | Record::TeamGraphic(_)
        | Record::Draw(_) => return None,
    }
    s.pop();
    Some(s.into_bytes())
}

/// Writes a text log of version 4, 5 or 6 as rcssserver 19 writes it, record by record: every
/// show (before kick-off too, unlike [`Ulg6Writer`], which records what the server would
/// have), play-mode and team lines where the source had them and wherever a show's mode or
/// teams change without one (binary sources carry them in the shows).
pub struct TextLogWriter {
    version: u8,
    out: Vec<u8>,
    mode: Option<PlayMode>,
    teams: Option<[Team; 2]>,
    line: String,
}

impl TextLogWriter {
    /// `version` 4, 5, 6 or 7 (the 2.5D fork's: 6 with the ball's height); anything else is
    /// taken as 6.
    pub fn new(version: u8) -> TextLogWriter {
        let version = if (4..=7).contains(&version) {
            version
        } else {
            6
        };
        TextLogWriter {
            version,
            out: format!("ULG{version}\n").into_bytes(),
            mode: None,
            teams: None,
            line: String::new(),
        }
    }

    pub fn record(&mut self, r: &Record) {
        match r {
            Record::ServerParam(p) => params(
                &mut self.line,
                "server_param ",
                &normalized_params(p, ParamsKind::Server, false),
            ),
            Record::PlayerParam(p) => params(
                &mut self.line,
                "player_param ",
                &normalized_params(p, ParamsKind::Player, false),
            ),
            Record::PlayerType(p) => params(&mut self.line, "player_type ", p),
            Record::PlayMode { time, mode } => {
                if *mode != PlayMode::NULL {
                    let _ = writeln!(self.line, "(playmode {time} {})", mode.name());
                    self.mode = Some(*mode);
                }
            }
            Record::Team { time, teams } => {
                self.team(time.unwrap_or(0), teams);
            }
            Record::Show(f) => {
                if self.mode != Some(f.mode) && f.mode != PlayMode::NULL {
                    let _ = writeln!(self.line, "(playmode {} {})", f.time, f.mode.name());
                    self.mode = Some(f.mode);
                }
                if self.teams.as_ref() != Some(&f.teams) {
                    self.team(f.time, &f.teams);
                }
                let _ = write!(self.line, "(show {}", f.time);
                show_body_v(&mut self.line, f, self.version);
                self.line.push_str(")\n");
            }
            Record::Msg(m) => {
                self.out.extend_from_slice(self.line.as_bytes());
                self.line.clear();
                msg_line(&mut self.out, m);
            }
            Record::TeamGraphic(_) | Record::Draw(_) => {}
        }
        self.out.extend_from_slice(self.line.as_bytes());
        self.line.clear();
    }

    fn team(&mut self, time: u32, teams: &[Team; 2]) {
        let _ = write!(self.line, "(team {time}");
        team_fields(&mut self.line, teams);
        self.line.push_str(")\n");
        self.teams = Some(teams.clone());
    }

    /// The bytes written since the last call.
    pub fn take(&mut self) -> Vec<u8> {
        std::mem::take(&mut self.out)
    }
}

/// Writes a log of any version rcssserver 19 writes, record by record: feed it the records of
/// a decoded log in order with [`LogWriter::record`], collect the bytes with
/// [`LogWriter::take`] as they come (a stream to a file or a download) and end with
/// [`LogWriter::finish`].
pub struct LogWriter {
    inner: Inner,
}

enum Inner {
    Text(TextLogWriter),
    Binary(crate::binary::encode::BinaryWriter),
    Json(json::JsonWriter),
}

impl LogWriter {
    /// A writer of `version` (1 to 6, or JSON; rcssserver 18's JSON is written as 19's).
    pub fn new(version: LogVersion) -> LogWriter {
        LogWriter::with_header(version, JsonHeader::default())
    }

    /// As [`LogWriter::new`]; a JSON log starts with `header`.
    pub fn with_header(version: LogVersion, header: JsonHeader) -> LogWriter {
        let inner = match version {
            LogVersion::V1 => Inner::Binary(crate::binary::encode::BinaryWriter::new(1)),
            LogVersion::V2 => Inner::Binary(crate::binary::encode::BinaryWriter::new(2)),
            LogVersion::V3 => Inner::Binary(crate::binary::encode::BinaryWriter::new(3)),
            LogVersion::V4 => Inner::Text(TextLogWriter::new(4)),
            LogVersion::V5 => Inner::Text(TextLogWriter::new(5)),
            LogVersion::V6 => Inner::Text(TextLogWriter::new(6)),
            LogVersion::V7 => Inner::Text(TextLogWriter::new(7)),
            LogVersion::Json | LogVersion::Json18 => Inner::Json(json::JsonWriter::new(header)),
        };
        LogWriter { inner }
    }

    pub fn record(&mut self, r: &Record) {
        match &mut self.inner {
            Inner::Text(w) => w.record(r),
            Inner::Json(w) => w.record(r),
            Inner::Binary(w) => match r {
                Record::ServerParam(p) => w.server_param(p),
                Record::PlayerParam(p) => w.player_param(p),
                Record::PlayerType(p) => w.player_type(p),
                Record::PlayMode { mode, .. } => w.play_mode(*mode),
                Record::Team { teams, .. } => w.team(teams),
                Record::Show(f) => w.show(f),
                Record::Msg(m) => w.msg(m),
                Record::Draw(d) => w.draw(d),
                Record::TeamGraphic(_) => {}
            },
        }
    }

    /// The bytes written since the last call.
    pub fn take(&mut self) -> Vec<u8> {
        match &mut self.inner {
            Inner::Text(w) => w.take(),
            Inner::Json(w) => w.take(),
            Inner::Binary(w) => w.take(),
        }
    }

    /// The last bytes: what is still held, and the end of a JSON log's array.
    pub fn finish(mut self) -> Vec<u8> {
        match &mut self.inner {
            Inner::Json(w) => w.finish(),
            _ => self.take(),
        }
    }
}

/// Writes `records` as a whole log of `version`.
pub fn write_log<'a>(
    version: LogVersion,
    records: impl IntoIterator<Item = &'a Record>,
) -> Vec<u8> {
    write_log_with_header(version, JsonHeader::default(), records)
}

/// [`write_log`] with what a JSON log's first records say (version, start time).
pub fn write_log_with_header<'a>(
    version: LogVersion,
    header: JsonHeader,
    records: impl IntoIterator<Item = &'a Record>,
) -> Vec<u8> {
    let mut w = LogWriter::with_header(version, header);
    let mut out = Vec::new();
    for r in records {
        w.record(r);
        out.extend(w.take());
    }
    out.extend(w.finish());
    out
}
