//! Serde types mirroring the upstream JSON of Ensembl REST and EBI Search.
//!
//! Tolerant on purpose: every field the upstream may leave out is optional (Ensembl omits
//! undefined fields, e.g. `description`, and older releases lack `canonical_transcript`),
//! numbers are accepted as numbers or strings, and EBI Search field values as a list or a
//! single string. Field names come from the upstreams' documentation and source and from
//! recorded responses (`tests/fixtures/`, docs/sources/ensembl.md). These types never
//! reach the wire: the tools map them into their own output types.

use std::collections::HashMap;

use lifesciences_core::{Answer, Row};
use serde::{Deserialize, Deserializer};

/// One object of `GET /lookup/id/:id` or one value of `POST /lookup/id`: a Gene,
/// Transcript, Translation or Exon. Its `id` is not read: Ensembl is reported to echo the
/// caller's spelling (case, version), so the tools use the ID they parsed.
#[derive(Debug, Clone, Default, Deserialize)]
pub(crate) struct LookupObject {
    /// Production name, e.g. `homo_sapiens`.
    #[serde(default)]
    pub species: Option<String>,
    #[serde(default, deserialize_with = "opt_i64")]
    pub version: Option<i64>,
    /// Chromosome or scaffold name (a string: `"17"`, `"X"`, `"MT"`).
    #[serde(default, deserialize_with = "opt_string")]
    pub seq_region_name: Option<String>,
    #[serde(default)]
    pub assembly_name: Option<String>,
    #[serde(default, deserialize_with = "opt_i64")]
    pub start: Option<i64>,
    #[serde(default, deserialize_with = "opt_i64")]
    pub end: Option<i64>,
    #[serde(default, deserialize_with = "opt_i64")]
    pub strand: Option<i64>,
    /// Gene symbol (`TP53`) or transcript name (`KRAS-202`).
    #[serde(default)]
    pub display_name: Option<String>,
    /// Gene description, ending in `[Source:HGNC Symbol;Acc:HGNC:…]`.
    #[serde(default)]
    pub description: Option<String>,
    #[serde(default)]
    pub biotype: Option<String>,
    /// Genes, release 105 on: the canonical transcript's stable ID **with** its version.
    #[serde(default)]
    pub canonical_transcript: Option<String>,
    /// Transcripts: 1 or 0.
    #[serde(default, deserialize_with = "opt_flag")]
    pub is_canonical: Option<bool>,
    /// Transcripts: the gene's stable ID; translations: the transcript's.
    #[serde(default, rename = "Parent")]
    pub parent: Option<String>,
}

/// The answer of `POST /lookup/id`: the input ID strings as keys, `null` for IDs that
/// were not found.
pub(crate) type LookupBatch = HashMap<String, Option<LookupObject>>;

/// One element of `GET /xrefs/id/:id`.
#[derive(Debug, Clone, Default, Deserialize)]
pub(crate) struct XrefEntry {
    /// The external database, e.g. `HGNC`, `EntrezGene`, `Uniprot/SWISSPROT`.
    #[serde(default)]
    pub dbname: String,
    /// The accession in that database, e.g. `HGNC:6407`, `3845`, `P01116`.
    #[serde(default, deserialize_with = "opt_string")]
    pub primary_id: Option<String>,
}

/// One element of `GET /xrefs/symbol/:species/:symbol`: only an ID and its type.
#[derive(Debug, Clone, Deserialize)]
pub(crate) struct XrefSymbolHit {
    pub id: String,
    /// `gene`, `transcript` or `translation`.
    #[serde(default, rename = "type")]
    pub kind: Option<String>,
}

/// `GET /info/species`.
#[derive(Debug, Clone, Default, Deserialize)]
pub(crate) struct SpeciesList {
    #[serde(default)]
    pub species: Vec<SpeciesInfo>,
}

/// One species of `GET /info/species`.
#[derive(Debug, Clone, Default, Deserialize)]
pub(crate) struct SpeciesInfo {
    /// Production name, e.g. `homo_sapiens`.
    #[serde(default)]
    pub name: String,
    /// e.g. `Human`.
    #[serde(default)]
    pub display_name: Option<String>,
    /// e.g. `human`.
    #[serde(default)]
    pub common_name: Option<String>,
    /// A string in the API (`"9606"`); numbers accepted too.
    #[serde(default, deserialize_with = "opt_string")]
    pub taxon_id: Option<String>,
    /// Other names Ensembl accepts for the species.
    #[serde(default, deserialize_with = "strings")]
    pub aliases: Vec<String>,
}

