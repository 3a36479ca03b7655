//! `igvf_find_associations`: an entity's relationships (regulatory, genetic, physical,
//! functional, pharmacological, or all), from the catalog's edge endpoints, queried in
//! parallel, with their context and filters by p-value, source and tissue.

use futures::future::join_all;
use lifesciences_core::schemars::{self, JsonSchema};
use lifesciences_core::{ApiError, ErrorCode, Parameters, in_range, lenient};
use rmcp::{Json, tool, tool_router};
use serde::{Deserialize, Serialize};

use crate::associations::{
    Association, Dataset, Relationship, Subject, datasets_for, map_edge, relationships_for, request,
};
use crate::client::{IgvfClient, quoted};
use crate::ids::{EntityKind, Hint, Identifier, detect};
use crate::lookup::lookup;
use crate::models::Edge;
use crate::server::IgvfServer;

/// Optional filters of `igvf_find_associations`.
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AssociationFilters {
    /// Keep associations whose p-value is at most this, e.g. `5e-8`. Sent to the catalog
    /// as a -log10 threshold where it supports one, and checked on every result; results
    /// without a p-value are left out.
    #[serde(default, deserialize_with = "lenient::opt_f64")]
    pub p_value: Option<f64>,
    /// Keep one data source, e.g. `AFGR`, `EBI`, `IGVF`, `ENCODE`, `ClinGen`, `Orphanet`,
    /// `GenCC`, `OpenTargets`, `BioGRID`, `IntAct` (case-insensitive). The valid values of
    /// each data set are listed by `igvf_list_sources`.
    #[serde(default)]
    pub source: Option<String>,
    /// Keep associations measured in a tissue or cell type whose name contains this text
    /// (case-insensitive), e.g. `liver`, `T cell`, `lymphoblastoid`.
    #[serde(default)]
    pub tissue: Option<String>,
}

/// Arguments of `igvf_find_associations`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FindAssociationsArgs {
    /// The entity, in any form `igvf_get_entity` accepts: a gene (`TP53`,
    /// `ENSG00000141510`), variant (`rs1152591`, SPDI, HGVS, `CA…`), protein (`ENSP…`,
    /// `P04637`), disease or phenotype (`MONDO:0009861`, `EFO:0004339`), GO term, drug
    /// (`PA448497`), complex (`CPX-11`) or pathway (`R-HSA-164843`). Symbols are resolved
    /// to their exact gene first.
    pub entity_id: String,
    /// `regulatory` (QTLs, element–gene links, allele-specific binding), `genetic`
    /// (disease, GWAS phenotypes), `physical` (protein–protein, complexes), `functional`
    /// (pathways, GO, co-expression), `pharmacological` (variant–drug), or `all` (every
    /// one that applies, in parallel).
    pub relationship: Relationship,
    /// Optional filters: `p_value` (maximum), `source`, `tissue`.
    #[serde(default)]
    pub filters: Option<AssociationFilters>,
    /// Maximum associations from each data set queried, 1–500 (default 25).
    #[serde(default, deserialize_with = "lenient::opt_u32")]
    pub limit: Option<u32>,
    /// Optional: the kind of entity meant, for names (e.g. `drug` for `aspirin`).
    #[serde(default)]
    pub hint: Option<Hint>,
}

/// The entity associations were looked for.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct QueriedEntity {
    /// The input, as given.
    pub input: String,
    /// `gene`, `variant`, `protein`, `ontology_term`, `drug`, `complex`, `pathway`.
    #[serde(rename = "_type")]
    pub kind: EntityKind,
    /// How the input was read.
    pub detected_as: String,
    /// Its ID, when resolved (e.g. the Ensembl gene ID of a symbol).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// Its gene symbol, when known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub symbol: Option<String>,
}

/// An error of one data set (the others still answered).
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct DatasetError {
    /// The error code, e.g. `UPSTREAM_ERROR`.
    pub code: ErrorCode,
    /// What failed.
    pub message: String,
}

/// What one data set contributed.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct DatasetReport {
    /// The catalog endpoint, e.g. `/genes/variants`.
    pub dataset: String,
    /// Its relationship.
    pub relationship: String,
    /// What it holds.
    pub description: String,
    /// Associations returned from it.
    pub returned: u32,
    /// True when more associations exist than were returned (raise `limit` or filter).
    pub truncated: bool,
    /// Why it was skipped or what its filtering means.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// Set when this data set failed; the others are still reported.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<DatasetError>,
}

