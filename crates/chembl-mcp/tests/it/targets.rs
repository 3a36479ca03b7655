//! `chembl_search_targets` and `chembl_get_target` as an agent sees them: a gene symbol
//! to the human single-protein target in one request, a UniProt accession to its targets,
//! and a target with the drugs acting on it in three, its links and its components' in
//! the registry's keys. The answers are constructed but for the recorded ribosome (see
//! the fixtures README).

use lifesciences_core::ErrorCode;
use serde_json::json;
use wiremock::ResponseTemplate;

use crate::support::{SLIM_ONLY, Upstreams, chembl_get, ok};

#[tokio::test]
async fn egfr_as_a_human_single_protein_from_the_target_search() {
    let up = Upstreams::start().await;
    mount_egfr_search(&up).await;
    let client = up.client().await;

    let page = client
        .call_ok(
            "chembl_search_targets",
            json!({"query": "EGFR", "organism": "human", "target_type": "single protein"}),
        )
        .await;

    assert_eq!(
        page["items"],
        json!([{"id": "CHEMBL:203", "name": "Epidermal growth factor receptor erbB1",
                "type": "SINGLE PROTEIN", "organism": "Homo sapiens", "uniprot": ["P00533"],
                "gene_symbols": ["EGFR"], "score": 17.0}])
    );
    // Filtered here: the upstream total counts the unfiltered list.
    assert!(
        page["pagination"]
            .get("total_count")
            .is_none_or(|t| t.is_null())
    );
    assert_eq!(up.chembl.received_requests().await.unwrap().len(), 1);

    let all = client
        .call_ok("chembl_search_targets", json!({"query": "EGFR"}))
        .await;
    assert_eq!(all["items"].as_array().unwrap().len(), 3);
    assert_eq!(all["pagination"]["total_count"], 3);
    client.close().await;
}

#[tokio::test]
async fn a_uniprot_accession_finds_its_targets_by_component() {
    let up = Upstreams::start().await;
    chembl_get(
        "/target.json",
        &[
            ("target_components__accession", "P00533"),
            ("limit", "20"),
            ("offset", "0"),
        ],
    )
    .respond_with(ok("target__target_components__accession=P00533.json"))
    .mount(&up.chembl)
    .await;
    let client = up.client().await;

    let page = client
        .call_ok("chembl_search_targets", json!({"query": "p00533"}))
        .await;

    let ids: Vec<&str> = page["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["CHEMBL:203", "CHEMBL:2111431"]);
    assert_eq!(page["items"][1]["uniprot"], json!(["P00533", "P04626"]));
    client.close().await;
}

/// A gene symbol of six letters and digits (`CYP2D6`, `ADORA2A`) is no UniProt accession:
/// only UniProt's published pattern reads as one, so these go to the target search as
/// words, not to the component-accession filter, where they would match nothing.
#[tokio::test]
async fn a_symbol_shaped_like_six_letters_and_digits_is_searched_as_words() {
    let up = Upstreams::start().await;
    for symbol in ["CYP2D6", "ADORA2A"] {
        chembl_get(
            "/target/search.json",
            &[("q", symbol), ("limit", "20"), ("offset", "0")],
        )
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({
            "page_meta": {"limit": 20, "next": null, "offset": 0, "previous": null,
                          "total_count": 0},
            "targets": []
        })))
        .mount(&up.chembl)
        .await;
    }
    let client = up.client().await;

    for symbol in ["CYP2D6", "ADORA2A"] {
        client
            .call_ok("chembl_search_targets", json!({"query": symbol}))
            .await;
    }

    let paths: Vec<String> = up
        .chembl
        .received_requests()
        .await
        .unwrap()
        .iter()
        .map(|r| r.url.path().to_owned())
        .collect();
    assert_eq!(paths.len(), 2);
    assert!(
        paths.iter().all(|p| p.ends_with("/target/search.json")),
        "{paths:?}"
    );
    client.close().await;
}

/// EGFR's record, the mechanisms on it, and the drugs' names.
pub(crate) async fn mount_egfr(up: &Upstreams) {
    chembl_get("/target/CHEMBL203.json", &[])
        .respond_with(ok("target__CHEMBL203.json"))
        .mount(&up.chembl)
        .await;
    chembl_get(
        "/mechanism.json",
        &[("target_chembl_id", "CHEMBL203"), ("limit", "1000")],
    )
    .respond_with(ok("mechanism__target_chembl_id=CHEMBL203.json"))
    .mount(&up.chembl)
    .await;
    chembl_get(
        "/molecule.json",
        &[
            ("molecule_chembl_id__in", "CHEMBL939,CHEMBL553"),
            ("limit", "2"),
            ("only", SLIM_ONLY),
        ],
    )
    .respond_with(ok("molecule__in=CHEMBL939,CHEMBL553__only=slim.json"))
    .mount(&up.chembl)
    .await;
}

