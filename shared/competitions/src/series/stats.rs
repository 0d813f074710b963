//! The statistics a series needs, written out here rather than taken from a crate: a handful
//! of textbook formulas (each named where it is defined), small enough to check by hand and to
//! build for wasm32 with the rest of the library.
//!
//! Every interval is two-sided at 95 %.

/// The normal quantile of 0.975: a 95 % two-sided interval is ± this many standard errors.
pub const Z95: f64 = 1.959_963_984_540_054;
/// The normal quantile of 0.8: the power the "games needed" estimates are made for.
const Z80: f64 = 0.841_621_233_572_914_3;

/// A 95 % interval `[lo, hi]`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Interval {
    pub lo: f64,
    pub hi: f64,
}

impl Interval {
    pub fn contains(&self, v: f64) -> bool {
        self.lo <= v && v <= self.hi
    }
}

/// Wilson's score interval for a proportion `k / n`. Chosen over the normal ("Wald")
/// interval autotest2d prints because it stays inside [0, 1] and keeps close to its 95 %
/// coverage with few games and rates near 0 or 1, where Wald's collapses to a point (0 wins
/// of 10 gives Wald [0, 0], Wilson [0, 0.28]). `None` without games.
pub fn wilson(k: u32, n: u32) -> Option<Interval> {
    if n == 0 {
        return None;
    }
    let (k, n) = (f64::from(k), f64::from(n));
    let p = k / n;
    let z2 = Z95 * Z95;
    let denom = 1.0 + z2 / n;
    let centre = (p + z2 / (2.0 * n)) / denom;
    let half = Z95 / denom * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    Some(Interval {
        lo: (centre - half).max(0.0),
        hi: (centre + half).min(1.0),
    })
}

/// The normal-approximation ("Wald") interval autotest2d's `process.py` prints for a win
/// rate: `p ± 1.96 · sqrt(p (1 − p) / n)`, clamped to [0, 1]. Kept to give its figures.
pub fn wald(k: u32, n: u32) -> Option<Interval> {
    if n == 0 {
        return None;
    }
    let p = f64::from(k) / f64::from(n);
    let half = 1.96 * (p * (1.0 - p)).sqrt() / f64::from(n).sqrt();
    Some(Interval {
        lo: (p - half).max(0.0),
        hi: (p + half).min(1.0),
    })
}

/// A sample's mean with its 95 % interval from Student's t (the per-match figures are counts
/// of a few dozen games, so the normal quantile would be too narrow).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Mean {
    pub n: usize,
    pub mean: f64,
    /// The sample standard deviation (n − 1 in the denominator); 0 for one value.
    pub sd: f64,
    /// `None` with fewer than two values: one game says nothing of the spread.
    pub ci: Option<Interval>,
}

impl Mean {
    pub fn of(values: &[f64]) -> Option<Mean> {
        let n = values.len();
        if n == 0 {
            return None;
        }
        let mean = values.iter().sum::<f64>() / n as f64;
        let var = if n > 1 {
            values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1) as f64
        } else {
            0.0
        };
        let sd = var.sqrt();
        let ci = (n > 1).then(|| {
            let half = t_quantile_975((n - 1) as f64) * sd / (n as f64).sqrt();
            Interval {
                lo: mean - half,
                hi: mean + half,
            }
        });
        Some(Mean { n, mean, sd, ci })
    }

    /// The interval cut to what the figure can be (`lo..=hi`): a t interval is symmetric, so
    /// over a few games of a count near 0, a share near 1 or points near 3 it runs past
    /// what any game can give (possession of 108 %, a negative number of shots).
    pub fn within(mut self, lo: f64, hi: f64) -> Mean {
        if let Some(ci) = &mut self.ci {
            ci.lo = ci.lo.clamp(lo, hi);
            ci.hi = ci.hi.clamp(lo, hi);
        }
        self
    }
}

/// A difference of two series (the first minus the second) with its 95 % interval and the
/// two-sided p-value of "no difference".
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Difference {
    pub estimate: f64,
    pub ci: Interval,
    pub p_value: f64,
}

