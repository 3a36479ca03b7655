//! The rate limiter: at most N requests in any window of one second (a sliding-window
//! log), so a lone call's few requests leave together while the busiest second of any run
//! never holds more than the source's rate.
//!
//! Why a sliding window and not a token bucket: an upstream that counts requests per fixed
//! one-second window (Ensembl allows 15 per second) sees at most N in each of its windows,
//! because each of them is one of ours. A token bucket with a burst of N lets 2N through
//! across a window boundary; with a burst of 1 it is safe but spaces every request, so a
//! call of four requests paid three periods of pacing for nothing.

use std::sync::{Mutex, PoisonError};
use std::time::Duration;

use tokio::sync::Notify;
use tokio::time::Instant;

/// The window, and the margin added to it: the upstream's clock and ours disagree by a
/// few milliseconds of network and scheduling, so two requests counted exactly one second
/// apart here might land in one second there. With the margin they stay a full second
/// apart after up to 25 ms of jitter.
pub(crate) const WINDOW: Duration = Duration::from_millis(1000);
pub(crate) const MARGIN: Duration = Duration::from_millis(25);

/// At most `allowed` requests counted in any window of `window`. A request counts from
/// the moment its permit is granted until one window after its answer came back: the
/// upstream counts it when it arrives, which is somewhere in between, however late a
/// starved process or a slow connection makes it leave. (Counting from the grant alone
/// let a request granted early and sent late land in the same upstream second as the next
/// window's requests.)
#[derive(Debug)]
pub(crate) struct SlidingWindow {
    allowed: usize,
    window: Duration,
    state: Mutex<State>,
    /// Woken when a request is answered: a permit may have freed up.
    answered: Notify,
}

#[derive(Debug, Default)]
struct State {
    next: u64,
    /// Requests that still count: in flight (`None`), or answered at that instant.
    counted: Vec<(u64, Option<Instant>)>,
}

/// A granted permit. Say when the request's answer came back with
/// [`answered`](Ticket::answered); dropping the ticket says it too (a failed or
/// cancelled request).
#[derive(Debug)]
pub(crate) struct Ticket<'a> {
    limiter: &'a SlidingWindow,
    id: u64,
}

impl Ticket<'_> {
    /// The answer came back now: the request counts for one more window.
    #[cfg(test)]
    pub(crate) fn answered(self) {}
}

