//! The built binary, driven over stdio by a real MCP client.

use ensembl_mcp::EnsemblServer;
use lifesciences_core::testing::{McpTestClient, assert_binary_speaks_mcp};
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
    let gene = client
        .call_ok("ensembl_get_gene", json!({"ensembl_id": gene_id}))
        .await;
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
