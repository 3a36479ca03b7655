//! The IGVF Catalog upstream: its description (politeness defaults, health check), the
//! endpoints this server calls with the query parameters each may receive, paging, and
//! the mapping of the upstream's anticipated 400s. The only module that knows URLs and
//! parameter names.
//!
//! **Invariant:** a request carries only parameter names the production OpenAPI spec
//! lists for its endpoint. The upstream silently drops unknown parameters and answers as
//! if unfiltered (the `gene_name` trap on `/genes`), so [`Request::param`] refuses any
//! name the embedded spec does not list for the endpoint ([`Endpoint::allowed`]).

use lifesciences_core::{
    ApiError, ConfigError, HealthCheck, HttpClient, Licence, LifeSciencesClient, Reply, Upstream,
};
use serde::de::DeserializeOwned;

use crate::ids::Organism;
use crate::models::{BadRequest, OneOrMany};
use crate::spec::spec;

/// The IGVF Catalog: 10 requests/s and 10 in flight, the standard retries; `health` is
/// its own health check (`{"status": "ok"}`).
static CATALOG: Upstream = Upstream {
    about: "IGVF Catalog API",
    health: HealthCheck {
        path: "health",
        query: &[],
    },
    // What the catalog's own OpenAPI description states (the embedded spec's
    // `info.description`); it names no paper to cite (docs/sources/igvf.md, "Licence and
    // citation").
    licence: Some(Licence {
        spdx: "CC-BY-4.0",
        url: "https://api.catalogkg.igvf.org/openapi",
    }),
    ..Upstream::new(
        "IGVF Catalog",
        "IGVF_CATALOG",
        "https://api.catalogkg.igvf.org/api",
    )
};

/// The largest region `/variants?region=` is documented to accept ("maximum length:
/// 10kb", production spec description of `/variants`).
pub(crate) const VARIANT_REGION_MAX_BP: u64 = 10_000;

/// The endpoints this server calls.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) enum Endpoint {
    Genes,
    Transcripts,
    Proteins,
    Variants,
    OntologyTerms,
    Drugs,
    Complexes,
    Pathways,
    GenomicElements,
    GenesVariants,
    VariantsGenes,
    GenesGenomicElements,
    VariantsGenomicElements,
    VariantsProteins,
    ProteinsVariants,
    GenesDiseases,
    DiseasesGenes,
    VariantsPhenotypes,
    PhenotypesVariants,
    VariantsDiseases,
    DiseasesVariants,
    ProteinsProteins,
    ProteinsComplexes,
    ComplexesProteins,
    GenesPathways,
    PathwaysGenes,
    GeneProductsGoTerms,
    GoTermsGeneProducts,
    GenesGenes,
    VariantsDrugs,
    DrugsVariants,
    VariantLd,
    /// `/variants/summary`: one object, not a page.
    VariantsSummary,
    GenesTranscripts,
    ProteinsTranscripts,
    TranscriptsGenes,
    TranscriptsProteins,
    /// `/gene-regulatory-network`: regulator → response genes (Perturb-seq, CRISPR).
    GeneRegulatoryNetwork,
    /// `/genes/coding-variants/scores`: a gene's protein changes, their variants, and
    /// each variant's scores (MAVE assays, predictors).
    GenesCodingVariantScores,
    /// `/ontology-terms/{ontology_term_id}/children`: the term's direct children (the
    /// ID goes in the path, see [`Request::path_id`]).
    OntologyTermChildren,
    /// `/coding-variants/phenotypes`: effect scores of one protein change (MAVE assays,
    /// predictors).
    CodingVariantsPhenotypes,
}

