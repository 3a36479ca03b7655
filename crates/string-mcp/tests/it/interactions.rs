//! `string_get_interactions` as an agent sees it, and the requests it sends.

use lifesciences_core::ErrorCode;
use serde_json::{Value, json};
use wiremock::ResponseTemplate;
use wiremock::matchers::query_param;

use crate::support::{TP53, fixture, get, query_of, request_count, requests_to, setup};

fn names(network: &Value) -> Vec<&str> {
    network["interactions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["preferred_name_b"].as_str().unwrap())
        .collect()
}

fn scores(network: &Value) -> Vec<f64> {
    network["interactions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["combined_score"].as_f64().unwrap())
        .collect()
}

fn partner<'a>(network: &'a Value, name: &str) -> &'a Value {
    network["interactions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["preferred_name_b"] == name)
        .unwrap_or_else(|| panic!("{name} is not a partner in {network:#}"))
}

/// TP53's partners include MDM2, ATM and BRCA1 with their evidence, in one
/// upstream request (no resolution call when partners prove the protein exists).
#[tokio::test]
async fn tp53_partners_include_mdm2_atm_and_brca1_with_evidence() {
    let (upstream, client) = setup().await;
    get("interaction_partners")
        .respond_with(fixture("interaction_partners__TP53.json"))
        .expect(1)
        .mount(&upstream)
        .await;
    get("get_string_ids")
        .respond_with(fixture("get_string_ids__TP53.json"))
        .expect(0)
        .mount(&upstream)
        .await;

    let network = client
        .call_ok("string_get_interactions", json!({"string_id": TP53}))
        .await;

    assert_eq!(
        network["query"],
        json!({"id": TP53, "preferred_name": "TP53"})
    );
    assert_eq!(network["total"], 15);
    assert_eq!(network["truncated"], false, "all 15 partners fit in 25");
    assert_eq!(
        partner(&network, "MDM2"),
        &json!({
            "protein_a": TP53,
            "protein_b": "STRING:9606.ENSP00000258149",
            "preferred_name_a": "TP53",
            "preferred_name_b": "MDM2",
            "taxon_id": 9606,
            "combined_score": 0.999,
            "evidence": {"nscore": 0.0, "fscore": 0.0, "pscore": 0.0, "ascore": 0.118,
                         "escore": 0.998, "dscore": 0.9, "tscore": 0.999},
            "cross_references": {"ensembl_protein": "ENSP00000258149", "string": "9606.ENSP00000258149"}
        })
    );
    for (name, id) in [
        ("ATM", "STRING:9606.ENSP00000278616"),
        ("BRCA1", "STRING:9606.ENSP00000418960"),
    ] {
        let p = partner(&network, name);
        assert_eq!(p["protein_b"], id);
        assert!(p["evidence"]["escore"].as_f64().unwrap() > 0.9, "{p}");
        assert_eq!(p["evidence"].as_object().unwrap().len(), 7);
    }
    // Sorted by combined score, whatever order STRING sent (the fixture is alphabetical).
    let s = scores(&network);
    assert!(s.windows(2).all(|w| w[0] >= w[1]), "{s:?}");

    let sent = requests_to(&upstream, "interaction_partners").await;
    assert_eq!(
        query_of(&sent[0]),
        [
            ("caller_identity", "lifesciences-mcp"),
            ("identifiers", "9606.ENSP00000269305"),
            ("species", "9606"),
            ("required_score", "400"),
            // One more than the limit (25), to tell whether the list is cut.
            ("limit", "26"),
            ("network_type", "functional"),
        ]
        .map(|(k, v)| (k.to_owned(), v.to_owned()))
    );
    assert_eq!(request_count(&upstream).await, 1);
    client.close().await;
}

/// `required_score=700` keeps only partners with combined ≥ 0.7 (even when
/// the upstream sends weaker ones), and STRING is asked for 700.
#[tokio::test]
async fn required_score_700_keeps_only_combined_scores_of_at_least_0_7() {
    let (upstream, client) = setup().await;
    get("interaction_partners")
        .and(query_param("required_score", "700"))
        .respond_with(fixture("interaction_partners__TP53.json"))
        .expect(1)
        .mount(&upstream)
        .await;

    let network = client
        .call_ok(
            "string_get_interactions",
            json!({"string_id": TP53, "required_score": 700}),
        )
        .await;

    let s = scores(&network);
    assert_eq!(s.len(), 13, "CHEK1 (0.689) and RAD51 (0.662) are below 0.7");
    assert!(s.iter().all(|score| *score >= 0.7), "{s:?}");
    assert!(!names(&network).contains(&"CHEK1") && !names(&network).contains(&"RAD51"));
    assert_eq!(network["total"], 13);
    client.close().await;
}

/// `limit=10` returns the top 10 by combined score (STRING is asked for 11, to
/// know that more exist: `truncated`).
#[tokio::test]
async fn limit_10_returns_the_top_10_by_combined_score() {
    let (upstream, client) = setup().await;
    get("interaction_partners")
        .and(query_param("limit", "11"))
        .and(query_param("network_type", "physical"))
        .respond_with(fixture("interaction_partners__TP53.json"))
        .expect(1)
        .mount(&upstream)
        .await;

    let network = client
        .call_ok(
            "string_get_interactions",
            json!({"string_id": TP53, "limit": "10", "network_type": "physical"}),
        )
        .await;

    assert_eq!(
        names(&network),
        [
            "ATM", "BRCA1", "MDM2", "SFN", "CDKN1A", "CREBBP", "EP300", "CHEK2", "ATR", "BRCA2"
        ]
    );
    assert_eq!(network["total"], 10);
    assert_eq!(network["truncated"], true, "15 partners, 10 returned");
    client.close().await;
}

/// STRING's bare form is UNRESOLVED_ENTITY with the corrected CURIE; a gene
/// name points to the search tool. Neither reaches STRING.
#[tokio::test]
async fn a_bare_string_id_is_unresolved_with_the_fixed_curie() {
    let (upstream, client) = setup().await;
    let e = client
        .call_err(
            "string_get_interactions",
            json!({"string_id": "9606.ENSP00000269305"}),
        )
        .await;
    assert_eq!(e.code, ErrorCode::UnresolvedEntity);
    assert_eq!(e.recovery_hint, "Use format 'STRING:9606.ENSP00000269305'");
    assert_eq!(e.invalid_input.as_deref(), Some("9606.ENSP00000269305"));

    let e = client
        .call_err("string_get_interactions", json!({"string_id": "TP53"}))
        .await;
    assert_eq!(e.code, ErrorCode::UnresolvedEntity);
    assert!(
        e.recovery_hint.contains("string_search_proteins"),
        "{}",
        e.recovery_hint
    );
    assert_eq!(request_count(&upstream).await, 0);
    client.close().await;
}

/// An unknown protein is ENTITY_NOT_FOUND, whether STRING answers the partner
/// query with an empty list or with 404.
#[tokio::test]
async fn an_unknown_protein_is_entity_not_found() {
    let (upstream, client) = setup().await;
    let unknown_empty = "STRING:9606.ENSP00000000000";
    let unknown_404 = "STRING:9606.ENSP00000000001";
    get("interaction_partners")
        .and(query_param("identifiers", "9606.ENSP00000000000"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!([])))
        .expect(1)
        .mount(&upstream)
        .await;
    get("interaction_partners")
        .and(query_param("identifiers", "9606.ENSP00000000001"))
        .respond_with(ResponseTemplate::new(404))
        .expect(1)
        .mount(&upstream)
        .await;
    get("get_string_ids")
        .and(query_param("identifiers", "9606.ENSP00000000000"))
        .and(query_param("limit", "1"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!([])))
        .expect(1)
        .mount(&upstream)
        .await;
    get("get_string_ids")
        .and(query_param("identifiers", "9606.ENSP00000000001"))
        .respond_with(ResponseTemplate::new(404))
        .expect(1)
        .mount(&upstream)
        .await;

    for id in [unknown_empty, unknown_404] {
        let e = client
            .call_err("string_get_interactions", json!({"string_id": id}))
            .await;
        assert_eq!(e.code, ErrorCode::EntityNotFound, "{id}");
        assert!(e.message.contains(id), "{}", e.message);
        assert!(
            e.recovery_hint.contains("string_search_proteins"),
            "{}",
            e.recovery_hint
        );
        assert_eq!(e.invalid_input.as_deref(), Some(id));
    }
    client.close().await;
}

/// A protein STRING knows, without partners above the threshold, is an empty
/// network named by its preferred name, not an error.
#[tokio::test]
async fn a_known_protein_without_partners_is_an_empty_network() {
    let (upstream, client) = setup().await;
    get("interaction_partners")
        .and(query_param("identifiers", "7227.FBpp0312036"))
        .and(query_param("species", "7227"))
        .and(query_param("required_score", "900"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!([])))
        .expect(1)
        .mount(&upstream)
        .await;
    get("get_string_ids")
        .and(query_param("identifiers", "7227.FBpp0312036"))
        .and(query_param("species", "7227"))
        .respond_with(fixture("get_string_ids__Vago_7227.json"))
        .expect(1)
        .mount(&upstream)
        .await;

    let network = client
        .call_ok(
            "string_get_interactions",
            json!({"string_id": "STRING:7227.FBpp0312036", "required_score": 900}),
        )
        .await;
    assert_eq!(
        network,
        json!({
            "query": {"id": "STRING:7227.FBpp0312036", "preferred_name": "Vago"},
            "interactions": [],
            "total": 0,
            "truncated": false
        })
    );
    client.close().await;
}

/// An ID STRING maps to another protein is not silently swapped: ENTITY_NOT_FOUND with
/// STRING's protein as the suggestion.
#[tokio::test]
async fn an_id_string_maps_elsewhere_is_not_found_with_a_suggestion() {
    let (upstream, client) = setup().await;
    get("interaction_partners")
        .respond_with(ResponseTemplate::new(200).set_body_json(json!([])))
        .mount(&upstream)
        .await;
    get("get_string_ids")
        .respond_with(fixture("get_string_ids__TP53.json"))
        .mount(&upstream)
        .await;
    let e = client
        .call_err(
            "string_get_interactions",
            json!({"string_id": "STRING:9606.ENSP00000999999"}),
        )
        .await;
    assert_eq!(e.code, ErrorCode::EntityNotFound);
    assert_eq!(e.suggestions, [TP53]);
    assert!(e.recovery_hint.contains(TP53), "{}", e.recovery_hint);
    client.close().await;
}

/// A row missing channel keys and rows with a string `ncbiTaxonId` (or a
/// string score) are parsed: every channel present, missing ones 0, taxon a number.
#[tokio::test]
async fn rows_missing_channels_or_with_string_taxa_are_parsed() {
    let (upstream, client) = setup().await;
    get("interaction_partners")
        .and(query_param("identifiers", "9606.ENSP00000359224"))
        .respond_with(fixture("interaction_partners__ALG14_quirks.json"))
        .mount(&upstream)
        .await;
    get("interaction_partners")
        .and(query_param("identifiers", "7227.FBpp0074940"))
        .respond_with(fixture("interaction_partners__edin_7227.json"))
        .mount(&upstream)
        .await;

    let alg14 = client
        .call_ok(
            "string_get_interactions",
            json!({"string_id": "STRING:9606.ENSP00000359224"}),
        )
        .await;
    assert_eq!(names(&alg14), ["ALG2", "CHRNA1"]);
    assert_eq!(scores(&alg14), [0.633, 0.543]);
    let chrna1 = partner(&alg14, "CHRNA1");
    assert_eq!(chrna1["taxon_id"], 9606, "\"9606\" read as a number");
    assert_eq!(
        chrna1["evidence"],
        json!({"nscore": 0.0, "fscore": 0.0, "pscore": 0.0, "ascore": 0.0, "escore": 0.0,
               "dscore": 0.0, "tscore": 0.543})
    );
    assert_eq!(partner(&alg14, "ALG2")["evidence"]["dscore"], 0.119);

    let edin = client
        .call_ok(
            "string_get_interactions",
            json!({"string_id": "STRING:7227.FBpp0074940"}),
        )
        .await;
    assert_eq!(edin["query"]["preferred_name"], "edin");
    assert_eq!(names(&edin), ["AttD", "DptA"]);
    assert!(
        edin["interactions"]
            .as_array()
            .unwrap()
            .iter()
            .all(|i| i["taxon_id"] == 7227)
    );
    client.close().await;
}

/// STRING reporting an error with status 200 is UPSTREAM_ERROR in STRING's words, and
/// the body is not cached: the next call asks again.
#[tokio::test]
async fn an_error_report_with_status_200_is_upstream_error_and_not_cached() {
    let (upstream, client) = setup().await;
    get("interaction_partners")
        .respond_with(
            ResponseTemplate::new(200)
                .set_body_json(json!([{"error": "something went wrong on our side"}])),
        )
        .expect(2)
        .mount(&upstream)
        .await;
    for _ in 0..2 {
        let e = client
            .call_err("string_get_interactions", json!({"string_id": TP53}))
            .await;
        assert_eq!(e.code, ErrorCode::UpstreamError);
        assert!(
            e.message.contains("something went wrong on our side"),
            "{}",
            e.message
        );
    }
    client.close().await;
}

/// Out-of-range numbers and unknown network types are INVALID_INPUT before any request.
#[tokio::test]
async fn bad_arguments_are_invalid_input() {
    let (upstream, client) = setup().await;
    for (args, says) in [
        (
            json!({"string_id": TP53, "required_score": 1001}),
            "between 0 and 1000",
        ),
        (
            json!({"string_id": TP53, "required_score": 1.5}),
            "'required_score'",
        ),
        (
            json!({"string_id": TP53, "required_score": 700.5}),
            "between 0 and 1000",
        ),
        (
            json!({"string_id": TP53, "limit": 0}),
            "between 1 and 10000",
        ),
        (
            json!({"string_id": TP53, "limit": 10001}),
            "between 1 and 10000",
        ),
        (
            json!({"string_id": TP53, "network_type": "genetic"}),
            "'functional' or 'physical'",
        ),
        (
            json!({"string_id": TP53, "species": 9606}),
            "Unknown argument 'species'",
        ),
        (json!({}), "Argument 'string_id' is required"),
    ] {
        let e = client
            .call_err("string_get_interactions", args.clone())
            .await;
        assert_eq!(e.code, ErrorCode::InvalidInput, "{args}");
        assert!(e.message.contains(says), "{args}: {}", e.message);
    }
    assert_eq!(request_count(&upstream).await, 0);
    client.close().await;
}

/// `truncated` tells a cut list from a complete one: STRING is asked for one partner more
/// than the limit. TP53's fixture has 15 partners: limit 15 is complete, 14 is cut.
#[tokio::test]
async fn truncated_says_whether_more_partners_pass_the_threshold() {
    let (upstream, client) = setup().await;
    for limit in ["15", "16"] {
        get("interaction_partners")
            .and(query_param("limit", limit))
            .respond_with(fixture("interaction_partners__TP53.json"))
            .expect(1)
            .mount(&upstream)
            .await;
    }
    let complete = client
        .call_ok(
            "string_get_interactions",
            json!({"string_id": TP53, "limit": 15}),
        )
        .await;
    assert_eq!(complete["total"], 15);
    assert_eq!(complete["truncated"], false);
    let cut = client
        .call_ok(
            "string_get_interactions",
            json!({"string_id": TP53, "limit": 14}),
        )
        .await;
    assert_eq!(cut["total"], 14);
    assert_eq!(cut["truncated"], true);
    client.close().await;
}

/// A fraction in (0, 1) is read on the results' scale: 0.7 asks STRING for 700 and keeps
/// the same partners as 700; whole numbers keep their meaning (1 asks for 1).
#[tokio::test]
async fn required_score_0_7_means_700() {
    let (upstream, client) = setup().await;
    get("interaction_partners")
        .and(query_param("required_score", "700"))
        .respond_with(fixture("interaction_partners__TP53.json"))
        .expect(1) // 700, 0.7 and "0.7": one request, the others from the cache
        .mount(&upstream)
        .await;
    get("interaction_partners")
        .and(query_param("required_score", "1"))
        .respond_with(fixture("interaction_partners__TP53.json"))
        .expect(1)
        .mount(&upstream)
        .await;
    let as_integer = client
        .call_ok(
            "string_get_interactions",
            json!({"string_id": TP53, "required_score": 700}),
        )
        .await;
    for fraction in [json!(0.7), json!("0.7")] {
        let network = client
            .call_ok(
                "string_get_interactions",
                json!({"string_id": TP53, "required_score": fraction}),
            )
            .await;
        assert_eq!(network, as_integer, "{fraction}");
    }
    assert_eq!(as_integer["total"], 13);
    let one = client
        .call_ok(
            "string_get_interactions",
            json!({"string_id": TP53, "required_score": 1}),
        )
        .await;
    assert_eq!(one["total"], 15, "1 is 0.001: every partner passes");

    let e = client
        .call_err(
            "string_get_interactions",
            json!({"string_id": TP53, "required_score": 1001}),
        )
        .await;
    assert_eq!(e.code, ErrorCode::InvalidInput);
    assert!(
        e.recovery_hint.contains("use 700 for 0.7"),
        "{}",
        e.recovery_hint
    );
    assert_eq!(e.invalid_input.as_deref(), Some("1001"));
    assert_eq!(request_count(&upstream).await, 2);
    client.close().await;
}

/// A 200 answer of the wrong shape (rows without a partner or score) is not "no partners":
/// it is UPSTREAM_ERROR, and the body is not cached, so the next call asks again.
#[tokio::test]
async fn a_wrong_shape_is_upstream_error_not_no_partners_and_not_cached() {
    let (upstream, client) = setup().await;
    get("interaction_partners")
        .respond_with(ResponseTemplate::new(200).set_body_json(json!([{"unexpected": 1}])))
        .expect(2)
        .mount(&upstream)
        .await;
    for _ in 0..2 {
        let e = client
            .call_err("string_get_interactions", json!({"string_id": TP53}))
            .await;
        assert_eq!(e.code, ErrorCode::UpstreamError);
        assert_eq!(
            e.message,
            "STRING answered with a body that is not the JSON it documents."
        );
    }
    client.close().await;
}

/// A client listening at `info` is told when a result's list was cut at its limit; one
/// that did not ask is not.
#[tokio::test]
#[expect(
    deprecated,
    reason = "MCP logging is deprecated in the newest protocol revision"
)]
async fn a_cut_list_is_told_to_a_client_listening_at_info() {
    let (upstream, client) = setup().await;
    get("interaction_partners")
        .respond_with(fixture("interaction_partners__TP53.json"))
        .mount(&upstream)
        .await;
    let call = json!({"string_id": TP53, "limit": 10});
    let cut = client
        .call_ok("string_get_interactions", call.clone())
        .await;
    assert_eq!(cut["truncated"], true);
    assert!(client.log_messages().await.is_empty(), "not asked for info");
    client
        .set_log_level(lifesciences_core::rmcp::model::LoggingLevel::Info)
        .await;
    client.call_ok("string_get_interactions", call).await;
    let heard = client.log_messages().await;
    assert_eq!(heard.len(), 1, "{heard:?}");
    assert_eq!(
        heard[0].1,
        "string_get_interactions: the result is cut at its limit (top level); its counts say how much more there is"
    );
    client.close().await;
}

