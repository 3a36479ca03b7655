//! The cross-database walkthrough (`docs/walkthrough.md`), replayed: every call the page
//! shows is made against the server binaries, with one mock upstream serving the recorded
//! responses of every source, and each result must contain the trimmed result the
//! page shows under it. The page stays true because the demo fails when it is not.
//!
//! A call is a fenced `text` block holding one command line, `<bin> call <tool> '<json>'`;
//! the fenced `json` block right after it is the expected result, trimmed: every key it
//! shows must be in the result with that value, and a list shows the result's first
//! items.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use anyhow::{Context as _, bail};
use lifesciences_core::rmcp::model::CallToolRequestParams;
use lifesciences_core::testing::McpTestClient;
use serde_json::{Value, json};
use wiremock::Mock;
use wiremock::matchers::{body_json, method, path, query_param};

use super::script::fixture;
use crate::servers::ServerEntry;

/// The page, relative to the workspace root.
pub(crate) const PAGE: &str = "docs/walkthrough.md";

/// One call of the page and the trimmed result it shows.
#[derive(Debug)]
struct Call {
    server: String,
    tool: String,
    arguments: Value,
    shown: Value,
}

/// The calls of the page, in order.
fn calls(page: &str) -> anyhow::Result<Vec<Call>> {
    let mut calls = Vec::new();
    let mut lines = page.lines();
    let mut pending: Option<(String, String, Value)> = None;
    while let Some(line) = lines.next() {
        let fence = line.trim();
        if fence != "```text" && fence != "```json" {
            continue;
        }
        let block: Vec<&str> = lines.by_ref().take_while(|l| l.trim() != "```").collect();
        let text = block.join("\n");
        if fence == "```text" {
            let mut words = text.trim().splitn(4, ' ');
            let (Some(server), Some("call"), Some(tool), Some(arguments)) =
                (words.next(), words.next(), words.next(), words.next())
            else {
                continue;
            };
            let arguments = arguments.trim().trim_matches('\'');
            let arguments: Value = serde_json::from_str(arguments)
                .with_context(|| format!("{PAGE}: the arguments of {tool} are not JSON"))?;
            pending = Some((server.to_owned(), tool.to_owned(), arguments));
        } else if let Some((server, tool, arguments)) = pending.take() {
            let shown: Value = serde_json::from_str(&text)
                .with_context(|| format!("{PAGE}: the result shown for {tool} is not JSON"))?;
            calls.push(Call {
                server,
                tool,
                arguments,
                shown,
            });
        }
    }
    Ok(calls)
}

/// Where `actual` does not contain `shown`: a JSON pointer and what differs.
fn mismatch(actual: &Value, shown: &Value, at: &str) -> Option<String> {
    match (actual, shown) {
        (Value::Object(actual), Value::Object(shown)) => shown.iter().find_map(|(key, want)| {
            let here = format!("{at}/{key}");
            match actual.get(key) {
                Some(have) => mismatch(have, want, &here),
                None => Some(format!("{here} is missing")),
            }
        }),
        (Value::Array(actual), Value::Array(shown)) => {
            if shown.len() > actual.len() {
                return Some(format!(
                    "{at} has {} item(s), the page shows {}",
                    actual.len(),
                    shown.len()
                ));
            }
            actual
                .iter()
                .zip(shown)
                .enumerate()
                .find_map(|(i, (have, want))| mismatch(have, want, &format!("{at}/{i}")))
        }
        (Value::Number(a), Value::Number(b)) => {
            let same = a
                .as_f64()
                .zip(b.as_f64())
                .is_some_and(|(a, b)| (a - b).abs() < 1e-9);
            (!same).then(|| format!("{at} is {a}, the page shows {b}"))
        }
        (have, want) => (have != want).then(|| format!("{at} is {have}, the page shows {want}")),
    }
}

/// The recorded responses the walkthrough needs beyond the servers' demo scripts.
fn extra_mocks() -> Vec<Mock> {
    let chembl = |route: &str, query: &[(&str, &str)], name: &str| {
        query
            .iter()
            .fold(
                Mock::given(method("GET")).and(path(format!("/chembl{route}"))),
                |mock, (key, value)| mock.and(query_param(*key, *value)),
            )
            .respond_with(fixture("chembl-mcp", name))
    };
    let unichem = |compound: &str, name: &str| {
        Mock::given(method("POST"))
            .and(path("/unichem/compounds"))
            .and(body_json(
                json!({"type": "sourceID", "compound": compound, "sourceID": 1}),
            ))
            .respond_with(fixture("chembl-mcp", name))
    };
    let ensembl = |route: &str, name: &str| {
        Mock::given(method("GET"))
            .and(path(format!("/ensembl{route}")))
            .respond_with(fixture("ensembl-mcp", name))
    };
    vec![
        // Imatinib mesylate, the mechanisms of it as a parent (none; asked alongside the
        // molecule), its parent's and their target (ABL1).
        chembl(
            "/molecule/CHEMBL1642.json",
            &[],
            "molecule__CHEMBL1642.json",
        ),
        chembl(
            "/mechanism.json",
            &[("parent_molecule_chembl_id", "CHEMBL1642")],
            "mechanism__empty.json",
        ),
        chembl(
            "/mechanism.json",
            &[("parent_molecule_chembl_id", "CHEMBL941")],
            "mechanism__molecule_chembl_id=CHEMBL941.json",
        ),
        chembl(
            "/target.json",
            &[("target_chembl_id__in", "CHEMBL1862")],
            "target__target_chembl_id__in=CHEMBL1862.json",
        ),
        unichem("CHEMBL1642", "unichem_compounds__not_found.json"),
        unichem("CHEMBL941", "unichem_compounds__CHEMBL941.json"),
        // TP53 in Ensembl.
        ensembl(
            "/lookup/id/ENSG00000141510",
            "lookup_id__ENSG00000141510.json",
        ),
        ensembl(
            "/xrefs/id/ENSG00000141510",
            "xrefs_id__ENSG00000141510.json",
        ),
    ]
}

