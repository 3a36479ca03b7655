//! The fault matrix: every tool of a server, called while every upstream it uses answers
//! with one fault after another (rate limits, server errors, hangs, bodies that are cut,
//! malformed, HTML, of the wrong shape, empty or too large, redirects to another host).
//! Each call must end as the error envelope a strict client accepts, with the right code,
//! in plain words that name the source, within bounds; and a failure is never cached: a
//! repeated call asks the upstream again (except while it asked us to wait).

use std::time::Duration;

use serde_json::Value;
use wiremock::{Mock, MockServer, ResponseTemplate};

use super::client::McpTestClient;
use super::mock::quick;
use crate::client::Env;
use crate::envelope::{ErrorBody, ErrorCode};
use crate::server::{McpServer, upstreams};

/// The per-request timeout of the sources under the fault matrix.
const TIMEOUT: Duration = Duration::from_millis(250);
/// The body cap of the sources under the fault matrix.
const MAX_BODY_BYTES: u64 = 64 * 1024;
/// The longest a call may take under any fault (a hang is retried, each try timing out).
const CALL_BOUND: Duration = Duration::from_secs(10);
/// Where the redirect fault points: another host, which must never be asked (`.invalid`
/// never resolves, so a server that followed it would also send DNS queries).
const ELSEWHERE: &str = "http://elsewhere.invalid/moved";

/// What an upstream answers every request with, and what the agent must see.
#[derive(Debug, Clone)]
pub struct Fault {
    /// A short description, named in failures.
    pub name: &'static str,
    /// The mock's answer to every request.
    pub answer: ResponseTemplate,
    /// The code the call must end with.
    pub code: ErrorCode,
    /// Text the message must contain (besides a source's name).
    pub names: Option<&'static str>,
    /// Whether a repeated call must reach the upstream again: true unless the upstream
    /// asked us to wait, when the repeat must send nothing.
    pub repeat_reaches_upstream: bool,
}

impl Fault {
    fn new(name: &'static str, answer: ResponseTemplate) -> Self {
        Self {
            name,
            answer,
            code: ErrorCode::UpstreamError,
            names: None,
            repeat_reaches_upstream: true,
        }
    }
}

fn json_body(status: u16, body: &str) -> ResponseTemplate {
    ResponseTemplate::new(status).set_body_raw(body.as_bytes().to_vec(), "application/json")
}

