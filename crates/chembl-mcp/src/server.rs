//! The ChEMBL compounds MCP server: the tools of `tools/` routed together, its
//! `initialize` answer and its construction from the environment.

use std::sync::Arc;
use std::time::Duration;

use lifesciences_core::rmcp::handler::server::router::tool::ToolRouter;
use lifesciences_core::rmcp::model::{ServerConfig, Tool};
use lifesciences_core::rmcp::{ServerHandler, tool_handler};
use lifesciences_core::{ConfigError, McpServer, SourceConfig, prepare_tools, server_config};

use crate::client::{ChemblClient, UniChemClient, chembl_config, unichem_config};

/// The ChEMBL compounds MCP server. Cheap to clone: clones share the HTTP clients (and
/// so their rate limits, caches and connection pools).
#[derive(Clone)]
pub struct ChemblServer {
    pub(crate) chembl: Arc<ChemblClient>,
    pub(crate) unichem: Arc<UniChemClient>,
    tool_router: ToolRouter<Self>,
}

impl std::fmt::Debug for ChemblServer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ChemblServer")
            .field("chembl", &self.chembl)
            .field("unichem", &self.unichem)
            .finish_non_exhaustive()
    }
}

impl ChemblServer {
    /// A server over the given ChEMBL and UniChem configurations (tests point them at
    /// mocks). Does no I/O.
    pub fn new(chembl: SourceConfig, unichem: SourceConfig) -> Result<Self, ConfigError> {
        Ok(Self {
            chembl: Arc::new(ChemblClient::new(chembl)?),
            unichem: Arc::new(UniChemClient::new(unichem)?),
            // Cancellation, panics and exact output schemas: see core's `prepare_tools`.
            tool_router: prepare_tools(Self::router()),
        })
    }

    /// The same server, but after a UniChem outage UniChem is skipped for `cool_down`
    /// instead of [`UNICHEM_COOL_DOWN`](crate::UNICHEM_COOL_DOWN) (tests use a short one).
    #[must_use]
    pub fn with_unichem_cool_down(mut self, cool_down: Duration) -> Self {
        self.unichem = Arc::new(self.unichem.with_cool_down(cool_down));
        self
    }

    fn router() -> ToolRouter<Self> {
        Self::search_router() + Self::get_router() + Self::batch_router()
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for ChemblServer {
    fn get_info(&self) -> ServerConfig {
        server_config::<Self>(false)
    }
}

impl McpServer for ChemblServer {
    const NAME: &'static str = "chembl-mcp";
    const TITLE: &'static str = "ChEMBL compounds";
    const VERSION: &'static str = env!("CARGO_PKG_VERSION");
    const INSTRUCTIONS: &'static str = "1. chembl_search_compounds turns a name, trade name or synonym (\"imatinib\", \"Gleevec\") into ranked compounds with CURIEs such as CHEMBL:941 (slim: true for quick triage).\n\
        2. chembl_get_compound takes one CURIE and returns the record: formula, weight, SMILES, InChI and key, synonyms, max phase, and cross_references (uniprot targets, pubchem_compound, drugbank, pdb, kegg...) to follow into other databases.\n\
        3. chembl_get_compounds_batch looks up 1-100 CURIEs in one call, in request order, with an error object for each malformed or unknown ID.";

    fn from_env() -> Result<Self, ConfigError> {
        Self::new(chembl_config()?, unichem_config()?)
    }

    fn tools() -> Vec<Tool> {
        prepare_tools(Self::router()).list_all()
    }
}
