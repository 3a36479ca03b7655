//! The tools, one per file: arguments, the `#[tool]` fn, the mapping from UniProt's
//! answers to the output types, and unit tests. Each file is named once below, in the
//! order tools are listed; that list is the server's tools. A tool file imports no other
//! tool file: what several tools share is a module of the crate (`feature`, `disease`,
//! `xrefs`, `protein`) or here.

lifesciences_core::tool_files! {
    crate::server::UniprotServer, uniprot:
    search_proteins as paged(items, limit),
    get_protein,
    get_features as paged(features, limit),
    map_ids as paged(mappings, limit),
}

use lifesciences_core::ApiError;

use crate::client::{Inactive, InactiveReason, Refusal};
use crate::ids::ProteinRef;

/// The error for a protein UniProt has no active entry for: unknown (`ENTITY_NOT_FOUND`
/// with a hint to search), or inactive, saying what became of it: merged into X, demerged
/// into X and Y, or deleted and why. The successors are the suggestions.
pub(crate) fn no_entry(protein: &ProteinRef, raw: &str, inactive: Option<&Inactive>) -> ApiError {
    let Some(record) = inactive else {
        return ApiError::not_found(
            format!("UniProt has no entry {protein}."),
            "Check the accession, or find the protein with uniprot_search_proteins (gene and \
             organism) and use the accession it returns.",
            raw,
        );
    };
    let named = match &record.entry_name {
        Some(name) => format!("{protein} ({name})"),
        None => protein.to_string(),
    };
    let look_up = |into: &[String]| {
        format!(
            "Call uniprot_get_protein with {}: {{\"ids\": [{}]}}.",
            if into.len() == 1 {
                "its successor"
            } else {
                "its successors"
            },
            into.iter()
                .map(|a| format!("\"{a}\""))
                .collect::<Vec<_>>()
                .join(", ")
        )
    };
    let (message, hint, successors) = match &record.reason {
        InactiveReason::Merged { into } if !into.is_empty() => (
            format!(
                "UniProt's {named} is no longer an entry of its own: it was merged into {}.",
                into.join(" and ")
            ),
            look_up(into),
            into.clone(),
        ),
        InactiveReason::Demerged { into } if !into.is_empty() => (
            format!(
                "UniProt's {named} is no longer an entry: it was split (demerged) into {}.",
                and_list(into)
            ),
            look_up(into),
            into.clone(),
        ),
        InactiveReason::Deleted { reason } => (
            format!(
                "UniProt deleted {named} from UniProtKB{}.",
                reason
                    .as_deref()
                    .map(|r| format!(" (reason: {r})"))
                    .unwrap_or_default()
            ),
            format!(
                "Other databases may still cite it. Find the current entry with \
                 uniprot_search_proteins (gene and organism){}.",
                record
                    .uniparc
                    .as_deref()
                    .map(|u| format!("; its sequence stays in UniParc as {u}"))
                    .unwrap_or_default()
            ),
            Vec::new(),
        ),
        other => (
            format!(
                "UniProt's {named} is inactive ({}), with no successor named.",
                other.name()
            ),
            "Find the current entry with uniprot_search_proteins (gene and organism).".to_owned(),
            Vec::new(),
        ),
    };
    ApiError::not_found(message, hint, raw).with_suggestions(successors)
}

/// `a`, `a and b`, `a, b and c`.
fn and_list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

/// UniProt refused an identifier the tool had read as valid: `UNRESOLVED_ENTITY` in
/// UniProt's words.
pub(crate) fn refused_id(raw: &str, refusal: &Refusal) -> ApiError {
    ApiError::unresolved(
        format!(
            "UniProt refused '{raw}': {}.",
            refusal.words().trim_end_matches('.')
        ),
        format!("Give {}.", crate::ids::ACCEPTED_FORMS),
        raw,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use lifesciences_core::ErrorCode;

    fn inactive(reason: InactiveReason) -> Inactive {
        Inactive {
            reason,
            entry_name: Some("CYC_HUMAN".into()),
            uniparc: Some("UPI0000128BBF".into()),
        }
    }

    #[test]
    fn each_inactive_kind_says_what_became_of_the_accession() {
        let p = ProteinRef::parse("P00001").unwrap();
        let demerged = inactive(InactiveReason::Demerged {
            into: vec!["P99999".into(), "P99998".into()],
        });
        let body = no_entry(&p, "P00001", Some(&demerged)).to_envelope().error;
        assert_eq!(body.code, ErrorCode::EntityNotFound);
        assert_eq!(
            body.message,
            "UniProt's P00001 (CYC_HUMAN) is no longer an entry: it was split (demerged) into \
             P99999 and P99998."
        );
        assert!(
            body.recovery_hint
                .contains(r#"{"ids": ["P99999", "P99998"]}"#)
        );
        assert_eq!(body.suggestions, ["P99999", "P99998"]);

        let merged = inactive(InactiveReason::Merged {
            into: vec!["P23141".into()],
        });
        let body = no_entry(&p, "P00001", Some(&merged)).to_envelope().error;
        assert!(
            body.message.ends_with("merged into P23141."),
            "{}",
            body.message
        );
        assert!(body.recovery_hint.contains("its successor"));

        let deleted = inactive(InactiveReason::Deleted {
            reason: Some("Not part of a reference proteome".into()),
        });
        let body = no_entry(&p, "P00001", Some(&deleted)).to_envelope().error;
        assert!(
            body.message
                .contains("deleted P00001 (CYC_HUMAN) from UniProtKB (reason: Not part of a reference proteome)"),
            "{}",
            body.message
        );
        assert!(body.recovery_hint.contains("UPI0000128BBF"));
        assert!(body.suggestions.is_empty());

        let unknown = no_entry(&p, "p00001", None).to_envelope().error;
        assert_eq!(unknown.message, "UniProt has no entry P00001.");
        assert_eq!(unknown.invalid_input.as_deref(), Some("p00001"));
    }
}
