//! `string_search_proteins`: names, symbols or identifiers → ranked STRING proteins with
//! their CURIEs, through STRING's `get_string_ids` (one request per page).

use lifesciences_core::notify::{Level, notify};
use lifesciences_core::schemars::{self, JsonSchema};
use lifesciences_core::{
    ApiError, PaginationEnvelope, Parameters, Reply, SearchQuery, cursor, in_range, lenient,
};
use rmcp::{Json, tool};
use serde::{Deserialize, Serialize};

use crate::client::Refusal;
use crate::ids::{Species, SpeciesArg, StringId, species_or_human};
use crate::models::{Lenient, StringIdRow};
use crate::server::StringServer;

/// Arguments of `string_search_proteins`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct SearchProteinsArgs {
    /// One protein or gene name, symbol, synonym or identifier, at least 2 characters,
    /// e.g. `TP53`, `p53`, `P04637`.
    pub query: String,
    /// The organism: an NCBI taxon ID (9606 human, 10090 mouse), a STRING genome ID
    /// (`STRG…`) or a common or Latin name (`human`, `E. coli`, `Homo sapiens`).
    #[serde(default)]
    #[schemars(extend("default" = 9606))]
    pub species: Option<SpeciesArg>,
    /// Candidates per page, 1–100.
    #[serde(default, deserialize_with = "lenient::opt_u32")]
    #[schemars(range(min = 1, max = 100))]
    #[schemars(extend("default" = 10))]
    pub limit: Option<u32>,
    /// `pagination.cursor` of the previous page of the same search; omit for the first.
    #[serde(default)]
    pub cursor: Option<String>,
}

/// A STRING protein matching the query.
#[serde_with::skip_serializing_none]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub(crate) struct ProteinCandidate {
    /// The STRING CURIE that `string_get_interactions` takes, e.g.
    /// `STRING:9606.ENSP00000269305`.
    pub id: String,
    /// STRING's preferred name of the protein, usually the gene symbol, e.g. `TP53`.
    pub preferred_name: String,
    /// NCBI taxon of the protein, e.g. 9606.
    pub taxon_id: Option<u64>,
    /// The organism, e.g. `Homo sapiens`.
    pub taxon_name: Option<String>,
    /// STRING's description of the protein ("Name; function…").
    pub annotation: Option<String>,
    /// How good a match this is, 0–1, best first. STRING ranks matches but does not score
    /// them, so this is 1/(1 + rank) of STRING's order: 1 for its best match, 0.5 for the
    /// second, and so on.
    pub score: f64,
}

/// What the cursor of this tool remembers: the offset of the next page.
type Offset = u64;

/// The deepest offset a page may start at. `get_string_ids` has no offset, so a page at
/// offset N costs N + limit + 1 rows; cursors never point further (a forged one is
/// refused), and the page that reaches it carries no cursor.
pub(crate) const MAX_OFFSET: Offset = 10_000;

/// The offset a cursor points to, refused beyond [`MAX_OFFSET`].
fn checked_offset(offset: Offset, cursor: &str) -> Result<Offset, ApiError> {
    if offset <= MAX_OFFSET {
        return Ok(offset);
    }
    Err(ApiError::invalid_input(
        format!(
            "The cursor points to candidate {offset}; string_search_proteins pages at most \
             {MAX_OFFSET} candidates deep."
        ),
        "Pass the cursor exactly as returned in `pagination.cursor` by the previous page, or \
         omit it and narrow the query (a fuller name or another species) to rank what you \
         want first.",
        cursor,
    ))
}

