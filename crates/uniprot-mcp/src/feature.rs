//! Sequence features as the tools return them: the feature types (`FeatureKind`, UniProt's
//! names in snake case, and the groups a caller may ask for), and the mapping of a
//! UniProt feature ([`Feature`]): 1-based inclusive positions as UniProt gives them, a
//! natural variant's disease named in full from the entry's `DISEASE` comments (UniProt
//! writes only the acronym in the feature), its dbSNP ID, a binding site's ligand, and
//! evidence as ECO codes with PubMed IDs.

use std::collections::BTreeMap;

use lifesciences_core::ApiError;
use lifesciences_core::schemars::{self, JsonSchema};
use serde::Serialize;

use crate::disease::Diseases;
use crate::models::{self, Evidence};

/// A feature type: our name (UniProt's, snake case) and UniProt's `type` in its JSON.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) struct FeatureKind(usize);

/// A group of feature types a caller asks for by one name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Group {
    Variants,
    Mutagenesis,
    Ptms,
    Domains,
    Sites,
    Topology,
    Processing,
    Isoforms,
    Structure,
    SequenceIssues,
}

impl Group {
    pub(crate) const ALL: [Group; 10] = [
        Group::Variants,
        Group::Mutagenesis,
        Group::Ptms,
        Group::Domains,
        Group::Sites,
        Group::Topology,
        Group::Processing,
        Group::Isoforms,
        Group::Structure,
        Group::SequenceIssues,
    ];

    pub(crate) fn name(self) -> &'static str {
        match self {
            Self::Variants => "variants",
            Self::Mutagenesis => "mutagenesis",
            Self::Ptms => "ptms",
            Self::Domains => "domains",
            Self::Sites => "sites",
            Self::Topology => "topology",
            Self::Processing => "processing",
            Self::Isoforms => "isoforms",
            Self::Structure => "structure",
            Self::SequenceIssues => "sequence_issues",
        }
    }

    /// The groups listed when a caller names none: all but secondary structure (helices,
    /// strands and turns of solved structures) and sequence conflicts or uncertainties.
    pub(crate) fn default_set() -> Vec<Group> {
        Self::ALL
            .into_iter()
            .filter(|g| !matches!(g, Self::Structure | Self::SequenceIssues))
            .collect()
    }

    /// The feature types of this group.
    pub(crate) fn kinds(self) -> impl Iterator<Item = FeatureKind> {
        KINDS
            .iter()
            .enumerate()
            .filter(move |(_, (_, _, group))| *group == self)
            .map(|(i, _)| FeatureKind(i))
    }
}

/// Every feature type: our name, UniProt's `type` (the names recorded in entries, and
/// the labels of UniProt's `ft_*` return fields for those no recording shows), its group.
const KINDS: [(&str, &str, Group); 35] = [
    ("natural_variant", "Natural variant", Group::Variants),
    ("mutagenesis", "Mutagenesis", Group::Mutagenesis),
    ("modified_residue", "Modified residue", Group::Ptms),
    ("glycosylation", "Glycosylation", Group::Ptms),
    ("lipidation", "Lipidation", Group::Ptms),
    ("cross_link", "Cross-link", Group::Ptms),
    ("disulfide_bond", "Disulfide bond", Group::Ptms),
    ("domain", "Domain", Group::Domains),
    ("region", "Region", Group::Domains),
    ("motif", "Motif", Group::Domains),
    ("repeat", "Repeat", Group::Domains),
    ("zinc_finger", "Zinc finger", Group::Domains),
    ("dna_binding", "DNA binding", Group::Domains),
    ("coiled_coil", "Coiled coil", Group::Domains),
    ("compositional_bias", "Compositional bias", Group::Domains),
    ("binding_site", "Binding site", Group::Sites),
    ("active_site", "Active site", Group::Sites),
    ("site", "Site", Group::Sites),
    ("topological_domain", "Topological domain", Group::Topology),
    ("transmembrane", "Transmembrane", Group::Topology),
    ("intramembrane", "Intramembrane", Group::Topology),
    ("signal", "Signal", Group::Processing),
    ("chain", "Chain", Group::Processing),
    ("peptide", "Peptide", Group::Processing),
    ("propeptide", "Propeptide", Group::Processing),
    ("transit_peptide", "Transit peptide", Group::Processing),
    (
        "initiator_methionine",
        "Initiator methionine",
        Group::Processing,
    ),
    (
        "alternative_sequence",
        "Alternative sequence",
        Group::Isoforms,
    ),
    ("helix", "Helix", Group::Structure),
    ("beta_strand", "Beta strand", Group::Structure),
    ("turn", "Turn", Group::Structure),
    (
        "sequence_conflict",
        "Sequence conflict",
        Group::SequenceIssues,
    ),
    (
        "sequence_uncertainty",
        "Sequence uncertainty",
        Group::SequenceIssues,
    ),
    (
        "non_standard_residue",
        "Non-standard residue",
        Group::SequenceIssues,
    ),
    (
        "non_terminal_residue",
        "Non-terminal residue",
        Group::SequenceIssues,
    ),
];

