//! Serde types mirroring the upstream JSON of ChEMBL's web services and UniChem, tolerant of
//! the ways it varies across releases.
//!
//! Field names come from ChEMBL's and UniChem's documentation and web-service code and the
//! recorded responses in `tests/fixtures/` (sources in docs/sources/chembl.md). Only the
//! fields the tools read are modelled; everything else is ignored. Types vary between
//! releases: `max_phase` is an int (≤2023), a float or a string such as `"4.0"` (newer,
//! seen only in third-party fixtures); decimals such as `full_mwt` are strings;
//! identifiers may come as numbers. The `lenient` deserializers accept every form and turn
//! anything unreadable into `None` rather than failing the whole response.

use lifesciences_core::{Answer, Row};
use serde::{Deserialize, Deserializer};
use serde_json::Value;

/// Deserializers that accept a value in any of the forms the upstream has used.
mod lenient {
    use super::*;

    /// A number, a numeric string (`"180.16"`, `"4.0"`) or null. Other strings are `None`:
    /// an unreadable optional number must not fail a whole record.
    pub(super) fn f64_opt<'de, D: Deserializer<'de>>(d: D) -> Result<Option<f64>, D::Error> {
        Ok(match Option::<Value>::deserialize(d)? {
            Some(Value::Number(n)) => n.as_f64(),
            Some(Value::String(s)) => s.trim().parse::<f64>().ok().filter(|f| f.is_finite()),
            _ => None,
        })
    }

    /// A non-negative whole number, as a number or a string (`1950`, `"1950"`, `1950.0`).
    pub(super) fn u32_opt<'de, D: Deserializer<'de>>(d: D) -> Result<Option<u32>, D::Error> {
        let value = f64_opt(d)?;
        Ok(value
            .filter(|f| f.fract() == 0.0 && *f >= 0.0 && *f <= f64::from(u32::MAX))
            .map(|f| f as u32))
    }

    /// A string, or a number written as a string (identifiers such as `xref_id`).
    pub(super) fn string_opt<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
        Ok(match Option::<Value>::deserialize(d)? {
            Some(Value::String(s)) if !s.trim().is_empty() => Some(s),
            Some(Value::Number(n)) => Some(n.to_string()),
            _ => None,
        })
    }

    /// A list, where the upstream may also send `null` for "none".
    pub(super) fn list<'de, D, T>(d: D) -> Result<Vec<T>, D::Error>
    where
        D: Deserializer<'de>,
        T: Deserialize<'de>,
    {
        Ok(Option::<Vec<T>>::deserialize(d)?.unwrap_or_default())
    }
}

/// `page_meta` of a ChEMBL list or search response.
#[derive(Debug, Clone, Default, Deserialize)]
pub(crate) struct PageMeta {
    /// Results of the whole query.
    #[serde(default, deserialize_with = "lenient::f64_opt")]
    pub total_count: Option<f64>,
}

impl PageMeta {
    /// `total_count` as a count.
    pub(crate) fn total(&self) -> Option<u64> {
        self.total_count
            .filter(|t| *t >= 0.0 && t.fract() == 0.0)
            .map(|t| t as u64)
    }
}

