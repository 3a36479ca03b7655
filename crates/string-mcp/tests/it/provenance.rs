//! Where a STRING answer came from, as the agent sees it in `provenance`: STRING's
//! release, exactly the requests STRING answered (POSTs with their form bodies), and for
//! a repeated call, that the cache answered it and when STRING first did.

use lifesciences_core::McpServer;
use lifesciences_core::testing::{
    McpTestClient, mock_env_with_releases, mock_upstream, requests_named, requests_seen,
};
use serde_json::json;
use string_mcp::StringServer;

use crate::support::{fixture, get, post};

#[tokio::test]
async fn an_enrichment_names_string_12_and_the_two_posts_string_answered() {
    let upstream = mock_upstream().await;
    post("get_string_ids")
        .respond_with(fixture("get_string_ids__set4.json"))
        .expect(1)
        .mount(&upstream)
        .await;
    post("enrichment")
        .respond_with(fixture("enrichment__set4.json"))
        .expect(1)
        .mount(&upstream)
        .await;
    get("version")
        .respond_with(fixture("version.json"))
        .expect(1)
        .mount(&upstream)
        .await;
    let env = mock_env_with_releases(&[("STRING_API_URL", &upstream.uri())]);
    let client = McpTestClient::connect(StringServer::from_env(&env).unwrap()).await;
    let args = json!({"identifiers": ["POSTN", "SERPINB2", "CXCL10", "IFNA1"]});

    let (_, first) = client
        .call_ok_with_provenance("string_get_enrichment", args.clone())
        .await;
    let [string] = first["sources"].as_array().unwrap().as_slice() else {
        panic!("one source: {first:#}")
    };
    assert_eq!(string["database"], "STRING");
    assert_eq!(string["licence"], "CC-BY-4.0");
    assert_eq!(string["cite"], "doi:10.1093/nar/gkae1113");
    assert_eq!(string.get("cached"), None);
    // Exactly what STRING answered, bodies included; not the release look-up.
    let seen = requests_seen(&upstream, &["/json/version"]).await;
    assert_eq!(requests_named(&first), seen);
    assert_eq!(seen.len(), 2);
    assert!(
        seen[0].starts_with(&format!(
            "POST {}/json/get_string_ids?caller_identity=lifesciences-mcp identifiers=POSTN%0DSERPINB2%0DCXCL10%0DIFNA1&species=9606",
            upstream.uri()
        )),
        "{seen:?}"
    );

    tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    let (_, again) = client
        .call_ok_once_released("string_get_enrichment", args, "STRING")
        .await;
    let string_again = &again["sources"][0];
    assert_eq!(string_again["release"], "12.0");
    assert_eq!(string_again["cached"], true);
    assert_eq!(
        string_again["retrieved_at"], string["retrieved_at"],
        "an answer from the cache keeps the time STRING sent it"
    );
    assert_eq!(requests_named(&again), seen);
    assert_eq!(
        requests_seen(&upstream, &[]).await.len(),
        3,
        "nothing asked again"
    );
    client.close().await;
}
