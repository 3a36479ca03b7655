//! `cargo xtask sessions`: the memory of a server in Streamable HTTP mode across many
//! abandoned sessions. Each session is opened (`initialize`) and never used or ended, as
//! by a client that crashed; the server must expire idle ones and, at its cap, let a new
//! one take the place of an idle one, so its resident memory levels off instead of
//! growing with every session.
//!
//! It starts the built binary with `serve --http` (upstreams pointed at a closed port: no
//! session makes a call), opens the sessions (waiting at the cap, should one be refused,
//! for idle ones to expire), reads the process's resident set (`VmRSS` in
//! `/proc/<pid>/status`, so Linux only) after each tenth, and fails when the second half
//! of the run still grows. Opt-in and not in CI: with the defaults it takes about 30 s per
//! server.
//!
//! `--hold N` measures instead what one abandoned session holds, in a release build: it
//! opens N sessions in each of several batches, reading the resident set while each
//! batch is awake and once the server has put it to sleep (`--session-hibernate-secs`).
//! The first batch's growth is what a session costs awake. Memory a batch releases as it
//! sleeps stays with the allocator and is reused by the next, so the growth from one
//! sleeping batch to the next, once the allocator has warmed up (the last batch), is what
//! an abandoned session holds for good. It fails when that passes the budget.

use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::{Context as _, bail};
use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};

use crate::servers;

const INITIALIZE: &str = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"abandoned","version":"0"}}}"#;

/// Sessions opened at once.
const CONCURRENCY: usize = 32;

/// What one run measured.
struct Measure {
    opened: usize,
    refused: usize,
    /// (sessions opened so far, RSS in KiB) after each tenth of the run.
    rss: Vec<(usize, u64)>,
    start_kib: u64,
    end_kib: u64,
}

/// `cargo xtask sessions --hold N`: what one abandoned session holds, awake and asleep.
pub(crate) fn hold(
    only: Option<&str>,
    count: usize,
    batches: usize,
    hibernate_secs: u64,
    budget_kb: f64,
) -> anyhow::Result<()> {
    if !Path::new("/proc/self/status").exists() {
        bail!("this check reads the resident set from /proc: Linux only");
    }
    if batches < 2 {
        bail!("--batches must be at least 2: the last batch is measured against the one before");
    }
    each_server(only, true, |runtime, name, binary, upstream_vars| {
        let held = runtime.block_on(measure_hold(
            binary,
            upstream_vars,
            count,
            batches,
            hibernate_secs,
        ))?;
        let per =
            |from: u64, to: u64| to.saturating_sub(from) as f64 * 1024.0 / 1000.0 / count as f64;
        println!(
            "\n{}: what an abandoned session holds (release build, {batches} batches of {count} \
             sessions, put to sleep after {hibernate_secs} s idle)",
            name
        );
        println!("  RSS at start: {:.1} MiB", mib(held.start));
        let mut before = held.start;
        for (n, (awake, asleep)) in held.batches.iter().enumerate() {
            println!(
                "  batch {}: awake {:>6.1} MiB (+{:>5.1} kB a session), asleep {:>6.1} MiB \
                 (+{:>5.1} kB a session)",
                n + 1,
                mib(*awake),
                per(before, *awake),
                mib(*asleep),
                per(before, *asleep),
            );
            before = *asleep;
        }
        let (Some(&(awake, _)), Some(&(_, previous)), Some(&(_, last))) = (
            held.batches.first(),
            held.batches.iter().rev().nth(1),
            held.batches.last(),
        ) else {
            bail!("no measurements");
        };
        let awake = per(held.start, awake);
        let asleep = per(previous, last);
        println!("  a session awake: {awake:.1} kB (the first batch)");
        println!(
            "  an abandoned session, asleep: {asleep:.1} kB (the last batch; budget {budget_kb} kB)"
        );
        Ok((asleep > budget_kb).then(|| {
            format!(
                "an abandoned session holds {asleep:.1} kB once asleep, more than {budget_kb} kB"
            )
        }))
    })
}

/// Resident set readings (KiB) of one `--hold` run: at start, then per batch awake and
/// asleep.
struct Held {
    start: u64,
    batches: Vec<(u64, u64)>,
}

