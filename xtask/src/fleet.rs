//! `cargo xtask fleet`: the gateway as a fleet shares one store, measured offline against
//! mock upstreams that log when every request arrives (never in CI: timings depend on
//! the machine).
//!
//! It builds the gateway (release), starts one mock per upstream (`fleet/upstreams.rs`:
//! the bench's recorded fixtures, a fixed latency), and then:
//!
//! 1. with Redis (`redis-server` on a unix socket in a temporary folder) and three
//!    replicas (`serve --http` on loopback ports, `LIFESCIENCES_REDIS_URL` set):
//!    - **3** distinct concurrent calls spread over the three for `--seconds`: per upstream,
//!      the busiest one-second window of arrivals at the mock against its rate;
//!    - **4** a call on replica 1, then the same on replica 2 (upstream requests: goal 0);
//!      a new call on all three at once (goal: what one call costs);
//!    - **5** the same load with Redis killed part way: failed calls (goal 0), `/health`
//!      of each replica (degraded), the busiest window during the outage (each replica
//!      holds rate/N); Redis restarted on the same socket, and how soon `/health` is ok;
//! 2. with three stdio processes on the embedded store (one fresh `LIFESCIENCES_CACHE_DIR`):
//!    - **6** the same load through the three; a call in process A, A killed, a new
//!      process, the same call (goal 0);
//! 3. **7** what a store hit costs (the answer in the store, not in the process): calls
//!    made through one replica or process, then timed through another, p50/p90 for Redis
//!    and SQLite; then again through the same one (in-process hits).
//!
//! Each part prints one markdown table. `--starved` pins every server to CPU 0 at nice
//! 10 beside a busy loop there: the windows must hold even then. Every process it starts
//! is ended, and its folder removed, when it finishes, fails or is interrupted.
//!
//! The mocks are in `fleet/upstreams.rs`, the clients in `fleet/mcp.rs`, the processes
//! in `fleet/procs.rs`, the load in `fleet/load.rs`.

mod fairness;
mod load;
mod mcp;
mod procs;
mod upstreams;

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::{Context as _, bail};
use lifesciences_core::config::ENV_CACHE_TTL_SECS;
use lifesciences_core::store::{ENV_CACHE_DIR, ENV_OFFLINE, ENV_REDIS_URL};
use serde_json::Value;

use crate::bench::table::{ms, percentile, rate};
use crate::servers;
use load::{Counter, Tally};
use mcp::{Caller, StdioServer};
use procs::{Launch, Replica, ReplicaPlan, TempDir};
use upstreams::{LoadTool, Mocks, Received};

/// Which halves of the run to do.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum Half {
    /// Parts 3, 4, 5 and Redis's row of 7: replicas over HTTP sharing Redis.
    Redis,
    /// Parts 6 and SQLite's row of 7: stdio processes on the embedded store.
    Stdio,
    /// Part 8 alone: two principals' fair shares of one paced upstream, three replicas.
    Fairness,
}

/// The options of `cargo xtask fleet`.
#[derive(Debug, Clone, clap::Args)]
pub(crate) struct FleetArgs {
    /// Seconds each load phase makes new calls for (the calls in flight then finish).
    #[arg(long, default_value_t = 10)]
    seconds: u64,
    /// The mock upstreams' latency per response, in milliseconds.
    #[arg(long, default_value_t = 50)]
    latency_ms: u64,
    /// Workers per replica (or process) and tool, each making one call after another.
    #[arg(long, default_value_t = 2)]
    workers: usize,
    /// Calls timed for each store-hit row.
    #[arg(long, default_value_t = 30)]
    samples: usize,
    /// Pin every replica and process to CPU 0 at nice 10, beside a busy loop on CPU 0.
    #[arg(long)]
    starved: bool,
    /// Part 8: the calls the heavy principal keeps in flight across the replicas.
    #[arg(long, default_value_t = 90)]
    heavy: usize,
    /// Start the replicas with `serve --http … --stateless`.
    #[arg(long)]
    stateless: bool,
    /// Only this half: `redis` (parts 3–5, 7) or `stdio` (parts 6, 7).
    #[arg(long, value_enum)]
    only: Option<Half>,
    /// Run this gateway binary instead of building one (release) from the checkout.
    #[arg(long, value_name = "PATH")]
    binary: Option<PathBuf>,
}

