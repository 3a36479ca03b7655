//! The processes the fleet starts, each ended when its handle is dropped (on success, an
//! error or Ctrl-C alike): Redis on a unix socket, the gateway's HTTP replicas, a CPU
//! hog; and the temporary folder they share, removed last.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{Context as _, bail};
use lifesciences_core::testing::redis::RedisServer;

use super::mcp::{self, HttpSession};

/// A folder of the fleet's own, removed when dropped.
pub(crate) struct TempDir(PathBuf);

impl TempDir {
    pub(crate) fn new() -> anyhow::Result<Self> {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.subsec_nanos());
        // Short: a unix socket's path must fit in about 100 bytes.
        let path = std::env::temp_dir().join(format!("lsfleet-{}-{nanos:08x}", std::process::id()));
        std::fs::create_dir_all(&path)
            .with_context(|| format!("cannot create {}", path.display()))?;
        Ok(Self(path))
    }

    pub(crate) fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A child process, killed (SIGKILL) and reaped when dropped.
pub(crate) struct Child(std::process::Child);

impl Child {
    fn spawn(command: &mut Command, what: &str) -> anyhow::Result<Self> {
        command
            .spawn()
            .map(Self)
            .with_context(|| format!("cannot start {what}"))
    }

    fn end(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

impl Drop for Child {
    fn drop(&mut self) {
        self.end();
    }
}

/// How processes under test are launched: directly, or pinned to CPU 0 at a lower
/// priority (`--starved`, beside a busy loop on that CPU).
#[derive(Debug, Clone, Default)]
pub(crate) struct Launch {
    prefix: Vec<String>,
}

impl Launch {
    pub(crate) fn starved() -> Self {
        Self {
            prefix: ["taskset", "-c", "0", "nice", "-n", "10"]
                .map(str::to_owned)
                .to_vec(),
        }
    }

    /// The program and arguments that run `binary args…` this way (`taskset` and
    /// `nice` exec the binary: the process id stays the server's).
    pub(crate) fn program(&self, binary: &Path, args: &[&str]) -> (PathBuf, Vec<String>) {
        let mut all: Vec<String> = self.prefix.clone();
        all.push(binary.display().to_string());
        all.extend(args.iter().map(|a| (*a).to_owned()));
        let program = PathBuf::from(all.remove(0));
        (program, all)
    }
}

/// Busy loops pinned to CPU 0, for `--starved`.
pub(crate) fn hog() -> anyhow::Result<Child> {
    Child::spawn(
        Command::new("taskset")
            .args(["-c", "0", "sh", "-c", "while :; do :; done"])
            .stdin(Stdio::null())
            .stdout(Stdio::null()),
        "the CPU hog (taskset, from util-linux)",
    )
}

/// Find `redis-server` on `PATH`, or say how to install it.
pub(crate) fn find_redis() -> anyhow::Result<PathBuf> {
    RedisServer::installed().context(
        "redis-server is not installed: run `bash .ci/install-redis` (on Debian or \
         Ubuntu, `apt-get install redis-server`; on macOS, `brew install redis`)",
    )
}

/// `program` on a unix socket in a folder of its own (no port, nothing saved), answering
/// PING; killed and its folder removed when dropped. The tests' server, so the fleet runs
/// Redis exactly as the store's tests do.
pub(crate) fn start_redis(program: PathBuf) -> anyhow::Result<RedisServer> {
    let mut redis = RedisServer::with_program(program).context("a folder for redis-server")?;
    restart_redis(&mut redis)?;
    Ok(redis)
}

/// Start it (again) on the same socket, empty, and wait until it answers PING.
pub(crate) fn restart_redis(redis: &mut RedisServer) -> anyhow::Result<()> {
    redis.try_restart().map_err(anyhow::Error::msg)
}

/// `redis-server --version`'s version.
pub(crate) fn redis_version(program: &Path) -> String {
    Command::new(program)
        .arg("--version")
        .output()
        .ok()
        .and_then(|o| {
            String::from_utf8_lossy(&o.stdout)
                .split_whitespace()
                .find_map(|w| w.strip_prefix("v=").map(str::to_owned))
        })
        .unwrap_or_else(|| "?".to_owned())
}

/// One replica of the gateway, `serve --http` on a loopback port, and a session with it.
pub(crate) struct Replica {
    pub addr: SocketAddr,
    pub session: Arc<HttpSession>,
    _process: Child,
}

/// How to start a replica.
pub(crate) struct ReplicaPlan<'a> {
    pub binary: &'a Path,
    pub launch: &'a Launch,
    /// On top of the inherited environment less `remove`.
    pub env: &'a [(String, String)],
    pub remove: &'a [&'a str],
    /// Passes `--stateless` to `serve`.
    pub stateless: bool,
    /// The token its first session presents, when it checks one.
    pub token: Option<&'a str>,
}

impl Replica {
    /// Start it with its stderr in `log`, wait for `/health`, open a session.
    pub(crate) async fn start(plan: &ReplicaPlan<'_>, log: &Path) -> anyhow::Result<Self> {
        let addr = std::net::TcpListener::bind("127.0.0.1:0")?.local_addr()?;
        let addr_text = addr.to_string();
        let mut args = vec!["serve", "--http", addr_text.as_str()];
        if plan.stateless {
            args.push("--stateless");
        }
        let (program, args) = plan.launch.program(plan.binary, &args);
        let stderr = std::fs::File::create(log)
            .with_context(|| format!("cannot create {}", log.display()))?;
        let mut command = Command::new(&program);
        command
            .args(&args)
            .env("RUST_LOG", "warn")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(stderr);
        for key in plan.remove {
            command.env_remove(key);
        }
        for (key, value) in plan.env {
            command.env(key, value);
        }
        let mut process = Child::spawn(&mut command, &program.display().to_string())?;
        let started = Instant::now();
        loop {
            if mcp::health(addr).await.is_ok() {
                break;
            }
            if let Ok(Some(status)) = process.0.try_wait() {
                bail!(
                    "the replica exited ({status}): {}",
                    tail(log).unwrap_or_default()
                );
            }
            if started.elapsed() > Duration::from_secs(30) {
                bail!(
                    "the replica did not answer /health on {addr} within 30 s: {}",
                    tail(log).unwrap_or_default()
                );
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        let session = HttpSession::open_as(addr, plan.token)
            .await
            .with_context(|| format!("the replica on {addr}"))?;
        Ok(Self {
            addr,
            session: Arc::new(session),
            _process: process,
        })
    }
}

/// The last lines of a log, for an error message.
pub(crate) fn tail(log: &Path) -> Option<String> {
    let text = std::fs::read_to_string(log).ok()?;
    let lines: Vec<&str> = text.lines().collect();
    Some(lines[lines.len().saturating_sub(10)..].join("\n"))
}

/// Warning lines in a log (the replicas log at `warn`), and the first of them.
pub(crate) fn warnings(log: &Path) -> (usize, Option<String>) {
    let Ok(text) = std::fs::read_to_string(log) else {
        return (0, None);
    };
    let mut found = text
        .lines()
        .filter(|l| l.contains("WARN") || l.contains("ERROR"));
    let first = found.next().map(str::to_owned);
    (usize::from(first.is_some()) + found.count(), first)
}
