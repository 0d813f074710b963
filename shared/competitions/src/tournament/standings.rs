//! A group's standings, ranked the way librcsc's `rclmtableprinter` ranks them (the tool RoboCup
//! 2D organisers make their tables with), so the page and the organiser's printed table agree
//! on every place. Its rules, as that tool applies them:
//!
//! - A win is 3 points, a draw 1; a drawn game decided by a penalty shoot-out is a win (3) and
//!   a loss (0). Penalty goals are not goals.
//! - Each pair of teams counts once: a second result between the same two teams (either way
//!   round) is left out.
//! - Teams are ordered by **average** points (a stable sort: teams first seen earlier stay
//!   ahead), and cut into runs of equal **total** points; each run is then ordered by, in turn:
//!   a team that beat every other team of the run it played (goals plus penalty goals),
//!   placed first and the rest ranked again from this rule; the average goal difference; with
//!   more than two teams, the goal difference in their games with each other; the goals scored
//!   (total); with more than two, the goals scored in their games with each other; and still
//!   level, by name, marked tied. A rule that splits a run ranks each part again from the
//!   head-to-head rule.
//!
//! The averages matter only when teams have played different numbers of games.

use std::collections::HashMap;

/// One game's result, left team first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Result {
    /// Any label (rcssserver's date, `YYYYmmddHHMMSS`, in librcsc's result lines).
    pub date: String,
    pub teams: [String; 2],
    pub score: [u32; 2],
    /// Penalty goals, when there was a shoot-out.
    pub penalties: Option<[u32; 2]>,
}

/// A team's line of the table.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Row {
    pub team: String,
    pub games: u32,
    pub wins: u32,
    pub losses: u32,
    pub draws: u32,
    pub points: u32,
    pub goals_for: u32,
    pub goals_against: u32,
    /// Level with a neighbour on every rule (ordered by name among them).
    pub tied: bool,
}

impl Row {
    pub fn goal_difference(&self) -> i64 {
        i64::from(self.goals_for) - i64::from(self.goals_against)
    }

    fn per_game(&self, v: f64) -> f64 {
        v / f64::from(self.games.max(1))
    }

    pub fn average_points(&self) -> f64 {
        self.per_game(f64::from(self.points))
    }

    pub fn average_difference(&self) -> f64 {
        self.per_game(self.goal_difference() as f64)
    }
}

/// A result left out, with why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Skipped {
    /// The two teams already had a result.
    Repeated(Result),
}

/// A ranked group.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Table {
    /// First place first.
    pub rows: Vec<Row>,
    /// The results counted, in the order given.
    pub results: Vec<Result>,
    pub skipped: Vec<Skipped>,
}

impl Table {
    /// The result between two teams, from `a`'s side: (a's goals, b's goals, penalties a, b).
    pub fn between(&self, a: &str, b: &str) -> Option<(u32, u32, Option<[u32; 2]>)> {
        self.results.iter().find_map(|r| {
            if r.teams[0] == a && r.teams[1] == b {
                Some((r.score[0], r.score[1], r.penalties))
            } else if r.teams[0] == b && r.teams[1] == a {
                Some((r.score[1], r.score[0], r.penalties.map(|[x, y]| [y, x])))
            } else {
                None
            }
        })
    }

    /// The places as `rclmtableprinter` prints them: 1, 2, 3, …, except that a tied team
    /// right after a tied team gets the place before (its printing does only that, so a
    /// three-way tie prints 1, 1, 2).
    pub fn printed_places(&self) -> Vec<u32> {
        let mut out = Vec::with_capacity(self.rows.len());
        let mut last_tie = false;
        for (i, r) in self.rows.iter().enumerate() {
            let count = i as u32 + 1;
            let place = if last_tie && r.tied { count - 1 } else { count };
            last_tie = r.tied;
            out.push(place);
        }
        out
    }
}

/// Points for `ours` against `theirs`, a shoot-out deciding a draw.
fn points(ours: u32, our_pens: u32, theirs: u32, their_pens: u32) -> u32 {
    match (ours.cmp(&theirs), our_pens.cmp(&their_pens)) {
        (std::cmp::Ordering::Greater, _) => 3,
        (std::cmp::Ordering::Less, _) => 0,
        (_, std::cmp::Ordering::Greater) => 3,
        (_, std::cmp::Ordering::Less) => 0,
        _ => 1,
    }
}

