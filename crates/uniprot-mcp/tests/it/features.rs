//! `uniprot_get_features` as an agent sees it: what lies at a residue (a disease variant
//! named in full, its evidence), pages by offset over one answer, positions checked
//! against the sequence, and the one request sent for the types asked.

use lifesciences_core::ErrorCode;
use serde_json::json;

use crate::support::{fixture, get, pairs, query_of, requests, requests_to, see_other, setup};

/// Residue 95 of DNASE2 (recorded O00115): the variant Y95C of the disease AIPCS, named in
/// full from the entry's DISEASE comment, with its dbSNP ID and evidence; asked with the
/// variant field and the disease comments only.
#[tokio::test]
async fn residue_95_of_dnase2_is_a_disease_variant_named_in_full() {
    let (upstream, client) = setup().await;
    get("/uniprotkb/O00115")
        .respond_with(fixture("uniprotkb__O00115.json"))
        .expect(1)
        .mount(&upstream)
        .await;

    let page = client
        .call_ok(
            "uniprot_get_features",
            json!({"id": "O00115", "types": ["variants"], "position": 95}),
        )
        .await;

    let sent = requests_to(&upstream, "/uniprotkb/O00115").await;
    assert_eq!(
        query_of(&sent[0]),
        pairs(&[(
            "fields",
            "accession,id,reviewed,gene_primary,organism_id,length,cc_disease,ft_variant"
        )])
    );
    assert_eq!(page["accession"], "O00115");
    assert_eq!(page["gene"], "DNASE2");
    assert_eq!(page["length"], 360);
    assert_eq!(page["counts"], json!({"natural_variant": 1}));
    let [variant] = page["features"].as_array().unwrap().as_slice() else {
        panic!("one feature at 95: {page:#}")
    };
    assert_eq!(variant["type"], "natural_variant");
    assert_eq!(
        (&variant["start"], &variant["end"]),
        (&json!(95), &json!(95))
    );
    assert_eq!(variant["id"], "VAR_087103");
    assert_eq!(variant["change"], "Y>C");
    assert_eq!(
        variant["diseases"],
        json!(["Autoinflammatory-pancytopenia syndrome (AIPCS)"])
    );
    assert!(
        variant["dbsnp"].as_str().unwrap().starts_with("rs"),
        "{variant:#}"
    );
    let evidence = variant["evidence"].to_string();
    assert!(evidence.contains("31775019"), "PubMed ID: {evidence}");
    assert!(
        page["evidence_codes"]
            .as_object()
            .unwrap()
            .keys()
            .all(|k| k.starts_with("ECO:")),
        "{page:#}"
    );
    assert_eq!(
        page["pagination"],
        json!({"cursor": null, "total_count": 1, "page_size": 100})
    );
    client.close().await;
}

/// Pages come from the one answer: the cursor's next page asks UniProt nothing new, and
/// the counts cover every page.
#[tokio::test]
async fn features_page_by_offset_over_one_answer() {
    let (upstream, client) = setup().await;
    get("/uniprotkb/P30542")
        .respond_with(fixture("uniprotkb__P30542.json"))
        .expect(1)
        .mount(&upstream)
        .await;
    let args = json!({"id": "P30542", "types": "topology", "limit": 10});

    let first = client.call_ok("uniprot_get_features", args.clone()).await;
    assert_eq!(
        first["counts"],
        json!({"topological_domain": 8, "transmembrane": 7})
    );
    assert_eq!(first["features"].as_array().unwrap().len(), 10);
    assert_eq!(first["pagination"]["total_count"], 15);
    let cursor = first["pagination"]["cursor"].as_str().unwrap();

    let mut next = args.clone();
    next["cursor"] = json!(cursor);
    let second = client.call_ok("uniprot_get_features", next).await;
    let rest = second["features"].as_array().unwrap();
    assert_eq!(rest.len(), 5);
    assert_eq!(second["counts"], first["counts"]);
    assert_eq!(second["pagination"]["cursor"], json!(null));
    assert!(rest[0]["start"].as_u64() > first["features"][9]["start"].as_u64());
    assert_eq!(rest[4]["end"], 326);
    assert_eq!(
        requests(&upstream).await.len(),
        1,
        "the next page is the same answer"
    );

    // A cursor belongs to its request.
    let mut other = json!({"id": "P30542", "types": "variants"});
    other["cursor"] = json!(cursor);
    let e = client.call_err("uniprot_get_features", other).await;
    assert_eq!(e.code, ErrorCode::InvalidInput);
    client.close().await;
}

