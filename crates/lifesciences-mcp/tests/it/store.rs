//! The built gateway with the store every process of a user shares (the default, here in
//! a test folder): an answer one process fetched is answered by the next process with no
//! upstream request, and offline from the store alone.

use lifesciences_core::testing::{McpTestClient, TempFolder, mock_upstream, requests_seen};
use serde_json::json;
use wiremock::Mock;
use wiremock::matchers::{method, path};

use crate::map_ids::mount_tp53;
use crate::{env_pairs, fixture};

const PROGRAM: &str = env!("CARGO_BIN_EXE_lifesciences-mcp");

/// The sources' releases, asked once a day by each process (each is one more request).
const RELEASES: [(&str, &str, &str); 3] = [
    ("/ensembl/info/data", "ensembl-mcp", "info_data.json"),
    ("/string/json/version", "string-mcp", "version.json"),
    ("/chembl/status.json", "chembl-mcp", "status.json"),
];

/// The provenance of `lifesciences_map_ids` for TP53, from a new gateway process with
/// `extra` variables over the mock at `uri`.
async fn map_tp53(uri: &str, extra: &[(&str, &str)]) -> Vec<serde_json::Value> {
    let pairs = env_pairs(uri);
    let mut env: Vec<(&str, &str)> = pairs.iter().map(|(k, v)| (*k, v.as_str())).collect();
    env.extend_from_slice(extra);
    let client = McpTestClient::spawn_binary(PROGRAM, &env).await;
    let (mapped, provenance) = client
        .call_ok_with_provenance("lifesciences_map_ids", json!({"ids": ["ENSG00000141510"]}))
        .await;
    assert_eq!(mapped["results"][0]["input"], "ENSG00000141510", "{mapped}");
    client.close().await;
    provenance["sources"].as_array().unwrap().clone()
}

#[tokio::test]
async fn a_second_process_answers_from_the_store_and_so_does_an_offline_one() {
    let upstream = mock_upstream().await;
    mount_tp53(&upstream).await;
    for (at, krate, name) in RELEASES {
        Mock::given(method("GET"))
            .and(path(at))
            .respond_with(fixture(krate, name))
            .mount(&upstream)
            .await;
    }
    let folder = TempFolder::new("gateway-store").unwrap();
    let dir = folder.path().display().to_string();
    let store = [("LIFESCIENCES_CACHE_DIR", dir.as_str())];

    let first = map_tp53(&upstream.uri(), &store).await;
    let asked = requests_seen(&upstream, &[]).await;
    assert!(first.iter().all(|s| s.get("cached").is_none()), "{first:?}");
    assert!(asked.len() >= 3, "{asked:?}");

    let second = map_tp53(&upstream.uri(), &store).await;
    assert_eq!(
        requests_seen(&upstream, &[]).await,
        asked,
        "the second process asked nothing upstream, its releases included"
    );
    for (before, after) in first.iter().zip(&second) {
        assert_eq!(after["database"], before["database"]);
        assert_eq!(after["requests"], before["requests"]);
        assert_eq!(after["retrieved_at"], before["retrieved_at"], "{after}");
        assert_eq!(after["cached"], true, "{after}");
    }

    let offline = [
        ("LIFESCIENCES_CACHE_DIR", dir.as_str()),
        ("LIFESCIENCES_OFFLINE", "1"),
    ];
    let third = map_tp53(&upstream.uri(), &offline).await;
    assert_eq!(requests_seen(&upstream, &[]).await, asked);
    assert_eq!(third.len(), first.len());
    assert!(
        third
            .iter()
            .all(|s| s["offline"] == true && s["cached"] == true),
        "{third:?}"
    );
}
