//! `igvf_query_associations` beyond the evaluation questions: coding-variant scores,
//! the perturbation network, partial rankings, the refusals that need no request,
//! queries with no entity wherever the spec says the catalog answers them, a disease
//! term's genes (children included), and `limit` counting entities, not rows.

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
        (
            json!({"kind": "causal"}),
            ErrorCode::InvalidInput,
            "'disease_gene'",
        ),
        // No entity, and the endpoint's spec names no filter given: what would do.
        (
            json!({"kind": "element_gene"}),
            ErrorCode::InvalidInput,
            "'method' (one of 'CRISPR screen', 'ENCODE-rE2G', 'Perturb-seq', 'scE2G')",
        ),
        (
            json!({"kind": "gwas", "max_p_value": 5e-8}),
            ErrorCode::InvalidInput,
            "'GWAS'",
        ),
        (
            json!({"kind": "coexpression", "source": "COXPRESdb"}),
            ErrorCode::InvalidInput,
            "Give 'entity_id': a gene",
        ),
        (
            json!({"kind": "clinical", "tissue": "liver"}),
            ErrorCode::InvalidInput,
            "/diseases/variants answers only when one of disease_id, disease_name is set",
        ),
        (
            json!({"kind": "regulatory_network", "method": "Perturb-seq"}),
            ErrorCode::InvalidInput,
            "regulator_gene_id",
        ),
        (
            json!({"kind": "disease_gene"}),
            ErrorCode::InvalidInput,
            "a disease or phenotype term (its genes)",
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

/// Requests the mock received at `at`, as their query pairs without paging.
async fn sent_to(upstream: &wiremock::MockServer, at: &str) -> Vec<Vec<(String, String)>> {
    requests(upstream)
        .await
        .into_iter()
        .filter(|(p, _)| p == at)
        .map(|(_, q)| {
            q.into_iter()
                .filter(|(k, _)| k != "page" && k != "limit")
                .collect()
        })
        .collect()
}

fn pairs(list: &[(&str, &str)]) -> Vec<(String, String)> {
    list.iter()
        .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
        .collect()
}

/// `/variants/genes` answers any query with a `method` (its description: "At least one of
/// these properties must be defined: spdi, …, method, or files_filesets"), and a QTL kind
/// always sends its own: splicing QTLs from one source need no entity and no tissue.
#[tokio::test]
async fn splicing_qtls_of_one_source_need_no_entity() {
    let (upstream, client) = setup().await;
    Mock::given(method("GET"))
        .and(path("/variants/genes"))
        .respond_with(Catalog::fixture("variants_genes__rsid=rs1152591.json"))
        .mount(&upstream)
        .await;
    let out = client
        .call_ok(
            "igvf_query_associations",
            json!({"kind": "sqtl", "source": "ebi"}),
        )
        .await;
    assert!(out.get("entity").is_none());
    let a = &out["associations"][0];
    assert_eq!(a["source_entity"]["id"], "NC_000014.9:64214129:A:G");
    assert_eq!(a["target_entity"]["id"], "ENSG00000054654");
    assert_eq!(a["source"], "EBI");
    assert_eq!(out["complete"], true);
    // Exactly the kind's method and the source, as the spec spells it.
    assert_eq!(
        sent_to(&upstream, "/variants/genes").await,
        [pairs(&[("method", "spliceQTL"), ("source", "EBI")])]
    );
    let notes = out["notes"].to_string();
    assert!(notes.contains("/variants/genes"), "{notes}");
    assert_requests_follow_the_spec(&upstream).await;
    client.close().await;
}

/// GWAS and coding-variant scores with no entity, given a method (their endpoints need a
/// phenotype, a coding variant or a method); GWAS thresholds still go upstream.
#[tokio::test]
async fn gwas_and_coding_scores_need_only_a_method() {
    let (upstream, client) = setup().await;
    Mock::given(method("GET"))
        .and(path("/phenotypes/variants"))
        .respond_with(Catalog::fixture(
            "phenotypes_variants__phenotype_id=MONDO_0000001.json",
        ))
        .mount(&upstream)
        .await;
    Mock::given(method("GET"))
        .and(path("/coding-variants/phenotypes"))
        .respond_with(Catalog::fixture(
            "coding-variants_phenotypes__gene_name=CYP2C19_hgvsp=p.Ala103=.json",
        ))
        .mount(&upstream)
        .await;
    let gwas = client
        .call_ok(
            "igvf_query_associations",
            json!({"kind": "gwas", "method": "gwas", "max_p_value": 1e-6}),
        )
        .await;
    assert_eq!(
        gwas["associations"].as_array().unwrap().len(),
        1,
        "{gwas:#}"
    );
    assert_eq!(
        gwas["associations"][0]["target_entity"]["id"],
        "NC_000001.11:1023572:A:G"
    );
    let gwas_sent = sent_to(&upstream, "/phenotypes/variants").await;
    assert_eq!(gwas_sent.len(), 1);
    assert_eq!(gwas_sent[0][0], ("method".to_owned(), "GWAS".to_owned()));
    let (name, bound) = &gwas_sent[0][1];
    assert_eq!(name, "neg_log10_pvalue");
    let at_least: f64 = bound.strip_prefix("gte:").unwrap().parse().unwrap();
    assert!((at_least - 6.0).abs() < 1e-9, "{bound}");
    let scores = client
        .call_ok(
            "igvf_query_associations",
            json!({"kind": "coding_variant_effect", "method": "VAMP-seq"}),
        )
        .await;
    assert_eq!(
        scores["associations"][0]["target_entity"]["id"],
        "NC_000010.11:94775197:T:G"
    );
    assert_eq!(
        sent_to(&upstream, "/coding-variants/phenotypes").await,
        [pairs(&[("method", "VAMP-seq")])]
    );
    assert_requests_follow_the_spec(&upstream).await;
    client.close().await;
}

/// A disease term's genes: the term and each child term asked at `/diseases/genes`, a
/// gene associated with two of them counted once, with both rows; the result names the
/// terms covered.
#[tokio::test]
async fn a_disease_term_s_genes_include_its_children() {
    let (upstream, client) = setup().await;
    Mock::given(method("GET"))
        .and(path("/ontology-terms/MONDO_0007915/children"))
        .respond_with(fixture("ontology-terms_MONDO_0007915_children.json"))
        .mount(&upstream)
        .await;
    let row = |term: &str, gene: &str, symbol: &str, source: &str| {
        json!({"term_name": "placeholder", "gene_symbol": symbol,
               "association_type": "Disease-causing germline mutation(s) in",
               "source": source, "gene": format!("genes/{gene}"),
               "disease": format!("ontology_terms/{term}"), "name": "associated with"})
    };
    for (term, rows) in [
        (
            "MONDO_0007915",
            vec![row("MONDO_0007915", "ENSG00000012048", "BRCA1", "Orphanet")],
        ),
        (
            "MONDO_0000001",
            vec![
                row("MONDO_0000001", "ENSG00000141510", "TP53", "GenCC"),
                row("MONDO_0000001", "ENSG00000012048", "BRCA1", "GenCC"),
            ],
        ),
        ("MONDO_0000002", vec![]),
    ] {
        Mock::given(method("GET"))
            .and(path("/diseases/genes"))
            .and(query_param("disease_id", term))
            .respond_with(Catalog::new(rows))
            .mount(&upstream)
            .await;
    }
    let out = client
        .call_ok(
            "igvf_query_associations",
            json!({"kind": "disease_gene", "entity_id": "MONDO:0007915", "limit": 1}),
        )
        .await;
    assert_eq!(out["kind"], "disease_gene");
    assert!(
        out["notes"][0]
            .as_str()
            .unwrap()
            .contains("the term and 2 direct child term(s)"),
        "{out:#}"
    );
    // limit 1: one gene, BRCA1, with its rows from the term and from its child.
    let a = out["associations"].as_array().unwrap();
    let rows: Vec<(&str, &str)> = a
        .iter()
        .map(|x| {
            (
                x["source_entity"]["id"].as_str().unwrap(),
                x["target_entity"]["id"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        rows,
        [
            ("MONDO:0007915", "ENSG00000012048"),
            ("MONDO:0000001", "ENSG00000012048")
        ]
    );
    assert_eq!(a[0]["target_entity"]["name"], "BRCA1");
    assert_eq!(out["matched"], 3);
    let notes = out["notes"].to_string();
    assert!(notes.contains("2 distinct entities matched"), "{notes}");
    // The term and each child, asked at once (so in any order).
    let mut asked = sent_to(&upstream, "/diseases/genes").await;
    asked.sort();
    assert_eq!(
        asked,
        [
            pairs(&[("disease_id", "MONDO_0000001")]),
            pairs(&[("disease_id", "MONDO_0000002")]),
            pairs(&[("disease_id", "MONDO_0007915")]),
        ]
    );
    // From the gene's side: its diseases.
    route(
        &upstream,
        "genes/diseases",
        &[("gene_id", "ENSG00000141510"), ("source", "Orphanet")],
        fixture("diseases_genes__disease_id=Orphanet_101435.json"),
    )
    .await;
    let out = client
        .call_ok(
            "igvf_query_associations",
            json!({"kind": "disease_gene", "entity_id": "ENSG00000141510", "source": "orphanet"}),
        )
        .await;
    // The row of another gene the upstream sent is not TP53's.
    assert_eq!(out["associations"].as_array().unwrap().len(), 1, "{out:#}");
    assert_eq!(
        out["associations"][0]["target_entity"]["id"],
        "Orphanet:101435"
    );
    assert_requests_follow_the_spec(&upstream).await;
    client.close().await;
}

/// `limit` counts variants: BRCA1's first variant carries two ClinGen assertions, and
/// five variants come back with all six of their rows (not five rows of four variants).
#[tokio::test]
async fn limit_counts_variants_and_keeps_each_variant_s_rows() {
    let (upstream, client) = setup().await;
    route(
        &upstream,
        "genes",
        &[("name", "BRCA1")],
        fixture("genes__name=BRCA1.json"),
    )
    .await;
    let mut rows = crate::fixtures()
        .json("variants_diseases__region=BRCA1_span.json")
        .as_array()
        .unwrap()
        .clone();
    let mut second = rows[0].clone();
    second["disease"] = json!("ontology_terms/MONDO_0007254");
    second["assertion"] = json!("Uncertain Significance");
    rows.insert(1, second);
    Mock::given(method("GET"))
        .and(path("/variants/diseases"))
        .and(query_param("region", "chr17:43034294-43044294"))
        .respond_with(Catalog::new(rows))
        .mount(&upstream)
        .await;
    Mock::given(method("GET"))
        .and(path("/variants/diseases"))
        .respond_with(empty())
        .with_priority(10)
        .mount(&upstream)
        .await;
    let out = client
        .call_ok(
            "igvf_query_associations",
            json!({"kind": "clinical", "entity_id": "BRCA1", "limit": 5}),
        )
        .await;
    let targets: Vec<&str> = out["associations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["target_entity"]["id"].as_str().unwrap())
        .collect();
    assert_eq!(
        targets,
        [
            "NC_000017.11:43041892:A:T",
            "NC_000017.11:43041892:A:T",
            "NC_000017.11:43050670:G:A",
            "NC_000017.11:43077839:G:A",
            "NC_000017.11:43092918:G:A",
            "NC_000017.11:43119276:AAAAAAAAAAAA:AAAAAAAAAAA",
        ]
    );
    assert_eq!(out["associations"][1]["evidence"], "Uncertain Significance");
    assert_eq!(out["matched"], 6);
    // The searched span, shown 1-based: the gene's catalog start 43044294 minus 10 kb,
    // plus one.
    let notes = out["notes"].to_string();
    assert!(notes.contains("chr17:43034295-43135364"), "{notes}");
    client.close().await;
}
