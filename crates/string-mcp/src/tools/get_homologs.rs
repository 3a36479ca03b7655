//! `string_get_homologs`: each protein's best hit in other species (`homology_best`,
//! several target species in one request), or the similarity among the given proteins
//! within their species (`homology`), with Smith-Waterman bitscores. Requests: the set
//! resolved in one `get_string_ids`, the homology request, and to name the hits of a
//! page one `get_string_ids` per target species on it (none within a species: the hits
//! are the set's own proteins). Later pages re-use the cached homology answer.

use std::collections::HashMap;

use lifesciences_core::schemars::{self, JsonSchema};
use lifesciences_core::{ApiError, Pagination, Parameters, Reply, cursor, in_range, lenient};
use rmcp::{Json, tool};
use serde::{Deserialize, Deserializer, Serialize};

use crate::ids::{Species, SpeciesArg, StringId};
use crate::models::{HomologyRow, Lenient};
use crate::server::StringServer;
use crate::set::{self, MAX_SET};

/// Most target species one call takes.
const MAX_TARGETS: usize = 10;

/// Arguments of `string_get_homologs`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct GetHomologsArgs {
    /// 1–2000 names, UniProt accessions or CURIEs.
    #[serde(deserialize_with = "lifesciences_core::args::one_or_many")]
    #[schemars(with = "Vec<String>")]
    #[schemars(length(min = 1, max = 2000))]
    pub identifiers: Vec<String>,
    /// NCBI taxon or common name; default: the CURIEs' taxon, else 9606.
    #[serde(default)]
    pub species: Option<SpeciesArg>,
    /// Taxa to find each protein's best hit in, e.g. [10090, "rat"]; omit for the
    /// similarity among the given proteins within their species.
    #[serde(default, deserialize_with = "targets")]
    #[schemars(with = "Vec<SpeciesArg>")]
    #[schemars(length(max = 10))]
    pub target_species: Vec<String>,
    /// Hits per page, 1–1000.
    #[serde(default, deserialize_with = "lenient::opt_u32")]
    #[schemars(range(min = 1, max = 1000))]
    #[schemars(extend("default" = 100))]
    pub limit: Option<u32>,
    /// `pagination.cursor` of the previous page.
    #[serde(default)]
    pub cursor: Option<String>,
}

/// `target_species` as sent: one taxon or name, a list of them, or one string split by
/// core's list rule (`args::split_list`: commas and line breaks). Numbers are taxa, so
/// this reads them too, which `args::one_or_many` refuses.
fn targets<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Vec<String>, D::Error> {
    let refused = |v: &serde_json::Value| {
        serde::de::Error::invalid_type(
            serde::de::Unexpected::Other(&v.to_string()),
            &"NCBI taxon IDs such as 10090, or common names such as 'mouse'",
        )
    };
    match Option::<serde_json::Value>::deserialize(deserializer)? {
        None => Ok(Vec::new()),
        Some(serde_json::Value::Number(n)) => Ok(vec![n.to_string()]),
        Some(serde_json::Value::String(s)) => Ok(lifesciences_core::args::split_list(&s)),
        Some(serde_json::Value::Array(items)) => items
            .iter()
            .map(|v| match v {
                serde_json::Value::Number(n) => Ok(n.to_string()),
                serde_json::Value::String(s) => Ok(s.trim().to_owned()),
                other => Err(refused(other)),
            })
            .collect(),
        Some(other) => Err(refused(&other)),
    }
}

/// A protein of the set and one of its homologs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub(crate) struct Homolog {
    /// The protein of the set, as a STRING CURIE.
    pub protein: String,
    /// STRING's preferred name of `protein`.
    pub preferred_name: String,
    /// The homolog's STRING CURIE (within a species, itself for the self-hit).
    pub homolog: String,
    /// STRING's preferred name of the homolog, when STRING gave one.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub homolog_name: String,
    /// The homolog's NCBI taxon.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub taxon_id: Option<u64>,
    /// Smith-Waterman bitscore of the alignment: higher is more similar; the self-hit
    /// shows the most a protein can score.
    pub bitscore: f64,
}

