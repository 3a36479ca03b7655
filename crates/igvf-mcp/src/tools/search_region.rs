//! `igvf_search_region`: genes, variants and regulatory elements in a genomic region,
//! queried in parallel, with the upstream's region and page caps honoured and stated.

use std::collections::BTreeMap;

use lifesciences_core::schemars::{self, JsonSchema};
use lifesciences_core::{ApiError, Parameters, in_range, lenient};
use rmcp::{Json, tool};
use serde::{Deserialize, Serialize};

use crate::client::{Endpoint, Fetched, Request, VARIANT_REGION_MAX_BP};
use crate::models::{Gene, GenomicElement, Variant};
use crate::region::{Region, interval, one_based};
use crate::server::IgvfServer;
use crate::tools::OrganismArg;

/// What a region search can include.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub(crate) enum RegionContent {
    /// Genes overlapping the region (GENCODE).
    Genes,
    /// Variants inside the region (the catalog answers regions up to 10 kb).
    Variants,
    /// Regulatory elements overlapping the region (ENCODE cCREs, accessible elements,
    /// tested elements).
    RegulatoryElements,
}

impl RegionContent {
    fn as_str(self) -> &'static str {
        match self {
            Self::Genes => "genes",
            Self::Variants => "variants",
            Self::RegulatoryElements => "regulatory_elements",
        }
    }
}

/// Arguments of `igvf_search_region`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct SearchRegionArgs {
    /// The region, `chromosome:start-end`, 1-based and inclusive as Ensembl and UCSC
    /// write it (TP53: `chr17:7661779-7687538`), GRCh38 or GRCm39: also `17:1,000,000-2,000,000`,
    /// `chrX:1M-2M`, `chr17:41.2M-41.3M`, `chr2:150kb-200kb`; `chr1:12345` is one base.
    pub region: String,
    /// What to list: any of `genes`, `variants`, `regulatory_elements` (default: all).
    #[serde(default, deserialize_with = "one_or_many")]
    #[schemars(extend("default" = ["genes", "variants", "regulatory_elements"]))]
    pub include: Option<Vec<RegionContent>>,
    /// `human` (default) or `mouse`.
    #[serde(default)]
    #[schemars(extend("default" = "human"))]
    pub organism: Option<OrganismArg>,
    /// Maximum items per list, 1–500.
    #[serde(default, deserialize_with = "lenient::opt_u32")]
    #[schemars(range(min = 1, max = 500))]
    #[schemars(extend("default" = 25))]
    pub limit: Option<u32>,
}

/// `include` as core's `args::opt_one_or_many` reads a list (also one string such as
/// `"genes"` or `"genes, variants"`), each item a content by a forgiving name.
fn one_or_many<'de, D: serde::Deserializer<'de>>(
    d: D,
) -> Result<Option<Vec<RegionContent>>, D::Error> {
    let Some(items) = lifesciences_core::args::opt_one_or_many(d)? else {
        return Ok(None);
    };
    items
        .iter()
        .map(
            |s| match s.to_ascii_lowercase().replace([' ', '-'], "_").as_str() {
                "genes" | "gene" => Ok(RegionContent::Genes),
                "variants" | "variant" => Ok(RegionContent::Variants),
                "regulatory_elements" | "regulatory_element" | "regulatory" | "elements" => {
                    Ok(RegionContent::RegulatoryElements)
                }
                _ => Err(serde::de::Error::custom(format!(
                    "'{s}' cannot be included; use 'genes', 'variants' or 'regulatory_elements'"
                ))),
            },
        )
        .collect::<Result<Vec<_>, _>>()
        .map(Some)
}

/// A gene in a region.
#[serde_with::skip_serializing_none]
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub(crate) struct RegionGene {
    /// Ensembl gene ID.
    pub id: String,
    pub symbol: Option<String>,
    /// `chr17` style (Ensembl says `17`).
    pub chromosome: Option<String>,
    /// First base, 1-based (as Ensembl).
    pub start: Option<u64>,
    /// Last base, 1-based, inclusive (as Ensembl).
    pub end: Option<u64>,
    /// `+` or `-`.
    pub strand: Option<String>,
    /// GENCODE gene type.
    pub gene_type: Option<String>,
}

