//! Background work of a process that no call waits for (a source's release look-up, a
//! full provenance record kept in the store), and how a process that answers one call and
//! ends (`call`) lets it finish: it prints its answer first, then [`settle`]s within a
//! bound, so the next process finds the work done.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, PoisonError};
use std::time::Duration;

use tokio::task::JoinHandle;

/// Background work a one-shot process should let finish before it exits (a release
/// look-up, a record kept in the store): `call` prints its answer first, then waits for
/// these a bounded time (see [`settle`]), so the next process finds them done.
static CHORES: Mutex<Vec<JoinHandle<()>>> = Mutex::new(Vec::new());

/// Run `chore` in a task of its own, known to [`settle`].
pub(crate) fn spawn(chore: impl std::future::Future<Output = ()> + Send + 'static) {
    let Ok(runtime) = tokio::runtime::Handle::try_current() else {
        return;
    };
    let handle = runtime.spawn(chore);
    let mut chores = CHORES.lock().unwrap_or_else(PoisonError::into_inner);
    chores.retain(|h| !h.is_finished());
    chores.push(handle);
}

/// Wait at most `bound` for the background work started so far (see `spawn`);
/// what is still running then is left to end with the process. Returns how many were
/// still running at the bound.
pub async fn settle(bound: Duration) -> usize {
    let deadline = tokio::time::Instant::now() + bound;
    loop {
        let running: Vec<JoinHandle<()>> = {
            let mut chores = CHORES.lock().unwrap_or_else(PoisonError::into_inner);
            chores.retain(|h| !h.is_finished());
            if chores.is_empty() {
                return 0;
            }
            std::mem::take(&mut *chores)
        };
        let count = running.len();
        let all = futures::future::join_all(running);
        if tokio::time::timeout_at(deadline, all).await.is_err() {
            return count;
        }
    }
}

/// Set by a process that answers one call and ends (`call`): what it would learn in the
/// background and keep only in memory (a source's release, without a store) is not worth
/// asking for.
static ONE_SHOT: AtomicBool = AtomicBool::new(false);

/// Say that this process answers one call and ends (what `ONE_SHOT` is for).
pub fn one_shot() {
    ONE_SHOT.store(true, Ordering::Relaxed);
}

/// Whether this process answers one call and ends (see [`one_shot`]).
pub(crate) fn is_one_shot() -> bool {
    ONE_SHOT.load(Ordering::Relaxed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn settling_waits_for_chores_within_its_bound() {
        let (tx, rx) = tokio::sync::oneshot::channel();
        spawn(async move {
            let _ = tx.send(());
        });
        spawn(async {
            tokio::time::sleep(Duration::from_secs(60)).await;
        });
        let left = settle(Duration::from_millis(50)).await;
        assert!(rx.await.is_ok(), "the quick chore ran");
        assert!(left >= 1, "the slow one was left to end with the process");
    }
}
