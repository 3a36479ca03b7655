//! `string_search_proteins` as an agent sees it, and the request it sends.

use lifesciences_core::ErrorCode;
use serde_json::json;
use wiremock::ResponseTemplate;
use wiremock::matchers::{header, query_param};

use crate::support::{TP53, fixture, get, query_of, request_count, requests_to, setup};

/// "TP53" → first candidate STRING:9606.ENSP00000269305, species 9606, scored.
#[tokio::test]
async fn searching_tp53_ranks_the_human_p53_curie_first() {
    let (upstream, client) = setup().await;
    get("get_string_ids")
        .and(query_param("identifiers", "TP53"))
        .and(header("accept", "application/json"))
        .respond_with(fixture("get_string_ids__TP53.json"))
        .expect(1)
        .mount(&upstream)
        .await;

    let page = client
        .call_ok("string_search_proteins", json!({"query": "TP53"}))
        .await;

    assert_eq!(
        page["items"][0],
        json!({
            "id": TP53,
            "preferred_name": "TP53",
            "taxon_id": 9606,
            "taxon_name": "Homo sapiens",
            "annotation": "Cellular tumor antigen p53; Acts as a tumor suppressor in many tumor types; induces growth arrest or apoptosis depending on the physiological circumstances and cell type...",
            "score": 1.0
        })
    );
    assert_eq!(
        page["pagination"],
        json!({"cursor": null, "total_count": 1, "page_size": 10})
    );
    // One request, in the shape STRING expects: the page plus one row to see if more follow.
    let sent = requests_to(&upstream, "get_string_ids").await;
    assert_eq!(
        query_of(&sent[0]),
        [
            ("caller_identity", "lifesciences-mcp"),
            ("identifiers", "TP53"),
            ("species", "9606"),
            ("limit", "11"),
            ("echo_query", "1"),
        ]
        .map(|(k, v)| (k.to_owned(), v.to_owned()))
    );
    client.close().await;
}

/// A partial name of ≥ 2 characters matches; candidates page with a cursor
/// tied to the query.
#[tokio::test]
async fn a_partial_name_matches_and_pages_with_a_cursor() {
    let (upstream, client) = setup().await;
    for limit in ["2", "3"] {
        get("get_string_ids")
            .and(query_param("identifiers", "BRCA"))
            .and(query_param("limit", limit))
            .respond_with(fixture("get_string_ids__BRCA.json"))
            .expect(1)
            .mount(&upstream)
            .await;
    }

    let first = client
        .call_ok(
            "string_search_proteins",
            json!({"query": "BRCA", "limit": 1}),
        )
        .await;
    assert_eq!(first["items"].as_array().unwrap().len(), 1);
    assert_eq!(first["items"][0]["preferred_name"], "BRCA1");
    assert_eq!(first["items"][0]["id"], "STRING:9606.ENSP00000418960");
    assert_eq!(first["items"][0]["score"], 1.0);
    assert!(
        first["pagination"]["total_count"].is_null(),
        "more may follow"
    );
    let cursor = first["pagination"]["cursor"]
        .as_str()
        .expect("a next page")
        .to_owned();

    let second = client
        .call_ok(
            "string_search_proteins",
            json!({"query": "BRCA", "limit": "1", "cursor": cursor}),
        )
        .await;
    assert_eq!(second["items"][0]["preferred_name"], "BRCA2");
    assert_eq!(second["items"][0]["score"], 0.5, "second in STRING's order");
    assert_eq!(
        second["pagination"],
        json!({"cursor": null, "total_count": 2, "page_size": 1})
    );

    // The cursor belongs to its query: another query or species refuses it.
    for other in [
        json!({"query": "BRCA2", "cursor": cursor}),
        json!({"query": "BRCA", "species": 10090, "cursor": cursor}),
        json!({"query": "BRCA", "cursor": "garbage"}),
    ] {
        let e = client.call_err("string_search_proteins", other).await;
        assert_eq!(e.code, ErrorCode::InvalidInput);
    }
    client.close().await;
}

/// A 1-character query is AMBIGUOUS_QUERY with the minimum in the hint, and
/// STRING is not asked.
#[tokio::test]
async fn a_one_character_query_is_ambiguous_and_never_reaches_string() {
    let (upstream, client) = setup().await;
    for query in ["T", " p ", ""] {
        let e = client
            .call_err("string_search_proteins", json!({"query": query}))
            .await;
        assert_eq!(e.code, ErrorCode::AmbiguousQuery);
        assert!(
            e.recovery_hint
                .contains("Minimum query length is 2 characters"),
            "{}",
            e.recovery_hint
        );
        assert_eq!(e.invalid_input.as_deref(), Some(query));
    }
    assert_eq!(request_count(&upstream).await, 0);
    client.close().await;
}

