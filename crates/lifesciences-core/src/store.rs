//! The store every process and replica shares: answers (the cache behind the in-process
//! one), the politeness budget of each upstream host, the pauses upstreams ask for, and
//! the locks that make identical requests on several replicas one upstream request.
//!
//! Two backends, chosen by the environment ([`Shared::from_env`]):
//! - **embedded** (the default): one SQLite file in WAL mode in the user's cache
//!   directory (`LIFESCIENCES_CACHE_DIR`), shared by every process of that user
//!   (`sqlite.rs`);
//! - **Redis** for a fleet (`LIFESCIENCES_REDIS_URL`), its budget kept by one Lua script on
//!   Redis's own clock (`redis.rs`).
//!
//! `LIFESCIENCES_CACHE_DIR=off` (or no cache directory at all) keeps everything in the
//! process, as the in-process cache and rate limiter always did.
//!
//! **Invariant:** the store never fails a call and never stops a start. Every operation
//! has a short deadline; a failure marks the store degraded (logged once, shown by
//! `/health`), the HTTP client falls back to its own cache and to a local budget of
//! rate/N (N the processes or replicas last seen alive), and the next operation that
//! succeeds ends the degraded state.

#[cfg(test)]
mod conformance;
mod redis;
mod sqlite;

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock, PoisonError};
use std::time::{Duration, SystemTime};

use bytes::Bytes;
use futures::future::BoxFuture;

use crate::config::ConfigError;

pub use crate::config::{ENV_CACHE_DIR, ENV_CACHE_MAX_MB, ENV_OFFLINE, ENV_REDIS_URL};

/// The file name of the embedded store inside the cache directory. The `v1` is the
/// layout of its tables: a new layout takes a new file rather than misreading an old one
/// (columns added since, which older versions leave empty, do not change it).
pub const STORE_FILE: &str = "store-v1.sqlite3";
/// Default of [`ENV_CACHE_MAX_MB`].
pub const DEFAULT_CACHE_MAX_MB: u64 = 256;

/// How long one store operation may take before the store counts as degraded: a store
/// slower than this costs more than asking the upstream.
const OPERATION_DEADLINE: Duration = Duration::from_millis(500);
/// How often a process says it is alive, and how long it counts as alive after that.
const HEARTBEAT_EVERY: Duration = Duration::from_secs(5);
const ALIVE_FOR: Duration = Duration::from_secs(15);

/// How the embedded store is opened, on first use.
type Opener = Box<dyn FnOnce() -> Result<Arc<dyn Backend>, StoreError> + Send>;

/// Why a store operation failed (the backend's own words).
#[derive(Debug, Clone, thiserror::Error)]
#[error("{0}")]
pub struct StoreError(pub String);

/// Operations return this: a boxed future, so the backends can be chosen at run time.
pub(crate) type StoreFuture<'a, T> = BoxFuture<'a, Result<T, StoreError>>;

/// An answer as the store keeps it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Stored {
    pub(crate) body: Bytes,
    /// When the upstream sent it.
    pub(crate) retrieved_at: SystemTime,
    /// Until when it is fresh. Entries are kept after that (for offline use) until the
    /// store needs the room.
    pub(crate) fresh_until: SystemTime,
    /// The data release the source served it under, when known then: a stored answer
    /// keeps citing it.
    pub(crate) release: Option<String>,
    /// What the HTTP client keeps of the answer beyond its body (status, redirect, the
    /// headers its source reads), in the client's own encoding; opaque to the store.
    pub(crate) meta: Option<String>,
}

/// The budget of one upstream host: at most `allowed` requests counted in any `window`.
/// A request counts from the moment it is granted until one `window` after its answer
/// came back (see [`Backend::permit`]); `hold` bounds how long a granted request may stay
/// unanswered (a process that died with it in flight), after which it counts as
/// answered then.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Rule {
    pub(crate) allowed: u32,
    pub(crate) window: Duration,
    pub(crate) hold: Duration,
}

