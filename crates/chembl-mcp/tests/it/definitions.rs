//! The tool definitions as an agent sees them: the snapshot, the annotations every tool
//! must carry, and the instructions.

use chembl_mcp::ChemblServer;
use lifesciences_core::McpServer;
use serde_json::Value;

use crate::support::Upstreams;

#[test]
fn the_tool_list_matches_the_snapshot() {
    insta::assert_json_snapshot!("tools", ChemblServer::tools());
}

#[tokio::test]
async fn every_tool_is_read_only_idempotent_open_world_titled_described_and_typed() {
    let up = Upstreams::start().await;
    let client = up.client().await;
    let tools = client.tools().await;
    let mut names: Vec<String> = tools.iter().map(|t| t.name.to_string()).collect();
    names.sort();
    assert_eq!(
        names,
        [
            "chembl_get_compound",
            "chembl_get_compounds_batch",
            "chembl_search_compounds"
        ]
    );
    for tool in &tools {
        let name = &tool.name;
        assert!(
            tool.title.as_deref().is_some_and(|t| !t.is_empty()),
            "{name}"
        );
        let description = tool.description.as_deref().unwrap_or_default();
        assert!(description.contains("Example: `{"), "{name}: {description}");
        let a = tool.annotations.as_ref().expect("annotations");
        assert_eq!(a.read_only_hint, Some(true), "{name}");
        assert_eq!(a.idempotent_hint, Some(true), "{name}");
        assert_eq!(a.open_world_hint, Some(true), "{name}");
        assert_eq!(a.destructive_hint, None, "{name}");
        assert!(
            tool.output_schema.is_some(),
            "{name} declares an outputSchema"
        );
        // Every argument is described for the model that fills it in.
        let properties = tool.input_schema["properties"].as_object().unwrap();
        for (arg, schema) in properties {
            assert!(
                schema["description"].as_str().is_some_and(|d| d.len() > 20),
                "{name}.{arg} is undocumented"
            );
        }
    }
    // The same list the binary and the docs use.
    assert_eq!(tools.len(), ChemblServer::tools().len());
    client.close().await;
}

#[test]
fn the_instructions_are_the_fuzzy_to_fact_path_in_three_lines() {
    let lines: Vec<&str> = ChemblServer::INSTRUCTIONS.lines().collect();
    assert_eq!(lines.len(), 3);
    assert!(lines[0].contains("chembl_search_compounds"));
    assert!(lines[1].contains("chembl_get_compound"));
    assert!(lines[2].contains("chembl_get_compounds_batch"));
}

/// Paths of schema nodes that admit `null`, outside the two pagination fields that may be
/// null (CONTRACT §3).
fn nullable_paths(schema: &Value, path: &str, out: &mut Vec<String>) {
    match schema {
        Value::Object(map) => {
            let admits_null = match map.get("type") {
                Some(Value::String(t)) => t == "null",
                Some(Value::Array(types)) => types.iter().any(|t| t == "null"),
                _ => false,
            };
            let allowed = path.ends_with(".cursor") || path.ends_with(".total_count");
            if admits_null && !allowed {
                out.push(path.to_owned());
            }
            for (key, value) in map {
                nullable_paths(value, &format!("{path}.{key}"), out);
            }
        }
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                nullable_paths(item, &format!("{path}[{i}]"), out);
            }
        }
        _ => {}
    }
}

#[test]
fn output_schemas_promise_no_nulls_outside_pagination() {
    for tool in ChemblServer::tools() {
        let schema = Value::Object((*tool.output_schema.unwrap()).clone());
        let mut found = Vec::new();
        nullable_paths(&schema, "$", &mut found);
        assert!(found.is_empty(), "{}: nullable at {found:?}", tool.name);
    }
}