impl Endpoint {
    /// Every endpoint, for the spec tests.
    #[cfg(test)]
    pub(crate) const ALL: [Endpoint; 41] = [
        Self::Genes,
        Self::Transcripts,
        Self::Proteins,
        Self::Variants,
        Self::OntologyTerms,
        Self::Drugs,
        Self::Complexes,
        Self::Pathways,
        Self::GenomicElements,
        Self::GenesVariants,
        Self::VariantsGenes,
        Self::GenesGenomicElements,
        Self::VariantsGenomicElements,
        Self::VariantsProteins,
        Self::ProteinsVariants,
        Self::GenesDiseases,
        Self::DiseasesGenes,
        Self::VariantsPhenotypes,
        Self::PhenotypesVariants,
        Self::VariantsDiseases,
        Self::DiseasesVariants,
        Self::ProteinsProteins,
        Self::ProteinsComplexes,
        Self::ComplexesProteins,
        Self::GenesPathways,
        Self::PathwaysGenes,
        Self::GeneProductsGoTerms,
        Self::GoTermsGeneProducts,
        Self::GenesGenes,
        Self::VariantsDrugs,
        Self::DrugsVariants,
        Self::VariantLd,
        Self::VariantsSummary,
        Self::GenesTranscripts,
        Self::ProteinsTranscripts,
        Self::TranscriptsGenes,
        Self::TranscriptsProteins,
        Self::GeneRegulatoryNetwork,
        Self::GenesCodingVariantScores,
        Self::OntologyTermChildren,
        Self::CodingVariantsPhenotypes,
    ];

