//! `chembl_get_target`: one target with its components, names and cross-references, and
//! the drugs acting on it (mechanisms by target: action type, maximum phase). Three
//! requests: the target; its mechanisms; the drugs' names in one batch.

use lifesciences_core::rmcp::schemars::{self, JsonSchema};
use lifesciences_core::rmcp::{Json, tool, tool_router};
use lifesciences_core::{ApiError, Parameters};
use serde::{Deserialize, Serialize};

use crate::client::Listed;
use crate::ids::ChemblId;
use crate::models::Mechanism;
use crate::server::ChemblServer;
use crate::tools::get_drug_profile::{Section, section};
use crate::tools::search_targets::{TargetSummary, summary};

/// Most names listed per component.
const MAX_SYNONYMS: usize = 10;
/// Most cross-references listed.
const MAX_XREFS: usize = 30;

/// Arguments of `chembl_get_target`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GetTargetArgs {
    /// The target's CURIE, e.g. `CHEMBL:203` (from chembl_search_targets).
    pub target_id: String,
}

/// A component of the target.
#[serde_with::skip_serializing_none]
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct Component {
    /// UniProt accession; absent for RNA and other non-proteins.
    pub accession: Option<String>,
    pub description: Option<String>,
    /// `PROTEIN`, `RNA`…
    #[serde(rename = "type")]
    pub kind: Option<String>,
    /// Its names (gene symbols, UniProt and EC names; the first 10).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub synonyms: Vec<String>,
}

/// A drug acting on the target.
#[serde_with::skip_serializing_none]
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct ActingDrug {
    /// The compound's CURIE (pass it to chembl_get_drug_profile).
    pub compound: Option<String>,
    pub name: Option<String>,
    /// E.g. `INHIBITOR`.
    pub action_type: Option<String>,
    pub mechanism: Option<String>,
    pub max_phase: Option<serde_json::Number>,
}

/// A target in full.
#[serde_with::skip_serializing_none]
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct TargetRecord {
    #[serde(flatten)]
    pub summary: TargetSummary,
    pub tax_id: Option<u32>,
    pub components: Vec<Component>,
    /// Links such as `UniProt:P00533`, `PDBe:1M17` (the first 30).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cross_references: Vec<String>,
    /// Drugs with a curated mechanism on this target.
    pub drugs: Section<ActingDrug>,
}

fn drugs(
    answer: Result<Listed<Mechanism>, ApiError>,
    names: &[(String, String)],
) -> Section<ActingDrug> {
    let mut section = section(answer, |m: &Mechanism| ActingDrug {
        compound: m
            .molecule_chembl_id
            .as_deref()
            .map(ChemblId::curie_of_upstream),
        name: m.molecule_chembl_id.as_deref().and_then(|id| {
            names
                .iter()
                .find(|(k, _)| k.eq_ignore_ascii_case(id))
                .map(|(_, n)| n.clone())
        }),
        action_type: m.action_type.clone(),
        mechanism: m.mechanism_of_action.clone(),
        max_phase: m.max_phase.and_then(crate::compound::phase),
    });
    let phase = |d: &ActingDrug| {
        d.max_phase
            .as_ref()
            .and_then(|p| p.as_f64())
            .unwrap_or(-1.0)
    };
    section.items.sort_by(|a, b| {
        phase(b)
            .total_cmp(&phase(a))
            .then_with(|| a.name.cmp(&b.name))
    });
    section
}

#[tool_router(router = get_target_router, vis = "pub(crate)")]
impl ChemblServer {
    /// One ChEMBL target: name, type, organism, components (UniProt accessions, names),
    /// cross-references, and the drugs acting on it with action type and max phase,
    /// approved first. Example: `{"target_id": "CHEMBL:203"}` (EGFR).
    #[tool(
        title = "Get a ChEMBL target",
        annotations(read_only_hint = true, idempotent_hint = true, open_world_hint = true)
    )]
    pub async fn chembl_get_target(
        &self,
        Parameters(args): Parameters<GetTargetArgs>,
    ) -> Result<Json<TargetRecord>, ApiError> {
        let args = args?;
        let id: ChemblId = args.target_id.parse()?;
        let upstream = id.upstream();
        let (target, mechanisms) = futures::join!(
            self.chembl.target(&upstream),
            self.chembl.mechanisms_on_target(&upstream)
        );
        let Some(target) = target? else {
            return Err(ApiError::not_found(
                format!("ChEMBL has no target with the identifier '{id}'."),
                "Find the target with chembl_search_targets (by gene symbol, UniProt accession \
                 or name) and use the id it returns.",
                args.target_id.as_str(),
            ));
        };
        let mut molecule_ids: Vec<String> = Vec::new();
        if let Ok(listed) = &mechanisms {
            for m in &listed.records {
                if let Some(mid) = &m.molecule_chembl_id
                    && !molecule_ids.contains(mid)
                {
                    molecule_ids.push(mid.clone());
                }
            }
        }
        // Names are decoration: a failure leaves the drugs unnamed, not the call failed.
        let names: Vec<(String, String)> = if molecule_ids.is_empty() {
            Vec::new()
        } else {
            match self.chembl.molecules(&molecule_ids, true).await {
                Ok(found) => found
                    .into_iter()
                    .filter_map(|m| Some((m.molecule_chembl_id.clone(), m.pref_name?)))
                    .collect(),
                Err(e) => {
                    tracing::debug!(error = %e, "the drugs' names could not be read");
                    Vec::new()
                }
            }
        };
        let Some(summary) = summary(&target) else {
            return Err(ApiError::not_found(
                format!("ChEMBL's record for '{id}' has no target identifier."),
                "Find the target with chembl_search_targets.",
                args.target_id.as_str(),
            ));
        };
        Ok(Json(TargetRecord {
            summary,
            tax_id: target.tax_id,
            components: target
                .target_components
                .iter()
                .map(|c| Component {
                    accession: c.accession.clone(),
                    description: c.component_description.clone(),
                    kind: c.component_type.clone(),
                    synonyms: c
                        .target_component_synonyms
                        .iter()
                        .filter_map(|s| s.component_synonym.clone())
                        .take(MAX_SYNONYMS)
                        .collect(),
                })
                .collect(),
            cross_references: target
                .cross_references
                .iter()
                .filter_map(|x| {
                    Some(format!(
                        "{}:{}",
                        x.xref_src.as_deref()?,
                        x.xref_id.as_deref()?
                    ))
                })
                .take(MAX_XREFS)
                .collect(),
            drugs: drugs(mechanisms, &names),
        }))
    }
}
