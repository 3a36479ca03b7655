//! `Protein`, what `uniprot_get_protein` returns for one entry: a compact summary (under
//! 4 KB for an ordinary human entry) and the sections asked for with `include`, each a
//! list that says whether it is whole.

use std::collections::BTreeMap;

use lifesciences_core::CrossReferences;
use lifesciences_core::schemars::{self, JsonSchema};
use serde::Serialize;

use crate::disease::{Disease, Diseases};
use crate::feature::{self, Feature, FeatureKind, Group};
use crate::models::{Comment, Entry};
use crate::xrefs::{self, Pathway, Structure};

/// The sections `include` may ask for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Include {
    Variants,
    Ptms,
    Domains,
    Sites,
    Isoforms,
    Structures,
    Comments,
    Sequence,
}

impl Include {
    pub(crate) const ALL: [Include; 8] = [
        Include::Variants,
        Include::Ptms,
        Include::Domains,
        Include::Sites,
        Include::Isoforms,
        Include::Structures,
        Include::Comments,
        Include::Sequence,
    ];

    pub(crate) fn name(self) -> &'static str {
        match self {
            Self::Variants => "variants",
            Self::Ptms => "ptms",
            Self::Domains => "domains",
            Self::Sites => "sites",
            Self::Isoforms => "isoforms",
            Self::Structures => "structures",
            Self::Comments => "comments",
            Self::Sequence => "sequence",
        }
    }

    /// The feature groups a section lists (domains with the membrane topology).
    pub(crate) fn groups(self) -> &'static [Group] {
        match self {
            Self::Variants => &[Group::Variants],
            Self::Ptms => &[Group::Ptms],
            Self::Domains => &[Group::Domains, Group::Topology],
            Self::Sites => &[Group::Sites],
            Self::Isoforms => &[Group::Isoforms],
            Self::Structures | Self::Comments | Self::Sequence => &[],
        }
    }

    /// The feature types a section lists.
    pub(crate) fn kinds(self) -> impl Iterator<Item = FeatureKind> {
        self.groups().iter().flat_map(|g| g.kinds())
    }
}

/// The most items one section lists; `uniprot_get_features` pages through the rest.
pub(crate) const SECTION_MAX: usize = 200;
/// The most values of one cross-reference list, and of pathways, in the summary.
pub(crate) const LIST_MAX: usize = 10;
/// About how long the function text of the summary is, cut at a sentence's end.
const FUNCTION_MAX: usize = 600;

/// A list cut at [`SECTION_MAX`] items: how many there are, and whether some are left out.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub(crate) struct Section<T> {
    /// How many the entry has.
    pub total: usize,
    /// True when `items` holds only the first of them.
    pub truncated: bool,
    pub items: Vec<T>,
}

impl<T> Section<T> {
    fn of(all: Vec<T>) -> Self {
        let total = all.len();
        let items: Vec<T> = all.into_iter().take(SECTION_MAX).collect();
        Self {
            total,
            truncated: items.len() < total,
            items,
        }
    }
}

