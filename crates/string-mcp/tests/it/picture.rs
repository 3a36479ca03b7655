//! `string_get_network_image` as an agent and its client see it: content blocks only (no
//! structured content, which Claude Code and VS Code would pass to the model instead of
//! the picture): the picture itself (PNG as an image, SVG as an embedded resource) and a
//! text saying what it shows, with its URL, from one POST; the enrichment figure of a
//! category the same way; a picture over the cap as the URL and a note. The image
//! answers are constructed (see the fixtures README).

use base64::Engine as _;
use lifesciences_core::ErrorCode;
use lifesciences_core::rmcp::model::{ContentBlock, ResourceContents};
use lifesciences_core::testing::Fixtures;
use serde_json::json;
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

/// The text that says what the picture shows (the other text is its provenance).
fn text(content: &[ContentBlock]) -> String {
    let texts: Vec<String> = content
        .iter()
        .filter_map(|c| c.as_text().map(|t| t.text.clone()))
        .filter(|t| !t.starts_with("Provenance: "))
        .collect();
    assert_eq!(
        texts.len(),
        1,
        "one text says what the picture is: {texts:?}"
    );
    texts[0].clone()
}

/// The link in the text.
fn link(text: &str) -> &str {
    text.split("Link: ")
        .nth(1)
        .and_then(|rest| rest.split_whitespace().next())
        .unwrap_or_else(|| panic!("no link in {text}"))
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

    let content = client
        .call_picture(
            "string_get_network_image",
            json!({"identifiers": SET4, "required_score": 700}),
        )
        .await;

    let png = Fixtures::here().bytes("network__set4.png");
    let text = text(&content);
    assert!(
        text.starts_with(&format!(
            "STRING's interaction network of 4 proteins (POSTN, SERPINB2, CXCL10, IFNA1; taxon 9606), png, {} bytes, in this result.",
            png.len()
        )),
        "{text}"
    );
    let url = link(&text);
    assert!(url.contains("/image/network?"), "{url}");
    assert!(url.contains("required_score=700"), "{url}");
    // The client gets the picture itself, next to the text.
    let image = content
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

    let content = client
        .call_picture(
            "string_get_network_image",
            json!({"identifiers": SET4, "format": "svg"}),
        )
        .await;

    assert!(text(&content).contains("svg"), "{}", text(&content));
    let resource = content
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

    let content = client
        .call_picture(
            "string_get_network_image",
            json!({"identifiers": SET4, "figure": "enrichment", "category": "kegg"}),
        )
        .await;

    let text = text(&content);
    assert!(
        text.starts_with("STRING's KEGG enrichment figure of 4 proteins"),
        "{text}"
    );
    assert!(text.contains("in this result"), "{text}");
    assert!(link(&text).contains("/image/enrichmentfigure?"), "{text}");
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

    assert_eq!(result.structured_content, None);
    assert_ne!(result.is_error, Some(true));
    let text = text(&result.content);
    assert!(text.contains("highres_png, not in this result."), "{text}");
    assert!(link(&text).contains("/highres_image/network?"), "{text}");
    let note = text.split("Note: ").nth(1).unwrap();
    assert!(note.contains("768 KiB") && note.contains("png"), "{note}");
    assert!(
        result.content.iter().all(|c| c.as_text().is_some()),
        "nothing but text"
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

    let content = client
        .call_picture("string_get_network_image", json!({"identifiers": curies}))
        .await;

    let text = text(&content);
    assert!(text.contains("of 500 proteins ("), "{text}");
    assert!(text.contains(" and 490 more; taxon 9606), png"), "{text}");
    assert!(!text.contains("Link: "), "{text}");
    assert!(text.contains("Note: No link"), "{text}");
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
