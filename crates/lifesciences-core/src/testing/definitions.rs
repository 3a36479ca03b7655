//! The promises every tool definition keeps, checked the same way for every server, and
//! the catalog budget: how many bytes of `tools/list` a model reads on every turn.

use std::collections::BTreeSet;
use std::path::Path;

use regex::Regex;
use rmcp::model::Tool;
use serde_json::{Map, Value, json};

use crate::server::{McpServer, tools};

/// The most model-facing bytes one tool may take (name, title, description, input
/// schema, as compact JSON).
pub const TOOL_BUDGET_BYTES: usize = 2500;
/// The most model-facing bytes a server's tools may take on average.
pub const AVERAGE_BUDGET_BYTES: usize = 1500;
/// The most bytes a server's served output schemas may take on average (compact JSON):
/// a client reads them with every `tools/list`, and strict ones validate every result
/// against them. Each holds the skeleton of `provenance` (about 230 bytes), whose required
/// fields a strict client needs defined.
pub const OUTPUT_AVERAGE_BUDGET_BYTES: usize = 2100;

/// Check every tool of `S` for what a model relies on, and fail naming the tool and what
/// is wrong:
///
/// - a name prefixed with the server's (`string_` for `string-mcp`), unique, and when
///   the crate has a `src/tools/` folder, one tool per file of it (`tools/get_gene.rs`
///   holds `ensembl_get_gene`), so a tool missing from the router fails here;
/// - a title, and a description with one example (`Example: `{…}``);
/// - the annotations read-only, idempotent, open-world (and not destructive);
/// - an input schema that refuses unknown arguments (`additionalProperties: false`),
///   describes every argument, and states in `minimum`/`maximum` every numeric range
///   its descriptions state;
/// - an output schema, in which only `pagination.cursor` and `pagination.total_count`
///   may be null and which requires `provenance`; none for a picture (declared
///   `as picture` in [`tools!`](crate::tools!));
/// - input and output schemas that compile in a strict JSON Schema 2020-12 validator
///   (ajv in strict mode, as the TypeScript clients run it): every `required` property
///   defined, no keyword outside the vocabularies, no unknown format, each keyword in a
///   schema of the type it applies to (see
///   [`assert_strict_client_accepts`](super::assert_strict_client_accepts));
/// - output schemas within [`OUTPUT_AVERAGE_BUDGET_BYTES`] on average;
/// - descriptions without rustdoc link syntax and without hard line breaks inside a
///   paragraph;
/// - each tool defined under the name it is declared (and so dispatched) under;
/// - every list declared as one (see `check_listings`), so it takes `export`;
/// - embedded definitions ([`McpServer::DEFINITIONS`]) that are current;
/// - the catalog budget ([`assert_catalog_budget`]).
pub fn assert_tool_definitions<S: McpServer>() {
    // A call is dispatched by the name the tool is declared under: its definition must
    // carry the same one (`#[tool(name = …)]` would part them).
    for declared in S::tools() {
        assert_eq!(
            declared.definition().name,
            declared.name(),
            "{}: the tool declared as {} defines another name",
            S::NAME,
            declared.name()
        );
    }
    let tools = tools::<S>();
    let pictures = crate::server::pictures::<S>();
    let prefix = format!("{}_", S::NAME.trim_end_matches("-mcp").replace('-', "_"));
    assert!(!tools.is_empty(), "{} has no tools", S::NAME);
    let mut names = BTreeSet::new();
    for tool in &tools {
        let name = tool.name.as_ref();
        assert!(names.insert(name.to_owned()), "{name}: listed twice");
        // A gateway serves its toolsets' tools under their own prefixes.
        assert!(
            name.starts_with(&prefix)
                || S::TOOLSETS
                    .iter()
                    .any(|t| name.starts_with(&format!("{t}_"))),
            "{name}: tools of {} are named {prefix}…",
            S::NAME
        );
        check_tool(tool, pictures.contains(&name));
    }
    for picture in &pictures {
        assert!(
            names.contains(*picture),
            "{picture}: a picture that is not a tool"
        );
    }
    check_listings(&tools, &crate::server::listings::<S>());
    assert_output_budget(S::NAME, &tools);
    if let Ok(dir) = std::env::var("CARGO_MANIFEST_DIR") {
        check_tool_files(Path::new(&dir), &prefix, &names);
        assert!(
            S::DEFINITIONS.is_some() || !Path::new(&dir).join("src/tools.json").exists(),
            "{}: src/tools.json is generated but not embedded: \
             `const DEFINITIONS: Option<&'static str> = Some(include_str!(\"tools.json\"));`",
            S::NAME
        );
    }
    if let Some(stored) = S::DEFINITIONS {
        assert!(
            stored == crate::server::stored_definitions::<S>(),
            "{}: src/tools.json is not what the code defines: run `cargo xtask docs`",
            S::NAME
        );
    }
    assert_catalog_budget(S::NAME, &tools);
    // The output fields' words, left out of what is served, are documented.
    for tool in crate::server::documented_tools::<S>() {
        let name = tool.name.as_ref();
        if pictures.contains(&name) {
            continue;
        }
        let output = tool
            .output_schema
            .as_ref()
            .map(|o| Value::Object((**o).clone()))
            .unwrap_or_default();
        let mut described = 0;
        walk_descriptions(&output, "output", &mut |path, text| {
            described += 1;
            check_prose(name, path, text);
        });
        assert!(described > 0, "{name}: no output field is described");
    }
}

