//! Unit tests of the module above (its private items are in reach).
use super::*;
use lifesciences_core::ErrorCode;

fn id(raw: &str) -> Identifier {
    detect(raw, None).unwrap()
}

#[test]
fn every_pattern_compiles() {
    assert!(PATTERNS.iter().all(|p| p.is_some()));
}

#[test]
fn every_example_of_the_table_is_detected_as_its_kind() {
    for form in FORMS {
        let got = detect(form.example, None)
            .unwrap_or_else(|e| panic!("{} ({}): {e}", form.form, form.example));
        assert_eq!(got.kind(), form.kind, "{} ({})", form.form, form.example);
    }
}

#[test]
fn ensembl_ids_lose_their_version_and_mouse_ids_are_mouse() {
    assert_eq!(
        id("ENSG00000012048.23"),
        Identifier::EnsemblGene {
            id: "ENSG00000012048".into(),
            organism: Organism::Human
        }
    );
    assert_eq!(
        id("ensmusg00000059552"),
        Identifier::EnsemblGene {
            id: "ENSMUSG00000059552".into(),
            organism: Organism::Mouse
        }
    );
    assert!(matches!(
        id("ENST00000357654.9"),
        Identifier::EnsemblTranscript { .. }
    ));
    assert!(matches!(
        id("ENSP00000350283"),
        Identifier::EnsemblProtein { .. }
    ));
    let e = detect("ENSRNOG00000010079", None).unwrap_err();
    assert_eq!(e.code(), ErrorCode::UnresolvedEntity);
    assert!(e.to_string().contains("human and mouse"));
}

#[test]
fn variant_forms() {
    assert_eq!(id("RS80357906"), Identifier::Rsid("rs80357906".into()));
    assert_eq!(
        id("nc_000017.11:43057062:ggg:gggg"),
        Identifier::Spdi("NC_000017.11:43057062:GGG:GGGG".into())
    );
    assert_eq!(
        id("NC_000020.11:3658947:A:G"),
        Identifier::Spdi("NC_000020.11:3658947:A:G".into())
    );
    // Deletions and insertions have an empty side.
    assert!(matches!(
        id("NC_000017.11:43057065::G"),
        Identifier::Spdi(_)
    ));
    assert_eq!(
        id("NC_000017.11:g.43057065dup"),
        Identifier::Hgvs("NC_000017.11:g.43057065dup".into())
    );
    assert_eq!(id("CA10655131"), Identifier::ClinGen("CA10655131".into()));
    for transcript_hgvs in ["NM_007294.4:c.5266dup", "NP_009225.1:p.Gln1756fs"] {
        let e = detect(transcript_hgvs, None).unwrap_err();
        assert_eq!(e.code(), ErrorCode::UnresolvedEntity);
        assert!(e.to_envelope().error.recovery_hint.contains("genomic HGVS"));
    }
}

#[test]
fn short_ca_numbers_are_carbonic_anhydrase_symbols_unless_hinted() {
    assert_eq!(id("CA1"), Identifier::GeneSymbol("CA1".into()));
    assert_eq!(id("CA12"), Identifier::GeneSymbol("CA12".into()));
    assert_eq!(
        detect("CA1", Some(Hint::Variant)).unwrap(),
        Identifier::ClinGen("CA1".into())
    );
    assert_eq!(
        detect("CA10655131", Some(Hint::Gene)).unwrap(),
        Identifier::GeneSymbol("CA10655131".into())
    );
}

#[test]
fn gene_forms() {
    assert_eq!(id("HGNC:1100"), Identifier::Hgnc("HGNC:1100".into()));
    assert_eq!(id("hgnc_1100"), Identifier::Hgnc("HGNC:1100".into()));
    assert_eq!(id("ENTREZ:672"), Identifier::Entrez("672".into()));
    assert_eq!(id("NCBIGene:672"), Identifier::Entrez("672".into()));
    assert_eq!(id("BRCA1"), Identifier::GeneSymbol("BRCA1".into()));
    assert_eq!(id("brca1"), Identifier::GeneSymbol("BRCA1".into()));
    assert_eq!(id("C1orf112"), Identifier::GeneSymbol("C1orf112".into()));
    assert_eq!(id("HLA-A"), Identifier::GeneSymbol("HLA-A".into()));
    // A symbol that starts like an Ensembl ID is a symbol; a name with a dot too.
    assert_eq!(id("ENSA"), Identifier::GeneSymbol("ENSA".into()));
    assert_eq!(
        id("AL033381.1"),
        Identifier::GeneSymbol("AL033381.1".into())
    );
    assert!(is_ensembl_gene("ENSG00000141510.17"));
    assert!(is_ensembl_gene("ENSMUSG00000059552"));
    for other in [
        "ENSA",
        "ENST00000269305",
        "ENSG0000014151",
        "xENSG00000141510",
    ] {
        assert!(!is_ensembl_gene(other), "{other}");
    }
}

