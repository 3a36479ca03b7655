//! `chembl_get_compound` through a real MCP client: full records and their
//! cross-references, UniChem failures, strict IDs, unknown IDs, structureless molecules.

use std::time::Duration;

use lifesciences_core::ErrorCode;
use lifesciences_core::testing::Recording;
use serde_json::{Value, json};
use wiremock::matchers::{method, path};
use wiremock::{Mock, ResponseTemplate};

use crate::support::{
    Upstreams, chembl_get, mount_aspirin, mount_id_lookup, mount_mechanisms, mount_molecule,
    mount_targets, mount_unichem, mount_unknown_molecule, ok,
};

const ASPIRIN_SIDS: [&str; 14] = [
    "144203627",
    "144209315",
    "144210466",
    "170465039",
    "17389202",
    "17390036",
    "174007205",
    "26747283",
    "26752858",
    "47193676",
    "50105490",
    "85230910",
    "87798",
    "90340586",
];

#[tokio::test]
async fn aspirin_has_its_structure_names_and_links_to_other_databases() {
    let up = Upstreams::start().await;
    mount_aspirin(&up).await;
    mount_unichem(&up, "CHEMBL25", ok("unichem_compounds__CHEMBL25.json")).await;
    let client = up.client().await;

    let c = client
        .call_ok("chembl_get_compound", json!({"chembl_id": "CHEMBL:25"}))
        .await;
    assert_eq!(c["id"], "CHEMBL:25");
    assert_eq!(c["name"], "ASPIRIN");
    assert_eq!(c["molecular_formula"], "C9H8O4");
    assert_eq!(c["molecular_weight"], 180.16);
    assert_eq!(c["smiles"], "CC(=O)Oc1ccccc1C(=O)O");
    assert_eq!(
        c["inchi"],
        "InChI=1S/C9H8O4/c1-6(10)13-8-5-3-2-4-7(8)9(11)12/h2-5H,1H3,(H,11,12)"
    );
    assert_eq!(c["inchi_key"], "BSYNRYMUTXBXSQ-UHFFFAOYSA-N");
    assert_eq!(c["canonical_name"], "Acetylsalicylic Acid");
    assert_eq!(c["max_phase"], 4);
    assert_eq!(c["molecule_type"], "Small molecule");
    assert_eq!(c["first_approval"], 1950);
    let synonyms: Vec<&str> = c["synonyms"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap())
        .collect();
    assert!(synonyms.contains(&"Aspirin") && synonyms.contains(&"Durlaza"));
    // 36 distinct synonyms: the first 25 are shown, with the count.
    assert_eq!(synonyms.len(), 25);
    assert_eq!(c["synonym_count"], 36);
    assert!(c.get("cross_reference_counts").is_none(), "no list was cut");
    // "Acetylsalicylic Acid" (INN) and "Acetylsalicylic acid" (ATC) are one synonym.
    assert_eq!(
        synonyms
            .iter()
            .filter(|s| s.eq_ignore_ascii_case("acetylsalicylic acid"))
            .count(),
        1
    );
    assert!(c.get("parent_id").is_none(), "a parent has no parent_id");
    assert_eq!(
        c["cross_references"],
        json!({
            "uniprot": ["P23219", "P35354"],
            "chembl": "CHEMBL25",
            "drugbank": "DB00945",
            "iuphar": "4139",
            "kegg": "C01405",
            "pdb": ["AIN"],
            "pubchem_compound": "2244",
            "pubchem_substance": ASPIRIN_SIDS,
        })
    );
    // One request each: molecule, mechanisms, targets (all at once), UniChem.
    assert_eq!(up.chembl_requests("/molecule/CHEMBL25.json").await.len(), 1);
    assert_eq!(up.chembl_requests("/mechanism.json").await.len(), 1);
    assert_eq!(up.chembl_requests("/target.json").await.len(), 1);
    assert_eq!(up.unichem_requests().await.len(), 1);
    client.close().await;
}

fn has_no_unichem_keys(c: &Value) {
    for key in ["drugbank", "pdb", "kegg", "iuphar", "pubchem_compound"] {
        assert!(c["cross_references"].get(key).is_none(), "{key} in {c}");
    }
}

