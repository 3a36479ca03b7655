//! The Ensembl MCP server: its upstreams, its tools, and what it tells an agent.

use std::sync::Arc;

use lifesciences_core::{ConfigError, Declared, Env, McpServer};

use crate::client::{EbiSearchClient, EnsemblClient};

/// The Ensembl genes and transcripts MCP server. Cheap to clone: clones share the
/// upstream clients (their rate limits, caches and coalescing).
#[derive(Debug, Clone)]
pub struct EnsemblServer {
    /// Ensembl REST: look-ups, cross-references, symbols, species.
    pub(crate) ensembl: Arc<EnsemblClient>,
    /// EBI Search: free-text gene search.
    pub(crate) ebi_search: Arc<EbiSearchClient>,
}

impl McpServer for EnsemblServer {
    const NAME: &'static str = "ensembl-mcp";
    const TITLE: &'static str = "Ensembl genes and transcripts";
    const VERSION: &'static str = env!("CARGO_PKG_VERSION");
    const INSTRUCTIONS: &'static str = "Ensembl genes, transcripts, variants and sequences of every vertebrate species, from a name to exact stable IDs.\n\
        1. ensembl_search_genes turns a symbol, synonym, words ('BRCA1', 'tumor protein') or another database's ID (UniProt, RefSeq, HGNC, NCBI Gene) into Ensembl gene IDs (ENSG…).\n\
        2. ensembl_get_gene gives coordinates, canonical transcript and cross-references, UniProt accessions among them for uniprot_get_protein (one ID, or up to 1000); ensembl_get_transcript details a transcript (ENST…); ensembl_get_homologs lists orthologues (e.g. mouse) and paralogues.\n\
        3. ensembl_get_variant describes a known rsID (place, frequency, significance); ensembl_predict_variant_effect (VEP) predicts what up to 200 variants (rsID, HGVS, chr:pos:ref:alt) do to each transcript.\n\
        4. ensembl_get_sequence gives genomic, cDNA, CDS or protein sequences; ensembl_query_region lists what lies in a window; ensembl_map_coordinates converts GRCh37 to GRCh38 and transcript or protein positions to the genome.";

    fn from_env(env: &Env) -> Result<Self, ConfigError> {
        Ok(Self {
            ensembl: Arc::new(env.client()?),
            ebi_search: Arc::new(env.client()?),
        })
    }

    fn tools() -> Vec<Declared<Self>> {
        Self::declared()
    }

    const DEFINITIONS: Option<&'static str> = Some(include_str!("tools.json"));
}
