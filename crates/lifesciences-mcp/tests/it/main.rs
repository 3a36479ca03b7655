//! Integration tests of the gateway: one mock upstream standing for all seven sources
//! (each under its own path), serving the five servers' own recorded fixtures; nothing
//! touches the network.
#![expect(
    clippy::unwrap_used,
    reason = "test helpers outside #[test] fns: failing loudly is the point"
)]

mod binary;
mod live;
mod map_ids;
mod provenance;
mod regions;
mod server;
mod store;

use lifesciences_core::McpServer;
use lifesciences_core::testing::{Fixtures, McpTestClient, mock_env, mock_upstream};
use lifesciences_mcp::Gateway;
use wiremock::{MockServer, ResponseTemplate};

/// The fixtures of server crate `krate` (e.g. `ensembl-mcp`).
pub fn fixtures_of(krate: &str) -> Fixtures {
    Fixtures::of(&format!("{}/../{krate}", env!("CARGO_MANIFEST_DIR")))
}

/// A 200 JSON answer with fixture `name` of server crate `krate`.
pub fn fixture(krate: &str, name: &str) -> ResponseTemplate {
    ResponseTemplate::new(200)
        .insert_header("content-type", "application/json")
        .set_body_string(fixtures_of(krate).text(name))
}

/// Every source's base URL on the mock, and any other variables.
pub fn env_pairs(uri: &str) -> Vec<(&'static str, String)> {
    vec![
        ("STRING_API_URL", format!("{uri}/string")),
        ("ENSEMBL_API_URL", format!("{uri}/ensembl")),
        ("EBI_SEARCH_API_URL", format!("{uri}/ebisearch")),
        ("CHEMBL_API_URL", format!("{uri}/chembl")),
        ("UNICHEM_API_URL", format!("{uri}/unichem")),
        ("IGVF_CATALOG_API_URL", format!("{uri}/igvf")),
        ("UNIPROT_API_URL", format!("{uri}/uniprot")),
    ]
}

/// A gateway over the mock at `uri`, with `extra` variables.
pub fn gateway(uri: &str, extra: &[(&str, &str)]) -> Gateway {
    let pairs = env_pairs(uri);
    let mut all: Vec<(&str, &str)> = pairs.iter().map(|(k, v)| (*k, v.as_str())).collect();
    all.extend_from_slice(extra);
    Gateway::from_env(&mock_env(&all)).unwrap()
}

/// A mock upstream (a request no route expected fails the test) and a client of a
/// gateway serving every toolset.
pub async fn setup() -> (MockServer, McpTestClient) {
    let upstream = mock_upstream().await;
    let client = McpTestClient::connect(gateway(&upstream.uri(), &[])).await;
    (upstream, client)
}

/// The paths the mock received, in order.
pub async fn paths(upstream: &MockServer) -> Vec<String> {
    upstream
        .received_requests()
        .await
        .unwrap_or_default()
        .iter()
        .map(|r| r.url.path().to_owned())
        .collect()
}
