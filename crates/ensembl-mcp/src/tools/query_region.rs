//! `ensembl_query_region`: the genes, transcripts, variants, regulatory features and other
//! features in a window of any species' current assembly, from one
//! `GET overlap/region/…` with a `feature=` per type. Ensembl serves windows up to 5 Mb;
//! variants are dense (several per hundred bases in human), so a window with variants is
//! held to 10 kb, and a wider one is refused with a narrower window to ask for. Features
//! come sorted by start, paged from the cached answer, with counts per type. The window
//! is read by `crate::region`.

use lifesciences_core::rmcp::schemars::{self, JsonSchema};
use lifesciences_core::rmcp::{Json, tool};
use lifesciences_core::{ApiError, Pagination, Parameters, Reply, cursor, in_range, lenient};
use serde::{Deserialize, Serialize};

use crate::client::Refusal;
use crate::ids;
use crate::models::OverlapFeature;
use crate::region::parse_region;
use crate::server::EnsemblServer;
use crate::species;
use crate::tools::gene_name;
use crate::tools::unknown_species;

/// Ensembl's widest window.
const MAX_WINDOW: u64 = 5_000_000;
/// Widest window with variants.
const MAX_VARIANT_WINDOW: u64 = 10_000;
/// Longest description kept.
const MAX_DESCRIPTION_CHARS: usize = 120;

/// The feature types this tool asks for by name (Ensembl's `feature` values).
const FEATURES: [&str; 13] = [
    "gene",
    "transcript",
    "exon",
    "cds",
    "mane",
    "variation",
    "somatic_variation",
    "structural_variation",
    "regulatory",
    "motif",
    "constrained",
    "repeat",
    "band",
];

/// Types whose density holds the window to [`MAX_VARIANT_WINDOW`].
const DENSE: [&str; 2] = ["variation", "somatic_variation"];

/// Arguments of `ensembl_query_region`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct QueryRegionArgs {
    /// `chr:start-end` on the current assembly, 1-based and inclusive, e.g.
    /// `17:7661779-7687538`; up to 5 Mb, 10 kb with variants.
    pub region: String,
    /// Species name or alias.
    #[serde(default)]
    #[schemars(extend("default" = "homo_sapiens"))]
    pub species: Option<String>,
    /// gene, transcript, exon, cds, mane, variation, somatic_variation,
    /// structural_variation, regulatory, motif, constrained, repeat, band.
    #[serde(default, deserialize_with = "lifesciences_core::args::one_or_many")]
    #[schemars(with = "Vec<String>")]
    #[schemars(extend("default" = ["gene"]))]
    pub features: Vec<String>,
    /// Genes and transcripts of this biotype only, e.g. `protein_coding`.
    #[serde(default)]
    pub biotype: Option<String>,
    /// Features per page, 1–500.
    #[serde(default, deserialize_with = "lenient::opt_u32")]
    #[schemars(range(min = 1, max = 500))]
    #[schemars(extend("default" = 50))]
    pub limit: Option<u32>,
    /// `pagination.cursor` of the previous page.
    #[serde(default)]
    pub cursor: Option<String>,
}

/// A feature in the window.
#[serde_with::skip_serializing_none]
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub(crate) struct RegionFeature {
    /// `gene`, `transcript`, `variation`, `regulatory`…
    pub feature_type: String,
    /// Stable ID or rsID.
    pub id: Option<String>,
    /// Gene or transcript name.
    pub name: Option<String>,
    pub biotype: Option<String>,
    pub start: i64,
    pub end: i64,
    pub strand: Option<i64>,
    /// Genes: name; regulatory features: their kind.
    pub description: Option<String>,
    /// Variants: most severe consequence.
    pub consequence: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub alleles: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub clinical_significance: Vec<String>,
    /// Transcripts: the gene; exons and CDS: the transcript.
    pub parent: Option<String>,
    /// Genes: the canonical transcript.
    pub canonical_transcript: Option<String>,
    /// Transcripts: true on the canonical one.
    pub canonical: Option<bool>,
}

/// How many features of one type the window holds.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub(crate) struct FeatureCount {
    pub feature_type: String,
    pub count: usize,
}

/// What lies in a window.
#[serde_with::skip_serializing_none]
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub(crate) struct RegionContents {
    /// `chr:start-end`.
    pub region: String,
    pub species: String,
    /// This page, by start.
    pub features: Vec<RegionFeature>,
    /// Every type asked for, with its count in the window.
    pub counts: Vec<FeatureCount>,
    /// What the result leaves out, and why.
    pub note: Option<String>,
    /// `total_count` counts every feature; `cursor` fetches the next page.
    pub pagination: Pagination,
}

fn feature(f: &OverlapFeature) -> Option<RegionFeature> {
    let kind = f.feature_type.clone()?;
    let description = match kind.as_str() {
        "gene" => gene_name(f.description.as_deref()),
        _ => f.description.clone().filter(|d| !d.is_empty()),
    }
    .map(|d| {
        if d.chars().count() > MAX_DESCRIPTION_CHARS {
            let cut: String = d.chars().take(MAX_DESCRIPTION_CHARS - 1).collect();
            format!("{}…", cut.trim_end())
        } else {
            d
        }
    });
    Some(RegionFeature {
        id: f.id.clone().or_else(|| f.stable_id.clone()),
        name: f.external_name.clone(),
        biotype: f.biotype.clone(),
        start: f.start?,
        end: f.end?,
        strand: f.strand,
        description,
        consequence: f.consequence_type.clone(),
        alleles: f.alleles.clone(),
        clinical_significance: f.clinical_significance.clone(),
        parent: f
            .parent
            .as_deref()
            .and_then(ids::canonical)
            .or(f.parent.clone()),
        canonical_transcript: f.canonical_transcript.as_deref().and_then(ids::canonical),
        canonical: f.is_canonical.filter(|_| kind == "transcript"),
        feature_type: kind,
    })
}

