//! Politeness and upstream trouble, at the level of the server: Retry-After on
//! plain-text 429s, persistent 503s, unknown species, coalescing of identical concurrent
//! calls, and JSON asked for on every request.

use std::time::Duration;

use futures::future::join_all;
use lifesciences_core::ErrorCode;
use lifesciences_core::rmcp::model::CallToolRequestParams;
use lifesciences_core::testing::{McpTestClient, Recording};
use serde_json::json;
use wiremock::matchers::{method, path, path_regex};
use wiremock::{Mock, ResponseTemplate};

use crate::support::{Upstream, fixture};

/// TP53's look-up and cross-references, each answered after `delay` and recorded.
async fn tp53_gene(upstream: &Upstream, delay: Duration) -> (Recording, Recording) {
    let lookup = Recording::new(fixture("lookup_id__ENSG00000141510.json").set_delay(delay));
    let xrefs = Recording::new(fixture("xrefs_id__ENSG00000141510.json").set_delay(delay));
    for (route, recording) in [("lookup", &lookup), ("xrefs", &xrefs)] {
        Mock::given(method("GET"))
            .and(path(format!("/ensembl/{route}/id/ENSG00000141510")))
            .respond_with(recording.clone())
            .mount(&upstream.mock)
            .await;
    }
    (lookup, xrefs)
}

/// Ensembl's 429: plain text with a fractional Retry-After
/// (<https://github.com/Ensembl/ensembl-rest/wiki/Rate-Limits>).
fn rate_limited() -> ResponseTemplate {
    ResponseTemplate::new(429)
        .insert_header("Content-Type", "text/plain")
        .insert_header("Retry-After", "0.4")
        .set_body_string(
            "You have exceeded the limit of 15 requests per second; please reduce your concurrent connections",
        )
}

/// 429 twice then 200 → success after exactly 3 requests, each retry
/// waiting the 0.4 s Ensembl asked for.
#[tokio::test]
async fn plain_text_429_twice_then_success_honours_retry_after() {
    let upstream = Upstream::start().await;
    let responder = Recording::sequence(vec![
        rate_limited(),
        rate_limited(),
        fixture("lookup_id__ENSG00000141510.json"),
    ]);
    Mock::given(method("GET"))
        .and(path("/ensembl/lookup/id/ENSG00000141510"))
        .respond_with(responder.clone())
        .with_priority(1)
        .mount(&upstream.mock)
        .await;
    let client = upstream.client().await;
    let gene = client
        .call_ok("ensembl_get_gene", json!({"ensembl_id": "ENSG00000141510"}))
        .await;
    assert_eq!(gene["symbol"], "TP53");
    let arrivals = responder.arrivals();
    assert_eq!(arrivals.len(), 3, "exactly 3 requests");
    for pair in arrivals.windows(2) {
        let gap = pair[1] - pair[0];
        assert!(
            gap >= Duration::from_millis(400),
            "Retry-After: 0.4 honoured, waited {gap:?}"
        );
    }
    client.close().await;
}

/// A persistent 503 is UPSTREAM_ERROR naming Ensembl, after the allowed
/// retries (4 requests).
#[tokio::test]
async fn persistent_503_is_upstream_error() {
    let upstream = Upstream::start().await;
    let responder =
        Recording::new(ResponseTemplate::new(503).set_body_string("Service Unavailable"));
    Mock::given(method("GET"))
        .and(path("/ensembl/lookup/id/ENSG00000141510"))
        .respond_with(responder.clone())
        .with_priority(1)
        .mount(&upstream.mock)
        .await;
    let client = upstream.client().await;
    let e = client
        .call_err("ensembl_get_gene", json!({"ensembl_id": "ENSG00000141510"}))
        .await;
    assert_eq!(e.code, ErrorCode::UpstreamError);
    assert!(
        e.message.contains("Ensembl answered HTTP 503"),
        "{}",
        e.message
    );
    assert_eq!(responder.count(), 4);
    client.close().await;
}

/// EBI Search down: the search fails as UPSTREAM_ERROR naming EBI Search, not Ensembl.
#[tokio::test]
async fn ebi_search_trouble_names_ebi_search() {
    let upstream = Upstream::start().await;
    Mock::given(method("GET"))
        .and(path("/ebisearch/ensembl_gene"))
        .respond_with(ResponseTemplate::new(502))
        .with_priority(1)
        .mount(&upstream.mock)
        .await;
    let client = upstream.client().await;
    let e = client
        .call_err("ensembl_search_genes", json!({"query": "tumor protein"}))
        .await;
    assert_eq!(e.code, ErrorCode::UpstreamError);
    assert!(
        e.message.starts_with("EBI Search answered HTTP 502"),
        "{}",
        e.message
    );
    client.close().await;
}

/// An unknown species is INVALID_INPUT whose hint lists valid species from
/// Ensembl's own list; nothing is searched.
#[tokio::test]
async fn an_unknown_species_is_invalid_input_listing_species() {
    let upstream = Upstream::start().await;
    let client = upstream.client().await;
    let e = client
        .call_err(
            "ensembl_search_genes",
            json!({"query": "BRCA1", "species": "klingon"}),
        )
        .await;
    assert_eq!(e.code, ErrorCode::InvalidInput);
    assert_eq!(e.invalid_input.as_deref(), Some("klingon"));
    for listed in [
        "'human' (homo_sapiens, taxon 9606)",
        "'house mouse' (mus_musculus, taxon 10090)",
        "danio_rerio",
    ] {
        assert!(e.recovery_hint.contains(listed), "{}", e.recovery_hint);
    }
    let e = client
        .call_err(
            "ensembl_search_genes",
            json!({"query": "BRCA1", "species": "rattus"}),
        )
        .await;
    assert_eq!(e.suggestions, ["rattus_norvegicus"]);
    let paths: Vec<String> = upstream
        .requests()
        .await
        .iter()
        .map(|r| r.url.path().to_owned())
        .collect();
    assert_eq!(paths, ["/ensembl/info/species"], "species list only, once");
    client.close().await;
}

