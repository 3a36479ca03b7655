//! The measurements: one server command, driven over stdio by a plain rmcp client (no
//! output-schema checks, so only the server's own work is timed), against a mock upstream
//! whose log tells how many requests each phase cost and when they arrived.
//!
//! Phases, in order, in one session after the cold starts: idle RSS; one call that must
//! succeed; lone uncached calls (a pause before each, so pacing has recovered); cached
//! calls (the last lone call's arguments again); back-to-back uncached calls; identical
//! concurrent calls; distinct concurrent calls; then distinct calls (16 at a time) until
//! the session has made `calls` in all, and the RSS after them.

use std::path::PathBuf;
use std::process::Stdio;
use std::time::{Duration, Instant};

use anyhow::{Context as _, bail};
use futures::StreamExt as _;
use rmcp::model::CallToolRequestParams;
use rmcp::service::RunningService;
use rmcp::transport::TokioChildProcess;
use rmcp::{RoleClient, ServiceExt as _};
use serde_json::{Map, Value};

use super::mock::{Arrival, Log};

/// The first number put in `{n}`: 11 digits, as an Ensembl stable ID needs.
pub(crate) const FIRST_N: u64 = 10_000_000_000;

/// Process starts timed for the cold start.
pub(crate) const COLD_STARTS: usize = 10;
/// Lone uncached calls, each after a pause.
pub(crate) const LONE: usize = 10;
/// Cached calls.
pub(crate) const CACHED: usize = 10;
/// Back-to-back uncached calls.
pub(crate) const BACK_TO_BACK: usize = 20;
/// Calls in each concurrent burst.
pub(crate) const BURST: usize = 100;
/// Calls in flight at once while topping up to `calls`.
const TOP_UP_WIDTH: usize = 16;
/// How long `initialize` may take before the bench gives up.
const INITIALIZE_TIMEOUT: Duration = Duration::from_secs(30);

/// A server command to measure.
#[derive(Debug, Clone)]
pub(crate) struct Target {
    pub program: PathBuf,
    pub args: Vec<String>,
    /// Set on top of `RUST_LOG=error`.
    pub env: Vec<(String, String)>,
    /// Removed from the environment the server inherits.
    pub env_remove: Vec<String>,
    pub tool: String,
    /// The arguments, JSON with `{n}` for the number that makes a call distinct.
    pub template: String,
}

/// How long to pause before a lone call, and how many calls the session makes in all.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Plan {
    pub pause: Duration,
    pub calls: usize,
}

/// A burst of concurrent calls.
#[derive(Debug, Clone, Default)]
pub(crate) struct Burst {
    pub wall: Duration,
    /// The upstream requests the mock received during the burst, in arrival order.
    pub arrivals: Vec<Arrival>,
}

/// Everything one run measured.
#[derive(Debug, Clone, Default)]
pub(crate) struct Measured {
    pub cold_starts: Vec<Duration>,
    pub rss_idle_kib: Option<u64>,
    pub rss_after_kib: Option<u64>,
    pub calls_made: usize,
    pub lone: Vec<Duration>,
    pub cached: Vec<Duration>,
    pub back_to_back: Vec<Duration>,
    pub identical: Burst,
    pub distinct: Burst,
    /// Calls that ended in an error result or a protocol error, and the first message.
    pub errors: usize,
    pub first_error: Option<String>,
}

/// How one call ended.
struct Outcome {
    took: Duration,
    error: Option<String>,
}

/// A connected session with the server.
struct Session<'a> {
    service: RunningService<RoleClient, ()>,
    pid: Option<u32>,
    target: &'a Target,
    next: u64,
}

