//! `Compound`, the record the lookup tools return, and how it is built from ChEMBL's
//! molecule, its mechanisms' targets and UniChem (the enrichment shared by
//! `chembl_get_compound` and `chembl_get_compounds_batch`).

use std::collections::{BTreeMap, HashMap};

use futures::StreamExt as _;
use lifesciences_core::rmcp::schemars::{self, JsonSchema};
use lifesciences_core::{ApiError, CrossReferences, XrefKey};
use serde::Serialize;

use crate::client::{ChemblClient, UniChemClient, UniChemLinks};
use crate::ids::ChemblId;
use crate::models::{Mechanism, Molecule, OfDrug, UniChemSource};
use crate::progress::Progress;

/// A ChEMBL compound. Slim records carry only `id`, `name` and `molecular_formula`.
/// Fields ChEMBL has no value for are omitted: biologics and other structureless
/// molecules (`structure_type` `SEQ` or `NONE`) have no SMILES, InChI or key.
#[serde_with::skip_serializing_none]
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub(crate) struct Compound {
    /// The compound's CURIE, e.g. `CHEMBL:25`: what `chembl_get_compound` accepts.
    pub id: String,
    /// ChEMBL's preferred name, e.g. `ASPIRIN`. When ChEMBL has none: the official name
    /// (INN, else USAN, BAN, JAN, USP), else the first synonym.
    pub name: Option<String>,
    /// Molecular formula of the full molecule, e.g. `C9H8O4`.
    pub molecular_formula: Option<String>,
    /// Molecular weight of the full molecule in g/mol, e.g. 180.16.
    pub molecular_weight: Option<f64>,
    /// Canonical SMILES.
    pub smiles: Option<String>,
    /// Standard InChI.
    pub inchi: Option<String>,
    /// Standard InChIKey, e.g. `BSYNRYMUTXBXSQ-UHFFFAOYSA-N`.
    pub inchi_key: Option<String>,
    /// The nonproprietary name: the INN when ChEMBL lists one, else USAN, BAN, JAN or USP
    /// (e.g. `Acetylsalicylic Acid` for aspirin).
    pub canonical_name: Option<String>,
    /// Other names (trade names, research codes, INN…), without duplicates, in ChEMBL's
    /// order: the first 25 (`synonym_count` then gives how many there are).
    pub synonyms: Option<Vec<String>>,
    /// How many synonyms ChEMBL lists; present only when `synonyms` shows the first 25.
    pub synonym_count: Option<u32>,
    /// Highest development phase across indications: 4 approved, 3, 2, 1 clinical
    /// phases, 0.5 early phase 1, 0 preclinical, -1 clinical phase unknown.
    pub max_phase: Option<serde_json::Number>,
    /// E.g. `Small molecule`, `Antibody`, `Protein`, `Oligonucleotide`.
    pub molecule_type: Option<String>,
    /// `MOL` (has a structure), `SEQ` (biologic, defined by sequence) or `NONE`.
    pub structure_type: Option<String>,
    /// For salts and other forms: the parent compound's CURIE.
    pub parent_id: Option<String>,
    /// Year of first approval.
    pub first_approval: Option<u32>,
    /// Computed properties (ChEMBL's, of the molecule as recorded).
    pub properties: Option<Properties>,
    /// ATC level-5 codes, sorted, e.g. `B01AC06`.
    pub atc_codes: Option<Vec<String>>,
    /// The same compound elsewhere: `chembl`; `pubchem_substance` (PubChem SIDs, from
    /// ChEMBL); `uniprot` (targets of the mechanisms of action of its parent and every
    /// salt and other form of it); `drugbank`, `pdb`
    /// (ligand code), `kegg`, `iuphar` and `pubchem_compound` (CID), from UniChem (for a
    /// salt UniChem has nothing on, those of its parent), omitted when UniChem is
    /// unavailable. Lists hold at most 25 values (see `cross_reference_counts`).
    pub cross_references: Option<CrossReferences>,
    /// The full number of values of each `cross_references` list cut to its first 25,
    /// e.g. `{"uniprot": 57}`; omitted when no list was cut.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub cross_reference_counts: BTreeMap<String, u32>,
}

