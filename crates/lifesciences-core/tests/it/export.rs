//! Exports as a client and the upstream see them, against core's `TestServer`, whose
//! `items_search` pages by cursor: the whole list fetched page after page at the largest
//! page size, kept, read back with `resources/read`; what is said when it stops short;
//! what is refused; a cancelled export; the command line's `--format`.

use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use lifesciences_core::ErrorCode;
use lifesciences_core::testing::{
    McpTestClient, TestServer, assert_export_holds_the_pages, mock_env, mock_upstream, parse_table,
};
use lifesciences_core::{McpServer, cli};
use serde_json::{Value, json};
use wiremock::matchers::path;
use wiremock::{Mock, MockServer, Request, Respond, ResponseTemplate};

/// The items upstream's search over `total` items, paged by `offset` and `limit` as it
/// documents them: every third item has two UniProt accessions, every fifth no name.
/// From `fail_from` on, a page is answered 500 (every attempt).
#[derive(Clone)]
pub(crate) struct Items {
    pub(crate) total: usize,
    pub(crate) fail_from: Option<usize>,
    pub(crate) delay: Duration,
    pub(crate) pages: Arc<AtomicUsize>,
}

impl Items {
    pub(crate) fn new(total: usize) -> Self {
        Self {
            total,
            fail_from: None,
            delay: Duration::ZERO,
            pages: Arc::default(),
        }
    }

    pub(crate) async fn mount(self, upstream: &MockServer) -> Arc<AtomicUsize> {
        let pages = Arc::clone(&self.pages);
        Mock::given(path("/items"))
            .respond_with(self)
            .mount(upstream)
            .await;
        pages
    }
}

impl Respond for Items {
    fn respond(&self, request: &Request) -> ResponseTemplate {
        self.pages.fetch_add(1, Ordering::SeqCst);
        let query = |name: &str| {
            request
                .url
                .query_pairs()
                .find(|(k, _)| k == name)
                .and_then(|(_, v)| v.parse::<usize>().ok())
                .unwrap_or(0)
        };
        let (offset, limit) = (query("offset"), query("limit"));
        if self.fail_from.is_some_and(|from| offset >= from) {
            return ResponseTemplate::new(500);
        }
        let items: Vec<Value> = (offset..(offset + limit).min(self.total))
            .map(|n| {
                let mut item = json!({"number": n + 1});
                if n % 5 != 0 {
                    item["name"] = json!(format!("item {}", n + 1));
                }
                if n % 3 == 0 {
                    item["uniprot"] = json!(["P04637", "Q53GA5"]);
                }
                item
            })
            .collect();
        ResponseTemplate::new(200)
            .set_body_json(json!({"total": self.total, "items": items}))
            .set_delay(self.delay)
    }
}

async fn serve(upstream: &MockServer) -> McpTestClient {
    McpTestClient::connect(TestServer::for_mock(&upstream.uri())).await
}

/// The `limit` of every request the upstream saw, in order.
async fn limits(upstream: &MockServer) -> Vec<String> {
    upstream
        .received_requests()
        .await
        .unwrap()
        .iter()
        .filter_map(|r| {
            r.url
                .query_pairs()
                .find(|(k, _)| k == "limit")
                .map(|(_, v)| v.into_owned())
        })
        .collect()
}

