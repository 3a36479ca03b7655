//! Serde types mirroring UniProt's JSON: an entry (active or inactive), a page of search
//! results, an ID-mapping job's submission, status and results, and an error body. Read
//! tolerantly: every part UniProt may leave out is optional (keys with nothing to say are
//! absent, and `fields=` leaves out whatever was not asked for), a `null` reads as absent,
//! unknown keys are ignored, and `annotationScore` is read as an integer or a float (`5`
//! and `5.0` are both recorded).
//!
//! Field names are those of the recorded answers kept in `tests/fixtures/` (their
//! origins in `tests/fixtures/README.md`) and of UniProt's help pages
//! (<https://www.uniprot.org/help/id_mapping_prog>, <https://www.uniprot.org/help/rest-api-headers>).

use lifesciences_core::Answer;
use serde::{Deserialize, Deserializer};

/// A list whose items are read one by one: an item of a shape this server does not know
/// is left out (and logged), so one odd comment or feature does not cost the whole
/// entry. `null` is an empty list.
fn each<'de, D, T>(deserializer: D) -> Result<Vec<T>, D::Error>
where
    D: Deserializer<'de>,
    T: serde::de::DeserializeOwned,
{
    let items = Option::<Vec<serde_json::Value>>::deserialize(deserializer)?.unwrap_or_default();
    Ok(items
        .into_iter()
        .filter_map(|item| match serde_json::from_value(item) {
            Ok(read) => Some(read),
            Err(e) => {
                tracing::warn!(error = %e, "left out an item of a UniProt entry it cannot read");
                None
            }
        })
        .collect())
}

/// A value, or its default when the key holds `null`.
fn or_default<'de, D, T>(deserializer: D) -> Result<T, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de> + Default,
{
    Ok(Option::<T>::deserialize(deserializer)?.unwrap_or_default())
}

/// A UniProtKB entry as `GET /uniprotkb/{accession}` or a search page sends it, whole or
/// cut by `fields=`; also an inactive record (`entryType: "Inactive"`, with
/// `inactiveReason` and nothing else of note).
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Entry {
    /// `UniProtKB reviewed (Swiss-Prot)`, `UniProtKB unreviewed (TrEMBL)` or `Inactive`;
    /// sent only when `fields=` names `reviewed`.
    pub entry_type: Option<String>,
    /// Always sent, whatever `fields=` says.
    pub primary_accession: String,
    #[serde(default, deserialize_with = "or_default")]
    pub secondary_accessions: Vec<String>,
    /// The entry name, e.g. `AA1R_HUMAN`.
    pub uni_protkb_id: Option<String>,
    /// 1–5 (`5` or `5.0`); answers of 2022 held other scales.
    pub annotation_score: Option<f64>,
    pub organism: Option<Organism>,
    /// `1: Evidence at protein level` … `5: Uncertain`.
    pub protein_existence: Option<String>,
    pub protein_description: Option<ProteinDescription>,
    #[serde(default, deserialize_with = "or_default")]
    pub genes: Vec<Gene>,
    #[serde(default, deserialize_with = "each")]
    pub comments: Vec<Comment>,
    #[serde(default, deserialize_with = "each")]
    pub features: Vec<Feature>,
    #[serde(default, deserialize_with = "each")]
    pub keywords: Vec<Keyword>,
    #[serde(
        default,
        deserialize_with = "each",
        rename = "uniProtKBCrossReferences"
    )]
    pub cross_references: Vec<CrossReference>,
    pub sequence: Option<Sequence>,
    pub extra_attributes: Option<ExtraAttributes>,
    /// Why an inactive record is inactive.
    pub inactive_reason: Option<InactiveReason>,
}

impl Answer for Entry {
    fn unusable(&self) -> Option<String> {
        self.primary_accession
            .trim()
            .is_empty()
            .then(|| "an entry without a primaryAccession".to_owned())
    }
}

impl Entry {
    /// Whether UniProt calls this record inactive (merged, demerged or deleted).
    pub(crate) fn is_inactive(&self) -> bool {
        self.entry_type
            .as_deref()
            .is_some_and(|t| t.eq_ignore_ascii_case("inactive"))
            || self.inactive_reason.is_some()
    }