/// ChEMBL's computed properties of a compound.
#[serde_with::skip_serializing_none]
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub(crate) struct Properties {
    /// Calculated logP (ALogP).
    pub alogp: Option<f64>,
    /// Polar surface area, Å².
    pub psa: Option<f64>,
    /// Hydrogen-bond donors.
    pub hbd: Option<u32>,
    /// Hydrogen-bond acceptors.
    pub hba: Option<u32>,
    pub rotatable_bonds: Option<u32>,
    pub aromatic_rings: Option<u32>,
    /// Rule-of-five violations.
    pub ro5_violations: Option<u32>,
    /// Quantitative estimate of drug-likeness, 0–1.
    pub qed: Option<f64>,
    /// Molecular weight of the parent (salt stripped), g/mol.
    pub mw_freebase: Option<f64>,
    /// Monoisotopic mass, g/mol.
    pub mw_monoisotopic: Option<f64>,
}

/// Most synonyms, and most values of one cross-reference list, in a record.
pub(crate) const LIST_MAX: usize = 25;

/// Synonym types that name a compound officially, most authoritative first.
const OFFICIAL_NAME_TYPES: [&str; 5] = ["INN", "USAN", "BAN", "JAN", "USP"];

/// UniChem source numbers and the cross-reference key each fills (docs/sources/chembl.md).
const UNICHEM_KEYS: [(u32, &str, XrefKey); 5] = [
    (2, "drugbank", XrefKey::Drugbank),
    (3, "pdb", XrefKey::Pdb),
    (4, "gtopdb", XrefKey::Iuphar),
    (6, "kegg_ligand", XrefKey::Kegg),
    (22, "pubchem", XrefKey::PubchemCompound),
];

/// A max phase as a JSON number: whole phases as integers (`4`, not `4.0`).
pub(crate) fn phase(value: f64) -> Option<serde_json::Number> {
    if value.fract() == 0.0 && value.abs() < 1e9 {
        Some(serde_json::Number::from(value as i64))
    } else {
        serde_json::Number::from_f64(value)
    }
}

fn non_empty(s: Option<&str>) -> Option<String> {
    s.map(str::trim)
        .filter(|s| !s.is_empty())
        .map(str::to_owned)
}

impl Compound {
    /// `{id, name, molecular_formula}`.
    pub(crate) fn slim(m: &Molecule) -> Self {
        Self {
            id: ChemblId::curie_of_upstream(&m.molecule_chembl_id),
            name: non_empty(m.pref_name.as_deref())
                .or_else(|| official_name(m))
                .or_else(|| first_synonym(m)),
            molecular_formula: m.formula().map(str::to_owned),
            molecular_weight: None,
            smiles: None,
            inchi: None,
            inchi_key: None,
            canonical_name: None,
            synonyms: None,
            synonym_count: None,
            max_phase: None,
            molecule_type: None,
            structure_type: None,
            parent_id: None,
            first_approval: None,
            properties: None,
            atc_codes: None,
            cross_references: None,
            cross_reference_counts: BTreeMap::new(),
        }
    }