/// A molecule: the detail body of `/molecule/{id}.json`, and each element of the
/// `molecules` list of `/molecule.json` and `/molecule/search.json`.
#[derive(Debug, Clone, Deserialize)]
pub(crate) struct Molecule {
    /// E.g. `CHEMBL25`.
    pub molecule_chembl_id: String,
    /// Preferred name, e.g. `ASPIRIN`; null for many research compounds.
    #[serde(default)]
    pub pref_name: Option<String>,
    /// Highest development phase: 4 approved … 0.5 early phase 1, -1 unknown.
    #[serde(default, deserialize_with = "lenient::f64_opt")]
    pub max_phase: Option<f64>,
    /// E.g. `Small molecule`, `Antibody`, `Protein`.
    #[serde(default)]
    pub molecule_type: Option<String>,
    /// `MOL`, `SEQ` (biologics) or `NONE`; the last two have no `molecule_structures`.
    #[serde(default)]
    pub structure_type: Option<String>,
    /// Year of first approval.
    #[serde(default, deserialize_with = "lenient::u32_opt")]
    pub first_approval: Option<u32>,
    /// The parent of a salt or other form; mechanisms are curated against the parent.
    #[serde(default)]
    pub molecule_hierarchy: Option<MoleculeHierarchy>,
    /// Null for biologics and structureless molecules; for metal complexes only the
    /// formula and weight are set.
    #[serde(default)]
    pub molecule_properties: Option<MoleculeProperties>,
    /// Null when `structure_type` is `NONE` or `SEQ`.
    #[serde(default)]
    pub molecule_structures: Option<MoleculeStructures>,
    /// Names by type (INN, USAN, trade names…).
    #[serde(default, deserialize_with = "lenient::list")]
    pub molecule_synonyms: Vec<MoleculeSynonym>,
    /// Links ChEMBL keeps itself: PubChem SIDs, DailyMed, Wikipedia, TG-GATEs (recorded,
    /// 2023 or earlier, `tests/fixtures/molecule__CHEMBL25.json`).
    #[serde(default, deserialize_with = "lenient::list")]
    pub cross_references: Vec<MoleculeXref>,
    /// Search relevance, on `/molecule/search.json` only.
    #[serde(default, deserialize_with = "lenient::f64_opt")]
    pub score: Option<f64>,
    /// ATC level-5 codes (`B01AC06`), in no stable order.
    #[serde(default, deserialize_with = "lenient::list")]
    pub atc_classifications: Vec<String>,
    /// Similarity to the query structure in percent, on `/similarity` only; a string
    /// such as `"85.4166686534881591796875"` in the recordings.
    #[serde(default, deserialize_with = "lenient::f64_opt")]
    pub similarity: Option<f64>,
}

impl Molecule {
    /// The parent's ChEMBL ID, or the molecule's own when it is a parent.
    pub(crate) fn parent_chembl_id(&self) -> &str {
        self.molecule_hierarchy
            .as_ref()
            .and_then(|h| h.parent_chembl_id.as_deref())
            .filter(|p| !p.trim().is_empty())
            .unwrap_or(&self.molecule_chembl_id)
    }

    /// `molecule_properties.full_molformula`.
    pub(crate) fn formula(&self) -> Option<&str> {
        self.molecule_properties
            .as_ref()
            .and_then(|p| p.full_molformula.as_deref())
            .filter(|f| !f.trim().is_empty())
    }
}

/// `molecule_hierarchy`.
#[derive(Debug, Clone, Deserialize)]
pub(crate) struct MoleculeHierarchy {
    /// The parent molecule (itself for parents).
    #[serde(default)]
    pub parent_chembl_id: Option<String>,
}

/// `molecule_properties` (only what the tools return).
#[derive(Debug, Clone, Deserialize)]
pub(crate) struct MoleculeProperties {
    /// Molecular formula of the full molecule, e.g. `C9H8O4`.
    #[serde(default)]
    pub full_molformula: Option<String>,
    /// Molecular weight of the full molecule, a decimal string such as `"180.16"`.
    #[serde(default, deserialize_with = "lenient::f64_opt")]
    pub full_mwt: Option<f64>,
    /// Of the parent (salt stripped).
    #[serde(default, deserialize_with = "lenient::f64_opt")]
    pub mw_freebase: Option<f64>,
    #[serde(default, deserialize_with = "lenient::f64_opt")]
    pub mw_monoisotopic: Option<f64>,
    #[serde(default, deserialize_with = "lenient::f64_opt")]
    pub alogp: Option<f64>,
    /// Polar surface area, Å².
    #[serde(default, deserialize_with = "lenient::f64_opt")]
    pub psa: Option<f64>,
    #[serde(default, deserialize_with = "lenient::u32_opt")]
    pub hba: Option<u32>,
    #[serde(default, deserialize_with = "lenient::u32_opt")]
    pub hbd: Option<u32>,
    /// Rotatable bonds.
    #[serde(default, deserialize_with = "lenient::u32_opt")]
    pub rtb: Option<u32>,
    #[serde(default, deserialize_with = "lenient::u32_opt")]
    pub aromatic_rings: Option<u32>,
    #[serde(default, deserialize_with = "lenient::u32_opt")]
    pub num_ro5_violations: Option<u32>,
    /// Weighted quantitative estimate of drug-likeness, 0–1.
    #[serde(default, deserialize_with = "lenient::f64_opt")]
    pub qed_weighted: Option<f64>,
}

