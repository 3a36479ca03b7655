//! `ensembl_get_gene` and `ensembl_get_transcript` through a real MCP client.

use lifesciences_core::ErrorCode;
use serde_json::json;
use wiremock::matchers::{method, path};
use wiremock::{Mock, ResponseTemplate};

use crate::support::{Upstream, fixtures};

/// Every field of the gene result, with cross-references to HGNC, NCBI Gene,
/// UniProt (the Swiss-Prot entry, from the translation level), RefSeq and OMIM.
#[tokio::test]
async fn tp53_has_every_field_and_its_cross_references() {
    let upstream = Upstream::start().await;
    let client = upstream.client().await;
    let gene = client
        .call_ok("ensembl_get_gene", json!({"ensembl_id": "ENSG00000141510"}))
        .await;
    assert_eq!(
        gene,
        json!({
            "id": "ENSG00000141510",
            "symbol": "TP53",
            "name": "tumor protein p53",
            "biotype": "protein_coding",
            "species": "homo_sapiens",
            "assembly_name": "GRCh38",
            "chromosome": "17",
            "start": 7661779,
            "end": 7687538,
            "strand": -1,
            "canonical_transcript": "ENST00000269305",
            "version": 17,
            "cross_references": {
                "hgnc": "HGNC:11998",
                "uniprot": ["P04637"],
                "entrez": "7157",
                "refseq": ["NM_000546.6", "NP_000537.3"],
                "omim": "191170"
            }
        })
    );
    // Two requests: the gene and its xrefs with all_levels=1.
    let lookups = upstream
        .requests_to("/ensembl/lookup/id/ENSG00000141510")
        .await;
    assert_eq!(lookups.len(), 1);
    let xrefs = upstream
        .requests_to("/ensembl/xrefs/id/ENSG00000141510")
        .await;
    assert_eq!(xrefs.len(), 1);
    assert_eq!(xrefs[0].url.query(), Some("all_levels=1"));
    assert_eq!(upstream.requests().await.len(), 2);
    client.close().await;
}

/// A versioned and a lower-case ID give the canonical ID, whatever Ensembl echoes in
/// `id` (it is reported to echo the caller's spelling).
#[tokio::test]
async fn versioned_and_lower_case_ids_come_back_canonical() {
    let upstream = Upstream::start().await;
    let mut echoed = fixtures().json("lookup_id__ENSG00000141510.json");
    echoed["id"] = json!("ensg00000141510.17");
    Mock::given(method("GET"))
        .and(path("/ensembl/lookup/id/ENSG00000141510"))
        .respond_with(ResponseTemplate::new(200).set_body_json(echoed))
        .with_priority(1)
        .mount(&upstream.mock)
        .await;
    let client = upstream.client().await;
    for raw in [
        "ENSG00000141510.17",
        "ensg00000141510",
        " ensg00000141510.2 ",
    ] {
        let gene = client
            .call_ok("ensembl_get_gene", json!({"ensembl_id": raw}))
            .await;
        assert_eq!(gene["id"], "ENSG00000141510", "{raw}");
        assert_eq!(gene["symbol"], "TP53");
    }
    // Every spelling asked Ensembl for the canonical ID (and the cache served repeats).
    assert!(
        upstream
            .requests()
            .await
            .iter()
            .all(|r| r.url.path().ends_with("/ENSG00000141510"))
    );
    client.close().await;
}

/// A mouse gene.
#[tokio::test]
async fn a_mouse_gene_works() {
    let upstream = Upstream::start().await;
    let client = upstream.client().await;
    let gene = client
        .call_ok(
            "ensembl_get_gene",
            json!({"ensembl_id": "ENSMUSG00000059552"}),
        )
        .await;
    assert_eq!(gene["id"], "ENSMUSG00000059552");
    assert_eq!(gene["symbol"], "Trp53");
    assert_eq!(gene["species"], "mus_musculus");
    assert_eq!(gene["assembly_name"], "GRCm39");
    assert_eq!(gene["strand"], 1);
    assert_eq!(gene["canonical_transcript"], "ENSMUST00000108658");
    assert_eq!(
        gene["cross_references"],
        json!({"uniprot": ["P02340"], "entrez": "22059", "refseq": ["NM_011640.3"]})
    );
    client.close().await;
}

