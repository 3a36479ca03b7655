//! Opt-in check against the real databases (`cargo xtask live`): `#[ignore]`d, and it
//! returns early unless `LIFESCIENCES_LIVE=1`. Never run in CI. The gateway's own tool,
//! `lifesciences_map_ids`, across every database it reaches; the servers' tools have live
//! checks in their own crates.

use lifesciences_core::McpServer;
use lifesciences_core::testing::McpTestClient;
use lifesciences_mcp::Gateway;
use serde_json::json;

fn live() -> bool {
    std::env::var("LIFESCIENCES_LIVE").is_ok_and(|v| v == "1")
}

#[tokio::test]
#[ignore = "live: needs the network (cargo xtask live)"]
async fn live_a_gene_a_variant_and_a_compound_each_map_to_their_equivalents() {
    if !live() {
        return;
    }
    let client =
        McpTestClient::connect(Gateway::from_env(&lifesciences_core::Env::process()).unwrap())
            .await;
    let out = client
        .call_ok(
            "lifesciences_map_ids",
            json!({"ids": ["TP53", "rs80357906", "CID:2244"]}),
        )
        .await;
    assert_eq!(out["mapped"], 3, "{out:#}");
    assert_eq!(out["failed"], 0, "{out:#}");
    let equivalents = |i: usize, namespace: &str| -> Vec<String> {
        out["results"][i]["equivalents"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|e| e["namespace"] == namespace)
            .map(|e| e["id"].as_str().unwrap().to_owned())
            .collect()
    };
    assert!(
        equivalents(0, "ensembl_gene").contains(&"ENSG00000141510".to_owned()),
        "{out:#}"
    );
    assert!(!equivalents(1, "spdi").is_empty(), "{out:#}");
    assert_eq!(equivalents(2, "chembl_compound"), ["CHEMBL:25"], "{out:#}");
    client.close().await;
}
