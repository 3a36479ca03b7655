//! Every tool under every upstream fault of core's fault matrix (rate limits, server
//! errors, hangs, cut, malformed, HTML, wrong-shape, empty and oversized bodies, redirects
//! to another host): each ends as the right error envelope, and none is cached.

use igvf_mcp::IgvfServer;
use lifesciences_core::testing::assert_fault_matrix;
use serde_json::json;

#[tokio::test]
async fn every_tool_answers_every_upstream_fault() {
    assert_fault_matrix::<IgvfServer>(
        &[
            ("igvf_get_entity", json!({"id": "BRCA1"})),
            ("igvf_get_entity", json!({"id": "ENSG00000141510"})),
            ("igvf_get_entity", json!({"id": "rs80357906"})),
            (
                "igvf_resolve_id",
                json!({"id": "rs80357906", "target_type": "SPDI"}),
            ),
            (
                "igvf_find_ld",
                json!({"variant_id": "rs60960132", "r2_threshold": 0.2, "ancestry": "eur"}),
            ),
            ("igvf_search_region", json!({"region": "chr17:41M-42M"})),
            (
                "igvf_find_associations",
                json!({"entity_id": "TP53", "relationship": "regulatory"}),
            ),
            (
                "igvf_find_associations",
                json!({"entity_id": "ENSG00000141510", "relationship": "genetic"}),
            ),
            (
                "igvf_query_associations",
                json!({"kind": "coexpression", "entity_id": "ENSG00000012048"}),
            ),
            (
                "igvf_query_associations",
                json!({"kind": "eqtl", "tissue": "liver"}),
            ),
        ],
        &[("igvf_list_sources", json!({}))],
    )
    .await;
}
