//! Exports of the IGVF Catalog's lists, which are cut at a limit and have no pages: the
//! variants in LD with one, asked at the largest limit in one call, the table holding
//! exactly that call's rows; and, when more pass than the largest limit holds, a table
//! that says it is not the whole list.

use igvf_mcp::IgvfServer;
use lifesciences_core::testing::assert_export_holds_the_pages;
use serde_json::{Value, json};
use wiremock::Mock;
use wiremock::matchers::{method, path};

use crate::{Catalog, setup};

const QUERY: (&str, &str) = ("rs60960132", "NC_000011.10:9083634:A:T");

/// `n` LD edges of the query variant, in TopLD's shape (as `ld.rs` builds them), r²
/// from 0.99 down.
fn partners(n: usize) -> Vec<Value> {
    (0..n)
        .map(|i| {
            let (rsid, spdi) = (
                format!("rs{}", 1000 + i),
                format!("NC_000011.10:{}:A:G", 1000 + i),
            );
            json!({
                "ancestry": "EUR", "r2": 0.99 - i as f64 * 0.0001, "d_prime": 0.99,
                "source": "TopLD",
                "variant_1_rsid": rsid, "variant_1_spdi": spdi,
                "variant_2_rsid": QUERY.0, "variant_2_spdi": QUERY.1,
                "sequence_variant": format!("variants/{spdi}")
            })
        })
        .collect()
}

#[tokio::test]
async fn the_variants_in_ld_export_the_rows_of_one_call_at_the_largest_limit() {
    let (upstream, client) = setup().await;
    Mock::given(method("GET"))
        .and(path("/variants/variant-ld"))
        .respond_with(Catalog::new(partners(40)))
        .mount(&upstream)
        .await;

    let exported = assert_export_holds_the_pages::<IgvfServer>(
        &client,
        "igvf_find_ld",
        json!({"variant_id": QUERY.0}),
        json!({"limit": 500}),
    )
    .await;

    assert_eq!(exported.export["rows"], 40);
    assert_eq!(exported.export["complete"], true);
    assert_eq!(
        exported.columns,
        ["ancestry", "d_prime", "r2", "rsid", "spdi"]
    );
    assert_eq!(exported.rows[0][3], "rs1000");
    assert_eq!(exported.answer["truncated"], false);
    client.close().await;
}

#[tokio::test]
async fn more_than_the_largest_limit_is_a_table_that_says_it_was_cut() {
    let (upstream, client) = setup().await;
    Mock::given(method("GET"))
        .and(path("/variants/variant-ld"))
        .respond_with(Catalog::new(partners(520)))
        .mount(&upstream)
        .await;

    let exported = client
        .export("igvf_find_ld", json!({"variant_id": QUERY.0}), "csv")
        .await;

    assert_eq!(exported.export["rows"], 500);
    assert_eq!(exported.export["complete"], false);
    assert_eq!(
        exported.export["note"],
        "the tool cut its answer at its largest `limit`, leaving rows out: the list"
    );
    assert!(
        exported.comments[2].starts_with("500 rows from 1 page(s); NOT complete: "),
        "{:?}",
        exported.comments
    );
    // The answer says it too, as the tool's own answer does.
    assert_eq!(exported.answer["truncated"], true);
    client.close().await;
}
