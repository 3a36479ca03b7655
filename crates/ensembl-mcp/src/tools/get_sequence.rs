//! `ensembl_get_sequence`: sequences by stable ID (genes, transcripts, proteins; genomic,
//! cDNA, CDS or protein, with flanks or a sub-range) or by region. IDs go in one
//! `POST sequence/id` per sequence type (50 IDs at most, Ensembl's limit); a region is one
//! `GET sequence/region/…` that asks only for what the cap lets through. Every sequence
//! reports its full length, and is cut at `max_length` with `truncated` set. A region is
//! read by `crate::region`, as in `ensembl_query_region` and `ensembl_map_coordinates`.

use futures::future::join_all;
use lifesciences_core::rmcp::schemars::{self, JsonSchema};
use lifesciences_core::rmcp::{Json, tool};
use lifesciences_core::{ApiError, Parameters, Reply, in_range, lenient};
use serde::{Deserialize, Serialize};

use crate::client::{MAX_SEQUENCE_BATCH, Refusal};
use crate::ids::{self, Feature, Parsed};
use crate::models::SequenceRecord;
use crate::region::parse_region;
use crate::server::EnsemblServer;
use crate::species;
use crate::tools::unknown_species;

/// Default cap per sequence, in letters.
const DEFAULT_MAX_LENGTH: u32 = 10_000;
/// Hard cap per sequence.
const HARD_MAX_LENGTH: u32 = 100_000;
/// Longest flank.
const MAX_FLANK: u32 = 10_000;
/// Ensembl's longest region (10 Mb).
const MAX_REGION: u64 = 10_000_000;

/// What sequence of an ID.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub(crate) enum SequenceType {
    /// The genomic span, introns included.
    Genomic,
    /// Spliced transcript with UTRs.
    Cdna,
    /// Coding sequence.
    Cds,
    /// Amino acids.
    Protein,
}

impl SequenceType {
    fn name(self) -> &'static str {
        match self {
            Self::Genomic => "genomic",
            Self::Cdna => "cdna",
            Self::Cds => "cds",
            Self::Protein => "protein",
        }
    }
}

/// Arguments of `ensembl_get_sequence`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct GetSequenceArgs {
    /// 1–50 Ensembl stable IDs (ENSG, ENST, ENSP); or use `region`.
    #[serde(default, deserialize_with = "lifesciences_core::args::one_or_many")]
    #[schemars(with = "Vec<String>")]
    #[schemars(length(max = 50))]
    pub ids: Vec<String>,
    /// `chr:start-end[:strand]`, 1-based and inclusive, e.g. `X:1000000-1000100:1`.
    #[serde(default)]
    pub region: Option<String>,
    /// With `region`: species name or alias.
    #[serde(default)]
    #[schemars(extend("default" = "homo_sapiens"))]
    pub species: Option<String>,
    /// Default: protein for ENSP IDs, else genomic.
    #[serde(default, rename = "type")]
    pub kind: Option<SequenceType>,
    /// Genomic only: bases added before, 0–10000.
    #[serde(default, deserialize_with = "lenient::opt_u32")]
    #[schemars(range(min = 0, max = 10000))]
    pub flank_5prime: Option<u32>,
    /// Genomic only: bases added after, 0–10000.
    #[serde(default, deserialize_with = "lenient::opt_u32")]
    #[schemars(range(min = 0, max = 10000))]
    pub flank_3prime: Option<u32>,
    /// Only positions `start`–`end` of each sequence (1-based).
    #[serde(default, deserialize_with = "lenient::opt_u64")]
    #[schemars(range(min = 1))]
    pub start: Option<u64>,
    /// Last position of the sub-range (1-based, inclusive).
    #[serde(default, deserialize_with = "lenient::opt_u64")]
    #[schemars(range(min = 1))]
    pub end: Option<u64>,
    /// Letters kept per sequence, 1–100000.
    #[serde(default, deserialize_with = "lenient::opt_u32")]
    #[schemars(range(min = 1, max = 100000))]
    #[schemars(extend("default" = 10000))]
    pub max_length: Option<u32>,
}

