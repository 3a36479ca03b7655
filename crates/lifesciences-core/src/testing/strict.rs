//! What a strict MCP client does with a tool: compile its schemas with a strict JSON
//! Schema 2020-12 validator, and check a result's `structuredContent` against its
//! `outputSchema`, formats included, refusing a result that does not conform (the
//! TypeScript SDK's `callTool`, the MCP Inspector, mcpc).
//!
//! The TypeScript clients compile with ajv in strict mode, which refuses a schema the
//! `jsonschema` crate compiles without a word: a `required` property the schema does not
//! define, a keyword outside the vocabularies, a format it does not know, a keyword for
//! objects in a schema not typed `object`. [`strict_refusals`] says what ajv 8 (`Ajv2020`,
//! `strict: true`, with ajv-formats) would refuse, rule by rule as its source does
//! (<https://ajv.js.org/strict-mode.html>), and is the one check of a schema:
//! [`assert_tool_definitions`](super::assert_tool_definitions) runs it over every tool of
//! a server and [`McpTestClient`](super::McpTestClient) on every call, so every test that
//! calls a tool also proves a strict client would accept the tool and its answer.

use rmcp::model::{CallToolResult, Tool};
use serde_json::Value;

/// Fail unless a strict client would accept `result` from `tool`:
///
/// - the tool's schemas are valid JSON Schema 2020-12 and compile as ajv's strict mode
///   compiles them: every `required` property defined, no unknown keyword or format, each
///   keyword in a schema of the type it applies to, one type per `type` (or one and
///   `null`);
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

/// Fail unless `schema` (the `which` schema of `tool`, `input` or `output`) is valid JSON
/// Schema 2020-12 and compiles in a strict validator; returns the validator.
pub(crate) fn compile(tool: &str, which: &str, schema: &Value) -> jsonschema::Validator {
    if let Err(e) = jsonschema::draft202012::meta::validate(schema) {
        panic!("{tool}: the {which} schema is not valid JSON Schema 2020-12: {e}");
    }
    let refusals = strict_refusals(schema);
    assert!(
        refusals.is_empty(),
        "{tool}: the {which} schema does not compile strictly (ajv 2020-12 in strict mode \
         refuses it, and with it every call of the TypeScript clients):\n  {}",
        refusals.join("\n  ")
    );
    jsonschema::draft202012::options()
        .should_validate_formats(true)
        .should_ignore_unknown_formats(false)
        .build(schema)
        .unwrap_or_else(|e| panic!("{tool}: the {which} schema does not compile strictly: {e}"))
}

/// The keywords of the JSON Schema 2020-12 vocabularies (core, applicator, unevaluated,
/// validation, meta-data, format, content) that ajv knows. Left out: `$anchor`, which ajv
/// refuses, and what ajv knows but 2020-12 does not (`nullable`, `definitions`,
/// `dependencies`, `id`, `$recursiveRef`…).
const KEYWORDS: &[&str] = &[
    "$schema",
    "$id",
    "$ref",
    "$defs",
    "$comment",
    "$dynamicRef",
    "$dynamicAnchor",
    "$vocabulary",
    "allOf",
    "anyOf",
    "oneOf",
    "not",
    "if",
    "then",
    "else",
    "dependentSchemas",
    "prefixItems",
    "items",
    "contains",
    "properties",
    "patternProperties",
    "additionalProperties",
    "propertyNames",
    "unevaluatedItems",
    "unevaluatedProperties",
    "type",
    "enum",
    "const",
    "multipleOf",
    "maximum",
    "exclusiveMaximum",
    "minimum",
    "exclusiveMinimum",
    "maxLength",
    "minLength",
    "pattern",
    "maxItems",
    "minItems",
    "uniqueItems",
    "maxContains",
    "minContains",
    "maxProperties",
    "minProperties",
    "required",
    "dependentRequired",
    "title",
    "description",
    "default",
    "deprecated",
    "readOnly",
    "writeOnly",
    "examples",
    "format",
    "contentEncoding",
    "contentMediaType",
    "contentSchema",
];

