//! `string_get_network_image_url`: names or CURIEs → a URL STRING renders as a network
//! image (PNG, SVG or high-resolution PNG). Built locally: no upstream request. What an
//! image may show (identifiers, species, added partners, link size) is `crate::image`'s,
//! shared with `string_get_network_image`.

use lifesciences_core::schemars::{self, JsonSchema};
use lifesciences_core::{ApiError, Parameters, in_range, lenient};
use rmcp::{Json, tool};
use serde::{Deserialize, Serialize};

use crate::client::{ImageFormat, ImageRequest, NetworkFlavor, NetworkType};
use crate::ids::SpeciesArg;
use crate::image::{MAX_ADD_NODES, MAX_QUERY_BYTES, image_species, normalise, query_bytes};
use crate::score::{RequiredScoreArg, required_score};
use crate::server::StringServer;

/// Arguments of `string_get_network_image_url`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct NetworkImageArgs {
    /// 1–500 names or STRING CURIEs, in a link of at most 6 KB (about 260 CURIEs).
    #[serde(deserialize_with = "lifesciences_core::args::one_or_many")]
    #[schemars(with = "Vec<String>")]
    #[schemars(length(min = 1, max = 500))]
    pub identifiers: Vec<String>,
    /// NCBI taxon or common name; default: the CURIEs' taxon, else 9606.
    #[serde(default)]
    pub species: Option<SpeciesArg>,
    /// `png` (default), `svg`, or `highres_png`.
    #[serde(default)]
    #[schemars(extend("default" = "png"))]
    pub format: Option<ImageFormat>,
    /// Minimum edge score, 0–1000 (0.7 reads as 700).
    #[serde(default)]
    #[schemars(extend("default" = 400))]
    pub required_score: Option<RequiredScoreArg>,
    /// Partners STRING adds, 0–100.
    #[serde(default, deserialize_with = "lenient::opt_u32")]
    #[schemars(range(min = 0, max = 100))]
    pub add_nodes: Option<u32>,
    /// `evidence`, `confidence` or `actions`.
    #[serde(default)]
    #[schemars(extend("default" = "evidence"))]
    pub network_flavor: Option<NetworkFlavor>,
    /// `functional` (default) or `physical`.
    #[serde(default)]
    #[schemars(extend("default" = "functional"))]
    pub network_type: Option<NetworkType>,
}

/// A link to a network image.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub(crate) struct NetworkImage {
    /// The URL; opening it makes STRING render the image (it identifies this server as
    /// the caller).
    pub url: String,
    /// `png`, `svg` or `highres_png`.
    pub format: String,
    /// The identifiers in the image, as sent to STRING: CURIEs without their `STRING:`
    /// prefix, blanks and repeats dropped (bounded by the link's size cap).
    pub identifiers: Vec<String>,
}

/// `INVALID_INPUT` for a link over [`MAX_QUERY_BYTES`]: `fit` of the `count` identifiers
/// fit (the first ones). Echoes the count, not the list.
fn link_too_long(count: usize, fit: usize, bytes: usize) -> ApiError {
    let hint = if fit == 0 {
        "The first identifier alone is too long for a link: pass STRING CURIEs such as \
         'STRING:9606.ENSP00000269305' or names such as 'TP53'."
            .to_owned()
    } else {
        format!(
            "Pass at most {fit} of these identifiers (the first {fit} fit): split the set into \
             several images, or keep the proteins of interest (STRING's images are hard to \
             read beyond a few hundred nodes)."
        )
    };
    ApiError::invalid_input(
        format!(
            "A network image link for these {count} identifiers would carry {bytes} bytes of \
             query; links are kept under {MAX_QUERY_BYTES} bytes so that browsers and STRING \
             accept them, and {fit} of these identifiers fit."
        ),
        hint,
        format!("{count} identifiers"),
    )
}

impl StringServer {
    /// The URL of `request`, refused when its query is over [`MAX_QUERY_BYTES`] with how
    /// many of its identifiers would fit (found by bisection: lengths grow with the count).
    fn bounded_image_url(&self, request: &ImageRequest<'_>) -> Result<String, ApiError> {
        let url = self.string.network_image_url(request)?;
        let bytes = query_bytes(&url);
        if bytes <= MAX_QUERY_BYTES {
            return Ok(url);
        }
        let (mut fits, mut too_many) = (0, request.identifiers.len());
        while too_many - fits > 1 {
            let mid = fits + (too_many - fits) / 2;
            let shorter = ImageRequest {
                identifiers: &request.identifiers[..mid],
                ..request.clone()
            };
            if query_bytes(&self.string.network_image_url(&shorter)?) <= MAX_QUERY_BYTES {
                fits = mid;
            } else {
                too_many = mid;
            }
        }
        Err(link_too_long(request.identifiers.len(), fits, bytes))
    }
}

impl StringServer {
    /// Deprecated: string_get_network_image gives this URL with the picture itself. A
    /// URL STRING renders as the network image of the proteins; nothing is fetched.
    /// Example: `{"identifiers": ["STRING:9606.ENSP00000269305", "MDM2"], "format": "svg"}`.
    #[tool(
        title = "Get a STRING network image URL",
        annotations(read_only_hint = true, idempotent_hint = true, open_world_hint = true)
    )]
    pub(crate) async fn string_get_network_image_url(
        &self,
        Parameters(args): Parameters<NetworkImageArgs>,
    ) -> Result<Json<NetworkImage>, ApiError> {
        let args = args?;
        let identifiers = normalise(&args.identifiers)?;
        let species = image_species(args.species.as_ref(), &identifiers)?;
        let required_score = required_score(args.required_score.as_ref())?;
        let add_nodes = args
            .add_nodes
            .map(|n| in_range("add_nodes", Some(n), 0, MAX_ADD_NODES, 0))
            .transpose()?;
        let format = args.format.unwrap_or_default();
        let url = self.bounded_image_url(&ImageRequest {
            format,
            identifiers: &identifiers,
            species: &species,
            required_score,
            add_nodes,
            flavor: args.network_flavor,
            network_type: args.network_type,
            enrichment_category: None,
        })?;
        Ok(Json(NetworkImage {
            url,
            format: format.name().to_owned(),
            identifiers,
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use lifesciences_core::ErrorCode;

    #[test]
    fn a_link_too_long_says_how_many_fit_and_echoes_the_count() {
        let e = link_too_long(300, 264, 6_956).to_envelope().error;
        assert_eq!(e.code, ErrorCode::InvalidInput);
        assert!(e.message.contains("6956 bytes"), "{}", e.message);
        assert!(
            e.message.contains("264 of these identifiers fit"),
            "{}",
            e.message
        );
        assert!(
            e.recovery_hint.starts_with("Pass at most 264"),
            "{}",
            e.recovery_hint
        );
        assert_eq!(e.invalid_input.as_deref(), Some("300 identifiers"));
        let e = link_too_long(1, 0, 9_000).to_envelope().error;
        assert!(
            e.recovery_hint.contains("first identifier alone"),
            "{}",
            e.recovery_hint
        );
    }

    #[test]
    fn a_single_string_is_split_on_commas() {
        let args: NetworkImageArgs =
            serde_json::from_value(serde_json::json!({"identifiers": "TP53, MDM2"})).unwrap();
        assert_eq!(normalise(&args.identifiers).unwrap(), ["TP53", "MDM2"]);
    }
}
