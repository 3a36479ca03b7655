//! `igvf_find_associations`: an entity's relationships (regulatory, genetic, physical,
//! functional, pharmacological, or all), from the catalog's edge endpoints, queried in
//! parallel, with their context and filters by p-value, source and tissue. A disease or
//! phenotype term covers its direct children too (`crate::terms`): each of its data sets
//! is asked for the term and each child, and the result names the terms covered.
//!
//! The entity is resolved by `crate::subject`, and the result reports it and each data
//! set with `crate::reports`' types, as `igvf_query_associations` does.

use futures::future::join_all;
use lifesciences_core::schemars::{self, JsonSchema};
use lifesciences_core::{ApiError, Parameters, in_range, lenient};
use rmcp::{Json, tool};
use serde::{Deserialize, Serialize};

use crate::associations::{
    Association, DATASETS, Dataset, Relationship, Subject, accepts, datasets_for, map_edge,
    relationships_for, request,
};
use crate::client::{Endpoint, IgvfClient, Request, quoted};
use crate::ids::{EntityKind, Hint, Identifier, Organism, detect};
use crate::lookup::missing;
use crate::models::Edge;
use crate::reports::{DatasetError, DatasetReport, QueriedEntity};
use crate::server::IgvfServer;
use crate::subject::subject;
use crate::terms::{self, CoveredTerms};

/// The data sets where a `p_value` filter is sent upstream as `neg_log10_pvalue=gte:x`.
/// The upstream filter drops rows whose `neg_log10_pvalue` is null, so it is only sent
/// where rows carry it: the GWAS edges (recorded with both `p_val` and
/// `neg_log10_pvalue`). QTL rows of `/genes/variants` and `/variants/genes` may carry only
/// `p_value` (the recorded EBI row has `neg_log10_pvalue: null`), so there, as on every
/// other data set, the filter is applied here over a full page.
const P_VALUE_UPSTREAM: [Endpoint; 2] =
    [Endpoint::VariantsPhenotypes, Endpoint::PhenotypesVariants];

/// Optional filters of `igvf_find_associations`.
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct AssociationFilters {
    /// Largest p-value to keep, e.g. `5e-8`; results without a p-value are left out.
    #[serde(default, deserialize_with = "lenient::opt_f64")]
    pub p_value: Option<f64>,
    /// One data source, case-insensitive, e.g. `EBI`, `ClinGen`, `BioGRID` (valid values
    /// per data set: `igvf_list_sources`).
    #[serde(default)]
    pub source: Option<String>,
    /// Text the tissue or cell type name must contain (case-insensitive), e.g. `liver`.
    #[serde(default)]
    pub tissue: Option<String>,
}

/// Arguments of `igvf_find_associations`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct FindAssociationsArgs {
    /// The entity, in any form `igvf_get_entity` accepts: gene (`TP53`, `ENSG…`),
    /// variant (`rs1152591`, SPDI, HGVS, `CA…`), protein (`ENSP…`, `P04637`), disease or
    /// phenotype (`MONDO:0009861`, `EFO:0004339`), GO term, drug (`PA448497`), complex
    /// (`CPX-11`), pathway (`R-HSA-164843`). Names are resolved exactly first.
    pub entity_id: String,
    /// The relationship; `transcripts` links genes, transcripts and proteins.
    #[schemars(with = "Relationship")]
    pub relationship: String,
    /// Optional filters: `p_value` (maximum), `source`, `tissue`.
    #[serde(default)]
    pub filters: Option<AssociationFilters>,
    /// Maximum associations per data set, 1–500.
    #[serde(default, deserialize_with = "lenient::opt_u32")]
    #[schemars(range(min = 1, max = 500))]
    #[schemars(extend("default" = 25))]
    pub limit: Option<u32>,
    /// Optional kind of entity meant, for names (e.g. `drug` for `aspirin`).
    #[serde(default)]
    pub hint: Option<Hint>,
}

/// The associations of an entity.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub(crate) struct AssociationsResult {
    /// The entity queried.
    pub entity: QueriedEntity,
    /// The relationship asked for.
    pub relationship: String,
    /// The associations, grouped by data set in the order of `datasets`.
    pub associations: Vec<Association>,
    /// Every data set considered: returned, truncated, skipped or failed.
    pub datasets: Vec<DatasetReport>,
    /// For a disease or phenotype term: the term and the child terms covered.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub covered_terms: Option<CoveredTerms>,
    /// What to know about the answer as a whole.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
}

