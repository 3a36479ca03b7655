//! Where a cross-database answer came from: `lifesciences_map_ids` calls three servers'
//! tools in one process, and its `provenance` names each database with its release (once
//! looked up, in the background) and exactly the requests each answered, in the order each
//! was first asked.

use lifesciences_core::McpServer;
use lifesciences_core::testing::{
    McpTestClient, mock_env_with_releases, mock_upstream, requests_named, requests_seen,
};
use lifesciences_mcp::Gateway;
use serde_json::json;
use wiremock::Mock;
use wiremock::matchers::{method, path};

use crate::map_ids::mount_tp53;
use crate::{env_pairs, fixture};

const RELEASES: [&str; 3] = [
    "/ensembl/info/data",
    "/string/json/version",
    "/chembl/status.json",
];

#[tokio::test]
async fn a_gene_mapped_across_three_databases_names_each_release_and_request() {
    let upstream = mock_upstream().await;
    mount_tp53(&upstream).await;
    for (at, krate, name) in [
        (RELEASES[0], "ensembl-mcp", "info_data.json"),
        (RELEASES[1], "string-mcp", "version.json"),
        (RELEASES[2], "chembl-mcp", "status.json"),
    ] {
        Mock::given(method("GET"))
            .and(path(at))
            .respond_with(fixture(krate, name))
            .expect(1)
            .mount(&upstream)
            .await;
    }
    let pairs = env_pairs(&upstream.uri());
    let pairs: Vec<(&str, &str)> = pairs.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let gateway = Gateway::from_env(&mock_env_with_releases(&pairs)).unwrap();
    let client = McpTestClient::connect(gateway).await;

    let (_, first) = client
        .call_ok_with_provenance("lifesciences_map_ids", json!({"ids": ["ENSG00000141510"]}))
        .await;
    let mut named = requests_named(&first);
    let mut seen = requests_seen(&upstream, &RELEASES).await;
    named.sort();
    seen.sort();
    assert_eq!(named, seen);
    // Each release is looked up in the background and never waited for: the mapping,
    // asked again (from the cache), names all three once they are known.
    let mut provenance = first;
    for _ in 0..250 {
        let released = provenance["sources"]
            .as_array()
            .unwrap()
            .iter()
            .all(|s| s.get("release").is_some());
        if released {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        provenance = client
            .call_ok_with_provenance("lifesciences_map_ids", json!({"ids": ["ENSG00000141510"]}))
            .await
            .1;
    }

    let sources = provenance["sources"].as_array().unwrap();
    let named: Vec<(&str, &str)> = sources
        .iter()
        .map(|s| {
            (
                s["database"].as_str().unwrap(),
                s["release"].as_str().unwrap_or("-"),
            )
        })
        .collect();
    assert_eq!(
        named,
        [
            ("Ensembl", "115"),
            ("STRING", "12.0"),
            ("ChEMBL", "ChEMBL_35")
        ],
        "{provenance:#}"
    );
    let mut again = requests_named(&provenance);
    again.sort();
    assert_eq!(
        again, seen,
        "the repeat names the same requests, from the cache"
    );
    client.close().await;
}