/// The formats ajv-formats knows that are also JSON Schema 2020-12 formats (ajv-formats
/// adds OpenAPI's `int32`, `double`…, and lacks `idn-email`, `idn-hostname`, `iri` and
/// `iri-reference`, which ajv then refuses).
const FORMATS: &[&str] = &[
    "date-time",
    "date",
    "time",
    "duration",
    "email",
    "hostname",
    "ipv4",
    "ipv6",
    "uri",
    "uri-reference",
    "uri-template",
    "uuid",
    "json-pointer",
    "relative-json-pointer",
    "regex",
];

/// The instance types a keyword applies to, for those that apply to some only (ajv's
/// `type` of each keyword definition): in strict mode the schema must say one of them.
fn applies_to(keyword: &str) -> &'static [&'static str] {
    match keyword {
        "properties"
        | "patternProperties"
        | "additionalProperties"
        | "propertyNames"
        | "unevaluatedProperties"
        | "required"
        | "dependentRequired"
        | "dependentSchemas"
        | "minProperties"
        | "maxProperties" => &["object"],
        "items" | "prefixItems" | "contains" | "unevaluatedItems" | "minItems" | "maxItems"
        | "uniqueItems" | "minContains" | "maxContains" => &["array"],
        "minLength" | "maxLength" | "pattern" => &["string"],
        "minimum" | "maximum" | "exclusiveMinimum" | "exclusiveMaximum" | "multipleOf" => {
            &["number"]
        }
        "format" => &["number", "string"],
        _ => &[],
    }
}

/// How a keyword holds schemas: one, a list, or a map from names.
enum Subschemas {
    One,
    List,
    Map,
}

/// The schemas a keyword holds, if any, and whether they apply to the instance itself
/// (an `anyOf` branch, typed within its schema's types) or to a part of it (a property,
/// an item: typed afresh). `contentSchema` is an annotation ajv does not compile.
fn subschemas(keyword: &str) -> Option<(Subschemas, bool)> {
    Some(match keyword {
        "not" | "if" | "then" | "else" => (Subschemas::One, true),
        "allOf" | "anyOf" | "oneOf" => (Subschemas::List, true),
        "dependentSchemas" => (Subschemas::Map, true),
        "items"
        | "contains"
        | "additionalProperties"
        | "propertyNames"
        | "unevaluatedItems"
        | "unevaluatedProperties" => (Subschemas::One, false),
        "prefixItems" => (Subschemas::List, false),
        "properties" | "patternProperties" | "$defs" => (Subschemas::Map, false),
        _ => return None,
    })
}

/// What ajv 8 in strict mode (`new Ajv2020({strict: true})` with ajv-formats) refuses in
/// `schema`, one sentence each, located by a JSON pointer and named by ajv's option:
///
/// - `strictSchema`: a keyword outside the 2020-12 vocabularies, a format ajv-formats
///   does not know, `if` without `then`/`else` (and the reverse), `minContains`/
///   `maxContains` that make `contains` meaningless, a property that a pattern of
///   `patternProperties` also matches;
/// - `strictRequired`: a `required` property the same schema does not define in
///   `properties`;
/// - `strictTypes`: several types in `type` (but one and `null`), a type its context rules
///   out (`anyOf: [{type: number}]` under `type: integer`), a keyword for objects, arrays,
///   strings or numbers in a schema that does not say that type (itself or in the schema
///   it is a branch of);
/// - `strictTuples`: `prefixItems` without `minItems` of its length and `maxItems` or
///   `items: false`.
///
/// A little stricter than ajv, never more lenient: every definition is checked, used or
/// not (ajv checks those it reaches); a required property must be defined by its own
/// schema object (ajv also accepts one an earlier branch defined); and what ajv knows
/// beyond JSON Schema 2020-12 is refused too (`nullable`, OpenAPI's formats such as
/// `double`), since other strict validators do not know it.
pub(crate) fn strict_refusals(schema: &Value) -> Vec<String> {
    let mut refusals = Vec::new();
    walk(schema, "#", &[], &mut refusals);
    refusals
}

