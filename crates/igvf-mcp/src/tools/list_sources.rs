//! `igvf_list_sources`: the data sets this server's tools query, what each holds, and the
//! values of the filters a tool accepts on it, read from the catalog's own OpenAPI enums
//! (embedded at build time; see `spec.rs`), so agents discover values instead of
//! guessing. No upstream call. Endpoints no tool queries, and enums no tool argument
//! maps to (e.g. `/variants/freq`'s allele-frequency `source` column, the 187 PSI-MI
//! detection methods of `/proteins/proteins`), are not listed.

use lifesciences_core::schemars::{self, JsonSchema};
use lifesciences_core::{ApiError, Parameters};
use rmcp::{Json, tool};
use serde::{Deserialize, Serialize};

use crate::associations::DATASETS;
use crate::client::Endpoint;
use crate::ids::EntityKind;
use crate::server::IgvfServer;
use crate::spec::spec;

/// A group of data sets.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub(crate) enum Category {
    /// Linkage disequilibrium.
    VariantAnnotations,
    /// QTLs: variants that change expression or splicing.
    GeneExpression,
    /// Element–gene links, caQTLs, allele-specific binding, pQTLs.
    Regulatory,
    /// Disease and phenotype associations of genes and variants.
    Disease,
    /// Pharmacogenomics (PharmGKB).
    Drugs,
    /// Protein–protein and genetic interactions, complexes, pathways, GO annotations.
    Interactions,
    /// GWAS studies and data files (not queried by these tools).
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
                "Linkage disequilibrium (TopLD, igvf_find_ld); allele frequencies (gnomAD, \
                 BRAVO) come with each variant from igvf_get_entity"
            }
            Self::GeneExpression => {
                "Variant–gene effects on expression and splicing: eQTL, sQTL, CRISPR screens"
            }
            Self::Regulatory => {
                "Regulatory element–gene links, caQTLs, allele-specific TF binding, pQTLs"
            }
            Self::Disease => {
                "Gene–disease, variant–disease and variant–phenotype (GWAS) associations"
            }
            Self::Drugs => "Variant–drug associations and drugs (PharmGKB)",
            Self::Interactions => {
                "Protein–protein and genetic interactions, co-expression, complexes, pathways, GO"
            }
            Self::Studies => {
                "GWAS studies and IGVF data files: not queried by these tools; an \
                 association's `study` names its study (e.g. GCST007841, QTS000015)"
            }
        }
    }

    /// The category of an endpoint this server queries.
    fn of(endpoint: Endpoint) -> Self {
        use Endpoint as E;
        match endpoint {
            E::VariantLd => Self::VariantAnnotations,
            E::GenesVariants | E::VariantsGenes => Self::GeneExpression,
            E::GenesGenomicElements
            | E::VariantsGenomicElements
            | E::VariantsProteins
            | E::ProteinsVariants => Self::Regulatory,
            E::GenesDiseases
            | E::DiseasesGenes
            | E::VariantsDiseases
            | E::DiseasesVariants
            | E::VariantsPhenotypes
            | E::PhenotypesVariants => Self::Disease,
            E::VariantsDrugs | E::DrugsVariants => Self::Drugs,
            // The node endpoints have no filters a tool takes; they are not listed.
            _ => Self::Interactions,
        }
    }
}

/// Arguments of `igvf_list_sources`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct ListSourcesArgs {
    /// Optional: one category, listed with every data set and its filter values:
    /// `variant_annotations`, `gene_expression`, `regulatory`, `disease`, `drugs`,
    /// `interactions`, `studies`. Without it, an overview.
    #[serde(default)]
    pub category: Option<Category>,
}

/// An argument of a tool and the values it takes on one data set.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub(crate) struct FilterValues {
    /// E.g. `filters.source` or `ancestry`.
    pub argument: String,
    pub values: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub default: Option<String>,
}

/// One data set (a catalog endpoint) the tools query.
#[serde_with::skip_serializing_none]
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub(crate) struct DatasetInfo {
    /// Catalog path, as `dataset` in associations.
    pub path: String,
    pub tool: String,
    /// For `igvf_find_associations`.
    pub relationship: Option<String>,
    /// Kinds of entity it is queried from.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub from: Vec<String>,
    pub description: String,
    /// Arguments that filter it upstream and their values (a `filters.source` on a
    /// data set without any is matched on each record here).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub filters: Vec<FilterValues>,
    /// Values of its associations' `method` (up to 12 listed).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub methods: Vec<String>,
    /// How many `method` values, when more than 12.
    pub method_count: Option<u32>,
}

/// One category.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub(crate) struct CategoryInfo {
    /// Pass it as `category` for the details.
    pub category: String,
    pub description: String,
    /// The valid `filters.source` values of its data sets.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub sources: Vec<String>,
    /// Methods of its data sets (short lists only).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub methods: Vec<String>,
    /// With `category`: its data sets.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub datasets: Vec<DatasetInfo>,
}

/// The catalog's sources and filter values.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub(crate) struct SourcesResult {
    /// Version of the catalog's OpenAPI description the values come from.
    pub spec_version: String,
    pub categories: Vec<CategoryInfo>,
    pub note: String,
}

/// A `method` enum longer than this is counted, not listed (`/proteins/proteins` has 81).
const MAX_METHODS: usize = 12;

fn push_unique(into: &mut Vec<String>, values: &[String]) {
    for v in values {
        if !into.contains(v) {
            into.push(v.clone());
        }
    }
}

