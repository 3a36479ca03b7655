//! Test support for every server crate (feature `testing`): fixture loading, the `null`
//! walker, log capture, mock-upstream helpers, an in-process MCP client, and
//! [`TestServer`], a small server over a mock upstream that core's own tests drive and
//! that shows a server crate's shape in one file.
#![allow(
    clippy::panic,
    clippy::expect_used,
    clippy::unwrap_used,
    reason = "test support: failing loudly with a message is the point"
)]

use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::model::{CallToolRequestParams, CallToolResult, ServerConfig, Tool};
use rmcp::service::RunningService;
use rmcp::{Json, RoleClient, ServerHandler, ServiceExt as _, tool, tool_handler, tool_router};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::args::{Parameters, SearchQuery, in_range, lenient};
use crate::client::{ConfigError, LifeSciencesClient, RetryPolicy, SourceConfig};
use crate::envelope::{ErrorBody, ErrorEnvelope, PaginationEnvelope};
use crate::error::ApiError;
use crate::http::HttpClient;
use crate::serve::{McpServer, server_config};
use crate::xref::{CrossReferences, XrefKey};
use crate::{cursor, schemars};

// ---------------------------------------------------------------------------------------
// Fixtures

/// Fixture files of a crate, under `<crate>/tests/fixtures/`.
///
/// ```ignore
/// let fixtures = Fixtures::of(env!("CARGO_MANIFEST_DIR"));
/// let body = fixtures.text("get_string_ids__TP53.json");
/// ```
#[derive(Debug, Clone)]
pub struct Fixtures {
    dir: PathBuf,
}

impl Fixtures {
    /// The fixtures of the crate whose manifest directory is `manifest_dir`.
    pub fn of(manifest_dir: &str) -> Self {
        Self {
            dir: PathBuf::from(manifest_dir).join("tests").join("fixtures"),
        }
    }

    /// A fixture's text.
    pub fn text(&self, name: &str) -> String {
        let path = self.dir.join(name);
        std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("cannot read fixture {}: {e}", path.display()))
    }

    /// A fixture parsed as JSON.
    pub fn json(&self, name: &str) -> Value {
        serde_json::from_str(&self.text(name))
            .unwrap_or_else(|e| panic!("fixture {name} is not JSON: {e}"))
    }
}

// ---------------------------------------------------------------------------------------
// No nulls on the wire

/// The paths of every `null` in `value`, except `pagination.cursor` and
/// `pagination.total_count`, the two fields allowed to be null (CONTRACT §3).
pub fn find_nulls(value: &Value) -> Vec<String> {
    fn walk(value: &Value, path: &str, parent_key: Option<&str>, out: &mut Vec<String>) {
        match value {
            Value::Null => out.push(path.to_owned()),
            Value::Array(items) => {
                for (i, item) in items.iter().enumerate() {
                    walk(item, &format!("{path}[{i}]"), None, out);
                }
            }
            Value::Object(map) => {
                for (key, item) in map {
                    let allowed = parent_key == Some("pagination")
                        && matches!(key.as_str(), "cursor" | "total_count")
                        && item.is_null();
                    if !allowed {
                        walk(item, &format!("{path}.{key}"), Some(key), out);
                    }
                }
            }
            _ => {}
        }
    }
    let mut out = Vec::new();
    walk(value, "$", None, &mut out);
    out
}

/// Fail when `value` holds a `null` outside the two pagination fields.
pub fn assert_no_nulls(value: &Value) {
    let nulls = find_nulls(value);
    assert!(
        nulls.is_empty(),
        "null on the wire at {nulls:?} in {}",
        serde_json::to_string_pretty(value).unwrap_or_default()
    );
}

// ---------------------------------------------------------------------------------------
// Logs

/// Captures what `tracing` logs on this thread while it lives.
pub struct LogCapture {
    buffer: Arc<Mutex<Vec<u8>>>,
    _guard: tracing::subscriber::DefaultGuard,
}

#[derive(Clone)]
struct SharedBuffer(Arc<Mutex<Vec<u8>>>);

impl std::io::Write for SharedBuffer {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl LogCapture {
    /// Start capturing every level on this thread (use a current-thread runtime for
    /// async code, the `#[tokio::test]` default).
    pub fn start() -> Self {
        let buffer = Arc::new(Mutex::new(Vec::new()));
        let writer = SharedBuffer(buffer.clone());
        let subscriber = tracing_subscriber::fmt()
            .with_max_level(tracing::Level::TRACE)
            .with_ansi(false)
            .with_writer(move || writer.clone())
            .finish();
        Self {
            buffer,
            _guard: tracing::subscriber::set_default(subscriber),
        }
    }

