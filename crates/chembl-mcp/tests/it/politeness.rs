//! Politeness and upstream trouble: JSON is always asked for, 429 and 5xx are retried,
//! persistent failures become clear envelopes, repeated lookups come from the cache.

use std::time::Duration;

use lifesciences_core::ErrorCode;
use lifesciences_core::testing::Recording;
use serde_json::json;
use wiremock::ResponseTemplate;

use crate::support::{Upstreams, chembl_get, mount_molecule, ok};

#[tokio::test]
async fn every_request_asks_for_json_on_a_json_path() {
    let up = Upstreams::start().await;
    // Matchers that ignore the Accept header, so a request without it still arrives.
    wiremock::Mock::given(wiremock::matchers::path("/molecule/search.json"))
        .respond_with(ok("molecule_search__q=aspirin.json"))
        .mount(&up.chembl)
        .await;
    wiremock::Mock::given(wiremock::matchers::path("/molecule/CHEMBL25.json"))
        .respond_with(ok("molecule__CHEMBL25.json"))
        .mount(&up.chembl)
        .await;
    wiremock::Mock::given(wiremock::matchers::path("/mechanism.json"))
        .respond_with(ok("mechanism__molecule_chembl_id=CHEMBL25.json"))
        .mount(&up.chembl)
        .await;
    wiremock::Mock::given(wiremock::matchers::path("/target.json"))
        .respond_with(ok("target__target_chembl_id__in=CHEMBL221,CHEMBL230.json"))
        .mount(&up.chembl)
        .await;
    wiremock::Mock::given(wiremock::matchers::path("/molecule.json"))
        .respond_with(ok(
            "molecule__in=CHEMBL25,CHEMBL192,CHEMBL27__only=id,name.json",
        ))
        .mount(&up.chembl)
        .await;
    wiremock::Mock::given(wiremock::matchers::path("/compounds"))
        .respond_with(ok("unichem_compounds__CHEMBL25.json"))
        .mount(&up.unichem)
        .await;
    let client = up.client().await;
    client
        .call_ok("chembl_search_compounds", json!({"query": "aspirin"}))
        .await;
    client
        .call_ok("chembl_get_compound", json!({"chembl_id": "CHEMBL:25"}))
        .await;
    client
        .call_ok(
            "chembl_get_compounds_batch",
            json!({"chembl_ids": ["CHEMBL:25"]}),
        )
        .await;

    let chembl = up.chembl.received_requests().await.unwrap();
    assert_eq!(chembl.len(), 5);
    for request in &chembl {
        assert_eq!(
            request.headers.get("accept").map(|v| v.to_str().unwrap()),
            Some("application/json"),
            "{}",
            request.url
        );
        assert!(request.url.path().ends_with(".json"), "{}", request.url);
        assert_eq!(request.method.as_str(), "GET");
    }
    let unichem = up.unichem.received_requests().await.unwrap();
    assert_eq!(unichem.len(), 1);
    assert_eq!(
        unichem[0]
            .headers
            .get("accept")
            .map(|v| v.to_str().unwrap()),
        Some("application/json")
    );
    client.close().await;
}

#[tokio::test]
async fn a_503_then_a_429_are_retried_until_chembl_answers() {
    let up = Upstreams::start().await;
    let responder = Recording::sequence(vec![
        ResponseTemplate::new(503),
        ResponseTemplate::new(429).insert_header("retry-after", "0"),
        ok("molecule__CHEMBL25.json"),
    ]);
    chembl_get("/molecule/CHEMBL25.json", &[])
        .respond_with(responder.clone())
        .mount(&up.chembl)
        .await;
    let client = up.client().await;
    let c = client
        .call_ok(
            "chembl_get_compound",
            json!({"chembl_id": "CHEMBL:25", "slim": true}),
        )
        .await;
    assert_eq!(c["name"], "ASPIRIN");
    assert_eq!(responder.count(), 3);
    client.close().await;
}

#[tokio::test]
async fn persistent_429_is_rate_limited_and_5xx_is_upstream_error() {
    let up = Upstreams::start().await;
    let limited = Recording::new(ResponseTemplate::new(429).insert_header("retry-after", "1"));
    chembl_get("/molecule/CHEMBL25.json", &[])
        .respond_with(limited.clone())
        .mount(&up.chembl)
        .await;
    let broken = Recording::new(ResponseTemplate::new(502));
    chembl_get(
        "/molecule/search.json",
        &[("q", "aspirin"), ("limit", "50"), ("offset", "0")],
    )
    .respond_with(broken.clone())
    .mount(&up.chembl)
    .await;
    let client = up.client().await;

    // A slim record is the molecule request alone.
    let e = client
        .call_err(
            "chembl_get_compound",
            json!({"chembl_id": "CHEMBL:25", "slim": true}),
        )
        .await;
    assert_eq!(e.code, ErrorCode::RateLimited);
    assert!(e.retry_after_secs.is_some_and(|s| s >= 1));
    assert!(e.message.contains("ChEMBL"), "{}", e.message);
    assert_eq!(limited.count(), 4); // the first attempt and three retries

    let e = client
        .call_err("chembl_search_compounds", json!({"query": "aspirin"}))
        .await;
    assert_eq!(e.code, ErrorCode::UpstreamError);
    assert!(
        e.message.starts_with("ChEMBL answered HTTP 502"),
        "{}",
        e.message
    );
    assert_eq!(broken.count(), 4);
    client.close().await;
}

