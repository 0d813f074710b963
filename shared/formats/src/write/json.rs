//! JSON logs as rcssserver 19 writes them (`game_log_version = -1`): `[`, a `version` and a
//! `timestamp` record, one record per line separated by `,\n`, then `]` (`initsenderlogger.cpp`,
//! `dispsender.cpp`, `serializermonitor.cpp`). Strings are quoted as C++'s `std::quoted`
//! quotes them (a backslash before `"` and `\`), except that control characters, which would
//! make the file unreadable as JSON, are written as `\u00XX`.

use super::params::{normalized_params, ParamsKind};
use crate::format::JsonHeader;
use crate::model::{Frame, Message, ParamValue, Params, Player, Record, Team, TeamGraphic};
use crate::number::write_g6;
use crate::playmode::PlayMode;
use std::fmt::Write;

pub(crate) struct JsonWriter {
    out: Vec<u8>,
    /// Records waiting for the next show, whose stoppage count they take when they are of its
    /// cycle (the server writes play-mode and team records just before the show).
    pending: Vec<Record>,
    /// The last show's time and stoppage count.
    last: Option<(u32, u32)>,
    /// Shows of the current cycle so far, for sources that carry no stoppage count.
    same_cycle: u32,
    /// The last show's mode.
    last_mode: PlayMode,
    /// The mode and teams last written, so that a source whose shows carry them (binary v1,
    /// v2) gets play-mode and team records where they change.
    mode: Option<PlayMode>,
    teams: Option<[Team; 2]>,
    /// `game_over_wait`, when `auto_mode` is on: the server then ends the game that many
    /// cycles after time over, and writes its last records with that stoppage count less one.
    game_over_wait: Option<u32>,
    /// A msg that carries a team-graphic tile is written as the `team_graphic` record that
    /// follows it.
    line: String,
}

impl JsonWriter {
    pub(crate) fn new(header: JsonHeader) -> JsonWriter {
        let mut line = String::from("[\n{\"version\":");
        quoted(
            &mut line,
            header.version.as_deref().unwrap_or("19.0.0").as_bytes(),
        );
        line.push('}');
        if let Some(t) = &header.timestamp {
            line.push_str(",\n{\"timestamp\":");
            quoted(&mut line, t.as_bytes());
            line.push('}');
        }
        JsonWriter {
            out: line.into_bytes(),
            pending: Vec::new(),
            last: None,
            same_cycle: 0,
            last_mode: PlayMode::NULL,
            mode: None,
            teams: None,
            game_over_wait: None,
            line: String::new(),
        }
    }

    pub(crate) fn record(&mut self, r: &Record) {
        match r {
            Record::Show(f) => {
                if self.last.is_some_and(|(t, _)| t == f.time) {
                    self.same_cycle += 1;
                } else {
                    self.same_cycle = 0;
                }
                let stime = f.stime.unwrap_or(self.same_cycle);
                let pending = std::mem::take(&mut self.pending);
                for p in &pending {
                    let s = stime_of(p, Some((f.time, stime)), self.last);
                    self.write(p, s);
                }
                self.last = Some((f.time, stime));
                self.last_mode = f.mode;
                if self.mode != Some(f.mode) && f.mode != PlayMode::NULL {
                    let r = Record::PlayMode {
                        time: f.time,
                        mode: f.mode,
                    };
                    self.write(&r, stime);
                }
                if self.teams.as_ref() != Some(&f.teams) {
                    let r = Record::Team {
                        time: Some(f.time),
                        teams: f.teams.clone(),
                    };
                    self.write(&r, stime);
                }
                self.show(f, stime);
            }
            Record::PlayMode { .. } | Record::Team { .. } | Record::Msg(_) => {
                if matches!(r, Record::Msg(m) if is_tile(m)) {
                    return;
                }
                self.pending.push(r.clone());
            }
            Record::Draw(_) => {}
            Record::ServerParam(p) => {
                let auto = p.get("auto_mode").and_then(ParamValue::as_f64) == Some(1.0);
                let wait = p.get("game_over_wait").and_then(ParamValue::as_f64);
                self.game_over_wait = wait.filter(|w| auto && *w >= 1.0).map(|w| w as u32);
                if self.pending.is_empty() {
                    self.write(r, 0)
                } else {
                    self.pending.push(r.clone())
                }
            }
            _ if !self.pending.is_empty() => self.pending.push(r.clone()),
            _ => self.write(r, 0),
        }
    }

