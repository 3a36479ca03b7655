//! `string_get_network`: the interaction network among a set of proteins, and whether the
//! set is a module. Three upstream requests: the set resolved in one `get_string_ids`,
//! its `network` (optionally grown by `add_nodes` interactors), and its `ppi_enrichment`.
//! Later pages of edges are served from the cache. A row becomes an edge through
//! `crate::edges`, as in `string_get_interactions`.

use std::collections::HashMap;

use lifesciences_core::schemars::{self, JsonSchema};
use lifesciences_core::{ApiError, Pagination, Parameters, cursor, in_range, lenient};
use rmcp::{Json, tool};
use serde::{Deserialize, Serialize};

use crate::client::NetworkType;
use crate::edges::{EvidenceScores, interaction};
use crate::ids::{SpeciesArg, StringId};
use crate::models::{Lenient, PpiEnrichmentRow};
use crate::score::{RequiredScoreArg, required_score};
use crate::server::StringServer;
use crate::set::{self, MAX_SET, Node};

/// Most nodes listed (the best connected); `node_count` gives them all.
const MAX_NODES_SHOWN: usize = 200;

/// Arguments of `string_get_network`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct GetNetworkArgs {
    /// 1–2000 names, UniProt accessions or CURIEs.
    #[serde(deserialize_with = "lifesciences_core::args::one_or_many")]
    #[schemars(with = "Vec<String>")]
    #[schemars(length(min = 1, max = 2000))]
    pub identifiers: Vec<String>,
    /// NCBI taxon or common name; default: the CURIEs' taxon, else 9606.
    #[serde(default)]
    pub species: Option<SpeciesArg>,
    /// Minimum edge score, 0–1000 (0.7 reads as 700).
    #[serde(default)]
    #[schemars(extend("default" = 400))]
    pub required_score: Option<RequiredScoreArg>,
    /// `functional` or `physical`.
    #[serde(default)]
    #[schemars(extend("default" = "functional"))]
    pub network_type: Option<NetworkType>,
    /// Interactors STRING adds around the set, 0–100.
    #[serde(default, deserialize_with = "lenient::opt_u32")]
    #[schemars(range(min = 0, max = 100))]
    #[schemars(extend("default" = 0))]
    pub add_nodes: Option<u32>,
    /// Edges per page, 1–1000, strongest first.
    #[serde(default, deserialize_with = "lenient::opt_u32")]
    #[schemars(range(min = 1, max = 1000))]
    #[schemars(extend("default" = 50))]
    pub limit: Option<u32>,
    /// `pagination.cursor` of the previous page.
    #[serde(default)]
    pub cursor: Option<String>,
}

/// A protein of the network.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub(crate) struct NetworkNode {
    /// Its STRING CURIE.
    pub id: String,
    /// STRING's preferred name.
    pub preferred_name: String,
    /// Its edges in this network (at required_score).
    pub degree: u32,
    /// True for an interactor STRING added (`add_nodes`), absent for the set's own.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub added: bool,
}

/// An undirected edge of the network.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub(crate) struct Edge {
    /// One protein's STRING CURIE.
    pub protein_a: String,
    /// The other protein's STRING CURIE.
    pub protein_b: String,
    /// STRING's preferred name of `protein_a`.
    pub preferred_name_a: String,
    /// STRING's preferred name of `protein_b`.
    pub preferred_name_b: String,
    /// STRING's combined confidence, 0–1.
    pub combined_score: f64,
    /// The confidence of each evidence channel, 0–1.
    pub evidence: EvidenceScores,
}

/// STRING's test of whether the set has more interactions among itself than a random set
/// of proteins of the same size (the set's own proteins, without added interactors).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub(crate) struct PpiEnrichment {
    /// Proteins of the set STRING counted.
    pub number_of_nodes: u64,
    /// Edges among them at required_score.
    pub number_of_edges: u64,
    /// Edges a random set of this size would have.
    pub expected_number_of_edges: f64,
    /// Average number of edges per protein.
    pub average_node_degree: f64,
    /// Average local clustering coefficient.
    pub clustering_coefficient: f64,
    /// The probability of at least this many edges by chance: a small value (e.g. below
    /// 0.05) says the set is a module, not a random collection.
    pub p_value: f64,
}