/// The tool whose store hits part 7 times: one upstream request per call (IGVF Catalog,
/// 10/s), so a call is one read of the store.
const HIT_TOOL: &str = "igvf_get_entity";
/// How long to wait between parts, so that every one-second window of the last has
/// closed (a request counts until one second after its answer).
const SETTLE: Duration = Duration::from_millis(1500);
/// Part 5 shows the busiest second of the first moments after Redis was killed apart
/// from the rest of the outage: the switch to the local budget, and the local budget.
const AFTER_KILL: Duration = Duration::from_secs(2);

pub(crate) fn run(args: &FleetArgs) -> anyhow::Result<()> {
    if let Some(rerun) = crate::bench::rerun_optimised("fleet") {
        return rerun;
    }
    let redis = match args.only {
        Some(Half::Stdio) => None,
        _ => Some(procs::find_redis()?),
    };
    if args.starved && cfg!(not(target_os = "linux")) {
        bail!("--starved pins processes with taskset: Linux only");
    }
    let binary = match &args.binary {
        Some(binary) => binary.clone(),
        None => crate::demo::build(&[servers::gateway()], true)?
            .into_iter()
            .next()
            .context("no gateway binary was built")?,
    };
    let runtime = crate::bench::runtime()?;
    runtime.block_on(async {
        tokio::select! {
            done = fleet(args, &binary, redis) => done,
            _ = tokio::signal::ctrl_c() => bail!("interrupted: every process it started is ended"),
        }
    })
}

/// Everything the parts share.
struct Ctx<'a> {
    args: &'a FleetArgs,
    binary: &'a Path,
    dir: &'a TempDir,
    mocks: Mocks,
    launch: Launch,
    counter: Counter,
    /// Part 7's rows, printed last.
    hits: Vec<HitRow>,
}

async fn fleet(args: &FleetArgs, binary: &Path, redis: Option<PathBuf>) -> anyhow::Result<()> {
    let dir = TempDir::new()?;
    let mocks = Mocks::start(Duration::from_millis(args.latency_ms)).await?;
    let _hog = if args.starved {
        Some(procs::hog()?)
    } else {
        None
    };
    let mut ctx = Ctx {
        args,
        binary,
        dir: &dir,
        mocks,
        launch: if args.starved {
            Launch::starved()
        } else {
            Launch::default()
        },
        counter: Counter::default(),
        hits: Vec::new(),
    };
    println!("{}\n", header(&ctx, redis.is_some()));
    if args.only == Some(Half::Fairness) {
        let program = redis.context("part 8 needs Redis")?;
        let redis = procs::start_redis(program)?;
        println!("{}", fair_part(&ctx, &redis.url()).await?);
        return Ok(());
    }
    if let Some(program) = redis {
        redis_half(&mut ctx, program).await?;
    }
    if args.only != Some(Half::Redis) {
        stdio_half(&mut ctx).await?;
    }
    println!("{}", hit_table(&ctx.hits, args.samples));
    Ok(())
}

/// Part 8 (see `fleet/fairness.rs`).
async fn fair_part(ctx: &Ctx<'_>, redis_url: &str) -> anyhow::Result<String> {
    let load = fairness::Load {
        heavy_in_flight: ctx.args.heavy,
        seconds: ctx.args.seconds.max(10),
    };
    fairness::part(ctx, redis_url, &load).await
}

fn header(ctx: &Ctx<'_>, with_redis: bool) -> String {
    let version = std::process::Command::new(ctx.binary)
        .arg("--version")
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_owned())
        .unwrap_or_default();
    let cpus = std::thread::available_parallelism().map_or(0, usize::from);
    let mut line = format!(
        "## cargo xtask fleet: {version}; mock upstreams answer after {} ms; {cpus} CPUs",
        ctx.args.latency_ms
    );
    if with_redis {
        let _ = write!(line, "; Redis on a unix socket");
    }
    if ctx.args.starved {
        let _ = write!(
            line,
            "; starved (every server on CPU 0 at nice 10, beside a busy loop)"
        );
    }
    line
}

