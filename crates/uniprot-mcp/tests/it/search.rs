//! `uniprot_search_proteins` as an agent sees it: reviewed entries first, UniProt's total
//! from `X-Total-Results`, pages through UniProt's own `Link` cursor to the last page,
//! the exact gene first, UniProt's 400 in its own words, and the requests sent.

use lifesciences_core::ErrorCode;
use serde_json::json;
use wiremock::matchers::query_param;

use crate::support::{
    SEARCH_FIELDS, error_answer, get, json_answer, page_of, pairs, query_of, requests, requests_to,
    setup, with_headers,
};

/// The recorded headers of a first search page (`X-Total-Results: 999` and a `Link`).
const FIRST_PAGE: &str = "uniprotkb_search__FUBP3__page1.http.json";
/// The recorded headers of an answer without `Link`: a last page.
const NO_LINK: &str = "uniprotkb__P99999__headers.http.json";
/// UniProt's cursor in the recorded `Link`.
const CURSOR: &str = "1bq1yslaqtbf8zsosc0nw4cegwj849rqlpnky4i03v5ygve7nh";

/// Words: the reviewed and the unreviewed entries asked at once; the reviewed page shows
/// with the sum of both totals; the cursor follows UniProt's `Link` as given (commas and
/// all) to the reviewed entries' last page, which has no `Link`, then the unreviewed
/// entries' first page, already fetched, ends the list. (No JSON page of the recorded
/// FUBP3 search exists: its pages hold other recorded entries, its headers are FUBP3's.)
#[tokio::test]
async fn reviewed_entries_come_first_and_pages_follow_uniprot_s_link_to_the_end() {
    let (upstream, client) = setup().await;
    let base = upstream.uri();
    get("/uniprotkb/search")
        .and(query_param("query", "(FUBP3) AND reviewed:true"))
        .respond_with(with_headers(
            json_answer(&page_of(&[
                "uniprotkb__O00115.json",
                "uniprotkb__P30542.json",
            ])),
            FIRST_PAGE,
            &base,
        ))
        .expect(1)
        .mount(&upstream)
        .await;
    get("/uniprotkb/search")
        .and(query_param("query", "(FUBP3) AND reviewed:false"))
        .respond_with(
            with_headers(
                json_answer(&page_of(&["uniprotkb__A8Y1C3.json"])),
                NO_LINK,
                &base,
            )
            .insert_header("X-Total-Results", "1"),
        )
        .expect(1)
        .mount(&upstream)
        .await;
    get("/uniprotkb/search")
        .and(query_param("cursor", CURSOR))
        .respond_with(with_headers(
            json_answer(&page_of(&["uniprotkb__P0DTR4.json"])),
            NO_LINK,
            &base,
        ))
        .expect(1)
        .mount(&upstream)
        .await;

    let first = client
        .call_ok("uniprot_search_proteins", json!({"query": "FUBP3"}))
        .await;
    let sent = requests_to(&upstream, "/uniprotkb/search").await;
    let mut queries: Vec<Vec<(String, String)>> = sent.iter().map(query_of).collect();
    queries.sort();
    assert_eq!(
        queries,
        [
            pairs(&[
                ("query", "(FUBP3) AND reviewed:false"),
                ("fields", SEARCH_FIELDS),
                ("size", "10")
            ]),
            pairs(&[
                ("query", "(FUBP3) AND reviewed:true"),
                ("fields", SEARCH_FIELDS),
                ("size", "10")
            ]),
        ]
    );
    assert_eq!(
        first["items"][0],
        json!({
            "accession": "O00115",
            "entry_name": "DNS2A_HUMAN",
            "reviewed": true,
            "name": "Deoxyribonuclease-2-alpha",
            "gene": "DNASE2",
            "organism": "Homo sapiens",
            "taxon_id": 9606,
            "length": 360,
            "annotation_score": 5
        })
    );
    assert_eq!(first["items"][1]["accession"], "P30542");
    assert_eq!(first["pagination"]["total_count"], 1000, "999 reviewed + 1");
    assert_eq!(first["pagination"]["page_size"], 10);

    let second = client
        .call_ok(
            "uniprot_search_proteins",
            json!({"query": "FUBP3", "cursor": first["pagination"]["cursor"]}),
        )
        .await;
    let followed = requests_to(&upstream, "/uniprotkb/search")
        .await
        .into_iter()
        .find(|r| r.url.query().is_some_and(|q| q.contains("cursor=")))
        .unwrap();
    assert_eq!(
        followed.url.query(),
        Some(
            format!(
                "format=tsv&fields=accession,id,gene_primary&includeIsoform=TRUE&query=FUBP3\
                 &cursor={CURSOR}&size=500"
            )
            .as_str()
        ),
        "the Link URL as UniProt gave it"
    );
    assert_eq!(second["items"][0]["accession"], "P0DTR4");
    assert_eq!(second["pagination"]["total_count"], 1000);
    let last_reviewed_cursor = second["pagination"]["cursor"].as_str().unwrap();

    let third = client
        .call_ok(
            "uniprot_search_proteins",
            json!({"query": "FUBP3", "cursor": last_reviewed_cursor}),
        )
        .await;
    assert_eq!(
        third["items"],
        json!([{
            "accession": "A8Y1C3",
            "entry_name": "A8Y1C3_CAEBR",
            "reviewed": false,
            "name": "Protein CBG22016",
            "gene": "CBG22016",
            "organism": "Caenorhabditis briggsae",
            "taxon_id": 6238,
            "length": 327,
            "annotation_score": 1
        }])
    );
    assert_eq!(
        third["pagination"],
        json!({"cursor": null, "total_count": 1000, "page_size": 10})
    );
    assert_eq!(
        requests(&upstream).await.len(),
        3,
        "the unreviewed first page is not asked twice"
    );
    client.close().await;
}