/// `target/search.json?q=EGFR`.
pub(crate) async fn mount_egfr_search(up: &Upstreams) {
    chembl_get(
        "/target/search.json",
        &[("q", "EGFR"), ("limit", "20"), ("offset", "0")],
    )
    .respond_with(ok("target_search__q=EGFR.json"))
    .mount(&up.chembl)
    .await;
}

#[tokio::test]
async fn a_target_with_the_drugs_acting_on_it_in_three_requests() {
    let up = Upstreams::start().await;
    mount_egfr(&up).await;
    let client = up.client().await;

    let target = client
        .call_ok("chembl_get_target", json!({"target_id": "CHEMBL:203"}))
        .await;

    assert_eq!(target["id"], "CHEMBL:203");
    assert_eq!(target["tax_id"], 9606);
    // The component's links in the registry's keys: GO, InterPro and Reactome have
    // none and are dropped, UniProt is the component's `accession`. canSAR and Wikipedia
    // (the target's own links) have none either: the target keeps its ChEMBL ID. It used
    // to be the list `["UniProt:P00533", "PDBe:1M17"]`, without the components' links.
    assert_eq!(
        target["components"],
        json!([{"accession": "P00533", "description": "Epidermal growth factor receptor",
                "type": "PROTEIN",
                "synonyms": ["EGFR", "Epidermal growth factor receptor"],
                "cross_references": {"ensembl_gene": "ENSG00000146648", "iuphar": "1797",
                                     "pdb": ["1M17", "1XKK"]}}])
    );
    assert_eq!(target["cross_references"], json!({"chembl": "CHEMBL203"}));
    let drugs = &target["drugs"];
    assert_eq!(drugs["status"], "complete");
    assert_eq!(drugs["count"], 2);
    assert_eq!(
        drugs["items"][0],
        json!({"compound": "CHEMBL:553", "name": "ERLOTINIB", "action_type": "INHIBITOR",
               "mechanism": "Epidermal growth factor receptor erbB1 inhibitor", "max_phase": 4})
    );
    assert_eq!(up.chembl.received_requests().await.unwrap().len(), 3);
    client.close().await;
}

#[tokio::test]
async fn a_recorded_target_without_links_keeps_its_chembl_id_and_plain_components() {
    let up = Upstreams::start().await;
    // The 70S ribosome as recorded in 2017: no `cross_references` and no
    // `target_component_xrefs` keys at all.
    chembl_get("/target/CHEMBL2363965.json", &[])
        .respond_with(ok("target__CHEMBL2363965.json"))
        .mount(&up.chembl)
        .await;
    chembl_get(
        "/mechanism.json",
        &[("target_chembl_id", "CHEMBL2363965"), ("limit", "1000")],
    )
    .respond_with(ok("mechanism__empty.json"))
    .mount(&up.chembl)
    .await;
    let client = up.client().await;

    let target = client
        .call_ok("chembl_get_target", json!({"target_id": "CHEMBL:2363965"}))
        .await;

    assert_eq!(
        target["cross_references"],
        json!({"chembl": "CHEMBL2363965"})
    );
    let components = target["components"].as_array().unwrap();
    assert_eq!(components.len(), 60);
    assert!(
        components
            .iter()
            .all(|c| c.get("cross_references").is_none()),
        "{components:?}"
    );
    assert_eq!(
        components[0],
        json!({"description": "5S ribosomal RNA", "type": "RNA"})
    );
    assert_eq!(components[3]["accession"], "P9WHE1");
    client.close().await;
}

#[tokio::test]
async fn an_unknown_target_is_not_found() {
    let up = Upstreams::start().await;
    chembl_get("/target/CHEMBL99999999.json", &[])
        .respond_with(ResponseTemplate::new(404))
        .mount(&up.chembl)
        .await;
    chembl_get(
        "/mechanism.json",
        &[("target_chembl_id", "CHEMBL99999999"), ("limit", "1000")],
    )
    .respond_with(ResponseTemplate::new(200).set_body_json(
        json!({"mechanisms": [], "page_meta": {"limit": 1000, "offset": 0, "total_count": 0}}),
    ))
    .mount(&up.chembl)
    .await;
    let client = up.client().await;
    let err = client
        .call_err("chembl_get_target", json!({"target_id": "CHEMBL:99999999"}))
        .await;
    assert_eq!(err.code, ErrorCode::EntityNotFound);
    assert!(err.recovery_hint.contains("chembl_search_targets"));
    client.close().await;
}
