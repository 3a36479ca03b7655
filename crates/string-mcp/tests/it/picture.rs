//! `string_get_network_image` as an agent and its client see it: the picture itself in
//! the result (PNG as an image, SVG as an embedded resource) with its URL, from one POST;
//! the enrichment figure of a category the same way; a picture over the cap as the URL
//! and a note. The image answers are constructed (see the fixtures README).

use base64::Engine as _;
use lifesciences_core::ErrorCode;
use lifesciences_core::rmcp::model::{ContentBlock, ResourceContents};
use lifesciences_core::testing::Fixtures;
use serde_json::{Value, json};
use wiremock::matchers::{header, method, path};
use wiremock::{Mock, ResponseTemplate};

use crate::support::{form_field, identifiers_of, request_count, setup};

const SET4: [&str; 4] = ["POSTN", "SERPINB2", "CXCL10", "IFNA1"];

fn picture(name: &str, mime: &str) -> ResponseTemplate {
    ResponseTemplate::new(200).set_body_raw(Fixtures::here().bytes(name), mime)
}

async fn mount(upstream: &wiremock::MockServer, route: &str, mime: &str, body: ResponseTemplate) {
    Mock::given(method("POST"))
        .and(path(route))
        .and(header("accept", mime))
        .respond_with(body)
        .mount(upstream)
        .await;
}

fn structured(result: &lifesciences_core::rmcp::model::CallToolResult) -> Value {
    result.structured_content.clone().unwrap()
}

#[tokio::test]
async fn a_picture_of_the_four_gene_network_comes_in_the_result_with_its_url() {
    let (upstream, client) = setup().await;
    mount(
        &upstream,
        "/image/network",
        "image/png",
        picture("network__set4.png", "image/png"),
    )
    .await;

    let result = client
        .call(
            "string_get_network_image",
            json!({"identifiers": SET4, "required_score": 700}),
        )
        .await;

    let png = Fixtures::here().bytes("network__set4.png");
    let s = structured(&result);
    assert_eq!(s["figure"], "network");
    assert_eq!(s["format"], "png");
    assert_eq!(s["embedded"], true);
    assert_eq!(s["bytes"], png.len());
    let url = s["url"].as_str().unwrap();
    assert!(url.contains("/image/network?"), "{url}");
    assert!(url.contains("required_score=700"), "{url}");
    // The client gets the picture itself, next to the JSON text.
    let image = result
        .content
        .iter()
        .find_map(|c| match c {
            ContentBlock::Image(image) => Some(image.clone()),
            _ => None,
        })
        .expect("an image block");
    assert_eq!(image.mime_type, "image/png");
    let decoded = base64::engine::general_purpose::STANDARD
        .decode(&image.data)
        .unwrap();
    assert_eq!(decoded, png);

    // One request: the picture, POSTed with the names and the options.
    assert_eq!(request_count(&upstream).await, 1);
    let sent = &upstream.received_requests().await.unwrap()[0];
    assert_eq!(identifiers_of(sent), SET4);
    assert_eq!(form_field(sent, "species").as_deref(), Some("9606"));
    assert_eq!(form_field(sent, "required_score").as_deref(), Some("700"));

    // Asked again: from the cache.
    client
        .call(
            "string_get_network_image",
            json!({"identifiers": SET4, "required_score": 700}),
        )
        .await;
    assert_eq!(request_count(&upstream).await, 1);
    client.close().await;
}

#[tokio::test]
async fn an_svg_comes_as_an_embedded_resource() {
    let (upstream, client) = setup().await;
    mount(
        &upstream,
        "/svg/network",
        "image/svg+xml",
        picture("network__set4.svg", "image/svg+xml"),
    )
    .await;

    let result = client
        .call(
            "string_get_network_image",
            json!({"identifiers": SET4, "format": "svg"}),
        )
        .await;

    assert_eq!(structured(&result)["embedded"], true);
    let resource = result
        .content
        .iter()
        .find_map(|c| match c {
            ContentBlock::Resource(r) => Some(r.resource.clone()),
            _ => None,
        })
        .expect("an embedded resource");
    let ResourceContents::TextResourceContents {
        uri,
        mime_type,
        text,
        ..
    } = resource
    else {
        panic!("SVG is text: {resource:?}")
    };
    assert_eq!(mime_type.as_deref(), Some("image/svg+xml"));
    assert!(uri.contains("/svg/network?"), "{uri}");
    assert!(text.contains("<svg"), "{text}");
    client.close().await;
}

