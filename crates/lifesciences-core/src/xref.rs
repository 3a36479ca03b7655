//! The cross-reference registry as data (generated into `docs/tools.md`), and
//! `CrossReferences`, the builder every lookup tool uses for its `cross_references`
//! object.
//!
//! The builder normalises values on the way in (e.g. `MONDO_0007254` → `MONDO:0007254`,
//! ChEMBL's `SID: 144203627` → `144203627`), drops values that fail the key's pattern
//! (logging them), keeps one value for single-valued keys, de-duplicates lists, omits empty
//! keys, and serialises in registry order without nulls.

use std::collections::BTreeMap;
use std::sync::LazyLock;

use regex::Regex;
use rmcp::schemars::{self, JsonSchema};
use serde::{Deserialize, Serialize, ser::SerializeMap};

use crate::notify::{Level, notify};

/// Whether a key holds one value or a list.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Cardinality {
    /// A single string.
    One,
    /// A list of strings.
    Many,
}

/// A key of the registry. Declaration order is the serialisation order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[non_exhaustive]
pub enum XrefKey {
    Hgnc,
    EnsemblGene,
    EnsemblTranscript,
    EnsemblProtein,
    Uniprot,
    Entrez,
    Refseq,
    Ucsc,
    Pubmed,
    Chembl,
    Drugbank,
    Opentargets,
    String,
    Biogrid,
    Stitch,
    Iuphar,
    Kegg,
    KeggPathway,
    Omim,
    Orphanet,
    Mondo,
    Efo,
    Pdb,
    Alphafold,
    PubchemCompound,
    PubchemSubstance,
}

/// One entry of the registry.
#[derive(Debug, Clone, Copy)]
pub struct XrefSpec {
    /// The key as it appears on the wire.
    pub name: &'static str,
    /// The typed key.
    pub key: XrefKey,
    /// A value is valid when it matches any of these.
    pub patterns: &'static [&'static str],
    /// One value or a list.
    pub cardinality: Cardinality,
    /// What the value identifies, for docs and schemas.
    pub description: &'static str,
}

const fn spec(
    name: &'static str,
    key: XrefKey,
    patterns: &'static [&'static str],
    cardinality: Cardinality,
    description: &'static str,
) -> XrefSpec {
    XrefSpec {
        name,
        key,
        patterns,
        cardinality,
        description,
    }
}

use Cardinality::{Many, One};

