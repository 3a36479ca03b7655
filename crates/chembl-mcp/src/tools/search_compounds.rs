//! `chembl_search_compounds`: ChEMBL's full-text molecule search, ranked by ChEMBL,
//! scores normalised to 0–1, paged with opaque cursors.
//!
//! ChEMBL refuses search terms shorter than 3 characters with a 400, so a
//! 2-character query is answered instead by exact, case-insensitive matches on the
//! preferred name and on synonyms (e.g. a code such as `5-FU` would be searched, `NO`
//! looked up exactly). ChEMBL ignores filters it does not recognise, so those
//! answers are checked: only molecules really named so are kept.

use lifesciences_core::rmcp::schemars::{self, JsonSchema};
use lifesciences_core::rmcp::{Json, tool};
use lifesciences_core::{
    ApiError, PaginationEnvelope, Parameters, Reply, SearchQuery, cursor, in_range, lenient,
};
use serde::{Deserialize, Serialize};

use crate::ids::ChemblId;
use crate::models::{Molecule, MoleculePage};
use crate::server::ChemblServer;

/// ChEMBL's search needs at least this many characters (`Search query too short`).
const UPSTREAM_MIN_CHARS: usize = 3;
/// ChEMBL considers at most this many search hits (`max_results`; docs/sources/chembl.md).
const UPSTREAM_MAX_HITS: u64 = 10_000;
/// Exact matches fetched for a 2-character query (there are only ever a few).
const EXACT_LIMIT: u32 = 100;

/// Arguments of `chembl_search_compounds`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct SearchCompoundsArgs {
    /// A name, trade name, synonym, research code or part of one (`imatinib`,
    /// `Gleevec`, `STI-571`), or a standard InChIKey (exact match). At least 2 characters.
    #[serde(default)]
    pub query: Option<String>,
    /// Instead of `query`: compounds similar to this SMILES, most similar first.
    #[serde(default)]
    pub similar_to: Option<String>,
    /// With `similar_to`: the lowest similarity, in percent.
    #[serde(default, deserialize_with = "lenient::opt_u32")]
    #[schemars(range(min = 70, max = 100))]
    #[schemars(extend("default" = 70))]
    pub similarity: Option<u32>,
    /// Instead of `query`: compounds containing this SMILES as a substructure.
    #[serde(default)]
    pub substructure: Option<String>,
    /// Results per page, 1–100.
    #[serde(default, deserialize_with = "lenient::opt_u32")]
    #[schemars(range(min = 1, max = 100))]
    #[schemars(extend("default" = 50))]
    pub page_size: Option<u32>,
    /// `pagination.cursor` from the previous page of the same query, to get the next page.
    /// Omit for the first page.
    #[serde(default)]
    pub cursor: Option<String>,
    /// `true` returns only `id`, `name` and `molecular_formula` per hit (quick triage);
    /// default `false`.
    #[serde(default, deserialize_with = "lenient::opt_bool")]
    #[schemars(extend("default" = false))]
    pub slim: Option<bool>,
}

/// One search hit.
#[serde_with::skip_serializing_none]
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub(crate) struct CompoundHit {
    /// The compound's CURIE, e.g. `CHEMBL:941`: pass it to `chembl_get_compound`.
    pub id: String,
    /// ChEMBL's preferred name, e.g. `IMATINIB`. When ChEMBL has none: the official name
    /// (INN, else USAN, BAN, JAN, USP), else the first synonym.
    pub name: Option<String>,
    /// Molecular formula, e.g. `C29H31N7O`; absent for biologics.
    pub molecular_formula: Option<String>,
    /// Molecular weight in g/mol.
    pub molecular_weight: Option<f64>,
    /// Highest development phase: 4 approved … 0.5 early phase 1, -1 unknown.
    pub max_phase: Option<serde_json::Number>,
    /// E.g. `Small molecule`, `Antibody`.
    pub molecule_type: Option<String>,
    /// Relevance, 0–1, best first: ChEMBL's own score divided by the query's top score
    /// (1 for exact matches; similarity / 100 for a similarity search).
    pub score: Option<f64>,
    /// Similarity to `similar_to`, in percent.
    pub similarity: Option<f64>,
}

