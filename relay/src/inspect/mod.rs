//! The summary `pitchside-inspect` prints for a logfile, also the golden-file format of the
//! fixture tests.
//!
//! The summary is computed while the log is decoded, chunk by chunk: each record is folded
//! into a few counters and the match events ([`Events`]) and then dropped, so memory stays
//! the same whatever the size of the log (no frame is kept). Shows are decoded with
//! [`Detail::Light`]: the summary needs no stamina, view or command counts.

mod chunks;
pub mod export;
mod ordered;
pub mod parquet;
pub mod series;
pub mod tools;

use pitchside_analysis::actions::PlayerFigures;
use pitchside_analysis::events::Event;
use pitchside_analysis::stats::{Stats, Summary};
use pitchside_competitions::series::{Ended, Game, GameReader};
use rcss_formats::log::{Detail, Ending, LineBatch, LogEnd, ReadLines};
use rcss_formats::params::MatchParams;
use rcss_formats::{Location, LogDecoder, LogError, LogVersion, Match, Params, Record, Side, Team};
use serde_json::{json, Value};
use std::io::Read;

pub use chunks::{read_chunks, CHUNK};
/// Compressed bytes decoded at a time (see [`Inspection::feed`]).
const GZIP_SLICE: usize = 32 << 10;

pub fn error_json(e: &LogError) -> Value {
    match e.location() {
        Some(Location::Offset(o)) => json!({"offset": o, "message": e.to_string()}),
        Some(Location::Line(l)) => json!({"line": l, "message": e.to_string()}),
        None => json!({"message": e.to_string()}),
    }
}

/// Counts distinct show times in constant memory for real logs: one bit per cycle up to
/// about a million cycles (128 KB at most, 750 bytes for a 6000-cycle game); later cycles
/// are counted when they exceed every earlier one, which is exact for logs, whose times
/// never go back.
#[derive(Clone, Debug, Default)]
struct CycleCounter {
    bits: Vec<u64>,
    count: usize,
    max: Option<u32>,
}

impl CycleCounter {
    const BITS_LIMIT: u32 = 1 << 20;

    fn add(&mut self, t: u32) {
        if t < Self::BITS_LIMIT {
            let (word, bit) = ((t / 64) as usize, t % 64);
            if self.bits.len() <= word {
                self.bits.resize(word + 1, 0);
            }
            if self.bits[word] & (1 << bit) == 0 {
                self.bits[word] |= 1 << bit;
                self.count += 1;
            }
        } else if self.max.is_none_or(|m| t > m) {
            self.count += 1;
        }
        self.max = Some(self.max.map_or(t, |m| m.max(t)));
    }
}

/// What a log holds, as `pitchside-inspect` reports it.
#[derive(Clone, Debug)]
pub struct Report {
    pub version: Option<LogVersion>,
    pub compressed: bool,
    pub shows: usize,
    /// Distinct show times.
    pub cycles: usize,
    /// Team names and score at the end: the last team record, else the last show.
    pub teams: [Team; 2],
    pub messages: usize,
    pub events: Vec<Event>,
    /// Each player's figures from his actions, left team first, `[side][unum - 1]`.
    pub players: [[PlayerFigures; 11]; 2],
    /// The teams' statistics at the end ([`pitchside_analysis::stats`]).
    pub stats: Summary,
    pub end: LogEnd,
    pub error: Option<LogError>,
    /// Whether a show, a msg or the server parameters were read (else the file is not a log,
    /// or empty).
    pub anything: bool,
    /// The players on the field at kick-off, for a series' validity.
    pub lineup: GameReader,
}

impl Report {
    /// How the reading ended: whole, incomplete (cut short, any version) or damaged.
    pub fn ending(&self) -> Ending {
        Ending::of(&self.end, self.error.as_ref())
    }

    /// The match as a series counts it, named `name`.
    pub fn game(&self, name: &str) -> Game {
        if !self.anything {
            let why = self
                .error
                .as_ref()
                .map_or_else(|| "no records".to_owned(), ToString::to_string);
            return Game::unreadable(name, why);
        }
        let shootout = match (self.teams[0].penalty, self.teams[1].penalty) {
            (None, None) => None,
            (l, r) => Some([l.map_or(0, |p| p.scored), r.map_or(0, |p| p.scored)]),
        };
        self.lineup.clone().finish(
            name,
            Ended {
                teams: [0, 1].map(|i| self.teams[i].name.clone().unwrap_or_default()),
                score: [self.teams[0].score, self.teams[1].score],
                shootout,
                last_cycle: self.end.last_cycle().unwrap_or(self.stats.cycle),
                events: &self.events,
                stats: &self.stats,
                ending: &self.ending(),
            },
        )
    }

