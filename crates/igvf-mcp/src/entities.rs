//! The entities this server returns: our own output types, mapped from the upstream
//! models (never passed through raw), with cross-references built through the registry.
//!
//! Coordinates are 1-based and inclusive, on GRCh38 (human) or GRCm39 (mouse), with
//! `chr`-prefixed chromosome names: Ensembl's numbers (its names are bare, `17`). The
//! catalog's own 0-based starts are converted here (`region::one_based`); SPDI strings
//! keep their 0-based position, being identifiers.

use std::borrow::Cow;
use std::collections::BTreeMap;

use lifesciences_core::schemars::{self, JsonSchema, Schema, SchemaGenerator, json_schema};
use lifesciences_core::{Cardinality, CrossReferences, REGISTRY, XrefKey};
use serde::Serialize;

use crate::ids::{Organism, is_ensembl_gene, ontology_curie};
use crate::lookup::Record;
use crate::models::{
    self, Complex, Drug, Gene, OntologyTerm, Pathway, Protein, Transcript, Variant,
};
use crate::region::one_based;

/// A gene.
#[serde_with::skip_serializing_none]
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub(crate) struct GeneEntity {
    /// Ensembl gene ID, unversioned.
    pub id: String,
    /// Gene symbol, e.g. `BRCA1`.
    pub symbol: Option<String>,
    /// `chr17` style (Ensembl says `17`).
    pub chromosome: Option<String>,
    /// First base, 1-based (as Ensembl).
    pub start: Option<u64>,
    /// Last base, 1-based, inclusive (as Ensembl).
    pub end: Option<u64>,
    /// `+` or `-`.
    pub strand: Option<String>,
    /// GENCODE gene type, e.g. `protein_coding`.
    pub gene_type: Option<String>,
    /// `Homo sapiens` or `Mus musculus`.
    pub organism: String,
    /// `GRCh38` or `GRCm39`.
    pub assembly: String,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub synonyms: Vec<String>,
    /// E.g. `ACMG73`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub collections: Vec<String>,
    /// IGVF study sets.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub study_sets: Vec<String>,
    /// E.g. `GENCODE v43`.
    pub source: Option<String>,
    #[schemars(with = "CrossReferencesSchema")]
    pub cross_references: CrossReferences,
}

/// A transcript.
#[serde_with::skip_serializing_none]
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub(crate) struct TranscriptEntity {
    /// Ensembl transcript ID, unversioned.
    pub id: String,
    /// GENCODE transcript type.
    pub transcript_type: Option<String>,
    /// `chr20` style (Ensembl says `20`).
    pub chromosome: Option<String>,
    /// First base, 1-based (as Ensembl).
    pub start: Option<u64>,
    /// Last base, 1-based, inclusive (as Ensembl).
    pub end: Option<u64>,
    /// `+` or `-`.
    pub strand: Option<String>,
    /// The gene's Ensembl ID.
    pub gene_id: Option<String>,
    pub gene_symbol: Option<String>,
    /// MANE Select transcript of its gene.
    pub mane_select: Option<bool>,
    /// `Homo sapiens` or `Mus musculus`.
    pub organism: String,
    /// `GRCh38` or `GRCm39`.
    pub assembly: String,
    pub source: Option<String>,
    #[schemars(with = "CrossReferencesSchema")]
    pub cross_references: CrossReferences,
}

/// A protein.
#[serde_with::skip_serializing_none]
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub(crate) struct ProteinEntity {
    /// Ensembl protein ID, unversioned.
    pub id: String,
    /// Gene symbol.
    pub symbol: Option<String>,
    /// UniProt entry names, e.g. `CTCF_HUMAN`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub uniprot_names: Vec<String>,
    /// UniProt protein names.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub names: Vec<String>,
    /// UniProt accessions of this isoform, e.g. `P49711-2`, for uniprot_get_protein.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub uniprot_ids: Vec<String>,
    /// MANE Select protein of its gene.
    pub mane_select: Option<bool>,
    pub organism: Option<String>,
    #[schemars(with = "CrossReferencesSchema")]
    pub cross_references: CrossReferences,
    /// For lists cut to their first 10 in `cross_references`: the full count, e.g.
    /// `{"pdb": 214}`.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub cross_reference_counts: BTreeMap<String, u32>,
}

