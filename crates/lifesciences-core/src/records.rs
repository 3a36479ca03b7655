//! What a call leaves behind to be read later, by URI: full provenance records
//! (`provenance://<id>`, when an answer's provenance had to summarise) and exported
//! tables (`export://<id>.tsv`). Each kind is a `Shelf`: kept in this process (a
//! bounded number, a bounded size) and in the store every process and replica shares, for
//! a time, so a `resources/read` or a download on any replica finds it.
//!
//! **Invariant:** a kept thing is read only until it expires, and only by the principal
//! it was kept for when it was kept for one (an export is its caller's): a principal
//! asking for another's, like a name never kept, finds nothing.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex, PoisonError, Weak};
use std::time::{Duration, SystemTime};

use bytes::Bytes;

use crate::provenance::Provenance;
use crate::store::{self, Shared};

/// How long the store keeps a full provenance record.
const PROVENANCE_TTL: Duration = Duration::from_secs(24 * 60 * 60);

/// Full provenance records: 256 kept in this process, a day each.
pub(crate) static PROVENANCE: Shelf = Shelf::new("provenance", 256, 64 * 1024 * 1024);

/// Exported tables: at most 8 kept in this process, 128 MB in all (the store keeps
/// more); the answers' time-to-live each (see `export.rs`).
pub(crate) static EXPORTS: Shelf = Shelf::new("export", 8, 128 * 1024 * 1024);

/// Every store of this process (one in a server; several in a test binary), with the
/// longest time-to-live of the answers its sources keep there.
static STORES: Mutex<Vec<(Weak<Shared>, Duration)>> = Mutex::new(Vec::new());

/// Note a store of this process (on a source's first use), where things are kept and
/// looked for, and the time-to-live of that source's answers.
pub(crate) fn know_store(store: &Arc<Shared>, answers_ttl: Duration) {
    let mut stores = STORES.lock().unwrap_or_else(PoisonError::into_inner);
    stores.retain(|(s, _)| s.strong_count() > 0);
    match stores
        .iter_mut()
        .find(|(s, _)| std::ptr::eq(s.as_ptr(), Arc::as_ptr(store)))
    {
        Some((_, ttl)) => *ttl = (*ttl).max(answers_ttl),
        None => stores.push((Arc::downgrade(store), answers_ttl)),
    }
}

/// How long the answers of this process's sources stay fresh (the longest, when they
/// differ): what an exported table lives for. `None` before any source was used.
pub(crate) fn answers_ttl() -> Option<Duration> {
    STORES
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .iter()
        .filter(|(s, _)| s.strong_count() > 0)
        .map(|(_, ttl)| *ttl)
        .max()
}

fn stores() -> Vec<Arc<Shared>> {
    STORES
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .iter()
        .filter_map(|(s, _)| s.upgrade())
        .filter(|s| s.configured())
        .collect()
}

/// One thing kept in this process.
struct Kept {
    name: String,
    body: Arc<str>,
    until: SystemTime,
    owner: Option<Arc<str>>,
}

/// One kind of thing kept: in this process (the newest `count`, at most `bytes` in all)
/// and in the store, each under its name until it expires.
pub(crate) struct Shelf {
    /// The kind, which the store keys name (`provenance <id>`, `export <id>.tsv`).
    kind: &'static str,
    count: usize,
    bytes: usize,
    kept: Mutex<VecDeque<Kept>>,
}

impl Shelf {
    const fn new(kind: &'static str, count: usize, bytes: usize) -> Self {
        Self {
            kind,
            count,
            bytes,
            kept: Mutex::new(VecDeque::new()),
        }
    }

    /// Keep `body` under `name` for `ttl`, for `owner` alone when given: in this process
    /// now, and in the background in every store, which forgets it when it expires.
    pub(crate) fn keep(&self, name: &str, body: Arc<str>, ttl: Duration, owner: Option<&str>) {
        if let Some(write) = self.keep_here(name, body, ttl, owner) {
            crate::chores::spawn(async move {
                write.run().await;
            });
        }
    }

    /// Keep `body` as [`Shelf::keep`] does, and wait until every store took it (or
    /// failed to): whether they all did. A one-shot process writes to no store: nothing
    /// after it would read the table there.
    pub(crate) async fn keep_stored(
        &self,
        name: &str,
        body: Arc<str>,
        ttl: Duration,
        owner: Option<&str>,
    ) -> bool {
        if crate::chores::is_one_shot() {
            let _unwritten = self.keep_here(name, body, ttl, owner);
            return true;
        }
        match self.keep_here(name, body, ttl, owner) {
            Some(write) => write.run().await,
            None => true,
        }
    }

