//! `McpServer` (what a server crate hands to core) and the transports: stdio and
//! Streamable HTTP at `/mcp` with `GET /health`.
//!
//! **Invariant:** in stdio mode nothing but protocol bytes is written to stdout; logs go to
//! stderr.

use std::future::Future;
use std::net::SocketAddr;
use std::panic::AssertUnwindSafe;
use std::sync::Arc;
use std::time::Duration;

use futures::FutureExt as _;
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::tool::{DynCallToolHandler, ToolCallContext};
use rmcp::model::{Implementation, ServerCapabilities, ServerConfig, Tool};
use rmcp::transport::streamable_http_server::{
    StreamableHttpServerConfig, StreamableHttpService, session::local::LocalSessionManager,
};
use rmcp::{ErrorData, ServerHandler, ServiceExt as _};
use tokio::io::{AsyncRead, AsyncWrite};
use tokio_util::sync::CancellationToken;

use crate::client::ConfigError;

/// Errors that end a server run.
pub type ServeError = Box<dyn std::error::Error + Send + Sync>;

/// What a server crate implements so core's command line, docs and demo can run it.
pub trait McpServer: ServerHandler + Clone + Send + Sync + 'static {
    /// Binary and server name, e.g. `string-mcp`.
    const NAME: &'static str;
    /// Human title, e.g. `STRING protein interactions`.
    const TITLE: &'static str;
    /// The server crate's version (`env!("CARGO_PKG_VERSION")`).
    const VERSION: &'static str;
    /// What the server tells the agent at `initialize`: its Fuzzy-to-Fact path in three
    /// lines (which tool to start from, how to get exact IDs, where to go next).
    const INSTRUCTIONS: &'static str;

    /// Build the server from the environment (base URLs, rates...). No network I/O: the
    /// server must answer `initialize` within milliseconds.
    fn from_env() -> Result<Self, ConfigError>;

    /// The tool definitions (names, titles, schemas, annotations), without building the
    /// server. Used by `tools`, `cargo xtask docs` and the tool-list snapshots.
    fn tools() -> Vec<Tool>;
}

/// The `initialize` answer of a server: name, title, version and instructions from `S`,
/// and the tools capability (plus resources when `resources` is true).
pub fn server_config<S: McpServer>(resources: bool) -> ServerConfig {
    let builder = ServerCapabilities::builder().enable_tools();
    let capabilities = if resources {
        builder.enable_resources().build()
    } else {
        builder.build()
    };
    ServerConfig::new(capabilities)
        .with_server_info(Implementation::new(S::NAME, S::VERSION).with_title(S::TITLE))
        .with_instructions(S::INSTRUCTIONS)
}

/// Make a server's tools production-ready. Every server builds its router through this:
/// `tool_router: prepare_tools(Self::router())`, and lists `prepare_tools(..).list_all()`.
///
/// 1. A call the client cancels (`notifications/cancelled`) stops at once, dropping its
///    upstream calls with it. rmcp 3.9 only cancels the request's token and discards the
///    answer: without this the tool would run on, spending the upstream's rate budget on
///    retries nobody waits for.
/// 2. A panic inside a tool becomes an error answer instead of a call never answered.
/// 3. Output schemas say what is on the wire: optional fields are omitted, never null, so
///    `"type": ["string", "null"]` becomes `"type": "string"` (only the two pagination
///    fields that may be null keep it).
pub fn prepare_tools<S: Send + Sync + 'static>(mut router: ToolRouter<S>) -> ToolRouter<S> {
    for route in router.map.values_mut() {
        route.call = guard(route.call.clone());
        if let Some(schema) = &route.attr.output_schema {
            let mut tightened = serde_json::Value::Object((**schema).clone());
            drop_null_types(&mut tightened, false);
            if let serde_json::Value::Object(map) = tightened {
                route.attr.output_schema = Some(Arc::new(map));
            }
        }
    }
    router
}

/// Remove `null` from the schemas of object properties (recursively), except for
/// `cursor` and `total_count` of a pagination object, the only fields that may be null
/// (CONTRACT §3).
fn drop_null_types(schema: &mut serde_json::Value, nullable_allowed: bool) {
    use serde_json::Value;
    let Value::Object(map) = schema else {
        if let Value::Array(items) = schema {
            for item in items {
                drop_null_types(item, false);
            }
        }
        return;
    };
    if !nullable_allowed {
        if let Some(Value::Array(types)) = map.get_mut("type") {
            types.retain(|t| t != "null");
            if types.len() == 1 {
                let only = types.remove(0);
                map.insert("type".to_owned(), only);
            }
        }
        for key in ["anyOf", "oneOf"] {
            let single = match map.get_mut(key) {
                Some(Value::Array(options)) => {
                    options.retain(|o| o.get("type").and_then(Value::as_str) != Some("null"));
                    (options.len() == 1).then(|| options.remove(0))
                }
                _ => None,
            };
            // `anyOf: [{$ref: X}]` left alone would still read as "one of"; inline it.
            if let Some(Value::Object(only)) = single {
                map.remove(key);
                for (k, v) in only {
                    map.entry(k).or_insert(v);
                }
            }
        }
    }
    let is_pagination = map
        .get("properties")
        .and_then(Value::as_object)
        .is_some_and(|p| {
            p.contains_key("cursor") && p.contains_key("total_count") && p.contains_key("page_size")
        });
    for (key, value) in map.iter_mut() {
        match key.as_str() {
            "properties" => {
                if let Value::Object(properties) = value {
                    for (name, property) in properties.iter_mut() {
                        let keep_null =
                            is_pagination && matches!(name.as_str(), "cursor" | "total_count");
                        drop_null_types(property, keep_null);
                    }
                }
            }
            "type" | "enum" | "const" | "required" | "description" | "title" => {}
            _ => drop_null_types(value, false),
        }
    }
}

