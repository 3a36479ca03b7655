//! The IGVF Catalog MCP server: the tool router (one router per tool file, added
//! together), the resources, and the `McpServer` implementation.

use std::sync::Arc;

use lifesciences_core::rmcp::handler::server::router::tool::ToolRouter;
use lifesciences_core::rmcp::model::{
    JsonObject, ListResourcesResult, PaginatedRequestParams, ReadResourceRequestParams,
    ReadResourceResponse, ReadResourceResult, Resource, ResourceContents, ServerConfig, Tool,
};
use lifesciences_core::rmcp::service::RequestContext;
use lifesciences_core::rmcp::{ErrorData, RoleServer, ServerHandler};
use lifesciences_core::{ConfigError, HttpClient, McpServer, SourceConfig, server_config};
use rmcp::tool_handler;
use serde_json::Value;

use crate::client::{IgvfClient, source_configs};
use crate::resources::{RESOURCES, read};

/// The IGVF Catalog knowledge graph MCP server.
#[derive(Clone)]
pub struct IgvfServer {
    client: Arc<IgvfClient>,
    tool_router: ToolRouter<Self>,
}

impl std::fmt::Debug for IgvfServer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("IgvfServer")
            .field("client", &self.client)
            .finish_non_exhaustive()
    }
}

impl IgvfServer {
    /// A server whose upstream is `config` (tests point it at a mock).
    pub fn new(config: SourceConfig) -> Result<Self, ConfigError> {
        Ok(Self {
            client: Arc::new(IgvfClient::new(HttpClient::new(config)?)),
            tool_router: Self::prepared_router(),
        })
    }

    /// The router as served: core's `prepare_tools` (cancellation, panics, output schemas
    /// without `null`), then the schemas compacted for the agent's context window.
    fn prepared_router() -> ToolRouter<Self> {
        let mut router = lifesciences_core::prepare_tools(Self::router());
        for route in router.map.values_mut() {
            route.attr.input_schema = Arc::new(compact_schema(&route.attr.input_schema));
            if let Some(schema) = &route.attr.output_schema {
                route.attr.output_schema = Some(Arc::new(compact_schema(schema)));
            }
        }
        router
    }

    fn router() -> ToolRouter<Self> {
        Self::get_entity_router()
            + Self::search_region_router()
            + Self::find_associations_router()
            + Self::find_ld_router()
            + Self::resolve_id_router()
            + Self::list_sources_router()
    }

    /// The catalog client.
    pub(crate) fn client(&self) -> &IgvfClient {
        &self.client
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for IgvfServer {
    fn get_info(&self) -> ServerConfig {
        server_config::<Self>(true)
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        Ok(ListResourcesResult::with_all_items(
            RESOURCES
                .iter()
                .map(|r| {
                    Resource::new(r.uri, r.name)
                        .with_title(r.title)
                        .with_description(r.description)
                        .with_mime_type(r.mime_type)
                })
                .collect(),
        ))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        let uri = request.uri.as_str();
        let spec = RESOURCES.iter().find(|r| r.uri == uri);
        match (spec, read(uri)) {
            (Some(spec), Some(text)) => Ok(ReadResourceResult::new(vec![
                ResourceContents::text(text, uri).with_mime_type(spec.mime_type),
            ])
            .into()),
            _ => Err(ErrorData::resource_not_found(
                format!(
                    "unknown resource {uri}; this server has {}",
                    RESOURCES
                        .iter()
                        .map(|r| r.uri)
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
                Some(serde_json::json!({ "uri": uri })),
            )),
        }
    }
}

impl McpServer for IgvfServer {
    const NAME: &'static str = "igvf-mcp";
    const TITLE: &'static str = "IGVF Catalog knowledge graph";
    const VERSION: &'static str = env!("CARGO_PKG_VERSION");
    const INSTRUCTIONS: &'static str = "1. Start from anything: igvf_get_entity or igvf_resolve_id detect any ID or gene symbol (rsID, SPDI, HGVS, CA…, ENSG, HGNC, MONDO…); igvf_search_region takes a locus like chr17:41.2M-41.3M (GRCh38/GRCm39, 0-based half-open, chr-prefixed).\n\
        2. Use the returned ids with igvf_find_associations (regulatory, genetic, physical, functional, pharmacological, all) and igvf_find_ld.\n\
        3. igvf_list_sources gives valid filter values; resources igvf://guide/identifiers and igvf://examples/queries show every form.";

    fn from_env() -> Result<Self, ConfigError> {
        let mut configs = source_configs()?;
        let config = match configs.pop() {
            Some(c) => c,
            None => crate::client::catalog_config()?,
        };
        Self::new(config)
    }

    fn tools() -> Vec<Tool> {
        Self::prepared_router().list_all()
    }
}

/// A JSON Schema with what an agent does not need removed: `$schema`, numeric `format`s
/// (`uint32`, `double`), `minimum: 0` of unsigned integers, `default: null`, `null` as
/// an alternative type of optional arguments, the
/// descriptions of shared `$defs` (the fields that use them have their own), and enums
/// written as `oneOf` of documented constants, which become a plain `enum` (the argument's
/// own description lists what each value means). Property names are never touched.
fn compact_schema(schema: &JsonObject) -> JsonObject {
    let mut value = Value::Object(schema.clone());
    compact(&mut value);
    match value {
        Value::Object(map) => map,
        _ => schema.clone(),
    }
}

fn compact(value: &mut Value) {
    match value {
        Value::Object(map) => {
            map.remove("$schema");
            map.remove("format");
            if map.get("default").is_some_and(Value::is_null) {
                map.remove("default");
            }
            if map.get("minimum").and_then(Value::as_u64) == Some(0) {
                map.remove("minimum");
            }
            // Optional arguments are simply omitted: `null` as an alternative type only
            // adds noise (an explicit null is still accepted).
            if let Some(Value::Array(types)) = map.get_mut("type") {
                types.retain(|t| t != "null");
                if types.len() == 1 {
                    let only = types.remove(0);
                    map.insert("type".to_owned(), only);
                }
            }
            let single = match map.get_mut("anyOf") {
                Some(Value::Array(options)) => {
                    options.retain(|o| o.get("type").and_then(Value::as_str) != Some("null"));
                    (options.len() == 1).then(|| options.remove(0))
                }
                _ => None,
            };
            if let Some(Value::Object(only)) = single {
                map.remove("anyOf");
                for (k, v) in only {
                    map.entry(k).or_insert(v);
                }
            }
            let constants: Option<Vec<Value>> = map
                .get("oneOf")
                .and_then(Value::as_array)
                .and_then(|options| options.iter().map(|o| o.get("const").cloned()).collect());
            if let Some(values) = constants {
                map.remove("oneOf");
                map.insert("type".to_owned(), Value::String("string".to_owned()));
                map.insert("enum".to_owned(), Value::Array(values));
            }
            for (key, child) in map.iter_mut() {
                let is_defs = key == "$defs";
                if matches!(key.as_str(), "properties" | "$defs") {
                    // A map from names to schemas: compact each schema, keep the names.
                    if let Value::Object(named) = child {
                        for schema in named.values_mut() {
                            // A shared type's own description repeats the description of
                            // the argument or field that refers to it.
                            if is_defs && let Value::Object(def) = schema {
                                def.remove("description");
                            }
                            compact(schema);
                        }
                    }
                } else {
                    compact(child);
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(compact),
        // Doc comments' line breaks are layout, not meaning.
        Value::String(text) if text.contains('\n') => *text = text.replace('\n', " "),
        _ => {}
    }
}
