//! The IGVF Catalog MCP server: its upstream, its tools and resources, and what it tells
//! an agent.

use std::sync::Arc;

use lifesciences_core::{ConfigError, Declared, Env, McpServer, StaticResource};

use crate::client::IgvfClient;

/// The IGVF Catalog knowledge graph MCP server. Cheap to clone: clones share the
/// upstream client (its rate limit, cache and coalescing).
#[derive(Debug, Clone)]
pub struct IgvfServer {
    /// The IGVF Catalog API.
    pub(crate) catalog: Arc<IgvfClient>,
}

impl McpServer for IgvfServer {
    const NAME: &'static str = "igvf-mcp";
    const TITLE: &'static str = "IGVF Catalog knowledge graph";
    const VERSION: &'static str = env!("CARGO_PKG_VERSION");
    const INSTRUCTIONS: &'static str = "1. Start from anything: igvf_get_entity or igvf_resolve_id detect any ID or gene symbol (rsID, SPDI, HGVS, CA…, ENSG, HGNC, MONDO…); igvf_search_region takes a locus like chr17:41.2M-41.3M (GRCh38/GRCm39, 1-based inclusive like Ensembl and UCSC; every position returned is too, SPDI IDs excepted).\n\
        2. Use the returned ids with igvf_find_associations (regulatory, genetic, physical, functional, pharmacological, transcripts, all) and igvf_find_ld; igvf_query_associations ranks one kind (top eQTLs in a tissue, co-expressed genes by z-score), with or without an entity. A protein's UniProt accessions go to uniprot_get_protein.\n\
        3. igvf_list_sources gives valid filter values; resources igvf://guide/identifiers and igvf://examples/queries show every form.";
    const RESOURCES: &'static [StaticResource] = crate::resources::RESOURCES;

    fn from_env(env: &Env) -> Result<Self, ConfigError> {
        Ok(Self {
            catalog: Arc::new(env.client()?),
        })
    }

    fn tools() -> Vec<Declared<Self>> {
        Self::declared()
    }

    const DEFINITIONS: Option<&'static str> = Some(include_str!("tools.json"));
}
