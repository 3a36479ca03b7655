//! The one server shape: [`McpServer`] (what a server crate declares: names,
//! instructions, how to build it from the environment, its tool router, its resources)
//! and [`Served`], the MCP handler core makes of it, with one tool policy for every
//! server ([`prepare_tools`]).

use std::borrow::Cow;
use std::panic::AssertUnwindSafe;
use std::sync::{Arc, OnceLock};

use futures::FutureExt as _;
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::tool::{DynCallToolHandler, ToolCallContext};
#[expect(
    deprecated,
    reason = "MCP logging is deprecated in the newest protocol revision; clients of the previous revision still use it"
)]
use rmcp::model::SetLevelRequestParams;
use rmcp::model::{
    CacheScope, CallToolRequestParams, CallToolResponse, Implementation,
    ListResourceTemplatesResult, ListResourcesResult, ListToolsResult, PaginatedRequestParams,
    ProtocolVersion, ReadResourceRequestParams, ReadResourceResponse, ReadResourceResult, Resource,
    ResourceContents, ResourceTemplate, ResultType, ServerCapabilities, ServerConfig, Tool,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler};

use crate::client::Env;
use crate::config::{ConfigError, Upstream};
use crate::error::ApiError;
use crate::notify::{self, Level, SessionLevel};
use crate::principal::{self, Principal};
use crate::provenance::{self, Provenance};
use crate::{export, records, schema};

mod declared;
mod exporting;

pub use declared::{Declared, call_tool, calls, listings, pictures, router, unlisted};

/// What a server crate declares; core serves it (see [`Served`]), lists it, documents it
/// and checks its upstreams.
pub trait McpServer: Clone + Send + Sync + 'static {
    /// Binary and server name, e.g. `string-mcp`.
    const NAME: &'static str;
    /// Human title, e.g. `STRING protein interactions`.
    const TITLE: &'static str;
    /// The server crate's version (`env!("CARGO_PKG_VERSION")`).
    const VERSION: &'static str;
    /// What the server tells the agent at `initialize`: its path from fuzzy words to
    /// exact facts in three lines (which tool to start from, how to get exact IDs, where
    /// to go next).
    const INSTRUCTIONS: &'static str;
    /// Resources served besides the tools; none unless declared.
    const RESOURCES: &'static [StaticResource] = &[];

    /// Build the server from `env`: each source client with `env.client()`. No network
    /// I/O: the server must answer `initialize` within milliseconds.
    fn from_env(env: &Env) -> Result<Self, ConfigError>;

    /// Every tool, each named once: `lifesciences_core::tools![…]` (see
    /// [`tools!`](crate::tools!)) over the `#[tool]` fns of `Self`. Core makes of this one
    /// list the definitions ([`router`]), the dispatch ([`calls`]), the pictures and a
    /// gateway's projection; a server never lists or calls its tools itself.
    fn tools() -> Vec<Declared<Self>>;

    /// The served definitions ([`tools`](fn@tools)) as JSON, generated into the crate's
    /// `src/tools.json` by `cargo xtask docs` and embedded
    /// (`Some(include_str!("tools.json"))`), so a running server never generates a
    /// schema; the test kit checks they are current. `None`: generated on first use.
    const DEFINITIONS: Option<&'static str> = None;

    /// Named groups of tools a user may choose among (`--toolsets`); none unless
    /// declared.
    const TOOLSETS: &'static [&'static str] = &[];

    /// Whether this instance serves the tool `name` (a gateway built for some toolsets
    /// serves their tools only). Every tool unless overridden.
    fn keeps_tool(&self, name: &str) -> bool {
        let _ = name;
        true
    }
}

/// A resource whose text the server computes on request (e.g. a schema generated from
/// its output types).
#[derive(Debug, Clone, Copy)]
pub struct StaticResource {
    /// Its URI, e.g. `igvf://guide/identifiers`.
    pub uri: &'static str,
    /// Short name.
    pub name: &'static str,
    /// Title.
    pub title: &'static str,
    /// What it holds.
    pub description: &'static str,
    /// MIME type.
    pub mime_type: &'static str,
    /// Its text.
    pub text: fn() -> String,
}