    /// The path under the base URL, without a leading slash (as in the spec).
    pub(crate) fn path(self) -> &'static str {
        match self {
            Self::Genes => "genes",
            Self::Transcripts => "transcripts",
            Self::Proteins => "proteins",
            Self::Variants => "variants",
            Self::OntologyTerms => "ontology-terms",
            Self::Drugs => "drugs",
            Self::Complexes => "complexes",
            Self::Pathways => "pathways",
            Self::GenomicElements => "genomic-elements",
            Self::GenesVariants => "genes/variants",
            Self::VariantsGenes => "variants/genes",
            Self::GenesGenomicElements => "genes/genomic-elements",
            Self::VariantsGenomicElements => "variants/genomic-elements",
            Self::VariantsProteins => "variants/proteins",
            Self::ProteinsVariants => "proteins/variants",
            Self::GenesDiseases => "genes/diseases",
            Self::DiseasesGenes => "diseases/genes",
            Self::VariantsPhenotypes => "variants/phenotypes",
            Self::PhenotypesVariants => "phenotypes/variants",
            Self::VariantsDiseases => "variants/diseases",
            Self::DiseasesVariants => "diseases/variants",
            Self::ProteinsProteins => "proteins/proteins",
            Self::ProteinsComplexes => "proteins/complexes",
            Self::ComplexesProteins => "complexes/proteins",
            Self::GenesPathways => "genes/pathways",
            Self::PathwaysGenes => "pathways/genes",
            Self::GeneProductsGoTerms => "gene-products/go-terms",
            Self::GoTermsGeneProducts => "go-terms/gene-products",
            Self::GenesGenes => "genes/genes",
            Self::VariantsDrugs => "variants/drugs",
            Self::DrugsVariants => "drugs/variants",
            Self::VariantLd => "variants/variant-ld",
            Self::VariantsSummary => "variants/summary",
            Self::GenesTranscripts => "genes/transcripts",
            Self::ProteinsTranscripts => "proteins/transcripts",
            Self::TranscriptsGenes => "transcripts/genes",
            Self::TranscriptsProteins => "transcripts/proteins",
            Self::GeneRegulatoryNetwork => "gene-regulatory-network",
            Self::GenesCodingVariantScores => "genes/coding-variants/scores",
            Self::OntologyTermChildren => "ontology-terms/{ontology_term_id}/children",
            Self::CodingVariantsPhenotypes => "coding-variants/phenotypes",
        }
    }

    /// The largest page the endpoint returns: the smaller of the router's `MAX_PAGE_SIZE`
    /// (see docs/sources/igvf.md, Limits) and the spec description's "can not exceed N".
    /// Asking for more is silently capped upstream, which would make a full page look
    /// like the last one, so pages are never requested larger than this.
    pub(crate) fn page_cap(self) -> u32 {
        match self {
            Self::Genes
            | Self::Transcripts
            | Self::Variants
            | Self::Pathways
            | Self::GenesVariants
            | Self::VariantsGenes
            | Self::GenesGenomicElements
            | Self::GenesPathways
            | Self::PathwaysGenes
            | Self::VariantLd
            | Self::GenesCodingVariantScores
            | Self::OntologyTermChildren => 500,
            Self::OntologyTerms | Self::GenomicElements => 1000,
            Self::VariantsGenomicElements => 300,
            Self::ProteinsProteins => 250,
            // /genes/diseases: 100 in the router, 25 in the spec description.
            Self::GenesDiseases => 25,
            // /complexes takes no limit and always answers pages of 25.
            Self::Complexes => 25,
            // One object.
            Self::VariantsSummary => 1,
            Self::Proteins | Self::ProteinsComplexes | Self::ComplexesProteins => 50,
            Self::Drugs
            | Self::VariantsProteins
            | Self::ProteinsVariants
            | Self::DiseasesGenes
            | Self::VariantsPhenotypes
            | Self::PhenotypesVariants
            | Self::VariantsDiseases
            | Self::DiseasesVariants
            | Self::GeneProductsGoTerms
            | Self::GoTermsGeneProducts
            | Self::GenesGenes
            | Self::VariantsDrugs
            | Self::DrugsVariants
            | Self::GenesTranscripts
            | Self::ProteinsTranscripts
            | Self::TranscriptsGenes
            | Self::TranscriptsProteins
            | Self::CodingVariantsPhenotypes
            // 500 in the router, 100 in the spec description.
            | Self::GeneRegulatoryNetwork => 100,
        }
    }

    /// Whether the endpoint takes `limit` (`/complexes` does not; nor does
    /// `/variants/summary`, which is not paged), as the spec says.
    pub(crate) fn takes_limit(self) -> bool {
        spec().has_query_param(self.path(), "limit")
    }

    /// The query parameter names this server may send to the endpoint: every one the
    /// spec lists for it, except `verbose` (this server reads linked nodes as
    /// `"<collection>/<key>"` strings, the form `verbose=false` gives) and path
    /// parameters. Derived from the spec, so a filter the catalog takes is never refused
    /// by a hand-kept list, and one it does not take is never sent.
    pub(crate) fn allowed(self) -> Vec<&'static str> {
        spec()
            .endpoint(self.path())
            .map(|e| {
                e.parameters
                    .iter()
                    .filter(|p| p.location.as_deref() != Some("path") && p.name != "verbose")
                    .map(|p| p.name.as_str())
                    .collect()
            })
            .unwrap_or_default()
    }

    /// The path parameter's name, for endpoints whose path holds one.
    fn path_param(self) -> Option<&'static str> {
        (self == Self::OntologyTermChildren).then_some("ontology_term_id")
    }

    /// Whether the endpoint serves `organism` (from the spec's `organism` enum; an
    /// endpoint without the parameter is human-only).
    pub(crate) fn serves(self, organism: Organism) -> bool {
        match organism {
            Organism::Human => true,
            Organism::Mouse => spec()
                .values(self.path(), "organism")
                .iter()
                .any(|v| v == Organism::Mouse.api_name()),
        }
    }

    /// The values the spec accepts for `param` on this endpoint (empty: free text or
    /// no such parameter).
    pub(crate) fn enum_values(self, param: &str) -> &'static [String] {
        spec().values(self.path(), param)
    }
}

