//! Exports of STRING's lists: the enrichment of a screen's four hits, 111 terms, as one
//! table holding exactly the terms paging gives; TP53's partners, a list cut at its
//! limit without pages, asked at its largest limit.

use lifesciences_core::testing::assert_export_holds_the_pages;
use serde_json::json;
use string_mcp::StringServer;

use crate::support::{TP53, fixture, get, post, query_of, requests_to, setup};

#[tokio::test]
async fn the_enrichment_of_four_hits_exports_every_term_paging_gives() {
    let (upstream, client) = setup().await;
    post("get_string_ids")
        .respond_with(fixture("get_string_ids__set4.json"))
        .mount(&upstream)
        .await;
    post("enrichment")
        .respond_with(fixture("enrichment__set4.json"))
        .mount(&upstream)
        .await;
    let set4 = json!({"identifiers": ["POSTN", "SERPINB2", "CXCL10", "IFNA1"]});

    let exported = assert_export_holds_the_pages::<StringServer>(
        &client,
        "string_get_enrichment",
        set4,
        json!({"limit": 10}),
    )
    .await;

    assert_eq!(exported.export["rows"], 111);
    assert_eq!(exported.export["complete"], true);
    // A methods section's facts in the table itself: STRING's licence and its paper.
    assert!(
        exported.comments.iter().any(|c| c == "licence: CC-BY-4.0"),
        "{:?}",
        exported.comments
    );
    assert!(
        exported
            .comments
            .iter()
            .any(|c| c.starts_with("cite: doi:10.")),
        "{:?}",
        exported.comments
    );
    // The terms' fields, the set's genes joined by `|`.
    let column = |name: &str| exported.columns.iter().position(|c| c == name).unwrap();
    let first = &exported.rows[0];
    assert_eq!(first[column("term")], "PMID:32422146");
    let kegg = exported
        .rows
        .iter()
        .find(|r| r[column("category")] == "KEGG")
        .unwrap();
    assert_eq!(kegg[column("genes")], "IFNA1|CXCL10");
    assert_eq!(kegg[column("fdr")], "0.0209");
    // The answer: the page's shape, its counts by category, three example terms.
    assert_eq!(exported.answer["terms"].as_array().unwrap().len(), 3);
    assert_eq!(exported.answer["categories"][0]["category"], "PMID");
    assert_eq!(exported.answer["pagination"]["total_count"], 111);
    eprintln!(
        "string_get_enrichment export answer: {} bytes",
        serde_json::to_vec(&exported.answer).unwrap().len()
    );
    client.close().await;
}

#[tokio::test]
async fn tp53s_partners_export_at_the_largest_limit_in_one_request() {
    let (upstream, client) = setup().await;
    get("interaction_partners")
        .respond_with(fixture("interaction_partners__TP53.json"))
        .mount(&upstream)
        .await;

    let exported = assert_export_holds_the_pages::<StringServer>(
        &client,
        "string_get_interactions",
        json!({"string_id": TP53}),
        json!({"limit": 10000}),
    )
    .await;

    assert_eq!(exported.export["rows"], 15);
    assert_eq!(exported.export["complete"], true);
    // At the largest limit, 10000: STRING is asked one more, which says whether it cut.
    let sent = requests_to(&upstream, "interaction_partners").await;
    assert!(
        query_of(&sent[0]).contains(&("limit".to_owned(), "10001".to_owned())),
        "{:?}",
        query_of(&sent[0])
    );
    assert!(exported.columns.contains(&"evidence.escore".to_owned()));
    eprintln!(
        "string_get_interactions export answer: {} bytes",
        serde_json::to_vec(&exported.answer).unwrap().len()
    );
    client.close().await;
}