fn guard<S: Send + Sync + 'static>(
    inner: Arc<DynCallToolHandler<S>>,
) -> Arc<DynCallToolHandler<S>> {
    Arc::new(move |context: ToolCallContext<'_, S>| {
        let cancelled = context.request_context.ct.clone();
        let call = AssertUnwindSafe(inner(context)).catch_unwind();
        async move {
            tokio::select! {
                biased;
                () = cancelled.cancelled() => {
                    tracing::debug!("tool call cancelled by the client: upstream calls dropped");
                    Err(ErrorData::internal_error("request cancelled by the client", None))
                }
                outcome = call => outcome.unwrap_or_else(|_| {
                    tracing::error!("a tool panicked");
                    Err(ErrorData::internal_error(
                        "the server failed unexpectedly while handling this tool call",
                        None,
                    ))
                }),
            }
        }
        .boxed()
    })
}

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
    let (stdin, stdout) = rmcp::transport::stdio();
    serve_io(server, stdin, stdout, shutdown_signal()).await
}

/// Options of the Streamable HTTP transport.
#[derive(Debug, Clone)]
pub struct HttpOptions {
    /// Where to listen.
    pub addr: SocketAddr,
    /// `Host` values accepted besides localhost, 127.0.0.1 and ::1 (DNS-rebinding
    /// protection stays on).
    pub extra_allowed_hosts: Vec<String>,
    /// Largest accepted request body.
    pub max_request_body_bytes: usize,
}

impl HttpOptions {
    /// Defaults: loopback hosts only, 1 MiB request bodies.
    pub fn new(addr: SocketAddr) -> Self {
        Self {
            addr,
            extra_allowed_hosts: Vec::new(),
            max_request_body_bytes: 1024 * 1024,
        }
    }
}

/// A running HTTP server.
#[derive(Debug)]
pub struct HttpServer {
    /// The bound address (useful with port 0).
    pub local_addr: SocketAddr,
    shutdown: CancellationToken,
    task: tokio::task::JoinHandle<std::io::Result<()>>,
}

impl HttpServer {
    /// Stop accepting, end the sessions, and let in-flight requests finish.
    pub fn shutdown(&self) {
        self.shutdown.cancel();
    }

    /// Wait until the server has stopped.
    pub async fn wait(self) -> Result<(), ServeError> {
        self.task.await??;
        Ok(())
    }
}

/// Bind and start Streamable HTTP: MCP at `/mcp`, liveness at `GET /health`.
pub async fn start_http<S: McpServer>(
    server: S,
    options: HttpOptions,
) -> Result<HttpServer, ServeError> {
    let shutdown = CancellationToken::new();
    let mut hosts: Vec<String> = vec!["localhost".into(), "127.0.0.1".into(), "::1".into()];
    hosts.extend(options.extra_allowed_hosts.iter().cloned());
    // Browsers send `Origin`: only pages served from an allowed host may call (the MCP
    // transport spec's "MUST validate Origin"); clients that send none are not browsers.
    let origins = allowed_origins(&hosts);
    let config = StreamableHttpServerConfig::default()
        .with_cancellation_token(shutdown.child_token())
        .with_allowed_hosts(hosts)
        .with_allowed_origins(origins)
        .with_max_request_body_bytes(options.max_request_body_bytes);
    // One server value shared by every session: they share the HTTP clients, so the
    // rate limits, caches and coalescing hold across sessions.
    let service = StreamableHttpService::new(
        move || Ok(server.clone()),
        LocalSessionManager::default().into(),
        config,
    );
    let health = format!(
        r#"{{"status":"ok","server":"{}","version":"{}"}}"#,
        S::NAME,
        S::VERSION
    );
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
        .nest_service("/mcp", service);
    let listener = tokio::net::TcpListener::bind(options.addr).await?;
    let local_addr = listener.local_addr()?;
    tracing::info!(
        server = S::NAME,
        "Streamable HTTP on http://{local_addr}/mcp"
    );
    let stop = shutdown.clone();
    let task = tokio::spawn(async move {
        axum::serve(listener, app)
            .with_graceful_shutdown(async move { stop.cancelled().await })
            .await
    });
    Ok(HttpServer {
        local_addr,
        shutdown,
        task,
    })
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

/// Serve HTTP until SIGINT or SIGTERM, then shut down gracefully (in-flight requests get
/// a few seconds to finish).
pub async fn serve_http<S: McpServer>(server: S, options: HttpOptions) -> Result<(), ServeError> {
    let running = start_http(server, options).await?;
    shutdown_signal().await;
    tracing::info!("signal received: shutting down");
    running.shutdown();
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
    use super::allowed_origins;

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
