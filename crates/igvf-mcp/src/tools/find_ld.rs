//! `igvf_find_ld`: variants in linkage disequilibrium with a variant (TopLD), by r², D′
//! and ancestry.

use lifesciences_core::schemars::{self, JsonSchema};
use lifesciences_core::{ApiError, Parameters, in_range, lenient};
use rmcp::{Json, tool};
use serde::{Deserialize, Serialize};

use crate::associations::Subject;
use crate::client::{Endpoint, Request, quoted};
use crate::ids::{EntityKind, Hint, Identifier, detect};
use crate::lookup::missing;
use crate::models::LdEdge;
use crate::region::one_based;
use crate::server::IgvfServer;

/// Arguments of `igvf_find_ld`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct FindLdArgs {
    /// The variant: rsID (`rs60960132`), SPDI (`NC_000011.10:9083634:A:T`), genomic HGVS
    /// (`NC_000011.10:g.9083635A>T`) or ClinGen allele ID (`CA217534780`).
    pub variant_id: String,
    /// Minimum r² with the variant, 0–1.
    #[serde(default, deserialize_with = "lenient::opt_f64")]
    #[schemars(range(min = 0, max = 1))]
    #[schemars(extend("default" = 0.8))]
    pub r2_threshold: Option<f64>,
    /// Optional minimum D′, 0–1.
    #[serde(default, deserialize_with = "lenient::opt_f64")]
    #[schemars(range(min = 0, max = 1))]
    pub d_prime_threshold: Option<f64>,
    /// The TopLD population: `AFR`, `EAS`, `EUR` (default) or `SAS`. TopLD has no `AMR`.
    #[serde(default)]
    #[schemars(extend("default" = "EUR"))]
    pub ancestry: Option<String>,
    /// Maximum variants, 1–500.
    #[serde(default, deserialize_with = "lenient::opt_u32")]
    #[schemars(range(min = 1, max = 500))]
    #[schemars(extend("default" = 25))]
    pub limit: Option<u32>,
}

/// A variant in LD with the query variant.
#[serde_with::skip_serializing_none]
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub(crate) struct LdPartner {
    /// The catalog's variant ID.
    pub spdi: Option<String>,
    pub rsid: Option<String>,
    /// Genomic HGVS.
    pub hgvs: Option<String>,
    /// 1-based position, as in VCF and Ensembl (`spdi` keeps its 0-based one).
    pub position: Option<u64>,
    pub r2: Option<f64>,
    pub d_prime: Option<f64>,
    pub ancestry: Option<String>,
}

/// The LD neighbourhood of a variant.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub(crate) struct LdResult {
    /// The variant, as given.
    pub variant: String,
    /// How it was read (rsID, SPDI, genomic HGVS, ClinGen allele ID).
    pub detected_as: String,
    pub ancestry: String,
    /// Applied as r² ≥ this.
    pub r2_threshold: f64,
    /// Applied as D′ ≥ this, when given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub d_prime_threshold: Option<f64>,
    /// Variants in LD, highest r² first (see `notes` when more exist than were read).
    pub ld: Vec<LdPartner>,
    /// True when more variants pass the thresholds than `limit`.
    pub truncated: bool,
    /// TopLD.
    pub source: String,
    /// What was left out or how the order is bounded.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
}

fn threshold(
    name: &str,
    value: Option<f64>,
    default: Option<f64>,
) -> Result<Option<f64>, ApiError> {
    match value.or(default) {
        Some(v) if !(0.0..=1.0).contains(&v) => Err(ApiError::invalid_input(
            format!("Argument '{name}' must be between 0 and 1; got {v}."),
            format!("Use a value from 0 to 1 (e.g. 0.8), or omit '{name}'."),
            v.to_string(),
        )),
        other => Ok(other),
    }
}

/// Which side of an LD edge is the query: `Some(true)` the first, `Some(false)` the
/// second, `None` when neither side carries the query's rsID, SPDI or HGVS (a ClinGen ID
/// is never on an edge; anything else means the edge is not the query's).
fn query_side(edge: &LdEdge, query: &Identifier) -> Option<bool> {
    let value = query.value();
    let is = |rsid: &Option<String>, spdi: &Option<String>, hgvs: &Option<String>| {
        [rsid, spdi, hgvs]
            .iter()
            .any(|v| v.as_deref().is_some_and(|v| v.eq_ignore_ascii_case(&value)))
    };
    let first = is(
        &edge.variant_1_rsid,
        &edge.variant_1_spdi,
        &edge.variant_1_hgvs,
    );
    let second = is(
        &edge.variant_2_rsid,
        &edge.variant_2_spdi,
        &edge.variant_2_hgvs,
    );
    match (first, second) {
        (true, false) => Some(true),
        (false, true) => Some(false),
        _ => None,
    }
}

