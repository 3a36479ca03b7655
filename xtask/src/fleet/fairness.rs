//! Part 8 of `cargo xtask fleet`: a fair share of one paced upstream for two principals.
//!
//! Three replicas on Redis, authenticated by a static tokens file of two principals,
//! `heavy` and `light`. First `light` alone makes one `ensembl_get_gene` call a second
//! (two Ensembl requests each) through the replicas in turn; then the same while `heavy`
//! keeps many calls in flight across the three. Ensembl's mock tells the two apart by the
//! gene IDs they ask (each principal has its own range), so the table gives each one's
//! upstream requests per second, `light`'s call latency alone and beside `heavy`, and the
//! busiest second Ensembl saw against its rate. Run against a build without fair shares
//! (`--binary`, which ignores the tokens), it shows what first-come-first-served did.

use std::fmt::Write as _;
use std::sync::Arc;
use std::time::{Duration, Instant};

use lifesciences_core::config::ENV_CACHE_TTL_SECS;
use lifesciences_core::store::{ENV_CACHE_DIR, ENV_OFFLINE, ENV_REDIS_URL};
use serde_json::Value;

use super::Ctx;
use super::mcp::{Caller, HttpSession};
use super::procs::{Replica, ReplicaPlan};
use crate::bench::table::{ms, percentile};

/// The tool both principals call: two Ensembl requests (lookup and xrefs), 15/s.
const TOOL: &str = "ensembl_get_gene";
/// Gene IDs of each principal: `ENSG1…` for `heavy`, `ENSG9…` for `light`.
const HEAVY_FIRST: u64 = 10_000_000_000;
const LIGHT_FIRST: u64 = 90_000_000_000;
const HEAVY_TOKEN: &str = "fleet-heavy-token";
const LIGHT_TOKEN: &str = "fleet-light-token";

/// How the principals load the replicas.
pub(crate) struct Load {
    /// `heavy`'s calls in flight at once, spread over the replicas.
    pub heavy_in_flight: usize,
    /// How long each phase lasts.
    pub seconds: u64,
}

/// One phase's figures.
struct Phase {
    light: Vec<Duration>,
    light_failed: usize,
    heavy_calls: usize,
    heavy_failed: usize,
    heavy_requests: usize,
    light_requests: usize,
    busiest: usize,
    wall: Duration,
}

/// Start the three authenticated replicas on `redis_url`, run both phases, and say what
/// each principal got.
pub(crate) async fn part(ctx: &Ctx<'_>, redis_url: &str, load: &Load) -> anyhow::Result<String> {
    let tokens = ctx.dir.path().join("fleet-tokens");
    std::fs::write(
        &tokens,
        format!(
            "heavy sha256:{}\nlight sha256:{}\n",
            sha256_hex(HEAVY_TOKEN),
            sha256_hex(LIGHT_TOKEN)
        ),
    )?;
    let mut replicas = Vec::new();
    for i in 1..=3 {
        let mut env = ctx.mocks.env();
        env.push((ENV_REDIS_URL.to_owned(), redis_url.to_owned()));
        let own = ctx.dir.path().join(format!("fair-replica-{i}-cache"));
        env.push((ENV_CACHE_DIR.to_owned(), own.display().to_string()));
        env.push((
            "LIFESCIENCES_AUTH_TOKENS_FILE".to_owned(),
            tokens.display().to_string(),
        ));
        // The flood is the point: the per-principal request rate must not cut it short.
        env.push((
            "LIFESCIENCES_AUTH_RATE_LIMIT".to_owned(),
            "10000".to_owned(),
        ));
        let plan = ReplicaPlan {
            binary: ctx.binary,
            launch: &ctx.launch,
            env: &env,
            remove: &[ENV_OFFLINE, ENV_CACHE_TTL_SECS],
            stateless: ctx.args.stateless,
            token: Some(LIGHT_TOKEN),
        };
        let log = ctx.dir.path().join(format!("fair-replica-{i}.log"));
        replicas.push(Replica::start(&plan, &log).await?);
    }
    let mut light = Vec::new();
    let mut heavy = Vec::new();
    for replica in &replicas {
        light.push(Caller::Http(Arc::clone(&replica.session)));
        heavy.push(Caller::Http(Arc::new(
            HttpSession::open_as(replica.addr, Some(HEAVY_TOKEN)).await?,
        )));
    }
    eprintln!("fleet: part 8, light alone for {} s", load.seconds);
    let alone = phase(ctx, &light, &heavy, 0, load.seconds, 0).await;
    tokio::time::sleep(super::SETTLE).await;
    eprintln!(
        "fleet: part 8, light beside heavy ({} calls in flight) for {} s",
        load.heavy_in_flight, load.seconds
    );
    let shared = phase(
        ctx,
        &light,
        &heavy,
        load.heavy_in_flight,
        load.seconds,
        1_000_000,
    )
    .await;
    Ok(table(ctx, load, &alone, &shared))
}

