//! `chembl_get_drug_profile`: what a drug acts on and how, what it is approved or tried
//! for, and whether it carries boxed warnings or was withdrawn. Five requests: the
//! molecule (for its parent); then at once the mechanisms, indications and warnings of
//! the drug in every form, each asked by the parent (`parent_molecule_chembl_id`, which
//! covers the parent and all its salts and hydrates); then the names and UniProt
//! accessions of the mechanisms' targets. ChEMBL files each record under one form, most
//! under the parent but not all (lisinopril's mechanism is under its dihydrate
//! CHEMBL419213, its indications under the parent CHEMBL1237), so asking by the parent
//! finds them whichever form was asked; each item says which form it is filed under
//! (`curated_for`). Each list says whether it is complete, cut, or failed (a
//! `crate::section`, as the drugs of `chembl_get_target` are).

use std::collections::HashMap;

use lifesciences_core::rmcp::schemars::{self, JsonSchema};
use lifesciences_core::rmcp::{Json, tool};
use lifesciences_core::{ApiError, Parameters};
use serde::{Deserialize, Serialize};

use crate::client::Listed;
use crate::ids::ChemblId;
use crate::models::{DrugWarning, Indication, Mechanism, Reference, Target};
use crate::section::{Section, section};
use crate::server::ChemblServer;
use crate::tools::not_found;

/// Most references named per item.
const MAX_REFS: usize = 3;

/// Arguments of `chembl_get_drug_profile`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct DrugProfileArgs {
    /// The compound's CURIE, e.g. `CHEMBL:941` (imatinib); a salt or its parent.
    pub chembl_id: String,
}

/// How a drug acts on a target.
#[serde_with::skip_serializing_none]
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub(crate) struct MechanismItem {
    /// E.g. `INHIBITOR`.
    pub action_type: Option<String>,
    /// E.g. `Tyrosine-protein kinase ABL inhibitor`.
    pub mechanism: Option<String>,
    /// The target's CURIE (pass it to chembl_get_target).
    pub target: Option<String>,
    pub target_name: Option<String>,
    pub target_type: Option<String>,
    /// UniProt accessions of the target's proteins, for uniprot_get_protein.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub uniprot: Vec<String>,
    /// False when the drug acts indirectly.
    pub direct: Option<bool>,
    pub max_phase: Option<serde_json::Number>,
    /// The form ChEMBL files it under: the parent or one of its salts.
    pub curated_for: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub references: Vec<String>,
}

/// What a drug is approved or tried for.
#[serde_with::skip_serializing_none]
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub(crate) struct IndicationItem {
    /// `EFO:0001075`.
    pub efo_id: Option<String>,
    pub efo_term: Option<String>,
    pub mesh_id: Option<String>,
    pub mesh_heading: Option<String>,
    /// Highest phase for this indication (4 approved).
    pub max_phase: Option<serde_json::Number>,
    pub curated_for: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub references: Vec<String>,
}

/// A boxed warning or a withdrawal.
#[serde_with::skip_serializing_none]
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub(crate) struct WarningItem {
    /// `Black Box Warning` or `Withdrawn`.
    #[serde(rename = "type")]
    pub kind: Option<String>,
    /// E.g. `hepatotoxicity`.
    pub class: Option<String>,
    pub description: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub countries: Vec<String>,
    pub year: Option<u32>,
    pub efo_id: Option<String>,
    pub efo_term: Option<String>,
    pub curated_for: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub references: Vec<String>,
}

/// A drug's mechanisms, indications and warnings.
#[serde_with::skip_serializing_none]
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub(crate) struct DrugProfile {
    /// The compound asked about.
    pub id: String,
    pub name: Option<String>,
    /// Its parent, when it is a salt or another form.
    pub parent: Option<String>,
    pub max_phase: Option<serde_json::Number>,
    pub mechanisms: Section<MechanismItem>,
    pub indications: Section<IndicationItem>,
    pub warnings: Section<WarningItem>,
    /// What the result leaves out, and why.
    pub note: Option<String>,
}

fn refs(list: &[Reference]) -> Vec<String> {
    list.iter()
        .filter_map(|r| match (&r.ref_type, &r.ref_id, &r.ref_url) {
            (Some(t), Some(id), _) => Some(format!("{t}:{id}")),
            (_, _, Some(url)) => Some(url.clone()),
            (None, Some(id), None) => Some(id.clone()),
            _ => None,
        })
        .take(MAX_REFS)
        .collect()
}

fn curie(id: Option<&String>) -> Option<String> {
    id.map(|i| ChemblId::curie_of_upstream(i))
}

