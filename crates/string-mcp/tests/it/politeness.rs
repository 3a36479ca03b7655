//! Politeness toward STRING (docs/design.md, "Politeness toward the upstreams"): retries
//! on 429 and 5xx, bounded; 1 request per second with the real configuration;
//! `caller_identity` on every request.

use std::time::Duration;

use futures::future::join_all;
use lifesciences_core::ErrorCode;
use lifesciences_core::testing::{McpTestClient, Recording, mock_upstream};
use lifesciences_core::{Env, McpServer};
use serde_json::json;
use string_mcp::StringServer;
use wiremock::ResponseTemplate;
use wiremock::matchers::query_param;

use crate::support::{TP53, fixture, get, requests_to, server_with, setup};

/// STRING answers 429 (no Retry-After), then 200: the call succeeds after one
/// retry.
#[tokio::test]
async fn a_429_then_200_succeeds() {
    let (upstream, client) = setup().await;
    let responder = Recording::sequence(vec![
        ResponseTemplate::new(429).set_body_string("Too Many Requests"),
        fixture("get_string_ids__TP53.json"),
    ]);
    get("get_string_ids")
        .respond_with(responder.clone())
        .mount(&upstream)
        .await;

    let page = client
        .call_ok("string_search_proteins", json!({"query": "TP53"}))
        .await;
    assert_eq!(page["items"][0]["id"], TP53);
    assert_eq!(responder.count(), 2, "one retry");
    client.close().await;
}

/// A STRING that keeps answering 503 is UPSTREAM_ERROR after the bounded
/// retries (1 request + 3 retries), in words an agent can act on.
#[tokio::test]
async fn a_persistent_5xx_is_upstream_error_after_bounded_retries() {
    let (upstream, client) = setup().await;
    let responder =
        Recording::new(ResponseTemplate::new(503).set_body_string("Service Unavailable"));
    get("interaction_partners")
        .respond_with(responder.clone())
        .mount(&upstream)
        .await;

    let e = client
        .call_err("string_get_interactions", json!({"string_id": TP53}))
        .await;
    assert_eq!(e.code, ErrorCode::UpstreamError);
    assert!(
        e.message
            .starts_with("STRING answered HTTP 503 after 4 attempts"),
        "{}",
        e.message
    );
    assert!(e.recovery_hint.contains("retry"), "{}", e.recovery_hint);
    assert_eq!(responder.count(), 4);
    client.close().await;
}

/// Four concurrent searches with the server's real politeness (1 request/s,
/// one in flight) reach STRING at least ~1 s apart, measured at the mock in real time.
///
/// One request to another method goes first: the very first request builds the pooled
/// client and opens the connection after its rate permit, which delays its arrival by
/// tens of milliseconds (more on a loaded machine) and made the first measured gap read
/// 920–980 ms although the permits were 1 s apart.
#[tokio::test]
async fn four_concurrent_searches_reach_string_at_least_a_second_apart() {
    let upstream = mock_upstream().await;
    let responder = Recording::new(fixture("get_string_ids__TP53.json"));
    get("get_string_ids")
        .respond_with(responder.clone())
        .mount(&upstream)
        .await;
    let env = Env::from_pairs(&[("STRING_API_URL", &upstream.uri())]);
    let server = StringServer::from_env(&env).unwrap();
    let config = env.built()[0].config().clone();
    assert_eq!((config.rate_per_second, config.max_concurrent), (1.0, 1));
    let client = McpTestClient::connect(server).await;

    // Distinct queries, so neither the cache nor coalescing merges them.
    let calls = ["TP53", "MDM2", "ATM", "BRCA1"]
        .map(|q| client.call_ok("string_search_proteins", json!({"query": q})));
    join_all(calls).await;

    let arrivals = responder.arrivals();
    assert_eq!(arrivals.len(), 4);
    for pair in arrivals.windows(2) {
        let gap = pair[1] - pair[0];
        assert!(gap >= Duration::from_millis(950), "requests {gap:?} apart");
    }
    let mut queried: Vec<String> = requests_to(&upstream, "get_string_ids")
        .await
        .iter()
        .filter_map(|r| {
            r.url
                .query_pairs()
                .find(|(k, _)| k == "identifiers")
                .map(|(_, v)| v.into_owned())
        })
        .collect();
    queried.sort();
    assert_eq!(queried, ["ATM", "BRCA1", "MDM2", "TP53"]);
    client.close().await;
}

/// Identical concurrent calls share one request; a repeated call is served from the cache.
#[tokio::test]
async fn identical_searches_cost_one_request() {
    let (upstream, client) = setup().await;
    get("get_string_ids")
        .respond_with(fixture("get_string_ids__TP53.json").set_delay(Duration::from_millis(200)))
        .expect(1)
        .mount(&upstream)
        .await;
    let calls = (0..4).map(|_| client.call_ok("string_search_proteins", json!({"query": "TP53"})));
    for page in join_all(calls).await {
        assert_eq!(page["items"][0]["id"], TP53);
    }
    client
        .call_ok("string_search_proteins", json!({"query": "TP53"}))
        .await;
    client.close().await;
}

/// Every request names the caller, as configured by STRING_CALLER_IDENTITY.
#[tokio::test]
async fn every_request_carries_the_configured_caller_identity() {
    let upstream = mock_upstream().await;
    get("get_string_ids")
        .and(query_param("caller_identity", "my-lab"))
        .respond_with(fixture("get_string_ids__TP53.json"))
        .expect(1)
        .mount(&upstream)
        .await;
    get("interaction_partners")
        .and(query_param("caller_identity", "my-lab"))
        .respond_with(fixture("interaction_partners__TP53.json"))
        .expect(1)
        .mount(&upstream)
        .await;
    let server = server_with(&upstream.uri(), &[("STRING_CALLER_IDENTITY", "my-lab")]);
    let client = McpTestClient::connect(server).await;
    client
        .call_ok("string_search_proteins", json!({"query": "TP53"}))
        .await;
    client
        .call_ok("string_get_interactions", json!({"string_id": TP53}))
        .await;
    client.close().await;
}
