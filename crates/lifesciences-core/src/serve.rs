//! The transports a server is served over: stdio, and Streamable HTTP at `/mcp` with
//! `GET /health`; and the signals that stop them.
//!
//! **Invariant:** in stdio mode nothing but protocol bytes is written to stdout; logs go to
//! stderr.

use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::extract::Request;
use axum::middleware::Next;

use rmcp::transport::streamable_http_server::{
    StreamableHttpServerConfig, StreamableHttpService, session::local::LocalSessionManager,
};
use rmcp::{ServerHandler, ServiceExt as _};
use tokio::io::{AsyncRead, AsyncWrite};
use tokio_util::sync::CancellationToken;

use crate::server::{InFlight, McpServer, Served};

pub mod lines;

/// Errors that end a server run.
pub type ServeError = Box<dyn std::error::Error + Send + Sync>;

/// Serve MCP over any byte stream until the peer closes it or `shutdown` resolves.
pub async fn serve_io<S, R, W>(
    server: S,
    reader: R,
    writer: W,
    shutdown: impl Future<Output = ()>,
) -> Result<(), ServeError>
where
    S: ServerHandler,
    R: AsyncRead + Send + Unpin + 'static,
    W: AsyncWrite + Send + Unpin + 'static,
{
    let running = server.serve((reader, writer)).await?;
    let cancel = running.cancellation_token();
    tokio::select! {
        quit = running.waiting() => {
            tracing::info!(reason = ?quit?, "MCP session ended");
        }
        () = shutdown => {
            tracing::info!("shutting down");
            cancel.cancel();
        }
    }
    Ok(())
}

/// Serve MCP over this process's stdin/stdout until stdin closes or a signal arrives.
pub async fn serve_stdio<S: McpServer>(server: S) -> Result<(), ServeError> {
    tracing::info!(
        server = S::NAME,
        version = S::VERSION,
        "serving MCP over stdio"
    );
    let (stdin, stdout) = lines::guard(tokio::io::stdin(), tokio::io::stdout());
    serve_io(Served::new(server), stdin, stdout, shutdown_signal()).await
}

/// Options of the Streamable HTTP transport.
#[derive(Debug, Clone)]
pub struct HttpOptions {
    /// Where to listen: `HOST:PORT`, the host an IP address or a name (`localhost:8000`).
    pub addr: String,
    /// `Host` values accepted besides localhost, 127.0.0.1 and ::1 (DNS-rebinding
    /// protection stays on).
    pub extra_allowed_hosts: Vec<String>,
    /// Largest accepted request body.
    pub max_request_body_bytes: usize,
    /// A session without a request for this long is closed (its client must initialize
    /// again).
    pub session_idle: Duration,
    /// Most sessions alive at once. At the cap a new session is refused with 503 and a
    /// `Retry-After`; the sessions alive keep working.
    pub max_sessions: usize,
}

/// Default [`HttpOptions::session_idle`]: 30 minutes.
pub const DEFAULT_SESSION_IDLE: Duration = Duration::from_secs(30 * 60);
/// Default [`HttpOptions::max_sessions`]: about 55 MB of sessions at most.
pub const DEFAULT_MAX_SESSIONS: usize = 1000;

impl HttpOptions {
    /// Defaults: loopback hosts only, 1 MiB request bodies, sessions closed after 30
    /// minutes idle, at most 1000 sessions.
    pub fn new(addr: impl Into<String>) -> Self {
        Self {
            addr: addr.into(),
            extra_allowed_hosts: Vec::new(),
            max_request_body_bytes: 1024 * 1024,
            session_idle: DEFAULT_SESSION_IDLE,
            max_sessions: DEFAULT_MAX_SESSIONS,
        }
    }
}

/// A running HTTP server.
#[derive(Debug)]
pub struct HttpServer {
    /// The bound address (useful with port 0).
    pub local_addr: SocketAddr,
    /// Stops accepting connections.
    accepting: CancellationToken,
    /// Ends the MCP sessions (and their streams).
    sessions: CancellationToken,
    in_flight: InFlight,
    task: tokio::task::JoinHandle<std::io::Result<()>>,
}

