//! Exported tables over HTTP: `GET /exports/<id>.tsv` answers the table an export made
//! (see [`crate::export`]), to the principal it was made for, authenticated as `/mcp`
//! is. The file name is 128 random bits: with authentication off it is all a caller
//! needs, as a link shared on purpose is.

use axum::extract::{Path, Request};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse as _, Response};
use url::Url;

use crate::export::{self, DOWNLOAD_PATH};
use crate::principal::Principal;

/// Where tables are downloaded from, as answers name it: next to the public MCP
/// endpoint when its URL is known (`https://host/prefix/mcp` → `https://host/prefix/exports/`),
/// else the path on this server.
pub(super) fn downloads(public_url: Option<&Url>) -> export::Downloads {
    let absolute = public_url.and_then(|url| {
        let mut base = url.clone();
        let path = base.path().trim_end_matches('/').to_owned();
        base.set_path(&path);
        base.set_query(None);
        base.set_fragment(None);
        base.join(DOWNLOAD_PATH.trim_start_matches('/')).ok()
    });
    export::Downloads(
        absolute
            .map_or_else(|| DOWNLOAD_PATH.to_owned(), |url| url.to_string())
            .into(),
    )
}

/// `GET /exports/{file}`.
pub(super) async fn download(Path(file): Path<String>, request: Request) -> Response {
    let owner = request
        .extensions()
        .get::<Principal>()
        .map_or_else(|| Principal::anonymous().name, |p| p.name.clone());
    let Some((format, text)) = export::table(&file, &owner).await else {
        return (
            StatusCode::NOT_FOUND,
            [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
            "No such table: an exported table is kept as long as the answers it was made \
             from, for the caller who made it. Call the tool with `export` again for a new one.\n",
        )
            .into_response();
    };
    // The kept text itself, not a copy: a table may be tens of megabytes.
    let mut response =
        axum::body::Body::from(bytes::Bytes::from_owner(Shared(text))).into_response();
    let headers = response.headers_mut();
    let content_type = format!("{}; charset=utf-8", format.mime_type());
    if let Ok(value) = HeaderValue::from_str(&content_type) {
        headers.insert(header::CONTENT_TYPE, value);
    }
    // The name is checked to be hexadecimal digits and an extension: safe in a header.
    if let Ok(value) = HeaderValue::from_str(&format!("attachment; filename=\"{file}\"")) {
        headers.insert(header::CONTENT_DISPOSITION, value);
    }
    headers.insert(
        header::CACHE_CONTROL,
        HeaderValue::from_static("private, no-store"),
    );
    response
}

/// A kept table's text as a response body's bytes.
struct Shared(std::sync::Arc<str>);

impl AsRef<[u8]> for Shared {
    fn as_ref(&self) -> &[u8] {
        self.0.as_bytes()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn downloads_sit_next_to_the_public_endpoint_or_on_this_server() {
        let at = |url: &str| downloads(Some(&Url::parse(url).unwrap())).0.to_string();
        assert_eq!(downloads(None).0.as_ref(), "/exports/");
        assert_eq!(
            at("https://mcp.example.org/mcp"),
            "https://mcp.example.org/exports/"
        );
        assert_eq!(
            at("https://example.org/tools/mcp/"),
            "https://example.org/tools/exports/"
        );
        assert_eq!(
            at("http://127.0.0.1:8000/mcp?x=1"),
            "http://127.0.0.1:8000/exports/"
        );
    }
}
