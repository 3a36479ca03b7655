//! Shared set-up: the server over a mock STRING, fixtures as responses, request queries.

use lifesciences_core::SourceConfig;
use lifesciences_core::testing::{Fixtures, McpTestClient, mock_source};
use string_mcp::{StringServer, string_config};
use wiremock::matchers::{method, path};
use wiremock::{Mock, MockServer, Request, ResponseTemplate};

/// The TP53 CURIE every scenario starts from.
pub const TP53: &str = "STRING:9606.ENSP00000269305";

/// An environment given as pairs, for `string_config`.
pub use lifesciences_core::testing::fake_env as env;

/// The server's real STRING configuration (caller identity included) pointed at `uri`,
/// with the politeness of `mock_source` (no rate wait, millisecond retries) so the suite
/// stays fast. The rate-limit test uses the real configuration unchanged.
pub fn fast_config(uri: &str) -> SourceConfig {
    let fast = mock_source("STRING", uri);
    string_config(env(&[("STRING_API_URL", uri)]))
        .unwrap()
        .with_rate(fast.rate_per_second)
        .with_max_concurrent(fast.max_concurrent)
        .with_timeout(fast.timeout)
        .with_retry(fast.retry)
}

/// A mock STRING and an MCP client connected to a server in front of it.
pub async fn setup() -> (MockServer, McpTestClient) {
    let upstream = MockServer::start().await;
    let server = StringServer::new(fast_config(&upstream.uri())).unwrap();
    let client = McpTestClient::connect(server).await;
    (upstream, client)
}

/// A fixture as STRING's 200 JSON answer.
pub fn fixture(name: &str) -> ResponseTemplate {
    let body = Fixtures::of(env!("CARGO_MANIFEST_DIR")).text(name);
    ResponseTemplate::new(200)
        .insert_header("content-type", "application/json")
        .set_body_string(body)
}

/// A GET of one STRING method (`json/<method>`).
pub fn get(string_method: &str) -> wiremock::MockBuilder {
    Mock::given(method("GET")).and(path(format!("/json/{string_method}")))
}

/// The requests the mock received for one STRING method.
pub async fn requests_to(upstream: &MockServer, string_method: &str) -> Vec<Request> {
    let wanted = format!("/json/{string_method}");
    upstream
        .received_requests()
        .await
        .unwrap_or_default()
        .into_iter()
        .filter(|r| r.url.path() == wanted)
        .collect()
}

/// The query parameters of a request, in order.
pub fn query_of(request: &Request) -> Vec<(String, String)> {
    request
        .url
        .query_pairs()
        .map(|(k, v)| (k.into_owned(), v.into_owned()))
        .collect()
}

/// How many requests reached the mock at all.
pub async fn request_count(upstream: &MockServer) -> usize {
    upstream.received_requests().await.unwrap_or_default().len()
}