/// The difference of two win rates `k1/n1 − k2/n2`: Newcombe's hybrid score interval (his
/// method 10, built from the two Wilson intervals), which keeps its coverage with few games
/// where the Wald difference does not, and the pooled two-proportion z-test's p-value.
pub fn proportions_difference(k1: u32, n1: u32, k2: u32, n2: u32) -> Option<Difference> {
    let (w1, w2) = (wilson(k1, n1)?, wilson(k2, n2)?);
    let p1 = f64::from(k1) / f64::from(n1);
    let p2 = f64::from(k2) / f64::from(n2);
    let d = p1 - p2;
    let lo = d - ((p1 - w1.lo).powi(2) + (w2.hi - p2).powi(2)).sqrt();
    let hi = d + ((w1.hi - p1).powi(2) + (p2 - w2.lo).powi(2)).sqrt();
    let pooled = f64::from(k1 + k2) / f64::from(n1 + n2);
    let se = (pooled * (1.0 - pooled) * (1.0 / f64::from(n1) + 1.0 / f64::from(n2))).sqrt();
    let p_value = if se > 0.0 {
        2.0 * (1.0 - normal_cdf((d / se).abs()))
    } else if d == 0.0 {
        1.0
    } else {
        0.0
    };
    Some(Difference {
        estimate: d,
        ci: Interval { lo, hi },
        p_value: p_value.clamp(0.0, 1.0),
    })
}

/// The difference of two means by Welch's t-test, which does not assume the two series
/// spread alike (a stronger team's goal difference usually spreads wider). `None` unless each
/// side has two values.
pub fn means_difference(a: &[f64], b: &[f64]) -> Option<Difference> {
    let (ma, mb) = (Mean::of(a)?, Mean::of(b)?);
    if ma.n < 2 || mb.n < 2 {
        return None;
    }
    let (va, vb) = (ma.sd.powi(2) / ma.n as f64, mb.sd.powi(2) / mb.n as f64);
    let d = ma.mean - mb.mean;
    let se = (va + vb).sqrt();
    if se == 0.0 {
        return Some(Difference {
            estimate: d,
            ci: Interval { lo: d, hi: d },
            p_value: if d == 0.0 { 1.0 } else { 0.0 },
        });
    }
    let df = (va + vb).powi(2) / (va.powi(2) / (ma.n - 1) as f64 + vb.powi(2) / (mb.n - 1) as f64);
    let half = t_quantile_975(df) * se;
    let t = d / se;
    Some(Difference {
        estimate: d,
        ci: Interval {
            lo: d - half,
            hi: d + half,
        },
        p_value: (2.0 * (1.0 - t_cdf(t.abs(), df))).clamp(0.0, 1.0),
    })
}

/// Games needed in each series for a two-sided 5 % test to show a difference of win rates
/// `p1 − p2` 80 % of the time (the usual sample-size formula for two proportions). `None`
/// when the rates are equal: no number of games shows a difference that is not there.
pub fn games_for_proportions(p1: f64, p2: f64) -> Option<u64> {
    let d = (p1 - p2).abs();
    if d < 1e-9 {
        return None;
    }
    let pm = (p1 + p2) / 2.0;
    let a = Z95 * (2.0 * pm * (1.0 - pm)).sqrt();
    let b = Z80 * (p1 * (1.0 - p1) + p2 * (1.0 - p2)).sqrt();
    Some(((a + b).powi(2) / (d * d)).ceil() as u64)
}

/// Games needed in each series for a two-sided 5 % test to show a difference `d` of means
/// whose values spread by `sd` in each, 80 % of the time. `None` for no difference.
pub fn games_for_means(d: f64, sd: f64) -> Option<u64> {
    if d.abs() < 1e-9 {
        return None;
    }
    Some(
        (2.0 * (Z95 + Z80).powi(2) * sd * sd / (d * d))
            .ceil()
            .max(2.0) as u64,
    )
}

/// The standard normal distribution function, from the complementary error function.
pub fn normal_cdf(x: f64) -> f64 {
    0.5 * erfc(-x / std::f64::consts::SQRT_2)
}

/// The complementary error function by its Chebyshev fit (fractional error under 1.2e-7
/// everywhere), enough for p-values printed to three places.
fn erfc(x: f64) -> f64 {
    let z = x.abs();
    let t = 1.0 / (1.0 + 0.5 * z);
    let poly = -z * z - 1.265_512_23
        + t * (1.000_023_68
            + t * (0.374_091_96
                + t * (0.096_784_18
                    + t * (-0.186_288_06
                        + t * (0.278_868_07
                            + t * (-1.135_203_98
                                + t * (1.488_515_87 + t * (-0.822_152_23 + t * 0.170_872_77))))))));
    let r = t * poly.exp();
    if x >= 0.0 {
        r
    } else {
        2.0 - r
    }
}

/// Student's t distribution function with `df` degrees of freedom (any positive real, as
/// Welch's test gives), through the regularised incomplete beta function.
pub fn t_cdf(t: f64, df: f64) -> f64 {
    let x = df / (df + t * t);
    let tail = 0.5 * incomplete_beta(df / 2.0, 0.5, x);
    if t >= 0.0 {
        1.0 - tail
    } else {
        tail
    }
}

