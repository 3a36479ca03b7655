//! `string_get_network_image_url`: a URL STRING renders, built without any request,
//! following the configured base URL and carrying `caller_identity`.

use lifesciences_core::ErrorCode;
use lifesciences_core::testing::McpTestClient;
use serde_json::json;

use crate::support::{TP53, request_count, server_with, setup};

/// `svg`, `png` and `highres_png` give STRING's format segments (`svg`, `image`,
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
    let server = server_with(
        "https://version-12-0.string-db.org/api/",
        &[("STRING_CALLER_IDENTITY", "my-lab")],
    );
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

/// The format and the identifier list (1–500) are validated.
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
            json!({"identifiers": ["TP53"], "species": "platypus"}),
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

/// A fraction in (0, 1) is read on the results' 0–1 scale (0.7 → 700); whole numbers keep
/// their meaning (1 stays 1); out of range, the hint shows how to write a fraction.
#[tokio::test]
async fn required_score_accepts_a_fraction_of_one() {
    let (upstream, client) = setup().await;
    for (sent, in_url) in [
        (json!(0.7), "required_score=700"),
        (json!("0.15"), "required_score=150"),
        (json!(700), "required_score=700"),
        (json!(1), "required_score=1&"),
    ] {
        let image = client
            .call_ok(
                "string_get_network_image_url",
                json!({"identifiers": ["TP53", "MDM2"], "required_score": sent,
                       "network_flavor": "confidence"}),
            )
            .await;
        let url = image["url"].as_str().unwrap();
        assert!(url.contains(in_url), "{sent}: {url}");
    }
    for sent in [json!(1.5), json!(2000), json!(-0.7)] {
        let e = client
            .call_err(
                "string_get_network_image_url",
                json!({"identifiers": ["TP53"], "required_score": sent}),
            )
            .await;
        assert_eq!(e.code, ErrorCode::InvalidInput, "{sent}");
        assert!(
            e.recovery_hint.contains("use 700 for 0.7"),
            "{}",
            e.recovery_hint
        );
        assert_eq!(e.invalid_input.as_deref(), Some(sent.to_string().as_str()));
    }
    assert_eq!(request_count(&upstream).await, 0);
    client.close().await;
}

/// A `string:` prefix in lower (or any) case is stripped like `STRING:`, so STRING gets the
/// protein and the species follows it.
#[tokio::test]
async fn a_lower_case_curie_prefix_is_stripped() {
    let (upstream, client) = setup().await;
    let base = upstream.uri();
    let image = client
        .call_ok(
            "string_get_network_image_url",
            json!({"identifiers": ["string:7227.FBpp0074940", "String:7227.FBpp0082908"]}),
        )
        .await;
    assert_eq!(
        image,
        json!({
            "url": format!(
                "{base}/image/network?caller_identity=lifesciences-mcp\
                 &identifiers=7227.FBpp0074940%0D7227.FBpp0082908&species=7227"
            ),
            "format": "png",
            "identifiers": ["7227.FBpp0074940", "7227.FBpp0082908"]
        })
    );
    client.close().await;
}

/// Links are capped at about 6 KB of query: a longer list is INVALID_INPUT saying how
/// many identifiers fit, echoing the count rather than the list; a list that fits is
/// echoed as sent to STRING.
#[tokio::test]
async fn a_link_over_6_kb_is_refused_with_how_many_identifiers_fit() {
    let (upstream, client) = setup().await;
    let ids = |n: usize| -> Vec<String> {
        (0..n)
            .map(|i| format!("STRING:9606.ENSP{:011}", 269_305 + i))
            .collect()
    };
    // caller_identity=lifesciences-mcp&identifiers=…&species=9606: 56 bytes around the
    // identifiers, each 20 bytes plus 3 for the %0D between two: 264 fit in 6144 bytes.
    let ok = client
        .call_ok(
            "string_get_network_image_url",
            json!({"identifiers": ids(264)}),
        )
        .await;
    let url = ok["url"].as_str().unwrap();
    let query = url.split_once('?').unwrap().1;
    assert!(query.len() <= 6144, "{}", query.len());
    assert!(query.len() > 6144 - 23, "{}", query.len());
    assert_eq!(ok["identifiers"].as_array().unwrap().len(), 264);
    assert_eq!(ok["identifiers"][0], "9606.ENSP00000269305");

    for n in [265, 300, 500] {
        let e = client
            .call_err(
                "string_get_network_image_url",
                json!({"identifiers": ids(n)}),
            )
            .await;
        assert_eq!(e.code, ErrorCode::InvalidInput, "{n}");
        assert!(
            e.message.contains("264 of these identifiers fit"),
            "{}",
            e.message
        );
        assert!(
            e.recovery_hint
                .starts_with("Pass at most 264 of these identifiers"),
            "{}",
            e.recovery_hint
        );
        assert_eq!(
            e.invalid_input.as_deref(),
            Some(format!("{n} identifiers").as_str())
        );
    }
    assert_eq!(request_count(&upstream).await, 0);
    client.close().await;
}

/// Common species names are accepted (`human` is 9606), as in the other tools.
#[tokio::test]
async fn a_common_species_name_is_its_taxon() {
    let (_upstream, client) = setup().await;
    let image = client
        .call_ok(
            "string_get_network_image_url",
            json!({"identifiers": ["edin", "AttD"], "species": "fruit fly"}),
        )
        .await;
    assert!(
        image["url"]
            .as_str()
            .unwrap()
            .ends_with("identifiers=edin%0DAttD&species=7227"),
        "{image}"
    );
    client.close().await;
}
