//! The filters of `igvf_query_associations`: checked once from the arguments, sent
//! upstream where a query's endpoint takes them (in the spec's spelling), and applied
//! here to every mapped row, because upstream matching is partial (a tissue matches
//! exact names only, QTL rows may lack the p-value field).

use lifesciences_core::ApiError;

use super::{Kind, QueryAssociationsArgs};
use crate::associations::Association;
use crate::client::{Endpoint, Request, quoted};

/// Checked filters.
#[derive(Debug, Default)]
pub(super) struct Filters {
    pub tissue: Option<String>,
    pub source: Option<String>,
    pub max_p: Option<f64>,
    pub min_score: Option<f64>,
    pub min_z: Option<f64>,
    pub max_z: Option<f64>,
}

/// An argument's text, trimmed; `None` when absent or blank.
pub(super) fn text(value: Option<&str>) -> Option<String> {
    value
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(str::to_owned)
}

impl Filters {
    /// The filters of `args`, refusing a p-value outside (0, 1] and a z-score range
    /// whose bounds are crossed.
    pub(super) fn checked(args: &QueryAssociationsArgs) -> Result<Self, ApiError> {
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
        Ok(Self {
            tissue: text(args.tissue.as_deref()),
            source: text(args.source.as_deref()),
            max_p: args.max_p_value,
            min_score: args.min_score,
            min_z: args.min_z_score,
            max_z: args.max_z_score,
        })
    }

    /// Every threshold, and the source when the upstream could not filter by it; the
    /// tissue always (upstream, where sent, it may match only exact names).
    pub(super) fn keeps(&self, a: &Association, local_source: bool) -> bool {
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
pub(super) fn with_filters(
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