#[tokio::test]
async fn an_export_holds_every_page_the_cursor_reaches_fetched_at_the_largest_page_size() {
    let upstream = mock_upstream().await;
    let pages = Items::new(250).mount(&upstream).await;
    let client = serve(&upstream).await;

    let exported = assert_export_holds_the_pages::<TestServer>(
        &client,
        "items_search",
        json!({"query": "kinase"}),
        json!({"page_size": 7}),
    )
    .await;

    // The export asked three pages of 100 (the schema's maximum), then the client 36 of 7.
    let asked = limits(&upstream).await;
    assert_eq!(asked[..3], ["100", "100", "100"]);
    assert_eq!(pages.load(Ordering::SeqCst), 3 + 36);
    let export = &exported.export;
    assert_eq!(export["rows"], 250);
    assert_eq!(export["complete"], true);
    assert!(export.get("note").is_none(), "{export}");
    assert!(export.get("download").is_none(), "no download over stdio");
    assert_eq!(
        export["columns"],
        json!(["cross_references.uniprot", "id", "name"])
    );
    // The answer: the tool's shape, three example rows, no cursor, and the provenance of
    // the whole fetch (three requests).
    let answer = &exported.answer;
    assert_eq!(answer["items"].as_array().unwrap().len(), 3);
    assert_eq!(answer["items"][0]["id"], "ITEM:1");
    assert_eq!(answer["pagination"]["cursor"], Value::Null);
    assert_eq!(answer["pagination"]["total_count"], 250);
    let requests = answer["provenance"]["sources"][0]["requests"].clone();
    assert_eq!(requests.as_array().unwrap().len(), 3, "{requests}");
    let expires = chrono::DateTime::parse_from_rfc3339(export["expires_at"].as_str().unwrap())
        .unwrap()
        .with_timezone(&chrono::Utc);
    assert!(expires > chrono::Utc::now() + chrono::Duration::minutes(14));
    // The table: its provenance in `#` lines, a header, the rows; lists joined by `|`.
    let comments = &exported.comments;
    assert!(
        comments[0].starts_with("items_search: the whole list, exported by items-mcp "),
        "{comments:?}"
    );
    assert_eq!(
        comments[1],
        r#"arguments: {"page_size":100,"query":"kinase"}"#
    );
    assert_eq!(comments[2], "250 rows from 3 page(s); complete");
    assert!(
        comments[3].starts_with("source: Items, retrieved at "),
        "{comments:?}"
    );
    let named: Vec<&String> = comments
        .iter()
        .filter(|c| c.starts_with("request: "))
        .collect();
    assert_eq!(
        named.len(),
        3,
        "every request of the fetch, in full: {comments:?}"
    );
    assert!(named[2].ends_with("offset=200&limit=100"), "{named:?}");
    assert!(
        comments.last().unwrap().starts_with("cells: "),
        "{comments:?}"
    );
    assert_eq!(exported.rows[0], ["P04637|Q53GA5", "ITEM:1", ""]);
    assert_eq!(exported.rows[1], ["", "ITEM:2", "item 2"]);
    client.close().await;
}

#[tokio::test]
async fn csv_is_the_same_table_with_commas_and_the_resource_says_its_type() {
    let upstream = mock_upstream().await;
    Items::new(12).mount(&upstream).await;
    let client = serve(&upstream).await;
    let tsv = client
        .export("items_search", json!({"query": "kinase"}), "tsv")
        .await;
    let csv = client
        .export("items_search", json!({"query": "kinase"}), "csv")
        .await;
    assert_eq!(csv.mime_type, "text/csv");
    assert_eq!(tsv.mime_type, "text/tab-separated-values");
    assert_eq!((&csv.columns, &csv.rows), (&tsv.columns, &tsv.rows));
    assert!(
        csv.text.contains("\nP04637|Q53GA5,ITEM:1,\n"),
        "{}",
        csv.text
    );
    assert_ne!(
        csv.export["uri"], tsv.export["uri"],
        "each export is a table of its own"
    );
    client.close().await;
}

#[tokio::test]
async fn a_source_failing_part_way_keeps_the_rows_before_it_and_says_so() {
    let upstream = mock_upstream().await;
    Items {
        fail_from: Some(200),
        ..Items::new(450)
    }
    .mount(&upstream)
    .await;
    let client = serve(&upstream).await;
    let exported = client
        .export("items_search", json!({"query": "kinase"}), "tsv")
        .await;
    assert_eq!(exported.export["complete"], false);
    assert_eq!(exported.export["rows"], 200);
    let note = exported.export["note"].as_str().unwrap();
    assert!(
        note.starts_with("page 3 failed (UPSTREAM_ERROR: ")
            && note.ends_with("the table holds the 200 rows before it"),
        "{note}"
    );
    assert!(
        exported.comments[2].starts_with("200 rows from 3 page(s); NOT complete: page 3 failed"),
        "{:?}",
        exported.comments
    );
    client.close().await;
}

#[tokio::test]
async fn a_first_page_that_fails_is_the_calls_error_as_without_an_export() {
    let upstream = mock_upstream().await;
    Items {
        fail_from: Some(0),
        ..Items::new(450)
    }
    .mount(&upstream)
    .await;
    let client = serve(&upstream).await;
    let error = client
        .call_err("items_search", json!({"query": "kinase", "export": "tsv"}))
        .await;
    assert_eq!(error.code, ErrorCode::UpstreamError);
    client.close().await;
}