/// A sequence variant.
#[serde_with::skip_serializing_none]
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub(crate) struct VariantEntity {
    /// The catalog's variant ID (the SPDI for human variants).
    pub id: String,
    /// `chr17` style (Ensembl says `17`).
    pub chromosome: Option<String>,
    /// 1-based position, as in VCF, HGVS and Ensembl (`spdi` keeps its own 0-based one,
    /// this minus 1: SPDI is an identifier, left as written).
    pub position: Option<u64>,
    #[serde(rename = "ref")]
    pub reference: Option<String>,
    pub alt: Option<String>,
    /// dbSNP rsIDs.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub rsids: Vec<String>,
    /// SPDI, e.g. `NC_000017.11:43057062:GGG:GGGG`.
    pub spdi: Option<String>,
    /// Genomic HGVS.
    pub hgvs: Option<String>,
    /// ClinGen allele ID.
    pub ca_id: Option<String>,
    /// `Homo sapiens` or `Mus musculus`.
    pub organism: String,
    /// `GRCh38` or `GRCm39`.
    pub assembly: String,
    /// `coding` or `noncoding`.
    pub gencode_category: Option<String>,
    pub funseq_description: Option<String>,
    /// Allele frequencies, e.g. `gnomad_af_total`, `gnomad_af_nfe`, `bravo_af`.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub allele_frequencies: BTreeMap<String, f64>,
    /// E.g. `FAVOR`.
    pub source: Option<String>,
    #[schemars(with = "CrossReferencesSchema")]
    pub cross_references: CrossReferences,
}

/// An ontology term: disease, phenotype, trait, GO term, tissue or cell type.
#[serde_with::skip_serializing_none]
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub(crate) struct OntologyTermEntity {
    /// The term as a CURIE, e.g. `MONDO:0009861`.
    pub id: String,
    /// The catalog's key, e.g. `MONDO_0009861`.
    pub term_id: String,
    pub name: Option<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub synonyms: Vec<String>,
    pub description: Option<String>,
    /// E.g. `MONDO`, `EFO`, `GO`.
    pub ontology: Option<String>,
    /// GO subontology.
    pub subontology: Option<String>,
    pub uri: Option<String>,
    #[schemars(with = "CrossReferencesSchema")]
    pub cross_references: CrossReferences,
}

/// A drug (PharmGKB chemical).
#[serde_with::skip_serializing_none]
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub(crate) struct DrugEntity {
    /// PharmGKB ID, e.g. `PA448497`.
    pub id: String,
    pub name: Option<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub ontology_terms: Vec<String>,
    pub source: Option<String>,
    /// PharmGKB page.
    pub url: Option<String>,
    #[schemars(with = "CrossReferencesSchema")]
    pub cross_references: CrossReferences,
}

/// A protein complex (EBI Complex Portal).
#[serde_with::skip_serializing_none]
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub(crate) struct ComplexEntity {
    /// Complex Portal ID, e.g. `CPX-11`.
    pub id: String,
    pub name: Option<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub aliases: Vec<String>,
    /// UniProt accessions with stoichiometry, e.g. `Q15796(3)`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub participants: Vec<String>,
    pub description: Option<String>,
    /// E.g. `Homotrimer`.
    pub complex_assembly: Option<String>,
    /// ECO evidence code.
    pub evidence_code: Option<String>,
    /// Reactome IDs.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub reactome: Vec<String>,
    #[schemars(with = "CrossReferencesSchema")]
    pub cross_references: CrossReferences,
}

/// A pathway (Reactome).
#[serde_with::skip_serializing_none]
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub(crate) struct PathwayEntity {
    /// Reactome ID, e.g. `R-HSA-164843`.
    pub id: String,
    pub name: Option<String>,
    pub organism: Option<String>,
    /// A disease pathway.
    pub is_in_disease: Option<bool>,
    /// A top-level pathway.
    pub is_top_level: Option<bool>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub aliases: Vec<String>,
    /// Disease terms, e.g. `DOID:526`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub disease_terms: Vec<String>,
    #[schemars(with = "CrossReferencesSchema")]
    pub cross_references: CrossReferences,
}

/// The schema of `cross_references`, shared by every entity: the registry's keys, each
/// a string or a list of strings. The registry's patterns are enforced when values are
/// added (invalid ones are dropped), so they are not repeated to the reader.
pub(crate) struct CrossReferencesSchema;

