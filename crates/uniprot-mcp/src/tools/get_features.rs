//! `uniprot_get_features`: a protein → its sequence features, all or those at a residue
//! or range, of the types asked, a page at a time. One request per protein and set of
//! types (`GET /uniprotkb/{accession}` with the `ft_*` fields of those types and the
//! `DISEASE` comments that name the variants' diseases); the pages come from that one
//! answer.

use std::collections::BTreeMap;

use lifesciences_core::schemars::{self, JsonSchema};
use lifesciences_core::{ApiError, Pagination, Parameters, cursor, in_range, lenient};
use rmcp::{Json, tool};
use serde::{Deserialize, Serialize};

use crate::client::{EntryReply, Parts};
use crate::disease::Diseases;
use crate::feature::{self, Feature, FeatureKind, Group};
use crate::ids::ProteinRef;
use crate::models::Entry;
use crate::protein::gene;
use crate::server::UniprotServer;
use crate::tools::{no_entry, refused_id};

/// Arguments of `uniprot_get_features`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct GetFeaturesArgs {
    /// One protein: accession (`P30542`), `UniProt:` CURIE, isoform or entry name.
    pub id: String,
    /// Groups (`variants`, `mutagenesis`, `ptms`, `domains`, `sites`, `topology`,
    /// `processing`, `isoforms`, `structure`, `sequence_issues`) or types
    /// (`natural_variant`, `binding_site`, `modified_residue`…). Default: all but
    /// `structure` and `sequence_issues`.
    #[serde(default, deserialize_with = "lifesciences_core::args::one_or_many")]
    #[schemars(with = "Vec<String>")]
    pub types: Vec<String>,
    /// Only features covering this residue (1-based), or with `end` this range.
    #[serde(default, deserialize_with = "lenient::opt_u32")]
    #[schemars(range(min = 1))]
    pub position: Option<u32>,
    /// Last residue of the range starting at `position` (inclusive).
    #[serde(default, deserialize_with = "lenient::opt_u32")]
    #[schemars(range(min = 1))]
    pub end: Option<u32>,
    /// Features per page, 1–500.
    #[serde(default, deserialize_with = "lenient::opt_u32")]
    #[schemars(range(min = 1, max = 500), extend("default" = 100))]
    pub limit: Option<u32>,
    /// `pagination.cursor` of the previous page of the same request; omit for the first.
    #[serde(default)]
    pub cursor: Option<String>,
}

/// A protein's features, a page at a time.
#[serde_with::skip_serializing_none]
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub(crate) struct FeaturesPage {
    /// The entry's accession.
    pub accession: String,
    pub entry_name: Option<String>,
    pub gene: Option<String>,
    /// Residues of the canonical sequence, which positions are on.
    pub length: Option<u32>,
    /// What was asked, when it is not the accession.
    pub requested: Option<String>,
    /// What to know about the answer (a merged accession, an isoform's positions).
    pub note: Option<String>,
    /// How many features match, by type, over all pages.
    pub counts: BTreeMap<String, u32>,
    /// By start position, then type.
    pub features: Vec<Feature>,
    /// What the ECO codes of this page's evidence mean.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub evidence_codes: BTreeMap<String, String>,
    pub pagination: Pagination,
}

/// The residues asked for: `position`, or `position..=end`, within the sequence.
fn range(args: &GetFeaturesArgs) -> Result<Option<(u32, u32)>, ApiError> {
    match (args.position, args.end) {
        (None, None) => Ok(None),
        (None, Some(end)) => Err(ApiError::invalid_input(
            "'end' needs 'position', the first residue of the range.",
            "Give both, e.g. {\"position\": 100, \"end\": 150}, or 'position' alone for one residue.",
            end.to_string(),
        )),
        (Some(0), _) | (_, Some(0)) => Err(ApiError::invalid_input(
            "Residues are numbered from 1.",
            "Give 1-based positions, as UniProt numbers them.",
            "0",
        )),
        (Some(from), Some(to)) if to < from => Err(ApiError::invalid_input(
            format!("The range {from}-{to} ends before it starts."),
            "Give 'end' at or after 'position'.",
            format!("{from}-{to}"),
        )),
        (Some(from), to) => Ok(Some((from, to.unwrap_or(from)))),
    }
}

