//! The release archive, installers and Homebrew formula cargo-dist builds for this
//! machine (`dist build`, configured by `dist-workspace.toml`), when cargo-dist is
//! installed (`cargo install cargo-dist --locked`, or `DIST=<path to dist>`); skipped
//! otherwise. The archive is unpacked and its binary smoke-tested. The installers fetch
//! the archive from the GitHub release they are published with, so they are built but
//! cannot be run before a release.

use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{Context as _, bail};

use super::smoke::{Smoke, speaks_mcp};

/// This machine's target triple, as cargo-dist names its archive.
fn host_triple() -> anyhow::Result<String> {
    let out = Command::new("rustc")
        .arg("-vV")
        .output()
        .context("cannot run rustc -vV")?;
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .find_map(|l| l.strip_prefix("host: ").map(str::to_owned))
        .context("rustc -vV names no host")
}

/// cargo-dist's `dist`, if installed.
fn dist_program() -> Option<PathBuf> {
    if let Some(path) = std::env::var_os("DIST") {
        return Some(PathBuf::from(path));
    }
    let ok = Command::new("dist")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    ok.then(|| PathBuf::from("dist"))
}

pub(super) fn build_and_smoke(out: &Path) -> anyhow::Result<Vec<(PathBuf, Option<Smoke>)>> {
    let Some(dist) = dist_program() else {
        eprintln!(
            "cargo-dist is not installed (cargo install cargo-dist --locked): archives skipped"
        );
        return Ok(Vec::new());
    };
    let triple = host_triple()?;
    eprintln!("Building the release archive and installers with cargo-dist ({triple})…");
    let status = Command::new(&dist)
        .current_dir(crate::workspace_root())
        .env(super::REVISION_VAR, super::revision()?)
        .args(["build", "--artifacts=all", "--target", &triple])
        .status()
        .with_context(|| format!("cannot run {}", dist.display()))?;
    if !status.success() {
        bail!("dist build failed ({status})");
    }
    let distrib = crate::demo::target_dir()?.join("distrib");
    let into = out.join("archives");
    if into.exists() {
        std::fs::remove_dir_all(&into)?;
    }
    std::fs::create_dir_all(&into)?;
    let mut files = Vec::new();
    for entry in
        std::fs::read_dir(&distrib).with_context(|| format!("cannot read {}", distrib.display()))?
    {
        let path = entry?.path();
        let name = path.file_name().map(|n| n.to_string_lossy().into_owned());
        let wanted = name.as_deref().is_some_and(|n| {
            n.ends_with(".tar.xz")
                || n.ends_with(".zip")
                || n.ends_with(".sh")
                || n.ends_with(".ps1")
                || n.ends_with(".rb")
        });
        if wanted && path.is_file() {
            let to = into.join(path.file_name().unwrap_or_default());
            std::fs::copy(&path, &to)?;
            files.push(to);
        }
    }
    let archive = files
        .iter()
        .find(|f| f.to_string_lossy().ends_with(&format!("{triple}.tar.xz")))
        .with_context(|| format!("dist built no {triple}.tar.xz archive"))?
        .clone();
    let unpacked = into.join("unpacked");
    std::fs::create_dir_all(&unpacked)?;
    let status = Command::new("tar")
        .arg("-xJf")
        .arg(&archive)
        .arg("-C")
        .arg(&unpacked)
        .status()
        .context("cannot run tar")?;
    if !status.success() {
        bail!("cannot unpack {}", archive.display());
    }
    let binary = unpacked
        .join(format!("lifesciences-mcp-{triple}"))
        .join("lifesciences-mcp");
    let smoke = speaks_mcp(&binary, &[], &[], &unpacked)?;
    Ok(files
        .into_iter()
        .map(|f| {
            let s = (f == archive).then(|| smoke.clone());
            (f, s)
        })
        .collect())
}
