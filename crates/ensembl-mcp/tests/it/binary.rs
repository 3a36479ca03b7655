//! The built binary, driven over stdio by a real MCP client.

use ensembl_mcp::EnsemblServer;
use lifesciences_core::testing::{McpTestClient, assert_binary_speaks_mcp, run_check};
use serde_json::json;

use crate::support::Upstream;

/// A port nothing listens on: the smoke test must not reach the network.
const CLOSED: &str = "http://127.0.0.1:9";

const BINARY: &str = env!("CARGO_BIN_EXE_ensembl-mcp");

#[tokio::test]
async fn the_binary_speaks_mcp_over_stdio() {
    let env = [("ENSEMBL_API_URL", CLOSED), ("EBI_SEARCH_API_URL", CLOSED)];
    assert_binary_speaks_mcp::<EnsemblServer>(BINARY, &env).await;
}

#[cfg(unix)]
#[tokio::test]
async fn sigterm_stops_the_stdio_server() {
    let env = [("ENSEMBL_API_URL", CLOSED), ("EBI_SEARCH_API_URL", CLOSED)];
    lifesciences_core::testing::assert_stops_on_sigterm(BINARY, &env).await;
}

/// The user's path through the built binary: search, then the gene, then its canonical
/// transcript, with both upstreams read from the environment.
#[tokio::test]
async fn the_binary_searches_then_looks_up() {
    let upstream = Upstream::start().await;
    let (ensembl, ebi) = (upstream.ensembl_url(), upstream.ebi_url());
    let ensembl_url = ensembl.clone();
    let env = [
        ("ENSEMBL_API_URL", ensembl.as_str()),
        ("EBI_SEARCH_API_URL", ebi.as_str()),
    ];
    let client = McpTestClient::spawn_binary(BINARY, &env).await;
    let page = client
        .call_ok(
            "ensembl_search_genes",
            json!({"query": "KRAS", "species": "human"}),
        )
        .await;
    let gene_id = page["items"][0]["id"].as_str().unwrap().to_owned();
    assert_eq!(gene_id, "ENSG00000133703");
    let (gene, provenance) = client
        .call_ok_once_released(
            "ensembl_get_gene",
            json!({"ensembl_id": gene_id}),
            "Ensembl",
        )
        .await;
    // Where the gene came from: Ensembl's release (looked up once, in the background,
    // after the search's first Ensembl answer) and the look-up the mock answered.
    let ensembl = &provenance["sources"][0];
    assert_eq!(ensembl["database"], "Ensembl", "{provenance}");
    assert_eq!(ensembl["release"], "115", "{provenance}");
    assert!(
        ensembl["requests"]
            .as_array()
            .unwrap()
            .iter()
            .all(|r| r.as_str().unwrap().starts_with(&format!("{ensembl_url}/"))),
        "{provenance}"
    );
    let asked: Vec<_> = upstream
        .mock
        .received_requests()
        .await
        .unwrap()
        .into_iter()
        .filter(|r| r.url.path() == "/ensembl/info/data")
        .collect();
    assert_eq!(asked.len(), 1, "the release is asked once");
    let transcript_id = gene["canonical_transcript"].as_str().unwrap().to_owned();
    let transcript = client
        .call_ok(
            "ensembl_get_transcript",
            json!({"transcript_id": transcript_id}),
        )
        .await;
    assert_eq!(transcript["parent_gene"], "ENSG00000133703");
    assert_eq!(transcript["is_canonical"], true);
    let e = client
        .call_err("ensembl_get_gene", json!({"ensembl_id": "KRAS"}))
        .await;
    assert!(e.recovery_hint.contains("ensembl_search_genes"));
    client.close().await;
}

/// `check` pings Ensembl REST and runs a one-hit EBI Search query, once each, and says
/// both answer; with EBI Search unreachable it names it and exits 1. (Check reads only
/// the status, so the bodies here are minimal.)
#[tokio::test]
async fn check_probes_both_upstreams_and_names_the_one_that_fails() {
    use wiremock::matchers::{method, path, query_param};
    use wiremock::{Mock, ResponseTemplate};
    let upstream = Upstream::empty().await;
    Mock::given(method("GET"))
        .and(path("/ensembl/info/ping"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({"ping": 1})))
        // Once per `check` run: this test runs it twice.
        .expect(2)
        .mount(&upstream.mock)
        .await;
    Mock::given(method("GET"))
        .and(path("/ebisearch/ensembl_gene"))
        .and(query_param("size", "1"))
        .and(query_param("format", "json"))
        .respond_with(
            ResponseTemplate::new(200).set_body_json(json!({"hitCount": 1, "entries": []})),
        )
        .expect(1)
        .mount(&upstream.mock)
        .await;
    let (ensembl, ebi) = (upstream.ensembl_url(), upstream.ebi_url());
    let (code, out) = run_check(
        BINARY,
        &[
            ("ENSEMBL_API_URL", ensembl.as_str()),
            ("EBI_SEARCH_API_URL", ebi.as_str()),
        ],
    )
    .await;
    assert_eq!(code, Some(0), "{out}");
    assert!(out.contains("checking 2 upstream(s)"), "{out}");
    assert!(out.contains("All upstreams are reachable."), "{out}");
    let (code, out) = run_check(
        BINARY,
        &[
            ("ENSEMBL_API_URL", ensembl.as_str()),
            ("EBI_SEARCH_API_URL", CLOSED),
        ],
    )
    .await;
    assert_eq!(code, Some(1), "{out}");
    assert!(out.contains("1 of 2 upstream(s) not reachable"), "{out}");
    let failing = out
        .lines()
        .skip_while(|line| !line.contains("EBI Search"))
        .nth(1)
        .unwrap_or_default();
    assert!(failing.contains("NOT reachable"), "{out}");
}