/// The tool definitions of `S` as served (names, titles, schemas, annotations), without
/// building a server. Used by `tools` and the tool-list snapshots.
pub fn tools<S: McpServer>() -> Vec<Tool> {
    prepare_tools(router::<S>()).list_all()
}

/// What [`McpServer::DEFINITIONS`] holds: [`tools`] as pretty JSON, newline-ended.
/// Written into each server crate's `src/tools.json` by `cargo xtask docs`.
pub fn stored_definitions<S: McpServer>() -> String {
    match serde_json::to_string_pretty(&tools::<S>()) {
        Ok(json) => json + "\n",
        // Tool definitions are maps of strings: they always serialise.
        Err(_) => String::new(),
    }
}

/// The tool definitions of `S` with every output field's description, which the served
/// output schemas leave out (see [`schema::lean`]). Used by `cargo xtask docs`.
pub fn documented_tools<S: McpServer>() -> Vec<Tool> {
    prepare(router::<S>(), false).list_all()
}

/// The upstreams `S` uses, as an empty environment builds it (no I/O). Used by `--help`,
/// the unknown-variable warning and `cargo xtask docs`.
pub fn upstreams<S: McpServer>() -> Result<Vec<&'static Upstream>, ConfigError> {
    let env = Env::from_pairs(&[]);
    S::from_env(&env)?;
    Ok(env
        .built()
        .iter()
        .map(|http| http.config().upstream)
        .collect())
}

/// An [`McpServer`] as MCP sees it: its tools behind the tool policy, its resources, its
/// log notifications, and its `initialize` answer. Cheap to clone; clones share the
/// server's upstream clients, so rate limits, caches and coalescing hold across sessions.
#[derive(Clone)]
pub struct Served<S> {
    server: S,
    /// The tools, built on first use (the calls on the first `tools/call`, the
    /// definitions on the first `tools/list`), once for every session: `initialize`
    /// does not wait for the schemas.
    catalog: Arc<Catalog<S>>,
    /// The log level this session's client asked for.
    level: SessionLevel,
    /// Tool calls running, across every session of this server.
    in_flight: InFlight,
}

/// The tool calls running in every session of one server, and the shutdown of them: once
/// [`stop`](Self::stop) begins, a new call is answered at once that the server is shutting
/// down; the calls running get a grace period to finish, and each still running after it
/// is answered so. Either way a call gets exactly one answer: its handler returns once.
#[derive(Debug, Clone, Default)]
pub struct InFlight(Arc<InFlightState>);

#[derive(Debug, Default)]
struct InFlightState {
    calls: Counter,
    /// Set when the shutdown begins: new calls are not started.
    stopping: std::sync::atomic::AtomicBool,
    /// Cancelled when the grace period ends: the calls still running are answered.
    cut: tokio_util::sync::CancellationToken,
}

/// How long the calls cut at the end of a shutdown's grace period get to hand over their
/// answer: they only have to return, so this bounds a tool that holds its thread.
const CUT_CALLS_RETURN: std::time::Duration = std::time::Duration::from_secs(1);

impl InFlight {
    /// How many tool calls are running.
    pub fn running(&self) -> usize {
        self.0.calls.count()
    }

    /// Wait until no tool call is running.
    pub async fn drained(&self) {
        self.0.calls.drained().await;
    }