/// `molecule_structures`.
#[derive(Debug, Clone, Deserialize)]
pub(crate) struct MoleculeStructures {
    /// Canonical SMILES.
    #[serde(default)]
    pub canonical_smiles: Option<String>,
    /// Standard InChI.
    #[serde(default)]
    pub standard_inchi: Option<String>,
    /// Standard InChIKey.
    #[serde(default)]
    pub standard_inchi_key: Option<String>,
}

/// One entry of `molecule_synonyms`.
#[derive(Debug, Clone, Deserialize)]
pub(crate) struct MoleculeSynonym {
    /// The synonym as curated, e.g. `Acetylsalicylic Acid`.
    #[serde(default)]
    pub molecule_synonym: Option<String>,
    /// `INN`, `USAN`, `TRADE_NAME`, `RESEARCH_CODE`…
    #[serde(default)]
    pub syn_type: Option<String>,
    /// A normalised copy; the only name field in some 2017–2018 responses.
    #[serde(default)]
    pub synonyms: Option<String>,
}

impl MoleculeSynonym {
    /// The synonym text, preferring the curated spelling.
    pub(crate) fn text(&self) -> Option<&str> {
        self.molecule_synonym
            .as_deref()
            .or(self.synonyms.as_deref())
            .map(str::trim)
            .filter(|s| !s.is_empty())
    }
}

/// One entry of a molecule's `cross_references`.
#[derive(Debug, Clone, Deserialize)]
pub(crate) struct MoleculeXref {
    /// The identifier in the other source (for PubChem: a substance ID, not a CID).
    #[serde(default, deserialize_with = "lenient::string_opt")]
    pub xref_id: Option<String>,
    /// `PubChem`, `DailyMed`, `Wikipedia`, `TG-GATEs`.
    #[serde(default)]
    pub xref_src: Option<String>,
}

/// `/molecule.json` and `/molecule/search.json`: `{"molecules": [...], "page_meta": {...}}`.
#[derive(Debug, Clone, Default, Deserialize)]
pub(crate) struct MoleculePage {
    /// This page's molecules.
    #[serde(default, deserialize_with = "lenient::list")]
    pub molecules: Vec<Molecule>,
    /// Paging; absent on some forms.
    #[serde(default)]
    pub page_meta: Option<PageMeta>,
}

/// A drug mechanism (`/mechanism.json`; fields of ChEMBL's `resources/mechanism.py`).
#[derive(Debug, Clone, Deserialize)]
pub(crate) struct Mechanism {
    /// The form it is filed under: the parent, or one of its salts or hydrates.
    #[serde(default)]
    pub molecule_chembl_id: Option<String>,
    /// The parent of that form (itself for a parent); absent in records older than the
    /// field (the 2017 recording has none).
    #[serde(default)]
    pub parent_molecule_chembl_id: Option<String>,
    /// Its target, e.g. `CHEMBL221`; null for mechanisms without a known target.
    #[serde(default)]
    pub target_chembl_id: Option<String>,
    /// `INHIBITOR`, `ANTAGONIST`, `AGONIST`…
    #[serde(default)]
    pub action_type: Option<String>,
    /// E.g. `Cyclooxygenase inhibitor`.
    #[serde(default)]
    pub mechanism_of_action: Option<String>,
    #[serde(default, deserialize_with = "lenient::f64_opt")]
    pub max_phase: Option<f64>,
    /// 1 when the drug acts on the target directly.
    #[serde(default, deserialize_with = "lenient::f64_opt")]
    pub direct_interaction: Option<f64>,
    #[serde(default, deserialize_with = "lenient::list")]
    pub mechanism_refs: Vec<Reference>,
}

