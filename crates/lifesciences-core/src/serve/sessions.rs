//! The sessions of Streamable HTTP as the transport's guard keeps them: whose each is,
//! when it was last used and whether a request or a stream of it is open, so that at a
//! principal's cap its new session takes the place of its least recently used idle one;
//! and the client's `initialize` parameters, so that an idle session can be put to sleep
//! and woken again.
//!
//! **Invariant:** a session belongs to the principal that opened it: to anyone else it
//! does not exist (a request naming it is 404, as for an unknown one), and the cap counts
//! and evicts a principal's own sessions only.
//!
//! A session rmcp holds costs about 65 kB: channels and tasks, most of it the blocks of
//! tokio's channels, which hold 32 messages each whatever capacity is asked for, so no
//! setting of rmcp's makes it much smaller. A session idle for a while (no request in
//! flight, no open stream) is therefore closed in rmcp and kept here only as a record.
//! Its next request finds the record through rmcp's [`SessionStore`], and rmcp restores
//! the session by replaying its `initialize`, unseen by the client. A session idle for
//! longer than the idle limit is forgotten, and its next request is 404, which tells an
//! MCP client to initialize again.
//!
//! A record allocates nothing of its own: its id is held as the UUID's 128 bits, and its
//! `initialize` parameters, the same for every session of one client program, are kept
//! once for all of them. Small allocations made per session while its channels are being
//! allocated would stay behind when those are freed, scattered through the memory the
//! next sessions need, and the process would keep growing by a few kB per session.

use std::collections::{HashMap, HashSet};
use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use rmcp::transport::streamable_http_server::session::store::{
    SessionState, SessionStore, SessionStoreError,
};
use tokio::time::Instant;

/// Every session of one HTTP server, by id.
#[derive(Debug)]
pub(crate) struct Sessions {
    inner: Mutex<Inner>,
    /// Wakes the requests that wait for their session to be put to sleep.
    slept: tokio::sync::Notify,
    /// Forgotten after this long without a request.
    idle: Duration,
    /// Put to sleep after this long without a request.
    hibernate: Duration,
}

#[derive(Debug, Default)]
struct Inner {
    records: HashMap<Key, Record>,
    /// Every distinct `initialize` parameters of the sessions known, as compact JSON.
    states: HashSet<Arc<str>>,
    /// Every principal owning a session known (see `auth::Owner`), held once.
    owners: HashSet<Arc<str>>,
}

/// A session id: a UUID as rmcp makes them, held as its 128 bits; any other as text.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum Key {
    Uuid(u128),
    Text(Box<str>),
}

impl Key {
    fn new(id: &str) -> Self {
        uuid_bits(id)
            .filter(|bits| uuid_text(*bits) == id)
            .map_or_else(|| Self::Text(id.into()), Self::Uuid)
    }

    /// The id as rmcp knows it.
    fn id(&self) -> Box<str> {
        match self {
            Self::Uuid(bits) => uuid_text(*bits).into(),
            Self::Text(id) => id.clone(),
        }
    }
}

/// The bits of a UUID written `8-4-4-4-12` in hexadecimal.
fn uuid_bits(id: &str) -> Option<u128> {
    let groups: Vec<&str> = id.split('-').collect();
    let lengths: Vec<usize> = groups.iter().map(|g| g.len()).collect();
    if lengths != [8, 4, 4, 4, 12]
        || !groups
            .iter()
            .all(|g| g.bytes().all(|b| b.is_ascii_hexdigit()))
    {
        return None;
    }
    u128::from_str_radix(&groups.concat(), 16).ok()
}

/// A UUID as rmcp writes it: lower-case, hyphenated.
fn uuid_text(bits: u128) -> String {
    let hex = format!("{bits:032x}");
    format!(
        "{}-{}-{}-{}-{}",
        &hex[..8],
        &hex[8..12],
        &hex[12..16],
        &hex[16..20],
        &hex[20..]
    )
}

#[derive(Debug)]
struct Record {
    /// The principal whose session it is (`None` only between rmcp's storing it and the
    /// guard's recording whose it is, before its id has been handed out).
    owner: Option<Arc<str>>,
    /// The client's `initialize` parameters (rmcp's [`SessionState`]) as compact JSON,
    /// shared with every session that sent the same, from the moment rmcp stores them.
    state: Option<Arc<str>>,
    last_used: Instant,
    /// Its requests in flight and its open streams.
    busy: u32,
    /// Held by rmcp (not asleep).
    awake: bool,
    /// Being put to sleep right now: a request for it waits until it sleeps, then rmcp
    /// wakes it, instead of reaching a session that is about to close under it.
    closing: bool,
    /// Never put to sleep: its client chose a log level, which lives in the awake session
    /// (a woken session starts again at warnings and errors).
    stays_awake: bool,
}

