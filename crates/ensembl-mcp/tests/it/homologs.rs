//! `ensembl_get_homologs` as an agent sees it: the mouse orthologue of a human gene, with
//! percent identity both ways, in one request (full format, no sequences); a symbol goes
//! to the symbol endpoint; a non-human ID without a species costs one look-up first.

use lifesciences_core::ErrorCode;
use serde_json::{Value, json};
use wiremock::matchers::{method, path, query_param};
use wiremock::{Mock, ResponseTemplate};

use crate::support::{Upstream, fixture, unknown_id};

fn query(request: &wiremock::Request) -> Vec<(String, String)> {
    request
        .url
        .query_pairs()
        .map(|(k, v)| (k.into_owned(), v.into_owned()))
        .collect()
}

#[tokio::test]
async fn the_mouse_orthologue_of_tp53_in_one_request() {
    let upstream = Upstream::empty().await;
    Mock::given(method("GET"))
        .and(path("/ensembl/homology/id/homo_sapiens/ENSG00000141510"))
        .respond_with(fixture("homology__ENSG00000141510.json"))
        .mount(&upstream.mock)
        .await;
    let client = upstream.client().await;

    let found = client
        .call_ok(
            "ensembl_get_homologs",
            json!({"gene": "ENSG00000141510.17", "target_species": ["Mus musculus"]}),
        )
        .await;

    assert_eq!(found["genes"], json!(["ENSG00000141510"]));
    assert_eq!(
        found["homologs"][0],
        json!({"gene_id": "ENSMUSG00000059552", "species": "mus_musculus", "taxon_id": 10090,
               "type": "ortholog_one2one", "taxonomy_level": "Euarchontoglires",
               "identity": 78.65, "query_identity": 77.25})
    );
    assert_eq!(found["pagination"]["total_count"], 2);

    let sent = upstream.requests().await;
    assert_eq!(sent.len(), 1);
    let q = query(&sent[0]);
    for pair in [
        ("type", "orthologues"),
        ("format", "full"),
        ("sequence", "none"),
        ("aligned", "0"),
        ("cigar_line", "0"),
        ("target_species", "mus_musculus"),
    ] {
        assert!(
            q.contains(&(pair.0.to_owned(), pair.1.to_owned())),
            "{pair:?} in {q:?}"
        );
    }
    client.close().await;
}

#[tokio::test]
async fn a_symbol_uses_the_symbol_endpoint_and_pages_follow_the_cursor() {
    let upstream = Upstream::empty().await;
    Mock::given(method("GET"))
        .and(path("/ensembl/homology/symbol/homo_sapiens/TP53"))
        .and(query_param("type", "all"))
        .respond_with(fixture("homology__ENSG00000141510.json"))
        .mount(&upstream.mock)
        .await;
    let client = upstream.client().await;
    let args = json!({"gene": "TP53", "type": "all", "limit": 1});

    let first = client.call_ok("ensembl_get_homologs", args.clone()).await;
    assert_eq!(first["homologs"][0]["gene_id"], "ENSMUSG00000059552");
    let mut next_args = args.clone();
    next_args["cursor"] = first["pagination"]["cursor"].clone();
    let second = client.call_ok("ensembl_get_homologs", next_args).await;
    assert_eq!(second["homologs"][0]["gene_id"], "ENSDARG00000035559");
    assert_eq!(second["pagination"]["cursor"], Value::Null);
    assert_eq!(
        upstream.requests().await.len(),
        1,
        "the second page is cached"
    );
    client.close().await;
}

#[tokio::test]
async fn a_mouse_id_without_species_is_looked_up_first() {
    let upstream = Upstream::start().await;
    Mock::given(method("GET"))
        .and(path("/ensembl/homology/id/mus_musculus/ENSMUSG00000059552"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({"data": []})))
        .mount(&upstream.mock)
        .await;
    let client = upstream.client().await;

    let found = client
        .call_ok(
            "ensembl_get_homologs",
            json!({"gene": "ENSMUSG00000059552"}),
        )
        .await;

    assert_eq!(found["species"], "mus_musculus");
    assert_eq!(found["homologs"], json!([]));
    assert!(found["note"].as_str().unwrap().contains("no orthologues"));
    assert_eq!(
        upstream
            .count("/ensembl/lookup/id/ENSMUSG00000059552")
            .await,
        1
    );
    client.close().await;
}

