//! Where an IGVF Catalog answer came from, as the agent sees it in `provenance`: a region
//! search names exactly the catalog requests it read, 0-based as the catalog was asked,
//! and no release (the catalog's API publishes none); asked again, the cache answers,
//! with the time the catalog first sent it.

use lifesciences_core::testing::{requests_named, requests_seen};
use serde_json::json;

use crate::{empty, fixture, route, setup};

#[tokio::test]
async fn a_region_search_names_exactly_the_catalog_requests_it_read() {
    let (upstream, client) = setup().await;
    let region = "chr17:40999999-42000000";
    route(
        &upstream,
        "genes",
        &[("region", region)],
        fixture("genes__region=chr17_41000000-42000000.json"),
    )
    .await;
    route(
        &upstream,
        "genomic-elements",
        &[("region", region)],
        empty(),
    )
    .await;
    let args = json!({"region": "chr17:41M-42M"});

    let (_, first) = client
        .call_ok_with_provenance("igvf_search_region", args.clone())
        .await;
    let [catalog] = first["sources"].as_array().unwrap().as_slice() else {
        panic!("one source: {first:#}")
    };
    assert_eq!(catalog["database"], "IGVF Catalog");
    assert_eq!(catalog["licence"], "CC-BY-4.0");
    assert_eq!(
        catalog.get("cite"),
        None,
        "the catalog names no paper to cite"
    );
    assert_eq!(catalog.get("release"), None, "the catalog names no release");
    let mut named = requests_named(&first);
    let mut seen = requests_seen(&upstream, &[]).await;
    named.sort();
    seen.sort();
    assert_eq!(named, seen);
    assert_eq!(seen.len(), 2);
    assert!(
        seen.iter()
            .all(|r| r.contains("region=chr17%3A40999999-42000000")),
        "{seen:?}"
    );

    tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    let (_, again) = client
        .call_ok_with_provenance("igvf_search_region", args)
        .await;
    assert_eq!(again["sources"][0]["cached"], true);
    assert_eq!(again["sources"][0]["retrieved_at"], catalog["retrieved_at"]);
    assert_eq!(
        requests_seen(&upstream, &[]).await.len(),
        2,
        "nothing asked again"
    );
    client.close().await;
}
