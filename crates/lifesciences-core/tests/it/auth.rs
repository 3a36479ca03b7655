//! Authentication over Streamable HTTP, as a client and the issuer see it: the challenge
//! and the protected-resource metadata, every family of bad token refused (and what the
//! issuer was asked meanwhile), key rotation and an issuer that is down, static tokens,
//! sessions bound to their principal, the per-principal request rate, and what reaches
//! the logs and the upstream.

use std::sync::Arc;
use std::time::{Duration, Instant};

use lifesciences_core::Env;
use lifesciences_core::serve::auth::{self, Auth};
use lifesciences_core::serve::{self, HttpOptions, HttpServer};
use lifesciences_core::testing::{
    LogCapture, SigningKey, TempFolder, TestIssuer, TestServer, mock_upstream,
};
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};
use wiremock::matchers::path;
use wiremock::{Mock, MockServer, ResponseTemplate};

use crate::transport::INITIALIZE;

mod bad_tokens;

/// An HTTP answer, read whole.
#[derive(Debug)]
pub(crate) struct Answer {
    pub(crate) status: u16,
    headers: Vec<(String, String)>,
    pub(crate) body: String,
}

impl Answer {
    pub(crate) fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    fn challenge(&self) -> &str {
        self.header("www-authenticate").unwrap_or_default()
    }

    /// The JSON-RPC message of the body: plain JSON, or the `data:` of an event stream.
    pub(crate) fn message(&self) -> Value {
        serde_json::from_str(&self.body)
            .ok()
            .or_else(|| {
                self.body
                    .lines()
                    .filter_map(|l| l.strip_prefix("data:"))
                    .filter_map(|d| serde_json::from_str::<Value>(d.trim()).ok())
                    .find(|m| m.get("id").is_some())
            })
            .unwrap_or(Value::Null)
    }
}

/// Send one request to `addr` and read the answer whole (chunked bodies decoded).
pub(crate) async fn send(
    addr: std::net::SocketAddr,
    method: &str,
    target: &str,
    headers: &[(&str, &str)],
    body: &str,
) -> Answer {
    let mut request =
        format!("{method} {target} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n");
    for (name, value) in headers {
        request.push_str(&format!("{name}: {value}\r\n"));
    }
    if method == "POST" {
        request.push_str(&format!(
            "Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\n\
             Content-Length: {}\r\n",
            body.len()
        ));
    }
    request.push_str("\r\n");
    request.push_str(body);
    let mut stream = tokio::net::TcpStream::connect(addr).await.unwrap();
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut raw = Vec::new();
    tokio::time::timeout(Duration::from_secs(10), stream.read_to_end(&mut raw))
        .await
        .expect("an answer in time")
        .unwrap();
    let raw = String::from_utf8_lossy(&raw).into_owned();
    let (head, body) = raw.split_once("\r\n\r\n").unwrap_or((&raw, ""));
    let mut lines = head.lines();
    let status = lines
        .next()
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let headers: Vec<(String, String)> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(n, v)| (n.trim().to_owned(), v.trim().to_owned()))
        .collect();
    let chunked = headers
        .iter()
        .any(|(n, v)| n.eq_ignore_ascii_case("transfer-encoding") && v.contains("chunked"));
    let body = if chunked {
        dechunk(body)
    } else {
        body.to_owned()
    };
    Answer {
        status,
        headers,
        body,
    }
}

fn dechunk(mut body: &str) -> String {
    let mut out = String::new();
    while let Some((size, rest)) = body.split_once("\r\n") {
        let Ok(size) = usize::from_str_radix(size.trim(), 16) else {
            break;
        };
        if size == 0 || rest.len() < size {
            break;
        }
        out.push_str(&rest[..size]);
        body = rest[size..].trim_start_matches("\r\n");
    }
    out
}

pub(crate) fn bearer(token: &str) -> String {
    format!("Bearer {token}")
}

/// `initialize` with `authorization` (none when empty).
async fn initialize(addr: std::net::SocketAddr, authorization: &str) -> Answer {
    let headers: Vec<(&str, &str)> = if authorization.is_empty() {
        vec![]
    } else {
        vec![("Authorization", authorization)]
    };
    send(addr, "POST", "/mcp", &headers, INITIALIZE).await
}

/// A server over `upstream` whose authentication the variables `env` configure.
async fn serving(env: &[(&str, String)], upstream: &str) -> HttpServer {
    serving_with(env, upstream, |auth, _| auth).await
}