/// A UniProtKB entry in brief, and the sections asked for.
#[serde_with::skip_serializing_none]
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub(crate) struct Protein {
    /// The entry's accession, e.g. `P30542`: what `uniprot_get_protein` and
    /// `uniprot_get_features` take.
    pub accession: String,
    /// The entry name, e.g. `AA1R_HUMAN`.
    pub entry_name: Option<String>,
    /// What was asked, when it is not the accession (an entry name, an isoform, a merged
    /// accession).
    pub requested: Option<String>,
    /// What to know about the answer: a merged accession's successor, an isoform.
    pub note: Option<String>,
    /// Reviewed (Swiss-Prot, curated) or not (TrEMBL).
    pub reviewed: Option<bool>,
    /// The recommended name (or, unreviewed, the submitted one).
    pub name: Option<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub alternative_names: Vec<String>,
    /// EC numbers of an enzyme, e.g. `3.1.22.1`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub ec_numbers: Vec<String>,
    /// `Fragment` when the sequence is incomplete, `Precursor`…
    pub flag: Option<String>,
    /// The gene symbol, e.g. `ADORA1`.
    pub gene: Option<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub gene_synonyms: Vec<String>,
    /// E.g. `Homo sapiens`.
    pub organism: Option<String>,
    /// NCBI taxon, e.g. 9606.
    pub taxon_id: Option<u64>,
    /// Residues of the canonical sequence.
    pub length: Option<u32>,
    /// How the protein is known to exist, e.g. `Evidence at protein level`.
    pub existence: Option<String>,
    /// UniProt's annotation score, 1 (basic) to 5 (best annotated).
    pub annotation_score: Option<u8>,
    /// What the protein does, UniProt's text; cut at about 600 characters (ending in
    /// `…`): `include: ["comments"]` gives it whole.
    pub function: Option<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub subcellular_locations: Vec<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub keywords: Vec<String>,
    /// Diseases its variants are involved in.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub diseases: Vec<Disease>,
    /// Features by type, e.g. `{"natural_variant": 6, "binding_site": 3}`:
    /// `uniprot_get_features` lists them.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub feature_counts: BTreeMap<String, u32>,
    /// How many isoforms UniProt describes (the canonical one included).
    pub isoform_count: Option<usize>,
    /// The same protein elsewhere: Ensembl gene, transcripts and protein (unversioned),
    /// HGNC, NCBI Gene, RefSeq proteins, ChEMBL target, STRING, BioGRID, Guide to
    /// Pharmacology, KEGG, OMIM gene, PDB structures (best resolution first), AlphaFold
    /// DB's predicted structure. Lists hold at most 10 values (see
    /// `cross_reference_counts`).
    pub cross_references: CrossReferences,
    /// The full number of values of each `cross_references` list cut to its first 10.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub cross_reference_counts: BTreeMap<String, u32>,
    /// Reactome pathways, the first 10 (`pathway_count` gives how many when cut).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub pathways: Vec<Pathway>,
    pub pathway_count: Option<usize>,
    /// Sections this entry has that `include` can add, e.g. `["variants", "ptms"]`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub more: Vec<String>,
    /// The features of the sections included (`variants`: natural variants; `ptms`:
    /// modified residues, glycosylation, lipidation, cross-links, disulfide bonds;
    /// `domains`: domains, regions, motifs, repeats, zinc fingers, coiled coils and the
    /// membrane topology; `sites`: binding sites with their ligands, active sites, other
    /// sites), by position, the first 200; `uniprot_get_features` pages through all.
    pub features: Option<Section<Feature>>,
    pub isoforms: Option<Vec<IsoformInfo>>,
    /// PDB structures, best resolution first: ID, method, resolution, chains, e.g.
    /// `5UEN: X-ray, 3.2 Å, A/B=2-211, A/B=228-311`.
    pub structures: Option<Section<String>>,
    /// UniProt's annotation in full: function, subunit, tissue specificity, PTM,
    /// catalytic activity, diseases…
    pub comments: Option<Vec<CommentText>>,
    /// The canonical sequence, one letter per residue.
    pub sequence: Option<String>,
}

/// One isoform UniProt describes.
#[serde_with::skip_serializing_none]
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub(crate) struct IsoformInfo {
    /// Its accession, e.g. `O00115-2`.
    pub id: String,
    /// UniProt's name of it, e.g. `2`.
    pub name: Option<String>,
    /// True for the canonical isoform, whose sequence the entry's positions are on.
    pub canonical: bool,
    /// How it differs from the canonical sequence, e.g. `116-170: missing`,
    /// `269-326: YKMVVTPRRAA>RISQCMASTKS`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub differences: Vec<String>,
}

/// A comment of the entry, as text.
#[serde_with::skip_serializing_none]
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub(crate) struct CommentText {
    /// UniProt's comment type, e.g. `FUNCTION`, `SUBUNIT`, `CATALYTIC ACTIVITY`.
    #[serde(rename = "type")]
    pub kind: String,
    /// The chain or isoform it is about, when not the whole protein.
    pub molecule: Option<String>,
    pub text: String,
}

