//! `string_get_homologs` as an agent sees it: the mouse counterparts of a gene list, named,
//! from three requests (resolve, `homology_best`, the hits' names); the similarity among a
//! set within its species from two.

use lifesciences_core::ErrorCode;
use serde_json::{Value, json};
use wiremock::ResponseTemplate;

use crate::support::{
    FormField, fixture, form_field, identifiers_of, post, request_count, requests_to, setup,
};

const SET4: [&str; 4] = ["POSTN", "SERPINB2", "CXCL10", "IFNA1"];

async fn mount_mouse(upstream: &wiremock::MockServer) {
    post("get_string_ids")
        .and(FormField("species", "9606".into()))
        .respond_with(fixture("get_string_ids__set4.json"))
        .mount(upstream)
        .await;
    post("get_string_ids")
        .and(FormField("species", "10090".into()))
        .respond_with(fixture("get_string_ids__set4_mouse.json"))
        .mount(upstream)
        .await;
    post("homology_best")
        .respond_with(fixture("homology_best__set4_mouse.json"))
        .mount(upstream)
        .await;
}

#[tokio::test]
async fn the_mouse_counterparts_of_four_screen_hits_take_three_requests() {
    let (upstream, client) = setup().await;
    mount_mouse(&upstream).await;

    let found = client
        .call_ok(
            "string_get_homologs",
            json!({"identifiers": SET4, "target_species": "mouse"}),
        )
        .await;

    let hits = found["homologs"].as_array().unwrap();
    assert_eq!(hits.len(), 4);
    // In the set's order, named from the mouse resolution.
    assert_eq!(
        hits[0],
        json!({"protein": "STRING:9606.ENSP00000369071", "preferred_name": "POSTN",
               "homolog": "STRING:10090.ENSMUSP00000072773", "homolog_name": "Postn",
               "taxon_id": 10090, "bitscore": 1518.8})
    );
    assert_eq!(hits[2]["homolog_name"], "Cxcl10");
    // STRING names no protein for IFNA1's hit: the CURIE stays, the name is left out.
    assert_eq!(hits[3]["preferred_name"], "IFNA1");
    assert_eq!(hits[3]["homolog"], "STRING:10090.ENSMUSP00000100780");
    assert!(hits[3].get("homolog_name").is_none());
    // ... and the result says so, not only by leaving the name out.
    let note = found["note"].as_str().unwrap();
    assert!(
        note.contains("gave no name for 1 homolog on this page"),
        "{note}"
    );
    assert_eq!(found["pagination"]["total_count"], 4);

    assert_eq!(request_count(&upstream).await, 3);
    let best = &requests_to(&upstream, "homology_best").await[0];
    assert_eq!(identifiers_of(best)[0], "9606.ENSP00000369071");
    assert_eq!(form_field(best, "species_b").as_deref(), Some("10090"));
    let names = requests_to(&upstream, "get_string_ids").await;
    assert_eq!(form_field(&names[1], "species").as_deref(), Some("10090"));
    assert_eq!(identifiers_of(&names[1]).len(), 4);
    client.close().await;
}

#[tokio::test]
async fn several_target_species_go_in_one_request() {
    let (upstream, client) = setup().await;
    mount_mouse(&upstream).await;
    post("get_string_ids")
        .and(FormField("species", "10116".into()))
        .respond_with(ResponseTemplate::new(404).set_body_json(json!([])))
        .mount(&upstream)
        .await;

    client
        .call_ok(
            "string_get_homologs",
            json!({"identifiers": SET4, "target_species": [10090, "rat"]}),
        )
        .await;

    let best = &requests_to(&upstream, "homology_best").await[0];
    assert_eq!(
        form_field(best, "species_b").as_deref(),
        Some("10090\r10116")
    );
    // No rat hit on the page: no rat naming request.
    assert_eq!(request_count(&upstream).await, 3);
    client.close().await;
}

