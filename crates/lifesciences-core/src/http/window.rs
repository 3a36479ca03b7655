//! The rate limiter: at most N requests in any window of one second (a sliding-window
//! log), so a lone call's few requests leave together while the busiest second of any run
//! never holds more than the source's rate.
//!
//! Why a sliding window and not a token bucket: an upstream that counts requests per fixed
//! one-second window (Ensembl allows 15 per second) sees at most N in each of its windows,
//! because each of them is one of ours. A token bucket with a burst of N lets 2N through
//! across a window boundary; with a burst of 1 it is safe but spaces every request, so a
//! call of four requests paid three periods of pacing for nothing.

use std::collections::VecDeque;
use std::sync::{Mutex, PoisonError};
use std::time::Duration;

use tokio::time::Instant;

/// The window, and the margin added to it: a permit is granted a little before the request
/// reaches the upstream (connection set-up, scheduling), so two permits exactly one second
/// apart could arrive a hair less apart. With the margin they stay a full second apart
/// after up to 25 ms of jitter.
const WINDOW: Duration = Duration::from_millis(1000);
const MARGIN: Duration = Duration::from_millis(25);

/// At most `allowed` permits in any window of `window`.
#[derive(Debug)]
pub(crate) struct SlidingWindow {
    allowed: usize,
    window: Duration,
    /// When each permit of the current window was granted, oldest first.
    granted: Mutex<VecDeque<Instant>>,
}

impl SlidingWindow {
    /// A limiter for `rate_per_second`: `floor(rate)` requests per second for a rate of 1
    /// or more (2.5/s allows 2 per second: never more than asked); one request per
    /// `1/rate` seconds below 1 (0.5/s allows one every 2 s).
    pub(crate) fn new(rate_per_second: f64) -> Self {
        let (allowed, window) = if rate_per_second >= 1.0 {
            // Rates are validated upstream of here (finite, positive); the cap keeps the
            // log small when a test or a benchmark turns pacing off with a huge rate.
            let allowed = rate_per_second.floor().min(100_000.0) as usize;
            (allowed.max(1), WINDOW)
        } else {
            let period = Duration::try_from_secs_f64(1.0 / rate_per_second.max(1e-6))
                .unwrap_or(Duration::from_secs(1_000_000));
            (1, period)
        };
        Self {
            allowed,
            window: window + MARGIN,
            granted: Mutex::new(VecDeque::with_capacity(allowed.min(64))),
        }
    }

    /// Take a permit at `now`, or say when the next one frees up.
    fn try_acquire(&self, now: Instant) -> Result<(), Instant> {
        let mut granted = self.granted.lock().unwrap_or_else(PoisonError::into_inner);
        while granted
            .front()
            .is_some_and(|&at| now.saturating_duration_since(at) >= self.window)
        {
            granted.pop_front();
        }
        if granted.len() < self.allowed {
            granted.push_back(now);
            return Ok(());
        }
        Err(granted.front().map_or(now, |&oldest| oldest + self.window))
    }

    /// Wait for a permit. The lock is held only to read and update the log, never across
    /// the wait.
    pub(crate) async fn acquire(&self) {
        loop {
            match self.try_acquire(Instant::now()) {
                Ok(()) => return,
                Err(free_at) => tokio::time::sleep_until(free_at).await,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test(start_paused = true)]
    async fn a_few_requests_leave_together_then_the_window_holds_the_rest() {
        let limiter = SlidingWindow::new(15.0);
        let start = Instant::now();
        let mut granted = Vec::new();
        for _ in 0..40 {
            limiter.acquire().await;
            granted.push(Instant::now() - start);
        }
        // The first fifteen leave at once.
        assert!(granted[..15].iter().all(|t| t.is_zero()), "{granted:?}");
        assert_eq!(granted[15], WINDOW + MARGIN);
        // No window of one second (plus the margin) ever holds more than fifteen.
        for (i, t) in granted.iter().enumerate() {
            let within = granted[i..]
                .iter()
                .take_while(|u| **u - *t < WINDOW + MARGIN)
                .count();
            assert!(within <= 15, "{within} permits within a second of {t:?}");
        }
    }

    #[tokio::test(start_paused = true)]
    async fn one_per_second_stays_one_per_second() {
        let limiter = SlidingWindow::new(1.0);
        let start = Instant::now();
        for i in 0..4u32 {
            limiter.acquire().await;
            assert_eq!(Instant::now() - start, (WINDOW + MARGIN) * i);
        }
    }

    #[tokio::test(start_paused = true)]
    async fn fractional_rates_never_exceed_what_was_asked() {
        let half = SlidingWindow::new(0.5);
        let start = Instant::now();
        half.acquire().await;
        half.acquire().await;
        assert_eq!(Instant::now() - start, Duration::from_secs(2) + MARGIN);

        let two_and_a_half = SlidingWindow::new(2.5);
        let start = Instant::now();
        for _ in 0..3 {
            two_and_a_half.acquire().await;
        }
        assert_eq!(Instant::now() - start, WINDOW + MARGIN);
    }
}