/// The types asked, or the default set.
fn kinds(types: &[String]) -> Result<Vec<FeatureKind>, ApiError> {
    if types.is_empty() {
        return Ok(Group::default_set()
            .into_iter()
            .flat_map(Group::kinds)
            .collect());
    }
    feature::parse_types(types)
}

/// The features of `entry` of `kinds` (in any order UniProt sends them) covering the
/// residues asked, sorted by position.
fn matching(entry: &Entry, kinds: &[FeatureKind], residues: Option<(u32, u32)>) -> Vec<Feature> {
    let diseases = Diseases::of(entry);
    let mut all: Vec<Feature> = entry
        .features
        .iter()
        .filter(|f| FeatureKind::of_uniprot(&f.kind).is_some_and(|k| kinds.contains(&k)))
        .map(|f| feature::feature(f, &diseases))
        .filter(|f| residues.is_none_or(|(from, to)| feature::overlaps(f, from, to)))
        .collect();
    all.sort_by(|a, b| {
        (a.start.unwrap_or(u32::MAX), a.end, &a.kind).cmp(&(b.start.unwrap_or(u32::MAX), b.end, &b.kind))
    });
    all
}

/// The scope of a cursor: the protein, the types and the residues.
fn scope(protein: &ProteinRef, kinds: &[FeatureKind], residues: Option<(u32, u32)>) -> String {
    let types: Vec<&str> = kinds.iter().map(|k| k.name()).collect();
    format!("uniprot_get_features|{protein}|{}|{residues:?}", types.join(","))
}

/// The page of `all` at `offset`.
fn page(
    entry: &Entry,
    all: Vec<Feature>,
    offset: u64,
    limit: u32,
    scope: &str,
) -> FeaturesPage {
    let mut counts = BTreeMap::new();
    for f in &all {
        *counts.entry(f.kind.clone()).or_insert(0) += 1;
    }
    let total = all.len() as u64;
    let features: Vec<Feature> = all
        .into_iter()
        .skip(usize::try_from(offset).unwrap_or(usize::MAX))
        .take(limit as usize)
        .collect();
    let next = offset + features.len() as u64;
    FeaturesPage {
        accession: entry.primary_accession.clone(),
        entry_name: entry.uni_protkb_id.clone(),
        gene: gene(entry).0,
        length: entry.sequence.as_ref().and_then(|s| s.length),
        requested: None,
        note: None,
        counts,
        evidence_codes: feature::eco_legend(&features),
        features,
        pagination: Pagination {
            cursor: (next < total).then(|| cursor::encode(scope, &next)),
            total_count: Some(total),
            page_size: limit,
        },
    }
}

