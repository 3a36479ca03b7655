//! Ensembl cross-references (`xrefs/id`) mapped into the registry keys (docs/design.md).
//!
//! Which `dbname` feeds which key (evidence for the names: docs/sources/ensembl.md):
//!
//! | key | from |
//! |---|---|
//! | `hgnc` | `HGNC` (`primary_id` `HGNC:6407`) |
//! | `entrez` | `EntrezGene` |
//! | `uniprot` | `Uniprot/SWISSPROT` (reviewed entries, translation level); only when there are none, `Uniprot_gn` (any accession of the gene, often an unreviewed one) |
//! | `refseq` | `RefSeq_mRNA`, `RefSeq_ncRNA`, `RefSeq_peptide`; the `*_predicted` (XM_/XR_/XP_) ones only when there is no curated one |
//! | `omim` | `MIM_GENE` (not `MIM_MORBID`, which names diseases) |
//!
//! Values go through `CrossReferences`, which drops (and logs) those that fail the
//! registry's pattern.

use lifesciences_core::{CrossReferences, XrefKey};

use crate::models::XrefEntry;

/// Strip a `.version` from a UniProt accession (`P04637.312` → `P04637`): Swiss-Prot
/// IDs may carry one (seen on display IDs), and the registry's pattern does not.
fn unversioned_accession(value: &str) -> &str {
    match value.split_once('.') {
        Some((accession, version)) if version.bytes().all(|b| b.is_ascii_digit()) => accession,
        _ => value,
    }
}

/// The registry cross-references found in `entries`.
pub(crate) fn cross_references(entries: &[XrefEntry]) -> CrossReferences {
    let values = |dbnames: &[&str]| -> Vec<&str> {
        entries
            .iter()
            .filter(|e| dbnames.contains(&e.dbname.as_str()))
            .filter_map(|e| e.primary_id.as_deref())
            .collect()
    };
    let mut refs = CrossReferences::new();
    refs.extend(XrefKey::Hgnc, values(&["HGNC"]));
    refs.extend(XrefKey::Entrez, values(&["EntrezGene"]));

    let reviewed: Vec<&str> = values(&["Uniprot/SWISSPROT"])
        .into_iter()
        .map(unversioned_accession)
        .collect();
    if reviewed.is_empty() {
        refs.extend(XrefKey::Uniprot, values(&["Uniprot_gn"]));
    } else {
        refs.extend(XrefKey::Uniprot, reviewed);
    }

    let curated = values(&["RefSeq_mRNA", "RefSeq_ncRNA", "RefSeq_peptide"]);
    if curated.is_empty() {
        refs.extend(
            XrefKey::Refseq,
            values(&[
                "RefSeq_mRNA_predicted",
                "RefSeq_ncRNA_predicted",
                "RefSeq_peptide_predicted",
            ]),
        );
    } else {
        refs.extend(XrefKey::Refseq, curated);
    }

    refs.extend(XrefKey::Omim, values(&["MIM_GENE"]));
    refs
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn entries(v: serde_json::Value) -> Vec<XrefEntry> {
        serde_json::from_value(v).unwrap()
    }

    #[test]
    fn recorded_gene_level_xrefs_fall_back_to_uniprot_gene_names() {
        // Excerpt of the recorded KRAS xrefs (no all_levels):
        // `tests/fixtures/xrefs_id__ENSG00000133703.json`.
        let refs = cross_references(&entries(json!([
            {"dbname": "HGNC", "primary_id": "HGNC:6407", "display_id": "KRAS"},
            {"dbname": "EntrezGene", "primary_id": "3845", "display_id": "KRAS"},
            {"dbname": "WikiGene", "primary_id": "3845"},
            {"dbname": "MIM_GENE", "primary_id": "190070"},
            {"dbname": "MIM_MORBID", "primary_id": "108010"},
            {"dbname": "Uniprot_gn", "primary_id": "P01116"},
            {"dbname": "Uniprot_gn", "primary_id": "L7RSL8"},
            {"dbname": "Reactome_gene", "primary_id": "R-HSA-1643685"},
            {"dbname": "ArrayExpress", "primary_id": "ENSG00000133703", "description": null}
        ])));
        assert_eq!(
            serde_json::to_value(&refs).unwrap(),
            json!({"hgnc": "HGNC:6407", "uniprot": ["P01116", "L7RSL8"], "entrez": "3845",
                   "omim": "190070"})
        );
    }

    #[test]
    fn swiss_prot_and_curated_refseq_win_and_bad_values_are_dropped() {
        let refs = cross_references(&entries(json!([
            {"dbname": "Uniprot_gn", "primary_id": "A0A024RAV5"},
            {"dbname": "Uniprot/SWISSPROT", "primary_id": "P04637.312"},
            {"dbname": "Uniprot/SPTREMBL", "primary_id": "K7PPA8"},
            {"dbname": "RefSeq_mRNA_predicted", "primary_id": "XM_011523913"},
            {"dbname": "RefSeq_mRNA", "primary_id": "NM_000546"},
            {"dbname": "RefSeq_peptide", "primary_id": "NP_000537"},
            {"dbname": "HGNC", "primary_id": "11998 is not an id"},
            {"dbname": "EntrezGene", "primary_id": 7157}
        ])));
        assert_eq!(
            serde_json::to_value(&refs).unwrap(),
            json!({"uniprot": ["P04637"], "entrez": "7157",
                   "refseq": ["NM_000546", "NP_000537"]})
        );
    }

    #[test]
    fn predicted_refseq_is_used_only_without_curated_ones() {
        let refs = cross_references(&entries(json!([
            {"dbname": "RefSeq_mRNA_predicted", "primary_id": "XM_011523913"}
        ])));
        assert_eq!(refs.get(XrefKey::Refseq), ["XM_011523913"]);
    }
}