    /// Shut the calls down: from now on a new call is answered at once with
    /// [`ApiError::ShuttingDown`]; the calls running get `grace` to finish, then each
    /// still running is answered with it too. Returns when no call runs any more (or
    /// a moment after the cut, should a tool hold its thread).
    pub async fn stop(&self, grace: std::time::Duration) {
        self.0
            .stopping
            .store(true, std::sync::atomic::Ordering::SeqCst);
        let running = self.running();
        if running == 0 {
            return;
        }
        tracing::info!(
            running,
            "letting the tool calls in flight finish (at most {} s)",
            grace.as_secs_f64()
        );
        if tokio::time::timeout(grace, self.drained()).await.is_ok() {
            return;
        }
        tracing::warn!(
            running = self.running(),
            "tool calls still running after {} s: answering each that the server is shutting down",
            grace.as_secs_f64()
        );
        self.0.cut.cancel();
        if tokio::time::timeout(CUT_CALLS_RETURN, self.drained())
            .await
            .is_err()
        {
            tracing::warn!(
                running = self.running(),
                "tool calls did not hand over their answer; they are dropped"
            );
        }
    }

    /// Whether the shutdown has begun: a new call is not started.
    fn stopping(&self) -> bool {
        self.0.stopping.load(std::sync::atomic::Ordering::SeqCst)
    }

    /// Resolves when the calls still running are to be answered that the server is
    /// shutting down.
    async fn cut(&self) {
        self.0.cut.cancelled().await;
    }

    fn start(&self) -> Counted {
        self.0.calls.start()
    }
}

/// A count of things under way (tool calls, answers being written), and a way to wait
/// until there are none.
#[derive(Debug, Clone, Default)]
pub(crate) struct Counter(Arc<CounterState>);

#[derive(Debug, Default)]
struct CounterState {
    count: std::sync::atomic::AtomicUsize,
    idle: tokio::sync::Notify,
}

impl Counter {
    /// How many are under way.
    pub(crate) fn count(&self) -> usize {
        self.0.count.load(std::sync::atomic::Ordering::SeqCst)
    }

    /// Wait until none is under way.
    pub(crate) async fn drained(&self) {
        loop {
            let idle = self.0.idle.notified();
            if self.count() == 0 {
                return;
            }
            idle.await;
        }
    }

    /// One more under way, until the returned guard is dropped.
    pub(crate) fn start(&self) -> Counted {
        self.0
            .count
            .fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        Counted(self.clone())
    }
}

/// One thing under way; its end (done, failed or dropped) is counted.
#[derive(Debug)]
pub(crate) struct Counted(Counter);

impl Drop for Counted {
    fn drop(&mut self) {
        let state = &(self.0).0;
        if state
            .count
            .fetch_sub(1, std::sync::atomic::Ordering::SeqCst)
            == 1
        {
            state.idle.notify_waiters();
        }
    }
}

impl<S: McpServer> std::fmt::Debug for Served<S> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Served")
            .field("server", &S::NAME)
            .finish_non_exhaustive()
    }
}

