//! `pitchside-inspect FILE [--json] [--events]`: what a game log holds, its match events, and
//! whether it is damaged. The file is read and summarised chunk by chunk, in memory that does
//! not grow with its size.
//!
//! Exit code 0: a whole match, parsed completely; 1: damaged, parsed up to the damage; 2:
//! nothing could be read; 3: incomplete, every record read but the match stops before time
//! over (the server was stopped or killed), the same for every log version.
//!
//! The log tools (`validate`, `reverse`, `rename`, `convert`, `clip`) are functions of the
//! shared library ([`rcss_formats::tools`]); this parses their arguments and reports.

use rcss_formats::log::Ending;
use rcss_formats::tools::{Edits, Rename};
use rcss_formats::{LogError, LogVersion, Side};
use relay::inspect::{error_json, inspect_file, Report};
use serde_json::{json, Value};
use std::path::PathBuf;
use std::process::ExitCode;

/// After a mistake: where the whole usage is, rather than all of it burying the one line
/// that says what was wrong.
const HINT: &str = "(pitchside-inspect --help lists the commands and their options)";

const USAGE: &str = "USAGE: pitchside-inspect FILE [--json] [--events] [--actions]
       pitchside-inspect export [--tracking] [--actions] [--parquet] [--out DIR] [--split T,V,E] [--seed N] [--jobs N] PATH...

  --json    print the summary as one JSON object (events included)
  --events  list the match events (goals, fouls, cards, set pieces, …)
  --actions each player's figures: kicks, passes, shots, goals, assists, dribbles, tackles, …
  --version this program's version

