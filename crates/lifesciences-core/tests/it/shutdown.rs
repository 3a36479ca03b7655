//! A shutdown answers every tool call: the calls in flight get the grace period to finish
//! with their own answer; each still waiting for its upstream after it, and each arriving
//! meanwhile, gets an error result saying the server is shutting down, over stdio and
//! over HTTP (with sessions and stateless); then the server stops.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use lifesciences_core::Served;
use lifesciences_core::serve::{self, HttpOptions};
use lifesciences_core::testing::{TestServer, mock_upstream};
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt as _, AsyncWriteExt as _, BufReader};
use wiremock::matchers::path;
use wiremock::{Mock, MockServer, ResponseTemplate};

use super::transport::{INITIALIZE, open_session, post, raw_http};

/// The envelope of a call the shutdown stopped, as the agent reads it.
fn shutting_down() -> Value {
    json!({"success": false, "error": {
        "code": "UPSTREAM_ERROR",
        "message": "This server is shutting down and stopped the call before the upstream answered.",
        "recovery_hint": "Call the tool again with the same arguments: a restarted server, or another replica of it, will take the call."
    }})
}

/// The envelope of a JSON-RPC answer to `tools/call` that is an error result, checked to
/// be the envelope alone, as text.
fn envelope_of(answer: &Value) -> Value {
    let result = &answer["result"];
    assert_eq!(result["isError"], true, "{answer}");
    assert!(result.get("structuredContent").is_none(), "{answer}");
    let content = result["content"].as_array().unwrap();
    assert_eq!(content.len(), 1, "{answer}");
    serde_json::from_str(content[0]["text"].as_str().unwrap()).unwrap()
}

/// An upstream whose item 42 never answers (within any test) and whose item 7 answers
/// after 300 ms; each asked at most once. Any other request fails the test.
async fn hanging_upstream() -> MockServer {
    let upstream = mock_upstream().await;
    Mock::given(path("/items/42"))
        .respond_with(
            ResponseTemplate::new(200)
                .set_body_json(json!({"number": 42}))
                .set_delay(Duration::from_secs(600)),
        )
        .expect(1)
        .mount(&upstream)
        .await;
    Mock::given(path("/items/7"))
        .respond_with(
            ResponseTemplate::new(200)
                .set_body_json(json!({"number": 7}))
                .set_delay(Duration::from_millis(300)),
        )
        .expect(0..=1)
        .mount(&upstream)
        .await;
    upstream
}

/// Wait until `upstream` has received `count` requests: the calls are in flight.
async fn asked(upstream: &MockServer, count: usize) {
    tokio::time::timeout(Duration::from_secs(5), async {
        while upstream.received_requests().await.unwrap_or_default().len() < count {
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    })
    .await
    .expect("the calls reached the upstream");
}

fn call(id: u32, item: u32) -> String {
    json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
           "params": {"name": "items_get_item", "arguments": {"item_id": format!("ITEM:{item}")}}})
    .to_string()
}

#[tokio::test]
async fn over_stdio_a_shutdown_answers_every_call_once_then_the_session_ends() {
    let upstream = hanging_upstream().await;
    let grace = Duration::from_secs(1);
    let (ours, theirs) = tokio::io::duplex(1 << 16);
    let (read, write) = tokio::io::split(theirs);
    let (read, write, written) = serve::lines::guard(read, write);
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let server = tokio::spawn(serve::serve_io(
        Served::new(TestServer::for_mock(&upstream.uri())),
        read,
        write,
        async {
            let _ = stopped.await;
        },
        grace,
    ));
    let (reader, mut writer) = tokio::io::split(ours);
    let mut lines = BufReader::new(reader).lines();
    for line in [
        INITIALIZE.to_owned(),
        r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#.to_owned(),
        call(2, 42),
        call(3, 7),
    ] {
        writer.write_all(line.as_bytes()).await.unwrap();
        writer.write_all(b"\n").await.unwrap();
    }
    asked(&upstream, 2).await;

    let began = Instant::now();
    stop.send(()).unwrap();
    // Sent while the server stops: answered at once, its upstream never asked (the mock
    // fails the test on a request for item 8).
    writer.write_all(call(4, 8).as_bytes()).await.unwrap();
    writer.write_all(b"\n").await.unwrap();

    let mut answers: Vec<(Value, Duration)> = Vec::new();
    let calls = |answers: &[(Value, Duration)]| {
        answers
            .iter()
            .filter(|(a, _)| [2, 3, 4].contains(&a["id"].as_i64().unwrap_or(0)))
            .count()
    };
    while calls(&answers) < 3 {
        let line = tokio::time::timeout(Duration::from_secs(10), lines.next_line())
            .await
            .expect("every call answered in time")
            .unwrap()
            .expect("stdout open until every call is answered");
        answers.push((serde_json::from_str(&line).unwrap(), began.elapsed()));
    }
    tokio::time::timeout(Duration::from_secs(5), server)
        .await
        .expect("the session ends once every call is answered")
        .unwrap()
        .unwrap();
    tokio::time::timeout(Duration::from_secs(1), written)
        .await
        .expect("the guard wrote rmcp's last line");
    // Closing stdin ends the guard, and with it stdout: nothing more was written.
    writer.shutdown().await.unwrap();
    drop(writer);
    while let Some(line) = lines.next_line().await.unwrap() {
        answers.push((serde_json::from_str(&line).unwrap(), began.elapsed()));
    }

    // Notifications (no `id`) aside, one answer per request.
    let answered: Vec<&(Value, Duration)> = answers
        .iter()
        .filter(|(a, _)| a.get("id").is_some())
        .collect();
    let by_id: HashMap<i64, &(Value, Duration)> = answered
        .iter()
        .map(|answer| (answer.0["id"].as_i64().unwrap(), *answer))
        .collect();
    assert_eq!(
        by_id.len(),
        answered.len(),
        "one answer per call: {answers:?}"
    );
    assert_eq!(by_id.len(), 4, "{answers:?}");
    let (stopped_call, stopped_at) = by_id[&2];
    let (finished, _) = by_id[&3];
    let (refused, refused_at) = by_id[&4];
    // The call that finishes within the grace period keeps its answer.
    assert_eq!(
        finished["result"]["structuredContent"]["id"], "ITEM:7",
        "{finished}"
    );
    // The one still waiting is answered when the grace period ends, not before.
    assert_eq!(envelope_of(stopped_call), shutting_down());
    assert!(*stopped_at >= grace, "answered after {stopped_at:?}");
    // The one that came during the shutdown is answered first.
    assert_eq!(envelope_of(refused), shutting_down());
    assert!(refused_at < stopped_at, "{answers:?}");
}

