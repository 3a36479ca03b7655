//! What authentication adds to a request: the same `ping` sent over one kept-alive
//! connection to a stateless HTTP server, without authentication and with each kind of
//! credential (a static token; access tokens signed RS256, ES256 and EdDSA, their keys
//! already fetched), side by side; then the signature verifications alone (ring), which
//! are most of the difference.
//!
//! Run: `cargo bench -p lifesciences-core --bench auth` (plain `main`, no criterion; the
//! `xtask-bench` profile builds faster: `--profile xtask-bench`). Optional environment:
//! `BENCH_REQUESTS` (default 2000 per kind).
#![expect(
    clippy::print_stdout,
    clippy::unwrap_used,
    reason = "a benchmark prints its numbers and fails loudly"
)]

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use lifesciences_core::Env;
use lifesciences_core::serve::auth::{Auth, TOKENS_FILE_VAR};
use lifesciences_core::serve::{self, HttpOptions};
use lifesciences_core::testing::{SigningKey, TempFolder, TestIssuer, TestServer};
use tokio::io::{AsyncBufReadExt as _, AsyncReadExt as _, AsyncWriteExt as _, BufReader};

const PING: &str = r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#;

/// `n` pings over one connection with `authorization`; the time of each.
async fn pings(addr: SocketAddr, authorization: Option<&str>, n: usize) -> Vec<Duration> {
    let stream = tokio::net::TcpStream::connect(addr).await.unwrap();
    stream.set_nodelay(true).unwrap();
    let (read, mut write) = stream.into_split();
    let mut read = BufReader::new(read);
    let auth = authorization
        .map(|a| format!("Authorization: {a}\r\n"))
        .unwrap_or_default();
    let request = format!(
        "POST /mcp HTTP/1.1\r\nHost: {addr}\r\n{auth}Content-Type: application/json\r\n\
         Accept: application/json, text/event-stream\r\nMcp-Protocol-Version: 2025-11-25\r\n\
         Content-Length: {}\r\n\r\n{PING}",
        PING.len()
    );
    let mut times = Vec::with_capacity(n);
    for _ in 0..n {
        let started = Instant::now();
        write.write_all(request.as_bytes()).await.unwrap();
        let mut status = String::new();
        read.read_line(&mut status).await.unwrap();
        assert!(status.starts_with("HTTP/1.1 200"), "{status}");
        let mut length = 0;
        loop {
            let mut line = String::new();
            read.read_line(&mut line).await.unwrap();
            if line == "\r\n" {
                break;
            }
            if let Some((name, value)) = line.split_once(':')
                && name.eq_ignore_ascii_case("content-length")
            {
                length = value.trim().parse().unwrap();
            }
        }
        let mut body = vec![0; length];
        read.read_exact(&mut body).await.unwrap();
        times.push(started.elapsed());
    }
    times
}

fn summary(times: &mut [Duration]) -> (Duration, Duration) {
    times.sort();
    let mean = times.iter().sum::<Duration>() / times.len() as u32;
    (times[times.len() / 2], mean)
}

fn micros(d: Duration) -> f64 {
    d.as_secs_f64() * 1e6
}