/// One request to the catalog: an endpoint and its query (paging added per page).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Request {
    endpoint: Endpoint,
    /// The value of the path parameter, for endpoints whose path holds one.
    path_id: Option<String>,
    query: Vec<(&'static str, String)>,
    /// What the caller sent for the argument behind a parameter (a region as typed,
    /// a source as spelt), echoed as `invalid_input` when the upstream rejects it.
    inputs: Vec<(&'static str, String)>,
}

impl Request {
    /// A request to `endpoint` with no parameters yet.
    pub(crate) fn new(endpoint: Endpoint) -> Self {
        Self {
            endpoint,
            path_id: None,
            query: Vec::new(),
            inputs: Vec::new(),
        }
    }

    /// Set the path parameter (e.g. the term of `/ontology-terms/{id}/children`). Only
    /// characters a catalog key holds are kept, so the value cannot change the path.
    #[must_use]
    pub(crate) fn path_id(mut self, value: &str) -> Self {
        let safe: String = value
            .chars()
            .filter(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.' | ':'))
            .collect();
        self.path_id = Some(safe);
        self
    }

    /// The path to call: the endpoint's, with its path parameter filled in.
    pub(crate) fn path(&self) -> String {
        let template = self.endpoint.path();
        match (self.endpoint.path_param(), &self.path_id) {
            (Some(name), Some(value)) => template.replace(&format!("{{{name}}}"), value),
            _ => template.to_owned(),
        }
    }

    /// Record that parameter `name` carries the caller's argument `raw` (as sent, before
    /// normalising), so that a rejection of it echoes what the caller wrote.
    #[must_use]
    pub(crate) fn input(mut self, name: &'static str, raw: impl Into<String>) -> Self {
        self.inputs.push((name, raw.into()));
        self
    }

    /// What the caller sent for the argument behind parameter `name`, if it came from
    /// one.
    fn caller_input(&self, name: &str) -> Option<&str> {
        self.inputs
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, v)| v.as_str())
    }

    /// Add a parameter. A name the endpoint does not take is never sent (the upstream
    /// would drop it silently and answer unfiltered); the unit tests make this
    /// unreachable, the log line makes it visible if it ever is not.
    #[must_use]
    pub(crate) fn param(mut self, name: &'static str, value: impl Into<String>) -> Self {
        if self.endpoint.allowed().contains(&name) && name != "page" && name != "limit" {
            self.query.push((name, value.into()));
        } else {
            tracing::error!(
                endpoint = self.endpoint.path(),
                param = name,
                "refusing to send a parameter the endpoint does not take"
            );
        }
        self
    }

    /// `organism=Mus musculus` when asked for mouse and the endpoint takes it; human is
    /// the upstream's default and is not sent.
    #[must_use]
    pub(crate) fn organism(self, organism: Organism) -> Self {
        match organism {
            Organism::Human => self,
            Organism::Mouse => self.param("organism", organism.api_name()),
        }
    }

    /// The endpoint.
    pub(crate) fn endpoint(&self) -> Endpoint {
        self.endpoint
    }

    /// The parameters set so far (paging excluded).
    #[cfg(test)]
    pub(crate) fn query(&self) -> &[(&'static str, String)] {
        &self.query
    }

    /// The names of the parameters set so far (paging excluded), to check that the
    /// endpoint answers a request with them ([`crate::spec::EndpointSpec::answers`]).
    pub(crate) fn param_names(&self) -> Vec<&'static str> {
        self.query.iter().map(|(n, _)| *n).collect()
    }

    /// Whether a parameter called `name` is set.
    pub(crate) fn has(&self, name: &str) -> bool {
        self.query.iter().any(|(n, _)| *n == name)
    }
}

/// A list fetched from the catalog, and whether more rows exist beyond it.
#[derive(Debug, Clone)]
pub(crate) struct Fetched<T> {
    /// The rows, at most the number asked for.
    pub items: Vec<T>,
    /// True when the upstream has more rows than were asked for.
    pub more: bool,
}

/// The IGVF Catalog client.
#[derive(Debug, Clone)]
pub(crate) struct IgvfClient {
    http: HttpClient,
}

impl LifeSciencesClient for IgvfClient {
    const UPSTREAM: &'static Upstream = &CATALOG;

    fn new(http: HttpClient) -> Result<Self, ConfigError> {
        Ok(Self { http })
    }
}

