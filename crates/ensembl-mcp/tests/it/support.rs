//! The mock upstreams every test talks to: Ensembl REST under `/ensembl` and EBI Search
//! under `/ebisearch` of one wiremock server, serving the fixtures in `tests/fixtures/`
//! (see its README for where each comes from).

use ensembl_mcp::EnsemblServer;
use lifesciences_core::McpServer;
use lifesciences_core::testing::{Fixtures, McpTestClient, mock_env, mock_upstream};
use serde_json::{Map, Value, json};
use wiremock::matchers::{method, path, path_regex, query_param};
use wiremock::{Mock, MockServer, Request, Respond, ResponseTemplate};

pub(crate) use lifesciences_core::testing::fixture;

pub(crate) fn fixtures() -> Fixtures {
    Fixtures::here()
}

/// Ensembl's answer to an unknown stable ID: HTTP 400 naming the ID.
pub(crate) fn unknown_id(id: &str) -> ResponseTemplate {
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
/// others, keyed by the IDs as sent.
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
pub(crate) struct EbiPages(pub Value);

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

/// A VEP POST as VEP answers it: for each variant of the body (`ids`, `hgvs_notations` or
/// `variants`), in the body's order, the fixture element whose `input` is that variant;
/// variants it has no element for are left out, and a batch with none is refused with a
/// 400, as VEP does.
pub(crate) struct VepAnswers(pub Vec<Value>);

impl VepAnswers {
    pub(crate) fn from(name: &str) -> Self {
        Self(
            fixtures()
                .json(name)
                .as_array()
                .cloned()
                .unwrap_or_default(),
        )
    }
}

impl Respond for VepAnswers {
    fn respond(&self, request: &Request) -> ResponseTemplate {
        let body: Value = serde_json::from_slice(&request.body).unwrap_or_default();
        let sent = ["ids", "hgvs_notations", "variants"]
            .iter()
            .find_map(|key| body[key].as_array())
            .cloned()
            .unwrap_or_default();
        let answers: Vec<Value> = sent
            .iter()
            .filter_map(|v| self.0.iter().find(|e| e["input"] == *v).cloned())
            .collect();
        if answers.is_empty() {
            return ResponseTemplate::new(400)
                .set_body_json(json!({"error": "WARNING: Unable to parse HGVS notation"}));
        }
        ResponseTemplate::new(200).set_body_json(answers)
    }
}

/// A 393-letter protein standing in for TP53's.
pub(crate) fn protein() -> String {
    "MEEPQSDPSV".repeat(39) + "KKG"
}

/// `POST sequence/id` as Ensembl answers it: an array, one record per sequence, `query`
/// the ID asked; a gene asked as cDNA gives one per transcript; `start`/`end` cut each
/// sequence; IDs without a sequence are left out.
pub(crate) struct SequenceAnswers;

impl Respond for SequenceAnswers {
    fn respond(&self, request: &Request) -> ResponseTemplate {
        let body: Value = serde_json::from_slice(&request.body).unwrap();
        let kind = body["type"].as_str().unwrap_or("genomic");
        let cut = |seq: String| match (body["start"].as_u64(), body["end"].as_u64()) {
            (Some(s), Some(e)) => seq[(s as usize - 1)..(e as usize).min(seq.len())].to_owned(),
            _ => seq,
        };
        let mut out = Vec::new();
        for id in body["ids"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(Value::as_str)
        {
            match (id, kind) {
                ("ENSP00000269305", "protein") => out.push(json!({
                    "id": id, "version": 4, "desc": null, "molecule": "protein",
                    "seq": cut(protein()), "query": id})),
                ("ENSG00000141510", "cdna") => {
                    for t in ["ENST00000269305", "ENST00000445888"] {
                        out.push(
                            json!({"id": t, "version": 9, "desc": null, "molecule": "dna",
                                        "seq": cut("ACGT".repeat(640)), "query": id}),
                        );
                    }
                }
                ("ENST00000269305", "genomic") => out.push(json!({
                    "id": id, "version": 9, "molecule": "dna",
                    "desc": "chromosome:GRCh38:17:7661779:7687538:-1",
                    "seq": cut("ACGT".repeat(6440)), "query": id})),
                _ => {}
            }
        }
        if out.is_empty() {
            return ResponseTemplate::new(404).set_body_json(json!({"error": "No results found"}));
        }
        ResponseTemplate::new(200).set_body_json(out)
    }
}

/// The mock upstreams with every fixture route mounted.
pub(crate) struct Upstream {
    pub mock: MockServer,
}

impl Upstream {
    pub(crate) async fn start() -> Self {
        let mock = mock_upstream().await;
        let upstream = Self { mock };
        upstream.mount_fixtures().await;
        upstream
    }

    /// An upstream with no routes (tests that script their own answers).
    pub(crate) async fn empty() -> Self {
        Self {
            mock: mock_upstream().await,
        }
    }

    pub(crate) fn ensembl_url(&self) -> String {
        format!("{}/ensembl", self.mock.uri())
    }

    pub(crate) fn ebi_url(&self) -> String {
        format!("{}/ebisearch", self.mock.uri())
    }

    /// A server over this mock (quick retries), with any other variables in `pairs`.
    pub(crate) fn server_with(&self, pairs: &[(&str, &str)]) -> EnsemblServer {
        let (ensembl, ebi) = (self.ensembl_url(), self.ebi_url());
        let mut env = vec![
            ("ENSEMBL_API_URL", ensembl.as_str()),
            ("EBI_SEARCH_API_URL", ebi.as_str()),
        ];
        env.extend_from_slice(pairs);
        EnsemblServer::from_env(&mock_env(&env)).unwrap()
    }

    /// A server over this mock.
    pub(crate) fn server(&self) -> EnsemblServer {
        self.server_with(&[])
    }

    /// A server over this mock whose caches are off (only coalescing can merge requests).
    pub(crate) fn uncached_server(&self) -> EnsemblServer {
        self.server_with(&[("LIFESCIENCES_CACHE_TTL_SECS", "0")])
    }

    /// An MCP client connected in-process to a server over this mock.
    pub(crate) async fn client(&self) -> McpTestClient {
        McpTestClient::connect(self.server()).await
    }

    /// Every request the mock received so far.
    pub(crate) async fn requests(&self) -> Vec<Request> {
        self.mock.received_requests().await.unwrap_or_default()
    }

    /// Requests received for `path` (e.g. `/ensembl/info/species`).
    pub(crate) async fn count(&self, path: &str) -> usize {
        self.requests()
            .await
            .iter()
            .filter(|r| r.url.path() == path)
            .count()
    }

    /// The requests received for `path`.
    pub(crate) async fn requests_to(&self, path: &str) -> Vec<Request> {
        self.requests()
            .await
            .into_iter()
            .filter(|r| r.url.path() == path)
            .collect()
    }

    async fn mount_fixtures(&self) {
        mount_vep(self).await;
        let m = &self.mock;
        // The data release, asked once a day by a server in its real configuration (the
        // built binary); tests in process leave it off.
        Mock::given(method("GET"))
            .and(path("/ensembl/info/data"))
            .respond_with(fixture("info_data.json"))
            .mount(m)
            .await;
        Mock::given(method("GET"))
            .and(path(
                "/ensembl/map/homo_sapiens/GRCh37/17%3A7577121-7577121%3A1/GRCh38",
            ))
            .respond_with(fixture("map__GRCh37_17_7577121__GRCh38.json"))
            .mount(m)
            .await;
        Mock::given(method("GET"))
            .and(path(
                "/ensembl/overlap/region/homo_sapiens/17%3A7661779-7687538",
            ))
            .respond_with(fixture("overlap__17_7661779-7687538__gene_regulatory.json"))
            .mount(m)
            .await;
        Mock::given(method("GET"))
            .and(path("/ensembl/homology/id/homo_sapiens/ENSG00000141510"))
            .respond_with(fixture("homology__ENSG00000141510.json"))
            .mount(m)
            .await;
        Mock::given(method("POST"))
            .and(path("/ensembl/sequence/id"))
            .respond_with(SequenceAnswers)
            .mount(m)
            .await;
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
            // all_levels=1 is required: without it a gene's xrefs lack Swiss-Prot.
            Mock::given(method("GET"))
                .and(path(format!("/ensembl/xrefs/id/{id}")))
                .and(query_param("all_levels", "1"))
                .respond_with(fixture(&format!("xrefs_id__{id}.json")))
                .mount(m)
                .await;
        }
        Mock::given(method("GET"))
            .and(path_regex(r"^/ensembl/homology/id/[^/]+/[^/]+$"))
            .respond_with(UnknownId)
            .with_priority(10)
            .mount(m)
            .await;
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
        // No match is an empty list.
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

/// The variant routes: the three VEP POST forms (with the flags every request carries),
/// one place-and-allele GET, answered by the `vep_*` fixtures; and rs699's record. HGVS is
/// answered per notation on Ensembl transcripts; only a request with `refseq=1`, which the
/// server never sends, would get the answer recorded with it (RefSeq transcripts, NCBI
/// gene IDs), so a test asserting Ensembl gene IDs fails if it ever did.
pub(crate) async fn mount_vep(upstream: &Upstream) {
    let m = &upstream.mock;
    Mock::given(method("GET"))
        .and(path("/ensembl/variation/homo_sapiens/rs699"))
        .respond_with(fixture("variation__rs699.json"))
        .mount(m)
        .await;
    Mock::given(method("POST"))
        .and(path("/ensembl/vep/homo_sapiens/hgvs"))
        .and(query_param("refseq", "1"))
        .respond_with(fixture("vep_hgvs__NM_005912.3_c.253A-G__refseq=1.json"))
        .with_priority(1)
        .mount(m)
        .await;
    Mock::given(method("POST"))
        .and(path("/ensembl/vep/homo_sapiens/hgvs"))
        .and(query_param("canonical", "1"))
        .and(query_param("mane", "1"))
        .respond_with(VepAnswers::from("vep_hgvs__ensembl_transcripts.json"))
        .mount(m)
        .await;
    for (route, name) in [
        (
            "/ensembl/vep/homo_sapiens/id",
            "vep_id__rs186950277__testdb.json",
        ),
        (
            "/ensembl/vep/homo_sapiens/region",
            "vep_region__X_31180437_C_T.json",
        ),
    ] {
        Mock::given(method("POST"))
            .and(path(route))
            .and(query_param("canonical", "1"))
            .and(query_param("mane", "1"))
            .respond_with(fixture(name))
            .mount(m)
            .await;
    }
    Mock::given(method("GET"))
        .and(path(
            "/ensembl/vep/homo_sapiens/region/16%3A89279135-89279135/C",
        ))
        .respond_with(fixture("vep_region__16_89279135_C.json"))
        .mount(m)
        .await;
}
