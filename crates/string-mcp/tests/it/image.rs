//! `string_get_network_image_url` (scenario 10): a URL STRING renders, built without any
//! request, following the configured base URL and carrying `caller_identity`.

use lifesciences_core::ErrorCode;
use lifesciences_core::testing::McpTestClient;
use serde_json::json;
use string_mcp::{StringServer, string_config};

use crate::support::{TP53, env, request_count, setup};

/// Scenario 10: svg, png and highres_png give STRING's format segments (`svg`, `image`,
/// `highres_image`), identifiers joined with `%0D`, and the parameters asked for.
#[tokio::test]
async fn image_urls_carry_the_format_segment_and_the_parameters() {
    let (upstream, client) = setup().await;
    let base = upstream.uri();
    for (format, segment) in [
        ("svg", "svg"),
        ("png", "image"),
        ("highres_png", "highres_image"),
    ] {
        let image = client
            .call_ok(
                "string_get_network_image_url",
                json!({
                    "identifiers": [TP53, "MDM2", "STRING:9606.ENSP00000278616"],
                    "format": format,
                    "required_score": 700,
                    "add_nodes": 5,
                    "network_flavor": "confidence"
                }),
            )
            .await;
        assert_eq!(
            image,
            json!({
                "url": format!(
                    "{base}/{segment}/network?caller_identity=lifesciences-mcp\
                     &identifiers=9606.ENSP00000269305%0DMDM2%0D9606.ENSP00000278616\
                     &species=9606&required_score=700&add_white_nodes=5\
                     &network_flavor=confidence"
                ),
                "format": format,
                "identifiers": ["9606.ENSP00000269305", "MDM2", "9606.ENSP00000278616"]
            })
        );
    }
    // Built locally: STRING renders it when the user opens it.
    assert_eq!(request_count(&upstream).await, 0);
    client.close().await;
}

/// The defaults: png, the CURIEs' species, only the parameters given; names alone are
/// human unless `species` says otherwise; the link names the configured caller.
#[tokio::test]
async fn defaults_follow_the_identifiers_and_the_configured_caller() {
    let server = StringServer::new(
        string_config(env(&[
            ("STRING_API_URL", "https://version-12-0.string-db.org/api/"),
            ("STRING_CALLER_IDENTITY", "my-lab"),
        ]))
        .unwrap(),
    )
    .unwrap();
    let client = McpTestClient::connect(server).await;
    let fly = client
        .call_ok(
            "string_get_network_image_url",
            json!({"identifiers": "STRING:7227.FBpp0074940, STRING:7227.FBpp0082908"}),
        )
        .await;
    assert_eq!(
        fly["url"],
        "https://version-12-0.string-db.org/api/image/network?caller_identity=my-lab\
         &identifiers=7227.FBpp0074940%0D7227.FBpp0082908&species=7227"
    );
    assert_eq!(fly["format"], "png");
    let names = client
        .call_ok(
            "string_get_network_image_url",
            json!({"identifiers": ["edin", "AttD"], "species": 7227, "network_type": "physical",
                   "network_flavor": "actions"}),
        )
        .await;
    assert_eq!(
        names["url"],
        "https://version-12-0.string-db.org/api/image/network?caller_identity=my-lab\
         &identifiers=edin%0DAttD&species=7227&network_flavor=actions&network_type=physical"
    );
    let human = client
        .call_ok(
            "string_get_network_image_url",
            json!({"identifiers": ["TP53"]}),
        )
        .await;
    assert!(
        human["url"]
            .as_str()
            .unwrap()
            .ends_with("identifiers=TP53&species=9606"),
        "{human}"
    );
    client.close().await;
}

/// Scenario 10: the format and the identifier list (1–500) are validated.
#[tokio::test]
async fn formats_identifier_lists_and_ranges_are_validated() {
    let (upstream, client) = setup().await;
    let five_hundred_and_one: Vec<String> = (0..501).map(|i| format!("P{i}")).collect();
    for (args, says) in [
        (
            json!({"identifiers": ["TP53"], "format": "gif"}),
            "'png', 'svg', 'highres_png'",
        ),
        (json!({"identifiers": []}), "holds no protein"),
        (json!({"identifiers": ["", " "]}), "holds no protein"),
        (json!({"identifiers": five_hundred_and_one}), "at most 500"),
        (
            json!({"format": "png"}),
            "Argument 'identifiers' is required.",
        ),
        (
            json!({"identifiers": ["TP53"], "required_score": 2000}),
            "between 0 and 1000",
        ),
        (
            json!({"identifiers": ["TP53"], "add_nodes": 101}),
            "between 0 and 100",
        ),
        (
            json!({"identifiers": ["TP53"], "network_flavor": "pretty"}),
            "'evidence', 'confidence', 'actions'",
        ),
        (
            json!({"identifiers": ["TP53"], "species": "human"}),
            "not a species",
        ),
        (
            json!({"identifiers": [TP53], "species": 10090}),
            "one species",
        ),
        (
            json!({"identifiers": [TP53, "STRING:7227.FBpp0074940"]}),
            "mix species",
        ),
    ] {
        let e = client
            .call_err("string_get_network_image_url", args.clone())
            .await;
        assert_eq!(e.code, ErrorCode::InvalidInput, "{args}");
        assert!(e.message.contains(says), "{args}: {}", e.message);
    }
    let five_hundred: Vec<String> = (0..500).map(|i| format!("P{i}")).collect();
    let ok = client
        .call_ok(
            "string_get_network_image_url",
            json!({"identifiers": five_hundred}),
        )
        .await;
    assert_eq!(ok["identifiers"].as_array().unwrap().len(), 500);
    assert_eq!(request_count(&upstream).await, 0);
    client.close().await;
}
