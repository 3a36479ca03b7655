//! Semantic relationships mapped to the catalog's edge endpoints ("data sets"), from
//! either side, and the mapping of edge records to associations that keep their context
//! (p-value, effect size, tissue, source, method).
//!
//! | relationship | from a gene | from a variant | from a protein | from a term / drug / complex / pathway |
//! |---|---|---|---|---|
//! | regulatory | QTLs, element–gene links | QTLs, caQTLs, allele-specific binding | pQTLs, binding | — |
//! | genetic | gene–disease | GWAS/phenotypes, ClinGen | — | disease→genes, disease→variants, phenotype→variants |
//! | physical | protein–protein, complexes (by symbol) | — | protein–protein, complexes | complex→proteins |
//! | functional | pathways, co-expression | — | GO terms | GO term→gene products, pathway→genes |
//! | pharmacological | — | PharmGKB drugs | — | drug→variants |
//! | transcripts | its transcripts | — | the transcripts encoding it | a transcript's gene and proteins |
//!
//! A gene's regulatory data sets include the genes it regulates in perturbation screens
//! (the gene regulatory network, queried with the gene as regulator).

use lifesciences_core::schemars::{self, JsonSchema};
use serde::{Deserialize, Serialize};

use crate::client::{Endpoint, Request};
use crate::ids::{EntityKind, Identifier, Organism, ontology_curie};
use crate::models::{Edge, NodeRef};

/// A kind of relationship an agent asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub(crate) enum Relationship {
    /// QTLs (eQTL, sQTL, caQTL, pQTL), regulatory element–gene links, allele-specific
    /// transcription factor binding.
    Regulatory,
    /// Variant/gene–disease (ClinGen, Orphanet, GenCC) and variant–phenotype (GWAS).
    Genetic,
    /// Protein–protein interactions and protein complexes.
    Physical,
    /// Pathways (Reactome), GO annotations, co-expression.
    Functional,
    /// Variant–drug associations (PharmGKB).
    Pharmacological,
    /// Gene → transcripts, protein → transcripts, transcript → gene and proteins.
    Transcripts,
    /// Every relationship that applies to the entity, queried in parallel.
    All,
}

impl<'de> Deserialize<'de> for Relationship {
    /// Case-insensitive, with a few synonyms (`qtl`, `disease`, `interaction`, `drug`).
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let raw = String::deserialize(d)?;
        Self::parse(&raw).map_err(serde::de::Error::custom)
    }
}

impl Relationship {
    /// Case-insensitive, with a few synonyms (`qtl`, `disease`, `interaction`, `drug`);
    /// the error is a sentence naming the valid values.
    pub(crate) fn parse(raw: &str) -> Result<Self, String> {
        match raw.trim().to_ascii_lowercase().as_str() {
            "regulatory" | "regulation" | "qtl" | "eqtl" => Ok(Self::Regulatory),
            "genetic" | "disease" | "phenotype" | "gwas" => Ok(Self::Genetic),
            "physical" | "interaction" | "interactions" | "ppi" => Ok(Self::Physical),
            "functional" | "function" | "pathway" | "pathways" | "go" => Ok(Self::Functional),
            "pharmacological" | "pharmacogenomic" | "drug" | "drugs" => Ok(Self::Pharmacological),
            "transcripts" | "transcript" | "isoforms" | "structural" => Ok(Self::Transcripts),
            "all" | "any" | "*" => Ok(Self::All),
            _ => Err(format!(
                "'{raw}' is not a relationship; use one of 'regulatory', 'genetic', \
                 'physical', 'functional', 'pharmacological', 'transcripts', 'all'"
            )),
        }
    }

    /// The six concrete relationships.
    pub(crate) const CONCRETE: [Relationship; 6] = [
        Self::Regulatory,
        Self::Genetic,
        Self::Physical,
        Self::Functional,
        Self::Pharmacological,
        Self::Transcripts,
    ];

    /// The wire name.
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Self::Regulatory => "regulatory",
            Self::Genetic => "genetic",
            Self::Physical => "physical",
            Self::Functional => "functional",
            Self::Pharmacological => "pharmacological",
            Self::Transcripts => "transcripts",
            Self::All => "all",
        }
    }
}

/// One edge endpoint as a data set an association query can use.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Dataset {
    /// The endpoint.
    pub endpoint: Endpoint,
    /// The relationship it serves.
    pub relationship: Relationship,
    /// The kind of entity it is queried by.
    pub from: EntityKind,
    /// The kind of entity on the other side (`_type` of the target).
    pub to: &'static str,
    /// What it holds, in words.
    pub description: &'static str,
}

