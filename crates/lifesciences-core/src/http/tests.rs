//! Unit tests of the HTTP client (the module's private items are in reach).

use super::*;
use crate::config::Upstream;

#[test]
fn the_tls_client_builds_with_the_ring_provider() {
    let config = crate::testing::mock_source("TLS", "https://example.org");
    build::build_reqwest(&config).unwrap();
    assert!(rustls::crypto::CryptoProvider::get_default().is_some());
}

/// A source with a release look-up at `/version` (`{"v": …}`), against `base`, at `rate`
/// requests per second, in memory or on `store`.
fn versioned_at(base: &str, rate: f64, store: Option<Arc<Shared>>) -> HttpClient {
    static VERSIONED: Upstream = Upstream {
        release: Some(crate::config::ReleaseCheck::Ask {
            path: "version",
            query: &[],
            pointer: "/v",
        }),
        ..Upstream::new("Versioned", "VERSIONED", "http://127.0.0.1:9")
    };
    let config = crate::testing::quick(
        SourceConfig::new(&VERSIONED)
            .unwrap()
            .from_env_with(|var| (var == "VERSIONED_API_URL").then(|| base.to_owned()))
            .unwrap(),
    )
    .with_release_check(true)
    .with_rate(rate);
    match store {
        Some(store) => HttpClient::with_store(config, store),
        None => HttpClient::new(config),
    }
}

fn versioned(base: &str) -> HttpClient {
    versioned_at(base, 1000.0, None)
}

/// A store in `folder`, as a process with `LIFESCIENCES_CACHE_DIR` there opens it.
fn store_in(folder: &crate::testing::TempFolder) -> Arc<Shared> {
    let dir = folder.path().display().to_string();
    Arc::new(
        Shared::from_env(move |var| (var == store::ENV_CACHE_DIR).then(|| dir.clone())).unwrap(),
    )
}

async fn mount(server: &wiremock::MockServer, at: &str, answer: wiremock::ResponseTemplate) {
    wiremock::Mock::given(wiremock::matchers::path(at))
        .respond_with(answer)
        .mount(server)
        .await;
}

fn seen(requests: &[wiremock::Request], at: &str) -> usize {
    requests.iter().filter(|r| r.url.path() == at).count()
}

/// The provenance of one "call" that GETs `path` with `q`, as JSON.
async fn provenance_of(client: &HttpClient, path: &str, q: &str) -> serde_json::Value {
    let ((), read) = crate::provenance::scope(async {
        let _: serde_json::Value = client.get_json(path, &[("q", q)]).await.unwrap();
    })
    .await;
    serde_json::to_value(read.provenance().0).unwrap()
}

