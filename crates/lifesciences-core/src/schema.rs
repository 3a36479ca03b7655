//! The schema policy every tool definition goes through: a JSON Schema says what is on the
//! wire and what a model needs to fill it in, nothing more.
//!
//! - `null` is removed as an alternative type (optional fields are omitted, never null),
//!   except for `cursor` and `total_count` of a pagination object, the only fields that
//!   may be null.
//! - A value of several types (`type: ["integer", "string"]`) is written as `anyOf` of
//!   one type each: ajv, the validator of the TypeScript clients, refuses type arrays in
//!   strict mode (a nullable pagination field keeps `["string", "null"]`, which it allows).
//! - `$schema`, `default: null` and `format`s a strict client does not know (schemars'
//!   `uint32`, `double`…; `minimum: 0` already says unsigned) are dropped.
//! - An enum written as `oneOf` of documented constants becomes a plain `enum` (the
//!   argument's own description says what each value means), and shared `$defs` lose
//!   their descriptions (the field that refers to one has its own).
//! - Descriptions are paragraphs: the line breaks of wrapped doc comments become spaces;
//!   blank lines between paragraphs stay.
//! - A shared definition that is a plain value type (an enum, a number) or is used once is
//!   written where it is used: `{"enum": [...]}` reads better than a `$ref` to follow,
//!   and some clients do not follow `$ref`s at all.
//!
//! Property names are never touched.

use rmcp::model::JsonObject;
use serde_json::{Map, Value};

/// The `format` values of JSON Schema 2020-12 that ajv-formats knows (ajv, the
/// TypeScript clients' validator, refuses a schema with any other in strict mode, so
/// `idn-email`, `idn-hostname`, `iri` and `iri-reference` are left out); any other is
/// dropped.
const STANDARD_FORMATS: &[&str] = &[
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
    "uuid",
    "uri-template",
    "json-pointer",
    "relative-json-pointer",
    "regex",
];

/// `schema` under the policy of this module.
pub fn tighten(schema: &JsonObject) -> JsonObject {
    let mut value = Value::Object(schema.clone());
    tighten_node(&mut value, false);
    inline_definitions(&mut value);
    match value {
        Value::Object(map) => map,
        _ => schema.clone(),
    }
}

/// An output schema as served: its structure, types, `required`, `enum`, formats and
/// bounds, without the words (`description`, `title`, `examples`, `default`) and the
/// cross-reference `pattern`s, and with each union of objects tagged by a constant (an
/// entity of any kind, tagged `_type`) served as one object: every kind's properties,
/// the tag as an `enum`, required what every kind requires (see `merge_tagged_unions`). Clients that check results against it (the Python SDK
/// does, on every call) parse and walk less; the words are for people and live in
/// `docs/tools.md`, while the model reads the tool's description and input schema. The
/// patterns (a third of every result schema with cross-references) hold by construction:
/// `CrossReferences` drops any value that fails its key's pattern before it is sent, and
/// `docs/tools.md` lists them.
pub fn lean(schema: &JsonObject) -> JsonObject {
    let mut value = Value::Object(schema.clone());
    // Words first: kinds that type a property alike but word it differently then merge
    // into one schema, not an `anyOf` of the same type once per kind.
    lean_node(&mut value);
    merge_tagged_unions(&mut value);
    match value {
        Value::Object(map) => map,
        _ => schema.clone(),
    }
}

