//! Tolerant serde types for the IGVF Catalog's JSON (field names from the production
//! OpenAPI spec, <https://api.catalogkg.igvf.org/openapi>, and `tests/fixtures/`).
//!
//! The data has quirks this module absorbs so nothing downstream sees them:
//! - numbers sometimes arrive as strings, and many fields are `null`;
//! - `rsid` is an array, or `null`, or (defensively) a single string;
//! - the GWAS edge says `p_val` where the spec says `p_value`, and PharmGKB keeps its
//!   p-value under `study_parameters[].p-value`;
//! - one edge uses the key `"sequence variant"` with a space;
//! - with `verbose=false` linked nodes are `"<collection>/<key>"` strings, with
//!   `verbose=true` they are objects: [`NodeRef`] reads both;
//! - a by-ID lookup may answer with one object instead of an array: [`OneOrMany`].

use std::collections::BTreeMap;

use serde::{Deserialize, Deserializer};
use serde_json::Value;

/// Lenient field deserializers: they never fail on an odd value, they drop it.
pub(crate) mod lenient {
    use super::*;

    /// A number, or a numeric string; anything else is `None`.
    pub(crate) fn f64<'de, D: Deserializer<'de>>(d: D) -> Result<Option<f64>, D::Error> {
        Ok(as_f64(&Value::deserialize(d)?))
    }

    /// A non-negative integer (or a whole float, or a numeric string).
    pub(crate) fn u64<'de, D: Deserializer<'de>>(d: D) -> Result<Option<u64>, D::Error> {
        Ok(match Value::deserialize(d)? {
            Value::Number(n) => n.as_u64().or_else(|| {
                n.as_f64()
                    .filter(|f| f.fract() == 0.0 && *f >= 0.0)
                    .map(|f| f as u64)
            }),
            Value::String(s) => s.trim().parse().ok(),
            _ => None,
        })
    }

    /// A string (numbers and booleans as text); empty strings and `null` are `None`.
    pub(crate) fn string<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
        Ok(as_string(&Value::deserialize(d)?))
    }

    /// A list of strings: an array (nulls dropped), a single string, or `null`.
    pub(crate) fn strings<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<String>, D::Error> {
        Ok(match Value::deserialize(d)? {
            Value::Array(items) => items.iter().filter_map(as_string).collect(),
            other => as_string(&other).into_iter().collect(),
        })
    }

    /// A boolean, or the strings `true`/`false`.
    pub(crate) fn bool<'de, D: Deserializer<'de>>(d: D) -> Result<Option<bool>, D::Error> {
        Ok(match Value::deserialize(d)? {
            Value::Bool(b) => Some(b),
            Value::String(s) => match s.trim().to_ascii_lowercase().as_str() {
                "true" => Some(true),
                "false" => Some(false),
                _ => None,
            },
            _ => None,
        })
    }

    pub(crate) fn as_f64(v: &Value) -> Option<f64> {
        match v {
            Value::Number(n) => n.as_f64(),
            Value::String(s) => s.trim().parse::<f64>().ok(),
            _ => None,
        }
        .filter(|f| f.is_finite())
    }

    pub(crate) fn as_string(v: &Value) -> Option<String> {
        match v {
            Value::String(s) if !s.trim().is_empty() => Some(s.trim().to_owned()),
            Value::Number(n) => Some(n.to_string()),
            Value::Bool(b) => Some(b.to_string()),
            _ => None,
        }
    }
}

/// A response that is an array of `T`, or a single `T` (older by-ID lookups). The catalog
/// answers "nothing" with an empty array: a `null` body is not an answer and fails to
/// decode, like any other shape it does not document.
#[derive(Debug, Clone)]
pub(crate) struct OneOrMany<T>(pub Vec<T>);

impl<'de, T: serde::de::DeserializeOwned> Deserialize<'de> for OneOrMany<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        match Value::deserialize(d)? {
            Value::Null => Err(serde::de::Error::custom(
                "a null body where the catalog documents a list",
            )),
            Value::Array(items) => items
                .into_iter()
                .map(|item| serde_json::from_value(item).map_err(serde::de::Error::custom))
                .collect::<Result<Vec<T>, D::Error>>()
                .map(Self),
            other => serde_json::from_value(other)
                .map(|one| Self(vec![one]))
                .map_err(serde::de::Error::custom),
        }
    }
}

/// A linked node: `"genes/ENSG00000054654"` (verbose=false) or an object (verbose=true).
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct NodeRef {
    /// The collection, e.g. `genes`, `variants`, `ontology_terms`, when known.
    pub collection: Option<String>,
    /// The node key, e.g. `ENSG00000054654` or `NC_000014.9:64214129:A:G`.
    pub key: String,
    /// A display name, when the upstream gave one.
    pub name: Option<String>,
}

