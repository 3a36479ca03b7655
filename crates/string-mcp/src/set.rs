//! Sets of proteins, as the set tools take them: an `identifiers` argument (names, UniProt
//! accessions and STRING CURIEs, mixed; a list or one string, read by core's
//! `args::one_or_many`), its species, and its resolution to STRING proteins in one
//! `get_string_ids` request.
//! Identifiers STRING cannot map are listed, not fatal, unless none maps.

use lifesciences_core::schemars::{self, JsonSchema};
use lifesciences_core::{ApiError, Reply};
use serde::{Deserialize, Serialize};

use crate::ids::{Species, SpeciesArg, StringId, strip_curie_prefix};
use crate::models::Lenient;
use crate::server::StringServer;

/// Most identifiers one set tool takes: what STRING's own web form accepts for a
/// multi-protein query.
pub(crate) const MAX_SET: usize = 2000;

/// Trim, split multi-line entries, drop blanks and repeats, strip the CURIE prefix (in
/// any case: `string:9606.ENSP…` is the protein, not a name STRING cannot resolve).
/// An item of a list is split on line breaks because STRING separates the identifiers of
/// a request by them: one such item would reach STRING as several identifiers and no
/// longer match its answer rows by position.
/// Empty, or more than `max`, is `INVALID_INPUT`; `why_max` says why the cap is there.
pub(crate) fn normalise(
    raw: &[String],
    max: usize,
    why_max: &str,
) -> Result<Vec<String>, ApiError> {
    let mut out: Vec<String> = Vec::new();
    for item in raw.iter().flat_map(|s| s.split(['\r', '\n'])) {
        let item = item.trim();
        let item = strip_curie_prefix(item).unwrap_or(item).trim();
        if !item.is_empty() && !out.iter().any(|seen| seen == item) {
            out.push(item.to_owned());
        }
    }
    if out.is_empty() {
        return Err(ApiError::invalid_input(
            "Argument 'identifiers' holds no protein.",
            format!(
                "Pass 1 to {max} names or STRING CURIEs, e.g. [\"STRING:9606.ENSP00000269305\", \
                 \"MDM2\"]."
            ),
            serde_json::to_string(raw).unwrap_or_default(),
        ));
    }
    if out.len() > max {
        return Err(ApiError::invalid_input(
            format!(
                "Argument 'identifiers' holds {} proteins; at most {max} are accepted.",
                out.len()
            ),
            format!("Pass at most {max} identifiers ({why_max}); split the set."),
            format!("{} identifiers", out.len()),
        ));
    }
    Ok(out)
}

/// The species of a set: the one given, checked against the taxa of any STRING IDs;
/// else the taxon those IDs share; else human. `what` names the result in the error
/// (`one network image`).
pub(crate) fn set_species(
    arg: Option<&SpeciesArg>,
    identifiers: &[String],
    what: &str,
) -> Result<Species, ApiError> {
    let given = arg.map(|s| Species::parse(&s.0)).transpose()?;
    let mut taxa: Vec<(Species, &String)> = Vec::new();
    for id in identifiers {
        if let Some(parsed) = StringId::parse_bare(id)
            && !taxa.iter().any(|(s, _)| s == parsed.species())
        {
            taxa.push((parsed.species().clone(), id));
        }
    }
    match (given, taxa.as_slice()) {
        (Some(species), taxa) => match taxa.iter().find(|(s, _)| *s != species) {
            Some((other, id)) => Err(ApiError::invalid_input(
                format!(
                    "'{id}' is a protein of species {other}, but 'species' is {species}: \
                     {what} covers one species."
                ),
                format!("Omit 'species' (it follows the IDs), or pass species {other}."),
                species.to_string(),
            )),
            None => Ok(species),
        },
        (None, []) => Ok(Species::HUMAN),
        (None, [(only, _)]) => Ok(only.clone()),
        (None, [(first, a), (second, b), ..]) => Err(ApiError::invalid_input(
            format!(
                "The identifiers mix species: '{a}' is {first}, '{b}' is {second}; {what} \
                 covers one species."
            ),
            "Pass proteins of one species, and set 'species' to its taxon.",
            format!("{a}, {b}"),
        )),
    }
}

