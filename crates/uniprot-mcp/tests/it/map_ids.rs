//! `uniprot_map_ids` as an agent sees it: UniProt's ID-mapping flow with its redirects
//! (the job submitted as a form, its status polled while it runs and read when it
//! redirects, the results read where the redirect leads, the next page by UniProt's
//! `Link`), a job that fails, a job that never finishes in the time allowed, results
//! UniProt no longer keeps, and the requests sent.

use std::time::Duration;

use lifesciences_core::ErrorCode;
use lifesciences_core::testing::Recording;
use serde_json::json;
use wiremock::matchers::query_param;
use wiremock::{MockServer, ResponseTemplate};

use crate::support::{
    answered, error_answer, fixture, form_of, get, pairs, post, query_of, recorded_url, requests,
    requests_to, see_other, setup, setup_with, with_headers,
};

/// The recorded job: `P99999,P12345` from `UniProtKB_AC-ID` to `UniProtKB`.
const JOB: &str = "623f038354e6e5883c8be8a2d97284cdd41ed36f";
/// The recorded job: `P99999,P99998` from `UniProtKB_AC-ID` to `Ensembl`.
const ENSEMBL_JOB: &str = "de23a0319d53da61bfa0e594bb15fefbb754af7c";

/// `POST /idmapping/run` answered with a recorded job and its headers.
async fn mount_run(upstream: &MockServer, body: &str, headers: &str) {
    post("/idmapping/run")
        .respond_with(answered(body, headers, &upstream.uri()))
        .expect(1)
        .mount(upstream)
        .await;
}

/// A finished job's status: `303 See Other` to where the recorded status, its redirect
/// followed, led; the body UniProt documents for it.
fn finished(recording: &str, base: &str) -> ResponseTemplate {
    see_other(
        &recorded_url(recording, base),
        Some("idmapping_status__FINISHED.json"),
    )
}

/// The whole flow: run → status `200 RUNNING` → status `303` → the results it points to
/// (a page of one, with UniProt's `Link` and total) → the next page by that `Link`, which
/// neither submits nor polls again.
#[tokio::test]
async fn a_mapping_runs_is_polled_until_redirected_and_pages_by_uniprot_s_link() {
    let (upstream, client) = setup().await;
    let base = upstream.uri();
    mount_run(
        &upstream,
        "idmapping_run__P99999_P12345.json",
        "idmapping_run__P99999_P12345.http.json",
    )
    .await;
    let status = Recording::sequence(vec![
        fixture("idmapping_status__RUNNING.json"),
        finished(
            "idmapping_status__followed_to_uniprotkb_results.http.json",
            &base,
        ),
    ]);
    get(&format!("/idmapping/status/{JOB}"))
        .respond_with(status.clone())
        .expect(2)
        .mount(&upstream)
        .await;
    let results = format!("/idmapping/uniprotkb/results/{JOB}");
    get(&results)
        .and(query_param("cursor", "j5xqrofo4"))
        .respond_with(answered(
            "idmapping_uniprotkb_results__page2.json",
            "idmapping_uniprotkb_results__page2.http.json",
            &base,
        ))
        .expect(1)
        .mount(&upstream)
        .await;
    get(&results)
        .and(query_param(
            "fields",
            "accession,id,reviewed,gene_primary,organism_id",
        ))
        .respond_with(answered(
            "idmapping_uniprotkb_results__page1.json",
            "idmapping_uniprotkb_results__page1.http.json",
            &base,
        ))
        .expect(1)
        .mount(&upstream)
        .await;
    let args = json!({"ids": ["P99999", "UniProt:P12345"], "to": "uniprot", "limit": 1});

    let first = client.call_ok("uniprot_map_ids", args.clone()).await;

    let run = requests_to(&upstream, "/idmapping/run").await;
    assert_eq!(
        form_of(&run[0]),
        pairs(&[
            ("from", "UniProtKB_AC-ID"),
            ("to", "UniProtKB"),
            ("ids", "P99999,P12345")
        ]),
        "the recorded job's form"
    );
    assert_eq!(status.count(), 2, "polled until it redirected");
    let arrivals = status.arrivals();
    assert!(
        arrivals[1].duration_since(arrivals[0]) >= Duration::from_millis(400),
        "a polite wait between polls"
    );
    let page1 = requests_to(&upstream, &results).await;
    assert_eq!(
        query_of(&page1[0]),
        pairs(&[
            ("size", "1"),
            ("fields", "accession,id,reviewed,gene_primary,organism_id")
        ])
    );
    assert_eq!(
        first["mappings"],
        json!([{"from": "P99999", "to": "P99999", "entry_name": "CYC_HUMAN", "gene": "CYCS"}])
    );
    assert_eq!(
        (&first["from"], &first["to"]),
        (&json!("uniprot"), &json!("uniprot"))
    );
    assert_eq!(first["pagination"]["total_count"], 2);
    assert_eq!(first["pagination"]["page_size"], 1);

    let mut next = args.clone();
    next["cursor"] = first["pagination"]["cursor"].clone();
    let second = client.call_ok("uniprot_map_ids", next).await;

    assert_eq!(
        second["mappings"],
        json!([{"from": "P12345", "to": "P12345", "entry_name": "AATM_RABIT", "gene": "GOT2"}])
    );
    assert_eq!(
        second["pagination"],
        json!({"cursor": null, "total_count": 2, "page_size": 1})
    );
    let followed = requests_to(&upstream, &results).await;
    assert_eq!(
        followed[1].url.query(),
        Some("format=tsv&fields=accession,id,gene_primary&cursor=j5xqrofo4&size=1"),
        "the Link as UniProt gave it"
    );
    assert_eq!(
        requests(&upstream).await.len(),
        5,
        "run, two polls, two pages: the next page neither submits nor polls"
    );
    client.close().await;
}

