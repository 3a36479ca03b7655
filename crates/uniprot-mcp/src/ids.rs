//! The identifier forms the UniProt tools accept, parsed once at the edge: a protein
//! ([`ProteinRef`]: an accession, an isoform, a `UniProt:` CURIE, an entry name) and an
//! organism ([`Organism`]: an NCBI taxon or a name).
//!
//! An accession is what UniProt publishes as its pattern
//! (<https://www.uniprot.org/help/accession_numbers>):
//! `[OPQ][0-9][A-Z0-9]{3}[0-9]|[A-NR-Z][0-9]([A-Z][A-Z0-9]{2}[0-9]){1,2}`, 6 or 10
//! characters; an isoform adds `-n` (`P05067-4`). UniProt upper-cases what it is sent, so
//! any case is read here too. An entry name is `<mnemonic>_<species code>` (`P53_HUMAN`;
//! unreviewed entries use their accession as the mnemonic, `A8Y1C3_CAEBR`).

use std::borrow::Cow;
use std::fmt;

use lifesciences_core::ApiError;
use lifesciences_core::schemars::{self, JsonSchema};
use serde::{Deserialize, Deserializer};

/// The forms a protein may be given in, for messages.
pub(crate) const ACCEPTED_FORMS: &str = "a UniProt accession (P05067), an isoform \
    (P05067-4), a CURIE (UniProt:P05067 or UniProtKB:P05067) or an entry name (A4_HUMAN)";

/// CURIE prefixes read in front of an accession, compared without regard to case.
const CURIE_PREFIXES: [&str; 2] = ["uniprotkb:", "uniprot:"];

/// A UniProtKB accession, upper case, as published (6 or 10 characters).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) struct Accession(String);

impl Accession {
    /// `raw` when it is an accession by UniProt's published pattern (any case).
    pub(crate) fn parse(raw: &str) -> Option<Self> {
        let upper = raw.trim().to_ascii_uppercase();
        is_accession(upper.as_bytes()).then_some(Self(upper))
    }

    pub(crate) fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for Accession {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// Whether `s` (upper case) matches
/// `[OPQ][0-9][A-Z0-9]{3}[0-9]|[A-NR-Z][0-9]([A-Z][A-Z0-9]{2}[0-9]){1,2}`.
fn is_accession(s: &[u8]) -> bool {
    let digit = |b: &u8| b.is_ascii_digit();
    let upper = |b: &u8| b.is_ascii_uppercase();
    let alnum = |b: &u8| b.is_ascii_digit() || b.is_ascii_uppercase();
    match s {
        [b'O' | b'P' | b'Q', rest @ ..] if rest.len() == 5 => {
            digit(&rest[0]) && rest[1..4].iter().all(alnum) && digit(&rest[4])
        }
        [first, second, blocks @ ..] if upper(first) && !matches!(first, b'O' | b'P' | b'Q') => {
            digit(second)
                && matches!(blocks.len(), 4 | 8)
                && blocks
                    .chunks(4)
                    .all(|b| upper(&b[0]) && alnum(&b[1]) && alnum(&b[2]) && digit(&b[3]))
        }
        _ => false,
    }
}

/// A protein as a caller names it.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) enum ProteinRef {
    /// An entry by its accession (canonical sequence).
    Accession(Accession),
    /// One isoform of an entry: `P05067-4` is isoform 4 of `P05067`.
    Isoform {
        /// The entry's accession.
        entry: Accession,
        /// The isoform's number (`-n`).
        number: u32,
    },
    /// An entry by its entry name (`P53_HUMAN`), upper case.
    EntryName(String),
}

impl ProteinRef {
    /// Read what a caller sent. A gene symbol, an Ensembl or RefSeq ID, a versioned
    /// accession or anything else is `UNRESOLVED_ENTITY` naming the accepted forms and,
    /// where it is evident, the tool that takes what was sent.
    pub(crate) fn parse(raw: &str) -> Result<Self, ApiError> {
        let trimmed = raw.trim();
        let bare = CURIE_PREFIXES
            .iter()
            .find_map(|p| {
                trimmed
                    .get(..p.len())
                    .filter(|head| head.eq_ignore_ascii_case(p))
                    .and_then(|_| trimmed.get(p.len()..))
            })
            .unwrap_or(trimmed)
            .trim();
        if let Some(accession) = Accession::parse(bare) {
            return Ok(Self::Accession(accession));
        }
        if let Some((entry, n)) = bare.rsplit_once('-')
            && let Some(entry) = Accession::parse(entry)
            && let Some(number) = isoform_number(n)
        {
            return Ok(Self::Isoform { entry, number });
        }
        if let Some(name) = entry_name(bare) {
            return Ok(Self::EntryName(name));
        }
        Err(unresolved(raw, bare))
    }

