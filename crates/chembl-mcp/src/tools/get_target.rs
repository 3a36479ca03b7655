//! `chembl_get_target`: one target with its components, names and cross-references, and
//! the drugs acting on it (mechanisms by target: action type, maximum phase). Three
//! requests: the target; its mechanisms; the drugs' names in one batch.
//!
//! Cross-references come in the registry's keyed form, from the target's own
//! `cross_references` (`xref_src`, `xref_id`) and each component's
//! `target_component_xrefs` (`xref_src_db`, `xref_id`), the field names of ChEMBL's
//! web-service code (`resources/target.py`). A component's links (its Ensembl gene, its
//! PDB structures) stay with the component: a complex has one gene per component.
//!
//! The record opens with the target in brief (`crate::target`, as `chembl_search_targets`
//! lists it), and its drugs are a list that says whether it is whole (`crate::section`).

use std::collections::BTreeMap;

use lifesciences_core::rmcp::schemars::{self, JsonSchema};
use lifesciences_core::rmcp::{Json, tool};
use lifesciences_core::{ApiError, CrossReferences, Parameters, XrefKey};
use serde::{Deserialize, Serialize};

use crate::client::Listed;
use crate::compound::capped;
use crate::ids::ChemblId;
use crate::models::{Mechanism, Target, TargetComponent};
use crate::section::{Section, section};
use crate::server::ChemblServer;
use crate::target::{TargetSummary, summary};

/// Most names listed per component.
const MAX_SYNONYMS: usize = 10;

/// ChEMBL's names of the databases a target or component links to, and the registry key
/// each fills. The names are those ChEMBL's own web interface sorts target links by
/// (`targetReportCardApp.coffee` and `models/Target.coffee` in
/// https://github.com/chembl/GLaDOS); ChEMBL's index mappings give `EnsemblGene` IDs as
/// `ENSG00000138795` and `UniProt` IDs as accessions (`mappings_skeletons` in
/// https://github.com/chembl/chembl_ws_2_es). Every other source (GO terms, Reactome,
/// InterPro, Pfam, IntAct, canSAR, Wikipedia, ComplexPortal…) has no registry key and is
/// dropped.
const XREF_KEYS: [(&str, XrefKey); 4] = [
    ("UniProt", XrefKey::Uniprot),
    ("EnsemblGene", XrefKey::EnsemblGene),
    ("PDBe", XrefKey::Pdb),
    ("GuideToPHARMACOLOGY", XrefKey::Iuphar),
];

/// The registry key a ChEMBL link source fills, if any.
fn xref_key(source: &str) -> Option<XrefKey> {
    let source = source.trim();
    XREF_KEYS
        .iter()
        .find(|(name, _)| name.eq_ignore_ascii_case(source))
        .map(|(_, key)| *key)
}

/// Arguments of `chembl_get_target`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct GetTargetArgs {
    /// The target's CURIE, e.g. `CHEMBL:203` (from chembl_search_targets).
    pub target_id: String,
}

/// A component of the target.
#[serde_with::skip_serializing_none]
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub(crate) struct Component {
    /// UniProt accession, for uniprot_get_protein; absent for RNA and other non-proteins.
    pub accession: Option<String>,
    pub description: Option<String>,
    /// `PROTEIN`, `RNA`…
    #[serde(rename = "type")]
    pub kind: Option<String>,
    /// Its names (gene symbols, UniProt and EC names; the first 10).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub synonyms: Vec<String>,
    /// The component elsewhere: `ensembl_gene` (its gene), `pdb` (structures), `iuphar`
    /// (Guide to Pharmacology); its UniProt accession is `accession`. Lists hold at most
    /// 25 values (see `cross_reference_counts`).
    pub cross_references: Option<CrossReferences>,
    /// The full number of values of each `cross_references` list cut to its first 25,
    /// e.g. `{"pdb": 240}`; omitted when no list was cut.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub cross_reference_counts: BTreeMap<String, u32>,
}