/// What a request finds of its session.
#[derive(Debug)]
pub(crate) enum Entry {
    /// Known: the session counts as busy while this lives.
    Busy(Busy),
    /// Being put to sleep: wait for [`Sessions::slept`], then look again.
    Closing,
    /// Forgotten idle just now: close it in rmcp (it may still be awake) and answer 404.
    Expired,
    /// Not known: it ended, was closed to make room, or never existed.
    Unknown,
}

/// Whether a new session fits.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Room {
    /// Below the cap.
    Free,
    /// At the cap: this session, idle the longest, was forgotten to make room (close it
    /// in rmcp); it had been idle this long.
    Evicted(Box<str>, Duration),
    /// At the cap, and every session has a request in flight or a stream open.
    Full,
}

/// What a sweep decided for one session.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Swept {
    /// Idle past the hibernation delay: close it in rmcp, keep its record, then call
    /// [`Sessions::asleep`].
    Sleep(Box<str>),
    /// Idle past the idle limit: forgotten; close it in rmcp.
    Forget(Box<str>),
}

impl Sessions {
    pub(crate) fn new(idle: Duration, hibernate: Duration) -> Self {
        Self {
            inner: Mutex::default(),
            slept: tokio::sync::Notify::new(),
            idle,
            hibernate,
        }
    }

    fn inner(&self) -> std::sync::MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// How often to look for sessions to put to sleep or forget: a quarter of the
    /// shorter delay, between 10 ms and 15 s.
    pub(crate) fn sweep_every(&self) -> Duration {
        (self.idle.min(self.hibernate) / 4)
            .clamp(Duration::from_millis(10), Duration::from_secs(15))
    }

