//! `ensembl_get_gene`: one gene by stable ID, with coordinates, canonical transcript and
//! cross-references; or up to 1,000 genes in one call.
//!
//! One gene: two upstream calls, made concurrently: `lookup/id/{id}` (the gene) and
//! `xrefs/id/{id}?all_levels=1` (its cross-references, including the translation-level
//! UniProt/Swiss-Prot entries a gene's own xrefs lack). Several: one `POST lookup/id` for
//! all of them, and the cross-references of the first 50 (one request each, concurrent
//! within Ensembl's rate), so a list of 1,000 genes answers in seconds, not a minute.

use lifesciences_core::rmcp::schemars::{self, JsonSchema};
use lifesciences_core::rmcp::{Json, tool};
use lifesciences_core::{ApiError, CrossReferences, Parameters};
use serde::{Deserialize, Serialize};

use futures::future::join_all;

use crate::client::MAX_LOOKUP_BATCH;
use crate::ids;
use crate::models::{LookupObject, XrefEntry};
use crate::server::EnsemblServer;
use crate::tools::{gene_name, not_found};
use crate::xrefs::cross_references;

/// Arguments of `ensembl_get_gene`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct GetGeneArgs {
    /// Ensembl gene stable ID of any species: 'ENSG00000141510' (human TP53),
    /// 'ENSMUSG00000059552' (mouse). A version suffix ('ENSG00000141510.17') and lower
    /// case are accepted. Not a symbol: find the ID of 'TP53' with ensembl_search_genes
    /// first.
    #[serde(default)]
    pub ensembl_id: Option<String>,
    /// Instead of `ensembl_id`: 1–1000 gene IDs, answered as `genes` (cross-references
    /// for the first 50).
    #[serde(default, deserialize_with = "lifesciences_core::args::one_or_many")]
    #[schemars(with = "Vec<String>")]
    #[schemars(length(max = 1000))]
    pub ensembl_ids: Vec<String>,
}

/// Most genes of a batch given cross-references (one request each).
const MAX_BATCH_XREFS: usize = 50;

/// Several genes.
#[serde_with::skip_serializing_none]
#[derive(Debug, Serialize, JsonSchema)]
pub(crate) struct GeneBatch {
    /// The genes found, in the order asked.
    pub genes: Vec<Gene>,
    /// IDs Ensembl does not know.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub not_found: Vec<String>,
    /// What the result leaves out, and why.
    pub note: Option<String>,
}

/// One gene (for `ensembl_id`), or several (for `ensembl_ids`).
#[derive(Debug, Serialize, JsonSchema)]
#[serde(untagged)]
#[schemars(extend("type" = "object"))]
pub(crate) enum GeneAnswer {
    One(Box<Gene>),
    Many(GeneBatch),
}

/// An Ensembl gene.
#[serde_with::skip_serializing_none]
#[derive(Debug, Serialize, JsonSchema)]
pub(crate) struct Gene {
    /// Ensembl gene stable ID, upper case and without version, e.g. 'ENSG00000141510'.
    pub id: String,
    /// Gene symbol, e.g. 'TP53'.
    #[serde(default)]
    pub symbol: Option<String>,
    /// Gene name, e.g. 'tumor protein p53'.
    #[serde(default)]
    pub name: Option<String>,
    /// Ensembl biotype, e.g. 'protein_coding', 'lncRNA'.
    #[serde(default)]
    pub biotype: Option<String>,
    /// Ensembl production name of the species, e.g. 'homo_sapiens'.
    #[serde(default)]
    pub species: Option<String>,
    /// Genome assembly of the coordinates, e.g. 'GRCh38'.
    #[serde(default)]
    pub assembly_name: Option<String>,
    /// Chromosome (or scaffold) name, e.g. '17', 'X', 'MT'.
    #[serde(default)]
    pub chromosome: Option<String>,
    /// 1-based start position on the chromosome.
    #[serde(default)]
    pub start: Option<i64>,
    /// 1-based end position (inclusive).
    #[serde(default)]
    pub end: Option<i64>,
    /// 1 (forward) or -1 (reverse) strand.
    #[serde(default)]
    pub strand: Option<i64>,
    /// Stable ID of the canonical transcript, without version (pass it to
    /// ensembl_get_transcript).
    #[serde(default)]
    pub canonical_transcript: Option<String>,
    /// Current version of the gene's stable ID in Ensembl.
    #[serde(default)]
    pub version: Option<i64>,
    /// The gene in other databases: hgnc, entrez (NCBI Gene), uniprot, refseq, omim.
    pub cross_references: CrossReferences,
}