/// On whose behalf a permit is asked, for a fair share of the budget among principals:
/// the principal (and its weight), and the principals waiting for the same host on this
/// process (so every process knows who is owed a share). A principal's share of a window
/// is `allowed × weight / Σ weights` of the principals waiting anywhere; one alone gets it
/// all, and a share no one waiting claims goes to whoever asks (work-conserving).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Share {
    pub(crate) principal: String,
    pub(crate) weight: u32,
    pub(crate) waiting: Vec<(String, u32)>,
}

impl Share {
    /// A request on nobody's behalf in particular (the health probe, a test).
    pub(crate) fn anyone() -> Self {
        Self {
            principal: "anonymous".to_owned(),
            weight: 1,
            waiting: Vec::new(),
        }
    }

    /// `name` as a store keeps it beside a ticket: without the separator.
    pub(crate) fn key(name: &str) -> String {
        name.replace(SEPARATOR, " ")
    }
}

/// Separates a principal's name from the rest in a ticket or an active entry.
pub(crate) const SEPARATOR: char = '\u{1f}';
/// How long a principal counts as waiting after a process last said so.
pub(crate) const ACTIVE_FOR: Duration = Duration::from_millis(500);
/// How soon a principal told its share is spent asks again.
pub(crate) const SHARE_RETRY: Duration = Duration::from_millis(25);

/// Whether `principal` may take a permit of a window with room: it is below its share of
/// the `allowed` requests (by the weights of the principals waiting), or no other
/// waiting principal is below theirs. `counts` are the requests each principal has
/// counted in the window. The Redis script applies the same rule.
pub(crate) fn within_share(
    allowed: u32,
    principal: &str,
    counts: &std::collections::HashMap<String, u32>,
    weights: &std::collections::HashMap<String, u32>,
) -> bool {
    let total: u32 = weights.values().sum();
    if total == 0 {
        return true;
    }
    let below = |who: &str| {
        let weight = weights.get(who).copied().unwrap_or(1);
        // counts[who] < allowed × weight / total, in integers.
        u64::from(counts.get(who).copied().unwrap_or(0)) * u64::from(total)
            < u64::from(allowed) * u64::from(weight)
    };
    below(principal)
        || !weights
            .keys()
            .any(|other| other.as_str() != principal && below(other))
}

/// What asking for a permit gave.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Permit {
    /// The request may leave now. Tell the store when its answer came back with
    /// [`Backend::answered`] and this ticket.
    Granted { ticket: String },
    /// The window is full: ask again after at most this long.
    Wait(Duration),
    /// The window has room, but this principal has its share while another waiting
    /// principal is owed theirs: let another principal go, and ask again after this long.
    Share(Duration),
    /// The upstream asked every client to wait (`Retry-After` on a 429 or 503): this long
    /// is left, asked for with this status.
    Paused { left: Duration, status: u16 },
}

/// One backend of the shared store. Every method is one atomic step in the store, so
/// processes and replicas may call them concurrently.
pub(crate) trait Backend: Send + Sync + 'static {
    /// `sqlite` or `redis`, for logs and `/health`.
    fn kind(&self) -> &'static str;
    /// Where it is, for logs (a path, or a URL without its password).
    fn location(&self) -> String;
    /// The answer kept under `key`, fresh or not.
    fn get<'a>(&'a self, key: &'a str) -> StoreFuture<'a, Option<Stored>>;
    /// Keep `stored` under `key`.
    fn put<'a>(&'a self, key: &'a str, stored: &'a Stored) -> StoreFuture<'a, ()>;
    /// Drop what is kept under `key` (an answer that turned out unreadable).
    fn forget<'a>(&'a self, key: &'a str) -> StoreFuture<'a, ()>;
    /// Ask for a permit to send one request to `host` under `rule` on behalf of `share`:
    /// first any pause of that host, then the sliding window, then the principal's share
    /// of it (see [`Share`]).
    fn permit<'a>(&'a self, host: &'a str, rule: Rule, share: &'a Share)
    -> StoreFuture<'a, Permit>;
    /// The answer of the request granted `ticket` came back (or it failed): from now on
    /// it counts for one more window only.
    fn answered<'a>(&'a self, host: &'a str, ticket: &'a str) -> StoreFuture<'a, ()>;
    /// The upstream asked every client of `host` to wait `wait`; a longer pause already
    /// set is kept.
    fn pause<'a>(&'a self, host: &'a str, wait: Duration, status: u16) -> StoreFuture<'a, ()>;
    /// Take the lock `key` for at most `hold`; false when someone else holds it.
    fn lock<'a>(&'a self, key: &'a str, hold: Duration) -> StoreFuture<'a, bool>;
    /// Give back the lock `key` (taken with [`lock`](Backend::lock)).
    fn unlock<'a>(&'a self, key: &'a str) -> StoreFuture<'a, ()>;
    /// Say that `member` is alive for `alive_for`; how many members are alive, and how
    /// many of them sort before `member` by name (its rank).
    fn heartbeat<'a>(&'a self, member: &'a str, alive_for: Duration) -> StoreFuture<'a, Members>;
}