    /// Resolves when a session that was being put to sleep is asleep. Create it before
    /// [`enter`](Self::enter), await it after `Entry::Closing`.
    pub(crate) fn slept(&self) -> tokio::sync::futures::Notified<'_> {
        self.slept.notified()
    }

    /// A request of session `id` by `owner` begins. Another principal's session is
    /// [`Entry::Unknown`], and is left as it is.
    pub(crate) fn enter(self: &Arc<Self>, id: &str, owner: &str) -> Entry {
        let now = Instant::now();
        let key = Key::new(id);
        let mut inner = self.inner();
        let Some(record) = inner
            .records
            .get_mut(&key)
            .filter(|r| r.owner.as_deref() == Some(owner))
        else {
            return Entry::Unknown;
        };
        if record.closing {
            return Entry::Closing;
        }
        if record.busy == 0 && now.duration_since(record.last_used) >= self.idle {
            inner.records.remove(&key);
            return Entry::Expired;
        }
        record.busy += 1;
        record.last_used = now;
        // Asleep, rmcp wakes it for this request.
        record.awake = true;
        Entry::Busy(Busy {
            sessions: Arc::clone(self),
            key,
        })
    }

    /// The client of session `id` chose a log level: keep the session awake.
    pub(crate) fn keep_awake(&self, id: &str) {
        if let Some(record) = self.inner().records.get_mut(&Key::new(id)) {
            record.stays_awake = true;
        }
    }

    /// Whether session `id` is known as `owner`'s (a `DELETE` of another one is 404).
    pub(crate) fn knows(&self, id: &str, owner: &str) -> bool {
        self.inner()
            .records
            .get(&Key::new(id))
            .is_some_and(|r| r.owner.as_deref() == Some(owner))
    }

    /// Session `id`, just opened, is `owner`'s.
    pub(crate) fn own(&self, id: &str, owner: &str) {
        let mut inner = self.inner();
        let owner = match inner.owners.get(owner) {
            Some(known) => Arc::clone(known),
            None => {
                let owner: Arc<str> = Arc::from(owner);
                inner.owners.insert(Arc::clone(&owner));
                owner
            }
        };
        if let Some(record) = inner.records.get_mut(&Key::new(id)) {
            record.owner = Some(owner);
        }
    }

    /// Make room for one more session of `owner` under `cap` (its own sessions): at the
    /// cap, forget its least recently used session that has no request in flight and no
    /// stream open.
    pub(crate) fn make_room(&self, cap: usize, owner: &str) -> Room {
        let now = Instant::now();
        let mut inner = self.inner();
        let owned = |r: &Record| r.owner.as_deref() == Some(owner);
        if inner.records.values().filter(|r| owned(r)).count() < cap {
            return Room::Free;
        }
        let oldest = inner
            .records
            .iter()
            .filter(|(_, r)| owned(r) && r.busy == 0)
            .min_by_key(|(_, r)| r.last_used)
            .map(|(key, r)| (key.clone(), now.duration_since(r.last_used)));
        match oldest {
            Some((key, idle)) => {
                inner.records.remove(&key);
                Room::Evicted(key.id(), idle)
            }
            None => Room::Full,
        }
    }

    /// The sessions to put to sleep or forget now. Each to put to sleep is marked as
    /// closing until [`asleep`](Self::asleep) is told.
    pub(crate) fn sweep(&self) -> Vec<Swept> {
        let now = Instant::now();
        let mut inner = self.inner();
        let mut swept = Vec::new();
        inner.records.retain(|key, r| {
            if r.busy > 0 || r.closing {
                return true;
            }
            let idle = now.duration_since(r.last_used);
            if idle >= self.idle {
                swept.push(Swept::Forget(key.id()));
                false
            } else {
                if r.awake && !r.stays_awake && idle >= self.hibernate {
                    r.awake = false;
                    r.closing = true;
                    swept.push(Swept::Sleep(key.id()));
                }
                true
            }
        });
        // Parameters no session sends any more, principals with no session any more.
        inner.states.retain(|state| Arc::strong_count(state) > 1);
        inner.owners.retain(|owner| Arc::strong_count(owner) > 1);
        swept
    }

    /// The sessions `ids` were closed in rmcp: requests waiting for them go on (and rmcp
    /// wakes them).
    pub(crate) fn asleep<'a>(&self, ids: impl IntoIterator<Item = &'a str>) {
        {
            let mut inner = self.inner();
            for id in ids {
                if let Some(record) = inner.records.get_mut(&Key::new(id)) {
                    record.closing = false;
                }
            }
        }
        self.slept.notify_waiters();
    }

    /// Sessions known, and of them awake (held by rmcp).
    pub(crate) fn counts(&self) -> (usize, usize) {
        let inner = self.inner();
        let awake = inner.records.values().filter(|r| r.awake).count();
        (inner.records.len(), awake)
    }

    fn leave(&self, key: &Key) {
        if let Some(record) = self.inner().records.get_mut(key) {
            record.busy = record.busy.saturating_sub(1);
            record.last_used = Instant::now();
        }
    }

    fn state(&self, id: &str) -> Option<Arc<str>> {
        let now = Instant::now();
        let inner = self.inner();
        let record = inner.records.get(&Key::new(id))?;
        let expired = record.busy == 0 && now.duration_since(record.last_used) >= self.idle;
        if expired { None } else { record.state.clone() }
    }

    fn put_state(&self, id: &str, json: String) {
        let now = Instant::now();
        let mut inner = self.inner();
        let state = match inner.states.get(json.as_str()) {
            Some(state) => Arc::clone(state),
            None => {
                let state: Arc<str> = json.into();
                inner.states.insert(Arc::clone(&state));
                state
            }
        };
        match inner.records.entry(Key::new(id)) {
            std::collections::hash_map::Entry::Occupied(mut record) => {
                record.get_mut().state = Some(state);
            }
            std::collections::hash_map::Entry::Vacant(slot) => {
                slot.insert(Record {
                    owner: None,
                    state: Some(state),
                    last_used: now,
                    busy: 0,
                    awake: true,
                    closing: false,
                    stays_awake: false,
                });
            }
        }
    }

    fn forget(&self, id: &str) {
        self.inner().records.remove(&Key::new(id));
    }
}

/// One request in flight or stream open in a session; its end counts as the session's
/// last use.
#[derive(Debug)]
pub(crate) struct Busy {
    sessions: Arc<Sessions>,
    key: Key,
}

impl Drop for Busy {
    fn drop(&mut self) {
        self.sessions.leave(&self.key);
    }
}

type StoreFuture<'a, T> = Pin<Box<dyn Future<Output = Result<T, SessionStoreError>> + Send + 'a>>;

