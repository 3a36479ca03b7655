//! Unit tests of the HTTP client (the module's private items are in reach).

use super::*;
use crate::config::Upstream;

#[test]
fn the_tls_client_builds_with_the_ring_provider() {
    let config = crate::testing::mock_source("TLS", "https://example.org");
    build::build_reqwest(&config).unwrap();
    assert!(rustls::crypto::CryptoProvider::get_default().is_some());
}

/// A source with a release look-up at `/version` (`{"v": …}`), against `base`.
fn versioned(base: &str) -> HttpClient {
    static VERSIONED: Upstream = Upstream {
        release: Some(crate::config::ReleaseCheck {
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
    .with_release_check(true);
    HttpClient::new(config)
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
    let call = || {
        let client = client.clone();
        async move {
            let ((), read) = crate::provenance::scope(async {
                let _: serde_json::Value = client.get_json("items", &[("q", "x y")]).await.unwrap();
            })
            .await;
            serde_json::to_value(read.provenance().await).unwrap()
        }
    };
    let first = call().await;
    tokio::time::sleep(Duration::from_millis(20)).await;
    let second = call().await;

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
    assert_eq!(first["sources"][0]["release"], "7");
    assert_eq!(first["sources"][0].get("cached"), None);
    assert_eq!(second["sources"][0]["cached"], true);
    assert_eq!(
        second["sources"][0]["retrieved_at"], first["sources"][0]["retrieved_at"],
        "an answer from the cache keeps its first retrieval time"
    );
    assert_eq!(seen(&requests, "/version"), 1, "the release is asked once");
}

#[tokio::test]
async fn a_failed_release_look_up_fails_no_call_and_is_not_asked_again_the_same_day() {
    let upstream = crate::testing::mock_upstream().await;
    let body = wiremock::ResponseTemplate::new(200).set_body_json(serde_json::json!({"a": 1}));
    mount(&upstream, "/items", body).await;
    mount(&upstream, "/version", wiremock::ResponseTemplate::new(404)).await;
    let client = versioned(&upstream.uri());
    for q in ["a", "b"] {
        let ((), read) = crate::provenance::scope(async {
            let _: serde_json::Value = client.get_json("items", &[("q", q)]).await.unwrap();
        })
        .await;
        let provenance = serde_json::to_value(read.provenance().await).unwrap();
        assert_eq!(
            provenance["sources"][0].get("release"),
            None,
            "{provenance}"
        );
    }
    let requests = upstream.received_requests().await.unwrap();
    assert_eq!(seen(&requests, "/version"), 1);
    assert_eq!(seen(&requests, "/items"), 2);
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
    let provenance = serde_json::to_value(read.provenance().await).unwrap();
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