async fn serving_with(
    env: &[(&str, String)],
    upstream: &str,
    adjust: impl FnOnce(Auth, &mut HttpOptions) -> Auth,
) -> HttpServer {
    let pairs: Vec<(&str, &str)> = env.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let auth = Auth::from_env(&Env::from_pairs(&pairs))
        .unwrap()
        .expect("authentication configured");
    let mut options = HttpOptions::new("127.0.0.1:0");
    let auth = adjust(auth, &mut options);
    options.auth = Some(Arc::new(auth));
    serve::start_http(TestServer::for_mock(upstream), options)
        .await
        .unwrap()
}

/// A session opened with `authorization`: its id.
async fn open_session(addr: std::net::SocketAddr, authorization: &str) -> String {
    let init = initialize(addr, authorization).await;
    assert_eq!(init.status, 200, "{init:?}");
    let session = init.header("mcp-session-id").expect("a session").to_owned();
    let initialized = r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;
    let accepted = in_session(addr, authorization, &session, initialized).await;
    assert_eq!(accepted.status, 202, "{accepted:?}");
    session
}

async fn in_session(
    addr: std::net::SocketAddr,
    authorization: &str,
    session: &str,
    body: &str,
) -> Answer {
    send(
        addr,
        "POST",
        "/mcp",
        &[
            ("Authorization", authorization),
            ("Mcp-Session-Id", session),
            ("Mcp-Protocol-Version", "2025-11-25"),
        ],
        body,
    )
    .await
}

const LIST_TOOLS: &str = r#"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#;
const CALL_42: &str = r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"items_get_item","arguments":{"item_id":"ITEM:42"}}}"#;

/// An upstream that answers item 42.
async fn items() -> MockServer {
    let upstream = mock_upstream().await;
    Mock::given(path("/items/42"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({"number": 42})))
        .mount(&upstream)
        .await;
    upstream
}

#[tokio::test]
async fn without_a_token_the_challenge_points_to_the_metadata_served_at_both_urls_to_any_origin() {
    let issuer = TestIssuer::start().await;
    let mut env = issuer.env();
    env.push((auth::SCOPES_VAR, "mcp:tools".to_owned()));
    let running = serving(&env, "http://127.0.0.1:9").await;
    let addr = running.local_addr;

    let refused = initialize(addr, "").await;
    assert_eq!(refused.status, 401, "{refused:?}");
    let metadata_url = "https://mcp.test.example/.well-known/oauth-protected-resource/mcp";
    assert_eq!(
        refused.challenge(),
        format!("Bearer scope=\"mcp:tools\", resource_metadata=\"{metadata_url}\"")
    );
    assert!(
        refused.message()["error"]["message"]
            .as_str()
            .unwrap()
            .contains("Authorization: Bearer")
    );

    for at in [
        "/.well-known/oauth-protected-resource/mcp",
        "/.well-known/oauth-protected-resource",
    ] {
        let metadata = send(addr, "GET", at, &[("Origin", "https://app.example")], "").await;
        assert_eq!(metadata.status, 200, "{at}: {metadata:?}");
        assert_eq!(metadata.header("access-control-allow-origin"), Some("*"));
        assert_eq!(
            serde_json::from_str::<Value>(&metadata.body).unwrap(),
            json!({
                "resource": TestIssuer::AUDIENCE,
                "authorization_servers": [issuer.issuer()],
                "bearer_methods_supported": ["header"],
                "resource_name": "items-mcp",
                "scopes_supported": ["mcp:tools"],
            })
        );
        let preflight = send(
            addr,
            "OPTIONS",
            at,
            &[
                ("Origin", "https://app.example"),
                ("Access-Control-Request-Method", "GET"),
                ("Access-Control-Request-Headers", "mcp-protocol-version"),
            ],
            "",
        )
        .await;
        assert_eq!(preflight.status, 204, "{preflight:?}");
        assert_eq!(preflight.header("access-control-allow-origin"), Some("*"));
        assert!(
            preflight
                .header("access-control-allow-methods")
                .unwrap()
                .contains("GET")
        );
        assert_eq!(
            preflight.header("access-control-allow-headers"),
            Some("mcp-protocol-version")
        );
    }
    // A browser's preflight of /mcp carries no credential, and is not refused for it.
    let preflight = send(
        addr,
        "OPTIONS",
        "/mcp",
        &[
            ("Origin", "http://localhost:5173"),
            ("Access-Control-Request-Method", "POST"),
        ],
        "",
    )
    .await;
    assert_ne!(preflight.status, 401, "{preflight:?}");
    // Nothing was asked of the issuer: no token came.
    assert_eq!(issuer.metadata_requests() + issuer.jwks_requests(), 0);

    // /health stays public and names no one.
    let health = send(addr, "GET", "/health", &[], "").await;
    assert_eq!(health.status, 200);
    let health: Value = serde_json::from_str(&health.body).unwrap();
    assert_eq!(
        health.as_object().unwrap().keys().collect::<Vec<_>>(),
        ["revision", "server", "status", "version"]
    );
    running.shutdown(Duration::from_secs(1)).await;
}

