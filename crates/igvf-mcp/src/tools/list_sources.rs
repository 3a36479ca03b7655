//! `igvf_list_sources`: the data sources, methods and valid filter values of the
//! catalog, read from its own OpenAPI enums (embedded at build time; see `spec.rs`), so
//! agents discover values instead of guessing. No upstream call.

use lifesciences_core::schemars::{self, JsonSchema};
use lifesciences_core::{ApiError, Parameters};
use rmcp::{Json, tool, tool_router};
use serde::{Deserialize, Serialize};

use crate::server::IgvfServer;
use crate::spec::spec;

/// A group of data sets.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Category {
    /// Allele frequencies, coding-variant effect scores, variant effects measured in
    /// biosamples, linkage disequilibrium.
    VariantAnnotations,
    /// QTLs: variants that change expression or splicing; gene regulatory networks.
    GeneExpression,
    /// Regulatory elements, element–gene links, caQTLs, allele-specific binding, motifs.
    Regulatory,
    /// Disease and phenotype associations of genes and variants; ontology terms.
    Disease,
    /// Pharmacogenomics (PharmGKB).
    Drugs,
    /// Protein–protein and genetic interactions, complexes, pathways, GO annotations.
    Interactions,
    /// GWAS studies and the data files behind the catalog.
    Studies,
}

impl Category {
    const ALL: [Category; 7] = [
        Self::VariantAnnotations,
        Self::GeneExpression,
        Self::Regulatory,
        Self::Disease,
        Self::Drugs,
        Self::Interactions,
        Self::Studies,
    ];

    fn name(self) -> &'static str {
        match self {
            Self::VariantAnnotations => "variant_annotations",
            Self::GeneExpression => "gene_expression",
            Self::Regulatory => "regulatory",
            Self::Disease => "disease",
            Self::Drugs => "drugs",
            Self::Interactions => "interactions",
            Self::Studies => "studies",
        }
    }

    fn description(self) -> &'static str {
        match self {
            Self::VariantAnnotations => {
                "Allele frequencies (gnomAD, BRAVO), coding-variant effect scores, variant \
                 effects measured in biosamples (MPRA, STARR-seq), linkage disequilibrium (TopLD)"
            }
            Self::GeneExpression => {
                "QTLs (eQTL, sQTL, pQTL, caQTL) and CRISPR/Perturb-seq gene regulation"
            }
            Self::Regulatory => {
                "Regulatory elements, element–gene links, caQTLs, allele-specific TF binding, \
                 predictions and motifs"
            }
            Self::Disease => {
                "Gene–disease, variant–disease and variant–phenotype (GWAS) associations"
            }
            Self::Drugs => "Variant–drug associations and drugs (PharmGKB)",
            Self::Interactions => {
                "Protein–protein and genetic interactions, co-expression, complexes, pathways, GO"
            }
            Self::Studies => "GWAS studies and the IGVF data files behind the catalog",
        }
    }

    /// The catalog paths of the category, all present in the production spec.
    fn paths(self) -> &'static [&'static str] {
        match self {
            Self::VariantAnnotations => &[
                "/variants",
                "/variants/freq",
                "/variants/variant-ld",
                "/coding-variants",
                "/coding-variants/phenotypes",
                "/genes/coding-variants/scores",
                "/variants/biosamples",
            ],
            Self::GeneExpression => &[
                "/variants/genes",
                "/genes/variants",
                "/qtls",
                "/gene-regulatory-network",
            ],
            Self::Regulatory => &[
                "/genomic-elements",
                "/genomic-elements/genes",
                "/genes/genomic-elements",
                "/variants/genomic-elements",
                "/variants/proteins",
                "/variants/predictions",
                "/motifs",
            ],
            Self::Disease => &[
                "/genes/diseases",
                "/diseases/genes",
                "/variants/diseases",
                "/variants/phenotypes",
                "/phenotypes/variants",
                "/ontology-terms",
            ],
            Self::Drugs => &["/variants/drugs", "/drugs/variants", "/drugs"],
            Self::Interactions => &[
                "/proteins/proteins",
                "/genes/genes",
                "/complexes/proteins",
                "/proteins/complexes",
                "/genes/pathways",
                "/gene-products/go-terms",
            ],
            Self::Studies => &["/studies", "/files-filesets"],
        }
    }
}

/// Arguments of `igvf_list_sources`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ListSourcesArgs {
    /// Optional: one category, listed with every endpoint and all its valid filter values:
    /// `variant_annotations`, `gene_expression`, `regulatory`, `disease`, `drugs`,
    /// `interactions`, `studies`. Without it, an overview of every category.
    #[serde(default)]
    pub category: Option<Category>,
}

/// A filter parameter and its valid values.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct FilterValues {
    /// The parameter, e.g. `source`, `method`, `label`, `ancestry`.
    pub name: String,
    /// Every value the catalog accepts.
    pub values: Vec<String>,
    /// The default, when there is one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub default: Option<String>,
}

