//! How requests leave the machine: proxies named by the proxy variables (and only by
//! them: placeholders and blanks count as unset), `NO_PROXY`, the CA file whose roots are
//! trusted besides the system's, and what `check` says about a proxy.

use std::io::{Read as _, Write as _};
use std::net::TcpListener;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use lifesciences_core::config::{ConfigError, Network, Proxies};
use lifesciences_core::testing::{mock_source, mock_upstream};
use lifesciences_core::{Env, HttpClient};
use serde_json::{Value, json};
use wiremock::matchers::{method, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

fn fixture(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/tls")
        .join(name)
}

/// The network of an environment made of `pairs`.
fn network(pairs: &[(&str, &str)]) -> Arc<Network> {
    Env::from_pairs(pairs).network().unwrap()
}

/// A client of `base` that leaves the machine as `pairs` say.
fn client(base: &str, pairs: &[(&str, &str)]) -> HttpClient {
    HttpClient::new(mock_source("Proxied", base).with_network(network(pairs)))
}

/// A mock standing for a forward proxy: it answers `GET http://upstream.invalid/api/items/1`
/// (a request in absolute form, as a client sends one to an HTTP proxy).
async fn forward_proxy() -> MockServer {
    let proxy = mock_upstream().await;
    Mock::given(method("GET"))
        .and(|request: &wiremock::Request| request.url.host_str() == Some("upstream.invalid"))
        .and(path("/api/items/1"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({"via": "proxy"})))
        .mount(&proxy)
        .await;
    proxy
}

/// A port nothing listens on.
fn closed_port() -> String {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    drop(listener);
    url
}

const UPSTREAM: &str = "http://upstream.invalid/api";

async fn get(c: &HttpClient) -> Result<Value, lifesciences_core::ApiError> {
    c.get_json::<Value>("items/1", &[]).await
}

#[tokio::test]
async fn a_proxy_variable_sends_requests_through_that_proxy_in_either_case() {
    for var in ["HTTP_PROXY", "http_proxy", "ALL_PROXY", "all_proxy"] {
        let proxy = forward_proxy().await;
        let answer = get(&client(UPSTREAM, &[(var, &proxy.uri())])).await;
        // `upstream.invalid` never resolves: only the proxy can have answered.
        assert_eq!(answer.unwrap(), json!({"via": "proxy"}), "{var}");
        assert_eq!(proxy.received_requests().await.unwrap().len(), 1, "{var}");
    }
}

#[tokio::test]
async fn the_schemes_own_proxy_wins_over_all_proxy() {
    let proxy = forward_proxy().await;
    let c = client(
        UPSTREAM,
        &[("HTTP_PROXY", &proxy.uri()), ("ALL_PROXY", &closed_port())],
    );
    assert_eq!(get(&c).await.unwrap(), json!({"via": "proxy"}));
    // An HTTPS proxy is not used for an http URL.
    let unused = forward_proxy().await;
    let c = client(
        UPSTREAM,
        &[("HTTPS_PROXY", &unused.uri()), ("HTTP_PROXY", &proxy.uri())],
    );
    assert_eq!(get(&c).await.unwrap(), json!({"via": "proxy"}));
    assert!(unused.received_requests().await.unwrap().is_empty());
}

#[tokio::test]
async fn no_proxy_hosts_are_reached_directly() {
    let upstream = mock_upstream().await;
    Mock::given(path("/items/1"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({"via": "direct"})))
        .expect(1)
        .mount(&upstream)
        .await;
    let c = client(
        &upstream.uri(),
        &[
            ("HTTP_PROXY", &closed_port()),
            ("no_proxy", "localhost, 127.0.0.1"),
        ],
    );
    assert_eq!(get(&c).await.unwrap(), json!({"via": "direct"}));
}

#[tokio::test]
async fn placeholders_in_proxy_variables_are_unset_and_the_next_form_applies() {
    // Only placeholders: no proxy at all, and reqwest never reads them.
    let env = Env::from_pairs(&[
        ("HTTPS_PROXY", "${user_config.https_proxy}"),
        ("HTTP_PROXY", "${user_config.https_proxy}"),
        ("NO_PROXY", "${user_config.no_proxy}"),
    ]);
    assert_eq!(env.network().unwrap().proxies, Proxies::Direct);
    assert_eq!(
        env.placeholders(),
        ["HTTPS_PROXY", "HTTP_PROXY", "NO_PROXY"]
    );
    let upstream = mock_upstream().await;
    Mock::given(path("/items/1"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({"via": "direct"})))
        .expect(1)
        .mount(&upstream)
        .await;
    let c = HttpClient::new(
        mock_source("Direct", &upstream.uri()).with_network(env.network().unwrap()),
    );
    assert_eq!(get(&c).await.unwrap(), json!({"via": "direct"}));

    // Upper case left as a placeholder, lower case set: the lower case one is used.
    let proxy = forward_proxy().await;
    let c = client(
        UPSTREAM,
        &[
            ("HTTP_PROXY", "${user_config.http_proxy}"),
            ("http_proxy", &proxy.uri()),
        ],
    );
    assert_eq!(get(&c).await.unwrap(), json!({"via": "proxy"}));

    // Nothing set: reqwest's own look-up (the system's settings on macOS and Windows).
    assert_eq!(network(&[]).proxies, Proxies::System);
    assert_eq!(network(&[("HTTPS_PROXY", "  ")]).proxies, Proxies::System);
}

#[test]
fn a_proxy_that_is_not_a_url_is_a_configuration_error_naming_its_variable() {
    for (var, value) in [
        ("HTTPS_PROXY", "http://proxy example.org:3128"),
        ("https_proxy", "socks5://127.0.0.1:1080"),
        ("ALL_PROXY", "http://"),
        ("HTTP_PROXY", "http://user:s3cret@[not-an-ip]:3128"),
    ] {
        let err = Env::from_pairs(&[(var, value)]).network().unwrap_err();
        let ConfigError::InvalidVar { var: named, .. } = &err else {
            panic!("{err:?}");
        };
        assert_eq!(named, var);
        let text = err.to_string();
        assert!(text.contains("a proxy URL such as http://"), "{text}");
        assert!(!text.contains("s3cret"), "never shows a password: {text}");
    }
    // A bare host:port is an http proxy, as curl reads it.
    let proxies = network(&[("HTTPS_PROXY", "proxy.example.org:3128")])
        .proxies
        .clone();
    let https = proxies.for_scheme("https").unwrap();
    assert_eq!(https.var, "HTTPS_PROXY");
    assert_eq!(https.url.as_str(), "http://proxy.example.org:3128/");
    assert_eq!(proxies.for_scheme("http"), None);
}

#[tokio::test]
async fn check_names_the_proxy_a_request_failed_through_without_its_password() {
    let closed = closed_port();
    let with_password = closed.replacen("http://", "http://me:s3cret@", 1);
    let probe = client(UPSTREAM, &[("http_proxy", &with_password)])
        .probe()
        .await;
    let reason = probe.outcome.unwrap_err();
    assert!(
        reason.starts_with(&format!(
            "proxy: cannot connect to upstream.invalid through http_proxy={closed}/"
        )) || reason.starts_with(&format!(
            "proxy: connection refused by upstream.invalid through http_proxy={closed}/"
        )),
        "{reason}"
    );
    assert!(!reason.contains("s3cret"), "{reason}");
}

// ---------------------------------------------------------------------------------------
// The CA file

/// A TLS server on 127.0.0.1 with the certificate `tls/localhost.pem` (signed by the test
/// CA, `tls/ca.pem`) that answers every request `{"secure": true}`; the number of requests
/// it answered.
fn tls_upstream() -> (String, Arc<AtomicUsize>) {
    use rustls::pki_types::pem::PemObject as _;
    use rustls::pki_types::{CertificateDer, PrivateKeyDer};
    let chain = CertificateDer::pem_file_iter(fixture("localhost.pem"))
        .unwrap()
        .collect::<Result<Vec<_>, _>>()
        .unwrap();
    let key = PrivateKeyDer::from_pem_file(fixture("localhost.key")).unwrap();
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let config = Arc::new(
        rustls::ServerConfig::builder_with_provider(provider)
            .with_safe_default_protocol_versions()
            .unwrap()
            .with_no_client_auth()
            .with_single_cert(chain, key)
            .unwrap(),
    );
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!(
        "https://127.0.0.1:{}",
        listener.local_addr().unwrap().port()
    );
    let answered = Arc::new(AtomicUsize::new(0));
    let count = answered.clone();
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(stream) = stream else { continue };
            let Ok(connection) = rustls::ServerConnection::new(config.clone()) else {
                continue;
            };
            let mut tls = rustls::StreamOwned::new(connection, stream);
            let mut request = Vec::new();
            let mut buffer = [0_u8; 1024];
            // A client that does not trust the certificate ends the handshake here.
            while !request.windows(4).any(|w| w == b"\r\n\r\n") {
                match tls.read(&mut buffer) {
                    Ok(0) | Err(_) => break,
                    Ok(n) => request.extend_from_slice(&buffer[..n]),
                }
            }
            if request.windows(4).any(|w| w == b"\r\n\r\n") {
                let body = r#"{"secure":true}"#;
                let answer = format!(
                    "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
                    body.len()
                );
                // Counted before the answer leaves: the client may read it before this
                // thread runs again.
                count.fetch_add(1, Ordering::SeqCst);
                let _ = tls.write_all(answer.as_bytes());
                tls.conn.send_close_notify();
                let _ = tls.flush();
            }
        }
    });
    (url, answered)
}

