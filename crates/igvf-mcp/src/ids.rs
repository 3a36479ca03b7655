//! Identifier detection: what kind of entity a string names (gene, variant, protein…)
//! and in which form (ENSG, rsID, SPDI, HGVS, ClinGen CA, HGNC, ontology CURIE…), so an
//! agent never has to know endpoint names or identifier formats.
//!
//! [`FORMS`] is the detection table as data: the identifiers guide resource is written
//! from it and a test runs every example through [`detect`].

use std::fmt;
use std::sync::LazyLock;

use lifesciences_core::ApiError;
use lifesciences_core::schemars::{self, JsonSchema};
use regex::Regex;
use serde::{Deserialize, Serialize};

/// The organisms the IGVF Catalog covers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub(crate) enum Organism {
    /// Homo sapiens, GRCh38.
    #[default]
    Human,
    /// Mus musculus, GRCm39.
    Mouse,
}

impl Organism {
    /// The value the upstream's `organism` parameter takes.
    pub(crate) fn api_name(self) -> &'static str {
        match self {
            Self::Human => "Homo sapiens",
            Self::Mouse => "Mus musculus",
        }
    }

    /// The reference assembly of the catalog's coordinates.
    pub(crate) fn assembly(self) -> &'static str {
        match self {
            Self::Human => "GRCh38",
            Self::Mouse => "GRCm39",
        }
    }

    /// Forgiving parse: `human`, `Homo sapiens`, `homo_sapiens`, `hsapiens`, `9606`;
    /// `mouse`, `Mus musculus`, `mus_musculus`, `mmusculus`, `10090`.
    pub(crate) fn parse(raw: &str) -> Option<Self> {
        let key: String = raw
            .trim()
            .to_ascii_lowercase()
            .chars()
            .filter(|c| c.is_ascii_alphanumeric())
            .collect();
        match key.as_str() {
            "human" | "homosapiens" | "hsapiens" | "hs" | "9606" => Some(Self::Human),
            "mouse" | "musmusculus" | "mmusculus" | "mm" | "10090" => Some(Self::Mouse),
            _ => None,
        }
    }
}

/// What an identifier names. Serialised as the `_type` of entities.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub(crate) enum EntityKind {
    /// A gene (GENCODE).
    Gene,
    /// A transcript (GENCODE).
    Transcript,
    /// A protein (GENCODE/UniProt).
    Protein,
    /// A sequence variant (FAVOR/gnomAD/dbSNP).
    Variant,
    /// An ontology term: diseases (MONDO, Orphanet, DOID), phenotypes and traits (EFO, HP,
    /// OBA), GO terms, tissues and cell types (UBERON, CL).
    OntologyTerm,
    /// A drug (PharmGKB chemical).
    Drug,
    /// A protein complex (EBI Complex Portal).
    Complex,
    /// A pathway (Reactome).
    Pathway,
}

impl EntityKind {
    /// The wire name, e.g. `ontology_term`.
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Self::Gene => "gene",
            Self::Transcript => "transcript",
            Self::Protein => "protein",
            Self::Variant => "variant",
            Self::OntologyTerm => "ontology_term",
            Self::Drug => "drug",
            Self::Complex => "complex",
            Self::Pathway => "pathway",
        }
    }
}

impl fmt::Display for EntityKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The `hint` argument: which kind of entity the caller means.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub(crate) enum Hint {
    /// Gene: Ensembl gene ID, HGNC ID, Entrez (`ENTREZ:672`) or symbol.
    Gene,
    /// Variant: rsID, SPDI, genomic HGVS, ClinGen allele (`CA…`).
    Variant,
    /// Protein: Ensembl protein ID, UniProt accession or entry name, or gene symbol.
    Protein,
    /// Transcript: Ensembl transcript ID.
    Transcript,
    /// Disease or other ontology term: a CURIE (`MONDO:0007254`) or a term name.
    Disease,
    /// Drug: PharmGKB ID (`PA448497`) or drug name.
    Drug,
    /// Protein complex: Complex Portal ID (`CPX-11`) or complex name.
    Complex,
    /// Pathway: Reactome ID (`R-HSA-164843`) or pathway name.
    Pathway,
}

impl<'de> Deserialize<'de> for Hint {
    /// Case-insensitive, with a few synonyms (`ontology_term`, `phenotype`, `chemical`).
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let raw = String::deserialize(d)?;
        match raw
            .trim()
            .to_ascii_lowercase()
            .replace([' ', '-'], "_")
            .as_str()
        {
            "gene" => Ok(Self::Gene),
            "variant" | "snp" => Ok(Self::Variant),
            "protein" => Ok(Self::Protein),
            "transcript" => Ok(Self::Transcript),
            "disease" | "phenotype" | "trait" | "ontology_term" | "ontology" | "term" => {
                Ok(Self::Disease)
            }
            "drug" | "chemical" | "compound" => Ok(Self::Drug),
            "complex" => Ok(Self::Complex),
            "pathway" => Ok(Self::Pathway),
            _ => Err(serde::de::Error::custom(format!(
                "'{raw}' is not a hint; use one of 'gene', 'variant', 'protein', 'transcript', \
                 'disease', 'drug', 'complex', 'pathway'"
            ))),
        }
    }
}

