//! The fleet's mock upstreams and the calls its load makes.
//!
//! One mock (bench's: fixed latency, an arrival log) per upstream of the gateway, each on
//! a port of its own: the upstream's budget is kept per host, and one shared mock would
//! put every upstream on one host. Each mock answers the routes of the bench specs under
//! that upstream's path prefix (so recorded fixtures, with the asked ID written in where
//! the server checks it), the source's release look-up (the demo's fixtures), and 404 for
//! anything else (a missing route fails the verification call loudly).

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use anyhow::{Context as _, bail};
use lifesciences_core::testing::busiest_within;
use lifesciences_core::{ReleaseCheck, SourceConfig};

use crate::bench::measure::arguments;
use crate::bench::mock::{Arrival, CatchAll, Route, Upstream};
use crate::bench::specs;

/// A tool call the load makes, distinct for every number put in its template.
#[derive(Debug, Clone)]
pub(crate) struct LoadTool {
    pub tool: &'static str,
    /// JSON arguments with `{n}` for the number.
    pub template: &'static str,
    /// What one distinct call costs upstream, in words.
    pub about: &'static str,
    /// Requests of one call that no cache keeps (a POST to a source that caches none):
    /// asked again by every call, and by every replica of a call made at once.
    pub never_cached: usize,
}

impl LoadTool {
    /// The arguments for number `n`.
    pub(crate) fn arguments(
        &self,
        n: u64,
    ) -> anyhow::Result<serde_json::Map<String, serde_json::Value>> {
        arguments(self.template, n)
    }
}

/// The gateway's upstreams and the fleet's calls: the bench's call of every server the
/// gateway serves, and a free-text gene search, the one call of the gateway that reaches
/// EBI Search.
struct Plan {
    tools: Vec<LoadTool>,
    /// `(URL variable, path prefix)` of every upstream the calls reach.
    prefixes: BTreeMap<&'static str, &'static str>,
    routes: Vec<Route>,
}

fn plan() -> anyhow::Result<Plan> {
    let mut plan = Plan {
        tools: Vec::new(),
        prefixes: BTreeMap::new(),
        routes: Vec::new(),
    };
    for server in crate::servers::all() {
        let spec = specs::spec(server.name)
            .with_context(|| format!("no bench spec for {}", server.name))?;
        plan.tools.push(LoadTool {
            tool: spec.tool,
            template: spec.args,
            about: spec.about,
            never_cached: 0,
        });
        plan.prefixes.extend(spec.upstreams.iter().copied());
        plan.routes.extend(spec.routes);
    }
    // Free text (it has a space) skips Ensembl's exact-symbol request: one EBI Search
    // GET per distinct call, then one POST lookup/id for the page's genes (the
    // fixture's, the same every time), which is never cached: Ensembl caches no POST.
    plan.tools.push(LoadTool {
        tool: "ensembl_search_genes",
        template: r#"{"query": "tumor protein {n}"}"#,
        about: "1 EBI Search GET + 1 Ensembl POST lookup/id, never cached",
        never_cached: 1,
    });
    plan.prefixes.insert("EBI_SEARCH_API_URL", "/ebisearch");
    plan.routes.extend([
        Route::fixture(
            "GET",
            "^/ebisearch/ensembl_gene$",
            "ensembl-mcp",
            "ebisearch__tumor_protein.json",
            None,
        ),
        Route::fixture(
            "POST",
            "^/ensembl/lookup/id$",
            "ensembl-mcp",
            "lookup_id_batch.json",
            None,
        ),
    ]);
    for (at, krate, name) in crate::demo::RELEASE_FIXTURES {
        let regex = format!("^{}$", at.replace('.', r"\."));
        plan.routes
            .push(Route::fixture("GET", &regex, krate, name, None));
    }
    Ok(plan)
}

/// One upstream of the gateway, and its mock.
pub(crate) struct Mocked {
    /// e.g. `STRING`.
    pub name: &'static str,
    /// The rate the replicas are given (the default), requests per second.
    pub rate: f64,
    pub config: SourceConfig,
    /// The release look-up's path on the mock, when the source has one.
    release_path: Option<String>,
    base: String,
    mock: Upstream,
}

/// A point in the mocks' logs.
#[derive(Debug, Clone)]
pub(crate) struct Mark(Vec<usize>);

/// What one upstream received between two marks.
#[derive(Debug, Clone)]
pub(crate) struct Received {
    pub name: &'static str,
    pub rate: f64,
    pub arrivals: Vec<Arrival>,
    /// How many of them were release look-ups.
    pub releases: usize,
}

impl Received {
    /// The most arrivals within any one second.
    pub(crate) fn busiest(&self) -> usize {
        busiest_within(&self.times(), Duration::from_secs(1))
    }

    /// The most arrivals within any one second, of those from `from` (inclusive) to
    /// `to` (exclusive).
    pub(crate) fn busiest_between(&self, from: Option<Instant>, to: Option<Instant>) -> usize {
        let times: Vec<Instant> = self
            .times()
            .into_iter()
            .filter(|t| from.is_none_or(|f| *t >= f) && to.is_none_or(|e| *t < e))
            .collect();
        busiest_within(&times, Duration::from_secs(1))
    }