#[tokio::test]
async fn an_undecodable_answer_is_upstream_error_naming_the_source() {
    let up = Upstreams::start().await;
    chembl_get("/molecule/CHEMBL25.json", &[])
        .respond_with(
            ResponseTemplate::new(200).set_body_string("<?xml version=\"1.0\"?><molecule/>"),
        )
        .mount(&up.chembl)
        .await;
    let client = up.client().await;
    let e = client
        .call_err(
            "chembl_get_compound",
            json!({"chembl_id": "CHEMBL:25", "slim": true}),
        )
        .await;
    assert_eq!(e.code, ErrorCode::UpstreamError);
    assert!(e.message.contains("ChEMBL"), "{}", e.message);
    client.close().await;
}

/// A full record asks for the mechanisms of the compound as a parent and its UniChem
/// records alongside its molecule, not after it: with a slow upstream, all three arrive together and only
/// the targets (named by the mechanisms) wait for an answer.
#[tokio::test]
async fn a_compounds_mechanisms_and_unichem_records_leave_with_its_molecule() {
    let up = Upstreams::start().await;
    let latency = Duration::from_millis(300);
    let slow = |fixture: &str| Recording::new(ok(fixture).set_delay(latency));
    let molecule = slow("molecule__CHEMBL25.json");
    chembl_get("/molecule/CHEMBL25.json", &[])
        .respond_with(molecule.clone())
        .mount(&up.chembl)
        .await;
    let mechanisms = slow("mechanism__molecule_chembl_id=CHEMBL25.json");
    chembl_get(
        "/mechanism.json",
        &[
            ("parent_molecule_chembl_id", "CHEMBL25"),
            ("limit", "1000"),
            ("offset", "0"),
        ],
    )
    .respond_with(mechanisms.clone())
    .mount(&up.chembl)
    .await;
    let targets = slow("target__target_chembl_id__in=CHEMBL221,CHEMBL230.json");
    wiremock::Mock::given(wiremock::matchers::path("/target.json"))
        .respond_with(targets.clone())
        .mount(&up.chembl)
        .await;
    let unichem = slow("unichem_compounds__CHEMBL25.json");
    wiremock::Mock::given(wiremock::matchers::path("/compounds"))
        .respond_with(unichem.clone())
        .mount(&up.unichem)
        .await;
    let client = up.client().await;

    let c = client
        .call_ok("chembl_get_compound", json!({"chembl_id": "CHEMBL:25"}))
        .await;
    assert_eq!(
        c["cross_references"]["uniprot"],
        json!(["P23219", "P35354"])
    );
    assert_eq!(c["cross_references"]["drugbank"], "DB00945");

    let first = molecule.arrivals()[0];
    for (name, recording) in [("mechanisms", &mechanisms), ("UniChem", &unichem)] {
        let at = recording.arrivals()[0];
        let gap = at.max(first) - at.min(first);
        assert!(gap < latency / 2, "{name} asked {gap:?} from the molecule");
    }
    let waited = targets.arrivals()[0] - first;
    assert!(waited >= latency, "targets asked after {waited:?}");
    assert_eq!(molecule.count() + mechanisms.count() + targets.count(), 3);
    client.close().await;
}

/// When the molecule fails, the call fails with its error: what was asked alongside it
/// does not turn the failure into a record.
#[tokio::test]
async fn a_failed_molecule_fails_the_call_whatever_was_asked_alongside() {
    let up = Upstreams::start().await;
    let broken = Recording::new(ResponseTemplate::new(503));
    chembl_get("/molecule/CHEMBL25.json", &[])
        .respond_with(broken.clone())
        .mount(&up.chembl)
        .await;
    crate::support::mount_mechanisms(
        &up,
        "CHEMBL25",
        "mechanism__molecule_chembl_id=CHEMBL25.json",
    )
    .await;
    crate::support::mount_unichem(&up, "CHEMBL25", ok("unichem_compounds__CHEMBL25.json")).await;
    let client = up.client().await;
    let e = client
        .call_err("chembl_get_compound", json!({"chembl_id": "CHEMBL:25"}))
        .await;
    assert_eq!(e.code, ErrorCode::UpstreamError);
    assert!(e.message.contains("503"), "{}", e.message);
    assert_eq!(broken.count(), 4); // the first attempt and three retries
    // The molecule's failure needs no ID lookup: it is not "not found".
    assert!(
        up.chembl_requests("/chembl_id_lookup/CHEMBL25.json")
            .await
            .is_empty()
    );
    client.close().await;
}

#[tokio::test]
async fn a_repeated_lookup_is_served_from_the_cache() {
    let up = Upstreams::start().await;
    mount_molecule(&up, "CHEMBL25", "molecule__CHEMBL25.json").await;
    let client = up.client().await;
    for _ in 0..3 {
        client
            .call_ok(
                "chembl_get_compound",
                json!({"chembl_id": "CHEMBL:25", "slim": true}),
            )
            .await;
    }
    assert_eq!(up.chembl.received_requests().await.unwrap().len(), 1);
    client.close().await;
}