/// Where the next page starts, and the query's top score so later pages normalise
/// against the same maximum as the first.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
struct Position {
    #[serde(rename = "o")]
    offset: u64,
    #[serde(rename = "t", default, skip_serializing_if = "Option::is_none")]
    top_score: Option<f64>,
}

fn hit(m: &Molecule, score: f64, slim: bool) -> CompoundHit {
    let base = crate::compound::Compound::slim(m);
    let mut hit = CompoundHit {
        id: base.id,
        name: base.name,
        molecular_formula: base.molecular_formula,
        molecular_weight: None,
        max_phase: None,
        molecule_type: None,
        score: None,
        similarity: None,
    };
    if !slim {
        hit.molecular_weight = m.molecule_properties.as_ref().and_then(|p| p.full_mwt);
        hit.max_phase = m.max_phase.and_then(crate::compound::phase);
        hit.molecule_type = m.molecule_type.clone().filter(|t| !t.trim().is_empty());
        hit.score = Some((score.clamp(0.0, 1.0) * 1000.0).round() / 1000.0);
    }
    hit
}

/// Normalised scores for a page of ChEMBL hits starting at `offset`: each score over the
/// query's top score; by rank when ChEMBL gave no usable score.
fn normalise(
    molecules: &[Molecule],
    offset: u64,
    top: Option<f64>,
    total: Option<u64>,
) -> Vec<f64> {
    let by_rank = |i: usize| {
        let n = total.unwrap_or(offset + molecules.len() as u64).max(1) as f64;
        1.0 - (offset + i as u64) as f64 / n
    };
    molecules
        .iter()
        .enumerate()
        .map(|(i, m)| match (m.score, top) {
            (Some(s), Some(t)) if t > 0.0 && s >= 0.0 => s / t,
            _ => by_rank(i),
        })
        .collect()
}

/// A standard InChIKey: 14 letters, a dash, 10 letters, a dash, one letter.
fn is_inchi_key(s: &str) -> bool {
    let parts: Vec<&str> = s.split('-').collect();
    matches!(parts.as_slice(), [a, b, c]
        if a.len() == 14 && b.len() == 10 && c.len() == 1
            && s.bytes().all(|x| x.is_ascii_uppercase() || x == b'-'))
}

/// `INVALID_INPUT` for a structure search ChEMBL refused (a SMILES it cannot read, a
/// threshold it does not take).
fn structure_refused(smiles: &str, reason: Option<String>, similarity: Option<u32>) -> ApiError {
    let said = reason
        .map(|m| format!(" ChEMBL said: {}.", m.trim_end_matches('.')))
        .unwrap_or_default();
    let hint = match similarity {
        Some(_) => {
            "Pass a valid SMILES (e.g. 'CC(=O)Oc1ccccc1C(=O)O') and a similarity from 70 \
                    to 100 percent."
        }
        None => "Pass a valid SMILES fragment, e.g. 'c1ccccc1C(=O)O'.",
    };
    ApiError::invalid_input(
        format!("ChEMBL could not run a structure search for '{smiles}'.{said}"),
        hint,
        smiles,
    )
}

/// Whether `m`'s preferred name or one of its synonyms is `query`, ignoring case.
fn is_named(m: &Molecule, query: &str) -> bool {
    let wanted = query.to_lowercase();
    let same = |name: &str| name.trim().to_lowercase() == wanted;
    m.pref_name.as_deref().is_some_and(same)
        || m.molecule_synonyms.iter().any(|s| {
            s.molecule_synonym.as_deref().is_some_and(same)
                || s.synonyms.as_deref().is_some_and(same)
        })
}

/// Merge exact name matches and exact synonym matches, names first, without duplicates,
/// keeping only molecules really named `query` (a filter ChEMBL stopped recognising would
/// otherwise hand back the unfiltered collection).
fn merge_exact(query: &str, by_name: MoleculePage, by_synonym: MoleculePage) -> Vec<Molecule> {
    let mut merged: Vec<Molecule> = Vec::new();
    for m in by_name.molecules.into_iter().chain(by_synonym.molecules) {
        if !is_named(&m, query) {
            continue;
        }
        if !merged.iter().any(|k| {
            k.molecule_chembl_id
                .eq_ignore_ascii_case(&m.molecule_chembl_id)
        }) {
            merged.push(m);
        }
    }
    merged
}