impl HttpServer {
    /// Stop accepting connections, let the tool calls in flight finish (for at most
    /// `grace`), then end the sessions. A call still running after `grace` is dropped with
    /// its session.
    pub async fn shutdown(&self, grace: Duration) {
        self.accepting.cancel();
        let running = self.in_flight.running();
        if running > 0 {
            tracing::info!(running, "letting the tool calls in flight finish");
            if tokio::time::timeout(grace, self.in_flight.drained())
                .await
                .is_err()
            {
                tracing::warn!(
                    running = self.in_flight.running(),
                    "tool calls still running after {} s are dropped",
                    grace.as_secs()
                );
            }
        }
        self.sessions.cancel();
    }

    /// Wait until the server has stopped.
    pub async fn wait(self) -> Result<(), ServeError> {
        self.task.await??;
        Ok(())
    }
}

/// What `GET /health` answers: that the server is up, which server, its version and the
/// git revision it was built from (`unknown` for a development build).
fn health_answer(server: &str, version: &str, revision: &str) -> String {
    serde_json::json!({
        "status": "ok",
        "server": server,
        "version": version,
        "revision": revision,
    })
    .to_string()
}

/// The listening address could not be taken (in use, not this machine's, not allowed).
#[derive(Debug, thiserror::Error)]
#[error(
    "cannot listen on {addr}: {source}. If another program uses this port, choose another \
     (e.g. --http 127.0.0.1:{suggested})."
)]
pub struct BindError {
    /// The address asked for.
    pub addr: String,
    /// A nearby port to suggest.
    pub suggested: u16,
    /// Why.
    pub source: std::io::Error,
}

/// Bind and start Streamable HTTP: MCP at `/mcp`, liveness at `GET /health`. A host name
/// in `options.addr` is also accepted as a `Host` header.
pub async fn start_http<S: McpServer>(
    server: S,
    options: HttpOptions,
) -> Result<HttpServer, ServeError> {
    let accepting = CancellationToken::new();
    let sessions = CancellationToken::new();
    let mut hosts: Vec<String> = vec!["localhost".into(), "127.0.0.1".into(), "::1".into()];
    hosts.extend(options.extra_allowed_hosts.iter().cloned());
    if let Some((host, _)) = options.addr.rsplit_once(':')
        && host.parse::<std::net::IpAddr>().is_err()
        && !host.starts_with('[')
        && !hosts.iter().any(|h| h == host)
    {
        hosts.push(host.to_owned());
    }
    // Browsers send `Origin`: only pages served from an allowed host may call (the MCP
    // transport spec's "MUST validate Origin"); clients that send none are not browsers.
    let origins = allowed_origins(&hosts);
    let config = StreamableHttpServerConfig::default()
        .with_cancellation_token(sessions.child_token())
        .with_allowed_hosts(hosts)
        .with_allowed_origins(origins)
        .with_max_request_body_bytes(options.max_request_body_bytes);
    // One server value shared by every session: they share the HTTP clients, so the
    // rate limits, caches and coalescing hold across sessions; each has its log level.
    let served = Served::new(server);
    let in_flight = served.in_flight();
    let mut manager = LocalSessionManager::default();
    manager.session_config.keep_alive = Some(options.session_idle);
    let manager = Arc::new(manager);
    let service = StreamableHttpService::new(
        move || Ok(served.new_session()),
        Arc::clone(&manager),
        config,
    );
    let limits = Limits {
        sessions: options.max_sessions,
        body_bytes: options.max_request_body_bytes,
    };
    let guards = Arc::new(Guards::default());
    let guard = axum::middleware::from_fn(move |request: Request, next: Next| {
        let (manager, guards) = (Arc::clone(&manager), Arc::clone(&guards));
        async move { guard_requests(&manager, &guards, limits, request, next).await }
    });
    let health = health_answer(S::NAME, S::VERSION, crate::version::revision());
    let app = axum::Router::new()
        .route(
            "/health",
            axum::routing::get(move || {
                let body = health.clone();
                async move {
                    (
                        [(axum::http::header::CONTENT_TYPE, "application/json")],
                        body,
                    )
                }
            }),
        )
        .nest_service(
            "/mcp",
            axum::Router::new().fallback_service(service).layer(guard),
        );
    let listener = tokio::net::TcpListener::bind(options.addr.as_str())
        .await
        .map_err(|source| BindError {
            suggested: options
                .addr
                .rsplit_once(':')
                .and_then(|(_, port)| port.parse::<u16>().ok())
                .map_or(8001, |port| port.wrapping_add(1).max(1024)),
            addr: options.addr.clone(),
            source,
        })?;
    let local_addr = listener.local_addr()?;
    tracing::info!(
        server = S::NAME,
        "Streamable HTTP on http://{local_addr}/mcp"
    );
    let stop = accepting.clone();
    let task = tokio::spawn(async move {
        axum::serve(listener, app)
            .with_graceful_shutdown(async move { stop.cancelled().await })
            .await
    });
    Ok(HttpServer {
        local_addr,
        accepting,
        sessions,
        in_flight,
        task,
    })
}

