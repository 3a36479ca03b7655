//! What a STRING network image may show, the same for its two tools
//! (`string_get_network_image` fetches the picture, `string_get_network_image_url` gives
//! its link): 1–[`MAX_IDENTIFIERS`] normalised identifiers of one species, at most
//! [`MAX_ADD_NODES`] added partners, and a link whose query stays under
//! [`MAX_QUERY_BYTES`].

use lifesciences_core::ApiError;

use crate::ids::{Species, SpeciesArg};
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
}
