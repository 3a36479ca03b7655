//! The fourteen questions of the IGVF Catalog's own MCP evaluation
//! (<https://github.com/IGVF-DACC/igvf-catalog-mcp/blob/main/evaluation/comparison.md>),
//! one scenario each, named after the question: the calls an agent makes (one, or two
//! where a test says so), the requests sent upstream, and the shape of the answer.

use serde_json::{Value, json};
use wiremock::Mock;
use wiremock::matchers::{method, path, query_param};

use crate::{
    Catalog, assert_requests_follow_the_spec, empty, fixture, mount_variant_context, requests,
    route, setup,
};

const BRCA1: &str = "ENSG00000012048";
const TP53: &str = "ENSG00000141510";

fn ids(associations: &Value, side: &str) -> Vec<String> {
    associations
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a[side]["id"].as_str().unwrap().to_owned())
        .collect()
}

#[tokio::test]
async fn q01_find_information_about_gene_tp53() {
    let (upstream, client) = setup().await;
    route(
        &upstream,
        "genes",
        &[("name", "TP53")],
        fixture("genes__name=TP53.json"),
    )
    .await;
    let gene = client
        .call_ok("igvf_get_entity", json!({"id": "TP53"}))
        .await;
    assert_eq!(gene["_type"], "gene");
    assert_eq!(gene["id"], TP53);
    assert_eq!(gene["symbol"], "TP53");
    assert_eq!(requests(&upstream).await.len(), 1);
    assert_requests_follow_the_spec(&upstream).await;
    client.close().await;
}

#[tokio::test]
async fn q02_variants_on_chr16_at_position_20000000() {
    let (upstream, client) = setup().await;
    // The region as a researcher writes it, 1-based and inclusive: the catalog is asked
    // for it 0-based and half-open, from 19999989.
    route(
        &upstream,
        "variants",
        &[("region", "chr16:19999989-20000010")],
        fixture("variants__region=chr16_19999990-20000010.json"),
    )
    .await;
    let out = client
        .call_ok(
            "igvf_search_region",
            json!({"region": "chr16:19,999,990-20,000,010", "include": ["variants"]}),
        )
        .await;
    let variants = out["variants"].as_array().unwrap();
    assert_eq!(variants.len(), 3, "{out:#}");
    assert_eq!(variants[1]["id"], "NC_000016.10:20000001:A:G");
    assert_eq!(variants[1]["position"], 20_000_002);
    assert_eq!(requests(&upstream).await.len(), 1);
    client.close().await;
}

#[tokio::test]
async fn q03_diseases_of_variant_nc_000012_12_102917129_t_c() {
    let (upstream, client) = setup().await;
    let spdi = "NC_000012.12:102917129:T:C";
    route(
        &upstream,
        "variants/diseases",
        &[("spdi", spdi)],
        fixture("variants_diseases__spdi=NC_000012.12_102917129_T_C.json"),
    )
    .await;
    route(&upstream, "variants/phenotypes", &[("spdi", spdi)], empty()).await;
    let out = client
        .call_ok(
            "igvf_find_associations",
            json!({"entity_id": spdi, "relationship": "genetic"}),
        )
        .await;
    let a = &out["associations"][0];
    assert_eq!(a["target_entity"]["id"], "MONDO:0009861");
    assert_eq!(a["evidence"], "Pathogenic");
    assert_eq!(requests(&upstream).await.len(), 2);
    client.close().await;
}