#[derive(Debug, Clone, Copy)]
struct Limits {
    sessions: usize,
    body_bytes: usize,
}

/// The state of [`guard_requests`], shared by every request.
#[derive(Debug, Default)]
struct Guards {
    /// Request ids in flight, per session.
    ids: lines::InFlightIds,
    /// Held while a new session opens.
    opening: tokio::sync::Mutex<()>,
}

/// What the Streamable HTTP service of rmcp 3.9 does not: a `DELETE` of a session it does
/// not have is 404 (rmcp answers 202); a new session beyond the cap is 503 with a
/// `Retry-After` instead of more memory; a POST body that is not JSON, or not a JSON-RPC
/// message, is 400 with a JSON-RPC error (rmcp answers 415 with the decoder's text); a
/// request whose id is still in flight in its session is 400 with Invalid Request (rmcp
/// would give its answer to one of the two).
async fn guard_requests(
    manager: &LocalSessionManager,
    guards: &Guards,
    limits: Limits,
    request: Request,
    next: Next,
) -> axum::response::Response {
    let limit = limits.sessions;
    use axum::http::{Method, StatusCode, header};
    use axum::response::IntoResponse as _;
    let session = request
        .headers()
        .get("mcp-session-id")
        .and_then(|v| v.to_str().ok())
        .map(ToOwned::to_owned);
    let jsonrpc_error = |status: StatusCode, message: String| {
        let body = serde_json::json!({
            "jsonrpc": "2.0",
            "id": null,
            "error": {"code": -32000, "message": message},
        });
        let mut response = (
            status,
            [(header::CONTENT_TYPE, "application/json")],
            body.to_string(),
        )
            .into_response();
        if status == StatusCode::SERVICE_UNAVAILABLE {
            response
                .headers_mut()
                .insert(header::RETRY_AFTER, header::HeaderValue::from_static("60"));
        }
        response
    };
    match (request.method(), session.as_deref()) {
        (&Method::DELETE, Some(id)) if !manager.sessions.read().await.contains_key(id) => {
            jsonrpc_error(
                StatusCode::NOT_FOUND,
                format!("no session {id}: it ended or never existed"),
            )
        }
        (&Method::POST, session) => {
            // New sessions open one at a time, so concurrent ones cannot overshoot the cap
            // between the count and rmcp's creating them (an `initialize` takes a moment).
            let _opening = match session {
                Some(_) => None,
                None => {
                    let opening = guards.opening.lock().await;
                    if manager.sessions.read().await.len() >= limit {
                        tracing::warn!(limit, "refusing a new session: at the session cap");
                        return jsonrpc_error(
                            StatusCode::SERVICE_UNAVAILABLE,
                            format!(
                                "this server already has {limit} sessions, its cap; retry in a \
                                 minute (idle sessions close on their own)"
                            ),
                        );
                    }
                    Some(opening)
                }
            };
            let (parts, body) = request.into_parts();
            let Ok(bytes) = axum::body::to_bytes(body, limits.body_bytes).await else {
                return jsonrpc_error(
                    StatusCode::PAYLOAD_TOO_LARGE,
                    format!(
                        "the request body is larger than {} bytes",
                        limits.body_bytes
                    ),
                );
            };
            let bad_request = |answer: serde_json::Value| {
                (
                    StatusCode::BAD_REQUEST,
                    [(header::CONTENT_TYPE, "application/json")],
                    answer.to_string(),
                )
                    .into_response()
            };
            // The checks of the stdio guard, strictly: every POST gets an answer.
            let message =
                match lines::parse(&bytes).and_then(|m| lines::check(&m, true).map(|()| m)) {
                    Ok(message) => message,
                    Err(answer) => return bad_request(answer),
                };
            // rmcp routes a session's answers by request id: a second request with an id
            // still in flight would take the first one's answer. Refuse it; the id is
            // free again once the first one's response stream ends or is dropped.
            let held = match (&session, message.get("id"), message.get("method")) {
                (Some(session), Some(id), Some(_)) => match guards.ids.hold(session, id) {
                    Some(held) => Some(held),
                    None => return bad_request(lines::duplicate_id(id)),
                },
                _ => None,
            };
            let response = next
                .run(Request::from_parts(parts, axum::body::Body::from(bytes)))
                .await;
            match held {
                None => response,
                Some(held) => {
                    use futures::StreamExt as _;
                    let (parts, body) = response.into_parts();
                    let body = body.into_data_stream().map(move |chunk| {
                        let _in_flight = &held;
                        chunk
                    });
                    axum::response::Response::from_parts(parts, axum::body::Body::from_stream(body))
                }
            }
        }
        _ => next.run(request).await,
    }
}