fn mechanism(m: &Mechanism, targets: &HashMap<String, Target>) -> MechanismItem {
    let target = m
        .target_chembl_id
        .as_ref()
        .and_then(|t| targets.get(&t.to_ascii_uppercase()));
    MechanismItem {
        action_type: m.action_type.clone(),
        mechanism: m.mechanism_of_action.clone(),
        target: curie(m.target_chembl_id.as_ref()),
        target_name: target.and_then(|t| t.pref_name.clone()),
        target_type: target.and_then(|t| t.target_type.clone()),
        uniprot: target
            .map(|t| {
                t.target_components
                    .iter()
                    .filter_map(|c| c.accession.clone())
                    .collect()
            })
            .unwrap_or_default(),
        direct: m.direct_interaction.map(|d| d != 0.0),
        max_phase: m.max_phase.and_then(crate::compound::phase),
        curated_for: curie(m.molecule_chembl_id.as_ref()),
        references: refs(&m.mechanism_refs),
    }
}

fn indication(i: &Indication) -> IndicationItem {
    IndicationItem {
        efo_id: i.efo_id.clone(),
        efo_term: i.efo_term.clone(),
        mesh_id: i.mesh_id.clone(),
        mesh_heading: i.mesh_heading.clone(),
        max_phase: i.max_phase_for_ind.and_then(crate::compound::phase),
        curated_for: curie(i.molecule_chembl_id.as_ref()),
        references: refs(&i.indication_refs),
    }
}

fn warning(w: &DrugWarning) -> WarningItem {
    WarningItem {
        kind: w.warning_type.clone(),
        class: w.warning_class.clone(),
        description: w.warning_description.clone(),
        countries: w
            .warning_country
            .as_deref()
            .map(|c| {
                c.split(';')
                    .map(str::trim)
                    .filter(|s| !s.is_empty())
                    .map(str::to_owned)
                    .collect()
            })
            .unwrap_or_default(),
        year: w.warning_year,
        efo_id: w.efo_id.clone(),
        efo_term: w.efo_term.clone(),
        curated_for: curie(w.molecule_chembl_id.as_ref()),
        references: refs(&w.warning_refs),
    }
}

impl ChemblServer {
    /// A drug's profile: its mechanisms of action (action type, target with name and
    /// UniProt accessions for uniprot_get_protein, references), indications (EFO and MeSH,
    /// max phase) and warnings (boxed warnings, withdrawals: class, country, year), of the
    /// drug in every form (its parent and all salts), each list saying whether it is
    /// complete. Example: `{"chembl_id": "CHEMBL:941"}`.
    #[tool(
        title = "Get a ChEMBL drug profile",
        annotations(read_only_hint = true, idempotent_hint = true, open_world_hint = true)
    )]
    pub(crate) async fn chembl_get_drug_profile(
        &self,
        Parameters(args): Parameters<DrugProfileArgs>,
    ) -> Result<Json<DrugProfile>, ApiError> {
        let args = args?;
        let id: ChemblId = args.chembl_id.parse()?;
        let Some(molecule) = self.chembl.molecule(&id).await? else {
            return Err(not_found(self, &id, &args.chembl_id).await);
        };
        let own = molecule.molecule_chembl_id.to_ascii_uppercase();
        let parent = molecule.parent_chembl_id().to_ascii_uppercase();
        let drug = std::slice::from_ref(&parent);
        let mechanisms = async {
            self.chembl.mechanisms_of(drug).await.map(|records| Listed {
                records,
                total: None,
            })
        };
        let (mechanisms, indications, warnings) = futures::join!(
            mechanisms,
            self.chembl.indications(&parent),
            self.chembl.warnings(&parent)
        );
        let mut note = None;
        let mut target_ids: Vec<String> = Vec::new();
        if let Ok(listed) = &mechanisms {
            for m in &listed.records {
                if let Some(t) = &m.target_chembl_id {
                    let t = t.to_ascii_uppercase();
                    if !target_ids.contains(&t) {
                        target_ids.push(t);
                    }
                }
            }
        }
        let targets: HashMap<String, Target> = if target_ids.is_empty() {
            HashMap::new()
        } else {
            match self.chembl.target_summaries(&target_ids).await {
                Ok(found) => found
                    .into_iter()
                    .filter_map(|t| Some((t.target_chembl_id.clone()?.to_ascii_uppercase(), t)))
                    .collect(),
                Err(e) => {
                    note = Some(format!(
                        "The targets' names and UniProt accessions could not be read ({}).",
                        e.to_envelope().error.message.trim_end_matches('.')
                    ));
                    HashMap::new()
                }
            }
        };
        Ok(Json(DrugProfile {
            id: id.curie(),
            name: molecule.pref_name.clone(),
            parent: (parent != own).then(|| ChemblId::curie_of_upstream(&parent)),
            max_phase: molecule.max_phase.and_then(crate::compound::phase),
            mechanisms: section(mechanisms, |m| mechanism(m, &targets)),
            indications: section(indications, indication),
            warnings: section(warnings, warning),
            note,
        }))
    }
}
