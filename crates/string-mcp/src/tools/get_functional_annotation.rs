//! `string_get_functional_annotation`: the annotation terms a set of proteins carries (GO,
//! pathways, domains, keywords, diseases, tissues, publications…), without statistics.
//! Two upstream requests: the set resolved in one `get_string_ids`, then
//! `functional_annotation` with STRING IDs. Later pages are served from the cache.
//!
//! STRING answers every term of every protein: hundreds for one well-studied protein,
//! most of them publications. The result is paged like the enrichment: breadth first
//! across categories (the term most of the set shares in every category, then the next
//! of each), cut by `limit` and by a byte budget, with per-category counts and a cursor.

use std::collections::BTreeMap;

use lifesciences_core::schemars::{self, JsonSchema};
use lifesciences_core::{ApiError, Pagination, Parameters, cursor, in_range, lenient};
use rmcp::{Json, tool};
use serde::{Deserialize, Serialize};

use crate::category::{
    CATEGORIES, Categorised, CategoryCount, MAX_GENES_SHOWN, breadth_first, counts, page,
    parse_categories, short_description,
};
use crate::ids::SpeciesArg;
use crate::models::{AnnotationRow, Lenient};
use crate::server::StringServer;
use crate::set::{self, MAX_SET};

/// Arguments of `string_get_functional_annotation`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct GetFunctionalAnnotationArgs {
    /// 1–2000 names, UniProt accessions or CURIEs.
    #[serde(deserialize_with = "lifesciences_core::args::one_or_many")]
    #[schemars(with = "Vec<String>")]
    #[schemars(length(min = 1, max = 2000))]
    pub identifiers: Vec<String>,
    /// NCBI taxon or common name; default: the CURIEs' taxon, else 9606.
    #[serde(default)]
    pub species: Option<SpeciesArg>,
    /// STRING codes as for enrichment; default all.
    #[serde(default, deserialize_with = "lifesciences_core::args::one_or_many")]
    #[schemars(with = "Vec<String>")]
    pub categories: Vec<String>,
    /// Terms per page, 1–500.
    #[serde(default, deserialize_with = "lenient::opt_u32")]
    #[schemars(range(min = 1, max = 500))]
    #[schemars(extend("default" = 50))]
    pub limit: Option<u32>,
    /// `pagination.cursor` of the previous page.
    #[serde(default)]
    pub cursor: Option<String>,
}

/// An annotation term carried by proteins of the set.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub(crate) struct AnnotationTerm {
    /// STRING's category, e.g. `Process`, `KEGG`, `COMPARTMENTS`, `PMID`.
    pub category: String,
    /// The term's ID, e.g. `GO:0006954`, `GOCC:0005576`, `PMID:36873050`.
    pub term: String,
    /// What the term is; long ones are cut (`…`).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub description: String,
    /// STRING's names of the set's proteins with the term (the first 10).
    pub genes: Vec<String>,
    /// Proteins of the set with the term.
    pub genes_in_set: u64,
    /// Their share of the set, 0–1.
    pub ratio_in_set: f64,
}

impl Categorised for AnnotationTerm {
    fn category(&self) -> &str {
        &self.category
    }
}

/// The annotation of a set.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub(crate) struct FunctionalAnnotation {
    /// Proteins of the set STRING annotated.
    pub protein_count: usize,
    /// Identifiers STRING could not map in the species (the first 50); left out.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub unresolved: Vec<String>,
    /// How many identifiers STRING could not map.
    #[serde(default, skip_serializing_if = "set::is_zero")]
    pub unresolved_count: usize,
    /// This page of terms: the most shared term of every category first, then the next
    /// of each; within a category by proteins carrying it.
    pub terms: Vec<AnnotationTerm>,
    /// Every category with terms passing the filter, in STRING's order.
    pub categories: Vec<CategoryCount>,
    /// What the result leaves out, and why.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// `total_count` counts the terms passing the filter; `cursor` fetches the next page.
    pub pagination: Pagination,
}

/// A row as a term, when it names its category and term.
fn term(row: &AnnotationRow, protein_count: usize) -> Option<AnnotationTerm> {
    let category = row.category.as_deref()?.trim().to_owned();
    let term = row.term.as_deref()?.trim().to_owned();
    let names = if row.preferred_names.0.is_empty() {
        &row.input_genes.0
    } else {
        &row.preferred_names.0
    };
    let genes_in_set = row
        .number_of_genes
        .as_ref()
        .and_then(Lenient::as_u64)
        .unwrap_or(names.len() as u64);
    let ratio_in_set = row
        .ratio_in_set
        .as_ref()
        .and_then(Lenient::as_f64)
        .or_else(|| (protein_count > 0).then(|| genes_in_set as f64 / protein_count as f64))
        .unwrap_or(0.0)
        .clamp(0.0, 1.0);
    Some(AnnotationTerm {
        description: short_description(row.description.as_deref().unwrap_or("")),
        genes: names.iter().take(MAX_GENES_SHOWN).cloned().collect(),
        genes_in_set,
        ratio_in_set,
        category,
        term,
    })
}

/// Where a category stands in STRING's order (unknown ones last, by name).
fn category_rank(category: &str) -> (usize, String) {
    let at = CATEGORIES
        .iter()
        .position(|c| c.eq_ignore_ascii_case(category))
        .unwrap_or(CATEGORIES.len());
    (at, category.to_owned())
}