/// One endpoint of a category.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct EndpointInfo {
    /// The catalog path, e.g. `/genes/variants` (it appears as `dataset` in
    /// `igvf_find_associations` results).
    pub path: String,
    /// What it returns.
    pub summary: String,
    /// Its enumerated filters and their valid values.
    pub filters: Vec<FilterValues>,
}

/// One category.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct CategoryInfo {
    /// The category name (pass it as `category` for the details).
    pub category: String,
    /// What it covers.
    pub description: String,
    /// Its data sources (the values of the endpoints' `source` filters) — valid values
    /// of `igvf_find_associations`' `filters.source`.
    pub sources: Vec<String>,
    /// Its methods (the values of the endpoints' `method` filters).
    pub methods: Vec<String>,
    /// With a `category` argument: its endpoints and all their filter values.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub endpoints: Vec<EndpointInfo>,
}

/// The catalog's sources and filter values.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct SourcesResult {
    /// The version of the catalog's OpenAPI description these values come from.
    pub spec_version: String,
    /// The categories.
    pub categories: Vec<CategoryInfo>,
    /// How to read this.
    pub note: String,
}

fn push_unique(into: &mut Vec<String>, values: &[String]) {
    for v in values {
        if !into.contains(v) {
            into.push(v.clone());
        }
    }
}

fn category_info(category: Category, detailed: bool) -> CategoryInfo {
    let spec = spec();
    let mut sources = Vec::new();
    let mut methods = Vec::new();
    let mut endpoints = Vec::new();
    for path in category.paths() {
        let Some(endpoint) = spec.endpoint(path) else {
            continue;
        };
        push_unique(&mut sources, spec.values(path, "source"));
        push_unique(&mut methods, spec.values(path, "method"));
        if detailed {
            let filters = endpoint
                .parameters
                .iter()
                .filter(|p| !p.schema.values.is_empty() && p.name != "verbose")
                .map(|p| FilterValues {
                    name: p.name.clone(),
                    values: p.schema.values.clone(),
                    default: p.schema.default.as_ref().map(|d| match d {
                        serde_json::Value::String(s) => s.clone(),
                        other => other.to_string(),
                    }),
                })
                .collect();
            endpoints.push(EndpointInfo {
                path: (*path).to_owned(),
                summary: endpoint.summary(),
                filters,
            });
        }
    }
    CategoryInfo {
        category: category.name().to_owned(),
        description: category.description().to_owned(),
        sources,
        methods,
        endpoints,
    }
}

#[tool_router(router = list_sources_router, vis = "pub(crate)")]
impl IgvfServer {
    /// List the catalog's data sources, methods and valid filter values, from the API's
    /// own OpenAPI enums, so filter values are discovered instead of guessed. Without a
    /// category: an overview; with one: every endpoint and all its filter values.
    /// Example: `{"category": "gene_expression"}`.
    #[tool(
        title = "List data sources and filter values",
        annotations(read_only_hint = true, idempotent_hint = true, open_world_hint = true)
    )]
    pub async fn igvf_list_sources(
        &self,
        Parameters(args): Parameters<ListSourcesArgs>,
    ) -> Result<Json<SourcesResult>, ApiError> {
        let args = args?;
        let categories = match args.category {
            Some(c) => vec![category_info(c, true)],
            None => Category::ALL
                .iter()
                .map(|c| category_info(*c, false))
                .collect(),
        };
        Ok(Json(SourcesResult {
            spec_version: spec().version.clone(),
            categories,
            note: "Values are case-sensitive upstream; igvf_find_associations matches \
                   `filters.source` case-insensitively against them. Pass `category` for \
                   each endpoint's filters (source, method, label, ancestry, organism…)."
                .to_owned(),
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_category_path_is_in_the_spec() {
        for c in Category::ALL {
            for p in c.paths() {
                assert!(spec().endpoint(p).is_some(), "{p}");
            }
        }
    }

    #[test]
    fn values_come_from_the_spec_enums() {
        let info = category_info(Category::GeneExpression, true);
        assert!(info.sources.contains(&"AFGR".to_owned()));
        assert!(info.methods.contains(&"eQTL".to_owned()));
        let ld = category_info(Category::VariantAnnotations, true);
        let ld_endpoint = ld
            .endpoints
            .iter()
            .find(|e| e.path == "/variants/variant-ld")
            .unwrap();
        let ancestry = ld_endpoint
            .filters
            .iter()
            .find(|f| f.name == "ancestry")
            .unwrap();
        assert_eq!(ancestry.values, ["AFR", "EAS", "EUR", "SAS"]);
        assert!(ld_endpoint.filters.iter().all(|f| f.name != "verbose"));
    }
}