/// The partner of the query in an LD edge: the side that is not the query, or, when the
/// query is on neither side (a ClinGen ID), the edge's `sequence_variant` (with verbose
/// off it names the partner).
fn partner(edge: &LdEdge, query: &Identifier) -> LdPartner {
    let partner_is_first = match query_side(edge, query) {
        Some(first_is_query) => !first_is_query,
        None => edge
            .sequence_variant
            .as_ref()
            .is_none_or(|n| edge.variant_1_spdi.as_deref() == Some(n.key.as_str())),
    };
    let (rsid, spdi, hgvs, position) = if partner_is_first {
        (
            &edge.variant_1_rsid,
            &edge.variant_1_spdi,
            &edge.variant_1_hgvs,
            edge.variant_1_pos,
        )
    } else {
        (
            &edge.variant_2_rsid,
            &edge.variant_2_spdi,
            &edge.variant_2_hgvs,
            edge.variant_2_pos,
        )
    };
    LdPartner {
        spdi: spdi.clone(),
        rsid: rsid.clone(),
        hgvs: hgvs.clone(),
        position: position.map(one_based),
        r2: edge.r2,
        d_prime: edge.d_prime,
        ancestry: edge.ancestry.clone(),
    }
}

/// What identifies a partner across rows: its SPDI, else its rsID, else its HGVS.
fn partner_key(p: &LdPartner) -> Option<String> {
    p.spdi
        .as_ref()
        .or(p.rsid.as_ref())
        .or(p.hgvs.as_ref())
        .map(|k| k.to_ascii_lowercase())
}

/// Whether an edge passes the thresholds (checked here too: the upstream's filter is
/// not trusted, and a row without the value cannot be shown to pass).
fn passes(edge: &LdEdge, r2: f64, d_prime: Option<f64>) -> bool {
    edge.r2.is_some_and(|v| v >= r2) && d_prime.is_none_or(|d| edge.d_prime.is_some_and(|v| v >= d))
}

/// The query variant; anything else is refused with the variant forms and where to go
/// for a gene's or region's variants.
fn variant(raw: &str) -> Result<Identifier, ApiError> {
    if let Ok(other) = detect(raw, None)
        && other.kind() != EntityKind::Variant
    {
        return Err(ApiError::unresolved(
            format!(
                "igvf_find_ld needs a variant; '{raw}' looks like a {} ({}).",
                other.form(),
                other.kind()
            ),
            format!(
                "Pass a variant: {}. For the variants of a gene use igvf_find_associations \
                 (relationship 'regulatory'); for those of a region, igvf_search_region.",
                crate::ids::forms_of(EntityKind::Variant)
            ),
            raw,
        ));
    }
    detect(raw, Some(Hint::Variant))
}