impl FeatureKind {
    pub(crate) fn all() -> impl Iterator<Item = FeatureKind> {
        (0..KINDS.len()).map(FeatureKind)
    }

    pub(crate) fn name(self) -> &'static str {
        KINDS[self.0].0
    }

    /// UniProt's `type` of this kind in its JSON.
    pub(crate) fn uniprot(self) -> &'static str {
        KINDS[self.0].1
    }

    pub(crate) fn group(self) -> Group {
        KINDS[self.0].2
    }

    /// The kind UniProt's `type` names, any case.
    pub(crate) fn of_uniprot(kind: &str) -> Option<FeatureKind> {
        Self::all().find(|k| k.uniprot().eq_ignore_ascii_case(kind.trim()))
    }
}

/// Our name for UniProt's feature `type`: the kind's, or UniProt's own in snake case for
/// a type this server does not know yet.
pub(crate) fn kind_name(uniprot: &str) -> String {
    match FeatureKind::of_uniprot(uniprot) {
        Some(kind) => kind.name().to_owned(),
        None => snake(uniprot),
    }
}

fn snake(s: &str) -> String {
    s.trim()
        .to_ascii_lowercase()
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect()
}

/// The feature types `types` names: groups (`ptms`), types (`binding_site`, or UniProt's
/// own spelling `Binding site`), in any case. An unknown name is `INVALID_INPUT` listing
/// both.
pub(crate) fn parse_types(types: &[String]) -> Result<Vec<FeatureKind>, ApiError> {
    let mut kinds: Vec<FeatureKind> = Vec::new();
    for raw in types {
        let wanted = snake(raw);
        let found: Vec<FeatureKind> =
            if let Some(group) = Group::ALL.into_iter().find(|g| g.name() == wanted) {
                group.kinds().collect()
            } else if let Some(kind) = FeatureKind::all().find(|k| k.name() == wanted) {
                vec![kind]
            } else {
                return Err(ApiError::invalid_input(
                    format!("'{raw}' is not a UniProt feature type or group."),
                    format!(
                        "Use groups ({}) or types ({}).",
                        Group::ALL.map(Group::name).join(", "),
                        FeatureKind::all()
                            .map(FeatureKind::name)
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                    raw.clone(),
                ));
            };
        for kind in found {
            if !kinds.contains(&kind) {
                kinds.push(kind);
            }
        }
    }
    Ok(kinds)
}

/// A sequence feature.
#[serde_with::skip_serializing_none]
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub(crate) struct Feature {
    /// The feature type, e.g. `natural_variant`, `binding_site`, `modified_residue`.
    #[serde(rename = "type")]
    pub kind: String,
    /// First residue, 1-based, on the canonical sequence.
    pub start: Option<u32>,
    /// Last residue, inclusive (equal to `start` for one residue; for a disulfide bond
    /// the two bonded cysteines are `start` and `end`).
    pub end: Option<u32>,
    /// True when UniProt marks a position as approximate or unknown.
    pub approximate: Option<bool>,
    /// UniProt's description, without the disease acronym and the dbSNP ID given below.
    pub description: Option<String>,
    /// UniProt's feature ID, e.g. `VAR_087103`.
    pub id: Option<String>,
    /// Residue change, original>replacement (`Y>C`); `missing` for a span an isoform lacks.
    pub change: Option<String>,
    /// Diseases this variant is found in, named in full with UniProt's acronym, e.g.
    /// `Autoinflammatory-pancytopenia syndrome (AIPCS)`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub diseases: Vec<String>,
    /// The variant's dbSNP ID, e.g. `rs201030953`.
    pub dbsnp: Option<String>,
    /// What a binding site binds, with its ChEBI ID, e.g. `a divalent metal cation
    /// (CHEBI:60240)`.
    pub ligand: Option<String>,
    /// Evidence: ECO code, and the PubMed IDs or other sources behind it.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub evidence: Vec<EvidenceItem>,
}

/// One kind of evidence behind a feature.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub(crate) struct EvidenceItem {
    /// Evidence and Conclusion Ontology code, e.g. `ECO:0000269` (experimental).
    pub code: String,
    /// PubMed IDs of the publications.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub pubmed: Vec<String>,
    /// Other sources, as `database:id`, e.g. `PDB:6N1B`, `UniProtKB:P12345`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub sources: Vec<String>,
}

