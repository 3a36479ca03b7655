//! `uniprot_get_protein` as an agent sees it: the compact protein from the recorded
//! entries, sections on request, each inactive kind said, redirects read, batches in one
//! search, and the requests sent (path, `fields=`, counts).

use lifesciences_core::ErrorCode;
use serde_json::json;

use crate::support::{
    SUMMARY_FIELDS, answered, error_answer, fixture, get, pairs, param, query_of, requests,
    requests_to, see_other, setup,
};

/// The headers of a recorded entry answer (release 2022_05).
const ENTRY_HEADERS: &str = "uniprotkb__P99999__headers.http.json";

/// P30542 → one request with only the summary's fields, answered in brief: names, gene,
/// organism, existence, diseases, counts, unversioned Ensembl IDs, what `include` adds;
/// under 4 KB.
#[tokio::test]
async fn an_accession_is_one_request_of_the_summary_fields_and_a_compact_protein() {
    let (upstream, client) = setup().await;
    get("/uniprotkb/P30542")
        .respond_with(answered(
            "uniprotkb__P30542.json",
            ENTRY_HEADERS,
            &upstream.uri(),
        ))
        .expect(1)
        .mount(&upstream)
        .await;

    let result = client
        .call_ok("uniprot_get_protein", json!({"ids": ["UniProt:P30542"]}))
        .await;

    let sent = requests_to(&upstream, "/uniprotkb/P30542").await;
    assert_eq!(query_of(&sent[0]), pairs(&[("fields", SUMMARY_FIELDS)]));
    let [p] = result["proteins"].as_array().unwrap().as_slice() else {
        panic!("one protein: {result:#}")
    };
    assert_eq!(p["accession"], "P30542");
    assert_eq!(p["entry_name"], "AA1R_HUMAN");
    assert_eq!(p["requested"], "UniProt:P30542");
    assert_eq!(p["reviewed"], true);
    assert_eq!(p["name"], "Adenosine receptor A1");
    assert_eq!(p["gene"], "ADORA1");
    assert_eq!(
        (&p["organism"], &p["taxon_id"]),
        (&json!("Homo sapiens"), &json!(9606))
    );
    assert_eq!(p["length"], 326);
    assert_eq!(p["existence"], "Evidence at protein level");
    assert_eq!(p["feature_counts"]["natural_variant"], 6);
    assert_eq!(p["isoform_count"], 2);
    let xrefs = &p["cross_references"];
    assert_eq!(xrefs["ensembl_gene"], "ENSG00000163485", "{xrefs:#}");
    assert_eq!(
        xrefs["alphafold"], "P30542",
        "AlphaFold DB's entry: {xrefs:#}"
    );
    assert!(
        xrefs["pdb"].as_array().unwrap().len() == 5,
        "the five PDB structures: {xrefs:#}"
    );
    assert!(
        !xrefs.to_string().contains("ENSG00000163485."),
        "no Ensembl version: {xrefs:#}"
    );
    assert!(p["more"].as_array().unwrap().contains(&json!("variants")));
    assert_eq!(p.get("features"), None, "sections only on request");
    let size = serde_json::to_string(p).unwrap().len();
    assert!(size <= 4096, "{size} bytes");
    assert!(result.get("unavailable").is_none());
    client.close().await;
}

