//! UniProt's REST API: its description (politeness, health check), the parts of an entry
//! each tool asks for (`fields=`), and every request this server sends. The only module
//! that knows UniProt's URLs, query parameters and headers.
//!
//! What UniProt says beyond the body is read here too: a search page's total
//! (`X-Total-Results`) and next page (`Link: <…>; rel="next"`, a URL to follow as given,
//! <https://www.uniprot.org/help/pagination>), the `303 See Other` of a merged accession
//! (to its successor, with its inactive record) and of an entry name (to its accession),
//! a finished ID-mapping job's `303` to its results
//! (<https://www.uniprot.org/help/id_mapping_prog>), and the release in every answer's
//! `X-UniProt-Release` (read by core, with no request of its own).
//!
//! **Invariant:** no redirect is followed blindly. The HTTP client hands each `303` to
//! this module, which reads what it means, says it (a merged accession answers with its
//! successor and the result says so), and follows it within UniProt with what was asked
//! (`fields=`, which the `Location` drops).

use std::time::Duration;

use lifesciences_core::config::parse_number;
use lifesciences_core::{
    ApiError, ConfigError, HealthCheck, HttpClient, Licence, LifeSciencesClient, Meta,
    ReleaseCheck, Reply, Setting, Upstream, encode_path_segment,
};
use url::Url;

use crate::ids::{Accession, ProteinRef};
use crate::models::{self, Entry, JobStatus, JobSubmitted, MappingResults, SearchResults};

mod fields;
mod mapping;
mod query;

pub(crate) use fields::Parts;
use fields::{MAPPED_ENTRY_FIELDS, SEARCH_FIELDS};
pub(crate) use mapping::{Database, check_pair};
pub(crate) use query::{Search, Section};

/// UniProt: 10 requests/s and 10 in flight, the standard retries (on 429, 500, 502, 503,
/// 504, which UniProt's own example client retries too). UniProt publishes no rate limit
/// (<https://www.uniprot.org/help/api_queries>); this is the pace of the other EMBL-EBI
/// services of this workspace (ChEMBL, EBI Search). The health check is the smallest
/// search there is: one accession, one field.
static UNIPROT: Upstream = Upstream {
    about: "UniProt REST API",
    health: HealthCheck {
        path: "uniprotkb/search",
        query: &[
            ("query", "accession:P99999"),
            ("fields", "accession"),
            ("size", "1"),
        ],
    },
    // No endpoint names the release; every answer does.
    release: Some(ReleaseCheck::Header("X-UniProt-Release")),
    // A page's next page and total, also when the page comes from the cache.
    keep_headers: &["Link", "X-Total-Results"],
    // A 303 says something here (a merged accession, a finished job): read, not followed.
    follow_redirects: false,
    settings: &[Setting {
        var: MAPPING_WAIT_VAR,
        default: MAPPING_WAIT_DEFAULT,
        about: "seconds uniprot_map_ids waits for an ID-mapping job to finish (1–120) before answering that it is still running",
        query_param: None,
    }],
    // docs/sources/uniprot.md, "Licence and citation".
    licence: Some(Licence {
        spdx: "CC-BY-4.0",
        url: "https://www.uniprot.org/help/license",
    }),
    cite: Some("10.1093/nar/gkae1010"),
    ..Upstream::new("UniProt", "UNIPROT", "https://rest.uniprot.org")
};

/// The variable that sets how long an ID-mapping job is waited for, and its default.
const MAPPING_WAIT_VAR: &str = "UNIPROT_MAPPING_WAIT_SECS";
const MAPPING_WAIT_DEFAULT: &str = "25";

/// What UniProt sends in one search or results page at most (`size` above 500 is a 400).
pub(crate) const MAX_PAGE: u32 = 500;

/// Why UniProt refused a request as asked (a 400), in its own words (`messages`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Refusal {
    /// UniProt's messages, e.g. `'nosuchfield' is not a valid search field`.
    pub said: Vec<String>,
}

impl Refusal {
    /// The refusal of an error body `body` (an excerpt of it): its messages, or the body
    /// as text when it is not UniProt's JSON (a 400 to a non-JSON request is text).
    fn read(body: &str) -> Self {
        let said = match serde_json::from_str::<models::ErrorBody>(body) {
            Ok(parsed) if !parsed.said().is_empty() => parsed.said(),
            _ => vec![body.trim().chars().take(300).collect()],
        };
        Self {
            said: said.into_iter().filter(|s| !s.is_empty()).collect(),
        }
    }

    /// UniProt's words, joined.
    pub(crate) fn words(&self) -> String {
        if self.said.is_empty() {
            "no reason given".to_owned()
        } else {
            self.said.join("; ")
        }
    }
}

