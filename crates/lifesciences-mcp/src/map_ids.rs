//! `lifesciences_map_ids`: an identifier of one database in the forms of the others,
//! each with the tool that takes it next.
//!
//! Every hop is a call of one of the five servers' own tools, in-process, through the
//! shared upstream clients (so a hop another call made already is answered from the
//! cache). The paths:
//!
//! | input | path |
//! |---|---|
//! | gene symbol, HGNC, NCBI Gene, RefSeq | `ensembl_search_genes` → the gene path |
//! | UniProt accession or isoform | `uniprot_get_protein` (gene symbol, Ensembl gene and protein, HGNC, NCBI Gene, RefSeq, STRING, ChEMBL target) |
//! | Ensembl gene | the gene path: `ensembl_get_gene` (HGNC, UniProt, NCBI Gene, RefSeq) → `string_search_proteins` (STRING) and `chembl_search_targets` (ChEMBL target, by UniProt) |
//! | Ensembl transcript | `ensembl_get_transcript` → its gene → the gene path |
//! | STRING protein | `string_search_proteins` (its preferred name) → the symbol path |
//! | Ensembl protein (human, mouse, rat, zebrafish) | the STRING path: STRING names these species' proteins by their Ensembl IDs |
//! | ChEMBL compound | `chembl_get_compound` (InChIKey, PubChem CID, target UniProt accessions) |
//! | ChEMBL target | `chembl_get_target` (UniProt accessions, gene symbols) |
//! | InChIKey | `chembl_search_compounds` → the compound path |
//! | PubChem CID (`CID:2244`, `PubChem:2244`) | UniChem (ChEMBL's cross-reference service) → the compound path |
//! | rsID, SPDI | `igvf_resolve_id` (rsID, SPDI, HGVS, ClinGen allele) |

mod form;
mod hops;
mod paths;

use lifesciences_core::rmcp::service::RequestContext;
use lifesciences_core::rmcp::{Json, RoleServer, tool};
use lifesciences_core::schemars::{self, JsonSchema};
use lifesciences_core::{ApiError, ErrorCode, Parameters};
use serde::{Deserialize, Serialize};

use self::form::Form;
use self::paths::Mapper;
use crate::server::Gateway;

/// Identifiers one call maps at most.
const MAX_IDS: usize = 20;

/// Arguments of `lifesciences_map_ids`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct MapIdsArgs {
    /// 1–20 identifiers: gene symbol, ENSG/ENST/ENSP, UniProt, HGNC:…, NCBI Gene, RefSeq,
    /// STRING (9606.ENSP…), CHEMBL…, InChIKey, PubChem `CID:2244`, rsID or SPDI.
    #[serde(deserialize_with = "lifesciences_core::args::one_or_many")]
    #[schemars(with = "Vec<String>", length(min = 1, max = 20))]
    pub ids: Vec<String>,
    /// Species of gene symbols and other gene IDs, e.g. `human`, `mouse`, `9606`.
    #[serde(default)]
    #[schemars(extend("default" = "human"))]
    pub species: Option<String>,
}

/// One equivalent identifier.
#[serde_with::skip_serializing_none]
#[derive(Debug, Clone, Serialize, JsonSchema, PartialEq)]
pub(crate) struct Equivalent {
    /// `symbol`, `ensembl_gene`, `ensembl_transcript`, `ensembl_protein`, `uniprot`,
    /// `hgnc`, `ncbi_gene`, `refseq`, `string`, `chembl_target`, `chembl_compound`,
    /// `pubchem_compound`, `inchikey`, `rsid`, `spdi`, `hgvs`, `clingen_allele`.
    pub namespace: String,
    /// The identifier, in the form `next_tool` takes.
    pub id: String,
    /// The tool that takes it next.
    pub next_tool: Option<String>,
}

/// A namespace that could not be reached, and why.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub(crate) struct Unmapped {
    /// The namespace.
    pub namespace: String,
    /// Why.
    pub reason: String,
}

/// What one input maps to.
#[serde_with::skip_serializing_none]
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub(crate) struct Mapping {
    /// The input, as given.
    pub input: String,
    /// How it was read, e.g. `gene symbol`, `UniProt accession`.
    pub detected_as: String,
    /// Its equivalents.
    pub equivalents: Vec<Equivalent>,
    /// The tools called, in order.
    pub path: Vec<String>,
    /// What could not be mapped, and why.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub unmapped: Vec<Unmapped>,
    /// Set when the input itself could not be read or found.
    pub error: Option<MapError>,
}

/// Why an input failed.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub(crate) struct MapError {
    /// The error code, e.g. `ENTITY_NOT_FOUND`.
    pub code: ErrorCode,
    /// What failed, and what to do.
    pub message: String,
}

/// The answer.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub(crate) struct MapIdsResult {
    /// One mapping per input, in input order.
    pub results: Vec<Mapping>,
    /// Inputs with at least one equivalent.
    pub mapped: u32,
    /// Inputs that failed (see `results[].error`).
    pub failed: u32,
}

/// One input's mapping as it is built.
struct Builder {
    mapping: Mapping,
}

