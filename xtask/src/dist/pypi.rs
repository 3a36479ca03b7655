//! The PyPI wheel: the gateway's binary alone in a wheel (maturin's `bin` bindings, from
//! the repository's `pyproject.toml`), so that `uvx lifesciences-mcp` and
//! `pip install lifesciences-mcp` need no Rust toolchain. On Linux it is built with zig
//! as the linker against glibc 2.17 (manylinux2014), so it runs on old distributions too;
//! elsewhere for this machine. The tools come from PyPI, pinned, into
//! `target/dist-tools/venv`.
//!
//! Checked as a user meets it: its description carries the MCP registry's ownership
//! marker, it fits the size budget, and installed with `pip install --no-index` into a
//! fresh virtual environment, and run with `uvx --offline --from <wheel>`, it answers
//! `initialize` and lists every tool. In that environment `import lifesciences_mcp`
//! drives the installed binary against the notebook's recorded answers
//! (`packaging/pypi/smoke_module.py`), without pandas, then again once
//! `pip install "<wheel>[pandas]"` has fetched pandas from PyPI (tables, the notebook).

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

use anyhow::{Context as _, bail};
use lifesciences_core::McpServer as _;
use lifesciences_mcp::Gateway;

use super::smoke::{self, Smoke};

/// The build tools, pinned: maturin, zig (maturin links with it for manylinux2014) and uv
/// (for the `uvx` check).
const TOOLS: [&str; 3] = ["maturin==1.16.0", "ziglang==0.17.1", "uv==0.13.9"];

/// The server's name in the MCP registry. The registry accepts a PyPI package as the
/// server's when its description contains `mcp-name: <this name>`, and an npm package
/// when its package.json says `"mcpName": "<this name>"`
/// (<https://modelcontextprotocol.io/registry/package-types>).
pub(super) const MCP_NAME: &str = "io.github.lifesciences-mcp/lifesciences-mcp";

/// The largest wheel we ship: what `uvx` downloads before the first start.
const WHEEL_BUDGET_BYTES: u64 = 8_000_000;

/// A scratch folder under the system's temporary folder, removed when dropped.
pub(super) struct Scratch(pub(super) PathBuf);

