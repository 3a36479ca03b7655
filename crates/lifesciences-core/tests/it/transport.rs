//! The transports: stdio framing (driven over an in-memory pipe exactly as over the
//! process's stdin/stdout) and Streamable HTTP with its health check and Host allow-list.

use std::time::Duration;

use lifesciences_core::serve::{self, HttpOptions};
use lifesciences_core::testing::{TestServer, mock_upstream};
use lifesciences_core::{McpServer as _, Served};
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use wiremock::matchers::path;
use wiremock::{Mock, ResponseTemplate};

pub(crate) const INITIALIZE: &str = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}"#;

type Pipe = tokio::io::DuplexStream;

/// An MCP server on an in-memory pipe, as over the process's stdin/stdout (through the
/// stdio line guard when `guarded`): the task, and the client's reading and writing ends.
fn stdio_server(
    server: TestServer,
    guarded: bool,
) -> (
    tokio::task::JoinHandle<Result<(), serve::ServeError>>,
    tokio::io::ReadHalf<Pipe>,
    tokio::io::WriteHalf<Pipe>,
) {
    let (ours, theirs) = tokio::io::duplex(1 << 16);
    let (read, write) = tokio::io::split(theirs);
    let served = Served::new(server);
    let task = if guarded {
        let (read, write, _written) = serve::lines::guard(read, write);
        tokio::spawn(serve::serve_io(
            served,
            read,
            write,
            futures::future::pending(),
            serve::SHUTDOWN_GRACE,
        ))
    } else {
        tokio::spawn(serve::serve_io(
            served,
            read,
            write,
            futures::future::pending(),
            serve::SHUTDOWN_GRACE,
        ))
    };
    let (reader, writer) = tokio::io::split(ours);
    (task, reader, writer)
}

#[tokio::test]
async fn garbage_on_stdin_does_not_kill_the_stdio_server() {
    let (server, reader, mut writer) =
        stdio_server(TestServer::for_mock("http://127.0.0.1:9"), false);
    let garbage: &[&[u8]] = &[
        b"this is not json\n",
        b"{\"jsonrpc\":\"2.0\"}\n",
        b"[1,2,3]\n",
        b"\xff\xfe\x00garbage\n",
        b"{\"jsonrpc\":\"2.0\",\"id\":99,\"method\":\"no/such/method\"}\n",
        b"\n",
    ];
    for line in garbage {
        writer.write_all(line).await.unwrap();
    }
    writer.write_all(INITIALIZE.as_bytes()).await.unwrap();
    writer.write_all(b"\n").await.unwrap();

    let mut lines = BufReader::new(reader).lines();
    let answer = tokio::time::timeout(Duration::from_secs(5), async {
        while let Some(line) = lines.next_line().await.unwrap() {
            let value: serde_json::Value = match serde_json::from_str(&line) {
                Ok(v) => v,
                Err(_) => panic!("the server wrote a non-JSON line to stdout: {line}"),
            };
            if value["id"] == 1 {
                return value;
            }
        }
        panic!("the server closed stdout without answering initialize")
    })
    .await
    .expect("initialize answered after garbage");
    assert_eq!(answer["result"]["serverInfo"]["name"], "items-mcp");
    assert!(!server.is_finished(), "the server is still running");
    drop(writer);
    drop(lines);
    let ended = tokio::time::timeout(Duration::from_secs(5), server).await;
    assert!(ended.is_ok(), "closing stdin ends the server");
}

pub(crate) async fn raw_http(addr: std::net::SocketAddr, request: String) -> String {
    let mut stream = tokio::net::TcpStream::connect(addr).await.unwrap();
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut response = String::new();
    tokio::time::timeout(Duration::from_secs(5), stream.read_to_string(&mut response))
        .await
        .expect("response in time")
        .unwrap();
    response
}

fn post_initialize(host: &str) -> String {
    format!(
        "POST /mcp HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\n\
         Accept: application/json, text/event-stream\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{INITIALIZE}",
        INITIALIZE.len()
    )
}