/// A tool's name and its definition as JSON.
type Definition = (Box<str>, Cow<'static, str>);

/// The tools one server instance serves: the router that calls them and their
/// definitions, each built on first use.
///
/// Built for memory, since a server idles most of its life. rmcp keeps every schema it
/// generates in caches local to the generating thread, for that thread's life, so a
/// server that generated its schemas would hold them (about a megabyte) for good: the
/// calls come from [`calls`], which generates no schema, and the definitions
/// from [`McpServer::DEFINITIONS`], generated before the build. They are held as JSON,
/// not as `serde_json` values, which take ten times the bytes (a map of one key allocates
/// room for eleven): slices of the embedded text itself, found without reading it whole
/// into values and writing it back; `tools/list`, about once per session, reads them
/// afresh.
struct Catalog<S> {
    calls: OnceLock<ToolRouter<S>>,
    /// `(name, definition as JSON)`, sorted by name.
    definitions: OnceLock<Vec<Definition>>,
    /// The tools whose answer is a list, and how each holds its rows (for exports).
    listings: OnceLock<Vec<(&'static str, export::Listing)>>,
}

impl<S> Default for Catalog<S> {
    fn default() -> Self {
        Self {
            calls: OnceLock::new(),
            definitions: OnceLock::new(),
            listings: OnceLock::new(),
        }
    }
}

impl<S: McpServer> Catalog<S> {
    /// The handlers of the tools `server` keeps, behind the tool policy.
    fn calls(&self, server: &S) -> &ToolRouter<S> {
        self.calls.get_or_init(|| {
            let mut calls = calls::<S>();
            let dropped: Vec<String> = calls
                .map
                .keys()
                .filter(|name| !server.keeps_tool(name))
                .map(|name| name.to_string())
                .collect();
            for name in dropped {
                calls.remove_route(&name);
            }
            for route in calls.map.values_mut() {
                route.call = guard(route.call.clone());
            }
            calls
        })
    }

    /// The definitions of the tools `server` keeps, sorted by name, each as compact
    /// JSON: read once from [`McpServer::DEFINITIONS`] (or generated), then held as text.
    fn definitions(&self, server: &S) -> &[Definition] {
        self.definitions.get_or_init(|| {
            match S::DEFINITIONS.map(embedded_definitions) {
                Some(Ok(stored)) => {
                    return stored
                        .into_iter()
                        .filter(|(name, _)| server.keeps_tool(name))
                        .collect();
                }
                Some(Err(e)) => {
                    tracing::error!(error = %e, "the stored tool definitions do not read: generating them");
                }
                None => {}
            }
            tools::<S>()
                .iter()
                .filter(|tool| server.keeps_tool(&tool.name))
                .filter_map(|tool| {
                    let json = serde_json::to_string(tool).ok()?;
                    Some((tool.name.as_ref().into(), Cow::Owned(json)))
                })
                .collect()
        })
    }

    /// Every definition `server` serves.
    fn list(&self, server: &S) -> Result<Vec<Tool>, ErrorData> {
        self.definitions(server)
            .iter()
            .map(|(_, json)| read_definition(json))
            .collect()
    }

    /// How the tool `name` holds its rows, if `server` serves it and its answer is a
    /// list.
    fn listing(&self, server: &S, name: &str) -> Option<export::Listing> {
        self.listings
            .get_or_init(listings::<S>)
            .iter()
            .find(|(n, _)| *n == name && server.keeps_tool(n))
            .map(|(_, listing)| *listing)
    }

    /// The definition of the tool `name`, if `server` serves it.
    fn get(&self, server: &S, name: &str) -> Option<Tool> {
        let definitions = self.definitions(server);
        let (_, json) = definitions.iter().find(|(n, _)| n.as_ref() == name)?;
        read_definition(json).ok()
    }
}

/// The stored definitions as `(name, its definition's text)`, each text a slice of
/// `stored`: only the names are read into values.
fn embedded_definitions(stored: &'static str) -> Result<Vec<Definition>, serde_json::Error> {
    #[derive(serde::Deserialize)]
    struct Named<'a> {
        #[serde(borrow)]
        name: Cow<'a, str>,
    }
    let raw: Vec<&'static serde_json::value::RawValue> = serde_json::from_str(stored)?;
    raw.into_iter()
        .map(|definition| {
            let named: Named<'_> = serde_json::from_str(definition.get())?;
            Ok((named.name.into(), Cow::Borrowed(definition.get())))
        })
        .collect()
}

/// A definition held as JSON, read back (it was written from a `Tool`).
fn read_definition(json: &str) -> Result<Tool, ErrorData> {
    serde_json::from_str(json).map_err(|e| {
        tracing::error!(error = %e, "a tool definition does not read back");
        ErrorData::internal_error("the server could not read its tool definitions", None)
    })
}

impl<S: McpServer> Served<S> {
    /// Serve `server`.
    pub fn new(server: S) -> Self {
        Self {
            server,
            catalog: Arc::default(),
            level: SessionLevel::new(),
            in_flight: InFlight::default(),
        }
    }

    /// The tool calls running in every session of this server.
    pub fn in_flight(&self) -> InFlight {
        self.in_flight.clone()
    }

    /// The same server for another session: shared upstream clients and tools, its own
    /// log level.
    pub fn new_session(&self) -> Self {
        Self {
            server: self.server.clone(),
            catalog: Arc::clone(&self.catalog),
            level: SessionLevel::new(),
            in_flight: self.in_flight.clone(),
        }
    }
}

impl<S: McpServer> Served<S> {
    /// A tool call's answer: the tool's result, with its `provenance` when it succeeds;
    /// or, when the call asks for an export, the summary of the table made of every
    /// page (see `exporting.rs`).
    async fn answer(
        &self,
        mut request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        match export::requested(&mut request.arguments) {
            // A name that is no tool is answered as any call to it is.
            Ok(Some(format)) if self.catalog.calls(&self.server).has_route(&request.name) => {
                return self.export(request, context, format).await;
            }
            Ok(_) => {}
            Err(refused) => return Ok(refused.to_call_tool_result().into()),
        }
        let peer = context.peer.clone();
        let tool = request.name.clone();
        let call = ToolCallContext::new(&self.server, request, context);
        let (result, read) =
            provenance::scope(notify::scope(peer, self.level.clone(), S::NAME, async {
                let result = self.catalog.calls(&self.server).call(call).await;
                // Walking the result costs a pass over it: only for a client that listens.
                if self.level.allows(Level::Info)
                    && let Ok(CallToolResponse::Complete(result)) = &result
                {
                    tell_truncated(&tool, result.structured_content.as_ref());
                }
                result
            }))
            .await;
        match result {
            Ok(CallToolResponse::Complete(mut result)) if result.is_error != Some(true) => {
                let (provenance, full) = read.provenance();
                if let Some((id, full)) = full {
                    records::keep(&id, &full);
                }
                provenance::attach(&mut result, &provenance);
                Ok(CallToolResponse::Complete(result))
            }
            other => other,
        }
    }
}

impl<S: McpServer> ServerHandler for Served<S> {
    #[expect(
        deprecated,
        reason = "MCP logging is deprecated in the newest protocol revision; clients of the previous revision still use it"
    )]
    fn get_info(&self) -> ServerConfig {
        // Resources: the server's own, the full provenance records every server keeps
        // (`provenance://…`, named by the answers that summarise theirs) and the
        // exported tables (`export://…`, named by the answers to an export).
        let capabilities = ServerCapabilities::builder()
            .enable_tools()
            .enable_logging()
            .enable_resources()
            .build();
        ServerConfig::new(capabilities)
            .with_server_info(Implementation::new(S::NAME, S::VERSION).with_title(S::TITLE))
            .with_instructions(S::INSTRUCTIONS)
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let _running = self.in_flight.start();
        let shutting_down = || Ok(ApiError::ShuttingDown.to_call_tool_result().into());
        if self.in_flight.stopping() {
            return shutting_down();
        }
        let principal = caller(&context);
        tracing::debug!(
            tool = %request.name,
            principal = %principal.name,
            weight = principal.weight,
            token = %principal.token_hash_prefix,
            "tool call"
        );
        // A call that ends as the shutdown's grace period runs out keeps its own answer:
        // the answer comes first, and the handler returns once.
        principal::scope(principal, async {
            tokio::select! {
                biased;
                answer = self.answer(request, context) => answer,
                () = self.in_flight.cut() => shutting_down(),
            }
        })
        .await
    }

    #[expect(
        deprecated,
        reason = "MCP logging is deprecated in the newest protocol revision; clients of the previous revision still use it"
    )]
    async fn set_level(
        &self,
        request: SetLevelRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.level.set(Level::from_mcp(request.level));
        Ok(())
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        // What rmcp's `#[tool_handler]` answers: the whole list, cacheable by clients
        // that understand cache hints.
        let hints = context
            .protocol_version()
            .is_some_and(|version| version >= ProtocolVersion::V_2026_07_28);
        let mut result = ListToolsResult::with_all_items(self.catalog.list(&self.server)?);
        result.result_type = Some(ResultType::COMPLETE);
        result.ttl_ms = hints.then_some(0);
        result.cache_scope = hints.then_some(CacheScope::Public);
        Ok(result)
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        self.catalog.get(&self.server, name)
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        Ok(ListResourcesResult::with_all_items(
            S::RESOURCES
                .iter()
                .map(|r| {
                    Resource::new(r.uri, r.name)
                        .with_title(r.title)
                        .with_description(r.description)
                        .with_mime_type(r.mime_type)
                })
                .collect(),
        ))
    }

    async fn list_resource_templates(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, ErrorData> {
        Ok(ListResourceTemplatesResult::with_all_items(vec![
            ResourceTemplate::new(
                format!("{}{{id}}", provenance::RESOURCE_SCHEME),
                "provenance",
            )
            .with_title("Full provenance record")
            .with_description(
                "The full record of an answer whose provenance was summarised: every \
                 request in full. Its URI is the answer's `provenance.full`; kept for a day.",
            )
            .with_mime_type("application/json"),
            ResourceTemplate::new(format!("{}{{name}}", export::RESOURCE_SCHEME), "export")
                .with_title("Exported table")
                .with_description(
                    "The whole list of a list tool called with `export` (`tsv` or `csv`): \
                     `#` lines of provenance, a header naming the columns as the JSON names \
                     the fields, the rows. Its URI is the answer's `export.uri`; kept as \
                     long as the answers it was made from.",
                ),
        ]))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        let uri = request.uri.as_str();
        if uri.starts_with(export::RESOURCE_SCHEME) {
            return match export::resource(uri, &caller(&context).name).await {
                Some((format, text)) => Ok(ReadResourceResult::new(vec![
                    ResourceContents::text(text.to_string(), uri)
                        .with_mime_type(format.mime_type()),
                ])
                .into()),
                None => Err(ErrorData::resource_not_found(
                    format!(
                        "no exported table {uri}: tables are kept as long as the answers \
                         they were made from; call the tool with `export` again for a new one"
                    ),
                    Some(serde_json::json!({ "uri": uri })),
                )),
            };
        }
        if uri.starts_with(provenance::RESOURCE_SCHEME) {
            return match records::full_record(uri).await {
                Some(json) => Ok(ReadResourceResult::new(vec![
                    ResourceContents::text(json.to_string(), uri)
                        .with_mime_type("application/json"),
                ])
                .into()),
                None => Err(ErrorData::resource_not_found(
                    format!(
                        "no provenance record {uri}: records are kept for a day; call the \
                         tool again for a new one"
                    ),
                    Some(serde_json::json!({ "uri": uri })),
                )),
            };
        }
        match S::RESOURCES.iter().find(|r| r.uri == uri) {
            Some(resource) => Ok(ReadResourceResult::new(vec![
                ResourceContents::text((resource.text)(), uri).with_mime_type(resource.mime_type),
            ])
            .into()),
            None => {
                let known: Vec<&str> = S::RESOURCES.iter().map(|r| r.uri).collect();
                let listing = if known.is_empty() {
                    "this server has no resources".to_owned()
                } else {
                    format!("this server has {}", known.join(", "))
                };
                Err(ErrorData::resource_not_found(
                    format!("unknown resource {uri}; {listing}"),
                    Some(serde_json::json!({ "uri": uri })),
                ))
            }
        }
    }
}

