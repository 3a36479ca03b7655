//! Full provenance records: when an answer's provenance had to summarise (a long request
//! named by its digest, many requests by their count), the full record is kept here, in
//! this process and in the store, for a day, and read back as the `provenance://<id>`
//! resource its `full` names (on any replica that shares the store).

use std::collections::VecDeque;
use std::sync::{Arc, Mutex, PoisonError, Weak};
use std::time::{Duration, SystemTime};

use bytes::Bytes;

use crate::provenance::{Provenance, RESOURCE_SCHEME};
use crate::store::{self, Shared};

/// Full records kept in this process (the store keeps them too).
const KEPT: usize = 256;
/// How long the store keeps a full record.
const TTL: Duration = Duration::from_secs(24 * 60 * 60);

/// Full records kept in this process, newest last.
static RECORDS: Mutex<VecDeque<(String, Arc<str>)>> = Mutex::new(VecDeque::new());
/// Every store of this process (one in a server; several in a test binary).
static STORES: Mutex<Vec<Weak<Shared>>> = Mutex::new(Vec::new());

/// Note a store of this process (on its first use), where records are kept and looked
/// for.
pub(crate) fn know_store(store: &Arc<Shared>) {
    let mut stores = STORES.lock().unwrap_or_else(PoisonError::into_inner);
    stores.retain(|s| s.strong_count() > 0);
    if !stores
        .iter()
        .any(|s| std::ptr::eq(s.as_ptr(), Arc::as_ptr(store)))
    {
        stores.push(Arc::downgrade(store));
    }
}

fn stores() -> Vec<Arc<Shared>> {
    STORES
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .iter()
        .filter_map(Weak::upgrade)
        .filter(|s| s.configured())
        .collect()
}

/// Keep the full record `id` in this process and, in the background, in the store.
pub(crate) fn keep(id: &str, full: &Provenance) {
    let Ok(json) = serde_json::to_string(full) else {
        return;
    };
    {
        let mut records = RECORDS.lock().unwrap_or_else(PoisonError::into_inner);
        if records.iter().any(|(kept, _)| kept == id) {
            return;
        }
        if records.len() >= KEPT {
            records.pop_front();
        }
        records.push_back((id.to_owned(), Arc::from(json.as_str())));
    }
    let stores = stores();
    if stores.is_empty() {
        return;
    }
    let key = key(id);
    crate::chores::spawn(async move {
        let now = SystemTime::now();
        let kept = store::Stored {
            body: Bytes::from(json),
            retrieved_at: now,
            fresh_until: now + TTL,
            release: None,
            meta: None,
        };
        for store in stores {
            store.run_if_up(|b| b.put(&key, &kept)).await;
        }
    });
}

fn key(id: &str) -> String {
    store::answer_key(&format!("provenance {id}"))
}

/// The full record a `provenance://<id>` URI names, as JSON: kept in this process, or in
/// the store (by another process or replica).
pub async fn full_record(uri: &str) -> Option<Arc<str>> {
    let id = uri.strip_prefix(RESOURCE_SCHEME)?;
    if id.len() != 16 || !id.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    if let Some((_, json)) = RECORDS
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .iter()
        .find(|(kept, _)| kept == id)
    {
        return Some(Arc::clone(json));
    }
    let key = key(id);
    for store in stores() {
        if let Some(stored) = store.run_if_up(|b| b.get(&key)).await.flatten()
            && stored.fresh_until > SystemTime::now()
            && let Ok(json) = std::str::from_utf8(&stored.body)
        {
            return Some(Arc::from(json));
        }
    }
    None
}