/// A call waiting for its upstream over HTTP when the shutdown begins: answered when the
/// grace period ends, after which the server stops. A new connection meanwhile is
/// refused, which a client or a load balancer takes to another server.
async fn over_http_the_call_in_flight_is_answered(mut options: HttpOptions) {
    let upstream = hanging_upstream().await;
    let grace = Duration::from_millis(500);
    let stateless = options.stateless;
    options.addr = "127.0.0.1:0".into();
    let running = serve::start_http(TestServer::for_mock(&upstream.uri()), options)
        .await
        .unwrap();
    let addr = running.local_addr;
    let session = if stateless {
        None
    } else {
        Some(open_session(addr).await)
    };
    let request = post(addr, session.as_deref(), &call(2, 42));
    let answer = tokio::spawn(raw_http(addr, request));
    asked(&upstream, 1).await;

    let began = Instant::now();
    let stopping = async {
        running.shutdown(grace).await;
        began.elapsed()
    };
    let refused = async {
        tokio::time::timeout(Duration::from_secs(1), async {
            while tokio::net::TcpStream::connect(addr).await.is_ok() {
                tokio::time::sleep(Duration::from_millis(10)).await;
            }
        })
        .await
        .is_ok()
    };
    let (took, refused) = tokio::join!(stopping, refused);
    assert!(
        refused,
        "a new connection is refused while the server stops"
    );
    assert!(took >= grace, "the calls in flight had the grace period");
    assert!(took < grace + Duration::from_secs(2), "stopped in {took:?}");

    let answer = answer.await.unwrap();
    let (head, body) = answer.split_once("\r\n\r\n").unwrap();
    assert!(head.starts_with("HTTP/1.1 200"), "{answer}");
    let messages: Vec<Value> = if stateless {
        assert!(
            head.to_ascii_lowercase().contains("application/json"),
            "{head}"
        );
        vec![serde_json::from_str(body).unwrap()]
    } else {
        body.lines()
            .filter_map(|l| l.strip_prefix("data:"))
            .filter(|d| !d.trim().is_empty())
            .map(|d| serde_json::from_str(d.trim()).unwrap())
            .collect()
    };
    assert_eq!(messages.len(), 1, "{answer}");
    assert_eq!(messages[0]["id"], 2, "{answer}");
    assert_eq!(envelope_of(&messages[0]), shutting_down());
    tokio::time::timeout(Duration::from_secs(5), running.wait())
        .await
        .expect("stopped in time")
        .unwrap();
}

#[tokio::test]
async fn over_http_with_sessions_a_shutdown_answers_the_call_in_flight() {
    over_http_the_call_in_flight_is_answered(HttpOptions::new("127.0.0.1:0")).await;
}

#[tokio::test]
async fn over_stateless_http_a_shutdown_answers_the_call_in_flight() {
    let mut options = HttpOptions::new("127.0.0.1:0");
    options.stateless = true;
    over_http_the_call_in_flight_is_answered(options).await;
}

#[tokio::test]
async fn a_server_with_no_call_in_flight_stops_at_once() {
    let running = serve::start_http(
        TestServer::for_mock("http://127.0.0.1:9"),
        HttpOptions::new("127.0.0.1:0"),
    )
    .await
    .unwrap();
    let addr = running.local_addr;
    let _session = open_session(addr).await;
    let began = Instant::now();
    running.shutdown(Duration::from_secs(10)).await;
    assert!(
        began.elapsed() < Duration::from_secs(1),
        "{:?}",
        began.elapsed()
    );
    tokio::time::timeout(Duration::from_secs(5), running.wait())
        .await
        .expect("stopped in time")
        .unwrap();
}
