//! An entry's cross-references as this server returns them: the keyed
//! `cross_references` of the workspace's registry (Ensembl IDs without their versions,
//! which UniProt sends versioned, `ENSG00000105612.10`), Reactome pathways with their
//! names, and PDB structures with method and resolution.

use std::collections::BTreeMap;

use lifesciences_core::schemars::{self, JsonSchema};
use lifesciences_core::{CrossReferences, XrefKey};
use serde::Serialize;

use crate::models::{CrossReference, Entry};

/// `ENSG00000105612.10` → `ENSG00000105612`: the registry's Ensembl keys hold stable IDs
/// without versions, as the Ensembl tools take them.
pub(crate) fn unversioned(id: &str) -> &str {
    match id.rsplit_once('.') {
        Some((stable, version))
            if stable.starts_with("ENS")
                && !version.is_empty()
                && version.bytes().all(|b| b.is_ascii_digit()) =>
        {
            stable
        }
        _ => id,
    }
}

/// A Reactome pathway the protein takes part in.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub(crate) struct Pathway {
    /// Reactome's stable ID, e.g. `R-HSA-417973`.
    pub id: String,
    /// E.g. `Adenosine P1 receptors`.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub name: String,
}

/// A solved structure of the protein in the PDB.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Structure {
    /// PDB ID, e.g. `5N2S`.
    pub pdb: String,
    /// `X-ray`, `EM`, `NMR`…
    pub method: Option<String>,
    /// Resolution in ångström, e.g. 3.3.
    pub resolution: Option<f64>,
    /// Chains and the residues of this protein they cover, e.g. `A=4-316`.
    pub chains: Option<String>,
}

impl Structure {
    /// `5UEN: X-ray, 3.2 Å, A/B=2-211, A/B=228-311`.
    pub(crate) fn shown(&self) -> String {
        let resolution = self.resolution.map(|r| format!("{r} Å"));
        let parts: Vec<String> = [self.method.clone(), resolution, self.chains.clone()]
            .into_iter()
            .flatten()
            .collect();
        if parts.is_empty() {
            self.pdb.clone()
        } else {
            format!("{}: {}", self.pdb, parts.join(", "))
        }
    }
}

/// The entry's PDB structures, best resolution first (those without one last, in
/// UniProt's order).
pub(crate) fn structures(entry: &Entry) -> Vec<Structure> {
    let mut all: Vec<Structure> = entry
        .xrefs("PDB")
        .map(|x| Structure {
            pdb: x.id.to_ascii_uppercase(),
            method: x.property("Method").map(str::to_owned),
            resolution: x.property("Resolution").and_then(angstrom),
            chains: x.property("Chains").map(str::to_owned),
        })
        .collect();
    all.sort_by(|a, b| {
        let key = |s: &Structure| s.resolution.unwrap_or(f64::INFINITY);
        key(a).total_cmp(&key(b))
    });
    all
}

/// `"3.30 A"` → 3.3.
fn angstrom(text: &str) -> Option<f64> {
    let number = text.trim().trim_end_matches(['A', 'Å']).trim();
    number
        .parse::<f64>()
        .ok()
        .filter(|r| r.is_finite() && *r > 0.0)
}

/// The entry's Reactome pathways, in UniProt's order.
pub(crate) fn pathways(entry: &Entry) -> Vec<Pathway> {
    entry
        .xrefs("Reactome")
        .map(|x| Pathway {
            id: x.id.clone(),
            name: x.property("PathwayName").unwrap_or_default().to_owned(),
        })
        .collect()
}

/// The isoform UniProt displays as the canonical sequence (`P30542-1`), when the entry
/// describes isoforms.
pub(crate) fn canonical_isoform(entry: &Entry) -> Option<&str> {
    entry
        .comments_of("ALTERNATIVE PRODUCTS")
        .flat_map(|c| &c.isoforms)
        .find(|i| i.isoform_sequence_status.as_deref() == Some("Displayed"))
        .and_then(|i| i.isoform_ids.first())
        .map(String::as_str)
}

