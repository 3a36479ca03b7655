//! The built binary, driven over stdio by a real MCP client.

use chembl_mcp::ChemblServer;
use lifesciences_core::testing::assert_binary_speaks_mcp;

/// A port nothing listens on: the smoke test must not reach the network.
const CLOSED: &str = "http://127.0.0.1:9";

#[tokio::test]
async fn the_binary_speaks_mcp_over_stdio() {
    let env = [("CHEMBL_API_URL", CLOSED), ("UNICHEM_API_URL", CLOSED)];
    assert_binary_speaks_mcp::<ChemblServer>(env!("CARGO_BIN_EXE_chembl-mcp"), &env).await;
}
