//! `chembl_get_bioactivities`: measured activities of a compound, on a target, or of a
//! compound on a target, ranked by pChEMBL (−log10 molar potency), filtered by activity
//! type, minimum pChEMBL, assay type and organism. One request per call: one page of
//! `/activity.json` with the filters in ChEMBL's names and `order_by=-pchembl_value`, so
//! a long list is walked with the cursor, never drained. Rows without a pChEMBL (e.g.
//! percent inhibition) are reached with `with_pchembl: false`, unranked; their pChEMBL is
//! absent, never 0.

use lifesciences_core::rmcp::schemars::{self, JsonSchema};
use lifesciences_core::rmcp::{Json, tool};
use lifesciences_core::{ApiError, Pagination, Parameters, cursor, in_range, lenient};
use serde::{Deserialize, Serialize};

use crate::ids::ChemblId;
use crate::models::Activity;
use crate::server::ChemblServer;

/// Arguments of `chembl_get_bioactivities`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct BioactivitiesArgs {
    /// Compound CURIE, e.g. `CHEMBL:941`.
    #[serde(default)]
    pub molecule: Option<String>,
    /// Target CURIE, e.g. `CHEMBL:1862` (from chembl_search_targets).
    #[serde(default)]
    pub target: Option<String>,
    /// Activity type, e.g. `IC50`, `Ki`, `Kd`, `EC50`.
    #[serde(default)]
    pub standard_type: Option<String>,
    /// Keep rows with pChEMBL at least this (6 = 1 µM).
    #[serde(default, deserialize_with = "lenient::opt_f64")]
    #[schemars(range(min = 0, max = 15))]
    pub min_pchembl: Option<f64>,
    /// binding, functional, adme, toxicity or physicochemical (or B, F, A, T, P).
    #[serde(default)]
    pub assay_type: Option<String>,
    /// Target organism, e.g. `Homo sapiens`.
    #[serde(default)]
    pub organism: Option<String>,
    /// false: the rows without a pChEMBL instead (unranked).
    #[serde(default, deserialize_with = "lenient::opt_bool")]
    #[schemars(extend("default" = true))]
    pub with_pchembl: Option<bool>,
    /// Rows per page, 1–100.
    #[serde(default, deserialize_with = "lenient::opt_u32")]
    #[schemars(range(min = 1, max = 100))]
    #[schemars(extend("default" = 25))]
    pub limit: Option<u32>,
    /// `pagination.cursor` of the previous page.
    #[serde(default)]
    pub cursor: Option<String>,
}

/// One measured activity.
#[serde_with::skip_serializing_none]
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub(crate) struct Bioactivity {
    /// ChEMBL's activity ID.
    pub id: Option<String>,
    /// The compound's CURIE.
    pub molecule: Option<String>,
    /// The target's CURIE.
    pub target: Option<String>,
    pub target_name: Option<String>,
    pub organism: Option<String>,
    /// e.g. `IC50`.
    pub standard_type: Option<String>,
    /// `=`, `<`, `>`…
    pub relation: Option<String>,
    pub value: Option<f64>,
    pub units: Option<String>,
    /// −log10 molar potency; absent when ChEMBL gives none.
    pub pchembl: Option<f64>,
    pub assay: Option<String>,
    pub assay_description: Option<String>,
    /// `B`, `F`, `A`, `T` or `P`.
    pub assay_type: Option<String>,
    pub document: Option<String>,
    pub year: Option<u32>,
    /// ChEMBL's comment on the value, e.g. `inactive`.
    pub comment: Option<String>,
    /// ChEMBL's doubt about the value, e.g. `Outside typical range`.
    pub validity_comment: Option<String>,
}

/// A page of activities.
#[serde_with::skip_serializing_none]
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub(crate) struct Bioactivities {
    /// This page, best pChEMBL first (unranked with `with_pchembl: false`).
    pub activities: Vec<Bioactivity>,
    /// What the result leaves out, and why.
    pub note: Option<String>,
    /// `total_count` counts every row matching the filters; `cursor` fetches the next page.
    pub pagination: Pagination,
}

/// ChEMBL's assay type letter for a word or a letter.
fn assay_letter(raw: &str) -> Option<&'static str> {
    match raw.trim().to_ascii_lowercase().as_str() {
        "b" | "binding" => Some("B"),
        "f" | "functional" => Some("F"),
        "a" | "adme" => Some("A"),
        "t" | "toxicity" | "tox" => Some("T"),
        "p" | "physicochemical" => Some("P"),
        _ => None,
    }
}

fn curie(id: Option<&String>) -> Option<String> {
    id.map(|i| ChemblId::curie_of_upstream(i))
}

fn row(a: &Activity) -> Bioactivity {
    Bioactivity {
        id: a.activity_id.clone(),
        molecule: curie(a.molecule_chembl_id.as_ref()),
        target: curie(a.target_chembl_id.as_ref()),
        target_name: a.target_pref_name.clone(),
        organism: a.target_organism.clone(),
        standard_type: a.standard_type.clone(),
        relation: a.standard_relation.clone(),
        value: a.standard_value,
        units: a.standard_units.clone(),
        pchembl: a.pchembl_value,
        assay: curie(a.assay_chembl_id.as_ref()),
        assay_description: a.assay_description.clone(),
        assay_type: a.assay_type.clone(),
        document: curie(a.document_chembl_id.as_ref()),
        year: a.document_year,
        comment: a.activity_comment.clone(),
        validity_comment: a.data_validity_comment.clone(),
    }
}

