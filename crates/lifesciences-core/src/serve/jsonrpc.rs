//! A JSON-RPC error as an HTTP response: what the transport's own refusals (the guard's,
//! authentication's) answer, so a client reads each as a JSON-RPC message.

use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde_json::Value;

/// A JSON-RPC error (code -32000) answering request `id` with `message`, at `status`.
pub(super) fn jsonrpc_error(status: StatusCode, id: Option<&Value>, message: String) -> Response {
    let body = serde_json::json!({
        "jsonrpc": "2.0",
        "id": id.cloned().unwrap_or(Value::Null),
        "error": {"code": -32000, "message": message},
    });
    (
        status,
        [(header::CONTENT_TYPE, "application/json")],
        body.to_string(),
    )
        .into_response()
}