/// The terms in the wanted categories, ranked breadth first: categories in STRING's
/// order, terms within one by how many proteins carry them (then by ID).
fn rank(rows: &[AnnotationRow], categories: &[&str], protein_count: usize) -> Vec<AnnotationTerm> {
    let mut by_category: BTreeMap<(usize, String), Vec<AnnotationTerm>> = BTreeMap::new();
    let mut seen = std::collections::HashSet::new();
    for t in rows.iter().filter_map(|r| term(r, protein_count)) {
        if !seen.insert((t.category.clone(), t.term.clone())) {
            continue;
        }
        let wanted = categories.is_empty()
            || categories
                .iter()
                .any(|c| c.eq_ignore_ascii_case(&t.category));
        if wanted {
            by_category
                .entry(category_rank(&t.category))
                .or_default()
                .push(t);
        }
    }
    let mut lists: Vec<Vec<AnnotationTerm>> = by_category.into_values().collect();
    for list in &mut lists {
        list.sort_by(|a, b| {
            b.genes_in_set
                .cmp(&a.genes_in_set)
                .then_with(|| a.term.cmp(&b.term))
        });
    }
    breadth_first(lists)
}

impl StringServer {
    /// The annotation terms of proteins, without statistics (GO, KEGG, Reactome,
    /// domains, keywords, compartments, publications…): per term its category, ID,
    /// description and the set's proteins carrying it. For what a set shares beyond
    /// chance, use string_get_enrichment. Example: `{"identifiers": ["TP53"],
    /// "categories": ["KEGG"]}`.
    #[tool(
        title = "Get STRING functional annotation",
        annotations(read_only_hint = true, idempotent_hint = true, open_world_hint = true)
    )]
    pub(crate) async fn string_get_functional_annotation(
        &self,
        Parameters(args): Parameters<GetFunctionalAnnotationArgs>,
    ) -> Result<Json<FunctionalAnnotation>, ApiError> {
        let args = args?;
        let identifiers = set::normalise(&args.identifiers, MAX_SET, "STRING's limit for a set")?;
        let species = set::set_species(args.species.as_ref(), &identifiers, "one annotation")?;
        let categories = parse_categories(&args.categories)?;
        let limit = in_range("limit", args.limit, 1, 500, 50)?;
        let scope = format!(
            "string_get_functional_annotation|{species}|{}|{}|{limit}",
            identifiers.join("\r"),
            categories.join(","),
        );
        let offset: usize = match args.cursor.as_deref().map(str::trim) {
            Some(c) if !c.is_empty() => cursor::decode(c, &scope)?,
            _ => 0,
        };

        let resolved = self.resolve_set(&identifiers, &species).await?;
        let ids = resolved.bare_ids();
        let rows = self.string.functional_annotation(&ids, &species).await?;
        let ranked = rank(&rows, &categories, ids.len());
        let shown = page(&ranked, offset, limit as usize);
        let next = offset + shown.len();
        let next_cursor = (next < ranked.len()).then(|| cursor::encode(&scope, &next));
        let note = (offset == 0 && ranked.is_empty()).then(|| {
            if categories.is_empty() {
                "STRING has no annotation terms for these proteins.".to_owned()
            } else {
                format!(
                    "STRING has no terms in {} for these proteins; omit 'categories' to see \
                     the others.",
                    categories.join(", ")
                )
            }
        });
        let (unresolved_shown, unresolved_count) = resolved.unresolved_shown();
        Ok(Json(FunctionalAnnotation {
            protein_count: ids.len(),
            unresolved: unresolved_shown,
            unresolved_count,
            categories: counts(&ranked, &shown),
            terms: shown,
            note,
            pagination: Pagination {
                cursor: next_cursor,
                total_count: Some(ranked.len() as u64),
                page_size: limit,
            },
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn rows(value: serde_json::Value) -> Vec<AnnotationRow> {
        serde_json::from_value(value).unwrap()
    }

    fn row(category: &str, term: &str, genes: &str) -> serde_json::Value {
        let n = genes.split(',').count();
        json!({"category": category, "term": term, "number_of_genes": n,
               "ratio_in_set": n as f64 / 4.0, "ncbiTaxonId": 9606,
               "inputGenes": genes, "preferredNames": genes, "description": "d"})
    }

    #[test]
    fn categories_follow_string_order_and_shared_terms_come_first() {
        let r = rows(json!([
            row("PMID", "PMID:1", "A"),
            row("Process", "GO:2", "A"),
            row("Process", "GO:1", "A,B,C"),
            row("COMPARTMENTS", "GOCC:1", "A,B"),
        ]));
        let ranked: Vec<String> = rank(&r, &[], 4).into_iter().map(|t| t.term).collect();
        assert_eq!(ranked, ["GO:1", "PMID:1", "GOCC:1", "GO:2"]);
        let only: Vec<String> = rank(&r, &["COMPARTMENTS"], 4)
            .into_iter()
            .map(|t| t.term)
            .collect();
        assert_eq!(only, ["GOCC:1"]);
    }

    #[test]
    fn a_missing_ratio_is_computed_from_the_set() {
        let mut v = row("KEGG", "hsa1", "A,B");
        v.as_object_mut().unwrap().remove("ratio_in_set");
        let t = term(&serde_json::from_value(v).unwrap(), 4).unwrap();
        assert_eq!(t.genes, ["A", "B"]);
        assert!((t.ratio_in_set - 0.5).abs() < 1e-9);
    }
}
