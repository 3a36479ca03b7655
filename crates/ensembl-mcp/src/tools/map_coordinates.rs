//! `ensembl_map_coordinates`: a region from one assembly to another (GRCh37 ↔ GRCh38 and
//! any pair Ensembl maps: `GET map/:species/:from/:region/:to`), or positions of a
//! transcript (cDNA or CDS) or protein to the genome (`GET map/cdna|cds|translation/…`).
//! One request. A region can map in several pieces (an exon boundary, an assembly
//! change); each piece says which part of the input it covers. A region is read by
//! `crate::region`.

use lifesciences_core::rmcp::schemars::{self, JsonSchema};
use lifesciences_core::rmcp::{Json, tool};
use lifesciences_core::{ApiError, Parameters, Reply, lenient};
use serde::{Deserialize, Serialize};

use crate::client::Refusal;
use crate::ids::{self, Feature, Parsed, StableId};
use crate::models::{MapAnswer, MapPlace};
use crate::region::parse_region;
use crate::server::EnsemblServer;
use crate::species;
use crate::tools::{not_found, unknown_species};

/// What the positions of an ID count.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub(crate) enum PositionKind {
    /// Spliced transcript positions, UTR included.
    Cdna,
    /// Coding positions (c. numbering).
    Cds,
    /// Amino-acid positions.
    Protein,
}

/// Arguments of `ensembl_map_coordinates`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct MapArgs {
    /// Between assemblies: `chr:start-end[:strand]` on `from_assembly`, 1-based and
    /// inclusive.
    #[serde(default)]
    pub region: Option<String>,
    /// The region's assembly, e.g. `GRCh37`.
    #[serde(default)]
    pub from_assembly: Option<String>,
    /// The assembly to map to, e.g. `GRCh38`.
    #[serde(default)]
    #[schemars(extend("default" = "GRCh38"))]
    pub to_assembly: Option<String>,
    /// Species name or alias.
    #[serde(default)]
    #[schemars(extend("default" = "homo_sapiens"))]
    pub species: Option<String>,
    /// To the genome: a transcript (ENST) or protein (ENSP) ID.
    #[serde(default)]
    pub id: Option<String>,
    /// What `start`–`end` count: cdna, cds or protein (default: protein for ENSP, cds).
    #[serde(default)]
    pub positions: Option<PositionKind>,
    /// First position on the transcript or protein (1-based).
    #[serde(default, deserialize_with = "lenient::opt_u64")]
    #[schemars(range(min = 1))]
    pub start: Option<u64>,
    /// Last position; omit it for a single position.
    #[serde(default, deserialize_with = "lenient::opt_u64")]
    #[schemars(range(min = 1))]
    pub end: Option<u64>,
}

/// One mapped piece.
#[serde_with::skip_serializing_none]
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub(crate) struct MappedPiece {
    /// The part of the input, e.g. `X:1000000-1000100` or `cds 292-294`.
    pub from: Option<String>,
    /// Where it lies, e.g. `X:1039265-1039365`.
    pub to: String,
    /// The assembly of `to`.
    pub assembly: Option<String>,
    pub strand: Option<i64>,
    /// True when this part has no counterpart (a gap).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub gap: bool,
}

/// Where the input lies.
#[serde_with::skip_serializing_none]
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub(crate) struct Mapping {
    /// The input, as understood.
    pub input: String,
    /// The pieces, in Ensembl's order.
    pub mappings: Vec<MappedPiece>,
    /// What the result leaves out, and why.
    pub note: Option<String>,
}

fn place(p: &MapPlace) -> Option<String> {
    let (start, end) = (p.start?, p.end?);
    Some(match (&p.seq_region_name, p.coord_system.as_deref()) {
        (Some(region), _) => format!("{region}:{start}-{end}"),
        (None, Some(system)) => format!("{system} {start}-{end}"),
        (None, None) => format!("{start}-{end}"),
    })
}

