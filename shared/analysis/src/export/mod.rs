//! A match as tables for datasets, written row by row as frames arrive (no IO: the caller
//! writes the text where it wants, a file or a download):
//!
//! - the **tracking table**, one row per show, column for column and value for value what
//!   librcsc's `rcg2csv` writes (`NAME.tracking.csv`): the show's count, cycle and
//!   stopped-clock count, play mode, both teams' names, scores and penalty goals, the ball's
//!   position and velocity, and for each of the 22 players his type, position, velocity, body
//!   and neck angles, view width and stamina (nine empty fields for a player not on the
//!   field). Numbers print as C++ streams print them (six significant digits);
//! - the **player types table**, one row per `player_type` record of the log, what
//!   `rcg2csv` writes beside the tracking table (`NAME.player_types.csv`): the `_t` column of
//!   each player in the tracking table is an `id` of this table;
//! - the **actions table**, one row per player's action ([`crate::actions`]).
//!
//! [`text`] writes the tracking table straight from a text log's lines, without decoding the
//! shows into frames: the same rows, several times faster, for the plain form rcssserver
//! writes (anything else goes through the decoder).

pub mod text;

use crate::actions::{Action, ActionKind, ShotOutcome};
use rcss_formats::model::{Frame, Team};
use rcss_formats::number::write_g6;

/// The tracking table's header line, as `rcg2csv` writes it.
pub fn tracking_header(out: &mut String) {
    out.push_str("#,cycle,stopped,playmode,l_name,l_score,l_pen_score,r_name,r_score,r_pen_score,b_x,b_y,b_vx,b_vy");
    for side in ['l', 'r'] {
        for i in 1..=11 {
            for field in [
                "t", "x", "y", "vx", "vy", "body", "neck", "vwidth", "stamina",
            ] {
                out.push(',');
                out.push(side);
                push_u(out, i);
                out.push('_');
                out.push_str(field);
            }
        }
    }
    out.push('\n');
}

/// Writes tracking rows, one per show, counting shows and stopped cycles as `rcg2csv` does.
#[derive(Clone, Debug, Default)]
pub struct Tracking {
    shows: u64,
    cycle: u32,
    stopped: u32,
}

impl Tracking {
    pub fn new() -> Tracking {
        Tracking::default()
    }

    /// The first columns of the next show's row, up to the ball (no comma after them): the
    /// show's count, its cycle, the stopped-clock count, the play mode and both teams.
    pub fn prefix(&mut self, time: u32, mode: &str, teams: &[Team; 2], out: &mut String) {
        self.shows += 1;
        // As rcg2csv counts: a show of the cycle before (0 before any) is a stopped one.
        if time == self.cycle {
            self.stopped += 1;
        } else {
            self.cycle = time;
            self.stopped = 0;
        }
        push_u(out, self.shows);
        out.push(',');
        push_u(out, u64::from(self.cycle));
        out.push(',');
        push_u(out, u64::from(self.stopped));
        out.push(',');
        quoted(out, mode);
        for t in teams {
            out.push(',');
            quoted(out, t.name.as_deref().unwrap_or(""));
            out.push(',');
            push_u(out, u64::from(t.score));
            out.push(',');
            push_u(out, u64::from(t.penalty.map_or(0, |p| p.scored)));
        }
    }

    /// Appends the row of the next show.
    pub fn row(&mut self, f: &Frame, out: &mut String) {
        self.prefix(f.time, f.mode.name(), &f.teams, out);
        for v in [f.ball.x, f.ball.y, f.ball.vx, f.ball.vy] {
            out.push(',');
            write_g6(out, f64::from(v));
        }
        for slot in 0..22 {
            let p = f.players.get(slot).filter(|p| p.state != 0);
            let Some(p) = p else {
                out.push_str(",,,,,,,,,");
                continue;
            };
            out.push(',');
            push_i(out, i64::from(p.player_type));
            for v in [p.x, p.y, p.vx, p.vy, p.body, p.neck] {
                out.push(',');
                write_g6(out, f64::from(v));
            }
            out.push(',');
            if let Some((_, w)) = p.view {
                write_g6(out, f64::from(w));
            }
            out.push(',');
            if let Some(s) = p.stamina {
                write_g6(out, f64::from(s.stamina));
            }
        }
        out.push('\n');
    }
}

