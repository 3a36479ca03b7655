//! The parts of an entry each tool reads, as UniProt's return fields
//! (<https://www.uniprot.org/help/return_fields>; the names are those
//! `GET /configure/uniprotkb/result-fields` lists, kept in
//! `tests/fixtures/configure_uniprotkb_result-fields__names.json`). UniProt then sends only
//! those parts of an entry (and its accession), not the whole of it: 45–137 KB for
//! ordinary human proteins, mostly references and cross-references no tool reads.

use crate::feature::FeatureKind;

/// The parts of an entry a tool reads, each one or more of UniProt's return fields
/// (<https://www.uniprot.org/help/return_fields>): UniProt then sends only those parts
/// (and the accession), not the whole entry (45–137 KB for ordinary human proteins).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Parts {
    /// Names, organism, existence, score, function, location, diseases, isoforms,
    /// keywords, feature counts and the cross-references read.
    pub summary: bool,
    /// Every free-text and structured comment (function, subunit, tissue specificity…).
    pub comments: bool,
    /// The `DISEASE` comments only, to name the diseases of variants.
    pub diseases: bool,
    /// The sequence itself.
    pub sequence: bool,
    /// The features of these types.
    pub features: Vec<FeatureKind>,
}

/// What every request of an entry asks: the accession (always sent), the entry name,
/// whether it is reviewed, the gene, the organism and the length.
const BASE_FIELDS: [&str; 6] = [
    "accession",
    "id",
    "reviewed",
    "gene_primary",
    "organism_id",
    "length",
];

const SUMMARY_FIELDS: [&str; 27] = [
    "protein_name",
    "gene_names",
    "organism_name",
    "protein_existence",
    "annotation_score",
    "cc_function",
    "cc_subcellular_location",
    "cc_disease",
    "cc_alternative_products",
    "keyword",
    "feature_count",
    "comment_count",
    "xref_ensembl",
    "xref_mane-select",
    "xref_refseq",
    "xref_hgnc",
    "xref_geneid",
    "xref_mim",
    "xref_pdb",
    "xref_alphafolddb",
    "xref_string",
    "xref_chembl",
    "xref_guidetopharmacology",
    "xref_biogrid",
    "xref_kegg",
    "xref_reactome",
    "fragment",
];

const COMMENT_FIELDS: [&str; 18] = [
    "cc_function",
    "cc_catalytic_activity",
    "cc_activity_regulation",
    "cc_pathway",
    "cc_subunit",
    "cc_tissue_specificity",
    "cc_developmental_stage",
    "cc_induction",
    "cc_ptm",
    "cc_domain",
    "cc_similarity",
    "cc_disruption_phenotype",
    "cc_polymorphism",
    "cc_pharmaceutical",
    "cc_biotechnology",
    "cc_caution",
    "cc_miscellaneous",
    "cc_disease",
];

/// The return field of each feature type.
const FEATURE_FIELDS: [(&str, &str); 35] = [
    ("natural_variant", "ft_variant"),
    ("mutagenesis", "ft_mutagen"),
    ("modified_residue", "ft_mod_res"),
    ("glycosylation", "ft_carbohyd"),
    ("lipidation", "ft_lipid"),
    ("cross_link", "ft_crosslnk"),
    ("disulfide_bond", "ft_disulfid"),
    ("domain", "ft_domain"),
    ("region", "ft_region"),
    ("motif", "ft_motif"),
    ("repeat", "ft_repeat"),
    ("zinc_finger", "ft_zn_fing"),
    ("dna_binding", "ft_dna_bind"),
    ("coiled_coil", "ft_coiled"),
    ("compositional_bias", "ft_compbias"),
    ("binding_site", "ft_binding"),
    ("active_site", "ft_act_site"),
    ("site", "ft_site"),
    ("topological_domain", "ft_topo_dom"),
    ("transmembrane", "ft_transmem"),
    ("intramembrane", "ft_intramem"),
    ("signal", "ft_signal"),
    ("chain", "ft_chain"),
    ("peptide", "ft_peptide"),
    ("propeptide", "ft_propep"),
    ("transit_peptide", "ft_transit"),
    ("initiator_methionine", "ft_init_met"),
    ("alternative_sequence", "ft_var_seq"),
    ("helix", "ft_helix"),
    ("beta_strand", "ft_strand"),
    ("turn", "ft_turn"),
    ("sequence_conflict", "ft_conflict"),
    ("sequence_uncertainty", "ft_unsure"),
    ("non_standard_residue", "ft_non_std"),
    ("non_terminal_residue", "ft_non_ter"),
];

impl Parts {
    /// The `fields=` value: each field once, in a fixed order, so that the same parts
    /// are the same request (and the same cache entry).
    pub(crate) fn fields(&self) -> String {
        let mut fields: Vec<&str> = BASE_FIELDS.to_vec();
        let mut add = |names: &[&'static str]| {
            for name in names {
                if !fields.contains(name) {
                    fields.push(name);
                }
            }
        };
        if self.summary {
            add(&SUMMARY_FIELDS);
        }
        if self.comments {
            add(&COMMENT_FIELDS);
        }
        if self.diseases {
            add(&["cc_disease"]);
        }
        if self.sequence {
            add(&["sequence"]);
        }
        for (name, field) in FEATURE_FIELDS {
            if self.features.iter().any(|k| k.name() == name) {
                add(&[field]);
            }
        }
        fields.join(",")
    }
}

/// The fields of a search row: accession, entry name, reviewed, protein name, gene,
/// organism, length, annotation score.
pub(super) const SEARCH_FIELDS: &str = "accession,id,reviewed,protein_name,gene_primary,organism_name,organism_id,length,annotation_score";

/// The fields of an ID-mapping row that maps to UniProtKB.
pub(super) const MAPPED_ENTRY_FIELDS: &str = "accession,id,reviewed,gene_primary,organism_id";

#[cfg(test)]
mod tests {
    use super::*;
    use crate::models::tests::fixture;

    #[test]
    fn parts_ask_for_each_field_once_in_a_fixed_order_and_every_field_exists() {
        let listed: Vec<String> =
            serde_json::from_str(&fixture("configure_uniprotkb_result-fields__names.json"))
                .unwrap();
        let all = Parts {
            summary: true,
            comments: true,
            diseases: true,
            sequence: true,
            features: FeatureKind::all().collect(),
        };
        let fields = all.fields();
        let names: Vec<&str> = fields.split(',').collect();
        for name in &names {
            assert!(
                listed.iter().any(|l| l == name),
                "UniProt lists no field {name}"
            );
        }
        for name in SEARCH_FIELDS
            .split(',')
            .chain(MAPPED_ENTRY_FIELDS.split(','))
        {
            assert!(
                listed.iter().any(|l| l == name),
                "UniProt lists no field {name}"
            );
        }
        let mut unique = names.clone();
        unique.sort_unstable();
        unique.dedup();
        assert_eq!(unique.len(), names.len(), "{fields}");
        // Every feature type has its field.
        assert_eq!(
            names.iter().filter(|n| n.starts_with("ft_")).count(),
            FeatureKind::all().count()
        );
        let variants = Parts {
            diseases: true,
            features: crate::feature::parse_types(&["natural_variant".into()]).unwrap(),
            ..Parts::default()
        };
        assert_eq!(
            variants.fields(),
            "accession,id,reviewed,gene_primary,organism_id,length,cc_disease,ft_variant"
        );
    }
}
