//! Playing a tournament (`pitchside-play --tournament FILE`): wave after wave, the games
//! [`next_wave`] gives (a round's group games at once, then each knockout tie once its sides
//! are known, a level tie going to its shoot-out), one per field, each team started by the
//! script the file names for it. Where the tournament stands is read again from the folder's
//! logs before every wave, as the relay's tournament page reads it, so a stopped tournament
//! goes on where it stopped and the page and the runner never disagree.
//!
//! A game's logs are named as rcssserver names them by default, the date first
//! (`20261128140512-ALPHA-vs-BRAVO.rcg.gz`): the archive and the page order and date games by
//! it. A game that went wrong keeps its logs, renamed `….rcg.gz.invalid` so that nothing
//! counts them, and its `.invalid` mark says which pair it was and why.

use super::{play_one, OneGame, PlayError, Setup};
use pitchside_competitions::batch::Ports;
use pitchside_competitions::tournament::next::{next_wave, NextGame};
use pitchside_competitions::tournament::{progress, Plan, Played};
use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;

/// A tournament to play.
#[derive(Clone, Debug)]
pub struct Tournament {
    pub plan: Plan,
    /// Each team's start script, absolute.
    pub scripts: BTreeMap<String, String>,
    /// Play again the games a former run marked invalid (each once in this run).
    pub replay_invalid: bool,
}

/// How a run ended.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct TournamentOutcome {
    /// Games that counted, by name, in the order they ended.
    pub played: Vec<String>,
    /// Games that went wrong: name and why.
    pub invalid: Vec<(String, String)>,
    /// Fixtures and ties in all, and played (counted) once the run ended.
    pub fixtures: u32,
    pub done: u32,
    /// Stopped by SIGUSR1 between two waves.
    pub paused: bool,
}

/// The teams of `plan` that a runner has to start: every group's, and every team a tie names
/// by name. A team reached through a slot (`A:1`, `winner:SF1`) is one of those.
pub fn teams_of(plan: &Plan) -> Vec<String> {
    let mut teams: Vec<String> = plan.groups.iter().flat_map(|g| g.teams.clone()).collect();
    for t in &plan.knockout {
        for side in [&t.left, &t.right] {
            if !side.contains(':') {
                teams.push(side.clone());
            }
        }
    }
    teams.sort();
    teams.dedup();
    teams
}

/// Plays the tournament's games not yet played in `setup.out`, `fields.len()` at once, until
/// none is left to play, `stop` is set (the games under way are stopped and marked invalid),
/// or `pause` is set (the run ends once the wave under way is over). `report` hears a line as
/// each game ends.
pub fn play_tournament(
    t: &Tournament,
    setup: &Setup,
    fields: &[Ports],
    stop: &AtomicBool,
    pause: &AtomicBool,
    report: &(dyn Fn(&str) + Sync),
) -> Result<TournamentOutcome, PlayError> {
    std::fs::create_dir_all(&setup.out).map_err(|source| PlayError::Folder {
        path: setup.out.clone(),
        source,
    })?;
    super::make_conf_dirs(&setup.out);
    let invalid_before = invalid_pairs(&setup.out);
    // How often this run has played each fixture: once, and again for each retry asked.
    let mut tried: HashMap<(String, String, Option<String>), u32> = HashMap::new();
    let mut last_stamp: Option<String> = None;
    let outcome = Mutex::new(TournamentOutcome::default());
    let ports: Vec<u16> = fields.iter().map(|p| p.player).collect();
    let status = super::status::Status::new(&setup.out, "tournament", 0, 0, &ports);
    loop {
        let p = progress(&t.plan, &played_in(&setup.out), &[]);
        status.counted(p.played, p.fixtures);
        if let Ok(mut o) = outcome.lock() {
            o.fixtures = p.fixtures;
            o.done = p.played;
        }
        if stop.load(Ordering::Relaxed) {
            break;
        }
        if pause.load(Ordering::Relaxed) {
            if let Ok(mut o) = outcome.lock() {
                o.paused = true;
            }
            break;
        }
        let skip = |g: &NextGame| {
            tried.get(&key(g)).is_some_and(|&n| n > setup.retries)
                || (!t.replay_invalid
                    && invalid_before.contains(&(g.left.clone(), g.right.clone())))
        };
        let wave = next_wave(&t.plan, &p, fields.len(), skip);
        if wave.is_empty() {
            break;
        }
        // Games are ordered by the second in their names: a wave starts in a later second
        // than the one before, or a final could sort before its semi-finals.
        let stamp = loop {
            let now = chrono::Local::now().format("%Y%m%d%H%M%S").to_string();
            if Some(&now) != last_stamp.as_ref() {
                break now;
            }
            std::thread::sleep(std::time::Duration::from_millis(50));
        };
        last_stamp = Some(stamp.clone());
        std::thread::scope(|scope| {
            for (g, &ports) in wave.iter().zip(fields) {
                let (outcome, stamp, status) = (&outcome, &stamp, &status);
                scope.spawn(move || {
                    let teams = [g.left.clone(), g.right.clone()];
                    let started = |name: &str| status.started(ports.player, name, Some(teams));
                    let (name, result) = play_fixture(t, setup, ports, g, stamp, started, stop);
                    status.ended(ports.player, result.is_ok());
                    let line = match &result {
                        Ok(()) => format!(
                            "{}: {} against {}: played ({name})",
                            g.label, g.left, g.right
                        ),
                        Err(why) => format!(
                            "{}: {} against {}: invalid, {why}",
                            g.label, g.left, g.right
                        ),
                    };
                    report(&line);
                    if let Ok(mut o) = outcome.lock() {
                        match result {
                            Ok(()) => o.played.push(name),
                            Err(why) => o.invalid.push((name, why)),
                        }
                    }
                });
            }
        });
        for g in &wave {
            *tried.entry(key(g)).or_default() += 1;
        }
    }
    status.finish();
    Ok(outcome.into_inner().unwrap_or_default())
}

