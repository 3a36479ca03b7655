//! `ChemblId`: the strict identifier form the tools accept (`CHEMBL:25`), parsed at the edge
//! with a message that names the corrected form when one is evident (docs/design.md,
//! "Identifiers").

use std::fmt;
use std::str::FromStr;

use lifesciences_core::ApiError;

/// A ChEMBL molecule identifier, accepted only as the CURIE `CHEMBL:<digits>`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) struct ChemblId {
    digits: String,
}

impl ChemblId {
    /// The form ChEMBL's web services use, e.g. `CHEMBL25`.
    pub(crate) fn upstream(&self) -> String {
        format!("CHEMBL{}", self.digits)
    }

    /// The CURIE this server returns and accepts, e.g. `CHEMBL:25`.
    pub(crate) fn curie(&self) -> String {
        format!("CHEMBL:{}", self.digits)
    }

    /// The CURIE of an upstream ID such as `CHEMBL25` (as found in upstream answers).
    pub(crate) fn curie_of_upstream(upstream: &str) -> String {
        match (upstream.get(..6), upstream.get(6..)) {
            (Some(prefix), Some(rest)) if prefix.eq_ignore_ascii_case("CHEMBL") => {
                format!("CHEMBL:{rest}")
            }
            _ => upstream.to_owned(),
        }
    }
}

impl fmt::Display for ChemblId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "CHEMBL:{}", self.digits)
    }
}

fn all_digits(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit())
}

fn has_leading_zero(digits: &str) -> bool {
    digits.len() > 1 && digits.starts_with('0')
}

impl FromStr for ChemblId {
    type Err = ApiError;

    /// `CHEMBL:25` (surrounding spaces ignored). Spellings whose meaning is evident
    /// (`CHEMBL25`, `chembl:25`, `ChEMBL 25`, `CHEMBL:025`) are `UNRESOLVED_ENTITY` with
    /// the exact CURIE in the hint; anything else points to the search tool.
    fn from_str(raw: &str) -> Result<Self, ApiError> {
        let trimmed = raw.trim();
        if let Some(digits) = trimmed.strip_prefix("CHEMBL:")
            && all_digits(digits)
            && !has_leading_zero(digits)
        {
            return Ok(Self {
                digits: digits.to_owned(),
            });
        }
        // "CHEMBL25", "chembl:25", "ChEMBL_25", "CHEMBL 25": the number is evident (one
        // separator at most: "CHEMBL:-1" is not CHEMBL:1).
        let evident = trimmed
            .get(..6)
            .filter(|p| p.eq_ignore_ascii_case("CHEMBL"))
            .and_then(|_| trimmed.get(6..))
            .map(|rest| rest.strip_prefix([':', '_', ' ', '-']).unwrap_or(rest))
            .filter(|digits| all_digits(digits));
        if let Some(digits) = evident {
            // ChEMBL numbers its IDs without leading zeros: "CHEMBL:025" means CHEMBL:25.
            let digits = match digits.trim_start_matches('0') {
                "" => "0",
                rest => rest,
            };
            return Err(ApiError::unresolved(
                format!(
                    "'{raw}' is not in the form this tool accepts: ChEMBL identifiers are \
                     CURIEs such as 'CHEMBL:{digits}'."
                ),
                format!("Use format 'CHEMBL:{digits}'"),
                raw,
            ));
        }
        Err(ApiError::unresolved(
            format!(
                "'{raw}' is not a ChEMBL identifier: this tool accepts only CURIEs such as \
                 'CHEMBL:25'."
            ),
            "Find the compound by name with chembl_search_compounds, then pass its id \
             (e.g. 'CHEMBL:25').",
            raw,
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use lifesciences_core::ErrorCode;

    #[test]
    fn the_curie_is_accepted() {
        let id: ChemblId = "CHEMBL:25".parse().unwrap();
        assert_eq!(id.upstream(), "CHEMBL25");
        assert_eq!(id.curie(), "CHEMBL:25");
        assert_eq!(id.to_string(), "CHEMBL:25");
        assert_eq!(
            " CHEMBL:941 ".parse::<ChemblId>().unwrap().curie(),
            "CHEMBL:941"
        );
    }

    #[test]
    fn evident_spellings_get_the_exact_curie_in_the_hint() {
        for raw in [
            "CHEMBL123",
            "chembl:123",
            "ChEMBL 123",
            "CHEMBL_123",
            "chembl123",
        ] {
            let body = raw.parse::<ChemblId>().unwrap_err().to_envelope().error;
            assert_eq!(body.code, ErrorCode::UnresolvedEntity, "{raw}");
            assert_eq!(body.recovery_hint, "Use format 'CHEMBL:123'", "{raw}");
            assert_eq!(body.invalid_input.as_deref(), Some(raw));
        }
    }

    #[test]
    fn leading_zeros_get_the_curie_without_them() {
        for (raw, hint) in [
            ("CHEMBL:025", "Use format 'CHEMBL:25'"),
            ("CHEMBL:0025", "Use format 'CHEMBL:25'"),
            ("CHEMBL025", "Use format 'CHEMBL:25'"),
            ("CHEMBL:00", "Use format 'CHEMBL:0'"),
        ] {
            let body = raw.parse::<ChemblId>().unwrap_err().to_envelope().error;
            assert_eq!(body.code, ErrorCode::UnresolvedEntity, "{raw}");
            assert_eq!(body.recovery_hint, hint, "{raw}");
            assert_eq!(body.invalid_input.as_deref(), Some(raw));
        }
        assert_eq!(
            "CHEMBL:0".parse::<ChemblId>().unwrap().upstream(),
            "CHEMBL0"
        );
        assert_eq!(
            "CHEMBL:10".parse::<ChemblId>().unwrap().upstream(),
            "CHEMBL10"
        );
    }

    #[test]
    fn other_input_points_to_the_search_tool() {
        for raw in [
            "aspirin",
            "",
            "CHEMBL:",
            "CHEMBL:12a",
            "25",
            "CHEMBL:-1",
            "é",
        ] {
            let body = raw.parse::<ChemblId>().unwrap_err().to_envelope().error;
            assert_eq!(body.code, ErrorCode::UnresolvedEntity, "{raw}");
            assert!(
                body.recovery_hint.contains("chembl_search_compounds"),
                "{raw}: {}",
                body.recovery_hint
            );
        }
    }

    #[test]
    fn upstream_ids_become_curies() {
        assert_eq!(ChemblId::curie_of_upstream("CHEMBL941"), "CHEMBL:941");
        assert_eq!(ChemblId::curie_of_upstream("chembl1"), "CHEMBL:1");
        assert_eq!(ChemblId::curie_of_upstream("X"), "X");
    }
}