/// The network among a set of proteins.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub(crate) struct Network {
    /// The proteins, best connected first; on the first page only, at most 200.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub nodes: Vec<NetworkNode>,
    /// All proteins of the network: the set's resolved proteins and added interactors.
    pub node_count: usize,
    /// Identifiers STRING could not map in the species (the first 50); left out.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub unresolved: Vec<String>,
    /// How many identifiers STRING could not map.
    #[serde(default, skip_serializing_if = "set::is_zero")]
    pub unresolved_count: usize,
    /// This page of edges, strongest first.
    pub edges: Vec<Edge>,
    /// Whether the set is a module; absent for a single protein, or when STRING's test
    /// failed (then `note` says so).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ppi_enrichment: Option<PpiEnrichment>,
    /// What the result leaves out, and why.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// `total_count` counts every edge; `cursor` fetches the next page.
    pub pagination: Pagination,
}

/// The statistics of `ppi_enrichment`'s row, when it has them.
fn ppi(rows: &[PpiEnrichmentRow]) -> Option<PpiEnrichment> {
    let row = rows.first()?;
    let f = |v: &Option<Lenient>| v.as_ref().and_then(Lenient::as_f64);
    let u = |v: &Option<Lenient>| v.as_ref().and_then(Lenient::as_u64);
    Some(PpiEnrichment {
        number_of_nodes: u(&row.number_of_nodes)?,
        number_of_edges: u(&row.number_of_edges)?,
        expected_number_of_edges: f(&row.expected_number_of_edges).unwrap_or(0.0),
        average_node_degree: f(&row.average_node_degree).unwrap_or(0.0),
        clustering_coefficient: f(&row.local_clustering_coefficient).unwrap_or(0.0),
        p_value: f(&row.p_value)?.clamp(0.0, 1.0),
    })
}

/// The edges of `rows` at or above the threshold, one per unordered pair (the
/// strongest), strongest first (then names, for a stable order).
fn edges(rows: &[crate::models::PartnerRow], required_score: u32) -> Vec<Edge> {
    let threshold = f64::from(required_score) / 1000.0;
    let mut best: HashMap<(String, String), Edge> = HashMap::new();
    for row in rows {
        let Some(a) = row.string_id_a.as_deref().and_then(StringId::parse_bare) else {
            continue;
        };
        let Some(found) = interaction(row, &a) else {
            continue;
        };
        if found.combined_score + 1e-9 < threshold {
            continue;
        }
        let edge = Edge {
            protein_a: found.protein_a,
            protein_b: found.protein_b,
            preferred_name_a: found.preferred_name_a,
            preferred_name_b: found.preferred_name_b,
            combined_score: found.combined_score,
            evidence: found.evidence,
        };
        let key = if edge.protein_a <= edge.protein_b {
            (edge.protein_a.clone(), edge.protein_b.clone())
        } else {
            (edge.protein_b.clone(), edge.protein_a.clone())
        };
        match best.get(&key) {
            Some(kept) if kept.combined_score >= edge.combined_score => {}
            _ => {
                best.insert(key, edge);
            }
        }
    }
    let mut edges: Vec<Edge> = best.into_values().collect();
    edges.sort_by(|x, y| {
        y.combined_score
            .total_cmp(&x.combined_score)
            .then_with(|| x.preferred_name_a.cmp(&y.preferred_name_a))
            .then_with(|| x.preferred_name_b.cmp(&y.preferred_name_b))
    });
    edges
}

/// Every protein of the network with its degree, best connected first: the set's own
/// (`set`) and those only the edges name (added by STRING).
fn nodes(set: &[Node], edges: &[Edge]) -> Vec<NetworkNode> {
    let mut all: Vec<NetworkNode> = set
        .iter()
        .map(|n| NetworkNode {
            id: n.id.clone(),
            preferred_name: n.preferred_name.clone(),
            degree: 0,
            added: false,
        })
        .collect();
    let mut index: HashMap<String, usize> = all
        .iter()
        .enumerate()
        .map(|(i, n)| (n.id.clone(), i))
        .collect();
    for edge in edges {
        for (id, name) in [
            (&edge.protein_a, &edge.preferred_name_a),
            (&edge.protein_b, &edge.preferred_name_b),
        ] {
            let i = *index.entry(id.clone()).or_insert_with(|| {
                all.push(NetworkNode {
                    id: id.clone(),
                    preferred_name: name.clone(),
                    degree: 0,
                    added: true,
                });
                all.len() - 1
            });
            all[i].degree += 1;
        }
    }
    all.sort_by(|x, y| {
        y.degree
            .cmp(&x.degree)
            .then_with(|| x.preferred_name.cmp(&y.preferred_name))
    });
    all
}