/// `GET /ebisearch/ws/rest/ensembl_gene?query=…`.
#[derive(Debug, Clone, Default, Deserialize)]
pub(crate) struct EbiSearchResult {
    /// Total hits of the query; absent from entry look-ups.
    #[serde(default, rename = "hitCount", deserialize_with = "opt_u64")]
    pub hit_count: Option<u64>,
    #[serde(default)]
    pub entries: Vec<EbiEntry>,
}

/// One hit of EBI Search's `ensembl_gene` domain.
#[derive(Debug, Clone, Default, Deserialize)]
pub(crate) struct EbiEntry {
    #[serde(default)]
    pub id: Option<String>,
    #[serde(default)]
    pub fields: EbiGeneFields,
}

/// The fields we ask EBI Search for. Every value is a list of strings upstream.
#[derive(Debug, Clone, Default, Deserialize)]
pub(crate) struct EbiGeneFields {
    /// e.g. `AKT serine/threonine kinase 1 [Source:HGNC Symbol;Acc:HGNC:391]`.
    #[serde(default, deserialize_with = "strings")]
    pub description: Vec<String>,
    /// The gene symbol, e.g. `AKT1`.
    #[serde(default, deserialize_with = "strings")]
    pub gene_name: Vec<String>,
    /// Scientific name, e.g. `Homo sapiens`.
    #[serde(default, deserialize_with = "strings")]
    pub species: Vec<String>,
}

// ---------------------------------------------------------------------------------------
// Variant Effect Predictor

/// One element of a VEP answer (`GET vep/:species/region|id|hgvs/…` and their POST forms
/// answer a JSON array, one element per variant placed). Fields as recorded in
/// `tests/fixtures/vep_*` (2023 and 2024 production answers).
#[derive(Debug, Clone, Default, Deserialize)]
pub(crate) struct VepResult {
    /// The variant as sent: an rsID, an HGVS string, or the region line VEP built.
    #[serde(default, deserialize_with = "opt_string")]
    pub input: Option<String>,
    /// VEP's name of the variant (the rsID, the HGVS, or `16_89279135_G/C`).
    #[serde(default, deserialize_with = "opt_string")]
    pub id: Option<String>,
    #[serde(default, deserialize_with = "opt_string")]
    pub seq_region_name: Option<String>,
    #[serde(default, deserialize_with = "opt_i64")]
    pub start: Option<i64>,
    #[serde(default, deserialize_with = "opt_i64")]
    pub end: Option<i64>,
    /// `G/C`, `TTTTT/-`, `-/A`.
    #[serde(default)]
    pub allele_string: Option<String>,
    #[serde(default)]
    pub assembly_name: Option<String>,
    #[serde(default)]
    pub most_severe_consequence: Option<String>,
    /// With `variant_class=1`: `SNV`, `insertion`, `deletion`…
    #[serde(default)]
    pub variant_class: Option<String>,
    #[serde(default)]
    pub colocated_variants: Vec<VepColocated>,
    #[serde(default)]
    pub transcript_consequences: Vec<VepTranscript>,
    /// Only counted.
    #[serde(default)]
    pub regulatory_feature_consequences: Vec<serde_json::Value>,
}

/// A known variant at the same place (`colocated_variants[]`).
#[derive(Debug, Clone, Default, Deserialize)]
pub(crate) struct VepColocated {
    /// `rs…`, `COSV…`, an HGMD `CM…`.
    #[serde(default, deserialize_with = "opt_string")]
    pub id: Option<String>,
    #[serde(default)]
    pub minor_allele: Option<String>,
    #[serde(default, deserialize_with = "opt_f64")]
    pub minor_allele_freq: Option<f64>,
    /// ClinVar significances, e.g. `pathogenic`.
    #[serde(default, deserialize_with = "strings")]
    pub clin_sig: Vec<String>,
}

