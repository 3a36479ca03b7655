//! `<bin> call TOOL …`: one tool call through a real in-process MCP session, its
//! answer printed as JSON, or, with `--format tsv|csv`, the whole list the tool answers
//! as the table an export makes (see [`crate::export`]), read back with
//! `resources/read` and written to stdout as it is.

use std::io::Write;
use std::process::ExitCode;
use std::time::Duration;

use rmcp::model::{CallToolRequestParams, CallToolResult, ReadResourceRequestParams, Tool};
use serde_json::{Map, Value};

use super::{EXIT_TOOL_ERROR, EXIT_USAGE, OutputFormat, ProvenanceForm, eprint_line, served_tools};
use crate::export;
use crate::serve;
use crate::server::{McpServer, Served};

/// How long a one-shot `call` waits, after printing its answer, for the background work
/// it started (a source's daily release look-up, a provenance record for the store), so
/// the next process finds it done.
const SETTLE_AFTER_CALL: Duration = Duration::from_secs(5);

/// Call `tool_name` once with `raw_args` and write what it answers to `out`: its result
/// as JSON, or, for `--format tsv|csv`, the table of its whole list (an error envelope
/// then goes to stderr, so stdout holds nothing but a table).
pub(super) async fn call<S: McpServer>(
    server: S,
    tool_name: &str,
    raw_args: &[String],
    provenance: ProvenanceForm,
    format: OutputFormat,
    out: &mut (dyn Write + Send),
) -> ExitCode {
    crate::chores::one_shot();
    let tools = served_tools(&server);
    let Some(tool) = tools.iter().find(|t| t.name == tool_name) else {
        let names: Vec<_> = tools.iter().map(|t| t.name.as_ref()).collect();
        eprint_line(&format!(
            "{}: unknown tool '{tool_name}'. Tools: {}",
            S::NAME,
            if names.is_empty() {
                "(none)".to_owned()
            } else {
                names.join(", ")
            }
        ));
        return ExitCode::from(EXIT_USAGE);
    };
    let mut arguments = match parse_call_arguments(tool, raw_args) {
        Ok(arguments) => arguments,
        Err(message) => {
            eprint_line(&format!("{}: {message}", S::NAME));
            return ExitCode::from(EXIT_USAGE);
        }
    };
    let table = format.table();
    if let Some(table) = table {
        if !takes_export(tool) {
            let lists: Vec<&str> = tools
                .iter()
                .filter(|t| takes_export(t))
                .map(|t| t.name.as_ref())
                .collect();
            eprint_line(&format!(
                "{}: {tool_name} does not answer a list; --format {} works with {}",
                S::NAME,
                table.name(),
                if lists.is_empty() {
                    "no tool of this server".to_owned()
                } else {
                    lists.join(", ")
                }
            ));
            return ExitCode::from(EXIT_USAGE);
        }
        arguments.insert(export::ARGUMENT.to_owned(), table.name().into());
    }
    let (result, text) = match call_in_process(server, tool_name, arguments, table.is_some()).await
    {
        Ok(answered) => answered,
        Err(message) => {
            eprint_line(&format!("{}: {message}", S::NAME));
            return ExitCode::from(EXIT_USAGE);
        }
    };
    let mut printed = result_json(&result);
    let written = match text {
        Some(table) => {
            if printed.pointer("/export/complete") == Some(&Value::Bool(false)) {
                let note = printed
                    .pointer("/export/note")
                    .and_then(Value::as_str)
                    .unwrap_or("the table is not the whole list");
                eprint_line(&format!("{}: {tool_name}: not complete: {note}", S::NAME));
            }
            out.write_all(table.as_bytes()).and_then(|()| out.flush())
        }
        None if table.is_some() => {
            // No table: the error envelope (or an answer without an export), on stderr.
            let text =
                serde_json::to_string_pretty(&printed).unwrap_or_else(|_| printed.to_string());
            eprint_line(&text);
            Ok(())
        }
        None => {
            if provenance == ProvenanceForm::Full {
                with_full_provenance(&mut printed).await;
            }
            let text =
                serde_json::to_string_pretty(&printed).unwrap_or_else(|_| printed.to_string());
            writeln!(out, "{text}").and_then(|()| out.flush())
        }
    };
    if written.is_err() {
        return ExitCode::FAILURE;
    }
    let left = crate::chores::settle(SETTLE_AFTER_CALL).await;
    if left > 0 {
        tracing::debug!(left, "background work left unfinished at exit");
    }
    let tabled = table.is_none() || printed.pointer("/export/uri").is_some();
    if result.is_error == Some(true) || !tabled {
        ExitCode::from(EXIT_TOOL_ERROR)
    } else {
        ExitCode::SUCCESS
    }
}