export: each log of PATH (a log, or a folder searched below) as tables: NAME.tracking.csv
  and beside it NAME.player_types.csv (the types its _t columns name), both what librcsc's
  rcg2csv writes, value for value, and NAME.actions.csv (each player's actions), in DIR
  (default: the current folder), under the log's path below its folder.
  --tracking / --actions  only that table (default: both; the tracking table comes with its
                          player types)
  --parquet               each table also as Parquet (NAME.tracking.parquet, …): typed
                          columns, an empty field a null, every value the CSV's
  --split T,V,E           put matches in DIR/train, DIR/validation and DIR/test in these
                          shares (e.g. 0.8,0.1,0.1), by a shuffle seeded with --seed (0)
  --jobs N                logs read at once (default: one per core)
  Exit code 0: every log exported (a damaged or unfinished one as far as it goes); 1: some
  failed; 2: none. A table already there is replaced once the new one is complete.

       pitchside-inspect series DIR [DIR2] [--team NAME] [--json | --csv] [--jobs N]

series: the logs below DIR (a folder or files) as one team's series: wins, draws, losses,
  win rate and expected win rate with 95 % intervals (Wilson), goals for, against and the
  difference with 95 % intervals (Student's t), points, histograms, shoot-outs apart, the
  per-match figures averaged, invalid games (cut short, a side short at kick-off, a player
  gone) listed with why and left out, every match, and autotest2d's process.py summary of
  the same games. With DIR2, the two series compared (A = DIR, B = DIR2): win rates by
  Newcombe's interval and the two-proportion z-test, goal differences by Welch's t-test,
  and what it means in one sentence.
  --team NAME  the team the series follows (default: the left team of each game)
  --json       the series document (format pitchside.series.v1); --csv one row a game

       pitchside-inspect standings PATH... [--json]

standings: the logs below PATH as one group's table, ranked exactly as librcsc's
  rclmtableprinter ranks (average points, then a team that beat every level team, average
  goal difference, the difference among the level teams, goals, goals among them, name; a
  shoot-out decides a drawn game; a pair's second game is left out), with the cross table
  and the games. Logs cut short are left out, as rcgresultprinter's incomplete matches.

       pitchside-inspect tournament FILE PATH... [--json]
       pitchside-inspect schedule FILE --group NAME [--fields N] [--force]

tournament: the tournament FILE (the book, section Tournaments) with the logs below PATH as its
  games: each group's standings (ranked as standings ranks), its fixtures played or to
  play, and the knockout ties filled in. --json: the document /api/tournaments/NAME
  serves (format pitchside.tournament.v1).
schedule: writes a round-robin schedule for the group NAME into FILE (every pair once,
  N games at once on N fields, no team playing two rounds running where that can be
  avoided), keeping the rest of the file as it is. --force replaces fixtures it has.

Log tools (any version in; gzipped input read, OUT ending in .gz written gzipped):
  pitchside-inspect validate FILE [--json]
      what librcsc's rcgvalidator reports and what it misses (damage, a log cut short,
      cycles out of order, repeated or skipped, a team renamed, scores going down or up
      without a goal, missing parameters, players off the field, …), each with its line or
      byte and cycle. Exit code 0: clean; 1: findings; 2: not a log.
  pitchside-inspect reverse FILE -o OUT        the sides swapped (as rcgreverse, play modes too)
  pitchside-inspect rename FILE -o OUT [--left NAME] [--right NAME]   (as rcgrenameteam)
  pitchside-inspect convert FILE -o OUT -v 1|2|3|4|5|6|7|json   the log in another version
  pitchside-inspect clip FILE -o OUT --from A --to B   cycles A to B as a log of their own
      reverse, rename and clip take -v too (default: the source's version). Exit code 0:
      written; 1: the source is damaged, written up to the damage; 2: nothing written;
      3: the source stops before time over (written whole).";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("export") => return export_command(&args[1..]),
        Some("validate") => return validate_command(&args[1..]),
        Some("series") => return series_command(&args[1..]),
        Some("standings") => return standings_command(&args[1..]),
        Some("tournament") => return tournament_command(&args[1..]),
        Some("schedule") => return schedule_command(&args[1..]),
        Some(cmd @ ("reverse" | "rename" | "convert" | "clip")) => {
            return rewrite_command(cmd, &args[1..])
        }
        _ => {}
    }
    let mut path = None;
    let mut as_json = false;
    let mut list_events = false;
    let mut list_actions = false;
    for arg in args {
        match arg.as_str() {
            "--json" => as_json = true,
            "--events" => list_events = true,
            "--actions" => list_actions = true,
            "-h" | "--help" => {
                println!("{USAGE}");
                return ExitCode::SUCCESS;
            }
            "-V" | "--version" => {
                println!("pitchside-inspect {}", env!("CARGO_PKG_VERSION"));
                return ExitCode::SUCCESS;
            }
            a if a.starts_with("--") => {
                eprintln!("unknown option {arg:?}\n{HINT}");
                return ExitCode::from(2);
            }
            _ if path.is_none() => path = Some(arg),
            _ => {
                eprintln!("unexpected argument {arg:?}\n{HINT}");
                return ExitCode::from(2);
            }
        }
    }
    let Some(path) = path else {
        eprintln!("{USAGE}");
        return ExitCode::from(2);
    };
    let report = match std::fs::File::open(&path).and_then(inspect_file) {
        Ok(r) => r,
        Err(e) => {
            let msg = format!("cannot read the file: {e}");
            report_failure(&path, &empty_report(), &msg, None, as_json);
            return ExitCode::from(2);
        }
    };
    if !report.anything {
        let msg = report
            .error
            .as_ref()
            .map_or_else(|| "no records".to_owned(), ToString::to_string);
        report_failure(&path, &report, &msg, report.error.as_ref(), as_json);
        return ExitCode::from(2);
    }
    if as_json {
        println!("{}", report.to_json());
    } else {
        print_human(&path, &report, list_events);
        if list_actions {
            print_actions(&report);
        }
    }
    match report.ending() {
        Ending::Whole => ExitCode::SUCCESS,
        Ending::Damaged(_) => ExitCode::from(1),
        Ending::Incomplete { .. } => ExitCode::from(3),
    }
}

fn series_command(args: &[String]) -> ExitCode {
    use pitchside_competitions::series::Series;
    use relay::inspect::series;
    let mut dirs: Vec<PathBuf> = Vec::new();
    let mut team = None;
    let (mut as_json, mut as_csv) = (false, false);
    let mut jobs = 0usize;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--team" => match it.next() {
                Some(t) => team = Some(t.clone()),
                None => return usage_error("--team needs a name"),
            },
            "--jobs" => match it.next().and_then(|n| n.parse().ok()) {
                Some(n) => jobs = n,
                None => return usage_error("--jobs needs a number"),
            },
            "--json" => as_json = true,
            "--csv" => as_csv = true,
            "-h" | "--help" => {
                println!("{USAGE}");
                return ExitCode::SUCCESS;
            }
            _ if a.starts_with("--") => return usage_error(&format!("unknown option {a}")),
            _ => dirs.push(PathBuf::from(a)),
        }
    }
    if dirs.is_empty() || dirs.len() > 2 {
        return usage_error("series takes one folder, or two to compare");
    }
    if as_json && as_csv {
        return usage_error("--json or --csv, not both");
    }
    for d in &dirs {
        if !d.exists() {
            eprintln!("pitchside-inspect: {}: no such file or folder", d.display());
            return ExitCode::from(2);
        }
    }
    let sets: Vec<Vec<pitchside_competitions::series::Game>> = dirs
        .iter()
        .map(|d| series::read_games(std::slice::from_ref(d), jobs))
        .collect();
    if let Some((d, _)) = dirs.iter().zip(&sets).find(|(_, g)| g.is_empty()) {
        eprintln!(
            "pitchside-inspect: no .rcg or .rcg.gz log in {}",
            d.display()
        );
        return ExitCode::from(2);
    }
    let all: Vec<Series> = sets
        .iter()
        .map(|g| Series::new(g, team.as_deref()))
        .collect();
    let link = |g: &pitchside_competitions::series::Game| series::page_link(&dirs, g);
    let sources: Vec<String> = dirs.iter().map(|d| d.display().to_string()).collect();
    match (&all[..], as_json, as_csv) {
        ([a], true, _) => println!("{}", series::series_json(a, &link)),
        ([a, b], true, _) => println!("{}", series::comparison_json(a, b, &link)),
        ([a], _, true) => print!("{}", series::series_csv(a)),
        ([a, b], _, true) => {
            // One table: a column says which series each row belongs to.
            for (i, (label, s)) in [("A", a), ("B", b)].into_iter().enumerate() {
                for (j, line) in series::series_csv(s).lines().enumerate() {
                    match (i, j) {
                        (0, 0) => println!("series,{line}"),
                        (_, 0) => {}
                        _ => println!("{label},{line}"),
                    }
                }
            }
        }
        ([a], _, _) => print!("{}", series::series_text(a, &sources[0])),
        ([a, b], _, _) => {
            print!(
                "{}",
                series::comparison_text(a, b, (&sources[0], &sources[1]))
            );
            for (label, s, src) in [("A", a, &sources[0]), ("B", b, &sources[1])] {
                println!("\n== {label} ==");
                print!("{}", series::series_text(s, src));
            }
        }
        _ => return ExitCode::from(2),
    }
    ExitCode::SUCCESS
}

