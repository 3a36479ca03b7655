//! Ensembl REST's refusals, read once where the client knows them. Ensembl answers an
//! application error with HTTP 400 and `{"error": "<message>"}` (`Controller/ReturnError.pm`
//! in Ensembl/ensembl-rest), and only the message tells one error from another: an
//! unknown ID, an unknown species, or a value it does not take. The client's methods
//! return that meaning ([`Reply`] with a [`Refusal`] or [`UnknownSpecies`]); tools match
//! on it and never read a status or a body.

use lifesciences_core::{ApiError, Reply};

/// Why Ensembl refused a request for a place or for variants of a species.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Refusal {
    /// Ensembl does not know the species in the path: `Can not find internal name for
    /// species 'x'`, thrown by the Ensembl core API's registry
    /// (`Bio::EnsEMBL::Registry::get_DBAdaptor` in Ensembl/ensembl).
    UnknownSpecies,
    /// Any other refusal, in Ensembl's own words: the `error` of its JSON body as sent,
    /// else the body's text, trimmed (empty when Ensembl gave none).
    Other(String),
}

/// The one refusal of a request for a named record of a species (a variant, a gene's
/// homologues) that is the caller's to mend: the species. The record itself unknown is
/// [`Reply::Missing`]; any other refusal stays a failure.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct UnknownSpecies;

impl Refusal {
    /// The body of an Ensembl 400 read: the species refused, or Ensembl's words.
    pub(crate) fn read(body: &str) -> Self {
        let body = body.trim();
        let words = serde_json::from_str::<serde_json::Value>(body)
            .ok()
            .and_then(|v| v.get("error").and_then(|m| m.as_str()).map(str::to_owned))
            .unwrap_or_else(|| body.to_owned());
        if words
            .to_ascii_lowercase()
            .contains("internal name for species")
        {
            Self::UnknownSpecies
        } else {
            Self::Other(words)
        }
    }

    /// The refusal says Ensembl has no object with the ID or name asked for: `ID 'X' not
    /// found` (`find_object` in `Model/Lookup.pm`), `No valid lookup found for ID X`
    /// (`Controller/Lookup.pm`), `rs… not found for homo_sapiens` (variation), `No object
    /// found …`.
    fn names_unknown_record(&self) -> bool {
        match self {
            Self::UnknownSpecies => false,
            Self::Other(words) => {
                let words = words.to_ascii_lowercase();
                words.contains("not found")
                    || words.contains("no valid lookup found")
                    || words.contains("no object found")
            }
        }
    }

    /// [`names_unknown_record`](Self::names_unknown_record), or `Cannot find …`, the
    /// words of a homology request for a symbol no gene of the species has.
    pub(super) fn names_unknown_symbol(&self) -> bool {
        self.names_unknown_record()
            || matches!(self, Self::Other(words) if words.to_ascii_lowercase().contains("cannot find"))
    }
}

/// The refusal an error carries: `Some` only for an Ensembl 400.
fn refusal_of(e: &ApiError) -> Option<Refusal> {
    (e.upstream_status() == Some(400)).then(|| Refusal::read(e.upstream_body().unwrap_or("")))
}

/// A request for a place or for variants of a species: every 400 is a refusal, the
/// species or Ensembl's words; every other failure stays one.
pub(super) fn placed<T>(result: Result<T, ApiError>) -> Result<Reply<T, Refusal>, ApiError> {
    Ok(Reply::read(result, &[], &[400])?.map_refusal(|body| Refusal::read(&body)))
}

/// A request for a record by its ID: a 400 naming an unknown record is `None`; every
/// other failure, other 400s included, stays one.
pub(super) fn found<T>(result: Result<T, ApiError>) -> Result<Option<T>, ApiError> {
    match result {
        Ok(record) => Ok(Some(record)),
        Err(e) if refusal_of(&e).is_some_and(|r| r.names_unknown_record()) => Ok(None),
        Err(e) => Err(e),
    }
}

/// A request for a named record of a species: the species refused, the record missing
/// (a 400 of which `unknown` says so), or a failure, other 400s included.
pub(super) fn named<T>(
    result: Result<T, ApiError>,
    unknown: impl FnOnce(&Refusal) -> bool,
) -> Result<Reply<T, UnknownSpecies>, ApiError> {
    match result {
        Ok(record) => Ok(Reply::Found(record)),
        Err(e) => match refusal_of(&e) {
            Some(Refusal::UnknownSpecies) => Ok(Reply::Refused(UnknownSpecies)),
            Some(refusal) if unknown(&refusal) => Ok(Reply::Missing),
            _ => Err(e),
        },
    }
}

/// [`named`] where the record is missing when Ensembl says it has no object by that ID
/// or name.
pub(super) fn named_record<T>(
    result: Result<T, ApiError>,
) -> Result<Reply<T, UnknownSpecies>, ApiError> {
    named(result, Refusal::names_unknown_record)
}

#[cfg(test)]
mod tests {
    use super::*;
    use lifesciences_core::UpstreamFailure;

