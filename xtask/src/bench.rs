//! `cargo xtask bench`: how fast and how lean each server is, offline, with the project's
//! own code: release builds driven over stdio by an rmcp client against a local mock
//! upstream that answers every request after a fixed latency (`--latency-ms`).
//!
//! For each server it prints a markdown table: cold start to `initialize` answered
//! (median of 10 starts), binary size, resident memory idle and after `--calls` calls,
//! p50/p95 latency of lone uncached calls (each distinct, after a pause so pacing has
//! recovered), cached calls and back-to-back uncached calls, then 100 identical and 100
//! distinct concurrent calls (wall time and upstream requests the mock received), and
//! the busiest second of upstream arrivals during the distinct ones, per upstream (told
//! apart by path prefix) against its configured rate. `--pacing off` lifts every rate
//! and concurrency cap, so the servers' own overhead shows.
//!
//! What each server is asked, and what the mock answers, is in `bench/specs.rs`; the mock
//! in `bench/mock.rs`; the phases in `bench/measure.rs`; the tables in `bench/table.rs`.
//!
//! `--command '<program and args>' --tool NAME --args '<json with {n}>'` measures any
//! stdio MCP server the same way (run through `sh -c 'exec …'`); `{mock}` in `--env`
//! values becomes the mock's base URL. The mock then answers `--route-fixture
//! <path-regex>=<file>` routes with the file and everything else with `{}`; its request
//! counts only mean something if the server talks to it.
//!
//! Not run in CI: timings depend on the machine and its load. Linux for memory (`/proc`).

pub(crate) mod measure;
pub(crate) mod mock;
pub(crate) mod specs;
pub(crate) mod table;

use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::{Context as _, bail};
use lifesciences_core::config::{CONCURRENCY_RANGE, ENV_CACHE_TTL_SECS, RATE_RANGE};

use crate::servers::{self, ServerEntry};
use measure::{Plan, Target};
use mock::{CatchAll, Route, Upstream};
use table::{Limit, Report};

/// Whether the servers pace their upstream requests as configured.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum Pacing {
    /// Each upstream's configured rate and concurrency cap.
    On,
    /// `<PREFIX>_RATE_LIMIT` and `<PREFIX>_MAX_CONCURRENT` at their maximums (10000/s,
    /// 1000): only the server's own overhead is left.
    Off,
}

/// The options of `cargo xtask bench`.
#[derive(Debug, Clone, clap::Args)]
pub(crate) struct BenchArgs {
    /// Only this server (e.g. ensembl-mcp).
    #[arg(long, conflicts_with = "command")]
    only: Option<String>,
    /// The mock upstream's latency per response, in milliseconds.
    #[arg(long, default_value_t = 50)]
    latency_ms: u64,
    /// Tool calls per server session before the final RSS reading (the measured phases
    /// count; distinct calls top up the rest).
    #[arg(long, default_value_t = 300)]
    calls: usize,
    /// `off` lifts every upstream's rate limit and concurrency cap.
    #[arg(long, value_enum, default_value_t = Pacing::On)]
    pacing: Pacing,
    /// Measure another stdio MCP server: its program and arguments, run with `sh -c 'exec …'`.
    #[arg(long, requires_all = ["tool", "args"])]
    command: Option<String>,
    /// With --command: the tool to call.
    #[arg(long, requires = "command")]
    tool: Option<String>,
    /// With --command: the tool's arguments as JSON, where the letter n in curly braces
    /// becomes a number that makes each call distinct (help text cannot show it: clap
    /// prints it as a line break), e.g. an "id" of "ENSG" followed by that placeholder.
    #[arg(long, requires = "command")]
    args: Option<String>,
    /// With --command: an environment variable for the server; `{mock}` in the value
    /// becomes the mock upstream's base URL (e.g. MY_API_URL={mock}/api). Repeatable.
    #[arg(long = "env", value_name = "KEY=VALUE", requires = "command")]
    env: Vec<String>,
    /// With --command: answer requests whose path matches the regex with the file's
    /// contents (any method, status 200); all other requests get `{}`. Repeatable.
    #[arg(
        long = "route-fixture",
        value_name = "PATH_REGEX=FILE",
        requires = "command"
    )]
    route_fixture: Vec<String>,
}

