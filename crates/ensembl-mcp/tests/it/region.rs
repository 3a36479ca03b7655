//! `ensembl_query_region` as an agent sees it: what lies around TP53 in one request
//! (genes and regulatory features, sorted, counted), the variants of a small window, and
//! the refusal of a window too wide for variants with a narrower one to ask for.

use lifesciences_core::ErrorCode;
use serde_json::json;
use wiremock::Mock;
use wiremock::matchers::{method, path};

use crate::support::{Upstream, fixture};

#[tokio::test]
async fn what_lies_around_tp53_sorted_and_counted_in_one_request() {
    let upstream = Upstream::empty().await;
    Mock::given(method("GET"))
        .and(path(
            "/ensembl/overlap/region/homo_sapiens/17%3A7661779-7687538",
        ))
        .respond_with(fixture("overlap__17_7661779-7687538__gene_regulatory.json"))
        .mount(&upstream.mock)
        .await;
    let client = upstream.client().await;

    let found = client
        .call_ok(
            "ensembl_query_region",
            json!({"region": "chr17:7,661,779-7,687,538", "features": ["genes", "regulatory"]}),
        )
        .await;

    assert_eq!(found["region"], "17:7661779-7687538");
    assert_eq!(
        found["features"][0],
        json!({"feature_type": "gene", "id": "ENSG00000141510", "name": "TP53",
               "biotype": "protein_coding", "start": 7661779, "end": 7687538, "strand": -1,
               "description": "tumor protein p53", "canonical_transcript": "ENST00000269305"})
    );
    let order: Vec<&str> = found["features"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["id"].as_str().unwrap())
        .collect();
    assert_eq!(
        order,
        ["ENSG00000141510", "ENSG00000141499", "ENSR00000093475"]
    );
    assert_eq!(
        found["counts"],
        json!([{"feature_type": "gene", "count": 2}, {"feature_type": "regulatory", "count": 1}])
    );
    let sent = upstream.requests().await;
    assert_eq!(sent.len(), 1);
    assert_eq!(sent[0].url.query(), Some("feature=gene&feature=regulatory"));
    client.close().await;
}

#[tokio::test]
async fn the_variants_of_a_small_window_with_consequence_and_significance() {
    let upstream = Upstream::empty().await;
    Mock::given(method("GET"))
        .and(path(
            "/ensembl/overlap/region/homo_sapiens/17%3A7675000-7677000",
        ))
        .respond_with(fixture("overlap__17_7675000-7677000__variation.json"))
        .mount(&upstream.mock)
        .await;
    let client = upstream.client().await;

    let found = client
        .call_ok(
            "ensembl_query_region",
            json!({"region": "17:7675000-7677000", "features": "variants", "limit": 1}),
        )
        .await;

    assert_eq!(
        found["features"][0],
        json!({"feature_type": "variation", "id": "rs28934578", "start": 7675088,
               "end": 7675088, "strand": 1, "consequence": "missense_variant",
               "alleles": ["C", "T"], "clinical_significance": ["pathogenic"]})
    );
    assert_eq!(found["pagination"]["total_count"], 2);
    assert!(found["pagination"]["cursor"].is_string());
    client.close().await;
}

#[tokio::test]
async fn a_window_too_wide_for_variants_is_refused_with_a_narrower_one() {
    let upstream = Upstream::empty().await;
    let client = upstream.client().await;

    let err = client
        .call_err(
            "ensembl_query_region",
            json!({"region": "17:7600000-7800000", "features": ["gene", "variation"]}),
        )
        .await;

    assert_eq!(err.code, ErrorCode::InvalidInput);
    assert!(err.message.contains("200001"), "{}", err.message);
    assert!(
        err.recovery_hint.contains("17:7695000-7704999"),
        "{}",
        err.recovery_hint
    );
    let err = client
        .call_err("ensembl_query_region", json!({"region": "1:1-6000000"}))
        .await;
    assert!(err.message.contains("5000000"), "{}", err.message);
    let err = client
        .call_err(
            "ensembl_query_region",
            json!({"region": "17:1-100", "features": ["enhancers"]}),
        )
        .await;
    assert!(err.recovery_hint.contains("regulatory"));
    assert!(upstream.requests().await.is_empty());
    client.close().await;
}
