//! The tool definitions an agent reads (scenario 12): a snapshot of the whole list, and
//! the promises every tool keeps.

use lifesciences_core::McpServer;
use string_mcp::StringServer;

use crate::support::setup;

/// Names, titles, descriptions, input and output schemas, annotations: any change shows
/// up here for review (`cargo insta review`, or INSTA_UPDATE=always).
#[test]
fn tool_list_snapshot() {
    insta::assert_json_snapshot!("tools", StringServer::tools());
}

#[tokio::test]
async fn every_tool_is_titled_described_read_only_idempotent_open_world_and_typed() {
    let (_upstream, client) = setup().await;
    let tools = client.tools().await;
    let mut names: Vec<String> = tools.iter().map(|t| t.name.to_string()).collect();
    names.sort();
    names.dedup();
    assert_eq!(
        names,
        [
            "string_get_interactions",
            "string_get_network_image_url",
            "string_search_proteins"
        ],
        "three uniquely named tools"
    );
    for tool in &tools {
        let name = &tool.name;
        assert!(
            tool.title.as_deref().is_some_and(|t| !t.is_empty()),
            "{name}: title"
        );
        let description = tool.description.as_deref().unwrap_or_default();
        assert!(
            description.contains("Example: `{"),
            "{name}: example in {description}"
        );
        let a = tool.annotations.as_ref().expect("annotations");
        assert_eq!(a.read_only_hint, Some(true), "{name}");
        assert_eq!(a.idempotent_hint, Some(true), "{name}");
        assert_eq!(a.open_world_hint, Some(true), "{name}");
        assert!(tool.output_schema.is_some(), "{name}: outputSchema");
        // Every argument is documented for the model that reads the schema.
        let properties = tool.input_schema["properties"]
            .as_object()
            .expect("properties");
        for (arg, schema) in properties {
            assert!(
                schema["description"].as_str().is_some_and(|d| d.len() > 20),
                "{name}.{arg} lacks a description: {schema}"
            );
        }
        // Unknown arguments are refused rather than ignored.
        assert_eq!(tool.input_schema["additionalProperties"], false, "{name}");
    }
    client.close().await;
}

#[test]
fn the_instructions_give_the_path_in_three_lines() {
    let lines: Vec<&str> = StringServer::INSTRUCTIONS.lines().collect();
    assert_eq!(lines.len(), 3);
    for (line, tool) in lines.iter().zip([
        "string_search_proteins",
        "string_get_interactions",
        "string_get_network_image_url",
    ]) {
        assert!(line.contains(tool), "{line}");
    }
}
