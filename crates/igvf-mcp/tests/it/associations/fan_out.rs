//! One call, many queries: the `all` fan-out with partial failure, and a disease term
//! covering its child terms within a bound.

use std::time::Duration;

use lifesciences_core::testing::Recording;
use serde_json::json;
use wiremock::matchers::{method, path};
use wiremock::{Mock, ResponseTemplate};

use crate::{Catalog, assert_requests_follow_the_spec, empty, fixture, requests, route, setup};

use super::tp53;

#[tokio::test]
async fn all_fans_out_in_parallel_and_one_failure_does_not_sink_the_others() {
    let (upstream, client) = setup().await;
    tp53(&upstream).await;
    // The gene's proteins, looked up by exact name before the protein data sets.
    route(
        &upstream,
        "proteins",
        &[("name", "TP53")],
        fixture("proteins__name=TP53.json"),
    )
    .await;
    let delay = Duration::from_millis(400);
    let recording = Recording::new(empty().set_delay(delay));
    for at in [
        "/genes/variants",
        "/genes/genomic-elements",
        "/proteins/proteins",
        "/proteins/complexes",
        "/genes/pathways",
        "/genes/genes",
        "/gene-regulatory-network",
        "/genes/transcripts",
    ] {
        Mock::given(method("GET"))
            .and(path(at))
            .respond_with(recording.clone())
            .mount(&upstream)
            .await;
    }
    route(&upstream, "genes/diseases", &[], ResponseTemplate::new(500)).await;
    let out = client
        .call_ok(
            "igvf_find_associations",
            json!({"entity_id": "TP53", "relationship": "all", "limit": 5}),
        )
        .await;
    let datasets = out["datasets"].as_array().unwrap();
    assert_eq!(datasets.len(), 9);
    let failed: Vec<&serde_json::Value> = datasets
        .iter()
        .filter(|d| d.get("error").is_some())
        .collect();
    assert_eq!(failed.len(), 1);
    assert_eq!(failed[0]["dataset"], "/genes/diseases");
    assert_eq!(failed[0]["error"]["code"], "UPSTREAM_ERROR");
    assert!(
        out["notes"][0].as_str().unwrap().contains("1 of 9"),
        "{out:#}"
    );
    // Eight data sets answered, each asked once, all at about the same time.
    let arrivals = recording.arrivals();
    assert_eq!(arrivals.len(), 8);
    let spread = *arrivals.iter().max().unwrap() - *arrivals.iter().min().unwrap();
    assert!(spread < delay / 2, "arrivals spread over {spread:?}");
    // The gene's proteins are asked by its exact symbol.
    let sent = requests(&upstream).await;
    let ppi = sent
        .iter()
        .find(|(p, _)| p == "/proteins/proteins")
        .unwrap();
    assert!(
        ppi.1.contains(&("protein_name".into(), "TP53".into())),
        "{:?}",
        ppi.1
    );
    assert_requests_follow_the_spec(&upstream).await;
    client.close().await;
}

