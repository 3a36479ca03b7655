//! `chembl_get_bioactivities` as an agent sees it: the most potent compounds on a target,
//! ranked by pChEMBL, one upstream page per call with a cursor through a list of 1,202;
//! rows without a pChEMBL reached on request and never read as 0.

use lifesciences_core::ErrorCode;
use serde_json::{Value, json};

use crate::support::{Upstreams, chembl_get, ok};

const FIELDS: &str = "activity_id,molecule_chembl_id,target_chembl_id,target_pref_name,\
target_organism,assay_chembl_id,assay_description,assay_type,standard_type,standard_relation,\
standard_value,standard_units,pchembl_value,document_chembl_id,document_year,activity_comment,\
data_validity_comment";

pub(crate) async fn mount_ranked(up: &Upstreams, offset: &str, fixture: &str) {
    chembl_get(
        "/activity.json",
        &[
            ("target_chembl_id", "CHEMBL2842"),
            ("pchembl_value__isnull", "false"),
            ("order_by", "-pchembl_value"),
            ("limit", "5"),
            ("offset", offset),
            ("only", FIELDS),
        ],
    )
    .respond_with(ok(fixture))
    .mount(&up.chembl)
    .await;
}

#[tokio::test]
async fn the_compounds_measured_on_mtor_most_potent_first_with_a_cursor_through_1202() {
    let up = Upstreams::start().await;
    mount_ranked(
        &up,
        "0",
        "activity__target_chembl_id=CHEMBL2842__limit=5.json",
    )
    .await;
    mount_ranked(
        &up,
        "5",
        "activity__target_chembl_id=CHEMBL2842__limit=5__offset=5.json",
    )
    .await;
    let client = up.client().await;

    let page = client
        .call_ok(
            "chembl_get_bioactivities",
            json!({"target": "CHEMBL:2842", "limit": 5}),
        )
        .await;

    let first = &page["activities"][0];
    assert_eq!(first["molecule"], "CHEMBL:1765464");
    assert_eq!(first["target"], "CHEMBL:2842");
    assert_eq!(first["standard_type"], "Kd");
    assert_eq!(first["value"], 39.0);
    assert_eq!(first["units"], "nM");
    assert_eq!(first["pchembl"], 7.41);
    assert_eq!(first["assay_type"], "B");
    assert_eq!(first["year"], 2011);
    assert_eq!(page["pagination"]["total_count"], 1202);

    let next = client
        .call_ok(
            "chembl_get_bioactivities",
            json!({"target": "CHEMBL:2842", "limit": 5, "cursor": page["pagination"]["cursor"]}),
        )
        .await;
    assert_eq!(next["activities"].as_array().unwrap().len(), 5);
    assert!(next["pagination"]["cursor"].is_string());
    // One request per call.
    assert_eq!(up.chembl.received_requests().await.unwrap().len(), 2);
    client.close().await;
}

#[tokio::test]
async fn rows_without_a_pchembl_are_reached_on_request_and_never_read_as_zero() {
    let up = Upstreams::start().await;
    chembl_get(
        "/activity.json",
        &[
            ("target_chembl_id", "CHEMBL2842"),
            ("pchembl_value__isnull", "true"),
            ("limit", "5"),
            ("offset", "0"),
            ("only", FIELDS),
        ],
    )
    .respond_with(ok(
        "activity__target_chembl_id=CHEMBL2842__without_pchembl.json",
    ))
    .mount(&up.chembl)
    .await;
    let client = up.client().await;

    let page = client
        .call_ok(
            "chembl_get_bioactivities",
            json!({"target": "CHEMBL:2842", "limit": 5, "with_pchembl": false}),
        )
        .await;

    let row = &page["activities"][0];
    assert_eq!(row["standard_type"], "Inhibition");
    assert_eq!(row["units"], "%");
    assert!(row.get("pchembl").is_none(), "{row}");
    assert_eq!(page["pagination"]["cursor"], Value::Null);
    client.close().await;
}

#[tokio::test]
async fn filters_go_upstream_in_chembls_names_and_bad_ones_are_refused_first() {
    let up = Upstreams::start().await;
    chembl_get(
        "/activity.json",
        &[
            ("molecule_chembl_id", "CHEMBL941"),
            ("target_chembl_id", "CHEMBL1862"),
            ("standard_type__iexact", "IC50"),
            ("assay_type", "B"),
            ("target_organism__iexact", "Homo sapiens"),
            ("pchembl_value__isnull", "false"),
            ("pchembl_value__gte", "8"),
            ("order_by", "-pchembl_value"),
            ("limit", "25"),
            ("offset", "0"),
            ("only", FIELDS),
        ],
    )
    .respond_with(wiremock::ResponseTemplate::new(200).set_body_json(
        json!({"activities": [], "page_meta": {"limit": 25, "offset": 0, "total_count": 0}}),
    ))
    .mount(&up.chembl)
    .await;
    let client = up.client().await;

    let page = client
        .call_ok(
            "chembl_get_bioactivities",
            json!({"molecule": "CHEMBL:941", "target": "CHEMBL:1862", "standard_type": "IC50",
                   "assay_type": "binding", "organism": "Homo sapiens", "min_pchembl": 8}),
        )
        .await;
    assert_eq!(page["pagination"]["total_count"], 0);
    assert!(page["note"].as_str().unwrap().contains("with_pchembl"));

    for args in [
        json!({}),
        json!({"target": "CHEMBL:1862", "assay_type": "cellular"}),
        json!({"target": "CHEMBL:1862", "with_pchembl": false, "min_pchembl": 6}),
        json!({"target": "CHEMBL1862"}),
    ] {
        let err = client
            .call_err("chembl_get_bioactivities", args.clone())
            .await;
        assert!(
            matches!(
                err.code,
                ErrorCode::InvalidInput | ErrorCode::UnresolvedEntity
            ),
            "{args}: {err:?}"
        );
    }
    assert_eq!(up.chembl.received_requests().await.unwrap().len(), 1);
    client.close().await;
}