/// A reference of a mechanism, indication or warning (`ref_type`, `ref_id`, `ref_url`).
#[derive(Debug, Clone, Deserialize)]
pub(crate) struct Reference {
    /// `PubMed`, `FDA`, `ClinicalTrials`, `DailyMed`…
    #[serde(default)]
    pub ref_type: Option<String>,
    #[serde(default, deserialize_with = "lenient::string_opt")]
    pub ref_id: Option<String>,
    #[serde(default)]
    pub ref_url: Option<String>,
}

/// A drug indication (`/drug_indication.json`; recorded 2018,
/// `tests/fixtures/drug_indication__molecule_chembl_id=CHEMBL1094636.json`).
#[derive(Debug, Clone, Deserialize)]
pub(crate) struct Indication {
    #[serde(default)]
    pub molecule_chembl_id: Option<String>,
    /// The parent of that form; absent in the 2018 recording.
    #[serde(default)]
    pub parent_molecule_chembl_id: Option<String>,
    /// `EFO:0001075`.
    #[serde(default)]
    pub efo_id: Option<String>,
    #[serde(default)]
    pub efo_term: Option<String>,
    #[serde(default)]
    pub mesh_id: Option<String>,
    #[serde(default)]
    pub mesh_heading: Option<String>,
    #[serde(default, deserialize_with = "lenient::f64_opt")]
    pub max_phase_for_ind: Option<f64>,
    #[serde(default, deserialize_with = "lenient::list")]
    pub indication_refs: Vec<Reference>,
}

/// A drug warning (`/drug_warning.json`: the columns of ChEMBL's `drug_warning` table).
#[derive(Debug, Clone, Deserialize)]
pub(crate) struct DrugWarning {
    #[serde(default)]
    pub molecule_chembl_id: Option<String>,
    /// The parent of that form.
    #[serde(default)]
    pub parent_molecule_chembl_id: Option<String>,
    /// `Black Box Warning` or `Withdrawn`.
    #[serde(default)]
    pub warning_type: Option<String>,
    /// E.g. `hepatotoxicity`.
    #[serde(default)]
    pub warning_class: Option<String>,
    #[serde(default)]
    pub warning_description: Option<String>,
    /// Countries, `;`-separated.
    #[serde(default)]
    pub warning_country: Option<String>,
    #[serde(default, deserialize_with = "lenient::u32_opt")]
    pub warning_year: Option<u32>,
    #[serde(default)]
    pub efo_id: Option<String>,
    #[serde(default)]
    pub efo_term: Option<String>,
    #[serde(default, deserialize_with = "lenient::list")]
    pub warning_refs: Vec<Reference>,
}

/// A record ChEMBL files under one form of a drug (the parent, a salt, a hydrate) and
/// also under that form's parent, so one `parent_molecule_chembl_id` filter covers every
/// form.
pub(crate) trait OfDrug {
    /// The form it is filed under.
    fn form(&self) -> Option<&str>;
    /// That form's parent as the record names it.
    fn parent_field(&self) -> Option<&str>;

    /// The parent it belongs to: `parent_molecule_chembl_id`, or for records that lack the
    /// field, the form itself.
    fn family(&self) -> Option<&str> {
        self.parent_field()
            .filter(|p| !p.trim().is_empty())
            .or_else(|| self.form())
    }
}

macro_rules! of_drug {
    ($($t:ty),*) => {$(
        impl OfDrug for $t {
            fn form(&self) -> Option<&str> {
                self.molecule_chembl_id.as_deref()
            }
            fn parent_field(&self) -> Option<&str> {
                self.parent_molecule_chembl_id.as_deref()
            }
        }
    )*};
}
of_drug!(Mechanism, Indication, DrugWarning);

/// A list answer of ChEMBL under `key`: the records and `page_meta`.
#[derive(Debug, Clone, Deserialize)]
pub(crate) struct IndicationPage {
    #[serde(default, deserialize_with = "lenient::list")]
    pub drug_indications: Vec<Indication>,
    #[serde(default)]
    pub page_meta: Option<PageMeta>,
}