/// Every data set, in the order results are presented.
pub(crate) const DATASETS: &[Dataset] = &[
    Dataset {
        endpoint: Endpoint::GenesVariants,
        relationship: Relationship::Regulatory,
        from: EntityKind::Gene,
        to: "variant",
        description: "variants affecting the gene's expression or splicing (eQTL, sQTL; AFGR, eQTL Catalogue, IGVF CRISPR screens)",
    },
    Dataset {
        endpoint: Endpoint::GenesGenomicElements,
        relationship: Relationship::Regulatory,
        from: EntityKind::Gene,
        to: "genomic_element",
        description: "regulatory elements linked to the gene (ENCODE-rE2G, scE2G, CRISPR screens, Perturb-seq)",
    },
    Dataset {
        endpoint: Endpoint::GeneRegulatoryNetwork,
        relationship: Relationship::Regulatory,
        from: EntityKind::Gene,
        to: "gene",
        description: "genes whose expression changes when the gene is perturbed (Perturb-seq, CRISPR screens; the gene regulatory network)",
    },
    Dataset {
        endpoint: Endpoint::GenesDiseases,
        relationship: Relationship::Genetic,
        from: EntityKind::Gene,
        to: "ontology_term",
        description: "diseases associated with the gene (Orphanet, GenCC, ClinGen)",
    },
    Dataset {
        endpoint: Endpoint::ProteinsProteins,
        relationship: Relationship::Physical,
        from: EntityKind::Gene,
        to: "protein",
        description: "protein–protein interactions of the gene's proteins (BioGRID, IntAct)",
    },
    Dataset {
        endpoint: Endpoint::ProteinsComplexes,
        relationship: Relationship::Physical,
        from: EntityKind::Gene,
        to: "complex",
        description: "complexes the gene's proteins belong to (EBI Complex Portal)",
    },
    Dataset {
        endpoint: Endpoint::GenesPathways,
        relationship: Relationship::Functional,
        from: EntityKind::Gene,
        to: "pathway",
        description: "Reactome pathways of the gene",
    },
    Dataset {
        endpoint: Endpoint::GenesGenes,
        relationship: Relationship::Functional,
        from: EntityKind::Gene,
        to: "gene",
        description: "co-expressed genes (COXPRESdb) and genetic interactions (BioGRID)",
    },
    Dataset {
        endpoint: Endpoint::GenesTranscripts,
        relationship: Relationship::Transcripts,
        from: EntityKind::Gene,
        to: "transcript",
        description: "the gene's transcripts (GENCODE)",
    },
    Dataset {
        endpoint: Endpoint::VariantsGenes,
        relationship: Relationship::Regulatory,
        from: EntityKind::Variant,
        to: "gene",
        description: "genes whose expression or splicing the variant affects (eQTL, sQTL, CRISPR)",
    },
    Dataset {
        endpoint: Endpoint::VariantsGenomicElements,
        relationship: Relationship::Regulatory,
        from: EntityKind::Variant,
        to: "genomic_element",
        description: "regulatory elements whose accessibility the variant affects (caQTL)",
    },
    Dataset {
        endpoint: Endpoint::VariantsProteins,
        relationship: Relationship::Regulatory,
        from: EntityKind::Variant,
        to: "protein",
        description: "transcription factor binding the variant changes, and pQTLs (ADASTRA, GVATdb, SEMVAR, UKB)",
    },
    Dataset {
        endpoint: Endpoint::VariantsPhenotypes,
        relationship: Relationship::Genetic,
        from: EntityKind::Variant,
        to: "ontology_term",
        description: "phenotypes and traits associated with the variant (GWAS via OpenTargets, IGVF)",
    },
    Dataset {
        endpoint: Endpoint::VariantsDiseases,
        relationship: Relationship::Genetic,
        from: EntityKind::Variant,
        to: "ontology_term",
        description: "clinical assertions of the variant (ClinGen)",
    },
    Dataset {
        endpoint: Endpoint::VariantsDrugs,
        relationship: Relationship::Pharmacological,
        from: EntityKind::Variant,
        to: "drug",
        description: "drugs whose response the variant affects (PharmGKB)",
    },
    Dataset {
        endpoint: Endpoint::ProteinsVariants,
        relationship: Relationship::Regulatory,
        from: EntityKind::Protein,
        to: "variant",
        description: "variants that change the protein's DNA binding or level (ADASTRA, GVATdb, SEMVAR, UKB pQTL)",
    },
    Dataset {
        endpoint: Endpoint::ProteinsProteins,
        relationship: Relationship::Physical,
        from: EntityKind::Protein,
        to: "protein",
        description: "protein–protein interactions (BioGRID, IntAct)",
    },
    Dataset {
        endpoint: Endpoint::ProteinsComplexes,
        relationship: Relationship::Physical,
        from: EntityKind::Protein,
        to: "complex",
        description: "complexes the protein belongs to (EBI Complex Portal)",
    },
    Dataset {
        endpoint: Endpoint::GeneProductsGoTerms,
        relationship: Relationship::Functional,
        from: EntityKind::Protein,
        to: "ontology_term",
        description: "GO annotations of the protein",
    },
    Dataset {
        endpoint: Endpoint::ProteinsTranscripts,
        relationship: Relationship::Transcripts,
        from: EntityKind::Protein,
        to: "transcript",
        description: "the transcripts encoding the protein (GENCODE)",
    },
    Dataset {
        endpoint: Endpoint::TranscriptsGenes,
        relationship: Relationship::Transcripts,
        from: EntityKind::Transcript,
        to: "gene",
        description: "the transcript's gene (GENCODE)",
    },
    Dataset {
        endpoint: Endpoint::TranscriptsProteins,
        relationship: Relationship::Transcripts,
        from: EntityKind::Transcript,
        to: "protein",
        description: "the proteins the transcript encodes (GENCODE)",
    },
    Dataset {
        endpoint: Endpoint::DiseasesGenes,
        relationship: Relationship::Genetic,
        from: EntityKind::OntologyTerm,
        to: "gene",
        description: "genes associated with the disease (Orphanet, GenCC)",
    },
    Dataset {
        endpoint: Endpoint::DiseasesVariants,
        relationship: Relationship::Genetic,
        from: EntityKind::OntologyTerm,
        to: "variant",
        description: "variants with clinical assertions for the disease (ClinGen)",
    },
    Dataset {
        endpoint: Endpoint::PhenotypesVariants,
        relationship: Relationship::Genetic,
        from: EntityKind::OntologyTerm,
        to: "variant",
        description: "variants associated with the phenotype or trait (GWAS via OpenTargets, IGVF)",
    },
    Dataset {
        endpoint: Endpoint::GoTermsGeneProducts,
        relationship: Relationship::Functional,
        from: EntityKind::OntologyTerm,
        to: "protein",
        description: "gene products annotated with the GO term",
    },
    Dataset {
        endpoint: Endpoint::DrugsVariants,
        relationship: Relationship::Pharmacological,
        from: EntityKind::Drug,
        to: "variant",
        description: "variants affecting response to the drug (PharmGKB)",
    },
    Dataset {
        endpoint: Endpoint::ComplexesProteins,
        relationship: Relationship::Physical,
        from: EntityKind::Complex,
        to: "protein",
        description: "the complex's protein participants (EBI Complex Portal)",
    },
    Dataset {
        endpoint: Endpoint::PathwaysGenes,
        relationship: Relationship::Functional,
        from: EntityKind::Pathway,
        to: "gene",
        description: "genes in the pathway (Reactome)",
    },
];