/// The homologs of a set.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub(crate) struct Homologs {
    /// Proteins of the set STRING searched.
    pub protein_count: usize,
    /// Identifiers STRING could not map in the species (the first 50); left out.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub unresolved: Vec<String>,
    /// How many identifiers STRING could not map.
    #[serde(default, skip_serializing_if = "set::is_zero")]
    pub unresolved_count: usize,
    /// This page of hits: in the set's order, then by target species, best first.
    pub homologs: Vec<Homolog>,
    /// What the result leaves out, and why.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// `total_count` counts every hit; `cursor` fetches the next page.
    pub pagination: Pagination,
}

/// The target species, parsed, without repeats; one of them being the set's own species
/// is `INVALID_INPUT` (that is the within-species mode).
fn parse_targets(raw: &[String], species: &Species) -> Result<Vec<Species>, ApiError> {
    let mut out: Vec<Species> = Vec::new();
    for given in raw.iter().map(|s| s.trim()).filter(|s| !s.is_empty()) {
        let target = Species::parse(given)?;
        if target == *species {
            return Err(ApiError::invalid_input(
                format!("Target species {target} is the set's own species."),
                "Omit 'target_species' to compare the proteins within their species, or \
                 name other taxa, e.g. [10090] for mouse.",
                given,
            ));
        }
        if !out.contains(&target) {
            out.push(target);
        }
    }
    if out.len() > MAX_TARGETS {
        return Err(ApiError::invalid_input(
            format!(
                "Argument 'target_species' names {} species; at most {MAX_TARGETS} are accepted.",
                out.len()
            ),
            format!("Pass at most {MAX_TARGETS} taxa, and call again for the others."),
            format!("{} species", out.len()),
        ));
    }
    Ok(out)
}

/// The rows as hits, in the set's order, then by target species (as given), then by
/// bitscore, best first. Rows naming proteins outside the set are skipped.
fn hits(rows: &[HomologyRow], set: &set::Resolved, targets: &[Species]) -> Vec<Homolog> {
    let position: HashMap<String, usize> = set
        .proteins
        .iter()
        .enumerate()
        .map(|(i, (_, id, _))| (id.bare(), i))
        .collect();
    let mut out: Vec<(usize, usize, Homolog)> = rows
        .iter()
        .filter_map(|row| {
            let a = row.string_id_a.as_deref()?.trim();
            let b = StringId::parse_bare(row.string_id_b.as_deref()?.trim())?;
            let &at = position.get(a)?;
            let (_, query, name) = &set.proteins[at];
            let target = targets
                .iter()
                .position(|t| t == b.species())
                .unwrap_or(targets.len());
            let homolog_name = position
                .get(&b.bare())
                .map(|i| set.proteins[*i].2.clone())
                .unwrap_or_default();
            Some((
                at,
                target,
                Homolog {
                    protein: query.curie(),
                    preferred_name: name.clone(),
                    homolog: b.curie(),
                    homolog_name,
                    taxon_id: row
                        .ncbi_taxon_id_b
                        .as_ref()
                        .and_then(Lenient::as_u64)
                        .or_else(|| b.species().taxon()),
                    bitscore: row
                        .bitscore
                        .as_ref()
                        .and_then(Lenient::as_f64)
                        .unwrap_or(0.0),
                },
            ))
        })
        .collect();
    out.sort_by(|(a1, t1, h1), (a2, t2, h2)| {
        a1.cmp(a2)
            .then(t1.cmp(t2))
            .then(h2.bitscore.total_cmp(&h1.bitscore))
            .then_with(|| h1.homolog.cmp(&h2.homolog))
    });
    out.into_iter().map(|(_, _, h)| h).collect()
}