    /// Every field, with cross-references from ChEMBL, the targets' UniProt accessions
    /// and (when it answered) UniChem.
    pub(crate) fn full(m: &Molecule, extras: &Extras) -> Self {
        let structures = m.molecule_structures.as_ref();
        let mut synonyms: Vec<String> = Vec::new();
        for text in m.molecule_synonyms.iter().filter_map(|s| s.text()) {
            if !synonyms.iter().any(|s| s.eq_ignore_ascii_case(text)) {
                synonyms.push(text.to_owned());
            }
        }
        let synonym_count =
            (synonyms.len() > LIST_MAX).then(|| u32::try_from(synonyms.len()).unwrap_or(u32::MAX));
        synonyms.truncate(LIST_MAX);
        let (cross_references, cross_reference_counts) = capped(&cross_references(m, extras));
        let parent = m.parent_chembl_id();
        Self {
            molecular_weight: m.molecule_properties.as_ref().and_then(|p| p.full_mwt),
            smiles: non_empty(structures.and_then(|s| s.canonical_smiles.as_deref())),
            inchi: non_empty(structures.and_then(|s| s.standard_inchi.as_deref())),
            inchi_key: non_empty(structures.and_then(|s| s.standard_inchi_key.as_deref())),
            canonical_name: official_name(m),
            synonyms: (!synonyms.is_empty()).then_some(synonyms),
            synonym_count,
            max_phase: m.max_phase.and_then(phase),
            molecule_type: non_empty(m.molecule_type.as_deref()),
            structure_type: non_empty(m.structure_type.as_deref()),
            parent_id: (!parent.eq_ignore_ascii_case(&m.molecule_chembl_id))
                .then(|| ChemblId::curie_of_upstream(parent)),
            first_approval: m.first_approval,
            properties: m.molecule_properties.as_ref().map(|p| Properties {
                alogp: p.alogp,
                psa: p.psa,
                hbd: p.hbd,
                hba: p.hba,
                rotatable_bonds: p.rtb,
                aromatic_rings: p.aromatic_rings,
                ro5_violations: p.num_ro5_violations,
                qed: p.qed_weighted,
                mw_freebase: p.mw_freebase,
                mw_monoisotopic: p.mw_monoisotopic,
            }),
            atc_codes: {
                let mut codes: Vec<String> = m
                    .atc_classifications
                    .iter()
                    .map(|c| c.trim().to_owned())
                    .filter(|c| !c.is_empty())
                    .collect();
                codes.sort();
                codes.dedup();
                (!codes.is_empty()).then_some(codes)
            },
            cross_references: Some(cross_references),
            cross_reference_counts,
            ..Self::slim(m)
        }
    }
}

fn first_synonym(m: &Molecule) -> Option<String> {
    m.molecule_synonyms
        .iter()
        .find_map(|s| s.text())
        .map(str::to_owned)
}

fn official_name(m: &Molecule) -> Option<String> {
    OFFICIAL_NAME_TYPES.iter().find_map(|wanted| {
        m.molecule_synonyms
            .iter()
            .filter(|s| s.syn_type.as_deref() == Some(*wanted))
            .find_map(|s| s.text())
            .map(str::to_owned)
    })
}

fn cross_references(m: &Molecule, extras: &Extras) -> CrossReferences {
    let mut xrefs = CrossReferences::new();
    xrefs.add(XrefKey::Chembl, &m.molecule_chembl_id);
    // ChEMBL's own PubChem links are substance IDs ("SID: 144203627"), never CIDs
    // (recorded, 2023 or earlier, `tests/fixtures/molecule__CHEMBL25.json`).
    for xref in &m.cross_references {
        if xref.xref_src.as_deref() == Some("PubChem")
            && let Some(id) = &xref.xref_id
        {
            xrefs.add(XrefKey::PubchemSubstance, id);
        }
    }
    xrefs.extend(XrefKey::Uniprot, &extras.uniprot);
    for source in &extras.unichem {
        if let (Some(key), Some(value)) = (unichem_key(source), &source.compound_id) {
            xrefs.add(key, value);
        }
    }
    xrefs
}

/// The cross-reference key a UniChem source record fills, if any.
fn unichem_key(source: &UniChemSource) -> Option<XrefKey> {
    UNICHEM_KEYS
        .iter()
        .find(|(id, short, _)| match source.id {
            Some(n) => n == *id,
            None => source.short_name.as_deref() == Some(*short),
        })
        .map(|(_, _, key)| *key)
}

/// `full` with every list cut to its first [`LIST_MAX`] values, and the full count of
/// each list that was cut.
pub(crate) fn capped(full: &CrossReferences) -> (CrossReferences, BTreeMap<String, u32>) {
    let mut kept = CrossReferences::new();
    let mut counts = BTreeMap::new();
    for key in XrefKey::all() {
        let values = full.get(key);
        if values.len() > LIST_MAX {
            counts.insert(
                key.name().to_owned(),
                u32::try_from(values.len()).unwrap_or(u32::MAX),
            );
        }
        kept.extend(key, values.iter().take(LIST_MAX));
    }
    (kept, counts)
}

