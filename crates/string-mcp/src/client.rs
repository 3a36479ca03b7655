//! STRING's HTTP API: its description (politeness defaults, health check, the caller
//! identity), STRING's vocabulary (network types, flavors, image formats) and the requests
//! the tools make. The only module that knows STRING's URLs and query parameters.
//!
//! Look-ups of one protein are GETs (`/api/json/<method>?…`); look-ups of a set are POSTs
//! of form data (`identifiers` joined by carriage returns), so that 2,000 identifiers fit:
//! STRING takes GET and POST alike (<https://string-db.org/help/api/>). Both are pure
//! look-ups, so core caches and coalesces both. `caller_identity` rides on every request
//! as a default query parameter.

use bytes::Bytes;
use lifesciences_core::schemars::{self, JsonSchema};
use lifesciences_core::{
    ApiError, ConfigError, HealthCheck, HttpClient, Licence, LifeSciencesClient, ReleaseCheck,
    Reply, Setting, Upstream, UpstreamFailure,
};
use serde::Deserialize;

use crate::ids::{Species, StringId};
use crate::models::{
    AnnotationRow, EnrichmentRow, HomologyRow, PartnerRow, PpiEnrichmentRow, Rows, StringIdRow,
};

/// STRING: one request per second and one in flight, as STRING asks of API users;
/// `caller_identity` on every request. The default base URL is unversioned so users
/// follow STRING's current release; `STRING_API_URL=https://version-12-0.string-db.org/api`
/// pins v12.0. `json/version` is the cheapest call STRING answers, and it names the
/// release (`[{"string_version": "12.0", "stable_address": …}]`, fixture
/// `tests/fixtures/version.json`).
static STRING: Upstream = Upstream {
    about: "STRING API",
    rate_per_second: 1.0,
    max_concurrent: 1,
    cache_posts: true,
    health: HealthCheck {
        path: "json/version",
        query: &[],
    },
    release: Some(ReleaseCheck::Ask {
        path: "json/version",
        query: &[],
        pointer: "/0/string_version",
    }),
    settings: &[Setting {
        var: "STRING_CALLER_IDENTITY",
        default: "lifesciences-mcp",
        about: "sent as `caller_identity` on every STRING request, so STRING knows who is calling",
        query_param: Some("caller_identity"),
    }],
    // docs/sources/string.md, "Licence and citation".
    licence: Some(Licence {
        spdx: "CC-BY-4.0",
        url: "https://string-db.org/cgi/access?footer_active_subpage=licensing",
    }),
    cite: Some("10.1093/nar/gkae1113"),
    ..Upstream::new("STRING", "STRING", "https://string-db.org/api")
};

/// Which kind of association a STRING network holds (STRING's `network_type`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub(crate) enum NetworkType {
    /// Functional associations of any kind (STRING's default).
    #[default]
    Functional,
    /// Physical binding / co-complex associations only.
    Physical,
}

impl NetworkType {
    /// The value STRING's `network_type` takes.
    pub(crate) fn as_param(self) -> &'static str {
        match self {
            Self::Functional => "functional",
            Self::Physical => "physical",
        }
    }
}

/// How a network image draws its edges (STRING's `network_flavor`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub(crate) enum NetworkFlavor {
    /// One coloured line per evidence channel (STRING's default).
    Evidence,
    /// Line thickness shows the combined confidence.
    Confidence,
    /// Lines show the mode of action (activation, inhibition, binding…).
    Actions,
}

impl NetworkFlavor {
    fn as_param(self) -> &'static str {
        match self {
            Self::Evidence => "evidence",
            Self::Confidence => "confidence",
            Self::Actions => "actions",
        }
    }
}

/// The image a network URL renders as.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub(crate) enum ImageFormat {
    /// PNG bitmap (STRING's `image` output).
    #[default]
    Png,
    /// SVG vector graphic (STRING's `svg` output).
    Svg,
    /// High-resolution PNG (STRING's `highres_image` output).
    HighresPng,
}