/// The client is told, at `warning` (heard without asking for a level), that UniChem's
/// keys are missing and for how long.
#[tokio::test]
#[expect(
    deprecated,
    reason = "MCP logging is deprecated in the newest protocol revision"
)]
async fn with_unichem_down_the_record_still_comes_back_without_its_keys() {
    use lifesciences_core::rmcp::model::LoggingLevel;
    let up = Upstreams::start().await;
    mount_aspirin(&up).await;
    mount_unichem(
        &up,
        "CHEMBL25",
        ResponseTemplate::new(500).set_body_string("<html>Internal Server Error</html>"),
    )
    .await;
    let client = up.client().await;

    let c = client
        .call_ok("chembl_get_compound", json!({"chembl_id": "CHEMBL:25"}))
        .await;
    assert_eq!(c["smiles"], "CC(=O)Oc1ccccc1C(=O)O");
    assert_eq!(
        c["cross_references"]["uniprot"],
        json!(["P23219", "P35354"])
    );
    assert_eq!(
        c["cross_references"]["pubchem_substance"],
        json!(ASPIRIN_SIDS)
    );
    has_no_unichem_keys(&c);
    // No retry: its keys are optional (it used to be the first attempt and one retry).
    assert_eq!(up.unichem_requests().await.len(), 1);
    let heard = client.log_messages().await;
    assert_eq!(heard.len(), 1, "{heard:?}");
    assert_eq!(heard[0].0, LoggingLevel::Warning);
    assert!(
        heard[0].1.starts_with("UniChem failed (")
            && heard[0].1.contains(
                "compounds come without drugbank, pdb, kegg, iuphar and pubchem_compound \
                 cross-references for the next"
            ),
        "{heard:?}"
    );
    client.close().await;
}

#[tokio::test]
async fn a_hanging_unichem_is_abandoned_after_its_short_timeout() {
    let up = Upstreams::start().await;
    mount_aspirin(&up).await;
    mount_unichem(
        &up,
        "CHEMBL25",
        ok("unichem_compounds__CHEMBL25.json").set_delay(Duration::from_secs(5)),
    )
    .await;
    let client = up.client().await;

    let started = std::time::Instant::now();
    let c = client
        .call_ok("chembl_get_compound", json!({"chembl_id": "CHEMBL:25"}))
        .await;
    has_no_unichem_keys(&c);
    assert_eq!(c["cross_references"]["chembl"], "CHEMBL25");
    // One attempt of 400 ms, not the 5 s UniChem takes.
    assert!(
        started.elapsed() < Duration::from_secs(3),
        "{:?}",
        started.elapsed()
    );
    client.close().await;
}

#[tokio::test]
async fn slim_is_one_request_and_three_fields() {
    let up = Upstreams::start().await;
    mount_molecule(&up, "CHEMBL25", "molecule__CHEMBL25.json").await;
    let client = up.client().await;
    let c = client
        .call_ok(
            "chembl_get_compound",
            json!({"chembl_id": "CHEMBL:25", "slim": true}),
        )
        .await;
    assert_eq!(
        c,
        json!({"id": "CHEMBL:25", "name": "ASPIRIN", "molecular_formula": "C9H8O4"})
    );
    assert_eq!(up.chembl.received_requests().await.unwrap().len(), 1);
    assert!(up.unichem_requests().await.is_empty());
    client.close().await;
}

/// Imatinib mesylate (CHEMBL1642): the mechanisms of its forms are asked alongside its
/// molecule (none: it is no parent), its parent's (CHEMBL941) once the molecule names
/// the parent.
async fn mount_imatinib_salt(up: &Upstreams) {
    mount_molecule(up, "CHEMBL1642", "molecule__CHEMBL1642.json").await;
    mount_mechanisms(up, "CHEMBL1642", "mechanism__empty.json").await;
    mount_mechanisms(
        up,
        "CHEMBL941",
        "mechanism__molecule_chembl_id=CHEMBL941.json",
    )
    .await;
    mount_targets(
        up,
        "CHEMBL1862",
        "1",
        "target__target_chembl_id__in=CHEMBL1862.json",
    )
    .await;
}

