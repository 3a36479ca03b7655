//! The common command line, run in-process against core's `TestServer`.

use std::process::ExitCode;

use lifesciences_core::testing::{TestServer, mock_env, mock_upstream};
use lifesciences_core::{Env, McpServer, cli};
use serde_json::{Value, json};
use wiremock::matchers::path;
use wiremock::{Mock, MockServer, ResponseTemplate};

async fn run(args: &[&str], upstream: &str) -> (ExitCode, String) {
    let mut out = Vec::new();
    let argv = std::iter::once("items-mcp").chain(args.iter().copied());
    let env = mock_env(&[("ITEMS_API_URL", upstream)]);
    let code = cli::run::<TestServer>(argv, env, &mut out).await;
    (code, String::from_utf8(out).unwrap())
}

async fn upstream() -> MockServer {
    let server = mock_upstream().await;
    Mock::given(path("/items/42"))
        .respond_with(
            ResponseTemplate::new(200).set_body_json(json!({"number": 42, "name": "answer"})),
        )
        .mount(&server)
        .await;
    server
}

#[tokio::test]
async fn version_and_help_go_to_stdout_and_exit_0() {
    let (code, out) = run(&["--version"], "http://127.0.0.1:9").await;
    assert_eq!(code, ExitCode::SUCCESS);
    // `items-mcp 0.1.0 (rev 77516ee0ab12)`: the version and the git revision of the
    // build, or `(rev unknown)` for a development build.
    let line = out.trim();
    let revision = line
        .strip_prefix(&format!("items-mcp {} (rev ", TestServer::VERSION))
        .and_then(|rest| rest.strip_suffix(')'))
        .unwrap_or_else(|| panic!("{line}"));
    assert!(
        revision == "unknown"
            || (revision.len() <= 12 && revision.bytes().all(|b| b.is_ascii_hexdigit())),
        "{line}"
    );
    assert_eq!(revision, {
        let full = lifesciences_core::version::revision();
        full.get(..12).unwrap_or(full)
    });
    let (code, out) = run(&["--help"], "http://127.0.0.1:9").await;
    assert_eq!(code, ExitCode::SUCCESS);
    for word in ["serve", "tools", "call", "check", "stdio", "RUST_LOG"] {
        assert!(out.contains(word), "help mentions {word}: {out}");
    }
    // Every variable the server reads, with its default: `cargo install` brings no README.
    for line in [
        "ITEMS_API_URL",
        "ITEMS_RATE_LIMIT",
        "LIFESCIENCES_CACHE_TTL_SECS",
        "HTTPS_PROXY",
    ] {
        let listed = out.lines().find(|l| l.trim_start().starts_with(line));
        assert!(
            listed.is_some_and(|l| l.contains("(default: ")),
            "help lists {line} with its default: {out}"
        );
    }
}

#[tokio::test]
async fn a_misspelt_variable_is_warned_about_with_the_name_it_meant() {
    let capture = lifesciences_core::testing::LogCapture::start();
    let mut out = Vec::new();
    let env = mock_env(&[
        ("ITEMS_API_URL", "http://127.0.0.1:9"),
        ("ITEMS_RATELIMIT", "5"),
    ]);
    let code = cli::run::<TestServer>(
        ["items-mcp", "call", "items_get_item", "item_id=x"],
        env,
        &mut out,
    )
    .await;
    assert_eq!(code, ExitCode::from(1));
    let logged = capture.contents();
    assert!(
        logged.contains(
            "ITEMS_RATELIMIT is set but items-mcp does not read it; did you mean ITEMS_RATE_LIMIT?"
        ),
        "{logged}"
    );
}

#[tokio::test]
async fn tools_lists_names_titles_and_one_line() {
    let (code, out) = run(&["tools"], "http://127.0.0.1:9").await;
    assert_eq!(code, ExitCode::SUCCESS);
    let lines: Vec<_> = out.lines().collect();
    assert_eq!(lines.len(), 2, "{out}");
    // The first sentence only: the example stays in the full definition.
    assert_eq!(
        lines[0], "items_get_item  Get an item: Fetch one item by CURIE.",
        "{out}"
    );
    let (code, out) = run(&["tools", "--json"], "http://127.0.0.1:9").await;
    assert_eq!(code, ExitCode::SUCCESS);
    let tools: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(tools.as_array().unwrap().len(), 2);
    assert!(tools[0]["inputSchema"]["properties"]["item_id"].is_object());
    assert!(tools[0]["outputSchema"].is_object());
}

