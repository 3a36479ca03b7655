//! `notifications/progress` for long calls, sent only when the client asked for them (a
//! `progressToken` in the request's `_meta`) and the work is large enough to be worth it.

use std::sync::atomic::{AtomicI64, AtomicU64, Ordering};

use lifesciences_core::rmcp::model::{ProgressNotificationParam, ProgressToken};
use lifesciences_core::rmcp::{Peer, RoleServer};

/// Reports how many of `total` items are done. Inert without a token. The protocol
/// requires each notification's progress to exceed the previous one, so a report that
/// would not move the count forward is not sent.
pub(crate) struct Progress {
    target: Option<(Peer<RoleServer>, ProgressToken)>,
    total: u64,
    done: AtomicU64,
    /// The last progress value sent; -1 before the first.
    sent: AtomicI64,
}

impl Progress {
    /// Report to `peer` under `token` (when the client sent one) if `total` reaches
    /// `threshold`; otherwise stay silent.
    pub(crate) fn new(
        peer: Peer<RoleServer>,
        token: Option<ProgressToken>,
        total: u64,
        threshold: u64,
    ) -> Self {
        Self {
            target: token.filter(|_| total >= threshold).map(|t| (peer, t)),
            total,
            done: AtomicU64::new(0),
            sent: AtomicI64::new(-1),
        }
    }

    /// Mark `n` more items done and notify.
    pub(crate) async fn advance(&self, n: u64) {
        let done = self.done.fetch_add(n, Ordering::Relaxed) + n;
        self.send(done.min(self.total), None).await;
    }

    /// Notify the current count with a message (e.g. what is being fetched).
    pub(crate) async fn say(&self, message: &str) {
        let done = self.done.load(Ordering::Relaxed);
        self.send(done.min(self.total), Some(message)).await;
    }

    /// Mark everything done and notify with a closing message.
    pub(crate) async fn finish(&self, message: &str) {
        self.done.store(self.total, Ordering::Relaxed);
        self.send(self.total, Some(message)).await;
    }

    async fn send(&self, done: u64, message: Option<&str>) {
        let Some((peer, token)) = &self.target else {
            return;
        };
        let value = i64::try_from(done).unwrap_or(i64::MAX);
        if self.sent.fetch_max(value, Ordering::Relaxed) >= value {
            return;
        }
        let mut param = ProgressNotificationParam::new(token.clone(), done as f64)
            .with_total(self.total as f64);
        if let Some(message) = message {
            param = param.with_message(message);
        }
        // A client that stopped listening must not fail the call it is waiting for.
        if let Err(e) = peer.notify_progress(param).await {
            tracing::debug!(error = %e, "could not send a progress notification");
        }
    }
}
