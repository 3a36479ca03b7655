//! [`TestServer`]: a complete small server over a mock upstream, which core's own tests
//! drive and which shows a server crate's whole shape in one file: a source client that
//! describes its upstream, output types, argument structs, tools, and the `McpServer`
//! declaration.

use std::sync::Arc;

use rmcp::{Json, tool};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::mock::mock_env;
use crate::args::{Parameters, SearchQuery, in_range, lenient};
use crate::client::{Env, LifeSciencesClient};
use crate::config::{ConfigError, HealthCheck, Upstream};
use crate::envelope::PaginationEnvelope;
use crate::error::ApiError;
use crate::http::Answer;
use crate::http::HttpClient;
use crate::server::McpServer;
use crate::xref::{CrossReferences, XrefKey};
use crate::{cursor, schemars};

/// The upstream of [`TestServer`]: `GET /items/{n}` and `GET /items?q=&offset=&limit=`.
#[derive(Debug, Clone)]
pub(crate) struct ItemsClient {
    http: HttpClient,
}

/// The items upstream: 10 requests/s and 10 in flight (the defaults), `GET /items/1` as
/// its health check.
static ITEMS: Upstream = Upstream {
    about: "items of the test server",
    health: HealthCheck {
        path: "items/1",
        query: &[],
    },
    ..Upstream::new("Items", "ITEMS", "http://127.0.0.1:9")
};

impl LifeSciencesClient for ItemsClient {
    const UPSTREAM: &'static Upstream = &ITEMS;

    fn new(http: HttpClient) -> Result<Self, ConfigError> {
        Ok(Self { http })
    }
}

/// An upstream item.
#[derive(Debug, Deserialize)]
struct UpstreamItem {
    number: u64,
    name: Option<String>,
    #[serde(default)]
    uniprot: Vec<String>,
}

/// An upstream search answer.
#[derive(Debug, Deserialize)]
struct UpstreamSearch {
    total: Option<u64>,
    items: Vec<UpstreamItem>,
}

// `number` is required: a wrong shape fails to decode, so the default check is enough.
impl Answer for UpstreamItem {}
impl Answer for UpstreamSearch {}

impl ItemsClient {
    async fn item(&self, number: u64) -> Result<Option<UpstreamItem>, ApiError> {
        match self.http.get_json(&format!("items/{number}"), &[]).await {
            Ok(item) => Ok(Some(item)),
            Err(e) if e.upstream_status() == Some(404) => Ok(None),
            Err(e) => Err(e),
        }
    }

    async fn search(&self, q: &str, offset: u64, limit: u32) -> Result<UpstreamSearch, ApiError> {
        let (offset, limit) = (offset.to_string(), limit.to_string());
        self.http
            .get_json("items", &[("q", q), ("offset", &offset), ("limit", &limit)])
            .await
    }
}

/// An item as the tools return it.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub(super) struct Item {
    /// The item's CURIE, e.g. `ITEM:42`.
    pub id: String,
    /// Its name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// The same item elsewhere.
    pub cross_references: CrossReferences,
}

impl From<UpstreamItem> for Item {
    fn from(u: UpstreamItem) -> Self {
        let mut xrefs = CrossReferences::new();
        xrefs.extend(XrefKey::Uniprot, &u.uniprot);
        Self {
            id: format!("ITEM:{}", u.number),
            name: u.name,
            cross_references: xrefs,
        }
    }
}

/// Arguments of `items_get_item`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(super) struct GetItemArgs {
    /// The item's CURIE, e.g. `ITEM:42`.
    pub item_id: String,
}

/// Arguments of `items_search`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(super) struct SearchArgs {
    /// Words to search for (at least 2 characters), e.g. `kinase`.
    pub query: String,
    /// Results per page, 1–100 (default 10).
    #[schemars(extend("default" = 10))]
    #[serde(default, deserialize_with = "lenient::opt_u32")]
    #[schemars(range(min = 1, max = 100))]
    pub page_size: Option<u32>,
    /// The `pagination.cursor` of the previous page.
    #[serde(default)]
    pub cursor: Option<String>,
}