impl JsonSchema for CrossReferencesSchema {
    fn schema_name() -> Cow<'static, str> {
        "CrossReferences".into()
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        let mut properties = serde_json::Map::new();
        for spec in &REGISTRY {
            let schema = match spec.cardinality {
                Cardinality::One => serde_json::json!({"type": "string"}),
                _ => serde_json::json!({"type": "array", "items": {"type": "string"}}),
            };
            properties.insert(spec.name.to_owned(), schema);
        }
        json_schema!({
            "type": "object",
            "description": "The entity in other databases (empty keys omitted).",
            "properties": properties,
            "additionalProperties": false
        })
    }
}

/// How many values a list in `cross_references` keeps (TP53's protein has over 200
/// PDB structures).
pub(crate) const XREF_LIST_MAX: usize = 10;

/// Any entity, tagged with `_type`. (Variants are undocumented on purpose: their
/// structs' docs describe them, once.)
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(tag = "_type", rename_all = "snake_case")]
pub(crate) enum Entity {
    Gene(GeneEntity),
    Transcript(TranscriptEntity),
    Protein(ProteinEntity),
    Variant(VariantEntity),
    OntologyTerm(OntologyTermEntity),
    Drug(DrugEntity),
    Complex(ComplexEntity),
    Pathway(PathwayEntity),
}

impl From<Record> for Entity {
    fn from(record: Record) -> Self {
        match record {
            Record::Gene(g) => Self::Gene(gene(g)),
            Record::Transcript(t) => Self::Transcript(transcript(t)),
            Record::Protein(p) => Self::Protein(protein(p)),
            Record::Variant(v) => Self::Variant(variant(v)),
            Record::OntologyTerm(t) => Self::OntologyTerm(ontology_term(t)),
            Record::Drug(d) => Self::Drug(drug(d)),
            Record::Complex(c) => Self::Complex(complex(c)),
            Record::Pathway(p) => Self::Pathway(pathway(p)),
        }
    }
}

fn organism_of(id: &str, stated: Option<&str>) -> Organism {
    match stated {
        Some(s) => Organism::parse(s).unwrap_or_default(),
        None if id.to_ascii_uppercase().starts_with("ENSMUS") => Organism::Mouse,
        None => Organism::Human,
    }
}

fn source_with_version(source: Option<String>, version: Option<String>) -> Option<String> {
    match (source, version) {
        (Some(s), Some(v)) => Some(format!("{s} {v}")),
        (s, _) => s,
    }
}

/// Map a gene record.
pub(crate) fn gene(g: Gene) -> GeneEntity {
    let organism = organism_of(&g.id, g.organism.as_deref());
    let mut xrefs = CrossReferences::new();
    xrefs.add(XrefKey::EnsemblGene, &g.id);
    if let Some(h) = &g.hgnc {
        xrefs.add(XrefKey::Hgnc, h);
    }
    if let Some(e) = &g.entrez {
        xrefs.add(XrefKey::Entrez, e);
    }
    let symbol = g.name.clone();
    GeneEntity {
        synonyms: g
            .synonyms
            .into_iter()
            .filter(|s| Some(s) != symbol.as_ref())
            .collect(),
        id: g.id,
        symbol,
        chromosome: g.chr,
        start: g.start.map(one_based),
        end: g.end,
        strand: g.strand,
        gene_type: g.gene_type,
        organism: organism.api_name().to_owned(),
        assembly: organism.assembly().to_owned(),
        collections: g.collections,
        study_sets: g.study_sets,
        source: source_with_version(g.source, g.version),
        cross_references: xrefs,
    }
}

/// Map a transcript record. Quirk: the catalog's `gene_name` holds the gene's ENSG ID;
/// only a whole Ensembl gene ID is taken for one (a symbol such as `ENSA` stays a symbol).
pub(crate) fn transcript(t: Transcript) -> TranscriptEntity {
    let organism = organism_of(&t.id, None);
    let (gene_id, gene_symbol) = match t.gene_name {
        Some(g) if is_ensembl_gene(&g) => (Some(g), None),
        other => (None, other),
    };
    let mut xrefs = CrossReferences::new();
    xrefs.add(XrefKey::EnsemblTranscript, &t.id);
    if let Some(g) = &gene_id {
        xrefs.add(XrefKey::EnsemblGene, g);
    }
    TranscriptEntity {
        id: t.id,
        transcript_type: t.transcript_type,
        chromosome: t.chr,
        start: t.start.map(one_based),
        end: t.end,
        strand: t.strand,
        gene_id,
        gene_symbol,
        mane_select: t.mane_select,
        organism: organism.api_name().to_owned(),
        assembly: organism.assembly().to_owned(),
        source: source_with_version(t.source, t.version),
        cross_references: xrefs,
    }
}

