//! `pitchside-inspect series`: a folder of logs read as a team's series (and two folders
//! compared), as text, JSON or CSV. The figures are the shared library's
//! ([`pitchside_competitions::series`]); this reads the logs on every core and lays the figures out.
//! The JSON is the same document the relay serves for an archive's series.

use super::export::logs_in;
use pitchside_competitions::series::compare::{compare, Comparison};
use pitchside_competitions::series::stats::{Interval, Mean};
use pitchside_competitions::series::{Game, Outcome, Seen, Series};
use serde_json::{json, Value};
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// The version of the series document (`"format"`): bumped when a key changes meaning or goes.
pub const FORMAT: &str = "pitchside.series.v1";

/// Every log below `paths`, each read as a [`Game`] named by its path, on `jobs` threads (0:
/// one per core), in the order of their names (for rcssserver's file names, the order they
/// were played in). Memory holds one log's reading per thread, and the games.
pub fn read_games(paths: &[PathBuf], jobs: usize) -> Vec<Game> {
    let logs = logs_in(paths);
    let jobs = if jobs == 0 {
        std::thread::available_parallelism().map_or(1, |n| n.get())
    } else {
        jobs
    }
    .min(logs.len().max(1));
    let next = AtomicUsize::new(0);
    let games = Mutex::new(Vec::with_capacity(logs.len()));
    std::thread::scope(|s| {
        for _ in 0..jobs {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some((path, _)) = logs.get(i) else {
                    return;
                };
                let name = path.display().to_string();
                let game = match std::fs::File::open(path).and_then(super::inspect_reader) {
                    Ok(report) => report.game(&name),
                    Err(e) => Game::unreadable(&name, format!("cannot read the file: {e}")),
                };
                if let Ok(mut g) = games.lock() {
                    g.push((i, game));
                }
            });
        }
    });
    let mut games = games.into_inner().unwrap_or_default();
    games.sort_by_key(|(i, _)| *i);
    games.into_iter().map(|(_, g)| g).collect()
}

fn interval(i: Option<Interval>) -> Value {
    i.map_or(Value::Null, |i| json!([i.lo, i.hi]))
}

fn mean_json(m: Option<Mean>) -> Value {
    match m {
        None => Value::Null,
        Some(m) => json!({"mean": m.mean, "sd": m.sd, "ci": interval(m.ci), "n": m.n}),
    }
}

fn outcome_id(o: Outcome) -> &'static str {
    match o {
        Outcome::Win => "win",
        Outcome::Draw => "draw",
        Outcome::Loss => "loss",
    }
}

/// How a match row is linked: `link(game)` gives the address of the match (`None`: no link).
pub type Linker<'a> = &'a dyn Fn(&Game) -> Option<String>;

/// The archive address (`/archive/files/N/REL`) of a log read below one of `roots` (the paths
/// given on the command line, in order; the folders among them numbered from 0), as a relay
/// serving the same folders with `--archive` in the same order lists it: the command line
/// links what the relay would. `None` for a log named by itself, which no relay lists, and for
/// a name that is not UTF-8, which cannot be an id.
pub fn archive_url(roots: &[PathBuf], log: &std::path::Path) -> Option<String> {
    roots
        .iter()
        .filter(|r| r.is_dir())
        .enumerate()
        .find_map(|(n, root)| {
            let rel = log.strip_prefix(root).ok()?;
            let parts = rel.iter().map(|c| c.to_str()).collect::<Option<Vec<_>>>()?;
            Some(crate::archive::url_of(&format!("{n}/{}", parts.join("/"))))
        })
}

/// The page's address for a game of a series read below `roots`: its log at its first goal
/// (at kick-off without one), as `/api/series` links it.
pub fn page_link(roots: &[PathBuf], g: &Game) -> Option<String> {
    let log = archive_url(roots, std::path::Path::new(&g.name))?;
    Some(match g.first_goal {
        Some(c) => format!("/?log={log}#t={c}"),
        None => format!("/?log={log}"),
    })
}