/// `answer` read into its meaning: a status of `missing` is [`Reply::Missing`], one of
/// `refused` UniProt's [`Refusal`]; any other failure stays a failure.
fn read<T>(
    answer: Result<T, ApiError>,
    missing: &[u16],
    refused: &[u16],
) -> Result<Reply<T, Refusal>, ApiError> {
    Ok(Reply::read(answer, missing, refused)?.map_refusal(|body| Refusal::read(&body)))
}

/// What an inactive record says happened to its accession.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum InactiveReason {
    /// Merged into one entry (UniProt answers `303` to it).
    Merged { into: Vec<String> },
    /// Split into several entries.
    Demerged { into: Vec<String> },
    /// Deleted, with UniProt's reason (`Not part of a reference proteome`).
    Deleted { reason: Option<String> },
    /// Inactive for a reason this server does not know, as UniProt names it.
    Other { kind: Option<String> },
}

impl InactiveReason {
    /// UniProt's name of the reason, lower case.
    pub(crate) fn name(&self) -> String {
        match self {
            Self::Merged { .. } => "merged".to_owned(),
            Self::Demerged { .. } => "demerged".to_owned(),
            Self::Deleted { .. } => "deleted".to_owned(),
            Self::Other { kind } => kind
                .as_deref()
                .map_or_else(|| "reason not given".to_owned(), str::to_ascii_lowercase),
        }
    }
}

/// An inactive record: why, and what else it still names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Inactive {
    pub reason: InactiveReason,
    /// The entry name it had, e.g. `CYC_HUMAN`.
    pub entry_name: Option<String>,
    /// Its sequence's UniParc ID, e.g. `UPI0000128BBF`.
    pub uniparc: Option<String>,
}

impl Inactive {
    fn of(entry: &Entry) -> Self {
        let reason = entry.inactive_reason.as_ref();
        let kind = reason.and_then(|r| r.inactive_reason_type.clone());
        let into = reason
            .map(|r| r.merge_demerge_to.clone())
            .unwrap_or_default();
        let reason = match kind.as_deref().map(str::to_ascii_uppercase).as_deref() {
            Some("MERGED") => InactiveReason::Merged { into },
            Some("DEMERGED") => InactiveReason::Demerged { into },
            Some("DELETED") => InactiveReason::Deleted {
                reason: reason.and_then(|r| r.deleted_reason.clone()),
            },
            _ => InactiveReason::Other { kind },
        };
        Self {
            reason,
            entry_name: entry.uni_protkb_id.clone(),
            uniparc: entry
                .extra_attributes
                .as_ref()
                .and_then(|x| x.uni_parc_id.clone()),
        }
    }
}

/// UniProt's answer for one entry.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum EntryReply {
    /// The entry asked for.
    Found(Entry),
    /// The accession asked for is merged into `entry`: UniProt redirected to it.
    Merged { from: Accession, entry: Entry },
    /// The accession is inactive (demerged, deleted, or merged without a successor to
    /// show): its record says why.
    Inactive(Inactive),
    /// UniProt has no such entry (404).
    Missing,
    /// UniProt refused the identifier (400).
    Refused(Refusal),
}

impl EntryReply {
    /// UniProt's answer to `asked` read: an inactive record, an entry other than the
    /// accession asked for (the successor of a merged accession), or the entry.
    fn read(asked: &ProteinRef, reply: Reply<Entry, Refusal>) -> Self {
        match reply {
            Reply::Found(entry) if entry.is_inactive() => Self::Inactive(Inactive::of(&entry)),
            Reply::Found(entry) => match asked.accession() {
                Some(a) if !entry.primary_accession.eq_ignore_ascii_case(a.as_str()) => {
                    Self::Merged {
                        from: a.clone(),
                        entry,
                    }
                }
                _ => Self::Found(entry),
            },
            Reply::Missing => Self::Missing,
            Reply::Refused(refusal) => Self::Refused(refusal),
        }
    }
}

/// One page of a paged answer: its body, UniProt's total (`X-Total-Results`) and the
/// URL of the next page (`Link`), absent on the last page.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Page<T> {
    pub body: T,
    pub total: Option<u64>,
    pub next: Option<String>,
}

impl<T> Page<T> {
    /// A page from its body and what UniProt said beside it.
    fn of(body: T, meta: &Meta) -> Self {
        Self::read(body, meta.header("Link"), meta.header("X-Total-Results"))
    }