async fn measure_hold(
    binary: &Path,
    upstream_vars: &[String],
    count: usize,
    batches: usize,
    hibernate_secs: u64,
) -> anyhow::Result<Held> {
    let max_sessions = ((batches + 1) * count).to_string();
    let (mut server, addr) = start(
        binary,
        upstream_vars,
        &[
            "--session-idle-secs",
            "86400",
            "--session-hibernate-secs",
            &hibernate_secs.to_string(),
            "--max-sessions",
            &max_sessions,
        ],
    )
    .await?;
    let pid = server.0.id();
    // A sleep is due after the idle delay plus at most a sweep (a quarter of it, at most
    // 15 s); and the allocator is given a moment to settle.
    let asleep_after = Duration::from_secs(hibernate_secs + (hibernate_secs / 4).min(15) + 2);
    let settle = Duration::from_secs(1);
    let open_batch = async || -> anyhow::Result<()> {
        let mut opened = 0;
        while opened < count {
            let batch = (count - opened).min(CONCURRENCY);
            let answers = futures::future::join_all((0..batch).map(|_| open_session(&addr))).await;
            for answer in answers {
                match answer? {
                    Opened::Yes => opened += 1,
                    Opened::AtCap => bail!("a session was refused below the cap"),
                }
            }
        }
        Ok(())
    };
    tokio::time::sleep(settle).await;
    let start = rss_kib(pid)?;
    let mut readings = Vec::new();
    for _ in 0..batches {
        open_batch().await?;
        tokio::time::sleep(settle).await;
        let awake = rss_kib(pid)?;
        tokio::time::sleep(asleep_after).await;
        readings.push((awake, rss_kib(pid)?));
    }
    server.stop();
    Ok(Held {
        start,
        batches: readings,
    })
}

pub(crate) fn run(
    only: Option<&str>,
    count: usize,
    idle_secs: u64,
    max_sessions: usize,
) -> anyhow::Result<()> {
    if !Path::new("/proc/self/status").exists() {
        bail!("this check reads the resident set from /proc: Linux only");
    }
    each_server(only, false, |runtime, name, binary, upstream_vars| {
        let measure = runtime.block_on(measure(
            binary,
            upstream_vars,
            count,
            idle_secs,
            max_sessions,
        ))?;
        println!(
            "\n{}: {count} abandoned sessions (idle expiry {idle_secs} s, cap {max_sessions})",
            name
        );
        println!(
            "  opened {}, refused at the cap {}; RSS at start {:.1} MiB",
            measure.opened,
            measure.refused,
            mib(measure.start_kib)
        );
        for (sessions, kib) in &measure.rss {
            println!("  after {sessions:>6} sessions: {:>7.1} MiB", mib(*kib));
        }
        println!(
            "  after the idle ones expired: {:.1} MiB",
            mib(measure.end_kib)
        );
        let problem = verdict(&measure);
        match &problem {
            Some(problem) => println!("  FAIL: {problem}"),
            None => println!("  ok: resident memory levels off"),
        }
        Ok(problem)
    })
}

/// Build the servers `only` selects (`release` or debug) and run `check` on each, with
/// one runtime, its binary and the variables of its upstreams' URLs; the problems
/// `check` finds are all reported at the end, each after its server's name.
fn each_server(
    only: Option<&str>,
    release: bool,
    mut check: impl FnMut(
        &tokio::runtime::Runtime,
        &str,
        &Path,
        &[String],
    ) -> anyhow::Result<Option<String>>,
) -> anyhow::Result<()> {
    let entries = servers::select(only)?;
    let binaries = crate::demo::build(&entries, release)?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    let mut failures = Vec::new();
    for (entry, binary) in entries.iter().zip(&binaries) {
        let upstream_vars: Vec<String> = (entry.upstreams)()?
            .iter()
            .map(|c| c.upstream.url_var())
            .collect();
        if let Some(problem) = check(&runtime, entry.name, binary, &upstream_vars)? {
            failures.push(format!("{}: {problem}", entry.name));
        }
    }
    if !failures.is_empty() {
        bail!("{}", failures.join("; "));
    }
    Ok(())
}

fn mib(kib: u64) -> f64 {
    kib as f64 / 1024.0
}

/// Bounded means: the second half of the run grew the resident set by less than a tenth
/// of what the first half did, plus 4 MiB of allocator slack.
fn verdict(measure: &Measure) -> Option<String> {
    let middle = (measure.rss.len() / 2).saturating_sub(1);
    let (Some(&(_, half)), Some(&(_, last))) = (measure.rss.get(middle), measure.rss.last()) else {
        return Some("no measurements".into());
    };
    let first_growth = half.saturating_sub(measure.start_kib);
    let second_growth = last.saturating_sub(half);
    (second_growth > first_growth / 10 + 4 * 1024).then(|| {
        format!(
            "the second half of the run grew RSS by {:.1} MiB (the first half by {:.1} MiB)",
            mib(second_growth),
            mib(first_growth)
        )
    })
}

