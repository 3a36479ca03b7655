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

mod by_entity;
mod catalog_wide;
mod kind;
mod scores;

use std::cmp::Ordering;

use futures::future::join_all;
use lifesciences_core::schemars::{self, JsonSchema};
use lifesciences_core::{ApiError, Parameters, UpstreamFailure, in_range, lenient};
use rmcp::{Json, tool};
use serde::{Deserialize, Serialize};

use crate::associations::{Association, DATASETS, Dataset, Relationship, Subject, map_edge};
use crate::client::{Endpoint, IgvfClient, Request, VARIANT_REGION_MAX_BP, quoted};
use crate::ids::{EntityKind, Hint, Identifier, detect};
use crate::lookup::{Record, lookup};
use crate::models::{ChangeScore, CodingScores, Edge};
use crate::region::interval;
use crate::server::IgvfServer;
use crate::terms::{self, MAX_TERM_GENES};
use crate::tools::find_associations::{DatasetError, DatasetReport, QueriedEntity, subject};
use kind::{Kind, Order, SortBy};
use scores::{change_association, coding_associations, protein_change};

/// 10 kb windows scanned for a gene's clinical variants (300 kb of sequence).
const MAX_WINDOWS: u64 = 30;
/// Sequence either side of a gene searched for its clinical variants (ClinGen names
/// the gene of variants just outside it too, e.g. downstream of its last exon).
const GENE_FLANK_BP: u64 = 10_000;

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

/// Checked filters.
#[derive(Debug, Default)]
struct Filters {
    tissue: Option<String>,
    source: Option<String>,
    max_p: Option<f64>,
    min_score: Option<f64>,
    min_z: Option<f64>,
    max_z: Option<f64>,
}

