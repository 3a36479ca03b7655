//! Tools as an agent sees them, through a real MCP client against core's `TestServer`:
//! structured results, error envelopes, argument errors, cursors, definitions.

use lifesciences_core::ErrorCode;
use lifesciences_core::testing::{McpTestClient, TestServer, mock_upstream};
use serde_json::json;
use wiremock::matchers::{path, query_param};
use wiremock::{Mock, MockServer, ResponseTemplate};

async fn setup() -> (MockServer, McpTestClient) {
    let upstream = mock_upstream().await;
    let client = McpTestClient::connect(TestServer::for_mock(&upstream.uri())).await;
    (upstream, client)
}

#[tokio::test]
async fn every_tool_is_titled_described_read_only_and_typed() {
    let (_upstream, client) = setup().await;
    let tools = client.tools().await;
    assert_eq!(tools.len(), lifesciences_core::tools::<TestServer>().len());
    let mut names: Vec<_> = tools.iter().map(|t| t.name.to_string()).collect();
    names.sort();
    let count = names.len();
    names.dedup();
    assert_eq!(names.len(), count, "tool names are unique");
    assert_eq!(names, ["items_get_item", "items_search"]);
    for tool in &tools {
        assert!(tool.title.is_some(), "{} has a title", tool.name);
        assert!(
            tool.description
                .as_deref()
                .is_some_and(|d| d.contains("Example")),
            "{}",
            tool.name
        );
        let a = tool.annotations.as_ref().expect("annotations");
        assert_eq!(a.read_only_hint, Some(true));
        assert_eq!(a.idempotent_hint, Some(true));
        assert_eq!(a.open_world_hint, Some(true));
        assert!(
            tool.output_schema.is_some(),
            "{} declares an outputSchema",
            tool.name
        );
    }
    client.close().await;
}

/// `tools/list` serves the definitions from their stored JSON: what a client reads is
/// what the tool policy prepared, to the byte.
#[tokio::test]
async fn tools_list_serves_the_prepared_definitions_unchanged() {
    let (_upstream, client) = setup().await;
    let listed = serde_json::to_value(client.tools().await).unwrap();
    let prepared = serde_json::to_value(lifesciences_core::tools::<TestServer>()).unwrap();
    assert_eq!(listed, prepared);
    client.close().await;
}

#[test]
fn the_test_server_keeps_every_promise_of_a_tool_definition() {
    lifesciences_core::testing::assert_tool_definitions::<TestServer>();
}

#[tokio::test]
async fn output_schemas_never_promise_null_except_for_the_two_pagination_fields() {
    let (_upstream, client) = setup().await;
    let tools = client.tools().await;
    let schema = |name: &str| {
        let tool = tools.iter().find(|t| t.name == name).unwrap();
        serde_json::Value::Object((**tool.output_schema.as_ref().unwrap()).clone())
    };
    // `name` is an Option skipped when absent: a string, never null.
    assert_eq!(
        schema("items_get_item")["properties"]["name"]["type"],
        "string"
    );
    let page = schema("items_search");
    let text = page.to_string();
    let pagination = page["properties"]["pagination"]["properties"].clone();
    assert_eq!(pagination["cursor"]["type"], json!(["string", "null"]));
    assert_eq!(
        pagination["total_count"]["type"],
        json!(["integer", "null"])
    );
    // ...and nowhere else.
    assert_eq!(text.matches("\"null\"").count(), 2, "{text}");
    client.close().await;
}

/// Every output schema requires `provenance`, served as its skeleton: each field every
/// source entry holds, defined by its type (a strict client refuses a `required` field
/// the schema does not define).
#[tokio::test]
async fn the_served_provenance_defines_every_field_it_requires() {
    let (_upstream, client) = setup().await;
    for tool in client.tools().await {
        let Some(output) = tool.output_schema.as_ref() else {
            continue;
        };
        assert_eq!(
            output["properties"]["provenance"],
            json!({
                "type": "object",
                "properties": {"sources": {"type": "array", "items": {
                    "type": "object",
                    "properties": {
                        "database": {"type": "string"},
                        "retrieved_at": {"type": "string"}
                    },
                    "required": ["database", "retrieved_at"]
                }}},
                "required": ["sources"]
            }),
            "{}",
            tool.name
        );
    }
    client.close().await;
}

