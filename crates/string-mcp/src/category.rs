//! STRING's annotation categories, as the enrichment and annotation tools filter by them:
//! STRING's own codes in any case, and the names agents write instead (`reactome`,
//! `GO:BP`, `publications`).

use lifesciences_core::ApiError;

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
    fn an_unknown_category_lists_the_codes() {
        let err = parse(&["pathways"]).unwrap_err();
        assert!(err.to_string().contains("pathways"));
    }
}
