//! Integration tests of igvf-mcp: one test binary, one module per area. Every upstream is a
//! local mock serving fixtures derived from recorded responses; nothing touches the network.
#![expect(
    clippy::unwrap_used,
    clippy::panic,
    reason = "test helpers outside #[test] fns: failing loudly is the point"
)]

mod associations;
mod binary;
mod entity;
mod evaluation;
mod export;
mod faults;
mod ld;
mod live;
mod provenance;
mod ranking;
mod region;
mod resolve;
mod server;
mod sources;
mod strict_clients;

use igvf_mcp::IgvfServer;
use igvf_mcp::spec::spec;
use lifesciences_core::McpServer;
use lifesciences_core::testing::{Fixtures, McpTestClient, mock_env, mock_upstream};
use serde_json::Value;
use wiremock::matchers::{method, path, query_param};
use wiremock::{Mock, MockServer, Request, Respond, ResponseTemplate};

pub use lifesciences_core::testing::fixture;

/// The crate's fixtures.
pub fn fixtures() -> Fixtures {
    Fixtures::here()
}

/// A 200 JSON response with `[]` (the upstream's miss).
pub fn empty() -> ResponseTemplate {
    ResponseTemplate::new(200)
        .insert_header("content-type", "application/json")
        .set_body_string("[]")
}

/// A server over the mock at `uri` (quick retries), with any other variables in `pairs`.
pub fn server_with(uri: &str, pairs: &[(&str, &str)]) -> IgvfServer {
    let mut env = vec![("IGVF_CATALOG_API_URL", uri)];
    env.extend_from_slice(pairs);
    IgvfServer::from_env(&mock_env(&env)).unwrap()
}

/// A mock upstream and an MCP client connected in-process to a server pointed at it. A
/// request no route of the test expected fails the test.
pub async fn setup() -> (MockServer, McpTestClient) {
    let upstream = mock_upstream().await;
    let client = McpTestClient::connect(server_with(&upstream.uri(), &[])).await;
    (upstream, client)
}

/// Mount `GET /<path>` answering `response` when every `(name, value)` is in the query.
pub async fn route(
    upstream: &MockServer,
    at: &str,
    query: &[(&str, &str)],
    response: ResponseTemplate,
) {
    let mut mock = Mock::given(method("GET")).and(path(format!("/{at}")));
    for (name, value) in query {
        mock = mock.and(query_param(*name, *value));
    }
    mock.respond_with(response).mount(upstream).await;
}

/// The two requests a variant's record adds: its summary (the recorded one for
/// NC_000020.11:3658947:A:G, trpc's 404 miss for any other) and the regulatory elements
/// containing it (none here).
pub async fn mount_variant_context(upstream: &MockServer) {
    route(
        upstream,
        "variants/summary",
        &[("variant_id", "NC_000020.11:3658947:A:G")],
        fixture("variants_summary__variant_id=NC_000020.11_3658947_A_G.json"),
    )
    .await;
    Mock::given(method("GET"))
        .and(path("/variants/summary"))
        .respond_with(ResponseTemplate::new(404).set_body_json(
            serde_json::json!({"message": "Variant not found", "code": "NOT_FOUND"}),
        ))
        .with_priority(10)
        .mount(upstream)
        .await;
    Mock::given(method("GET"))
        .and(path("/genomic-elements"))
        .respond_with(empty())
        .with_priority(10)
        .mount(upstream)
        .await;
}

/// Mount `GET /<path>` answering `[]` (the upstream's miss) for each of `paths` when
/// every `(name, value)` is in the query: the data sets a test expects to be asked,
/// all with the same parameter, and to have nothing.
pub async fn no_rows(upstream: &MockServer, paths: &[&str], query: &[(&str, &str)]) {
    for at in paths {
        route(upstream, at, query, empty()).await;
    }
}

/// The requests the upstream received, as (path, query pairs).
pub async fn requests(upstream: &MockServer) -> Vec<(String, Vec<(String, String)>)> {
    upstream
        .received_requests()
        .await
        .unwrap_or_default()
        .iter()
        .map(|r| {
            (
                r.url.path().to_owned(),
                r.url
                    .query_pairs()
                    .map(|(k, v)| (k.into_owned(), v.into_owned()))
                    .collect(),
            )
        })
        .collect()
}

/// Every request the server sent names only parameters the production spec lists for
/// that endpoint (the `gene_name` trap, checked on the wire), and asks for JSON.
pub async fn assert_requests_follow_the_spec(upstream: &MockServer) {
    let received = upstream.received_requests().await.unwrap_or_default();
    assert!(!received.is_empty(), "no request reached the upstream");
    for request in &received {
        let path = request.url.path();
        let endpoint = spec()
            .endpoint(path)
            .unwrap_or_else(|| panic!("{path} is not an endpoint of the spec"));
        for (name, _) in request.url.query_pairs() {
            assert!(
                endpoint.param(&name).is_some(),
                "{path} was sent '{name}', which the spec does not list"
            );
        }
        assert_eq!(
            request.headers.get("accept").and_then(|v| v.to_str().ok()),
            Some("application/json")
        );
    }
}

/// An upstream that answers from `rows` the way the catalog does: a numeric filter
/// `neg_log10_pvalue=gte:x` keeps only rows whose `neg_log10_pvalue` is a number at least
/// `x` (in AQL, `null >= x` is false, so rows without the value are dropped), and
/// `page`/`limit` cut the result into pages.
#[derive(Clone)]
pub struct Catalog {
    rows: Vec<Value>,
}

impl Catalog {
    /// The rows of a fixture (a JSON array) or given directly.
    pub fn new(rows: Vec<Value>) -> Self {
        Self { rows }
    }

    /// The rows of fixture `name`.
    pub fn fixture(name: &str) -> Self {
        Self::new(
            fixtures()
                .json(name)
                .as_array()
                .cloned()
                .unwrap_or_default(),
        )
    }
}

impl Respond for Catalog {
    fn respond(&self, request: &Request) -> ResponseTemplate {
        let query: Vec<(String, String)> = request
            .url
            .query_pairs()
            .map(|(k, v)| (k.into_owned(), v.into_owned()))
            .collect();
        let get = |name: &str| {
            query
                .iter()
                .find(|(k, _)| k == name)
                .map(|(_, v)| v.clone())
        };
        let mut rows: Vec<Value> = self.rows.clone();
        if let Some(filter) = get("neg_log10_pvalue") {
            let at_least: f64 = filter.trim_start_matches("gte:").parse().unwrap();
            rows.retain(|r| {
                r["neg_log10_pvalue"]
                    .as_f64()
                    .is_some_and(|v| v >= at_least)
            });
        }
        let page: usize = get("page").map_or(0, |p| p.parse().unwrap());
        let limit: usize = get("limit").map_or(25, |l| l.parse().unwrap());
        let page_rows: Vec<Value> = rows.into_iter().skip(page * limit).take(limit).collect();
        ResponseTemplate::new(200).set_body_json(page_rows)
    }
}