/// The data sets of `category`: each association endpoint once (with every kind it is
/// queried from), and the LD endpoint.
fn datasets_of(category: Category) -> Vec<DatasetInfo> {
    let spec = spec();
    let mut out: Vec<DatasetInfo> = Vec::new();
    for d in DATASETS
        .iter()
        .filter(|d| Category::of(d.endpoint) == category)
    {
        let path = format!("/{}", d.endpoint.path());
        if let Some(existing) = out.iter_mut().find(|e| e.path == path) {
            existing.from.push(d.from.as_str().to_owned());
            // The shorter description is the generic one ("protein–protein
            // interactions"), not one side's ("… of the gene's proteins").
            if d.description.len() < existing.description.len() {
                existing.description = d.description.to_owned();
            }
            continue;
        }
        let sources = spec.values(&path, "source");
        let mut filters = Vec::new();
        if d.endpoint.allowed().contains(&"source") && !sources.is_empty() {
            filters.push(FilterValues {
                argument: "filters.source".to_owned(),
                values: sources.to_vec(),
                default: None,
            });
        }
        let methods = spec.values(&path, "method");
        let listed = methods.len() <= MAX_METHODS;
        out.push(DatasetInfo {
            path,
            tool: "igvf_find_associations".to_owned(),
            relationship: Some(d.relationship.as_str().to_owned()),
            from: vec![d.from.as_str().to_owned()],
            description: d.description.to_owned(),
            filters,
            methods: if listed { methods.to_vec() } else { Vec::new() },
            method_count: (!listed).then(|| u32::try_from(methods.len()).unwrap_or(u32::MAX)),
        });
    }
    if category == Category::VariantAnnotations {
        let ld = Endpoint::VariantLd;
        let ancestry = spec.endpoint(ld.path()).and_then(|e| e.param("ancestry"));
        out.push(DatasetInfo {
            path: format!("/{}", ld.path()),
            tool: "igvf_find_ld".to_owned(),
            relationship: None,
            from: vec![EntityKind::Variant.as_str().to_owned()],
            description: "linkage disequilibrium between variants, by population (TopLD)"
                .to_owned(),
            filters: ancestry
                .map(|p| FilterValues {
                    argument: "ancestry".to_owned(),
                    values: p.schema.values.clone(),
                    // The tool's default, not the catalog's.
                    default: Some("EUR".to_owned()),
                })
                .into_iter()
                .collect(),
            methods: Vec::new(),
            method_count: None,
        });
    }
    out
}

fn category_info(category: Category, detailed: bool) -> CategoryInfo {
    let datasets = datasets_of(category);
    let mut sources = Vec::new();
    let mut methods = Vec::new();
    for d in &datasets {
        for f in d.filters.iter().filter(|f| f.argument == "filters.source") {
            push_unique(&mut sources, &f.values);
        }
        push_unique(&mut methods, &d.methods);
    }
    CategoryInfo {
        category: category.name().to_owned(),
        description: category.description().to_owned(),
        sources,
        methods,
        datasets: if detailed { datasets } else { Vec::new() },
    }
}

impl IgvfServer {
    /// List the data sets the tools query, with their valid filter values (from the
    /// catalog's own OpenAPI enums) so values are discovered, not guessed. Without a
    /// category: an overview; with one: each data set, what it holds and its filters.
    /// Example: `{"category": "gene_expression"}`.
    #[tool(
        title = "List data sources and filter values",
        annotations(read_only_hint = true, idempotent_hint = true, open_world_hint = true)
    )]
    pub(crate) async fn igvf_list_sources(
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
            note: "`sources` are the values of igvf_find_associations' `filters.source` \
                   (matched case-insensitively). Pass `category` for each data set's filters."
                .to_owned(),
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_listed_path_is_in_the_spec_and_used_by_a_tool() {
        for c in Category::ALL {
            for d in datasets_of(c) {
                assert!(spec().endpoint(&d.path).is_some(), "{}", d.path);
            }
        }
        // Each association data set is listed exactly once.
        let listed: usize = Category::ALL.iter().map(|c| datasets_of(*c).len()).sum();
        let mut endpoints: Vec<Endpoint> = DATASETS.iter().map(|d| d.endpoint).collect();
        endpoints.sort();
        endpoints.dedup();
        assert_eq!(
            listed,
            endpoints.len() + 1,
            "the association data sets and LD"
        );
    }

    #[test]
    fn values_come_from_the_spec_enums_of_the_queried_endpoints_only() {
        let info = category_info(Category::GeneExpression, true);
        assert_eq!(info.sources, ["AFGR", "EBI", "IGVF"]);
        assert!(info.methods.contains(&"eQTL".to_owned()));
        let variants = category_info(Category::VariantAnnotations, true);
        // `/variants/freq`'s `source` is an allele-frequency column, not a data source.
        assert!(variants.sources.is_empty(), "{:?}", variants.sources);
        let ld = variants
            .datasets
            .iter()
            .find(|e| e.path == "/variants/variant-ld")
            .unwrap();
        assert_eq!(ld.filters[0].argument, "ancestry");
        assert_eq!(ld.filters[0].values, ["AFR", "EAS", "EUR", "SAS"]);
        // Ontology prefixes of /ontology-terms are not data sources.
        let disease = category_info(Category::Disease, false);
        assert!(
            disease.sources.iter().all(|s| s != "MONDO" && s != "EFO"),
            "{:?}",
            disease.sources
        );
        assert!(disease.sources.contains(&"ClinGen".to_owned()));
    }
}
