//! Streamable HTTP for a fleet behind a load balancer: stateless serving, where any
//! replica answers any request, and `/health` reporting the shared store.

use std::sync::Arc;
use std::time::Duration;

use lifesciences_core::serve::{self, HttpOptions};
use lifesciences_core::store::Shared;
use lifesciences_core::testing::{TestServer, mock_upstream};
use wiremock::matchers::path;
use wiremock::{Mock, ResponseTemplate};

use super::transport::{INITIALIZE, post, raw_http, session_id};

fn stateless() -> HttpOptions {
    let mut options = HttpOptions::new("127.0.0.1:0");
    options.stateless = true;
    options
}

/// The head of an HTTP response, lower-cased, and its body.
fn split(response: &str) -> (String, &str) {
    let (head, body) = response.split_once("\r\n\r\n").unwrap();
    (head.to_ascii_lowercase(), body)
}

#[tokio::test]
async fn stateless_replicas_answer_any_request_without_a_session() {
    let upstream = mock_upstream().await;
    Mock::given(path("/items/42"))
        .respond_with(ResponseTemplate::new(200).set_body_json(serde_json::json!({"number": 42})))
        .expect(1)
        .mount(&upstream)
        .await;
    // Two replicas that share nothing.
    let first = serve::start_http(TestServer::for_mock(&upstream.uri()), stateless())
        .await
        .unwrap();
    let second = serve::start_http(TestServer::for_mock(&upstream.uri()), stateless())
        .await
        .unwrap();
    let (one, two) = (first.local_addr, second.local_addr);

    // The first answers `initialize` as plain JSON, and opens no session.
    let init = raw_http(one, post(one, None, INITIALIZE)).await;
    let (head, body) = split(&init);
    assert!(head.starts_with("http/1.1 200"), "{init}");
    assert!(head.contains("content-type: application/json"), "{init}");
    assert_eq!(session_id(&init), None, "no Mcp-Session-Id: {init}");
    let body: serde_json::Value = serde_json::from_str(body).unwrap();
    assert_eq!(body["result"]["serverInfo"]["name"], "items-mcp", "{body}");

    // The second takes everything after it, without a session header.
    let initialized = r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;
    let accepted = raw_http(two, post(two, None, initialized)).await;
    assert!(accepted.starts_with("HTTP/1.1 202"), "{accepted}");
    let listed = raw_http(
        two,
        post(
            two,
            None,
            r#"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#,
        ),
    )
    .await;
    let (head, body) = split(&listed);
    assert!(
        head.starts_with("http/1.1 200") && head.contains("application/json"),
        "{listed}"
    );
    let tools: serde_json::Value = serde_json::from_str(body).unwrap();
    assert!(
        tools["result"]["tools"]
            .as_array()
            .unwrap()
            .iter()
            .any(|t| t["name"] == "items_get_item"),
        "{tools}"
    );
    let call = r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"items_get_item","arguments":{"item_id":"ITEM:42"}}}"#;
    let called = raw_http(two, post(two, None, call)).await;
    let (head, body) = split(&called);
    assert!(head.starts_with("http/1.1 200"), "{called}");
    let result: serde_json::Value = serde_json::from_str(body).unwrap();
    assert_eq!(result["id"], 3, "{result}");
    assert_eq!(
        result["result"]["structuredContent"]["id"], "ITEM:42",
        "{result}"
    );
    assert_eq!(session_id(&called), None, "{called}");
    assert_eq!(second.session_counts().await, (0, 0));

    // No session to end, and no stream to open: 405, as the transport specification allows.
    let get = format!(
        "GET /mcp HTTP/1.1\r\nHost: {two}\r\nAccept: text/event-stream\r\nConnection: close\r\n\r\n"
    );
    assert!(raw_http(two, get).await.starts_with("HTTP/1.1 405"));
    first.shutdown(Duration::from_secs(1)).await;
    second.shutdown(Duration::from_secs(1)).await;
}