#[tokio::test]
async fn a_salt_takes_its_targets_from_the_parents_mechanisms() {
    let up = Upstreams::start().await;
    mount_imatinib_salt(&up).await;
    mount_unichem(&up, "CHEMBL1642", ok("unichem_compounds__not_found.json")).await;
    // UniChem knows neither the salt nor (here) its parent.
    mount_unichem(&up, "CHEMBL941", ok("unichem_compounds__not_found.json")).await;
    let client = up.client().await;

    let c = client
        .call_ok("chembl_get_compound", json!({"chembl_id": "CHEMBL:1642"}))
        .await;
    assert_eq!(c["name"], "IMATINIB MESYLATE");
    assert_eq!(c["parent_id"], "CHEMBL:941");
    assert_eq!(
        c["cross_references"],
        json!({"uniprot": ["P00519"], "chembl": "CHEMBL1642"})
    );
    client.close().await;
}

/// Lisinopril's ACE mechanism, filed under its dihydrate CHEMBL419213 and found by its
/// parent CHEMBL1237 (constructed, see the fixtures README); its target, human ACE.
async fn mount_lisinopril_mechanism_and_target(up: &Upstreams) {
    mount_mechanisms(
        up,
        "CHEMBL1237",
        "mechanism__parent_molecule_chembl_id=CHEMBL1237.json",
    )
    .await;
    mount_targets(up, "CHEMBL1808", "1", "target__summary__CHEMBL1808.json").await;
    mount_unichem(up, "CHEMBL1237", ok("unichem_compounds__not_found.json")).await;
}

/// The mechanism requests ChEMBL received, as query strings.
async fn mechanism_queries(up: &Upstreams) -> Vec<String> {
    up.chembl_requests("/mechanism.json")
        .await
        .iter()
        .map(|r| r.url.query().unwrap_or_default().to_owned())
        .collect()
}

#[tokio::test]
async fn lisinopril_by_its_parent_id_finds_the_mechanism_filed_under_its_dihydrate() {
    let up = Upstreams::start().await;
    mount_molecule(&up, "CHEMBL1237", "molecule__CHEMBL1237.json").await;
    mount_lisinopril_mechanism_and_target(&up).await;
    let client = up.client().await;

    let c = client
        .call_ok("chembl_get_compound", json!({"chembl_id": "CHEMBL:1237"}))
        .await;

    // It used to ask for the mechanisms filed under CHEMBL1237 itself: none, no uniprot.
    assert!(c.get("parent_id").is_none(), "a parent has no parent_id");
    assert_eq!(
        c["cross_references"],
        json!({"uniprot": ["P12821"], "chembl": "CHEMBL1237"})
    );
    // One request for the mechanisms of every form, sent with the molecule; then the
    // target: three ChEMBL requests in two round trips, as for any parent.
    assert_eq!(
        mechanism_queries(&up).await,
        ["parent_molecule_chembl_id=CHEMBL1237&limit=1000&offset=0"]
    );
    assert_eq!(up.chembl.received_requests().await.unwrap().len(), 3);
    assert_eq!(up.unichem_requests().await.len(), 1);
    client.close().await;
}

#[tokio::test]
async fn lisinopril_dihydrate_takes_its_target_from_its_parents_mechanisms() {
    let up = Upstreams::start().await;
    mount_molecule(&up, "CHEMBL419213", "molecule__CHEMBL419213.json").await;
    // Asked alongside the molecule: no molecule has the dihydrate as its parent.
    mount_mechanisms(&up, "CHEMBL419213", "mechanism__empty.json").await;
    mount_unichem(&up, "CHEMBL419213", ok("unichem_compounds__not_found.json")).await;
    mount_lisinopril_mechanism_and_target(&up).await;
    let client = up.client().await;

    let c = client
        .call_ok("chembl_get_compound", json!({"chembl_id": "CHEMBL:419213"}))
        .await;

    assert_eq!(c["parent_id"], "CHEMBL:1237");
    assert_eq!(c["cross_references"]["uniprot"], json!(["P12821"]));
    // As before for a salt: the molecule, its own mechanisms at once, its parent's once
    // the molecule names the parent, then the target.
    assert_eq!(
        mechanism_queries(&up).await,
        [
            "parent_molecule_chembl_id=CHEMBL419213&limit=1000&offset=0",
            "parent_molecule_chembl_id=CHEMBL1237&limit=1000&offset=0"
        ]
    );
    assert_eq!(up.chembl.received_requests().await.unwrap().len(), 4);
    client.close().await;
}

