//! Project automation, run as `cargo xtask <command>`:
//!
//! - `demo`: build the servers, serve their fixtures from a local mock upstream, and run
//!   each through a short scripted MCP session over stdio, printing what a user would see.
//! - `docs [--check]`: write `docs/tools.md` from the servers' tool definitions (`--check`
//!   fails when it is stale; CI runs it).
//! - `bundle [--debug]`: the gateway as a Claude Desktop extension (`.mcpb`, checked and
//!   packed with npm's `@anthropic-ai/mcpb`) and its `server.json` for the MCP registry.
//! - `dist`: every artifact a user installs (PyPI wheel, npm packages, container image,
//!   Claude Desktop bundle, `server.json`), built for this machine into `target/dist/` and
//!   each smoke-tested as a user installs and starts it (a release build; not in CI).
//! - `smoke -- <command…>`: start an installed artifact as an MCP client would; it must
//!   answer `initialize` and list every tool (the release workflow runs it on each platform).
//! - `live`: run the opt-in tests against the real upstream APIs (network required).
//! - `clients`: run every server, over stdio and Streamable HTTP, through third-party MCP
//!   clients (TypeScript SDK, MCP Inspector CLI, the MCP conformance suite, Ajv strict) against
//!   a local mock upstream. Opt-in: it needs npm, and the npm registry once.
//! - `sessions`: the resident memory of each server in HTTP mode across 10,000 abandoned
//!   sessions, which must level off; `--hold N`: what one abandoned session holds, awake
//!   and once put to sleep (Linux; opt-in, not in CI).
//! - `igvf-openapi --from <path-or-url>`: refresh the OpenAPI spec igvf-mcp embeds.
//! - `bench [--only <server>] [--pacing off]`: cold start, memory, latency and upstream
//!   requests of each release-built server against a local mock upstream with a fixed
//!   latency, as markdown tables; `--command` measures any stdio MCP server the same way
//!   (offline; opt-in, not in CI).
//! - `fleet`: the gateway as a fleet sharing one store: three HTTP replicas on Redis and
//!   three stdio processes on the embedded store, under load against mock upstreams; the
//!   busiest second per upstream against its rate, calls answered on another replica or
//!   after a restart, a Redis outage, and what a store hit costs (offline; not in CI).
#![expect(
    clippy::print_stdout,
    clippy::print_stderr,
    reason = "xtask is a terminal program: its output is for a person"
)]