    /// Whether the entry is reviewed (Swiss-Prot); `None` when `entryType` was not sent.
    pub(crate) fn reviewed(&self) -> Option<bool> {
        let kind = self.entry_type.as_deref()?.to_ascii_lowercase();
        if kind.contains("unreviewed") || kind.contains("trembl") {
            Some(false)
        } else if kind.contains("reviewed") || kind.contains("swiss-prot") {
            Some(true)
        } else {
            None
        }
    }

    /// The comments of one type (`FUNCTION`, `DISEASE`…).
    pub(crate) fn comments_of<'a>(&'a self, kind: &'a str) -> impl Iterator<Item = &'a Comment> {
        self.comments
            .iter()
            .filter(move |c| c.comment_type.as_deref() == Some(kind))
    }

    /// The cross-references to one database (`Ensembl`, `PDB`…).
    pub(crate) fn xrefs<'a>(
        &'a self,
        database: &'a str,
    ) -> impl Iterator<Item = &'a CrossReference> {
        self.cross_references
            .iter()
            .filter(move |x| x.database == database)
    }
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Organism {
    pub scientific_name: Option<String>,
    pub common_name: Option<String>,
    pub taxon_id: Option<u64>,
}

/// A text with its evidence (`{"value": "…", "evidences": […]}`).
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub(crate) struct Evidenced {
    #[serde(default, deserialize_with = "or_default")]
    pub value: String,
    #[serde(default, deserialize_with = "or_default")]
    pub evidences: Vec<Evidence>,
}

/// One piece of evidence: an ECO code and where it comes from (`PubMed` and its ID, `PDB`,
/// `UniProtKB` for by-similarity annotation…).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Evidence {
    pub evidence_code: Option<String>,
    pub source: Option<String>,
    pub id: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct ProteinDescription {
    pub recommended_name: Option<ProteinName>,
    #[serde(default, deserialize_with = "or_default")]
    pub alternative_names: Vec<ProteinName>,
    /// What unreviewed entries carry in place of a recommended name.
    #[serde(default, deserialize_with = "or_default")]
    pub submission_names: Vec<ProteinName>,
    /// `Precursor`, `Fragment`…
    pub flag: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct ProteinName {
    pub full_name: Option<Evidenced>,
    #[serde(default, deserialize_with = "or_default")]
    pub short_names: Vec<Evidenced>,
    #[serde(default, deserialize_with = "or_default")]
    pub ec_numbers: Vec<Evidenced>,
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Gene {
    pub gene_name: Option<Evidenced>,
    #[serde(default, deserialize_with = "or_default")]
    pub synonyms: Vec<Evidenced>,
    #[serde(default, deserialize_with = "or_default")]
    pub orf_names: Vec<Evidenced>,
    #[serde(default, deserialize_with = "or_default")]
    pub ordered_locus_names: Vec<Evidenced>,
}

/// One comment; which members it has depends on its `commentType`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Comment {
    pub comment_type: Option<String>,
    /// Free-text types (`FUNCTION`, `PTM`, `TISSUE SPECIFICITY`…).
    #[serde(default, deserialize_with = "or_default")]
    pub texts: Vec<Evidenced>,
    /// The chain or isoform the comment is about, when not the whole entry.
    pub molecule: Option<String>,
    /// `SUBCELLULAR LOCATION`.
    #[serde(default, deserialize_with = "or_default")]
    pub subcellular_locations: Vec<SubcellularLocation>,
    pub note: Option<Note>,
    /// `DISEASE`.
    pub disease: Option<Disease>,
    /// `ALTERNATIVE PRODUCTS`.
    #[serde(default, deserialize_with = "or_default")]
    pub isoforms: Vec<Isoform>,
    #[serde(default, deserialize_with = "or_default")]
    pub events: Vec<String>,
    /// `CATALYTIC ACTIVITY`.
    pub reaction: Option<Reaction>,
}

/// A comment's note: texts with evidence (`SUBCELLULAR LOCATION`, `DISEASE`), or plain
/// text (`WEB RESOURCE`: `"note": "Dropping barriers - Issue 220 of December 2019"`).
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(untagged)]
pub(crate) enum Note {
    Texts {
        #[serde(default, deserialize_with = "or_default")]
        texts: Vec<Evidenced>,
    },
    Text(String),
}