/// 8 identical concurrent look-ups make 1 upstream request each for the
/// gene and its xrefs. The caches are off, so only coalescing can explain it.
#[tokio::test]
async fn eight_identical_concurrent_lookups_make_one_request() {
    let upstream = Upstream::empty().await;
    let (lookup, xrefs) = tp53_gene(&upstream, Duration::from_millis(300)).await;
    let client = McpTestClient::connect(upstream.uncached_server()).await;
    let calls = (0..8)
        .map(|_| client.call_ok("ensembl_get_gene", json!({"ensembl_id": "ENSG00000141510"})));
    let genes = join_all(calls).await;
    assert!(
        genes
            .iter()
            .all(|g| g == &genes[0] && g["symbol"] == "TP53")
    );
    assert_eq!(lookup.count(), 1, "one lookup request for 8 calls");
    assert_eq!(xrefs.count(), 1, "one xrefs request for 8 calls");
    client.close().await;
}

/// Every request asks for JSON (Ensembl answers HTML otherwise), POST bodies
/// are declared JSON, and EBI Search is asked for JSON too.
#[tokio::test]
async fn every_request_asks_for_json() {
    let upstream = Upstream::start().await;
    let client = upstream.client().await;
    client
        .call_ok(
            "ensembl_search_genes",
            json!({"query": "BRCA1", "species": "human"}),
        )
        .await;
    client
        .call_ok(
            "ensembl_search_genes",
            json!({"query": "tumor protein", "species": "human"}),
        )
        .await;
    client
        .call_ok("ensembl_get_gene", json!({"ensembl_id": "ENSG00000141510"}))
        .await;
    client
        .call_ok(
            "ensembl_get_transcript",
            json!({"transcript_id": "ENST00000311936"}),
        )
        .await;
    let requests = upstream.requests().await;
    // species list, symbol, 2 × EBI, 2 × POST, gene + xrefs, transcript + xrefs
    assert_eq!(
        requests.len(),
        10,
        "{:#?}",
        requests.iter().map(|r| r.url.as_str()).collect::<Vec<_>>()
    );
    for r in &requests {
        let accept = r.headers.get("accept").and_then(|v| v.to_str().ok());
        assert_eq!(accept, Some("application/json"), "{} {}", r.method, r.url);
        if r.method.as_str() == "POST" {
            let content_type = r.headers.get("content-type").and_then(|v| v.to_str().ok());
            assert_eq!(content_type, Some("application/json"), "{}", r.url);
        }
        if r.url.path().starts_with("/ebisearch/") {
            assert!(
                r.url
                    .query_pairs()
                    .any(|(k, v)| k == "format" && v == "json"),
                "{}",
                r.url
            );
        }
    }
    client.close().await;
}

/// With its real rate (15 requests per second), a lone gene look-up's two requests leave
/// together: pacing is about the rate over a second, not the gap between two requests.
#[tokio::test]
async fn a_lone_lookup_sends_its_requests_without_pacing_between_them() {
    let upstream = Upstream::empty().await;
    let (lookup, xrefs) = tp53_gene(&upstream, Duration::ZERO).await;
    let server = upstream.server_with(&[("ENSEMBL_RATE_LIMIT", "15")]);
    let client = McpTestClient::connect(server).await;
    client
        .call_ok("ensembl_get_gene", json!({"ensembl_id": "ENSG00000141510"}))
        .await;
    let (first, second) = (lookup.arrivals()[0], xrefs.arrivals()[0]);
    let gap = second.max(first) - second.min(first);
    assert!(gap < Duration::from_millis(30), "requests {gap:?} apart");
    client.close().await;
}

/// 50 concurrent look-ups of distinct genes (100 requests): the busiest second holds
/// exactly the configured rate (here 25 per second, low enough for a debug build under
/// load to saturate it).
#[tokio::test]
async fn under_50_concurrent_calls_the_busiest_second_equals_the_rate() {
    let upstream = Upstream::empty().await;
    let lookups =
        Recording::new(ResponseTemplate::new(400).set_body_json(json!({"error": "ID not found"})));
    // A look-up asks for the gene and its cross-references at once: both count.
    Mock::given(method("GET"))
        .and(path_regex("^/ensembl/(lookup|xrefs)/id/"))
        .respond_with(lookups.clone())
        .mount(&upstream.mock)
        .await;
    let server = upstream.server_with(&[
        ("ENSEMBL_RATE_LIMIT", "25"),
        ("ENSEMBL_MAX_CONCURRENT", "25"),
    ]);
    let client = McpTestClient::connect(server).await;
    // Straight through the peer: the test client's strict checks of each result would
    // pace the calls themselves.
    let calls = (0..50).map(|n| {
        let arguments = json!({"ensembl_id": format!("ENSG{:011}", 100_000 + n)});
        client.peer().call_tool(
            CallToolRequestParams::new("ensembl_get_gene")
                .with_arguments(arguments.as_object().cloned().unwrap_or_default()),
        )
    });
    let results = join_all(calls).await;
    assert!(
        results
            .iter()
            .all(|r| r.as_ref().is_ok_and(|r| r.is_error == Some(true)))
    );
    assert_eq!(lookups.count(), 100);
    assert_eq!(lookups.busiest_second(), 25);
    client.close().await;
}