impl StringServer {
    /// Interaction network among a protein set (resolved in one request; unmapped ones
    /// listed): edges with combined and channel scores, and `ppi_enrichment`, STRING's test
    /// of whether the set is a module (observed vs expected edges, p-value).
    /// Example: `{"identifiers": ["TP53", "MDM2", "ATM"], "required_score": 700}`.
    #[tool(
        title = "Get the STRING network of a protein set",
        annotations(read_only_hint = true, idempotent_hint = true, open_world_hint = true)
    )]
    pub(crate) async fn string_get_network(
        &self,
        Parameters(args): Parameters<GetNetworkArgs>,
    ) -> Result<Json<Network>, ApiError> {
        let args = args?;
        let identifiers = set::normalise(
            &args.identifiers,
            MAX_SET,
            "STRING's limit for a network query",
        )?;
        let species = set::set_species(args.species.as_ref(), &identifiers, "one network")?;
        let required_score = required_score(args.required_score.as_ref())?.unwrap_or(400);
        let network_type = args.network_type.unwrap_or_default();
        let add_nodes = in_range("add_nodes", args.add_nodes, 0, 100, 0)?;
        let limit = in_range("limit", args.limit, 1, 1000, 50)?;
        let scope = format!(
            "string_get_network|{species}|{}|{required_score}|{}|{add_nodes}|{limit}",
            identifiers.join("\r"),
            network_type.as_param()
        );
        let offset: usize = match args.cursor.as_deref().map(str::trim) {
            Some(c) if !c.is_empty() => cursor::decode(c, &scope)?,
            _ => 0,
        };

        let resolved = self.resolve_set(&identifiers, &species).await?;
        let ids = resolved.bare_ids();
        let network = self
            .string
            .network(&ids, &species, required_score, network_type, add_nodes);
        let module_test = async {
            if ids.len() < 2 {
                return None;
            }
            Some(
                self.string
                    .ppi_enrichment(&ids, &species, required_score, network_type)
                    .await,
            )
        };
        let (rows, module_test) = futures::join!(network, module_test);
        let all_edges = edges(&rows?, required_score);

        let mut note = None;
        let ppi_enrichment = match module_test {
            None => None,
            Some(Ok(rows)) => {
                let found = ppi(&rows);
                if found.is_none() {
                    note = Some("STRING's module test answered without statistics.".to_owned());
                }
                found
            }
            Some(Err(e)) => {
                note = Some(format!(
                    "STRING's module test (ppi_enrichment) failed: {e} Call again to retry it."
                ));
                None
            }
        };

        let all_nodes = nodes(&resolved.nodes(), &all_edges);
        let node_count = all_nodes.len();
        let shown_nodes = if offset == 0 {
            if node_count > MAX_NODES_SHOWN {
                let more = format!(
                    "Nodes: the {MAX_NODES_SHOWN} best connected of {node_count} are listed."
                );
                note = Some(note.map_or(more.clone(), |n| format!("{n} {more}")));
            }
            all_nodes.into_iter().take(MAX_NODES_SHOWN).collect()
        } else {
            Vec::new()
        };
        let total = all_edges.len();
        let page: Vec<Edge> = all_edges
            .into_iter()
            .skip(offset)
            .take(limit as usize)
            .collect();
        let next = offset + page.len();
        let next_cursor = (next < total).then(|| cursor::encode(&scope, &next));
        let (unresolved_shown, unresolved_count) = resolved.unresolved_shown();
        Ok(Json(Network {
            nodes: shown_nodes,
            node_count,
            unresolved: unresolved_shown,
            unresolved_count,
            edges: page,
            ppi_enrichment,
            note,
            pagination: Pagination {
                cursor: next_cursor,
                total_count: Some(total as u64),
                page_size: limit,
            },
        }))
    }
}