fn check_tool(tool: &Tool, picture: bool) {
    let name = tool.name.as_ref();
    assert!(
        tool.title.as_deref().is_some_and(|t| !t.trim().is_empty()),
        "{name}: no title"
    );
    let description = tool.description.as_deref().unwrap_or_default();
    assert!(
        description.contains("Example: `{"),
        "{name}: the description needs one example (Example: `{{…}}`): {description}"
    );
    check_prose(name, "description", description);
    let a = tool
        .annotations
        .as_ref()
        .unwrap_or_else(|| panic!("{name}: no annotations"));
    assert_eq!(a.read_only_hint, Some(true), "{name}: readOnlyHint");
    assert_eq!(a.idempotent_hint, Some(true), "{name}: idempotentHint");
    assert_eq!(a.open_world_hint, Some(true), "{name}: openWorldHint");
    assert_eq!(a.destructive_hint, None, "{name}: destructiveHint");

    let input = Value::Object((*tool.input_schema).clone());
    super::strict::compile(name, "input", &input);
    assert_eq!(
        input["additionalProperties"],
        json!(false),
        "{name}: unknown arguments must be refused (additionalProperties: false)"
    );
    let properties = input["properties"].as_object().cloned().unwrap_or_default();
    for (arg, schema) in &properties {
        let described = schema["description"]
            .as_str()
            .is_some_and(|d| d.trim().len() > 20);
        assert!(
            described,
            "{name}.{arg}: no description of its own: {schema}"
        );
    }
    walk_properties(&input, &input, &mut |path, schema| {
        check_bounds(name, path, schema);
        check_default(name, path, schema);
    });
    walk_descriptions(&input, "input", &mut |path, text| {
        check_prose(name, path, text)
    });

    if picture {
        assert!(
            tool.output_schema.is_none(),
            "{name}: a picture declares no output schema (clients that get structured \
             content pass the model nothing else)"
        );
        return;
    }
    let output = tool
        .output_schema
        .as_ref()
        .map(|o| Value::Object((**o).clone()))
        .unwrap_or_else(|| panic!("{name}: no output schema"));
    super::strict::compile(name, "output", &output);
    assert!(
        output["required"]
            .as_array()
            .is_some_and(|r| r.contains(&json!("provenance")))
            && output["properties"]["provenance"].is_object(),
        "{name}: the output schema does not require the provenance every success carries"
    );
    let mut nullable = Vec::new();
    nullable_paths(&output, "$", &mut nullable);
    assert!(
        nullable.is_empty(),
        "{name}: the output schema admits null at {nullable:?}; only pagination.cursor and pagination.total_count may be null"
    );
    let mut words = Vec::new();
    walk_descriptions(&output, "output", &mut |path, _| {
        words.push(path.to_owned())
    });
    assert!(
        words.is_empty(),
        "{name}: the served output schema carries descriptions at {words:?}; they belong in \
         the documented definitions (schema::lean)"
    );
    for (side, schema) in [("input", &input), ("output", &output)] {
        let dangling = dangling_refs(schema);
        assert!(
            dangling.is_empty(),
            "{name}: the {side} schema refers to definitions it lacks: {dangling:?}"
        );
    }
}

