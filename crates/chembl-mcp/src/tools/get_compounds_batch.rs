//! `chembl_get_compounds_batch`: many compounds in one call, in request order, with an
//! error object for each ID that is malformed or unknown.
//!
//! All valid IDs are fetched in ONE upstream request (`molecule_chembl_id__in`), which
//! answers in primary-key order and leaves unknown IDs out; the tool restores the request
//! order. Full records (`slim: false`) add one mechanisms request (by the compounds'
//! parents, `parent_molecule_chembl_id__in`, covering every salt of each), one targets
//! request and one UniChem request per compound (UniChem has no batch form).

use std::collections::HashMap;

use lifesciences_core::rmcp::model::RequestMetaObject;
use lifesciences_core::rmcp::schemars::{self, JsonSchema};
use lifesciences_core::rmcp::{Json, Peer, RoleServer, tool};
use lifesciences_core::{ApiError, ErrorCode, Parameters, lenient};
use serde::{Deserialize, Serialize};

use crate::compound::{Compound, fetch_extras};
use crate::ids::ChemblId;
use crate::models::Molecule;
use crate::progress::Progress;
use crate::server::ChemblServer;

/// Most IDs in one call.
pub(crate) const MAX_BATCH: usize = 100;
/// Batches at least this large report progress (when the client sent a progress token).
pub(crate) const PROGRESS_MIN_ITEMS: u64 = 10;

/// Arguments of `chembl_get_compounds_batch`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct GetCompoundsBatchArgs {
    /// 1–100 compound CURIEs, e.g. `["CHEMBL:25", "CHEMBL:941"]`. Each must be
    /// `CHEMBL:<number>`; malformed or unknown ones get an error object in their place.
    #[schemars(length(min = 1, max = 100))]
    pub chembl_ids: Vec<String>,
    /// Default `true`: only `id`, `name` and `molecular_formula` per compound, in a single
    /// upstream request. `false`: full records with cross-references (slower: UniChem is
    /// asked once per compound).
    #[serde(default, deserialize_with = "lenient::opt_bool")]
    #[schemars(extend("default" = true))]
    pub slim: Option<bool>,
}

/// The answer for one requested ID.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[serde(untagged)]
pub(crate) enum BatchItem {
    /// The compound: slim or full, as `slim` asked.
    // Boxed: a full record is much larger than an error.
    Found(Box<Compound>),
    /// Why there is no compound for this ID.
    Failed(FailedLookup),
}

/// An ID that could not be looked up.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub(crate) struct FailedLookup {
    /// The ID as requested (normalised to the CURIE when it was well formed).
    pub id: String,
    /// What went wrong and what to do.
    pub error: ItemError,
}

/// Why one ID of a batch failed: the error envelope's body, per item.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub(crate) struct ItemError {
    /// `UNRESOLVED_ENTITY` for a malformed ID, `ENTITY_NOT_FOUND` for one ChEMBL does not
    /// have.
    pub code: ErrorCode,
    /// What failed, in plain words.
    pub message: String,
    /// The next step that is likely to work, e.g. "Use format 'CHEMBL:25'".
    pub recovery_hint: String,
    /// Exactly what was sent for this item.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub invalid_input: Option<String>,
}

/// The batch result.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub(crate) struct CompoundBatch {
    /// One entry per requested ID, in request order: the compound, or `{id, error}`.
    pub items: Vec<BatchItem>,
    /// Entries that are compounds.
    pub found: u32,
    /// Entries that are errors.
    pub failed: u32,
}

fn failed(id: String, error: &ApiError) -> BatchItem {
    let body = error.to_envelope().error;
    BatchItem::Failed(FailedLookup {
        id,
        error: ItemError {
            code: body.code,
            message: body.message,
            recovery_hint: body.recovery_hint,
            invalid_input: body.invalid_input,
        },
    })
}

fn missing(id: &ChemblId, raw: &str) -> ApiError {
    ApiError::not_found(
        format!("ChEMBL has no compound with the identifier '{id}'."),
        "Check the identifier, or find the compound by name with chembl_search_compounds.",
        raw,
    )
}