#[test]
fn ontology_terms_in_both_forms_normalise_to_the_catalog_key() {
    for raw in ["MONDO_0007254", "MONDO:0007254", "mondo:0007254"] {
        assert_eq!(id(raw).value(), "MONDO_0007254", "{raw}");
    }
    assert_eq!(id("ORPHA:101435").value(), "Orphanet_101435");
    assert_eq!(id("Orphanet_101435").value(), "Orphanet_101435");
    assert_eq!(id("EFO:0004339").value(), "EFO_0004339");
    assert_eq!(id("GO:0000122").value(), "GO_0000122");
    assert_eq!(ontology_curie("Orphanet_101435"), "Orphanet:101435");
    assert_eq!(ontology_curie("MONDO_0009861"), "MONDO:0009861");
}

#[test]
fn other_kinds() {
    assert_eq!(id("PA448497"), Identifier::PharmGkb("PA448497".into()));
    assert_eq!(id("cpx-11"), Identifier::Complex("CPX-11".into()));
    assert_eq!(
        id("R-HSA-164843"),
        Identifier::Reactome("R-HSA-164843".into())
    );
    assert_eq!(id("P38398"), Identifier::Uniprot("P38398".into()));
    assert_eq!(id("P49711-2"), Identifier::Uniprot("P49711-2".into()));
    assert_eq!(id("A0A2U3U0J3"), Identifier::Uniprot("A0A2U3U0J3".into()));
    assert_eq!(
        id("CTCF_HUMAN"),
        Identifier::UniprotName("CTCF_HUMAN".into())
    );
    assert_eq!(
        id("stat3_human"),
        Identifier::UniprotName("STAT3_HUMAN".into())
    );
}

#[test]
fn hints_override_and_allow_names() {
    assert_eq!(
        detect("aspirin", Some(Hint::Drug)).unwrap(),
        Identifier::DrugName("aspirin".into())
    );
    assert_eq!(
        detect("breast cancer", Some(Hint::Disease)).unwrap(),
        Identifier::OntologyName("breast cancer".into())
    );
    assert_eq!(
        detect("MONDO:0007254", Some(Hint::Disease))
            .unwrap()
            .value(),
        "MONDO_0007254"
    );
    assert_eq!(
        detect("ctcf", Some(Hint::Protein)).unwrap(),
        Identifier::ProteinSymbol("CTCF".into())
    );
    assert_eq!(
        detect("SMAD2 homotrimer", Some(Hint::Complex)).unwrap(),
        Identifier::ComplexName("SMAD2 homotrimer".into())
    );
    // An identifier of another kind is refused, not searched for as a name.
    let e = detect("rs80357906", Some(Hint::Gene)).unwrap_err();
    assert_eq!(e.code(), ErrorCode::UnresolvedEntity);
    let body = e.to_envelope().error;
    assert!(body.message.contains("rsID"), "{}", body.message);
    assert!(body.recovery_hint.contains("Drop the hint"));
    let e = detect("BRCA1", Some(Hint::Transcript)).unwrap_err();
    assert!(e.to_envelope().error.recovery_hint.contains("ENST"));
}

#[test]
fn unrecognisable_input_lists_the_forms() {
    for raw in [
        "",
        "   ",
        "breast cancer",
        "12345",
        "chr17:41000000-42000000",
        "!!",
    ] {
        let e = detect(raw, None).unwrap_err();
        assert_eq!(e.code(), ErrorCode::UnresolvedEntity, "{raw}");
        let body = e.to_envelope().error;
        assert!(body.recovery_hint.contains("rsID ('rs80357906')"), "{raw}");
        assert_eq!(body.invalid_input.as_deref(), Some(raw));
    }
}

#[test]
fn organisms_parse_forgivingly() {
    for raw in ["human", "Homo sapiens", "homo_sapiens", "HUMAN", "9606"] {
        assert_eq!(Organism::parse(raw), Some(Organism::Human), "{raw}");
    }
    for raw in ["mouse", "Mus musculus", "mus_musculus", "10090"] {
        assert_eq!(Organism::parse(raw), Some(Organism::Mouse), "{raw}");
    }
    assert_eq!(Organism::parse("zebrafish"), None);
}