/// Every tool whose answer is a list is declared as one, as its schemas show it: one
/// that pages (a `cursor` argument and a `pagination` in its answer) `as paged(rows,
/// size)`, one that says `truncated` where its `limit` cut it `as capped(rows, size)`;
/// and each declaration names an array of the answer and an argument with a maximum
/// (what an export pages with), and leaves room in the output schema for the `export`
/// the answer to an export carries. So a new list tool cannot miss `export`.
fn check_listings(tools: &[Tool], listings: &[(&str, crate::export::Listing)]) {
    for tool in tools {
        let name = tool.name.as_ref();
        let input = Value::Object((*tool.input_schema).clone());
        let output = tool
            .output_schema
            .as_ref()
            .map(|o| Value::Object((**o).clone()))
            .unwrap_or_default();
        let pages = input["properties"].get("cursor").is_some()
            && output["properties"].get("pagination").is_some();
        let cut = input["properties"].get("limit").is_some()
            && output["properties"]["truncated"]["type"] == "boolean";
        let Some((_, listing)) = listings.iter().find(|(n, _)| *n == name) else {
            assert!(
                !pages,
                "{name} pages its answer: declare it `as paged(<rows>, <size>)` so it takes export"
            );
            assert!(
                !cut,
                "{name} cuts its answer at `limit`: declare it `as capped(<rows>, <size>)` so it takes export"
            );
            assert!(
                input["properties"].get(crate::export::ARGUMENT).is_none(),
                "{name}: takes export without being declared a list"
            );
            continue;
        };
        assert_eq!(
            output["properties"][listing.rows]["type"], "array",
            "{name}: its declared rows `{}` are not an array of its answer",
            listing.rows
        );
        assert!(
            input["properties"][listing.size]["maximum"].is_u64(),
            "{name}: its declared size `{}` is not an argument with a maximum",
            listing.size
        );
        assert_eq!(
            listing.paged,
            pages,
            "{name}: declared {} but its schemas say otherwise",
            if listing.paged { "paged" } else { "capped" }
        );
        assert_eq!(
            input["properties"][crate::export::ARGUMENT]["enum"],
            json!(["tsv", "csv"]),
            "{name}: a list that does not take export"
        );
        assert_ne!(
            output["additionalProperties"],
            json!(false),
            "{name}: the answer to an export carries `export`, which its output schema refuses"
        );
    }
}

/// The local `$ref`s of `schema` that lead nowhere.
fn dangling_refs(schema: &Value) -> Vec<String> {
    fn walk(node: &Value, root: &Value, out: &mut Vec<String>) {
        match node {
            Value::Object(map) => {
                for (key, child) in map {
                    match (key.as_str(), child.as_str()) {
                        ("$ref", Some(reference)) => {
                            let found = reference.strip_prefix("#/").is_some_and(|path| {
                                path.split('/')
                                    .try_fold(root, |node, part| node.get(part))
                                    .is_some()
                            });
                            if !found {
                                out.push(reference.to_owned());
                            }
                        }
                        _ => walk(child, root, out),
                    }
                }
            }
            Value::Array(items) => items.iter().for_each(|item| walk(item, root, out)),
            _ => {}
        }
    }
    let mut out = Vec::new();
    walk(schema, schema, &mut out);
    out
}

