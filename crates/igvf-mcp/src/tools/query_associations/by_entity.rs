//! `limit` counts entities, not upstream rows. The catalog answers one row per
//! association (a variant with two ClinGen assertions is two rows; a variant's eQTLs in
//! five tissues, five), so cutting the ranked rows at `limit` would return fewer entities
//! than asked, and some of them with only part of their rows. Here the ranked rows are
//! grouped by the entity they are counted by ([`counted`]): the first `limit` entities,
//! an entity ranking where its best row does, each with every matching row, those rows
//! next to each other in rank order.

use std::collections::HashMap;

use crate::associations::{Association, EntityRef};

/// The side of a row that `limit` counts: the side opposite the anchor (the target); on
/// a query with no anchor, the variant side when the row has one (QTLs, GWAS and clinical
/// rows are about variants), else the target.
pub(super) fn counted(a: &Association, anchored: bool) -> &EntityRef {
    if !anchored && a.source_entity.kind == "variant" && a.target_entity.kind != "variant" {
        &a.source_entity
    } else {
        &a.target_entity
    }
}

/// What was kept of the ranked rows.
#[derive(Debug)]
pub(super) struct Kept {
    /// The rows of the first `limit` entities, grouped, in rank order.
    pub rows: Vec<Association>,
    /// The entities they cover (at most `limit`).
    pub entities: usize,
    /// The distinct entities among every ranked row.
    pub matched_entities: usize,
}

/// The rows of the first `limit` distinct entities of `ranked` (already in rank order).
pub(super) fn first_entities(ranked: Vec<Association>, limit: usize, anchored: bool) -> Kept {
    let mut order: Vec<String> = Vec::new();
    let mut rows: HashMap<String, Vec<Association>> = HashMap::new();
    for a in ranked {
        let side = counted(&a, anchored);
        let key = format!("{}\u{1f}{}", side.kind, side.id.to_ascii_lowercase());
        if !rows.contains_key(&key) {
            order.push(key.clone());
        }
        rows.entry(key).or_default().push(a);
    }
    let matched_entities = order.len();
    let mut kept = Vec::new();
    let mut entities = 0;
    for key in order.into_iter().take(limit) {
        if let Some(group) = rows.remove(&key) {
            kept.extend(group);
            entities += 1;
        }
    }
    Kept {
        rows: kept,
        entities,
        matched_entities,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(source: (&str, &str), target: (&str, &str), p: f64) -> Association {
        let side = |(kind, id): (&str, &str)| EntityRef {
            id: id.to_owned(),
            kind: kind.to_owned(),
            name: None,
        };
        Association {
            relationship: "genetic".to_owned(),
            relationship_type: "clinical".to_owned(),
            predicate: None,
            source_entity: side(source),
            target_entity: side(target),
            source: None,
            method: None,
            p_value: Some(p),
            neg_log10_p_value: None,
            effect_size: None,
            effect_size_measure: None,
            score: None,
            z_score: None,
            posterior_inclusion_probability: None,
            evidence_class: None,
            tissue: None,
            biosample: None,
            evidence: None,
            study: None,
            pmids: Vec::new(),
            dataset: "/variants/diseases".to_owned(),
        }
    }

    #[test]
    fn limit_counts_entities_and_keeps_each_entity_s_rows_together() {
        let gene = ("gene", "ENSG00000012048");
        // Ranked: v1, v2, v1 again (a second disease), v3, v4, v5.
        let ranked = vec![
            row(gene, ("variant", "v1"), 1e-9),
            row(gene, ("variant", "v2"), 1e-8),
            row(gene, ("variant", "V1"), 1e-7),
            row(gene, ("variant", "v3"), 1e-6),
            row(gene, ("variant", "v4"), 1e-5),
            row(gene, ("variant", "v5"), 1e-4),
        ];
        let kept = first_entities(ranked, 3, true);
        let ids: Vec<&str> = kept
            .rows
            .iter()
            .map(|a| a.target_entity.id.as_str())
            .collect();
        // Three variants, v1 with both its rows next to each other.
        assert_eq!(ids, ["v1", "V1", "v2", "v3"]);
        assert_eq!(kept.entities, 3);
        assert_eq!(kept.matched_entities, 5);
        assert_eq!(first_entities(Vec::new(), 3, true).entities, 0);
    }

    #[test]
    fn without_an_anchor_the_variant_side_is_counted() {
        // Catalog-wide eQTLs: variant → gene rows; one variant regulating two genes is
        // one variant.
        let ranked = vec![
            row(("variant", "v1"), ("gene", "g1"), 1e-9),
            row(("variant", "v1"), ("gene", "g2"), 1e-8),
            row(("variant", "v2"), ("gene", "g1"), 1e-7),
        ];
        let kept = first_entities(ranked, 1, false);
        assert_eq!(kept.rows.len(), 2);
        assert_eq!(kept.matched_entities, 2);
        // Anchored on the variant, the genes are counted.
        let anchored = vec![
            row(("variant", "v1"), ("gene", "g1"), 1e-9),
            row(("variant", "v1"), ("gene", "g2"), 1e-8),
        ];
        assert_eq!(first_entities(anchored, 1, true).rows.len(), 1);
    }
}
