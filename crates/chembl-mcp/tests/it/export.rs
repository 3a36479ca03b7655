//! Exports of ChEMBL's lists: the compounds measured on mTOR, paged by ChEMBL's `limit`
//! and `offset`, as one table holding exactly the rows paging gives. The upstream here
//! serves the ten recorded activity records (the two recorded pages of five) as a list of
//! ten, sliced by `limit` and `offset` as ChEMBL pages, so the export's page of 100 and
//! the client's pages of 3 cross the same rows.

use chembl_mcp::ChemblServer;
use lifesciences_core::testing::{Fixtures, assert_export_holds_the_pages};
use serde_json::{Value, json};
use wiremock::matchers::{method, path, query_param};
use wiremock::{Mock, Request, Respond, ResponseTemplate};

use crate::support::Upstreams;

/// ChEMBL's `activity.json` over the ten recorded records.
struct TenActivities(Vec<Value>);

impl TenActivities {
    fn recorded() -> Self {
        let fixtures = Fixtures::here();
        let mut rows = Vec::new();
        for name in [
            "activity__target_chembl_id=CHEMBL2842__limit=5.json",
            "activity__target_chembl_id=CHEMBL2842__limit=5__offset=5.json",
        ] {
            rows.extend(
                fixtures.json(name)["activities"]
                    .as_array()
                    .unwrap()
                    .clone(),
            );
        }
        Self(rows)
    }
}

impl Respond for TenActivities {
    fn respond(&self, request: &Request) -> ResponseTemplate {
        let number = |name: &str| {
            request
                .url
                .query_pairs()
                .find(|(k, _)| k == name)
                .and_then(|(_, v)| v.parse::<usize>().ok())
                .unwrap()
        };
        let (limit, offset) = (number("limit"), number("offset"));
        let total = self.0.len();
        let page: Vec<Value> = self.0.iter().skip(offset).take(limit).cloned().collect();
        let link = |at: usize| {
            format!(
                "/chembl/api/data/activity.json?limit={limit}&offset={at}&target_chembl_id=CHEMBL2842"
            )
        };
        ResponseTemplate::new(200).set_body_json(json!({
            "activities": page,
            "page_meta": {
                "limit": limit,
                "offset": offset,
                "total_count": total,
                "next": (offset + limit < total).then(|| link(offset + limit)),
                "previous": (offset > 0).then(|| link(offset.saturating_sub(limit))),
            }
        }))
    }
}

#[tokio::test]
async fn the_compounds_measured_on_mtor_export_every_row_paging_gives() {
    let up = Upstreams::start().await;
    Mock::given(method("GET"))
        .and(path("/activity.json"))
        .and(query_param("target_chembl_id", "CHEMBL2842"))
        .and(query_param("order_by", "-pchembl_value"))
        .respond_with(TenActivities::recorded())
        .mount(&up.chembl)
        .await;
    let client = up.client().await;

    let exported = assert_export_holds_the_pages::<ChemblServer>(
        &client,
        "chembl_get_bioactivities",
        json!({"target": "CHEMBL:2842"}),
        json!({"limit": 3}),
    )
    .await;

    assert_eq!(exported.export["rows"], 10);
    assert_eq!(exported.export["complete"], true);
    let column = |name: &str| exported.columns.iter().position(|c| c == name).unwrap();
    assert_eq!(exported.rows[0][column("molecule")], "CHEMBL:1765464");
    assert_eq!(exported.rows[0][column("pchembl")], "7.41");
    assert_eq!(exported.rows[0][column("year")], "2011");
    // The export asked one page of 100 (the largest), the client four of 3.
    let asked: Vec<String> = up
        .chembl_requests("/activity.json")
        .await
        .iter()
        .map(|r| {
            let q: Vec<(String, String)> = r.url.query_pairs().into_owned().collect();
            let get = |k: &str| q.iter().find(|(n, _)| n == k).unwrap().1.clone();
            format!("{}+{}", get("offset"), get("limit"))
        })
        .collect();
    assert_eq!(asked, ["0+100", "0+3", "3+3", "6+3", "9+3"]);
    eprintln!(
        "chembl_get_bioactivities export answer: {} bytes",
        serde_json::to_vec(&exported.answer).unwrap().len()
    );
    client.close().await;
}
