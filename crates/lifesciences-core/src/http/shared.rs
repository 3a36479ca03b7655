//! What the HTTP client of one source shares with other processes and replicas through
//! the store ([`crate::store`]): its politeness budget and the pauses the upstream asks
//! for, its answers, and its requests in flight.
//!
//! **The budget.** A permit is taken from this process's own sliding window first (so a
//! process never asks the store for more than its own share at once), then from the
//! store's, which counts every process's requests to the upstream. A request counts from
//! its grant until one window after its answer (see `window.rs`), in both. While the store
//! is degraded the process keeps within rate/N of the budget, N the processes or replicas
//! last seen alive; on every switch between the two it first keeps quiet for one window,
//! since neither side knows what the other let out in the last one.

use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, SystemTime};

use tokio::time::Instant;

use super::window::{SlidingWindow, Ticket};
use crate::error::UpstreamFailure;
use crate::store::{Permit, Rule, Shared, Stored};

/// How often a request waiting for a permit asks the store again while the window is held
/// by requests in flight (their answers may free it any moment).
const POLL: Duration = Duration::from_millis(25);
/// How often a request waits for the answer another replica is fetching is checked.
const PEER_POLL: Duration = Duration::from_millis(50);

/// The politeness budget of one source.
pub(crate) struct Budget {
    local: SlidingWindow,
    /// The budget's key in the store: the upstream's host, port and base path, so a local
    /// mock never shares the real service's budget.
    key: String,
    /// How long a granted request may stay unanswered before the store stops counting
    /// on its answer (a process that died with it in flight).
    hold: Duration,
    store: Arc<Shared>,
    mode: Mutex<Mode>,
}

/// Whether the last permit came from the store, and until when requests keep quiet after
/// a switch.
#[derive(Debug, Default)]
struct Mode {
    shared: Option<bool>,
    quiet_until: Option<Instant>,
}

impl std::fmt::Debug for Budget {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Budget")
            .field("key", &self.key)
            .finish_non_exhaustive()
    }
}

/// A permit to send one request. Dropping it says the request's answer came back (or it
/// failed, or was cancelled): it counts for one more window from then.
pub(crate) struct Granted<'a> {
    _local: Ticket<'a>,
    shared: Option<(Arc<Shared>, String, String)>,
}

impl Drop for Granted<'_> {
    fn drop(&mut self) {
        if let Some((store, key, ticket)) = self.shared.take()
            && let Ok(runtime) = tokio::runtime::Handle::try_current()
        {
            // In a task of its own, so a cancelled call still ends its request's count.
            runtime.spawn(async move {
                store.run_if_up(|b| b.answered(&key, &ticket)).await;
            });
        }
    }
}

impl Budget {
    pub(crate) fn new(
        rate_per_second: f64,
        key: String,
        hold: Duration,
        store: Arc<Shared>,
    ) -> Self {
        Self {
            local: SlidingWindow::new(rate_per_second),
            key,
            hold,
            store,
            mode: Mutex::new(Mode::default()),
        }
    }