/// Whom a request is for: the principal the HTTP transport's authentication put in the
/// request's extensions (rmcp hands each request its HTTP request's parts), or
/// [`Principal::anonymous`] (stdio, or HTTP without authentication).
fn caller(context: &RequestContext<RoleServer>) -> Principal {
    caller_parts(context)
        .and_then(|parts| parts.extensions.get::<Principal>())
        .cloned()
        .unwrap_or_else(Principal::anonymous)
}

/// The parts of the HTTP request a request came in (rmcp hands them on); `None` over
/// stdio.
fn caller_parts(context: &RequestContext<RoleServer>) -> Option<&axum::http::request::Parts> {
    context.extensions.get::<axum::http::request::Parts>()
}

/// Tell the client (at `info`) which lists of a result were cut, from the result itself:
/// every object with `truncated: true`, by its path. No tool can forget to say it.
fn tell_truncated(tool: &str, structured: Option<&serde_json::Value>) {
    let found: Vec<String> = structured
        .map(export::truncated_paths)
        .unwrap_or_default()
        .into_iter()
        .map(|at| {
            if at.is_empty() {
                "top level".to_owned()
            } else {
                at
            }
        })
        .collect();
    if !found.is_empty() {
        notify::notify(
            Level::Info,
            format_args!(
                "{tool}: the result is cut at its limit ({}); its counts say how much more there is",
                found.join(", ")
            ),
        );
    }
}