/// One sequence.
#[serde_with::skip_serializing_none]
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub(crate) struct Sequence {
    /// What was asked for (an ID or the region).
    pub query: String,
    /// The sequence's own ID: a transcript or protein of a gene, or the region's slice
    /// name (`chromosome:GRCh38:X:1000000:1000100:1`).
    pub id: Option<String>,
    /// `genomic`, `cdna`, `cds` or `protein`.
    #[serde(rename = "type")]
    pub kind: String,
    /// `dna` or `protein`.
    pub molecule: Option<String>,
    /// Letters in the whole sequence (not only the range returned).
    pub length: u64,
    /// The letters (the first `max_length` of the range asked).
    pub sequence: String,
    /// With a sub-range: the positions `sequence` covers (1-based).
    pub start: Option<u64>,
    pub end: Option<u64>,
    /// True when `sequence` is cut.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub truncated: bool,
}

/// Sequences asked for.
#[serde_with::skip_serializing_none]
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub(crate) struct Sequences {
    /// In the order asked; a gene asked as cDNA, CDS or protein gives one per transcript.
    pub sequences: Vec<Sequence>,
    /// IDs with no sequence of the type asked (unknown, or e.g. CDS of a non-coding
    /// transcript).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub not_found: Vec<String>,
    /// What the result leaves out, and why.
    pub note: Option<String>,
}

fn invalid(message: String, hint: &str, input: &str) -> ApiError {
    ApiError::invalid_input(message, hint, input)
}

/// A record as a sequence: the letters `span` names (1-based, inclusive, cut at the
/// sequence's end), else all, then at most `max` of them; `length` is the whole
/// sequence's (or `length` when known otherwise, for a region fetched in part).
fn capped(
    query: String,
    r: &SequenceRecord,
    kind: &str,
    max: u32,
    length: Option<u64>,
    span: Option<(u64, u64)>,
) -> Sequence {
    let letters = r.seq.as_deref().unwrap_or("");
    let full = length.unwrap_or(letters.chars().count() as u64);
    let (from, to) = match span {
        Some((start, end)) => (start, end.min(full)),
        None => (1, full),
    };
    let wanted = to.saturating_sub(from.saturating_sub(1));
    let kept: String = letters
        .chars()
        .skip(usize::try_from(from.saturating_sub(1)).unwrap_or(usize::MAX))
        .take(usize::try_from(wanted.min(u64::from(max))).unwrap_or(0))
        .collect();
    let kept_len = kept.chars().count() as u64;
    Sequence {
        truncated: kept_len < wanted,
        start: span.map(|_| from),
        end: span
            .map(|_| from + kept_len.saturating_sub(1))
            .filter(|_| kept_len > 0),
        query,
        id: r.id.clone(),
        kind: kind.to_owned(),
        molecule: r.molecule.clone(),
        length: full,
        sequence: kept,
    }
}