/// Ranks the teams of `results`.
pub fn rank(results: &[Result]) -> Table {
    let mut table = Table::default();
    let mut rows: Vec<Row> = Vec::new();
    let mut index: HashMap<String, usize> = HashMap::new();
    // Each game from both sides: (team, opponent) → (goals, goals against, pens, pens against).
    let mut games: HashMap<(String, String), (u32, u32, u32, u32)> = HashMap::new();
    for r in results {
        let [l, rt] = &r.teams;
        if games.contains_key(&(l.clone(), rt.clone())) {
            table.skipped.push(Skipped::Repeated(r.clone()));
            continue;
        }
        let [pl, pr] = r.penalties.unwrap_or([0, 0]);
        for (us, them, f, a, pf, pa) in [
            (l, rt, r.score[0], r.score[1], pl, pr),
            (rt, l, r.score[1], r.score[0], pr, pl),
        ] {
            let i = *index.entry(us.clone()).or_insert_with(|| {
                rows.push(Row {
                    team: us.clone(),
                    ..Row::default()
                });
                rows.len() - 1
            });
            let row = &mut rows[i];
            let p = points(f, pf, a, pa);
            row.games += 1;
            row.points += p;
            match p {
                3 => row.wins += 1,
                0 => row.losses += 1,
                _ => row.draws += 1,
            }
            row.goals_for += f;
            row.goals_against += a;
            games.insert((us.clone(), them.clone()), (f, a, pf, pa));
        }
        table.results.push(r.clone());
    }
    // By average points, stably; then each run of equal total points by the tie rules.
    rows.sort_by(|a, b| b.average_points().total_cmp(&a.average_points()));
    let mut ranked = Vec::with_capacity(rows.len());
    let mut rest = rows.into_iter().peekable();
    while let Some(first) = rest.next() {
        let mut run = vec![first];
        while rest
            .peek()
            .is_some_and(|t| t.points == run[run.len() - 1].points)
        {
            run.extend(rest.next());
        }
        break_ties(run, &games, &mut ranked);
    }
    table.rows = ranked;
    table
}

type Games = HashMap<(String, String), (u32, u32, u32, u32)>;

/// Splits `run` (already in order by `key`, descending) at the first change of `key` and ranks
/// both parts again; false (the run unchanged) when all are level.
fn split_by<K: PartialEq>(
    run: &mut Vec<Row>,
    key: impl Fn(&Row) -> K,
    games: &Games,
    out: &mut Vec<Row>,
) -> bool {
    if run.len() < 2 || key(&run[0]) == key(&run[run.len() - 1]) {
        return false;
    }
    let cut = run
        .iter()
        .position(|r| key(r) != key(&run[0]))
        .unwrap_or(run.len());
    let rest = run.split_off(cut);
    break_ties(std::mem::take(run), games, out);
    break_ties(rest, games, out);
    true
}

/// Goals for and against `team` in its games with the others of `run`.
fn among(team: &str, run: &[Row], games: &Games) -> (i64, i64) {
    run.iter()
        .filter(|o| o.team != team)
        .filter_map(|o| games.get(&(team.to_owned(), o.team.clone())))
        .fold((0, 0), |(f, a), g| (f + i64::from(g.0), a + i64::from(g.1)))
}

fn break_ties(mut run: Vec<Row>, games: &Games, out: &mut Vec<Row>) {
    if run.len() <= 1 {
        out.append(&mut run);
        return;
    }
    // A team that beat every team of the run it played (goals plus penalty goals), and
    // played at least one: first, the rest ranked again.
    let beats_all = |t: &Row| {
        let mut played = false;
        for o in &run {
            if o.team == t.team {
                continue;
            }
            if let Some(&(f, a, pf, pa)) = games.get(&(t.team.clone(), o.team.clone())) {
                if f + pf <= a + pa {
                    return false;
                }
                played = true;
            }
        }
        played
    };
    if let Some(i) = run.iter().position(beats_all) {
        out.push(run.remove(i));
        break_ties(run, games, out);
        return;
    }
    // The average goal difference (sorted stably, split where the total differs).
    run.sort_by(|a, b| b.average_difference().total_cmp(&a.average_difference()));
    if split_by(&mut run, Row::goal_difference, games, out) {
        return;
    }
    if run.len() > 2 {
        let diff_among = |r: &Row| {
            let (f, a) = among(&r.team, &run, games);
            f - a
        };
        let keys: HashMap<String, i64> = run
            .iter()
            .map(|r| (r.team.clone(), diff_among(r)))
            .collect();
        run.sort_by_key(|r| std::cmp::Reverse(keys[&r.team]));
        if split_by(&mut run, |r| keys[&r.team], games, out) {
            return;
        }
    }
    run.sort_by_key(|r| std::cmp::Reverse(r.goals_for));
    if split_by(&mut run, |r| r.goals_for, games, out) {
        return;
    }
    if run.len() > 2 {
        let keys: HashMap<String, i64> = run
            .iter()
            .map(|r| (r.team.clone(), among(&r.team, &run, games).0))
            .collect();
        run.sort_by_key(|r| std::cmp::Reverse(keys[&r.team]));
        if split_by(&mut run, |r| keys[&r.team], games, out) {
            return;
        }
    }
    run.sort_by(|a, b| a.team.as_bytes().cmp(b.team.as_bytes()));
    for mut r in run {
        r.tied = true;
        out.push(r);
    }
}