/// Parts 3, 4, 5 and Redis's store hits.
async fn redis_half(ctx: &mut Ctx<'_>, program: PathBuf) -> anyhow::Result<()> {
    let mut redis = procs::start_redis(program)?;
    eprintln!(
        "fleet: Redis {} on {}",
        procs::redis_version(redis.program()),
        redis.url()
    );
    let mut replicas = Vec::new();
    for i in 1..=3 {
        let mut env = ctx.mocks.env();
        env.push((ENV_REDIS_URL.to_owned(), redis.url()));
        // Its own folder, so the user's cache is never touched and the replicas share
        // nothing but Redis.
        let own = ctx.dir.path().join(format!("replica-{i}-cache"));
        env.push((ENV_CACHE_DIR.to_owned(), own.display().to_string()));
        let plan = ReplicaPlan {
            binary: ctx.binary,
            launch: &ctx.launch,
            env: &env,
            remove: &[ENV_OFFLINE, ENV_CACHE_TTL_SECS],
            stateless: ctx.args.stateless,
            token: None,
        };
        let log = ctx.dir.path().join(format!("replica-{i}.log"));
        let replica = Replica::start(&plan, &log)
            .await
            .with_context(|| format!("replica {i}"))?;
        eprintln!("fleet: replica {i} on http://{}/mcp", replica.addr);
        replicas.push(replica);
    }
    let callers: Vec<Caller> = replicas
        .iter()
        .map(|r| Caller::Http(r.session.clone()))
        .collect();
    verify(ctx, &callers[0]).await?;

    println!(
        "{}",
        load_part(ctx, &callers, 3, "Three replicas sharing Redis", "replica").await
    );

    tokio::time::sleep(SETTLE).await;
    eprintln!("fleet: part 4, the same call on another replica, and on all three at once");
    println!("{}", second_replica(ctx, &callers).await);

    tokio::time::sleep(SETTLE).await;
    eprintln!("fleet: part 5, Redis killed during the load");
    let part5 = outage(ctx, &callers, &replicas, &mut redis).await?;
    println!("{part5}");

    tokio::time::sleep(SETTLE).await;
    println!("{}", fair_part(ctx, &redis.url()).await?);

    tokio::time::sleep(SETTLE).await;
    eprintln!("fleet: part 7, store hits through Redis");
    let row = hit_cost(ctx, &callers[0], &callers[1], "Redis", "replica").await?;
    ctx.hits.push(row);
    for (i, _) in replicas.iter().enumerate() {
        let log = ctx.dir.path().join(format!("replica-{}.log", i + 1));
        let (count, first) = procs::warnings(&log);
        if count > 0 {
            eprintln!(
                "fleet: replica {} logged {count} warning(s); first: {}",
                i + 1,
                first.unwrap_or_default()
            );
        }
    }
    drop(replicas);
    drop(redis);
    Ok(())
}

