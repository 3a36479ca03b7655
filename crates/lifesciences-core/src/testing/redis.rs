//! A real Redis for tests: `redis-server` in a fresh folder, reached over a Unix socket
//! only (no TCP port, so tests running at once never collide), nothing saved to disk.
//!
//! Tests of the shared store's Redis backend run against it rather than a fake, because
//! what they check is Redis's own behaviour: the budget script's atomicity on Redis's
//! clock, expiry, and what the connection does when the server dies and comes back.
//!
//! Without `redis-server` on `PATH` a test skips (it says so on stderr), except in CI
//! (`CI=true`), where a missing server fails the run: `.ci/install-redis` installs it.

use std::io::{Read as _, Write as _};
use std::os::unix::net::UnixStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// How long a started server may take to answer `PING`.
const READY_WITHIN: Duration = Duration::from_secs(5);

/// One `redis-server` of a test, killed (and its folder removed) on drop.
#[derive(Debug)]
pub struct RedisServer {
    program: PathBuf,
    dir: super::TempFolder,
    child: Option<Child>,
}

impl RedisServer {
    /// A running server, or `None` (after a line on stderr saying the test is skipped)
    /// when `redis-server` is not installed. In CI (`CI=true`) a missing server panics.
    pub fn start() -> Option<Self> {
        let mut server = Self::stopped()?;
        server.restart();
        Some(server)
    }

    /// A folder and a socket path for a server not started yet: for tests of what a
    /// client does before Redis is up ([`restart`](Self::restart) starts it). `None` as
    /// for [`start`](Self::start).
    pub fn stopped() -> Option<Self> {
        let Some(program) = Self::installed() else {
            if std::env::var("CI").is_ok_and(|ci| ci == "true") {
                panic!(
                    "redis-server is not on PATH, and CI must have it: the shared store's \
                     Redis tests run against a real server (.ci/install-redis installs it)"
                );
            }
            eprintln!("redis-server is not on PATH: skipping this test of the Redis store");
            return None;
        };
        Some(Self::with_program(program).expect("a folder for redis-server"))
    }

    /// `redis-server` on `PATH`, if it is installed (never panics, in CI or not).
    pub fn installed() -> Option<PathBuf> {
        find_on_path("redis-server")
    }

    /// A server not started yet, run by `program`, in a fresh folder: for a tool (such as
    /// `cargo xtask fleet`) that found the program itself and reports errors rather than
    /// panicking; start it with [`try_restart`](Self::try_restart).
    pub fn with_program(program: PathBuf) -> std::io::Result<Self> {
        let dir = super::TempFolder::new("redis")?;
        Ok(Self {
            program,
            dir,
            child: None,
        })
    }

    /// The `redis-server` it runs.
    pub fn program(&self) -> &Path {
        &self.program
    }

    /// The server's Unix socket.
    pub fn socket(&self) -> PathBuf {
        self.dir.path().join("redis.sock")
    }

    /// The URL a client connects with: `unix:///…/redis.sock`.
    pub fn url(&self) -> String {
        format!("unix://{}", self.socket().display())
    }

    /// Whether the server is running (started and not stopped).
    pub fn is_running(&self) -> bool {
        self.child.is_some()
    }

    /// Kill the server at once (SIGKILL, as a crash or an OOM kill would), if running.
    /// Its socket file goes too, so a client sees the server gone rather than hanging.
    pub fn stop(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
        let _ = std::fs::remove_file(self.socket());
    }

    /// Start the server on the same socket (after stopping it if it runs), empty, and
    /// wait until it answers `PING`. Panics when it cannot (see
    /// [`try_restart`](Self::try_restart)).
    pub fn restart(&mut self) {
        if let Err(e) = self.try_restart() {
            panic!("{e}");
        }
    }

    /// [`restart`](Self::restart), saying why it failed rather than panicking: the
    /// program could not be started, or it did not answer `PING` in time (with its log).
    pub fn try_restart(&mut self) -> Result<(), String> {
        self.stop();
        let log_path = self.dir.path().join("redis.log");
        let log = std::fs::File::create(&log_path)
            .and_then(|log| Ok((log.try_clone()?, log)))
            .map_err(|e| format!("cannot create {}: {e}", log_path.display()))?;
        let child = Command::new(&self.program)
            .args(["--port", "0", "--unixsocket"])
            .arg(self.socket())
            .args([
                "--unixsocketperm",
                "700",
                "--save",
                "",
                "--appendonly",
                "no",
            ])
            .arg("--dir")
            .arg(self.dir.path())
            .stdin(Stdio::null())
            .stdout(log.0)
            .stderr(log.1)
            .spawn()
            .map_err(|e| format!("cannot start {}: {e}", self.program.display()))?;
        self.child = Some(child);
        let started = Instant::now();
        while !answers_ping(&self.socket()) {
            if started.elapsed() > READY_WITHIN {
                let log = std::fs::read_to_string(&log_path).unwrap_or_default();
                self.stop();
                return Err(format!(
                    "redis-server did not answer PING within {READY_WITHIN:?}; its log:\n{log}"
                ));
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        Ok(())
    }

    /// Folder of this server (its socket and log).
    pub fn dir(&self) -> &Path {
        self.dir.path()
    }
}

impl Drop for RedisServer {
    fn drop(&mut self) {
        // The folder goes with it.
        self.stop();
    }
}

/// Whether a server on `socket` answers `PING` with `+PONG`.
fn answers_ping(socket: &Path) -> bool {
    let Ok(mut stream) = UnixStream::connect(socket) else {
        return false;
    };
    let _ = stream.set_read_timeout(Some(Duration::from_millis(200)));
    if stream.write_all(b"PING\r\n").is_err() {
        return false;
    }
    let mut reply = [0_u8; 7];
    stream.read_exact(&mut reply).is_ok() && &reply == b"+PONG\r\n"
}

fn find_on_path(program: &str) -> Option<PathBuf> {
    std::env::split_paths(&std::env::var_os("PATH")?)
        .map(|dir| dir.join(program))
        .find(|path| path.is_file())
}