/// The associations of an entity.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct AssociationsResult {
    /// The entity queried.
    pub entity: QueriedEntity,
    /// The relationship asked for.
    pub relationship: String,
    /// The associations, grouped by data set in the order of `datasets`.
    pub associations: Vec<Association>,
    /// Every data set considered: what it returned, whether it was truncated, skipped
    /// or failed.
    pub datasets: Vec<DatasetReport>,
    /// What to know about the answer as a whole.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
}

/// The checked filters.
#[derive(Debug, Clone, Default)]
struct Filters {
    p_value: Option<f64>,
    source: Option<String>,
    tissue: Option<String>,
}

impl Filters {
    fn parse(raw: Option<AssociationFilters>) -> Result<Self, ApiError> {
        let raw = raw.unwrap_or_default();
        if let Some(p) = raw.p_value
            && !(p > 0.0 && p <= 1.0)
        {
            return Err(ApiError::invalid_input(
                format!("Filter 'p_value' must be a p-value above 0 and at most 1; got {p}."),
                "Give the largest p-value to keep, e.g. 5e-8 for genome-wide significance.",
                p.to_string(),
            ));
        }
        let text = |v: Option<String>| v.map(|s| s.trim().to_owned()).filter(|s| !s.is_empty());
        Ok(Self {
            p_value: raw.p_value,
            source: text(raw.source),
            tissue: text(raw.tissue),
        })
    }

    fn keeps(&self, a: &Association, local_source: bool) -> bool {
        if let Some(max) = self.p_value {
            // A tiny tolerance: the upstream filter works on rounded -log10 values.
            if a.p_value.is_none_or(|p| p > max * (1.0 + 1e-6)) {
                return false;
            }
        }
        if local_source
            && let Some(source) = &self.source
            && !a
                .source
                .as_deref()
                .is_some_and(|s| s.eq_ignore_ascii_case(source))
        {
            return false;
        }
        if let Some(tissue) = &self.tissue {
            let needle = tissue.to_lowercase();
            if !a
                .tissue
                .as_deref()
                .is_some_and(|t| t.to_lowercase().contains(&needle))
            {
                return false;
            }
        }
        true
    }
}

/// One data set's query, ready to run or already settled (skipped).
struct Plan {
    dataset: &'static Dataset,
    request: Option<crate::client::Request>,
    note: Option<String>,
    local_source: bool,
}