/// Part 6 and SQLite's store hits.
async fn stdio_half(ctx: &mut Ctx<'_>) -> anyhow::Result<()> {
    let store = ctx.dir.path().join("sqlite-store");
    let mut env = ctx.mocks.env();
    env.push((ENV_CACHE_DIR.to_owned(), store.display().to_string()));
    let remove = [ENV_REDIS_URL, ENV_OFFLINE, ENV_CACHE_TTL_SECS];
    let (program, args) = ctx.launch.program(ctx.binary, &[]);
    let start = |name: &'static str| {
        let log = ctx.dir.path().join(format!("stdio-{name}.log"));
        let (program, args, env) = (program.clone(), args.clone(), env.clone());
        async move {
            StdioServer::start(&program, &args, &env, &remove, &log)
                .await
                .with_context(|| format!("stdio process {name}"))
        }
    };
    let a = start("A").await?;
    let b = start("B").await?;
    let c = start("C").await?;
    let callers = vec![a.caller(), b.caller(), c.caller()];
    verify(ctx, &callers[0]).await?;

    let mut table = load_part(
        ctx,
        &callers,
        6,
        "Three stdio processes on the embedded store (SQLite)",
        "process",
    )
    .await;

    tokio::time::sleep(SETTLE).await;
    eprintln!("fleet: part 6, a call in process A, A killed, the same call in a new process");
    let asked: Vec<(LoadTool, serde_json::Map<String, Value>)> = ctx
        .mocks
        .tools
        .iter()
        .map(|t| Ok((t.clone(), t.arguments(ctx.counter.next())?)))
        .collect::<anyhow::Result<_>>()?;
    let mut first = Vec::new();
    for (tool, arguments) in &asked {
        let mark = ctx.mocks.mark();
        let outcome = callers[0].call(tool.tool, arguments.clone()).await;
        first.push((ctx.mocks.calls_since(&mark), outcome.error));
    }
    a.kill().await?;
    let d = start("D").await?;
    let _ = writeln!(
        table,
        "\nRestart: each call made in process A, A killed (SIGKILL), the same call in a new \
         process D: upstream requests (goal in D: none but those no cache keeps).\n\n\
         | tool | in A | in D (goal) |\n|---|---|---|"
    );
    for ((tool, arguments), (before, error)) in asked.iter().zip(first) {
        let mark = ctx.mocks.mark();
        let outcome = d.caller().call(tool.tool, arguments.clone()).await;
        let after = count_cell(ctx, &mark, tool.never_cached);
        let _ = writeln!(
            table,
            "| {} | {} | {} |",
            tool.tool,
            with_error(before.to_string(), error.as_deref()),
            with_error(after, outcome.error.as_deref())
        );
    }
    println!("{table}");

    tokio::time::sleep(SETTLE).await;
    eprintln!("fleet: part 7, store hits through SQLite");
    let row = hit_cost(ctx, &callers[1], &callers[2], "SQLite", "process").await?;
    ctx.hits.push(row);
    for server in [b, c, d] {
        server.stop().await;
    }
    for name in ["A", "B", "C", "D"] {
        let (count, first) = procs::warnings(&ctx.dir.path().join(format!("stdio-{name}.log")));
        if count > 0 {
            eprintln!(
                "fleet: process {name} logged {count} warning(s); first: {}",
                first.unwrap_or_default()
            );
        }
    }
    Ok(())
}

/// Every load tool must succeed once against the mocks, or the run means nothing.
async fn verify(ctx: &Ctx<'_>, caller: &Caller) -> anyhow::Result<()> {
    for tool in &ctx.mocks.tools {
        let arguments = tool.arguments(ctx.counter.next())?;
        let shown = Value::Object(arguments.clone());
        if let Some(error) = caller.call(tool.tool, arguments).await.error {
            bail!(
                "{} {shown} does not succeed against the mocks: {error}",
                tool.tool
            );
        }
    }
    Ok(())
}

/// Parts 3 and 6: once the store has settled, the load on the three `callers` (each a
/// `caller`: replica or process) for the run's length, and the table of part `part`.
async fn load_part(
    ctx: &Ctx<'_>,
    callers: &[Caller],
    part: u8,
    title: &str,
    caller: &str,
) -> String {
    tokio::time::sleep(SETTLE).await;
    eprintln!(
        "fleet: part {part}, {} s of load: {title}",
        ctx.args.seconds
    );
    let mark = ctx.mocks.mark();
    let tally = load::run(
        callers,
        &ctx.mocks.tools,
        ctx.args.workers,
        Duration::from_secs(ctx.args.seconds),
        &ctx.counter,
    )
    .await;
    let received = ctx.mocks.since(&mark);
    load_table(&format!("{part}. {title}"), ctx, caller, &tally, &received)
}