/// Two calls: the GWAS side and the clinical side, each covering the term's children.
#[tokio::test]
async fn q04_variants_relevant_to_lupus_two_calls() {
    let (upstream, client) = setup().await;
    Mock::given(method("GET"))
        .and(path("/ontology-terms/MONDO_0007915/children"))
        .respond_with(fixture("ontology-terms_MONDO_0007915_children.json"))
        .mount(&upstream)
        .await;
    route(
        &upstream,
        "phenotypes/variants",
        &[("phenotype_id", "MONDO_0000001")],
        fixture("phenotypes_variants__phenotype_id=MONDO_0000001.json"),
    )
    .await;
    route(
        &upstream,
        "diseases/variants",
        &[("disease_id", "MONDO_0007915")],
        fixture("diseases_variants__disease_id=MONDO_0007915.json"),
    )
    .await;
    for at in ["phenotypes/variants", "diseases/variants"] {
        Mock::given(method("GET"))
            .and(path(format!("/{at}")))
            .respond_with(empty())
            .with_priority(10)
            .mount(&upstream)
            .await;
    }
    let gwas = client
        .call_ok(
            "igvf_query_associations",
            json!({"kind": "gwas", "entity_id": "MONDO:0007915"}),
        )
        .await;
    assert_eq!(gwas["entity"]["id"], "MONDO:0007915");
    // The term and its two children, each asked.
    assert_eq!(gwas["datasets"].as_array().unwrap().len(), 3, "{gwas:#}");
    assert_eq!(
        ids(&gwas["associations"], "target_entity"),
        ["NC_000001.11:1023572:A:G"]
    );
    // The variant came from a child term, and says so.
    assert_eq!(
        gwas["associations"][0]["source_entity"]["id"],
        "MONDO:0000001"
    );
    assert_eq!(gwas["sorted_by"], "p_value");
    assert!(
        gwas["notes"][0]
            .as_str()
            .unwrap()
            .contains("2 direct child"),
        "{gwas:#}"
    );
    let clinical = client
        .call_ok(
            "igvf_query_associations",
            json!({"kind": "clinical", "entity_id": "MONDO:0007915"}),
        )
        .await;
    assert_eq!(
        ids(&clinical["associations"], "target_entity"),
        ["NC_000012.12:102917129:T:C"]
    );
    assert_eq!(clinical["complete"], true);
    // Children asked once per call (cached the second time), then 3 + 3 edge queries.
    let sent = requests(&upstream).await;
    assert_eq!(
        sent.iter()
            .filter(|(p, _)| p.ends_with("/children"))
            .count(),
        1,
        "{sent:?}"
    );
    assert_eq!(sent.len(), 7, "{sent:?}");
    assert_requests_follow_the_spec(&upstream).await;
    client.close().await;
}

#[tokio::test]
async fn q05_transcripts_of_the_human_protein_ctcf() {
    let (upstream, client) = setup().await;
    route(
        &upstream,
        "proteins",
        &[("name", "CTCF")],
        fixture("proteins__protein_id=ENSP00000384707.json"),
    )
    .await;
    route(
        &upstream,
        "proteins/transcripts",
        &[("protein_name", "CTCF")],
        fixture("proteins_transcripts__protein_name=CTCF.json"),
    )
    .await;
    let out = client
        .call_ok(
            "igvf_find_associations",
            json!({"entity_id": "CTCF", "hint": "protein", "relationship": "transcripts"}),
        )
        .await;
    // The protein the symbol resolved to keeps its transcript; the row of a protein the
    // look-up did not return is left out, and said so.
    assert_eq!(
        ids(&out["associations"], "target_entity"),
        ["ENST00000401394"]
    );
    assert_eq!(
        out["associations"][0]["target_entity"]["_type"],
        "transcript"
    );
    assert_eq!(out["datasets"][0]["dataset"], "/proteins/transcripts");
    assert_eq!(requests(&upstream).await.len(), 2);
    assert_requests_follow_the_spec(&upstream).await;
    client.close().await;
}

#[tokio::test]
async fn q06_genomic_elements_overlapping_rs62513865() {
    let (upstream, client) = setup().await;
    route(
        &upstream,
        "variants",
        &[("rsid", "rs62513865")],
        fixture("variants__rsid=rs62513865.json"),
    )
    .await;
    mount_variant_context(&upstream).await;
    let v = client
        .call_ok("igvf_get_entity", json!({"id": "rs62513865"}))
        .await;
    assert_eq!(v["id"], "NC_000008.11:100579984:C:T");
    // One call: the record asks for the elements at the variant's base itself.
    let sent = requests(&upstream).await;
    let elements = sent.iter().find(|(p, _)| p == "/genomic-elements").unwrap();
    assert!(
        elements
            .1
            .contains(&("region".into(), "chr8:100579984-100579985".into())),
        "{elements:?}"
    );
    assert!(
        v["variant_context"].get("containing_elements").is_none(),
        "{v:#}"
    );
    client.close().await;
}

