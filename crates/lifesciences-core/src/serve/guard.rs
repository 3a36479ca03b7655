//! What stands in front of rmcp's Streamable HTTP service: what rmcp 3.9 does not do.
//!
//! Every POST body is read and checked first: larger than the limit is 413, a body that
//! is not JSON or not a JSON-RPC message is 400 with a JSON-RPC error (rmcp answers 415
//! with its decoder's text). With sessions (not stateless) the guard also keeps
//! [`Sessions`]: a request of a session it does not know, or that another principal
//! opened, is 404 (rmcp would answer a `DELETE` with 202); a principal's new session
//! beyond the cap takes the place of its least recently used idle one, or is 503 with a
//! `Retry-After` when every one of its sessions is busy; a request
//! whose id is still in flight in its session is 400 with Invalid Request (rmcp would give
//! its answer to one of the two). In both modes it counts the responses to requests until
//! each is written whole, so a shutdown ends the sessions (which cuts their event
//! streams) only once every call's answer is out.

use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::Request;
use axum::http::{HeaderValue, Method, StatusCode, header, request::Parts};
use axum::middleware::Next;
use axum::response::{IntoResponse as _, Response};
use rmcp::transport::streamable_http_server::session::SessionManager as _;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use serde_json::Value;

use super::auth::Owner;
use super::jsonrpc::jsonrpc_error;
use super::lines;
use super::sessions::{Busy, Entry, Room, Sessions};
use crate::server::{Counted, Counter};

/// The state of [`guard_requests`], shared by every request.
#[derive(Debug)]
pub(super) struct Guard {
    /// The responses to requests (a POST of a message with an `id` and a `method`) not
    /// yet written whole or dropped.
    pub(super) answering: Counter,
    pub(super) manager: Arc<LocalSessionManager>,
    /// `None` when stateless: no session is ever opened.
    pub(super) sessions: Option<Arc<Sessions>>,
    /// Request ids in flight, per session.
    pub(super) ids: lines::InFlightIds,
    /// Held while a new session opens.
    pub(super) opening: tokio::sync::Mutex<()>,
    pub(super) max_sessions: usize,
    pub(super) body_bytes: usize,
}

/// Seconds a client refused a session at the cap is told to wait.
const RETRY_AFTER_SECS: &str = "60";

pub(super) async fn guard_requests(guard: &Guard, request: Request, next: Next) -> Response {
    let session = request
        .headers()
        .get("mcp-session-id")
        .and_then(|v| v.to_str().ok())
        .map(ToOwned::to_owned);
    // Set by the authentication in front; a request that did not pass it is anonymous.
    let owner = request
        .extensions()
        .get::<Owner>()
        .cloned()
        .unwrap_or_else(Owner::anonymous);
    let owner = owner.0.as_ref();
    let Some(sessions) = &guard.sessions else {
        // Stateless: each request stands alone, whatever session header it carries.
        if request.method() != Method::POST {
            return next.run(request).await;
        }
        return match read_message(request, guard.body_bytes).await {
            Ok((parts, bytes, message)) => {
                let answering = answering(guard, &message);
                let response = next.run(Request::from_parts(parts, bytes.into())).await;
                hold(response, answering)
            }
            Err(refused) => refused,
        };
    };
    match (request.method().clone(), session) {
        (Method::DELETE, Some(id)) if !sessions.knows(&id, owner) => not_found(&id, None),
        (Method::GET, Some(id)) => match enter(guard, sessions, &id, owner, None).await {
            Ok(busy) => hold(next.run(request).await, busy),
            Err(refused) => refused,
        },
        (Method::POST, session) => {
            let (parts, bytes, message) = match read_message(request, guard.body_bytes).await {
                Ok(read) => read,
                Err(refused) => return refused,
            };
            let request = Request::from_parts(parts, bytes.into());
            let answering = answering(guard, &message);
            let response = match session {
                None if message.get("method") == Some(&Value::from("initialize")) => {
                    open_session(guard, sessions, owner, request, next).await
                }
                // rmcp answers: a session is needed (or, for a client of a protocol without
                // sessions, the request is served on its own).
                None => next.run(request).await,
                Some(id) => {
                    in_session(guard, sessions, (&id, owner), &message, request, next).await
                }
            };
            hold(response, answering)
        }
        _ => next.run(request).await,
    }
}

/// A response to `message` being written, when it is a request, for as long as this
/// lives.
fn answering(guard: &Guard, message: &Value) -> Option<Counted> {
    (message.get("method").is_some() && message.get("id").is_some())
        .then(|| guard.answering.start())
}

/// Read a POST body and check that it is one JSON-RPC message: the checks of the stdio
/// guard, strictly, so every POST gets an answer.
async fn read_message(request: Request, limit: usize) -> Result<(Parts, Bytes, Value), Response> {
    let (parts, body) = request.into_parts();
    let Ok(bytes) = axum::body::to_bytes(body, limit).await else {
        return Err(jsonrpc_error(
            StatusCode::PAYLOAD_TOO_LARGE,
            None,
            format!("the request body is larger than {limit} bytes"),
        ));
    };
    match lines::parse(&bytes).and_then(|m| lines::check(&m, true).map(|()| m)) {
        Ok(message) => Ok((parts, bytes, message)),
        Err(answer) => Err(bad_request(&answer)),
    }
}