#[tokio::test]
async fn the_ca_files_roots_are_trusted_for_an_upstream_besides_the_systems() {
    let (url, answered) = tls_upstream();
    let ca = fixture("ca.pem");
    let env = Env::from_pairs(&[("LIFESCIENCES_CA_FILE", ca.to_str().unwrap())]);
    let network = env.network().unwrap();
    let roots = network.extra_roots.as_ref().unwrap();
    assert_eq!(
        (roots.file.as_path(), roots.certificates.len()),
        (ca.as_path(), 1)
    );
    let c = HttpClient::new(mock_source("Tls", &url).with_network(network));
    assert_eq!(
        c.get_json::<Value>("items/1", &[]).await.unwrap(),
        json!({"secure": true})
    );
    assert_eq!(answered.load(Ordering::SeqCst), 1);

    // The same upstream without the CA file: the certificate is not trusted, and `check`
    // says so.
    let untrusted = HttpClient::new(mock_source("Tls", &url));
    let reason = untrusted.probe().await.outcome.unwrap_err();
    assert!(
        reason.starts_with("TLS: the secure connection to 127.0.0.1 failed"),
        "{reason}"
    );
    assert_eq!(answered.load(Ordering::SeqCst), 1, "no request got through");
}

#[test]
fn a_ca_file_that_cannot_be_read_or_holds_no_certificate_is_a_configuration_error_naming_it() {
    let missing = fixture("no-such-file.pem");
    let not_pem = fixture("../README.md");
    let key_only = fixture("localhost.key");
    for (file, problem) in [
        (&missing, "cannot read the file"),
        (&not_pem, "holds no PEM certificate"),
        (&key_only, "holds no PEM certificate"),
    ] {
        let shown = file.to_str().unwrap();
        let err = Env::from_pairs(&[("LIFESCIENCES_CA_FILE", shown)])
            .network()
            .unwrap_err();
        assert!(matches!(err, ConfigError::CaFile { .. }), "{err:?}");
        let text = err.to_string();
        assert!(
            text.starts_with(&format!("LIFESCIENCES_CA_FILE={shown:?}: {problem}")),
            "{text}"
        );
    }
    // A certificate block that is not a certificate.
    let garbage = std::env::temp_dir().join(format!(
        "lifesciences-core-garbage-{}.pem",
        std::process::id()
    ));
    std::fs::write(
        &garbage,
        "-----BEGIN CERTIFICATE-----\nTm90IGEgY2VydGlmaWNhdGU=\n-----END CERTIFICATE-----\n",
    )
    .unwrap();
    let err = Env::from_pairs(&[("LIFESCIENCES_CA_FILE", garbage.to_str().unwrap())])
        .network()
        .unwrap_err();
    let _ = std::fs::remove_file(&garbage);
    assert!(
        err.to_string()
            .contains("certificate 1 of 1 cannot be trusted as a root"),
        "{err}"
    );
}

#[test]
fn the_ca_file_may_hold_several_certificates_among_other_text() {
    let bundle = std::env::temp_dir().join(format!(
        "lifesciences-core-bundle-{}.pem",
        std::process::id()
    ));
    let ca = std::fs::read_to_string(fixture("ca.pem")).unwrap();
    let leaf = std::fs::read_to_string(fixture("localhost.pem")).unwrap();
    std::fs::write(
        &bundle,
        format!("Our proxy's roots\n{ca}\n# and another\n{leaf}"),
    )
    .unwrap();
    let network = network(&[("LIFESCIENCES_CA_FILE", bundle.to_str().unwrap())]);
    let _ = std::fs::remove_file(&bundle);
    assert_eq!(network.extra_roots.as_ref().unwrap().certificates.len(), 2);
}