impl Hint {
    fn kind(self) -> EntityKind {
        match self {
            Self::Gene => EntityKind::Gene,
            Self::Variant => EntityKind::Variant,
            Self::Protein => EntityKind::Protein,
            Self::Transcript => EntityKind::Transcript,
            Self::Disease => EntityKind::OntologyTerm,
            Self::Drug => EntityKind::Drug,
            Self::Complex => EntityKind::Complex,
            Self::Pathway => EntityKind::Pathway,
        }
    }

    fn as_str(self) -> &'static str {
        match self {
            Self::Gene => "gene",
            Self::Variant => "variant",
            Self::Protein => "protein",
            Self::Transcript => "transcript",
            Self::Disease => "disease",
            Self::Drug => "drug",
            Self::Complex => "complex",
            Self::Pathway => "pathway",
        }
    }
}

/// An identifier whose kind and form are known.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Identifier {
    /// `ENSG00000012048` (version stripped); `ENSMUSG…` is a mouse gene.
    EnsemblGene { id: String, organism: Organism },
    /// `HGNC:1100`.
    Hgnc(String),
    /// Entrez Gene ID, digits only (`672` from `ENTREZ:672`).
    Entrez(String),
    /// A gene symbol as typed (case-insensitive), e.g. `BRCA1`.
    GeneSymbol(String),
    /// `ENST00000357654` (version stripped).
    EnsemblTranscript { id: String, organism: Organism },
    /// `ENSP00000350283` (version stripped).
    EnsemblProtein { id: String, organism: Organism },
    /// UniProt accession, with its isoform suffix if given (`P38398`, `P49711-2`).
    Uniprot(String),
    /// UniProt entry name, e.g. `CTCF_HUMAN`.
    UniprotName(String),
    /// A protein named by its gene symbol (with `hint: protein`).
    ProteinSymbol(String),
    /// `rs80357906`.
    Rsid(String),
    /// `NC_000017.11:43057062:GGG:GGGG`.
    Spdi(String),
    /// Genomic HGVS, `NC_000017.11:g.43057065dup`.
    Hgvs(String),
    /// ClinGen Allele Registry ID, `CA123456`.
    ClinGen(String),
    /// An ontology term: prefix and local part, e.g. (`MONDO`, `0007254`).
    OntologyTerm { prefix: String, local: String },
    /// A term looked up by name (with `hint: disease`).
    OntologyName(String),
    /// PharmGKB chemical ID, `PA448497`.
    PharmGkb(String),
    /// A drug name (with `hint: drug`).
    DrugName(String),
    /// Complex Portal ID, `CPX-11`.
    Complex(String),
    /// A complex name (with `hint: complex`).
    ComplexName(String),
    /// Reactome stable ID, `R-HSA-164843`.
    Reactome(String),
    /// A pathway name (with `hint: pathway`).
    PathwayName(String),
}

impl Identifier {
    /// The kind of entity this identifier names.
    pub(crate) fn kind(&self) -> EntityKind {
        match self {
            Self::EnsemblGene { .. } | Self::Hgnc(_) | Self::Entrez(_) | Self::GeneSymbol(_) => {
                EntityKind::Gene
            }
            Self::EnsemblTranscript { .. } => EntityKind::Transcript,
            Self::EnsemblProtein { .. }
            | Self::Uniprot(_)
            | Self::UniprotName(_)
            | Self::ProteinSymbol(_) => EntityKind::Protein,
            Self::Rsid(_) | Self::Spdi(_) | Self::Hgvs(_) | Self::ClinGen(_) => EntityKind::Variant,
            Self::OntologyTerm { .. } | Self::OntologyName(_) => EntityKind::OntologyTerm,
            Self::PharmGkb(_) | Self::DrugName(_) => EntityKind::Drug,
            Self::Complex(_) | Self::ComplexName(_) => EntityKind::Complex,
            Self::Reactome(_) | Self::PathwayName(_) => EntityKind::Pathway,
        }
    }

