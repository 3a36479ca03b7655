//! The container image: `packaging/image/build.sh` builds it with buildah FROM scratch
//! (the gateway, the shared libraries it loads, Debian's CA bundle, a non-root user) and
//! writes it as an OCI archive; then the archive is smoke-tested the way a container
//! engine runs it, without one: its layout is read (index, manifest, config, each blob
//! against its digest), its layer unpacked into a root filesystem, and its entrypoint run
//! there with `chroot` as the image's user, with only the image's environment:
//!
//! - over stdio (`… serve`, what `docker run -i --rm <image> serve` runs), through the
//!   smoke test every artifact takes;
//! - `check` with every upstream pointed at a closed local port: each must be refused a
//!   connection, which proves the TLS client was built, so the image's root certificates
//!   are where the TLS stack looks (without them every upstream reports a TLS set-up
//!   error and no request is made);
//! - the default command (`serve --http 0.0.0.0:8000`) on a free loopback port instead:
//!   `GET /health` answers 200, `initialize` with the `Host` a browser-less client sends
//!   to `http://localhost:8000/mcp` answers 200, another host name is refused (403)
//!   until the operator passes `--allow-host`, and SIGTERM (`docker stop`) ends it cleanly.
//!
//! Skipped when buildah is not installed (`packaging/image/install-buildah.sh` installs
//! it on Debian or Ubuntu). Unpacking with the image's owners and `chroot` need root: run
//! by another user (a CI runner), those steps go through passwordless `sudo -n`; without
//! it the smoke test fails, saying so, after the archive is written.