/// Gene X in organism Y: the exact gene name, the taxon, reviewed and unreviewed at once;
/// rows name what `uniprot_get_protein` takes.
#[tokio::test]
async fn a_gene_in_an_organism_is_the_exact_gene_name_in_that_taxon() {
    let (upstream, client) = setup().await;
    get("/uniprotkb/search")
        .and(query_param(
            "query",
            "gene_exact:DNASE2 AND organism_id:9606 AND reviewed:true",
        ))
        .respond_with(
            json_answer(&page_of(&["uniprotkb__O00115.json"]))
                .insert_header("X-Total-Results", "1"),
        )
        .expect(1)
        .mount(&upstream)
        .await;
    get("/uniprotkb/search")
        .and(query_param(
            "query",
            "gene_exact:DNASE2 AND organism_id:9606 AND reviewed:false",
        ))
        .respond_with(json_answer(&json!({"results": []})).insert_header("X-Total-Results", "0"))
        .expect(1)
        .mount(&upstream)
        .await;

    let page = client
        .call_ok(
            "uniprot_search_proteins",
            json!({"gene": "DNASE2", "organism": "human", "limit": "5"}),
        )
        .await;

    let [row] = page["items"].as_array().unwrap().as_slice() else {
        panic!("one row: {page:#}")
    };
    assert_eq!(row["accession"], "O00115");
    assert_eq!(page.get("note"), None);
    assert_eq!(
        page["pagination"],
        json!({"cursor": null, "total_count": 1, "page_size": 5})
    );
    for r in requests_to(&upstream, "/uniprotkb/search").await {
        assert_eq!(query_of(&r)[2], ("size".to_owned(), "5".to_owned()));
    }
    client.close().await;
}

/// No entry has the gene name exactly: the search runs again on any gene name or
/// synonym, and the note says so.
#[tokio::test]
async fn without_an_exact_gene_the_search_matches_synonyms_and_says_so() {
    let (upstream, client) = setup().await;
    let none = json_answer(&json!({"results": []})).insert_header("X-Total-Results", "0");
    for query in [
        "gene_exact:DNL AND reviewed:true",
        "gene_exact:DNL AND reviewed:false",
        "gene:DNL AND reviewed:false",
    ] {
        get("/uniprotkb/search")
            .and(query_param("query", query))
            .respond_with(none.clone())
            .expect(1)
            .mount(&upstream)
            .await;
    }
    get("/uniprotkb/search")
        .and(query_param("query", "gene:DNL AND reviewed:true"))
        .respond_with(
            json_answer(&page_of(&["uniprotkb__O00115.json"]))
                .insert_header("X-Total-Results", "1"),
        )
        .expect(1)
        .mount(&upstream)
        .await;

    let page = client
        .call_ok("uniprot_search_proteins", json!({"gene": "DNL"}))
        .await;

    assert_eq!(page["items"][0]["accession"], "O00115");
    assert_eq!(
        page["note"],
        "No entry has the gene name DNL exactly; these have it as another gene name or a \
         synonym."
    );
    assert_eq!(page["pagination"]["total_count"], 1);
    client.close().await;
}

/// UniProt's 400 to a query it cannot run is INVALID_INPUT in UniProt's own words, with
/// what was sent.
#[tokio::test]
async fn uniprot_s_400_is_invalid_input_in_its_own_words() {
    let (upstream, client) = setup().await;
    get("/uniprotkb/search")
        .and(query_param("query", "(nosuchfield:abc) AND reviewed:true"))
        .respond_with(error_answer(400, "error_400__search__nosuchfield.json"))
        .expect(1)
        .mount(&upstream)
        .await;

    let e = client
        .call_err(
            "uniprot_search_proteins",
            json!({"query": "nosuchfield:abc", "reviewed_only": true}),
        )
        .await;

    assert_eq!(e.code, ErrorCode::InvalidInput);
    assert_eq!(
        e.message,
        "UniProt could not run the search: 'nosuchfield' is not a valid search field."
    );
    assert_eq!(e.invalid_input.as_deref(), Some("nosuchfield:abc"));
    assert!(
        e.recovery_hint.contains("help/query-fields"),
        "{}",
        e.recovery_hint
    );
    client.close().await;
}

/// Too little to search for, or a gene symbol that is not one, is refused before any
/// request.
#[tokio::test]
async fn a_search_with_nothing_to_search_for_is_refused_before_any_request() {
    let (upstream, client) = setup().await;
    for (args, code) in [
        (json!({}), ErrorCode::InvalidInput),
        (json!({"query": "a"}), ErrorCode::AmbiguousQuery),
        (json!({"gene": "TP 53"}), ErrorCode::InvalidInput),
        (
            json!({"gene": "TP53", "limit": 101}),
            ErrorCode::InvalidInput,
        ),
        (
            json!({"gene": "TP53", "cursor": "not-a-cursor"}),
            ErrorCode::InvalidInput,
        ),
    ] {
        let e = client
            .call_err("uniprot_search_proteins", args.clone())
            .await;
        assert_eq!(e.code, code, "{args}: {}", e.message);
    }
    assert!(requests(&upstream).await.is_empty());
    client.close().await;
}
