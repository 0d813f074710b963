//! Time in a match as a user counts it: in cycles, not frame indexes.
//!
//! A log does not hold one frame per cycle. Text logs repeat a cycle for every step of a
//! stoppage (a goal, a free kick being set up) and have no frame for cycle 0 or the half-time
//! cycle; a live match arrives frame by frame. So "cycle 2345" means the *first frame of cycle
//! 2345, or of the next cycle that exists*, and the seek slider, the cycle box, links and the
//! ±100 jumps all go through the [`CycleIndex`]. Single steps move one frame, so that every
//! stoppage step can be looked at.
//!
//! Also here, because they are pure and tested natively: the speed presets and the playback
//! [`Clock`] that turns elapsed wall time into frames.

/// First frame of every cycle, in frame order, built as frames arrive.
#[derive(Clone, Debug, Default)]
pub struct CycleIndex {
    /// `(cycle, index of its first frame)`, cycles strictly increasing.
    starts: Vec<(u32, usize)>,
    /// Frames seen so far.
    frames: usize,
}

impl CycleIndex {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn clear(&mut self) {
        self.starts.clear();
        self.frames = 0;
    }

    /// Records the next frame, which shows cycle `cycle`. A cycle lower than one already seen
    /// (a source that went back in time) is not indexed: its frames stay reachable by stepping,
    /// and lookups by cycle stay monotonic.
    pub fn push(&mut self, cycle: u32) {
        if self.starts.last().is_none_or(|&(c, _)| cycle > c) {
            self.starts.push((cycle, self.frames));
        }
        self.frames += 1;
    }

    /// Number of frames indexed.
    pub fn frames(&self) -> usize {
        self.frames
    }

    pub fn first_cycle(&self) -> Option<u32> {
        self.starts.first().map(|&(c, _)| c)
    }

    pub fn last_cycle(&self) -> Option<u32> {
        self.starts.last().map(|&(c, _)| c)
    }

    /// The first frame of `cycle`, or of the next cycle that exists; `None` when the match has
    /// not reached `cycle` yet.
    pub fn frame_at_or_after(&self, cycle: u32) -> Option<usize> {
        let i = self.starts.partition_point(|&(c, _)| c < cycle);
        self.starts.get(i).map(|&(_, f)| f)
    }

    /// The first frame of `cycle` or the next cycle that exists, else the last cycle's first
    /// frame: where a jump to `cycle` lands in what has arrived so far.
    pub fn seek_cycle(&self, cycle: u32) -> Option<usize> {
        self.frame_at_or_after(cycle)
            .or_else(|| self.starts.last().map(|&(_, f)| f))
    }

    /// The cycle frame `frame` belongs to (the last cycle starting at or before it).
    pub fn cycle_of(&self, frame: usize) -> Option<u32> {
        let i = self.starts.partition_point(|&(_, f)| f <= frame);
        i.checked_sub(1).map(|i| self.starts[i].0)
    }

    /// Where a jump of `delta` cycles from frame `frame` lands: the first frame of the target
    /// cycle (or of the next one that exists), clamped to the match.
    pub fn jump(&self, frame: usize, delta: i64) -> Option<usize> {
        let from = self.cycle_of(frame)?;
        let target = (i64::from(from) + delta).clamp(0, i64::from(u32::MAX)) as u32;
        self.seek_cycle(target)
    }

    /// The first frame of the cycle after the one frame `frame` is in, if any.
    pub fn next_cycle_start(&self, frame: usize) -> Option<usize> {
        let i = self.starts.partition_point(|&(_, f)| f <= frame);
        self.starts.get(i).map(|&(_, f)| f)
    }
}

/// Where frame `frame` of a match indexed by `old` is in the same match indexed by `new`,
/// which holds more of its frames (a live page that skipped frames, filled in from the
/// relay's history): the same step of the same cycle, or the last step of that cycle there
/// is.
pub fn same_place(old: &CycleIndex, new: &CycleIndex, frame: usize) -> usize {
    let last = new.frames().saturating_sub(1);
    let Some(cycle) = old.cycle_of(frame) else {
        return frame.min(last);
    };
    let step = frame - old.frame_at_or_after(cycle).unwrap_or(frame);
    let Some(start) = new.frame_at_or_after(cycle) else {
        return last;
    };
    let end = new.next_cycle_start(start).unwrap_or(new.frames());
    (start + step).min(end.saturating_sub(1)).min(last)
}