/// The members alive at a heartbeat, and where the one beating stands among them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Members {
    pub(crate) alive: usize,
    /// How many alive members sort before this one by name: its place in the slots of a
    /// degraded budget (see `http/shared.rs`).
    pub(crate) rank: usize,
}

/// What `/health` says of the store.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoreHealth {
    /// `memory`, `sqlite` or `redis`.
    pub kind: &'static str,
    /// Why the store is not in use right now, when it is not.
    pub degraded: Option<String>,
    /// Processes or replicas seen alive at the last heartbeat (1 in memory).
    pub peers: usize,
    /// Whether answers come from the store only (`LIFESCIENCES_OFFLINE=1`).
    pub offline: bool,
}

/// The store of one process, shared by all its sources: a backend (or none), the state
/// of its health, and the offline switch.
pub struct Shared {
    /// Opened on first use (see [`Shared::backend`]), so a process that never asks an
    /// upstream never loads the store: `None` for memory, or when opening failed.
    backend: OnceLock<Option<Arc<dyn Backend>>>,
    /// How to open it, until it is opened.
    opener: Mutex<Option<Opener>>,
    offline: bool,
    /// This process's name among the store's members (for the heartbeat).
    member: String,
    /// Members seen alive at the last heartbeat; the local budget is rate/peers while
    /// the store is degraded.
    peers: AtomicUsize,
    /// This process's rank among them.
    rank: AtomicUsize,
    /// Why the store is degraded, when it is.
    degraded: Mutex<Option<String>>,
    heartbeat: OnceLock<()>,
    warned_offline_miss: AtomicBool,
}

impl std::fmt::Debug for Shared {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Shared")
            .field("kind", &self.kind())
            .field("offline", &self.offline)
            .finish_non_exhaustive()
    }
}

impl Default for Shared {
    fn default() -> Self {
        Self::memory()
    }
}

impl Shared {
    /// Everything in the process: no store.
    pub fn memory() -> Self {
        Self::with_backend(None, false)
    }

    fn with_backend(backend: Option<Arc<dyn Backend>>, offline: bool) -> Self {
        let shared = Self::opening(None, offline);
        let _ = shared.backend.set(backend);
        shared
    }

    fn opening(opener: Option<Opener>, offline: bool) -> Self {
        Self {
            backend: OnceLock::new(),
            opener: Mutex::new(opener),
            offline,
            member: format!("{}-{:016x}", std::process::id(), fastrand::u64(..)),
            peers: AtomicUsize::new(1),
            rank: AtomicUsize::new(0),
            degraded: Mutex::new(None),
            heartbeat: OnceLock::new(),
            warned_offline_miss: AtomicBool::new(false),
        }
    }