/// The profile the bench's own client runs in: optimised, and quick to build.
const CLIENT_PROFILE: &str = "xtask-bench";

/// `cargo xtask` is a debug build, whose MCP client would add its own overhead (about a
/// millisecond per call) to what is measured: from a debug build, run the same command
/// line again from an optimised one (the [`CLIENT_PROFILE`]) and return how that went;
/// `None` when this already is the optimised build. `what` names the command in messages.
pub(crate) fn rerun_optimised(what: &str) -> Option<anyhow::Result<()>> {
    if !cfg!(debug_assertions) {
        return None;
    }
    eprintln!("{what}: building its client with the {CLIENT_PROFILE} profile…");
    let status =
        std::process::Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
            .args([
                "run",
                "--quiet",
                "--profile",
                CLIENT_PROFILE,
                "-p",
                "xtask",
                "--",
            ])
            .args(std::env::args_os().skip(1))
            .status()
            .context("cannot run cargo");
    Some(match status {
        Ok(status) if status.success() => Ok(()),
        Ok(status) => Err(anyhow::anyhow!("the optimised {what} failed ({status})")),
        Err(e) => Err(e),
    })
}

pub(crate) fn run(args: &BenchArgs) -> anyhow::Result<()> {
    if let Some(rerun) = rerun_optimised("bench") {
        return rerun;
    }
    if !Path::new("/proc/self/status").exists() {
        eprintln!("bench: no /proc here: resident memory is not measured");
    }
    let latency = Duration::from_millis(args.latency_ms);
    let reports = match &args.command {
        Some(command) => {
            let runtime = runtime()?;
            vec![runtime.block_on(generic(args, command, latency))?]
        }
        None => {
            let entries = servers::select(args.only.as_deref())?;
            let mut specs = Vec::with_capacity(entries.len());
            for entry in &entries {
                let spec = specs::spec(entry.name)
                    .with_context(|| format!("no bench spec for {}", entry.name))?;
                crate::demo::check_points_at_mock(entry, &spec.upstreams)?;
                specs.push(spec);
            }
            let binaries = crate::demo::build(&entries, true)?;
            let runtime = runtime()?;
            let mut reports = Vec::with_capacity(entries.len());
            for ((entry, spec), binary) in entries.iter().zip(&specs).zip(&binaries) {
                reports.push(runtime.block_on(server(entry, spec, binary, args, latency))?);
            }
            reports
        }
    };
    let pacing = match (&args.command, args.pacing) {
        (Some(_), _) => "as the command's environment sets it",
        (None, Pacing::On) => "on",
        (None, Pacing::Off) => "off",
    };
    println!(
        "## cargo xtask bench: pacing {pacing}, mock latency {} ms\n",
        args.latency_ms
    );
    for report in &reports {
        println!("{}", table::table(report));
    }
    if reports.len() > 1 {
        println!("{}", table::summary(&reports));
    }
    Ok(())
}

pub(crate) fn runtime() -> anyhow::Result<tokio::runtime::Runtime> {
    Ok(tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?)
}