#[tokio::test]
async fn q07_variants_active_in_liver_eqtl_only() {
    let (upstream, client) = setup().await;
    route(
        &upstream,
        "variants/genes",
        &[("method", "eQTL"), ("biological_context", "liver")],
        fixture("variants_genes__method=eQTL_biological_context=liver.json"),
    )
    .await;
    let out = client
        .call_ok(
            "igvf_query_associations",
            json!({"kind": "eqtl", "tissue": "liver", "limit": 5}),
        )
        .await;
    // No starting entity: the method and the tissue are the query.
    assert!(out.get("entity").is_none());
    let a = out["associations"].as_array().unwrap();
    assert_eq!(a.len(), 2);
    // Ranked by p-value, smallest first.
    assert_eq!(a[0]["p_value"], 3.2e-11);
    assert_eq!(a[0]["source_entity"]["_type"], "variant");
    assert_eq!(a[0]["target_entity"]["id"], "ENSG00000054654");
    assert_eq!(a[1]["tissue"], "liver");
    assert_eq!(out["complete"], true);
    let sent = requests(&upstream).await;
    assert_eq!(sent.len(), 1);
    assert!(sent[0].1.contains(&("method".into(), "eQTL".into())));
    assert_requests_follow_the_spec(&upstream).await;
    client.close().await;
}

