//! `ensembl_get_variant`: a known variant by name (rsID, COSMIC or structural variant
//! ID) from `GET variation/:species/:id`: where it is, its alleles, minor allele and
//! frequency, clinical significance, most severe consequence and synonyms; with
//! `phenotypes`, the traits associated with it. One request.

use lifesciences_core::rmcp::schemars::{self, JsonSchema};
use lifesciences_core::rmcp::{Json, tool};
use lifesciences_core::{ApiError, Parameters, Reply};
use serde::{Deserialize, Serialize};

use crate::client::UnknownSpecies;
use crate::models::{VariationPhenotype, VariationRecord};
use crate::server::EnsemblServer;
use crate::species;
use crate::tools::unknown_species;

/// Most synonyms listed; `synonym_count` counts them all.
const MAX_SYNONYMS: usize = 20;
/// Most phenotypes listed; `phenotype_count` counts them all.
const MAX_PHENOTYPES: usize = 50;

/// Arguments of `ensembl_get_variant`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct GetVariantArgs {
    /// rsID (`rs699`), COSMIC (`COSV…`) or structural variant ID (`esv…`).
    pub id: String,
    /// Species name or alias.
    #[serde(default)]
    #[schemars(extend("default" = "homo_sapiens"))]
    pub species: Option<String>,
    /// Also list associated traits (ClinVar, GWAS catalog…).
    #[serde(default)]
    #[schemars(extend("default" = false))]
    pub phenotypes: bool,
}

/// One place of the variant.
#[serde_with::skip_serializing_none]
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub(crate) struct Place {
    /// `chr:start-end`, e.g. `1:230710048-230710048`.
    pub location: String,
    pub assembly: Option<String>,
    pub strand: Option<i64>,
    /// Reference/alternatives, e.g. `A/G`.
    pub allele_string: Option<String>,
    pub ancestral_allele: Option<String>,
}

/// A trait associated with the variant.
#[serde_with::skip_serializing_none]
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub(crate) struct Phenotype {
    #[serde(rename = "trait")]
    pub trait_name: String,
    /// `ClinVar`, `NHGRI-EBI GWAS catalog`…
    pub source: Option<String>,
    /// e.g. `PMID:123`.
    pub study: Option<String>,
    pub genes: Option<String>,
    pub risk_allele: Option<String>,
    pub p_value: Option<f64>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ontology_accessions: Vec<String>,
}

/// A known variant.
#[serde_with::skip_serializing_none]
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub(crate) struct Variant {
    /// Its current name, e.g. `rs699`.
    pub id: String,
    pub species: String,
    /// `SNP`, `indel`…
    pub variant_class: Option<String>,
    pub source: Option<String>,
    /// Where it is (several for a variant mapped more than once).
    pub locations: Vec<Place>,
    pub minor_allele: Option<String>,
    /// Global minor allele frequency, 0–0.5.
    pub minor_allele_freq: Option<f64>,
    pub ambiguity_code: Option<String>,
    pub most_severe_consequence: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub clinical_significance: Vec<String>,
    /// Evidence such as `Frequency`, `1000Genomes`, `gnomAD`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub evidence: Vec<String>,
    /// Other names (the first 20).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub synonyms: Vec<String>,
    pub synonym_count: usize,
    /// With `phenotypes`: associated traits (the first 50).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub phenotypes: Vec<Phenotype>,
    /// With `phenotypes`: how many traits.
    pub phenotype_count: Option<usize>,
}

fn phenotype(p: &VariationPhenotype) -> Option<Phenotype> {
    Some(Phenotype {
        trait_name: p.trait_name.clone()?,
        source: p.source.clone(),
        study: p.study.clone(),
        genes: p.genes.clone().filter(|g| !g.is_empty()),
        risk_allele: p.risk_allele.clone(),
        p_value: p.pvalue,
        ontology_accessions: p.ontology_accessions.clone(),
    })
}

fn variant(asked: &str, species: String, r: VariationRecord, phenotypes: bool) -> Variant {
    let traits: Vec<Phenotype> = r.phenotypes.iter().filter_map(phenotype).collect();
    Variant {
        id: r.name.unwrap_or_else(|| asked.to_owned()),
        species,
        variant_class: r.var_class,
        source: r.source,
        locations: r
            .mappings
            .into_iter()
            .filter_map(|m| {
                Some(Place {
                    location: m.location?,
                    assembly: m.assembly_name,
                    strand: m.strand,
                    allele_string: m.allele_string,
                    ancestral_allele: m.ancestral_allele,
                })
            })
            .collect(),
        minor_allele: r.minor_allele,
        minor_allele_freq: r.maf,
        ambiguity_code: r.ambiguity,
        most_severe_consequence: r.most_severe_consequence,
        clinical_significance: r.clinical_significance,
        evidence: r.evidence,
        synonym_count: r.synonyms.len(),
        synonyms: r.synonyms.into_iter().take(MAX_SYNONYMS).collect(),
        phenotype_count: phenotypes.then_some(traits.len()),
        phenotypes: traits.into_iter().take(MAX_PHENOTYPES).collect(),
    }
}

impl EnsemblServer {
    /// A known variant by rsID: its locations and alleles, minor allele and frequency,
    /// clinical significance, most severe consequence and synonyms; associated traits
    /// with `phenotypes`. For its effect on each transcript, pass it to
    /// ensembl_predict_variant_effect. Example: `{"id": "rs699", "phenotypes": true}`.
    #[tool(
        title = "Get a known Ensembl variant",
        annotations(read_only_hint = true, idempotent_hint = true, open_world_hint = true)
    )]
    pub(crate) async fn ensembl_get_variant(
        &self,
        Parameters(args): Parameters<GetVariantArgs>,
    ) -> Result<Json<Variant>, ApiError> {
        let args = args?;
        let id = args.id.trim();
        let valid = !id.is_empty()
            && id.len() <= 64
            && id
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-'));
        if !valid {
            return Err(ApiError::invalid_input(
                format!("'{}' is not a variant name.", args.id),
                "Pass an rsID such as 'rs699' (or a COSMIC or structural variant ID); for a \
                 variant written as HGVS or chr:pos:ref:alt, use ensembl_predict_variant_effect.",
                args.id.as_str(),
            ));
        }
        let species = species::production_name(args.species.as_deref().unwrap_or("homo_sapiens"));
        let record = match self
            .ensembl
            .variation(&species, id, args.phenotypes)
            .await?
        {
            Reply::Found(record) => record,
            Reply::Refused(UnknownSpecies) => return Err(unknown_species(&species)),
            Reply::Missing => {
                return Err(ApiError::not_found(
                    format!("Ensembl has no variant named '{id}' in {species}."),
                    "Check the name and the species; a variant known only by its place can be \
                     described with ensembl_predict_variant_effect (e.g. '17:7676154:G:A').",
                    id,
                ));
            }
        };
        Ok(Json(variant(id, species, record, args.phenotypes)))
    }
}
