//! Opt-in checks against the real UniProt (`cargo xtask live -p uniprot-mcp`; never in
//! CI). Each returns early unless LIFESCIENCES_LIVE=1, and is `#[ignore]`d so `cargo test`
//! skips it. One per tool with an input whose answer must not be empty, and the points
//! docs/sources/uniprot.md lists as not verified against the live API: `fields=` on the
//! entry path, the JSON of a search page and of ID-mapping results, the release header,
//! a merged accession's and an entry name's `303`.

use lifesciences_core::testing::McpTestClient;
use lifesciences_core::{ErrorCode, McpServer};
use serde_json::json;
use uniprot_mcp::UniprotServer;

fn live() -> bool {
    std::env::var("LIFESCIENCES_LIVE").is_ok_and(|v| v == "1")
}

async fn client() -> McpTestClient {
    McpTestClient::connect(UniprotServer::from_env(&lifesciences_core::Env::process()).unwrap())
        .await
}

/// A release as UniProt names it: `YYYY_NN`.
fn is_release(value: &serde_json::Value) -> bool {
    value.as_str().is_some_and(|r| {
        let b = r.as_bytes();
        b.len() == 7 && b[4] == b'_' && r.replace('_', "").bytes().all(|c| c.is_ascii_digit())
    })
}

#[tokio::test]
#[ignore = "live: needs the network (cargo xtask live)"]
async fn live_search_adora1_in_human_finds_p30542_reviewed_first() {
    if !live() {
        return;
    }
    let client = client().await;
    let (page, provenance) = client
        .call_ok_with_provenance(
            "uniprot_search_proteins",
            json!({"gene": "ADORA1", "organism": "human"}),
        )
        .await;
    let first = &page["items"][0];
    assert_eq!(first["accession"], "P30542", "{page:#}");
    assert_eq!(first["reviewed"], true);
    assert_eq!(first["gene"], "ADORA1");
    assert_eq!(first["taxon_id"], 9606);
    assert!(page["pagination"]["total_count"].as_u64() >= Some(1));
    assert!(
        is_release(&provenance["sources"][0]["release"]),
        "{provenance:#}"
    );
    client.close().await;
}

#[tokio::test]
#[ignore = "live: needs the network (cargo xtask live)"]
async fn live_a_broad_search_pages_by_uniprot_s_cursor() {
    if !live() {
        return;
    }
    let client = client().await;
    let args = json!({"query": "adenosine receptor", "organism": 9606, "limit": 2});
    let first = client
        .call_ok("uniprot_search_proteins", args.clone())
        .await;
    assert_eq!(first["items"].as_array().unwrap().len(), 2, "{first:#}");
    assert!(first["pagination"]["total_count"].as_u64() > Some(2));
    let mut next = args;
    next["cursor"] = first["pagination"]["cursor"].clone();
    let second = client.call_ok("uniprot_search_proteins", next).await;
    assert!(
        !second["items"].as_array().unwrap().is_empty(),
        "{second:#}"
    );
    assert_ne!(second["items"][0], first["items"][0]);
    client.close().await;
}

#[tokio::test]
#[ignore = "live: needs the network (cargo xtask live)"]
async fn live_get_protein_p30542_is_adora1_in_brief() {
    if !live() {
        return;
    }
    let client = client().await;
    let (result, provenance) = client
        .call_ok_with_provenance("uniprot_get_protein", json!({"ids": ["P30542"]}))
        .await;
    let p = &result["proteins"][0];
    assert_eq!(p["accession"], "P30542");
    assert_eq!(p["gene"], "ADORA1");
    assert_eq!(p["cross_references"]["ensembl_gene"], "ENSG00000163485");
    assert!(
        p["feature_counts"]["transmembrane"].as_u64() >= Some(7),
        "{p:#}"
    );
    assert!(serde_json::to_string(p).unwrap().len() <= 4096);
    assert!(
        is_release(&provenance["sources"][0]["release"]),
        "{provenance:#}"
    );
    client.close().await;
}

#[tokio::test]
#[ignore = "live: needs the network (cargo xtask live)"]
async fn live_an_entry_name_and_a_secondary_accession_reach_their_entry() {
    if !live() {
        return;
    }
    let client = client().await;
    let by_name = client
        .call_ok("uniprot_get_protein", json!({"ids": ["AA1R_HUMAN"]}))
        .await;
    assert_eq!(by_name["proteins"][0]["accession"], "P30542", "{by_name:#}");
    // O43910 is a secondary accession of O00115 (DNASE2): merged into it.
    let merged = client
        .call_ok("uniprot_get_protein", json!({"ids": ["O43910"]}))
        .await;
    let p = &merged["proteins"][0];
    assert_eq!(p["accession"], "O00115", "{merged:#}");
    assert_eq!(p["requested"], "O43910");
    client.close().await;
}

#[tokio::test]
#[ignore = "live: needs the network (cargo xtask live)"]
async fn live_an_unknown_accession_is_not_found() {
    if !live() {
        return;
    }
    let client = client().await;
    let e = client
        .call_err("uniprot_get_protein", json!({"ids": ["P99997"]}))
        .await;
    assert_eq!(e.code, ErrorCode::EntityNotFound, "{}", e.message);
    client.close().await;
}

#[tokio::test]
#[ignore = "live: needs the network (cargo xtask live)"]
async fn live_get_features_o00115_residue_95_is_the_aipcs_variant() {
    if !live() {
        return;
    }
    let client = client().await;
    let page = client
        .call_ok(
            "uniprot_get_features",
            json!({"id": "O00115", "types": ["variants"], "position": 95}),
        )
        .await;
    let features = page["features"].as_array().unwrap();
    assert!(!features.is_empty(), "{page:#}");
    assert!(
        features.iter().any(|f| f["change"] == "Y>C"
            && f["diseases"]
                .to_string()
                .contains("Autoinflammatory-pancytopenia")),
        "{page:#}"
    );
    client.close().await;
}

#[tokio::test]
#[ignore = "live: needs the network (cargo xtask live)"]
async fn live_map_ids_p30542_to_ensembl_gives_its_gene() {
    if !live() {
        return;
    }
    let client = client().await;
    let result = client
        .call_ok(
            "uniprot_map_ids",
            json!({"ids": ["P30542", "O00115"], "to": "ensembl"}),
        )
        .await;
    let pairs = result["mappings"].as_array().unwrap();
    assert!(
        pairs
            .iter()
            .any(|m| m["from"] == "P30542" && m["to"] == "ENSG00000163485"),
        "{result:#}"
    );
    client.close().await;
}

#[tokio::test]
#[ignore = "live: needs the network (cargo xtask live)"]
async fn live_map_ids_gene_names_in_human_give_reviewed_entries() {
    if !live() {
        return;
    }
    let client = client().await;
    let result = client
        .call_ok(
            "uniprot_map_ids",
            json!({"ids": ["ADORA1"], "from": "gene_name", "to": "uniprot_reviewed", "organism": 9606}),
        )
        .await;
    let first = &result["mappings"][0];
    assert_eq!(first["to"], "P30542", "{result:#}");
    assert_eq!(first["reviewed"], true);
    client.close().await;
}