/// The entity an association query starts from, resolved as far as needed.
#[derive(Debug, Clone)]
pub(crate) struct Subject {
    /// What the caller gave, detected.
    pub identifier: Identifier,
    /// The canonical ID when known (ENSG…, SPDI, ENSP…, `MONDO_…`, PA…, CPX-…, R-HSA-…).
    pub id: Option<String>,
    /// The gene symbol, when known (gene and protein subjects).
    pub symbol: Option<String>,
    /// The Ensembl protein IDs the subject stands for on protein edges: a gene's
    /// proteins (every `/proteins` record named exactly by its symbol), or a protein's
    /// exact matches. Edges of protein data sets must involve one of them.
    pub proteins: Vec<String>,
    /// Whether the entity is known to exist (it was looked up to resolve it).
    pub verified: bool,
}

impl Subject {
    /// A subject known only by what the caller gave (nothing looked up yet).
    pub(crate) fn unresolved(identifier: Identifier, id: Option<String>) -> Self {
        Self {
            identifier,
            id,
            symbol: None,
            proteins: Vec::new(),
            verified: false,
        }
    }

    /// The subject's kind.
    pub(crate) fn kind(&self) -> EntityKind {
        self.identifier.kind()
    }

    /// The subject's organism.
    pub(crate) fn organism(&self) -> Organism {
        self.identifier.organism()
    }

