//! `igvf_find_associations`: the TP53 regulatory scenario, both sides of edges, the
//! data quirks, filters, the `all` fan-out, partial failure, anticipated 400s.

use std::time::Duration;

use lifesciences_core::ErrorCode;
use lifesciences_core::testing::Recording;
use serde_json::json;
use wiremock::matchers::{method, path};
use wiremock::{Mock, ResponseTemplate};

use crate::{assert_requests_follow_the_spec, empty, fixture, fixtures, requests, route, setup};

const TP53: &str = "ENSG00000141510";

async fn tp53(upstream: &wiremock::MockServer) {
    route(
        upstream,
        "genes",
        &[("name", "TP53")],
        fixture("genes__name=TP53.json"),
    )
    .await;
}

#[tokio::test]
async fn scenario_tp53_regulatory_resolves_the_symbol_then_queries_both_data_sets() {
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
    let element = &associations[1];
    assert_eq!(element["target_entity"]["_type"], "genomic_element");
    assert_eq!(element["method"], "Perturb-seq");
    assert_eq!(element["tissue"], "CD8-positive, alpha-beta memory T cell");
    assert_eq!(element["score"], 0.207166288617972);
    let datasets = out["datasets"].as_array().unwrap();
    assert_eq!(datasets.len(), 2);
    for d in datasets {
        assert_eq!(d["returned"], 1);
        assert_eq!(d["truncated"], false);
    }
    // The symbol was resolved exactly first; the edges were asked by gene ID, never by a
    // fuzzy `gene_name`.
    let sent = requests(&upstream).await;
    assert_eq!(sent.len(), 3, "{sent:?}");
    assert_eq!(sent[0].0, "/genes");
    for (at, query) in &sent[1..] {
        assert!(
            query.contains(&("gene_id".into(), TP53.into())),
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

#[tokio::test]
async fn filters_go_upstream_where_they_can_and_are_applied_here_otherwise() {
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
    let out = client
        .call_ok(
            "igvf_find_associations",
            json!({"entity_id": "TP53", "relationship": "regulatory",
                   "filters": {"p_value": 1e-6, "source": "ebi"}}),
        )
        .await;
    // /genes/variants: -log10 threshold and the source's canonical spelling upstream.
    let sent = requests(&upstream).await;
    let gv = sent.iter().find(|(p, _)| p == "/genes/variants").unwrap();
    assert!(
        gv.1.contains(&("neg_log10_pvalue".into(), "gte:6".into())),
        "{:?}",
        gv.1
    );
    assert!(
        gv.1.contains(&("source".into(), "EBI".into())),
        "{:?}",
        gv.1
    );
    // /genes/genomic-elements has sources ENCODE and IGVF only: not asked at all.
    assert!(
        sent.iter().all(|(p, _)| p != "/genes/genomic-elements"),
        "{sent:?}"
    );
    let skipped = &out["datasets"][1];
    assert!(
        skipped["note"]
            .as_str()
            .unwrap()
            .contains("'ENCODE', 'IGVF'"),
        "{skipped}"
    );
    assert_eq!(out["associations"].as_array().unwrap().len(), 1);

    // A tissue filter the upstream cannot apply is applied here over a full page.
    let out = client
        .call_ok(
            "igvf_find_associations",
            json!({"entity_id": "TP53", "relationship": "regulatory", "filters": {"tissue": "THYROID"}}),
        )
        .await;
    let associations = out["associations"].as_array().unwrap();
    assert_eq!(associations.len(), 1);
    assert_eq!(associations[0]["tissue"], "thyroid");
    let sent = requests(&upstream).await;
    assert!(
        sent.iter()
            .any(|(p, q)| p == "/genes/variants" && q.contains(&("limit".into(), "500".into()))),
        "{sent:?}"
    );
    assert!(
        out["datasets"][1]["note"]
            .as_str()
            .unwrap()
            .contains("filtered here")
    );
    client.close().await;
}

#[tokio::test]
async fn an_unknown_source_lists_the_valid_ones_without_a_query() {
    let (upstream, client) = setup().await;
    tp53(&upstream).await;
    let e = client
        .call_err(
            "igvf_find_associations",
            json!({"entity_id": "TP53", "relationship": "genetic", "filters": {"source": "OMIM"}}),
        )
        .await;
    assert_eq!(e.code, ErrorCode::InvalidInput);
    assert!(
        e.recovery_hint.contains("'GenCC', 'Orphanet', 'ClinGen'"),
        "{}",
        e.recovery_hint
    );
    assert!(requests(&upstream).await.iter().all(|(p, _)| p == "/genes"));
    client.close().await;
}

#[tokio::test]
async fn an_upstream_enum_rejection_becomes_invalid_input_with_the_accepted_values() {
    let (upstream, client) = setup().await;
    tp53(&upstream).await;
    route(
        &upstream,
        "genes/diseases",
        &[],
        ResponseTemplate::new(400)
            .set_body_string(fixtures().text("genes_diseases__bad_enum.400.json")),
    )
    .await;
    let e = client
        .call_err(
            "igvf_find_associations",
            json!({"entity_id": "TP53", "relationship": "genetic"}),
        )
        .await;
    assert_eq!(e.code, ErrorCode::InvalidInput);
    assert_eq!(e.invalid_input.as_deref(), Some("Clingen"));
    assert!(e.message.contains("'source'"), "{}", e.message);
    assert!(
        e.recovery_hint.contains("'GenCC', 'Orphanet', 'ClinGen'"),
        "{}",
        e.recovery_hint
    );
    client.close().await;
}

#[tokio::test]
async fn all_fans_out_in_parallel_and_one_failure_does_not_sink_the_others() {
    let (upstream, client) = setup().await;
    tp53(&upstream).await;
    let delay = Duration::from_millis(400);
    let recording = Recording::new(empty().set_delay(delay));
    for at in [
        "/genes/variants",
        "/genes/genomic-elements",
        "/proteins/proteins",
        "/proteins/complexes",
        "/genes/pathways",
        "/genes/genes",
    ] {
        Mock::given(method("GET"))
            .and(path(at))
            .respond_with(recording.clone())
            .mount(&upstream)
            .await;
    }
    route(&upstream, "genes/diseases", &[], ResponseTemplate::new(500)).await;
    let out = client
        .call_ok(
            "igvf_find_associations",
            json!({"entity_id": "TP53", "relationship": "all", "limit": 5}),
        )
        .await;
    let datasets = out["datasets"].as_array().unwrap();
    assert_eq!(datasets.len(), 7);
    let failed: Vec<&serde_json::Value> = datasets
        .iter()
        .filter(|d| d.get("error").is_some())
        .collect();
    assert_eq!(failed.len(), 1);
    assert_eq!(failed[0]["dataset"], "/genes/diseases");
    assert_eq!(failed[0]["error"]["code"], "UPSTREAM_ERROR");
    assert!(
        out["notes"][0].as_str().unwrap().contains("1 of 7"),
        "{out:#}"
    );
    // Six data sets answered, each asked once, all at about the same time.
    let arrivals = recording.arrivals();
    assert_eq!(arrivals.len(), 6);
    let spread = *arrivals.iter().max().unwrap() - *arrivals.iter().min().unwrap();
    assert!(spread < delay / 2, "arrivals spread over {spread:?}");
    // The gene's proteins are asked by its exact symbol.
    let sent = requests(&upstream).await;
    let ppi = sent
        .iter()
        .find(|(p, _)| p == "/proteins/proteins")
        .unwrap();
    assert!(
        ppi.1.contains(&("protein_name".into(), "TP53".into())),
        "{:?}",
        ppi.1
    );
    assert_requests_follow_the_spec(&upstream).await;
    client.close().await;
}

#[tokio::test]
async fn relationships_that_do_not_apply_say_which_do() {
    let (upstream, client) = setup().await;
    let e = client
        .call_err(
            "igvf_find_associations",
            json!({"entity_id": "rs1152591", "relationship": "physical"}),
        )
        .await;
    assert_eq!(e.code, ErrorCode::InvalidInput);
    assert!(
        e.recovery_hint
            .contains("'regulatory', 'genetic', 'pharmacological'"),
        "{}",
        e.recovery_hint
    );
    let e = client
        .call_err(
            "igvf_find_associations",
            json!({"entity_id": "ENST00000428769", "relationship": "all"}),
        )
        .await;
    assert_eq!(e.code, ErrorCode::InvalidInput);
    assert!(e.recovery_hint.contains("gene"), "{}", e.recovery_hint);
    let e = client
        .call_err(
            "igvf_find_associations",
            json!({"entity_id": "TP53", "relationship": "causal"}),
        )
        .await;
    assert_eq!(e.code, ErrorCode::InvalidInput);
    assert!(
        e.message.contains("'causal' is not a relationship"),
        "{}",
        e.message
    );
    let e = client
        .call_err(
            "igvf_find_associations",
            json!({"entity_id": "TP53", "relationship": "all", "filters": {"p_value": 2}}),
        )
        .await;
    assert_eq!(e.code, ErrorCode::InvalidInput);
    let e = client
        .call_err(
            "igvf_find_associations",
            json!({"entity_id": "TP53", "relationship": "all", "filters": {"pvalue": 0.1}}),
        )
        .await;
    assert!(
        e.message.contains("Unknown argument 'pvalue'"),
        "{}",
        e.message
    );
    assert!(requests(&upstream).await.is_empty());
    client.close().await;
}

#[tokio::test]
async fn an_unknown_symbol_is_not_found_before_any_edge_is_asked() {
    let (upstream, client) = setup().await;
    route(
        &upstream,
        "genes",
        &[],
        fixture("genes__organism_only.json"),
    )
    .await;
    let e = client
        .call_err(
            "igvf_find_associations",
            json!({"entity_id": "NOTAGENE1", "relationship": "regulatory"}),
        )
        .await;
    assert_eq!(e.code, ErrorCode::EntityNotFound);
    let sent = requests(&upstream).await;
    assert_eq!(sent.len(), 1);
    assert_eq!(sent[0].0, "/genes");
    client.close().await;
}

#[tokio::test]
async fn a_protein_is_queried_by_its_id_and_go_terms_come_back() {
    let (upstream, client) = setup().await;
    route(
        &upstream,
        "gene-products/go-terms",
        &[("query", "ENSP00000384707")],
        fixture("gene-products_go-terms__query=ENSP00000384707.json"),
    )
    .await;
    let out = client
        .call_ok(
            "igvf_find_associations",
            json!({"entity_id": "ENSP00000384707", "relationship": "functional"}),
        )
        .await;
    let go = &out["associations"][0];
    assert_eq!(go["target_entity"]["id"], "GO:0000122");
    assert_eq!(
        go["target_entity"]["name"],
        "negative regulation of transcription by rna polymerase ii"
    );
    assert_eq!(go["evidence"], "IDA");
    client.close().await;
}
