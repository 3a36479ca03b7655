//! `string_search_proteins`: names, symbols or identifiers → ranked STRING proteins with
//! their CURIEs, through STRING's `get_string_ids` (one request per page).

use lifesciences_core::schemars::{self, JsonSchema};
use lifesciences_core::{
    ApiError, PaginationEnvelope, Parameters, SearchQuery, cursor, in_range, lenient,
};
use rmcp::{Json, tool, tool_router};
use serde::{Deserialize, Serialize};

use crate::ids::{Species, SpeciesArg, StringId, species_or_human};
use crate::models::{Lenient, StringIdRow};
use crate::server::StringServer;

/// Arguments of `string_search_proteins`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SearchProteinsArgs {
    /// A protein or gene name, symbol, synonym or identifier to look up, at least 2
    /// characters, e.g. `TP53`, `p53`, `BRCA`, `P04637` or `ENSP00000269305`. One name per
    /// call.
    pub query: String,
    /// The organism to search in: an NCBI taxon ID (integer, or a string of digits) such as
    /// 9606 (human), 10090 (mouse), 10116 (rat), 7227 (fruit fly), 4932 (yeast), or a
    /// STRING genome ID such as `STRG0A31YWK`. Default 9606 (human).
    #[serde(default)]
    pub species: Option<SpeciesArg>,
    /// Candidates per page, 1–100 (default 10).
    #[serde(default, deserialize_with = "lenient::opt_u32")]
    pub limit: Option<u32>,
    /// The `pagination.cursor` of the previous page of the same search, to get the next
    /// page; omit for the first page.
    #[serde(default)]
    pub cursor: Option<String>,
}

/// A STRING protein matching the query.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct ProteinCandidate {
    /// The STRING CURIE that `string_get_interactions` takes, e.g.
    /// `STRING:9606.ENSP00000269305`.
    pub id: String,
    /// STRING's preferred name of the protein, usually the gene symbol, e.g. `TP53`.
    pub preferred_name: String,
    /// NCBI taxon of the protein, e.g. 9606.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub taxon_id: Option<u64>,
    /// The organism, e.g. `Homo sapiens`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub taxon_name: Option<String>,
    /// STRING's description of the protein ("Name; function…").
    #[serde(skip_serializing_if = "Option::is_none")]
    pub annotation: Option<String>,
    /// How good a match this is, 0–1, best first. STRING ranks matches but does not score
    /// them, so this is 1/(1 + rank) of STRING's order: 1 for its best match, 0.5 for the
    /// second, and so on.
    pub score: f64,
}

/// What the cursor of this tool remembers: the offset of the next page.
type Offset = u64;

/// The score of the match at `rank` (0-based) in STRING's order, to 3 decimals, never 0
/// (a match is a match, however far down).
pub(crate) fn rank_score(rank: u64) -> f64 {
    ((1000.0 / (1.0 + rank as f64)).round() / 1000.0).max(0.001)
}

/// Map a `get_string_ids` row (scored later, by rank); rows without a STRING id or of
/// another query item (there is only one) are dropped.
fn candidate(row: StringIdRow) -> Option<ProteinCandidate> {
    if row
        .query_index
        .as_ref()
        .and_then(Lenient::as_u64)
        .is_some_and(|i| i != 0)
    {
        return None;
    }
    let Some(id) = row.string_id.as_deref().and_then(StringId::parse_bare) else {
        tracing::warn!(
            string_id = ?row.string_id,
            "dropping a get_string_ids row without a usable stringId"
        );
        return None;
    };
    let text = |s: Option<String>| s.map(|s| s.trim().to_owned()).filter(|s| !s.is_empty());
    let taxon_id = row
        .ncbi_taxon_id
        .as_ref()
        .and_then(Lenient::as_u64)
        .or_else(|| id.species().taxon());
    Some(ProteinCandidate {
        preferred_name: text(row.preferred_name).unwrap_or_else(|| id.bare()),
        id: id.curie(),
        taxon_id,
        taxon_name: text(row.taxon_name),
        annotation: text(row.annotation),
        score: 0.0,
    })
}

/// STRING refuses a species it does not know with 400 (notes A.3 "Errors").
fn unknown_species(error: ApiError, species: &Species) -> ApiError {
    if error.upstream_status() != Some(400) {
        return error;
    }
    let said = error
        .upstream_body()
        .map(|b| b.trim().chars().take(200).collect::<String>())
        .filter(|b| !b.is_empty())
        .map(|b| format!(" STRING said: {b}"))
        .unwrap_or_default();
    ApiError::invalid_input(
        format!("STRING rejected the search in species '{species}'.{said}"),
        "Use an NCBI taxon ID that STRING covers (9606 human, 10090 mouse, 10116 rat, 7227 \
         fruit fly, 4932 yeast) or a STRING genome ID, or omit 'species' to search human.",
        species.to_string(),
    )
}