#[tokio::test]
async fn properties_and_atc_codes_come_with_the_record() {
    let up = Upstreams::start().await;
    mount_molecule(&up, "CHEMBL25", "molecule__CHEMBL25.json").await;
    mount_mechanisms(&up, "CHEMBL25", "mechanism__empty.json").await;
    mount_unichem(&up, "CHEMBL25", ok("unichem_compounds__not_found.json")).await;
    let client = up.client().await;

    let c = client
        .call_ok("chembl_get_compound", json!({"chembl_id": "CHEMBL:25"}))
        .await;

    // The recorded aspirin record (numbers as strings upstream).
    assert_eq!(
        c["properties"],
        json!({"alogp": 1.31, "psa": 63.6, "hbd": 1, "hba": 3, "rotatable_bonds": 2,
               "aromatic_rings": 1, "ro5_violations": 0, "qed": 0.55, "mw_freebase": 180.16,
               "mw_monoisotopic": 180.0423})
    );
    assert_eq!(
        c["atc_codes"],
        json!(["A01AD05", "B01AC06", "N02BA01", "N02BA51", "N02BA71"])
    );
    client.close().await;
}

#[tokio::test]
async fn rna_components_without_an_accession_are_skipped() {
    let up = Upstreams::start().await;
    mount_molecule(&up, "CHEMBL614", "molecule__CHEMBL614.json").await;
    mount_mechanisms(
        &up,
        "CHEMBL614",
        "mechanism__molecule_chembl_id=CHEMBL614.json",
    )
    .await;
    mount_targets(
        &up,
        "CHEMBL2363965",
        "1",
        "target__target_chembl_id__in=CHEMBL2363965.json",
    )
    .await;
    mount_unichem(&up, "CHEMBL614", ok("unichem_compounds__not_found.json")).await;
    let client = up.client().await;

    let c = client
        .call_ok("chembl_get_compound", json!({"chembl_id": "CHEMBL:614"}))
        .await;
    // The recorded 70S ribosome: 60 components, 3 ribosomal RNAs without accession. The
    // 57 accessions are cut to the first 25 (it used to be all 57), with the full count.
    let uniprot = c["cross_references"]["uniprot"].as_array().unwrap();
    assert_eq!(uniprot.len(), 25);
    assert_eq!(uniprot[0], "P9WHE1");
    assert_eq!(c["cross_reference_counts"], json!({"uniprot": 57}));
    client.close().await;
}

#[tokio::test]
async fn a_compound_without_mechanisms_costs_no_target_request() {
    let up = Upstreams::start().await;
    mount_molecule(&up, "CHEMBL2109414", "molecule__CHEMBL2109414.json").await;
    mount_mechanisms(&up, "CHEMBL2109414", "mechanism__empty.json").await;
    mount_unichem(
        &up,
        "CHEMBL2109414",
        ok("unichem_compounds__not_found.json"),
    )
    .await;
    let client = up.client().await;
    let c = client
        .call_ok(
            "chembl_get_compound",
            json!({"chembl_id": "CHEMBL:2109414"}),
        )
        .await;
    assert_eq!(c["cross_references"], json!({"chembl": "CHEMBL2109414"}));
    assert!(up.chembl_requests("/target.json").await.is_empty());
    client.close().await;
}

#[tokio::test]
async fn an_unprefixed_id_is_unresolved_with_the_corrected_curie() {
    let up = Upstreams::start().await;
    let client = up.client().await;
    let e = client
        .call_err("chembl_get_compound", json!({"chembl_id": "CHEMBL123"}))
        .await;
    assert_eq!(e.code, ErrorCode::UnresolvedEntity);
    assert_eq!(e.recovery_hint, "Use format 'CHEMBL:123'");
    assert_eq!(e.invalid_input.as_deref(), Some("CHEMBL123"));

    let e = client
        .call_err("chembl_get_compound", json!({"chembl_id": "aspirin"}))
        .await;
    assert_eq!(e.code, ErrorCode::UnresolvedEntity);
    assert!(e.recovery_hint.contains("chembl_search_compounds"));

    // ChEMBL numbers its IDs without leading zeros.
    let e = client
        .call_err("chembl_get_compound", json!({"chembl_id": "CHEMBL:025"}))
        .await;
    assert_eq!(e.code, ErrorCode::UnresolvedEntity);
    assert_eq!(e.recovery_hint, "Use format 'CHEMBL:25'");
    assert_eq!(e.invalid_input.as_deref(), Some("CHEMBL:025"));
    assert!(up.chembl.received_requests().await.unwrap().is_empty());
    client.close().await;
}