/// One `transcript_consequences[]` element.
#[derive(Debug, Clone, Default, Deserialize)]
pub(crate) struct VepTranscript {
    #[serde(default, deserialize_with = "opt_string")]
    pub transcript_id: Option<String>,
    /// An Ensembl gene ID, or an NCBI Gene ID with `refseq=1` (`"4160"`).
    #[serde(default, deserialize_with = "opt_string")]
    pub gene_id: Option<String>,
    #[serde(default)]
    pub gene_symbol: Option<String>,
    #[serde(default)]
    pub biotype: Option<String>,
    /// `HIGH`, `MODERATE`, `LOW`, `MODIFIER`.
    #[serde(default)]
    pub impact: Option<String>,
    #[serde(default, deserialize_with = "strings")]
    pub consequence_terms: Vec<String>,
    /// With `canonical=1`: 1 on the canonical transcript.
    #[serde(default, deserialize_with = "opt_flag")]
    pub canonical: Option<bool>,
    /// With `mane=1`: the MANE Select transcript (`ENST00000357033.9`).
    #[serde(default)]
    pub mane_select: Option<String>,
    #[serde(default)]
    pub mane_plus_clinical: Option<String>,
    #[serde(default)]
    pub hgvsc: Option<String>,
    #[serde(default)]
    pub hgvsp: Option<String>,
    /// `S/G`; one letter when the protein is unchanged.
    #[serde(default)]
    pub amino_acids: Option<String>,
    #[serde(default, deserialize_with = "opt_i64")]
    pub protein_start: Option<i64>,
    #[serde(default, deserialize_with = "opt_i64")]
    pub protein_end: Option<i64>,
    /// With `numbers=1`: `"69/79"`.
    #[serde(default, deserialize_with = "opt_string")]
    pub exon: Option<String>,
    #[serde(default, deserialize_with = "opt_string")]
    pub intron: Option<String>,
    #[serde(default)]
    pub sift_prediction: Option<String>,
    #[serde(default, deserialize_with = "opt_f64")]
    pub sift_score: Option<f64>,
    #[serde(default)]
    pub polyphen_prediction: Option<String>,
    #[serde(default, deserialize_with = "opt_f64")]
    pub polyphen_score: Option<f64>,
    #[serde(default, deserialize_with = "opt_string")]
    pub protein_id: Option<String>,
}

// ---------------------------------------------------------------------------------------
// Variation

/// `GET variation/:species/:id` (fields as the Ensembl REST source writes them:
/// `lib/EnsEMBL/REST/Model/Variation.pm` in Ensembl/ensembl-rest).
#[derive(Debug, Clone, Default, Deserialize)]
pub(crate) struct VariationRecord {
    #[serde(default, deserialize_with = "opt_string")]
    pub name: Option<String>,
    #[serde(default)]
    pub source: Option<String>,
    /// `SNP`, `indel`, `somatic SNV`…
    #[serde(default)]
    pub var_class: Option<String>,
    #[serde(default)]
    pub mappings: Vec<VariationMapping>,
    #[serde(default, rename = "MAF", deserialize_with = "opt_f64")]
    pub maf: Option<f64>,
    #[serde(default)]
    pub minor_allele: Option<String>,
    #[serde(default)]
    pub ambiguity: Option<String>,
    #[serde(default, deserialize_with = "strings")]
    pub synonyms: Vec<String>,
    #[serde(default, deserialize_with = "strings")]
    pub evidence: Vec<String>,
    #[serde(default, deserialize_with = "strings")]
    pub clinical_significance: Vec<String>,
    #[serde(default)]
    pub most_severe_consequence: Option<String>,
    /// With `phenotypes=1`.
    #[serde(default)]
    pub phenotypes: Vec<VariationPhenotype>,
}

/// One place of a variant (`mappings[]`).
#[derive(Debug, Clone, Default, Deserialize)]
pub(crate) struct VariationMapping {
    /// `chr:start-end`.
    #[serde(default)]
    pub location: Option<String>,
    #[serde(default)]
    pub assembly_name: Option<String>,
    #[serde(default, deserialize_with = "opt_i64")]
    pub strand: Option<i64>,
    #[serde(default)]
    pub allele_string: Option<String>,
    #[serde(default)]
    pub ancestral_allele: Option<String>,
}

