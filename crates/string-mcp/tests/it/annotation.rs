//! `string_get_functional_annotation` as an agent sees it: the terms a set carries, the
//! most shared first, in two requests; a one-protein answer of hundreds of terms comes as
//! a compact page with counts and a cursor.

use lifesciences_core::ErrorCode;
use serde_json::{Value, json};
use wiremock::ResponseTemplate;

use crate::support::{
    fixture, form_field, identifiers_of, post, request_count, requests_to, setup,
};

const SET4: [&str; 4] = ["POSTN", "SERPINB2", "CXCL10", "IFNA1"];

#[tokio::test]
async fn where_four_screen_hits_sit_in_the_cell_takes_two_requests() {
    let (upstream, client) = setup().await;
    post("get_string_ids")
        .respond_with(fixture("get_string_ids__set4.json"))
        .mount(&upstream)
        .await;
    post("functional_annotation")
        .respond_with(fixture("functional_annotation__set4.json"))
        .mount(&upstream)
        .await;

    let page = client
        .call_ok(
            "string_get_functional_annotation",
            json!({"identifiers": SET4, "categories": "compartments"}),
        )
        .await;

    assert_eq!(page["protein_count"], 4);
    // The term all four carry first; the comma-joined names of the answer become a list.
    assert_eq!(
        page["terms"][0],
        json!({"category": "COMPARTMENTS", "term": "GOCC:0005576",
               "description": "Extracellular region",
               "genes": ["IFNA1", "CXCL10", "POSTN", "SERPINB2"],
               "genes_in_set": 4, "ratio_in_set": 1.0})
    );
    assert_eq!(page["terms"][1]["term"], "GOCC:0005615");
    assert_eq!(page["terms"][1]["ratio_in_set"], 0.5);
    assert_eq!(
        page["categories"],
        json!([{"category": "COMPARTMENTS", "terms": 3, "shown": 3}])
    );
    assert_eq!(page["pagination"]["total_count"], 3);
    assert_eq!(page["pagination"]["cursor"], Value::Null);

    assert_eq!(request_count(&upstream).await, 2);
    let sent = &requests_to(&upstream, "functional_annotation").await[0];
    assert_eq!(identifiers_of(sent)[0], "9606.ENSP00000369071");
    assert_eq!(form_field(sent, "species").as_deref(), Some("9606"));
    client.close().await;
}

/// A well-studied protein carries hundreds of terms: `n` per category in three.
fn many_terms(n: usize) -> Value {
    let mut rows = Vec::new();
    for category in ["PMID", "Process", "KEGG"] {
        for i in 0..n {
            rows.push(json!({
                "category": category, "term": format!("{category}:{i:04}"),
                "number_of_genes": 1, "ratio_in_set": 1, "ncbiTaxonId": 9606,
                "inputGenes": ["TP53"], "preferredNames": ["TP53"],
                "description": format!("A term described at the length of a paper title, {i}")
            }));
        }
    }
    Value::Array(rows)
}

#[tokio::test]
async fn the_hundreds_of_terms_of_one_protein_come_compact_and_every_one_is_reachable() {
    let (upstream, client) = setup().await;
    post("get_string_ids")
        .respond_with(ResponseTemplate::new(200).set_body_json(json!([
            {"queryItem": "TP53", "queryIndex": 0, "stringId": "9606.ENSP00000269305",
             "ncbiTaxonId": 9606, "preferredName": "TP53"}
        ])))
        .mount(&upstream)
        .await;
    post("functional_annotation")
        .respond_with(ResponseTemplate::new(200).set_body_json(many_terms(200)))
        .mount(&upstream)
        .await;
    let args = json!({"identifiers": ["TP53"], "limit": 500});

    let page = client
        .call_ok("string_get_functional_annotation", args.clone())
        .await;

    assert!(serde_json::to_vec(&page).unwrap().len() <= 10 * 1024);
    assert_eq!(page["pagination"]["total_count"], 600);
    // Breadth first, in STRING's category order: GO process, KEGG, publications.
    let first: Vec<&str> = page["terms"].as_array().unwrap()[..3]
        .iter()
        .map(|t| t["category"].as_str().unwrap())
        .collect();
    assert_eq!(first, ["Process", "KEGG", "PMID"]);
    let shown = page["terms"].as_array().unwrap().len();
    assert!(shown < 500);
    assert_eq!(page["categories"][0]["terms"], 200);

    let mut seen = shown;
    let mut cursor = page["pagination"]["cursor"].clone();
    while let Some(c) = cursor.as_str() {
        let mut next_args = args.clone();
        next_args["cursor"] = json!(c);
        let next = client
            .call_ok("string_get_functional_annotation", next_args)
            .await;
        seen += next["terms"].as_array().unwrap().len();
        cursor = next["pagination"]["cursor"].clone();
    }
    assert_eq!(seen, 600);
    assert_eq!(request_count(&upstream).await, 2, "later pages are cached");
    client.close().await;
}

#[tokio::test]
async fn a_set_of_2000_genes_is_annotated_from_two_posts() {
    let (upstream, client) = setup().await;
    post("get_string_ids")
        .respond_with(fixture("get_string_ids__set4.json"))
        .expect(1)
        .mount(&upstream)
        .await;
    post("functional_annotation")
        .respond_with(fixture("functional_annotation__set4.json"))
        .expect(1)
        .mount(&upstream)
        .await;
    let mut genes: Vec<String> = SET4.iter().map(|s| (*s).to_owned()).collect();
    genes.extend((4..2000).map(|i| format!("GENE{i}")));

    let page = client
        .call_ok(
            "string_get_functional_annotation",
            json!({"identifiers": genes}),
        )
        .await;

    let resolve = &requests_to(&upstream, "get_string_ids").await[0];
    assert_eq!(identifiers_of(resolve).len(), 2000);
    // The first 50 are listed; the count covers them all.
    assert_eq!(page["unresolved"].as_array().unwrap().len(), 50);
    assert_eq!(page["unresolved_count"], 1996);
    assert_eq!(page["protein_count"], 4);
    assert_eq!(page["pagination"]["total_count"], 3);
    client.close().await;
}

#[tokio::test]
async fn an_unknown_category_is_refused_and_an_empty_one_is_explained() {
    let (upstream, client) = setup().await;
    let err = client
        .call_err(
            "string_get_functional_annotation",
            json!({"identifiers": SET4, "categories": ["pathways"]}),
        )
        .await;
    assert_eq!(err.code, ErrorCode::InvalidInput);
    assert_eq!(request_count(&upstream).await, 0);

    post("get_string_ids")
        .respond_with(fixture("get_string_ids__set4.json"))
        .mount(&upstream)
        .await;
    post("functional_annotation")
        .respond_with(fixture("functional_annotation__set4.json"))
        .mount(&upstream)
        .await;
    let page = client
        .call_ok(
            "string_get_functional_annotation",
            json!({"identifiers": SET4, "categories": ["KEGG"]}),
        )
        .await;
    assert_eq!(page["terms"], json!([]));
    let note = page["note"].as_str().unwrap();
    assert!(note.contains("KEGG") && note.contains("omit"), "{note}");
    client.close().await;
}