#[tokio::test]
async fn the_issuers_token_lets_its_subject_in_and_the_call_runs_on_its_behalf() {
    let issuer = TestIssuer::start().await;
    let upstream = items().await;
    let running = serving(&issuer.env(), &upstream.uri()).await;
    let addr = running.local_addr;
    let token = issuer.token().sign();
    let capture = LogCapture::start();

    let session = open_session(addr, &bearer(&token)).await;
    let called = in_session(addr, &bearer(&token), &session, CALL_42).await;
    assert_eq!(called.status, 200, "{called:?}");
    assert_eq!(
        called.message()["result"]["structuredContent"]["id"],
        "ITEM:42"
    );
    // The call ran on behalf of the token's subject (the fair queue reads it there).
    let logs = capture.contents();
    let prefix: String = ring::digest::digest(&ring::digest::SHA256, token.as_bytes()).as_ref()
        [..4]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    assert!(
        logs.contains(&format!(
            "tool=items_get_item principal=issuer:ada weight=1 token={prefix}"
        )),
        "{logs}"
    );
    // The token never reached the upstream.
    for request in upstream.received_requests().await.unwrap() {
        assert!(
            request.headers.get("authorization").is_none(),
            "{request:?}"
        );
    }
    // The issuer was asked once for its metadata and once for its keys.
    assert_eq!((issuer.metadata_requests(), issuer.jwks_requests()), (1, 1));
    running.shutdown(Duration::from_secs(1)).await;
}

#[tokio::test]
async fn a_stateless_call_runs_on_behalf_of_its_principal_too() {
    let issuer = TestIssuer::start().await;
    let upstream = items().await;
    let running = serving_with(&issuer.env(), &upstream.uri(), |auth, options| {
        options.stateless = true;
        auth
    })
    .await;
    let capture = LogCapture::start();
    let token = issuer.token().claim("sub", "grace").sign();
    let called = send(
        running.local_addr,
        "POST",
        "/mcp",
        &[
            ("Authorization", &bearer(&token)),
            ("Mcp-Protocol-Version", "2025-11-25"),
        ],
        CALL_42,
    )
    .await;
    assert_eq!(called.status, 200, "{called:?}");
    assert_eq!(
        called.message()["result"]["structuredContent"]["id"],
        "ITEM:42"
    );
    let logs = capture.contents();
    assert!(
        logs.contains("tool=items_get_item principal=issuer:grace"),
        "{logs}"
    );
    running.shutdown(Duration::from_secs(1)).await;
}

fn now_secs() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs()
}

#[tokio::test]
async fn each_algorithm_verifies_with_a_key_of_its_own_and_typ_jwt_passes_when_allowed() {
    let issuer = TestIssuer::start().await;
    let ps = SigningKey::rsa_b("rsa-pss").pss();
    let es = SigningKey::es256("ec-1");
    let ed = SigningKey::ed25519("ed-1");
    // The RSA key without `alg` verifies RS256 and PS256 alike; the others are pinned.
    issuer.publish(vec![
        issuer.key().jwk_without_alg(),
        ps.jwk(),
        es.jwk(),
        ed.jwk(),
    ]);
    let mut env = issuer.env();
    env.push((auth::ACCEPT_TYP_JWT_VAR, "1".to_owned()));
    let running = serving(&env, "http://127.0.0.1:9").await;
    let addr = running.local_addr;
    for (what, token) in [
        ("RS256", issuer.token().sign()),
        (
            "PS256 by a key without alg",
            issuer.token().signed_by(&issuer.key().clone().pss()).sign(),
        ),
        ("PS256", issuer.token().signed_by(&ps).sign()),
        ("ES256", issuer.token().signed_by(&es).sign()),
        ("EdDSA", issuer.token().signed_by(&ed).sign()),
        (
            "typ JWT, allowed",
            issuer.token().header("typ", "JWT").sign(),
        ),
        (
            "no typ, allowed",
            issuer.token().header("typ", Value::Null).sign(),
        ),
    ] {
        let answer = initialize(addr, &bearer(&token)).await;
        assert_eq!(answer.status, 200, "{what}: {answer:?}");
    }
    // A key pinned to PS256 does not verify RS256, even with its own signature.
    let rs_by_ps_key = issuer
        .token()
        .signed_by(&SigningKey::rsa_b("rsa-pss"))
        .sign();
    let refused = initialize(addr, &bearer(&rs_by_ps_key)).await;
    assert_eq!(refused.status, 401);
    assert!(
        refused.challenge().contains("does not publish"),
        "{}",
        refused.challenge()
    );
    running.shutdown(Duration::from_secs(1)).await;
}

