//! The ChEMBL MCP server: its upstreams, its tools, and what it tells an agent.

use std::sync::Arc;

use lifesciences_core::rmcp::handler::server::router::tool::ToolRouter;
use lifesciences_core::{ConfigError, Env, McpServer};

use crate::client::{ChemblClient, UniChemClient};

/// The ChEMBL compounds MCP server. Cheap to clone: clones share the upstream clients
/// (their rate limits, caches and coalescing).
#[derive(Debug, Clone)]
pub struct ChemblServer {
    /// ChEMBL's web services: compounds, mechanisms, targets.
    pub(crate) chembl: Arc<ChemblClient>,
    /// UniChem: the compound's identifiers in other databases.
    pub(crate) unichem: Arc<UniChemClient>,
}

impl McpServer for ChemblServer {
    const NAME: &'static str = "chembl-mcp";
    const TITLE: &'static str = "ChEMBL compounds";
    const VERSION: &'static str = env!("CARGO_PKG_VERSION");
    const INSTRUCTIONS: &'static str = "1. chembl_search_compounds turns a name, trade name or synonym (\"imatinib\", \"Gleevec\") into ranked compounds with CURIEs such as CHEMBL:941 (slim: true for quick triage).\n\
        2. chembl_get_compound takes one CURIE and returns the record: formula, weight, SMILES, InChI and key, synonyms, max phase, and cross_references (uniprot targets, pubchem_compound, drugbank, pdb, kegg...) to follow into other databases.\n\
        3. chembl_get_compounds_batch looks up 1-100 CURIEs in one call, in request order, with an error object for each malformed or unknown ID.";

    fn from_env(env: &Env) -> Result<Self, ConfigError> {
        Ok(Self {
            chembl: Arc::new(env.client()?),
            unichem: Arc::new(env.client()?),
        })
    }

    fn router() -> ToolRouter<Self> {
        Self::search_compounds_router()
            + Self::get_compound_router()
            + Self::get_compounds_batch_router()
            + Self::get_drug_profile_router()
            + Self::get_bioactivities_router()
            + Self::search_targets_router()
            + Self::get_target_router()
    }
}