fn seen_json(s: &Seen, link: Linker) -> Value {
    let g = s.game;
    let us = s.side.index();
    json!({
        "name": g.name,
        "side": s.side.letter().to_string(),
        "opponent": g.teams[1 - us],
        "goals_for": s.goals_for,
        "goals_against": s.goals_against,
        "outcome": outcome_id(s.outcome),
        "shootout": g.shootout.map(|p| [p[us], p[1 - us]]),
        "first_goal": g.first_goal,
        "cycles": g.cycles,
        "invalid": g.invalid.iter().map(|i| i.describe(&g.teams)).collect::<Vec<_>>(),
        "link": link(g),
    })
}

/// The series document: every figure, the invalid games with why, each match with its link,
/// the win-rate curve, and autotest2d's figures.
pub fn series_json(s: &Series, link: Linker) -> Value {
    let win = s.win_rate();
    let exp = s.expected_win_rate();
    let hist = |h: std::collections::BTreeMap<i64, u32>| {
        Value::Array(h.into_iter().map(|(v, c)| json!([v, c])).collect())
    };
    let (so_played, so_won, so_lost) = s.shootouts();
    let figures: serde_json::Map<String, Value> = s
        .figures()
        .into_iter()
        .map(|a| {
            (
                a.name.to_owned(),
                json!({"ours": mean_json(a.ours), "theirs": mean_json(a.theirs)}),
            )
        })
        .collect();
    let p = s.process_py();
    json!({
        "format": FORMAT,
        "team": s.team_name(),
        "opponents": s.opponents(),
        "games": s.games(),
        "invalid_games": s.invalid.len(),
        "other_games": s.other.len(),
        "wins": s.count(Outcome::Win),
        "draws": s.count(Outcome::Draw),
        "losses": s.count(Outcome::Loss),
        "win_rate": win.map(|(r, ci)| json!({"value": r, "ci": [ci.lo, ci.hi], "method": "wilson"})),
        "expected_win_rate": exp.map(|(r, ci)| json!({"value": r, "ci": [ci.lo, ci.hi], "method": "wilson"})),
        "points": s.total_points(),
        "points_per_game": mean_json(s.points()),
        "goals_for": mean_json(s.goals_for()),
        "goals_against": mean_json(s.goals_against()),
        "goal_difference": mean_json(s.difference()),
        "histograms": {
            "goals_for": hist(s.histogram(|g| i64::from(g.goals_for))),
            "goals_against": hist(s.histogram(|g| i64::from(g.goals_against))),
            "difference": hist(s.histogram(|g| g.difference())),
        },
        "shootouts": {"played": so_played, "won": so_won, "lost": so_lost},
        "figures": figures,
        "curve": s.curve().iter().map(|c| json!([c.games, c.win_rate, c.ci.lo, c.ci.hi])).collect::<Vec<_>>(),
        "matches": s.counted.iter().map(|g| seen_json(g, link)).collect::<Vec<_>>(),
        "invalid": s.invalid.iter().map(|g| seen_json(g, link)).collect::<Vec<_>>(),
        "other": s.other.iter().map(|g| json!({
            "name": g.name,
            "teams": g.teams,
            "invalid": g.invalid.iter().map(|i| i.describe(&g.teams)).collect::<Vec<_>>(),
        })).collect::<Vec<_>>(),
        "process_py": {
            "games": p.games,
            "goals": [p.goals.0, p.goals.1],
            "points": [p.points.0, p.points.1],
            "wins": p.wins, "draws": p.draws, "losses": p.losses,
            "win_rate": p.win_rate,
            "expected_win_rate": p.expected_win_rate,
            "ci": [p.ci.lo, p.ci.hi],
            "invalid": p.invalid,
        },
    })
}