    /// The `--json` object. Every key is always present, so a script reading many files
    /// needs no special case.
    pub fn to_json(&self) -> Value {
        let ending = self.ending();
        let teams = &self.teams;
        let version = match self.version.map(|v| v.number()) {
            Some(Some(n)) => json!(n),
            Some(None) => json!("json"),
            None => Value::Null,
        };
        let penalties = match (teams[0].penalty, teams[1].penalty) {
            (None, None) => Value::Null,
            (l, r) => {
                let (l, r) = (l.unwrap_or_default(), r.unwrap_or_default());
                json!([l.scored, l.missed, r.scored, r.missed])
            }
        };
        let letter = |s: Side| s.letter().to_string();
        let goals: Vec<Value> = self
            .events
            .iter()
            .filter(|e| matches!(e.kind, pitchside_analysis::events::EventKind::Goal { .. }))
            .map(|e| json!({"cycle": e.cycle, "side": e.side.map(letter)}))
            .collect();
        let events: Vec<Value> = self
            .events
            .iter()
            .map(|e| {
                json!({
                    "cycle": e.cycle,
                    "frame": e.frame,
                    "kind": e.kind.id(),
                    "label": e.kind.label(),
                    "side": e.side.map(letter),
                    "player": e.player,
                })
            })
            .collect();
        json!({
            "version": version,
            "compressed": self.compressed,
            "shows": self.shows,
            "cycles": self.cycles,
            "teams": [teams[0].name, teams[1].name],
            "score": [teams[0].score, teams[1].score],
            "penalties": penalties,
            "goals": goals,
            "events": events,
            "players": players_json(&self.players),
            "stats": stats_json(&self.stats),
            "messages": self.messages,
            "ends_before_full_time": self.end.before_full_time(),
            "ending": match ending {
                Ending::Whole => "whole",
                Ending::Incomplete { .. } => "incomplete",
                Ending::Damaged(_) => "damaged",
            },
            "incomplete": ending.incomplete(),
            // Damage only: a log cut short is `incomplete`, whatever its version.
            "error": match &ending {
                Ending::Damaged(e) => error_json(e),
                _ => Value::Null,
            },
        })
    }
}

/// Each team's players' figures as JSON: `[[{"unum": 7, "kicks": 12, …}, …], […]]`, the
/// players who did something only.
fn players_json(players: &[[PlayerFigures; 11]; 2]) -> Value {
    Value::Array(
        players
            .iter()
            .map(|team| {
                Value::Array(
                    team.iter()
                        .enumerate()
                        .filter(|(_, f)| **f != PlayerFigures::default())
                        .map(|(i, f)| {
                            let mut o = serde_json::Map::new();
                            o.insert("unum".into(), json!(i + 1));
                            for (k, v) in f.named() {
                                o.insert(k.into(), json!(v));
                            }
                            Value::Object(o)
                        })
                        .collect(),
                )
            })
            .collect(),
    )
}

/// The teams' statistics as JSON, each figure a `[left, right]` pair; possession as shares
/// (`null` before any play).
fn stats_json(s: &Summary) -> Value {
    let pair = |f: fn(&pitchside_analysis::stats::TeamStats) -> u32| {
        json!([f(&s.teams[0]), f(&s.teams[1])])
    };
    json!({
        "play_on_cycles": s.play_on_cycles,
        "possession": [s.possession(Side::Left), s.possession(Side::Right)],
        "kicks": pair(|t| t.kicks),
        "passes": pair(|t| t.passes),
        "shots": pair(|t| t.shots),
        "shots_on_target": pair(|t| t.shots_on_target),
        "goals": pair(|t| t.goals),
        "fouls": pair(|t| t.fouls),
        "yellow_cards": pair(|t| t.yellow_cards),
        "red_cards": pair(|t| t.red_cards),
        "corners": pair(|t| t.corners),
        "free_kicks": pair(|t| t.free_kicks),
        "offsides": pair(|t| t.offsides),
    })
}

/// Folds a log's records into a [`Report`] as they are decoded.
pub struct Inspection {
    decoder: LogDecoder,
    records: Vec<Record>,
    shows: usize,
    cycles: CycleCounter,
    messages: usize,
    server_param: Option<Params>,
    player_types: Vec<Params>,
    /// Started at the first show, with the parameters seen before it (logs write them first).
    stats: Option<Stats>,
    last_team: Option<[Team; 2]>,
    last_frame_teams: Option<[Team; 2]>,
    end: LogEnd,
    error: Option<LogError>,
    lineup: GameReader,
}