impl Gene {
    /// The output for gene `id` (already canonical) from its lookup and xrefs.
    pub(crate) fn from_upstream(id: String, gene: LookupObject, xrefs: &[XrefEntry]) -> Self {
        Self {
            id,
            symbol: gene.display_name.filter(|s| !s.is_empty()),
            name: gene_name(gene.description.as_deref()),
            biotype: gene.biotype,
            species: gene.species,
            assembly_name: gene.assembly_name,
            chromosome: gene.seq_region_name,
            start: gene.start,
            end: gene.end,
            strand: gene.strand,
            canonical_transcript: gene
                .canonical_transcript
                .as_deref()
                .and_then(ids::canonical),
            version: gene.version,
            cross_references: cross_references(xrefs),
        }
    }
}

impl EnsemblServer {
    /// Fetch one Ensembl gene by its stable ID: symbol, name, biotype, species, assembly,
    /// chromosome coordinates and strand, canonical transcript, and cross-references to
    /// HGNC, NCBI Gene (entrez), UniProt (for uniprot_get_protein), RefSeq and OMIM. Works
    /// for every Ensembl species. Takes IDs only: find a gene's ID from its symbol or name
    /// with ensembl_search_genes. Several genes: `ensembl_ids` (up to 1000). Example:
    /// `{"ensembl_id": "ENSG00000141510"}` (human TP53).
    #[tool(
        title = "Get an Ensembl gene",
        annotations(read_only_hint = true, idempotent_hint = true, open_world_hint = true)
    )]
    pub(crate) async fn ensembl_get_gene(
        &self,
        Parameters(args): Parameters<GetGeneArgs>,
    ) -> Result<Json<GeneAnswer>, ApiError> {
        let args = args?;
        let many: Vec<&String> = args
            .ensembl_ids
            .iter()
            .filter(|i| !i.trim().is_empty())
            .collect();
        match (&args.ensembl_id, many.is_empty()) {
            (Some(one), true) => {
                let id = ids::gene_id(one)?;
                let (gene, xrefs) = tokio::join!(self.ensembl.lookup(&id), self.ensembl.xrefs(&id));
                let Some(gene) = gene? else {
                    return Err(not_found("gene", &id, one));
                };
                let xrefs = xrefs?.unwrap_or_default();
                Ok(Json(GeneAnswer::One(Box::new(Gene::from_upstream(
                    id, gene, &xrefs,
                )))))
            }
            (None, false) => self.genes(&many).await.map(|b| Json(GeneAnswer::Many(b))),
            _ => Err(ApiError::invalid_input(
                "Pass either 'ensembl_id' (one gene) or 'ensembl_ids' (a list).",
                "E.g. {\"ensembl_id\": \"ENSG00000141510\"} or {\"ensembl_ids\": \
                 [\"ENSG00000141510\", \"ENSG00000012048\"]}.",
                "ensembl_id and ensembl_ids",
            )),
        }
    }
}