/// Most unmapped identifiers a result lists; `unresolved_count` counts them all.
pub(crate) const MAX_UNRESOLVED_SHOWN: usize = 50;

/// For `skip_serializing_if`: a count of nothing is left out.
pub(crate) fn is_zero(n: &usize) -> bool {
    *n == 0
}

/// A protein of a set, as STRING resolved it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub(crate) struct Node {
    /// Its STRING CURIE.
    pub id: String,
    /// STRING's preferred name, e.g. `TP53`.
    pub preferred_name: String,
}

/// A set resolved to STRING proteins, in input order, without repeats.
#[derive(Debug, Clone)]
pub(crate) struct Resolved {
    /// The proteins found: the identifier given, and the protein it maps to.
    pub proteins: Vec<(String, StringId, String)>,
    /// Identifiers STRING could not map in the species, as given.
    pub unresolved: Vec<String>,
}

impl Resolved {
    /// The STRING IDs (`9606.ENSP…`), as the set endpoints take them.
    pub(crate) fn bare_ids(&self) -> Vec<String> {
        self.proteins.iter().map(|(_, id, _)| id.bare()).collect()
    }

    /// The proteins as result nodes.
    pub(crate) fn nodes(&self) -> Vec<Node> {
        self.proteins
            .iter()
            .map(|(_, id, name)| Node {
                id: id.curie(),
                preferred_name: name.clone(),
            })
            .collect()
    }

    /// The unmapped identifiers a result lists (the first [`MAX_UNRESOLVED_SHOWN`]), and
    /// how many there are.
    pub(crate) fn unresolved_shown(&self) -> (Vec<String>, usize) {
        let shown = self
            .unresolved
            .iter()
            .take(MAX_UNRESOLVED_SHOWN)
            .cloned()
            .collect();
        (shown, self.unresolved.len())
    }
}

impl StringServer {
    /// Resolve `identifiers` (normalised) in `species` with one `get_string_ids` request.
    /// None found is `ENTITY_NOT_FOUND`; some found lists the others as unresolved.
    pub(crate) async fn resolve_set(
        &self,
        identifiers: &[String],
        species: &Species,
    ) -> Result<Resolved, ApiError> {
        let rows = match self.string.resolve_set(identifiers, species).await? {
            Reply::Found(rows) => rows,
            // Nothing maps, or an unknown taxon where nothing can map.
            Reply::Missing | Reply::Refused(_) => Vec::new(),
        };
        let mut found: Vec<Option<(StringId, String)>> = vec![None; identifiers.len()];
        for row in &rows {
            let index = row
                .query_index
                .as_ref()
                .and_then(Lenient::as_u64)
                .and_then(|i| usize::try_from(i).ok())
                .filter(|i| *i < identifiers.len())
                .or_else(|| {
                    let item = row.query_item.as_deref()?.trim();
                    identifiers.iter().position(|given| given == item)
                });
            let id = row.string_id.as_deref().and_then(StringId::parse_bare);
            let (Some(index), Some(id)) = (index, id) else {
                continue;
            };
            if found[index].is_none() {
                let name = row
                    .preferred_name
                    .as_deref()
                    .map(str::trim)
                    .filter(|s| !s.is_empty())
                    .map_or_else(|| id.bare(), str::to_owned);
                found[index] = Some((id, name));
            }
        }
        let mut resolved = Resolved {
            proteins: Vec::new(),
            unresolved: Vec::new(),
        };
        for (given, hit) in identifiers.iter().zip(found) {
            match hit {
                Some((id, name)) => {
                    if !resolved.proteins.iter().any(|(_, seen, _)| *seen == id) {
                        resolved.proteins.push((given.clone(), id, name));
                    }
                }
                None => resolved.unresolved.push(given.clone()),
            }
        }
        if resolved.proteins.is_empty() {
            let shown: Vec<&String> = identifiers.iter().take(5).collect();
            return Err(ApiError::not_found(
                format!(
                    "STRING maps none of the {} identifiers to a protein of species {species}.",
                    identifiers.len()
                ),
                format!(
                    "Check the names and the species, or find each protein with \
                     string_search_proteins (e.g. {{\"query\": \"TP53\", \"species\": {species}}})."
                ),
                serde_json::to_string(&shown).unwrap_or_default(),
            ));
        }
        Ok(resolved)
    }
}
