//! The STRING MCP server: its upstream, its tools, and what it tells an agent.

use std::sync::Arc;

use lifesciences_core::{ConfigError, Declared, Env, McpServer};

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
        "2. string_get_interactions takes that CURIE (or string_ids, a set) and returns its ",
        "partners with combined and per-channel evidence scores (0-1).\n",
        "3. string_get_network takes a gene list (names, UniProt or CURIEs, up to 2000, ",
        "resolved in one request) and returns the edges among them and whether they are a ",
        "module (ppi_enrichment p-value).\n",
        "4. string_get_enrichment gives the list's enriched GO, KEGG, Reactome... terms, the ",
        "best of each category first, with counts and a cursor; ",
        "string_get_functional_annotation lists each protein's terms without statistics.\n",
        "5. string_get_homologs finds counterparts in other species (target_species, e.g. ",
        "10090 mouse) or within the species.\n",
        "6. string_get_network_image returns the network picture (or an enrichment figure) ",
        "with its URL; string_get_network_image_url only builds the link.\n",
        "STRING allows one request per second: pass sets to the set tools rather than ",
        "calling once per gene."
    );

    fn from_env(env: &Env) -> Result<Self, ConfigError> {
        Ok(Self {
            string: Arc::new(env.client()?),
        })
    }

    fn tools() -> Vec<Declared<Self>> {
        Self::declared()
    }

    const DEFINITIONS: Option<&'static str> = Some(include_str!("tools.json"));
}
