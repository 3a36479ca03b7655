//! MCP logging as a client sees it: the capability, `logging/setLevel`, and the
//! `notifications/message` a tool call sends at the level the client chose.
#![expect(
    deprecated,
    reason = "MCP logging is deprecated in the newest protocol revision"
)]

use lifesciences_core::rmcp::model::LoggingLevel;
use lifesciences_core::testing::{McpTestClient, TestServer, mock_upstream};
use serde_json::json;
use wiremock::matchers::path;
use wiremock::{Mock, ResponseTemplate};

#[tokio::test]
async fn the_client_hears_what_happens_at_the_level_it_chose() {
    let upstream = mock_upstream().await;
    let client = McpTestClient::connect(TestServer::for_mock(&upstream.uri())).await;
    let info = client.peer().peer_info().expect("initialize result");
    assert!(info.capabilities.logging.is_some(), "logging is declared");

    // Items 42 and 43 carry a cross-reference value that is not a UniProt accession.
    for n in [42, 43] {
        let item = json!({"number": n, "uniprot": ["P04637", "not valid!"]});
        Mock::given(path(format!("/items/{n}")))
            .respond_with(ResponseTemplate::new(200).set_body_json(&item))
            .mount(&upstream)
            .await;
    }
    // Each of items 1 and 2 fails once with 503, then answers.
    for n in [1, 2] {
        Mock::given(path(format!("/items/{n}")))
            .respond_with(ResponseTemplate::new(503))
            .up_to_n_times(1)
            .expect(1)
            .mount(&upstream)
            .await;
        Mock::given(path(format!("/items/{n}")))
            .respond_with(ResponseTemplate::new(200).set_body_json(json!({"number": n})))
            .mount(&upstream)
            .await;
    }

    // Until the client sets a level, warnings and errors: the dropped value, not the retry.
    client
        .call_ok("items_get_item", json!({"item_id": "ITEM:42"}))
        .await;
    client
        .call_ok("items_get_item", json!({"item_id": "ITEM:1"}))
        .await;
    let heard = client.log_messages().await;
    assert_eq!(heard.len(), 1, "{heard:?}");
    assert_eq!(heard[0].0, LoggingLevel::Warning);
    assert!(
        heard[0].1.contains("uniprot") && heard[0].1.contains("not valid!"),
        "{heard:?}"
    );

    // At `info`, the retry is told, naming the source and the failure.
    client.set_log_level(LoggingLevel::Info).await;
    client
        .call_ok("items_get_item", json!({"item_id": "ITEM:2"}))
        .await;
    let heard = client.log_messages().await;
    assert_eq!(heard.len(), 2, "{heard:?}");
    assert_eq!(heard[1].0, LoggingLevel::Info);
    assert!(
        heard[1].1.starts_with("Items ") && heard[1].1.contains("HTTP 503; retrying in"),
        "{heard:?}"
    );

    // At `error`, a dropped value is no longer told.
    client.set_log_level(LoggingLevel::Error).await;
    client
        .call_ok("items_get_item", json!({"item_id": "ITEM:43"}))
        .await;
    assert_eq!(client.log_messages().await.len(), 2);
    client.close().await;
}
