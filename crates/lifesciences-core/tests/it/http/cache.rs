//! The cache and coalescing: repeated and concurrent identical requests, what is
//! never cached, and look-up POSTs that may opt in.

use std::time::Duration;

use futures::future::join_all;
use lifesciences_core::testing::{Recording, mock_source, mock_upstream};
use serde_json::{Value, json};
use wiremock::matchers::{method, path, query_param};
use wiremock::{Mock, ResponseTemplate};

use super::{client, get, ok_json};

#[tokio::test]
async fn a_repeated_get_is_served_from_the_cache() {
    let server = mock_upstream().await;
    Mock::given(path("/gene"))
        .respond_with(ok_json())
        .expect(1)
        .mount(&server)
        .await;
    let c = client(mock_source("Ensembl", &server.uri()));
    for _ in 0..3 {
        assert_eq!(get(&c, "gene").await.unwrap(), json!({"ok": true}));
    }
}

#[tokio::test]
async fn eight_concurrent_identical_gets_make_one_upstream_request() {
    let server = mock_upstream().await;
    Mock::given(path("/gene"))
        .respond_with(ok_json().set_delay(Duration::from_millis(200)))
        .expect(1)
        .mount(&server)
        .await;
    // TTL 0: no cache, so only coalescing can explain a single request.
    let c = client(mock_source("Ensembl", &server.uri()).with_cache_ttl(Duration::ZERO));
    let results = join_all((0..8).map(|_| get(&c, "gene"))).await;
    assert!(
        results
            .iter()
            .all(|r| r.as_ref().unwrap() == &json!({"ok": true}))
    );
}

#[tokio::test]
async fn coalesced_callers_all_see_the_same_error() {
    let server = mock_upstream().await;
    Mock::given(path("/gene"))
        .respond_with(ResponseTemplate::new(404).set_delay(Duration::from_millis(200)))
        .expect(1)
        .mount(&server)
        .await;
    let c = client(mock_source("Ensembl", &server.uri()));
    for r in join_all((0..8).map(|_| get(&c, "gene"))).await {
        assert_eq!(r.unwrap_err().upstream_status(), Some(404));
    }
}

#[tokio::test]
async fn ttl_zero_disables_the_cache() {
    let server = mock_upstream().await;
    Mock::given(path("/gene"))
        .respond_with(ok_json())
        .expect(2)
        .mount(&server)
        .await;
    let c = client(mock_source("Ensembl", &server.uri()).with_cache_ttl(Duration::ZERO));
    get(&c, "gene").await.unwrap();
    get(&c, "gene").await.unwrap();
}

#[tokio::test]
async fn errors_are_not_cached() {
    let server = mock_upstream().await;
    let responder = Recording::sequence(vec![ResponseTemplate::new(404), ok_json()]);
    Mock::given(path("/gene"))
        .respond_with(responder.clone())
        .mount(&server)
        .await;
    let c = client(mock_source("Ensembl", &server.uri()));
    assert!(get(&c, "gene").await.is_err());
    assert!(get(&c, "gene").await.is_ok());
    assert_eq!(responder.count(), 2);
}

#[tokio::test]
async fn different_query_parameters_are_different_cache_entries() {
    let server = mock_upstream().await;
    Mock::given(path("/s"))
        .and(query_param("q", "a"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!("A")))
        .expect(1)
        .mount(&server)
        .await;
    Mock::given(path("/s"))
        .and(query_param("q", "b"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!("B")))
        .expect(1)
        .mount(&server)
        .await;
    let c = client(mock_source("X", &server.uri()));
    for _ in 0..2 {
        assert_eq!(
            c.get_json::<Value>("s", &[("q", "a")]).await.unwrap(),
            json!("A")
        );
        assert_eq!(
            c.get_json::<Value>("s", &[("q", "b")]).await.unwrap(),
            json!("B")
        );
    }
}

#[tokio::test]
async fn cancelling_one_coalesced_caller_leaves_the_other_its_answer() {
    let server = mock_upstream().await;
    Mock::given(path("/gene"))
        .respond_with(ok_json().set_delay(Duration::from_millis(300)))
        .expect(1)
        .mount(&server)
        .await;
    let c = client(mock_source("Ensembl", &server.uri()));
    let (a, b) = (c.clone(), c.clone());
    let first = tokio::spawn(async move { get(&a, "gene").await });
    let second = tokio::spawn(async move { get(&b, "gene").await });
    tokio::time::sleep(Duration::from_millis(50)).await;
    first.abort();
    assert_eq!(second.await.unwrap().unwrap(), json!({"ok": true}));
}

#[tokio::test]
async fn look_up_posts_are_retried_but_not_cached() {
    let server = mock_upstream().await;
    let responder = Recording::sequence(vec![ResponseTemplate::new(503), ok_json()]);
    Mock::given(method("POST"))
        .respond_with(responder.clone())
        .mount(&server)
        .await;
    let c = client(mock_source("X", &server.uri()));
    let _: Value = c.post_json("lookup/id", &json!({"ids": []})).await.unwrap();
    assert_eq!(responder.count(), 2, "retried once");
    let _: Value = c.post_json("lookup/id", &json!({"ids": []})).await.unwrap();
    assert_eq!(responder.count(), 3, "not cached");
}

#[tokio::test]
async fn a_source_may_opt_in_to_caching_its_look_up_posts_keyed_by_body() {
    let server = mock_upstream().await;
    let responder = Recording::new(ok_json());
    Mock::given(method("POST"))
        .respond_with(responder.clone())
        .mount(&server)
        .await;
    let c = client(mock_source("UniChem", &server.uri()).with_cached_posts());
    for _ in 0..3 {
        let _: Value = c
            .post_json("compounds", &json!({"compound": "CHEMBL25"}))
            .await
            .unwrap();
    }
    assert_eq!(responder.count(), 1, "served from the cache");
    let _: Value = c
        .post_json("compounds", &json!({"compound": "CHEMBL941"}))
        .await
        .unwrap();
    assert_eq!(responder.count(), 2, "another body is another entry");
}
