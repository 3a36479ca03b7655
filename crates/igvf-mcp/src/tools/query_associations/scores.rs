//! Coding-variant effect scores as associations: a gene's protein changes with their
//! variants' scores (`/genes/coding-variants/scores`), and the scores of one protein
//! change (`/coding-variants/phenotypes`), each score one association with the method (an
//! assay or predictor) as its effect measure.

use crate::associations::{Association, EntityRef, Relationship, Subject};
use crate::client::Endpoint;
use crate::models::{ChangeScore, CodingScores};

/// A gene symbol and a protein change, `XRCC2 p.Met1Ile` or `CYP2C19:p.Ala103=`.
pub(super) fn protein_change(raw: &str) -> Option<(String, String)> {
    let (gene, change) = raw.trim().split_once([' ', ':'])?;
    let change = change.trim();
    let ok_gene = !gene.is_empty()
        && gene.len() <= 20
        && gene.chars().all(|c| c.is_ascii_alphanumeric() || c == '-');
    let ok_change = change.len() > 3
        && change.starts_with("p.")
        && change[2..]
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '=' | '*' | '?' | '_'));
    (ok_gene && ok_change).then(|| (gene.to_ascii_uppercase(), change.to_owned()))
}

/// A score of one protein change: the change as source, its variant as target.
pub(super) fn change_association(row: &ChangeScore) -> Option<Association> {
    let variant = row.variant.as_ref()?;
    Some(Association {
        source: row.source.clone(),
        evidence: row
            .phenotype
            .as_ref()
            .and_then(|p| p.phenotype_name.clone()),
        ..effect_score(
            EntityRef {
                id: row.coding_variant.id.clone(),
                kind: "coding_variant".to_owned(),
                name: row.coding_variant.hgvsp.clone(),
            },
            EntityRef {
                id: variant.key.clone(),
                kind: "variant".to_owned(),
                name: None,
            },
            row.coding_variant.hgvsp.clone(),
            row.method.clone(),
            row.score,
            Endpoint::CodingVariantsPhenotypes,
        )
    })
}

/// One association per variant and score of a protein change.
pub(super) fn coding_associations(row: &CodingScores, gene: Option<&Subject>) -> Vec<Association> {
    let change = &row.protein_change;
    let source_entity = EntityRef {
        id: gene
            .and_then(|g| g.id.clone())
            .unwrap_or_else(|| change.protein_id.clone().unwrap_or_default()),
        kind: "gene".to_owned(),
        name: gene.and_then(|g| g.symbol.clone()),
    };
    let mut out = Vec::new();
    for v in &row.variants {
        let Some(variant) = v.variant.as_ref() else {
            continue;
        };
        for s in &v.scores {
            out.push(Association {
                evidence: change.transcript_id.clone(),
                ..effect_score(
                    source_entity.clone(),
                    EntityRef {
                        id: variant.key.clone(),
                        kind: "variant".to_owned(),
                        name: change.hgvsp.clone(),
                    },
                    change.hgvsp.clone(),
                    s.method.clone(),
                    s.score,
                    Endpoint::GenesCodingVariantScores,
                )
            });
        }
    }
    out
}

/// A coding-variant effect score as an association: the protein change as predicate,
/// the score as the effect and its method (an assay or predictor) as the measure.
fn effect_score(
    source_entity: EntityRef,
    target_entity: EntityRef,
    change: Option<String>,
    method: Option<String>,
    score: Option<f64>,
    endpoint: Endpoint,
) -> Association {
    Association {
        relationship: Relationship::Functional.as_str().to_owned(),
        relationship_type: "coding variant effect".to_owned(),
        predicate: change,
        source_entity,
        target_entity,
        source: None,
        method: method.clone(),
        p_value: None,
        neg_log10_p_value: None,
        effect_size: score,
        effect_size_measure: method,
        score: None,
        z_score: None,
        posterior_inclusion_probability: None,
        evidence_class: None,
        tissue: None,
        biosample: None,
        evidence: None,
        study: None,
        pmids: Vec::new(),
        dataset: format!("/{}", endpoint.path()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn protein_changes_are_a_symbol_and_an_hgvs_p() {
        assert_eq!(
            protein_change("xrcc2 p.Met1Ile"),
            Some(("XRCC2".to_owned(), "p.Met1Ile".to_owned()))
        );
        assert_eq!(
            protein_change("CYP2C19:p.Ala103="),
            Some(("CYP2C19".to_owned(), "p.Ala103=".to_owned()))
        );
        assert_eq!(protein_change("BRCA1"), None);
        assert_eq!(protein_change("BRCA1 c.68_69del"), None);
    }
}