    fn status(status: u16, body: &str) -> Result<u8, ApiError> {
        Err(ApiError::Upstream {
            upstream: "Ensembl".into(),
            failure: UpstreamFailure::Status {
                status,
                body: body.into(),
                retry_after: None,
            },
            attempts: 1,
        })
    }

    // Ensembl's words, as its source and its test suite write them (Ensembl/ensembl-rest
    // `t/*.t`, Ensembl/ensembl `Bio::EnsEMBL::Registry`).
    const UNKNOWN_SPECIES: &str = r#"{"error":"Can not find internal name for species 'martian'"}"#;
    const UNKNOWN_ID: &str = r#"{"error":"ID 'ENSG99999999999' not found"}"#;
    const NO_VALID_LOOKUP: &str = r#"{"error":"No valid lookup found for ID ENSX1"}"#;
    const UNKNOWN_VARIANT: &str = r#"{"error":"rs999999999999 not found for homo_sapiens"}"#;
    const NO_SLICE: &str = r#"{"error":"Could not get a Slice object for 99:1-1"}"#;
    const EXPAND: &str = r#"{"error":"Expand option only available for Genes and Transcripts"}"#;

    #[test]
    fn a_400_about_the_species_reads_as_the_unknown_species() {
        assert_eq!(Refusal::read(UNKNOWN_SPECIES), Refusal::UnknownSpecies);
        // In plain text too, and whatever the case.
        assert_eq!(
            Refusal::read("can not find Internal Name for species 'x'\n"),
            Refusal::UnknownSpecies
        );
        assert_eq!(
            placed(status(400, UNKNOWN_SPECIES)).unwrap(),
            Reply::Refused(Refusal::UnknownSpecies)
        );
        assert_eq!(
            named_record(status(400, UNKNOWN_SPECIES)).unwrap(),
            Reply::Refused(UnknownSpecies)
        );
    }

    #[test]
    fn a_refusal_keeps_ensembl_s_own_words() {
        assert_eq!(
            placed(status(400, NO_SLICE)).unwrap(),
            Reply::Refused(Refusal::Other(
                "Could not get a Slice object for 99:1-1".into()
            ))
        );
        // A body that is not JSON is the words itself; an empty one says nothing.
        assert_eq!(
            Refusal::read("  WARNING: Unable to parse HGVS notation \n"),
            Refusal::Other("WARNING: Unable to parse HGVS notation".into())
        );
        assert_eq!(Refusal::read(""), Refusal::Other(String::new()));
        assert_eq!(
            Refusal::read(r#"{"other": 1}"#),
            Refusal::Other(r#"{"other": 1}"#.into())
        );
        // A place is not a record: its "not found" is a refusal in words, never missing.
        assert_eq!(
            placed(status(400, UNKNOWN_ID)).unwrap(),
            Reply::Refused(Refusal::Other("ID 'ENSG99999999999' not found".into()))
        );
    }

    #[test]
    fn only_a_400_naming_an_unknown_record_is_missing() {
        assert_eq!(found(status(400, UNKNOWN_ID)).unwrap(), None);
        assert_eq!(found(status(400, NO_VALID_LOOKUP)).unwrap(), None);
        assert_eq!(found(Ok(7)).unwrap(), Some(7));
        assert_eq!(
            named_record(status(400, UNKNOWN_VARIANT)).unwrap(),
            Reply::Missing
        );
        // Another 400, a 404 (an unknown path) or a 5xx saying "not found" stay failures,
        // the error untouched.
        for (code, body) in [
            (400, EXPAND),
            (404, r#"{"error":"page not found"}"#),
            (503, "ID not found"),
        ] {
            assert_eq!(
                found(status(code, body)).unwrap_err().upstream_status(),
                Some(code)
            );
            assert_eq!(
                named_record(status(code, body))
                    .unwrap_err()
                    .upstream_body(),
                Some(body)
            );
        }
        // An unknown species is never an unknown record, nor the other way round.
        assert_eq!(
            found(status(400, UNKNOWN_SPECIES))
                .unwrap_err()
                .upstream_status(),
            Some(400)
        );
    }

    #[test]
    fn a_symbol_no_gene_has_is_missing_only_where_asked() {
        // Constructed: a refusal in the words the homology-by-symbol request has always
        // been read by ("cannot find").
        let cannot = r#"{"error":"Cannot find NOPE"}"#;
        assert_eq!(
            named(status(400, cannot), Refusal::names_unknown_symbol).unwrap(),
            Reply::Missing
        );
        assert!(named_record(status(400, cannot)).is_err());
    }

    #[test]
    fn failures_stay_failures() {
        for code in [500, 503, 429] {
            assert!(placed(status(code, UNKNOWN_SPECIES)).is_err(), "{code}");
            assert!(
                named_record(status(code, UNKNOWN_SPECIES)).is_err(),
                "{code}"
            );
            assert!(found(status(code, UNKNOWN_ID)).is_err(), "{code}");
        }
        assert_eq!(placed(Ok(1)).unwrap(), Reply::Found(1));
    }
}
