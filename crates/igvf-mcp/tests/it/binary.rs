//! The built binary, driven over stdio by a real MCP client.

use igvf_mcp::IgvfServer;
use lifesciences_core::testing::assert_binary_speaks_mcp;

/// A port nothing listens on: the smoke test must not reach the network.
const CLOSED: &str = "http://127.0.0.1:9";

#[tokio::test]
async fn the_binary_speaks_mcp_over_stdio() {
    let env = [("IGVF_CATALOG_API_URL", CLOSED)];
    assert_binary_speaks_mcp::<IgvfServer>(env!("CARGO_BIN_EXE_igvf-mcp"), &env).await;
}
