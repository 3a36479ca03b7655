//! The ChEMBL MCP server: its upstreams, its tools, and what it tells an agent.

use std::sync::Arc;

use lifesciences_core::{ConfigError, Declared, Env, McpServer};

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
    const INSTRUCTIONS: &'static str = "1. chembl_search_compounds turns a name, trade name or synonym (\"imatinib\", \"Gleevec\"), a structure (similar to or containing a SMILES) or an InChIKey into compounds with CURIEs such as CHEMBL:941.\n\
        2. chembl_get_compound returns a compound's record (formula, properties, structures, synonyms, ATC, cross_references to UniProt, PubChem, DrugBank...); chembl_get_compounds_batch looks up 1-100 CURIEs; chembl_get_drug_profile gives its mechanisms, indications and warnings.\n\
        3. chembl_search_targets turns a gene symbol, UniProt accession or name into targets (CHEMBL:203); chembl_get_target lists a target's components (their UniProt accessions go to uniprot_get_protein) and the drugs acting on it; chembl_get_bioactivities ranks the measured activities of a compound and/or on a target by pChEMBL.";

    fn from_env(env: &Env) -> Result<Self, ConfigError> {
        Ok(Self {
            chembl: Arc::new(env.client()?),
            unichem: Arc::new(env.client()?),
        })
    }

    fn tools() -> Vec<Declared<Self>> {
        Self::declared()
    }

    const DEFINITIONS: Option<&'static str> = Some(include_str!("tools.json"));
}

impl ChemblServer {
    /// The ChEMBL compounds UniChem links to PubChem compound `cid` (as `CHEMBL:<n>`
    /// CURIEs, what `chembl_get_compound` takes); `None` when UniChem could not be asked
    /// (it failed, or is paused after an outage). For a gateway mapping identifiers.
    pub async fn chembl_ids_of_pubchem(&self, cid: &str) -> Option<Vec<String>> {
        match self
            .unichem
            .sources_of_in(cid, crate::client::UNICHEM_SOURCE_PUBCHEM)
            .await
        {
            crate::client::UniChemLinks::Found(sources) => Some(
                sources
                    .into_iter()
                    .filter(|s| s.id == Some(crate::client::UNICHEM_SOURCE_CHEMBL))
                    .filter_map(|s| s.compound_id)
                    .filter_map(|id| id.strip_prefix("CHEMBL").map(|n| format!("CHEMBL:{n}")))
                    .collect(),
            ),
            crate::client::UniChemLinks::Unavailable => None,
        }
    }
}