async fn measure(
    binary: &Path,
    upstream_vars: &[String],
    count: usize,
    idle_secs: u64,
    max_sessions: usize,
) -> anyhow::Result<Measure> {
    let (mut server, addr) = start(
        binary,
        upstream_vars,
        &[
            "--session-idle-secs",
            &idle_secs.to_string(),
            "--max-sessions",
            &max_sessions.to_string(),
        ],
    )
    .await?;
    let pid = server.0.id();
    let start_kib = rss_kib(pid)?;
    // Open `count` sessions, in rounds of a tenth; at the cap, wait for idle ones to
    // expire (giving up when none does within three idle timeouts).
    let rounds = 10;
    let per_round = count.div_ceil(rounds);
    let (mut opened, mut refused) = (0, 0);
    let mut rss = Vec::new();
    let started = Instant::now();
    let mut last_opened = Instant::now();
    let patience = Duration::from_secs(3 * idle_secs + 10);
    while opened < count {
        let batch = (count - opened).min(CONCURRENCY);
        let answers = futures::future::join_all((0..batch).map(|_| open_session(&addr))).await;
        let before = opened;
        for answer in answers {
            match answer? {
                Opened::Yes => opened += 1,
                Opened::AtCap => refused += 1,
            }
        }
        if opened > before {
            last_opened = Instant::now();
            if opened / per_round > before / per_round || opened == count {
                rss.push((opened, rss_kib(pid)?));
            }
        } else if last_opened.elapsed() > patience {
            bail!("no session could be opened for {patience:?}: idle sessions did not expire");
        } else {
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }
    tokio::time::sleep(Duration::from_secs(idle_secs + 2)).await;
    let end_kib = rss_kib(pid)?;
    println!(
        "  ({opened} sessions opened in {:.1} s)",
        started.elapsed().as_secs_f64()
    );
    server.stop();
    Ok(Measure {
        opened,
        refused,
        rss,
        start_kib,
        end_kib,
    })
}

/// `binary serve --http` on a free loopback port with `session_args`, its upstreams
/// pointed at a closed port (no session makes a call), once it listens; and its address.
async fn start(
    binary: &Path,
    upstream_vars: &[String],
    session_args: &[&str],
) -> anyhow::Result<(Running, String)> {
    let port = std::net::TcpListener::bind("127.0.0.1:0")?
        .local_addr()?
        .port();
    let addr = format!("127.0.0.1:{port}");
    let mut command = Command::new(binary);
    command
        .args(["serve", "--http", &addr])
        .args(session_args)
        .env("RUST_LOG", "error")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::inherit());
    for var in upstream_vars {
        command.env(var, "http://127.0.0.1:9");
    }
    let child = command
        .spawn()
        .with_context(|| format!("cannot start {}", binary.display()))?;
    let server = Running(child);
    wait_until_listening(&addr).await?;
    Ok((server, addr))
}

/// The server process, killed when dropped.
struct Running(Child);

impl Running {
    fn stop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        self.stop();
    }
}

enum Opened {
    Yes,
    AtCap,
}

async fn open_session(addr: &str) -> anyhow::Result<Opened> {
    let request = format!(
        "POST /mcp HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n\
         Accept: application/json, text/event-stream\r\nContent-Length: {}\r\n\
         Connection: close\r\n\r\n{INITIALIZE}",
        INITIALIZE.len()
    );
    let mut stream = tokio::net::TcpStream::connect(addr).await?;
    stream.write_all(request.as_bytes()).await?;
    let mut response = Vec::new();
    tokio::time::timeout(Duration::from_secs(10), stream.read_to_end(&mut response))
        .await
        .context("no answer to initialize within 10 s")??;
    let response = String::from_utf8_lossy(&response);
    if response.starts_with("HTTP/1.1 503") {
        return Ok(Opened::AtCap);
    }
    let has_session = response
        .lines()
        .any(|l| l.to_ascii_lowercase().starts_with("mcp-session-id:"));
    if !response.starts_with("HTTP/1.1 200") || !has_session {
        bail!(
            "initialize was not answered with a session: {}",
            response.lines().next().unwrap_or_default()
        );
    }
    Ok(Opened::Yes)
}

async fn wait_until_listening(addr: &str) -> anyhow::Result<()> {
    for _ in 0..100 {
        if tokio::net::TcpStream::connect(addr).await.is_ok() {
            return Ok(());
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    bail!("the server did not listen on {addr} within 5 s")
}

pub(crate) fn rss_kib(pid: u32) -> anyhow::Result<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status"))
        .with_context(|| format!("cannot read /proc/{pid}/status"))?;
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next())
        .and_then(|kib| kib.parse().ok())
        .context("no VmRSS in /proc/<pid>/status")
}