#[tokio::test]
async fn a_rotated_key_is_fetched_once_and_a_flood_of_unknown_kids_fetches_once() {
    let issuer = TestIssuer::start().await;
    let running = serving_with(&issuer.env(), "http://127.0.0.1:9", |auth, _| {
        auth.with_refetch_after(Duration::from_millis(300))
    })
    .await;
    let addr = running.local_addr;
    // A flood of unknown kids on a cold server: the key set is fetched once, for all.
    let flood = (0..40).map(|n| {
        let token = issuer.token().header("kid", format!("unknown-{n}")).sign();
        async move { initialize(addr, &bearer(&token)).await.status }
    });
    let statuses = futures::future::join_all(flood).await;
    assert!(statuses.iter().all(|s| *s == 401), "{statuses:?}");
    assert_eq!(issuer.jwks_requests(), 1);
    assert_eq!(
        initialize(addr, &bearer(&issuer.token().sign()))
            .await
            .status,
        200
    );
    assert_eq!(issuer.jwks_requests(), 1, "a known kid is not fetched");

    // The issuer rotates: a token by the new key makes one fetch, then is known.
    let next = SigningKey::rsa_b("rsa-2");
    issuer.publish(vec![issuer.key().jwk(), next.jwk()]);
    tokio::time::sleep(Duration::from_millis(350)).await;
    for _ in 0..5 {
        let answer = initialize(addr, &bearer(&issuer.token().signed_by(&next).sign())).await;
        assert_eq!(answer.status, 200, "{answer:?}");
    }
    assert_eq!(issuer.jwks_requests(), 2);
    // Another flood at once: still at most one fetch per interval.
    let flood = (0..40).map(|n| {
        let token = issuer.token().header("kid", format!("again-{n}")).sign();
        async move { initialize(addr, &bearer(&token)).await.status }
    });
    futures::future::join_all(flood).await;
    assert!(issuer.jwks_requests() <= 3, "{}", issuer.jwks_requests());
    // The old key, withdrawn, stops verifying once the set is fetched again.
    issuer.publish(vec![next.jwk()]);
    tokio::time::sleep(Duration::from_millis(350)).await;
    let withdrawn = issuer.token().header("kid", "probe").sign();
    assert_eq!(initialize(addr, &bearer(&withdrawn)).await.status, 401);
    assert_eq!(
        initialize(addr, &bearer(&issuer.token().sign()))
            .await
            .status,
        401
    );
    assert_eq!(issuer.metadata_requests(), 1, "the metadata is read once");
    running.shutdown(Duration::from_secs(1)).await;
}