fn standings_command(args: &[String]) -> ExitCode {
    use pitchside_competitions::tournament::{rank, Result};
    let as_json = args.iter().any(|a| a == "--json");
    let paths: Vec<PathBuf> = args
        .iter()
        .filter(|a| !a.starts_with("--"))
        .map(PathBuf::from)
        .collect();
    if paths.is_empty() {
        return usage_error("standings needs logs or folders");
    }
    let games = relay::inspect::series::read_games(&paths, 0);
    let mut left_out = Vec::new();
    let results: Vec<Result> = games
        .iter()
        .filter(|g| {
            let cut = !g.has_result();
            if cut {
                left_out.push(g.name.clone());
            }
            !cut
        })
        .map(|g| Result {
            date: g.name.clone(),
            teams: g.teams.clone(),
            score: g.score,
            penalties: g.shootout,
        })
        .collect();
    let table = rank(&results);
    let places = table.printed_places();
    if as_json {
        let rows: Vec<Value> = table
            .rows
            .iter()
            .zip(&places)
            .map(|(r, p)| {
                json!({"place": p, "team": r.team, "games": r.games, "wins": r.wins,
                       "losses": r.losses, "draws": r.draws, "points": r.points,
                       "goals_for": r.goals_for, "goals_against": r.goals_against,
                       "tied": r.tied})
            })
            .collect();
        let skipped: Vec<&str> = table
            .skipped
            .iter()
            .map(
                |pitchside_competitions::tournament::standings::Skipped::Repeated(r)| {
                    r.date.as_str()
                },
            )
            .collect();
        println!(
            "{}",
            json!({"standings": rows, "repeated": skipped, "left_out": left_out})
        );
        return ExitCode::SUCCESS;
    }
    print!("{}", standings_text(&table, &places));
    for n in &left_out {
        println!("left out, cut short or damaged: {n}");
    }
    ExitCode::SUCCESS
}

/// The standings as text: the ranking, the cross table and the second games left out. Team
/// names are printed whole, each column as wide as its longest name or result.
fn standings_text(
    table: &pitchside_competitions::tournament::standings::Table,
    places: &[u32],
) -> String {
    use std::fmt::Write;
    let mut out = String::new();
    let names: Vec<&str> = table.rows.iter().map(|r| r.team.as_str()).collect();
    // Format widths count characters, as these do.
    let width = |s: &str| s.chars().count();
    let name_w = names.iter().map(|n| width(n)).max().unwrap_or(0).max(4);
    let _ = writeln!(out, "Ranked by average points, then a team that beat every level team, average goal difference, the difference among the level teams, goals, goals among them (as rclmtableprinter ranks)");
    let _ = writeln!(
        out,
        "place  {:<name_w$} {:>6}  won lost drawn  points (avg)  goals   diff (avg)",
        "team", "games"
    );
    for (r, p) in table.rows.iter().zip(places) {
        let _ = writeln!(
            out,
            "{p:>5}  {:<name_w$} {:>6} {:>4} {:>4} {:>5} {:>7} ({:.2}) {:>3} - {:<3} {:>+4} ({:+.2}){}",
            r.team,
            r.games,
            r.wins,
            r.losses,
            r.draws,
            r.points,
            r.average_points(),
            r.goals_for,
            r.goals_against,
            r.goal_difference(),
            r.average_difference(),
            if r.tied { "  level" } else { "" }
        );
    }
    let _ = writeln!(out);
    // The cross table: row a, column b is a's result against b.
    let cells: Vec<Vec<String>> = names
        .iter()
        .map(|a| {
            names
                .iter()
                .map(|b| {
                    if a == b {
                        "x".to_owned()
                    } else {
                        match table.between(a, b) {
                            Some((f, g, Some([p, q]))) => format!("{f}-{g} ({p}-{q})"),
                            Some((f, g, None)) => format!("{f}-{g}"),
                            None => "---".into(),
                        }
                    }
                })
                .collect()
        })
        .collect();
    let col_w: Vec<usize> = names
        .iter()
        .enumerate()
        .map(|(j, n)| {
            cells
                .iter()
                .map(|row| width(&row[j]))
                .chain([width(n)])
                .max()
                .unwrap_or(0)
        })
        .collect();
    let _ = write!(out, "{:<name_w$}", "");
    for (n, w) in names.iter().zip(&col_w) {
        let _ = write!(out, "  {n:>w$}");
    }
    let _ = writeln!(out);
    for (a, row) in names.iter().zip(&cells) {
        let _ = write!(out, "{a:<name_w$}");
        for (cell, w) in row.iter().zip(&col_w) {
            let _ = write!(out, "  {cell:>w$}");
        }
        let _ = writeln!(out);
    }
    for s in &table.skipped {
        let pitchside_competitions::tournament::standings::Skipped::Repeated(r) = s;
        let _ = writeln!(
            out,
            "left out, a second game of {} and {}: {}",
            r.teams[0], r.teams[1], r.date
        );
    }
    out
}

