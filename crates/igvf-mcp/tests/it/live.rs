//! Opt-in checks against the real IGVF Catalog (`cargo xtask live`): `#[ignore]`d, and
//! they return early unless `LIFESCIENCES_LIVE=1`. Never run in CI.

use igvf_mcp::IgvfServer;
use lifesciences_core::McpServer;
use lifesciences_core::testing::McpTestClient;
use serde_json::json;

fn live() -> bool {
    std::env::var("LIFESCIENCES_LIVE").is_ok_and(|v| v == "1")
}

async fn client() -> McpTestClient {
    McpTestClient::connect(IgvfServer::from_env(&lifesciences_core::Env::process()).unwrap()).await
}

#[tokio::test]
#[ignore = "live: needs the network (cargo xtask live)"]
async fn live_brca1_symbol_is_the_exact_gene() {
    if !live() {
        return;
    }
    let client = client().await;
    let gene = client
        .call_ok("igvf_get_entity", json!({"id": "BRCA1"}))
        .await;
    assert_eq!(gene["id"], "ENSG00000012048");
    client.close().await;
}

#[tokio::test]
#[ignore = "live: needs the network (cargo xtask live)"]
async fn live_rs80357906_resolves_to_an_spdi() {
    if !live() {
        return;
    }
    let client = client().await;
    let out = client
        .call_ok(
            "igvf_resolve_id",
            json!({"id": "rs80357906", "target_type": "spdi"}),
        )
        .await;
    assert!(
        out["resolved"]
            .as_str()
            .unwrap()
            .starts_with("NC_000017.11:")
    );
    client.close().await;
}

#[tokio::test]
#[ignore = "live: needs the network (cargo xtask live)"]
async fn live_tp53_regulatory_and_a_region_answer() {
    if !live() {
        return;
    }
    let client = client().await;
    let out = client
        .call_ok(
            "igvf_find_associations",
            json!({"entity_id": "TP53", "relationship": "regulatory", "limit": 5}),
        )
        .await;
    assert_eq!(out["entity"]["id"], "ENSG00000141510");
    let region = client
        .call_ok("igvf_search_region", json!({"region": "chr17:41.2M-41.3M"}))
        .await;
    assert!(region["genes"].is_array());
    let ld = client
        .call_ok(
            "igvf_find_ld",
            json!({"variant_id": "rs60960132", "r2_threshold": 0.2}),
        )
        .await;
    assert!(ld["ld"].is_array());
    client.close().await;
}

#[tokio::test]
#[ignore = "live: needs the network (cargo xtask live)"]
async fn live_a_variant_comes_with_its_summary_and_containing_elements() {
    if !live() {
        return;
    }
    let client = client().await;
    // `/variants/summary` was recorded on the development API only, and the elements
    // containing a variant (a one-base `/genomic-elements` region) not at all.
    let v = client
        .call_ok("igvf_get_entity", json!({"id": "NC_000020.11:3658947:A:G"}))
        .await;
    let context = &v["variant_context"];
    assert!(context.get("note").is_none(), "{v:#}");
    assert!(context["nearest_gene"]["id"].is_string(), "{v:#}");
    assert!(context["gnomad_af"].is_number(), "{v:#}");
    client.close().await;
}