/// Two series compared: both documents and the comparison.
pub fn comparison_json(a: &Series, b: &Series, link: Linker) -> Value {
    let c = compare(a, b);
    let diff = |d: Option<pitchside_competitions::series::stats::Difference>, method: &str| {
        d.map_or(Value::Null, |d| {
            json!({"estimate": d.estimate, "ci": [d.ci.lo, d.ci.hi], "p_value": d.p_value, "method": method})
        })
    };
    json!({
        "format": FORMAT,
        "a": series_json(a, link),
        "b": series_json(b, link),
        "comparison": {
            "win_rate": diff(c.win_rate, "newcombe hybrid score interval; pooled two-proportion z-test"),
            "goal_difference": diff(c.goal_difference, "welch t"),
            "finding": c.finding.as_str(),
            "verdict": c.verdict,
        },
    })
}

fn pct(v: f64) -> String {
    format!("{:.1} %", v * 100.0)
}

fn ci_pct(i: Interval) -> String {
    format!("{:.1}–{:.1} %", i.lo * 100.0, i.hi * 100.0)
}

fn mean_text(m: Option<Mean>, signed: bool) -> String {
    match m {
        None => "–".into(),
        Some(m) => {
            let v = if signed {
                format!("{:+.2}", m.mean)
            } else {
                format!("{:.2}", m.mean)
            };
            match m.ci {
                Some(ci) if signed => format!("{v} (95 % CI {:+.2} to {:+.2})", ci.lo, ci.hi),
                Some(ci) => format!("{v} (95 % CI {:.2}–{:.2})", ci.lo, ci.hi),
                None => v,
            }
        }
    }
}

fn bars(out: &mut String, title: &str, h: &std::collections::BTreeMap<i64, u32>, n: u32) {
    out.push_str(&format!("{title}\n"));
    let max = h.values().copied().max().unwrap_or(1).max(1);
    for (v, c) in h {
        let width = (f64::from(*c) / f64::from(max) * 30.0).round() as usize;
        out.push_str(&format!(
            "  {v:>4} {:<30} {c:>4} ({:.0} %)\n",
            "#".repeat(width),
            f64::from(*c) / f64::from(n.max(1)) * 100.0
        ));
    }
}