#[tokio::test]
async fn an_unknown_gene_is_not_found_and_a_transcript_is_refused() {
    let upstream = Upstream::empty().await;
    Mock::given(method("GET"))
        .respond_with(
            ResponseTemplate::new(400)
                .set_body_json(json!({"error": "ID 'ENSG00000000001' not found"})),
        )
        .mount(&upstream.mock)
        .await;
    let client = upstream.client().await;

    let err = client
        .call_err("ensembl_get_homologs", json!({"gene": "ENSG00000000001"}))
        .await;
    assert_eq!(err.code, ErrorCode::EntityNotFound);
    let err = client
        .call_err("ensembl_get_homologs", json!({"gene": "ENST00000269305"}))
        .await;
    assert_eq!(err.code, ErrorCode::UnresolvedEntity);
    assert_eq!(upstream.requests().await.len(), 1);
    client.close().await;
}

/// Only a whole stable ID is read as one: `ENSA` (endosulfine alpha) is a symbol and asks
/// the symbol endpoint; a near miss of an ID (10 digits) is sent as a symbol too, and
/// Ensembl's refusal of it (its words in `Controller/Homology.pm`, `fetch_by_gene_symbol`,
/// in Ensembl/ensembl-rest) comes back saying it is neither.
#[tokio::test]
async fn a_symbol_that_starts_like_an_id_is_asked_as_a_symbol() {
    let upstream = Upstream::empty().await;
    Mock::given(method("GET"))
        .and(path("/ensembl/homology/symbol/homo_sapiens/ENSA"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({"data": []})))
        .mount(&upstream.mock)
        .await;
    Mock::given(method("GET"))
        .and(path("/ensembl/homology/symbol/homo_sapiens/ENSG0000014151"))
        .respond_with(ResponseTemplate::new(400).set_body_json(json!({"error":
            "Cannot find a suitable gene for the symbol 'ENSG0000014151' and species 'homo_sapiens"}))
        )
        .mount(&upstream.mock)
        .await;
    let client = upstream.client().await;

    let found = client
        .call_ok("ensembl_get_homologs", json!({"gene": "ENSA"}))
        .await;
    assert_eq!(found["species"], "homo_sapiens");
    assert_eq!(found["genes"], json!(["ENSA"]));

    let err = client
        .call_err("ensembl_get_homologs", json!({"gene": "ENSG0000014151"}))
        .await;
    assert_eq!(err.code, ErrorCode::EntityNotFound);
    assert!(
        err.message.contains("not a well-formed Ensembl gene ID"),
        "{}",
        err.message
    );
    assert!(
        err.recovery_hint.contains("11 digits"),
        "{}",
        err.recovery_hint
    );
    assert_eq!(upstream.requests().await.len(), 2);
    client.close().await;
}

/// A chicken gene ID (`ENSGALG…`) starts like a human one (`ENSG…`): its species comes
/// from a look-up, never assumed human from the prefix.
#[tokio::test]
async fn a_chicken_id_is_not_taken_for_a_human_one() {
    let upstream = Upstream::empty().await;
    Mock::given(method("GET"))
        .and(path("/ensembl/lookup/id/ENSGALG00000000001"))
        .respond_with(unknown_id("ENSGALG00000000001"))
        .mount(&upstream.mock)
        .await;
    let client = upstream.client().await;

    let err = client
        .call_err(
            "ensembl_get_homologs",
            json!({"gene": "ENSGALG00000000001"}),
        )
        .await;

    assert_eq!(err.code, ErrorCode::EntityNotFound);
    let sent: Vec<String> = upstream
        .requests()
        .await
        .iter()
        .map(|r| r.url.path().to_owned())
        .collect();
    assert_eq!(sent, ["/ensembl/lookup/id/ENSGALG00000000001"]);
    client.close().await;
}
