//! `igvf_search_region`: a 1 Mb region (chr17:41M-42M), parallel queries, the variants
//! region cap, truncation notes, the outside-the-region guard, malformed regions, and the
//! coordinate conversion: regions are read 1-based and inclusive and sent to the catalog
//! 0-based and half-open (`start - 1` to `end`); positions come back 1-based.

use std::time::Duration;

use lifesciences_core::ErrorCode;
use lifesciences_core::testing::Recording;
use serde_json::json;
use wiremock::matchers::{method, path};
use wiremock::{Mock, ResponseTemplate};

use crate::{
    assert_requests_follow_the_spec, empty, fixture, fixtures, no_rows, requests, route, setup,
};

#[tokio::test]
async fn a_megabase_region_lists_genes_and_elements_and_says_why_not_variants() {
    let (upstream, client) = setup().await;
    // 41M-42M, 1-based and inclusive, is the catalog's [40999999, 42000000).
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
    let out = client
        .call_ok("igvf_search_region", json!({"region": "chr17:41M-42M"}))
        .await;
    assert_eq!(out["region"], "chr17:41000000-42000000");
    assert_eq!(out["span_bp"], 1_000_001);
    assert_eq!(out["organism"], "Homo sapiens");
    let symbols: Vec<&str> = out["genes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["symbol"].as_str().unwrap())
        .collect();
    assert_eq!(symbols, ["KRT14", "KRT16", "KRT17"]);
    assert_eq!(out["regulatory_elements"], json!([]));
    assert!(out.get("variants").is_none(), "{out:#}");
    assert_eq!(
        out["truncated"],
        json!({"genes": false, "regulatory_elements": false})
    );
    let notes = out["notes"].to_string();
    assert!(
        notes.contains("variants: not searched") && notes.contains("10 kb"),
        "{notes}"
    );
    // A 10 kb sub-region to ask instead, 1-based as everything the tool shows.
    assert!(notes.contains("chr17:41000000-41009999"), "{notes}");
    // The variants endpoint was never asked for a megabase.
    let sent = requests(&upstream).await;
    assert!(sent.iter().all(|(p, _)| p != "/variants"), "{sent:?}");
    let genes = sent.iter().find(|(p, _)| p == "/genes").unwrap();
    assert!(genes.1.contains(&("region".into(), region.into())));
    // One extra row is asked for, so a full list is known to be complete or not.
    assert!(
        genes.1.contains(&("limit".into(), "26".into())),
        "{:?}",
        genes.1
    );
    assert!(genes.1.contains(&("page".into(), "0".into())));
    assert_requests_follow_the_spec(&upstream).await;
    client.close().await;
}

#[tokio::test]
async fn a_list_cut_at_the_limit_says_so() {
    let (upstream, client) = setup().await;
    route(
        &upstream,
        "genes",
        &[("limit", "3")],
        fixture("genes__region=chr17_41000000-42000000.json"),
    )
    .await;
    let out = client
        .call_ok(
            "igvf_search_region",
            json!({"region": "17:41,000,000-42,000,000", "include": ["genes"], "limit": "2"}),
        )
        .await;
    assert_eq!(out["genes"].as_array().unwrap().len(), 2);
    assert_eq!(out["truncated"], json!({"genes": true}));
    assert!(
        out["notes"][0]
            .as_str()
            .unwrap()
            .contains("the first 2 are listed and more exist"),
        "{out:#}"
    );
    client.close().await;
}

#[tokio::test]
async fn a_small_region_lists_its_variants() {
    let (upstream, client) = setup().await;
    route(
        &upstream,
        "variants",
        &[("region", "chr1:974999-976000")],
        fixture("variants__region=chr1_975000-976000.json"),
    )
    .await;
    // No gene and no regulatory element there.
    no_rows(
        &upstream,
        &["genes", "genomic-elements"],
        &[("region", "chr1:974999-976000")],
    )
    .await;
    let out = client
        .call_ok("igvf_search_region", json!({"region": "chr1:975k-976k"}))
        .await;
    let variants = out["variants"].as_array().unwrap();
    assert_eq!(variants.len(), 1);
    // The SPDI as the catalog writes it (0-based 975028); the position 1-based.
    assert_eq!(variants[0]["id"], "NC_000001.11:975028:T:C");
    assert_eq!(variants[0]["position"], 975_029);
    assert_eq!(variants[0]["rsids"], json!(["rs28536514"]));
    assert_eq!(out["truncated"]["variants"], false);
    client.close().await;
}

#[tokio::test]
async fn regulatory_elements_are_mapped() {
    let (upstream, client) = setup().await;
    route(
        &upstream,
        "genomic-elements",
        &[("region", "chr1:1157519-1158189")],
        fixture("genomic-elements__region=chr1_1157520-1158189.json"),
    )
    .await;
    let out = client
        .call_ok(
            "igvf_search_region",
            json!({"region": "chr1:1157520-1158189", "include": "regulatory elements"}),
        )
        .await;
    assert_eq!(
        out["regulatory_elements"][0],
        json!({
            "id": "EH38E2777055", "chromosome": "chr1", "start": 1157437, "end": 1157782,
            "element_type": "candidate cis regulatory element",
            "annotation": "dELS: distal Enhancer-like signal", "source": "ENCODE"
        })
    );
    assert!(out.get("genes").is_none());
    client.close().await;
}

#[tokio::test]
async fn the_three_lists_are_queried_in_parallel() {
    let (upstream, client) = setup().await;
    let delay = Duration::from_millis(400);
    let recording = Recording::new(empty().set_delay(delay));
    for at in ["/genes", "/variants", "/genomic-elements"] {
        Mock::given(method("GET"))
            .and(path(at))
            .respond_with(recording.clone())
            .mount(&upstream)
            .await;
    }
    client
        .call_ok("igvf_search_region", json!({"region": "chr2:150kb-151kb"}))
        .await;
    let arrivals = recording.arrivals();
    assert_eq!(arrivals.len(), 3);
    let first = *arrivals.iter().min().unwrap();
    let last = *arrivals.iter().max().unwrap();
    // Sequential calls would arrive a full response delay apart.
    assert!(
        last - first < delay / 2,
        "arrivals spread over {:?}",
        last - first
    );
    client.close().await;
}

#[tokio::test]
async fn records_the_upstream_returns_outside_the_region_are_left_out() {
    let (upstream, client) = setup().await;
    // TSPAN6 (chrX), as an upstream that ignored the region would answer.
    route(
        &upstream,
        "genes",
        &[],
        fixture("genes__organism_only.json"),
    )
    .await;
    let out = client
        .call_ok(
            "igvf_search_region",
            json!({"region": "chr17:41.2M-41.3M", "include": ["genes"]}),
        )
        .await;
    assert_eq!(out["genes"], json!([]));
    assert!(
        out["notes"][0]
            .as_str()
            .unwrap()
            .contains("outside the region"),
        "{out:#}"
    );
    client.close().await;
}

#[tokio::test]
async fn mouse_regions_ask_for_mouse_data() {
    let (upstream, client) = setup().await;
    route(
        &upstream,
        "genes",
        &[("region", "chr19:999-2000"), ("organism", "Mus musculus")],
        empty(),
    )
    .await;
    for organism in ["mouse", "Mus musculus", "10090"] {
        let out = client
            .call_ok(
                "igvf_search_region",
                json!({"region": "chr19:1000-2000", "organism": organism, "include": ["genes"]}),
            )
            .await;
        assert_eq!(out["organism"], "Mus musculus");
        assert_eq!(out["assembly"], "GRCm39");
    }
    let sent = requests(&upstream).await;
    assert!(
        sent[0]
            .1
            .contains(&("organism".into(), "Mus musculus".into())),
        "{sent:?}"
    );
    let e = client
        .call_err(
            "igvf_search_region",
            json!({"region": "chr1:1-2", "organism": "zebrafish"}),
        )
        .await;
    assert_eq!(e.code, ErrorCode::InvalidInput);
    assert!(e.message.contains("zebrafish"), "{}", e.message);
    client.close().await;
}

#[tokio::test]
async fn malformed_regions_and_limits_are_invalid_input_before_any_request() {
    let (upstream, client) = setup().await;
    let e = client
        .call_err("igvf_search_region", json!({"region": "chr1-1000-2000"}))
        .await;
    assert_eq!(e.code, ErrorCode::InvalidInput);
    assert_eq!(
        e.message,
        "Invalid region format 'chr1-1000-2000'. Expected format: 'chr1:1000-2000'. The colon \
         separates chromosome from position range."
    );
    assert_eq!(e.invalid_input.as_deref(), Some("chr1-1000-2000"));
    for (args, needle) in [
        (
            json!({"region": "chr1:2000-1000"}),
            "must not be past the end",
        ),
        (json!({"region": "chr1:0-1000"}), "1-based"),
        (json!({"region": "chr23:1-2"}), "Invalid chromosome"),
        (json!({"region": "chr1:1.5-2"}), "is not a position"),
        (
            json!({"region": "chr1:1-2", "limit": 0}),
            "between 1 and 500",
        ),
        (
            json!({"region": "chr1:1-2", "limit": 501}),
            "between 1 and 500",
        ),
        (
            json!({"region": "chr1:1-2", "include": []}),
            "nothing to search",
        ),
        (
            json!({"region": "chr1:1-2", "include": ["exons"]}),
            "'exons' cannot be included",
        ),
    ] {
        let e = client.call_err("igvf_search_region", args.clone()).await;
        assert_eq!(e.code, ErrorCode::InvalidInput, "{args}");
        assert!(e.message.contains(needle), "{args}: {}", e.message);
    }
    assert!(requests(&upstream).await.is_empty());
    // Fixtures used here are real files (keeps the loader honest).
    assert!(fixtures().json("genes__organism_only.json").is_array());
    client.close().await;
}

#[tokio::test]
async fn one_failing_list_is_a_note_and_only_all_failing_is_an_error() {
    let (upstream, client) = setup().await;
    let region = "chr17:40999999-42000000";
    route(&upstream, "genes", &[], ResponseTemplate::new(500)).await;
    route(
        &upstream,
        "genomic-elements",
        &[("region", region)],
        fixture("genomic-elements__region=chr1_1157520-1158189.json"),
    )
    .await;
    let out = client
        .call_ok("igvf_search_region", json!({"region": "chr17:41M-42M"}))
        .await;
    assert!(out.get("genes").is_none(), "{out:#}");
    assert!(out["regulatory_elements"].is_array(), "{out:#}");
    assert_eq!(out["truncated"], json!({"regulatory_elements": false}));
    let notes = out["notes"].to_string();
    assert!(
        notes.contains("genes: not listed") && notes.contains("UPSTREAM_ERROR"),
        "{notes}"
    );
    // Every list asked for failed: the error is the answer.
    let e = client
        .call_err(
            "igvf_search_region",
            json!({"region": "chr17:41M-42M", "include": ["genes"]}),
        )
        .await;
    assert_eq!(e.code, ErrorCode::UpstreamError);
    client.close().await;
}

#[tokio::test]
async fn an_upstream_region_rejection_echoes_the_region_as_the_caller_wrote_it() {
    let (upstream, client) = setup().await;
    route(
        &upstream,
        "genes",
        &[],
        ResponseTemplate::new(400)
            .set_body_json(json!({"message": "Region format invalid", "code": "BAD_REQUEST"})),
    )
    .await;
    let e = client
        .call_err(
            "igvf_search_region",
            json!({"region": "chr1:1k-2k", "include": ["genes"]}),
        )
        .await;
    assert_eq!(e.code, ErrorCode::InvalidInput);
    assert_eq!(e.invalid_input.as_deref(), Some("chr1:1k-2k"));
    client.close().await;
}

#[tokio::test]
async fn positions_past_every_chromosome_are_invalid_input_not_a_panic() {
    let (upstream, client) = setup().await;
    for region in [
        "chr1:18446744073709551615-18446744073709551615",
        "chr1:18446744073709551615",
    ] {
        let e = client
            .call_err("igvf_search_region", json!({"region": region}))
            .await;
        assert_eq!(e.code, ErrorCode::InvalidInput, "{region}");
        assert_eq!(e.invalid_input.as_deref(), Some(region));
        assert!(e.message.contains("beyond the end"), "{}", e.message);
    }
    assert!(requests(&upstream).await.is_empty());
    client.close().await;
}

/// TP53 as Ensembl and UCSC write it (`ensembl_get_gene`: 17, 7661779-7687538): the
/// catalog is asked for `start - 1` to `end`, and its gene (stored 0-based, start
/// 7661778) comes back with Ensembl's own numbers; a one-base region is the catalog's
/// interval of length one, and its variant comes back at that base.
#[tokio::test]
async fn a_1_based_region_reaches_the_catalog_0_based_and_positions_come_back_1_based() {
    let (upstream, client) = setup().await;
    route(
        &upstream,
        "genes",
        &[("region", "chr17:7661778-7687538")],
        fixture("genes__name=TP53.json"),
    )
    .await;
    let out = client
        .call_ok(
            "igvf_search_region",
            json!({"region": "17:7,661,779-7,687,538", "include": ["genes"]}),
        )
        .await;
    assert_eq!(out["region"], "chr17:7661779-7687538");
    assert_eq!(out["span_bp"], 25_760);
    assert_eq!(out["genes"][0]["symbol"], "TP53");
    assert_eq!(out["genes"][0]["start"], 7_661_779);
    assert_eq!(out["genes"][0]["end"], 7_687_538);
    // One base: chr16:20000002 (1-based) is the SPDI position 20000001.
    route(
        &upstream,
        "variants",
        &[("region", "chr16:20000001-20000002")],
        fixture("variants__region=chr16_19999990-20000010.json"),
    )
    .await;
    let out = client
        .call_ok(
            "igvf_search_region",
            json!({"region": "chr16:20000002", "include": ["variants"]}),
        )
        .await;
    assert_eq!(out["region"], "chr16:20000002-20000002");
    assert_eq!(out["span_bp"], 1);
    // The fixture's other two variants lie outside that base and are left out.
    let variants = out["variants"].as_array().unwrap();
    assert_eq!(variants.len(), 1, "{out:#}");
    assert_eq!(variants[0]["id"], "NC_000016.10:20000001:A:G");
    assert_eq!(variants[0]["position"], 20_000_002);
    let sent = requests(&upstream).await;
    let regions: Vec<&str> = sent
        .iter()
        .flat_map(|(_, q)| {
            q.iter()
                .filter(|(k, _)| k == "region")
                .map(|(_, v)| v.as_str())
        })
        .collect();
    assert_eq!(
        regions,
        ["chr17:7661778-7687538", "chr16:20000001-20000002"]
    );
    assert_requests_follow_the_spec(&upstream).await;
    client.close().await;
}

/// `include` as one string is split on commas and line breaks too (it used to be split on
/// commas only: `"genes\nregulatory elements"` was refused as one unknown content), so only
/// the two lists asked for are queried; a lone `""` is an empty list ("nothing to search",
/// it used to be "'' cannot be included"), and a list holding null is refused in a sentence.
#[tokio::test]
async fn include_as_one_string_is_split_on_line_breaks_and_commas() {
    let (upstream, client) = setup().await;
    let region = "chr1:1157519-1158189";
    route(&upstream, "genes", &[("region", region)], empty()).await;
    route(
        &upstream,
        "genomic-elements",
        &[("region", region)],
        fixture("genomic-elements__region=chr1_1157520-1158189.json"),
    )
    .await;

    let out = client
        .call_ok(
            "igvf_search_region",
            json!({"region": "chr1:1157520-1158189", "include": "genes\nregulatory elements,"}),
        )
        .await;

    assert_eq!(out["genes"], json!([]));
    assert_eq!(out["regulatory_elements"][0]["id"], "EH38E2777055");
    assert!(out.get("variants").is_none(), "{out:#}");
    let mut asked: Vec<String> = requests(&upstream).await.into_iter().map(|r| r.0).collect();
    asked.sort();
    assert_eq!(asked, ["/genes", "/genomic-elements"]);

    let e = client
        .call_err(
            "igvf_search_region",
            json!({"region": "chr1:1-2", "include": ""}),
        )
        .await;
    assert_eq!(e.code, ErrorCode::InvalidInput);
    assert_eq!(
        e.message,
        "Argument 'include' is empty, so there is nothing to search."
    );
    let e = client
        .call_err(
            "igvf_search_region",
            json!({"region": "chr1:1-2", "include": ["genes", null]}),
        )
        .await;
    assert_eq!(e.code, ErrorCode::InvalidInput);
    assert_eq!(
        e.message,
        "Argument 'include' has the wrong type: expected a list of strings, or one string of \
         comma-separated items, got a list whose item 2 is null."
    );
    assert_eq!(requests(&upstream).await.len(), 2);
    client.close().await;
}
