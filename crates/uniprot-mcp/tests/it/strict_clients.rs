//! Every tool, once succeeding and once failing, through the test client that checks each
//! result as a strict MCP client would: a success's structured content must validate
//! against the tool's output schema (JSON Schema 2020-12), and an error must carry its
//! envelope as text only, with no structured content.

use lifesciences_core::ErrorCode;
use serde_json::json;
use wiremock::matchers::query_param;

use crate::support::{
    error_answer, fixture, get, json_answer, page_of, post, recorded_url, see_other, setup,
};

/// A strict client accepts every tool's answer, whether the call succeeds or fails; and
/// every tool the server lists is exercised here, so a new tool needs a case.
#[tokio::test]
async fn every_tool_answers_strict_clients_on_success_and_on_error() {
    let (upstream, client) = setup().await;
    let base = upstream.uri();
    // Search: DNASE2 in human is found; a field UniProt does not know is its 400.
    get("/uniprotkb/search")
        .and(query_param(
            "query",
            "gene_exact:DNASE2 AND organism_id:9606 AND reviewed:true",
        ))
        .respond_with(
            json_answer(&page_of(&["uniprotkb__O00115.json"]))
                .insert_header("X-Total-Results", "1"),
        )
        .mount(&upstream)
        .await;
    get("/uniprotkb/search")
        .and(query_param(
            "query",
            "gene_exact:DNASE2 AND organism_id:9606 AND reviewed:false",
        ))
        .respond_with(json_answer(&json!({"results": []})).insert_header("X-Total-Results", "0"))
        .mount(&upstream)
        .await;
    get("/uniprotkb/search")
        .and(query_param("query", "(nosuchfield:abc) AND reviewed:true"))
        .respond_with(error_answer(400, "error_400__search__nosuchfield.json"))
        .mount(&upstream)
        .await;
    // Entries: P30542 and O00115 are found, P00001 is demerged, P99997 unknown.
    for (accession, file) in [
        ("P30542", "uniprotkb__P30542.json"),
        ("O00115", "uniprotkb__O00115.json"),
        ("P00001", "uniprotkb__P00001__inactive_DEMERGED.json"),
    ] {
        get(&format!("/uniprotkb/{accession}"))
            .respond_with(fixture(file))
            .mount(&upstream)
            .await;
    }
    get("/uniprotkb/P99997")
        .respond_with(error_answer(404, "error_404__P99997.json"))
        .mount(&upstream)
        .await;
    // Mapping: to Ensembl the job finishes; to UniProtKB it fails.
    post("/idmapping/run")
        .and(wiremock::matchers::body_string_contains("to=Ensembl"))
        .respond_with(fixture("idmapping_run__P99999_P99998.json"))
        .mount(&upstream)
        .await;
    post("/idmapping/run")
        .and(wiremock::matchers::body_string_contains("to=UniProtKB"))
        .respond_with(fixture("idmapping_run__P99999_P12345.json"))
        .mount(&upstream)
        .await;
    let ensembl_job = "de23a0319d53da61bfa0e594bb15fefbb754af7c";
    get(&format!("/idmapping/status/{ensembl_job}"))
        .respond_with(see_other(
            &recorded_url("idmapping_status__followed_to_results.http.json", &base),
            Some("idmapping_status__FINISHED.json"),
        ))
        .mount(&upstream)
        .await;
    get(&format!("/idmapping/results/{ensembl_job}"))
        .respond_with(fixture("idmapping_results__to_Ensembl.json"))
        .mount(&upstream)
        .await;
    get("/idmapping/status/623f038354e6e5883c8be8a2d97284cdd41ed36f")
        .respond_with(error_answer(500, "idmapping_status__ERROR.json"))
        .mount(&upstream)
        .await;

    client
        .assert_every_tool_answers_success_and_error(&[
            (
                "uniprot_search_proteins",
                json!({"gene": "DNASE2", "organism": 9606}),
                json!({"query": "nosuchfield:abc", "reviewed_only": true}),
                ErrorCode::InvalidInput,
            ),
            (
                "uniprot_get_protein",
                json!({"ids": ["P30542"], "include": ["variants", "ptms", "domains", "sites", "isoforms", "structures", "comments", "sequence"]}),
                json!({"ids": ["P00001"]}),
                ErrorCode::EntityNotFound,
            ),
            (
                "uniprot_get_features",
                json!({"id": "O00115", "types": ["variants", "isoforms", "processing"]}),
                json!({"id": "P99997"}),
                ErrorCode::EntityNotFound,
            ),
            (
                "uniprot_map_ids",
                json!({"ids": ["P99999", "P99998"], "to": "ensembl"}),
                json!({"ids": ["P99999", "P12345"], "to": "uniprot"}),
                ErrorCode::UpstreamError,
            ),
        ])
        .await;
    client.close().await;
}