impl NodeRef {
    /// Parse `"<collection>/<key>"` (or a bare key).
    pub(crate) fn from_text(text: &str) -> Option<Self> {
        let text = text.trim();
        if text.is_empty() {
            return None;
        }
        // Keys such as SPDIs contain ':' but never '/', so the first '/' splits.
        Some(match text.split_once('/') {
            Some((collection, key)) if !key.is_empty() => Self {
                collection: Some(collection.to_owned()),
                key: key.to_owned(),
                name: None,
            },
            _ => Self {
                collection: None,
                key: text.to_owned(),
                name: None,
            },
        })
    }

    fn from_value(v: &Value) -> Option<Self> {
        match v {
            Value::String(s) => Self::from_text(s),
            Value::Object(map) => {
                let id = ["_id", "id", "gene_id", "term_id", "spdi"]
                    .iter()
                    .find_map(|k| map.get(*k).and_then(lenient::as_string))?;
                let mut node = Self::from_text(&id)?;
                node.name = ["name", "gene_name", "term_name", "symbol"]
                    .iter()
                    .find_map(|k| map.get(*k).and_then(lenient::as_string));
                Some(node)
            }
            _ => None,
        }
    }
}

impl<'de> Deserialize<'de> for NodeRef {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let v = Value::deserialize(d)?;
        NodeRef::from_value(&v).ok_or_else(|| serde::de::Error::custom("not a node reference"))
    }
}

/// An optional node reference that tolerates `null` and odd shapes.
fn node<'de, D: Deserializer<'de>>(d: D) -> Result<Option<NodeRef>, D::Error> {
    Ok(NodeRef::from_value(&Value::deserialize(d)?))
}

/// A gene (`/genes`, `/variants/nearest-genes`; recorded, 2026,
/// `tests/fixtures/genes__organism_only.json`).
#[derive(Debug, Clone, Deserialize)]
pub(crate) struct Gene {
    /// Ensembl gene ID without version.
    #[serde(rename = "_id", default)]
    pub id: String,
    #[serde(default, deserialize_with = "lenient::string")]
    pub chr: Option<String>,
    #[serde(default, deserialize_with = "lenient::u64")]
    pub start: Option<u64>,
    #[serde(default, deserialize_with = "lenient::u64")]
    pub end: Option<u64>,
    #[serde(default, deserialize_with = "lenient::string")]
    pub gene_type: Option<String>,
    /// The symbol (e.g. `TSPAN6`).
    #[serde(default, deserialize_with = "lenient::string")]
    pub name: Option<String>,
    #[serde(default, deserialize_with = "lenient::string")]
    pub strand: Option<String>,
    /// `HGNC:11858`.
    #[serde(default, deserialize_with = "lenient::string")]
    pub hgnc: Option<String>,
    /// `ENTREZ:7105`.
    #[serde(default, deserialize_with = "lenient::string")]
    pub entrez: Option<String>,
    #[serde(default, deserialize_with = "lenient::strings")]
    pub synonyms: Vec<String>,
    #[serde(default, deserialize_with = "lenient::strings")]
    pub collections: Vec<String>,
    #[serde(default, deserialize_with = "lenient::strings")]
    pub study_sets: Vec<String>,
    #[serde(default, deserialize_with = "lenient::string")]
    pub source: Option<String>,
    #[serde(default, deserialize_with = "lenient::string")]
    pub version: Option<String>,
    #[serde(default, deserialize_with = "lenient::string")]
    pub organism: Option<String>,
}

/// A transcript (`/transcripts`). Quirk: `gene_name` holds the ENSG ID.
#[derive(Debug, Clone, Deserialize)]
pub(crate) struct Transcript {
    #[serde(rename = "_id", default)]
    pub id: String,
    #[serde(default, deserialize_with = "lenient::string")]
    pub transcript_type: Option<String>,
    #[serde(default, deserialize_with = "lenient::string")]
    pub chr: Option<String>,
    #[serde(default, deserialize_with = "lenient::u64")]
    pub start: Option<u64>,
    #[serde(default, deserialize_with = "lenient::u64")]
    pub end: Option<u64>,
    #[serde(default, deserialize_with = "lenient::string")]
    pub strand: Option<String>,
    #[serde(default, deserialize_with = "lenient::string")]
    pub name: Option<String>,
    #[serde(default, deserialize_with = "lenient::string")]
    pub gene_name: Option<String>,
    #[serde(rename = "MANE_Select", default, deserialize_with = "lenient::bool")]
    pub mane_select: Option<bool>,
    #[serde(default, deserialize_with = "lenient::string")]
    pub source: Option<String>,
    #[serde(default, deserialize_with = "lenient::string")]
    pub version: Option<String>,
}

/// One UniProt cross-reference of a protein.
#[derive(Debug, Clone, Deserialize)]
pub(crate) struct Dbxref {
    #[serde(default, deserialize_with = "lenient::string")]
    pub name: Option<String>,
    #[serde(default, deserialize_with = "lenient::string")]
    pub id: Option<String>,
}