/// Every `src/tools/<file>.rs` but `mod.rs` holds the tool `<prefix><file>`, and every
/// tool has its file.
fn check_tool_files(crate_dir: &Path, prefix: &str, names: &BTreeSet<String>) {
    let Ok(entries) = std::fs::read_dir(crate_dir.join("src").join("tools")) else {
        return;
    };
    let files: BTreeSet<String> = entries
        .filter_map(Result::ok)
        .filter_map(|e| e.file_name().into_string().ok())
        .filter_map(|f| f.strip_suffix(".rs").map(str::to_owned))
        .filter(|f| f != "mod")
        .map(|f| format!("{prefix}{f}"))
        .collect();
    let unrouted: Vec<_> = files.difference(names).collect();
    assert!(
        unrouted.is_empty(),
        "tools/ has files whose tool is not declared (add it to the server's `tools![…]`): {unrouted:?}"
    );
    let fileless: Vec<_> = names.difference(&files).collect();
    assert!(
        fileless.is_empty(),
        "tools without a file of their own in src/tools/: {fileless:?}"
    );
}

/// Rustdoc links (`[`Name`]`) and the line breaks of wrapped doc comments do not belong
/// in what a model reads.
fn check_prose(tool: &str, path: &str, text: &str) {
    let link = rustdoc_link().find(text);
    assert!(
        link.is_none(),
        "{tool} {path}: rustdoc link syntax {:?} in {text:?}",
        link.map(|m| m.as_str())
    );
    assert!(
        !text.replace("\n\n", "").contains('\n'),
        "{tool} {path}: a line break inside a paragraph: {text:?}"
    );
}

fn rustdoc_link() -> Regex {
    Regex::new(r"\[`[A-Za-z_][A-Za-z0-9_:<>]*`\]|\[(?:crate|self|super)::").expect("regex")
}

/// Numbers a description states as a range: `1–100`, `0-1000`, `1 to 500`.
fn stated_ranges(text: &str) -> Vec<(f64, f64)> {
    let range =
        Regex::new(r"(?:^|[^\w.])(-?\d+(?:\.\d+)?)\s*(?:–|-|to)\s*(-?\d+(?:\.\d+)?)(?:[^\w.%]|$)")
            .expect("regex");
    range
        .captures_iter(text)
        .filter_map(|c| Some((c[1].parse().ok()?, c[2].parse().ok()?)))
        .filter(|(low, high)| low < high)
        .collect()
}

/// A numeric argument whose description states a range says it in the schema too.
fn check_bounds(tool: &str, path: &str, schema: &Value) {
    let numeric = match &schema["type"] {
        Value::String(t) => t == "integer" || t == "number",
        Value::Array(ts) => ts.iter().any(|t| t == "integer" || t == "number"),
        _ => false,
    };
    let Some(description) = schema["description"].as_str().filter(|_| numeric) else {
        return;
    };
    let ranges = stated_ranges(description);
    if ranges.is_empty() {
        return;
    }
    let low = ranges.iter().map(|r| r.0).fold(f64::INFINITY, f64::min);
    let high = ranges.iter().map(|r| r.1).fold(f64::NEG_INFINITY, f64::max);
    assert_eq!(
        schema["minimum"].as_f64(),
        Some(low),
        "{tool}.{path}: the description states {low}–{high}; the schema's minimum must say {low}: {schema}"
    );
    assert_eq!(
        schema["maximum"].as_f64(),
        Some(high),
        "{tool}.{path}: the description states {low}–{high}; the schema's maximum must say {high}: {schema}"
    );
}