/// What a full record adds to the molecule: its targets' accessions and UniChem's links.
#[derive(Debug, Clone, Default)]
pub(crate) struct Extras {
    /// UniProt accessions of the targets of the mechanisms filed under the compound's
    /// parent or any form of it.
    pub uniprot: Vec<String>,
    /// UniChem's source records (its parent's for a salt UniChem has nothing on; empty
    /// when UniChem failed or is paused).
    pub unichem: Vec<UniChemSource>,
}

/// Fetch the extras of full records: the mechanisms of every drug, by parent, in one
/// request (each filed under the parent or one of its salts), their targets in one
/// request, and UniChem per compound (it has no batch form), all at once. UniChem is
/// optional: a failure leaves the record without its keys, and an outage pauses UniChem
/// server-wide (see `UniChemClient::sources_of`), so compounds not yet looked up skip
/// it. ChEMBL failures fail the call. `progress` advances by one per compound finished.
pub(crate) async fn fetch_extras(
    chembl: &ChemblClient,
    unichem: &UniChemClient,
    molecules: &[&Molecule],
    progress: &Progress,
) -> Result<HashMap<String, Extras>, ApiError> {
    let accessions = async {
        let mut parents: Vec<String> = Vec::new();
        for m in molecules {
            let parent = m.parent_chembl_id().to_ascii_uppercase();
            if !parents.contains(&parent) {
                parents.push(parent);
            }
        }
        uniprot_by_parent(chembl, &parents).await
    };
    // No more UniChem lookups in flight than UniChem's own concurrency cap: a lookup that
    // has not started yet can still see that UniChem is paused and skip it.
    let width = unichem.max_concurrent().max(1);
    let links = async {
        // Owned futures in a Vec: a lazily mapped iterator here trips the compiler's
        // `Send` inference for the tool future.
        let lookups: Vec<_> = molecules
            .iter()
            .map(|m| {
                let id = m.molecule_chembl_id.to_ascii_uppercase();
                let parent = m.parent_chembl_id().to_ascii_uppercase();
                async move {
                    let sources = unichem_sources(unichem, &id, &parent).await;
                    (id, sources)
                }
            })
            .collect();
        let mut pending = futures::stream::iter(lookups).buffer_unordered(width);
        let mut out = HashMap::new();
        while let Some((id, sources)) = pending.next().await {
            out.insert(id, sources);
            progress.advance(1).await;
        }
        out
    };
    let (accessions, mut links) = futures::join!(accessions, links);
    let accessions = accessions?;
    Ok(molecules
        .iter()
        .map(|m| {
            let id = m.molecule_chembl_id.to_ascii_uppercase();
            let parent = m.parent_chembl_id().to_ascii_uppercase();
            let extras = Extras {
                uniprot: accessions.get(&parent).cloned().unwrap_or_default(),
                unichem: links.remove(&id).unwrap_or_default(),
            };
            (id, extras)
        })
        .collect())
}