impl StringServer {
    /// Counterparts of proteins in other species: for each protein its best hit in
    /// each target species (e.g. mouse 10090), with name and bitscore. Without
    /// target_species: the bitscores among the given proteins within their species
    /// (paralogues of the set). Example: `{"identifiers": ["POSTN", "CXCL10"],
    /// "target_species": [10090]}`.
    #[tool(
        title = "Get STRING homologs",
        annotations(read_only_hint = true, idempotent_hint = true, open_world_hint = true)
    )]
    pub(crate) async fn string_get_homologs(
        &self,
        Parameters(args): Parameters<GetHomologsArgs>,
    ) -> Result<Json<Homologs>, ApiError> {
        let args = args?;
        let identifiers = set::normalise(&args.identifiers, MAX_SET, "STRING's limit for a set")?;
        let species = set::set_species(args.species.as_ref(), &identifiers, "one search")?;
        let targets = parse_targets(&args.target_species, &species)?;
        let limit = in_range("limit", args.limit, 1, 1000, 100)?;
        let scope = format!(
            "string_get_homologs|{species}|{}|{}|{limit}",
            identifiers.join("\r"),
            targets
                .iter()
                .map(Species::to_string)
                .collect::<Vec<_>>()
                .join(","),
        );
        let offset: usize = match args.cursor.as_deref().map(str::trim) {
            Some(c) if !c.is_empty() => cursor::decode(c, &scope)?,
            _ => 0,
        };

        let resolved = self.resolve_set(&identifiers, &species).await?;
        let rows = self
            .string
            .homology(&resolved.bare_ids(), &species, &targets)
            .await?;
        let all = hits(&rows, &resolved, &targets);
        let mut page: Vec<Homolog> = all
            .iter()
            .skip(offset)
            .take(limit as usize)
            .cloned()
            .collect();
        let next = offset + page.len();
        let next_cursor = (next < all.len()).then(|| cursor::encode(&scope, &next));

        let mut notes = Vec::new();
        let failed = self.name_hits(&mut page, &targets).await;
        if let Some(e) = failed.first() {
            notes.push(format!(
                "The homologs' names could not be fetched for {} target species ({}); their CURIEs are exact.",
                failed.len(),
                e.to_envelope().error.message.trim_end_matches('.')
            ));
        }
        let nameless = page
            .iter()
            .filter(|h| h.homolog_name.is_empty() && h.homolog != h.protein)
            .count();
        if nameless > 0 && failed.is_empty() && !targets.is_empty() {
            notes.push(format!(
                "STRING's name look-up gave no name for {nameless} {} on this page; {} CURIE is exact.",
                if nameless == 1 { "homolog" } else { "homologs" },
                if nameless == 1 { "its" } else { "their" },
            ));
        }
        if offset == 0 && all.is_empty() {
            notes.push(if targets.is_empty() {
                "STRING reports no similarity among these proteins.".to_owned()
            } else {
                "STRING reports no hit in the target species for these proteins.".to_owned()
            });
        }
        if !targets.is_empty() {
            let with_hits: std::collections::HashSet<&str> =
                all.iter().map(|h| h.protein.as_str()).collect();
            let missing: Vec<&str> = resolved
                .proteins
                .iter()
                .filter(|(_, id, _)| !with_hits.contains(id.curie().as_str()))
                .map(|(_, _, name)| name.as_str())
                .collect();
            if !missing.is_empty() && !all.is_empty() {
                let shown: Vec<&str> = missing.iter().take(20).copied().collect();
                notes.push(format!(
                    "No hit in the target species for {} proteins: {}{}.",
                    missing.len(),
                    shown.join(", "),
                    if missing.len() > shown.len() {
                        ", …"
                    } else {
                        ""
                    }
                ));
            }
        }
        let (unresolved_shown, unresolved_count) = resolved.unresolved_shown();
        Ok(Json(Homologs {
            protein_count: resolved.proteins.len(),
            unresolved: unresolved_shown,
            unresolved_count,
            homologs: page,
            note: (!notes.is_empty()).then(|| notes.join(" ")),
            pagination: Pagination {
                cursor: next_cursor,
                total_count: Some(all.len() as u64),
                page_size: limit,
            },
        }))
    }
}