/// Map a protein record; its UniProt cross-references feed the registry, lists cut to
/// [`XREF_LIST_MAX`] values with the full count in `cross_reference_counts`.
pub(crate) fn protein(p: Protein) -> ProteinEntity {
    let mut pairs: Vec<(XrefKey, &str)> = p
        .uniprot_ids
        .iter()
        .map(|u| (XrefKey::Uniprot, u.as_str()))
        .collect();
    for x in &p.dbxrefs {
        let (Some(name), Some(id)) = (x.name.as_deref(), x.id.as_deref()) else {
            continue;
        };
        let key = match name {
            // AlphaFold DB files its model under the UniProt accession.
            "AlphaFoldDB" => {
                pairs.push((XrefKey::Alphafold, id));
                Some(XrefKey::Uniprot)
            }
            "HGNC" => Some(XrefKey::Hgnc),
            "GeneID" => Some(XrefKey::Entrez),
            "Ensembl" if is_ensembl_transcript(id) => Some(XrefKey::EnsemblTranscript),
            "OpenTargets" => {
                pairs.push((XrefKey::EnsemblGene, id));
                Some(XrefKey::Opentargets)
            }
            "RefSeq" => Some(XrefKey::Refseq),
            "UCSC" => Some(XrefKey::Ucsc),
            "ChEMBL" => Some(XrefKey::Chembl),
            "DrugBank" => Some(XrefKey::Drugbank),
            "STRING" => Some(XrefKey::String),
            "BioGRID" => Some(XrefKey::Biogrid),
            "KEGG" => Some(XrefKey::Kegg),
            "PDB" => Some(XrefKey::Pdb),
            _ => None,
        };
        if let Some(key) = key {
            pairs.push((key, id));
        }
    }
    let (cross_references, cross_reference_counts) = bounded_xrefs(&pairs);
    ProteinEntity {
        id: p.id,
        symbol: p.name,
        uniprot_names: p.uniprot_names,
        names: p.uniprot_full_names,
        uniprot_ids: p.uniprot_ids,
        mane_select: p.mane_select,
        organism: p.organism,
        cross_references,
        cross_reference_counts,
    }
}

/// Cross-references from `(key, value)` pairs, each list cut to [`XREF_LIST_MAX`]
/// distinct valid values; the second value gives the full count of every list cut.
fn bounded_xrefs(pairs: &[(XrefKey, &str)]) -> (CrossReferences, BTreeMap<String, u32>) {
    let mut kept: BTreeMap<XrefKey, Vec<String>> = BTreeMap::new();
    let mut xrefs = CrossReferences::new();
    for (key, raw) in pairs {
        if key.spec().cardinality == Cardinality::One {
            xrefs.add(*key, raw);
            continue;
        }
        let value = key.normalise(raw);
        if !key.is_valid(&value) {
            // `add` drops it and logs why.
            xrefs.add(*key, raw);
            continue;
        }
        let list = kept.entry(*key).or_default();
        if !list.contains(&value) {
            list.push(value);
        }
    }
    let mut counts = BTreeMap::new();
    for (key, values) in &kept {
        xrefs.extend(*key, values.iter().take(XREF_LIST_MAX));
        if values.len() > XREF_LIST_MAX {
            counts.insert(
                key.name().to_owned(),
                u32::try_from(values.len()).unwrap_or(u32::MAX),
            );
        }
    }
    (xrefs, counts)
}

fn is_ensembl_transcript(id: &str) -> bool {
    let upper = id.to_ascii_uppercase();
    upper.starts_with("ENST") || upper.starts_with("ENSMUST")
}