impl ImageFormat {
    /// The output-format path segment STRING expects (rbioapi's `rba_string_network_image`).
    fn segment(self) -> &'static str {
        match self {
            Self::Png => "image",
            Self::Svg => "svg",
            Self::HighresPng => "highres_image",
        }
    }

    /// The name users pass and see.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Self::Png => "png",
            Self::Svg => "svg",
            Self::HighresPng => "highres_png",
        }
    }

    /// The media type of the picture.
    pub(crate) fn mime_type(self) -> &'static str {
        match self {
            Self::Png | Self::HighresPng => "image/png",
            Self::Svg => "image/svg+xml",
        }
    }

    /// Whether `body` is a picture of this format: a PNG signature, or SVG markup.
    fn check(self, body: &[u8]) -> Result<(), String> {
        const PNG_SIGNATURE: &[u8] = b"\x89PNG\r\n\x1a\n";
        let ok = match self {
            Self::Png | Self::HighresPng => body.starts_with(PNG_SIGNATURE),
            Self::Svg => {
                let head = String::from_utf8_lossy(&body[..body.len().min(1024)]);
                let head = head.trim_start_matches('\u{feff}').trim_start();
                (head.starts_with("<?xml") || head.starts_with("<svg")) && head.contains("<svg")
            }
        };
        if ok {
            Ok(())
        } else {
            Err(format!(
                "{} sent something other than the {} image it was asked for",
                STRING.name,
                self.name().to_ascii_uppercase()
            ))
        }
    }
}

/// What a network image shows.
#[derive(Debug, Clone)]
pub(crate) struct ImageRequest<'a> {
    /// Output format.
    pub format: ImageFormat,
    /// Names or STRING ids (`9606.ENSP…`), joined with `\r` as STRING expects.
    pub identifiers: &'a [String],
    /// The species of the network.
    pub species: &'a Species,
    /// Minimum combined score, 0–1000; STRING's default when absent.
    pub required_score: Option<u32>,
    /// Extra partners to draw around the query proteins (`add_white_nodes`).
    pub add_nodes: Option<u32>,
    /// Edge style.
    pub flavor: Option<NetworkFlavor>,
    /// Functional or physical network.
    pub network_type: Option<NetworkType>,
    /// Draw STRING's enrichment figure for this category instead of the network (the
    /// network options above do not apply to it).
    pub enrichment_category: Option<&'static str>,
}

impl ImageRequest<'_> {
    /// The path and the form (or query) of the picture.
    fn form(&self) -> (String, Vec<(&'static str, String)>) {
        let mut form = vec![
            ("identifiers", self.identifiers.join("\r")),
            ("species", self.species.to_string()),
        ];
        if let Some(category) = self.enrichment_category {
            form.push(("category", category.to_owned()));
            return (format!("{}/enrichmentfigure", self.format.segment()), form);
        }
        if let Some(score) = self.required_score {
            form.push(("required_score", score.to_string()));
        }
        if let Some(n) = self.add_nodes {
            // The image endpoints name this `add_white_nodes` (rbioapi, official STRING MCP).
            form.push(("add_white_nodes", n.to_string()));
        }
        if let Some(flavor) = self.flavor {
            form.push(("network_flavor", flavor.as_param().to_owned()));
        }
        if let Some(network_type) = self.network_type {
            form.push(("network_type", network_type.as_param().to_owned()));
        }
        (format!("{}/network", self.format.segment()), form)
    }
}

/// Why STRING refused a request as asked, read from its status and words. STRING answers
/// 400 for an unknown species or a missing parameter and 404 when it maps none of the
/// identifiers (the reading the official STRING MCP server's error hints give; the exact
/// bodies are not recorded, docs/sources/string.md).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Refusal {
    /// STRING refused the request over its organism (one it does not know, or none
    /// given for a large set): a 400 whose words name the species, the organism or the
    /// taxon.
    Species {
        /// STRING's words, trimmed.
        said: String,
    },
    /// Any other refusal: a 400 about something else (or without words), a 404.
    Other {
        /// The status STRING refused with.
        status: u16,
        /// STRING's words, trimmed (may be empty).
        said: String,
    },
}

impl Refusal {
    /// STRING's refusal with `status`, its body `said` (trimmed). Any mention of the
    /// organism counts as being about it, since the exact body is not recorded.
    fn read(status: u16, said: String) -> Self {
        let lower = said.to_ascii_lowercase();
        let about_species = ["species", "organism", "taxon"]
            .iter()
            .any(|word| lower.contains(word));
        if status == 400 && about_species {
            Self::Species { said }
        } else {
            Self::Other { status, said }
        }
    }