/// Wait (at most 5 s) until the client knows whether its source names a release.
async fn until_looked_up(client: &HttpClient) {
    for _ in 0..500 {
        if !matches!(client.inner.release.start_if_due_peek(), Some(true)) {
            return;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("the release look-up never ended");
}

#[tokio::test]
async fn provenance_names_what_the_upstream_sent_and_a_repeat_names_the_cache() {
    let upstream = crate::testing::mock_upstream().await;
    let body = wiremock::ResponseTemplate::new(200).set_body_json(serde_json::json!({"a": 1}));
    mount(&upstream, "/items", body).await;
    mount(
        &upstream,
        "/version",
        wiremock::ResponseTemplate::new(200).set_body_json(serde_json::json!({"v": 7})),
    )
    .await;
    let client = versioned(&upstream.uri());
    let first = provenance_of(&client, "items", "x y").await;
    until_looked_up(&client).await;
    let second = provenance_of(&client, "items", "x y").await;

    let requests = upstream.received_requests().await.unwrap();
    let items: Vec<String> = requests
        .iter()
        .filter(|r| r.url.path() == "/items")
        // wiremock names every request's host `localhost`: the path and query are
        // what was asked of this mock.
        .map(|r| {
            format!(
                "{}{}?{}",
                upstream.uri(),
                r.url.path(),
                r.url.query().unwrap_or_default()
            )
        })
        .collect();
    assert_eq!(items.len(), 1, "the repeat is served from the cache");
    assert_eq!(first["sources"][0]["requests"], serde_json::json!(items));
    assert_eq!(first["sources"][0]["database"], "Versioned");
    assert_eq!(
        first["sources"][0].get("release"),
        None,
        "the first answer does not wait for the release: {first}"
    );
    assert_eq!(first["sources"][0].get("cached"), None);
    assert_eq!(second["sources"][0]["cached"], true);
    assert_eq!(
        second["sources"][0]["release"], "7",
        "known by then, and checked within a day of the answer"
    );
    assert_eq!(
        second["sources"][0]["retrieved_at"], first["sources"][0]["retrieved_at"],
        "an answer from the cache keeps its first retrieval time"
    );
    assert_eq!(seen(&requests, "/version"), 1, "the release is asked once");
}

#[tokio::test]
async fn a_release_look_up_waits_for_the_source_to_be_idle_and_never_holds_up_an_answer() {
    // One request per second (STRING's pace): the call's own request takes the window;
    // the look-up goes only once the window has room again, after the call answered.
    let upstream = crate::testing::mock_upstream().await;
    let body = wiremock::ResponseTemplate::new(200).set_body_json(serde_json::json!({"a": 1}));
    mount(&upstream, "/items", body).await;
    mount(
        &upstream,
        "/version",
        wiremock::ResponseTemplate::new(200).set_body_json(serde_json::json!({"v": "12.0"})),
    )
    .await;
    let client = versioned_at(&upstream.uri(), 1.0, None);
    let first = provenance_of(&client, "items", "a").await;
    let at_answer = upstream.received_requests().await.unwrap();
    assert_eq!(
        (seen(&at_answer, "/items"), seen(&at_answer, "/version")),
        (1, 0),
        "the answer came back before the look-up was even sent"
    );
    assert_eq!(first["sources"][0].get("release"), None);
    until_looked_up(&client).await;
    let next = provenance_of(&client, "items", "b").await;
    assert_eq!(next["sources"][0]["release"], "12.0");
    let requests = upstream.received_requests().await.unwrap();
    assert_eq!(seen(&requests, "/version"), 1);
}

#[tokio::test]
async fn a_release_is_asked_once_per_store_and_a_failure_is_remembered_there() {
    for (answer, named) in [
        (
            wiremock::ResponseTemplate::new(200).set_body_json(serde_json::json!({"v": 115})),
            Some("115"),
        ),
        (wiremock::ResponseTemplate::new(404), None),
        (
            wiremock::ResponseTemplate::new(200).set_body_json(serde_json::json!({"other": 1})),
            None,
        ),
    ] {
        let upstream = crate::testing::mock_upstream().await;
        let body = wiremock::ResponseTemplate::new(200).set_body_json(serde_json::json!({"a": 1}));
        mount(&upstream, "/items", body).await;
        mount(&upstream, "/version", answer).await;
        let folder = crate::testing::TempFolder::new("release-store").unwrap();
        // Two processes in turn on one store; each answers a call, the first asks.
        let first = versioned_at(&upstream.uri(), 1000.0, Some(store_in(&folder)));
        let _ = provenance_of(&first, "items", "1").await;
        until_looked_up(&first).await;
        let second = versioned_at(&upstream.uri(), 1000.0, Some(store_in(&folder)));
        let _ = provenance_of(&second, "items", "2").await;
        until_looked_up(&second).await;
        let third = provenance_of(&second, "items", "3").await;
        assert_eq!(
            third["sources"][0].get("release").and_then(|r| r.as_str()),
            named,
            "{third}"
        );
        let requests = upstream.received_requests().await.unwrap();
        assert_eq!(
            seen(&requests, "/version"),
            1,
            "the second process read what the first found (or that it failed) from the store"
        );
    }
}

#[tokio::test]
async fn a_release_named_in_a_header_is_read_from_each_answer_and_kept_with_it() {
    static HEADED: Upstream = Upstream {
        release: Some(crate::config::ReleaseCheck::Header("X-Release")),
        keep_headers: &["X-Total"],
        ..Upstream::new("Headed", "HEADED", "http://127.0.0.1:9")
    };
    let upstream = crate::testing::mock_upstream().await;
    wiremock::Mock::given(wiremock::matchers::path("/items"))
        .respond_with(
            wiremock::ResponseTemplate::new(200)
                .insert_header("X-Release", "2026_02")
                .insert_header("X-Total", "999")
                .insert_header("X-Other", "dropped")
                .set_body_json(serde_json::json!({"a": 1})),
        )
        .up_to_n_times(1)
        .mount(&upstream)
        .await;
    wiremock::Mock::given(wiremock::matchers::path("/items"))
        .respond_with(
            wiremock::ResponseTemplate::new(200)
                .insert_header("X-Release", "2026_03")
                .set_body_json(serde_json::json!({"a": 2})),
        )
        .mount(&upstream)
        .await;
    let folder = crate::testing::TempFolder::new("release-header").unwrap();
    let config = crate::testing::quick(
        SourceConfig::new(&HEADED)
            .unwrap()
            .from_env_with(|var| (var == "HEADED_API_URL").then(|| upstream.uri()))
            .unwrap(),
    )
    .with_release_check(true);
    let client = HttpClient::with_store(config.clone(), store_in(&folder));
    let ((value, meta), read) = crate::provenance::scope(async {
        client
            .get_json_meta::<serde_json::Value>("items", &[])
            .await
            .unwrap()
    })
    .await;
    assert_eq!(value["a"], 1);
    assert_eq!(meta.header("x-total"), Some("999"));
    assert_eq!(meta.header("X-Other"), None, "only the kept headers");
    assert_eq!(
        serde_json::to_value(read.provenance().0).unwrap()["sources"][0]["release"],
        "2026_02",
        "named by the answer itself, with no request of its own"
    );
    // Another process, from the store: the answer keeps its release and headers, though
    // the upstream has moved on.
    let other = HttpClient::with_store(config, store_in(&folder));
    let ((_, meta), read) = crate::provenance::scope(async {
        other
            .get_json_meta::<serde_json::Value>("items", &[])
            .await
            .unwrap()
    })
    .await;
    assert_eq!(meta.header("X-Total"), Some("999"));
    let provenance = serde_json::to_value(read.provenance().0).unwrap();
    assert_eq!(provenance["sources"][0]["release"], "2026_02");
    assert_eq!(provenance["sources"][0]["cached"], true);
    assert_eq!(upstream.received_requests().await.unwrap().len(), 1);
}

#[tokio::test]
async fn an_answer_fetched_but_never_read_is_not_kept_for_the_next_call() {
    let upstream = crate::testing::mock_upstream().await;
    mount(
        &upstream,
        "/sibling",
        wiremock::ResponseTemplate::new(200).set_body_string("{\"truncated\": "),
    )
    .await;
    let folder = crate::testing::TempFolder::new("unread").unwrap();
    let client = HttpClient::with_store(
        crate::testing::mock_source("Unread", &upstream.uri()),
        store_in(&folder),
    );
    // A call's sibling request: fetched, then the call failed on another answer and
    // dropped it unread.
    let prepared = client
        .prepare(Method::GET, "sibling", &[], JSON, None)
        .unwrap();
    let fetched = client.execute(prepared).await.unwrap();
    drop(fetched);
    tokio::time::sleep(Duration::from_millis(50)).await;
    // The next call reads it: asked again (and found unreadable), neither from this
    // process's cache nor from the store.
    let err = client
        .get_json::<serde_json::Value>("sibling", &[])
        .await
        .unwrap_err();
    assert_eq!(err.code(), crate::ErrorCode::UpstreamError);
    let again = HttpClient::with_store(
        crate::testing::mock_source("Unread", &upstream.uri()),
        store_in(&folder),
    );
    let _ = again.get_json::<serde_json::Value>("sibling", &[]).await;
    assert_eq!(
        seen(&upstream.received_requests().await.unwrap(), "/sibling"),
        3,
        "nothing unread or unreadable was kept"
    );
}

#[tokio::test]
async fn a_redirect_is_an_answer_of_its_own_for_a_source_that_does_not_follow_them() {
    static NOT_FOLLOWING: Upstream = Upstream {
        follow_redirects: false,
        ..Upstream::new("Redirecting", "REDIRECTING", "http://127.0.0.1:9")
    };
    let upstream = crate::testing::mock_upstream().await;
    mount(
        &upstream,
        "/entry/Q00015",
        wiremock::ResponseTemplate::new(303)
            .insert_header("Location", "/entry/P23141?from=Q00015")
            .set_body_json(serde_json::json!({"entryType": "Inactive"})),
    )
    .await;
    mount(
        &upstream,
        "/status/job",
        wiremock::ResponseTemplate::new(303)
            .insert_header("Location", format!("{}/results/job", upstream.uri())),
    )
    .await;
    let config = crate::testing::quick(
        SourceConfig::new(&NOT_FOLLOWING)
            .unwrap()
            .from_env_with(|var| (var == "REDIRECTING_API_URL").then(|| upstream.uri()))
            .unwrap(),
    );
    let client = HttpClient::new(config);
    let (body, meta) = client
        .get_json_meta::<serde_json::Value>("entry/Q00015", &[])
        .await
        .unwrap();
    assert_eq!(body["entryType"], "Inactive");
    assert_eq!(meta.status, 303);
    assert_eq!(
        meta.location.as_deref(),
        Some(format!("{}/entry/P23141?from=Q00015", upstream.uri()).as_str()),
        "resolved against the request"
    );
    // Without a body: read as null.
    let (body, meta) = client
        .poll_json_meta::<Option<serde_json::Value>>("status/job", &[])
        .await
        .unwrap();
    assert_eq!(body, None);
    assert!(meta.is_redirect());
    // A URL the upstream hands out is followed only within the source.
    let inside = format!("{}/entry/Q00015", upstream.uri());
    assert!(
        client
            .get_json_at::<serde_json::Value>(&inside)
            .await
            .is_ok()
    );
    let outside = client
        .get_json_at::<serde_json::Value>("https://elsewhere.invalid/entry/Q00015")
        .await
        .unwrap_err();
    assert_eq!(outside.code(), crate::ErrorCode::UpstreamError);
    assert_eq!(
        seen(
            &upstream.received_requests().await.unwrap(),
            "/entry/P23141"
        ),
        0,
        "no redirect was followed"
    );
}

/// For a source that reads redirects itself, a redirect out of the upstream and a success
/// saying `null` are failures, never answers: neither is kept, so the next call asks again.
#[tokio::test]
async fn a_redirect_elsewhere_and_a_null_success_are_not_answers_and_not_kept() {
    static NOT_FOLLOWING: Upstream = Upstream {
        follow_redirects: false,
        ..Upstream::new("Redirecting", "REDIRECTING", "http://127.0.0.1:9")
    };
    let upstream = crate::testing::mock_upstream().await;
    mount(
        &upstream,
        "/moved",
        wiremock::ResponseTemplate::new(301)
            .insert_header("Location", "http://elsewhere.invalid/x"),
    )
    .await;
    mount(
        &upstream,
        "/nothing",
        wiremock::ResponseTemplate::new(200).set_body_raw(" null ", "application/json"),
    )
    .await;
    let config = crate::testing::quick(
        SourceConfig::new(&NOT_FOLLOWING)
            .unwrap()
            .from_env_with(|var| (var == "REDIRECTING_API_URL").then(|| upstream.uri()))
            .unwrap(),
    );
    let client = HttpClient::new(config);
    for _ in 0..2 {
        let moved = client
            .get_json_meta::<Option<serde_json::Value>>("moved", &[])
            .await
            .unwrap_err();
        let message = moved.to_envelope().error.message;
        assert!(
            message.contains("refused redirect to http://elsewhere.invalid/x"),
            "{message}"
        );
        let null = client
            .get_json_meta::<Option<serde_json::Value>>("nothing", &[])
            .await
            .unwrap_err();
        assert!(matches!(
            null,
            ApiError::Upstream {
                failure: UpstreamFailure::Decode { .. },
                ..
            }
        ));
    }
    let requests = upstream.received_requests().await.unwrap();
    assert_eq!(
        seen(&requests, "/moved"),
        2,
        "a refused redirect is not kept"
    );
    assert_eq!(seen(&requests, "/nothing"), 2, "a null success is not kept");
}

#[tokio::test]
async fn a_post_is_named_with_its_body_and_a_failed_request_is_not_named() {
    let upstream = crate::testing::mock_upstream().await;
    let body = wiremock::ResponseTemplate::new(200).set_body_json(serde_json::json!({"a": 1}));
    mount(&upstream, "/look-up", body).await;
    mount(&upstream, "/gone", wiremock::ResponseTemplate::new(404)).await;
    let client = HttpClient::new(crate::testing::mock_source("Posts", &upstream.uri()));
    let ((), read) = crate::provenance::scope(async {
        let _ = client
            .get_json::<serde_json::Value>("gone", &[])
            .await
            .unwrap_err();
        let _: serde_json::Value = client
            .post_json("look-up", &serde_json::json!({"ids": ["rs1"]}))
            .await
            .unwrap();
    })
    .await;
    let provenance = serde_json::to_value(read.provenance().0).unwrap();
    assert_eq!(
        provenance["sources"][0]["requests"],
        serde_json::json!([format!(
            r#"POST {}/look-up {{"ids":["rs1"]}}"#,
            upstream.uri()
        )])
    );
    assert_eq!(provenance["sources"][0].get("release"), None);
}

#[test]
fn path_segments_cannot_escape_their_slot() {
    let enc = |s: &str| encode_path_segment(s).unwrap();
    assert_eq!(enc("ENSG00000141510.17"), "ENSG00000141510.17");
    assert_eq!(enc("a/b?c#d e"), "a%2Fb%3Fc%23d%20e");
    assert_eq!(enc("../x"), "..%2Fx");
    assert_eq!(enc("é"), "%C3%A9");
    for unsafe_segment in ["", ".", ".."] {
        let err = encode_path_segment(unsafe_segment).unwrap_err();
        assert_eq!(err.code(), crate::ErrorCode::InvalidInput);
    }
}