#[tokio::test]
async fn an_export_stops_at_its_maximum_and_says_where() {
    let upstream = mock_upstream().await;
    Items::new(100_050).mount(&upstream).await;
    // The items upstream allows 10 requests a second by default: this test asks 1,000.
    let server = TestServer::from_env(&mock_env(&[
        ("ITEMS_API_URL", &upstream.uri()),
        ("ITEMS_RATE_LIMIT", "10000"),
    ]))
    .unwrap();
    let client = McpTestClient::connect(server).await;
    let exported = client
        .export("items_search", json!({"query": "kinase"}), "csv")
        .await;
    assert_eq!(exported.export["rows"], 100_000);
    assert_eq!(exported.export["complete"], false);
    assert_eq!(
        exported.export["note"],
        "stopped at 100000 rows, the most an export holds; narrow the query for the rest"
    );
    assert_eq!(exported.rows.last().unwrap()[1], "ITEM:100000");
    // It stopped before asking for the page it could not hold.
    assert_eq!(upstream.received_requests().await.unwrap().len(), 1000);
    client.close().await;
}

#[tokio::test]
async fn what_is_not_an_export_is_refused_in_words() {
    let upstream = mock_upstream().await;
    Items::new(5).mount(&upstream).await;
    let client = serve(&upstream).await;
    let bad_format = client
        .call_err("items_search", json!({"query": "kinase", "export": "xlsx"}))
        .await;
    assert_eq!(bad_format.code, ErrorCode::InvalidInput);
    assert_eq!(
        bad_format.message,
        "Argument 'export' must be \"tsv\" or \"csv\"."
    );
    assert_eq!(bad_format.invalid_input.as_deref(), Some("xlsx"));
    let not_a_list = client
        .call_err(
            "items_get_item",
            json!({"item_id": "ITEM:1", "export": "tsv"}),
        )
        .await;
    assert_eq!(not_a_list.code, ErrorCode::InvalidInput);
    assert_eq!(
        not_a_list.message,
        "items_get_item does not answer a list: it takes no 'export'."
    );
    let page = client
        .call_ok("items_search", json!({"query": "kinase", "page_size": 2}))
        .await;
    let with_cursor = client
        .call_err(
            "items_search",
            json!({"query": "kinase", "export": "tsv", "cursor": page["pagination"]["cursor"]}),
        )
        .await;
    assert_eq!(with_cursor.code, ErrorCode::InvalidInput);
    assert_eq!(
        with_cursor.recovery_hint,
        "Leave out cursor when passing export."
    );
    // A table never made, or of a malformed name, is not found.
    for uri in [
        "export://0123456789abcdef0123456789abcdef.tsv",
        "export://../../etc/passwd",
    ] {
        let missing = client.read_resource(uri).await.unwrap_err();
        assert!(missing.contains("no exported table"), "{missing}");
    }
    // The definitions: the list takes `export`, the single item does not.
    let tools = client.tools().await;
    let takes = |name: &str| {
        tools.iter().find(|t| t.name == name).unwrap().input_schema["properties"]
            .get("export")
            .cloned()
    };
    assert_eq!(
        takes("items_search").unwrap()["enum"],
        json!(["tsv", "csv"])
    );
    assert!(takes("items_get_item").is_none());
    client.close().await;
}

#[tokio::test]
async fn a_cancelled_export_stops_fetching() {
    let upstream = mock_upstream().await;
    let pages = Items {
        delay: Duration::from_millis(200),
        ..Items::new(1000)
    }
    .mount(&upstream)
    .await;
    let client = serve(&upstream).await;
    let call = client.peer().call_tool(
        lifesciences_core::rmcp::model::CallToolRequestParams::new("items_search").with_arguments(
            json!({"query": "kinase", "export": "tsv"})
                .as_object()
                .unwrap()
                .clone(),
        ),
    );
    // Dropped while its second page is asked: the rmcp client sends notifications/cancelled.
    let abandoned = tokio::time::timeout(Duration::from_millis(300), call).await;
    assert!(abandoned.is_err(), "the export was still running");
    tokio::time::sleep(Duration::from_millis(1000)).await;
    let asked = pages.load(Ordering::SeqCst);
    assert!(
        asked <= 2,
        "{asked} pages asked of 10: the export went on after the cancel"
    );
    assert_eq!(client.tools().await.len(), 2, "the session is still usable");
    client.close().await;
}