/// A drug acting on the target.
#[serde_with::skip_serializing_none]
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub(crate) struct ActingDrug {
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
pub(crate) struct TargetRecord {
    #[serde(flatten)]
    pub summary: TargetSummary,
    pub tax_id: Option<u32>,
    pub components: Vec<Component>,
    /// The target elsewhere: `chembl` (its ID), and the links ChEMBL keeps for the target
    /// as a whole that have a registry key (a handful at most: not cut); each
    /// component's own are with the component.
    pub cross_references: CrossReferences,
    /// Drugs with a curated mechanism on this target.
    pub drugs: Section<ActingDrug>,
}

/// A component with its names and keyed links.
fn component(c: &TargetComponent) -> Component {
    let mut xrefs = CrossReferences::new();
    for x in &c.target_component_xrefs {
        if let (Some(key), Some(id)) = (x.xref_src_db.as_deref().and_then(xref_key), &x.xref_id)
            && key != XrefKey::Uniprot
        {
            xrefs.add(key, id);
        }
    }
    let (xrefs, counts) = capped(&xrefs);
    Component {
        accession: c.accession.clone(),
        description: c.component_description.clone(),
        kind: c.component_type.clone(),
        synonyms: c
            .target_component_synonyms
            .iter()
            .filter_map(|s| s.component_synonym.clone())
            .take(MAX_SYNONYMS)
            .collect(),
        cross_references: (!xrefs.is_empty()).then_some(xrefs),
        cross_reference_counts: counts,
    }
}

/// The target's own keyed links: its ChEMBL ID and the target-level `cross_references`
/// that have a registry key.
fn target_xrefs(t: &Target, id: &str) -> CrossReferences {
    let mut xrefs = CrossReferences::new();
    xrefs.add(XrefKey::Chembl, id);
    for x in &t.cross_references {
        if let (Some(key), Some(value)) = (x.xref_src.as_deref().and_then(xref_key), &x.xref_id) {
            xrefs.add(key, value);
        }
    }
    xrefs
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

impl ChemblServer {
    /// One ChEMBL target: name, type, organism, components (UniProt accession for
    /// uniprot_get_protein, names, and each one's Ensembl gene and PDB structures in
    /// `cross_references`), and the drugs acting on it with action type and max phase,
    /// approved first. Example: `{"target_id": "CHEMBL:203"}` (EGFR).
    #[tool(
        title = "Get a ChEMBL target",
        annotations(read_only_hint = true, idempotent_hint = true, open_world_hint = true)
    )]
    pub(crate) async fn chembl_get_target(
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
        let cross_references = target_xrefs(&target, &upstream);
        Ok(Json(TargetRecord {
            summary,
            tax_id: target.tax_id,
            components: target.target_components.iter().map(component).collect(),
            cross_references,
            drugs: drugs(mechanisms, &names),
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn component_of(xrefs: serde_json::Value) -> Component {
        let c: TargetComponent = serde_json::from_value(json!({
            "accession": "P00533", "component_type": "PROTEIN",
            "target_component_xrefs": xrefs
        }))
        .unwrap();
        component(&c)
    }

    #[test]
    fn chembl_sources_fill_their_registry_keys_and_the_others_are_dropped() {
        assert_eq!(xref_key("EnsemblGene"), Some(XrefKey::EnsemblGene));
        assert_eq!(xref_key("PDBe"), Some(XrefKey::Pdb));
        assert_eq!(xref_key(" pdbe "), Some(XrefKey::Pdb));
        assert_eq!(xref_key("GuideToPHARMACOLOGY"), Some(XrefKey::Iuphar));
        assert_eq!(xref_key("UniProt"), Some(XrefKey::Uniprot));
        for unmapped in [
            "GoComponent",
            "Reactome",
            "canSAR-Target",
            "Wikipedia",
            "IntAct",
        ] {
            assert_eq!(xref_key(unmapped), None, "{unmapped}");
        }
        let c = component_of(json!([
            {"xref_src_db": "EnsemblGene", "xref_id": "ENSG00000146648"},
            {"xref_src_db": "PDBe", "xref_id": "1m17"},
            {"xref_src_db": "UniProt", "xref_id": "P00533"},
            {"xref_src_db": "Reactome", "xref_id": "R-HSA-177929"},
            {"xref_src_db": "PDBe", "xref_id": "not a structure"},
            {"xref_src_db": "PDBe"}
        ]));
        // Registry order, normalised (`1M17`); UniProt is the component's accession; an
        // invalid or missing ID is dropped.
        assert_eq!(
            serde_json::to_string(&c.cross_references).unwrap(),
            r#"{"ensembl_gene":"ENSG00000146648","pdb":["1M17"]}"#
        );
        assert!(c.cross_reference_counts.is_empty());
    }

    #[test]
    fn a_component_without_links_has_no_cross_references() {
        let c = component_of(json!([{"xref_src_db": "GoProcess", "xref_id": "GO:0006508"}]));
        assert_eq!(c.cross_references, None);
        let json = serde_json::to_value(&c).unwrap();
        assert_eq!(json, json!({"accession": "P00533", "type": "PROTEIN"}));
    }

    #[test]
    fn long_structure_lists_show_their_first_25_and_count_the_rest() {
        let pdb: Vec<serde_json::Value> = (0..40)
            .map(|i| json!({"xref_src_db": "PDBe", "xref_id": format!("{}ABC", i % 10)}))
            .chain((0..30).map(|i| json!({"xref_src_db": "PDBe", "xref_id": format!("9X{i:02}")})))
            .collect();
        let c = component_of(json!(pdb));
        let pdb = c.cross_references.unwrap();
        // 10 distinct `nABC` and 30 `9Xnn`.
        assert_eq!(pdb.get(XrefKey::Pdb).len(), 25);
        assert_eq!(pdb.get(XrefKey::Pdb)[0], "0ABC");
        assert_eq!(
            c.cross_reference_counts,
            BTreeMap::from([("pdb".to_owned(), 40)])
        );
    }

    #[test]
    fn the_target_keeps_its_chembl_id_and_its_own_mapped_links() {
        let t: Target = serde_json::from_value(json!({
            "target_chembl_id": "CHEMBL203",
            "cross_references": [
                {"xref_src": "canSAR-Target", "xref_id": "P00533"},
                {"xref_src": "Wikipedia", "xref_id": "Epidermal_growth_factor_receptor"},
                {"xref_src": "GuideToPHARMACOLOGY", "xref_id": 1797}
            ]
        }))
        .unwrap();
        assert_eq!(
            serde_json::to_value(target_xrefs(&t, "CHEMBL203")).unwrap(),
            json!({"chembl": "CHEMBL203", "iuphar": "1797"})
        );
    }
}