/// `/drug_warning.json`.
#[derive(Debug, Clone, Deserialize)]
pub(crate) struct WarningPage {
    #[serde(default, deserialize_with = "lenient::list")]
    pub drug_warnings: Vec<DrugWarning>,
    #[serde(default)]
    pub page_meta: Option<PageMeta>,
}

/// `/mechanism.json`: `{"mechanisms": [...], "page_meta": {...}}`.
#[derive(Debug, Clone, Deserialize)]
pub(crate) struct MechanismPage {
    /// This page's mechanisms.
    #[serde(default, deserialize_with = "lenient::list")]
    pub mechanisms: Vec<Mechanism>,
    /// Paging.
    #[serde(default)]
    pub page_meta: Option<PageMeta>,
}

/// A target (`/target.json`, `/target/{id}.json`, `/target/search.json`; fields of
/// ChEMBL's `resources/target.py` and the recorded `target__CHEMBL2363965.json`).
#[derive(Debug, Clone, Deserialize)]
pub(crate) struct Target {
    /// E.g. `CHEMBL221`.
    #[serde(default)]
    pub target_chembl_id: Option<String>,
    #[serde(default)]
    pub pref_name: Option<String>,
    /// `SINGLE PROTEIN`, `PROTEIN COMPLEX`, `PROTEIN FAMILY`…
    #[serde(default)]
    pub target_type: Option<String>,
    #[serde(default)]
    pub organism: Option<String>,
    #[serde(default, deserialize_with = "lenient::u32_opt")]
    pub tax_id: Option<u32>,
    /// Proteins, RNA… of the target.
    #[serde(default, deserialize_with = "lenient::list")]
    pub target_components: Vec<TargetComponent>,
    #[serde(default, deserialize_with = "lenient::list")]
    pub cross_references: Vec<TargetXref>,
    /// Search relevance, on `/target/search.json` only.
    #[serde(default, deserialize_with = "lenient::f64_opt")]
    pub score: Option<f64>,
}

/// One component of a target.
#[derive(Debug, Clone, Deserialize)]
pub(crate) struct TargetComponent {
    /// UniProt accession; null for non-protein components such as ribosomal RNA.
    #[serde(default)]
    pub accession: Option<String>,
    #[serde(default)]
    pub component_description: Option<String>,
    #[serde(default)]
    pub component_type: Option<String>,
    #[serde(default, deserialize_with = "lenient::list")]
    pub target_component_synonyms: Vec<ComponentSynonym>,
    /// The component's links (`EnsemblGene`, `PDBe`, `UniProt`, GO terms…); absent in the
    /// 2017 recording.
    #[serde(default, deserialize_with = "lenient::list")]
    pub target_component_xrefs: Vec<ComponentXref>,
}

/// A component's name (`GENE_SYMBOL`, `UNIPROT`, `EC_NUMBER`…).
#[derive(Debug, Clone, Deserialize)]
pub(crate) struct ComponentSynonym {
    #[serde(default)]
    pub component_synonym: Option<String>,
    #[serde(default)]
    pub syn_type: Option<String>,
}

/// A target's link to another database (`xref_src`, `xref_id`; `TargetXRefResource` in
/// ChEMBL's `resources/target.py`): `canSAR-Target`, `Wikipedia`, `ComplexPortal`…
#[derive(Debug, Clone, Deserialize)]
pub(crate) struct TargetXref {
    #[serde(default, deserialize_with = "lenient::string_opt")]
    pub xref_id: Option<String>,
    #[serde(default)]
    pub xref_src: Option<String>,
}

/// A component's link to another database: the same triple, but the source is named
/// `xref_src_db` (`TargetComponentXrefResource` in ChEMBL's `resources/target.py`).
#[derive(Debug, Clone, Deserialize)]
pub(crate) struct ComponentXref {
    #[serde(default, deserialize_with = "lenient::string_opt")]
    pub xref_id: Option<String>,
    #[serde(default)]
    pub xref_src_db: Option<String>,
}