impl Drop for Ticket<'_> {
    fn drop(&mut self) {
        self.limiter.end(self.id, Instant::now());
    }
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
            state: Mutex::new(State::default()),
            answered: Notify::new(),
        }
    }

    /// Requests allowed per window, and the window (margin included).
    pub(crate) fn rule(&self) -> (usize, Duration) {
        (self.allowed, self.window)
    }

    /// The budget for one of `share` processes splitting it: `allowed / share` per window.
    /// Below one per window (STRING's one request per second shared by three replicas)
    /// a sliding window cannot split it: each process would send one every few seconds,
    /// and three of them could still meet in one second. The whole window applies then,
    /// and the caller keeps to its own slots of the wall clock (`shared.rs`).
    fn shared_rule(&self, share: usize) -> (usize, Duration) {
        let share = share.max(1);
        if self.allowed >= share {
            (self.allowed / share, self.window)
        } else {
            (self.allowed, self.window)
        }
    }

    /// Take a permit at `now` within `1/share` of the budget, or say when one may free up
    /// (`None`: only when a request in flight is answered).
    fn try_acquire(&self, now: Instant, share: usize) -> Result<u64, Option<Instant>> {
        let (allowed, window) = self.shared_rule(share);
        let mut state = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        state.counted.retain(|(_, answered)| {
            answered.is_none_or(|at| now.saturating_duration_since(at) < window)
        });
        if state.counted.len() < allowed {
            let id = state.next;
            state.next += 1;
            state.counted.push((id, None));
            return Ok(id);
        }
        Err(state
            .counted
            .iter()
            .filter_map(|(_, answered)| answered.map(|at| at + window))
            .min())
    }

    /// Whether a permit (of the whole budget) is free right now.
    pub(crate) fn has_room(&self) -> bool {
        let now = Instant::now();
        let mut state = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        let window = self.window;
        state.counted.retain(|(_, answered)| {
            answered.is_none_or(|at| now.saturating_duration_since(at) < window)
        });
        state.counted.len() < self.allowed
    }

    fn end(&self, id: u64, now: Instant) {
        let mut state = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(entry) = state.counted.iter_mut().find(|(i, _)| *i == id) {
            entry.1 = Some(now);
        }
        drop(state);
        self.answered.notify_waiters();
    }

    /// Wait for a permit, within `1/share` of the budget (a process that shares the
    /// upstream with others while the shared store is away). The lock is held only to
    /// read and update the log, never across the wait.
    pub(crate) async fn acquire(&self, share: usize) -> Ticket<'_> {
        loop {
            let answered = self.answered.notified();
            tokio::pin!(answered);
            answered.as_mut().enable();
            match self.try_acquire(Instant::now(), share) {
                Ok(id) => return Ticket { limiter: self, id },
                Err(Some(free_at)) => {
                    tokio::select! {
                        () = tokio::time::sleep_until(free_at) => {}
                        () = &mut answered => {}
                    }
                }
                Err(None) => answered.await,
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
            limiter.acquire(1).await.answered();
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
    async fn room_is_a_free_permit_now() {
        let limiter = SlidingWindow::new(1.0);
        assert!(limiter.has_room());
        let ticket = limiter.acquire(1).await;
        assert!(!limiter.has_room(), "in flight");
        ticket.answered();
        assert!(!limiter.has_room(), "counted for a window after its answer");
        tokio::time::advance(WINDOW + MARGIN).await;
        assert!(limiter.has_room());
    }

    #[tokio::test(start_paused = true)]
    async fn one_per_second_stays_one_per_second() {
        let limiter = SlidingWindow::new(1.0);
        let start = Instant::now();
        for i in 0..4u32 {
            limiter.acquire(1).await.answered();
            assert_eq!(Instant::now() - start, (WINDOW + MARGIN) * i);
        }
    }

    #[tokio::test(start_paused = true)]
    async fn fractional_rates_never_exceed_what_was_asked() {
        let half = SlidingWindow::new(0.5);
        let start = Instant::now();
        half.acquire(1).await.answered();
        half.acquire(1).await.answered();
        assert_eq!(Instant::now() - start, Duration::from_secs(2) + MARGIN);

        let two_and_a_half = SlidingWindow::new(2.5);
        let start = Instant::now();
        for _ in 0..3 {
            two_and_a_half.acquire(1).await.answered();
        }
        assert_eq!(Instant::now() - start, WINDOW + MARGIN);
    }

    #[tokio::test(start_paused = true)]
    async fn a_request_counts_until_a_window_after_its_answer() {
        let limiter = SlidingWindow::new(1.0);
        let start = Instant::now();
        let slow = limiter.acquire(1).await;
        // Answered 3 s later (a slow upstream, or a request that left late).
        tokio::time::sleep(Duration::from_secs(3)).await;
        slow.answered();
        limiter.acquire(1).await.answered();
        assert_eq!(
            Instant::now() - start,
            Duration::from_secs(3) + WINDOW + MARGIN,
            "the next request waits a full window after the answer, not after the grant"
        );
    }

    #[tokio::test(start_paused = true)]
    async fn a_waiter_is_woken_when_a_request_in_flight_is_answered() {
        let limiter = std::sync::Arc::new(SlidingWindow::new(1.0));
        let first = limiter.acquire(1).await;
        let waiting = {
            let limiter = limiter.clone();
            tokio::spawn(async move {
                let start = Instant::now();
                limiter.acquire(1).await.answered();
                Instant::now() - start
            })
        };
        tokio::time::sleep(Duration::from_millis(200)).await;
        drop(first);
        let waited = waiting.await.unwrap();
        assert_eq!(waited, Duration::from_millis(200) + WINDOW + MARGIN);
    }

    #[tokio::test(start_paused = true)]
    async fn a_share_of_the_budget_is_a_fraction_of_the_rate() {
        let limiter = SlidingWindow::new(15.0);
        let start = Instant::now();
        for _ in 0..6 {
            limiter.acquire(3).await.answered();
        }
        // 15/s shared by 3: 5 per window, the sixth waits for the next window.
        assert_eq!(Instant::now() - start, WINDOW + MARGIN);
    }
}
