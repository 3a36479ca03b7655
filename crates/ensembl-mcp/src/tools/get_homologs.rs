//! `ensembl_get_homologs`: a gene's orthologues and/or paralogues from Ensembl Compara,
//! with the homology type and percent identity, optionally only in some target species.
//! One request: `GET homology/id/:species/:id` (or `homology/symbol/…` for a symbol) in
//! the full format without sequences or alignments (the condensed format has no percent
//! identity). An ID of a non-human gene named without its species costs one `lookup/id`
//! first (the path needs the species). Pages come from the cached answer.

use lifesciences_core::rmcp::schemars::{self, JsonSchema};
use lifesciences_core::rmcp::{Json, tool};
use lifesciences_core::{ApiError, Pagination, Parameters, Reply, cursor, in_range, lenient};
use serde::{Deserialize, Serialize};

use crate::client::UnknownSpecies;
use crate::ids::{self, Parsed};
use crate::models::Homology;
use crate::server::EnsemblServer;
use crate::species;
use crate::tools::{not_found, unknown_species};

/// Which homologies.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub(crate) enum HomologyType {
    /// Between species.
    #[default]
    Orthologues,
    /// Within a species.
    Paralogues,
    /// Both.
    All,
}

impl HomologyType {
    fn name(self) -> &'static str {
        match self {
            Self::Orthologues => "orthologues",
            Self::Paralogues => "paralogues",
            Self::All => "all",
        }
    }
}

/// Arguments of `ensembl_get_homologs`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct GetHomologsArgs {
    /// Ensembl gene ID (`ENSG00000141510`) or symbol (`TP53`, with `species`).
    pub gene: String,
    /// The gene's species; default human, or the species of a non-human ID.
    #[serde(default)]
    pub species: Option<String>,
    /// `orthologues`, `paralogues` or `all`.
    #[serde(default, rename = "type")]
    #[schemars(extend("default" = "orthologues"))]
    pub kind: Option<HomologyType>,
    /// Only these species, e.g. ["mouse", "danio_rerio"].
    #[serde(default, deserialize_with = "lifesciences_core::args::one_or_many")]
    #[schemars(with = "Vec<String>")]
    #[schemars(length(max = 20))]
    pub target_species: Vec<String>,
    /// Homologs per page, 1–500.
    #[serde(default, deserialize_with = "lenient::opt_u32")]
    #[schemars(range(min = 1, max = 500))]
    #[schemars(extend("default" = 50))]
    pub limit: Option<u32>,
    /// `pagination.cursor` of the previous page.
    #[serde(default)]
    pub cursor: Option<String>,
}

/// One homolog of the gene.
#[serde_with::skip_serializing_none]
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub(crate) struct Homolog {
    /// The homolog's Ensembl gene ID (pass it to ensembl_get_gene).
    pub gene_id: String,
    pub species: Option<String>,
    pub taxon_id: Option<u64>,
    /// Its protein in the alignment.
    pub protein_id: Option<String>,
    /// `ortholog_one2one`, `ortholog_one2many`, `within_species_paralog`…
    #[serde(rename = "type")]
    pub kind: Option<String>,
    /// The last common ancestor's clade, e.g. `Murinae`.
    pub taxonomy_level: Option<String>,
    /// Percent of the homolog's protein identical to the gene's.
    pub identity: Option<f64>,
    /// Percent of the gene's protein identical to the homolog's.
    pub query_identity: Option<f64>,
    pub dn_ds: Option<f64>,
    /// The gene it is a homolog of, when a symbol named several.
    pub of_gene: Option<String>,
}

/// The homologs of a gene.
#[serde_with::skip_serializing_none]
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub(crate) struct Homologs {
    /// The gene(s) asked about (a symbol can name several).
    pub genes: Vec<String>,
    pub species: String,
    /// This page of homologs, in Ensembl's order.
    pub homologs: Vec<Homolog>,
    /// What the result leaves out, and why.
    pub note: Option<String>,
    /// `total_count` counts every homolog; `cursor` fetches the next page.
    pub pagination: Pagination,
}

fn homolog(h: &Homology, of: &str, several: bool) -> Option<Homolog> {
    Some(Homolog {
        gene_id: h.target.id.clone()?,
        species: h.target.species.clone(),
        taxon_id: h.target.taxon_id,
        protein_id: h.target.protein_id.clone(),
        kind: h.kind.clone(),
        taxonomy_level: h.taxonomy_level.clone(),
        identity: h.target.perc_id,
        query_identity: h.source.perc_id,
        dn_ds: h.dn_ds,
        of_gene: several.then(|| of.to_owned()),
    })
}

