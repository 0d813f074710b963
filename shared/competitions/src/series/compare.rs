//! Two series side by side: is A better than B? The difference in win rate (Newcombe's
//! interval, the pooled z-test) and in mean goal difference (Welch's t), and one sentence that
//! says what they mean, including when there are not enough games to tell and about how many
//! would.
//!
//! Why these: a developer compares win rates of a few dozen to a few hundred games each,
//! often near 0 or 1 against a weak or strong opponent, where Newcombe's interval keeps its
//! coverage and the Wald difference does not; goal differences of two versions spread
//! differently (a stronger version wins by more, and more variably), which Welch's test allows
//! and Student's pooled test does not.

use super::stats::{
    games_for_means, games_for_proportions, means_difference, proportions_difference, Difference,
};
use super::{Outcome, Series};

/// A against B.
#[derive(Clone, Debug, PartialEq)]
pub struct Comparison {
    pub games: (u32, u32),
    pub win_rates: (f64, f64),
    /// A's win rate minus B's.
    pub win_rate: Option<Difference>,
    /// A's mean goal difference minus B's.
    pub goal_difference: Option<Difference>,
    pub mean_differences: (f64, f64),
    /// Which way it came out: what a page colours the sentence by, without reading it.
    pub finding: Finding,
    /// What it means, in one sentence.
    pub verdict: String,
}

/// Which way a comparison came out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Finding {
    /// A's win rate is higher beyond chance, or, with the win rates not told apart, its goal
    /// difference is.
    Better,
    /// The same the other way: A is worse than B.
    Worse,
    /// Not told apart: too few games, or no difference found.
    Undecided,
}

impl Finding {
    /// Its name in the JSON documents: `better`, `worse` or `undecided`.
    pub fn as_str(self) -> &'static str {
        match self {
            Finding::Better => "better",
            Finding::Worse => "worse",
            Finding::Undecided => "undecided",
        }
    }
}

/// Below this p-value a difference is called real (the usual 5 %, matching the 95 %
/// intervals shown beside it).
const ALPHA: f64 = 0.05;

pub fn compare(a: &Series, b: &Series) -> Comparison {
    let (na, nb) = (a.games(), b.games());
    let (wa, wb) = (a.count(Outcome::Win), b.count(Outcome::Win));
    let rate = |w: u32, n: u32| {
        if n == 0 {
            0.0
        } else {
            f64::from(w) / f64::from(n)
        }
    };
    let win_rates = (rate(wa, na), rate(wb, nb));
    let win_rate = proportions_difference(wa, na, wb, nb);
    let (da, db) = (a.differences(), b.differences());
    let mean = |v: &[f64]| {
        if v.is_empty() {
            0.0
        } else {
            v.iter().sum::<f64>() / v.len() as f64
        }
    };
    let mean_differences = (mean(&da), mean(&db));
    let goal_difference = means_difference(&da, &db);
    let (finding, verdict) = verdict(
        (na, nb),
        win_rates,
        win_rate.as_ref(),
        goal_difference.as_ref(),
        &da,
        &db,
    );
    Comparison {
        games: (na, nb),
        win_rates,
        win_rate,
        goal_difference,
        mean_differences,
        finding,
        verdict,
    }
}

fn pct(v: f64) -> String {
    format!("{:.0} %", v * 100.0)
}

fn verdict(
    games: (u32, u32),
    rates: (f64, f64),
    win: Option<&Difference>,
    goals: Option<&Difference>,
    da: &[f64],
    db: &[f64],
) -> (Finding, String) {
    let (Some(win), Some(goals)) = (win, goals) else {
        return (
            Finding::Undecided,
            format!(
                "Not enough games to tell: A has {} and B {} valid games; each needs at least two.",
                games.0, games.1
            ),
        );
    };
    let real = |d: &Difference| d.p_value < ALPHA;
    let finding = |d: f64| {
        if d > 0.0 {
            Finding::Better
        } else {
            Finding::Worse
        }
    };
    let better = |d: f64| if d > 0.0 { "better" } else { "worse" };
    if real(win) {
        let text = format!(
            "A is {} than B: it wins {} of its games against {} (a difference of {} to {} \
             points at 95 %), and its goal difference is {:+.2} a game{}.",
            better(win.estimate),
            pct(rates.0),
            pct(rates.1),
            signed_pct(win.ci.lo),
            signed_pct(win.ci.hi),
            goals.estimate,
            if real(goals) { "" } else { " (within chance)" }
        );
        return (finding(win.estimate), text);
    }
    if real(goals) {
        let text = format!(
            "A is {}: its goal difference is {:+.2} a game against B's (between {:+.2} and \
             {:+.2} at 95 %), though its win rate ({} against {}) is not yet told apart.",
            better(goals.estimate),
            goals.estimate,
            goals.ci.lo,
            goals.ci.hi,
            pct(rates.0),
            pct(rates.1)
        );
        return (finding(goals.estimate), text);
    }
    // Neither is told apart: how many games would tell, if the differences seen are real.
    let per_series = games.0.min(games.1);
    let sd = pooled_sd(da, db);
    let need = [
        games_for_proportions(rates.0, rates.1),
        sd.and_then(|sd| games_for_means(goals.estimate, sd)),
    ]
    .into_iter()
    .flatten()
    .min();
    let text = match need {
        Some(n) if u64::from(per_series) < n => format!(
            "Not enough games to tell: A wins {} and B {} (A minus B between {} and {} \
             points at 95 %, p = {:.2}); if the difference seen is real, about {} games each would show \
             it, {} more.",
            pct(rates.0),
            pct(rates.1),
            signed_pct(win.ci.lo),
            signed_pct(win.ci.hi),
            win.p_value,
            round_up(n),
            round_up(n - u64::from(per_series))
        ),
        _ => format!(
            "No difference found: A wins {} and B {} over {} and {} games (A minus B between \
             {} and {} points at 95 %); any real difference is likely smaller than that.",
            pct(rates.0),
            pct(rates.1),
            games.0,
            games.1,
            signed_pct(win.ci.lo),
            signed_pct(win.ci.hi)
        ),
    };
    (Finding::Undecided, text)
}

