//! `chembl_search_compounds` through a real MCP client: ranking, short queries, cursors,
//! slim mode, and the exact parameters sent to ChEMBL.

use lifesciences_core::ErrorCode;
use serde_json::{Value, json};
use wiremock::ResponseTemplate;

use crate::support::{Upstreams, chembl_get, ok};

fn ids(page: &Value) -> Vec<&str> {
    page["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["id"].as_str().unwrap())
        .collect()
}

async fn mount_search(up: &Upstreams, q: &str, limit: &str, offset: &str, fixture: &str) {
    chembl_get(
        "/molecule/search.json",
        &[("q", q), ("limit", limit), ("offset", offset)],
    )
    .respond_with(ok(fixture))
    .expect(1)
    .mount(&up.chembl)
    .await;
}

#[tokio::test]
async fn imatinib_is_in_the_top_five_with_its_formula() {
    let up = Upstreams::start().await;
    mount_search(
        &up,
        "imatinib",
        "50",
        "0",
        "molecule_search__q=imatinib.json",
    )
    .await;
    let client = up.client().await;

    let page = client
        .call_ok("chembl_search_compounds", json!({"query": "imatinib"}))
        .await;
    let top5: Vec<&str> = ids(&page).into_iter().take(5).collect();
    assert!(top5.contains(&"CHEMBL:941"), "{top5:?}");
    let imatinib = &page["items"][0];
    assert_eq!(imatinib["id"], "CHEMBL:941");
    assert_eq!(imatinib["name"], "IMATINIB");
    assert_eq!(imatinib["molecular_formula"], "C29H31N7O");
    // max_phase arrives as the string "4.0" in recent releases; it leaves as a number.
    assert_eq!(imatinib["max_phase"], 4);
    assert_eq!(imatinib["molecular_weight"], 493.62);
    // ChEMBL's ranking, normalised: the top hit is 1, the rest below, in order.
    assert_eq!(imatinib["score"], 1.0);
    assert_eq!(page["items"][1]["score"], 0.81); // 17 / 21
    assert_eq!(
        page["pagination"],
        json!({"cursor": null, "total_count": 2, "page_size": 50})
    );
    client.close().await;
}

#[tokio::test]
async fn a_trade_name_and_a_common_name_find_their_compounds() {
    let up = Upstreams::start().await;
    mount_search(&up, "aspirin", "50", "0", "molecule_search__q=aspirin.json").await;
    mount_search(&up, "Gleevec", "10", "0", "molecule_search__q=Gleevec.json").await;
    let client = up.client().await;

    let page = client
        .call_ok("chembl_search_compounds", json!({"query": "aspirin"}))
        .await;
    assert_eq!(ids(&page)[0], "CHEMBL:25");
    assert_eq!(page["items"][0]["molecular_formula"], "C9H8O4");
    // A hit without a preferred name is named after its synonym.
    assert_eq!(page["items"][2]["name"], "Isosorbide-2-Aspirinate");

    let page = client
        .call_ok(
            "chembl_search_compounds",
            json!({"query": "  Gleevec ", "page_size": "10"}),
        )
        .await;
    assert_eq!(ids(&page), ["CHEMBL:1642", "CHEMBL:941"]);
    client.close().await;
}

#[tokio::test]
async fn the_cursor_continues_on_the_next_page_with_the_same_score_scale() {
    let up = Upstreams::start().await;
    mount_search(
        &up,
        "aspirin",
        "2",
        "0",
        "molecule_search__q=aspirin__limit=2__offset=0.json",
    )
    .await;
    mount_search(
        &up,
        "aspirin",
        "2",
        "2",
        "molecule_search__q=aspirin__limit=2__offset=2.json",
    )
    .await;
    let client = up.client().await;

    let first = client
        .call_ok(
            "chembl_search_compounds",
            json!({"query": "aspirin", "page_size": 2}),
        )
        .await;
    assert_eq!(ids(&first), ["CHEMBL:25", "CHEMBL:2260549"]);
    assert_eq!(first["pagination"]["total_count"], 4);
    let cursor = first["pagination"]["cursor"].as_str().unwrap().to_owned();

    let second = client
        .call_ok(
            "chembl_search_compounds",
            json!({"query": "aspirin", "page_size": 2, "cursor": cursor}),
        )
        .await;
    assert_eq!(ids(&second), ["CHEMBL:458500", "CHEMBL:457234"]);
    // Normalised against the first page's top score (8 / 25), not this page's own.
    assert_eq!(second["items"][0]["score"], 0.32);
    assert_eq!(second["pagination"]["cursor"], Value::Null);

    // The cursor belongs to its query.
    let e = client
        .call_err(
            "chembl_search_compounds",
            json!({"query": "ibuprofen", "page_size": 2, "cursor": cursor}),
        )
        .await;
    assert_eq!(e.code, ErrorCode::InvalidInput);
    assert_eq!(e.invalid_input.as_deref(), Some(cursor.as_str()));
    let e = client
        .call_err(
            "chembl_search_compounds",
            json!({"query": "aspirin", "cursor": "garbage"}),
        )
        .await;
    assert_eq!(e.code, ErrorCode::InvalidInput);
    client.close().await;
}

#[tokio::test]
async fn slim_keeps_only_id_name_and_formula() {
    let up = Upstreams::start().await;
    mount_search(
        &up,
        "imatinib",
        "50",
        "0",
        "molecule_search__q=imatinib.json",
    )
    .await;
    let client = up.client().await;

    let page = client
        .call_ok(
            "chembl_search_compounds",
            json!({"query": "imatinib", "slim": true}),
        )
        .await;
    for item in page["items"].as_array().unwrap() {
        let mut keys: Vec<&str> = item
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        keys.sort_unstable();
        assert_eq!(keys, ["id", "molecular_formula", "name"], "{item}");
    }
    assert_eq!(
        page["items"][0],
        json!({"id": "CHEMBL:941", "name": "IMATINIB", "molecular_formula": "C29H31N7O"})
    );
    client.close().await;
}

#[tokio::test]
async fn a_two_character_query_is_answered_by_exact_lookups_never_the_search() {
    let up = Upstreams::start().await;
    // ChEMBL's search refuses it (400 `Search query too short`); the server must not ask.
    chembl_get(
        "/molecule/search.json",
        &[("q", "He"), ("limit", "50"), ("offset", "0")],
    )
    .respond_with(
        ResponseTemplate::new(400)
            .set_body_string(r#"{"error_message": "Search query too short"}"#),
    )
    .expect(0)
    .mount(&up.chembl)
    .await;
    chembl_get(
        "/molecule.json",
        &[("pref_name__iexact", "He"), ("limit", "100")],
    )
    .respond_with(ok("molecule__pref_name__iexact=He.json"))
    .expect(1)
    .mount(&up.chembl)
    .await;
    chembl_get(
        "/molecule.json",
        &[
            ("molecule_synonyms__molecule_synonym__iexact", "He"),
            ("limit", "100"),
        ],
    )
    .respond_with(ok("molecule__synonym__iexact=He.json"))
    .expect(1)
    .mount(&up.chembl)
    .await;
    let client = up.client().await;

    let page = client
        .call_ok("chembl_search_compounds", json!({"query": "He"}))
        .await;
    assert_eq!(
        page,
        json!({"items": [{"id": "CHEMBL:1796997", "name": "HELIUM", "molecular_formula": "He",
                          "molecular_weight": 4.0, "max_phase": 4,
                          "molecule_type": "Small molecule", "score": 1.0}],
               "pagination": {"cursor": null, "total_count": 1, "page_size": 50}})
    );
    client.close().await;
}

#[tokio::test]
async fn a_one_character_query_is_ambiguous_and_costs_no_request() {
    let up = Upstreams::start().await;
    let client = up.client().await;
    for query in ["a", " x ", ""] {
        let e = client
            .call_err("chembl_search_compounds", json!({"query": query}))
            .await;
        assert_eq!(e.code, ErrorCode::AmbiguousQuery);
        assert!(
            e.recovery_hint
                .contains("Minimum query length is 2 characters"),
            "{}",
            e.recovery_hint
        );
        // A compound example, not core's neutral wording.
        assert!(
            e.recovery_hint.contains("'imatinib'"),
            "{}",
            e.recovery_hint
        );
        assert_eq!(e.invalid_input.as_deref(), Some(query));
    }
    assert!(up.chembl.received_requests().await.unwrap().is_empty());
    client.close().await;
}

#[tokio::test]
async fn bad_arguments_are_invalid_input() {
    let up = Upstreams::start().await;
    let client = up.client().await;
    for (args, needle) in [
        (
            json!({"query": "aspirin", "page_size": 0}),
            "between 1 and 100",
        ),
        (
            json!({"query": "aspirin", "page_size": 101}),
            "between 1 and 100",
        ),
        (
            json!({"query": "aspirin", "limit": 5}),
            "Unknown argument 'limit'",
        ),
        (json!({"query": "aspirin", "slim": "maybe"}), "'slim'"),
        (
            json!({}),
            "Pass one of 'query', 'similar_to' or 'substructure'.",
        ),
        (
            json!({"query": "aspirin", "substructure": "c1ccccc1"}),
            "Pass one of",
        ),
        (
            json!({"similar_to": "CC(=O)Oc1ccccc1C(=O)O", "similarity": 40}),
            "between 70 and 100",
        ),
    ] {
        let e = client.call_err("chembl_search_compounds", args).await;
        assert_eq!(e.code, ErrorCode::InvalidInput);
        assert!(e.message.contains(needle), "{}", e.message);
    }
    assert!(up.chembl.received_requests().await.unwrap().is_empty());
    client.close().await;
}

#[tokio::test]
async fn a_query_chembl_refuses_is_invalid_input_not_an_outage() {
    let up = Upstreams::start().await;
    chembl_get(
        "/molecule/search.json",
        &[("q", "%%%"), ("limit", "50"), ("offset", "0")],
    )
    .respond_with(
        ResponseTemplate::new(400)
            .set_body_string(r#"{"error_message": "Search query too short"}"#),
    )
    .expect(1)
    .mount(&up.chembl)
    .await;
    let client = up.client().await;
    let e = client
        .call_err("chembl_search_compounds", json!({"query": "%%%"}))
        .await;
    assert_eq!(e.code, ErrorCode::InvalidInput);
    assert!(
        e.message.contains("Search query too short"),
        "{}",
        e.message
    );
    client.close().await;
}

#[tokio::test]
async fn a_curie_is_searched_in_chembls_own_spelling() {
    let up = Upstreams::start().await;
    mount_search(
        &up,
        "CHEMBL941",
        "50",
        "0",
        "molecule_search__q=imatinib.json",
    )
    .await;
    let client = up.client().await;
    let page = client
        .call_ok("chembl_search_compounds", json!({"query": "CHEMBL:941"}))
        .await;
    assert_eq!(ids(&page)[0], "CHEMBL:941");
    client.close().await;
}

#[tokio::test]
async fn a_two_character_query_keeps_only_molecules_that_bear_the_name() {
    let up = Upstreams::start().await;
    // A filter ChEMBL no longer recognised is ignored: both lookups come back unfiltered.
    for filter in [
        "pref_name__iexact",
        "molecule_synonyms__molecule_synonym__iexact",
    ] {
        chembl_get("/molecule.json", &[(filter, "He"), ("limit", "100")])
            .respond_with(ok("molecule_search__q=aspirin.json"))
            .expect(1)
            .mount(&up.chembl)
            .await;
    }
    let client = up.client().await;
    let page = client
        .call_ok("chembl_search_compounds", json!({"query": "He"}))
        .await;
    assert_eq!(
        page,
        json!({"items": [], "pagination": {"cursor": null, "total_count": 0, "page_size": 50}})
    );
    client.close().await;
}

#[tokio::test]
async fn a_refused_query_echoes_exactly_what_was_sent() {
    let up = Upstreams::start().await;
    chembl_get(
        "/molecule/search.json",
        &[("q", "CHEMBL941"), ("limit", "50"), ("offset", "0")],
    )
    .respond_with(
        ResponseTemplate::new(400)
            .set_body_string(r#"{"error_message": "Invalid resource lookup data provided."}"#),
    )
    .expect(1)
    .mount(&up.chembl)
    .await;
    let client = up.client().await;
    // Sent with spaces and as a CURIE; searched trimmed and in ChEMBL's spelling.
    let e = client
        .call_err("chembl_search_compounds", json!({"query": " CHEMBL:941 "}))
        .await;
    assert_eq!(e.code, ErrorCode::InvalidInput);
    assert_eq!(e.invalid_input.as_deref(), Some(" CHEMBL:941 "));
    assert!(
        e.message.contains("Invalid resource lookup data provided"),
        "{}",
        e.message
    );
    // Long enough: the hint is not about length.
    assert!(
        !e.recovery_hint.contains("at least 3"),
        "{}",
        e.recovery_hint
    );
    client.close().await;
}

#[tokio::test]
async fn compounds_similar_to_aspirin_come_most_similar_first_with_their_similarity() {
    let up = Upstreams::start().await;
    chembl_get(
        "/similarity/CC%28%3DO%29Oc1ccccc1C%28%3DO%29O/80.json",
        &[("limit", "50"), ("offset", "0")],
    )
    .respond_with(ok("similarity__aspirin__80.json"))
    .mount(&up.chembl)
    .await;
    let client = up.client().await;

    let page = client
        .call_ok(
            "chembl_search_compounds",
            json!({"similar_to": "CC(=O)Oc1ccccc1C(=O)O", "similarity": 80}),
        )
        .await;

    let first = &page["items"][0];
    assert_eq!(first["id"], "CHEMBL:2296002");
    assert_eq!(first["similarity"], 100.0);
    assert_eq!(first["score"], 1.0);
    assert_eq!(page["items"][2]["name"], "CARBASPIRIN CALCIUM");
    assert_eq!(page["items"][2]["similarity"], 88.89);
    assert_eq!(page["pagination"]["total_count"], 4);
    assert_eq!(up.chembl.received_requests().await.unwrap().len(), 1);
    client.close().await;
}

#[tokio::test]
async fn a_substructure_search_and_an_unreadable_smiles() {
    let up = Upstreams::start().await;
    chembl_get(
        "/substructure/c1ccccc1C%28%3DO%29O.json",
        &[("limit", "50"), ("offset", "0")],
    )
    .respond_with(ok("similarity__aspirin__80.json"))
    .mount(&up.chembl)
    .await;
    chembl_get(
        "/substructure/C1CC.json",
        &[("limit", "50"), ("offset", "0")],
    )
    .respond_with(
        ResponseTemplate::new(400).set_body_string(
            r#"{"error_message": "Input string C1CC is not a valid SMILES string"}"#,
        ),
    )
    .mount(&up.chembl)
    .await;
    let client = up.client().await;

    let page = client
        .call_ok(
            "chembl_search_compounds",
            json!({"substructure": "c1ccccc1C(=O)O"}),
        )
        .await;
    assert_eq!(page["items"].as_array().unwrap().len(), 4);
    assert!(page["items"][0].get("similarity").is_none());
    assert!(page["items"][0].get("score").is_none());

    let err = client
        .call_err("chembl_search_compounds", json!({"substructure": "C1CC"}))
        .await;
    assert_eq!(err.code, ErrorCode::InvalidInput);
    assert!(
        err.message.contains("not a valid SMILES"),
        "{}",
        err.message
    );
    client.close().await;
}

#[tokio::test]
async fn an_inchikey_finds_its_molecule_exactly() {
    let up = Upstreams::start().await;
    chembl_get(
        "/molecule.json",
        &[
            (
                "molecule_structures__standard_inchi_key",
                "BSYNRYMUTXBXSQ-UHFFFAOYSA-N",
            ),
            ("limit", "100"),
        ],
    )
    .respond_with(ok(
        "molecule__standard_inchi_key=BSYNRYMUTXBXSQ-UHFFFAOYSA-N.json",
    ))
    .mount(&up.chembl)
    .await;
    let client = up.client().await;

    let page = client
        .call_ok(
            "chembl_search_compounds",
            json!({"query": "BSYNRYMUTXBXSQ-UHFFFAOYSA-N"}),
        )
        .await;
    assert_eq!(page["items"][0]["id"], "CHEMBL:25");
    assert_eq!(page["items"][0]["score"], 1.0);
    assert_eq!(up.chembl.received_requests().await.unwrap().len(), 1);
    client.close().await;
}
