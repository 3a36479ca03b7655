//! The built binary, driven over stdio by a real MCP client.

use lifesciences_core::McpServer;
use lifesciences_core::testing::McpTestClient;
use string_mcp::StringServer;

#[tokio::test]
async fn the_binary_speaks_mcp_over_stdio() {
    // Upstreams point at a closed port: nothing here may reach the network.
    let env = [
        ("STRING_API_URL", "http://127.0.0.1:9"),
        ("ENSEMBL_API_URL", "http://127.0.0.1:9"),
        ("EBI_SEARCH_API_URL", "http://127.0.0.1:9"),
        ("CHEMBL_API_URL", "http://127.0.0.1:9"),
        ("UNICHEM_API_URL", "http://127.0.0.1:9"),
        ("IGVF_CATALOG_API_URL", "http://127.0.0.1:9"),
    ];
    let client = McpTestClient::spawn_binary(env!("CARGO_BIN_EXE_string-mcp"), &env).await;
    let info = client.peer().peer_info().expect("initialize result");
    let server = info.server_info.as_ref().expect("server info");
    assert_eq!(server.name, StringServer::NAME);
    assert_eq!(server.version, StringServer::VERSION);
    assert_eq!(
        info.instructions.as_deref(),
        Some(StringServer::INSTRUCTIONS)
    );
    let listed: Vec<_> = client.tools().await.into_iter().map(|t| t.name).collect();
    let defined: Vec<_> = StringServer::tools().into_iter().map(|t| t.name).collect();
    assert_eq!(listed, defined);
    client.close().await;
}
