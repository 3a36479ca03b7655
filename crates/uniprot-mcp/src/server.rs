//! The UniProt MCP server: its upstream, its tools, and what it tells an agent.

use std::sync::Arc;

use lifesciences_core::{ConfigError, Declared, Env, McpServer};

use crate::client::UniprotClient;

/// The UniProt MCP server. Cheap to clone: clones share the upstream client (its rate
/// limit, cache and coalescing).
#[derive(Debug, Clone)]
pub struct UniprotServer {
    pub(crate) uniprot: Arc<UniprotClient>,
}

impl McpServer for UniprotServer {
    const NAME: &'static str = "uniprot-mcp";
    const TITLE: &'static str = "UniProt proteins";
    const VERSION: &'static str = env!("CARGO_PKG_VERSION");
    const INSTRUCTIONS: &'static str = concat!(
        "1. uniprot_search_proteins finds entries: gene X in organism Y (exact symbol, ",
        "reviewed Swiss-Prot entries first) or words and UniProt query syntax; rows give ",
        "the accession.\n",
        "2. uniprot_get_protein takes accessions (P05067, UniProt:P05067, an isoform ",
        "P05067-4 or an entry name A4_HUMAN; up to 20) and says what each protein is in ",
        "under 4 KB: names, gene, function, location, diseases, feature counts, ",
        "cross-references; `include` adds variants, PTMs, domains, sites, isoforms, ",
        "structures, comments or the sequence.\n",
        "3. uniprot_get_features lists what lies at a residue or range (1-based) or all ",
        "features of some types, with disease variants named in full and evidence ",
        "(ECO codes, PubMed IDs), a page at a time.\n",
        "4. uniprot_map_ids maps identifiers between UniProt and Ensembl, RefSeq, gene ",
        "names, PDB, ChEMBL, STRING and more, through UniProt's ID-mapping service.\n",
        "Accessions other tools hand out (STRING, ChEMBL targets, Ensembl) go straight to ",
        "uniprot_get_protein; a merged accession answers with its successor and says so, ",
        "a demerged or deleted one says what became of it."
    );

    fn from_env(env: &Env) -> Result<Self, ConfigError> {
        Ok(Self {
            uniprot: Arc::new(env.client()?),
        })
    }

    fn tools() -> Vec<Declared<Self>> {
        Self::declared()
    }

    const DEFINITIONS: Option<&'static str> = Some(include_str!("tools.json"));
}