#[tokio::test]
async fn a_start_never_waits_for_the_issuer_and_cached_keys_outlive_it() {
    let issuer = TestIssuer::start().await;
    issuer.set_down(true);
    let started = Instant::now();
    let running = serving(&issuer.env(), "http://127.0.0.1:9").await;
    assert!(started.elapsed() < Duration::from_secs(1));
    assert_eq!(
        issuer.metadata_requests() + issuer.jwks_requests(),
        0,
        "nothing asked at start"
    );
    let addr = running.local_addr;

    // Down from the start: no key to verify with, which is said as such.
    let unavailable = initialize(addr, &bearer(&issuer.token().sign())).await;
    assert_eq!(unavailable.status, 503, "{unavailable:?}");
    assert_eq!(unavailable.header("retry-after"), Some("10"));
    running.shutdown(Duration::from_secs(1)).await;

    // Up, then down: the keys fetched keep verifying; a new kid cannot be had.
    issuer.set_down(false);
    let running = serving_with(&issuer.env(), "http://127.0.0.1:9", |auth, _| {
        auth.with_refetch_after(Duration::from_millis(100))
    })
    .await;
    let addr = running.local_addr;
    assert_eq!(
        initialize(addr, &bearer(&issuer.token().sign()))
            .await
            .status,
        200
    );
    issuer.set_down(true);
    tokio::time::sleep(Duration::from_millis(150)).await;
    let fetched = issuer.jwks_requests();
    for _ in 0..3 {
        assert_eq!(
            initialize(addr, &bearer(&issuer.token().sign()))
                .await
                .status,
            200
        );
    }
    let unknown = issuer.token().header("kid", "rsa-9").sign();
    assert_eq!(initialize(addr, &bearer(&unknown)).await.status, 401);
    assert!(
        issuer.jwks_requests() > fetched,
        "the unknown kid was looked for"
    );
    running.shutdown(Duration::from_secs(1)).await;
}

#[tokio::test]
async fn an_issuer_with_openid_discovery_only_is_found_there() {
    let issuer = TestIssuer::start_oidc_only().await;
    let running = serving(&issuer.env(), "http://127.0.0.1:9").await;
    let answer = initialize(running.local_addr, &bearer(&issuer.token().sign())).await;
    assert_eq!(answer.status, 200, "{answer:?}");
    assert_eq!((issuer.metadata_requests(), issuer.jwks_requests()), (1, 1));
    running.shutdown(Duration::from_secs(1)).await;
}

#[tokio::test]
async fn a_session_answers_only_its_principal_and_the_cap_is_per_principal() {
    let issuer = TestIssuer::start().await;
    let running = serving_with(&issuer.env(), "http://127.0.0.1:9", |auth, options| {
        options.max_sessions = 2;
        auth
    })
    .await;
    let addr = running.local_addr;
    let ada = bearer(&issuer.token().sign());
    let bob = bearer(&issuer.token().claim("sub", "bob").sign());

    let ada_1 = open_session(addr, &ada).await;
    // Bob's credential on Ada's session: 404, as for a session that does not exist, for
    // every method; Ada's session is untouched.
    let post = in_session(addr, &bob, &ada_1, LIST_TOOLS).await;
    assert_eq!(post.status, 404, "{post:?}");
    assert!(post.body.contains("initialize a new session"), "{post:?}");
    for method in ["GET", "DELETE"] {
        let answer = send(
            addr,
            method,
            "/mcp",
            &[
                ("Authorization", bob.as_str()),
                ("Mcp-Session-Id", ada_1.as_str()),
                ("Mcp-Protocol-Version", "2025-11-25"),
                ("Accept", "text/event-stream"),
            ],
            "",
        )
        .await;
        assert_eq!(answer.status, 404, "{method}: {answer:?}");
    }
    // Without a credential it is 401 before anything is said of the session.
    let anonymous = send(
        addr,
        "DELETE",
        "/mcp",
        &[("Mcp-Session-Id", ada_1.as_str())],
        "",
    )
    .await;
    assert_eq!(anonymous.status, 401);
    let listed = in_session(addr, &ada, &ada_1, LIST_TOOLS).await;
    assert!(listed.body.contains("items_get_item"), "{listed:?}");

    // The cap of 2 is per principal: Ada's third session evicts her least recently used
    // one, never Bob's, although Bob's are older.
    let bob_1 = open_session(addr, &bob).await;
    let bob_2 = open_session(addr, &bob).await;
    let ada_2 = open_session(addr, &ada).await;
    let _ada_3 = open_session(addr, &ada).await;
    assert_eq!(in_session(addr, &ada, &ada_1, LIST_TOOLS).await.status, 404);
    for (who, session) in [(&ada, &ada_2), (&bob, &bob_1), (&bob, &bob_2)] {
        let answer = in_session(addr, who, session, LIST_TOOLS).await;
        assert!(answer.body.contains("items_get_item"), "{answer:?}");
    }
    running.shutdown(Duration::from_secs(1)).await;
}

/// A static tokens file line for `name`'s `token`.
pub(crate) fn token_line(name: &str, token: &str, weight: &str) -> String {
    let hex: String = ring::digest::digest(&ring::digest::SHA256, token.as_bytes())
        .as_ref()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    format!("{name} sha256:{hex} {weight}\n")
}