/// `species=9606` restricts the search to Homo sapiens: the request carries it
/// (as number, string, or by default), and other taxa are passed as given.
#[tokio::test]
async fn species_is_sent_to_string_and_defaults_to_human() {
    let (upstream, client) = setup().await;
    get("get_string_ids")
        .and(query_param("species", "9606"))
        .respond_with(fixture("get_string_ids__TP53.json"))
        .expect(1) // three calls, one request: the answer is cached
        .mount(&upstream)
        .await;
    get("get_string_ids")
        .and(query_param("species", "10090"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!([])))
        .expect(1)
        .mount(&upstream)
        .await;
    get("get_string_ids")
        .and(query_param("species", "STRG0A31YWK"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!([])))
        .expect(1)
        .mount(&upstream)
        .await;

    for species in [json!(9606), json!("9606"), json!(null)] {
        let page = client
            .call_ok(
                "string_search_proteins",
                json!({"query": "TP53", "species": species}),
            )
            .await;
        assert_eq!(page["items"][0]["taxon_id"], 9606);
        assert_eq!(page["items"][0]["taxon_name"], "Homo sapiens");
    }
    let mouse = client
        .call_ok(
            "string_search_proteins",
            json!({"query": "TP53", "species": "10090"}),
        )
        .await;
    assert_eq!(
        mouse,
        json!({"items": [], "pagination": {"cursor": null, "total_count": 0, "page_size": 10}})
    );
    client
        .call_ok(
            "string_search_proteins",
            json!({"query": "TP53", "species": "strg0a31ywk"}),
        )
        .await;
    client.close().await;
}

/// A species that is not a taxon or genome ID is INVALID_INPUT before any
/// request; one STRING refuses (400) is INVALID_INPUT too.
#[tokio::test]
async fn malformed_and_unknown_species_are_invalid_input() {
    let (upstream, client) = setup().await;
    for (species, hint_has) in [
        (json!("platypus"), "9606 human"),
        (json!(-9606), "positive integer"),
        (json!(0), "positive integer"),
        (json!("Mus"), "human, mouse, rat"),
    ] {
        let e = client
            .call_err(
                "string_search_proteins",
                json!({"query": "TP53", "species": species}),
            )
            .await;
        assert_eq!(e.code, ErrorCode::InvalidInput, "{species}");
        assert!(e.recovery_hint.contains(hint_has), "{}", e.recovery_hint);
    }
    assert_eq!(request_count(&upstream).await, 0);

    get("get_string_ids")
        .and(query_param("species", "999999999"))
        .respond_with(ResponseTemplate::new(400).set_body_string("Error: species not found"))
        .expect(1)
        .mount(&upstream)
        .await;
    let e = client
        .call_err(
            "string_search_proteins",
            json!({"query": "TP53", "species": 999_999_999}),
        )
        .await;
    assert_eq!(e.code, ErrorCode::InvalidInput);
    assert!(e.message.contains("species not found"), "{}", e.message);
    assert_eq!(e.invalid_input.as_deref(), Some("999999999"));
    client.close().await;
}

/// A 400 about the species echoes the species as the caller wrote it; a 400 about
/// something else does not blame `species` (it is STRING's refusal, in its words).
#[tokio::test]
async fn a_400_blames_species_only_when_string_says_so() {
    let (upstream, client) = setup().await;
    get("get_string_ids")
        .and(query_param("species", "STRG0ZZZZZZ"))
        .respond_with(ResponseTemplate::new(400).set_body_string("Error: unknown organism"))
        .expect(1)
        .mount(&upstream)
        .await;
    get("get_string_ids")
        .and(query_param("species", "9606"))
        .respond_with(
            ResponseTemplate::new(400).set_body_string("Error: identifiers could not be parsed"),
        )
        .expect(1)
        .mount(&upstream)
        .await;

    let e = client
        .call_err(
            "string_search_proteins",
            json!({"query": "TP53", "species": "strg0zzzzzz"}),
        )
        .await;
    assert_eq!(e.code, ErrorCode::InvalidInput);
    assert_eq!(e.invalid_input.as_deref(), Some("strg0zzzzzz"));
    assert!(e.message.contains("species 'strg0zzzzzz'"), "{}", e.message);
    assert!(e.message.contains("unknown organism"), "{}", e.message);

    let e = client
        .call_err(
            "string_search_proteins",
            json!({"query": "TP53", "species": "human"}),
        )
        .await;
    assert_eq!(e.code, ErrorCode::UpstreamError);
    assert!(
        e.message.contains("identifiers could not be parsed"),
        "{}",
        e.message
    );
    assert!(!e.message.contains("species"), "{}", e.message);
    assert_eq!(e.invalid_input, None);
    client.close().await;
}