    /// Everything logged so far.
    pub fn contents(&self) -> String {
        String::from_utf8_lossy(&self.buffer.lock().unwrap()).into_owned()
    }
}

/// Run `f` and return what it logged.
pub fn capture_logs(f: impl FnOnce()) -> String {
    let capture = LogCapture::start();
    f();
    capture.contents()
}

// ---------------------------------------------------------------------------------------
// Mock upstreams

/// An environment made of `pairs`, for `SourceConfig::from_env_with` and the servers'
/// `*_config_with` functions: tests set variables without touching the process's own.
pub fn fake_env(pairs: &[(&str, &str)]) -> impl Fn(&str) -> Option<String> + use<> {
    let map: std::collections::HashMap<String, String> = pairs
        .iter()
        .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
        .collect();
    move |k| map.get(k).cloned()
}

/// A source configuration pointing at a mock, with quick retries (same schedule shape,
/// milliseconds instead of seconds) so failure tests stay fast.
pub fn mock_source(name: &str, base_url: &str) -> SourceConfig {
    SourceConfig::new(
        name,
        name.to_ascii_uppercase().replace([' ', '-'], "_"),
        base_url,
    )
    .expect("mock URL")
    .with_rate(1000.0)
    .with_max_concurrent(16)
    .with_timeout(Duration::from_secs(5))
    .with_retry(RetryPolicy {
        max_retries: 3,
        base_delay: Duration::from_millis(5),
        max_delay: Duration::from_secs(2),
        max_total_wait: Duration::from_secs(5),
    })
}

/// A wiremock responder that answers with a template (or each of a sequence in turn,
/// repeating the last) and records when each request arrived. Clones share the record.
#[derive(Clone)]
pub struct Recording {
    templates: Arc<Vec<wiremock::ResponseTemplate>>,
    arrivals: Arc<Mutex<Vec<Instant>>>,
}

impl Recording {
    /// Answer every request with `template`.
    pub fn new(template: wiremock::ResponseTemplate) -> Self {
        Self::sequence(vec![template])
    }

    /// Answer the n-th request with `templates[n]`, the last one from then on.
    pub fn sequence(templates: Vec<wiremock::ResponseTemplate>) -> Self {
        assert!(
            !templates.is_empty(),
            "a sequence needs at least one response"
        );
        Self {
            templates: Arc::new(templates),
            arrivals: Arc::default(),
        }
    }

    /// Arrival times so far, in order.
    pub fn arrivals(&self) -> Vec<Instant> {
        self.arrivals.lock().unwrap().clone()
    }

    /// Requests received so far.
    pub fn count(&self) -> usize {
        self.arrivals.lock().unwrap().len()
    }
}

impl wiremock::Respond for Recording {
    fn respond(&self, _request: &wiremock::Request) -> wiremock::ResponseTemplate {
        let mut arrivals = self.arrivals.lock().unwrap();
        let n = arrivals.len();
        arrivals.push(Instant::now());
        self.templates[n.min(self.templates.len() - 1)].clone()
    }
}

// ---------------------------------------------------------------------------------------
// In-process MCP client

/// A real MCP client connected to a server over an in-memory duplex stream.
pub struct McpTestClient {
    client: RunningService<RoleClient, ()>,
    /// The in-process server task; `None` for a server run as a child process.
    server: Option<tokio::task::JoinHandle<()>>,
}

impl McpTestClient {
    /// Start `server` and connect a client to it (initialize handshake included).
    pub async fn connect<S: ServerHandler>(server: S) -> Self {
        let (server_io, client_io) = tokio::io::duplex(1 << 20);
        let server = tokio::spawn(async move {
            let (read, write) = tokio::io::split(server_io);
            if let Err(e) =
                crate::serve::serve_io(server, read, write, futures::future::pending()).await
            {
                tracing::debug!("test server ended: {e}");
            }
        });
        let client = ().serve(client_io).await.expect("MCP handshake");
        Self {
            client,
            server: Some(server),
        }
    }

