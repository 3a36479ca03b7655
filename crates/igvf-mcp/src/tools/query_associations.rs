//! `igvf_query_associations`: one kind of association, filtered and ranked in one call.
//!
//! Where `igvf_find_associations` surveys everything an entity is linked to, this tool
//! answers "the top N of one kind": it pages through the upstream (the catalog has no
//! sort parameter), applies thresholds upstream where the API takes them and here where
//! it does not, sorts by the field asked for, and says whether the ranking covered every
//! matching row. `limit` counts entities, each with all its rows (`by_entity`). The
//! anchor is optional wherever the catalog's spec says the endpoint answers without one
//! (`catalog_wide`); a disease or trait anchor also covers the term's direct children
//! (`crate::terms`), and stands for the term's genes on data sets that are queried by
//! gene. The kinds are in `kind`; coding-variant scores are mapped in `scores`.
//!
//! The tool fn is the outline: the filters are checked (`filters`), the queries planned
//! from the kind and the anchor (`plan`), sent in parallel and gathered (`run`), the
//! rows ranked and cut (`rank`), and the answer shaped with its notes ([`answer`]). The
//! entity and the data sets are reported with `crate::reports`' types, shared with
//! `igvf_find_associations`.

mod by_entity;
mod catalog_wide;
mod filters;
mod kind;
mod plan;
mod rank;
mod run;
mod scores;

use lifesciences_core::schemars::{self, JsonSchema};
use lifesciences_core::{ApiError, Parameters, UpstreamFailure, in_range, lenient};
use rmcp::{Json, tool};
use serde::{Deserialize, Serialize};

use crate::associations::{Association, DATASETS, Dataset, Relationship, Subject};
use crate::client::{Endpoint, Request};
use crate::ids::{EntityKind, Hint};
use crate::lookup::missing;
use crate::reports::{DatasetReport, QueriedEntity};
use crate::server::IgvfServer;
use filters::{Filters, text, with_filters};
use kind::{Kind, Order, SortBy};
use plan::{Ask, Plan};
use rank::Ranked;
use run::Gathered;

/// Arguments of `igvf_query_associations`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct QueryAssociationsArgs {
    /// What to rank, one kind per call.
    #[schemars(with = "Kind")]
    pub kind: String,
    /// Gene, variant, disease/trait term (any igvf_get_entity form), or a protein
    /// change (`XRCC2 p.Met1Ile`).
    #[serde(default)]
    pub entity_id: Option<String>,
    /// Tissue or cell type, e.g. `liver`.
    #[serde(default)]
    pub tissue: Option<String>,
    /// One data source, e.g. `EBI`, `IGVF`.
    #[serde(default)]
    pub source: Option<String>,
    /// Assay or predictor, e.g. `ENCODE-rE2G`, `SGE`.
    #[serde(default)]
    pub method: Option<String>,
    /// Largest p-value kept.
    #[serde(default, deserialize_with = "lenient::opt_f64")]
    pub max_p_value: Option<f64>,
    /// Smallest 0–1 score kept.
    #[serde(default, deserialize_with = "lenient::opt_f64")]
    #[schemars(range(min = 0, max = 1))]
    pub min_score: Option<f64>,
    /// Smallest z-score kept.
    #[serde(default, deserialize_with = "lenient::opt_f64")]
    pub min_z_score: Option<f64>,
    /// Largest z-score kept.
    #[serde(default, deserialize_with = "lenient::opt_f64")]
    pub max_z_score: Option<f64>,
    /// Defaults by kind (p_value for QTLs and GWAS).
    #[serde(default)]
    pub sort_by: Option<SortBy>,
    /// Direction; p-values rank ascending unless set.
    #[serde(default)]
    pub order: Option<Order>,
    /// Entities (variants, genes) returned, each with all its rows, 1–100.
    #[serde(default, deserialize_with = "lenient::opt_u32")]
    #[schemars(range(min = 1, max = 100))]
    #[schemars(extend("default" = 10))]
    pub limit: Option<u32>,
    /// Most rows examined, 10–5000.
    #[serde(default, deserialize_with = "lenient::opt_u32")]
    #[schemars(range(min = 10, max = 5000))]
    #[schemars(extend("default" = 1000))]
    pub scan: Option<u32>,
    /// Kind of entity meant, for names.
    #[serde(default)]
    pub hint: Option<Hint>,
}

/// A ranked answer.
#[serde_with::skip_serializing_none]
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub(crate) struct QueryResult {
    /// The kind asked for.
    pub kind: String,
    /// The anchor, when one was given.
    pub entity: Option<QueriedEntity>,
    /// The associations of the top `limit` entities, in rank order, an entity's rows
    /// together.
    pub associations: Vec<Association>,
    /// Rows that passed every filter among those scanned.
    pub matched: u32,
    /// Rows examined.
    pub scanned: u32,
    /// True when every matching row upstream was examined, so the ranking is exact.
    pub complete: bool,
    /// The field ranked by (absent: upstream order).
    pub sorted_by: Option<String>,
    /// `asc` or `desc`.
    pub order: Option<String>,
    /// Each upstream query: returned rows, truncation, errors.
    pub datasets: Vec<DatasetReport>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
}

