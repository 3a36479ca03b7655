//! Fanning a plan's queries out to the catalog: the scan budget shared between them,
//! each query paged, mapped to associations, checked against its anchor and filtered,
//! and the outcomes gathered with what they say about completeness and failures (one
//! `crate::reports::DatasetReport` per query).

use futures::future::join_all;
use lifesciences_core::ApiError;

use super::filters::Filters;
use super::scores::{change_association, coding_associations};
use super::{Query, Rows};
use crate::associations::{Association, Relationship, map_edge};
use crate::client::IgvfClient;
use crate::models::{ChangeScore, CodingScores, Edge};
use crate::reports::{DatasetError, DatasetReport};

/// What the queries of a plan gave together.
pub(super) struct Gathered {
    /// Every matching association, in query order.
    pub associations: Vec<Association>,
    /// One report per query.
    pub reports: Vec<DatasetReport>,
    /// Rows examined.
    pub scanned: usize,
    /// Queries sent, and how many failed.
    pub asked: usize,
    pub failed: usize,
    /// True when every query answered and none had more rows.
    pub complete: bool,
}

/// Run `queries` in parallel, `scan` rows shared between them. When every query failed,
/// the first failure is the answer.
pub(super) async fn gather(
    client: &IgvfClient,
    queries: Vec<Query>,
    filters: &Filters,
    scan: u32,
) -> Result<Gathered, ApiError> {
    let per_query = if queries.is_empty() {
        scan
    } else {
        (scan / u32::try_from(queries.len()).unwrap_or(u32::MAX)).max(1)
    };
    let outcomes = join_all(
        queries
            .into_iter()
            .map(|q| run(client, q, filters, per_query)),
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
    let mut associations: Vec<Association> = Vec::new();
    let mut reports = Vec::new();
    for o in outcomes {
        associations.extend(o.associations);
        reports.push(o.report);
    }
    Ok(Gathered {
        associations,
        reports,
        scanned,
        asked,
        failed,
        complete,
    })
}

/// What one query gave.
struct Outcome {
    report: DatasetReport,
    associations: Vec<Association>,
    scanned: usize,
    more: bool,
    error: Option<ApiError>,
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