#[tokio::test]
async fn a_lookup_returns_structured_content_without_nulls() {
    let (upstream, client) = setup().await;
    Mock::given(path("/items/42"))
        .respond_with(ResponseTemplate::new(200).set_body_json(
            json!({"number": 42, "name": null, "uniprot": ["P04637", "not valid!"]}),
        ))
        .mount(&upstream)
        .await;
    // call_ok asserts no nulls and that the text content mirrors the structured content.
    let item = client
        .call_ok("items_get_item", json!({"item_id": "ITEM:42"}))
        .await;
    assert_eq!(
        item,
        json!({"id": "ITEM:42", "cross_references": {"uniprot": ["P04637"]}})
    );
    client.close().await;
}

#[tokio::test]
async fn strict_ids_unknown_ids_and_upstream_failures_are_envelopes() {
    let (upstream, client) = setup().await;
    Mock::given(path("/items/7"))
        .respond_with(ResponseTemplate::new(404))
        .mount(&upstream)
        .await;
    Mock::given(path("/items/8"))
        .respond_with(ResponseTemplate::new(503))
        .mount(&upstream)
        .await;

    let e = client
        .call_err("items_get_item", json!({"item_id": "ITEM42"}))
        .await;
    assert_eq!(e.code, ErrorCode::UnresolvedEntity);
    assert_eq!(e.recovery_hint, "Use format 'ITEM:42'");
    assert_eq!(e.invalid_input.as_deref(), Some("ITEM42"));

    let e = client
        .call_err("items_get_item", json!({"item_id": "ITEM:7"}))
        .await;
    assert_eq!(e.code, ErrorCode::EntityNotFound);

    let e = client
        .call_err("items_get_item", json!({"item_id": "ITEM:8"}))
        .await;
    assert_eq!(e.code, ErrorCode::UpstreamError);
    assert!(
        e.message.starts_with("Items answered HTTP 503"),
        "{}",
        e.message
    );
    client.close().await;
}

#[tokio::test]
async fn bad_arguments_are_invalid_input_envelopes_not_serde_text() {
    let (_upstream, client) = setup().await;
    let cases = [
        (json!({}), "Argument 'item_id' is required."),
        (
            json!({"item_id": 5}),
            "Argument 'item_id' has the wrong type: expected a string, got integer `5`.",
        ),
        (
            json!({"item_id": "ITEM:1", "id": "x"}),
            "Unknown argument 'id'. This tool accepts: 'item_id'.",
        ),
    ];
    for (args, message) in cases {
        let e = client.call_err("items_get_item", args).await;
        assert_eq!(e.code, ErrorCode::InvalidInput);
        assert_eq!(e.message, message);
        assert!(e.recovery_hint.contains("input schema"));
    }
    client.close().await;
}