impl UniprotServer {
    /// What lies at a residue or range of a protein, or all its features of some types:
    /// domains, sites with their ligands, PTMs, natural variants with the disease named in
    /// full and the dbSNP ID, each with 1-based positions and its evidence (ECO code,
    /// PubMed IDs). Example: `{"id": "O00115", "types": ["variants"], "position": 95}`.
    #[tool(
        title = "Get UniProt sequence features",
        annotations(read_only_hint = true, idempotent_hint = true, open_world_hint = true)
    )]
    pub(crate) async fn uniprot_get_features(
        &self,
        Parameters(args): Parameters<GetFeaturesArgs>,
    ) -> Result<Json<FeaturesPage>, ApiError> {
        let args = args?;
        let protein = ProteinRef::parse(&args.id)?;
        let kinds = kinds(&args.types)?;
        let residues = range(&args)?;
        let limit = in_range("limit", args.limit, 1, 500, 100)?;
        let scope = scope(&protein, &kinds, residues);
        let offset: u64 = match &args.cursor {
            Some(c) => cursor::decode(c, &scope)?,
            None => 0,
        };
        let parts = Parts {
            diseases: kinds.iter().any(|k| k.group() == Group::Variants),
            features: kinds.clone(),
            ..Parts::default()
        };
        let (entry, merged_from) = match self.uniprot.entry(&protein, &parts).await? {
            EntryReply::Found(entry) => (entry, None),
            EntryReply::Merged { from, entry } => (entry, Some(from)),
            EntryReply::Inactive(record) => return Err(no_entry(&protein, &args.id, Some(&record))),
            EntryReply::Missing => return Err(no_entry(&protein, &args.id, None)),
            EntryReply::Refused(refusal) => return Err(refused_id(&args.id, &refusal)),
        };
        if let (Some((from, _)), Some(length)) = (residues, entry.sequence.as_ref().and_then(|s| s.length))
            && from > length
        {
            return Err(ApiError::invalid_input(
                format!(
                    "Residue {from} is past the end of {} ({length} residues).",
                    entry.primary_accession
                ),
                format!("Give a position from 1 to {length}."),
                from.to_string(),
            ));
        }
        let all = matching(&entry, &kinds, residues);
        let mut result = page(&entry, all, offset, limit, &scope);
        if let Some(from) = merged_from {
            result.note = Some(format!(
                "{from} was merged into {}: UniProt answers it with this entry.",
                result.accession
            ));
        } else if let ProteinRef::Isoform { .. } = protein {
            result.note = Some(format!(
                "Positions are on the canonical sequence of {}, not on {protein}; \
                 `alternative_sequence` features show where {protein} differs.",
                result.accession
            ));
        }
        if args.id.trim() != result.accession {
            result.requested = Some(args.id.trim().to_owned());
        }
        Ok(Json(result))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::models::tests::entry;

    fn args(position: Option<u32>, end: Option<u32>) -> GetFeaturesArgs {
        GetFeaturesArgs {
            id: "O00115".into(),
            types: Vec::new(),
            position,
            end,
            limit: None,
            cursor: None,
        }
    }

    #[test]
    fn residues_are_one_based_and_ranges_run_forward() {
        assert_eq!(range(&args(None, None)).unwrap(), None);
        assert_eq!(range(&args(Some(95), None)).unwrap(), Some((95, 95)));
        assert_eq!(range(&args(Some(90), Some(120))).unwrap(), Some((90, 120)));
        for bad in [args(None, Some(5)), args(Some(0), None), args(Some(10), Some(9))] {
            assert!(range(&bad).is_err());
        }
    }

    #[test]
    fn what_lies_at_residue_95_of_o00115() {
        let e = entry("uniprotkb__O00115.json");
        let at = matching(&e, &kinds(&[]).unwrap(), Some((95, 95)));
        let kinds_at: Vec<&str> = at.iter().map(|f| f.kind.as_str()).collect();
        // The chain (19-360) and the disease variant Y95C; no helix by default.
        assert_eq!(kinds_at, ["chain", "natural_variant"]);
        assert_eq!(at[1].diseases, ["Autoinflammatory-pancytopenia syndrome (AIPCS)"]);
    }

    #[test]
    fn pages_cover_every_feature_once_with_counts_over_all_pages() {
        let e = entry("uniprotkb__P30542.json");
        let kinds = kinds(&["topology".to_owned()]).unwrap();
        let scope = scope(&ProteinRef::parse("P30542").unwrap(), &kinds, None);
        let first = page(&e, matching(&e, &kinds, None), 0, 10, &scope);
        assert_eq!(first.counts["topological_domain"], 8);
        assert_eq!(first.counts["transmembrane"], 7);
        assert_eq!(first.features.len(), 10);
        assert_eq!(first.pagination.total_count, Some(15));
        let next: u64 = cursor::decode(first.pagination.cursor.as_deref().unwrap(), &scope).unwrap();
        let second = page(&e, matching(&e, &kinds, None), next, 10, &scope);
        assert_eq!(second.features.len(), 5);
        assert_eq!(second.pagination.cursor, None);
        // Sorted by position: the first page starts at residue 1, the second goes on.
        assert_eq!(first.features[0].start, Some(1));
        assert!(second.features[0].start > first.features[9].start);
        assert_eq!(second.features[4].end, Some(326));
    }

    #[test]
    fn by_default_secondary_structure_is_left_out_and_can_be_asked() {
        let e = entry("uniprotkb__P30542.json");
        let default = matching(&e, &kinds(&[]).unwrap(), None);
        assert!(!default.iter().any(|f| f.kind == "helix"));
        let helices = matching(&e, &kinds(&["structure".to_owned()]).unwrap(), None);
        assert_eq!(helices.iter().filter(|f| f.kind == "helix").count(), 16);
    }
}
