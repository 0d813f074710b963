//! Whole text and JSON logs decoded as two halves on two threads.
//!
//! Lines of a ULG4-6 or JSON log are independent except for the play mode and the teams, which
//! a show takes from the last `playmode` and `team` records before it. The second half's
//! decoder starts from those two records, found by searching back from the split, so both
//! halves decode at once and give exactly what one pass gives (a test compares them on every
//! real log). Binary and gzip-compressed input, small logs and one-core machines take the
//! single pass.

use super::decoder::{detect, Detect, LogDecoder};
use super::line::memchr_nl;
use super::recorded::Match;
use crate::error::{Location, LogError};
use crate::format::LogVersion;
use crate::model::{Record, Team};
use crate::playmode::PlayMode;

/// Below this a second thread costs more than it saves.
const MIN_BYTES: usize = 4 << 20;

/// `None` when the input is not worth splitting or cannot be split.
pub(super) fn parse(bytes: &[u8]) -> Option<Match> {
    if bytes.len() < MIN_BYTES || bytes.starts_with(&[0x1f, 0x8b]) {
        return None;
    }
    if std::thread::available_parallelism().map_or(1, |n| n.get()) < 2 {
        return None;
    }
    let version = match detect(bytes, true) {
        Detect::Found(v, _) if v.is_line_based() => v,
        _ => return None,
    };
    let mid = bytes.len() / 2;
    let split = mid + memchr_nl(&bytes[mid..])? + 1;
    let (head, tail) = bytes.split_at(split);
    let (mode, teams) = state_at_end(version, head);
    let mut second = LogDecoder::new();
    second.sniffed_gzip = true;
    second.version = Some(version);
    second.offset = split as u64;
    second.mode = mode;
    second.teams = teams;

    let joined = std::thread::scope(|s| {
        let worker = s.spawn(move || {
            let mut records = Vec::new();
            let res = second
                .feed(tail, &mut records)
                .and_then(|_| second.finish(&mut records));
            (records, res, second.saw_show)
        });
        let mut first = LogDecoder::new();
        let mut records = Vec::new();
        let res = first.feed(head, &mut records);
        // A panicking half leaves the caller to the single pass.
        worker.join().ok().map(|tail| ((first, records, res), tail))
    });
    let ((first, head_records, head_result), (tail_records, tail_result, tail_saw_show)) = joined?;

    let mut m = Match::default();
    m.frames.reserve(bytes.len() / 4096);
    m.version = Some(version);
    for r in head_records {
        m.push(r);
    }
    if let Err(e) = head_result {
        // One pass would have stopped here too.
        m.error = Some(e);
        return Some(m);
    }
    for r in tail_records {
        m.push(r);
    }
    m.error = tail_result.err().map(|e| {
        let e = shift_lines(e, first.line.saturating_sub(1));
        match e {
            // The second half had no show of its own: the log stops where the first did.
            LogError::Incomplete { at, .. } if !tail_saw_show => LogError::Incomplete {
                at,
                cycle: first.last_time,
            },
            e => e,
        }
    });
    Some(m)
}

/// The play mode and teams in force at the end of `head`: its last `playmode` and `team`
/// records, parsed. Defaults when there are none, as at the start of a log.
fn state_at_end(version: LogVersion, head: &[u8]) -> (PlayMode, [Team; 2]) {
    let (mode_key, team_key): (&[u8], &[u8]) = if version.is_json() {
        (b"\n{\"playmode\"", b"\n{\"team\"")
    } else {
        (b"\n(playmode ", b"\n(team ")
    };
    let mut mode = PlayMode::NULL;
    let mut teams = <[Team; 2]>::default();
    for key in [mode_key, team_key] {
        let Some(at) = memchr::memmem::rfind(head, key) else {
            continue;
        };
        let line = &head[at + 1..];
        let line = &line[..memchr_nl(line).unwrap_or(line.len())];
        let mut out = Vec::new();
        let parsed = if version.is_json() {
            crate::json::parse_log_line(line, &mut out, crate::format::Detail::Full).is_ok()
        } else {
            crate::text::parse_record(line, &mut out).is_ok()
        };
        if !parsed {
            continue;
        }
        for r in out {
            match r {
                Record::PlayMode { mode: m, .. } => mode = m,
                Record::Team { teams: t, .. } => teams = t,
                _ => {}
            }
        }
    }
    (mode, teams)
}

fn shift_lines(e: LogError, by: u64) -> LogError {
    let shift = |at: Location| match at {
        Location::Line(l) => Location::Line(l + by),
        other => other,
    };
    match e {
        LogError::Malformed {
            at,
            record,
            expected,
            found,
        } => LogError::Malformed {
            at: shift(at),
            record,
            expected,
            found,
        },
        LogError::Truncated { at, record } => LogError::Truncated {
            at: shift(at),
            record,
        },
        LogError::TooLarge { at, record, limit } => LogError::TooLarge {
            at: shift(at),
            record,
            limit,
        },
        LogError::UnsupportedJson18 { at, detail } => LogError::UnsupportedJson18 {
            at: shift(at),
            detail,
        },
        LogError::Incomplete { at, cycle } => LogError::Incomplete {
            at: shift(at),
            cycle,
        },
        other => other,
    }
}