/// Resolve what the edge endpoints need: symbols and names to their exact IDs, and a
/// gene ID to its symbol when a gene's proteins are queried.
async fn subject(
    client: &IgvfClient,
    id: &Identifier,
    datasets: &[&'static Dataset],
) -> Result<Subject, ApiError> {
    let direct = match id {
        Identifier::EnsemblGene { id, .. } | Identifier::EnsemblProtein { id, .. } => {
            Some(id.clone())
        }
        Identifier::OntologyTerm { .. }
        | Identifier::PharmGkb(_)
        | Identifier::Complex(_)
        | Identifier::Reactome(_)
        | Identifier::Spdi(_) => Some(id.value()),
        _ => None,
    };
    let probe = Subject {
        identifier: id.clone(),
        id: direct.clone(),
        symbol: None,
    };
    let needs_lookup = match id {
        Identifier::GeneSymbol(_)
        | Identifier::Hgnc(_)
        | Identifier::Entrez(_)
        | Identifier::OntologyName(_)
        | Identifier::DrugName(_)
        | Identifier::ComplexName(_)
        | Identifier::PathwayName(_) => true,
        Identifier::EnsemblGene { .. } => datasets.iter().any(|d| probe.needs_symbol(d.endpoint)),
        _ => false,
    };
    if !needs_lookup {
        return Ok(probe);
    }
    let found = lookup(client, id).await?;
    Ok(Subject {
        identifier: id.clone(),
        id: Some(found.best.api_id()),
        symbol: found.best.symbol(),
    })
}

fn plan(dataset: &'static Dataset, subject: &Subject, filters: &Filters) -> Plan {
    let skip = |note: String| Plan {
        dataset,
        request: None,
        note: Some(note),
        local_source: false,
    };
    let organism = subject.organism();
    if !dataset.endpoint.serves(organism) {
        return skip(format!(
            "not queried: this data set has {} data only.",
            crate::ids::Organism::Human.api_name()
        ));
    }
    let Some(mut request) = request(dataset, subject) else {
        return skip(format!(
            "not queried: it cannot be searched by a {}.",
            subject.identifier.form()
        ));
    };
    let mut local_source = false;
    if let Some(source) = &filters.source {
        let values = dataset.endpoint.enum_values("source");
        let sendable = dataset.endpoint.allowed().contains(&"source") && !values.is_empty();
        if sendable {
            match values.iter().find(|v| v.eq_ignore_ascii_case(source)) {
                Some(canonical) => request = request.param("source", canonical.clone()),
                None => {
                    return skip(format!(
                        "not queried: source '{source}' is not one of its sources ({}).",
                        quoted(values)
                    ));
                }
            }
        } else {
            local_source = true;
        }
    }
    if let Some(p) = filters.p_value
        && dataset.endpoint.allowed().contains(&"neg_log10_pvalue")
    {
        request = request.param("neg_log10_pvalue", format!("gte:{}", -p.log10()));
    }
    Plan {
        dataset,
        request: Some(request),
        note: None,
        local_source,
    }
}

/// Run one plan: fetch, map, check each edge involves the subject, filter, cut.
async fn run(
    client: &IgvfClient,
    plan: Plan,
    subject: &Subject,
    filters: &Filters,
    limit: u32,
) -> (DatasetReport, Vec<Association>, Option<ApiError>) {
    let mut report = DatasetReport {
        dataset: format!("/{}", plan.dataset.endpoint.path()),
        relationship: plan.dataset.relationship.as_str().to_owned(),
        description: plan.dataset.description.to_owned(),
        returned: 0,
        truncated: false,
        note: plan.note,
        error: None,
    };
    let Some(request) = plan.request else {
        return (report, Vec::new(), None);
    };
    let server_p = request.has("neg_log10_pvalue");
    let local =
        filters.tissue.is_some() || plan.local_source || (filters.p_value.is_some() && !server_p);
    // Filters the upstream cannot apply are applied here, over a full page.
    let want = if local {
        plan.dataset.endpoint.page_cap().max(limit)
    } else {
        limit
    };
    let fetched = match client.fetch::<Edge>(&request, want).await {
        Ok(f) => f,
        Err(e) => {
            let body = e.to_envelope().error;
            report.error = Some(DatasetError {
                code: body.code,
                message: body.message,
            });
            return (report, Vec::new(), Some(e));
        }
    };
    let scanned = fetched.items.len();
    let mut unrelated = 0;
    let mut kept: Vec<Association> = Vec::new();
    for edge in fetched.items {
        match map_edge(plan.dataset, subject, edge) {
            Some(a) if filters.keeps(&a, plan.local_source) => kept.push(a),
            Some(_) => {}
            None => unrelated += 1,
        }
    }
    let mut notes = Vec::new();
    if unrelated > 0 {
        tracing::warn!(
            dataset = %report.dataset,
            unrelated,
            "IGVF Catalog returned edges that do not involve the queried entity"
        );
        notes.push(format!(
            "{unrelated} record(s) that do not involve the entity were left out."
        ));
    }
    let more_matches = kept.len() > limit as usize;
    kept.truncate(limit as usize);
    report.truncated = more_matches || fetched.more;
    if local {
        notes.push(format!(
            "filtered here among the first {scanned} record(s){}.",
            if fetched.more {
                "; more may match further on (narrow the query with a source filter)"
            } else {
                ""
            }
        ));
    }
    if !notes.is_empty() {
        report.note = Some(notes.join(" "));
    }
    report.returned = u32::try_from(kept.len()).unwrap_or(u32::MAX);
    (report, kept, None)
}

#[tool_router(router = find_associations_router, vis = "pub(crate)")]
impl IgvfServer {
    /// Find an entity's relationships in the knowledge graph, from either side:
    /// regulatory (eQTL/sQTL/caQTL, regulatory element–gene links, allele-specific
    /// binding), genetic (gene/variant–disease, GWAS phenotypes), physical
    /// (protein–protein, complexes), functional (pathways, GO, co-expression),
    /// pharmacological (variant–drug), or all of them in parallel. Keeps p-values, effect
    /// sizes, tissue, source and method; filters by p_value, source and tissue.
    /// Example: `{"entity_id": "TP53", "relationship": "regulatory"}`.
    #[tool(
        title = "Find associations of an entity",
        annotations(read_only_hint = true, idempotent_hint = true, open_world_hint = true)
    )]
    pub async fn igvf_find_associations(
        &self,
        Parameters(args): Parameters<FindAssociationsArgs>,
    ) -> Result<Json<AssociationsResult>, ApiError> {
        let args = args?;
        let id = detect(&args.entity_id, args.hint)?;
        let limit = in_range("limit", args.limit, 1, 500, 25)?;
        let filters = Filters::parse(args.filters)?;
        let kind = id.kind();
        let datasets = datasets_for(kind, args.relationship);
        if datasets.is_empty() {
            let valid = relationships_for(kind);
            return Err(if valid.is_empty() {
                ApiError::invalid_input(
                    format!(
                        "The IGVF Catalog has no association data sets that start from a {kind}."
                    ),
                    "Look up the transcript's gene with igvf_get_entity (its gene_id) and ask \
                     for the gene's associations.",
                    args.entity_id,
                )
            } else {
                ApiError::invalid_input(
                    format!(
                        "There are no '{}' associations for a {kind} in the IGVF Catalog.",
                        args.relationship.as_str()
                    ),
                    format!(
                        "For a {kind}, relationship is one of {}, or 'all'.",
                        quoted(&valid.iter().map(|v| (*v).to_owned()).collect::<Vec<_>>())
                    ),
                    args.relationship.as_str(),
                )
            });
        }
        let client = self.client();
        let subject = subject(client, &id, &datasets).await?;
        let plans: Vec<Plan> = datasets
            .iter()
            .map(|d| plan(d, &subject, &filters))
            .collect();
        if let Some(source) = &filters.source {
            let all_refused = plans.iter().all(|p| {
                p.request.is_none() && p.note.as_deref().is_some_and(|n| n.contains("source"))
            });
            if all_refused {
                let mut valid: Vec<String> = Vec::new();
                for d in &datasets {
                    for v in d.endpoint.enum_values("source") {
                        if !valid.contains(v) {
                            valid.push(v.clone());
                        }
                    }
                }
                return Err(ApiError::invalid_input(
                    format!(
                        "No data set of '{}' associations for a {kind} has the source '{source}'.",
                        args.relationship.as_str()
                    ),
                    format!("Sources of these data sets: {}.", quoted(&valid)),
                    source.clone(),
                ));
            }
        }
        let outcomes = join_all(
            plans
                .into_iter()
                .map(|p| run(client, p, &subject, &filters, limit)),
        )
        .await;
        let queried = outcomes
            .iter()
            .filter(|(r, _, _)| {
                r.note
                    .as_deref()
                    .is_none_or(|n| !n.starts_with("not queried"))
            })
            .count();
        let failed: Vec<&ApiError> = outcomes.iter().filter_map(|(_, _, e)| e.as_ref()).collect();
        if queried > 0 && failed.len() == queried {
            // Nothing answered: the error is the answer.
            if let Some(first) = failed.first() {
                return Err((*first).clone());
            }
        }
        let mut notes = Vec::new();
        if !failed.is_empty() {
            notes.push(format!(
                "{} of {queried} data set(s) failed (see datasets[].error); the others answered.",
                failed.len()
            ));
        }
        if outcomes.iter().any(|(r, _, _)| r.truncated) {
            notes.push(format!(
                "Some data sets have more associations than the {limit} returned each; raise \
                 'limit' (up to 500) or add filters."
            ));
        }
        let mut datasets_out = Vec::new();
        let mut associations = Vec::new();
        for (report, items, _) in outcomes {
            datasets_out.push(report);
            associations.extend(items);
        }
        Ok(Json(AssociationsResult {
            entity: QueriedEntity {
                input: args.entity_id,
                kind,
                detected_as: id.form().to_owned(),
                id: subject.id.clone().map(|i| match kind {
                    EntityKind::OntologyTerm => crate::ids::ontology_curie(&i),
                    _ => i,
                }),
                symbol: subject.symbol.clone(),
            },
            relationship: args.relationship.as_str().to_owned(),
            associations,
            datasets: datasets_out,
            notes,
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn p_value_filters_must_be_p_values() {
        for bad in [0.0, -1.0, 1.5] {
            let e = Filters::parse(Some(AssociationFilters {
                p_value: Some(bad),
                ..Default::default()
            }))
            .unwrap_err();
            assert_eq!(e.code(), ErrorCode::InvalidInput);
        }
        let f = Filters::parse(Some(AssociationFilters {
            source: Some("  ".into()),
            tissue: Some(" liver ".into()),
            ..Default::default()
        }))
        .unwrap();
        assert_eq!(f.source, None);
        assert_eq!(f.tissue.as_deref(), Some("liver"));
    }
}
