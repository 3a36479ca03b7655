//! `string_get_network` as an agent sees it, and the requests it sends: a set resolved in
//! one POST, its network, and STRING's module test; later pages from the cache.

use lifesciences_core::ErrorCode;
use serde_json::{Value, json};
use wiremock::ResponseTemplate;

use crate::support::{
    FormField, fixture, form_field, identifiers_of, post, request_count, requests_to, setup,
};

const CHRNA1: &str = "9606.ENSP00000261007";
const ALG14: &str = "9606.ENSP00000359224";
const ALG2: &str = "9606.ENSP00000417764";

/// `get_string_ids` rows for CHRNA1, ALG14 and ALG2 (IDs and names of the recorded
/// network fixture) at query positions 0, 1 and 3: position 2 maps to nothing.
fn three_found() -> Value {
    json!([
        {"queryItem": "CHRNA1", "queryIndex": 0, "stringId": CHRNA1, "ncbiTaxonId": 9606,
         "taxonName": "Homo sapiens", "preferredName": "CHRNA1"},
        {"queryItem": "ALG14", "queryIndex": 1, "stringId": ALG14, "ncbiTaxonId": 9606,
         "taxonName": "Homo sapiens", "preferredName": "ALG14"},
        {"queryItem": "ALG2", "queryIndex": 3, "stringId": ALG2, "ncbiTaxonId": 9606,
         "taxonName": "Homo sapiens", "preferredName": "ALG2"}
    ])
}

/// A module-test row for the three (values made up for the test).
fn module_test() -> Value {
    json!([{"number_of_nodes": 3, "number_of_edges": 2, "average_node_degree": 1.33,
            "local_clustering_coefficient": 0, "expected_number_of_edges": 0.4,
            "p_value": "0.0512"}])
}

async fn mount_three(upstream: &wiremock::MockServer) {
    post("get_string_ids")
        .respond_with(ResponseTemplate::new(200).set_body_json(three_found()))
        .mount(upstream)
        .await;
    post("network")
        .respond_with(fixture("network__CHRNA1_ALG14_ALG2.json"))
        .mount(upstream)
        .await;
}

#[tokio::test]
async fn how_chrna1_alg14_and_alg2_connect_and_whether_they_are_a_module_takes_three_requests() {
    let (upstream, client) = setup().await;
    mount_three(&upstream).await;
    post("ppi_enrichment")
        .respond_with(ResponseTemplate::new(200).set_body_json(module_test()))
        .mount(&upstream)
        .await;

    let network = client
        .call_ok(
            "string_get_network",
            json!({"identifiers": ["CHRNA1", "ALG14", "NOTAGENE", "STRING:9606.ENSP00000417764"],
                   "required_score": 0.5}),
        )
        .await;

    assert_eq!(network["unresolved"], json!(["NOTAGENE"]));
    assert_eq!(network["node_count"], 3);
    assert_eq!(
        network["nodes"][0],
        json!({"id": format!("STRING:{ALG14}"), "preferred_name": "ALG14", "degree": 2})
    );
    let edges = network["edges"].as_array().unwrap();
    assert_eq!(edges.len(), 2);
    assert_eq!(edges[0]["preferred_name_a"], "ALG14");
    assert_eq!(edges[0]["preferred_name_b"], "ALG2");
    assert_eq!(edges[0]["combined_score"], 0.633);
    assert_eq!(edges[0]["evidence"]["ascore"], 0.067);
    assert_eq!(edges[1]["combined_score"], 0.543);
    assert_eq!(
        network["ppi_enrichment"],
        json!({"number_of_nodes": 3, "number_of_edges": 2, "expected_number_of_edges": 0.4,
               "average_node_degree": 1.33, "clustering_coefficient": 0.0, "p_value": 0.0512})
    );
    assert_eq!(
        network["pagination"],
        json!({"cursor": null, "total_count": 2, "page_size": 50})
    );

    // One request each; the set goes as STRING IDs after resolution, the CURIE bare.
    assert_eq!(request_count(&upstream).await, 3);
    let resolve = &requests_to(&upstream, "get_string_ids").await[0];
    assert_eq!(
        identifiers_of(resolve),
        ["CHRNA1", "ALG14", "NOTAGENE", ALG2]
    );
    assert_eq!(form_field(resolve, "limit").as_deref(), Some("1"));
    assert_eq!(form_field(resolve, "echo_query").as_deref(), Some("1"));
    for method in ["network", "ppi_enrichment"] {
        let sent = &requests_to(&upstream, method).await[0];
        assert_eq!(identifiers_of(sent), [CHRNA1, ALG14, ALG2], "{method}");
        assert_eq!(form_field(sent, "species").as_deref(), Some("9606"));
        assert_eq!(form_field(sent, "required_score").as_deref(), Some("500"));
        assert_eq!(
            form_field(sent, "network_type").as_deref(),
            Some("functional")
        );
        assert!(
            sent.url.query().unwrap_or("").contains("caller_identity="),
            "{method}: caller_identity rides on every request"
        );
    }
    client.close().await;
}

