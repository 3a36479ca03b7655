//! `chembl_search_targets`: ChEMBL targets by gene symbol, UniProt accession or name,
//! optionally of one organism and one target type. A UniProt accession is one
//! `/target.json?target_components__accession=` request; words go to ChEMBL's target
//! search (`/target/search.json?q=`, best first). Organism and type are checked here on
//! each page (a symbol such as BRD4 matches human and mouse proteins, complexes and
//! PROTAC ternary complexes), so a filtered page can hold fewer than `limit` targets.
//! Each hit is a target in brief (`crate::target`, shared with `chembl_get_target`).

use lifesciences_core::rmcp::schemars::{self, JsonSchema};
use lifesciences_core::rmcp::{Json, tool};
use lifesciences_core::{ApiError, Parameters, SearchQuery, cursor, in_range, lenient};
use serde::{Deserialize, Serialize};

use crate::client::TargetQuery;
use crate::models::Target;
use crate::server::ChemblServer;
use crate::target::{TargetSummary, summary};

/// Arguments of `chembl_search_targets`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct SearchTargetsArgs {
    /// Gene symbol (`EGFR`), UniProt accession (`P00533`) or name words.
    pub query: String,
    /// Only targets of this organism, e.g. `Homo sapiens` or `human`.
    #[serde(default)]
    pub organism: Option<String>,
    /// Only this type, e.g. `SINGLE PROTEIN`, `PROTEIN COMPLEX`, `PROTEIN FAMILY`.
    #[serde(default)]
    pub target_type: Option<String>,
    /// Targets per page, 1–100.
    #[serde(default, deserialize_with = "lenient::opt_u32")]
    #[schemars(range(min = 1, max = 100))]
    #[schemars(extend("default" = 20))]
    pub limit: Option<u32>,
    /// `pagination.cursor` of the previous page.
    #[serde(default)]
    pub cursor: Option<String>,
}

/// A target found by the search.
#[serde_with::skip_serializing_none]
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub(crate) struct TargetHit {
    #[serde(flatten)]
    pub target: TargetSummary,
    /// ChEMBL's search relevance.
    pub score: Option<f64>,
}

/// Common names of the organisms asked for most, as ChEMBL spells them.
fn organism_name(raw: &str) -> String {
    match raw.trim().to_ascii_lowercase().as_str() {
        "human" | "homo sapiens" | "9606" => "Homo sapiens".to_owned(),
        "mouse" | "mus musculus" | "10090" => "Mus musculus".to_owned(),
        "rat" | "rattus norvegicus" | "10116" => "Rattus norvegicus".to_owned(),
        "zebrafish" | "danio rerio" | "7955" => "Danio rerio".to_owned(),
        "yeast" | "saccharomyces cerevisiae" => "Saccharomyces cerevisiae".to_owned(),
        _ => raw.trim().to_owned(),
    }
}

/// A target record as a search hit.
fn hit(t: &Target) -> Option<TargetHit> {
    Some(TargetHit {
        target: summary(t)?,
        score: t.score,
    })
}

impl ChemblServer {
    /// Find ChEMBL targets by gene symbol, UniProt accession or name, optionally of one
    /// organism and type: each with its CURIE, name, type, organism, UniProt accessions
    /// (for uniprot_get_protein) and gene symbols. Pass an id to chembl_get_bioactivities
    /// for the compounds hitting it. Example:
    /// `{"query": "EGFR", "organism": "human", "target_type": "SINGLE PROTEIN"}`.
    #[tool(
        title = "Search ChEMBL targets",
        annotations(read_only_hint = true, idempotent_hint = true, open_world_hint = true)
    )]
    pub(crate) async fn chembl_search_targets(
        &self,
        Parameters(args): Parameters<SearchTargetsArgs>,
    ) -> Result<Json<lifesciences_core::PaginationEnvelope<TargetHit>>, ApiError> {
        let args = args?;
        let query = SearchQuery::parse(&args.query)?;
        let text = query.as_str().trim();
        let limit = in_range("limit", args.limit, 1, 100, 20)?;
        let organism = args
            .organism
            .as_deref()
            .filter(|s| !s.trim().is_empty())
            .map(organism_name);
        let kind = args
            .target_type
            .as_deref()
            .map(|s| s.trim().to_ascii_uppercase())
            .filter(|s| !s.is_empty());
        let accession = text.to_ascii_uppercase();
        // UniProt's accession pattern (core's cross-reference registry); isoforms are
        // not component accessions.
        let upstream_query = if lifesciences_core::XrefKey::Uniprot.is_valid(&accession)
            && !accession.contains('-')
        {
            TargetQuery::Accession(&accession)
        } else {
            TargetQuery::Text(text)
        };
        let scope = format!(
            "chembl_search_targets|{text}|{}|{}|{limit}",
            organism.as_deref().unwrap_or(""),
            kind.as_deref().unwrap_or("")
        );
        let offset: u64 = match args.cursor.as_deref().map(str::trim) {
            Some(c) if !c.is_empty() => cursor::decode(c, &scope)?,
            _ => 0,
        };
        let page = self
            .chembl
            .find_targets(upstream_query, offset, limit)
            .await?;
        let read = page.records.len() as u64;
        let filtered = organism.is_some() || kind.is_some();
        let items: Vec<TargetHit> = page
            .records
            .iter()
            .filter(|t| {
                organism.as_deref().is_none_or(|o| {
                    t.organism
                        .as_deref()
                        .is_some_and(|x| x.eq_ignore_ascii_case(o))
                }) && kind.as_deref().is_none_or(|k| {
                    t.target_type
                        .as_deref()
                        .is_some_and(|x| x.eq_ignore_ascii_case(k))
                })
            })
            .filter_map(hit)
            .collect();
        let next = offset + read;
        let more = page.total.map_or(read == u64::from(limit), |t| next < t);
        Ok(Json(lifesciences_core::PaginationEnvelope::new(
            items,
            (more && read > 0).then(|| cursor::encode(&scope, &next)),
            // Counted before the organism and type filters, which are applied here.
            if filtered { None } else { page.total },
            limit,
        )))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn organisms_are_recognised() {
        assert_eq!(organism_name(" Human "), "Homo sapiens");
        assert_eq!(organism_name("Danio rerio"), "Danio rerio");
    }
}