/// The recorded KRAS gene and its recorded (gene-level) xrefs: UniProt falls back to the
/// gene-name accessions, MIM disease entries do not pose as the gene's OMIM number.
#[tokio::test]
async fn recorded_kras_gene_and_xrefs() {
    let upstream = Upstream::start().await;
    let client = upstream.client().await;
    let gene = client
        .call_ok("ensembl_get_gene", json!({"ensembl_id": "ENSG00000133703"}))
        .await;
    assert_eq!(gene["symbol"], "KRAS");
    assert_eq!(gene["name"], "KRAS proto-oncogene, GTPase");
    assert_eq!(gene["canonical_transcript"], "ENST00000311936");
    assert_eq!(
        gene["cross_references"],
        json!({"hgnc": "HGNC:6407",
               "uniprot": ["P01116", "L7RSL8", "A0A024RAV5", "G3V4K2", "G3V5T7"],
               "entrez": "3845", "omim": "190070"})
    );
    client.close().await;
}

/// A symbol is not an ID; the hint names the search tool. No request.
#[tokio::test]
async fn a_symbol_is_unresolved_and_points_to_the_search() {
    let upstream = Upstream::start().await;
    let client = upstream.client().await;
    let e = client
        .call_err("ensembl_get_gene", json!({"ensembl_id": "BRCA1"}))
        .await;
    assert_eq!(e.code, ErrorCode::UnresolvedEntity);
    assert!(
        e.recovery_hint.contains("ensembl_search_genes"),
        "{}",
        e.recovery_hint
    );
    assert_eq!(e.invalid_input.as_deref(), Some("BRCA1"));
    let e = client
        .call_err(
            "ensembl_get_transcript",
            json!({"transcript_id": "TP53-201"}),
        )
        .await;
    assert_eq!(e.code, ErrorCode::UnresolvedEntity);
    assert!(
        e.recovery_hint.contains("ensembl_search_genes"),
        "{}",
        e.recovery_hint
    );
    assert!(upstream.requests().await.is_empty());
    client.close().await;
}

/// A well-formed ID Ensembl does not know (HTTP 400 "ID '…' not found") is
/// ENTITY_NOT_FOUND, not an upstream failure.
#[tokio::test]
async fn an_unknown_id_is_entity_not_found() {
    let upstream = Upstream::start().await;
    let client = upstream.client().await;
    let e = client
        .call_err("ensembl_get_gene", json!({"ensembl_id": "ENSG99999999999"}))
        .await;
    assert_eq!(e.code, ErrorCode::EntityNotFound);
    assert!(e.message.contains("ENSG99999999999"), "{}", e.message);
    assert_eq!(e.invalid_input.as_deref(), Some("ENSG99999999999"));
    let e = client
        .call_err(
            "ensembl_get_transcript",
            json!({"transcript_id": "enst99999999999.1"}),
        )
        .await;
    assert_eq!(e.code, ErrorCode::EntityNotFound);
    assert_eq!(e.invalid_input.as_deref(), Some("enst99999999999.1"));
    // A 400 is never retried.
    assert_eq!(
        upstream.count("/ensembl/lookup/id/ENSG99999999999").await,
        1
    );
    client.close().await;
}

/// A transcript with its parent gene, canonical flag and cross-references.
#[tokio::test]
async fn a_transcript_with_parent_gene_and_canonical_flag() {
    let upstream = Upstream::start().await;
    let client = upstream.client().await;
    let t = client
        .call_ok(
            "ensembl_get_transcript",
            json!({"transcript_id": "ENST00000311936.8"}),
        )
        .await;
    assert_eq!(
        t,
        json!({
            "id": "ENST00000311936",
            "symbol": "KRAS-202",
            "biotype": "protein_coding",
            "parent_gene": "ENSG00000133703",
            "species": "homo_sapiens",
            "assembly_name": "GRCh38",
            "chromosome": "12",
            "start": 25205246,
            "end": 25250929,
            "strand": -1,
            "version": 8,
            "is_canonical": true,
            "cross_references": {
                "ensembl_gene": "ENSG00000133703",
                "uniprot": ["P01116"],
                "refseq": ["NM_004985.5", "NP_004976.2"]
            }
        })
    );
    let t = client
        .call_ok(
            "ensembl_get_transcript",
            json!({"transcript_id": "ENST00000496384"}),
        )
        .await;
    assert_eq!(t["is_canonical"], false);
    assert_eq!(t["parent_gene"], "ENSG00000157764");
    assert_eq!(
        t["cross_references"],
        json!({"ensembl_gene": "ENSG00000157764"})
    );
    client.close().await;
}

