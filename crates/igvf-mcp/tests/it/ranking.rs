//! `igvf_query_associations` beyond the evaluation questions: coding-variant scores,
//! the perturbation network, partial rankings, and the refusals that need no request.

use lifesciences_core::ErrorCode;
use serde_json::json;
use wiremock::Mock;
use wiremock::matchers::{method, path, query_param};

use crate::{Catalog, assert_requests_follow_the_spec, empty, fixture, requests, route, setup};

#[tokio::test]
async fn coding_variant_scores_of_a_gene_keep_the_method_asked_for() {
    let (upstream, client) = setup().await;
    route(
        &upstream,
        "genes/coding-variants/scores",
        &[("gene_id", "ENSG00000196584"), ("method", "SGE")],
        fixture("genes_coding-variants_scores__gene_id=ENSG00000196584.json"),
    )
    .await;
    let out = client
        .call_ok(
            "igvf_query_associations",
            json!({"kind": "coding_variant_effect", "entity_id": "ENSG00000196584",
                   "method": "sge", "sort_by": "effect_size", "order": "asc"}),
        )
        .await;
    let a = out["associations"].as_array().unwrap();
    // Three variants of p.Met1?, one SGE score each (ESM-1v and MutPred2 left out).
    assert_eq!(a.len(), 3, "{out:#}");
    let effects: Vec<f64> = a
        .iter()
        .map(|x| x["effect_size"].as_f64().unwrap())
        .collect();
    assert_eq!(effects, [-0.169903, -0.142612, -0.111594]);
    assert_eq!(a[0]["effect_size_measure"], "SGE");
    assert_eq!(a[1]["target_entity"]["id"], "NC_000007.14:152676076:C:A");
    assert_eq!(a[0]["target_entity"]["name"], "p.Met1?");
    assert_eq!(a[0]["dataset"], "/genes/coding-variants/scores");
    assert_requests_follow_the_spec(&upstream).await;
    client.close().await;
}

#[tokio::test]
async fn the_perturbation_network_ranks_response_genes_by_effect() {
    let (upstream, client) = setup().await;
    route(
        &upstream,
        "gene-regulatory-network",
        &[("regulator_gene_id", "ENSG00000143190")],
        fixture("gene-regulatory-network__regulator_gene_id=ENSG00000143190.json"),
    )
    .await;
    let out = client
        .call_ok(
            "igvf_query_associations",
            json!({"kind": "regulatory_network", "entity_id": "ENSG00000143190"}),
        )
        .await;
    let a = &out["associations"][0];
    assert_eq!(a["target_entity"], json!({"id": "TSPAN6", "_type": "gene"}));
    // The recorded row's signed score is an effect, not a 0–1 confidence.
    assert_eq!(a["effect_size"], -0.234479624412565);
    assert_eq!(a["effect_size_measure"], "score");
    assert!(a.get("score").is_none(), "{a}");
    assert_eq!(a["method"], "Perturb-seq");
    assert_eq!(out["sorted_by"], "abs_effect_size");
    client.close().await;
}

#[tokio::test]
async fn a_ranking_over_part_of_the_rows_says_it_is_partial() {
    let (upstream, client) = setup().await;
    let rows: Vec<serde_json::Value> = (0..40)
        .map(|i| {
            json!({"gene": "genes/ENSG00000012048",
                   "sequence_variant": format!("variants/NC_000017.11:{i}:A:G"),
                   "p_value": 10f64.powi(-(i % 13)), "method": "eQTL", "source": "EBI",
                   "biological_context": "liver"})
        })
        .collect();
    Mock::given(method("GET"))
        .and(path("/genes/variants"))
        .and(query_param("gene_id", "ENSG00000012048"))
        .respond_with(Catalog::new(rows))
        .mount(&upstream)
        .await;
    let out = client
        .call_ok(
            "igvf_query_associations",
            json!({"kind": "eqtl", "entity_id": "ENSG00000012048", "scan": 10, "limit": 3}),
        )
        .await;
    assert_eq!(out["complete"], false);
    assert_eq!(out["scanned"], 10);
    assert_eq!(out["associations"][0]["p_value"], 1e-9);
    let notes = out["notes"].to_string();
    assert!(notes.contains("raise 'scan'"), "{notes}");
    client.close().await;
}