/// A merged accession's features are its successor's, and the page says so.
#[tokio::test]
async fn a_merged_accession_gives_its_successor_s_features_and_says_so() {
    let (upstream, client) = setup().await;
    get("/uniprotkb/O43910")
        .respond_with(see_other(
            "/uniprotkb/O00115?from=O43910",
            Some("uniprotkb__O43910__inactive_MERGED.json"),
        ))
        .expect(1)
        .mount(&upstream)
        .await;
    get("/uniprotkb/O00115")
        .respond_with(fixture("uniprotkb__O00115.json"))
        .expect(1)
        .mount(&upstream)
        .await;

    let page = client
        .call_ok(
            "uniprot_get_features",
            json!({"id": "O43910", "types": ["natural_variant"], "position": 95}),
        )
        .await;

    assert_eq!(page["accession"], "O00115");
    assert_eq!(page["requested"], "O43910");
    assert_eq!(
        page["note"],
        "O43910 was merged into O00115: UniProt answers it with this entry."
    );
    assert_eq!(page["features"][0]["change"], "Y>C");
    let followed = requests_to(&upstream, "/uniprotkb/O00115").await;
    assert_eq!(
        query_of(&followed[0]),
        pairs(&[
            ("from", "O43910"),
            (
                "fields",
                "accession,id,reviewed,gene_primary,organism_id,length,cc_disease,ft_variant"
            )
        ])
    );
    client.close().await;
}

/// A demerged accession has no features of its own: the error names its successors.
#[tokio::test]
async fn a_demerged_accession_has_no_features_and_names_its_successors() {
    let (upstream, client) = setup().await;
    get("/uniprotkb/P00001")
        .respond_with(fixture("uniprotkb__P00001__inactive_DEMERGED.json"))
        .expect(1)
        .mount(&upstream)
        .await;

    let e = client
        .call_err("uniprot_get_features", json!({"id": "P00001"}))
        .await;

    assert_eq!(e.code, ErrorCode::EntityNotFound);
    assert_eq!(e.suggestions, ["P99999", "P99998"]);
    client.close().await;
}

/// A residue past the sequence names the length; types and ranges UniProt has no words
/// for are refused before any request.
#[tokio::test]
async fn positions_are_checked_against_the_sequence_and_types_before_asking() {
    let (upstream, client) = setup().await;
    get("/uniprotkb/O00115")
        .respond_with(fixture("uniprotkb__O00115.json"))
        .expect(1)
        .mount(&upstream)
        .await;

    let e = client
        .call_err(
            "uniprot_get_features",
            json!({"id": "O00115", "position": 400}),
        )
        .await;
    assert_eq!(e.code, ErrorCode::InvalidInput);
    assert_eq!(
        e.message,
        "Residue 400 is past the end of O00115 (360 residues)."
    );

    for bad in [
        json!({"id": "O00115", "types": ["helices"]}),
        json!({"id": "O00115", "position": 20, "end": 10}),
        json!({"id": "O00115", "end": 10}),
        json!({"id": "O00115", "position": 0}),
    ] {
        let e = client.call_err("uniprot_get_features", bad.clone()).await;
        assert_eq!(e.code, ErrorCode::InvalidInput, "{bad}: {}", e.message);
    }
    assert_eq!(requests(&upstream).await.len(), 1);
    client.close().await;
}
