//! A server's tools as it declares them: one [`Declared`] per tool, listed once with
//! [`tools!`](crate::tools!). From that one list follow what MCP serves (the definitions,
//! [`router`]), what `tools/call` dispatches ([`calls`]), the pictures, the lists that
//! can be exported and how they page ([`Declared::paged`], [`Declared::capped`]), a
//! gateway's projection of another server's tools ([`Declared::project`]), and calls of
//! one tool from inside another, by name ([`call_tool`]).

use std::sync::{Arc, OnceLock};

use rmcp::RoleServer;
use rmcp::handler::server::router::tool::{ToolRoute, ToolRouter};
use rmcp::handler::server::tool::{CallToolHandler, DynCallToolHandler, ToolCallContext};
use rmcp::model::{CallToolRequestParams, CallToolResponse, JsonObject, Tool};
use rmcp::service::RequestContext;
use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::envelope::{ErrorBody, ErrorCode, ErrorEnvelope};
use crate::error::ApiError;
use crate::export::{self, Listing};
use crate::server::McpServer;

/// One tool of a server `S`: its name, how to build its definition, and its handler.
///
/// Written by [`tools!`](crate::tools!) from the `#[tool]` fn (rmcp's macro, which also
/// generates the definition's builder); a server never builds one by hand.
pub struct Declared<S> {
    name: &'static str,
    picture: bool,
    listing: Option<Listing>,
    definition: fn() -> Tool,
    call: Arc<DynCallToolHandler<S>>,
}

impl<S> Clone for Declared<S> {
    fn clone(&self) -> Self {
        Self {
            name: self.name,
            picture: self.picture,
            listing: self.listing,
            definition: self.definition,
            call: Arc::clone(&self.call),
        }
    }
}

impl<S> std::fmt::Debug for Declared<S> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Declared")
            .field("name", &self.name)
            .field("picture", &self.picture)
            .field("listing", &self.listing)
            .finish_non_exhaustive()
    }
}

impl<S: Send + Sync + 'static> Declared<S> {
    /// The tool `name`, whose definition `definition` builds (rmcp's `<fn>_tool_attr`)
    /// and whose calls `handler` answers (the `#[tool]` fn).
    pub fn new<C, A>(name: &'static str, definition: fn() -> Tool, handler: C) -> Self
    where
        C: CallToolHandler<S, A> + Send + Sync + Clone + 'static,
    {
        Self {
            name,
            picture: false,
            listing: None,
            definition,
            call: ToolRoute::new(unlisted(name), handler).call,
        }
    }

    /// The same tool, answered with a picture: content blocks only (the image and a
    /// short text), no output schema and no structured content, because clients that
    /// get both (Claude Code, VS Code) pass the model only the structured content.
    pub fn picture(mut self) -> Self {
        self.picture = true;
        self
    }

    /// The same tool, whose answer is a list that pages: its rows are the array `rows`
    /// of the answer, `size` the argument that sets how many a page holds, `cursor` the
    /// argument that asks for the page `pagination.cursor` names. It takes the argument
    /// `export` (see [`crate::export`]): every page, as one table.
    pub fn paged(mut self, rows: &'static str, size: &'static str) -> Self {
        self.listing = Some(Listing {
            rows,
            size,
            paged: true,
        });
        self
    }

    /// The same tool, whose answer is a list cut at a limit, without pages: its rows are
    /// the array `rows` of the answer, `size` the argument that sets how many it holds,
    /// and the answer says `truncated: true` where it cut. It takes the argument
    /// `export` (see [`crate::export`]): the answer at its largest `size`, as a table.
    pub fn capped(mut self, rows: &'static str, size: &'static str) -> Self {
        self.listing = Some(Listing {
            rows,
            size,
            paged: false,
        });
        self
    }

    /// How its answer holds its rows, when it is a list (see [`paged`](Self::paged) and
    /// [`capped`](Self::capped)).
    pub fn listing(&self) -> Option<Listing> {
        self.listing
    }

    /// The tool's name.
    pub fn name(&self) -> &'static str {
        self.name
    }

    /// Whether its answer is a picture (see [`picture`](Self::picture)).
    pub fn is_picture(&self) -> bool {
        self.picture
    }

    /// Its definition as rmcp generates it (this generates its schemas), with the
    /// argument `export` when it is a list.
    pub fn definition(&self) -> Tool {
        let mut tool = (self.definition)();
        if self.listing.is_some() {
            export::offer(&mut tool);
        }
        tool
    }

    /// The same tool as a tool of `T`, each call handed to the `S` that `pick` finds in
    /// the `T` serving it: how a gateway serves other servers' tools unchanged.
    pub fn project<T: Send + Sync + 'static>(self, pick: fn(&T) -> &S) -> Declared<T> {
        let inner = self.call;
        Declared {
            name: self.name,
            picture: self.picture,
            listing: self.listing,
            definition: self.definition,
            call: Arc::new(move |context: ToolCallContext<'_, T>| {
                let mut params = CallToolRequestParams::new(context.name.clone());
                params.arguments = context.arguments;
                params.input_responses = context.input_responses;
                params.request_state = context.request_state;
                let inner_context =
                    ToolCallContext::new(pick(context.service), params, context.request_context);
                inner(inner_context)
            }),
        }
    }

    fn route(&self, attr: Tool) -> ToolRoute<S> {
        let call = Arc::clone(&self.call);
        ToolRoute::new_dyn(attr, move |context: ToolCallContext<'_, S>| call(context))
    }
}

