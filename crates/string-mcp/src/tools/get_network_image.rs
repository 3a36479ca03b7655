//! `string_get_network_image`: the picture of a set's network, or STRING's enrichment
//! figure for one category, fetched and returned as MCP content (a PNG image, or SVG as
//! an embedded resource) with its URL, so clients that do not fetch remote images still
//! show it. One upstream request: the picture, POSTed (no link length limit), cached.
//! A picture over [`PICTURE_MAX_BYTES`] is not embedded: the result gives the URL and
//! says why.

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use lifesciences_core::rmcp::model::{CallToolResult, ContentBlock, ResourceContents};
use lifesciences_core::schemars::{self, JsonSchema};
use lifesciences_core::{ApiError, Parameters, UpstreamFailure, in_range, lenient};
use rmcp::{tool, tool_router};
use serde::{Deserialize, Serialize};

use crate::category::parse_categories;
use crate::client::{ImageFormat, ImageRequest, NetworkFlavor, NetworkType};
use crate::ids::SpeciesArg;
use crate::score::{RequiredScoreArg, required_score};
use crate::server::StringServer;
use crate::set;
use crate::tools::get_network_image_url::{
    MAX_ADD_NODES, MAX_QUERY_BYTES, image_species, normalise, query_bytes,
};

/// The largest picture embedded in a result: base64 makes it a third larger, so about
/// 1 MiB on the wire, which MCP clients accept in one message.
pub(crate) const PICTURE_MAX_BYTES: u64 = 768 * 1024;

/// What the picture shows.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub(crate) enum Figure {
    /// The interaction network of the set.
    #[default]
    Network,
    /// STRING's figure of the set's enriched terms in one category.
    Enrichment,
}

impl Figure {
    fn name(self) -> &'static str {
        match self {
            Self::Network => "network",
            Self::Enrichment => "enrichment",
        }
    }
}

/// Arguments of `string_get_network_image`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct NetworkPictureArgs {
    /// 1–500 names, UniProt accessions or CURIEs.
    #[serde(deserialize_with = "set::one_or_many")]
    #[schemars(with = "Vec<String>")]
    #[schemars(length(min = 1, max = 500))]
    pub identifiers: Vec<String>,
    /// NCBI taxon or common name; default: the CURIEs' taxon, else 9606.
    #[serde(default)]
    pub species: Option<SpeciesArg>,
    /// `network`, or `enrichment` (the set's enriched terms of one category).
    #[serde(default)]
    #[schemars(extend("default" = "network"))]
    pub figure: Option<Figure>,
    /// Enrichment category, e.g. KEGG.
    #[serde(default)]
    #[schemars(extend("default" = "Process"))]
    pub category: Option<String>,
    /// `png`, `svg` or `highres_png`.
    #[serde(default)]
    #[schemars(extend("default" = "png"))]
    pub format: Option<ImageFormat>,
    /// Network: minimum edge score, 0–1000.
    #[serde(default)]
    #[schemars(extend("default" = 400))]
    pub required_score: Option<RequiredScoreArg>,
    /// Network: partners STRING adds, 0–100.
    #[serde(default, deserialize_with = "lenient::opt_u32")]
    #[schemars(range(min = 0, max = 100))]
    pub add_nodes: Option<u32>,
    /// Network: `evidence`, `confidence` or `actions`.
    #[serde(default)]
    #[schemars(extend("default" = "evidence"))]
    pub network_flavor: Option<NetworkFlavor>,
    /// Network: `functional` or `physical`.
    #[serde(default)]
    #[schemars(extend("default" = "functional"))]
    pub network_type: Option<NetworkType>,
}

/// A picture of a set, and where STRING draws it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub(crate) struct NetworkPicture {
    /// `network` or `enrichment`.
    pub figure: String,
    /// The enrichment figure's category.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub category: Option<String>,
    /// `png`, `svg` or `highres_png`.
    pub format: String,
    /// True when the picture is in this result's content (a PNG image, or SVG as an
    /// embedded resource).
    pub embedded: bool,
    /// The picture's size in bytes, when it was received.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bytes: Option<u64>,
    /// A link STRING renders as the same picture; absent when the set is too long for a
    /// link.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    /// What the result leaves out, and why.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// The output schema: the structured half of the result.
fn output_schema() -> std::sync::Arc<rmcp::model::JsonObject> {
    rmcp::handler::server::tool::schema_for_output::<NetworkPicture>()
}