fn pieces(answer: MapAnswer) -> Vec<MappedPiece> {
    answer
        .mappings
        .unwrap_or_default()
        .into_iter()
        .filter_map(|pair| {
            let mapped = pair.mapped.unwrap_or(pair.flat);
            Some(MappedPiece {
                from: pair.original.as_ref().and_then(place),
                to: place(&mapped)?,
                assembly: mapped.assembly.clone(),
                strand: mapped.strand,
                gap: mapped.gap.unwrap_or(false),
            })
        })
        .collect()
}

/// A region between assemblies, read from the arguments.
struct RegionAsk<'a> {
    /// The region as the caller wrote it.
    raw: &'a str,
    /// The region as sent, `chr:start-end:strand`.
    input: String,
    from: &'a str,
    to: &'a str,
}

/// Positions of a transcript or protein, read from the arguments.
struct PositionsAsk<'a> {
    /// The ID as the caller wrote it.
    raw: &'a str,
    id: StableId,
    kind: PositionKind,
    start: u64,
    end: u64,
}

impl PositionKind {
    fn name(self) -> &'static str {
        match self {
            Self::Cdna => "cdna",
            Self::Cds => "cds",
            Self::Protein => "protein",
        }
    }
}

impl PositionsAsk<'_> {
    /// Ensembl's coordinate system for these positions (`map/{system}/…`).
    fn system(&self) -> &'static str {
        match self.kind {
            PositionKind::Protein => "translation",
            kind => kind.name(),
        }
    }
}

/// `region` with `from_assembly` (required) and `to_assembly` (GRCh38 by default).
fn read_region<'a>(args: &'a MapArgs, raw: &'a str) -> Result<RegionAsk<'a>, ApiError> {
    let Some(from) = args
        .from_assembly
        .as_deref()
        .map(str::trim)
        .filter(|s| !s.is_empty())
    else {
        return Err(ApiError::invalid_input(
            "A region needs 'from_assembly', the assembly its coordinates are on.",
            "Pass e.g. \"from_assembly\": \"GRCh37\" (and to_assembly, default GRCh38).",
            raw,
        ));
    };
    let to = args
        .to_assembly
        .as_deref()
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .unwrap_or("GRCh38");
    let (chromosome, start, end, strand) = parse_region(raw)?;
    Ok(RegionAsk {
        raw,
        input: format!("{chromosome}:{start}-{end}:{strand}"),
        from,
        to,
    })
}

/// `id` (a transcript or protein) with `positions` of the matching kind and
/// `start`–`end`.
fn read_positions<'a>(args: &MapArgs, raw: &'a str) -> Result<PositionsAsk<'a>, ApiError> {
    let id = match ids::parse(raw) {
        Parsed::Id(id) if matches!(id.feature, Feature::Transcript | Feature::Protein) => id,
        _ => {
            return Err(ApiError::unresolved(
                format!("'{raw}' is not an Ensembl transcript or protein ID."),
                "Pass an ENST or ENSP ID, e.g. 'ENST00000269305'; a gene's canonical \
                 transcript is in ensembl_get_gene.",
                raw,
            ));
        }
    };
    let kind = args.positions.unwrap_or(if id.feature == Feature::Protein {
        PositionKind::Protein
    } else {
        PositionKind::Cds
    });
    match (kind, id.feature) {
        (PositionKind::Protein, Feature::Protein)
        | (PositionKind::Cdna | PositionKind::Cds, Feature::Transcript) => {}
        (PositionKind::Protein, _) => {
            return Err(ApiError::invalid_input(
                "Protein positions belong to a protein ID (ENSP), not a transcript.",
                "Pass the transcript's protein (protein_id in ensembl_predict_variant_effect, \
                 or the translation of ensembl_get_transcript), or CDS positions ('cds') of \
                 the transcript.",
                raw,
            ));
        }
        _ => {
            return Err(ApiError::invalid_input(
                "cDNA and CDS positions belong to a transcript (ENST).",
                "Pass the transcript's ID, or positions 'protein' for an ENSP ID.",
                raw,
            ));
        }
    }
    let Some(start) = args.start.filter(|s| *s >= 1) else {
        return Err(ApiError::invalid_input(
            "Positions need 'start' (1-based).",
            "Pass e.g. \"start\": 175 (and \"end\" for a range).",
            raw,
        ));
    };
    let end = args.end.unwrap_or(start);
    if end < start {
        return Err(ApiError::invalid_input(
            "'end' is before 'start'.",
            "Pass start ≤ end.",
            format!("{start}-{end}"),
        ));
    }
    Ok(PositionsAsk {
        raw,
        id,
        kind,
        start,
        end,
    })
}

