//! The data release a source serves (`12.0` for STRING, `115` for Ensembl, `ChEMBL_35`,
//! `2026_02` for UniProt), named in the provenance of its answers.
//!
//! Each answer keeps the release it was retrieved under (the cache and the store keep it
//! with the body), so an answer served later still cites the release it came from. A
//! source that names its release in every answer (a response header) is read there, with
//! no request of its own. A source that must be asked has one look-up per day per store:
//!
//! **Invariant:** a release never delays an answer. Nothing on a call's path waits for a
//! look-up: the call names the release known when its answers were retrieved, or none. The
//! look-up runs in a task of its own, started once a call has read an answer of the
//! source; it first reads the store (another process may have asked today), then takes the
//! store's lock on the look-up (so one process asks for all), and waits until the source
//! is idle (no request in flight or counted in the rate window), so it never takes a rate
//! permit from a call's own request. What it found is kept in the store for a day, a
//! failure for an hour, so no process asks again meanwhile.

use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, SystemTime};

use bytes::Bytes;

use super::HttpClient;
use super::shared::{self, Held};
use crate::config::ReleaseCheck;
use crate::store;

/// How long a found release is held before it is asked again.
pub(crate) const RELEASE_TTL: Duration = Duration::from_secs(24 * 60 * 60);
/// How long a failed look-up (the endpoint down, or answering something unexpected) is
/// remembered, in this process and in the store, before it is asked again.
pub(crate) const FAILED_TTL: Duration = Duration::from_secs(60 * 60);
/// How often a look-up waiting for the source to be idle looks again.
const IDLE_POLL: Duration = Duration::from_millis(100);
/// How often a process waiting for another's look-up reads the store.
const STORE_POLL: Duration = Duration::from_millis(250);

/// What this process knows of a source's release.
#[derive(Debug, Default)]
enum State {
    /// Nothing yet: the next answer read starts a look-up.
    #[default]
    Unknown,
    /// A look-up task is running.
    Looking,
    /// Known (or known to be unknown) as of `checked`, until `until`.
    Known {
        checked: SystemTime,
        release: Option<Arc<str>>,
        until: SystemTime,
    },
}

/// A source's release as this process knows it, shared by its client's clones.
#[derive(Debug, Default)]
pub(crate) struct Release(Mutex<State>);

impl Release {
    /// The release an answer retrieved at `at` was served under, as far as known: the
    /// release checked within a day of `at`. Never waits.
    pub(crate) fn at(&self, at: SystemTime) -> Option<Arc<str>> {
        match &*self.0.lock().unwrap_or_else(PoisonError::into_inner) {
            State::Known {
                checked,
                release: Some(release),
                ..
            } if distance(*checked, at) < RELEASE_TTL => Some(Arc::clone(release)),
            _ => None,
        }
    }

    /// Whether a look-up is due now; if so, it counts as started (the caller starts it).
    pub(crate) fn start_if_due(&self) -> bool {
        let mut state = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        let due = match &*state {
            State::Unknown => true,
            State::Looking => false,
            State::Known { until, .. } => SystemTime::now() >= *until,
        };
        if due {
            *state = State::Looking;
        }
        due
    }

    /// Whether a look-up is running (`Some(true)`), done (`Some(false)`), or not asked
    /// yet (`None`); for tests.
    #[cfg(test)]
    pub(crate) fn start_if_due_peek(&self) -> Option<bool> {
        match &*self.0.lock().unwrap_or_else(PoisonError::into_inner) {
            State::Unknown => None,
            State::Looking => Some(true),
            State::Known { .. } => Some(false),
        }
    }

    /// What a look-up (or the store, or an answer's header) found, checked at `checked`.
    pub(crate) fn known(&self, release: Option<Arc<str>>, checked: SystemTime) {
        let ttl = if release.is_some() {
            RELEASE_TTL
        } else {
            FAILED_TTL
        };
        *self.0.lock().unwrap_or_else(PoisonError::into_inner) = State::Known {
            checked,
            release,
            until: checked + ttl,
        };
    }
}

fn distance(a: SystemTime, b: SystemTime) -> Duration {
    a.duration_since(b)
        .or_else(|_| b.duration_since(a))
        .unwrap_or_default()
}

/// The release in a decoded answer at `pointer`: a string or a number.
pub(crate) fn read(answer: &serde_json::Value, pointer: &str) -> Option<Arc<str>> {
    match answer.pointer(pointer)? {
        serde_json::Value::String(s) if !s.trim().is_empty() => Some(Arc::from(s.trim())),
        serde_json::Value::Number(n) => Some(Arc::from(n.to_string())),
        _ => None,
    }
}

/// A release as a response header gives it (`X-UniProt-Release: 2026_02`).
pub(crate) fn from_header(value: &str) -> Option<Arc<str>> {
    let value = value.trim();
    (!value.is_empty() && value.len() <= 64).then(|| Arc::from(value))
}