    /// Start a built server binary (e.g. `env!("CARGO_BIN_EXE_string-mcp")`) with `env`
    /// and connect to it over its stdin/stdout, as an MCP client application would.
    /// The child's logs go to stderr at `error` level unless `env` sets `RUST_LOG`.
    pub async fn spawn_binary(program: &str, env: &[(&str, &str)]) -> Self {
        let mut command = tokio::process::Command::new(program);
        command.env("RUST_LOG", "error");
        for (key, value) in env {
            command.env(key, value);
        }
        let transport = rmcp::transport::TokioChildProcess::new(command)
            .unwrap_or_else(|e| panic!("cannot start {program}: {e}"));
        let client = ().serve(transport).await.expect("MCP handshake with the binary");
        Self {
            client,
            server: None,
        }
    }

    /// The underlying rmcp client.
    pub fn peer(&self) -> &RunningService<RoleClient, ()> {
        &self.client
    }

    /// `tools/list`.
    pub async fn tools(&self) -> Vec<Tool> {
        self.client.list_all_tools().await.expect("tools/list")
    }

    /// `tools/call`; a JSON-RPC error fails the test.
    pub async fn call(&self, name: &str, arguments: Value) -> CallToolResult {
        let arguments = match arguments {
            Value::Object(map) => map,
            Value::Null => serde_json::Map::new(),
            other => panic!("tool arguments must be an object, got {other}"),
        };
        self.client
            .call_tool(CallToolRequestParams::new(name.to_owned()).with_arguments(arguments))
            .await
            .unwrap_or_else(|e| panic!("tools/call {name} failed at the protocol level: {e}"))
    }

    /// Call a tool that must succeed: returns its structured content, after checking it
    /// has no nulls and equals the text content.
    pub async fn call_ok(&self, name: &str, arguments: Value) -> Value {
        let result = self.call(name, arguments).await;
        let structured = result
            .structured_content
            .clone()
            .unwrap_or_else(|| panic!("{name}: no structured content in {result:?}"));
        assert_ne!(result.is_error, Some(true), "{name} failed: {structured:#}");
        assert_no_nulls(&structured);
        assert_text_mirrors(&result, &structured);
        structured
    }

    /// Call a tool that must fail: returns the envelope's error body, after checking the
    /// envelope shape and that it has no nulls.
    pub async fn call_err(&self, name: &str, arguments: Value) -> ErrorBody {
        let result = self.call(name, arguments).await;
        assert_eq!(
            result.is_error,
            Some(true),
            "{name} should fail: {result:?}"
        );
        let structured = result
            .structured_content
            .clone()
            .unwrap_or_else(|| panic!("{name}: error without an envelope: {result:?}"));
        assert_no_nulls(&structured);
        assert_text_mirrors(&result, &structured);
        let envelope: ErrorEnvelope = serde_json::from_value(structured.clone())
            .unwrap_or_else(|e| panic!("{name}: not an ErrorEnvelope ({e}): {structured:#}"));
        assert!(!envelope.success);
        assert!(!envelope.error.message.is_empty() && !envelope.error.recovery_hint.is_empty());
        envelope.error
    }

    /// Close the session and stop the server.
    pub async fn close(self) {
        let _ = self.client.cancel().await;
        if let Some(server) = self.server {
            server.abort();
        }
    }
}

/// Start a built server binary and check it answers `initialize` with the name, version
/// and instructions of `S`, and lists exactly `S::tools()`. Point `env`'s base URLs at a
/// mock or a closed port: nothing here may reach the network.
pub async fn assert_binary_speaks_mcp<S: McpServer>(program: &str, env: &[(&str, &str)]) {
    let client = McpTestClient::spawn_binary(program, env).await;
    let info = client.peer().peer_info().expect("initialize result");
    let server = info.server_info.as_ref().expect("server info");
    assert_eq!(server.name, S::NAME);
    assert_eq!(server.version, S::VERSION);
    assert_eq!(info.instructions.as_deref(), Some(S::INSTRUCTIONS));
    let listed: Vec<_> = client.tools().await.into_iter().map(|t| t.name).collect();
    let defined: Vec<_> = S::tools().into_iter().map(|t| t.name).collect();
    assert_eq!(listed, defined);
    client.close().await;
}

/// Start a built server binary in stdio mode, complete the MCP handshake, send it SIGTERM
/// while its client still holds stdin open, and check it exits within 3 seconds.
#[cfg(unix)]
pub async fn assert_stops_on_sigterm(program: &str, env: &[(&str, &str)]) {
    use tokio::io::{AsyncBufReadExt, AsyncWriteExt};
    let mut command = tokio::process::Command::new(program);
    command
        .env("RUST_LOG", "error")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .kill_on_drop(true);
    for (key, value) in env {
        command.env(key, value);
    }
    let mut child = command
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {program}: {e}"));
    let mut stdin = child.stdin.take().expect("stdin");
    let stdout = child.stdout.take().expect("stdout");
    let initialize = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}"#;
    stdin.write_all(initialize.as_bytes()).await.expect("write");
    stdin.write_all(b"\n").await.expect("write");
    let mut lines = tokio::io::BufReader::new(stdout).lines();
    let answer = tokio::time::timeout(Duration::from_secs(5), lines.next_line())
        .await
        .expect("initialize answered")
        .expect("read")
        .expect("a line");
    assert!(answer.contains("\"id\":1"), "{answer}");
    let pid = child.id().expect("pid").to_string();
    let killed = std::process::Command::new("kill")
        .args(["-TERM", &pid])
        .status();
    assert!(killed.is_ok_and(|s| s.success()), "kill -TERM {pid}");
    let exited = tokio::time::timeout(Duration::from_secs(3), child.wait()).await;
    assert!(
        exited.is_ok(),
        "{program} still running 3 s after SIGTERM with stdin open"
    );
    drop(stdin);
}

