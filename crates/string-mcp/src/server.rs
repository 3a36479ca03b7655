//! The STRING MCP server: its upstream, its tools, and what it tells an agent.

use std::sync::Arc;

use lifesciences_core::rmcp::handler::server::router::tool::ToolRouter;
use lifesciences_core::{ConfigError, Env, McpServer};

use crate::client::StringClient;

/// The STRING protein interactions MCP server. Cheap to clone: clones share the
/// upstream clients (their rate limits, caches and coalescing).
#[derive(Debug, Clone)]
pub struct StringServer {
    pub(crate) string: Arc<StringClient>,
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

    fn from_env(env: &Env) -> Result<Self, ConfigError> {
        Ok(Self {
            string: Arc::new(env.client()?),
        })
    }

    fn router() -> ToolRouter<Self> {
        Self::search_proteins_router()
            + Self::get_interactions_router()
            + Self::get_network_router()
            + Self::get_enrichment_router()
            + Self::get_network_image_url_router()
    }
}