/// A new session of `owner`: one at a time, so concurrent ones cannot overshoot the cap
/// between the count and rmcp's creating them (rmcp records a session before it answers
/// `initialize`); the cap counts `owner`'s sessions only, and the session is recorded as
/// `owner`'s before its id is handed out.
async fn open_session(
    guard: &Guard,
    sessions: &Sessions,
    owner: &str,
    request: Request,
    next: Next,
) -> Response {
    let _opening = guard.opening.lock().await;
    let limit = guard.max_sessions;
    match sessions.make_room(limit, owner) {
        Room::Free => {}
        Room::Evicted(id, idle) => {
            tracing::info!(
                session = %id,
                idle_secs = idle.as_secs(),
                limit,
                "at a principal's session cap: closing its session unused the longest to make room for its new one"
            );
            close(&guard.manager, &id).await;
        }
        Room::Full => {
            tracing::warn!(
                limit,
                "refusing a new session: at a principal's session cap, every one of its sessions busy"
            );
            let mut refused = jsonrpc_error(
                StatusCode::SERVICE_UNAVAILABLE,
                None,
                format!(
                    "this server already has {limit} sessions of yours, its cap, each with a \
                     request in flight or a stream open; retry in a minute"
                ),
            );
            refused.headers_mut().insert(
                header::RETRY_AFTER,
                HeaderValue::from_static(RETRY_AFTER_SECS),
            );
            return refused;
        }
    }
    let response = next.run(request).await;
    if let Some(id) = response
        .headers()
        .get("mcp-session-id")
        .and_then(|v| v.to_str().ok())
    {
        sessions.own(id, owner);
    }
    response
}

/// A message of session `id` by `owner`: known as `owner`'s, not a duplicate of a
/// request in flight.
async fn in_session(
    guard: &Guard,
    sessions: &Arc<Sessions>,
    (id, owner): (&str, &str),
    message: &Value,
    request: Request,
    next: Next,
) -> Response {
    let request_id = message.get("method").and(message.get("id"));
    let busy = match enter(guard, sessions, id, owner, request_id).await {
        Ok(busy) => busy,
        Err(refused) => return refused,
    };
    if message.get("method") == Some(&Value::from("logging/setLevel")) {
        sessions.keep_awake(id);
    }
    // rmcp routes a session's answers by request id: a second request with an id still
    // in flight would take the first one's answer. Refuse it; the id is free again once
    // the first one's response stream ends or is dropped.
    let held = match request_id {
        Some(request_id) => match guard.ids.hold(id, request_id) {
            Some(held) => Some(held),
            None => return bad_request(&lines::duplicate_id(request_id)),
        },
        None => None,
    };
    hold(next.run(request).await, (busy, held))
}

/// Session `id` as a request of `owner` finds it: busy while the request lasts; asleep,
/// it is woken by rmcp once it is fully asleep; unknown, expired or another principal's,
/// 404.
async fn enter(
    guard: &Guard,
    sessions: &Arc<Sessions>,
    id: &str,
    owner: &str,
    request_id: Option<&Value>,
) -> Result<Busy, Response> {
    loop {
        let slept = sessions.slept();
        match sessions.enter(id, owner) {
            Entry::Busy(busy) => return Ok(busy),
            Entry::Closing => slept.await,
            Entry::Expired => {
                close(&guard.manager, id).await;
                return Err(not_found(id, request_id));
            }
            Entry::Unknown => return Err(not_found(id, request_id)),
        }
    }
}

/// Close session `id` in rmcp (nothing when rmcp does not hold it).
pub(super) async fn close(manager: &LocalSessionManager, id: &str) {
    if let Err(e) = manager.close_session(&Arc::from(id)).await {
        tracing::debug!(session = %id, error = %e, "closing a session");
    }
}

/// `response`, keeping `guards` alive until its body has been sent or dropped. A body of
/// known length (a JSON answer) keeps its `Content-Length` rather than being sent chunked.
fn hold<T: Send + 'static>(response: Response, guards: T) -> Response {
    use axum::body::HttpBody as _;
    use futures::StreamExt as _;
    let (mut parts, body) = response.into_parts();
    if let Some(length) = body.size_hint().exact() {
        parts
            .headers
            .entry(header::CONTENT_LENGTH)
            .or_insert_with(|| HeaderValue::from(length));
    }
    let body = body.into_data_stream().map(move |chunk| {
        let _held = &guards;
        chunk
    });
    Response::from_parts(parts, axum::body::Body::from_stream(body))
}

/// 404 for a session not known: what the MCP transport specification asks, so the client
/// starts a new session.
fn not_found(id: &str, request_id: Option<&Value>) -> Response {
    jsonrpc_error(
        StatusCode::NOT_FOUND,
        request_id,
        format!(
            "no session {id}: it ended, was idle too long, made room for a new one or never \
             existed; initialize a new session"
        ),
    )
}

fn bad_request(answer: &Value) -> Response {
    (
        StatusCode::BAD_REQUEST,
        [(header::CONTENT_TYPE, "application/json")],
        answer.to_string(),
    )
        .into_response()
}
