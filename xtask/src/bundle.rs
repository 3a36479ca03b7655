//! `cargo xtask bundle`: the gateway as a Claude Desktop extension (an MCP Bundle:
//! `manifest.json` plus the binaries, zipped as `.mcpb`) and a `server.json` for the
//! official MCP registry.
//!
//! The manifest follows the MCPB manifest specification, version 0.3
//! (<https://github.com/modelcontextprotocol/mcpb/blob/main/MANIFEST.md>); the bundle is
//! checked and packed with the specification's own command line, `@anthropic-ai/mcpb`
//! (npm, pinned below), whose `validate` applies the published JSON schema.
//!
//! One bundle serves every desktop platform: each platform's binary sits in its own
//! folder under `server/`, and `platform_overrides` points each platform at its own
//! (`cargo xtask bundle --binaries <dir>` assembles it from the release workflow's
//! builds; without it, the bundle holds this machine's build only). It exposes the few
//! settings people change (databases, STRING caller identity, proxy, a CA file, log
//! level), each with its default where it has one. Claude Desktop passes a setting left
//! blank as the literal text `${user_config.<key>}`; the server reads such a value as
//! unset (core's configuration), so the bundle starts on first launch.
//!
//! `server.json` follows the registry's schema of 2025-12-11, vendored at
//! `packaging/registry/server.schema.json` and checked by this module's tests: the PyPI,
//! npm, OCI and MCPB packages of one release, each with the variables a user may set and
//! their defaults.

use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{Context, bail};
use lifesciences_core::McpServer;
use lifesciences_mcp::Gateway;
use serde_json::{Value, json};

/// The pinned MCPB command line.
const MCPB_CLI: &str = "@anthropic-ai/mcpb@2.1.2";
/// The registry's server.json schema this file follows (a copy is in `packaging/registry/`).
const SERVER_SCHEMA: &str =
    "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json";
/// The server's name in the MCP registry (its packages carry it: PyPI's description,
/// npm's `mcpName`, the image's `io.modelcontextprotocol.server.name` label).
pub(crate) const REGISTRY_NAME: &str = "io.github.lifesciences-mcp/lifesciences-mcp";
/// The repository, for URLs.
const REPOSITORY: &str = "https://github.com/lifesciences-mcp/lifesciences-mcp";
/// The container image, without its tag.
pub(crate) const IMAGE: &str = "ghcr.io/lifesciences-mcp/lifesciences-mcp";

/// Where the answers come from, and their privacy notices: every Ensembl, EBI Search,
/// ChEMBL and UniChem request goes to EMBL-EBI; STRING's access and licensing terms;
/// UniProt's privacy notice; the project's own page says what goes where, including the
/// IGVF Catalog's.
const PRIVACY_POLICIES: &[&str] = &[
    "https://www.ebi.ac.uk/data-protection/privacy-notice/embl-ebi-public-website",
    "https://string-db.org/cgi/access",
    "https://www.uniprot.org/help/privacy",
    "https://github.com/lifesciences-mcp/lifesciences-mcp/blob/main/docs/privacy.md",
];

/// One setting the bundle shows a user: the manifest's `user_config` entry and the
/// variable it sets.
struct Setting {
    key: &'static str,
    var: &'static str,
    kind: &'static str,
    title: &'static str,
    description: &'static str,
    default: Option<&'static str>,
}

/// The settings people change, each with a default, so that a setting left blank reaches
/// the server as its default: an empty value (unset: the system's proxy settings, no extra
/// certificates) rather than the literal placeholder Claude Desktop passes for a blank
/// setting without a default (which the server also reads as unset, but which turns the
/// system's proxy settings off). Every other variable keeps its default (the README lists
/// them).
const SETTINGS: &[Setting] = &[
    Setting {
        key: "toolsets",
        var: lifesciences_core::cli::TOOLSETS_VAR,
        kind: "string",
        title: "Databases",
        description: "Which databases to serve, comma-separated: string, ensembl, chembl, igvf, uniprot; or all.",
        default: Some("all"),
    },
    Setting {
        key: "string_caller_identity",
        var: "STRING_CALLER_IDENTITY",
        kind: "string",
        title: "STRING caller identity",
        description: "Sent with every STRING request, so STRING knows who is calling (your lab or tool).",
        default: Some("lifesciences-mcp"),
    },
    Setting {
        key: "https_proxy",
        var: "HTTPS_PROXY",
        kind: "string",
        title: "HTTPS proxy",
        description: "A proxy for every request, e.g. http://proxy.example.org:3128. Leave empty to use the system's proxy settings.",
        default: Some(""),
    },
    Setting {
        key: "no_proxy",
        var: "NO_PROXY",
        kind: "string",
        title: "No proxy for",
        description: "Hosts reached without the proxy, comma-separated.",
        default: Some(""),
    },
    Setting {
        key: "ca_file",
        var: "LIFESCIENCES_CA_FILE",
        kind: "file",
        title: "Extra CA certificates",
        description: "A PEM file of certificates to trust besides the system's (for networks that inspect TLS).",
        default: Some(""),
    },
    Setting {
        key: "log_level",
        var: "RUST_LOG",
        kind: "string",
        title: "Log level",
        description: "What the server logs to Claude's log file: error, warn, info or debug.",
        default: Some("warn"),
    },
];