async fn run(args: &[&str], upstream: &str) -> (ExitCode, String) {
    let mut out = Vec::new();
    let argv = std::iter::once("items-mcp").chain(args.iter().copied());
    let env = mock_env(&[("ITEMS_API_URL", upstream)]);
    let code = cli::run::<TestServer>(argv, env, &mut out).await;
    (code, String::from_utf8(out).unwrap())
}

#[tokio::test]
async fn call_with_format_writes_the_whole_table_to_stdout() {
    let upstream = mock_upstream().await;
    Items::new(130).mount(&upstream).await;
    let uri = upstream.uri();
    let (code, out) = run(
        &["call", "items_search", "query=kinase", "--format", "tsv"],
        &uri,
    )
    .await;
    assert_eq!(code, ExitCode::SUCCESS, "{out}");
    let (comments, rows) = parse_table(&out, '\t');
    assert!(
        comments[0].starts_with("items_search: the whole list"),
        "{out}"
    );
    assert_eq!(rows[0], ["cross_references.uniprot", "id", "name"]);
    assert_eq!(rows.len(), 1 + 130);
    assert_eq!(rows[130][1], "ITEM:130");

    let (code, out) = run(
        &["call", "items_search", "query=kinase", "--format", "csv"],
        &uri,
    )
    .await;
    assert_eq!(code, ExitCode::SUCCESS);
    assert!(
        out.contains("\ncross_references.uniprot,id,name\n"),
        "{out}"
    );

    // Not a list: a usage error naming the lists; nothing on stdout.
    let (code, out) = run(
        &[
            "call",
            "items_get_item",
            "item_id=ITEM:1",
            "--format",
            "tsv",
        ],
        &uri,
    )
    .await;
    assert_eq!(code, ExitCode::from(cli::EXIT_USAGE));
    assert!(out.is_empty(), "{out}");
    // A tool error: exit 1, the envelope on stderr, nothing on stdout.
    let (code, out) = run(
        &["call", "items_search", "query=k", "--format", "tsv"],
        &uri,
    )
    .await;
    assert_eq!(code, ExitCode::from(cli::EXIT_TOOL_ERROR));
    assert!(out.is_empty(), "{out}");
}

/// `tools/call` of `items_search` with `export`, as one stateless HTTP request.
fn export_call(query: &str) -> String {
    json!({"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {
        "name": "items_search", "arguments": {"query": query, "export": "tsv"}}})
    .to_string()
}

fn read_call(uri: &str) -> String {
    json!({"jsonrpc": "2.0", "id": 8, "method": "resources/read", "params": {"uri": uri}})
        .to_string()
}

async fn stateless(
    upstream: &MockServer,
    auth: Option<lifesciences_core::serve::auth::Auth>,
    public_url: Option<&str>,
) -> lifesciences_core::serve::HttpServer {
    let mut options = lifesciences_core::serve::HttpOptions::new("127.0.0.1:0");
    options.stateless = true;
    options.auth = auth.map(Arc::new);
    options.public_url = public_url.map(|u| url::Url::parse(u).unwrap());
    lifesciences_core::serve::start_http(TestServer::for_mock(&upstream.uri()), options)
        .await
        .unwrap()
}

