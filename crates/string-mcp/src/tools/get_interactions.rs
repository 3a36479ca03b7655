//! `string_get_interactions`: a STRING CURIE → its evidence-scored interaction partners,
//! through STRING's `interaction_partners`. The query protein is resolved with
//! `get_string_ids` only when the partner list cannot tell (it is empty or refused): one
//! upstream request for the usual call, two to tell an unknown ID from a protein without
//! partners. A partner row becomes an [`Interaction`] in `crate::edges`; this file
//! selects, orders and cuts them.

use std::collections::HashMap;

use lifesciences_core::schemars::{self, JsonSchema};
use lifesciences_core::{ApiError, Parameters, Reply, in_range, lenient};
use rmcp::{Json, tool};
use serde::{Deserialize, Serialize};

use crate::client::NetworkType;
use crate::edges::{Interaction, interaction};
use crate::ids::{EXAMPLE_CURIE, StringId};
use crate::models::PartnerRow;
use crate::score::{RequiredScoreArg, required_score};
use crate::server::StringServer;

/// Most proteins of one `string_ids` call.
const MAX_SET_IDS: usize = 100;

/// Arguments of `string_get_interactions`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct GetInteractionsArgs {
    /// The protein as a STRING CURIE from string_search_proteins, e.g.
    /// `STRING:9606.ENSP00000269305` (human TP53).
    #[serde(default)]
    pub string_id: Option<String>,
    /// Instead of `string_id`: 1–100 CURIEs of one species, `limit` partners each.
    #[serde(default, deserialize_with = "lifesciences_core::args::one_or_many")]
    #[schemars(with = "Vec<String>")]
    #[schemars(length(min = 1, max = 100))]
    pub string_ids: Vec<String>,
    /// Minimum combined score, 0–1000 (150 low, 700 high, 900 highest); 0.7 reads as
    /// 700.
    #[serde(default)]
    #[schemars(extend("default" = 400))]
    pub required_score: Option<RequiredScoreArg>,
    /// Most partners to return, 1–10000, the most confident kept.
    #[serde(default, deserialize_with = "lenient::opt_u32")]
    #[schemars(range(min = 1, max = 10000))]
    #[schemars(extend("default" = 25))]
    pub limit: Option<u32>,
    /// `functional` (default) or `physical` (binding or co-complex only).
    #[serde(default)]
    #[schemars(extend("default" = "functional"))]
    pub network_type: Option<NetworkType>,
}

/// The query protein of a network.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub(crate) struct QueryProtein {
    /// Its STRING CURIE.
    pub id: String,
    /// STRING's preferred name, e.g. `TP53`.
    pub preferred_name: String,
}

/// The partners of one protein (or of each protein of a set), most confident first.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub(crate) struct InteractionNetwork {
    /// The protein asked about (`string_id`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub query: Option<QueryProtein>,
    /// The proteins asked about (`string_ids`) that have partners, in the order given;
    /// `interactions` holds each one's partners in turn (`protein_a` says whose).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub queries: Vec<QueryProtein>,
    /// Proteins of `string_ids` with no partner at required_score (or unknown to STRING).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub without_partners: Vec<String>,
    /// Its partners with `combined_score` ≥ required_score/1000, sorted by
    /// `combined_score` descending; empty when STRING knows the protein but no partner
    /// reaches the threshold.
    pub interactions: Vec<Interaction>,
    /// The number of interactions returned.
    pub total: usize,
    /// True when STRING has more partners (of any query protein) at or above
    /// required_score than `limit` let through (only the most confident were kept): raise
    /// `limit` (up to 10000) or `required_score` to see the rest or to narrow the network.
    pub truncated: bool,
}

