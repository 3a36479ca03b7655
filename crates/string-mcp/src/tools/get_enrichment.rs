//! `string_get_enrichment`: the functional enrichment of a set of proteins, compact. Two
//! upstream requests (three with a background set): the set resolved in one
//! `get_string_ids` (the background in another), then `enrichment` with STRING IDs, so
//! STRING does not map names again. Later pages are served from the cache.
//!
//! STRING answers every term with p < 0.1 in every category: a hundred or more terms
//! for a modest set, which overflows an agent's context. The result is a page of a list
//! ranked breadth first (the best term of every category, then the second best of each,
//! and so on), cut by `limit` and by a byte budget, with per-category counts of what is
//! left and a cursor into the rest.

use std::collections::BTreeMap;

use lifesciences_core::schemars::{self, JsonSchema};
use lifesciences_core::{ApiError, Pagination, Parameters, cursor, in_range, lenient};
use rmcp::{Json, tool};
use serde::{Deserialize, Serialize};

use crate::category::{
    Categorised, CategoryCount, MAX_GENES_SHOWN, breadth_first, counts, page, parse_categories,
    short_description,
};
use crate::ids::SpeciesArg;
use crate::models::{EnrichmentRow, Lenient};
use crate::server::StringServer;
use crate::set::{self, MAX_SET};

/// Most background identifiers: one resolution request must carry them all.
const MAX_BACKGROUND: usize = 5000;
/// Arguments of `string_get_enrichment`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct GetEnrichmentArgs {
    /// 1–2000 names, UniProt accessions or CURIEs; one protein is tested with its 10
    /// closest interactors.
    #[serde(deserialize_with = "lifesciences_core::args::one_or_many")]
    #[schemars(with = "Vec<String>")]
    #[schemars(length(min = 1, max = 2000))]
    pub identifiers: Vec<String>,
    /// NCBI taxon or common name; default: the CURIEs' taxon, else 9606.
    #[serde(default)]
    pub species: Option<SpeciesArg>,
    /// STRING codes, e.g. Process, Function, Component, KEGG, RCTM, PMID; default all.
    #[serde(default, deserialize_with = "lifesciences_core::args::one_or_many")]
    #[schemars(with = "Vec<String>")]
    pub categories: Vec<String>,
    /// Keep terms with FDR at most this, 0–1.
    #[serde(default, deserialize_with = "lenient::opt_f64")]
    #[schemars(range(min = 0, max = 1))]
    #[schemars(extend("default" = 0.05))]
    pub max_fdr: Option<f64>,
    /// Up to 5000 proteins to test against (default: the genome).
    #[serde(default, deserialize_with = "lifesciences_core::args::one_or_many")]
    #[schemars(with = "Vec<String>")]
    pub background: Vec<String>,
    /// Terms per page, 1–200.
    #[serde(default, deserialize_with = "lenient::opt_u32")]
    #[schemars(range(min = 1, max = 200))]
    #[schemars(extend("default" = 30))]
    pub limit: Option<u32>,
    /// `pagination.cursor` of the previous page.
    #[serde(default)]
    pub cursor: Option<String>,
}

/// A term enriched in the set.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub(crate) struct EnrichedTerm {
    /// STRING's category, e.g. `Process`, `KEGG`, `RCTM` (Reactome), `PMID`.
    pub category: String,
    /// The term's ID, e.g. `GO:0006954`, `hsa04620`, `PMID:36873050`.
    pub term: String,
    /// What the term is; PubMed titles start with the year and long ones are cut (`…`).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub description: String,
    /// STRING's names of the set's proteins with the term (the first 10).
    pub genes: Vec<String>,
    /// Proteins of the set with the term.
    pub genes_in_set: u64,
    /// Proteins of the background with the term.
    pub genes_in_background: u64,
    /// The term's p-value.
    pub p_value: f64,
    /// False discovery rate, corrected within the category.
    pub fdr: f64,
}

/// The functional enrichment of a set.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub(crate) struct Enrichment {
    /// Proteins of the set STRING tested.
    pub protein_count: usize,
    /// Identifiers STRING could not map in the species (the first 50); left out.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub unresolved: Vec<String>,
    /// How many identifiers STRING could not map.
    #[serde(default, skip_serializing_if = "set::is_zero")]
    pub unresolved_count: usize,
    /// This page of terms: the best of every category first, then the next best of each;
    /// within a category by FDR.
    pub terms: Vec<EnrichedTerm>,
    /// Every category with terms passing the filters, best first.
    pub categories: Vec<CategoryCount>,
    /// What the result leaves out or assumes, and why.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// `total_count` counts the terms passing the filters; `cursor` fetches the next page.
    pub pagination: Pagination,
}