    /// The query parameter that names this subject on `dataset`, or `None` when the
    /// data set cannot be queried by what is known of it.
    pub(crate) fn param(&self, endpoint: Endpoint) -> Option<(&'static str, String)> {
        use Endpoint as E;
        use Identifier as I;
        let id = self.id.clone();
        match (endpoint, &self.identifier) {
            // Gene side: by Ensembl ID (symbols are resolved to it first).
            (
                E::GenesVariants
                | E::GenesGenomicElements
                | E::GenesDiseases
                | E::GenesPathways
                | E::GenesGenes
                | E::GenesTranscripts
                | E::GenesCodingVariantScores,
                _,
            ) if self.kind() == EntityKind::Gene => id.map(|v| ("gene_id", v)),
            (E::GeneRegulatoryNetwork, _) if self.kind() == EntityKind::Gene => {
                id.map(|v| ("regulator_gene_id", v))
            }
            // A protein named by its symbol stands for every protein of that name: its
            // transcripts are asked by name; by ID otherwise.
            (E::ProteinsTranscripts, I::ProteinSymbol(_)) => {
                self.symbol.clone().map(|s| ("protein_name", s))
            }
            (E::ProteinsTranscripts, _) if self.kind() == EntityKind::Protein => {
                id.map(|v| ("protein_id", v))
            }
            (E::TranscriptsGenes | E::TranscriptsProteins, I::EnsemblTranscript { id: t, .. }) => {
                Some(("transcript_id", t.clone()))
            }
            // A gene's proteins, by the gene symbol (the protein `name` is the symbol,
            // matched exactly upstream); edges are then checked against their ENSP IDs.
            (E::ProteinsProteins | E::ProteinsComplexes, _) if self.kind() == EntityKind::Gene => {
                self.symbol.clone().map(|s| ("protein_name", s))
            }
            // A protein by its Ensembl ID (UniProt accessions, entry names and symbols are
            // resolved to it first).
            (E::ProteinsProteins | E::ProteinsComplexes | E::ProteinsVariants, _)
                if self.kind() == EntityKind::Protein =>
            {
                id.map(|v| ("protein_id", v))
            }
            (E::GeneProductsGoTerms, _) if self.kind() == EntityKind::Protein => {
                id.map(|v| ("query", v))
            }
            (
                E::VariantsGenes
                | E::VariantsGenomicElements
                | E::VariantsProteins
                | E::VariantsPhenotypes
                | E::VariantsDiseases
                | E::VariantsDrugs
                | E::VariantLd,
                ident,
            ) => match ident {
                I::Rsid(v) => Some(("rsid", v.clone())),
                I::Spdi(v) => Some(("spdi", v.clone())),
                I::Hgvs(v) => Some(("hgvs", v.clone())),
                I::ClinGen(v) => Some(("ca_id", v.clone())),
                _ => None,
            },
            // Terms by ID or (resolved) name: GO terms on the GO data set, the others on
            // the disease and phenotype data sets.
            (E::DiseasesGenes | E::DiseasesVariants, _)
                if self.kind() == EntityKind::OntologyTerm && !self.is_go_term() =>
            {
                id.map(|v| ("disease_id", v))
            }
            (E::PhenotypesVariants, _)
                if self.kind() == EntityKind::OntologyTerm && !self.is_go_term() =>
            {
                id.map(|v| ("phenotype_id", v))
            }
            (E::GoTermsGeneProducts, _)
                if self.kind() == EntityKind::OntologyTerm && self.is_go_term() =>
            {
                id.map(|v| ("go_term_id", v))
            }
            (E::DrugsVariants, I::PharmGkb(_) | I::DrugName(_)) => id.map(|v| ("drug_id", v)),
            (E::ComplexesProteins, I::Complex(_) | I::ComplexName(_)) => {
                id.map(|v| ("complex_id", v))
            }
            (E::PathwaysGenes, I::Reactome(_) | I::PathwayName(_)) => id.map(|v| ("pathway_id", v)),
            _ => None,
        }
    }

    /// Whether the subject is a GO term (by its ID, or the ID its name resolved to).
    pub(crate) fn is_go_term(&self) -> bool {
        match &self.identifier {
            Identifier::OntologyTerm { prefix, .. } => prefix == "GO",
            _ => self
                .id
                .as_deref()
                .is_some_and(|i| i.to_ascii_uppercase().starts_with("GO_")),
        }
    }

    /// The keys the subject's side of an edge of `endpoint` may carry, to check edges
    /// involve it: its ID, and on protein data sets its proteins' Ensembl IDs. Empty
    /// only when the subject was queried by something edges do not carry (an rsID).
    pub(crate) fn keys_for(&self, endpoint: Endpoint) -> Vec<String> {
        if self.needs_symbol(endpoint)
            || (endpoint == Endpoint::ProteinsTranscripts
                && matches!(self.identifier, Identifier::ProteinSymbol(_)))
        {
            return self.proteins.clone();
        }
        let mut keys: Vec<String> = self.id.iter().cloned().collect();
        if self.kind() == EntityKind::Protein {
            keys.extend(self.proteins.iter().cloned());
        }
        if self.kind() == EntityKind::OntologyTerm {
            keys.extend(self.id.iter().map(|i| ontology_curie(i)));
        }
        match &self.identifier {
            Identifier::Spdi(v)
            | Identifier::EnsemblProtein { id: v, .. }
            | Identifier::EnsemblTranscript { id: v, .. } => keys.push(v.clone()),
            _ => {}
        }
        keys
    }

    /// Whether the subject needs the gene symbol for `endpoint`.
    pub(crate) fn needs_symbol(&self, endpoint: Endpoint) -> bool {
        self.kind() == EntityKind::Gene
            && matches!(
                endpoint,
                Endpoint::ProteinsProteins | Endpoint::ProteinsComplexes
            )
    }
}

