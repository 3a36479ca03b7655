//! The tools, one per file, and the small mappings they share.
//! Each file is named once below, in the order tools are listed; that list is the
//! server's tools. A tool file imports no other tool file: what several tools share is
//! here or a module of the crate (e.g. `region`, `species`, `xrefs`).

lifesciences_core::tool_files! {
    crate::server::EnsemblServer, ensembl:
    search_genes as paged(items, page_size),
    get_gene,
    get_transcript,
    predict_variant_effect,
    get_variant,
    get_sequence,
    get_homologs as paged(homologs, limit),
    query_region as paged(features, limit),
    map_coordinates,
}

use lifesciences_core::ApiError;

/// A gene's name from its Ensembl description: `tumor protein p53 [Source:HGNC
/// Symbol;Acc:HGNC:11998]` → `tumor protein p53`. Empty descriptions are absent.
pub(crate) fn gene_name(description: Option<&str>) -> Option<String> {
    let text = description?;
    let name = match text.rfind(" [Source:") {
        Some(at) if text.trim_end().ends_with(']') => &text[..at],
        _ => text,
    };
    let name = name.trim();
    (!name.is_empty()).then(|| name.to_owned())
}

/// `ENTITY_NOT_FOUND` for a well-formed ID Ensembl does not know (HTTP 400 "ID '…' not
/// found").
pub(crate) fn not_found(what: &str, id: &str, raw: &str) -> ApiError {
    ApiError::not_found(
        format!("Ensembl has no {what} with the ID '{id}'."),
        format!(
            "Check the ID (it may be retired or belong to an archive release), or find the \
             current {what} with ensembl_search_genes by its symbol or name."
        ),
        raw,
    )
}

/// Ensembl refused the species ([`Refusal::UnknownSpecies`](crate::client::Refusal)):
/// the caller's error, `INVALID_INPUT` on `species`.
pub(crate) fn unknown_species(species: &str) -> ApiError {
    ApiError::invalid_input(
        format!("Ensembl does not know the species '{species}'."),
        "Pass an Ensembl species name or alias such as 'human', 'homo_sapiens' or \
         'mus_musculus'.",
        species,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_source_suffix_is_cut_from_descriptions() {
        assert_eq!(
            gene_name(Some(
                "KRAS proto-oncogene, GTPase [Source:HGNC Symbol;Acc:HGNC:6407]"
            ))
            .as_deref(),
            Some("KRAS proto-oncogene, GTPase")
        );
        assert_eq!(
            gene_name(Some("novel transcript")).as_deref(),
            Some("novel transcript")
        );
        assert_eq!(gene_name(Some(" [Source:HGNC Symbol;Acc:HGNC:1]")), None);
        assert_eq!(gene_name(None), None);
    }
}
