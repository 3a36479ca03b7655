//! `cargo xtask bundle`: the gateway as a Claude Desktop extension (an MCP Bundle:
//! `manifest.json` plus the binary, zipped as `.mcpb`) and a `server.json` for the
//! official MCP registry, both describing every configuration variable.
//!
//! The manifest follows the MCPB manifest specification, version 0.3
//! (<https://github.com/modelcontextprotocol/mcpb/blob/main/MANIFEST.md>); the bundle is
//! checked and packed with the specification's own command line, `@anthropic-ai/mcpb`
//! (npm, pinned below), whose `validate` applies the published JSON schema. The
//! `server.json` follows the registry's format
//! (<https://github.com/modelcontextprotocol/registry/tree/main/docs/reference/server-json>):
//! one `mcpb` package, its download URL and SHA-256, stdio transport, and the variables.

use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{Context, bail};
use lifesciences_core::McpServer;
use lifesciences_mcp::Gateway;
use serde_json::{Value, json};

/// The pinned MCPB command line.
const MCPB_CLI: &str = "@anthropic-ai/mcpb@2.1.2";
/// The registry's server.json schema this file follows.
const SERVER_SCHEMA: &str =
    "https://static.modelcontextprotocol.io/schemas/2025-09-29/server.schema.json";
/// The repository, for URLs.
const REPOSITORY: &str = "https://github.com/lifesciences-mcp/lifesciences-mcp";

/// Every variable the gateway reads: each source's, the shared ones, and the toolsets.
fn variables() -> anyhow::Result<Vec<lifesciences_core::config::Variable>> {
    let upstreams = lifesciences_core::server::upstreams::<Gateway>()?;
    let mut all = lifesciences_core::config::variables(&upstreams);
    all.push(lifesciences_core::config::Variable {
        name: lifesciences_core::cli::TOOLSETS_VAR.to_owned(),
        default: "all".to_owned(),
        about: "which toolsets to serve: string, ensembl, chembl, igvf (comma-separated)"
            .to_owned(),
    });
    Ok(all)
}

/// MCPB's name for this platform.
fn platform() -> &'static str {
    match std::env::consts::OS {
        "macos" => "darwin",
        "windows" => "win32",
        _ => "linux",
    }
}

/// The extension's manifest.
pub(crate) fn manifest(binary_name: &str) -> anyhow::Result<Value> {
    let mut user_config = serde_json::Map::new();
    let mut env = serde_json::Map::new();
    for v in variables()? {
        let key = v.name.to_ascii_lowercase();
        user_config.insert(
            key.clone(),
            json!({
                "type": "string",
                "title": v.name,
                "description": format!("{} (default: {}). Leave empty for the default.", v.about, v.default),
                "required": false,
            }),
        );
        env.insert(v.name.clone(), json!(format!("${{user_config.{key}}}")));
    }
    let tools: Vec<Value> = lifesciences_core::tools::<Gateway>()
        .iter()
        .map(|t| {
            let description = t.description.as_deref().unwrap_or_default();
            let first = description.split(". ").next().unwrap_or(description);
            json!({"name": t.name, "description": first.trim_end_matches('.')})
        })
        .collect();
    Ok(json!({
        "manifest_version": "0.3",
        "name": Gateway::NAME,
        "display_name": Gateway::TITLE,
        "version": Gateway::VERSION,
        "description": "STRING, Ensembl, ChEMBL and the IGVF Catalog for AI agents: genes, proteins, interactions, compounds, variants, with identifiers that cross over.",
        "author": {"name": "lifesciences-mcp developers", "url": REPOSITORY},
        "repository": {"type": "git", "url": REPOSITORY},
        "homepage": REPOSITORY,
        "license": "MIT OR Apache-2.0",
        "keywords": ["bioinformatics", "genomics", "proteins", "chemistry", "variants"],
        "server": {
            "type": "binary",
            "entry_point": format!("server/{binary_name}"),
            "mcp_config": {
                "command": format!("${{__dirname}}/server/{binary_name}"),
                "args": [],
                "env": env,
            },
        },
        "tools": tools,
        "compatibility": {"platforms": [platform()]},
        "user_config": user_config,
    }))
}

/// The registry's description of the server: the bundle as its package.
pub(crate) fn server_json(bundle_url: &str, sha256: &str) -> anyhow::Result<Value> {
    let variables: Vec<Value> = variables()?
        .into_iter()
        .map(|v| {
            json!({
                "name": v.name,
                "description": format!("{} (default: {})", v.about, v.default),
                "isRequired": false,
                "isSecret": false,
            })
        })
        .collect();
    Ok(json!({
        "$schema": SERVER_SCHEMA,
        "name": "io.github.lifesciences-mcp/lifesciences-mcp",
        "title": Gateway::TITLE,
        "description": "STRING, Ensembl, ChEMBL and IGVF Catalog tools for agents, with identifiers that cross over.",
        "repository": {"url": REPOSITORY, "source": "github"},
        "version": Gateway::VERSION,
        "packages": [{
            "registryType": "mcpb",
            "identifier": bundle_url,
            "version": Gateway::VERSION,
            "fileSha256": sha256,
            "transport": {"type": "stdio"},
            "environmentVariables": variables,
        }],
    }))
}