/// A protein (`/proteins`).
#[derive(Debug, Clone, Deserialize)]
pub(crate) struct Protein {
    /// Ensembl protein ID.
    #[serde(rename = "_id", default)]
    pub id: String,
    /// The gene symbol.
    #[serde(default, deserialize_with = "lenient::string")]
    pub name: Option<String>,
    #[serde(default, deserialize_with = "lenient::strings")]
    pub uniprot_names: Vec<String>,
    #[serde(default, deserialize_with = "lenient::strings")]
    pub uniprot_full_names: Vec<String>,
    #[serde(default, deserialize_with = "lenient::strings")]
    pub uniprot_ids: Vec<String>,
    #[serde(default, deserialize_with = "dbxrefs")]
    pub dbxrefs: Vec<Dbxref>,
    #[serde(rename = "MANE_Select", default, deserialize_with = "lenient::bool")]
    pub mane_select: Option<bool>,
    #[serde(default, deserialize_with = "lenient::string")]
    pub organism: Option<String>,
}

fn dbxrefs<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<Dbxref>, D::Error> {
    Ok(match Value::deserialize(d)? {
        Value::Array(items) => items
            .into_iter()
            .filter_map(|i| serde_json::from_value(i).ok())
            .collect(),
        _ => Vec::new(),
    })
}

/// A variant (`/variants`). `annotations` holds allele frequencies (`gnomad_af_*`,
/// `bravo_af`), `GENCODE_category` and `funseq_description`.
#[derive(Debug, Clone, Deserialize)]
pub(crate) struct Variant {
    /// The catalog key; equals the SPDI for human variants.
    #[serde(rename = "_id", default)]
    pub id: String,
    #[serde(default, deserialize_with = "lenient::string")]
    pub chr: Option<String>,
    /// 0-based position, as the catalog stores it (results carry it 1-based).
    #[serde(default, deserialize_with = "lenient::u64")]
    pub pos: Option<u64>,
    #[serde(default, deserialize_with = "lenient::strings")]
    pub rsid: Vec<String>,
    #[serde(rename = "ref", default, deserialize_with = "lenient::string")]
    pub reference: Option<String>,
    #[serde(default, deserialize_with = "lenient::string")]
    pub alt: Option<String>,
    #[serde(default, deserialize_with = "lenient::string")]
    pub spdi: Option<String>,
    #[serde(default, deserialize_with = "lenient::string")]
    pub hgvs: Option<String>,
    #[serde(default, deserialize_with = "lenient::string")]
    pub ca_id: Option<String>,
    #[serde(default, deserialize_with = "annotations")]
    pub annotations: BTreeMap<String, Value>,
    #[serde(default, deserialize_with = "lenient::string")]
    pub organism: Option<String>,
    #[serde(default, deserialize_with = "lenient::string")]
    pub source: Option<String>,
}

fn annotations<'de, D: Deserializer<'de>>(d: D) -> Result<BTreeMap<String, Value>, D::Error> {
    Ok(match Value::deserialize(d)? {
        Value::Object(map) => map.into_iter().collect(),
        _ => BTreeMap::new(),
    })
}

/// An ontology term (`/ontology-terms`). `term_id` is the underscore form.
#[derive(Debug, Clone, Deserialize)]
pub(crate) struct OntologyTerm {
    #[serde(default, deserialize_with = "lenient::string")]
    pub term_id: Option<String>,
    #[serde(default, deserialize_with = "lenient::string")]
    pub name: Option<String>,
    #[serde(default, deserialize_with = "lenient::strings")]
    pub synonyms: Vec<String>,
    #[serde(default, deserialize_with = "lenient::string")]
    pub description: Option<String>,
    #[serde(default, deserialize_with = "lenient::string")]
    pub source: Option<String>,
    #[serde(default, deserialize_with = "lenient::string")]
    pub subontology: Option<String>,
    #[serde(default, deserialize_with = "lenient::string")]
    pub uri: Option<String>,
}

/// A drug (`/drugs`): a PharmGKB chemical.
#[derive(Debug, Clone, Deserialize)]
pub(crate) struct Drug {
    #[serde(rename = "_id", default)]
    pub id: String,
    #[serde(default, deserialize_with = "lenient::string")]
    pub name: Option<String>,
    #[serde(default, deserialize_with = "lenient::strings")]
    pub drug_ontology_terms: Vec<String>,
    #[serde(default, deserialize_with = "lenient::string")]
    pub source: Option<String>,
    #[serde(default, deserialize_with = "lenient::string")]
    pub source_url: Option<String>,
}