/// To Ensembl: a job already finished redirects at the first poll, to `/idmapping/results`;
/// Ensembl IDs lose their versions, and one accession may map to several genes.
#[tokio::test]
async fn to_ensembl_the_results_are_unversioned_ids_and_one_may_map_to_several() {
    let (upstream, client) = setup().await;
    let base = upstream.uri();
    mount_run(
        &upstream,
        "idmapping_run__P99999_P99998.json",
        "idmapping_run__P99999_P99998.http.json",
    )
    .await;
    get(&format!("/idmapping/status/{ENSEMBL_JOB}"))
        .respond_with(finished(
            "idmapping_status__followed_to_results.http.json",
            &base,
        ))
        .expect(1)
        .mount(&upstream)
        .await;
    get(&format!("/idmapping/results/{ENSEMBL_JOB}"))
        .respond_with(answered(
            "idmapping_results__to_Ensembl.json",
            "idmapping_status__followed_to_results.http.json",
            &base,
        ))
        .expect(1)
        .mount(&upstream)
        .await;

    let result = client
        .call_ok(
            "uniprot_map_ids",
            json!({"ids": "P99999, P99998", "to": "ensembl"}),
        )
        .await;

    assert_eq!(
        result["mappings"],
        json!([
            {"from": "P99999", "to": "ENSG00000172115"},
            {"from": "P99998", "to": "ENSPTRG00000018996"},
            {"from": "P99998", "to": "ENSPTRG00000043922"}
        ])
    );
    assert_eq!(
        result["pagination"],
        json!({"cursor": null, "total_count": 3, "page_size": 100})
    );
    let page = requests_to(&upstream, &format!("/idmapping/results/{ENSEMBL_JOB}")).await;
    assert_eq!(
        query_of(&page[0]),
        pairs(&[("size", "100")]),
        "no entry fields"
    );
    client.close().await;
}

/// A job UniProt ran and failed (`500 {"jobStatus": "ERROR"}`) is UPSTREAM_ERROR saying
/// so, and no results are asked.
#[tokio::test]
async fn a_job_that_fails_is_an_upstream_error_saying_so() {
    let (upstream, client) = setup().await;
    mount_run(
        &upstream,
        "idmapping_run__P99999_P12345.json",
        "idmapping_run__P99999_P12345.http.json",
    )
    .await;
    get(&format!("/idmapping/status/{JOB}"))
        .respond_with(error_answer(500, "idmapping_status__ERROR.json"))
        .mount(&upstream)
        .await;

    let e = client
        .call_err(
            "uniprot_map_ids",
            json!({"ids": ["P99999", "P12345"], "to": "uniprot"}),
        )
        .await;

    assert_eq!(e.code, ErrorCode::UpstreamError);
    assert_eq!(
        e.message,
        format!("UniProt's ID-mapping job {JOB} failed (status ERROR).")
    );
    assert!(
        e.recovery_hint.contains("call again"),
        "{}",
        e.recovery_hint
    );
    assert!(
        requests(&upstream)
            .await
            .iter()
            .all(|r| !r.contains("/results/")),
        "no results asked"
    );
    client.close().await;
}