impl StringServer {
    /// Fill in the names of the page's hits in other species: one `get_string_ids` per
    /// target species on the page. A species whose look-up fails leaves its hits unnamed
    /// and does not stop the others; the failures are returned, for the note.
    async fn name_hits(&self, page: &mut [Homolog], targets: &[Species]) -> Vec<ApiError> {
        let mut failed = Vec::new();
        for target in targets {
            let wanted: Vec<String> = page
                .iter()
                .filter(|h| h.homolog_name.is_empty())
                .filter_map(|h| StringId::parse_curie(&h.homolog).ok())
                .filter(|id| id.species() == target)
                .map(|id| id.bare())
                .fold(Vec::new(), |mut seen, id| {
                    if !seen.contains(&id) {
                        seen.push(id);
                    }
                    seen
                });
            if wanted.is_empty() {
                continue;
            }
            let rows = match self.string.resolve_set(&wanted, target).await {
                Ok(Reply::Found(rows)) => rows,
                // None of them maps: their hits go unnamed, and the note says so.
                Ok(Reply::Missing) => Vec::new(),
                Ok(Reply::Refused(refusal)) => {
                    failed.push(refusal.into_error());
                    continue;
                }
                Err(e) => {
                    failed.push(e);
                    continue;
                }
            };
            let names: HashMap<String, String> = rows
                .into_iter()
                .filter_map(|r| Some((r.string_id?.trim().to_owned(), r.preferred_name?)))
                .collect();
            for h in page.iter_mut() {
                if let Some(name) = StringId::parse_curie(&h.homolog)
                    .ok()
                    .and_then(|id| names.get(&id.bare()))
                {
                    h.homolog_name = name.trim().to_owned();
                }
            }
        }
        failed
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn target_species_take_numbers_names_and_one_string_split_by_the_list_rule() {
        let targets = |v: serde_json::Value| {
            lifesciences_core::args::decode_arguments::<GetHomologsArgs>(
                json!({"identifiers": ["TP53"], "target_species": v}),
            )
            .map(|a| a.target_species)
        };
        assert_eq!(targets(json!(10090)).unwrap(), ["10090"]);
        assert_eq!(targets(json!([10090, " rat "])).unwrap(), ["10090", "rat"]);
        assert_eq!(
            targets(json!("mouse, rat\n7955")).unwrap(),
            ["mouse", "rat", "7955"]
        );
        assert!(targets(json!(null)).unwrap().is_empty());
        let err = targets(json!([10090, null])).unwrap_err();
        assert_eq!(err.code(), lifesciences_core::ErrorCode::InvalidInput);
        assert!(err.to_envelope().error.message.contains("'target_species'"));
    }

    fn set() -> set::Resolved {
        set::Resolved {
            proteins: vec![
                (
                    "A".into(),
                    StringId::parse_bare("9606.ENSP1").unwrap(),
                    "A".into(),
                ),
                (
                    "B".into(),
                    StringId::parse_bare("9606.ENSP2").unwrap(),
                    "B".into(),
                ),
            ],
            unresolved: Vec::new(),
        }
    }

    #[test]
    fn hits_follow_the_set_then_the_targets_then_the_bitscore() {
        let rows: Vec<HomologyRow> = serde_json::from_value(json!([
            {"stringId_A": "9606.ENSP2", "stringId_B": "10090.ENSMUSP9", "ncbiTaxonId_B": 10090, "bitscore": 50.0},
            {"stringId_A": "9606.ENSP1", "stringId_B": "10116.ENSRNOP1", "ncbiTaxonId_B": 10116, "bitscore": 900.0},
            {"stringId_A": "9606.ENSP1", "stringId_B": "10090.ENSMUSP1", "ncbiTaxonId_B": "10090", "bitscore": "100.5"},
            {"stringId_A": "9606.ENSP7", "stringId_B": "10090.ENSMUSP7", "bitscore": 1.0}
        ]))
        .unwrap();
        let targets = [Species::Taxon(10090), Species::Taxon(10116)];
        let got: Vec<(String, String, f64)> = hits(&rows, &set(), &targets)
            .into_iter()
            .map(|h| (h.preferred_name, h.homolog, h.bitscore))
            .collect();
        assert_eq!(
            got,
            [
                ("A".into(), "STRING:10090.ENSMUSP1".into(), 100.5),
                ("A".into(), "STRING:10116.ENSRNOP1".into(), 900.0),
                ("B".into(), "STRING:10090.ENSMUSP9".into(), 50.0),
            ]
        );
    }

    #[test]
    fn within_a_species_the_hits_are_named_from_the_set() {
        let rows: Vec<HomologyRow> = serde_json::from_value(json!([
            {"stringId_A": "9606.ENSP1", "stringId_B": "9606.ENSP2", "bitscore": 80.1}
        ]))
        .unwrap();
        let h = &hits(&rows, &set(), &[])[0];
        assert_eq!(h.homolog_name, "B");
        assert_eq!(h.taxon_id, Some(9606));
    }

    #[test]
    fn the_own_species_or_too_many_targets_are_refused() {
        let human = Species::HUMAN;
        assert!(parse_targets(&["human".into()], &human).is_err());
        let many: Vec<String> = (1..=11).map(|t| (10000 + t).to_string()).collect();
        assert!(parse_targets(&many, &human).is_err());
        assert_eq!(
            parse_targets(&["mouse".into(), "10090".into()], &human).unwrap(),
            [Species::Taxon(10090)]
        );
    }
}