impl EnsemblServer {
    /// Sequences by stable ID (genomic, cdna, cds or protein; flanks; a sub-range) or by
    /// region, with each one's full length; cut at max_length with `truncated`. A gene
    /// asked as cdna, cds or protein gives one sequence per transcript. Example: `{"ids":
    /// ["ENSP00000269305"], "start": 170, "end": 180}`.
    #[tool(
        title = "Get Ensembl sequences",
        annotations(read_only_hint = true, idempotent_hint = true, open_world_hint = true)
    )]
    pub(crate) async fn ensembl_get_sequence(
        &self,
        Parameters(args): Parameters<GetSequenceArgs>,
    ) -> Result<Json<Sequences>, ApiError> {
        let args = args?;
        let max = in_range(
            "max_length",
            args.max_length,
            1,
            HARD_MAX_LENGTH,
            DEFAULT_MAX_LENGTH,
        )?;
        let flanks = (
            in_range("flank_5prime", args.flank_5prime, 0, MAX_FLANK, 0)?,
            in_range("flank_3prime", args.flank_3prime, 0, MAX_FLANK, 0)?,
        );
        let span = match (args.start, args.end) {
            (None, None) => None,
            (Some(s), Some(e)) if s >= 1 && e >= s => Some((s, e)),
            (Some(s), None) if s >= 1 => Some((s, u64::MAX)),
            _ => {
                return Err(invalid(
                    "Arguments 'start' and 'end' must give 1 ≤ start ≤ end.".to_owned(),
                    "Pass both, e.g. start 170 and end 180, or start alone for max_length \
                     letters from there.",
                    &format!("{:?}-{:?}", args.start, args.end),
                ));
            }
        };
        match (&args.region, args.ids.iter().any(|i| !i.trim().is_empty())) {
            (Some(region), false) => self.region_sequence(&args, region, max, flanks).await,
            (None, true) => self.id_sequences(&args, max, flanks, span).await,
            _ => Err(invalid(
                "Pass either 'ids' or 'region'.".to_owned(),
                "For a gene, transcript or protein pass 'ids' (e.g. [\"ENST00000269305\"]); \
                 for a stretch of genome pass 'region' (e.g. 'X:1000000-1000100').",
                "ids and region",
            )),
        }
    }
}

impl EnsemblServer {
    async fn id_sequences(
        &self,
        args: &GetSequenceArgs,
        max: u32,
        flanks: (u32, u32),
        span: Option<(u64, u64)>,
    ) -> Result<Json<Sequences>, ApiError> {
        let mut wanted: Vec<(String, SequenceType)> = Vec::new();
        for raw in args.ids.iter().map(|i| i.trim()).filter(|i| !i.is_empty()) {
            let id = match ids::parse(raw) {
                Parsed::Id(id) => id,
                _ => {
                    return Err(ApiError::unresolved(
                        format!("'{raw}' is not an Ensembl stable ID."),
                        "Pass Ensembl IDs such as 'ENSG00000141510', 'ENST00000269305' or \
                         'ENSP00000269305'; find a gene's ID from its symbol with \
                         ensembl_search_genes.",
                        raw,
                    ));
                }
            };
            let kind = args.kind.unwrap_or(if id.feature == Feature::Protein {
                SequenceType::Protein
            } else {
                SequenceType::Genomic
            });
            if flanks != (0, 0) && kind != SequenceType::Genomic {
                return Err(invalid(
                    "Flanks apply to genomic sequences only.".to_owned(),
                    "Ask for type 'genomic', or omit flank_5prime and flank_3prime.",
                    kind.name(),
                ));
            }
            if !wanted.iter().any(|(seen, _)| *seen == id.id) {
                wanted.push((id.id, kind));
            }
        }
        if wanted.len() > MAX_SEQUENCE_BATCH {
            return Err(invalid(
                format!(
                    "Argument 'ids' holds {} IDs; at most {MAX_SEQUENCE_BATCH} are accepted.",
                    wanted.len()
                ),
                "Split the list: Ensembl serves 50 sequences per request.",
                &format!("{} IDs", wanted.len()),
            ));
        }
        let mut kinds: Vec<SequenceType> = Vec::new();
        for (_, kind) in &wanted {
            if !kinds.contains(kind) {
                kinds.push(*kind);
            }
        }
        let requests = kinds.iter().map(|kind| {
            let ids: Vec<String> = wanted
                .iter()
                .filter(|(_, k)| k == kind)
                .map(|(id, _)| id.clone())
                .collect();
            // Sub-ranges are cut here: Ensembl reads `start`/`end` of a transcript asked
            // as protein as genomic offsets, and drops an ID whose `end` passes its end.
            async move {
                let answer = self.ensembl.sequences(&ids, kind.name(), flanks).await;
                (*kind, answer)
            }
        });
        let answers = join_all(requests).await;
        let mut by_kind = Vec::new();
        for (kind, answer) in answers {
            by_kind.push((kind, answer?));
        }
        let mut sequences = Vec::new();
        let mut not_found = Vec::new();
        for (id, kind) in &wanted {
            let records: Vec<&SequenceRecord> = by_kind
                .iter()
                .filter(|(k, _)| k == kind)
                .flat_map(|(_, records)| records)
                .filter(|r| {
                    r.query
                        .as_deref()
                        .and_then(ids::canonical)
                        .is_some_and(|q| q == *id)
                })
                .collect();
            if records.is_empty() {
                not_found.push(id.clone());
            }
            for r in records {
                sequences.push(capped(id.clone(), r, kind.name(), max, None, span));
            }
        }
        let note = sequences.iter().any(|s| s.truncated).then(|| {
            format!(
                "Sequences longer than {max} letters are cut (truncated: true; length is \
                     the whole): raise max_length (up to {HARD_MAX_LENGTH}) or ask for a \
                     sub-range with start and end."
            )
        });
        Ok(Json(Sequences {
            sequences,
            not_found,
            note,
        }))
    }