/// One `phenotypes[]` element.
#[derive(Debug, Clone, Default, Deserialize)]
pub(crate) struct VariationPhenotype {
    #[serde(default, rename = "trait")]
    pub trait_name: Option<String>,
    #[serde(default)]
    pub source: Option<String>,
    #[serde(default, deserialize_with = "opt_string")]
    pub study: Option<String>,
    #[serde(default, deserialize_with = "opt_string")]
    pub genes: Option<String>,
    #[serde(default)]
    pub risk_allele: Option<String>,
    #[serde(default, deserialize_with = "opt_f64")]
    pub pvalue: Option<f64>,
    #[serde(default, deserialize_with = "strings")]
    pub ontology_accessions: Vec<String>,
}

// ---------------------------------------------------------------------------------------
// Sequences

/// One sequence of `POST sequence/id` (an array) or `GET sequence/region/…` (one object):
/// `{id, desc, molecule, seq, query, version}` (Ensembl REST `Controller/Sequence.pm`).
#[derive(Debug, Clone, Default, Deserialize)]
pub(crate) struct SequenceRecord {
    /// The sequence's own ID (a transcript's, for a gene asked with `cdna`), or the slice
    /// name for a region (`chromosome:GRCh38:X:1000000:1000100:1`).
    #[serde(default, deserialize_with = "opt_string")]
    pub id: Option<String>,
    /// What was asked for.
    #[serde(default, deserialize_with = "opt_string")]
    pub query: Option<String>,
    /// `dna` or `protein`.
    #[serde(default)]
    pub molecule: Option<String>,
    #[serde(default)]
    pub seq: Option<String>,
}

// ---------------------------------------------------------------------------------------
// Homology

/// `GET homology/id/:species/:id` and `homology/symbol/:species/:symbol` (full format):
/// `{"data": [{"id": gene, "homologies": […]}]}` (Ensembl REST `t/homology.t`).
#[derive(Debug, Clone, Default, Deserialize)]
pub(crate) struct HomologyAnswer {
    pub data: Option<Vec<HomologyGene>>,
}

/// The homologies of one gene.
#[derive(Debug, Clone, Default, Deserialize)]
pub(crate) struct HomologyGene {
    #[serde(default, deserialize_with = "opt_string")]
    pub id: Option<String>,
    #[serde(default)]
    pub homologies: Vec<Homology>,
}

/// One homology: the gene asked (`source`) and its homolog (`target`).
#[derive(Debug, Clone, Default, Deserialize)]
pub(crate) struct Homology {
    /// `ortholog_one2one`, `ortholog_one2many`, `within_species_paralog`…
    #[serde(default, rename = "type")]
    pub kind: Option<String>,
    /// e.g. `Homininae`.
    #[serde(default)]
    pub taxonomy_level: Option<String>,
    #[serde(default, deserialize_with = "opt_f64")]
    pub dn_ds: Option<f64>,
    #[serde(default)]
    pub source: HomologyMember,
    #[serde(default)]
    pub target: HomologyMember,
}

/// One side of a homology.
#[derive(Debug, Clone, Default, Deserialize)]
pub(crate) struct HomologyMember {
    #[serde(default, deserialize_with = "opt_string")]
    pub id: Option<String>,
    #[serde(default)]
    pub species: Option<String>,
    /// Percent of this protein identical in the alignment.
    #[serde(default, deserialize_with = "opt_f64")]
    pub perc_id: Option<f64>,
    #[serde(default, deserialize_with = "opt_string")]
    pub protein_id: Option<String>,
    #[serde(default, deserialize_with = "opt_u64")]
    pub taxon_id: Option<u64>,
}

// ---------------------------------------------------------------------------------------
// Overlap