/// The speed presets, as multiples of the server's own pace (one cycle per `sim_step`).
pub const SPEEDS: [f64; 7] = [0.25, 0.5, 1.0, 2.0, 4.0, 8.0, 16.0];

/// Index of 1× in [`SPEEDS`].
pub const NORMAL_SPEED: usize = 2;

/// How a speed reads on screen: "0.25×", "1×", "16×".
pub fn speed_label(speed: f64) -> String {
    format!("{speed}×")
}

/// The preset at `index`, clamped to the table.
pub fn speed_at(index: usize) -> f64 {
    SPEEDS[index.min(SPEEDS.len() - 1)]
}

/// Which way playback runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Direction {
    #[default]
    Forward,
    Backward,
}

impl Direction {
    pub fn sign(self) -> i64 {
        match self {
            Direction::Forward => 1,
            Direction::Backward => -1,
        }
    }
}

/// The server's cycle length when a match does not say (rcssserver's `sim_step`).
pub const DEFAULT_STEP_MS: f64 = 100.0;

/// Longest wall-clock gap one tick may account for: a tab that was hidden or a long parse must
/// not make playback leap ahead when it gets the thread back.
const MAX_TICK_MS: f64 = 250.0;

/// Turns wall time into frames to advance: each frame lasts `step_ms / speed`. The fraction of
/// a frame left over carries to the next tick, so 0.25× and 16× both keep their exact pace
/// whatever the display's refresh rate.
#[derive(Clone, Copy, Debug, Default)]
pub struct Clock {
    carry: f64,
}

impl Clock {
    /// Forgets the partial frame (after a pause, a seek or a speed change).
    pub fn reset(&mut self) {
        self.carry = 0.0;
    }

    /// Frames to advance after `elapsed_ms` of wall time.
    pub fn advance(&mut self, elapsed_ms: f64, speed: f64, step_ms: f64) -> usize {
        if !(elapsed_ms > 0.0 && speed > 0.0 && step_ms > 0.0) {
            return 0;
        }
        self.carry += elapsed_ms.min(MAX_TICK_MS) * speed / step_ms;
        let whole = self.carry.floor();
        self.carry -= whole;
        whole as usize
    }