    /// The form, in words, e.g. `rsID`, `gene symbol`.
    pub(crate) fn form(&self) -> &'static str {
        match self {
            Self::EnsemblGene { .. } => "Ensembl gene ID",
            Self::Hgnc(_) => "HGNC ID",
            Self::Entrez(_) => "Entrez Gene ID",
            Self::GeneSymbol(_) => "gene symbol",
            Self::EnsemblTranscript { .. } => "Ensembl transcript ID",
            Self::EnsemblProtein { .. } => "Ensembl protein ID",
            Self::Uniprot(_) => "UniProt accession",
            Self::UniprotName(_) => "UniProt entry name",
            Self::ProteinSymbol(_) => "protein (gene) symbol",
            Self::Rsid(_) => "rsID",
            Self::Spdi(_) => "SPDI",
            Self::Hgvs(_) => "genomic HGVS",
            Self::ClinGen(_) => "ClinGen allele ID",
            Self::OntologyTerm { .. } => "ontology term ID",
            Self::OntologyName(_) => "ontology term name",
            Self::PharmGkb(_) => "PharmGKB ID",
            Self::DrugName(_) => "drug name",
            Self::Complex(_) => "Complex Portal ID",
            Self::ComplexName(_) => "complex name",
            Self::Reactome(_) => "Reactome ID",
            Self::PathwayName(_) => "pathway name",
        }
    }

    /// The organism the identifier implies (mouse only for `ENSMUS…` IDs).
    pub(crate) fn organism(&self) -> Organism {
        match self {
            Self::EnsemblGene { organism, .. }
            | Self::EnsemblTranscript { organism, .. }
            | Self::EnsemblProtein { organism, .. } => *organism,
            _ => Organism::Human,
        }
    }

    /// Whether this is a name to be matched exactly (rather than an identifier).
    pub(crate) fn is_name(&self) -> bool {
        matches!(
            self,
            Self::GeneSymbol(_)
                | Self::ProteinSymbol(_)
                | Self::OntologyName(_)
                | Self::DrugName(_)
                | Self::ComplexName(_)
                | Self::PathwayName(_)
        )
    }

    /// The normalised text of the identifier (what is sent upstream).
    pub(crate) fn value(&self) -> String {
        match self {
            Self::EnsemblGene { id, .. }
            | Self::EnsemblTranscript { id, .. }
            | Self::EnsemblProtein { id, .. } => id.clone(),
            Self::OntologyTerm { prefix, local } => format!("{prefix}_{local}"),
            Self::Hgnc(v)
            | Self::Entrez(v)
            | Self::GeneSymbol(v)
            | Self::Uniprot(v)
            | Self::UniprotName(v)
            | Self::ProteinSymbol(v)
            | Self::Rsid(v)
            | Self::Spdi(v)
            | Self::Hgvs(v)
            | Self::ClinGen(v)
            | Self::OntologyName(v)
            | Self::PharmGkb(v)
            | Self::DrugName(v)
            | Self::Complex(v)
            | Self::ComplexName(v)
            | Self::Reactome(v)
            | Self::PathwayName(v) => v.clone(),
        }
    }
}

/// Whether `text` is an Ensembl gene ID, matched whole: `ENS`, an optional species code,
/// `G`, 11 digits, an optional `.version`. A symbol that merely starts with `ENS` (`ENSA`)
/// is none.
pub(crate) fn is_ensembl_gene(text: &str) -> bool {
    captures(&ENSEMBL, text.trim())
        .and_then(|c| c.get(2))
        .is_some_and(|kind| kind.as_str().eq_ignore_ascii_case("G"))
}

/// The ontology term `MONDO_0007254` in CURIE form, `MONDO:0007254`.
pub(crate) fn ontology_curie(term_id: &str) -> String {
    match term_id.split_once('_') {
        Some((prefix, local)) if !prefix.is_empty() && !local.is_empty() => {
            format!("{prefix}:{local}")
        }
        _ => term_id.to_owned(),
    }
}

/// One row of the detection table.
#[derive(Debug, Clone, Copy)]
pub(crate) struct IdForm {
    /// The form, in words.
    pub form: &'static str,
    /// An example that [`detect`] recognises without a hint.
    pub example: &'static str,
    /// The entity kind it names.
    pub kind: EntityKind,
    /// How it is recognised and used.
    pub note: &'static str,
}

