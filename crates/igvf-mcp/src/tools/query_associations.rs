//! `igvf_query_associations`: one kind of association, filtered and ranked in one call.
//!
//! Where `igvf_find_associations` surveys everything an entity is linked to, this tool
//! answers "the top N of one kind": it pages through the upstream (the catalog has no
//! sort parameter), applies thresholds upstream where the API takes them and here where
//! it does not, sorts by the field asked for, and says whether the ranking covered every
//! matching row. The anchor is optional where the API allows a query without one (QTLs
//! and element–gene links filtered by method or tissue); a disease or trait anchor also
//! covers the term's direct children, and stands for the term's genes on data sets that
//! are queried by gene.

use std::cmp::Ordering;

use futures::future::join_all;
use lifesciences_core::schemars::{self, JsonSchema};
use lifesciences_core::{ApiError, Parameters, UpstreamFailure, in_range, lenient};
use rmcp::{Json, tool, tool_router};
use serde::{Deserialize, Serialize};

use crate::associations::{
    Association, DATASETS, Dataset, EntityRef, Relationship, Subject, map_edge,
};
use crate::client::{Endpoint, IgvfClient, Request, VARIANT_REGION_MAX_BP, quoted};
use crate::ids::{EntityKind, Hint, Identifier, detect};
use crate::lookup::{Record, lookup};
use crate::models::{ChangeScore, CodingScores, Edge, TermChild};
use crate::server::IgvfServer;
use crate::tools::find_associations::{DatasetError, DatasetReport, QueriedEntity, subject};

/// Children of a disease or trait term covered besides the term itself.
const MAX_CHILDREN: u32 = 10;
/// Genes a disease or trait anchor stands for on data sets queried by gene.
const MAX_TERM_GENES: usize = 20;
/// 10 kb windows scanned for a gene's clinical variants (300 kb of sequence).
const MAX_WINDOWS: u64 = 30;
/// Sequence either side of a gene searched for its clinical variants (ClinGen names
/// the gene of variants just outside it too, e.g. downstream of its last exon).
const GENE_FLANK_BP: u64 = 10_000;

/// What to rank.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub(crate) enum Kind {
    /// Expression QTLs (variant → gene).
    Eqtl,
    /// Splicing QTLs.
    Sqtl,
    /// Regulatory element → gene links (ENCODE-rE2G, scE2G, CRISPR, Perturb-seq).
    ElementGene,
    /// Co-expressed genes (COXPRESdb).
    Coexpression,
    /// Genes whose expression changes when the gene is perturbed.
    RegulatoryNetwork,
    /// GWAS and other variant–trait associations.
    Gwas,
    /// ClinGen variant–disease assertions.
    Clinical,
    /// Coding-variant effect scores of a gene (SGE, VAMP-seq, ESM-1v, MutPred2…).
    CodingVariantEffect,
}

impl Kind {
    fn parse(raw: &str) -> Result<Self, ApiError> {
        let key = raw.trim().to_ascii_lowercase().replace(['-', ' '], "_");
        Ok(match key.as_str() {
            "eqtl" | "eqtls" => Self::Eqtl,
            "sqtl" | "sqtls" | "splice_qtl" | "spliceqtl" => Self::Sqtl,
            "element_gene" | "elements" | "enhancer_gene" | "genomic_element" => Self::ElementGene,
            "coexpression" | "co_expression" | "coexpressed" => Self::Coexpression,
            "regulatory_network" | "grn" | "perturbation" | "perturb_seq" => {
                Self::RegulatoryNetwork
            }
            "gwas" | "phenotype" | "trait" => Self::Gwas,
            "clinical" | "clingen" | "clinvar" => Self::Clinical,
            "coding_variant_effect" | "coding" | "mave" | "coding_variant" => {
                Self::CodingVariantEffect
            }
            _ => {
                return Err(ApiError::invalid_input(
                    format!("'{raw}' is not a kind of association this tool ranks."),
                    "Use one of 'eqtl', 'sqtl', 'element_gene', 'coexpression', \
                     'regulatory_network', 'gwas', 'clinical', 'coding_variant_effect'.",
                    raw,
                ));
            }
        })
    }

