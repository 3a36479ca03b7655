//! The ChEMBL compounds MCP server.

use lifesciences_core::rmcp::ServerHandler;
use lifesciences_core::rmcp::model::{ServerConfig, Tool};
use lifesciences_core::{ConfigError, HttpClient, McpServer, server_config};

/// The ChEMBL compounds MCP server.
#[derive(Clone, Debug)]
pub struct ChemblServer {
    /// One HTTP client per upstream, shared by every session.
    _sources: Vec<HttpClient>,
}

impl ServerHandler for ChemblServer {
    fn get_info(&self) -> ServerConfig {
        server_config::<Self>(false)
    }
}

impl McpServer for ChemblServer {
    const NAME: &'static str = "chembl-mcp";
    const TITLE: &'static str = "ChEMBL compounds";
    const VERSION: &'static str = env!("CARGO_PKG_VERSION");
    const INSTRUCTIONS: &'static str =
        "ChEMBL compounds. Partial: this server has no tools yet; they arrive with issue #5.";

    fn from_env() -> Result<Self, ConfigError> {
        let sources = crate::client::source_configs()?
            .into_iter()
            .map(HttpClient::new)
            .collect::<Result<_, _>>()?;
        Ok(Self { _sources: sources })
    }

    fn tools() -> Vec<Tool> {
        Vec::new()
    }
}
