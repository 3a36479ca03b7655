//! Every tool, once succeeding and once failing, through the test client that checks each
//! result as a strict MCP client would: a success's structured content must validate
//! against the tool's output schema (JSON Schema 2020-12), and an error must carry its
//! envelope as text only, with no structured content.

use lifesciences_core::ErrorCode;
use serde_json::json;
use wiremock::ResponseTemplate;

use crate::{empty, fixture, fixtures, route, setup};

/// A strict client accepts every tool's answer, whether the call succeeds or fails; and
/// every tool the server lists is exercised here, so a new tool needs a case.
#[tokio::test]
async fn every_tool_answers_strict_clients_on_success_and_on_error() {
    let (upstream, client) = setup().await;
    let tp53 = "ENSG00000141510";
    // chr17:41M-42M and chr1:975k-976k (1-based) as the catalog is asked for them.
    let megabase = "chr17:40999999-42000000";
    for (at, query, response) in [
        // igvf_get_entity: BRCA1 by symbol; a gene ID the catalog does not know (its 404).
        (
            "genes",
            vec![("name", "BRCA1")],
            fixture("genes__name=BRCA1.json"),
        ),
        (
            "genes",
            vec![("gene_id", "ENSG00000099999")],
            ResponseTemplate::new(404).set_body_json(
                json!({"message": "Record ENSG00000099999 not found.", "code": "NOT_FOUND"}),
            ),
        ),
        // igvf_resolve_id: rs80357906.
        (
            "variants",
            vec![("rsid", "rs80357906")],
            fixture("variants__rsid=rs80357906.json"),
        ),
        // igvf_find_ld: rs60960132's partners in Europeans at r² ≥ 0.2.
        (
            "variants/variant-ld",
            vec![
                ("rsid", "rs60960132"),
                ("r2", "gte:0.2"),
                ("ancestry", "EUR"),
            ],
            fixture("variants_variant-ld__rsid=rs60960132.json"),
        ),
        // igvf_search_region: a megabase of chr17; genes of a small chr1 region fail (500).
        (
            "genes",
            vec![("region", megabase)],
            fixture("genes__region=chr17_41000000-42000000.json"),
        ),
        ("genomic-elements", vec![("region", megabase)], empty()),
        (
            "genes",
            vec![("region", "chr1:974999-976000")],
            ResponseTemplate::new(500),
        ),
        // igvf_find_associations: TP53's regulatory edges; its clinical ones are refused
        // (the catalog's 400 for a source spelling it does not accept).
        (
            "genes",
            vec![("name", "TP53")],
            fixture("genes__name=TP53.json"),
        ),
        (
            "genes/variants",
            vec![("gene_id", tp53)],
            fixture("genes_variants__gene_id=ENSG00000141510.json"),
        ),
        (
            "genes/genomic-elements",
            vec![("gene_id", tp53)],
            fixture("genes_genomic-elements__gene_id=ENSG00000141510.json"),
        ),
        (
            "gene-regulatory-network",
            vec![("regulator_gene_id", tp53)],
            empty(),
        ),
        // igvf_query_associations: BRCA1's co-expressed genes.
        (
            "genes/genes",
            vec![("gene_id", "ENSG00000012048"), ("source", "COXPRESdb")],
            fixture("genes_genes__gene_id=ENSG00000012048.json"),
        ),
        (
            "genes/diseases",
            vec![],
            ResponseTemplate::new(400)
                .set_body_string(fixtures().text("genes_diseases__bad_enum.400.json")),
        ),
    ] {
        route(&upstream, at, &query, response).await;
    }

    // (tool, arguments that succeed, arguments that fail, the failure's code)
    let cases = [
        (
            "igvf_list_sources",
            json!({}),
            json!({"category": "structure"}),
            ErrorCode::InvalidInput,
        ),
        (
            "igvf_get_entity",
            json!({"id": "BRCA1"}),
            json!({"id": "ENSG00000099999"}),
            ErrorCode::EntityNotFound,
        ),
        (
            "igvf_resolve_id",
            json!({"id": "rs80357906", "target_type": "SPDI"}),
            json!({"id": "rs80357906", "target_type": "hgnc"}),
            ErrorCode::InvalidInput,
        ),
        (
            "igvf_find_ld",
            json!({"variant_id": "rs60960132", "r2_threshold": 0.2, "ancestry": "eur"}),
            json!({"variant_id": "rs60960132", "ancestry": "AMR"}),
            ErrorCode::InvalidInput,
        ),
        (
            "igvf_search_region",
            json!({"region": "chr17:41M-42M"}),
            json!({"region": "chr1:975k-976k", "include": ["genes"]}),
            ErrorCode::UpstreamError,
        ),
        (
            "igvf_find_associations",
            json!({"entity_id": "TP53", "relationship": "regulatory"}),
            json!({"entity_id": "TP53", "relationship": "genetic", "filters": {"source": "Clingen"}}),
            ErrorCode::InvalidInput,
        ),
        (
            "igvf_query_associations",
            json!({"kind": "coexpression", "entity_id": "ENSG00000012048", "limit": 3}),
            json!({"kind": "coexpression"}),
            ErrorCode::InvalidInput,
        ),
    ];
    client
        .assert_every_tool_answers_success_and_error(&cases)
        .await;
    client.close().await;
}