/// `include` adds the sections asked, and asks UniProt for their fields only.
#[tokio::test]
async fn include_adds_the_sections_asked_and_their_fields() {
    let (upstream, client) = setup().await;
    get("/uniprotkb/O00115")
        .respond_with(fixture("uniprotkb__O00115.json"))
        .expect(1)
        .mount(&upstream)
        .await;

    let result = client
        .call_ok(
            "uniprot_get_protein",
            json!({"ids": "O00115", "include": ["variants", "sequence"]}),
        )
        .await;

    let sent = requests_to(&upstream, "/uniprotkb/O00115").await;
    assert_eq!(
        param(&sent[0], "fields").unwrap(),
        format!("{SUMMARY_FIELDS},sequence,ft_variant")
    );
    let p = &result["proteins"][0];
    assert_eq!(p["gene"], "DNASE2");
    let variants = &p["features"];
    assert_eq!(variants["total"], 6);
    assert_eq!(variants["truncated"], false);
    let y95c = variants["items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["start"] == 95)
        .unwrap();
    assert_eq!(y95c["change"], "Y>C");
    assert_eq!(
        y95c["diseases"],
        json!(["Autoinflammatory-pancytopenia syndrome (AIPCS)"])
    );
    assert_eq!(p["sequence"].as_str().unwrap().len(), 360);
    assert_eq!(p["diseases"][0]["acronym"], "AIPCS");
    client.close().await;
}

/// A merged accession: UniProt answers 303 with the inactive record, to its successor;
/// the successor is asked with the same fields and the answer says what happened.
#[tokio::test]
async fn a_merged_accession_is_answered_by_its_successor_and_says_so() {
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

    let result = client
        .call_ok("uniprot_get_protein", json!({"ids": ["O43910"]}))
        .await;

    let p = &result["proteins"][0];
    assert_eq!(p["accession"], "O00115");
    assert_eq!(p["requested"], "O43910");
    assert_eq!(
        p["note"],
        "O43910 was merged into O00115: UniProt answers it with this entry."
    );
    // The redirect's `from=` kept, the fields asked again (the Location drops them).
    let followed = requests_to(&upstream, "/uniprotkb/O00115").await;
    assert_eq!(
        query_of(&followed[0]),
        pairs(&[("from", "O43910"), ("fields", SUMMARY_FIELDS)])
    );
    assert_eq!(requests(&upstream).await.len(), 2);
    client.close().await;
}

/// An entry name: UniProt answers 303 without a body, to the accession; followed.
#[tokio::test]
async fn an_entry_name_is_followed_to_its_accession() {
    let (upstream, client) = setup().await;
    get("/uniprotkb/AA1R_HUMAN")
        .respond_with(see_other("/uniprotkb/P30542?from=AA1R_HUMAN", None))
        .expect(1)
        .mount(&upstream)
        .await;
    get("/uniprotkb/P30542")
        .respond_with(fixture("uniprotkb__P30542.json"))
        .expect(1)
        .mount(&upstream)
        .await;

    let result = client
        .call_ok("uniprot_get_protein", json!({"ids": ["aa1r_human"]}))
        .await;

    let p = &result["proteins"][0];
    assert_eq!(p["accession"], "P30542");
    assert_eq!(p["requested"], "aa1r_human");
    assert_eq!(p.get("note"), None, "an entry name is no merge");
    client.close().await;
}

/// A demerged accession (recorded: P00001, split into P99999 and P99998) is
/// ENTITY_NOT_FOUND naming both successors, which the hint and suggestions carry.
#[tokio::test]
async fn a_demerged_accession_names_both_successors() {
    let (upstream, client) = setup().await;
    get("/uniprotkb/P00001")
        .respond_with(fixture("uniprotkb__P00001__inactive_DEMERGED.json"))
        .expect(1)
        .mount(&upstream)
        .await;

    let e = client
        .call_err("uniprot_get_protein", json!({"ids": ["P00001"]}))
        .await;

    assert_eq!(e.code, ErrorCode::EntityNotFound);
    assert_eq!(
        e.message,
        "UniProt's P00001 (CYC_HUMAN) is no longer an entry: it was split (demerged) into \
         P99999 and P99998."
    );
    assert_eq!(e.suggestions, ["P99999", "P99998"]);
    assert!(
        e.recovery_hint
            .contains(r#"uniprot_get_protein with its successors: {"ids": ["P99999", "P99998"]}"#),
        "{}",
        e.recovery_hint
    );
    client.close().await;
}

/// A deleted accession is ENTITY_NOT_FOUND with UniProt's reason and where its sequence
/// stays.
#[tokio::test]
async fn a_deleted_accession_gives_uniprot_s_reason() {
    let (upstream, client) = setup().await;
    get("/uniprotkb/O00597")
        .respond_with(fixture("uniprotkb__O00597__inactive_DELETED.json"))
        .expect(1)
        .mount(&upstream)
        .await;

    let e = client
        .call_err("uniprot_get_protein", json!({"ids": ["O00597"]}))
        .await;

    assert_eq!(e.code, ErrorCode::EntityNotFound);
    assert_eq!(
        e.message,
        "UniProt deleted O00597 from UniProtKB (reason: Not part of a reference proteome)."
    );
    assert!(
        e.recovery_hint.contains("UPI000013C29B"),
        "{}",
        e.recovery_hint
    );
    assert!(e.suggestions.is_empty());
    client.close().await;
}

/// A merged accession whose successor UniProt no longer has says it was merged, never
/// an empty answer.
#[tokio::test]
async fn a_merged_accession_whose_successor_is_gone_says_it_was_merged() {
    let (upstream, client) = setup().await;
    get("/uniprotkb/O43910")
        .respond_with(see_other(
            "/uniprotkb/O00115?from=O43910",
            Some("uniprotkb__O43910__inactive_MERGED.json"),
        ))
        .mount(&upstream)
        .await;
    get("/uniprotkb/O00115")
        .respond_with(error_answer(404, "error_404__P99997.json"))
        .mount(&upstream)
        .await;

    let e = client
        .call_err("uniprot_get_protein", json!({"ids": ["O43910"]}))
        .await;

    assert_eq!(e.code, ErrorCode::EntityNotFound);
    assert_eq!(
        e.message,
        "UniProt's O43910 is no longer an entry of its own: it was merged into O00115."
    );
    assert_eq!(e.suggestions, ["O00115"]);
    client.close().await;
}

/// An accession UniProt never had: its 404 is ENTITY_NOT_FOUND with a hint to search.
#[tokio::test]
async fn an_unknown_accession_is_not_found_with_a_hint_to_search() {
    let (upstream, client) = setup().await;
    get("/uniprotkb/P99997")
        .respond_with(error_answer(404, "error_404__P99997.json"))
        .expect(1)
        .mount(&upstream)
        .await;

    let e = client
        .call_err("uniprot_get_protein", json!({"ids": ["P99997"]}))
        .await;

    assert_eq!(e.code, ErrorCode::EntityNotFound);
    assert_eq!(e.message, "UniProt has no entry P99997.");
    assert!(e.recovery_hint.contains("uniprot_search_proteins"));
    assert_eq!(e.invalid_input.as_deref(), Some("P99997"));
    client.close().await;
}

/// What is no UniProt identifier is refused before any request, with the form to use or
/// the tool that takes it.
#[tokio::test]
async fn other_identifiers_are_unresolved_before_any_request() {
    let (upstream, client) = setup().await;
    for (sent, hint) in [
        ("ENSG00000163485", "uniprot_map_ids"),
        ("P30542.3", "use 'P30542'"),
        ("ADORA1", r#"{"gene": "ADORA1", "organism": "human"}"#),
        ("NP_000665", "RefSeq"),
    ] {
        let e = client
            .call_err("uniprot_get_protein", json!({"ids": [sent]}))
            .await;
        assert_eq!(e.code, ErrorCode::UnresolvedEntity, "{sent}");
        assert!(
            e.message.contains("UniProt accession (P05067)"),
            "{}",
            e.message
        );
        assert!(
            e.recovery_hint.contains(hint),
            "{sent}: {}",
            e.recovery_hint
        );
    }
    let e = client
        .call_err(
            "uniprot_get_protein",
            json!({"ids": ["P30542"], "include": ["references"]}),
        )
        .await;
    assert_eq!(e.code, ErrorCode::InvalidInput);
    assert!(requests(&upstream).await.is_empty());
    client.close().await;
}

/// An isoform is answered by its entry, saying the positions are the canonical
/// isoform's.
#[tokio::test]
async fn an_isoform_is_answered_by_its_entry_with_a_note() {
    let (upstream, client) = setup().await;
    get("/uniprotkb/O00115")
        .respond_with(fixture("uniprotkb__O00115.json"))
        .expect(1)
        .mount(&upstream)
        .await;

    let result = client
        .call_ok("uniprot_get_protein", json!({"ids": ["O00115-2"]}))
        .await;

    let p = &result["proteins"][0];
    assert_eq!(p["accession"], "O00115");
    assert_eq!(p["requested"], "O00115-2");
    assert!(
        p["note"]
            .as_str()
            .unwrap()
            .contains("canonical isoform O00115-1"),
        "{p:#}"
    );
    client.close().await;
}

/// Several proteins are one search; the one it does not return is asked alone, which says
/// what became of it. Proteins come in the order asked.
#[tokio::test]
async fn a_batch_is_one_search_and_what_it_misses_is_explained() {
    let (upstream, client) = setup().await;
    get("/uniprotkb/search")
        .respond_with(fixture("uniprotkb_search__F1MAB7_OR_O14975.json"))
        .expect(1)
        .mount(&upstream)
        .await;
    get("/uniprotkb/P00001")
        .respond_with(fixture("uniprotkb__P00001__inactive_DEMERGED.json"))
        .expect(1)
        .mount(&upstream)
        .await;

    let result = client
        .call_ok(
            "uniprot_get_protein",
            json!({"ids": ["O14975", "P00001", "F1MAB7"]}),
        )
        .await;

    let search = requests_to(&upstream, "/uniprotkb/search").await;
    assert_eq!(
        query_of(&search[0]),
        pairs(&[
            (
                "query",
                "accession:O14975 OR accession:P00001 OR accession:F1MAB7"
            ),
            ("fields", SUMMARY_FIELDS),
            ("size", "3"),
        ])
    );
    let accessions: Vec<&str> = result["proteins"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["accession"].as_str().unwrap())
        .collect();
    assert_eq!(accessions, ["O14975", "F1MAB7"]);
    assert_eq!(result["proteins"][0]["gene"], "SLC27A2");
    assert_eq!(
        result["unavailable"],
        json!([{
            "id": "P00001",
            "code": "ENTITY_NOT_FOUND",
            "message": "UniProt's P00001 (CYC_HUMAN) is no longer an entry: it was split \
                        (demerged) into P99999 and P99998.",
            "successors": ["P99999", "P99998"]
        }])
    );
    assert_eq!(requests(&upstream).await.len(), 2);
    client.close().await;
}
