//! The transports a server is served over: stdio, and Streamable HTTP at `/mcp` with
//! `GET /health` and `GET /exports/<id>.tsv` (the tables exports make); and the signals
//! that stop them.
//!
//! HTTP comes in two modes. With sessions (the default) a client initializes once and
//! names its session in every request; the sessions live in this process
//! (`sessions.rs`), capped, put to sleep when idle and forgotten after the idle limit.
//! Stateless (`--stateless`), every request is served on its own: no session is opened,
//! so any replica behind a load balancer can answer any request.
//!
//! **Invariant:** in stdio mode nothing but protocol bytes is written to stdout; logs go to
//! stderr.

use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::extract::Request;
use axum::middleware::Next;

use rmcp::ServiceExt as _;
use rmcp::transport::streamable_http_server::{
    StreamableHttpServerConfig, StreamableHttpService, session::local::LocalSessionManager,
};
use tokio::io::{AsyncRead, AsyncWrite};
use tokio_util::sync::CancellationToken;

use crate::server::{Counter, InFlight, McpServer, Served};
use crate::store::Shared;

pub mod auth;
mod exports;
mod guard;
mod health;
mod jsonrpc;
pub mod lines;
mod sessions;

use sessions::{Sessions, Swept};

/// The variable that adds `Host` values to `--allow-host` (comma-separated).
pub const ALLOW_HOSTS_VAR: &str = "LIFESCIENCES_ALLOW_HOSTS";
/// The variable that stands for `--stateless` (`1`).
pub const STATELESS_VAR: &str = "LIFESCIENCES_STATELESS";

/// Errors that end a server run.
pub type ServeError = Box<dyn std::error::Error + Send + Sync>;

/// Serve MCP over any byte stream until the peer closes it or `shutdown` resolves. Then
/// the shutdown: a new tool call is answered at once that the server is shutting down
/// ([`ApiError::ShuttingDown`](crate::ApiError::ShuttingDown)), the calls in flight get
/// `grace` to finish, each still running after it is answered so, and once rmcp has
/// written every answer to `writer` the session ends.
pub async fn serve_io<S, R, W>(
    server: Served<S>,
    reader: R,
    writer: W,
    shutdown: impl Future<Output = ()>,
    grace: Duration,
) -> Result<(), ServeError>
where
    S: McpServer,
    R: AsyncRead + Send + Unpin + 'static,
    W: AsyncWrite + Send + Unpin + 'static,
{
    let in_flight = server.in_flight();
    let running = server.serve((reader, writer)).await?;
    let cancel = running.cancellation_token();
    let mut waiting = std::pin::pin!(running.waiting());
    let stopped = async {
        shutdown.await;
        tracing::info!("shutting down");
        in_flight.stop(grace).await;
    };
    tokio::select! {
        quit = &mut waiting => {
            tracing::info!(reason = ?quit?, "MCP session ended");
            return Ok(());
        }
        () = stopped => {}
    }
    // No call runs any more: rmcp writes the answers it still holds, then closes `writer`.
    cancel.cancel();
    let quit = waiting.await?;
    tracing::info!(reason = ?quit, "MCP session ended");
    Ok(())
}

/// Serve MCP over this process's stdin/stdout until stdin closes or a signal arrives;
/// after a signal, the tool calls in flight are answered (see [`serve_io`]) within
/// [`SHUTDOWN_GRACE`].
pub async fn serve_stdio<S: McpServer>(server: S) -> Result<(), ServeError> {
    tracing::info!(
        server = S::NAME,
        version = S::VERSION,
        "serving MCP over stdio"
    );
    let (stdin, stdout, written) = lines::guard(tokio::io::stdin(), tokio::io::stdout());
    let served = serve_io(
        Served::new(server),
        stdin,
        stdout,
        shutdown_signal(),
        SHUTDOWN_GRACE,
    )
    .await;
    // rmcp's last answers pass through the line guard: see them onto stdout before the
    // process ends.
    if tokio::time::timeout(ANSWERS_WRITTEN, written)
        .await
        .is_err()
    {
        tracing::warn!(
            "the last answers were not written to stdout within {} s",
            ANSWERS_WRITTEN.as_secs()
        );
    }
    served
}

