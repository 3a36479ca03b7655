//! `chembl_get_compounds_batch` through a real MCP client: one upstream request, request
//! order, per-item errors, counts, full mode.

use lifesciences_core::ErrorCode;
use serde_json::{Value, json};

use crate::support::{SLIM_ONLY, Upstreams, chembl_get, exact_query, mount_unichem, ok};

/// The ten IDs of the mixed batch: seven known, two malformed, one unknown.
pub(crate) const MIXED: [&str; 10] = [
    "CHEMBL:25",
    "CHEMBL192",
    "CHEMBL:2109414",
    "aspirin",
    "CHEMBL:99999999",
    "CHEMBL:22",
    "CHEMBL:364516",
    "CHEMBL:6939",
    "CHEMBL:2108458",
    "CHEMBL:3544956",
];

/// The single request the mixed batch must cost.
pub(crate) async fn mount_mixed(up: &Upstreams) {
    chembl_get(
        "/molecule.json",
        &[
            (
                "molecule_chembl_id__in",
                "CHEMBL25,CHEMBL2109414,CHEMBL99999999,CHEMBL22,CHEMBL364516,CHEMBL6939,\
                 CHEMBL2108458,CHEMBL3544956",
            ),
            ("limit", "8"),
            ("only", SLIM_ONLY),
        ],
    )
    .respond_with(ok("molecule__in=mixed_batch__only=slim.json"))
    .expect(1)
    .mount(&up.chembl)
    .await;
}

#[tokio::test]
async fn a_mixed_batch_of_ten_keeps_request_order_with_per_item_errors_in_one_request() {
    let up = Upstreams::start().await;
    mount_mixed(&up).await;
    let client = up.client().await;

    let batch = client
        .call_ok("chembl_get_compounds_batch", json!({"chembl_ids": MIXED}))
        .await;
    assert_eq!(batch["found"], 7);
    assert_eq!(batch["failed"], 3);
    let items = batch["items"].as_array().unwrap();
    assert_eq!(items.len(), 10);
    let ids: Vec<&str> = items.iter().map(|i| i["id"].as_str().unwrap()).collect();
    assert_eq!(
        ids,
        [
            "CHEMBL:25",
            "CHEMBL192",
            "CHEMBL:2109414",
            "aspirin",
            "CHEMBL:99999999",
            "CHEMBL:22",
            "CHEMBL:364516",
            "CHEMBL:6939",
            "CHEMBL:2108458",
            "CHEMBL:3544956",
        ]
    );
    // Slim by default.
    assert_eq!(
        items[0],
        json!({"id": "CHEMBL:25", "name": "ASPIRIN", "molecular_formula": "C9H8O4"})
    );
    assert_eq!(
        items[5],
        json!({"id": "CHEMBL:22", "name": "TRIMETHOPRIM", "molecular_formula": "C14H18N4O3"})
    );
    // A research compound without a name, an antibody without a formula.
    assert_eq!(
        items[7],
        json!({"id": "CHEMBL:6939", "molecular_formula": "C17H27NO3"})
    );
    assert_eq!(
        items[2],
        json!({"id": "CHEMBL:2109414", "name": "IMGN-853"})
    );

    let error = |i: usize| -> &Value { &items[i]["error"] };
    assert_eq!(error(1)["code"], "UNRESOLVED_ENTITY");
    assert_eq!(error(1)["recovery_hint"], "Use format 'CHEMBL:192'");
    assert_eq!(error(1)["invalid_input"], "CHEMBL192");
    assert_eq!(error(3)["code"], "UNRESOLVED_ENTITY");
    assert_eq!(error(3)["invalid_input"], "aspirin");
    assert_eq!(error(4)["code"], "ENTITY_NOT_FOUND");
    assert_eq!(error(4)["invalid_input"], "CHEMBL:99999999");
    for i in [1, 3, 4] {
        assert!(error(i)["message"].is_string() && error(i)["recovery_hint"].is_string());
    }
    assert_eq!(up.chembl.received_requests().await.unwrap().len(), 1);
    client.close().await;
}

