//! Unit tests of the module above (its private items are in reach).
use super::*;

#[test]
fn every_common_form_is_sent_the_right_way() {
    let batch = |form, text: &str| {
        Some(Request::Batch {
            form,
            text: text.to_owned(),
        })
    };
    let human = |raw: &str| classify(raw, "homo_sapiens").ok();
    assert_eq!(human(" RS699 "), batch(VepForm::Id, "rs699"));
    // RefSeq and Ensembl HGVS alike, in the one HGVS batch.
    assert_eq!(
        human("NM_005912.3:c.253A>G"),
        batch(VepForm::Hgvs, "NM_005912.3:c.253A>G")
    );
    assert_eq!(
        human("ENST00000366667.6:c.803T>C"),
        batch(VepForm::Hgvs, "ENST00000366667.6:c.803T>C")
    );
    assert_eq!(
        human("17:g.7676154G>A"),
        batch(VepForm::Hgvs, "17:g.7676154G>A")
    );
    // SPDI (0-based) and chr:pos:ref:alt (1-based) name the same base differently.
    assert_eq!(
        human("NC_000017.11:7676153:G:C"),
        batch(VepForm::Hgvs, "17:g.7676154G>C")
    );
    assert_eq!(
        human("chr17-7676154-g-c"),
        batch(VepForm::Region, "17 7676154 . G C . . .")
    );
    assert_eq!(
        human("16:89279135-89279135/C"),
        Some(Request::Place {
            region: "16:89279135-89279135".into(),
            allele: "C".into()
        })
    );
    assert_eq!(
        human("1:156114921:1/-"),
        Some(Request::Place {
            region: "1:156114921-156114921:1".into(),
            allele: "-".into()
        })
    );
    for bad in ["TP53", "rs", "17:abc/C", "17:1:G:Z", "../x/C"] {
        let e = classify(bad, "homo_sapiens").unwrap_err();
        assert_eq!(e.code(), ErrorCode::InvalidInput, "{bad}");
    }
    // An accession written the chr-pos-ref-alt way is neither form: refused, not read
    // 1-based.
    let e = classify("NC_000017.11-7676153-G-C", "homo_sapiens").unwrap_err();
    assert!(refusal_text(&e).contains("NC_000017.11:7676153:G:C"));
    // SPDI names human chromosomes: refused for another species.
    assert_eq!(
        human("NC_000017.11:7676153:G:C"),
        classify("NC_000017.11:7676153:G:C", "human").ok()
    );
    let e = classify("NC_000017.11:7676153:G:C", "mus_musculus").unwrap_err();
    assert_eq!(e.code(), ErrorCode::UnresolvedEntity);
}

#[test]
fn a_call_fails_only_when_none_of_its_variants_can_be_sent() {
    let inputs = |list: &[&str]| list.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>();
    let grch37 = classify("NC_000017.10:7579471:G:C", "homo_sapiens").unwrap_err();
    let junk = classify("TP53 R175H", "homo_sapiens").unwrap_err();
    // Some can be sent: no call error, the refusals go into their items.
    assert!(nothing_to_send(&inputs(&["rs699", "TP53 R175H"]), &[&junk]).is_none());
    assert!(nothing_to_send(&inputs(&["rs699"]), &[]).is_none());
    // One variant: its own refusal.
    let one = nothing_to_send(&inputs(&["NC_000017.10:7579471:G:C"]), &[&grch37]).unwrap();
    assert_eq!(one, grch37);
    // Several: the first one's code and hint, said of all.
    let all = nothing_to_send(
        &inputs(&["NC_000017.10:7579471:G:C", "TP53 R175H"]),
        &[&grch37, &junk],
    )
    .unwrap();
    assert_eq!(all.code(), ErrorCode::UnresolvedEntity);
    let body = all.to_envelope().error;
    assert!(
        body.message.starts_with("None of the 2 variants"),
        "{}",
        body.message
    );
    assert!(body.recovery_hint.contains("ensembl_map_coordinates"));
}

#[test]
fn an_spdi_answered_on_another_assembly_is_not_reported_as_its_effect() {
    let answer = |assembly: &str| VepResult {
        input: Some("17:g.7676154G>C".into()),
        assembly_name: Some(assembly.into()),
        most_severe_consequence: Some("missense_variant".into()),
        ..VepResult::default()
    };
    let spdi = "NC_000017.11:7676153:G:C";
    let on_grch37 = grch38_only(spdi, &answer("GRCh37"), false);
    assert!(on_grch37.most_severe_consequence.is_none());
    assert!(on_grch37.error.unwrap().contains("GRCh37"));
    let on_grch38 = grch38_only(spdi, &answer("GRCh38"), false);
    assert_eq!(
        on_grch38.most_severe_consequence.as_deref(),
        Some("missense_variant")
    );
}

