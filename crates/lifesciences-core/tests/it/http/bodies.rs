//! Response bodies: the size cap (declared or endless), raw bodies with their own cap and
//! media type, and bodies we cannot decode, which are UPSTREAM_ERROR, never a panic.

use std::time::Duration;

use lifesciences_core::testing::{LogCapture, Recording, mock_source, mock_upstream};
use lifesciences_core::{ApiError, ErrorCode, UpstreamFailure};
use serde::Deserialize;
use serde_json::json;
use wiremock::matchers::{header, method, path};
use wiremock::{Mock, ResponseTemplate};

use super::{client, get};

#[tokio::test]
async fn a_40_mib_body_is_refused_as_upstream_error() {
    let server = mock_upstream().await;
    Mock::given(path("/huge"))
        .respond_with(ResponseTemplate::new(200).set_body_bytes(vec![b' '; 40 * 1024 * 1024]))
        .expect(1) // never retried
        .mount(&server)
        .await;
    let c = client(mock_source("IGVF Catalog", &server.uri()));
    let err = get(&c, "huge").await.unwrap_err();
    assert!(
        matches!(
            err,
            ApiError::Upstream {
                failure: UpstreamFailure::TooLarge { limit: 33_554_432 },
                ..
            }
        ),
        "{err:?}"
    );
    assert!(
        err.to_envelope()
            .error
            .message
            .contains("larger than 32 MiB")
    );
}

/// A server that answers with an endless chunked body and reports how much it wrote
/// before the client hung up.
async fn endless_body_server() -> (String, tokio::task::JoinHandle<usize>) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let task = tokio::spawn(async move {
        let (mut socket, _) = listener.accept().await.unwrap();
        let mut head = [0u8; 4096];
        let _ = socket.read(&mut head).await;
        let _ = socket
            .write_all(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n")
            .await;
        let chunk = vec![b'['; 1024 * 1024];
        let mut written = 0usize;
        loop {
            let frame = [format!("{:x}\r\n", chunk.len()).as_bytes(), &chunk, b"\r\n"].concat();
            if socket.write_all(&frame).await.is_err() {
                return written;
            }
            written += chunk.len();
            if written > 1024 * 1024 * 1024 {
                return written; // 1 GiB: the client clearly did not stop
            }
        }
    });
    (url, task)
}

#[tokio::test]
async fn an_endless_body_without_length_is_cut_at_the_cap() {
    let (url, server) = endless_body_server().await;
    let c = client(mock_source("IGVF Catalog", &url));
    let err = get(&c, "stream").await.unwrap_err();
    assert!(
        matches!(
            err,
            ApiError::Upstream {
                failure: UpstreamFailure::TooLarge { .. },
                ..
            }
        ),
        "{err:?}"
    );
    drop(c);
    let written = server.await.unwrap();
    // The client stopped reading near the cap instead of buffering everything.
    assert!(written < 64 * 1024 * 1024, "server wrote {written} bytes");
}

#[derive(Debug, Deserialize)]
#[expect(dead_code, reason = "decoded only to exercise the decoder")]
struct Partner {
    score: f64,
}

impl lifesciences_core::Row for Partner {
    fn usable(&self) -> bool {
        true
    }
}

