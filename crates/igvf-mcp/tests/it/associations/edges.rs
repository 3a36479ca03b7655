//! Edges read from the entity's side: TP53's regulatory data sets, a variant's side with
//! the GWAS p-value quirk, clinical assertions, and edges that do not involve the entity.

use serde_json::json;

use crate::{assert_requests_follow_the_spec, empty, fixture, no_rows, requests, route, setup};

use super::{TP53, tp53};

#[tokio::test]
async fn tp53_regulatory_resolves_the_symbol_then_queries_both_data_sets() {
    let (upstream, client) = setup().await;
    tp53(&upstream).await;
    route(
        &upstream,
        "genes/variants",
        &[("gene_id", TP53)],
        fixture("genes_variants__gene_id=ENSG00000141510.json"),
    )
    .await;
    route(
        &upstream,
        "genes/genomic-elements",
        &[("gene_id", TP53)],
        fixture("genes_genomic-elements__gene_id=ENSG00000141510.json"),
    )
    .await;
    // The gene as a perturbed regulator: nothing here.
    no_rows(
        &upstream,
        &["gene-regulatory-network"],
        &[("regulator_gene_id", TP53)],
    )
    .await;
    let out = client
        .call_ok(
            "igvf_find_associations",
            json!({"entity_id": "TP53", "relationship": "regulatory"}),
        )
        .await;
    assert_eq!(
        out["entity"],
        json!({"input": "TP53", "_type": "gene", "detected_as": "gene symbol", "id": TP53, "symbol": "TP53"})
    );
    assert_eq!(out["relationship"], "regulatory");
    let associations = out["associations"].as_array().unwrap();
    assert_eq!(associations.len(), 2, "{out:#}");
    let qtl = &associations[0];
    assert_eq!(qtl["relationship"], "regulatory");
    assert_eq!(qtl["relationship_type"], "splice_QTL");
    assert_eq!(qtl["predicate"], "modulates splicing of");
    assert_eq!(
        qtl["source_entity"],
        json!({"id": TP53, "_type": "gene", "name": "TP53"})
    );
    assert_eq!(
        qtl["target_entity"],
        json!({"id": "NC_000014.9:64214129:A:G", "_type": "variant"})
    );
    assert_eq!(qtl["p_value"], 1.86586e-08);
    assert_eq!(qtl["source"], "EBI");
    assert_eq!(qtl["tissue"], "thyroid");
    assert_eq!(qtl["biosample"], "UBERON:0002046");
    assert_eq!(qtl["study"], "QTS000015");
    assert_eq!(qtl["posterior_inclusion_probability"], 0.0196484625211173);
    assert_eq!(qtl["dataset"], "/genes/variants");
    // A z-score is not a 0–1 score: it has its own field (the recorded EBI row).
    assert_eq!(qtl["z_score"], -5.7890983309083);
    assert!(qtl.get("score").is_none(), "{qtl:#}");
    let element = &associations[1];
    assert_eq!(element["target_entity"]["_type"], "genomic_element");
    assert_eq!(element["method"], "Perturb-seq");
    assert_eq!(element["tissue"], "CD8-positive, alpha-beta memory T cell");
    assert_eq!(element["score"], 0.207166288617972);
    let datasets = out["datasets"].as_array().unwrap();
    assert_eq!(datasets.len(), 3);
    assert_eq!(datasets[2]["dataset"], "/gene-regulatory-network");
    assert_eq!(datasets[2]["returned"], 0);
    for d in &datasets[..2] {
        assert_eq!(d["returned"], 1);
        assert_eq!(d["truncated"], false);
        // Described once by igvf_list_sources, not on every call.
        assert!(d.get("description").is_none(), "{d}");
    }
    // The symbol was resolved exactly first; the edges were asked by gene ID, never by a
    // fuzzy `gene_name`.
    let sent = requests(&upstream).await;
    assert_eq!(sent.len(), 4, "{sent:?}");
    assert_eq!(sent[0].0, "/genes");
    for (at, query) in &sent[1..] {
        assert!(
            query.contains(&("gene_id".into(), TP53.into()))
                || query.contains(&("regulator_gene_id".into(), TP53.into())),
            "{at}: {query:?}"
        );
        assert!(
            query.iter().all(|(k, _)| k != "gene_name"),
            "{at}: {query:?}"
        );
    }
    assert_requests_follow_the_spec(&upstream).await;
    client.close().await;
}

