//! Species names: what a user may type (`human`, `homo_sapiens`, `Homo sapiens`, `9606`,
//! an Ensembl alias) resolved against Ensembl's own species list (`info/species`), and the
//! two spellings the upstreams use (`homo_sapiens` for Ensembl REST, `Homo sapiens` for
//! EBI Search's `species` field).

use lifesciences_core::ApiError;

use crate::models::{SpeciesInfo, SpeciesList};

/// Ensembl's production name of the species searched for exact symbols when the caller
/// names no species (see `ensembl_search_genes`).
pub(crate) const DEFAULT_SYMBOL_SPECIES: &str = "homo_sapiens";

/// A species Ensembl knows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Species {
    /// Production name, e.g. `homo_sapiens`.
    pub production_name: String,
    /// Scientific name as EBI Search spells it, e.g. `Homo sapiens`.
    pub scientific_name: String,
}

/// Lower case, with spaces, hyphens and underscores folded to one `_`, so that
/// `Homo sapiens`, `homo_sapiens` and `Homo-Sapiens` compare equal.
pub(crate) fn fold(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    for word in name
        .split(|c: char| c.is_whitespace() || c == '_' || c == '-')
        .filter(|w| !w.is_empty())
    {
        if !out.is_empty() {
            out.push('_');
        }
        out.push_str(&word.to_lowercase());
    }
    out
}

/// `homo_sapiens` → `Homo sapiens`.
pub(crate) fn scientific_name(production_name: &str) -> String {
    let spaced = production_name.replace('_', " ");
    let mut chars = spaced.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => spaced,
    }
}

/// `Homo sapiens` → `homo_sapiens`, the form every result reports.
pub(crate) fn production_name(any_spelling: &str) -> String {
    fold(any_spelling)
}

/// Resolve what the user typed against Ensembl's species list. Preference: the
/// production name, then the common or display name, then an alias, then the taxon id
/// (several strains can share one; the shortest name, the reference strain, wins).
pub(crate) fn resolve(list: &SpeciesList, raw: &str) -> Result<Species, ApiError> {
    let wanted = fold(raw);
    let found = (!wanted.is_empty())
        .then(|| {
            let by = |matches: &dyn Fn(&SpeciesInfo) -> bool| {
                list.species
                    .iter()
                    .filter(|s| !s.name.is_empty() && matches(s))
                    .min_by_key(|s| s.name.len())
            };
            by(&|s| fold(&s.name) == wanted)
                .or_else(|| {
                    by(&|s| {
                        [&s.common_name, &s.display_name]
                            .into_iter()
                            .flatten()
                            .any(|n| fold(n) == wanted)
                    })
                })
                .or_else(|| by(&|s| s.aliases.iter().any(|a| fold(a) == wanted)))
                .or_else(|| by(&|s| s.taxon_id.as_deref().map(str::trim) == Some(raw.trim())))
        })
        .flatten();
    match found {
        Some(s) => Ok(Species {
            production_name: s.name.clone(),
            scientific_name: scientific_name(&s.name),
        }),
        None => Err(unknown(list, raw)),
    }
}

/// Well-known species to show as examples, when Ensembl lists them.
const EXAMPLES: [&str; 5] = [
    "homo_sapiens",
    "mus_musculus",
    "rattus_norvegicus",
    "danio_rerio",
    "gallus_gallus",
];

fn describe(s: &SpeciesInfo) -> String {
    let common = s
        .common_name
        .as_deref()
        .or(s.display_name.as_deref())
        .filter(|c| !c.is_empty());
    match (common, s.taxon_id.as_deref()) {
        (Some(c), Some(t)) => format!("'{c}' ({}, taxon {t})", s.name),
        (Some(c), None) => format!("'{c}' ({})", s.name),
        (None, Some(t)) => format!("'{}' (taxon {t})", s.name),
        (None, None) => format!("'{}'", s.name),
    }
}