#[tokio::test]
async fn http_serves_health_mcp_and_keeps_the_host_allow_list() {
    let running = serve::start_http(
        TestServer::for_mock("http://127.0.0.1:9"),
        HttpOptions::new("127.0.0.1:0"),
    )
    .await
    .unwrap();
    let addr = running.local_addr;

    let health = raw_http(
        addr,
        format!("GET /health HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"),
    )
    .await;
    assert!(health.starts_with("HTTP/1.1 200"), "{health}");
    let (_, body) = health.split_once("\r\n\r\n").unwrap();
    // The version and the git revision of the build (`unknown` in a development build).
    assert_eq!(
        serde_json::from_str::<serde_json::Value>(body).unwrap(),
        serde_json::json!({
            "status": "ok",
            "server": "items-mcp",
            "version": TestServer::VERSION,
            "revision": lifesciences_core::version::revision(),
        }),
        "{health}"
    );

    let init = raw_http(addr, post_initialize(&addr.to_string())).await;
    assert!(init.starts_with("HTTP/1.1 200"), "{init}");
    assert!(init.contains(r#""name":"items-mcp""#), "{init}");

    let rebinding = raw_http(addr, post_initialize("evil.example.com")).await;
    assert!(
        rebinding.starts_with("HTTP/1.1 403"),
        "DNS-rebinding protection: {rebinding}"
    );

    // A page from another site may not call it; one served from localhost may.
    let with_origin = |origin: &str| {
        post_initialize(&addr.to_string()).replacen(
            "Content-Type:",
            &format!("Origin: {origin}\r\nContent-Type:"),
            1,
        )
    };
    let foreign = raw_http(addr, with_origin("https://evil.example.com")).await;
    assert!(
        foreign.starts_with("HTTP/1.1 403"),
        "Origin check: {foreign}"
    );
    let local = raw_http(addr, with_origin("http://localhost:5173")).await;
    assert!(local.starts_with("HTTP/1.1 200"), "{local}");

    running.shutdown(Duration::from_secs(1)).await;
    tokio::time::timeout(Duration::from_secs(5), running.wait())
        .await
        .expect("graceful shutdown in time")
        .unwrap();
}

#[tokio::test]
async fn http_accepts_extra_hosts_when_told_and_caps_request_bodies() {
    let mut options = HttpOptions::new("127.0.0.1:0");
    options.extra_allowed_hosts = vec!["mcp.example.org".into()];
    options.max_request_body_bytes = 1024;
    let running = serve::start_http(TestServer::for_mock("http://127.0.0.1:9"), options)
        .await
        .unwrap();
    let addr = running.local_addr;

    let init = raw_http(addr, post_initialize("mcp.example.org")).await;
    assert!(init.starts_with("HTTP/1.1 200"), "{init}");

    let big = "x".repeat(4096);
    let request = format!(
        "POST /mcp HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n\
         Accept: application/json, text/event-stream\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{big}",
        big.len()
    );
    let refused = raw_http(addr, request).await;
    assert!(refused.starts_with("HTTP/1.1 413"), "{refused}");
    running.shutdown(Duration::from_secs(1)).await;
}

/// A POST to `/mcp` of one JSON-RPC message, in `session` when given.
pub(crate) fn post(addr: std::net::SocketAddr, session: Option<&str>, body: &str) -> String {
    let session = session
        .map(|id| format!("Mcp-Session-Id: {id}\r\nMcp-Protocol-Version: 2025-11-25\r\n"))
        .unwrap_or_default();
    format!(
        "POST /mcp HTTP/1.1\r\nHost: {addr}\r\n{session}Content-Type: application/json\r\n\
         Accept: application/json, text/event-stream\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
}

#[tokio::test]
async fn a_shutdown_lets_the_calls_in_flight_finish_and_answers_them() {
    let upstream = slow_item(Duration::from_millis(1500)).await;
    let running = serve::start_http(
        TestServer::for_mock(&upstream.uri()),
        HttpOptions::new("127.0.0.1:0"),
    )
    .await
    .unwrap();
    let addr = running.local_addr;

    let session = open_session(addr).await;

    let call = r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"items_get_item","arguments":{"item_id":"ITEM:42"}}}"#;
    let request = post(addr, Some(&session), call);
    let answer = tokio::spawn(async move { raw_http(addr, request).await });
    // The call is waiting for its upstream when the shutdown begins.
    tokio::time::sleep(Duration::from_millis(300)).await;
    running.shutdown(Duration::from_secs(10)).await;
    let answer = answer.await.unwrap();
    assert!(
        answer.contains(r#""id":2"#) && answer.contains(r#""structuredContent""#),
        "the call in flight is answered: {answer}"
    );
    tokio::time::timeout(Duration::from_secs(5), running.wait())
        .await
        .expect("stopped in time")
        .unwrap();
}

/// An upstream whose item 42 answers after `delay`, asked exactly once.
pub(crate) async fn slow_item(delay: Duration) -> wiremock::MockServer {
    let upstream = mock_upstream().await;
    Mock::given(path("/items/42"))
        .respond_with(
            ResponseTemplate::new(200)
                .set_body_json(serde_json::json!({"number": 42}))
                .set_delay(delay),
        )
        .expect(1)
        .mount(&upstream)
        .await;
    upstream
}

/// A session opened over HTTP (`initialize`, then `notifications/initialized`, which must
/// be accepted with 202): its id.
pub(crate) async fn open_session(addr: std::net::SocketAddr) -> String {
    let init = raw_http(addr, post(addr, None, INITIALIZE)).await;
    let session = session_id(&init).unwrap_or_else(|| panic!("no session id: {init}"));
    let initialized = r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;
    let accepted = raw_http(addr, post(addr, Some(&session), initialized)).await;
    assert!(accepted.starts_with("HTTP/1.1 202"), "{accepted}");
    session
}

pub(crate) fn session_id(response: &str) -> Option<String> {
    response.lines().find_map(|l| {
        l.to_ascii_lowercase()
            .starts_with("mcp-session-id:")
            .then(|| l.split_once(':').unwrap().1.trim().to_owned())
    })
}

fn delete(addr: std::net::SocketAddr, session: &str) -> String {
    format!(
        "DELETE /mcp HTTP/1.1\r\nHost: {addr}\r\nMcp-Session-Id: {session}\r\n\
         Mcp-Protocol-Version: 2025-11-25\r\nConnection: close\r\n\r\n"
    )
}

const LIST_TOOLS: &str = r#"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#;

#[tokio::test]
async fn at_the_cap_a_new_session_takes_the_place_of_the_least_recently_used_idle_one() {
    let mut options = HttpOptions::new("127.0.0.1:0");
    options.max_sessions = 2;
    let running = serve::start_http(TestServer::for_mock("http://127.0.0.1:9"), options)
        .await
        .unwrap();
    let addr = running.local_addr;

    let a = open_session(addr).await;
    let b = open_session(addr).await;
    // A is used after B was opened: B is now the one unused the longest.
    let used = raw_http(addr, post(addr, Some(&a), LIST_TOOLS)).await;
    assert!(used.contains("items_get_item"), "{used}");
    let c = open_session(addr).await;
    assert_eq!(running.session_counts().await, (2, 2));

    // B was closed: its next request is 404 (a JSON-RPC error with the request's id),
    // which tells an MCP client to initialize again; so is a DELETE of it.
    let gone = raw_http(addr, post(addr, Some(&b), LIST_TOOLS)).await;
    assert!(gone.starts_with("HTTP/1.1 404"), "{gone}");
    assert!(
        gone.contains(r#""id":2"#) && gone.contains("initialize a new session"),
        "{gone}"
    );
    assert!(
        raw_http(addr, delete(addr, &b))
            .await
            .starts_with("HTTP/1.1 404")
    );
    for kept in [&a, &c] {
        let answer = raw_http(addr, post(addr, Some(kept), LIST_TOOLS)).await;
        assert!(answer.contains("items_get_item"), "{answer}");
    }

    // Ending one makes room; ending it twice is 404 the second time.
    let ended = raw_http(addr, delete(addr, &a)).await;
    assert!(ended.starts_with("HTTP/1.1 202"), "{ended}");
    let again = raw_http(addr, delete(addr, &a)).await;
    assert!(again.starts_with("HTTP/1.1 404"), "{again}");
    assert_eq!(running.session_counts().await, (1, 1));
    running.shutdown(Duration::from_secs(1)).await;
}

#[tokio::test]
async fn at_the_cap_a_new_session_is_refused_only_while_every_session_is_busy() {
    let upstream = slow_item(Duration::from_millis(1200)).await;
    let mut options = HttpOptions::new("127.0.0.1:0");
    options.max_sessions = 2;
    let running = serve::start_http(TestServer::for_mock(&upstream.uri()), options)
        .await
        .unwrap();
    let addr = running.local_addr;

    // A has a call in flight, B a stream open.
    let a = open_session(addr).await;
    let b = open_session(addr).await;
    let call = r#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"items_get_item","arguments":{"item_id":"ITEM:42"}}}"#;
    let in_flight = tokio::spawn(raw_http(addr, post(addr, Some(&a), call)));
    let stream = open_stream(addr, &b).await;
    tokio::time::sleep(Duration::from_millis(200)).await;

    let refused = raw_http(addr, post(addr, None, INITIALIZE)).await;
    assert!(refused.starts_with("HTTP/1.1 503"), "{refused}");
    assert!(
        refused.to_ascii_lowercase().contains("retry-after: 60"),
        "{refused}"
    );
    assert!(
        refused.contains(r#""jsonrpc":"2.0""#) && refused.contains("its cap"),
        "{refused}"
    );

    // Once A's call is answered, A is idle: the next new session takes its place.
    let answered = in_flight.await.unwrap();
    assert!(answered.contains(r#""structuredContent""#), "{answered}");
    let c = raw_http(addr, post(addr, None, INITIALIZE)).await;
    assert!(session_id(&c).is_some(), "{c}");
    let gone = raw_http(addr, post(addr, Some(&a), LIST_TOOLS)).await;
    assert!(gone.starts_with("HTTP/1.1 404"), "A made room: {gone}");
    let kept = raw_http(addr, post(addr, Some(&b), LIST_TOOLS)).await;
    assert!(
        kept.contains("items_get_item"),
        "B's stream kept it: {kept}"
    );
    drop(stream);
    running.shutdown(Duration::from_secs(1)).await;
}

#[tokio::test]
async fn an_idle_session_is_put_to_sleep_woken_by_its_next_request_and_forgotten_past_the_limit() {
    let mut options = HttpOptions::new("127.0.0.1:0");
    options.session_hibernate = Duration::from_millis(300);
    options.session_idle = Duration::from_millis(2000);
    let running = serve::start_http(TestServer::for_mock("http://127.0.0.1:9"), options)
        .await
        .unwrap();
    let addr = running.local_addr;

    let session = open_session(addr).await;
    let streaming = open_session(addr).await;
    let stream = open_stream(addr, &streaming).await;
    // A client that chose a log level keeps its session awake: the level lives there.
    let chose = open_session(addr).await;
    let set_level =
        r#"{"jsonrpc":"2.0","id":5,"method":"logging/setLevel","params":{"level":"info"}}"#;
    let set = raw_http(addr, post(addr, Some(&chose), set_level)).await;
    assert!(set.contains(r#""result":{}"#), "{set}");
    tokio::time::sleep(Duration::from_millis(800)).await;
    // Known still, but rmcp no longer holds the idle one.
    assert_eq!(running.session_counts().await, (3, 2));

    let woken = raw_http(addr, post(addr, Some(&session), LIST_TOOLS)).await;
    assert!(
        woken.starts_with("HTTP/1.1 200") && woken.contains("items_get_item"),
        "{woken}"
    );
    drop(stream);

    // Past the idle limit: forgotten, and its next request is 404.
    tokio::time::sleep(Duration::from_millis(2600)).await;
    let gone = raw_http(addr, post(addr, Some(&session), LIST_TOOLS)).await;
    assert!(gone.starts_with("HTTP/1.1 404"), "{gone}");
    running.shutdown(Duration::from_secs(1)).await;
}

/// A `GET` stream of `session`, open until the returned connection is dropped.
async fn open_stream(addr: std::net::SocketAddr, session: &str) -> tokio::net::TcpStream {
    let mut stream = tokio::net::TcpStream::connect(addr).await.unwrap();
    let request = format!(
        "GET /mcp HTTP/1.1\r\nHost: {addr}\r\nMcp-Session-Id: {session}\r\n\
         Mcp-Protocol-Version: 2025-11-25\r\nAccept: text/event-stream\r\n\r\n"
    );
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut head = [0u8; 12];
    tokio::time::timeout(Duration::from_secs(5), stream.read_exact(&mut head))
        .await
        .expect("the stream's head in time")
        .unwrap();
    assert_eq!(&head, b"HTTP/1.1 200", "a stream is opened");
    stream
}

#[tokio::test]
async fn a_body_that_is_not_a_json_rpc_message_is_400_with_a_json_rpc_error() {
    let running = serve::start_http(
        TestServer::for_mock("http://127.0.0.1:9"),
        HttpOptions::new("127.0.0.1:0"),
    )
    .await
    .unwrap();
    let addr = running.local_addr;
    let truncated = raw_http(
        addr,
        post(addr, None, r#"{"jsonrpc":"2.0","id":1,"method":"#),
    )
    .await;
    assert!(truncated.starts_with("HTTP/1.1 400"), "{truncated}");
    assert!(
        truncated.contains(r#""code":-32700"#) && truncated.contains(r#""id":1"#),
        "the id is recovered from a body that does not parse: {truncated}"
    );
    assert!(
        !truncated.contains("line 1 column"),
        "no decoder text: {truncated}"
    );
    let not_a_message = raw_http(addr, post(addr, None, r#"[{"jsonrpc":"2.0","id":5}]"#)).await;
    assert!(not_a_message.starts_with("HTTP/1.1 400"), "{not_a_message}");
    assert!(
        not_a_message.contains(r#""code":-32600"#),
        "{not_a_message}"
    );
    let wrong_version = raw_http(
        addr,
        post(addr, None, r#"{"jsonrpc":"1.0","id":9,"method":"ping"}"#),
    )
    .await;
    assert!(
        wrong_version.contains(r#""code":-32600"#) && wrong_version.contains(r#""id":9"#),
        "the id is kept when it can be read: {wrong_version}"
    );
    let list_arguments = r#"{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"items_get_item","arguments":[1]}}"#;
    let refused = raw_http(addr, post(addr, None, list_arguments)).await;
    assert!(
        refused.starts_with("HTTP/1.1 400") && refused.contains(r#""code":-32602"#),
        "{refused}"
    );
    running.shutdown(Duration::from_secs(1)).await;
}

#[tokio::test]
async fn every_malformed_stdio_line_is_answered_and_the_server_keeps_serving() {
    let (server, reader, mut writer) =
        stdio_server(TestServer::for_mock("http://127.0.0.1:9"), true);
    let deep = format!("{}{}", "[".repeat(300), "]".repeat(300));
    let huge = format!("\"{}\"", "x".repeat(17 * 1024 * 1024));
    let lines: Vec<Vec<u8>> = vec![
        deep.into_bytes(),
        br#"{"jsonrpc":"2.0","id":3,"method":"ping","params":{"s":"\ud800"}}"#.to_vec(),
        b"\xff\xfe{}".to_vec(),
        huge.into_bytes(),
        br#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"items_get_item","arguments":[1]}}"#.to_vec(),
        INITIALIZE.as_bytes().to_vec(),
    ];
    let feeder = tokio::spawn(async move {
        for line in lines {
            writer.write_all(&line).await.unwrap();
            writer.write_all(b"\n").await.unwrap();
        }
        writer
    });
    let mut answers = Vec::new();
    let mut lines = BufReader::new(reader).lines();
    tokio::time::timeout(Duration::from_secs(20), async {
        while let Some(line) = lines.next_line().await.unwrap() {
            let value: serde_json::Value = serde_json::from_str(&line).unwrap();
            let done = value["id"] == 1;
            answers.push(value);
            if done {
                break;
            }
        }
    })
    .await
    .expect("every line answered in time");
    let codes: Vec<_> = answers
        .iter()
        .map(|a| (a["id"].clone(), a["error"]["code"].clone()))
        .collect();
    assert_eq!(
        codes,
        [
            (serde_json::Value::Null, serde_json::json!(-32700)),
            // The id of a line that does not parse is recovered when it can be.
            (serde_json::json!(3), serde_json::json!(-32700)),
            (serde_json::Value::Null, serde_json::json!(-32700)),
            (serde_json::Value::Null, serde_json::json!(-32700)),
            (serde_json::json!(7), serde_json::json!(-32602)),
            (serde_json::json!(1), serde_json::Value::Null),
        ],
        "{answers:#?}"
    );
    assert_eq!(answers[5]["result"]["serverInfo"]["name"], "items-mcp");
    drop(feeder.await.unwrap());
    drop(lines);
    let ended = tokio::time::timeout(Duration::from_secs(5), server).await;
    assert!(ended.is_ok(), "closing stdin ends the server");
}

#[tokio::test]
async fn over_stdio_a_call_before_initialize_and_a_duplicate_id_are_refused_each_answered() {
    let upstream = slow_item(Duration::from_millis(500)).await;
    let (server, reader, mut writer) = stdio_server(TestServer::for_mock(&upstream.uri()), true);
    let call = |id: u32| {
        format!(
            r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"items_get_item","arguments":{{"item_id":"ITEM:42"}}}}}}"#
        )
    };
    let initialized = r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;
    for line in [
        call(5),
        INITIALIZE.to_owned(),
        initialized.to_owned(),
        call(2),
        call(2),
    ] {
        writer.write_all(line.as_bytes()).await.unwrap();
        writer.write_all(b"\n").await.unwrap();
    }
    let mut answers = Vec::new();
    let mut lines = BufReader::new(reader).lines();
    tokio::time::timeout(Duration::from_secs(10), async {
        while answers.len() < 4 {
            let Some(line) = lines.next_line().await.unwrap() else {
                break;
            };
            answers.push(serde_json::from_str::<serde_json::Value>(&line).unwrap());
        }
    })
    .await
    .expect("four answers in time");
    let by_id = |id: u32, kind: &str| {
        answers
            .iter()
            .filter(|a| a["id"] == id && a.get(kind).is_some())
            .count()
    };
    assert_eq!(
        by_id(5, "error"),
        1,
        "a call before initialize is refused: {answers:#?}"
    );
    assert_eq!(by_id(1, "result"), 1, "{answers:#?}");
    assert_eq!(
        by_id(2, "error"),
        1,
        "the duplicate is refused: {answers:#?}"
    );
    assert_eq!(
        by_id(2, "result"),
        1,
        "the first call with id 2 is answered: {answers:#?}"
    );
    drop(writer);
    drop(lines);
    let _ = tokio::time::timeout(Duration::from_secs(5), server).await;
}

#[tokio::test]
async fn over_http_a_duplicate_id_in_flight_in_one_session_is_refused_and_the_first_answered() {
    let upstream = slow_item(Duration::from_millis(800)).await;
    let running = serve::start_http(
        TestServer::for_mock(&upstream.uri()),
        HttpOptions::new("127.0.0.1:0"),
    )
    .await
    .unwrap();
    let addr = running.local_addr;
    let session = open_session(addr).await;

    let call = r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"items_get_item","arguments":{"item_id":"ITEM:42"}}}"#;
    let request = post(addr, Some(&session), call);
    let first = tokio::spawn(raw_http(addr, request.clone()));
    tokio::time::sleep(Duration::from_millis(200)).await;
    let duplicate = raw_http(addr, request.clone()).await;
    assert!(duplicate.starts_with("HTTP/1.1 400"), "{duplicate}");
    assert!(
        duplicate.contains(r#""id":2"#) && duplicate.contains("-32600"),
        "{duplicate}"
    );
    let first = first.await.unwrap();
    assert!(
        first.contains(r#""id":2"#) && first.contains(r#""structuredContent""#),
        "the first call is answered: {first}"
    );
    // Once answered, the id is free again (the cache answers this one).
    let again = raw_http(addr, request).await;
    assert!(again.contains(r#""structuredContent""#), "{again}");
    running.shutdown(Duration::from_secs(1)).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn concurrent_new_sessions_never_overshoot_the_cap() {
    let mut options = HttpOptions::new("127.0.0.1:0");
    options.max_sessions = 3;
    let running = serve::start_http(TestServer::for_mock("http://127.0.0.1:9"), options)
        .await
        .unwrap();
    let addr = running.local_addr;
    let answers = futures::future::join_all(
        (0..64).map(|_| tokio::spawn(raw_http(addr, post(addr, None, INITIALIZE)))),
    )
    .await;
    // Each new one made room by closing an idle one: all opened, three remain.
    let ids: Vec<String> = answers
        .into_iter()
        .map(|a| {
            let a = a.unwrap();
            session_id(&a).unwrap_or_else(|| panic!("{a}"))
        })
        .collect();
    assert_eq!(running.session_counts().await, (3, 3));
    let mut kept = 0;
    for id in &ids {
        let ended = raw_http(addr, delete(addr, id)).await;
        if ended.starts_with("HTTP/1.1 202") {
            kept += 1;
        } else {
            assert!(ended.starts_with("HTTP/1.1 404"), "{ended}");
        }
    }
    assert_eq!(kept, 3);
    running.shutdown(Duration::from_secs(1)).await;
}