/// What a call asks for, read from its arguments: words (a name, a code, an InChIKey)
/// or a structure.
enum Asked {
    /// `query`, exactly as the caller sent it.
    Words(String),
    /// `similar_to` (`similar`) or `substructure`, trimmed.
    Structure { smiles: String, similar: bool },
}

/// Exactly one of `query`, `similar_to` and `substructure`; else `INVALID_INPUT`.
fn asked(args: &SearchCompoundsArgs) -> Result<Asked, ApiError> {
    let given = |v: &Option<String>| {
        v.as_deref()
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(str::to_owned)
    };
    let (similar_to, substructure) = (given(&args.similar_to), given(&args.substructure));
    match (&args.query, similar_to, substructure) {
        (Some(query), None, None) => Ok(Asked::Words(query.clone())),
        (None, Some(smiles), None) => Ok(Asked::Structure {
            smiles,
            similar: true,
        }),
        (None, None, Some(smiles)) => Ok(Asked::Structure {
            smiles,
            similar: false,
        }),
        _ => Err(ApiError::invalid_input(
            "Pass one of 'query', 'similar_to' or 'substructure'.",
            "E.g. {\"query\": \"imatinib\"}, {\"similar_to\": \"CC(=O)Oc1ccccc1C(=O)O\", \
             \"similarity\": 80} or {\"substructure\": \"c1ccccc1C(=O)O\"}.",
            "query, similar_to, substructure",
        )),
    }
}

/// The page a search by words asks for: its size, whether hits are slim, and where the
/// cursor (bound to `scope`, the query) says it starts.
struct Paging {
    size: u32,
    slim: bool,
    scope: String,
    position: Position,
}

impl Paging {
    /// The cursor to the page after `shown` hits from this one, when `more` follow.
    fn next(&self, shown: usize, more: bool, top_score: Option<f64>) -> Option<String> {
        let offset = self.position.offset + shown as u64;
        more.then(|| cursor::encode(&self.scope, &Position { offset, top_score }))
    }
}

/// A page of molecules that match exactly (an InChIKey, a 2-character name): all score
/// 1, and their number is the total.
fn exact_page(matches: &[Molecule], paging: &Paging) -> PaginationEnvelope<CompoundHit> {
    let items: Vec<CompoundHit> = matches
        .iter()
        .skip(usize::try_from(paging.position.offset).unwrap_or(usize::MAX))
        .take(paging.size as usize)
        .map(|m| hit(m, 1.0, paging.slim))
        .collect();
    let total = matches.len() as u64;
    let more = paging.position.offset + (items.len() as u64) < total;
    let cursor = paging.next(items.len(), more, None);
    PaginationEnvelope::new(items, cursor, Some(total), paging.size)
}

/// A page of ChEMBL's full-text search, scores over the query's top score (the first
/// page's, carried in the cursor), a next page offered while ChEMBL has more and within
/// the hits it considers.
fn ranked_page(found: &MoleculePage, paging: &Paging) -> PaginationEnvelope<CompoundHit> {
    let offset = paging.position.offset;
    let total = found.page_meta.as_ref().and_then(|m| m.total());
    let top_score = paging.position.top_score.or_else(|| {
        found
            .molecules
            .iter()
            .filter_map(|m| m.score)
            .fold(None, |best: Option<f64>, s| {
                Some(best.map_or(s, |b| b.max(s)))
            })
    });
    let scores = normalise(&found.molecules, offset, top_score, total);
    let items: Vec<CompoundHit> = found
        .molecules
        .iter()
        .zip(scores)
        .map(|(m, score)| hit(m, score, paging.slim))
        .collect();
    let next = offset + items.len() as u64;
    let more = !items.is_empty()
        && next < UPSTREAM_MAX_HITS
        && total.map_or(items.len() == paging.size as usize, |t| next < t);
    let cursor = paging.next(items.len(), more, top_score);
    PaginationEnvelope::new(items, cursor, total, paging.size)
}