    /// Arrivals at or after `from`.
    pub(crate) fn count_from(&self, from: Instant) -> usize {
        self.arrivals.iter().filter(|a| a.at >= from).count()
    }

    fn times(&self) -> Vec<Instant> {
        self.arrivals.iter().map(|a| a.at).collect()
    }

    /// Requests the calls caused: every arrival but the release look-ups.
    pub(crate) fn calls(&self) -> usize {
        self.arrivals.len() - self.releases
    }
}

/// Every mock upstream.
pub(crate) struct Mocks {
    pub upstreams: Vec<Mocked>,
    pub tools: Vec<LoadTool>,
}

impl Mocks {
    /// Start one mock per upstream of the gateway, each answering after `latency`.
    pub(crate) async fn start(latency: Duration) -> anyhow::Result<Self> {
        let plan = plan()?;
        let mut upstreams = Vec::new();
        for config in (crate::servers::gateway().upstreams)()? {
            let upstream = config.upstream;
            let var = upstream.url_var();
            let Some(prefix) = plan.prefixes.get(var.as_str()) else {
                bail!(
                    "the fleet has no mock for {var} ({}): add its calls to fleet/upstreams.rs",
                    upstream.name
                );
            };
            let mine: Vec<Route> = plan
                .routes
                .iter()
                .filter(|r| r.path_regex.starts_with(&format!("^{prefix}/")))
                .cloned()
                .collect();
            let mock = Upstream::start(&mine, CatchAll::NotFound, latency).await?;
            let release_path = match upstream.release {
                Some(ReleaseCheck::Ask { path, .. }) => {
                    Some(format!("{prefix}/{}", path.trim_start_matches('/')))
                }
                _ => None,
            };
            upstreams.push(Mocked {
                name: upstream.name,
                rate: config.rate_per_second,
                base: format!("{}{prefix}", mock.uri()),
                config,
                release_path,
                mock,
            });
        }
        Ok(Self {
            upstreams,
            tools: plan.tools,
        })
    }

    /// What a server needs to talk to the mocks at the default politeness: every
    /// upstream's URL, and its rate and concurrency set to their defaults (so a value
    /// in the caller's environment cannot skew the run).
    pub(crate) fn env(&self) -> Vec<(String, String)> {
        let mut env = Vec::new();
        for m in &self.upstreams {
            let upstream = m.config.upstream;
            env.push((upstream.url_var(), m.base.clone()));
            env.push((upstream.rate_var(), crate::bench::number(m.rate)));
            env.push((
                upstream.concurrency_var(),
                m.config.max_concurrent.to_string(),
            ));
        }
        env
    }

    pub(crate) fn mark(&self) -> Mark {
        Mark(self.upstreams.iter().map(|m| m.mock.log.len()).collect())
    }

    /// What each upstream received since `mark`.
    pub(crate) fn since(&self, mark: &Mark) -> Vec<Received> {
        self.upstreams
            .iter()
            .zip(&mark.0)
            .map(|(m, &from)| {
                let arrivals = m.mock.log.since(from);
                let releases = arrivals
                    .iter()
                    .filter(|a| m.release_path.as_deref() == Some(a.path.as_str()))
                    .count();
                Received {
                    name: m.name,
                    rate: m.rate,
                    arrivals,
                    releases,
                }
            })
            .collect()
    }

    /// Requests the calls caused since `mark`, release look-ups left out, all upstreams.
    pub(crate) fn calls_since(&self, mark: &Mark) -> usize {
        self.since(mark).iter().map(Received::calls).sum()
    }

    /// The same, per upstream that received any: `STRING 1, Ensembl 2`.
    pub(crate) fn calls_since_by_upstream(&self, mark: &Mark) -> String {
        let parts: Vec<String> = self
            .since(mark)
            .iter()
            .filter(|r| r.calls() > 0)
            .map(|r| format!("{} {}", r.name, r.calls()))
            .collect();
        if parts.is_empty() {
            "none".to_owned()
        } else {
            parts.join(", ")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The fleet's set-up without the fleet: a call for every server the gateway serves
    /// and a mock, with its routes, for every upstream of the gateway (a server without
    /// a bench spec, or an upstream no call reaches, stops the fleet before it starts).
    #[tokio::test]
    async fn every_server_has_a_call_and_every_upstream_a_mock() {
        let mocks = Mocks::start(Duration::ZERO).await.unwrap();
        for server in crate::servers::all() {
            let spec = specs::spec(server.name).unwrap();
            assert!(
                mocks.tools.iter().any(|t| t.tool == spec.tool),
                "{}",
                server.name
            );
        }
        let upstreams = (crate::servers::gateway().upstreams)().unwrap();
        assert_eq!(mocks.upstreams.len(), upstreams.len());
        let env = mocks.env();
        for config in upstreams {
            let var = config.upstream.url_var();
            assert!(env.iter().any(|(k, _)| *k == var), "{var} has no mock");
        }
    }
}
