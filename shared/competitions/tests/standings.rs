//! Group standings against librcsc's `rclmtableprinter`: for real results (the round robin of
//! `tests/fixtures/series/T` with its shoot-outs, all 65 series games with their repeated
//! pairs and cut logs, six earlier games) and for made-up cases of its tie rules, the tool's
//! table (kept in `tests/golden/tournament/`, see its README) and ours give the same teams in
//! the same places with the same games, wins, losses, draws, points and goals.
#![allow(clippy::unwrap_used)]

use pitchside_competitions::tournament::{rank, read_result_lines};
use std::path::PathBuf;

fn golden(name: &str) -> String {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/golden/tournament")
        .join(name);
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// The standings rows of the tool's table: place, team, games, win, lose, draw, points,
/// goals for, goals against.
fn their_rows(table: &str) -> Vec<(u32, String, [u32; 7])> {
    table
        .lines()
        .skip_while(|l| !l.starts_with("| place"))
        .skip(1)
        .take_while(|l| l.starts_with('|'))
        .map(|l| {
            let cells: Vec<&str> = l.trim_matches('|').split('|').map(str::trim).collect();
            let num = |s: &str| s.split_whitespace().next().unwrap().parse::<u32>().unwrap();
            let goals: Vec<u32> = cells[7]
                .split('-')
                .map(|g| g.trim().parse().unwrap())
                .collect();
            (
                num(cells[0]),
                cells[1].to_owned(),
                [
                    num(cells[2]),
                    num(cells[3]),
                    num(cells[4]),
                    num(cells[5]),
                    num(cells[6]),
                    goals[0],
                    goals[1],
                ],
            )
        })
        .collect()
}

#[test]
fn standings_match_rclmtableprinter_on_real_and_made_up_results() {
    for case in [
        "T",
        "all-65",
        "six-games",
        "cup-played",
        "case-3way-cycle",
        "case-h2h",
        "case-formats",
    ] {
        let (results, _) = read_result_lines(&golden(&format!("{case}.results")));
        let table = rank(&results);
        let ours: Vec<(u32, String, [u32; 7])> = table
            .rows
            .iter()
            .zip(table.printed_places())
            .map(|(r, place)| {
                (
                    place,
                    r.team.clone(),
                    [
                        r.games,
                        r.wins,
                        r.losses,
                        r.draws,
                        r.points,
                        r.goals_for,
                        r.goals_against,
                    ],
                )
            })
            .collect();
        let theirs = their_rows(&golden(&format!("{case}.rclm")));
        assert!(!theirs.is_empty(), "{case}");
        assert_eq!(ours, theirs, "{case}");
    }
}