/// rmcp stores a session's `initialize` parameters here once its handshake is done, loads
/// them to restore a session it does not hold (one put to sleep), and deletes them when
/// the client ends the session. (rmcp declares the trait with `async_trait`; these are the
/// signatures it expands to.)
impl SessionStore for Sessions {
    fn load<'life0, 'life1, 'async_trait>(
        &'life0 self,
        session_id: &'life1 str,
    ) -> StoreFuture<'async_trait, Option<SessionState>>
    where
        'life0: 'async_trait,
        'life1: 'async_trait,
        Self: 'async_trait,
    {
        let state = self.state(session_id);
        Box::pin(async move {
            state
                .map(|json| serde_json::from_str::<SessionState>(&json))
                .transpose()
                .map_err(SessionStoreError::from)
        })
    }

    fn store<'life0, 'life1, 'life2, 'async_trait>(
        &'life0 self,
        session_id: &'life1 str,
        state: &'life2 SessionState,
    ) -> StoreFuture<'async_trait, ()>
    where
        'life0: 'async_trait,
        'life1: 'async_trait,
        'life2: 'async_trait,
        Self: 'async_trait,
    {
        let stored = serde_json::to_string(state).map(|json| self.put_state(session_id, json));
        Box::pin(async move { stored.map_err(SessionStoreError::from) })
    }

    fn delete<'life0, 'life1, 'async_trait>(
        &'life0 self,
        session_id: &'life1 str,
    ) -> StoreFuture<'async_trait, ()>
    where
        'life0: 'async_trait,
        'life1: 'async_trait,
        Self: 'async_trait,
    {
        self.forget(session_id);
        Box::pin(async { Ok(()) })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn state() -> SessionState {
        serde_json::from_value(serde_json::json!({"initialize_params": {
            "protocolVersion": "2025-11-25",
            "capabilities": {},
            "clientInfo": {"name": "test", "version": "0"}
        }}))
        .unwrap()
    }

    /// Session `id`, opened by the principal `P`.
    async fn open(sessions: &Sessions, id: &str) {
        open_as(sessions, id, P).await;
    }

    async fn open_as(sessions: &Sessions, id: &str, owner: &str) {
        sessions.store(id, &state()).await.unwrap();
        sessions.own(id, owner);
    }

    const P: &str = "token:ada";

    #[tokio::test(start_paused = true)]
    async fn at_the_cap_the_least_recently_used_idle_session_makes_room() {
        let sessions = Arc::new(Sessions::new(
            Duration::from_secs(600),
            Duration::from_secs(60),
        ));
        open(&sessions, "a").await;
        tokio::time::advance(Duration::from_secs(1)).await;
        open(&sessions, "b").await;
        tokio::time::advance(Duration::from_secs(1)).await;
        open(&sessions, "c").await;
        assert_eq!(sessions.make_room(4, P), Room::Free);
        // "a" is used again; "b" is now the least recently used.
        tokio::time::advance(Duration::from_secs(1)).await;
        drop(sessions.enter("a", P));
        assert_eq!(
            sessions.make_room(3, P),
            Room::Evicted("b".into(), Duration::from_secs(2))
        );
        assert!(matches!(sessions.enter("b", P), Entry::Unknown));
        // A session with a request in flight is never the one to go.
        let _a = sessions.enter("a", P);
        let _c = sessions.enter("c", P);
        open(&sessions, "d").await;
        let _d = sessions.enter("d", P);
        assert_eq!(sessions.make_room(3, P), Room::Full);
    }

    #[tokio::test(start_paused = true)]
    async fn a_session_is_its_principals_alone_and_so_is_the_cap() {
        let sessions = Arc::new(Sessions::new(
            Duration::from_secs(600),
            Duration::from_secs(60),
        ));
        open_as(&sessions, "a1", "token:ada").await;
        tokio::time::advance(Duration::from_secs(1)).await;
        open_as(&sessions, "b1", "token:bob").await;
        tokio::time::advance(Duration::from_secs(1)).await;
        open_as(&sessions, "a2", "token:ada").await;
        // Another principal's session does not exist for bob: not entered, not known,
        // and left as it was.
        assert!(matches!(sessions.enter("a1", "token:bob"), Entry::Unknown));
        assert!(!sessions.knows("a1", "token:bob"));
        assert!(
            !sessions.knows("a1", "issuer:ada"),
            "a subject named ada is not token:ada"
        );
        assert!(sessions.knows("a1", "token:ada"));
        // At a cap of 2 each, ada's third session evicts her oldest; bob's is untouched,
        // although it is older than ada's second.
        assert_eq!(sessions.make_room(2, "token:bob"), Room::Free);
        assert_eq!(
            sessions.make_room(2, "token:ada"),
            Room::Evicted("a1".into(), Duration::from_secs(2))
        );
        assert!(sessions.knows("b1", "token:bob"));
        // A session not yet recorded as anyone's is no one's.
        sessions.store("x", &state()).await.unwrap();
        assert!(matches!(sessions.enter("x", "anonymous"), Entry::Unknown));
    }

    #[tokio::test(start_paused = true)]
    async fn idle_sessions_sleep_then_are_forgotten_busy_ones_neither() {
        let sessions = Arc::new(Sessions::new(
            Duration::from_secs(600),
            Duration::from_secs(60),
        ));
        open(&sessions, "idle").await;
        open(&sessions, "streaming").await;
        let stream = sessions.enter("streaming", P);
        tokio::time::advance(Duration::from_secs(61)).await;
        assert_eq!(sessions.sweep(), [Swept::Sleep("idle".into())]);
        // While it is being put to sleep a request waits; then it is known, with its state.
        assert!(matches!(sessions.enter("idle", P), Entry::Closing));
        sessions.asleep(["idle"]);
        assert_eq!(sessions.counts(), (2, 1));
        assert!(sessions.load("idle").await.unwrap().is_some());
        assert!(sessions.sweep().is_empty(), "asleep once");
        tokio::time::advance(Duration::from_secs(600)).await;
        assert_eq!(sessions.sweep(), [Swept::Forget("idle".into())]);
        assert!(sessions.load("idle").await.unwrap().is_none());
        assert!(sessions.knows("streaming", P), "an open stream keeps it");
        drop(stream);
        assert!(sessions.sweep().is_empty(), "its stream just ended");
    }

    #[tokio::test(start_paused = true)]
    async fn a_session_whose_client_chose_a_log_level_stays_awake_until_forgotten() {
        let sessions = Arc::new(Sessions::new(
            Duration::from_secs(600),
            Duration::from_secs(60),
        ));
        open(&sessions, "a").await;
        sessions.keep_awake("a");
        tokio::time::advance(Duration::from_secs(120)).await;
        assert!(sessions.sweep().is_empty());
        tokio::time::advance(Duration::from_secs(600)).await;
        assert_eq!(sessions.sweep(), [Swept::Forget("a".into())]);
    }

    #[test]
    fn session_ids_are_held_as_uuid_bits_when_they_are_uuids() {
        let id = "0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0";
        assert_eq!(
            Key::new(id),
            Key::Uuid(0x0f1e2d3c_4b5a_6978_8796_a5b4c3d2e1f0)
        );
        assert_eq!(&*Key::new(id).id(), id);
        // Anything else is kept as written: upper case, no hyphens, a sign, another length.
        for other in [
            "0F1E2D3C-4B5A-6978-8796-A5B4C3D2E1F0",
            "0f1e2d3c4b5a69788796a5b4c3d2e1f0",
            "+f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0",
            "session-1",
        ] {
            assert_eq!(Key::new(other), Key::Text(other.into()), "{other}");
            assert_eq!(&*Key::new(other).id(), other);
        }
    }

    #[tokio::test]
    async fn sessions_of_one_client_program_share_its_initialize_parameters() {
        let sessions = Sessions::new(Duration::from_secs(600), Duration::from_secs(60));
        open(&sessions, "a").await;
        open(&sessions, "b").await;
        assert_eq!(sessions.inner().states.len(), 1);
        sessions.delete("a").await.unwrap();
        sessions.delete("b").await.unwrap();
        sessions.sweep();
        assert!(sessions.inner().states.is_empty());
    }

    #[tokio::test(start_paused = true)]
    async fn a_session_past_the_idle_limit_is_unknown_before_any_sweep() {
        let sessions = Arc::new(Sessions::new(
            Duration::from_secs(10),
            Duration::from_secs(60),
        ));
        open(&sessions, "a").await;
        tokio::time::advance(Duration::from_secs(11)).await;
        assert!(sessions.load("a").await.unwrap().is_none());
        assert!(matches!(sessions.enter("a", P), Entry::Expired));
        assert!(!sessions.knows("a", P));
    }
}
