//! The databases `uniprot_map_ids` maps between, and UniProt's names of them as
//! `GET /configure/idmapping/fields` lists them (recorded, 2026; the rules: from
//! `UniProtKB_AC-ID` to any database, UniProtKB itself included (recorded: `P99999,P12345`
//! to `UniProtKB`, `tests/fixtures/idmapping_run__P99999_P12345.json`), from any other
//! database to `UniProtKB` or `UniProtKB-Swiss-Prot` only, and `taxId` with `Gene_Name`
//! only).

use lifesciences_core::ApiError;
use lifesciences_core::schemars::{self, JsonSchema};
use serde::Deserialize;

/// A database UniProt maps identifiers to or from. (Its variants have no doc comments:
/// the schema stays a plain list of names, explained in the argument's description.)
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub(crate) enum Database {
    // UniProtKB accessions (or entry names, as input).
    Uniprot,
    // Reviewed (Swiss-Prot) UniProtKB entries only; as output only.
    UniprotReviewed,
    GeneName,
    // Ensembl genes (ENSG…).
    Ensembl,
    EnsemblTranscript,
    EnsemblProtein,
    RefseqProtein,
    RefseqNucleotide,
    // NCBI Gene (Entrez) IDs.
    NcbiGene,
    Hgnc,
    // OMIM numbers.
    Omim,
    Pdb,
    Chembl,
    String,
    Drugbank,
    Reactome,
    Ccds,
    // EMBL/GenBank/DDBJ nucleotide accessions.
    Embl,
}

impl Database {
    /// The name this server uses, as the argument takes it.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Self::Uniprot => "uniprot",
            Self::UniprotReviewed => "uniprot_reviewed",
            Self::GeneName => "gene_name",
            Self::Ensembl => "ensembl",
            Self::EnsemblTranscript => "ensembl_transcript",
            Self::EnsemblProtein => "ensembl_protein",
            Self::RefseqProtein => "refseq_protein",
            Self::RefseqNucleotide => "refseq_nucleotide",
            Self::NcbiGene => "ncbi_gene",
            Self::Hgnc => "hgnc",
            Self::Omim => "omim",
            Self::Pdb => "pdb",
            Self::Chembl => "chembl",
            Self::String => "string",
            Self::Drugbank => "drugbank",
            Self::Reactome => "reactome",
            Self::Ccds => "ccds",
            Self::Embl => "embl",
        }
    }

    /// Whether this is UniProtKB (all of it, or its reviewed part).
    pub(crate) fn is_uniprot(self) -> bool {
        matches!(self, Self::Uniprot | Self::UniprotReviewed)
    }

    /// Whether its identifiers are Ensembl's, which UniProt sends versioned.
    pub(crate) fn is_ensembl(self) -> bool {
        matches!(
            self,
            Self::Ensembl | Self::EnsemblTranscript | Self::EnsemblProtein
        )
    }

    /// UniProt's name of the database: `from` for UniProtKB is `UniProtKB_AC-ID`
    /// (accessions or entry names), `to` is `UniProtKB`.
    pub(crate) fn uniprot_name(self, as_from: bool) -> &'static str {
        match self {
            Self::Uniprot if as_from => "UniProtKB_AC-ID",
            Self::Uniprot => "UniProtKB",
            Self::UniprotReviewed => "UniProtKB-Swiss-Prot",
            Self::GeneName => "Gene_Name",
            Self::Ensembl => "Ensembl",
            Self::EnsemblTranscript => "Ensembl_Transcript",
            Self::EnsemblProtein => "Ensembl_Protein",
            Self::RefseqProtein => "RefSeq_Protein",
            Self::RefseqNucleotide => "RefSeq_Nucleotide",
            Self::NcbiGene => "GeneID",
            Self::Hgnc => "HGNC",
            Self::Omim => "MIM",
            Self::Pdb => "PDB",
            Self::Chembl => "ChEMBL",
            Self::String => "STRING",
            Self::Drugbank => "DrugBank",
            Self::Reactome => "Reactome",
            Self::Ccds => "CCDS",
            Self::Embl => "EMBL-GenBank-DDBJ",
        }
    }
}