/// How long a shutdown waits, once no call runs any more, for the answers to be written
/// out (a client that does not read them must not hold the process).
const ANSWERS_WRITTEN: Duration = Duration::from_secs(2);

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
    /// Serve every request on its own, without sessions: no `Mcp-Session-Id` is issued,
    /// so any replica behind a load balancer can answer any request. Simple calls are
    /// answered as plain JSON; a call that sends notifications first (log messages,
    /// progress) is answered as a short event stream that carries them and ends with its
    /// result. The session options below do not apply.
    pub stateless: bool,
    /// A session without a request for this long is closed (its client must initialize
    /// again).
    pub session_idle: Duration,
    /// A session without a request in flight or a stream open for this long is put to
    /// sleep: rmcp's machinery for it (about 65 kB) is released and only its id and
    /// `initialize` parameters are kept (about 0.2 kB); its next request wakes it,
    /// unseen by the client. A session whose client chose a log level stays awake, since
    /// its level lives there.
    pub session_hibernate: Duration,
    /// Most sessions at once, asleep or not. At the cap a new session takes the place of
    /// the least recently used one that has no request in flight and no stream open; only
    /// when every session is busy is it refused, with 503 and a `Retry-After`.
    pub max_sessions: usize,
    /// The store the server's sources share, whose state `/health` reports; `None`: no
    /// `store` in `/health`.
    pub store: Option<Arc<Shared>>,
    /// Who may call, and how fast ([`auth::Auth::from_env`]); `None`: every request is
    /// anonymous, as behind a proxy that authenticates.
    pub auth: Option<Arc<auth::Auth>>,
    /// The URL clients reach the MCP endpoint at (`LIFESCIENCES_PUBLIC_URL`), when known:
    /// answers name a table's download next to it (else by its path on this server).
    pub public_url: Option<url::Url>,
}

/// Default [`HttpOptions::session_idle`]: 30 minutes.
pub const DEFAULT_SESSION_IDLE: Duration = Duration::from_secs(30 * 60);
/// Default [`HttpOptions::session_hibernate`]: a minute, as long as rmcp keeps a
/// finished request's messages for a client that reconnects to read them.
pub const DEFAULT_SESSION_HIBERNATE: Duration = Duration::from_secs(60);
/// Default [`HttpOptions::max_sessions`].
pub const DEFAULT_MAX_SESSIONS: usize = 1000;