/// The registry: every key a `cross_references` object may hold, in the order they are
/// serialised.
pub static REGISTRY: [XrefSpec; 26] = [
    spec(
        "hgnc",
        XrefKey::Hgnc,
        &[r"^HGNC:\d+$"],
        One,
        "HGNC gene ID, e.g. HGNC:11998",
    ),
    spec(
        "ensembl_gene",
        XrefKey::EnsemblGene,
        &[r"^ENS[A-Z]*G\d{11}$"],
        One,
        "Ensembl gene stable ID, unversioned",
    ),
    spec(
        "ensembl_transcript",
        XrefKey::EnsemblTranscript,
        &[r"^ENS[A-Z]*T\d{11}$"],
        Many,
        "Ensembl transcript stable IDs, unversioned",
    ),
    spec(
        "ensembl_protein",
        XrefKey::EnsemblProtein,
        &[r"^ENS[A-Z]*P\d{11}$"],
        One,
        "Ensembl protein stable ID, unversioned, e.g. ENSP00000269305",
    ),
    spec(
        "uniprot",
        XrefKey::Uniprot,
        &[r"^([OPQ][0-9][A-Z0-9]{3}[0-9]|[A-NR-Z][0-9]([A-Z][A-Z0-9]{2}[0-9]){1,2})(-\d+)?$"],
        Many,
        "UniProtKB accessions, e.g. P04637 (uniprot_get_protein takes them)",
    ),
    spec(
        "entrez",
        XrefKey::Entrez,
        &[r"^\d+$"],
        One,
        "NCBI Gene ID, e.g. 7157",
    ),
    spec(
        "refseq",
        XrefKey::Refseq,
        &[r"^[NX][MRP]_\d+(\.\d+)?$"],
        Many,
        "RefSeq accessions, e.g. NM_000546.6",
    ),
    spec(
        "ucsc",
        XrefKey::Ucsc,
        &[r"^uc\d{3}[a-z]{3}\.\d+$"],
        One,
        "UCSC Genome Browser gene ID, e.g. uc002gij.4",
    ),
    spec(
        "pubmed",
        XrefKey::Pubmed,
        &[r"^PMID:\d+$"],
        Many,
        "PubMed IDs, e.g. PMID:12345678",
    ),
    spec(
        "chembl",
        XrefKey::Chembl,
        &[r"^CHEMBL\d+$"],
        One,
        "ChEMBL ID, e.g. CHEMBL25",
    ),
    spec(
        "drugbank",
        XrefKey::Drugbank,
        &[r"^DB\d{5}$"],
        One,
        "DrugBank ID, e.g. DB00945",
    ),
    spec(
        "opentargets",
        XrefKey::Opentargets,
        &[r"^ENS[A-Z]*G\d{11}$"],
        One,
        "Open Targets target (an Ensembl gene ID)",
    ),
    spec(
        "string",
        XrefKey::String,
        &[r"^\d+\.[A-Za-z0-9_.-]+$"],
        One,
        "STRING protein ID without prefix, e.g. 9606.ENSP00000269305",
    ),
    spec(
        "biogrid",
        XrefKey::Biogrid,
        &[r"^\d+$"],
        One,
        "BioGRID interactor ID",
    ),
    spec(
        "stitch",
        XrefKey::Stitch,
        &[r"^(CID[sm])?\d+$"],
        One,
        "STITCH chemical ID, e.g. CIDs00002244",
    ),
    spec(
        "iuphar",
        XrefKey::Iuphar,
        &[r"^\d+$"],
        One,
        "IUPHAR/BPS Guide to Pharmacology ID",
    ),
    spec(
        "kegg",
        XrefKey::Kegg,
        &[r"^[a-z]{1,4}:[A-Za-z0-9_.]+$", r"^[CD]\d{5}$"],
        One,
        "KEGG gene (hsa:7157) or compound/drug (C01405, D00109) ID",
    ),
    spec(
        "kegg_pathway",
        XrefKey::KeggPathway,
        &[r"^[a-z]{3,4}\d{5}$"],
        Many,
        "KEGG pathway IDs, e.g. hsa04115",
    ),
    spec(
        "omim",
        XrefKey::Omim,
        &[r"^\d{6}$"],
        One,
        "OMIM number, e.g. 191170",
    ),
    spec(
        "orphanet",
        XrefKey::Orphanet,
        &[r"^ORPHA:\d+$"],
        One,
        "Orphanet disease ID, e.g. ORPHA:524",
    ),
    spec(
        "mondo",
        XrefKey::Mondo,
        &[r"^MONDO:\d{7}$"],
        One,
        "MONDO disease ID, e.g. MONDO:0007254",
    ),
    spec(
        "efo",
        XrefKey::Efo,
        &[r"^EFO:\d{7}$"],
        One,
        "EFO term, e.g. EFO:0000311",
    ),
    spec(
        "pdb",
        XrefKey::Pdb,
        &[r"^[0-9][A-Za-z0-9]{3}$", r"^[A-Za-z0-9]{1,3}$"],
        Many,
        "PDB structure IDs (1TUP) or PDB ligand codes (STI)",
    ),
    spec(
        "alphafold",
        XrefKey::Alphafold,
        &[r"^([OPQ][0-9][A-Z0-9]{3}[0-9]|[A-NR-Z][0-9]([A-Z][A-Z0-9]{2}[0-9]){1,2})$"],
        One,
        "AlphaFold DB predicted structure, named by its UniProt accession, e.g. P04637 (https://alphafold.ebi.ac.uk/entry/P04637)",
    ),
    spec(
        "pubchem_compound",
        XrefKey::PubchemCompound,
        &[r"^\d+$"],
        One,
        "PubChem compound ID (CID)",
    ),
    spec(
        "pubchem_substance",
        XrefKey::PubchemSubstance,
        &[r"^\d+$"],
        Many,
        "PubChem substance IDs (SIDs)",
    ),
];

/// The registry's patterns, compiled once. A pattern that failed to compile would reject
/// every value of its key (and a unit test would fail first).
static COMPILED: LazyLock<Vec<Vec<Regex>>> = LazyLock::new(|| {
    REGISTRY
        .iter()
        .map(|spec| {
            spec.patterns
                .iter()
                .filter_map(|p| Regex::new(p).ok())
                .collect()
        })
        .collect()
});