/// A variant in a region.
#[serde_with::skip_serializing_none]
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub(crate) struct RegionVariant {
    /// The catalog's variant ID (the SPDI for human variants).
    pub id: String,
    /// `chr17` style (Ensembl says `17`).
    pub chromosome: Option<String>,
    /// 1-based position, as in VCF and HGVS (the SPDI `id` keeps its own 0-based one).
    pub position: Option<u64>,
    #[serde(rename = "ref")]
    pub reference: Option<String>,
    pub alt: Option<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub rsids: Vec<String>,
    /// Genomic HGVS.
    pub hgvs: Option<String>,
    /// ClinGen allele ID.
    pub ca_id: Option<String>,
}

/// A regulatory element in a region.
#[serde_with::skip_serializing_none]
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub(crate) struct RegulatoryElement {
    /// The element's ID, e.g. the ENCODE cCRE accession `EH38E2777055`.
    pub id: String,
    /// `chr17` style (Ensembl says `17`).
    pub chromosome: Option<String>,
    /// First base, 1-based (as Ensembl).
    pub start: Option<u64>,
    /// Last base, 1-based, inclusive (as Ensembl).
    pub end: Option<u64>,
    /// E.g. `candidate cis regulatory element`.
    pub element_type: Option<String>,
    /// E.g. `dELS: distal Enhancer-like signal`.
    pub annotation: Option<String>,
    /// How it was defined, e.g. `caQTL`.
    pub method: Option<String>,
    /// E.g. `ENCODE`, `AFGR`, `IGVF`.
    pub source: Option<String>,
}

/// What is in a region.
#[serde_with::skip_serializing_none]
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub(crate) struct RegionResult {
    /// As read, 1-based and inclusive, e.g. `chr17:7661779-7687538`.
    pub region: String,
    /// Length in base pairs, both ends included.
    pub span_bp: u64,
    /// `Homo sapiens` or `Mus musculus`.
    pub organism: String,
    /// `GRCh38` or `GRCm39`; coordinates are 1-based, inclusive, `chr`-prefixed.
    pub assembly: String,
    /// Genes overlapping the region.
    pub genes: Option<Vec<RegionGene>>,
    /// Variants inside the region (regions up to 10 kb).
    pub variants: Option<Vec<RegionVariant>>,
    /// Regulatory elements overlapping the region.
    pub regulatory_elements: Option<Vec<RegulatoryElement>>,
    /// Per list searched: `true` when cut at `limit` with more left.
    pub truncated: BTreeMap<String, bool>,
    /// What was not searched, failed or cut, and how to get the rest.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
}