fn key(g: &NextGame) -> (String, String, Option<String>) {
    (g.left.clone(), g.right.clone(), g.tie.clone())
}

/// One fixture: named by the time its wave starts (`stamp`) and its teams, played, and its logs checked to
/// hold the teams the fixture names (a start script that connects its team under another
/// name would otherwise leave the fixture unplayed for ever).
fn play_fixture(
    t: &Tournament,
    setup: &Setup,
    ports: Ports,
    g: &NextGame,
    stamp: &str,
    started: impl FnOnce(&str),
    stop: &AtomicBool,
) -> (String, Result<(), String>) {
    // The same pair can meet twice within a second (a group game, then its tie, where games
    // are short): a second game takes a number rather than the first one's files.
    let base = format!("{stamp}-{}-vs-{}", g.left, g.right);
    let name = (1..)
        .map(|n| match n {
            1 => base.clone(),
            n => format!("{base}-{n}"),
        })
        .find(|name| !setup.out.join(format!("{name}.out")).exists())
        .unwrap_or(base);
    started(&name);
    let script = |team: &str| t.scripts.get(team).map(String::as_str).unwrap_or_default();
    let one = OneGame {
        ports,
        name: name.clone(),
        left: script(&g.left),
        right: script(&g.right),
        shoot_outs: g.shoot_out(),
    };
    let mut result = play_one(setup, &one, stop);
    let log = setup.out.join(format!("{name}.rcg.gz"));
    if result.is_ok() {
        let games = crate::inspect::series::read_games(std::slice::from_ref(&log), 1);
        let teams = games.first().map(|game| game.teams.clone());
        if teams.as_ref() != Some(&[g.left.clone(), g.right.clone()]) {
            let said = teams.map_or("no log".to_owned(), |[l, r]| format!("{l} and {r}"));
            result = Err(format!(
                "the teams connected as {said}, not as the tournament file names them"
            ));
            let _ = std::fs::remove_file(setup.out.join(format!("{name}.done")));
        }
    }
    if let Err(why) = &result {
        for ext in ["rcg.gz", "rcl.gz"] {
            let file = setup.out.join(format!("{name}.{ext}"));
            let _ = std::fs::rename(&file, setup.out.join(format!("{name}.{ext}.invalid")));
        }
        let mark = format!("{} vs {}: {why}\n", g.left, g.right);
        let _ = std::fs::write(setup.out.join(format!("{name}.invalid")), mark);
    }
    (name, result)
}

/// The games the folder's logs hold, as the tournament page counts them.
fn played_in(out: &Path) -> Vec<Played> {
    crate::inspect::series::read_games(&[out.to_owned()], 0)
        .iter()
        .filter(|g| g.has_result())
        .map(|g| played(g, None))
        .collect()
}

/// A game read from its log as a tournament's result: dated by rcssserver's name for the log
/// (the date first), which orders the games as they were played.
pub fn played(g: &pitchside_competitions::series::Game, link: Option<String>) -> Played {
    Played {
        date: PathBuf::from(&g.name)
            .file_name()
            .and_then(|n| crate::archive::date_of(&n.to_string_lossy()))
            .unwrap_or_else(|| g.name.clone()),
        teams: g.teams.clone(),
        score: g.score,
        penalties: g.shootout,
        link,
    }
}

/// The pairs (left, right) whose games a former run marked invalid (`NAME.invalid`, whose
/// first line is `LEFT vs RIGHT: why`).
fn invalid_pairs(out: &Path) -> HashSet<(String, String)> {
    let Ok(entries) = std::fs::read_dir(out) else {
        return HashSet::new();
    };
    entries
        .filter_map(Result::ok)
        .filter(|e| e.file_name().to_string_lossy().ends_with(".invalid"))
        .filter(|e| !e.file_name().to_string_lossy().contains(".rc"))
        .filter_map(|e| {
            let text = std::fs::read_to_string(e.path()).ok()?;
            let (pair, _) = text.split_once(": ")?;
            let (l, r) = pair.split_once(" vs ")?;
            Some((l.to_owned(), r.to_owned()))
        })
        .collect()
}
