//! `ensembl_get_homologs` as an agent sees it: the mouse orthologue of a human gene, with
//! percent identity both ways, in one request (full format, no sequences); a symbol goes
//! to the symbol endpoint; a non-human ID without a species costs one look-up first.

use lifesciences_core::ErrorCode;
use serde_json::{Value, json};
use wiremock::matchers::{method, path, query_param};
use wiremock::{Mock, ResponseTemplate};

use crate::support::{Upstream, fixture};

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