fn lean_node(node: &mut Value) {
    match node {
        Value::Object(map) => {
            for word in ["description", "title", "examples", "default", "pattern"] {
                map.remove(word);
            }
            for (key, child) in map.iter_mut() {
                match key.as_str() {
                    // Maps from names to schemas: a field may be called `description`.
                    "properties" | "$defs" | "definitions" | "patternProperties" => {
                        if let Value::Object(named) = child {
                            named.values_mut().for_each(lean_node);
                        }
                    }
                    "type" | "enum" | "const" | "required" => {}
                    _ => lean_node(child),
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(lean_node),
        _ => {}
    }
}

/// What every value of `schema` holds and nothing more: its `type`; for an object, its
/// required properties, each a skeleton itself; for an array of objects that require
/// properties, the skeleton of its items. A property with nothing required inside is
/// `{"type": …}` only. Its definitions must be written in place ([`tighten`] does, for
/// one used once). Each property it requires it defines, as a strict validator wants
/// (ajv's `strictRequired`).
pub(crate) fn skeleton(schema: &JsonObject) -> JsonObject {
    let mut out = Map::new();
    if let Some(kind) = schema.get("type") {
        out.insert("type".to_owned(), kind.clone());
    }
    let required: Vec<&str> = schema
        .get("required")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .collect();
    if !required.is_empty() {
        let defined = schema.get("properties").and_then(Value::as_object);
        let properties = required
            .iter()
            .map(|name| {
                let property = defined
                    .and_then(|p| p.get(*name))
                    .and_then(Value::as_object)
                    .map(skeleton)
                    .unwrap_or_default();
                ((*name).to_owned(), Value::Object(property))
            })
            .collect();
        out.insert("properties".to_owned(), Value::Object(properties));
        out.insert(
            "required".to_owned(),
            required.into_iter().map(Value::from).collect(),
        );
    }
    if let Some(Value::Object(items)) = schema.get("items") {
        let items = skeleton(items);
        if items.contains_key("required") {
            out.insert("items".to_owned(), Value::Object(items));
        }
    }
    out
}

/// Serve each `oneOf`/`anyOf` whose branches are objects all tagged by one property with
/// a `const` (`{"$ref": "#/$defs/Gene", "properties": {"_type": {"const": "gene"}}}`) as
/// one object: the union of the branches' properties (a property the branches type
/// differently is `anyOf` its types), the tag an `enum` of the constants, required what
/// every branch requires. A validator then walks one object instead of trying every
/// branch, and the definitions only the branches used are dropped: `igvf_get_entity`'s
/// eight kinds of entity take 4.4 KB instead of 7.3 KB. The documented definitions
/// (`docs/tools.md`) keep each kind apart.
pub(crate) fn merge_tagged_unions(root: &mut Value) {
    let defs = root
        .get("$defs")
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default();
    let before = count_refs(root);
    merge_unions_in(root, &defs);
    // Definitions only the merged branches referred to are gone.
    let after = count_refs(root);
    if let Value::Object(map) = root
        && let Some(Value::Object(defs)) = map.get_mut("$defs")
    {
        defs.retain(|name, _| after.contains_key(name) || !before.contains_key(name));
        if defs.is_empty() {
            map.remove("$defs");
        }
    }
}

fn merge_unions_in(node: &mut Value, defs: &Map<String, Value>) {
    match node {
        Value::Object(map) => {
            for key in ["oneOf", "anyOf"] {
                if let Some(Value::Array(branches)) = map.get(key)
                    && let Some(merged) = merged_union(branches, defs)
                {
                    map.remove(key);
                    map.insert("type".to_owned(), Value::String("object".to_owned()));
                    let Value::Object(properties) = map
                        .entry("properties")
                        .or_insert_with(|| Value::Object(Map::new()))
                    else {
                        continue;
                    };
                    for (name, schema) in merged.properties {
                        properties.entry(name).or_insert(schema);
                    }
                    if let Value::Array(required) = map
                        .entry("required")
                        .or_insert_with(|| Value::Array(Vec::new()))
                    {
                        for name in merged.required {
                            let name = Value::String(name);
                            if !required.contains(&name) {
                                required.push(name);
                            }
                        }
                    }
                }
            }
            map.values_mut()
                .for_each(|child| merge_unions_in(child, defs));
        }
        Value::Array(items) => items
            .iter_mut()
            .for_each(|item| merge_unions_in(item, defs)),
        _ => {}
    }
}

/// One object made of a tagged union's branches.
struct MergedUnion {
    properties: Vec<(String, Value)>,
    required: Vec<String>,
}

/// The branches as one object, if they are objects tagged by one constant property.
fn merged_union(branches: &[Value], defs: &Map<String, Value>) -> Option<MergedUnion> {
    if branches.len() < 2 {
        return None;
    }
    // Each branch's own keywords over those of the definition it refers to.
    let resolved: Vec<Map<String, Value>> = branches
        .iter()
        .map(|branch| {
            let branch = branch.as_object()?;
            let mut whole = match branch.get("$ref").and_then(Value::as_str) {
                Some(reference) => defs
                    .get(reference.strip_prefix("#/$defs/")?)?
                    .as_object()?
                    .clone(),
                None => Map::new(),
            };
            let mut properties = whole
                .get("properties")
                .and_then(Value::as_object)
                .cloned()
                .unwrap_or_default();
            if let Some(Value::Object(own)) = branch.get("properties") {
                properties.extend(own.clone());
            }
            let mut required: Vec<Value> = whole
                .get("required")
                .and_then(Value::as_array)
                .cloned()
                .unwrap_or_default();
            if let Some(Value::Array(own)) = branch.get("required") {
                required.extend(own.iter().cloned());
            }
            whole.insert("properties".to_owned(), Value::Object(properties));
            whole.insert("required".to_owned(), Value::Array(required));
            Some(whole)
        })
        .collect::<Option<_>>()?;
    let first = resolved.first()?.get("properties")?.as_object()?;
    let tag = first.keys().find(|name| {
        resolved.iter().all(|branch| {
            branch["properties"]
                .get(name.as_str())
                .is_some_and(|p| p.get("const").is_some_and(Value::is_string))
        })
    })?;
    let mut properties: Vec<(String, Value)> = Vec::new();
    let mut tags = Vec::new();
    for branch in &resolved {
        for (name, schema) in branch["properties"].as_object()? {
            if name == tag {
                tags.push(schema["const"].clone());
                continue;
            }
            match properties.iter_mut().find(|(n, _)| n == name) {
                None => properties.push((name.clone(), schema.clone())),
                Some((_, seen)) if seen == schema => {}
                Some((_, seen)) => {
                    let alternatives = match seen.get("anyOf").and_then(Value::as_array) {
                        Some(alternatives) if !alternatives.contains(schema) => {
                            let mut more = alternatives.clone();
                            more.push(schema.clone());
                            more
                        }
                        Some(alternatives) => alternatives.clone(),
                        None => vec![seen.clone(), schema.clone()],
                    };
                    *seen = serde_json::json!({ "anyOf": alternatives });
                }
            }
        }
    }
    properties.push((
        tag.clone(),
        serde_json::json!({"type": "string", "enum": tags}),
    ));
    let required_by = |branch: &Map<String, Value>, name: &str| {
        branch["required"]
            .as_array()
            .is_some_and(|r| r.iter().any(|v| v == name))
    };
    let required = properties
        .iter()
        .map(|(name, _)| name.clone())
        .filter(|name| name == tag || resolved.iter().all(|b| required_by(b, name)))
        .collect();
    Some(MergedUnion {
        properties,
        required,
    })
}

/// `text` with the single line breaks of a wrapped doc comment joined into spaces;
/// paragraph breaks (a blank line) are kept.
pub fn paragraphs(text: &str) -> String {
    text.split("\n\n")
        .map(|paragraph| {
            paragraph
                .lines()
                .map(str::trim)
                .filter(|line| !line.is_empty())
                .collect::<Vec<_>>()
                .join(" ")
        })
        .filter(|p| !p.is_empty())
        .collect::<Vec<_>>()
        .join("\n\n")
}

fn tighten_node(node: &mut Value, keep_null: bool) {
    match node {
        Value::Object(map) => tighten_object(map, keep_null),
        Value::Array(items) => items.iter_mut().for_each(|item| tighten_node(item, false)),
        _ => {}
    }
}

fn tighten_object(map: &mut Map<String, Value>, keep_null: bool) {
    map.remove("$schema");
    if map.get("default").is_some_and(Value::is_null) {
        map.remove("default");
    }
    if map
        .get("format")
        .and_then(Value::as_str)
        .is_some_and(|format| !STANDARD_FORMATS.contains(&format))
    {
        map.remove("format");
    }
    if !keep_null {
        drop_null(map);
        types_to_any_of(map);
    }
    constants_to_enum(map);
    if let Some(Value::String(text)) = map.get_mut("description") {
        *text = paragraphs(text);
    }
    let is_pagination = map
        .get("properties")
        .and_then(Value::as_object)
        .is_some_and(|p| {
            p.contains_key("cursor") && p.contains_key("total_count") && p.contains_key("page_size")
        });
    for (key, child) in map.iter_mut() {
        match key.as_str() {
            // Maps from names to schemas: tighten each schema, keep the names.
            "properties" | "$defs" | "definitions" => {
                let Value::Object(named) = child else {
                    continue;
                };
                let is_defs = key != "properties";
                for (name, schema) in named.iter_mut() {
                    if is_defs && let Value::Object(def) = schema {
                        def.remove("description");
                    }
                    let keep = !is_defs
                        && is_pagination
                        && matches!(name.as_str(), "cursor" | "total_count");
                    tighten_node(schema, keep);
                }
            }
            // Values, not schemas.
            "type" | "enum" | "const" | "required" | "description" | "title" | "default"
            | "examples" => {}
            _ => tighten_node(child, false),
        }
    }
}

/// Remove `null` from `type` and from `anyOf`/`oneOf`; an alternative left alone is
/// inlined (`anyOf: [{$ref: X}]` would still read as "one of").
fn drop_null(map: &mut Map<String, Value>) {
    if let Some(Value::Array(types)) = map.get_mut("type") {
        types.retain(|t| t != "null");
        if types.len() == 1 {
            let only = types.remove(0);
            map.insert("type".to_owned(), only);
        }
    }
    for key in ["anyOf", "oneOf"] {
        let single = match map.get_mut(key) {
            Some(Value::Array(options)) => {
                options.retain(|o| o.get("type").and_then(Value::as_str) != Some("null"));
                (options.len() == 1).then(|| options.remove(0))
            }
            _ => None,
        };
        if let Some(Value::Object(only)) = single {
            map.remove(key);
            for (k, v) in only {
                map.entry(k).or_insert(v);
            }
        }
    }
}

/// Write in place the definitions that are plain value types or used once, unless they
/// refer to other definitions (a recursive type must stay a reference), and drop the
/// definitions nothing refers to any more. Repeated until nothing changes, so a
/// definition whose references were all written in place is considered again.
fn inline_definitions(root: &mut Value) {
    loop {
        let Some(Value::Object(defs)) = root.get("$defs").cloned() else {
            return;
        };
        let uses = count_refs(root);
        let inlinable: Map<String, Value> = defs
            .into_iter()
            .filter(|(name, def)| {
                let leaf = count_refs(def).is_empty();
                let value_type = def.get("properties").is_none();
                leaf && (value_type || uses.get(name).copied().unwrap_or(0) <= 1)
            })
            .collect();
        if inlinable.is_empty() {
            return;
        }
        replace_refs(root, &inlinable);
        let remaining = count_refs(root);
        if let Value::Object(map) = root {
            if let Some(Value::Object(defs)) = map.get_mut("$defs") {
                defs.retain(|name, _| remaining.contains_key(name));
            }
            if map
                .get("$defs")
                .and_then(Value::as_object)
                .is_some_and(Map::is_empty)
            {
                map.remove("$defs");
            }
        }
    }
}

/// How often each `#/$defs/<name>` is referred to, anywhere in `node` (definitions
/// included: a definition used by another is used).
fn count_refs(node: &Value) -> std::collections::HashMap<String, usize> {
    fn walk(node: &Value, uses: &mut std::collections::HashMap<String, usize>) {
        match node {
            Value::Object(map) => {
                for (key, child) in map {
                    match (key.as_str(), child.as_str()) {
                        ("$ref", Some(reference)) => {
                            if let Some(name) = reference.strip_prefix("#/$defs/") {
                                *uses.entry(name.to_owned()).or_default() += 1;
                            }
                        }
                        _ => walk(child, uses),
                    }
                }
            }
            Value::Array(items) => items.iter().for_each(|item| walk(item, uses)),
            _ => {}
        }
    }
    let mut uses = std::collections::HashMap::new();
    walk(node, &mut uses);
    uses
}

/// Replace `{"$ref": "#/$defs/X", …own keywords}` by X's keywords plus the own ones,
/// everywhere (inside other definitions too).
fn replace_refs(node: &mut Value, inlinable: &Map<String, Value>) {
    match node {
        Value::Object(map) => {
            let target = map
                .get("$ref")
                .and_then(Value::as_str)
                .and_then(|r| r.strip_prefix("#/$defs/"))
                .and_then(|name| inlinable.get(name));
            if let Some(Value::Object(def)) = target {
                map.remove("$ref");
                for (k, v) in def {
                    map.entry(k.clone()).or_insert_with(|| v.clone());
                }
            }
            for child in map.values_mut() {
                replace_refs(child, inlinable);
            }
        }
        Value::Array(items) => items
            .iter_mut()
            .for_each(|item| replace_refs(item, inlinable)),
        _ => {}
    }
}

/// `oneOf: [{const: "a", description: …}, {const: "b", …}]` → `enum: ["a", "b"]`.
/// `type: [a, b]` becomes `anyOf: [{type: a}, {type: b}]`; the other keywords stay.
fn types_to_any_of(map: &mut Map<String, Value>) {
    if !matches!(map.get("type"), Some(Value::Array(types)) if types.len() > 1)
        || map.contains_key("anyOf")
    {
        return;
    }
    if let Some(Value::Array(types)) = map.remove("type") {
        let alternatives = types
            .into_iter()
            .map(|t| Value::Object(Map::from_iter([("type".to_owned(), t)])))
            .collect();
        map.insert("anyOf".to_owned(), Value::Array(alternatives));
    }
}

fn constants_to_enum(map: &mut Map<String, Value>) {
    let constants: Option<Vec<Value>> = map
        .get("oneOf")
        .and_then(Value::as_array)
        .and_then(|options| options.iter().map(|o| o.get("const").cloned()).collect());
    let Some(values) = constants else {
        return;
    };
    if values.is_empty() {
        return;
    }
    map.remove("oneOf");
    if values.iter().all(Value::is_string) {
        map.insert("type".to_owned(), Value::String("string".to_owned()));
    }
    map.insert("enum".to_owned(), Value::Array(values));
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_lean_schema_keeps_structure_and_fields_named_like_words() {
        let Value::Object(schema) = json!({
            "title": "Gene",
            "description": "A gene.",
            "type": "object",
            "properties": {
                "description": {"type": "string", "description": "What it does."},
                "title": {"type": "string", "examples": ["x"], "default": "y"},
                "items": {"type": "array", "items": {"type": "integer", "minimum": 0,
                          "description": "A count."}},
                "kind": {"enum": ["a", "b"], "description": "Its kind."},
                "pattern": {"type": "string", "pattern": "^P[0-9]+$"}
            },
            "required": ["description", "kind"],
            "additionalProperties": false
        }) else {
            unreachable!()
        };
        assert_eq!(
            Value::Object(lean(&schema)),
            json!({
                "type": "object",
                "properties": {
                    "description": {"type": "string"},
                    "title": {"type": "string"},
                    "items": {"type": "array", "items": {"type": "integer", "minimum": 0}},
                    "kind": {"enum": ["a", "b"]},
                    "pattern": {"type": "string"}
                },
                "required": ["description", "kind"],
                "additionalProperties": false
            })
        );
    }

    #[test]
    fn a_tagged_union_is_served_as_one_object() {
        let Value::Object(schema) = json!({
            "type": "object",
            "properties": {"note": {"type": "string"}},
            "required": ["note"],
            "oneOf": [
                {"$ref": "#/$defs/Gene", "properties": {"_type": {"const": "gene", "type": "string"}},
                 "required": ["_type"], "type": "object"},
                {"$ref": "#/$defs/Drug", "properties": {"_type": {"const": "drug", "type": "string"}},
                 "required": ["_type"], "type": "object"}
            ],
            "$defs": {
                // Typed alike, worded apart: one schema once served.
                "Gene": {"type": "object", "properties": {
                    "id": {"type": "string", "description": "Its Ensembl ID.", "pattern": "^ENSG"},
                    "start": {"type": "integer"},
                    "xrefs": {"$ref": "#/$defs/Xrefs"}}, "required": ["id", "start"]},
                "Drug": {"type": "object", "properties": {
                    "id": {"type": "string", "description": "Its ChEMBL ID."},
                    "start": {"type": "string"},
                    "xrefs": {"$ref": "#/$defs/Xrefs"}}, "required": ["id"]},
                "Xrefs": {"type": "object", "properties": {"a": {"type": "string"}}}
            }
        }) else {
            unreachable!()
        };
        assert_eq!(
            Value::Object(lean(&schema)),
            json!({
                "type": "object",
                "properties": {
                    "note": {"type": "string"},
                    "id": {"type": "string"},
                    "start": {"anyOf": [{"type": "integer"}, {"type": "string"}]},
                    "xrefs": {"$ref": "#/$defs/Xrefs"},
                    "_type": {"type": "string", "enum": ["gene", "drug"]}
                },
                "required": ["note", "id", "_type"],
                "$defs": {"Xrefs": {"type": "object", "properties": {"a": {"type": "string"}}}}
            })
        );
        // A union that is not tagged stays as it is.
        let Value::Object(untagged) = json!({"anyOf": [{"type": "string"}, {"type": "integer"}]})
        else {
            unreachable!()
        };
        assert_eq!(lean(&untagged), untagged);
    }

    #[test]
    fn a_skeleton_defines_what_it_requires_by_type_only() {
        let Value::Object(schema) = json!({
            "type": "object",
            "description": "Where it came from.",
            "properties": {
                "sources": {"type": "array", "items": {
                    "type": "object",
                    "properties": {
                        "database": {"type": "string", "description": "The database."},
                        "release": {"type": "string"},
                        "requests": {"type": "array", "items": {"type": "string"}},
                        "retrieved_at": {"type": "string", "format": "date-time"}
                    },
                    "required": ["database", "requests", "retrieved_at"]
                }},
                "note": {"type": "string"}
            },
            "required": ["sources"]
        }) else {
            unreachable!()
        };
        assert_eq!(
            Value::Object(skeleton(&schema)),
            json!({
                "type": "object",
                "properties": {"sources": {"type": "array", "items": {
                    "type": "object",
                    "properties": {
                        "database": {"type": "string"},
                        "requests": {"type": "array"},
                        "retrieved_at": {"type": "string"}
                    },
                    "required": ["database", "requests", "retrieved_at"]
                }}},
                "required": ["sources"]
            })
        );
    }

    fn tightened(schema: Value) -> Value {
        let Value::Object(map) = schema else {
            panic!("not an object")
        };
        Value::Object(tighten(&map))
    }

    #[test]
    fn null_leaves_every_schema_but_the_two_pagination_fields() {
        let schema = json!({
            "type": "object",
            "properties": {
                "name": {"type": ["string", "null"]},
                "link": {"anyOf": [{"$ref": "#/$defs/Link"}, {"type": "null"}], "description": "A link."},
                "pagination": {"$ref": "#/$defs/Pagination"}
            },
            "$defs": {
                "Link": {"type": "object", "description": "Shared.", "properties": {"url": {"type": "string"}}},
                "Pagination": {
                    "type": "object",
                    "properties": {
                        "cursor": {"type": ["string", "null"]},
                        "total_count": {"type": ["integer", "null"], "format": "uint64", "minimum": 0},
                        "page_size": {"type": "integer", "format": "uint32", "minimum": 0}
                    }
                }
            }
        });
        let out = tightened(schema);
        assert_eq!(out["properties"]["name"], json!({"type": "string"}));
        // Both definitions are used once: written in place, the shared description gone.
        assert_eq!(
            out["properties"]["link"],
            json!({"type": "object", "description": "A link.", "properties": {"url": {"type": "string"}}})
        );
        assert!(out.get("$defs").is_none());
        let pagination = &out["properties"]["pagination"]["properties"];
        assert_eq!(pagination["cursor"]["type"], json!(["string", "null"]));
        assert_eq!(
            pagination["total_count"],
            json!({"type": ["integer", "null"], "minimum": 0})
        );
        assert_eq!(
            pagination["page_size"],
            json!({"type": "integer", "minimum": 0})
        );
        // `cursor` elsewhere is not a pagination field.
        let elsewhere = tightened(json!({"properties": {"cursor": {"type": ["string", "null"]}}}));
        assert_eq!(elsewhere["properties"]["cursor"], json!({"type": "string"}));
    }

    #[test]
    fn only_standard_formats_and_real_defaults_remain() {
        let out = tightened(json!({
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "properties": {
                "n": {"type": ["integer", "null"], "format": "uint32", "minimum": 1, "maximum": 100, "default": null},
                "x": {"type": "number", "format": "double", "default": 0.5},
                "when": {"type": "string", "format": "date-time"}
            }
        }));
        assert!(out.get("$schema").is_none());
        assert_eq!(
            out["properties"]["n"],
            json!({"type": "integer", "minimum": 1, "maximum": 100})
        );
        assert_eq!(
            out["properties"]["x"],
            json!({"type": "number", "default": 0.5})
        );
        assert_eq!(out["properties"]["when"]["format"], "date-time");
    }

    #[test]
    fn a_value_of_several_types_is_any_of_one_type_each() {
        let schema = tightened(json!({
            "type": "object",
            "properties": {
                "species": {"type": ["integer", "string", "null"], "examples": [9606, "human"]}
            }
        }));
        assert_eq!(
            schema["properties"]["species"],
            json!({"anyOf": [{"type": "integer"}, {"type": "string"}], "examples": [9606, "human"]})
        );
    }

    #[test]
    fn enums_of_documented_constants_become_plain_enums() {
        let out = tightened(json!({
            "properties": {"kind": {"oneOf": [
                {"const": "functional", "description": "Any association."},
                {"const": "physical", "description": "Binding only."}
            ], "description": "Which network."}}
        }));
        assert_eq!(
            out["properties"]["kind"],
            json!({"type": "string", "enum": ["functional", "physical"], "description": "Which network."})
        );
    }

    #[test]
    fn value_types_and_single_use_definitions_are_written_in_place() {
        let out = tightened(json!({
            "properties": {
                "a": {"$ref": "#/$defs/Kind", "description": "First."},
                "b": {"$ref": "#/$defs/Kind"},
                "once": {"$ref": "#/$defs/Once"},
                "twice1": {"$ref": "#/$defs/Twice"},
                "twice2": {"$ref": "#/$defs/Twice"},
                "tree": {"$ref": "#/$defs/Tree"},
                "either": {"$ref": "#/$defs/Either"}
            },
            "$defs": {
                "Either": {"anyOf": [{"$ref": "#/$defs/Left"}, {"$ref": "#/$defs/Twice"}]},
                "Left": {"type": "object", "properties": {"l": {"type": "string"}}},
                "Kind": {"type": "string", "enum": ["x", "y"]},
                "Once": {"type": "object", "properties": {"n": {"type": "integer"}}},
                "Twice": {"type": "object", "properties": {"n": {"type": "integer"}}},
                "Tree": {"type": "object", "properties": {"child": {"$ref": "#/$defs/Tree"}}}
            }
        }));
        assert_eq!(
            out["properties"]["a"],
            json!({"type": "string", "enum": ["x", "y"], "description": "First."})
        );
        assert_eq!(
            out["properties"]["b"],
            json!({"type": "string", "enum": ["x", "y"]})
        );
        assert_eq!(
            out["properties"]["once"]["properties"]["n"]["type"],
            "integer"
        );
        assert_eq!(
            out["properties"]["twice1"],
            json!({"$ref": "#/$defs/Twice"})
        );
        assert_eq!(out["properties"]["tree"], json!({"$ref": "#/$defs/Tree"}));
        // A definition used only inside another is written there; no reference dangles.
        let either = &out["$defs"]["Either"]["anyOf"];
        assert_eq!(either[0]["properties"]["l"]["type"], "string");
        assert_eq!(either[1], json!({"$ref": "#/$defs/Twice"}));
        let defs: Vec<&String> = out["$defs"].as_object().unwrap().keys().collect();
        assert_eq!(defs, ["Either", "Tree", "Twice"]);
    }

    #[test]
    fn descriptions_are_paragraphs() {
        assert_eq!(
            paragraphs("Get the partners\nof one protein.\n\nExample: `{\"a\":\n1}`"),
            "Get the partners of one protein.\n\nExample: `{\"a\": 1}`"
        );
        let out = tightened(
            json!({"properties": {"q": {"type": "string", "description": "Words to\nsearch."}}}),
        );
        assert_eq!(out["properties"]["q"]["description"], "Words to search.");
    }
}