    fn as_str(self) -> &'static str {
        match self {
            Self::Eqtl => "eqtl",
            Self::Sqtl => "sqtl",
            Self::ElementGene => "element_gene",
            Self::Coexpression => "coexpression",
            Self::RegulatoryNetwork => "regulatory_network",
            Self::Gwas => "gwas",
            Self::Clinical => "clinical",
            Self::CodingVariantEffect => "coding_variant_effect",
        }
    }

    /// The entity kinds this kind can be anchored on, in words.
    fn anchors(self) -> &'static str {
        match self {
            Self::Eqtl | Self::Sqtl => "a gene, a variant, or a disease term (its genes)",
            Self::Clinical => "a variant, a disease term, or a gene (variants in its span)",
            Self::Gwas => "a variant or a trait/disease term",
            Self::ElementGene | Self::Coexpression => "a gene, or a disease term (its genes)",
            Self::CodingVariantEffect => {
                "a gene, a protein change ('XRCC2 p.Met1Ile'), or a disease term (its genes)"
            }
            Self::RegulatoryNetwork => "a gene (as the perturbed regulator)",
        }
    }

    /// The upstream `method` a kind fixes.
    fn fixed_method(self) -> Option<&'static str> {
        match self {
            Self::Eqtl => Some("eQTL"),
            Self::Sqtl => Some("spliceQTL"),
            _ => None,
        }
    }

    /// The sort applied when none is asked for.
    fn default_sort(self) -> Option<SortBy> {
        match self {
            Self::Eqtl | Self::Sqtl | Self::Gwas => Some(SortBy::PValue),
            Self::ElementGene => Some(SortBy::Score),
            Self::Coexpression => Some(SortBy::ZScore),
            Self::RegulatoryNetwork => Some(SortBy::AbsEffectSize),
            Self::Clinical | Self::CodingVariantEffect => None,
        }
    }
}

/// The field to rank by.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum SortBy {
    #[serde(alias = "pvalue", alias = "p")]
    PValue,
    Score,
    #[serde(alias = "zscore")]
    ZScore,
    EffectSize,
    AbsEffectSize,
}

impl SortBy {
    fn key(self, a: &Association) -> Option<f64> {
        match self {
            Self::PValue => a.p_value,
            Self::Score => a.score,
            Self::ZScore => a.z_score,
            Self::EffectSize => a.effect_size,
            Self::AbsEffectSize => a.effect_size.map(f64::abs),
        }
    }

    fn as_str(self) -> &'static str {
        match self {
            Self::PValue => "p_value",
            Self::Score => "score",
            Self::ZScore => "z_score",
            Self::EffectSize => "effect_size",
            Self::AbsEffectSize => "abs_effect_size",
        }
    }

    /// p-values rank ascending, everything else descending, unless told otherwise.
    fn default_order(self) -> Order {
        if self == Self::PValue {
            Order::Asc
        } else {
            Order::Desc
        }
    }
}

/// Sort direction.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Order {
    #[serde(alias = "ascending", alias = "ASC")]
    Asc,
    #[serde(alias = "descending", alias = "DESC")]
    Desc,
}

/// Arguments of `igvf_query_associations`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct QueryAssociationsArgs {
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
    /// Associations returned, 1–100.
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
pub struct QueryResult {
    /// The kind asked for.
    pub kind: String,
    /// The anchor, when one was given.
    pub entity: Option<QueriedEntity>,
    /// The top associations, in rank order.
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

/// A gene symbol and a protein change, `XRCC2 p.Met1Ile` or `CYP2C19:p.Ala103=`.
fn protein_change(raw: &str) -> Option<(String, String)> {
    let (gene, change) = raw.trim().split_once([' ', ':'])?;
    let change = change.trim();
    let ok_gene = !gene.is_empty()
        && gene.len() <= 20
        && gene.chars().all(|c| c.is_ascii_alphanumeric() || c == '-');
    let ok_change = change.len() > 3
        && change.starts_with("p.")
        && change[2..]
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '=' | '*' | '?' | '_'));
    (ok_gene && ok_change).then(|| (gene.to_ascii_uppercase(), change.to_owned()))
}

