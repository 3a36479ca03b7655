//! `ensembl_get_gene`: one gene by stable ID, with coordinates, canonical transcript and
//! cross-references.
//!
//! Two upstream calls, made concurrently: `lookup/id/{id}` (the gene) and
//! `xrefs/id/{id}?all_levels=1` (its cross-references, including the translation-level
//! UniProt/Swiss-Prot entries a gene's own xrefs lack).

use lifesciences_core::rmcp::schemars::{self, JsonSchema};
use lifesciences_core::rmcp::{Json, tool, tool_router};
use lifesciences_core::{ApiError, CrossReferences, Parameters};
use serde::{Deserialize, Serialize};

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
    pub ensembl_id: String,
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

#[tool_router(router = get_gene_router, vis = "pub(crate)")]
impl EnsemblServer {
    /// Fetch one Ensembl gene by its stable ID: symbol, name, biotype, species, assembly,
    /// chromosome coordinates and strand, canonical transcript, and cross-references to
    /// HGNC, NCBI Gene (entrez), UniProt, RefSeq and OMIM. Works for every Ensembl
    /// species. Takes IDs only: find a gene's ID from its symbol or name with
    /// ensembl_search_genes. Example: `{"ensembl_id": "ENSG00000141510"}` (human TP53).
    #[tool(
        title = "Get an Ensembl gene",
        annotations(read_only_hint = true, idempotent_hint = true, open_world_hint = true)
    )]
    pub(crate) async fn ensembl_get_gene(
        &self,
        Parameters(args): Parameters<GetGeneArgs>,
    ) -> Result<Json<Gene>, ApiError> {
        let args = args?;
        let id = ids::gene_id(&args.ensembl_id)?;
        let (gene, xrefs) = tokio::join!(self.ensembl.lookup(&id), self.ensembl.xrefs(&id));
        let Some(gene) = gene? else {
            return Err(not_found("gene", &id, &args.ensembl_id));
        };
        let xrefs = xrefs?.unwrap_or_default();
        Ok(Json(Gene::from_upstream(id, gene, &xrefs)))
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