impl IgvfClient {
    /// One page of `request`: `page` is 0-based, `limit` at most the endpoint's cap.
    /// A miss is `200 []`, or on by-ID lookups a 404 with trpc's `{"code": "NOT_FOUND"}`
    /// body (see docs/sources/igvf.md, Errors): both are an empty page. Any other 404 (a
    /// wrong base URL, a proxy's page) is an upstream error, not a miss.
    pub(crate) async fn page<T>(
        &self,
        request: &Request,
        page: u32,
        limit: u32,
    ) -> Result<Vec<T>, ApiError>
    where
        T: DeserializeOwned + lifesciences_core::Row + Send + 'static,
    {
        let endpoint = request.endpoint;
        let page_text = page.to_string();
        let limit_text = limit.min(endpoint.page_cap()).to_string();
        let mut query: Vec<(&str, &str)> = request
            .query
            .iter()
            .map(|(k, v)| (*k, v.as_str()))
            .collect();
        query.push(("page", &page_text));
        if endpoint.takes_limit() {
            query.push(("limit", &limit_text));
        }
        let answer = self
            .http
            .get_json::<OneOrMany<T>>(&request.path(), &query)
            .await;
        match read(answer)? {
            Reply::Found(rows) => Ok(rows.0),
            Reply::Missing => Ok(Vec::new()),
            Reply::Refused(refusal) => Err(refusal.into_error(request)),
        }
    }

    /// Up to `want` rows of `request`, paging with `page`/`limit` and stopping at a short
    /// page. One extra row is asked for when the page size allows, so `more` is exact;
    /// when `want` reaches the cap, a full last page counts as `more`.
    pub(crate) async fn fetch<T>(
        &self,
        request: &Request,
        want: u32,
    ) -> Result<Fetched<T>, ApiError>
    where
        T: DeserializeOwned + lifesciences_core::Row + Send + 'static,
    {
        let cap = request.endpoint.page_cap();
        let want = want.max(1);
        let page_size = want.saturating_add(1).min(cap);
        let mut items: Vec<T> = Vec::new();
        let mut page = 0;
        loop {
            let rows: Vec<T> = self.page(request, page, page_size).await?;
            let short = rows.len() < page_size as usize;
            items.extend(rows);
            if items.len() > want as usize {
                items.truncate(want as usize);
                return Ok(Fetched { items, more: true });
            }
            if short {
                return Ok(Fetched { items, more: false });
            }
            if items.len() == want as usize {
                // A full page exactly at `want` (only when `want` ≥ the cap): more may
                // exist, and finding out would cost another request.
                return Ok(Fetched { items, more: true });
            }
            page += 1;
        }
    }
}

impl IgvfClient {
    /// The one object an unpaged endpoint answers (`/variants/summary`); `None` for a
    /// miss (trpc's 404).
    pub(crate) async fn object<T>(&self, request: &Request) -> Result<Option<T>, ApiError>
    where
        T: DeserializeOwned + lifesciences_core::Answer + Send + 'static,
    {
        let query: Vec<(&str, &str)> = request
            .query
            .iter()
            .map(|(k, v)| (*k, v.as_str()))
            .collect();
        match read(self.http.get_json::<T>(&request.path(), &query).await)? {
            Reply::Found(value) => Ok(Some(value)),
            Reply::Missing => Ok(None),
            Reply::Refused(refusal) => Err(refusal.into_error(request)),
        }
    }
}

/// One answer of the catalog in the words of its meaning: trpc-openapi's own "no such
/// record" 404 (`{"message": "...", "code": "NOT_FOUND"}`, given by by-ID lookups) is
/// [`Reply::Missing`]; a 400 is [`Reply::Refused`], the catalog's reason read into a
/// [`Refusal`]. Any other failure stays one: a 404 that is not trpc's (a wrong base URL,
/// a proxy's page) is an upstream error, not a miss.
pub(crate) fn read<T>(answer: Result<T, ApiError>) -> Result<Reply<T, Refusal>, ApiError> {
    match answer {
        Ok(found) => Ok(Reply::Found(found)),
        Err(e) if e.upstream_status() == Some(404) && is_trpc_not_found(&e) => Ok(Reply::Missing),
        Err(e) if e.upstream_status() == Some(400) => Ok(Reply::Refused(Refusal::read(e))),
        Err(e) => Err(e),
    }
}