    /// A page from its body and the values of its `Link` and `X-Total-Results` headers.
    fn read(body: T, link: Option<&str>, total: Option<&str>) -> Self {
        Self {
            body,
            total: total.and_then(|t| t.trim().parse().ok()),
            next: link.and_then(next_link),
        }
    }
}

/// The `rel="next"` URL of a `Link` header value. UniProt's URLs hold unescaped commas
/// (`fields=accession,id,gene_primary`), so the value is read by its `<…>` brackets, not
/// split on commas.
pub(crate) fn next_link(header: &str) -> Option<String> {
    let mut rest = header;
    while let Some(open) = rest.find('<') {
        let after = &rest[open + 1..];
        let close = after.find('>')?;
        let url = &after[..close];
        let remainder = &after[close + 1..];
        let params = &remainder[..remainder.find('<').unwrap_or(remainder.len())];
        let is_next = params.split(';').any(|p| {
            let p = p.trim().trim_end_matches(',').trim();
            p.eq_ignore_ascii_case("rel=\"next\"") || p.eq_ignore_ascii_case("rel=next")
        });
        if is_next && !url.is_empty() {
            return Some(url.to_owned());
        }
        rest = remainder;
    }
    None
}

/// An ID-mapping job as UniProt's `POST /idmapping/run` takes it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct MappingJob<'a> {
    /// UniProt's name of the database mapped from (`UniProtKB_AC-ID`, `Ensembl`…).
    pub from: &'static str,
    /// UniProt's name of the database mapped to (`UniProtKB`, `PDB`…).
    pub to: &'static str,
    pub ids: &'a [String],
    /// The organism of gene names (`taxId`, allowed with `Gene_Name` only).
    pub taxon: Option<u64>,
}

impl MappingJob<'_> {
    /// Whether the results are UniProtKB entries (`to` is `UniProtKB` or its reviewed
    /// part), read with `fields=` at `/idmapping/uniprotkb/results/{jobId}`.
    pub(crate) fn to_entries(&self) -> bool {
        self.to.starts_with("UniProtKB")
    }

    fn form(&self) -> Vec<(&'static str, String)> {
        let mut form = vec![
            ("from", self.from.to_owned()),
            ("to", self.to.to_owned()),
            ("ids", self.ids.join(",")),
        ];
        if let Some(taxon) = self.taxon {
            form.push(("taxId", taxon.to_string()));
        }
        form
    }
}

/// Where an ID-mapping job stands.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum JobState {
    /// `NEW` or `RUNNING`: ask again later.
    Running,
    /// `FINISHED`: its results are at `results` (the `Location` UniProt redirected to).
    Finished { results: String },
    /// The job failed (`ERROR`, or a status this server does not know), as UniProt put it.
    Failed { said: String },
    /// UniProt refused the job (a limit exceeded), in its words.
    Refused(Refusal),
}

impl JobState {
    /// A status answer read: its HTTP status, the `Location` of a `303`, its body.
    /// `results` is where a finished job's results are when no `Location` says it.
    pub(crate) fn read(
        status: u16,
        location: Option<&str>,
        body: &JobStatus,
        results: &str,
    ) -> Self {
        if !body.errors.is_empty() {
            let said = body
                .errors
                .iter()
                .filter_map(|e| e.message.clone())
                .collect();
            return Self::Refused(Refusal { said });
        }
        let said = body.job_status.as_deref().map(str::to_ascii_uppercase);
        match (status, said.as_deref()) {
            (300..=399, _) | (_, Some("FINISHED")) => Self::Finished {
                results: location.unwrap_or(results).to_owned(),
            },
            (_, Some("NEW" | "RUNNING")) => Self::Running,
            (_, other) => Self::Failed {
                said: other.unwrap_or("no status").to_owned(),
            },
        }
    }
}

/// UniProt's REST API.
#[derive(Debug, Clone)]
pub(crate) struct UniprotClient {
    http: HttpClient,
    mapping_wait: Duration,
}

impl LifeSciencesClient for UniprotClient {
    const UPSTREAM: &'static Upstream = &UNIPROT;

    /// `UNIPROT_MAPPING_WAIT_SECS` bounds how long a call waits for an ID-mapping job.
    fn new(http: HttpClient) -> Result<Self, ConfigError> {
        let raw = http
            .config()
            .setting(MAPPING_WAIT_VAR)
            .unwrap_or(MAPPING_WAIT_DEFAULT);
        let secs = parse_number(MAPPING_WAIT_VAR, raw, 1.0..=120.0)?;
        Ok(Self {
            http,
            mapping_wait: Duration::from_secs_f64(secs),
        })
    }
}