/// Map a variant record; allele frequencies are the numeric `gnomad_af_*` and
/// `bravo_af` annotations.
pub(crate) fn variant(v: Variant) -> VariantEntity {
    let organism = organism_of("", v.organism.as_deref());
    let mut frequencies = BTreeMap::new();
    let mut gencode_category = None;
    let mut funseq_description = None;
    for (key, value) in &v.annotations {
        if key.starts_with("gnomad_af") || key.starts_with("bravo_af") {
            if let Some(f) = models::lenient::as_f64(value) {
                frequencies.insert(key.clone(), f);
            }
        } else if key == "GENCODE_category" {
            gencode_category = models::lenient::as_string(value);
        } else if key == "funseq_description" {
            funseq_description = models::lenient::as_string(value);
        }
    }
    VariantEntity {
        id: v.spdi.clone().unwrap_or_else(|| v.id.clone()),
        chromosome: v.chr,
        position: v.pos.map(one_based),
        reference: v.reference,
        alt: v.alt,
        rsids: v.rsid,
        spdi: v.spdi,
        hgvs: v.hgvs,
        ca_id: v.ca_id,
        organism: organism.api_name().to_owned(),
        assembly: organism.assembly().to_owned(),
        gencode_category,
        funseq_description,
        allele_frequencies: frequencies,
        source: v.source,
        cross_references: CrossReferences::new(),
    }
}

/// Map an ontology term.
pub(crate) fn ontology_term(t: OntologyTerm) -> OntologyTermEntity {
    let term_id = t.term_id.unwrap_or_default();
    let mut xrefs = CrossReferences::new();
    let prefix = term_id.split('_').next().unwrap_or_default();
    match prefix.to_ascii_uppercase().as_str() {
        "MONDO" => {
            xrefs.add(XrefKey::Mondo, &term_id);
        }
        "EFO" => {
            xrefs.add(XrefKey::Efo, &term_id);
        }
        "ORPHANET" => {
            xrefs.add(XrefKey::Orphanet, &term_id);
        }
        _ => {}
    }
    OntologyTermEntity {
        id: ontology_curie(&term_id),
        term_id,
        name: t.name,
        synonyms: t.synonyms,
        description: t.description,
        ontology: t.source,
        subontology: t.subontology,
        uri: t.uri,
        cross_references: xrefs,
    }
}

/// Map a drug.
pub(crate) fn drug(d: Drug) -> DrugEntity {
    DrugEntity {
        id: d.id,
        name: d.name,
        ontology_terms: d.drug_ontology_terms,
        source: d.source,
        url: d.source_url,
        cross_references: CrossReferences::new(),
    }
}

/// Map a complex; participants' accessions (`Q15796(3)` → `Q15796`) go to `uniprot`.
pub(crate) fn complex(c: Complex) -> ComplexEntity {
    let mut xrefs = CrossReferences::new();
    for m in &c.molecules {
        let accession = m.split('(').next().unwrap_or_default();
        xrefs.add(XrefKey::Uniprot, accession);
    }
    ComplexEntity {
        id: c.id,
        name: c.name,
        aliases: c.alias,
        participants: c.molecules,
        description: c.description,
        complex_assembly: c.complex_assembly,
        evidence_code: c.evidence_code,
        reactome: c.reactome_xref,
        cross_references: xrefs,
    }
}