    /// How far into the next frame playback is, 0..1 (for drawing between two frames).
    pub fn phase(&self) -> f64 {
        self.carry
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rcss_formats::parse_log;

    fn index_of(times: &[u32]) -> CycleIndex {
        let mut ix = CycleIndex::new();
        for &t in times {
            ix.push(t);
        }
        ix
    }

    #[test]
    fn a_frame_keeps_its_place_when_skipped_frames_are_filled_in() {
        // Live, the page skipped cycles 3-4 and a step of cycle 6's stoppage.
        let old = index_of(&[1, 2, 5, 6, 6, 7]);
        let new = index_of(&[1, 2, 3, 4, 5, 6, 6, 6, 7]);
        assert_eq!(same_place(&old, &new, 0), 0);
        assert_eq!(same_place(&old, &new, 2), 4, "cycle 5");
        assert_eq!(same_place(&old, &new, 3), 5, "cycle 6, first step");
        assert_eq!(same_place(&old, &new, 4), 6, "cycle 6, second step");
        assert_eq!(same_place(&old, &new, 5), 8, "cycle 7");
        // A place past what the fuller match holds stays within it.
        let short = index_of(&[1, 2]);
        assert_eq!(same_place(&old, &short, 5), 1);
        // More steps in the old than in the new: the cycle's last step.
        let fewer = index_of(&[1, 2, 5, 6, 7]);
        assert_eq!(same_place(&old, &fewer, 4), 3);
    }

    #[test]
    fn cycles_with_stoppage_repeats_and_gaps() {
        // 1 2 2 2 3 | 5 (4 missing, as the half-time cycle is in a text log)
        let ix = index_of(&[1, 2, 2, 2, 3, 5, 5, 6]);
        assert_eq!(ix.frames(), 8);
        assert_eq!(ix.frame_at_or_after(0), Some(0));
        assert_eq!(ix.frame_at_or_after(2), Some(1));
        assert_eq!(
            ix.frame_at_or_after(4),
            Some(5),
            "a missing cycle goes to the next"
        );
        assert_eq!(ix.frame_at_or_after(7), None, "not reached yet");
        assert_eq!(ix.seek_cycle(700), Some(7));
        assert_eq!(ix.cycle_of(3), Some(2));
        assert_eq!(ix.cycle_of(6), Some(5));
        assert_eq!(ix.cycle_of(99), Some(6));
        assert_eq!(ix.jump(0, 1), Some(1));
        assert_eq!(ix.jump(3, 2), Some(5), "2 + 2 = 4 does not exist: 5");
        assert_eq!(ix.jump(7, -100), Some(0));
        assert_eq!(ix.jump(0, 100), Some(7));
        assert_eq!(ix.next_cycle_start(2), Some(4));
        assert_eq!(ix.next_cycle_start(7), None);
        assert_eq!((ix.first_cycle(), ix.last_cycle()), (Some(1), Some(6)));
    }

    #[test]
    fn a_source_going_back_in_time_keeps_lookups_monotonic() {
        let ix = index_of(&[10, 11, 3, 12]);
        assert_eq!(ix.frame_at_or_after(5), Some(0));
        assert_eq!(ix.frame_at_or_after(12), Some(3));
        assert_eq!(ix.cycle_of(2), Some(11));
    }

    #[test]
    fn full_game_cycles_land_on_their_first_frame() {
        let gz = std::fs::read(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../tests/fixtures/logs/full-v6-realtime/20261122131124-HELIOS_L_2-vs-HELIOS_R_3.rcg.gz"
        ))
        .unwrap();
        let game = parse_log(&gz);
        let ix = index_of(&game.frames.iter().map(|f| f.time).collect::<Vec<_>>());
        assert_eq!(ix.frames(), 6489);
        assert_eq!((ix.first_cycle(), ix.last_cycle()), (Some(1), Some(6000)));
        for cycle in [1, 272, 1863, 2345, 3166, 3456, 4871, 6000] {
            let f = ix.frame_at_or_after(cycle).unwrap();
            assert_eq!(game.frames[f].time, cycle);
            assert!(
                f == 0 || game.frames[f - 1].time < cycle,
                "first frame of {cycle}"
            );
        }
        // No cycle 0 and no half-time frame: the next cycle that exists.
        assert_eq!(game.frames[ix.frame_at_or_after(0).unwrap()].time, 1);
        assert_eq!(game.frames[ix.frame_at_or_after(3000).unwrap()].time, 3001);
        // A goal's stoppage repeats cycle 272: stepping a cycle from inside it leaves it.
        let goal = ix.frame_at_or_after(272).unwrap();
        assert_eq!(game.frames[goal + 1].time, 272);
        let after = ix.jump(goal + 1, 1).unwrap();
        assert_eq!(game.frames[after].time, 273);
    }

    #[test]
    fn clock_keeps_the_pace_of_every_preset() {
        for &speed in &SPEEDS {
            let mut clock = Clock::default();
            // Ten seconds of 60 Hz ticks.
            let frames: usize = (0..600)
                .map(|_| clock.advance(1000.0 / 60.0, speed, DEFAULT_STEP_MS))
                .sum();
            let expected = 100.0 * speed;
            assert!(
                (frames as f64 - expected).abs() <= 1.0,
                "{speed}×: {frames} frames in 10 s, want {expected}"
            );
        }
        let mut clock = Clock::default();
        assert_eq!(
            clock.advance(5_000.0, 1.0, 100.0),
            2,
            "a long gap is capped"
        );
        assert_eq!(clock.advance(-1.0, 1.0, 100.0), 0);
        assert_eq!(clock.advance(10.0, 1.0, 0.0), 0);
    }

    #[test]
    fn speed_presets_read_as_users_write_them() {
        assert_eq!(
            SPEEDS.map(speed_label).join(" "),
            "0.25× 0.5× 1× 2× 4× 8× 16×"
        );
        assert_eq!(speed_at(NORMAL_SPEED), 1.0);
        assert_eq!(speed_at(99), 16.0);
    }
}