#[tokio::test]
async fn malformed_json_is_upstream_error_in_plain_words_and_the_log_names_the_path() {
    let server = mock_upstream().await;
    Mock::given(path("/network"))
        .respond_with(
            ResponseTemplate::new(200).set_body_json(json!([{"score": 0.9}, {"score": "high"}])),
        )
        .mount(&server)
        .await;
    Mock::given(path("/truncated"))
        .respond_with(ResponseTemplate::new(200).set_body_string(r#"[{"score": 0.9}, {"sco"#))
        .mount(&server)
        .await;
    let c = client(mock_source("STRING", &server.uri()));
    let logs = LogCapture::start();
    let err = c
        .get_json::<Vec<Partner>>("network", &[])
        .await
        .unwrap_err();
    let ApiError::Upstream {
        failure: UpstreamFailure::Decode { path, .. },
        ..
    } = &err
    else {
        panic!("{err:?}")
    };
    assert_eq!(path, "[1].score");
    assert_eq!(err.code(), ErrorCode::UpstreamError);
    // The agent reads plain words; the decoder's text and the path go to the log.
    let message = err.to_envelope().error.message;
    assert_eq!(
        message,
        "STRING answered with a body that is not the JSON it documents."
    );
    let err = c
        .get_json::<Vec<Partner>>("truncated", &[])
        .await
        .unwrap_err();
    assert!(matches!(
        err,
        ApiError::Upstream {
            failure: UpstreamFailure::Decode { .. },
            ..
        }
    ));
    let logged = logs.contents();
    assert!(logged.contains("path=[1].score"), "{logged}");
    assert!(logged.contains("undecodable upstream response"), "{logged}");
}

#[tokio::test]
async fn an_html_page_instead_of_json_is_upstream_error_not_a_panic() {
    let server = mock_upstream().await;
    Mock::given(path("/lookup"))
        .respond_with(
            ResponseTemplate::new(200).set_body_string("<html><body>Maintenance</body></html>"),
        )
        .mount(&server)
        .await;
    let c = client(mock_source("Ensembl", &server.uri()));
    let err = get(&c, "lookup").await.unwrap_err();
    assert_eq!(err.code(), ErrorCode::UpstreamError);
}

#[tokio::test]
async fn trailing_garbage_after_the_json_value_is_refused() {
    let server = mock_upstream().await;
    Mock::given(path("/x"))
        .respond_with(ResponseTemplate::new(200).set_body_string(r#"{"a":1} <html>garbage"#))
        .mount(&server)
        .await;
    let c = client(mock_source("X", &server.uri()));
    let err = get(&c, "x").await.unwrap_err();
    assert!(
        matches!(
            err,
            ApiError::Upstream {
                failure: UpstreamFailure::Decode { .. },
                ..
            }
        ),
        "{err:?}"
    );
}

/// A PNG's first bytes, as an image check looks for them.
const PNG: &[u8] = b"\x89PNG\r\n\x1a\n";

fn png_check(body: &[u8]) -> Result<(), String> {
    if body.starts_with(PNG) {
        Ok(())
    } else {
        Err("X sent something other than a PNG image".to_owned())
    }
}

#[tokio::test]
async fn a_raw_body_has_its_own_cap_and_media_type_and_a_refused_one_is_not_cached() {
    let server = mock_upstream().await;
    let mut image = PNG.to_vec();
    image.extend(vec![0u8; 4096]);
    Mock::given(method("POST"))
        .and(path("/image/network"))
        .and(header("accept", "image/png"))
        .respond_with(ResponseTemplate::new(200).set_body_raw(image.clone(), "image/png"))
        .mount(&server)
        .await;
    let html = Recording::new(
        ResponseTemplate::new(200).set_body_raw(b"<html>busy</html>".to_vec(), "text/html"),
    );
    Mock::given(method("POST"))
        .and(path("/image/other"))
        .respond_with(html.clone())
        .mount(&server)
        .await;
    // A source cap far below the image, and the cache on for POSTs.
    let c = client(
        mock_source("X", &server.uri())
            .with_max_body_bytes(16)
            .with_cached_posts()
            .with_cache_ttl(Duration::from_secs(60)),
    );
    let form = [("identifiers", "TP53")];

    let body = c
        .post_form_bytes("image/network", &form, "image/png", 8192, png_check)
        .await
        .unwrap();
    assert_eq!(body.len(), image.len());

    let over = c
        .post_form_bytes("image/network", &form, "image/png", 1024, png_check)
        .await
        .unwrap_err();
    assert!(
        matches!(
            over,
            ApiError::Upstream {
                failure: UpstreamFailure::TooLarge { limit: 1024 },
                ..
            }
        ),
        "{over:?}"
    );

    for _ in 0..2 {
        let refused = c
            .post_form_bytes("image/other", &form, "image/png", 8192, png_check)
            .await
            .unwrap_err();
        assert_eq!(refused.code(), ErrorCode::UpstreamError);
        assert!(
            refused.to_string().contains("other than a PNG"),
            "{refused}"
        );
    }
    assert_eq!(
        html.count(),
        2,
        "a refused body is asked for again, not cached"
    );
}

/// A row that is a row only with its `id`.
#[derive(Debug, Deserialize)]
struct IdRow {
    id: Option<String>,
}

impl lifesciences_core::Row for IdRow {
    fn usable(&self) -> bool {
        self.id.is_some()
    }
}

#[tokio::test]
async fn rows_none_of_which_is_usable_are_upstream_error_and_never_cached() {
    let server = mock_upstream().await;
    Mock::given(path("/rows"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!([{"unexpected": 1}])))
        .expect(2)
        .mount(&server)
        .await;
    Mock::given(path("/mixed"))
        .respond_with(
            ResponseTemplate::new(200).set_body_json(json!([{"unexpected": 1}, {"id": "A"}])),
        )
        .expect(1)
        .mount(&server)
        .await;
    Mock::given(path("/none"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!([])))
        .expect(1)
        .mount(&server)
        .await;
    let c = client(mock_source("Items", &server.uri()));
    for _ in 0..2 {
        let err = c.get_json::<Vec<IdRow>>("rows", &[]).await.unwrap_err();
        assert_eq!(err.code(), ErrorCode::UpstreamError);
        assert_eq!(
            err.to_envelope().error.message,
            "Items answered with a body that is not the JSON it documents."
        );
    }
    // One usable row is an answer (the other is the tool's to drop); none at all too.
    assert_eq!(
        c.get_json::<Vec<IdRow>>("mixed", &[]).await.unwrap().len(),
        2
    );
    assert!(
        c.get_json::<Vec<IdRow>>("none", &[])
            .await
            .unwrap()
            .is_empty()
    );
    // Both were cached: asked once each.
    c.get_json::<Vec<IdRow>>("mixed", &[]).await.unwrap();
    c.get_json::<Vec<IdRow>>("none", &[]).await.unwrap();
}
