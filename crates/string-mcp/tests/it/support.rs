//! Shared set-up: the server over a mock STRING, fixtures as responses, request queries.

use lifesciences_core::McpServer;
use lifesciences_core::testing::{McpTestClient, mock_env, mock_upstream};
use string_mcp::StringServer;
use wiremock::matchers::{method, path};
use wiremock::{Mock, MockServer, Request};

pub(crate) use lifesciences_core::testing::fixture;

/// The TP53 CURIE most tests start from.
pub(crate) const TP53: &str = "STRING:9606.ENSP00000269305";

/// The server's real STRING configuration (caller identity included) pointed at `uri`,
/// with quick politeness (no rate wait, millisecond retries) so the suite stays fast, and
/// any other variables in `pairs`. The rate-limit test uses the real politeness.
pub(crate) fn server_with(uri: &str, pairs: &[(&str, &str)]) -> StringServer {
    let mut env = vec![("STRING_API_URL", uri)];
    env.extend_from_slice(pairs);
    StringServer::from_env(&mock_env(&env)).unwrap()
}

/// A mock STRING and an MCP client connected to a server in front of it.
pub(crate) async fn setup() -> (MockServer, McpTestClient) {
    let upstream = mock_upstream().await;
    let client = McpTestClient::connect(server_with(&upstream.uri(), &[])).await;
    (upstream, client)
}

/// A GET of one STRING method (`json/<method>`).
pub(crate) fn get(string_method: &str) -> wiremock::MockBuilder {
    Mock::given(method("GET")).and(path(format!("/json/{string_method}")))
}

/// The requests the mock received for one STRING method.
pub(crate) async fn requests_to(upstream: &MockServer, string_method: &str) -> Vec<Request> {
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
pub(crate) fn query_of(request: &Request) -> Vec<(String, String)> {
    request
        .url
        .query_pairs()
        .map(|(k, v)| (k.into_owned(), v.into_owned()))
        .collect()
}

/// How many requests reached the mock at all.
pub(crate) async fn request_count(upstream: &MockServer) -> usize {
    upstream.received_requests().await.unwrap_or_default().len()
}

/// A POST of one STRING method (`json/<method>`): the set form.
pub(crate) fn post(string_method: &str) -> wiremock::MockBuilder {
    Mock::given(method("POST")).and(path(format!("/json/{string_method}")))
}

/// The form fields of a POST, in order (`identifiers` is one field, joined with `\r`).
pub(crate) fn form_of(request: &Request) -> Vec<(String, String)> {
    url::form_urlencoded::parse(&request.body)
        .map(|(k, v)| (k.into_owned(), v.into_owned()))
        .collect()
}

/// One form field of a POST.
pub(crate) fn form_field(request: &Request, name: &str) -> Option<String> {
    form_of(request)
        .into_iter()
        .find(|(k, _)| k == name)
        .map(|(_, v)| v)
}

/// The `identifiers` of a set POST, split.
pub(crate) fn identifiers_of(request: &Request) -> Vec<String> {
    form_field(request, "identifiers")
        .map(|s| s.split('\r').map(str::to_owned).collect())
        .unwrap_or_default()
}

/// A wiremock matcher on one form field of a POST body.
pub(crate) struct FormField(pub &'static str, pub String);

impl wiremock::Match for FormField {
    fn matches(&self, request: &Request) -> bool {
        form_field(request, self.0).as_deref() == Some(self.1.as_str())
    }
}