#[tool_router(router = get_network_image_router, vis = "pub(crate)")]
impl StringServer {
    /// The picture of a set's network, or STRING's enrichment figure for one category, as
    /// an image in the result (PNG; SVG as an embedded resource) with its URL. Pictures
    /// over 768 KiB come as the URL only. Example: `{"identifiers": ["POSTN", "CXCL10",
    /// "IFNA1"], "figure": "enrichment", "category": "KEGG"}`.
    #[tool(
        title = "Get a STRING network picture",
        output_schema = output_schema(),
        annotations(read_only_hint = true, idempotent_hint = true, open_world_hint = true)
    )]
    pub(crate) async fn string_get_network_image(
        &self,
        Parameters(args): Parameters<NetworkPictureArgs>,
    ) -> Result<CallToolResult, ApiError> {
        let args = args?;
        let identifiers = normalise(&args.identifiers)?;
        let species = image_species(args.species.as_ref(), &identifiers)?;
        let figure = args.figure.unwrap_or_default();
        let format = args.format.unwrap_or_default();
        let enrichment_category = match figure {
            Figure::Network => {
                if let Some(category) = &args.category {
                    return Err(ApiError::invalid_input(
                        "Argument 'category' applies to the enrichment figure only.",
                        "Pass \"figure\": \"enrichment\" with it, or omit 'category'.",
                        category.as_str(),
                    ));
                }
                None
            }
            Figure::Enrichment => {
                let network_options = [
                    ("required_score", args.required_score.is_some()),
                    ("add_nodes", args.add_nodes.is_some()),
                    ("network_flavor", args.network_flavor.is_some()),
                    ("network_type", args.network_type.is_some()),
                ];
                if let Some((name, _)) = network_options.iter().find(|(_, given)| *given) {
                    return Err(ApiError::invalid_input(
                        format!("Argument '{name}' applies to the network figure only."),
                        "Omit it for the enrichment figure, or ask for \"figure\": \"network\".",
                        *name,
                    ));
                }
                let given = args.category.clone().into_iter().collect::<Vec<_>>();
                Some(
                    parse_categories(&given)?
                        .first()
                        .copied()
                        .unwrap_or("Process"),
                )
            }
        };
        let request = ImageRequest {
            format,
            identifiers: &identifiers,
            species: &species,
            required_score: required_score(args.required_score.as_ref())?,
            add_nodes: args
                .add_nodes
                .map(|n| in_range("add_nodes", Some(n), 0, MAX_ADD_NODES, 0))
                .transpose()?,
            flavor: args.network_flavor,
            network_type: args.network_type,
            enrichment_category,
        };

        let mut notes = Vec::new();
        let url = self.string.network_image_url(&request)?;
        let url = if query_bytes(&url) <= MAX_QUERY_BYTES {
            Some(url)
        } else {
            notes.push(format!(
                "No link: these {} identifiers make a query over {MAX_QUERY_BYTES} bytes.",
                identifiers.len()
            ));
            None
        };
        let (picture, bytes) = match self.string.picture(&request, PICTURE_MAX_BYTES).await {
            Ok(body) => {
                let size = body.len() as u64;
                (Some(content(&body, format, url.as_deref())), Some(size))
            }
            Err(ApiError::Upstream {
                failure: UpstreamFailure::TooLarge { .. },
                ..
            }) => {
                notes.push(format!(
                    "The picture is over {} KiB, too large to embed{}.",
                    PICTURE_MAX_BYTES / 1024,
                    match (&url, format) {
                        (Some(_), ImageFormat::HighresPng) =>
                            ": open the URL, or ask for png, which is smaller",
                        (Some(_), _) => ": open the URL",
                        (None, _) => "; ask for fewer proteins",
                    }
                ));
                (None, None)
            }
            Err(e) => return Err(e),
        };
        if figure == Figure::Enrichment && picture.is_some() {
            notes.push(
                "STRING draws the figure only when the set has enriched terms in the \
                 category; string_get_enrichment lists them."
                    .to_owned(),
            );
        }
        let structured = NetworkPicture {
            figure: figure.name().to_owned(),
            category: enrichment_category.map(str::to_owned),
            format: format.name().to_owned(),
            embedded: picture.is_some(),
            bytes,
            url,
            note: (!notes.is_empty()).then(|| notes.join(" ")),
        };
        let value = serde_json::to_value(&structured).map_err(|e| {
            ApiError::from_failure(
                "string-mcp",
                UpstreamFailure::Transport {
                    detail: format!("cannot encode the result: {e}"),
                },
                0,
            )
        })?;
        let mut result = CallToolResult::structured(value);
        result.content.extend(picture);
        Ok(result)
    }
}

/// The picture as MCP content: PNG as an image, SVG as an embedded text resource (few
/// clients render SVG images), named by its URL when it has one.
fn content(body: &[u8], format: ImageFormat, url: Option<&str>) -> ContentBlock {
    match format {
        ImageFormat::Svg => ContentBlock::resource(
            ResourceContents::text(
                String::from_utf8_lossy(body),
                url.unwrap_or("https://string-db.org/api/svg/network"),
            )
            .with_mime_type(format.mime_type()),
        ),
        ImageFormat::Png | ImageFormat::HighresPng => {
            ContentBlock::image(STANDARD.encode(body), format.mime_type())
        }
    }
}
