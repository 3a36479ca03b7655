//! `cargo xtask docs`: what is generated from the code, so the documentation cannot drift
//! from it: `docs/tools.md` (the servers' tool definitions, their catalog figures and the
//! cross-reference registry), the README's configuration and politeness tables and
//! `docs/citing.md`'s licence and citation table (from the upstreams' descriptions),
//! between markers, and each server's `src/tools.json` (the definitions it embeds and
//! serves).

use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::time::Duration;

use anyhow::{Context as _, bail};
use lifesciences_core::config::GLOBAL_VARIABLES;
use lifesciences_core::rmcp::model::Tool;
use lifesciences_core::testing::Catalog;
use lifesciences_core::{Cardinality, REGISTRY, SourceConfig};
use serde_json::{Map, Value};

use crate::servers::{self, ServerEntry};

const TOOLS: &str = "docs/tools.md";
const README: &str = "README.md";
const CITING: &str = "docs/citing.md";

pub(crate) fn run(check: bool) -> anyhow::Result<()> {
    let root = crate::workspace_root();
    let servers = servers::all();
    let gateway = servers::gateway();
    for server in servers.iter().chain(std::iter::once(&gateway)) {
        println!(
            "{}",
            Catalog::measure(&(server.tools)()).summary(server.name)
        );
    }
    let readme_path = root.join(README);
    let readme = std::fs::read_to_string(&readme_path)
        .with_context(|| format!("cannot read {}", readme_path.display()))?;
    let readme_rendered = render_readme(&readme, &servers)?;
    let citing_path = root.join(CITING);
    let citing = std::fs::read_to_string(&citing_path)
        .with_context(|| format!("cannot read {}", citing_path.display()))?;
    let citing_rendered = render_citing(&citing, &servers)?;
    let tools_rendered = render(&servers, &gateway);
    let mut files = vec![
        (TOOLS.to_owned(), tools_rendered),
        (README.to_owned(), readme_rendered),
        (CITING.to_owned(), citing_rendered),
    ];
    // The definitions each server embeds and serves.
    for server in servers.iter().chain(std::iter::once(&gateway)) {
        files.push((
            format!("crates/{}/src/tools.json", server.name),
            (server.definitions)(),
        ));
    }
    if check {
        let stale: Vec<&str> = files
            .iter()
            .filter(|(path, rendered)| {
                std::fs::read_to_string(root.join(path)).unwrap_or_default() != *rendered
            })
            .map(|(path, _)| path.as_str())
            .collect();
        if !stale.is_empty() {
            bail!(
                "{} stale: run `cargo xtask docs` and commit the result",
                stale.join(" and ")
            );
        }
        println!(
            "{TOOLS}, the generated parts of {README} and {CITING}, and each server's src/tools.json are up to date"
        );
        return Ok(());
    }
    for (path, rendered) in files {
        let path = path.as_str();
        let full = root.join(path);
        if let Some(dir) = full.parent() {
            std::fs::create_dir_all(dir)
                .with_context(|| format!("cannot create {}", dir.display()))?;
        }
        std::fs::write(&full, rendered).with_context(|| format!("cannot write {path}"))?;
        println!("wrote {path}");
    }
    Ok(())
}

/// The README with the text between each pair of generated-section markers replaced.
fn render_readme(readme: &str, servers: &[ServerEntry]) -> anyhow::Result<String> {
    let upstreams = distinct_upstreams(servers)?;
    replace_sections(
        README,
        readme,
        &[
            ("configuration", configuration_table(&upstreams)),
            ("politeness", politeness_table(&upstreams)),
        ],
    )
}

/// `docs/citing.md` with its table of every source's licence and citation generated from
/// the sources' descriptions.
fn render_citing(citing: &str, servers: &[ServerEntry]) -> anyhow::Result<String> {
    let upstreams = distinct_upstreams(servers)?;
    replace_sections(CITING, citing, &[("citation", citation_table(&upstreams))])
}

/// `text` (the file `file`) with the text between each section's markers replaced by its
/// body.
fn replace_sections(file: &str, text: &str, sections: &[(&str, String)]) -> anyhow::Result<String> {
    let mut out = text.to_owned();
    for (section, body) in sections {
        let begin = format!("<!-- BEGIN GENERATED {section}: cargo xtask docs -->\n");
        let end = format!("<!-- END GENERATED {section} -->");
        let start = out
            .find(&begin)
            .with_context(|| format!("{file} lacks the marker {begin:?}"))?
            + begin.len();
        let stop = out[start..]
            .find(&end)
            .with_context(|| format!("{file} lacks the marker {end:?}"))?
            + start;
        out.replace_range(start..stop, body);
    }
    Ok(out)
}