/// Whether a next page is offered, and the total when it is known: more candidates than
/// this page reaches mean a next page (unless it would start past [`MAX_OFFSET`]);
/// otherwise STRING sent everything it has and `found` is the total.
fn next_page(found: u64, offset: Offset, limit: u32) -> (bool, Option<u64>) {
    let end = offset.saturating_add(u64::from(limit));
    let more = found > end;
    (more && end <= MAX_OFFSET, (!more).then_some(found))
}

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
        notify(
            Level::Warning,
            "STRING sent a candidate without a usable stringId; it was left out",
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

/// STRING refuses a species it does not know with 400 (docs/sources/string.md): that is
/// `INVALID_INPUT` on `species`, echoing what the caller sent. Any other refusal (a 400
/// whose words are not about the species, or without words) passes through as STRING's
/// own refusal, blaming no argument.
fn refused(refusal: Refusal, sent: Option<&SpeciesArg>, species: &Species) -> ApiError {
    let Refusal::Species { said } = refusal else {
        return refusal.into_error();
    };
    let said: String = said.chars().take(200).collect();
    let (shown, echo) = match sent {
        Some(raw) => (format!("species '{}'", raw.0), raw.0.clone()),
        None => (
            format!("species {species} (the default)"),
            species.to_string(),
        ),
    };
    ApiError::invalid_input(
        format!("STRING rejected the search in {shown}. STRING said: {said}"),
        "Use an NCBI taxon ID that STRING covers (9606 human, 10090 mouse, 10116 rat, 7227 \
         fruit fly, 4932 yeast), a common name such as 'human', or a STRING genome ID; or \
         omit 'species' to search human.",
        echo,
    )
}

impl StringServer {
    /// Find STRING proteins by name, symbol, synonym or identifier in one organism, best
    /// match first, a page at a time, as STRING CURIEs for the other STRING tools.
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
            Some(c) => checked_offset(cursor::decode(c, &scope)?, c)?,
            None => 0,
        };
        // get_string_ids has no offset: ask for everything up to this page plus one row, to
        // know whether another page follows.
        let wanted = offset.saturating_add(u64::from(limit)).saturating_add(1);
        let reply = self
            .string
            .string_ids(
                query.as_str(),
                &species,
                u32::try_from(wanted).unwrap_or(u32::MAX),
            )
            .await?;
        let rows = match reply {
            Reply::Found(rows) => rows,
            // Nothing maps: an empty page, like an empty list.
            Reply::Missing => Vec::new(),
            Reply::Refused(refusal) => {
                return Err(refused(refusal, args.species.as_ref(), &species));
            }
        };
        let all: Vec<ProteinCandidate> = rows
            .into_iter()
            .filter_map(candidate)
            .enumerate()
            .map(|(rank, c)| ProteinCandidate {
                score: rank_score(rank as u64),
                ..c
            })
            .collect();
        let (has_more, total) = next_page(all.len() as u64, offset, limit);
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
    fn offsets_are_capped() {
        assert_eq!(checked_offset(0, "c").unwrap(), 0);
        assert_eq!(checked_offset(MAX_OFFSET, "c").unwrap(), MAX_OFFSET);
        let e = checked_offset(MAX_OFFSET + 1, "c")
            .unwrap_err()
            .to_envelope()
            .error;
        assert_eq!(e.code, lifesciences_core::ErrorCode::InvalidInput);
        assert!(e.message.contains("10000 candidates deep"), "{}", e.message);
        assert_eq!(e.invalid_input.as_deref(), Some("c"));
    }

    #[test]
    fn no_cursor_is_minted_past_the_cap() {
        // More rows than the page: a next page, total unknown.
        assert_eq!(next_page(11, 0, 10), (true, None));
        // Everything STRING has fits: the last page, total known.
        assert_eq!(next_page(10, 0, 10), (false, Some(10)));
        assert_eq!(next_page(25, 20, 10), (false, Some(25)));
        // The next page would start at the cap: still offered (the cap is accepted).
        assert_eq!(next_page(MAX_OFFSET + 1, MAX_OFFSET - 10, 10), (true, None));
        // It would start past the cap: no cursor, and the total stays unknown.
        assert_eq!(next_page(MAX_OFFSET + 101, MAX_OFFSET, 100), (false, None));
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

    fn about_species(said: &str) -> Refusal {
        Refusal::Species { said: said.into() }
    }

    #[test]
    fn a_refusal_about_the_species_is_invalid_species_others_pass_through() {
        let sent = SpeciesArg("123456789".into());
        let e = refused(
            about_species("species not found"),
            Some(&sent),
            &Species::Taxon(123_456_789),
        )
        .to_envelope()
        .error;
        assert_eq!(e.code, lifesciences_core::ErrorCode::InvalidInput);
        assert!(
            e.message.contains("STRING said: species not found"),
            "{}",
            e.message
        );
        assert_eq!(e.invalid_input.as_deref(), Some("123456789"));
    }

    #[test]
    fn a_refusal_about_something_else_blames_no_argument() {
        let sent = SpeciesArg("9606".into());
        for said in ["Error: malformed identifiers", ""] {
            let other = Refusal::Other {
                status: 400,
                said: said.into(),
            };
            let e = refused(other.clone(), Some(&sent), &Species::HUMAN);
            assert_eq!(e, other.into_error(), "{said:?}");
            assert_eq!(e.code(), lifesciences_core::ErrorCode::UpstreamError);
            assert_eq!(e.to_envelope().error.invalid_input, None);
        }
    }

    #[test]
    fn the_species_is_echoed_as_the_caller_sent_it() {
        let sent = SpeciesArg(" strg0zzzzzz ".into());
        let species = Species::parse(&sent.0).unwrap();
        let e = refused(about_species("Unknown organism"), Some(&sent), &species)
            .to_envelope()
            .error;
        assert_eq!(e.invalid_input.as_deref(), Some(" strg0zzzzzz "));
        assert!(
            e.message.contains("species ' strg0zzzzzz '"),
            "{}",
            e.message
        );
        // Not sent: the default is named as such.
        let e = refused(about_species("species not found"), None, &Species::HUMAN)
            .to_envelope()
            .error;
        assert!(e.message.contains("9606 (the default)"), "{}", e.message);
    }
}