    /// Wait for a permit. A pause the upstream asked every client for (seen in the store)
    /// longer than `max_pause` is not waited out: the request fails at once as the answer
    /// that asked for it did.
    pub(crate) async fn permit(&self, max_pause: Duration) -> Result<Granted<'_>, UpstreamFailure> {
        loop {
            let shared = self.store.in_use();
            let share = if self.store.configured() && !shared {
                self.store.peers()
            } else {
                1
            };
            let slotted = share > 1 && self.local.rule().0 < share;
            if slotted {
                self.own_slot().await;
            }
            let local = self.local.acquire(share).await;
            if slotted && !self.in_own_slot() {
                // The local window held it past the slot: the next slot, then.
                continue;
            }
            if !shared {
                self.after_switch(false).await;
                return Ok(Granted {
                    _local: local,
                    shared: None,
                });
            }
            let (allowed, window) = self.local.rule();
            let rule = Rule {
                allowed: u32::try_from(allowed).unwrap_or(u32::MAX),
                window,
                hold: self.hold,
            };
            loop {
                match self.store.run_if_up(|b| b.permit(&self.key, rule)).await {
                    Some(Permit::Granted { ticket }) => {
                        let granted = Granted {
                            _local: local,
                            shared: Some((Arc::clone(&self.store), self.key.clone(), ticket)),
                        };
                        self.after_switch(true).await;
                        return Ok(granted);
                    }
                    // Longer than a window: a request in flight holds it; ask again soon.
                    Some(Permit::Wait(wait)) => {
                        tokio::time::sleep(if wait > window { POLL } else { wait }).await;
                    }
                    Some(Permit::Paused { left, status }) => {
                        if left > max_pause {
                            return Err(UpstreamFailure::Status {
                                status,
                                body: "not sent: the upstream asked for a pause that has not \
                                       ended"
                                    .into(),
                                retry_after: Some(left),
                            });
                        }
                        tokio::time::sleep(left).await;
                    }
                    // The store failed: start over within this process's share.
                    None => break,
                }
            }
        }
    }

    /// Wait for this process's own slot: while the store is away and the budget is
    /// smaller than the number of processes sharing it, the wall clock is cut into windows,
    /// and of every `2N` of them the process of rank `k` sends only in window `2k`; the
    /// empty window after each keeps two processes' requests a window apart at the
    /// upstream. Replicas' clocks agree to far better than a window (NTP).
    async fn own_slot(&self) {
        let wait = until_own_slot(
            SystemTime::now(),
            self.local.rule().1,
            self.store.peers(),
            self.store.rank(),
        );
        if !wait.is_zero() {
            // Sleeps are on tokio's clock, slots on the wall clock: a few milliseconds in.
            tokio::time::sleep(wait + Duration::from_millis(5)).await;
        }
    }

    fn in_own_slot(&self) -> bool {
        until_own_slot(
            SystemTime::now(),
            self.local.rule().1,
            self.store.peers(),
            self.store.rank(),
        )
        .is_zero()
    }

    /// Keep quiet for one window after switching between the store's budget and this
    /// process's own.
    async fn after_switch(&self, shared: bool) {
        let quiet_until = {
            let mut mode = self.mode.lock().unwrap_or_else(PoisonError::into_inner);
            if mode.shared.is_some_and(|was| was != shared) {
                mode.quiet_until = Some(Instant::now() + self.local.rule().1);
                tracing::info!(
                    budget = %self.key,
                    shared,
                    "switching budgets: no request for one window"
                );
            }
            mode.shared = Some(shared);
            mode.quiet_until
        };
        if let Some(until) = quiet_until {
            tokio::time::sleep_until(until).await;
        }
    }

    /// Whether a request could leave now without waiting for this process's window: a
    /// background request (the release look-up) goes only then, so it never takes a
    /// permit a call's request is about to need.
    pub(crate) fn has_room(&self) -> bool {
        self.local.has_room()
    }

    /// The budget's key: the upstream's host, port and base path.
    pub(crate) fn key(&self) -> &str {
        &self.key
    }

    /// Tell every process that the upstream asked for a pause.
    pub(crate) fn pause_everyone(&self, status: u16, wait: Duration) {
        let (store, key) = (Arc::clone(&self.store), self.key.clone());
        if store.configured()
            && let Ok(runtime) = tokio::runtime::Handle::try_current()
        {
            runtime.spawn(async move {
                store.run_if_up(|b| b.pause(&key, wait, status)).await;
            });
        }
    }
}

/// How long from `now` until the window of the wall clock that belongs to the process of
/// `rank` among `peers` (see [`Budget::own_slot`]); zero within it.
fn until_own_slot(now: SystemTime, window: Duration, peers: usize, rank: usize) -> Duration {
    let window_ms = u64::try_from(window.as_millis()).unwrap_or(u64::MAX).max(1);
    let now_ms = u64::try_from(crate::store::epoch_ms(now)).unwrap_or(0);
    let cycle = 2 * u64::try_from(peers.max(1)).unwrap_or(1);
    let own = 2 * u64::try_from(rank).unwrap_or(0) % cycle;
    let at = (now_ms / window_ms) % cycle;
    if at == own {
        return Duration::ZERO;
    }
    let windows_ahead = (own + cycle - at) % cycle;
    Duration::from_millis(windows_ahead * window_ms - now_ms % window_ms)
}

/// The answer another process or replica stored under `key`: fresh, or of any age when
/// offline.
pub(crate) async fn lookup(store: &Shared, key: &str) -> Option<Stored> {
    let stored = store.run_if_up(|b| b.get(key)).await.flatten()?;
    (store.offline() || stored.fresh_until > SystemTime::now()).then_some(stored)
}

/// Keep an answer for every process.
pub(crate) async fn keep(store: &Shared, key: &str, stored: &Stored) {
    store.run_if_up(|b| b.put(key, stored)).await;
}

/// Drop an answer that turned out unreadable.
pub(crate) async fn forget(store: &Shared, key: &str) {
    store.run_if_up(|b| b.forget(key)).await;
}

