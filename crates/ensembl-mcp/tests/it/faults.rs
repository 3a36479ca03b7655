//! Every tool under every upstream fault of core's fault matrix (rate limits, server
//! errors, hangs, cut, malformed, HTML, wrong-shape, empty and oversized bodies, redirects
//! to another host): each ends as the right error envelope, and none is cached.

use ensembl_mcp::EnsemblServer;
use lifesciences_core::testing::assert_fault_matrix;
use serde_json::json;

#[tokio::test]
async fn every_tool_answers_every_upstream_fault() {
    assert_fault_matrix::<EnsemblServer>(
        &[
            ("ensembl_get_gene", json!({"ensembl_id": "ENSG00000141510"})),
            (
                "ensembl_get_transcript",
                json!({"transcript_id": "ENST00000311936.8"}),
            ),
            ("ensembl_search_genes", json!({"query": "BRCA1"})),
            ("ensembl_get_variant", json!({"id": "rs699"})),
            (
                "ensembl_map_coordinates",
                json!({"region": "17:7577121-7577121", "from_assembly": "GRCh37"}),
            ),
            (
                "ensembl_map_coordinates",
                json!({"id": "ENST00000314040", "start": 292, "end": 297}),
            ),
            (
                "ensembl_query_region",
                json!({"region": "17:7661779-7687538", "features": ["gene", "regulatory"]}),
            ),
            ("ensembl_get_homologs", json!({"gene": "ENSG00000141510"})),
            (
                "ensembl_get_homologs",
                json!({"gene": "ENSMUSG00000059552"}),
            ),
            (
                "ensembl_get_sequence",
                json!({"ids": ["ENSP00000269305", "ENST00000269305"]}),
            ),
            (
                "ensembl_get_sequence",
                json!({"region": "X:1000000-1000100"}),
            ),
            (
                "ensembl_predict_variant_effect",
                json!({"variants": ["rs699", "16:89279135-89279135/C"]}),
            ),
            (
                "ensembl_search_genes",
                json!({"query": "tumor protein", "species": "mouse"}),
            ),
        ],
        &[],
    )
    .await;
}