fn tournament_command(args: &[String]) -> ExitCode {
    use pitchside_competitions::tournament::progress::{Game, Status};
    use pitchside_competitions::tournament::{progress, Played};
    let as_json = args.iter().any(|a| a == "--json");
    let mut paths = args
        .iter()
        .filter(|a| !a.starts_with("--"))
        .map(PathBuf::from);
    let Some(file) = paths.next() else {
        return usage_error("tournament needs its file and logs or folders");
    };
    let plan = match relay::tournament::read_plan(&file) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("pitchside-inspect: {e}");
            return ExitCode::from(2);
        }
    };
    let logs: Vec<PathBuf> = paths.collect();
    let games = relay::inspect::series::read_games(&logs, 0);
    let played: Vec<Played> = games
        .iter()
        .filter(|g| g.has_result())
        .map(|g| {
            // As a relay serving the same folders with `--archive` links it.
            let link = relay::inspect::series::archive_url(&logs, std::path::Path::new(&g.name))
                .map(|url| format!("/?log={url}"));
            relay::play::tournament::played(g, link)
        })
        .collect();
    let p = progress(&plan, &played, &[]);
    if as_json {
        let mut doc = serde_json::to_value(&p).unwrap_or_default();
        // The relay's document, with nothing pending and the file as read.
        doc["format"] = relay::tournament::FORMAT.into();
        doc["file_error"] = Value::Null;
        doc["indexing"] = 0.into();
        println!("{doc}");
        return ExitCode::SUCCESS;
    }
    let result = |g: &Game| match (g.status, g.score, g.penalties) {
        (Status::Played, Some([a, b]), Some([p, q])) => format!("{a}-{b} ({p}-{q} on penalties)"),
        (Status::Played, Some([a, b]), None) => format!("{a}-{b}"),
        _ => "to play".to_owned(),
    };
    println!("{}: {} of {} games played", p.title, p.played, p.fixtures);
    for g in &p.groups {
        println!();
        println!(
            "Group {}{}",
            g.name,
            if g.complete { " (complete)" } else { "" }
        );
        // As wide as the longest name: a long one is printed whole, the columns kept in line.
        let w = g
            .standings
            .iter()
            .map(|s| s.team.chars().count())
            .max()
            .unwrap_or(0)
            .max(4);
        println!(
            "place  {:<w$} {:>6}  won drawn lost  goals    diff  points",
            "team", "games"
        );
        for s in &g.standings {
            println!(
                "{:>5}  {:<w$} {:>6} {:>4} {:>5} {:>4} {:>3} - {:<3} {:>+4} {:>7}{}",
                s.place,
                s.team,
                s.games,
                s.wins,
                s.draws,
                s.losses,
                s.goals_for,
                s.goals_against,
                s.goal_difference,
                s.points,
                if s.tied { "  level" } else { "" }
            );
        }
        for f in &g.fixtures {
            let when = match (f.round, f.field) {
                (Some(r), Some(x)) => format!("round {r}, field {x}: "),
                (Some(r), None) => format!("round {r}: "),
                _ => String::new(),
            };
            println!("  {when}{} - {}  {}", f.left, f.right, result(&f.game));
        }
    }
    for r in &p.knockout {
        println!();
        println!("{}", r.name);
        for t in &r.ties {
            let side = |s: &pitchside_competitions::tournament::progress::TieSide| {
                s.team.clone().unwrap_or_else(|| format!("({})", s.label))
            };
            let winner = t
                .winner
                .as_ref()
                .map(|w| format!(", {w} goes through"))
                .unwrap_or_default();
            println!(
                "  {}: {} - {}  {}{winner}",
                t.id,
                side(&t.left),
                side(&t.right),
                result(&t.game)
            );
        }
    }
    if p.extra_games > 0 {
        println!();
        println!(
            "{} more games between these teams fit no fixture (a pair that already had its result, another day than its fixture's, a knockout pair not known yet); not counted",
            p.extra_games
        );
    }
    ExitCode::SUCCESS
}