    /// The refusal as the failure it is when a tool has nothing better to say:
    /// `UPSTREAM_ERROR`, "STRING rejected the request with HTTP 400: <its words>", as
    /// core words any 4xx a tool did not anticipate.
    pub(crate) fn into_error(self) -> ApiError {
        let (status, said) = match self {
            Self::Species { said } => (400, said),
            Self::Other { status, said } => (status, said),
        };
        let failure = UpstreamFailure::Status {
            status,
            body: said,
            retry_after: None,
        };
        // A 4xx is never retried: it took one request.
        ApiError::from_failure(STRING.name, failure, 1)
    }
}

/// `answer` read into its meaning: a status of `missing` is [`Reply::Missing`], one of
/// `refused` STRING's [`Refusal`]; any other failure stays a failure.
fn read<T>(
    answer: Result<T, ApiError>,
    missing: &[u16],
    refused: &[u16],
) -> Result<Reply<T, Refusal>, ApiError> {
    let status = answer.as_ref().err().and_then(ApiError::upstream_status);
    let reply = Reply::read(answer, missing, refused)?;
    Ok(reply.map_refusal(|said| Refusal::read(status.unwrap_or(400), said)))
}

/// A picture STRING drew, or the news that it is larger than the caller takes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Picture {
    /// The picture, checked to be the format asked for.
    Drawn(Bytes),
    /// Larger than the cap it was asked with; refused without being read whole.
    TooLarge,
}

impl Picture {
    /// The HTTP client's answer: a body over the cap is its `TooLarge` failure.
    fn read(answer: Result<Bytes, ApiError>) -> Result<Self, ApiError> {
        match answer {
            Ok(body) => Ok(Self::Drawn(body)),
            Err(ApiError::Upstream {
                failure: UpstreamFailure::TooLarge { .. },
                ..
            }) => Ok(Self::TooLarge),
            Err(e) => Err(e),
        }
    }
}

/// STRING, as the tools use it.
#[derive(Debug, Clone)]
pub(crate) struct StringClient {
    http: HttpClient,
}

impl LifeSciencesClient for StringClient {
    const UPSTREAM: &'static Upstream = &STRING;

    fn new(http: HttpClient) -> Result<Self, ConfigError> {
        Ok(Self { http })
    }
}

impl StringClient {
    /// `get_string_ids`: up to `limit` STRING proteins matching `identifier` in `species`,
    /// best first. STRING answers 404 when nothing maps (docs/sources/string.md):
    /// [`Reply::Missing`]; its 400 (an unknown species, a missing parameter) is
    /// [`Reply::Refused`].
    pub(crate) async fn string_ids(
        &self,
        identifier: &str,
        species: &Species,
        limit: u32,
    ) -> Result<Reply<Vec<StringIdRow>, Refusal>, ApiError> {
        let (species, limit) = (species.to_string(), limit.to_string());
        let query = [
            ("identifiers", identifier),
            ("species", species.as_str()),
            ("limit", limit.as_str()),
            ("echo_query", "1"),
        ];
        let answer = self
            .http
            .get_json::<Rows<StringIdRow>>("json/get_string_ids", &query)
            .await;
        read(answer.map(|rows| rows.0), &[404], &[400])
    }

    /// `interaction_partners`: the partners of `protein` with a combined score of at least
    /// `required_score` (0–1000), the `limit` most confident first. STRING filters by
    /// score on its side. STRING refuses the request when it cannot map the protein (404)
    /// or does not know its taxon (400): both are [`Reply::Refused`], with STRING's words,
    /// since only `get_string_ids` can tell an unknown protein from other trouble.
    pub(crate) async fn interaction_partners(
        &self,
        protein: &StringId,
        required_score: u32,
        limit: u32,
        network_type: NetworkType,
    ) -> Result<Reply<Vec<PartnerRow>, Refusal>, ApiError> {
        let (id, species) = (protein.bare(), protein.species().to_string());
        let (score, limit) = (required_score.to_string(), limit.to_string());
        let query = [
            ("identifiers", id.as_str()),
            ("species", species.as_str()),
            ("required_score", score.as_str()),
            ("limit", limit.as_str()),
            ("network_type", network_type.as_param()),
        ];
        let answer = self
            .http
            .get_json::<Rows<PartnerRow>>("json/interaction_partners", &query)
            .await;
        read(answer.map(|rows| rows.0), &[], &[400, 404])
    }