#[tokio::test]
async fn search_pages_with_a_cursor_tied_to_its_query() {
    let (upstream, client) = setup().await;
    let page = |offset: &str, numbers: &[u64]| {
        let items: Vec<_> = numbers
            .iter()
            .map(|n| json!({"number": n, "name": format!("kinase {n}")}))
            .collect();
        Mock::given(path("/items"))
            .and(query_param("q", "kinase"))
            .and(query_param("offset", offset))
            .and(query_param("limit", "2"))
            .respond_with(
                ResponseTemplate::new(200).set_body_json(json!({"total": 3, "items": items})),
            )
            .expect(1)
    };
    page("0", &[1, 2]).mount(&upstream).await;
    page("2", &[3]).mount(&upstream).await;

    let first = client
        .call_ok("items_search", json!({"query": "kinase", "page_size": "2"}))
        .await;
    assert_eq!(first["items"].as_array().unwrap().len(), 2);
    assert_eq!(first["pagination"]["total_count"], 3);
    assert_eq!(first["pagination"]["page_size"], 2);
    let cursor = first["pagination"]["cursor"]
        .as_str()
        .expect("a next page")
        .to_owned();

    let second = client
        .call_ok(
            "items_search",
            json!({"query": "kinase", "page_size": 2, "cursor": cursor}),
        )
        .await;
    assert_eq!(second["items"][0]["id"], "ITEM:3");
    assert!(second["pagination"]["cursor"].is_null(), "last page");

    // The same cursor with another query is refused, as is a garbled one.
    let e = client
        .call_err(
            "items_search",
            json!({"query": "phosphatase", "cursor": cursor}),
        )
        .await;
    assert_eq!(e.code, ErrorCode::InvalidInput);
    assert!(e.message.contains("different query"));
    let e = client
        .call_err(
            "items_search",
            json!({"query": "kinase", "cursor": "garbage"}),
        )
        .await;
    assert_eq!(e.code, ErrorCode::InvalidInput);
    client.close().await;
}

#[tokio::test]
async fn short_queries_and_out_of_range_page_sizes_are_refused_before_any_request() {
    let (upstream, client) = setup().await;
    let e = client
        .call_err("items_search", json!({"query": " k "}))
        .await;
    assert_eq!(e.code, ErrorCode::AmbiguousQuery);
    assert!(
        e.recovery_hint
            .contains("Minimum query length is 2 characters")
    );
    let e = client
        .call_err("items_search", json!({"query": "kinase", "page_size": 0}))
        .await;
    assert_eq!(e.code, ErrorCode::InvalidInput);
    assert_eq!(
        e.message,
        "Argument 'page_size' must be between 1 and 100; got 0."
    );
    assert!(upstream.received_requests().await.unwrap().is_empty());
    client.close().await;
}

#[tokio::test]
async fn an_unknown_tool_is_a_protocol_error_not_a_tool_result() {
    let (_upstream, client) = setup().await;
    let r = client
        .peer()
        .call_tool(lifesciences_core::rmcp::model::CallToolRequestParams::new(
            "nope",
        ))
        .await;
    assert!(r.is_err());
    client.close().await;
}

#[tokio::test]
async fn a_cancelled_call_stops_its_upstream_requests() {
    let (upstream, client) = setup().await;
    // Each attempt takes 300 ms and fails with 503: uncancelled, the call would make 4
    // requests over about 1.2 s.
    Mock::given(path("/items/9"))
        .respond_with(ResponseTemplate::new(503).set_delay(std::time::Duration::from_millis(300)))
        .mount(&upstream)
        .await;
    let call = client.peer().call_tool(
        lifesciences_core::rmcp::model::CallToolRequestParams::new("items_get_item")
            .with_arguments(json!({"item_id": "ITEM:9"}).as_object().unwrap().clone()),
    );
    // Dropping the call makes the rmcp client send notifications/cancelled.
    let abandoned = tokio::time::timeout(std::time::Duration::from_millis(100), call).await;
    assert!(
        abandoned.is_err(),
        "the call was still running when abandoned"
    );
    tokio::time::sleep(std::time::Duration::from_millis(1500)).await;
    let requests = upstream.received_requests().await.unwrap();
    assert_eq!(requests.len(), 1, "no retries after the client cancelled");
    // The session is still usable.
    assert_eq!(client.tools().await.len(), 2);
    client.close().await;
}

mod panicking {
    use lifesciences_core::rmcp::tool;
    use lifesciences_core::testing::McpTestClient;
    use lifesciences_core::{ConfigError, Env, McpServer};

    #[derive(Clone)]
    struct Panicky;

    impl Panicky {
        /// Always panics. Example: `{}`.
        #[tool(title = "Boom")]
        async fn boom(&self) -> String {
            panic!("a bug in a tool")
        }
    }

