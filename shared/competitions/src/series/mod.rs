//! Many matches read as one: a team's series of games (a night's autotest batch, a folder, an
//! archive search) with its results and their uncertainty, and two series compared.
//!
//! - [`game`]: one match as a series counts it ([`Game`]), and why a game would not count.
//! - [`stats`]: the intervals and tests, each named where it is defined.
//! - [`compare`]: two series side by side (A/B), in figures and in one sentence.
//! - this file: [`Series`], a set of games seen from one team, and the figures autotest2d's
//!   `process.py` prints ([`ProcessPy`]), kept apart because it counts differently.
//!
//! A series is seen from one team: named, or else the left team of each game (which is what
//! autotest2d does: its team always plays on the left). Games the team did not play in, and
//! invalid games, are listed and left out of every figure; `process.py`'s figures keep the
//! invalid ones, as it does.

pub mod compare;
pub mod game;
pub mod stats;

pub use game::{Ended, Figures, Game, GameReader, Invalid};

use rcss_formats::model::Side;
use stats::{wilson, Interval, Mean};
use std::collections::BTreeMap;

/// How a game ended for the series' team.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Win,
    Draw,
    Loss,
}

/// A game as the series' team sees it.
#[derive(Clone, Debug, PartialEq)]
pub struct Seen<'a> {
    pub game: &'a Game,
    /// Its place among the games the series was made from.
    pub index: usize,
    /// The team's side in it.
    pub side: Side,
    pub goals_for: u32,
    pub goals_against: u32,
    pub outcome: Outcome,
    /// The shoot-out's result for the team, when there was one: won or not.
    pub shootout_won: Option<bool>,
}

impl<'a> Seen<'a> {
    fn new(game: &'a Game, index: usize, side: Side) -> Seen<'a> {
        let (us, them) = (side.index(), 1 - side.index());
        let (f, a) = (game.score[us], game.score[them]);
        Seen {
            game,
            index,
            side,
            goals_for: f,
            goals_against: a,
            outcome: match f.cmp(&a) {
                std::cmp::Ordering::Greater => Outcome::Win,
                std::cmp::Ordering::Equal => Outcome::Draw,
                std::cmp::Ordering::Less => Outcome::Loss,
            },
            shootout_won: game.shootout.map(|s| s[us] > s[them]),
        }
    }

    pub fn difference(&self) -> i64 {
        i64::from(self.goals_for) - i64::from(self.goals_against)
    }

    /// League points: 3 a win, 1 a draw.
    pub fn points(&self) -> u32 {
        match self.outcome {
            Outcome::Win => 3,
            Outcome::Draw => 1,
            Outcome::Loss => 0,
        }
    }

    pub fn ours(&self) -> &Figures {
        &self.game.figures[self.side.index()]
    }

    pub fn theirs(&self) -> &Figures {
        &self.game.figures[1 - self.side.index()]
    }
}

/// A figure averaged over a series' games: the team's and its opponents'.
#[derive(Clone, Debug, PartialEq)]
pub struct Averaged {
    pub name: &'static str,
    pub ours: Option<Mean>,
    pub theirs: Option<Mean>,
}

/// Reads one figure of a team's match.
pub type FigureOf = fn(&Figures) -> Option<f64>;

/// The per-match figures a series averages, by name; each is a count (0 up) but possession,
/// a share (0 to 1), which is what [`Series::figures`] cuts their intervals to.
pub const FIGURES: [(&str, FigureOf); 6] = [
    ("possession", |f| f.possession.map(f64::from)),
    ("shots", |f| Some(f64::from(f.shots))),
    ("shots_on_target", |f| Some(f64::from(f.shots_on_target))),
    ("passes", |f| Some(f64::from(f.passes))),
    ("fouls", |f| Some(f64::from(f.fouls))),
    ("cards", |f| Some(f64::from(f.cards))),
];

/// One point of the win-rate curve: after `games` valid games.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CurvePoint {
    pub games: u32,
    pub win_rate: f64,
    pub ci: Interval,
}