#[tokio::test]
async fn results_follow_the_request_not_the_upstreams_primary_key_order() {
    let up = Upstreams::start().await;
    // Recorded: ChEMBL answers CHEMBL25, CHEMBL27, CHEMBL192 whatever the request order.
    chembl_get(
        "/molecule.json",
        &[
            ("molecule_chembl_id__in", "CHEMBL192,CHEMBL27,CHEMBL25"),
            ("limit", "3"),
            ("only", SLIM_ONLY),
        ],
    )
    .respond_with(ok(
        "molecule__in=CHEMBL25,CHEMBL192,CHEMBL27__only=id,name.json",
    ))
    .expect(1)
    .mount(&up.chembl)
    .await;
    let client = up.client().await;
    let batch = client
        .call_ok(
            "chembl_get_compounds_batch",
            json!({"chembl_ids": ["CHEMBL:192", "CHEMBL:27", "CHEMBL:25", "CHEMBL:192"]}),
        )
        .await;
    assert_eq!(
        batch,
        json!({"items": [
            {"id": "CHEMBL:192", "name": "SILDENAFIL"},
            {"id": "CHEMBL:27", "name": "PROPRANOLOL"},
            {"id": "CHEMBL:25", "name": "ASPIRIN"},
            {"id": "CHEMBL:192", "name": "SILDENAFIL"}
        ], "found": 4, "failed": 0})
    );
    client.close().await;
}

#[tokio::test]
async fn a_batch_of_only_malformed_ids_makes_no_request() {
    let up = Upstreams::start().await;
    let client = up.client().await;
    let batch = client
        .call_ok(
            "chembl_get_compounds_batch",
            json!({"chembl_ids": ["CHEMBL25", "imatinib"]}),
        )
        .await;
    assert_eq!(batch["found"], 0);
    assert_eq!(batch["failed"], 2);
    assert_eq!(
        batch["items"][0]["error"]["recovery_hint"],
        "Use format 'CHEMBL:25'"
    );
    assert!(up.chembl.received_requests().await.unwrap().is_empty());
    client.close().await;
}

/// Full records of the antibody and aspirin: one molecule, one mechanism and one target
/// request for both, and UniChem for each.
pub(crate) async fn mount_full_pair(up: &Upstreams) {
    chembl_get(
        "/molecule.json",
        &[
            ("molecule_chembl_id__in", "CHEMBL2109414,CHEMBL25"),
            ("limit", "2"),
        ],
    )
    .respond_with(ok("molecule__in=CHEMBL25,CHEMBL2109414.json"))
    .expect(1)
    .mount(&up.chembl)
    .await;
    chembl_get(
        "/mechanism.json",
        &[
            ("parent_molecule_chembl_id__in", "CHEMBL2109414,CHEMBL25"),
            ("limit", "1000"),
            ("offset", "0"),
        ],
    )
    .respond_with(ok("mechanism__molecule_chembl_id=CHEMBL25.json"))
    .expect(1)
    .mount(&up.chembl)
    .await;
    chembl_get(
        "/target.json",
        &[
            ("target_chembl_id__in", "CHEMBL221,CHEMBL230"),
            ("only", "target_chembl_id,target_components"),
            ("limit", "2"),
        ],
    )
    .respond_with(ok("target__target_chembl_id__in=CHEMBL221,CHEMBL230.json"))
    .expect(1)
    .mount(&up.chembl)
    .await;
    mount_unichem(up, "CHEMBL25", ok("unichem_compounds__CHEMBL25.json")).await;
    mount_unichem(up, "CHEMBL2109414", ok("unichem_compounds__not_found.json")).await;
}

#[tokio::test]
async fn full_records_cost_one_mechanism_and_one_target_request_for_the_whole_batch() {
    let up = Upstreams::start().await;
    mount_full_pair(&up).await;
    let client = up.client().await;

    let batch = client
        .call_ok(
            "chembl_get_compounds_batch",
            json!({"chembl_ids": ["CHEMBL:2109414", "CHEMBL:25"], "slim": false}),
        )
        .await;
    let antibody = &batch["items"][0];
    assert_eq!(antibody["molecule_type"], "Antibody");
    assert_eq!(
        antibody["cross_references"],
        json!({"chembl": "CHEMBL2109414"})
    );
    let aspirin = &batch["items"][1];
    assert_eq!(aspirin["smiles"], "CC(=O)Oc1ccccc1C(=O)O");
    assert_eq!(
        aspirin["cross_references"]["uniprot"],
        json!(["P23219", "P35354"])
    );
    assert_eq!(aspirin["cross_references"]["drugbank"], "DB00945");
    assert_eq!(up.unichem_requests().await.len(), 2);
    client.close().await;
}