/// A score of one protein change: the change as source, its variant as target.
fn change_association(row: &ChangeScore) -> Option<Association> {
    let variant = row.variant.as_ref()?;
    Some(Association {
        source: row.source.clone(),
        evidence: row
            .phenotype
            .as_ref()
            .and_then(|p| p.phenotype_name.clone()),
        ..effect_score(
            EntityRef {
                id: row.coding_variant.id.clone(),
                kind: "coding_variant".to_owned(),
                name: row.coding_variant.hgvsp.clone(),
            },
            EntityRef {
                id: variant.key.clone(),
                kind: "variant".to_owned(),
                name: None,
            },
            row.coding_variant.hgvsp.clone(),
            row.method.clone(),
            row.score,
            Endpoint::CodingVariantsPhenotypes,
        )
    })
}

/// One association per variant and score of a protein change.
fn coding_associations(row: &CodingScores, gene: Option<&Subject>) -> Vec<Association> {
    let change = &row.protein_change;
    let source_entity = EntityRef {
        id: gene
            .and_then(|g| g.id.clone())
            .unwrap_or_else(|| change.protein_id.clone().unwrap_or_default()),
        kind: "gene".to_owned(),
        name: gene.and_then(|g| g.symbol.clone()),
    };
    let mut out = Vec::new();
    for v in &row.variants {
        let Some(variant) = v.variant.as_ref() else {
            continue;
        };
        for s in &v.scores {
            out.push(Association {
                evidence: change.transcript_id.clone(),
                ..effect_score(
                    source_entity.clone(),
                    EntityRef {
                        id: variant.key.clone(),
                        kind: "variant".to_owned(),
                        name: change.hgvsp.clone(),
                    },
                    change.hgvsp.clone(),
                    s.method.clone(),
                    s.score,
                    Endpoint::GenesCodingVariantScores,
                )
            });
        }
    }
    out
}

/// A coding-variant effect score as an association: the protein change as predicate,
/// the score as the effect and its method (an assay or predictor) as the measure.
fn effect_score(
    source_entity: EntityRef,
    target_entity: EntityRef,
    change: Option<String>,
    method: Option<String>,
    score: Option<f64>,
    endpoint: Endpoint,
) -> Association {
    Association {
        relationship: Relationship::Functional.as_str().to_owned(),
        relationship_type: "coding variant effect".to_owned(),
        predicate: change,
        source_entity,
        target_entity,
        source: None,
        method: method.clone(),
        p_value: None,
        neg_log10_p_value: None,
        effect_size: score,
        effect_size_measure: method,
        score: None,
        z_score: None,
        posterior_inclusion_probability: None,
        evidence_class: None,
        tissue: None,
        biosample: None,
        evidence: None,
        study: None,
        pmids: Vec::new(),
        dataset: format!("/{}", endpoint.path()),
    }
}

/// The term and its direct children (at most [`MAX_CHILDREN`]), and a note on the
/// expansion.
async fn term_and_children(client: &IgvfClient, term: &str) -> (Vec<String>, Option<String>) {
    let request = Request::new(Endpoint::OntologyTermChildren).path_id(term);
    let mut terms = vec![term.to_owned()];
    match client.fetch::<TermChild>(&request, MAX_CHILDREN).await {
        Ok(f) => {
            let n = f.items.len();
            terms.extend(f.items.into_iter().map(|c| c.term.term_id));
            let note = (n > 0).then(|| {
                format!(
                    "Covered the term and {n} direct child term(s){}.",
                    if f.more {
                        format!(" (the first {MAX_CHILDREN}; it has more)")
                    } else {
                        String::new()
                    }
                )
            });
            (terms, note)
        }
        Err(e) => {
            tracing::warn!(error = %e, "children of the term could not be read");
            (
                terms,
                Some(format!(
                    "The term's child terms could not be read ({}); only the term itself was covered.",
                    e.code()
                )),
            )
        }
    }
}

