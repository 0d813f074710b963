//! Items made in order on the calling thread, worked on by it and one other thread, and
//! their results taken back in order on the calling thread.
//!
//! The inspector's summary is a fold over a log's records that must see them in order, but
//! most of its time goes into reading lines, which need nothing but the line
//! ([`rcss_formats::log::LineBatch`]). So the calling thread reads the file, completes
//! and folds, and both threads read lines, whichever is free: a few batches are in flight
//! ([`run`]'s `window`), so memory stays that of a few batches however long the log.

use std::collections::VecDeque;
use std::sync::{Condvar, Mutex, MutexGuard, PoisonError};

/// The calling thread's part: making items and taking results, both in order.
pub trait Ordered {
    type Item: Send;
    type Done: Send;
    /// The next item, or `None` at the end.
    fn next(&mut self) -> Option<Self::Item>;
    /// The result of the next item in order; `false` stops the run (nothing more is made).
    fn take(&mut self, done: Self::Done) -> bool;
}

struct State<I, O> {
    /// Items not yet worked on, with their numbers.
    queue: VecDeque<(u64, I)>,
    /// Results from number `base` on, `None` while in work.
    done: VecDeque<Option<O>>,
    base: u64,
    /// No more items will come.
    closed: bool,
    /// The other thread panicked: no result will come from it.
    broken: bool,
}

struct Shared<I, O> {
    state: Mutex<State<I, O>>,
    /// Rung when an item is queued, a result is in, or the run ends.
    bell: Condvar,
}

impl<I, O> Shared<I, O> {
    fn lock(&self) -> MutexGuard<'_, State<I, O>> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn put(&self, seq: u64, out: O) {
        let mut s = self.lock();
        let at = (seq - s.base) as usize;
        if let Some(slot) = s.done.get_mut(at) {
            *slot = Some(out);
        }
        drop(s);
        self.bell.notify_all();
    }
}

/// Marks the run broken if the other thread unwinds, so that the calling thread stops
/// waiting for its result (the scope then passes the panic on).
struct BreakOnPanic<'a, I, O>(&'a Shared<I, O>);

impl<I, O> Drop for BreakOnPanic<'_, I, O> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            self.0.lock().broken = true;
            self.0.bell.notify_all();
        }
    }
}

/// Ends the run for the other thread when the calling thread leaves it, normally or by a
/// panic in `work` or in `main`: the scope waits for the other thread before passing a panic
/// on, so without this it would wait for items forever.
struct CloseOnDrop<'a, I, O>(&'a Shared<I, O>);

impl<I, O> Drop for CloseOnDrop<'_, I, O> {
    fn drop(&mut self) {
        let mut s = self.0.lock();
        s.closed = true;
        s.queue.clear();
        drop(s);
        self.0.bell.notify_all();
    }
}

/// Runs `main`'s items through `work` on this thread and one other, with at most `window`
/// items made and not yet taken.
pub fn run<M, W>(main: &mut M, work: W, window: usize)
where
    M: Ordered,
    W: Fn(M::Item) -> M::Done + Sync,
{
    let window = window.max(1) as u64;
    let shared = Shared {
        state: Mutex::new(State {
            queue: VecDeque::new(),
            done: VecDeque::new(),
            base: 0,
            closed: false,
            broken: false,
        }),
        bell: Condvar::new(),
    };
    std::thread::scope(|scope| {
        scope.spawn(|| {
            let _guard = BreakOnPanic(&shared);
            let mut s = shared.lock();
            loop {
                if let Some((seq, item)) = s.queue.pop_front() {
                    drop(s);
                    let out = work(item);
                    shared.put(seq, out);
                    s = shared.lock();
                } else if s.closed {
                    return;
                } else {
                    s = shared.bell.wait(s).unwrap_or_else(PoisonError::into_inner);
                }
            }
        });
        let _close = CloseOnDrop(&shared);
        let mut made: u64 = 0;
        let mut ended = false;
        loop {
            let mut s = shared.lock();
            if s.done.front().is_some_and(Option::is_some) {
                let out = s.done.pop_front().flatten();
                s.base += 1;
                drop(s);
                if let Some(out) = out {
                    if !main.take(out) {
                        break;
                    }
                }
                continue;
            }
            if !ended && made - s.base < window {
                drop(s);
                match main.next() {
                    Some(item) => {
                        let mut s = shared.lock();
                        s.queue.push_back((made, item));
                        s.done.push_back(None);
                        made += 1;
                        drop(s);
                        shared.bell.notify_all();
                    }
                    None => ended = true,
                }
                continue;
            }
            if ended && s.base == made {
                break;
            }
            if let Some((seq, item)) = s.queue.pop_front() {
                drop(s);
                let out = work(item);
                shared.put(seq, out);
                continue;
            }
            if s.broken {
                break;
            }
            drop(shared.bell.wait(s).unwrap_or_else(PoisonError::into_inner));
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Count {
        next: u64,
        end: u64,
        taken: Vec<u64>,
        stop_at: Option<u64>,
    }

    impl Ordered for Count {
        type Item = u64;
        type Done = u64;
        fn next(&mut self) -> Option<u64> {
            (self.next < self.end).then(|| {
                self.next += 1;
                self.next - 1
            })
        }
        fn take(&mut self, done: u64) -> bool {
            self.taken.push(done);
            Some(done) != self.stop_at
        }
    }

    #[test]
    fn results_come_back_in_order_whatever_takes_how_long() {
        let mut c = Count {
            next: 0,
            end: 500,
            taken: Vec::new(),
            stop_at: None,
        };
        run(
            &mut c,
            |i| {
                // Uneven work, so that the two threads finish out of order.
                let spin = (i * 7919) % 97;
                let mut x = i;
                for _ in 0..spin * 50 {
                    x = std::hint::black_box(x.wrapping_mul(31).wrapping_add(1));
                }
                std::hint::black_box(x);
                i * 2
            },
            4,
        );
        assert_eq!(c.taken, (0..500).map(|i| i * 2).collect::<Vec<_>>());
    }

    #[test]
    fn a_refused_result_stops_the_run() {
        let mut c = Count {
            next: 0,
            end: 1_000_000,
            taken: Vec::new(),
            stop_at: Some(10),
        };
        run(&mut c, |i| i, 3);
        assert_eq!(c.taken, (0..=10).collect::<Vec<_>>());
        // At most the window was made beyond what was taken.
        assert!(c.next <= 11 + 3, "made {}", c.next);
    }

    /// Whichever thread the failing item lands on, the run ends and the panic is passed on
    /// (a panic on the calling thread once left the other waiting for items forever).
    #[test]
    fn a_panic_in_work_ends_the_run_and_is_passed_on() {
        let caller = std::thread::current().id();
        for on_caller in [true, false] {
            let res = std::panic::catch_unwind(|| {
                let mut c = Count {
                    next: 0,
                    end: 10_000,
                    taken: Vec::new(),
                    stop_at: None,
                };
                run(
                    &mut c,
                    |i| {
                        let here = std::thread::current().id() == caller;
                        assert!(!(i >= 37 && here == on_caller), "bad item");
                        if i >= 37 {
                            // The other thread must get a failing item: on a loaded machine
                            // it could otherwise get none before this one has done them all.
                            std::thread::sleep(std::time::Duration::from_millis(1));
                        }
                        i
                    },
                    4,
                );
            });
            assert!(res.is_err(), "on the caller: {on_caller}");
        }
    }
}