impl EnsemblServer {
    async fn genes(&self, raw: &[&String]) -> Result<GeneBatch, ApiError> {
        let mut wanted: Vec<String> = Vec::new();
        for r in raw {
            let id = ids::gene_id(r)?;
            if !wanted.contains(&id) {
                wanted.push(id);
            }
        }
        if wanted.len() > MAX_LOOKUP_BATCH {
            return Err(ApiError::invalid_input(
                format!(
                    "Argument 'ensembl_ids' holds {} genes; at most {MAX_LOOKUP_BATCH} are accepted.",
                    wanted.len()
                ),
                "Split the list: Ensembl looks up 1000 IDs per request.",
                format!("{} IDs", wanted.len()),
            ));
        }
        let mut found = self.ensembl.lookup_many(&wanted).await?;
        let known: Vec<&String> = wanted.iter().filter(|id| found.contains_key(*id)).collect();
        let xrefs = join_all(
            known
                .iter()
                .take(MAX_BATCH_XREFS)
                .map(|id| self.ensembl.xrefs(id)),
        )
        .await;
        let mut xrefs = xrefs.into_iter();
        let mut genes = Vec::new();
        let mut not_found = Vec::new();
        let mut xref_failures = 0;
        for id in &wanted {
            match found.remove(id) {
                Some(gene) => {
                    let entries = match xrefs.next() {
                        Some(Ok(x)) => x.unwrap_or_default(),
                        Some(Err(e)) => {
                            tracing::debug!(gene = %id, error = %e, "cross-references failed");
                            xref_failures += 1;
                            Vec::new()
                        }
                        None => Vec::new(),
                    };
                    genes.push(Gene::from_upstream(id.clone(), gene, &entries));
                }
                None => not_found.push(id.clone()),
            }
        }
        let mut notes = Vec::new();
        if known.len() > MAX_BATCH_XREFS {
            notes.push(format!(
                "Cross-references for the first {MAX_BATCH_XREFS} genes only (one request \
                 each); ask for the others in lists of {MAX_BATCH_XREFS}, or one by one."
            ));
        }
        if xref_failures > 0 {
            notes.push(format!(
                "The cross-references of {xref_failures} genes could not be read and are left \
                 empty; ask for those genes again."
            ));
        }
        let note = (!notes.is_empty()).then(|| notes.join(" "));
        Ok(GeneBatch {
            genes,
            not_found,
            note,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_recorded_kras_gene_maps_to_every_field() {
        // The recorded KRAS gene (2022, `tests/fixtures/lookup_id__ENSG00000133703.json`),
        // but with `id` spelt as a caller might: the tools do not read it.
        let gene: LookupObject = serde_json::from_value(json!({
            "assembly_name": "GRCh38", "biotype": "protein_coding",
            "canonical_transcript": "ENST00000311936.8", "db_type": "core",
            "description": "KRAS proto-oncogene, GTPase [Source:HGNC Symbol;Acc:HGNC:6407]",
            "display_name": "KRAS", "end": 25250936, "id": "ensg00000133703.14",
            "logic_name": "ensembl_havana_gene_homo_sapiens", "object_type": "Gene",
            "seq_region_name": "12", "source": "ensembl_havana", "species": "homo_sapiens",
            "start": 25205246, "strand": -1, "version": 14
        }))
        .unwrap();
        let xrefs: Vec<XrefEntry> = serde_json::from_value(json!([
            {"dbname": "HGNC", "primary_id": "HGNC:6407"},
            {"dbname": "EntrezGene", "primary_id": "3845"}
        ]))
        .unwrap();
        let out = Gene::from_upstream("ENSG00000133703".into(), gene, &xrefs);
        assert_eq!(
            serde_json::to_value(out).unwrap(),
            json!({
                "id": "ENSG00000133703", "symbol": "KRAS", "name": "KRAS proto-oncogene, GTPase",
                "biotype": "protein_coding", "species": "homo_sapiens", "assembly_name": "GRCh38",
                "chromosome": "12", "start": 25205246, "end": 25250936, "strand": -1,
                "canonical_transcript": "ENST00000311936", "version": 14,
                "cross_references": {"hgnc": "HGNC:6407", "entrez": "3845"}
            })
        );
    }

    #[test]
    fn fields_missing_upstream_are_omitted_not_null() {
        // LINC01679 as recorded before release 105, so without canonical_transcript
        // (https://gist.github.com/hisplan/1792b65a61ce24890964b01f3499e920); its
        // description is left out here to show an absent name.
        let gene: LookupObject = serde_json::from_value(json!({
            "strand": -1, "version": 1, "seq_region_name": "21", "object_type": "Gene",
            "end": 43362349, "id": "ENSG00000237989", "species": "homo_sapiens",
            "start": 43358147, "biotype": "lncRNA", "assembly_name": "GRCh38",
            "display_name": "LINC01679"
        }))
        .unwrap();
        let out =
            serde_json::to_value(Gene::from_upstream("ENSG00000237989".into(), gene, &[])).unwrap();
        assert!(out.get("canonical_transcript").is_none());
        assert!(out.get("name").is_none());
        assert_eq!(out["cross_references"], json!({}));
    }
}
