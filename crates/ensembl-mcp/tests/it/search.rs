//! `ensembl_search_genes` through a real MCP client: ranking, species, paging, cursors,
//! and the requests it sends.

use std::collections::HashSet;

use lifesciences_core::ErrorCode;
use serde_json::{Value, json};
use wiremock::matchers::{body_json, method, path, query_param};
use wiremock::{Mock, ResponseTemplate};

use crate::support::{EbiPages, Upstream, fixture, fixtures};

fn ids(page: &Value) -> Vec<String> {
    page["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["id"].as_str().unwrap().to_owned())
        .collect()
}

fn scores(page: &Value) -> Vec<f64> {
    page["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["score"].as_f64().unwrap())
        .collect()
}

fn assert_ranked(page: &Value) {
    let s = scores(page);
    assert!(s.windows(2).all(|w| w[0] >= w[1]), "best first: {s:?}");
    assert!(s.iter().all(|v| (0.0..=1.0).contains(v)), "0–1: {s:?}");
}

/// "BRCA1" → ENSG candidates, the exact symbol first, though EBI Search
/// ranks it third.
#[tokio::test]
async fn brca1_lists_the_exact_symbol_first() {
    let upstream = Upstream::start().await;
    let client = upstream.client().await;
    let page = client
        .call_ok("ensembl_search_genes", json!({"query": "BRCA1"}))
        .await;

    assert_eq!(
        page["items"][0],
        json!({"id": "ENSG00000012048", "symbol": "BRCA1", "name": "BRCA1 DNA repair associated",
               "biotype": "protein_coding", "species": "homo_sapiens", "score": 1.0})
    );
    // Then EBI Search's order, without the exact match a second time.
    assert_eq!(
        ids(&page),
        [
            "ENSG00000012048",
            "ENSG00000138376",
            "ENSMUSG00000017146",
            "ENSG00000136492",
            "ENSG00000089234"
        ]
    );
    assert_eq!(page["items"][2]["species"], "mus_musculus");
    assert_ranked(&page);
    assert!(scores(&page)[1] < 1.0);
    assert_eq!(
        page["pagination"],
        json!({"cursor": null, "total_count": null, "page_size": 50})
    );

    // One request to each endpoint: the symbol, the free text, one batch look-up.
    let symbol = upstream
        .requests_to("/ensembl/xrefs/symbol/homo_sapiens/BRCA1")
        .await;
    assert_eq!(symbol.len(), 1);
    assert!(
        symbol[0]
            .url
            .query()
            .unwrap_or("")
            .contains("object_type=gene")
    );
    assert_eq!(upstream.count("/ebisearch/ensembl_gene").await, 1);
    let batch = upstream.requests_to("/ensembl/lookup/id").await;
    assert_eq!(batch.len(), 1, "one POST for the whole page");
    let body: Value = serde_json::from_slice(&batch[0].body).unwrap();
    let mut asked: Vec<&str> = body["ids"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    asked.sort_unstable();
    let mut listed = ids(&page);
    listed.sort_unstable();
    assert_eq!(asked, listed);
    assert_eq!(upstream.requests().await.len(), 3);
    client.close().await;
}

/// Free text gives several ranked candidates across species; `species`
/// filters them (however it is spelled) and is resolved from a cached species list.
#[tokio::test]
async fn free_text_ranks_several_candidates_and_species_filters() {
    let upstream = Upstream::start().await;
    let client = upstream.client().await;
    let all = client
        .call_ok("ensembl_search_genes", json!({"query": "tumor protein"}))
        .await;
    assert_eq!(all["items"].as_array().unwrap().len(), 6);
    assert_eq!(all["items"][0]["symbol"], "TP53");
    assert_eq!(all["items"][0]["score"], 0.8);
    assert_ranked(&all);
    let s = scores(&all);
    assert!(
        s.windows(2).all(|w| w[0] > w[1]),
        "ranked by relevance: {s:?}"
    );
    assert_eq!(all["pagination"]["total_count"], 6);
    assert!(ids(&all).contains(&"ENSMUSG00000060126".to_owned()));
    // Free text is not a symbol: no exact-match request.
    assert!(
        upstream
            .requests()
            .await
            .iter()
            .all(|r| !r.url.path().contains("/xrefs/symbol/"))
    );

    for species in ["human", "Homo sapiens", "homo_sapiens", "9606"] {
        let human = client
            .call_ok(
                "ensembl_search_genes",
                json!({"query": "tumor protein", "species": species}),
            )
            .await;
        assert_eq!(
            ids(&human),
            [
                "ENSG00000141510",
                "ENSG00000073282",
                "ENSG00000078900",
                "ENSG00000076554",
                "ENSG00000133112"
            ],
            "{species}"
        );
        assert!(
            human["items"]
                .as_array()
                .unwrap()
                .iter()
                .all(|i| i["species"] == "homo_sapiens")
        );
        assert_ranked(&human);
    }
    let ebi = upstream.requests_to("/ebisearch/ensembl_gene").await;
    let last: Vec<(String, String)> = ebi
        .last()
        .unwrap()
        .url
        .query_pairs()
        .map(|(k, v)| (k.into_owned(), v.into_owned()))
        .collect();
    assert!(last.contains(&(
        "query".into(),
        r#"(tumor protein) AND species:"Homo sapiens""#.into()
    )));
    // The species list is fetched once and then served from the cache.
    assert_eq!(upstream.count("/ensembl/info/species").await, 1);
    client.close().await;
}

/// page_size=2 and the cursor walk the whole list without overlap; a
/// garbled cursor or one from another query is INVALID_INPUT, before any request.
#[tokio::test]
async fn pages_follow_the_cursor_without_overlap() {
    let upstream = Upstream::start().await;
    let client = upstream.client().await;
    let mut seen: Vec<String> = Vec::new();
    let mut cursor: Option<String> = None;
    let mut pages = 0;
    loop {
        let mut args = json!({"query": "BRCA1", "page_size": 2});
        if let Some(c) = &cursor {
            args["cursor"] = json!(c);
        }
        let page = client.call_ok("ensembl_search_genes", args).await;
        pages += 1;
        assert_eq!(page["pagination"]["page_size"], 2);
        let page_ids = ids(&page);
        assert!(page_ids.len() <= 2);
        seen.extend(page_ids);
        match page["pagination"]["cursor"].as_str() {
            Some(c) => cursor = Some(c.to_owned()),
            None => break,
        }
        assert!(pages < 10, "the cursor must end");
    }
    assert_eq!(pages, 3);
    assert_eq!(
        seen,
        [
            "ENSG00000012048",
            "ENSG00000138376",
            "ENSMUSG00000017146",
            "ENSG00000136492",
            "ENSG00000089234"
        ]
    );
    assert_eq!(seen.iter().collect::<HashSet<_>>().len(), seen.len());
    // EBI Search was asked to continue where the previous page stopped.
    let starts: Vec<String> = upstream
        .requests_to("/ebisearch/ensembl_gene")
        .await
        .iter()
        .filter_map(|r| {
            r.url
                .query_pairs()
                .find(|(k, _)| k == "start")
                .map(|(_, v)| v.into_owned())
        })
        .collect();
    assert_eq!(starts, ["0", "1", "4"]);

    // A cursor of the first page, reused with another query or garbled.
    let first = client
        .call_ok(
            "ensembl_search_genes",
            json!({"query": "BRCA1", "page_size": 2}),
        )
        .await;
    let cursor = first["pagination"]["cursor"].as_str().unwrap().to_owned();
    let before = upstream.requests().await.len();
    let e = client
        .call_err(
            "ensembl_search_genes",
            json!({"query": "tumor protein", "cursor": cursor}),
        )
        .await;
    assert_eq!(e.code, ErrorCode::InvalidInput);
    assert!(e.message.contains("different query"), "{}", e.message);
    let e = client
        .call_err(
            "ensembl_search_genes",
            json!({"query": "BRCA1", "cursor": "not-a-cursor"}),
        )
        .await;
    assert_eq!(e.code, ErrorCode::InvalidInput);
    assert_eq!(e.invalid_input.as_deref(), Some("not-a-cursor"));
    assert_eq!(
        upstream.requests().await.len(),
        before,
        "refused before any request"
    );
    client.close().await;
}

#[tokio::test]
async fn bad_arguments_are_refused_before_any_request() {
    let upstream = Upstream::start().await;
    let client = upstream.client().await;
    let e = client
        .call_err("ensembl_search_genes", json!({"query": " B "}))
        .await;
    assert_eq!(e.code, ErrorCode::AmbiguousQuery);
    assert!(
        e.recovery_hint
            .contains("Minimum query length is 2 characters")
    );
    for page_size in [json!(0), json!(101), json!("ten")] {
        let e = client
            .call_err(
                "ensembl_search_genes",
                json!({"query": "BRCA1", "page_size": page_size}),
            )
            .await;
        assert_eq!(e.code, ErrorCode::InvalidInput, "{page_size}");
        assert!(e.message.contains("page_size"), "{}", e.message);
    }
    let e = client
        .call_err(
            "ensembl_search_genes",
            json!({"query": "BRCA1", "organism": "human"}),
        )
        .await;
    assert_eq!(e.code, ErrorCode::InvalidInput);
    assert!(
        e.message.contains("Unknown argument 'organism'"),
        "{}",
        e.message
    );
    assert!(upstream.requests().await.is_empty());
    client.close().await;
}

/// Numbers sent as strings are accepted (page_size "2"), and a taxon id as a number.
#[tokio::test]
async fn forgiving_argument_types() {
    let upstream = Upstream::start().await;
    let client = upstream.client().await;
    let page = client
        .call_ok(
            "ensembl_search_genes",
            json!({"query": "tumor protein", "page_size": "2", "species": 9606}),
        )
        .await;
    assert_eq!(ids(&page), ["ENSG00000141510", "ENSG00000073282"]);
    assert_eq!(page["pagination"]["total_count"], 5);
    assert!(page["pagination"]["cursor"].is_string());
    client.close().await;
}

/// EBI Search promising more hits (`hitCount`) than it then serves: the list still ends,
/// with a null cursor, instead of a cursor that never advances.
#[tokio::test]
async fn a_list_shorter_than_its_hit_count_still_ends() {
    let upstream = Upstream::start().await;
    let mut short = fixtures().json("ebisearch__tumor_protein__human.json");
    short["hitCount"] = json!(10);
    short["entries"].as_array_mut().unwrap().truncate(3);
    Mock::given(path("/ebisearch/ensembl_gene"))
        .and(query_param("query", "p53 family"))
        .respond_with(EbiPages(short))
        .with_priority(1)
        .mount(&upstream.mock)
        .await;
    let client = upstream.client().await;
    let first = client
        .call_ok(
            "ensembl_search_genes",
            json!({"query": "p53 family", "page_size": 3}),
        )
        .await;
    assert_eq!(ids(&first).len(), 3);
    assert_eq!(first["pagination"]["total_count"], 10);
    let cursor = first["pagination"]["cursor"].as_str().unwrap().to_owned();
    let second = client
        .call_ok(
            "ensembl_search_genes",
            json!({"query": "p53 family", "page_size": 3, "cursor": cursor}),
        )
        .await;
    assert!(ids(&second).is_empty());
    assert!(second["pagination"]["cursor"].is_null());
    client.close().await;
}

/// A query that cannot be a URL path segment ("..") is still searched as free text: the
/// exact-symbol request is skipped instead of refusing the query as "not an identifier".
#[tokio::test]
async fn a_query_that_cannot_be_a_path_segment_is_searched_as_free_text() {
    let upstream = Upstream::start().await;
    let client = upstream.client().await;
    let page = client
        .call_ok("ensembl_search_genes", json!({"query": " .. "}))
        .await;
    assert!(ids(&page).is_empty());
    assert!(
        upstream
            .requests()
            .await
            .iter()
            .all(|r| !r.url.path().contains("/xrefs/symbol/")),
        "no exact-symbol request"
    );
    let ebi = upstream.requests_to("/ebisearch/ensembl_gene").await;
    assert_eq!(ebi.len(), 1);
    assert!(
        ebi[0]
            .url
            .query_pairs()
            .any(|(k, v)| k == "query" && v == "..")
    );
    client.close().await;
}

/// The `query` parameter of each EBI Search request, in order.
async fn ebi_queries(upstream: &Upstream) -> Vec<String> {
    upstream
        .requests_to("/ebisearch/ensembl_gene")
        .await
        .iter()
        .filter_map(|r| {
            r.url
                .query_pairs()
                .find(|(k, _)| k == "query")
                .map(|(_, v)| v.into_owned())
        })
        .collect()
}

/// EBI Search refusing the `species:"…"` clause (not verified against the live API)
/// does not sink the search: the words are searched again without it, the hits
/// of other species are dropped locally, the total is unknown, later pages go
/// straight to the search without the clause, and a client listening at `notice` is
/// told each time the clause is dropped.
#[tokio::test]
#[expect(
    deprecated,
    reason = "MCP logging is deprecated in the newest protocol revision"
)]
async fn a_refused_species_clause_is_retried_without_it() {
    use lifesciences_core::rmcp::model::LoggingLevel;
    const DROPPED: &str = "EBI Search refused the species filter; searching all species and \
                           keeping that species' hits";
    let upstream = Upstream::start().await;
    let with_clause = r#"(tumor protein) AND species:"Homo sapiens""#;
    Mock::given(path("/ebisearch/ensembl_gene"))
        .and(query_param("query", with_clause))
        .respond_with(
            ResponseTemplate::new(400)
                .set_body_json(json!({"errorMessage": "unknown field 'species'"})),
        )
        .with_priority(1)
        .mount(&upstream.mock)
        .await;
    let client = upstream.client().await;
    client.set_log_level(LoggingLevel::Notice).await;
    let human = [
        "ENSG00000141510",
        "ENSG00000073282",
        "ENSG00000078900",
        "ENSG00000076554",
        "ENSG00000133112",
    ];

    let page = client
        .call_ok(
            "ensembl_search_genes",
            json!({"query": "tumor protein", "species": "human"}),
        )
        .await;
    assert_eq!(ids(&page), human);
    assert_ranked(&page);
    assert_eq!(
        page["pagination"],
        json!({"cursor": null, "total_count": null, "page_size": 50}),
        "hitCount counts every species: the total is unknown"
    );
    assert_eq!(ebi_queries(&upstream).await, [with_clause, "tumor protein"]);
    assert_eq!(
        client.log_messages().await,
        [(LoggingLevel::Notice, DROPPED.to_owned())]
    );

    // Page by page: only the first page tries the clause.
    let mut seen: Vec<String> = Vec::new();
    let mut cursor: Option<String> = None;
    for _ in 0..10 {
        let mut args = json!({"query": "tumor protein", "species": "human", "page_size": 2});
        if let Some(c) = &cursor {
            args["cursor"] = json!(c);
        }
        let page = client.call_ok("ensembl_search_genes", args).await;
        seen.extend(ids(&page));
        match page["pagination"]["cursor"].as_str() {
            Some(c) => cursor = Some(c.to_owned()),
            None => break,
        }
    }
    assert_eq!(seen, human);
    let queries = ebi_queries(&upstream).await;
    assert_eq!(
        queries.iter().filter(|q| *q == with_clause).count(),
        2,
        "{queries:?}"
    );
    // Told once more, for the one paged call that tried the clause.
    let heard = client.log_messages().await;
    assert_eq!(heard.len(), 2, "{heard:?}");
    assert_eq!(heard[1], (LoggingLevel::Notice, DROPPED.to_owned()));
    client.close().await;
}

/// Without a species there is no clause to drop: a 400 is an error at once; with one,
/// the search without the clause is tried once, and its refusal is the answer.
#[tokio::test]
async fn a_refused_search_is_retried_at_most_once() {
    let upstream = Upstream::start().await;
    for query in ["zz top", r#"(zz top) AND species:"Homo sapiens""#] {
        Mock::given(path("/ebisearch/ensembl_gene"))
            .and(query_param("query", query))
            .respond_with(ResponseTemplate::new(400).set_body_string("bad query"))
            .with_priority(1)
            .mount(&upstream.mock)
            .await;
    }
    let client = upstream.client().await;
    let e = client
        .call_err("ensembl_search_genes", json!({"query": "zz top"}))
        .await;
    assert_eq!(e.code, ErrorCode::UpstreamError);
    assert_eq!(upstream.count("/ebisearch/ensembl_gene").await, 1);
    let e = client
        .call_err(
            "ensembl_search_genes",
            json!({"query": "zz top", "species": "human"}),
        )
        .await;
    assert_eq!(e.code, ErrorCode::UpstreamError);
    assert!(e.message.contains("EBI Search"), "{}", e.message);
    assert_eq!(upstream.count("/ebisearch/ensembl_gene").await, 3);
    client.close().await;
}

/// Lucene's operator words in the user's text are sent as quoted words, so
/// "tumor AND protein" or a gene named "NOT" cannot change the query's logic; the
/// exact-symbol request still asks for the symbol as typed.
#[tokio::test]
async fn operator_words_are_searched_as_words() {
    let upstream = Upstream::start().await;
    let client = upstream.client().await;
    client
        .call_ok(
            "ensembl_search_genes",
            json!({"query": "tumor AND protein"}),
        )
        .await;
    client
        .call_ok(
            "ensembl_search_genes",
            json!({"query": "NOT", "species": "human"}),
        )
        .await;
    assert_eq!(
        ebi_queries(&upstream).await,
        [
            r#"tumor "AND" protein"#,
            r#"("NOT") AND species:"Homo sapiens""#
        ]
    );
    assert_eq!(
        upstream
            .count("/ensembl/xrefs/symbol/homo_sapiens/NOT")
            .await,
        1
    );
    client.close().await;
}

/// Another database's identifier finds the Ensembl gene it belongs to through Ensembl's
/// cross-references, restricted to that database when the ID is a bare number; free text
/// is skipped (it would add unrelated hits).
#[tokio::test]
async fn the_ensembl_gene_of_an_hgnc_ncbi_gene_or_refseq_id() {
    let upstream = Upstream::start().await;
    for (segment, db) in [
        ("HGNC%3A11998", Some("HGNC")),
        ("7157", Some("EntrezGene")),
        ("NM_000546", None),
    ] {
        let mut mock = Mock::given(path(format!(
            "/ensembl/xrefs/symbol/homo_sapiens/{segment}"
        )))
        .and(query_param("object_type", "gene"));
        if let Some(db) = db {
            mock = mock.and(query_param("external_db", db));
        }
        mock.respond_with(
            ResponseTemplate::new(200)
                .set_body_json(json!([{"id": "ENSG00000141510", "type": "gene"}])),
        )
        .with_priority(1)
        .mount(&upstream.mock)
        .await;
    }
    let client = upstream.client().await;

    for query in ["hgnc:11998", "7157", "NM_000546.6"] {
        let page = client
            .call_ok("ensembl_search_genes", json!({"query": query}))
            .await;
        assert_eq!(ids(&page), ["ENSG00000141510"], "{query}");
        assert_eq!(page["items"][0]["symbol"], "TP53", "{query}");
        assert_eq!(page["items"][0]["score"], 1.0, "{query}");
    }
    // Per query: the cross-reference and the batch look-up; never EBI Search.
    assert_eq!(upstream.count("/ebisearch/ensembl_gene").await, 0);
    assert_eq!(upstream.count("/ensembl/lookup/id").await, 3);
    client.close().await;
}

/// A gene's name with a dot and a version-like suffix is no UniProt accession to be cut
/// at the dot: `AL033381.1` reaches Ensembl whole, and Ensembl's answer (from its own
/// test suite) names the gene ENSG00000176515, listed as an exact match.
#[tokio::test]
async fn a_name_with_a_dot_reaches_ensembl_whole_and_finds_its_gene() {
    let upstream = Upstream::empty().await;
    Mock::given(method("GET"))
        .and(path("/ensembl/xrefs/symbol/homo_sapiens/AL033381.1"))
        .and(query_param("object_type", "gene"))
        .respond_with(fixture(
            "xrefs_symbol__homo_sapiens__AL033381.1__testdb.json",
        ))
        .mount(&upstream.mock)
        .await;
    Mock::given(method("GET"))
        .and(path("/ebisearch/ensembl_gene"))
        .respond_with(
            ResponseTemplate::new(200)
                .set_body_json(json!({"hitCount": 0, "entries": [], "facets": []})),
        )
        .mount(&upstream.mock)
        .await;
    let gene = fixtures().json("lookup_id__ENSG00000176515__testdb.json");
    Mock::given(method("POST"))
        .and(path("/ensembl/lookup/id"))
        .and(body_json(json!({"ids": ["ENSG00000176515"]})))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({"ENSG00000176515": gene})))
        .mount(&upstream.mock)
        .await;
    let client = upstream.client().await;

    let page = client
        .call_ok("ensembl_search_genes", json!({"query": "AL033381.1"}))
        .await;

    assert_eq!(
        page["items"],
        json!([{"id": "ENSG00000176515", "symbol": "AL033381.1",
                "name": "Uncharacterized protein; cDNA FLJ34594 fis, clone KIDNE2009109",
                "biotype": "protein_coding", "species": "homo_sapiens", "score": 1.0}])
    );
    // Sent whole to the exact look-up and to free text; nothing cut at the dot.
    assert_eq!(
        upstream
            .count("/ensembl/xrefs/symbol/homo_sapiens/AL033381.1")
            .await,
        1
    );
    assert_eq!(ebi_queries(&upstream).await, ["AL033381.1"]);
    let sent: Vec<String> = upstream
        .requests()
        .await
        .iter()
        .map(|r| r.url.path().to_owned())
        .collect();
    assert!(sent.iter().all(|p| !p.ends_with("/AL033381")), "{sent:?}");
    client.close().await;
}
