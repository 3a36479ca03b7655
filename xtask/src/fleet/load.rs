//! The fleet's load: for a while, every caller (replica or process) runs a few workers per
//! load tool, each making one distinct call after another, so no answer can come from a
//! cache and the upstreams see as many requests as the servers let through.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use super::mcp::{Caller, Outcome};
use super::upstreams::LoadTool;
use crate::bench::measure::FIRST_N;

/// Hands out the numbers that make calls distinct, for the whole run: no two calls of
/// any part share arguments unless a part means them to.
#[derive(Debug)]
pub(crate) struct Counter(AtomicU64);

impl Default for Counter {
    fn default() -> Self {
        Self(AtomicU64::new(FIRST_N))
    }
}

impl Counter {
    pub(crate) fn next(&self) -> u64 {
        self.0.fetch_add(1, Ordering::Relaxed)
    }
}

/// How the calls of a load (or any set of calls) ended.
#[derive(Debug, Clone, Default)]
pub(crate) struct Tally {
    pub calls: usize,
    pub failures: usize,
    pub first_error: Option<String>,
    /// Per tool: calls, failures.
    pub per_tool: BTreeMap<String, (usize, usize)>,
    pub started: Option<Instant>,
    pub ended: Option<Instant>,
}

impl Tally {
    pub(crate) fn add(&mut self, tool: &str, outcome: &Outcome) {
        self.calls += 1;
        let entry = self.per_tool.entry(tool.to_owned()).or_default();
        entry.0 += 1;
        if let Some(error) = &outcome.error {
            self.failures += 1;
            entry.1 += 1;
            self.first_error.get_or_insert_with(|| {
                let short: String = error.chars().take(200).collect();
                format!("{tool}: {short}")
            });
        }
    }

    fn merge(&mut self, other: Self) {
        self.calls += other.calls;
        self.failures += other.failures;
        if self.first_error.is_none() {
            self.first_error = other.first_error;
        }
        for (tool, (calls, failures)) in other.per_tool {
            let entry = self.per_tool.entry(tool).or_default();
            entry.0 += calls;
            entry.1 += failures;
        }
    }

    /// Wall time from the first call to the last answer.
    pub(crate) fn wall(&self) -> Duration {
        match (self.started, self.ended) {
            (Some(s), Some(e)) => e.duration_since(s),
            _ => Duration::ZERO,
        }
    }

    /// `412 calls, 0 failed` (with the first failure).
    pub(crate) fn summary(&self) -> String {
        let mut text = format!("{} calls, {} failed", self.calls, self.failures);
        if let Some(first) = &self.first_error {
            text.push_str(&format!(" (first: {})", first.replace('|', "\\|")));
        }
        text
    }
}

/// `workers` workers per caller and load tool make distinct calls until `length` has
/// passed; the calls still in flight then are waited for.
pub(crate) async fn run(
    callers: &[Caller],
    tools: &[LoadTool],
    workers: usize,
    length: Duration,
    counter: &Counter,
) -> Tally {
    let started = Instant::now();
    let deadline = started + length;
    let mut all = Vec::new();
    for caller in callers {
        for tool in tools {
            for _ in 0..workers {
                all.push(worker(caller, tool, deadline, counter));
            }
        }
    }
    let mut tally = Tally {
        started: Some(started),
        ..Tally::default()
    };
    for one in futures::future::join_all(all).await {
        tally.merge(one);
    }
    tally.ended = Some(Instant::now());
    tally
}

async fn worker(caller: &Caller, tool: &LoadTool, deadline: Instant, counter: &Counter) -> Tally {
    let mut tally = Tally::default();
    while Instant::now() < deadline {
        let arguments = match tool.arguments(counter.next()) {
            Ok(arguments) => arguments,
            Err(e) => {
                let error = Some(format!("{e:#}"));
                let took = Duration::ZERO;
                tally.add(tool.tool, &Outcome { took, error });
                break;
            }
        };
        let outcome = caller.call(tool.tool, arguments).await;
        tally.add(tool.tool, &outcome);
    }
    tally
}
