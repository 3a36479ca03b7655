//! The identifier forms STRING tools accept, parsed once at the edge: `StringId` (the
//! strict `STRING:<taxon>.<protein>` CURIE and STRING's bare `<taxon>.<protein>`) and
//! `Species` (an NCBI taxon or a STRING genome ID).

use std::borrow::Cow;
use std::fmt;

use lifesciences_core::ApiError;
use lifesciences_core::schemars::{self, JsonSchema};
use serde::{Deserialize, Deserializer};

/// The CURIE prefix of STRING proteins, in this exact case (docs/design.md, "Identifiers").
pub(crate) const CURIE_PREFIX: &str = "STRING:";

/// The example every hint points to: human TP53.
pub(crate) const EXAMPLE_CURIE: &str = "STRING:9606.ENSP00000269305";

/// Where STRING proteins live: an NCBI taxon (9606 is human) or a genome uploaded to
/// STRING, named `STRG…` (e.g. `STRG0A31YWK`).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) enum Species {
    /// An NCBI taxonomy ID.
    Taxon(u64),
    /// A STRING genome ID, upper case.
    Genome(String),
}

impl Species {
    /// The default species of every STRING tool: Homo sapiens.
    pub(crate) const HUMAN: Species = Species::Taxon(9606);

    /// Parse what a caller sent for `species`: a taxon, a STRING genome ID, or a common
    /// name such as `human` (9606; see [`COMMON_SPECIES`]). Anything else is
    /// `INVALID_INPUT` with the accepted forms.
    pub(crate) fn parse(raw: &str) -> Result<Self, ApiError> {
        let trimmed = raw.trim();
        if let Some(species) = Self::parse_form(trimmed) {
            return Ok(species);
        }
        if let Some(taxon) = common_name_taxon(trimmed) {
            return Ok(Self::Taxon(taxon));
        }
        Err(ApiError::invalid_input(
            format!(
                "'{raw}' is not a species STRING accepts: it takes an NCBI taxon ID, a STRING \
                 genome ID or a common name such as 'human'."
            ),
            format!(
                "Use an NCBI taxon ID as a positive integer (9606 human, 10090 mouse, 10116 \
                 rat, 7955 zebrafish, 7227 fruit fly, 6239 C. elegans, 4932 yeast, 511145 \
                 E. coli K-12), a STRING genome ID such as 'STRG0A31YWK', or one of the names \
                 {}.",
                common_names()
            ),
            raw,
        ))
    }

    /// The accepted forms, without an error: a positive integer or `STRG` + letters/digits.
    fn parse_form(s: &str) -> Option<Self> {
        if !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()) {
            return s.parse::<u64>().ok().filter(|n| *n > 0).map(Self::Taxon);
        }
        let upper = s.to_ascii_uppercase();
        let rest = upper.strip_prefix("STRG")?;
        (!rest.is_empty() && rest.bytes().all(|b| b.is_ascii_alphanumeric()))
            .then(|| Self::Genome(upper.clone()))
    }

    /// The NCBI taxon, when this is one.
    pub(crate) fn taxon(&self) -> Option<u64> {
        match self {
            Self::Taxon(n) => Some(*n),
            Self::Genome(_) => None,
        }
    }
}

impl fmt::Display for Species {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Taxon(n) => write!(f, "{n}"),
            Self::Genome(g) => f.write_str(g),
        }
    }
}

/// The common names `species` accepts: the name the hint shows, every spelling accepted
/// (lower case), and the NCBI taxon STRING files the organism under.
const COMMON_SPECIES: [(&str, &[&str], u64); 8] = [
    (
        "human",
        &["human", "homo sapiens", "h. sapiens", "hsa"],
        9606,
    ),
    ("mouse", &["mouse", "mus musculus", "mmu"], 10090),
    ("rat", &["rat", "rattus norvegicus"], 10116),
    ("zebrafish", &["zebrafish", "danio rerio"], 7955),
    (
        "fruit fly",
        &["fly", "fruit fly", "drosophila", "drosophila melanogaster"],
        7227,
    ),
    (
        "C. elegans",
        &["worm", "c. elegans", "caenorhabditis elegans"],
        6239,
    ),
    ("yeast", &["yeast", "saccharomyces cerevisiae"], 4932),
    (
        "E. coli K-12",
        &["e. coli", "ecoli", "escherichia coli"],
        511_145,
    ),
];

/// The taxon of a common name agents write instead of one (`human`, `Homo sapiens`,
/// `homo_sapiens`): any case, `_` read as a space.
fn common_name_taxon(s: &str) -> Option<u64> {
    let lower = s.trim().to_ascii_lowercase().replace('_', " ");
    COMMON_SPECIES
        .iter()
        .find(|(_, names, _)| names.contains(&lower.as_str()))
        .map(|(_, _, taxon)| *taxon)
}

/// The common names, as the hint and the argument docs list them.
fn common_names() -> String {
    COMMON_SPECIES
        .iter()
        .map(|(shown, _, _)| *shown)
        .collect::<Vec<_>>()
        .join(", ")
}

