//! The tool definitions an agent reads: a snapshot of the list, the promises every tool
//! keeps (checked by core's test kit, as for every server), and the instructions.

use ensembl_mcp::EnsemblServer;
use lifesciences_core::testing::assert_tool_definitions;
use lifesciences_core::{McpServer, tools};

use crate::support::Upstream;

#[test]
fn tool_list_snapshot() {
    insta::assert_json_snapshot!("tools", tools::<EnsemblServer>());
}

#[test]
fn every_tool_keeps_the_promises_of_a_tool_definition() {
    assert_tool_definitions::<EnsemblServer>();
}

#[tokio::test]
async fn the_server_lists_its_tools_and_listing_sends_nothing_upstream() {
    let upstream = Upstream::empty().await;
    let client = upstream.client().await;
    assert_eq!(
        client.tool_names().await,
        declared_names(),
        "the tools listed over MCP are the tools declared"
    );
    assert!(
        upstream.requests().await.is_empty(),
        "listing tools sends nothing"
    );
    client.close().await;
}

#[test]
fn instructions_name_every_tool_in_a_few_lines() {
    let instructions = EnsemblServer::INSTRUCTIONS;
    for tool in tools::<EnsemblServer>() {
        assert!(
            instructions.contains(tool.name.as_ref()),
            "the instructions do not name {}",
            tool.name
        );
    }
    let lines: Vec<&str> = instructions.lines().collect();
    assert_eq!(lines.len(), 5);
    assert!(lines[1].contains("ensembl_search_genes"));
    assert!(instructions.len() < 1500, "{} bytes", instructions.len());
}

/// The names of the tools the server declares, sorted as `tools/list` answers them.
fn declared_names() -> Vec<String> {
    let mut names: Vec<String> = tools::<EnsemblServer>()
        .iter()
        .map(|t| t.name.to_string())
        .collect();
    names.sort();
    names
}