/// The feature types asked for, as Ensembl names them.
fn parse_features(raw: &[String]) -> Result<Vec<&'static str>, ApiError> {
    let mut out: Vec<&'static str> = Vec::new();
    for given in raw.iter().map(|s| s.trim()).filter(|s| !s.is_empty()) {
        let key = given.to_ascii_lowercase().replace([' ', '-'], "_");
        let key = match key.as_str() {
            "genes" => "gene",
            "transcripts" => "transcript",
            "variant" | "variants" | "variations" | "snp" | "snps" => "variation",
            "regulatory_feature" | "regulatory_features" => "regulatory",
            "exons" => "exon",
            other => other,
        }
        .to_owned();
        match FEATURES.iter().find(|f| **f == key) {
            Some(f) if !out.contains(f) => out.push(f),
            Some(_) => {}
            None => {
                return Err(ApiError::invalid_input(
                    format!("'{given}' is not a feature type Ensembl serves by region."),
                    format!("Use some of: {}.", FEATURES.join(", ")),
                    given,
                ));
            }
        }
    }
    if out.is_empty() {
        out.push("gene");
    }
    Ok(out)
}

impl EnsemblServer {
    /// What lies in a genomic window of any species (current assembly): genes,
    /// transcripts, variants (rsID, consequence, ClinVar), regulatory features, motifs,
    /// bands… sorted by start, with counts per type; up to 5 Mb, 10 kb with variants.
    /// GRCh37 coordinates: convert with ensembl_map_coordinates first. Example:
    /// `{"region": "17:7661779-7687538", "features": ["gene", "regulatory"]}`.
    #[tool(
        title = "Query an Ensembl region",
        annotations(read_only_hint = true, idempotent_hint = true, open_world_hint = true)
    )]
    pub(crate) async fn ensembl_query_region(
        &self,
        Parameters(args): Parameters<QueryRegionArgs>,
    ) -> Result<Json<RegionContents>, ApiError> {
        let args = args?;
        let (chromosome, start, end, _) = parse_region(&args.region)?;
        let features = parse_features(&args.features)?;
        let limit = in_range("limit", args.limit, 1, 500, 50)?;
        let width = end - start + 1;
        let dense = features.iter().any(|f| DENSE.contains(f));
        let cap = if dense {
            MAX_VARIANT_WINDOW
        } else {
            MAX_WINDOW
        };
        if width > cap {
            let middle = start + width / 2;
            let half = cap / 2;
            let narrower = format!(
                "{chromosome}:{}-{}",
                middle.saturating_sub(half).max(1),
                middle.saturating_add(half - 1)
            );
            return Err(ApiError::invalid_input(
                format!(
                    "The window spans {width} bases; {} at most {cap}.",
                    if dense {
                        "variants are dense, so a window with them spans"
                    } else {
                        "Ensembl serves"
                    }
                ),
                format!(
                    "Ask for a narrower window, e.g. '{narrower}' (its middle){}.",
                    if dense {
                        ", or leave variants out to see genes and regulatory features over \
                         up to 5 Mb"
                    } else {
                        ""
                    }
                ),
                args.region.as_str(),
            ));
        }
        let species = species::production_name(args.species.as_deref().unwrap_or("homo_sapiens"));
        let region = format!("{chromosome}:{start}-{end}");
        let biotype = args
            .biotype
            .as_deref()
            .map(str::trim)
            .filter(|b| !b.is_empty());
        let scope = format!(
            "ensembl_query_region|{species}|{region}|{}|{}|{limit}",
            features.join(","),
            biotype.unwrap_or("")
        );
        let offset: usize = match args.cursor.as_deref().map(str::trim) {
            Some(c) if !c.is_empty() => cursor::decode(c, &scope)?,
            _ => 0,
        };
        let rows = match self
            .ensembl
            .overlap(&species, &region, &features, biotype)
            .await?
        {
            Reply::Found(rows) => rows,
            Reply::Refused(Refusal::UnknownSpecies) => return Err(unknown_species(&species)),
            // Ensembl refuses a chromosome it does not have, or coordinates past its end.
            Reply::Refused(Refusal::Other(_)) | Reply::Missing => {
                return Err(ApiError::not_found(
                    format!("Ensembl has no region {region} in {species}."),
                    "Check the chromosome name and that the coordinates are on the species' \
                     current assembly (GRCh38 for human; convert GRCh37 with \
                     ensembl_map_coordinates).",
                    args.region.as_str(),
                ));
            }
        };
        let mut all: Vec<RegionFeature> = rows.iter().filter_map(feature).collect();
        all.sort_by(|a, b| {
            a.start
                .cmp(&b.start)
                .then(a.end.cmp(&b.end))
                .then_with(|| a.id.cmp(&b.id))
        });
        let counts = features
            .iter()
            .map(|f| FeatureCount {
                feature_type: (*f).to_owned(),
                count: all.iter().filter(|x| x.feature_type == *f).count(),
            })
            .collect();
        let page: Vec<RegionFeature> = all
            .iter()
            .skip(offset)
            .take(limit as usize)
            .cloned()
            .collect();
        let next = offset + page.len();
        let note = (all.is_empty() && offset == 0).then(|| {
            format!(
                "Nothing of type {} in {region}; coordinates are on the current assembly.",
                features.join(", ")
            )
        });
        Ok(Json(RegionContents {
            region,
            species,
            features: page,
            counts,
            note,
            pagination: Pagination {
                cursor: (next < all.len()).then(|| cursor::encode(&scope, &next)),
                total_count: Some(all.len() as u64),
                page_size: limit,
            },
        }))
    }
}
