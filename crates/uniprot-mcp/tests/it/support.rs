//! Shared set-up: the server over a mock UniProt, recorded answers served with UniProt's
//! own headers, and the requests the mock received.

use lifesciences_core::McpServer;
use lifesciences_core::testing::{Fixtures, McpTestClient, mock_env, mock_upstream};
use serde_json::Value;
use uniprot_mcp::UniprotServer;
use wiremock::matchers::{method, path};
use wiremock::{Mock, MockServer, Request, ResponseTemplate};

pub(crate) use lifesciences_core::testing::fixture;

/// Where UniProt is: its recorded URLs start with it, and tests move them to the mock.
pub(crate) const UNIPROT: &str = "https://rest.uniprot.org";

/// The fields `uniprot_get_protein` asks for one protein in brief (docs/sources/uniprot.md,
/// "The summary's fields").
pub(crate) const SUMMARY_FIELDS: &str = "accession,id,reviewed,gene_primary,organism_id,length,\
    protein_name,gene_names,organism_name,protein_existence,annotation_score,cc_function,\
    cc_subcellular_location,cc_disease,cc_alternative_products,keyword,feature_count,\
    comment_count,xref_ensembl,xref_mane-select,xref_refseq,xref_hgnc,xref_geneid,xref_mim,\
    xref_pdb,xref_alphafolddb,xref_string,xref_chembl,xref_guidetopharmacology,xref_biogrid,\
    xref_kegg,xref_reactome,fragment";

/// The fields of a search row.
pub(crate) const SEARCH_FIELDS: &str = "accession,id,reviewed,protein_name,gene_primary,\
    organism_name,organism_id,length,annotation_score";

/// The server's real UniProt configuration pointed at `uri`, quick to test (no rate
/// wait, millisecond retries), with any other variables in `pairs`.
pub(crate) fn server_with(uri: &str, pairs: &[(&str, &str)]) -> UniprotServer {
    let mut env = vec![("UNIPROT_API_URL", uri)];
    env.extend_from_slice(pairs);
    UniprotServer::from_env(&mock_env(&env)).unwrap()
}

/// A mock UniProt and an MCP client connected to a server in front of it.
pub(crate) async fn setup() -> (MockServer, McpTestClient) {
    setup_with(&[]).await
}

/// [`setup`] with variables of the test's own (`UNIPROT_MAPPING_WAIT_SECS`…).
pub(crate) async fn setup_with(pairs: &[(&str, &str)]) -> (MockServer, McpTestClient) {
    let upstream = mock_upstream().await;
    let client = McpTestClient::connect(server_with(&upstream.uri(), pairs)).await;
    (upstream, client)
}

/// A GET of one path.
pub(crate) fn get(at: &str) -> wiremock::MockBuilder {
    Mock::given(method("GET")).and(path(at.to_owned()))
}

/// A POST of one path.
pub(crate) fn post(at: &str) -> wiremock::MockBuilder {
    Mock::given(method("POST")).and(path(at.to_owned()))
}

/// The headers UniProt sent with a recorded answer (`*.http.json`) that say something of
/// UniProt's own: its release and dates, a page's total and its `Link`, a redirect's
/// `Location`. The others (compression, caching, CORS) describe the recorded transfer,
/// not this one. URLs point to `base`, the mock, instead of UniProt.
pub(crate) fn recorded_headers(file: &str, base: &str) -> Vec<(String, String)> {
    let saved = Fixtures::here().json(file);
    saved["headers"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|pair| {
            let name = pair[0].as_str()?;
            let value = pair[1].as_str()?;
            let uniprot_s = name.to_ascii_lowercase().starts_with("x-")
                || name.eq_ignore_ascii_case("link")
                || name.eq_ignore_ascii_case("location");
            uniprot_s.then(|| (name.to_owned(), value.replace(UNIPROT, base)))
        })
        .collect()
}

/// The URL a recording asked (`url` of a `*.http.json`), moved to `base`: for a status
/// recorded with its redirect followed, where the redirect led.
pub(crate) fn recorded_url(file: &str, base: &str) -> String {
    Fixtures::here().json(file)["url"]
        .as_str()
        .unwrap()
        .replace(UNIPROT, base)
}

/// `template` with the UniProt headers of a recording (see [`recorded_headers`]).
pub(crate) fn with_headers(
    mut template: ResponseTemplate,
    file: &str,
    base: &str,
) -> ResponseTemplate {
    for (name, value) in recorded_headers(file, base) {
        template = template.insert_header(name.as_str(), value.as_str());
    }
    template
}

/// A recorded JSON body served with the UniProt headers of a recording.
pub(crate) fn answered(body: &str, headers: &str, base: &str) -> ResponseTemplate {
    with_headers(fixture(body), headers, base)
}

/// A JSON body (a page made of recorded entries, say) as UniProt's 200.
pub(crate) fn json_answer(body: &Value) -> ResponseTemplate {
    ResponseTemplate::new(200).set_body_raw(body.to_string().into_bytes(), "application/json")
}

/// `{"results": [entry, …]}`: a search page holding recorded entries, in the shape every
/// search page has (`tests/fixtures/uniprotkb_search__F1MAB7_OR_O14975.json`).
pub(crate) fn page_of(entries: &[&str]) -> Value {
    let fixtures = Fixtures::here();
    serde_json::json!({"results": entries.iter().map(|e| fixtures.json(e)).collect::<Vec<_>>()})
}

/// UniProt's `303 See Other` to `location`, with `body` (a merged accession's inactive
/// record, a finished job's status) or none.
pub(crate) fn see_other(location: &str, body: Option<&str>) -> ResponseTemplate {
    let template = ResponseTemplate::new(303).insert_header("Location", location);
    match body {
        Some(file) => {
            template.set_body_raw(Fixtures::here().text(file).into_bytes(), "application/json")
        }
        None => template,
    }
}

/// A UniProt error answer with a recorded body.
pub(crate) fn error_answer(status: u16, body: &str) -> ResponseTemplate {
    ResponseTemplate::new(status)
        .set_body_raw(Fixtures::here().text(body).into_bytes(), "application/json")
}

/// The requests the mock received for one path.
pub(crate) async fn requests_to(upstream: &MockServer, at: &str) -> Vec<Request> {
    upstream
        .received_requests()
        .await
        .unwrap_or_default()
        .into_iter()
        .filter(|r| r.url.path() == at)
        .collect()
}

/// Every request the mock received, as `METHOD path?query`, in order.
pub(crate) async fn requests(upstream: &MockServer) -> Vec<String> {
    upstream
        .received_requests()
        .await
        .unwrap_or_default()
        .iter()
        .map(|r| match r.url.query() {
            Some(q) => format!("{} {}?{q}", r.method, r.url.path()),
            None => format!("{} {}", r.method, r.url.path()),
        })
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

/// One query parameter of a request.
pub(crate) fn param(request: &Request, name: &str) -> Option<String> {
    query_of(request)
        .into_iter()
        .find(|(k, _)| k == name)
        .map(|(_, v)| v)
}

/// The form fields of a POST, in order.
pub(crate) fn form_of(request: &Request) -> Vec<(String, String)> {
    url::form_urlencoded::parse(&request.body)
        .map(|(k, v)| (k.into_owned(), v.into_owned()))
        .collect()
}

/// Pairs of string slices as owned pairs, to compare with [`query_of`] and [`form_of`].
pub(crate) fn pairs(list: &[(&str, &str)]) -> Vec<(String, String)> {
    list.iter()
        .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
        .collect()
}