    fn write(&mut self, r: &Record, stime: u32) {
        let l = &mut self.line;
        l.clear();
        l.push_str(",\n");
        match r {
            Record::ServerParam(p) => params(
                l,
                "server_param",
                &normalized_params(p, ParamsKind::Server, true),
            ),
            Record::PlayerParam(p) => params(
                l,
                "player_param",
                &normalized_params(p, ParamsKind::Player, true),
            ),
            Record::PlayerType(p) => params(l, "player_type", p),
            Record::PlayMode { time, mode } => {
                if *mode == PlayMode::NULL {
                    return;
                }
                self.mode = Some(*mode);
                l.push_str("{\"playmode\":{");
                time_fields(l, *time, stime);
                l.push_str(",\"mode\":");
                quoted(l, mode.name().as_bytes());
                l.push_str("}}");
            }
            Record::Team { time, teams } => {
                self.teams = Some(teams.clone());
                l.push_str("{\"team\":{");
                time_fields(l, time.unwrap_or(0), stime);
                l.push(',');
                teams_fields(l, teams);
                l.push_str("}}");
            }
            Record::Msg(m) => {
                // The text goes out as its bytes: msgs may hold bytes that are not UTF-8.
                l.push_str("{\"msg\":{");
                time_fields(l, m.time, stime);
                let _ = write!(l, ",\"board\":{},\"message\":", m.board);
                self.out.extend_from_slice(self.line.as_bytes());
                // The server writes a C string: up to the first NUL.
                let text = match m.text.iter().position(|&b| b == 0) {
                    Some(n) => &m.text[..n],
                    None => &m.text[..],
                };
                quoted_bytes(&mut self.out, text);
                self.out.extend_from_slice(b"}}");
                return;
            }
            Record::TeamGraphic(t) => tile(l, t),
            Record::Show(_) | Record::Draw(_) => return,
        }
        self.out.extend_from_slice(self.line.as_bytes());
    }

    fn show(&mut self, f: &Frame, stime: u32) {
        let l = &mut self.line;
        l.clear();
        l.push_str(",\n{\"show\":{");
        time_fields(l, f.time, stime);
        let b = &f.ball;
        l.push_str(",\"ball\":{");
        fields(l, &[("x", b.x), ("y", b.y), ("vx", b.vx), ("vy", b.vy)]);
        if b.z != 0.0 {
            // As the 2.5D fork writes it; rcssserver's own shows have no height.
            l.push_str(",\"z\":");
            num(l, b.z);
        }
        l.push_str("},\"players\":[");
        for (i, p) in f.players.iter().enumerate() {
            if i > 0 {
                l.push(',');
            }
            player(l, p, i);
        }
        l.push_str("]}}");
        self.out.extend_from_slice(self.line.as_bytes());
    }

    pub(crate) fn take(&mut self) -> Vec<u8> {
        std::mem::take(&mut self.out)
    }

    /// Writes what still waits and closes the array.
    pub(crate) fn finish(&mut self) -> Vec<u8> {
        // What comes after the last show of a game over in auto mode is written when the
        // server's wait after time over runs out.
        let end = match (self.last, self.game_over_wait) {
            (Some((t, _)), Some(w)) if self.last_mode == PlayMode::TIME_OVER => Some((t, w - 1)),
            _ => None,
        };
        let pending = std::mem::take(&mut self.pending);
        for p in &pending {
            let s = stime_of(p, end, self.last);
            self.write(p, s);
        }
        self.out.extend_from_slice(b"\n]\n");
        self.take()
    }
}

/// The stoppage count of a record written between the shows `prev` and `next`: that of the
/// one of its cycle (the next first: play-mode and team records precede their show).
fn stime_of(r: &Record, next: Option<(u32, u32)>, prev: Option<(u32, u32)>) -> u32 {
    let time = match r {
        Record::PlayMode { time, .. } => *time,
        Record::Team { time, .. } => time.unwrap_or(0),
        Record::Msg(m) => m.time,
        _ => return 0,
    };
    [next, prev]
        .into_iter()
        .flatten()
        .find(|(t, _)| *t == time)
        .map_or(0, |(_, s)| s)
}

fn is_tile(m: &Message) -> bool {
    m.text.starts_with(b"(team_graphic_")
        && crate::team_graphic::parse_team_graphic(&m.text).is_some()
}

fn num(l: &mut String, v: f32) {
    write_g6(l, f64::from(v));
}

/// `"name":value` for each pair, separated by commas.
fn fields(l: &mut String, pairs: &[(&str, f32)]) {
    for (i, (name, v)) in pairs.iter().enumerate() {
        if i > 0 {
            l.push(',');
        }
        l.push('"');
        l.push_str(name);
        l.push_str("\":");
        num(l, *v);
    }
}

fn time_fields(l: &mut String, time: u32, stime: u32) {
    let _ = write!(l, "\"time\":{time}");
    if stime > 0 {
        let _ = write!(l, ",\"stime\":{stime}");
    }
}

