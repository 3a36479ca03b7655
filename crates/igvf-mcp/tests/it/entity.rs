//! `igvf_get_entity`: BRCA1 by symbol, every identifier form of the detection table,
//! the `gene_name` trap, misses and malformed input.

use lifesciences_core::ErrorCode;
use serde_json::{Value, json};
use wiremock::ResponseTemplate;
use wiremock::matchers::{method, path};

use crate::{
    assert_requests_follow_the_spec, empty, fixture, fixtures, mount_variant_context, requests,
    route, setup,
};

#[tokio::test]
async fn the_symbol_brca1_resolves_to_the_exact_gene() {
    let (upstream, client) = setup().await;
    route(
        &upstream,
        "genes",
        &[("name", "BRCA1")],
        fixture("genes__name=BRCA1.json"),
    )
    .await;
    for input in ["BRCA1", "brca1"] {
        let gene = client
            .call_ok("igvf_get_entity", json!({"id": input}))
            .await;
        assert_eq!(gene["_type"], "gene");
        assert_eq!(gene["id"], "ENSG00000012048");
        assert_eq!(gene["symbol"], "BRCA1");
        assert_eq!(gene["chromosome"], "chr17");
        assert_eq!(gene["assembly"], "GRCh38");
        assert_eq!(gene["detected_as"], "gene symbol");
        assert_eq!(
            gene["cross_references"],
            json!({"hgnc": "HGNC:1100", "ensembl_gene": "ENSG00000012048", "entrez": "672"})
        );
        // The symbol itself is not repeated among the synonyms.
        assert_eq!(
            gene["synonyms"],
            json!(["RNF53", "BRCC1", "PPP1R53", "FANCS"])
        );
    }
    // One request per call (the second is served by the cache: same normalised query),
    // with the node endpoint's own parameter name.
    let sent = requests(&upstream).await;
    assert_eq!(sent.len(), 1, "{sent:?}");
    let (at, query) = &sent[0];
    assert_eq!(at, "/genes");
    assert!(
        query.contains(&("name".into(), "BRCA1".into())),
        "{query:?}"
    );
    assert!(query.iter().all(|(k, _)| k != "gene_name"), "{query:?}");
    assert_requests_follow_the_spec(&upstream).await;
    client.close().await;
}

#[tokio::test]
async fn the_gene_name_trap_never_returns_an_unrelated_gene() {
    // An upstream that ignores the filter answers with its first genes (TSPAN6 …), as
    // /genes does for an unknown parameter or after its fuzzy fallback.
    let (upstream, client) = setup().await;
    Mock::given(method("GET"))
        .and(path("/genes"))
        .respond_with(fixture("genes__organism_only.json"))
        .mount(&upstream)
        .await;
    let e = client
        .call_err("igvf_get_entity", json!({"id": "BRCA1"}))
        .await;
    assert_eq!(e.code, ErrorCode::EntityNotFound);
    assert_eq!(e.message, "IGVF Catalog has no gene named 'BRCA1'.");
    assert_eq!(e.suggestions, ["TSPAN6 (ENSG00000000003)"]);
    assert!(
        e.recovery_hint.contains("match exactly"),
        "{}",
        e.recovery_hint
    );
    // The same guard for identifiers: a record without the ID is not that entity.
    let e = client
        .call_err("igvf_get_entity", json!({"id": "ENSG00000012048"}))
        .await;
    assert_eq!(e.code, ErrorCode::EntityNotFound);
    client.close().await;
}

use wiremock::Mock;

/// One row: (input, hint, path, parameter, value sent, fixture, `_type`, `id` returned).
type FormCase = (
    &'static str,
    Option<&'static str>,
    &'static str,
    &'static str,
    &'static str,
    &'static str,
    &'static str,
    &'static str,
);