/// One platform's binary in the bundle.
#[derive(Debug, Clone)]
pub(crate) struct PlatformBinary {
    /// MCPB's name for the platform: `darwin`, `win32`, `linux`.
    pub platform: &'static str,
    /// The folder under `server/`, e.g. `linux-x64`.
    pub dir: &'static str,
    /// The binary.
    pub path: PathBuf,
}

impl PlatformBinary {
    fn file_name(&self) -> String {
        self.path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default()
    }

    /// The path the manifest names, relative to the bundle.
    fn in_bundle(&self) -> String {
        format!("server/{}/{}", self.dir, self.file_name())
    }
}

/// The folders `--binaries` reads, as the release workflow lays them out, in the order
/// the manifest prefers them as its default command.
const PLATFORM_DIRS: &[(&str, &str, &str)] = &[
    ("linux", "linux-x64", "lifesciences-mcp"),
    ("darwin", "darwin", "lifesciences-mcp"),
    ("win32", "win32-x64", "lifesciences-mcp.exe"),
];

/// MCPB's name for this platform, and the folder its binary goes in.
fn this_platform() -> (&'static str, &'static str) {
    match std::env::consts::OS {
        "macos" => ("darwin", "darwin"),
        "windows" => ("win32", "win32-x64"),
        _ => ("linux", "linux-x64"),
    }
}

/// The extension's manifest for these binaries (at least one).
pub(crate) fn manifest(binaries: &[PlatformBinary]) -> anyhow::Result<Value> {
    let Some(first) = binaries.first() else {
        bail!("a bundle needs at least one binary");
    };
    let mut user_config = serde_json::Map::new();
    let mut env = serde_json::Map::new();
    for s in SETTINGS {
        let mut entry = json!({
            "type": s.kind,
            "title": s.title,
            "description": s.description,
            "required": false,
        });
        if let Some(default) = s.default {
            entry["default"] = json!(default);
        }
        user_config.insert(s.key.to_owned(), entry);
        env.insert(
            s.var.to_owned(),
            json!(format!("${{user_config.{}}}", s.key)),
        );
    }
    let mut overrides = serde_json::Map::new();
    for b in &binaries[1..] {
        overrides.insert(
            b.platform.to_owned(),
            json!({"command": format!("${{__dirname}}/{}", b.in_bundle())}),
        );
    }
    let mut mcp_config = json!({
        "command": format!("${{__dirname}}/{}", first.in_bundle()),
        "args": [],
        "env": env,
    });
    if !overrides.is_empty() {
        mcp_config["platform_overrides"] = Value::Object(overrides);
    }
    let tools: Vec<Value> = lifesciences_core::tools::<Gateway>()
        .iter()
        .map(|t| {
            let description = t.description.as_deref().unwrap_or_default();
            let first = description.split(". ").next().unwrap_or(description);
            json!({"name": t.name, "description": first.trim_end_matches('.')})
        })
        .collect();
    let platforms: Vec<&str> = binaries.iter().map(|b| b.platform).collect();
    Ok(json!({
        "manifest_version": "0.3",
        "name": Gateway::NAME,
        "display_name": Gateway::TITLE,
        "version": Gateway::VERSION,
        "description": "STRING, Ensembl, ChEMBL, the IGVF Catalog and UniProt for AI agents: genes, proteins, interactions, compounds, variants, with identifiers that cross over.",
        "long_description": "Every answer says where it came from (database, release, the exact requests) so it can be cited. The queries you ask go to EMBL-EBI (Ensembl, EBI Search, ChEMBL, UniChem), STRING, the IGVF Catalog and UniProt; nothing else is sent anywhere, and the extension keeps no record of them beyond an in-memory cache.",
        "author": {"name": "lifesciences-mcp developers", "url": REPOSITORY},
        "repository": {"type": "git", "url": REPOSITORY},
        "homepage": REPOSITORY,
        "documentation": format!("{REPOSITORY}/blob/main/README.md"),
        "support": format!("{REPOSITORY}/issues"),
        "license": "MIT OR Apache-2.0",
        "keywords": ["bioinformatics", "genomics", "proteins", "chemistry", "variants"],
        "privacy_policies": PRIVACY_POLICIES,
        "server": {
            "type": "binary",
            "entry_point": first.in_bundle(),
            "mcp_config": mcp_config,
        },
        "tools": tools,
        "compatibility": {"platforms": platforms},
        "user_config": user_config,
    }))
}