/// The tool policy every server gets:
///
/// 1. A call the client cancels (`notifications/cancelled`) stops at once, dropping its
///    upstream calls with it. rmcp 3.9 only cancels the request's token and discards the
///    answer: without this the tool would run on, spending the upstream's rate budget on
///    retries nobody waits for.
/// 2. A panic inside a tool becomes an error answer instead of a call never answered.
/// 3. Schemas and descriptions say what is on the wire and nothing more (see
///    [`schema::tighten`]): optional fields are omitted, never null, so `null` leaves
///    every schema except `pagination.cursor` and `pagination.total_count`; only
///    standard `format`s remain; enums of constants are plain `enum`s; descriptions are
///    paragraphs, not hard-wrapped lines.
pub fn prepare_tools<S: Send + Sync + 'static>(router: ToolRouter<S>) -> ToolRouter<S> {
    prepare(router, true)
}

fn prepare<S: Send + Sync + 'static>(mut router: ToolRouter<S>, lean: bool) -> ToolRouter<S> {
    for route in router.map.values_mut() {
        route.call = guard(route.call.clone());
        let tool = &mut route.attr;
        if let Some(description) = &tool.description {
            tool.description = Some(schema::paragraphs(description).into());
        }
        tool.input_schema = Arc::new(schema::tighten(&tool.input_schema));
        if let Some(output) = &tool.output_schema {
            let output = schema::tighten(&with_provenance(output, lean));
            tool.output_schema = Some(Arc::new(if lean { schema::lean(&output) } else { output }));
        }
    }
    router
}

