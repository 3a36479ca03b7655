//! Batch lookup versus sequential lookups: ten compounds fetched with ten
//! `chembl_get_compound` calls, one after the other (what an agent without the batch tool
//! does), against one `chembl_get_compounds_batch` call. Both go through a real MCP client
//! in-process, to a local mock of ChEMBL that adds a realistic latency to every answer,
//! with ChEMBL's production politeness (10 requests/s, 10 in flight) and the cache off so
//! every round pays for its requests.
//!
//! Run: `cargo bench -p chembl-mcp --bench batch` (plain `main`, no criterion). Optional
//! environment: `BENCH_LATENCY_MS` (default 150), `BENCH_ROUNDS` (default 5).
#![expect(
    clippy::print_stdout,
    clippy::unwrap_used,
    reason = "a benchmark prints its numbers and fails loudly"
)]

use std::time::{Duration, Instant};

use chembl_mcp::ChemblServer;
use lifesciences_core::testing::{Fixtures, McpTestClient};
use lifesciences_core::{Env, McpServer};
use serde_json::{Value, json};
use wiremock::matchers::{method, path, path_regex};
use wiremock::{Mock, MockServer, ResponseTemplate};

const COMPOUNDS: u32 = 10;

fn env_or(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// The recorded aspirin record, renumbered: a full-size molecule for every ID.
fn molecule(template: &Value, n: u32) -> Value {
    let mut m = template.clone();
    m["molecule_chembl_id"] = json!(format!("CHEMBL{n}"));
    m
}

fn median(mut samples: Vec<Duration>) -> Duration {
    samples.sort();
    samples[samples.len() / 2]
}

fn main() {
    let latency = Duration::from_millis(env_or("BENCH_LATENCY_MS", 150));
    let rounds = env_or("BENCH_ROUNDS", 5).max(1);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async move {
        let upstream = MockServer::start().await;
        let template = Fixtures::of(env!("CARGO_MANIFEST_DIR")).json("molecule__CHEMBL25.json");
        let ids: Vec<u32> = (1..=COMPOUNDS).map(|i| 1000 + i).collect();
        for n in &ids {
            Mock::given(method("GET"))
                .and(path(format!("/molecule/CHEMBL{n}.json")))
                .respond_with(
                    ResponseTemplate::new(200)
                        .set_body_json(molecule(&template, *n))
                        .set_delay(latency),
                )
                .mount(&upstream)
                .await;
        }
        let list: Vec<Value> = ids.iter().map(|n| molecule(&template, *n)).collect();
        Mock::given(method("GET"))
            .and(path_regex(r"^/molecule\.json$"))
            .respond_with(
                ResponseTemplate::new(200)
                    .set_body_json(json!({"molecules": list, "page_meta": {
                        "limit": COMPOUNDS, "offset": 0, "total_count": COMPOUNDS,
                        "next": null, "previous": null}}))
                    .set_delay(latency),
            )
            .mount(&upstream)
            .await;

        // ChEMBL's production politeness, the cache off. Slim lookups never ask UniChem;
        // point it at a closed port all the same.
        let uri = upstream.uri();
        let env = Env::from_pairs(&[
            ("CHEMBL_API_URL", uri.as_str()),
            ("UNICHEM_API_URL", "http://127.0.0.1:9"),
            ("LIFESCIENCES_CACHE_TTL_SECS", "0"),
        ]);
        let client = McpTestClient::connect(ChemblServer::from_env(&env).unwrap()).await;
        let curies: Vec<String> = ids.iter().map(|n| format!("CHEMBL:{n}")).collect();

        let mut sequential = Vec::new();
        let mut batched = Vec::new();
        for _ in 0..rounds {
            let started = Instant::now();
            for curie in &curies {
                let c = client
                    .call_ok(
                        "chembl_get_compound",
                        json!({"chembl_id": curie, "slim": true}),
                    )
                    .await;
                assert_eq!(c["id"], json!(curie));
            }
            sequential.push(started.elapsed());

            let started = Instant::now();
            let batch = client
                .call_ok("chembl_get_compounds_batch", json!({"chembl_ids": curies}))
                .await;
            batched.push(started.elapsed());
            assert_eq!(batch["found"], COMPOUNDS);
        }
        client.close().await;

        let requests = upstream.received_requests().await.unwrap_or_default();
        let per_round = requests.len() as u64 / rounds;
        let (seq, bat) = (median(sequential), median(batched));
        let reduction = 100.0 * (1.0 - bat.as_secs_f64() / seq.as_secs_f64());
        println!(
            "chembl batch benchmark: {COMPOUNDS} compounds, {} ms upstream latency, \
             10 requests/s, {rounds} rounds (median)",
            latency.as_millis()
        );
        println!(
            "  10 x chembl_get_compound      {:>8.1} ms  ({COMPOUNDS} upstream requests)",
            seq.as_secs_f64() * 1000.0
        );
        println!(
            "  1 x chembl_get_compounds_batch {:>7.1} ms  (1 upstream request)",
            bat.as_secs_f64() * 1000.0
        );
        println!("  upstream requests per round: {per_round}");
        println!("  time saved by the batch: {reduction:.1}% (target > 70%)");
    });
}