/// `light` calls once a second for `seconds` while `heavy` keeps `in_flight` calls going.
async fn phase(
    ctx: &Ctx<'_>,
    light: &[Caller],
    heavy: &[Caller],
    in_flight: usize,
    seconds: u64,
    offset: u64,
) -> Phase {
    let mark = ctx.mocks.mark();
    let started = Instant::now();
    let deadline = started + Duration::from_secs(seconds);
    let heavy_next = std::sync::atomic::AtomicU64::new(HEAVY_FIRST + offset);
    let workers = (0..in_flight).map(|i| {
        let caller = &heavy[i % heavy.len()];
        let next = &heavy_next;
        async move {
            let (mut calls, mut failed) = (0, 0);
            while Instant::now() < deadline {
                let n = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let outcome = caller.call(TOOL, arguments(n)).await;
                calls += 1;
                failed += usize::from(outcome.error.is_some());
            }
            (calls, failed)
        }
    });
    let light_calls = async {
        let mut took = Vec::new();
        let mut failed = 0;
        let mut n = LIGHT_FIRST + offset;
        let mut tick = tokio::time::interval(Duration::from_secs(1));
        while Instant::now() < deadline {
            tick.tick().await;
            let caller = &light[usize::try_from(n).unwrap_or(0) % light.len()];
            let outcome = caller.call(TOOL, arguments(n)).await;
            n += 1;
            match outcome.error {
                None => took.push(outcome.took),
                Some(_) => failed += 1,
            }
        }
        (took, failed)
    };
    let (heavy_done, (light_took, light_failed)) =
        tokio::join!(futures::future::join_all(workers), light_calls);
    let wall = started.elapsed();
    let received = ctx.mocks.since(&mark);
    let ensembl = received.iter().find(|r| r.name == "Ensembl");
    let count = |prefix: &str| {
        ensembl.map_or(0, |r| {
            r.arrivals
                .iter()
                .filter(|a| a.path.contains(prefix))
                .count()
        })
    };
    Phase {
        light: light_took,
        light_failed,
        heavy_calls: heavy_done.iter().map(|(c, _)| c).sum(),
        heavy_failed: heavy_done.iter().map(|(_, f)| f).sum(),
        heavy_requests: count("/ENSG1"),
        light_requests: count("/ENSG9"),
        busiest: ensembl.map_or(0, super::upstreams::Received::busiest),
        wall,
    }
}

fn arguments(n: u64) -> serde_json::Map<String, Value> {
    let mut arguments = serde_json::Map::new();
    arguments.insert(
        "ensembl_id".to_owned(),
        Value::String(format!("ENSG{n:011}")),
    );
    arguments
}

fn table(ctx: &Ctx<'_>, load: &Load, alone: &Phase, shared: &Phase) -> String {
    let rate = ctx
        .mocks
        .upstreams
        .iter()
        .find(|u| u.name == "Ensembl")
        .map_or(0.0, |u| u.rate);
    let mut out = String::new();
    let _ = writeln!(
        out,
        "### 8. Two principals, one paced upstream (Ensembl, {rate}/s), three replicas on Redis\n"
    );
    let _ = writeln!(
        out,
        "`light` makes one `{TOOL}` call a second (2 Ensembl requests each) through the \
         replicas in turn; `heavy` keeps {} calls in flight across the three. Each phase {} s. \
         Goal: `light` gets what it asks for and its latency stays within about one window of \
         its latency alone; `heavy` gets the rest; Ensembl never sees more than its rate.\n",
        load.heavy_in_flight, load.seconds
    );
    let _ = writeln!(
        out,
        "| phase | heavy calls (failed) | heavy req/s | light calls (failed) | light req/s | light p50 | light p95 | light max | busiest 1 s at Ensembl |\n|---|---|---|---|---|---|---|---|---|"
    );
    for (name, p) in [("light alone", alone), ("light beside heavy", shared)] {
        let secs = p.wall.as_secs_f64().max(1e-3);
        let mut took = p.light.clone();
        took.sort();
        let _ = writeln!(
            out,
            "| {name} | {} ({}) | {:.1} | {} ({}) | {:.1} | {} | {} | {} | {} of {rate} |",
            p.heavy_calls,
            p.heavy_failed,
            p.heavy_requests as f64 / secs,
            took.len() + p.light_failed,
            p.light_failed,
            p.light_requests as f64 / secs,
            percentile(&took, 50.0).map_or("-".to_owned(), ms),
            percentile(&took, 95.0).map_or("-".to_owned(), ms),
            took.last().copied().map_or("-".to_owned(), ms),
            p.busiest
        );
    }
    out
}

fn sha256_hex(token: &str) -> String {
    ring::digest::digest(&ring::digest::SHA256, token.as_bytes())
        .as_ref()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_principal_asks_its_own_range_of_gene_ids() {
        let heavy = arguments(HEAVY_FIRST + 5);
        let light = arguments(LIGHT_FIRST + 5);
        assert!(heavy["ensembl_id"].as_str().unwrap().starts_with("ENSG1"));
        assert!(light["ensembl_id"].as_str().unwrap().starts_with("ENSG9"));
        assert_eq!(
            light["ensembl_id"].as_str().unwrap().len(),
            "ENSG".len() + 11
        );
        assert_eq!(
            sha256_hex("abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }
}
