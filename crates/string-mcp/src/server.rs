//! The STRING MCP server: the tools' routers added together, the `ServerHandler`, and the
//! `McpServer` description core's command line, docs and demo use.

use std::sync::Arc;

use lifesciences_core::rmcp::ServerHandler;
use lifesciences_core::rmcp::handler::server::router::tool::ToolRouter;
use lifesciences_core::rmcp::model::{ServerConfig, Tool};
use lifesciences_core::{ConfigError, McpServer, SourceConfig, prepare_tools, server_config};
use rmcp::tool_handler;

use crate::client::StringClient;

/// The STRING protein interactions MCP server. Cheap to clone: clones share the HTTP
/// client (its rate limiter, cache and coalescing) and the router.
#[derive(Clone)]
pub struct StringServer {
    /// STRING, shared by every session.
    pub(crate) string: Arc<StringClient>,
    tool_router: ToolRouter<Self>,
}

impl std::fmt::Debug for StringServer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("StringServer")
            .field("string", &self.string)
            .finish_non_exhaustive()
    }
}

impl StringServer {
    /// A server whose STRING upstream is `config` (see [`crate::string_config`] for the
    /// defaults). Does no I/O.
    pub fn new(config: SourceConfig) -> Result<Self, ConfigError> {
        Ok(Self {
            string: Arc::new(StringClient::new(config)?),
            // Cancellation, panics and exact output schemas: see core's `prepare_tools`.
            tool_router: prepare_tools(Self::router()),
        })
    }

    /// Every tool, in the order of the user's path: search, interactions, image.
    fn router() -> ToolRouter<Self> {
        Self::search_proteins_router()
            + Self::get_interactions_router()
            + Self::network_image_url_router()
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for StringServer {
    fn get_info(&self) -> ServerConfig {
        server_config::<Self>(false)
    }
}

impl McpServer for StringServer {
    const NAME: &'static str = "string-mcp";
    const TITLE: &'static str = "STRING protein interactions";
    const VERSION: &'static str = env!("CARGO_PKG_VERSION");
    const INSTRUCTIONS: &'static str = concat!(
        "1. string_search_proteins turns a protein or gene name (e.g. TP53; species 9606 by ",
        "default) into ranked STRING CURIEs such as STRING:9606.ENSP00000269305.\n",
        "2. string_get_interactions takes that CURIE and returns its partners with combined ",
        "and per-channel evidence scores (0-1), filtered by required_score (0-1000) and limit.\n",
        "3. string_get_network_image_url turns names or CURIEs into a link STRING renders as a ",
        "network image (png, svg, highres_png) to show the user."
    );

    fn from_env() -> Result<Self, ConfigError> {
        Self::new(crate::client::string_config(|var| std::env::var(var).ok())?)
    }

    fn tools() -> Vec<Tool> {
        lifesciences_core::prepare_tools(Self::router()).list_all()
    }
}