/// What the ECO codes UniProt uses mean (<https://www.uniprot.org/help/evidences>).
const ECO_MEANINGS: [(&str, &str); 8] = [
    ("ECO:0000269", "experimental evidence"),
    ("ECO:0000255", "sequence analysis"),
    ("ECO:0000303", "author statement without traceable evidence"),
    ("ECO:0000305", "curator inference"),
    ("ECO:0000250", "by similarity to another entry"),
    ("ECO:0000312", "imported from another database"),
    ("ECO:0000313", "imported from another database"),
    ("ECO:0007744", "combinatorial evidence (e.g. a structure)"),
];

/// The meanings of the ECO codes `features` cite, for a legend.
pub(crate) fn eco_legend(features: &[Feature]) -> BTreeMap<String, String> {
    let mut legend = BTreeMap::new();
    for item in features.iter().flat_map(|f| &f.evidence) {
        if let Some((_, meaning)) = ECO_MEANINGS.iter().find(|(code, _)| *code == item.code) {
            legend.insert(item.code.clone(), (*meaning).to_owned());
        }
    }
    legend
}

/// Evidence grouped by ECO code, in UniProt's order: PubMed IDs apart, other sources as
/// `database:id`.
pub(crate) fn evidence(evidences: &[Evidence]) -> Vec<EvidenceItem> {
    let mut items: Vec<EvidenceItem> = Vec::new();
    for e in evidences {
        let Some(code) = e
            .evidence_code
            .as_deref()
            .map(str::trim)
            .filter(|c| !c.is_empty())
        else {
            continue;
        };
        let at = match items.iter().position(|i| i.code == code) {
            Some(at) => at,
            None => {
                items.push(EvidenceItem {
                    code: code.to_owned(),
                    pubmed: Vec::new(),
                    sources: Vec::new(),
                });
                items.len() - 1
            }
        };
        let item = &mut items[at];
        match (e.source.as_deref(), e.id.as_deref()) {
            (Some("PubMed"), Some(id)) if !item.pubmed.iter().any(|p| p == id) => {
                item.pubmed.push(id.to_owned());
            }
            (Some("PubMed"), _) | (None, _) | (_, None) => {}
            (Some(source), Some(id)) => {
                let shown = format!("{source}:{id}");
                if !item.sources.contains(&shown) {
                    item.sources.push(shown);
                }
            }
        }
    }
    items
}

/// The longest residue string shown in a `change`, past which it is cut with `…`.
const CHANGE_MAX: usize = 30;

fn residues(s: &str) -> String {
    match s.char_indices().nth(CHANGE_MAX) {
        Some((end, _)) => format!("{}…", &s[..end]),
        None => s.to_owned(),
    }
}