    impl McpServer for Panicky {
        const NAME: &'static str = "panicky";
        const TITLE: &'static str = "Panicky";
        const VERSION: &'static str = "0";
        const INSTRUCTIONS: &'static str = "Panics.";
        fn from_env(_env: &Env) -> Result<Self, ConfigError> {
            Ok(Self)
        }
        lifesciences_core::tools![boom];
    }

    #[tokio::test]
    async fn a_panicking_tool_answers_with_an_error_and_the_server_lives_on() {
        let client = McpTestClient::connect(Panicky).await;
        let call =
            client
                .peer()
                .call_tool(lifesciences_core::rmcp::model::CallToolRequestParams::new(
                    "boom",
                ));
        let answered = tokio::time::timeout(std::time::Duration::from_secs(5), call)
            .await
            .expect("answered, not left hanging");
        assert!(answered.is_err(), "a protocol-level internal error");
        assert_eq!(client.tools().await.len(), 1, "the server still answers");
        client.close().await;
    }
}

/// One tool calling another by name (`call_tool`), as the gateway's crossing tool does.
mod by_name {
    use lifesciences_core::rmcp::service::RequestContext;
    use lifesciences_core::rmcp::{Json, RoleServer, tool};
    use lifesciences_core::schemars::{self, JsonSchema};
    use lifesciences_core::testing::McpTestClient;
    use lifesciences_core::{ApiError, ConfigError, Env, ErrorCode, McpServer, Parameters};
    use serde::{Deserialize, Serialize};
    use serde_json::json;

    #[derive(Clone)]
    struct Relay;

    /// A number.
    #[derive(Debug, Serialize, Deserialize, JsonSchema)]
    #[serde(deny_unknown_fields)]
    struct Number {
        /// The number; 0 is not found.
        n: u32,
    }

    /// Which tool to call, and with what.
    #[derive(Debug, Deserialize, JsonSchema)]
    #[serde(deny_unknown_fields)]
    struct Ask {
        /// The tool's name.
        tool: String,
        /// Its argument `n`.
        n: u32,
    }

    impl Relay {
        /// Echo a number. Example: `{"n": 2}`.
        #[tool(title = "Echo")]
        async fn relay_echo(
            &self,
            Parameters(args): Parameters<Number>,
        ) -> Result<Json<Number>, ApiError> {
            let args = args?;
            if args.n == 0 {
                return Err(ApiError::not_found(
                    "Relay has no number 0.",
                    "Give a number from 1.",
                    "0",
                ));
            }
            Ok(Json(args))
        }

        /// Ask a tool by name and double its answer. Example: `{"tool": "relay_echo", "n": 2}`.
        #[tool(title = "Double")]
        async fn relay_double(
            &self,
            Parameters(args): Parameters<Ask>,
            context: RequestContext<RoleServer>,
        ) -> Result<Json<Number>, ApiError> {
            let args = args?;
            let answer: Number =
                lifesciences_core::call_tool(self, &context, &args.tool, &json!({"n": args.n}))
                    .await?;
            Ok(Json(Number { n: answer.n * 2 }))
        }
    }

    impl McpServer for Relay {
        const NAME: &'static str = "relay";
        const TITLE: &'static str = "Relay";
        const VERSION: &'static str = "0";
        const INSTRUCTIONS: &'static str = "Relays.";
        fn from_env(_env: &Env) -> Result<Self, ConfigError> {
            Ok(Self)
        }
        lifesciences_core::tools![relay_echo, relay_double];
    }

    #[tokio::test]
    async fn a_tool_called_by_name_answers_typed_and_its_error_comes_back_unchanged() {
        let client = McpTestClient::connect(Relay).await;
        let out = client
            .call_ok("relay_double", json!({"tool": "relay_echo", "n": 21}))
            .await;
        assert_eq!(out, json!({"n": 42}));

        // The called tool's own error, as it answered it: code, message, hint, input.
        let relayed = client
            .call_err("relay_double", json!({"tool": "relay_echo", "n": 0}))
            .await;
        let direct = client.call_err("relay_echo", json!({"n": 0})).await;
        assert_eq!(relayed, direct);
        assert_eq!(relayed.code, ErrorCode::EntityNotFound);

        // A name no tool has is the caller's fault, said as such, naming the tool.
        let unknown = client
            .call_err("relay_double", json!({"tool": "relay_nope", "n": 1}))
            .await;
        assert_eq!(unknown.code, ErrorCode::UpstreamError);
        assert!(
            unknown.message.contains("relay_nope") && unknown.message.contains("no tool"),
            "{unknown:?}"
        );
        client.close().await;
    }
}