/// A protein complex (`/complexes`, EBI Complex Portal).
#[derive(Debug, Clone, Deserialize)]
pub(crate) struct Complex {
    #[serde(rename = "_id", default)]
    pub id: String,
    #[serde(default, deserialize_with = "lenient::string")]
    pub name: Option<String>,
    #[serde(default, deserialize_with = "lenient::strings")]
    pub alias: Vec<String>,
    /// UniProt participants with stoichiometry, e.g. `Q15796(3)`.
    #[serde(default, deserialize_with = "lenient::strings")]
    pub molecules: Vec<String>,
    #[serde(default, deserialize_with = "lenient::string")]
    pub description: Option<String>,
    #[serde(default, deserialize_with = "lenient::string")]
    pub complex_assembly: Option<String>,
    #[serde(default, deserialize_with = "lenient::string")]
    pub evidence_code: Option<String>,
    #[serde(default, deserialize_with = "lenient::strings")]
    pub reactome_xref: Vec<String>,
}

/// A pathway (`/pathways`, Reactome).
#[derive(Debug, Clone, Deserialize)]
pub(crate) struct Pathway {
    #[serde(rename = "_id", default)]
    pub id: String,
    #[serde(default, deserialize_with = "lenient::string")]
    pub name: Option<String>,
    #[serde(default, deserialize_with = "lenient::string")]
    pub organism: Option<String>,
    #[serde(default, deserialize_with = "lenient::bool")]
    pub is_in_disease: Option<bool>,
    #[serde(default, deserialize_with = "lenient::bool")]
    pub is_top_level_pathway: Option<bool>,
    #[serde(default, deserialize_with = "lenient::strings")]
    pub name_aliases: Vec<String>,
    #[serde(default, deserialize_with = "lenient::strings")]
    pub disease_ontology_terms: Vec<String>,
}

/// A genomic (regulatory) element (`/genomic-elements`).
#[derive(Debug, Clone, Deserialize)]
pub(crate) struct GenomicElement {
    #[serde(default, deserialize_with = "lenient::string")]
    pub chr: Option<String>,
    #[serde(default, deserialize_with = "lenient::u64")]
    pub start: Option<u64>,
    #[serde(default, deserialize_with = "lenient::u64")]
    pub end: Option<u64>,
    /// The element's ID, e.g. the cCRE accession `EH38E2777055`.
    #[serde(default, deserialize_with = "lenient::string")]
    pub name: Option<String>,
    #[serde(default, deserialize_with = "lenient::string")]
    pub method: Option<String>,
    /// E.g. `dELS: distal Enhancer-like signal`.
    #[serde(default, deserialize_with = "lenient::string")]
    pub source_annotation: Option<String>,
    #[serde(rename = "type", default, deserialize_with = "lenient::string")]
    pub element_type: Option<String>,
    #[serde(default, deserialize_with = "lenient::string")]
    pub source: Option<String>,
}

/// `/variants/summary` (recorded: `tests/fixtures/variants_summary__*`): the variant's
/// names, gnomAD frequencies (overall and by population), CADD and nearest genes.
#[derive(Debug, Clone, Default, Deserialize)]
pub(crate) struct VariantSummary {
    #[serde(default)]
    pub allele_frequencies_gnomad: Option<BTreeMap<String, Value>>,
    #[serde(default)]
    pub cadd_scores: Option<CaddScores>,
    #[serde(default)]
    pub nearest_genes: Option<NearestGenes>,
    #[serde(default)]
    pub summary: Option<Value>,
}

/// `cadd_scores`: `raw` and `phread` (sic, the PHRED-scaled score).
#[derive(Debug, Clone, Default, Deserialize)]
pub(crate) struct CaddScores {
    #[serde(default, deserialize_with = "lenient::f64")]
    pub raw: Option<f64>,
    #[serde(default, deserialize_with = "lenient::f64")]
    pub phread: Option<f64>,
}

/// `nearest_genes`: the nearest gene and the nearest coding gene.
#[derive(Debug, Clone, Default, Deserialize)]
pub(crate) struct NearestGenes {
    #[serde(default, rename = "nearestGene")]
    pub nearest_gene: Option<NearbyGene>,
    #[serde(default, rename = "nearestCodingGene")]
    pub nearest_coding_gene: Option<NearbyGene>,
}

/// A gene near a variant.
#[derive(Debug, Clone, Default, Deserialize)]
pub(crate) struct NearbyGene {
    #[serde(default, deserialize_with = "lenient::string")]
    pub id: Option<String>,
    #[serde(default, deserialize_with = "lenient::string")]
    pub gene_name: Option<String>,
    #[serde(default, deserialize_with = "lenient::f64")]
    pub distance: Option<f64>,
}

impl lifesciences_core::Answer for VariantSummary {
    fn unusable(&self) -> Option<String> {
        (self.summary.is_none()
            && self.allele_frequencies_gnomad.is_none()
            && self.cadd_scores.is_none()
            && self.nearest_genes.is_none())
        .then(|| "a variant summary with none of its parts".to_owned())
    }
}

/// One PharmGKB study parameter set (its p-value key is `p-value`).
#[derive(Debug, Clone, Deserialize)]
pub(crate) struct StudyParameters {
    #[serde(rename = "p-value", default, deserialize_with = "lenient::f64")]
    pub p_value: Option<f64>,
}