/// `/target.json`: `{"targets": [...], "page_meta": {...}}`.
#[derive(Debug, Clone, Deserialize)]
pub(crate) struct TargetPage {
    /// This page's targets.
    #[serde(default, deserialize_with = "lenient::list")]
    pub targets: Vec<Target>,
    #[serde(default)]
    pub page_meta: Option<PageMeta>,
}

/// A bioactivity (`/activity.json`; recorded 2017, numbers as strings:
/// `tests/fixtures/activity__target_chembl_id=CHEMBL2842.json`).
#[derive(Debug, Clone, Deserialize)]
pub(crate) struct Activity {
    #[serde(default, deserialize_with = "lenient::string_opt")]
    pub activity_id: Option<String>,
    #[serde(default)]
    pub molecule_chembl_id: Option<String>,
    #[serde(default)]
    pub target_chembl_id: Option<String>,
    #[serde(default)]
    pub target_pref_name: Option<String>,
    #[serde(default)]
    pub target_organism: Option<String>,
    #[serde(default)]
    pub assay_chembl_id: Option<String>,
    #[serde(default)]
    pub assay_description: Option<String>,
    /// `B` binding, `F` functional, `A` ADME, `T` toxicity, `P` physicochemical.
    #[serde(default)]
    pub assay_type: Option<String>,
    /// `IC50`, `Ki`, `Kd`, `EC50`…
    #[serde(default)]
    pub standard_type: Option<String>,
    /// `=`, `<`, `>`…
    #[serde(default)]
    pub standard_relation: Option<String>,
    #[serde(default, deserialize_with = "lenient::f64_opt")]
    pub standard_value: Option<f64>,
    #[serde(default)]
    pub standard_units: Option<String>,
    /// −log10 of the molar potency; absent when ChEMBL computes none (never read as 0).
    #[serde(default, deserialize_with = "lenient::f64_opt")]
    pub pchembl_value: Option<f64>,
    #[serde(default)]
    pub document_chembl_id: Option<String>,
    #[serde(default, deserialize_with = "lenient::u32_opt")]
    pub document_year: Option<u32>,
    #[serde(default)]
    pub activity_comment: Option<String>,
    #[serde(default)]
    pub data_validity_comment: Option<String>,
}

/// `/activity.json`: `{"activities": [...], "page_meta": {...}}`.
#[derive(Debug, Clone, Deserialize)]
pub(crate) struct ActivityPage {
    #[serde(default, deserialize_with = "lenient::list")]
    pub activities: Vec<Activity>,
    #[serde(default)]
    pub page_meta: Option<PageMeta>,
}

/// ChEMBL's 400 body: `{"error_message": "..."}`.
#[derive(Debug, Clone, Deserialize)]
pub(crate) struct ChemblErrorBody {
    /// E.g. `Search query too short`.
    #[serde(default)]
    pub error_message: Option<String>,
}

/// `/chembl_id_lookup/{id}.json`: what kind of entity a ChEMBL identifier names.
#[derive(Debug, Clone, Deserialize)]
pub(crate) struct ChemblIdLookup {
    /// `COMPOUND`, `TARGET`, `ASSAY`, `DOCUMENT`, `CELL` (TISSUE probably too).
    #[serde(default)]
    pub entity_type: Option<String>,
    /// `ACTIVE` is the only value confirmed.
    #[serde(default)]
    pub status: Option<String>,
}

/// UniChem `POST /compounds` answer: `{"compounds": [{"sources": [...]}], ...}`.
/// Only `compounds[].sources[]` with `id`, `compoundId` and `shortName` is verified by
/// several clients; everything else is optional.
#[derive(Debug, Clone, Default, Deserialize)]
pub(crate) struct UniChemAnswer {
    /// The matched compounds (one for a source-ID query); absent when nothing matched.
    #[serde(default, deserialize_with = "lenient::list")]
    pub compounds: Vec<UniChemCompound>,
    /// `Success`, or what went wrong; present in every answer.
    #[serde(default)]
    pub response: Option<String>,
}