#[tokio::test]
async fn a_batch_asks_the_mechanisms_of_every_form_by_parent_in_one_request() {
    let up = Upstreams::start().await;
    chembl_get(
        "/molecule.json",
        &[
            ("molecule_chembl_id__in", "CHEMBL25,CHEMBL1237,CHEMBL419213"),
            ("limit", "3"),
        ],
    )
    .respond_with(ok("molecule__in=CHEMBL25,CHEMBL1237,CHEMBL419213.json"))
    .expect(1)
    .mount(&up.chembl)
    .await;
    // Two drugs (the dihydrate's parent is lisinopril): one filter of two parents,
    // which also finds the mechanism ChEMBL files under the dihydrate.
    chembl_get(
        "/mechanism.json",
        &[
            ("parent_molecule_chembl_id__in", "CHEMBL25,CHEMBL1237"),
            ("limit", "1000"),
            ("offset", "0"),
        ],
    )
    .respond_with(ok(
        "mechanism__parent_molecule_chembl_id__in=CHEMBL25,CHEMBL1237.json",
    ))
    .expect(1)
    .mount(&up.chembl)
    .await;
    chembl_get(
        "/target.json",
        &[
            ("target_chembl_id__in", "CHEMBL221,CHEMBL230,CHEMBL1808"),
            ("only", "target_chembl_id,target_components"),
            ("limit", "3"),
        ],
    )
    .respond_with(ok(
        "target__target_chembl_id__in=CHEMBL221,CHEMBL230,CHEMBL1808.json",
    ))
    .expect(1)
    .mount(&up.chembl)
    .await;
    mount_unichem(&up, "CHEMBL25", ok("unichem_compounds__CHEMBL25.json")).await;
    for id in ["CHEMBL1237", "CHEMBL419213"] {
        mount_unichem(&up, id, ok("unichem_compounds__not_found.json")).await;
    }
    let client = up.client().await;

    let batch = client
        .call_ok(
            "chembl_get_compounds_batch",
            json!({"chembl_ids": ["CHEMBL:25", "CHEMBL:1237", "CHEMBL:419213"], "slim": false}),
        )
        .await;

    let uniprot = |i: usize| batch["items"][i]["cross_references"]["uniprot"].clone();
    assert_eq!(uniprot(0), json!(["P23219", "P35354"]));
    // Lisinopril by its parent ID used to get nothing: its mechanism is the dihydrate's.
    assert_eq!(uniprot(1), json!(["P12821"]));
    assert_eq!(uniprot(2), json!(["P12821"]));
    assert_eq!(batch["items"][2]["parent_id"], "CHEMBL:1237");
    // Molecules, mechanisms, targets: one request each.
    assert_eq!(up.chembl.received_requests().await.unwrap().len(), 3);
    client.close().await;
}

#[tokio::test]
async fn empty_and_oversized_batches_are_invalid_input() {
    let up = Upstreams::start().await;
    let client = up.client().await;
    let e = client
        .call_err("chembl_get_compounds_batch", json!({"chembl_ids": []}))
        .await;
    assert_eq!(e.code, ErrorCode::InvalidInput);
    assert!(e.message.contains("1 to 100"), "{}", e.message);
    // What was sent: the empty list itself, or the size of the long one (as string-mcp
    // does; it used to echo the bare counts "0" and "101").
    assert_eq!(e.invalid_input.as_deref(), Some("[]"));
    let many: Vec<String> = (1..=101).map(|n| format!("CHEMBL:{n}")).collect();
    let e = client
        .call_err("chembl_get_compounds_batch", json!({"chembl_ids": many}))
        .await;
    assert_eq!(e.code, ErrorCode::InvalidInput);
    assert_eq!(e.invalid_input.as_deref(), Some("101 identifiers"));
    let e = client
        .call_err(
            "chembl_get_compounds_batch",
            json!({"chembl_ids": "CHEMBL:25"}),
        )
        .await;
    assert_eq!(e.code, ErrorCode::InvalidInput);
    assert!(e.message.contains("'chembl_ids'"), "{}", e.message);
    assert!(up.chembl.received_requests().await.unwrap().is_empty());
    client.close().await;
}

#[tokio::test]
async fn a_hundred_ids_are_still_one_request() {
    let up = Upstreams::start().await;
    let ids: Vec<String> = (1..=100).map(|n| format!("CHEMBL{n}")).collect();
    let joined = ids.join(",");
    wiremock::Mock::given(wiremock::matchers::path("/molecule.json"))
        .and(exact_query(&[
            ("molecule_chembl_id__in", &joined),
            ("limit", "100"),
            ("only", SLIM_ONLY),
        ]))
        .respond_with(ok(
            "molecule__in=CHEMBL25,CHEMBL192,CHEMBL27__only=id,name.json",
        ))
        .expect(1)
        .mount(&up.chembl)
        .await;
    let client = up.client().await;
    let curies: Vec<String> = (1..=100).map(|n| format!("CHEMBL:{n}")).collect();
    let batch = client
        .call_ok("chembl_get_compounds_batch", json!({"chembl_ids": curies}))
        .await;
    assert_eq!(batch["found"], 2); // CHEMBL25 and CHEMBL27 of the recorded answer
    assert_eq!(batch["failed"], 98);
    assert_eq!(batch["items"][24]["id"], "CHEMBL:25");
    client.close().await;
}

