//! What every backend of the shared store must do, checked the same way for each: the
//! tests of `sqlite.rs` and `redis.rs` run [`conformance`] with two backends of one store
//! (two connections to one file, two clients of one server), as two processes or
//! replicas would use it. Each property uses its own keys and hosts, so they can run one
//! after the other on the same store.

use std::time::{Duration, SystemTime};

use bytes::Bytes;

use super::{Backend, Members, Permit, Rule, Stored, epoch_ms, from_epoch_ms};

/// Every property below, in turn, on `a` and `b`: two backends of the same store.
pub(super) async fn conformance(a: &dyn Backend, b: &dyn Backend) {
    answers_are_shared_and_forgotten(a, b).await;
    permits_never_exceed_the_window(a, b).await;
    an_unanswered_request_keeps_counting(a, b).await;
    a_window_frees_itself(a).await;
    pauses_are_shared_and_only_lengthened(a, b).await;
    a_pause_ends_when_its_time_is_up(a).await;
    a_lock_is_held_once_until_given_back_or_its_hold_is_over(a, b).await;
    members_are_counted_while_they_beat(a, b).await;
}

fn rule(allowed: u32) -> Rule {
    Rule {
        allowed,
        window: Duration::from_millis(1000),
        hold: Duration::from_secs(30),
    }
}