/// A tool whose definition names it otherwise than its declaration would be listed under
/// one name and dispatched under another.
mod misnamed {
    use lifesciences_core::rmcp::tool;
    use lifesciences_core::testing::assert_tool_definitions;
    use lifesciences_core::{ConfigError, Env, McpServer};

    #[derive(Clone)]
    struct Misnamed;

    impl Misnamed {
        /// Answers. Example: `{}`.
        #[tool(name = "misnamed_other", title = "Other")]
        async fn misnamed_tool(&self) -> String {
            String::new()
        }
    }

    impl McpServer for Misnamed {
        const NAME: &'static str = "misnamed";
        const TITLE: &'static str = "Misnamed";
        const VERSION: &'static str = "0";
        const INSTRUCTIONS: &'static str = "Misnamed.";
        fn from_env(_env: &Env) -> Result<Self, ConfigError> {
            Ok(Self)
        }
        lifesciences_core::tools![misnamed_tool];
    }

    #[test]
    #[should_panic(expected = "the tool declared as misnamed_tool defines another name")]
    fn a_tool_defined_under_another_name_than_declared_fails() {
        assert_tool_definitions::<Misnamed>();
    }
}

/// A tool whose output schema a strict client would not compile fails the definitions
/// check, as it would fail every call of the TypeScript clients.
mod not_strict {
    use lifesciences_core::rmcp::{Json, tool};
    use lifesciences_core::schemars::{self, JsonSchema};
    use lifesciences_core::testing::assert_tool_definitions;
    use lifesciences_core::{ApiError, ConfigError, Env, McpServer, Parameters};
    use serde::{Deserialize, Serialize};

    #[derive(Clone)]
    struct Loose;

    /// Arguments of `loose_measure`.
    #[derive(Deserialize, JsonSchema)]
    #[serde(deny_unknown_fields)]
    struct MeasureArgs {
        /// The sequence to measure, as its identifier (e.g. `ENSG00000141510`).
        sequence: String,
    }

    /// A length.
    #[derive(Serialize, JsonSchema)]
    struct Length {
        /// How long, in base pairs.
        #[schemars(extend("x-unit" = "bp"))]
        bases: u64,
    }

    impl Loose {
        /// Measures. Example: `{"sequence": "ENSG00000141510"}`.
        #[tool(
            title = "Measure",
            annotations(read_only_hint = true, idempotent_hint = true, open_world_hint = true)
        )]
        async fn loose_measure(
            &self,
            Parameters(args): Parameters<MeasureArgs>,
        ) -> Result<Json<Length>, ApiError> {
            let bases = args?.sequence.len() as u64;
            Ok(Json(Length { bases }))
        }
    }

    impl McpServer for Loose {
        const NAME: &'static str = "loose";
        const TITLE: &'static str = "Loose";
        const VERSION: &'static str = "0";
        const INSTRUCTIONS: &'static str = "Loose.";
        fn from_env(_env: &Env) -> Result<Self, ConfigError> {
            Ok(Self)
        }
        lifesciences_core::tools![loose_measure];
    }

    #[test]
    #[should_panic(
        expected = "loose_measure: the output schema does not compile strictly \
        (ajv 2020-12 in strict mode refuses it, and with it every call of the TypeScript \
        clients):\n  at #/properties/bases: unknown keyword \"x-unit\""
    )]
    fn an_output_schema_a_strict_client_refuses_fails() {
        assert_tool_definitions::<Loose>();
    }
}
