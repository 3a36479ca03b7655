//! Filters: sent upstream where the catalog accepts them, applied here otherwise; GWAS
//! p-values sent as -log10.

use serde_json::json;
use wiremock::Mock;
use wiremock::matchers::{method, path};

use crate::{Catalog, empty, fixture, no_rows, requests, route, setup};

use super::{TP53, tp53};

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