impl Note {
    pub(crate) fn texts(&self) -> Vec<&str> {
        match self {
            Self::Texts { texts } => texts.iter().map(|t| t.value.trim()).collect(),
            Self::Text(text) => vec![text.trim()],
        }
    }
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
pub(crate) struct SubcellularLocation {
    pub location: Option<Evidenced>,
    pub topology: Option<Evidenced>,
}

/// A disease the entry's variants are involved in.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Disease {
    /// The disease's name in full, e.g. `Autoinflammatory-pancytopenia syndrome`.
    pub disease_id: Option<String>,
    /// UniProt's disease accession, e.g. `DI-06407`.
    pub disease_accession: Option<String>,
    /// What natural variants' descriptions name it by, e.g. `AIPCS`.
    pub acronym: Option<String>,
    pub description: Option<String>,
    pub disease_cross_reference: Option<DbRef>,
    #[serde(default, deserialize_with = "or_default")]
    pub evidences: Vec<Evidence>,
}

#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub(crate) struct DbRef {
    pub database: Option<String>,
    pub id: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Isoform {
    pub name: Option<Evidenced>,
    #[serde(default, deserialize_with = "or_default")]
    pub isoform_ids: Vec<String>,
    /// `Displayed` (the canonical sequence) or `Described`.
    pub isoform_sequence_status: Option<String>,
    /// The `Alternative sequence` features (`VSP_…`) that make this isoform.
    #[serde(default, deserialize_with = "or_default")]
    pub sequence_ids: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Reaction {
    pub name: Option<String>,
    pub ec_number: Option<String>,
}

/// A sequence feature; positions are 1-based and inclusive on the canonical sequence.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Feature {
    /// `Natural variant`, `Modified residue`, `Binding site`…
    #[serde(rename = "type")]
    pub kind: String,
    pub location: Option<Location>,
    pub description: Option<String>,
    /// `VAR_…`, `PRO_…`, `VSP_…`; may be an empty string.
    pub feature_id: Option<String>,
    #[serde(default, deserialize_with = "or_default")]
    pub evidences: Vec<Evidence>,
    #[serde(default, deserialize_with = "or_default")]
    pub feature_cross_references: Vec<DbRef>,
    pub alternative_sequence: Option<AlternativeSequence>,
    /// What a binding site binds.
    pub ligand: Option<Ligand>,
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
pub(crate) struct Location {
    pub start: Option<Position>,
    pub end: Option<Position>,
}

/// A position: its `value` (absent when `UNKNOWN`) and how sure it is (`EXACT`, `OUTSIDE`,
/// `UNKNOWN`, `UNSURE`).
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub(crate) struct Position {
    pub value: Option<u32>,
    pub modifier: Option<String>,
}

impl Position {
    /// Whether the position is exact (a missing modifier counts as exact).
    pub(crate) fn is_exact(&self) -> bool {
        self.value.is_some()
            && self
                .modifier
                .as_deref()
                .is_none_or(|m| m.eq_ignore_ascii_case("EXACT"))
    }
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct AlternativeSequence {
    pub original_sequence: Option<String>,
    #[serde(default, deserialize_with = "or_default")]
    pub alternative_sequences: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
pub(crate) struct Ligand {
    pub name: Option<String>,
    /// `ChEBI:CHEBI:60240`.
    pub id: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
pub(crate) struct Keyword {
    pub id: Option<String>,
    pub category: Option<String>,
    pub name: Option<String>,
}

/// A cross-reference: `database`, `id`, its `properties` (`GeneId`, `Resolution`…; `-`
/// means nothing) and the isoform it is about.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct CrossReference {
    pub database: String,
    pub id: String,
    #[serde(default, deserialize_with = "or_default")]
    pub properties: Vec<Property>,
    pub isoform_id: Option<String>,
}

impl CrossReference {
    /// The value of property `key`, unless it is UniProt's `-` for nothing.
    pub(crate) fn property(&self, key: &str) -> Option<&str> {
        self.properties
            .iter()
            .find(|p| p.key.as_deref() == Some(key))
            .and_then(|p| p.value.as_deref())
            .map(str::trim)
            .filter(|v| !v.is_empty() && *v != "-")
    }
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
pub(crate) struct Property {
    pub key: Option<String>,
    pub value: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Sequence {
    pub value: Option<String>,
    pub length: Option<u32>,
    pub mol_weight: Option<u64>,
    pub crc64: Option<String>,
}

/// Summary counts UniProt adds to an entry.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct ExtraAttributes {
    /// Features by type, e.g. `{"Natural variant": 6}`.
    #[serde(default, deserialize_with = "or_default")]
    pub count_by_feature_type: std::collections::BTreeMap<String, u32>,
    /// Comments by type, e.g. `{"FUNCTION": 1}`.
    #[serde(default, deserialize_with = "or_default")]
    pub count_by_comment_type: std::collections::BTreeMap<String, u32>,
    pub uni_parc_id: Option<String>,
}

/// Why a record is inactive: `MERGED` (into one entry), `DEMERGED` (into several) or
/// `DELETED` (with the reason's name).
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct InactiveReason {
    pub inactive_reason_type: Option<String>,
    #[serde(default, deserialize_with = "or_default")]
    pub merge_demerge_to: Vec<String>,
    pub deleted_reason: Option<String>,
}

/// A page of `/uniprotkb/search`: `{"results": [entry, …]}` (the total and the next page
/// come in headers). `results` is always sent: a body without it is not a page.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub(crate) struct SearchResults {
    #[serde(deserialize_with = "or_default")]
    pub results: Vec<Entry>,
}

impl Answer for SearchResults {}

/// `POST /idmapping/run`'s answer.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct JobSubmitted {
    pub job_id: String,
}

impl Answer for JobSubmitted {
    fn unusable(&self) -> Option<String> {
        self.job_id
            .trim()
            .is_empty()
            .then(|| "an ID-mapping job without a jobId".to_owned())
    }
}

/// `GET /idmapping/status/{jobId}`: `NEW` or `RUNNING` (200), `FINISHED` (303, with the
/// results' location, or no body), `ERROR`; limits exceeded come as `errors`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct JobStatus {
    pub job_status: Option<String>,
    #[serde(default, deserialize_with = "or_default")]
    pub warnings: Vec<JobMessage>,
    #[serde(default, deserialize_with = "or_default")]
    pub errors: Vec<JobMessage>,
}

impl Answer for JobStatus {
    fn unusable(&self) -> Option<String> {
        (self.job_status.is_none() && self.errors.is_empty())
            .then(|| "a job status with neither jobStatus nor errors".to_owned())
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub(crate) struct JobMessage {
    pub code: Option<i64>,
    pub message: Option<String>,
}

/// A page of an ID-mapping job's results: `results` always (a body without it is not a
/// page); `failedIds`, `suggestedIds`, `obsoleteCount` and `warnings` only when they have
/// something to say.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct MappingResults {
    #[serde(deserialize_with = "or_default")]
    pub results: Vec<MappingRow>,
    #[serde(default, deserialize_with = "or_default")]
    pub failed_ids: Vec<String>,
    #[serde(default, deserialize_with = "or_default")]
    pub suggested_ids: Vec<SuggestedId>,
    pub obsolete_count: Option<u64>,
    #[serde(default, deserialize_with = "or_default")]
    pub warnings: Vec<JobMessage>,
}

impl Answer for MappingResults {
    fn unusable(&self) -> Option<String> {
        (!self.results.is_empty() && self.results.iter().all(|r| r.from.trim().is_empty()))
            .then(|| "mapping rows without a `from`".to_owned())
    }
}

/// One pair: what was asked (`from`) and what it maps to: an identifier of another
/// database, or a UniProtKB entry when mapping to UniProtKB.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub(crate) struct MappingRow {
    pub from: String,
    pub to: MappingTarget,
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(untagged)]
pub(crate) enum MappingTarget {
    Id(String),
    Entry(Box<Entry>),
}

#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub(crate) struct SuggestedId {
    pub from: Option<String>,
    pub to: Option<String>,
}