/// The t quantile of 0.975 by bisection on [`t_cdf`]: a few dozen steps, once per interval.
pub fn t_quantile_975(df: f64) -> f64 {
    if df.is_nan() || df <= 0.0 {
        return f64::NAN;
    }
    let (mut lo, mut hi) = (0.0_f64, 1.0e3_f64);
    for _ in 0..100 {
        let mid = (lo + hi) / 2.0;
        if t_cdf(mid, df) < 0.975 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    (lo + hi) / 2.0
}

/// The natural log of the gamma function (Lanczos' approximation, g = 7, nine terms; relative
/// error about 1e-15 for positive arguments).
fn ln_gamma(x: f64) -> f64 {
    const G: [f64; 9] = [
        0.999_999_999_999_809_9,
        676.520_368_121_885_1,
        -1_259.139_216_722_402_8,
        771.323_428_777_653_1,
        -176.615_029_162_140_6,
        12.507_343_278_686_905,
        -0.138_571_095_265_720_12,
        9.984_369_578_019_572e-6,
        1.505_632_735_149_311_6e-7,
    ];
    if x < 0.5 {
        // Reflection, for the half-integer arguments of t with one degree of freedom.
        let pi = std::f64::consts::PI;
        return (pi / (pi * x).sin()).ln() - ln_gamma(1.0 - x);
    }
    let x = x - 1.0;
    let mut a = G[0];
    let t = x + 7.5;
    for (i, g) in G.iter().enumerate().skip(1) {
        a += g / (x + i as f64);
    }
    0.5 * (2.0 * std::f64::consts::PI).ln() + (x + 0.5) * t.ln() - t + a.ln()
}

/// The regularised incomplete beta function `I_x(a, b)`, by its continued fraction evaluated
/// with Lentz's method, on whichever side of the mean converges fast.
fn incomplete_beta(a: f64, b: f64, x: f64) -> f64 {
    if x <= 0.0 {
        return 0.0;
    }
    if x >= 1.0 {
        return 1.0;
    }
    let front =
        (ln_gamma(a + b) - ln_gamma(a) - ln_gamma(b) + a * x.ln() + b * (1.0 - x).ln()).exp();
    if x < (a + 1.0) / (a + b + 2.0) {
        front * beta_fraction(a, b, x) / a
    } else {
        1.0 - front * beta_fraction(b, a, 1.0 - x) / b
    }
}

fn beta_fraction(a: f64, b: f64, x: f64) -> f64 {
    const TINY: f64 = 1e-300;
    let mut c = 1.0;
    let mut d = 1.0 - (a + b) * x / (a + 1.0);
    if d.abs() < TINY {
        d = TINY;
    }
    d = 1.0 / d;
    let mut h = d;
    for m in 1..300 {
        let m = f64::from(m);
        let m2 = 2.0 * m;
        // The even step.
        let num = m * (b - m) * x / ((a + m2 - 1.0) * (a + m2));
        d = 1.0 + num * d;
        d = if d.abs() < TINY { TINY } else { d };
        c = 1.0 + num / c;
        c = if c.abs() < TINY { TINY } else { c };
        d = 1.0 / d;
        h *= d * c;
        // The odd step.
        let num = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1.0));
        d = 1.0 + num * d;
        d = if d.abs() < TINY { TINY } else { d };
        c = 1.0 + num / c;
        c = if c.abs() < TINY { TINY } else { c };
        d = 1.0 / d;
        let step = d * c;
        h *= step;
        if (step - 1.0).abs() < 1e-14 {
            break;
        }
    }
    h
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Three games of possession 0.31, 0.95 and 0.27 (a lopsided one among them): the t
    /// interval runs past 100 %, and the figure's interval stops at what a game can give.
    #[test]
    fn an_interval_stops_at_what_the_figure_can_be() {
        let m = Mean::of(&[0.31, 0.95, 0.27]).expect("three values");
        let raw = m.ci.expect("an interval");
        assert!(raw.hi > 1.0 && raw.lo < 0.0, "{raw:?}");
        let cut = m.within(0.0, 1.0).ci.expect("an interval");
        assert_eq!((cut.lo, cut.hi), (0.0, 1.0));
        assert_eq!(m.within(0.0, 1.0).mean, m.mean, "the mean stays");
        let shots = Mean::of(&[0.0, 0.0, 4.0])
            .expect("three values")
            .within(0.0, f64::INFINITY);
        let ci = shots.ci.expect("an interval");
        assert_eq!(ci.lo, 0.0);
        assert!(ci.hi > 4.0, "{ci:?}");
    }

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol
    }

    #[test]
    fn wilson_matches_published_values() {
        // Newcombe (1998), table I: 81/263 → 0.2553–0.3662; 15/148 → 0.0624–0.1605;
        // 0/20 → 0–0.1611; 1/29 → 0.0061–0.1718.
        for (k, n, lo, hi) in [
            (81, 263, 0.2553, 0.3662),
            (15, 148, 0.0624, 0.1605),
            (0, 20, 0.0, 0.1611),
            (1, 29, 0.0061, 0.1718),
        ] {
            let w = wilson(k, n).unwrap();
            assert!(
                close(w.lo, lo, 6e-5) && close(w.hi, hi, 6e-5),
                "{k}/{n}: {w:?}"
            );
        }
        assert_eq!(wilson(3, 0), None);
    }

    #[test]
    fn wald_is_the_interval_process_py_prints() {
        // autotest2d's process.py on 4 wins of 6: [28.95%, 100.00%].
        let w = wald(4, 6).unwrap();
        assert!(close(w.lo, 0.2895, 5e-5) && w.hi == 1.0, "{w:?}");
    }

    #[test]
    fn newcombe_matches_his_worked_example() {
        // Newcombe (1998), two independent proportions, method 10: 56/70 − 48/80 = 0.2,
        // interval 0.0524 to 0.3339.
        let d = proportions_difference(56, 70, 48, 80).unwrap();
        assert!(close(d.estimate, 0.2, 1e-12));
        assert!(
            close(d.ci.lo, 0.0524, 6e-5) && close(d.ci.hi, 0.3339, 6e-5),
            "{d:?}"
        );
        // The pooled z-test: pooled rate 104/150, se 0.07547, z = 2.650 → p = 0.00805.
        assert!(close(d.p_value, 0.00805, 5e-5), "{}", d.p_value);
    }

    #[test]
    fn t_distribution_matches_tables() {
        for (df, q) in [
            (1.0, 12.7062),
            (2.0, 4.3027),
            (5.0, 2.5706),
            (10.0, 2.2281),
            (30.0, 2.0423),
            (1000.0, 1.9623),
        ] {
            assert!(
                close(t_quantile_975(df), q, 5e-4),
                "df {df}: {}",
                t_quantile_975(df)
            );
        }
        assert!(close(t_cdf(0.0, 7.0), 0.5, 1e-12));
        assert!(close(t_cdf(-2.3646, 7.0), 0.025, 1e-4));
        assert!(close(normal_cdf(1.959_964), 0.975, 1e-7));
        assert!(close(normal_cdf(-1.0), 0.158_655_25, 1e-7));
    }

    #[test]
    fn welch_matches_a_hand_computed_example() {
        // a: mean 2, sd 1 (n 5); b: mean 1, sd sqrt(0.5) (n 4).
        let a = [1.0, 2.0, 3.0, 2.0, 2.0];
        let b = [1.0, 0.0, 2.0, 1.0];
        let d = means_difference(&a, &b).unwrap();
        // se² = 0.5/5 + 0.6667/4 = 0.26667; t = 1.9365; df = 0.26667² /
        // (0.1²/4 + 0.16667²/3) = 6.047; two-sided p = 0.1006 (t tables: 1.943 at
        // p = 0.10 with 6 degrees of freedom).
        assert!(close(d.estimate, 1.0, 1e-12));
        assert!(close(d.p_value, 0.1006, 5e-4), "{d:?}");
        let half = d.ci.hi - d.estimate;
        assert!(close(half, 2.4436 * 0.26667_f64.sqrt(), 5e-3), "{half}");
        assert_eq!(means_difference(&a, &[1.0]), None);
    }

    #[test]
    fn means_have_t_intervals() {
        let m = Mean::of(&[1.0, 2.0, 3.0, 4.0]).unwrap();
        assert_eq!(m.mean, 2.5);
        let ci = m.ci.unwrap();
        // sd 1.2910, se 0.6455, t(3) 3.1824.
        assert!(close(ci.hi - 2.5, 3.1824 * 0.645_497, 1e-3), "{ci:?}");
        assert_eq!(Mean::of(&[5.0]).unwrap().ci, None);
        assert_eq!(Mean::of(&[]), None);
    }

    #[test]
    fn games_needed_grow_as_the_difference_shrinks() {
        // 0.5 against 0.6: the textbook answer is 385 a group (Fleiss, without continuity).
        let n = games_for_proportions(0.6, 0.5).unwrap();
        assert!((380..=392).contains(&n), "{n}");
        assert!(games_for_proportions(0.55, 0.5).unwrap() > n);
        assert_eq!(games_for_proportions(0.5, 0.5), None);
        // d = sd/2: 2·(1.96+0.84)²·4 = 62.8 → 63.
        assert_eq!(games_for_means(0.5, 1.0), Some(63));
    }
}