fn assert_text_mirrors(result: &CallToolResult, structured: &Value) {
    let text = result
        .content
        .iter()
        .find_map(|c| c.as_text().map(|t| t.text.clone()))
        .expect("a text content block");
    let parsed: Value = serde_json::from_str(&text).expect("text content is JSON");
    assert_eq!(
        &parsed, structured,
        "text content mirrors structured content"
    );
}

// ---------------------------------------------------------------------------------------
// A small server over a mock upstream

/// The upstream of [`TestServer`]: `GET /items/{n}` and `GET /items?q=&offset=&limit=`.
#[derive(Debug, Clone)]
pub struct ItemsClient {
    http: HttpClient,
}

impl LifeSciencesClient for ItemsClient {
    fn http(&self) -> &HttpClient {
        &self.http
    }
}

/// An upstream item.
#[derive(Debug, Deserialize)]
struct UpstreamItem {
    number: u64,
    name: Option<String>,
    #[serde(default)]
    uniprot: Vec<String>,
}

/// An upstream search answer.
#[derive(Debug, Deserialize)]
struct UpstreamSearch {
    total: Option<u64>,
    items: Vec<UpstreamItem>,
}

impl ItemsClient {
    async fn item(&self, number: u64) -> Result<Option<UpstreamItem>, ApiError> {
        match self.get_json(&format!("items/{number}"), &[]).await {
            Ok(item) => Ok(Some(item)),
            Err(e) if e.upstream_status() == Some(404) => Ok(None),
            Err(e) => Err(e),
        }
    }

    async fn search(&self, q: &str, offset: u64, limit: u32) -> Result<UpstreamSearch, ApiError> {
        let (offset, limit) = (offset.to_string(), limit.to_string());
        self.get_json("items", &[("q", q), ("offset", &offset), ("limit", &limit)])
            .await
    }
}

/// An item as the tools return it.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct Item {
    /// The item's CURIE, e.g. `ITEM:42`.
    pub id: String,
    /// Its name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// The same item elsewhere.
    pub cross_references: CrossReferences,
}

impl From<UpstreamItem> for Item {
    fn from(u: UpstreamItem) -> Self {
        let mut xrefs = CrossReferences::new();
        xrefs.extend(XrefKey::Uniprot, &u.uniprot);
        Self {
            id: format!("ITEM:{}", u.number),
            name: u.name,
            cross_references: xrefs,
        }
    }
}

/// Arguments of `items_get_item`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GetItemArgs {
    /// The item's CURIE, e.g. `ITEM:42`.
    pub item_id: String,
}

/// Arguments of `items_search`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SearchArgs {
    /// Words to search for (at least 2 characters), e.g. `kinase`.
    pub query: String,
    /// Results per page, 1–100 (default 10).
    #[serde(default, deserialize_with = "lenient::opt_u32")]
    pub page_size: Option<u32>,
    /// The `pagination.cursor` of the previous page.
    #[serde(default)]
    pub cursor: Option<String>,
}

/// A small server over a mock upstream, used by core's tests of the CLI and transports.
#[derive(Clone)]
pub struct TestServer {
    items: Arc<ItemsClient>,
    tool_router: ToolRouter<Self>,
}

impl TestServer {
    /// A server whose upstream is `config`.
    pub fn new(config: SourceConfig) -> Result<Self, ConfigError> {
        Ok(Self {
            items: Arc::new(ItemsClient {
                http: HttpClient::new(config)?,
            }),
            tool_router: crate::prepare_tools(Self::tool_router()),
        })
    }