/// One element of `GET overlap/region/:species/:region` (a flat array of features of the
/// requested types; keys per type as Ensembl REST's `t/overlap.t` and the core API's
/// `summary_as_hash` write them).
#[derive(Debug, Clone, Default, Deserialize)]
pub(crate) struct OverlapFeature {
    /// The requested feature type: `gene`, `transcript`, `variation`, `regulatory`…
    #[serde(default)]
    pub feature_type: Option<String>,
    #[serde(default, deserialize_with = "opt_string")]
    pub id: Option<String>,
    /// Motifs have a `stable_id` instead.
    #[serde(default, deserialize_with = "opt_string")]
    pub stable_id: Option<String>,
    /// Gene and transcript names (`TP53`, `TP53-201`).
    #[serde(default)]
    pub external_name: Option<String>,
    #[serde(default)]
    pub biotype: Option<String>,
    /// Genes: with `[Source:…]`; regulatory features: their kind (`enhancer`).
    #[serde(default)]
    pub description: Option<String>,
    #[serde(default, deserialize_with = "opt_i64")]
    pub start: Option<i64>,
    #[serde(default, deserialize_with = "opt_i64")]
    pub end: Option<i64>,
    #[serde(default, deserialize_with = "opt_i64")]
    pub strand: Option<i64>,
    /// Variants: the most severe consequence.
    #[serde(default)]
    pub consequence_type: Option<String>,
    #[serde(default, deserialize_with = "strings")]
    pub alleles: Vec<String>,
    #[serde(default, deserialize_with = "strings")]
    pub clinical_significance: Vec<String>,
    /// Transcripts: the gene; exons and CDS: the transcript.
    #[serde(default, rename = "Parent", deserialize_with = "opt_string")]
    pub parent: Option<String>,
    /// Genes (REST adds it): `ENST….v`.
    #[serde(default)]
    pub canonical_transcript: Option<String>,
    /// Transcripts: 1 on the canonical one.
    #[serde(default, deserialize_with = "opt_flag")]
    pub is_canonical: Option<bool>,
}

// ---------------------------------------------------------------------------------------
// Coordinate mapping

/// `GET map/…`: `{"mappings": […]}`, each element either `{original, mapped}` (between
/// assemblies, or with `include_original_region=1`) or the mapped place alone (Ensembl
/// REST `t/map.t`; `tests/fixtures/map_cdna__*`).
#[derive(Debug, Clone, Default, Deserialize)]
pub(crate) struct MapAnswer {
    pub mappings: Option<Vec<MapPair>>,
}

/// One mapped piece.
#[derive(Debug, Clone, Default, Deserialize)]
pub(crate) struct MapPair {
    #[serde(default)]
    pub original: Option<MapPlace>,
    #[serde(default)]
    pub mapped: Option<MapPlace>,
    /// The flat form: the mapped place itself.
    #[serde(flatten)]
    pub flat: MapPlace,
}

/// A place on one side of a mapping.
#[derive(Debug, Clone, Default, Deserialize)]
pub(crate) struct MapPlace {
    #[serde(default)]
    pub coord_system: Option<String>,
    /// `assembly` between assemblies, `assembly_name` otherwise.
    #[serde(default, alias = "assembly_name")]
    pub assembly: Option<String>,
    #[serde(default, deserialize_with = "opt_string")]
    pub seq_region_name: Option<String>,
    #[serde(default, deserialize_with = "opt_i64")]
    pub start: Option<i64>,
    #[serde(default, deserialize_with = "opt_i64")]
    pub end: Option<i64>,
    #[serde(default, deserialize_with = "opt_i64")]
    pub strand: Option<i64>,
    /// 1 when this piece falls in a gap (no sequence on the other side).
    #[serde(default, deserialize_with = "opt_flag")]
    pub gap: Option<bool>,
}

// ---------------------------------------------------------------------------------------
// Tolerant scalars

#[derive(Deserialize)]
#[serde(untagged)]
enum Scalar {
    Int(i64),
    Float(f64),
    Bool(bool),
    Text(String),
}

impl Scalar {
    fn as_i64(&self) -> Option<i64> {
        match self {
            Self::Int(i) => Some(*i),
            Self::Float(f) if f.fract() == 0.0 && f.abs() < 9e15 => Some(*f as i64),
            Self::Text(s) => s.trim().parse().ok(),
            _ => None,
        }
    }

    fn into_string(self) -> Option<String> {
        match self {
            Self::Int(i) => Some(i.to_string()),
            Self::Float(f) => Some(f.to_string()),
            Self::Bool(b) => Some(b.to_string()),
            Self::Text(s) => Some(s),
        }
    }
}

/// A number sent as a number or a string; anything unreadable is treated as absent
/// rather than failing the whole response.
fn opt_i64<'de, D: Deserializer<'de>>(d: D) -> Result<Option<i64>, D::Error> {
    Ok(Option::<Scalar>::deserialize(d)?.and_then(|s| s.as_i64()))
}

fn opt_f64<'de, D: Deserializer<'de>>(d: D) -> Result<Option<f64>, D::Error> {
    Ok(match Option::<Scalar>::deserialize(d)? {
        Some(Scalar::Int(i)) => Some(i as f64),
        Some(Scalar::Float(f)) => Some(f),
        Some(Scalar::Text(s)) => s.trim().parse().ok(),
        _ => None,
    })
}