/// How a query's rows become associations.
#[derive(Debug, Clone, Copy)]
enum Rows {
    /// Edge rows of a data set.
    Edges(&'static Dataset),
    /// `/genes/coding-variants/scores` rows (a protein change, its variants, their
    /// scores), one association per variant and score.
    CodingScores,
    /// `/coding-variants/phenotypes` rows: one score of one protein change each.
    ChangeScores,
}

/// One upstream query of the plan.
#[derive(Debug)]
struct Query {
    request: Request,
    rows: Rows,
    /// The anchor the rows must involve (none for catalog-wide queries and term anchors
    /// expanded to genes or children, whose rows are checked by the request itself).
    subject: Option<Subject>,
    /// Whether the source filter went upstream (not repeated here).
    upstream_source: bool,
    /// A gene whose rows alone are kept (a gene's clinical variants by region).
    only_gene: Option<String>,
    /// The one method whose scores are kept (coding-variant rows carry every method's
    /// score of a variant).
    score_method: Option<String>,
}

impl Query {
    /// `request` with the filters its endpoint takes (see [`with_filters`]), read as
    /// `rows`, with no anchor check, gene restriction or score method yet.
    fn new(
        request: Request,
        rows: Rows,
        kind: Kind,
        method: Option<&str>,
        filters: &Filters,
        tissue_upstream: bool,
    ) -> Result<Self, ApiError> {
        let (request, upstream_source) =
            with_filters(request, kind, method, filters, tissue_upstream)?;
        Ok(Self {
            request,
            rows,
            subject: None,
            upstream_source,
            only_gene: None,
            score_method: None,
        })
    }
}

fn dataset(endpoint: Endpoint, from: EntityKind) -> &'static Dataset {
    DATASETS
        .iter()
        .find(|d| d.endpoint == endpoint && d.from == from)
        .unwrap_or(&DATASETS[0])
}

/// Catalog-wide QTL queries read edges from the variant side.
static VARIANT_GENES: &Dataset = &Dataset {
    endpoint: Endpoint::VariantsGenes,
    relationship: Relationship::Regulatory,
    from: EntityKind::Variant,
    to: "gene",
    description: "variant–gene QTLs",
};

/// The data set a kind reads when anchored on `from` (None: not anchorable there).
fn dataset_for(kind: Kind, from: EntityKind) -> Option<&'static Dataset> {
    use Endpoint as E;
    use EntityKind as K;
    let endpoint = match (kind, from) {
        (Kind::Eqtl | Kind::Sqtl, K::Gene) => E::GenesVariants,
        (Kind::Eqtl | Kind::Sqtl, K::Variant) => E::VariantsGenes,
        (Kind::ElementGene, K::Gene) => E::GenesGenomicElements,
        (Kind::Coexpression, K::Gene) => E::GenesGenes,
        (Kind::RegulatoryNetwork, K::Gene) => E::GeneRegulatoryNetwork,
        (Kind::Gwas, K::Variant) => E::VariantsPhenotypes,
        (Kind::Gwas, K::OntologyTerm) => E::PhenotypesVariants,
        (Kind::Clinical, K::Variant | K::Gene) => E::VariantsDiseases,
        (Kind::Clinical, K::OntologyTerm) => E::DiseasesVariants,
        (Kind::DiseaseGene, K::OntologyTerm) => E::DiseasesGenes,
        (Kind::DiseaseGene, K::Gene) => E::GenesDiseases,
        _ => return None,
    };
    let from = if endpoint == E::VariantsDiseases {
        K::Variant
    } else {
        from
    };
    Some(dataset(endpoint, from))
}

/// Whether the kind is read gene by gene (a term anchor then stands for its genes).
fn by_gene(kind: Kind) -> bool {
    matches!(
        kind,
        Kind::Eqtl
            | Kind::Sqtl
            | Kind::ElementGene
            | Kind::Coexpression
            | Kind::CodingVariantEffect
    )
}

impl IgvfServer {
    /// Top associations of one kind, ranked across upstream pages; `complete` says if
    /// every match was seen. No entity_id needed for eqtl/sqtl, nor for element_gene,
    /// gwas, coding_variant_effect with a method. A disease term covers its child terms.
    /// Example: `{"kind": "eqtl", "tissue": "liver", "limit": 5}`.
    #[tool(
        title = "Rank associations of one kind",
        annotations(read_only_hint = true, idempotent_hint = true, open_world_hint = true)
    )]
    pub(crate) async fn igvf_query_associations(
        &self,
        Parameters(args): Parameters<QueryAssociationsArgs>,
    ) -> Result<Json<QueryResult>, ApiError> {
        let args = args?;
        let kind = Kind::parse(&args.kind)?;
        let limit = in_range("limit", args.limit, 1, 100, 10)?;
        let scan = in_range("scan", args.scan, 10, 5000, 1000)?;
        let filters = Filters::checked(&args)?;
        let method = text(args.method.as_deref());
        let ask = Ask {
            kind,
            method: method.as_deref(),
            filters: &filters,
        };
        let client = &self.catalog;
        let entity = text(args.entity_id.as_deref());
        let mut plan = match &entity {
            None => Plan::catalog_wide(ask, &args.kind)?,
            Some(raw) => Plan::anchored(client, ask, raw, args.hint).await?,
        };
        let mut gathered = run::gather(client, plan.queries, &filters, scan).await?;
        // Nothing at all for an anchor taken as given: say so only if it exists.
        if gathered.scanned == 0
            && gathered.failed == 0
            && let Some((id, raw)) = &plan.unverified
            && let Some(not_found) = missing(client, id, raw).await
        {
            return Err(not_found);
        }
        let sort = args.sort_by.or(kind.default_sort());
        let ranked = rank::rank(
            std::mem::take(&mut gathered.associations),
            sort,
            args.order,
            limit,
            entity.is_some(),
            &mut plan.notes,
        );
        Ok(Json(answer(
            kind,
            plan.queried,
            ranked,
            gathered,
            plan.notes,
        )))
    }
}