/// The partners of four genes of a screen come in one POST: STRING applies `limit` per
/// query protein (asked for one more, to tell whether each list is cut).
#[tokio::test]
async fn the_partners_of_each_of_four_genes_come_in_one_request() {
    use crate::support::{form_field, identifiers_of, post};
    let (upstream, client) = setup().await;
    post("interaction_partners")
        .respond_with(fixture("interaction_partners__set4_limit1.json"))
        .expect(1)
        .mount(&upstream)
        .await;
    let ids = [
        "STRING:9606.ENSP00000369071",
        "STRING:9606.ENSP00000401645",
        "STRING:9606.ENSP00000305651",
        "STRING:9606.ENSP00000276927",
        "STRING:9606.ENSP00000269305",
    ];

    let network = client
        .call_ok(
            "string_get_interactions",
            json!({"string_ids": ids, "limit": 1}),
        )
        .await;

    let queries: Vec<&str> = network["queries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|q| q["preferred_name"].as_str().unwrap())
        .collect();
    assert_eq!(queries, ["POSTN", "SERPINB2", "CXCL10", "IFNA1"]);
    assert_eq!(names(&network), ["FN1", "PLAT", "CCL5", "IFNAR2"]);
    assert_eq!(network["without_partners"], json!([TP53]));
    assert_eq!(network["total"], 4);
    assert_eq!(network["truncated"], false);
    assert!(network.get("query").is_none());

    let sent = &requests_to(&upstream, "interaction_partners").await[0];
    assert_eq!(identifiers_of(sent).len(), 5);
    assert_eq!(identifiers_of(sent)[0], "9606.ENSP00000369071");
    assert_eq!(form_field(sent, "limit").as_deref(), Some("2"));
    assert_eq!(form_field(sent, "species").as_deref(), Some("9606"));
    assert_eq!(request_count(&upstream).await, 1);

    let err = client
        .call_err(
            "string_get_interactions",
            json!({"string_id": TP53, "string_ids": [TP53]}),
        )
        .await;
    assert_eq!(err.code, ErrorCode::InvalidInput);
    let err = client
        .call_err(
            "string_get_interactions",
            json!({"string_ids": [TP53, "STRING:10090.ENSMUSP00000104298"]}),
        )
        .await;
    assert_eq!(err.code, ErrorCode::InvalidInput);
    assert_eq!(request_count(&upstream).await, 1);
    client.close().await;
}

/// `string_ids` as one string, a pasted column with a comma among the line breaks, is the
/// same five proteins in one POST (it used to be split on commas only, and a line break
/// left two CURIEs in one item, refused); a list holding a number is refused in a
/// sentence before any request.
#[tokio::test]
async fn string_ids_as_one_string_are_split_on_line_breaks_and_commas() {
    use crate::support::{identifiers_of, post};
    let (upstream, client) = setup().await;
    post("interaction_partners")
        .respond_with(fixture("interaction_partners__set4_limit1.json"))
        .expect(1)
        .mount(&upstream)
        .await;
    let pasted = "STRING:9606.ENSP00000369071\n STRING:9606.ENSP00000401645\r\n\
                  STRING:9606.ENSP00000305651, STRING:9606.ENSP00000276927\n\
                  STRING:9606.ENSP00000269305\n";

    let network = client
        .call_ok(
            "string_get_interactions",
            json!({"string_ids": pasted, "limit": 1}),
        )
        .await;

    assert_eq!(names(&network), ["FN1", "PLAT", "CCL5", "IFNAR2"]);
    let sent = &requests_to(&upstream, "interaction_partners").await[0];
    assert_eq!(
        identifiers_of(sent),
        [
            "9606.ENSP00000369071",
            "9606.ENSP00000401645",
            "9606.ENSP00000305651",
            "9606.ENSP00000276927",
            "9606.ENSP00000269305",
        ]
    );

    let err = client
        .call_err(
            "string_get_interactions",
            json!({"string_ids": [TP53, 9606]}),
        )
        .await;
    assert_eq!(err.code, ErrorCode::InvalidInput);
    assert_eq!(
        err.message,
        "Argument 'string_ids' has the wrong type: expected a list of strings, or one string \
         of comma-separated items, got a list whose item 2 is the number 9606."
    );
    assert_eq!(request_count(&upstream).await, 1);
    client.close().await;
}