impl HttpClient {
    /// Start the source's release look-up in the background if it is due (see the
    /// module's invariant). Never waits.
    pub(super) fn refresh_release(&self) {
        let config = &self.inner.config;
        let Some(ReleaseCheck::Ask {
            path,
            query,
            pointer,
        }) = config.upstream.release
        else {
            return;
        };
        if !config.ask_release || self.inner.store.offline() {
            return;
        }
        // A process that answers one call and ends keeps nothing it learns unless the
        // store does: without one it does not ask.
        if crate::chores::is_one_shot() && !self.inner.store.configured() {
            return;
        }
        if !self.inner.release.start_if_due() {
            return;
        }
        let this = self.clone();
        crate::chores::spawn(async move { this.look_up_release(path, query, pointer).await });
    }

    async fn look_up_release(
        self,
        path: &'static str,
        query: &'static [(&'static str, &'static str)],
        pointer: &'static str,
    ) {
        let store = Arc::clone(&self.inner.store);
        let key = store::answer_key(&format!("release {}", self.inner.budget.key()));
        if self.stored_release(&key).await {
            return;
        }
        let hold = self.inner.config.timeout + Duration::from_secs(5);
        let mut lock = None;
        match store.run_if_up(|b| b.lock(&key, hold)).await {
            Some(true) => lock = Some(Held::new(Arc::clone(&store), key.clone())),
            // Another process is asking: wait for what it finds, then ask only if it
            // found nothing in time.
            Some(false) => {
                let deadline = tokio::time::Instant::now() + hold;
                while tokio::time::Instant::now() < deadline {
                    tokio::time::sleep(STORE_POLL).await;
                    if self.stored_release(&key).await {
                        return;
                    }
                }
            }
            None => {}
        }
        // Never ahead of a call's own request: wait until the source is idle.
        while !self.idle() {
            tokio::time::sleep(IDLE_POLL).await;
        }
        let name = self.inner.config.name();
        let found = match self.get_json::<serde_json::Value>(path, query).await {
            Ok(answer) => {
                let found = read(&answer, pointer);
                if found.is_none() {
                    tracing::warn!(source = %name, pointer, "the release look-up does not name a release: asked again in an hour");
                }
                found
            }
            Err(e) => {
                tracing::warn!(source = %name, error = %e, "the release look-up failed: answers name no release; asked again in an hour");
                None
            }
        };
        let checked = SystemTime::now();
        self.inner.release.known(found.clone(), checked);
        let ttl = if found.is_some() {
            RELEASE_TTL
        } else {
            FAILED_TTL
        };
        let kept = store::Stored {
            body: Bytes::from(found.as_deref().unwrap_or_default().to_owned()),
            retrieved_at: checked,
            fresh_until: checked + ttl,
            release: None,
            meta: None,
        };
        shared::keep(&store, &key, &kept).await;
        if let Some(lock) = lock {
            lock.release().await;
        }
    }

    /// Whether the store holds today's release (or a failure of the last hour); if so it
    /// is now known here too.
    async fn stored_release(&self, key: &str) -> bool {
        let Some(stored) = shared::lookup(&self.inner.store, key).await else {
            return false;
        };
        let release = std::str::from_utf8(&stored.body).ok().and_then(from_header);
        self.inner.release.known(release, stored.retrieved_at);
        true
    }

    /// No request of the source in flight or waiting, and a permit free now.
    fn idle(&self) -> bool {
        self.inner.permits.available_permits() >= self.inner.config.max_concurrent.max(1)
            && self.inner.budget.has_room()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_release_is_read_as_a_string_or_a_number() {
        let string = json!([{"string_version": "12.0", "stable_address": "https://version-12-0.string-db.org"}]);
        assert_eq!(read(&string, "/0/string_version").as_deref(), Some("12.0"));
        assert_eq!(
            read(&json!({"releases": [115]}), "/releases/0").as_deref(),
            Some("115")
        );
        assert_eq!(read(&json!({"releases": []}), "/releases/0"), None);
        assert_eq!(read(&json!({"status": "UP"}), "/chembl_db_version"), None);
        assert_eq!(read(&json!({"v": {"x": 1}}), "/v"), None);
        assert_eq!(from_header(" 2026_02 ").as_deref(), Some("2026_02"));
        assert_eq!(from_header(""), None);
    }

    #[test]
    fn a_release_is_looked_up_once_until_it_is_due_again() {
        let release = Release::default();
        assert!(release.start_if_due());
        assert!(!release.start_if_due(), "one look-up at a time");
        let now = SystemTime::now();
        release.known(Some(Arc::from("115")), now);
        assert!(!release.start_if_due());
        assert_eq!(release.at(now).as_deref(), Some("115"));
        // An answer retrieved within a day of the check was served under it; one
        // retrieved longer before or after, perhaps not.
        assert_eq!(release.at(now - RELEASE_TTL / 2).as_deref(), Some("115"));
        assert_eq!(release.at(now + RELEASE_TTL * 2), None);
        // Checked more than a day ago: due again.
        release.known(Some(Arc::from("115")), now - RELEASE_TTL);
        assert!(release.start_if_due());
    }

    #[test]
    fn a_failed_look_up_is_remembered_for_an_hour() {
        let release = Release::default();
        assert!(release.start_if_due());
        let now = SystemTime::now();
        release.known(None, now);
        assert!(!release.start_if_due());
        assert_eq!(release.at(now), None);
        release.known(None, now - FAILED_TTL);
        assert!(release.start_if_due());
    }
}