impl UniprotClient {
    /// How long one call waits for an ID-mapping job to finish.
    pub(crate) fn mapping_wait(&self) -> Duration {
        self.mapping_wait
    }

    /// `GET /uniprotkb/{accession or entry name}?fields=…`: one entry (an isoform's
    /// canonical entry), active or inactive. UniProt answers 404 for an accession it
    /// never had, 400 for one it cannot read, 200 with an inactive record for a
    /// demerged or deleted one, `303` with its inactive record for a merged one (to
    /// `/uniprotkb/<successor>?from=<asked>`) and `303` without a body for an entry name
    /// (to its accession). A `303` is followed once, with the same `fields=`; an entry
    /// other than the accession asked for is the merge, said as such.
    pub(crate) async fn entry(
        &self,
        protein: &ProteinRef,
        parts: &Parts,
    ) -> Result<EntryReply, ApiError> {
        let path = format!("uniprotkb/{}", encode_path_segment(protein.entry_key())?);
        let fields = parts.fields();
        let answer = self
            .http
            .get_json_meta::<Option<Entry>>(&path, &[("fields", fields.as_str())])
            .await;
        let (body, meta) = match read(answer, &[404], &[400])? {
            Reply::Found(found) => found,
            Reply::Missing => return Ok(EntryReply::Missing),
            Reply::Refused(refusal) => return Ok(EntryReply::Refused(refusal)),
        };
        if !meta.is_redirect() {
            return match body {
                Some(entry) => Ok(EntryReply::read(protein, Reply::Found(entry))),
                None => Err(said_nothing("an entry")),
            };
        }
        let inactive = body.as_ref().filter(|e| e.is_inactive()).map(Inactive::of);
        let Some(location) = meta.location.as_deref() else {
            return inactive
                .map(EntryReply::Inactive)
                .ok_or_else(|| said_nothing("where its redirect leads"));
        };
        let url = with_query(location, &[("fields", fields)])?;
        let followed = self.http.get_json_at::<Option<Entry>>(url.as_str()).await;
        Ok(match read(followed, &[404], &[400])? {
            Reply::Found((Some(entry), then)) if !then.is_redirect() => {
                EntryReply::read(protein, Reply::Found(entry))
            }
            // Redirected again, or the successor is gone: what the first answer said.
            Reply::Found(_) | Reply::Missing => {
                inactive.map_or(EntryReply::Missing, EntryReply::Inactive)
            }
            Reply::Refused(refusal) => EntryReply::Refused(refusal),
        })
    }

    /// Several active entries in one request: `GET /uniprotkb/search?query=accession:A OR
    /// id:B_HUMAN…&fields=…&size=n`. Entries UniProt does not return (inactive, unknown)
    /// are for [`entry`](Self::entry) to explain. A 400 is UniProt's refusal.
    pub(crate) async fn entries(
        &self,
        proteins: &[ProteinRef],
        parts: &Parts,
    ) -> Result<Reply<Vec<Entry>, Refusal>, ApiError> {
        let mut terms: Vec<String> = Vec::new();
        for p in proteins {
            let term = match p {
                ProteinRef::EntryName(name) => format!("id:{name}"),
                _ => format!("accession:{}", p.entry_key()),
            };
            if !terms.contains(&term) {
                terms.push(term);
            }
        }
        let (query, fields, size) = (terms.join(" OR "), parts.fields(), terms.len().to_string());
        let params = [
            ("query", query.as_str()),
            ("fields", &fields),
            ("size", &size),
        ];
        let answer = self
            .http
            .get_json::<SearchResults>("uniprotkb/search", &params)
            .await;
        Ok(read(answer, &[], &[400])?.map(|page| page.results))
    }