/// Map a pathway.
pub(crate) fn pathway(p: Pathway) -> PathwayEntity {
    PathwayEntity {
        id: p.id,
        name: p.name,
        organism: p.organism,
        is_in_disease: p.is_in_disease,
        is_top_level: p.is_top_level_pathway,
        aliases: p.name_aliases,
        disease_terms: p
            .disease_ontology_terms
            .iter()
            .map(|t| ontology_curie(t.rsplit('/').next().unwrap_or(t)))
            .collect(),
        cross_references: CrossReferences::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_protein_gets_registry_cross_references_from_uniprot() {
        let p: Protein = serde_json::from_value(json!({
            "_id": "ENSP00000384707", "name": "CTCF", "uniprot_ids": ["P49711-2"],
            "dbxrefs": [
                {"name": "AlphaFoldDB", "id": "P49711"}, {"name": "HGNC", "id": "HGNC:13723"},
                {"name": "GeneID", "id": "10664"}, {"name": "Ensembl", "id": "ENST00000264010.10"},
                {"name": "OpenTargets", "id": "ENSG00000102974"}, {"name": "RefSeq", "id": "NP_006556.1"},
                {"name": "STRING", "id": "9606.ENSP00000494538"}, {"name": "KEGG", "id": "hsa:10664"},
                {"name": "PDB", "id": "1X6H"}, {"name": "ChEMBL", "id": "CHEMBL4523233"},
                {"name": "MIM", "id": "604167"}, {"name": "UCSC", "id": "uc002etl.4"}
            ]
        }))
        .unwrap();
        let out = serde_json::to_value(protein(p)).unwrap();
        assert_eq!(
            out["cross_references"],
            json!({
                "hgnc": "HGNC:13723", "ensembl_gene": "ENSG00000102974",
                "ensembl_transcript": ["ENST00000264010"], "uniprot": ["P49711-2", "P49711"],
                "entrez": "10664", "refseq": ["NP_006556.1"], "ucsc": "uc002etl.4",
                "chembl": "CHEMBL4523233", "opentargets": "ENSG00000102974",
                "string": "9606.ENSP00000494538", "kegg": "hsa:10664", "pdb": ["1X6H"],
                "alphafold": "P49711"
            })
        );
    }

    #[test]
    fn long_cross_reference_lists_are_cut_with_their_full_count() {
        let dbxrefs: Vec<serde_json::Value> = (0..25)
            .map(|i| json!({"name": "PDB", "id": format!("{}AB{}", i % 10, (b'A' + i as u8) as char)}))
            .chain([json!({"name": "RefSeq", "id": "NP_000537.3"})])
            .collect();
        let p: Protein = serde_json::from_value(json!({
            "_id": "ENSP00000269305", "name": "TP53", "dbxrefs": dbxrefs
        }))
        .unwrap();
        let out = serde_json::to_value(protein(p)).unwrap();
        assert_eq!(out["cross_references"]["pdb"].as_array().unwrap().len(), 10);
        assert_eq!(out["cross_references"]["refseq"], json!(["NP_000537.3"]));
        assert_eq!(out["cross_reference_counts"], json!({"pdb": 25}));
    }

    #[test]
    fn the_transcript_gene_name_quirk_becomes_gene_id() {
        let t: Transcript = serde_json::from_value(json!({
            "_id": "ENST00000428769", "gene_name": "ENSG00000232738", "chr": "chr20"
        }))
        .unwrap();
        let out = transcript(t);
        assert_eq!(out.gene_id.as_deref(), Some("ENSG00000232738"));
        assert_eq!(out.gene_symbol, None);
        // A symbol that starts like an ID (ENSA, endosulfine alpha) stays a symbol.
        let t: Transcript = serde_json::from_value(json!({
            "_id": "ENST00000369014", "gene_name": "ENSA", "chr": "chr1"
        }))
        .unwrap();
        let out = transcript(t);
        assert_eq!(out.gene_id, None);
        assert_eq!(out.gene_symbol.as_deref(), Some("ENSA"));
    }

    #[test]
    fn catalog_coordinates_become_1_based_and_spdi_stays_as_written() {
        // TP53 as the catalog stores it: 0-based start 7661778, half-open end 7687538.
        let g: Gene = serde_json::from_value(json!({
            "_id": "ENSG00000141510", "chr": "chr17", "start": 7661778, "end": 7687538
        }))
        .unwrap();
        let out = gene(g);
        assert_eq!((out.start, out.end), (Some(7_661_779), Some(7_687_538)));
        let v: Variant = serde_json::from_value(json!({
            "_id": "NC_000020.11:3658947:A:G", "spdi": "NC_000020.11:3658947:A:G",
            "chr": "chr20", "pos": 3658947
        }))
        .unwrap();
        let out = variant(v);
        assert_eq!(out.position, Some(3_658_948));
        assert_eq!(out.spdi.as_deref(), Some("NC_000020.11:3658947:A:G"));
        assert_eq!(out.id, "NC_000020.11:3658947:A:G");
        let t: Transcript = serde_json::from_value(json!({
            "_id": "ENST00000428769", "chr": "chr20", "start": 9537369, "end": 9839076
        }))
        .unwrap();
        assert_eq!(transcript(t).start, Some(9_537_370));
    }

    #[test]
    fn entities_serialise_with_their_type_tag() {
        let g: Gene = serde_json::from_value(json!({
            "_id": "ENSG00000000003", "name": "TSPAN6", "hgnc": "HGNC:11858",
            "entrez": "ENTREZ:7105", "collections": null, "synonyms": ["TSPAN6", "T245"]
        }))
        .unwrap();
        let out = serde_json::to_value(Entity::from(Record::Gene(g))).unwrap();
        assert_eq!(out["_type"], "gene");
        assert_eq!(out["synonyms"], json!(["T245"]));
        assert_eq!(
            out["cross_references"],
            json!({"hgnc": "HGNC:11858", "ensembl_gene": "ENSG00000000003", "entrez": "7105"})
        );
        assert!(out.get("collections").is_none());
        assert_eq!(out["assembly"], "GRCh38");
    }
}