/// The checked filters.
#[derive(Debug, Clone, Default)]
struct Filters {
    p_value: Option<f64>,
    /// Trimmed, for matching.
    source: Option<String>,
    /// As the caller sent it, for `invalid_input`.
    source_raw: Option<String>,
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
        let text = |v: Option<&String>| v.map(|s| s.trim().to_owned()).filter(|s| !s.is_empty());
        Ok(Self {
            p_value: raw.p_value,
            source: text(raw.source.as_ref()),
            source_raw: raw.source,
            tissue: text(raw.tissue.as_ref()),
        })
    }

    fn keeps(&self, a: &Association, local_source: bool) -> bool {
        self.p_value.is_none_or(|max| a.p_value_at_most(max))
            && (!local_source || self.source.as_deref().is_none_or(|s| a.has_source(s)))
            && self.tissue.as_deref().is_none_or(|t| a.in_tissue(t))
    }
}

/// Why a data set was not queried.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Skip {
    /// It has human data only and the entity is a mouse one.
    Organism,
    /// It cannot be searched by this kind or form of entity.
    Form,
    /// The `source` filter names none of its sources.
    Source,
    /// The gene has no protein in the catalog (protein data sets of a gene).
    NoProteins,
}

/// One data set's queries, ready to run, or settled (skipped, or failed beforehand):
/// one query, or for a disease term one per term covered, each with the subject its rows
/// must involve.
struct Plan {
    dataset: &'static Dataset,
    requests: Vec<(Subject, Request)>,
    skip: Option<Skip>,
    note: Option<String>,
    failed: Option<ApiError>,
    local_source: bool,
}

/// What one data set gave.
struct Outcome {
    report: DatasetReport,
    associations: Vec<Association>,
    error: Option<ApiError>,
    /// Rows the upstream returned, before any check or filter.
    scanned: usize,
    /// Whether the data set was not queried at all.
    skipped: bool,
}

fn plan(
    dataset: &'static Dataset,
    subject: &Subject,
    filters: &Filters,
    protein_error: Option<&ApiError>,
) -> Plan {
    let settled = |skip: Option<Skip>, note: Option<String>, failed: Option<ApiError>| Plan {
        dataset,
        requests: Vec::new(),
        skip,
        note,
        failed,
        local_source: false,
    };
    let skip = |why: Skip, note: String| settled(Some(why), Some(note), None);
    if !dataset.endpoint.serves(subject.organism()) {
        return skip(
            Skip::Organism,
            format!(
                "not queried: this data set has {} data only.",
                Organism::Human.api_name()
            ),
        );
    }
    if subject.needs_symbol(dataset.endpoint) {
        if let Some(e) = protein_error {
            return settled(None, None, Some(e.clone()));
        }
        if subject.proteins.is_empty() {
            return skip(
                Skip::NoProteins,
                "not queried: the catalog has no protein for this gene.".to_owned(),
            );
        }
    }
    let Some(mut request) = request(dataset, subject) else {
        return skip(
            Skip::Form,
            format!(
                "not queried: it is searched by {}, not a {}.",
                accepts(dataset.endpoint),
                subject.identifier.form()
            ),
        );
    };
    let mut local_source = false;
    if let Some(source) = &filters.source {
        let values = dataset.endpoint.enum_values("source");
        let sendable = dataset.endpoint.allowed().contains(&"source") && !values.is_empty();
        if sendable {
            match values.iter().find(|v| v.eq_ignore_ascii_case(source)) {
                Some(canonical) => {
                    request = request.param("source", canonical.clone()).input(
                        "source",
                        filters.source_raw.clone().unwrap_or_else(|| source.clone()),
                    );
                }
                None => {
                    return skip(
                        Skip::Source,
                        format!(
                            "not queried: source '{source}' is not one of its sources ({}).",
                            quoted(values)
                        ),
                    );
                }
            }
        } else {
            local_source = true;
        }
    }
    // p = 1 keeps every p-value: nothing to send (`gte:-0` would only drop rows).
    if let Some(p) = filters.p_value
        && p < 1.0
        && P_VALUE_UPSTREAM.contains(&dataset.endpoint)
        && dataset.endpoint.allowed().contains(&"neg_log10_pvalue")
    {
        request = request
            .param("neg_log10_pvalue", format!("gte:{}", -p.log10()))
            .input("neg_log10_pvalue", p.to_string());
    }
    Plan {
        dataset,
        requests: vec![(subject.clone(), request)],
        skip: None,
        note: None,
        failed: None,
        local_source,
    }
}