/// A small server over a mock upstream, used by core's tests of the CLI and transports.
#[derive(Debug, Clone)]
pub struct TestServer {
    items: Arc<ItemsClient>,
}

impl TestServer {
    /// A server whose upstream is the mock at `base_url`.
    pub fn for_mock(base_url: &str) -> Self {
        Self::from_env(&mock_env(&[("ITEMS_API_URL", base_url)])).expect("test server")
    }
}

fn parse_item_id(raw: &str) -> Result<u64, ApiError> {
    let trimmed = raw.trim();
    if let Some(n) = trimmed.strip_prefix("ITEM:").and_then(|n| n.parse().ok()) {
        return Ok(n);
    }
    if let Some(n) = trimmed
        .strip_prefix("ITEM")
        .and_then(|n| n.parse::<u64>().ok())
    {
        return Err(ApiError::unresolved(
            format!("'{raw}' is not an item CURIE."),
            format!("Use format 'ITEM:{n}'"),
            raw,
        ));
    }
    Err(ApiError::unresolved(
        format!("'{raw}' is not an item identifier."),
        "Find the item with items_search, then pass its id (e.g. 'ITEM:42').",
        raw,
    ))
}

impl TestServer {
    /// Fetch one item by CURIE. Example: `{"item_id": "ITEM:42"}`.
    #[tool(
        title = "Get an item",
        annotations(read_only_hint = true, idempotent_hint = true, open_world_hint = true)
    )]
    async fn items_get_item(
        &self,
        Parameters(args): Parameters<GetItemArgs>,
    ) -> Result<Json<Item>, ApiError> {
        let args = args?;
        let number = parse_item_id(&args.item_id)?;
        match self.items.item(number).await? {
            Some(item) => Ok(Json(item.into())),
            None => Err(ApiError::not_found(
                format!("Items has no item '{}'.", args.item_id),
                "Check the ID, or find the item with items_search.",
                args.item_id,
            )),
        }
    }

    /// Search items by words, best first, a page at a time. Example: `{"query": "kinase"}`.
    #[tool(
        title = "Search items",
        annotations(read_only_hint = true, idempotent_hint = true, open_world_hint = true)
    )]
    async fn items_search(
        &self,
        Parameters(args): Parameters<SearchArgs>,
    ) -> Result<Json<PaginationEnvelope<Item>>, ApiError> {
        let args = args?;
        let query = SearchQuery::parse(&args.query)?;
        let page_size = in_range("page_size", args.page_size, 1, 100, 10)?;
        let scope = format!("items_search|{}", query.as_str().to_lowercase());
        let offset = match &args.cursor {
            Some(c) => cursor::decode::<u64>(c, &scope)?,
            None => 0,
        };
        let found = self.items.search(query.as_str(), offset, page_size).await?;
        let has_more = found
            .total
            .map_or(found.items.len() == page_size as usize, |total| {
                // A cursor can be forged: never let arithmetic on it overflow.
                offset.saturating_add(found.items.len() as u64) < total
            });
        let items = found.items.into_iter().map(Item::from).collect();
        Ok(Json(PaginationEnvelope::from_offset(
            items,
            &scope,
            offset,
            page_size,
            found.total,
            has_more,
        )))
    }
}

impl McpServer for TestServer {
    const NAME: &'static str = "items-mcp";
    const TITLE: &'static str = "Items (test server)";
    const VERSION: &'static str = env!("CARGO_PKG_VERSION");
    const INSTRUCTIONS: &'static str = "Items test server.\n\
        1. items_search finds items by words and returns their CURIEs.\n\
        2. items_get_item fetches one item by CURIE, with cross-references.";

    fn from_env(env: &Env) -> Result<Self, ConfigError> {
        Ok(Self {
            items: Arc::new(env.client()?),
        })
    }

    crate::tools![items_get_item, items_search as paged(items, page_size)];
}