#[tokio::test]
async fn once_unichem_fails_the_rest_of_the_batch_does_not_ask_it_again() {
    let up = Upstreams::start().await;
    mount_full_pair(&up).await;
    // Both compounds would get UniChem's 500; one lookup at a time, like its real cap of 5
    // with more compounds than that.
    up.unichem.reset().await;
    wiremock::Mock::given(wiremock::matchers::path("/compounds"))
        .respond_with(wiremock::ResponseTemplate::new(500))
        .mount(&up.unichem)
        .await;
    let client = up.client_with_serial_unichem().await;

    let batch = client
        .call_ok(
            "chembl_get_compounds_batch",
            json!({"chembl_ids": ["CHEMBL:2109414", "CHEMBL:25"], "slim": false}),
        )
        .await;
    assert_eq!(batch["found"], 2);
    assert!(
        batch["items"][1]["cross_references"]
            .get("drugbank")
            .is_none()
    );
    assert_eq!(
        batch["items"][1]["cross_references"]["uniprot"],
        json!(["P23219", "P35354"])
    );
    // The first compound's single attempt (there used to be a retry); the second never
    // asked.
    assert_eq!(up.unichem_requests().await.len(), 1);
    client.close().await;
}

#[tokio::test]
async fn a_unichem_error_about_one_compound_keeps_the_links_of_the_others() {
    let up = Upstreams::start().await;
    mount_full_pair(&up).await;
    // UniChem refuses the antibody (a 4xx about that compound, not an outage), then answers
    // for aspirin; one lookup at a time so the refusal comes first.
    up.unichem.reset().await;
    mount_unichem(
        &up,
        "CHEMBL2109414",
        wiremock::ResponseTemplate::new(400).set_body_string(r#"{"error": "bad compound"}"#),
    )
    .await;
    mount_unichem(&up, "CHEMBL25", ok("unichem_compounds__CHEMBL25.json")).await;
    let client = up.client_with_serial_unichem().await;

    let batch = client
        .call_ok(
            "chembl_get_compounds_batch",
            json!({"chembl_ids": ["CHEMBL:2109414", "CHEMBL:25"], "slim": false}),
        )
        .await;
    assert_eq!(batch["found"], 2);
    assert_eq!(
        batch["items"][0]["cross_references"],
        json!({"chembl": "CHEMBL2109414"})
    );
    assert_eq!(batch["items"][1]["cross_references"]["drugbank"], "DB00945");
    assert_eq!(up.unichem_requests().await.len(), 2);
    // And the next call still asks UniChem: a refusal is no outage.
    crate::support::mount_molecule(&up, "CHEMBL2109414", "molecule__CHEMBL2109414.json").await;
    crate::support::mount_mechanisms(&up, "CHEMBL2109414", "mechanism__empty.json").await;
    client
        .call_ok(
            "chembl_get_compound",
            json!({"chembl_id": "CHEMBL:2109414"}),
        )
        .await;
    assert_eq!(up.unichem_requests().await.len(), 3);
    client.close().await;
}

#[tokio::test]
async fn a_slim_batch_names_a_molecule_without_a_preferred_name_after_its_synonym() {
    let up = Upstreams::start().await;
    chembl_get(
        "/molecule.json",
        &[
            ("molecule_chembl_id__in", "CHEMBL458500"),
            ("limit", "1"),
            ("only", SLIM_ONLY),
        ],
    )
    .respond_with(ok("molecule__in=CHEMBL458500__only=slim.json"))
    .expect(1)
    .mount(&up.chembl)
    .await;
    let client = up.client().await;
    let batch = client
        .call_ok(
            "chembl_get_compounds_batch",
            json!({"chembl_ids": ["CHEMBL:458500"]}),
        )
        .await;
    assert_eq!(
        batch["items"][0],
        json!({"id": "CHEMBL:458500", "name": "Isosorbide-2-Aspirinate",
               "molecular_formula": "C15H16O7"})
    );
    client.close().await;
}