/// The entry's keyed cross-references, each list cut to its first `list_max` values, and
/// the full count of each list that was cut. Ensembl: the gene, every transcript (the
/// MANE Select one first) and one protein (MANE Select's, else the canonical isoform's);
/// RefSeq protein IDs (MANE Select's first); OMIM's gene number (not the phenotypes', which
/// name diseases); PDB IDs best resolution first; AlphaFold DB's entry (the accession).
pub(crate) fn cross_references(
    entry: &Entry,
    list_max: usize,
) -> (CrossReferences, BTreeMap<String, u32>) {
    let mut full = CrossReferences::new();
    let mane = entry.xrefs("MANE-Select").next();
    let canonical = canonical_isoform(entry);
    let first = |db: &str| entry.xrefs(db).next().map(|x| x.id.clone());
    if let Some(id) = first("HGNC") {
        full.add(XrefKey::Hgnc, id);
    }
    let ensembl: Vec<&CrossReference> = entry.xrefs("Ensembl").collect();
    if let Some(gene) = ensembl.iter().find_map(|x| x.property("GeneId")) {
        full.add(XrefKey::EnsemblGene, unversioned(gene));
    }
    if let Some(m) = mane {
        full.add(XrefKey::EnsemblTranscript, unversioned(&m.id));
    }
    for x in &ensembl {
        full.add(XrefKey::EnsemblTranscript, unversioned(&x.id));
    }
    let of_canonical = ensembl
        .iter()
        .find(|x| x.isoform_id.is_none() || x.isoform_id.as_deref() == canonical);
    let protein = mane
        .and_then(|m| m.property("ProteinId"))
        .or_else(|| of_canonical.and_then(|x| x.property("ProteinId")))
        .or_else(|| ensembl.iter().find_map(|x| x.property("ProteinId")));
    if let Some(p) = protein {
        full.add(XrefKey::EnsemblProtein, unversioned(p));
    }
    if let Some(id) = first("GeneID") {
        full.add(XrefKey::Entrez, id);
    }
    if let Some(np) = mane.and_then(|m| m.property("RefSeqProteinId")) {
        full.add(XrefKey::Refseq, np);
    }
    for x in entry.xrefs("RefSeq") {
        full.add(XrefKey::Refseq, &x.id);
    }
    for (db, key) in [
        ("ChEMBL", XrefKey::Chembl),
        ("STRING", XrefKey::String),
        ("BioGRID", XrefKey::Biogrid),
        ("GuidetoPHARMACOLOGY", XrefKey::Iuphar),
        ("KEGG", XrefKey::Kegg),
    ] {
        if let Some(id) = first(db) {
            full.add(key, id);
        }
    }
    if let Some(gene) = entry
        .xrefs("MIM")
        .find(|x| x.property("Type") == Some("gene"))
    {
        full.add(XrefKey::Omim, &gene.id);
    }
    for s in structures(entry) {
        full.add(XrefKey::Pdb, s.pdb);
    }
    if let Some(model) = first("AlphaFoldDB") {
        full.add(XrefKey::Alphafold, model);
    }
    cap(&full, list_max)
}

/// `full` with every list cut to its first `max` values, and the full count of each list
/// that was cut.
fn cap(full: &CrossReferences, max: usize) -> (CrossReferences, BTreeMap<String, u32>) {
    let mut kept = CrossReferences::new();
    let mut counts = BTreeMap::new();
    for key in XrefKey::all() {
        let values = full.get(key);
        if values.len() > max {
            counts.insert(
                key.name().to_owned(),
                u32::try_from(values.len()).unwrap_or(u32::MAX),
            );
        }
        kept.extend(key, values.iter().take(max));
    }
    (kept, counts)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::models::tests::entry;

    #[test]
    fn ensembl_ids_lose_their_versions_and_only_theirs() {
        assert_eq!(unversioned("ENSG00000105612.10"), "ENSG00000105612");
        assert_eq!(unversioned("ENSP00000222219.2"), "ENSP00000222219");
        assert_eq!(unversioned("ENSG00000163485"), "ENSG00000163485");
        assert_eq!(unversioned("NP_001366.1"), "NP_001366.1");
        assert_eq!(unversioned("ENST1.x"), "ENST1.x");
    }

    #[test]
    fn o00115_s_keys_are_unversioned_and_mane_first() {
        let (refs, counts) = cross_references(&entry("uniprotkb__O00115.json"), 10);
        let json = serde_json::to_value(&refs).unwrap();
        assert_eq!(
            json,
            serde_json::json!({
                "hgnc": "HGNC:2960",
                "ensembl_gene": "ENSG00000105612",
                "ensembl_transcript": ["ENST00000222219", "ENST00000592506"],
                "ensembl_protein": "ENSP00000222219",
                "entrez": "1777",
                "refseq": ["NP_001366.1"],
                "chembl": "CHEMBL1250342",
                "string": "9606.ENSP00000222219",
                "biogrid": "108116",
                "kegg": "hsa:1777",
                "omim": "126350",
                "alphafold": "O00115"
            })
        );
        assert!(counts.is_empty());
    }

    #[test]
    fn p30542_s_protein_is_mane_s_and_its_pdb_ids_best_resolution_first() {
        let e = entry("uniprotkb__P30542.json");
        let (refs, counts) = cross_references(&e, 3);
        // MANE Select is ENST00000337894 (ENSP00000338435), not the first Ensembl row.
        assert_eq!(refs.first(XrefKey::EnsemblProtein), Some("ENSP00000338435"));
        assert_eq!(refs.get(XrefKey::EnsemblTranscript)[0], "ENST00000337894");
        assert_eq!(refs.first(XrefKey::Iuphar), Some("18"));
        assert_eq!(refs.get(XrefKey::Pdb), ["5UEN", "7LD3", "5N2S"]);
        assert_eq!(counts["pdb"], 5);
        assert_eq!(counts["ensembl_transcript"], 5);

        let s = structures(&e);
        assert_eq!(s[0].pdb, "5UEN");
        assert_eq!(s[0].resolution, Some(3.2));
        assert_eq!(s[0].chains.as_deref(), Some("A/B=2-211, A/B=228-311"));
        assert_eq!(s.last().unwrap().resolution, Some(3.6));

        assert_eq!(
            pathways(&e),
            [
                Pathway {
                    id: "R-HSA-417973".into(),
                    name: "Adenosine P1 receptors".into()
                },
                Pathway {
                    id: "R-HSA-418594".into(),
                    name: "G alpha (i) signalling events".into()
                }
            ]
        );
        assert_eq!(canonical_isoform(&e), Some("P30542-1"));
    }
}
