//! `cargo xtask demo`: build the servers, start one local mock upstream serving each
//! crate's fixtures, and run every server binary through a short scripted MCP session
//! over stdio with a real MCP client, printing what a user would see.
//!
//! Each server's script lives in `demo/<source>.rs`: the mock routes (under a path
//! prefix of its own, pointed at by the server's `*_API_URL` variables) and the calls.
//! A step that does not end as its script expects fails the demo.

pub(crate) mod chembl;
pub(crate) mod ensembl;
pub(crate) mod gateway;
pub(crate) mod igvf;
pub(crate) mod script;
pub(crate) mod scripts;
pub(crate) mod string;
pub(crate) mod uniprot;
pub(crate) mod walkthrough;

use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{Context as _, bail};
use lifesciences_core::rmcp::model::CallToolRequestParams;
use lifesciences_core::testing::McpTestClient;
use serde_json::Value;
use wiremock::{Mock, MockServer, ResponseTemplate};

use crate::servers::{self, ServerEntry};
use script::Expect;

pub(crate) fn run(only: Option<&str>) -> anyhow::Result<()> {
    let gateway_only = only == Some(servers::GATEWAY);
    let mut entries = if gateway_only {
        Vec::new()
    } else {
        servers::select(only)?
    };
    // The gateway's session runs after the servers', with the whole demo or alone.
    if only.is_none() || gateway_only {
        entries.push(servers::gateway());
    }
    let binaries = build(&entries, false)?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    runtime.block_on(async {
        let mut failures = 0;
        for (entry, binary) in entries.iter().zip(&binaries) {
            failures += session(entry, binary).await?;
        }
        if only.is_none() {
            failures += walkthrough::replay(&entries, &binaries, &crate::workspace_root()).await?;
        }
        println!();
        if failures > 0 {
            bail!("{failures} demo step(s) did not end as expected");
        }
        println!("Demo complete: every step ended as expected.");
        Ok(())
    })
}

/// Build the server binaries (the release profile when `release`) and return their
/// paths. Progress goes to stderr: some commands print their results on stdout.
pub(crate) fn build(entries: &[ServerEntry], release: bool) -> anyhow::Result<Vec<PathBuf>> {
    let profile = if release { "release" } else { "debug" };
    eprintln!("Building {} server(s) ({profile})…", entries.len());
    let mut build = Command::new(cargo());
    build
        .current_dir(crate::workspace_root())
        .args(["build", "--quiet"]);
    if release {
        build.arg("--release");
    }
    for entry in entries {
        build.args(["-p", entry.name]);
    }
    let status = build.status().context("cannot run cargo build")?;
    if !status.success() {
        bail!("cargo build ({profile}) failed ({status})");
    }
    let target = target_dir()?.join(profile);
    Ok(entries
        .iter()
        .map(|e| target.join(format!("{}{}", e.name, std::env::consts::EXE_SUFFIX)))
        .collect())
}

fn cargo() -> String {
    std::env::var("CARGO").unwrap_or_else(|_| "cargo".into())
}

/// The workspace's target directory.
pub(crate) fn target_dir() -> anyhow::Result<PathBuf> {
    let output = Command::new(cargo())
        .current_dir(crate::workspace_root())
        .args(["metadata", "--format-version", "1", "--no-deps"])
        .output()
        .context("cannot run cargo metadata")?;
    if !output.status.success() {
        bail!(
            "cargo metadata failed ({}): {}",
            output.status,
            String::from_utf8_lossy(&output.stderr).trim()
        );
    }
    let metadata: Value =
        serde_json::from_slice(&output.stdout).context("cargo metadata output")?;
    metadata["target_directory"]
        .as_str()
        .map(PathBuf::from)
        .context("cargo metadata has no target_directory")
}

/// Fail unless `upstreams` (a script's `(variable, prefix)` pairs) points every upstream
/// `entry` builds at the mock: otherwise a demo would reach the real network. The
/// server's own descriptions say which variables those are.
pub(crate) fn check_points_at_mock(
    entry: &ServerEntry,
    upstreams: &[(&'static str, &'static str)],
) -> anyhow::Result<()> {
    for config in (entry.upstreams)()? {
        let var = config.upstream.url_var();
        if !upstreams.iter().any(|(listed, _)| *listed == var) {
            bail!(
                "the {} demo script does not point {var} at the mock",
                entry.name
            );
        }
    }
    Ok(())
}

/// Each source's release look-up as the demo mock serves it, under the path prefix every
/// script gives that source: `(path, crate, fixture in its tests/fixtures)`.
pub(crate) const RELEASE_FIXTURES: [(&str, &str, &str); 3] = [
    ("/string/json/version", "string-mcp", "version.json"),
    ("/ensembl/info/data", "ensembl-mcp", "info_data.json"),
    ("/chembl/status.json", "chembl-mcp", "status.json"),
];