#[tokio::test]
async fn an_unknown_id_is_entity_not_found() {
    let up = Upstreams::start().await;
    mount_unknown_molecule(&up, "CHEMBL99999999").await;
    // ChEMBL never issued it: the ID lookup is a 404 too.
    mount_id_lookup(&up, "CHEMBL99999999", ResponseTemplate::new(404)).await;
    let client = up.client().await;
    let e = client
        .call_err(
            "chembl_get_compound",
            json!({"chembl_id": "CHEMBL:99999999"}),
        )
        .await;
    assert_eq!(e.code, ErrorCode::EntityNotFound);
    assert!(e.message.contains("CHEMBL:99999999"), "{}", e.message);
    assert_eq!(e.invalid_input.as_deref(), Some("CHEMBL:99999999"));
    assert!(e.suggestions.is_empty());
    assert!(
        e.recovery_hint.contains("chembl_search_compounds"),
        "{}",
        e.recovery_hint
    );
    // The molecule and the ID lookup (and the mechanisms asked alongside the molecule);
    // no search for look-alike IDs.
    assert_eq!(
        up.chembl_requests("/molecule/CHEMBL99999999.json")
            .await
            .len(),
        1
    );
    assert!(up.chembl_requests("/molecule/search.json").await.is_empty());
    client.close().await;
}

#[tokio::test]
async fn the_id_of_a_target_is_named_as_a_target_not_a_missing_compound() {
    let up = Upstreams::start().await;
    mount_unknown_molecule(&up, "CHEMBL221").await;
    mount_id_lookup(&up, "CHEMBL221", ok("chembl_id_lookup__CHEMBL221.json")).await;
    let client = up.client().await;
    let e = client
        .call_err("chembl_get_compound", json!({"chembl_id": "CHEMBL:221"}))
        .await;
    assert_eq!(e.code, ErrorCode::EntityNotFound);
    assert_eq!(e.message, "CHEMBL:221 is a ChEMBL target, not a compound.");
    assert!(
        e.recovery_hint.contains("compounds only"),
        "{}",
        e.recovery_hint
    );
    assert_eq!(e.invalid_input.as_deref(), Some("CHEMBL:221"));
    client.close().await;
}

#[tokio::test]
async fn a_failing_id_lookup_still_reports_not_found() {
    let up = Upstreams::start().await;
    mount_unknown_molecule(&up, "CHEMBL7").await;
    chembl_get("/chembl_id_lookup/CHEMBL7.json", &[])
        .respond_with(ResponseTemplate::new(500))
        .mount(&up.chembl)
        .await;
    let client = up.client().await;
    let e = client
        .call_err("chembl_get_compound", json!({"chembl_id": "CHEMBL:7"}))
        .await;
    assert_eq!(e.code, ErrorCode::EntityNotFound);
    assert_eq!(
        e.message,
        "ChEMBL has no compound with the identifier 'CHEMBL:7'."
    );
    client.close().await;
}

#[tokio::test]
async fn a_salt_unichem_has_nothing_on_borrows_its_parents_links() {
    let up = Upstreams::start().await;
    mount_imatinib_salt(&up).await;
    mount_unichem(&up, "CHEMBL1642", ok("unichem_compounds__not_found.json")).await;
    mount_unichem(&up, "CHEMBL941", ok("unichem_compounds__CHEMBL941.json")).await;
    let client = up.client().await;

    let c = client
        .call_ok("chembl_get_compound", json!({"chembl_id": "CHEMBL:1642"}))
        .await;
    assert_eq!(c["parent_id"], "CHEMBL:941");
    assert_eq!(
        c["cross_references"],
        json!({"uniprot": ["P00519"], "chembl": "CHEMBL1642", "drugbank": "DB00619",
               "pdb": ["STI"], "pubchem_compound": "5291"})
    );
    assert_eq!(up.unichem_requests().await.len(), 2);
    client.close().await;
}

