//! The npm packages, as esbuild ships its binary: `lifesciences-mcp`, a launcher in plain
//! Node with one optional dependency per platform, and `@lifesciences-mcp/<os>-<cpu>`,
//! which holds the gateway binary and says with `os` and `cpu` where npm installs it.
//! Nothing runs or downloads at install time. `packaging/npm/pack.mjs` packs them (the
//! release workflow runs it too); here the launcher and this machine's platform package,
//! into `target/dist/npm/`.
//!
//! Checked as a user meets them: the launcher's own tests (`node --test`), then both
//! tarballs `npm install --offline`ed into an empty folder, where the launcher must pass
//! the binary's exit codes through, hand SIGTERM on, and, started as
//! `node_modules/.bin/lifesciences-mcp` and as `npx --no-install lifesciences-mcp`, answer
//! `initialize` and list every tool.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use anyhow::{Context as _, bail};
use lifesciences_core::McpServer as _;
use lifesciences_mcp::Gateway;

use super::pypi::{MCP_NAME, Scratch, run};
use super::smoke::{self, Smoke};

/// npm's name for this machine's platform (`process.platform`-`process.arch`).
fn npm_target() -> anyhow::Result<&'static str> {
    Ok(match (std::env::consts::OS, std::env::consts::ARCH) {
        ("linux", "x86_64") => "linux-x64",
        ("linux", "aarch64") => "linux-arm64",
        ("macos", "x86_64") => "darwin-x64",
        ("macos", "aarch64") => "darwin-arm64",
        ("windows", "x86_64") => "win32-x64",
        (os, arch) => bail!("no npm platform package is made for {os} {arch}"),
    })
}

/// npm's commands are `.cmd` scripts on Windows.
fn npm_program(name: &str) -> String {
    if cfg!(windows) {
        format!("{name}.cmd")
    } else {
        name.to_owned()
    }
}

/// Settings for every npm command here: no update check, no network.
const NPM_ENV: [(&str, &str); 2] = [
    ("npm_config_update_notifier", "false"),
    ("npm_config_offline", "true"),
];

fn packaging() -> PathBuf {
    crate::workspace_root().join("packaging").join("npm")
}

/// `node packaging/npm/pack.mjs <args…>`: the tarball it wrote.
fn pack(args: &[&str], out: &Path) -> anyhow::Result<PathBuf> {
    let printed = run(
        Command::new("node")
            .arg(packaging().join("pack.mjs"))
            .args(args)
            .args(["--version", Gateway::VERSION, "--out"])
            .arg(out),
        &format!("node packaging/npm/pack.mjs {}", args.join(" ")),
    )?;
    let tarball = PathBuf::from(printed.trim());
    if !tarball.is_file() {
        bail!(
            "pack.mjs {} printed {:?}, which is not a file",
            args.join(" "),
            printed.trim()
        );
    }
    Ok(tarball)
}

/// The launcher's package.json names the server as the MCP registry knows it.
fn check_launcher_metadata() -> anyhow::Result<()> {
    let file = packaging().join("lifesciences-mcp").join("package.json");
    let text = std::fs::read_to_string(&file)
        .with_context(|| format!("cannot read {}", file.display()))?;
    let package: serde_json::Value =
        serde_json::from_str(&text).with_context(|| format!("{} is not JSON", file.display()))?;
    if package["mcpName"] != MCP_NAME {
        bail!(
            "{} says mcpName {}, not {MCP_NAME:?}: the MCP registry would refuse the npm package",
            file.display(),
            package["mcpName"]
        );
    }
    Ok(())
}

/// `lifesciences-mcp <args>` through the installed launcher: its exit code and stdout.
fn launch(bin: &Path, dir: &Path, args: &[&str]) -> anyhow::Result<(Option<i32>, String)> {
    let output = Command::new(bin)
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .output()
        .with_context(|| format!("cannot run {}", bin.display()))?;
    Ok((
        output.status.code(),
        String::from_utf8_lossy(&output.stdout).into_owned(),
    ))
}

/// The binary's exit codes come through the launcher.
fn check_exit_codes(bin: &Path, dir: &Path) -> anyhow::Result<()> {
    let (code, stdout) = launch(bin, dir, &["--version"])?;
    if code != Some(0) || !stdout.contains(Gateway::VERSION) {
        bail!(
            "the launcher's --version exited {code:?} printing {:?}; expected 0 and version {}",
            stdout.trim(),
            Gateway::VERSION
        );
    }
    let (code, _) = launch(bin, dir, &["--no-such-flag"])?;
    if code != Some(2) {
        bail!("the launcher given an unknown flag exited {code:?}; the binary's usage error is 2");
    }
    Ok(())
}