    /// POST `form` (plus `identifiers`, joined with `\r` as STRING expects, and `species`)
    /// to `json/<method>`: the set form of every method.
    async fn post_set<T>(
        &self,
        method: &str,
        identifiers: &[String],
        species: &Species,
        form: &[(&str, &str)],
    ) -> Result<Vec<T>, ApiError>
    where
        Rows<T>: lifesciences_core::Answer,
    {
        let (identifiers, species) = (identifiers.join("\r"), species.to_string());
        let mut all = vec![
            ("identifiers", identifiers.as_str()),
            ("species", species.as_str()),
        ];
        all.extend_from_slice(form);
        let rows: Rows<T> = self.http.post_form(&format!("json/{method}"), &all).await?;
        Ok(rows.0)
    }

    /// `get_string_ids` for a set, in one request: the best match of each identifier,
    /// with `queryIndex` (0-based, input order) saying which. STRING answers 404 when
    /// nothing maps ([`Reply::Missing`]) and 400 for an unknown species
    /// ([`Reply::Refused`]).
    pub(crate) async fn resolve_set(
        &self,
        identifiers: &[String],
        species: &Species,
    ) -> Result<Reply<Vec<StringIdRow>, Refusal>, ApiError> {
        let form = [("limit", "1"), ("echo_query", "1")];
        let answer = self
            .post_set("get_string_ids", identifiers, species, &form)
            .await;
        read(answer, &[404], &[400])
    }

    /// `network`: the edges among `ids` (STRING IDs), plus `add_nodes` interactors.
    pub(crate) async fn network(
        &self,
        ids: &[String],
        species: &Species,
        required_score: u32,
        network_type: NetworkType,
        add_nodes: u32,
    ) -> Result<Vec<PartnerRow>, ApiError> {
        let (score, add) = (required_score.to_string(), add_nodes.to_string());
        let form = [
            ("required_score", score.as_str()),
            ("network_type", network_type.as_param()),
            ("add_nodes", add.as_str()),
        ];
        self.post_set("network", ids, species, &form).await
    }

    /// `ppi_enrichment`: whether `ids` have more interactions among themselves than a
    /// random set of proteins of the same size would.
    pub(crate) async fn ppi_enrichment(
        &self,
        ids: &[String],
        species: &Species,
        required_score: u32,
        network_type: NetworkType,
    ) -> Result<Vec<PpiEnrichmentRow>, ApiError> {
        let score = required_score.to_string();
        let form = [
            ("required_score", score.as_str()),
            ("network_type", network_type.as_param()),
        ];
        self.post_set("ppi_enrichment", ids, species, &form).await
    }

    /// `enrichment`: the terms enriched in `ids` against the whole genome, or against
    /// `background` (STRING IDs) when given.
    pub(crate) async fn enrichment(
        &self,
        ids: &[String],
        species: &Species,
        background: &[String],
    ) -> Result<Vec<EnrichmentRow>, ApiError> {
        let background = background.join("\r");
        let mut form = Vec::new();
        if !background.is_empty() {
            form.push(("background_string_identifiers", background.as_str()));
        }
        self.post_set("enrichment", ids, species, &form).await
    }

    /// `functional_annotation`: every annotation term of `ids` (no statistics).
    pub(crate) async fn functional_annotation(
        &self,
        ids: &[String],
        species: &Species,
    ) -> Result<Vec<AnnotationRow>, ApiError> {
        self.post_set("functional_annotation", ids, species, &[])
            .await
    }

    /// `homology_best` (the best hit of each protein in each of `targets`) or, without
    /// targets, `homology` (similarity scores within `species`).
    pub(crate) async fn homology(
        &self,
        ids: &[String],
        species: &Species,
        targets: &[Species],
    ) -> Result<Vec<HomologyRow>, ApiError> {
        if targets.is_empty() {
            return self.post_set("homology", ids, species, &[]).await;
        }
        let targets = targets
            .iter()
            .map(Species::to_string)
            .collect::<Vec<_>>()
            .join("\r");
        let form = [("species_b", targets.as_str())];
        self.post_set("homology_best", ids, species, &form).await
    }