#[tokio::test]
async fn a_compound_unichem_knows_does_not_borrow_from_its_parent() {
    let up = Upstreams::start().await;
    mount_molecule(&up, "CHEMBL1642", "molecule__CHEMBL1642.json").await;
    mount_mechanisms(&up, "CHEMBL1642", "mechanism__empty.json").await;
    mount_mechanisms(&up, "CHEMBL941", "mechanism__empty.json").await;
    // Constructed: UniChem's aspirin answer, served for the salt.
    mount_unichem(&up, "CHEMBL1642", ok("unichem_compounds__CHEMBL25.json")).await;
    let client = up.client().await;
    let c = client
        .call_ok("chembl_get_compound", json!({"chembl_id": "CHEMBL:1642"}))
        .await;
    assert_eq!(c["cross_references"]["drugbank"], "DB00945");
    assert_eq!(up.unichem_requests().await.len(), 1);
    client.close().await;
}

#[tokio::test]
async fn a_second_lookup_of_the_same_compound_does_not_ask_unichem_again() {
    let up = Upstreams::start().await;
    mount_aspirin(&up).await;
    mount_unichem(&up, "CHEMBL25", ok("unichem_compounds__CHEMBL25.json")).await;
    let client = up.client().await;
    for _ in 0..2 {
        let c = client
            .call_ok("chembl_get_compound", json!({"chembl_id": "CHEMBL:25"}))
            .await;
        assert_eq!(c["cross_references"]["drugbank"], "DB00945");
    }
    // UniChem's POST look-up is cached like ChEMBL's GETs.
    assert_eq!(up.unichem_requests().await.len(), 1);
    assert_eq!(up.chembl_requests("/molecule/CHEMBL25.json").await.len(), 1);
    client.close().await;
}

// That the outage is logged once is tested on `Breaker::trip` (client.rs): asserting on
// captured logs here was flaky, as tracing caches per-callsite interest process-wide.
#[tokio::test]
async fn after_a_unichem_outage_later_lookups_skip_it_until_the_cool_down_ends() {
    let up = Upstreams::start().await;
    mount_aspirin(&up).await;
    let unichem = Recording::sequence(vec![
        ResponseTemplate::new(503),
        ok("unichem_compounds__CHEMBL25.json"),
    ]);
    wiremock::Mock::given(wiremock::matchers::path("/compounds"))
        .respond_with(unichem.clone())
        .mount(&up.unichem)
        .await;
    let cool_down = Duration::from_millis(300);
    let client = lifesciences_core::testing::McpTestClient::connect(
        up.server_with(&[("UNICHEM_COOL_DOWN_SECS", "0.3")]),
    )
    .await;
    let lookup = || client.call_ok("chembl_get_compound", json!({"chembl_id": "CHEMBL:25"}));

    // The outage: no UniChem keys, and UniChem is paused.
    has_no_unichem_keys(&lookup().await);
    assert_eq!(unichem.count(), 1);
    // Within the pause, lookups do not ask UniChem at all.
    for _ in 0..3 {
        let c = lookup().await;
        has_no_unichem_keys(&c);
        assert_eq!(c["cross_references"]["chembl"], "CHEMBL25");
    }
    assert_eq!(unichem.count(), 1);
    // After it, UniChem is asked again (and now answers).
    tokio::time::sleep(cool_down + Duration::from_millis(100)).await;
    assert_eq!(lookup().await["cross_references"]["drugbank"], "DB00945");
    assert_eq!(unichem.count(), 2);
    client.close().await;
}

#[tokio::test]
async fn a_hanging_unichem_costs_one_timeout_then_lookups_run_at_chembl_speed() {
    let up = Upstreams::start().await;
    mount_aspirin(&up).await;
    mount_unichem(
        &up,
        "CHEMBL25",
        ok("unichem_compounds__CHEMBL25.json").set_delay(Duration::from_secs(5)),
    )
    .await;
    // The production pause (60 s).
    let client = up.client().await;
    for _ in 0..3 {
        let c = client
            .call_ok("chembl_get_compound", json!({"chembl_id": "CHEMBL:25"}))
            .await;
        has_no_unichem_keys(&c);
    }
    assert_eq!(up.unichem_requests().await.len(), 1);
    client.close().await;
}