impl Filters {
    /// Every threshold, and the source when the upstream could not filter by it; the
    /// tissue always (upstream, where sent, it may match only exact names).
    fn keeps(&self, a: &Association, local_source: bool) -> bool {
        self.max_p.is_none_or(|max| a.p_value_at_most(max))
            && self
                .min_score
                .is_none_or(|min| a.score.is_some_and(|s| s >= min))
            && self
                .min_z
                .is_none_or(|min| a.z_score.is_some_and(|z| z >= min))
            && self
                .max_z
                .is_none_or(|max| a.z_score.is_some_and(|z| z <= max))
            && (!local_source || self.source.as_deref().is_none_or(|s| a.has_source(s)))
            && self.tissue.as_deref().is_none_or(|t| a.in_tissue(t))
    }
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

/// What one query gave.
struct Outcome {
    report: DatasetReport,
    associations: Vec<Association>,
    scanned: usize,
    more: bool,
    error: Option<ApiError>,
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

/// The spec's spelling of `value` among `param`'s values on `endpoint`, or the error
/// naming them. `Ok(None)` when the endpoint has no such enum (filtered here).
fn canonical(
    endpoint: Endpoint,
    param: &'static str,
    value: &str,
) -> Result<Option<String>, ApiError> {
    let values = endpoint.enum_values(param);
    if values.is_empty() || !endpoint.allowed().contains(&param) {
        return Ok(None);
    }
    values
        .iter()
        .find(|v| v.eq_ignore_ascii_case(value.trim()))
        .cloned()
        .map(Some)
        .ok_or_else(|| {
            ApiError::invalid_input(
                format!("'{value}' is not a {param} of /{}.", endpoint.path()),
                format!("Valid values: {}.", quoted(values)),
                value,
            )
        })
}

/// Add the filters a request's endpoint takes; returns whether the source went upstream.
/// The tissue goes upstream only on catalog-wide queries (`tissue_upstream`), where it
/// is the anchor; it is always checked here too, as text contained in the row's tissue.
fn with_filters(
    mut request: Request,
    kind: Kind,
    method: Option<&str>,
    filters: &Filters,
    tissue_upstream: bool,
) -> Result<(Request, bool), ApiError> {
    let endpoint = request.endpoint();
    if let Some(m) = kind.fixed_method() {
        if let Some(given) = method {
            return Err(ApiError::invalid_input(
                format!("'{}' fixes the method ({m}).", kind.as_str()),
                "Leave 'method' out, or use another kind.",
                given,
            ));
        }
        request = request.param("method", m);
    } else if let Some(m) = method {
        match canonical(endpoint, "method", m)? {
            Some(value) => request = request.param("method", value).input("method", m),
            None => {
                return Err(ApiError::invalid_input(
                    format!("'{}' data take no method filter.", kind.as_str()),
                    "Leave 'method' out for this kind.",
                    m,
                ));
            }
        }
    }
    let mut upstream_source = false;
    if let Some(s) = &filters.source
        && let Some(value) = canonical(endpoint, "source", s)?
    {
        request = request.param("source", value).input("source", s.clone());
        upstream_source = true;
    }
    if kind == Kind::Coexpression {
        // The only data set of co-expression.
        request = request.param("source", "COXPRESdb");
        upstream_source = filters.source.is_none();
        // One bound goes upstream (the parameter takes one operator); both are
        // checked here.
        if let Some(min) = filters.min_z {
            request = request.param("z_score", format!("gte:{min}"));
        } else if let Some(max) = filters.max_z {
            request = request.param("z_score", format!("lte:{max}"));
        }
    }
    if let Some(p) = filters.max_p
        && p < 1.0
        && matches!(
            endpoint,
            Endpoint::VariantsPhenotypes | Endpoint::PhenotypesVariants
        )
    {
        // GWAS rows carry neg_log10_pvalue (QTL rows may not: filtered here).
        request = request.param("neg_log10_pvalue", format!("gte:{}", -p.log10()));
    }
    if tissue_upstream
        && let Some(t) = &filters.tissue
        && endpoint.allowed().contains(&"biological_context")
    {
        request = request.param("biological_context", t.clone());
    }
    Ok((request, upstream_source))
}

/// Run one query: fetch up to `want` rows, map, check, filter.
async fn run(client: &IgvfClient, query: Query, filters: &Filters, want: u32) -> Outcome {
    let mut report = DatasetReport {
        dataset: format!("/{}", query.request.path()),
        relationship: match query.rows {
            Rows::Edges(d) => d.relationship.as_str().to_owned(),
            Rows::CodingScores | Rows::ChangeScores => Relationship::Functional.as_str().to_owned(),
        },
        returned: 0,
        truncated: false,
        note: None,
        error: None,
    };
    let fail = |mut report: DatasetReport, e: ApiError| {
        report.error = Some(DatasetError::of(&e));
        Outcome {
            report,
            associations: Vec::new(),
            scanned: 0,
            more: false,
            error: Some(e),
        }
    };
    let local_source = filters.source.is_some() && !query.upstream_source;
    let (mapped, scanned, more) = match query.rows {
        Rows::Edges(d) => match client.fetch::<Edge>(&query.request, want).await {
            Err(e) => return fail(report, e),
            Ok(f) => {
                let scanned = f.items.len();
                let mapped: Vec<Association> = f
                    .items
                    .into_iter()
                    .filter(|e| {
                        query.only_gene.as_deref().is_none_or(|g| {
                            e.gene_id
                                .as_ref()
                                .or(e.gene.as_ref())
                                .is_some_and(|n| n.key.eq_ignore_ascii_case(g))
                        })
                    })
                    .filter_map(|e| map_edge(d, query.subject.as_ref(), e))
                    .collect();
                (mapped, scanned, f.more)
            }
        },
        Rows::ChangeScores => match client.fetch::<ChangeScore>(&query.request, want).await {
            Err(e) => return fail(report, e),
            Ok(f) => {
                let scanned = f.items.len();
                let mapped = f.items.iter().filter_map(change_association).collect();
                (mapped, scanned, f.more)
            }
        },
        Rows::CodingScores => match client.fetch::<CodingScores>(&query.request, want).await {
            Err(e) => return fail(report, e),
            Ok(f) => {
                let scanned = f.items.len();
                let gene = query.subject.as_ref();
                let mapped = f
                    .items
                    .iter()
                    .flat_map(|row| coding_associations(row, gene))
                    .filter(|a| {
                        query.score_method.as_deref().is_none_or(|m| {
                            a.method
                                .as_deref()
                                .is_some_and(|x| x.eq_ignore_ascii_case(m))
                        })
                    })
                    .collect();
                (mapped, scanned, f.more)
            }
        },
    };
    let kept: Vec<Association> = mapped
        .into_iter()
        .filter(|a| filters.keeps(a, local_source))
        .map(|mut a| {
            // The endpoint asked, whichever side's mapping was used.
            a.dataset = format!("/{}", query.request.endpoint().path());
            a
        })
        .collect();
    report.returned = u32::try_from(kept.len()).unwrap_or(u32::MAX);
    report.truncated = more;
    Outcome {
        report,
        associations: kept,
        scanned,
        more,
        error: None,
    }
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
        let text = |v: &Option<String>| {
            v.as_deref()
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(str::to_owned)
        };
        if let Some(p) = args.max_p_value
            && !(p > 0.0 && p <= 1.0)
        {
            return Err(ApiError::invalid_input(
                format!("'max_p_value' must be above 0 and at most 1; got {p}."),
                "Give the largest p-value to keep, e.g. 5e-8.",
                p.to_string(),
            ));
        }
        if let (Some(lo), Some(hi)) = (args.min_z_score, args.max_z_score)
            && lo > hi
        {
            return Err(ApiError::invalid_input(
                format!("'min_z_score' ({lo}) is above 'max_z_score' ({hi})."),
                "Give min_z_score ≤ max_z_score, or only one of them.",
                lo.to_string(),
            ));
        }
        let filters = Filters {
            tissue: text(&args.tissue),
            source: text(&args.source),
            max_p: args.max_p_value,
            min_score: args.min_score,
            min_z: args.min_z_score,
            max_z: args.max_z_score,
        };
        let method = text(&args.method);
        let entity = text(&args.entity_id);
        let client = &self.catalog;
        let mut notes: Vec<String> = Vec::new();
        let mut queried: Option<QueriedEntity> = None;
        let mut queries: Vec<Query> = Vec::new();
        // An anchor taken as given (not looked up): checked to exist when nothing answers.
        let mut unverified: Option<(Identifier, String)> = None;
        match &entity {
            None => {
                // No anchor: sent wherever the spec says the endpoint answers these filters.
                let query = catalog_wide::query(kind, method.as_deref(), &filters, &args.kind)?;
                notes.push(format!(
                    "No entity: the catalog's first rows of /{} for these filters are ranked \
                     (a tissue is matched by the catalog, exact names first, and checked here \
                     as contained text).",
                    query.request.path()
                ));
                queries.push(query);
            }
            Some(raw) if kind == Kind::CodingVariantEffect && protein_change(raw).is_some() => {
                let (gene, change) = protein_change(raw).unwrap_or_default();
                queried = Some(QueriedEntity {
                    input: raw.clone(),
                    kind: EntityKind::Gene,
                    detected_as: "protein change".to_owned(),
                    id: None,
                    symbol: Some(gene.clone()),
                });
                queries.push(Query::new(
                    Request::new(Endpoint::CodingVariantsPhenotypes)
                        .param("gene_name", gene)
                        .param("hgvsp", change),
                    Rows::ChangeScores,
                    kind,
                    method.as_deref(),
                    &filters,
                    false,
                )?);
            }
            Some(raw) => {
                let id = detect(raw, args.hint)?;
                let from = id.kind();
                let term = from == EntityKind::OntologyTerm;
                let anchorable = dataset_for(kind, from).is_some()
                    || (kind == Kind::CodingVariantEffect && from == EntityKind::Gene)
                    || (term && by_gene(kind));
                let not_anchorable = || {
                    ApiError::invalid_input(
                        format!("'{}' cannot be anchored on a {from}.", kind.as_str()),
                        format!("Give {}.", kind.anchors()),
                        raw.clone(),
                    )
                };
                if !anchorable {
                    return Err(not_anchorable());
                }
                if kind == Kind::Clinical && from == EntityKind::Gene {
                    // One look-up: the gene's record, for its coordinates and its ID.
                    let found = lookup(client, &id, raw).await?;
                    let Record::Gene(gene) = found.best else {
                        return Err(ApiError::unresolved(
                            format!("'{raw}' did not resolve to a gene."),
                            "Give the gene's symbol or ENSG ID.",
                            raw.clone(),
                        ));
                    };
                    queried = Some(QueriedEntity {
                        input: raw.clone(),
                        kind: from,
                        detected_as: id.form().to_owned(),
                        id: Some(gene.id.clone()),
                        symbol: gene.name.clone(),
                    });
                    notes.extend(clinical_windows(
                        &gene,
                        kind,
                        method.as_deref(),
                        &filters,
                        &mut queries,
                    )?);
                } else {
                    let (subject, _) = subject(client, &id, raw, &[]).await?;
                    if !subject.verified {
                        unverified = Some((id.clone(), raw.clone()));
                    }
                    queried = Some(QueriedEntity {
                        input: raw.clone(),
                        kind: from,
                        detected_as: id.form().to_owned(),
                        id: subject.id.clone().map(|i| match from {
                            EntityKind::OntologyTerm => crate::ids::ontology_curie(&i),
                            _ => i,
                        }),
                        symbol: subject.symbol.clone(),
                    });
                    if term {
                        let term_id = subject.id.clone().unwrap_or_else(|| id.value());
                        let expansion = terms::expand(client, &term_id).await;
                        // Which terms, and whether the children were cut, go in the notes:
                        // each row's source entity names the term it came from.
                        notes.extend(expansion.note.clone());
                        let terms = expansion.terms;
                        if by_gene(kind) {
                            let (genes, more) = terms::genes_of_terms(client, &terms).await?;
                            if genes.is_empty() {
                                notes.push(
                                    "The catalog associates no gene with the term or its children."
                                        .to_owned(),
                                );
                            } else {
                                notes.push(format!(
                                    "Ranked over the term's genes: {}{}.",
                                    genes.len(),
                                    if more {
                                        format!(" (the first {MAX_TERM_GENES})")
                                    } else {
                                        String::new()
                                    }
                                ));
                            }
                            for g in genes {
                                let gene = Subject::unresolved(
                                    Identifier::EnsemblGene {
                                        id: g.clone(),
                                        organism: crate::ids::Organism::Human,
                                    },
                                    Some(g),
                                );
                                queries.push(gene_query(kind, gene, method.as_deref(), &filters)?);
                            }
                        } else {
                            let d = dataset_for(kind, from).ok_or_else(not_anchorable)?;
                            let name = if d.endpoint == Endpoint::PhenotypesVariants {
                                "phenotype_id"
                            } else {
                                "disease_id"
                            };
                            for t in terms {
                                queries.push(Query::new(
                                    Request::new(d.endpoint).param(name, t),
                                    Rows::Edges(d),
                                    kind,
                                    method.as_deref(),
                                    &filters,
                                    false,
                                )?);
                            }
                        }
                    } else if from == EntityKind::Gene {
                        queries.push(gene_query(kind, subject, method.as_deref(), &filters)?);
                    } else {
                        let d = dataset_for(kind, from).ok_or_else(not_anchorable)?;
                        let Some((name, value)) = subject.param(d.endpoint) else {
                            return Err(ApiError::invalid_input(
                                format!(
                                    "'{}' cannot be queried by this {}.",
                                    kind.as_str(),
                                    id.form()
                                ),
                                format!("Give {}.", kind.anchors()),
                                raw.clone(),
                            ));
                        };
                        let mut query = Query::new(
                            Request::new(d.endpoint).param(name, value),
                            Rows::Edges(d),
                            kind,
                            method.as_deref(),
                            &filters,
                            false,
                        )?;
                        query.subject = Some(subject);
                        queries.push(query);
                    }
                }
            }
        }
        let per_query = if queries.is_empty() {
            scan
        } else {
            (scan / u32::try_from(queries.len()).unwrap_or(u32::MAX)).max(1)
        };
        let outcomes = join_all(
            queries
                .into_iter()
                .map(|q| run(client, q, &filters, per_query)),
        )
        .await;
        let asked = outcomes.len();
        let failed = outcomes.iter().filter(|o| o.error.is_some()).count();
        if asked > 0
            && failed == asked
            && let Some(first) = outcomes.iter().find_map(|o| o.error.clone())
        {
            return Err(first);
        }
        let complete = outcomes.iter().all(|o| !o.more && o.error.is_none());
        let scanned: usize = outcomes.iter().map(|o| o.scanned).sum();
        // Nothing at all for an anchor taken as given: say so only if it exists.
        if scanned == 0
            && failed == 0
            && let Some((id, raw)) = &unverified
        {
            match lookup(client, id, raw).await {
                Err(e) if e.code() == lifesciences_core::ErrorCode::EntityNotFound => {
                    return Err(e);
                }
                Err(e) => tracing::warn!(error = %e, "could not check that the entity exists"),
                Ok(_) => {}
            }
        }
        let mut all: Vec<Association> = Vec::new();
        let mut reports = Vec::new();
        for o in outcomes {
            all.extend(o.associations);
            reports.push(o.report);
        }
        let sort = args.sort_by.or(kind.default_sort());
        let order = sort.map(|s| args.order.unwrap_or(s.default_order()));
        if let (Some(sort), Some(order)) = (sort, order) {
            let missing = all.iter().filter(|a| sort.key(a).is_none()).count();
            all.sort_by(|a, b| match (sort.key(a), sort.key(b)) {
                (Some(x), Some(y)) => {
                    let o = x.partial_cmp(&y).unwrap_or(Ordering::Equal);
                    if order == Order::Asc { o } else { o.reverse() }
                }
                (Some(_), None) => Ordering::Less,
                (None, Some(_)) => Ordering::Greater,
                (None, None) => Ordering::Equal,
            });
            if missing > 0 {
                notes.push(format!(
                    "{missing} matching row(s) have no {} and rank last.",
                    sort.as_str()
                ));
            }
        }
        let matched = all.len();
        // `limit` counts entities: the first `limit` in rank order, each with all its rows.
        let kept = by_entity::first_entities(all, limit as usize, entity.is_some());
        if kept.rows.len() > kept.entities || kept.matched_entities > kept.entities {
            notes.push(format!(
                "{} distinct entit{} matched; the first {} are returned with all their rows \
                 ({} association(s)).",
                kept.matched_entities,
                if kept.matched_entities == 1 {
                    "y"
                } else {
                    "ies"
                },
                kept.entities,
                kept.rows.len()
            ));
        }
        let all = kept.rows;
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
        Ok(Json(QueryResult {
            kind: kind.as_str().to_owned(),
            entity: queried,
            associations: all,
            matched: u32::try_from(matched).unwrap_or(u32::MAX),
            scanned: u32::try_from(scanned).unwrap_or(u32::MAX),
            complete,
            sorted_by: sort.map(|s| s.as_str().to_owned()),
            order: order.map(|o| if o == Order::Asc { "asc" } else { "desc" }.to_owned()),
            datasets: reports,
            notes,
        }))
    }
}

/// The query of a gene-anchored kind for one gene.
fn gene_query(
    kind: Kind,
    gene: Subject,
    method: Option<&str>,
    filters: &Filters,
) -> Result<Query, ApiError> {
    let (request, rows) = if kind == Kind::CodingVariantEffect {
        let Some((name, value)) = gene.param(Endpoint::GenesCodingVariantScores) else {
            return Err(unreadable(Endpoint::Genes, "the gene has no Ensembl ID"));
        };
        (
            Request::new(Endpoint::GenesCodingVariantScores).param(name, value),
            Rows::CodingScores,
        )
    } else {
        let Some(d) = dataset_for(kind, EntityKind::Gene) else {
            return Err(ApiError::invalid_input(
                format!("'{}' cannot be anchored on a gene.", kind.as_str()),
                format!("Give {}.", kind.anchors()),
                kind.as_str(),
            ));
        };
        let Some((name, value)) = gene.param(d.endpoint) else {
            return Err(unreadable(Endpoint::Genes, "the gene has no Ensembl ID"));
        };
        (Request::new(d.endpoint).param(name, value), Rows::Edges(d))
    };
    let mut query = Query::new(request, rows, kind, method, filters, false)?;
    query.subject = Some(gene);
    query.score_method = method.map(str::to_owned);
    Ok(query)
}

/// A gene's clinical variants: `/variants/diseases` by region, in 10 kb windows over the
/// gene and [`GENE_FLANK_BP`] either side (at most [`MAX_WINDOWS`]), keeping the rows
/// whose assertion names the gene. Returns the notes to give.
fn clinical_windows(
    gene: &crate::models::Gene,
    kind: Kind,
    method: Option<&str>,
    filters: &Filters,
    queries: &mut Vec<Query>,
) -> Result<Vec<String>, ApiError> {
    let (Some(chr), Some(start), Some(end)) = (gene.chr.clone(), gene.start, gene.end) else {
        return Err(unreadable(
            Endpoint::Genes,
            "the gene record has no coordinates",
        ));
    };
    let (start, end) = (start.saturating_sub(GENE_FLANK_BP), end + GENE_FLANK_BP);
    let windows = end
        .saturating_sub(start)
        .div_ceil(VARIANT_REGION_MAX_BP)
        .max(1);
    let mut notes = Vec::new();
    if windows > MAX_WINDOWS {
        notes.push(format!(
            "The gene and its flanks span {} kb; the first {} kb were searched.",
            (end - start) / 1000,
            MAX_WINDOWS * VARIANT_REGION_MAX_BP / 1000
        ));
    }
    // The windows are the catalog's own coordinates, from its gene record to its
    // `/variants/diseases`: never shown, never converted. The note is shown: 1-based.
    notes.push(format!(
        "ClinGen variants in {} (the gene and 10 kb either side) whose assertion names the \
         gene.",
        interval(&chr, start, end)
    ));
    // Mapped as a disease's variants: the variant is the other side.
    let d = dataset(Endpoint::DiseasesVariants, EntityKind::OntologyTerm);
    for w in 0..windows.min(MAX_WINDOWS) {
        let a = start + w * VARIANT_REGION_MAX_BP;
        let b = (a + VARIANT_REGION_MAX_BP).min(end);
        let mut query = Query::new(
            Request::new(Endpoint::VariantsDiseases).param("region", format!("{chr}:{a}-{b}")),
            Rows::Edges(d),
            kind,
            method,
            filters,
            false,
        )?;
        query.only_gene = Some(gene.id.clone());
        queries.push(query);
    }
    Ok(notes)
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