/// The default a description states: `(default 25)`, `` `png` (default) ``,
/// ``default `false` ``, `Default 9606.`; `None` when it states none or a contextual one
/// ("Default: the CURIEs' taxon").
fn stated_default(text: &str) -> Option<Value> {
    let patterns = [
        r"\(default (-?\d+(?:\.\d+)?)[;),]",
        r"`([^`]+)` \(default[);]",
        r"[Dd]efault `([^`]+)`",
        r"[Dd]efault (-?\d+(?:\.\d+)?)\.(?:\s|$)",
    ];
    patterns.iter().find_map(|pattern| {
        let captured = Regex::new(pattern).expect("regex").captures(text)?[1].to_owned();
        Some(serde_json::from_str(&captured).unwrap_or(Value::String(captured)))
    })
}

/// An argument whose description states its default says it in the schema too
/// (`"default": 25`), so clients show it and a model need not read prose for it.
fn check_default(tool: &str, path: &str, schema: &Value) {
    let Some(stated) = schema["description"].as_str().and_then(stated_default) else {
        return;
    };
    let declared = &schema["default"];
    let same = match (declared.as_f64(), stated.as_f64()) {
        (Some(a), Some(b)) => (a - b).abs() < f64::EPSILON,
        _ => *declared == stated,
    };
    assert!(
        same,
        "{tool}.{path}: the description states the default {stated}; the schema must say \"default\": {stated} (it says {declared}): {schema}"
    );
}

/// Calls `f` with every property schema (following local `$ref`s into `$defs`), named by
/// its path of property names.
fn walk_properties(root: &Value, schema: &Value, f: &mut dyn FnMut(&str, &Value)) {
    fn walk(root: &Value, schema: &Value, path: &str, depth: u8, f: &mut dyn FnMut(&str, &Value)) {
        if depth > 8 {
            return;
        }
        if let Some(target) = schema["$ref"]
            .as_str()
            .and_then(|r| r.strip_prefix("#/"))
            .and_then(|r| r.split('/').try_fold(root, |node, part| node.get(part)))
        {
            // A property's own keywords (its description) sit next to the `$ref`.
            let mut merged: Map<String, Value> = target.as_object().cloned().unwrap_or_default();
            if let Some(own) = schema.as_object() {
                for (k, v) in own {
                    if k != "$ref" {
                        merged.insert(k.clone(), v.clone());
                    }
                }
            }
            return walk(root, &Value::Object(merged), path, depth + 1, f);
        }
        if !path.is_empty() {
            f(path, schema);
        }
        if let Some(properties) = schema["properties"].as_object() {
            for (name, child) in properties {
                let child_path = if path.is_empty() {
                    name.clone()
                } else {
                    format!("{path}.{name}")
                };
                walk(root, child, &child_path, depth + 1, f);
            }
        }
        for key in ["items", "additionalProperties"] {
            if schema[key].is_object() {
                walk(root, &schema[key], &format!("{path}[]"), depth + 1, f);
            }
        }
        for key in ["anyOf", "oneOf", "allOf"] {
            for option in schema[key].as_array().into_iter().flatten() {
                walk(root, option, path, depth + 1, f);
            }
        }
    }
    walk(root, schema, "", 0, f);
}

/// Calls `f` with every `description` in a schema, named by its JSON path.
fn walk_descriptions(value: &Value, path: &str, f: &mut dyn FnMut(&str, &str)) {
    match value {
        Value::Object(map) => {
            for (key, child) in map {
                match (key.as_str(), child) {
                    ("description", Value::String(text)) => f(path, text),
                    _ => walk_descriptions(child, &format!("{path}.{key}"), f),
                }
            }
        }
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                walk_descriptions(item, &format!("{path}[{i}]"), f);
            }
        }
        _ => {}
    }
}

