//! The built binary, driven over stdio by a real MCP client.

use ensembl_mcp::EnsemblServer;
use lifesciences_core::testing::assert_binary_speaks_mcp;

/// A port nothing listens on: the smoke test must not reach the network.
const CLOSED: &str = "http://127.0.0.1:9";

#[tokio::test]
async fn the_binary_speaks_mcp_over_stdio() {
    let env = [("ENSEMBL_API_URL", CLOSED), ("EBI_SEARCH_API_URL", CLOSED)];
    assert_binary_speaks_mcp::<EnsemblServer>(env!("CARGO_BIN_EXE_ensembl-mcp"), &env).await;
}
