//! What we send: headers, default query, POST bodies, URLs built on the configured base,
//! and the test kit's refusal of a request no route expected.

use lifesciences_core::RetryPolicy;
use lifesciences_core::testing::{mock_source, mock_upstream};
use serde_json::{Value, json};
use wiremock::matchers::{body_json, body_string, header, method, path, query_param};
use wiremock::{Mock, ResponseTemplate};

use super::{client, get, ok_json};

#[tokio::test]
async fn requests_ask_for_json_identify_us_and_carry_default_query() {
    let server = mock_upstream().await;
    Mock::given(method("GET"))
        .and(path("/api/json/get_string_ids"))
        .and(header("accept", "application/json"))
        .and(header("user-agent", "string-mcp/test"))
        .and(query_param("caller_identity", "lifesciences-mcp"))
        .and(query_param("identifiers", "TP53"))
        .respond_with(ok_json())
        .expect(1)
        .mount(&server)
        .await;
    // Base URL with a path and a trailing slash; the request path with a leading slash.
    let config = mock_source("STRING", &format!("{}/api/", server.uri()))
        .with_user_agent("string-mcp/test")
        .with_default_query("caller_identity", "lifesciences-mcp");
    let c = client(config);
    c.get_json::<Value>("/json/get_string_ids", &[("identifiers", "TP53")])
        .await
        .unwrap();
}

#[tokio::test]
async fn post_form_and_post_json_send_their_bodies() {
    let server = mock_upstream().await;
    Mock::given(method("POST"))
        .and(path("/json/network"))
        .and(header("content-type", "application/x-www-form-urlencoded"))
        .and(body_string("identifiers=TP53%0DMDM2&species=9606"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!([])))
        .expect(1)
        .mount(&server)
        .await;
    Mock::given(method("POST"))
        .and(path("/lookup/id"))
        .and(header("content-type", "application/json"))
        .and(header("accept", "application/json"))
        .and(body_json(json!({"ids": ["ENSG00000141510"]})))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({"ENSG00000141510": {}})))
        .expect(1)
        .mount(&server)
        .await;
    let c = client(mock_source("X", &server.uri()));
    let _: Value = c
        .post_form(
            "json/network",
            &[("identifiers", "TP53\rMDM2"), ("species", "9606")],
        )
        .await
        .unwrap();
    let _: Value = c
        .post_json("lookup/id", &json!({"ids": ["ENSG00000141510"]}))
        .await
        .unwrap();
}

#[tokio::test]
async fn urls_for_links_follow_the_configured_base() {
    let c = client(
        mock_source("STRING", "https://string-db.org/api/")
            .with_default_query("caller_identity", "lifesciences-mcp"),
    );
    let url = c
        .url(
            "image/network",
            &[("identifiers", "TP53\rMDM2"), ("species", "9606")],
        )
        .unwrap();
    assert_eq!(
        url.as_str(),
        "https://string-db.org/api/image/network?caller_identity=lifesciences-mcp&identifiers=TP53%0DMDM2&species=9606"
    );
}

#[tokio::test]
async fn a_base_url_with_a_path_and_no_trailing_slash_keeps_its_path() {
    let server = mock_upstream().await;
    Mock::given(method("GET"))
        .and(path("/api/json/network"))
        .and(header("accept", "application/json"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!([{"stringId_A": "x"}])))
        .expect(1)
        .mount(&server)
        .await;
    let c = client(mock_source("STRING", &format!("{}/api", server.uri())));
    let body: Value = c.get_json("json/network", &[]).await.unwrap();
    assert_eq!(body, json!([{"stringId_A": "x"}]));
}

/// The test kit's mock upstream: a request no route expected is answered 418 with a body
/// naming it (never a 404 a server could read as "no match"), and dropping the mock then
/// fails the test.
#[tokio::test]
async fn an_unexpected_request_is_named_and_fails_the_test() {
    let server = mock_upstream().await;
    let c = client(mock_source("X", &server.uri()).with_retry(RetryPolicy::NONE));
    let err = get(&c, "nowhere").await.unwrap_err();
    assert_eq!(err.upstream_status(), Some(418), "{err:?}");
    let body = err.upstream_body().unwrap_or_default();
    assert!(
        body.contains("unexpected request: GET") && body.contains("/nowhere"),
        "{body}"
    );
    let dropped = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| drop(server)));
    assert!(dropped.is_err(), "dropping the mock fails the test");
}