impl ChemblServer {
    /// Measured activities of a compound and/or on a target, most potent first (pChEMBL),
    /// filtered by type (IC50, Ki…), minimum pChEMBL, assay type and organism: value,
    /// units, relation, pChEMBL, assay, target, document and year; total count and a
    /// cursor. Example: `{"target": "CHEMBL:1862", "standard_type": "IC50",
    /// "min_pchembl": 8}`.
    #[tool(
        title = "Get ChEMBL bioactivities",
        annotations(read_only_hint = true, idempotent_hint = true, open_world_hint = true)
    )]
    pub(crate) async fn chembl_get_bioactivities(
        &self,
        Parameters(args): Parameters<BioactivitiesArgs>,
    ) -> Result<Json<Bioactivities>, ApiError> {
        let args = args?;
        let molecule = args
            .molecule
            .as_deref()
            .map(str::parse::<ChemblId>)
            .transpose()?;
        let target = args
            .target
            .as_deref()
            .map(str::parse::<ChemblId>)
            .transpose()?;
        if molecule.is_none() && target.is_none() {
            return Err(ApiError::invalid_input(
                "Pass 'molecule', 'target', or both.",
                "E.g. {\"target\": \"CHEMBL:1862\"} for the compounds hitting a target (find it \
                 with chembl_search_targets), or {\"molecule\": \"CHEMBL:941\"}.",
                "no molecule or target",
            ));
        }
        let limit = in_range("limit", args.limit, 1, 100, 25)?;
        let with_pchembl = args.with_pchembl.unwrap_or(true);
        let mut filters: Vec<(&str, String)> = Vec::new();
        if let Some(m) = &molecule {
            filters.push(("molecule_chembl_id", m.upstream()));
        }
        if let Some(t) = &target {
            filters.push(("target_chembl_id", t.upstream()));
        }
        if let Some(kind) = args
            .standard_type
            .as_deref()
            .map(str::trim)
            .filter(|s| !s.is_empty())
        {
            filters.push(("standard_type__iexact", kind.to_owned()));
        }
        if let Some(raw) = args.assay_type.as_deref().filter(|s| !s.trim().is_empty()) {
            let Some(letter) = assay_letter(raw) else {
                return Err(ApiError::invalid_input(
                    format!("'{raw}' is not an assay type."),
                    "Use binding, functional, adme, toxicity or physicochemical (or B, F, A, T, P).",
                    raw,
                ));
            };
            filters.push(("assay_type", letter.to_owned()));
        }
        if let Some(organism) = args
            .organism
            .as_deref()
            .map(str::trim)
            .filter(|s| !s.is_empty())
        {
            filters.push(("target_organism__iexact", organism.to_owned()));
        }
        match (with_pchembl, args.min_pchembl) {
            (true, min) => {
                filters.push(("pchembl_value__isnull", "false".to_owned()));
                if let Some(min) = min {
                    if !(0.0..=15.0).contains(&min) {
                        return Err(ApiError::invalid_input(
                            format!("min_pchembl {min} is outside 0–15."),
                            "pChEMBL is −log10 of a molar potency: 6 is 1 µM, 9 is 1 nM.",
                            min.to_string(),
                        ));
                    }
                    filters.push(("pchembl_value__gte", min.to_string()));
                }
                filters.push(("order_by", "-pchembl_value".to_owned()));
            }
            (false, Some(_)) => {
                return Err(ApiError::invalid_input(
                    "min_pchembl filters on pChEMBL, which rows asked with with_pchembl: false \
                     do not have.",
                    "Omit min_pchembl, or ask for ranked rows (with_pchembl: true).",
                    "min_pchembl with with_pchembl false",
                ));
            }
            (false, None) => filters.push(("pchembl_value__isnull", "true".to_owned())),
        }
        let scope = format!(
            "chembl_get_bioactivities|{}|{limit}",
            filters
                .iter()
                .map(|(k, v)| format!("{k}={v}"))
                .collect::<Vec<_>>()
                .join("&")
        );
        let offset: u64 = match args.cursor.as_deref().map(str::trim) {
            Some(c) if !c.is_empty() => cursor::decode(c, &scope)?,
            _ => 0,
        };
        let page = self.chembl.activities(&filters, offset, limit).await?;
        let activities: Vec<Bioactivity> = page.records.iter().map(row).collect();
        let next = offset + activities.len() as u64;
        let more = match page.total {
            Some(total) => next < total,
            None => activities.len() as u32 == limit,
        };
        let note = (offset == 0 && activities.is_empty()).then(|| {
            if with_pchembl {
                "No activity with a pChEMBL matches; try with_pchembl: false for rows \
                 without one (percent inhibition, ratios…), or fewer filters."
                    .to_owned()
            } else {
                "No activity without a pChEMBL matches these filters.".to_owned()
            }
        });
        Ok(Json(Bioactivities {
            activities,
            note,
            pagination: Pagination {
                cursor: (more && next > offset).then(|| cursor::encode(&scope, &next)),
                total_count: page.total,
                page_size: limit,
            },
        }))
    }
}
