//! Exports of UniProt's lists: the features of the adenosine receptor A1 (recorded
//! P30542), paged by offset over one answer, as one table holding exactly the features
//! paging gives, their evidence (a list of objects) written as JSON.

use lifesciences_core::testing::assert_export_holds_the_pages;
use serde_json::{Value, json};
use uniprot_mcp::UniprotServer;

use crate::support::{fixture, get, setup};

#[tokio::test]
async fn the_features_of_adora1_export_every_feature_paging_gives() {
    let (upstream, client) = setup().await;
    get("/uniprotkb/P30542")
        .respond_with(fixture("uniprotkb__P30542.json"))
        .mount(&upstream)
        .await;

    let exported = assert_export_holds_the_pages::<UniprotServer>(
        &client,
        "uniprot_get_features",
        json!({"id": "P30542"}),
        json!({"limit": 10}),
    )
    .await;

    let rows = exported.export["rows"].as_u64().unwrap();
    assert_eq!(
        Some(rows),
        exported.answer["pagination"]["total_count"].as_u64()
    );
    assert!(rows > 10, "more than one of the client's pages: {rows}");
    assert_eq!(exported.export["complete"], true);
    let column = |name: &str| exported.columns.iter().position(|c| c == name).unwrap();
    // A list of objects is one cell of JSON, which reads back as the answer's list.
    let first = &exported.rows[0];
    let evidence: Value = serde_json::from_str(&first[column("evidence")]).unwrap();
    assert!(evidence.is_array(), "{evidence}");
    assert_eq!(
        first[column("type")],
        exported.answer["features"][0]["type"]
    );
    client.close().await;
}