/// What kind of entity, in which forms, a data set is queried by (for the hint when an
/// entity cannot be used with any data set of a relationship).
pub(crate) fn accepts(endpoint: Endpoint) -> &'static str {
    use Endpoint as E;
    match endpoint {
        E::GenesVariants
        | E::GenesGenomicElements
        | E::GenesDiseases
        | E::GenesPathways
        | E::GenesGenes
        | E::GenesTranscripts
        | E::GeneRegulatoryNetwork
        | E::GenesCodingVariantScores => "a gene (symbol, ENSG…, HGNC:…)",
        E::TranscriptsGenes | E::TranscriptsProteins => "a transcript (ENST…)",
        E::ProteinsProteins
        | E::ProteinsComplexes
        | E::ProteinsVariants
        | E::ProteinsTranscripts
        | E::GeneProductsGoTerms => {
            "a protein (ENSP…, a UniProt accession, or a symbol with hint 'protein') or a gene"
        }
        E::DiseasesGenes | E::DiseasesVariants => {
            "a disease term (MONDO:…, Orphanet:…, EFO:…, or a name with hint 'disease'), not a GO term"
        }
        E::PhenotypesVariants => {
            "a phenotype or trait term (EFO:…, HP:…, or a name with hint 'disease'), not a GO term"
        }
        E::GoTermsGeneProducts => "a GO term (GO:0000122)",
        E::DrugsVariants => "a PharmGKB drug (PA448497, or a name with hint 'drug')",
        E::ComplexesProteins => "a Complex Portal complex (CPX-11, or a name with hint 'complex')",
        E::PathwaysGenes => "a Reactome pathway (R-HSA-164843, or a name with hint 'pathway')",
        _ => "a variant (rsID, SPDI, genomic HGVS, CA…)",
    }
}

/// The data sets of `relationship` that start from `kind`.
pub(crate) fn datasets_for(kind: EntityKind, relationship: Relationship) -> Vec<&'static Dataset> {
    DATASETS
        .iter()
        .filter(|d| d.from == kind)
        .filter(|d| relationship == Relationship::All || d.relationship == relationship)
        .collect()
}

/// The relationships that have at least one data set from `kind`.
pub(crate) fn relationships_for(kind: EntityKind) -> Vec<&'static str> {
    Relationship::CONCRETE
        .iter()
        .filter(|r| {
            DATASETS
                .iter()
                .any(|d| d.from == kind && d.relationship == **r)
        })
        .map(|r| r.as_str())
        .collect()
}

/// The request for `dataset` from `subject` (filters added by the tool).
pub(crate) fn request(dataset: &Dataset, subject: &Subject) -> Option<Request> {
    let (name, value) = subject.param(dataset.endpoint)?;
    Some(
        Request::new(dataset.endpoint)
            .param(name, value)
            .organism(subject.organism()),
    )
}

/// One side of an association.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub(crate) struct EntityRef {
    /// An ID `igvf_get_entity` accepts, or a regulatory element's name.
    pub id: String,
    /// `gene`, `variant`, `protein`, `ontology_term`, `drug`, `complex`, `pathway`,
    /// `genomic_element`.
    #[serde(rename = "_type")]
    pub kind: String,
    /// Symbol, disease or trait name, when given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
}

/// One association, with its context.
#[serde_with::skip_serializing_none]
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub(crate) struct Association {
    /// `regulatory`, `genetic`, `physical`, `functional` or `pharmacological`.
    pub relationship: String,
    /// The catalog's label (`eQTL`, `splice_QTL`, `GWAS`…), else its predicate.
    pub relationship_type: String,
    /// E.g. `modulates expression of`.
    pub predicate: Option<String>,
    /// The entity queried.
    pub source_entity: EntityRef,
    /// The other end.
    pub target_entity: EntityRef,
    /// E.g. `EBI`, `ClinGen`, `OpenTargets`.
    pub source: Option<String>,
    /// E.g. `eQTL`, `CRISPR screen`, `GWAS`.
    pub method: Option<String>,
    // From `p_value`, the GWAS edge's `p_val`, PharmGKB's study parameters, or
    // 10^-neg_log10_pvalue.
    pub p_value: Option<f64>,
    /// As the catalog states it.
    pub neg_log10_p_value: Option<f64>,
    pub effect_size: Option<f64>,
    /// `effect_size`, `beta` or `log2FC`.
    pub effect_size_measure: Option<String>,
    /// 0–1 (prediction score, interaction confidence).
    pub score: Option<f64>,
    /// Unbounded (QTLs, co-expression).
    pub z_score: Option<f64>,
    /// Fine-mapping PIP (QTLs).
    pub posterior_inclusion_probability: Option<f64>,
    /// `observed data` or `prediction`.
    pub evidence_class: Option<String>,
    /// Tissue or cell type (`biological_context`).
    pub tissue: Option<String>,
    /// E.g. `UBERON:0002046`.
    pub biosample: Option<String>,
    /// Clinical significance, association or interaction type.
    pub evidence: Option<String>,
    /// E.g. `GCST007841`, `QTS000015`.
    pub study: Option<String>,
    /// `PMID:…`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub pmids: Vec<String>,
    /// The catalog endpoint, e.g. `/genes/variants`.
    pub dataset: String,
}

