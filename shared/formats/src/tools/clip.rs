//! Cycles A to B of a log, as a log that stands on its own: the parameters, player types and
//! team graphics of the whole log, the play mode and teams (names, scores, penalty tallies) in
//! force at A, then every show of cycles A to B (stopped ones too) and every msg, play-mode and
//! team record of those cycles, in their order.
//!
//! What "in force at A" is needs no guessing: the decoder gives every show the mode and teams
//! of the records before it, so the first show of the clip carries them; they are written as
//! a play-mode and a team record before it, unless the source has its own at that cycle.
//! A clip of the whole log is the log.

use crate::model::Record;
use crate::team_graphic::parse_team_graphic;

/// Feed it a log's records in order ([`Clip::push`]); it passes on those of the clip.
#[derive(Clone, Debug)]
pub struct Clip {
    from: u32,
    to: u32,
    /// Parameters, player types and tiles met before the clip starts, written first.
    header: Vec<Record>,
    /// Records of cycles `from`.. met before the first show of the clip.
    waiting: Vec<Record>,
    started: bool,
    /// A show after `to` was seen: nothing more belongs to the clip.
    past: bool,
}

impl Clip {
    pub fn new(from: u32, to: u32) -> Clip {
        Clip {
            from,
            to,
            header: Vec::new(),
            waiting: Vec::new(),
            started: false,
            past: false,
        }
    }

    /// Whether the clip is complete: later records cannot belong to it.
    pub fn done(&self) -> bool {
        self.past
    }

    /// Whether the clip has a show.
    pub fn started(&self) -> bool {
        self.started
    }

    /// Takes the next record of the log; appends to `out` what of the clip is ready.
    pub fn push(&mut self, r: Record, out: &mut Vec<Record>) {
        if self.past {
            return;
        }
        match &r {
            Record::ServerParam(_) | Record::PlayerParam(_) | Record::PlayerType(_) => {
                self.keep(r, out)
            }
            Record::TeamGraphic(_) => self.keep(r, out),
            Record::Msg(m) if is_tile(&m.text) => self.keep(r, out),
            Record::Show(f) => {
                if f.time > self.to {
                    self.past = true;
                    return;
                }
                if f.time < self.from {
                    // Records of earlier cycles met on the way are not of the clip.
                    self.waiting.clear();
                    return;
                }
                if !self.started {
                    self.started = true;
                    out.append(&mut self.header);
                    let has_mode = self
                        .waiting
                        .iter()
                        .any(|w| matches!(w, Record::PlayMode { .. }));
                    let has_team = self
                        .waiting
                        .iter()
                        .any(|w| matches!(w, Record::Team { .. }));
                    // In the server's order: play mode, team, then the rest.
                    if !has_mode {
                        out.push(Record::PlayMode {
                            time: f.time,
                            mode: f.mode,
                        });
                    }
                    let after_modes = self
                        .waiting
                        .iter()
                        .rposition(|w| matches!(w, Record::PlayMode { .. }))
                        .map_or(0, |i| i + 1);
                    let rest = self.waiting.split_off(after_modes);
                    out.append(&mut self.waiting);
                    if !has_team {
                        out.push(Record::Team {
                            time: Some(f.time),
                            teams: f.teams.clone(),
                        });
                    }
                    out.extend(rest);
                }
                out.push(r);
            }
            Record::PlayMode { time, .. } => self.timed(*time, r, out),
            Record::Team { time, .. } => self.timed(time.unwrap_or(self.from), r, out),
            Record::Msg(m) => self.timed(m.time, r, out),
            Record::Draw(d) => self.timed(d.time, r, out),
        }
    }

    /// Ends the log: nothing more belongs to the clip.
    pub fn finish(&mut self) {
        self.past = true;
    }

    fn keep(&mut self, r: Record, out: &mut Vec<Record>) {
        if self.started {
            out.push(r);
        } else {
            self.header.push(r);
        }
    }

    fn timed(&mut self, time: u32, r: Record, out: &mut Vec<Record>) {
        if time < self.from || time > self.to {
            return;
        }
        if self.started {
            out.push(r);
        } else {
            self.waiting.push(r);
        }
    }
}

fn is_tile(text: &[u8]) -> bool {
    text.starts_with(b"(team_graphic_") && parse_team_graphic(text).is_some()
}