impl Builder {
    fn new(input: &str, form: &str) -> Self {
        Self {
            mapping: Mapping {
                input: input.to_owned(),
                detected_as: form.to_owned(),
                equivalents: Vec::new(),
                path: Vec::new(),
                unmapped: Vec::new(),
                error: None,
            },
        }
    }

    pub(crate) fn add(&mut self, namespace: &str, id: &str, next: Option<&str>) {
        let id = id.trim();
        if id.is_empty()
            || self
                .mapping
                .equivalents
                .iter()
                .any(|e| e.namespace == namespace && e.id == id)
        {
            return;
        }
        self.mapping.equivalents.push(Equivalent {
            namespace: namespace.to_owned(),
            id: id.to_owned(),
            next_tool: next.map(str::to_owned),
        });
    }

    pub(crate) fn missing(&mut self, namespace: &str, reason: impl Into<String>) {
        self.mapping.unmapped.push(Unmapped {
            namespace: namespace.to_owned(),
            reason: reason.into(),
        });
    }

    pub(crate) fn called(&mut self, tool: &str) {
        self.mapping.path.push(tool.to_owned());
    }

    fn fail(mut self, e: &ApiError) -> Mapping {
        let body = e.to_envelope().error;
        self.mapping.error = Some(MapError {
            code: body.code,
            message: format!("{} {}", body.message, body.recovery_hint)
                .trim()
                .to_owned(),
        });
        self.mapping
    }
}

impl Mapper<'_> {
    /// One input's mapping, and its failure (set in the mapping too).
    async fn map_one(&self, raw: &str) -> (Mapping, Option<ApiError>) {
        let input = raw.trim();
        let Some(form) = Form::detect(input) else {
            let mut b = Builder::new(raw, "unrecognised");
            b.missing("*", "not an identifier form this tool knows");
            let e = ApiError::unresolved(
                format!("'{raw}' is not an identifier lifesciences_map_ids recognises."),
                "Give a gene symbol, ENSG/ENST/ENSP, UniProt, HGNC:…, NCBI Gene, RefSeq, \
                 STRING (9606.ENSP…), CHEMBL…, InChIKey, PubChem CID (CID:2244), rsID or SPDI.",
                raw,
            );
            return (b.fail(&e), Some(e));
        };
        let mut b = Builder::new(raw, form.words());
        match self.map(&mut b, form, input).await {
            Ok(()) => (b.mapping, None),
            Err(e) => (b.fail(&e), Some(e)),
        }
    }
}

impl Gateway {
    /// Map identifiers across STRING, Ensembl, ChEMBL, the IGVF Catalog and UniProt,
    /// each equivalent with the tool that takes it next, using the databases' own
    /// mappings: a gene or protein (symbol, Ensembl, UniProt, HGNC, NCBI Gene, RefSeq,
    /// STRING) to all of these and its ChEMBL targets; a compound (CHEMBL, InChIKey, PubChem CID) to its
    /// ChEMBL ID, InChIKey, CID and targets' UniProt; a variant (rsID, SPDI) to rsID, SPDI, HGVS.
    /// Example: `{"ids": ["TP53", "CHEMBL25", "rs80357906"]}`.
    #[tool(
        title = "Map identifiers across databases",
        annotations(read_only_hint = true, idempotent_hint = true, open_world_hint = true)
    )]
    pub(crate) async fn lifesciences_map_ids(
        &self,
        Parameters(args): Parameters<MapIdsArgs>,
        context: RequestContext<RoleServer>,
    ) -> Result<Json<MapIdsResult>, ApiError> {
        let args = args?;
        if args.ids.is_empty() || args.ids.len() > MAX_IDS {
            return Err(ApiError::invalid_input(
                format!(
                    "'ids' holds {} identifiers; give 1 to {MAX_IDS}.",
                    args.ids.len()
                ),
                "Split longer lists over several calls.",
                args.ids.len().to_string(),
            ));
        }
        let species = args
            .species
            .as_deref()
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .unwrap_or("human")
            .to_owned();
        let mapper = Mapper {
            gateway: self,
            context: &context,
            species: &species,
        };
        let outcomes: Vec<(Mapping, Option<ApiError>)> =
            futures::future::join_all(args.ids.iter().map(|id| mapper.map_one(id))).await;
        // Nothing mapped and every input failed: the first failure is the answer (an
        // upstream outage is UPSTREAM_ERROR, not an empty success).
        if outcomes
            .iter()
            .all(|(m, e)| e.is_some() && m.equivalents.is_empty())
            && let Some(e) = outcomes.iter().find_map(|(_, e)| e.clone())
        {
            return Err(e);
        }
        let results: Vec<Mapping> = outcomes.into_iter().map(|(m, _)| m).collect();
        let mapped = results.iter().filter(|m| !m.equivalents.is_empty()).count();
        let failed = results.iter().filter(|m| m.error.is_some()).count();
        Ok(Json(MapIdsResult {
            results,
            mapped: u32::try_from(mapped).unwrap_or(u32::MAX),
            failed: u32::try_from(failed).unwrap_or(u32::MAX),
        }))
    }
}