/// A load's table: per upstream, requests and the busiest second against the rate.
fn load_table(
    title: &str,
    ctx: &Ctx<'_>,
    callers: &str,
    tally: &Tally,
    received: &[Received],
) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "### {title}\n");
    let _ = writeln!(
        out,
        "{} s of distinct calls, {} worker(s) per {callers} and tool ({}): {}; {:.1} s \
         until the last answer.\n",
        ctx.args.seconds,
        ctx.args.workers,
        ctx.mocks
            .tools
            .iter()
            .map(|t| t.tool)
            .collect::<Vec<_>>()
            .join(", "),
        tally.summary(),
        tally.wall().as_secs_f64()
    );
    let _ = writeln!(
        out,
        "| upstream | rate | requests | busiest 1 s | within the rate |\n|---|---|---|---|---|"
    );
    for r in received.iter().filter(|r| !r.arrivals.is_empty()) {
        let busiest = r.busiest();
        let _ = writeln!(
            out,
            "| {} | {} | {} | {busiest} | {} |",
            r.name,
            rate(r.rate),
            requests(r),
            verdict(busiest, r.rate)
        );
    }
    out
}

/// `412`, or `412 (3 release look-ups)`.
fn requests(r: &Received) -> String {
    if r.releases > 0 {
        format!("{} ({} release look-ups)", r.arrivals.len(), r.releases)
    } else {
        r.arrivals.len().to_string()
    }
}

fn verdict(busiest: usize, rate: f64) -> &'static str {
    if busiest as f64 <= rate {
        "yes"
    } else {
        "**no**"
    }
}

fn with_error(text: String, error: Option<&str>) -> String {
    match error {
        None => text,
        Some(e) => {
            let short: String = e.chars().take(120).collect();
            format!("{text} (the call failed: {})", short.replace('|', "\\|"))
        }
    }
}

/// The upstream requests since `mark` against their `goal`: `0 (0)`, or with the
/// upstreams named when it missed, `5: ChEMBL 4, UniChem 1 (3)`.
fn count_cell(ctx: &Ctx<'_>, mark: &upstreams::Mark, goal: usize) -> String {
    let count = ctx.mocks.calls_since(mark);
    if count == goal {
        format!("{count} ({goal})")
    } else {
        format!(
            "**{count}**: {} ({goal})",
            ctx.mocks.calls_since_by_upstream(mark)
        )
    }
}

/// Part 4: per tool, a call on replica 1, the same on replica 2, and a new one on all
/// three at once.
async fn second_replica(ctx: &Ctx<'_>, callers: &[Caller]) -> String {
    let mut out = String::from(
        "### 4. The same call on another replica\n\n\
         Upstream requests (release look-ups left out) of a call on replica 1, of the same \
         call on replica 2 100 ms after its answer, and of a new call sent to all three \
         replicas at the same moment. The goals: nothing asked again, and a call made at \
         once on three replicas asked once, but for requests no cache keeps.\n\n\
         | tool (a distinct call asks) | first call, replica 1 | same call, replica 2 \
         (goal) | new call on all 3 at once (goal) |\n|---|---|---|---|\n",
    );
    for tool in &ctx.mocks.tools {
        let (first, again) = (ctx.counter.next(), ctx.counter.next());
        let (Ok(first), Ok(again)) = (tool.arguments(first), tool.arguments(again)) else {
            continue;
        };
        let mark = ctx.mocks.mark();
        let one = callers[0].call(tool.tool, first.clone()).await;
        let cold = ctx.mocks.calls_since(&mark);
        let cold_by_upstream = ctx.mocks.calls_since_by_upstream(&mark);
        tokio::time::sleep(Duration::from_millis(100)).await;
        let mark = ctx.mocks.mark();
        let two = callers[1].call(tool.tool, first).await;
        let second = count_cell(ctx, &mark, tool.never_cached);
        tokio::time::sleep(Duration::from_millis(100)).await;
        let mark = ctx.mocks.mark();
        let all =
            futures::future::join_all(callers.iter().map(|c| c.call(tool.tool, again.clone())))
                .await;
        let goal = cold + (callers.len() - 1) * tool.never_cached;
        let together = count_cell(ctx, &mark, goal);
        let failed = all.iter().find_map(|o| o.error.as_deref());
        let _ = writeln!(
            out,
            "| {} ({}) | {} | {} | {} |",
            tool.tool,
            tool.about,
            with_error(cold_by_upstream, one.error.as_deref()),
            with_error(second, two.error.as_deref()),
            with_error(together, failed)
        );
    }
    out
}