/// Common names are their taxa (`human` is 9606, `Mus musculus` 10090), and share
/// cursors and cached answers with the taxon.
#[tokio::test]
async fn common_species_names_are_their_taxa() {
    let (upstream, client) = setup().await;
    get("get_string_ids")
        .and(query_param("species", "9606"))
        .respond_with(fixture("get_string_ids__TP53.json"))
        .expect(1)
        .mount(&upstream)
        .await;
    get("get_string_ids")
        .and(query_param("species", "10090"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!([])))
        .expect(1)
        .mount(&upstream)
        .await;
    for species in ["human", "Homo sapiens", "homo_sapiens"] {
        let page = client
            .call_ok(
                "string_search_proteins",
                json!({"query": "TP53", "species": species}),
            )
            .await;
        assert_eq!(page["items"][0]["id"], TP53, "{species}");
    }
    for species in ["mouse", "Mus musculus"] {
        client
            .call_ok(
                "string_search_proteins",
                json!({"query": "TP53", "species": species}),
            )
            .await;
    }
    client.close().await;
}

/// A cursor is an offset, and offsets stop at 10,000: a forged cursor with a valid digest
/// pointing further is INVALID_INPUT and never reaches STRING (it once asked STRING for
/// 4294967295 rows).
#[tokio::test]
async fn a_cursor_past_10000_candidates_is_refused() {
    let (upstream, client) = setup().await;
    let scope = "string_search_proteins|TP53|9606";
    for offset in [10_001_u64, 4_294_967_295, u64::MAX] {
        let forged = lifesciences_core::cursor::encode(scope, &offset);
        let e = client
            .call_err(
                "string_search_proteins",
                json!({"query": "TP53", "cursor": forged}),
            )
            .await;
        assert_eq!(e.code, ErrorCode::InvalidInput, "{offset}");
        assert!(e.message.contains("10000 candidates deep"), "{}", e.message);
        assert_eq!(e.invalid_input.as_deref(), Some(forged.as_str()));
    }
    assert_eq!(request_count(&upstream).await, 0);

    // The cap itself is a page like any other: STRING is asked for offset + limit + 1.
    get("get_string_ids")
        .and(query_param("limit", "10011"))
        .respond_with(fixture("get_string_ids__TP53.json"))
        .expect(1)
        .mount(&upstream)
        .await;
    let at_cap = lifesciences_core::cursor::encode(scope, &10_000_u64);
    let page = client
        .call_ok(
            "string_search_proteins",
            json!({"query": "TP53", "cursor": at_cap}),
        )
        .await;
    assert_eq!(page["items"], json!([]));
    client.close().await;
}

/// Nothing maps: STRING's 404 or an empty list is an empty page, not an error.
#[tokio::test]
async fn no_match_is_an_empty_page() {
    let (upstream, client) = setup().await;
    get("get_string_ids")
        .and(query_param("identifiers", "NOTAPROTEIN"))
        .respond_with(ResponseTemplate::new(404))
        .expect(1)
        .mount(&upstream)
        .await;
    let page = client
        .call_ok("string_search_proteins", json!({"query": "NOTAPROTEIN"}))
        .await;
    assert_eq!(page["items"], json!([]));
    assert_eq!(page["pagination"]["total_count"], 0);
    client.close().await;
}

/// Arguments outside the schema are plain-words INVALID_INPUT, before any request.
#[tokio::test]
async fn bad_arguments_are_invalid_input() {
    let (upstream, client) = setup().await;
    for (args, says) in [
        (json!({"query": "TP53", "limit": 0}), "between 1 and 100"),
        (json!({"query": "TP53", "limit": 101}), "between 1 and 100"),
        (
            json!({"query": "TP53", "page_size": 5}),
            "Unknown argument 'page_size'",
        ),
        (json!({"limit": 5}), "Argument 'query' is required."),
        (json!({"query": "TP53\nMDM2"}), "one name per call"),
    ] {
        let e = client
            .call_err("string_search_proteins", args.clone())
            .await;
        assert_eq!(e.code, ErrorCode::InvalidInput, "{args}");
        assert!(e.message.contains(says), "{args}: {}", e.message);
    }
    assert_eq!(request_count(&upstream).await, 0);
    client.close().await;
}