/// One compound's molecule and extras, for `chembl_get_compound`. Mechanisms are asked
/// by parent (`parent_molecule_chembl_id`), which covers the parent and all its salts in
/// one request. The ID asked for is taken to be a parent (most look-ups are), so its
/// mechanisms and UniChem records are asked alongside the molecule: a parent costs two
/// round trips (molecule, mechanisms and UniChem at once, then the targets). A salt or
/// other form costs one request more: its parent's mechanisms, asked once the molecule
/// names the parent (the answer sent alongside is then empty: no molecule has a salt
/// as its parent). `None`: ChEMBL has no such molecule (the answers sent alongside are
/// then ignored).
pub(crate) async fn fetch_one(
    chembl: &ChemblClient,
    unichem: &UniChemClient,
    id: &ChemblId,
) -> Result<Option<(Molecule, Extras)>, ApiError> {
    let own = id.upstream().to_ascii_uppercase();
    // A missing or failed molecule ends the call at once: the requests sent alongside
    // are dropped with their retries (`Err(None)`: no such molecule).
    let molecule = async {
        match chembl.molecule(id).await {
            Ok(Some(molecule)) => Ok(molecule),
            Ok(None) => Err(None),
            Err(e) => Err(Some(e)),
        }
    };
    let alongside = async {
        Ok(futures::join!(
            chembl.mechanisms_of(std::slice::from_ref(&own)),
            unichem.sources_of(&own),
        ))
    };
    let (molecule, (own_mechanisms, own_links)) = match futures::try_join!(molecule, alongside) {
        Ok(both) => both,
        Err(None) => return Ok(None),
        Err(Some(e)) => return Err(e),
    };
    let parent = molecule.parent_chembl_id().to_ascii_uppercase();
    let mut mechanisms = own_mechanisms?;
    let accessions = async {
        if parent != own {
            mechanisms.extend(chembl.mechanisms_of(std::slice::from_ref(&parent)).await?);
        }
        accessions_of_mechanisms(chembl, &mechanisms).await
    };
    let links = unichem_fallback(unichem, own_links, &own, &parent);
    let (accessions, unichem) = futures::join!(accessions, links);
    let mut accessions = accessions?;
    let mut uniprot = accessions.remove(&parent).unwrap_or_default();
    // Anything the request sent alongside found for the ID itself, after the parent's.
    for a in accessions.remove(&own).into_iter().flatten() {
        if !uniprot.contains(&a) {
            uniprot.push(a);
        }
    }
    let extras = Extras { uniprot, unichem };
    Ok(Some((molecule, extras)))
}

/// UniProt accessions per parent: mechanisms of every form → targets → components,
/// skipping components without an accession (RNA and other non-proteins).
async fn uniprot_by_parent(
    chembl: &ChemblClient,
    parents: &[String],
) -> Result<HashMap<String, Vec<String>>, ApiError> {
    if parents.is_empty() {
        return Ok(HashMap::new());
    }
    let mechanisms = chembl.mechanisms_of(parents).await?;
    accessions_of_mechanisms(chembl, &mechanisms).await
}

/// UniProt accessions per parent (the drug each mechanism belongs to, whichever form it
/// is filed under): their targets (one request) → components.
async fn accessions_of_mechanisms(
    chembl: &ChemblClient,
    mechanisms: &[Mechanism],
) -> Result<HashMap<String, Vec<String>>, ApiError> {
    let mut targets_of: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut all_targets: Vec<String> = Vec::new();
    for mechanism in mechanisms {
        let (Some(drug), Some(target)) = (mechanism.family(), &mechanism.target_chembl_id) else {
            continue;
        };
        let target = target.to_ascii_uppercase();
        let list = targets_of.entry(drug.to_ascii_uppercase()).or_default();
        if !list.contains(&target) {
            list.push(target.clone());
        }
        if !all_targets.contains(&target) {
            all_targets.push(target);
        }
    }
    if all_targets.is_empty() {
        return Ok(HashMap::new());
    }
    let targets = chembl.targets(&all_targets).await?;
    let mut accessions_of: HashMap<String, Vec<String>> = HashMap::new();
    for target in &targets {
        let Some(id) = &target.target_chembl_id else {
            continue;
        };
        let accessions = target
            .target_components
            .iter()
            .filter_map(|c| c.accession.as_deref())
            .map(str::trim)
            .filter(|a| !a.is_empty())
            .map(str::to_owned);
        accessions_of
            .entry(id.to_ascii_uppercase())
            .or_default()
            .extend(accessions);
    }
    Ok(targets_of
        .into_iter()
        .map(|(drug, targets)| {
            let accessions = targets
                .iter()
                .filter_map(|t| accessions_of.get(t))
                .flatten()
                .cloned()
                .collect();
            (drug, accessions)
        })
        .collect())
}

