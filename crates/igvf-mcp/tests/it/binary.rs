//! The built binary, driven over stdio by a real MCP client.

use igvf_mcp::IgvfServer;
use lifesciences_core::testing::{
    McpTestClient, assert_binary_speaks_mcp, assert_no_nulls, run_check,
};
use serde_json::json;

use crate::{fixture, requests, route};

/// A port nothing listens on: the smoke test must not reach the network.
const CLOSED: &str = "http://127.0.0.1:9";

#[tokio::test]
async fn the_binary_speaks_mcp_over_stdio() {
    let env = [("IGVF_CATALOG_API_URL", CLOSED)];
    assert_binary_speaks_mcp::<IgvfServer>(env!("CARGO_BIN_EXE_igvf-mcp"), &env).await;
}

#[cfg(unix)]
#[tokio::test]
async fn sigterm_stops_the_stdio_server() {
    let env = [("IGVF_CATALOG_API_URL", CLOSED)];
    lifesciences_core::testing::assert_stops_on_sigterm(env!("CARGO_BIN_EXE_igvf-mcp"), &env).await;
}

#[tokio::test]
async fn the_binary_looks_up_brca1_against_the_configured_upstream() {
    let upstream = lifesciences_core::testing::mock_upstream().await;
    route(
        &upstream,
        "api/genes",
        &[("name", "BRCA1")],
        fixture("genes__name=BRCA1.json"),
    )
    .await;
    // A base URL with a path and a trailing slash, as users write them.
    let base = format!("{}/api/", upstream.uri());
    let client = McpTestClient::spawn_binary(
        env!("CARGO_BIN_EXE_igvf-mcp"),
        &[("IGVF_CATALOG_API_URL", base.as_str())],
    )
    .await;
    let result = client.call("igvf_get_entity", json!({"id": "BRCA1"})).await;
    assert_ne!(result.is_error, Some(true), "{result:?}");
    let entity = result.structured_content.unwrap();
    assert_no_nulls(&entity);
    assert_eq!(entity["id"], "ENSG00000012048");
    assert_eq!(entity["_type"], "gene");
    client.close().await;
}

/// `check` asks the catalog's health endpoint once and says it is reachable; against a
/// closed port it says why not and exits 1.
#[tokio::test]
async fn check_probes_the_catalog_and_says_whether_it_answers() {
    let upstream = lifesciences_core::testing::mock_upstream().await;
    route(&upstream, "api/health", &[], fixture("health.json")).await;
    let program = env!("CARGO_BIN_EXE_igvf-mcp");
    let base = format!("{}/api", upstream.uri());
    let (code, out) = run_check(program, &[("IGVF_CATALOG_API_URL", base.as_str())]).await;
    assert_eq!(code, Some(0), "{out}");
    assert!(
        out.contains("IGVF Catalog") && out.contains("/api/health"),
        "{out}"
    );
    assert_eq!(
        requests(&upstream).await.len(),
        1,
        "one request, no retries"
    );
    let (code, out) = run_check(program, &[("IGVF_CATALOG_API_URL", CLOSED)]).await;
    assert_eq!(code, Some(1), "{out}");
    assert!(
        out.contains("NOT reachable") && out.contains("connection refused"),
        "{out}"
    );
}