impl XrefKey {
    /// Every key, in registry order.
    pub fn all() -> impl Iterator<Item = XrefKey> {
        REGISTRY.iter().map(|s| s.key)
    }

    fn index(self) -> usize {
        self as usize
    }

    /// This key's registry entry.
    pub fn spec(self) -> &'static XrefSpec {
        &REGISTRY[self.index()]
    }

    /// The key as it appears on the wire.
    pub fn name(self) -> &'static str {
        self.spec().name
    }

    /// The key whose wire name is `name`.
    pub fn from_name(name: &str) -> Option<XrefKey> {
        REGISTRY.iter().find(|s| s.name == name).map(|s| s.key)
    }

    /// Whether `value` (already normalised) matches this key's pattern.
    pub fn is_valid(self, value: &str) -> bool {
        COMPILED
            .get(self.index())
            .is_some_and(|patterns| patterns.iter().any(|re| re.is_match(value)))
    }

    /// Bring common spellings to the registry's form. Only unambiguous rewrites: the
    /// pattern check that follows is the real gate.
    pub fn normalise(self, raw: &str) -> String {
        let v = raw.trim();
        let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
        let strip = |s: &str, prefixes: &[&str]| -> String {
            for p in prefixes {
                // `get` rather than slicing: a multi-byte character must not panic here.
                if let (Some(head), Some(rest)) = (s.get(..p.len()), s.get(p.len()..))
                    && head.eq_ignore_ascii_case(p)
                {
                    return rest.trim().to_owned();
                }
            }
            s.to_owned()
        };
        let curie = |s: &str, prefix: &str, aliases: &[&str]| -> String {
            let rest = strip(s, aliases);
            if digits(&rest) {
                format!("{prefix}:{rest}")
            } else {
                s.to_owned()
            }
        };
        match self {
            XrefKey::Hgnc => curie(v, "HGNC", &["HGNC:", "HGNC_"]),
            XrefKey::EnsemblGene
            | XrefKey::EnsemblTranscript
            | XrefKey::EnsemblProtein
            | XrefKey::Opentargets => {
                let upper = v.to_ascii_uppercase();
                match upper.split_once('.') {
                    Some((id, version)) if digits(version) => id.to_owned(),
                    _ => upper,
                }
            }
            XrefKey::Uniprot | XrefKey::Drugbank | XrefKey::Pdb => v.to_ascii_uppercase(),
            // AlphaFold DB's own model ID, `AF-P04637-F1` (the first fragment of the
            // accession's model), names the same entry as the accession.
            XrefKey::Alphafold => {
                let upper = v.to_ascii_uppercase();
                let model = upper.strip_prefix("AF-").and_then(|rest| {
                    let (accession, fragment) = rest.rsplit_once("-F")?;
                    digits(fragment).then_some(accession)
                });
                model.unwrap_or(&upper).to_owned()
            }
            XrefKey::Entrez => strip(v, &["NCBIGene:", "GeneID:", "Entrez:"]),
            XrefKey::Pubmed => curie(v, "PMID", &["PMID:", "PMID", "pubmed:"]),
            XrefKey::Chembl => {
                let upper = v.to_ascii_uppercase();
                match upper.strip_prefix("CHEMBL:") {
                    Some(num) => format!("CHEMBL{num}"),
                    None => upper,
                }
            }
            XrefKey::String => strip(v, &["STRING:"]),
            XrefKey::KeggPathway => strip(v, &["path:"]),
            XrefKey::Omim => strip(v, &["OMIM:", "MIM:"]),
            XrefKey::Orphanet => curie(
                v,
                "ORPHA",
                &["ORPHA:", "Orphanet_", "Orphanet:", "ORPHANET:"],
            ),
            XrefKey::Mondo => curie(v, "MONDO", &["MONDO:", "MONDO_"]),
            XrefKey::Efo => curie(v, "EFO", &["EFO:", "EFO_"]),
            XrefKey::PubchemCompound => strip(v, &["CID:", "CID "]),
            XrefKey::PubchemSubstance => strip(v, &["SID:", "SID "]),
            XrefKey::Refseq
            | XrefKey::Ucsc
            | XrefKey::Biogrid
            | XrefKey::Stitch
            | XrefKey::Iuphar
            | XrefKey::Kegg => v.to_owned(),
        }
    }
}