/// A server's tools, one per `#[tool]` fn of `Self`, each named once: the body of
/// [`McpServer::tools`]. A tool whose answer is a picture is marked `as picture`; one
/// whose answer is a list, `as paged(rows, size)` or `as capped(rows, size)` (see
/// [`Declared::paged`] and [`Declared::capped`]).
///
/// ```ignore
/// impl McpServer for StringServer {
///     lifesciences_core::tools![
///         string_search_proteins as paged(items, limit),
///         string_get_network_image as picture,
///     ];
/// }
/// ```
#[macro_export]
macro_rules! tools {
    ($($tools:tt)+) => {
        fn tools() -> ::std::vec::Vec<$crate::server::Declared<Self>> {
            $crate::declared![$($tools)+]
        }
    };
}

/// A crate's `src/tools/` folder, one tool per file, each file named once: in
/// `src/tools/mod.rs`, the modules, and `Server::declared()`, every tool in the order
/// given. The tool of `tools/<file>.rs` is the `#[tool]` fn `<prefix>_<file>` of
/// `Server`; a tool whose answer is a picture is marked `as picture`, one whose answer
/// is a list `as paged(rows, size)` (pages by cursor) or `as capped(rows, size)` (cut at
/// its limit), naming the array of its rows and the argument that sets how many (see
/// [`Declared::paged`]). The server's `tools()` is then `Self::declared()`: adding a tool
/// is its file and its line here.
///
/// ```ignore
/// lifesciences_core::tool_files! {
///     StringServer, string:
///     search_proteins as paged(items, limit),
///     get_network_image as picture,
/// }
/// ```
#[macro_export]
macro_rules! tool_files {
    ($server:ty, $prefix:ident: $($file:ident $(as $kind:ident $(($($arg:ident),+))?)?),+ $(,)?) => {
        $(pub(crate) mod $file;)+

        impl $server {
            /// Every tool of this crate, one per file of `src/tools/`, in the order
            /// `tools/mod.rs` lists them.
            pub(crate) fn declared() -> ::std::vec::Vec<$crate::server::Declared<Self>> {
                ::std::vec![$(
                    $crate::__pastey::paste!($crate::server::Declared::new(
                        ::std::concat!(::std::stringify!($prefix), "_", ::std::stringify!($file)),
                        Self::[<$prefix _ $file _tool_attr>],
                        Self::[<$prefix _ $file>],
                    ))$(.$kind($($(::std::stringify!($arg)),+)?))?
                ),+]
            }
        }
    };
}

/// The [`Declared`] tools of `Self` named, as a list: what [`tools!`](crate::tools!)
/// declares, for a server that adds others' tools to its own (a gateway).
#[macro_export]
macro_rules! declared {
    ($($tool:ident $(as $kind:ident $(($($arg:ident),+))?)?),+ $(,)?) => {
        ::std::vec![$(
            $crate::server::Declared::new(
                ::std::stringify!($tool),
                $crate::__pastey::paste!(Self::[<$tool _tool_attr>]),
                Self::$tool,
            )$(.$kind($($(::std::stringify!($arg)),+)?))?
        ),+]
    };
}

