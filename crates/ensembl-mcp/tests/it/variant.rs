//! `ensembl_get_variant` as an agent sees it: a known variant by rsID in one request,
//! with its place, alleles, frequency and significance; traits on request; an unknown
//! rsID is not found, a name that is not a variant is refused before any request.

use lifesciences_core::ErrorCode;
use serde_json::json;
use wiremock::matchers::{method, path, query_param};
use wiremock::{Mock, ResponseTemplate};

use crate::support::{Upstream, fixture};

async fn mount(upstream: &Upstream) {
    Mock::given(method("GET"))
        .and(path("/ensembl/variation/homo_sapiens/rs699"))
        .respond_with(fixture("variation__rs699.json"))
        .mount(&upstream.mock)
        .await;
    Mock::given(method("GET"))
        .and(path("/ensembl/variation/homo_sapiens/rs999999999999"))
        .respond_with(
            ResponseTemplate::new(400)
                .set_body_json(json!({"error": "rs999999999999 not found for homo_sapiens"})),
        )
        .mount(&upstream.mock)
        .await;
}

#[tokio::test]
async fn where_rs699_is_how_common_and_what_it_is_associated_with() {
    let upstream = Upstream::empty().await;
    mount(&upstream).await;
    let client = upstream.client().await;

    let v = client
        .call_ok(
            "ensembl_get_variant",
            json!({"id": "rs699", "species": "Homo sapiens", "phenotypes": true}),
        )
        .await;

    assert_eq!(v["id"], "rs699");
    assert_eq!(v["species"], "homo_sapiens");
    assert_eq!(
        v["locations"][0],
        json!({"location": "1:230710048-230710048", "assembly": "GRCh38", "strand": 1,
               "allele_string": "A/G", "ancestral_allele": "G"})
    );
    assert_eq!(v["minor_allele"], "A");
    assert_eq!(v["minor_allele_freq"], 0.294);
    assert_eq!(v["most_severe_consequence"], "missense_variant");
    assert_eq!(v["clinical_significance"], json!(["benign", "risk factor"]));
    assert_eq!(v["synonym_count"], 3);
    assert_eq!(v["phenotype_count"], 2);
    assert_eq!(v["phenotypes"][1]["trait"], "Blood pressure");
    assert_eq!(v["phenotypes"][1]["p_value"], 2e-12);

    let sent = upstream.requests().await;
    assert_eq!(sent.len(), 1);
    assert_eq!(sent[0].url.query(), Some("phenotypes=1"));
    client.close().await;
}

#[tokio::test]
async fn without_phenotypes_none_are_asked_for() {
    let upstream = Upstream::empty().await;
    Mock::given(method("GET"))
        .and(path("/ensembl/variation/homo_sapiens/rs699"))
        .and(query_param("phenotypes", "1"))
        .respond_with(ResponseTemplate::new(500))
        .mount(&upstream.mock)
        .await;
    mount(&upstream).await;
    let client = upstream.client().await;

    let v = client
        .call_ok("ensembl_get_variant", json!({"id": "rs699"}))
        .await;

    assert!(v.get("phenotype_count").is_none());
    assert_eq!(upstream.requests().await[0].url.query(), None);
    client.close().await;
}

#[tokio::test]
async fn an_unknown_rsid_is_not_found_and_hgvs_is_pointed_to_vep() {
    let upstream = Upstream::empty().await;
    mount(&upstream).await;
    let client = upstream.client().await;

    let err = client
        .call_err("ensembl_get_variant", json!({"id": "rs999999999999"}))
        .await;
    assert_eq!(err.code, ErrorCode::EntityNotFound);

    let err = client
        .call_err("ensembl_get_variant", json!({"id": "NM_005912.3:c.253A>G"}))
        .await;
    assert_eq!(err.code, ErrorCode::InvalidInput);
    assert!(err.recovery_hint.contains("ensembl_predict_variant_effect"));
    assert_eq!(upstream.requests().await.len(), 1);
    client.close().await;
}
