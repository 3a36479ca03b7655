//! Exports of Ensembl's lists: what lies around TP53 (two genes and a regulatory
//! feature, each kind with fields of its own) as one table holding exactly the features
//! paging gives, cut from the region's one request.

use ensembl_mcp::EnsemblServer;
use lifesciences_core::testing::assert_export_holds_the_pages;
use serde_json::json;
use wiremock::Mock;
use wiremock::matchers::{method, path};

use crate::support::{Upstream, fixture};

#[tokio::test]
async fn what_lies_around_tp53_exports_every_feature_paging_gives() {
    let upstream = Upstream::empty().await;
    Mock::given(method("GET"))
        .and(path(
            "/ensembl/overlap/region/homo_sapiens/17%3A7661779-7687538",
        ))
        .respond_with(fixture("overlap__17_7661779-7687538__gene_regulatory.json"))
        .mount(&upstream.mock)
        .await;
    let client = upstream.client().await;

    let exported = assert_export_holds_the_pages::<EnsemblServer>(
        &client,
        "ensembl_query_region",
        json!({"region": "chr17:7,661,779-7,687,538", "features": ["genes", "regulatory"]}),
        json!({"limit": 1}),
    )
    .await;

    assert_eq!(exported.export["rows"], 3);
    assert_eq!(exported.export["complete"], true);
    // Every field any feature has is a column; a regulatory feature leaves a gene's empty.
    let column = |name: &str| exported.columns.iter().position(|c| c == name).unwrap();
    assert_eq!(exported.rows[0][column("name")], "TP53");
    assert_eq!(exported.rows[0][column("strand")], "-1");
    assert_eq!(exported.rows[2][column("feature_type")], "regulatory");
    assert_eq!(exported.rows[2][column("canonical_transcript")], "");
    // One request for the region: the client's three pages and the export are cut from it.
    assert_eq!(upstream.requests().await.len(), 1);
    assert_eq!(exported.answer["counts"][0]["count"], 2);
    client.close().await;
}
