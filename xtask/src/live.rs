//! `cargo xtask live`: the opt-in checks against the real upstream APIs.
//!
//! Live tests are ordinary tests named `live_*`, marked `#[ignore]`, that also return
//! early unless `LIFESCIENCES_LIVE=1`; this command sets it and runs only them. They never
//! run in CI.

use std::process::Command;

use anyhow::{Context as _, bail};

/// `cargo xtask live -p string-mcp -- --nocapture`: cargo arguments before `--`,
/// test-harness arguments after it.
pub(crate) fn run(extra: &[String]) -> anyhow::Result<()> {
    let (cargo_args, harness_args) = match extra.iter().position(|a| a == "--") {
        Some(i) => (&extra[..i], &extra[i + 1..]),
        None => (extra, &[][..]),
    };
    let mut cargo = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()));
    cargo.current_dir(crate::workspace_root()).arg("test");
    let scoped = cargo_args
        .iter()
        .any(|a| a == "-p" || a.starts_with("--package"));
    if !scoped {
        cargo.arg("--workspace");
    }
    cargo
        .args(cargo_args)
        .args(["--", "--ignored", "live_", "--test-threads=1"])
        .args(harness_args)
        .env("LIFESCIENCES_LIVE", "1");
    println!("Running the live tests against the real APIs (network required)…");
    let status = cargo.status().context("cannot run cargo test")?;
    if !status.success() {
        bail!("live tests failed ({status})");
    }
    Ok(())
}