/// Each source's licence (its SPDX expression, linked to where the source states it) and
/// the paper it asks to be cited (its DOI, linked), as provenance names them.
fn citation_table(upstreams: &[(SourceConfig, Vec<&'static str>)]) -> String {
    let mut out = String::from(
        "| database | `licence` | where it says so | `cite` | servers |\n|---|---|---|---|---|\n",
    );
    for (config, users) in upstreams {
        let u = config.upstream;
        let (licence, url) = match u.licence {
            Some(l) => (format!("`{}`", l.spdx), format!("<{}>", l.url)),
            None => ("none stated".to_owned(), String::new()),
        };
        let cite = match u.cite {
            Some(doi) => format!("[`doi:{doi}`](https://doi.org/{doi})"),
            None => "none named".to_owned(),
        };
        let _ = writeln!(
            out,
            "| {} | {licence} | {url} | {cite} | {} |",
            u.name,
            users.join(", ")
        );
    }
    out
}

/// Every upstream of every server once, with the servers that use it, in server order.
fn distinct_upstreams(
    servers: &[ServerEntry],
) -> anyhow::Result<Vec<(SourceConfig, Vec<&'static str>)>> {
    let mut out: Vec<(SourceConfig, Vec<&'static str>)> = Vec::new();
    for server in servers {
        for config in (server.upstreams)()? {
            match out
                .iter_mut()
                .find(|(c, _)| c.upstream.env_prefix == config.upstream.env_prefix)
            {
                Some((_, users)) => users.push(server.name),
                None => out.push((config, vec![server.name])),
            }
        }
    }
    Ok(out)
}

fn configuration_table(upstreams: &[(SourceConfig, Vec<&'static str>)]) -> String {
    let mut out = String::from("| variable | default | meaning |\n|---|---|---|\n");
    for (config, users) in upstreams {
        let u = config.upstream;
        let _ = writeln!(
            out,
            "| `{}` | `{}` | {} base URL ({}) |",
            u.url_var(),
            u.default_url,
            u.about,
            users.join(", ")
        );
        for setting in u.settings {
            let _ = writeln!(
                out,
                "| `{}` | `{}` | {} |",
                setting.var, setting.default, setting.about
            );
        }
    }
    for (var, default, meaning) in GLOBAL_VARIABLES {
        let _ = writeln!(out, "| `{var}` | {default} | {meaning} |");
    }
    let prefixes: BTreeSet<&str> = upstreams
        .iter()
        .map(|(c, _)| c.upstream.env_prefix)
        .collect();
    let listed: Vec<String> = upstreams
        .iter()
        .map(|(c, _)| format!("`{}`", c.upstream.env_prefix))
        .collect();
    let _ = writeln!(
        out,
        "\n`<SOURCE>` is the prefix of a source's URL variable: {} ({} sources).",
        listed.join(", "),
        prefixes.len()
    );
    out
}

fn politeness_table(upstreams: &[(SourceConfig, Vec<&'static str>)]) -> String {
    let mut out = String::from(
        "| source | requests/s | in flight | timeout | retries | cached | `check` asks |\n|---|---|---|---|---|---|---|\n",
    );
    for (config, _) in upstreams {
        let u = config.upstream;
        let timeout = match u.timeout {
            Some(own) => format!("{} (own)", seconds(own)),
            None => seconds(config.timeout),
        };
        let retries = match config.retry.max_retries {
            0 => "none".to_owned(),
            n => format!("up to {n}"),
        };
        let cached = if config.cache_posts {
            "GETs and look-up POSTs"
        } else {
            "GETs"
        };
        let query: Vec<String> = u
            .health
            .query
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect();
        let probe = if query.is_empty() {
            format!("`GET {}`", u.health.path)
        } else {
            format!("`GET {}?{}`", u.health.path, query.join("&"))
        };
        let _ = writeln!(
            out,
            "| {} | {} | {} | {timeout} | {retries} | {cached} | {probe} |",
            u.name,
            trim_number(config.rate_per_second),
            config.max_concurrent,
        );
    }
    out
}

fn seconds(d: Duration) -> String {
    format!("{} s", trim_number(d.as_secs_f64()))
}

fn trim_number(n: f64) -> String {
    let text = format!("{n:.2}");
    text.trim_end_matches('0').trim_end_matches('.').to_owned()
}

/// The whole document.
pub(crate) fn render(servers: &[ServerEntry], gateway: &ServerEntry) -> String {
    let mut out = String::new();
    out.push_str("# Tools\n\n");
    out.push_str(
        "<!-- GENERATED by `cargo xtask docs` from the servers' tool definitions. \
         Do not edit by hand; CI fails when this file is stale. -->\n\n",
    );
    out.push_str(
        "Every tool is read-only, idempotent and open-world, declares an output schema, and \
         returns `structuredContent` plus the same JSON as text. Errors are results with \
         `isError: true` whose text is an ErrorEnvelope (see the README).\n\n",
    );
    for server in servers {
        let _ = writeln!(
            out,
            "- [{}](#{}): {}",
            server.name, server.name, server.title
        );
    }
    let _ = writeln!(
        out,
        "- [{}](#{}): {}",
        gateway.name, gateway.name, gateway.title
    );
    out.push_str("- [Cross-reference registry](#cross-reference-registry)\n\n");
    for server in servers {
        render_server(&mut out, server);
    }
    render_gateway(&mut out, gateway);
    render_registry(&mut out);
    out
}

/// The gateway: its instructions, its whole catalog's size, and its own tools (the
/// others are the servers' above, unchanged).
fn render_gateway(out: &mut String, gateway: &ServerEntry) {
    let _ = writeln!(out, "## {}\n\n{}\n", gateway.name, gateway.title);
    let _ = writeln!(
        out,
        "Serves every tool above under the same name, in one process (`--toolsets` or \
         `LIFESCIENCES_TOOLSETS` chooses among {}; default all), plus the tools below.\n",
        lifesciences_mcp::Toolset::NAMES.join(", ")
    );
    let _ = writeln!(out, "Instructions given to the agent at `initialize`:\n");
    for line in gateway.instructions.lines() {
        let _ = writeln!(out, "> {line}");
    }
    out.push('\n');
    let tools = (gateway.tools)();
    let catalog = Catalog::measure(&tools);
    let _ = writeln!(
        out,
        "What a model reads of all {} tools on every turn (name, title, description, input \
         schema): {} bytes, {} per tool on average.\n",
        tools.len(),
        catalog.total(),
        catalog.average()
    );
    for tool in tools.iter().filter(|t| t.name.starts_with("lifesciences_")) {
        render_tool(out, tool);
    }
}

fn render_server(out: &mut String, server: &ServerEntry) {
    let _ = writeln!(out, "## {}\n\n{}\n", server.name, server.title);
    let _ = writeln!(out, "Instructions given to the agent at `initialize`:\n");
    for line in server.instructions.lines() {
        let _ = writeln!(out, "> {line}");
    }
    out.push('\n');
    let tools = (server.tools)();
    if tools.is_empty() {
        out.push_str("_No tools yet._\n\n");
        return;
    }
    let catalog = Catalog::measure(&tools);
    let _ = writeln!(
        out,
        "What a model reads of these tools on every turn (name, title, description, input \
         schema): {} bytes, {} per tool on average.\n",
        catalog.total(),
        catalog.average()
    );
    for tool in &tools {
        render_tool(out, tool);
    }
}

fn render_tool(out: &mut String, tool: &Tool) {
    let title = tool.title.as_deref().unwrap_or_default();
    let _ = writeln!(out, "### `{}`: {title}\n", tool.name);
    if let Some(description) = &tool.description {
        let _ = writeln!(out, "{}\n", description.trim());
    }
    let input = Value::Object((*tool.input_schema).clone());
    out.push_str("**Arguments**\n\n");
    render_properties(out, &input, true);
    if let Some(output) = &tool.output_schema {
        out.push_str("**Result**\n\n");
        render_properties(out, &Value::Object((**output).clone()), false);
    }
    if let Some(a) = &tool.annotations {
        let flag = |name: &str, v: Option<bool>| v.map(|v| format!("{name}: {v}"));
        let flags: Vec<_> = [
            flag("readOnly", a.read_only_hint),
            flag("idempotent", a.idempotent_hint),
            flag("openWorld", a.open_world_hint),
            flag("destructive", a.destructive_hint),
        ]
        .into_iter()
        .flatten()
        .collect();
        let _ = writeln!(out, "Annotations: {}\n", flags.join(", "));
    }
}

fn render_properties(out: &mut String, schema: &Value, with_required: bool) {
    let empty = Map::new();
    let properties = schema
        .get("properties")
        .and_then(Value::as_object)
        .unwrap_or(&empty);
    if properties.is_empty() {
        out.push_str("None.\n\n");
        return;
    }
    let required: Vec<&str> = schema
        .get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    if with_required {
        out.push_str("| name | type | required | description |\n|---|---|---|---|\n");
    } else {
        out.push_str("| field | type | description |\n|---|---|---|\n");
    }
    for (name, property) in properties {
        let ty = describe_type(property, schema);
        let mut description = resolve(property, schema)
            .get("description")
            .or_else(|| property.get("description"))
            .and_then(Value::as_str)
            .unwrap_or_default()
            .replace('\n', " ")
            .replace('|', "\\|");
        if let Some(default) = property.get("default") {
            let _ = write!(description, " Default: `{default}`.");
        }
        if with_required {
            let req = if required.contains(&name.as_str()) {
                "yes"
            } else {
                "no"
            };
            let _ = writeln!(out, "| `{name}` | {ty} | {req} | {} |", description.trim());
        } else {
            let _ = writeln!(out, "| `{name}` | {ty} | {} |", description.trim());
        }
    }
    out.push('\n');
}

/// Follow a local `$ref` (`#/$defs/Name` or `#/definitions/Name`).
fn resolve<'a>(schema: &'a Value, root: &'a Value) -> &'a Value {
    let Some(reference) = schema.get("$ref").and_then(Value::as_str) else {
        return schema;
    };
    let mut target = root;
    for part in reference.trim_start_matches("#/").split('/') {
        match target.get(part) {
            Some(next) => target = next,
            None => return schema,
        }
    }
    target
}

/// A short human type: `string`, `integer`, `list of string`, `"png" \| "svg"`, ...
fn describe_type(schema: &Value, root: &Value) -> String {
    let schema = resolve(schema, root);
    if let Some(values) = schema.get("enum").and_then(Value::as_array) {
        let shown: Vec<String> = values.iter().map(|v| format!("`{v}`")).collect();
        return shown.join(" \\| ");
    }
    for key in ["anyOf", "oneOf"] {
        if let Some(options) = schema.get(key).and_then(Value::as_array) {
            let shown: Vec<String> = options
                .iter()
                .filter(|o| o.get("type").and_then(Value::as_str) != Some("null"))
                .map(|o| describe_type(o, root))
                .collect();
            return shown.join(" or ");
        }
    }
    let types: Vec<&str> = match schema.get("type") {
        Some(Value::String(t)) => vec![t.as_str()],
        Some(Value::Array(ts)) => ts
            .iter()
            .filter_map(Value::as_str)
            .filter(|t| *t != "null")
            .collect(),
        _ => vec![],
    };
    match types.as_slice() {
        ["array"] => {
            let items = schema
                .get("items")
                .map(|i| describe_type(i, root))
                .unwrap_or_default();
            format!("list of {items}")
        }
        [] => "any".to_owned(),
        many => many.join(" or "),
    }
}

fn render_registry(out: &mut String) {
    out.push_str("## Cross-reference registry\n\n");
    out.push_str(
        "`cross_references` objects use only these keys. Values are normalised on the way in \
         and dropped (and logged) when they fail the key's pattern; keys with no value are \
         omitted.\n\n",
    );
    out.push_str("| key | pattern | one or list | identifies |\n|---|---|---|---|\n");
    for spec in &REGISTRY {
        let patterns: Vec<String> = spec.patterns.iter().map(|p| format!("`{p}`")).collect();
        let cardinality = match spec.cardinality {
            Cardinality::One => "one",
            Cardinality::Many => "list",
        };
        let _ = writeln!(
            out,
            "| `{}` | {} | {cardinality} | {} |",
            spec.name,
            patterns.join(" or ").replace('|', "\\|"),
            spec.description
        );
    }
}