/// The player types table's header line, as `rcg2csv` writes it (before the first type: a
/// log without types gives an empty table, no header either).
pub const PLAYER_TYPES_HEADER: &str = "id,player_speed_max,stamina_inc_max,player_decay,inertia_moment,dash_power_rate,player_size,kickable_margin,kick_rand,extra_stamina,effort_max,effort_min,kick_power_rate,foul_detect_probability,catchable_area_l_stretch\n";

/// The player types table's columns after `id`, each with the value `rcg2csv` prints when a
/// type leaves it out (librcsc's defaults: older servers send no `kick_power_rate`,
/// `foul_detect_probability` or `catchable_area_l_stretch`).
const PLAYER_TYPE_COLUMNS: [(&str, f64); 14] = [
    ("player_speed_max", 1.2),
    ("stamina_inc_max", 45.0),
    ("player_decay", 0.4),
    ("inertia_moment", 5.0),
    ("dash_power_rate", 0.06),
    ("player_size", 0.3),
    ("kickable_margin", 0.7),
    ("kick_rand", 0.1),
    ("extra_stamina", 0.0),
    ("effort_max", 1.0),
    ("effort_min", 0.6),
    ("kick_power_rate", 0.027),
    ("foul_detect_probability", 0.5),
    ("catchable_area_l_stretch", 1.0),
];

/// Writes the player types table, one row per `player_type` record in the log's order (every
/// record, repeats too, as `rcg2csv` does), the header before the first.
#[derive(Clone, Debug, Default)]
pub struct PlayerTypes {
    rows: usize,
}

impl PlayerTypes {
    pub fn new() -> PlayerTypes {
        PlayerTypes::default()
    }

    /// Rows written.
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// Appends the row of one `player_type` record (the header first, before the first row).
    ///
    /// Each value is read as `rcg2csv` reads the record's text: a parameter given twice is
    /// the last one; a number where the column wants one (an integer too); anything else (a
    /// flag, a text) leaves the value it had, the default at first. The `id` is the number's
    /// whole part, 0 if missing or outside a C `int`. Numbers print with six significant
    /// digits, as C++ streams print a `double`.
    pub fn row(&mut self, p: &rcss_formats::model::Params, out: &mut String) {
        use rcss_formats::model::ParamValue;
        if self.rows == 0 {
            out.push_str(PLAYER_TYPES_HEADER);
        }
        self.rows += 1;
        let mut id = 0i64;
        let mut values = PLAYER_TYPE_COLUMNS.map(|(_, d)| d);
        for (name, v) in &p.entries {
            if name == "id" {
                let whole = match v {
                    ParamValue::Int(i) => Some(*i),
                    // Below 2^63 in size: the cast is exact.
                    ParamValue::Float(f) if f.abs() < 9.2e18 => Some(f.trunc() as i64),
                    _ => None,
                };
                if let Some(i) = whole.filter(|i| i32::try_from(*i).is_ok()) {
                    id = i;
                }
                continue;
            }
            let Some(k) = PLAYER_TYPE_COLUMNS.iter().position(|(n, _)| n == name) else {
                continue;
            };
            match v {
                ParamValue::Int(i) => values[k] = *i as f64,
                ParamValue::Float(f) => values[k] = *f,
                ParamValue::Bool(_) | ParamValue::Text(_) => {}
            }
        }
        push_i(out, id);
        for v in values {
            out.push(',');
            write_g6(out, v);
        }
        out.push('\n');
    }
}

/// The actions table's header line.
pub const ACTIONS_HEADER: &str = "cycle,frame,side,team,unum,action,receiver,completed,direction,through,on_target,outcome,assist,distance,won,from_x,from_y,to_x,to_y,end_frame\n";

