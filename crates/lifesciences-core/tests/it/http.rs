//! The HTTP machinery against mock upstreams: retries, rate limits, concurrency cap,
//! cache, coalescing, body cap, decoding, and the shape of the requests we send.

use std::time::{Duration, Instant};

use futures::future::join_all;
use lifesciences_core::testing::{LogCapture, Recording, mock_source, mock_upstream};
use lifesciences_core::{
    ApiError, ErrorCode, HttpClient, RetryPolicy, SourceConfig, UpstreamFailure,
};
use serde::Deserialize;
use serde_json::{Value, json};
use wiremock::matchers::{body_json, body_string, header, method, path, query_param};
use wiremock::{Mock, ResponseTemplate};

fn client(config: SourceConfig) -> HttpClient {
    HttpClient::new(config)
}

fn ok_json() -> ResponseTemplate {
    ResponseTemplate::new(200).set_body_json(json!({"ok": true}))
}

async fn get(c: &HttpClient, p: &str) -> Result<Value, ApiError> {
    c.get_json::<Value>(p, &[]).await
}

fn attempts(e: &ApiError) -> u32 {
    match e {
        ApiError::Upstream { attempts, .. } => *attempts,
        other => panic!("not an upstream error: {other:?}"),
    }
}

// ---------------------------------------------------------------------------------------
// Retries

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

// ---------------------------------------------------------------------------------------
// Redirects

#[tokio::test]
async fn a_redirect_within_the_upstream_is_followed() {
    let server = mock_upstream().await;
    Mock::given(path("/old"))
        .respond_with(ResponseTemplate::new(301).insert_header("location", "/new"))
        .expect(1)
        .mount(&server)
        .await;
    Mock::given(path("/new"))
        .respond_with(ok_json())
        .expect(1)
        .mount(&server)
        .await;
    let c = client(mock_source("Items", &server.uri()));
    assert_eq!(get(&c, "old").await.unwrap(), json!({"ok": true}));
}

#[tokio::test]
async fn a_redirect_to_another_host_is_refused_once_naming_the_location() {
    let server = mock_upstream().await;
    // Another host (here another port of the loopback): it must never be asked.
    let elsewhere = mock_upstream().await;
    let location = format!("{}/stolen", elsewhere.uri());
    Mock::given(path("/moved"))
        .respond_with(ResponseTemplate::new(301).insert_header("location", location.as_str()))
        .expect(1)
        .mount(&server)
        .await;
    // An unresolvable name is refused before any DNS look-up.
    Mock::given(path("/nowhere"))
        .respond_with(
            ResponseTemplate::new(302).insert_header("location", "http://no-such-host.invalid/x"),
        )
        .expect(1)
        .mount(&server)
        .await;
    let c = client(mock_source("Items", &server.uri()));
    let err = get(&c, "moved").await.unwrap_err();
    assert_eq!(err.code(), ErrorCode::UpstreamError);
    assert_eq!(attempts(&err), 1, "a refused redirect is not retried");
    let body = err.to_envelope().error;
    assert!(body.message.contains(&location), "{}", body.message);
    let err = get(&c, "nowhere").await.unwrap_err();
    assert!(
        err.to_envelope()
            .error
            .message
            .contains("no-such-host.invalid"),
        "{err}"
    );
}