#[tokio::test]
async fn static_tokens_let_their_principals_in_with_their_weight_and_are_reread() {
    let folder = TempFolder::new("auth").unwrap();
    let file = folder.path().join("tokens");
    let (ada, grace) = ("s3cret-ada-0123456789", "s3cret-grace-0123456789");
    std::fs::write(
        &file,
        format!(
            "# lab\n{}{}",
            token_line("ada", ada, "weight=3"),
            token_line("grace", grace, "")
        ),
    )
    .unwrap();
    let upstream = items().await;
    let running = serving(
        &[(auth::TOKENS_FILE_VAR, file.display().to_string())],
        &upstream.uri(),
    )
    .await;
    let addr = running.local_addr;
    let capture = LogCapture::start();

    let session = open_session(addr, &bearer(ada)).await;
    let called = in_session(addr, &bearer(ada), &session, CALL_42).await;
    assert_eq!(
        called.message()["result"]["structuredContent"]["id"],
        "ITEM:42"
    );
    assert!(
        capture.contents().contains("principal=token:ada weight=3"),
        "{}",
        capture.contents()
    );
    assert_eq!(initialize(addr, &bearer(grace)).await.status, 200);
    // No issuer: no metadata, a plain challenge.
    let refused = initialize(addr, &bearer("s3cret-ada-012345678")).await;
    assert_eq!(refused.status, 401);
    assert_eq!(
        refused.challenge(),
        "Bearer error=\"invalid_token\", error_description=\"the token is not one this server accepts\""
    );
    assert_eq!(
        send(
            addr,
            "GET",
            "/.well-known/oauth-protected-resource",
            &[],
            ""
        )
        .await
        .status,
        404
    );

    // A new version of the file is read within a couple of seconds: Grace is out, Cy in.
    let cy = "s3cret-cy-0123456789";
    std::fs::write(
        &file,
        format!(
            "{}{}",
            token_line("ada", ada, "weight=3"),
            token_line("cy", cy, "")
        ),
    )
    .unwrap();
    let deadline = Instant::now() + Duration::from_secs(5);
    while initialize(addr, &bearer(cy)).await.status != 200 {
        assert!(Instant::now() < deadline, "the new file was not read");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    assert_eq!(initialize(addr, &bearer(grace)).await.status, 401);
    // A version that breaks keeps the last good one, with one warning.
    std::fs::write(&file, "cy 0123456789\n").unwrap();
    tokio::time::sleep(Duration::from_millis(2500)).await;
    assert_eq!(initialize(addr, &bearer(cy)).await.status, 200);
    let logs = capture.contents();
    assert_eq!(
        logs.matches("the last good version stays in use").count(),
        1,
        "{logs}"
    );
    running.shutdown(Duration::from_secs(1)).await;
}

#[tokio::test]
async fn a_flood_from_one_principal_is_answered_429_and_spends_no_one_elses_allowance() {
    let folder = TempFolder::new("auth").unwrap();
    let file = folder.path().join("tokens");
    std::fs::write(
        &file,
        format!(
            "{}{}",
            token_line("ada", "tok-ada", ""),
            token_line("bob", "tok-bob", "")
        ),
    )
    .unwrap();
    let running = serving(
        &[
            (auth::TOKENS_FILE_VAR, file.display().to_string()),
            (auth::RATE_VAR, "1".to_owned()),
        ],
        "http://127.0.0.1:9",
    )
    .await;
    let addr = running.local_addr;
    // A rate of 1/s allows a burst of 10: Ada's 15th request at once is refused.
    let mut statuses = Vec::new();
    let mut retry_after = None;
    for _ in 0..15 {
        let answer = initialize(addr, &bearer("tok-ada")).await;
        if answer.status == 429 {
            retry_after = answer.header("retry-after").map(str::to_owned);
        }
        statuses.push(answer.status);
    }
    assert_eq!(
        statuses.iter().filter(|s| **s == 200).count(),
        10,
        "{statuses:?}"
    );
    assert_eq!(
        statuses.iter().filter(|s| **s == 429).count(),
        5,
        "{statuses:?}"
    );
    assert_eq!(retry_after.as_deref(), Some("1"));
    // Bob is not held by Ada's flood.
    assert_eq!(initialize(addr, &bearer("tok-bob")).await.status, 200);
    // Unauthenticated requests are counted apart: a flood of bad tokens is answered 429
    // once over its own allowance, and Bob still gets in.
    let mut bad = Vec::new();
    for _ in 0..15 {
        bad.push(initialize(addr, &bearer("wrong")).await.status);
    }
    assert_eq!(bad.iter().filter(|s| **s == 401).count(), 10, "{bad:?}");
    assert_eq!(bad.iter().filter(|s| **s == 429).count(), 5, "{bad:?}");
    assert_eq!(initialize(addr, &bearer("tok-bob")).await.status, 200);
    // /health is never throttled.
    for _ in 0..20 {
        assert_eq!(send(addr, "GET", "/health", &[], "").await.status, 200);
    }
    running.shutdown(Duration::from_secs(1)).await;
}

#[tokio::test]
async fn a_token_in_the_url_is_refused_with_or_without_authentication() {
    let folder = TempFolder::new("auth").unwrap();
    let file = folder.path().join("tokens");
    std::fs::write(&file, token_line("ada", "tok-ada", "")).unwrap();
    let with = serving(
        &[(auth::TOKENS_FILE_VAR, file.display().to_string())],
        "http://127.0.0.1:9",
    )
    .await;
    let without = serve::start_http(
        TestServer::for_mock("http://127.0.0.1:9"),
        HttpOptions::new("127.0.0.1:0"),
    )
    .await
    .unwrap();
    for running in [&with, &without] {
        let answer = send(
            running.local_addr,
            "POST",
            "/mcp?access_token=tok-ada",
            &[("Authorization", "Bearer tok-ada")],
            INITIALIZE,
        )
        .await;
        assert_eq!(answer.status, 400, "{answer:?}");
        assert!(answer.body.contains("never in the URL"), "{answer:?}");
        assert!(!answer.body.contains("tok-ada"), "{answer:?}");
    }
    let challenge = send(
        with.local_addr,
        "POST",
        "/mcp?access_token=x",
        &[],
        INITIALIZE,
    )
    .await;
    assert!(
        challenge.challenge().contains("error=\"invalid_request\""),
        "{challenge:?}"
    );
    with.shutdown(Duration::from_secs(1)).await;
    without.shutdown(Duration::from_secs(1)).await;
}

#[tokio::test]
async fn no_token_reaches_a_log_line_only_a_name_and_a_hash_prefix() {
    let issuer = TestIssuer::start().await;
    let folder = TempFolder::new("auth").unwrap();
    let file = folder.path().join("tokens");
    let secret = "s3cret-static-token-0123456789";
    std::fs::write(&file, token_line("grace", secret, "")).unwrap();
    let mut env = issuer.env();
    env.push((auth::TOKENS_FILE_VAR, file.display().to_string()));
    env.push((auth::SCOPES_VAR, "mcp:tools".to_owned()));
    let upstream = items().await;
    let capture = LogCapture::start();
    let running = serving(&env, &upstream.uri()).await;
    let addr = running.local_addr;

    let jwt = issuer.token().sign();
    let expired = issuer.token().claim("exp", 1).sign();
    let scopeless = issuer.token().claim("scope", "openid").sign();
    let forged = issuer.token().signed_by(&SigningKey::rsa_b("rsa-1")).sign();
    for token in [&jwt, &secret.to_owned()] {
        let session = open_session(addr, &bearer(token)).await;
        in_session(addr, &bearer(token), &session, CALL_42).await;
    }
    for token in [
        &expired,
        &scopeless,
        &forged,
        &"wrong-static-token-0123456789".to_owned(),
    ] {
        assert_ne!(initialize(addr, &bearer(token)).await.status, 200);
    }
    send(
        addr,
        "POST",
        &format!("/mcp?access_token={secret}"),
        &[],
        INITIALIZE,
    )
    .await;
    running.shutdown(Duration::from_secs(1)).await;

    let logs = capture.contents();
    assert!(logs.contains("principal=token:grace"), "{logs}");
    assert!(logs.contains("principal=issuer:ada"), "{logs}");
    assert!(logs.contains("access token refused"), "{logs}");
    for token in [&jwt, &expired, &scopeless, &forged] {
        // Not the token, nor its signature, nor its claims.
        for part in token.split('.') {
            assert!(
                !logs.contains(part),
                "a part of a token was logged: {part}\n{logs}"
            );
        }
    }
    assert!(!logs.contains("s3cret"), "{logs}");
    assert!(!logs.contains("wrong-static"), "{logs}");
}