fn schedule_command(args: &[String]) -> ExitCode {
    let mut file = None;
    let mut group = None;
    let mut fields = 1u32;
    let mut force = false;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--group" => group = it.next().cloned(),
            "--fields" => match it.next().and_then(|n| n.parse().ok()).filter(|n| *n >= 1) {
                Some(n) => fields = n,
                None => return usage_error("--fields needs a number of fields, 1 or more"),
            },
            "--force" => force = true,
            _ if file.is_none() && !a.starts_with("--") => file = Some(PathBuf::from(a)),
            _ => return usage_error(&format!("unexpected argument {a:?}")),
        }
    }
    let (Some(file), Some(group)) = (file, group) else {
        return usage_error("schedule needs the tournament file and --group NAME");
    };
    match relay::tournament::write_schedule(&file, &group, fields, force) {
        Ok(fixtures) => {
            let rounds = fixtures.iter().filter_map(|f| f.round).max().unwrap_or(0);
            // Fewer fields than asked when the group cannot fill them.
            let fields = fixtures.iter().filter_map(|f| f.field).max().unwrap_or(0);
            println!(
                "group {group}: {} games in {rounds} rounds on {fields} field(s), written into {}",
                fixtures.len(),
                file.display()
            );
            for f in &fixtures {
                println!(
                    "  round {:>2}, field {}: {} - {}",
                    f.round.unwrap_or(0),
                    f.field.unwrap_or(0),
                    f.left,
                    f.right
                );
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("pitchside-inspect: {e}");
            ExitCode::from(2)
        }
    }
}

fn usage_error(msg: &str) -> ExitCode {
    eprintln!("pitchside-inspect: {msg}\n{HINT}");
    ExitCode::from(2)
}

fn export_command(args: &[String]) -> ExitCode {
    let mut opts = relay::inspect::export::Options {
        tracking: false,
        actions: false,
        out: PathBuf::from("."),
        split: None,
        seed: 0,
        jobs: 0,
        parquet: false,
    };
    let mut paths = Vec::new();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut value = |what: &str| -> Result<String, String> {
            it.next()
                .cloned()
                .ok_or_else(|| format!("{a} needs {what}"))
        };
        let parsed: Result<(), String> = match a.as_str() {
            "--tracking" => {
                opts.tracking = true;
                Ok(())
            }
            "--actions" => {
                opts.actions = true;
                Ok(())
            }
            "--parquet" => {
                opts.parquet = true;
                Ok(())
            }
            "--out" => value("a folder").map(|v| opts.out = PathBuf::from(v)),
            "--seed" => value("a number").and_then(|v| {
                v.parse()
                    .map(|n| opts.seed = n)
                    .map_err(|_| format!("--seed {v}: not a number"))
            }),
            "--jobs" => value("a number").and_then(|v| {
                v.parse()
                    .map(|n| opts.jobs = n)
                    .map_err(|_| format!("--jobs {v}: not a number"))
            }),
            "--split" => value("three shares, T,V,E").and_then(|v| {
                let parts: Vec<f64> = v.split(',').filter_map(|p| p.trim().parse().ok()).collect();
                match parts[..] {
                    [t, va, e] if t >= 0.0 && va >= 0.0 && e >= 0.0 && t + va + e > 0.0 => {
                        opts.split = Some([t, va, e]);
                        Ok(())
                    }
                    _ => Err(format!("--split {v}: three shares, e.g. 0.8,0.1,0.1")),
                }
            }),
            "-h" | "--help" => {
                println!("{USAGE}");
                return ExitCode::SUCCESS;
            }
            s if s.starts_with("--") => Err(format!("unknown option {s}")),
            _ => {
                paths.push(PathBuf::from(a));
                Ok(())
            }
        };
        if let Err(e) = parsed {
            eprintln!("{e}\n{HINT}");
            return ExitCode::from(2);
        }
    }
    if paths.is_empty() {
        eprintln!("export: no log or folder given\n{HINT}");
        return ExitCode::from(2);
    }
    if !opts.tracking && !opts.actions {
        opts.tracking = true;
        opts.actions = true;
    }
    let started = std::time::Instant::now();
    let (done, failed) = relay::inspect::export::export(&paths, &opts);
    // The report is on one stream, the output, each line written whole with its newline:
    // with the summary on the error stream, a reader that takes the two streams apart and
    // joins them again (trimming each one's last newline) ran the last log's line into the
    // summary. Only the logs that failed go to the error stream, flushed before the summary.
    // A reader gone (`| head`) ends the report, not the export's exit code.
    let mut report = String::new();
    for e in &done {
        let set = e.set.map(|s| format!(" [{s}]")).unwrap_or_default();
        let note = match &e.ending {
            Ending::Whole => String::new(),
            other => format!(" ({other})"),
        };
        // What was asked for: the tracking table's rows are its shows.
        let what = match (opts.tracking, opts.actions) {
            (true, true) => format!(
                "{} shows, {} player types, {} actions",
                e.shows, e.player_types, e.actions
            ),
            (true, false) => format!("{} shows, {} player types", e.shows, e.player_types),
            _ => format!("{} actions", e.actions),
        };
        report.push_str(&format!("{}{set}: {what}{note}\n", e.input.display()));
    }
    print_whole(&mut std::io::stdout(), &report);
    let mut errors = String::new();
    for e in &failed {
        errors.push_str(&format!("{e}\n"));
    }
    print_whole(&mut std::io::stderr(), &errors);
    let shows: u64 = done.iter().map(|e| e.shows).sum();
    let actions: usize = done.iter().map(|e| e.actions).sum();
    let rows = match (opts.tracking, opts.actions) {
        (true, true) => format!("{shows} rows of tracking and {actions} actions"),
        (true, false) => format!("{shows} rows of tracking"),
        _ => format!("{actions} actions"),
    };
    print_whole(
        &mut std::io::stdout(),
        &format!(
            "{} logs exported ({} failed), {rows}, in {:.2} s\n",
            done.len(),
            failed.len(),
            started.elapsed().as_secs_f64()
        ),
    );
    if done.is_empty() {
        ExitCode::from(2)
    } else if failed.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

