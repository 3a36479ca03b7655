//! `igvf_find_associations`: TP53's regulatory associations, both sides of edges, the
//! data quirks, filters, the `all` fan-out, partial failure, anticipated 400s.

use std::time::Duration;

use lifesciences_core::ErrorCode;
use lifesciences_core::testing::Recording;
use serde_json::json;
use wiremock::matchers::{method, path};
use wiremock::{Mock, ResponseTemplate};

use crate::{
    Catalog, assert_requests_follow_the_spec, empty, fixture, fixtures, no_rows, requests, route,
    setup,
};

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

#[tokio::test]
async fn filters_go_upstream_where_they_can_and_are_applied_here_otherwise() {
    let (upstream, client) = setup().await;
    tp53(&upstream).await;
    // The upstream as it really filters: `neg_log10_pvalue=gte:x` drops rows whose
    // `neg_log10_pvalue` is null, as in the recorded EBI row (which has only `p_value`).
    Mock::given(method("GET"))
        .and(path("/genes/variants"))
        .respond_with(Catalog::fixture(
            "genes_variants__gene_id=ENSG00000141510.json",
        ))
        .mount(&upstream)
        .await;
    route(
        &upstream,
        "genes/genomic-elements",
        &[("gene_id", TP53)],
        fixture("genes_genomic-elements__gene_id=ENSG00000141510.json"),
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
            json!({"entity_id": "TP53", "relationship": "regulatory",
                   "filters": {"p_value": 1e-6, "source": "ebi"}}),
        )
        .await;
    // /genes/variants: the source's canonical spelling upstream; the p-value is checked
    // here (sending it as -log10 would drop QTL rows that state only `p_value`).
    let sent = requests(&upstream).await;
    let gv = sent.iter().find(|(p, _)| p == "/genes/variants").unwrap();
    assert!(
        gv.1.iter().all(|(k, _)| k != "neg_log10_pvalue"),
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
    // The QTL with p = 1.87e-8 (and no neg_log10_pvalue) passes p ≤ 1e-6.
    assert_eq!(out["associations"].as_array().unwrap().len(), 1, "{out:#}");
    assert_eq!(out["associations"][0]["p_value"], 1.86586e-08);
    assert!(
        out["datasets"][0]["note"]
            .as_str()
            .unwrap()
            .contains("filtered here"),
        "{out:#}"
    );
    // A p-value it does not meet leaves it out.
    let out = client
        .call_ok(
            "igvf_find_associations",
            json!({"entity_id": "TP53", "relationship": "regulatory",
                   "filters": {"p_value": 1e-9, "source": "EBI"}}),
        )
        .await;
    assert_eq!(out["associations"], json!([]));

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
async fn gwas_p_values_go_upstream_as_neg_log10_except_p_one() {
    let (upstream, client) = setup().await;
    Mock::given(method("GET"))
        .and(path("/variants/phenotypes"))
        .respond_with(Catalog::fixture(
            "variants_phenotypes__ca_id=CA10655131.json",
        ))
        .mount(&upstream)
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
            json!({"entity_id": "CA10655131", "relationship": "genetic",
                   "filters": {"p_value": 5e-8}}),
        )
        .await;
    assert_eq!(out["associations"][0]["p_value"], 2e-12, "{out:#}");
    // p = 1 keeps every p-value: no `gte:-0` is sent.
    let out = client
        .call_ok(
            "igvf_find_associations",
            json!({"entity_id": "CA10655131", "relationship": "genetic",
                   "filters": {"p_value": 1}}),
        )
        .await;
    assert_eq!(out["associations"][0]["p_value"], 2e-12, "{out:#}");
    let sent = requests(&upstream).await;
    let gwas: Vec<&Vec<(String, String)>> = sent
        .iter()
        .filter(|(p, _)| p == "/variants/phenotypes")
        .map(|(_, q)| q)
        .collect();
    assert_eq!(gwas.len(), 2, "{sent:?}");
    let threshold = gwas[0]
        .iter()
        .find(|(k, _)| k == "neg_log10_pvalue")
        .map(|(_, v)| v.clone())
        .unwrap();
    let at_least: f64 = threshold.strip_prefix("gte:").unwrap().parse().unwrap();
    assert!((at_least - 7.30103).abs() < 1e-5, "{threshold}");
    assert!(
        gwas[1].iter().all(|(k, _)| k != "neg_log10_pvalue"),
        "{:?}",
        gwas[1]
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
    // The caller's own source, as they spelt it, is echoed (the catalog rejected the
    // canonical spelling this server sent for it).
    let e = client
        .call_err(
            "igvf_find_associations",
            json!({"entity_id": "TP53", "relationship": "genetic", "filters": {"source": "Clingen"}}),
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
    // A rejection of a parameter the caller never sent is this server's trouble, not
    // the caller's: an upstream error, echoing nothing the caller did not write.
    let e = client
        .call_err(
            "igvf_find_associations",
            json!({"entity_id": "TP53", "relationship": "genetic"}),
        )
        .await;
    assert_eq!(e.code, ErrorCode::UpstreamError, "{e:?}");
    assert_eq!(e.invalid_input, None);
    client.close().await;
}

#[tokio::test]
async fn all_fans_out_in_parallel_and_one_failure_does_not_sink_the_others() {
    let (upstream, client) = setup().await;
    tp53(&upstream).await;
    // The gene's proteins, looked up by exact name before the protein data sets.
    route(
        &upstream,
        "proteins",
        &[("name", "TP53")],
        fixture("proteins__name=TP53.json"),
    )
    .await;
    let delay = Duration::from_millis(400);
    let recording = Recording::new(empty().set_delay(delay));
    for at in [
        "/genes/variants",
        "/genes/genomic-elements",
        "/proteins/proteins",
        "/proteins/complexes",
        "/genes/pathways",
        "/genes/genes",
        "/gene-regulatory-network",
        "/genes/transcripts",
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
    assert_eq!(datasets.len(), 9);
    let failed: Vec<&serde_json::Value> = datasets
        .iter()
        .filter(|d| d.get("error").is_some())
        .collect();
    assert_eq!(failed.len(), 1);
    assert_eq!(failed[0]["dataset"], "/genes/diseases");
    assert_eq!(failed[0]["error"]["code"], "UPSTREAM_ERROR");
    assert!(
        out["notes"][0].as_str().unwrap().contains("1 of 9"),
        "{out:#}"
    );
    // Eight data sets answered, each asked once, all at about the same time.
    let arrivals = recording.arrivals();
    assert_eq!(arrivals.len(), 8);
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
            json!({"entity_id": "ENST00000428769", "relationship": "regulatory"}),
        )
        .await;
    assert_eq!(e.code, ErrorCode::InvalidInput);
    assert!(
        e.recovery_hint.contains("'transcripts'"),
        "{}",
        e.recovery_hint
    );
    // The caller's spelling is echoed, not the relationship it was read as.
    let e = client
        .call_err(
            "igvf_find_associations",
            json!({"entity_id": "rs1152591", "relationship": "PPI"}),
        )
        .await;
    assert_eq!(e.code, ErrorCode::InvalidInput);
    assert_eq!(e.invalid_input.as_deref(), Some("PPI"));
    let e = client
        .call_err(
            "igvf_find_associations",
            json!({"entity_id": "TP53", "relationship": "causal"}),
        )
        .await;
    assert_eq!(e.invalid_input.as_deref(), Some("causal"));
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

async fn tp53_proteins(upstream: &wiremock::MockServer) {
    tp53(upstream).await;
    route(
        upstream,
        "proteins",
        &[("name", "TP53")],
        fixture("proteins__name=TP53.json"),
    )
    .await;
    route(
        upstream,
        "proteins/proteins",
        &[("protein_name", "TP53")],
        fixture("proteins_proteins__protein_name=TP53.json"),
    )
    .await;
}

#[tokio::test]
async fn a_gene_s_interaction_partner_is_the_side_that_is_not_one_of_its_proteins() {
    let (upstream, client) = setup().await;
    tp53_proteins(&upstream).await;
    // TP53's proteins belong to no complex.
    route(
        &upstream,
        "proteins/complexes",
        &[("protein_name", "TP53")],
        empty(),
    )
    .await;
    let out = client
        .call_ok(
            "igvf_find_associations",
            json!({"entity_id": "TP53", "relationship": "physical"}),
        )
        .await;
    // TP53 is protein_2, so the partner is protein_1; the edge between two other
    // proteins is left out.
    let associations = out["associations"].as_array().unwrap();
    assert_eq!(associations.len(), 1, "{out:#}");
    assert_eq!(
        associations[0]["source_entity"],
        json!({"id": "ENSP00000269305", "_type": "protein", "name": "TP53"})
    );
    assert_eq!(
        associations[0]["target_entity"],
        json!({"id": "ENSP00000000001", "_type": "protein"})
    );
    assert_eq!(associations[0]["pmids"], json!(["PMID:12345678"]));
    let ppi = &out["datasets"][0];
    assert_eq!(ppi["dataset"], "/proteins/proteins");
    assert!(
        ppi["note"]
            .as_str()
            .unwrap()
            .contains("1 record(s) that do not involve the entity"),
        "{ppi}"
    );
    // The gene's proteins were resolved by exact name first.
    let sent = requests(&upstream).await;
    assert!(
        sent.iter()
            .any(|(p, q)| p == "/proteins" && q.contains(&("name".into(), "TP53".into()))),
        "{sent:?}"
    );
    assert_requests_follow_the_spec(&upstream).await;
    client.close().await;
}

#[tokio::test]
async fn a_gene_without_proteins_has_no_physical_associations_and_says_why() {
    let (upstream, client) = setup().await;
    tp53(&upstream).await;
    // No protein of that name.
    route(&upstream, "proteins", &[("name", "TP53")], empty()).await;
    let out = client
        .call_ok(
            "igvf_find_associations",
            json!({"entity_id": "TP53", "relationship": "physical"}),
        )
        .await;
    assert_eq!(out["associations"], json!([]));
    assert!(
        out["notes"][0]
            .as_str()
            .unwrap()
            .contains("no protein for TP53"),
        "{out:#}"
    );
    let sent = requests(&upstream).await;
    assert!(
        sent.iter().all(|(p, _)| p != "/proteins/proteins"),
        "{sent:?}"
    );
    client.close().await;
}

#[tokio::test]
async fn uniprot_accessions_and_protein_symbols_are_queried_by_their_ensembl_protein() {
    let (upstream, client) = setup().await;
    route(
        &upstream,
        "proteins",
        &[("dbxrefs", "P04637")],
        fixture("proteins__name=TP53.json"),
    )
    .await;
    route(
        &upstream,
        "proteins",
        &[("name", "TP53")],
        fixture("proteins__name=TP53.json"),
    )
    .await;
    // The protein has no GO annotation, no interaction and no complex.
    no_rows(
        &upstream,
        &["gene-products/go-terms"],
        &[("query", "ENSP00000269305")],
    )
    .await;
    no_rows(
        &upstream,
        &["proteins/proteins", "proteins/complexes"],
        &[("protein_id", "ENSP00000269305")],
    )
    .await;
    let out = client
        .call_ok(
            "igvf_find_associations",
            json!({"entity_id": "P04637", "relationship": "functional"}),
        )
        .await;
    assert_eq!(out["entity"]["id"], "ENSP00000269305", "{out:#}");
    assert_eq!(out["entity"]["symbol"], "TP53");
    assert!(out["datasets"][0].get("note").is_none(), "{out:#}");
    let out = client
        .call_ok(
            "igvf_find_associations",
            json!({"entity_id": "tp53", "hint": "protein", "relationship": "physical"}),
        )
        .await;
    assert_eq!(out["entity"]["id"], "ENSP00000269305");
    let sent = requests(&upstream).await;
    assert!(
        sent.iter().any(|(p, q)| p == "/gene-products/go-terms"
            && q.contains(&("query".into(), "ENSP00000269305".into()))),
        "{sent:?}"
    );
    for at in ["/proteins/proteins", "/proteins/complexes"] {
        assert!(
            sent.iter()
                .any(|(p, q)| p == at
                    && q.contains(&("protein_id".into(), "ENSP00000269305".into()))),
            "{at}: {sent:?}"
        );
    }
    assert_requests_follow_the_spec(&upstream).await;
    client.close().await;
}

#[tokio::test]
async fn an_entity_no_data_set_can_be_searched_by_is_unresolved_with_the_accepted_form() {
    let (upstream, client) = setup().await;
    let e = client
        .call_err(
            "igvf_find_associations",
            json!({"entity_id": "GO:0000122", "relationship": "genetic"}),
        )
        .await;
    assert_eq!(e.code, ErrorCode::UnresolvedEntity);
    assert_eq!(e.invalid_input.as_deref(), Some("GO:0000122"));
    assert!(
        e.recovery_hint.contains("a disease term"),
        "{}",
        e.recovery_hint
    );
    assert!(
        e.recovery_hint.contains("'functional'"),
        "{}",
        e.recovery_hint
    );
    let e = client
        .call_err(
            "igvf_find_associations",
            json!({"entity_id": "MONDO:0009861", "relationship": "functional"}),
        )
        .await;
    assert_eq!(e.code, ErrorCode::UnresolvedEntity);
    assert!(e.recovery_hint.contains("a GO term"), "{}", e.recovery_hint);
    assert!(requests(&upstream).await.is_empty());
    client.close().await;
}

#[tokio::test]
async fn a_mouse_gene_asked_for_human_only_data_is_told_so() {
    let (upstream, client) = setup().await;
    let e = client
        .call_err(
            "igvf_find_associations",
            json!({"entity_id": "ENSMUSG00000059552", "relationship": "genetic"}),
        )
        .await;
    assert_eq!(e.code, ErrorCode::InvalidInput);
    assert!(e.message.contains("human entities only"), "{}", e.message);
    assert_eq!(e.invalid_input.as_deref(), Some("genetic"));
    assert!(requests(&upstream).await.is_empty());
    client.close().await;
}

#[tokio::test]
async fn an_unknown_identifier_is_not_found_rather_than_an_empty_success() {
    let (upstream, client) = setup().await;
    // Every data set of the relationship, then the lookup, answers `[]` (the
    // perturbation network is asked by `regulator_gene_id`).
    route(&upstream, "gene-regulatory-network", &[], empty()).await;
    for (entity, relationship, at, param, datasets) in [
        (
            "ENSG99999999999",
            "regulatory",
            "/genes",
            "gene_id",
            &["genes/variants", "genes/genomic-elements"][..],
        ),
        (
            "rs99999999999",
            "genetic",
            "/variants",
            "rsid",
            &["variants/phenotypes", "variants/diseases"][..],
        ),
        (
            "ENSP99999999999",
            "physical",
            "/proteins",
            "protein_id",
            &["proteins/proteins", "proteins/complexes"][..],
        ),
    ] {
        no_rows(&upstream, datasets, &[(param, entity)]).await;
        route(
            &upstream,
            at.trim_start_matches('/'),
            &[(param, entity)],
            empty(),
        )
        .await;
        let e = client
            .call_err(
                "igvf_find_associations",
                json!({"entity_id": entity, "relationship": relationship}),
            )
            .await;
        assert_eq!(e.code, ErrorCode::EntityNotFound, "{entity}");
        assert_eq!(e.invalid_input.as_deref(), Some(entity));
        let sent = requests(&upstream).await;
        assert_eq!(sent.last().unwrap().0, at, "{entity}: one lookup last");
    }
    // An entity that exists but has no associations is an empty success.
    no_rows(
        &upstream,
        &["genes/variants", "genes/genomic-elements"],
        &[("gene_id", TP53)],
    )
    .await;
    route(
        &upstream,
        "genes",
        &[("gene_id", TP53)],
        fixture("genes__name=TP53.json"),
    )
    .await;
    let out = client
        .call_ok(
            "igvf_find_associations",
            json!({"entity_id": TP53, "relationship": "regulatory"}),
        )
        .await;
    assert_eq!(out["associations"], json!([]));
    client.close().await;
}

/// `/genes/transcripts` and `/transcripts/genes`, `/transcripts/proteins` rows as the
/// spec's output schemas describe them (`gene`, `transcript`, `protein` as
/// `collection/key` strings; no recorded response exists): TP53-201 and its protein, and
/// one row of another gene, as an upstream ignoring the filter would send.
#[tokio::test]
async fn transcripts_link_a_gene_to_its_transcripts_and_a_transcript_to_its_gene_and_protein() {
    let (upstream, client) = setup().await;
    let row = |gene: &str, transcript: &str| {
        json!({"gene": format!("genes/{gene}"), "transcript": format!("transcripts/{transcript}"),
               "source": "GENCODE", "version": "v43", "name": "transcribed to"})
    };
    route(
        &upstream,
        "genes/transcripts",
        &[("gene_id", TP53)],
        ResponseTemplate::new(200).set_body_json(json!([
            row(TP53, "ENST00000269305"),
            row("ENSG00000000001", "ENST00000000001")
        ])),
    )
    .await;
    let out = client
        .call_ok(
            "igvf_find_associations",
            json!({"entity_id": TP53, "relationship": "transcripts"}),
        )
        .await;
    let a = out["associations"].as_array().unwrap();
    assert_eq!(a.len(), 1, "{out:#}");
    assert_eq!(
        a[0]["target_entity"],
        json!({"id": "ENST00000269305", "_type": "transcript"})
    );
    assert_eq!(a[0]["relationship"], "transcripts");
    assert!(
        out["datasets"][0]["note"]
            .as_str()
            .unwrap()
            .contains("do not involve the entity"),
        "{out:#}"
    );
    route(
        &upstream,
        "transcripts/genes",
        &[("transcript_id", "ENST00000269305")],
        ResponseTemplate::new(200).set_body_json(json!([row(TP53, "ENST00000269305")])),
    )
    .await;
    route(
        &upstream,
        "transcripts/proteins",
        &[("transcript_id", "ENST00000269305")],
        ResponseTemplate::new(200).set_body_json(json!([{
            "transcript": "transcripts/ENST00000269305", "protein": "proteins/ENSP00000269305",
            "source": "GENCODE", "name": "translates to"
        }])),
    )
    .await;
    let out = client
        .call_ok(
            "igvf_find_associations",
            json!({"entity_id": "ENST00000269305", "relationship": "transcripts"}),
        )
        .await;
    let targets: Vec<&serde_json::Value> = out["associations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| &a["target_entity"])
        .collect();
    assert_eq!(
        targets,
        [
            &json!({"id": TP53, "_type": "gene"}),
            &json!({"id": "ENSP00000269305", "_type": "protein"})
        ]
    );
    assert_requests_follow_the_spec(&upstream).await;
    client.close().await;
}

/// A disease term covers its direct children: each of its data sets (disease → genes,
/// disease → ClinGen variants, phenotype → GWAS variants) is asked for the term and for
/// each child, one report per data set, and the result names the terms covered.
#[tokio::test]
async fn a_disease_term_s_associations_include_its_child_terms() {
    let (upstream, client) = setup().await;
    Mock::given(method("GET"))
        .and(path("/ontology-terms/MONDO_0007915/children"))
        .respond_with(fixture("ontology-terms_MONDO_0007915_children.json"))
        .mount(&upstream)
        .await;
    route(
        &upstream,
        "diseases/variants",
        &[("disease_id", "MONDO_0007915")],
        fixture("diseases_variants__disease_id=MONDO_0007915.json"),
    )
    .await;
    route(
        &upstream,
        "phenotypes/variants",
        &[("phenotype_id", "MONDO_0000001")],
        fixture("phenotypes_variants__phenotype_id=MONDO_0000001.json"),
    )
    .await;
    for at in [
        "/diseases/genes",
        "/diseases/variants",
        "/phenotypes/variants",
    ] {
        Mock::given(method("GET"))
            .and(path(at))
            .respond_with(empty())
            .with_priority(10)
            .mount(&upstream)
            .await;
    }
    let out = client
        .call_ok(
            "igvf_find_associations",
            json!({"entity_id": "MONDO:0007915", "relationship": "genetic"}),
        )
        .await;
    assert_eq!(
        out["covered_terms"],
        json!({"terms": ["MONDO:0007915", "MONDO:0000001", "MONDO:0000002"], "complete": true})
    );
    // One report per data set, each over the three terms.
    let reports: Vec<(&str, u64)> = out["datasets"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                d["dataset"].as_str().unwrap(),
                d["returned"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        reports,
        [
            ("/diseases/genes", 0),
            ("/diseases/variants", 1),
            ("/phenotypes/variants", 1)
        ]
    );
    // The GWAS variant came from a child term, and says so.
    let sources: Vec<(&str, &str)> = out["associations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| {
            (
                a["source_entity"]["id"].as_str().unwrap(),
                a["target_entity"]["id"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        sources,
        [
            ("MONDO:0007915", "NC_000012.12:102917129:T:C"),
            ("MONDO:0000001", "NC_000001.11:1023572:A:G")
        ]
    );
    assert!(
        out["notes"][0]
            .as_str()
            .unwrap()
            .contains("Covered the term and 2 direct child term(s)"),
        "{out:#}"
    );
    // The children once, then each data set for each term: 1 + 3 × 3 requests.
    let sent = requests(&upstream).await;
    assert_eq!(sent.len(), 10, "{sent:?}");
    let mut asked: Vec<(String, String)> = sent
        .iter()
        .filter(|(p, _)| !p.ends_with("/children"))
        .map(|(p, q)| {
            let term = q
                .iter()
                .find(|(k, _)| k == "disease_id" || k == "phenotype_id")
                .map(|(_, v)| v.clone())
                .unwrap();
            (p.clone(), term)
        })
        .collect();
    asked.sort();
    let mut expected: Vec<(String, String)> = Vec::new();
    for at in [
        "/diseases/genes",
        "/diseases/variants",
        "/phenotypes/variants",
    ] {
        for term in ["MONDO_0000001", "MONDO_0000002", "MONDO_0007915"] {
            expected.push((at.to_owned(), term.to_owned()));
        }
    }
    assert_eq!(asked, expected);
    assert_requests_follow_the_spec(&upstream).await;
    client.close().await;
}

/// The expansion is bounded: ten children at most, and a term with more says so.
#[tokio::test]
async fn a_term_with_more_children_than_covered_says_the_expansion_was_cut() {
    let (upstream, client) = setup().await;
    // Eleven placeholder children (constructed in the spec's output shape of
    // `/ontology-terms/{id}/children`).
    let children: Vec<serde_json::Value> = (1..=11)
        .map(|i| {
            json!({"term": {"term_id": format!("MONDO_90000{i:02}"), "name": "placeholder"},
                   "relationship_type": "subclass"})
        })
        .collect();
    Mock::given(method("GET"))
        .and(path("/ontology-terms/MONDO_0007915/children"))
        .respond_with(Catalog::new(children))
        .mount(&upstream)
        .await;
    route(
        &upstream,
        "diseases/variants",
        &[("disease_id", "MONDO_0007915")],
        fixture("diseases_variants__disease_id=MONDO_0007915.json"),
    )
    .await;
    for at in [
        "/diseases/genes",
        "/diseases/variants",
        "/phenotypes/variants",
    ] {
        Mock::given(method("GET"))
            .and(path(at))
            .respond_with(empty())
            .with_priority(10)
            .mount(&upstream)
            .await;
    }
    let out = client
        .call_ok(
            "igvf_find_associations",
            json!({"entity_id": "MONDO:0007915", "relationship": "genetic"}),
        )
        .await;
    let covered = &out["covered_terms"];
    assert_eq!(covered["complete"], false, "{out:#}");
    let terms = covered["terms"].as_array().unwrap();
    assert_eq!(terms.len(), 11);
    assert_eq!(terms[0], "MONDO:0007915");
    assert_eq!(terms[10], "MONDO:9000010");
    assert!(
        out["notes"][0]
            .as_str()
            .unwrap()
            .contains("the first 10; it has more"),
        "{out:#}"
    );
    let sent = requests(&upstream).await;
    let children_limit = sent
        .iter()
        .find(|(p, _)| p.ends_with("/children"))
        .and_then(|(_, q)| q.iter().find(|(k, _)| k == "limit").cloned())
        .unwrap();
    // Ten children asked for, and one more to know whether there are more.
    assert_eq!(children_limit.1, "11");
    // The children, then eleven terms × three data sets.
    assert_eq!(sent.len(), 1 + 11 * 3, "{sent:?}");
    client.close().await;
}