impl IgvfServer {
    /// List the genes, variants and regulatory elements in a genomic region, queried in
    /// parallel. Coordinates in and out are 1-based, inclusive (as Ensembl, UCSC).
    /// Variants are listed for regions up to 10 kb (the catalog's limit); each list says
    /// whether it was truncated at `limit`.
    /// Example: `{"region": "chr17:41.2M-41.3M", "include": ["genes", "regulatory_elements"]}`.
    #[tool(
        title = "Search a genomic region",
        annotations(read_only_hint = true, idempotent_hint = true, open_world_hint = true)
    )]
    pub(crate) async fn igvf_search_region(
        &self,
        Parameters(args): Parameters<SearchRegionArgs>,
    ) -> Result<Json<RegionResult>, ApiError> {
        let args = args?;
        let organism = args.organism.unwrap_or_default().0;
        let region = Region::parse(&args.region, organism)?;
        let limit = in_range("limit", args.limit, 1, 500, 25)?;
        let include = contents(args.include)?;
        let mut lists = Lists::new(limit);
        let query_variants = include.contains(&RegionContent::Variants)
            && variants_searchable(&region, &mut lists.notes);
        // The one crossing into the catalog's coordinates: 1-based inclusive in,
        // 0-based half-open out (`chr17:7661779-7687538` is asked as `…7661778-7687538`).
        let catalog_region = region.catalog();
        let request = |endpoint| {
            Request::new(endpoint)
                .param("region", catalog_region.clone())
                .input("region", args.region.clone())
                .organism(organism)
        };
        let client = &self.catalog;
        let genes_request = request(Endpoint::Genes);
        let variants_request = request(Endpoint::Variants);
        let elements_request = request(Endpoint::GenomicElements);
        let (genes, variants, elements) = futures::join!(
            async {
                if include.contains(&RegionContent::Genes) {
                    Some(client.fetch::<Gene>(&genes_request, limit).await)
                } else {
                    None
                }
            },
            async {
                if query_variants {
                    Some(client.fetch::<Variant>(&variants_request, limit).await)
                } else {
                    None
                }
            },
            async {
                if include.contains(&RegionContent::RegulatoryElements) {
                    Some(
                        client
                            .fetch::<GenomicElement>(&elements_request, limit)
                            .await,
                    )
                } else {
                    None
                }
            },
        );
        let genes = lists.read(
            RegionContent::Genes,
            genes,
            |g| overlaps(&region, g.chr.as_deref(), g.start, g.end),
            region_gene,
        );
        let variants = lists.read(
            RegionContent::Variants,
            variants,
            |v| match (v.chr.as_deref(), v.pos) {
                (Some(chr), Some(pos)) => region.contains(chr, pos),
                _ => true,
            },
            region_variant,
        );
        let regulatory_elements = lists.read(
            RegionContent::RegulatoryElements,
            elements,
            |e| overlaps(&region, e.chr.as_deref(), e.start, e.end),
            regulatory_element,
        );
        let answered = genes.is_some() || variants.is_some() || regulatory_elements.is_some();
        if !answered && let Some(first) = lists.failures.into_iter().next() {
            return Err(first);
        }
        let Lists {
            truncated, notes, ..
        } = lists;
        Ok(Json(RegionResult {
            region: region.to_string(),
            span_bp: region.span(),
            organism: organism.api_name().to_owned(),
            assembly: organism.assembly().to_owned(),
            genes,
            variants,
            regulatory_elements,
            truncated,
            notes,
        }))
    }
}

/// What to list: the caller's choice, sorted and without repeats (all three when not
/// given); an empty choice is refused.
fn contents(include: Option<Vec<RegionContent>>) -> Result<Vec<RegionContent>, ApiError> {
    let mut include = include.unwrap_or_else(|| {
        vec![
            RegionContent::Genes,
            RegionContent::Variants,
            RegionContent::RegulatoryElements,
        ]
    });
    include.sort();
    include.dedup();
    if include.is_empty() {
        return Err(ApiError::invalid_input(
            "Argument 'include' is empty, so there is nothing to search.",
            "List any of 'genes', 'variants', 'regulatory_elements', or omit 'include' for all three.",
            "[]",
        ));
    }
    Ok(include)
}

/// Whether the catalog lists variants for `region` (at most 10 kb); if not, a note
/// naming a sub-region to ask for instead.
fn variants_searchable(region: &Region, notes: &mut Vec<String>) -> bool {
    if region.span() <= VARIANT_REGION_MAX_BP {
        return true;
    }
    notes.push(format!(
        "variants: not searched. The catalog lists variants for regions of at most \
         10 kb and this one spans {} bp; call again with a sub-region such as \
         'chr{}:{}-{}'.",
        region.span(),
        region.chromosome,
        region.start,
        region.start + VARIANT_REGION_MAX_BP - 1
    ));
    false
}

/// The lists as they are read: which were cut, which failed, and the notes saying so.
/// One list failing does not sink the others: its failure is a note, and the call fails
/// only when every list asked for failed.
struct Lists {
    limit: u32,
    truncated: BTreeMap<String, bool>,
    failures: Vec<ApiError>,
    notes: Vec<String>,
}

