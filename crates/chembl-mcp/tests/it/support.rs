//! Shared set-up: the two mock upstreams, a server pointed at them, fixture responses, and
//! a matcher that pins the exact query string (ChEMBL ignores unknown filters silently, so
//! a misspelt parameter must fail a test, not pass unnoticed).

use chembl_mcp::ChemblServer;
use lifesciences_core::McpServer;
use lifesciences_core::testing::{McpTestClient, mock_env, mock_upstream};
use wiremock::matchers::{header, method, path};
use wiremock::{Match, Mock, MockServer, Request, ResponseTemplate};

/// ChEMBL and UniChem, each a local mock.
pub(crate) struct Upstreams {
    pub chembl: MockServer,
    pub unichem: MockServer,
}

impl Upstreams {
    pub(crate) async fn start() -> Self {
        // A request no test anticipated gets a loud 418 (never the 404 that means
        // "unknown compound" to the server) and fails the test.
        Self {
            chembl: mock_upstream().await,
            unichem: mock_upstream().await,
        }
    }

    /// A server over both mocks, with any other variables in `pairs`. UniChem keeps its
    /// production politeness (no retry, cached look-ups, 5 in flight) through the
    /// documented variables, with a 400 ms timeout so the tests stay quick.
    pub(crate) fn server_with(&self, pairs: &[(&str, &str)]) -> ChemblServer {
        let (chembl, unichem) = (self.chembl.uri(), self.unichem.uri());
        let mut env = vec![
            ("CHEMBL_API_URL", chembl.as_str()),
            ("UNICHEM_API_URL", unichem.as_str()),
            ("UNICHEM_TIMEOUT_SECS", "0.4"),
            ("UNICHEM_MAX_CONCURRENT", "5"),
        ];
        env.extend_from_slice(pairs);
        ChemblServer::from_env(&mock_env(&env)).unwrap()
    }

    pub(crate) fn server(&self) -> ChemblServer {
        self.server_with(&[])
    }

    pub(crate) async fn client(&self) -> McpTestClient {
        McpTestClient::connect(self.server()).await
    }

    /// A client whose server asks UniChem one compound at a time (its real cap is 5), so
    /// a batch's UniChem look-ups arrive in request order.
    pub(crate) async fn client_with_serial_unichem(&self) -> McpTestClient {
        McpTestClient::connect(self.server_with(&[("UNICHEM_MAX_CONCURRENT", "1")])).await
    }

    /// Requests ChEMBL received for `p` (path).
    pub(crate) async fn chembl_requests(&self, p: &str) -> Vec<Request> {
        requests_to(&self.chembl, p).await
    }

    /// Requests UniChem received.
    pub(crate) async fn unichem_requests(&self) -> Vec<Request> {
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

/// A fixture as a 200 JSON response.
pub(crate) use lifesciences_core::testing::fixture as ok;

/// Matches when the query string holds exactly these pairs (any order), nothing more.
pub(crate) struct ExactQuery(Vec<(String, String)>);

impl Match for ExactQuery {
    fn matches(&self, request: &Request) -> bool {
        let mut got: Vec<(String, String)> = request.url.query_pairs().into_owned().collect();
        got.sort();
        let mut want = self.0.clone();
        want.sort();
        got == want
    }
}

pub(crate) fn exact_query(pairs: &[(&str, &str)]) -> ExactQuery {
    ExactQuery(
        pairs
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect(),
    )
}

/// A GET to ChEMBL with exactly `query`, asking for JSON.
pub(crate) fn chembl_get(p: &str, query: &[(&str, &str)]) -> wiremock::MockBuilder {
    Mock::given(method("GET"))
        .and(path(p))
        .and(exact_query(query))
        .and(header("accept", "application/json"))
}

/// `status.json`, where a server in its real configuration (the built binary) asks which
/// release ChEMBL serves, once a day; tests in process leave that off.
pub(crate) async fn mount_status(up: &Upstreams) {
    chembl_get("/status.json", &[])
        .respond_with(ok("status.json"))
        .expect(1)
        .mount(&up.chembl)
        .await;
}

/// `/molecule/{id}.json` answered with a fixture.
pub(crate) async fn mount_molecule(up: &Upstreams, upstream_id: &str, fixture: &str) {
    chembl_get(&format!("/molecule/{upstream_id}.json"), &[])
        .respond_with(ok(fixture))
        .mount(&up.chembl)
        .await;
}

/// The ChEMBL 404 for an unknown ID: empty body (docs/sources/chembl.md, "Unknown IDs").
/// A full look-up also asks for the mechanisms of the ID as a parent and its UniChem
/// records alongside the molecule: they answer "none".
pub(crate) async fn mount_unknown_molecule(up: &Upstreams, upstream_id: &str) {
    chembl_get(&format!("/molecule/{upstream_id}.json"), &[])
        .respond_with(ResponseTemplate::new(404))
        .mount(&up.chembl)
        .await;
    mount_mechanisms(up, upstream_id, "mechanism__empty.json").await;
    mount_unichem(up, upstream_id, ok("unichem_compounds__not_found.json")).await;
}

/// `/chembl_id_lookup/{id}.json` answered with `response` (a fixture, or the 404 of an ID
/// ChEMBL never issued), exactly once.
pub(crate) async fn mount_id_lookup(up: &Upstreams, upstream_id: &str, response: ResponseTemplate) {
    chembl_get(&format!("/chembl_id_lookup/{upstream_id}.json"), &[])
        .respond_with(response)
        .expect(1)
        .mount(&up.chembl)
        .await;
}

/// The `only=` of slim batch requests.
pub(crate) const SLIM_ONLY: &str =
    "molecule_chembl_id,pref_name,molecule_properties,molecule_synonyms";

/// `/mechanism.json?parent_molecule_chembl_id=<id>&limit=1000&offset=0`: the mechanisms
/// filed under `id` as a parent or under any salt of it.
pub(crate) async fn mount_mechanisms(up: &Upstreams, id: &str, fixture: &str) {
    chembl_get(
        "/mechanism.json",
        &[
            ("parent_molecule_chembl_id", id),
            ("limit", "1000"),
            ("offset", "0"),
        ],
    )
    .respond_with(ok(fixture))
    .mount(&up.chembl)
    .await;
}

/// `/target.json?target_chembl_id__in=<ids>&only=target_chembl_id,target_components&limit=n`.
pub(crate) async fn mount_targets(up: &Upstreams, ids: &str, limit: &str, fixture: &str) {
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

/// Everything aspirin's (CHEMBL:25) full record needs from ChEMBL: the molecule, its
/// mechanisms and their targets (UniChem is mounted apart, with the answer a test wants).
pub(crate) async fn mount_aspirin(up: &Upstreams) {
    mount_molecule(up, "CHEMBL25", "molecule__CHEMBL25.json").await;
    mount_mechanisms(
        up,
        "CHEMBL25",
        "mechanism__molecule_chembl_id=CHEMBL25.json",
    )
    .await;
    mount_targets(
        up,
        "CHEMBL221,CHEMBL230",
        "2",
        "target__target_chembl_id__in=CHEMBL221,CHEMBL230.json",
    )
    .await;
}

/// UniChem's `POST /compounds` for `chembl_id`, with exactly the documented body.
pub(crate) async fn mount_unichem(up: &Upstreams, chembl_id: &str, response: ResponseTemplate) {
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