impl Association {
    /// Whether its p-value is known and at most `max` (with a tiny tolerance: the
    /// upstream filter works on rounded -log10 values).
    pub(crate) fn p_value_at_most(&self, max: f64) -> bool {
        self.p_value.is_some_and(|p| p <= max * (1.0 + 1e-6))
    }

    /// Whether its source is `source`, case-insensitively.
    pub(crate) fn has_source(&self, source: &str) -> bool {
        self.source
            .as_deref()
            .is_some_and(|s| s.eq_ignore_ascii_case(source))
    }

    /// Whether its tissue or cell type contains `text`, case-insensitively.
    pub(crate) fn in_tissue(&self, text: &str) -> bool {
        let needle = text.to_lowercase();
        self.tissue
            .as_deref()
            .is_some_and(|t| t.to_lowercase().contains(&needle))
    }
}

/// Map an edge of `dataset` queried from `subject`. `None` when the edge's subject side
/// names another entity (the upstream ignored a filter) or it has no other side.
pub(crate) fn map_edge(
    dataset: &Dataset,
    subject: Option<&Subject>,
    edge: Edge,
) -> Option<Association> {
    let keys = subject
        .map(|s| s.keys_for(dataset.endpoint))
        .unwrap_or_default();
    let is_subject = |node: &NodeRef| keys.iter().any(|k| k.eq_ignore_ascii_case(&node.key));
    let (own, other, other_name) = sides(dataset.endpoint, &edge);
    let (own, other) = match (own, other) {
        // Symmetric edges: the other side is whichever is not the subject.
        (Some(a), Some(b)) if symmetric(dataset.endpoint) && !keys.is_empty() => {
            if is_subject(&a) {
                (Some(a), b)
            } else if is_subject(&b) {
                (Some(b), a)
            } else {
                return None;
            }
        }
        (own, Some(other)) => (own, other),
        (_, None) => return None,
    };
    if let Some(own) = &own
        && !keys.is_empty()
        && !is_subject(own)
    {
        return None;
    }
    let symbol = subject.and_then(|s| s.symbol.clone());
    let mut source_entity = match (own, subject) {
        (Some(node), _) => to_ref(node, dataset.from.as_str(), None),
        (None, Some(subject)) => EntityRef {
            id: subject
                .id
                .clone()
                .unwrap_or_else(|| subject.identifier.value()),
            kind: dataset.from.as_str().to_owned(),
            name: None,
        },
        (None, None) => return None,
    };
    if source_entity.name.is_none() {
        source_entity.name = symbol;
    }
    let target_entity = to_ref(other, dataset.to, other_name);
    // The network's recorded rows carry a signed `score` (a change in expression), not
    // a 0–1 confidence: it is the effect.
    let network = dataset.endpoint == Endpoint::GeneRegulatoryNetwork;
    let effect = edge
        .effect()
        .or_else(|| edge.score.filter(|_| network).map(|s| (s, "score")));
    let evidence = edge
        .assertion
        .clone()
        .or(edge.association_type.clone())
        .or(edge.interaction_type.clone())
        .or(edge.detection_method.clone())
        .or(edge.evidence.clone())
        .or_else(|| {
            (!edge.phenotype_categories.is_empty()).then(|| edge.phenotype_categories.join(", "))
        });
    let mut pmids: Vec<String> = Vec::new();
    for raw in edge.pmids.iter().chain(edge.pmid.iter()) {
        let digits = raw.rsplit(['/', ':']).next().unwrap_or_default().trim();
        if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
            let pmid = format!("PMID:{digits}");
            if !pmids.contains(&pmid) {
                pmids.push(pmid);
            }
        }
    }
    Some(Association {
        relationship: dataset.relationship.as_str().to_owned(),
        relationship_type: edge
            .label
            .clone()
            .or(edge.name.clone())
            .unwrap_or_else(|| dataset.endpoint.path().to_owned()),
        predicate: edge.name.clone(),
        source_entity,
        target_entity,
        source: edge.source.clone(),
        method: edge.method.clone(),
        p_value: edge.p_value(),
        neg_log10_p_value: edge.neg_log10_pvalue,
        effect_size: effect.map(|(v, _)| v),
        effect_size_measure: effect.map(|(_, m)| m.to_owned()),
        score: edge.score.filter(|_| !network).filter(|s| {
            let in_range = (0.0..=1.0).contains(s);
            if !in_range {
                tracing::debug!(
                    score = s,
                    dataset = dataset.endpoint.path(),
                    "score outside 0–1 left out"
                );
            }
            in_range
        }),
        z_score: edge.z_score,
        posterior_inclusion_probability: edge.posterior_inclusion_probability,
        evidence_class: edge.class.clone(),
        tissue: edge.biological_context.clone(),
        biosample: edge
            .biosample_term
            .as_ref()
            .or(edge.biosample.as_ref())
            .map(|b| ontology_curie(&b.key)),
        evidence,
        study: edge.study.as_ref().map(|s| s.key.clone()),
        pmids,
        dataset: format!("/{}", dataset.endpoint.path()),
    })
}