    /// A server whose upstream is the mock at `base_url`.
    pub fn for_mock(base_url: &str) -> Self {
        Self::new(mock_source("Items", base_url)).expect("test server")
    }
}

fn parse_item_id(raw: &str) -> Result<u64, ApiError> {
    let trimmed = raw.trim();
    if let Some(n) = trimmed.strip_prefix("ITEM:").and_then(|n| n.parse().ok()) {
        return Ok(n);
    }
    if let Some(n) = trimmed
        .strip_prefix("ITEM")
        .and_then(|n| n.parse::<u64>().ok())
    {
        return Err(ApiError::unresolved(
            format!("'{raw}' is not an item CURIE."),
            format!("Use format 'ITEM:{n}'"),
            raw,
        ));
    }
    Err(ApiError::unresolved(
        format!("'{raw}' is not an item identifier."),
        "Find the item with items_search, then pass its id (e.g. 'ITEM:42').",
        raw,
    ))
}

#[tool_router]
impl TestServer {
    /// Fetch one item by CURIE. Example: `{"item_id": "ITEM:42"}`.
    #[tool(
        title = "Get an item",
        annotations(read_only_hint = true, idempotent_hint = true, open_world_hint = true)
    )]
    async fn items_get_item(
        &self,
        Parameters(args): Parameters<GetItemArgs>,
    ) -> Result<Json<Item>, ApiError> {
        let args = args?;
        let number = parse_item_id(&args.item_id)?;
        match self.items.item(number).await? {
            Some(item) => Ok(Json(item.into())),
            None => Err(ApiError::not_found(
                format!("Items has no item '{}'.", args.item_id),
                "Check the ID, or find the item with items_search.",
                args.item_id,
            )),
        }
    }

    /// Search items by words, best first, a page at a time. Example: `{"query": "kinase"}`.
    #[tool(
        title = "Search items",
        annotations(read_only_hint = true, idempotent_hint = true, open_world_hint = true)
    )]
    async fn items_search(
        &self,
        Parameters(args): Parameters<SearchArgs>,
    ) -> Result<Json<PaginationEnvelope<Item>>, ApiError> {
        let args = args?;
        let query = SearchQuery::parse(&args.query)?;
        let page_size = in_range("page_size", args.page_size, 1, 100, 10)?;
        let scope = format!("items_search|{}", query.as_str().to_lowercase());
        let offset = match &args.cursor {
            Some(c) => cursor::decode::<u64>(c, &scope)?,
            None => 0,
        };
        let found = self.items.search(query.as_str(), offset, page_size).await?;
        let has_more = found
            .total
            .map_or(found.items.len() == page_size as usize, |total| {
                // A cursor can be forged: never let arithmetic on it overflow.
                offset.saturating_add(found.items.len() as u64) < total
            });
        let items = found.items.into_iter().map(Item::from).collect();
        Ok(Json(PaginationEnvelope::from_offset(
            items,
            &scope,
            offset,
            page_size,
            found.total,
            has_more,
        )))
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for TestServer {
    fn get_info(&self) -> ServerConfig {
        server_config::<Self>(false)
    }
}

impl McpServer for TestServer {
    const NAME: &'static str = "test-mcp";
    const TITLE: &'static str = "Items (test server)";
    const VERSION: &'static str = env!("CARGO_PKG_VERSION");
    const INSTRUCTIONS: &'static str = "Items test server.\n\
        1. items_search finds items by words and returns their CURIEs.\n\
        2. items_get_item fetches one item by CURIE, with cross-references.";

    fn from_env() -> Result<Self, ConfigError> {
        Self::new(SourceConfig::new("Items", "ITEMS", "http://127.0.0.1:9")?.from_env()?)
    }

    fn tools() -> Vec<Tool> {
        crate::prepare_tools(Self::tool_router()).list_all()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn nulls_are_found_except_in_the_two_pagination_fields() {
        let ok = json!({"items": [{"a": 1}], "pagination": {"cursor": null, "total_count": null, "page_size": 5}});
        assert!(find_nulls(&ok).is_empty());
        let bad = json!({"items": [{"a": null}], "pagination": {"cursor": null, "page_size": null},
                         "cursor": null});
        assert_eq!(
            find_nulls(&bad),
            vec!["$.cursor", "$.items[0].a", "$.pagination.page_size"]
        );
        // `cursor` is only allowed null inside `pagination`.
        assert_eq!(
            find_nulls(&json!({"x": {"cursor": null}})),
            vec!["$.x.cursor"]
        );
    }
}
