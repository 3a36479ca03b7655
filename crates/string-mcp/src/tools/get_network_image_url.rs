//! `string_get_network_image_url`: names or CURIEs → a URL STRING renders as a network
//! image (PNG, SVG or high-resolution PNG). Built locally: no upstream request.

use lifesciences_core::schemars::{self, JsonSchema};
use lifesciences_core::{ApiError, Parameters, in_range, lenient};
use rmcp::{Json, tool};
use serde::{Deserialize, Serialize};

use crate::client::{ImageFormat, ImageRequest, NetworkFlavor, NetworkType};
use crate::ids::{Species, SpeciesArg};
use crate::score::{RequiredScoreArg, required_score};
use crate::server::StringServer;
use crate::set;

/// Most identifiers one image may show.
pub(crate) const MAX_IDENTIFIERS: usize = 500;
/// Most bytes of query string (identifiers, species, options, `caller_identity`) an image
/// link may carry. Browsers, proxies and web servers refuse long request lines (8 KiB is a
/// common cap), and maintained STRING clients POST long lists, which a link cannot do:
/// 500 STRING IDs would make an 11.6 KB link.
pub(crate) const MAX_QUERY_BYTES: usize = 6 * 1024;
/// Most extra partners an image may add around the query proteins.
pub(crate) const MAX_ADD_NODES: u32 = 100;

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
    /// Partners STRING adds, 0–100 (default 10 for one protein, 0 for several).
    #[serde(default, deserialize_with = "lenient::opt_u32")]
    #[schemars(range(min = 0, max = 100))]
    pub add_nodes: Option<u32>,
    /// `evidence` (a colour per channel), `confidence` or `actions`.
    #[serde(default)]
    #[schemars(extend("default" = "evidence"))]
    pub network_flavor: Option<NetworkFlavor>,
    /// `functional` (default) or `physical` (binding or co-complex only).
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

/// The identifiers of an image: 1–[`MAX_IDENTIFIERS`], normalised.
pub(crate) fn normalise(raw: &[String]) -> Result<Vec<String>, ApiError> {
    set::normalise(
        raw,
        MAX_IDENTIFIERS,
        "STRING's images are unreadable beyond a few hundred nodes",
    )
}

/// The species of the image (see [`set::set_species`]).
pub(crate) fn image_species(
    arg: Option<&SpeciesArg>,
    identifiers: &[String],
) -> Result<Species, ApiError> {
    set::set_species(arg, identifiers, "one network image")
}

/// The length of a URL's query string.
pub(crate) fn query_bytes(url: &str) -> usize {
    url.split_once('?').map_or(0, |(_, query)| query.len())
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
    /// Example: `{"identifiers": ["STRING:9606.ENSP00000269305", "MDM2"], "format": "svg"}`
    /// → `{"url": "https://string-db.org/api/svg/network?…", …}`.
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

    fn list(items: &[&str]) -> Vec<String> {
        items.iter().map(|s| (*s).to_owned()).collect()
    }

    #[test]
    fn identifiers_are_trimmed_split_deduplicated_and_unprefixed() {
        let got = normalise(&list(&[
            " STRING:9606.ENSP00000269305 ",
            "MDM2\r\nATM",
            "",
            "MDM2",
        ]))
        .unwrap();
        assert_eq!(got, ["9606.ENSP00000269305", "MDM2", "ATM"]);
    }

    #[test]
    fn the_curie_prefix_is_stripped_in_any_case() {
        let got = normalise(&list(&[
            "string:9606.ENSP00000269305",
            "String:9606.ENSP00000258149",
            " STRING:9606.ENSP00000278616",
            "sTrInG:9606.ENSP00000269305",
        ]))
        .unwrap();
        assert_eq!(
            got,
            [
                "9606.ENSP00000269305",
                "9606.ENSP00000258149",
                "9606.ENSP00000278616"
            ]
        );
        // The species follows the IDs once the prefix is gone.
        let fly = normalise(&list(&["string:7227.FBpp0074940", "AttD"])).unwrap();
        assert_eq!(image_species(None, &fly).unwrap(), Species::Taxon(7227));
    }

    #[test]
    fn the_query_length_is_what_follows_the_question_mark() {
        assert_eq!(query_bytes("https://h/api/image/network?a=1&b=22"), 8);
        assert_eq!(query_bytes("https://h/api/image/network"), 0);
    }

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
    fn empty_and_oversized_lists_are_invalid_input() {
        let e = normalise(&list(&["", "  "])).unwrap_err();
        assert_eq!(e.code(), ErrorCode::InvalidInput);
        let many: Vec<String> = (0..=MAX_IDENTIFIERS).map(|i| format!("P{i}")).collect();
        let e = normalise(&many).unwrap_err().to_envelope().error;
        assert_eq!(e.code, ErrorCode::InvalidInput);
        assert!(e.message.contains("501 proteins"), "{}", e.message);
        assert_eq!(normalise(&many[..MAX_IDENTIFIERS]).unwrap().len(), 500);
    }

    #[test]
    fn species_follows_the_ids_unless_given_and_never_mixes() {
        let human = list(&["9606.ENSP00000269305", "MDM2"]);
        assert_eq!(image_species(None, &human).unwrap(), Species::HUMAN);
        assert_eq!(
            image_species(None, &list(&["edin"])).unwrap(),
            Species::HUMAN
        );
        let fly = list(&["7227.FBpp0074940", "7227.FBpp0082908"]);
        assert_eq!(image_species(None, &fly).unwrap(), Species::Taxon(7227));
        let given = SpeciesArg("7227".into());
        assert_eq!(
            image_species(Some(&given), &list(&["edin"])).unwrap(),
            Species::Taxon(7227)
        );
        let e = image_species(Some(&given), &human).unwrap_err();
        assert_eq!(e.code(), ErrorCode::InvalidInput);
        let mixed = list(&["9606.ENSP00000269305", "7227.FBpp0074940"]);
        let e = image_species(None, &mixed).unwrap_err().to_envelope().error;
        assert!(e.message.contains("mix species"), "{}", e.message);
    }

    #[test]
    fn a_single_string_is_split_on_commas() {
        let args: NetworkImageArgs =
            serde_json::from_value(serde_json::json!({"identifiers": "TP53, MDM2"})).unwrap();
        assert_eq!(normalise(&args.identifiers).unwrap(), ["TP53", "MDM2"]);
    }
}