/// One UniChem compound.
#[derive(Debug, Clone, Deserialize)]
pub(crate) struct UniChemCompound {
    /// The compound's identifiers in each source.
    #[serde(default, deserialize_with = "lenient::list")]
    pub sources: Vec<UniChemSource>,
}

/// One source record of a UniChem compound.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub(crate) struct UniChemSource {
    /// UniChem source number: 2 DrugBank, 3 PDBe ligand, 4 Guide to Pharmacology,
    /// 6 KEGG Ligand, 22 PubChem (docs/sources/chembl.md, "UniChem sources used").
    #[serde(default, deserialize_with = "lenient::u32_opt")]
    pub id: Option<u32>,
    /// The identifier in that source, e.g. `DB00945`.
    #[serde(
        default,
        rename = "compoundId",
        deserialize_with = "lenient::string_opt"
    )]
    pub compound_id: Option<String>,
    /// E.g. `drugbank`; used when `id` is missing.
    #[serde(default, rename = "shortName")]
    pub short_name: Option<String>,
}

// What makes each answer one ChEMBL or UniChem documents: a wrong shape that still decodes
// (lists and metadata here are lenient) is an upstream error, never "no results".

/// The record's ChEMBL ID is required: a wrong shape already fails to decode.
impl Answer for Molecule {}

/// Every ChEMBL list answer carries `page_meta`, even when empty.
fn page_without_meta(meta: Option<&PageMeta>, rows: usize, what: &str) -> Option<String> {
    (meta.is_none() && rows == 0).then(|| format!("no {what} and no page_meta"))
}

impl Answer for MoleculePage {
    fn unusable(&self) -> Option<String> {
        page_without_meta(self.page_meta.as_ref(), self.molecules.len(), "molecules")
    }
}

impl Answer for MechanismPage {
    fn unusable(&self) -> Option<String> {
        page_without_meta(self.page_meta.as_ref(), self.mechanisms.len(), "mechanisms")
    }
}

impl Answer for ActivityPage {
    fn unusable(&self) -> Option<String> {
        page_without_meta(self.page_meta.as_ref(), self.activities.len(), "activities")
    }
}

impl Answer for IndicationPage {
    fn unusable(&self) -> Option<String> {
        page_without_meta(
            self.page_meta.as_ref(),
            self.drug_indications.len(),
            "drug_indications",
        )
    }
}

impl Answer for WarningPage {
    fn unusable(&self) -> Option<String> {
        page_without_meta(
            self.page_meta.as_ref(),
            self.drug_warnings.len(),
            "drug_warnings",
        )
    }
}

impl Answer for Target {
    fn unusable(&self) -> Option<String> {
        self.target_chembl_id
            .is_none()
            .then(|| "a target without target_chembl_id".to_owned())
    }
}

impl Row for Target {
    fn usable(&self) -> bool {
        self.target_chembl_id.is_some()
    }
}

impl Answer for TargetPage {
    fn unusable(&self) -> Option<String> {
        page_without_meta(self.page_meta.as_ref(), self.targets.len(), "targets")
            .or_else(|| self.targets.unusable())
    }
}

impl Answer for ChemblIdLookup {
    fn unusable(&self) -> Option<String> {
        (self.entity_type.is_none() && self.status.is_none())
            .then(|| "neither entity_type nor status".to_owned())
    }
}