impl Default for Inspection {
    fn default() -> Self {
        Self::new()
    }
}

impl Inspection {
    pub fn new() -> Inspection {
        let mut decoder = LogDecoder::new();
        decoder.set_detail(Detail::Light);
        Inspection {
            decoder,
            records: Vec::new(),
            shows: 0,
            cycles: CycleCounter::default(),
            messages: 0,
            server_param: None,
            player_types: Vec::new(),
            stats: None,
            last_team: None,
            last_frame_teams: None,
            end: LogEnd::default(),
            error: None,
            lineup: GameReader::default(),
        }
    }

    /// Decodes `chunk`; `false` once decoding has stopped at an error (more input is useless).
    pub fn feed(&mut self, chunk: &[u8]) -> bool {
        // Compressed input inflates to about five times its size: fed whole, one chunk's
        // text and records would be held at once. In slices they are held a slice at a time.
        let gzip = self.decoder.is_compressed()
            || (self.decoder.bytes_fed() == 0 && chunk.starts_with(&[0x1f, 0x8b]));
        let slice = if gzip { GZIP_SLICE } else { chunk.len().max(1) };
        for piece in chunk.chunks(slice) {
            if self.error.is_some() {
                return false;
            }
            let res = self.decoder.feed(piece, &mut self.records);
            self.take_records();
            if let Err(e) = res {
                self.error = Some(e);
                return false;
            }
        }
        self.error.is_none()
    }

    /// Ends the input and returns the report.
    pub fn finish(mut self) -> Report {
        if self.error.is_none() {
            let res = self.decoder.finish(&mut self.records);
            self.take_records();
            self.error = res.err();
        }
        let teams = self
            .last_team
            .take()
            .or(self.last_frame_teams.take())
            .unwrap_or_default();
        let anything = self.shows > 0 || self.messages > 0 || self.server_param.is_some();
        Report {
            version: self.decoder.version(),
            compressed: self.decoder.is_compressed(),
            shows: self.shows,
            cycles: self.cycles.count,
            teams,
            messages: self.messages,
            events: self
                .stats
                .as_ref()
                .map(|s| s.events().events().to_vec())
                .unwrap_or_default(),
            players: self
                .stats
                .as_ref()
                .map(|s| s.actions().figures())
                .unwrap_or_default(),
            stats: self.stats.as_ref().map(Stats::summary).unwrap_or_default(),
            end: self.end,
            error: self.error,
            anything,
            lineup: self.lineup,
        }
    }

    fn take_records(&mut self) {
        for r in self.records.drain(..) {
            self.end.push(&r);
            match r {
                Record::ServerParam(p) => self.server_param = Some(p),
                Record::PlayerParam(_) => {}
                Record::PlayerType(p) => {
                    if self.player_types.len() < 256 {
                        self.player_types.push(p);
                    }
                }
                Record::PlayMode { .. } | Record::TeamGraphic(_) | Record::Draw(_) => {}
                Record::Team { teams, .. } => self.last_team = Some(teams),
                Record::Msg(_) => self.messages += 1,
                Record::Show(frame) => {
                    self.shows += 1;
                    self.cycles.add(frame.time);
                    self.lineup.frame(&frame);
                    let params =
                        || MatchParams::new(self.server_param.as_ref(), &self.player_types);
                    self.stats
                        .get_or_insert_with(|| Stats::new(params()))
                        .push(&frame);
                    self.last_frame_teams = Some(frame.teams);
                }
            }
        }
    }
}

/// Inspects a whole log held in memory (compressed or not).
pub fn inspect_bytes(bytes: &[u8]) -> Report {
    let mut i = Inspection::new();
    for chunk in bytes.chunks(CHUNK) {
        if !i.feed(chunk) {
            break;
        }
    }
    i.finish()
}

/// Inspects a log read from `reader` in [`CHUNK`]-byte steps, never holding more of it.
pub fn inspect_reader(reader: impl Read) -> std::io::Result<Report> {
    let mut i = Inspection::new();
    read_chunks(reader, |bytes| Ok(i.feed(bytes)), |e| e)?;
    Ok(i.finish())
}

/// Bytes of a log read at a time by [`inspect_file`]: about ten shows of a text log, so that
/// both threads have work within the first millisecond and the batches in flight (their
/// bytes and their decoded frames) stay within the memory librcsc's `rcgresultprinter` takes
/// (128 KB batches took 0.9 MB more than one thread; BENCHMARKS.md).
const BATCH: usize = 32 << 10;
/// Compressed bytes read at a time by [`inspect_file`]: they inflate to about five times more.
const GZIP_BATCH: usize = 32 << 10;
/// Batches in flight in [`inspect_file`].
const WINDOW: usize = 4;

