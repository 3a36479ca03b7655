//! `chembl_get_drug_profile` as an agent sees it: lisinopril, whose mechanism ChEMBL
//! files under its dihydrate and whose indication and boxed warning hang off the parent,
//! asked by either form; five requests, each list asked by the parent; a list that fails
//! says so and the others stand. The answers are constructed (see the fixtures README).

use lifesciences_core::ErrorCode;
use serde_json::{Value, json};
use wiremock::ResponseTemplate;

use crate::support::{Upstreams, chembl_get, mount_molecule, mount_unknown_molecule, ok};

const PARENT: &str = "CHEMBL1237";

/// The dihydrate's molecule, the lists of every form of lisinopril (each asked by the
/// parent) and its target.
pub(crate) async fn mount_lisinopril(up: &Upstreams, warnings: ResponseTemplate) {
    mount_molecule(up, "CHEMBL419213", "molecule__CHEMBL419213.json").await;
    chembl_get(
        "/mechanism.json",
        &[
            ("parent_molecule_chembl_id", PARENT),
            ("limit", "1000"),
            ("offset", "0"),
        ],
    )
    .respond_with(ok("mechanism__parent_molecule_chembl_id=CHEMBL1237.json"))
    .mount(&up.chembl)
    .await;
    chembl_get(
        "/drug_indication.json",
        &[("parent_molecule_chembl_id", PARENT), ("limit", "1000")],
    )
    .respond_with(ok(
        "drug_indication__parent_molecule_chembl_id=CHEMBL1237.json",
    ))
    .mount(&up.chembl)
    .await;
    chembl_get(
        "/drug_warning.json",
        &[("parent_molecule_chembl_id", PARENT), ("limit", "1000")],
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

/// The ACE-inhibitor mechanism as the profile shows it, filed under the dihydrate.
fn ace_mechanism() -> Value {
    json!({"action_type": "INHIBITOR", "mechanism": "Angiotensin-converting enzyme inhibitor",
           "target": "CHEMBL:1808", "target_name": "Angiotensin-converting enzyme",
           "target_type": "SINGLE PROTEIN", "uniprot": ["P12821"], "direct": true,
           "max_phase": 4, "curated_for": "CHEMBL:419213",
           "references": ["PubMed:18955539"]})
}

#[tokio::test]
async fn lisinopril_by_its_parent_id_has_the_mechanism_filed_under_its_dihydrate() {
    let up = Upstreams::start().await;
    mount_molecule(&up, PARENT, "molecule__CHEMBL1237.json").await;
    mount_lisinopril(
        &up,
        ok("drug_warning__parent_molecule_chembl_id=CHEMBL1237.json"),
    )
    .await;
    let client = up.client().await;

    let profile = client
        .call_ok(
            "chembl_get_drug_profile",
            json!({"chembl_id": "CHEMBL:1237"}),
        )
        .await;

    assert_eq!(profile["id"], "CHEMBL:1237");
    assert!(profile.get("parent").is_none(), "{profile}");
    // It used to ask for the mechanisms filed under CHEMBL1237 itself: none.
    assert_eq!(profile["mechanisms"]["status"], "complete");
    assert_eq!(profile["mechanisms"]["items"], json!([ace_mechanism()]));
    assert_eq!(profile["indications"]["count"], 1);
    assert_eq!(profile["warnings"]["count"], 1);
    // The molecule, the three lists (each one request, by the parent), the target.
    let requests = up.chembl.received_requests().await.unwrap();
    assert_eq!(requests.len(), 5);
    for list in [
        "/mechanism.json",
        "/drug_indication.json",
        "/drug_warning.json",
    ] {
        let sent = up.chembl_requests(list).await;
        assert_eq!(sent.len(), 1, "{list}");
        assert!(
            sent[0]
                .url
                .query_pairs()
                .any(|(k, v)| k == "parent_molecule_chembl_id" && v == PARENT),
            "{list}: {}",
            sent[0].url
        );
    }
    client.close().await;
}

#[tokio::test]
async fn what_lisinopril_acts_on_is_for_and_is_warned_about_from_its_salt() {
    let up = Upstreams::start().await;
    mount_lisinopril(
        &up,
        ok("drug_warning__parent_molecule_chembl_id=CHEMBL1237.json"),
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
    // The mechanism is filed under the salt, found by asking for every form of the
    // parent.
    let m = &profile["mechanisms"];
    assert_eq!(m["status"], "complete");
    assert_eq!(m["items"], json!([ace_mechanism()]));
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
