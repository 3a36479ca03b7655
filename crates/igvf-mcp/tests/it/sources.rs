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
    assert!(disease.get("datasets").is_none(), "the overview is short");
    // Only the data sets' sources: no ontology prefixes (/ontology-terms' `source`)...
    let sources = disease["sources"].to_string();
    assert!(
        !sources.contains("MONDO") && !sources.contains("EFO"),
        "{sources}"
    );
    // ... and no allele-frequency columns (/variants/freq's `source`).
    let variants = out["categories"][0].to_string();
    assert!(!variants.contains("gnomad_af"), "{variants}");
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
    let endpoint = category["datasets"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["path"] == "/variants/genes")
        .unwrap();
    assert_eq!(endpoint["tool"], "igvf_find_associations");
    assert_eq!(endpoint["relationship"], "regulatory");
    assert!(endpoint["description"].as_str().unwrap().contains("eQTL"));
    // Only filters a tool takes: `filters.source`; no tool takes `organism` here.
    assert_eq!(
        endpoint["filters"],
        json!([{"argument": "filters.source", "values": ["AFGR", "EBI", "IGVF"]}])
    );
    let e = client
        .call_err("igvf_list_sources", json!({"category": "structure"}))
        .await;
    assert_eq!(e.code, ErrorCode::InvalidInput);
    assert!(e.message.contains("'gene_expression'"), "{}", e.message);
    client.close().await;
}

#[tokio::test]
async fn interactions_list_no_filter_nobody_can_use_and_stay_small() {
    let (_upstream, client) = setup().await;
    let out = client
        .call_ok("igvf_list_sources", json!({"category": "interactions"}))
        .await;
    let text = out.to_string();
    // The 187 PSI-MI detection methods of /proteins/proteins are not a filter of any tool.
    assert!(!text.contains("detection_method"), "{text}");
    assert!(!text.contains("affinity chromatography"), "{text}");
    assert!(text.len() < 4_000, "{} bytes", text.len());
    let ppi = out["categories"][0]["datasets"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["path"] == "/proteins/proteins")
        .unwrap();
    assert_eq!(ppi["from"], json!(["gene", "protein"]));
    assert_eq!(
        ppi["description"],
        "protein–protein interactions (BioGRID, IntAct)"
    );
    assert_eq!(ppi["method_count"], 81);
    client.close().await;
}