mod bench;
mod bundle;
mod clients;
mod demo;
#[cfg(test)]
mod directories;
mod dist;
mod docs;
mod fleet;
mod igvf_openapi;
mod live;
mod servers;
mod sessions;
mod shape;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(name = "cargo xtask", about = "lifesciences-mcp project automation")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Package the gateway as a Claude Desktop extension (.mcpb) and write its server.json.
    ///
    /// Builds lifesciences-mcp (release) or takes each platform's build from --binaries,
    /// writes manifest.json with the settings people change (each with its default),
    /// validates and packs it with @anthropic-ai/mcpb (npm, fetched once by npx), and
    /// writes server.json for the MCP registry beside it, checked against its schema.
    Bundle {
        /// Bundle the debug build (faster; for trying the bundle out).
        #[arg(long)]
        debug: bool,
        /// Bundle the builds in this folder instead, one per platform, as the release
        /// workflow lays them out: linux-x64/lifesciences-mcp, darwin/lifesciences-mcp
        /// (universal), win32-x64/lifesciences-mcp.exe.
        #[arg(long, value_name = "DIR")]
        binaries: Option<PathBuf>,
    },
    /// Build every artifact a user installs for this machine into target/dist, and
    /// smoke-test each as a user installs and starts it (release build; not in CI).
    ///
    /// The PyPI wheel (a fresh virtual environment, pip install), the npm packages (npm
    /// install of the tarballs into an empty folder), the container image (when buildah is
    /// present), the Claude Desktop bundle (launched with every setting left blank) and
    /// server.json (checked against the registry's schema). Each must answer initialize
    /// and tools/list.
    Dist,
    /// Start an installed artifact as an MCP client would and check it answers initialize
    /// and lists every tool (the release workflow's smoke test on each platform).
    ///
    /// Example: `cargo xtask smoke -- npx --no-install lifesciences-mcp`.
    Smoke {
        /// The command and its arguments.
        #[arg(required = true, trailing_var_arg = true, allow_hyphen_values = true)]
        command: Vec<String>,
    },
    /// Run every server through a scripted MCP session against a local mock upstream.
    Demo {
        /// Only this server (e.g. string-mcp).
        #[arg(long)]
        only: Option<String>,
    },
    /// Write docs/tools.md from the servers' tool definitions.
    Docs {
        /// Fail (exit 1) when docs/tools.md is not up to date, instead of writing it.
        #[arg(long)]
        check: bool,
    },
    /// Run the opt-in live tests against the real upstream APIs (needs the network).
    Live {
        /// Extra arguments for `cargo test` (e.g. `-p string-mcp`).
        #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
        cargo_args: Vec<String>,
    },
    /// Run every server through third-party MCP clients over stdio and HTTP (opt-in; npm).
    ///
    /// The TypeScript SDK, the MCP Inspector CLI, the MCP conformance suite and Ajv strict
    /// mode, against a local mock upstream. Needs npm; the pinned clients
    /// (xtask/clients/package.json) are installed once into `<target>/clients`.
    Clients {
        /// Only this server (e.g. string-mcp).
        #[arg(long)]
        only: Option<String>,
    },
    /// Open many HTTP sessions and abandon them; fail unless memory levels off (Linux).
    ///
    /// Each server runs with `serve --http`; the sessions are opened with `initialize`
    /// and never used or ended. Idle ones must expire, and at the cap new ones take the
    /// place of idle ones, so the resident set stops growing. With --hold: what one
    /// abandoned session holds, awake and once put to sleep (a release build).
    Sessions {
        /// Only this server (e.g. ensembl-mcp).
        #[arg(long)]
        only: Option<String>,
        /// Sessions to open (at the cap, it waits for idle ones to expire).
        #[arg(long, default_value_t = 10_000)]
        count: usize,
        /// The server's `--session-idle-secs`.
        #[arg(long, default_value_t = 2)]
        idle_secs: u64,
        /// The server's `--max-sessions`.
        #[arg(long, default_value_t = 1000)]
        max_sessions: usize,
        /// Measure what one abandoned session holds instead: open this many sessions in each
        /// batch, and read the resident set while they are awake and once they sleep.
        #[arg(long, value_name = "N")]
        hold: Option<usize>,
        /// With --hold: how many batches of sessions to open, one after the other.
        #[arg(long, default_value_t = 5)]
        batches: usize,
        /// With --hold: the server's `--session-hibernate-secs`.
        #[arg(long, default_value_t = 5)]
        hibernate_secs: u64,
        /// With --hold: the most an abandoned session may hold once asleep, in kB.
        #[arg(long, default_value_t = 20.0)]
        budget_kb: f64,
    },
    /// Benchmark the servers (release builds) against a local mock upstream (offline).
    ///
    /// Per server, a markdown table: cold start to `initialize` answered, binary size,
    /// resident memory idle and after `--calls` calls, p50/p95 latency of lone uncached,
    /// cached and back-to-back uncached calls, 100 identical and 100 distinct concurrent
    /// calls (wall time, upstream requests), and the busiest second of upstream requests
    /// against the configured rate. Not run in CI: timings depend on the machine.
    Bench {
        #[command(flatten)]
        args: bench::BenchArgs,
    },
    /// Run three gateway replicas on Redis and three stdio processes on the embedded store
    /// under load against mock upstreams, and print how well they share it (offline).
    ///
    /// Per upstream, the busiest one-second window of requests against its rate; the
    /// upstream requests of a call repeated on another replica, or in a new process after
    /// a kill; failed calls and /health while Redis is down and after it is back; and
    /// p50/p90 of a store hit against an in-process hit. Needs redis-server (install it
    /// with .ci/install-redis). Not run in CI: timings depend on the machine.
    Fleet {
        #[command(flatten)]
        args: fleet::FleetArgs,
    },
    /// Refresh the IGVF Catalog OpenAPI spec embedded by igvf-mcp (trimmed).
    IgvfOpenapi {
        /// The full spec: a file, or an http(s) URL (fetched only then).
        #[arg(long)]
        from: String,
        /// Fail when the embedded spec differs, instead of writing it.
        #[arg(long)]
        check: bool,
    },
}

/// The workspace root (xtask lives one level below it).
pub fn workspace_root() -> PathBuf {
    let manifest = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    manifest.parent().map(PathBuf::from).unwrap_or(manifest)
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let outcome = match cli.command {
        Command::Demo { only } => demo::run(only.as_deref()),
        Command::Dist => dist::run(),
        Command::Smoke { command } => dist::smoke::run(&command),
        Command::Bundle { debug, binaries } => bundle::run(debug, binaries.as_deref()).map(|_| ()),
        Command::Docs { check } => docs::run(check),
        Command::Live { cargo_args } => live::run(&cargo_args),
        Command::Clients { only } => clients::run(only.as_deref()),
        Command::Sessions {
            hold: Some(hold),
            only,
            batches,
            hibernate_secs,
            budget_kb,
            ..
        } => sessions::hold(only.as_deref(), hold, batches, hibernate_secs, budget_kb),
        Command::Sessions {
            only,
            count,
            idle_secs,
            max_sessions,
            ..
        } => sessions::run(only.as_deref(), count, idle_secs, max_sessions),
        Command::IgvfOpenapi { from, check } => igvf_openapi::run(&from, check),
        Command::Bench { args } => bench::run(&args),
        Command::Fleet { args } => fleet::run(&args),
    };
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("xtask: {e:#}");
            ExitCode::FAILURE
        }
    }
}