    /// The store the environment asks for: Redis when `LIFESCIENCES_REDIS_URL` is set,
    /// else the embedded store in `LIFESCIENCES_CACHE_DIR` (default: the platform's cache
    /// directory, found from `XDG_CACHE_HOME`, `HOME` or `LOCALAPPDATA`), else memory.
    /// A setting of the wrong form (an offline switch that is not 1 or 0, a size that is
    /// not a number, a Redis URL that is not one) is a configuration error, as for every
    /// other variable. A store that cannot be opened or reached is not: it is logged once
    /// and the process keeps everything in memory.
    pub fn from_env(lookup: impl Fn(&str) -> Option<String>) -> Result<Self, ConfigError> {
        let get = |var: &str| crate::config::usable(lookup(var));
        let offline = match get(ENV_OFFLINE) {
            Some(raw) => crate::config::parse_switch(ENV_OFFLINE, &raw)?,
            None => false,
        };
        if let Some(url) = get(ENV_REDIS_URL) {
            let backend = redis_backend(url.trim()).map_err(|e| ConfigError::InvalidVar {
                var: ENV_REDIS_URL.to_owned(),
                value: url.clone(),
                expected: e.0,
            })?;
            return Ok(Self::with_backend(Some(backend), offline));
        }
        let dir = match get(ENV_CACHE_DIR) {
            Some(dir) if dir.trim().eq_ignore_ascii_case("off") => None,
            Some(dir) => Some(std::path::PathBuf::from(dir.trim())),
            None => default_cache_dir(&get),
        };
        let max_mb = match get(ENV_CACHE_MAX_MB) {
            Some(raw) => crate::config::parse_number(ENV_CACHE_MAX_MB, &raw, 1.0..=1_000_000.0)?,
            None => DEFAULT_CACHE_MAX_MB as f64,
        };
        let Some(dir) = dir else {
            return Ok(Self::with_backend(None, offline));
        };
        let max_bytes = (max_mb * 1_000_000.0) as u64;
        let path = dir.join(STORE_FILE);
        let opener: Opener = Box::new(move || {
            sqlite::SqliteBackend::open(&path, max_bytes)
                .map(|backend| Arc::new(backend) as Arc<dyn Backend>)
                .map_err(|e| {
                    tracing::warn!(
                        error = %e,
                        dir = %dir.display(),
                        "the shared store cannot be opened: keeping answers and budgets in this \
                         process (set {ENV_CACHE_DIR} to a writable folder, or to `off`)"
                    );
                    e
                })
        });
        Ok(Self::opening(Some(opener), offline))
    }

    /// The backend, opened now if this is its first use; `None` in memory.
    fn backend(&self) -> Option<&dyn Backend> {
        self.backend
            .get_or_init(|| {
                let opener = self
                    .opener
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .take()?;
                opener().ok()
            })
            .as_deref()
    }

    /// A store on `backend` that has seen `peers` processes alive (tests of what uses it).
    #[cfg(test)]
    pub(crate) fn on(backend: Arc<dyn Backend>, peers: usize) -> Self {
        let shared = Self::with_backend(Some(backend), false);
        shared.peers.store(peers, Ordering::Relaxed);
        shared
    }