/// The note names what each variant lists: canonical and MANE transcripts, those
/// with the most severe consequence when VEP marks none, or the first 100 of all.
#[test]
fn the_note_says_what_was_shown() {
    let transcript = |id: &str, canonical: bool| VepTranscript {
        transcript_id: Some(id.to_owned()),
        consequence_terms: vec!["missense_variant".to_owned()],
        canonical: canonical.then_some(true),
        ..VepTranscript::default()
    };
    let answer = |input: &str, transcripts: Vec<VepTranscript>| VepResult {
        input: Some(input.to_owned()),
        most_severe_consequence: Some("missense_variant".into()),
        transcript_consequences: transcripts,
        ..VepResult::default()
    };
    let flagged = answer(
        "rs1",
        vec![transcript("ENST1", true), transcript("ENST2", false)],
    );
    let unflagged = answer(
        "rs2",
        (0..5).map(|i| transcript(&format!("ENST{i}"), false)).collect(),
    );
    let few = answer("rs3", vec![transcript("ENST9", false)]);

    let one = effect("rs2", &unflagged, false);
    assert_eq!((one.shown, one.transcripts.len()), (Shown::MostSevere, 3));
    let note = transcripts_note(&[one]).unwrap();
    assert!(note.starts_with("VEP marks no transcript canonical or MANE for rs2:"), "{note}");
    assert!(!note.contains("Canonical and MANE transcripts only"), "{note}");

    let note = transcripts_note(&[effect("rs1", &flagged, false)]).unwrap();
    assert_eq!(
        note,
        "Canonical and MANE transcripts only; pass all_transcripts: true for every one."
    );
    // Nothing left out: no note, whatever was chosen.
    assert_eq!(transcripts_note(&[effect("rs3", &few, false)]), None);
    assert_eq!(transcripts_note(&[effect("rs2", &unflagged, true)]), None);
    assert_eq!(transcripts_note(&[failure("rs4", "no".into())]), None);

    let many = answer(
        "rs5",
        (0..150).map(|i| transcript(&format!("ENST{i}"), i == 0)).collect(),
    );
    let all = effect("rs5", &many, true);
    assert_eq!(all.transcripts.len(), MAX_TRANSCRIPTS);
    let note = transcripts_note(&[all]).unwrap();
    assert!(note.starts_with("At most 100 transcripts are listed per variant"), "{note}");
    assert!(note.contains("(rs5)"), "{note}");

    assert_eq!(named(&["a", "b", "c", "d", "e"]), "a, b, c and 2 more");
}

#[test]
fn answers_pair_by_input_then_by_order() {
    let answer = |input: &str| VepResult {
        input: Some(input.to_owned()),
        most_severe_consequence: Some("x".into()),
        ..VepResult::default()
    };
    let sent = vec!["rs1".to_owned(), "rs2".to_owned(), "rs3".to_owned()];
    let answers = vec![answer("rs3"), answer("rs1")];
    let paired: Vec<Option<&str>> = pair(&sent, &answers)
        .into_iter()
        .map(|a| a.and_then(|a| a.input.as_deref()))
        .collect();
    assert_eq!(paired, [Some("rs1"), None, Some("rs3")]);
    // VCF lines come back rewritten, in VEP's order: paired by place, and a line
    // VEP left out is not given another's answer.
    let placed = |input: &str, chromosome: &str, start: i64| VepResult {
        seq_region_name: Some(chromosome.to_owned()),
        start: Some(start),
        ..answer(input)
    };
    let lines = vec![
        "17 7676154 . G A . . .".to_owned(),
        "99 1 . A G . . .".to_owned(),
        "1 156115215 . CGCC C . . .".to_owned(),
    ];
    let answers = vec![
        placed("1 156115216 156115218 GCC/- 1", "1", 156_115_216),
        placed("17 7676154 7676154 G/A 1", "17", 7_676_154),
    ];
    let paired: Vec<Option<&str>> = pair(&lines, &answers)
        .into_iter()
        .map(|a| a.and_then(|a| a.input.as_deref()))
        .collect();
    assert_eq!(
        paired,
        [
            Some("17 7676154 7676154 G/A 1"),
            None,
            Some("1 156115216 156115218 GCC/- 1")
        ]
    );
    let lone = vec![answer("X 31180437 31180437 C/T 1")];
    assert!(pair(&["X 31180437 . C T . . .".to_owned()], &lone)[0].is_some());
}
