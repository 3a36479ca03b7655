//! Where a cross-database answer came from: `lifesciences_map_ids` calls three servers'
//! tools in one process, and its `provenance` names each database with its release and
//! exactly the requests each answered, in the order each was first asked.

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

    let (_, provenance) = client
        .call_ok_with_provenance("lifesciences_map_ids", json!({"ids": ["ENSG00000141510"]}))
        .await;

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
    let mut named = requests_named(&provenance);
    let mut seen = requests_seen(&upstream, &RELEASES).await;
    named.sort();
    seen.sort();
    assert_eq!(named, seen);
    client.close().await;
}