/// The `Origin` values accepted: `http` and `https` pages from each allowed host, on any
/// port unless the host names one (`example.org:8443`).
fn allowed_origins(hosts: &[String]) -> Vec<String> {
    hosts
        .iter()
        .flat_map(|host| {
            let host = host.trim();
            let host =
                if host.contains(':') && !host.starts_with('[') && host.matches(':').count() > 1 {
                    format!("[{host}]")
                } else {
                    host.to_owned()
                };
            let has_port = match host.rfind(']') {
                Some(end) => host[end..].contains(':'),
                None => host.contains(':'),
            };
            let port = if has_port { "" } else { ":*" };
            ["http", "https"].map(|scheme| format!("{scheme}://{host}{port}"))
        })
        .collect()
}

/// How long a shutdown lets the tool calls in flight finish.
pub const SHUTDOWN_GRACE: Duration = Duration::from_secs(10);

/// Serve HTTP until SIGINT or SIGTERM, then shut down gracefully: no new connections,
/// the tool calls in flight finish (within [`SHUTDOWN_GRACE`]) and are answered, then the
/// sessions end.
pub async fn serve_http<S: McpServer>(server: S, options: HttpOptions) -> Result<(), ServeError> {
    let running = start_http(server, options).await?;
    shutdown_signal().await;
    tracing::info!("signal received: shutting down");
    running.shutdown(SHUTDOWN_GRACE).await;
    match tokio::time::timeout(Duration::from_secs(10), running.wait()).await {
        Ok(result) => result,
        Err(_) => {
            tracing::warn!("in-flight requests did not finish within 10 s; exiting");
            Ok(())
        }
    }
}

/// Resolves on SIGINT (Ctrl-C) or SIGTERM.
pub async fn shutdown_signal() {
    let ctrl_c = async {
        if tokio::signal::ctrl_c().await.is_err() {
            futures::future::pending::<()>().await;
        }
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(_) => futures::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = futures::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {},
        () = terminate => {},
    }
}

#[cfg(test)]
mod tests {
    use super::{allowed_origins, health_answer};

    #[test]
    fn health_names_the_server_its_version_and_revision() {
        let answer: serde_json::Value =
            serde_json::from_str(&health_answer("lifesciences-mcp", "0.1.0", "77516ee0ab12"))
                .unwrap();
        assert_eq!(
            answer,
            serde_json::json!({"status": "ok", "server": "lifesciences-mcp",
                               "version": "0.1.0", "revision": "77516ee0ab12"})
        );
    }

    #[test]
    fn origins_follow_the_allowed_hosts() {
        let hosts = ["localhost", "::1", "mcp.example.org:8443", "[::2]:9000"].map(String::from);
        assert_eq!(
            allowed_origins(&hosts),
            [
                "http://localhost:*",
                "https://localhost:*",
                "http://[::1]:*",
                "https://[::1]:*",
                "http://mcp.example.org:8443",
                "https://mcp.example.org:8443",
                "http://[::2]:9000",
                "https://[::2]:9000",
            ]
        );
    }
}