fn walk(node: &Value, at: &str, context: &[String], out: &mut Vec<String>) {
    let Value::Object(map) = node else {
        // `true` and `false` are schemas; anything else the meta-schema refuses.
        return;
    };
    for key in map.keys() {
        if !KEYWORDS.contains(&key.as_str()) {
            out.push(format!(
                "at {at}: unknown keyword \"{key}\", not in the JSON Schema 2020-12 \
                 vocabularies (strictSchema)"
            ));
        }
    }
    let here = types(map, at, context, out);
    let properties = map.get("properties").and_then(Value::as_object);
    for name in map
        .get("required")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
    {
        if !properties.is_some_and(|p| p.contains_key(name)) {
            out.push(format!(
                "at {at}: required property \"{name}\" is not defined in its `properties` \
                 (strictRequired)"
            ));
        }
    }
    if let Some(Value::String(format)) = map.get("format")
        && !FORMATS.contains(&format.as_str())
    {
        out.push(format!(
            "at {at}: unknown format \"{format}\", not one of {} (strictSchema)",
            FORMATS.join(", ")
        ));
    }
    conditionals(map, at, out);
    contains(map, at, out);
    tuple(map, at, out);
    overlapping_patterns(map, at, out);
    for (key, value) in map {
        let Some((kind, in_place)) = subschemas(key) else {
            continue;
        };
        let context: &[String] = if in_place { &here } else { &[] };
        let at = format!("{at}/{}", pointer(key));
        match (kind, value) {
            (Subschemas::One, child) => walk(child, &at, context, out),
            (Subschemas::List, Value::Array(children)) => {
                for (i, child) in children.iter().enumerate() {
                    walk(child, &format!("{at}/{i}"), context, out);
                }
            }
            (Subschemas::Map, Value::Object(children)) => {
                for (name, child) in children {
                    walk(child, &format!("{at}/{}", pointer(name)), context, out);
                }
            }
            _ => {}
        }
    }
}

/// ajv's `strictTypes`: the types the instance may have at this schema (its own `type`
/// within those of the schema it is a branch of, `context`), after checking that `type`
/// names one type (or one and `null`), that the context allows each, and that every
/// keyword for some types only has one of them to apply to.
fn types(
    map: &serde_json::Map<String, Value>,
    at: &str,
    context: &[String],
    out: &mut Vec<String>,
) -> Vec<String> {
    // `integer` is a `number`, and a keyword for numbers applies to integers.
    let includes = |ts: &[String], t: &str| {
        ts.iter().any(|x| x == t) || (t == "integer" && ts.iter().any(|x| x == "number"))
    };
    let applies = |ts: &[String], t: &str| {
        ts.iter().any(|x| x == t) || (t == "number" && ts.iter().any(|x| x == "integer"))
    };
    let own: Vec<String> = match map.get("type") {
        Some(Value::String(t)) => vec![t.clone()],
        Some(Value::Array(ts)) => ts
            .iter()
            .filter_map(Value::as_str)
            .map(str::to_owned)
            .collect(),
        _ => Vec::new(),
    };
    if own.len() > 1 && !(own.len() == 2 && own.iter().any(|t| t == "null")) {
        out.push(format!(
            "at {at}: several types {own:?} in one `type` (only one and \"null\" may be): \
             write anyOf of one type each (strictTypes)"
        ));
    }
    let here: Vec<String> = if context.is_empty() {
        own
    } else if own.is_empty() {
        context.to_vec()
    } else {
        for t in own.iter().filter(|t| !includes(context, t)) {
            out.push(format!(
                "at {at}: type \"{t}\" is ruled out by the schema it is part of, which says \
                 {context:?} (strictTypes)"
            ));
        }
        context
            .iter()
            .filter_map(|c| {
                if includes(&own, c) {
                    Some(c.clone())
                } else if c == "number" && own.iter().any(|t| t == "integer") {
                    Some("integer".to_owned())
                } else {
                    None
                }
            })
            .collect()
    };
    for key in map.keys() {
        let wants = applies_to(key);
        if !wants.is_empty() && !wants.iter().any(|w| applies(&here, w)) {
            out.push(format!(
                "at {at}: `{key}` applies to {} values only, but the schema does not say \
                 `type: \"{}\"` (strictTypes)",
                wants.join(" or "),
                wants.join("\" or \"")
            ));
        }
    }
    here
}