impl ChemblServer {
    /// Look up 1–100 ChEMBL compounds at once by CURIE, in one upstream request: one entry
    /// per requested ID in request order, an `{id, error}` object for malformed or unknown
    /// IDs, and `found`/`failed` counts. Slim records by default. Sends progress
    /// notifications for batches of 10 or more when the request carries a progress token.
    /// Example: `{"chembl_ids": ["CHEMBL:25", "CHEMBL:941", "CHEMBL:192"]}`.
    #[tool(
        title = "Get many ChEMBL compounds",
        annotations(read_only_hint = true, idempotent_hint = true, open_world_hint = true)
    )]
    pub(crate) async fn chembl_get_compounds_batch(
        &self,
        Parameters(args): Parameters<GetCompoundsBatchArgs>,
        meta: RequestMetaObject,
        peer: Peer<RoleServer>,
    ) -> Result<Json<CompoundBatch>, ApiError> {
        let args = args?;
        let requested = args.chembl_ids;
        if requested.is_empty() || requested.len() > MAX_BATCH {
            // Echo the list itself when empty, its size otherwise (string-mcp does the same).
            let sent = if requested.is_empty() {
                "[]".to_owned()
            } else {
                format!("{} identifiers", requested.len())
            };
            return Err(ApiError::invalid_input(
                format!(
                    "Argument 'chembl_ids' must hold 1 to {MAX_BATCH} identifiers; got {}.",
                    requested.len()
                ),
                format!(
                    "Pass between 1 and {MAX_BATCH} CURIEs such as 'CHEMBL:25'; split longer \
                     lists into several calls."
                ),
                sent,
            ));
        }
        let slim = args.slim.unwrap_or(true);
        let progress = Progress::new(
            peer,
            meta.get_progress_token(),
            requested.len() as u64,
            PROGRESS_MIN_ITEMS,
        );

        let parsed: Vec<Result<ChemblId, ApiError>> =
            requested.iter().map(|raw| raw.parse()).collect();
        let mut unique: Vec<String> = Vec::new();
        for id in parsed.iter().flatten() {
            let upstream = id.upstream();
            if !unique.contains(&upstream) {
                unique.push(upstream);
            }
        }
        progress
            .say(&format!(
                "Fetching {} compound(s) from ChEMBL in one request",
                unique.len()
            ))
            .await;
        let molecules: HashMap<String, Molecule> = if unique.is_empty() {
            HashMap::new()
        } else {
            self.chembl
                .molecules(&unique, slim)
                .await?
                .into_iter()
                .map(|m| (m.molecule_chembl_id.to_ascii_uppercase(), m))
                .collect()
        };
        let mut extras = HashMap::new();
        if !slim && !molecules.is_empty() {
            // Malformed and unknown IDs are settled; the compounds found still need work.
            let settled = parsed
                .iter()
                .filter(|p| !matches!(p, Ok(id) if molecules.contains_key(&id.upstream())))
                .count();
            progress.advance(settled as u64).await;
            // Enrich in request order so progress follows the list the client sent.
            let order: Vec<&Molecule> = unique.iter().filter_map(|id| molecules.get(id)).collect();
            extras = fetch_extras(&self.chembl, &self.unichem, &order, &progress).await?;
        }

        let items: Vec<BatchItem> = requested
            .iter()
            .zip(&parsed)
            .map(|(raw, parsed)| match parsed {
                Err(e) => failed(raw.clone(), e),
                Ok(id) => match molecules.get(&id.upstream()) {
                    None => failed(id.curie(), &missing(id, raw)),
                    Some(m) if slim => BatchItem::Found(Box::new(Compound::slim(m))),
                    Some(m) => BatchItem::Found(Box::new(Compound::full(
                        m,
                        &extras.get(&id.upstream()).cloned().unwrap_or_default(),
                    ))),
                },
            })
            .collect();
        let found = items
            .iter()
            .filter(|i| matches!(i, BatchItem::Found(_)))
            .count() as u32;
        let failed = items.len() as u32 - found;
        progress
            .finish(&format!("{found} found, {failed} failed"))
            .await;
        Ok(Json(CompoundBatch {
            items,
            found,
            failed,
        }))
    }
}