    /// `memory`, `sqlite` or `redis`.
    pub fn kind(&self) -> &'static str {
        self.backend().map_or("memory", Backend::kind)
    }

    /// Whether answers come from the store only.
    pub fn offline(&self) -> bool {
        self.offline
    }

    /// What `/health` reports. It does not open a store not yet used: it names the store
    /// the process will use (an embedded store that then cannot be opened is reported
    /// as memory from then on).
    pub fn health(&self) -> StoreHealth {
        let kind = match self.backend.get() {
            Some(opened) => opened.as_deref().map_or("memory", Backend::kind),
            None if self
                .opener
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .is_some() =>
            {
                "sqlite"
            }
            None => "memory",
        };
        StoreHealth {
            kind,
            degraded: self
                .degraded
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .clone(),
            peers: self.peers(),
            offline: self.offline,
        }
    }

    /// Processes or replicas sharing the budget, as last seen (at least 1).
    pub(crate) fn peers(&self) -> usize {
        self.peers.load(Ordering::Relaxed).max(1)
    }

    /// This process's rank among them (0 up to `peers - 1`).
    pub(crate) fn rank(&self) -> usize {
        self.rank.load(Ordering::Relaxed) % self.peers()
    }

    /// Whether a backend is configured and not degraded.
    pub(crate) fn in_use(&self) -> bool {
        self.backend().is_some()
            && self
                .degraded
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .is_none()
    }

    /// Whether a backend is configured (degraded or not).
    pub(crate) fn configured(&self) -> bool {
        self.backend().is_some()
    }

    /// Run one operation on the backend within the deadline. `None` when there is no
    /// backend or the operation failed (the store is then degraded, logged once).
    pub(crate) async fn run<'a, T>(
        &'a self,
        op: impl FnOnce(&'a dyn Backend) -> StoreFuture<'a, T>,
    ) -> Option<T> {
        self.run_within(OPERATION_DEADLINE, op).await
    }

    /// [`run`](Self::run) with a deadline of its own (an operation on a large entry).
    async fn run_within<'a, T>(
        &'a self,
        deadline: Duration,
        op: impl FnOnce(&'a dyn Backend) -> StoreFuture<'a, T>,
    ) -> Option<T> {
        let backend = self.backend()?;
        let outcome = match tokio::time::timeout(deadline, op(backend)).await {
            Ok(Ok(value)) => Ok(value),
            Ok(Err(e)) => Err(e.0),
            Err(_) => Err(format!("no answer within {} ms", deadline.as_millis())),
        };
        match outcome {
            Ok(value) => {
                self.recovered();
                Some(value)
            }
            Err(why) => {
                self.degrade(why);
                None
            }
        }
    }

    /// [`run`](Self::run), unless the store is degraded: then `None` at once, so a store
    /// that hangs costs calls nothing; the heartbeat finds out when it is back.
    pub(crate) async fn run_if_up<'a, T>(
        &'a self,
        op: impl FnOnce(&'a dyn Backend) -> StoreFuture<'a, T>,
    ) -> Option<T> {
        self.run_if_up_within(OPERATION_DEADLINE, op).await
    }

    /// [`run_if_up`](Self::run_if_up) with a deadline of its own (an operation on a large
    /// entry: an exported table).
    pub(crate) async fn run_if_up_within<'a, T>(
        &'a self,
        deadline: Duration,
        op: impl FnOnce(&'a dyn Backend) -> StoreFuture<'a, T>,
    ) -> Option<T> {
        if !self.in_use() {
            return None;
        }
        self.run_within(deadline, op).await
    }

    fn degrade(&self, why: String) {
        let mut degraded = self.degraded.lock().unwrap_or_else(PoisonError::into_inner);
        if degraded.is_none() {
            let backend = self.backend();
            tracing::warn!(
                store = self.kind(),
                location = backend.map(Backend::location).unwrap_or_default(),
                error = %why,
                peers = self.peers(),
                "the shared store failed: answering from this process's cache and within \
                 rate/{} of each budget until it is back",
                self.peers()
            );
            *degraded = Some(format!("{} unreachable: {why}", self.kind()));
        }
    }

    fn recovered(&self) {
        let mut degraded = self.degraded.lock().unwrap_or_else(PoisonError::into_inner);
        if degraded.take().is_some() {
            tracing::warn!(
                store = self.kind(),
                "the shared store is back: using it again"
            );
        }
    }

    /// Start the heartbeat of `this` (once, from the first request, inside the runtime):
    /// every few seconds, say this process is alive and read how many are. The task holds
    /// only a weak handle, so it ends with the store.
    pub(crate) fn beat_from(this: &Arc<Self>) {
        if this.backend().is_none() || this.heartbeat.set(()).is_err() {
            return;
        }
        let weak = Arc::downgrade(this);
        tokio::spawn(async move {
            loop {
                let Some(shared) = weak.upgrade() else { return };
                let member = shared.member.clone();
                if let Some(members) = shared.run(|b| b.heartbeat(&member, ALIVE_FOR)).await {
                    shared.peers.store(members.alive.max(1), Ordering::Relaxed);
                    shared.rank.store(members.rank, Ordering::Relaxed);
                }
                drop(shared);
                tokio::time::sleep(HEARTBEAT_EVERY).await;
            }
        });
    }

    /// Log once that an offline call found nothing stored (later ones only at debug).
    pub(crate) fn note_offline_miss(&self, url: &str) {
        if !self.warned_offline_miss.swap(true, Ordering::Relaxed) {
            tracing::warn!(url, "offline: nothing stored for this request");
        } else {
            tracing::debug!(url, "offline: nothing stored for this request");
        }
    }
}