use std::ffi::OsStr;
use std::io::{Read as _, Write as _};
use std::net::{Ipv4Addr, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::{Context as _, bail, ensure};
use serde_json::Value;

use super::smoke::{self, Smoke};

/// The user the image runs as (`nonroot` in its `/etc/passwd`).
const USER: &str = "65532:65532";
/// The gateway's path in the image.
const ENTRYPOINT: &str = "/usr/local/bin/lifesciences-mcp";
/// The default command: Streamable HTTP on port 8000 of every interface.
const CMD: [&str; 3] = ["serve", "--http", "0.0.0.0:8000"];
/// Where the TLS stack looks first for root certificates on Linux (openssl-probe's list,
/// read by rustls-native-certs for rustls-platform-verifier).
const CA_BUNDLE: &str = "etc/ssl/certs/ca-certificates.crt";

pub(super) fn build_and_smoke(
    out: &Path,
    binary: &Path,
) -> anyhow::Result<Vec<(PathBuf, Option<Smoke>)>> {
    if !cfg!(target_os = "linux") || find_program("buildah").is_none() {
        eprintln!(
            "buildah is not installed: no container image (packaging/image/install-buildah.sh \
             installs it)"
        );
        return Ok(Vec::new());
    }
    let archive = out.join(format!(
        "lifesciences-mcp-{}-oci.tar",
        env!("CARGO_PKG_VERSION")
    ));
    let script = crate::workspace_root().join("packaging/image/build.sh");
    eprintln!("Building the container image with buildah…");
    let status = Command::new(&script)
        .arg(binary)
        .arg(&archive)
        .status()
        .with_context(|| format!("cannot run {}", script.display()))?;
    ensure!(status.success(), "{} failed ({status})", script.display());
    let smoke = smoke_test(&archive).with_context(|| {
        format!(
            "{} is written, but its smoke test failed",
            archive.display()
        )
    })?;
    Ok(vec![(archive, Some(smoke))])
}

/// Everything the module opening lists, on `archive`.
fn smoke_test(archive: &Path) -> anyhow::Result<Smoke> {
    let root = Root::find()?;
    let scratch = Scratch::new(root.clone())?;
    let image = unpack(archive, &scratch.dir, root)?;
    image.check_config()?;
    image.check_files()?;
    eprintln!("Smoke-testing the image (its entrypoint, chrooted, as {USER})…");
    let (program, args) = image.command(&[], &["serve"])?;
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let stdio = smoke::speaks_mcp(&program, &args, &[], &scratch.dir)?;
    image.check_tls()?;
    image.check_http(&scratch.dir)?;
    Ok(Smoke {
        server: format!(
            "{} (run in the image's root as {USER}; over HTTP: /health and initialize 200, \
             other hosts 403, exit 0 on SIGTERM)",
            stdio.server
        ),
        ..stdio
    })
}

/// How this process acts as root: it is root, or it asks passwordless `sudo`.
#[derive(Clone)]
struct Root {
    sudo: Option<PathBuf>,
}

impl Root {
    fn find() -> anyhow::Result<Self> {
        if output(Command::new("id").arg("-u"))?.trim() == "0" {
            return Ok(Self { sudo: None });
        }
        let sudo = find_program("sudo").filter(|sudo| {
            Command::new(sudo)
                .args(["-n", "true"])
                .stdin(Stdio::null())
                .stderr(Stdio::null())
                .status()
                .is_ok_and(|s| s.success())
        });
        match sudo {
            Some(sudo) => Ok(Self { sudo: Some(sudo) }),
            None => bail!(
                "it unpacks the image with its owners and runs the entrypoint with chroot, \
                 which need root: run it as root or where `sudo -n` needs no password"
            ),
        }
    }

    /// `program args` as root: the program and its arguments.
    fn argv(&self, program: &Path, args: Vec<String>) -> (PathBuf, Vec<String>) {
        match &self.sudo {
            None => (program.to_owned(), args),
            Some(sudo) => {
                let mut line = vec!["-n".to_owned(), program.display().to_string()];
                line.extend(args);
                (sudo.clone(), line)
            }
        }
    }

    /// `program` as root, to be given its arguments.
    fn command(&self, program: impl AsRef<OsStr>) -> Command {
        match &self.sudo {
            None => Command::new(program),
            Some(sudo) => {
                let mut command = Command::new(sudo);
                command.arg("-n").arg(program);
                command
            }
        }
    }
}

/// A directory removed (as root: it holds the image's files) when dropped.
struct Scratch {
    dir: PathBuf,
    root: Root,
}

impl Scratch {
    fn new(root: Root) -> anyhow::Result<Self> {
        let dir = std::env::temp_dir().join(format!(
            "lifesciences-mcp-image-smoke-{}",
            std::process::id()
        ));
        if dir.exists() {
            run(root.command("rm").arg("-rf").arg(&dir))?;
        }
        std::fs::create_dir_all(&dir)
            .with_context(|| format!("cannot create {}", dir.display()))?;
        Ok(Self { dir, root })
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = self.root.command("rm").arg("-rf").arg(&self.dir).status();
    }
}

/// An unpacked image: its root filesystem and the configuration an engine runs it with.
struct Image {
    rootfs: PathBuf,
    config: Value,
    root: Root,
}

/// Read the OCI layout in `archive` (one image), check each blob against its digest, and
/// unpack its layers in order into `dir/rootfs`, owners and modes kept.
fn unpack(archive: &Path, dir: &Path, root: Root) -> anyhow::Result<Image> {
    let layout = dir.join("oci");
    let rootfs = dir.join("rootfs");
    std::fs::create_dir_all(&layout)?;
    std::fs::create_dir_all(&rootfs)?;
    run(Command::new("tar")
        .arg("-xf")
        .arg(archive)
        .arg("-C")
        .arg(&layout))?;
    let marker = read_json(&layout.join("oci-layout"))?;
    ensure!(
        marker["imageLayoutVersion"].is_string(),
        "not an OCI image layout: {marker}"
    );
    let index = read_json(&layout.join("index.json"))?;
    let manifests = index["manifests"].as_array().map_or(&[][..], Vec::as_slice);
    let [entry] = manifests else {
        bail!("the archive should hold one image, its index lists {manifests:?}");
    };
    let manifest = read_json(&blob(&layout, entry)?)?;
    let config = read_json(&blob(&layout, &manifest["config"])?)?;
    let layers = manifest["layers"].as_array().map_or(&[][..], Vec::as_slice);
    ensure!(
        !layers.is_empty(),
        "the manifest lists no layer: {manifest}"
    );
    for layer in layers {
        run(root
            .command("tar")
            .arg("-xf")
            .arg(blob(&layout, layer)?)
            .arg("-C")
            .arg(&rootfs)
            .args(["--numeric-owner", "--same-owner", "--same-permissions"]))?;
    }
    Ok(Image {
        rootfs,
        config,
        root,
    })
}

/// The file of the blob `descriptor` points at, checked against its digest and size.
fn blob(layout: &Path, descriptor: &Value) -> anyhow::Result<PathBuf> {
    let digest = descriptor["digest"].as_str().unwrap_or_default();
    let hex = digest
        .strip_prefix("sha256:")
        .filter(|h| h.len() == 64 && h.bytes().all(|b| b.is_ascii_hexdigit()))
        .with_context(|| format!("not a sha256 digest: {descriptor}"))?;
    let path = layout.join("blobs/sha256").join(hex);
    let size = std::fs::metadata(&path)
        .with_context(|| format!("the archive has no blob {digest}"))?
        .len();
    ensure!(
        descriptor["size"].as_u64() == Some(size),
        "blob {digest} is {size} bytes, its descriptor says {}",
        descriptor["size"]
    );
    let sum = output(Command::new("sha256sum").arg(&path))?;
    ensure!(
        sum.split_whitespace().next() == Some(hex),
        "blob {digest} does not match its digest"
    );
    Ok(path)
}

impl Image {
    /// What an engine reads from the configuration: platform, user, entrypoint, default
    /// command, port, and the labels the MCP registry and GitHub's registry read.
    fn check_config(&self) -> anyhow::Result<()> {
        let arch = match std::env::consts::ARCH {
            "x86_64" => "amd64",
            "aarch64" => "arm64",
            other => other,
        };
        let platform = (
            self.config["os"].as_str(),
            self.config["architecture"].as_str(),
        );
        ensure!(
            platform == (Some("linux"), Some(arch)),
            "the image is for {platform:?}, this machine is linux/{arch}"
        );
        let config = &self.config["config"];
        ensure!(
            config["User"] == USER,
            "the image runs as {}, not {USER}",
            config["User"]
        );
        ensure!(
            config["Entrypoint"] == serde_json::json!([ENTRYPOINT]),
            "entrypoint {}, not [{ENTRYPOINT}]",
            config["Entrypoint"]
        );
        ensure!(
            config["Cmd"] == serde_json::json!(CMD),
            "default command {}, not {CMD:?}",
            config["Cmd"]
        );
        ensure!(
            config["ExposedPorts"].get("8000/tcp").is_some(),
            "port 8000 is not exposed: {}",
            config["ExposedPorts"]
        );
        let labels = &config["Labels"];
        let expected = [
            (
                "io.modelcontextprotocol.server.name",
                Some(crate::bundle::REGISTRY_NAME),
            ),
            ("org.opencontainers.image.title", Some("lifesciences-mcp")),
            (
                "org.opencontainers.image.version",
                Some(env!("CARGO_PKG_VERSION")),
            ),
            (
                "org.opencontainers.image.licenses",
                Some(env!("CARGO_PKG_LICENSE")),
            ),
            (
                "org.opencontainers.image.source",
                Some("https://github.com/lifesciences-mcp/lifesciences-mcp"),
            ),
            ("org.opencontainers.image.description", None),
        ];
        for (label, value) in expected {
            let found = labels[label].as_str().filter(|v| !v.is_empty());
            match (found, value) {
                (Some(found), Some(value)) if found != value => {
                    bail!("label {label} is {found:?}, not {value:?}")
                }
                (None, _) => bail!("label {label} is missing: {labels}"),
                _ => {}
            }
        }
        Ok(())
    }

    /// The files the entrypoint relies on besides its libraries (which running it checks).
    fn check_files(&self) -> anyhow::Result<()> {
        use std::os::unix::fs::{MetadataExt as _, PermissionsExt as _};
        let bundle = self.rootfs.join(CA_BUNDLE);
        let certificates = std::fs::read_to_string(&bundle)
            .with_context(|| format!("the image has no /{CA_BUNDLE}"))?;
        ensure!(
            certificates.matches("BEGIN CERTIFICATE").count() > 50,
            "/{CA_BUNDLE} holds few certificates"
        );
        let tmp = std::fs::metadata(self.rootfs.join("tmp")).context("the image has no /tmp")?;
        ensure!(
            tmp.is_dir() && tmp.permissions().mode() & 0o7777 == 0o1777,
            "/tmp is not a world-writable sticky directory (mode {:o})",
            tmp.permissions().mode()
        );
        let passwd = std::fs::read_to_string(self.rootfs.join("etc/passwd"))?;
        let (uid, gid) = USER.split_once(':').unwrap_or((USER, USER));
        let home = passwd
            .lines()
            .map(|line| line.split(':').collect::<Vec<_>>())
            .find(|fields| fields.get(2) == Some(&uid) && fields.get(3) == Some(&gid))
            .and_then(|fields| {
                fields
                    .get(5)
                    .map(|home| home.trim_start_matches('/').to_owned())
            })
            .with_context(|| format!("/etc/passwd has no user {USER}"))?;
        let group = std::fs::read_to_string(self.rootfs.join("etc/group"))?;
        ensure!(
            group
                .lines()
                .any(|line| line.split(':').nth(2) == Some(gid)),
            "/etc/group has no group {gid}"
        );
        let home = std::fs::metadata(self.rootfs.join(&home))
            .with_context(|| format!("the user's home /{home} is missing"))?;
        ensure!(
            home.uid().to_string() == uid,
            "the user's home is owned by {}, not {uid}",
            home.uid()
        );
        Ok(())
    }

    /// The entrypoint with `args`, as an engine runs it: `env -i <the image's environment>
    /// <extra> chroot --userspec=<user> <rootfs> <entrypoint> <args>`, as root.
    fn command(
        &self,
        extra_env: &[String],
        args: &[&str],
    ) -> anyhow::Result<(PathBuf, Vec<String>)> {
        let env = find_program("env").context("env is not installed")?;
        let chroot = find_program("chroot").context("chroot is not installed")?;
        let config = &self.config["config"];
        let mut line = vec!["-i".to_owned()];
        for variable in config["Env"].as_array().map_or(&[][..], Vec::as_slice) {
            line.extend(variable.as_str().map(ToOwned::to_owned));
        }
        line.extend(extra_env.iter().cloned());
        line.push(chroot.display().to_string());
        line.push(format!("--userspec={USER}"));
        line.push(self.rootfs.display().to_string());
        line.extend(
            config["Entrypoint"]
                .as_array()
                .map_or(&[][..], Vec::as_slice)
                .iter()
                .filter_map(|a| a.as_str().map(ToOwned::to_owned)),
        );
        line.extend(args.iter().map(|a| (*a).to_owned()));
        Ok(self.root.argv(&env, line))
    }

    /// `check` with every upstream at a closed local port: each must be refused a
    /// connection, proof that the TLS client was built from the image's certificates.
    fn check_tls(&self) -> anyhow::Result<()> {
        let upstreams = lifesciences_core::server::upstreams::<lifesciences_mcp::Gateway>()?;
        let closed = free_port()?;
        let env: Vec<String> = upstreams
            .iter()
            .map(|u| format!("{}=https://127.0.0.1:{closed}", u.url_var()))
            .collect();
        let (program, args) = self.command(&env, &["check"])?;
        let check = Command::new(&program)
            .args(&args)
            .output()
            .context("cannot run check in the image")?;
        let text = String::from_utf8_lossy(&check.stdout);
        let refused = text.matches("connection refused").count();
        ensure!(
            refused == upstreams.len(),
            "`check` in the image with every upstream at a closed port should report {} \
             refused connections (the TLS client set up from /{CA_BUNDLE}), it reports \
             {refused}:\n{text}{}",
            upstreams.len(),
            String::from_utf8_lossy(&check.stderr)
        );
        Ok(())
    }

    /// The default command on a free loopback port: health, `initialize`, the Host
    /// allow-list, and a clean stop on SIGTERM.
    fn check_http(&self, scratch: &Path) -> anyhow::Result<()> {
        let port = free_port()?;
        let listen = format!("127.0.0.1:{port}");
        let args: Vec<&str> = CMD
            .iter()
            .map(|a| {
                if *a == "0.0.0.0:8000" {
                    listen.as_str()
                } else {
                    a
                }
            })
            .collect();
        let (program, line) = self.command(&[], &args)?;
        let log_path = scratch.join("serve-http.log");
        let log = std::fs::File::create(&log_path)?;
        let mut server = Server {
            child: Command::new(&program)
                .args(&line)
                .stdin(Stdio::null())
                .stdout(log.try_clone()?)
                .stderr(log)
                .spawn()
                .context("cannot start the image's default command")?,
            root: self.root.clone(),
        };
        let log = || std::fs::read_to_string(&log_path).unwrap_or_default();
        let started = Instant::now();
        let health = loop {
            match http(
                port,
                &format!("GET /health HTTP/1.1\r\nHost: {listen}\r\nConnection: close\r\n\r\n"),
            ) {
                Ok(answer) => break answer,
                Err(_) if started.elapsed() < Duration::from_secs(10) => {
                    if let Some(status) = server.child.try_wait()? {
                        bail!("the server ended ({status}) before answering:\n{}", log());
                    }
                    std::thread::sleep(Duration::from_millis(50));
                }
                Err(e) => bail!("no answer on {listen} within 10 s: {e:#}\n{}", log()),
            }
        };
        ensure!(
            health.starts_with("HTTP/1.1 200") && health.contains(r#""status":"ok""#),
            "GET /health: {health}"
        );
        // What a client of `docker run -p 8000:8000 <image>` sends to
        // http://localhost:8000/mcp.
        let init = http(port, &initialize(&format!("localhost:{port}")))?;
        ensure!(
            init.starts_with("HTTP/1.1 200")
                && init.contains(r#""serverInfo":{"name":"lifesciences-mcp""#),
            "initialize with Host localhost:{port}: {init}"
        );
        let foreign = http(port, &initialize("mcp.example.org"))?;
        ensure!(
            foreign.starts_with("HTTP/1.1 403"),
            "initialize with Host mcp.example.org, not allowed: {foreign}"
        );
        server.signal("TERM")?;
        let stopping = Instant::now();
        let status = loop {
            if let Some(status) = server.child.try_wait()? {
                break status;
            }
            ensure!(
                stopping.elapsed() < Duration::from_secs(15),
                "still running 15 s after SIGTERM:\n{}",
                log()
            );
            std::thread::sleep(Duration::from_millis(50));
        };
        ensure!(
            status.success(),
            "after SIGTERM it exited with {status}:\n{}",
            log()
        );
        Ok(())
    }
}

/// A server process (started as root, running as the image's user), stopped if still
/// running when dropped.
struct Server {
    child: Child,
    root: Root,
}

impl Server {
    /// Send it `SIGname` (through `sudo`, which passes it on, when that is how it runs).
    fn signal(&self, name: &str) -> anyhow::Result<()> {
        run(self
            .root
            .command("kill")
            .arg(format!("-{name}"))
            .arg(self.child.id().to_string()))
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        // SIGTERM first: `sudo` passes it on, but cannot pass on SIGKILL.
        if let Ok(None) = self.child.try_wait() {
            let _ = self.signal("TERM");
            let asked = Instant::now();
            while let Ok(None) = self.child.try_wait() {
                if asked.elapsed() > Duration::from_secs(12) {
                    let _ = self.signal("KILL");
                    let _ = self.child.wait();
                    break;
                }
                std::thread::sleep(Duration::from_millis(50));
            }
        }
    }
}

/// A JSON-RPC `initialize` POSTed to `/mcp` with this `Host`, as a Streamable HTTP client
/// sends it.
fn initialize(host: &str) -> String {
    let body = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"xtask-dist","version":"0"}}}"#;
    format!(
        "POST /mcp HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\n\
         Accept: application/json, text/event-stream\r\nContent-Length: {}\r\n\
         Connection: close\r\n\r\n{body}",
        body.len()
    )
}

