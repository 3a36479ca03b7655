//! `chembl_get_drug_profile` as an agent sees it: lisinopril asked by its salt, whose
//! mechanism is curated for the salt and whose indication and boxed warning hang off the
//! parent; five requests; a list that fails says so and the others stand. The answers
//! are constructed (see the fixtures README).

use lifesciences_core::ErrorCode;
use serde_json::json;
use wiremock::ResponseTemplate;

use crate::support::{Upstreams, chembl_get, mount_molecule, mount_unknown_molecule, ok};

const FORMS: &str = "CHEMBL419213,CHEMBL1237";

pub(crate) async fn mount_lisinopril(up: &Upstreams, warnings: ResponseTemplate) {
    mount_molecule(up, "CHEMBL419213", "molecule__CHEMBL419213.json").await;
    chembl_get(
        "/mechanism.json",
        &[
            ("molecule_chembl_id__in", FORMS),
            ("limit", "1000"),
            ("offset", "0"),
        ],
    )
    .respond_with(ok(
        "mechanism__molecule_chembl_id__in=CHEMBL419213,CHEMBL1237.json",
    ))
    .mount(&up.chembl)
    .await;
    chembl_get(
        "/drug_indication.json",
        &[("molecule_chembl_id__in", FORMS), ("limit", "1000")],
    )
    .respond_with(ok(
        "drug_indication__molecule_chembl_id__in=CHEMBL419213,CHEMBL1237.json",
    ))
    .mount(&up.chembl)
    .await;
    chembl_get(
        "/drug_warning.json",
        &[("molecule_chembl_id__in", FORMS), ("limit", "1000")],
    )
    .respond_with(warnings)
    .mount(&up.chembl)
    .await;
    chembl_get(
        "/target.json",
        &[
            ("target_chembl_id__in", "CHEMBL1808"),
            (
                "only",
                "target_chembl_id,pref_name,target_type,organism,target_components",
            ),
            ("limit", "1"),
        ],
    )
    .respond_with(ok("target__summary__CHEMBL1808.json"))
    .mount(&up.chembl)
    .await;
}

#[tokio::test]
async fn what_lisinopril_acts_on_is_for_and_is_warned_about_from_its_salt() {
    let up = Upstreams::start().await;
    mount_lisinopril(
        &up,
        ok("drug_warning__molecule_chembl_id__in=CHEMBL419213,CHEMBL1237.json"),
    )
    .await;
    let client = up.client().await;

    let profile = client
        .call_ok(
            "chembl_get_drug_profile",
            json!({"chembl_id": "CHEMBL:419213"}),
        )
        .await;

    assert_eq!(profile["id"], "CHEMBL:419213");
    assert_eq!(profile["parent"], "CHEMBL:1237");
    // The mechanism is curated for the salt: found because both forms are asked.
    let m = &profile["mechanisms"];
    assert_eq!(m["status"], "complete");
    assert_eq!(
        m["items"][0],
        json!({"action_type": "INHIBITOR", "mechanism": "Angiotensin-converting enzyme inhibitor",
               "target": "CHEMBL:1808", "target_name": "Angiotensin-converting enzyme",
               "target_type": "SINGLE PROTEIN", "uniprot": ["P12821"], "direct": true,
               "max_phase": 4, "curated_for": "CHEMBL:419213",
               "references": ["PubMed:18955539"]})
    );
    // The indication and the warning hang off the parent.
    assert_eq!(profile["indications"]["items"][0]["efo_id"], "EFO:0000537");
    assert_eq!(
        profile["indications"]["items"][0]["curated_for"],
        "CHEMBL:1237"
    );
    let w = &profile["warnings"]["items"][0];
    assert_eq!(w["type"], "Black Box Warning");
    assert_eq!(w["class"], "fetal toxicity");
    assert_eq!(w["countries"], json!(["United States"]));
    assert_eq!(w["year"], 1992);
    assert_eq!(profile["warnings"]["count"], 1);

    let requests = up.chembl.received_requests().await.unwrap();
    assert_eq!(requests.len(), 5);
    client.close().await;
}

#[tokio::test]
async fn a_failed_list_says_so_and_the_others_stand() {
    let up = Upstreams::start().await;
    mount_lisinopril(&up, ResponseTemplate::new(500)).await;
    let client = up.client().await;

    let profile = client
        .call_ok(
            "chembl_get_drug_profile",
            json!({"chembl_id": "CHEMBL:419213"}),
        )
        .await;

    assert_eq!(profile["warnings"]["status"], "failed");
    assert_eq!(profile["warnings"]["items"], json!([]));
    assert!(
        profile["warnings"]["error"]
            .as_str()
            .unwrap()
            .contains("ChEMBL")
    );
    assert_eq!(profile["mechanisms"]["status"], "complete");
    assert_eq!(profile["indications"]["status"], "complete");
    client.close().await;
}

#[tokio::test]
async fn an_unknown_compound_is_not_found() {
    let up = Upstreams::start().await;
    mount_unknown_molecule(&up, "CHEMBL99999999").await;
    chembl_get("/chembl_id_lookup/CHEMBL99999999.json", &[])
        .respond_with(ResponseTemplate::new(404))
        .mount(&up.chembl)
        .await;
    let client = up.client().await;
    let err = client
        .call_err(
            "chembl_get_drug_profile",
            json!({"chembl_id": "CHEMBL:99999999"}),
        )
        .await;
    assert_eq!(err.code, ErrorCode::EntityNotFound);
    client.close().await;
}