/// Reads librcsc's result lines (`rcgresultprinter`'s output, what `rclmtableprinter`
/// reads): `DATE LEFT RIGHT SCORE_L SCORE_R [PEN_L PEN_R]`, skipping what that tool skips (a
/// line of another shape, an incomplete match), with why.
pub fn read_result_lines(text: &str) -> (Vec<Result>, Vec<String>) {
    let mut out = Vec::new();
    let mut notes = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let f: Vec<&str> = line.split_whitespace().collect();
        let nums: Vec<Option<u32>> = f.iter().skip(3).take(4).map(|v| v.parse().ok()).collect();
        let count = 3.min(f.len()) + nums.iter().take_while(|n| n.is_some()).count();
        if count != 5 && count != 7 {
            notes.push(format!("{}: illegal result format : {line}", i + 1));
            continue;
        }
        if line.contains("incomplete match") {
            notes.push(format!("{}: incomplete match : {line}", i + 1));
            continue;
        }
        let n = |k: usize| nums[k].unwrap_or(0);
        out.push(Result {
            date: f[0].to_owned(),
            teams: [f[1].to_owned(), f[2].to_owned()],
            score: [n(0), n(1)],
            penalties: (count == 7).then(|| [n(2), n(3)]),
        });
    }
    (out, notes)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table(lines: &str) -> Table {
        rank(&read_result_lines(lines).0)
    }

    fn order(t: &Table) -> Vec<&str> {
        t.rows.iter().map(|r| r.team.as_str()).collect()
    }

    #[test]
    fn head_to_head_comes_before_goal_difference_and_is_asked_again() {
        // Each on 6 points in a cycle: C has the best goal difference; then between A and B
        // their own game decides, though B has the better difference (rclmtableprinter: C,
        // A, B).
        let t = table("1 A B 1 0\n2 B C 1 0\n3 C A 3 0\n4 A D 2 0\n5 B D 1 0\n6 C D 1 0\n");
        assert_eq!(&order(&t)[..3], ["C", "A", "B"]);
    }

    #[test]
    fn shoot_outs_repeats_and_malformed_lines_are_handled_as_the_tool_does() {
        let (results, notes) = read_result_lines(
            "202601010000 A B 1 1 3 2\n202601010001 A C 1 1 2\n202601010002 B C 0 0 (incomplete match : cycle=1234)\n202601010003 A B 2 0\n202601010004 C D 0 0\n202601010005 B D 0 0\n202601010006 A D 0 0\n",
        );
        assert_eq!(notes.len(), 2, "{notes:?}");
        let t = rank(&results);
        assert_eq!(t.skipped.len(), 1);
        assert_eq!(order(&t), ["A", "C", "D", "B"]);
        let a = &t.rows[0];
        assert_eq!((a.games, a.wins, a.draws, a.points), (2, 1, 1, 4));
        assert_eq!((a.goals_for, a.goals_against), (1, 1));
        assert_eq!(t.printed_places(), [1, 2, 3, 4]);
    }

    #[test]
    fn level_teams_are_ordered_by_name_and_printed_as_the_tool_prints() {
        let t = table("1 B A 1 1\n2 C D 1 1\n");
        assert_eq!(order(&t), ["A", "B", "C", "D"]);
        assert!(t.rows.iter().all(|r| r.tied));
        assert_eq!(t.printed_places(), [1, 1, 2, 3]);
    }
}