/// An edge of any association endpoint: the union of the fields this server reads
/// (each endpoint fills a subset). Field names from the spec's output schemas and the
/// recorded responses.
#[derive(Debug, Clone, Default, Deserialize)]
pub(crate) struct Edge {
    // Linked nodes (strings with verbose=false, objects with verbose=true).
    #[serde(default, deserialize_with = "node")]
    pub gene: Option<NodeRef>,
    #[serde(default, deserialize_with = "node")]
    pub sequence_variant: Option<NodeRef>,
    /// The `"sequence variant"` key with a space (cell-gene predictions).
    #[serde(rename = "sequence variant", default, deserialize_with = "node")]
    pub sequence_variant_spaced: Option<NodeRef>,
    #[serde(default, deserialize_with = "node")]
    pub variant: Option<NodeRef>,
    #[serde(default, deserialize_with = "node")]
    pub genomic_element: Option<NodeRef>,
    #[serde(default, deserialize_with = "node")]
    pub protein: Option<NodeRef>,
    #[serde(default, deserialize_with = "node")]
    pub protein_complex: Option<NodeRef>,
    #[serde(default, deserialize_with = "node")]
    pub complex: Option<NodeRef>,
    #[serde(default, deserialize_with = "node")]
    pub disease: Option<NodeRef>,
    #[serde(default, deserialize_with = "node")]
    pub phenotype_id: Option<NodeRef>,
    #[serde(default, deserialize_with = "node")]
    pub pathway: Option<NodeRef>,
    #[serde(default, deserialize_with = "node")]
    pub drug: Option<NodeRef>,
    #[serde(rename = "_from", default, deserialize_with = "node")]
    pub from: Option<NodeRef>,
    #[serde(rename = "_to", default, deserialize_with = "node")]
    pub to: Option<NodeRef>,
    #[serde(default, deserialize_with = "node")]
    pub protein_1: Option<NodeRef>,
    #[serde(default, deserialize_with = "node")]
    pub protein_2: Option<NodeRef>,
    #[serde(default, deserialize_with = "node")]
    pub gene_1: Option<NodeRef>,
    #[serde(default, deserialize_with = "node")]
    pub gene_2: Option<NodeRef>,
    #[serde(default, deserialize_with = "node")]
    pub gene_product_id: Option<NodeRef>,
    #[serde(default, deserialize_with = "node")]
    pub study: Option<NodeRef>,
    #[serde(default, deserialize_with = "node")]
    pub biosample: Option<NodeRef>,
    #[serde(default, deserialize_with = "node")]
    pub biosample_term: Option<NodeRef>,
    #[serde(default, deserialize_with = "node")]
    pub transcript: Option<NodeRef>,
    /// ClinGen assertions name the gene as `gene_id` (`genes/ENSG…`).
    #[serde(default, deserialize_with = "node")]
    pub gene_id: Option<NodeRef>,
    /// The gene regulatory network's response gene, by symbol.
    #[serde(default, deserialize_with = "lenient::string")]
    pub response_gene: Option<String>,

    // Names that accompany the nodes.
    #[serde(default, deserialize_with = "lenient::string")]
    pub gene_name: Option<String>,
    #[serde(default, deserialize_with = "lenient::string")]
    pub gene_symbol: Option<String>,
    #[serde(default, deserialize_with = "lenient::string")]
    pub term_name: Option<String>,
    #[serde(default, deserialize_with = "lenient::string")]
    pub phenotype_term: Option<String>,
    #[serde(default, deserialize_with = "lenient::string")]
    pub gene_product_name: Option<String>,
    #[serde(default, deserialize_with = "lenient::string")]
    pub go_id: Option<String>,
    #[serde(default, deserialize_with = "lenient::string")]
    pub go_term_name: Option<String>,

    // What the edge is and where it comes from.
    #[serde(default, deserialize_with = "lenient::string")]
    pub name: Option<String>,
    #[serde(default, deserialize_with = "lenient::string")]
    pub label: Option<String>,
    #[serde(default, deserialize_with = "lenient::string")]
    pub method: Option<String>,
    #[serde(default, deserialize_with = "lenient::string")]
    pub source: Option<String>,
    /// `observed data` or `prediction`.
    #[serde(rename = "class", default, deserialize_with = "lenient::string")]
    pub class: Option<String>,

    // Statistics. `p_val` is the GWAS edge's spelling of `p_value`.
    #[serde(default, deserialize_with = "lenient::f64")]
    pub p_value: Option<f64>,
    #[serde(default, deserialize_with = "lenient::f64")]
    pub p_val: Option<f64>,
    #[serde(default, deserialize_with = "lenient::f64")]
    pub neg_log10_pvalue: Option<f64>,
    #[serde(default, deserialize_with = "lenient::f64")]
    pub effect_size: Option<f64>,
    #[serde(default, deserialize_with = "lenient::f64")]
    pub beta: Option<f64>,
    #[serde(rename = "log2FC", default, deserialize_with = "lenient::f64")]
    pub log2_fc: Option<f64>,
    #[serde(rename = "log2FoldChange", default, deserialize_with = "lenient::f64")]
    pub log2_fold_change: Option<f64>,
    #[serde(default, deserialize_with = "lenient::f64")]
    pub score: Option<f64>,
    #[serde(default, deserialize_with = "lenient::f64")]
    pub z_score: Option<f64>,
    #[serde(default, deserialize_with = "lenient::f64")]
    pub posterior_inclusion_probability: Option<f64>,
    #[serde(default, deserialize_with = "study_parameters")]
    pub study_parameters: Vec<StudyParameters>,

