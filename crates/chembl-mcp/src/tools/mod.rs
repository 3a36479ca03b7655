//! The tools, one per file, each named once below, in the order tools are listed; that
//! list is the server's tools. A tool file imports no other tool file: what several tools
//! share is here (the compound not-found error of `chembl_get_compound` and
//! `chembl_get_drug_profile`) or a module of the crate (`compound`, `section`, `target`).

lifesciences_core::tool_files! {
    crate::server::ChemblServer, chembl:
    search_compounds as paged(items, page_size),
    get_compound,
    get_compounds_batch,
    get_drug_profile,
    get_bioactivities as paged(activities, limit),
    search_targets as paged(items, limit),
    get_target,
}

use lifesciences_core::ApiError;

use crate::client::IdEntry;
use crate::ids::ChemblId;
use crate::server::ChemblServer;

/// `ENTITY_NOT_FOUND` for a well-formed ID ChEMBL has no compound for: precise when
/// ChEMBL's ID lookup says the ID names another kind of entity. Best effort: when the
/// lookup fails, the plain message.
pub(crate) async fn not_found(server: &ChemblServer, id: &ChemblId, raw: &str) -> ApiError {
    let plain = || {
        ApiError::not_found(
            format!("ChEMBL has no compound with the identifier '{id}'."),
            "Check the identifier, or find the compound by name with chembl_search_compounds \
             and use the id it returns.",
            raw,
        )
    };
    let entry = match server.chembl.id_lookup(id).await {
        Ok(Some(entry)) => entry,
        Ok(None) => return plain(),
        Err(e) => {
            tracing::debug!(error = %e, "the ChEMBL ID lookup failed: plain not-found message");
            return plain();
        }
    };
    match entry {
        IdEntry::Compound | IdEntry::Untyped => plain(),
        IdEntry::RetiredCompound { status } => ApiError::not_found(
            format!(
                "ChEMBL lists {id} as a compound, but its record is not available (status \
                 {status}): it may have been withdrawn or merged into another record."
            ),
            "Find the compound by name with chembl_search_compounds and use the id it \
             returns.",
            raw,
        ),
        IdEntry::Other { entity_type } => ApiError::not_found(
            format!(
                "{id} is a ChEMBL {}, not a compound.",
                entity_kind(&entity_type)
            ),
            "chembl_get_compound looks up compounds only; find the compound by name with \
             chembl_search_compounds and use the id it returns.",
            raw,
        ),
    }
}

/// A ChEMBL `entity_type` (`COMPOUND`, `TARGET`, `CELL`…) in plain words.
fn entity_kind(entity_type: &str) -> String {
    match entity_type.to_ascii_uppercase().as_str() {
        "CELL" => "cell line".to_owned(),
        other => other.to_lowercase().replace('_', " "),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entity_types_read_as_plain_words() {
        assert_eq!(entity_kind("TARGET"), "target");
        assert_eq!(entity_kind("ASSAY"), "assay");
        assert_eq!(entity_kind("CELL"), "cell line");
        assert_eq!(entity_kind("TISSUE"), "tissue");
        assert_eq!(entity_kind("SOME_THING"), "some thing");
    }
}
