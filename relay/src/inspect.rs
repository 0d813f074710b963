//! The summary `pitchside-inspect` prints for a logfile, also the golden-file format of the
//! fixture tests.

use pitchside_shared::{Location, LogError, Match, Side};
use serde_json::{json, Value};

pub fn error_json(e: &LogError) -> Value {
    match e.location() {
        Some(Location::Offset(o)) => json!({"offset": o, "message": e.to_string()}),
        Some(Location::Line(l)) => json!({"line": l, "message": e.to_string()}),
        None => json!({"message": e.to_string()}),
    }
}

/// The `--json` output for a decoded log.
pub fn summarize(m: &Match) -> Value {
    let teams = m.final_teams();
    let version = match m.version.map(|v| v.number()) {
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
    let goals: Vec<Value> = m
        .goals()
        .into_iter()
        .map(|(t, s)| json!({"cycle": t, "side": if s == Side::Left { "l" } else { "r" }}))
        .collect();
    json!({
        "version": version,
        "compressed": m.compressed,
        "shows": m.frames.len(),
        "cycles": m.distinct_cycles(),
        "teams": [teams[0].name, teams[1].name],
        "score": [teams[0].score, teams[1].score],
        "penalties": penalties,
        "goals": goals,
        "messages": m.messages.len(),
        "error": m.error.as_ref().map_or(Value::Null, error_json),
    })
}