/// Run one plan: fetch each of its queries at once, map, check each edge involves its
/// subject, filter, cut. The data set fails only when every one of its queries failed.
async fn run(client: &IgvfClient, plan: Plan, filters: &Filters, limit: u32) -> Outcome {
    let mut report = DatasetReport {
        dataset: format!("/{}", plan.dataset.endpoint.path()),
        relationship: plan.dataset.relationship.as_str().to_owned(),
        returned: 0,
        truncated: false,
        note: plan.note,
        error: None,
    };
    let failure = |mut report: DatasetReport, e: ApiError| {
        report.error = Some(DatasetError::of(&e));
        Outcome {
            report,
            associations: Vec::new(),
            error: Some(e),
            scanned: 0,
            skipped: false,
        }
    };
    if let Some(e) = plan.failed {
        return failure(report, e);
    }
    let Some((_, first)) = plan.requests.first() else {
        return Outcome {
            report,
            associations: Vec::new(),
            error: None,
            scanned: 0,
            skipped: true,
        };
    };
    let server_p = first.has("neg_log10_pvalue");
    let local =
        filters.tissue.is_some() || plan.local_source || (filters.p_value.is_some() && !server_p);
    // Filters the upstream cannot apply are applied here, over a full page.
    let want = if local {
        plan.dataset.endpoint.page_cap().max(limit)
    } else {
        limit
    };
    let fetched = join_all(plan.requests.iter().map(|(subject, request)| async move {
        (subject, client.fetch::<Edge>(request, want).await)
    }))
    .await;
    let queries = fetched.len();
    let mut errors: Vec<ApiError> = Vec::new();
    let mut scanned = 0;
    let mut more = false;
    let mut unrelated = 0;
    let mut kept: Vec<Association> = Vec::new();
    for (subject, result) in fetched {
        let rows = match result {
            Ok(rows) => rows,
            Err(e) => {
                errors.push(e);
                continue;
            }
        };
        scanned += rows.items.len();
        more |= rows.more;
        for edge in rows.items {
            match map_edge(plan.dataset, Some(subject), edge) {
                Some(a) if filters.keeps(&a, plan.local_source) => kept.push(a),
                Some(_) => {}
                None => unrelated += 1,
            }
        }
    }
    if errors.len() == queries
        && let Some(e) = errors.first()
    {
        return failure(report, e.clone());
    }
    let mut notes = Vec::new();
    if let Some(e) = errors.first() {
        notes.push(format!(
            "{} of its {queries} term queries failed ({}); the others answered.",
            errors.len(),
            e.code()
        ));
    }
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
    report.truncated = more_matches || more;
    if local {
        notes.push(format!(
            "filtered here among the first {scanned} record(s){}.",
            if more {
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
    Outcome {
        report,
        associations: kept,
        error: None,
        scanned,
        skipped: false,
    }
}

/// The error when no data set of the relationship could be queried for the entity,
/// or `None` when that is itself the answer (a gene without proteins has no physical
/// associations).
fn nothing_to_query(
    plans: &[Plan],
    id: &Identifier,
    raw: &str,
    relationship: Relationship,
    relationship_raw: &str,
    filters: &Filters,
) -> Option<ApiError> {
    let skips: Vec<Skip> = plans.iter().filter_map(|p| p.skip).collect();
    if skips.len() < plans.len() {
        return None;
    }
    let kind = id.kind();
    let rel = relationship.as_str();
    if skips.contains(&Skip::Form) {
        let mut forms: Vec<String> = Vec::new();
        for p in plans.iter().filter(|p| p.skip == Some(Skip::Form)) {
            let form = accepts(p.dataset.endpoint).to_owned();
            if !forms.contains(&form) {
                forms.push(form);
            }
        }
        let other: Vec<&str> = relationships_for(kind)
            .into_iter()
            .filter(|r| *r != rel)
            .collect();
        let mut hint = format!("These data sets are searched by {}.", forms.join("; or "));
        if kind == EntityKind::OntologyTerm && !other.is_empty() {
            hint.push_str(&format!(
                " For this term try relationship {}.",
                quoted(&other.iter().map(|r| (*r).to_owned()).collect::<Vec<_>>())
            ));
        }
        return Some(ApiError::unresolved(
            format!(
                "No '{rel}' data set of the IGVF Catalog can be searched by the {} '{raw}'.",
                id.form()
            ),
            hint,
            raw,
        ));
    }
    if let Some(source) = &filters.source
        && skips.iter().all(|s| *s == Skip::Source)
    {
        let mut valid: Vec<String> = Vec::new();
        for p in plans {
            for v in p.dataset.endpoint.enum_values("source") {
                if !valid.contains(v) {
                    valid.push(v.clone());
                }
            }
        }
        return Some(ApiError::invalid_input(
            format!("No data set of '{rel}' associations for a {kind} has the source '{source}'."),
            format!("Sources of these data sets: {}.", quoted(&valid)),
            filters.source_raw.clone().unwrap_or_else(|| source.clone()),
        ));
    }
    if skips
        .iter()
        .all(|s| matches!(s, Skip::Organism | Skip::Source))
    {
        let with_mouse: Vec<String> = Relationship::CONCRETE
            .iter()
            .filter(|r| {
                DATASETS.iter().any(|d| {
                    d.from == kind && d.relationship == **r && d.endpoint.serves(Organism::Mouse)
                })
            })
            .map(|r| r.as_str().to_owned())
            .collect();
        let hint = if with_mouse.is_empty() {
            format!("Use the human ortholog's ID (ENSG…) to get its '{rel}' associations.")
        } else {
            format!(
                "Use the human ortholog's ID (ENSG…), or a relationship with mouse data: {}.",
                quoted(&with_mouse)
            )
        };
        return Some(ApiError::invalid_input(
            format!(
                "The IGVF Catalog has '{rel}' associations for human entities only; '{raw}' is a \
                 mouse {kind}."
            ),
            hint,
            relationship_raw,
        ));
    }
    None
}

impl IgvfServer {
    /// An entity's relationships, from either side, data sets queried in parallel:
    /// regulatory (QTLs, element–gene links, TF binding, perturbation targets), genetic
    /// (disease, GWAS), physical, functional (pathways, GO, co-expression),
    /// pharmacological, transcripts, or all. Keeps p-values, effects, tissue, source. A
    /// disease term covers its children. To rank one kind, use igvf_query_associations. Example: `{"entity_id": "TP53",
    /// "relationship": "regulatory"}`.
    #[tool(
        title = "Find associations of an entity",
        annotations(read_only_hint = true, idempotent_hint = true, open_world_hint = true)
    )]
    pub(crate) async fn igvf_find_associations(
        &self,
        Parameters(args): Parameters<FindAssociationsArgs>,
    ) -> Result<Json<AssociationsResult>, ApiError> {
        let args = args?;
        let relationship = Relationship::parse(&args.relationship).map_err(|m| {
            ApiError::invalid_input(
                format!("Argument 'relationship' is not valid: {m}."),
                "Use one of 'regulatory', 'genetic', 'physical', 'functional', \
                 'pharmacological', 'all'.",
                args.relationship.clone(),
            )
        })?;
        let id = detect(&args.entity_id, args.hint)?;
        let limit = in_range("limit", args.limit, 1, 500, 25)?;
        let filters = Filters::parse(args.filters)?;
        let kind = id.kind();
        let datasets = datasets_for(kind, relationship);
        if datasets.is_empty() {
            return Err(no_data_sets(
                kind,
                relationship,
                args.entity_id,
                args.relationship,
            ));
        }
        let client = &self.catalog;
        let (subject, protein_error) = subject(client, &id, &args.entity_id, &datasets).await?;
        let plans: Vec<Plan> = datasets
            .iter()
            .map(|d| plan(d, &subject, &filters, protein_error.as_ref()))
            .collect();
        if let Some(e) = nothing_to_query(
            &plans,
            &id,
            &args.entity_id,
            relationship,
            &args.relationship,
            &filters,
        ) {
            return Err(e);
        }
        let no_proteins = plans.iter().any(|p| p.skip == Some(Skip::NoProteins));
        let mut plans = plans;
        let (covered_terms, expansion_note) =
            cover_children(client, kind, &subject, &mut plans, &filters).await;
        let outcomes = join_all(plans.into_iter().map(|p| run(client, p, &filters, limit))).await;
        let queried = outcomes.iter().filter(|o| !o.skipped).count();
        let failed: Vec<&ApiError> = outcomes.iter().filter_map(|o| o.error.as_ref()).collect();
        if queried > 0 && failed.len() == queried {
            // Nothing answered: the error is the answer.
            if let Some(first) = failed.first() {
                return Err((*first).clone());
            }
        }
        // Every data set answered with nothing at all: say so only if the entity exists
        // (one lookup, unless resolving it was one already).
        if queried > 0
            && failed.is_empty()
            && !subject.verified
            && outcomes.iter().all(|o| o.scanned == 0)
            && let Some(not_found) = missing(client, &id, &args.entity_id).await
        {
            return Err(not_found);
        }
        let mut notes: Vec<String> = expansion_note.into_iter().collect();
        if no_proteins {
            notes.push(format!(
                "The catalog has no protein for {}, so its protein interactions and complexes \
                 were not searched (a non-coding gene has none).",
                subject.symbol.as_deref().unwrap_or(&args.entity_id)
            ));
        }
        notes.extend(outcome_notes(&outcomes, queried, failed.len(), limit));
        let mut datasets_out = Vec::new();
        let mut associations = Vec::new();
        for outcome in outcomes {
            datasets_out.push(outcome.report);
            associations.extend(outcome.associations);
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
            relationship: relationship.as_str().to_owned(),
            associations,
            datasets: datasets_out,
            covered_terms,
            notes,
        }))
    }
}

