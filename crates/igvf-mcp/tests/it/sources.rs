//! `igvf_list_sources`: valid values from the embedded OpenAPI enums, no upstream call.

use lifesciences_core::ErrorCode;
use serde_json::json;

use crate::{requests, setup};

#[tokio::test]
async fn the_overview_covers_every_category_without_an_upstream_call() {
    let (upstream, client) = setup().await;
    let out = client.call_ok("igvf_list_sources", json!({})).await;
    assert_eq!(out["spec_version"], "1.2.0");
    let names: Vec<&str> = out["categories"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["category"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "variant_annotations",
            "gene_expression",
            "regulatory",
            "disease",
            "drugs",
            "interactions",
            "studies"
        ]
    );
    let disease = &out["categories"][3];
    assert!(
        disease["sources"]
            .as_array()
            .unwrap()
            .contains(&json!("ClinGen"))
    );
    assert!(disease.get("endpoints").is_none(), "the overview is short");
    assert!(requests(&upstream).await.is_empty());
    client.close().await;
}

#[tokio::test]
async fn a_category_lists_every_filter_value_of_its_endpoints() {
    let (_upstream, client) = setup().await;
    let out = client
        .call_ok("igvf_list_sources", json!({"category": "gene_expression"}))
        .await;
    let category = &out["categories"][0];
    let endpoint = category["endpoints"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["path"] == "/variants/genes")
        .unwrap();
    let source = endpoint["filters"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["name"] == "source")
        .unwrap();
    assert_eq!(source["values"], json!(["AFGR", "EBI", "IGVF"]));
    let organism = endpoint["filters"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["name"] == "organism")
        .unwrap();
    assert_eq!(organism["default"], "Homo sapiens");
    let e = client
        .call_err("igvf_list_sources", json!({"category": "structure"}))
        .await;
    assert_eq!(e.code, ErrorCode::InvalidInput);
    assert!(e.message.contains("'gene_expression'"), "{}", e.message);
    client.close().await;
}