/// SHA-256 of a file, with the system's `sha256sum` (or `shasum -a 256`).
fn sha256(path: &Path) -> anyhow::Result<String> {
    for (program, args) in [("sha256sum", vec![]), ("shasum", vec!["-a", "256"])] {
        if let Ok(out) = Command::new(program).args(&args).arg(path).output()
            && out.status.success()
        {
            let text = String::from_utf8_lossy(&out.stdout);
            if let Some(hash) = text.split_whitespace().next() {
                return Ok(hash.to_owned());
            }
        }
    }
    bail!(
        "neither sha256sum nor shasum is available to hash {}",
        path.display()
    )
}

fn npx(args: &[&str]) -> anyhow::Result<()> {
    let status = Command::new("npx")
        .args(["--yes", MCPB_CLI])
        .args(args)
        .status()
        .context(
            "cannot run npx: the bundle is checked and packed with npm's @anthropic-ai/mcpb",
        )?;
    if !status.success() {
        bail!("mcpb {} failed ({status})", args.join(" "));
    }
    Ok(())
}

/// Build the release binary, write the bundle directory, validate and pack it, and write
/// `server.json` beside it. Returns the bundle's path.
pub(crate) fn run(debug: bool) -> anyhow::Result<PathBuf> {
    let entry = crate::servers::gateway();
    let binaries = crate::demo::build(std::slice::from_ref(&entry), !debug)?;
    let binary = binaries.first().context("no binary was built")?;
    let name = binary
        .file_name()
        .and_then(|n| n.to_str())
        .context("binary name")?
        .to_owned();
    let out = crate::demo::target_dir()?.join("bundle");
    let dir = out.join(Gateway::NAME);
    if dir.exists() {
        std::fs::remove_dir_all(&dir).with_context(|| format!("cannot clear {}", dir.display()))?;
    }
    std::fs::create_dir_all(dir.join("server"))?;
    std::fs::copy(binary, dir.join("server").join(&name))
        .with_context(|| format!("cannot copy {}", binary.display()))?;
    let manifest_path = dir.join("manifest.json");
    std::fs::write(
        &manifest_path,
        serde_json::to_string_pretty(&manifest(&name)?)?,
    )?;
    let manifest_arg = manifest_path.to_str().context("path is not UTF-8")?;
    npx(&["validate", manifest_arg])?;
    let file = format!("{}-{}-{}.mcpb", Gateway::NAME, Gateway::VERSION, platform());
    let bundle = out.join(&file);
    npx(&[
        "pack",
        dir.to_str().context("path is not UTF-8")?,
        bundle.to_str().context("path is not UTF-8")?,
    ])?;
    let url = format!(
        "{REPOSITORY}/releases/download/v{}/{file}",
        Gateway::VERSION
    );
    let server = server_json(&url, &sha256(&bundle)?)?;
    std::fs::write(
        out.join("server.json"),
        serde_json::to_string_pretty(&server)?,
    )?;
    println!("bundle:      {}", bundle.display());
    println!("server.json: {}", out.join("server.json").display());
    Ok(bundle)
}

/// The bundle and `server.json` for `cargo xtask dist`, with the bundle's smoke test.
pub(crate) fn build_and_smoke(
    out: &Path,
    binary: &Path,
) -> anyhow::Result<Vec<(PathBuf, Option<crate::dist::smoke::Smoke>)>> {
    let _ = (out, binary);
    bail!("not built yet")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_variable_is_a_user_setting_passed_to_the_server() {
        let m = manifest("lifesciences-mcp").unwrap();
        let env = m["server"]["mcp_config"]["env"].as_object().unwrap();
        let settings = m["user_config"].as_object().unwrap();
        let names: Vec<String> = variables().unwrap().into_iter().map(|v| v.name).collect();
        assert!(names.contains(&"IGVF_CATALOG_API_URL".to_owned()));
        assert!(names.contains(&"LIFESCIENCES_TOOLSETS".to_owned()));
        for name in &names {
            let key = name.to_ascii_lowercase();
            assert_eq!(env[name], format!("${{user_config.{key}}}"), "{name}");
            assert_eq!(settings[&key]["required"], false, "{name}");
        }
        assert_eq!(env.len(), names.len());
        assert_eq!(m["tools"].as_array().unwrap().len(), 32);
        let s = server_json("https://example.org/x.mcpb", "00").unwrap();
        assert_eq!(
            s["packages"][0]["environmentVariables"]
                .as_array()
                .unwrap()
                .len(),
            names.len()
        );
    }
}
