//! Every tool, once succeeding and once failing, through the test client that checks each
//! result as a strict MCP client would: a success's structured content must validate
//! against the tool's output schema (JSON Schema 2020-12), and an error must carry its
//! envelope as text only, with no structured content.

use lifesciences_core::ErrorCode;
use serde_json::json;
use wiremock::matchers::{method, path, query_param};
use wiremock::{Mock, ResponseTemplate};

use crate::support::Upstream;

/// A strict client accepts every tool's answer, whether the call succeeds or fails; and
/// every tool the server lists is exercised here, so a new tool needs a case.
#[tokio::test]
async fn every_tool_answers_strict_clients_on_success_and_on_error() {
    // Every fixture route; Ensembl answers an unknown ID with its 400 "not found", and
    // here EBI Search is down (502) for one free-text query.
    let upstream = Upstream::start().await;
    Mock::given(method("GET"))
        .and(path("/ebisearch/ensembl_gene"))
        .and(query_param("query", "tumor protein"))
        .respond_with(ResponseTemplate::new(502))
        .with_priority(1)
        .mount(&upstream.mock)
        .await;
    let client = upstream.client().await;

    // (tool, arguments that succeed, arguments that fail, the failure's code)
    let cases = [
        (
            "ensembl_get_gene",
            json!({"ensembl_id": "ENSG00000141510"}),
            json!({"ensembl_id": "ENSG99999999999"}),
            ErrorCode::EntityNotFound,
        ),
        (
            "ensembl_get_transcript",
            json!({"transcript_id": "ENST00000311936.8"}),
            json!({"transcript_id": "ENSG00000141510"}),
            ErrorCode::UnresolvedEntity,
        ),
        (
            "ensembl_predict_variant_effect",
            json!({"variants": ["rs186950277", "X:31180437:C:T", "not a variant"]}),
            json!({"variants": []}),
            ErrorCode::InvalidInput,
        ),
        (
            "ensembl_get_sequence",
            json!({"ids": ["ENSP00000269305"], "max_length": 20}),
            json!({"ids": ["ENSP00000269305"], "start": 5, "end": 2}),
            ErrorCode::InvalidInput,
        ),
        (
            "ensembl_get_homologs",
            json!({"gene": "ENSG00000141510"}),
            json!({"gene": "ENSG99999999999"}),
            ErrorCode::EntityNotFound,
        ),
        (
            "ensembl_query_region",
            json!({"region": "17:7661779-7687538", "features": ["gene", "regulatory"]}),
            json!({"region": "17:1-20000", "features": ["variation"]}),
            ErrorCode::InvalidInput,
        ),
        (
            "ensembl_map_coordinates",
            json!({"region": "17:7577121-7577121", "from_assembly": "GRCh37"}),
            json!({"region": "17:7577121-7577121"}),
            ErrorCode::InvalidInput,
        ),
        (
            "ensembl_get_variant",
            json!({"id": "rs699", "phenotypes": true}),
            json!({"id": "rs 699"}),
            ErrorCode::InvalidInput,
        ),
        (
            "ensembl_search_genes",
            json!({"query": "BRCA1"}),
            json!({"query": "tumor protein"}),
            ErrorCode::UpstreamError,
        ),
    ];
    client
        .assert_every_tool_answers_success_and_error(&cases)
        .await;
    client.close().await;
}
