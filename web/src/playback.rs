//! The clock that plays a match: on every animation frame while playing, it moves the frame on
//! screen by as many frames as the elapsed time is worth at the chosen speed, forward or
//! backward. Files and a paused live match play alike; reaching the newest frame of a live
//! match follows it again.

use crate::state::{Mode, Monitor};
use crate::timeline::{Clock, Direction, DEFAULT_STEP_MS};
use leptos::prelude::*;
use std::cell::{Cell, RefCell};
use std::rc::Rc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// Runs the clock whenever `playing` turns on. Call once from the app.
pub fn start(m: Monitor) {
    // Bumped for every start, so that a loop left from an earlier start ends itself.
    let generation = Rc::new(Cell::new(0u64));
    // `on_cleanup` wants a thread-safe closure, hence the atomic.
    let alive = Arc::new(AtomicBool::new(true));
    {
        let alive = alive.clone();
        on_cleanup(move || alive.store(false, Ordering::Relaxed));
    }
    // A speed change restarts the partial frame, so the new pace starts cleanly.
    let clock = Rc::new(RefCell::new(Clock::default()));
    Effect::new(move |_| {
        if !m.playing.get() {
            return;
        }
        let run = generation.get() + 1;
        generation.set(run);
        clock.borrow_mut().reset();
        tick(
            m,
            run,
            generation.clone(),
            alive.clone(),
            clock.clone(),
            crate::source::now(),
        );
    });
}

fn tick(
    m: Monitor,
    run: u64,
    generation: Rc<Cell<u64>>,
    alive: Arc<AtomicBool>,
    clock: Rc<RefCell<Clock>>,
    last: f64,
) {
    request_animation_frame(move || {
        if !alive.load(Ordering::Relaxed) || generation.get() != run || !m.playing.get_untracked() {
            return;
        }
        let now = crate::source::now();
        let speed = m.settings.with_untracked(|s| s.playback.speed);
        let step_ms = m
            .server_param("sim_step")
            .filter(|s| *s > 0.0)
            .unwrap_or(DEFAULT_STEP_MS);
        let n = clock.borrow_mut().advance(now - last, speed, step_ms);
        if n > 0 {
            advance(m, n);
        }
        tick(m, run, generation, alive, clock, now);
    });
}

/// Moves `n` frames in the playing direction, stopping at either end (or waiting there for
/// more while a log is still loading, and following a live match at its newest frame).
fn advance(m: Monitor, n: usize) {
    let count = m.count.get_untracked();
    if count == 0 {
        return;
    }
    let i = m.index.get_untracked();
    match m.direction.get_untracked() {
        Direction::Forward => {
            let last = count - 1;
            let next = i.saturating_add(n).min(last);
            if next != i {
                m.index.set(next);
            }
            if next == last && !m.loading.get_untracked() {
                m.playing.set(false);
                if m.mode.get_untracked() == Mode::Live {
                    m.follow.set(true);
                }
            }
        }
        Direction::Backward => {
            let next = i.saturating_sub(n);
            if next != i {
                m.index.set(next);
            }
            if next == 0 {
                m.playing.set(false);
            }
        }
    }
}
