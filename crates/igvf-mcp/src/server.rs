//! The IGVF Catalog MCP server: the tool router (one router per tool file, added
//! together), the resources, and the `McpServer` implementation.

use std::sync::Arc;

use lifesciences_core::rmcp::handler::server::router::tool::ToolRouter;
use lifesciences_core::rmcp::model::{
    ListResourcesResult, PaginatedRequestParams, ReadResourceRequestParams, ReadResourceResponse,
    ReadResourceResult, Resource, ResourceContents, ServerConfig, Tool,
};
use lifesciences_core::rmcp::service::RequestContext;
use lifesciences_core::rmcp::{ErrorData, RoleServer, ServerHandler};
use lifesciences_core::{ConfigError, HttpClient, McpServer, SourceConfig, server_config};
use rmcp::tool_handler;

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
            // Cancellation, panics and exact output schemas: see core's `prepare_tools`.
            tool_router: lifesciences_core::prepare_tools(Self::router()),
        })
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
    const INSTRUCTIONS: &'static str = "IGVF Catalog knowledge graph: genes, variants, regulatory elements, diseases, drugs (GRCh38/GRCm39, 0-based coordinates).\n\
        1. Start from anything: igvf_get_entity or igvf_resolve_id detect the type of any ID or gene symbol (rsID, SPDI, HGVS, CA…, ENSG, HGNC, MONDO…); igvf_search_region takes a locus like chr17:41.2M-41.3M.\n\
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
        lifesciences_core::prepare_tools(Self::router()).list_all()
    }
}