/// Whether `tool` takes the export argument (its answer is a list).
fn takes_export(tool: &Tool) -> bool {
    tool.input_schema
        .get("properties")
        .and_then(|p| p.get(export::ARGUMENT))
        .is_some()
}

/// Put the full record in place of a summarised `provenance` (see `records.rs`).
async fn with_full_provenance(printed: &mut Value) {
    let Some(uri) = printed
        .pointer("/provenance/full")
        .and_then(Value::as_str)
        .map(str::to_owned)
    else {
        return;
    };
    if let Some(full) = crate::records::full_record(&uri).await
        && let Ok(full) = serde_json::from_str::<Value>(&full)
        && let Some(slot) = printed.get_mut("provenance")
    {
        *slot = full;
    }
}

/// Run one tool call through a real in-process MCP session, so `call` sees exactly what a
/// client would; with `read_table`, also read the table its answer links (`export.uri`)
/// in the same session.
async fn call_in_process<S: McpServer>(
    server: S,
    tool_name: &str,
    arguments: Map<String, Value>,
    read_table: bool,
) -> Result<(CallToolResult, Option<String>), String> {
    use rmcp::ServiceExt as _;
    let (server_io, client_io) = tokio::io::duplex(1 << 20);
    let (server_read, server_write) = tokio::io::split(server_io);
    let server_task = tokio::spawn(serve::serve_io(
        Served::new(server),
        server_read,
        server_write,
        futures::future::pending(),
        serve::SHUTDOWN_GRACE,
    ));
    let client = ().serve(client_io).await.map_err(|e| format!("cannot start the session: {e}"))?;
    let request = CallToolRequestParams::new(tool_name.to_owned()).with_arguments(arguments);
    let outcome = match client.call_tool(request).await {
        Ok(result) => {
            let uri = result
                .structured_content
                .as_ref()
                .and_then(|s| s.pointer("/export/uri"))
                .and_then(Value::as_str)
                .filter(|_| read_table && result.is_error != Some(true))
                .map(str::to_owned);
            match uri {
                Some(uri) => client
                    .read_resource(ReadResourceRequestParams::new(uri.clone()))
                    .await
                    .map_err(|e| format!("cannot read the table {uri}: {e}"))
                    .map(|read| {
                        let text: String = read
                            .contents
                            .iter()
                            .filter_map(|c| match c {
                                rmcp::model::ResourceContents::TextResourceContents {
                                    text,
                                    ..
                                } => Some(text.as_str()),
                                _ => None,
                            })
                            .collect();
                        (result, Some(text))
                    }),
                None => Ok((result, None)),
            }
        }
        Err(e) => Err(e.to_string()),
    };
    let _ = client.cancel().await;
    server_task.abort();
    outcome
}

/// What a tool result says, as `call` prints it: the structured content when there is one
/// (a result object), else the text content, read as JSON when it is JSON (an error
/// envelope).
pub fn result_json(result: &CallToolResult) -> Value {
    if let Some(structured) = &result.structured_content {
        return structured.clone();
    }
    let texts: Vec<Value> = result
        .content
        .iter()
        .filter_map(|c| {
            c.as_text().map(|t| {
                serde_json::from_str(&t.text).unwrap_or_else(|_| Value::String(t.text.clone()))
            })
        })
        .collect();
    match texts.len() {
        1 => texts.into_iter().next().unwrap_or(Value::Null),
        _ => Value::Array(texts),
    }
}

/// Read `call` arguments: nothing, one JSON object, or `key=value` pairs whose values are
/// typed by the tool's input schema.
fn parse_call_arguments(tool: &Tool, raw: &[String]) -> Result<Map<String, Value>, String> {
    if let [single] = raw
        && single.trim_start().starts_with('{')
    {
        return match serde_json::from_str::<Value>(single) {
            Ok(Value::Object(map)) => Ok(map),
            Ok(_) => Err("the JSON arguments must be an object".to_owned()),
            Err(e) => Err(format!("the JSON arguments do not parse: {e}")),
        };
    }
    let root = Value::Object((*tool.input_schema).clone());
    let properties = root.get("properties").and_then(Value::as_object);
    let mut map = Map::new();
    for pair in raw {
        let Some((key, value)) = pair.split_once('=') else {
            return Err(format!(
                "argument '{pair}' is neither a JSON object nor key=value (e.g. query=TP53)"
            ));
        };
        let types = properties
            .and_then(|p| p.get(key))
            .map(|schema| schema_types(schema, &root, 0))
            .unwrap_or_default();
        map.insert(key.to_owned(), typed_value(value, &types));
    }
    Ok(map)
}