    /// The entry this names, when it names it by accession (an isoform's entry too).
    pub(crate) fn accession(&self) -> Option<&Accession> {
        match self {
            Self::Accession(a) | Self::Isoform { entry: a, .. } => Some(a),
            Self::EntryName(_) => None,
        }
    }

    /// What UniProt's entry path takes for this protein: the accession of its entry
    /// (an isoform's canonical entry) or the entry name.
    pub(crate) fn entry_key(&self) -> &str {
        match self {
            Self::Accession(a) | Self::Isoform { entry: a, .. } => a.as_str(),
            Self::EntryName(name) => name,
        }
    }
}

impl fmt::Display for ProteinRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Accession(a) => write!(f, "{a}"),
            Self::Isoform { entry, number } => write!(f, "{entry}-{number}"),
            Self::EntryName(name) => f.write_str(name),
        }
    }
}

/// An isoform number: 1 or more, no leading zero.
fn isoform_number(s: &str) -> Option<u32> {
    let digits = !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()) && !s.starts_with('0');
    digits.then(|| s.parse().ok()).flatten()
}

/// `s` upper-cased when it has the shape of an entry name: 1–10 letters or digits, `_`,
/// then a species code of 1–5 letters or digits.
fn entry_name(s: &str) -> Option<String> {
    let (mnemonic, species) = s.split_once('_')?;
    let word = |w: &str, max: usize| {
        (1..=max).contains(&w.len()) && w.bytes().all(|b| b.is_ascii_alphanumeric())
    };
    (word(mnemonic, 10) && word(species, 5)).then(|| s.to_ascii_uppercase())
}

/// `UNRESOLVED_ENTITY` for `raw` (`bare` without its CURIE prefix), with the hint that
/// fits what it looks like.
fn unresolved(raw: &str, bare: &str) -> ApiError {
    let upper = bare.to_ascii_uppercase();
    let hint = if let Some((base, version)) = upper.split_once('.')
        && Accession::parse(base).is_some()
        && version.bytes().all(|b| b.is_ascii_digit())
    {
        format!(
            "'{bare}' is a versioned accession (an entry's history, not an entry): use \
             '{base}'."
        )
    } else if upper.starts_with("ENS") {
        format!(
            "'{bare}' looks like an Ensembl ID: map it to UniProt with uniprot_map_ids, e.g. \
             {{\"ids\": [\"{bare}\"], \"from\": \"ensembl\"}} (ensembl_protein or \
             ensembl_transcript for ENSP or ENST IDs)."
        )
    } else if ["NP_", "XP_", "NM_", "XM_"]
        .iter()
        .any(|p| upper.starts_with(p))
    {
        format!("'{bare}' looks like a RefSeq ID: map it to UniProt with uniprot_map_ids.")
    } else if !bare.is_empty()
        && bare.len() <= 20
        && bare.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
    {
        format!(
            "If '{bare}' is a gene symbol, find its entry with uniprot_search_proteins, e.g. \
             {{\"gene\": \"{bare}\", \"organism\": \"human\"}}."
        )
    } else {
        "Find the protein with uniprot_search_proteins and use the accession it returns.".to_owned()
    };
    ApiError::unresolved(
        format!("'{raw}' is not a UniProt protein identifier: give {ACCEPTED_FORMS}."),
        hint,
        raw,
    )
}