/// Whether a 404's body is trpc-openapi's own "no such record" answer rather than a
/// page from something that is not the catalog's API.
fn is_trpc_not_found(error: &ApiError) -> bool {
    #[derive(serde::Deserialize)]
    struct TrpcError {
        #[serde(default)]
        code: String,
    }
    error
        .upstream_body()
        .and_then(|body| serde_json::from_str::<TrpcError>(body).ok())
        .is_some_and(|b| b.code == "NOT_FOUND")
}

/// The catalog's refusal of a request (its 400), read: its words, the zod issues it
/// lists, and the failure as received (given back when the refusal is about nothing the
/// caller sent, which makes it this server's fault).
#[derive(Debug, Clone)]
pub(crate) struct Refusal {
    /// The catalog's words: the body's `message`, or the body itself when it is not
    /// trpc's JSON.
    pub words: String,
    /// The body, when it is trpc's `{"message", "issues"}`.
    body: Option<BadRequest>,
    /// The 400 as received.
    failure: ApiError,
}

impl Refusal {
    fn read(failure: ApiError) -> Self {
        let text = failure.upstream_body().unwrap_or_default();
        let body: Option<BadRequest> = serde_json::from_str(text).ok();
        let words = body
            .as_ref()
            .map(|b| b.message.clone())
            .unwrap_or_else(|| text.to_owned());
        Self {
            words,
            body,
            failure,
        }
    }

    /// The refusal as the caller should see it: `INVALID_INPUT` where the cause is a
    /// value the caller sent (an enum value, a region, a number), naming the accepted
    /// values from the embedded spec and echoing the caller's own text; otherwise the
    /// upstream error as received.
    pub(crate) fn into_error(self, request: &Request) -> ApiError {
        let message = &self.words;
        if let Some(issue) = self
            .body
            .as_ref()
            .and_then(|b| b.issues.iter().find(|i| i.code == "invalid_enum_value"))
        {
            let param = issue.path.first().cloned().unwrap_or_default();
            let Some(raw) = request.caller_input(&param) else {
                return self.failure;
            };
            let received = issue.received.clone().unwrap_or_default();
            let from_spec = spec().values(request.endpoint.path(), &param);
            let accepted = if from_spec.is_empty() {
                issue.options.clone()
            } else {
                from_spec.to_vec()
            };
            return ApiError::invalid_input(
                format!(
                    "IGVF Catalog does not accept '{received}' for '{param}' on /{}.",
                    request.endpoint.path()
                ),
                format!("Accepted values: {}.", quoted(&accepted)),
                raw,
            );
        }
        if (message.contains("Region") || message.contains("region"))
            && let Some(raw) = request.caller_input("region")
        {
            return ApiError::invalid_input(
                format!("IGVF Catalog rejected the region: {message}"),
                "Write the region as chromosome:start-end, 1-based and inclusive, e.g. \
                 'chr17:41000001-41010000'; variant region queries are limited to 10 kb.",
                raw,
            );
        }
        // "<field> must be a valid number. Received: ..." names the parameter first.
        if message.contains("must be a valid number")
            && let Some(raw) = message
                .split_whitespace()
                .next()
                .and_then(|field| request.caller_input(field))
        {
            return ApiError::invalid_input(
                format!("IGVF Catalog rejected a numeric filter: {message}"),
                "Give thresholds as plain numbers, e.g. p_value 5e-8 or r2_threshold 0.8.",
                raw,
            );
        }
        self.failure
    }
}