#[tokio::test]
async fn call_prints_the_result_and_exits_0() {
    let upstream = upstream().await;
    let (code, out) = run(
        &["call", "items_get_item", "item_id=ITEM:42"],
        &upstream.uri(),
    )
    .await;
    assert_eq!(code, ExitCode::SUCCESS, "{out}");
    let mut value: Value = serde_json::from_str(&out).unwrap();
    // The answer says where it came from: the one request the mock saw.
    let provenance = value.as_object_mut().unwrap().remove("provenance").unwrap();
    assert_eq!(
        provenance["sources"][0]["requests"],
        json!([format!("{}/items/42", upstream.uri())])
    );
    assert_eq!(
        value,
        json!({"id": "ITEM:42", "name": "answer", "cross_references": {}})
    );
    // The same call with a JSON object.
    let (code, out2) = run(
        &["call", "items_get_item", r#"{"item_id": "ITEM:42"}"#],
        &upstream.uri(),
    )
    .await;
    assert_eq!(code, ExitCode::SUCCESS);
    let mut value2: Value = serde_json::from_str(&out2).unwrap();
    value2.as_object_mut().unwrap().remove("provenance");
    assert_eq!(value, value2);
}

#[tokio::test]
async fn call_prints_the_envelope_and_exits_1_when_the_tool_fails() {
    let (code, out) = run(
        &["call", "items_get_item", "item_id=ITEM42"],
        "http://127.0.0.1:9",
    )
    .await;
    assert_eq!(code, ExitCode::from(1));
    let value: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(value["success"], false);
    assert_eq!(value["error"]["code"], "UNRESOLVED_ENTITY");
}

#[tokio::test]
async fn usage_errors_exit_2_and_print_nothing_on_stdout() {
    let cases: &[&[&str]] = &[
        &["call", "no_such_tool"],
        &["call", "items_get_item", "item_id"],
        &["call", "items_get_item", "{not json"],
        &["call", "items_get_item", "[1]"],
        &["frobnicate"],
        &["tools", "--yaml"],
        &["serve", "--http", "not-an-address"],
        &["serve", "--http", "localhost:99999"],
        &["serve", "--http", "local host:8000"],
        &["serve", "--allow-host", "example.org"],
    ];
    for args in cases {
        let (code, out) = run(args, "http://127.0.0.1:9").await;
        assert_eq!(code, ExitCode::from(2), "{args:?}");
        assert!(out.is_empty(), "{args:?} wrote to stdout: {out}");
    }
}

#[tokio::test]
async fn a_port_in_use_is_a_configuration_error_by_address_or_host_name() {
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = taken.local_addr().unwrap().port();
    for addr in [format!("127.0.0.1:{port}"), format!("localhost:{port}")] {
        let (code, out) = run(&["serve", "--http", &addr], "http://127.0.0.1:9").await;
        assert_eq!(code, ExitCode::from(2), "{addr}");
        assert!(out.is_empty(), "{out}");
    }
}

#[test]
fn a_bind_failure_names_the_address_and_another_port() {
    let e = lifesciences_core::serve::BindError {
        addr: "localhost:8000".into(),
        suggested: 8001,
        source: std::io::Error::from(std::io::ErrorKind::AddrInUse),
    };
    let text = e.to_string();
    assert!(
        text.starts_with("cannot listen on localhost:8000: "),
        "{text}"
    );
    assert!(text.contains("--http 127.0.0.1:8001"), "{text}");
}

#[tokio::test]
async fn a_configuration_error_exits_2() {
    let mut out = Vec::new();
    let code = cli::run::<TestServer>(
        ["items-mcp", "call", "items_get_item", "item_id=ITEM:1"],
        Env::from_pairs(&[("ITEMS_API_URL", "nope")]),
        &mut out,
    )
    .await;
    assert_eq!(code, ExitCode::from(2));
    assert!(out.is_empty());
}

#[tokio::test]
async fn check_probes_every_upstream_and_exits_0_when_all_answer() {
    let upstream = mock_upstream().await;
    Mock::given(path("/items/1"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({"number": 1})))
        .expect(1)
        .mount(&upstream)
        .await;
    let (code, out) = run(&["check"], &upstream.uri()).await;
    assert_eq!(code, ExitCode::SUCCESS, "{out}");
    assert!(out.starts_with("items-mcp "), "{out}");
    assert!(out.contains("checking 1 upstream(s)"), "{out}");
    assert!(
        out.contains(&format!("Items  {}/items/1", upstream.uri())),
        "names the source and the URL: {out}"
    );
    assert!(out.contains("reachable (HTTP 200) in "), "{out}");
    assert!(out.contains("All upstreams are reachable."), "{out}");
}

#[tokio::test]
async fn check_names_the_status_of_an_upstream_that_answers_wrongly_and_exits_1() {
    let upstream = mock_upstream().await;
    Mock::given(path("/items/1"))
        .respond_with(ResponseTemplate::new(404))
        .mount(&upstream)
        .await;
    let (code, out) = run(&["check"], &upstream.uri()).await;
    assert_eq!(code, ExitCode::FAILURE, "{out}");
    assert!(out.contains("NOT reachable"), "{out}");
    assert!(out.contains("HTTP 404 Not Found"), "{out}");
    assert!(out.contains("1 of 1 upstream(s) not reachable"), "{out}");
    assert_eq!(
        upstream.received_requests().await.unwrap().len(),
        1,
        "one request, no retries"
    );
}

#[tokio::test]
async fn check_says_why_an_unreachable_upstream_cannot_be_reached() {
    // A port nothing listens on: the connection is refused.
    let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", closed.local_addr().unwrap());
    drop(closed);
    let (code, out) = run(&["check"], &url).await;
    assert_eq!(code, ExitCode::FAILURE, "{out}");
    assert!(out.contains("NOT reachable"), "{out}");
    assert!(out.contains("connection refused"), "{out}");
    // A name that cannot resolve (`.invalid` is reserved and never resolves).
    let (code, out) = run(&["check"], "http://no-such-host.invalid").await;
    assert_eq!(code, ExitCode::FAILURE, "{out}");
    assert!(
        out.contains("DNS: cannot resolve no-such-host.invalid"),
        "{out}"
    );
}

#[tokio::test]
async fn placeholders_count_as_unset_and_one_warning_names_every_one_read() {
    let upstream = upstream().await;
    let capture = lifesciences_core::testing::LogCapture::start();
    let uri = upstream.uri();
    // What Claude Desktop passes for settings left blank, and other clients' unexpanded
    // forms; `UNRELATED` is not read by the server, so it is not named.
    let env = mock_env(&[
        ("ITEMS_API_URL", &uri),
        ("ITEMS_RATE_LIMIT", "${user_config.items_rate_limit}"),
        (
            "ITEMS_MAX_CONCURRENT",
            "${user_config.items_max_concurrent}",
        ),
        ("ITEMS_TIMEOUT_SECS", " ${user_config.items_timeout_secs} "),
        (
            "LIFESCIENCES_TIMEOUT_SECS",
            "${env:LIFESCIENCES_TIMEOUT_SECS}",
        ),
        (
            "LIFESCIENCES_CACHE_TTL_SECS",
            "${LIFESCIENCES_CACHE_TTL_SECS}",
        ),
        ("LIFESCIENCES_CA_FILE", "${user_config.ca_file}"),
        ("HTTPS_PROXY", "${user_config.https_proxy}"),
        ("NO_PROXY", "${user_config.no_proxy}"),
        ("UNRELATED", "${user_config.unrelated}"),
    ]);
    let mut out = Vec::new();
    let code = cli::run::<TestServer>(
        ["items-mcp", "call", "items_get_item", "item_id=ITEM:42"],
        env,
        &mut out,
    )
    .await;
    let out = String::from_utf8(out).unwrap();
    assert_eq!(code, ExitCode::SUCCESS, "{out}");
    assert_eq!(
        serde_json::from_str::<Value>(&out).unwrap()["name"],
        "answer"
    );
    let logged = capture.contents();
    let warnings: Vec<&str> = logged
        .lines()
        .filter(|line| line.contains("placeholder"))
        .collect();
    assert_eq!(warnings.len(), 1, "{logged}");
    assert!(warnings[0].contains("WARN"), "{logged}");
    assert!(
        warnings[0].ends_with(
            "items-mcp: settings left as unexpanded placeholders (${…}) are read as unset, \
             using their defaults: HTTPS_PROXY, ITEMS_MAX_CONCURRENT, ITEMS_RATE_LIMIT, \
             ITEMS_TIMEOUT_SECS, LIFESCIENCES_CACHE_TTL_SECS, LIFESCIENCES_CA_FILE, \
             LIFESCIENCES_TIMEOUT_SECS, NO_PROXY"
        ),
        "{logged}"
    );
}

#[tokio::test]
async fn without_placeholders_nothing_is_said_about_them() {
    let capture = lifesciences_core::testing::LogCapture::start();
    let (code, _) = run(&["tools"], "http://127.0.0.1:9").await;
    assert_eq!(code, ExitCode::SUCCESS);
    assert!(!capture.contents().contains("placeholder"));
}

#[tokio::test]
async fn a_proxy_or_ca_file_that_cannot_be_used_exits_2_before_any_request() {
    let missing = format!(
        "{}/tests/fixtures/tls/missing.pem",
        env!("CARGO_MANIFEST_DIR")
    );
    for pair in [
        ("HTTPS_PROXY", "http://proxy example.org:3128"),
        ("LIFESCIENCES_CA_FILE", missing.as_str()),
    ] {
        let mut out = Vec::new();
        let code = cli::run::<TestServer>(
            ["items-mcp", "check"],
            mock_env(&[("ITEMS_API_URL", "http://127.0.0.1:9"), pair]),
            &mut out,
        )
        .await;
        assert_eq!(code, ExitCode::from(2), "{pair:?}");
        assert!(out.is_empty(), "{pair:?}");
        let err = TestServer::from_env(&Env::from_pairs(&[pair])).unwrap_err();
        assert!(err.to_string().starts_with(pair.0), "{err}");
    }
}

#[tokio::test]
async fn authentication_that_cannot_be_used_exits_2_before_listening() {
    let folder = lifesciences_core::testing::TempFolder::new("cli-auth").unwrap();
    let tokens = folder.path().join("tokens");
    std::fs::write(&tokens, "ada my-plain-token\n").unwrap();
    let tokens = tokens.display().to_string();
    for (args, pairs, says) in [
        (
            vec!["serve", "--http", "127.0.0.1:0"],
            vec![(
                "LIFESCIENCES_AUTH_ISSUER",
                "https://id.example.org/realms/lab",
            )],
            "LIFESCIENCES_AUTH_ISSUER is set but LIFESCIENCES_PUBLIC_URL is not",
        ),
        (
            vec![
                "serve",
                "--http",
                "127.0.0.1:0",
                "--auth-issuer",
                "http://id.example.org/realms/lab",
                "--public-url",
                "https://mcp.example.org/mcp",
            ],
            vec![],
            "LIFESCIENCES_AUTH_ISSUER=\"http://id.example.org/realms/lab\" is not valid",
        ),
        (
            vec![
                "serve",
                "--http",
                "127.0.0.1:0",
                "--auth-tokens-file",
                &tokens,
            ],
            vec![],
            "line 1: the second field must be `sha256:`",
        ),
    ] {
        let mut pairs = pairs;
        pairs.push(("ITEMS_API_URL", "http://127.0.0.1:9"));
        let argv = std::iter::once("items-mcp").chain(args.iter().copied());
        let mut out = Vec::new();
        let started = std::time::Instant::now();
        let code = cli::run::<TestServer>(argv, mock_env(&pairs), &mut out).await;
        assert_eq!(code, ExitCode::from(2), "{args:?}");
        assert!(started.elapsed() < std::time::Duration::from_secs(2));
        // The message goes to stderr (not captured here); what it says is checked through
        // the function the command line calls.
        let env = Env::from_pairs(&pairs);
        let env = args
            .windows(2)
            .filter_map(|w| match w[0] {
                "--auth-issuer" => Some(("LIFESCIENCES_AUTH_ISSUER", w[1])),
                "--public-url" => Some(("LIFESCIENCES_PUBLIC_URL", w[1])),
                "--auth-tokens-file" => Some(("LIFESCIENCES_AUTH_TOKENS_FILE", w[1])),
                _ => None,
            })
            .fold(env, |env, (var, value)| env.with_var(var, value.to_owned()));
        let refused = lifesciences_core::serve::auth::Auth::from_env(&env).unwrap_err();
        assert!(refused.to_string().contains(says), "{refused}");
        assert!(!refused.to_string().contains("my-pl"), "{refused}");
    }
}