fn symmetric(endpoint: Endpoint) -> bool {
    matches!(endpoint, Endpoint::ProteinsProteins | Endpoint::GenesGenes)
}

/// The subject's side, the other side, and a name for the other side.
fn sides(endpoint: Endpoint, e: &Edge) -> (Option<NodeRef>, Option<NodeRef>, Option<String>) {
    use Endpoint as E;
    let variant = e
        .sequence_variant
        .clone()
        .or(e.variant.clone())
        .or(e.sequence_variant_spaced.clone());
    match endpoint {
        E::GenesVariants => (e.gene.clone(), variant, None),
        E::VariantsGenes => (variant, e.gene.clone(), e.gene_name.clone()),
        E::GenesGenomicElements => (e.gene.clone(), e.genomic_element.clone(), None),
        E::VariantsGenomicElements => (variant, e.genomic_element.clone(), None),
        E::VariantsProteins => (variant, e.protein_complex.clone(), None),
        E::ProteinsVariants => (e.protein_complex.clone(), variant, None),
        E::GenesDiseases => (e.gene.clone(), e.disease.clone(), e.term_name.clone()),
        E::DiseasesGenes => (e.disease.clone(), e.gene.clone(), e.gene_symbol.clone()),
        E::VariantsPhenotypes => (variant, e.phenotype_id.clone(), e.phenotype_term.clone()),
        E::PhenotypesVariants => (e.phenotype_id.clone(), variant, None),
        E::VariantsDiseases => (variant, e.disease.clone(), None),
        E::DiseasesVariants => (e.disease.clone(), variant, e.gene_name.clone()),
        E::ProteinsProteins => (e.protein_1.clone(), e.protein_2.clone(), None),
        E::GenesGenes => (e.gene_1.clone(), e.gene_2.clone(), None),
        // Asked by the regulator's ID; rows name genes by symbol only.
        E::GeneRegulatoryNetwork => (
            None,
            e.response_gene.as_deref().and_then(NodeRef::from_text),
            None,
        ),
        E::GenesTranscripts => (e.gene.clone(), e.transcript.clone(), None),
        E::ProteinsTranscripts => (e.protein.clone(), e.transcript.clone(), None),
        E::TranscriptsGenes => (e.transcript.clone(), e.gene.clone(), None),
        E::TranscriptsProteins => (e.transcript.clone(), e.protein.clone(), None),
        E::ProteinsComplexes => (e.protein.clone(), e.complex.clone(), None),
        E::ComplexesProteins => (e.complex.clone(), e.protein.clone(), None),
        E::GenesPathways => (e.gene.clone(), e.pathway.clone(), None),
        E::PathwaysGenes => (e.pathway.clone(), e.gene.clone(), None),
        E::GeneProductsGoTerms => (
            e.gene_product_id.clone(),
            e.go_id.as_deref().and_then(NodeRef::from_text),
            e.go_term_name.clone(),
        ),
        E::GoTermsGeneProducts => (
            e.go_id.as_deref().and_then(NodeRef::from_text),
            e.gene_product_id.clone(),
            e.gene_product_name.clone(),
        ),
        E::VariantsDrugs => (e.from.clone().or(variant), e.drug.clone(), None),
        E::DrugsVariants => (
            e.to.clone().or(e.drug.clone()),
            variant,
            e.gene_symbol.clone(),
        ),
        _ => (None, None, None),
    }
}