/// A tuple (`prefixItems`) must say its length: `minItems` of it, and `maxItems` of it or
/// `items: false`.
fn tuple(map: &serde_json::Map<String, Value>, at: &str, out: &mut Vec<String>) {
    let Some(Value::Array(tuple)) = map.get("prefixItems") else {
        return;
    };
    let len = Some(tuple.len() as u64);
    let min = map.get("minItems").and_then(Value::as_u64);
    let max = map.get("maxItems").and_then(Value::as_u64);
    let closed = min == len && (max == len || map.get("items") == Some(&Value::Bool(false)));
    if !closed {
        out.push(format!(
            "at {at}: `prefixItems` is a {}-tuple, but `minItems` and `maxItems` (or \
             `items: false`) do not say so (strictTuples)",
            tuple.len()
        ));
    }
}

/// A property named in `properties` must not also match a pattern of
/// `patternProperties` (two schemas for one property).
fn overlapping_patterns(map: &serde_json::Map<String, Value>, at: &str, out: &mut Vec<String>) {
    let (Some(patterns), Some(properties)) = (
        map.get("patternProperties").and_then(Value::as_object),
        map.get("properties").and_then(Value::as_object),
    ) else {
        return;
    };
    for pattern in patterns.keys() {
        // ajv's patterns are ECMAScript's; one the regex crate cannot read is not judged.
        let Ok(regex) = regex::Regex::new(pattern) else {
            continue;
        };
        for name in properties.keys().filter(|name| regex.is_match(name)) {
            out.push(format!(
                "at {at}: property \"{name}\" matches pattern \"{pattern}\" of \
                 `patternProperties` (strictSchema)"
            ));
        }
    }
}

/// `if` does nothing without `then` or `else`, and they nothing without it.
fn conditionals(map: &serde_json::Map<String, Value>, at: &str, out: &mut Vec<String>) {
    let has = |key: &str| map.contains_key(key);
    if has("if") && !has("then") && !has("else") {
        out.push(format!(
            "at {at}: `if` without `then` or `else` is ignored (strictSchema)"
        ));
    }
    for key in ["then", "else"] {
        if has(key) && !has("if") {
            out.push(format!(
                "at {at}: `{key}` without `if` is ignored (strictSchema)"
            ));
        }
    }
}

/// `minContains` and `maxContains` only mean something with `contains`, and must leave it
/// something to check.
fn contains(map: &serde_json::Map<String, Value>, at: &str, out: &mut Vec<String>) {
    let min = map.get("minContains").and_then(Value::as_f64);
    let max = map.get("maxContains").and_then(Value::as_f64);
    if !map.contains_key("contains") {
        for key in ["minContains", "maxContains"]
            .into_iter()
            .filter(|k| map.contains_key(*k))
        {
            out.push(format!(
                "at {at}: `{key}` without `contains` is ignored (strictSchema)"
            ));
        }
        return;
    }
    if min == Some(0.0) && max.is_none() {
        out.push(format!(
            "at {at}: `minContains: 0` without `maxContains` makes `contains` ignored \
             (strictSchema)"
        ));
    }
    if let (Some(min), Some(max)) = (min, max)
        && min > max
    {
        out.push(format!(
            "at {at}: `minContains` above `maxContains` can never hold (strictSchema)"
        ));
    }
}