/// The platform's cache directory for this program: `$XDG_CACHE_HOME` or `~/.cache` on
/// Linux and other Unixes, `~/Library/Caches` on macOS, `%LOCALAPPDATA%` on Windows; with
/// `lifesciences-mcp` inside. `None` when the environment names none (a test's).
fn default_cache_dir(get: &impl Fn(&str) -> Option<String>) -> Option<std::path::PathBuf> {
    use std::path::PathBuf;
    let base = if cfg!(windows) {
        get("LOCALAPPDATA").map(PathBuf::from)
    } else if cfg!(target_os = "macos") {
        get("HOME").map(|home| PathBuf::from(home).join("Library").join("Caches"))
    } else {
        get("XDG_CACHE_HOME")
            .map(PathBuf::from)
            .filter(|p| p.is_absolute())
            .or_else(|| get("HOME").map(|home| PathBuf::from(home).join(".cache")))
    }?;
    Some(base.join("lifesciences-mcp"))
}

/// The Redis backend for `url`. Connecting happens in the background: Redis is never
/// needed to start.
fn redis_backend(url: &str) -> Result<Arc<dyn Backend>, StoreError> {
    Ok(Arc::new(self::redis::RedisBackend::open(url)?))
}

/// The key an answer is stored under: a digest of the request's identity (method, URL,
/// accepted type, body), so keys stay short whatever the body.
pub(crate) fn answer_key(request: &str) -> String {
    let digest = ring::digest::digest(&ring::digest::SHA256, request.as_bytes());
    let mut key = String::with_capacity(64);
    for byte in digest.as_ref() {
        key.push_str(&format!("{byte:02x}"));
    }
    key
}

/// Milliseconds since the Unix epoch (0 before it).
pub(crate) fn epoch_ms(at: SystemTime) -> i64 {
    at.duration_since(SystemTime::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}

/// The time `ms` milliseconds after the Unix epoch.
pub(crate) fn from_epoch_ms(ms: i64) -> SystemTime {
    SystemTime::UNIX_EPOCH + Duration::from_millis(u64::try_from(ms).unwrap_or(0))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(pairs: &'static [(&'static str, &'static str)]) -> impl Fn(&str) -> Option<String> {
        move |var| {
            pairs
                .iter()
                .find(|(k, _)| *k == var)
                .map(|(_, v)| (*v).to_owned())
        }
    }

    #[test]
    fn no_cache_directory_keeps_everything_in_memory() {
        assert_eq!(Shared::from_env(env(&[])).unwrap().kind(), "memory");
        assert_eq!(
            Shared::from_env(env(&[("HOME", "/home/x"), (ENV_CACHE_DIR, "off")]))
                .unwrap()
                .kind(),
            "memory"
        );
    }

    #[test]
    fn a_setting_of_the_wrong_form_is_a_configuration_error_naming_it() {
        for (var, value) in [
            (ENV_OFFLINE, "maybe"),
            (ENV_CACHE_MAX_MB, "lots"),
            (ENV_CACHE_MAX_MB, "0"),
            (ENV_REDIS_URL, "http://redis:6379"),
        ] {
            let pairs: &'static [(&'static str, &'static str)] =
                Box::leak(vec![(var, value), (ENV_CACHE_DIR, "off")].into_boxed_slice());
            match Shared::from_env(env(pairs)) {
                Err(ConfigError::InvalidVar { var: named, .. }) => assert_eq!(named, var),
                other => panic!("{var}={value}: {other:?}"),
            }
        }
        let offline = Shared::from_env(env(&[(ENV_OFFLINE, "1")])).unwrap();
        assert!(offline.offline());
        let online = Shared::from_env(env(&[(ENV_OFFLINE, "off")])).unwrap();
        assert!(!online.offline());
    }

    #[test]
    fn the_default_directory_follows_the_platform_variables() {
        let dir = default_cache_dir(&|var: &str| match var {
            "HOME" => Some("/home/ada".to_owned()),
            _ => None,
        });
        if cfg!(target_os = "linux") {
            assert_eq!(dir, Some("/home/ada/.cache/lifesciences-mcp".into()));
            let xdg = default_cache_dir(&|var: &str| match var {
                "HOME" => Some("/home/ada".to_owned()),
                "XDG_CACHE_HOME" => Some("/var/cache/ada".to_owned()),
                _ => None,
            });
            assert_eq!(xdg, Some("/var/cache/ada/lifesciences-mcp".into()));
        }
    }

    #[test]
    fn answer_keys_are_sha256_digests() {
        assert_eq!(
            answer_key("abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }
}