/// The pair `from` → `to` checked against UniProt's rules, before any request: one side
/// is UniProtKB (both may be: accessions to their current entries, or to the reviewed
/// ones), `uniprot_reviewed` only as `to`, and an organism only for gene names.
pub(crate) fn check_pair(from: Database, to: Database, has_organism: bool) -> Result<(), ApiError> {
    let pair = format!("{} → {}", from.name(), to.name());
    if from == Database::UniprotReviewed {
        return Err(ApiError::invalid_input(
            "'uniprot_reviewed' is a target only: UniProt maps from accessions whatever their status.",
            "Use \"from\": \"uniprot\".",
            pair,
        ));
    }
    if !from.is_uniprot() && !to.is_uniprot() {
        return Err(ApiError::invalid_input(
            format!("UniProt cannot map {pair}: one side must be UniProtKB."),
            format!(
                "UniProt maps between UniProtKB and other databases: map {} → uniprot, then \
                 uniprot → {} in a second call.",
                from.name(),
                to.name()
            ),
            pair,
        ));
    }
    if has_organism && from != Database::GeneName {
        return Err(ApiError::invalid_input(
            "'organism' applies to gene names only: UniProt maps other identifiers as they are.",
            "Drop 'organism', or map gene names (\"from\": \"gene_name\").",
            pair,
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::models::tests::fixture;
    use lifesciences_core::ErrorCode;

    const ALL: [Database; 18] = [
        Database::Uniprot,
        Database::UniprotReviewed,
        Database::GeneName,
        Database::Ensembl,
        Database::EnsemblTranscript,
        Database::EnsemblProtein,
        Database::RefseqProtein,
        Database::RefseqNucleotide,
        Database::NcbiGene,
        Database::Hgnc,
        Database::Omim,
        Database::Pdb,
        Database::Chembl,
        Database::String,
        Database::Drugbank,
        Database::Reactome,
        Database::Ccds,
        Database::Embl,
    ];

    #[test]
    fn every_name_is_one_uniprot_lists_in_the_direction_used() {
        // Names listed by /configure/idmapping/fields (`name`, `from`, `to`), recorded 2026.
        let listed = fixture("configure_idmapping_fields__names.json");
        let listed: Vec<(String, bool, bool)> = serde_json::from_str(&listed).unwrap();
        let find = |name: &str| listed.iter().find(|(n, _, _)| n == name);
        for db in ALL {
            if db != Database::UniprotReviewed {
                let (_, from, _) = find(db.uniprot_name(true)).unwrap();
                assert!(from, "{} is not a `from` database", db.name());
            }
            let (_, _, to) = find(db.uniprot_name(false)).unwrap();
            assert!(to, "{} is not a `to` database", db.name());
            // The argument's spelling is the serde name.
            let read: Database = serde_json::from_value(serde_json::json!(db.name())).unwrap();
            assert_eq!(read, db);
        }
    }

    #[test]
    fn one_side_is_uniprot_and_an_organism_goes_with_gene_names() {
        assert!(check_pair(Database::Uniprot, Database::Ensembl, false).is_ok());
        assert!(check_pair(Database::Ensembl, Database::UniprotReviewed, false).is_ok());
        assert!(check_pair(Database::GeneName, Database::Uniprot, true).is_ok());
        // Accessions to their current entries, or to the reviewed ones.
        assert!(check_pair(Database::Uniprot, Database::Uniprot, false).is_ok());
        assert!(check_pair(Database::Uniprot, Database::UniprotReviewed, false).is_ok());
        for (from, to, organism) in [
            (Database::Ensembl, Database::Pdb, false),
            (Database::UniprotReviewed, Database::Pdb, false),
            (Database::Ensembl, Database::Uniprot, true),
        ] {
            let e = check_pair(from, to, organism).unwrap_err();
            assert_eq!(e.code(), ErrorCode::InvalidInput, "{from:?} {to:?}");
        }
        let hint = check_pair(Database::Ensembl, Database::Pdb, false)
            .unwrap_err()
            .to_envelope()
            .error
            .recovery_hint;
        assert!(
            hint.contains("ensembl → uniprot, then uniprot → pdb"),
            "{hint}"
        );
    }
}