/// [`inspect_reader`] on this thread and a second one, for one log at a time: the lines of a
/// text or JSON log are read on both threads while this one reads the file and folds the
/// records in order. The same report, in the memory of a few batches. Binary logs are
/// decoded on this thread as by [`inspect_reader`].
pub fn inspect_file(reader: impl Read) -> std::io::Result<Report> {
    let mut inspection = Inspection::new();
    let mut driver = Driver {
        inspection: &mut inspection,
        reader,
        spare: Vec::new(),
        io_error: None,
    };
    ordered::run(
        &mut driver,
        |item| match item {
            Item::Records(r) => Done::Records(r),
            Item::Lines(b) => Done::Lines(b.read()),
        },
        WINDOW,
    );
    if let Some(e) = driver.io_error {
        return Err(e);
    }
    Ok(inspection.finish())
}

enum Item {
    /// Records decoded on the reading thread (a log's first bytes, binary logs).
    Records(Vec<Record>),
    Lines(LineBatch),
}

enum Done {
    Records(Vec<Record>),
    Lines(ReadLines),
}

/// The reading thread's side of [`inspect_file`].
struct Driver<'a, R> {
    inspection: &'a mut Inspection,
    reader: R,
    /// Buffers of batches folded, to read into again.
    spare: Vec<Vec<u8>>,
    io_error: Option<std::io::Error>,
}

impl<R: Read> Driver<'_, R> {
    /// Fills `buf` from the reader; its length is what was read (0 at the end).
    fn read_into(&mut self, buf: &mut Vec<u8>, size: usize) -> std::io::Result<()> {
        buf.resize(size, 0);
        let mut n = 0;
        while n < size {
            match self.reader.read(&mut buf[n..]) {
                Ok(0) => break,
                Ok(k) => n += k,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        buf.truncate(n);
        Ok(())
    }
}

impl<R: Read> ordered::Ordered for Driver<'_, R> {
    type Item = Item;
    type Done = Done;

    fn next(&mut self) -> Option<Item> {
        if self.inspection.error.is_some() || self.io_error.is_some() {
            return None;
        }
        // The first read small: until the decoder knows the format (and whether it is
        // compressed) it decodes what it is given on this thread, all at once.
        let size = if self.inspection.decoder.is_compressed()
            || self.inspection.decoder.bytes_fed() == 0
        {
            GZIP_BATCH
        } else {
            BATCH
        };
        let mut buf = self.spare.pop().unwrap_or_default();
        if let Err(e) = self.read_into(&mut buf, size) {
            self.io_error = Some(e);
            return None;
        }
        if buf.is_empty() {
            return None;
        }
        let mut records = Vec::new();
        match self.inspection.decoder.feed_lines(buf, &mut records) {
            Ok(Some(batch)) => Some(Item::Lines(batch)),
            Ok(None) => Some(Item::Records(records)),
            Err(e) => {
                // Decoded here, so no batch is in flight: the records before the error are
                // folded, then nothing more is read.
                self.inspection.error = Some(e);
                Some(Item::Records(records))
            }
        }
    }

    fn take(&mut self, done: Done) -> bool {
        let i = &mut *self.inspection;
        match done {
            Done::Records(r) => {
                i.records = r;
                i.take_records();
                true
            }
            Done::Lines(mut lines) => {
                self.spare.push(lines.take_buffer());
                let res = i.decoder.complete_lines(lines, &mut i.records);
                i.take_records();
                match res {
                    Ok(()) => true,
                    Err(e) => {
                        i.error = Some(e);
                        false
                    }
                }
            }
        }
    }
}

/// The same report from a match decoded whole and in full detail (what the page holds): the
/// golden tests check that both ways agree.
pub fn report_of_match(m: &Match) -> Report {
    let stats = Stats::of_match(m);
    let actions = stats.actions();
    let mut lineup = GameReader::default();
    for f in &m.frames {
        lineup.frame(f);
    }
    Report {
        version: m.version,
        compressed: m.compressed,
        shows: m.frames.len(),
        cycles: m.distinct_cycles(),
        teams: m.final_teams(),
        messages: m.messages.len(),
        events: actions.events().events().to_vec(),
        players: actions.figures(),
        stats: stats.summary(),
        end: m.end,
        error: m.error.clone(),
        anything: !(m.frames.is_empty() && m.messages.is_empty() && m.server_param.is_none()),
        lineup,
    }
}

/// The `--json` output for a decoded log.
pub fn summarize(m: &Match) -> Value {
    report_of_match(m).to_json()
}