/// The faults of the matrix, each on every request.
pub fn faults() -> Vec<Fault> {
    let huge = format!("[{}{{}}]", r#"{"a":"0123456789abcdef"},"#.repeat(8 * 1024));
    vec![
        Fault {
            code: ErrorCode::RateLimited,
            ..Fault::new(
                "429 without Retry-After",
                ResponseTemplate::new(429).set_body_string("Too Many Requests"),
            )
        },
        Fault {
            code: ErrorCode::RateLimited,
            repeat_reaches_upstream: false,
            ..Fault::new(
                "429 with a Retry-After of two minutes",
                ResponseTemplate::new(429)
                    .insert_header("Retry-After", "120")
                    .set_body_string("Too Many Requests"),
            )
        },
        Fault::new(
            "500",
            ResponseTemplate::new(500).set_body_string("Internal Server Error"),
        ),
        Fault::new(
            "502 with an HTML error page",
            ResponseTemplate::new(502).set_body_raw(
                b"<html><head><title>502 Bad Gateway</title></head><body><h1>Bad Gateway</h1></body></html>"
                    .to_vec(),
                "text/html",
            ),
        ),
        Fault::new(
            "503 without Retry-After",
            ResponseTemplate::new(503).set_body_string("Service Unavailable"),
        ),
        Fault::new(
            "a hang longer than the timeout",
            json_body(200, "[]").set_delay(TIMEOUT * 8),
        ),
        Fault::new("200 with a truncated body", json_body(200, r#"[{"id": "A1", "na"#)),
        Fault::new("200 with a body that is not JSON", json_body(200, "}{ not json")),
        Fault::new(
            "200 with an HTML page",
            ResponseTemplate::new(200).set_body_raw(
                b"<!DOCTYPE html><html><body><p>Maintenance</p></body></html>".to_vec(),
                "text/html",
            ),
        ),
        Fault::new("200 with an empty body", json_body(200, "")),
        Fault::new("200 with null", json_body(200, "null")),
        Fault::new(
            "200 with a list of the wrong shape",
            json_body(200, r#"[{"unexpected":1}]"#),
        ),
        Fault::new(
            "200 with an object of the wrong shape",
            json_body(200, r#"{"unexpected":1}"#),
        ),
        Fault::new(
            "200 with a body over the size cap",
            json_body(200, &huge),
        ),
        Fault {
            names: Some("elsewhere.invalid"),
            ..Fault::new(
                "301 to another host",
                ResponseTemplate::new(301).insert_header("Location", ELSEWHERE),
            )
        },
    ]
}

/// Serde's words, which must never reach an agent.
const DECODER_WORDS: [&str; 5] = [
    "line 1 column",
    "invalid type",
    "missing field",
    "expected value",
    "EOF while parsing",
];

/// Run every tool of `S` under every fault of [`faults`], with every upstream of `S`
/// pointed at a mock that answers each request with the fault (sources quick as under
/// [`quick`], with a 250 ms timeout and a 64 KiB body cap).
///
/// `calls`: (tool, arguments that pass validation and reach an upstream); a tool may
/// appear more than once. `offline`: (tool, arguments) of tools that answer without any
/// upstream: under every fault they must succeed without a request. Every listed tool
/// must be in one of the two, so a tool added later without a case is caught.
///
/// Each call must fail with the fault's code, in an envelope a strict client accepts
/// (see [`McpTestClient::call`]), within 10 s, with a message that names a source of
/// `S` and holds neither HTML nor a JSON decoder's words; a repeated call must ask the
/// upstream again (nothing failed is cached), except after a `Retry-After`, when it must
/// ask nothing and still answer `RATE_LIMITED`.
///
/// ```ignore
/// assert_fault_matrix::<StringServer>(
///     &[("string_search_proteins", json!({"query": "TP53"}))],
///     &[("string_get_network_image_url", json!({"identifiers": ["TP53"]}))],
/// ).await;
/// ```
pub async fn assert_fault_matrix<S: McpServer>(calls: &[(&str, Value)], offline: &[(&str, Value)]) {
    let sources = upstreams::<S>().expect("the server builds from an empty environment");
    let mut covered: Vec<String> = calls
        .iter()
        .chain(offline)
        .map(|(tool, _)| (*tool).to_owned())
        .collect();
    covered.sort();
    covered.dedup();
    let listed: Vec<String> = {
        let mut names: Vec<String> = crate::server::tools::<S>()
            .into_iter()
            .map(|t| t.name.to_string())
            .collect();
        names.sort();
        names
    };
    assert_eq!(
        covered, listed,
        "every listed tool is in the fault matrix, as a call or as offline"
    );
    let source_names: Vec<&str> = sources.iter().map(|u| u.name).collect();
    let runs = faults()
        .into_iter()
        .map(|fault| run_fault::<S>(fault, &sources, &source_names, calls, offline));
    futures::future::join_all(runs).await;
}

async fn run_fault<S: McpServer>(
    fault: Fault,
    sources: &[&'static crate::config::Upstream],
    source_names: &[&str],
    calls: &[(&str, Value)],
    offline: &[(&str, Value)],
) {
    let mock = MockServer::start().await;
    Mock::given(wiremock::matchers::any())
        .respond_with(fault.answer.clone())
        .mount(&mock)
        .await;
    let uri = mock.uri();
    let vars: Vec<String> = sources.iter().map(|u| u.url_var()).collect();
    let pairs: Vec<(&str, &str)> = vars.iter().map(|v| (v.as_str(), uri.as_str())).collect();
    let env = Env::from_pairs(&pairs).with_tuning(|config| {
        quick(config)
            .with_timeout(TIMEOUT)
            .with_max_body_bytes(MAX_BODY_BYTES)
    });
    let server = S::from_env(&env).expect("the server builds against the mock");
    let client = McpTestClient::connect(server).await;
    let asked = || async { mock.received_requests().await.map_or(0, |r| r.len()) };
    for (tool, arguments) in calls {
        let what = format!("{tool} {arguments} under \"{}\"", fault.name);
        let before = asked().await;
        let e = timed_err(&client, tool, arguments, &what).await;
        check_error(&fault, &e, source_names, &what);
        let first = asked().await;
        assert!(
            first > before || !fault.repeat_reaches_upstream,
            "{what}: no request reached the upstream"
        );
        let again = timed_err(&client, tool, arguments, &what).await;
        check_error(&fault, &again, source_names, &format!("{what}, repeated"));
        let second = asked().await;
        if fault.repeat_reaches_upstream {
            assert!(
                second > first,
                "{what}: the repeated call asked nothing upstream, so a failure was cached"
            );
        } else {
            assert_eq!(
                second, first,
                "{what}: the upstream asked us to wait, yet the repeated call asked it again"
            );
        }
    }
    for (tool, arguments) in offline {
        let before = asked().await;
        client.call_ok(tool, arguments.clone()).await;
        assert_eq!(
            asked().await,
            before,
            "{tool} {arguments} is offline, yet asked an upstream under \"{}\"",
            fault.name
        );
    }
    client.close().await;
}

async fn timed_err(client: &McpTestClient, tool: &str, arguments: &Value, what: &str) -> ErrorBody {
    tokio::time::timeout(CALL_BOUND, client.call_err(tool, arguments.clone()))
        .await
        .unwrap_or_else(|_| panic!("{what}: no answer within {CALL_BOUND:?}"))
}

fn check_error(fault: &Fault, e: &ErrorBody, source_names: &[&str], what: &str) {
    assert_eq!(e.code, fault.code, "{what}: {}", e.message);
    assert!(
        source_names.iter().any(|name| e.message.contains(name)),
        "{what}: the message names none of {source_names:?}: {}",
        e.message
    );
    for text in [&e.message, &e.recovery_hint] {
        assert!(!text.contains('<'), "{what}: HTML in the envelope: {text}");
        for words in DECODER_WORDS {
            assert!(
                !text.contains(words),
                "{what}: decoder text in the envelope: {text}"
            );
        }
    }
    if let Some(names) = fault.names {
        assert!(
            e.message.contains(names),
            "{what}: {names} not named: {}",
            e.message
        );
    }
    if fault.code == ErrorCode::RateLimited && !fault.repeat_reaches_upstream {
        assert!(
            e.retry_after_secs.is_some_and(|s| s >= 60),
            "{what}: the wait asked for is passed on: {e:?}"
        );
    }
}