/// Part 5: the load with Redis killed part way, `/health` during the outage, and after
/// Redis is back.
async fn outage(
    ctx: &Ctx<'_>,
    callers: &[Caller],
    replicas: &[Replica],
    redis: &mut lifesciences_core::testing::redis::RedisServer,
) -> anyhow::Result<String> {
    let length = Duration::from_secs(ctx.args.seconds);
    let kill_after = length.mul_f64(0.3);
    let mark = ctx.mocks.mark();
    let started = Instant::now();
    let (tally, killed_at) = tokio::join!(
        load::run(
            callers,
            &ctx.mocks.tools,
            ctx.args.workers,
            length,
            &ctx.counter
        ),
        async {
            tokio::time::sleep(kill_after).await;
            redis.stop();
            Instant::now()
        }
    );
    let received = ctx.mocks.since(&mark);
    let mut during = Vec::new();
    for replica in replicas {
        during.push(health_line(mcp::health(replica.addr).await));
    }
    // Blocks this thread for the few milliseconds Redis takes to start: the load is over.
    procs::restart_redis(redis)?;
    let restarted = Instant::now();
    let mut back: Vec<Option<Duration>> = vec![None; replicas.len()];
    while restarted.elapsed() < Duration::from_secs(30) && back.iter().any(Option::is_none) {
        for (i, replica) in replicas.iter().enumerate() {
            if back[i].is_none()
                && let Ok(health) = mcp::health(replica.addr).await
                && health["status"] == "ok"
            {
                back[i] = Some(restarted.elapsed());
            }
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let mut after = Vec::new();
    for replica in replicas {
        after.push(health_line(mcp::health(replica.addr).await));
    }

    let mut out = String::new();
    let _ = writeln!(
        out,
        "### 5. Redis killed during the load\n\n\
         {} s of distinct calls on the three replicas, redis-server killed (SIGKILL) after \
         {:.1} s: {} (goal 0 failed); {:.1} s until the last answer. Each replica should \
         hold rate/3 while Redis is down.\n",
        ctx.args.seconds,
        killed_at.duration_since(started).as_secs_f64(),
        tally.summary(),
        tally.wall().as_secs_f64()
    );
    let _ = writeln!(
        out,
        "| upstream | rate | busiest 1 s with Redis | without: first {} s / later | requests \
         without | within the rate |\n|---|---|---|---|---|---|",
        AFTER_KILL.as_secs()
    );
    let settled = killed_at + AFTER_KILL;
    for r in received.iter().filter(|r| !r.arrivals.is_empty()) {
        let with = r.busiest_between(None, Some(killed_at));
        let early = r.busiest_between(Some(killed_at), Some(settled));
        let later = r.busiest_between(Some(settled), None);
        let _ = writeln!(
            out,
            "| {} | {} | {with} | {early} / {later} | {} | {} |",
            r.name,
            rate(r.rate),
            r.count_from(killed_at),
            verdict(with.max(early).max(later), r.rate)
        );
    }
    let _ = writeln!(
        out,
        "\n| replica | /health with Redis down | Redis restarted: /health ok after | /health \
         then |\n|---|---|---|---|"
    );
    for (i, ((during, back), after)) in during.iter().zip(&back).zip(&after).enumerate() {
        let _ = writeln!(
            out,
            "| {} | {during} | {} | {after} |",
            i + 1,
            back.map_or_else(
                || "**not within 30 s**".to_owned(),
                |d| format!("{:.1} s", d.as_secs_f64())
            )
        );
    }
    Ok(out)
}

/// `/health` in a cell: its status in bold when not ok, then whatever it says besides
/// the server's name, version and revision.
fn health_line(health: anyhow::Result<Value>) -> String {
    let mut health = match health {
        Ok(h) => h,
        Err(e) => return format!("**no answer**: {e:#}"),
    };
    let status = health["status"].as_str().unwrap_or("?").to_owned();
    if let Some(map) = health.as_object_mut() {
        for key in ["status", "server", "version", "revision"] {
            map.remove(key);
        }
    }
    let rest = match &health {
        Value::Object(map) if map.is_empty() => String::new(),
        other => format!(" `{other}`"),
    };
    let status = if status == "ok" {
        status
    } else {
        format!("**{status}**")
    };
    format!("{status}{}", rest.replace('|', "\\|"))
}

/// Part 7's numbers for one store.
struct HitRow {
    store: &'static str,
    through: &'static str,
    /// Through the first: the answers fetched and stored.
    upstream: Vec<Duration>,
    /// Through the second: answers in the store, not in its process.
    store_hits: Vec<Duration>,
    store_requests: usize,
    /// Through the second again: answers in its process.
    process_hits: Vec<Duration>,
    process_requests: usize,
    failures: usize,
}

/// Make `samples` distinct calls through `first` (one after another), then time the same
/// calls through `second`, twice.
async fn hit_cost(
    ctx: &Ctx<'_>,
    first: &Caller,
    second: &Caller,
    store: &'static str,
    through: &'static str,
) -> anyhow::Result<HitRow> {
    let tool = ctx
        .mocks
        .tools
        .iter()
        .find(|t| t.tool == HIT_TOOL)
        .with_context(|| format!("{HIT_TOOL} is not a load tool"))?;
    let mut asked = Vec::with_capacity(ctx.args.samples);
    for _ in 0..ctx.args.samples {
        asked.push(tool.arguments(ctx.counter.next())?);
    }
    let mut failures = 0;
    let mut timed = |outcome: mcp::Outcome| {
        failures += usize::from(outcome.error.is_some());
        outcome.took
    };
    let mut upstream = Vec::new();
    for arguments in &asked {
        upstream.push(timed(first.call(tool.tool, arguments.clone()).await));
    }
    tokio::time::sleep(Duration::from_millis(200)).await;
    let mut rounds = Vec::new();
    for _ in 0..2 {
        let mark = ctx.mocks.mark();
        let mut took = Vec::new();
        for arguments in &asked {
            took.push(timed(second.call(tool.tool, arguments.clone()).await));
        }
        rounds.push((took, ctx.mocks.calls_since(&mark)));
    }
    let mut rounds = rounds.into_iter();
    let (store_hits, store_requests) = rounds.next().unwrap_or_default();
    let (process_hits, process_requests) = rounds.next().unwrap_or_default();
    Ok(HitRow {
        store,
        through,
        upstream,
        store_hits,
        store_requests,
        process_hits,
        process_requests,
        failures,
    })
}

fn hit_table(rows: &[HitRow], samples: usize) -> String {
    let mut out = format!(
        "### 7. What a store hit costs\n\n\
         `{HIT_TOOL}`, {samples} distinct calls one after another: made through one replica \
         or process (upstream: the mock's latency and the pacing), then timed through \
         another (store hits: the answer is in the store, not in that process), then \
         through that one again (in-process hits). p50 / p90, and the upstream requests \
         during the timed calls (goal 0).\n\n\
         | store | upstream, through the first | store hit, through another | in-process \
         hit, the same again |\n|---|---|---|---|\n"
    );
    for row in rows {
        let p = |d: &[Duration]| match (percentile(d, 50.0), percentile(d, 90.0)) {
            (Some(a), Some(b)) => format!("{} / {}", ms(a), ms(b)),
            _ => "n/a".to_owned(),
        };
        let _ = writeln!(
            out,
            "| {} (through a {}) | {} | {} ({} req) | {} ({} req) |{}",
            row.store,
            row.through,
            p(&row.upstream),
            p(&row.store_hits),
            row.store_requests,
            p(&row.process_hits),
            row.process_requests,
            if row.failures > 0 {
                format!(" {} call(s) failed", row.failures)
            } else {
                String::new()
            }
        );
    }
    out
}