/// `limit=5` is the number 5 when the schema wants a number, `query=5` stays the string
/// "5", `filters={"source":"GTEx"}` is an object when the schema wants one; lists may be
/// written as JSON or comma-separated (`ids=7157` is `["7157"]`). Unknown arguments are
/// read as JSON when they parse, so the tool can name them in its error.
fn typed_value(raw: &str, types: &[String]) -> Value {
    let wants = |t: &str| types.iter().any(|x| x == t);
    let parsed = serde_json::from_str::<Value>(raw).ok();
    if types.is_empty() {
        return parsed.unwrap_or_else(|| Value::String(raw.to_owned()));
    }
    if wants("array") {
        if let Some(list @ Value::Array(_)) = parsed {
            return list;
        }
        return Value::Array(
            raw.split(',')
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(|s| Value::String(s.to_owned()))
                .collect(),
        );
    }
    let non_string = ["integer", "number", "boolean", "object"];
    match parsed {
        Some(value) if non_string.iter().any(|t| wants(t)) && !value.is_string() => value,
        _ => Value::String(raw.to_owned()),
    }
}

/// The JSON types a property schema admits, following local `$ref`s into `$defs`.
fn schema_types(schema: &Value, root: &Value, depth: u8) -> Vec<String> {
    if depth > 8 {
        return Vec::new();
    }
    if let Some(reference) = schema.get("$ref").and_then(Value::as_str) {
        let target = reference
            .strip_prefix("#/")
            .map(|path| path.split('/').try_fold(root, |node, part| node.get(part)));
        return match target {
            Some(Some(resolved)) => schema_types(resolved, root, depth + 1),
            _ => Vec::new(),
        };
    }
    let mut types = Vec::new();
    match schema.get("type") {
        Some(Value::String(t)) => types.push(t.clone()),
        Some(Value::Array(ts)) => {
            types.extend(ts.iter().filter_map(Value::as_str).map(str::to_owned));
        }
        _ => {}
    }
    if types.is_empty()
        && let Some(values) = schema.get("enum").and_then(Value::as_array)
        && values.iter().all(Value::is_string)
    {
        types.push("string".to_owned());
    }
    for key in ["anyOf", "oneOf", "allOf"] {
        if let Some(Value::Array(options)) = schema.get(key) {
            for option in options {
                types.extend(schema_types(option, root, depth + 1));
            }
        }
    }
    types
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn tool_with(properties: Value) -> Tool {
        let schema = json!({"type": "object", "properties": properties});
        Tool::new(
            "t",
            "test",
            std::sync::Arc::new(schema.as_object().unwrap().clone()),
        )
    }

    #[test]
    fn key_value_arguments_follow_the_schema() {
        let mut tool = tool_with(json!({
            "query": {"type": "string"},
            "limit": {"type": ["integer", "null"]},
            "slim": {"type": "boolean"},
            "identifiers": {"type": "array", "items": {"type": "string"}},
            "format": {"$ref": "#/$defs/Format"},
            "filters": {"anyOf": [{"$ref": "#/$defs/Filters"}, {"type": "null"}]},
            "ids": {"type": "array", "items": {"type": "string"}}
        }));
        let mut schema = (*tool.input_schema).clone();
        schema.insert(
            "$defs".into(),
            json!({"Format": {"type": "string", "enum": ["png", "svg"]},
                   "Filters": {"type": "object", "properties": {"source": {"type": "string"}}}}),
        );
        tool.input_schema = std::sync::Arc::new(schema);
        let raw: Vec<String> = [
            "query=5",
            "limit=10",
            "slim=true",
            "identifiers=TP53, MDM2",
            "format=png",
            "extra=[1,2]",
            r#"filters={"source":"GTEx"}"#,
            "ids=7157",
        ]
        .iter()
        .map(|s| (*s).to_owned())
        .collect();
        let args = parse_call_arguments(&tool, &raw).unwrap();
        assert_eq!(
            Value::Object(args),
            json!({"query": "5", "limit": 10, "slim": true, "identifiers": ["TP53", "MDM2"],
                   "format": "png", "extra": [1, 2], "filters": {"source": "GTEx"},
                   "ids": ["7157"]})
        );
    }

    #[test]
    fn a_json_object_is_taken_as_is() {
        let tool = tool_with(json!({}));
        let args = parse_call_arguments(&tool, &[r#"{"query": "TP53", "limit": 3}"#.to_owned()]);
        assert_eq!(
            Value::Object(args.unwrap()),
            json!({"query": "TP53", "limit": 3})
        );
        assert!(parse_call_arguments(&tool, &["{not json".to_owned()]).is_err());
        assert!(parse_call_arguments(&tool, &["query".to_owned()]).is_err());
    }

    #[test]
    fn values_may_contain_equals_signs() {
        let tool = tool_with(json!({"q": {"type": "string"}}));
        let args = parse_call_arguments(&tool, &["q=a=b".to_owned()]).unwrap();
        assert_eq!(args["q"], "a=b");
    }
}
