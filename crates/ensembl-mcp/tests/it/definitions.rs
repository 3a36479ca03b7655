//! The tool definitions an agent reads: a snapshot of the list, and the properties every
//! tool must have (scenario 10 of issue #4).

use ensembl_mcp::EnsemblServer;
use lifesciences_core::McpServer;

use crate::support::Upstream;

#[test]
fn tool_list_snapshot() {
    insta::assert_json_snapshot!("tools", EnsemblServer::tools());
}

#[tokio::test]
async fn every_tool_is_titled_described_read_only_and_typed() {
    let upstream = Upstream::empty().await;
    let client = upstream.client().await;
    let tools = client.tools().await;
    let mut names: Vec<String> = tools.iter().map(|t| t.name.to_string()).collect();
    names.sort_unstable();
    assert_eq!(
        names,
        [
            "ensembl_get_gene",
            "ensembl_get_transcript",
            "ensembl_search_genes"
        ]
    );
    for tool in &tools {
        assert!(
            tool.title.as_deref().is_some_and(|t| !t.is_empty()),
            "{} has a title",
            tool.name
        );
        assert!(
            tool.description
                .as_deref()
                .is_some_and(|d| d.contains("Example: `{")),
            "{} is described with an example",
            tool.name
        );
        let a = tool.annotations.as_ref().expect("annotations");
        assert_eq!(a.read_only_hint, Some(true), "{}", tool.name);
        assert_eq!(a.idempotent_hint, Some(true), "{}", tool.name);
        assert_eq!(a.open_world_hint, Some(true), "{}", tool.name);
        assert!(
            tool.output_schema.is_some(),
            "{} has an outputSchema",
            tool.name
        );
        // Every argument is documented for the model that fills it in.
        let properties = tool.input_schema["properties"].as_object().unwrap();
        for (name, schema) in properties {
            assert!(
                schema["description"].as_str().is_some_and(|d| d.len() > 20),
                "{}.{name} is documented",
                tool.name
            );
        }
    }
    assert!(
        upstream.requests().await.is_empty(),
        "listing tools sends nothing"
    );
    client.close().await;
}

#[test]
fn instructions_give_the_path_in_three_lines() {
    let lines: Vec<&str> = EnsemblServer::INSTRUCTIONS.lines().collect();
    assert_eq!(lines.len(), 3);
    assert!(lines[1].contains("ensembl_search_genes"));
    assert!(lines[2].contains("ensembl_get_gene") && lines[2].contains("ensembl_get_transcript"));
}