/// The partners to return: at or above the threshold (STRING filters too; this makes the
/// promise hold whatever it sends), one row per partner (the strongest), sorted by
/// combined score (then name, for a stable order), at most `limit`; and whether partners
/// were cut to get there (STRING is asked for `limit + 1`, so one more row says so).
fn select(
    rows: &[PartnerRow],
    query: &StringId,
    required_score: u32,
    limit: u32,
) -> (Vec<Interaction>, bool) {
    let threshold = f64::from(required_score) / 1000.0;
    let mut best: HashMap<String, Interaction> = HashMap::new();
    for found in rows.iter().filter_map(|r| interaction(r, query)) {
        if found.combined_score + 1e-9 < threshold {
            continue;
        }
        match best.get(&found.protein_b) {
            Some(kept) if kept.combined_score >= found.combined_score => {}
            _ => {
                best.insert(found.protein_b.clone(), found);
            }
        }
    }
    let mut interactions: Vec<Interaction> = best.into_values().collect();
    interactions.sort_by(|a, b| {
        b.combined_score
            .total_cmp(&a.combined_score)
            .then_with(|| a.preferred_name_b.cmp(&b.preferred_name_b))
            .then_with(|| a.protein_b.cmp(&b.protein_b))
    });
    let truncated = interactions.len() > limit as usize;
    interactions.truncate(limit as usize);
    (interactions, truncated)
}

impl StringServer {
    /// The partners of each protein of `raw` (STRING CURIEs of one species) in one
    /// `interaction_partners` request: STRING applies `limit` per query protein.
    async fn partners_of_set(
        &self,
        raw: &[String],
        required_score: u32,
        limit: u32,
        network_type: NetworkType,
    ) -> Result<InteractionNetwork, ApiError> {
        let mut ids: Vec<StringId> = Vec::new();
        for one in raw.iter().map(|s| s.trim()).filter(|s| !s.is_empty()) {
            let id = StringId::parse_curie(one)?;
            if !ids.contains(&id) {
                ids.push(id);
            }
        }
        let Some(first) = ids.first() else {
            return Err(ApiError::invalid_input(
                "Argument 'string_ids' holds no protein.",
                format!("Pass 1 to {MAX_SET_IDS} STRING CURIEs, e.g. [\"{EXAMPLE_CURIE}\"]."),
                "[]",
            ));
        };
        let species = first.species().clone();
        if let Some(other) = ids.iter().find(|id| *id.species() != species) {
            return Err(ApiError::invalid_input(
                format!(
                    "'{}' is of species {}, '{}' of {species}: one request covers one species.",
                    other.curie(),
                    other.species(),
                    first.curie()
                ),
                "Pass proteins of one species per call.",
                other.curie(),
            ));
        }
        if ids.len() > MAX_SET_IDS {
            return Err(ApiError::invalid_input(
                format!(
                    "Argument 'string_ids' holds {} proteins; at most {MAX_SET_IDS}.",
                    ids.len()
                ),
                "Split the set, or use string_get_network for the edges among up to 2000 proteins.",
                format!("{} identifiers", ids.len()),
            ));
        }
        let bare: Vec<String> = ids.iter().map(StringId::bare).collect();
        let rows = self
            .string
            .partners_of_set(&bare, &species, required_score, limit + 1, network_type)
            .await?;
        let mut network = InteractionNetwork {
            query: None,
            queries: Vec::new(),
            without_partners: Vec::new(),
            interactions: Vec::new(),
            total: 0,
            truncated: false,
        };
        for (id, bare) in ids.iter().zip(&bare) {
            let own: Vec<PartnerRow> = rows
                .iter()
                .filter(|r| r.string_id_a.as_deref() == Some(bare.as_str()))
                .cloned()
                .collect();
            let (found, truncated) = select(&own, id, required_score, limit);
            let Some(named) = found.first() else {
                network.without_partners.push(id.curie());
                continue;
            };
            network.queries.push(QueryProtein {
                id: id.curie(),
                preferred_name: named.preferred_name_a.clone(),
            });
            network.truncated |= truncated;
            network.interactions.extend(found);
        }
        network.total = network.interactions.len();
        Ok(network)
    }