const FORMS: &[FormCase] = &[
    (
        "ENSG00000012048",
        None,
        "/genes",
        "gene_id",
        "ENSG00000012048",
        "genes__name=BRCA1.json",
        "gene",
        "ENSG00000012048",
    ),
    (
        "ENSG00000012048.23",
        None,
        "/genes",
        "gene_id",
        "ENSG00000012048",
        "genes__name=BRCA1.json",
        "gene",
        "ENSG00000012048",
    ),
    (
        "HGNC:1100",
        None,
        "/genes",
        "hgnc_id",
        "HGNC:1100",
        "genes__name=BRCA1.json",
        "gene",
        "ENSG00000012048",
    ),
    (
        "ENTREZ:672",
        None,
        "/genes",
        "entrez",
        "ENTREZ:672",
        "genes__name=BRCA1.json",
        "gene",
        "ENSG00000012048",
    ),
    (
        "brca1",
        None,
        "/genes",
        "name",
        "BRCA1",
        "genes__name=BRCA1.json",
        "gene",
        "ENSG00000012048",
    ),
    (
        "ENST00000428769",
        None,
        "/transcripts",
        "transcript_id",
        "ENST00000428769",
        "transcripts__transcript_id=ENST00000428769.json",
        "transcript",
        "ENST00000428769",
    ),
    (
        "ENSP00000384707",
        None,
        "/proteins",
        "protein_id",
        "ENSP00000384707",
        "proteins__protein_id=ENSP00000384707.json",
        "protein",
        "ENSP00000384707",
    ),
    (
        "P49711-2",
        None,
        "/proteins",
        "protein_id",
        "P49711-2",
        "proteins__protein_id=ENSP00000384707.json",
        "protein",
        "ENSP00000384707",
    ),
    (
        "P49711",
        None,
        "/proteins",
        "dbxrefs",
        "P49711",
        "proteins__protein_id=ENSP00000384707.json",
        "protein",
        "ENSP00000384707",
    ),
    (
        "CTCF_HUMAN",
        None,
        "/proteins",
        "uniprot_name",
        "CTCF_HUMAN",
        "proteins__protein_id=ENSP00000384707.json",
        "protein",
        "ENSP00000384707",
    ),
    (
        "ctcf",
        Some("protein"),
        "/proteins",
        "name",
        "CTCF",
        "proteins__protein_id=ENSP00000384707.json",
        "protein",
        "ENSP00000384707",
    ),
    (
        "rs80357906",
        None,
        "/variants",
        "rsid",
        "rs80357906",
        "variants__rsid=rs80357906.json",
        "variant",
        "NC_000017.11:43057062:GGG:GGGG",
    ),
    (
        "NC_000020.11:3658947:A:G",
        None,
        "/variants",
        "spdi",
        "NC_000020.11:3658947:A:G",
        "variants__spdi=NC_000020.11_3658947_A_G.json",
        "variant",
        "NC_000020.11:3658947:A:G",
    ),
    (
        "NC_000020.11:g.3658948A>G",
        None,
        "/variants",
        "hgvs",
        "NC_000020.11:g.3658948A>G",
        "variants__spdi=NC_000020.11_3658947_A_G.json",
        "variant",
        "NC_000020.11:3658947:A:G",
    ),
    (
        "CA14803886",
        None,
        "/variants",
        "ca_id",
        "CA14803886",
        "variants__spdi=NC_000020.11_3658947_A_G.json",
        "variant",
        "NC_000020.11:3658947:A:G",
    ),
    (
        "Orphanet_101435",
        None,
        "/ontology-terms",
        "term_id",
        "Orphanet_101435",
        "ontology-terms__term_id=Orphanet_101435.json",
        "ontology_term",
        "Orphanet:101435",
    ),
    (
        "Orphanet:101435",
        None,
        "/ontology-terms",
        "term_id",
        "Orphanet_101435",
        "ontology-terms__term_id=Orphanet_101435.json",
        "ontology_term",
        "Orphanet:101435",
    ),
    (
        "ORPHA:101435",
        Some("disease"),
        "/ontology-terms",
        "term_id",
        "Orphanet_101435",
        "ontology-terms__term_id=Orphanet_101435.json",
        "ontology_term",
        "Orphanet:101435",
    ),
    (
        "rare genetic eye disease",
        Some("disease"),
        "/ontology-terms",
        "name",
        "rare genetic eye disease",
        "ontology-terms__term_id=Orphanet_101435.json",
        "ontology_term",
        "Orphanet:101435",
    ),
    (
        "PA448497",
        None,
        "/drugs",
        "drug_id",
        "PA448497",
        "drugs__drug_id=PA448497.json",
        "drug",
        "PA448497",
    ),
    (
        "Aspirin",
        Some("drug"),
        "/drugs",
        "name",
        "Aspirin",
        "drugs__drug_id=PA448497.json",
        "drug",
        "PA448497",
    ),
    (
        "CPX-11",
        None,
        "/complexes",
        "complex_id",
        "CPX-11",
        "complexes__complex_id=CPX-11.json",
        "complex",
        "CPX-11",
    ),
    (
        "R-HSA-164843",
        None,
        "/pathways",
        "id",
        "R-HSA-164843",
        "pathways__id=R-HSA-164843.json",
        "pathway",
        "R-HSA-164843",
    ),
];

