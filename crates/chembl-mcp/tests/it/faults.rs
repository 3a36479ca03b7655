//! Every tool under every upstream fault of core's fault matrix (rate limits, server
//! errors, hangs, cut, malformed, HTML, wrong-shape, empty and oversized bodies, redirects
//! to another host): each ends as the right error envelope, and none is cached.

use chembl_mcp::ChemblServer;
use lifesciences_core::testing::assert_fault_matrix;
use serde_json::json;

#[tokio::test]
async fn every_tool_answers_every_upstream_fault() {
    assert_fault_matrix::<ChemblServer>(
        &[
            ("chembl_get_compound", json!({"chembl_id": "CHEMBL:25"})),
            (
                "chembl_get_compounds_batch",
                json!({"chembl_ids": ["CHEMBL:25", "CHEMBL:941"]}),
            ),
            ("chembl_search_compounds", json!({"query": "imatinib"})),
            (
                "chembl_get_drug_profile",
                json!({"chembl_id": "CHEMBL:419213"}),
            ),
            ("chembl_get_bioactivities", json!({"target": "CHEMBL:2842"})),
            ("chembl_search_targets", json!({"query": "EGFR"})),
            ("chembl_search_targets", json!({"query": "P00533"})),
            ("chembl_get_target", json!({"target_id": "CHEMBL:203"})),
            (
                "chembl_search_compounds",
                json!({"query": "KTUFNOKKBVMGRW-UHFFFAOYSA-N"}),
            ),
        ],
        &[],
    )
    .await;
}
