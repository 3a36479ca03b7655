//! The gateway: the servers of `servers.rs`, built from one environment, their tools
//! projected onto it, the chosen toolsets kept, and instructions that say which database
//! answers what and how identifiers cross.

use std::collections::BTreeSet;

use igvf_mcp::IgvfServer;
use lifesciences_core::{ConfigError, Declared, Env, McpServer, StaticResource};

use crate::servers::{Servers, Toolset};
use crate::toolsets;

/// Every tool of STRING, Ensembl, ChEMBL, the IGVF Catalog and UniProt in one server,
/// plus `lifesciences_map_ids`. Cheap to clone: clones share the upstream clients.
#[derive(Debug, Clone)]
pub struct Gateway {
    pub(crate) servers: Servers,
    /// The toolsets served.
    toolsets: BTreeSet<Toolset>,
}

impl Gateway {
    /// The toolsets this gateway serves.
    pub fn toolsets(&self) -> impl Iterator<Item = Toolset> + '_ {
        self.toolsets.iter().copied()
    }
}

impl McpServer for Gateway {
    const NAME: &'static str = "lifesciences-mcp";
    const TITLE: &'static str = "STRING, Ensembl, ChEMBL, IGVF Catalog and UniProt";
    const VERSION: &'static str = env!("CARGO_PKG_VERSION");
    const INSTRUCTIONS: &'static str = "Five databases, one server; tools are prefixed by their database.\n\
        1. Genes and transcripts (coordinates, cross-references, variants, sequences, orthologues): ensembl_*. Protein interactions and gene-set enrichment: string_*. Compounds, drug targets and bioactivities: chembl_*. Variants, regulatory elements, QTLs and disease links: igvf_*. Proteins (function, location, domains, modified residues, disease variants, structures; UniProt's own ID mapping): uniprot_*; every UniProt accession opens with uniprot_get_protein.\n\
        2. To carry an identifier to another database, call lifesciences_map_ids: a symbol, Ensembl, UniProt, HGNC, NCBI Gene, RefSeq, STRING, ChEMBL, InChIKey, rsID or SPDI becomes its equivalents, each with the tool that takes it next.\n\
        3. A typical path: chembl_get_target (a drug's target and its UniProt accession) → uniprot_get_protein, uniprot_get_features (binding sites, disease variants, structures) → lifesciences_map_ids (its Ensembl gene and STRING protein) → ensembl_get_gene → string_get_interactions (each partner's cross_references carry its STRING and Ensembl protein IDs) → igvf_query_associations.";
    const RESOURCES: &'static [StaticResource] = IgvfServer::RESOURCES;
    const TOOLSETS: &'static [&'static str] = Toolset::NAMES;

    fn from_env(env: &Env) -> Result<Self, ConfigError> {
        let toolsets = toolsets::parse(env.var(lifesciences_core::cli::TOOLSETS_VAR).as_deref())?;
        Ok(Self {
            servers: Servers::from_env(env)?,
            toolsets,
        })
    }

    /// Every server's tools, toolset by toolset, then the gateway's own.
    fn tools() -> Vec<Declared<Self>> {
        let mut tools: Vec<Declared<Self>> = Toolset::ALL
            .iter()
            .copied()
            .flat_map(toolset_tools)
            .collect();
        tools.extend(lifesciences_core::declared![lifesciences_map_ids]);
        tools
    }

    const DEFINITIONS: Option<&'static str> = Some(include_str!("tools.json"));

    fn keeps_tool(&self, name: &str) -> bool {
        // A tool of no toolset is the gateway's own, always served.
        Toolset::ALL
            .iter()
            .copied()
            .find(|t| Servers::tools(*t).iter().any(|tool| tool.name() == name))
            .is_none_or(|t| self.toolsets.contains(&t))
    }
}

/// A toolset's tools, as the gateway serves them.
fn toolset_tools(toolset: Toolset) -> Vec<Declared<Gateway>> {
    Servers::tools(toolset)
        .into_iter()
        .map(|tool| tool.project(|g: &Gateway| &g.servers))
        .collect()
}
