//! `ensembl_get_sequence` as an agent sees it: the residues of a protein around a
//! change, a gene's transcripts as cDNA, several IDs in one POST per type, every sequence
//! with its full length and cut at the cap; a region fetched only as far as the cap. The
//! sequence answers are constructed (see the fixtures README).

use lifesciences_core::ErrorCode;
use serde_json::{Value, json};
use wiremock::matchers::{method, path};
use wiremock::{Mock, Request, ResponseTemplate};

use crate::support::{SequenceAnswers, Upstream};

async fn mount(upstream: &Upstream) {
    Mock::given(method("POST"))
        .and(path("/ensembl/sequence/id"))
        .respond_with(SequenceAnswers)
        .mount(&upstream.mock)
        .await;
}

fn bodies(requests: &[Request]) -> Vec<Value> {
    requests
        .iter()
        .map(|r| serde_json::from_slice(&r.body).unwrap())
        .collect()
}

#[tokio::test]
async fn the_residues_around_a_protein_change_in_one_request() {
    let upstream = Upstream::empty().await;
    mount(&upstream).await;
    let client = upstream.client().await;

    let found = client
        .call_ok(
            "ensembl_get_sequence",
            json!({"ids": ["ENSP00000269305.4"], "start": 11, "end": 20}),
        )
        .await;

    assert_eq!(
        found["sequences"][0],
        json!({"query": "ENSP00000269305", "id": "ENSP00000269305", "type": "protein",
               "molecule": "protein", "length": 393, "sequence": "MEEPQSDPSV",
               "start": 11, "end": 20})
    );
    // The range is cut here: Ensembl reads start/end of a transcript asked as protein
    // as genomic offsets, and drops an ID whose end passes its end.
    let sent = bodies(&upstream.requests().await);
    assert_eq!(
        sent,
        [json!({"ids": ["ENSP00000269305"], "type": "protein"})]
    );

    let tail = client
        .call_ok(
            "ensembl_get_sequence",
            json!({"ids": ["ENSP00000269305"], "start": 390}),
        )
        .await;
    assert_eq!(tail["sequences"][0]["sequence"], "VKKG");
    assert_eq!(tail["sequences"][0]["end"], 393);
    client.close().await;
}

#[tokio::test]
async fn a_genes_transcripts_as_cdna_and_an_unknown_id_in_one_post() {
    let upstream = Upstream::empty().await;
    mount(&upstream).await;
    let client = upstream.client().await;

    let found = client
        .call_ok(
            "ensembl_get_sequence",
            json!({"ids": ["ENSG00000141510", "ENSG00000000001"], "type": "cdna"}),
        )
        .await;

    let ids: Vec<&str> = found["sequences"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["ENST00000269305", "ENST00000445888"]);
    assert_eq!(found["sequences"][0]["query"], "ENSG00000141510");
    assert_eq!(found["not_found"], json!(["ENSG00000000001"]));
    assert_eq!(upstream.requests().await.len(), 1);
    client.close().await;
}

#[tokio::test]
async fn a_long_sequence_is_cut_at_the_cap_with_its_length_and_a_note() {
    let upstream = Upstream::empty().await;
    mount(&upstream).await;
    let client = upstream.client().await;

    let found = client
        .call_ok(
            "ensembl_get_sequence",
            json!({"ids": ["ENSP00000269305", "ENST00000269305"], "max_length": 100}),
        )
        .await;

    let seqs = found["sequences"].as_array().unwrap();
    assert_eq!(seqs[0]["type"], "protein");
    assert_eq!(seqs[0]["length"], 393);
    assert_eq!(seqs[0]["sequence"].as_str().unwrap().len(), 100);
    assert_eq!(seqs[0]["truncated"], true);
    assert_eq!(seqs[1]["type"], "genomic");
    assert_eq!(seqs[1]["length"], 25760);
    assert!(found["note"].as_str().unwrap().contains("max_length"));
    // One POST per type: protein for the ENSP ID, genomic for the transcript.
    let mut kinds: Vec<String> = bodies(&upstream.requests().await)
        .iter()
        .map(|b| b["type"].as_str().unwrap().to_owned())
        .collect();
    kinds.sort();
    assert_eq!(kinds, ["genomic", "protein"]);
    client.close().await;
}

#[tokio::test]
async fn a_region_is_fetched_only_as_far_as_the_cap() {
    let upstream = Upstream::empty().await;
    Mock::given(method("GET"))
        .and(path(
            "/ensembl/sequence/region/homo_sapiens/X%3A1000000..1000049%3A1",
        ))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({
            "id": "chromosome:GRCh38:X:1000000:1000049:1", "molecule": "dna",
            "query": "X:1000000..1000049:1", "seq": "ACGTACGTAC".repeat(5)
        })))
        .mount(&upstream.mock)
        .await;
    let client = upstream.client().await;

    let found = client
        .call_ok(
            "ensembl_get_sequence",
            json!({"region": "chrX:1,000,000-1,000,100", "max_length": 50}),
        )
        .await;

    let s = &found["sequences"][0];
    assert_eq!(s["length"], 101);
    assert_eq!(s["sequence"].as_str().unwrap().len(), 50);
    assert_eq!(s["truncated"], true);
    assert_eq!(s["id"], "chromosome:GRCh38:X:1000000:1000049:1");
    assert!(found["note"].as_str().unwrap().contains("first 50 of 101"));
    client.close().await;
}

#[tokio::test]
async fn bad_combinations_are_refused_before_any_request() {
    let upstream = Upstream::empty().await;
    let client = upstream.client().await;
    for (args, code, says) in [
        (
            json!({"region": "1:1-20000000"}),
            ErrorCode::InvalidInput,
            "10 Mb",
        ),
        (
            json!({"ids": ["TP53"]}),
            ErrorCode::UnresolvedEntity,
            "ensembl_search_genes",
        ),
        (
            json!({"ids": ["ENSP00000269305"], "flank_5prime": 100}),
            ErrorCode::InvalidInput,
            "genomic",
        ),
        (json!({}), ErrorCode::InvalidInput, "region"),
    ] {
        let err = client.call_err("ensembl_get_sequence", args.clone()).await;
        assert_eq!(err.code, code, "{args}");
        assert!(
            format!("{} {}", err.message, err.recovery_hint).contains(says),
            "{args}: {err:?}"
        );
    }
    assert!(upstream.requests().await.is_empty());
    client.close().await;
}
