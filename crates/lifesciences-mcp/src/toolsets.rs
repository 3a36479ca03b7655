//! Toolsets: the four databases (and the crossing tool, always served), chosen with
//! `--toolsets` or `LIFESCIENCES_TOOLSETS`. Some clients pass only the first tools of a
//! long list to the model (Cursor: 40), so a user can serve fewer.

use std::collections::BTreeSet;

use lifesciences_core::ConfigError;

/// One database's tools.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Toolset {
    /// `string_*`: STRING protein interactions.
    String,
    /// `ensembl_*`: Ensembl genes, transcripts, variants.
    Ensembl,
    /// `chembl_*`: ChEMBL compounds, targets, activities.
    Chembl,
    /// `igvf_*`: the IGVF Catalog knowledge graph.
    Igvf,
}

impl Toolset {
    /// Every toolset, in the order tools are listed.
    pub const ALL: [Toolset; 4] = [Self::String, Self::Ensembl, Self::Chembl, Self::Igvf];

    /// Its name on the command line, and the prefix of its tools.
    pub fn name(self) -> &'static str {
        match self {
            Self::String => "string",
            Self::Ensembl => "ensembl",
            Self::Chembl => "chembl",
            Self::Igvf => "igvf",
        }
    }
}

/// The toolsets a value of `--toolsets` names: comma- or space-separated, case-insensitive;
/// `all` or nothing means every one.
pub(crate) fn parse(raw: Option<&str>) -> Result<BTreeSet<Toolset>, ConfigError> {
    let Some(raw) = raw.map(str::trim).filter(|r| !r.is_empty()) else {
        return Ok(Toolset::ALL.into_iter().collect());
    };
    let mut chosen = BTreeSet::new();
    for word in raw
        .split([',', ' '])
        .map(str::trim)
        .filter(|w| !w.is_empty())
    {
        let word = word.to_ascii_lowercase();
        if word == "all" {
            chosen.extend(Toolset::ALL);
            continue;
        }
        match Toolset::ALL.into_iter().find(|t| t.name() == word) {
            Some(t) => {
                chosen.insert(t);
            }
            None => {
                return Err(ConfigError::InvalidVar {
                    var: lifesciences_core::cli::TOOLSETS_VAR.to_owned(),
                    value: raw.to_owned(),
                    expected: format!(
                        "toolsets among string, ensembl, chembl, igvf (comma-separated), or \
                         all; '{word}' is not one"
                    ),
                });
            }
        }
    }
    Ok(chosen)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn toolsets_parse_forgivingly_and_refuse_unknown_names() {
        assert_eq!(parse(None).unwrap().len(), 4);
        assert_eq!(parse(Some(" ")).unwrap().len(), 4);
        assert_eq!(
            parse(Some("Ensembl, igvf"))
                .unwrap()
                .into_iter()
                .collect::<Vec<_>>(),
            [Toolset::Ensembl, Toolset::Igvf]
        );
        assert_eq!(parse(Some("all")).unwrap().len(), 4);
        let e = parse(Some("string,uniprot")).unwrap_err().to_string();
        assert!(e.contains("'uniprot' is not one"), "{e}");
    }
}