/// UniProt's feature as this server returns it, the diseases of its entry naming the
/// acronyms of a variant's description.
pub(crate) fn feature(f: &models::Feature, diseases: &Diseases) -> Feature {
    let (start, end, exact) = match &f.location {
        Some(l) => (
            l.start.as_ref().and_then(|p| p.value),
            l.end.as_ref().and_then(|p| p.value),
            l.start.as_ref().is_some_and(models::Position::is_exact)
                && l.end.as_ref().is_some_and(models::Position::is_exact),
        ),
        None => (None, None, false),
    };
    let dbsnp = f
        .feature_cross_references
        .iter()
        .find(|x| x.database.as_deref() == Some("dbSNP"))
        .and_then(|x| x.id.clone());
    let text = f.description.as_deref().unwrap_or_default();
    let (named, description) = diseases.read_variant(text);
    // `{}` is a span missing from an isoform (recorded: VSP_034402 of P30542, residues
    // 126-326 "in isoform 2"); `alternativeSequences: []` a deletion.
    let change = f.alternative_sequence.as_ref().map(|a| {
        let replacement = if a.alternative_sequences.is_empty() {
            "missing".to_owned()
        } else {
            a.alternative_sequences
                .iter()
                .map(|s| residues(s))
                .collect::<Vec<_>>()
                .join("/")
        };
        match a.original_sequence.as_deref() {
            Some(original) => format!("{}>{replacement}", residues(original)),
            None => replacement,
        }
    });
    Feature {
        kind: kind_name(&f.kind),
        start,
        end,
        approximate: (!exact).then_some(true),
        description,
        id: f.feature_id.clone().filter(|id| !id.trim().is_empty()),
        change,
        diseases: named,
        dbsnp,
        ligand: f.ligand.as_ref().and_then(|l| {
            let chebi =
                l.id.as_deref()
                    .map(|id| id.strip_prefix("ChEBI:").unwrap_or(id));
            match (l.name.as_deref(), chebi) {
                (Some(name), Some(id)) => Some(format!("{name} ({id})")),
                (Some(one), None) | (None, Some(one)) => Some(one.to_owned()),
                (None, None) => None,
            }
        }),
        evidence: evidence(&f.evidences),
    }
}

/// Whether feature `f` covers any residue of `from..=to`. A disulfide bond or a
/// cross-link joins its two residues, `start` and `end`, not the span between them.
pub(crate) fn overlaps(f: &Feature, from: u32, to: u32) -> bool {
    if matches!(f.kind.as_str(), "disulfide_bond" | "cross_link") {
        return [f.start, f.end]
            .into_iter()
            .flatten()
            .any(|at| (from..=to).contains(&at));
    }
    match (f.start, f.end) {
        (Some(start), Some(end)) => start <= to && end >= from,
        (Some(at), None) | (None, Some(at)) => (from..=to).contains(&at),
        (None, None) => false,
    }
}

