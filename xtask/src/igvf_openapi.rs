//! `cargo xtask igvf-openapi --from <path-or-url> [--check]`: refresh the IGVF Catalog
//! OpenAPI spec that igvf-mcp embeds (`crates/igvf-mcp/openapi/igvf-catalog.openapi.json`).
//!
//! The full spec (a file, or an http(s) URL such as
//! `https://api.catalogkg.igvf.org/openapi`, fetched only when given) is trimmed by
//! `igvf_mcp::spec::trim` to the paths and parameters the server reads. `--check` only
//! compares and fails when the embedded file differs. Never run in CI.

use std::path::PathBuf;

use anyhow::{Context as _, bail};
use lifesciences_core::{HttpClient, SourceConfig, Upstream};

/// The embedded file, relative to the workspace root.
const TARGET: &str = "crates/igvf-mcp/openapi/igvf-catalog.openapi.json";

pub(crate) fn run(from: &str, check: bool) -> anyhow::Result<()> {
    let raw = read(from)?;
    let full: serde_json::Value =
        serde_json::from_slice(&raw).with_context(|| format!("{from} is not JSON"))?;
    let trimmed = igvf_mcp::spec::trim(&full).map_err(anyhow::Error::msg)?;
    let mut text = serde_json::to_string_pretty(&trimmed)?;
    text.push('\n');
    let target = crate::workspace_root().join(TARGET);
    if check {
        let current = std::fs::read_to_string(&target)
            .with_context(|| format!("cannot read {}", target.display()))?;
        if current != text {
            bail!(
                "{} differs from the trimmed form of {from}; run without --check",
                target.display()
            );
        }
        println!("{} is up to date with {from}.", target.display());
        return Ok(());
    }
    std::fs::write(&target, text).with_context(|| format!("cannot write {}", target.display()))?;
    println!(
        "Wrote {} ({} paths, spec version {}).",
        target.display(),
        trimmed["paths"].as_object().map_or(0, |p| p.len()),
        trimmed["info"]["version"].as_str().unwrap_or("?")
    );
    Ok(())
}

/// Read a local file, or fetch a URL (the only network use, and only when asked).
fn read(from: &str) -> anyhow::Result<Vec<u8>> {
    if !(from.starts_with("http://") || from.starts_with("https://")) {
        let path = PathBuf::from(from);
        return std::fs::read(&path).with_context(|| format!("cannot read {}", path.display()));
    }
    let (base, last) = from
        .rsplit_once('/')
        .context("the URL has no path to fetch")?;
    // A description made for this one fetch: the spec's own host, politely.
    let upstream: &'static Upstream = Box::leak(Box::new(Upstream::new(
        "IGVF OpenAPI",
        "IGVF_OPENAPI",
        Box::leak(base.to_owned().into_boxed_str()),
    )));
    let http = HttpClient::new(SourceConfig::new(upstream)?);
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    let spec: serde_json::Value = runtime
        .block_on(http.get_json(last, &[]))
        .map_err(|e| anyhow::anyhow!("{}", e.to_envelope().error.message))?;
    Ok(serde_json::to_vec(&spec)?)
}