/// An organism to search in: an NCBI taxon (exact, `organism_id:`) or a name UniProt
/// matches against its organism names (`organism_name:`).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) enum Organism {
    /// An NCBI taxonomy ID.
    Taxon(u64),
    /// A name as given, trimmed (`Saccharomyces cerevisiae`, `yeast`).
    Name(String),
}

/// Common names read as their NCBI taxon, so that `human` and `9606` ask the same: the
/// species UniProt files under these taxa (help/query-fields, `organism_id:9606`).
const COMMON_NAMES: [(&[&str], u64); 6] = [
    (&["human", "homo sapiens", "h. sapiens"], 9606),
    (&["mouse", "mus musculus"], 10090),
    (&["rat", "rattus norvegicus"], 10116),
    (&["zebrafish", "danio rerio"], 7955),
    (
        &["fruit fly", "fly", "drosophila", "drosophila melanogaster"],
        7227,
    ),
    (&["c. elegans", "worm", "caenorhabditis elegans"], 6239),
];

impl Organism {
    /// Read an `organism` argument: a positive integer is a taxon; a common name of the
    /// list above becomes its taxon; any other name of letters, digits, spaces and
    /// `.-'()/` is searched as a name. Anything else is `INVALID_INPUT`.
    pub(crate) fn parse(raw: &str) -> Result<Self, ApiError> {
        let trimmed = raw.trim();
        if !trimmed.is_empty()
            && trimmed.bytes().all(|b| b.is_ascii_digit())
            && let Some(taxon) = trimmed.parse::<u64>().ok().filter(|n| *n > 0)
        {
            return Ok(Self::Taxon(taxon));
        }
        let lower = trimmed.to_ascii_lowercase().replace('_', " ");
        if let Some((_, taxon)) = COMMON_NAMES
            .iter()
            .find(|(names, _)| names.contains(&&*lower))
        {
            return Ok(Self::Taxon(*taxon));
        }
        let plain = trimmed.chars().count() >= 2
            && trimmed.chars().count() <= 100
            && trimmed
                .chars()
                .all(|c| c.is_alphanumeric() || " .-'()/".contains(c));
        if plain {
            return Ok(Self::Name(trimmed.to_owned()));
        }
        Err(ApiError::invalid_input(
            format!("'{raw}' is not an organism UniProt can search by."),
            "Give an NCBI taxon ID (9606 human, 10090 mouse, 10116 rat, 7955 zebrafish, 7227 \
             fruit fly, 6239 C. elegans) or an organism name such as 'Saccharomyces \
             cerevisiae'.",
            raw,
        ))
    }
}

/// An `organism` argument as sent: a number or a string, kept as text so that
/// [`Organism::parse`] (not serde) words the error. The schema says "integer or string".
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct OrganismArg(pub String);

impl<'de> Deserialize<'de> for OrganismArg {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        match serde_json::Value::deserialize(deserializer)? {
            serde_json::Value::Number(n) => Ok(Self(n.to_string())),
            serde_json::Value::String(s) => Ok(Self(s)),
            other => Err(serde::de::Error::invalid_type(
                serde::de::Unexpected::Other(&other.to_string()),
                &"an NCBI taxon ID such as 9606 or an organism name such as 'human'",
            )),
        }
    }
}

