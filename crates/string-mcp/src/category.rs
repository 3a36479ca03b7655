//! STRING's annotation categories, as the enrichment and annotation tools filter by them:
//! STRING's own codes in any case, and the names agents write instead (`reactome`,
//! `GO:BP`, `publications`); and the compact page both tools cut from a list of terms
//! (breadth first across categories, within a byte budget, with per-category counts).

use lifesciences_core::ApiError;
use lifesciences_core::schemars::{self, JsonSchema};
use serde::{Deserialize, Serialize};

/// STRING's category codes, as its enrichment and annotation rows name them.
pub(crate) const CATEGORIES: [&str; 17] = [
    "Process",
    "Function",
    "Component",
    "Keyword",
    "KEGG",
    "RCTM",
    "WikiPathways",
    "Pfam",
    "InterPro",
    "SMART",
    "PMID",
    "DISEASES",
    "TISSUES",
    "COMPARTMENTS",
    "HPO",
    "MPO",
    "NetworkNeighborAL",
];

/// Other names for a category (lower case, `_`/`-`/space folded away), and its code.
const ALIASES: [(&str, &str); 16] = [
    ("gobp", "Process"),
    ("goprocess", "Process"),
    ("biologicalprocess", "Process"),
    ("gomf", "Function"),
    ("gofunction", "Function"),
    ("molecularfunction", "Function"),
    ("gocc", "Component"),
    ("gocomponent", "Component"),
    ("cellularcomponent", "Component"),
    ("reactome", "RCTM"),
    ("uniprotkeywords", "Keyword"),
    ("keywords", "Keyword"),
    ("publications", "PMID"),
    ("pubmed", "PMID"),
    ("diseases", "DISEASES"),
    ("tissues", "TISSUES"),
];

fn folded(s: &str) -> String {
    s.chars()
        .filter(|c| !matches!(c, '_' | '-' | ' ' | ':'))
        .flat_map(char::to_lowercase)
        .collect()
}

/// The category codes `raw` names, without repeats (empty: no filter). An unknown name is
/// `INVALID_INPUT` listing the codes.
pub(crate) fn parse_categories(raw: &[String]) -> Result<Vec<&'static str>, ApiError> {
    let mut out: Vec<&'static str> = Vec::new();
    for given in raw.iter().map(|s| s.trim()).filter(|s| !s.is_empty()) {
        let key = folded(given);
        let code = CATEGORIES
            .iter()
            .find(|c| folded(c) == key)
            .or_else(|| ALIASES.iter().find(|(a, _)| *a == key).map(|(_, c)| c))
            .copied();
        match code {
            Some(code) if !out.contains(&code) => out.push(code),
            Some(_) => {}
            None => {
                return Err(ApiError::invalid_input(
                    format!("'{given}' is not a STRING annotation category."),
                    format!(
                        "Use STRING's codes: {} (RCTM is Reactome, PMID publications).",
                        CATEGORIES.join(", ")
                    ),
                    given,
                ));
            }
        }
    }
    Ok(out)
}

/// The most bytes of terms one page holds (the rest of an answer is small), so a page
/// stays within about 10 KB of JSON.
pub(crate) const PAGE_BYTES: usize = 9 * 1024;
/// Most genes named per term; the term's count covers them all.
pub(crate) const MAX_GENES_SHOWN: usize = 10;
/// Longest description kept, in characters (PubMed titles run long).
const MAX_DESCRIPTION_CHARS: usize = 160;

/// A term of some category.
pub(crate) trait Categorised: Serialize + Clone {
    fn category(&self) -> &str;
}

/// `text` trimmed, and cut to [`MAX_DESCRIPTION_CHARS`] with `…` when longer.
pub(crate) fn short_description(text: &str) -> String {
    let text = text.trim();
    if text.chars().count() <= MAX_DESCRIPTION_CHARS {
        return text.to_owned();
    }
    let cut: String = text.chars().take(MAX_DESCRIPTION_CHARS - 1).collect();
    format!("{}…", cut.trim_end())
}

/// Lists of terms, one per category, each already in its own order, and the lists in
/// theirs, taken round by round: the best term of every category, then the second best
/// of each, and so on.
pub(crate) fn breadth_first<T>(lists: Vec<Vec<T>>) -> Vec<T> {
    let longest = lists.iter().map(Vec::len).max().unwrap_or(0);
    let mut iters: Vec<_> = lists.into_iter().map(Vec::into_iter).collect();
    let mut ranked = Vec::new();
    for _ in 0..longest {
        ranked.extend(iters.iter_mut().filter_map(Iterator::next));
    }
    ranked
}

/// The page of `ranked` from `offset`: at most `limit` terms and [`PAGE_BYTES`] of them
/// (always at least one, so paging moves on).
pub(crate) fn page<T: Categorised>(ranked: &[T], offset: usize, limit: usize) -> Vec<T> {
    let mut out = Vec::new();
    let mut bytes = 0;
    for t in ranked.iter().skip(offset).take(limit) {
        let size = serde_json::to_vec(t).map_or(0, |v| v.len()) + 1;
        if !out.is_empty() && bytes + size > PAGE_BYTES {
            break;
        }
        bytes += size;
        out.push(t.clone());
    }
    out
}

/// How many terms of one category pass the filters, and how many this page shows.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub(crate) struct CategoryCount {
    /// STRING's category.
    pub category: String,
    /// Its terms passing the filters.
    pub terms: usize,
    /// Of those, on this page.
    pub shown: usize,
}

/// Per category: its terms, and how many are on the page; in ranking order.
pub(crate) fn counts<T: Categorised>(ranked: &[T], shown: &[T]) -> Vec<CategoryCount> {
    let mut out: Vec<CategoryCount> = Vec::new();
    for t in ranked {
        match out.iter_mut().find(|c| c.category == t.category()) {
            Some(c) => c.terms += 1,
            None => out.push(CategoryCount {
                category: t.category().to_owned(),
                terms: 1,
                shown: 0,
            }),
        }
    }
    for t in shown {
        if let Some(c) = out.iter_mut().find(|c| c.category == t.category()) {
            c.shown += 1;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(names: &[&str]) -> Result<Vec<&'static str>, ApiError> {
        parse_categories(&names.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>())
    }

    #[test]
    fn codes_in_any_case_and_common_names_are_accepted() {
        assert_eq!(
            parse(&["kegg", "Reactome", "GO:BP", "go_process", " PMID "]).unwrap(),
            ["KEGG", "RCTM", "Process", "PMID"]
        );
        assert_eq!(parse(&[]).unwrap(), Vec::<&str>::new());
    }

    #[test]
    fn breadth_first_takes_one_of_each_per_round() {
        let lists = vec![vec![1, 2, 3], vec![10], vec![20, 21]];
        assert_eq!(breadth_first(lists), [1, 10, 20, 2, 21, 3]);
    }

    #[test]
    fn long_descriptions_are_cut_with_an_ellipsis() {
        let cut = short_description(&"y".repeat(400));
        assert_eq!(cut.chars().count(), MAX_DESCRIPTION_CHARS);
        assert!(cut.ends_with('…'));
        assert_eq!(short_description(" short "), "short");
    }

    #[test]
    fn an_unknown_category_lists_the_codes() {
        let err = parse(&["pathways"]).unwrap_err();
        assert!(err.to_string().contains("pathways"));
    }
}