impl HttpOptions {
    /// Defaults: loopback hosts only, 1 MiB request bodies, sessions put to sleep after a
    /// minute idle and closed after 30 minutes idle, at most 1000 sessions, no store.
    pub fn new(addr: impl Into<String>) -> Self {
        Self {
            addr: addr.into(),
            extra_allowed_hosts: Vec::new(),
            max_request_body_bytes: 1024 * 1024,
            stateless: false,
            session_idle: DEFAULT_SESSION_IDLE,
            session_hibernate: DEFAULT_SESSION_HIBERNATE,
            max_sessions: DEFAULT_MAX_SESSIONS,
            store: None,
            auth: None,
            public_url: None,
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
    /// The responses to requests not yet written whole (see `guard::Guard::answering`).
    answering: Counter,
    /// `None` when stateless.
    known: Option<Arc<Sessions>>,
    manager: Arc<LocalSessionManager>,
    task: tokio::task::JoinHandle<std::io::Result<()>>,
}

impl HttpServer {
    /// Stop accepting connections, let the tool calls in flight finish (for at most
    /// `grace`) and answer each still running after it that the server is shutting down
    /// ([`ApiError::ShuttingDown`](crate::ApiError::ShuttingDown), as a call arriving
    /// meanwhile is); once every answer is written into its response, end the sessions.
    pub async fn shutdown(&self, grace: Duration) {
        self.accepting.cancel();
        self.in_flight.stop(grace).await;
        // Ending the sessions ends their event streams at once, answered or not: a call's
        // answer is written first (its stream then ends by itself).
        if tokio::time::timeout(ANSWERS_WRITTEN, self.answering.drained())
            .await
            .is_err()
        {
            tracing::warn!(
                responses = self.answering.count(),
                "responses not written within {} s are cut",
                ANSWERS_WRITTEN.as_secs()
            );
        }
        self.sessions.cancel();
    }

    /// The sessions this server knows, and of them those held awake in memory: for
    /// tests and diagnostics. `(0, 0)` when stateless.
    pub async fn session_counts(&self) -> (usize, usize) {
        let held = self.manager.sessions.read().await.len();
        self.known
            .as_ref()
            .map_or((0, held), |known| (known.counts().0, held))
    }

    /// Wait until the server has stopped.
    pub async fn wait(self) -> Result<(), ServeError> {
        self.task.await??;
        Ok(())
    }
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

/// The `Host` headers accepted: loopback's names, those configured, and the host name
/// the server binds to.
fn allowed_hosts(options: &HttpOptions) -> Vec<String> {
    let mut hosts: Vec<String> = vec!["localhost".into(), "127.0.0.1".into(), "::1".into()];
    hosts.extend(options.extra_allowed_hosts.iter().cloned());
    if let Some((host, _)) = options.addr.rsplit_once(':')
        && host.parse::<std::net::IpAddr>().is_err()
        && !host.starts_with('[')
        && !hosts.iter().any(|h| h == host)
    {
        hosts.push(host.to_owned());
    }
    hosts
}

/// Bind and start Streamable HTTP: MCP at `/mcp`, liveness at `GET /health`. A host name
/// in `options.addr` is also accepted as a `Host` header.
pub async fn start_http<S: McpServer>(
    server: S,
    options: HttpOptions,
) -> Result<HttpServer, ServeError> {
    let accepting = CancellationToken::new();
    let sessions = CancellationToken::new();
    let hosts = allowed_hosts(&options);
    // Browsers send `Origin`: only pages served from an allowed host may call (the MCP
    // transport spec's "MUST validate Origin"); clients that send none are not browsers.
    let origins = allowed_origins(&hosts);
    let mut config = StreamableHttpServerConfig::default()
        .with_cancellation_token(sessions.child_token())
        .with_allowed_hosts(hosts)
        .with_allowed_origins(origins)
        .with_max_request_body_bytes(options.max_request_body_bytes);
    let known = if options.stateless {
        config = config
            .with_legacy_session_mode(false)
            .with_json_response(true);
        None
    } else {
        let known = Arc::new(Sessions::new(
            options.session_idle,
            options.session_hibernate,
        ));
        // rmcp keeps each session's `initialize` parameters there, so a session put to
        // sleep can be woken.
        config.session_store = Some(Arc::clone(&known) as _);
        Some(known)
    };
    // One server value shared by every session: they share the HTTP clients, so the
    // rate limits, caches and coalescing hold across sessions; each has its log level.
    let served = Served::new(server);
    let in_flight = served.in_flight();
    let mut manager = LocalSessionManager::default();
    // rmcp's own idle limit, which a call running longer without a message would also
    // meet: the sessions' idle limit, as a safety net behind `Sessions`.
    manager.session_config.keep_alive = Some(options.session_idle);
    let manager = Arc::new(manager);
    let service = StreamableHttpService::new(
        move || Ok(served.new_session()),
        Arc::clone(&manager),
        config,
    );
    if let Some(known) = &known {
        tokio::spawn(sweep(
            Arc::clone(known),
            Arc::clone(&manager),
            sessions.clone(),
        ));
    }
    let answering = Counter::default();
    let guard = Arc::new(guard::Guard {
        answering: answering.clone(),
        manager: Arc::clone(&manager),
        sessions: known.clone(),
        ids: lines::InFlightIds::default(),
        opening: tokio::sync::Mutex::new(()),
        max_sessions: options.max_sessions,
        body_bytes: options.max_request_body_bytes,
    });
    let guard = axum::middleware::from_fn(move |request: Request, next: Next| {
        let guard = Arc::clone(&guard);
        async move { guard::guard_requests(&guard, request, next).await }
    });
    let metadata = match &options.auth {
        Some(auth) => {
            auth.watch(sessions.child_token());
            auth.metadata_routes(S::NAME)
        }
        None => axum::Router::new(),
    };
    let auth = options.auth.clone();
    let authenticate = axum::middleware::from_fn(move |request: Request, next: Next| {
        let auth = auth.clone();
        async move { auth::authenticate(auth.as_deref(), request, next).await }
    });
    let store = options.store.clone();
    let downloads = exports::downloads(options.public_url.as_ref());
    let app = axum::Router::new()
        .route(
            "/health",
            axum::routing::get(move || {
                // Computed per request: the store's state changes while the server runs.
                let health = store.as_ref().map(|store| store.health());
                let body = health::answer(
                    S::NAME,
                    S::VERSION,
                    crate::version::revision(),
                    health.as_ref(),
                );
                async move {
                    (
                        [(axum::http::header::CONTENT_TYPE, "application/json")],
                        body,
                    )
                }
            }),
        )
        .merge(metadata)
        .route(
            &format!("{}{{file}}", crate::export::DOWNLOAD_PATH),
            axum::routing::get(exports::download).layer(authenticate.clone()),
        )
        .nest_service(
            "/mcp",
            axum::Router::new()
                .fallback_service(service)
                .layer(axum::Extension(downloads))
                .layer(guard)
                .layer(authenticate),
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
        stateless = options.stateless,
        authentication = options.auth.as_ref().map_or("none", |a| a.mechanisms()),
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
        answering,
        known,
        manager,
        task,
    })
}

/// Put idle sessions to sleep and forget those idle past the limit, until `stop`. A batch
/// of closes is never cut short, so no request waits for a session that never sleeps.
async fn sweep(known: Arc<Sessions>, manager: Arc<LocalSessionManager>, stop: CancellationToken) {
    let every = known.sweep_every();
    loop {
        tokio::select! {
            () = stop.cancelled() => return,
            () = tokio::time::sleep(every) => {}
        }
        let swept = known.sweep();
        if swept.is_empty() {
            continue;
        }
        let mut asleep = Vec::new();
        for swept in &swept {
            match swept {
                Swept::Sleep(id) => {
                    guard::close(&manager, id).await;
                    asleep.push(id.as_ref());
                }
                Swept::Forget(id) => {
                    tracing::debug!(session = %id, "closing a session idle past the limit");
                    guard::close(&manager, id).await;
                }
            }
        }
        if !asleep.is_empty() {
            tracing::debug!(sessions = asleep.len(), "idle sessions put to sleep");
        }
        known.asleep(asleep);
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

/// How long a shutdown lets the tool calls in flight finish before it answers those still
/// running that the server is shutting down.
pub const SHUTDOWN_GRACE: Duration = Duration::from_secs(10);

/// Serve HTTP until SIGINT or SIGTERM, then shut down gracefully: no new connections,
/// the tool calls in flight finish (within [`SHUTDOWN_GRACE`]) or are answered that the
/// server is shutting down, then the sessions end.
pub async fn serve_http<S: McpServer>(server: S, options: HttpOptions) -> Result<(), ServeError> {
    let running = start_http(server, options).await?;
    shutdown_signal().await;
    tracing::info!("signal received: shutting down");
    running.shutdown(SHUTDOWN_GRACE).await;
    match tokio::time::timeout(Duration::from_secs(10), running.wait()).await {
        Ok(result) => result,
        Err(_) => {
            tracing::warn!("connections still open 10 s after the sessions ended; exiting");
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