/// A gene ID given to the transcript tool names the gene tool, and the
/// reverse; neither sends a request.
#[tokio::test]
async fn gene_and_transcript_ids_point_to_each_others_tool() {
    let upstream = Upstream::start().await;
    let client = upstream.client().await;
    let e = client
        .call_err(
            "ensembl_get_transcript",
            json!({"transcript_id": "ENSG00000141510"}),
        )
        .await;
    assert_eq!(e.code, ErrorCode::UnresolvedEntity);
    assert!(
        e.recovery_hint.contains("ensembl_get_gene"),
        "{}",
        e.recovery_hint
    );
    assert!(e.recovery_hint.contains("ENSG00000141510"));
    let e = client
        .call_err("ensembl_get_gene", json!({"ensembl_id": "ENST00000269305"}))
        .await;
    assert_eq!(e.code, ErrorCode::UnresolvedEntity);
    assert!(
        e.recovery_hint.contains("ensembl_get_transcript"),
        "{}",
        e.recovery_hint
    );
    let e = client
        .call_err("ensembl_get_gene", json!({"ensembl_id": "ENSG0000014151"}))
        .await;
    assert_eq!(e.code, ErrorCode::UnresolvedEntity);
    assert!(e.recovery_hint.contains("11 digits"), "{}", e.recovery_hint);
    assert!(upstream.requests().await.is_empty());
    client.close().await;
}

#[tokio::test]
async fn missing_or_misspelt_arguments_are_invalid_input() {
    let upstream = Upstream::start().await;
    let client = upstream.client().await;
    let e = client.call_err("ensembl_get_gene", json!({})).await;
    assert_eq!(e.code, ErrorCode::InvalidInput);
    assert!(e.message.contains("'ensembl_id'"), "{}", e.message);
    let e = client
        .call_err("ensembl_get_gene", json!({"gene_id": "ENSG00000141510"}))
        .await;
    assert_eq!(e.code, ErrorCode::InvalidInput);
    assert!(e.message.contains("'ensembl_id'"), "{}", e.message);
    client.close().await;
}

#[tokio::test]
async fn a_list_of_genes_comes_from_one_batch_look_up_plus_their_cross_references() {
    let upstream = Upstream::start().await;
    let client = upstream.client().await;

    let batch = client
        .call_ok(
            "ensembl_get_gene",
            json!({"ensembl_ids": ["ENSG00000141510", "ensg00000133703.14", "ENSG00000000001"]}),
        )
        .await;

    let genes = batch["genes"].as_array().unwrap();
    assert_eq!(genes.len(), 2);
    assert_eq!(genes[0]["id"], "ENSG00000141510");
    assert_eq!(genes[0]["symbol"], "TP53");
    assert_eq!(genes[1]["id"], "ENSG00000133703");
    assert_eq!(genes[1]["cross_references"]["hgnc"], "HGNC:6407");
    assert_eq!(batch["not_found"], json!(["ENSG00000000001"]));
    // One POST for the three, and the cross-references of the two found.
    assert_eq!(upstream.count("/ensembl/lookup/id").await, 1);
    assert_eq!(upstream.requests().await.len(), 3);
    client.close().await;
}

#[tokio::test]
async fn a_gene_whose_cross_references_fail_stays_in_the_batch_without_them() {
    let upstream = Upstream::start().await;
    wiremock::Mock::given(wiremock::matchers::method("GET"))
        .and(wiremock::matchers::path(
            "/ensembl/xrefs/id/ENSG00000133703",
        ))
        .respond_with(wiremock::ResponseTemplate::new(503))
        .with_priority(1)
        .mount(&upstream.mock)
        .await;
    let client = upstream.client().await;

    let batch = client
        .call_ok(
            "ensembl_get_gene",
            json!({"ensembl_ids": ["ENSG00000141510", "ENSG00000133703"]}),
        )
        .await;

    let genes = batch["genes"].as_array().unwrap();
    assert_eq!(genes.len(), 2);
    assert_eq!(genes[1]["symbol"], "KRAS");
    assert_eq!(genes[1]["cross_references"], json!({}));
    assert!(
        batch["note"]
            .as_str()
            .unwrap()
            .contains("1 genes could not be read")
    );
    client.close().await;
}
