//! When a page that lost the relay tries again: part of the wire's contract, because the
//! relay's capacity after a restart depends on it. Every page dropped at once (the relay
//! restarted, a network blip) must not come back at once: each attempt waits a delay that
//! doubles with each failure, and a random half to full of it, so a crowd arrives spread over
//! the first delay rather than in one instant. The page and the load benches share it.

/// First reconnect delay, doubled after every failed attempt up to [`MAX_RETRY_MS`].
pub const FIRST_RETRY_MS: f64 = 500.0;
/// Longest delay between attempts.
pub const MAX_RETRY_MS: f64 = 30_000.0;

/// Milliseconds before reconnect attempt `failures` (1-based), `jitter` in 0..1.
pub fn retry_delay(failures: u32, jitter: f64) -> f64 {
    let base = FIRST_RETRY_MS * 2f64.powi(failures.saturating_sub(1).min(16) as i32);
    base.min(MAX_RETRY_MS) * (0.5 + 0.5 * jitter.clamp(0.0, 1.0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reconnect_delays_grow_spread_out_and_stay_capped() {
        assert_eq!(retry_delay(1, 1.0), FIRST_RETRY_MS);
        assert_eq!(retry_delay(1, 0.0), FIRST_RETRY_MS / 2.0);
        assert_eq!(retry_delay(3, 1.0), FIRST_RETRY_MS * 4.0);
        assert_eq!(retry_delay(40, 1.0), MAX_RETRY_MS);
        assert!(retry_delay(40, 0.0) >= MAX_RETRY_MS / 2.0);
        assert_eq!(retry_delay(1, 7.0), FIRST_RETRY_MS, "jitter clamped");
    }
}