/// Replay the page; returns the number of calls whose result does not contain what the
/// page shows.
pub(crate) async fn replay(
    entries: &[ServerEntry],
    binaries: &[PathBuf],
    root: &Path,
) -> anyhow::Result<usize> {
    let page =
        std::fs::read_to_string(root.join(PAGE)).with_context(|| format!("cannot read {PAGE}"))?;
    let calls = calls(&page)?;
    if calls.is_empty() {
        bail!("{PAGE} shows no calls");
    }
    let mut upstreams = Vec::new();
    let mut routes = extra_mocks();
    for entry in entries {
        let script = (entry.demo)();
        super::check_points_at_mock(entry, &script.upstreams)?;
        upstreams.extend(script.upstreams);
        routes.extend(script.mocks);
    }
    let mock = super::serve_mock(routes).await;
    let urls: Vec<(&str, String)> = upstreams
        .iter()
        .map(|(var, prefix)| (*var, format!("{}{prefix}", mock.uri())))
        .collect();
    let env: Vec<(&str, &str)> = urls.iter().map(|(k, v)| (*k, v.as_str())).collect();

    let on = if entries.iter().any(|e| e.name == crate::servers::GATEWAY) {
        "on the gateway"
    } else {
        "across the servers"
    };
    println!("\n━━━ walkthrough ━━━ {PAGE}, replayed {on}");
    let mut clients = BTreeMap::new();
    for (entry, binary) in entries.iter().zip(binaries) {
        let program = binary.to_str().context("binary path is not UTF-8")?;
        clients.insert(entry.name, McpTestClient::spawn_binary(program, &env).await);
    }
    let mut failures = 0;
    for call in &calls {
        println!("\n▶ {} call {} {}", call.server, call.tool, call.arguments);
        // With the gateway built, every call goes through it: the page's path across
        // the databases, in one server.
        let Some(client) = (if clients.contains_key(call.server.as_str()) {
            clients
                .get(crate::servers::GATEWAY)
                .or_else(|| clients.get(call.server.as_str()))
        } else {
            None
        }) else {
            failures += 1;
            println!(
                "  ✘ {PAGE} names a server that does not exist: {}",
                call.server
            );
            continue;
        };
        let arguments = call.arguments.as_object().cloned().unwrap_or_default();
        let request = CallToolRequestParams::new(call.tool.clone()).with_arguments(arguments);
        let actual = match client.peer().call_tool(request).await {
            Ok(result) if result.is_error != Some(true) => {
                result.structured_content.unwrap_or(Value::Null)
            }
            Ok(result) => {
                failures += 1;
                println!("  ✘ the tool failed: {:?}", result.content);
                continue;
            }
            Err(e) => {
                failures += 1;
                println!("  ✘ protocol error: {e}");
                continue;
            }
        };
        // WALKTHROUGH_SHOW=1 prints whole results, for editing the page.
        if std::env::var_os("WALKTHROUGH_SHOW").is_some() {
            println!("{actual:#}");
        }
        match mismatch(&actual, &call.shown, "") {
            None => println!("  ✔ the result contains what the page shows"),
            Some(difference) => {
                failures += 1;
                println!("  ✘ {difference}");
            }
        }
    }
    for (_, client) in clients {
        client.close().await;
    }
    Ok(failures)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn calls_and_their_results_are_read_from_the_page() {
        let page = "Intro.\n\n```text\nstring-mcp call string_search_proteins '{\"query\": \"TP53\"}'\n```\n\n```json\n{\"items\": [{\"name\": \"TP53\"}]}\n```\n\n```sh\ncargo xtask demo\n```\n";
        let calls = calls(page).unwrap();
        assert_eq!(calls.len(), 1);
        assert_eq!(calls[0].server, "string-mcp");
        assert_eq!(calls[0].tool, "string_search_proteins");
        assert_eq!(calls[0].arguments, json!({"query": "TP53"}));
        assert_eq!(calls[0].shown, json!({"items": [{"name": "TP53"}]}));
    }

    #[test]
    fn a_trimmed_result_is_contained_and_a_wrong_one_is_not() {
        let actual = json!({"items": [{"id": "A", "score": 0.9, "x": 1}, {"id": "B"}], "n": 2});
        assert_eq!(
            mismatch(&actual, &json!({"items": [{"id": "A", "score": 0.9}]}), ""),
            None
        );
        assert_eq!(
            mismatch(&actual, &json!({"items": [{"id": "B"}]}), ""),
            Some("/items/0/id is \"A\", the page shows \"B\"".to_owned())
        );
        assert_eq!(
            mismatch(&actual, &json!({"m": 1}), ""),
            Some("/m is missing".to_owned())
        );
        assert!(mismatch(&actual, &json!({"items": [{}, {}, {}]}), "").is_some());
    }
}