/// A mock upstream serving `routes`, and each source's release look-up under the prefix
/// every script gives that source (a server asks it once, after its first answer, to name
/// the release in a result's provenance); anything else gets a clear 404, never the
/// network.
pub(crate) async fn serve_mock(routes: Vec<Mock>) -> MockServer {
    let mock = MockServer::start().await;
    for route in routes {
        route.mount(&mock).await;
    }
    for (at, krate, name) in RELEASE_FIXTURES {
        Mock::given(wiremock::matchers::method("GET"))
            .and(wiremock::matchers::path(at))
            .respond_with(script::fixture(krate, name))
            .mount(&mock)
            .await;
    }
    Mock::given(wiremock::matchers::any())
        .respond_with(ResponseTemplate::new(404).set_body_string("no demo route for this request"))
        .with_priority(u8::MAX)
        .mount(&mock)
        .await;
    mock
}

/// Run one server's script; returns the number of steps that did not end as expected.
async fn session(entry: &ServerEntry, binary: &Path) -> anyhow::Result<usize> {
    let script = (entry.demo)();
    check_points_at_mock(entry, &script.upstreams)?;
    let mock = serve_mock(script.mocks).await;
    let urls: Vec<(&str, String)> = script
        .upstreams
        .iter()
        .map(|(var, prefix)| (*var, format!("{}{prefix}", mock.uri())))
        .collect();
    let env: Vec<(&str, &str)> = urls.iter().map(|(k, v)| (*k, v.as_str())).collect();

    println!("\n━━━ {} ━━━ {}", entry.name, entry.title);
    let program = binary.to_str().context("binary path is not UTF-8")?;
    let client = McpTestClient::spawn_binary(program, &env).await;
    if let Some(info) = client.peer().peer_info() {
        if let Some(server) = &info.server_info {
            println!("initialize → {} {}", server.name, server.version);
        }
        if let Some(instructions) = &info.instructions {
            for line in instructions.lines() {
                println!("  │ {line}");
            }
        }
    }
    let tools = client.tools().await;
    let names: Vec<_> = tools.iter().map(|t| t.name.to_string()).collect();
    println!(
        "tools/list → {} tool(s){}{}",
        names.len(),
        if names.is_empty() { "" } else { ": " },
        names.join(", ")
    );

    let mut failures = 0;
    for step in &script.steps {
        println!("\n▶ {}", step.say);
        println!("  {} {}", step.tool, step.arguments);
        let arguments = match &step.arguments {
            Value::Object(map) => map.clone(),
            _ => serde_json::Map::new(),
        };
        let request = CallToolRequestParams::new(step.tool).with_arguments(arguments);
        let result = match client.peer().call_tool(request).await {
            Ok(result) => result,
            Err(e) => {
                failures += 1;
                println!("  ✘ protocol error: {e}");
                continue;
            }
        };
        // A success is `structuredContent`; an error is its envelope as text.
        let structured = lifesciences_core::cli::result_json(&result);
        let code = structured["error"]["code"].as_str().map(str::to_owned);
        let outcome = match (result.is_error == Some(true), step.expect) {
            (false, Expect::Ok) => true,
            (true, Expect::Error(expected)) => code.as_deref() == Some(expected),
            _ => false,
        };
        print_result(&structured, result.is_error == Some(true));
        if !outcome {
            failures += 1;
            println!("  ✘ expected {:?}", step.expect);
        }
    }
    client.close().await;
    Ok(failures)
}

/// Print a result as an agent would read it, shortened for a terminal.
fn print_result(structured: &Value, is_error: bool) {
    const MAX_LINES: usize = 24;
    if is_error {
        let e = &structured["error"];
        println!(
            "  ✘ {}: {}",
            e["code"].as_str().unwrap_or("?"),
            e["message"].as_str().unwrap_or("")
        );
        println!("    hint: {}", e["recovery_hint"].as_str().unwrap_or(""));
        return;
    }
    // Where it came from, in one line per source; the result itself without it.
    let mut shown = structured.clone();
    let provenance = shown
        .as_object_mut()
        .and_then(|map| map.remove("provenance"));
    for source in provenance
        .as_ref()
        .and_then(|p| p["sources"].as_array())
        .into_iter()
        .flatten()
    {
        let requests = source["requests"].as_array().map_or(0, Vec::len);
        println!(
            "  ⓘ {}{}: {requests} request(s), retrieved {}{}",
            source["database"].as_str().unwrap_or("?"),
            source["release"]
                .as_str()
                .map(|r| format!(" (release {r})"))
                .unwrap_or_default(),
            source["retrieved_at"].as_str().unwrap_or("?"),
            if source["cached"] == Value::Bool(true) {
                ", from the cache"
            } else {
                ""
            },
        );
    }
    let text = serde_json::to_string_pretty(&shown).unwrap_or_default();
    let lines: Vec<_> = text.lines().collect();
    for line in lines.iter().take(MAX_LINES) {
        println!("  {line}");
    }
    if lines.len() > MAX_LINES {
        println!("  … ({} more lines)", lines.len() - MAX_LINES);
    }
}