/// Who fetches an answer when several replicas want it at once.
#[derive(Debug)]
pub(crate) enum Lead {
    /// This process fetches it; give the lock back afterwards when `locked`.
    Fetch { locked: bool },
    /// Another replica fetched it meanwhile.
    Fetched(Stored),
}

/// Make identical requests in flight on several replicas one upstream request: take the
/// request's lock, or wait (at most `bound`) for the answer its holder stores. A holder
/// that fails gives the lock back (or its hold runs out), and a waiter then fetches.
pub(crate) async fn lead_or_wait(
    store: &Shared,
    key: &str,
    hold: Duration,
    bound: Duration,
) -> Lead {
    let deadline = Instant::now() + bound;
    loop {
        match store.run_if_up(|b| b.lock(key, hold)).await {
            // Another replica may have stored the answer and let go of the lock between
            // this process's look-up and its lock: look once more before asking.
            Some(true) => {
                return match lookup(store, key).await {
                    Some(stored) => {
                        unlock(store, key).await;
                        Lead::Fetched(stored)
                    }
                    None => Lead::Fetch { locked: true },
                };
            }
            None => return Lead::Fetch { locked: false },
            Some(false) => {}
        }
        if Instant::now() >= deadline {
            return Lead::Fetch { locked: false };
        }
        tokio::time::sleep(PEER_POLL).await;
        if let Some(stored) = lookup(store, key).await {
            return Lead::Fetched(stored);
        }
    }
}

/// Give back the lock taken by [`lead_or_wait`].
pub(crate) async fn unlock(store: &Shared, key: &str) {
    store.run_if_up(|b| b.unlock(key)).await;
}

/// A request's lock held by this process: given back with [`Held::release`], or, when
/// the call is cancelled first, by a task of its own, so the other replicas need not wait
/// out its hold.
#[derive(Debug)]
pub(crate) struct Held {
    lock: Option<(Arc<Shared>, String)>,
}

impl Held {
    pub(crate) fn new(store: Arc<Shared>, key: String) -> Self {
        Self {
            lock: Some((store, key)),
        }
    }

    pub(crate) async fn release(mut self) {
        if let Some((store, key)) = self.lock.take() {
            unlock(&store, &key).await;
        }
    }
}