    // Context.
    #[serde(default, deserialize_with = "lenient::string")]
    pub biological_context: Option<String>,
    #[serde(default, deserialize_with = "lenient::string")]
    pub assertion: Option<String>,
    #[serde(default, deserialize_with = "lenient::string")]
    pub association_type: Option<String>,
    #[serde(default, deserialize_with = "lenient::string")]
    pub interaction_type: Option<String>,
    #[serde(default, deserialize_with = "lenient::string")]
    pub detection_method: Option<String>,
    #[serde(default, deserialize_with = "lenient::string")]
    pub evidence: Option<String>,
    #[serde(default, deserialize_with = "lenient::strings")]
    pub pmids: Vec<String>,
    #[serde(default, deserialize_with = "lenient::strings")]
    pub pmid: Vec<String>,
    #[serde(default, deserialize_with = "lenient::strings")]
    pub phenotype_categories: Vec<String>,
}

fn study_parameters<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<StudyParameters>, D::Error> {
    Ok(match Value::deserialize(d)? {
        Value::Array(items) => items
            .into_iter()
            .filter_map(|i| serde_json::from_value(i).ok())
            .collect(),
        Value::Object(map) => serde_json::from_value(Value::Object(map))
            .ok()
            .into_iter()
            .collect(),
        _ => Vec::new(),
    })
}

impl Edge {
    /// The p-value, from whichever field this edge uses (`p_value`, `p_val`,
    /// `study_parameters[].p-value`, or derived from `neg_log10_pvalue`).
    pub(crate) fn p_value(&self) -> Option<f64> {
        self.p_value
            .or(self.p_val)
            .or_else(|| {
                self.study_parameters
                    .iter()
                    .filter_map(|s| s.p_value)
                    .reduce(f64::min)
            })
            .or_else(|| self.neg_log10_pvalue.map(|n| 10f64.powf(-n)))
    }

    /// The effect size and what it measures (`effect_size`, `beta`, `log2FC`).
    pub(crate) fn effect(&self) -> Option<(f64, &'static str)> {
        self.effect_size
            .map(|v| (v, "effect_size"))
            .or(self.beta.map(|v| (v, "beta")))
            .or(self.log2_fc.map(|v| (v, "log2FC")))
            .or(self.log2_fold_change.map(|v| (v, "log2FC")))
    }
}

/// A row of `/genes/coding-variants/scores`: a protein change, the variants that make
/// it, and each variant's scores (recorded, 2026,
/// `tests/fixtures/genes_coding-variants_scores__gene_id=ENSG00000196584.json`).
#[derive(Debug, Clone, Deserialize)]
pub(crate) struct CodingScores {
    pub protein_change: ProteinChange,
    #[serde(default)]
    pub variants: Vec<ScoredVariant>,
}

/// The protein side of a coding-variant score row.
#[derive(Debug, Clone, Deserialize)]
pub(crate) struct ProteinChange {
    #[serde(default, deserialize_with = "lenient::string")]
    pub protein_id: Option<String>,
    #[serde(default, deserialize_with = "lenient::string")]
    pub transcript_id: Option<String>,
    #[serde(default, deserialize_with = "lenient::string")]
    pub hgvsp: Option<String>,
}

/// One variant of a protein change and its scores.
#[derive(Debug, Clone, Deserialize)]
pub(crate) struct ScoredVariant {
    #[serde(default, deserialize_with = "node")]
    pub variant: Option<NodeRef>,
    #[serde(default)]
    pub scores: Vec<VariantScore>,
}

/// One score of a coding variant (a MAVE assay or a predictor).
#[derive(Debug, Clone, Deserialize)]
pub(crate) struct VariantScore {
    #[serde(default, deserialize_with = "lenient::string")]
    pub method: Option<String>,
    #[serde(default, deserialize_with = "lenient::f64")]
    pub score: Option<f64>,
}

/// A row of `/coding-variants/phenotypes`: one score of one protein change (recorded
/// for `/phenotypes/coding-variants`, the same output schema, 2026,
/// `tests/fixtures/coding-variants_phenotypes__gene_name=CYP2C19_hgvsp=p.Ala103=.json`).
#[derive(Debug, Clone, Deserialize)]
pub(crate) struct ChangeScore {
    pub coding_variant: CodingVariantRef,
    #[serde(default, deserialize_with = "node")]
    pub variant: Option<NodeRef>,
    #[serde(default, deserialize_with = "lenient::f64")]
    pub score: Option<f64>,
    #[serde(default, deserialize_with = "lenient::string")]
    pub method: Option<String>,
    #[serde(default, deserialize_with = "lenient::string")]
    pub source: Option<String>,
    #[serde(default)]
    pub phenotype: Option<ChangePhenotype>,
}