/// `name` as one step of a JSON pointer.
fn pointer(name: &str) -> String {
    name.replace('~', "~0").replace('/', "~1")
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
    #[should_panic(expected = "at #/properties/n: unknown format \"uint32\"")]
    fn an_unknown_format_is_refused() {
        let output =
            json!({"type": "object", "properties": {"n": {"type": "integer", "format": "uint32"}}});
        let result = CallToolResult::structured(json!({"n": 1}));
        assert_strict_client_accepts(&tool(output), &result);
    }

    #[test]
    #[should_panic(expected = "the output schema does not compile strictly")]
    fn a_required_property_left_undefined_fails_every_call() {
        let output = json!({"type": "object", "properties": {"sources": {"type": "array",
            "items": {"type": "object", "required": ["database"]}}}});
        let result = CallToolResult::structured(json!({"sources": [{"database": "STRING"}]}));
        assert_strict_client_accepts(&tool(output), &result);
    }

    #[test]
    #[should_panic(expected = "t_get: the input schema does not compile strictly")]
    fn the_input_schema_is_checked_too() {
        let Value::Object(input) = json!({"type": "object", "x-hint": true}) else {
            unreachable!()
        };
        let tool = Tool::new("t_get", "Get.", Arc::new(input));
        assert_strict_client_accepts(&tool, &CallToolResult::success(vec![]));
    }

    /// What [`strict_refusals`] says of `schema`, one line.
    fn refusals(schema: Value) -> String {
        strict_refusals(&schema).join("\n")
    }

    #[test]
    fn a_required_property_must_be_defined_by_the_same_schema() {
        assert_eq!(
            refusals(
                json!({"type": "object", "properties": {"sources": {"type": "array",
                "items": {"type": "object", "required": ["database", "requests"],
                          "properties": {"requests": {"type": "array"}}}}}})
            ),
            "at #/properties/sources/items: required property \"database\" is not defined in \
             its `properties` (strictRequired)"
        );
        // Defined by the schema it is a branch of is not enough (nor for ajv).
        assert!(
            refusals(
                json!({"type": "object", "properties": {"a": {"type": "string"}},
                "anyOf": [{"required": ["a"]}]})
            )
            .contains("at #/anyOf/0: required property \"a\"")
        );
    }

    #[test]
    fn a_keyword_outside_the_vocabularies_is_refused() {
        assert_eq!(
            refusals(json!({"type": "object", "properties": {
                "a": {"type": "string", "nullable": true},
                "b": {"type": "string", "$anchor": "b"}
            }})),
            "at #/properties/a: unknown keyword \"nullable\", not in the JSON Schema 2020-12 \
             vocabularies (strictSchema)\n\
             at #/properties/b: unknown keyword \"$anchor\", not in the JSON Schema 2020-12 \
             vocabularies (strictSchema)"
        );
        // A property named like a keyword is a name, not a keyword.
        assert_eq!(
            refusals(json!({"type": "object", "properties": {"x-note": {"type": "string"}}})),
            ""
        );
    }

    #[test]
    fn a_format_outside_2020_12_or_unknown_to_ajv_formats_is_refused() {
        for format in ["uint32", "double", "iri", "idn-email"] {
            assert!(
                refusals(json!({"type": "string", "format": format})).starts_with(&format!(
                    "at #: unknown format \"{format}\", not one of date-time"
                )),
                "{format}"
            );
        }
        assert_eq!(
            refusals(json!({"type": "string", "format": "date-time"})),
            ""
        );
    }

    #[test]
    fn several_types_in_one_type_are_refused_but_one_and_null() {
        assert_eq!(
            refusals(json!({"type": ["integer", "string"]})),
            "at #: several types [\"integer\", \"string\"] in one `type` (only one and \"null\" \
             may be): write anyOf of one type each (strictTypes)"
        );
        assert_eq!(refusals(json!({"type": ["string", "null"]})), "");
    }

    #[test]
    fn a_keyword_needs_the_type_it_applies_to() {
        assert_eq!(
            refusals(json!({"$defs": {"X": {"properties": {"a": {"type": "string"}}}}})),
            "at #/$defs/X: `properties` applies to object values only, but the schema does \
             not say `type: \"object\"` (strictTypes)"
        );
        assert_eq!(
            refusals(json!({"anyOf": [{"type": "integer"}, {"type": "string"}], "minimum": 1})),
            "at #: `minimum` applies to number values only, but the schema does not say \
             `type: \"number\"` (strictTypes)"
        );
        // The type of the schema a branch belongs to counts; `integer` is a number.
        assert_eq!(
            refusals(json!({"type": "object", "anyOf": [
                {"properties": {"a": {"type": "integer", "minimum": 0}}, "required": ["a"]}
            ]})),
            ""
        );
    }

    #[test]
    fn a_branch_may_not_contradict_the_type_around_it() {
        assert_eq!(
            refusals(json!({"type": "integer", "anyOf": [{"type": "number"}]})),
            "at #/anyOf/0: type \"number\" is ruled out by the schema it is part of, which says \
             [\"integer\"] (strictTypes)"
        );
        assert_eq!(
            refusals(json!({"type": "number", "anyOf": [{"type": "integer"}]})),
            ""
        );
    }

    #[test]
    fn a_tuple_must_say_its_length() {
        assert_eq!(
            refusals(json!({"type": "array", "prefixItems": [{"type": "string"}]})),
            "at #: `prefixItems` is a 1-tuple, but `minItems` and `maxItems` (or `items: false`) \
             do not say so (strictTuples)"
        );
        assert_eq!(
            refusals(json!({"type": "array", "prefixItems": [{"type": "string"}],
                "minItems": 1, "items": false})),
            ""
        );
    }

    #[test]
    fn keywords_that_would_be_ignored_are_refused() {
        assert_eq!(
            refusals(json!({"type": "array", "minContains": 1})),
            "at #: `minContains` without `contains` is ignored (strictSchema)"
        );
        assert_eq!(
            refusals(json!({"if": {"type": "string"}})),
            "at #: `if` without `then` or `else` is ignored (strictSchema)"
        );
        assert_eq!(
            refusals(json!({"then": {"type": "string"}})),
            "at #: `then` without `if` is ignored (strictSchema)"
        );
        assert_eq!(
            refusals(json!({"type": "array", "contains": {"type": "string"}, "minContains": 0})),
            "at #: `minContains: 0` without `maxContains` makes `contains` ignored (strictSchema)"
        );
        assert_eq!(
            refusals(json!({"type": "object", "properties": {"ab": {}},
                "patternProperties": {"^a": {}}})),
            "at #: property \"ab\" matches pattern \"^a\" of `patternProperties` (strictSchema)"
        );
    }

    #[test]
    fn a_strict_schema_passes() {
        let schema = json!({
            "type": "object",
            "properties": {
                "genes": {"type": "array", "items": {"$ref": "#/$defs/Gene"}},
                "species": {"anyOf": [{"type": "integer", "minimum": 1}, {"type": "string"}]},
                "kind": {"enum": ["gene", "drug"]},
                "when": {"type": "string", "format": "date-time", "description": "When."},
                "pagination": {"type": "object", "properties": {
                    "cursor": {"type": ["string", "null"], "minLength": 1}
                }, "required": ["cursor"], "additionalProperties": false}
            },
            "required": ["genes", "kind"],
            "$defs": {"Gene": {"type": "object", "title": "Gene",
                "properties": {"id": {"type": "string", "pattern": "^ENSG"}, "x": true},
                "required": ["id", "x"]}}
        });
        assert_eq!(refusals(schema.clone()), "");
        let result = CallToolResult::structured(json!({"genes": [{"id": "ENSG1", "x": 1}],
            "kind": "gene", "pagination": {"cursor": null}}));
        assert_strict_client_accepts(&tool(schema), &result);
    }
}
