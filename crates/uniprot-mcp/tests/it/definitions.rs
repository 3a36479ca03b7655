//! The tool definitions an agent reads: a snapshot of the whole list, the promises every
//! tool keeps (checked by core's test kit, as for every server, the catalog and output
//! budgets among them), and the instructions.

use lifesciences_core::testing::assert_tool_definitions;
use lifesciences_core::{McpServer, tools};
use uniprot_mcp::UniprotServer;

use crate::support::setup;

/// Names, titles, descriptions, input and output schemas, annotations: any change shows
/// up here for review (`cargo insta review`, or INSTA_UPDATE=always).
#[test]
fn tool_list_snapshot() {
    insta::assert_json_snapshot!("tools", tools::<UniprotServer>());
}

#[test]
fn every_tool_keeps_the_promises_of_a_tool_definition() {
    assert_tool_definitions::<UniprotServer>();
}

#[tokio::test]
async fn the_server_lists_its_four_tools_and_listing_sends_nothing_upstream() {
    let (upstream, client) = setup().await;
    assert_eq!(
        client.tool_names().await,
        [
            "uniprot_get_features",
            "uniprot_get_protein",
            "uniprot_map_ids",
            "uniprot_search_proteins"
        ],
    );
    assert!(upstream.received_requests().await.unwrap().is_empty());
    client.close().await;
}

#[test]
fn the_instructions_name_every_tool_and_stay_short() {
    let instructions = UniprotServer::INSTRUCTIONS;
    for tool in tools::<UniprotServer>() {
        assert!(
            instructions.contains(tool.name.as_ref()),
            "the instructions do not name {}",
            tool.name
        );
    }
    assert!(instructions.len() < 1500, "{} bytes", instructions.len());
}