    async fn region_sequence(
        &self,
        args: &GetSequenceArgs,
        raw: &str,
        max: u32,
        flanks: (u32, u32),
    ) -> Result<Json<Sequences>, ApiError> {
        if args.kind.is_some_and(|k| k != SequenceType::Genomic)
            || flanks != (0, 0)
            || args.start.is_some()
            || args.end.is_some()
        {
            return Err(invalid(
                "A region's sequence is genomic; type, flanks and start/end apply to IDs."
                    .to_owned(),
                "Widen or narrow the region itself instead.",
                raw,
            ));
        }
        let (chromosome, start, end, strand) = parse_region(raw)?;
        let length = end - start + 1;
        if length > MAX_REGION {
            return Err(invalid(
                format!("The region spans {length} bases; Ensembl serves at most 10 Mb."),
                "Ask for a region of at most 10,000,000 bases (and at most max_length are \
                 returned).",
                raw,
            ));
        }
        // Ask only for what will be returned.
        let asked_end = if strand > 0 {
            end.min(start.saturating_add(u64::from(max) - 1))
        } else {
            end
        };
        let asked_start = if strand < 0 {
            start.max(end.saturating_sub(u64::from(max) - 1))
        } else {
            start
        };
        let region = format!("{chromosome}:{asked_start}..{asked_end}:{strand}");
        let species = species::production_name(args.species.as_deref().unwrap_or("homo_sapiens"));
        let record = match self.ensembl.region_sequence(&species, &region).await? {
            Reply::Found(record) => record,
            Reply::Refused(Refusal::UnknownSpecies) => return Err(unknown_species(&species)),
            // Ensembl refuses a chromosome it does not have, or coordinates past its end.
            Reply::Refused(Refusal::Other(_)) | Reply::Missing => {
                return Err(ApiError::not_found(
                    format!("Ensembl has no sequence for {raw} in {species}."),
                    "Check the chromosome name and the coordinates against the species' \
                     current assembly; GRCh37 coordinates go through ensembl_map_coordinates \
                     first.",
                    raw,
                ));
            }
        };
        let sequence = capped(
            raw.trim().to_owned(),
            &record,
            "genomic",
            max,
            Some(length),
            None,
        );
        let note = sequence.truncated.then(|| {
            format!(
                "Only the first {max} of {length} bases were fetched: raise max_length (up \
                 to {HARD_MAX_LENGTH}) or ask for the rest as another region."
            )
        });
        Ok(Json(Sequences {
            sequences: vec![sequence],
            not_found: Vec::new(),
            note,
        }))
    }
}
