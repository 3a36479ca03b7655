//! Proteins and transcripts: GO terms, interaction partners, UniProt accessions and
//! protein symbols, and the gene-transcript-protein links.

use serde_json::json;
use wiremock::ResponseTemplate;

use crate::{assert_requests_follow_the_spec, empty, fixture, no_rows, requests, route, setup};

use super::{TP53, tp53, tp53_proteins};

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