/// `INVALID_INPUT` naming valid examples from Ensembl's list, with close names as
/// suggestions.
fn unknown(list: &SpeciesList, raw: &str) -> ApiError {
    let mut examples: Vec<&SpeciesInfo> = EXAMPLES
        .iter()
        .filter_map(|name| list.species.iter().find(|s| s.name == *name))
        .collect();
    if examples.is_empty() {
        examples = list.species.iter().take(5).collect();
    }
    let listed: Vec<String> = examples.into_iter().map(describe).collect();
    let wanted = fold(raw);
    let suggestions: Vec<String> = if wanted.chars().count() >= 3 {
        list.species
            .iter()
            .filter(|s| {
                let names = [
                    Some(&s.name),
                    s.common_name.as_ref(),
                    s.display_name.as_ref(),
                ];
                names
                    .into_iter()
                    .flatten()
                    .chain(&s.aliases)
                    .any(|n| fold(n).contains(&wanted))
            })
            .take(5)
            .map(|s| s.name.clone())
            .collect()
    } else {
        Vec::new()
    };
    ApiError::invalid_input(
        format!(
            "Ensembl does not know the species '{raw}' (checked against its list of {} species).",
            list.species.len()
        ),
        format!(
            "Use a common name, a production name or an NCBI taxon id that Ensembl knows, \
             e.g. {}; or omit 'species' to search all species.",
            listed.join(", ")
        ),
        raw,
    )
    .with_suggestions(suggestions)
}

#[cfg(test)]
mod tests {
    use super::*;
    use lifesciences_core::ErrorCode;
    use serde_json::json;

    fn list() -> SpeciesList {
        serde_json::from_value(json!({"species": [
            {"name": "mus_musculus_129s1svimj", "display_name": "Mouse 129S1/SvImJ",
             "common_name": "mouse", "taxon_id": "10090", "aliases": []},
            {"name": "homo_sapiens", "display_name": "Human", "common_name": "human",
             "taxon_id": "9606", "aliases": ["hsap", "homo sapiens", "enshs"]},
            {"name": "mus_musculus", "display_name": "Mouse", "common_name": "house mouse",
             "taxon_id": "10090", "aliases": ["mouse", "mmus"]},
            {"name": "danio_rerio", "display_name": "Zebrafish", "common_name": "zebrafish",
             "taxon_id": "7955", "aliases": []}
        ]}))
        .unwrap()
    }

    fn resolved(raw: &str) -> String {
        resolve(&list(), raw).unwrap().production_name
    }

    #[test]
    fn every_usual_spelling_resolves() {
        for raw in [
            "human",
            "Human",
            "homo_sapiens",
            "Homo sapiens",
            " 9606 ",
            "hsap",
        ] {
            assert_eq!(resolved(raw), "homo_sapiens", "{raw}");
        }
        // A strain shares the taxon id and (here) the common name: the reference wins.
        for raw in ["mouse", "Mus musculus", "10090", "mmus"] {
            assert_eq!(resolved(raw), "mus_musculus", "{raw}");
        }
        let s = resolve(&list(), "zebrafish").unwrap();
        assert_eq!(s.scientific_name, "Danio rerio");
    }

    #[test]
    fn unknown_species_is_invalid_input_listing_valid_ones() {
        let e = resolve(&list(), "martian").unwrap_err().to_envelope().error;
        assert_eq!(e.code, ErrorCode::InvalidInput);
        assert_eq!(e.invalid_input.as_deref(), Some("martian"));
        assert!(
            e.recovery_hint
                .contains("'human' (homo_sapiens, taxon 9606)"),
            "{}",
            e.recovery_hint
        );
        assert!(
            e.recovery_hint.contains("danio_rerio"),
            "{}",
            e.recovery_hint
        );
        let e = resolve(&list(), "musculus")
            .unwrap_err()
            .to_envelope()
            .error;
        assert_eq!(e.suggestions, ["mus_musculus_129s1svimj", "mus_musculus"]);
        assert!(resolve(&list(), "  ").is_err());
    }

    #[test]
    fn spellings_convert_both_ways() {
        assert_eq!(scientific_name("homo_sapiens"), "Homo sapiens");
        assert_eq!(production_name("Homo sapiens"), "homo_sapiens");
        assert_eq!(fold("  Mus   musculus "), "mus_musculus");
    }
}
