//! The match clock of a broadcast: a simulated half of `half_time` cycles (3000 by default)
//! shown as 45 minutes, an extra-time half as 15, so that a viewer who knows football reads
//! "67:30" at cycle 4500. rcssserver ends every half at its last cycle, so there is no added
//! time to show; the stoppage count some shows carry (`stime`) counts steps within one
//! stopped cycle, not time added to a half, and is not shown.

use rcss_formats::params::ServerParams;
use std::fmt;

/// Which part of the match a cycle belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Period {
    /// A normal half, from 1.
    Half(u32),
    /// An extra-time half, from 1.
    Extra(u32),
    /// After the last half: a penalty shoot-out, or time over.
    After,
}

/// The clock at one cycle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clock {
    pub period: Period,
    /// Seconds of a 90-minute match (105 and 120 at the ends of extra time).
    pub seconds: u32,
}

const HALF_SECONDS: u32 = 45 * 60;
const EXTRA_SECONDS: u32 = 15 * 60;

/// The clock at `cycle`.
pub fn clock(cycle: u32, params: &ServerParams) -> Clock {
    let half = if params.half_time_cycles == 0 {
        3000
    } else {
        params.half_time_cycles
    };
    let extra = if params.extra_half_time_cycles == 0 {
        1000
    } else {
        params.extra_half_time_cycles
    };
    let normal = params.nr_normal_halfs.max(1);
    let scale = |cycles: u64, per: u32, seconds: u32| {
        u32::try_from(cycles * u64::from(seconds) / u64::from(per)).unwrap_or(u32::MAX)
    };
    let normal_end = u64::from(half) * u64::from(normal);
    let extra_end = normal_end + u64::from(extra) * u64::from(params.nr_extra_halfs);
    let c = u64::from(cycle);
    let (period, seconds) = if c <= normal_end {
        // The last cycle of a half belongs to it: cycle 3000 reads 45:00, not 45:00 of the
        // second half.
        let k = (c.saturating_sub(1) / u64::from(half)).min(u64::from(normal) - 1);
        let k = u32::try_from(k).unwrap_or(0);
        (Period::Half(k + 1), scale(c, half, HALF_SECONDS))
    } else if c <= extra_end {
        let into = c - normal_end;
        let k = u32::try_from((into - 1) / u64::from(extra)).unwrap_or(0);
        (
            Period::Extra(k + 1),
            scale(normal_end, half, HALF_SECONDS) + scale(into, extra, EXTRA_SECONDS),
        )
    } else {
        let end = scale(normal_end, half, HALF_SECONDS)
            + scale(extra_end - normal_end, extra, EXTRA_SECONDS);
        (Period::After, end)
    };
    Clock { period, seconds }
}

impl Clock {
    /// The minute as a football reader counts them: "1'" in the first minute, "68'" at 67:30.
    pub fn minute(&self) -> String {
        let m =
            self.seconds / 60 + u32::from(!self.seconds.is_multiple_of(60) || self.seconds == 0);
        format!("{m}'")
    }
}

impl fmt::Display for Clock {
    /// `67:30`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:02}:{:02}", self.seconds / 60, self.seconds % 60)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_full_game_reads_as_ninety_minutes() {
        let mut p = ServerParams::defaults();
        p.nr_extra_halfs = 2;
        let at = |c| clock(c, &p);
        assert_eq!(at(0).to_string(), "00:00");
        assert_eq!(at(0).period, Period::Half(1));
        assert_eq!(at(1).to_string(), "00:00");
        assert_eq!(at(2).to_string(), "00:01");
        assert_eq!(at(3000).to_string(), "45:00");
        assert_eq!(at(3000).period, Period::Half(1));
        assert_eq!(at(3001).period, Period::Half(2));
        assert_eq!(at(4500).to_string(), "67:30");
        assert_eq!(at(4500).minute(), "68'");
        assert_eq!(at(6000).to_string(), "90:00");
        assert_eq!(at(6000).minute(), "90'");
        assert_eq!(at(6001).period, Period::Extra(1));
        assert_eq!(at(7000).to_string(), "105:00");
        assert_eq!(at(8000).to_string(), "120:00");
        assert_eq!(at(8001).period, Period::After);
        assert_eq!(
            at(9999).to_string(),
            "120:00",
            "the clock stops for a shoot-out"
        );
    }

    #[test]
    fn shorter_halves_and_no_extra_time() {
        let mut p = ServerParams::defaults();
        p.half_time_cycles = 300;
        assert_eq!(clock(150, &p).to_string(), "22:30");
        assert_eq!(clock(600, &p).to_string(), "90:00");
        assert_eq!(clock(601, &p).period, Period::After);
        p.half_time_cycles = 0;
        assert_eq!(
            clock(3000, &p).to_string(),
            "45:00",
            "a zero half is the default"
        );
    }
}