    /// The parameters of a search page: the query, the row fields, the page size.
    fn search_params(query: &str, size: u32) -> [(&'static str, String); 3] {
        [
            ("query", query.to_owned()),
            ("fields", SEARCH_FIELDS.to_owned()),
            ("size", size.min(MAX_PAGE).to_string()),
        ]
    }

    /// The first page of `GET /uniprotkb/search?query=…&fields=…&size=…`, with the total
    /// and the next page from its headers. A 400 (a query UniProt cannot run) is its
    /// refusal in its words.
    pub(crate) async fn search(
        &self,
        query: &str,
        size: u32,
    ) -> Result<Reply<Page<SearchResults>, Refusal>, ApiError> {
        let params = Self::search_params(query, size);
        let params: Vec<(&str, &str)> = params.iter().map(|(k, v)| (*k, v.as_str())).collect();
        let answer = self
            .http
            .get_json_meta::<SearchResults>("uniprotkb/search", &params)
            .await;
        Ok(read(answer, &[], &[400])?.map(|(body, meta)| Page::of(body, &meta)))
    }

    /// A later page of a search: the `Link` URL UniProt handed out, followed as given.
    pub(crate) async fn search_next(
        &self,
        next: &str,
    ) -> Result<Reply<Page<SearchResults>, Refusal>, ApiError> {
        let url = self.handed_out(next)?;
        let answer = self.http.get_json_at::<SearchResults>(url.as_str()).await;
        Ok(read(answer, &[], &[400])?.map(|(body, meta)| Page::of(body, &meta)))
    }

    /// `POST /idmapping/run` with the form `from`, `to`, `ids` (comma-separated) and
    /// `taxId`: the job's ID. UniProt derives the ID from the request, so the same job
    /// asked again is the same job (and a finished one is not run again). A 400 is its
    /// refusal.
    pub(crate) async fn run_mapping(
        &self,
        job: &MappingJob<'_>,
    ) -> Result<Reply<String, Refusal>, ApiError> {
        let form = job.form();
        let form: Vec<(&str, &str)> = form.iter().map(|(k, v)| (*k, v.as_str())).collect();
        let answer = self
            .http
            .post_form::<JobSubmitted>("idmapping/run", &form)
            .await;
        Ok(read(answer, &[], &[400])?.map(|job| job.job_id))
    }

    /// Where the results of a finished job are when no `Location` says:
    /// `/idmapping/uniprotkb/results/{jobId}` for UniProtKB entries,
    /// `/idmapping/results/{jobId}` for identifiers of other databases.
    fn results_url(&self, job: &MappingJob<'_>, job_id: &str) -> Result<String, ApiError> {
        let id = encode_path_segment(job_id)?;
        let path = if job.to_entries() {
            format!("idmapping/uniprotkb/results/{id}")
        } else {
            format!("idmapping/results/{id}")
        };
        Ok(self.http.url(&path, &[])?.to_string())
    }

    /// `GET /idmapping/status/{jobId}`, never from a cache and without following its
    /// redirect: `200 {"jobStatus": "RUNNING"}` while it runs, `303` to the results when
    /// it is finished, `400` with `errors` when a limit is exceeded, and
    /// `500 {"jobStatus": "ERROR"}` when the job failed.
    pub(crate) async fn job_status(
        &self,
        job: &MappingJob<'_>,
        job_id: &str,
    ) -> Result<JobState, ApiError> {
        let path = format!("idmapping/status/{}", encode_path_segment(job_id)?);
        let results = self.results_url(job, job_id)?;
        let answer = self
            .http
            .poll_json_meta::<Option<JobStatus>>(&path, &[])
            .await;
        match read(answer, &[], &[400]) {
            Ok(Reply::Found((body, meta))) => Ok(JobState::read(
                meta.status,
                meta.location.as_deref(),
                &body.unwrap_or_default(),
                &results,
            )),
            Ok(Reply::Refused(refusal)) => Ok(JobState::Refused(refusal)),
            Ok(Reply::Missing) => Err(said_nothing("the job's status")),
            // A failed job is a 500 whose body says so: the job's end, not an outage.
            Err(e) => match e
                .upstream_body()
                .and_then(|b| serde_json::from_str::<JobStatus>(b).ok())
                .and_then(|status| status.job_status)
            {
                Some(said) if e.upstream_status() == Some(500) => Ok(JobState::Failed { said }),
                _ => Err(e),
            },
        }
    }

    /// The first page of a finished job's results, at the URL its status redirected to:
    /// `size` rows, and for UniProtKB entries only the fields a row shows. A 404 is
    /// results UniProt no longer keeps.
    pub(crate) async fn mapping_results(
        &self,
        job: &MappingJob<'_>,
        results: &str,
        size: u32,
    ) -> Result<Reply<Page<MappingResults>, Refusal>, ApiError> {
        let mut params = vec![("size", size.min(MAX_PAGE).to_string())];
        if job.to_entries() {
            params.push(("fields", MAPPED_ENTRY_FIELDS.to_owned()));
        }
        let url = with_query(results, &params)?;
        let answer = self.http.get_json_at::<MappingResults>(url.as_str()).await;
        Ok(read(answer, &[404], &[400])?.map(|(body, meta)| Page::of(body, &meta)))
    }

    /// A later page of a job's results: the `Link` URL UniProt handed out.
    pub(crate) async fn mapping_next(
        &self,
        next: &str,
    ) -> Result<Reply<Page<MappingResults>, Refusal>, ApiError> {
        let url = self.handed_out(next)?;
        let answer = self.http.get_json_at::<MappingResults>(url.as_str()).await;
        Ok(read(answer, &[404], &[400])?.map(|(body, meta)| Page::of(body, &meta)))
    }

    /// A URL UniProt handed out (a `Link` or a `Location`, kept in a cursor), refused
    /// unless it is under the configured base URL: a cursor is not signed, and a URL
    /// elsewhere is never requested.
    fn handed_out(&self, url: &str) -> Result<Url, ApiError> {
        let base = self.http.url("", &[])?;
        let parsed = Url::parse(url).ok().filter(|u| {
            u.scheme() == base.scheme()
                && u.host_str() == base.host_str()
                && u.port_or_known_default() == base.port_or_known_default()
                && u.path().starts_with(base.path().trim_end_matches('/'))
        });
        parsed.ok_or_else(|| {
            ApiError::invalid_input(
                "The cursor does not point to a UniProt page this server handed out.",
                "Pass `pagination.cursor` exactly as the previous page returned it, or omit it \
                 to start from the first page.",
                url,
            )
        })
    }
}

/// `url` with `params` set: each replaces a parameter of the same name, the others are
/// kept as given (a `Location` keeps `from=` but drops `fields=`).
fn with_query<V: AsRef<str>>(url: &str, params: &[(&str, V)]) -> Result<Url, ApiError> {
    let mut parsed = Url::parse(url).map_err(|e| {
        ApiError::upstream_said(
            UNIPROT.name,
            format!("UniProt pointed to {url:?}, which is not a URL ({e})."),
            "Retry in a minute; report it if it persists.",
        )
    })?;
    let kept: Vec<(String, String)> = parsed
        .query_pairs()
        .filter(|(k, _)| !params.iter().any(|(name, _)| k == name))
        .map(|(k, v)| (k.into_owned(), v.into_owned()))
        .collect();
    parsed
        .query_pairs_mut()
        .clear()
        .extend_pairs(kept)
        .extend_pairs(params.iter().map(|(k, v)| (*k, v.as_ref())));
    Ok(parsed)
}

/// UniProt answered without the part this request is for (a success with no body, a
/// redirect without `Location`).
fn said_nothing(what: &str) -> ApiError {
    ApiError::upstream_said(
        UNIPROT.name,
        format!("UniProt answered without {what}."),
        "UniProt may be having trouble: retry in a minute.",
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::models::tests::fixture;
    use lifesciences_core::{Env, ErrorCode, SourceConfig, UpstreamFailure};

    fn config(pairs: &[(&str, &str)]) -> Result<SourceConfig, ConfigError> {
        Env::from_pairs(pairs).source_config(&UNIPROT)
    }

    #[test]
    fn defaults_pace_uniprot_like_the_other_ebi_services() {
        let c = config(&[]).unwrap();
        assert_eq!(c.base_url.as_str(), "https://rest.uniprot.org/");
        assert_eq!((c.rate_per_second, c.max_concurrent), (10.0, 10));
        assert!(!c.cache_posts, "a job submission is not a look-up");
        let moved = config(&[
            ("UNIPROT_API_URL", "http://127.0.0.1:9/"),
            ("UNIPROT_RATE_LIMIT", "2"),
        ]);
        assert_eq!(moved.unwrap().rate_per_second, 2.0);
        let client = |pairs: &[(&str, &str)]| Env::from_pairs(pairs).client::<UniprotClient>();
        assert_eq!(client(&[]).unwrap().mapping_wait(), Duration::from_secs(25));
        let short = client(&[("UNIPROT_MAPPING_WAIT_SECS", "1.5")]).unwrap();
        assert_eq!(short.mapping_wait(), Duration::from_millis(1500));
        assert!(client(&[("UNIPROT_MAPPING_WAIT_SECS", "0")]).is_err());
    }

    /// The header values of a recorded answer (`*.http.json`, as saved with the body).
    fn header(file: &str, name: &str) -> Option<String> {
        let saved: serde_json::Value = serde_json::from_str(&fixture(file)).unwrap();
        saved["headers"].as_array().unwrap().iter().find_map(|h| {
            (h[0].as_str()?.eq_ignore_ascii_case(name)).then(|| h[1].as_str().unwrap().to_owned())
        })
    }

    #[test]
    fn the_recorded_link_headers_give_the_next_page_and_the_last_page_none() {
        let link = header("uniprotkb_search__FUBP3__page1.http.json", "Link").unwrap();
        let total = header(
            "uniprotkb_search__FUBP3__page1.http.json",
            "X-Total-Results",
        );
        let page = Page::read((), Some(&link), total.as_deref());
        assert_eq!(page.total, Some(999));
        // Commas inside the URL are part of it.
        assert_eq!(
            page.next.as_deref(),
            Some(
                "https://rest.uniprot.org/uniprotkb/search?format=tsv&fields=accession,id,gene_primary\
                 &includeIsoform=TRUE&query=FUBP3&cursor=1bq1yslaqtbf8zsosc0nw4cegwj849rqlpnky4i03v5ygve7nh&size=500"
            )
        );
        let first = "idmapping_uniprotkb_results__page1.http.json";
        let next = next_link(&header(first, "Link").unwrap()).unwrap();
        assert!(next.ends_with("&cursor=j5xqrofo4&size=1"), "{next}");
        let last = "idmapping_uniprotkb_results__page2.http.json";
        assert_eq!(header(last, "Link"), None);
        assert_eq!(
            Page::read((), None, header(last, "X-Total-Results").as_deref()).total,
            Some(2)
        );
    }

    #[test]
    fn only_the_next_relation_of_a_link_is_followed() {
        let two = r#"<https://rest.uniprot.org/a?x=1,2>; rel="prev", <https://rest.uniprot.org/b?c=3>; rel="next""#;
        assert_eq!(
            next_link(two).as_deref(),
            Some("https://rest.uniprot.org/b?c=3")
        );
        assert_eq!(
            next_link(r#"<https://rest.uniprot.org/a>; rel="prev""#),
            None
        );
        assert_eq!(next_link("garbage"), None);
        assert_eq!(next_link("<>; rel=next"), None);
    }

    fn entry(json: &str) -> Entry {
        serde_json::from_str(json).unwrap()
    }

    #[test]
    fn an_inactive_record_or_another_accession_is_not_the_entry_asked_for() {
        let asked = ProteinRef::parse("P00001").unwrap();
        let demerged = entry(&fixture("uniprotkb__P00001__inactive_DEMERGED.json"));
        assert_eq!(
            EntryReply::read(&asked, Reply::Found(demerged)),
            EntryReply::Inactive(Inactive {
                reason: InactiveReason::Demerged {
                    into: vec!["P99999".into(), "P99998".into()]
                },
                entry_name: Some("CYC_HUMAN".into()),
                uniparc: Some("UPI0000128BBF".into()),
            })
        );
        let deleted = entry(
            r#"{"entryType":"Inactive","primaryAccession":"A0A000","inactiveReason":{"inactiveReasonType":"DELETED","deletedReason":"Not part of a reference proteome"}}"#,
        );
        let EntryReply::Inactive(record) =
            EntryReply::read(&ProteinRef::parse("A0A000").unwrap(), Reply::Found(deleted))
        else {
            panic!("a deleted record is inactive");
        };
        assert_eq!(
            record.reason,
            InactiveReason::Deleted {
                reason: Some("Not part of a reference proteome".into())
            }
        );
        // A merged accession's redirect, followed: the successor answers.
        let successor = entry(r#"{"primaryAccession":"P23141","uniProtkbId":"EST1_HUMAN"}"#);
        let merged = EntryReply::read(
            &ProteinRef::parse("Q00015").unwrap(),
            Reply::Found(successor.clone()),
        );
        assert!(matches!(merged, EntryReply::Merged { ref from, .. } if from.as_str() == "Q00015"));
        // An entry name is answered by its accession: no merge.
        assert_eq!(
            EntryReply::read(
                &ProteinRef::parse("EST1_HUMAN").unwrap(),
                Reply::Found(successor.clone())
            ),
            EntryReply::Found(successor)
        );
    }

    /// A failure as the HTTP client reports UniProt's status `status` with body `body`.
    fn answered(status: u16, body: &str) -> Result<Entry, ApiError> {
        let failure = UpstreamFailure::Status {
            status,
            body: body.to_owned(),
            retry_after: None,
        };
        Err(ApiError::from_failure("UniProt", failure, 1))
    }

    #[test]
    fn a_404_is_missing_a_400_uniprot_s_words_and_outages_stay_failures() {
        let asked = ProteinRef::parse("P99997").unwrap();
        let missing = read(
            answered(404, &fixture("error_404__P99997.json")),
            &[404],
            &[400],
        );
        assert_eq!(
            EntryReply::read(&asked, missing.unwrap()),
            EntryReply::Missing
        );
        let refused = read(
            answered(
                400,
                &fixture("error_400__search__invalid_field_and_value.json"),
            ),
            &[404],
            &[400],
        )
        .unwrap();
        let Reply::Refused(refusal) = refused else {
            panic!("a 400 is a refusal");
        };
        assert_eq!(refusal.said.len(), 3);
        assert!(
            refusal
                .words()
                .starts_with("'invalidQueryField' is not a valid search field; ")
        );
        // A 400 to a non-JSON request is text ("Error messages\n…").
        let text = Refusal::read("Error messages\nThe 'accession' value has invalid format.");
        assert!(text.words().contains("invalid format"));
        for status in [500, 503, 429] {
            let e = read(answered(status, ""), &[404], &[400]).unwrap_err();
            assert_eq!(e.upstream_status(), Some(status));
        }
    }

    #[test]
    fn a_job_status_is_running_finished_failed_or_refused() {
        let body = |json: &str| -> JobStatus { serde_json::from_str(json).unwrap() };
        let fallback = "https://rest.uniprot.org/idmapping/results/1";
        let finished = body(&fixture("idmapping_status__FINISHED.json"));
        let location = "https://rest.uniprot.org/idmapping/uniref/results/ecuuh9h0Md";
        assert_eq!(
            JobState::read(303, Some(location), &finished, fallback),
            JobState::Finished {
                results: location.into()
            }
        );
        assert_eq!(
            JobState::read(200, None, &body(r#"{"jobStatus":"RUNNING"}"#), fallback),
            JobState::Running
        );
        assert_eq!(
            JobState::read(200, None, &body(r#"{"jobStatus":"NEW"}"#), fallback),
            JobState::Running
        );
        assert_eq!(
            JobState::read(200, None, &finished, fallback),
            JobState::Finished {
                results: fallback.into()
            }
        );
        assert_eq!(
            JobState::read(500, None, &body(r#"{"jobStatus":"ERROR"}"#), fallback),
            JobState::Failed {
                said: "ERROR".into()
            }
        );
        let limit = body(r#"{"errors":[{"code":40,"message":"Id count exceeds 100000"}]}"#);
        assert!(matches!(
            JobState::read(400, None, &limit, fallback),
            JobState::Refused(_)
        ));
    }

    #[test]
    fn a_job_is_submitted_as_uniprot_s_form() {
        let ids = ["P99999".to_owned(), "P12345".to_owned()];
        let job = MappingJob {
            from: "UniProtKB_AC-ID",
            to: "UniProtKB",
            ids: &ids,
            taxon: None,
        };
        assert_eq!(
            job.form(),
            [
                ("from", "UniProtKB_AC-ID".to_owned()),
                ("to", "UniProtKB".to_owned()),
                ("ids", "P99999,P12345".to_owned())
            ]
        );
        assert!(job.to_entries());
        let genes = MappingJob {
            from: "Gene_Name",
            to: "UniProtKB-Swiss-Prot",
            ids: &ids,
            taxon: Some(9606),
        };
        assert_eq!(genes.form()[3], ("taxId", "9606".to_owned()));
    }

    #[test]
    fn handed_out_urls_must_be_under_the_base_and_results_have_a_known_place() {
        let client: UniprotClient = Env::from_pairs(&[]).client().unwrap();
        let link = "https://rest.uniprot.org/idmapping/uniprotkb/results/623f?cursor=j5&size=1";
        assert_eq!(client.handed_out(link).unwrap().as_str(), link);
        for elsewhere in [
            "https://evil.example/idmapping/results/1",
            "http://rest.uniprot.org/idmapping/results/1",
            "not a url",
        ] {
            let e = client.handed_out(elsewhere).unwrap_err();
            assert_eq!(e.code(), ErrorCode::InvalidInput, "{elsewhere}");
        }
        let ids = ["P99999".to_owned()];
        let ensembl = MappingJob {
            from: "UniProtKB_AC-ID",
            to: "Ensembl",
            ids: &ids,
            taxon: None,
        };
        assert_eq!(
            client.results_url(&ensembl, "de23a031").unwrap(),
            "https://rest.uniprot.org/idmapping/results/de23a031"
        );
    }

    #[test]
    fn a_location_keeps_its_parameters_and_gets_what_was_asked() {
        let merged = "https://rest.uniprot.org/uniprotkb/P23141?from=Q00015";
        let url = with_query(merged, &[("fields", "accession,id")]).unwrap();
        assert_eq!(
            url.as_str(),
            "https://rest.uniprot.org/uniprotkb/P23141?from=Q00015&fields=accession%2Cid"
        );
        // A parameter already there is replaced, not repeated.
        let again = with_query(url.as_str(), &[("fields", "accession")]).unwrap();
        assert_eq!(again.query(), Some("from=Q00015&fields=accession"));
        let e = with_query("not a url", &[("size", "1")]).unwrap_err();
        assert_eq!(e.code(), ErrorCode::UpstreamError);
    }
}