impl EnsemblServer {
    /// A gene's orthologues and/or paralogues (Ensembl Compara): each homolog's gene,
    /// species, protein, homology type, clade and percent identity both ways. Takes an
    /// Ensembl gene ID or a symbol with species. Example: `{"gene": "TP53",
    /// "target_species": ["mouse"]}`.
    #[tool(
        title = "Get Ensembl homologs",
        annotations(read_only_hint = true, idempotent_hint = true, open_world_hint = true)
    )]
    pub(crate) async fn ensembl_get_homologs(
        &self,
        Parameters(args): Parameters<GetHomologsArgs>,
    ) -> Result<Json<Homologs>, ApiError> {
        let args = args?;
        let kind = args.kind.unwrap_or_default();
        let limit = in_range("limit", args.limit, 1, 500, 50)?;
        let raw = args.gene.trim();
        // Only a whole stable ID is read as one; anything else is a symbol, sent as
        // written (`ENSA` is a human gene's symbol, not a broken ID).
        let parsed = ids::parse(raw);
        let (gene, by_symbol, human_id) = match &parsed {
            Parsed::Id(id) => (ids::gene_id(raw)?, false, id.species_code().is_empty()),
            _ if !raw.is_empty() && !raw.contains('/') => (raw.to_owned(), true, false),
            _ => {
                return Err(ApiError::invalid_input(
                    format!("'{raw}' is not a gene."),
                    "Pass an Ensembl gene ID such as 'ENSG00000141510' or a symbol such as \
                     'TP53'.",
                    raw,
                ));
            }
        };
        let species = match (&args.species, by_symbol) {
            (Some(s), _) => species::production_name(s),
            (None, true) => "homo_sapiens".to_owned(),
            (None, false) if human_id => "homo_sapiens".to_owned(),
            (None, false) => match self.ensembl.lookup(&gene).await? {
                Some(found) => found.species.unwrap_or_else(|| "homo_sapiens".to_owned()),
                None => return Err(not_found("gene", &gene, raw)),
            },
        };
        let targets: Vec<String> = args
            .target_species
            .iter()
            .map(|t| species::production_name(t))
            .filter(|t| !t.is_empty())
            .collect();
        let scope = format!(
            "ensembl_get_homologs|{species}|{gene}|{}|{}|{limit}",
            kind.name(),
            targets.join(",")
        );
        let offset: usize = match args.cursor.as_deref().map(str::trim) {
            Some(c) if !c.is_empty() => cursor::decode(c, &scope)?,
            _ => 0,
        };

        let answer = match self
            .ensembl
            .homology(&species, &gene, by_symbol, kind.name(), &targets)
            .await?
        {
            Reply::Found(answer) => answer,
            Reply::Refused(UnknownSpecies) => return Err(unknown_species(&species)),
            Reply::Missing => {
                return Err(if by_symbol && parsed == Parsed::Malformed {
                    ApiError::not_found(
                        format!(
                            "Ensembl has no {species} gene with the symbol '{raw}', and it is \
                             not a well-formed Ensembl gene ID either."
                        ),
                        "Ensembl gene IDs are 'ENS', an optional species code, 'G' and 11 \
                         digits, optionally with a version (e.g. 'ENSG00000141510'); check \
                         the ID or the symbol, or find the gene with ensembl_search_genes.",
                        raw,
                    )
                } else if by_symbol {
                    ApiError::not_found(
                        format!("Ensembl has no {species} gene with the symbol '{raw}'."),
                        "Check the symbol and species, or find the gene with ensembl_search_genes.",
                        raw,
                    )
                } else {
                    not_found("gene", &gene, raw)
                });
            }
        };
        let data = answer.data.unwrap_or_default();
        let genes: Vec<String> = data.iter().filter_map(|g| g.id.clone()).collect();
        let several = genes.len() > 1;
        let all: Vec<Homolog> = data
            .iter()
            .flat_map(|g| {
                let of = g.id.clone().unwrap_or_default();
                g.homologies
                    .iter()
                    .filter_map(move |h| homolog(h, &of, several))
                    .collect::<Vec<_>>()
            })
            .collect();
        let page: Vec<Homolog> = all
            .iter()
            .skip(offset)
            .take(limit as usize)
            .cloned()
            .collect();
        let next = offset + page.len();
        let note = (all.is_empty() && offset == 0).then(|| {
            if targets.is_empty() {
                format!("Ensembl Compara lists no {} for this gene.", kind.name())
            } else {
                format!(
                    "Ensembl Compara lists no {} in {} for this gene (target species are \
                     Ensembl names such as 'mus_musculus').",
                    kind.name(),
                    targets.join(", ")
                )
            }
        });
        Ok(Json(Homologs {
            genes: if genes.is_empty() { vec![gene] } else { genes },
            species,
            homologs: page,
            note,
            pagination: Pagination {
                cursor: (next < all.len()).then(|| cursor::encode(&scope, &next)),
                total_count: Some(all.len() as u64),
                page_size: limit,
            },
        }))
    }
}
