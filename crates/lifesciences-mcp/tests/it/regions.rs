//! One coordinate convention across servers: a gene's coordinates from
//! `ensembl_get_gene` (Ensembl: 1-based, inclusive), written as the region a user would
//! build from them, go to `igvf_search_region` unchanged; igvf-mcp asks the IGVF Catalog
//! (0-based, half-open) for `start - 1` to `end`, and answers with Ensembl's own numbers.

use serde_json::json;
use wiremock::Mock;
use wiremock::matchers::{method, path, query_param};

use crate::{fixture, setup};

#[tokio::test]
async fn an_ensembl_gene_s_region_round_trips_through_the_igvf_catalog() {
    let (upstream, client) = setup().await;
    // TP53 in Ensembl (recorded): chromosome 17, 7661779-7687538.
    Mock::given(method("GET"))
        .and(path("/ensembl/lookup/id/ENSG00000141510"))
        .respond_with(fixture("ensembl-mcp", "lookup_id__ENSG00000141510.json"))
        .mount(&upstream)
        .await;
    Mock::given(method("GET"))
        .and(path("/ensembl/xrefs/id/ENSG00000141510"))
        .respond_with(fixture("ensembl-mcp", "xrefs_id__ENSG00000141510.json"))
        .mount(&upstream)
        .await;
    // TP53 as the catalog stores it (igvf-mcp's fixture: start 7661778, end 7687538),
    // served only for the region the catalog must be asked: start - 1 to end.
    Mock::given(method("GET"))
        .and(path("/igvf/genes"))
        .and(query_param("region", "chr17:7661778-7687538"))
        .respond_with(fixture("igvf-mcp", "genes__name=TP53.json"))
        .mount(&upstream)
        .await;

    let gene = client
        .call_ok("ensembl_get_gene", json!({"ensembl_id": "ENSG00000141510"}))
        .await;
    let chromosome = gene["chromosome"].as_str().unwrap();
    let start = gene["start"].as_u64().unwrap();
    let end = gene["end"].as_u64().unwrap();
    assert_eq!((chromosome, start, end), ("17", 7_661_779, 7_687_538));

    // Exactly what a user would type from that answer.
    let region = format!("chr{chromosome}:{start}-{end}");
    let out = client
        .call_ok(
            "igvf_search_region",
            json!({"region": region, "include": ["genes"]}),
        )
        .await;

    // The catalog was asked for start - 1 to end, once.
    let asked: Vec<String> = upstream
        .received_requests()
        .await
        .unwrap()
        .iter()
        .filter(|r| r.url.path() == "/igvf/genes")
        .map(|r| {
            r.url
                .query_pairs()
                .find(|(k, _)| k == "region")
                .map(|(_, v)| v.into_owned())
                .unwrap()
        })
        .collect();
    assert_eq!(asked, [format!("chr17:{}-{end}", start - 1)]);

    // And the answer speaks Ensembl's numbers: the region as given, TP53 at the same
    // start and end `ensembl_get_gene` reported.
    assert_eq!(out["region"], region);
    assert_eq!(out["span_bp"], end - start + 1);
    let genes = out["genes"].as_array().unwrap();
    assert_eq!(genes.len(), 1, "{out:#}");
    assert_eq!(genes[0]["id"], "ENSG00000141510");
    assert_eq!(genes[0]["start"], start);
    assert_eq!(genes[0]["end"], end);
    client.close().await;
}