impl ChemblServer {
    /// Search ChEMBL compounds by name, trade name, synonym or part of one (ranked by
    /// ChEMBL's relevance, score 0–1), by InChIKey, or by structure: similar to a SMILES
    /// (with the similarity) or containing one. A page at a time; CURIEs for
    /// chembl_get_compound. Example: `{"query": "imatinib", "page_size": 5}`.
    #[tool(
        title = "Search ChEMBL compounds",
        annotations(read_only_hint = true, idempotent_hint = true, open_world_hint = true)
    )]
    pub(crate) async fn chembl_search_compounds(
        &self,
        Parameters(args): Parameters<SearchCompoundsArgs>,
    ) -> Result<Json<PaginationEnvelope<CompoundHit>>, ApiError> {
        let args = args?;
        match asked(&args)? {
            Asked::Structure { smiles, similar } => {
                self.structure_search(&args, &smiles, similar).await
            }
            Asked::Words(raw_query) => self.words_search(&args, &raw_query).await.map(Json),
        }
    }

    /// A search by words: an InChIKey is looked up exactly, a 2-character query by exact
    /// name and synonym (ChEMBL's search refuses it), anything longer by ChEMBL's
    /// full-text search.
    async fn words_search(
        &self,
        args: &SearchCompoundsArgs,
        raw_query: &str,
    ) -> Result<PaginationEnvelope<CompoundHit>, ApiError> {
        let query = SearchQuery::parse(raw_query).map_err(|e| {
            e.with_hint(
                "Minimum query length is 2 characters: search with a drug or compound name, \
                 trade name or research code, e.g. 'imatinib', 'Gleevec' or 'STI-571'.",
            )
        })?;
        let size = in_range("page_size", args.page_size, 1, 100, 50)?;
        let scope = format!("chembl_search_compounds|{}", query.as_str().to_lowercase());
        let position: Position = match args.cursor.as_deref().map(str::trim) {
            Some(c) if !c.is_empty() => cursor::decode(c, &scope)?,
            _ => Position::default(),
        };
        let paging = Paging {
            size,
            slim: args.slim.unwrap_or(false),
            scope,
            position,
        };
        let query = query.as_str();

        if is_inchi_key(query) {
            // An InChIKey names one structure: its molecules, exactly.
            let found = self.chembl.by_inchi_key(query).await?;
            let matches: Vec<Molecule> = found
                .molecules
                .into_iter()
                .filter(|m| {
                    m.molecule_structures
                        .as_ref()
                        .and_then(|x| x.standard_inchi_key.as_deref())
                        .is_none_or(|k| k == query)
                })
                .collect();
            return Ok(exact_page(&matches, &paging));
        }

        if query.chars().count() < UPSTREAM_MIN_CHARS {
            let (by_name, by_synonym) = futures::try_join!(
                self.chembl.by_exact_name(query, EXACT_LIMIT),
                self.chembl.by_exact_synonym(query, EXACT_LIMIT),
            )?;
            return Ok(exact_page(
                &merge_exact(query, by_name, by_synonym),
                &paging,
            ));
        }

        // A CURIE is searched in ChEMBL's own spelling, which its index holds.
        let text = match query.parse::<ChemblId>() {
            Ok(id) => id.upstream(),
            Err(_) => query.to_owned(),
        };
        let found = match self
            .chembl
            .search(&text, paging.position.offset, paging.size)
            .await?
        {
            Reply::Found(page) => page,
            // Not read from a search: ChEMBL answers an empty page when nothing matches.
            Reply::Missing => MoleculePage::default(),
            Reply::Refused(refusal) => {
                return Err(refused(&text, raw_query, refusal.error_message));
            }
        };
        Ok(ranked_page(&found, &paging))
    }
}