#[tokio::test]
async fn the_kegg_enrichment_figure_of_the_set_comes_the_same_way() {
    let (upstream, client) = setup().await;
    mount(
        &upstream,
        "/image/enrichmentfigure",
        "image/png",
        picture("network__set4.png", "image/png"),
    )
    .await;

    let result = client
        .call(
            "string_get_network_image",
            json!({"identifiers": SET4, "figure": "enrichment", "category": "kegg"}),
        )
        .await;

    let s = structured(&result);
    assert_eq!(s["figure"], "enrichment");
    assert_eq!(s["category"], "KEGG");
    assert_eq!(s["embedded"], true);
    assert!(
        s["url"]
            .as_str()
            .unwrap()
            .contains("/image/enrichmentfigure?")
    );
    let sent = &upstream.received_requests().await.unwrap()[0];
    assert_eq!(form_field(sent, "category").as_deref(), Some("KEGG"));
    assert_eq!(form_field(sent, "required_score"), None);
    client.close().await;
}

#[tokio::test]
async fn a_picture_over_the_cap_is_answered_with_the_url_and_a_note() {
    let (upstream, client) = setup().await;
    let mut huge = Fixtures::here().bytes("network__set4.png");
    huge.resize(800 * 1024, 0);
    mount(
        &upstream,
        "/highres_image/network",
        "image/png",
        ResponseTemplate::new(200).set_body_raw(huge, "image/png"),
    )
    .await;

    let result = client
        .call(
            "string_get_network_image",
            json!({"identifiers": SET4, "format": "highres_png"}),
        )
        .await;

    let s = structured(&result);
    assert_eq!(s["embedded"], false);
    assert!(s.get("bytes").is_none());
    assert!(
        s["url"]
            .as_str()
            .unwrap()
            .contains("/highres_image/network?")
    );
    let note = s["note"].as_str().unwrap();
    assert!(note.contains("768 KiB") && note.contains("png"), "{note}");
    assert!(
        result.content.iter().all(|c| c.as_text().is_some()),
        "nothing but the JSON text"
    );
    client.close().await;
}

#[tokio::test]
async fn a_set_too_long_for_a_link_is_still_drawn_from_a_post() {
    let (upstream, client) = setup().await;
    mount(
        &upstream,
        "/image/network",
        "image/png",
        picture("network__set4.png", "image/png"),
    )
    .await;
    let curies: Vec<String> = (0..500)
        .map(|i| format!("STRING:9606.ENSP{:011}", 100_000 + i))
        .collect();

    let result = client
        .call("string_get_network_image", json!({"identifiers": curies}))
        .await;

    let s = structured(&result);
    assert_eq!(s["embedded"], true);
    assert!(s.get("url").is_none());
    assert!(s["note"].as_str().unwrap().contains("No link"), "{s}");
    let sent = &upstream.received_requests().await.unwrap()[0];
    assert_eq!(identifiers_of(sent).len(), 500);
    client.close().await;
}

#[tokio::test]
async fn something_other_than_a_picture_is_an_upstream_error_and_not_kept() {
    let (upstream, client) = setup().await;
    mount(
        &upstream,
        "/image/network",
        "image/png",
        ResponseTemplate::new(200).set_body_raw(b"<html>Maintenance</html>".to_vec(), "text/html"),
    )
    .await;

    for _ in 0..2 {
        let err = client
            .call_err("string_get_network_image", json!({"identifiers": SET4}))
            .await;
        assert_eq!(err.code, ErrorCode::UpstreamError);
        assert!(err.message.contains("PNG"), "{}", err.message);
    }
    assert_eq!(request_count(&upstream).await, 2, "not cached");
    client.close().await;
}

#[tokio::test]
async fn options_of_the_other_figure_are_refused_before_any_request() {
    let (upstream, client) = setup().await;
    for (args, says) in [
        (
            json!({"identifiers": SET4, "category": "KEGG"}),
            "enrichment figure only",
        ),
        (
            json!({"identifiers": SET4, "figure": "enrichment", "required_score": 700}),
            "network figure only",
        ),
        (
            json!({"identifiers": SET4, "figure": "enrichment", "category": "pathways"}),
            "RCTM",
        ),
    ] {
        let err = client
            .call_err("string_get_network_image", args.clone())
            .await;
        assert_eq!(err.code, ErrorCode::InvalidInput, "{args}");
        assert!(
            format!("{} {}", err.message, err.recovery_hint).contains(says),
            "{args}: {err:?}"
        );
    }
    assert_eq!(request_count(&upstream).await, 0);
    client.close().await;
}