fn to_ref(node: NodeRef, default_kind: &str, name: Option<String>) -> EntityRef {
    let kind = match node.collection.as_deref() {
        Some("genes" | "mm_genes") => "gene",
        Some("variants" | "mm_variants") => "variant",
        Some("proteins") => "protein",
        Some("complexes") => "complex",
        Some("ontology_terms") => "ontology_term",
        Some("pathways") => "pathway",
        Some("drugs") => "drug",
        Some("genomic_elements" | "mm_genomic_elements") => "genomic_element",
        Some("transcripts") => "transcript",
        Some("studies") => "study",
        Some("motifs") => "motif",
        _ => default_kind,
    };
    let id = if kind == "ontology_term" {
        ontology_curie(&node.key)
    } else {
        node.key
    };
    EntityRef {
        id,
        kind: kind.to_owned(),
        name: node.name.or(name),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ids::detect;
    use serde_json::json;

    fn subject(raw: &str, id: Option<&str>, symbol: Option<&str>) -> Subject {
        Subject {
            symbol: symbol.map(str::to_owned),
            ..Subject::unresolved(detect(raw, None).unwrap(), id.map(str::to_owned))
        }
    }

    fn dataset(endpoint: Endpoint, from: EntityKind) -> &'static Dataset {
        DATASETS
            .iter()
            .find(|d| d.endpoint == endpoint && d.from == from)
            .unwrap()
    }

    #[test]
    fn every_kind_has_relationships_and_transcripts_link_genes_and_proteins() {
        assert_eq!(
            relationships_for(EntityKind::Gene),
            [
                "regulatory",
                "genetic",
                "physical",
                "functional",
                "transcripts"
            ]
        );
        assert_eq!(
            relationships_for(EntityKind::Variant),
            ["regulatory", "genetic", "pharmacological"]
        );
        assert_eq!(relationships_for(EntityKind::Transcript), ["transcripts"]);
        assert_eq!(
            relationships_for(EntityKind::Protein),
            ["regulatory", "physical", "functional", "transcripts"]
        );
        // eQTLs, element links and the perturbation network.
        assert_eq!(
            datasets_for(EntityKind::Gene, Relationship::Regulatory).len(),
            3
        );
        assert_eq!(datasets_for(EntityKind::Gene, Relationship::All).len(), 9);
    }

    #[test]
    fn every_dataset_request_uses_parameters_the_spec_knows() {
        let subjects = [
            subject("TP53", Some("ENSG00000141510"), Some("TP53")),
            subject("rs1152591", None, None),
            subject("NC_000020.11:3658947:A:G", None, None),
            subject("ENSP00000384707", Some("ENSP00000384707"), None),
            subject("P49711", None, None),
            subject("MONDO:0009861", Some("MONDO_0009861"), None),
            subject("GO:0000122", Some("GO_0000122"), None),
            subject("PA448497", Some("PA448497"), None),
            subject("CPX-11", Some("CPX-11"), None),
            subject("R-HSA-164843", Some("R-HSA-164843"), None),
            subject("ENST00000428769", None, None),
        ];
        let mut built = 0;
        for s in &subjects {
            for d in datasets_for(s.kind(), Relationship::All) {
                if let Some(r) = request(d, s) {
                    built += 1;
                    for (name, _) in r.query() {
                        assert!(
                            crate::spec::spec().has_param(d.endpoint.path(), name),
                            "/{} {name}",
                            d.endpoint.path()
                        );
                    }
                }
            }
        }
        assert!(built >= 20, "{built}");
    }

    #[test]
    fn gene_edges_map_from_the_gene_side_and_unrelated_edges_are_dropped() {
        let s = subject("TP53", Some("ENSG00000141510"), Some("TP53"));
        let d = dataset(Endpoint::GenesVariants, EntityKind::Gene);
        let edge: Edge = serde_json::from_value(json!({
            "gene": "genes/ENSG00000141510",
            "sequence_variant": "variants/NC_000014.9:64214129:A:G",
            "p_value": 1.86586e-08, "label": "splice_QTL", "name": "modulates splicing of",
            "source": "EBI", "method": "splice_QTL", "biological_context": "thyroid",
            "biosample_term": "ontology_terms/UBERON_0002046", "study": "studies/QTS000015"
        }))
        .unwrap();
        let a = map_edge(d, Some(&s), edge.clone()).unwrap();
        assert_eq!(a.source_entity.id, "ENSG00000141510");
        assert_eq!(a.source_entity.name.as_deref(), Some("TP53"));
        assert_eq!(a.target_entity.id, "NC_000014.9:64214129:A:G");
        assert_eq!(a.target_entity.kind, "variant");
        assert_eq!(a.relationship_type, "splice_QTL");
        assert_eq!(a.tissue.as_deref(), Some("thyroid"));
        assert_eq!(a.biosample.as_deref(), Some("UBERON:0002046"));
        assert_eq!(a.study.as_deref(), Some("QTS000015"));
        let other = Subject {
            id: Some("ENSG00000012048".into()),
            ..s
        };
        assert!(map_edge(d, Some(&other), edge).is_none());
    }

    #[test]
    fn symmetric_edges_put_the_partner_on_the_target_side() {
        let s = subject("ENSP00000384707", Some("ENSP00000384707"), None);
        let d = dataset(Endpoint::ProteinsProteins, EntityKind::Protein);
        let edge: Edge = serde_json::from_value(json!({
            "protein_1": "proteins/ENSP00000000001", "protein_2": "proteins/ENSP00000384707",
            "source": "BioGRID", "pmids": ["12345", "http://pubmed.ncbi.nlm.nih.gov/12345"]
        }))
        .unwrap();
        let a = map_edge(d, Some(&s), edge).unwrap();
        assert_eq!(a.source_entity.id, "ENSP00000384707");
        assert_eq!(a.target_entity.id, "ENSP00000000001");
        assert_eq!(a.pmids, ["PMID:12345"]);
    }
}
