//! The fault matrix on core's own test server: the same helper every server crate runs.

use lifesciences_core::testing::{TestServer, assert_fault_matrix};
use serde_json::json;

/// Every tool of the test server answers every upstream fault with the right envelope,
/// and caches none of them.
#[tokio::test]
async fn every_tool_answers_every_upstream_fault() {
    assert_fault_matrix::<TestServer>(
        &[
            ("items_get_item", json!({"item_id": "ITEM:42"})),
            ("items_search", json!({"query": "kinase"})),
        ],
        &[],
    )
    .await;
}