/// The detection table, in the order [`detect`] tries the forms.
pub(crate) const FORMS: &[IdForm] = &[
    IdForm {
        form: "Ensembl gene ID",
        example: "ENSG00000012048",
        kind: EntityKind::Gene,
        note: "`ENSG…` (human) or `ENSMUSG…` (mouse); a `.version` suffix is dropped",
    },
    IdForm {
        form: "Ensembl transcript ID",
        example: "ENST00000357654",
        kind: EntityKind::Transcript,
        note: "`ENST…` or `ENSMUST…`",
    },
    IdForm {
        form: "Ensembl protein ID",
        example: "ENSP00000350283",
        kind: EntityKind::Protein,
        note: "`ENSP…` or `ENSMUSP…`",
    },
    IdForm {
        form: "rsID",
        example: "rs80357906",
        kind: EntityKind::Variant,
        note: "dbSNP; one rsID can name several alleles at a site",
    },
    IdForm {
        form: "SPDI",
        example: "NC_000017.11:43057062:GGG:GGGG",
        kind: EntityKind::Variant,
        note: "`NC_…:position:deleted:inserted`, the catalog's variant key; an identifier, kept as written, so its position stays 0-based (every `position` field is 1-based)",
    },
    IdForm {
        form: "genomic HGVS",
        example: "NC_000017.11:g.43057065dup",
        kind: EntityKind::Variant,
        note: "`NC_…:g.…` on GRCh38 only; transcript (`c.`) and protein (`p.`) HGVS are not indexed",
    },
    IdForm {
        form: "ClinGen allele ID",
        example: "CA10655131",
        kind: EntityKind::Variant,
        note: "`CA` + at least 5 digits (`CA1`…`CA9999` are read as gene symbols such as CA1 unless hint is `variant`)",
    },
    IdForm {
        form: "HGNC ID",
        example: "HGNC:1100",
        kind: EntityKind::Gene,
        note: "`HGNC:1100` or `HGNC_1100`",
    },
    IdForm {
        form: "Entrez Gene ID",
        example: "ENTREZ:672",
        kind: EntityKind::Gene,
        note: "`ENTREZ:672`, `NCBIGene:672` or `GeneID:672` (bare digits are not guessed)",
    },
    IdForm {
        form: "ontology term (underscore form)",
        example: "MONDO_0007254",
        kind: EntityKind::OntologyTerm,
        note: "MONDO, EFO, Orphanet, DOID, HP, GO, UBERON, CL, OBA, NCIT, CHEBI and other prefixes",
    },
    IdForm {
        form: "ontology term (CURIE form)",
        example: "MONDO:0007254",
        kind: EntityKind::OntologyTerm,
        note: "the same terms with a colon; `ORPHA:586` is read as `Orphanet_586`",
    },
    IdForm {
        form: "PharmGKB chemical ID",
        example: "PA448497",
        kind: EntityKind::Drug,
        note: "the catalog's drugs are PharmGKB chemicals, not ChEMBL compounds",
    },
    IdForm {
        form: "Complex Portal ID",
        example: "CPX-11",
        kind: EntityKind::Complex,
        note: "EBI Complex Portal",
    },
    IdForm {
        form: "Reactome pathway ID",
        example: "R-HSA-164843",
        kind: EntityKind::Pathway,
        note: "Reactome stable ID",
    },
    IdForm {
        form: "UniProt accession",
        example: "P38398",
        kind: EntityKind::Protein,
        note: "upper case, optional isoform suffix (`P49711-2`)",
    },
    IdForm {
        form: "UniProt entry name",
        example: "CTCF_HUMAN",
        kind: EntityKind::Protein,
        note: "`<NAME>_<SPECIES>`",
    },
    IdForm {
        form: "gene symbol",
        example: "BRCA1",
        kind: EntityKind::Gene,
        note: "the fallback, case-insensitive (`brca1` works); exact symbol matches only, never a fuzzy neighbour",
    },
];

/// Ontology prefixes recognised, with their canonical spelling in the catalog's term IDs.
const ONTOLOGY_PREFIXES: &[(&str, &str)] = &[
    ("MONDO", "MONDO"),
    ("EFO", "EFO"),
    ("ORPHANET", "Orphanet"),
    ("ORPHA", "Orphanet"),
    ("DOID", "DOID"),
    ("HP", "HP"),
    ("GO", "GO"),
    ("UBERON", "UBERON"),
    ("CL", "CL"),
    ("CLO", "CLO"),
    ("OBA", "OBA"),
    ("NCIT", "NCIT"),
    ("CHEBI", "CHEBI"),
    ("BAO", "BAO"),
    ("OBI", "OBI"),
    ("PCL", "PCL"),
    ("VARIO", "VARIO"),
    ("CVCL", "CVCL"),
];

/// A regex compiled on first use. The patterns are literals that a unit test compiles;
/// a pattern that failed to compile would only leave its form unrecognised.
type Pattern = LazyLock<Option<Regex>>;

fn captures<'t>(pattern: &Pattern, text: &'t str) -> Option<regex::Captures<'t>> {
    pattern.as_ref().and_then(|re| re.captures(text))
}

fn matches(pattern: &Pattern, text: &str) -> bool {
    pattern.as_ref().is_some_and(|re| re.is_match(text))
}

static ENSEMBL: Pattern =
    LazyLock::new(|| Regex::new(r"(?i)^ENS([A-Z]{3})?([GTP])(\d{11})(\.\d+)?$").ok());
static RSID: Pattern = LazyLock::new(|| Regex::new(r"(?i)^rs(\d+)$").ok());
static SPDI: Pattern =
    LazyLock::new(|| Regex::new(r"(?i)^(NC_\d{6}\.\d+):(\d+):([ACGTN]*):([ACGTN]*)$").ok());
static HGVS_GENOMIC: Pattern = LazyLock::new(|| Regex::new(r"^(N[CGTW]_\d+\.\d+):g\.(\S+)$").ok());
static HGVS_OTHER: Pattern =
    LazyLock::new(|| Regex::new(r"(?i)^([A-Z]{1,4}_?\d+(\.\d+)?)(\([^)]*\))?:[cnmrp]\.\S+$").ok());
static CLINGEN: Pattern = LazyLock::new(|| Regex::new(r"(?i)^CA(\d+)$").ok());
static HGNC: Pattern = LazyLock::new(|| Regex::new(r"(?i)^HGNC[:_]?(\d+)$").ok());
static ENTREZ: Pattern =
    LazyLock::new(|| Regex::new(r"(?i)^(ENTREZ|NCBIGENE|GENEID)[:_](\d+)$").ok());
