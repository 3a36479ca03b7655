//! Ensembl stable identifiers (docs/design.md, *Identifiers*): `ENS` + a species
//! prefix + a feature letter (`G` gene, `T` transcript, `P` protein, `E` exon) + 11
//! digits, with an optional `.version`. Parsed once at the edge into a canonical form:
//! upper case, unversioned.

use lifesciences_core::ApiError;

/// What an Ensembl stable ID names, from its feature letter.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Feature {
    Gene,
    Transcript,
    Protein,
    Exon,
    /// Another feature letter (e.g. `R` regulatory feature).
    Other,
}

impl Feature {
    fn from_letter(letter: char) -> Self {
        match letter {
            'G' => Self::Gene,
            'T' => Self::Transcript,
            'P' => Self::Protein,
            'E' => Self::Exon,
            _ => Self::Other,
        }
    }
}

/// A well-formed Ensembl stable ID.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct StableId {
    /// Upper case, without version: `ENSG00000141510`.
    pub id: String,
    /// What it names.
    pub feature: Feature,
}

impl StableId {
    /// The species code between `ENS` and the feature letter: empty for human
    /// (`ENSG…`), `MUS` for mouse, `GAL` for chicken (`ENSGALG…`, whose first letter
    /// after `ENS` is a `G` too).
    pub(crate) fn species_code(&self) -> &str {
        self.id
            .get(3..self.id.len().saturating_sub(12))
            .unwrap_or_default()
    }
}

/// How a string relates to the stable-ID form.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Parsed {
    /// A well-formed stable ID.
    Id(StableId),
    /// Not one, but written like a try at one (`ENS…` with digits), for a hint that
    /// describes the form. Never taken for an ID: a tool that also takes names reads it
    /// as a name.
    Malformed,
    /// Not an Ensembl ID at all (a symbol such as `ENSA`, free text, another database's
    /// ID).
    NotEnsembl,
}

/// Parse a stable ID as a user or the upstream wrote it: surrounding spaces, any case
/// and a numeric `.version` are accepted; anything else is no ID. The form is
/// `ENS`, a species code (letters, none for human), the feature letter, 11 digits and
/// an optional `.version` of digits, matched on the whole string.
pub(crate) fn parse(raw: &str) -> Parsed {
    let upper = raw.trim().to_ascii_uppercase();
    if !upper.starts_with("ENS") || !upper.bytes().any(|b| b.is_ascii_digit()) {
        return Parsed::NotEnsembl;
    }
    let unversioned = match upper.split_once('.') {
        Some((id, version))
            if !version.is_empty() && version.bytes().all(|b| b.is_ascii_digit()) =>
        {
            id
        }
        Some(_) => return Parsed::Malformed,
        None => upper.as_str(),
    };
    let digits_at = unversioned
        .find(|c: char| c.is_ascii_digit())
        .unwrap_or(unversioned.len());
    let (prefix, digits) = unversioned.split_at(digits_at);
    let well_formed = prefix.len() > 3
        && prefix.bytes().all(|b| b.is_ascii_uppercase())
        && digits.len() == 11
        && digits.bytes().all(|b| b.is_ascii_digit());
    match prefix.chars().last() {
        Some(letter) if well_formed => Parsed::Id(StableId {
            id: unversioned.to_owned(),
            feature: Feature::from_letter(letter),
        }),
        _ => Parsed::Malformed,
    }
}

/// The canonical form of an ID the upstream sent (e.g. `canonical_transcript`
/// `ENST00000311936.8` → `ENST00000311936`), or `None` when it is not a stable ID.
pub(crate) fn canonical(raw: &str) -> Option<String> {
    match parse(raw) {
        Parsed::Id(id) => Some(id.id),
        _ => None,
    }
}

/// The example each strict tool shows in its hints.
const GENE_EXAMPLE: &str = "ENSG00000141510";
const TRANSCRIPT_EXAMPLE: &str = "ENST00000269305";

