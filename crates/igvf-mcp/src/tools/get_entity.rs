//! `igvf_get_entity`: one entity by any identifier, its type detected from the form.

use lifesciences_core::schemars::{self, JsonSchema};
use lifesciences_core::{ApiError, Parameters};
use rmcp::{Json, tool};
use serde::{Deserialize, Serialize};

use std::collections::BTreeMap;

use crate::client::{Endpoint, Request};
use crate::entities::Entity;
use crate::ids::{Hint, Identifier, detect};
use crate::lookup::{Found, Record, lookup};
use crate::models::{GenomicElement, NearbyGene, Variant, VariantSummary};
use crate::region::interval;
use crate::server::IgvfServer;

/// Most containing elements listed.
const MAX_ELEMENTS: u32 = 20;

/// Arguments of `igvf_get_entity`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct GetEntityArgs {
    /// The identifier, in any form; its type is detected. Genes: `ENSG00000012048`,
    /// `HGNC:1100`, `ENTREZ:672` or a symbol (`BRCA1`, case-insensitive). Variants:
    /// `rs80357906`, SPDI `NC_000017.11:43057062:GGG:GGGG`, genomic HGVS
    /// `NC_000017.11:g.43057065dup`, ClinGen `CA10655131`. Transcripts `ENST…`, proteins
    /// `ENSP…`, UniProt `P38398` or `CTCF_HUMAN`. Ontology terms `MONDO_0007254` or
    /// `MONDO:0007254` (also EFO, Orphanet, DOID, HP, GO, UBERON, CL…). Drugs `PA448497`
    /// (PharmGKB), complexes `CPX-11`, pathways `R-HSA-164843`.
    pub id: String,
    /// Optional: what kind of entity `id` names, when the form is ambiguous (`CA1` is a
    /// gene unless hint is `variant`) or `id` is a name (`drug` for `aspirin`); `disease`
    /// is any ontology term, by ID or exact name.
    #[serde(default)]
    pub hint: Option<Hint>,
}

/// An entity as `igvf_get_entity` returns it.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub(crate) struct EntityResult {
    /// The entity, with `_type` (`gene`, `transcript`, `protein`, `variant`,
    /// `ontology_term`, `drug`, `complex`, `pathway`) and an `id` this tool accepts.
    #[serde(flatten)]
    pub entity: Entity,
    /// How the input was read, e.g. `gene symbol`, `rsID`, `ontology term ID`.
    pub detected_as: String,
    /// Set when a name matched a synonym of the entity rather than its primary name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub matched_synonym: Option<String>,
    /// Other records that match the input as exactly, by ID (e.g. the other alleles of
    /// a multi-allelic rsID, or other isoforms with the same UniProt accession).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub other_matches: Vec<String>,
    /// For a variant: its summary (CADD, gnomAD by population, nearest genes) and the
    /// regulatory elements that contain it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub variant_context: Option<VariantContext>,
}

/// What the first questions about a variant need, in the same call.
#[derive(Debug, Clone, Default, Serialize, JsonSchema)]
pub(crate) struct VariantContext {
    /// CADD PHRED-scaled score (above 20: among the 1 % most deleterious).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cadd_phred: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cadd_raw: Option<f64>,
    /// gnomAD allele frequency, all samples.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gnomad_af: Option<f64>,
    /// gnomAD allele frequency by population (e.g. `african`, `east_asian`).
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub gnomad_af_by_population: BTreeMap<String, f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nearest_gene: Option<NearGene>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nearest_coding_gene: Option<NearGene>,
    /// Regulatory elements whose span holds the variant (the first 20).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub containing_elements: Vec<ContainingElement>,
    /// True when more elements contain it than are listed.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub more_elements: bool,
    /// A part that could not be read, and why.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// A gene near a variant.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub(crate) struct NearGene {
    /// Ensembl gene ID (pass it to igvf_get_entity).
    pub id: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Bases between the variant and the gene (0 inside it).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub distance: Option<f64>,
}

/// A regulatory element containing a variant.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub(crate) struct ContainingElement {
    /// The element's ID, e.g. a cCRE accession.
    pub id: String,
    /// E.g. `candidate cis regulatory element`.
    #[serde(rename = "type", skip_serializing_if = "Option::is_none")]
    pub kind: Option<String>,
    /// E.g. `dELS: distal Enhancer-like signal`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub annotation: Option<String>,
    /// `chr:start-end`, 1-based and inclusive (as Ensembl and UCSC).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub location: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
}

fn near(g: Option<&NearbyGene>) -> Option<NearGene> {
    let g = g?;
    Some(NearGene {
        id: g.id.clone()?,
        name: g.gene_name.clone(),
        distance: g.distance,
    })
}

