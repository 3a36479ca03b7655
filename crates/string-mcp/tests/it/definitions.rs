//! The tool definitions an agent reads: a snapshot of the whole list, the promises every
//! tool keeps (checked by core's test kit, as for every server), and the instructions.

use lifesciences_core::testing::assert_tool_definitions;
use lifesciences_core::{McpServer, tools};
use string_mcp::StringServer;

use crate::support::setup;

/// Names, titles, descriptions, input and output schemas, annotations: any change shows
/// up here for review (`cargo insta review`, or INSTA_UPDATE=always).
#[test]
fn tool_list_snapshot() {
    insta::assert_json_snapshot!("tools", tools::<StringServer>());
}

#[test]
fn every_tool_keeps_the_promises_of_a_tool_definition() {
    assert_tool_definitions::<StringServer>();
}

#[tokio::test]
async fn the_server_lists_its_tools_and_listing_sends_nothing_upstream() {
    let (upstream, client) = setup().await;
    assert_eq!(
        client.tool_names().await,
        declared_names(),
        "the tools listed over MCP are the tools declared"
    );
    assert!(upstream.received_requests().await.unwrap().is_empty());
    client.close().await;
}

#[test]
fn the_instructions_name_every_tool_and_the_rate() {
    let instructions = StringServer::INSTRUCTIONS;
    for tool in tools::<StringServer>() {
        assert!(
            instructions.contains(tool.name.as_ref()),
            "the instructions do not name {}",
            tool.name
        );
    }
    assert!(instructions.contains("one request per second"));
    assert!(instructions.len() < 1500, "{} bytes", instructions.len());
}

/// The names of the tools the server declares, sorted as `tools/list` answers them.
fn declared_names() -> Vec<String> {
    let mut names: Vec<String> = tools::<StringServer>()
        .iter()
        .map(|t| t.name.to_string())
        .collect();
    names.sort();
    names
}