/// The genes associated with the terms (Orphanet, GenCC), at most [`MAX_TERM_GENES`].
async fn genes_of_terms(
    client: &IgvfClient,
    terms: &[String],
) -> Result<(Vec<String>, bool), ApiError> {
    let fetched = join_all(terms.iter().map(|t| {
        let request = Request::new(Endpoint::DiseasesGenes).param("disease_id", t.clone());
        async move { client.fetch::<Edge>(&request, 100).await }
    }))
    .await;
    let mut genes: Vec<String> = Vec::new();
    let mut more = false;
    let mut errors = Vec::new();
    for f in fetched {
        match f {
            Ok(f) => {
                more |= f.more;
                for edge in f.items {
                    if let Some(g) = edge.gene.as_ref().map(|g| g.key.clone())
                        && !genes.contains(&g)
                    {
                        genes.push(g);
                    }
                }
            }
            Err(e) => errors.push(e),
        }
    }
    if genes.is_empty()
        && let Some(e) = errors.into_iter().next()
    {
        return Err(e);
    }
    more |= genes.len() > MAX_TERM_GENES;
    genes.truncate(MAX_TERM_GENES);
    Ok((genes, more))
}

#[tool_router(router = query_associations_router, vis = "pub(crate)")]
impl IgvfServer {
    /// Top associations of one kind, filtered and sorted across upstream pages;
    /// `complete` says if every match was seen. Without entity_id: eqtl/sqtl by tissue,
    /// element_gene by method. A disease term covers its child terms and, for gene
    /// data, its genes. Example: `{"kind": "eqtl", "tissue": "liver", "limit": 5}`.
    #[tool(
        title = "Rank associations of one kind",
        annotations(read_only_hint = true, idempotent_hint = true, open_world_hint = true)
    )]
    pub async fn igvf_query_associations(
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
                // Catalog-wide: only where the API allows a query with no anchor.
                let (request, dataset) = match kind {
                    Kind::Eqtl | Kind::Sqtl if filters.tissue.is_some() => {
                        (Request::new(Endpoint::VariantsGenes), VARIANT_GENES)
                    }
                    Kind::ElementGene if method.is_some() => (
                        Request::new(Endpoint::GenesGenomicElements),
                        dataset(Endpoint::GenesGenomicElements, EntityKind::Gene),
                    ),
                    _ => {
                        return Err(ApiError::invalid_input(
                            format!(
                                "'{}' needs an entity_id: {}.",
                                kind.as_str(),
                                kind.anchors()
                            ),
                            "Catalog-wide queries work for 'eqtl'/'sqtl' with a tissue (e.g. \
                             'liver') and for 'element_gene' with a method.",
                            args.kind.clone(),
                        ));
                    }
                };
                let query = Query::new(
                    request,
                    Rows::Edges(dataset),
                    kind,
                    method.as_deref(),
                    &filters,
                    true,
                )?;
                notes.push(
                    "Catalog-wide query: the tissue is matched by the catalog as written \
                     (exact names such as 'liver'); results are the first rows it returns."
                        .to_owned(),
                );
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
                        let (terms, note) = term_and_children(client, &term_id).await;
                        notes.extend(note);
                        if by_gene(kind) {
                            let (genes, more) = genes_of_terms(client, &terms).await?;
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
        all.truncate(limit as usize);
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
    notes.push(format!(
        "ClinGen variants in {chr}:{start}-{end} (the gene and 10 kb either side) whose \
         assertion names the gene."
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

    #[test]
    fn protein_changes_are_a_symbol_and_an_hgvs_p() {
        assert_eq!(
            protein_change("xrcc2 p.Met1Ile"),
            Some(("XRCC2".to_owned(), "p.Met1Ile".to_owned()))
        );
        assert_eq!(
            protein_change("CYP2C19:p.Ala103="),
            Some(("CYP2C19".to_owned(), "p.Ala103=".to_owned()))
        );
        assert_eq!(protein_change("BRCA1"), None);
        assert_eq!(protein_change("BRCA1 c.68_69del"), None);
    }
}
