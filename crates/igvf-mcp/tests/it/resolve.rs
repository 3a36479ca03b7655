//! `igvf_resolve_id`: rs80357906 to its SPDI and the alias sets of genes and proteins,
//! from one lookup each.

use lifesciences_core::ErrorCode;
use serde_json::json;

use crate::{fixture, requests, route, setup};

#[tokio::test]
async fn rs80357906_resolves_to_its_spdi() {
    let (upstream, client) = setup().await;
    route(
        &upstream,
        "variants",
        &[("rsid", "rs80357906")],
        fixture("variants__rsid=rs80357906.json"),
    )
    .await;
    let out = client
        .call_ok(
            "igvf_resolve_id",
            json!({"id": "rs80357906", "target_type": "SPDI"}),
        )
        .await;
    assert_eq!(out["entity_type"], "variant");
    assert_eq!(out["resolved"], "NC_000017.11:43057062:GGG:GGGG");
    // Every alias the catalog has; the absent ClinGen ID is omitted, not null.
    assert_eq!(
        out["identifiers"],
        json!({
            "rsid": "rs80357906",
            "spdi": "NC_000017.11:43057062:GGG:GGGG",
            "hgvs": "NC_000017.11:g.43057065dup"
        })
    );
    let out = client
        .call_ok(
            "igvf_resolve_id",
            json!({"id": "rs80357906", "target_type": "ca_id"}),
        )
        .await;
    assert!(out.get("resolved").is_none());
    assert!(
        out["notes"][0].as_str().unwrap().contains("no ca_id"),
        "{out:#}"
    );
    // One upstream request for both calls (the second is cached).
    assert_eq!(requests(&upstream).await.len(), 1);
    client.close().await;
}

#[tokio::test]
async fn a_gene_resolves_to_ensembl_hgnc_symbol_and_entrez() {
    let (upstream, client) = setup().await;
    route(
        &upstream,
        "genes",
        &[("hgnc_id", "HGNC:1100")],
        fixture("genes__name=BRCA1.json"),
    )
    .await;
    let out = client
        .call_ok("igvf_resolve_id", json!({"id": "HGNC:1100"}))
        .await;
    assert_eq!(
        out["identifiers"],
        json!({"ensembl_gene": "ENSG00000012048", "hgnc": "HGNC:1100", "symbol": "BRCA1", "entrez": "672"})
    );
    assert_eq!(
        out["aliases"],
        json!(["RNF53", "BRCC1", "PPP1R53", "FANCS"])
    );
    client.close().await;
}

#[tokio::test]
async fn a_protein_resolves_to_ensembl_and_uniprot() {
    let (upstream, client) = setup().await;
    route(
        &upstream,
        "proteins",
        &[("uniprot_name", "CTCF_HUMAN")],
        fixture("proteins__protein_id=ENSP00000384707.json"),
    )
    .await;
    let out = client
        .call_ok(
            "igvf_resolve_id",
            json!({"id": "CTCF_HUMAN", "target_type": "ensembl"}),
        )
        .await;
    assert_eq!(out["resolved"], "ENSP00000384707");
    // Several accessions are a JSON list, not a comma-joined string.
    assert_eq!(out["identifiers"]["uniprot"], json!(["P49711-2", "P49711"]));
    assert_eq!(out["identifiers"]["symbol"], "CTCF");
    client.close().await;
}

#[tokio::test]
async fn a_format_of_another_kind_is_refused_before_the_lookup() {
    let (upstream, client) = setup().await;
    let e = client
        .call_err(
            "igvf_resolve_id",
            json!({"id": "rs80357906", "target_type": "hgnc"}),
        )
        .await;
    assert_eq!(e.code, ErrorCode::InvalidInput);
    assert!(
        e.recovery_hint.contains("'rsid', 'spdi', 'hgvs', 'ca_id'"),
        "{}",
        e.recovery_hint
    );
    assert!(requests(&upstream).await.is_empty());
    client.close().await;
}

#[tokio::test]
async fn additional_rsids_are_a_list() {
    let (upstream, client) = setup().await;
    let mut records = crate::fixtures().json("variants__rsid=rs80357906.json");
    records[0]["rsid"] = json!(["rs80357906", "rs397507247", "rs386833395"]);
    route(
        &upstream,
        "variants",
        &[("rsid", "rs80357906")],
        wiremock::ResponseTemplate::new(200).set_body_json(records),
    )
    .await;
    let out = client
        .call_ok("igvf_resolve_id", json!({"id": "rs80357906"}))
        .await;
    assert_eq!(out["identifiers"]["rsid"], "rs80357906");
    assert_eq!(
        out["identifiers"]["additional_rsids"],
        json!(["rs397507247", "rs386833395"])
    );
    client.close().await;
}
