//! Where an Ensembl answer came from, as the agent sees it in `provenance`: a gene search
//! reads two sources, Ensembl REST (its release, from `info/data`, looked up in the
//! background and named once known) and EBI Search (no
//! release to name), and names exactly the requests each answered; asked again, the cache
//! answers what it holds (the GETs), with the time the upstreams first sent it.

use ensembl_mcp::EnsemblServer;
use lifesciences_core::McpServer;
use lifesciences_core::testing::{
    McpTestClient, mock_env_with_releases, requests_named, requests_seen,
};
use serde_json::json;

use crate::support::Upstream;

#[tokio::test]
async fn a_gene_search_names_both_sources_and_exactly_what_each_answered() {
    let upstream = Upstream::start().await;
    let (ensembl, ebi) = (upstream.ensembl_url(), upstream.ebi_url());
    let env = mock_env_with_releases(&[
        ("ENSEMBL_API_URL", ensembl.as_str()),
        ("EBI_SEARCH_API_URL", ebi.as_str()),
    ]);
    let client = McpTestClient::connect(EnsemblServer::from_env(&env).unwrap()).await;
    let args = json!({"query": "KRAS", "species": "human"});

    let (_, first) = client
        .call_ok_with_provenance("ensembl_search_genes", args.clone())
        .await;
    let sources = first["sources"].as_array().unwrap();
    let databases: Vec<&str> = sources
        .iter()
        .map(|s| s["database"].as_str().unwrap())
        .collect();
    // Ensembl first: the species is resolved against its list before the search.
    assert_eq!(databases, ["Ensembl", "EBI Search"], "{first:#}");
    // Each with the terms it states and the paper it asks to be cited by.
    assert_eq!(sources[0]["licence"], "LicenseRef-Ensembl");
    assert_eq!(sources[0]["cite"], "doi:10.1093/nar/gkae1071");
    assert_eq!(sources[1]["licence"], "LicenseRef-EMBL-EBI");
    assert_eq!(sources[1]["cite"], "doi:10.1093/nar/gkv316");
    // The release is looked up in the background once Ensembl answered the species and
    // is idle: named if known by the end of the call, never waited for.
    assert!(
        sources[0].get("release").is_none() || sources[0]["release"] == "115",
        "{first:#}"
    );
    assert_eq!(
        sources[1].get("release"),
        None,
        "EBI Search names no release"
    );
    let mut named = requests_named(&first);
    let mut seen = requests_seen(&upstream.mock, &["/ensembl/info/data"]).await;
    named.sort();
    seen.sort();
    assert_eq!(named, seen);
    assert!(
        named
            .iter()
            .any(|r| r.starts_with(&format!("{ebi}/ensembl_gene?"))),
        "{named:?}"
    );

    tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    let (_, again) = client
        .call_ok_once_released("ensembl_search_genes", args, "Ensembl")
        .await;
    assert_eq!(again["sources"][0]["release"], "115");
    assert_eq!(upstream.count("/ensembl/info/data").await, 1);
    for (before, after) in sources.iter().zip(again["sources"].as_array().unwrap()) {
        assert_eq!(after["cached"], true, "{again:#}");
        assert_eq!(after["retrieved_at"], before["retrieved_at"]);
    }
    assert_eq!(requests_named(&again).len(), named.len());
    // The GETs came from the cache; Ensembl's look-up POST is not cached (its POSTs are
    // not declared pure look-ups), so it alone was asked again, on each repeat.
    let gets = |requests: &[String]| requests.iter().filter(|r| !r.starts_with("POST ")).count();
    let now = requests_seen(&upstream.mock, &["/ensembl/info/data"]).await;
    assert_eq!(gets(&now), gets(&seen));
    let posts = seen.len() - gets(&seen);
    assert!(posts > 0 && now.len() > seen.len() && (now.len() - seen.len()) % posts == 0);
    client.close().await;
}