fn opt_u64<'de, D: Deserializer<'de>>(d: D) -> Result<Option<u64>, D::Error> {
    Ok(opt_i64(d)?.and_then(|i| u64::try_from(i).ok()))
}

/// A string that may arrive as a number (`taxon_id`, `seq_region_name`).
fn opt_string<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    Ok(Option::<Scalar>::deserialize(d)?.and_then(Scalar::into_string))
}

/// `is_canonical`: 1/0 in the API; booleans and strings accepted too.
fn opt_flag<'de, D: Deserializer<'de>>(d: D) -> Result<Option<bool>, D::Error> {
    Ok(match Option::<Scalar>::deserialize(d)? {
        Some(Scalar::Bool(b)) => Some(b),
        Some(Scalar::Text(s)) => match s.trim() {
            "1" | "true" => Some(true),
            "0" | "false" => Some(false),
            _ => None,
        },
        Some(other) => other.as_i64().map(|i| i != 0),
        None => None,
    })
}

/// A list of strings, a single string, or null.
fn strings<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<String>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum OneOrMany {
        Many(Vec<Option<Scalar>>),
        One(Scalar),
    }
    Ok(match Option::<OneOrMany>::deserialize(d)? {
        None => Vec::new(),
        Some(OneOrMany::One(s)) => s.into_string().into_iter().collect(),
        Some(OneOrMany::Many(items)) => items
            .into_iter()
            .flatten()
            .filter_map(Scalar::into_string)
            .collect(),
    })
}

// What makes each answer one Ensembl documents: a wrong shape that still decodes (every
// field here is optional) is an upstream error, never "not found" or "no results".

/// A looked-up object always has its species and its place.
impl Row for LookupObject {
    fn usable(&self) -> bool {
        self.species.is_some() || self.seq_region_name.is_some() || self.start.is_some()
    }
}

impl Answer for LookupObject {
    fn unusable(&self) -> Option<String> {
        (!self.usable()).then(|| "an object with no species, region or start".to_owned())
    }
}

/// A VEP element names its input or the variant, and its consequence.
impl Row for VepResult {
    fn usable(&self) -> bool {
        (self.input.is_some() || self.id.is_some()) && self.most_severe_consequence.is_some()
    }
}

/// A variant record has its name or a place.
impl Answer for VariationRecord {
    fn unusable(&self) -> Option<String> {
        (self.name.is_none() && self.mappings.is_empty())
            .then(|| "a variant with no name and no mapping".to_owned())
    }
}

/// A sequence has its letters.
impl Row for SequenceRecord {
    fn usable(&self) -> bool {
        self.seq.is_some()
    }
}

impl Answer for SequenceRecord {
    fn unusable(&self) -> Option<String> {
        (!self.usable()).then(|| "a sequence without `seq`".to_owned())
    }
}

/// A homology answer has its `data` list.
impl Answer for HomologyAnswer {
    fn unusable(&self) -> Option<String> {
        self.data
            .is_none()
            .then(|| "a homology answer without `data`".to_owned())
    }
}

/// An overlapping feature has a place.
impl Row for OverlapFeature {
    fn usable(&self) -> bool {
        self.start.is_some() && self.end.is_some()
    }
}

/// A mapping answer has its `mappings` list.
impl Answer for MapAnswer {
    fn unusable(&self) -> Option<String> {
        self.mappings
            .is_none()
            .then(|| "a mapping answer without `mappings`".to_owned())
    }
}

impl Row for XrefEntry {
    fn usable(&self) -> bool {
        !self.dbname.is_empty() && self.primary_id.is_some()
    }
}

impl Row for XrefSymbolHit {
    fn usable(&self) -> bool {
        !self.id.is_empty()
    }
}

impl Answer for SpeciesList {
    fn unusable(&self) -> Option<String> {
        self.species
            .iter()
            .all(|s| s.name.is_empty())
            .then(|| "a species list with no named species".to_owned())
    }
}

impl Row for EbiEntry {
    fn usable(&self) -> bool {
        self.id.is_some()
    }
}