    /// Keep `body` in this process; what writing it to the stores takes, if there are.
    fn keep_here(
        &self,
        name: &str,
        body: Arc<str>,
        ttl: Duration,
        owner: Option<&str>,
    ) -> Option<StoreWrite> {
        let until = SystemTime::now() + ttl;
        {
            let mut kept = self.kept.lock().unwrap_or_else(PoisonError::into_inner);
            let now = SystemTime::now();
            kept.retain(|k| k.until > now && k.name != name);
            kept.push_back(Kept {
                name: name.to_owned(),
                body: Arc::clone(&body),
                until,
                owner: owner.map(Arc::from),
            });
            let mut total: usize = kept.iter().map(|k| k.body.len()).sum();
            while kept.len() > self.count || (total > self.bytes && kept.len() > 1) {
                if let Some(dropped) = kept.pop_front() {
                    total -= dropped.body.len();
                }
            }
        }
        let stores = stores();
        if stores.is_empty() {
            return None;
        }
        Some(StoreWrite {
            key: self.key(name),
            body,
            until,
            owner: owner.map(str::to_owned),
            stores,
        })
    }

    /// What is kept under `name` for `owner` (a principal's name), in this process or in
    /// a store (kept by another process or replica); `None` once it expired, or when it
    /// was kept for another principal.
    pub(crate) async fn read(&self, name: &str, owner: &str) -> Option<Arc<str>> {
        let now = SystemTime::now();
        let mine = |kept_for: Option<&str>| kept_for.is_none_or(|o| o == owner);
        if let Some(kept) = self
            .kept
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .iter()
            .rev()
            .find(|k| k.name == name && k.until > now)
        {
            return mine(kept.owner.as_deref()).then(|| Arc::clone(&kept.body));
        }
        let key = self.key(name);
        for store in stores() {
            // As long as the largest write may take.
            let read = store
                .run_if_up_within(Duration::from_secs(10), |b| b.get(&key))
                .await
                .flatten();
            if let Some(stored) = read
                && stored.fresh_until > now
                && let Ok(text) = std::str::from_utf8(&stored.body)
            {
                return mine(stored.meta.as_deref()).then(|| Arc::from(text));
            }
        }
        None
    }

    fn key(&self, name: &str) -> String {
        store::answer_key(&format!("{} {name}", self.kind))
    }

    /// Forget everything kept in this process (tests of the store's copy).
    #[cfg(test)]
    pub(crate) fn forget_in_process(&self) {
        self.kept
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clear();
    }
}

/// A kept thing on its way to the stores.
struct StoreWrite {
    key: String,
    body: Arc<str>,
    until: SystemTime,
    owner: Option<String>,
    stores: Vec<Arc<Shared>>,
}

/// Text shared with the store's write without a copy.
struct Text(Arc<str>);

impl AsRef<[u8]> for Text {
    fn as_ref(&self) -> &[u8] {
        self.0.as_bytes()
    }
}

impl StoreWrite {
    /// Write to every store, then forget it there when it expires: whether every store
    /// took it.
    async fn run(self) -> bool {
        let now = SystemTime::now();
        // A large table takes longer to write than an answer: a deadline that grows
        // with its size (100 ms a megabyte), so a slow write is not a failed store.
        let deadline = Duration::from_millis(500 + (self.body.len() / 10_000) as u64);
        let stored = store::Stored {
            body: Bytes::from_owner(Text(Arc::clone(&self.body))),
            retrieved_at: now,
            fresh_until: self.until,
            release: None,
            meta: self.owner.clone(),
        };
        let mut all = true;
        for store in &self.stores {
            all &= store
                .run_if_up_within(deadline, |b| b.put(&self.key, &stored))
                .await
                .is_some();
        }
        self.forget_later();
        all
    }

    /// The store keeps answers past their freshness for offline use; a kept thing is of
    /// no use then, and a table is large: forget it at expiry (while this process lives;
    /// the store's own size bound does it otherwise).
    fn forget_later(self) {
        let weak: Vec<Weak<Shared>> = self.stores.iter().map(Arc::downgrade).collect();
        let (key, until) = (self.key, self.until);
        drop(self.stores);
        tokio::spawn(async move {
            let left = until.duration_since(SystemTime::now()).unwrap_or_default();
            tokio::time::sleep(left).await;
            for store in weak.iter().filter_map(Weak::upgrade) {
                store.run_if_up(|b| b.forget(&key)).await;
            }
        });
    }
}

/// Keep the full provenance record `id` (see [`Provenance`]'s `full`).
pub(crate) fn keep(id: &str, full: &Provenance) {
    if let Ok(json) = serde_json::to_string(full) {
        PROVENANCE.keep(id, Arc::from(json), PROVENANCE_TTL, None);
    }
}