#[tokio::test]
async fn every_identifier_form_reaches_its_endpoint_with_its_parameter() {
    for (input, hint, at, param, value, fixture_name, kind, id) in FORMS {
        let (upstream, client) = setup().await;
        mount_variant_context(&upstream).await;
        route(
            &upstream,
            at.trim_start_matches('/'),
            &[(param, value)],
            fixture(fixture_name),
        )
        .await;
        let mut args = json!({"id": input});
        if let Some(h) = hint {
            args["hint"] = json!(h);
        }
        let entity = client.call_ok("igvf_get_entity", args).await;
        assert_eq!(entity["_type"], *kind, "{input}");
        assert_eq!(entity["id"], *id, "{input}");
        // One look-up; a variant adds its summary and the elements containing it.
        let sent = requests(&upstream).await;
        let expected = if *kind == "variant" { 3 } else { 1 };
        assert_eq!(sent.len(), expected, "{input}: {sent:?}");
        assert_eq!(sent[0].0, *at, "{input}");
        assert!(
            sent[0]
                .1
                .contains(&((*param).to_owned(), (*value).to_owned())),
            "{input}: {:?}",
            sent[0].1
        );
        assert_requests_follow_the_spec(&upstream).await;
        client.close().await;
    }
}

#[tokio::test]
async fn ontology_terms_in_both_forms_ask_for_the_same_catalog_key() {
    for input in ["MONDO_0007254", "MONDO:0007254", "mondo:0007254"] {
        let (upstream, client) = setup().await;
        // The catalog's miss is `200 []`.
        route(
            &upstream,
            "ontology-terms",
            &[("term_id", "MONDO_0007254")],
            empty(),
        )
        .await;
        let e = client
            .call_err("igvf_get_entity", json!({"id": input}))
            .await;
        assert_eq!(e.code, ErrorCode::EntityNotFound, "{input}");
        assert!(e.message.contains("MONDO_0007254"), "{}", e.message);
        // What the caller sent, not the normalised key.
        assert_eq!(e.invalid_input.as_deref(), Some(input));
        let sent = requests(&upstream).await;
        assert_eq!(sent[0].0, "/ontology-terms");
        assert!(
            sent[0]
                .1
                .contains(&("term_id".into(), "MONDO_0007254".into()))
        );
        client.close().await;
    }
}