/// The definition a dispatching route carries: its name only (a call never reads the
/// rest, and building the rest would generate its schemas).
pub fn unlisted(name: &'static str) -> Tool {
    static EMPTY: OnceLock<Arc<JsonObject>> = OnceLock::new();
    let mut tool = Tool::new(name, "", Arc::clone(EMPTY.get_or_init(Arc::default)));
    tool.description = None;
    tool
}

/// Every tool of `S` with its definition (generating its schemas), as rmcp routes them:
/// what the definitions are made from (before the build, see
/// [`McpServer::DEFINITIONS`]) and what the docs describe.
pub fn router<S: McpServer>() -> ToolRouter<S> {
    let mut router = ToolRouter::new();
    for tool in S::tools() {
        router.add_route(tool.route(tool.definition()));
    }
    router
}

/// Every tool of `S` with its handler and its name only: what `tools/call` dispatches.
/// Generates no schema.
pub fn calls<S: McpServer>() -> ToolRouter<S> {
    let mut calls = ToolRouter::new();
    for tool in S::tools() {
        calls.add_route(tool.route(unlisted(tool.name)));
    }
    calls
}

/// The tools of `S` whose answer is a list, and how each holds its rows.
pub fn listings<S: McpServer>() -> Vec<(&'static str, Listing)> {
    S::tools()
        .iter()
        .filter_map(|t| Some((t.name, t.listing?)))
        .collect()
}

/// The names of the tools of `S` whose answer is a picture.
pub fn pictures<S: McpServer>() -> Vec<&'static str> {
    S::tools()
        .iter()
        .filter(|t| t.picture)
        .map(|t| t.name)
        .collect()
}

/// Call the tool `name` of `server` from inside another tool call, as an agent would
/// call it, and read its structured answer as `O`: how one tool builds on others (the
/// gateway's `lifesciences_map_ids`). `context` is the calling tool's, so a cancelled
/// call cancels this one, and the upstream requests it makes count in the caller's
/// provenance.
///
/// The tool's own error comes back as it answered it ([`ApiError::Relayed`]): its code,
/// message and hint unchanged. A name `S` does not declare, arguments that are not an
/// object, or an answer that does not read as `O` are faults of the caller, reported
/// as `UPSTREAM_ERROR` naming the tool.
pub async fn call_tool<S, O>(
    server: &S,
    context: &RequestContext<RoleServer>,
    name: &str,
    arguments: &impl Serialize,
) -> Result<O, ApiError>
where
    S: McpServer,
    O: DeserializeOwned,
{
    let fault = |what: String| {
        tracing::error!(tool = name, "{what}");
        ApiError::Relayed(Box::new(ErrorBody {
            code: ErrorCode::UpstreamError,
            message: format!("The server could not use {name}: {what}."),
            recovery_hint: format!("Call {name} directly."),
            invalid_input: None,
            retry_after_secs: None,
            suggestions: Vec::new(),
        }))
    };
    let Some(tool) = S::tools().into_iter().find(|t| t.name == name) else {
        return Err(fault("no tool has this name".to_owned()));
    };
    let arguments = match serde_json::to_value(arguments) {
        Ok(serde_json::Value::Object(map)) => map,
        _ => return Err(fault("its arguments are not an object".to_owned())),
    };
    let mut params = CallToolRequestParams::new(tool.name);
    params.arguments = Some(arguments);
    let answered = (tool.call)(ToolCallContext::new(server, params, context.clone())).await;
    let result = match answered {
        Ok(CallToolResponse::Complete(result)) => result,
        Ok(_) => return Err(fault("it asked for more input".to_owned())),
        Err(e) => return Err(fault(e.message.to_string())),
    };
    if result.is_error == Some(true) {
        let text = result
            .content
            .iter()
            .find_map(|c| c.as_text().map(|t| t.text.clone()))
            .unwrap_or_default();
        return Err(match serde_json::from_str::<ErrorEnvelope>(&text) {
            Ok(envelope) => ApiError::Relayed(Box::new(envelope.error)),
            Err(_) => fault("its error is not an envelope".to_owned()),
        });
    }
    let structured = result.structured_content.unwrap_or_default();
    serde_json::from_value(structured).map_err(|e| fault(format!("its answer does not read: {e}")))
}