/// A row as a term, when it has what a term needs.
fn term(row: &EnrichmentRow) -> Option<EnrichedTerm> {
    let f = |v: &Option<Lenient>| v.as_ref().and_then(Lenient::as_f64);
    let u = |v: &Option<Lenient>| v.as_ref().and_then(Lenient::as_u64);
    let category = row.category.as_deref()?.trim().to_owned();
    let term = row.term.as_deref()?.trim().to_owned();
    let p_value = f(&row.p_value)?.clamp(0.0, 1.0);
    let fdr = f(&row.fdr).map_or(p_value, |v| v.clamp(0.0, 1.0));
    let names = if row.preferred_names.0.is_empty() {
        &row.input_genes.0
    } else {
        &row.preferred_names.0
    };
    let description = short_description(row.description.as_deref().unwrap_or(""));
    Some(EnrichedTerm {
        genes_in_set: u(&row.number_of_genes).unwrap_or(names.len() as u64),
        genes_in_background: u(&row.number_of_genes_in_background).unwrap_or(0),
        genes: names.iter().take(MAX_GENES_SHOWN).cloned().collect(),
        category,
        term,
        description,
        p_value,
        fdr,
    })
}

/// The terms passing the filters, ranked breadth first: categories ordered by their best
/// FDR, terms within one by FDR (then p-value, then ID); then round by round, the n-th
/// best term of every category.
fn rank(rows: &[EnrichmentRow], categories: &[&str], max_fdr: f64) -> Vec<EnrichedTerm> {
    let mut by_category: BTreeMap<String, Vec<EnrichedTerm>> = BTreeMap::new();
    for t in rows.iter().filter_map(term) {
        let wanted = categories.is_empty()
            || categories
                .iter()
                .any(|c| c.eq_ignore_ascii_case(&t.category));
        if wanted && t.fdr <= max_fdr {
            by_category.entry(t.category.clone()).or_default().push(t);
        }
    }
    let mut lists: Vec<Vec<EnrichedTerm>> = by_category.into_values().collect();
    for list in &mut lists {
        list.sort_by(|a, b| {
            a.fdr
                .total_cmp(&b.fdr)
                .then_with(|| a.p_value.total_cmp(&b.p_value))
                .then_with(|| a.term.cmp(&b.term))
        });
    }
    lists.sort_by(|a, b| {
        a[0].fdr
            .total_cmp(&b[0].fdr)
            .then_with(|| a[0].category.cmp(&b[0].category))
    });
    breadth_first(lists)
}

impl Categorised for EnrichedTerm {
    fn category(&self) -> &str {
        &self.category
    }
}