/// The argument of `ensembl_get_gene`, or why it is not a gene ID.
pub(crate) fn gene_id(raw: &str) -> Result<String, ApiError> {
    match parse(raw) {
        Parsed::Id(StableId {
            id,
            feature: Feature::Gene,
        }) => Ok(id),
        Parsed::Id(StableId {
            id,
            feature: Feature::Transcript,
        }) => Err(ApiError::unresolved(
            format!("'{raw}' is an Ensembl transcript ID, not a gene ID."),
            format!(
                "Call ensembl_get_transcript with {{\"transcript_id\": \"{id}\"}}; its parent_gene is the gene ID."
            ),
            raw,
        )),
        Parsed::Id(StableId { feature, .. }) => Err(ApiError::unresolved(
            format!(
                "'{raw}' is an Ensembl {} ID; ensembl_get_gene takes gene IDs (ENSG…).",
                feature_name(feature)
            ),
            "Find the gene with ensembl_search_genes (by its symbol or name), then pass its \
             gene ID, e.g. 'ENSG00000141510'.",
            raw,
        )),
        Parsed::Malformed => Err(malformed(raw, "gene", 'G', GENE_EXAMPLE)),
        Parsed::NotEnsembl => Err(ApiError::unresolved(
            format!(
                "'{raw}' is not an Ensembl gene ID; ensembl_get_gene takes stable IDs such as '{GENE_EXAMPLE}'."
            ),
            format!(
                "Call ensembl_search_genes with {{\"query\": \"{}\"}} to find the gene's Ensembl ID, then call ensembl_get_gene with it.",
                raw.trim().replace('"', "")
            ),
            raw,
        )),
    }
}

/// The argument of `ensembl_get_transcript`, or why it is not a transcript ID.
pub(crate) fn transcript_id(raw: &str) -> Result<String, ApiError> {
    match parse(raw) {
        Parsed::Id(StableId {
            id,
            feature: Feature::Transcript,
        }) => Ok(id),
        Parsed::Id(StableId {
            id,
            feature: Feature::Gene,
        }) => Err(ApiError::unresolved(
            format!("'{raw}' is an Ensembl gene ID, not a transcript ID."),
            format!(
                "Call ensembl_get_gene with {{\"ensembl_id\": \"{id}\"}}; its canonical_transcript is a transcript ID for this tool."
            ),
            raw,
        )),
        Parsed::Id(StableId { feature, .. }) => Err(ApiError::unresolved(
            format!(
                "'{raw}' is an Ensembl {} ID; ensembl_get_transcript takes transcript IDs (ENST…).",
                feature_name(feature)
            ),
            "Look up the gene with ensembl_get_gene (or find it with ensembl_search_genes) and \
             pass its canonical_transcript, e.g. 'ENST00000269305'.",
            raw,
        )),
        Parsed::Malformed => Err(malformed(raw, "transcript", 'T', TRANSCRIPT_EXAMPLE)),
        Parsed::NotEnsembl => Err(ApiError::unresolved(
            format!(
                "'{raw}' is not an Ensembl transcript ID; ensembl_get_transcript takes stable IDs such as '{TRANSCRIPT_EXAMPLE}'."
            ),
            format!(
                "Find the gene with ensembl_search_genes {{\"query\": \"{}\"}}, fetch it with ensembl_get_gene, and pass its canonical_transcript here.",
                raw.trim().replace('"', "")
            ),
            raw,
        )),
    }
}

fn feature_name(feature: Feature) -> &'static str {
    match feature {
        Feature::Gene => "gene",
        Feature::Transcript => "transcript",
        Feature::Protein => "protein (translation)",
        Feature::Exon => "exon",
        Feature::Other => "feature",
    }
}

