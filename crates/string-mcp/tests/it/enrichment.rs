//! `string_get_enrichment` as an agent sees it: the answer that overflows agents' context
//! elsewhere comes as a compact page (best terms of every category first, counts of the
//! rest, a cursor), from two requests; later pages from the cache.

use lifesciences_core::ErrorCode;
use serde_json::{Value, json};

use crate::support::{
    fixture, form_field, identifiers_of, post, request_count, requests_to, setup,
};

const SET4: [&str; 4] = ["POSTN", "SERPINB2", "CXCL10", "IFNA1"];
const SET4_IDS: [&str; 4] = [
    "9606.ENSP00000369071",
    "9606.ENSP00000401645",
    "9606.ENSP00000305651",
    "9606.ENSP00000276927",
];

async fn mount_set4(upstream: &wiremock::MockServer) {
    post("get_string_ids")
        .respond_with(fixture("get_string_ids__set4.json"))
        .mount(upstream)
        .await;
    post("enrichment")
        .respond_with(fixture("enrichment__set4.json"))
        .mount(upstream)
        .await;
}

fn terms(page: &Value) -> Vec<(String, String)> {
    page["terms"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| {
            (
                t["category"].as_str().unwrap().to_owned(),
                t["term"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

#[tokio::test]
async fn what_four_screen_hits_share_comes_compact_with_counts_and_a_cursor() {
    let (upstream, client) = setup().await;
    mount_set4(&upstream).await;

    let page = client
        .call_ok("string_get_enrichment", json!({"identifiers": SET4}))
        .await;

    // 111 terms pass FDR ≤ 0.05; the page holds the best of each category first.
    assert!(serde_json::to_vec(&page).unwrap().len() <= 10 * 1024);
    assert_eq!(page["protein_count"], 4);
    assert_eq!(page["pagination"]["total_count"], 111);
    assert!(page["pagination"]["cursor"].is_string());
    let shown = terms(&page);
    // The smallest FDR, then the smallest p-value (2.13e-09).
    assert_eq!(shown[0], ("PMID".to_owned(), "PMID:32422146".to_owned()));
    assert_eq!(shown[1], ("WikiPathways".to_owned(), "WP5088".to_owned()));
    assert_eq!(shown[2].0, "KEGG");
    let kegg = &page["terms"][2];
    assert_eq!(kegg["genes"], json!(["IFNA1", "CXCL10"]));
    assert_eq!(kegg["genes_in_set"], 2);
    assert_eq!(kegg["fdr"], 0.0209);
    let counts = &page["categories"];
    assert_eq!(counts[0]["category"], "PMID");
    assert_eq!(counts[0]["terms"], 100);
    assert_eq!(
        counts[2],
        json!({"category": "KEGG", "terms": 6, "shown": 6})
    );

    // Two requests; enrichment gets the resolved STRING IDs, not the names.
    assert_eq!(request_count(&upstream).await, 2);
    let sent = &requests_to(&upstream, "enrichment").await[0];
    assert_eq!(identifiers_of(sent), SET4_IDS);
    assert_eq!(form_field(sent, "species").as_deref(), Some("9606"));
    assert_eq!(form_field(sent, "background_string_identifiers"), None);

    // The rest, page by page, from the cache: every term once.
    let mut seen = shown.len();
    let mut cursor = page["pagination"]["cursor"].clone();
    while let Some(c) = cursor.as_str() {
        let next = client
            .call_ok(
                "string_get_enrichment",
                json!({"identifiers": SET4, "cursor": c}),
            )
            .await;
        seen += terms(&next).len();
        cursor = next["pagination"]["cursor"].clone();
    }
    assert_eq!(seen, 111);
    assert_eq!(request_count(&upstream).await, 2, "later pages are cached");
    client.close().await;
}

#[tokio::test]
async fn kegg_pathways_of_the_set_with_a_stricter_fdr() {
    let (upstream, client) = setup().await;
    mount_set4(&upstream).await;

    let page = client
        .call_ok(
            "string_get_enrichment",
            json!({"identifiers": SET4, "categories": ["kegg"], "max_fdr": 0.03}),
        )
        .await;

    let shown = terms(&page);
    assert_eq!(shown.len(), 3);
    assert!(shown.iter().all(|(c, _)| c == "KEGG"));
    assert_eq!(
        page["categories"],
        json!([{"category": "KEGG", "terms": 3, "shown": 3}])
    );
    assert_eq!(page["pagination"]["cursor"], Value::Null);
    client.close().await;
}

#[tokio::test]
async fn a_background_set_is_resolved_and_sent_as_string_ids() {
    let (upstream, client) = setup().await;
    mount_set4(&upstream).await;

    client
        .call_ok(
            "string_get_enrichment",
            json!({"identifiers": ["POSTN", "SERPINB2"], "background": SET4}),
        )
        .await;

    assert_eq!(request_count(&upstream).await, 3);
    let sent = &requests_to(&upstream, "enrichment").await[0];
    assert_eq!(
        form_field(sent, "background_string_identifiers").unwrap(),
        SET4_IDS.join("\r")
    );
    client.close().await;
}

#[tokio::test]
async fn one_protein_is_enriched_with_its_interactors_and_the_result_says_so() {
    let (upstream, client) = setup().await;
    post("get_string_ids")
        .respond_with(wiremock::ResponseTemplate::new(200).set_body_json(json!([
            {"queryItem": "POSTN", "queryIndex": 0, "stringId": SET4_IDS[0],
             "ncbiTaxonId": 9606, "preferredName": "POSTN"}
        ])))
        .mount(&upstream)
        .await;
    post("enrichment")
        .respond_with(wiremock::ResponseTemplate::new(200).set_body_json(json!([])))
        .mount(&upstream)
        .await;

    let page = client
        .call_ok("string_get_enrichment", json!({"identifiers": "POSTN"}))
        .await;

    let note = page["note"].as_str().unwrap();
    assert!(note.contains("10 most likely interactors"), "{note}");
    assert!(note.contains("No term"), "{note}");
    assert_eq!(page["terms"], json!([]));
    assert_eq!(page["pagination"]["total_count"], 0);
    client.close().await;
}

#[tokio::test]
async fn an_unknown_category_or_fdr_is_refused_before_any_request() {
    let (upstream, client) = setup().await;
    for (args, says) in [
        (
            json!({"identifiers": SET4, "categories": ["pathways"]}),
            "RCTM",
        ),
        (json!({"identifiers": SET4, "max_fdr": 2}), "max_fdr"),
        (json!({"identifiers": []}), "no protein"),
    ] {
        let err = client.call_err("string_get_enrichment", args.clone()).await;
        assert_eq!(err.code, ErrorCode::InvalidInput, "{args}");
        assert!(
            format!("{} {}", err.message, err.recovery_hint).contains(says),
            "{args}: {err:?}"
        );
    }
    assert_eq!(request_count(&upstream).await, 0);
    client.close().await;
}

#[tokio::test]
async fn a_screen_of_2000_genes_is_tested_from_two_posts() {
    let (upstream, client) = setup().await;
    mount_set4(&upstream).await;
    let mut genes: Vec<String> = SET4.iter().map(|s| (*s).to_owned()).collect();
    genes.extend((4..2000).map(|i| format!("GENE{i}")));

    let page = client
        .call_ok("string_get_enrichment", json!({"identifiers": genes}))
        .await;

    assert_eq!(request_count(&upstream).await, 2);
    let resolve = &requests_to(&upstream, "get_string_ids").await[0];
    assert_eq!(identifiers_of(resolve).len(), 2000);
    let sent = &requests_to(&upstream, "enrichment").await[0];
    assert_eq!(identifiers_of(sent), SET4_IDS);
    // The first 50 are listed; the count covers them all.
    assert_eq!(page["unresolved"].as_array().unwrap().len(), 50);
    assert_eq!(page["unresolved_count"], 1996);
    assert_eq!(page["pagination"]["total_count"], 111);
    assert!(serde_json::to_vec(&page).unwrap().len() <= 10 * 1024);
    client.close().await;
}
