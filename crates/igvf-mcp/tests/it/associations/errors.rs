//! What an agent is told when a question cannot be answered: unknown sources, symbols and
//! identifiers, relationships that do not apply, entities no data set covers, the
//! upstream's own enum rejections.

use lifesciences_core::ErrorCode;
use serde_json::json;
use wiremock::ResponseTemplate;

use crate::{empty, fixture, fixtures, no_rows, requests, route, setup};

use super::{TP53, tp53};

#[tokio::test]
async fn an_unknown_source_lists_the_valid_ones_without_a_query() {
    let (upstream, client) = setup().await;
    tp53(&upstream).await;
    let e = client
        .call_err(
            "igvf_find_associations",
            json!({"entity_id": "TP53", "relationship": "genetic", "filters": {"source": "OMIM"}}),
        )
        .await;
    assert_eq!(e.code, ErrorCode::InvalidInput);
    assert!(
        e.recovery_hint.contains("'GenCC', 'Orphanet', 'ClinGen'"),
        "{}",
        e.recovery_hint
    );
    assert!(requests(&upstream).await.iter().all(|(p, _)| p == "/genes"));
    client.close().await;
}

#[tokio::test]
async fn an_upstream_enum_rejection_becomes_invalid_input_with_the_accepted_values() {
    let (upstream, client) = setup().await;
    tp53(&upstream).await;
    route(
        &upstream,
        "genes/diseases",
        &[],
        ResponseTemplate::new(400)
            .set_body_string(fixtures().text("genes_diseases__bad_enum.400.json")),
    )
    .await;
    // The caller's own source, as they spelt it, is echoed (the catalog rejected the
    // canonical spelling this server sent for it).
    let e = client
        .call_err(
            "igvf_find_associations",
            json!({"entity_id": "TP53", "relationship": "genetic", "filters": {"source": "Clingen"}}),
        )
        .await;
    assert_eq!(e.code, ErrorCode::InvalidInput);
    assert_eq!(e.invalid_input.as_deref(), Some("Clingen"));
    assert!(e.message.contains("'source'"), "{}", e.message);
    assert!(
        e.recovery_hint.contains("'GenCC', 'Orphanet', 'ClinGen'"),
        "{}",
        e.recovery_hint
    );
    // A rejection of a parameter the caller never sent is this server's trouble, not
    // the caller's: an upstream error, echoing nothing the caller did not write.
    let e = client
        .call_err(
            "igvf_find_associations",
            json!({"entity_id": "TP53", "relationship": "genetic"}),
        )
        .await;
    assert_eq!(e.code, ErrorCode::UpstreamError, "{e:?}");
    assert_eq!(e.invalid_input, None);
    client.close().await;
}

#[tokio::test]
async fn relationships_that_do_not_apply_say_which_do() {
    let (upstream, client) = setup().await;
    let e = client
        .call_err(
            "igvf_find_associations",
            json!({"entity_id": "rs1152591", "relationship": "physical"}),
        )
        .await;
    assert_eq!(e.code, ErrorCode::InvalidInput);
    assert!(
        e.recovery_hint
            .contains("'regulatory', 'genetic', 'pharmacological'"),
        "{}",
        e.recovery_hint
    );
    let e = client
        .call_err(
            "igvf_find_associations",
            json!({"entity_id": "ENST00000428769", "relationship": "regulatory"}),
        )
        .await;
    assert_eq!(e.code, ErrorCode::InvalidInput);
    assert!(
        e.recovery_hint.contains("'transcripts'"),
        "{}",
        e.recovery_hint
    );
    // The caller's spelling is echoed, not the relationship it was read as.
    let e = client
        .call_err(
            "igvf_find_associations",
            json!({"entity_id": "rs1152591", "relationship": "PPI"}),
        )
        .await;
    assert_eq!(e.code, ErrorCode::InvalidInput);
    assert_eq!(e.invalid_input.as_deref(), Some("PPI"));
    let e = client
        .call_err(
            "igvf_find_associations",
            json!({"entity_id": "TP53", "relationship": "causal"}),
        )
        .await;
    assert_eq!(e.invalid_input.as_deref(), Some("causal"));
    assert_eq!(e.code, ErrorCode::InvalidInput);
    assert!(
        e.message.contains("'causal' is not a relationship"),
        "{}",
        e.message
    );
    let e = client
        .call_err(
            "igvf_find_associations",
            json!({"entity_id": "TP53", "relationship": "all", "filters": {"p_value": 2}}),
        )
        .await;
    assert_eq!(e.code, ErrorCode::InvalidInput);
    let e = client
        .call_err(
            "igvf_find_associations",
            json!({"entity_id": "TP53", "relationship": "all", "filters": {"pvalue": 0.1}}),
        )
        .await;
    assert!(
        e.message.contains("Unknown argument 'pvalue'"),
        "{}",
        e.message
    );
    assert!(requests(&upstream).await.is_empty());
    client.close().await;
}