/// A set of games seen from one team.
#[derive(Clone, Debug)]
pub struct Series<'a> {
    /// The team, or `None` for the left team of each game.
    pub team: Option<String>,
    /// Valid games the team played, in the order given.
    pub counted: Vec<Seen<'a>>,
    /// Games the team played that do not count, with why.
    pub invalid: Vec<Seen<'a>>,
    /// Games the team did not play in (or that could not be read far enough to tell).
    pub other: Vec<&'a Game>,
}

impl<'a> Series<'a> {
    /// The series of `games` seen from `team` (or the left team of each game).
    pub fn new(games: &'a [Game], team: Option<&str>) -> Series<'a> {
        let mut s = Series {
            team: team.map(str::to_owned),
            counted: Vec::new(),
            invalid: Vec::new(),
            other: Vec::new(),
        };
        for (i, g) in games.iter().enumerate() {
            let side = match team {
                Some(t) => g.side_of(t),
                None => (!g.teams[0].is_empty()).then_some(Side::Left),
            };
            match side {
                None => s.other.push(g),
                Some(side) if g.valid() => s.counted.push(Seen::new(g, i, side)),
                Some(side) => s.invalid.push(Seen::new(g, i, side)),
            }
        }
        s
    }

    /// The team's name as the games give it: the named team, or the left team if every game
    /// has the same one.
    pub fn team_name(&self) -> Option<String> {
        if let Some(t) = &self.team {
            return Some(t.clone());
        }
        let mut names = self
            .counted
            .iter()
            .chain(&self.invalid)
            .map(|s| &s.game.teams[s.side.index()]);
        let first = names.next()?;
        names.all(|n| n == first).then(|| first.clone())
    }

    /// The opponents' names, each once, in order of appearance.
    pub fn opponents(&self) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        for s in self.counted.iter().chain(&self.invalid) {
            let n = &s.game.teams[1 - s.side.index()];
            if !out.contains(n) {
                out.push(n.clone());
            }
        }
        out
    }

    pub fn games(&self) -> u32 {
        self.counted.len() as u32
    }

    pub fn count(&self, o: Outcome) -> u32 {
        self.counted.iter().filter(|s| s.outcome == o).count() as u32
    }

    /// Wins over games, with Wilson's interval.
    pub fn win_rate(&self) -> Option<(f64, Interval)> {
        let (w, n) = (self.count(Outcome::Win), self.games());
        Some((f64::from(w) / f64::from(n.max(1)), wilson(w, n)?))
    }

    /// Wins over decided games (draws left out), as autotest2d's "expected win rate", with
    /// Wilson's interval.
    pub fn expected_win_rate(&self) -> Option<(f64, Interval)> {
        let w = self.count(Outcome::Win);
        let decided = w + self.count(Outcome::Loss);
        Some((
            f64::from(w) / f64::from(decided.max(1)),
            wilson(w, decided)?,
        ))
    }

    fn values(&self, f: impl Fn(&Seen) -> f64) -> Vec<f64> {
        self.counted.iter().map(f).collect()
    }

    pub fn goals_for(&self) -> Option<Mean> {
        Mean::of(&self.values(|s| f64::from(s.goals_for))).map(|m| m.within(0.0, f64::INFINITY))
    }

    pub fn goals_against(&self) -> Option<Mean> {
        Mean::of(&self.values(|s| f64::from(s.goals_against))).map(|m| m.within(0.0, f64::INFINITY))
    }

    pub fn difference(&self) -> Option<Mean> {
        Mean::of(&self.differences())
    }

    /// Each counted game's goal difference, in order.
    pub fn differences(&self) -> Vec<f64> {
        self.values(|s| s.difference() as f64)
    }

    /// Points a game: 0 to 3.
    pub fn points(&self) -> Option<Mean> {
        Mean::of(&self.values(|s| f64::from(s.points()))).map(|m| m.within(0.0, 3.0))
    }

    pub fn total_points(&self) -> u32 {
        self.counted.iter().map(Seen::points).sum()
    }

    /// Counts of each value, lowest first.
    pub fn histogram(&self, f: impl Fn(&Seen) -> i64) -> BTreeMap<i64, u32> {
        let mut h = BTreeMap::new();
        for s in &self.counted {
            *h.entry(f(s)).or_insert(0) += 1;
        }
        h
    }