/// `text` cut at the end of a sentence before about `max` characters (or at `max` when
/// no sentence ends early enough), with `…` when cut.
fn cut(text: &str, max: usize) -> String {
    let Some((limit, _)) = text.char_indices().nth(max) else {
        return text.to_owned();
    };
    let head = &text[..limit];
    let end = head
        .rfind(". ")
        .filter(|at| *at > max / 2)
        .map_or(limit, |at| at + 1);
    format!("{} …", head[..end].trim_end())
}

/// The texts of a comment joined; a catalytic activity as its reaction and EC number.
fn comment_text(c: &Comment) -> Option<String> {
    let mut parts: Vec<String> = c
        .texts
        .iter()
        .map(|t| t.value.trim().to_owned())
        .filter(|t| !t.is_empty())
        .collect();
    if let Some(d) = &c.disease {
        let named = [d.disease_id.as_deref(), d.description.as_deref()];
        parts.extend(named.into_iter().flatten().map(str::to_owned));
    }
    if let Some(r) = &c.reaction {
        parts.extend(r.name.clone());
        parts.extend(r.ec_number.as_ref().map(|ec| format!("EC {ec}")));
    }
    for l in &c.subcellular_locations {
        parts.extend(l.location.as_ref().map(|v| v.value.clone()));
    }
    if let Some(note) = &c.note {
        parts.extend(note.texts().into_iter().map(str::to_owned));
    }
    let text = parts.join(". ").replace("..", ".");
    (!text.is_empty()).then_some(text)
}

/// The entry's name parts: recommended (or submitted) name, alternative names, EC
/// numbers, flag.
fn names(entry: &Entry) -> (Option<String>, Vec<String>, Vec<String>, Option<String>) {
    let Some(d) = &entry.protein_description else {
        return (None, Vec::new(), Vec::new(), None);
    };
    let main = d
        .recommended_name
        .as_ref()
        .or_else(|| d.submission_names.first());
    let full = |n: &crate::models::ProteinName| n.full_name.as_ref().map(|f| f.value.clone());
    let name = main.and_then(full);
    let alternatives = d.alternative_names.iter().filter_map(full).collect();
    let ec = main
        .map(|m| m.ec_numbers.iter().map(|e| e.value.clone()).collect())
        .unwrap_or_default();
    (name, alternatives, ec, d.flag.clone())
}

/// The gene symbol (or locus or ORF name) and its synonyms.
pub(crate) fn gene(entry: &Entry) -> (Option<String>, Vec<String>) {
    let Some(g) = entry.genes.first() else {
        return (None, Vec::new());
    };
    let symbol = g
        .gene_name
        .as_ref()
        .or_else(|| g.ordered_locus_names.first())
        .or_else(|| g.orf_names.first())
        .map(|v| v.value.clone());
    (symbol, g.synonyms.iter().map(|s| s.value.clone()).collect())
}

/// `1: Evidence at protein level` → `Evidence at protein level`.
fn existence(raw: &str) -> String {
    match raw.split_once(": ") {
        Some((level, text)) if level.bytes().all(|b| b.is_ascii_digit()) => text.to_owned(),
        _ => raw.to_owned(),
    }
}

/// The summary's function: the whole-protein `FUNCTION` comment (else the first), cut.
fn function(entry: &Entry) -> Option<String> {
    let functions: Vec<&Comment> = entry.comments_of("FUNCTION").collect();
    let main = functions
        .iter()
        .find(|c| c.molecule.is_none())
        .or_else(|| functions.first())?;
    comment_text(main).map(|t| cut(&t, FUNCTION_MAX))
}

/// Features by type: UniProt's counts when sent, else the features themselves counted.
fn feature_counts(entry: &Entry) -> BTreeMap<String, u32> {
    if let Some(x) = &entry.extra_attributes
        && !x.count_by_feature_type.is_empty()
    {
        return feature::counts(&x.count_by_feature_type);
    }
    let mut by_type = BTreeMap::new();
    for f in &entry.features {
        *by_type.entry(f.kind.clone()).or_insert(0) += 1;
    }
    feature::counts(&by_type)
}

