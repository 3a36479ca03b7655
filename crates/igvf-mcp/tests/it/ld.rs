//! `igvf_find_ld`: thresholds and ancestry sent as the API takes them, the partner side
//! of each LD edge, and the ancestries TopLD does not have.

use lifesciences_core::ErrorCode;
use serde_json::{Value, json};
use wiremock::Mock;
use wiremock::matchers::{method, path};

use crate::{Catalog, assert_requests_follow_the_spec, empty, fixture, requests, route, setup};

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
            "hgvs": "NC_000011.10:g.8102411C>G", "position": 8102411,
            "r2": 0.315, "d_prime": 0.608, "ancestry": "EUR"
        }])
    );
    assert_requests_follow_the_spec(&upstream).await;
    client.close().await;
}

#[tokio::test]
async fn defaults_are_r2_0_8_in_europeans_and_d_prime_is_optional() {
    let (upstream, client) = setup().await;
    // Rows, so that no lookup follows (an empty answer is checked for a missing variant).
    route(
        &upstream,
        "variants/variant-ld",
        &[],
        fixture("variants_variant-ld__rsid=rs60960132.json"),
    )
    .await;
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

/// An LD edge between `(rsid, spdi)` pairs, in TopLD's shape.
fn ld_row(r2: f64, first: (&str, &str), second: (&str, &str)) -> Value {
    json!({
        "ancestry": "EUR", "r2": r2, "d_prime": 0.99, "source": "TopLD",
        "variant_1_rsid": first.0, "variant_1_spdi": first.1,
        "variant_2_rsid": second.0, "variant_2_spdi": second.1,
        "sequence_variant": format!("variants/{}", first.1)
    })
}

#[tokio::test]
async fn ld_is_checked_here_and_ordered_across_every_row_returned() {
    let (upstream, client) = setup().await;
    let query = ("rs60960132", "NC_000011.10:9083634:A:T");
    // An upstream that ignores the r² filter, mixes in another variant's edge and does
    // not sort: the strongest partner comes last, beyond the first page.
    let rows = vec![
        ld_row(0.85, ("rs1", "NC_000011.10:1:A:G"), query),
        ld_row(0.5, ("rs2", "NC_000011.10:2:A:G"), query),
        ld_row(0.9, query, ("rs3", "NC_000011.10:3:A:G")),
        ld_row(
            0.99,
            ("rs8", "NC_000011.10:8:A:G"),
            ("rs9", "NC_000011.10:9:A:G"),
        ),
        ld_row(0.95, ("rs4", "NC_000011.10:4:A:G"), query),
    ];
    Mock::given(method("GET"))
        .and(path("/variants/variant-ld"))
        .respond_with(Catalog::new(rows))
        .mount(&upstream)
        .await;
    let out = client
        .call_ok(
            "igvf_find_ld",
            json!({"variant_id": "rs60960132", "limit": 2}),
        )
        .await;
    let rsids: Vec<&str> = out["ld"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["rsid"].as_str().unwrap())
        .collect();
    assert_eq!(rsids, ["rs4", "rs3"], "{out:#}");
    assert_eq!(out["truncated"], true);
    let notes = out["notes"].to_string();
    assert!(
        notes.contains("1 record(s) that do not involve the variant"),
        "{notes}"
    );
    assert!(
        notes.contains("1 record(s) below the r²/D′ thresholds"),
        "{notes}"
    );
    // A D′ threshold is re-checked too (every row here has D′ 0.99).
    let out = client
        .call_ok(
            "igvf_find_ld",
            json!({"variant_id": "rs60960132", "d_prime_threshold": 0.995}),
        )
        .await;
    assert_eq!(out["ld"], json!([]), "{out:#}");
    client.close().await;
}

#[tokio::test]
async fn an_unknown_variant_is_not_found_and_a_known_one_without_ld_is_empty() {
    let (upstream, client) = setup().await;
    // No LD, then the lookup that tells an unknown variant from one without LD.
    for rsid in ["rs99999999999", "rs80357906"] {
        route(&upstream, "variants/variant-ld", &[("rsid", rsid)], empty()).await;
    }
    route(&upstream, "variants", &[("rsid", "rs99999999999")], empty()).await;
    let e = client
        .call_err("igvf_find_ld", json!({"variant_id": "rs99999999999"}))
        .await;
    assert_eq!(e.code, ErrorCode::EntityNotFound);
    assert_eq!(e.invalid_input.as_deref(), Some("rs99999999999"));
    route(
        &upstream,
        "variants",
        &[("rsid", "rs80357906")],
        fixture("variants__rsid=rs80357906.json"),
    )
    .await;
    let out = client
        .call_ok("igvf_find_ld", json!({"variant_id": "rs80357906"}))
        .await;
    assert_eq!(out["ld"], json!([]));
    client.close().await;
}

/// `limit` counts variants: a partner the catalog lists on two rows (both orientations of
/// the pair) is one variant, shown once with its higher r², and does not use up a place
/// of `limit`.
#[tokio::test]
async fn a_partner_on_two_rows_is_one_variant() {
    let (upstream, client) = setup().await;
    let query = ("rs60960132", "NC_000011.10:9083634:A:T");
    let rows = vec![
        ld_row(0.9, ("rs1", "NC_000011.10:1:A:G"), query),
        ld_row(0.85, query, ("rs1", "NC_000011.10:1:A:G")),
        ld_row(0.8, ("rs2", "NC_000011.10:2:A:G"), query),
    ];
    Mock::given(method("GET"))
        .and(path("/variants/variant-ld"))
        .respond_with(Catalog::new(rows))
        .mount(&upstream)
        .await;
    let out = client
        .call_ok(
            "igvf_find_ld",
            json!({"variant_id": "rs60960132", "r2_threshold": 0.5, "limit": 2}),
        )
        .await;
    let ld = out["ld"].as_array().unwrap();
    let partners: Vec<(&str, f64)> = ld
        .iter()
        .map(|p| (p["rsid"].as_str().unwrap(), p["r2"].as_f64().unwrap()))
        .collect();
    assert_eq!(partners, [("rs1", 0.9), ("rs2", 0.8)], "{out:#}");
    assert_eq!(out["truncated"], false);
    let notes = out["notes"].to_string();
    assert!(
        notes.contains("1 record(s) naming a variant already listed"),
        "{notes}"
    );
    client.close().await;
}