#[tokio::test]
async fn structureless_molecules_are_valid_records() {
    let up = Upstreams::start().await;
    let cases = [
        ("CHEMBL2109414", "Antibody", "SEQ", None),
        ("CHEMBL2108458", "Small molecule", "NONE", None), // polymer
        (
            "CHEMBL364516",
            "Small molecule",
            "NONE",
            Some(("C26H25FeN3O2", 467.34)),
        ), // metal complex
        ("CHEMBL3544956", "Small molecule", "NONE", None),
    ];
    for (id, ..) in &cases {
        mount_molecule(&up, id, &format!("molecule__{id}.json")).await;
        mount_mechanisms(&up, id, "mechanism__empty.json").await;
        mount_unichem(&up, id, ok("unichem_compounds__not_found.json")).await;
    }
    let client = up.client().await;
    for (id, molecule_type, structure_type, formula) in cases {
        let curie = format!("CHEMBL:{}", &id[6..]);
        let c = client
            .call_ok("chembl_get_compound", json!({"chembl_id": curie}))
            .await;
        assert_eq!(c["id"], curie);
        assert!(c["name"].is_string(), "{c}");
        assert_eq!(c["molecule_type"], molecule_type);
        assert_eq!(c["structure_type"], structure_type);
        for key in ["smiles", "inchi", "inchi_key"] {
            assert!(c.get(key).is_none(), "{id} has {key}");
        }
        match formula {
            Some((f, w)) => {
                assert_eq!(c["molecular_formula"], f);
                assert_eq!(c["molecular_weight"], w);
            }
            None => assert!(c.get("molecular_formula").is_none(), "{c}"),
        }
        assert!(c["max_phase"].is_number());
        assert_eq!(c["cross_references"]["chembl"], id);
    }
    client.close().await;
}

/// A record is three requests sent together (the molecule, its mechanisms, UniChem). When
/// all three answer garbage, the first one read fails the call; the others, fetched for
/// it but never read, must not stay behind for the next call: once ChEMBL and UniChem
/// answer well again, the same process answers in full. Raced over several orders in
/// which the garbage arrives.
#[tokio::test]
async fn garbage_raced_against_its_siblings_leaves_nothing_for_the_next_call() {
    let garbage = [
        ResponseTemplate::new(200).set_body_string("{\"molecule_chembl_id\": \"CHEMB"),
        ResponseTemplate::new(200).set_body_string("<html>busy</html>"),
        ResponseTemplate::new(200).set_body_string(""),
    ];
    let delays = [
        (0, 0, 0),
        (0, 5, 10),
        (10, 0, 5),
        (5, 10, 0),
        (20, 0, 0),
        (0, 20, 0),
        (0, 0, 20),
    ];
    for (molecule, mechanisms, unichem) in delays {
        let up = Upstreams::start().await;
        let client = up.client().await;
        let late = |template: &ResponseTemplate, ms: u64| {
            template
                .clone()
                .set_delay(std::time::Duration::from_millis(ms))
        };
        chembl_get("/molecule/CHEMBL25.json", &[])
            .respond_with(late(&garbage[0], molecule))
            .mount(&up.chembl)
            .await;
        Mock::given(method("GET"))
            .and(path("/mechanism.json"))
            .respond_with(late(&garbage[1], mechanisms))
            .mount(&up.chembl)
            .await;
        mount_unichem(&up, "CHEMBL25", late(&garbage[2], unichem)).await;
        let e = client
            .call_err("chembl_get_compound", json!({"chembl_id": "CHEMBL:25"}))
            .await;
        assert_eq!(e.code, ErrorCode::UpstreamError, "{e:?}");
        // Let whatever was still in flight land.
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;

        up.chembl.reset().await;
        up.unichem.reset().await;
        mount_aspirin(&up).await;
        mount_unichem(&up, "CHEMBL25", ok("unichem_compounds__CHEMBL25.json")).await;
        let record = client
            .call_ok("chembl_get_compound", json!({"chembl_id": "CHEMBL:25"}))
            .await;
        assert_eq!(
            record["id"], "CHEMBL:25",
            "delays {molecule}/{mechanisms}/{unichem} ms"
        );
        assert!(
            record["cross_references"].get("pubchem_compound").is_some(),
            "UniChem's garbage was not kept: {record:#}"
        );
        client.close().await;
    }
}