/// Send `request` (which asks for `Connection: close`) to 127.0.0.1:`port`, and read the
/// answer to its end.
fn http(port: u16, request: &str) -> anyhow::Result<String> {
    let mut stream = TcpStream::connect((Ipv4Addr::LOCALHOST, port))?;
    stream.set_read_timeout(Some(Duration::from_secs(10)))?;
    stream.write_all(request.as_bytes())?;
    let mut answer = Vec::new();
    stream.read_to_end(&mut answer)?;
    Ok(String::from_utf8_lossy(&answer).into_owned())
}

/// A loopback port nothing listens on (just now).
fn free_port() -> anyhow::Result<u16> {
    Ok(TcpListener::bind((Ipv4Addr::LOCALHOST, 0))?
        .local_addr()?
        .port())
}

/// `program` on PATH, or in the system directories root's PATH has (`chroot` is in
/// `/usr/sbin`).
fn find_program(program: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .chain(["/usr/sbin", "/sbin", "/usr/bin", "/bin"].map(PathBuf::from))
        .map(|dir| dir.join(program))
        .find(|candidate| candidate.is_file())
}

fn read_json(path: &Path) -> anyhow::Result<Value> {
    let text = std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
    serde_json::from_slice(&text).with_context(|| format!("{} is not JSON", path.display()))
}

/// Run `command`; its stdout, or an error with its stderr.
fn output(command: &mut Command) -> anyhow::Result<String> {
    let shown = format!("{command:?}");
    let out = command
        .output()
        .with_context(|| format!("cannot run {shown}"))?;
    ensure!(
        out.status.success(),
        "{shown} failed ({}): {}",
        out.status,
        String::from_utf8_lossy(&out.stderr).trim()
    );
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

fn run(command: &mut Command) -> anyhow::Result<()> {
    output(command).map(drop)
}

#[cfg(test)]
mod tests;
