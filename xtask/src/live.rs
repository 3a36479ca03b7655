//! `cargo xtask live`: the opt-in checks against the real upstream APIs.
//!
//! Live tests are ordinary tests named `live_*`, marked `#[ignore]`, that also return
//! early unless `LIFESCIENCES_LIVE=1`; this command sets it and runs only them. They never
//! run in CI.

use std::process::Command;

use anyhow::{Context as _, bail};

pub fn run(extra: &[String]) -> anyhow::Result<()> {
    let mut cargo = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()));
    cargo.current_dir(crate::workspace_root()).arg("test");
    if extra
        .iter()
        .any(|a| a == "-p" || a.starts_with("--package"))
    {
        cargo.args(extra);
    } else {
        cargo.arg("--workspace").args(extra);
    }
    cargo
        .args(["--", "--ignored", "live_", "--test-threads=1"])
        .env("LIFESCIENCES_LIVE", "1");
    println!("Running the live tests against the real APIs (network required)…");
    let status = cargo.status().context("cannot run cargo test")?;
    if !status.success() {
        bail!("live tests failed ({status})");
    }
    Ok(())
}