/// Appends one action's row; `teams` are the left and right team names.
pub fn action_row(a: &Action, teams: [&str; 2], out: &mut String) {
    push_u(out, u64::from(a.cycle));
    out.push(',');
    push_u(out, a.frame as u64);
    out.push(',');
    out.push(a.side.letter());
    out.push(',');
    quoted(out, teams[a.side.index()]);
    out.push(',');
    push_u(out, u64::from(a.unum));
    out.push(',');
    out.push_str(a.kind.id());
    // receiver, completed, direction, through, on_target, outcome, assist, distance, won
    let mut cols: [String; 9] = Default::default();
    let yes = |b: bool| if b { "1" } else { "0" }.to_owned();
    match a.kind {
        ActionKind::Pass {
            receiver,
            completed,
            direction,
            through,
        } => {
            cols[0] = receiver.to_string();
            cols[1] = yes(completed);
            cols[2] = direction.id().to_owned();
            cols[3] = yes(through);
        }
        ActionKind::Shot { on_target, outcome } => {
            cols[4] = yes(on_target);
            cols[5] = outcome.id().to_owned();
            if let ShotOutcome::Goal { assist: Some(p) } = outcome {
                cols[6] = p.to_string();
            }
        }
        ActionKind::Dribble { distance } => write_g6(&mut cols[7], f64::from(distance)),
        ActionKind::Tackle { won } => cols[8] = yes(won),
        _ => {}
    }
    for c in &cols {
        out.push(',');
        out.push_str(c);
    }
    for v in [a.from.0, a.from.1] {
        out.push(',');
        write_g6(out, f64::from(v));
    }
    match a.to {
        Some((x, y)) => {
            out.push(',');
            write_g6(out, f64::from(x));
            out.push(',');
            write_g6(out, f64::from(y));
        }
        None => out.push_str(",,"),
    }
    out.push(',');
    if let Some(e) = a.end_frame {
        push_u(out, e as u64);
    }
    out.push('\n');
}

pub(crate) fn push_u(out: &mut String, mut v: u64) {
    let mut buf = [0u8; 20];
    let mut i = buf.len();
    loop {
        i -= 1;
        buf[i] = b'0' + (v % 10) as u8;
        v /= 10;
        if v == 0 {
            break;
        }
    }
    for &b in &buf[i..] {
        out.push(char::from(b));
    }
}

fn push_i(out: &mut String, v: i64) {
    if v < 0 {
        out.push('-');
    }
    push_u(out, v.unsigned_abs());
}

/// `"text"` as C++'s `std::quoted` writes it: `"` and `\` escaped with `\`.
fn quoted(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        if c == '"' || c == '\\' {
            out.push('\\');
        }
        out.push(c);
    }
    out.push('"');
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_header_has_rcg2csvs_212_columns() {
        let mut h = String::new();
        tracking_header(&mut h);
        assert_eq!(h.trim_end().split(',').count(), 212);
        assert!(h.starts_with("#,cycle,stopped,playmode,l_name,"));
        assert!(
            h.contains(",l1_t,l1_x,l1_y,l1_vx,l1_vy,l1_body,l1_neck,l1_vwidth,l1_stamina,l2_t,")
        );
        assert!(h.trim_end().ends_with(",r11_stamina"));
    }

    #[test]
    fn a_player_type_reads_as_rcg2csv_reads_its_record() {
        use rcss_formats::model::{ParamValue, Params};
        let p = |entries: &[(&str, ParamValue)]| Params {
            entries: entries
                .iter()
                .map(|(n, v)| ((*n).to_owned(), v.clone()))
                .collect(),
        };
        let mut t = PlayerTypes::new();
        let mut out = String::new();
        // Nothing given: the defaults, the header before the first row only.
        t.row(&p(&[]), &mut out);
        t.row(
            &p(&[
                ("id", ParamValue::Int(3)),
                ("player_speed_max", ParamValue::Float(1.0500001)),
                ("player_decay", ParamValue::Float(0.5)),
                // Given twice: the last counts; a flag or a text is no number.
                ("player_decay", ParamValue::Float(0.466279)),
                ("kick_rand", ParamValue::Bool(true)),
                ("effort_max", ParamValue::Text("x".into())),
                ("extra_stamina", ParamValue::Int(50)),
                ("dash_power_rate", ParamValue::Float(0.00612345)),
                ("unum_far_length", ParamValue::Float(20.0)),
            ]),
            &mut out,
        );
        t.row(&p(&[("id", ParamValue::Float(-1.5))]), &mut out);
        t.row(&p(&[("id", ParamValue::Int(1 << 40))]), &mut out);
        assert_eq!(t.rows(), 4);
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(format!("{}\n", lines[0]), PLAYER_TYPES_HEADER);
        assert_eq!(
            lines[1],
            "0,1.2,45,0.4,5,0.06,0.3,0.7,0.1,0,1,0.6,0.027,0.5,1"
        );
        assert_eq!(
            lines[2],
            "3,1.05,45,0.466279,5,0.00612345,0.3,0.7,0.1,50,1,0.6,0.027,0.5,1"
        );
        assert!(lines[3].starts_with("-1,1.2,"), "{}", lines[3]);
        assert!(lines[4].starts_with("0,1.2,"), "{}", lines[4]);
        assert_eq!(lines.len(), 5);
        assert!(out.ends_with("1\n") && !out.contains('\r'));
    }

    #[test]
    fn names_are_quoted_as_std_quoted_does() {
        let mut s = String::new();
        quoted(&mut s, r#"a"b\c"#);
        assert_eq!(s, r#""a\"b\\c""#);
        let mut n = String::new();
        push_i(&mut n, -17);
        push_u(&mut n, 0);
        assert_eq!(n, "-170");
    }
}

/// Which table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Table {
    Tracking,
    /// The player types the tracking table's `_t` columns name.
    PlayerTypes,
    Actions,
}

