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

// `igvf_query_associations` and the `transcripts` relationship. Most of these requests
// have no recorded response; shapes are checked, not values (the catalog's data drift).

fn rows(out: &serde_json::Value) -> Vec<serde_json::Value> {
    out["associations"].as_array().cloned().unwrap_or_default()
}

#[tokio::test]
#[ignore = "live: needs the network (cargo xtask live)"]
async fn live_catalog_wide_eqtls_in_liver() {
    if !live() {
        return;
    }
    let client = client().await;
    // `/variants/genes` with only method=eQTL and biological_context=liver.
    let out = client
        .call_ok(
            "igvf_query_associations",
            json!({"kind": "eqtl", "tissue": "liver", "limit": 5}),
        )
        .await;
    assert!(out["scanned"].is_u64(), "{out:#}");
    for a in rows(&out) {
        let tissue = a["tissue"].as_str().unwrap_or_default().to_lowercase();
        assert!(tissue.contains("liver"), "{a:#}");
    }
    client.close().await;
}

#[tokio::test]
#[ignore = "live: needs the network (cargo xtask live)"]
async fn live_ctcf_gene_and_protein_have_transcripts() {
    if !live() {
        return;
    }
    let client = client().await;
    // `/genes/transcripts?gene_id=`, then `/proteins/transcripts?protein_name=`.
    for args in [
        json!({"entity_id": "CTCF", "relationship": "transcripts"}),
        json!({"entity_id": "CTCF", "hint": "protein", "relationship": "transcripts"}),
    ] {
        let out = client.call_ok("igvf_find_associations", args).await;
        assert!(
            rows(&out)
                .iter()
                .any(|a| a["target_entity"]["_type"] == "transcript"
                    && a["target_entity"]["id"]
                        .as_str()
                        .is_some_and(|id| id.starts_with("ENST"))),
            "{out:#}"
        );
    }
    client.close().await;
}

#[tokio::test]
#[ignore = "live: needs the network (cargo xtask live)"]
async fn live_brca1_coexpression_below_a_z_score_ranks_ascending() {
    if !live() {
        return;
    }
    let client = client().await;
    // `/genes/genes?source=COXPRESdb&z_score=lte:0`.
    let out = client
        .call_ok(
            "igvf_query_associations",
            json!({"kind": "coexpression", "entity_id": "ENSG00000012048",
                   "max_z_score": 0, "sort_by": "z_score", "order": "asc", "limit": 5}),
        )
        .await;
    let z: Vec<f64> = rows(&out)
        .iter()
        .map(|a| a["z_score"].as_f64().expect("z_score"))
        .collect();
    assert!(z.iter().all(|&z| z <= 0.0), "{out:#}");
    assert!(z.windows(2).all(|w| w[0] <= w[1]), "{out:#}");
    client.close().await;
}

#[tokio::test]
#[ignore = "live: needs the network (cargo xtask live)"]
async fn live_a_trait_term_covers_its_children() {
    if !live() {
        return;
    }
    let client = client().await;
    // `/ontology-terms/MONDO_0007915/children`, then `/phenotypes/variants` per term.
    let out = client
        .call_ok(
            "igvf_query_associations",
            json!({"kind": "gwas", "entity_id": "MONDO:0007915", "limit": 5}),
        )
        .await;
    assert!(out["associations"].is_array(), "{out:#}");
    assert!(
        out["datasets"].as_array().is_some_and(|d| !d.is_empty()),
        "{out:#}"
    );
    client.close().await;
}

#[tokio::test]
#[ignore = "live: needs the network (cargo xtask live)"]
async fn live_xrcc2_coding_variant_effects_carry_their_method() {
    if !live() {
        return;
    }
    let client = client().await;
    // `/genes/coding-variants/scores?gene_id=`.
    let out = client
        .call_ok(
            "igvf_query_associations",
            json!({"kind": "coding_variant_effect", "entity_id": "XRCC2", "limit": 5}),
        )
        .await;
    assert!(!rows(&out).is_empty(), "{out:#}");
    for a in rows(&out) {
        assert!(a["effect_size"].is_number(), "{a:#}");
        assert!(a["effect_size_measure"].is_string(), "{a:#}");
    }
    client.close().await;
}

#[tokio::test]
#[ignore = "live: needs the network (cargo xtask live)"]
async fn live_brca1_clinical_variants_by_region() {
    if !live() {
        return;
    }
    let client = client().await;
    // `/variants/diseases?region=` in 10 kb windows over BRCA1 and its flanks.
    let out = client
        .call_ok(
            "igvf_query_associations",
            json!({"kind": "clinical", "entity_id": "BRCA1", "limit": 5}),
        )
        .await;
    // A gene's clinical variants: the disease on one side, the variant on the other.
    for a in rows(&out) {
        assert_eq!(a["target_entity"]["_type"], "variant", "{a:#}");
        assert_eq!(a["dataset"], "/variants/diseases");
    }
    client.close().await;
}

#[tokio::test]
#[ignore = "live: needs the network (cargo xtask live)"]
async fn live_a_listed_source_value_is_one_the_catalog_answers_with_rows() {
    if !live() {
        return;
    }
    let client = client().await;
    // The values igvf_list_sources offers come from the embedded OpenAPI description;
    // one of them, used as a filter, must select rows in the live catalog.
    let out = client.call_ok("igvf_list_sources", json!({})).await;
    let disease = out["categories"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["category"] == "disease")
        .unwrap();
    assert!(
        disease["sources"]
            .as_array()
            .unwrap()
            .contains(&json!("ClinGen")),
        "{disease:#}"
    );
    let ranked = client
        .call_ok(
            "igvf_query_associations",
            json!({"kind": "disease_gene", "entity_id": "BRCA1", "source": "ClinGen", "limit": 3}),
        )
        .await;
    assert!(
        !ranked["associations"].as_array().unwrap().is_empty(),
        "{ranked:#}"
    );
    client.close().await;
}
