//! Where a ChEMBL answer came from, as the agent sees it in `provenance`: aspirin's record
//! reads ChEMBL (its release, from `status.json`, looked up in the background and named
//! once known: the molecule, its mechanisms, their targets) and UniChem (no release to name: one look-up POST, with its body), and names
//! exactly those requests; asked again, the cache answers all of them (UniChem's look-ups
//! are cached too), with the time the upstreams first sent them.

use chembl_mcp::ChemblServer;
use lifesciences_core::McpServer;
use lifesciences_core::testing::{
    McpTestClient, mock_env_with_releases, requests_named, requests_seen,
};
use serde_json::json;

use crate::support::{Upstreams, mount_aspirin, mount_status, mount_unichem, ok};

#[tokio::test]
async fn aspirin_names_chembl_35_and_unichem_and_exactly_what_each_answered() {
    let up = Upstreams::start().await;
    mount_aspirin(&up).await;
    mount_unichem(&up, "CHEMBL25", ok("unichem_compounds__CHEMBL25.json")).await;
    mount_status(&up).await;
    let (chembl, unichem) = (up.chembl.uri(), up.unichem.uri());
    let env = mock_env_with_releases(&[
        ("CHEMBL_API_URL", chembl.as_str()),
        ("UNICHEM_API_URL", unichem.as_str()),
    ]);
    let client = McpTestClient::connect(ChemblServer::from_env(&env).unwrap()).await;
    let args = json!({"chembl_id": "CHEMBL:25"});

    let (_, first) = client
        .call_ok_with_provenance("chembl_get_compound", args.clone())
        .await;
    let sources = first["sources"].as_array().unwrap();
    let databases: Vec<&str> = sources
        .iter()
        .map(|s| s["database"].as_str().unwrap())
        .collect();
    assert_eq!(databases, ["ChEMBL", "UniChem"], "{first:#}");
    assert_eq!(sources[0]["licence"], "CC-BY-SA-3.0");
    assert_eq!(sources[0]["cite"], "doi:10.1093/nar/gkad1004");
    assert_eq!(sources[1]["licence"], "LicenseRef-EMBL-EBI");
    assert_eq!(sources[1]["cite"], "doi:10.1186/1758-2946-5-3");
    assert_eq!(
        sources[0].get("release"),
        None,
        "the first answer does not wait for ChEMBL's release"
    );
    assert_eq!(sources[1].get("release"), None, "UniChem names no release");
    let mut named = requests_named(&first);
    let mut seen = requests_seen(&up.chembl, &["/status.json"]).await;
    seen.extend(requests_seen(&up.unichem, &[]).await);
    named.sort();
    seen.sort();
    assert_eq!(named, seen);
    assert_eq!(seen.len(), 4, "{seen:?}");
    assert!(
        seen.contains(&format!(
            r#"POST {unichem}/compounds {{"compound":"CHEMBL25","sourceID":1,"type":"sourceID"}}"#
        )),
        "{seen:?}"
    );

    tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    let (_, again) = client
        .call_ok_once_released("chembl_get_compound", args, "ChEMBL")
        .await;
    assert_eq!(
        again["sources"][0]["release"], "ChEMBL_35",
        "looked up meanwhile, and the cached answers were retrieved within a day of it"
    );
    for (before, after) in sources.iter().zip(again["sources"].as_array().unwrap()) {
        assert_eq!(after["cached"], true, "{again:#}");
        assert_eq!(after["retrieved_at"], before["retrieved_at"]);
    }
    let mut named_again = requests_named(&again);
    named_again.sort();
    assert_eq!(named_again, seen);
    let asked =
        requests_seen(&up.chembl, &[]).await.len() + requests_seen(&up.unichem, &[]).await.len();
    assert_eq!(
        asked, 5,
        "nothing asked again (the fifth is the release look-up)"
    );
    client.close().await;
}
