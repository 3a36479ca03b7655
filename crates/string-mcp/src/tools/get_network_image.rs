//! `string_get_network_image`: the picture of a set's network, or STRING's enrichment
//! figure for one category, fetched and returned as MCP content (a PNG image, or SVG as
//! an embedded resource) with a short text saying what it shows and its URL, so clients
//! that do not fetch remote images still show it. One upstream request: the picture,
//! POSTed (no link length limit), cached. A picture over [`PICTURE_MAX_BYTES`] is not
//! embedded: the text gives the URL and says why. What a picture may show (identifiers,
//! species, added partners, link size) is `crate::image`'s, shared with
//! `string_get_network_image_url`.
//!
//! The result is content blocks only, with no structured content and no output schema:
//! clients that get both (Claude Code, VS Code) pass the model only the structured
//! content, and the picture would never reach it.

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use lifesciences_core::rmcp::model::{CallToolResult, ContentBlock, ResourceContents};
use lifesciences_core::schemars::{self, JsonSchema};
use lifesciences_core::{ApiError, Parameters, in_range, lenient};
use rmcp::tool;
use serde::Deserialize;

use crate::category::parse_categories;
use crate::client::{ImageFormat, ImageRequest, NetworkFlavor, NetworkType, Picture};
use crate::ids::SpeciesArg;
use crate::image::{MAX_ADD_NODES, MAX_QUERY_BYTES, image_species, normalise, query_bytes};
use crate::score::{RequiredScoreArg, required_score};
use crate::server::StringServer;

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

/// Arguments of `string_get_network_image`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct NetworkPictureArgs {
    /// 1–500 names, UniProt accessions or CURIEs.
    #[serde(deserialize_with = "lifesciences_core::args::one_or_many")]
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

impl StringServer {
    /// The picture of a set's network, or STRING's enrichment figure for one category, as
    /// an image in the result (PNG; SVG as an embedded resource). Pictures over 768 KiB
    /// come as the URL only. Example:
    /// `{"identifiers": ["POSTN", "CXCL10", "IFNA1"], "figure": "enrichment", "category":
    /// "KEGG"}`.
    #[tool(
        title = "Get a STRING network picture",
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
        let (picture, bytes) = match self.string.picture(&request, PICTURE_MAX_BYTES).await? {
            Picture::Drawn(body) => {
                let size = body.len() as u64;
                (Some(content(&body, format, url.as_deref())), Some(size))
            }
            Picture::TooLarge => {
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
        };
        if figure == Figure::Enrichment && picture.is_some() {
            notes.push(
                "STRING draws the figure only when the set has enriched terms in the \
                 category; string_get_enrichment lists them."
                    .to_owned(),
            );
        }
        let what = match enrichment_category {
            Some(category) => format!("STRING's {category} enrichment figure"),
            None => "STRING's interaction network".to_owned(),
        };
        let shown: Vec<&str> = identifiers.iter().take(10).map(String::as_str).collect();
        let more = identifiers.len().saturating_sub(shown.len());
        let mut text = format!(
            "{what} of {} {} ({}{}; taxon {species}), {}",
            identifiers.len(),
            if identifiers.len() == 1 {
                "protein"
            } else {
                "proteins"
            },
            shown.join(", "),
            if more > 0 {
                format!(" and {more} more")
            } else {
                String::new()
            },
            format.name(),
        );
        match bytes {
            Some(size) => text.push_str(&format!(", {size} bytes, in this result.")),
            None => text.push_str(", not in this result."),
        }
        if let Some(url) = &url {
            text.push_str(&format!(" Link: {url}"));
        }
        if !notes.is_empty() {
            text.push_str(&format!(" Note: {}", notes.join(" ")));
        }
        let mut content: Vec<ContentBlock> = picture.into_iter().collect();
        content.push(ContentBlock::text(text));
        Ok(CallToolResult::success(content))
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