/// The full record a `provenance://<id>` URI names, as JSON: kept in this process, or in
/// the store (by another process or replica).
pub async fn full_record(uri: &str) -> Option<Arc<str>> {
    let id = uri.strip_prefix(crate::provenance::RESOURCE_SCHEME)?;
    if id.len() != 16 || !id.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    PROVENANCE.read(id, "").await
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::ENV_CACHE_DIR;
    use crate::testing::TempFolder;

    /// A shelf of its own, so other tests' tables never meet this one's.
    static SHELF: Shelf = Shelf::new("test", 8, 1024 * 1024);

    #[tokio::test]
    async fn a_kept_table_is_read_back_from_the_store_by_its_owner_until_it_expires() {
        let folder = TempFolder::new("records").unwrap();
        let dir = folder.path().display().to_string();
        let store =
            Arc::new(Shared::from_env(|var| (var == ENV_CACHE_DIR).then(|| dir.clone())).unwrap());
        know_store(&store, Duration::from_secs(60));
        assert!(answers_ttl().is_some_and(|ttl| ttl >= Duration::from_secs(60)));
        let table: Arc<str> = Arc::from("# made by a test\nid\nITEM:1\n");
        SHELF.keep(
            "a.tsv",
            Arc::clone(&table),
            Duration::from_millis(1500),
            Some("token:ada"),
        );

        assert_eq!(
            SHELF.read("a.tsv", "token:ada").await,
            Some(Arc::clone(&table))
        );
        assert_eq!(SHELF.read("a.tsv", "token:grace").await, None, "another's");
        assert_eq!(SHELF.read("b.tsv", "token:ada").await, None, "never kept");

        // The store's copy (written in the background), as another process reads it.
        let mut from_store = None;
        for _ in 0..100 {
            SHELF.forget_in_process();
            from_store = SHELF.read("a.tsv", "token:ada").await;
            if from_store.is_some() {
                break;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        assert_eq!(from_store, Some(Arc::clone(&table)));
        SHELF.forget_in_process();
        assert_eq!(
            SHELF.read("a.tsv", "token:grace").await,
            None,
            "another's, in the store"
        );

        // Expired: not read, and gone from the store.
        tokio::time::sleep(Duration::from_millis(1700)).await;
        assert_eq!(SHELF.read("a.tsv", "token:ada").await, None);
        let key = SHELF.key("a.tsv");
        let kept = store.run(|b| b.get(&key)).await.flatten();
        assert!(kept.is_none(), "the store forgot the expired table");
    }

    #[tokio::test]
    async fn a_table_kept_stored_is_in_the_store_when_keeping_returns() {
        static STORED: Shelf = Shelf::new("stored", 8, 1024 * 1024);
        let folder = TempFolder::new("records-stored").unwrap();
        let dir = folder.path().display().to_string();
        let store =
            Arc::new(Shared::from_env(|var| (var == ENV_CACHE_DIR).then(|| dir.clone())).unwrap());
        know_store(&store, Duration::from_secs(60));
        let table: Arc<str> = Arc::from("# made by a test\nid\nITEM:1\n");

        let taken = STORED
            .keep_stored(
                "a.tsv",
                Arc::clone(&table),
                Duration::from_secs(60),
                Some("token:ada"),
            )
            .await;

        assert!(taken, "every store took it");
        // At once, as another replica reads it: no background write to wait for.
        let key = STORED.key("a.tsv");
        let kept = store
            .run(|b| b.get(&key))
            .await
            .flatten()
            .expect("in the store when keep_stored returned");
        assert_eq!(kept.body.as_ref(), table.as_bytes());
        assert_eq!(kept.meta.as_deref(), Some("token:ada"));
    }

    #[tokio::test]
    async fn the_process_keeps_a_bounded_number_and_size_newest_last() {
        static SMALL: Shelf = Shelf::new("small", 2, 10);
        // What this process holds (another test's store may hold more).
        let held = || -> Vec<String> {
            SMALL
                .kept
                .lock()
                .unwrap()
                .iter()
                .map(|k| k.name.clone())
                .collect()
        };
        SMALL.keep("a", Arc::from("12345"), Duration::from_secs(60), None);
        SMALL.keep("b", Arc::from("12345"), Duration::from_secs(60), None);
        SMALL.keep("c", Arc::from("1"), Duration::from_secs(60), None);
        // At most 2, at most 10 bytes: `a` went first.
        assert_eq!(held(), ["b", "c"]);
        SMALL.keep("d", Arc::from("0123456789"), Duration::from_secs(60), None);
        assert_eq!(held(), ["d"], "the newest stays, whatever its size");
        SMALL.keep("e", Arc::from(""), Duration::ZERO, None);
        SMALL.keep("f", Arc::from(""), Duration::from_secs(60), None);
        assert_eq!(held(), ["d", "f"], "an expired one goes first");
    }
}
