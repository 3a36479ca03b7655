//! Redirects: followed within the upstream, refused to another host, bounded in a loop.

use lifesciences_core::ErrorCode;
use lifesciences_core::testing::{mock_source, mock_upstream};
use serde_json::json;
use wiremock::matchers::path;
use wiremock::{Mock, ResponseTemplate};

use super::{attempts, client, get, ok_json};

#[tokio::test]
async fn a_redirect_within_the_upstream_is_followed() {
    let server = mock_upstream().await;
    Mock::given(path("/old"))
        .respond_with(ResponseTemplate::new(301).insert_header("location", "/new"))
        .expect(1)
        .mount(&server)
        .await;
    Mock::given(path("/new"))
        .respond_with(ok_json())
        .expect(1)
        .mount(&server)
        .await;
    let c = client(mock_source("Items", &server.uri()));
    assert_eq!(get(&c, "old").await.unwrap(), json!({"ok": true}));
}

#[tokio::test]
async fn a_redirect_to_another_host_is_refused_once_naming_the_location() {
    let server = mock_upstream().await;
    // Another host (here another port of the loopback): it must never be asked.
    let elsewhere = mock_upstream().await;
    let location = format!("{}/stolen", elsewhere.uri());
    Mock::given(path("/moved"))
        .respond_with(ResponseTemplate::new(301).insert_header("location", location.as_str()))
        .expect(1)
        .mount(&server)
        .await;
    // An unresolvable name is refused before any DNS look-up.
    Mock::given(path("/nowhere"))
        .respond_with(
            ResponseTemplate::new(302).insert_header("location", "http://no-such-host.invalid/x"),
        )
        .expect(1)
        .mount(&server)
        .await;
    let c = client(mock_source("Items", &server.uri()));
    let err = get(&c, "moved").await.unwrap_err();
    assert_eq!(err.code(), ErrorCode::UpstreamError);
    assert_eq!(attempts(&err), 1, "a refused redirect is not retried");
    let body = err.to_envelope().error;
    assert!(body.message.contains(&location), "{}", body.message);
    let err = get(&c, "nowhere").await.unwrap_err();
    assert!(
        err.to_envelope()
            .error
            .message
            .contains("no-such-host.invalid"),
        "{err}"
    );
}

#[tokio::test]
async fn a_redirect_loop_within_the_upstream_stops_after_three_hops() {
    let server = mock_upstream().await;
    Mock::given(path("/loop"))
        .respond_with(ResponseTemplate::new(302).insert_header("location", "/loop"))
        .expect(4)
        .mount(&server)
        .await;
    let c = client(mock_source("Items", &server.uri()));
    let err = get(&c, "loop").await.unwrap_err();
    assert_eq!(err.code(), ErrorCode::UpstreamError);
    assert!(
        err.to_envelope()
            .error
            .message
            .contains("more than 3 redirects"),
        "{err}"
    );
}