/// The answer: the ranked rows, what was examined, and notes on failed queries and on
/// whether the ranking covered every match.
fn answer(
    kind: Kind,
    entity: Option<QueriedEntity>,
    ranked: Ranked,
    gathered: Gathered,
    mut notes: Vec<String>,
) -> QueryResult {
    let Gathered {
        reports,
        scanned,
        asked,
        failed,
        complete,
        ..
    } = gathered;
    if failed > 0 {
        notes.push(format!(
            "{failed} of {asked} upstream queries failed (see datasets[].error); the \
             ranking covers the others."
        ));
    }
    if !complete {
        notes.push(format!(
            "The ranking covers the first {scanned} row(s) examined, not every match: \
             raise 'scan' (up to 5000) or narrow with tissue, source or method."
        ));
    }
    QueryResult {
        kind: kind.as_str().to_owned(),
        entity,
        associations: ranked.associations,
        matched: u32::try_from(ranked.matched).unwrap_or(u32::MAX),
        scanned: u32::try_from(scanned).unwrap_or(u32::MAX),
        complete,
        sorted_by: ranked.sort.map(|s| s.as_str().to_owned()),
        order: ranked
            .order
            .map(|o| if o == Order::Asc { "asc" } else { "desc" }.to_owned()),
        datasets: reports,
        notes,
    }
}

/// An upstream answer this tool cannot use.
fn unreadable(endpoint: Endpoint, detail: &str) -> ApiError {
    ApiError::from_failure(
        "IGVF Catalog",
        UpstreamFailure::Decode {
            path: endpoint.path().to_owned(),
            detail: detail.to_owned(),
        },
        1,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `dataset` falls back to the first data set when a pair is missing: every pair
    /// this tool reads by must exist, so the fallback is never taken.
    #[test]
    fn every_data_set_this_tool_reads_exists() {
        use Endpoint as E;
        use EntityKind as K;
        let expected = [
            (Kind::Eqtl, K::Gene, E::GenesVariants, K::Gene),
            (Kind::Eqtl, K::Variant, E::VariantsGenes, K::Variant),
            (Kind::Sqtl, K::Gene, E::GenesVariants, K::Gene),
            (Kind::Sqtl, K::Variant, E::VariantsGenes, K::Variant),
            (Kind::ElementGene, K::Gene, E::GenesGenomicElements, K::Gene),
            (Kind::Coexpression, K::Gene, E::GenesGenes, K::Gene),
            (
                Kind::RegulatoryNetwork,
                K::Gene,
                E::GeneRegulatoryNetwork,
                K::Gene,
            ),
            (Kind::Gwas, K::Variant, E::VariantsPhenotypes, K::Variant),
            (
                Kind::Gwas,
                K::OntologyTerm,
                E::PhenotypesVariants,
                K::OntologyTerm,
            ),
            (Kind::Clinical, K::Variant, E::VariantsDiseases, K::Variant),
            (Kind::Clinical, K::Gene, E::VariantsDiseases, K::Variant),
            (
                Kind::Clinical,
                K::OntologyTerm,
                E::DiseasesVariants,
                K::OntologyTerm,
            ),
            (
                Kind::DiseaseGene,
                K::OntologyTerm,
                E::DiseasesGenes,
                K::OntologyTerm,
            ),
            (Kind::DiseaseGene, K::Gene, E::GenesDiseases, K::Gene),
        ];
        for (kind, from, endpoint, data_from) in expected {
            let d = dataset_for(kind, from).unwrap();
            assert_eq!(
                (d.endpoint, d.from),
                (endpoint, data_from),
                "{kind:?} from {from:?}"
            );
        }
        assert!(dataset_for(Kind::Coexpression, K::Variant).is_none());
        assert!(dataset_for(Kind::RegulatoryNetwork, K::OntologyTerm).is_none());
        for (endpoint, from) in [
            (E::GenesGenomicElements, K::Gene),
            (E::DiseasesGenes, K::OntologyTerm),
            (E::DiseasesVariants, K::OntologyTerm),
        ] {
            assert_eq!(dataset(endpoint, from).endpoint, endpoint);
        }
    }
}
