//! The mock upstreams every test talks to: Ensembl REST under `/ensembl` and EBI Search
//! under `/ebisearch` of one wiremock server, serving the fixtures in `tests/fixtures/`
//! (see its README for where each comes from).

use std::time::Duration;

use ensembl_mcp::EnsemblServer;
use lifesciences_core::SourceConfig;
use lifesciences_core::testing::{Fixtures, McpTestClient, mock_source};
use serde_json::{Map, Value, json};
use wiremock::matchers::{method, path, path_regex, query_param};
use wiremock::{Mock, MockServer, Request, Respond, ResponseTemplate};

pub fn fixtures() -> Fixtures {
    Fixtures::of(env!("CARGO_MANIFEST_DIR"))
}

/// A 200 JSON response with a fixture's bytes.
pub fn fixture(name: &str) -> ResponseTemplate {
    ResponseTemplate::new(200)
        .insert_header("content-type", "application/json")
        .set_body_string(fixtures().text(name))
}

/// Ensembl's answer to an unknown stable ID (B.2): HTTP 400 naming the ID.
pub fn unknown_id(id: &str) -> ResponseTemplate {
    ResponseTemplate::new(400).set_body_json(json!({"error": format!("ID '{id}' not found")}))
}

/// `lookup/id/{id}` or `xrefs/id/{id}` for an ID no route knows: 400 "not found", as
/// Ensembl answers.
struct UnknownId;

impl Respond for UnknownId {
    fn respond(&self, request: &Request) -> ResponseTemplate {
        let id = request.url.path().rsplit('/').next().unwrap_or_default();
        unknown_id(id)
    }
}

/// `POST lookup/id`: the requested IDs from `lookup_id_batch.json`, `null` for the
/// others, keyed by the IDs as sent (B.2).
struct BatchLookup(Map<String, Value>);

impl Respond for BatchLookup {
    fn respond(&self, request: &Request) -> ResponseTemplate {
        let Ok(body) = serde_json::from_slice::<Value>(&request.body) else {
            return ResponseTemplate::new(400).set_body_json(json!({"error": "bad JSON"}));
        };
        let Some(ids) = body["ids"].as_array() else {
            return ResponseTemplate::new(400)
                .set_body_json(json!({"error": "POST body must contain 'ids' key"}));
        };
        let answer: Map<String, Value> = ids
            .iter()
            .filter_map(Value::as_str)
            .map(|id| {
                (
                    id.to_owned(),
                    self.0.get(id).cloned().unwrap_or(Value::Null),
                )
            })
            .collect();
        ResponseTemplate::new(200).set_body_json(Value::Object(answer))
    }
}

/// EBI Search over a fixture holding a whole result list: serves the slice `start`,
/// `size` asks for, with the list's `hitCount`, as a paging upstream does.
pub struct EbiPages(pub Value);

impl Respond for EbiPages {
    fn respond(&self, request: &Request) -> ResponseTemplate {
        let param = |name: &str| {
            request
                .url
                .query_pairs()
                .find(|(k, _)| k == name)
                .and_then(|(_, v)| v.parse::<usize>().ok())
        };
        let start = param("start").unwrap_or(0);
        let size = param("size").unwrap_or(15);
        let entries: Vec<Value> = self.0["entries"]
            .as_array()
            .map(|all| all.iter().skip(start).take(size).cloned().collect())
            .unwrap_or_default();
        ResponseTemplate::new(200).set_body_json(
            json!({"hitCount": self.0["hitCount"], "entries": entries, "facets": []}),
        )
    }
}

/// The mock upstreams with every fixture route mounted.
pub struct Upstream {
    pub mock: MockServer,
}

impl Upstream {
    pub async fn start() -> Self {
        let mock = MockServer::start().await;
        let upstream = Self { mock };
        upstream.mount_fixtures().await;
        upstream
    }

    /// An upstream with no routes (tests that script their own answers).
    pub async fn empty() -> Self {
        Self {
            mock: MockServer::start().await,
        }
    }

    pub fn ensembl_url(&self) -> String {
        format!("{}/ensembl", self.mock.uri())
    }

    pub fn ebi_url(&self) -> String {
        format!("{}/ebisearch", self.mock.uri())
    }

    /// Source configurations pointing at this mock, with quick retries.
    pub fn configs(&self) -> (SourceConfig, SourceConfig) {
        (
            mock_source("Ensembl", &self.ensembl_url()),
            mock_source("EBI Search", &self.ebi_url()),
        )
    }

    /// A server over this mock.
    pub fn server(&self) -> EnsemblServer {
        let (ensembl, ebi) = self.configs();
        EnsemblServer::new(ensembl, ebi).unwrap()
    }

