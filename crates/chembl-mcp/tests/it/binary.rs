//! The built binary, driven over stdio by a real MCP client.

use chembl_mcp::ChemblServer;
use lifesciences_core::testing::{McpTestClient, assert_binary_speaks_mcp};
use serde_json::json;

use crate::support::{Upstreams, chembl_get, ok};

/// A port nothing listens on: the smoke test must not reach the network.
const CLOSED: &str = "http://127.0.0.1:9";

#[tokio::test]
async fn the_binary_speaks_mcp_over_stdio() {
    let env = [("CHEMBL_API_URL", CLOSED), ("UNICHEM_API_URL", CLOSED)];
    assert_binary_speaks_mcp::<ChemblServer>(env!("CARGO_BIN_EXE_chembl-mcp"), &env).await;
}

#[cfg(unix)]
#[tokio::test]
async fn sigterm_stops_the_stdio_server() {
    let env = [("CHEMBL_API_URL", CLOSED), ("UNICHEM_API_URL", CLOSED)];
    lifesciences_core::testing::assert_stops_on_sigterm(env!("CARGO_BIN_EXE_chembl-mcp"), &env)
        .await;
}

#[tokio::test]
async fn the_binary_searches_and_rejects_over_stdio() {
    let up = Upstreams::start().await;
    chembl_get(
        "/molecule/search.json",
        &[("q", "imatinib"), ("limit", "5"), ("offset", "0")],
    )
    .respond_with(ok("molecule_search__q=imatinib.json"))
    .expect(1)
    .mount(&up.chembl)
    .await;
    let chembl = up.chembl.uri();
    let unichem = up.unichem.uri();
    let env = [
        ("CHEMBL_API_URL", chembl.as_str()),
        ("UNICHEM_API_URL", unichem.as_str()),
    ];
    let client = McpTestClient::spawn_binary(env!("CARGO_BIN_EXE_chembl-mcp"), &env).await;
    let page = client
        .call_ok(
            "chembl_search_compounds",
            json!({"query": "imatinib", "page_size": 5}),
        )
        .await;
    assert_eq!(page["items"][0]["id"], "CHEMBL:941");
    let e = client
        .call_err("chembl_get_compound", json!({"chembl_id": "CHEMBL941"}))
        .await;
    assert_eq!(e.recovery_hint, "Use format 'CHEMBL:941'");
    client.close().await;
}