#[tokio::test]
async fn entities_are_mapped_without_nulls_and_with_their_quirks_handled() {
    let (upstream, client) = setup().await;
    mount_variant_context(&upstream).await;
    route(
        &upstream,
        "proteins",
        &[("protein_id", "ENSP00000384707")],
        fixture("proteins__protein_id=ENSP00000384707.json"),
    )
    .await;
    route(
        &upstream,
        "transcripts",
        &[("transcript_id", "ENST00000428769")],
        fixture("transcripts__transcript_id=ENST00000428769.json"),
    )
    .await;
    route(
        &upstream,
        "variants",
        &[("spdi", "NC_000020.11:3658947:A:G")],
        fixture("variants__spdi=NC_000020.11_3658947_A_G.json"),
    )
    .await;
    route(
        &upstream,
        "complexes",
        &[("complex_id", "CPX-11")],
        fixture("complexes__complex_id=CPX-11.json"),
    )
    .await;

    let protein = client
        .call_ok("igvf_get_entity", json!({"id": "ENSP00000384707"}))
        .await;
    assert_eq!(protein["symbol"], "CTCF");
    assert_eq!(
        protein["cross_references"]["uniprot"],
        json!(["P49711-2", "P49711"])
    );
    assert_eq!(protein["cross_references"]["hgnc"], "HGNC:13723");
    assert_eq!(protein["cross_references"]["chembl"], "CHEMBL4523233");

    // Quirk: a transcript's `gene_name` holds its gene's ENSG ID.
    let transcript = client
        .call_ok("igvf_get_entity", json!({"id": "ENST00000428769"}))
        .await;
    assert_eq!(transcript["gene_id"], "ENSG00000232738");
    assert!(transcript.get("gene_symbol").is_none());

    // Null annotations (bravo_af, GENCODE_category) are omitted, numbers kept.
    let variant = client
        .call_ok("igvf_get_entity", json!({"id": "NC_000020.11:3658947:A:G"}))
        .await;
    assert_eq!(variant["rsids"], json!(["rs6139176"]));
    assert_eq!(variant["ca_id"], "CA14803886");
    assert_eq!(variant["allele_frequencies"]["gnomad_af_total"], 0.229546);
    assert_eq!(variant["allele_frequencies"]["gnomad_af_afr"], 0.347651);
    assert!(variant["allele_frequencies"].get("bravo_af").is_none());
    assert!(variant.get("gencode_category").is_none());

    let complex = client
        .call_ok("igvf_get_entity", json!({"id": "CPX-11"}))
        .await;
    assert_eq!(complex["participants"], json!(["Q15796(3)"]));
    assert_eq!(complex["cross_references"], json!({"uniprot": ["Q15796"]}));
    // /complexes takes no `limit` (fixed pages of 25): none is sent.
    let sent = requests(&upstream).await;
    let complexes = sent.iter().find(|(p, _)| p == "/complexes").unwrap();
    assert!(
        complexes.1.iter().all(|(k, _)| k != "limit"),
        "{:?}",
        complexes.1
    );
    assert_requests_follow_the_spec(&upstream).await;
    client.close().await;
}

#[tokio::test]
async fn an_rsid_with_several_alleles_names_the_others() {
    let (upstream, client) = setup().await;
    mount_variant_context(&upstream).await;
    // Two alleles at one site share the rsID (constructed from the rs80357906 fixture).
    let mut records: Value = fixtures().json("variants__rsid=rs80357906.json");
    let mut second = records[0].clone();
    second["_id"] = json!("NC_000017.11:43057062:GGG:GG");
    second["spdi"] = json!("NC_000017.11:43057062:GGG:GG");
    second["alt"] = json!("GG");
    records.as_array_mut().unwrap().push(second);
    route(
        &upstream,
        "variants",
        &[("rsid", "rs80357906")],
        ResponseTemplate::new(200).set_body_json(records),
    )
    .await;
    let v = client
        .call_ok("igvf_get_entity", json!({"id": "rs80357906"}))
        .await;
    assert_eq!(v["id"], "NC_000017.11:43057062:GGG:GGGG");
    assert_eq!(v["other_matches"], json!(["NC_000017.11:43057062:GGG:GG"]));
    client.close().await;
}

#[tokio::test]
async fn misses_are_entity_not_found_whether_empty_or_404() {
    let (upstream, client) = setup().await;
    route(
        &upstream,
        "genes",
        &[("gene_id", "ENSG00000099999")],
        ResponseTemplate::new(404).set_body_json(
            json!({"message": "Record ENSG00000099999 not found.", "code": "NOT_FOUND"}),
        ),
    )
    .await;
    let e = client
        .call_err("igvf_get_entity", json!({"id": "ENSG00000099999"}))
        .await;
    assert_eq!(e.code, ErrorCode::EntityNotFound);
    assert_eq!(e.invalid_input.as_deref(), Some("ENSG00000099999"));
    route(
        &upstream,
        "variants",
        &[("rsid", "rs999999999999")],
        empty(),
    )
    .await;
    let e = client
        .call_err("igvf_get_entity", json!({"id": "rs999999999999"}))
        .await;
    assert_eq!(e.code, ErrorCode::EntityNotFound);
    assert!(e.message.contains("rsID 'rs999999999999'"), "{}", e.message);
    client.close().await;
}