/// Writes `text` (whole lines) and flushes it, so that what follows on another stream comes
/// after it; a stream closed by its reader is let be.
fn print_whole(out: &mut impl std::io::Write, text: &str) {
    if !text.is_empty() {
        let _ = out.write_all(text.as_bytes()).and_then(|()| out.flush());
    }
}

fn validate_command(args: &[String]) -> ExitCode {
    let mut path = None;
    let mut as_json = false;
    for a in args {
        match a.as_str() {
            "--json" => as_json = true,
            "-h" | "--help" => {
                println!("{USAGE}");
                return ExitCode::SUCCESS;
            }
            s if s.starts_with("--") => {
                eprintln!("validate: unknown option {s}\n{HINT}");
                return ExitCode::from(2);
            }
            _ if path.is_none() => path = Some(PathBuf::from(a)),
            _ => {
                eprintln!("validate: one file at a time ({a:?})\n{HINT}");
                return ExitCode::from(2);
            }
        }
    }
    let Some(path) = path else {
        eprintln!("validate: no file given\n{HINT}");
        return ExitCode::from(2);
    };
    let v = match relay::inspect::tools::validate_file(&path) {
        Ok(v) => v,
        Err(e) => {
            eprintln!("{}: cannot read the file: {e}", path.display());
            return ExitCode::from(2);
        }
    };
    let unreadable = v.shows == 0
        && v.findings
            .iter()
            .any(|f| f.kind == rcss_formats::tools::FindingKind::Damaged);
    if as_json {
        let findings: Vec<Value> = v
            .findings
            .iter()
            .map(|f| {
                let mut o = json!({
                    "kind": f.kind.name(),
                    "cycle": f.cycle,
                    "message": f.message,
                    "rcgvalidator": f.kind.rcgvalidator(),
                });
                match f.at {
                    Some(rcss_formats::Location::Line(l)) => o["line"] = json!(l),
                    Some(rcss_formats::Location::Offset(b)) => o["offset"] = json!(b),
                    None => {}
                }
                o
            })
            .collect();
        let counts: serde_json::Map<String, Value> = v
            .counts
            .iter()
            .map(|(k, n)| (k.name().to_owned(), json!(n)))
            .collect();
        println!(
            "{}",
            json!({
                "file": path.display().to_string(),
                "version": v.version.map(|v| v.to_string()),
                "shows": v.shows,
                "clean": v.is_clean(),
                "findings": findings,
                "counts": counts,
            })
        );
    } else {
        let version = v
            .version
            .map_or_else(|| "unknown".to_owned(), |v| v.to_string().to_uppercase());
        if v.is_clean() {
            println!(
                "{}: version {version}, {} shows: clean",
                path.display(),
                v.shows
            );
        } else {
            let total: u64 = v.counts.iter().map(|(_, n)| n).sum();
            println!(
                "{}: version {version}, {} shows: {total} finding{}",
                path.display(),
                v.shows,
                if total == 1 { "" } else { "s" }
            );
            let mut last = None;
            for f in &v.findings {
                if last.is_some_and(|k| k != f.kind) {
                    print_more(&v, last);
                }
                last = Some(f.kind);
                let tag = if f.kind.rcgvalidator() {
                    " [rcgvalidator]"
                } else {
                    ""
                };
                println!("  {}{tag}: {f}", f.kind.name());
            }
            print_more(&v, last);
        }
    }
    if unreadable {
        ExitCode::from(2)
    } else if v.is_clean() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

fn print_more(
    v: &rcss_formats::tools::validate::Validation,
    kind: Option<rcss_formats::tools::FindingKind>,
) {
    if let Some(k) = kind {
        let more = v.more(k);
        if more > 0 {
            println!("  {}: … and {more} more", k.name());
        }
    }
}

/// A team name the formats can hold: text logs split on blanks and parentheses.
fn check_name(n: &str) -> Result<String, String> {
    if n.is_empty()
        || n.bytes()
            .any(|b| b.is_ascii_whitespace() || b"()\"\\".contains(&b) || b < 0x20)
    {
        return Err(format!(
            "team name {n:?}: letters, digits and punctuation other than ( ) \" \\, no blanks"
        ));
    }
    Ok(n.to_owned())
}

fn rewrite_command(cmd: &str, args: &[String]) -> ExitCode {
    let mut input = None;
    let mut output = None;
    let mut edits = Edits {
        reverse: cmd == "reverse",
        ..Edits::default()
    };
    let mut from = None;
    let mut to = None;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut value = |what: &str| -> Result<String, String> {
            it.next()
                .cloned()
                .ok_or_else(|| format!("{a} needs {what}"))
        };
        let parsed: Result<(), String> = match a.as_str() {
            "-o" | "--output" => value("a file").map(|v| output = Some(PathBuf::from(v))),
            "-v" | "--version" => value("a version").and_then(|v| {
                LogVersion::from_name(&v)
                    .map(|v| edits.to = Some(v))
                    .ok_or_else(|| format!("-v {v}: 1 to 7 or json"))
            }),
            "--left" if cmd == "rename" => value("a name")
                .and_then(|v| check_name(&v))
                .map(|v| edits.rename.left = Some(v)),
            "--right" if cmd == "rename" => value("a name")
                .and_then(|v| check_name(&v))
                .map(|v| edits.rename.right = Some(v)),
            "--from" if cmd == "clip" => value("a cycle").and_then(|v| {
                v.parse()
                    .map(|n| from = Some(n))
                    .map_err(|_| format!("--from {v}: a cycle number"))
            }),
            "--to" if cmd == "clip" => value("a cycle").and_then(|v| {
                v.parse()
                    .map(|n| to = Some(n))
                    .map_err(|_| format!("--to {v}: a cycle number"))
            }),
            "-h" | "--help" => {
                println!("{USAGE}");
                return ExitCode::SUCCESS;
            }
            s if s.starts_with('-') && s.len() > 1 => Err(format!("{cmd}: unknown option {s}")),
            _ if input.is_none() => {
                input = Some(PathBuf::from(a));
                Ok(())
            }
            _ => Err(format!("{cmd}: one input file ({a:?})")),
        };
        if let Err(e) = parsed {
            eprintln!("{e}\n{HINT}");
            return ExitCode::from(2);
        }
    }
    let missing = match (cmd, &input, &output) {
        (_, None, _) => Some("no input file".to_owned()),
        (_, _, None) => Some("no output file (-o OUT)".to_owned()),
        ("convert", _, _) if edits.to.is_none() => {
            Some("no version (-v 1|2|3|4|5|6|7|json)".to_owned())
        }
        ("rename", _, _) if edits.rename == Rename::default() => {
            Some("no new name (--left NAME, --right NAME)".to_owned())
        }
        ("clip", _, _) => match (from, to) {
            (Some(a), Some(b)) if a <= b => {
                edits.clip = Some((a, b));
                None
            }
            (Some(a), Some(b)) => Some(format!("--from {a} is after --to {b}")),
            _ => Some("clip needs --from A and --to B".to_owned()),
        },
        _ => None,
    };
    if let Some(m) = missing {
        eprintln!("{cmd}: {m}\n{HINT}");
        return ExitCode::from(2);
    }
    let (Some(input), Some(output)) = (input, output) else {
        return ExitCode::from(2);
    };
    let clip = edits.clip;
    let done = match relay::inspect::tools::rewrite_file(&input, &output, edits) {
        Ok(d) => d,
        // The output's own failure names the output.
        Err(e @ relay::inspect::tools::RewriteError::Write { .. }) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
        Err(e) => {
            eprintln!("{}: {e}", input.display());
            return ExitCode::from(2);
        }
    };
    let version = done
        .version
        .map_or_else(|| "?".to_owned(), |v| v.to_string().to_uppercase());
    if done.shows == 0 {
        let why = match (&done.error, clip) {
            (Some(e), _) => e.to_string(),
            (None, Some((a, b))) => format!("no show in cycles {a} to {b}"),
            (None, None) => "no show".to_owned(),
        };
        eprintln!(
            "{}: {why}; {} not written",
            input.display(),
            output.display()
        );
        return ExitCode::from(2);
    }
    println!(
        "{} → {}: version {version}, {} shows",
        input.display(),
        output.display(),
        done.shows
    );
    if done.stopped_early {
        return ExitCode::SUCCESS;
    }
    match Ending::of(&done.end, done.error.as_ref()) {
        Ending::Whole => ExitCode::SUCCESS,
        Ending::Damaged(e) => {
            eprintln!(
                "{}: damaged: {e}; written up to the damage",
                input.display()
            );
            ExitCode::from(1)
        }
        Ending::Incomplete { cycle } => {
            eprintln!(
                "{}: {}; written whole",
                input.display(),
                rcss_formats::log::incomplete_note(cycle)
            );
            ExitCode::from(3)
        }
    }
}