/// A variable a registry client may set for a package, with its default.
fn registry_variable(var: &str, description: &str, default: Option<&str>, format: &str) -> Value {
    let mut v = json!({
        "name": var,
        "description": description,
        "isRequired": false,
        "isSecret": false,
        "format": format,
    });
    if let Some(default) = default {
        v["default"] = json!(default);
    }
    v
}

/// The registry's description of the server: one release's PyPI, npm, OCI and MCPB
/// packages, each with the settings a user may set.
pub(crate) fn server_json(bundle_url: &str, bundle_sha256: &str) -> Value {
    let version = Gateway::VERSION;
    let variables: Vec<Value> = SETTINGS
        .iter()
        .map(|s| {
            let format = if s.kind == "file" {
                "filepath"
            } else {
                "string"
            };
            registry_variable(s.var, s.description, s.default, format)
        })
        .collect();
    let stdio = json!({"type": "stdio"});
    json!({
        "$schema": SERVER_SCHEMA,
        "name": REGISTRY_NAME,
        "title": Gateway::TITLE,
        "description": "STRING, Ensembl, ChEMBL, IGVF Catalog and UniProt for agents, with provenance on every answer.",
        "websiteUrl": REPOSITORY,
        "repository": {"url": REPOSITORY, "source": "github"},
        "version": version,
        "packages": [
            {
                "registryType": "pypi",
                "registryBaseUrl": "https://pypi.org",
                "identifier": Gateway::NAME,
                "version": version,
                "runtimeHint": "uvx",
                "transport": stdio,
                "environmentVariables": variables,
            },
            {
                "registryType": "npm",
                "registryBaseUrl": "https://registry.npmjs.org",
                "identifier": Gateway::NAME,
                "version": version,
                "runtimeHint": "npx",
                "transport": stdio,
                "environmentVariables": variables,
            },
            {
                // The image serves Streamable HTTP by default (`serve --http 0.0.0.0:8000`);
                // `serve` alone speaks stdio, as a registry client runs it.
                "registryType": "oci",
                "identifier": format!("{IMAGE}:{version}"),
                "version": version,
                "runtimeHint": "docker",
                "runtimeArguments": [{"type": "positional", "value": "-i"}, {"type": "positional", "value": "--rm"}],
                "packageArguments": [{"type": "positional", "value": "serve"}],
                "transport": stdio,
                "environmentVariables": variables,
            },
            {
                "registryType": "mcpb",
                "identifier": bundle_url,
                "version": version,
                "fileSha256": bundle_sha256,
                "transport": stdio,
            },
        ],
    })
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

/// Lay out, validate and pack a bundle of `binaries` into `out`; returns its path.
fn pack(out: &Path, binaries: &[PlatformBinary]) -> anyhow::Result<PathBuf> {
    let dir = out.join("bundle").join(Gateway::NAME);
    if dir.exists() {
        std::fs::remove_dir_all(&dir).with_context(|| format!("cannot clear {}", dir.display()))?;
    }
    for b in binaries {
        let to = dir.join(b.in_bundle());
        if let Some(parent) = to.parent() {
            std::fs::create_dir_all(parent)?;
        }
        std::fs::copy(&b.path, &to).with_context(|| format!("cannot copy {}", b.path.display()))?;
    }
    let manifest_path = dir.join("manifest.json");
    std::fs::write(
        &manifest_path,
        serde_json::to_string_pretty(&manifest(binaries)?)?,
    )?;
    npx(&["validate", manifest_arg(&manifest_path)?])?;
    let platforms = if binaries.len() > 1 {
        "all".to_owned()
    } else {
        binaries.iter().map(|b| b.dir).collect::<Vec<_>>().join("-")
    };
    let bundle = out.join(format!(
        "{}-{}-{platforms}.mcpb",
        Gateway::NAME,
        Gateway::VERSION
    ));
    npx(&[
        "pack",
        dir.to_str().context("path is not UTF-8")?,
        bundle.to_str().context("path is not UTF-8")?,
    ])?;
    Ok(bundle)
}

fn manifest_arg(path: &Path) -> anyhow::Result<&str> {
    path.to_str().context("path is not UTF-8")
}

/// The URL a release publishes `bundle` at.
fn release_url(bundle: &Path) -> String {
    let file = bundle
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    format!(
        "{REPOSITORY}/releases/download/v{}/{file}",
        Gateway::VERSION
    )
}

/// Write `server.json` for `bundle` into `out`, checked against the registry's schema.
fn write_server_json(out: &Path, bundle: &Path) -> anyhow::Result<PathBuf> {
    let server = server_json(&release_url(bundle), &sha256(bundle)?);
    let errors = schema_errors(&server)?;
    if !errors.is_empty() {
        bail!(
            "server.json does not follow the registry's schema: {}",
            errors.join("; ")
        );
    }
    let path = out.join("server.json");
    std::fs::write(&path, serde_json::to_string_pretty(&server)? + "\n")?;
    Ok(path)
}

/// What the registry's schema (the vendored copy) says is wrong with `server`.
pub(crate) fn schema_errors(server: &Value) -> anyhow::Result<Vec<String>> {
    let path = crate::workspace_root().join("packaging/registry/server.schema.json");
    let schema: Value = serde_json::from_str(
        &std::fs::read_to_string(&path)
            .with_context(|| format!("cannot read {}", path.display()))?,
    )?;
    let validator = jsonschema::options()
        .should_validate_formats(true)
        .build(&schema)
        .map_err(|e| anyhow::anyhow!("the registry's schema does not compile: {e}"))?;
    Ok(validator
        .iter_errors(server)
        .map(|e| format!("at {}: {e}", e.instance_path()))
        .collect())
}

/// The binaries laid out as the release workflow leaves them in `dir`
/// (`linux-x64/lifesciences-mcp`, `darwin/lifesciences-mcp`,
/// `win32-x64/lifesciences-mcp.exe`): those present.
fn binaries_in(dir: &Path) -> Vec<PlatformBinary> {
    PLATFORM_DIRS
        .iter()
        .map(|(platform, sub, file)| PlatformBinary {
            platform,
            dir: sub,
            path: dir.join(sub).join(file),
        })
        .filter(|b| b.path.is_file())
        .collect()
}

/// `cargo xtask bundle`: this machine's build, or with `binaries` the release workflow's
/// builds of every platform, packed as one bundle, launched as Claude Desktop launches
/// it on this platform, and written with its `server.json` to `target/bundle`. Returns
/// the bundle's path.
pub(crate) fn run(debug: bool, binaries: Option<&Path>) -> anyhow::Result<PathBuf> {
    let included = match binaries {
        Some(dir) => {
            let found = binaries_in(dir);
            if found.is_empty() {
                bail!(
                    "{} holds none of linux-x64/lifesciences-mcp, darwin/lifesciences-mcp, win32-x64/lifesciences-mcp.exe",
                    dir.display()
                );
            }
            found
        }
        None => {
            let entry = crate::servers::gateway();
            let built = crate::demo::build(std::slice::from_ref(&entry), !debug)?;
            let path = built.into_iter().next().context("no binary was built")?;
            let (platform, dir) = this_platform();
            vec![PlatformBinary {
                platform,
                dir,
                path,
            }]
        }
    };
    let out = crate::demo::target_dir()?.join("bundle");
    std::fs::create_dir_all(&out)?;
    let bundle = pack(&out, &included)?;
    match smoke(&out, &bundle)? {
        Some(smoke) => println!("smoke test:  {smoke}"),
        None => println!("smoke test:  skipped (no binary for this platform in the bundle)"),
    }
    let server = write_server_json(&out, &bundle)?;
    println!("bundle:      {}", bundle.display());
    println!("server.json: {}", server.display());
    Ok(bundle)
}

/// The bundle's `mcp_config` for this platform, as Claude Desktop resolves it for a user
/// who left every setting blank: `${__dirname}` is the unpacked bundle, a setting with a
/// default gets it, and one without stays the literal `${user_config.<key>}` (what
/// Claude Desktop passes for an unset optional setting).
fn launch_as_claude_desktop(manifest: &Value, dir: &Path) -> (PathBuf, Vec<(String, String)>) {
    let (platform, _) = this_platform();
    let config = &manifest["server"]["mcp_config"];
    let command = config["platform_overrides"][platform]["command"]
        .as_str()
        .or_else(|| config["command"].as_str())
        .unwrap_or_default()
        .replace("${__dirname}", &dir.to_string_lossy());
    let env = config["env"]
        .as_object()
        .into_iter()
        .flatten()
        .map(|(var, value)| {
            let value = value.as_str().unwrap_or_default().to_owned();
            let key = value
                .strip_prefix("${user_config.")
                .and_then(|rest| rest.strip_suffix('}'));
            let resolved = key
                .and_then(|k| manifest["user_config"][k]["default"].as_str())
                .map_or(value.clone(), str::to_owned);
            (var.clone(), resolved)
        })
        .collect();
    (PathBuf::from(command), env)
}

/// Unpack `bundle` into `out/bundle/unpacked` and launch it as Claude Desktop launches it
/// on this platform with every setting left blank; it must answer `initialize` and list
/// every tool. `None` when the bundle holds no binary for this platform.
fn smoke(out: &Path, bundle: &Path) -> anyhow::Result<Option<crate::dist::smoke::Smoke>> {
    let unpacked = out.join("bundle").join("unpacked");
    if unpacked.exists() {
        std::fs::remove_dir_all(&unpacked)?;
    }
    // An .mcpb is a zip archive; Python's zipfile unpacks it on every platform.
    let status = Command::new(if cfg!(windows) { "python" } else { "python3" })
        .args(["-m", "zipfile", "-e"])
        .arg(bundle)
        .arg(&unpacked)
        .status()
        .context("cannot run Python to unpack the bundle")?;
    if !status.success() {
        bail!("cannot unpack {} ({status})", bundle.display());
    }
    let manifest: Value =
        serde_json::from_str(&std::fs::read_to_string(unpacked.join("manifest.json"))?)?;
    let (command, env) = launch_as_claude_desktop(&manifest, &unpacked);
    if !command.is_file() {
        return Ok(None);
    }
    // Python's zip extraction keeps no Unix permissions; Claude Desktop sets them.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        std::fs::set_permissions(&command, std::fs::Permissions::from_mode(0o755))?;
    }
    let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    crate::dist::smoke::speaks_mcp(&command, &[], &env, &unpacked).map(Some)
}