impl Drop for Held {
    fn drop(&mut self) {
        if let Some((store, key)) = self.lock.take()
            && let Ok(runtime) = tokio::runtime::Handle::try_current()
        {
            runtime.spawn(async move { unlock(&store, &key).await });
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

    use super::*;
    use crate::store::{Backend, StoreError, StoreFuture};

    /// A store that grants everything while up, and fails every operation while down.
    #[derive(Default)]
    struct Flaky {
        down: AtomicBool,
        granted: AtomicUsize,
    }

    impl Flaky {
        fn op<T: Send + 'static>(&self, value: T) -> StoreFuture<'_, T> {
            let down = self.down.load(Ordering::SeqCst);
            Box::pin(async move {
                if down {
                    Err(StoreError("connection refused".into()))
                } else {
                    Ok(value)
                }
            })
        }
    }

    impl Backend for Flaky {
        fn kind(&self) -> &'static str {
            "redis"
        }
        fn location(&self) -> String {
            "test".into()
        }
        fn get<'a>(&'a self, _key: &'a str) -> StoreFuture<'a, Option<Stored>> {
            self.op(None)
        }
        fn put<'a>(&'a self, _key: &'a str, _stored: &'a Stored) -> StoreFuture<'a, ()> {
            self.op(())
        }
        fn forget<'a>(&'a self, _key: &'a str) -> StoreFuture<'a, ()> {
            self.op(())
        }
        fn permit<'a>(&'a self, _host: &'a str, _rule: Rule) -> StoreFuture<'a, Permit> {
            if !self.down.load(Ordering::SeqCst) {
                self.granted.fetch_add(1, Ordering::SeqCst);
            }
            self.op(Permit::Granted { ticket: "t".into() })
        }
        fn answered<'a>(&'a self, _host: &'a str, _ticket: &'a str) -> StoreFuture<'a, ()> {
            self.op(())
        }
        fn pause<'a>(
            &'a self,
            _host: &'a str,
            _wait: Duration,
            _status: u16,
        ) -> StoreFuture<'a, ()> {
            self.op(())
        }
        fn lock<'a>(&'a self, _key: &'a str, _hold: Duration) -> StoreFuture<'a, bool> {
            self.op(true)
        }
        fn unlock<'a>(&'a self, _key: &'a str) -> StoreFuture<'a, ()> {
            self.op(())
        }
        fn heartbeat<'a>(
            &'a self,
            _member: &'a str,
            _alive_for: Duration,
        ) -> StoreFuture<'a, crate::store::Members> {
            self.op(crate::store::Members { alive: 3, rank: 0 })
        }
    }

    /// How many permits `budget` grants within `span` of paused time.
    async fn granted_within(budget: &Budget, span: Duration) -> usize {
        let start = Instant::now();
        let mut granted = 0;
        while let Ok(Ok(permit)) =
            tokio::time::timeout_at(start + span, budget.permit(Duration::ZERO)).await
        {
            drop(permit);
            granted += 1;
        }
        granted
    }

    #[tokio::test(start_paused = true)]
    async fn with_the_store_down_a_process_keeps_to_its_share_then_returns_after_a_quiet_window() {
        let flaky = Arc::new(Flaky::default());
        let store = Arc::new(Shared::on(flaky.clone(), 3));
        let budget = Budget::new(15.0, "h:443".into(), Duration::from_secs(35), store.clone());
        // Up: the store's budget is the one that counts (the test store grants all), within
        // this process's own window of 15.
        assert_eq!(
            granted_within(&budget, Duration::from_millis(900)).await,
            15
        );
        assert_eq!(flaky.granted.load(Ordering::SeqCst), 15);
        assert_eq!(store.health().degraded, None);

        // Down: one quiet window after the switch, then 15/3 per window.
        flaky.down.store(true, Ordering::SeqCst);
        tokio::time::sleep(Duration::from_secs(2)).await;
        assert_eq!(
            granted_within(&budget, Duration::from_millis(2000)).await,
            5
        );
        let health = store.health();
        assert!(
            health
                .degraded
                .as_deref()
                .is_some_and(|why| why.contains("connection refused")),
            "{health:?}"
        );
        assert_eq!(
            granted_within(&budget, Duration::from_millis(1050)).await,
            5
        );

        // Back (as the heartbeat finds out): the store's budget again, after a quiet window.
        flaky.down.store(false, Ordering::SeqCst);
        tokio::time::sleep(Duration::from_secs(2)).await;
        assert!(
            store
                .run(|b| b.heartbeat("me", Duration::from_secs(15)))
                .await
                .is_some()
        );
        assert_eq!(store.health().degraded, None);
        let before = flaky.granted.load(Ordering::SeqCst);
        let start = Instant::now();
        drop(budget.permit(Duration::ZERO).await);
        assert!(
            Instant::now() - start >= Duration::from_millis(1000),
            "a quiet window first"
        );
        assert_eq!(flaky.granted.load(Ordering::SeqCst), before + 1);
    }

    #[test]
    fn each_process_has_its_own_window_of_the_clock_with_an_empty_one_after_it() {
        let window = Duration::from_millis(1000);
        let at = |ms: u64| SystemTime::UNIX_EPOCH + Duration::from_millis(ms);
        // Three processes: a cycle of six windows; rank 0 owns window 0, rank 1 window 2,
        // rank 2 window 4 (of 6_000_000 ms, a multiple of the cycle).
        let base = 6_000_000;
        assert_eq!(until_own_slot(at(base + 10), window, 3, 0), Duration::ZERO);
        assert_eq!(
            until_own_slot(at(base + 10), window, 3, 1),
            Duration::from_millis(1990)
        );
        assert_eq!(
            until_own_slot(at(base + 2500), window, 3, 1),
            Duration::ZERO
        );
        assert_eq!(
            until_own_slot(at(base + 4999), window, 3, 2),
            Duration::ZERO
        );
        assert_eq!(
            until_own_slot(at(base + 1000), window, 3, 2),
            Duration::from_millis(3000)
        );
        // Rank 0 waits for the next cycle once its window is over.
        assert_eq!(
            until_own_slot(at(base + 1000), window, 3, 0),
            Duration::from_millis(5000)
        );
        // No two ranks ever share a window, and the window after an owned one is empty.
        for ms in (base..base + 12_000).step_by(250) {
            let open = |ms| {
                (0..3)
                    .filter(|rank| until_own_slot(at(ms), window, 3, *rank).is_zero())
                    .count()
            };
            assert!(open(ms) <= 1, "{ms}");
            if open(ms) == 1 {
                assert_eq!(open(ms + 1000), 0, "{ms}");
            }
        }
    }
}
