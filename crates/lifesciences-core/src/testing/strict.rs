//! What a strict MCP client does with a tool result (the TypeScript SDK's `callTool`, the
//! MCP Inspector, mcpc): check its `structuredContent` against the tool's `outputSchema`
//! with a JSON Schema 2020-12 validator, formats included, and refuse a result that does
//! not conform. [`McpTestClient`](super::McpTestClient) runs this on every call, so every
//! test that calls a tool also proves a strict client would accept the answer.

use rmcp::model::{CallToolResult, Tool};
use serde_json::Value;

/// Fail unless a strict client would accept `result` from `tool`:
///
/// - the tool's schemas are valid JSON Schema 2020-12 with only known formats;
/// - a success result of a tool with an output schema carries `structuredContent` that
///   conforms to it;
/// - an error result carries no `structuredContent` (the envelope travels as text), so
///   there is nothing for a strict client to reject.
pub fn assert_strict_client_accepts(tool: &Tool, result: &CallToolResult) {
    let name = &tool.name;
    let input = Value::Object((*tool.input_schema).clone());
    compile(name, "input", &input);
    let Some(output) = &tool.output_schema else {
        return;
    };
    let output = Value::Object((**output).clone());
    let validator = compile(name, "output", &output);
    if result.is_error == Some(true) {
        assert_eq!(
            result.structured_content, None,
            "{name}: an error result must carry its envelope as text only; strict clients \
             check structuredContent against the success schema"
        );
        return;
    }
    let structured = result.structured_content.as_ref().unwrap_or_else(|| {
        panic!("{name}: a tool with an output schema returned no structuredContent")
    });
    let errors: Vec<String> = validator
        .iter_errors(structured)
        .map(|e| format!("at `{}`: {e}", e.instance_path()))
        .collect();
    assert!(
        errors.is_empty(),
        "{name}: structuredContent does not match the output schema (a strict client would \
         reject it):\n  {}\nresult: {structured:#}",
        errors.join("\n  ")
    );
}

fn compile(tool: &str, which: &str, schema: &Value) -> jsonschema::Validator {
    if let Err(e) = jsonschema::draft202012::meta::validate(schema) {
        panic!("{tool}: the {which} schema is not valid JSON Schema 2020-12: {e}");
    }
    jsonschema::draft202012::options()
        .should_validate_formats(true)
        .should_ignore_unknown_formats(false)
        .build(schema)
        .unwrap_or_else(|e| panic!("{tool}: the {which} schema does not compile strictly: {e}"))
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use rmcp::model::ContentBlock;
    use serde_json::json;

    use super::*;

    fn tool(output: Value) -> Tool {
        let Value::Object(output) = output else {
            unreachable!()
        };
        let input = json!({"type": "object", "properties": {"id": {"type": "string"}}});
        let Value::Object(input) = input else {
            unreachable!()
        };
        Tool::new("t_get", "Get.", Arc::new(input)).with_raw_output_schema(Arc::new(output))
    }

    fn schema() -> Value {
        json!({"type": "object", "properties": {"id": {"type": "string"}, "n": {"type": "integer", "minimum": 0}}, "required": ["id"]})
    }

    #[test]
    fn a_conforming_success_is_accepted() {
        let result = CallToolResult::structured(json!({"id": "X", "n": 3}));
        assert_strict_client_accepts(&tool(schema()), &result);
    }

    #[test]
    #[should_panic(expected = "does not match the output schema")]
    fn a_success_missing_a_required_field_is_refused() {
        let result = CallToolResult::structured(json!({"n": 3}));
        assert_strict_client_accepts(&tool(schema()), &result);
    }

    #[test]
    #[should_panic(expected = "does not match the output schema")]
    fn a_bound_is_enforced() {
        let result = CallToolResult::structured(json!({"id": "X", "n": -1}));
        assert_strict_client_accepts(&tool(schema()), &result);
    }

    #[test]
    #[should_panic(expected = "envelope as text only")]
    fn an_error_with_structured_content_is_refused() {
        let result = CallToolResult::structured_error(json!({"success": false}));
        assert_strict_client_accepts(&tool(schema()), &result);
    }

    #[test]
    fn an_error_as_text_is_accepted() {
        let result = CallToolResult::error(vec![ContentBlock::text(r#"{"success":false}"#)]);
        assert_strict_client_accepts(&tool(schema()), &result);
    }

    #[test]
    #[should_panic(expected = "does not compile strictly")]
    fn an_unknown_format_is_refused() {
        let output =
            json!({"type": "object", "properties": {"n": {"type": "integer", "format": "uint32"}}});
        let result = CallToolResult::structured(json!({"n": 1}));
        assert_strict_client_accepts(&tool(output), &result);
    }
}