static ONTOLOGY: Pattern = LazyLock::new(|| Regex::new(r"^([A-Za-z]+)[_:]([A-Za-z0-9]+)$").ok());
static PHARMGKB: Pattern = LazyLock::new(|| Regex::new(r"(?i)^PA(\d+)$").ok());
static COMPLEX: Pattern = LazyLock::new(|| Regex::new(r"(?i)^CPX-(\d+)$").ok());
static REACTOME: Pattern = LazyLock::new(|| Regex::new(r"(?i)^R-([A-Z]{3})-(\d+)$").ok());
static UNIPROT: Pattern = LazyLock::new(|| {
    Regex::new(r"^([OPQ][0-9][A-Z0-9]{3}[0-9]|[A-NR-Z][0-9]([A-Z][A-Z0-9]{2}[0-9]){1,2})(-\d+)?$")
        .ok()
});
static UNIPROT_NAME: Pattern =
    LazyLock::new(|| Regex::new(r"(?i)^[A-Z0-9]{1,11}_(HUMAN|MOUSE|[A-Z]{3,5}\d?)$").ok());
static SYMBOL: Pattern = LazyLock::new(|| Regex::new(r"^[A-Za-z0-9][A-Za-z0-9.\-/@]{0,39}$").ok());

#[cfg(test)]
const PATTERNS: [&Pattern; 15] = [
    &ENSEMBL,
    &RSID,
    &SPDI,
    &HGVS_GENOMIC,
    &HGVS_OTHER,
    &CLINGEN,
    &HGNC,
    &ENTREZ,
    &ONTOLOGY,
    &PHARMGKB,
    &COMPLEX,
    &REACTOME,
    &UNIPROT,
    &UNIPROT_NAME,
    &SYMBOL,
];

/// Detect what `raw` identifies. `hint` restricts detection to one kind and lets names
/// (drug, disease, complex, pathway, protein) be looked up; without it, unrecognisable
/// input is `UNRESOLVED_ENTITY` listing the recognised forms.
pub(crate) fn detect(raw: &str, hint: Option<Hint>) -> Result<Identifier, ApiError> {
    let text = raw.trim().trim_matches(|c| c == '"' || c == '\'').trim();
    if text.is_empty() {
        return Err(unrecognised(raw, "An empty identifier names nothing."));
    }
    let found = detect_form(text);
    match hint {
        None => match found {
            Some(Ok(id)) => Ok(id),
            Some(Err(e)) => Err(e.with_input(raw)),
            None => Err(unrecognised(
                raw,
                &format!("'{raw}' is not an identifier form this server recognises."),
            )),
        },
        Some(hint) => with_hint(raw, text, hint, found),
    }
}

/// A detection error before the caller's exact input is attached.
struct Rejection {
    message: String,
    hint: String,
}

impl Rejection {
    fn with_input(self, raw: &str) -> ApiError {
        ApiError::unresolved(self.message, self.hint, raw)
    }
}

fn detect_form(text: &str) -> Option<Result<Identifier, Rejection>> {
    if let Some(c) = captures(&ENSEMBL, text) {
        let species = c.get(1).map(|m| m.as_str().to_ascii_uppercase());
        let organism = match species.as_deref() {
            None => Organism::Human,
            Some("MUS") => Organism::Mouse,
            Some(other) => {
                return Some(Err(Rejection {
                    message: format!(
                        "'{text}' is an Ensembl ID of another species (ENS{other}…); the IGVF \
                         Catalog covers human and mouse only."
                    ),
                    hint: "Use a human (ENSG…/ENST…/ENSP…) or mouse (ENSMUSG…) identifier."
                        .to_owned(),
                }));
            }
        };
        let upper = text.to_ascii_uppercase();
        let id = upper.split('.').next().unwrap_or_default().to_owned();
        let kind = c.get(2).map(|m| m.as_str().to_ascii_uppercase());
        return Some(Ok(match kind.as_deref() {
            Some("T") => Identifier::EnsemblTranscript { id, organism },
            Some("P") => Identifier::EnsemblProtein { id, organism },
            _ => Identifier::EnsemblGene { id, organism },
        }));
    }
    if let Some(c) = captures(&RSID, text) {
        return Some(Ok(Identifier::Rsid(format!("rs{}", &c[1]))));
    }
    if let Some(c) = captures(&SPDI, text) {
        return Some(Ok(Identifier::Spdi(format!(
            "{}:{}:{}:{}",
            c[1].to_ascii_uppercase(),
            &c[2],
            c[3].to_ascii_uppercase(),
            c[4].to_ascii_uppercase()
        ))));
    }
    if matches(&HGVS_GENOMIC, text) {
        return Some(Ok(Identifier::Hgvs(text.to_owned())));
    }
    if matches(&HGVS_OTHER, text) {
        return Some(Err(Rejection {
            message: format!(
                "'{text}' is a transcript or protein HGVS expression; the IGVF Catalog indexes \
                 variants by genomic HGVS on GRCh38 only."
            ),
            hint: "Convert it to genomic HGVS (e.g. 'NC_000017.11:g.43057065dup'), or use the \
                   variant's rsID or SPDI."
                .to_owned(),
        }));
    }
    if let Some(c) = captures(&CLINGEN, text)
        && c[1].len() >= 5
    {
        return Some(Ok(Identifier::ClinGen(format!("CA{}", &c[1]))));
    }
    if let Some(c) = captures(&HGNC, text) {
        return Some(Ok(Identifier::Hgnc(format!("HGNC:{}", &c[1]))));
    }
    if let Some(c) = captures(&ENTREZ, text) {
        return Some(Ok(Identifier::Entrez(c[2].to_owned())));
    }
    if let Some(term) = ontology_term(text) {
        return Some(Ok(term));
    }
    if let Some(c) = captures(&PHARMGKB, text) {
        return Some(Ok(Identifier::PharmGkb(format!("PA{}", &c[1]))));
    }
    if let Some(c) = captures(&COMPLEX, text) {
        return Some(Ok(Identifier::Complex(format!("CPX-{}", &c[1]))));
    }
    if let Some(c) = captures(&REACTOME, text) {
        return Some(Ok(Identifier::Reactome(format!(
            "R-{}-{}",
            c[1].to_ascii_uppercase(),
            &c[2]
        ))));
    }
    if matches(&UNIPROT, text) {
        return Some(Ok(Identifier::Uniprot(text.to_owned())));
    }
    if matches(&UNIPROT_NAME, text) {
        return Some(Ok(Identifier::UniprotName(text.to_ascii_uppercase())));
    }
    if matches(&SYMBOL, text) && text.chars().any(|c| c.is_ascii_alphabetic()) {
        return Some(Ok(Identifier::GeneSymbol(symbol_case(text))));
    }
    None
}

