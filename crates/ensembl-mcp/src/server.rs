//! The Ensembl genes and transcripts MCP server: its upstream clients, the router that
//! adds up the tools of `tools/`, and what it tells an agent at `initialize`.

use std::sync::Arc;

use lifesciences_core::rmcp::handler::server::router::tool::ToolRouter;
use lifesciences_core::rmcp::model::{ServerConfig, Tool};
use lifesciences_core::rmcp::{ServerHandler, tool_handler};
use lifesciences_core::{ConfigError, McpServer, SourceConfig, server_config};

use crate::client::{EbiSearchClient, EnsemblClient, source_configs};

/// The Ensembl genes and transcripts MCP server.
#[derive(Clone)]
pub struct EnsemblServer {
    /// Ensembl REST: look-ups, cross-references, symbols, species.
    pub(crate) ensembl: Arc<EnsemblClient>,
    /// EBI Search: free-text gene search.
    pub(crate) ebi_search: Arc<EbiSearchClient>,
    tool_router: ToolRouter<Self>,
}

impl std::fmt::Debug for EnsemblServer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("EnsemblServer")
            .field("ensembl", &self.ensembl)
            .field("ebi_search", &self.ebi_search)
            .finish_non_exhaustive()
    }
}

impl EnsemblServer {
    /// A server over the given upstreams (tests point both at a mock). Does no I/O.
    pub fn new(ensembl: SourceConfig, ebi_search: SourceConfig) -> Result<Self, ConfigError> {
        Ok(Self {
            ensembl: Arc::new(EnsemblClient::new(ensembl)?),
            ebi_search: Arc::new(EbiSearchClient::new(ebi_search)?),
            // Cancellation, panics and exact output schemas: see core's `prepare_tools`.
            tool_router: lifesciences_core::prepare_tools(Self::router()),
        })
    }

    /// Every tool, one router per `tools/<tool>.rs`.
    fn router() -> ToolRouter<Self> {
        Self::search_genes_router() + Self::get_gene_router() + Self::get_transcript_router()
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for EnsemblServer {
    fn get_info(&self) -> ServerConfig {
        server_config::<Self>(false)
    }
}

impl McpServer for EnsemblServer {
    const NAME: &'static str = "ensembl-mcp";
    const TITLE: &'static str = "Ensembl genes and transcripts";
    const VERSION: &'static str = env!("CARGO_PKG_VERSION");
    const INSTRUCTIONS: &'static str = "Ensembl genes and transcripts of every vertebrate species, from a name to exact stable IDs.\n\
        1. ensembl_search_genes turns a symbol, synonym or words ('BRCA1', 'tumor protein'; optionally a species) into ranked Ensembl gene IDs (ENSG…).\n\
        2. ensembl_get_gene gives a gene's coordinates, biotype, canonical transcript and cross-references (HGNC, NCBI Gene, UniProt, RefSeq); ensembl_get_transcript details a transcript (ENST…).";

    fn from_env() -> Result<Self, ConfigError> {
        let sources = source_configs()?;
        Self::new(sources.ensembl, sources.ebi_search)
    }

    fn tools() -> Vec<Tool> {
        lifesciences_core::prepare_tools(Self::router()).list_all()
    }
}
