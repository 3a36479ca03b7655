//! The server as a whole: tool definitions (snapshot and annotations), resources,
//! instructions.

use igvf_mcp::IgvfServer;
use lifesciences_core::rmcp::model::ReadResourceRequestParams;
use lifesciences_core::testing::assert_tool_definitions;
use lifesciences_core::tools;

use crate::setup;

#[test]
fn tool_list_snapshot() {
    let tools = serde_json::to_value(tools::<IgvfServer>()).unwrap();
    insta::assert_json_snapshot!("tools", tools);
}

#[test]
fn every_tool_keeps_the_promises_of_a_tool_definition() {
    assert_tool_definitions::<IgvfServer>();
}

#[tokio::test]
async fn the_server_lists_its_seven_tools() {
    let (_upstream, client) = setup().await;
    assert_eq!(
        client.tool_names().await,
        [
            "igvf_find_associations",
            "igvf_find_ld",
            "igvf_get_entity",
            "igvf_list_sources",
            "igvf_query_associations",
            "igvf_resolve_id",
            "igvf_search_region"
        ]
    );
    client.close().await;
}

#[tokio::test]
async fn resources_are_listed_and_readable_and_unknown_ones_are_not_found() {
    let (_upstream, client) = setup().await;
    let listed = client.peer().list_all_resources().await.unwrap();
    let uris: Vec<&str> = listed.iter().map(|r| r.uri.as_str()).collect();
    assert_eq!(
        uris,
        [
            "igvf://schemas/gene",
            "igvf://schemas/variant",
            "igvf://guide/identifiers",
            "igvf://examples/queries"
        ]
    );
    for uri in uris {
        let read = client
            .peer()
            .read_resource(ReadResourceRequestParams::new(uri))
            .await
            .unwrap();
        let text = match &read.contents[0] {
            lifesciences_core::rmcp::model::ResourceContents::TextResourceContents {
                text, ..
            } => text.clone(),
            other => panic!("{uri}: not text: {other:?}"),
        };
        assert!(text.len() > 200, "{uri}");
        if uri.starts_with("igvf://schemas/") {
            let schema: serde_json::Value = serde_json::from_str(&text).unwrap();
            assert!(
                schema["properties"]["id"]["description"].is_string(),
                "{uri}"
            );
        }
    }
    let guide = client
        .peer()
        .read_resource(ReadResourceRequestParams::new("igvf://guide/identifiers"))
        .await
        .unwrap();
    let guide = serde_json::to_string(&guide).unwrap();
    assert!(guide.contains("MONDO:0007254") && guide.contains("rs80357906"));
    let missing = client
        .peer()
        .read_resource(ReadResourceRequestParams::new("igvf://schemas/protein"))
        .await
        .unwrap_err();
    assert!(
        missing.to_string().contains("-32002") || missing.to_string().contains("unknown resource"),
        "{missing}"
    );
    client.close().await;
}

#[tokio::test]
async fn initialize_announces_tools_resources_and_the_fuzzy_to_fact_path() {
    let (_upstream, client) = setup().await;
    let info = client.peer().peer_info().unwrap();
    assert!(info.capabilities.resources.is_some());
    assert!(info.capabilities.tools.is_some());
    let instructions = info.instructions.as_deref().unwrap();
    assert_eq!(
        instructions.lines().count(),
        3,
        "the three steps of the Fuzzy-to-Fact path, no title line"
    );
    assert!(instructions.starts_with("1. "), "{instructions}");
    for tool in [
        "igvf_get_entity",
        "igvf_find_associations",
        "igvf_list_sources",
    ] {
        assert!(instructions.contains(tool), "{tool}");
    }
    client.close().await;
}

#[test]
fn the_tool_list_fits_an_agent_s_context_budget() {
    // Measured as sent on the wire (compact JSON): once 46 KB, with
    // igvf_get_entity's output schema alone at 13.6 KB.
    let tools = serde_json::to_value(tools::<IgvfServer>()).unwrap();
    let total = serde_json::to_string(&tools).unwrap().len();
    assert!(total < 35_000, "tools/list is {total} bytes");
    for tool in tools.as_array().unwrap() {
        let out = serde_json::to_string(&tool["outputSchema"]).unwrap().len();
        assert!(
            out < 10_000,
            "{}: outputSchema is {out} bytes",
            tool["name"]
        );
        // Typed shapes are kept: every output schema still names its fields.
        assert!(
            tool["outputSchema"]["properties"].is_object()
                || tool["outputSchema"]["oneOf"].is_array(),
            "{}",
            tool["name"]
        );
    }
}