impl Session<'_> {
    /// Arguments no earlier call of this run used.
    fn distinct(&mut self) -> anyhow::Result<Map<String, Value>> {
        let n = self.next;
        self.next += 1;
        arguments(&self.target.template, n)
    }

    async fn call(&self, arguments: Map<String, Value>) -> Outcome {
        let request =
            CallToolRequestParams::new(self.target.tool.clone()).with_arguments(arguments);
        let started = Instant::now();
        let result = self.service.call_tool(request).await;
        let took = started.elapsed();
        let error = match result {
            Ok(result) if result.is_error == Some(true) => Some(
                result
                    .content
                    .iter()
                    .find_map(|c| c.as_text().map(|t| t.text.clone()))
                    .unwrap_or_else(|| "an error result without text".to_owned()),
            ),
            Ok(_) => None,
            Err(e) => Some(format!("protocol error: {e}")),
        };
        Outcome { took, error }
    }

    /// `n` calls at once; `distinct` gives each its own arguments, otherwise they share one.
    async fn burst(&mut self, n: usize, distinct: bool) -> anyhow::Result<Vec<Outcome>> {
        let shared = self.distinct()?;
        let mut all = Vec::with_capacity(n);
        for _ in 0..n {
            all.push(if distinct {
                self.distinct()?
            } else {
                shared.clone()
            });
        }
        let this = &*self;
        Ok(futures::future::join_all(all.into_iter().map(|a| this.call(a))).await)
    }
}

/// The arguments `template` makes for number `n`, as a JSON object.
pub(crate) fn arguments(template: &str, n: u64) -> anyhow::Result<Map<String, Value>> {
    let text = template.replace("{n}", &n.to_string());
    match serde_json::from_str(&text) {
        Ok(Value::Object(map)) => Ok(map),
        Ok(other) => bail!("the tool arguments must be a JSON object, not {other}"),
        Err(e) => bail!("the tool arguments {text:?} are not JSON: {e}"),
    }
}

/// Start the server and complete `initialize`: the session, the process id, and how long
/// it took from spawn to the initialize result.
async fn start(
    target: &Target,
) -> anyhow::Result<(RunningService<RoleClient, ()>, Option<u32>, Duration)> {
    let mut command = tokio::process::Command::new(&target.program);
    command.args(&target.args).env("RUST_LOG", "error");
    // Each run starts from nothing: no answer kept by an earlier run (or by the user's own
    // servers) may turn a measured miss into a hit. `cargo xtask fleet` measures the store.
    command.env(lifesciences_core::store::ENV_CACHE_DIR, "off");
    for key in &target.env_remove {
        command.env_remove(key);
    }
    for (key, value) in &target.env {
        command.env(key, value);
    }
    let started = Instant::now();
    let (transport, _) = TokioChildProcess::builder(command)
        .stderr(Stdio::inherit())
        .spawn()
        .with_context(|| format!("cannot start {}", target.program.display()))?;
    let pid = transport.id();
    let service = tokio::time::timeout(INITIALIZE_TIMEOUT, ().serve(transport))
        .await
        .with_context(|| format!("no initialize result within {INITIALIZE_TIMEOUT:?}"))?
        .context("the MCP handshake failed")?;
    Ok((service, pid, started.elapsed()))
}

/// Tally `outcomes` into `measured`; their durations.
fn tally(measured: &mut Measured, outcomes: Vec<Outcome>) -> Vec<Duration> {
    measured.calls_made += outcomes.len();
    outcomes
        .into_iter()
        .map(|o| {
            if let Some(e) = o.error {
                measured.errors += 1;
                measured.first_error.get_or_insert(e);
            }
            o.took
        })
        .collect()
}

