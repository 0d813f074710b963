//! Which opening of a log is the current one. Each opening takes the next number; a run
//! that sees a newer number stops, so a file dropped while a large one is still being parsed
//! replaces it instead of mixing with it, and the live feed coming back stops them all.

use std::cell::Cell;

thread_local! {
    static OPENED: Cell<u64> = const { Cell::new(0) };
}

/// Starts a new opening and returns its number.
pub fn next() -> u64 {
    OPENED.with(|n| {
        n.set(n.get() + 1);
        n.get()
    })
}

/// The number of the current opening.
pub fn current() -> u64 {
    OPENED.with(Cell::get)
}

/// Stops any log still being read: nothing more of it reaches the page (the live feed is
/// coming back).
pub fn cancel() {
    next();
}