#[tokio::test]
async fn q08_genomic_elements_of_brca1_with_score_above_0_70() {
    let (upstream, client) = setup().await;
    route(
        &upstream,
        "genes",
        &[("name", "BRCA1")],
        fixture("genes__name=BRCA1.json"),
    )
    .await;
    route(
        &upstream,
        "genes/genomic-elements",
        &[("gene_id", BRCA1)],
        fixture("genes_genomic-elements__gene_id=ENSG00000012048.json"),
    )
    .await;
    let out = client
        .call_ok(
            "igvf_query_associations",
            json!({"kind": "element_gene", "entity_id": "BRCA1", "min_score": 0.70001}),
        )
        .await;
    let scores: Vec<f64> = out["associations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["score"].as_f64().unwrap())
        .collect();
    // Above 0.70 only (0.207 and exactly 0.70 are left out), best first.
    assert_eq!(scores, [0.91, 0.74]);
    assert_eq!(out["sorted_by"], "score");
    assert_eq!(out["order"], "desc");
    assert_eq!(out["matched"], 2);
    assert_eq!(out["scanned"], 4);
    assert_eq!(out["complete"], true);
    assert_requests_follow_the_spec(&upstream).await;
    client.close().await;
}

#[tokio::test]
async fn q09_top_5_eqtls_in_orphanet_101435_by_p_value() {
    let (upstream, client) = setup().await;
    route(
        &upstream,
        "ontology-terms/Orphanet_101435/children",
        &[],
        empty(),
    )
    .await;
    route(
        &upstream,
        "diseases/genes",
        &[("disease_id", "Orphanet_101435")],
        fixture("diseases_genes__disease_id=Orphanet_101435.json"),
    )
    .await;
    // Each gene's eQTLs: the recorded EBI row's shape, p-values varied.
    let row = |gene: &str, pos: u32, p: f64| {
        json!({"gene": format!("genes/{gene}"),
               "sequence_variant": format!("variants/NC_000017.11:{pos}:A:G"),
               "p_value": p, "method": "eQTL", "label": "eQTL", "source": "EBI",
               "biological_context": "retina", "name": "modulates expression of"})
    };
    for (gene, rows) in [
        (
            TP53,
            vec![row(TP53, 1, 1e-3), row(TP53, 2, 1e-12), row(TP53, 3, 1e-5)],
        ),
        (
            BRCA1,
            vec![
                row(BRCA1, 4, 1e-9),
                row(BRCA1, 5, 1e-2),
                row(BRCA1, 6, 1e-15),
                row(BRCA1, 7, 1e-7),
            ],
        ),
    ] {
        Mock::given(method("GET"))
            .and(path("/genes/variants"))
            .and(query_param("gene_id", gene))
            .and(query_param("method", "eQTL"))
            .respond_with(Catalog::new(rows))
            .mount(&upstream)
            .await;
    }
    let out = client
        .call_ok(
            "igvf_query_associations",
            json!({"kind": "eqtl", "entity_id": "Orphanet_101435", "sort_by": "p_value",
                   "order": "asc", "limit": 5}),
        )
        .await;
    let p: Vec<f64> = out["associations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["p_value"].as_f64().unwrap())
        .collect();
    // Across both genes of the term, smallest first.
    assert_eq!(p, [1e-15, 1e-12, 1e-9, 1e-7, 1e-5]);
    assert_eq!(out["matched"], 7);
    assert_eq!(out["complete"], true);
    assert!(
        out["notes"]
            .as_array()
            .unwrap()
            .iter()
            .any(|n| n.as_str().unwrap().contains("term's genes: 2")),
        "{out:#}"
    );
    assert_requests_follow_the_spec(&upstream).await;
    client.close().await;
}

#[tokio::test]
async fn q10_genomic_elements_containing_rs6994300() {
    let (upstream, client) = setup().await;
    route(
        &upstream,
        "variants",
        &[("rsid", "rs6994300")],
        fixture("variants__rsid=rs6994300.json"),
    )
    .await;
    route(
        &upstream,
        "genomic-elements",
        &[("region", "chr8:101557588-101557589")],
        fixture("genomic-elements__region=chr8_101557588-101557589.json"),
    )
    .await;
    mount_variant_context(&upstream).await;
    let v = client
        .call_ok("igvf_get_entity", json!({"id": "rs6994300"}))
        .await;
    assert_eq!(
        v["variant_context"]["containing_elements"][0]["id"],
        "EH38E3848787"
    );
    // The element as the catalog stores it, [101557365, 101557713), shown 1-based.
    assert_eq!(
        v["variant_context"]["containing_elements"][0]["location"],
        "chr8:101557366-101557713"
    );
    client.close().await;
}

#[tokio::test]
async fn q11_top_5_genes_coexpressed_with_ensg00000012048_by_z_score_ascending() {
    let (upstream, client) = setup().await;
    Mock::given(method("GET"))
        .and(path("/genes/genes"))
        .and(query_param("gene_id", BRCA1))
        .and(query_param("source", "COXPRESdb"))
        .respond_with(Catalog::fixture(
            "genes_genes__gene_id=ENSG00000012048.json",
        ))
        .mount(&upstream)
        .await;
    let out = client
        .call_ok(
            "igvf_query_associations",
            json!({"kind": "coexpression", "entity_id": BRCA1, "sort_by": "z_score",
                   "order": "asc", "limit": 5}),
        )
        .await;
    assert_eq!(
        ids(&out["associations"], "target_entity"),
        [
            "ENSG00000114125",
            "ENSG00000122203",
            "ENSG00000168890",
            "ENSG00000000012",
            "ENSG00000000011"
        ]
    );
    assert_eq!(out["associations"][0]["z_score"], -3.76);
    assert_eq!(out["complete"], true);
    // Paged at the endpoint's cap (100), not capped at one page of 25.
    let sent = requests(&upstream).await;
    assert_eq!(sent.len(), 1);
    assert!(
        sent[0].1.contains(&("limit".into(), "100".into())),
        "{sent:?}"
    );
    client.close().await;
}

#[tokio::test]
async fn q11_one_z_score_bound_goes_upstream_and_both_are_checked_here() {
    let (upstream, client) = setup().await;
    Mock::given(method("GET"))
        .and(path("/genes/genes"))
        .and(query_param("z_score", "lte:0"))
        .respond_with(Catalog::fixture(
            "genes_genes__gene_id=ENSG00000012048.json",
        ))
        .mount(&upstream)
        .await;
    let out = client
        .call_ok(
            "igvf_query_associations",
            json!({"kind": "coexpression", "entity_id": BRCA1, "max_z_score": 0,
                   "scan": 10, "limit": 2}),
        )
        .await;
    // The mock ignores the bound, so the check here is what keeps the rows ≤ 0.
    assert_eq!(out["matched"], 3);
    assert_eq!(out["complete"], true);
    // With both bounds, the lower one goes upstream (one operator per parameter) and
    // the upper one is applied here.
    Mock::given(method("GET"))
        .and(path("/genes/genes"))
        .and(query_param("z_score", "gte:-3.5"))
        .respond_with(Catalog::fixture(
            "genes_genes__gene_id=ENSG00000012048.json",
        ))
        .mount(&upstream)
        .await;
    let out = client
        .call_ok(
            "igvf_query_associations",
            json!({"kind": "coexpression", "entity_id": BRCA1, "min_z_score": -3.5,
                   "max_z_score": 0}),
        )
        .await;
    assert_eq!(
        ids(&out["associations"], "target_entity"),
        ["ENSG00000168890", "ENSG00000122203"]
    );
    client.close().await;
}

#[tokio::test]
async fn q12_genes_linked_to_nc_000020_11_3658947_a_g() {
    let (upstream, client) = setup().await;
    route(
        &upstream,
        "variants",
        &[("spdi", "NC_000020.11:3658947:A:G")],
        fixture("variants__spdi=NC_000020.11_3658947_A_G.json"),
    )
    .await;
    mount_variant_context(&upstream).await;
    let v = client
        .call_ok("igvf_get_entity", json!({"id": "NC_000020.11:3658947:A:G"}))
        .await;
    // One call: the nearest genes come with the record.
    assert_eq!(v["variant_context"]["nearest_gene"]["name"], "GFRA4");
    assert!(
        v["variant_context"].get("nearest_coding_gene").is_some(),
        "{v:#}"
    );
    client.close().await;
}

#[tokio::test]
async fn q13_is_rs6994300_an_eqtl() {
    let (upstream, client) = setup().await;
    route(
        &upstream,
        "variants/genes",
        &[("rsid", "rs6994300"), ("method", "eQTL")],
        empty(),
    )
    .await;
    // Nothing at all: the variant is looked up, so "no" is not "no such variant".
    route(
        &upstream,
        "variants",
        &[("rsid", "rs6994300")],
        fixture("variants__rsid=rs6994300.json"),
    )
    .await;
    let out = client
        .call_ok(
            "igvf_query_associations",
            json!({"kind": "eqtl", "entity_id": "rs6994300"}),
        )
        .await;
    // No: nothing matched, and every row was seen.
    assert_eq!(out["associations"], json!([]));
    assert_eq!(out["matched"], 0);
    assert_eq!(out["complete"], true);
    assert_eq!(requests(&upstream).await.len(), 2);
    client.close().await;
}

/// Two calls when both sides are wanted: the gene's clinical variants (here) and its
/// eQTLs (`kind: eqtl`).
#[tokio::test]
async fn q14_five_variants_associated_with_brca1_clinical_side() {
    let (upstream, client) = setup().await;
    route(
        &upstream,
        "genes",
        &[("name", "BRCA1")],
        fixture("genes__name=BRCA1.json"),
    )
    .await;
    // The gene spans chr17:43044294-43125364; with 10 kb either side, eleven 10 kb
    // windows. The first answers every row; the others have none.
    route(
        &upstream,
        "variants/diseases",
        &[("region", "chr17:43034294-43044294")],
        fixture("variants_diseases__region=BRCA1_span.json"),
    )
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
    let variants = ids(&out["associations"], "target_entity");
    assert_eq!(variants.len(), 5);
    assert_eq!(variants[0], "NC_000017.11:43041892:A:T");
    // The row of the neighbouring gene (NBR2) is not BRCA1's.
    assert!(!variants.contains(&"NC_000017.11:43060000:C:T".to_owned()));
    assert_eq!(out["associations"][0]["evidence"], "Benign");
    let sent = requests(&upstream).await;
    let windows: Vec<&String> = sent
        .iter()
        .filter(|(p, _)| p == "/variants/diseases")
        .flat_map(|(_, q)| q.iter().filter(|(k, _)| k == "region").map(|(_, v)| v))
        .collect();
    assert_eq!(windows.len(), 11, "{windows:?}");
    // The gene looked up once, for its ID and its coordinates together.
    assert_eq!(sent.iter().filter(|(p, _)| p == "/genes").count(), 1);
    for w in &windows {
        let (a, b) = w.trim_start_matches("chr17:").split_once('-').unwrap();
        let span: u64 = b.parse::<u64>().unwrap() - a.parse::<u64>().unwrap();
        assert!(span <= 10_000, "{w}");
    }
    assert_requests_follow_the_spec(&upstream).await;
    client.close().await;
}
