//! `igvf_find_ld`: thresholds and ancestry sent as the API takes them, the partner side
//! of each LD edge, and the ancestries TopLD does not have.

use lifesciences_core::ErrorCode;
use serde_json::json;

use crate::{assert_requests_follow_the_spec, fixture, requests, route, setup};

#[tokio::test]
async fn ld_partners_of_an_rsid() {
    let (upstream, client) = setup().await;
    route(
        &upstream,
        "variants/variant-ld",
        &[
            ("rsid", "rs60960132"),
            ("r2", "gte:0.2"),
            ("ancestry", "EUR"),
        ],
        fixture("variants_variant-ld__rsid=rs60960132.json"),
    )
    .await;
    let out = client
        .call_ok(
            "igvf_find_ld",
            json!({"variant_id": "rs60960132", "r2_threshold": 0.2, "ancestry": "eur"}),
        )
        .await;
    assert_eq!(out["ancestry"], "EUR");
    assert_eq!(out["detected_as"], "rsID");
    assert_eq!(out["source"], "TopLD");
    assert_eq!(out["truncated"], false);
    assert_eq!(
        out["ld"],
        json!([{
            "spdi": "NC_000011.10:8102410:C:G", "rsid": "rs537097834",
            "hgvs": "NC_000011.10:g.8102411C>G", "position": 8102410,
            "r2": 0.315, "d_prime": 0.608, "ancestry": "EUR"
        }])
    );
    assert_requests_follow_the_spec(&upstream).await;
    client.close().await;
}

#[tokio::test]
async fn defaults_are_r2_0_8_in_europeans_and_d_prime_is_optional() {
    let (upstream, client) = setup().await;
    client
        .call_ok(
            "igvf_find_ld",
            json!({"variant_id": "NC_000011.10:9083634:A:T"}),
        )
        .await;
    client
        .call_ok(
            "igvf_find_ld",
            json!({"variant_id": "CA217534780", "d_prime_threshold": "0.9", "ancestry": "SAS", "limit": 10}),
        )
        .await;
    let sent = requests(&upstream).await;
    let first = &sent[0].1;
    assert!(
        first.contains(&("spdi".into(), "NC_000011.10:9083634:A:T".into())),
        "{first:?}"
    );
    assert!(first.contains(&("r2".into(), "gte:0.8".into())));
    assert!(first.contains(&("ancestry".into(), "EUR".into())));
    assert!(first.iter().all(|(k, _)| k != "d_prime"));
    let second = &sent[1].1;
    assert!(
        second.contains(&("ca_id".into(), "CA217534780".into())),
        "{second:?}"
    );
    assert!(second.contains(&("d_prime".into(), "gte:0.9".into())));
    assert!(second.contains(&("limit".into(), "11".into())));
    client.close().await;
}

#[tokio::test]
async fn ancestries_topld_lacks_and_bad_thresholds_are_invalid_input() {
    let (upstream, client) = setup().await;
    let e = client
        .call_err(
            "igvf_find_ld",
            json!({"variant_id": "rs60960132", "ancestry": "AMR"}),
        )
        .await;
    assert_eq!(e.code, ErrorCode::InvalidInput);
    assert_eq!(e.recovery_hint, "Use one of 'AFR', 'EAS', 'EUR', 'SAS'.");
    assert_eq!(e.invalid_input.as_deref(), Some("AMR"));
    for args in [
        json!({"variant_id": "rs60960132", "r2_threshold": 1.2}),
        json!({"variant_id": "rs60960132", "d_prime_threshold": -0.5}),
        json!({"variant_id": "rs60960132", "limit": 0}),
    ] {
        let e = client.call_err("igvf_find_ld", args.clone()).await;
        assert_eq!(e.code, ErrorCode::InvalidInput, "{args}");
    }
    let e = client
        .call_err("igvf_find_ld", json!({"variant_id": "BRCA1"}))
        .await;
    assert_eq!(e.code, ErrorCode::UnresolvedEntity);
    assert!(
        e.message.contains("looks like a gene symbol"),
        "{}",
        e.message
    );
    assert!(
        e.recovery_hint.contains("rsID ('rs80357906')"),
        "{}",
        e.recovery_hint
    );
    assert!(
        e.recovery_hint.contains("igvf_find_associations"),
        "{}",
        e.recovery_hint
    );
    assert!(requests(&upstream).await.is_empty());
    client.close().await;
}