#[tool_router(router = search_proteins_router, vis = "pub(crate)")]
impl StringServer {
    /// Find STRING proteins by name, symbol, synonym or identifier in one organism (human
    /// by default), best match first, a page at a time. Returns the STRING CURIE of each
    /// candidate for string_get_interactions and string_get_network_image_url.
    /// Example: `{"query": "TP53", "species": 9606}` → first candidate
    /// `STRING:9606.ENSP00000269305` (TP53, Homo sapiens).
    #[tool(
        title = "Search STRING proteins",
        annotations(read_only_hint = true, idempotent_hint = true, open_world_hint = true)
    )]
    pub(crate) async fn string_search_proteins(
        &self,
        Parameters(args): Parameters<SearchProteinsArgs>,
    ) -> Result<Json<PaginationEnvelope<ProteinCandidate>>, ApiError> {
        let args = args?;
        let query = SearchQuery::parse(&args.query)?;
        if query.as_str().contains(['\r', '\n']) {
            return Err(ApiError::invalid_input(
                "The query holds several lines; string_search_proteins looks up one name per call.",
                "Send one name per call, e.g. {\"query\": \"TP53\"}; to draw several proteins \
                 together use string_get_network_image_url.",
                args.query,
            ));
        }
        let species = species_or_human(args.species.as_ref())?;
        let limit = in_range("limit", args.limit, 1, 100, 10)?;
        let scope = format!("string_search_proteins|{}|{species}", query.as_str());
        let offset: Offset = match &args.cursor {
            Some(c) => cursor::decode(c, &scope)?,
            None => 0,
        };
        // get_string_ids has no offset: ask for everything up to this page plus one row, to
        // know whether another page follows.
        let wanted = offset.saturating_add(u64::from(limit)).saturating_add(1);
        let rows = self
            .string
            .string_ids(
                query.as_str(),
                &species,
                u32::try_from(wanted).unwrap_or(u32::MAX),
            )
            .await
            .map_err(|e| unknown_species(e, &species))?;
        let all: Vec<ProteinCandidate> = rows
            .into_iter()
            .filter_map(candidate)
            .enumerate()
            .map(|(rank, c)| ProteinCandidate {
                score: rank_score(rank as u64),
                ..c
            })
            .collect();
        let found = all.len() as u64;
        let has_more = found > offset.saturating_add(u64::from(limit));
        // When STRING returned fewer rows than asked for, it has no more: the total is known.
        let total = (!has_more).then_some(found);
        let page: Vec<ProteinCandidate> = all
            .into_iter()
            .skip(usize::try_from(offset).unwrap_or(usize::MAX))
            .take(limit as usize)
            .collect();
        Ok(Json(PaginationEnvelope::from_offset(
            page, &scope, offset, limit, total, has_more,
        )))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(json: serde_json::Value) -> StringIdRow {
        serde_json::from_value(json).unwrap()
    }

    #[test]
    fn scores_fall_with_strings_rank() {
        let scores: Vec<f64> = (0..4).map(rank_score).collect();
        assert_eq!(scores, [1.0, 0.5, 0.333, 0.25]);
        assert_eq!(rank_score(998), 0.001);
        assert_eq!(rank_score(10_000), 0.001);
    }

    #[test]
    fn a_row_becomes_a_candidate_with_a_curie() {
        let c = candidate(row(
            serde_json::json!({"queryIndex": 0, "queryItem": "TP53",
                "stringId": "9606.ENSP00000269305", "ncbiTaxonId": 9606,
                "taxonName": "Homo sapiens", "preferredName": "TP53",
                "annotation": "Cellular tumor antigen p53; Acts as a tumor suppressor"}),
        ))
        .unwrap();
        assert_eq!(c.id, "STRING:9606.ENSP00000269305");
        assert_eq!(c.preferred_name, "TP53");
        assert_eq!(c.taxon_id, Some(9606));
        assert_eq!(c.taxon_name.as_deref(), Some("Homo sapiens"));
    }

    #[test]
    fn sparse_rows_fall_back_and_unusable_rows_are_dropped() {
        // queryIndex as a string, taxon as a string, no names: still usable.
        let c = candidate(row(
            serde_json::json!({"queryIndex": "0", "stringId": "7227.FBpp0312036",
                "ncbiTaxonId": "7227"}),
        ))
        .unwrap();
        assert_eq!(c.preferred_name, "7227.FBpp0312036");
        assert_eq!(c.taxon_id, Some(7227));
        assert_eq!((c.taxon_name, c.annotation), (None, None));
        assert!(candidate(row(serde_json::json!({"preferredName": "TP53"}))).is_none());
        assert!(
            candidate(row(
                serde_json::json!({"queryIndex": 1, "stringId": "9606.ENSP00000269305"})
            ))
            .is_none()
        );
    }

    #[test]
    fn a_400_is_an_unknown_species_other_errors_pass_through() {
        let rejected = ApiError::Upstream {
            upstream: "STRING".into(),
            failure: lifesciences_core::UpstreamFailure::Status {
                status: 400,
                body: "species not found".into(),
            },
            attempts: 1,
        };
        let e = unknown_species(rejected, &Species::Taxon(123_456_789))
            .to_envelope()
            .error;
        assert_eq!(e.code, lifesciences_core::ErrorCode::InvalidInput);
        assert!(
            e.message.contains("STRING said: species not found"),
            "{}",
            e.message
        );
        assert_eq!(e.invalid_input.as_deref(), Some("123456789"));
        let other = ApiError::not_found("m", "h", "x");
        assert_eq!(unknown_species(other.clone(), &Species::HUMAN), other);
    }
}