    /// A server over this mock whose caches are off (only coalescing can merge requests).
    pub fn uncached_server(&self) -> EnsemblServer {
        let (ensembl, ebi) = self.configs();
        EnsemblServer::new(
            ensembl.with_cache_ttl(Duration::ZERO),
            ebi.with_cache_ttl(Duration::ZERO),
        )
        .unwrap()
    }

    /// An MCP client connected in-process to a server over this mock.
    pub async fn client(&self) -> McpTestClient {
        McpTestClient::connect(self.server()).await
    }

    /// Every request the mock received so far.
    pub async fn requests(&self) -> Vec<Request> {
        self.mock.received_requests().await.unwrap_or_default()
    }

    /// Requests received for `path` (e.g. `/ensembl/info/species`).
    pub async fn count(&self, path: &str) -> usize {
        self.requests()
            .await
            .iter()
            .filter(|r| r.url.path() == path)
            .count()
    }

    /// The requests received for `path`.
    pub async fn requests_to(&self, path: &str) -> Vec<Request> {
        self.requests()
            .await
            .into_iter()
            .filter(|r| r.url.path() == path)
            .collect()
    }

    async fn mount_fixtures(&self) {
        let m = &self.mock;
        for id in [
            "ENSG00000133703",
            "ENSG00000141510",
            "ENSMUSG00000059552",
            "ENST00000311936",
            "ENST00000496384",
        ] {
            Mock::given(method("GET"))
                .and(path(format!("/ensembl/lookup/id/{id}")))
                .respond_with(fixture(&format!("lookup_id__{id}.json")))
                .mount(m)
                .await;
        }
        for id in [
            "ENSG00000133703",
            "ENSG00000141510",
            "ENSMUSG00000059552",
            "ENST00000311936",
            "ENST00000496384",
        ] {
            // all_levels=1 is required: without it a gene's xrefs lack Swiss-Prot (B.3).
            Mock::given(method("GET"))
                .and(path(format!("/ensembl/xrefs/id/{id}")))
                .and(query_param("all_levels", "1"))
                .respond_with(fixture(&format!("xrefs_id__{id}.json")))
                .mount(m)
                .await;
        }
        Mock::given(method("GET"))
            .and(path_regex(r"^/ensembl/(lookup|xrefs)/id/[^/]+$"))
            .respond_with(UnknownId)
            .with_priority(10)
            .mount(m)
            .await;
        for symbol in ["BRCA1", "KRAS"] {
            Mock::given(method("GET"))
                .and(path(format!("/ensembl/xrefs/symbol/homo_sapiens/{symbol}")))
                .and(query_param("object_type", "gene"))
                .respond_with(fixture(&format!(
                    "xrefs_symbol__homo_sapiens__{symbol}.json"
                )))
                .mount(m)
                .await;
        }
        // No match is an empty list (B.3).
        Mock::given(method("GET"))
            .and(path_regex(r"^/ensembl/xrefs/symbol/[^/]+/[^/]+$"))
            .respond_with(ResponseTemplate::new(200).set_body_json(json!([])))
            .with_priority(10)
            .mount(m)
            .await;
        Mock::given(method("GET"))
            .and(path("/ensembl/info/species"))
            .respond_with(fixture("info_species.json"))
            .mount(m)
            .await;
        let batch = fixtures().json("lookup_id_batch.json");
        Mock::given(method("POST"))
            .and(path("/ensembl/lookup/id"))
            .respond_with(BatchLookup(batch.as_object().cloned().unwrap_or_default()))
            .mount(m)
            .await;
        for (query, name) in [
            ("BRCA1", "ebisearch__BRCA1.json"),
            ("KRAS", "ebisearch__KRAS.json"),
            ("tumor protein", "ebisearch__tumor_protein.json"),
            (
                r#"(tumor protein) AND species:"Homo sapiens""#,
                "ebisearch__tumor_protein__human.json",
            ),
        ] {
            Mock::given(method("GET"))
                .and(path("/ebisearch/ensembl_gene"))
                .and(query_param("query", query))
                .and(query_param("format", "json"))
                .respond_with(EbiPages(fixtures().json(name)))
                .mount(m)
                .await;
        }
        Mock::given(method("GET"))
            .and(path("/ebisearch/ensembl_gene"))
            .respond_with(
                ResponseTemplate::new(200)
                    .set_body_json(json!({"hitCount": 0, "entries": [], "facets": []})),
            )
            .with_priority(10)
            .mount(m)
            .await;
    }
}