/// The `cross_references` object of a lookup result.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CrossReferences {
    values: BTreeMap<XrefKey, Vec<String>>,
}

impl CrossReferences {
    /// An empty object (serialises as `{}`).
    pub fn new() -> Self {
        Self::default()
    }

    /// Add one value: normalised, then dropped (and logged) if it fails the key's pattern.
    /// A single-valued key keeps its first value; lists keep first-seen order without
    /// duplicates.
    pub fn add(&mut self, key: XrefKey, value: impl AsRef<str>) -> &mut Self {
        let raw = value.as_ref();
        let normalised = key.normalise(raw);
        if normalised.is_empty() {
            return self;
        }
        if !key.is_valid(&normalised) {
            tracing::warn!(
                key = key.name(),
                value = raw,
                "dropping a cross-reference that fails the registry pattern"
            );
            notify(
                Level::Warning,
                format_args!(
                    "dropped the cross-reference {}: {raw:?}, which is not a valid value for it",
                    key.name()
                ),
            );
            return self;
        }
        let slot = self.values.entry(key).or_default();
        match key.spec().cardinality {
            Cardinality::One if !slot.is_empty() => {
                if slot[0] != normalised {
                    tracing::debug!(
                        key = key.name(),
                        kept = %slot[0],
                        ignored = %normalised,
                        "single-valued cross-reference already set"
                    );
                }
            }
            _ => {
                if !slot.contains(&normalised) {
                    slot.push(normalised);
                }
            }
        }
        self
    }

    /// Builder form of [`add`](Self::add).
    #[must_use]
    pub fn with(mut self, key: XrefKey, value: impl AsRef<str>) -> Self {
        self.add(key, value);
        self
    }

    /// Add several values of one key.
    pub fn extend<I, V>(&mut self, key: XrefKey, values: I) -> &mut Self
    where
        I: IntoIterator<Item = V>,
        V: AsRef<str>,
    {
        for value in values {
            self.add(key, value);
        }
        self
    }

    /// The values kept for `key`.
    pub fn get(&self, key: XrefKey) -> &[String] {
        self.values.get(&key).map(Vec::as_slice).unwrap_or_default()
    }

    /// The first value kept for `key`.
    pub fn first(&self, key: XrefKey) -> Option<&str> {
        self.get(key).first().map(String::as_str)
    }

    /// True when no key holds a value.
    pub fn is_empty(&self) -> bool {
        self.values.values().all(Vec::is_empty)
    }
}

impl Serialize for CrossReferences {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let present: Vec<_> = self.values.iter().filter(|(_, v)| !v.is_empty()).collect();
        let mut map = serializer.serialize_map(Some(present.len()))?;
        for (key, values) in present {
            match key.spec().cardinality {
                Cardinality::One => map.serialize_entry(key.name(), &values[0])?,
                Cardinality::Many => map.serialize_entry(key.name(), values)?,
            }
        }
        map.end()
    }
}

impl<'de> Deserialize<'de> for CrossReferences {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum OneOrMany {
            One(String),
            Many(Vec<String>),
        }
        let raw = BTreeMap::<String, OneOrMany>::deserialize(deserializer)?;
        let mut refs = CrossReferences::new();
        for (name, value) in raw {
            let key = XrefKey::from_name(&name).ok_or_else(|| {
                serde::de::Error::custom(format!("unknown cross-reference key `{name}`"))
            })?;
            match value {
                OneOrMany::One(v) => refs.add(key, v),
                OneOrMany::Many(vs) => refs.extend(key, vs),
            };
        }
        Ok(refs)
    }
}