/// The protein change of a [`ChangeScore`].
#[derive(Debug, Clone, Deserialize)]
pub(crate) struct CodingVariantRef {
    #[serde(rename = "_id", default)]
    pub id: String,
    #[serde(default, deserialize_with = "lenient::string")]
    pub hgvsp: Option<String>,
}

/// What a [`ChangeScore`] measures, e.g. `protein stability`.
#[derive(Debug, Clone, Deserialize)]
pub(crate) struct ChangePhenotype {
    #[serde(default, deserialize_with = "lenient::string")]
    pub phenotype_name: Option<String>,
}

/// A row of `/ontology-terms/{id}/children`: the child term and how it relates (fields
/// from the spec's output schema; no recording).
#[derive(Debug, Clone, Deserialize)]
pub(crate) struct TermChild {
    pub term: ChildTerm,
}

/// The child term of a [`TermChild`].
#[derive(Debug, Clone, Deserialize)]
pub(crate) struct ChildTerm {
    pub term_id: String,
}

/// A linkage-disequilibrium edge (`/variants/variant-ld`, TopLD).
#[derive(Debug, Clone, Deserialize)]
pub(crate) struct LdEdge {
    #[serde(default, deserialize_with = "lenient::string")]
    pub ancestry: Option<String>,
    #[serde(default, deserialize_with = "lenient::f64")]
    pub r2: Option<f64>,
    #[serde(default, deserialize_with = "lenient::f64")]
    pub d_prime: Option<f64>,
    #[serde(default, deserialize_with = "lenient::string")]
    pub variant_1_rsid: Option<String>,
    #[serde(default, deserialize_with = "lenient::string")]
    pub variant_1_spdi: Option<String>,
    #[serde(default, deserialize_with = "lenient::string")]
    pub variant_1_hgvs: Option<String>,
    #[serde(default, deserialize_with = "lenient::u64")]
    pub variant_1_pos: Option<u64>,
    #[serde(default, deserialize_with = "lenient::string")]
    pub variant_2_rsid: Option<String>,
    #[serde(default, deserialize_with = "lenient::string")]
    pub variant_2_spdi: Option<String>,
    #[serde(default, deserialize_with = "lenient::string")]
    pub variant_2_hgvs: Option<String>,
    #[serde(default, deserialize_with = "lenient::u64")]
    pub variant_2_pos: Option<u64>,
    /// The partner variant's key (with verbose=false).
    #[serde(default, deserialize_with = "node")]
    pub sequence_variant: Option<NodeRef>,
    #[serde(default, deserialize_with = "lenient::string")]
    pub source: Option<String>,
}

/// The body of a 400 from the upstream (trpc-openapi): a message, and zod issues for
/// schema failures.
#[derive(Debug, Clone, Deserialize)]
pub(crate) struct BadRequest {
    #[serde(default)]
    pub message: String,
    #[serde(default)]
    pub issues: Vec<ZodIssue>,
}

/// One zod validation issue.
#[derive(Debug, Clone, Deserialize)]
pub(crate) struct ZodIssue {
    #[serde(default)]
    pub code: String,
    #[serde(default, deserialize_with = "lenient::strings")]
    pub path: Vec<String>,
    #[serde(default, deserialize_with = "lenient::string")]
    pub received: Option<String>,
    #[serde(default, deserialize_with = "lenient::strings")]
    pub options: Vec<String>,
}

// What makes each record one the catalog documents: a wrong shape that still decodes
// (every field here is optional) is an upstream error, never "not found" or "no data".

/// Answers of one record or a list: unusable when none of their records is.
impl<T: serde::de::DeserializeOwned + lifesciences_core::Row> lifesciences_core::Answer
    for OneOrMany<T>
{
    fn unusable(&self) -> Option<String> {
        lifesciences_core::Answer::unusable(&self.0)
    }
}

/// Node records carry their `_id`.
macro_rules! rows_with_id {
    ($($record:ty),*) => {$(
        impl lifesciences_core::Row for $record {
            fn usable(&self) -> bool {
                !self.id.is_empty()
            }
        }
    )*};
}
rows_with_id!(Gene, Transcript, Protein, Variant, Drug, Complex, Pathway);

impl lifesciences_core::Row for OntologyTerm {
    fn usable(&self) -> bool {
        self.term_id.is_some()
    }
}

impl lifesciences_core::Row for GenomicElement {
    fn usable(&self) -> bool {
        self.chr.is_some() && self.start.is_some()
    }
}