#[tokio::test]
async fn within_the_species_the_set_is_compared_with_itself_in_two_requests() {
    let (upstream, client) = setup().await;
    post("get_string_ids")
        .respond_with(fixture("get_string_ids__set4.json"))
        .mount(&upstream)
        .await;
    post("homology")
        .respond_with(ResponseTemplate::new(200).set_body_json(json!([
            {"ncbiTaxonId_A": 9606, "stringId_A": "9606.ENSP00000369071",
             "ncbiTaxonId_B": 9606, "stringId_B": "9606.ENSP00000369071", "bitscore": 1712.0},
            {"ncbiTaxonId_A": 9606, "stringId_A": "9606.ENSP00000305651",
             "ncbiTaxonId_B": 9606, "stringId_B": "9606.ENSP00000276927", "bitscore": 51.2}
        ])))
        .mount(&upstream)
        .await;

    let found = client
        .call_ok("string_get_homologs", json!({"identifiers": SET4}))
        .await;

    let pairs: Vec<(&str, &str)> = found["homologs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| {
            (
                h["preferred_name"].as_str().unwrap(),
                h["homolog_name"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(pairs, [("POSTN", "POSTN"), ("CXCL10", "IFNA1")]);
    assert_eq!(request_count(&upstream).await, 2);
    assert!(requests_to(&upstream, "homology_best").await.is_empty());
    client.close().await;
}

#[tokio::test]
async fn a_set_of_2000_genes_is_searched_from_one_homology_post() {
    let (upstream, client) = setup().await;
    mount_mouse(&upstream).await;
    let mut genes: Vec<String> = SET4.iter().map(|s| (*s).to_owned()).collect();
    genes.extend((4..2000).map(|i| format!("GENE{i}")));

    let found = client
        .call_ok(
            "string_get_homologs",
            json!({"identifiers": genes, "target_species": 10090, "limit": 2}),
        )
        .await;

    let resolve = &requests_to(&upstream, "get_string_ids").await[0];
    assert_eq!(identifiers_of(resolve).len(), 2000);
    // The first 50 are listed; the count covers them all.
    assert_eq!(found["unresolved"].as_array().unwrap().len(), 50);
    assert_eq!(found["unresolved_count"], 1996);
    assert_eq!(found["homologs"].as_array().unwrap().len(), 2);
    assert_eq!(found["pagination"]["total_count"], 4);
    // Only the page's hits are named.
    let names = requests_to(&upstream, "get_string_ids").await;
    assert_eq!(identifiers_of(&names[1]).len(), 2);

    let next = client
        .call_ok(
            "string_get_homologs",
            json!({"identifiers": genes, "target_species": 10090, "limit": 2,
                   "cursor": found["pagination"]["cursor"]}),
        )
        .await;
    assert_eq!(next["homologs"][0]["homolog_name"], "Cxcl10");
    assert_eq!(next["pagination"]["cursor"], Value::Null);
    assert_eq!(requests_to(&upstream, "homology_best").await.len(), 1);
    client.close().await;
}

#[tokio::test]
async fn failing_to_name_the_hits_keeps_them_and_says_so() {
    let (upstream, client) = setup().await;
    post("get_string_ids")
        .and(FormField("species", "9606".into()))
        .respond_with(fixture("get_string_ids__set4.json"))
        .mount(&upstream)
        .await;
    post("get_string_ids")
        .and(FormField("species", "10090".into()))
        .respond_with(ResponseTemplate::new(200).set_body_string("<html>busy</html>"))
        .mount(&upstream)
        .await;
    post("homology_best")
        .respond_with(fixture("homology_best__set4_mouse.json"))
        .mount(&upstream)
        .await;

    let found = client
        .call_ok(
            "string_get_homologs",
            json!({"identifiers": SET4, "target_species": 10090}),
        )
        .await;

    assert_eq!(found["homologs"].as_array().unwrap().len(), 4);
    assert!(found["homologs"][0].get("homolog_name").is_none());
    let note = found["note"].as_str().unwrap();
    assert!(note.contains("names could not be fetched"), "{note}");
    client.close().await;
}

#[tokio::test]
async fn a_naming_look_up_that_finds_nothing_is_said_too() {
    // STRING answers 404 when none of the identifiers maps: not an error for a look-up,
    // but every hit then goes without its name, and the result must say so.
    let (upstream, client) = setup().await;
    post("get_string_ids")
        .and(FormField("species", "9606".into()))
        .respond_with(fixture("get_string_ids__set4.json"))
        .mount(&upstream)
        .await;
    post("get_string_ids")
        .and(FormField("species", "10090".into()))
        .respond_with(ResponseTemplate::new(404))
        .mount(&upstream)
        .await;
    post("homology_best")
        .respond_with(fixture("homology_best__set4_mouse.json"))
        .mount(&upstream)
        .await;

    let found = client
        .call_ok(
            "string_get_homologs",
            json!({"identifiers": SET4, "target_species": 10090}),
        )
        .await;

    let hits = found["homologs"].as_array().unwrap();
    assert_eq!(hits.len(), 4);
    assert!(hits.iter().all(|h| h.get("homolog_name").is_none()));
    let note = found["note"].as_str().unwrap();
    assert!(
        note.contains("gave no name for 4 homologs on this page"),
        "{note}"
    );
    assert_eq!(requests_to(&upstream, "get_string_ids").await.len(), 2);
    client.close().await;
}

#[tokio::test]
async fn the_own_species_as_target_is_refused_before_any_request() {
    let (upstream, client) = setup().await;
    for (args, says) in [
        (
            json!({"identifiers": SET4, "target_species": [9606]}),
            "Omit",
        ),
        (
            json!({"identifiers": SET4, "target_species": ["martian"]}),
            "taxon",
        ),
        (
            json!({"identifiers": SET4, "target_species": [{}]}),
            "taxon",
        ),
    ] {
        let err = client.call_err("string_get_homologs", args.clone()).await;
        assert_eq!(err.code, ErrorCode::InvalidInput, "{args}");
        assert!(
            format!("{} {}", err.message, err.recovery_hint).contains(says),
            "{args}: {err:?}"
        );
    }
    assert_eq!(request_count(&upstream).await, 0);
    client.close().await;
}
