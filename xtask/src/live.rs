//! `cargo xtask live`: the opt-in checks against the real upstream APIs.
//!
//! Live tests are ordinary tests named `live_*`, marked `#[ignore]`, that also return
//! early unless `LIFESCIENCES_LIVE=1`; this command sets it and runs only them. CI's
//! checks of a change never run them; `.github/workflows/live.yml` runs this command every
//! night and opens (or updates) one issue when it fails.

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

#[cfg(test)]
mod tests {
    use crate::servers;

    /// The `live_*` tests of a crate: its `tests/it/live.rs`.
    fn live_tests_of(krate: &str) -> String {
        let path = crate::workspace_root().join(format!("crates/{krate}/tests/it/live.rs"));
        std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("{}: {e}: every server has live tests", path.display()))
    }

    /// Every tool of every server, and the gateway's own, is called by at least one
    /// live test of its crate (by name, as `"tool_name"`), so the nightly run reaches
    /// every tool's upstream; a new tool without one fails here, in CI.
    #[test]
    fn every_tool_has_a_live_test_in_its_crate() {
        let mut missing = Vec::new();
        let mut entries = servers::all();
        entries.push(servers::gateway());
        let mut theirs = std::collections::BTreeSet::new();
        for entry in &entries {
            let live = live_tests_of(entry.name);
            assert!(
                live.contains("#[ignore"),
                "{}: live tests are ignored",
                entry.name
            );
            for tool in (entry.tools)() {
                let name = tool.name.to_string();
                // The gateway serves its servers' tools: those are checked in theirs.
                if entry.name == servers::GATEWAY && theirs.contains(&name) {
                    continue;
                }
                theirs.insert(name.clone());
                if !live.contains(&format!("\"{name}\"")) {
                    missing.push(format!("{}: {name}", entry.name));
                }
            }
        }
        assert!(missing.is_empty(), "tools with no live test: {missing:#?}");
    }

    /// The nightly workflow runs this command on a schedule, and a failed night opens or
    /// updates one issue with a stable title; nothing in it closes an issue.
    #[test]
    fn the_nightly_workflow_runs_the_live_tests_and_reports_to_one_issue() {
        let path = crate::workspace_root().join(".github/workflows/live.yml");
        let text = std::fs::read_to_string(&path).unwrap();
        let workflow: serde_json::Value = serde_yaml_ng::from_str(&text).unwrap();
        assert!(
            workflow["on"]["schedule"][0]["cron"].is_string(),
            "{workflow:#}"
        );
        let title = workflow["env"]["ISSUE_TITLE"].as_str().unwrap();
        assert!(!title.is_empty() && !title.contains('$'), "a stable title");
        let steps = workflow["jobs"]["live"]["steps"].as_array().unwrap();
        let run = |step: &serde_json::Value| step["run"].as_str().unwrap_or_default().to_owned();
        let live = steps
            .iter()
            .find(|s| run(s).contains("cargo xtask live"))
            .expect("a step runs cargo xtask live");
        let id = live["id"].as_str().unwrap();
        let report = steps
            .iter()
            .find(|s| run(s).contains("gh issue create"))
            .expect("a step opens the issue");
        assert_eq!(
            report["if"],
            format!("failure() && steps.{id}.outcome == 'failure'")
        );
        let report = run(report);
        assert!(report.contains("$ISSUE_TITLE") && report.contains("gh issue comment"));
        assert!(
            report.contains("--state open"),
            "an open issue is updated, not another opened"
        );
        assert!(!text.contains("issue close"), "nothing closes an issue");
    }
}
