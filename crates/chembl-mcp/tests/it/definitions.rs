//! The tool definitions as an agent sees them: the snapshot, the promises every tool keeps
//! (checked by core's test kit, as for every server), and the instructions.

use chembl_mcp::ChemblServer;
use lifesciences_core::testing::assert_tool_definitions;
use lifesciences_core::{McpServer, tools};

use crate::support::Upstreams;

#[test]
fn the_tool_list_matches_the_snapshot() {
    insta::assert_json_snapshot!("tools", tools::<ChemblServer>());
}

#[test]
fn every_tool_keeps_the_promises_of_a_tool_definition() {
    assert_tool_definitions::<ChemblServer>();
}

#[tokio::test]
async fn the_server_lists_its_tools() {
    let up = Upstreams::start().await;
    let client = up.client().await;
    assert_eq!(
        client.tool_names().await,
        declared_names(),
        "the tools listed over MCP are the tools declared"
    );
    client.close().await;
}

#[test]
fn the_instructions_name_every_tool_in_three_lines() {
    let lines: Vec<&str> = ChemblServer::INSTRUCTIONS.lines().collect();
    assert_eq!(lines.len(), 3);
    assert!(lines[0].contains("chembl_search_compounds"));
    for tool in lifesciences_core::tools::<ChemblServer>() {
        assert!(
            ChemblServer::INSTRUCTIONS.contains(tool.name.as_ref()),
            "the instructions do not name {}",
            tool.name
        );
    }
}

/// The names of the tools the server declares, sorted as `tools/list` answers them.
fn declared_names() -> Vec<String> {
    let mut names: Vec<String> = tools::<ChemblServer>()
        .iter()
        .map(|t| t.name.to_string())
        .collect();
    names.sort();
    names
}