/// EBI Search always says how many hits there are.
impl Answer for EbiSearchResult {
    fn unusable(&self) -> Option<String> {
        if self.hit_count.is_none() {
            return Some("a search answer without hitCount".to_owned());
        }
        self.entries.unusable()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_recorded_transcript_lookup_decodes() {
        // The recorded KRAS-202 look-up, 2022:
        // `tests/fixtures/lookup_id__ENST00000311936.json`.
        let t: LookupObject = serde_json::from_value(json!({
            "Parent": "ENSG00000133703", "assembly_name": "GRCh38", "biotype": "protein_coding",
            "db_type": "core", "display_name": "KRAS-202", "end": 25250929,
            "id": "ENST00000311936", "is_canonical": 1,
            "logic_name": "ensembl_havana_transcript_homo_sapiens", "object_type": "Transcript",
            "seq_region_name": "12", "source": "ensembl_havana", "species": "homo_sapiens",
            "start": 25205246, "strand": -1, "version": 8
        }))
        .unwrap();
        assert_eq!(t.parent.as_deref(), Some("ENSG00000133703"));
        assert_eq!(t.is_canonical, Some(true));
        assert_eq!(t.strand, Some(-1));
        assert_eq!(t.seq_region_name.as_deref(), Some("12"));
    }

    #[test]
    fn numbers_as_strings_and_odd_values_do_not_fail_the_response() {
        let g: LookupObject = serde_json::from_value(json!({
            "start": "7661779", "end": 7687538.0, "version": "x", "seq_region_name": 17,
            "is_canonical": "0", "description": null
        }))
        .unwrap();
        assert_eq!(g.start, Some(7_661_779));
        assert_eq!(g.end, Some(7_687_538));
        assert_eq!(g.version, None);
        assert_eq!(g.seq_region_name.as_deref(), Some("17"));
        assert_eq!(g.is_canonical, Some(false));
        assert_eq!(g.description, None);
    }

    #[test]
    fn ebi_fields_are_lists_or_single_strings() {
        // An EBI Search entry as recorded in 2019 (`resources/id.json` of
        // UniBioDicts/vsm-dictionary-ensembl on GitHub).
        let r: EbiSearchResult = serde_json::from_str(
            r#"{"entries":[{"id":"ENSG00000142208","source":"ensembl_gene","fields":{"id":["ENSG00000142208"],"name":["ENSG00000142208 (HGNC: AKT1)"],"description":["AKT serine/threonine kinase 1 [Source:HGNC Symbol;Acc:HGNC:391]"],"gene_name":["AKT1"],"gene_synonym":["RAC","PRKBA","PKB","AKT"],"transcript_count":["20"],"species":["Homo sapiens"]}}]}"#,
        )
        .unwrap();
        assert_eq!(r.hit_count, None);
        let f = &r.entries[0].fields;
        assert_eq!(f.gene_name, ["AKT1"]);
        assert_eq!(f.description.len(), 1);
        assert_eq!(f.species, ["Homo sapiens"]);
        let r: EbiSearchResult = serde_json::from_value(json!({"hitCount": "3",
            "entries": [{"id": "X", "fields": {"species": "Mus musculus", "gene_name": null}}]}))
        .unwrap();
        assert_eq!(r.hit_count, Some(3));
        assert_eq!(r.entries[0].fields.species, ["Mus musculus"]);
        assert!(r.entries[0].fields.gene_name.is_empty());
    }

    #[test]
    fn a_batch_maps_unknown_ids_to_none() {
        let b: LookupBatch = serde_json::from_value(json!({
            "ENSG00000133703": {"display_name": "KRAS"}, "ENSG99999999999": null
        }))
        .unwrap();
        assert!(b["ENSG99999999999"].is_none());
        assert_eq!(
            b["ENSG00000133703"]
                .as_ref()
                .unwrap()
                .display_name
                .as_deref(),
            Some("KRAS")
        );
    }

    #[test]
    fn species_taxon_ids_are_strings_or_numbers() {
        let l: SpeciesList = serde_json::from_value(json!({"species": [
            {"name": "homo_sapiens", "taxon_id": "9606", "aliases": ["human"]},
            {"name": "mus_musculus", "taxon_id": 10090}
        ]}))
        .unwrap();
        assert_eq!(l.species[0].taxon_id.as_deref(), Some("9606"));
        assert_eq!(l.species[1].taxon_id.as_deref(), Some("10090"));
        assert!(l.species[1].aliases.is_empty());
    }
}
