//! Every tool, once succeeding and once failing, through the test client that checks each
//! result as a strict MCP client would: a success's structured content must validate
//! against the tool's output schema (JSON Schema 2020-12), and an error must carry its
//! envelope as text only, with no structured content.

use lifesciences_core::ErrorCode;
use serde_json::json;
use wiremock::ResponseTemplate;
use wiremock::matchers::query_param;

use crate::support::{TP53, fixture, get, post, setup};

/// A strict client accepts every tool's answer, whether the call succeeds or fails; and
/// every tool the server lists is exercised here, so a new tool needs a case.
#[tokio::test]
async fn every_tool_answers_strict_clients_on_success_and_on_error() {
    let (upstream, client) = setup().await;
    // TP53 is found and has partners; STRING refuses an unknown species (400) and keeps
    // failing (503) for ATM's partners.
    get("get_string_ids")
        .and(query_param("identifiers", "TP53"))
        .and(query_param("species", "9606"))
        .respond_with(fixture("get_string_ids__TP53.json"))
        .mount(&upstream)
        .await;
    get("get_string_ids")
        .and(query_param("species", "999999999"))
        .respond_with(ResponseTemplate::new(400).set_body_string("Error: species not found"))
        .mount(&upstream)
        .await;
    get("interaction_partners")
        .and(query_param("identifiers", "9606.ENSP00000269305"))
        .respond_with(fixture("interaction_partners__TP53.json"))
        .mount(&upstream)
        .await;
    get("interaction_partners")
        .and(query_param("identifiers", "9606.ENSP00000278616"))
        .respond_with(ResponseTemplate::new(503).set_body_string("Service Unavailable"))
        .mount(&upstream)
        .await;

    // The set tools: the four-gene set resolves and has an enrichment and a network.
    post("get_string_ids")
        .respond_with(fixture("get_string_ids__set4.json"))
        .mount(&upstream)
        .await;
    post("enrichment")
        .respond_with(fixture("enrichment__set4.json"))
        .mount(&upstream)
        .await;
    post("network")
        .respond_with(fixture("interaction_partners__set4_limit1.json"))
        .mount(&upstream)
        .await;
    post("ppi_enrichment")
        .respond_with(fixture("ppi_enrichment__set4.json"))
        .mount(&upstream)
        .await;
    post("functional_annotation")
        .respond_with(fixture("functional_annotation__set4.json"))
        .mount(&upstream)
        .await;
    post("homology_best")
        .respond_with(fixture("homology_best__set4_mouse.json"))
        .mount(&upstream)
        .await;
    wiremock::Mock::given(wiremock::matchers::method("POST"))
        .and(wiremock::matchers::path("/image/network"))
        .respond_with(ResponseTemplate::new(200).set_body_raw(
            lifesciences_core::testing::Fixtures::here().bytes("network__set4.png"),
            "image/png",
        ))
        .mount(&upstream)
        .await;

    // (tool, arguments that succeed, arguments that fail, the failure's code)
    let cases = [
        (
            "string_get_network",
            json!({"identifiers": ["POSTN", "SERPINB2", "CXCL10", "IFNA1"], "add_nodes": 4}),
            json!({"identifiers": ["POSTN"], "add_nodes": 101}),
            ErrorCode::InvalidInput,
        ),
        (
            "string_get_enrichment",
            json!({"identifiers": ["POSTN", "SERPINB2", "CXCL10", "IFNA1"]}),
            json!({"identifiers": ["POSTN"], "categories": ["pathways"]}),
            ErrorCode::InvalidInput,
        ),
        (
            "string_get_functional_annotation",
            json!({"identifiers": ["POSTN", "SERPINB2", "CXCL10", "IFNA1"]}),
            json!({"identifiers": ["POSTN"], "categories": ["pathways"]}),
            ErrorCode::InvalidInput,
        ),
        (
            "string_get_homologs",
            json!({"identifiers": ["POSTN", "CXCL10"], "target_species": "mouse"}),
            json!({"identifiers": ["POSTN"], "target_species": [9606]}),
            ErrorCode::InvalidInput,
        ),
        (
            "string_get_network_image",
            json!({"identifiers": ["POSTN", "CXCL10"]}),
            json!({"identifiers": ["POSTN"], "category": "KEGG"}),
            ErrorCode::InvalidInput,
        ),
        (
            "string_search_proteins",
            json!({"query": "TP53"}),
            json!({"query": "TP53", "species": 999_999_999}),
            ErrorCode::InvalidInput,
        ),
        (
            "string_get_interactions",
            json!({"string_id": TP53}),
            json!({"string_id": "STRING:9606.ENSP00000278616"}),
            ErrorCode::UpstreamError,
        ),
        (
            "string_get_network_image_url",
            json!({"identifiers": [TP53, "MDM2"], "format": "svg", "required_score": 700}),
            json!({"identifiers": ["TP53"], "format": "gif"}),
            ErrorCode::InvalidInput,
        ),
    ];
    client
        .assert_every_tool_answers_success_and_error(&cases)
        .await;
    client.close().await;
}