    /// `interaction_partners` for a set: the `limit` best partners of each of `ids`
    /// (STRING applies `limit` per query protein).
    pub(crate) async fn partners_of_set(
        &self,
        ids: &[String],
        species: &Species,
        required_score: u32,
        limit: u32,
        network_type: NetworkType,
    ) -> Result<Vec<PartnerRow>, ApiError> {
        let (score, limit) = (required_score.to_string(), limit.to_string());
        let form = [
            ("required_score", score.as_str()),
            ("limit", limit.as_str()),
            ("network_type", network_type.as_param()),
        ];
        self.post_set("interaction_partners", ids, species, &form)
            .await
    }

    /// The URL of a network image STRING renders (`/api/{image|svg|highres_image}/network`),
    /// built without calling STRING: it follows `STRING_API_URL` and carries
    /// `caller_identity` like every request.
    pub(crate) fn network_image_url(&self, request: &ImageRequest<'_>) -> Result<String, ApiError> {
        let (path, form) = request.form();
        let query: Vec<(&str, &str)> = form.iter().map(|(k, v)| (*k, v.as_str())).collect();
        Ok(self.http.url(&path, &query)?.to_string())
    }

    /// The picture of `request`, POSTed (any number of identifiers), checked to be the
    /// format asked for; a body over `max_bytes` is [`Picture::TooLarge`], not read whole.
    pub(crate) async fn picture(
        &self,
        request: &ImageRequest<'_>,
        max_bytes: u64,
    ) -> Result<Picture, ApiError> {
        let (path, form) = request.form();
        let form: Vec<(&str, &str)> = form.iter().map(|(k, v)| (*k, v.as_str())).collect();
        let format = request.format;
        let answer = self
            .http
            .post_form_bytes(&path, &form, format.mime_type(), max_bytes, |body| {
                format.check(body)
            })
            .await;
        Picture::read(answer)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use lifesciences_core::{Env, SourceConfig};

    fn config(pairs: &[(&str, &str)]) -> Result<SourceConfig, ConfigError> {
        Env::from_pairs(pairs).source_config(&STRING)
    }

    #[test]
    fn defaults_are_polite_and_identify_us() {
        let c = config(&[]).unwrap();
        assert_eq!(c.base_url.as_str(), "https://string-db.org/api");
        assert_eq!(c.rate_per_second, 1.0);
        assert_eq!(c.max_concurrent, 1);
        assert_eq!(
            c.default_query,
            [("caller_identity".to_owned(), "lifesciences-mcp".to_owned())]
        );
    }

    #[test]
    fn the_environment_names_the_caller_and_moves_the_base() {
        let c = config(&[
            ("STRING_CALLER_IDENTITY", " my-lab "),
            ("STRING_API_URL", "https://version-12-0.string-db.org/api/"),
            ("STRING_RATE_LIMIT", "0.5"),
        ])
        .unwrap();
        assert_eq!(c.default_query[0].1, "my-lab");
        assert_eq!(
            c.base_url.as_str(),
            "https://version-12-0.string-db.org/api"
        );
        assert_eq!(c.rate_per_second, 0.5);
        let blank = config(&[("STRING_CALLER_IDENTITY", "  ")]).unwrap();
        assert_eq!(blank.default_query[0].1, "lifesciences-mcp");
        assert!(config(&[("STRING_API_URL", "string-db.org")]).is_err());
    }

    #[test]
    fn image_urls_use_the_format_segment_and_join_identifiers_with_cr() {
        let client: StringClient = Env::from_pairs(&[]).client().unwrap();
        let ids = ["9606.ENSP00000269305".to_owned(), "MDM2".to_owned()];
        let url = client
            .network_image_url(&ImageRequest {
                format: ImageFormat::HighresPng,
                identifiers: &ids,
                species: &Species::HUMAN,
                required_score: Some(700),
                add_nodes: Some(5),
                flavor: Some(NetworkFlavor::Confidence),
                network_type: Some(NetworkType::Physical),
                enrichment_category: None,
            })
            .unwrap();
        assert_eq!(
            url,
            "https://string-db.org/api/highres_image/network?caller_identity=lifesciences-mcp\
             &identifiers=9606.ENSP00000269305%0DMDM2&species=9606&required_score=700\
             &add_white_nodes=5&network_flavor=confidence&network_type=physical"
        );
    }

    /// A failure as the HTTP client reports STRING's status `status` with body `body`.
    fn answered(status: u16, body: &str) -> Result<Vec<u8>, ApiError> {
        let failure = UpstreamFailure::Status {
            status,
            body: body.to_owned(),
            retry_after: None,
        };
        Err(ApiError::from_failure("STRING", failure, 1))
    }

    // STRING's error bodies are not recorded: the words below are constructed, in the
    // plain-text form of STRING's 2017 refusal of a large set without an organism ("You
    // have provided a large number of input proteins (> 100), but you have not specified
    // an organism", quoted in IDR/idr-notebooks pull request 36 on GitHub).

    #[test]
    fn a_404_of_get_string_ids_is_missing_and_its_400_a_refusal_in_string_s_words() {
        assert_eq!(
            read(Ok(vec![1]), &[404], &[400]).unwrap(),
            Reply::Found(vec![1])
        );
        assert_eq!(
            read(answered(404, ""), &[404], &[400]).unwrap(),
            Reply::Missing
        );
        assert_eq!(
            read(answered(400, " Error: species not found\n"), &[404], &[400]).unwrap(),
            Reply::Refused(Refusal::Species {
                said: "Error: species not found".into()
            })
        );
        let large = "You have provided a large number of input proteins (> 100), but you \
                     have not specified an organism.";
        assert!(matches!(
            read(answered(400, large), &[404], &[400]).unwrap(),
            Reply::Refused(Refusal::Species { .. })
        ));
        assert_eq!(
            read(
                answered(400, "Error: identifiers could not be parsed"),
                &[404],
                &[400]
            )
            .unwrap(),
            Reply::Refused(Refusal::Other {
                status: 400,
                said: "Error: identifiers could not be parsed".into()
            })
        );
    }

    #[test]
    fn a_partner_request_s_404_is_a_refusal_and_only_a_400_names_a_species() {
        // interaction_partners reads both as refusals; a 404 is never "unknown species",
        // whatever its words.
        assert_eq!(
            read(answered(404, "no species matched"), &[], &[400, 404]).unwrap(),
            Reply::Refused(Refusal::Other {
                status: 404,
                said: "no species matched".into()
            })
        );
        assert!(matches!(
            read(answered(400, "Unknown organism"), &[], &[400, 404]).unwrap(),
            Reply::Refused(Refusal::Species { .. })
        ));
    }

    #[test]
    fn outages_and_other_statuses_stay_failures() {
        for (status, body) in [
            (500, "Internal Server Error"),
            (503, ""),
            (429, ""),
            (403, ""),
        ] {
            let e = read(answered(status, body), &[404], &[400]).unwrap_err();
            assert_eq!(e.upstream_status(), Some(status));
        }
    }

    #[test]
    fn a_refusal_passed_on_reads_as_the_failure_string_sent() {
        for (status, body) in [
            (400, "Error: identifiers could not be parsed"),
            (400, "Error: species not found"),
            (404, "  "),
        ] {
            let Ok(Reply::Refused(refusal)) = read(answered(status, body), &[], &[400, 404]) else {
                panic!("{status} is a refusal here");
            };
            assert_eq!(
                refusal.into_error().to_envelope(),
                answered(status, body).unwrap_err().to_envelope(),
                "{status} {body:?}"
            );
        }
    }

    #[test]
    fn a_picture_over_the_cap_is_too_large_and_other_failures_stay_failures() {
        let body = Bytes::from_static(b"\x89PNG\r\n\x1a\n");
        assert_eq!(
            Picture::read(Ok(body.clone())).unwrap(),
            Picture::Drawn(body)
        );
        let over = ApiError::from_failure("STRING", UpstreamFailure::TooLarge { limit: 1024 }, 1);
        assert_eq!(Picture::read(Err(over)).unwrap(), Picture::TooLarge);
        let e = Picture::read(answered(503, "").map(Bytes::from)).unwrap_err();
        assert_eq!(e.upstream_status(), Some(503));
    }
}
