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
