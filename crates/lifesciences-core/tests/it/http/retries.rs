//! Retries: which failures are retried, how often, and what the caller is told when
//! they run out.

use std::time::{Duration, Instant};

use lifesciences_core::testing::{Recording, mock_source, mock_upstream};
use lifesciences_core::{ApiError, ErrorCode, RetryPolicy, UpstreamFailure};
use serde_json::json;
use wiremock::matchers::path;
use wiremock::{Mock, ResponseTemplate};

use super::{attempts, client, get, ok_json};

#[tokio::test]
async fn retry_after_fractional_seconds_is_honoured_then_success() {
    let server = mock_upstream().await;
    let limited = ResponseTemplate::new(429)
        .insert_header("Retry-After", "0.4")
        .insert_header("Content-Type", "text/plain")
        .set_body_string(
            "You have exceeded the limit of 15 requests per second; please reduce your concurrent connections",
        );
    let responder = Recording::sequence(vec![limited.clone(), limited, ok_json()]);
    Mock::given(path("/lookup"))
        .respond_with(responder.clone())
        .mount(&server)
        .await;

    let c = client(mock_source("Ensembl", &server.uri()));
    let value = get(&c, "lookup").await.unwrap();

    assert_eq!(value, json!({"ok": true}));
    let arrivals = responder.arrivals();
    assert_eq!(arrivals.len(), 3, "exactly 3 requests");
    for pair in arrivals.windows(2) {
        let gap = pair[1] - pair[0];
        assert!(
            gap >= Duration::from_millis(400),
            "Retry-After: 0.4 honoured, waited {gap:?}"
        );
    }
}

#[tokio::test]
async fn persistent_503_is_upstream_error_after_at_most_4_requests() {
    let server = mock_upstream().await;
    Mock::given(path("/x"))
        .respond_with(ResponseTemplate::new(503).set_body_string("Service Unavailable"))
        .expect(4)
        .mount(&server)
        .await;
    let c = client(mock_source("STRING", &server.uri()));
    let err = get(&c, "x").await.unwrap_err();
    assert_eq!(err.code(), ErrorCode::UpstreamError);
    assert_eq!(attempts(&err), 4);
    let body = err.to_envelope().error;
    assert!(
        body.message
            .contains("STRING answered HTTP 503 after 4 attempts"),
        "{}",
        body.message
    );
    assert!(
        body.recovery_hint.contains("retry"),
        "{}",
        body.recovery_hint
    );
}

#[tokio::test]
async fn other_4xx_are_never_retried() {
    let server = mock_upstream().await;
    Mock::given(path("/missing"))
        .respond_with(ResponseTemplate::new(404))
        .expect(1)
        .mount(&server)
        .await;
    Mock::given(path("/bad"))
        .respond_with(
            ResponseTemplate::new(400)
                .set_body_json(json!({"error": "ID 'ENSG99999999999' not found"})),
        )
        .expect(1)
        .mount(&server)
        .await;
    let c = client(mock_source("Ensembl", &server.uri()));
    let err = get(&c, "missing").await.unwrap_err();
    assert_eq!(err.upstream_status(), Some(404));
    let err = get(&c, "bad").await.unwrap_err();
    assert_eq!(err.upstream_status(), Some(400));
    assert!(
        err.upstream_body().unwrap().contains("not found"),
        "the body reaches the source client"
    );
}

#[tokio::test]
async fn connection_refused_is_retried_within_bounds_then_upstream_error() {
    let port = {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        listener.local_addr().unwrap().port()
    }; // dropped: nothing listens there now
    let c = client(mock_source(
        "IGVF Catalog",
        &format!("http://127.0.0.1:{port}"),
    ));
    let err = get(&c, "genes").await.unwrap_err();
    assert_eq!(err.code(), ErrorCode::UpstreamError);
    assert_eq!(attempts(&err), 4);
    assert!(
        matches!(
            err,
            ApiError::Upstream {
                failure: UpstreamFailure::Connect { .. },
                ..
            }
        ),
        "{err:?}"
    );
    assert!(
        err.to_envelope()
            .error
            .message
            .contains("could not be reached")
    );
}

#[tokio::test]
async fn timeouts_are_retried_within_bounds_then_upstream_error() {
    let server = mock_upstream().await;
    let responder = Recording::new(ok_json().set_delay(Duration::from_secs(2)));
    Mock::given(path("/slow"))
        .respond_with(responder.clone())
        .mount(&server)
        .await;
    let c = client(mock_source("UniChem", &server.uri()).with_timeout(Duration::from_millis(150)));
    let started = Instant::now();
    let err = get(&c, "slow").await.unwrap_err();
    assert_eq!(err.code(), ErrorCode::UpstreamError);
    assert!(
        matches!(
            err,
            ApiError::Upstream {
                failure: UpstreamFailure::Timeout { .. },
                attempts: 4,
                ..
            }
        ),
        "{err:?}"
    );
    assert_eq!(responder.count(), 4);
    assert!(
        started.elapsed() < Duration::from_secs(2),
        "bounded: {:?}",
        started.elapsed()
    );
}

#[tokio::test]
async fn persistent_429_without_retry_after_is_rate_limited_after_retries() {
    let server = mock_upstream().await;
    Mock::given(path("/x"))
        .respond_with(ResponseTemplate::new(429))
        .expect(4)
        .mount(&server)
        .await;
    let c = client(mock_source("Ensembl", &server.uri()));
    let err = get(&c, "x").await.unwrap_err();
    assert_eq!(err.code(), ErrorCode::RateLimited);
    assert!(err.to_envelope().error.retry_after_secs.unwrap() >= 1);
}

#[tokio::test]
async fn no_retry_policy_means_one_request() {
    let server = mock_upstream().await;
    Mock::given(path("/x"))
        .respond_with(ResponseTemplate::new(502))
        .expect(1)
        .mount(&server)
        .await;
    let c = client(mock_source("ChEMBL", &server.uri()).with_retry(RetryPolicy::NONE));
    assert_eq!(attempts(&get(&c, "x").await.unwrap_err()), 1);
}