fn malformed(raw: &str, what: &str, letter: char, example: &str) -> ApiError {
    ApiError::unresolved(
        format!("'{raw}' is not a well-formed Ensembl {what} ID."),
        format!(
            "Ensembl {what} IDs are 'ENS', an optional species code, '{letter}' and 11 digits, \
             optionally with a version (e.g. '{example}' or '{example}.1'); check the ID, or \
             find it with ensembl_search_genes."
        ),
        raw,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use lifesciences_core::ErrorCode;

    fn id(s: &str, feature: Feature) -> Parsed {
        Parsed::Id(StableId {
            id: s.to_owned(),
            feature,
        })
    }

    #[test]
    fn versions_case_and_spaces_are_forgiven() {
        assert_eq!(
            parse("ENSG00000141510"),
            id("ENSG00000141510", Feature::Gene)
        );
        assert_eq!(
            parse(" ensg00000141510.17 "),
            id("ENSG00000141510", Feature::Gene)
        );
        assert_eq!(
            parse("ENSMUSG00000059552"),
            id("ENSMUSG00000059552", Feature::Gene)
        );
        assert_eq!(
            parse("ENSMUST00000108658.8"),
            id("ENSMUST00000108658", Feature::Transcript)
        );
        assert_eq!(
            parse("ENSP00000256078"),
            id("ENSP00000256078", Feature::Protein)
        );
        // The chicken prefix ends in G, its transcripts in T: the last letter decides.
        assert_eq!(
            parse("ENSGALT00000000001"),
            id("ENSGALT00000000001", Feature::Transcript)
        );
    }

    #[test]
    fn near_misses_are_malformed_and_symbols_are_not_ensembl() {
        for bad in [
            "ENSG0000014151",
            "ENSG000001415100",
            "ENSG00000141510.",
            "ENSG00000141510.v2",
            "ENS00000141510",
            "ENSG-00000141510",
        ] {
            assert_eq!(parse(bad), Parsed::Malformed, "{bad}");
        }
        // ENSA (endosulfine alpha) is a human gene symbol, not a broken ID.
        for other in ["BRCA1", "TP53", "P04637", "HGNC:11998", "", "ENSA", "Ensa"] {
            assert_eq!(parse(other), Parsed::NotEnsembl, "{other}");
        }
        assert_eq!(
            canonical("ENST00000311936.8").as_deref(),
            Some("ENST00000311936")
        );
        assert_eq!(canonical("KRAS-202"), None);
    }

    #[test]
    fn the_species_code_is_what_stands_between_ens_and_the_feature_letter() {
        let code = |raw: &str| match parse(raw) {
            Parsed::Id(id) => id.species_code().to_owned(),
            other => panic!("{raw}: {other:?}"),
        };
        assert_eq!(code("ENSG00000141510.17"), "");
        assert_eq!(code("ENSMUSG00000059552"), "MUS");
        // Chicken's gene IDs start like a human gene's: only the code tells them apart.
        assert_eq!(code("ENSGALG00000000001"), "GAL");
    }

    #[test]
    fn each_tool_points_to_the_right_one() {
        let e = gene_id("BRCA1").unwrap_err().to_envelope().error;
        assert_eq!(e.code, ErrorCode::UnresolvedEntity);
        assert!(e.recovery_hint.contains("ensembl_search_genes"));
        assert!(e.recovery_hint.contains("\"query\": \"BRCA1\""));
        assert_eq!(e.invalid_input.as_deref(), Some("BRCA1"));

        // A symbol that starts like an ID gets the same pointer, not a lesson in the form.
        let e = gene_id("ENSA").unwrap_err().to_envelope().error;
        assert!(
            e.recovery_hint.contains("\"query\": \"ENSA\""),
            "{}",
            e.recovery_hint
        );

        let e = gene_id("ENST00000269305.4")
            .unwrap_err()
            .to_envelope()
            .error;
        assert!(e.recovery_hint.contains("ensembl_get_transcript"));
        assert!(e.recovery_hint.contains("ENST00000269305\""));

        let e = transcript_id("ENSG00000141510")
            .unwrap_err()
            .to_envelope()
            .error;
        assert_eq!(e.code, ErrorCode::UnresolvedEntity);
        assert!(e.recovery_hint.contains("ensembl_get_gene"));

        let e = gene_id("ENSP00000256078").unwrap_err().to_envelope().error;
        assert!(e.message.contains("protein"));

        let e = transcript_id("ENST123").unwrap_err().to_envelope().error;
        assert!(e.recovery_hint.contains("11 digits"), "{}", e.recovery_hint);

        assert_eq!(gene_id("ensg00000141510.17").unwrap(), "ENSG00000141510");
        assert_eq!(transcript_id("ENST00000311936").unwrap(), "ENST00000311936");
    }
}