#[tokio::test]
async fn malformed_input_is_refused_before_any_request() {
    let (upstream, client) = setup().await;
    let cases = [
        (
            json!({"id": "breast cancer"}),
            ErrorCode::UnresolvedEntity,
            "Recognised forms",
        ),
        (
            json!({"id": "NM_007294.4:c.5266dup"}),
            ErrorCode::UnresolvedEntity,
            "genomic HGVS",
        ),
        (
            json!({"id": "rs80357906", "hint": "gene"}),
            ErrorCode::UnresolvedEntity,
            "Drop the hint",
        ),
        (
            json!({"id": "ENSRNOG00000010079"}),
            ErrorCode::UnresolvedEntity,
            "human (ENSG",
        ),
        (
            json!({"id": ""}),
            ErrorCode::UnresolvedEntity,
            "Recognised forms",
        ),
        (
            json!({"id": "BRCA1", "hint": "organism"}),
            ErrorCode::InvalidInput,
            "schema",
        ),
        (
            json!({"id": "BRCA1", "gene_name": "BRCA1"}),
            ErrorCode::InvalidInput,
            "schema",
        ),
        (json!({"hint": "gene"}), ErrorCode::InvalidInput, "schema"),
        (json!({"id": 672}), ErrorCode::InvalidInput, "schema"),
    ];
    for (args, code, hint_has) in cases {
        let e = client.call_err("igvf_get_entity", args.clone()).await;
        assert_eq!(e.code, code, "{args}");
        assert!(
            e.recovery_hint.contains(hint_has),
            "{args}: {}",
            e.recovery_hint
        );
    }
    let e = client
        .call_err(
            "igvf_get_entity",
            json!({"id": "BRCA1", "gene_name": "BRCA1"}),
        )
        .await;
    assert!(
        e.message.contains("Unknown argument 'gene_name'"),
        "{}",
        e.message
    );
    assert!(requests(&upstream).await.is_empty());
    client.close().await;
}

#[tokio::test]
async fn upstream_trouble_is_an_upstream_error() {
    let (upstream, client) = setup().await;
    route(&upstream, "genes", &[], ResponseTemplate::new(503)).await;
    let e = client
        .call_err("igvf_get_entity", json!({"id": "TP53"}))
        .await;
    assert_eq!(e.code, ErrorCode::UpstreamError);
    assert!(e.message.contains("IGVF Catalog"), "{}", e.message);
    client.close().await;
}

#[tokio::test]
async fn a_404_that_is_not_the_catalog_s_own_not_found_is_an_upstream_error() {
    // A wrong base URL or a proxy answers 404 with its own page: not "no such record".
    let (upstream, client) = setup().await;
    route(
        &upstream,
        "genes",
        &[],
        ResponseTemplate::new(404).set_body_string("Not Found"),
    )
    .await;
    let e = client
        .call_err("igvf_get_entity", json!({"id": "ENSG00000012048"}))
        .await;
    assert_eq!(e.code, ErrorCode::UpstreamError, "{e:?}");
    assert!(e.message.contains("404"), "{}", e.message);
    client.close().await;
}

/// A 200 answer of the wrong shape (a record, or a list of records, without the fields a
/// record has) is not "not found": it is UPSTREAM_ERROR, and the body is not cached.
#[tokio::test]
async fn a_wrong_shape_is_upstream_error_not_not_found_and_not_cached() {
    for body in [
        serde_json::json!([{"unexpected": 1}]),
        serde_json::json!({"unexpected": {"nested": true}}),
    ] {
        let (upstream, client) = setup().await;
        wiremock::Mock::given(wiremock::matchers::path("/genes"))
            .respond_with(wiremock::ResponseTemplate::new(200).set_body_json(&body))
            .expect(2)
            .mount(&upstream)
            .await;
        for _ in 0..2 {
            let e = client
                .call_err(
                    "igvf_get_entity",
                    serde_json::json!({"id": "ENSG00000141510"}),
                )
                .await;
            assert_eq!(
                e.code,
                lifesciences_core::ErrorCode::UpstreamError,
                "{body}: {e:?}"
            );
            assert!(
                e.message.contains("not the JSON it documents"),
                "{}",
                e.message
            );
        }
        client.close().await;
    }
}