/// A `species` argument as sent: a number or a string, kept as text so that `Species::parse`
/// (not serde) words the error. The schema says "integer or string".
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct SpeciesArg(pub String);

impl<'de> Deserialize<'de> for SpeciesArg {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        match serde_json::Value::deserialize(deserializer)? {
            serde_json::Value::Number(n) => Ok(Self(n.to_string())),
            serde_json::Value::String(s) => Ok(Self(s)),
            other => Err(serde::de::Error::invalid_type(
                serde::de::Unexpected::Other(&other.to_string()),
                &"an NCBI taxon ID such as 9606, a common name such as 'human', or a STRING \
                  genome ID such as 'STRG0A31YWK'",
            )),
        }
    }
}

impl JsonSchema for SpeciesArg {
    fn schema_name() -> Cow<'static, str> {
        "Species".into()
    }

    fn inline_schema() -> bool {
        true
    }

    fn json_schema(_generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "type": ["integer", "string"],
            "examples": [9606, "10090", "human", "STRG0A31YWK"]
        })
    }
}

/// Parse an optional `species` argument; absent means human (9606).
pub(crate) fn species_or_human(arg: Option<&SpeciesArg>) -> Result<Species, ApiError> {
    arg.map_or(Ok(Species::HUMAN), |s| Species::parse(&s.0))
}

/// A STRING protein: `<taxon>.<protein>` on the wire, `STRING:<taxon>.<protein>` for users.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) struct StringId {
    species: Species,
    protein: String,
}

impl StringId {
    /// STRING's own form, e.g. `9606.ENSP00000269305` (None when `s` is not one).
    pub(crate) fn parse_bare(s: &str) -> Option<Self> {
        let (taxon, protein) = s.split_once('.')?;
        let species = Species::parse_form(taxon)?;
        let protein_ok = !protein.is_empty()
            && protein
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'-'));
        protein_ok.then(|| Self {
            species,
            protein: protein.to_owned(),
        })
    }

    /// The strict form a tool accepts: `STRING:9606.ENSP00000269305`. Anything else is
    /// `UNRESOLVED_ENTITY`, with the corrected CURIE in the hint when it is evident.
    pub(crate) fn parse_curie(raw: &str) -> Result<Self, ApiError> {
        let trimmed = raw.trim();
        if let Some(rest) = trimmed.strip_prefix(CURIE_PREFIX) {
            return Self::parse_bare(rest).ok_or_else(|| not_a_string_id(raw));
        }
        // The prefix in another case, or STRING's bare form: the fix is evident.
        let prefixed = strip_curie_prefix(trimmed);
        if let Some(id) = prefixed.or(Some(trimmed)).and_then(Self::parse_bare) {
            return Err(ApiError::unresolved(
                format!(
                    "'{raw}' is not a STRING CURIE: STRING identifiers are written with the \
                     'STRING:' prefix."
                ),
                format!("Use format '{}'", id.curie()),
                raw,
            ));
        }
        // A human Ensembl protein without its taxon.
        if is_human_ensembl_protein(trimmed) {
            return Err(ApiError::unresolved(
                format!("'{raw}' is an Ensembl protein ID, not a STRING CURIE."),
                format!(
                    "Use format 'STRING:9606.{trimmed}' (9606 is the taxon of human Ensembl \
                     proteins), or find the protein with string_search_proteins."
                ),
                raw,
            ));
        }
        Err(not_a_string_id(raw))
    }

    /// `STRING:9606.ENSP00000269305`.
    pub(crate) fn curie(&self) -> String {
        format!("{CURIE_PREFIX}{}", self.bare())
    }

    /// `9606.ENSP00000269305`, as STRING spells it.
    pub(crate) fn bare(&self) -> String {
        format!("{}.{}", self.species, self.protein)
    }

    /// The species part.
    pub(crate) fn species(&self) -> &Species {
        &self.species
    }
}

/// `s` without its `STRING:` prefix written in any case (`string:`, `String:`), if it has
/// one.
pub(crate) fn strip_curie_prefix(s: &str) -> Option<&str> {
    s.get(..CURIE_PREFIX.len())
        .filter(|head| head.eq_ignore_ascii_case(CURIE_PREFIX))
        .and_then(|_| s.get(CURIE_PREFIX.len()..))
}

fn is_human_ensembl_protein(s: &str) -> bool {
    s.strip_prefix("ENSP")
        .is_some_and(|digits| digits.len() == 11 && digits.bytes().all(|b| b.is_ascii_digit()))
}