/// Human gene symbols are upper case (`C1orf112` aside): an all-lower-case symbol is
/// sent upper-cased so the upstream's exact match can find it; mixed case is kept.
fn symbol_case(text: &str) -> String {
    if text.chars().any(|c| c.is_ascii_uppercase()) {
        text.to_owned()
    } else {
        text.to_ascii_uppercase()
    }
}

fn ontology_term(text: &str) -> Option<Identifier> {
    let c = captures(&ONTOLOGY, text)?;
    let prefix_upper = c[1].to_ascii_uppercase();
    let (_, canonical) = ONTOLOGY_PREFIXES
        .iter()
        .find(|(alias, _)| *alias == prefix_upper)?;
    Some(Identifier::OntologyTerm {
        prefix: (*canonical).to_owned(),
        local: c[2].to_owned(),
    })
}

fn with_hint(
    raw: &str,
    text: &str,
    hint: Hint,
    found: Option<Result<Identifier, Rejection>>,
) -> Result<Identifier, ApiError> {
    let wanted = hint.kind();
    if let Some(Ok(id)) = &found
        && id.kind() == wanted
    {
        return Ok(id.clone());
    }
    // Forms that only the hint disambiguates, and names looked up by exact match.
    let name_like = !text.is_empty() && text.chars().count() <= 200;
    let by_hint = match hint {
        Hint::Variant => {
            captures(&CLINGEN, text).map(|c| Identifier::ClinGen(format!("CA{}", &c[1])))
        }
        Hint::Gene => (matches(&SYMBOL, text) && text.chars().any(|c| c.is_ascii_alphabetic()))
            .then(|| Identifier::GeneSymbol(symbol_case(text))),
        Hint::Protein => (matches(&SYMBOL, text) && text.chars().any(|c| c.is_ascii_alphabetic()))
            .then(|| Identifier::ProteinSymbol(text.to_ascii_uppercase())),
        Hint::Disease => name_like.then(|| Identifier::OntologyName(text.to_owned())),
        Hint::Drug => name_like.then(|| Identifier::DrugName(text.to_owned())),
        Hint::Complex => name_like.then(|| Identifier::ComplexName(text.to_owned())),
        Hint::Pathway => name_like.then(|| Identifier::PathwayName(text.to_owned())),
        Hint::Transcript => None,
    };
    // An identifier of another kind (e.g. an rsID with hint 'gene') is not renamed into a
    // name lookup: that would search for a gene called 'rs123'.
    match (by_hint, found) {
        (Some(id), None) => Ok(id),
        (Some(id), Some(Ok(other))) if other.is_name() => Ok(id),
        // `CA12345` is the one form shared by two kinds (ClinGen IDs and CA-family gene
        // symbols): the hint decides.
        (Some(id), Some(Ok(Identifier::ClinGen(_)))) if hint == Hint::Gene => Ok(id),
        (Some(id), Some(Err(_))) if id.is_name() => Ok(id),
        (_, Some(Ok(other))) => Err(ApiError::unresolved(
            format!(
                "'{raw}' looks like a {} ({}), but hint '{}' asks for a {}.",
                other.form(),
                other.kind(),
                hint.as_str(),
                wanted
            ),
            format!(
                "Drop the hint to look it up as a {}, or pass a {} identifier: {}.",
                other.kind(),
                wanted,
                forms_of(wanted)
            ),
            raw,
        )),
        (_, Some(Err(rejection))) => Err(rejection.with_input(raw)),
        (_, None) => Err(ApiError::unresolved(
            format!("'{raw}' is not a {wanted} identifier form this server recognises."),
            format!("A {wanted} is given as: {}.", forms_of(wanted)),
            raw,
        )),
    }
}

