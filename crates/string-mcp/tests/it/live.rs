//! Opt-in checks against the real STRING (`cargo xtask live`; never in CI). Each returns
//! early unless LIFESCIENCES_LIVE=1, and is `#[ignore]`d so `cargo test` skips it.
//! They check what the mocks assume but no recording shows (docs/sources/string.md, "Not
//! verified against the live API"): field names and types, partial-name matching, empty
//! and unknown answers.

use lifesciences_core::testing::McpTestClient;
use lifesciences_core::{ErrorCode, McpServer};
use serde_json::json;
use string_mcp::StringServer;

use crate::support::TP53;

fn live() -> bool {
    std::env::var("LIFESCIENCES_LIVE").is_ok_and(|v| v == "1")
}

async fn client() -> McpTestClient {
    McpTestClient::connect(StringServer::from_env(&lifesciences_core::Env::process()).unwrap())
        .await
}

#[tokio::test]
#[ignore = "live: needs the network (cargo xtask live)"]
async fn live_search_tp53_finds_the_human_p53_curie() {
    if !live() {
        return;
    }
    let client = client().await;
    let page = client
        .call_ok("string_search_proteins", json!({"query": "TP53"}))
        .await;
    assert_eq!(page["items"][0]["id"], TP53);
    assert_eq!(page["items"][0]["taxon_id"], 9606);
    assert_eq!(page["items"][0]["taxon_name"], "Homo sapiens");
    client.close().await;
}

#[tokio::test]
#[ignore = "live: needs the network (cargo xtask live)"]
async fn live_partial_name_brca_matches_several_candidates() {
    if !live() {
        return;
    }
    let client = client().await;
    let page = client
        .call_ok(
            "string_search_proteins",
            json!({"query": "BRCA", "limit": 5}),
        )
        .await;
    assert!(!page["items"].as_array().unwrap().is_empty(), "{page:#}");
    client.close().await;
}

#[tokio::test]
#[ignore = "live: needs the network (cargo xtask live)"]
async fn live_tp53_interactions_include_mdm2_with_evidence() {
    if !live() {
        return;
    }
    let client = client().await;
    let network = client
        .call_ok(
            "string_get_interactions",
            json!({"string_id": TP53, "required_score": 700, "limit": 50}),
        )
        .await;
    assert_eq!(network["query"]["preferred_name"], "TP53");
    let partners = network["interactions"].as_array().unwrap();
    assert!(
        partners.iter().any(|p| p["preferred_name_b"] == "MDM2"),
        "{network:#}"
    );
    assert!(
        partners
            .iter()
            .all(|p| p["combined_score"].as_f64().unwrap() >= 0.7)
    );
    assert_eq!(
        network["truncated"], true,
        "TP53 has more than 50 high-confidence partners"
    );
    client.close().await;
}

#[tokio::test]
#[ignore = "live: needs the network (cargo xtask live)"]
async fn live_unknown_protein_is_entity_not_found() {
    if !live() {
        return;
    }
    let client = client().await;
    let e = client
        .call_err(
            "string_get_interactions",
            json!({"string_id": "STRING:9606.ENSP00000000000"}),
        )
        .await;
    assert_eq!(e.code, ErrorCode::EntityNotFound, "{e:?}");
    client.close().await;
}

/// The four-gene set the recordings were made with.
const SET4: [&str; 4] = ["POSTN", "SERPINB2", "CXCL10", "IFNA1"];

#[tokio::test]
#[ignore = "live: needs the network (cargo xtask live)"]
async fn live_the_four_gene_set_has_a_network_an_enrichment_and_annotations() {
    if !live() {
        return;
    }
    let client = client().await;
    // JSON field types the recordings (TSV) do not show: inputGenes and preferredNames
    // as lists or strings, p-values as numbers or strings; any of them reads.
    let network = client
        .call_ok("string_get_network", json!({"identifiers": SET4}))
        .await;
    assert_eq!(network["node_count"], 4, "{network:#}");
    assert!(
        network["ppi_enrichment"]["p_value"].is_number(),
        "{network:#}"
    );
    let enrichment = client
        .call_ok("string_get_enrichment", json!({"identifiers": SET4}))
        .await;
    assert!(
        enrichment["pagination"]["total_count"].as_u64().unwrap() > 0,
        "{enrichment:#}"
    );
    assert!(
        !enrichment["terms"][0]["genes"]
            .as_array()
            .unwrap()
            .is_empty()
    );
    let annotation = client
        .call_ok(
            "string_get_functional_annotation",
            json!({"identifiers": SET4, "categories": ["COMPARTMENTS"]}),
        )
        .await;
    assert!(
        !annotation["terms"].as_array().unwrap().is_empty(),
        "{annotation:#}"
    );
    client.close().await;
}

#[tokio::test]
#[ignore = "live: needs the network (cargo xtask live)"]
async fn live_homologs_in_two_species_come_from_one_request_and_are_named() {
    if !live() {
        return;
    }
    let client = client().await;
    // Several target species joined like identifiers: an unverified form.
    let found = client
        .call_ok(
            "string_get_homologs",
            json!({"identifiers": ["POSTN", "CXCL10"], "target_species": [10090, 10116]}),
        )
        .await;
    let hits = found["homologs"].as_array().unwrap();
    let taxa: Vec<u64> = hits.iter().filter_map(|h| h["taxon_id"].as_u64()).collect();
    assert!(taxa.contains(&10090) && taxa.contains(&10116), "{found:#}");
    assert!(
        hits.iter().any(|h| h.get("homolog_name").is_some()),
        "{found:#}"
    );
    client.close().await;
}

#[tokio::test]
#[ignore = "live: needs the network (cargo xtask live)"]
async fn live_the_network_picture_and_the_enrichment_figure_are_images() {
    if !live() {
        return;
    }
    let client = client().await;
    // No image answer was recorded: the PNG and SVG forms, and the enrichment figure's
    // path and `category`, are checked here.
    for args in [
        json!({"identifiers": SET4}),
        json!({"identifiers": SET4, "format": "svg"}),
        json!({"identifiers": SET4, "figure": "enrichment", "category": "PMID"}),
    ] {
        let content = client
            .call_picture("string_get_network_image", args.clone())
            .await;
        // The picture, what it shows, and where it came from.
        assert_eq!(content.len(), 3, "{args}: {content:?}");
    }
    client.close().await;
}

#[tokio::test]
#[ignore = "live: needs the network (cargo xtask live)"]
async fn live_the_image_url_is_the_link_string_renders_as_the_picture() {
    if !live() {
        return;
    }
    let client = client().await;
    // The URL tool fetches nothing; the picture tool fetches the same request from STRING
    // and names its link: a URL STRING renders is the one the picture came from.
    let args = json!({"identifiers": SET4});
    let out = client
        .call_ok("string_get_network_image_url", args.clone())
        .await;
    let url = out["url"].as_str().unwrap();
    assert!(url.starts_with("https://string-db.org/api/"), "{out:#}");
    assert_eq!(out["identifiers"].as_array().unwrap().len(), SET4.len());
    let content = client.call_picture("string_get_network_image", args).await;
    let text = serde_json::to_string(&content).unwrap();
    assert!(
        text.contains(url),
        "the picture's link is not {url}: {text:.600}"
    );
    client.close().await;
}
