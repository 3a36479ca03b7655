//! `igvf_get_entity`: one entity by any identifier, its type detected from the form.

use lifesciences_core::schemars::{self, JsonSchema};
use lifesciences_core::{ApiError, Parameters};
use rmcp::{Json, tool, tool_router};
use serde::{Deserialize, Serialize};

use crate::entities::Entity;
use crate::ids::{Hint, Identifier, detect};
use crate::lookup::{Found, Record, lookup};
use crate::server::IgvfServer;

/// Arguments of `igvf_get_entity`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GetEntityArgs {
    /// The identifier, in any form; its type is detected. Genes: `ENSG00000012048`,
    /// `HGNC:1100`, `ENTREZ:672` or a symbol (`BRCA1`, case-insensitive). Variants:
    /// `rs80357906`, SPDI `NC_000017.11:43057062:GGG:GGGG`, genomic HGVS
    /// `NC_000017.11:g.43057065dup`, ClinGen `CA10655131`. Transcripts `ENST…`, proteins
    /// `ENSP…`, UniProt `P38398` or `CTCF_HUMAN`. Ontology terms `MONDO_0007254` or
    /// `MONDO:0007254` (also EFO, Orphanet, DOID, HP, GO, UBERON, CL…). Drugs `PA448497`
    /// (PharmGKB), complexes `CPX-11`, pathways `R-HSA-164843`.
    pub id: String,
    /// Optional: what kind of entity `id` names, when the form is ambiguous (`CA1` is a
    /// gene unless hint is `variant`) or `id` is a name: `gene`, `variant`, `protein`,
    /// `transcript`, `disease` (any ontology term, by ID or exact name), `drug` (e.g.
    /// `aspirin`), `complex`, `pathway`.
    #[serde(default)]
    pub hint: Option<Hint>,
}

/// An entity as `igvf_get_entity` returns it.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct EntityResult {
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
}

impl EntityResult {
    /// The result for `found`, looked up by `id`.
    pub fn new(id: &Identifier, found: Found) -> Self {
        Self {
            detected_as: id.form().to_owned(),
            matched_synonym: found.matched_via.map(|_| id.value()),
            other_matches: found.others.iter().map(Record::id).collect(),
            entity: Entity::from(found.best),
        }
    }
}

#[tool_router(router = get_entity_router, vis = "pub(crate)")]
impl IgvfServer {
    /// Look up one entity of the IGVF Catalog knowledge graph by any identifier: genes,
    /// variants, transcripts, proteins, diseases and other ontology terms, drugs,
    /// complexes, pathways. The type is detected from the form (hint overrides); the
    /// result is the normalised entity with `_type`, an `id`, and cross-references.
    /// Gene symbols match exactly (never a fuzzy neighbour). Example: `{"id": "BRCA1"}`.
    #[tool(
        title = "Get an entity by any identifier",
        annotations(read_only_hint = true, idempotent_hint = true, open_world_hint = true)
    )]
    pub async fn igvf_get_entity(
        &self,
        Parameters(args): Parameters<GetEntityArgs>,
    ) -> Result<Json<EntityResult>, ApiError> {
        let args = args?;
        let id = detect(&args.id, args.hint)?;
        let found = lookup(&self.catalog, &id, &args.id).await?;
        Ok(Json(EntityResult::new(&id, found)))
    }
}
