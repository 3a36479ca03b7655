//! Principals take turns at a source's budget: what the upstream sees when one principal
//! floods a source and another asks a little, counted at the mock, never timed.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use lifesciences_core::principal::{self, Principal};
use lifesciences_core::testing::{mock_source, mock_upstream};
use lifesciences_core::{ErrorCode, HttpClient};
use serde_json::Value;
use wiremock::{Mock, Request, ResponseTemplate};

/// Answers after `delay`, noting which principal's request arrived (the `who` query).
#[derive(Clone, Default)]
struct Arrivals(Arc<Mutex<Vec<String>>>);

impl wiremock::Respond for Arrivals {
    fn respond(&self, request: &Request) -> ResponseTemplate {
        let who = request
            .url
            .query_pairs()
            .find(|(k, _)| k == "who")
            .map(|(_, v)| v.into_owned())
            .unwrap_or_default();
        self.0.lock().unwrap().push(who);
        ResponseTemplate::new(200)
            .set_body_json(serde_json::json!({"ok": true}))
            .set_delay(Duration::from_millis(20))
    }
}

async fn ask(
    client: HttpClient,
    who: Principal,
    n: usize,
) -> Result<Value, lifesciences_core::ApiError> {
    let name = who.name.to_string();
    principal::scope(who, async move {
        client
            .get_json::<Value>("item", &[("who", &name), ("n", &n.to_string())])
            .await
    })
    .await
}

#[tokio::test]
async fn a_light_principal_is_not_queued_behind_a_heavy_ones_requests() {
    let upstream = mock_upstream().await;
    let arrivals = Arrivals::default();
    Mock::given(wiremock::matchers::path("/item"))
        .respond_with(arrivals.clone())
        .mount(&upstream)
        .await;
    // One request in flight at a time: each permit is a turn.
    let client = HttpClient::new(mock_source("Fair", &upstream.uri()).with_max_concurrent(1));
    let heavy = Principal::named("heavy", 1, "");
    let light = Principal::named("light", 1, "");
    let flood: Vec<_> = (0..30)
        .map(|n| tokio::spawn(ask(client.clone(), heavy.clone(), n)))
        .collect();
    // The light principal asks once the flood is under way.
    while arrivals.0.lock().unwrap().len() < 3 {
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    let before = arrivals.0.lock().unwrap().len();
    for n in 0..2 {
        ask(client.clone(), light.clone(), n).await.unwrap();
    }
    let seen = arrivals.0.lock().unwrap().clone();
    let light_at: Vec<usize> = seen
        .iter()
        .enumerate()
        .filter(|(_, who)| *who == "light")
        .map(|(i, _)| i)
        .collect();
    assert_eq!(light_at.len(), 2);
    // Each of its requests waited for at most the heavy request in flight and one turn
    // of the heavy principal's, not for the 27 queued before it.
    assert!(
        light_at[1] <= before + 4,
        "light's requests arrived at {light_at:?} of {seen:?} (it asked after {before})"
    );
    for call in flood {
        call.await.unwrap().unwrap();
    }
    assert_eq!(arrivals.0.lock().unwrap().len(), 32);
}

#[tokio::test]
async fn a_principal_past_its_queue_bound_is_told_to_wait_at_once() {
    let upstream = mock_upstream().await;
    Mock::given(wiremock::matchers::path("/item"))
        .respond_with(
            ResponseTemplate::new(200)
                .set_body_json(serde_json::json!({"ok": true}))
                .set_delay(Duration::from_secs(5)),
        )
        .mount(&upstream)
        .await;
    let client = HttpClient::new(mock_source("Bounded", &upstream.uri()).with_max_concurrent(1));
    let flood = Principal::named("flood", 1, "");
    // More than one in flight and a full queue.
    let queued: Vec<_> = (0..300)
        .map(|n| tokio::spawn(ask(client.clone(), flood.clone(), n)))
        .collect();
    // The queue is full once the flood's last requests were refused (one is in flight,
    // 256 wait); the next request is refused at once, without a request.
    for _ in 0..500 {
        if queued.iter().filter(|t| t.is_finished()).count() >= 300 - 257 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let refused = tokio::time::timeout(
        Duration::from_millis(500),
        ask(client.clone(), flood.clone(), 999),
    )
    .await
    .ok()
    .and_then(Result::err);
    let e = refused.expect("a request past the bound is refused");
    assert_eq!(e.code(), ErrorCode::RateLimited);
    let envelope = e.to_envelope();
    assert!(envelope.error.retry_after_secs.is_some_and(|s| s >= 1));
    assert!(
        envelope.error.message.contains("waiting for their turn"),
        "{}",
        envelope.error.message
    );
    // Another principal still queues.
    let other = tokio::spawn(ask(client.clone(), Principal::named("other", 1, ""), 0));
    tokio::time::sleep(Duration::from_millis(50)).await;
    assert!(!other.is_finished(), "queued, not refused");
    for call in queued {
        call.abort();
    }
    other.abort();
}
