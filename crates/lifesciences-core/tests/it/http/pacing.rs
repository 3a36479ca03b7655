//! The source's pace: a Retry-After pauses the whole source, the rate limit spaces
//! requests, and the concurrency cap bounds how many are in flight.

use std::time::{Duration, Instant};

use futures::future::join_all;
use lifesciences_core::ErrorCode;
use lifesciences_core::testing::{Recording, mock_source, mock_upstream};
use serde_json::{Value, json};
use wiremock::matchers::{method, path};
use wiremock::{Mock, ResponseTemplate};

use super::{client, get, ok_json};

#[tokio::test]
async fn a_retry_after_longer_than_we_wait_is_rate_limited_at_once() {
    let server = mock_upstream().await;
    Mock::given(path("/x"))
        .respond_with(ResponseTemplate::new(429).insert_header("Retry-After", "3600"))
        .expect(1)
        .mount(&server)
        .await;
    let c = client(mock_source("Ensembl", &server.uri()));
    let err = get(&c, "x").await.unwrap_err();
    let body = err.to_envelope().error;
    assert_eq!(body.code, ErrorCode::RateLimited);
    assert_eq!(body.retry_after_secs, Some(3600));
}

#[tokio::test]
async fn a_retry_after_pauses_every_request_to_the_source_not_just_the_one_told() {
    let server = mock_upstream().await;
    let told = Recording::sequence(vec![
        ResponseTemplate::new(429).insert_header("Retry-After", "1"),
        ok_json(),
    ]);
    Mock::given(path("/a"))
        .respond_with(told.clone())
        .mount(&server)
        .await;
    let other = Recording::sequence(vec![ok_json()]);
    Mock::given(path("/b"))
        .respond_with(other.clone())
        .mount(&server)
        .await;
    let c = client(mock_source("Ensembl", &server.uri()));

    let (a, b) = tokio::join!(get(&c, "a"), async {
        // Sent once the 429 has come back.
        tokio::time::sleep(Duration::from_millis(200)).await;
        get(&c, "b").await
    });
    assert_eq!(a.unwrap(), json!({"ok": true}));
    assert_eq!(b.unwrap(), json!({"ok": true}));
    let first = told.arrivals()[0];
    let gap = other.arrivals()[0] - first;
    assert!(
        gap >= Duration::from_millis(950),
        "the other request waited out the pause: {gap:?}"
    );
}

#[tokio::test]
async fn during_a_long_pause_other_calls_end_at_once_without_a_request() {
    let server = mock_upstream().await;
    Mock::given(path("/a"))
        .respond_with(ResponseTemplate::new(429).insert_header("Retry-After", "30"))
        .expect(1)
        .mount(&server)
        .await;
    Mock::given(path("/b"))
        .respond_with(ResponseTemplate::new(503).insert_header("Retry-After", "60"))
        .expect(1)
        .mount(&server)
        .await;
    Mock::given(path("/c"))
        .respond_with(ok_json())
        .expect(0)
        .mount(&server)
        .await;
    let c = client(mock_source("Ensembl", &server.uri()));
    assert_eq!(
        get(&c, "a").await.unwrap_err().code(),
        ErrorCode::RateLimited
    );

    let started = Instant::now();
    let err = get(&c, "c").await.unwrap_err();
    assert!(started.elapsed() < Duration::from_secs(1));
    let body = err.to_envelope().error;
    assert_eq!(body.code, ErrorCode::RateLimited);
    let left = body.retry_after_secs.unwrap();
    assert!((29..=30).contains(&left), "{left}");

    // A pause asked by a 503 reads as that 503 (another source's machinery: the pause
    // above belongs to the first client alone).
    let c = client(mock_source("Ensembl", &server.uri()));
    let err = get(&c, "b").await.unwrap_err();
    assert_eq!(err.code(), ErrorCode::UpstreamError);
    let err = get(&c, "c").await.unwrap_err();
    assert_eq!(err.code(), ErrorCode::UpstreamError);
    assert_eq!(err.upstream_status(), Some(503));
}

/// Twenty requests at 5/s: five leave at once, then five per second; no second ever holds
/// more than five.
#[tokio::test]
async fn twenty_requests_at_five_per_second_never_put_more_than_five_in_a_second() {
    let server = mock_upstream().await;
    let responder = Recording::new(ok_json());
    Mock::given(method("GET"))
        .respond_with(responder.clone())
        .mount(&server)
        .await;
    let c = client(
        mock_source("Limited", &server.uri())
            .with_rate(5.0)
            .with_max_concurrent(20),
    );
    // Distinct paths, so coalescing does not merge them.
    let calls = (0..20).map(|i| {
        let c = c.clone();
        async move { c.get_json::<Value>(&format!("item/{i}"), &[]).await }
    });
    for r in join_all(calls).await {
        r.unwrap();
    }
    let arrivals = responder.arrivals();
    assert_eq!(arrivals.len(), 20);
    let span = arrivals[19] - arrivals[0];
    assert!(
        span >= Duration::from_millis(3000),
        "20 requests at 5/s spanned only {span:?}"
    );
    assert_eq!(responder.busiest_second(), 5, "{arrivals:?}");
}

/// A lone call's few requests do not wait for pacing: four requests at 10/s leave
/// together.
#[tokio::test]
async fn a_few_requests_within_the_rate_leave_together() {
    let server = mock_upstream().await;
    let responder = Recording::new(ok_json());
    Mock::given(method("GET"))
        .respond_with(responder.clone())
        .mount(&server)
        .await;
    let c = client(mock_source("Limited", &server.uri()).with_rate(10.0));
    c.get_json::<Value>("warm-up", &[]).await.unwrap();
    for i in 0..4 {
        c.get_json::<Value>(&format!("item/{i}"), &[])
            .await
            .unwrap();
    }
    let arrivals = responder.arrivals();
    let span = arrivals[4] - arrivals[0];
    assert!(
        span < Duration::from_millis(100),
        "five sequential requests at 10/s took {span:?}"
    );
}

#[tokio::test]
async fn the_concurrency_cap_is_never_exceeded() {
    let server = mock_upstream().await;
    let hold = Duration::from_millis(300);
    let responder = Recording::new(ok_json().set_delay(hold));
    Mock::given(method("GET"))
        .respond_with(responder.clone())
        .mount(&server)
        .await;
    let c = client(mock_source("Capped", &server.uri()).with_max_concurrent(2));
    let calls = (0..6).map(|i| {
        let c = c.clone();
        async move { c.get_json::<Value>(&format!("item/{i}"), &[]).await }
    });
    for r in join_all(calls).await {
        r.unwrap();
    }
    let arrivals = responder.arrivals();
    assert_eq!(arrivals.len(), 6);
    // A request occupies its slot for `hold`, so any window shorter than `hold` sees at
    // most 2 arrivals.
    let window = hold - Duration::from_millis(60);
    for (i, t) in arrivals.iter().enumerate() {
        let in_window = arrivals[..=i].iter().filter(|a| *t - **a < window).count();
        assert!(in_window <= 2, "{in_window} requests in flight at once");
    }
    assert!(arrivals[5] - arrivals[0] >= hold * 2 - Duration::from_millis(60));
}