/// Each team's players' figures, a table per team.
fn print_actions(r: &Report) {
    const COLS: [(&str, &str); 14] = [
        ("kicks", "kick"),
        ("passes", "pass"),
        ("passes_completed", "cmpl"),
        ("through_passes", "thru"),
        ("shots", "shot"),
        ("shots_on_target", "on t"),
        ("goals", "goal"),
        ("assists", "asst"),
        ("dribbles", "drib"),
        ("tackles_won", "tk+"),
        ("tackles_failed", "tk-"),
        ("recoveries", "recv"),
        ("penalty_area_entries", "pa"),
        ("catches", "ctch"),
    ];
    for (side, team) in r.players.iter().enumerate() {
        let name =
            r.teams[side]
                .name
                .as_deref()
                .unwrap_or(if side == 0 { "left" } else { "right" });
        println!("\nactions of {name}:");
        print!("  {:>4}", "#");
        for (_, h) in COLS {
            print!(" {h:>5}");
        }
        println!();
        let mut total = [0u32; 14];
        for (i, f) in team.iter().enumerate() {
            let named = f.named();
            let values: Vec<u32> = COLS
                .iter()
                .map(|(k, _)| named.iter().find(|(n, _)| n == k).map_or(0, |(_, v)| *v))
                .collect();
            if values.iter().all(|v| *v == 0) {
                continue;
            }
            print!("  {:>4}", i + 1);
            for (t, v) in total.iter_mut().zip(&values) {
                *t += v;
                print!(" {v:>5}");
            }
            println!();
        }
        print!("  {:>4}", "all");
        for t in total {
            print!(" {t:>5}");
        }
        println!();
    }
}