impl JsonSchema for OrganismArg {
    fn schema_name() -> Cow<'static, str> {
        "Organism".into()
    }

    fn inline_schema() -> bool {
        true
    }

    fn json_schema(_generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "type": ["integer", "string"],
            "examples": [9606, "human", "Saccharomyces cerevisiae"]
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use lifesciences_core::ErrorCode;

    #[test]
    fn accessions_follow_the_published_pattern_in_both_lengths() {
        // The recorded entries' accessions and secondary accessions, both families of
        // the pattern, 6 and 10 characters (help/accession_numbers gives A0A023GPI8).
        for ok in [
            "O00115",
            "P30542",
            "A8Y1C3",
            "P0DTR4",
            "Q96I24",
            "B2RD06",
            "A0A023GPI8",
            "p30542",
        ] {
            assert!(Accession::parse(ok).is_some(), "{ok}");
        }
        for bad in [
            "O0011",
            "O001155",
            "P3054A",
            "A0A023GPI",
            "A0A023GPI8X",
            "OA0115",
            "1P3054",
            "",
            "P30542-2",
            "P53_HUMAN",
            "A0A02-GPI8",
        ] {
            assert!(Accession::parse(bad).is_none(), "{bad}");
        }
        // The second family starts with a letter other than O, P, Q; O/P/Q take the first.
        assert!(Accession::parse("A0AAA0").is_some());
        assert!(Accession::parse("O0AAA0").is_some());
        assert!(Accession::parse("O0A0AA0").is_none());
    }

    #[test]
    fn every_accepted_form_is_read_and_upper_cased() {
        let acc = |s: &str| Accession::parse(s).unwrap();
        assert_eq!(
            ProteinRef::parse(" o00115 ").unwrap(),
            ProteinRef::Accession(acc("O00115"))
        );
        for curie in ["UniProt:P30542", "uniprotkb:P30542", "UNIPROT: P30542"] {
            assert_eq!(
                ProteinRef::parse(curie).unwrap(),
                ProteinRef::Accession(acc("P30542")),
                "{curie}"
            );
        }
        assert_eq!(
            ProteinRef::parse("UniProtKB:P05067-4").unwrap(),
            ProteinRef::Isoform {
                entry: acc("P05067"),
                number: 4
            }
        );
        assert_eq!(
            ProteinRef::parse("aa1r_human").unwrap(),
            ProteinRef::EntryName("AA1R_HUMAN".into())
        );
        assert_eq!(
            ProteinRef::parse("A8Y1C3_CAEBR").unwrap(),
            ProteinRef::EntryName("A8Y1C3_CAEBR".into())
        );
        assert_eq!(
            ProteinRef::parse("P05067-4").unwrap().to_string(),
            "P05067-4"
        );
        assert_eq!(ProteinRef::parse("P05067-4").unwrap().entry_key(), "P05067");
    }

    #[test]
    fn malformed_proteins_are_unresolved_with_the_accepted_forms_and_a_fitting_hint() {
        let cases = [
            ("TP53", "uniprot_search_proteins"),
            ("ENSG00000141510", "uniprot_map_ids"),
            ("NP_000537.3", "RefSeq"),
            ("P30542.3", "use 'P30542'"),
            ("P05067-0", "uniprot_search_proteins"),
            ("not a protein!", "uniprot_search_proteins"),
            ("", "uniprot_search_proteins"),
        ];
        for (raw, hint) in cases {
            let err = ProteinRef::parse(raw).unwrap_err();
            assert_eq!(err.code(), ErrorCode::UnresolvedEntity, "{raw}");
            let body = err.to_envelope().error;
            assert!(body.message.contains("UniProt:P05067"), "{}", body.message);
            assert!(
                body.recovery_hint.contains(hint),
                "{raw}: {}",
                body.recovery_hint
            );
            assert_eq!(body.invalid_input.as_deref(), Some(raw));
        }
    }

    #[test]
    fn organisms_are_taxa_common_names_or_searchable_names() {
        assert_eq!(Organism::parse("9606").unwrap(), Organism::Taxon(9606));
        assert_eq!(Organism::parse(" Human ").unwrap(), Organism::Taxon(9606));
        assert_eq!(
            Organism::parse("homo_sapiens").unwrap(),
            Organism::Taxon(9606)
        );
        assert_eq!(
            Organism::parse("Saccharomyces cerevisiae").unwrap(),
            Organism::Name("Saccharomyces cerevisiae".into())
        );
        for bad in ["0", "x", "human\" OR reviewed:false", "a:b"] {
            let err = Organism::parse(bad).unwrap_err();
            assert_eq!(err.code(), ErrorCode::InvalidInput, "{bad}");
        }
    }
}