#[tokio::test]
async fn a_screen_of_2000_genes_is_resolved_in_one_post() {
    let (upstream, client) = setup().await;
    post("get_string_ids")
        .respond_with(ResponseTemplate::new(200).set_body_json(three_found()))
        .expect(1)
        .mount(&upstream)
        .await;
    post("network")
        .respond_with(ResponseTemplate::new(200).set_body_json(json!([])))
        .expect(1)
        .mount(&upstream)
        .await;
    post("ppi_enrichment")
        .respond_with(ResponseTemplate::new(200).set_body_json(module_test()))
        .expect(1)
        .mount(&upstream)
        .await;
    let genes: Vec<String> = (0..2000).map(|i| format!("GENE{i}")).collect();

    let network = client
        .call_ok("string_get_network", json!({"identifiers": genes}))
        .await;

    let resolve = &requests_to(&upstream, "get_string_ids").await[0];
    assert_eq!(identifiers_of(resolve).len(), 2000);
    assert_eq!(resolve.method.as_str(), "POST");
    // The first 50 are listed; the count covers them all.
    assert_eq!(network["unresolved"].as_array().unwrap().len(), 50);
    assert_eq!(network["unresolved_count"], 1997);
    assert_eq!(network["edges"], json!([]));
    assert_eq!(network["node_count"], 3);
    client.close().await;

    let too_many: Vec<String> = (0..2001).map(|i| format!("GENE{i}")).collect();
    let (upstream, client) = setup().await;
    let err = client
        .call_err("string_get_network", json!({"identifiers": too_many}))
        .await;
    assert_eq!(err.code, ErrorCode::InvalidInput);
    assert!(err.message.contains("2001"), "{}", err.message);
    assert_eq!(request_count(&upstream).await, 0);
    client.close().await;
}

#[tokio::test]
async fn the_next_page_of_edges_comes_from_the_cache() {
    let (upstream, client) = setup().await;
    mount_three(&upstream).await;
    post("ppi_enrichment")
        .respond_with(ResponseTemplate::new(200).set_body_json(module_test()))
        .mount(&upstream)
        .await;
    let args = json!({"identifiers": ["CHRNA1", "ALG14", "ALG2"], "limit": 1});

    let first = client.call_ok("string_get_network", args.clone()).await;
    assert_eq!(first["edges"].as_array().unwrap().len(), 1);
    assert_eq!(first["edges"][0]["preferred_name_b"], "ALG2");
    let cursor = first["pagination"]["cursor"].as_str().unwrap().to_owned();
    assert_eq!(request_count(&upstream).await, 3);

    let mut next_args = args.clone();
    next_args["cursor"] = json!(cursor);
    let second = client.call_ok("string_get_network", next_args).await;
    assert_eq!(second["edges"][0]["preferred_name_a"], "CHRNA1");
    assert_eq!(second["pagination"]["cursor"], Value::Null);
    assert!(
        second.get("nodes").is_none(),
        "nodes come on the first page"
    );
    assert_eq!(request_count(&upstream).await, 3, "served from the cache");

    // A cursor of another query is refused.
    let err = client
        .call_err(
            "string_get_network",
            json!({"identifiers": ["CHRNA1"], "cursor": cursor}),
        )
        .await;
    assert_eq!(err.code, ErrorCode::InvalidInput);
    client.close().await;
}

#[tokio::test]
async fn a_failed_module_test_keeps_the_network_and_says_so() {
    let (upstream, client) = setup().await;
    mount_three(&upstream).await;
    post("ppi_enrichment")
        .respond_with(ResponseTemplate::new(503))
        .mount(&upstream)
        .await;

    let network = client
        .call_ok(
            "string_get_network",
            json!({"identifiers": "CHRNA1,ALG14,ALG2"}),
        )
        .await;

    assert_eq!(network["edges"].as_array().unwrap().len(), 2);
    assert!(network.get("ppi_enrichment").is_none());
    let note = network["note"].as_str().unwrap();
    assert!(
        note.contains("ppi_enrichment") && note.contains("retry"),
        "{note}"
    );
    client.close().await;
}

#[tokio::test]
async fn added_interactors_are_flagged_and_asked_for() {
    let (upstream, client) = setup().await;
    post("get_string_ids")
        .respond_with(ResponseTemplate::new(200).set_body_json(json!([three_found()[1]])))
        .mount(&upstream)
        .await;
    post("network")
        .and(FormField("add_nodes", "5".to_owned()))
        .respond_with(fixture("network__CHRNA1_ALG14_ALG2.json"))
        .expect(1)
        .mount(&upstream)
        .await;

    let network = client
        .call_ok(
            "string_get_network",
            json!({"identifiers": ["ALG14"], "add_nodes": 5}),
        )
        .await;

    let added: Vec<&str> = network["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|n| n["added"] == true)
        .map(|n| n["preferred_name"].as_str().unwrap())
        .collect();
    assert_eq!(added, ["ALG2", "CHRNA1"]);
    assert!(
        network.get("ppi_enrichment").is_none(),
        "no module test for one protein"
    );
    assert_eq!(requests_to(&upstream, "ppi_enrichment").await.len(), 0);
    client.close().await;
}

#[tokio::test]
async fn nothing_resolved_is_not_found_and_mixed_species_are_refused_before_any_request() {
    let (upstream, client) = setup().await;
    post("get_string_ids")
        .respond_with(ResponseTemplate::new(404))
        .mount(&upstream)
        .await;
    let err = client
        .call_err("string_get_network", json!({"identifiers": ["NOTAGENE"]}))
        .await;
    assert_eq!(err.code, ErrorCode::EntityNotFound);
    assert!(err.recovery_hint.contains("string_search_proteins"));
    assert_eq!(request_count(&upstream).await, 1);

    let err = client
        .call_err(
            "string_get_network",
            json!({"identifiers": ["STRING:9606.ENSP00000269305", "STRING:10090.ENSMUSP00000104298"]}),
        )
        .await;
    assert_eq!(err.code, ErrorCode::InvalidInput);
    assert_eq!(request_count(&upstream).await, 1);
    client.close().await;
}