impl ChemblServer {
    /// A similarity or substructure search, one upstream page per call.
    async fn structure_search(
        &self,
        args: &SearchCompoundsArgs,
        smiles: &str,
        similar: bool,
    ) -> Result<Json<PaginationEnvelope<CompoundHit>>, ApiError> {
        let page_size = in_range("page_size", args.page_size, 1, 100, 50)?;
        let slim = args.slim.unwrap_or(false);
        let threshold = if similar {
            Some(in_range("similarity", args.similarity, 70, 100, 70)?)
        } else {
            None
        };
        let scope = format!(
            "chembl_search_compounds|structure|{smiles}|{}",
            threshold.map_or("sub".to_owned(), |t| t.to_string())
        );
        let offset = match args.cursor.as_deref().map(str::trim) {
            Some(c) if !c.is_empty() => cursor::decode::<Position>(c, &scope)?.offset,
            _ => 0,
        };
        let found = match self
            .chembl
            .structure_search(smiles, threshold, offset, page_size)
            .await?
        {
            Reply::Found(page) => page,
            Reply::Missing => MoleculePage::default(),
            Reply::Refused(refusal) => {
                return Err(structure_refused(smiles, refusal.error_message, threshold));
            }
        };
        let total = found.page_meta.as_ref().and_then(|m| m.total());
        let items: Vec<CompoundHit> = found
            .molecules
            .iter()
            .map(|m| {
                let mut h = hit(m, m.similarity.map_or(1.0, |s| s / 100.0), slim);
                if slim {
                    return h;
                }
                if similar {
                    h.similarity = m.similarity.map(|s| (s * 100.0).round() / 100.0);
                } else {
                    h.score = None;
                }
                h
            })
            .collect();
        let next = offset + items.len() as u64;
        let more =
            !items.is_empty() && total.map_or(items.len() == page_size as usize, |t| next < t);
        let cursor = more.then(|| {
            cursor::encode(
                &scope,
                &Position {
                    offset: next,
                    top_score: None,
                },
            )
        });
        Ok(Json(PaginationEnvelope::new(
            items, cursor, total, page_size,
        )))
    }
}

