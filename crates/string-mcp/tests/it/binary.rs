//! The built binary, driven over stdio by a real MCP client.

use lifesciences_core::testing::assert_binary_speaks_mcp;
use string_mcp::StringServer;

/// A port nothing listens on: the smoke test must not reach the network.
const CLOSED: &str = "http://127.0.0.1:9";

#[tokio::test]
async fn the_binary_speaks_mcp_over_stdio() {
    let env = [("STRING_API_URL", CLOSED)];
    assert_binary_speaks_mcp::<StringServer>(env!("CARGO_BIN_EXE_string-mcp"), &env).await;
}