/// The entry in brief, with the sections of `include` (which must have been asked of
/// UniProt: see `client::Parts`).
pub(crate) fn protein(entry: &Entry, include: &[Include]) -> Protein {
    let (name, alternative_names, ec_numbers, flag) = names(entry);
    let (gene, gene_synonyms) = gene(entry);
    let organism = entry.organism.as_ref();
    let mut locations: Vec<String> = Vec::new();
    for c in entry.comments_of("SUBCELLULAR LOCATION") {
        for l in c
            .subcellular_locations
            .iter()
            .filter_map(|l| l.location.as_ref())
        {
            if !locations.contains(&l.value) {
                locations.push(l.value.clone());
            }
        }
    }
    let isoforms: Vec<&crate::models::Isoform> = entry
        .comments_of("ALTERNATIVE PRODUCTS")
        .flat_map(|c| &c.isoforms)
        .collect();
    let (cross_references, cross_reference_counts) = xrefs::cross_references(entry, LIST_MAX);
    let all_pathways = xrefs::pathways(entry);
    let pathway_count = (all_pathways.len() > LIST_MAX).then_some(all_pathways.len());
    let feature_counts = feature_counts(entry);
    let mut p = Protein {
        accession: entry.primary_accession.clone(),
        entry_name: entry.uni_protkb_id.clone(),
        requested: None,
        note: None,
        reviewed: entry.reviewed(),
        name,
        alternative_names,
        ec_numbers,
        flag,
        gene,
        gene_synonyms,
        organism: organism.and_then(|o| o.scientific_name.clone()),
        taxon_id: organism.and_then(|o| o.taxon_id),
        length: entry.sequence.as_ref().and_then(|s| s.length),
        existence: entry.protein_existence.as_deref().map(existence),
        annotation_score: entry
            .annotation_score
            .filter(|s| (1.0..=5.0).contains(s))
            .map(|s| s.round() as u8),
        function: function(entry),
        subcellular_locations: locations,
        keywords: entry
            .keywords
            .iter()
            .filter_map(|k| k.name.clone())
            .collect(),
        diseases: Diseases::of(entry).list().to_vec(),
        isoform_count: (!isoforms.is_empty()).then_some(isoforms.len()),
        cross_references,
        cross_reference_counts,
        pathways: all_pathways.into_iter().take(LIST_MAX).collect(),
        pathway_count,
        more: Vec::new(),
        feature_counts,
        features: None,
        isoforms: None,
        structures: None,
        comments: None,
        sequence: None,
    };
    add_sections(&mut p, entry, include);
    p
}

/// The sections of `include`, and the list of those the entry has that were not asked.
fn add_sections(p: &mut Protein, entry: &Entry, include: &[Include]) {
    let diseases = Diseases::of(entry);
    let counted = |section: Include| {
        section
            .kinds()
            .map(|k| p.feature_counts.get(k.name()).copied().unwrap_or(0))
            .sum::<u32>()
            > 0
    };
    let mut more = Vec::new();
    for section in Include::ALL {
        let has = match section {
            Include::Variants | Include::Ptms | Include::Domains | Include::Sites => {
                counted(section)
            }
            Include::Isoforms => p.isoform_count.is_some_and(|n| n > 1),
            Include::Structures => entry.xrefs("PDB").next().is_some(),
            Include::Comments => {
                !entry.comments.is_empty()
                    || entry
                        .extra_attributes
                        .as_ref()
                        .is_some_and(|x| !x.count_by_comment_type.is_empty())
            }
            Include::Sequence => true,
        };
        if has && !include.contains(&section) {
            more.push(section.name().to_owned());
        }
    }
    p.more = more;
    let kinds: Vec<FeatureKind> = include
        .iter()
        .filter(|i| **i != Include::Isoforms)
        .flat_map(|i| i.kinds())
        .collect();
    if !kinds.is_empty() {
        let mut all: Vec<Feature> = entry
            .features
            .iter()
            .filter(|f| FeatureKind::of_uniprot(&f.kind).is_some_and(|k| kinds.contains(&k)))
            .map(|f| feature::feature(f, &diseases))
            .collect();
        all.sort_by_key(|f| (f.start.unwrap_or(u32::MAX), f.end));
        p.features = Some(Section::of(all));
    }
    for section in include {
        match section {
            Include::Isoforms => p.isoforms = Some(isoforms(entry, &diseases)),
            Include::Structures => {
                let shown = xrefs::structures(entry)
                    .iter()
                    .map(Structure::shown)
                    .collect();
                p.structures = Some(Section::of(shown));
            }
            Include::Comments => {
                p.comments = Some(
                    entry
                        .comments
                        .iter()
                        .filter_map(|c| {
                            Some(CommentText {
                                kind: c.comment_type.clone()?,
                                molecule: c.molecule.clone(),
                                text: comment_text(c)?,
                            })
                        })
                        .collect(),
                );
            }
            Include::Sequence => {
                p.sequence = entry.sequence.as_ref().and_then(|s| s.value.clone());
            }
            Include::Variants | Include::Ptms | Include::Domains | Include::Sites => {}
        }
    }
}

