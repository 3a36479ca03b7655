//! Mock upstreams: a wiremock server that fails the test on any request no route
//! expected, environments that point servers at mocks, and a responder that records
//! arrival times.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use wiremock::{Mock, MockServer, Request, Respond, ResponseTemplate};

use crate::client::Env;
use crate::config::{RetryPolicy, SourceConfig, Upstream};

/// A mock upstream whose catch-all route fails the test: a request no route of the test
/// matched is answered `418` with a body naming it (never the `404` a server may read as
/// "no match"), and when the mock is dropped the test fails, listing every request it
/// received. Mount the test's routes on it as on any `MockServer`.
pub async fn mock_upstream() -> MockServer {
    let server = MockServer::start().await;
    Mock::given(wiremock::matchers::any())
        .respond_with(Unexpected)
        .with_priority(u8::MAX)
        .named("a request no route of this test expected")
        .expect(0)
        .mount(&server)
        .await;
    server
}

/// Answers an unexpected request with a body that names it.
struct Unexpected;

impl Respond for Unexpected {
    fn respond(&self, request: &Request) -> ResponseTemplate {
        let message = format!(
            "unexpected request: {} {} (no route of this test matches it)",
            request.method, request.url
        );
        tracing::error!("{message}");
        ResponseTemplate::new(418).set_body_string(message)
    }
}

/// An environment made of `pairs` in which every source is quick to test against a mock
/// (see [`quick`]); the pairs still win, so a test can set a source's real rate or cap.
///
/// ```ignore
/// let server = StringServer::from_env(&mock_env(&[("STRING_API_URL", &upstream.uri())]))?;
/// ```
pub fn mock_env(pairs: &[(&str, &str)]) -> Env {
    Env::from_pairs(pairs).with_tuning(quick)
}

/// [`mock_env`] in which every source asks its data release (for provenance), as a
/// server does by default: the mock must serve each source's release look-up.
pub fn mock_env_with_releases(pairs: &[(&str, &str)]) -> Env {
    Env::from_pairs(pairs).with_tuning(|config| quick(config).with_release_check(true))
}

/// A source's politeness made quick for a local mock: 1000 requests/s, 16 in flight, a
/// timeout of at most 5 s, and the same retry schedule in milliseconds instead of seconds
/// (a source that never retries still never retries). The daily release look-up is off,
/// so a mock serves only what its test expects (see [`mock_env_with_releases`]).
pub fn quick(config: SourceConfig) -> SourceConfig {
    let retry = if config.retry.max_retries == 0 {
        config.retry
    } else {
        RetryPolicy {
            max_retries: config.retry.max_retries,
            base_delay: Duration::from_millis(5),
            max_delay: Duration::from_secs(2),
            max_total_wait: Duration::from_secs(5),
        }
    };
    let timeout = config.timeout.min(Duration::from_secs(5));
    config
        .with_rate(1000.0)
        .with_max_concurrent(16)
        .with_timeout(timeout)
        .with_retry(retry)
        .with_release_check(false)
}

/// A source named `name` at `base_url`, quick to test (see [`quick`]). For core's own
/// tests of the HTTP machinery; server tests build their real sources with [`mock_env`].
pub fn mock_source(name: &str, base_url: &str) -> SourceConfig {
    let prefix = name.to_ascii_uppercase().replace([' ', '-'], "_");
    // A test's source lives as long as the test process: leaking its description is the
    // price of `&'static Upstream` everywhere else.
    let upstream: &'static Upstream = Box::leak(Box::new(Upstream::new(
        Box::leak(name.to_owned().into_boxed_str()),
        Box::leak(prefix.into_boxed_str()),
        Box::leak(base_url.to_owned().into_boxed_str()),
    )));
    quick(SourceConfig::new(upstream).expect("mock URL"))
}

/// A wiremock responder that answers with a template (or each of a sequence in turn,
/// repeating the last) and records when each request arrived. Clones share the record.
#[derive(Clone)]
pub struct Recording {
    templates: Arc<Vec<wiremock::ResponseTemplate>>,
    arrivals: Arc<Mutex<Vec<Instant>>>,
}