/// An answer kept by one is read by the other, with its release and meta, and forgotten
/// for both; an answer replaced keeps nothing of the one before.
async fn answers_are_shared_and_forgotten(a: &dyn Backend, b: &dyn Backend) {
    // Times are kept to the millisecond.
    let now = epoch_ms(SystemTime::now());
    let stored = Stored {
        body: Bytes::from_static(b"{\"x\":1}"),
        retrieved_at: from_epoch_ms(now),
        fresh_until: from_epoch_ms(now + 3_600_000),
        release: Some("2026_02".into()),
        meta: Some(r#"{"status":303}"#.into()),
    };
    a.put("answer", &stored).await.unwrap();
    assert_eq!(b.get("answer").await.unwrap(), Some(stored.clone()));
    let replaced = Stored {
        release: None,
        meta: None,
        ..stored
    };
    b.put("answer", &replaced).await.unwrap();
    assert_eq!(a.get("answer").await.unwrap(), Some(replaced));
    assert_eq!(b.get("no-answer").await.unwrap(), None);
    b.forget("answer").await.unwrap();
    assert_eq!(a.get("answer").await.unwrap(), None);
}

/// Taken in turn or all at once, from both, a window never grants more than `allowed`.
async fn permits_never_exceed_the_window(a: &dyn Backend, b: &dyn Backend) {
    let mut granted = 0;
    for i in 0..10 {
        let store = if i % 2 == 0 { a } else { b };
        if let Permit::Granted { ticket } = store.permit("turns", rule(3)).await.unwrap() {
            granted += 1;
            store.answered("turns", &ticket).await.unwrap();
        }
    }
    assert_eq!(granted, 3);

    // All at once, from both: still the budget, and a distinct ticket each.
    let asks = (0..20).map(|i| if i % 2 == 0 { a } else { b }.permit("at-once", rule(4)));
    let mut tickets: Vec<String> = futures::future::join_all(asks)
        .await
        .into_iter()
        .filter_map(|permit| match permit.unwrap() {
            Permit::Granted { ticket } => Some(ticket),
            _ => None,
        })
        .collect();
    tickets.sort();
    tickets.dedup();
    assert_eq!(tickets.len(), 4);

    // Another host has its own budget.
    assert!(matches!(
        a.permit("own-budget", rule(3)).await.unwrap(),
        Permit::Granted { .. }
    ));
}

/// A granted request counts until its hold is over; once answered, for one window.
async fn an_unanswered_request_keeps_counting(a: &dyn Backend, b: &dyn Backend) {
    let Permit::Granted { ticket } = a.permit("in-flight", rule(1)).await.unwrap() else {
        panic!("the first permit is granted");
    };
    // In flight: the next permit waits until the hold is over.
    let Permit::Wait(wait) = b.permit("in-flight", rule(1)).await.unwrap() else {
        panic!("a second permit waits");
    };
    assert!(
        (Duration::from_secs(29)..=Duration::from_secs(31)).contains(&wait),
        "{wait:?}"
    );
    // Answered: the wait is one window from the answer at most.
    a.answered("in-flight", &ticket).await.unwrap();
    let Permit::Wait(wait) = b.permit("in-flight", rule(1)).await.unwrap() else {
        panic!("still within the window");
    };
    assert!(wait <= Duration::from_millis(1000), "{wait:?}");
    // Answering twice does not make it count longer.
    a.answered("in-flight", &ticket).await.unwrap();
    let Permit::Wait(again) = b.permit("in-flight", rule(1)).await.unwrap() else {
        panic!("still within the window");
    };
    assert!(again <= wait, "{again:?} after {wait:?}");
}

/// A window frees itself once its requests were answered a window ago.
async fn a_window_frees_itself(a: &dyn Backend) {
    let quick = Rule {
        allowed: 1,
        window: Duration::from_millis(100),
        hold: Duration::from_secs(30),
    };
    let Permit::Granted { ticket } = a.permit("quick", quick).await.unwrap() else {
        panic!("the first permit is granted");
    };
    a.answered("quick", &ticket).await.unwrap();
    assert!(matches!(
        a.permit("quick", quick).await.unwrap(),
        Permit::Wait(_)
    ));
    tokio::time::sleep(Duration::from_millis(150)).await;
    assert!(matches!(
        a.permit("quick", quick).await.unwrap(),
        Permit::Granted { .. }
    ));
}

/// A pause set by one is seen by the other; a shorter one never cuts it.
async fn pauses_are_shared_and_only_lengthened(a: &dyn Backend, b: &dyn Backend) {
    a.pause("paused", Duration::from_secs(20), 429)
        .await
        .unwrap();
    b.pause("paused", Duration::from_secs(5), 503)
        .await
        .unwrap();
    match b.permit("paused", rule(5)).await.unwrap() {
        Permit::Paused { left, status } => {
            assert_eq!(status, 429);
            assert!(
                (Duration::from_secs(18)..=Duration::from_secs(20)).contains(&left),
                "{left:?}"
            );
        }
        other => panic!("expected a pause, got {other:?}"),
    }
    b.pause("paused", Duration::from_secs(40), 503)
        .await
        .unwrap();
    match a.permit("paused", rule(5)).await.unwrap() {
        Permit::Paused { left, status } => {
            assert_eq!(status, 503);
            assert!(left > Duration::from_secs(38), "{left:?}");
        }
        other => panic!("expected a pause, got {other:?}"),
    }
    // Other hosts are not paused.
    assert!(matches!(
        a.permit("not-paused", rule(5)).await.unwrap(),
        Permit::Granted { .. }
    ));
}

async fn a_pause_ends_when_its_time_is_up(a: &dyn Backend) {
    a.pause("short-pause", Duration::from_millis(50), 503)
        .await
        .unwrap();
    assert!(matches!(
        a.permit("short-pause", rule(5)).await.unwrap(),
        Permit::Paused { status: 503, .. }
    ));
    tokio::time::sleep(Duration::from_millis(80)).await;
    assert!(matches!(
        a.permit("short-pause", rule(5)).await.unwrap(),
        Permit::Granted { .. }
    ));
}

async fn a_lock_is_held_once_until_given_back_or_its_hold_is_over(
    a: &dyn Backend,
    b: &dyn Backend,
) {
    assert!(a.lock("lock", Duration::from_secs(5)).await.unwrap());
    assert!(!b.lock("lock", Duration::from_secs(5)).await.unwrap());
    assert!(!a.lock("lock", Duration::from_secs(5)).await.unwrap());
    a.unlock("lock").await.unwrap();
    assert!(b.lock("lock", Duration::from_millis(50)).await.unwrap());
    // A holder that never gives it back (it died) holds it for its hold only.
    tokio::time::sleep(Duration::from_millis(80)).await;
    assert!(a.lock("lock", Duration::from_secs(5)).await.unwrap());
}

/// Members alive, and the rank of the one beating: how many alive sort before it.
async fn members_are_counted_while_they_beat(a: &dyn Backend, b: &dyn Backend) {
    let members = |alive, rank| Members { alive, rank };
    assert_eq!(
        a.heartbeat("b", Duration::from_secs(10)).await.unwrap(),
        members(1, 0)
    );
    assert_eq!(
        b.heartbeat("a", Duration::from_secs(10)).await.unwrap(),
        members(2, 0)
    );
    assert_eq!(
        a.heartbeat("b", Duration::from_secs(10)).await.unwrap(),
        members(2, 1)
    );
    assert_eq!(
        b.heartbeat("c", Duration::ZERO).await.unwrap(),
        members(2, 2)
    );
    b.heartbeat("d", Duration::from_millis(50)).await.unwrap();
    tokio::time::sleep(Duration::from_millis(80)).await;
    assert_eq!(
        a.heartbeat("b", Duration::from_secs(10)).await.unwrap(),
        members(2, 1)
    );
}