/// UniProt's error body: `{"url": …, "messages": ["…"]}`; a job's refusal may list
/// `errors` instead. The `url` is not read (it has been seen as `http://` for https
/// requests).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub(crate) struct ErrorBody {
    #[serde(default, deserialize_with = "or_default")]
    pub messages: Vec<String>,
    #[serde(default, deserialize_with = "or_default")]
    pub errors: Vec<JobMessage>,
}

impl ErrorBody {
    /// UniProt's words: its messages, or its errors' messages.
    pub(crate) fn said(&self) -> Vec<String> {
        let messages = self.messages.iter().cloned();
        let errors = self.errors.iter().filter_map(|e| e.message.clone());
        messages
            .chain(errors)
            .map(|m| m.trim().to_owned())
            .filter(|m| !m.is_empty())
            .collect()
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A fixture of `tests/fixtures/`, by file name.
    pub(crate) fn fixture(name: &str) -> String {
        let path = format!("{}/tests/fixtures/{name}", env!("CARGO_MANIFEST_DIR"));
        std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
    }

    pub(crate) fn entry(name: &str) -> Entry {
        serde_json::from_str(&fixture(name)).unwrap()
    }

    #[test]
    fn the_recorded_entries_decode_with_their_parts() {
        let e = entry("uniprotkb__O00115.json");
        assert_eq!(e.primary_accession, "O00115");
        assert_eq!(e.reviewed(), Some(true));
        assert_eq!(e.uni_protkb_id.as_deref(), Some("DNS2A_HUMAN"));
        assert_eq!(e.annotation_score, Some(5.0));
        assert_eq!(e.organism.as_ref().unwrap().taxon_id, Some(9606));
        assert_eq!(e.comments_of("DISEASE").count(), 1);
        assert_eq!(e.features.len(), 31);
        assert_eq!(e.xrefs("Ensembl").count(), 2);
        assert_eq!(
            e.extra_attributes.unwrap().count_by_feature_type["Natural variant"],
            6
        );

        let p = entry("uniprotkb__P30542.json");
        // Saved indented by its downloader with `5.0`; O00115 printed `5`: both read.
        assert_eq!(p.annotation_score, Some(5.0));
        assert_eq!(p.xrefs("PDB").count(), 5);
        let pdb = p.xrefs("PDB").next().unwrap();
        assert_eq!(pdb.property("Resolution"), Some("3.30 A"));
        assert_eq!(
            p.xrefs("AlphaFoldDB")
                .next()
                .unwrap()
                .property("Description"),
            None
        );

        let unreviewed = entry("uniprotkb__A8Y1C3.json");
        assert_eq!(unreviewed.reviewed(), Some(false));
        let names = unreviewed.protein_description.unwrap();
        assert!(names.recommended_name.is_none());
        assert_eq!(
            names.submission_names[0].full_name.as_ref().unwrap().value,
            "Protein CBG22016"
        );
        assert!(unreviewed.comments.is_empty() && unreviewed.secondary_accessions.is_empty());

        let bacterial = entry("uniprotkb__P0DTR4.json");
        let web = bacterial.comments_of("WEB RESOURCE").next().unwrap();
        assert_eq!(
            web.note.as_ref().unwrap().texts(),
            ["Dropping barriers - Issue 220 of December 2019"]
        );
        let ligand = bacterial
            .features
            .iter()
            .find_map(|f| f.ligand.as_ref()?.id.clone());
        assert_eq!(ligand.as_deref(), Some("ChEBI:CHEBI:60240"));
    }

    #[test]
    fn an_item_of_an_unknown_shape_is_left_out_not_the_entry() {
        let e: Entry = serde_json::from_str(
            r#"{"primaryAccession":"P1","comments":[{"commentType":"FUNCTION","texts":"not a list"},
               {"commentType":"FUNCTION","texts":[{"value":"Kept."}]}],
               "features":[{"location":{}},{"type":"Chain"}]}"#,
        )
        .unwrap();
        assert_eq!(e.comments.len(), 1);
        assert_eq!(e.comments[0].texts[0].value, "Kept.");
        assert_eq!(e.features.len(), 1);
    }

    #[test]
    fn an_inactive_record_says_why() {
        let e = entry("uniprotkb__P00001__inactive_DEMERGED.json");
        assert!(e.is_inactive());
        let reason = e.inactive_reason.unwrap();
        assert_eq!(reason.inactive_reason_type.as_deref(), Some("DEMERGED"));
        assert_eq!(reason.merge_demerge_to, ["P99999", "P99998"]);
        assert_eq!(e.annotation_score, Some(0.0));
    }

    #[test]
    fn nulls_read_as_absent_and_scores_as_int_or_float() {
        let e: Entry = serde_json::from_str(
            r#"{"primaryAccession":"P1","genes":null,"features":null,"annotationScore":3}"#,
        )
        .unwrap();
        assert!(e.genes.is_empty() && e.features.is_empty());
        assert_eq!(e.annotation_score, Some(3.0));
        assert!(!e.is_inactive());
        assert_eq!(e.reviewed(), None);
    }

    #[test]
    fn a_search_page_and_the_id_mapping_answers_decode() {
        let page: SearchResults =
            serde_json::from_str(&fixture("uniprotkb_search__F1MAB7_OR_O14975.json")).unwrap();
        let accessions: Vec<_> = page.results.iter().map(|e| &*e.primary_accession).collect();
        assert_eq!(accessions, ["F1MAB7", "O14975"]);

        let job: JobSubmitted =
            serde_json::from_str(&fixture("idmapping_run__P99999_P12345.json")).unwrap();
        assert_eq!(job.job_id, "623f038354e6e5883c8be8a2d97284cdd41ed36f");

        let status: JobStatus =
            serde_json::from_str(&fixture("idmapping_status__FINISHED.json")).unwrap();
        assert_eq!(status.job_status.as_deref(), Some("FINISHED"));

        let to_ensembl: MappingResults =
            serde_json::from_str(&fixture("idmapping_results__to_Ensembl.json")).unwrap();
        assert_eq!(to_ensembl.results.len(), 3);
        assert_eq!(
            to_ensembl.results[0].to,
            MappingTarget::Id("ENSG00000172115.9".into())
        );
        // `failedIds` as UniProt's service writes it (no recording holds one).
        let failed: MappingResults =
            serde_json::from_str(r#"{"results":[],"failedIds":["P00000"]}"#).unwrap();
        assert_eq!(failed.failed_ids, ["P00000"]);

        let to_uniprot: MappingResults =
            serde_json::from_str(&fixture("idmapping_uniprotkb_results__page1.json")).unwrap();
        let MappingTarget::Entry(entry) = &to_uniprot.results[0].to else {
            panic!("a UniProtKB target is an entry");
        };
        assert_eq!(entry.uni_protkb_id.as_deref(), Some("CYC_HUMAN"));
    }

    #[test]
    fn error_bodies_give_uniprot_s_words() {
        for (file, first) in [
            (
                "error_400__search__nosuchfield.json",
                "'nosuchfield' is not a valid search field",
            ),
            (
                "error_400__search__invalid_field_and_value.json",
                "'invalidQueryField' is not a valid search field",
            ),
            ("error_404__P99997.json", "Resource not found"),
        ] {
            let body: ErrorBody = serde_json::from_str(&fixture(file)).unwrap();
            assert_eq!(body.said()[0], first, "{file}");
        }
        let job: ErrorBody =
            serde_json::from_str(r#"{"errors":[{"code":40,"message":" too many ids "}]}"#).unwrap();
        assert_eq!(job.said(), ["too many ids"]);
    }
}