fn signed_pct(v: f64) -> String {
    format!("{:+.0}", v * 100.0)
}

/// Rounds a count of games up to two significant figures: an estimate, not a promise.
fn round_up(n: u64) -> u64 {
    if n < 100 {
        return n;
    }
    let mag = 10u64.pow((n as f64).log10().floor() as u32 - 1);
    n.div_ceil(mag) * mag
}

fn pooled_sd(a: &[f64], b: &[f64]) -> Option<f64> {
    let m = |v: &[f64]| super::stats::Mean::of(v);
    let (ma, mb) = (m(a)?, m(b)?);
    Some(((ma.sd.powi(2) + mb.sd.powi(2)) / 2.0).sqrt()).filter(|s| *s > 0.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::series::{Figures, Game};

    fn games(results: &[(u32, u32)]) -> Vec<Game> {
        results
            .iter()
            .enumerate()
            .map(|(i, &(l, r))| Game {
                name: format!("g{i}"),
                teams: ["A".into(), "B".into()],
                score: [l, r],
                shootout: None,
                first_goal: None,
                cycles: 6000,
                figures: [Figures::default(); 2],
                invalid: vec![],
            })
            .collect()
    }

    #[test]
    fn a_clear_difference_is_called_and_a_small_one_asks_for_games() {
        let strong = games(
            &[
                (3, 0),
                (2, 0),
                (2, 1),
                (4, 1),
                (1, 0),
                (2, 0),
                (3, 1),
                (2, 2),
            ]
            .repeat(5),
        );
        let weak = games(
            &[
                (0, 1),
                (1, 1),
                (0, 2),
                (1, 0),
                (0, 0),
                (0, 3),
                (1, 2),
                (0, 1),
            ]
            .repeat(5),
        );
        let c = compare(&Series::new(&strong, None), &Series::new(&weak, None));
        assert!(c.win_rate.unwrap().p_value < 0.001);
        assert!(c.verdict.starts_with("A is better than B"), "{}", c.verdict);
        assert_eq!(c.finding, Finding::Better);
        let c = compare(&Series::new(&weak, None), &Series::new(&strong, None));
        assert!(c.verdict.starts_with("A is worse than B"), "{}", c.verdict);
        assert_eq!(c.finding, Finding::Worse);

        let a = games(&[(1, 0), (0, 1), (1, 1), (2, 1), (0, 0)]);
        let b = games(&[(0, 1), (1, 0), (1, 1), (1, 1), (0, 1)]);
        let c = compare(&Series::new(&a, None), &Series::new(&b, None));
        assert!(
            c.verdict.starts_with("Not enough games to tell"),
            "{}",
            c.verdict
        );
        assert!(
            c.verdict.contains("games each would show it"),
            "{}",
            c.verdict
        );
        assert_eq!(c.finding, Finding::Undecided);

        let one = games(&[(1, 0)]);
        let c = compare(&Series::new(&one, None), &Series::new(&b, None));
        assert!(
            c.verdict.contains("each needs at least two"),
            "{}",
            c.verdict
        );
        assert_eq!(c.finding, Finding::Undecided);
    }

    #[test]
    fn counts_are_rounded_to_two_figures() {
        assert_eq!(round_up(63), 63);
        assert_eq!(round_up(385), 390);
        assert_eq!(round_up(1201), 1300);
    }
}