/// SIGTERM to the launcher ends the binary (which holds the stdout pipe open until it
/// ends), and then the launcher.
#[cfg(unix)]
fn check_sigterm(bin: &Path, dir: &Path) -> anyhow::Result<()> {
    use std::io::Read as _;
    use std::os::unix::process::ExitStatusExt as _;
    use std::time::{Duration, Instant};

    let mut launcher = Command::new(bin)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .with_context(|| format!("cannot start {}", bin.display()))?;
    std::thread::sleep(Duration::from_millis(500));
    run(
        Command::new("kill").args(["-TERM", &launcher.id().to_string()]),
        "kill -TERM <launcher>",
    )?;
    let started = Instant::now();
    let status = loop {
        if let Some(status) = launcher.try_wait()? {
            break status;
        }
        if started.elapsed() > Duration::from_secs(10) {
            let _ = launcher.kill();
            bail!("the launcher did not end within 10 s of SIGTERM");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    if !(status.success() || status.signal() == Some(15)) {
        bail!("the launcher ended with {status} after SIGTERM, not 0 or by SIGTERM");
    }
    // The binary is gone when nothing holds the pipe: read to its end, with a deadline.
    let mut stdout = launcher.stdout.take().context("stdout was piped")?;
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut sink = Vec::new();
        let _ = tx.send(stdout.read_to_end(&mut sink).is_ok());
    });
    match rx.recv_timeout(Duration::from_secs(10)) {
        Ok(_) => Ok(()),
        Err(_) => bail!(
            "the binary outlived its launcher by 10 s after SIGTERM: the launcher did not forward the signal"
        ),
    }
}

pub(super) fn build_and_smoke(
    out: &Path,
    binary: &Path,
) -> anyhow::Result<Vec<(PathBuf, Option<Smoke>)>> {
    let target = npm_target()?;
    run(
        Command::new("node")
            .arg("--test")
            .arg(packaging().join("test")),
        "node --test packaging/npm/test (the launcher's own tests)",
    )?;
    check_launcher_metadata()?;
    let out = out.join("npm");
    if out.exists() {
        std::fs::remove_dir_all(&out).with_context(|| format!("cannot clear {}", out.display()))?;
    }
    std::fs::create_dir_all(&out)?;
    let launcher = pack(&["launcher"], &out)?;
    let binary_arg = binary.to_str().context("binary path is not UTF-8")?;
    let platform = pack(&["platform", target, binary_arg], &out)?;

    let scratch = Scratch::new("npm")?;
    let dir = &scratch.0;
    // The other platforms' packages are optional dependencies npm cannot find offline:
    // it leaves them out, as it leaves them out online on a machine they are not for.
    run(
        Command::new(npm_program("npm"))
            .args(["install", "--offline", "--no-audit", "--no-fund"])
            .arg(&platform)
            .arg(&launcher)
            .envs(NPM_ENV)
            .current_dir(dir),
        "npm install --offline <platform tarball> <launcher tarball>",
    )?;
    let installed: Vec<String> =
        std::fs::read_dir(dir.join("node_modules").join("@lifesciences-mcp"))?
            .filter_map(|e| e.ok().map(|e| e.file_name().to_string_lossy().into_owned()))
            .collect();
    if installed != [target] {
        bail!("npm installed the platform packages {installed:?}; expected only {target}");
    }
    let bin = dir
        .join("node_modules")
        .join(".bin")
        .join(npm_program("lifesciences-mcp"));
    check_exit_codes(&bin, dir)?;
    #[cfg(unix)]
    check_sigterm(&bin, dir)?;
    let direct = smoke::speaks_mcp(&bin, &[], &[], dir)?;
    let npx = smoke::speaks_mcp(
        Path::new(&npm_program("npx")),
        &["--no-install", "lifesciences-mcp"],
        &NPM_ENV,
        dir,
    )?;
    Ok(vec![
        (
            launcher.clone(),
            Some(Smoke {
                server: format!("{} (node_modules/.bin/lifesciences-mcp)", direct.server),
                ..direct
            }),
        ),
        (
            launcher,
            Some(Smoke {
                server: format!("{} (npx --no-install lifesciences-mcp)", npx.server),
                ..npx
            }),
        ),
        (platform, None),
    ])
}