/// How many features of each type, by our names, from UniProt's counts by its `type`.
pub(crate) fn counts(by_uniprot_type: &BTreeMap<String, u32>) -> BTreeMap<String, u32> {
    let mut counts = BTreeMap::new();
    for (kind, n) in by_uniprot_type {
        *counts.entry(kind_name(kind)).or_insert(0) += n;
    }
    counts
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::models::tests::entry;

    fn o00115() -> (Vec<Feature>, models::Entry) {
        let e = entry("uniprotkb__O00115.json");
        let diseases = Diseases::of(&e);
        (
            e.features.iter().map(|f| feature(f, &diseases)).collect(),
            e,
        )
    }

    #[test]
    fn a_disease_variant_names_its_disease_in_full_with_its_evidence() {
        let (features, _) = o00115();
        let v = features
            .iter()
            .find(|f| f.id.as_deref() == Some("VAR_087103"))
            .unwrap();
        assert_eq!(v.kind, "natural_variant");
        assert_eq!((v.start, v.end, v.approximate), (Some(95), Some(95), None));
        assert_eq!(v.change.as_deref(), Some("Y>C"));
        assert_eq!(
            v.diseases,
            ["Autoinflammatory-pancytopenia syndrome (AIPCS)"]
        );
        assert_eq!(v.dbsnp.as_deref(), Some("rs201030953"));
        let text = v.description.as_deref().unwrap();
        assert!(
            text.starts_with("complete loss of DNase activity"),
            "{text}"
        );
        assert!(!text.contains("AIPCS") && !text.contains("dbSNP"), "{text}");
        assert_eq!(
            v.evidence,
            [EvidenceItem {
                code: "ECO:0000269".into(),
                pubmed: vec!["31775019".into()],
                sources: vec![]
            }]
        );
        // Three of the six variants are in AIPCS; a polymorphism keeps no description.
        let in_aipcs = features.iter().filter(|f| !f.diseases.is_empty()).count();
        assert_eq!(in_aipcs, 3);
        let polymorphism = features
            .iter()
            .find(|f| f.id.as_deref() == Some("VAR_048870"))
            .unwrap();
        assert_eq!(polymorphism.description, None);
        assert_eq!(polymorphism.dbsnp.as_deref(), Some("rs36075196"));
    }

    #[test]
    fn positions_are_uniprot_s_one_based_inclusive_ones() {
        let (features, _) = o00115();
        let signal = features.iter().find(|f| f.kind == "signal").unwrap();
        assert_eq!((signal.start, signal.end), (Some(1), Some(18)));
        let bond = features
            .iter()
            .find(|f| f.kind == "disulfide_bond")
            .unwrap();
        assert_eq!((bond.start, bond.end), (Some(19), Some(159)));
        // An empty feature ID and description are omitted, not empty strings.
        let glyco = features.iter().find(|f| f.kind == "glycosylation").unwrap();
        assert_eq!(glyco.id, None);
        assert!(overlaps(bond, 159, 159) && overlaps(bond, 1, 19) && !overlaps(bond, 160, 170));
        // A bond is at its two cysteines, not between them.
        assert!(!overlaps(bond, 95, 95));
        // A deleted span in an isoform is `missing`.
        let vsp = features
            .iter()
            .find(|f| f.kind == "alternative_sequence")
            .unwrap();
        assert_eq!(vsp.description.as_deref(), Some("in isoform 2"));
        assert_eq!(vsp.change.as_deref(), Some("missing"));
    }

    #[test]
    fn a_binding_site_gives_its_ligand_and_every_source() {
        let e = entry("uniprotkb__P0DTR4.json");
        let diseases = Diseases::of(&e);
        let site = e
            .features
            .iter()
            .map(|f| feature(f, &diseases))
            .find(|f| f.ligand.as_deref() == Some("a divalent metal cation (CHEBI:60240)"))
            .unwrap();
        assert_eq!(site.kind, "binding_site");
        assert_eq!(site.start, Some(126));
        assert_eq!(site.evidence[0].pubmed, ["31182795"]);
        assert_eq!(site.evidence[1].code, "ECO:0007744");
        assert_eq!(site.evidence[1].sources, ["PDB:6N1A", "PDB:6N1B"]);
        let legend = eco_legend(std::slice::from_ref(&site));
        assert_eq!(
            legend["ECO:0007744"],
            "combinatorial evidence (e.g. a structure)"
        );
    }

    #[test]
    fn types_are_read_as_groups_or_types_in_any_spelling() {
        let names = |raw: &[&str]| {
            let raw: Vec<String> = raw.iter().map(|s| (*s).to_owned()).collect();
            parse_types(&raw).map(|k| k.into_iter().map(FeatureKind::name).collect::<Vec<_>>())
        };
        assert_eq!(
            names(&["ptms"]).unwrap(),
            [
                "modified_residue",
                "glycosylation",
                "lipidation",
                "cross_link",
                "disulfide_bond"
            ]
        );
        assert_eq!(
            names(&["Binding site", "binding_site", "NATURAL_VARIANT"]).unwrap(),
            ["binding_site", "natural_variant"]
        );
        let err = names(&["phosphosite"]).unwrap_err().to_envelope().error;
        assert!(err.recovery_hint.contains("sites") && err.recovery_hint.contains("binding_site"));
        // Every UniProt type recorded in the fixtures has a kind of its own.
        for file in [
            "uniprotkb__O00115.json",
            "uniprotkb__P30542.json",
            "uniprotkb__P0DTR4.json",
        ] {
            for f in entry(file).features {
                assert!(FeatureKind::of_uniprot(&f.kind).is_some(), "{}", f.kind);
            }
        }
        assert_eq!(kind_name("Some new type"), "some_new_type");
    }

    #[test]
    fn counts_use_our_names() {
        let (_, e) = o00115();
        let counts = counts(&e.extra_attributes.unwrap().count_by_feature_type);
        assert_eq!(counts["natural_variant"], 6);
        assert_eq!(counts["mutagenesis"], 13);
        assert_eq!(counts["signal"], 1);
    }
}