    /// Whether STRING knows `id`, and its preferred name. An ID STRING maps to another
    /// protein (e.g. one of an older release) is not this one: `ENTITY_NOT_FOUND` with the
    /// protein STRING suggests.
    async fn resolve(&self, id: &StringId, raw: &str) -> Result<String, ApiError> {
        let not_found = || {
            ApiError::not_found(
                format!(
                    "STRING has no protein '{}' (species {}).",
                    id.curie(),
                    id.species()
                ),
                format!(
                    "Check the ID, or find the protein with string_search_proteins (e.g. \
                     {{\"query\": \"TP53\", \"species\": {}}}) and pass the id it returns, \
                     e.g. '{EXAMPLE_CURIE}'.",
                    id.species()
                ),
                raw,
            )
        };
        let rows = match self.string.string_ids(&id.bare(), id.species(), 1).await? {
            Reply::Found(rows) => rows,
            // Nothing maps, or an unknown taxon: the protein cannot be there either.
            Reply::Missing | Reply::Refused(_) => return Err(not_found()),
        };
        let bare = id.bare();
        if let Some(row) = rows
            .iter()
            .find(|r| r.string_id.as_deref() == Some(bare.as_str()))
        {
            return Ok(row
                .preferred_name
                .as_deref()
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map_or_else(|| bare.clone(), str::to_owned));
        }
        let suggestions: Vec<String> = rows
            .iter()
            .filter_map(|r| r.string_id.as_deref().and_then(StringId::parse_bare))
            .map(|s| s.curie())
            .collect();
        match suggestions.first().cloned() {
            Some(other) => Err(not_found()
                .with_hint(format!(
                    "STRING maps '{bare}' to {other}; call string_get_interactions with that \
                     id if it is the protein you mean."
                ))
                .with_suggestions(suggestions)),
            None => Err(not_found()),
        }
    }
}