#[tokio::test]
async fn an_unknown_symbol_is_not_found_before_any_edge_is_asked() {
    let (upstream, client) = setup().await;
    route(
        &upstream,
        "genes",
        &[],
        fixture("genes__organism_only.json"),
    )
    .await;
    let e = client
        .call_err(
            "igvf_find_associations",
            json!({"entity_id": "NOTAGENE1", "relationship": "regulatory"}),
        )
        .await;
    assert_eq!(e.code, ErrorCode::EntityNotFound);
    let sent = requests(&upstream).await;
    assert_eq!(sent.len(), 1);
    assert_eq!(sent[0].0, "/genes");
    client.close().await;
}

#[tokio::test]
async fn an_entity_no_data_set_can_be_searched_by_is_unresolved_with_the_accepted_form() {
    let (upstream, client) = setup().await;
    let e = client
        .call_err(
            "igvf_find_associations",
            json!({"entity_id": "GO:0000122", "relationship": "genetic"}),
        )
        .await;
    assert_eq!(e.code, ErrorCode::UnresolvedEntity);
    assert_eq!(e.invalid_input.as_deref(), Some("GO:0000122"));
    assert!(
        e.recovery_hint.contains("a disease term"),
        "{}",
        e.recovery_hint
    );
    assert!(
        e.recovery_hint.contains("'functional'"),
        "{}",
        e.recovery_hint
    );
    let e = client
        .call_err(
            "igvf_find_associations",
            json!({"entity_id": "MONDO:0009861", "relationship": "functional"}),
        )
        .await;
    assert_eq!(e.code, ErrorCode::UnresolvedEntity);
    assert!(e.recovery_hint.contains("a GO term"), "{}", e.recovery_hint);
    assert!(requests(&upstream).await.is_empty());
    client.close().await;
}

#[tokio::test]
async fn a_mouse_gene_asked_for_human_only_data_is_told_so() {
    let (upstream, client) = setup().await;
    let e = client
        .call_err(
            "igvf_find_associations",
            json!({"entity_id": "ENSMUSG00000059552", "relationship": "genetic"}),
        )
        .await;
    assert_eq!(e.code, ErrorCode::InvalidInput);
    assert!(e.message.contains("human entities only"), "{}", e.message);
    assert_eq!(e.invalid_input.as_deref(), Some("genetic"));
    assert!(requests(&upstream).await.is_empty());
    client.close().await;
}

#[tokio::test]
async fn an_unknown_identifier_is_not_found_rather_than_an_empty_success() {
    let (upstream, client) = setup().await;
    // Every data set of the relationship, then the lookup, answers `[]` (the
    // perturbation network is asked by `regulator_gene_id`).
    route(&upstream, "gene-regulatory-network", &[], empty()).await;
    for (entity, relationship, at, param, datasets) in [
        (
            "ENSG99999999999",
            "regulatory",
            "/genes",
            "gene_id",
            &["genes/variants", "genes/genomic-elements"][..],
        ),
        (
            "rs99999999999",
            "genetic",
            "/variants",
            "rsid",
            &["variants/phenotypes", "variants/diseases"][..],
        ),
        (
            "ENSP99999999999",
            "physical",
            "/proteins",
            "protein_id",
            &["proteins/proteins", "proteins/complexes"][..],
        ),
    ] {
        no_rows(&upstream, datasets, &[(param, entity)]).await;
        route(
            &upstream,
            at.trim_start_matches('/'),
            &[(param, entity)],
            empty(),
        )
        .await;
        let e = client
            .call_err(
                "igvf_find_associations",
                json!({"entity_id": entity, "relationship": relationship}),
            )
            .await;
        assert_eq!(e.code, ErrorCode::EntityNotFound, "{entity}");
        assert_eq!(e.invalid_input.as_deref(), Some(entity));
        let sent = requests(&upstream).await;
        assert_eq!(sent.last().unwrap().0, at, "{entity}: one lookup last");
    }
    // An entity that exists but has no associations is an empty success.
    no_rows(
        &upstream,
        &["genes/variants", "genes/genomic-elements"],
        &[("gene_id", TP53)],
    )
    .await;
    route(
        &upstream,
        "genes",
        &[("gene_id", TP53)],
        fixture("genes__name=TP53.json"),
    )
    .await;
    let out = client
        .call_ok(
            "igvf_find_associations",
            json!({"entity_id": TP53, "relationship": "regulatory"}),
        )
        .await;
    assert_eq!(out["associations"], json!([]));
    client.close().await;
}