impl StringServer {
    /// Functional enrichment of a protein set (GO, KEGG, Reactome, WikiPathways, domains,
    /// diseases, tissues, publications…): per term its category, ID, description, the
    /// set's genes, counts, p-value and FDR. Compact: the best terms of every category
    /// first, per-category counts, a cursor to the rest. Example: `{"identifiers":
    /// ["POSTN", "CXCL10", "IFNA1"], "categories": ["KEGG"]}`.
    #[tool(
        title = "Get STRING functional enrichment",
        annotations(read_only_hint = true, idempotent_hint = true, open_world_hint = true)
    )]
    pub(crate) async fn string_get_enrichment(
        &self,
        Parameters(args): Parameters<GetEnrichmentArgs>,
    ) -> Result<Json<Enrichment>, ApiError> {
        let args = args?;
        let identifiers = set::normalise(&args.identifiers, MAX_SET, "STRING's limit for a set")?;
        let species = set::set_species(args.species.as_ref(), &identifiers, "one enrichment")?;
        let categories = parse_categories(&args.categories)?;
        let max_fdr = args.max_fdr.unwrap_or(0.05);
        if !(0.0..=1.0).contains(&max_fdr) {
            return Err(ApiError::invalid_input(
                format!("Argument 'max_fdr' is {max_fdr}; an FDR is between 0 and 1."),
                "Pass a value such as 0.05 (the default), or 1 to keep every term STRING \
                 returns (all have p < 0.1).",
                max_fdr.to_string(),
            ));
        }
        let background = if args.background.is_empty() {
            Vec::new()
        } else {
            set::normalise(
                &args.background,
                MAX_BACKGROUND,
                "one request must carry them",
            )?
        };
        let limit = in_range("limit", args.limit, 1, 200, 30)?;
        let scope = format!(
            "string_get_enrichment|{species}|{}|{}|{max_fdr}|{}|{limit}",
            identifiers.join("\r"),
            categories.join(","),
            background.join("\r"),
        );
        let offset: usize = match args.cursor.as_deref().map(str::trim) {
            Some(c) if !c.is_empty() => cursor::decode(c, &scope)?,
            _ => 0,
        };

        let resolved = self.resolve_set(&identifiers, &species).await?;
        let mut notes = Vec::new();
        let background_ids = if background.is_empty() {
            Vec::new()
        } else {
            let found = self.resolve_set(&background, &species).await?;
            if !found.unresolved.is_empty() {
                notes.push(format!(
                    "{} background identifiers were not mapped and left out of the background.",
                    found.unresolved.len()
                ));
            }
            found.bare_ids()
        };
        let ids = resolved.bare_ids();
        if ids.len() == 1 {
            notes.push(
                "One protein: STRING tested it together with its 10 most likely interactors."
                    .to_owned(),
            );
        }
        let rows = self
            .string
            .enrichment(&ids, &species, &background_ids)
            .await?;
        let ranked = rank(&rows, &categories, max_fdr);
        let shown = page(&ranked, offset, limit as usize);
        let next = offset + shown.len();
        let next_cursor = (next < ranked.len()).then(|| cursor::encode(&scope, &next));
        if offset == 0 && ranked.is_empty() {
            notes.push(format!(
                "No term has FDR ≤ {max_fdr}{}; STRING reports only terms with p < 0.1.",
                if categories.is_empty() {
                    String::new()
                } else {
                    format!(" in {}", categories.join(", "))
                }
            ));
        }
        let (unresolved_shown, unresolved_count) = resolved.unresolved_shown();
        Ok(Json(Enrichment {
            protein_count: ids.len(),
            unresolved: unresolved_shown,
            unresolved_count,
            categories: counts(&ranked, &shown),
            terms: shown,
            note: (!notes.is_empty()).then(|| notes.join(" ")),
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
    use crate::category::PAGE_BYTES;
    use serde_json::json;

    fn rows(value: serde_json::Value) -> Vec<EnrichmentRow> {
        serde_json::from_value(value).unwrap()
    }

    fn row(category: &str, term: &str, fdr: f64) -> serde_json::Value {
        json!({"category": category, "term": term, "number_of_genes": 2,
               "number_of_genes_in_background": 100, "ncbiTaxonId": 9606,
               "inputGenes": "A,B", "preferredNames": ["A", "B"], "p_value": fdr / 2.0,
               "fdr": fdr, "description": "d"})
    }

    #[test]
    fn ranking_is_breadth_first_across_categories() {
        let r = rows(json!([
            row("PMID", "PMID:1", 0.01),
            row("PMID", "PMID:2", 0.001),
            row("KEGG", "hsa1", 0.02),
            row("KEGG", "hsa2", 0.03),
            row("KEGG", "hsa3", 0.2),
        ]));
        let ranked: Vec<String> = rank(&r, &[], 0.05).into_iter().map(|t| t.term).collect();
        assert_eq!(ranked, ["PMID:2", "hsa1", "PMID:1", "hsa2"]);
        let kegg: Vec<String> = rank(&r, &["KEGG"], 1.0)
            .into_iter()
            .map(|t| t.term)
            .collect();
        assert_eq!(kegg, ["hsa1", "hsa2", "hsa3"]);
    }

    #[test]
    fn a_page_keeps_to_its_byte_budget_but_always_moves_on() {
        let long = "x".repeat(150);
        let r: Vec<EnrichmentRow> = (0..200)
            .map(|i| {
                let mut v = row("PMID", &format!("PMID:{i}"), 0.01);
                v["description"] = json!(long);
                serde_json::from_value(v).unwrap()
            })
            .collect();
        let ranked = rank(&r, &[], 1.0);
        let shown = page(&ranked, 0, 200);
        assert!(shown.len() < 200);
        assert!(serde_json::to_vec(&shown).unwrap().len() <= PAGE_BYTES + 2);
        assert_eq!(page(&ranked, 199, 200).len(), 1);
    }

    #[test]
    fn genes_are_capped_and_descriptions_cut() {
        let mut v = row("Process", "GO:1", 0.01);
        v["preferredNames"] = json!((0..30).map(|i| format!("G{i}")).collect::<Vec<_>>());
        v["number_of_genes"] = json!(30);
        v["description"] = json!("y".repeat(400));
        let t = term(&serde_json::from_value(v).unwrap()).unwrap();
        assert_eq!(t.genes.len(), MAX_GENES_SHOWN);
        assert_eq!(t.genes_in_set, 30);
        assert!(t.description.chars().count() < 400);
        assert!(t.description.ends_with('…'));
    }
}