/// `output` with the `provenance` every successful result carries (core adds it to the
/// result, see [`provenance`]), required. Served (`lean`), it is the skeleton of
/// [`Provenance`] (see [`schema::skeleton`]): the required fields, each defined by its
/// type only, since it is the same in every tool and takes a few hundred bytes written out
/// in full; a field made required there is served without a word here. `docs/tools.md`
/// and `docs/design.md` have the whole of it.
fn with_provenance(output: &rmcp::model::JsonObject, lean: bool) -> rmcp::model::JsonObject {
    let mut output = output.clone();
    let full = (*rmcp::handler::server::common::schema_for_output::<Provenance>()).clone();
    let mut schema = if lean {
        schema::skeleton(&schema::tighten(&full))
    } else {
        full
    };
    schema.remove("$schema");
    // Its definitions join the tool's, where `schema::tighten` writes them in place.
    if let Some(serde_json::Value::Object(defs)) = schema.remove("$defs")
        && let serde_json::Value::Object(tool_defs) = output
            .entry("$defs")
            .or_insert_with(|| serde_json::Value::Object(serde_json::Map::new()))
    {
        tool_defs.extend(defs);
    }
    schema.insert(
        "description".to_owned(),
        "Where this answer came from, to cite it or ask again: each source's database, data \
         release (when the source says), the exact requests, and when they were retrieved \
         (an answer from the cache keeps its first retrieval time)."
            .into(),
    );
    let schema = serde_json::Value::Object(schema);
    if let serde_json::Value::Object(properties) = output
        .entry("properties")
        .or_insert_with(|| serde_json::Value::Object(serde_json::Map::new()))
    {
        properties.insert("provenance".to_owned(), schema);
    }
    if let serde_json::Value::Array(required) = output
        .entry("required")
        .or_insert_with(|| serde_json::Value::Array(Vec::new()))
    {
        required.push(serde_json::Value::String("provenance".to_owned()));
    }
    output
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