/// The accepted forms of one kind, with examples, for hints.
pub(crate) fn forms_of(kind: EntityKind) -> String {
    let mut forms: Vec<String> = FORMS
        .iter()
        .filter(|f| f.kind == kind)
        .map(|f| format!("{} ('{}')", f.form, f.example))
        .collect();
    match kind {
        EntityKind::OntologyTerm => forms.push("a term name with hint 'disease'".to_owned()),
        EntityKind::Drug => forms.push("a drug name with hint 'drug'".to_owned()),
        EntityKind::Complex => forms.push("a complex name with hint 'complex'".to_owned()),
        EntityKind::Pathway => forms.push("a pathway name with hint 'pathway'".to_owned()),
        EntityKind::Protein => forms.push("a gene symbol with hint 'protein'".to_owned()),
        _ => {}
    }
    forms.join(", ")
}

fn unrecognised(raw: &str, message: &str) -> ApiError {
    let forms: Vec<String> = FORMS
        .iter()
        .map(|f| format!("{} ('{}')", f.form, f.example))
        .collect();
    ApiError::unresolved(
        message.to_owned(),
        format!(
            "Recognised forms: {}. Names of diseases, drugs, complexes and pathways need a \
             hint (e.g. hint 'drug' for 'aspirin'). For a genomic position use \
             igvf_search_region.",
            forms.join(", ")
        ),
        raw,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use lifesciences_core::ErrorCode;

    fn id(raw: &str) -> Identifier {
        detect(raw, None).unwrap()
    }

    #[test]
    fn every_pattern_compiles() {
        assert!(PATTERNS.iter().all(|p| p.is_some()));
    }

    #[test]
    fn every_example_of_the_table_is_detected_as_its_kind() {
        for form in FORMS {
            let got = detect(form.example, None)
                .unwrap_or_else(|e| panic!("{} ({}): {e}", form.form, form.example));
            assert_eq!(got.kind(), form.kind, "{} ({})", form.form, form.example);
        }
    }

    #[test]
    fn ensembl_ids_lose_their_version_and_mouse_ids_are_mouse() {
        assert_eq!(
            id("ENSG00000012048.23"),
            Identifier::EnsemblGene {
                id: "ENSG00000012048".into(),
                organism: Organism::Human
            }
        );
        assert_eq!(
            id("ensmusg00000059552"),
            Identifier::EnsemblGene {
                id: "ENSMUSG00000059552".into(),
                organism: Organism::Mouse
            }
        );
        assert!(matches!(
            id("ENST00000357654.9"),
            Identifier::EnsemblTranscript { .. }
        ));
        assert!(matches!(
            id("ENSP00000350283"),
            Identifier::EnsemblProtein { .. }
        ));
        let e = detect("ENSRNOG00000010079", None).unwrap_err();
        assert_eq!(e.code(), ErrorCode::UnresolvedEntity);
        assert!(e.to_string().contains("human and mouse"));
    }

    #[test]
    fn variant_forms() {
        assert_eq!(id("RS80357906"), Identifier::Rsid("rs80357906".into()));
        assert_eq!(
            id("nc_000017.11:43057062:ggg:gggg"),
            Identifier::Spdi("NC_000017.11:43057062:GGG:GGGG".into())
        );
        assert_eq!(
            id("NC_000020.11:3658947:A:G"),
            Identifier::Spdi("NC_000020.11:3658947:A:G".into())
        );
        // Deletions and insertions have an empty side.
        assert!(matches!(
            id("NC_000017.11:43057065::G"),
            Identifier::Spdi(_)
        ));
        assert_eq!(
            id("NC_000017.11:g.43057065dup"),
            Identifier::Hgvs("NC_000017.11:g.43057065dup".into())
        );
        assert_eq!(id("CA10655131"), Identifier::ClinGen("CA10655131".into()));
        for transcript_hgvs in ["NM_007294.4:c.5266dup", "NP_009225.1:p.Gln1756fs"] {
            let e = detect(transcript_hgvs, None).unwrap_err();
            assert_eq!(e.code(), ErrorCode::UnresolvedEntity);
            assert!(e.to_envelope().error.recovery_hint.contains("genomic HGVS"));
        }
    }

    #[test]
    fn short_ca_numbers_are_carbonic_anhydrase_symbols_unless_hinted() {
        assert_eq!(id("CA1"), Identifier::GeneSymbol("CA1".into()));
        assert_eq!(id("CA12"), Identifier::GeneSymbol("CA12".into()));
        assert_eq!(
            detect("CA1", Some(Hint::Variant)).unwrap(),
            Identifier::ClinGen("CA1".into())
        );
        assert_eq!(
            detect("CA10655131", Some(Hint::Gene)).unwrap(),
            Identifier::GeneSymbol("CA10655131".into())
        );
    }

    #[test]
    fn gene_forms() {
        assert_eq!(id("HGNC:1100"), Identifier::Hgnc("HGNC:1100".into()));
        assert_eq!(id("hgnc_1100"), Identifier::Hgnc("HGNC:1100".into()));
        assert_eq!(id("ENTREZ:672"), Identifier::Entrez("672".into()));
        assert_eq!(id("NCBIGene:672"), Identifier::Entrez("672".into()));
        assert_eq!(id("BRCA1"), Identifier::GeneSymbol("BRCA1".into()));
        assert_eq!(id("brca1"), Identifier::GeneSymbol("BRCA1".into()));
        assert_eq!(id("C1orf112"), Identifier::GeneSymbol("C1orf112".into()));
        assert_eq!(id("HLA-A"), Identifier::GeneSymbol("HLA-A".into()));
        // A symbol that starts like an Ensembl ID is a symbol; a name with a dot too.
        assert_eq!(id("ENSA"), Identifier::GeneSymbol("ENSA".into()));
        assert_eq!(
            id("AL033381.1"),
            Identifier::GeneSymbol("AL033381.1".into())
        );
        assert!(is_ensembl_gene("ENSG00000141510.17"));
        assert!(is_ensembl_gene("ENSMUSG00000059552"));
        for other in [
            "ENSA",
            "ENST00000269305",
            "ENSG0000014151",
            "xENSG00000141510",
        ] {
            assert!(!is_ensembl_gene(other), "{other}");
        }
    }

    #[test]
    fn ontology_terms_in_both_forms_normalise_to_the_catalog_key() {
        for raw in ["MONDO_0007254", "MONDO:0007254", "mondo:0007254"] {
            assert_eq!(id(raw).value(), "MONDO_0007254", "{raw}");
        }
        assert_eq!(id("ORPHA:101435").value(), "Orphanet_101435");
        assert_eq!(id("Orphanet_101435").value(), "Orphanet_101435");
        assert_eq!(id("EFO:0004339").value(), "EFO_0004339");
        assert_eq!(id("GO:0000122").value(), "GO_0000122");
        assert_eq!(ontology_curie("Orphanet_101435"), "Orphanet:101435");
        assert_eq!(ontology_curie("MONDO_0009861"), "MONDO:0009861");
    }

    #[test]
    fn other_kinds() {
        assert_eq!(id("PA448497"), Identifier::PharmGkb("PA448497".into()));
        assert_eq!(id("cpx-11"), Identifier::Complex("CPX-11".into()));
        assert_eq!(
            id("R-HSA-164843"),
            Identifier::Reactome("R-HSA-164843".into())
        );
        assert_eq!(id("P38398"), Identifier::Uniprot("P38398".into()));
        assert_eq!(id("P49711-2"), Identifier::Uniprot("P49711-2".into()));
        assert_eq!(id("A0A2U3U0J3"), Identifier::Uniprot("A0A2U3U0J3".into()));
        assert_eq!(
            id("CTCF_HUMAN"),
            Identifier::UniprotName("CTCF_HUMAN".into())
        );
        assert_eq!(
            id("stat3_human"),
            Identifier::UniprotName("STAT3_HUMAN".into())
        );
    }

    #[test]
    fn hints_override_and_allow_names() {
        assert_eq!(
            detect("aspirin", Some(Hint::Drug)).unwrap(),
            Identifier::DrugName("aspirin".into())
        );
        assert_eq!(
            detect("breast cancer", Some(Hint::Disease)).unwrap(),
            Identifier::OntologyName("breast cancer".into())
        );
        assert_eq!(
            detect("MONDO:0007254", Some(Hint::Disease))
                .unwrap()
                .value(),
            "MONDO_0007254"
        );
        assert_eq!(
            detect("ctcf", Some(Hint::Protein)).unwrap(),
            Identifier::ProteinSymbol("CTCF".into())
        );
        assert_eq!(
            detect("SMAD2 homotrimer", Some(Hint::Complex)).unwrap(),
            Identifier::ComplexName("SMAD2 homotrimer".into())
        );
        // An identifier of another kind is refused, not searched for as a name.
        let e = detect("rs80357906", Some(Hint::Gene)).unwrap_err();
        assert_eq!(e.code(), ErrorCode::UnresolvedEntity);
        let body = e.to_envelope().error;
        assert!(body.message.contains("rsID"), "{}", body.message);
        assert!(body.recovery_hint.contains("Drop the hint"));
        let e = detect("BRCA1", Some(Hint::Transcript)).unwrap_err();
        assert!(e.to_envelope().error.recovery_hint.contains("ENST"));
    }

    #[test]
    fn unrecognisable_input_lists_the_forms() {
        for raw in [
            "",
            "   ",
            "breast cancer",
            "12345",
            "chr17:41000000-42000000",
            "!!",
        ] {
            let e = detect(raw, None).unwrap_err();
            assert_eq!(e.code(), ErrorCode::UnresolvedEntity, "{raw}");
            let body = e.to_envelope().error;
            assert!(body.recovery_hint.contains("rsID ('rs80357906')"), "{raw}");
            assert_eq!(body.invalid_input.as_deref(), Some(raw));
        }
    }

    #[test]
    fn organisms_parse_forgivingly() {
        for raw in ["human", "Homo sapiens", "homo_sapiens", "HUMAN", "9606"] {
            assert_eq!(Organism::parse(raw), Some(Organism::Human), "{raw}");
        }
        for raw in ["mouse", "Mus musculus", "mus_musculus", "10090"] {
            assert_eq!(Organism::parse(raw), Some(Organism::Mouse), "{raw}");
        }
        assert_eq!(Organism::parse("zebrafish"), None);
    }
}