/// `'a', 'b', 'c'`.
pub(crate) fn quoted(values: &[String]) -> String {
    values
        .iter()
        .map(|v| format!("'{v}'"))
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use lifesciences_core::{ErrorCode, UpstreamFailure};

    #[test]
    fn the_licence_is_the_one_the_catalogs_own_description_states() {
        let spec: serde_json::Value = serde_json::from_str(crate::spec::SPEC_JSON).unwrap();
        let description = spec["info"]["description"].as_str().unwrap();
        assert!(
            description.contains(
                "Data is licensed under the <a href=https://creativecommons.org/licenses/by/4.0/"
            ),
            "{description}"
        );
        let licence = CATALOG.licence.unwrap();
        assert_eq!(licence.spdx, "CC-BY-4.0");
        assert_eq!(licence.url, "https://api.catalogkg.igvf.org/openapi");
        assert_eq!(CATALOG.cite, None, "the catalog names no paper to cite");
    }

    /// A failed request as the HTTP client reports it: the status and the body sent.
    fn failure(status: u16, body: &str) -> ApiError {
        ApiError::from_failure(
            "IGVF Catalog",
            UpstreamFailure::Status {
                status,
                body: body.to_owned(),
                retry_after: None,
            },
            1,
        )
    }

    #[test]
    fn an_answer_is_found_and_trpc_s_not_found_404_is_a_missing_record() {
        assert!(matches!(read(Ok(7u8)), Ok(Reply::Found(7))));
        // tRPC's error format for a by-ID miss (constructed after that format, which
        // docs/sources/igvf.md describes under Errors: not seen live).
        let body = r#"{"message": "Record ENSG00000099999 not found.", "code": "NOT_FOUND"}"#;
        assert!(matches!(
            read::<u8>(Err(failure(404, body))),
            Ok(Reply::Missing)
        ));
    }

    #[test]
    fn a_404_that_is_not_trpc_s_stays_a_failure() {
        // A proxy's page, and JSON with another code: not "no such record".
        for body in [
            "<html><body>404 Not Found</body></html>",
            r#"{"message": "No route", "code": "METHOD_NOT_SUPPORTED"}"#,
            "",
        ] {
            let e = read::<u8>(Err(failure(404, body))).unwrap_err();
            assert_eq!(e.code(), ErrorCode::UpstreamError, "{body}");
            assert_eq!(e.upstream_status(), Some(404));
        }
        // Nor is a 500 a refusal.
        let e = read::<u8>(Err(failure(500, "down"))).unwrap_err();
        assert_eq!(e.upstream_status(), Some(500));
    }

    #[test]
    fn a_400_is_a_refusal_in_the_catalog_s_words() {
        // A handler check, recorded: not about anything the caller sent, so it is given
        // back as the upstream error it was.
        let body = include_str!("../tests/fixtures/variants_variant-ld__r2_only.400.json");
        let Ok(Reply::Refused(refusal)) = read::<u8>(Err(failure(400, body))) else {
            panic!("a 400 is a refusal");
        };
        assert_eq!(
            refusal.words,
            "At least one variant property must be defined."
        );
        let request = Request::new(Endpoint::VariantLd).param("r2", "gte:0.8");
        let e = refusal.into_error(&request);
        assert_eq!(e.code(), ErrorCode::UpstreamError);
        assert_eq!(e.upstream_status(), Some(400));
        // A body that is not tRPC's JSON is the reason as it stands.
        let Ok(Reply::Refused(refusal)) = read::<u8>(Err(failure(400, " Bad Request \n"))) else {
            panic!("a 400 is a refusal");
        };
        assert_eq!(refusal.words, " Bad Request \n");
    }

    #[test]
    fn a_refused_value_the_caller_sent_is_invalid_input_echoing_it() {
        // zod's invalid_enum_value, recorded for /genes/diseases?source=Clingen.
        let body = include_str!("../tests/fixtures/genes_diseases__bad_enum.400.json");
        let Ok(Reply::Refused(refusal)) = read::<u8>(Err(failure(400, body))) else {
            panic!("a 400 is a refusal");
        };
        assert_eq!(refusal.words, "Input validation failed");
        let request = Request::new(Endpoint::GenesDiseases)
            .param("source", "Clingen")
            .input("source", "clingen ");
        let e = refusal.clone().into_error(&request).to_envelope().error;
        assert_eq!(e.code, ErrorCode::InvalidInput);
        assert!(
            e.message
                .contains("'Clingen' for 'source' on /genes/diseases"),
            "{}",
            e.message
        );
        assert!(e.recovery_hint.contains("'ClinGen'"), "{}", e.recovery_hint);
        assert_eq!(e.invalid_input.as_deref(), Some("clingen "));
        // The same refusal of a value the caller did not send is this server's fault.
        let ours = Request::new(Endpoint::GenesDiseases).param("source", "Clingen");
        assert_eq!(refusal.into_error(&ours).code(), ErrorCode::UpstreamError);
    }

    #[test]
    fn every_parameter_this_client_can_send_exists_in_the_spec() {
        let spec = spec();
        for endpoint in Endpoint::ALL {
            let path = endpoint.path();
            let described = spec
                .endpoint(path)
                .unwrap_or_else(|| panic!("/{path} is not in the production spec"));
            for name in endpoint.allowed() {
                assert!(
                    described.param(name).is_some(),
                    "/{path} does not take '{name}' (spec: {:?})",
                    described
                        .parameters
                        .iter()
                        .map(|p| &p.name)
                        .collect::<Vec<_>>()
                );
            }
        }
    }

    #[test]
    fn the_gene_name_trap_cannot_be_built() {
        // `gene_name` is an edge-endpoint parameter; on /genes it would be dropped
        // upstream and the answer would be unrelated genes.
        let r = Request::new(Endpoint::Genes)
            .param("gene_name", "BRCA1")
            .param("name", "BRCA1");
        assert_eq!(r.query(), [("name", "BRCA1".to_owned())]);
        // Paging is added per page, never by callers.
        let r = Request::new(Endpoint::Genes).param("limit", "5");
        assert!(r.query().is_empty());
        // /complexes takes no limit; /variants/summary is not paged.
        assert!(!Endpoint::Complexes.allowed().contains(&"limit"));
        assert!(!Endpoint::Complexes.takes_limit());
        assert!(!Endpoint::VariantsSummary.allowed().contains(&"page"));
        // Linked nodes are read as strings: `verbose` is never sent; nor is a path
        // parameter sent as a query parameter.
        let r = Request::new(Endpoint::GenesVariants).param("verbose", "true");
        assert!(r.query().is_empty());
        assert!(
            !Endpoint::OntologyTermChildren
                .allowed()
                .contains(&"ontology_term_id")
        );
        // What the spec lists is taken, with no hand-kept list in between: a GWAS method.
        let r = Request::new(Endpoint::PhenotypesVariants).param("method", "GWAS");
        assert_eq!(r.param_names(), ["method"]);
    }

    #[test]
    fn page_caps_never_exceed_what_the_spec_promises() {
        let re = regex::Regex::new(r"can not exceed (\d+)").unwrap();
        for endpoint in Endpoint::ALL {
            let described = spec().endpoint(endpoint.path()).unwrap();
            if let Some(c) = re.captures(&described.description) {
                let stated: u32 = c[1].parse().unwrap();
                assert!(
                    endpoint.page_cap() <= stated,
                    "/{}: cap {} > spec {stated}",
                    endpoint.path(),
                    endpoint.page_cap()
                );
            }
        }
    }

    #[test]
    fn mouse_is_served_only_where_the_spec_says_so() {
        assert!(Endpoint::Genes.serves(Organism::Mouse));
        assert!(Endpoint::GenomicElements.serves(Organism::Mouse));
        assert!(!Endpoint::GenesVariants.serves(Organism::Mouse));
        assert!(Endpoint::GenesVariants.serves(Organism::Human));
        let r = Request::new(Endpoint::Genes).organism(Organism::Mouse);
        assert_eq!(r.query(), [("organism", "Mus musculus".to_owned())]);
        assert!(
            Request::new(Endpoint::Genes)
                .organism(Organism::Human)
                .query()
                .is_empty()
        );
    }

    #[test]
    fn the_defaults_are_the_documented_politeness() {
        let c = lifesciences_core::Env::from_pairs(&[])
            .source_config(&CATALOG)
            .unwrap();
        assert_eq!(c.base_url.as_str(), "https://api.catalogkg.igvf.org/api");
        assert_eq!(c.rate_per_second, 10.0);
        assert_eq!(c.max_concurrent, 10);
        assert_eq!(c.upstream.url_var(), "IGVF_CATALOG_API_URL");
    }
}