/// A disease term covers its direct children: each of its data sets (disease → genes,
/// disease → ClinGen variants, phenotype → GWAS variants) is asked for the term and for
/// each child, one report per data set, and the result names the terms covered.
#[tokio::test]
async fn a_disease_term_s_associations_include_its_child_terms() {
    let (upstream, client) = setup().await;
    Mock::given(method("GET"))
        .and(path("/ontology-terms/MONDO_0007915/children"))
        .respond_with(fixture("ontology-terms_MONDO_0007915_children.json"))
        .mount(&upstream)
        .await;
    route(
        &upstream,
        "diseases/variants",
        &[("disease_id", "MONDO_0007915")],
        fixture("diseases_variants__disease_id=MONDO_0007915.json"),
    )
    .await;
    route(
        &upstream,
        "phenotypes/variants",
        &[("phenotype_id", "MONDO_0000001")],
        fixture("phenotypes_variants__phenotype_id=MONDO_0000001.json"),
    )
    .await;
    for at in [
        "/diseases/genes",
        "/diseases/variants",
        "/phenotypes/variants",
    ] {
        Mock::given(method("GET"))
            .and(path(at))
            .respond_with(empty())
            .with_priority(10)
            .mount(&upstream)
            .await;
    }
    let out = client
        .call_ok(
            "igvf_find_associations",
            json!({"entity_id": "MONDO:0007915", "relationship": "genetic"}),
        )
        .await;
    assert_eq!(
        out["covered_terms"],
        json!({"terms": ["MONDO:0007915", "MONDO:0000001", "MONDO:0000002"], "complete": true})
    );
    // One report per data set, each over the three terms.
    let reports: Vec<(&str, u64)> = out["datasets"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                d["dataset"].as_str().unwrap(),
                d["returned"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        reports,
        [
            ("/diseases/genes", 0),
            ("/diseases/variants", 1),
            ("/phenotypes/variants", 1)
        ]
    );
    // The GWAS variant came from a child term, and says so.
    let sources: Vec<(&str, &str)> = out["associations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| {
            (
                a["source_entity"]["id"].as_str().unwrap(),
                a["target_entity"]["id"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        sources,
        [
            ("MONDO:0007915", "NC_000012.12:102917129:T:C"),
            ("MONDO:0000001", "NC_000001.11:1023572:A:G")
        ]
    );
    assert!(
        out["notes"][0]
            .as_str()
            .unwrap()
            .contains("Covered the term and 2 direct child term(s)"),
        "{out:#}"
    );
    // The children once, then each data set for each term: 1 + 3 × 3 requests.
    let sent = requests(&upstream).await;
    assert_eq!(sent.len(), 10, "{sent:?}");
    let mut asked: Vec<(String, String)> = sent
        .iter()
        .filter(|(p, _)| !p.ends_with("/children"))
        .map(|(p, q)| {
            let term = q
                .iter()
                .find(|(k, _)| k == "disease_id" || k == "phenotype_id")
                .map(|(_, v)| v.clone())
                .unwrap();
            (p.clone(), term)
        })
        .collect();
    asked.sort();
    let mut expected: Vec<(String, String)> = Vec::new();
    for at in [
        "/diseases/genes",
        "/diseases/variants",
        "/phenotypes/variants",
    ] {
        for term in ["MONDO_0000001", "MONDO_0000002", "MONDO_0007915"] {
            expected.push((at.to_owned(), term.to_owned()));
        }
    }
    assert_eq!(asked, expected);
    assert_requests_follow_the_spec(&upstream).await;
    client.close().await;
}

/// The expansion is bounded: ten children at most, and a term with more says so.
#[tokio::test]
async fn a_term_with_more_children_than_covered_says_the_expansion_was_cut() {
    let (upstream, client) = setup().await;
    // Eleven placeholder children (constructed in the spec's output shape of
    // `/ontology-terms/{id}/children`).
    let children: Vec<serde_json::Value> = (1..=11)
        .map(|i| {
            json!({"term": {"term_id": format!("MONDO_90000{i:02}"), "name": "placeholder"},
                   "relationship_type": "subclass"})
        })
        .collect();
    Mock::given(method("GET"))
        .and(path("/ontology-terms/MONDO_0007915/children"))
        .respond_with(Catalog::new(children))
        .mount(&upstream)
        .await;
    route(
        &upstream,
        "diseases/variants",
        &[("disease_id", "MONDO_0007915")],
        fixture("diseases_variants__disease_id=MONDO_0007915.json"),
    )
    .await;
    for at in [
        "/diseases/genes",
        "/diseases/variants",
        "/phenotypes/variants",
    ] {
        Mock::given(method("GET"))
            .and(path(at))
            .respond_with(empty())
            .with_priority(10)
            .mount(&upstream)
            .await;
    }
    let out = client
        .call_ok(
            "igvf_find_associations",
            json!({"entity_id": "MONDO:0007915", "relationship": "genetic"}),
        )
        .await;
    let covered = &out["covered_terms"];
    assert_eq!(covered["complete"], false, "{out:#}");
    let terms = covered["terms"].as_array().unwrap();
    assert_eq!(terms.len(), 11);
    assert_eq!(terms[0], "MONDO:0007915");
    assert_eq!(terms[10], "MONDO:9000010");
    assert!(
        out["notes"][0]
            .as_str()
            .unwrap()
            .contains("the first 10; it has more"),
        "{out:#}"
    );
    let sent = requests(&upstream).await;
    let children_limit = sent
        .iter()
        .find(|(p, _)| p.ends_with("/children"))
        .and_then(|(_, q)| q.iter().find(|(k, _)| k == "limit").cloned())
        .unwrap();
    // Ten children asked for, and one more to know whether there are more.
    assert_eq!(children_limit.1, "11");
    // The children, then eleven terms × three data sets.
    assert_eq!(sent.len(), 1 + 11 * 3, "{sent:?}");
    client.close().await;
}