impl StringServer {
    /// Get the interaction partners of a STRING protein (or of each of `string_ids`, in one
    /// request), most confident first, with the combined and seven channel scores (0–1).
    /// `truncated` says when limit cut a list.
    /// Example: `{"string_id": "STRING:9606.ENSP00000269305", "required_score": 700,
    /// "limit": 10}`.
    #[tool(
        title = "Get STRING interaction partners",
        annotations(read_only_hint = true, idempotent_hint = true, open_world_hint = true)
    )]
    pub(crate) async fn string_get_interactions(
        &self,
        Parameters(args): Parameters<GetInteractionsArgs>,
    ) -> Result<Json<InteractionNetwork>, ApiError> {
        let args = args?;
        let required_score = required_score(args.required_score.as_ref())?.unwrap_or(400);
        let limit = in_range("limit", args.limit, 1, 10_000, 25)?;
        let network_type = args.network_type.unwrap_or_default();
        let raw = match (&args.string_id, args.string_ids.is_empty()) {
            (Some(one), true) => one.clone(),
            (None, false) => {
                return self
                    .partners_of_set(&args.string_ids, required_score, limit, network_type)
                    .await
                    .map(Json);
            }
            (given, _) => {
                return Err(ApiError::invalid_input(
                    if given.is_some() {
                        "Pass 'string_id' or 'string_ids', not both."
                    } else {
                        "Argument 'string_id' is required (or 'string_ids' for a set)."
                    },
                    format!(
                        "Pass one protein as {{\"string_id\": \"{EXAMPLE_CURIE}\"}}, or \
                         several as {{\"string_ids\": [\"{EXAMPLE_CURIE}\", …]}}."
                    ),
                    given.clone().unwrap_or_default(),
                ));
            }
        };
        let id = StringId::parse_curie(&raw)?;

        // One partner more than asked for tells whether the list is cut (`truncated`).
        let rows = match self
            .string
            .interaction_partners(&id, required_score, limit + 1, network_type)
            .await?
        {
            Reply::Found(rows) => rows,
            // No partner rows: resolved below, like an empty list.
            Reply::Missing => Vec::new(),
            // STRING refuses identifiers it cannot map and taxa it does not know; tell an
            // unknown ID (ENTITY_NOT_FOUND) from other trouble (STRING's refusal as is).
            Reply::Refused(refusal) => {
                self.resolve(&id, &raw).await?;
                return Err(refusal.into_error());
            }
        };
        let bare = id.bare();
        let named_in_rows = rows
            .iter()
            .find(|r| r.string_id_a.as_deref() == Some(bare.as_str()))
            .or(rows.first())
            .and_then(|r| r.preferred_name_a.as_deref())
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(str::to_owned);
        let preferred_name = match named_in_rows {
            Some(name) => name,
            // No partner rows: STRING knows the protein without partners, or not at all.
            None if rows.is_empty() => self.resolve(&id, &raw).await?,
            None => bare,
        };
        let (interactions, truncated) = select(&rows, &id, required_score, limit);
        Ok(Json(InteractionNetwork {
            query: Some(QueryProtein {
                id: id.curie(),
                preferred_name,
            }),
            queries: Vec::new(),
            without_partners: Vec::new(),
            total: interactions.len(),
            interactions,
            truncated,
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn tp53() -> StringId {
        StringId::parse_bare("9606.ENSP00000269305").unwrap()
    }

    fn rows(value: serde_json::Value) -> Vec<PartnerRow> {
        serde_json::from_value(value).unwrap()
    }

    fn edge(partner: &str, name: &str, score: serde_json::Value) -> serde_json::Value {
        json!({"stringId_A": "9606.ENSP00000269305", "stringId_B": partner,
               "preferredName_A": "TP53", "preferredName_B": name, "ncbiTaxonId": 9606,
               "score": score, "escore": 0.5})
    }

    #[test]
    fn unusable_rows_are_dropped_and_scores_stay_in_range() {
        let r = rows(json!([
            {"stringId_A": "9606.ENSP00000269305", "score": 0.9},
            {"stringId_A": "9606.ENSP00000269305", "stringId_B": "9606.ENSP00000258149"},
            edge("9606.ENSP00000258149", "MDM2", json!(1.02)),
        ]));
        let (kept, truncated) = select(&r, &tp53(), 0, 10);
        assert_eq!(kept.len(), 1);
        assert!(!truncated);
        assert_eq!(kept[0].combined_score, 1.0);
    }

    #[test]
    fn selection_filters_deduplicates_sorts_and_truncates() {
        let r = rows(json!([
            edge("9606.ENSP00000340989", "SFN", json!(0.95)),
            edge("9606.ENSP00000263253", "EP300", json!(0.999)),
            edge("9606.ENSP00000340989", "SFN", json!(0.999)),
            edge("9606.ENSP00000258149", "MDM2", json!(0.999)),
            edge("9606.ENSP00000212015", "SIRT1", json!(0.699)),
            edge("9606.ENSP00000254719", "RPA1", json!(0.7)),
        ]));
        let names = |(v, _): (Vec<Interaction>, bool)| -> Vec<String> {
            v.into_iter().map(|i| i.preferred_name_b).collect()
        };
        assert_eq!(
            names(select(&r, &tp53(), 700, 10)),
            ["EP300", "MDM2", "SFN", "RPA1"]
        );
        assert_eq!(names(select(&r, &tp53(), 700, 2)), ["EP300", "MDM2"]);
        assert_eq!(select(&r, &tp53(), 0, 10).0.len(), 5);
        assert!(select(&r, &tp53(), 1000, 10).0.is_empty());
    }

    #[test]
    fn truncation_counts_distinct_partners_at_the_threshold() {
        let r = rows(json!([
            edge("9606.ENSP00000263253", "EP300", json!(0.999)),
            edge("9606.ENSP00000258149", "MDM2", json!(0.9)),
            edge("9606.ENSP00000258149", "MDM2", json!(0.8)),
            edge("9606.ENSP00000212015", "SIRT1", json!(0.5)),
        ]));
        // Three partners, two kept: cut.
        assert!(select(&r, &tp53(), 0, 2).1);
        // Exactly as many as asked for: not cut.
        assert!(!select(&r, &tp53(), 0, 3).1);
        // A duplicate row or one below the threshold is no hidden partner.
        assert!(!select(&r, &tp53(), 700, 2).1);
    }
}