/// A file of a hundred principals, the last one `static_token`'s: a token is compared
/// with each of them.
fn tokens_file(folder: &TempFolder, static_token: &str) -> std::path::PathBuf {
    let file = folder.path().join("tokens");
    let digest: String = ring::digest::digest(&ring::digest::SHA256, static_token.as_bytes())
        .as_ref()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    let mut lines = String::new();
    for i in 0..99 {
        lines.push_str(&format!("user{i} sha256:{:064x}\n", i + 1));
    }
    lines.push_str(&format!("bench sha256:{digest}\n"));
    std::fs::write(&file, lines).unwrap();
    file
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let n: usize = std::env::var("BENCH_REQUESTS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(2000);
    let issuer = TestIssuer::start().await;
    let es = SigningKey::es256("ec-1");
    let ed = SigningKey::ed25519("ed-1");
    issuer.publish(vec![issuer.key().jwk(), es.jwk(), ed.jwk()]);
    let folder = TempFolder::new("bench-auth").unwrap();
    let static_token = "bench-static-token-0123456789abcdef";
    let file = tokens_file(&folder, static_token);
    let mut env = issuer.env();
    env.push((TOKENS_FILE_VAR, file.display().to_string()));
    // High enough that the loop is never held by the request rate.
    env.push(("LIFESCIENCES_AUTH_RATE_LIMIT", "10000".to_owned()));
    let pairs: Vec<(&str, &str)> = env.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let auth = Auth::from_env(&Env::from_pairs(&pairs)).unwrap().unwrap();

    let start = |auth: Option<Auth>| async move {
        let mut options = HttpOptions::new("127.0.0.1:0");
        options.stateless = true;
        options.auth = auth.map(Arc::new);
        serve::start_http(TestServer::for_mock("http://127.0.0.1:9"), options)
            .await
            .unwrap()
    };
    let open = start(None).await;
    let checked = start(Some(auth)).await;

    let rs = issuer.token().sign();
    let es_token = issuer.token().signed_by(&es).sign();
    let ed_token = issuer.token().signed_by(&ed).sign();
    let kinds: Vec<(&str, SocketAddr, Option<String>)> = vec![
        ("no authentication", open.local_addr, None),
        (
            "static token (100 listed)",
            checked.local_addr,
            Some(format!("Bearer {static_token}")),
        ),
        (
            "access token RS256",
            checked.local_addr,
            Some(format!("Bearer {rs}")),
        ),
        (
            "access token ES256",
            checked.local_addr,
            Some(format!("Bearer {es_token}")),
        ),
        (
            "access token EdDSA",
            checked.local_addr,
            Some(format!("Bearer {ed_token}")),
        ),
    ];
    // Warm up: connections, the issuer's keys fetched once.
    for (_, addr, authorization) in &kinds {
        pings(*addr, authorization.as_deref(), 50).await;
    }
    println!("{n} pings per kind over one kept-alive connection, one at a time:\n");
    println!(
        "{:<28} {:>12} {:>12} {:>14}",
        "credential", "median µs", "mean µs", "added (median)"
    );
    let mut base = None;
    for (name, addr, authorization) in &kinds {
        let mut times = pings(*addr, authorization.as_deref(), n).await;
        let (median, mean) = summary(&mut times);
        let added = base.map_or(0.0, |b: Duration| micros(median) - micros(b));
        base.get_or_insert(median);
        println!(
            "{name:<28} {:>12.1} {:>12.1} {:>14.1}",
            micros(median),
            micros(mean),
            added
        );
    }
    assert_eq!(issuer.jwks_requests(), 1, "the keys were fetched once");

    // The verifications alone.
    println!("\nring, one verification (median of {n}):\n");
    let input_and_signature = |token: &str| {
        use base64::Engine as _;
        let (input, signature) = token.rsplit_once('.').unwrap();
        let signature = base64::engine::general_purpose::URL_SAFE_NO_PAD
            .decode(signature)
            .unwrap();
        (input.to_owned(), signature)
    };
    let jwk_bytes = |jwk: &serde_json::Value, field: &str| {
        use base64::Engine as _;
        base64::engine::general_purpose::URL_SAFE_NO_PAD
            .decode(jwk[field].as_str().unwrap())
            .unwrap()
    };
    let rsa_jwk = issuer.key().jwk();
    let (n_bytes, e_bytes) = (jwk_bytes(&rsa_jwk, "n"), jwk_bytes(&rsa_jwk, "e"));
    let es_jwk = es.jwk();
    let mut point = vec![4];
    point.extend(jwk_bytes(&es_jwk, "x"));
    point.extend(jwk_bytes(&es_jwk, "y"));
    let ed_key = jwk_bytes(&ed.jwk(), "x");
    let timed = |what: &str, verify: &dyn Fn() -> bool| {
        let mut times: Vec<Duration> = (0..n)
            .map(|_| {
                let started = Instant::now();
                assert!(verify());
                started.elapsed()
            })
            .collect();
        let (median, _) = summary(&mut times);
        println!("{what:<28} {:>12.1} µs", micros(median));
    };
    let (rs_input, rs_sig) = input_and_signature(&rs);
    timed("RS256 (2048-bit key)", &|| {
        ring::signature::RsaPublicKeyComponents {
            n: &n_bytes,
            e: &e_bytes,
        }
        .verify(
            &ring::signature::RSA_PKCS1_2048_8192_SHA256,
            rs_input.as_bytes(),
            &rs_sig,
        )
        .is_ok()
    });
    let (es_input, es_sig) = input_and_signature(&es_token);
    timed("ES256", &|| {
        ring::signature::UnparsedPublicKey::new(&ring::signature::ECDSA_P256_SHA256_FIXED, &point)
            .verify(es_input.as_bytes(), &es_sig)
            .is_ok()
    });
    let (ed_input, ed_sig) = input_and_signature(&ed_token);
    timed("EdDSA", &|| {
        ring::signature::UnparsedPublicKey::new(&ring::signature::ED25519, &ed_key)
            .verify(ed_input.as_bytes(), &ed_sig)
            .is_ok()
    });
    timed("SHA-256 of a static token", &|| {
        ring::digest::digest(&ring::digest::SHA256, static_token.as_bytes())
            .as_ref()
            .len()
            == 32
    });
    open.shutdown(Duration::from_secs(1)).await;
    checked.shutdown(Duration::from_secs(1)).await;
}