#[tokio::test]
async fn queries_the_api_cannot_answer_are_refused_before_any_request() {
    let (upstream, client) = setup().await;
    for (args, code, says) in [
        (json!({"kind": "causal"}), ErrorCode::InvalidInput, "'eqtl'"),
        (json!({"kind": "eqtl"}), ErrorCode::InvalidInput, "tissue"),
        (
            json!({"kind": "element_gene"}),
            ErrorCode::InvalidInput,
            "method",
        ),
        (
            json!({"kind": "regulatory_network", "entity_id": "rs6994300"}),
            ErrorCode::InvalidInput,
            "gene",
        ),
        (
            json!({"kind": "eqtl", "tissue": "liver", "method": "sQTL"}),
            ErrorCode::InvalidInput,
            "eQTL",
        ),
        (
            json!({"kind": "element_gene", "method": "magic"}),
            ErrorCode::InvalidInput,
            "ENCODE-rE2G",
        ),
        (
            json!({"kind": "coexpression", "entity_id": "TP53", "min_z_score": 3, "max_z_score": 1}),
            ErrorCode::InvalidInput,
            "min_z_score",
        ),
        (
            json!({"kind": "gwas", "entity_id": "MONDO:0007915", "max_p_value": 0}),
            ErrorCode::InvalidInput,
            "p-value",
        ),
    ] {
        let e = client
            .call_err("igvf_query_associations", args.clone())
            .await;
        assert_eq!(e.code, code, "{args}");
        let text = format!("{} {}", e.message, e.recovery_hint);
        assert!(text.contains(says), "{args}: {text}");
    }
    assert!(requests(&upstream).await.is_empty());
    client.close().await;
}

#[tokio::test]
async fn an_anchor_with_nothing_that_does_not_exist_is_not_found() {
    let (upstream, client) = setup().await;
    let unknown = "ENSG99999999999";
    route(&upstream, "genes/genes", &[("gene_id", unknown)], empty()).await;
    route(&upstream, "genes", &[("gene_id", unknown)], empty()).await;
    let e = client
        .call_err(
            "igvf_query_associations",
            json!({"kind": "coexpression", "entity_id": unknown}),
        )
        .await;
    assert_eq!(e.code, ErrorCode::EntityNotFound);
    assert_eq!(e.invalid_input.as_deref(), Some(unknown));
    let sent = requests(&upstream).await;
    assert_eq!(sent.last().unwrap().0, "/genes");
    client.close().await;
}

#[tokio::test]
async fn a_protein_change_gets_its_own_scores() {
    let (upstream, client) = setup().await;
    route(
        &upstream,
        "coding-variants/phenotypes",
        &[("gene_name", "CYP2C19"), ("hgvsp", "p.Ala103=")],
        fixture("coding-variants_phenotypes__gene_name=CYP2C19_hgvsp=p.Ala103=.json"),
    )
    .await;
    let out = client
        .call_ok(
            "igvf_query_associations",
            json!({"kind": "coding_variant_effect", "entity_id": "cyp2c19 p.Ala103="}),
        )
        .await;
    assert_eq!(out["entity"]["detected_as"], "protein change");
    let a = &out["associations"][0];
    assert_eq!(
        a["source_entity"],
        json!({"id": "CYP2C19_ENST00000371321_p.Ala103=_c.309T-G", "_type": "coding_variant",
               "name": "p.Ala103="})
    );
    assert_eq!(a["target_entity"]["id"], "NC_000010.11:94775197:T:G");
    assert_eq!(a["effect_size"], 1.00216665235178);
    assert_eq!(a["effect_size_measure"], "VAMP-seq");
    assert_eq!(a["evidence"], "protein stability");
    assert_requests_follow_the_spec(&upstream).await;
    client.close().await;
}