impl Lists {
    fn new(limit: u32) -> Self {
        Self {
            limit,
            truncated: BTreeMap::new(),
            failures: Vec::new(),
            notes: Vec::new(),
        }
    }

    /// One list's answer (`None`: not asked for): the records `inside` the region,
    /// shaped by `shape`, with notes on the cut and on records left out; a failure is
    /// noted and the list left out.
    fn read<T, U>(
        &mut self,
        what: RegionContent,
        fetched: Option<Result<Fetched<T>, ApiError>>,
        inside: impl Fn(&T) -> bool,
        shape: impl Fn(T) -> U,
    ) -> Option<Vec<U>> {
        match fetched? {
            Ok(Fetched { items, more }) => {
                let total = items.len();
                let kept: Vec<U> = items.into_iter().filter(|r| inside(r)).map(shape).collect();
                self.record(what, more, total - kept.len());
                Some(kept)
            }
            Err(e) => {
                self.failed(what, e);
                None
            }
        }
    }

    fn record(&mut self, what: RegionContent, more: bool, dropped: usize) {
        let limit = self.limit;
        self.truncated.insert(what.as_str().to_owned(), more);
        if more {
            self.notes.push(format!(
                "{}: the first {limit} are listed and more exist; raise 'limit' (up to \
                 500) or narrow the region.",
                what.as_str()
            ));
        }
        if dropped > 0 {
            self.notes.push(format!(
                "{}: {dropped} record(s) the catalog returned lie outside the region and \
                 were left out.",
                what.as_str()
            ));
        }
    }

    fn failed(&mut self, what: RegionContent, e: ApiError) {
        let body = e.to_envelope().error;
        self.notes.push(format!(
            "{}: not listed, the catalog failed ({}): {} {}",
            what.as_str(),
            body.code,
            body.message,
            body.recovery_hint
        ));
        self.failures.push(e);
    }
}

/// Records without coordinates are kept (nothing says they are outside); records that
/// name another place are the upstream ignoring the region and are dropped. The record's
/// coordinates are the catalog's own (0-based, half-open), compared before conversion.
fn overlaps(region: &Region, chr: Option<&str>, start: Option<u64>, end: Option<u64>) -> bool {
    match (chr, start, end) {
        (Some(chr), Some(start), Some(end)) => region.overlaps(chr, start, end.max(start + 1)),
        _ => true,
    }
}

fn region_gene(g: Gene) -> RegionGene {
    RegionGene {
        id: g.id,
        symbol: g.name,
        chromosome: g.chr,
        start: g.start.map(one_based),
        end: g.end,
        strand: g.strand,
        gene_type: g.gene_type,
    }
}

fn region_variant(v: Variant) -> RegionVariant {
    RegionVariant {
        id: v.spdi.clone().unwrap_or(v.id),
        chromosome: v.chr,
        position: v.pos.map(one_based),
        reference: v.reference,
        alt: v.alt,
        rsids: v.rsid,
        hgvs: v.hgvs,
        ca_id: v.ca_id,
    }
}

fn regulatory_element(e: GenomicElement) -> RegulatoryElement {
    let id = e.name.clone().unwrap_or_else(|| {
        interval(
            e.chr.as_deref().unwrap_or("?"),
            e.start.unwrap_or_default(),
            e.end.unwrap_or_default(),
        )
    });
    RegulatoryElement {
        id,
        chromosome: e.chr,
        start: e.start.map(one_based),
        end: e.end,
        element_type: e.element_type,
        annotation: e.source_annotation,
        method: e.method,
        source: e.source,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ids::Organism;

    #[test]
    fn records_outside_the_region_are_recognised() {
        let region = Region::parse("chr17:41000000-42000000", Organism::Human).unwrap();
        assert!(overlaps(
            &region,
            Some("chr17"),
            Some(41_500_000),
            Some(41_600_000)
        ));
        assert!(!overlaps(
            &region,
            Some("chrX"),
            Some(100_627_107),
            Some(100_639_991)
        ));
        assert!(overlaps(&region, None, None, None));
    }
}