impl IgvfServer {
    /// Find variants in linkage disequilibrium with a variant (TopLD), at or above an r²
    /// threshold and optional D′, in one population.
    /// Example: `{"variant_id": "rs60960132", "r2_threshold": 0.2, "ancestry": "EUR"}`.
    #[tool(
        title = "Find variants in linkage disequilibrium",
        annotations(read_only_hint = true, idempotent_hint = true, open_world_hint = true)
    )]
    pub(crate) async fn igvf_find_ld(
        &self,
        Parameters(args): Parameters<FindLdArgs>,
    ) -> Result<Json<LdResult>, ApiError> {
        let args = args?;
        let id = variant(&args.variant_id)?;
        let r2 = threshold("r2_threshold", args.r2_threshold, Some(0.8))?.unwrap_or(0.8);
        let d_prime = threshold("d_prime_threshold", args.d_prime_threshold, None)?;
        let limit = in_range("limit", args.limit, 1, 500, 25)?;
        // The populations are the spec's own enum (AFR, EAS, EUR, SAS).
        let accepted = Endpoint::VariantLd.enum_values("ancestry");
        let ancestry = match args.ancestry.as_deref().map(str::trim) {
            None | Some("") => "EUR".to_owned(),
            Some(raw) => accepted
                .iter()
                .find(|a| a.eq_ignore_ascii_case(raw))
                .cloned()
                .ok_or_else(|| {
                    ApiError::invalid_input(
                        format!("TopLD has no LD for ancestry '{raw}' in the IGVF Catalog."),
                        format!("Use one of {}.", quoted(accepted)),
                        raw,
                    )
                })?,
        };
        let subject = Subject::unresolved(id.clone(), None);
        let (name, value) = subject
            .param(Endpoint::VariantLd)
            .unwrap_or(("variant_id", id.value()));
        let mut request = Request::new(Endpoint::VariantLd)
            .param(name, value)
            .param("r2", format!("gte:{r2}"))
            .input("r2", r2.to_string())
            .param("ancestry", ancestry.clone());
        if let Some(raw) = &args.ancestry {
            request = request.input("ancestry", raw.clone());
        }
        if let Some(d) = d_prime {
            request = request
                .param("d_prime", format!("gte:{d}"))
                .input("d_prime", d.to_string());
        }
        let client = &self.catalog;
        // "Highest r² first" must hold across what is returned, so the order is taken
        // over every row: when more than `limit` exist, read up to the page cap.
        let cap = Endpoint::VariantLd.page_cap();
        let mut fetched = client.fetch::<LdEdge>(&request, limit).await?;
        if fetched.more && limit < cap {
            fetched = client.fetch::<LdEdge>(&request, cap).await?;
        }
        let scanned = fetched.items.len();
        // Nothing in LD, or no such variant: tell them apart with one lookup.
        if scanned == 0
            && let Some(not_found) = missing(client, &id, &args.variant_id).await
        {
            return Err(not_found);
        }
        let source = fetched
            .items
            .iter()
            .find_map(|e| e.source.clone())
            .unwrap_or_else(|| "TopLD".to_owned());
        let checkable = !matches!(id, Identifier::ClinGen(_));
        let (mut unrelated, mut below) = (0usize, 0usize);
        let mut ld: Vec<LdPartner> = Vec::new();
        for edge in &fetched.items {
            if checkable && query_side(edge, &id).is_none() {
                unrelated += 1;
            } else if !passes(edge, r2, d_prime) {
                below += 1;
            } else {
                ld.push(partner(edge, &id));
            }
        }
        ld.sort_by(|a, b| {
            b.r2.unwrap_or(f64::NEG_INFINITY)
                .total_cmp(&a.r2.unwrap_or(f64::NEG_INFINITY))
        });
        // `limit` counts variants: a partner on several rows (both orientations of the
        // pair) is listed once, with its highest r².
        let rows = ld.len();
        let mut seen: Vec<String> = Vec::new();
        ld.retain(|p| match partner_key(p) {
            Some(key) if seen.contains(&key) => false,
            Some(key) => {
                seen.push(key);
                true
            }
            None => true,
        });
        let merged = rows - ld.len();
        let truncated = ld.len() > limit as usize || fetched.more;
        ld.truncate(limit as usize);
        let mut notes = Vec::new();
        if unrelated > 0 {
            tracing::warn!(
                unrelated,
                "IGVF Catalog returned LD edges of another variant"
            );
            notes.push(format!(
                "{unrelated} record(s) that do not involve the variant were left out."
            ));
        }
        if merged > 0 {
            notes.push(format!(
                "{merged} record(s) naming a variant already listed were merged into it \
                 (its highest r² is shown)."
            ));
        }
        if below > 0 {
            notes.push(format!(
                "{below} record(s) below the r²/D′ thresholds (or without the value) were left out."
            ));
        }
        if fetched.more {
            notes.push(format!(
                "More than {scanned} records exist; the order (highest r² first) is among \
                 the first {scanned} the catalog returned. Raise the thresholds to see the \
                 strongest LD completely."
            ));
        }
        Ok(Json(LdResult {
            variant: args.variant_id,
            detected_as: id.form().to_owned(),
            ancestry,
            r2_threshold: r2,
            d_prime_threshold: d_prime,
            ld,
            truncated,
            source,
            notes,
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn edge() -> LdEdge {
        serde_json::from_value(json!({
            "ancestry": "EUR", "d_prime": 0.608, "r2": 0.315,
            "variant_1_rsid": "rs537097834", "variant_1_pos": 8102410,
            "variant_1_spdi": "NC_000011.10:8102410:C:G",
            "variant_2_rsid": "rs60960132", "variant_2_pos": 9083634,
            "variant_2_spdi": "NC_000011.10:9083634:A:T",
            "sequence_variant": "NC_000011.10:8102410:C:G"
        }))
        .unwrap()
    }

    #[test]
    fn the_partner_is_the_side_that_is_not_the_query() {
        let p = partner(&edge(), &detect("rs60960132", None).unwrap());
        assert_eq!(p.rsid.as_deref(), Some("rs537097834"));
        // The catalog's 0-based position, 1-based; the SPDI as written.
        assert_eq!(p.position, Some(8_102_411));
        assert_eq!(p.spdi.as_deref(), Some("NC_000011.10:8102410:C:G"));
        let p = partner(&edge(), &detect("rs537097834", None).unwrap());
        assert_eq!(p.rsid.as_deref(), Some("rs60960132"));
        // A ClinGen ID is on neither side: sequence_variant names the partner.
        let p = partner(&edge(), &detect("CA217534780", None).unwrap());
        assert_eq!(p.spdi.as_deref(), Some("NC_000011.10:8102410:C:G"));
    }

    #[test]
    fn edges_are_checked_for_the_query_and_the_thresholds() {
        let e = edge();
        assert_eq!(
            query_side(&e, &detect("rs60960132", None).unwrap()),
            Some(false)
        );
        assert_eq!(
            query_side(&e, &detect("NC_000011.10:8102410:C:G", None).unwrap()),
            Some(true)
        );
        assert_eq!(query_side(&e, &detect("rs1", None).unwrap()), None);
        assert!(passes(&e, 0.3, Some(0.6)));
        assert!(!passes(&e, 0.8, None));
        assert!(!passes(&e, 0.3, Some(0.9)));
    }

    #[test]
    fn thresholds_are_between_zero_and_one() {
        assert_eq!(
            threshold("r2_threshold", None, Some(0.8)).unwrap(),
            Some(0.8)
        );
        assert!(threshold("r2_threshold", Some(1.5), Some(0.8)).is_err());
        assert!(threshold("d_prime_threshold", Some(-0.1), None).is_err());
    }
}
