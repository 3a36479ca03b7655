//! The tools `lifesciences_map_ids` calls, each by its name through the gateway's own
//! dispatch (as an agent would call it), with the arguments it sends and the part of
//! the answer it reads. A field read here is a field of that tool's output schema, which
//! the tool's own tests hold it to.

use lifesciences_core::args::one_or_many;
use serde::{Deserialize, Serialize};

/// A tool called by name, with its arguments' and its answer's types.
pub(super) trait Hop: Serialize {
    /// The tool.
    const TOOL: &'static str;
    /// What is read of its answer.
    type Answer: for<'de> Deserialize<'de>;
}

macro_rules! hop {
    ($args:ty => $tool:literal, $answer:ty) => {
        impl Hop for $args {
            const TOOL: &'static str = $tool;
            type Answer = $answer;
        }
    };
}

/// The first items of a list answer.
#[derive(Debug, Deserialize)]
pub(super) struct Items<T> {
    #[serde(default = "Vec::new")]
    pub(super) items: Vec<T>,
}

#[derive(Debug, Serialize)]
pub(super) struct GetGene<'a> {
    pub(super) ensembl_id: &'a str,
}
hop!(GetGene<'_> => "ensembl_get_gene", Gene);

#[derive(Debug, Deserialize)]
pub(super) struct Gene {
    pub(super) symbol: Option<String>,
    /// Ensembl's species name, e.g. `homo_sapiens`.
    pub(super) species: Option<String>,
    #[serde(default)]
    pub(super) cross_references: GeneXrefs,
}

#[derive(Debug, Default, Deserialize)]
pub(super) struct GeneXrefs {
    pub(super) hgnc: Option<String>,
    #[serde(default, deserialize_with = "one_or_many")]
    pub(super) uniprot: Vec<String>,
    pub(super) entrez: Option<String>,
    #[serde(default, deserialize_with = "one_or_many")]
    pub(super) refseq: Vec<String>,
}

#[derive(Debug, Serialize)]
pub(super) struct SearchGenes<'a> {
    pub(super) query: &'a str,
    pub(super) species: &'a str,
    pub(super) page_size: u32,
}
hop!(SearchGenes<'_> => "ensembl_search_genes", Items<GeneHit>);

#[derive(Debug, Deserialize)]
pub(super) struct GeneHit {
    pub(super) id: String,
    pub(super) score: f64,
}

#[derive(Debug, Serialize)]
pub(super) struct GetTranscript<'a> {
    pub(super) transcript_id: &'a str,
}
hop!(GetTranscript<'_> => "ensembl_get_transcript", Transcript);

#[derive(Debug, Deserialize)]
pub(super) struct Transcript {
    pub(super) id: Option<String>,
    pub(super) parent_gene: Option<String>,
}

#[derive(Debug, Serialize)]
pub(super) struct SearchProteins<'a> {
    pub(super) query: &'a str,
    /// A taxon ID or a species name.
    pub(super) species: &'a str,
    pub(super) limit: u32,
}
hop!(SearchProteins<'_> => "string_search_proteins", Items<Protein>);

#[derive(Debug, Deserialize)]
pub(super) struct Protein {
    pub(super) id: String,
    pub(super) preferred_name: Option<String>,
}

#[derive(Debug, Serialize)]
pub(super) struct SearchTargets<'a> {
    pub(super) query: &'a str,
    pub(super) limit: u32,
}
hop!(SearchTargets<'_> => "chembl_search_targets", Items<TargetHit>);

#[derive(Debug, Deserialize)]
pub(super) struct TargetHit {
    pub(super) id: String,
    /// ChEMBL's target type, e.g. `SINGLE PROTEIN`.
    #[serde(rename = "type")]
    pub(super) kind: Option<String>,
}

#[derive(Debug, Serialize)]
pub(super) struct GetTarget<'a> {
    pub(super) target_id: &'a str,
}
hop!(GetTarget<'_> => "chembl_get_target", Target);

#[derive(Debug, Deserialize)]
pub(super) struct Target {
    #[serde(default, deserialize_with = "one_or_many")]
    pub(super) uniprot: Vec<String>,
    #[serde(default, deserialize_with = "one_or_many")]
    pub(super) gene_symbols: Vec<String>,
}

#[derive(Debug, Serialize)]
pub(super) struct GetCompound<'a> {
    pub(super) chembl_id: &'a str,
}
hop!(GetCompound<'_> => "chembl_get_compound", Compound);

#[derive(Debug, Deserialize)]
pub(super) struct Compound {
    pub(super) inchi_key: Option<String>,
    #[serde(default)]
    pub(super) cross_references: CompoundXrefs,
}

#[derive(Debug, Default, Deserialize)]
pub(super) struct CompoundXrefs {
    pub(super) pubchem_compound: Option<String>,
    #[serde(default, deserialize_with = "one_or_many")]
    pub(super) uniprot: Vec<String>,
}

#[derive(Debug, Serialize)]
pub(super) struct SearchCompounds<'a> {
    pub(super) query: &'a str,
}
hop!(SearchCompounds<'_> => "chembl_search_compounds", Items<CompoundHit>);

#[derive(Debug, Deserialize)]
pub(super) struct CompoundHit {
    pub(super) id: String,
}

#[derive(Debug, Serialize)]
pub(super) struct ResolveId<'a> {
    pub(super) id: &'a str,
}
hop!(ResolveId<'_> => "igvf_resolve_id", Resolved);

#[derive(Debug, Deserialize)]
pub(super) struct Resolved {
    #[serde(default)]
    pub(super) identifiers: VariantIds,
}

#[derive(Debug, Default, Deserialize)]
pub(super) struct VariantIds {
    pub(super) rsid: Option<String>,
    pub(super) spdi: Option<String>,
    pub(super) hgvs: Option<String>,
    pub(super) ca_id: Option<String>,
}

#[derive(Debug, Serialize)]
pub(super) struct GetProtein<'a> {
    pub(super) ids: [&'a str; 1],
}
hop!(GetProtein<'_> => "uniprot_get_protein", Proteins);

#[derive(Debug, Deserialize)]
pub(super) struct Proteins {
    #[serde(default)]
    pub(super) proteins: Vec<UniprotEntry>,
}

#[derive(Debug, Deserialize)]
pub(super) struct UniprotEntry {
    /// The entry's accession (a merged accession's successor; an isoform's entry).
    pub(super) accession: String,
    /// The gene symbol, e.g. `ADORA1`.
    pub(super) gene: Option<String>,
    #[serde(default)]
    pub(super) cross_references: ProteinXrefs,
}

#[derive(Debug, Default, Deserialize)]
pub(super) struct ProteinXrefs {
    pub(super) hgnc: Option<String>,
    pub(super) ensembl_gene: Option<String>,
    pub(super) ensembl_protein: Option<String>,
    pub(super) entrez: Option<String>,
    #[serde(default, deserialize_with = "one_or_many")]
    pub(super) refseq: Vec<String>,
    /// ChEMBL's own spelling of the target, `CHEMBL226`.
    pub(super) chembl: Option<String>,
    /// STRING's bare ID, `9606.ENSP00000356205`.
    pub(super) string: Option<String>,
}
