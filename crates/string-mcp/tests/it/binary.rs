//! The built binary, driven over stdio by a real MCP client.

use lifesciences_core::testing::{
    McpTestClient, assert_binary_speaks_mcp, mock_upstream, run_check,
};
use serde_json::json;
use string_mcp::StringServer;

use crate::support::{TP53, fixture, get};

/// A port nothing listens on: the smoke test must not reach the network.
const CLOSED: &str = "http://127.0.0.1:9";

#[tokio::test]
async fn the_binary_speaks_mcp_over_stdio() {
    let env = [("STRING_API_URL", CLOSED)];
    assert_binary_speaks_mcp::<StringServer>(env!("CARGO_BIN_EXE_string-mcp"), &env).await;
}

#[cfg(unix)]
#[tokio::test]
async fn sigterm_stops_the_stdio_server() {
    let env = [("STRING_API_URL", CLOSED)];
    lifesciences_core::testing::assert_stops_on_sigterm(env!("CARGO_BIN_EXE_string-mcp"), &env)
        .await;
}

/// SIGTERM while a call waits for STRING, which never answers: the call gets its answer,
/// an error saying the server is shutting down, when the 10 s grace period ends, and the
/// process then exits, though its client still holds stdin open.
#[cfg(unix)]
#[tokio::test]
async fn sigterm_answers_the_call_in_flight_before_the_stdio_server_exits() {
    let upstream = mock_upstream().await;
    get("get_string_ids")
        .respond_with(
            fixture("get_string_ids__TP53.json").set_delay(std::time::Duration::from_secs(600)),
        )
        .expect(1)
        .mount(&upstream)
        .await;
    let uri = upstream.uri();
    let answered_after = lifesciences_core::testing::assert_sigterm_answers_the_call_in_flight(
        env!("CARGO_BIN_EXE_string-mcp"),
        &[("STRING_API_URL", uri.as_str())],
        "string_search_proteins",
        json!({"query": "TP53"}),
        &upstream,
    )
    .await;
    assert!(
        answered_after < std::time::Duration::from_secs(12),
        "{answered_after:?}"
    );
}

/// The user's path through the binary (its real configuration: 1 request/s): search
/// TP53, take its CURIE to the interactions, hand over an image link. Each answer says
/// where it came from; STRING's release is asked once, in the background when STRING is
/// idle, within the same budget of one request per second.
#[tokio::test]
async fn the_binary_walks_the_users_path_over_stdio() {
    let upstream = mock_upstream().await;
    get("get_string_ids")
        .respond_with(fixture("get_string_ids__TP53.json"))
        .expect(1)
        .mount(&upstream)
        .await;
    get("interaction_partners")
        .respond_with(fixture("interaction_partners__TP53.json"))
        .expect(1)
        .mount(&upstream)
        .await;
    get("version")
        .respond_with(fixture("version.json"))
        .expect(1)
        .mount(&upstream)
        .await;
    let uri = upstream.uri();
    let env = [
        ("STRING_API_URL", uri.as_str()),
        ("STRING_CALLER_IDENTITY", "binary-test"),
    ];
    let client = McpTestClient::spawn_binary(env!("CARGO_BIN_EXE_string-mcp"), &env).await;

    let page = client
        .call_ok("string_search_proteins", json!({"query": "TP53"}))
        .await;
    let id = page["items"][0]["id"].as_str().unwrap().to_owned();
    assert_eq!(id, TP53);

    // The release is looked up once STRING is idle (its one request per second free),
    // never ahead of a call's request: this answer, asked again from the cache, names it
    // once known.
    let (network, provenance) = client
        .call_ok_once_released(
            "string_get_interactions",
            json!({"string_id": id, "required_score": 700, "limit": 3}),
            "STRING",
        )
        .await;
    assert_eq!(network["total"], 3);
    assert_eq!(network["interactions"][0]["preferred_name_b"], "ATM");
    let string = &provenance["sources"][0];
    assert_eq!(string["database"], "STRING");
    assert_eq!(string["release"], "12.0", "{provenance}");
    let requests = string["requests"].as_array().unwrap();
    assert_eq!(requests.len(), 1, "{provenance}");
    assert!(
        requests[0].as_str().unwrap().starts_with(&format!(
            "{uri}/json/interaction_partners?caller_identity=binary-test&"
        )),
        "{provenance}"
    );

    let image = client
        .call_ok(
            "string_get_network_image_url",
            json!({"identifiers": [id, "MDM2"], "format": "svg"}),
        )
        .await;
    assert_eq!(
        image["url"],
        format!(
            "{uri}/svg/network?caller_identity=binary-test\
             &identifiers=9606.ENSP00000269305%0DMDM2&species=9606"
        )
    );

    let e = client
        .call_err(
            "string_get_interactions",
            json!({"string_id": "9606.ENSP00000269305"}),
        )
        .await;
    assert_eq!(e.recovery_hint, "Use format 'STRING:9606.ENSP00000269305'");
    client.close().await;
}

/// `check` asks STRING for its version (with the caller identity, like every request)
/// and says it is reachable; against a closed port it says why not and exits 1.
#[tokio::test]
async fn check_probes_string_and_says_whether_it_answers() {
    let upstream = mock_upstream().await;
    get("version")
        .and(wiremock::matchers::query_param(
            "caller_identity",
            "lifesciences-mcp",
        ))
        .respond_with(fixture("version.json"))
        .expect(1)
        .mount(&upstream)
        .await;
    let program = env!("CARGO_BIN_EXE_string-mcp");
    let uri = upstream.uri();
    let (code, out) = run_check(program, &[("STRING_API_URL", uri.as_str())]).await;
    assert_eq!(code, Some(0), "{out}");
    assert!(
        out.contains("STRING") && out.contains("/json/version"),
        "{out}"
    );
    assert!(out.contains("All upstreams are reachable."), "{out}");
    let (code, out) = run_check(program, &[("STRING_API_URL", CLOSED)]).await;
    assert_eq!(code, Some(1), "{out}");
    assert!(
        out.contains("NOT reachable") && out.contains("connection refused"),
        "{out}"
    );
}
