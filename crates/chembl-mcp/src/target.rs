//! Targets in brief: [`TargetSummary`] (CURIE, name, type, organism, UniProt accessions,
//! gene symbols), read from a ChEMBL target record by [`summary`]. What
//! `chembl_search_targets` lists for each hit, and the head of `chembl_get_target`'s
//! record.

use lifesciences_core::rmcp::schemars::{self, JsonSchema};
use serde::Serialize;

use crate::ids::ChemblId;
use crate::models::Target;

/// A target, in brief.
#[serde_with::skip_serializing_none]
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub(crate) struct TargetSummary {
    /// The target's CURIE (pass it to chembl_get_target or chembl_get_bioactivities).
    pub id: String,
    pub name: Option<String>,
    /// `SINGLE PROTEIN`, `PROTEIN COMPLEX`…
    #[serde(rename = "type")]
    pub kind: Option<String>,
    pub organism: Option<String>,
    /// UniProt accessions of its proteins, for uniprot_get_protein.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub uniprot: Vec<String>,
    /// Gene symbols of its proteins.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub gene_symbols: Vec<String>,
}

/// A target record in brief.
pub(crate) fn summary(t: &Target) -> Option<TargetSummary> {
    let mut gene_symbols: Vec<String> = Vec::new();
    for synonym in t
        .target_components
        .iter()
        .flat_map(|c| &c.target_component_synonyms)
    {
        if synonym.syn_type.as_deref() == Some("GENE_SYMBOL")
            && let Some(s) = synonym.component_synonym.as_deref().map(str::trim)
            && !s.is_empty()
            && !gene_symbols.iter().any(|g| g == s)
        {
            gene_symbols.push(s.to_owned());
        }
    }
    Some(TargetSummary {
        id: ChemblId::curie_of_upstream(t.target_chembl_id.as_deref()?),
        name: t.pref_name.clone(),
        kind: t.target_type.clone(),
        organism: t.organism.clone(),
        uniprot: t
            .target_components
            .iter()
            .filter_map(|c| c.accession.clone())
            .collect(),
        gene_symbols,
    })
}