/// `INVALID_INPUT` for a query ChEMBL refused to search (`text`, as sent to ChEMBL), echoing
/// `raw`, exactly what the caller sent.
fn refused(text: &str, raw: &str, reason: Option<String>) -> ApiError {
    let said = reason
        .map(|m| format!(" ChEMBL said: {}.", m.trim_end_matches('.')))
        .unwrap_or_default();
    let hint = if text.chars().count() < UPSTREAM_MIN_CHARS {
        "Search with at least 3 characters of a drug name, trade name or synonym, e.g. \
         'imatinib' or 'Gleevec'."
    } else {
        "Search with the words of a drug name, trade name, synonym or research code, \
         without operators or special characters, e.g. 'imatinib' or 'Gleevec'."
    };
    ApiError::invalid_input(
        format!("ChEMBL could not run a search for '{text}'.{said}"),
        hint,
        raw,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn molecules(scores: &[Option<f64>]) -> Vec<Molecule> {
        scores
            .iter()
            .enumerate()
            .map(|(i, s)| {
                serde_json::from_value(
                    json!({"molecule_chembl_id": format!("CHEMBL{i}"), "score": s}),
                )
                .unwrap()
            })
            .collect()
    }

    #[test]
    fn scores_are_divided_by_the_query_top_score() {
        let page = molecules(&[Some(20.0), Some(10.0), Some(5.0)]);
        assert_eq!(
            normalise(&page, 0, Some(20.0), Some(3)),
            vec![1.0, 0.5, 0.25]
        );
        // A later page keeps the first page's maximum.
        let page = molecules(&[Some(4.0)]);
        assert_eq!(normalise(&page, 50, Some(20.0), Some(60)), vec![0.2]);
    }

    #[test]
    fn missing_scores_fall_back_to_rank() {
        let page = molecules(&[None, None]);
        assert_eq!(normalise(&page, 0, None, Some(4)), vec![1.0, 0.75]);
    }

    #[test]
    fn slim_hits_keep_only_id_name_and_formula() {
        let m: Molecule = serde_json::from_value(json!({"molecule_chembl_id": "CHEMBL941",
            "pref_name": "IMATINIB", "max_phase": "4.0", "molecule_type": "Small molecule",
            "molecule_properties": {"full_molformula": "C29H31N7O", "full_mwt": "493.62"}}))
        .unwrap();
        assert_eq!(
            serde_json::to_value(hit(&m, 1.0, true)).unwrap(),
            json!({"id": "CHEMBL:941", "name": "IMATINIB", "molecular_formula": "C29H31N7O"})
        );
        assert_eq!(
            serde_json::to_value(hit(&m, 0.12345, false)).unwrap(),
            json!({"id": "CHEMBL:941", "name": "IMATINIB", "molecular_formula": "C29H31N7O",
                   "molecular_weight": 493.62, "max_phase": 4, "molecule_type": "Small molecule",
                   "score": 0.123})
        );
    }

    #[test]
    fn exact_matches_must_really_bear_the_name() {
        let m: Molecule = serde_json::from_value(json!({"molecule_chembl_id": "CHEMBL1",
            "pref_name": "HELIUM", "molecule_synonyms": [
                {"molecule_synonym": "E939", "syn_type": "E_NUMBER"},
                {"synonyms": "HE", "syn_type": "OTHER"}]}))
        .unwrap();
        assert!(is_named(&m, "he"));
        assert!(is_named(&m, "e939"));
        assert!(is_named(&m, "Helium"));
        assert!(!is_named(&m, "H"));
        assert!(!is_named(&m, "NO"));
    }

    #[test]
    fn a_refused_query_echoes_what_was_sent_and_hints_by_length() {
        let body = refused("CHEMBL941", "CHEMBL:941", Some("Bad query.".into()))
            .to_envelope()
            .error;
        assert_eq!(body.invalid_input.as_deref(), Some("CHEMBL:941"));
        assert_eq!(
            body.message,
            "ChEMBL could not run a search for 'CHEMBL941'. ChEMBL said: Bad query."
        );
        assert!(
            !body.recovery_hint.contains("at least 3"),
            "{}",
            body.recovery_hint
        );
        let body = refused("ab", " ab ", None).to_envelope().error;
        assert_eq!(body.invalid_input.as_deref(), Some(" ab "));
        assert!(
            body.recovery_hint.contains("at least 3"),
            "{}",
            body.recovery_hint
        );
    }

    #[test]
    fn positions_round_trip_through_cursors() {
        let p = Position {
            offset: 50,
            top_score: Some(17.0),
        };
        let c = cursor::encode("s", &p);
        assert_eq!(cursor::decode::<Position>(&c, "s").unwrap(), p);
    }

    fn args(value: serde_json::Value) -> SearchCompoundsArgs {
        serde_json::from_value(value).unwrap()
    }

    #[test]
    fn one_kind_of_search_per_call() {
        assert!(matches!(
            asked(&args(json!({"query": "imatinib", "similar_to": "  "}))),
            Ok(Asked::Words(q)) if q == "imatinib"
        ));
        assert!(matches!(
            asked(&args(json!({"similar_to": " CCO "}))),
            Ok(Asked::Structure { smiles, similar: true }) if smiles == "CCO"
        ));
        assert!(matches!(
            asked(&args(json!({"substructure": "c1ccccc1"}))),
            Ok(Asked::Structure { similar: false, .. })
        ));
        for both in [
            json!({}),
            json!({"query": "aspirin", "substructure": "c1ccccc1"}),
            json!({"similar_to": "CCO", "substructure": "CCO"}),
        ] {
            let e = asked(&args(both.clone())).err().unwrap();
            assert_eq!(
                e.code(),
                lifesciences_core::ErrorCode::InvalidInput,
                "{both}"
            );
        }
    }

    #[test]
    fn exact_pages_offer_a_cursor_until_the_last_match() {
        let matches = molecules(&[None, None, None]);
        let paging = |offset| Paging {
            size: 2,
            slim: true,
            scope: "s".into(),
            position: Position {
                offset,
                top_score: None,
            },
        };
        let first = exact_page(&matches, &paging(0));
        assert_eq!(first.items.len(), 2);
        assert_eq!(first.pagination.total_count, Some(3));
        let cursor = first.pagination.cursor.unwrap();
        let next: Position = cursor::decode(&cursor, "s").unwrap();
        assert_eq!(next.offset, 2);
        let last = exact_page(&matches, &paging(next.offset));
        assert_eq!(last.items[0].id, "CHEMBL:2");
        assert_eq!(last.pagination.cursor, None);
    }
}