/// One table of a log, from its records as they are decoded (the page's export: the whole
/// table is kept as text until it is downloaded; the inspector streams its own to files).
#[derive(Debug)]
pub struct TableFromRecords {
    table: Table,
    text: String,
    tracking: Tracking,
    types: PlayerTypes,
    server_param: Option<rcss_formats::model::Params>,
    player_types: Vec<rcss_formats::model::Params>,
    actions: Option<crate::actions::Actions>,
    teams: [String; 2],
    shows: u64,
}

impl TableFromRecords {
    pub fn new(table: Table) -> TableFromRecords {
        let mut text = String::new();
        match table {
            Table::Tracking => tracking_header(&mut text),
            Table::Actions => text.push_str(ACTIONS_HEADER),
            // Its header comes with the first type.
            Table::PlayerTypes => {}
        }
        TableFromRecords {
            table,
            text,
            tracking: Tracking::new(),
            types: PlayerTypes::new(),
            server_param: None,
            player_types: Vec::new(),
            actions: None,
            teams: [String::new(), String::new()],
            shows: 0,
        }
    }

    /// Takes the next records of the log (decoded with full detail).
    pub fn push(&mut self, records: &[rcss_formats::model::Record]) {
        use rcss_formats::model::Record;
        for r in records {
            match r {
                Record::ServerParam(p) => self.server_param = Some(p.clone()),
                Record::PlayerType(p) if self.table == Table::PlayerTypes => {
                    self.types.row(p, &mut self.text)
                }
                Record::PlayerType(p) if self.player_types.len() < 256 => {
                    self.player_types.push(p.clone())
                }
                Record::Show(f) => {
                    self.shows += 1;
                    for (name, t) in self.teams.iter_mut().zip(&f.teams) {
                        if let Some(n) = &t.name {
                            if name != n {
                                name.clone_from(n);
                            }
                        }
                    }
                    match self.table {
                        Table::Tracking => self.tracking.row(f, &mut self.text),
                        Table::PlayerTypes => {}
                        Table::Actions => {
                            let (sp, pt) = (&self.server_param, &self.player_types);
                            self.actions
                                .get_or_insert_with(|| {
                                    crate::actions::Actions::new(
                                        rcss_formats::params::MatchParams::new(sp.as_ref(), pt),
                                    )
                                })
                                .push(f);
                        }
                    }
                }
                _ => {}
            }
        }
    }

    /// Shows read.
    pub fn shows(&self) -> u64 {
        self.shows
    }

    /// Rows of the player types table so far (0 for the other tables).
    pub fn player_types(&self) -> usize {
        self.types.rows()
    }

    /// The table as CSV text.
    pub fn finish(mut self) -> String {
        if let Some(a) = &self.actions {
            let mut list = a.actions().to_vec();
            list.sort_by_key(|a| (a.frame, a.end_frame));
            let names = [self.teams[0].as_str(), self.teams[1].as_str()];
            for x in &list {
                action_row(x, names, &mut self.text);
            }
        }
        self.text
    }
}
