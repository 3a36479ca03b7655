//! `ensembl_get_transcript`: one transcript by stable ID, with its parent gene, whether
//! it is the gene's canonical transcript, coordinates and cross-references.
//!
//! Two upstream calls, made concurrently: `lookup/id/{id}` and
//! `xrefs/id/{id}?all_levels=1` (the transcript's and its translation's xrefs: RefSeq,
//! UniProt/Swiss-Prot).

use lifesciences_core::rmcp::schemars::{self, JsonSchema};
use lifesciences_core::rmcp::{Json, tool};
use lifesciences_core::{ApiError, CrossReferences, Parameters, XrefKey};
use serde::{Deserialize, Serialize};

use crate::ids;
use crate::models::{LookupObject, XrefEntry};
use crate::server::EnsemblServer;
use crate::tools::not_found;
use crate::xrefs::cross_references;

/// Arguments of `ensembl_get_transcript`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct GetTranscriptArgs {
    /// Ensembl transcript stable ID of any species: 'ENST00000269305' (human TP53-201),
    /// 'ENSMUST00000108658' (mouse). A version suffix ('ENST00000269305.9') and lower
    /// case are accepted. A gene's transcript to start from is its canonical_transcript
    /// in ensembl_get_gene.
    pub transcript_id: String,
}

/// An Ensembl transcript.
#[serde_with::skip_serializing_none]
#[derive(Debug, Serialize, JsonSchema)]
pub(crate) struct Transcript {
    /// Ensembl transcript stable ID, upper case and without version, e.g.
    /// 'ENST00000269305'.
    pub id: String,
    /// Transcript name, e.g. 'TP53-201'.
    #[serde(default)]
    pub symbol: Option<String>,
    /// Ensembl biotype, e.g. 'protein_coding', 'nonsense_mediated_decay'.
    #[serde(default)]
    pub biotype: Option<String>,
    /// Stable ID of the gene this transcript belongs to (pass it to ensembl_get_gene).
    #[serde(default)]
    pub parent_gene: Option<String>,
    /// Ensembl production name of the species, e.g. 'homo_sapiens'.
    #[serde(default)]
    pub species: Option<String>,
    /// Genome assembly of the coordinates, e.g. 'GRCh38'.
    #[serde(default)]
    pub assembly_name: Option<String>,
    /// Chromosome (or scaffold) name.
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
    /// Current version of the transcript's stable ID in Ensembl.
    #[serde(default)]
    pub version: Option<i64>,
    /// Whether this is the canonical transcript of its gene.
    #[serde(default)]
    pub is_canonical: Option<bool>,
    /// The transcript in other databases: ensembl_gene (its gene), refseq, uniprot (of
    /// its protein).
    pub cross_references: CrossReferences,
}

impl Transcript {
    /// The output for transcript `id` (already canonical) from its lookup and xrefs.
    pub(crate) fn from_upstream(id: String, transcript: LookupObject, xrefs: &[XrefEntry]) -> Self {
        let parent_gene = transcript.parent.as_deref().and_then(ids::canonical);
        let mut refs = cross_references(xrefs);
        if let Some(gene) = &parent_gene {
            refs.add(XrefKey::EnsemblGene, gene);
        }
        Self {
            id,
            symbol: transcript.display_name.filter(|s| !s.is_empty()),
            biotype: transcript.biotype,
            parent_gene,
            species: transcript.species,
            assembly_name: transcript.assembly_name,
            chromosome: transcript.seq_region_name,
            start: transcript.start,
            end: transcript.end,
            strand: transcript.strand,
            version: transcript.version,
            is_canonical: transcript.is_canonical,
            cross_references: refs,
        }
    }
}

impl EnsemblServer {
    /// Fetch one Ensembl transcript by its stable ID: name, biotype, parent gene, whether
    /// it is the gene's canonical transcript, species, assembly, coordinates and strand,
    /// and cross-references (RefSeq, the Ensembl gene, UniProt for uniprot_get_protein).
    /// Takes transcript IDs (ENST…); for a gene ID use ensembl_get_gene. Example:
    /// `{"transcript_id": "ENST00000269305"}` (human TP53-201).
    #[tool(
        title = "Get an Ensembl transcript",
        annotations(read_only_hint = true, idempotent_hint = true, open_world_hint = true)
    )]
    pub(crate) async fn ensembl_get_transcript(
        &self,
        Parameters(args): Parameters<GetTranscriptArgs>,
    ) -> Result<Json<Transcript>, ApiError> {
        let args = args?;
        let id = ids::transcript_id(&args.transcript_id)?;
        let (transcript, xrefs) = tokio::join!(self.ensembl.lookup(&id), self.ensembl.xrefs(&id));
        let Some(transcript) = transcript? else {
            return Err(not_found("transcript", &id, &args.transcript_id));
        };
        let xrefs = xrefs?.unwrap_or_default();
        Ok(Json(Transcript::from_upstream(id, transcript, &xrefs)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_recorded_non_canonical_transcript_maps_to_every_field() {
        // The recorded BRAF-204 look-up, 2018:
        // `tests/fixtures/lookup_id__ENST00000496384.json`.
        let t: LookupObject = serde_json::from_value(json!({
            "assembly_name": "GRCh38", "is_canonical": 0, "end": 140924810, "source": "havana",
            "start": 140719327, "object_type": "Transcript", "db_type": "core", "version": 7,
            "species": "homo_sapiens", "biotype": "protein_coding", "logic_name": "havana",
            "Parent": "ENSG00000157764", "seq_region_name": "7", "display_name": "BRAF-204",
            "id": "ENST00000496384", "strand": -1
        }))
        .unwrap();
        let out = Transcript::from_upstream("ENST00000496384".into(), t, &[]);
        assert_eq!(
            serde_json::to_value(out).unwrap(),
            json!({
                "id": "ENST00000496384", "symbol": "BRAF-204", "biotype": "protein_coding",
                "parent_gene": "ENSG00000157764", "species": "homo_sapiens",
                "assembly_name": "GRCh38", "chromosome": "7", "start": 140719327,
                "end": 140924810, "strand": -1, "version": 7, "is_canonical": false,
                "cross_references": {"ensembl_gene": "ENSG00000157764"}
            })
        );
    }
}
