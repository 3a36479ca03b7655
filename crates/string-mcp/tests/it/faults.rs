//! Every tool under every upstream fault of core's fault matrix (rate limits, server
//! errors, hangs, cut, malformed, HTML, wrong-shape, empty and oversized bodies, redirects
//! to another host): each ends as the right error envelope, and none is cached.

use lifesciences_core::testing::assert_fault_matrix;
use serde_json::json;
use string_mcp::StringServer;

#[tokio::test]
async fn every_tool_answers_every_upstream_fault() {
    assert_fault_matrix::<StringServer>(
        &[
            ("string_search_proteins", json!({"query": "TP53"})),
            (
                "string_get_interactions",
                json!({"string_id": "STRING:9606.ENSP00000269305"}),
            ),
            (
                "string_get_network",
                json!({"identifiers": ["TP53", "MDM2"]}),
            ),
            (
                "string_get_enrichment",
                json!({"identifiers": ["POSTN", "CXCL10"]}),
            ),
            (
                "string_get_functional_annotation",
                json!({"identifiers": ["POSTN", "CXCL10"]}),
            ),
            (
                "string_get_network_image",
                json!({"identifiers": ["TP53", "MDM2"]}),
            ),
            (
                "string_get_homologs",
                json!({"identifiers": ["POSTN", "CXCL10"], "target_species": [10090]}),
            ),
        ],
        &[(
            "string_get_network_image_url",
            json!({"identifiers": ["TP53", "MDM2"]}),
        )],
    )
    .await;
}