impl Recording {
    /// Answer every request with `template`.
    pub fn new(template: wiremock::ResponseTemplate) -> Self {
        Self::sequence(vec![template])
    }

    /// Answer the n-th request with `templates[n]`, the last one from then on.
    pub fn sequence(templates: Vec<wiremock::ResponseTemplate>) -> Self {
        assert!(
            !templates.is_empty(),
            "a sequence needs at least one response"
        );
        Self {
            templates: Arc::new(templates),
            arrivals: Arc::default(),
        }
    }

    /// Arrival times so far, in order.
    pub fn arrivals(&self) -> Vec<Instant> {
        self.arrivals.lock().unwrap().clone()
    }

    /// Requests received so far.
    pub fn count(&self) -> usize {
        self.arrivals.lock().unwrap().len()
    }

    /// The most requests received within any one second: what an upstream that counts
    /// requests per second saw at its busiest.
    pub fn busiest_second(&self) -> usize {
        busiest_within(&self.arrivals(), Duration::from_secs(1))
    }
}

/// Every request `mock` received, written as a result's `provenance` writes it (a GET as
/// its URL, anything else as `METHOD <url> <body>`, a long one by its digest), in arrival
/// order; with `except`,
/// leaving out the requests to those paths (a source's release look-up, which no result
/// names). wiremock names every request's host `localhost`: the URL is rebuilt on
/// `mock.uri()`.
pub async fn requests_seen(mock: &wiremock::MockServer, except: &[&str]) -> Vec<String> {
    mock.received_requests()
        .await
        .unwrap_or_default()
        .iter()
        .filter(|r| !except.contains(&r.url.path()))
        .map(|r| {
            let url = match r.url.query() {
                Some(query) => format!("{}{}?{query}", mock.uri(), r.url.path()),
                None => format!("{}{}", mock.uri(), r.url.path()),
            };
            crate::provenance::Asked {
                method: r.method.as_str().to_owned(),
                url,
                body: Some(bytes::Bytes::from(r.body.clone())),
            }
            .brief()
            .0
        })
        .collect()
}

/// Every request a result's `provenance` names, source by source, in its order.
pub fn requests_named(provenance: &serde_json::Value) -> Vec<String> {
    provenance["sources"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|source| source["requests"].as_array().cloned().unwrap_or_default())
        .filter_map(|request| request.as_str().map(str::to_owned))
        .collect()
}

/// The most of `times` (in any order) that fall less than `window` apart: the busiest
/// window an upstream counting requests per `window` would see.
pub fn busiest_within(times: &[Instant], window: Duration) -> usize {
    let mut sorted = times.to_vec();
    sorted.sort_unstable();
    let mut first = 0;
    let mut best = 0;
    for (last, &at) in sorted.iter().enumerate() {
        while at.duration_since(sorted[first]) >= window {
            first += 1;
        }
        best = best.max(last + 1 - first);
    }
    best
}

impl wiremock::Respond for Recording {
    fn respond(&self, _request: &wiremock::Request) -> wiremock::ResponseTemplate {
        let mut arrivals = self.arrivals.lock().unwrap();
        let n = arrivals.len();
        arrivals.push(Instant::now());
        self.templates[n.min(self.templates.len() - 1)].clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_busiest_window_counts_arrivals_less_than_a_second_apart() {
        let t0 = Instant::now();
        let at = |ms: u64| t0 + Duration::from_millis(ms);
        let times = [
            at(0),
            at(100),
            at(999),
            at(1000),
            at(1500),
            at(1999),
            at(2100),
        ];
        // [0, 1000) holds three, and so does [1000, 2000): 1000 is a second after 0.
        assert_eq!(busiest_within(&times, Duration::from_secs(1)), 3);
        let mut more = times.to_vec();
        more.push(at(1800));
        assert_eq!(busiest_within(&more, Duration::from_secs(1)), 4);
        assert_eq!(busiest_within(&[], Duration::from_secs(1)), 0);
    }
}
