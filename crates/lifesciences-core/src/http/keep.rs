//! An upstream answer on its way to a caller, and when it may be kept for the next one.
//!
//! **Invariant:** an answer is kept (in this process's cache, in the store) only once a
//! caller has read it and found it well-formed. Every request of a call is fetched as a
//! [`Fetched`] carrying a [`Pending`] keep; the caller that decodes it says so with
//! [`HttpClient::keep`]. A body nobody read (a sibling request of a call that failed on
//! another answer, or was cancelled) is dropped with its `Pending`, and the store's lock
//! on the request is given back: the next call asks again rather than meeting a body no
//! one checked.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::SystemTime;

use bytes::Bytes;
use serde::{Deserialize, Serialize};

use super::HttpClient;
use super::shared::{self, Held};
use crate::provenance;
use crate::store;

/// What an upstream answered beyond its body, for a source that reads it (see
/// [`Upstream::keep_headers`](crate::Upstream::keep_headers) and
/// [`Upstream::follow_redirects`](crate::Upstream::follow_redirects)): the status, where a
/// redirect that was not followed points, and the headers the source keeps. Kept with the
/// body, so an answer served from the cache or the store says the same.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Meta {
    /// The HTTP status: a success, or a redirect the client did not follow.
    pub status: u16,
    /// A redirect's target, absolute (resolved against the request's URL).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub location: Option<String>,
    /// The kept headers, names in lower case, in the order the upstream sent them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub headers: Vec<(String, String)>,
}

impl Meta {
    /// The first value of header `name` (any case), if kept and sent.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// Whether the answer is a redirect the client did not follow.
    pub fn is_redirect(&self) -> bool {
        (300..400).contains(&self.status)
    }

    pub(super) fn encode(&self) -> Option<String> {
        serde_json::to_string(self).ok()
    }

    pub(super) fn decode(text: &str) -> Option<Self> {
        serde_json::from_str(text).ok()
    }
}

/// An upstream answer's body and when the upstream sent it: what the cache holds, so an
/// answer served from it keeps its original retrieval time and release.
#[derive(Debug, Clone)]
pub(super) struct Fetched {
    pub(super) body: Bytes,
    pub(super) retrieved_at: SystemTime,
    /// Until when it may be served from a cache.
    pub(super) fresh_until: SystemTime,
    /// Where this process got it.
    pub(super) origin: provenance::Origin,
    /// The release it was served under, when known then.
    pub(super) release: Option<Arc<str>>,
    /// Status, redirect and kept headers, for a source that reads them.
    pub(super) meta: Option<Arc<Meta>>,
    /// Where it is to be kept once read; `None` for an answer already kept (a hit of
    /// this process's cache). Never held by the cache itself.
    pub(super) pending: Option<Arc<Pending>>,
}

impl Fetched {
    /// The answer as the store keeps it.
    pub(super) fn stored(&self) -> store::Stored {
        store::Stored {
            body: self.body.clone(),
            retrieved_at: self.retrieved_at,
            fresh_until: self.fresh_until,
            release: self.release.as_deref().map(str::to_owned),
            meta: self.meta.as_deref().and_then(Meta::encode),
        }
    }

    /// An answer the store kept.
    pub(super) fn from_store(stored: store::Stored, pending: Option<Arc<Pending>>) -> Self {
        Self {
            body: stored.body,
            retrieved_at: stored.retrieved_at,
            fresh_until: stored.fresh_until,
            origin: provenance::Origin::Cache,
            release: stored.release.map(Arc::from),
            meta: stored.meta.as_deref().and_then(Meta::decode).map(Arc::new),
            pending,
        }
    }
}

/// Where an answer goes once a caller has read it: this process's cache (under its key),
/// the store (under its store key), and the store's lock on the request to give back.
#[derive(Debug)]
pub(super) struct Pending {
    pub(super) key: Arc<str>,
    pub(super) cache: bool,
    pub(super) store_key: Option<String>,
    pub(super) lock: Mutex<Option<Held>>,
    kept: AtomicBool,
}

impl Pending {
    pub(super) fn new(
        key: Arc<str>,
        cache: bool,
        store_key: Option<String>,
        lock: Option<Held>,
    ) -> Option<Arc<Self>> {
        (cache || store_key.is_some() || lock.is_some()).then(|| {
            Arc::new(Self {
                key,
                cache,
                store_key,
                lock: Mutex::new(lock),
                kept: AtomicBool::new(false),
            })
        })
    }
}

impl HttpClient {
    /// `fetched` was read and is well-formed: keep it for the next caller (once, however
    /// many callers shared it), and give back the store's lock on the request.
    pub(super) async fn keep(&self, fetched: &Fetched) {
        let Some(pending) = &fetched.pending else {
            return;
        };
        if pending.kept.swap(true, Ordering::AcqRel) {
            return;
        }
        if pending.cache
            && let Some(cache) = &self.inner.cache
        {
            let kept = Fetched {
                pending: None,
                ..fetched.clone()
            };
            cache.insert(Arc::clone(&pending.key), kept).await;
        }
        let store = &self.inner.store;
        if let Some(store_key) = &pending.store_key {
            shared::keep(store, store_key, &fetched.stored()).await;
        }
        let lock = pending
            .lock
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take();
        if let Some(lock) = lock {
            lock.release().await;
        }
    }

    /// Stop serving the answer under `key` (it turned out unreadable), here and in the
    /// store.
    pub(super) async fn forget(&self, key: &str) {
        if let Some(cache) = &self.inner.cache {
            cache.invalidate(key).await;
        }
        let store = &self.inner.store;
        if store.configured() {
            shared::forget(store, &store::answer_key(key)).await;
        }
    }
}
