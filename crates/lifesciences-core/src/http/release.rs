//! The data release a source serves (`12.0` for STRING, `115` for Ensembl, `ChEMBL_35`),
//! named in the provenance of its answers.
//!
//! **Invariant:** a release look-up never fails or holds up a call for long. It is asked
//! at most once a day per process, in a task of its own, through the source's own
//! politeness (rate, concurrency, retries, cache), and only once a call has read an
//! answer of the source, so it never takes a rate permit ahead of the call's own request.
//! A call waits for it at most [`RELEASE_WAIT`]; a look-up still running then fills the
//! release in for later calls. A failed or unreadable look-up leaves the release unknown
//! until the next day.

use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use futures::FutureExt as _;
use futures::future::{BoxFuture, Shared};

/// How long a release is held before it is asked again (a failed look-up too).
pub(crate) const RELEASE_TTL: Duration = Duration::from_secs(24 * 60 * 60);
/// The longest a call waits for a release look-up before answering without it.
pub(crate) const RELEASE_WAIT: Duration = Duration::from_secs(1);

pub(crate) type Asking = Shared<BoxFuture<'static, Option<Arc<str>>>>;

/// One source's release: not asked yet, being asked, or known (or found unknown) since
/// an instant.
#[derive(Default)]
pub(crate) enum ReleaseState {
    #[default]
    Unasked,
    Asking(Asking),
    Known {
        at: tokio::time::Instant,
        release: Option<Arc<str>>,
    },
}

/// A source's [`ReleaseState`], shared by its client's clones.
#[derive(Default)]
pub(crate) struct Release(Mutex<ReleaseState>);

/// What to do for a call that wants the release now.
pub(crate) enum Next {
    /// Known (or known to be unknown) and fresh.
    Ready(Option<Arc<str>>),
    /// Being asked: wait for it, within [`RELEASE_WAIT`].
    Wait(Asking),
    /// Due: the caller starts the look-up and hands it over with [`Release::asking`].
    Ask,
}

impl Release {
    pub(crate) fn next(&self) -> Next {
        let state = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        match &*state {
            ReleaseState::Known { at, release } if at.elapsed() < RELEASE_TTL => {
                Next::Ready(release.clone())
            }
            ReleaseState::Asking(asking) => Next::Wait(asking.clone()),
            _ => Next::Ask,
        }
    }

    /// The look-up just started: later callers wait for it too. A look-up started by
    /// another caller in the meantime wins.
    pub(crate) fn asking(&self, look_up: BoxFuture<'static, Option<Arc<str>>>) -> Asking {
        let mut state = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        if let ReleaseState::Asking(running) = &*state {
            return running.clone();
        }
        let shared = look_up.shared();
        *state = ReleaseState::Asking(shared.clone());
        shared
    }

    /// The look-up ended.
    pub(crate) fn known(&self, release: Option<Arc<str>>) {
        *self.0.lock().unwrap_or_else(PoisonError::into_inner) = ReleaseState::Known {
            at: tokio::time::Instant::now(),
            release,
        };
    }
}

/// The release in a decoded answer at `pointer`: a string or a number.
pub(crate) fn read(answer: &serde_json::Value, pointer: &str) -> Option<Arc<str>> {
    match answer.pointer(pointer)? {
        serde_json::Value::String(s) if !s.trim().is_empty() => Some(Arc::from(s.trim())),
        serde_json::Value::Number(n) => Some(Arc::from(n.to_string())),
        _ => None,
    }
}

/// Wait for `asking` at most [`RELEASE_WAIT`].
pub(crate) async fn wait(asking: Asking) -> Option<Arc<str>> {
    tokio::time::timeout(RELEASE_WAIT, asking.boxed())
        .await
        .ok()
        .flatten()
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
    }

    #[tokio::test(start_paused = true)]
    async fn a_release_is_asked_once_a_day() {
        let release = Release::default();
        assert!(matches!(release.next(), Next::Ask));
        let asking = release.asking(async { Some(Arc::from("115")) }.boxed());
        assert!(matches!(release.next(), Next::Wait(_)));
        assert_eq!(wait(asking).await.as_deref(), Some("115"));
        release.known(Some(Arc::from("115")));
        assert!(matches!(release.next(), Next::Ready(Some(r)) if &*r == "115"));
        tokio::time::advance(RELEASE_TTL).await;
        assert!(matches!(release.next(), Next::Ask));
    }

    #[tokio::test(start_paused = true)]
    async fn a_slow_look_up_is_not_waited_for_beyond_the_bound() {
        let release = Release::default();
        let asking = release.asking(
            async {
                tokio::time::sleep(RELEASE_WAIT * 3).await;
                Some(Arc::from("late"))
            }
            .boxed(),
        );
        assert_eq!(wait(asking.clone()).await, None);
        // It goes on: a later call gets it.
        assert_eq!(asking.await.as_deref(), Some("late"));
    }
}