/// Run every phase against `target`; `log` is the mock's.
pub(crate) async fn run(target: &Target, log: &Log, plan: Plan) -> anyhow::Result<Measured> {
    let mut measured = Measured::default();

    eprintln!("  cold start ×{COLD_STARTS}");
    for _ in 0..COLD_STARTS {
        let (service, _, took) = start(target).await?;
        measured.cold_starts.push(took);
        let _ = service.cancel().await;
        tokio::time::sleep(Duration::from_millis(50)).await;
    }

    let (service, pid, _) = start(target).await?;
    let mut session = Session {
        service,
        pid,
        target,
        next: FIRST_N,
    };
    let tools = session
        .service
        .list_all_tools()
        .await
        .context("tools/list")?;
    if !tools.iter().any(|t| t.name == target.tool.as_str()) {
        bail!("the server lists no tool named {}", target.tool);
    }
    tokio::time::sleep(Duration::from_millis(200)).await;
    measured.rss_idle_kib = rss_kib(session.pid);

    // The bench means nothing if its call fails: check one first.
    let probe = session.distinct()?;
    let shown = Value::Object(probe.clone());
    let outcome = session.call(probe).await;
    measured.calls_made += 1;
    if let Some(error) = outcome.error {
        bail!(
            "{} {shown} does not succeed against the mock: {error}",
            target.tool
        );
    }

    eprintln!("  lone uncached calls ×{LONE} ({:?} apart)", plan.pause);
    let mut last = Map::new();
    let mut lone = Vec::with_capacity(LONE);
    for _ in 0..LONE {
        tokio::time::sleep(plan.pause).await;
        last = session.distinct()?;
        lone.push(session.call(last.clone()).await);
    }
    measured.lone = tally(&mut measured, lone);

    eprintln!("  cached calls ×{CACHED}");
    let mut cached = Vec::with_capacity(CACHED);
    for _ in 0..CACHED {
        cached.push(session.call(last.clone()).await);
    }
    measured.cached = tally(&mut measured, cached);

    eprintln!("  back-to-back uncached calls ×{BACK_TO_BACK}");
    tokio::time::sleep(plan.pause).await;
    let mut sequential = Vec::with_capacity(BACK_TO_BACK);
    for _ in 0..BACK_TO_BACK {
        let arguments = session.distinct()?;
        sequential.push(session.call(arguments).await);
    }
    measured.back_to_back = tally(&mut measured, sequential);

    for distinct in [false, true] {
        eprintln!(
            "  {BURST} {} concurrent calls",
            if distinct { "distinct" } else { "identical" }
        );
        tokio::time::sleep(plan.pause).await;
        let before = log.len();
        let started = Instant::now();
        let outcomes = session.burst(BURST, distinct).await?;
        let burst = Burst {
            wall: started.elapsed(),
            arrivals: log.since(before),
        };
        tally(&mut measured, outcomes);
        if distinct {
            measured.distinct = burst;
        } else {
            measured.identical = burst;
        }
    }

    let remaining = plan.calls.saturating_sub(measured.calls_made);
    if remaining > 0 {
        eprintln!("  {remaining} more distinct calls, {TOP_UP_WIDTH} at a time");
        let mut all = Vec::with_capacity(remaining);
        for _ in 0..remaining {
            all.push(session.distinct()?);
        }
        let this = &session;
        let outcomes: Vec<Outcome> = futures::stream::iter(all.into_iter().map(|a| this.call(a)))
            .buffer_unordered(TOP_UP_WIDTH)
            .collect()
            .await;
        tally(&mut measured, outcomes);
    }
    measured.rss_after_kib = rss_kib(session.pid);
    let _ = session.service.cancel().await;
    Ok(measured)
}

/// The resident set of `pid` in KiB, from `/proc` (Linux); `None` elsewhere.
fn rss_kib(pid: Option<u32>) -> Option<u64> {
    crate::sessions::rss_kib(pid?).ok()
}

#[cfg(test)]
mod tests {
    use super::arguments;

    #[test]
    fn the_number_fills_every_placeholder() {
        let a = arguments(r#"{"id": "ENSG{n}", "q": "x{n}"}"#, 10_000_000_007).unwrap();
        assert_eq!(a["id"], "ENSG10000000007");
        assert_eq!(a["q"], "x10000000007");
        assert!(arguments("[1]", 1).is_err());
        assert!(arguments("{", 1).is_err());
    }
}