/// Evaluation questions 6, 10 and 12 (genomic elements overlapping or containing a
/// variant; genes linked to NC_000020.11:3658947:A:G, nearest genes included): one call.
/// The summary is the recorded one; the containing element is constructed from the shape
/// of the recorded `/genomic-elements` answer.
#[tokio::test]
async fn a_variant_comes_with_its_summary_nearest_genes_and_containing_elements() {
    let (upstream, client) = setup().await;
    route(
        &upstream,
        "variants",
        &[("spdi", "NC_000020.11:3658947:A:G")],
        fixture("variants__spdi=NC_000020.11_3658947_A_G.json"),
    )
    .await;
    route(
        &upstream,
        "variants/summary",
        &[("variant_id", "NC_000020.11:3658947:A:G")],
        fixture("variants_summary__variant_id=NC_000020.11_3658947_A_G.json"),
    )
    .await;
    route(
        &upstream,
        "genomic-elements",
        &[("region", "chr20:3658947-3658948")],
        ResponseTemplate::new(200).set_body_json(json!([{
            "_id": "EH38E3340000", "name": "EH38E3340000", "chr": "chr20",
            "start": 3658800, "end": 3659100, "type": "candidate cis regulatory element",
            "source_annotation": "pELS: proximal Enhancer-like signal", "source": "ENCODE_SCREEN (ccREs)",
            "source_url": "https://www.encodeproject.org/files/ENCFF420VPZ/"
        }])),
    )
    .await;
    let client_args = json!({"id": "NC_000020.11:3658947:A:G"});

    let v = client.call_ok("igvf_get_entity", client_args).await;

    // The position 1-based, the SPDI (its ID) as the catalog writes it, 0-based.
    assert_eq!(v["position"], 3_658_948);
    assert_eq!(v["spdi"], "NC_000020.11:3658947:A:G");
    let context = &v["variant_context"];
    assert_eq!(context["cadd_phred"], 1.044);
    assert_eq!(context["gnomad_af"], 0.229546);
    assert_eq!(context["gnomad_af_by_population"]["african"], 0.347651);
    assert_eq!(
        context["nearest_gene"],
        json!({"id": "ENSG00000125861", "name": "GFRA4", "distance": 300.0})
    );
    assert_eq!(
        context["containing_elements"],
        json!([{"id": "EH38E3340000", "type": "candidate cis regulatory element",
                "annotation": "pELS: proximal Enhancer-like signal",
                "location": "chr20:3658801-3659100", "source": "ENCODE_SCREEN (ccREs)"}])
    );
    // The look-up, then the summary and the elements at once: three requests.
    let sent = requests(&upstream).await;
    assert_eq!(sent.len(), 3, "{sent:?}");
    assert_requests_follow_the_spec(&upstream).await;
    client.close().await;
}

#[tokio::test]
async fn a_variant_whose_summary_fails_still_answers_and_says_so() {
    let (upstream, client) = setup().await;
    route(
        &upstream,
        "variants",
        &[("spdi", "NC_000020.11:3658947:A:G")],
        fixture("variants__spdi=NC_000020.11_3658947_A_G.json"),
    )
    .await;
    route(
        &upstream,
        "variants/summary",
        &[],
        ResponseTemplate::new(500),
    )
    .await;
    route(&upstream, "genomic-elements", &[], empty()).await;

    let v = client
        .call_ok("igvf_get_entity", json!({"id": "NC_000020.11:3658947:A:G"}))
        .await;

    assert_eq!(v["id"], "NC_000020.11:3658947:A:G");
    let note = v["variant_context"]["note"].as_str().unwrap();
    assert!(note.contains("summary could not be read"), "{note}");
    client.close().await;
}
