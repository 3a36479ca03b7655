//! Shared set-up: the two mock upstreams, a server pointed at them, fixture responses, and
//! a matcher that pins the exact query string (ChEMBL ignores unknown filters silently, so
//! a misspelt parameter must fail a test, not pass unnoticed).

use chembl_mcp::ChemblServer;
use lifesciences_core::SourceConfig;
use lifesciences_core::testing::{Fixtures, McpTestClient, mock_source};
use wiremock::matchers::{header, method, path};
use wiremock::{Match, Mock, MockServer, Request, ResponseTemplate};

/// ChEMBL and UniChem, each a local mock.
pub struct Upstreams {
    pub chembl: MockServer,
    pub unichem: MockServer,
}

impl Upstreams {
    pub async fn start() -> Self {
        let up = Self {
            chembl: MockServer::start().await,
            unichem: MockServer::start().await,
        };
        // A request no test anticipated gets a loud 418, never the 404 that means
        // "unknown compound" to the server.
        for mock in [&up.chembl, &up.unichem] {
            Mock::given(wiremock::matchers::any())
                .respond_with(ResponseTemplate::new(418).set_body_string("unexpected request"))
                .with_priority(u8::MAX)
                .mount(mock)
                .await;
        }
        up
    }

    /// UniChem's production configuration (no retry, cached look-ups, 5 in flight),
    /// pointed at the mock through the documented variables, with a 400 ms timeout and a
    /// fast rate so the tests stay quick.
    pub fn unichem_config(&self) -> SourceConfig {
        let uri = self.unichem.uri();
        chembl_mcp::unichem_config_with(|var| match var {
            "UNICHEM_API_URL" => Some(uri.clone()),
            "UNICHEM_TIMEOUT_SECS" => Some("0.4".to_owned()),
            "UNICHEM_RATE_LIMIT" => Some("1000".to_owned()),
            _ => None,
        })
        .unwrap()
    }

    pub fn server(&self) -> ChemblServer {
        ChemblServer::new(
            mock_source("ChEMBL", &self.chembl.uri()),
            self.unichem_config(),
        )
        .unwrap()
    }

    pub async fn client(&self) -> McpTestClient {
        McpTestClient::connect(self.server()).await
    }

    /// A client whose server asks UniChem one compound at a time (its real cap is 5), so
    /// a batch's UniChem look-ups arrive in request order.
    pub async fn client_with_serial_unichem(&self) -> McpTestClient {
        let server = ChemblServer::new(
            mock_source("ChEMBL", &self.chembl.uri()),
            self.unichem_config().with_max_concurrent(1),
        )
        .unwrap();
        McpTestClient::connect(server).await
    }

    /// Requests ChEMBL received for `p` (path).
    pub async fn chembl_requests(&self, p: &str) -> Vec<Request> {
        requests_to(&self.chembl, p).await
    }

    /// Requests UniChem received.
    pub async fn unichem_requests(&self) -> Vec<Request> {
        requests_to(&self.unichem, "/compounds").await
    }
}

async fn requests_to(server: &MockServer, p: &str) -> Vec<Request> {
    server
        .received_requests()
        .await
        .unwrap_or_default()
        .into_iter()
        .filter(|r| r.url.path() == p)
        .collect()
}

pub fn fixtures() -> Fixtures {
    Fixtures::of(env!("CARGO_MANIFEST_DIR"))
}

/// A fixture as a 200 JSON response.
pub fn ok(name: &str) -> ResponseTemplate {
    ResponseTemplate::new(200)
        .insert_header("content-type", "application/json")
        .set_body_string(fixtures().text(name))
}

/// Matches when the query string holds exactly these pairs (any order), nothing more.
pub struct ExactQuery(Vec<(String, String)>);

impl Match for ExactQuery {
    fn matches(&self, request: &Request) -> bool {
        let mut got: Vec<(String, String)> = request.url.query_pairs().into_owned().collect();
        got.sort();
        let mut want = self.0.clone();
        want.sort();
        got == want
    }
}

pub fn exact_query(pairs: &[(&str, &str)]) -> ExactQuery {
    ExactQuery(
        pairs
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect(),
    )
}

/// A GET to ChEMBL with exactly `query`, asking for JSON.
pub fn chembl_get(p: &str, query: &[(&str, &str)]) -> wiremock::MockBuilder {
    Mock::given(method("GET"))
        .and(path(p))
        .and(exact_query(query))
        .and(header("accept", "application/json"))
}

/// `/molecule/{id}.json` answered with a fixture.
pub async fn mount_molecule(up: &Upstreams, upstream_id: &str, fixture: &str) {
    chembl_get(&format!("/molecule/{upstream_id}.json"), &[])
        .respond_with(ok(fixture))
        .mount(&up.chembl)
        .await;
}

/// The ChEMBL 404 for an unknown ID: empty body (A.6).
pub async fn mount_unknown_molecule(up: &Upstreams, upstream_id: &str) {
    chembl_get(&format!("/molecule/{upstream_id}.json"), &[])
        .respond_with(ResponseTemplate::new(404))
        .mount(&up.chembl)
        .await;
}

/// `/chembl_id_lookup/{id}.json` answered with `response` (a fixture, or the 404 of an ID
/// ChEMBL never issued), exactly once.
pub async fn mount_id_lookup(up: &Upstreams, upstream_id: &str, response: ResponseTemplate) {
    chembl_get(&format!("/chembl_id_lookup/{upstream_id}.json"), &[])
        .respond_with(response)
        .expect(1)
        .mount(&up.chembl)
        .await;
}

/// The `only=` of slim batch requests.
pub const SLIM_ONLY: &str = "molecule_chembl_id,pref_name,molecule_properties,molecule_synonyms";

/// `/mechanism.json?molecule_chembl_id=<parent>&limit=1000&offset=0`.
pub async fn mount_mechanisms(up: &Upstreams, parent: &str, fixture: &str) {
    chembl_get(
        "/mechanism.json",
        &[
            ("molecule_chembl_id", parent),
            ("limit", "1000"),
            ("offset", "0"),
        ],
    )
    .respond_with(ok(fixture))
    .mount(&up.chembl)
    .await;
}

/// `/target.json?target_chembl_id__in=<ids>&only=target_chembl_id,target_components&limit=n`.
pub async fn mount_targets(up: &Upstreams, ids: &str, limit: &str, fixture: &str) {
    chembl_get(
        "/target.json",
        &[
            ("target_chembl_id__in", ids),
            ("only", "target_chembl_id,target_components"),
            ("limit", limit),
        ],
    )
    .respond_with(ok(fixture))
    .mount(&up.chembl)
    .await;
}

/// UniChem's `POST /compounds` for `chembl_id`, with exactly the documented body.
pub async fn mount_unichem(up: &Upstreams, chembl_id: &str, response: ResponseTemplate) {
    Mock::given(method("POST"))
        .and(path("/compounds"))
        .and(header("accept", "application/json"))
        .and(header("content-type", "application/json"))
        .and(wiremock::matchers::body_json(serde_json::json!({
            "type": "sourceID", "compound": chembl_id, "sourceID": 1
        })))
        .respond_with(response)
        .mount(&up.unichem)
        .await;
}