    /// Shoot-outs played, won, lost: counted apart from the results (a drawn game that went
    /// to a shoot-out is a draw above).
    pub fn shootouts(&self) -> (u32, u32, u32) {
        let played: Vec<bool> = self.counted.iter().filter_map(|s| s.shootout_won).collect();
        let won = played.iter().filter(|w| **w).count() as u32;
        (played.len() as u32, won, played.len() as u32 - won)
    }

    /// Each per-match figure averaged, the team's and the opponents'.
    pub fn figures(&self) -> Vec<Averaged> {
        FIGURES
            .iter()
            .map(|(name, f)| {
                let of = |ours: bool| {
                    let v: Vec<f64> = self
                        .counted
                        .iter()
                        .filter_map(|s| f(if ours { s.ours() } else { s.theirs() }))
                        .collect();
                    let most = if *name == "possession" {
                        1.0
                    } else {
                        f64::INFINITY
                    };
                    Mean::of(&v).map(|m| m.within(0.0, most))
                };
                Averaged {
                    name,
                    ours: of(true),
                    theirs: of(false),
                }
            })
            .collect()
    }

    /// The win rate after each counted game, with its Wilson band: what a developer watches
    /// converge while a batch runs.
    pub fn curve(&self) -> Vec<CurvePoint> {
        let mut wins = 0;
        self.counted
            .iter()
            .enumerate()
            .filter_map(|(i, s)| {
                wins += u32::from(s.outcome == Outcome::Win);
                let n = i as u32 + 1;
                Some(CurvePoint {
                    games: n,
                    win_rate: f64::from(wins) / f64::from(n),
                    ci: wilson(wins, n)?,
                })
            })
            .collect()
    }

    /// What autotest2d's `process.py` prints for the same games.
    pub fn process_py(&self) -> ProcessPy {
        ProcessPy::of(self)
    }
}

/// The figures autotest2d's `scripts/process.py` prints, computed its way: every game the
/// team played counts, invalid ones included (it only reports how many were invalid); goals
/// and points summed and averaged; the win rate's interval is the normal approximation
/// ([`stats::wald`]); the expected win rate is 100 % when no game was decided. Its validity
/// flag is not ours (it wants a coach connected and nobody disconnected before the end), so
/// the invalid count may differ where a log alone cannot tell.
#[derive(Clone, Debug, PartialEq)]
pub struct ProcessPy {
    pub games: u32,
    pub goals: (u32, u32),
    pub points: (u32, u32),
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    pub win_rate: f64,
    pub expected_win_rate: f64,
    pub ci: Interval,
    pub invalid: u32,
    /// Goals for, goals against, and the difference: counts by value, every value from the
    /// lowest to the highest present (zero counts included, as it prints them).
    pub distributions: [BTreeMap<i64, u32>; 3],
    /// Each game in the order given: goals for and against, points for and against, the
    /// log's file name.
    pub details: Vec<(u32, u32, u32, u32, String)>,
}

impl ProcessPy {
    fn of(s: &Series) -> ProcessPy {
        let mut all: Vec<&Seen> = s.counted.iter().chain(&s.invalid).collect();
        all.sort_by_key(|g| g.index);
        let n = all.len() as u32;
        let count = |o: Outcome| all.iter().filter(|g| g.outcome == o).count() as u32;
        let (wins, draws, losses) = (
            count(Outcome::Win),
            count(Outcome::Draw),
            count(Outcome::Loss),
        );
        let goals = (
            all.iter().map(|g| g.goals_for).sum(),
            all.iter().map(|g| g.goals_against).sum(),
        );
        let theirs = |g: &Seen| match g.outcome {
            Outcome::Win => 0,
            Outcome::Draw => 1,
            Outcome::Loss => 3,
        };
        let points = (
            all.iter().map(|g| g.points()).sum(),
            all.iter().map(|g| theirs(g)).sum(),
        );
        let details = all
            .iter()
            .map(|g| {
                let file = g.game.name.rsplit(['/', '\\']).next().unwrap_or_default();
                (
                    g.goals_for,
                    g.goals_against,
                    g.points(),
                    theirs(g),
                    file.to_owned(),
                )
            })
            .collect();
        let rate = |k: u32| {
            if n == 0 {
                0.0
            } else {
                f64::from(k) / f64::from(n)
            }
        };
        let (wr, lr) = (rate(wins), rate(losses));
        let expected_win_rate = if wr + lr > 0.0 { wr / (wr + lr) } else { 1.0 };
        let dist = |f: &dyn Fn(&Seen) -> i64| {
            let mut h = BTreeMap::new();
            for g in &all {
                *h.entry(f(g)).or_insert(0) += 1;
            }
            if let (Some(&lo), Some(&hi)) = (h.keys().next(), h.keys().next_back()) {
                for v in lo..=hi {
                    h.entry(v).or_insert(0);
                }
            }
            h
        };
        ProcessPy {
            games: n,
            goals,
            points,
            wins,
            draws,
            losses,
            win_rate: wr,
            expected_win_rate,
            ci: stats::wald(wins, n).unwrap_or(Interval { lo: 0.0, hi: 0.0 }),
            invalid: s.invalid.len() as u32,
            distributions: [
                dist(&|g| i64::from(g.goals_for)),
                dist(&|g| i64::from(g.goals_against)),
                dist(&|g| g.difference()),
            ],
            details,
        }
    }