/// Bench one server of the workspace.
async fn server(
    entry: &ServerEntry,
    spec: &specs::Spec,
    binary: &Path,
    args: &BenchArgs,
    latency: Duration,
) -> anyhow::Result<Report> {
    eprintln!("{}: {} {}", entry.name, spec.tool, spec.args);
    let mock = Upstream::start(&spec.routes, CatchAll::NotFound, latency).await?;
    let mut env = Vec::new();
    let mut limits = Vec::new();
    for config in (entry.upstreams)()? {
        let upstream = config.upstream;
        let url_var = upstream.url_var();
        let prefix = spec
            .upstreams
            .iter()
            .find(|(var, _)| *var == url_var)
            .map(|(_, prefix)| *prefix)
            .with_context(|| format!("the {} bench spec does not set {url_var}", entry.name))?;
        env.push((url_var, format!("{}{prefix}", mock.uri())));
        // Set even when pacing is on, so a rate in the caller's environment cannot skew
        // the run: the table reports the rate the server was given.
        let (rate, concurrency) = match args.pacing {
            Pacing::On => (config.rate_per_second, config.max_concurrent as f64),
            Pacing::Off => (*RATE_RANGE.end(), *CONCURRENCY_RANGE.end()),
        };
        env.push((upstream.rate_var(), number(rate)));
        env.push((upstream.concurrency_var(), number(concurrency)));
        limits.push(Limit {
            name: upstream.name.to_owned(),
            prefix: prefix.to_owned(),
            rate,
        });
    }
    let slowest = limits.iter().map(|l| l.rate).fold(f64::INFINITY, f64::min);
    let target = Target {
        program: binary.to_path_buf(),
        args: Vec::new(),
        env,
        // The cached-call row needs the cache on (it is, by default).
        env_remove: vec![ENV_CACHE_TTL_SECS.to_owned()],
        tool: spec.tool.to_owned(),
        template: spec.args.to_owned(),
    };
    let plan = Plan {
        pause: pause(slowest),
        calls: args.calls,
    };
    let measured = measure::run(&target, &mock.log, plan)
        .await
        .with_context(|| entry.name.to_owned())?;
    Ok(Report {
        name: entry.name.to_owned(),
        call: format!("{} {}", spec.tool, spec.args),
        about: Some(spec.about.to_owned()),
        binary_bytes: std::fs::metadata(binary).ok().map(|m| m.len()),
        limits,
        measured,
    })
}

/// The pause before a lone call: long enough for any one-second rate window to have
/// emptied (a rate below 1/s spaces requests further apart).
fn pause(slowest_rate: f64) -> Duration {
    let rate = if slowest_rate.is_finite() && slowest_rate > 0.0 {
        slowest_rate.min(1.0)
    } else {
        1.0
    };
    Duration::from_secs_f64(1.1 / rate)
}

/// A number as an environment variable holds it: `10`, `2.5`.
pub(crate) fn number(n: f64) -> String {
    if n.fract() == 0.0 {
        format!("{n:.0}")
    } else {
        n.to_string()
    }
}

/// Bench any stdio MCP server command.
async fn generic(args: &BenchArgs, command: &str, latency: Duration) -> anyhow::Result<Report> {
    let (Some(tool), Some(template)) = (&args.tool, &args.args) else {
        bail!("--command needs --tool and --args");
    };
    if args.pacing == Pacing::Off {
        bail!(
            "--pacing off only knows the workspace's servers; pass the command's own \
             rate settings with --env"
        );
    }
    measure::arguments(template, measure::FIRST_N).context("--args")?;
    let routes = args
        .route_fixture
        .iter()
        .map(|pair| Route::parse_pair(pair))
        .collect::<anyhow::Result<Vec<_>>>()?;
    let mock = Upstream::start(&routes, CatchAll::EmptyObject, latency).await?;
    let mut env = Vec::new();
    for pair in &args.env {
        let Some((key, value)) = pair.split_once('=') else {
            bail!("--env {pair:?}: expected KEY=VALUE");
        };
        env.push((key.to_owned(), value.replace("{mock}", &mock.uri())));
    }
    eprintln!(
        "{command}: {tool} {template} (mock upstream at {})",
        mock.uri()
    );
    let target = Target {
        program: PathBuf::from("sh"),
        args: vec!["-c".to_owned(), format!("exec {command}")],
        env,
        env_remove: Vec::new(),
        tool: tool.clone(),
        template: template.clone(),
    };
    let plan = Plan {
        pause: pause(1.0),
        calls: args.calls,
    };
    let measured = measure::run(&target, &mock.log, plan).await?;
    Ok(Report {
        name: command.to_owned(),
        call: format!("{tool} {template}"),
        about: None,
        binary_bytes: program_of(command).and_then(|p| std::fs::metadata(p).ok().map(|m| m.len())),
        limits: Vec::new(),
        measured,
    })
}

/// The file the command's first word names: a path, or found on `PATH`.
fn program_of(command: &str) -> Option<PathBuf> {
    let first = command.split_whitespace().next()?;
    if first.contains('/') {
        return Some(PathBuf::from(first));
    }
    std::env::split_paths(&std::env::var_os("PATH")?)
        .map(|dir| dir.join(first))
        .find(|p| p.is_file())
}