/// UniChem's answers name their outcome (`response`), found or not.
impl Answer for UniChemAnswer {
    fn unusable(&self) -> Option<String> {
        (self.response.is_none() && self.compounds.is_empty())
            .then(|| "no compounds and no response".to_owned())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn molecule(v: Value) -> Molecule {
        serde_json::from_value(v).unwrap()
    }

    #[test]
    fn max_phase_is_read_as_int_float_or_string() {
        for (raw, expected) in [
            (json!(4), Some(4.0)),
            (json!(0.5), Some(0.5)),
            (json!("4.0"), Some(4.0)),
            (json!("-1"), Some(-1.0)),
            (json!(null), None),
            (json!("n/a"), None),
        ] {
            let m = molecule(json!({"molecule_chembl_id": "CHEMBL1", "max_phase": raw}));
            assert_eq!(m.max_phase, expected, "{raw}");
        }
    }

    #[test]
    fn decimals_and_years_as_strings_or_numbers() {
        let m = molecule(
            json!({"molecule_chembl_id": "CHEMBL1", "first_approval": "1950",
            "molecule_properties": {"full_molformula": "C9H8O4", "full_mwt": "180.16"}}),
        );
        assert_eq!(m.first_approval, Some(1950));
        let props = m.molecule_properties.unwrap();
        assert_eq!(props.full_mwt, Some(180.16));
        let m = molecule(
            json!({"molecule_chembl_id": "CHEMBL1", "first_approval": 1950.0,
            "molecule_properties": {"full_mwt": 180.16}}),
        );
        assert_eq!(m.first_approval, Some(1950));
        assert_eq!(m.molecule_properties.unwrap().full_mwt, Some(180.16));
    }

    #[test]
    fn nulls_and_missing_lists_are_empty() {
        let m = molecule(
            json!({"molecule_chembl_id": "CHEMBL1", "molecule_synonyms": null,
            "molecule_structures": null, "molecule_properties": null}),
        );
        assert!(m.molecule_synonyms.is_empty());
        assert!(m.cross_references.is_empty());
        assert!(m.molecule_structures.is_none());
        assert_eq!(m.parent_chembl_id(), "CHEMBL1");
        assert_eq!(m.formula(), None);
    }

    #[test]
    fn xref_ids_may_be_numbers() {
        let x: MoleculeXref =
            serde_json::from_value(json!({"xref_id": 144203627, "xref_src": "PubChem"})).unwrap();
        assert_eq!(x.xref_id.as_deref(), Some("144203627"));
    }

    #[test]
    fn unichem_sources_tolerate_string_ids_and_missing_keys() {
        let a: UniChemAnswer = serde_json::from_value(json!({"compounds": [{"sources": [
            {"id": "2", "compoundId": "DB00945", "shortName": "drugbank"},
            {"id": 22, "compoundId": 2244},
            {"shortName": "pdb", "compoundId": "AIN"}
        ]}]}))
        .unwrap();
        let s = &a.compounds[0].sources;
        assert_eq!(s[0].id, Some(2));
        assert_eq!(s[1].compound_id.as_deref(), Some("2244"));
        assert_eq!(s[2].id, None);
        let empty: UniChemAnswer =
            serde_json::from_value(json!({"response": "Not found"})).unwrap();
        assert!(empty.compounds.is_empty());
    }

    #[test]
    fn a_record_belongs_to_its_parent_or_without_the_field_to_its_own_form() {
        let filed_under_salt: Mechanism = serde_json::from_value(json!({
            "molecule_chembl_id": "CHEMBL419213", "parent_molecule_chembl_id": "CHEMBL1237"
        }))
        .unwrap();
        assert_eq!(filed_under_salt.form(), Some("CHEMBL419213"));
        assert_eq!(filed_under_salt.family(), Some("CHEMBL1237"));
        // The 2017 recording has no parent field; a blank one is no parent either.
        let old: Mechanism =
            serde_json::from_value(json!({"molecule_chembl_id": "CHEMBL614"})).unwrap();
        assert_eq!(old.family(), Some("CHEMBL614"));
        let blank: DrugWarning = serde_json::from_value(
            json!({"molecule_chembl_id": "CHEMBL1237", "parent_molecule_chembl_id": " "}),
        )
        .unwrap();
        assert_eq!(blank.family(), Some("CHEMBL1237"));
        let indication: Indication =
            serde_json::from_value(json!({"parent_molecule_chembl_id": "CHEMBL1237"})).unwrap();
        assert_eq!(indication.family(), Some("CHEMBL1237"));
    }

    #[test]
    fn the_salt_points_at_its_parent() {
        let m = molecule(json!({"molecule_chembl_id": "CHEMBL1642",
            "molecule_hierarchy": {"molecule_chembl_id": "CHEMBL1642", "parent_chembl_id": "CHEMBL941"}}));
        assert_eq!(m.parent_chembl_id(), "CHEMBL941");
    }
}