/// The summary's parts.
fn summarised(summary: &VariantSummary, context: &mut VariantContext) {
    context.cadd_phred = summary.cadd_scores.as_ref().and_then(|c| c.phread);
    context.cadd_raw = summary.cadd_scores.as_ref().and_then(|c| c.raw);
    if let Some(freqs) = &summary.allele_frequencies_gnomad {
        context.gnomad_af = freqs.get("total").and_then(serde_json::Value::as_f64);
        for (population, value) in freqs {
            if let Some(total) = value.get("total").and_then(serde_json::Value::as_f64) {
                context
                    .gnomad_af_by_population
                    .insert(population.clone(), total);
            }
        }
    }
    let genes = summary.nearest_genes.as_ref();
    context.nearest_gene = near(genes.and_then(|g| g.nearest_gene.as_ref()));
    context.nearest_coding_gene = near(genes.and_then(|g| g.nearest_coding_gene.as_ref()));
}

impl IgvfServer {
    /// A variant's summary and the elements containing it, asked at once; either failing
    /// leaves a note, not a failed call.
    async fn variant_context(&self, v: &Variant) -> Option<VariantContext> {
        let spdi = v.spdi.clone().unwrap_or_else(|| v.id.clone());
        let summary_request = Request::new(Endpoint::VariantsSummary).param("variant_id", spdi);
        // The variant's own base, from its catalog record to the catalog: both 0-based,
        // so no conversion (`pos` to `pos + 1`, half-open, is that one base).
        let region = match (&v.chr, v.pos) {
            (Some(chr), Some(pos)) => Some(format!(
                "{}:{pos}-{}",
                if chr.starts_with("chr") {
                    chr.clone()
                } else {
                    format!("chr{chr}")
                },
                pos + 1
            )),
            _ => None,
        };
        let (summary, elements) = futures::join!(
            self.catalog.object::<VariantSummary>(&summary_request),
            async {
                match &region {
                    Some(r) => Some(
                        self.catalog
                            .fetch::<GenomicElement>(
                                &Request::new(Endpoint::GenomicElements).param("region", r.clone()),
                                MAX_ELEMENTS,
                            )
                            .await,
                    ),
                    None => None,
                }
            }
        );
        let mut context = VariantContext::default();
        let mut notes = Vec::new();
        match summary {
            Ok(Some(s)) => summarised(&s, &mut context),
            Ok(None) => notes.push("The catalog has no summary for this variant.".to_owned()),
            Err(e) => notes.push(format!(
                "The summary could not be read ({}).",
                e.to_envelope().error.message.trim_end_matches('.')
            )),
        }
        match elements {
            Some(Ok(found)) => {
                context.more_elements = found.more;
                context.containing_elements = found
                    .items
                    .into_iter()
                    .filter_map(|e| {
                        Some(ContainingElement {
                            location: match (&e.chr, e.start, e.end) {
                                (Some(c), Some(s), Some(x)) => Some(interval(c, s, x)),
                                _ => None,
                            },
                            id: e.name?,
                            kind: e.element_type,
                            annotation: e.source_annotation,
                            source: e.source,
                        })
                    })
                    .collect();
            }
            Some(Err(e)) => notes.push(format!(
                "The containing elements could not be read ({}).",
                e.to_envelope().error.message.trim_end_matches('.')
            )),
            None => {}
        }
        context.note = (!notes.is_empty()).then(|| notes.join(" "));
        Some(context)
    }
}

impl EntityResult {
    /// The result for `found`, looked up by `id`.
    pub(crate) fn new(id: &Identifier, found: Found) -> Self {
        Self {
            detected_as: id.form().to_owned(),
            matched_synonym: found.matched_via.map(|_| id.value()),
            other_matches: found.others.iter().map(Record::id).collect(),
            entity: Entity::from(found.best),
            variant_context: None,
        }
    }
}

impl IgvfServer {
    /// Look up one entity by any identifier: gene, variant, transcript, protein, disease or
    /// other ontology term, drug, complex, pathway (type detected from the form; hint
    /// overrides). Returns `_type`, `id` and cross-references (UniProt:
    /// uniprot_get_protein); a variant also gets CADD, gnomAD by population, nearest genes
    /// and the regulatory elements containing it. Symbols match exactly. Example:
    /// `{"id": "BRCA1"}`.
    #[tool(
        title = "Get an entity by any identifier",
        annotations(read_only_hint = true, idempotent_hint = true, open_world_hint = true)
    )]
    pub(crate) async fn igvf_get_entity(
        &self,
        Parameters(args): Parameters<GetEntityArgs>,
    ) -> Result<Json<EntityResult>, ApiError> {
        let args = args?;
        let id = detect(&args.id, args.hint)?;
        let found = lookup(&self.catalog, &id, &args.id).await?;
        let context = match &found.best {
            Record::Variant(v) => self.variant_context(v).await,
            _ => None,
        };
        let mut result = EntityResult::new(&id, found);
        result.variant_context = context;
        Ok(Json(result))
    }
}