fn not_a_string_id(raw: &str) -> ApiError {
    let name = raw.trim();
    let name = name
        .strip_prefix(CURIE_PREFIX)
        .unwrap_or(name)
        .replace('"', "");
    let name = if name.is_empty() {
        "TP53"
    } else {
        name.as_str()
    };
    ApiError::unresolved(
        format!(
            "'{raw}' is not a STRING identifier: this tool takes a STRING CURIE such as \
             '{EXAMPLE_CURIE}'."
        ),
        format!(
            "Find the protein with string_search_proteins (e.g. {{\"query\": \"{}\"}}), then pass \
             the id it returns, e.g. '{EXAMPLE_CURIE}'.",
            name
        ),
        raw,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use lifesciences_core::ErrorCode;

    #[test]
    fn species_accepts_taxa_genome_ids_and_common_names_only() {
        assert_eq!(Species::parse("9606").unwrap(), Species::HUMAN);
        assert_eq!(Species::parse(" 10090 ").unwrap(), Species::Taxon(10090));
        assert_eq!(
            Species::parse("strg0a31ywk").unwrap(),
            Species::Genome("STRG0A31YWK".into())
        );
        for bad in [
            "0", "-9606", "9606.5", "", "STRG", "STRG-1", "9 606", "humans", "homo",
        ] {
            let err = Species::parse(bad).unwrap_err();
            assert_eq!(err.code(), ErrorCode::InvalidInput, "{bad}");
            assert_eq!(err.to_envelope().error.invalid_input.as_deref(), Some(bad));
        }
    }

    #[test]
    fn common_names_are_their_taxa() {
        for (name, taxon) in [
            ("human", 9606),
            ("Human", 9606),
            (" Homo sapiens ", 9606),
            ("homo_sapiens", 9606),
            ("mouse", 10090),
            ("Mus musculus", 10090),
            ("rat", 10116),
            ("zebrafish", 7955),
            ("fruit fly", 7227),
            ("Drosophila melanogaster", 7227),
            ("C. elegans", 6239),
            ("yeast", 4932),
            ("E. coli", 511_145),
        ] {
            assert_eq!(
                Species::parse(name).unwrap(),
                Species::Taxon(taxon),
                "{name}"
            );
        }
    }

    #[test]
    fn an_unknown_name_gets_the_accepted_forms_in_the_hint() {
        let e = Species::parse("platypus").unwrap_err().to_envelope().error;
        assert!(
            e.recovery_hint.contains("9606 human"),
            "{}",
            e.recovery_hint
        );
        assert!(
            e.recovery_hint.contains(
                "human, mouse, rat, zebrafish, fruit fly, C. elegans, yeast, E. coli K-12"
            ),
            "{}",
            e.recovery_hint
        );
        assert!(e.message.contains("'platypus'"), "{}", e.message);
    }

    #[test]
    fn species_arguments_arrive_as_numbers_or_strings() {
        let n: SpeciesArg = serde_json::from_str("9606").unwrap();
        let s: SpeciesArg = serde_json::from_str("\"STRG0A31YWK\"").unwrap();
        let neg: SpeciesArg = serde_json::from_str("-3").unwrap();
        assert_eq!(
            (n.0.as_str(), s.0.as_str(), neg.0.as_str()),
            ("9606", "STRG0A31YWK", "-3")
        );
        assert!(serde_json::from_str::<SpeciesArg>("true").is_err());
        assert_eq!(species_or_human(None).unwrap(), Species::HUMAN);
    }

    #[test]
    fn the_curie_parses_and_prints_both_forms() {
        let id = StringId::parse_curie(" STRING:9606.ENSP00000269305 ").unwrap();
        assert_eq!(id.curie(), EXAMPLE_CURIE);
        assert_eq!(id.bare(), "9606.ENSP00000269305");
        assert_eq!(id.species(), &Species::HUMAN);
        let fly = StringId::parse_curie("STRING:7227.FBpp0074940").unwrap();
        assert_eq!(fly.species().taxon(), Some(7227));
        let yeast = StringId::parse_curie("STRING:4932.YAL001C").unwrap();
        assert_eq!(yeast.bare(), "4932.YAL001C");
    }

    fn unresolved(raw: &str) -> (String, String) {
        let err = StringId::parse_curie(raw).unwrap_err();
        assert_eq!(err.code(), ErrorCode::UnresolvedEntity, "{raw}");
        let body = err.to_envelope().error;
        assert_eq!(body.invalid_input.as_deref(), Some(raw));
        (body.message, body.recovery_hint)
    }

    #[test]
    fn evident_fixes_are_spelled_out() {
        let (_, hint) = unresolved("9606.ENSP00000269305");
        assert_eq!(hint, "Use format 'STRING:9606.ENSP00000269305'");
        let (_, hint) = unresolved("string:9606.ENSP00000269305");
        assert_eq!(hint, "Use format 'STRING:9606.ENSP00000269305'");
        let (_, hint) = unresolved("ENSP00000269305");
        assert!(
            hint.starts_with("Use format 'STRING:9606.ENSP00000269305'"),
            "{hint}"
        );
    }

    #[test]
    fn names_point_to_the_search_tool() {
        for raw in ["TP53", "STRING:TP53", "", "STRING:9606.", "P04637"] {
            let (message, hint) = unresolved(raw);
            assert!(hint.contains("string_search_proteins"), "{raw}: {hint}");
            assert!(message.contains(EXAMPLE_CURIE), "{message}");
        }
        let (_, hint) = unresolved("STRING:TP53");
        assert!(hint.contains("{\"query\": \"TP53\"}"), "{hint}");
    }
}
