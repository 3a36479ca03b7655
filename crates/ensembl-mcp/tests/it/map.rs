//! `ensembl_map_coordinates` as an agent sees it: a GRCh37 position from a paper in
//! GRCh38, and transcript positions on the genome in pieces across an exon boundary; one
//! request each.

use lifesciences_core::ErrorCode;
use serde_json::json;
use wiremock::Mock;
use wiremock::matchers::{method, path, query_param};

use crate::support::{Upstream, fixture};

#[tokio::test]
async fn where_a_grch37_position_from_a_paper_is_in_grch38() {
    let upstream = Upstream::empty().await;
    Mock::given(method("GET"))
        .and(path(
            "/ensembl/map/homo_sapiens/GRCh37/17%3A7577121-7577121%3A1/GRCh38",
        ))
        .respond_with(fixture("map__GRCh37_17_7577121__GRCh38.json"))
        .mount(&upstream.mock)
        .await;
    let client = upstream.client().await;

    let mapped = client
        .call_ok(
            "ensembl_map_coordinates",
            json!({"region": "chr17:7577121-7577121", "from_assembly": "GRCh37"}),
        )
        .await;

    assert_eq!(mapped["input"], "17:7577121-7577121:1 (GRCh37 → GRCh38)");
    assert_eq!(
        mapped["mappings"],
        json!([{"from": "17:7577121-7577121", "to": "17:7673803-7673803",
                "assembly": "GRCh38", "strand": 1}])
    );
    assert_eq!(upstream.requests().await.len(), 1);
    client.close().await;
}

#[tokio::test]
async fn cdna_positions_across_an_exon_boundary_map_in_two_pieces() {
    let upstream = Upstream::empty().await;
    Mock::given(method("GET"))
        .and(path("/ensembl/map/cdna/ENST00000314040/292..297"))
        .and(query_param("include_original_region", "1"))
        .respond_with(fixture("map_cdna__ENST00000314040_292..297__testdb.json"))
        .mount(&upstream.mock)
        .await;
    let client = upstream.client().await;

    let mapped = client
        .call_ok(
            "ensembl_map_coordinates",
            json!({"id": "ENST00000314040", "positions": "cdna", "start": 292, "end": 297}),
        )
        .await;

    assert_eq!(
        mapped["mappings"],
        json!([
            {"from": "cdna 292-294", "to": "6:1101529-1101531", "assembly": "GRCh37", "strand": 1},
            {"from": "cdna 295-297", "to": "6:1102041-1102043", "assembly": "GRCh37", "strand": 1}
        ])
    );
    client.close().await;
}

#[tokio::test]
async fn a_protein_position_uses_the_translation_map_and_bad_input_is_refused() {
    let upstream = Upstream::empty().await;
    Mock::given(method("GET"))
        .and(path("/ensembl/map/translation/ENSP00000269305/175..175"))
        .respond_with(wiremock::ResponseTemplate::new(200).set_body_json(json!({
            "mappings": [{"assembly_name": "GRCh38", "coord_system": "chromosome",
                          "seq_region_name": "17", "start": 7675086, "end": 7675088,
                          "strand": -1, "gap": 0, "rank": 0}]
        })))
        .mount(&upstream.mock)
        .await;
    let client = upstream.client().await;

    let mapped = client
        .call_ok(
            "ensembl_map_coordinates",
            json!({"id": "ENSP00000269305", "start": 175}),
        )
        .await;
    assert_eq!(mapped["mappings"][0]["to"], "17:7675086-7675088");
    assert_eq!(mapped["mappings"][0]["strand"], -1);
    assert!(mapped["mappings"][0].get("from").is_none());

    for (args, code) in [
        (json!({"region": "17:1-10"}), ErrorCode::InvalidInput),
        (
            json!({"id": "ENSG00000141510", "start": 1}),
            ErrorCode::UnresolvedEntity,
        ),
        (
            json!({"id": "ENSP00000269305", "positions": "cds", "start": 1}),
            ErrorCode::InvalidInput,
        ),
        (json!({}), ErrorCode::InvalidInput),
    ] {
        let err = client
            .call_err("ensembl_map_coordinates", args.clone())
            .await;
        assert_eq!(err.code, code, "{args}");
    }
    assert_eq!(upstream.requests().await.len(), 1);
    client.close().await;
}