/// Paths of schema nodes that admit `null`, outside the two pagination fields that may be
/// null.
fn nullable_paths(schema: &Value, path: &str, out: &mut Vec<String>) {
    match schema {
        Value::Object(map) => {
            let admits_null = match map.get("type") {
                Some(Value::String(t)) => t == "null",
                Some(Value::Array(types)) => types.iter().any(|t| t == "null"),
                _ => false,
            };
            let allowed =
                path.ends_with(".properties.cursor") || path.ends_with(".properties.total_count");
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

/// What a model reads of a server's tools on every turn.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Catalog {
    /// Each tool's name and model-facing bytes, in listing order.
    pub tools: Vec<(String, usize)>,
}

impl Catalog {
    /// Measure `tools`: per tool, the compact JSON of its name, title, description and
    /// input schema (the output schema is for the client, not the model).
    pub fn measure(tools: &[Tool]) -> Self {
        Self {
            tools: tools
                .iter()
                .map(|tool| (tool.name.to_string(), model_facing_bytes(tool)))
                .collect(),
        }
    }

    /// All tools' bytes.
    pub fn total(&self) -> usize {
        self.tools.iter().map(|(_, bytes)| bytes).sum()
    }

    /// Bytes per tool on average (0 without tools).
    pub fn average(&self) -> usize {
        self.total().checked_div(self.tools.len()).unwrap_or(0)
    }

    /// The largest tool and its bytes.
    pub fn largest(&self) -> Option<(&str, usize)> {
        self.tools
            .iter()
            .max_by_key(|(_, bytes)| *bytes)
            .map(|(name, bytes)| (name.as_str(), *bytes))
    }

    /// One line: tools, total, average and largest, against the budgets.
    pub fn summary(&self, server: &str) -> String {
        let (largest, largest_bytes) = self.largest().unwrap_or(("-", 0));
        format!(
            "{server}: {} tools, {} bytes; average {} (budget {AVERAGE_BUDGET_BYTES}); largest {largest} {largest_bytes} (budget {TOOL_BUDGET_BYTES})",
            self.tools.len(),
            self.total(),
            self.average(),
        )
    }

    /// The budgets this catalog exceeds, in words; empty when within them.
    pub fn over_budget(&self) -> Vec<String> {
        let mut over: Vec<String> = self
            .tools
            .iter()
            .filter(|(_, bytes)| *bytes > TOOL_BUDGET_BYTES)
            .map(|(name, bytes)| format!("{name} takes {bytes} bytes (budget {TOOL_BUDGET_BYTES})"))
            .collect();
        if self.average() > AVERAGE_BUDGET_BYTES {
            over.push(format!(
                "the average tool takes {} bytes (budget {AVERAGE_BUDGET_BYTES})",
                self.average()
            ));
        }
        over
    }
}

fn model_facing_bytes(tool: &Tool) -> usize {
    let mut facing = Map::new();
    facing.insert("name".into(), json!(tool.name));
    if let Some(title) = &tool.title {
        facing.insert("title".into(), json!(title));
    }
    if let Some(description) = &tool.description {
        facing.insert("description".into(), json!(description));
    }
    facing.insert(
        "inputSchema".into(),
        Value::Object((*tool.input_schema).clone()),
    );
    serde_json::to_vec(&Value::Object(facing)).map_or(0, |bytes| bytes.len())
}

/// Fail when a server's served output schemas take more than
/// [`OUTPUT_AVERAGE_BUDGET_BYTES`] on average; print the figure either way.
pub fn assert_output_budget(server: &str, tools: &[Tool]) {
    let sizes: Vec<usize> = tools
        .iter()
        .filter_map(|tool| tool.output_schema.as_ref())
        .map(|schema| serde_json::to_vec(&**schema).map_or(0, |bytes| bytes.len()))
        .collect();
    let average = sizes
        .iter()
        .sum::<usize>()
        .checked_div(sizes.len())
        .unwrap_or(0);
    eprintln!(
        "{server}: output schemas average {average} bytes (budget {OUTPUT_AVERAGE_BUDGET_BYTES})"
    );
    assert!(
        average <= OUTPUT_AVERAGE_BUDGET_BYTES,
        "{server}: output schemas average {average} bytes (budget {OUTPUT_AVERAGE_BUDGET_BYTES})"
    );
}

/// Fail when a server's tools exceed the catalog budget; print its figures either way
/// (visible with `--nocapture`, and in `cargo xtask docs`).
pub fn assert_catalog_budget(server: &str, tools: &[Tool]) {
    let catalog = Catalog::measure(tools);
    eprintln!("{}", catalog.summary(server));
    let over = catalog.over_budget();
    assert!(
        over.is_empty(),
        "{server} is over its catalog budget: {over:?}"
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_are_read_from_prose() {
        assert_eq!(
            stated_ranges("Most partners, 1–10000 (default 25)."),
            [(1.0, 10000.0)]
        );
        assert_eq!(
            stated_ranges("on the scale 0-1000; or 0 to 1"),
            [(0.0, 1000.0), (0.0, 1.0)]
        );
        assert_eq!(stated_ranges("a locus like chr17:41.2M-41.3M"), []);
        assert_eq!(stated_ranges("ENSG00000141510 or 9606"), []);
    }

    #[test]
    fn rustdoc_links_are_recognised_and_json_examples_are_not() {
        let re = rustdoc_link();
        assert!(re.is_match("Paging state of a [`PaginationEnvelope`]."));
        assert!(re.is_match("See [crate::cursor]."));
        assert!(!re.is_match(r#"Example: `{"ids": ["A", "B"]}`"#));
    }

    /// A crate folder with `src/tools/` holding `files`, removed on drop.
    struct CrateDir(std::path::PathBuf);

    impl CrateDir {
        fn with_tools(files: &[&str]) -> Self {
            let nanos = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .unwrap()
                .as_nanos();
            let root = std::env::temp_dir().join(format!("tools-{}-{nanos}", std::process::id()));
            let tools = root.join("src").join("tools");
            std::fs::create_dir_all(&tools).unwrap();
            for file in files {
                std::fs::write(tools.join(file), "").unwrap();
            }
            Self(root)
        }
    }

    impl Drop for CrateDir {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    fn names(list: &[&str]) -> BTreeSet<String> {
        list.iter().map(|n| (*n).to_owned()).collect()
    }

    #[test]
    fn one_declared_tool_per_file_of_tools_passes() {
        let dir = CrateDir::with_tools(&["mod.rs", "get_gene.rs", "search_genes.rs"]);
        check_tool_files(&dir.0, "x_", &names(&["x_get_gene", "x_search_genes"]));
    }

    #[test]
    #[should_panic(expected = "add it to the server's `tools![…]`")]
    fn a_tool_file_without_its_declaration_fails() {
        let dir = CrateDir::with_tools(&["mod.rs", "get_gene.rs", "search_genes.rs"]);
        check_tool_files(&dir.0, "x_", &names(&["x_get_gene"]));
    }

    #[test]
    #[should_panic(expected = "without a file of their own")]
    fn a_tool_without_its_own_file_fails() {
        let dir = CrateDir::with_tools(&["get_gene.rs"]);
        check_tool_files(&dir.0, "x_", &names(&["x_get_gene", "x_get_other"]));
    }

    #[test]
    #[should_panic(expected = "the schema's maximum must say 100")]
    fn a_range_stated_in_prose_but_not_in_the_schema_fails() {
        let schema = json!({"type": "integer", "minimum": 1,
                            "description": "Results per page, 1–100 (default 10)."});
        check_bounds("x_search", "page_size", &schema);
    }

    #[test]
    fn a_range_stated_in_both_passes() {
        let schema = json!({"type": "integer", "minimum": 1, "maximum": 100,
                            "description": "Results per page, 1–100 (default 10)."});
        check_bounds("x_search", "page_size", &schema);
    }

    #[test]
    fn defaults_are_read_from_prose() {
        assert_eq!(
            stated_default("Results, 1–100 (default 50)."),
            Some(json!(50))
        );
        assert_eq!(
            stated_default("Minimum r², 0–1 (default 0.8)."),
            Some(json!(0.8))
        );
        assert_eq!(
            stated_default("Score (default 400; 700 high)."),
            Some(json!(400))
        );
        assert_eq!(
            stated_default("`png` (default), `svg`."),
            Some(json!("png"))
        );
        assert_eq!(
            stated_default("`AFR`, `EUR` (default) or `SAS`."),
            Some(json!("EUR"))
        );
        assert_eq!(
            stated_default("Slim; default `false`: the full record."),
            Some(json!(false))
        );
        assert_eq!(
            stated_default("Common names. Default 9606."),
            Some(json!(9606))
        );
        assert_eq!(
            stated_default("Default: the CURIEs' taxon, else 9606."),
            None
        );
        assert_eq!(
            stated_default("`evidence` (default; a colour per channel)"),
            Some(json!("evidence"))
        );
    }

    #[test]
    #[should_panic(expected = "the schema must say \"default\": 10")]
    fn a_default_stated_in_prose_but_not_in_the_schema_fails() {
        let schema = json!({"type": "integer", "minimum": 1, "maximum": 100,
                            "description": "Results per page, 1–100 (default 10)."});
        check_default("x_search", "page_size", &schema);
    }

    #[test]
    #[should_panic(expected = "a line break inside a paragraph")]
    fn a_hard_wrapped_description_fails() {
        check_prose("x_search", "description", "Words to\nsearch.");
    }

    #[test]
    fn the_catalog_budget_counts_model_facing_bytes_only() {
        let tool = |name: &str, description: String| {
            let mut tool = Tool::new(
                name.to_owned(),
                description,
                std::sync::Arc::new(Map::new()),
            );
            // The output schema is for the client: it does not count.
            tool.output_schema = Some(std::sync::Arc::new(
                json!({"description": "x".repeat(10_000)})
                    .as_object()
                    .cloned()
                    .unwrap(),
            ));
            tool
        };
        let small = Catalog::measure(&[tool("a", "short".into()), tool("b", "short".into())]);
        assert!(small.over_budget().is_empty(), "{:?}", small.over_budget());
        assert!(small.total() < 200, "{}", small.total());
        let big = Catalog::measure(&[tool("a", "y".repeat(2600)), tool("b", "short".into())]);
        let over = big.over_budget();
        assert_eq!(over.len(), 1, "{over:?}");
        assert!(over[0].starts_with("a takes"), "{over:?}");
        let heavy = Catalog::measure(&[tool("a", "y".repeat(2000)), tool("b", "y".repeat(1900))]);
        assert_eq!(
            heavy.over_budget().len(),
            1,
            "the average is over: {:?}",
            heavy.over_budget()
        );
        assert_eq!(heavy.largest().map(|(name, _)| name), Some("a"));
    }

    #[test]
    fn references_must_lead_somewhere() {
        let schema = json!({
            "properties": {"a": {"$ref": "#/$defs/A"}, "b": {"$ref": "#/$defs/Gone"}},
            "$defs": {"A": {"type": "string"}}
        });
        assert_eq!(dangling_refs(&schema), ["#/$defs/Gone"]);
    }

    #[test]
    fn only_the_pagination_fields_may_be_null() {
        let schema = json!({"properties": {
            "name": {"type": ["string", "null"]},
            "pagination": {"properties": {"cursor": {"type": ["string", "null"]}}}
        }});
        let mut found = Vec::new();
        nullable_paths(&schema, "$", &mut found);
        assert_eq!(found, ["$.properties.name"]);
    }
}