/// UniChem's records of `id`; for a salt or other form UniChem has nothing on (no record
/// that fills a key), its parent's. Empty when UniChem is unavailable (the client logs).
async fn unichem_sources(unichem: &UniChemClient, id: &str, parent: &str) -> Vec<UniChemSource> {
    unichem_fallback(unichem, unichem.sources_of(id).await, id, parent).await
}

/// What `own` (UniChem's answer for `id`) leaves to be asked: the parent's records when
/// `id` is another form with none that fills a key.
async fn unichem_fallback(
    unichem: &UniChemClient,
    own: UniChemLinks,
    id: &str,
    parent: &str,
) -> Vec<UniChemSource> {
    match own {
        UniChemLinks::Found(sources)
            if parent != id && !sources.iter().any(|s| unichem_key(s).is_some()) =>
        {
            match unichem.sources_of(parent).await {
                UniChemLinks::Found(of_parent) => of_parent,
                UniChemLinks::Unavailable => sources,
            }
        }
        UniChemLinks::Found(sources) => sources,
        UniChemLinks::Unavailable => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn molecule(v: serde_json::Value) -> Molecule {
        serde_json::from_value(v).unwrap()
    }

    #[test]
    fn whole_phases_are_integers_and_fractions_stay() {
        assert_eq!(json!(phase(4.0)), json!(4));
        assert_eq!(json!(phase(0.5)), json!(0.5));
        assert_eq!(json!(phase(-1.0)), json!(-1));
    }

    #[test]
    fn the_official_name_prefers_inn_and_synonyms_are_deduplicated() {
        let m = molecule(
            json!({"molecule_chembl_id": "CHEMBL25", "pref_name": "ASPIRIN",
            "molecule_synonyms": [
                {"molecule_synonym": "Aspirin", "syn_type": "USAN"},
                {"molecule_synonym": "ASPIRIN", "syn_type": "TRADE_NAME"},
                {"molecule_synonym": "Acetylsalicylic Acid", "syn_type": "INN"}
            ]}),
        );
        let c = Compound::full(&m, &Extras::default());
        assert_eq!(c.canonical_name.as_deref(), Some("Acetylsalicylic Acid"));
        assert_eq!(
            c.synonyms,
            Some(vec![
                "Aspirin".to_owned(),
                "Acetylsalicylic Acid".to_owned()
            ])
        );
    }

    #[test]
    fn unnamed_molecules_borrow_a_synonym_and_nameless_ones_omit_it() {
        let m = molecule(
            json!({"molecule_chembl_id": "CHEMBL458500", "pref_name": null,
            "molecule_synonyms": [{"molecule_synonym": "Isosorbide-2-Aspirinate", "syn_type": "OTHER"}]}),
        );
        assert_eq!(
            Compound::slim(&m).name.as_deref(),
            Some("Isosorbide-2-Aspirinate")
        );
        let m = molecule(json!({"molecule_chembl_id": "CHEMBL6939", "pref_name": null}));
        assert_eq!(
            serde_json::to_value(Compound::slim(&m)).unwrap(),
            json!({"id": "CHEMBL:6939"})
        );
    }

    #[test]
    fn without_a_preferred_name_the_official_name_comes_before_other_synonyms() {
        let m = molecule(json!({"molecule_chembl_id": "CHEMBL1", "pref_name": null,
        "molecule_synonyms": [
            {"molecule_synonym": "Brandex", "syn_type": "TRADE_NAME"},
            {"molecule_synonym": "XY-123", "syn_type": "RESEARCH_CODE"},
            {"molecule_synonym": "Genericol", "syn_type": "USAN"},
            {"molecule_synonym": "Genericolum", "syn_type": "INN"}
        ]}));
        assert_eq!(Compound::slim(&m).name.as_deref(), Some("Genericolum"));
        assert_eq!(
            Compound::full(&m, &Extras::default()).name.as_deref(),
            Some("Genericolum")
        );
        // A preferred name still wins.
        let m = molecule(
            json!({"molecule_chembl_id": "CHEMBL1", "pref_name": "BRANDEX",
            "molecule_synonyms": [{"molecule_synonym": "Genericolum", "syn_type": "INN"}]}),
        );
        assert_eq!(Compound::slim(&m).name.as_deref(), Some("BRANDEX"));
    }

    #[test]
    fn long_lists_show_their_first_25_and_count_the_rest() {
        let synonyms: Vec<serde_json::Value> = (0..40)
            .map(|i| json!({"molecule_synonym": format!("Name {i:02}"), "syn_type": "OTHER"}))
            .collect();
        let sids: Vec<serde_json::Value> = (0..30)
            .map(|i| json!({"xref_src": "PubChem", "xref_id": format!("{}", 1000 + i)}))
            .collect();
        let m = molecule(json!({"molecule_chembl_id": "CHEMBL1", "pref_name": "X",
            "molecule_synonyms": synonyms, "cross_references": sids}));
        let extras = Extras {
            uniprot: (0..57).map(|i| format!("P{:05}", 10000 + i)).collect(),
            unichem: Vec::new(),
        };
        let c = serde_json::to_value(Compound::full(&m, &extras)).unwrap();
        assert_eq!(c["synonyms"].as_array().unwrap().len(), LIST_MAX);
        assert_eq!(c["synonyms"][0], "Name 00");
        assert_eq!(c["synonym_count"], 40);
        let x = &c["cross_references"];
        assert_eq!(x["uniprot"].as_array().unwrap().len(), LIST_MAX);
        assert_eq!(x["uniprot"][0], "P10000");
        assert_eq!(x["pubchem_substance"].as_array().unwrap().len(), LIST_MAX);
        assert_eq!(x["chembl"], "CHEMBL1");
        assert_eq!(
            c["cross_reference_counts"],
            json!({"uniprot": 57, "pubchem_substance": 30})
        );
        // Short lists are whole and carry no counts.
        let m = molecule(
            json!({"molecule_chembl_id": "CHEMBL2", "molecule_synonyms": [
            {"molecule_synonym": "A", "syn_type": "OTHER"}]}),
        );
        let c = serde_json::to_value(Compound::full(&m, &Extras::default())).unwrap();
        assert_eq!(c["synonyms"], json!(["A"]));
        assert!(c.get("synonym_count").is_none() && c.get("cross_reference_counts").is_none());
    }

    #[test]
    fn unichem_sources_fill_their_keys_by_number_or_name() {
        let m = molecule(json!({"molecule_chembl_id": "CHEMBL25"}));
        let unichem: Vec<UniChemSource> = serde_json::from_value(json!([
            {"id": 1, "compoundId": "CHEMBL25"},
            {"id": 2, "compoundId": "DB00945"},
            {"id": 3, "compoundId": "AIN"},
            {"id": 4, "compoundId": "4139"},
            {"id": 6, "compoundId": "C01405"},
            {"shortName": "pubchem", "compoundId": "2244"},
            {"id": 7, "compoundId": "15365"},
            {"id": 2, "compoundId": "not a drugbank id"}
        ]))
        .unwrap();
        let c = Compound::full(
            &m,
            &Extras {
                uniprot: vec!["P23219".into()],
                unichem,
            },
        );
        assert_eq!(
            serde_json::to_value(c.cross_references).unwrap(),
            json!({"uniprot": ["P23219"], "chembl": "CHEMBL25", "drugbank": "DB00945",
                   "iuphar": "4139", "kegg": "C01405", "pdb": ["AIN"], "pubchem_compound": "2244"})
        );
    }

    #[test]
    fn salts_name_their_parent() {
        let m = molecule(json!({"molecule_chembl_id": "CHEMBL1642",
            "molecule_hierarchy": {"parent_chembl_id": "CHEMBL941"}}));
        assert_eq!(
            Compound::full(&m, &Extras::default()).parent_id.as_deref(),
            Some("CHEMBL:941")
        );
        let m = molecule(json!({"molecule_chembl_id": "CHEMBL941",
            "molecule_hierarchy": {"parent_chembl_id": "CHEMBL941"}}));
        assert_eq!(Compound::full(&m, &Extras::default()).parent_id, None);
    }
}