    /// What `process.py -N` prints (no colours), line for line: the game details, then the
    /// summary from `title` on. Shoot counts, misses and remaining games come from a team's
    /// own output and autotest's files, which a log does not hold, so those lines are absent.
    pub fn text(&self, title: &str) -> String {
        let mut out = String::from("\nGame Details:\n\n");
        for (i, (gf, ga, pf, pa, file)) in self.details.iter().enumerate() {
            out.push_str(&format!(
                "{:3}{:6}:{}{:6}:{}      [{file}]\n",
                i + 1,
                gf,
                ga,
                pf,
                pa
            ));
        }
        out.push_str(title);
        out.push('\n');
        let n = f64::from(self.games.max(1));
        for (heading, dist) in [
            ("Left Team Goals Distribution:", &self.distributions[0]),
            ("Right Team Goals Distribution:", &self.distributions[1]),
            ("Diff Goals Distribution:", &self.distributions[2]),
        ] {
            out.push('\n');
            out.push_str(heading);
            out.push('\n');
            for (v, c) in dist {
                let pct = f64::from(*c) / n;
                let bar = "#".repeat((33.0 * pct) as usize);
                out.push_str(&format!(
                    "`{:4}:{:6} [{bar:<33}] {:>6}\n",
                    v,
                    c,
                    format!("{:.2}%", pct * 100.0)
                ));
            }
        }
        out.push('\n');
        let (gl, gr) = self.goals;
        let (pl, pr) = self.points;
        let diff = |a: u32, b: u32| i64::from(a) - i64::from(b);
        out.push_str(&format!("Game Count: {}\n", self.games));
        out.push_str(&format!("Goals: {gl} : {gr} (diff: {})\n", diff(gl, gr)));
        out.push_str(&format!("Points: {pl} : {pr} (diff: {})\n", diff(pl, pr)));
        let avg = |v: u32| f64::from(v) / n;
        out.push_str(&format!(
            "Avg Goals: {:.2} : {:.2} (diff: {:.2})\n",
            avg(gl),
            avg(gr),
            avg(gl) - avg(gr)
        ));
        out.push_str(&format!(
            "Avg Points: {:.2} : {:.2} (diff: {:.2})\n",
            avg(pl),
            avg(pr),
            avg(pl) - avg(pr)
        ));
        out.push_str(&format!(
            "Left Team: Win {}, Draw {}, Lost {}\n",
            self.wins, self.draws, self.losses
        ));
        out.push_str(&format!(
            "Left Team: WinRate {:.2}%, ExpectedWinRate {:.2}%\n",
            self.win_rate * 100.0,
            self.expected_win_rate * 100.0
        ));
        out.push_str(&format!(
            "Left Team: 95% Confidence Interval [{:.2}%, {:.2}%]\n",
            self.ci.lo * 100.0,
            self.ci.hi * 100.0
        ));
        if self.invalid > 0 {
            out.push_str(&format!(
                "Non Valid Game Count: {} ({:.2}%)\n",
                self.invalid,
                f64::from(self.invalid) / n * 100.0
            ));
        }
        out
    }
}