fn empty_report() -> Report {
    relay::inspect::inspect_bytes(&[])
}

/// Nothing could be read: with `--json` still the whole object, with the reason in `error`.
fn report_failure(path: &str, report: &Report, msg: &str, e: Option<&LogError>, as_json: bool) {
    if as_json {
        let mut summary = report.to_json();
        summary["error"] = e.map_or_else(|| json!({"message": msg}), error_json);
        println!("{summary}");
    } else {
        eprintln!("{path}: {msg}");
    }
}

fn print_human(path: &str, r: &Report, list_events: bool) {
    let s = r.to_json();
    let name = |v: &Value| v.as_str().unwrap_or("(none)").to_owned();
    println!("file:        {path}");
    let version = match &s["version"] {
        Value::String(v) => v.to_uppercase(),
        v => v.to_string(),
    };
    println!(
        "version:     {version}{}",
        if r.compressed { " (gzip)" } else { "" }
    );
    println!("shows:       {} ({} distinct cycles)", r.shows, r.cycles);
    println!(
        "teams:       {} vs {}",
        name(&s["teams"][0]),
        name(&s["teams"][1])
    );
    print!("final score: {} - {}", r.teams[0].score, r.teams[1].score);
    if let Some(p) = s["penalties"].as_array() {
        print!(" (penalties {}-{}, missed {}-{})", p[0], p[2], p[1], p[3]);
    }
    println!();
    let goals: Vec<String> = s["goals"]
        .as_array()
        .map(|g| {
            g.iter()
                .map(|g| format!("{} ({})", g["cycle"], g["side"].as_str().unwrap_or("?")))
                .collect()
        })
        .unwrap_or_default();
    println!(
        "goals:       {}",
        if goals.is_empty() {
            "none".into()
        } else {
            goals.join(", ")
        }
    );
    println!("messages:    {}", r.messages);
    if list_events {
        println!("events:      {}", r.events.len());
        let team = |side: Option<Side>| match side {
            Some(side) => name(&s["teams"][side.index()]),
            None => String::new(),
        };
        for e in &r.events {
            let player = e.player.map_or(String::new(), |u| format!(" {u}"));
            println!(
                "  {:>6}  {:<26} {}{}",
                e.cycle,
                e.kind.label(),
                team(e.side),
                player
            );
        }
    } else {
        println!("events:      {} (--events lists them)", r.events.len());
    }
    match r.ending() {
        Ending::Whole => println!("ending:      whole, parsed completely"),
        e => println!("ending:      {e}"),
    }
}