#[tokio::test]
async fn a_redirect_loop_within_the_upstream_stops_after_three_hops() {
    let server = mock_upstream().await;
    Mock::given(path("/loop"))
        .respond_with(ResponseTemplate::new(302).insert_header("location", "/loop"))
        .expect(4)
        .mount(&server)
        .await;
    let c = client(mock_source("Items", &server.uri()));
    let err = get(&c, "loop").await.unwrap_err();
    assert_eq!(err.code(), ErrorCode::UpstreamError);
    assert!(
        err.to_envelope()
            .error
            .message
            .contains("more than 3 redirects"),
        "{err}"
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

// ---------------------------------------------------------------------------------------
// Rate limit and concurrency

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

// ---------------------------------------------------------------------------------------
// Cache and coalescing

#[tokio::test]
async fn a_repeated_get_is_served_from_the_cache() {
    let server = mock_upstream().await;
    Mock::given(path("/gene"))
        .respond_with(ok_json())
        .expect(1)
        .mount(&server)
        .await;
    let c = client(mock_source("Ensembl", &server.uri()));
    for _ in 0..3 {
        assert_eq!(get(&c, "gene").await.unwrap(), json!({"ok": true}));
    }
}

#[tokio::test]
async fn eight_concurrent_identical_gets_make_one_upstream_request() {
    let server = mock_upstream().await;
    Mock::given(path("/gene"))
        .respond_with(ok_json().set_delay(Duration::from_millis(200)))
        .expect(1)
        .mount(&server)
        .await;
    // TTL 0: no cache, so only coalescing can explain a single request.
    let c = client(mock_source("Ensembl", &server.uri()).with_cache_ttl(Duration::ZERO));
    let results = join_all((0..8).map(|_| get(&c, "gene"))).await;
    assert!(
        results
            .iter()
            .all(|r| r.as_ref().unwrap() == &json!({"ok": true}))
    );
}

#[tokio::test]
async fn coalesced_callers_all_see_the_same_error() {
    let server = mock_upstream().await;
    Mock::given(path("/gene"))
        .respond_with(ResponseTemplate::new(404).set_delay(Duration::from_millis(200)))
        .expect(1)
        .mount(&server)
        .await;
    let c = client(mock_source("Ensembl", &server.uri()));
    for r in join_all((0..8).map(|_| get(&c, "gene"))).await {
        assert_eq!(r.unwrap_err().upstream_status(), Some(404));
    }
}

#[tokio::test]
async fn ttl_zero_disables_the_cache() {
    let server = mock_upstream().await;
    Mock::given(path("/gene"))
        .respond_with(ok_json())
        .expect(2)
        .mount(&server)
        .await;
    let c = client(mock_source("Ensembl", &server.uri()).with_cache_ttl(Duration::ZERO));
    get(&c, "gene").await.unwrap();
    get(&c, "gene").await.unwrap();
}

#[tokio::test]
async fn errors_are_not_cached() {
    let server = mock_upstream().await;
    let responder = Recording::sequence(vec![ResponseTemplate::new(404), ok_json()]);
    Mock::given(path("/gene"))
        .respond_with(responder.clone())
        .mount(&server)
        .await;
    let c = client(mock_source("Ensembl", &server.uri()));
    assert!(get(&c, "gene").await.is_err());
    assert!(get(&c, "gene").await.is_ok());
    assert_eq!(responder.count(), 2);
}

#[tokio::test]
async fn different_query_parameters_are_different_cache_entries() {
    let server = mock_upstream().await;
    Mock::given(path("/s"))
        .and(query_param("q", "a"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!("A")))
        .expect(1)
        .mount(&server)
        .await;
    Mock::given(path("/s"))
        .and(query_param("q", "b"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!("B")))
        .expect(1)
        .mount(&server)
        .await;
    let c = client(mock_source("X", &server.uri()));
    for _ in 0..2 {
        assert_eq!(
            c.get_json::<Value>("s", &[("q", "a")]).await.unwrap(),
            json!("A")
        );
        assert_eq!(
            c.get_json::<Value>("s", &[("q", "b")]).await.unwrap(),
            json!("B")
        );
    }
}

// ---------------------------------------------------------------------------------------
// Bodies

#[tokio::test]
async fn a_40_mib_body_is_refused_as_upstream_error() {
    let server = mock_upstream().await;
    Mock::given(path("/huge"))
        .respond_with(ResponseTemplate::new(200).set_body_bytes(vec![b' '; 40 * 1024 * 1024]))
        .expect(1) // never retried
        .mount(&server)
        .await;
    let c = client(mock_source("IGVF Catalog", &server.uri()));
    let err = get(&c, "huge").await.unwrap_err();
    assert!(
        matches!(
            err,
            ApiError::Upstream {
                failure: UpstreamFailure::TooLarge { limit: 33_554_432 },
                ..
            }
        ),
        "{err:?}"
    );
    assert!(
        err.to_envelope()
            .error
            .message
            .contains("larger than 32 MiB")
    );
}

/// A server that answers with an endless chunked body and reports how much it wrote
/// before the client hung up.
async fn endless_body_server() -> (String, tokio::task::JoinHandle<usize>) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let task = tokio::spawn(async move {
        let (mut socket, _) = listener.accept().await.unwrap();
        let mut head = [0u8; 4096];
        let _ = socket.read(&mut head).await;
        let _ = socket
            .write_all(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n")
            .await;
        let chunk = vec![b'['; 1024 * 1024];
        let mut written = 0usize;
        loop {
            let frame = [format!("{:x}\r\n", chunk.len()).as_bytes(), &chunk, b"\r\n"].concat();
            if socket.write_all(&frame).await.is_err() {
                return written;
            }
            written += chunk.len();
            if written > 1024 * 1024 * 1024 {
                return written; // 1 GiB: the client clearly did not stop
            }
        }
    });
    (url, task)
}

#[tokio::test]
async fn an_endless_body_without_length_is_cut_at_the_cap() {
    let (url, server) = endless_body_server().await;
    let c = client(mock_source("IGVF Catalog", &url));
    let err = get(&c, "stream").await.unwrap_err();
    assert!(
        matches!(
            err,
            ApiError::Upstream {
                failure: UpstreamFailure::TooLarge { .. },
                ..
            }
        ),
        "{err:?}"
    );
    drop(c);
    let written = server.await.unwrap();
    // The client stopped reading near the cap instead of buffering everything.
    assert!(written < 64 * 1024 * 1024, "server wrote {written} bytes");
}

#[derive(Debug, Deserialize)]
#[expect(dead_code, reason = "decoded only to exercise the decoder")]
struct Partner {
    score: f64,
}

impl lifesciences_core::Row for Partner {
    fn usable(&self) -> bool {
        true
    }
}

#[tokio::test]
async fn malformed_json_is_upstream_error_in_plain_words_and_the_log_names_the_path() {
    let server = mock_upstream().await;
    Mock::given(path("/network"))
        .respond_with(
            ResponseTemplate::new(200).set_body_json(json!([{"score": 0.9}, {"score": "high"}])),
        )
        .mount(&server)
        .await;
    Mock::given(path("/truncated"))
        .respond_with(ResponseTemplate::new(200).set_body_string(r#"[{"score": 0.9}, {"sco"#))
        .mount(&server)
        .await;
    let c = client(mock_source("STRING", &server.uri()));
    let logs = LogCapture::start();
    let err = c
        .get_json::<Vec<Partner>>("network", &[])
        .await
        .unwrap_err();
    let ApiError::Upstream {
        failure: UpstreamFailure::Decode { path, .. },
        ..
    } = &err
    else {
        panic!("{err:?}")
    };
    assert_eq!(path, "[1].score");
    assert_eq!(err.code(), ErrorCode::UpstreamError);
    // The agent reads plain words; the decoder's text and the path go to the log.
    let message = err.to_envelope().error.message;
    assert_eq!(
        message,
        "STRING answered with a body that is not the JSON it documents."
    );
    let err = c
        .get_json::<Vec<Partner>>("truncated", &[])
        .await
        .unwrap_err();
    assert!(matches!(
        err,
        ApiError::Upstream {
            failure: UpstreamFailure::Decode { .. },
            ..
        }
    ));
    let logged = logs.contents();
    assert!(logged.contains("path=[1].score"), "{logged}");
    assert!(logged.contains("undecodable upstream response"), "{logged}");
}

#[tokio::test]
async fn an_html_page_instead_of_json_is_upstream_error_not_a_panic() {
    let server = mock_upstream().await;
    Mock::given(path("/lookup"))
        .respond_with(
            ResponseTemplate::new(200).set_body_string("<html><body>Maintenance</body></html>"),
        )
        .mount(&server)
        .await;
    let c = client(mock_source("Ensembl", &server.uri()));
    let err = get(&c, "lookup").await.unwrap_err();
    assert_eq!(err.code(), ErrorCode::UpstreamError);
}

// ---------------------------------------------------------------------------------------
// What we send

#[tokio::test]
async fn requests_ask_for_json_identify_us_and_carry_default_query() {
    let server = mock_upstream().await;
    Mock::given(method("GET"))
        .and(path("/api/json/get_string_ids"))
        .and(header("accept", "application/json"))
        .and(header("user-agent", "string-mcp/test"))
        .and(query_param("caller_identity", "lifesciences-mcp"))
        .and(query_param("identifiers", "TP53"))
        .respond_with(ok_json())
        .expect(1)
        .mount(&server)
        .await;
    // Base URL with a path and a trailing slash; the request path with a leading slash.
    let config = mock_source("STRING", &format!("{}/api/", server.uri()))
        .with_user_agent("string-mcp/test")
        .with_default_query("caller_identity", "lifesciences-mcp");
    let c = client(config);
    c.get_json::<Value>("/json/get_string_ids", &[("identifiers", "TP53")])
        .await
        .unwrap();
}

#[tokio::test]
async fn post_form_and_post_json_send_their_bodies() {
    let server = mock_upstream().await;
    Mock::given(method("POST"))
        .and(path("/json/network"))
        .and(header("content-type", "application/x-www-form-urlencoded"))
        .and(body_string("identifiers=TP53%0DMDM2&species=9606"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!([])))
        .expect(1)
        .mount(&server)
        .await;
    Mock::given(method("POST"))
        .and(path("/lookup/id"))
        .and(header("content-type", "application/json"))
        .and(header("accept", "application/json"))
        .and(body_json(json!({"ids": ["ENSG00000141510"]})))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({"ENSG00000141510": {}})))
        .expect(1)
        .mount(&server)
        .await;
    let c = client(mock_source("X", &server.uri()));
    let _: Value = c
        .post_form(
            "json/network",
            &[("identifiers", "TP53\rMDM2"), ("species", "9606")],
        )
        .await
        .unwrap();
    let _: Value = c
        .post_json("lookup/id", &json!({"ids": ["ENSG00000141510"]}))
        .await
        .unwrap();
}

/// A PNG's first bytes, as an image check looks for them.
const PNG: &[u8] = b"\x89PNG\r\n\x1a\n";

fn png_check(body: &[u8]) -> Result<(), String> {
    if body.starts_with(PNG) {
        Ok(())
    } else {
        Err("X sent something other than a PNG image".to_owned())
    }
}

#[tokio::test]
async fn a_raw_body_has_its_own_cap_and_media_type_and_a_refused_one_is_not_cached() {
    let server = mock_upstream().await;
    let mut image = PNG.to_vec();
    image.extend(vec![0u8; 4096]);
    Mock::given(method("POST"))
        .and(path("/image/network"))
        .and(header("accept", "image/png"))
        .respond_with(ResponseTemplate::new(200).set_body_raw(image.clone(), "image/png"))
        .mount(&server)
        .await;
    let html = Recording::new(
        ResponseTemplate::new(200).set_body_raw(b"<html>busy</html>".to_vec(), "text/html"),
    );
    Mock::given(method("POST"))
        .and(path("/image/other"))
        .respond_with(html.clone())
        .mount(&server)
        .await;
    // A source cap far below the image, and the cache on for POSTs.
    let c = client(
        mock_source("X", &server.uri())
            .with_max_body_bytes(16)
            .with_cached_posts()
            .with_cache_ttl(Duration::from_secs(60)),
    );
    let form = [("identifiers", "TP53")];

    let body = c
        .post_form_bytes("image/network", &form, "image/png", 8192, png_check)
        .await
        .unwrap();
    assert_eq!(body.len(), image.len());

    let over = c
        .post_form_bytes("image/network", &form, "image/png", 1024, png_check)
        .await
        .unwrap_err();
    assert!(
        matches!(
            over,
            ApiError::Upstream {
                failure: UpstreamFailure::TooLarge { limit: 1024 },
                ..
            }
        ),
        "{over:?}"
    );

    for _ in 0..2 {
        let refused = c
            .post_form_bytes("image/other", &form, "image/png", 8192, png_check)
            .await
            .unwrap_err();
        assert_eq!(refused.code(), ErrorCode::UpstreamError);
        assert!(
            refused.to_string().contains("other than a PNG"),
            "{refused}"
        );
    }
    assert_eq!(
        html.count(),
        2,
        "a refused body is asked for again, not cached"
    );
}

#[tokio::test]
async fn look_up_posts_are_retried_but_not_cached() {
    let server = mock_upstream().await;
    let responder = Recording::sequence(vec![ResponseTemplate::new(503), ok_json()]);
    Mock::given(method("POST"))
        .respond_with(responder.clone())
        .mount(&server)
        .await;
    let c = client(mock_source("X", &server.uri()));
    let _: Value = c.post_json("lookup/id", &json!({"ids": []})).await.unwrap();
    assert_eq!(responder.count(), 2, "retried once");
    let _: Value = c.post_json("lookup/id", &json!({"ids": []})).await.unwrap();
    assert_eq!(responder.count(), 3, "not cached");
}

#[tokio::test]
async fn a_source_may_opt_in_to_caching_its_look_up_posts_keyed_by_body() {
    let server = mock_upstream().await;
    let responder = Recording::new(ok_json());
    Mock::given(method("POST"))
        .respond_with(responder.clone())
        .mount(&server)
        .await;
    let c = client(mock_source("UniChem", &server.uri()).with_cached_posts());
    for _ in 0..3 {
        let _: Value = c
            .post_json("compounds", &json!({"compound": "CHEMBL25"}))
            .await
            .unwrap();
    }
    assert_eq!(responder.count(), 1, "served from the cache");
    let _: Value = c
        .post_json("compounds", &json!({"compound": "CHEMBL941"}))
        .await
        .unwrap();
    assert_eq!(responder.count(), 2, "another body is another entry");
}

#[tokio::test]
async fn urls_for_links_follow_the_configured_base() {
    let c = client(
        mock_source("STRING", "https://string-db.org/api/")
            .with_default_query("caller_identity", "lifesciences-mcp"),
    );
    let url = c
        .url(
            "image/network",
            &[("identifiers", "TP53\rMDM2"), ("species", "9606")],
        )
        .unwrap();
    assert_eq!(
        url.as_str(),
        "https://string-db.org/api/image/network?caller_identity=lifesciences-mcp&identifiers=TP53%0DMDM2&species=9606"
    );
}

#[tokio::test]
async fn cancelling_one_coalesced_caller_leaves_the_other_its_answer() {
    let server = mock_upstream().await;
    Mock::given(path("/gene"))
        .respond_with(ok_json().set_delay(Duration::from_millis(300)))
        .expect(1)
        .mount(&server)
        .await;
    let c = client(mock_source("Ensembl", &server.uri()));
    let (a, b) = (c.clone(), c.clone());
    let first = tokio::spawn(async move { get(&a, "gene").await });
    let second = tokio::spawn(async move { get(&b, "gene").await });
    tokio::time::sleep(Duration::from_millis(50)).await;
    first.abort();
    assert_eq!(second.await.unwrap().unwrap(), json!({"ok": true}));
}

#[tokio::test]
async fn a_base_url_with_a_path_and_no_trailing_slash_keeps_its_path() {
    let server = mock_upstream().await;
    Mock::given(method("GET"))
        .and(path("/api/json/network"))
        .and(header("accept", "application/json"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!([{"stringId_A": "x"}])))
        .expect(1)
        .mount(&server)
        .await;
    let c = client(mock_source("STRING", &format!("{}/api", server.uri())));
    let body: Value = c.get_json("json/network", &[]).await.unwrap();
    assert_eq!(body, json!([{"stringId_A": "x"}]));
}

#[tokio::test]
async fn trailing_garbage_after_the_json_value_is_refused() {
    let server = mock_upstream().await;
    Mock::given(path("/x"))
        .respond_with(ResponseTemplate::new(200).set_body_string(r#"{"a":1} <html>garbage"#))
        .mount(&server)
        .await;
    let c = client(mock_source("X", &server.uri()));
    let err = get(&c, "x").await.unwrap_err();
    assert!(
        matches!(
            err,
            ApiError::Upstream {
                failure: UpstreamFailure::Decode { .. },
                ..
            }
        ),
        "{err:?}"
    );
}

/// The test kit's mock upstream: a request no route expected is answered 418 with a body
/// naming it (never a 404 a server could read as "no match"), and dropping the mock then
/// fails the test.
#[tokio::test]
async fn an_unexpected_request_is_named_and_fails_the_test() {
    let server = mock_upstream().await;
    let c = client(mock_source("X", &server.uri()).with_retry(RetryPolicy::NONE));
    let err = get(&c, "nowhere").await.unwrap_err();
    assert_eq!(err.upstream_status(), Some(418), "{err:?}");
    let body = err.upstream_body().unwrap_or_default();
    assert!(
        body.contains("unexpected request: GET") && body.contains("/nowhere"),
        "{body}"
    );
    let dropped = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| drop(server)));
    assert!(dropped.is_err(), "dropping the mock fails the test");
}

/// A row that is a row only with its `id`.
#[derive(Debug, Deserialize)]
struct IdRow {
    id: Option<String>,
}

impl lifesciences_core::Row for IdRow {
    fn usable(&self) -> bool {
        self.id.is_some()
    }
}

#[tokio::test]
async fn rows_none_of_which_is_usable_are_upstream_error_and_never_cached() {
    let server = mock_upstream().await;
    Mock::given(path("/rows"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!([{"unexpected": 1}])))
        .expect(2)
        .mount(&server)
        .await;
    Mock::given(path("/mixed"))
        .respond_with(
            ResponseTemplate::new(200).set_body_json(json!([{"unexpected": 1}, {"id": "A"}])),
        )
        .expect(1)
        .mount(&server)
        .await;
    Mock::given(path("/none"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!([])))
        .expect(1)
        .mount(&server)
        .await;
    let c = client(mock_source("Items", &server.uri()));
    for _ in 0..2 {
        let err = c.get_json::<Vec<IdRow>>("rows", &[]).await.unwrap_err();
        assert_eq!(err.code(), ErrorCode::UpstreamError);
        assert_eq!(
            err.to_envelope().error.message,
            "Items answered with a body that is not the JSON it documents."
        );
    }
    // One usable row is an answer (the other is the tool's to drop); none at all too.
    assert_eq!(
        c.get_json::<Vec<IdRow>>("mixed", &[]).await.unwrap().len(),
        2
    );
    assert!(
        c.get_json::<Vec<IdRow>>("none", &[])
            .await
            .unwrap()
            .is_empty()
    );
    // Both were cached: asked once each.
    c.get_json::<Vec<IdRow>>("mixed", &[]).await.unwrap();
    c.get_json::<Vec<IdRow>>("none", &[]).await.unwrap();
}