impl EnsemblServer {
    /// Convert coordinates: a region between assemblies (GRCh37 ↔ GRCh38, any pair
    /// Ensembl maps), or cDNA, CDS or protein positions of a transcript or protein to the
    /// genome. A region can map in several pieces. Example: `{"region":
    /// "17:7577121-7577121", "from_assembly": "GRCh37"}`, or `{"id": "ENSP00000269305",
    /// "start": 175}`.
    #[tool(
        title = "Map Ensembl coordinates",
        annotations(read_only_hint = true, idempotent_hint = true, open_world_hint = true)
    )]
    pub(crate) async fn ensembl_map_coordinates(
        &self,
        Parameters(args): Parameters<MapArgs>,
    ) -> Result<Json<Mapping>, ApiError> {
        let args = args?;
        let species = species::production_name(args.species.as_deref().unwrap_or("homo_sapiens"));
        match (&args.region, &args.id) {
            (Some(region), None) => {
                let ask = read_region(&args, region)?;
                self.map_region(&species, ask).await.map(Json)
            }
            (None, Some(raw)) => {
                let ask = read_positions(&args, raw)?;
                self.map_positions(ask).await.map(Json)
            }
            _ => Err(ApiError::invalid_input(
                "Pass either 'region' (with from_assembly) or 'id' (with start).",
                "Between assemblies: {\"region\": \"17:7577121-7577121\", \"from_assembly\": \
                 \"GRCh37\"}; to the genome: {\"id\": \"ENSP00000269305\", \"start\": 175}.",
                "region and id",
            )),
        }
    }

    /// A region from one assembly to another (`GET map/:species/:from/:region/:to`).
    async fn map_region(&self, species: &str, ask: RegionAsk<'_>) -> Result<Mapping, ApiError> {
        let RegionAsk {
            raw,
            input,
            from,
            to,
        } = ask;
        let answer = match self.ensembl.map_assembly(species, from, &input, to).await? {
            Reply::Found(answer) => answer,
            Reply::Refused(Refusal::UnknownSpecies) => return Err(unknown_species(species)),
            // Ensembl refuses an assembly pair it cannot map, or a chromosome it lacks.
            Reply::Refused(Refusal::Other(_)) | Reply::Missing => {
                return Err(ApiError::invalid_input(
                    format!("Ensembl cannot map {input} from {from} to {to} in {species}."),
                    "Check the assembly names (e.g. GRCh37, GRCh38; GRCm38, GRCm39 for mouse) \
                     and the chromosome name.",
                    raw,
                ));
            }
        };
        let mappings = pieces(answer);
        let note = mappings
            .is_empty()
            .then(|| format!("No part of {input} on {from} has a counterpart on {to}."));
        Ok(Mapping {
            input: format!("{input} ({from} → {to})"),
            mappings,
            note,
        })
    }

    /// Positions of a transcript or protein on the genome (`GET map/{system}/:id/…`).
    async fn map_positions(&self, ask: PositionsAsk<'_>) -> Result<Mapping, ApiError> {
        let PositionsAsk {
            raw,
            ref id,
            kind,
            start,
            end,
        } = ask;
        let Some(answer) = self
            .ensembl
            .map_positions(ask.system(), &id.id, start, end)
            .await?
        else {
            let what = if id.feature == Feature::Protein {
                "protein"
            } else {
                "transcript"
            };
            return Err(not_found(what, &id.id, raw));
        };
        let mappings = pieces(answer);
        let note = mappings.is_empty().then(|| {
            "Ensembl maps none of these positions (beyond the transcript's end?).".to_owned()
        });
        Ok(Mapping {
            input: format!("{} {} {start}-{end}", id.id, kind.name()),
            mappings,
            note,
        })
    }
}
