//! The built binary, driven over stdio by a real MCP client.

use chembl_mcp::ChemblServer;
use lifesciences_core::testing::{McpTestClient, assert_binary_speaks_mcp, run_check};
use serde_json::json;

use crate::support::{Upstreams, chembl_get, ok};

/// A port nothing listens on: the smoke test must not reach the network.
const CLOSED: &str = "http://127.0.0.1:9";

#[tokio::test]
async fn the_binary_speaks_mcp_over_stdio() {
    let env = [("CHEMBL_API_URL", CLOSED), ("UNICHEM_API_URL", CLOSED)];
    assert_binary_speaks_mcp::<ChemblServer>(env!("CARGO_BIN_EXE_chembl-mcp"), &env).await;
}

#[cfg(unix)]
#[tokio::test]
async fn sigterm_stops_the_stdio_server() {
    let env = [("CHEMBL_API_URL", CLOSED), ("UNICHEM_API_URL", CLOSED)];
    lifesciences_core::testing::assert_stops_on_sigterm(env!("CARGO_BIN_EXE_chembl-mcp"), &env)
        .await;
}

#[tokio::test]
async fn the_binary_searches_and_rejects_over_stdio() {
    let up = Upstreams::start().await;
    chembl_get(
        "/molecule/search.json",
        &[("q", "imatinib"), ("limit", "5"), ("offset", "0")],
    )
    .respond_with(ok("molecule_search__q=imatinib.json"))
    .expect(1)
    .mount(&up.chembl)
    .await;
    crate::support::mount_status(&up).await;
    let chembl = up.chembl.uri();
    let unichem = up.unichem.uri();
    let env = [
        ("CHEMBL_API_URL", chembl.as_str()),
        ("UNICHEM_API_URL", unichem.as_str()),
    ];
    let client = McpTestClient::spawn_binary(env!("CARGO_BIN_EXE_chembl-mcp"), &env).await;
    let (page, provenance) = client
        .call_ok_once_released(
            "chembl_search_compounds",
            json!({"query": "imatinib", "page_size": 5}),
            "ChEMBL",
        )
        .await;
    assert_eq!(page["items"][0]["id"], "CHEMBL:941");
    // The release ChEMBL's status page names (looked up in the background, named once
    // known; the repeats came from the cache), and the one search it answered.
    assert_eq!(
        provenance,
        json!({"sources": [{
            "database": "ChEMBL", "release": "ChEMBL_35",
            "licence": "CC-BY-SA-3.0", "cite": "doi:10.1093/nar/gkad1004",
            "requests": [format!("{chembl}/molecule/search.json?q=imatinib&limit=5&offset=0")],
            "retrieved_at": provenance["sources"][0]["retrieved_at"],
            "cached": provenance["sources"][0]["cached"]
        }]})
    );
    let e = client
        .call_err("chembl_get_compound", json!({"chembl_id": "CHEMBL941"}))
        .await;
    assert_eq!(e.recovery_hint, "Use format 'CHEMBL:941'");
    client.close().await;
}

#[tokio::test]
async fn the_binary_pauses_a_hanging_unichem_after_one_timeout() {
    let up = Upstreams::start().await;
    crate::support::mount_molecule(&up, "CHEMBL25", "molecule__CHEMBL25.json").await;
    crate::support::mount_mechanisms(&up, "CHEMBL25", "mechanism__empty.json").await;
    crate::support::mount_status(&up).await;
    crate::support::mount_unichem(
        &up,
        "CHEMBL25",
        ok("unichem_compounds__CHEMBL25.json").set_delay(std::time::Duration::from_secs(30)),
    )
    .await;
    let chembl = up.chembl.uri();
    let unichem = up.unichem.uri();
    // Production configuration from the environment, with a short UniChem timeout.
    let env = [
        ("CHEMBL_API_URL", chembl.as_str()),
        ("UNICHEM_API_URL", unichem.as_str()),
        ("UNICHEM_TIMEOUT_SECS", "0.5"),
    ];
    let client = McpTestClient::spawn_binary(env!("CARGO_BIN_EXE_chembl-mcp"), &env).await;
    for _ in 0..3 {
        let c = client
            .call_ok("chembl_get_compound", json!({"chembl_id": "CHEMBL:25"}))
            .await;
        assert_eq!(
            c["cross_references"],
            json!({"chembl": "CHEMBL25",
            "pubchem_substance": c["cross_references"]["pubchem_substance"]})
        );
    }
    // One attempt (no retry), then UniChem is paused for the following lookups.
    assert_eq!(up.unichem_requests().await.len(), 1);
    client.close().await;
}

/// `check` asks ChEMBL for its status page and UniChem for one source, once each, and
/// says both answer. (Check reads only the status, so the bodies here are minimal.)
#[tokio::test]
async fn check_probes_chembl_and_unichem() {
    use wiremock::matchers::{method, path};
    use wiremock::{Mock, ResponseTemplate};
    let up = Upstreams::start().await;
    Mock::given(method("GET"))
        .and(path("/status.json"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({"status": "UP"})))
        .expect(1)
        .mount(&up.chembl)
        .await;
    Mock::given(method("GET"))
        .and(path("/sources/1"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!([])))
        .expect(1)
        .mount(&up.unichem)
        .await;
    let (chembl, unichem) = (up.chembl.uri(), up.unichem.uri());
    let (code, out) = run_check(
        env!("CARGO_BIN_EXE_chembl-mcp"),
        &[
            ("CHEMBL_API_URL", chembl.as_str()),
            ("UNICHEM_API_URL", unichem.as_str()),
        ],
    )
    .await;
    assert_eq!(code, Some(0), "{out}");
    assert!(out.contains("ChEMBL") && out.contains("UniChem"), "{out}");
    assert!(out.contains("All upstreams are reachable."), "{out}");
}