#[tokio::test]
async fn edges_that_do_not_involve_the_entity_are_left_out() {
    let (upstream, client) = setup().await;
    tp53(&upstream).await;
    // An edge of ENSG00000054654, as an upstream that ignored the gene filter would send.
    route(
        &upstream,
        "genes/variants",
        &[],
        fixture("variants_genes__rsid=rs1152591.json"),
    )
    .await;
    route(
        &upstream,
        "genes/genomic-elements",
        &[("gene_id", TP53)],
        empty(),
    )
    .await;
    no_rows(
        &upstream,
        &["gene-regulatory-network"],
        &[("regulator_gene_id", TP53)],
    )
    .await;
    let out = client
        .call_ok(
            "igvf_find_associations",
            json!({"entity_id": "TP53", "relationship": "regulatory"}),
        )
        .await;
    assert_eq!(out["associations"], json!([]));
    let report = &out["datasets"][0];
    assert_eq!(report["dataset"], "/genes/variants");
    assert!(
        report["note"]
            .as_str()
            .unwrap()
            .contains("do not involve the entity"),
        "{report}"
    );
    client.close().await;
}

#[tokio::test]
async fn a_variant_works_from_its_side_with_the_gwas_p_val_quirk() {
    let (upstream, client) = setup().await;
    route(
        &upstream,
        "variants/phenotypes",
        &[("ca_id", "CA10655131")],
        fixture("variants_phenotypes__ca_id=CA10655131.json"),
    )
    .await;
    // The variant has no clinical assertion.
    route(
        &upstream,
        "variants/diseases",
        &[("ca_id", "CA10655131")],
        empty(),
    )
    .await;
    let out = client
        .call_ok(
            "igvf_find_associations",
            json!({"entity_id": "CA10655131", "relationship": "genetic"}),
        )
        .await;
    let gwas = &out["associations"][0];
    assert_eq!(gwas["p_value"], 2e-12, "the GWAS edge says p_val: {gwas:#}");
    assert!((gwas["neg_log10_p_value"].as_f64().unwrap() - 11.698970004336).abs() < 1e-9);
    assert_eq!(
        gwas["target_entity"],
        json!({"id": "EFO:0004339", "_type": "ontology_term", "name": "body height"})
    );
    assert_eq!(gwas["source_entity"]["id"], "NC_000001.11:1023572:A:G");
    assert_eq!(gwas["study"], "GCST007841");
    assert_eq!(gwas["source"], "OpenTargets");
    // Both genetic data sets were asked, by the ClinGen ID.
    let sent = requests(&upstream).await;
    let mut paths: Vec<&str> = sent.iter().map(|(p, _)| p.as_str()).collect();
    paths.sort();
    assert_eq!(paths, ["/variants/diseases", "/variants/phenotypes"]);
    assert!(
        sent.iter()
            .all(|(_, q)| q.contains(&("ca_id".into(), "CA10655131".into())))
    );
    client.close().await;
}

#[tokio::test]
async fn clinical_assertions_keep_their_evidence_and_publications() {
    let (upstream, client) = setup().await;
    let spdi = "NC_000012.12:102917129:T:C";
    route(
        &upstream,
        "variants/diseases",
        &[("spdi", spdi)],
        fixture("variants_diseases__spdi=NC_000012.12_102917129_T_C.json"),
    )
    .await;
    // /variants/phenotypes takes no source, so it is asked too and filtered here; the
    // variant has no GWAS edge.
    route(&upstream, "variants/phenotypes", &[("spdi", spdi)], empty()).await;
    let out = client
        .call_ok(
            "igvf_find_associations",
            json!({"entity_id": spdi, "relationship": "genetic", "filters": {"source": "clingen"}}),
        )
        .await;
    let a = &out["associations"][0];
    assert_eq!(
        a["target_entity"],
        json!({"id": "MONDO:0009861", "_type": "ontology_term"})
    );
    assert_eq!(a["evidence"], "Pathogenic");
    assert_eq!(a["pmids"], json!(["PMID:2574002", "PMID:9450897"]));
    assert_eq!(a["source"], "ClinGen");
    client.close().await;
}