/// An isoform's difference from the canonical sequence: `116-170: missing`.
fn difference(f: &Feature) -> String {
    let at = match (f.start, f.end) {
        (Some(s), Some(e)) if s != e => format!("{s}-{e}"),
        (Some(s), _) | (None, Some(s)) => s.to_string(),
        (None, None) => "?".to_owned(),
    };
    let what = f
        .change
        .clone()
        .or_else(|| f.description.clone())
        .unwrap_or_else(|| "differs".to_owned());
    format!("{at}: {what}")
}

/// The isoforms of `ALTERNATIVE PRODUCTS`, each with the features that make it.
fn isoforms(entry: &Entry, diseases: &Diseases) -> Vec<IsoformInfo> {
    let alternatives: Vec<&crate::models::Feature> = entry
        .features
        .iter()
        .filter(|f| FeatureKind::of_uniprot(&f.kind).is_some_and(|k| k.group() == Group::Isoforms))
        .collect();
    entry
        .comments_of("ALTERNATIVE PRODUCTS")
        .flat_map(|c| &c.isoforms)
        .filter_map(|i| {
            Some(IsoformInfo {
                id: i.isoform_ids.first()?.clone(),
                name: i.name.as_ref().map(|n| n.value.clone()),
                canonical: i.isoform_sequence_status.as_deref() == Some("Displayed"),
                differences: alternatives
                    .iter()
                    .filter(|f| {
                        f.feature_id
                            .as_ref()
                            .is_some_and(|id| i.sequence_ids.contains(id))
                    })
                    .map(|f| difference(&feature::feature(f, diseases)))
                    .collect(),
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::models::tests::entry;

    fn compact(file: &str) -> (Protein, usize) {
        let p = protein(&entry(file), &[]);
        let size = serde_json::to_string(&p).unwrap().len();
        (p, size)
    }

    #[test]
    fn the_compact_record_of_ordinary_human_entries_stays_under_4_kb() {
        for file in ["uniprotkb__O00115.json", "uniprotkb__P30542.json"] {
            let (_, size) = compact(file);
            assert!(size <= 4096, "{file}: {size} bytes");
        }
    }

    #[test]
    fn o00115_in_brief() {
        let (p, _) = compact("uniprotkb__O00115.json");
        assert_eq!(p.accession, "O00115");
        assert_eq!(p.entry_name.as_deref(), Some("DNS2A_HUMAN"));
        assert_eq!(p.reviewed, Some(true));
        assert_eq!(p.name.as_deref(), Some("Deoxyribonuclease-2-alpha"));
        assert_eq!(p.ec_numbers, ["3.1.22.1"]);
        assert_eq!(p.flag.as_deref(), Some("Precursor"));
        assert_eq!(p.gene.as_deref(), Some("DNASE2"));
        assert_eq!(p.gene_synonyms, ["DNASE2A", "DNL2"]);
        assert_eq!(
            (p.organism.as_deref(), p.taxon_id),
            (Some("Homo sapiens"), Some(9606))
        );
        assert_eq!(p.length, Some(360));
        assert_eq!(p.existence.as_deref(), Some("Evidence at protein level"));
        assert_eq!(p.annotation_score, Some(5));
        assert_eq!(p.subcellular_locations, ["Lysosome"]);
        assert_eq!(p.diseases[0].acronym.as_deref(), Some("AIPCS"));
        assert_eq!(p.diseases[0].omim.as_deref(), Some("619858"));
        assert_eq!(p.feature_counts["natural_variant"], 6);
        assert_eq!(p.isoform_count, Some(2));
        assert_eq!(p.pathways[0].id, "R-HSA-432720");
        assert_eq!(
            p.more,
            [
                "variants", "ptms", "sites", "isoforms", "comments", "sequence"
            ]
        );
        assert!(p.features.is_none() && p.sequence.is_none());
        let function = p.function.unwrap();
        assert!(
            function.starts_with("Hydrolyzes DNA under acidic conditions"),
            "{function}"
        );
    }

    #[test]
    fn an_unreviewed_entry_is_named_by_its_submission_and_orf() {
        let (p, _) = compact("uniprotkb__A8Y1C3.json");
        assert_eq!(p.reviewed, Some(false));
        assert_eq!(p.name.as_deref(), Some("Protein CBG22016"));
        assert_eq!(p.gene.as_deref(), Some("CBG22016"));
        assert_eq!(p.annotation_score, Some(1));
        assert_eq!(p.existence.as_deref(), Some("Predicted"));
        assert!(p.diseases.is_empty() && p.function.is_none());
        // It has no comments to offer.
        assert_eq!(p.more, ["sequence"]);
    }

    #[test]
    fn sections_come_on_request_and_say_whether_they_are_whole() {
        let e = entry("uniprotkb__P30542.json");
        let p = protein(
            &e,
            &[
                Include::Variants,
                Include::Domains,
                Include::Isoforms,
                Include::Structures,
                Include::Sequence,
            ],
        );
        let features = p.features.unwrap();
        // 6 natural variants, 8 topological domains and 7 transmembrane helices.
        assert_eq!((features.total, features.truncated), (21, false));
        let helices = features.items.iter().filter(|f| f.kind == "transmembrane");
        assert_eq!(helices.count(), 7);
        let starts: Vec<u32> = features.items.iter().filter_map(|f| f.start).collect();
        assert!(starts.is_sorted(), "{starts:?}");
        let isoforms = p.isoforms.unwrap();
        assert_eq!(isoforms.len(), 2);
        assert!(isoforms[0].canonical && !isoforms[1].canonical);
        assert_eq!(isoforms[1].differences.len(), 2);
        assert_eq!(
            isoforms[1].differences,
            ["115-125: YKMVVTPRRAA>RISQCMASTKS", "126-326: missing"]
        );
        assert_eq!(
            p.structures.unwrap().items[0],
            "5UEN: X-ray, 3.2 Å, A/B=2-211, A/B=228-311"
        );
        assert_eq!(p.sequence.unwrap().len(), 326);
        assert!(!p.more.contains(&"variants".to_owned()));
        assert!(p.more.contains(&"comments".to_owned()));
    }

    #[test]
    fn comments_read_as_text_with_their_molecule() {
        let e = entry("uniprotkb__O00115.json");
        let comments = protein(&e, &[Include::Comments]).comments.unwrap();
        let catalytic = comments
            .iter()
            .find(|c| c.kind == "CATALYTIC ACTIVITY")
            .unwrap();
        assert!(
            catalytic.text.ends_with("EC 3.1.22.1"),
            "{}",
            catalytic.text
        );
        let disease = comments.iter().find(|c| c.kind == "DISEASE").unwrap();
        assert!(
            disease
                .text
                .starts_with("Autoinflammatory-pancytopenia syndrome. An autosomal")
        );
    }

    #[test]
    fn long_texts_are_cut_at_a_sentence() {
        let text = "First sentence is here. ".repeat(40);
        let short = cut(&text, 600);
        assert!(
            short.ends_with(". …") && short.chars().count() < 610,
            "{short}"
        );
        assert_eq!(cut("short.", 600), "short.");
    }
}