impl Scratch {
    pub(super) fn new(what: &str) -> anyhow::Result<Self> {
        let dir = std::env::temp_dir().join(format!(
            "lifesciences-mcp-{what}-smoke-{}",
            std::process::id()
        ));
        if dir.exists() {
            std::fs::remove_dir_all(&dir)
                .with_context(|| format!("cannot clear {}", dir.display()))?;
        }
        std::fs::create_dir_all(&dir)
            .with_context(|| format!("cannot create {}", dir.display()))?;
        Ok(Self(dir))
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Run `command`; its stdout, or an error with its stderr.
pub(super) fn run(command: &mut Command, what: &str) -> anyhow::Result<String> {
    let output = command
        .stdin(Stdio::null())
        .output()
        .with_context(|| format!("cannot run {what}"))?;
    if !output.status.success() {
        bail!(
            "{what} failed ({}): {}",
            output.status,
            String::from_utf8_lossy(&output.stderr).trim()
        );
    }
    Ok(String::from_utf8_lossy(&output.stdout).into_owned())
}

/// The system's Python, as a user would call it.
fn python() -> &'static str {
    if cfg!(windows) { "python" } else { "python3" }
}

/// A program installed in a virtual environment.
fn venv_program(venv: &Path, name: &str) -> PathBuf {
    let bin = if cfg!(windows) { "Scripts" } else { "bin" };
    venv.join(bin)
        .join(format!("{name}{}", std::env::consts::EXE_SUFFIX))
}

/// `target/dist-tools/venv` with the pinned tools (pip asks PyPI only when one is missing
/// or at another version).
fn tools() -> anyhow::Result<PathBuf> {
    let venv = crate::demo::target_dir()?.join("dist-tools").join("venv");
    if !venv_program(&venv, "python").exists() {
        run(
            Command::new(python()).arg("-m").arg("venv").arg(&venv),
            "python3 -m venv (the wheel is built with tools from PyPI)",
        )?;
    }
    run(
        pip_install(&venv).args(TOOLS),
        &format!("pip install {}", TOOLS.join(" ")),
    )?;
    Ok(venv)
}

/// `pip install`, quietly, in the virtual environment `venv`; the caller adds what.
fn pip_install(venv: &Path) -> Command {
    let mut pip = Command::new(venv_program(venv, "python"));
    pip.args([
        "-m",
        "pip",
        "install",
        "--disable-pip-version-check",
        "--quiet",
    ]);
    pip
}

/// The wheel's name starts with the distribution name, `-` read as `_`.
fn is_our_wheel(name: &str) -> bool {
    name.starts_with("lifesciences_mcp-") && name.ends_with(".whl")
}

/// Build the wheel into `out` with maturin, from the repository's `pyproject.toml`.
fn build(venv: &Path, out: &Path) -> anyhow::Result<PathBuf> {
    for entry in std::fs::read_dir(out)? {
        let path = entry?.path();
        if path
            .file_name()
            .is_some_and(|n| is_our_wheel(&n.to_string_lossy()))
        {
            std::fs::remove_file(&path)?;
        }
    }
    let mut maturin = Command::new(venv_program(venv, "maturin"));
    maturin
        .current_dir(crate::workspace_root())
        // The wheel's binary reports this checkout's revision (--version, check, /health).
        .env(super::REVISION_VAR, super::revision()?)
        .args(["build", "--release", "--out"])
        .arg(out);
    if cfg!(target_os = "linux") {
        // zig links against glibc 2.17's symbols, whatever this machine has.
        maturin.args(["--zig", "--compatibility", "manylinux2014"]);
    }
    // zig is found as `python -m ziglang`: the tools' Python first on PATH.
    let path = std::env::var_os("PATH").unwrap_or_default();
    let mut paths = vec![
        venv_program(venv, "python")
            .parent()
            .map(Path::to_path_buf)
            .unwrap_or_default(),
    ];
    paths.extend(std::env::split_paths(&path));
    maturin.env("PATH", std::env::join_paths(paths)?);
    eprintln!("Building the PyPI wheel (maturin, release)…");
    let status = maturin.status().context("cannot run maturin")?;
    if !status.success() {
        bail!("maturin build failed ({status})");
    }
    let mut wheels = Vec::new();
    for entry in std::fs::read_dir(out)? {
        let path = entry?.path();
        if path
            .file_name()
            .is_some_and(|n| is_our_wheel(&n.to_string_lossy()))
        {
            wheels.push(path);
        }
    }
    match <[PathBuf; 1]>::try_from(wheels) {
        Ok([wheel]) => Ok(wheel),
        Err(found) => bail!(
            "maturin should have built one wheel in {}, found {}",
            out.display(),
            found.len()
        ),
    }
}

/// Whether `text` holds `mcp-name: <MCP_NAME>` as the registry reads it: the name must
/// end there, not run on into a longer one.
fn declares_mcp_name(text: &str) -> bool {
    let marker = format!("mcp-name: {MCP_NAME}");
    text.match_indices(&marker).any(|(at, _)| {
        text[at + marker.len()..]
            .chars()
            .next()
            .is_none_or(|c| !(c.is_ascii_alphanumeric() || "._-/".contains(c)))
    })
}

/// The wheel's METADATA: the version, and the README PyPI will show, with the registry's
/// marker.
fn check_metadata(venv: &Path, wheel: &Path) -> anyhow::Result<()> {
    const READ_METADATA: &str = "import sys, zipfile\n\
        z = zipfile.ZipFile(sys.argv[1])\n\
        name = next(n for n in z.namelist() if n.endswith('.dist-info/METADATA'))\n\
        sys.stdout.write(z.read(name).decode('utf-8'))\n";
    let metadata = run(
        Command::new(venv_program(venv, "python"))
            .args(["-c", READ_METADATA])
            .arg(wheel),
        "reading the wheel's METADATA",
    )?;
    let version = format!("Version: {}\n", Gateway::VERSION);
    if !metadata.contains(&version) {
        bail!("the wheel's METADATA has no `{}`", version.trim());
    }
    if !declares_mcp_name(&metadata) {
        bail!(
            "the wheel's description lacks `mcp-name: {MCP_NAME}`: the MCP registry would refuse the PyPI package"
        );
    }
    let size = std::fs::metadata(wheel)?.len();
    if size > WHEEL_BUDGET_BYTES {
        bail!(
            "the wheel is {size} bytes, over its budget of {WHEEL_BUDGET_BYTES}: uvx downloads it before the first start"
        );
    }
    Ok(())
}

/// A fresh virtual environment, `pip install --no-index <wheel>`, the installed command.
fn smoke_pip(wheel: &Path) -> anyhow::Result<Smoke> {
    let scratch = Scratch::new("wheel")?;
    let venv = scratch.0.join("venv");
    run(
        Command::new(python()).arg("-m").arg("venv").arg(&venv),
        "python3 -m venv",
    )?;
    run(
        pip_install(&venv).arg("--no-index").arg(wheel),
        "pip install --no-index <wheel>",
    )?;
    let installed = venv_program(&venv, "lifesciences-mcp");
    let seen = smoke::speaks_mcp(&installed, &[], &[], &scratch.0)?;
    let bare = smoke_module(&venv, &scratch.0)?;
    let wheel_arg = wheel.to_str().context("wheel path is not UTF-8")?;
    run(
        pip_install(&venv).arg(format!("{wheel_arg}[pandas]")),
        "pip install <wheel>[pandas] (pandas from PyPI)",
    )?;
    let with_pandas = smoke_module(&venv, &scratch.0)?;
    Ok(Smoke {
        server: format!(
            "{} (pip install, then the installed command; {bare}; with the [pandas] extra: {with_pandas})",
            seen.server
        ),
        ..seen
    })
}

/// `packaging/pypi/smoke_module.py` run with the environment's Python, as a notebook runs
/// it: `import lifesciences_mcp` starts the installed binary against the notebook's
/// recorded answers. Its line of what it saw.
fn smoke_module(venv: &Path, dir: &Path) -> anyhow::Result<String> {
    let script = crate::workspace_root().join("packaging/pypi/smoke_module.py");
    let mut python = Command::new(venv_program(venv, "python"));
    python
        .arg(script)
        .current_dir(dir)
        // Its line holds → and ×, whatever the console's code page.
        .env("PYTHONIOENCODING", "utf-8")
        .env("RUST_LOG", "error");
    for (key, _) in std::env::vars() {
        if key.starts_with("LIFESCIENCES_") || key.ends_with("_API_URL") {
            python.env_remove(&key);
        }
    }
    let seen = run(
        &mut python,
        "packaging/pypi/smoke_module.py (import lifesciences_mcp)",
    )?;
    Ok(seen.trim().to_owned())
}

/// `uvx --offline --from <wheel> lifesciences-mcp` with a cache of its own: once cold
/// (`--version`, timed), then as an MCP client starts it, warm.
fn smoke_uvx(tools: &Path, wheel: &Path) -> anyhow::Result<Smoke> {
    let scratch = Scratch::new("uvx")?;
    let cache = scratch.0.join("uv-cache");
    let cache = cache.to_str().context("temporary path is not UTF-8")?;
    let wheel_arg = wheel.to_str().context("wheel path is not UTF-8")?;
    let env = [
        ("UV_CACHE_DIR", cache),
        ("UV_PYTHON_DOWNLOADS", "never"),
        ("UV_NO_CONFIG", "1"),
    ];
    let uvx = venv_program(tools, "uvx");
    let args = ["--offline", "--from", wheel_arg, "lifesciences-mcp"];
    let started = Instant::now();
    let version = run(
        Command::new(&uvx)
            .args(args)
            .arg("--version")
            .envs(env)
            .current_dir(&scratch.0),
        "uvx --offline --from <wheel> lifesciences-mcp --version",
    )?;
    let cold = started.elapsed();
    if !version.contains(Gateway::VERSION) {
        bail!(
            "uvx … lifesciences-mcp --version printed {:?}, not version {}",
            version.trim(),
            Gateway::VERSION
        );
    }
    eprintln!(
        "PyPI wheel: uvx --offline --from <wheel> lifesciences-mcp --version, cold cache: {} ms",
        cold.as_millis()
    );
    let seen = smoke::speaks_mcp(&uvx, &args, &env, &scratch.0)?;
    Ok(Smoke {
        server: format!("{} (uvx --offline --from <wheel>, warm cache)", seen.server),
        ..seen
    })
}

pub(super) fn build_and_smoke(out: &Path) -> anyhow::Result<Vec<(PathBuf, Option<Smoke>)>> {
    let tools = tools()?;
    let wheel = build(&tools, out)?;
    check_metadata(&tools, &wheel)?;
    let pip = smoke_pip(&wheel)?;
    let uvx = smoke_uvx(&tools, &wheel)?;
    Ok(vec![(wheel.clone(), Some(pip)), (wheel, Some(uvx))])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_registry_marker_must_name_exactly_the_server() {
        let readme =
            std::fs::read_to_string(crate::workspace_root().join("packaging/pypi/README.md"))
                .unwrap();
        assert!(declares_mcp_name(&readme), "packaging/pypi/README.md");
        assert!(declares_mcp_name(&format!("x\nmcp-name: {MCP_NAME}")));
        assert!(!declares_mcp_name(&format!(
            "mcp-name: {MCP_NAME}-fork -->"
        )));
        assert!(!declares_mcp_name(&format!("mcp-name: {MCP_NAME}/x")));
        assert!(!declares_mcp_name(
            "mcp-name: io.github.lifesciences-mcp/other"
        ));
    }

    /// The notebook, and the module's smoke test with it, must never reach a real
    /// database: its recorded upstream points every upstream the gateway asks at itself.
    #[test]
    fn the_notebooks_recorded_upstream_stands_in_for_every_upstream() {
        let helper = std::fs::read_to_string(
            crate::workspace_root().join("docs/notebook/recorded_upstream.py"),
        )
        .unwrap();
        let upstreams = (crate::servers::gateway().upstreams)().unwrap();
        assert!(upstreams.len() >= 7, "{} upstreams", upstreams.len());
        for config in upstreams {
            let var = config.upstream.url_var();
            assert!(
                helper.contains(&format!("\"{var}\": \"/")),
                "docs/notebook/recorded_upstream.py does not point {var} at itself"
            );
        }
    }
}
