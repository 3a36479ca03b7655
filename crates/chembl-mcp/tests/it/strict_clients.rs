//! Every tool, once succeeding and once failing, through the test client that checks each
//! result as a strict MCP client would: a success's structured content must validate
//! against the tool's output schema (JSON Schema 2020-12), and an error must carry its
//! envelope as text only, with no structured content.

use lifesciences_core::ErrorCode;
use serde_json::json;
use wiremock::ResponseTemplate;

use crate::batch::{MIXED, mount_mixed};
use crate::support::{
    Upstreams, chembl_get, mount_aspirin, mount_id_lookup, mount_unichem, mount_unknown_molecule,
    ok,
};

/// A strict client accepts every tool's answer, whether the call succeeds or fails; and
/// every tool the server lists is exercised here, so a new tool needs a case.
#[tokio::test]
async fn every_tool_answers_strict_clients_on_success_and_on_error() {
    let up = Upstreams::start().await;
    // Aspirin's full record (molecule, mechanisms, targets, UniChem's links).
    mount_aspirin(&up).await;
    mount_unichem(&up, "CHEMBL25", ok("unichem_compounds__CHEMBL25.json")).await;
    // An ID ChEMBL never issued: 404 for the molecule and for the ID lookup.
    mount_unknown_molecule(&up, "CHEMBL99999999").await;
    mount_id_lookup(&up, "CHEMBL99999999", ResponseTemplate::new(404)).await;
    // The mixed batch of ten, in its single request.
    mount_mixed(&up).await;
    // A search that finds imatinib, and one ChEMBL refuses (400).
    for (q, response) in [
        ("imatinib", ok("molecule_search__q=imatinib.json")),
        (
            "%%%",
            ResponseTemplate::new(400)
                .set_body_string(r#"{"error_message": "Search query too short"}"#),
        ),
    ] {
        chembl_get(
            "/molecule/search.json",
            &[("q", q), ("limit", "50"), ("offset", "0")],
        )
        .respond_with(response)
        .expect(1)
        .mount(&up.chembl)
        .await;
    }
    crate::profile::mount_lisinopril(
        &up,
        ok("drug_warning__parent_molecule_chembl_id=CHEMBL1237.json"),
    )
    .await;
    crate::bioactivities::mount_ranked(
        &up,
        "0",
        "activity__target_chembl_id=CHEMBL2842__limit=5.json",
    )
    .await;
    crate::targets::mount_egfr(&up).await;
    crate::targets::mount_egfr_search(&up).await;
    let client = up.client().await;

    // (tool, arguments that succeed, arguments that fail, the failure's code)
    let cases = [
        (
            "chembl_get_compounds_batch",
            json!({"chembl_ids": MIXED}),
            json!({"chembl_ids": []}),
            ErrorCode::InvalidInput,
        ),
        (
            "chembl_get_compound",
            json!({"chembl_id": "CHEMBL:25"}),
            json!({"chembl_id": "CHEMBL:99999999"}),
            ErrorCode::EntityNotFound,
        ),
        (
            "chembl_get_drug_profile",
            json!({"chembl_id": "CHEMBL:419213"}),
            json!({"chembl_id": "CHEMBL419213"}),
            ErrorCode::UnresolvedEntity,
        ),
        (
            "chembl_get_bioactivities",
            json!({"target": "CHEMBL:2842", "limit": 5}),
            json!({}),
            ErrorCode::InvalidInput,
        ),
        (
            "chembl_search_targets",
            json!({"query": "EGFR"}),
            json!({"query": "EGFR", "limit": 0}),
            ErrorCode::InvalidInput,
        ),
        (
            "chembl_get_target",
            json!({"target_id": "CHEMBL:203"}),
            json!({"target_id": "CHEMBL203"}),
            ErrorCode::UnresolvedEntity,
        ),
        (
            "chembl_search_compounds",
            json!({"query": "imatinib"}),
            json!({"query": "%%%"}),
            ErrorCode::InvalidInput,
        ),
    ];
    client
        .assert_every_tool_answers_success_and_error(&cases)
        .await;
    client.close().await;
}