/// The series as text: the figures, the histograms, the invalid games, every match, and
/// autotest2d's summary of the same games.
pub fn series_text(s: &Series, source: &str) -> String {
    let mut out = String::new();
    let team = s.team_name().unwrap_or_else(|| "the left team".into());
    let opponents = s.opponents();
    out.push_str(&format!(
        "Series of {team} in {source}: {} games counted, {} invalid left out",
        s.games(),
        s.invalid.len()
    ));
    if !s.other.is_empty() {
        out.push_str(&format!(", {} without {team}", s.other.len()));
    }
    out.push('\n');
    if !opponents.is_empty() {
        out.push_str(&format!("Against: {}\n", opponents.join(", ")));
    }
    out.push('\n');
    let (w, d, l) = (
        s.count(Outcome::Win),
        s.count(Outcome::Draw),
        s.count(Outcome::Loss),
    );
    out.push_str(&format!(
        "Results         {w} wins, {d} draws, {l} losses\n"
    ));
    if let Some((r, ci)) = s.win_rate() {
        out.push_str(&format!(
            "Win rate        {} (95 % CI {}, Wilson)\n",
            pct(r),
            ci_pct(ci)
        ));
    }
    match s.expected_win_rate() {
        Some((r, ci)) => out.push_str(&format!(
            "Expected win rate {} of decided games (95 % CI {}, Wilson)\n",
            pct(r),
            ci_pct(ci)
        )),
        None if s.games() > 0 => out.push_str("Expected win rate –  (no game decided)\n"),
        None => {}
    }
    out.push_str(&format!(
        "Points          {}, {} a game\n",
        s.total_points(),
        mean_text(s.points(), false)
    ));
    out.push_str(&format!(
        "Goals for       {} a game\n",
        mean_text(s.goals_for(), false)
    ));
    out.push_str(&format!(
        "Goals against   {} a game\n",
        mean_text(s.goals_against(), false)
    ));
    out.push_str(&format!(
        "Goal difference {} a game (CIs by Student's t)\n",
        mean_text(s.difference(), true)
    ));
    let (sp, sw, sl) = s.shootouts();
    if sp > 0 {
        out.push_str(&format!(
            "Shoot-outs      {sp} played: {sw} won, {sl} lost (each a draw above)\n"
        ));
    }
    out.push_str(&format!(
        "\nPer match (mean, 95 % CI)   {team:<28} opponents\n"
    ));
    for a in s.figures() {
        let scale = if a.name == "possession" { 100.0 } else { 1.0 };
        let cell = |m: Option<Mean>| match m {
            None => "–".to_owned(),
            Some(m) => match m.ci {
                Some(ci) => format!(
                    "{:.1} ({:.1}–{:.1})",
                    m.mean * scale,
                    ci.lo * scale,
                    ci.hi * scale
                ),
                None => format!("{:.1}", m.mean * scale),
            },
        };
        let name = if a.name == "possession" {
            "possession %".to_owned()
        } else {
            a.name.replace('_', " ")
        };
        out.push_str(&format!(
            "  {name:<26} {:<28} {}\n",
            cell(a.ours),
            cell(a.theirs)
        ));
    }
    out.push('\n');
    let n = s.games();
    bars(
        &mut out,
        "Goals for",
        &s.histogram(|g| i64::from(g.goals_for)),
        n,
    );
    bars(
        &mut out,
        "Goals against",
        &s.histogram(|g| i64::from(g.goals_against)),
        n,
    );
    bars(
        &mut out,
        "Goal difference",
        &s.histogram(|g| g.difference()),
        n,
    );
    if !s.invalid.is_empty() {
        out.push_str("\nInvalid games (left out of the figures above)\n");
        for g in &s.invalid {
            let why: Vec<String> = g
                .game
                .invalid
                .iter()
                .map(|i| i.describe(&g.game.teams))
                .collect();
            out.push_str(&format!(
                "  {} {}-{}  {}: {}\n",
                outcome_id(g.outcome),
                g.goals_for,
                g.goals_against,
                g.game.name,
                why.join("; ")
            ));
        }
    }
    if !s.other.is_empty() {
        out.push_str(&format!("\nGames without {team} (left out)\n"));
        for g in &s.other {
            out.push_str(&format!(
                "  {} ({} vs {})\n",
                g.name, g.teams[0], g.teams[1]
            ));
        }
    }
    out.push_str("\nMatches\n");
    for (i, g) in s.counted.iter().enumerate() {
        let so = g
            .game
            .shootout
            .map(|p| {
                let us = g.side.index();
                format!(" ({}-{} on penalties)", p[us], p[1 - us])
            })
            .unwrap_or_default();
        let goal = g
            .game
            .first_goal
            .map(|c| format!("  first goal at cycle {c}"))
            .unwrap_or_default();
        out.push_str(&format!(
            "  {:>4} {:<4} {}-{}{so} vs {} ({})  {}{goal}\n",
            i + 1,
            outcome_id(g.outcome),
            g.goals_for,
            g.goals_against,
            g.game.teams[1 - g.side.index()],
            if g.side == rcss_formats::Side::Left {
                "left"
            } else {
                "right"
            },
            g.game.name,
        ));
    }
    out.push_str(
        "\nAs autotest2d's process.py counts them (every game, invalid ones included; its \
         interval is the normal approximation)\n",
    );
    // autotest2d's title is the server's "'LEFT' vs 'RIGHT'" line of the first game.
    let first = s.counted.iter().chain(&s.invalid).min_by_key(|g| g.index);
    let title = match (&s.team, first) {
        (Some(t), _) => format!(
            "'{t}' vs '{}'",
            opponents.first().cloned().unwrap_or_default()
        ),
        (None, Some(g)) => format!("'{}' vs '{}'", g.game.teams[0], g.game.teams[1]),
        (None, None) => "N/A".to_owned(),
    };
    out.push_str(&s.process_py().text(&title));
    out
}

