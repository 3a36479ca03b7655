//! `cargo xtask dist`: every artifact a user installs, built for the machine it runs on
//! into `target/dist/`, each smoke-tested the way a user installs and starts it (it must
//! answer `initialize` and `tools/list`): the PyPI wheel (a fresh virtual environment,
//! `pip install`), the npm packages (`npm install` of the tarballs into an empty folder),
//! the archives and installers (cargo-dist, when installed: the archive unpacked and run),
//! the Claude Desktop bundle
//! (launched as Claude Desktop launches it, with every setting left blank), the container
//! image (when buildah is present), and `server.json` for the MCP registry, checked
//! against the registry's schema. Not in CI: it is a release build. The release workflow
//! (`.github/workflows/release.yml`) runs the same steps on each platform.

mod archives;
mod image;
mod npm;
mod pypi;
pub(crate) mod smoke;

use std::path::{Path, PathBuf};

use anyhow::Context as _;

/// What one artifact came to.
struct Line {
    artifact: &'static str,
    outcome: anyhow::Result<Vec<(PathBuf, Option<smoke::Smoke>)>>,
}

/// `target/dist`. It is not emptied: cargo-dist's build profile is named `dist`, so cargo
/// keeps that profile's build there too; each step replaces its own artifacts.
fn out_dir() -> anyhow::Result<PathBuf> {
    let out = crate::demo::target_dir()?.join("dist");
    std::fs::create_dir_all(&out).with_context(|| format!("cannot create {}", out.display()))?;
    Ok(out)
}

/// The commit this checkout is at, for `LIFESCIENCES_GIT_REVISION`: what `--version`,
/// `check` and `/health` of every artifact report (core's build script bakes it in).
pub(crate) fn revision() -> anyhow::Result<String> {
    let out = std::process::Command::new("git")
        .current_dir(crate::workspace_root())
        .args(["rev-parse", "HEAD"])
        .output()
        .context("cannot run git rev-parse HEAD")?;
    if !out.status.success() {
        anyhow::bail!(
            "git rev-parse HEAD failed: {}",
            String::from_utf8_lossy(&out.stderr).trim()
        );
    }
    Ok(String::from_utf8_lossy(&out.stdout).trim().to_owned())
}

/// The variable every release build (cargo, maturin, cargo-dist) sets to [`revision`].
pub(crate) const REVISION_VAR: &str = "LIFESCIENCES_GIT_REVISION";

/// The gateway built in release for this machine, with this checkout's revision.
fn gateway_binary() -> anyhow::Result<PathBuf> {
    eprintln!("Building lifesciences-mcp (release)…");
    let status =
        std::process::Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
            .current_dir(crate::workspace_root())
            .env(REVISION_VAR, revision()?)
            .args([
                "build",
                "--quiet",
                "--release",
                "--locked",
                "-p",
                "lifesciences-mcp",
            ])
            .status()
            .context("cannot run cargo build")?;
    if !status.success() {
        anyhow::bail!("cargo build --release failed ({status})");
    }
    Ok(crate::demo::target_dir()?
        .join("release")
        .join(format!("lifesciences-mcp{}", std::env::consts::EXE_SUFFIX)))
}

/// A file's size, for the report: in MB, or in kB below 100 kB (a launcher of 7 kB is not
/// "0.0 MB").
pub(crate) fn shown_size(path: &Path) -> String {
    std::fs::metadata(path).map_or_else(
        |_| "?".to_owned(),
        |m| match m.len() {
            n if n < 100_000 => format!("{:.1} kB", n as f64 / 1000.0),
            n => format!("{:.1} MB", n as f64 / 1_000_000.0),
        },
    )
}

pub(crate) fn run() -> anyhow::Result<()> {
    let out = out_dir()?;
    let binary = gateway_binary()?;
    let mut lines = vec![
        Line {
            artifact: "PyPI wheel",
            outcome: pypi::build_and_smoke(&out),
        },
        Line {
            artifact: "npm packages",
            outcome: npm::build_and_smoke(&out, &binary),
        },
        Line {
            artifact: "container image",
            outcome: image::build_and_smoke(&out, &binary),
        },
    ];
    lines.push(Line {
        artifact: "archives and installers",
        outcome: archives::build_and_smoke(&out),
    });
    lines.push(Line {
        artifact: "Claude Desktop bundle",
        outcome: crate::bundle::build_and_smoke(&out, &binary),
    });
    println!("\ncargo xtask dist: {}", out.display());
    let mut failed = 0;
    for line in &lines {
        match &line.outcome {
            Ok(files) if files.is_empty() => println!("- {}: skipped", line.artifact),
            Ok(files) => {
                for (file, smoke) in files {
                    let name = file.file_name().map(|n| n.to_string_lossy().into_owned());
                    println!(
                        "- {}: {} ({}){}",
                        line.artifact,
                        name.unwrap_or_default(),
                        shown_size(file),
                        smoke.as_ref().map(|s| format!(": {s}")).unwrap_or_default()
                    );
                }
            }
            Err(e) => {
                failed += 1;
                println!("- {}: FAILED: {e:#}", line.artifact);
            }
        }
    }
    if failed > 0 {
        anyhow::bail!("{failed} artifact(s) failed");
    }
    Ok(())
}
