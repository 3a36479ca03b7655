//! STRING's interactions as the tools show them: the seven evidence channels
//! ([`EvidenceScores`]), one interaction of a query protein with a partner
//! ([`Interaction`], with the partner's cross-references), and the mapping from an
//! `interaction_partners` or `network` row to it ([`interaction`]). Shared by
//! `string_get_interactions` (partners) and `string_get_network` (edges among a set).

use lifesciences_core::notify::{Level, notify};
use lifesciences_core::schemars::{self, JsonSchema};
use lifesciences_core::{CrossReferences, XrefKey};
use serde::{Deserialize, Serialize};

use crate::ids::StringId;
use crate::models::{Lenient, PartnerRow};

/// The seven evidence channels of an interaction, each 0–1 (0 when STRING has no evidence
/// of that kind).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub(crate) struct EvidenceScores {
    /// Conserved genomic neighborhood.
    pub nscore: f64,
    /// Gene fusion.
    pub fscore: f64,
    /// Phylogenetic co-occurrence.
    pub pscore: f64,
    /// Co-expression.
    pub ascore: f64,
    /// Experiments.
    pub escore: f64,
    /// Curated databases.
    pub dscore: f64,
    /// Text mining.
    pub tscore: f64,
}

/// One interaction of the query protein (A) with a partner (B).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub(crate) struct Interaction {
    /// The query protein's STRING CURIE.
    pub protein_a: String,
    /// The partner's STRING CURIE: pass it to string_get_interactions to walk on.
    pub protein_b: String,
    /// STRING's preferred name of the query protein.
    pub preferred_name_a: String,
    /// STRING's preferred name of the partner, e.g. `MDM2`.
    pub preferred_name_b: String,
    /// NCBI taxon of both proteins.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub taxon_id: Option<u64>,
    /// STRING's combined confidence, 0–1.
    pub combined_score: f64,
    /// The confidence of each evidence channel, 0–1.
    pub evidence: EvidenceScores,
    /// The partner in other databases (at least its STRING ID).
    pub cross_references: CrossReferences,
}

/// The partner in other databases: its STRING ID, and the Ensembl protein ID STRING
/// builds it from (for the species whose proteins are Ensembl's, e.g. human
/// `9606.ENSP00000269305`), which the IGVF Catalog takes as it is.
fn hand_off(partner: &StringId) -> CrossReferences {
    let mut xrefs = CrossReferences::new().with(XrefKey::String, partner.bare());
    let protein = partner.bare();
    if let Some((_, ensp)) = protein.split_once('.')
        && XrefKey::EnsemblProtein.is_valid(ensp)
    {
        xrefs.add(XrefKey::EnsemblProtein, ensp);
    }
    xrefs
}

/// A score on STRING's 0–1 scale: missing or unreadable is 0, and the rare value a hair
/// above 1 is held at 1 so the promised range holds.
fn unit_score(value: Option<&Lenient>) -> f64 {
    value
        .and_then(Lenient::as_f64)
        .map_or(0.0, |f| f.clamp(0.0, 1.0))
}

/// Map a partner row; rows without a usable partner ID or combined score are dropped.
pub(crate) fn interaction(row: &PartnerRow, query: &StringId) -> Option<Interaction> {
    let partner = row.string_id_b.as_deref().and_then(StringId::parse_bare);
    let combined = row.score.as_ref().and_then(Lenient::as_f64);
    let (Some(partner), Some(combined)) = (partner, combined) else {
        tracing::warn!(
            partner = ?row.string_id_b,
            score = ?row.score,
            "dropping an interaction_partners row without a usable partner or score"
        );
        notify(
            Level::Warning,
            "STRING sent an interaction without a usable partner or score; it was left out",
        );
        return None;
    };
    let protein_a = row
        .string_id_a
        .as_deref()
        .and_then(StringId::parse_bare)
        .unwrap_or_else(|| query.clone());
    let name = |s: Option<&String>, id: &StringId| {
        s.map(|s| s.trim().to_owned())
            .filter(|s| !s.is_empty())
            .unwrap_or_else(|| id.bare())
    };
    let taxon_id = row
        .ncbi_taxon_id
        .as_ref()
        .and_then(Lenient::as_u64)
        .or_else(|| partner.species().taxon());
    Some(Interaction {
        preferred_name_a: name(row.preferred_name_a.as_ref(), &protein_a),
        preferred_name_b: name(row.preferred_name_b.as_ref(), &partner),
        protein_a: protein_a.curie(),
        cross_references: hand_off(&partner),
        protein_b: partner.curie(),
        taxon_id,
        combined_score: unit_score(Some(&Lenient::Number(combined))),
        evidence: EvidenceScores {
            nscore: unit_score(row.nscore.as_ref()),
            fscore: unit_score(row.fscore.as_ref()),
            pscore: unit_score(row.pscore.as_ref()),
            ascore: unit_score(row.ascore.as_ref()),
            escore: unit_score(row.escore.as_ref()),
            dscore: unit_score(row.dscore.as_ref()),
            tscore: unit_score(row.tscore.as_ref()),
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn rows(value: serde_json::Value) -> Vec<PartnerRow> {
        serde_json::from_value(value).unwrap()
    }

    #[test]
    fn all_seven_channels_are_present_and_missing_ones_are_zero() {
        let r = rows(json!([{"stringId_A": "9606.ENSP00000359224",
            "stringId_B": "9606.ENSP00000261007", "ncbiTaxonId": "9606", "score": "0.543",
            "tscore": 0.543}]));
        let alg14 = StringId::parse_bare("9606.ENSP00000359224").unwrap();
        let i = interaction(&r[0], &alg14).unwrap();
        assert_eq!(i.combined_score, 0.543);
        assert_eq!(i.taxon_id, Some(9606));
        assert_eq!(
            i.preferred_name_b, "9606.ENSP00000261007",
            "no name: the ID stands in"
        );
        assert_eq!(
            serde_json::to_value(&i.evidence).unwrap(),
            json!({"nscore": 0.0, "fscore": 0.0, "pscore": 0.0, "ascore": 0.0,
                   "escore": 0.0, "dscore": 0.0, "tscore": 0.543})
        );
        // The Ensembl protein STRING's ID is built from, as a hand-off to tools that
        // take Ensembl IDs.
        assert_eq!(
            serde_json::to_value(&i.cross_references).unwrap(),
            json!({"ensembl_protein": "ENSP00000261007", "string": "9606.ENSP00000261007"})
        );
    }

    #[test]
    fn proteins_not_named_by_ensembl_get_no_ensembl_hand_off() {
        let yeast = StringId::parse_bare("4932.YAL001C").unwrap();
        assert_eq!(
            serde_json::to_value(hand_off(&yeast)).unwrap(),
            json!({"string": "4932.YAL001C"})
        );
        let mouse = StringId::parse_bare("10090.ENSMUSP00000104298").unwrap();
        assert_eq!(
            serde_json::to_value(hand_off(&mouse)).unwrap()["ensembl_protein"],
            "ENSMUSP00000104298"
        );
    }
}
