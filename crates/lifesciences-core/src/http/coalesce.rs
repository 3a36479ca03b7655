//! Coalescing of identical in-flight requests: callers asking for the same thing at the
//! same time share one upstream call.
//!
//! The map holds only weak handles, so when every caller of a request is cancelled (the
//! MCP client cancelled its tool calls) the shared future is dropped and its upstream call
//! with it. A guard inside the future removes its entry when it finishes or is dropped.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError, Weak};

use futures::FutureExt as _;
use futures::future::{BoxFuture, Shared, WeakShared};

use crate::error::ApiError;

pub(crate) type Fetch<T> = BoxFuture<'static, Result<T, ApiError>>;
pub(crate) type SharedFetch<T> = Shared<Fetch<T>>;

type Map<T> = Mutex<HashMap<Arc<str>, (u64, WeakShared<Fetch<T>>)>>;

/// Requests in flight by key; each yields a `T` (a body and when it was retrieved).
pub(crate) struct Coalescer<T> {
    map: Arc<Map<T>>,
    next_id: AtomicU64,
}

impl<T> Default for Coalescer<T> {
    fn default() -> Self {
        Self {
            map: Arc::default(),
            next_id: AtomicU64::new(0),
        }
    }
}

/// Removes the map entry of one in-flight request when that request ends, however it ends.
struct EntryGuard<T> {
    map: Weak<Map<T>>,
    key: Arc<str>,
    id: u64,
}

impl<T> Drop for EntryGuard<T> {
    fn drop(&mut self) {
        if let Some(map) = self.map.upgrade() {
            let mut map = map.lock().unwrap_or_else(PoisonError::into_inner);
            if map.get(&self.key).is_some_and(|(id, _)| *id == self.id) {
                map.remove(&self.key);
            }
        }
    }
}

impl<T: Clone + Send + Sync + 'static> Coalescer<T> {
    /// Join the in-flight request for `key`, or start one with `start`.
    pub(crate) fn join_or_start(
        &self,
        key: Arc<str>,
        start: impl FnOnce() -> Fetch<T>,
    ) -> SharedFetch<T> {
        let mut map = self.map.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(running) = map.get(&key).and_then(|(_, weak)| weak.upgrade()) {
            tracing::debug!(key = %key, "joining an identical request in flight");
            return running;
        }
        let id = self.next_id.fetch_add(1, Ordering::Relaxed);
        let guard = EntryGuard {
            map: Arc::downgrade(&self.map),
            key: key.clone(),
            id,
        };
        let inner = start();
        let shared = async move {
            let _guard = guard;
            inner.await
        }
        .boxed()
        .shared();
        if let Some(weak) = shared.downgrade() {
            map.insert(key, (id, weak));
        }
        shared
    }

    /// Requests currently in flight.
    #[cfg(test)]
    pub(crate) fn in_flight(&self) -> usize {
        self.map
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bytes::Bytes;
    use std::sync::atomic::AtomicUsize;

    #[tokio::test]
    async fn identical_concurrent_calls_share_one_execution() {
        let c = Coalescer::<Bytes>::default();
        let runs = Arc::new(AtomicUsize::new(0));
        let (tx, rx) = tokio::sync::oneshot::channel::<()>();
        let rx = rx.shared();
        let mut joins = Vec::new();
        for _ in 0..8 {
            let runs = runs.clone();
            let rx = rx.clone();
            joins.push(c.join_or_start("k".into(), move || {
                async move {
                    runs.fetch_add(1, Ordering::SeqCst);
                    let _ = rx.await;
                    Ok(Bytes::from_static(b"x"))
                }
                .boxed()
            }));
        }
        assert_eq!(c.in_flight(), 1);
        let _ = tx.send(());
        for r in futures::future::join_all(joins).await {
            assert_eq!(r.unwrap(), Bytes::from_static(b"x"));
        }
        assert_eq!(runs.load(Ordering::SeqCst), 1);
        assert_eq!(c.in_flight(), 0, "finished requests leave the map");
    }

    #[tokio::test]
    async fn cancelling_every_caller_drops_the_request_and_its_entry() {
        let c = Coalescer::<Bytes>::default();
        let dropped = Arc::new(AtomicUsize::new(0));
        struct OnDrop(Arc<AtomicUsize>);
        impl Drop for OnDrop {
            fn drop(&mut self) {
                self.0.fetch_add(1, Ordering::SeqCst);
            }
        }
        let d = dropped.clone();
        let fut = c.join_or_start("k".into(), move || {
            async move {
                let _d = OnDrop(d);
                futures::future::pending::<()>().await;
                Ok(Bytes::new())
            }
            .boxed()
        });
        // Poll once so the inner future starts, then cancel the only caller.
        let _ = tokio::time::timeout(std::time::Duration::from_millis(5), fut).await;
        assert_eq!(
            dropped.load(Ordering::SeqCst),
            1,
            "upstream work was cancelled"
        );
        assert_eq!(c.in_flight(), 0);
    }

    #[tokio::test]
    async fn different_keys_do_not_share() {
        let c = Coalescer::<Bytes>::default();
        let a = c.join_or_start("a".into(), || {
            async { Ok(Bytes::from_static(b"a")) }.boxed()
        });
        let b = c.join_or_start("b".into(), || {
            async { Ok(Bytes::from_static(b"b")) }.boxed()
        });
        assert_eq!(c.in_flight(), 2);
        assert_eq!(a.await.unwrap(), Bytes::from_static(b"a"));
        assert_eq!(b.await.unwrap(), Bytes::from_static(b"b"));
    }
}