impl JsonSchema for CrossReferences {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "CrossReferences".into()
    }

    fn json_schema(_generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        let mut properties = serde_json::Map::new();
        for spec in &REGISTRY {
            let pattern = spec.patterns.join("|");
            let one = serde_json::json!({"type": "string", "pattern": pattern});
            let schema = match spec.cardinality {
                Cardinality::One => {
                    let mut s = one;
                    s["description"] = spec.description.into();
                    s
                }
                Cardinality::Many => serde_json::json!({
                    "type": "array", "items": one, "description": spec.description
                }),
            };
            properties.insert(spec.name.to_owned(), schema);
        }
        schemars::json_schema!({
            "type": "object",
            "description": "Identifiers of the same entity in other databases; keys with no value are omitted.",
            "properties": properties,
            "additionalProperties": false
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_registry_has_26_keys_in_enum_order_with_compiling_patterns() {
        assert_eq!(REGISTRY.len(), 26);
        for (i, spec) in REGISTRY.iter().enumerate() {
            assert_eq!(spec.key as usize, i, "{} out of order", spec.name);
            assert_eq!(XrefKey::from_name(spec.name), Some(spec.key));
            for p in spec.patterns {
                assert!(Regex::new(p).is_ok(), "{p}");
            }
            assert_eq!(COMPILED[i].len(), spec.patterns.len());
        }
        let mut names: Vec<_> = REGISTRY.iter().map(|s| s.name).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), 26, "names are unique");
    }

    #[test]
    fn every_key_accepts_its_documented_example() {
        let examples = [
            (XrefKey::Hgnc, "HGNC:11998"),
            (XrefKey::EnsemblGene, "ENSG00000141510"),
            (XrefKey::EnsemblTranscript, "ENSMUST00000108658"),
            (XrefKey::EnsemblProtein, "ENSP00000269305"),
            (XrefKey::Uniprot, "P04637-2"),
            (XrefKey::Entrez, "7157"),
            (XrefKey::Refseq, "NM_000546.6"),
            (XrefKey::Ucsc, "uc002gij.4"),
            (XrefKey::Pubmed, "PMID:12345678"),
            (XrefKey::Chembl, "CHEMBL25"),
            (XrefKey::Drugbank, "DB00945"),
            (XrefKey::Opentargets, "ENSG00000141510"),
            (XrefKey::String, "9606.ENSP00000269305"),
            (XrefKey::Biogrid, "113010"),
            (XrefKey::Stitch, "CIDs00002244"),
            (XrefKey::Iuphar, "4780"),
            (XrefKey::Kegg, "hsa:7157"),
            (XrefKey::KeggPathway, "hsa04115"),
            (XrefKey::Omim, "191170"),
            (XrefKey::Orphanet, "ORPHA:524"),
            (XrefKey::Mondo, "MONDO:0007254"),
            (XrefKey::Efo, "EFO:0000311"),
            (XrefKey::Pdb, "1TUP"),
            (XrefKey::Alphafold, "P04637"),
            (XrefKey::PubchemCompound, "2244"),
            (XrefKey::PubchemSubstance, "144203627"),
        ];
        assert_eq!(examples.len(), 26);
        for (key, value) in examples {
            assert!(key.is_valid(value), "{} rejects {value}", key.name());
        }
        assert!(XrefKey::Kegg.is_valid("D00109"));
        assert!(XrefKey::Pdb.is_valid("STI"));
    }

    /// That the client of a tool call is told of a dropped value, naming it, is shown by
    /// `tests/it/logging.rs` (`the_client_hears_what_happens_at_the_level_it_chose`).
    /// UniProt's published accession pattern
    /// (<https://www.uniprot.org/help/accession_numbers>), an isoform's `-n` allowed: a
    /// gene symbol of six to ten letters and digits (CYP2D6, ADORA2A, AL033381) is none.
    #[test]
    fn uniprot_accessions_match_uniprots_published_pattern_only() {
        for accession in [
            "P04637",
            "Q9NZK5",
            "O15530",
            "A0A024R161",
            "B3GAT1",
            "P04637-2",
        ] {
            assert!(XrefKey::Uniprot.is_valid(accession), "{accession}");
        }
        for other in [
            "CYP2D6",
            "ADORA2A",
            "AL033381",
            "AL033381.1",
            "P04637.2",
            "PIK3CA",
            "P0463",
            "p04637",
            "P04637-",
        ] {
            assert!(!XrefKey::Uniprot.is_valid(other), "{other}");
        }
    }

    /// AlphaFold DB files a protein's predicted structure under its UniProt accession
    /// (<https://alphafold.ebi.ac.uk/entry/P04637>); its model ID `AF-P04637-F1` names the
    /// same entry. An isoform, a model file's name or a gene symbol is no entry.
    #[test]
    fn an_alphafold_entry_is_a_uniprot_accession_and_its_model_id_reads_as_one() {
        let x = CrossReferences::new().with(XrefKey::Alphafold, "af-p04637-f1");
        assert_eq!(x.first(XrefKey::Alphafold), Some("P04637"));
        assert_eq!(
            XrefKey::Alphafold.normalise("AF-A0A024R161-F2"),
            "A0A024R161"
        );
        for other in [
            "P04637-2",
            "AF-P04637-F1-model_v4",
            "AF-P04637",
            "CYP2D6",
            "1TUP",
        ] {
            let normalised = XrefKey::Alphafold.normalise(other);
            assert!(!XrefKey::Alphafold.is_valid(&normalised), "{other}");
        }
    }

    #[test]
    fn invalid_values_are_dropped() {
        let mut x = CrossReferences::new();
        x.add(XrefKey::Hgnc, "not-an-id")
            .add(XrefKey::Uniprot, "p04637") // normalised to upper case: kept
            .add(XrefKey::Uniprot, "totally wrong!")
            .add(XrefKey::Omim, "12345"); // five digits: dropped
        assert_eq!(x.get(XrefKey::Hgnc), &[] as &[String]);
        assert_eq!(x.get(XrefKey::Uniprot), &["P04637".to_owned()]);
        assert_eq!(x.first(XrefKey::Omim), None);
        assert_eq!(
            serde_json::to_value(&x).unwrap(),
            serde_json::json!({"uniprot": ["P04637"]})
        );
    }

    #[test]
    fn normalisation_on_the_way_in() {
        let x = CrossReferences::new()
            .with(XrefKey::PubchemSubstance, "SID: 144203627")
            .with(XrefKey::PubchemCompound, "CID:2244")
            .with(XrefKey::Mondo, "MONDO_0007254")
            .with(XrefKey::Efo, "EFO_0000311")
            .with(XrefKey::Orphanet, "Orphanet_524")
            .with(XrefKey::Pubmed, "12345678")
            .with(XrefKey::Hgnc, "11998")
            .with(XrefKey::Chembl, "CHEMBL:25")
            .with(XrefKey::EnsemblGene, "ENSG00000141510.17")
            .with(XrefKey::String, "STRING:9606.ENSP00000269305")
            .with(XrefKey::KeggPathway, "path:hsa04115");
        insta::assert_json_snapshot!(x, @r#"
        {
          "hgnc": "HGNC:11998",
          "ensembl_gene": "ENSG00000141510",
          "pubmed": [
            "PMID:12345678"
          ],
          "chembl": "CHEMBL25",
          "string": "9606.ENSP00000269305",
          "kegg_pathway": [
            "hsa04115"
          ],
          "orphanet": "ORPHA:524",
          "mondo": "MONDO:0007254",
          "efo": "EFO:0000311",
          "pubchem_compound": "2244",
          "pubchem_substance": [
            "144203627"
          ]
        }
        "#);
    }

    #[test]
    fn one_keeps_the_first_value_and_lists_deduplicate() {
        let mut x = CrossReferences::new();
        x.add(XrefKey::Entrez, "7157").add(XrefKey::Entrez, "9999");
        x.extend(
            XrefKey::Refseq,
            ["NM_000546.6", "NM_000546.6", "NP_000537.3"],
        );
        assert_eq!(x.first(XrefKey::Entrez), Some("7157"));
        assert_eq!(x.get(XrefKey::Refseq).len(), 2);
    }

    #[test]
    fn empty_serialises_as_an_empty_object_and_round_trips() {
        assert_eq!(
            serde_json::to_string(&CrossReferences::new()).unwrap(),
            "{}"
        );
        let x = CrossReferences::new()
            .with(XrefKey::Hgnc, "HGNC:11998")
            .with(XrefKey::Uniprot, "P04637");
        let back: CrossReferences =
            serde_json::from_value(serde_json::to_value(&x).unwrap()).unwrap();
        assert_eq!(back, x);
    }

    #[test]
    fn schema_lists_every_key_and_forbids_others() {
        let schema = schemars::schema_for!(CrossReferences);
        let json = serde_json::to_value(&schema).unwrap();
        assert_eq!(json["properties"].as_object().unwrap().len(), 26);
        assert_eq!(json["additionalProperties"], false);
        assert_eq!(json["properties"]["uniprot"]["type"], "array");
        assert_eq!(json["properties"]["hgnc"]["type"], "string");
    }
}