/// The refusal of a relationship no data set serves for this kind of entity, naming the
/// relationships that are served (or, for a kind with none, what to ask instead).
fn no_data_sets(
    kind: EntityKind,
    relationship: Relationship,
    entity_raw: String,
    relationship_raw: String,
) -> ApiError {
    let valid = relationships_for(kind);
    if valid.is_empty() {
        ApiError::invalid_input(
            format!("The IGVF Catalog has no association data sets that start from a {kind}."),
            "Look up the transcript's gene with igvf_get_entity (its gene_id) and ask \
             for the gene's associations.",
            entity_raw,
        )
    } else {
        ApiError::invalid_input(
            format!(
                "There are no '{}' associations for a {kind} in the IGVF Catalog.",
                relationship.as_str()
            ),
            format!(
                "For a {kind}, relationship is one of {}, or 'all'.",
                quoted(&valid.iter().map(|v| (*v).to_owned()).collect::<Vec<_>>())
            ),
            relationship_raw,
        )
    }
}

/// A disease or phenotype term covers its direct children: each of its data sets is
/// asked for every term (GO terms are not expanded). Returns the terms covered and the
/// note on the expansion, when there was one.
async fn cover_children(
    client: &IgvfClient,
    kind: EntityKind,
    subject: &Subject,
    plans: &mut [Plan],
    filters: &Filters,
) -> (Option<CoveredTerms>, Option<String>) {
    let term_plans =
        |p: &Plan| p.dataset.from == EntityKind::OntologyTerm && !p.requests.is_empty();
    let Some(term) = subject.id.clone() else {
        return (None, None);
    };
    if kind != EntityKind::OntologyTerm || subject.is_go_term() || !plans.iter().any(term_plans) {
        return (None, None);
    }
    let expansion = terms::expand(client, &term).await;
    for child in expansion.terms.iter().skip(1) {
        let child_subject = Subject {
            id: Some(child.clone()),
            ..subject.clone()
        };
        for p in plans.iter_mut().filter(|p| term_plans(p)) {
            let extra = plan(p.dataset, &child_subject, filters, None);
            p.requests.extend(extra.requests);
        }
    }
    (Some(expansion.covered()), expansion.note)
}

/// Notes on failed data sets and on data sets cut at `limit`.
fn outcome_notes(outcomes: &[Outcome], queried: usize, failed: usize, limit: u32) -> Vec<String> {
    let mut notes = Vec::new();
    if failed > 0 {
        notes.push(format!(
            "{failed} of {queried} data set(s) failed (see datasets[].error); the others answered."
        ));
    }
    if outcomes.iter().any(|o| o.report.truncated) {
        notes.push(format!(
            "Some data sets have more associations than the {limit} returned each; raise \
             'limit' (up to 500) or add filters."
        ));
    }
    notes
}

#[cfg(test)]
mod tests {
    use super::*;
    use lifesciences_core::ErrorCode;

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