/// `std::quoted` of text that is UTF-8 (names, parameters, XPM lines).
fn quoted(l: &mut String, s: &[u8]) {
    let mut out = Vec::with_capacity(s.len() + 2);
    quoted_bytes(&mut out, s);
    l.push_str(&String::from_utf8_lossy(&out));
}

/// `std::quoted`: `"`, a backslash before `"` and `\`, the bytes as they are; control
/// characters as `\u00XX`.
fn quoted_bytes(out: &mut Vec<u8>, s: &[u8]) {
    out.push(b'"');
    for &b in s {
        match b {
            b'"' => out.extend_from_slice(b"\\\""),
            b'\\' => out.extend_from_slice(b"\\\\"),
            0..=0x1f => out.extend_from_slice(format!("\\u{b:04x}").as_bytes()),
            _ => out.push(b),
        }
    }
    out.push(b'"');
}

fn params(l: &mut String, head: &str, p: &Params) {
    let _ = write!(l, "{{\"{head}\":{{");
    for (i, (name, v)) in p.entries.iter().enumerate() {
        if i > 0 {
            l.push(',');
        }
        quoted(l, name.as_bytes());
        l.push(':');
        match v {
            ParamValue::Int(i) => {
                let _ = write!(l, "{i}");
            }
            ParamValue::Float(f) => write_g6(l, *f),
            ParamValue::Bool(b) => l.push_str(if *b { "true" } else { "false" }),
            ParamValue::Text(t) => quoted(l, t.as_bytes()),
        }
    }
    l.push_str("}}");
}

/// `"l":{…},"r":{…}`: name (or null), score, and the penalty tally of a team that took a
/// kick.
fn teams_fields(l: &mut String, teams: &[Team; 2]) {
    for (i, (side, t)) in ["l", "r"].iter().zip(teams).enumerate() {
        if i > 0 {
            l.push(',');
        }
        let _ = write!(l, "\"{side}\":{{\"name\":");
        match t.name.as_deref().filter(|n| !n.is_empty()) {
            Some(n) => quoted(l, n.as_bytes()),
            None => l.push_str("null"),
        }
        let _ = write!(l, ",\"score\":{}", t.score);
        if let Some(p) = t.penalty.filter(|p| p.scored + p.missed > 0) {
            let _ = write!(l, ",\"pen_score\":{},\"pen_miss\":{}", p.scored, p.missed);
        }
        l.push('}');
    }
}

fn tile(l: &mut String, t: &TeamGraphic) {
    let _ = write!(
        l,
        "{{\"team_graphic\":{{\"side\":\"{}\",\"x\":{},\"y\":{},\"xpm\":[",
        t.side.letter(),
        t.x,
        t.y
    );
    for (i, line) in t.xpm.iter().enumerate() {
        if i > 0 {
            l.push(',');
        }
        quoted(l, line.replace('\t', " ").as_bytes());
    }
    l.push_str("]}}");
}

fn player(l: &mut String, p: &Player, index: usize) {
    let side = p
        .side
        .map(|s| s.letter())
        .unwrap_or(if index < 11 { 'l' } else { 'r' });
    let _ = write!(
        l,
        "{{\"side\":\"{side}\",\"unum\":{},\"type\":{},\"state\":{},",
        p.unum, p.player_type, p.state
    );
    let motion = [("x", p.x), ("y", p.y), ("vx", p.vx), ("vy", p.vy)];
    fields(l, &motion);
    l.push(',');
    fields(l, &[("body", p.body), ("neck", p.neck)]);
    if let Some((x, y)) = p.point {
        l.push(',');
        fields(l, &[("px", x), ("py", y)]);
    }
    let (q, w) = p.view.unwrap_or((crate::model::ViewQuality::High, 90.0));
    l.push_str(match q {
        crate::model::ViewQuality::High => ",\"vq\":\"h\",",
        crate::model::ViewQuality::Low => ",\"vq\":\"l\",",
    });
    fields(l, &[("vw", w)]);
    let s = p.stamina.unwrap_or_default();
    l.push(',');
    let capacity = s.capacity.unwrap_or(0.0);
    fields(
        l,
        &[
            ("stamina", s.stamina),
            ("effort", s.effort),
            ("recovery", s.recovery),
            ("capacity", capacity),
        ],
    );
    if let Some((side, n)) = p.attention {
        let _ = write!(l, ",\"fside\":\"{}\",\"fnum\":{n}", side.letter());
    }
    let c = p.counts.unwrap_or_default();
    for (name, v) in crate::model::Counts::NAMES.iter().zip(c.values) {
        let _ = write!(l, ",\"{name}\":{v}");
    }
    l.push('}');
}