/// A job still running when `UNIPROT_MAPPING_WAIT_SECS` (here 1 s) is up: polled at once
/// and after each wait within it, then UPSTREAM_ERROR saying to call again.
#[tokio::test]
async fn a_job_that_never_finishes_in_the_time_allowed_is_an_upstream_error() {
    let (upstream, client) = setup_with(&[("UNIPROT_MAPPING_WAIT_SECS", "1")]).await;
    mount_run(
        &upstream,
        "idmapping_run__P99999_P12345.json",
        "idmapping_run__P99999_P12345.http.json",
    )
    .await;
    let status = Recording::new(fixture("idmapping_status__RUNNING.json"));
    get(&format!("/idmapping/status/{JOB}"))
        .respond_with(status.clone())
        .mount(&upstream)
        .await;

    let started = std::time::Instant::now();
    let e = client
        .call_err(
            "uniprot_map_ids",
            json!({"ids": ["P99999", "P12345"], "to": "uniprot"}),
        )
        .await;
    let took = started.elapsed();

    assert_eq!(e.code, ErrorCode::UpstreamError);
    assert_eq!(
        e.message,
        format!("UniProt's ID-mapping job {JOB} was still running after 1 s.")
    );
    assert!(
        e.recovery_hint.contains("same arguments"),
        "{}",
        e.recovery_hint
    );
    assert_eq!(status.count(), 3, "at once, after 0.5 s, at 1 s");
    assert!(
        took >= Duration::from_secs(1) && took < Duration::from_secs(5),
        "{took:?}"
    );
    client.close().await;
}

/// A next page whose results UniProt no longer keeps (404) says to run the mapping again.
#[tokio::test]
async fn results_uniprot_no_longer_keeps_say_to_map_again() {
    let (upstream, client) = setup().await;
    let base = upstream.uri();
    mount_run(
        &upstream,
        "idmapping_run__P99999_P12345.json",
        "idmapping_run__P99999_P12345.http.json",
    )
    .await;
    get(&format!("/idmapping/status/{JOB}"))
        .respond_with(finished(
            "idmapping_status__followed_to_uniprotkb_results.http.json",
            &base,
        ))
        .mount(&upstream)
        .await;
    let results = format!("/idmapping/uniprotkb/results/{JOB}");
    get(&results)
        .and(query_param("cursor", "j5xqrofo4"))
        .respond_with(error_answer(404, "error_404__P99997.json"))
        .mount(&upstream)
        .await;
    get(&results)
        .respond_with(with_headers(
            fixture("idmapping_uniprotkb_results__page1.json"),
            "idmapping_uniprotkb_results__page1.http.json",
            &base,
        ))
        .mount(&upstream)
        .await;
    let args = json!({"ids": ["P99999", "P12345"], "to": "uniprot", "limit": 1});
    let first = client.call_ok("uniprot_map_ids", args.clone()).await;
    let mut next = args;
    next["cursor"] = first["pagination"]["cursor"].clone();

    let e = client.call_err("uniprot_map_ids", next).await;

    assert_eq!(e.code, ErrorCode::EntityNotFound);
    assert_eq!(
        e.message,
        "UniProt no longer has the results of this mapping."
    );
    assert!(
        e.recovery_hint.contains("without 'cursor'"),
        "{}",
        e.recovery_hint
    );
    client.close().await;
}

/// Pairs UniProt cannot map, an organism with anything but gene names, or too many IDs
/// are refused before any request, saying what to do instead.
#[tokio::test]
async fn mappings_uniprot_cannot_do_are_refused_before_any_request() {
    let (upstream, client) = setup().await;
    let e = client
        .call_err(
            "uniprot_map_ids",
            json!({"ids": ["ENSG00000163485"], "from": "ensembl", "to": "pdb"}),
        )
        .await;
    assert_eq!(e.code, ErrorCode::InvalidInput);
    assert!(
        e.recovery_hint
            .contains("map ensembl → uniprot, then uniprot → pdb"),
        "{}",
        e.recovery_hint
    );
    let too_many: Vec<String> = (0..1001).map(|n| format!("P{n:05}")).collect();
    for args in [
        json!({"ids": ["P30542"], "to": "ensembl", "organism": 9606}),
        json!({"ids": ["CDC28"], "from": "gene_name", "organism": "Saccharomyces cerevisiae"}),
        json!({"ids": ["P30542"]}),
        json!({"ids": ["P30542"], "to": "interpro"}),
        json!({"ids": too_many, "to": "ensembl"}),
    ] {
        let e = client.call_err("uniprot_map_ids", args.clone()).await;
        assert_eq!(e.code, ErrorCode::InvalidInput, "{args}: {}", e.message);
    }
    assert!(requests(&upstream).await.is_empty());
    client.close().await;
}
