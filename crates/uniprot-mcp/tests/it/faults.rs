//! Every tool under every upstream fault of core's fault matrix (rate limits, server
//! errors, hangs, cut, malformed, HTML, wrong-shape, empty and oversized bodies, redirects
//! to another host): each ends as the right error envelope, and none is cached. The
//! ID-mapping flow meets each fault at each of its later steps too: the job's status and
//! its results.

use std::time::Duration;

use futures::future::join_all;
use lifesciences_core::testing::{Fault, McpTestClient, assert_fault_matrix, faults, quick};
use lifesciences_core::{Env, McpServer};
use serde_json::json;
use uniprot_mcp::UniprotServer;
use wiremock::matchers::path;
use wiremock::{Mock, MockServer};

use crate::support::{answered, fixture, get, post, recorded_url, see_other};

#[tokio::test]
async fn every_tool_answers_every_upstream_fault() {
    assert_fault_matrix::<UniprotServer>(
        &[
            (
                "uniprot_search_proteins",
                json!({"gene": "ADORA1", "organism": "human"}),
            ),
            ("uniprot_get_protein", json!({"ids": ["P30542"]})),
            ("uniprot_get_protein", json!({"ids": ["P30542", "O00115"]})),
            (
                "uniprot_get_features",
                json!({"id": "P30542", "position": 10}),
            ),
            (
                "uniprot_map_ids",
                json!({"ids": ["P99999", "P12345"], "to": "uniprot"}),
            ),
        ],
        &[],
    )
    .await;
}

/// The recorded job (`P99999,P12345` to UniProtKB) and where its finished status leads.
const JOB: &str = "623f038354e6e5883c8be8a2d97284cdd41ed36f";

/// Which step of the flow answers with the fault.
#[derive(Debug, Clone, Copy)]
enum Step {
    Status,
    Results,
}

/// The job is submitted, then `step` answers with `fault` (the steps before it answer as
/// recorded): the call ends as the fault's envelope, naming UniProt, in plain words, and
/// a repeat asks again unless UniProt asked to wait.
async fn flow_under(fault: Fault, step: Step) {
    let mock = MockServer::start().await;
    let base = mock.uri();
    post("/idmapping/run")
        .respond_with(fixture("idmapping_run__P99999_P12345.json"))
        .mount(&mock)
        .await;
    let status = format!("/idmapping/status/{JOB}");
    let results = format!("/idmapping/uniprotkb/results/{JOB}");
    let (faulty, sound) = match step {
        Step::Status => (status.clone(), None),
        Step::Results => (results.clone(), Some(status.clone())),
    };
    if let Some(status) = sound {
        get(&status)
            .respond_with(see_other(
                &recorded_url(
                    "idmapping_status__followed_to_uniprotkb_results.http.json",
                    &base,
                ),
                Some("idmapping_status__FINISHED.json"),
            ))
            .mount(&mock)
            .await;
    }
    Mock::given(path(faulty.clone()))
        .respond_with(fault.answer.clone())
        .mount(&mock)
        .await;
    let env = Env::from_pairs(&[("UNIPROT_API_URL", base.as_str())])
        .with_tuning(|config| quick(config).with_timeout(Duration::from_millis(250)));
    let client = McpTestClient::connect(UniprotServer::from_env(&env).unwrap()).await;
    let what = format!("{step:?} under \"{}\"", fault.name);
    let args = json!({"ids": ["P99999", "P12345"], "to": "uniprot"});
    let asked = || async {
        mock.received_requests()
            .await
            .unwrap_or_default()
            .iter()
            .filter(|r| r.url.path() == faulty)
            .count()
    };
    let mut before = 0;
    for attempt in ["first", "repeated"] {
        let e = tokio::time::timeout(
            Duration::from_secs(10),
            client.call_err("uniprot_map_ids", args.clone()),
        )
        .await
        .unwrap_or_else(|_| panic!("{what}, {attempt}: no answer within 10 s"));
        assert_eq!(e.code, fault.code, "{what}, {attempt}: {}", e.message);
        assert!(e.message.contains("UniProt"), "{what}: {}", e.message);
        for text in [&e.message, &e.recovery_hint] {
            assert!(!text.contains('<'), "{what}: HTML: {text}");
            assert!(
                !text.contains("line 1 column"),
                "{what}: decoder text: {text}"
            );
        }
        if let Some(names) = fault.names {
            assert!(e.message.contains(names), "{what}: {}", e.message);
        }
        let now = asked().await;
        if attempt == "first" || fault.repeat_reaches_upstream {
            assert!(
                now > before,
                "{what}, {attempt}: the faulty step was not asked"
            );
        } else {
            assert_eq!(
                now, before,
                "{what}: asked again though UniProt asked to wait"
            );
        }
        before = now;
    }
    client.close().await;
}

#[tokio::test]
async fn every_step_of_the_id_mapping_flow_answers_every_upstream_fault() {
    let runs = faults()
        .into_iter()
        .flat_map(|fault| [(fault.clone(), Step::Status), (fault, Step::Results)])
        .map(|(fault, step)| flow_under(fault, step));
    join_all(runs).await;
}

/// For the record, the flow's sound path under the same set-up (so the matrix above fails
/// on the fault, not on the set-up): the recorded job's first page.
#[tokio::test]
async fn the_flow_under_the_fault_set_up_succeeds_without_a_fault() {
    let mock = MockServer::start().await;
    let base = mock.uri();
    post("/idmapping/run")
        .respond_with(fixture("idmapping_run__P99999_P12345.json"))
        .mount(&mock)
        .await;
    get(&format!("/idmapping/status/{JOB}"))
        .respond_with(see_other(
            &recorded_url(
                "idmapping_status__followed_to_uniprotkb_results.http.json",
                &base,
            ),
            Some("idmapping_status__FINISHED.json"),
        ))
        .mount(&mock)
        .await;
    get(&format!("/idmapping/uniprotkb/results/{JOB}"))
        .respond_with(answered(
            "idmapping_uniprotkb_results__page1.json",
            "idmapping_uniprotkb_results__page1.http.json",
            &base,
        ))
        .mount(&mock)
        .await;
    let env = Env::from_pairs(&[("UNIPROT_API_URL", base.as_str())]).with_tuning(quick);
    let client = McpTestClient::connect(UniprotServer::from_env(&env).unwrap()).await;
    let page = client
        .call_ok(
            "uniprot_map_ids",
            json!({"ids": ["P99999", "P12345"], "to": "uniprot"}),
        )
        .await;
    assert_eq!(page["mappings"][0]["entry_name"], "CYC_HUMAN");
    client.close().await;
}