/// An edge names at least one of its ends.
impl lifesciences_core::Row for Edge {
    fn usable(&self) -> bool {
        [
            &self.gene,
            &self.sequence_variant,
            &self.sequence_variant_spaced,
            &self.variant,
            &self.genomic_element,
            &self.protein,
            &self.protein_complex,
            &self.complex,
            &self.disease,
            &self.phenotype_id,
            &self.pathway,
            &self.drug,
            &self.from,
            &self.to,
            &self.protein_1,
            &self.protein_2,
            &self.gene_1,
            &self.gene_2,
            &self.gene_product_id,
            &self.transcript,
        ]
        .iter()
        .any(|end| end.is_some())
            || self.go_id.is_some()
            || self.response_gene.is_some()
    }
}

impl lifesciences_core::Row for CodingScores {
    fn usable(&self) -> bool {
        self.protein_change.hgvsp.is_some() || self.protein_change.protein_id.is_some()
    }
}

impl lifesciences_core::Row for ChangeScore {
    fn usable(&self) -> bool {
        !self.coding_variant.id.is_empty()
    }
}

impl lifesciences_core::Row for TermChild {
    fn usable(&self) -> bool {
        !self.term.term_id.is_empty()
    }
}

/// An LD edge names the partner variant.
impl lifesciences_core::Row for LdEdge {
    fn usable(&self) -> bool {
        self.sequence_variant.is_some()
            || [
                &self.variant_1_rsid,
                &self.variant_1_spdi,
                &self.variant_2_rsid,
                &self.variant_2_spdi,
            ]
            .iter()
            .any(|id| id.is_some())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn one_or_many_reads_arrays_and_objects_and_refuses_null() {
        let many: OneOrMany<Drug> =
            serde_json::from_value(json!([{"_id": "PA1"}, {"_id": "PA2"}])).unwrap();
        assert_eq!(many.0.len(), 2);
        let one: OneOrMany<Drug> = serde_json::from_value(json!({"_id": "PA1"})).unwrap();
        assert_eq!(one.0[0].id, "PA1");
        let none: OneOrMany<Drug> = serde_json::from_value(json!([])).unwrap();
        assert!(none.0.is_empty());
        assert!(serde_json::from_value::<OneOrMany<Drug>>(json!(null)).is_err());
    }

    #[test]
    fn rsid_is_an_array_or_null_or_a_string() {
        let v: Variant =
            serde_json::from_value(json!({"_id": "x", "rsid": ["rs1", null]})).unwrap();
        assert_eq!(v.rsid, ["rs1"]);
        let v: Variant = serde_json::from_value(json!({"_id": "x", "rsid": null})).unwrap();
        assert!(v.rsid.is_empty());
        let v: Variant = serde_json::from_value(json!({"_id": "x", "rsid": "rs2"})).unwrap();
        assert_eq!(v.rsid, ["rs2"]);
    }

    #[test]
    fn numbers_may_be_strings_and_garbage_is_dropped() {
        let e: Edge = serde_json::from_value(json!({
            "p_value": "1.5e-8", "neg_log10_pvalue": "x", "effect_size": 0.3, "score": null
        }))
        .unwrap();
        assert_eq!(e.p_value, Some(1.5e-8));
        assert_eq!(e.neg_log10_pvalue, None);
        assert_eq!(e.effect(), Some((0.3, "effect_size")));
        let g: Gene =
            serde_json::from_value(json!({"_id": "G", "start": "100", "end": 2e2})).unwrap();
        assert_eq!((g.start, g.end), (Some(100), Some(200)));
    }

    #[test]
    fn the_p_value_comes_from_whichever_key_the_edge_uses() {
        let gwas: Edge = serde_json::from_value(json!({"p_val": 2e-12})).unwrap();
        assert_eq!(gwas.p_value(), Some(2e-12));
        let pharm: Edge = serde_json::from_value(
            json!({"study_parameters": [{"p-value": "0.04"}, {"p-value": 0.001}]}),
        )
        .unwrap();
        assert_eq!(pharm.p_value(), Some(0.001));
        let neg: Edge = serde_json::from_value(json!({"neg_log10_pvalue": 5.0})).unwrap();
        assert!((neg.p_value().unwrap() - 1e-5).abs() < 1e-12);
    }

    #[test]
    fn node_refs_read_strings_objects_and_the_spaced_key() {
        let e: Edge = serde_json::from_value(json!({
            "gene": "genes/ENSG00000054654",
            "sequence_variant": {"_id": "NC_000014.9:64214129:A:G", "name": "x"},
            "sequence variant": "variants/NC_1:1:A:G",
            "disease": null
        }))
        .unwrap();
        let gene = e.gene.unwrap();
        assert_eq!(gene.collection.as_deref(), Some("genes"));
        assert_eq!(gene.key, "ENSG00000054654");
        assert_eq!(e.sequence_variant.unwrap().key, "NC_000014.9:64214129:A:G");
        assert_eq!(e.sequence_variant_spaced.unwrap().key, "NC_1:1:A:G");
        assert!(e.disease.is_none());
    }
}