#[tokio::test]
async fn stateless_a_call_that_logs_is_answered_as_a_short_event_stream() {
    let upstream = mock_upstream().await;
    // A cross-reference value that is not a UniProt accession: dropped, with a warning,
    // which a client hears at the default level.
    Mock::given(path("/items/43"))
        .respond_with(
            ResponseTemplate::new(200)
                .set_body_json(serde_json::json!({"number": 43, "uniprot": ["not valid!"]})),
        )
        .expect(1)
        .mount(&upstream)
        .await;
    let running = serve::start_http(TestServer::for_mock(&upstream.uri()), stateless())
        .await
        .unwrap();
    let addr = running.local_addr;
    let call = r#"{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"items_get_item","arguments":{"item_id":"ITEM:43"}}}"#;
    let called = raw_http(addr, post(addr, None, call)).await;
    let (head, body) = split(&called);
    assert!(head.contains("content-type: text/event-stream"), "{called}");
    let messages: Vec<serde_json::Value> = body
        .lines()
        .filter_map(|l| l.strip_prefix("data:"))
        .filter(|d| !d.trim().is_empty())
        .map(|d| serde_json::from_str(d.trim()).unwrap())
        .collect();
    assert_eq!(messages.len(), 2, "{called}");
    assert_eq!(messages[0]["method"], "notifications/message", "{called}");
    assert_eq!(messages[0]["params"]["level"], "warning", "{called}");
    assert_eq!(messages[1]["id"], 4, "{called}");
    assert_eq!(
        messages[1]["result"]["structuredContent"]["id"], "ITEM:43",
        "{called}"
    );
    running.shutdown(Duration::from_secs(1)).await;
}

#[tokio::test]
async fn stateless_still_refuses_bodies_that_are_not_messages_and_oversized_ones() {
    let mut options = stateless();
    options.max_request_body_bytes = 1024;
    let running = serve::start_http(TestServer::for_mock("http://127.0.0.1:9"), options)
        .await
        .unwrap();
    let addr = running.local_addr;
    let truncated = raw_http(
        addr,
        post(addr, None, r#"{"jsonrpc":"2.0","id":1,"method":"#),
    )
    .await;
    assert!(truncated.starts_with("HTTP/1.1 400"), "{truncated}");
    assert!(truncated.contains(r#""code":-32700"#), "{truncated}");
    let big = format!(
        r#"{{"jsonrpc":"2.0","id":1,"method":"ping","params":{{"x":"{}"}}}}"#,
        "x".repeat(2048)
    );
    let refused = raw_http(addr, post(addr, None, &big)).await;
    assert!(refused.starts_with("HTTP/1.1 413"), "{refused}");
    // A request id reused at once is no one's business without sessions: both answered.
    let ping = r#"{"jsonrpc":"2.0","id":9,"method":"ping"}"#;
    let (a, b) = tokio::join!(
        raw_http(addr, post(addr, Some("any"), ping)),
        raw_http(addr, post(addr, Some("any"), ping))
    );
    assert!(
        a.starts_with("HTTP/1.1 200") && b.starts_with("HTTP/1.1 200"),
        "{a}\n{b}"
    );
    running.shutdown(Duration::from_secs(1)).await;
}

#[tokio::test]
async fn health_reports_the_store_the_sources_share() {
    let mut options = HttpOptions::new("127.0.0.1:0");
    options.store = Some(Arc::new(Shared::memory()));
    let running = serve::start_http(TestServer::for_mock("http://127.0.0.1:9"), options)
        .await
        .unwrap();
    let addr = running.local_addr;
    let health = raw_http(
        addr,
        format!("GET /health HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"),
    )
    .await;
    let (head, body) = split(&health);
    assert!(head.starts_with("http/1.1 200"), "{health}");
    let body: serde_json::Value = serde_json::from_str(body).unwrap();
    assert_eq!(body["status"], "ok", "{body}");
    assert_eq!(
        body["store"],
        serde_json::json!({"kind": "memory", "peers": 1, "offline": false}),
        "{body}"
    );
    running.shutdown(Duration::from_secs(1)).await;
}