/// Two series compared, as text.
pub fn comparison_text(a: &Series, b: &Series, sources: (&str, &str)) -> String {
    let c: Comparison = compare(a, b);
    let mut out = String::new();
    out.push_str(&format!("A: {}\nB: {}\n\n", sources.0, sources.1));
    let row = |out: &mut String, label: &str, va: String, vb: String| {
        out.push_str(&format!("  {label:<22} {va:<30} {vb}\n"));
    };
    row(&mut out, "", "A".into(), "B".into());
    row(
        &mut out,
        "games counted",
        a.games().to_string(),
        b.games().to_string(),
    );
    let wdl = |s: &Series| {
        format!(
            "{}-{}-{}",
            s.count(Outcome::Win),
            s.count(Outcome::Draw),
            s.count(Outcome::Loss)
        )
    };
    row(&mut out, "won-drawn-lost", wdl(a), wdl(b));
    let wr = |s: &Series| {
        s.win_rate().map_or("–".into(), |(r, ci)| {
            format!("{} ({})", pct(r), ci_pct(ci))
        })
    };
    row(&mut out, "win rate", wr(a), wr(b));
    row(
        &mut out,
        "goal difference",
        mean_text(a.difference(), true),
        mean_text(b.difference(), true),
    );
    out.push('\n');
    if let Some(d) = c.win_rate {
        out.push_str(&format!(
            "Win rate, A − B        {:+.1} points (95 % CI {:+.1} to {:+.1}, Newcombe), p = {:.3} (two-proportion z-test)\n",
            d.estimate * 100.0,
            d.ci.lo * 100.0,
            d.ci.hi * 100.0,
            d.p_value
        ));
    }
    if let Some(d) = c.goal_difference {
        out.push_str(&format!(
            "Goal difference, A − B {:+.2} a game (95 % CI {:+.2} to {:+.2}), p = {:.3} (Welch's t-test)\n",
            d.estimate, d.ci.lo, d.ci.hi, d.p_value
        ));
    }
    out.push_str(&format!("\n{}\n", c.verdict));
    out
}

/// One row a game: the series' team's view of it.
pub fn series_csv(s: &Series) -> String {
    let mut out = String::from(
        "name,team,side,opponent,goals_for,goals_against,outcome,shootout_for,shootout_against,\
         valid,why_invalid,first_goal,cycles,possession,shots,shots_on_target,passes,fouls,cards,\
         opp_possession,opp_shots,opp_shots_on_target,opp_passes,opp_fouls,opp_cards\n",
    );
    let quote = |v: &str| {
        if v.contains([',', '"', '\n']) {
            format!("\"{}\"", v.replace('"', "\"\""))
        } else {
            v.to_owned()
        }
    };
    for g in s.counted.iter().chain(&s.invalid) {
        let us = g.side.index();
        let game = g.game;
        let (sf, sa) = game.shootout.map_or((String::new(), String::new()), |p| {
            (p[us].to_string(), p[1 - us].to_string())
        });
        let why: Vec<String> = game
            .invalid
            .iter()
            .map(|i| i.describe(&game.teams))
            .collect();
        let figs = |f: &pitchside_competitions::series::Figures| {
            format!(
                "{},{},{},{},{},{}",
                f.possession.map(|p| format!("{p:.4}")).unwrap_or_default(),
                f.shots,
                f.shots_on_target,
                f.passes,
                f.fouls,
                f.cards
            )
        };
        out.push_str(&format!(
            "{},{},{},{},{},{},{},{sf},{sa},{},{},{},{},{},{}\n",
            quote(&game.name),
            quote(&game.teams[us]),
            g.side.letter(),
            quote(&game.teams[1 - us]),
            g.goals_for,
            g.goals_against,
            outcome_id(g.outcome),
            u8::from(game.valid()),
            quote(&why.join("; ")),
            game.first_goal.map(|c| c.to_string()).unwrap_or_default(),
            game.cycles,
            figs(g.ours()),
            figs(g.theirs()),
        ));
    }
    out
}
