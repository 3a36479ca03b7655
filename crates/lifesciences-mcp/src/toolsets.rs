//! Toolsets: the five databases (and the crossing tool, always served), chosen with
//! `--toolsets` or `LIFESCIENCES_TOOLSETS`. Some clients pass only the first tools of a
//! long list to the model (Cursor: 40), so a user can serve fewer.

use std::collections::BTreeSet;

use lifesciences_core::ConfigError;

use crate::servers::Toolset;

/// The toolsets a value of `--toolsets` names: comma- or space-separated, case-insensitive;
/// `all` or nothing means every one.
pub(crate) fn parse(raw: Option<&str>) -> Result<BTreeSet<Toolset>, ConfigError> {
    let Some(raw) = raw.map(str::trim).filter(|r| !r.is_empty()) else {
        return Ok(Toolset::ALL.iter().copied().collect());
    };
    let mut chosen = BTreeSet::new();
    for word in raw
        .split([',', ' '])
        .map(str::trim)
        .filter(|w| !w.is_empty())
    {
        let word = word.to_ascii_lowercase();
        if word == "all" {
            chosen.extend(Toolset::ALL.iter().copied());
            continue;
        }
        match Toolset::ALL.iter().copied().find(|t| t.name() == word) {
            Some(t) => {
                chosen.insert(t);
            }
            None => {
                return Err(ConfigError::InvalidVar {
                    var: lifesciences_core::cli::TOOLSETS_VAR.to_owned(),
                    value: raw.to_owned(),
                    expected: format!(
                        "toolsets among {} (comma-separated), or all; '{word}' is not one",
                        Toolset::NAMES.join(", ")
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
        let every = Toolset::ALL.len();
        assert_eq!(parse(None).unwrap().len(), every);
        assert_eq!(parse(Some(" ")).unwrap().len(), every);
        assert_eq!(
            parse(Some("Ensembl, igvf"))
                .unwrap()
                .into_iter()
                .collect::<Vec<_>>(),
            [Toolset::Ensembl, Toolset::Igvf]
        );
        assert_eq!(parse(Some("all")).unwrap().len(), every);
        let e = parse(Some("string,nosuchdb")).unwrap_err().to_string();
        assert!(e.contains("'nosuchdb' is not one"), "{e}");
        assert!(e.contains(&Toolset::NAMES.join(", ")), "{e}");
    }
}