#[tokio::test]
async fn over_http_the_answer_names_a_download_on_the_same_server() {
    use crate::auth::send;
    let upstream = mock_upstream().await;
    Items::new(40).mount(&upstream).await;
    let running = stateless(&upstream, None, None).await;
    let addr = running.local_addr;
    let headers = [("Mcp-Protocol-Version", "2025-11-25")];

    let called = send(addr, "POST", "/mcp", &headers, &export_call("kinase")).await;
    assert_eq!(called.status, 200, "{called:?}");
    let export = called.message()["result"]["structuredContent"]["export"].clone();
    let download = export["download"].as_str().unwrap().to_owned();
    let file = export["uri"]
        .as_str()
        .unwrap()
        .strip_prefix("export://")
        .unwrap();
    assert_eq!(download, format!("/exports/{file}"));

    let got = send(addr, "GET", &download, &[], "").await;
    assert_eq!(got.status, 200, "{got:?}");
    assert_eq!(
        got.header("content-type"),
        Some("text/tab-separated-values; charset=utf-8")
    );
    assert_eq!(
        got.header("content-disposition"),
        Some(format!("attachment; filename=\"{file}\"").as_str())
    );
    let (comments, rows) = parse_table(&got.body, '\t');
    assert!(comments[0].starts_with("items_search: the whole list"));
    assert_eq!(rows.len(), 1 + 40);
    // The same table as resources/read gives.
    let read = send(
        addr,
        "POST",
        "/mcp",
        &headers,
        &read_call(&format!("export://{file}")),
    )
    .await;
    assert_eq!(
        read.message()["result"]["contents"][0]["text"].as_str(),
        Some(got.body.as_str())
    );
    let missing = send(
        addr,
        "GET",
        "/exports/0123456789abcdef0123456789abcdef.tsv",
        &[],
        "",
    )
    .await;
    assert_eq!(missing.status, 404);
    running.shutdown(Duration::from_secs(1)).await;

    // With the public URL known, the download is absolute, next to the MCP endpoint.
    let running = stateless(&upstream, None, Some("https://mcp.example.org/lab/mcp")).await;
    let called = send(
        running.local_addr,
        "POST",
        "/mcp",
        &headers,
        &export_call("kinase"),
    )
    .await;
    let download = called.message()["result"]["structuredContent"]["export"]["download"]
        .as_str()
        .unwrap()
        .to_owned();
    assert!(
        download.starts_with("https://mcp.example.org/lab/exports/") && download.ends_with(".tsv"),
        "{download}"
    );
    running.shutdown(Duration::from_secs(1)).await;
}

#[tokio::test]
async fn with_authentication_a_table_is_downloaded_by_its_maker_alone() {
    use crate::auth::{bearer, send, token_line};
    use lifesciences_core::serve::auth::{self, Auth};
    let folder = lifesciences_core::testing::TempFolder::new("export-auth").unwrap();
    let file = folder.path().join("tokens");
    let (ada, grace) = ("s3cret-ada-0123456789", "s3cret-grace-0123456789");
    std::fs::write(
        &file,
        format!(
            "{}{}",
            token_line("ada", ada, ""),
            token_line("grace", grace, "")
        ),
    )
    .unwrap();
    let env = lifesciences_core::Env::from_pairs(&[(
        auth::TOKENS_FILE_VAR,
        file.display().to_string().as_str(),
    )]);
    let upstream = mock_upstream().await;
    Items::new(40).mount(&upstream).await;
    let running = stateless(&upstream, Auth::from_env(&env).unwrap(), None).await;
    let addr = running.local_addr;
    let (ada_auth, grace_auth) = (bearer(ada), bearer(grace));
    let ada_h = [
        ("Authorization", ada_auth.as_str()),
        ("Mcp-Protocol-Version", "2025-11-25"),
    ];
    let grace_h = [
        ("Authorization", grace_auth.as_str()),
        ("Mcp-Protocol-Version", "2025-11-25"),
    ];

    let called = send(addr, "POST", "/mcp", &ada_h, &export_call("kinase")).await;
    assert_eq!(called.status, 200, "{called:?}");
    let export = called.message()["result"]["structuredContent"]["export"].clone();
    let download = export["download"].as_str().unwrap().to_owned();
    let uri = export["uri"].as_str().unwrap().to_owned();

    // Without a token: refused as /mcp refuses it.
    let anonymous = send(addr, "GET", &download, &[], "").await;
    assert_eq!(anonymous.status, 401);
    assert!(
        anonymous
            .header("www-authenticate")
            .is_some_and(|c| c.starts_with("Bearer"))
    );
    // Another principal finds nothing, by download or resources/read.
    let other = send(addr, "GET", &download, &grace_h[..1], "").await;
    assert_eq!(other.status, 404);
    let read = send(addr, "POST", "/mcp", &grace_h, &read_call(&uri)).await;
    assert!(
        read.message()["error"]["message"]
            .as_str()
            .is_some_and(|m| m.contains("no exported table")),
        "{read:?}"
    );
    // Its maker downloads it.
    let got = send(addr, "GET", &download, &ada_h[..1], "").await;
    assert_eq!(got.status, 200, "{got:?}");
    assert_eq!(parse_table(&got.body, '\t').1.len(), 1 + 40);
    let read = send(addr, "POST", "/mcp", &ada_h, &read_call(&uri)).await;
    assert_eq!(
        read.message()["result"]["contents"][0]["mimeType"],
        "text/tab-separated-values"
    );
    running.shutdown(Duration::from_secs(1)).await;
}