/// The bundle and `server.json` for `cargo xtask dist`: this machine's build packed, then
/// smoke-tested as Claude Desktop launches it, and `server.json` written and checked
/// against the registry's schema.
pub(crate) fn build_and_smoke(
    out: &Path,
    binary: &Path,
) -> anyhow::Result<Vec<(PathBuf, Option<crate::dist::smoke::Smoke>)>> {
    let (platform, dir) = this_platform();
    let bundle = pack(
        out,
        &[PlatformBinary {
            platform,
            dir,
            path: binary.to_owned(),
        }],
    )?;
    let smoke = smoke(out, &bundle)?.context("the bundle holds no binary for this platform")?;
    let server = write_server_json(out, &bundle)?;
    Ok(vec![(bundle, Some(smoke)), (server, None)])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn binary(platform: &'static str, dir: &'static str, file: &str) -> PlatformBinary {
        PlatformBinary {
            platform,
            dir,
            path: PathBuf::from(format!("/build/{dir}/{file}")),
        }
    }

    #[test]
    fn the_bundle_shows_the_few_settings_people_change_each_with_its_default() {
        let m = manifest(&[binary("linux", "linux-x64", "lifesciences-mcp")]).unwrap();
        let settings = m["user_config"].as_object().unwrap();
        let env = m["server"]["mcp_config"]["env"].as_object().unwrap();
        assert_eq!(settings.len(), SETTINGS.len());
        assert_eq!(env.len(), SETTINGS.len());
        for s in SETTINGS {
            assert_eq!(env[s.var], format!("${{user_config.{}}}", s.key));
            assert_eq!(settings[s.key]["required"], false, "{}", s.key);
            assert_eq!(
                settings[s.key].get("default").and_then(Value::as_str),
                s.default,
                "{}",
                s.key
            );
        }
        // The defaults are the server's own: every database is served.
        let toolsets = settings["toolsets"]["default"].as_str().unwrap();
        let gateway = Gateway::from_env(&lifesciences_core::Env::from_pairs(&[(
            "LIFESCIENCES_TOOLSETS",
            toolsets,
        )]))
        .unwrap();
        assert_eq!(
            gateway.toolsets().count(),
            lifesciences_mcp::Toolset::ALL.len()
        );
        assert_eq!(
            settings["string_caller_identity"]["default"],
            "lifesciences-mcp"
        );
        assert_eq!(settings["ca_file"]["type"], "file");
        // Every variable a setting sets is one the gateway reads (or the proxy's, which
        // the HTTP stack reads, and the log filter).
        let upstreams = lifesciences_core::server::upstreams::<Gateway>().unwrap();
        let known: Vec<String> = lifesciences_core::config::variables(&upstreams)
            .into_iter()
            .map(|v| v.name)
            .chain(
                [
                    "LIFESCIENCES_TOOLSETS",
                    "HTTPS_PROXY",
                    "NO_PROXY",
                    "RUST_LOG",
                    "LIFESCIENCES_CA_FILE",
                ]
                .map(str::to_owned),
            )
            .collect();
        for s in SETTINGS {
            assert!(known.iter().any(|k| k == s.var), "{} is not read", s.var);
        }
        assert!(!m["privacy_policies"].as_array().unwrap().is_empty());
        assert_eq!(
            m["tools"].as_array().unwrap().len(),
            lifesciences_core::tools::<lifesciences_mcp::Gateway>().len()
        );
    }

    #[test]
    fn one_bundle_runs_each_platform_s_own_binary() {
        let m = manifest(&[
            binary("linux", "linux-x64", "lifesciences-mcp"),
            binary("darwin", "darwin", "lifesciences-mcp"),
            binary("win32", "win32-x64", "lifesciences-mcp.exe"),
        ])
        .unwrap();
        let config = &m["server"]["mcp_config"];
        assert_eq!(
            config["command"],
            "${__dirname}/server/linux-x64/lifesciences-mcp"
        );
        assert_eq!(
            config["platform_overrides"]["win32"]["command"],
            "${__dirname}/server/win32-x64/lifesciences-mcp.exe"
        );
        assert_eq!(
            config["platform_overrides"]["darwin"]["command"],
            "${__dirname}/server/darwin/lifesciences-mcp"
        );
        assert_eq!(
            m["compatibility"]["platforms"],
            json!(["linux", "darwin", "win32"])
        );
    }

    #[test]
    fn a_blank_setting_reaches_the_server_as_its_default() {
        let m = manifest(&[binary("linux", "linux-x64", "lifesciences-mcp")]).unwrap();
        let (command, env) = launch_as_claude_desktop(&m, Path::new("/x"));
        assert!(command.to_string_lossy().starts_with("/x/server/"));
        let env: std::collections::HashMap<String, String> = env.into_iter().collect();
        assert_eq!(env["STRING_CALLER_IDENTITY"], "lifesciences-mcp");
        // A blank proxy reaches the server empty: the system's proxy settings apply.
        assert_eq!(env["HTTPS_PROXY"], "");
    }

    #[test]
    fn server_json_follows_the_registry_s_schema_with_four_packages() {
        let sha = "0".repeat(64);
        let s = server_json("https://example.org/lifesciences-mcp-0.1.0-all.mcpb", &sha);
        assert_eq!(schema_errors(&s).unwrap(), Vec::<String>::new());
        let kinds: Vec<&str> = s["packages"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["registryType"].as_str().unwrap())
            .collect();
        assert_eq!(kinds, ["pypi", "npm", "oci", "mcpb"]);
        assert_eq!(s["websiteUrl"], REPOSITORY);
        assert!(s["title"].is_string());
        let pypi = &s["packages"][0]["environmentVariables"];
        let identity = pypi
            .as_array()
            .unwrap()
            .iter()
            .find(|v| v["name"] == "STRING_CALLER_IDENTITY")
            .unwrap();
        assert_eq!(identity["default"], "lifesciences-mcp");
        // The schema refuses what it should: a bad hash, a description over 100 characters.
        let mut bad = s.clone();
        bad["packages"][3]["fileSha256"] = json!("xyz");
        bad["description"] = json!("x".repeat(101));
        assert_eq!(schema_errors(&bad).unwrap().len(), 2);
    }
}
